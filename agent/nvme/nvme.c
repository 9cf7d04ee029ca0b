/*
 * nvme/nvme.c - NVMe command dwords and log/identify page parsers (see
 * nvme/nvme.h). No device access here: the agent's ioctl and io_uring paths
 * call these, and tests/unit/test_nvme.c checks every byte.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nvme/nvme.h"
#include "util/le.h"

/* the uring payload is the passthru struct minus its result word */
_Static_assert(offsetof(struct nvme_uring_cmd, cdw15) == offsetof(struct nvme_passthru_cmd, cdw15),
	       "nvme_uring_cmd and nvme_passthru_cmd layouts differ");
_Static_assert(offsetof(struct nvme_uring_cmd, timeout_ms) == 64, "nvme_uring_cmd layout");
_Static_assert(sizeof(struct nvme_uring_cmd) == 72, "nvme_uring_cmd size");

/* OCP Datacenter NVMe SSD spec, C0 log GUID AFD514C97C6F4F9CA4F2BFEA2810AFC5h stored LE */
const uint8_t bc_nvme_ocp_c0_guid[16] = {0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
					 0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF};

/* c194d55b-e094-4794-a21d-29998f56be6f, nvme-cli plugins/ocp */
const uint8_t bc_nvme_ocp_uuid[16] = {0xc1, 0x94, 0xd5, 0x5b, 0xe0, 0x94, 0x47, 0x94,
				      0xa2, 0x1d, 0x29, 0x99, 0x8f, 0x56, 0xbe, 0x6f};

static bc_u128 s_le128(const uint8_t *p)
{
	return (bc_u128)bc_le64(p) | (bc_u128)bc_le64(p + 8) << 64;
}

/* fixed-width ASCII field, space (or NUL) padded: copy and trim */
static void s_str(char *dst, size_t dstlen, const uint8_t *src, size_t n)
{
	size_t i;

	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	for (i = 0; i < n && dst[i]; i++)
		if ((unsigned char)dst[i] < 0x20 || (unsigned char)dst[i] > 0x7e)
			dst[i] = '?';
	while (i > 0 && (dst[i - 1] == ' ' || dst[i - 1] == '\0'))
		dst[--i] = '\0';
}

void bc_nvme_identify(struct nvme_passthru_cmd *c, uint8_t cns, uint32_t nsid, void *buf)
{
	memset(c, 0, sizeof(*c));
	c->opcode = BC_NVME_ADMIN_IDENTIFY;
	c->nsid = nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = BC_NVME_IDENTIFY_BYTES;
	c->cdw10 = cns; /* CNTID (bits 31:16) 0 */
}

int bc_nvme_get_log(struct nvme_passthru_cmd *c, uint8_t lid, uint8_t lsp, uint32_t nsid,
		    uint16_t lsi, uint64_t lpo, uint8_t uuid_idx, void *buf, uint32_t len)
{
	uint32_t numd;

	if (len < 4 || len % 4 || lpo % 4)
		return -EINVAL;
	numd = len / 4 - 1;
	memset(c, 0, sizeof(*c));
	c->opcode = BC_NVME_ADMIN_GET_LOG;
	c->nsid = nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = len;
	/* LID 7:0, LSP 14:8, RAE 15 (0: clear async events as nvme-cli does), NUMDL 31:16 */
	c->cdw10 = lid | (uint32_t)(lsp & 0x7f) << 8 | (numd & 0xffff) << 16;
	/* NUMDU 15:0, LSI 31:16 (the endurance group for FDP logs) */
	c->cdw11 = numd >> 16 | (uint32_t)lsi << 16;
	c->cdw12 = (uint32_t)lpo;
	c->cdw13 = (uint32_t)(lpo >> 32);
	c->cdw14 = uuid_idx & 0x7f; /* OT 23 and CSI 31:24 left 0 */
	return 0;
}

