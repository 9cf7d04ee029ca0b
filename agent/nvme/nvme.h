/*
 * nvme/nvme.h - NVMe command encodings and log/identify parsers, pure functions
 * on byte buffers (no device access), so every offset is unit-tested against
 * byte-exact fixtures. Offsets and encodings: the NVMe Base Specification
 * 2.0 and NVM Command Set 1.0 (each definition names its section), as
 * libnvme's types.h, fio's engines/nvme.c and nvme-cli's OCP plugin spell
 * them. All on-wire fields are little-endian.
 */
#ifndef BC_NVME_NVME_H
#define BC_NVME_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/ioctl.h>

#include <linux/nvme_ioctl.h>

typedef unsigned __int128 bc_u128;

/* opcodes (NVMe 2.0 §5 admin, NVM command set §3) */
#define BC_NVME_ADMIN_GET_LOG	 0x02
#define BC_NVME_ADMIN_IDENTIFY	 0x06
#define BC_NVME_CMD_FLUSH	 0x00
#define BC_NVME_CMD_WRITE	 0x01
#define BC_NVME_CMD_READ	 0x02
#define BC_NVME_CMD_IO_MGMT_RECV 0x12
#define BC_NVME_CMD_DSM		 0x09

#define BC_NVME_CNS_NS	       0x00
#define BC_NVME_CNS_CTRL       0x01
#define BC_NVME_IDENTIFY_BYTES 4096

#define BC_NVME_LID_SMART     0x02
#define BC_NVME_LID_FDP_STATS 0x22
#define BC_NVME_LID_OCP_C0    0xC0
#define BC_NVME_NSID_ALL      0xFFFFFFFFu

#define BC_NVME_SMART_BYTES	512
#define BC_NVME_OCP_C0_BYTES	512
#define BC_NVME_FDP_STATS_BYTES 64

/* DTYPE value of the FDP (data placement) directive, CDW12 bits 23:20 */
#define BC_NVME_DTYPE_FDP 2
/* one SMART data unit: 1000 x 512 bytes (NVMe 2.0 §5.16.1.3) */
#define BC_NVME_DATA_UNIT_BYTES 512000u

/*
 * Encoders fill struct nvme_passthru_cmd (linux/nvme_ioctl.h), whose first
 * 68 bytes are laid out exactly as struct nvme_uring_cmd; bc_nvme_to_uring
 * converts. buf is a user pointer the command transfers to or from.
 */
void bc_nvme_identify(struct nvme_passthru_cmd *c, uint8_t cns, uint32_t nsid, void *buf);

/*
 * Get Log Page. len must be a multiple of 4 and at least 4 (NUMD is a dword
 * count, 0-based, split NUMDL cdw10[31:16] / NUMDU cdw11[15:0]); lpo (bytes)
 * must be a multiple of 4. lsi (cdw11[31:16]) carries the endurance group ID
 * for FDP logs; uuid_idx (cdw14[6:0]) the vendor UUID index for OCP logs.
 * Returns 0 or -EINVAL.
 */
int bc_nvme_get_log(struct nvme_passthru_cmd *c, uint8_t lid, uint8_t lsp, uint32_t nsid,
		    uint16_t lsi, uint64_t lpo, uint8_t uuid_idx, void *buf, uint32_t len);

/*
 * I/O Management Receive, MO 1 (Reclaim Unit Handle Status), an I/O command
 * on the namespace. len: multiple of 4, >= 16. Returns 0 or -EINVAL.
 */
int bc_nvme_ruhs_cmd(struct nvme_passthru_cmd *c, uint32_t nsid, void *buf, uint32_t len);

/*
 * Read or write (opcode BC_NVME_CMD_READ/WRITE) of len bytes at byte offset
 * off on an LBA size of 1 << lba_shift. When dtype is nonzero (FDP: 2) the
 * directive type goes to CDW12[23:20] and dspec (the placement ID) to
 * CDW13[31:16], as fio's io_uring_cmd engine does. Returns 0, or -EINVAL when
 * off/len are not LBA aligned, len is 0 or more than 65536 LBAs.
 */
int bc_nvme_rw(struct nvme_passthru_cmd *c, uint8_t opcode, uint32_t nsid, uint64_t off,
	       uint32_t len, unsigned lba_shift, uint8_t dtype, uint16_t dspec, void *buf);

