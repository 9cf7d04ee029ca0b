/*
 * results/hostsamples.h - a step's client host samples (hostsamples.c): what the
 * results read of them, kept as they come instead of the samples.
 *
 * Per agent and second a fixed row: the series run.json carries (the
 * BC_HS_* keys) and the NVMe temperature of each of the agent's volumes,
 * NaN where the sample had none; a second sent twice keeps its last
 * sample's row. Beside the rows, per agent: the window mean of every
 * sample of the measured window (bc_hostfig_mean, in the order they came;
 * a second sent twice counts twice), the first and last window sample's
 * t0_s / t1_s, and the baseline_* keys of the first sample carrying each.
 * Memory is the rows (tens of bytes an agent-second) plus one mean per
 * agent; no sample is kept, with one exception: a size-based step's
 * window ends at its last second of I/O (bc_result_trim_size_based), so
 * its samples of seconds not yet known to have seen I/O wait, as text,
 * until bc_hostsamples_io_second says they are in or bc_hostsamples_settle
 * gives the window's end: live, the seconds not closed yet (an agent sends
 * no host sample for the seconds it seals at once after its pass: too
 * short, bc_hoststat_take); in a rebuild, those after the last second a
 * record with I/O has come for so far.
 */
#ifndef BC_RESULTS_HOSTSAMPLES_H
#define BC_RESULTS_HOSTSAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/profile.h"

/* the per-second series of a row, in run.json's order (steps[].agents[].host.series) */
enum bc_hs_series {
	BC_HS_CPU_BUSY = 0,
	BC_HS_CPU_SYS,
	BC_HS_CPU_HOT_CORE,
	BC_HS_SOFTIRQ,
	BC_HS_NET_TX,
	BC_HS_NET_RX,
	BC_HS_T0,
	BC_HS_T1,
	BC_HS_NR
};
/* their sample keys: "cpu_busy_pct", ... "t1_s" */
extern const char *const bc_hs_keys[BC_HS_NR];

struct bc_hostsamples;

/*
 * A store for a step of seconds seconds (the first ramp_s of them not
 * measured) of p's agents; sized: the window may end early
 * (bc_result_trim_size_based). NULL without memory.
 */
struct bc_hostsamples *bc_hostsamples_new(const struct bc_profile *p, uint32_t ramp_s,
					  uint32_t seconds, bool sized);
void bc_hostsamples_free(struct bc_hostsamples *s);
/*
 * Profile agent agent's host object of second (as the HOST message said it;
 * any number, NaN when it had none). 0, -EINVAL (no such agent, host not an
 * object) or -ENOMEM.
 */
int bc_hostsamples_add(struct bc_hostsamples *s, int agent, double second, const cJSON *host);
/* second k saw I/O: the window reaches past it (waiting samples before it count) */
void bc_hostsamples_io_second(struct bc_hostsamples *s, uint32_t k);
/* the window ends before second seconds: the waiting samples before it count, the rest not */
void bc_hostsamples_settle(struct bc_hostsamples *s, uint32_t seconds);

/* profile index of the agent named, or -1 */
int bc_hostsamples_agent(const struct bc_hostsamples *s, const char *name);
/* a sample of the agent came (of any second) */
bool bc_hostsamples_has(const struct bc_hostsamples *s, int agent);
/* series value of second k, NaN when its last sample had none or none came */
double bc_hostsamples_value(const struct bc_hostsamples *s, int agent, uint32_t k,
			    enum bc_hs_series key);
/* nvme_temp_c[li] of second k (li: the volume among the agent's), NaN none */
double bc_hostsamples_nvme_temp(const struct bc_hostsamples *s, int agent, uint32_t k, int li);
/*
 * The second whose row stands for second k: of the sample that came last
 * among those of seconds <= k, that second when it is k (with latest: any),
 * else -1 - what a scan from the newest sample back would find.
 */
int64_t bc_hostsamples_pick(const struct bc_hostsamples *s, int agent, uint32_t k, bool latest);
/* agents in the order their first sample came; *n of them */
const int *bc_hostsamples_order(const struct bc_hostsamples *s, int *n);
/*
 * The agent's window mean (bc_hostfig_mean_json's shape) with the window's
 * t0_s / t1_s (the first and last window sample's) and the baseline_* keys
 * the mean lacks (the first sample's carrying each); NULL without a window
 * sample or memory. Caller owns it.
 */
cJSON *bc_hostsamples_window_mean(const struct bc_hostsamples *s, int agent);
/* bytes the store holds (rows, means, waiting samples), for bench/hostscan.c */
size_t bc_hostsamples_bytes(const struct bc_hostsamples *s);

#endif