int bc_nvme_ruhs_cmd(struct nvme_passthru_cmd *c, uint32_t nsid, void *buf, uint32_t len)
{
	if (len < 16 || len % 4)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->opcode = BC_NVME_CMD_IO_MGMT_RECV;
	c->nsid = nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = len;
	c->cdw10 = 1; /* MO 1: reclaim unit handle status; MOS 31:16 = 0 */
	c->cdw11 = len / 4 - 1;
	return 0;
}

int bc_nvme_rw(struct nvme_passthru_cmd *c, uint8_t opcode, uint32_t nsid, uint64_t off,
	       uint32_t len, unsigned lba_shift, uint8_t dtype, uint16_t dspec, void *buf)
{
	uint64_t mask = (1ull << lba_shift) - 1, slba, nlb;

	if (!len || (off & mask) || (len & mask) || lba_shift > 16)
		return -EINVAL;
	slba = off >> lba_shift;
	nlb = (uint64_t)(len >> lba_shift);
	if (nlb > 0x10000) /* NLB is a 16-bit 0-based count */
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->opcode = opcode;
	c->nsid = nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = len;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = (uint32_t)(nlb - 1);
	if (dtype) {
		c->cdw12 |= (uint32_t)(dtype & 0xf) << 20;
		c->cdw13 = (uint32_t)dspec << 16;
	}
	return 0;
}

static void s_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

int bc_nvme_dsm_deallocate(struct nvme_passthru_cmd *c, uint32_t nsid, uint64_t off, uint64_t len,
			   unsigned lba_shift, void *buf)
{
	uint64_t mask = (1ull << lba_shift) - 1, slba, nlb;
	uint8_t *r = buf;

	if (!len || (off & mask) || (len & mask) || lba_shift > 16)
		return -EINVAL;
	slba = off >> lba_shift;
	nlb = len >> lba_shift;
	if (nlb > 0xffffffffull) /* the range's length is a 32-bit count */
		return -EINVAL;
	s_put_le32(r, 0); /* context attributes: none */
	s_put_le32(r + 4, (uint32_t)nlb);
	s_put_le32(r + 8, (uint32_t)slba);
	s_put_le32(r + 12, (uint32_t)(slba >> 32));
	memset(c, 0, sizeof(*c));
	c->opcode = BC_NVME_CMD_DSM;
	c->nsid = nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = BC_NVME_DSM_RANGE_BYTES;
	c->cdw10 = 0; /* NR: one range, 0-based */
	c->cdw11 = BC_NVME_DSM_AD;
	return 0;
}

void bc_nvme_to_uring(struct nvme_uring_cmd *u, const struct nvme_passthru_cmd *c)
{
	memset(u, 0, sizeof(*u));
	memcpy(u, c, offsetof(struct nvme_uring_cmd, rsvd2));
}

struct bc_nvme_status bc_nvme_status_decode(int res)
{
	struct bc_nvme_status s = {0};

	if (res <= 0)
		return s;
	s.sc = (uint8_t)(res & 0xff);
	s.sct = (uint8_t)((res >> 8) & 0x7);
	s.dnr = (res >> 14) & 1;
	return s;
}

int bc_nvme_parse_id_ctrl(const void *buf, size_t len, struct bc_nvme_id_ctrl *out)
{
	const uint8_t *b = buf;

	if (len < BC_NVME_IDENTIFY_BYTES)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->vid = bc_le16(b);
	s_str(out->sn, sizeof(out->sn), b + 4, 20);
	s_str(out->mn, sizeof(out->mn), b + 24, 40);
	s_str(out->fr, sizeof(out->fr), b + 64, 8);
	out->cntlid = bc_le16(b + 78);
	out->ver = bc_le32(b + 80);
	out->ctratt = bc_le32(b + 96);
	out->fdps = (out->ctratt >> 19) & 1;
	out->nn = bc_le32(b + 516);
	s_str(out->subnqn, sizeof(out->subnqn), b + 768, 256);
	return 0;
}

