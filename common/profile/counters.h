/*
 * profile/counters.h - the profile parser's check of a node's counter
 * keys, "prometheus" and "series" (profile/counters.c).
 */
#ifndef BC_PROFILE_COUNTERS_H
#define BC_PROFILE_COUNTERS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "profile/value/check.h"

/* a node's counter keys: prometheus, series (metrics is checked before) */
int bc_check_node_counters(struct bc_check *c, const cJSON *item, const char *base);

/*
 * What a node series means to the verdict ("role", docs/verdict.md), in the
 * unit its value has after "scale": the analysis judges a series by its
 * role, never by its name.
 */
enum bc_series_role {
	BC_ROLE_NONE = 0,
	BC_ROLE_GC_WRITE_BYTES, /* bytes the storage software's GC writes (a counter: per second) */
	BC_ROLE_WAF,		/* write amplification, media writes / host writes (ratio) */
	BC_ROLE_JOURNAL_LATENCY, /* journal/commit write latency, seconds */
	BC_ROLE_CACHE_HIT_RATIO, /* read cache hits / reads, 0..1 */
	BC_ROLE_REACTOR_BUSY,	 /* polling reactors' busy share, 0..1 */
	BC_ROLE_VERSION, /* an info metric: its "label" (default "version") names the version */
	BC_ROLE_NR
};
extern const char *const bc_series_role_names[BC_ROLE_NR];

/* the role of node's series called name (node: the profile's nodes[] object) */
enum bc_series_role bc_series_role_of(const cJSON *node, const char *name);

#endif
