/*
 * profile/value/keys.h - the "unknown key" check of the small JSON objects that both
 * the coordinator (profile validation) and the agent (PREPARE) parse with
 * a plain err buffer: "fdp", "sim", "sim.latency", "nvme_tcp", "fileset"; and their sizes and
 * counts.
 */
#ifndef BC_PROFILE_VALUE_KEYS_H
#define BC_PROFILE_VALUE_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/*
 * 0 when every key of o is in keys (NULL-terminated); else -EINVAL and
 * "<path>: unknown key "k" (known: a, b, c)" in err. path names o, e.g.
 * "volumes[2].sim".
 */
int bc_keys_known(const cJSON *o, const char *path, const char *const *keys, char *err,
		  size_t errlen);

/* a size: "4k", "1MiB" or a whole number of bytes; 0 or -EINVAL (-ERANGE) */
int bc_keys_size(const cJSON *v, uint64_t *out);

/* a whole number in [lo, hi]; 0 or -EINVAL */
int bc_keys_uint(const cJSON *v, uint32_t lo, uint32_t hi, uint32_t *out);

#endif