int bc_nvme_parse_id_ns(const void *buf, size_t len, struct bc_nvme_id_ns *out)
{
	const uint8_t *b = buf;
	unsigned i;

	if (len < BC_NVME_IDENTIFY_BYTES)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->nsze = bc_le64(b);
	out->ncap = bc_le64(b + 8);
	out->nuse = bc_le64(b + 16);
	out->nsfeat = b[24];
	out->nlbaf = (uint8_t)(b[25] + 1);
	out->flbas = b[26];
	out->dlfeat = b[33];
	out->nawupf = bc_le16(b + 36);
	out->npwg = (uint16_t)(bc_le16(b + 64) + 1);
	out->endgid = bc_le16(b + 102);
	for (i = 0; i < out->nlbaf && i < BC_NVME_LBAF_MAX; i++) {
		out->lbaf[i].ms = bc_le16(b + 128 + 4 * i);
		out->lbaf[i].lbads = b[128 + 4 * i + 2];
		out->lbaf[i].rp = b[128 + 4 * i + 3] & 3;
	}
	/* FLBAS 3:0 is the index; with more than 16 formats 6:5 are its bits 5:4 */
	out->fmt = out->flbas & 0xf;
	if (out->nlbaf > 16)
		out->fmt |= ((out->flbas >> 5) & 3) << 4;
	out->extended = (out->flbas >> 4) & 1;
	if (out->fmt >= out->nlbaf || out->fmt >= BC_NVME_LBAF_MAX)
		return -EINVAL;
	/* LBADS below 9 means the format is not in use (NVMe 2.0 §4.1.5.1) */
	if (out->lbaf[out->fmt].lbads < 9 || out->lbaf[out->fmt].lbads > 31)
		return -EINVAL;
	out->lba_bytes = 1u << out->lbaf[out->fmt].lbads;
	out->ms = out->lbaf[out->fmt].ms;
	return 0;
}

int bc_nvme_parse_smart(const void *buf, size_t len, struct bc_nvme_smart *out)
{
	const uint8_t *b = buf;

	if (len < BC_NVME_SMART_BYTES)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->critical_warning = b[0];
	out->temp_k = bc_le16(b + 1);
	out->avail_spare = b[3];
	out->percent_used = b[5];
	out->data_units_read = s_le128(b + 32);
	out->data_units_written = s_le128(b + 48);
	out->host_reads = s_le128(b + 64);
	out->host_writes = s_le128(b + 80);
	out->media_errors = s_le128(b + 160);
	return 0;
}

int bc_nvme_parse_ocp_c0(const void *buf, size_t len, struct bc_nvme_ocp_c0 *out)
{
	const uint8_t *b = buf;

	if (len < BC_NVME_OCP_C0_BYTES)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	/* nvme-cli rejects the page when the GUID differs: a vendor's own C0 */
	if (memcmp(b + 496, bc_nvme_ocp_c0_guid, sizeof(bc_nvme_ocp_c0_guid)))
		return -EBADMSG;
	out->pmuw = s_le128(b);
	out->pmur = s_le128(b + 16);
	out->version = bc_le16(b + 494);
	return 0;
}

int bc_nvme_parse_fdp_stats(const void *buf, size_t len, struct bc_nvme_fdp_stats *out)
{
	const uint8_t *b = buf;

	if (len < BC_NVME_FDP_STATS_BYTES)
		return -EINVAL;
	out->hbmw = s_le128(b);
	out->mbmw = s_le128(b + 16);
	out->mbe = s_le128(b + 32);
	return 0;
}

int bc_nvme_parse_ruhs(const void *buf, size_t len, struct bc_nvme_ruhs *out, int max)
{
	const uint8_t *b = buf;
	int n, i;

	if (len < 16)
		return -EINVAL;
	n = bc_le16(b + 14);
	for (i = 0; i < n && i < max && 16 + 32 * (size_t)(i + 1) <= len; i++) {
		const uint8_t *d = b + 16 + 32 * i;

		out[i].pid = bc_le16(d);
		out[i].ruhid = bc_le16(d + 2);
		out[i].earutr = bc_le32(d + 4);
		out[i].ruamw = bc_le64(d + 8);
	}
	return n;
}

