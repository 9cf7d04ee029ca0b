/*
 * results/verdict.c - where a step's ceiling is and why: the step as one analysis
 * point (analysis/analysis.h) - client goodput, I/Os in flight, latency - with the
 * USE figures of every storage node (from its counters) and every client
 * host (the agents' per-second host samples, averaged over the measured
 * window). Sweeps add more points to the same analysis.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "agg/volnode.h"
#include "analysis/analysis.h"
#include "counters/counters.h"
#include "counters/facts.h"
#include "figures/hostfig.h"
#include "profile/counters.h"
#include "profile/sweep.h"
#include "profile/workload/kv.h"
#include "results/fidelity.h"
#include "results/hostsamples.h"
#include "results/stepres.h"
#include "results/verdict.h"
#include "util/rjson.h"

cJSON *bc_verdict_client_mean(const struct bc_step_result *res, const char *agent)
{
	/* the measured window's mean, its bounds and the baselines: hostsamples.c */
	return bc_hostsamples_window_mean(res->hosts, bc_hostsamples_agent(res->hosts, agent));
}

/* one point from the window totals: goodput, IOPS, mean and p99 latency */
static int s_point(const struct bc_step_result *res, struct bc_ana_point *pt)
{
	const struct bc_volstat *w = &res->agg.ent[BC_LVL_TOTAL][0].window;
	double secs = bc_result_window_secs(&res->agg, &res->agg.ent[BC_LVL_TOTAL][0]);
	struct bc_hist *h = calloc(1, sizeof(*h));
	uint64_t ios = 0, lat = 0;
	int op;

	if (!h || secs <= 0) {
		free(h);
		return -1;
	}
	for (op = 0; op < BC_OP_NR; op++) {
		ios += w->op[op].ios;
		lat += w->op[op].lat_sum_ns;
		bc_hist_merge(h, &w->op[op].hist);
	}
	pt->label = res->step->name;
	pt->n = bc_result_outstanding(res); /* without agents lost in earlier steps */
	pt->value = pt->n;
	pt->x_read_bps = (double)w->op[BC_OP_READ].bytes / secs;
	pt->x_write_bps = (double)w->op[BC_OP_WRITE].bytes / secs;
	pt->x_bps = pt->x_read_bps + pt->x_write_bps;
	pt->x_iops = (double)ios / secs;
	pt->r_mean_s = ios ? (double)lat / (double)ios / 1e9 : NAN;
	pt->p99_s = ios ? (double)bc_hist_percentile(h, 99) / 1e9 : NAN;
	free(h);
	return ios ? 0 : -1;
}

/* one volume's load over the window, summed into l (finished by s_load_end) */
static void s_load_add(struct bc_ana_load *l, const struct bc_volstat *w,
		       const struct bc_workload *vw, uint32_t numjobs, double secs)
{
	double ios = 0, bytes = 0, lat_s = 0, iops, bps;
	bool at = false;
	int op;

	for (op = 0; op < BC_OP_NR; op++) {
		ios += (double)w->op[op].ios;
		bytes += (double)w->op[op].bytes;
		lat_s += (double)w->op[op].lat_sum_ns / 1e9;
	}
	iops = ios / secs;
	bps = bytes / secs;
	l->volumes++;
	l->n += (double)vw->iodepth * numjobs;
	l->x_iops += iops;
	l->x_bps += bps;
	l->r_mean_s += lat_s;			      /* a sum until s_load_end */
	l->think_s += (double)vw->thinktime_us * ios; /* likewise, us * I/Os */
	if (!vw->rate_iops && !vw->rate_bw)
		return;
	l->paced_volumes++;
	if (vw->rate_iops) {
		l->paced_limit_iops += (double)vw->rate_iops;
		l->paced_iops += iops;
		at |= iops >= BC_ANA_PACED_FRAC * (double)vw->rate_iops;
	}
	if (vw->rate_bw) {
		l->paced_limit_bps += (double)vw->rate_bw;
		l->paced_bps += bps;
		at |= bps >= BC_ANA_PACED_FRAC * (double)vw->rate_bw;
	}
	l->paced_at_limit += at;
}

static void s_load_end(struct bc_ana_load *l, double secs)
{
	double ios = l->x_iops * secs;

	l->r_mean_s = ios > 0 ? l->r_mean_s / ios : NAN;
	l->think_s = ios > 0 ? l->think_s / ios / 1e6 : 0;
}

