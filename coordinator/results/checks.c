/*
 * checks.c - the evidence that a step's figures are right, recorded in
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
#include <string.h>

#include "bc_coord.h"

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

static bool s_was_lost(const struct bc_step_result *r, const char *name)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, r->lost) if (!strcmp(cJSON_GetStringValue(
						       cJSON_GetObjectItemCaseSensitive(l, "name")),
						   name)) return true;
	return false;
}

static void s_agent_totals(cJSON *arr, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	char detail[512] = "every agent's STEP_DONE totals equal the sum of its STATS records";
	bool pass = true;
	int a, op;

	for (a = 0; a < g->nent[BC_LVL_AGENT]; a++) {
		const struct bc_entity *e = &g->ent[BC_LVL_AGENT][a];
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(r->agent_totals, e->name);
		const cJSON *vols = cJSON_GetObjectItemCaseSensitive(t, "volumes"), *v;

		if (!t && s_was_lost(r, e->name)) {
			snprintf(
			    detail, sizeof(detail),
			    "agent %s was lost: its records up to the loss are counted, it sent "
			    "no totals to compare with",
			    e->name);
			continue;
		}
		if (!t) {
			pass = false;
			snprintf(detail, sizeof(detail), "agent %s: no STEP_DONE", e->name);
			continue;
		}
		for (op = 0; op < BC_OP_NR; op++) {
			double sum = 0;

			cJSON_ArrayForEach(v, vols) sum +=
			    s_get(cJSON_GetObjectItemCaseSensitive(v, bc_op_names[op]), "bytes");
			if ((uint64_t)sum == e->all.op[op].bytes)
				continue;
			pass = false;
			snprintf(detail, sizeof(detail),
				 "agent %s %s: STEP_DONE says %.0f bytes, records sum to %" PRIu64,
				 e->name, bc_op_names[op], sum, e->all.op[op].bytes);
		}
	}
	s_check(arr, "agent totals equal the sum of per-second records", NULL, pass, detail);
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
			ios += e->secs[k].ios[op];
			bytes += e->secs[k].bytes[op];
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

static void s_diskstats(cJSON *arr, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_profile *p = g->prof;
	int a, i, n = 0;

	for (a = 0; a < p->nagents; a++) {
		const cJSON *t =
		    cJSON_GetObjectItemCaseSensitive(r->agent_totals, p->agents[a].name);
		const cJSON *vols = cJSON_GetObjectItemCaseSensitive(t, "volumes");
		int local = 0;

		for (i = 0; i < p->nvolumes; i++) {
			const struct bc_entity *e = &g->ent[BC_LVL_VOLUME][i];
			const cJSON *d;
			double kr, kw, ar, aw, er, ew;
			char detail[512];

			if (p->volumes[i].agent != a)
				continue;
			d = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(vols, local++),
							     "diskstats");
			if (!d)
				continue;
			kr = s_get(d, "read_bytes");
			kw = s_get(d, "write_bytes");
			ar = (double)e->all.op[BC_OP_READ].bytes;
			aw = (double)e->all.op[BC_OP_WRITE].bytes;
			er = kr > 0 ? fabs(ar - kr) / kr : (ar > 0 ? 1 : 0);
			ew = kw > 0 ? fabs(aw - kw) / kw : (aw > 0 ? 1 : 0);
			snprintf(
			    detail, sizeof(detail),
			    "%s: agent read %.0f / wrote %.0f bytes, kernel (%s) read %.0f / "
			    "wrote %.0f bytes: %.2f%% / %.2f%% apart (limit %.0f%%)",
			    e->name, ar, aw,
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "device")), kr,
			    kw, 100 * er, 100 * ew, 100 * S_DISKSTATS_TOL);
			s_check(arr, "agent bytes match the block device's diskstats", e->name,
				er <= S_DISKSTATS_TOL && ew <= S_DISKSTATS_TOL, detail);
			n++;
		}
	}
	if (!n)
		s_check(arr, "agent bytes match the block device's diskstats", NULL, -1,
			"skipped: no block-device volume");
}

static void s_little(cJSON *arr, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_workload *wl = &r->step->wl;
	double n_exp = (double)wl->iodepth * wl->numjobs, secs = g->seconds - g->ramp_s;
	int i, op;

	for (i = 0; i < g->nent[BC_LVL_VOLUME]; i++) {
		const struct bc_entity *e = &g->ent[BC_LVL_VOLUME][i];
		uint64_t ios = 0, lat = 0;
		double l_meas, dev;
		char detail[512];
		struct bc_workload vw;

		/* a paced volume keeps fewer I/Os in flight on purpose: nothing to check */
		if (bc_volume_workload(wl, &g->prof->volumes[i], &vw, NULL, 0))
			vw = *wl;
		if (vw.rate_iops || vw.rate_bw || vw.thinktime_us) {
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
		n_exp = (double)vw.iodepth * vw.numjobs;

		for (op = 0; op < BC_OP_NR; op++) {
			ios += e->window.op[op].ios;
			lat += e->window.op[op].lat_sum_ns;
		}
		/* L = lambda * W: (ios / secs) * (lat / ios) / 1e9 = lat_sum / (secs * 1e9) */
		l_meas = secs > 0 ? (double)lat / (secs * 1e9) : 0;
		dev = n_exp > 0 ? fabs(l_meas - n_exp) / n_exp : 1;
		snprintf(detail, sizeof(detail),
			 "%s: IOPS x mean latency = %.2f in flight, expected iodepth x numjobs = "
			 "%.0f (%.1f%% apart, limit %.0f%%)%s",
			 e->name, l_meas, n_exp, 100 * dev, 100 * S_LITTLE_TOL,
			 dev > S_LITTLE_TOL && l_meas < n_exp
			     ? ": I/Os wait outside the device (client-side gap)"
			     : "");
		s_check(arr, "Little's law (in flight = IOPS x mean latency)", e->name,
			ios ? dev <= S_LITTLE_TOL : -1, ios ? detail : "skipped: no I/O");
	}
}

cJSON *bc_checks_json(const struct bc_step_result *r)
{
	cJSON *arr = cJSON_CreateArray();

	s_agent_totals(arr, r);
	s_series_vs_window(arr, r);
	s_diskstats(arr, r);
	s_little(arr, r);
	return arr;
}
