/*
 * profile/format.h - a step's "format": Format NVM of every volume's namespace
 * before the step's I/O, so "512e against 4Kn" is one profile (docs/nvme.md):
 *   "format": {"lba_bytes": 4096}     the metadata-free LBA format of that data size
 *   "format": {"index": 1}            an LBA format by its index (nvme id-ns -H)
 * Checked by the profile parser (every volume must be "destructive"); sent
 * in PREPARE and read back by the agent (agent/nvme/format.h).
 */
#ifndef BC_PROFILE_FORMAT_H
#define BC_PROFILE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/value/check.h"

struct bc_format_spec {
	bool set;
	uint32_t lba_bytes; /* 0: by index */
	int index;	    /* -1: by size */
};

/* o (the "format" object) at path into f; 0 or -EINVAL with the message in c */
int bc_check_format(struct bc_check *c, const cJSON *o, const char *path, struct bc_format_spec *f);

/* the object back; NULL when !f->set */
cJSON *bc_format_spec_to_json(const struct bc_format_spec *f);

/*
 * The namespace under a partition: "/dev/nvme0n1p2" gives "/dev/nvme0n1"
 * in ns and 2 in *part. Returns 0, or -ENODEV when path is no NVMe
 * partition's name (ns then holds path).
 */
int bc_nvme_partition_ns(const char *path, char *ns, size_t len, unsigned *part);

/* the agent's strict read of PREPARE's "format"; 0 or -EINVAL with one line in err */
int bc_format_spec_from_json(const cJSON *o, struct bc_format_spec *f, char *err, size_t errlen);

#endif
