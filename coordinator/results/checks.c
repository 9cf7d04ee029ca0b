/*
 * results/checks.c - the evidence that a step's figures are right, recorded in
 * run.json with pass/fail and the numbers behind them:
 *  - each agent's own STEP_DONE totals equal the sum of the records received
 *    (nothing lost between agent and coordinator);
 *  - the per-second series add up to the window totals (no second lost or
 *    counted twice in the aggregation);
 *  - per block-device volume, the agent's bytes equal the kernel's
 *    /proc/diskstats delta within 1% (the agent counts what the device did);
 *  - per device under the volumes (files' filesystems too), the device moved
 *    at least BC_FID_MOVED of the bytes the step reports (results/fidelity.h):
 *    else the figures are the page cache's or the filesystem's, and the
 *    step is suspect;
 *  - per volume, Little's law: IOPS x mean latency = I/Os in flight
 *    (iodepth x numjobs) within 10%, so latency and IOPS describe one system.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "agg/rows.h"
#include "results/checks.h"
#include "results/fidelity.h"
#include "results/stepres.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rjson.h"

#define S_LITTLE_TOL 0.10

static cJSON *s_check(cJSON *arr, const char *name, const char *scope, int pass, const char *detail)
{
	cJSON *c = cJSON_CreateObject();

	cJSON_AddStringToObject(c, "name", name);
	if (scope)
		cJSON_AddStringToObject(c, "scope", scope);
	if (pass < 0)
		cJSON_AddNullToObject(c, "pass");
	else
		cJSON_AddBoolToObject(c, "pass", pass);
	cJSON_AddStringToObject(c, "detail", detail);
	cJSON_AddItemToArray(arr, c);
	return c;
}

static double s_get(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* append "name" to a list of names in buf (bounded, ", "-separated) */
static void s_name_add(char *buf, size_t len, int *n, const char *name)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s%s", (*n)++ ? ", " : "", name);
}

static bool s_stopped(const struct bc_step_result *r)
{
	return !strcmp(r->status, "aborted") || !strcmp(r->status, "failed") ||
	       !strcmp(r->status, "incomplete");
}

static void s_agent_totals(cJSON *arr, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	char detail[1024] = "", missing[512] = "", lost[512] = "", diff[512] = "";
	int a, op, nmiss = 0, nlost = 0, ndiff = 0;

	for (a = 0; a < g->nent[BC_LVL_AGENT]; a++) {
		const struct bc_entity *e = &g->ent[BC_LVL_AGENT][a];
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(r->agent_totals, e->name);
		const cJSON *vols = cJSON_GetObjectItemCaseSensitive(t, "volumes"), *v;

		if (bc_result_agent_out(r, a))
			continue; /* not in this step */
		if (!t) {
			if (bc_result_agent_lost(r, e->name))
				s_name_add(lost, sizeof(lost), &nlost, e->name);
			else
				s_name_add(missing, sizeof(missing), &nmiss, e->name);
			continue;
		}
		for (op = 0; op < BC_OP_NR; op++) {
			uint64_t sum = 0;
			char one[160];

			/* exact: bytes pass 2^53 within a long run's totals (util/json.h) */
			cJSON_ArrayForEach(v, vols) sum +=
			    bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(v, bc_op_names[op]), "bytes"));
			if (sum == e->all.op[op].bytes)
				continue;
			snprintf(one, sizeof(one),
				 "%s %s: STEP_DONE says %" PRIu64 " bytes, records sum to %" PRIu64,
				 e->name, bc_op_names[op], sum, e->all.op[op].bytes);
			s_name_add(diff, sizeof(diff), &ndiff, one);
		}
	}
	if (!nmiss && !ndiff)
		snprintf(detail, sizeof(detail),
			 "every agent's STEP_DONE totals equal the sum of its STATS records");
	if (nmiss)
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 "no STEP_DONE from %d agent(s): %s", nmiss, missing);
	if (ndiff)
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail), "%s%s",
			 nmiss ? "; " : "", diff);
	if (nlost)
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 "; lost during the step (their records up to the loss are counted, no "
			 "totals to compare with): %s",
			 lost);
	/* a stopped step (interrupted, failed, cut short in the events) has no totals to expect */
	s_check(arr, "agent totals equal the sum of per-second records", NULL,
		ndiff	? 0
		: nmiss ? (s_stopped(r) ? -1 : 0)
			: 1,
		detail);
}