/*
 * Why N is not what the step's volumes held in flight, when every volume
 * says the same: its target completes at once, a KV store paces it, or a
 * size-based pass ends inside the window
 */
static const char *s_queue_note(const struct bc_step_result *res)
{
	const struct bc_profile *p = res->agg.prof;
	int i, instant = 0, paced = 0, pass = 0, meta = 0, n = 0;
	struct bc_workload vw;

	for (i = 0; i < p->nvolumes; i++) {
		const struct bc_volume_spec *v = &p->volumes[i];

		if (bc_result_agent_out(res, v->agent))
			continue;
		n++;
		bc_volume_workload(&res->step->wl, v, &vw);
		instant += !strcmp(v->path, "null") || (v->sim.enabled && !v->sim.lat_units);
		paced += bc_workload_kv(&vw) && bc_kv_paced(&vw);
		pass += bc_workload_size_based(&vw);
		meta += vw.meta != 0;
	}
	if (n && meta == n)
		return "metadata operations (\"meta\") are synchronous calls, one at a time per "
		       "job with the job's own work between them: there is no queue of iodepth "
		       "to hold";
	if (n && instant == n)
		return "the target completes each I/O as it is submitted (a simulated SSD without "
		       "its latency model, or the null target): latency is the engine's own "
		       "turnaround and the queue is on the client; give \"sim\" a \"latency\" "
		       "model for device-like latencies (docs/sim.md)";
	if (n && paced == n)
		return "the KV store releases its records at their store rate (\"store_rate\" or "
		       "\"kv\".\"pace\"): fewer than iodepth are in flight by design";
	if (n && pass == n)
		return "a size-based pass ends inside its window, its jobs finishing one by one: "
		       "the window's average says nothing of the queue (as the step's own check "
		       "says)";
	return NULL;
}

/* the agent's host as fidelity.c saw it: who else held the CPU, how long tasks waited */
static void s_use_contention(struct bc_use *u, const struct bc_step_result *res, const char *agent)
{
	/* computed once and kept with the result: a cache, not a change */
	const struct bc_fidelity *f = bc_result_fidelity((struct bc_step_result *)res);
	const cJSON *h;

	cJSON_ArrayForEach(h, f->hosts)
	{
		const char *list = bc_rj_str("", h, "agents"), *q;
		size_t n = strlen(agent);

		/* agent is one of the comma-separated names */
		for (q = strstr(list, agent); q; q = strstr(q + 1, agent))
			if ((q == list || q[-1] == ' ') && (q[n] == ',' || !q[n]))
				break;
		if (!q)
			continue;
		if (bc_rj(h, "others_cpu_pct"))
			u->others_cpu = bc_rj_num(h, "others_cpu_pct") / 100;
		if (bc_rj(h, "run_agents_cpu_pct"))
			u->run_cpu = bc_rj_num(h, "run_agents_cpu_pct") / 100;
		if (bc_rj(h, "cpu_pressure_pct"))
			u->cpu_pressure = bc_rj_num(h, "cpu_pressure_pct") / 100;
		snprintf(u->others_top, sizeof(u->others_top), "%s", bc_rj_str("", h, "top"));
		return;
	}
}

int bc_verdict_point(struct bc_counters *counters, const struct bc_step_result *res,
		     struct bc_ana_point *pt)
{
	const struct bc_profile *p = res->agg.prof;
	const struct bc_agg *g = &res->agg;
	struct bc_use *nodes = calloc((size_t)p->nnodes + 1, sizeof(*nodes));
	struct bc_use *clients = calloc((size_t)p->nagents + 1, sizeof(*clients));
	double *goodput = calloc((size_t)p->nnodes + 1, sizeof(double));
	struct bc_ana_load *load = calloc((size_t)p->nnodes + 1, sizeof(*load));
	struct bc_ana_load all;
	double secs = bc_result_window_secs(g, &g->ent[BC_LVL_TOTAL][0]);
	int i, op, nc = 0, nv = 0;

