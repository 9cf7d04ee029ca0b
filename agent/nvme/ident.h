/*
 * nvme/ident.h - identity of an NVMe namespace (/dev/nvmeXnY block device
 * or /dev/ngXnY generic char device): model, serial, firmware, size, LBA
 * formats, transport and address, NUMA node. Read from sysfs (any user) and
 * then, where permitted, from Identify through NVME_IOCTL_ADMIN_CMD, which
 * adds what sysfs lacks (the list of LBA formats, metadata size).
 */
#ifndef BC_NVME_IDENT_H
#define BC_NVME_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "nvme/fdp.h"
#include "profile/format.h" /* bc_nvme_partition_ns */

#define BC_NVME_IDENT_FORMATS 16

struct bc_nvme_ident {
	unsigned ctrl_instance; /* X of nvmeX / ngX (the subsystem instance with multipath) */
	unsigned ns_index;	/* Y of nvmeXnY / ngXnY */
	char block[32];		/* "nvme0n1": the namespace's block device name */
	uint32_t nsid;		/* 0 unknown */
	char model[41], serial[21], firmware[9];
	char transport[16]; /* "pcie", "tcp", "rdma", "fc", "loop"; "" unknown */
	char address[256];  /* pcie: the function's address; fabrics: "traddr=...,trsvcid=..." */
	char subsysnqn[257];
	int numa_node;	     /* -1: unknown or none */
	uint64_t size_bytes; /* namespace size */
	uint32_t lba_bytes;  /* logical block size of the format in use */
	uint32_t pbs;	     /* physical block size as the kernel reports it, bytes; 0 unknown */
	uint16_t ms;	     /* metadata bytes per LBA of the format in use */
	bool extended;	     /* metadata interleaved with the data (extended LBAs) */
	bool fdps;	     /* controller supports flexible data placement */
	uint16_t endgid;     /* endurance group of the namespace */
	int fmt;	     /* index of the format in use, -1 unknown */
	int nformats;	     /* available formats (from Identify only; 0 without it) */
	struct {
		uint32_t lba_bytes;
		uint16_t ms;
		uint8_t rp;    /* relative performance, 0 best */
		uint8_t index; /* format index (FLBAS numbering) */
	} formats[BC_NVME_IDENT_FORMATS];
	bool from_identify; /* Identify Controller/Namespace ran (else sysfs only) */
	/* a partition's identity is its namespace's, with where the partition lies */
	unsigned part;	     /* Z of nvmeXnYpZ, 0: the path is the namespace itself */
	char part_name[40];  /* "nvme0n1p1" */
	uint64_t part_start; /* bytes from the namespace's start; 0 unknown */
	uint64_t part_size;  /* bytes */
	/* deallocation (Identify Namespace), from_identify only */
	uint8_t dlfeat; /* bits 2:0: a deallocated block reads as 1 zeroes, 2 FFh, 0 unsaid */
	uint8_t nsfeat;
	uint64_t nsze, nuse;	/* blocks in the namespace, blocks allocated */
	struct bc_nvme_fdp fdp; /* FDP discovery, when the controller supports it */
};

/*
 * Split a path's last component "nvmeXnY" or "ngXnY" (partitions, nvmeX
 * controllers and other names do not match). Returns true on a match.
 */
bool bc_nvme_name_parse(const char *path, unsigned *ctrl, unsigned *ns, bool *generic);

/* one line of root+path into buf, trailing newline and spaces dropped; 0 or -errno */
int bc_nvme_sysfs_line(const char *root, const char *path, char *buf, size_t len);

/*
 * Fill id from sysfs under root ("" for the live system, else a fixture
 * tree). Returns 0, -ENODEV when path is not an NVMe namespace name, or
 * -ENOENT when its sysfs entries are absent. Missing single attributes stay
 * empty/0. id->lba_bytes falls back to queue/logical_block_size.
 */
int bc_nvme_ident_sysfs(const char *root, const char *path, struct bc_nvme_ident *id);

/*
 * Complete id with Identify Controller and Namespace over
 * NVME_IOCTL_ADMIN_CMD on path (opened read-only). Returns 0 or -errno
 * (-EACCES/-EPERM unprivileged on old kernels, a positive NVMe status is
 * mapped to -EIO); id keeps what it had on failure.
 */
int bc_nvme_ident_ioctl(const char *path, struct bc_nvme_ident *id);

/* what FDP discovery needs of id, whose bc_nvme_ident_ioctl returned err */
struct bc_nvme_fdp_ident bc_nvme_ident_fdp(const struct bc_nvme_ident *id, int err);

/*
 * sysfs then Identify where it works, then FDP discovery; 0 when at least
 * sysfs had it. A partition is identified by its namespace (model, formats,
 * format in use) with part, part_start and part_size set.
 */
int bc_nvme_ident(const char *path, struct bc_nvme_ident *id);

/* "512e", "512n", "4Kn" or "<n>B" into buf, from lba_bytes and pbs */
const char *bc_nvme_lba_kind(const struct bc_nvme_ident *id, char *buf, size_t len);

/* a JSON object the caller owns, NULL on allocation failure */
cJSON *bc_nvme_ident_json(const struct bc_nvme_ident *id);

#endif