static void s_series_vs_window(cJSON *arr, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_entity *e = &g->ent[BC_LVL_TOTAL][0];
	uint64_t ios = 0, bytes = 0, wios = 0, wbytes = 0;
	char detail[256];
	uint32_t k;
	int op;

	for (k = g->ramp_s; k < g->seconds; k++) {
		for (op = 0; op < BC_OP_NR; op++) {
			ios += bc_entity_row(e, k)->ios[op];
			bytes += bc_entity_row(e, k)->bytes[op];
		}
		bc_agg_rows_read(g, k);
	}
	for (op = 0; op < BC_OP_NR; op++) {
		wios += e->window.op[op].ios;
		wbytes += e->window.op[op].bytes;
	}
	snprintf(detail, sizeof(detail),
		 "seconds %u-%u sum to %" PRIu64 " I/Os and %" PRIu64
		 " bytes; window totals %" PRIu64 " I/Os, %" PRIu64 " bytes",
		 g->ramp_s, g->seconds - 1, ios, bytes, wios, wbytes);
	s_check(arr, "per-second records sum to the window totals", "total",
		ios == wios && bytes == wbytes, detail);
}

/*
 * Per block device: the bytes every volume of this step on it moved
 * (several agents of one host, or several volumes, may share it) against
 * the kernel's /proc/diskstats delta (fidelity.c sums them). Within 1%:
 * pass. The kernel saw more: other I/O reached the device too (null, said
 * so). It saw less: the agents claim I/O the device never did (fail).
 */
static void s_diskstats(cJSON *arr, struct bc_step_result *r)
{
	const struct bc_fidelity *f = bc_result_fidelity(r);
	static const char *const s_per_io[] = {"read_requests_per_io", "write_requests_per_io"};
	const char *name = "agent bytes match the block device's diskstats";
	const cJSON *d;
	int k;

	cJSON_ArrayForEach(d, f->accounting)
	{
		char detail[768];
		cJSON *c;

		snprintf(
		    detail, sizeof(detail),
		    "%s (%.0f volume(s): %s): agents read %.0f / wrote %.0f bytes, kernel read "
		    "%.0f / wrote %.0f bytes: %.2f%% / %.2f%% apart (limit %.0f%%)%s",
		    bc_rj_str("?", d, "device"), bc_rj_num(d, "nvolumes"),
		    bc_rj_str("", d, "volumes"), bc_rj_num(d, "agents_read_bytes"),
		    bc_rj_num(d, "agents_write_bytes"), bc_rj_num(d, "kernel_read_bytes"),
		    bc_rj_num(d, "kernel_write_bytes"), bc_rj_num(d, "read_apart_pct"),
		    bc_rj_num(d, "write_apart_pct"), 100 * BC_FID_MATCH,
		    strcmp(bc_rj_str("", d, "outcome"), "device shared with I/O outside this run")
			? ""
			: ": the kernel saw more, other I/O shares the device");
		c = s_check(arr, name, bc_rj_str(NULL, d, "device"),
			    cJSON_IsBool(bc_rj(d, "pass")) ? cJSON_IsTrue(bc_rj(d, "pass")) : -1,
			    detail);
		cJSON_AddStringToObject(c, "outcome", bc_rj_str("", d, "outcome"));
		/* the device's requests per I/O: merged below 1, split above (fidelity.c) */
		for (k = 0; k < 2; k++)
			if (bc_rj(d, s_per_io[k]))
				cJSON_AddNumberToObject(c, s_per_io[k], bc_rj_num(d, s_per_io[k]));
	}
	if (!cJSON_GetArraySize(f->accounting))
		s_check(arr, name, NULL, -1, "skipped: no block-device volume");
}

