/*
 * target/devinfo.h - what a real volume path is (regular file, block device,
 * NVMe generic char device, missing) and its size and block sizes, found
 * without opening it for I/O. Paths a target claims by name ("null",
 * "sim:NAME") are not probed here: bc_target_probe (target/target.h) asks the
 * target that claims them.
 */
#ifndef BC_TARGET_DEVINFO_H
#define BC_TARGET_DEVINFO_H

#include <stdint.h>

enum bc_path_kind {
	BC_KIND_MISSING = 0, /* does not exist (may be created as a file) */
	BC_KIND_FILE,
	BC_KIND_BLOCK,
	BC_KIND_NVME_CHAR, /* /dev/ngXnY generic char device (passthrough) */
	BC_KIND_PSEUDO,	   /* a name a target claims, no file behind it (ops->claims) */
	BC_KIND_OTHER,
};

/* "file", "block", ...; a pseudo path's kind is its target's name (bc_target_kind) */
const char *bc_path_kind_name(enum bc_path_kind k);

struct bc_devinfo {
	enum bc_path_kind kind;
	uint64_t size_bytes;
	uint32_t lbs; /* logical block size, bytes (512 for files: O_DIRECT granule) */
	uint32_t pbs; /* physical block size, bytes */
};

/*
 * Look at path without opening it for I/O (block devices are opened O_RDONLY
 * for their size ioctls). Returns 0 (kind may be BC_KIND_MISSING) or -errno
 * (e.g. -EACCES). Values not known (NVMe char devices whose sysfs lacks
 * them) are 0.
 */
int bc_devinfo_probe(const char *path, struct bc_devinfo *di);

#endif
