/*
 * profile/workload/streams.h - multi-stream workloads on one volume: each stream has its
 * own share of the I/Os, op mix, sizes, offset distribution, region of the
 * volume's window, lifetime class and FDP placement (docs/fdp.md). A stream's
 * workload keys are read and written by the key table (profile/workload/keys.h).
 *
 * Profile keys (in "defaults", a step, or a volume's "workload"):
 *   "streams": [{"name": "hot", "class": "hot_churn", "share": 60,
 *                "rw": "randwrite", "rwmixread": 0, "rwmixtrim": 0, "bs": "4k",
 *                "blockalign": "4k", "random_distribution": "zipf:0.99",
 *                "seq_pct": 30, "range": {"offset": "0%", "size": "20%"},
 *                "placement": "volume" | "none" | [0, 1]}, ...]     1..64 streams
 *   "stream_share": "ios" (default) | "bytes"
 *   "placement": "volume" (default) | "none" | [0, 1]     every write, or the
 *                                        streams that have no placement of their own
 * A stream's rw, rwmixread, rwmixtrim, bs, blockalign, random_distribution and
 * seq_pct (a random stream's) default to the workload's values where "streams" is written; "class"
 * defaults to the name; "range" offset/size are sizes or "N%" of the
 * volume's window (size 0 or absent: to the window's end).
 */
#ifndef BC_PROFILE_WORKLOAD_STREAMS_H
#define BC_PROFILE_WORKLOAD_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/value/check.h"
#include "profile/workload/workload.h"

/* the stream writes (writes or trims, alone or in a mix) */
bool bc_stream_writes(const struct bc_stream *s);

/*
 * The stream's region [*start, *end) in bytes of the target, inside the
 * window [win_start, win_end): percentages are rounded down to align (> 0).
 * Returns 0, or -EINVAL with a message naming the stream when the region
 * leaves the window or holds less than the stream's largest block.
 */
int bc_stream_range(const struct bc_stream *s, uint64_t win_start, uint64_t win_end, uint64_t align,
		    uint64_t *start, uint64_t *end, char *err, size_t errlen);

/*
 * "streams" at path into wl: each stream takes the keys it does not give
 * from wl as it is (the workload where "streams" is written). own (may be
 * NULL) gets per stream a mask of the keys it gave itself, for
 * bc_streams_inherit. 0 or -EINVAL with the message naming the stream's key.
 */
int bc_check_streams(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl,
		     uint8_t own[BC_STREAMS_MAX]);

/*
 * wl's streams become given's, each taking the keys it did not give (own,
 * from bc_check_streams) from wl: a volume's "streams" resolved in a step
 * as if written there. -EINVAL when a stream's mix then exceeds 100 percent
 * (path names the "streams" being applied).
 */
int bc_streams_inherit(struct bc_check *c, const char *path, const struct bc_workload *given,
		       const uint8_t own[BC_STREAMS_MAX], struct bc_workload *wl);

/* wl's "streams" array onto obj (nothing without streams); false without memory */
bool bc_streams_to_json(cJSON *obj, const struct bc_workload *wl);

/*
 * The distinct lifetime classes of wl's streams in order of first
 * appearance into cls (pointers into wl); returns how many.
 */
int bc_stream_classes(const struct bc_workload *wl, const char *cls[BC_STREAMS_MAX]);

/* the index of class name in wl's streams' classes, or -1 */
int bc_stream_class_index(const struct bc_workload *wl, const char *name);

#endif
