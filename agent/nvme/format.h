/*
 * nvme/format.h - Format NVM of the namespace under a volume, as a step's
 * "format" asks before its I/O (docs/nvme.md, "Format"): the namespace
 * behind a partition, its LBA format chosen by data size (metadata-free)
 * or by index. Refused while the namespace or any of its partitions is
 * mounted, held, busy or carries a filesystem, RAID, LVM, swap or other
 * signature, and without destructive consent. A GPT or MBR partition table
 * is kept: read before the format, written back after it with the same
 * byte ranges in the new LBA size, and the partitions re-read, so a volume
 * that is a partition (seed 002's /dev/nvme5n1p1) is there again for the
 * step. What cannot be kept (a partition that does not start and end on a
 * block of the new size) is refused before anything is erased.
 */
#ifndef BC_NVME_FORMAT_H
#define BC_NVME_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/format.h"

struct bc_nvme_format_res {
	char ns[64];	   /* "/dev/nvme0n1" */
	int from_index;	   /* format in use before, -1 unknown */
	uint32_t from_lba; /* its data size */
	int to_index;	   /* the one formatted */
	uint32_t to_lba;   /* its data size */
	char table[8];	   /* "gpt", "mbr" or "none": the partition table kept */
	int partitions;	   /* of it, partitions written back */
	double seconds;	   /* the Format NVM command and the rescan */
	bool skipped;	   /* the namespace was already formatted by this step (another volume) */
};

/*
 * Format the namespace under path (a namespace or a partition's block
 * device) as spec says. consent: the profile marks the volume destructive
 * and the agent runs with --allow-destructive. Returns 0 with res filled,
 * or -errno with one line naming the device and the reason in err;
 * nothing is erased unless the Format NVM command was sent.
 */
int bc_nvme_format_volume(const char *path, const struct bc_format_spec *spec, bool consent,
			  struct bc_nvme_format_res *res, char *err, size_t errlen);

/* res as the READY message's "format" entry */
cJSON *bc_nvme_format_json(const struct bc_nvme_format_res *res);

#endif
