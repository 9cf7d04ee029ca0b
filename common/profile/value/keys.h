/*
 * profile/value/keys.h - the "unknown key" check of the small JSON objects that both
 * the coordinator (profile validation) and the agent (PREPARE) parse with
 * a plain err buffer: "fdp", "sim", "sim.latency", "nvme_tcp".
 */
#ifndef BC_PROFILE_VALUE_KEYS_H
#define BC_PROFILE_VALUE_KEYS_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * 0 when every key of o is in keys (NULL-terminated); else -EINVAL and
 * "<path>: unknown key "k" (known: a, b, c)" in err. path names o, e.g.
 * "volumes[2].sim".
 */
int bc_keys_known(const cJSON *o, const char *path, const char *const *keys, char *err,
		  size_t errlen);

#endif
