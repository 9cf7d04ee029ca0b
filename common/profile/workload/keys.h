/*
 * profile/workload/keys.h - the workload vocabulary as one table: every key a
 * workload object may hold ("defaults", a step, a volume's overrides, a
 * stream, a sweep, the PREPARE wire form), with its type, range, where it
 * is allowed and the field of struct bc_workload it fills. Validation, the
 * wire form, the per-volume overrides, streams, sweeps, experiments and
 * import-fio read it; tests/unit/test_wl_keys.c checks that
 * docs/profiles.md and bench-coord-profile(5) name every key.
 *
 * Every key is allowed in "defaults" and in a step; the BC_WK_* flags say
 * where else. The table's order is the wire form's order and the order keys
 * are read in ("streams" last: its streams inherit the keys before it).
 */
#ifndef BC_PROFILE_WORKLOAD_KEYS_H
#define BC_PROFILE_WORKLOAD_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "profile/value/check.h"
#include "profile/workload/workload.h"

enum bc_wl_type {
	BC_WT_CHOICE,	/* one of choices; the field holds its index (an enum or a bool) */
	BC_WT_COUNT,	/* an integer in lo..hi: "expected integer >= lo", "must be in lo..hi" */
	BC_WT_INT,	/* an integer in lo..hi: "expected an integer in lo..hi" */
	BC_WT_PCT,	/* a percent in lo..hi with up to 4 decimals, held in millionths */
	BC_WT_BOOL,	/* true or false */
	BC_WT_SIZE,	/* "4k" or integer bytes; hi > 0: a multiple of 512 up to hi */
	BC_WT_DURATION, /* "10s" or integer seconds, at least lo */
	BC_WT_BS, /* a size, multiple of 512 in 512..1g, a split "4k/50:64k/50", a range "4k-64k" */
	BC_WT_DIST,	 /* uniform | zipf:T | pareto:H | normal:S | zoned:A/R[:A/R...] */
	BC_WT_CPUS,	 /* "numa" or a CPU list "0-3,8" */
	BC_WT_THINKTIME, /* "100us", "2ms", "1s" or integer microseconds, up to 1h */
	BC_WT_PLACEMENT, /* "volume", "none" or a list of fdp pid indexes */
	BC_WT_STREAMS,	 /* [{stream}, ...]: profile/workload/streams.h reads and writes it */
	BC_WT_KV,	 /* {"trim", "pace", "trace"}: profile/workload/kv.h reads and writes it */
	BC_WT_POS,	 /* a size, or "N%" of the volume's I/O window (struct bc_stream_pos) */
	BC_WT_PATTERN,	 /* "0xdeadbeef", "'text'", joined with '|': pattern/pattern_len */
	BC_WT_STEADY,	 /* {"criterion": "iops:2%", "window", "ramp"}: struct bc_steady_spec */
};

#define BC_WK_VOLUME  0x01u /* a volume's "workload" and a step's "volume_workloads" */
#define BC_WK_STREAM  0x02u /* a stream may set it; unset, the stream has the workload's */
#define BC_WK_SWEEP   0x04u /* a sweep dimension: "sweep": {"<key>": [...]} */
#define BC_WK_POINT   0x08u /* per sweep point beside the dimension: "sweep": {"ramp": ...} */
#define BC_WK_WIRE    0x10u /* the wire form must carry it (the first coordinators sent these) */
#define BC_WK_ZERO1   0x20u /* 0 (a workload built in code) means 1 and is written as 1 */
#define BC_WK_STREAMS 0x40u /* written only when the workload has streams */
#define BC_WK_NZ      0x80u /* written only when not zero (keys newer than the wire's first) */

struct bc_wl_key {
	const char *name;
	enum bc_wl_type type;
	unsigned where; /* BC_WK_* */
	double lo, hi;	/* COUNT, INT: the range; DURATION: lo seconds at least; SIZE: hi */
	const char *const *choices; /* CHOICE: NULL-terminated, the field holds the index */
	size_t off, size;	    /* the field in struct bc_workload (BS: bs; STREAMS: streams) */
};

extern const struct bc_wl_key bc_wl_keys[];
extern const int bc_wl_nkeys;

/* the key called name, or NULL */
const struct bc_wl_key *bc_wl_key_find(const char *name);

/* v at path into wl as key k says (not BC_WT_STREAMS, BC_WT_KV: workload/json.c) */
int bc_wl_key_parse(struct bc_check *c, const struct bc_wl_key *k, const cJSON *v, const char *path,
		    struct bc_workload *wl);

/* the same by name: -EINVAL "unknown key" when name is no key of the table */
int bc_check_workload_key(struct bc_check *c, const char *name, const cJSON *v, const char *path,
			  struct bc_workload *wl);

/* k's value of wl onto obj in the wire form (not BC_WT_STREAMS, _KV); false without memory */
bool bc_wl_key_to_json(cJSON *obj, const struct bc_wl_key *k, const struct bc_workload *wl);

/* k's field(s) from src into dst (BS: the split too; not BC_WT_STREAMS) */
void bc_wl_key_copy(const struct bc_wl_key *k, struct bc_workload *dst,
		    const struct bc_workload *src);

/* a position in the I/O window: "25%" (0..100), "1g" or integer bytes */
int bc_check_pos(struct bc_check *c, const char *path, const cJSON *v, struct bc_stream_pos *p);
/* its profile and wire value: a number of bytes, or "N%" */
cJSON *bc_pos_to_json(const struct bc_stream_pos *p);

/* a steady-state criterion, "iops:2%" (metric, pct, limit of struct bc_steady) */
int bc_steady_parse(const char *s, struct bc_steady_spec *out);
/* its profile form into buf; buf */
const char *bc_steady_format(const struct bc_steady_spec *ss, char *buf, size_t len);

/* "placement" of a workload or of a stream: "volume", "none" or [idx, ...] */
int bc_check_placement(struct bc_check *c, const char *path, const cJSON *v,
		       struct bc_placement *p);

#endif