/* the device moved the bytes: one check per device under the volumes (fidelity.c decides) */
static void s_moved(cJSON *arr, struct bc_step_result *r)
{
	const struct bc_fidelity *f = bc_result_fidelity(r);
	const char *name = "the device moved the bytes the step reports";
	const cJSON *d;
	int n = 0;

	cJSON_ArrayForEach(d, f->devices)
	{
		char detail[1536], moved[96] = "";
		size_t used;
		cJSON *c;

		n++;
		if (bc_rj(d, "moved_read_pct"))
			snprintf(moved, sizeof(moved), "%.1f%% of the bytes read",
				 bc_rj_num(d, "moved_read_pct"));
		if (bc_rj(d, "moved_write_pct")) {
			used = strlen(moved);
			snprintf(moved + used, sizeof(moved) - used,
				 "%s%.1f%% of the bytes written", used ? ", " : "",
				 bc_rj_num(d, "moved_write_pct"));
		}
		if (!cJSON_IsTrue(bc_rj(d, "measurable"))) {
			snprintf(detail, sizeof(detail), "%s: not measurable: %s",
				 bc_rj_str("?", d, "volume"), bc_rj_str("?", d, "why"));
			s_check(arr, name, bc_rj_str(NULL, d, "volume"), -1, detail);
			continue;
		}
		snprintf(detail, sizeof(detail),
			 "%s (%s; %.0f volume(s): %s; %s I/O): the agents read %.0f and wrote %.0f "
			 "bytes; the device counted %.0f / %.0f",
			 bc_rj_str("?", d, "device"), bc_rj_str("", d, "how"),
			 bc_rj_num(d, "nvolumes"), bc_rj_str("", d, "volumes"),
			 bc_rj_str("?", d, "io"), bc_rj_num(d, "agents_read_bytes"),
			 bc_rj_num(d, "agents_write_bytes"), bc_rj_num(d, "device_read_bytes"),
			 bc_rj_num(d, "device_write_bytes"));
		used = strlen(detail);
		if (bc_rj(d, "agents_process_read_bytes"))
			snprintf(detail + used, sizeof(detail) - used,
				 " (all its I/O), the agents' processes %.0f / %.0f (their own)",
				 bc_rj_num(d, "agents_process_read_bytes"),
				 bc_rj_num(d, "agents_process_write_bytes"));
		used = strlen(detail);
		snprintf(detail + used, sizeof(detail) - used,
			 ": it moved %s (at least %.0f%% needed)%s%s",
			 moved[0] ? moved : "nothing, and the step moved nothing",
			 100 * BC_FID_MOVED, bc_rj(d, "why") ? ": " : "", bc_rj_str("", d, "why"));
		c = s_check(arr, name, bc_rj_str(NULL, d, "device"), cJSON_IsTrue(bc_rj(d, "pass")),
			    detail);
		if (bc_rj(d, "page_cache_read_pct"))
			cJSON_AddNumberToObject(c, "page_cache_read_pct",
						bc_rj_num(d, "page_cache_read_pct"));
		if (bc_rj(d, "page_cache_write_pct"))
			cJSON_AddNumberToObject(c, "page_cache_write_pct",
						bc_rj_num(d, "page_cache_write_pct"));
	}
	if (!n)
		s_check(arr, name, NULL, -1,
			"not measurable: no volume of this step has a block device under it "
			"(null, simulated or NVMe passthrough targets)");
}