/*
 * Dataset Management with the Deallocate attribute (NVM Command Set 1.0
 * §3.2.3; the kernel's nvme_setup_discard does the same) for len bytes at
 * byte offset off: one 16-byte range {context attributes 0 @0, length in
 * LBAs (1-based) @4, starting LBA @8}, little-endian, written into buf,
 * which the command transfers and which must stay valid until completion.
 * CDW10 NR (0-based range count) = 0, CDW11 AD (bit 2) = 1. Returns 0, or
 * -EINVAL when off/len are not LBA aligned, len is 0 or over 2^32 - 1 LBAs.
 */
#define BC_NVME_DSM_RANGE_BYTES 16
#define BC_NVME_DSM_AD		(1u << 2)
int bc_nvme_dsm_deallocate(struct nvme_passthru_cmd *c, uint32_t nsid, uint64_t off, uint64_t len,
			   unsigned lba_shift, void *buf);

/* copy the 68 shared bytes into the io_uring command payload */
void bc_nvme_to_uring(struct nvme_uring_cmd *u, const struct nvme_passthru_cmd *c);

/* a positive CQE res / ioctl return: status field = le16(status) >> 1 */
struct bc_nvme_status {
	uint8_t sc;  /* status code */
	uint8_t sct; /* status code type */
	bool dnr;    /* do not retry */
};
struct bc_nvme_status bc_nvme_status_decode(int res);

/* Identify Controller, the fields we report */
struct bc_nvme_id_ctrl {
	uint16_t vid;
	char sn[21]; /* ASCII, trailing spaces trimmed */
	char mn[41];
	char fr[9];
	uint16_t cntlid;
	uint32_t ver;
	uint32_t ctratt;
	bool fdps; /* CTRATT bit 19: flexible data placement supported */
	uint32_t nn;
	char subnqn[257];
};

#define BC_NVME_LBAF_MAX 64
struct bc_nvme_lbaf {
	uint16_t ms;   /* metadata bytes per LBA */
	uint8_t lbads; /* log2 of the LBA data size; 0 = format not available */
	uint8_t rp;    /* relative performance, 0 best */
};

/* Identify Namespace */
struct bc_nvme_id_ns {
	uint64_t nsze, ncap, nuse; /* LBAs */
	uint8_t nsfeat;		   /* bit 0: thin provisioning (NUSE is meaningful) */
	uint8_t dlfeat; /* bits 2:0 what a read of a deallocated block returns; bit 3 DEAC */
	uint8_t nlbaf;	/* number of formats (1-based here: NLBAF + 1) */
	uint8_t flbas;
	uint8_t fmt;	    /* format index in use, incl. the FLBAS[6:5] extension */
	uint32_t lba_bytes; /* of the format in use */
	uint16_t ms;	    /* metadata bytes per LBA of the format in use */
	bool extended;	    /* FLBAS bit 4: metadata interleaved with data */
	uint16_t npwg;	    /* preferred write granularity, LBAs (1-based) when nsfeat bit 4 */
	uint16_t nawupf;
	uint16_t endgid;
	struct bc_nvme_lbaf lbaf[BC_NVME_LBAF_MAX];
};

/* parsers: 0, or -EINVAL (buffer too short or the format index out of range) */
int bc_nvme_parse_id_ctrl(const void *buf, size_t len, struct bc_nvme_id_ctrl *out);
int bc_nvme_parse_id_ns(const void *buf, size_t len, struct bc_nvme_id_ns *out);

/* SMART / Health log (LID 0x02) */
struct bc_nvme_smart {
	uint8_t critical_warning;
	uint16_t temp_k; /* composite temperature, Kelvin */
	uint8_t avail_spare, percent_used;
	bc_u128 data_units_read, data_units_written; /* units of 512000 bytes */
	bc_u128 host_reads, host_writes;	     /* commands */
	bc_u128 media_errors;
};
int bc_nvme_parse_smart(const void *buf, size_t len, struct bc_nvme_smart *out);

/*
 * Identify UUID list (CNS 0x17): the 1-based index of uuid, 0 when absent
 * (what Get Log Page's UUID index then gets, as nvme-cli does).
 */
#define BC_NVME_CNS_UUID_LIST 0x17
int bc_nvme_uuid_index(const void *buf, size_t len, const uint8_t uuid[16]);
/* the OCP vendor UUID in that list (nvme-cli ocp plugin) */
extern const uint8_t bc_nvme_ocp_uuid[16];

