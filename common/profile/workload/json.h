/*
 * profile/workload/json.h - a workload object: the keys of the table
 * (profile/workload/keys.h) present in a JSON object laid over a workload, the rules
 * between keys, and the wire form PREPARE carries (written in full, read
 * back strictly on the agent). The profile's "defaults" and steps, a
 * volume's overrides (profile/volume_wl.h) and the agent all read through here.
 */
#ifndef BC_PROFILE_WORKLOAD_JSON_H
#define BC_PROFILE_WORKLOAD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/value/check.h"
#include "profile/workload/workload.h"

/* every key of obj is a workload key or one of extra (NULL-terminated, may be NULL), once */
int bc_check_workload_keys(struct bc_check *c, const cJSON *obj, const char *base,
			   const char *const *extra);

/*
 * Overlay the workload keys present in obj onto wl in table order (strict:
 * the BC_WK_WIRE keys must be present), then the rules between keys unless
 * c->partial. given (may be NULL) gets bit i set for each bc_wl_keys[i]
 * present, own (may be NULL) the streams' own keys (bc_check_streams).
 */
int bc_check_workload(struct bc_check *c, const cJSON *obj, const char *base,
		      struct bc_workload *wl);
int bc_check_workload_given(struct bc_check *c, const cJSON *obj, const char *base,
			    struct bc_workload *wl, bc_wl_keyset *given,
			    uint8_t own[BC_STREAMS_MAX]);

/* the rules between keys (rwmix sums, verify sizes, hipri needs direct, streams) */
int bc_check_workload_rules(struct bc_check *c, const char *base, const struct bc_workload *wl);

/* wl's keys onto obj in the wire form, in table order; false without memory */
bool bc_workload_add_json(cJSON *obj, const struct bc_workload *wl);

/* Workload as JSON (the PREPARE body's "workload"); caller owns the result. */
cJSON *bc_workload_to_json(const struct bc_workload *wl);

/*
 * Workload from JSON as produced by bc_workload_to_json (the agent side).
 * Returns 0 or -EINVAL with the offending key in err.
 */
int bc_workload_from_json(const cJSON *j, struct bc_workload *wl, char *err, size_t errlen);

#endif
