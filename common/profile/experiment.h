/*
 * profile/experiment.h - a step's "experiment": the FDP write-amplification plan
 * the coordinator expands into ordinary steps (coordinator/run/experiment.c,
 * docs/fdp.md). For every placement mode in turn: a precondition (discard,
 * sequential fill, N random overwrite passes over a window), warmup
 * iterations, then measurement iterations whose device counters give the
 * mode's WAF.
 *
 * Profile (steps[].experiment; the step's workload must have "streams"):
 *   "experiment": {
 *     "modes": ["no_fdp", "mixed", "separated"],   required, run in this order
 *     "placements": {"separated": {"hot_churn": [0, 1], "cold": [2], "*": [3]},
 *                    "mine": {...}},               class -> placement per mode
 *     "precondition": {"discard": true | "namespace", "seq_fill": true, "random_passes": 1,
 *                      "window": "volume" | "namespace" | {"offset": "2t", "size": "32g"},
 *                      "bs": "128k", "random_bs": "4k", "iodepth": 32,
 *                      "runtime": "1h"} | false,
 *     "warmup_iterations": 2, "measure_iterations": 8,
 *     "expect": [{"metric": "waf", "lower": "separated", "than": "mixed"}],
 *     "tolerance_pct": 2, "gc_waf": 1.05, "waf_source": "ocp" | "fdp",
 *     "reference": "reports/20260615T222219-fdp-waf"
 *   }
 * Built-in modes: "no_fdp" writes without directives (DTYPE 0); "separated"
 * puts lifetime class k (in order of first appearance among the streams) on
 * placement index k; "mixed" spreads every class over all of those indexes
 * (round-robin), so every reclaim unit holds every lifetime. A mode of
 * "placements" overrides mixed or separated, or defines a new one; a class it
 * does not name takes its "*" entry. "discard": "namespace" trims the whole
 * device before the fill and passes over the window. "waf_source": the
 * mode's WAF from the OCP C0 log over SMART (default, where the device has
 * the OCP log) or from the FDP statistics; the other is reported beside it.
 */
#ifndef BC_PROFILE_EXPERIMENT_H
#define BC_PROFILE_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/spec.h"
#include "profile/value/check.h"

#define BC_EXP_MODES_MAX  8
#define BC_EXP_EXPECT_MAX 16

struct bc_exp_mode {
	char name[BC_NAME_MAX];
	/* per lifetime class (bc_stream_classes order): the streams' placement */
	struct bc_placement cls[BC_STREAMS_MAX];
};

/* an expected direction: metric of mode `lower` is below that of mode `than` */
struct bc_exp_expect {
	char metric[24]; /* waf, media_bytes, host_bytes, {read,write}_{p50,p99}_ms */
	int lower, than; /* mode indexes */
};

struct bc_experiment {
	int nmodes;
	struct bc_exp_mode modes[BC_EXP_MODES_MAX];
	bool pre; /* a precondition before each mode */
	bool discard, seq_fill;
	bool discard_namespace; /* the discard covers the namespace, not the window (seed 000) */
	uint32_t random_passes;
	bool win_set; /* precondition window given ("namespace": offset 0, length 0) */
	uint64_t win_offset, win_length;
	uint32_t pre_bs, pre_random_bs, pre_iodepth, pre_runtime_s;
	uint32_t warmup, measure;
	int nexpect;
	struct bc_exp_expect expect[BC_EXP_EXPECT_MAX];
	double tolerance_pct; /* differences within this are inconclusive */
	double gc_waf;	      /* WAF at or below this in every mode: GC never ran */
	bool waf_fdp;	      /* "waf_source": "fdp": FDP MBMW/HBMW first, else OCP C0 over SMART */
	char reference[BC_PATH_MAX];
};

/* the metrics an "expect" may name, NULL-terminated */
extern const char *const bc_exp_metrics[];

/*
 * The plan of a step whose "experiment" the profile parser checked: 0, or
 * -EINVAL with a message (a hand-built profile only).
 */
int bc_experiment_get(const struct bc_step *st, struct bc_experiment *x, char *err, size_t errlen);

/* profile side: base."experiment" of step st (after its workload), copied to *out */
int bc_check_experiment(struct bc_check *c, const cJSON *item, const char *base,
			const struct bc_profile *p, const struct bc_step *st, cJSON **out);

/* wl with its streams placed as mode m says */
void bc_experiment_mode_workload(const struct bc_experiment *x, int m, const struct bc_workload *wl,
				 struct bc_workload *out);

/* the precondition steps of one mode: discard, fill, then one per random pass */
int bc_experiment_pre_steps(const struct bc_experiment *x);

/* seconds the plan takes at most (precondition steps at their runtime cap) */
uint64_t bc_experiment_seconds(const struct bc_experiment *x, const struct bc_workload *wl);

#endif
