/*
 * bc_profile_check.h - internal to bc_profile*.c: the value validators shared
 * by the profile parser and the strict wire-form workload reader. Each check
 * writes one "<src>: <json path>: <what>" message and returns -EINVAL.
 */
#ifndef BC_PROFILE_CHECK_H
#define BC_PROFILE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "bc_profile.h"

#define BC_CHECK_PATH_LEN 160 /* "volumes[17].offset" and friends, with room for odd keys */
#define BC_CHECK_SHOW_LEN 48  /* a quoted value longer than this is cut with "..." */

/* I/O alignment unit: the logical block size every O_DIRECT device accepts */
#define BC_SECTOR 512u

struct bc_check {
	const char *src; /* file name for messages; NULL for a bare workload */
	char *err;	 /* may be NULL */
	size_t errlen;
	bool strict;  /* wire form: integers only and every workload key present */
	bool partial; /* a volume's overrides: check values, not the rules between keys */
};

extern const struct bc_workload bc_workload_builtin;
extern const char *const bc_workload_keys[]; /* NULL-terminated */

/* Writes "<src>: <path>: <what>" (either prefix may be empty); returns -EINVAL. */
int bc_check_fail(struct bc_check *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* v as JSON cut to BC_CHECK_SHOW_LEN - 1 bytes; returns buf */
const char *bc_check_show(const cJSON *v, char buf[BC_CHECK_SHOW_LEN]);

/* "base.key", or "key" when base is empty */
void bc_check_path(char path[BC_CHECK_PATH_LEN], const char *base, const char *key);

/* every key of obj is in keys (NULL-terminated) and none is repeated */
int bc_check_keys(struct bc_check *c, const cJSON *obj, const char *base, const char *const *keys);

int bc_check_object(struct bc_check *c, const char *path, const cJSON *v);

/* true or false into *out */
int bc_check_bool(struct bc_check *c, const char *path, const cJSON *v, bool *out);

/* an integer in lo..hi into *out */
int bc_check_int(struct bc_check *c, const char *path, const cJSON *v, double lo, double hi,
		 double *out);

/* obj[key] into *v and its path; absent is *v = NULL, an error when required */
int bc_check_item(struct bc_check *c, const cJSON *obj, const char *base, const char *key,
		  bool required, char path[BC_CHECK_PATH_LEN], const cJSON **v);

/* obj[key] as an array: returns its length (0 when absent and optional) or -EINVAL */
int bc_check_array(struct bc_check *c, const cJSON *obj, const char *key, bool required,
		   const cJSON **arr);

/* [A-Za-z0-9._-]{1,63} copied into dst */
int bc_check_name(struct bc_check *c, const char *path, const cJSON *v, char dst[BC_NAME_MAX]);

/* a non-empty string shorter than max bytes (not copied) */
int bc_check_str(struct bc_check *c, const char *path, const cJSON *v, size_t max);

/* "4k" or integer bytes (integers only when strict), at most 2^53 */
int bc_check_size(struct bc_check *c, const char *path, const cJSON *v, uint64_t *out);

/* overlay the workload keys present in obj onto wl; strict: all must be present */
int bc_check_workload(struct bc_check *c, const cJSON *obj, const char *base,
		      struct bc_workload *wl);

/* one workload key (any of bc_workload_keys) at path into wl, with its range checks */
int bc_check_workload_key(struct bc_check *c, const char *key, const cJSON *v, const char *path,
			  struct bc_workload *wl);

/* bc_profile_sweep.c: base."sweep" of a step (wl is the step's workload), copied to *out */
int bc_check_sweep(struct bc_check *c, const cJSON *item, const char *base,
		   const struct bc_workload *wl, cJSON **out);

/* bc_profile_counters.c: a node's counter keys: prometheus, series (metrics is checked before) */
int bc_check_node_counters(struct bc_check *c, const cJSON *item, const char *base);

/* bc_workload.c: one key of the extended vocabulary into wl; -ENOENT when not one */
int bc_check_workload_ext(struct bc_check *c, const char *key, const cJSON *v, const char *path,
			  struct bc_workload *wl);
/* bc_workload.c: the rules between keys (rwmix sums, verify sizes, hipri needs direct) */
int bc_check_workload_rules(struct bc_check *c, const char *base, const struct bc_workload *wl);
/* bc_workload.c: "bs" as a number, or a split as text; the extended keys */
bool bc_workload_bs_to_json(cJSON *obj, const struct bc_workload *wl);
bool bc_workload_ext_to_json(cJSON *obj, const struct bc_workload *wl);
/* bc_workload.c: base."workload" of a volume, checked and copied into *out (NULL if absent) */
int bc_check_volume_workload(struct bc_check *c, const cJSON *item, const char *base, cJSON **out);
/* bc_workload.c: base."volume_workloads" of a step ({"<volume index>": overrides}), or NULL */
int bc_check_step_volume_workloads(struct bc_check *c, const cJSON *item, const char *base,
				   int nvolumes, cJSON **out);
/* bc_workload.c: every step with every volume's overrides is a valid workload */
int bc_check_volume_steps(struct bc_check *c, const struct bc_profile *p);

/* bc_streams.c: "streams", "placement" and "stream_share" into wl; the rules between them */
int bc_check_streams(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl);
int bc_check_placement(struct bc_check *c, const char *path, const cJSON *v,
		       struct bc_placement *p);
int bc_check_stream_share(struct bc_check *c, const char *path, const cJSON *v,
			  struct bc_workload *wl);
int bc_check_streams_rules(struct bc_check *c, const char *base, const struct bc_workload *wl);
bool bc_streams_to_json(cJSON *obj, const struct bc_workload *wl);

/* bc_experiment.c: base."experiment" of a step (after its workload), copied to *out */
int bc_check_experiment(struct bc_check *c, const cJSON *item, const char *base,
			const struct bc_profile *p, const struct bc_step *st, cJSON **out);

/* bc_profile_repeat.c: "repeat" (top level, steps) expanded into p->steps, last */
int bc_profile_expand_repeats(struct bc_check *c, const cJSON *root, struct bc_profile *p);

/* bc_profile_expect.c: root.expect into p->expects (after steps, agents, nodes) */
int bc_profile_parse_expect(struct bc_check *c, const cJSON *root, struct bc_profile *p);
/* p->expects as the profile's "expect" array; caller owns it, NULL without memory */
cJSON *bc_profile_expect_json(const struct bc_profile *p);

#endif