	memset(pt, 0, sizeof(*pt));
	if (!nodes || !clients || !goodput || !load || s_point(res, pt)) {
		free(nodes);
		free(clients);
		free(goodput);
		free(load);
		return -1;
	}
	for (i = 0; i < p->nnodes; i++) {
		const char *names[BC_HF_CUSTOM] = {0};
		enum bc_series_role roles[BC_HF_CUSTOM] = {0};
		struct bc_nodefacts facts;
		struct bc_hostfig fig;
		int k;

		if (!bc_counters_node_hostfig(counters, i, &fig, names)) {
			/* a series counts by the role the profile gives it, never by its name */
			for (k = 0; k < fig.ncustom && k < BC_HF_CUSTOM; k++)
				roles[k] = bc_series_role_of(p->nodes[i].json, names[k]);
			bc_use_from_hostfig(&nodes[i], p->nodes[i].name, false, &fig, roles);
		} else
			bc_use_init(&nodes[i], p->nodes[i].name, false);
		/* node_exporter's bonding collector has no hash policy: the profile says it ... */
		snprintf(nodes[i].hash_policy, sizeof(nodes[i].hash_policy), "%s",
			 cJSON_GetStringValue(
			     cJSON_GetObjectItemCaseSensitive(p->nodes[i].json, "nic_hash"))
			     ?: "");
		/* ... unless the node-facts collector reports the bond itself */
		if (!bc_counters_node_facts(counters, i, &facts))
			bc_use_facts(&nodes[i], &facts,
				     cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
					 p->nodes[i].json, "nic")));
		for (op = 0; op < BC_OP_NR; op++)
			goodput[i] += (double)g->ent[BC_LVL_NODE][i].window.op[op].bytes / secs;
		/* what GC is weighed against: the clients' writes to this node's volumes */
		nodes[i].client_write_bps =
		    (double)g->ent[BC_LVL_NODE][i].window.op[BC_OP_WRITE].bytes / secs;
	}
	for (i = 0; i < p->nagents; i++) {
		cJSON *mean;

		/* a lost agent is no client of this step: its host cannot be the limit */
		if (bc_result_agent_out(res, i) || bc_result_agent_lost(res, p->agents[i].name))
			continue;
		mean = bc_verdict_client_mean(res, p->agents[i].name);
		if (mean)
			bc_use_from_json(&clients[nc], p->agents[i].name, true, mean);
		else
			bc_use_init(&clients[nc], p->agents[i].name, true);
		bc_use_net_path(&clients[nc], cJSON_GetObjectItemCaseSensitive(
						  cJSON_GetObjectItemCaseSensitive(
						      res->agent_totals, p->agents[i].name),
						  "net_path"));
		s_use_contention(&clients[nc], res, p->agents[i].name);
		nc++;
		cJSON_Delete(mean);
	}
	/* per volume: its node's load, the thinktime of the whole, and the paced ones */
	memset(&all, 0, sizeof(all));
	for (i = 0; i < p->nvolumes; i++) {
		const struct bc_volstat *w = &g->ent[BC_LVL_VOLUME][i].window;
		int node = bc_agg_vol_node(g, i);
		struct bc_workload vw;

		if (bc_result_agent_out(res, p->volumes[i].agent))
			continue;
		nv++;
		bc_volume_workload(&res->step->wl, &p->volumes[i], &vw);
		s_load_add(&all, w, &vw, res->step->wl.numjobs, secs);
		if (node >= 0 && node < p->nnodes)
			s_load_add(&load[node], w, &vw, res->step->wl.numjobs, secs);
		if (vw.rate_iops || vw.rate_bw)
			s_load_add(&pt->paced, w, &vw, res->step->wl.numjobs, secs);
	}
	s_load_end(&all, secs);
	s_load_end(&pt->paced, secs);
	pt->queue_note = s_queue_note(res);
	for (i = 0; i < p->nnodes; i++)
		s_load_end(&load[i], secs);
	pt->volumes = nv;
	pt->think_s = all.think_s;
	pt->nodes = nodes;
	pt->nnodes = p->nnodes;
	pt->clients = clients;
	pt->nclients = nc;
	pt->node_goodput_bps = p->nnodes ? goodput : NULL;
	pt->node_load = p->nnodes ? load : NULL;
	if (!p->nnodes) {
		free(goodput);
		free(load);
	}
	return 0;
}

void bc_verdict_point_free(struct bc_ana_point *pt)
{
	free((void *)pt->nodes);
	free((void *)pt->clients);
	free((void *)pt->node_goodput_bps);
	free((void *)pt->node_load);
	memset(pt, 0, sizeof(*pt));
}

cJSON *bc_verdict_step(struct bc_counters *counters, struct bc_step_result *res)
{
	struct bc_ana_point pt;
	cJSON *out;

	if (bc_verdict_point(counters, res, &pt))
		return NULL;
	out = bc_ana_json(&pt, 1, "step");
	bc_verdict_point_free(&pt);
	return out;
}