static void s_little(cJSON *arr, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	double n_exp, secs;
	bool paced;
	int i, op;

	for (i = 0; i < g->nent[BC_LVL_VOLUME]; i++) {
		const struct bc_entity *e = &g->ent[BC_LVL_VOLUME][i];
		uint64_t ios = 0, lat = 0;
		double l_meas, dev;
		char detail[512];
		struct bc_workload vw;

		if (bc_result_agent_out(r, g->prof->volumes[i].agent))
			continue; /* not in this step */
		/* over the seconds that carried this volume's records */
		secs = bc_result_window_secs(g, e);

		/* a paced volume keeps fewer I/Os in flight on purpose: nothing to check */
		bc_step_volume_workload(r->step, &g->prof->volumes[i], i, &vw);
		n_exp = bc_step_volume_depth(r->step, &g->prof->volumes[i], i, &paced);
		if (paced) {
			s_check(arr, "Little's law (in flight = IOPS x mean latency)", e->name, -1,
				"skipped: rate limit or thinktime paces this volume");
			continue;
		}
		/* metadata operations are synchronous calls, one at a time per job (engine/meta.h)
		 */
		if (vw.meta) {
			s_check(
			    arr, "Little's law (in flight = IOPS x mean latency)", e->name, -1,
			    "skipped: metadata operations (\"meta\") are synchronous calls, one "
			    "at a time per job, with the job's own work between them");
			continue;
		}
		/*
		 * the null target and a simulated SSD without a latency model
		 * complete at once: their "latency" is the engine's own turnaround
		 * and the queue is always on the client side
		 */
		if (!strcmp(g->prof->volumes[i].path, "null") ||
		    (g->prof->volumes[i].sim.enabled && !g->prof->volumes[i].sim.lat_units)) {
			s_check(arr, "Little's law (in flight = IOPS x mean latency)", e->name, -1,
				"skipped: the target completes at once (no device queue)");
			continue;
		}
		/*
		 * a size-based pass ends inside its last second (and may end inside
		 * the first), with fewer I/Os in flight as jobs finish: the window's
		 * average says nothing about the queue
		 */
		if (bc_workload_size_based(&vw)) {
			s_check(arr, "Little's law (in flight = IOPS x mean latency)", e->name, -1,
				"skipped: size-based, the pass ends inside the window");
			continue;
		}

		for (op = 0; op < BC_OP_NR; op++) {
			ios += e->window.op[op].ios;
			lat += e->window.op[op].lat_sum_ns;
		}
		/* L = lambda * W: (ios / secs) * (lat / ios) / 1e9 = lat_sum / (secs * 1e9) */
		l_meas = secs > 0 ? (double)lat / (secs * 1e9) : 0;
		dev = n_exp > 0 ? fabs(l_meas - n_exp) / n_exp : 1;
		snprintf(detail, sizeof(detail),
			 "%s: IOPS x mean latency = %.2f in flight, expected iodepth x jobs = "
			 "%.0f (%.1f%% apart, limit %.0f%%)%s",
			 e->name, l_meas, n_exp, 100 * dev, 100 * S_LITTLE_TOL,
			 dev > S_LITTLE_TOL && l_meas < n_exp
			     ? ": I/Os wait outside the device (client-side gap)"
			     : "");
		s_check(arr, "Little's law (in flight = IOPS x mean latency)", e->name,
			ios ? dev <= S_LITTLE_TOL : -1, ios ? detail : "skipped: no I/O");
	}
}

/*
 * Each agent's clock against the coordinator's over the step (run/drift.h):
 * flagged when it drifted beyond BC_CHECK_DRIFT_PPM for certain (its drift
 * less its uncertainty). The agents' seconds were placed on the
 * coordinator's timeline where START gave them the rate ("second_ns").
 */
