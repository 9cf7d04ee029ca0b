/*
 * results/checks.c - the evidence that a step's figures are right, recorded in
 * run.json with pass/fail and the numbers behind them:
 *  - each agent's own STEP_DONE totals equal the sum of the records received
 *    (nothing lost between agent and coordinator);
 *  - the per-second series add up to the window totals (no second lost or
 *    counted twice in the aggregation);
 *  - per block-device volume, the agent's bytes equal the kernel's
 *    /proc/diskstats delta within 1% (the agent counts what the device did);
 *  - per volume, Little's law: IOPS x mean latency = I/Os in flight
 *    (iodepth x numjobs) within 10%, so latency and IOPS describe one system.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "results/checks.h"
#include "results/stepres.h"
#include "util/json.h"
#include "util/log.h"

#define S_DISKSTATS_TOL 0.01
#define S_LITTLE_TOL	0.10

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

	for (k = g->ramp_s; k < g->seconds; k++)
		for (op = 0; op < BC_OP_NR; op++) {
			ios += bc_entity_row(e, k)->ios[op];
			bytes += bc_entity_row(e, k)->bytes[op];
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

/* one block device of one kernel, and every volume of this step on it */
struct s_dev {
	char key[192]; /* kernel instance (boot id, else the agent) and device */
	char device[64];
	double ar, aw; /* what the agents say they moved, summed */
	double kr, kw; /* the kernel's deltas, the largest any agent saw */
	int nvols;
	char vols[256];
};

static struct s_dev *s_dev_get(struct s_dev *d, int *n, const char *key)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(d[i].key, key))
			return &d[i];
	memset(&d[*n], 0, sizeof(d[*n]));
	snprintf(d[*n].key, sizeof(d[*n].key), "%s", key);
	return &d[(*n)++];
}

/*
 * Per block device: the bytes every volume of this step on it moved
 * (several agents of one host, or several volumes, may share it) against
 * the kernel's /proc/diskstats delta. Within 1%: pass. The kernel saw
 * more: other I/O reached the device too (null, said so). It saw less:
 * the agents claim I/O the device never did (fail).
 */
static void s_diskstats(cJSON *arr, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_profile *p = g->prof;
	struct s_dev *dev = calloc((size_t)p->nvolumes + 1, sizeof(*dev));
	int a, i, n = 0;

	for (a = 0; dev && a < p->nagents; a++) {
		const cJSON *t =
		    cJSON_GetObjectItemCaseSensitive(r->agent_totals, p->agents[a].name);
		const cJSON *vols = cJSON_GetObjectItemCaseSensitive(t, "volumes");
		int local = 0;

		for (i = 0; i < p->nvolumes; i++) {
			const struct bc_entity *e = &g->ent[BC_LVL_VOLUME][i];
			const char *name, *kern;
			const cJSON *d;
			struct s_dev *x;
			char key[192];
			int one = 0;

			if (p->volumes[i].agent != a)
				continue;
			d = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(vols, local++),
							     "diskstats");
			name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "device"));
			if (!d || !name)
				continue;
			/* one kernel's device: agents of one host (or netns) share it */
			kern = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "kernel"));
			snprintf(key, sizeof(key), "%s/%s", kern ? kern : p->agents[a].name, name);
			x = s_dev_get(dev, &n, key);
			snprintf(x->device, sizeof(x->device), "%s", name);
			x->ar += (double)e->all.op[BC_OP_READ].bytes;
			x->aw += (double)e->all.op[BC_OP_WRITE].bytes;
			x->kr = fmax(x->kr, s_get(d, "read_bytes"));
			x->kw = fmax(x->kw, s_get(d, "write_bytes"));
			one = x->nvols;
			s_name_add(x->vols, sizeof(x->vols), &one, e->name);
			x->nvols = one;
		}
	}
	for (i = 0; i < n; i++) {
		const struct s_dev *x = &dev[i];
		double er = x->kr > 0 ? fabs(x->ar - x->kr) / x->kr : (x->ar > 0 ? 1 : 0);
		double ew = x->kw > 0 ? fabs(x->aw - x->kw) / x->kw : (x->aw > 0 ? 1 : 0);
		bool ok = er <= S_DISKSTATS_TOL && ew <= S_DISKSTATS_TOL;
		bool under =
		    x->ar > x->kr * (1 + S_DISKSTATS_TOL) || x->aw > x->kw * (1 + S_DISKSTATS_TOL);
		const char *outcome = ok      ? "match"
				      : under ? "agents count more than the device did"
					      : "device shared with I/O outside this run";
		char detail[768];
		cJSON *c;

		snprintf(detail, sizeof(detail),
			 "%s (%d volume(s): %s): agents read %.0f / wrote %.0f bytes, kernel read "
			 "%.0f / wrote %.0f bytes: %.2f%% / %.2f%% apart (limit %.0f%%)%s",
			 x->device, x->nvols, x->vols, x->ar, x->aw, x->kr, x->kw, 100 * er,
			 100 * ew, 100 * S_DISKSTATS_TOL,
			 ok || under ? "" : ": the kernel saw more, other I/O shares the device");
		c = s_check(arr, "agent bytes match the block device's diskstats", x->device,
			    ok	    ? 1
			    : under ? 0
				    : -1,
			    detail);
		cJSON_AddStringToObject(c, "outcome", outcome);
	}
	if (!n)
		s_check(arr, "agent bytes match the block device's diskstats", NULL, -1,
			"skipped: no block-device volume");
	free(dev);
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
	s_diskstats(arr, r);
	s_little(arr, r);
	s_clock_drift(arr, r);
	return arr;
}

/* a failed cross-check makes the step's figures suspect: say so where it is seen */
void bc_result_warn_checks(const struct bc_step_result *res, const cJSON *sj)
{
	const cJSON *c;

	cJSON_ArrayForEach(
	    c, cJSON_GetObjectItemCaseSensitive(
		   sj, "checks")) if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "pass")))
	    bc_warn("step %s: check failed: %s: %s", res->step->name,
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name")),
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "detail")));
	/* a precondition pass drives the device into GC on purpose: its rate falls by design */
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(sj, "steady_state"), "steady")) &&
	    strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sj, "phase")) ?: "",
		   "precondition"))
		bc_warn("step %s: throughput never reached steady state (see steady_state)",
			res->step->name);
}
