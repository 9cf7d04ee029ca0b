/*
 * profile/sweep.h - a step's "sweep": the list of concrete points the run loop
 * executes one after another, each a full workload with its own ramp and
 * runtime, and the stop rule that may end the list early.
 *
 * Profile (steps[].sweep, checked by the profile parser):
 *   "sweep": {"iodepth": [1, 2, 4, 8, 16, 32, 64]}    or "numjobs": [...],
 *            "bs": ["4k", "64k", "1m"], "rw": ["read", "randread"],
 *            "rwmixread": [0, 50, 100]  (on a mixed rw: vdbench's forrdpct),
 *            "curve": [100, 90, 70, 50, 10]   (vdbench: run at max, then at
 *                                              each percentage of the max IOPS
 *                                              as a rate limit)
 *   optional in the same object:
 *            "stop": {"p99_ms": 5, "min_gain_pct": 5}
 *                  p99_ms: end after a point whose p99 exceeds it (not for curve);
 *                  min_gain_pct: end when a point's throughput is less than
 *                  this much above the best before it (iodepth/numjobs only)
 *            "ramp": "5s", "runtime": "30s"   per point, default the step's
 * A step without "sweep" is a sweep of one point: the step itself.
 *
 * Driving it (the run loop, single thread):
 *   struct bc_sweep_state sw;
 *   struct bc_sweep_point pt;
 *   bc_sweep_init(&sw, prof, step);
 *   while (bc_sweep_next(&sw, &pt)) {
 *           run pt.wl as a step named pt.name;
 *           struct bc_sweep_result r = {iops, bytes_per_s, mean_ms, p99_ms, true};
 *           bc_sweep_record(&sw, &r);      applies the stop rule
 *   }
 *   steps[].sweep = bc_sweep_json(&sw, analysis);
 */
#ifndef BC_PROFILE_SWEEP_H
#define BC_PROFILE_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/spec.h"

#define BC_SWEEP_MAX 64 /* points per sweep */

enum bc_sweep_param {
	BC_SWEEP_NONE = 0, /* a plain step: one point */
	BC_SWEEP_IODEPTH,
	BC_SWEEP_NUMJOBS,
	BC_SWEEP_BS,
	BC_SWEEP_RW,
	BC_SWEEP_CURVE,
	BC_SWEEP_RWMIXREAD,
};
extern const char *const bc_sweep_param_names[]; /* "none", "iodepth", ..., "curve" */

/* what the run loop measured at one point (measured window, all volumes) */
struct bc_sweep_result {
	double iops;
	double bytes_per_s;
	double lat_mean_ms;
	double p99_ms;
	bool ok; /* the point ran to its end; a failed point stops the sweep */
};

struct bc_sweep_point {
	int index;
	char
	    name[BC_NAME_MAX + 32]; /* "seq-read@iodepth=16", the step's name alone without sweep */
	char label[32];		    /* "16", "64k", "randread", "max", "70%" */
	double value;	       /* iodepth, numjobs, bs bytes, rw index, curve percent (max: 100) */
	double outstanding;    /* N: I/Os in flight over every volume (Little's law, USL) */
	struct bc_workload wl; /* complete, ramp and runtime included */
};

struct bc_sweep_state {
	const struct bc_profile *prof;
	const struct bc_step *step;
	enum bc_sweep_param param;
	int npoints;
	cJSON *values; /* the swept list (for curve: "max" first, then the percentages); owned */
	double stop_p99_ms;	  /* 0: no bound */
	double stop_min_gain_pct; /* < 0: no rule */
	int done;		  /* results recorded */
	struct bc_sweep_result results[BC_SWEEP_MAX];
	struct bc_sweep_point points[BC_SWEEP_MAX]; /* those handed out */
	bool stopped;
	char stop_reason[160];
};

/* 0, or -ENOMEM; the step's sweep was checked when the profile was parsed */
int bc_sweep_init(struct bc_sweep_state *s, const struct bc_profile *p, const struct bc_step *st);
void bc_sweep_free(struct bc_sweep_state *s);

/*
 * Point i's workload. Curve points after the first need its result (the
 * max IOPS): -EAGAIN before it is recorded. -ERANGE past the end.
 */
int bc_sweep_point(const struct bc_sweep_state *s, int i, struct bc_sweep_point *out);

/* the next point to run into *out; false when every point ran or the sweep stopped */
bool bc_sweep_next(struct bc_sweep_state *s, struct bc_sweep_point *out);

/*
 * The stop rule for a new result r after the s->done results before it:
 * true when the sweep should end after r, with the reason in why (may be NULL).
 */
bool bc_sweep_should_stop(const struct bc_sweep_state *s, const struct bc_sweep_result *r,
			  char *why, size_t len);

/* record the result of point s->done; applies the stop rule; 0 or -ERANGE */
int bc_sweep_record(struct bc_sweep_state *s, const struct bc_sweep_result *r);

/*
 * steps[].sweep as reports/README.md designs it, columnar over the points
 * that ran: {"param", "values", "labels", "n", "iops", "mbps", "lat_mean_us",
 * "lat_p99_us", "stopped": {"after", "reason"}} plus "knee" copied from
 * analysis (analysis/analysis.h JSON, may be NULL). Caller owns it.
 */
cJSON *bc_sweep_json(const struct bc_sweep_state *s, const cJSON *analysis);

/* I/Os in flight over every volume for wl: iodepth (with the volume's override) x numjobs */
double bc_sweep_outstanding(const struct bc_profile *p, const struct bc_workload *wl);

/* set param's value v (a checked list item) into wl */
int bc_sweep_apply(enum bc_sweep_param param, const cJSON *v, struct bc_workload *wl);
/* any workload key (a checked value) into wl; 0 or -EINVAL */
int bc_sweep_apply_key(const char *key, const cJSON *v, struct bc_workload *wl);

#endif