/* OCP extended SMART log (LID 0xC0): -EBADMSG when the log GUID is wrong */
struct bc_nvme_ocp_c0 {
	bc_u128 pmuw; /* physical media units written, bytes */
	bc_u128 pmur; /* physical media units read, bytes */
	uint16_t version;
};
int bc_nvme_parse_ocp_c0(const void *buf, size_t len, struct bc_nvme_ocp_c0 *out);
extern const uint8_t bc_nvme_ocp_c0_guid[16]; /* bytes 496..511 as stored */

/* FDP Statistics log (LID 0x22), bytes including metadata */
struct bc_nvme_fdp_stats {
	bc_u128 hbmw; /* host bytes with metadata written */
	bc_u128 mbmw; /* media bytes with metadata written */
	bc_u128 mbe;  /* media bytes erased */
};
int bc_nvme_parse_fdp_stats(const void *buf, size_t len, struct bc_nvme_fdp_stats *out);

/* Reclaim Unit Handle Status descriptor (I/O Management Receive MO 1) */
struct bc_nvme_ruhs {
	uint16_t pid; /* placement ID: use verbatim as DSPEC */
	uint16_t ruhid;
	uint32_t earutr; /* seconds */
	uint64_t ruamw;	 /* available media writes (logical blocks) */
};
/*
 * Parse up to max descriptors into out. Returns the number of descriptors the
 * device reported (NRUHSD, may exceed max or what fits in len: only
 * min(NRUHSD, max, (len-16)/32) are filled), or -EINVAL when len < 16.
 */
int bc_nvme_parse_ruhs(const void *buf, size_t len, struct bc_nvme_ruhs *out, int max);

/*
 * Discovery log (LID 0x70, nsid 0, on a discovery controller): a 20-byte
 * header, then numrec entries of 1024 bytes from LPO 1024 (the NVMe over
 * Fabrics Discovery Log Page; libnvme's nvmf_get_discovery_log reads it so).
 * Re-read the header after the entries; retry when genctr changed.
 */
#define BC_NVME_LID_DISCOVERY	 0x70
#define BC_NVME_DISC_ENTRY_BYTES 1024
struct bc_nvme_disc_entry {
	uint8_t trtype;	 /* 3 = TCP */
	uint8_t adrfam;	 /* 1 = IPv4, 2 = IPv6 */
	uint8_t subtype; /* 1 referral, 2 NVM subsystem, 3 current discovery */
	uint16_t portid, cntlid;
	char trsvcid[33];
	char subnqn[257];
	char traddr[257];
};
/* 0 or -EINVAL (len < 20) */
int bc_nvme_parse_disc_header(const void *buf, size_t len, uint64_t *genctr, uint64_t *numrec,
			      uint16_t *recfmt);
/* one 1024-byte entry, strings trimmed of trailing spaces and NULs: 0 or -EINVAL */
int bc_nvme_parse_disc_entry(const void *buf, size_t len, struct bc_nvme_disc_entry *e);

/* write amplification from two samples of media and host byte counters */
enum bc_waf_status {
	BC_WAF_AVAILABLE = 0,
	BC_WAF_NO_COUNTERS,   /* the device has neither FDP statistics nor the OCP C0 log */
	BC_WAF_NO_HOST_BYTES, /* the host wrote nothing between the samples */
	BC_WAF_WENT_BACK,     /* a counter decreased (device reset or wrap) */
};
struct bc_waf {
	enum bc_waf_status status;
	double waf; /* media / host, valid when status is BC_WAF_AVAILABLE */
	bc_u128 media_bytes, host_bytes;
};
const char *bc_waf_status_name(enum bc_waf_status s);
/* WAF = (media1 - media0) / (host1 - host0); pass have = false when unsupported */
struct bc_waf bc_nvme_waf(bool have, bc_u128 media0, bc_u128 media1, bc_u128 host0, bc_u128 host1);
/* FDP drives: ΔMBMW / ΔHBMW */
struct bc_waf bc_nvme_waf_fdp(const struct bc_nvme_fdp_stats *a, const struct bc_nvme_fdp_stats *b);
/* OCP drives: ΔPMUW / (Δdata_units_written x 512000), ±512000 bytes per sample */
struct bc_waf bc_nvme_waf_ocp(const struct bc_nvme_ocp_c0 *oa, const struct bc_nvme_ocp_c0 *ob,
			      const struct bc_nvme_smart *sa, const struct bc_nvme_smart *sb);

/* lossy: for JSON (a double holds 2^53 exactly) */
double bc_u128_to_double(bc_u128 v);

#endif