static void s_clock_drift(cJSON *arr, const struct bc_step_result *r)
{
	char detail[1024] = "", bad[768] = "", placed[384] = "";
	double worst = 0, unc_max = 0;
	const cJSON *a;
	int nbad = 0, nplaced = 0, n = 0;

	cJSON_ArrayForEach(a, r->clock_end)
	{
		double d = s_get(a, "drift_ppm"), u = s_get(a, "drift_uncertainty_ppm");
		double sec = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(r->clock, a->string), "second_ns"));
		char one[256];

		n++;
		unc_max = fmax(unc_max, u);
		if (sec > 0) {
			snprintf(one, sizeof(one), "%s (a second of %.6f s of its clock)",
				 a->string, sec / 1e9);
			s_name_add(placed, sizeof(placed), &nplaced, one);
		}
		if (fabs(d) - u <= BC_CHECK_DRIFT_PPM) {
			worst = fmax(worst, fabs(d));
			continue;
		}
		snprintf(one, sizeof(one),
			 "%s's clock ran %+.1f ppm (%+.3f%%) +-%.1f against the coordinator's "
			 "(offset %+.3f ms after %.1f s)",
			 a->string, d, d / 1e4, u, s_get(a, "offset_ns") / 1e6,
			 s_get(a, "after_ms") / 1e3);
		s_name_add(bad, sizeof(bad), &nbad, one);
	}
	if (!n)
		return; /* no exchange answered during the step: nothing measured */
	if (nbad)
		snprintf(detail, sizeof(detail), "%s; bound %d ppm", bad, BC_CHECK_DRIFT_PPM);
	else
		snprintf(
		    detail, sizeof(detail),
		    "every agent's clock within %d ppm of the coordinator's (largest %.1f ppm, "
		    "uncertain by up to %.1f ppm)",
		    BC_CHECK_DRIFT_PPM, worst, unc_max);
	if (nplaced)
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 "; placed on the coordinator's timeline: %s", placed);
	s_check(arr, "agents' clocks keep the coordinator's time (clock drift)", NULL, !nbad,
		detail);
}

cJSON *bc_checks_json(const struct bc_step_result *r)
{
	cJSON *arr = cJSON_CreateArray();

	/* a step that never started (failed at PREPARE) has nothing to check */
	if (!r->start_ns)
		return arr;
	s_agent_totals(arr, r);
	s_series_vs_window(arr, r);
	/* the fidelity is computed once and kept with the result: a cache, not a change */
	s_diskstats(arr, (struct bc_step_result *)r);
	s_moved(arr, (struct bc_step_result *)r);
	s_little(arr, r);
	s_clock_drift(arr, r);
	return arr;
}

/*
 * Where the operator looks, after the step's table, loudly: what makes the
 * figures another thing than the storage's - a failed check, a suspect
 * step, a contended host, the named warnings - and an unsteady window
 */
void bc_result_warn_checks(const struct bc_step_result *res, const cJSON *sj)
{
	const char *name = res->step->name;
	const cJSON *c;
	cJSON_ArrayForEach(
	    c, cJSON_GetObjectItemCaseSensitive(
		   sj, "checks")) if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "pass")))
	    bc_warn("step %s: check failed: %s: %s", name,
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name")),
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "detail")));
	if (bc_rj(sj, "suspect_reason"))
		bc_warn("step %s: SUSPECT: %s", name, bc_rj_str("", sj, "suspect_reason"));
	if (cJSON_IsTrue(bc_rj(sj, "contended")))
		bc_warn("step %s: CONTENDED: %s", name, bc_rj_str("", sj, "contention", "why"));
	cJSON_ArrayForEach(c, bc_rj(sj, "warnings"))
	    bc_warn("step %s: %s", name, cJSON_GetStringValue(c));
	/* a precondition pass drives the device into GC on purpose: its rate falls by design */
	if (cJSON_IsFalse(bc_rj(sj, "steady_state", "steady")) &&
	    strcmp(bc_rj_str("", sj, "phase"), "precondition"))
		bc_warn("step %s: throughput never reached steady state (see steady_state)", name);
}