int bc_nvme_uuid_index(const void *buf, size_t len, const uint8_t uuid[16])
{
	const uint8_t *b = buf;
	size_t i;

	/* entries from byte 32, 32 bytes each, UUID at +16; 128 at most */
	for (i = 0; i < 128 && 32 + 32 * (i + 1) <= len; i++) {
		const uint8_t *e = b + 32 + 32 * i;
		static const uint8_t zero[16];

		if (!memcmp(e + 16, zero, 16))
			break; /* the list ends at the first empty entry */
		if (!memcmp(e + 16, uuid, 16))
			return (int)i + 1;
	}
	return 0;
}

int bc_nvme_parse_disc_header(const void *buf, size_t len, uint64_t *genctr, uint64_t *numrec,
			      uint16_t *recfmt)
{
	const uint8_t *b = buf;

	if (len < 20)
		return -EINVAL;
	*genctr = bc_le64(b);
	*numrec = bc_le64(b + 8);
	*recfmt = bc_le16(b + 16);
	return 0;
}

int bc_nvme_parse_disc_entry(const void *buf, size_t len, struct bc_nvme_disc_entry *e)
{
	const uint8_t *b = buf;

	if (len < BC_NVME_DISC_ENTRY_BYTES)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	e->trtype = b[0];
	e->adrfam = b[1];
	e->subtype = b[2];
	e->portid = bc_le16(b + 4);
	e->cntlid = bc_le16(b + 6);
	s_str(e->trsvcid, sizeof(e->trsvcid), b + 32, 32);
	s_str(e->subnqn, sizeof(e->subnqn), b + 256, 256);
	s_str(e->traddr, sizeof(e->traddr), b + 512, 256);
	return 0;
}

const char *bc_waf_status_name(enum bc_waf_status s)
{
	switch (s) {
	case BC_WAF_AVAILABLE:
		return "available";
	case BC_WAF_NO_COUNTERS:
		return "unavailable: the device reports neither FDP statistics nor the OCP C0 log";
	case BC_WAF_NO_HOST_BYTES:
		return "unavailable: no host writes between the samples";
	case BC_WAF_WENT_BACK:
		return "unavailable: a device counter decreased between the samples";
	}
	return "unavailable";
}

struct bc_waf bc_nvme_waf(bool have, bc_u128 media0, bc_u128 media1, bc_u128 host0, bc_u128 host1)
{
	struct bc_waf w = {.status = BC_WAF_NO_COUNTERS};

	if (!have)
		return w;
	if (media1 < media0 || host1 < host0) {
		w.status = BC_WAF_WENT_BACK;
		return w;
	}
	w.media_bytes = media1 - media0;
	w.host_bytes = host1 - host0;
	if (!w.host_bytes) {
		w.status = BC_WAF_NO_HOST_BYTES;
		return w;
	}
	w.status = BC_WAF_AVAILABLE;
	w.waf = bc_u128_to_double(w.media_bytes) / bc_u128_to_double(w.host_bytes);
	return w;
}

struct bc_waf bc_nvme_waf_fdp(const struct bc_nvme_fdp_stats *a, const struct bc_nvme_fdp_stats *b)
{
	return bc_nvme_waf(a && b, a ? a->mbmw : 0, b ? b->mbmw : 0, a ? a->hbmw : 0,
			   b ? b->hbmw : 0);
}

struct bc_waf bc_nvme_waf_ocp(const struct bc_nvme_ocp_c0 *oa, const struct bc_nvme_ocp_c0 *ob,
			      const struct bc_nvme_smart *sa, const struct bc_nvme_smart *sb)
{
	bool have = oa && ob && sa && sb;

	return bc_nvme_waf(have, have ? oa->pmuw : 0, have ? ob->pmuw : 0,
			   have ? sa->data_units_written * BC_NVME_DATA_UNIT_BYTES : 0,
			   have ? sb->data_units_written * BC_NVME_DATA_UNIT_BYTES : 0);
}

double bc_u128_to_double(bc_u128 v)
{
	return (double)(uint64_t)(v >> 64) * 18446744073709551616.0 + (double)(uint64_t)v;
}
