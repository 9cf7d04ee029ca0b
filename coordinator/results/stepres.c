/*
 * results/stepres.c - a step's result and the questions every part of the
 * coordinator asks of it (results/stepres.h): its measured window's seconds,
 * which agents are in it, what it keeps in flight, its status, its trim
 * when size-based, and its freeing. Beneath results.c (its run.json
 * object) and the checks, verdict and per-format figures built on it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "agg/rows.h"
#include "profile/volume_wl.h"
#include "results/hostsamples.h"
#include "results/stepres.h"

uint32_t bc_result_window_secs(const struct bc_agg *g, const struct bc_entity *e)
{
	uint32_t k, n = 0;

	/* after the step: counted once for every entity (agg/rows.h) */
	if (g->win_secs_for && g->win_secs_for == g->seconds)
		return e->win_secs;
	for (k = g->ramp_s; k < g->seconds; k++)
		n += bc_entity_row(e, k)->reports > 0;
	return n;
}

bool bc_result_agent_out(const struct bc_step_result *r, int a)
{
	return r->out && a >= 0 && a < r->agg.prof->nagents && r->out[a];
}

bool bc_result_agent_lost(const struct bc_step_result *r, const char *name)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, r->lost)
	{
		const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "name"));

		if (n && name && !strcmp(n, name))
			return true;
	}
	return false;
}

double bc_result_outstanding(const struct bc_step_result *r)
{
	const struct bc_profile *p = r->agg.prof;
	double n = 0;
	int i;

	for (i = 0; i < p->nvolumes; i++) {
		if (bc_result_agent_out(r, p->volumes[i].agent))
			continue;
		n += bc_step_volume_depth(r->step, &p->volumes[i], i, NULL);
	}
	return n;
}

const char *bc_result_ok_status(const struct bc_step_result *r)
{
	int a;

	for (a = 0; a < r->agg.prof->nagents; a++)
		if (bc_result_agent_out(r, a))
			return "degraded";
	return cJSON_GetArraySize(r->lost) ? "degraded" : "ok";
}

/*
 * A size-based step whose pass ended before its runtime: the measured window
 * ends with the last second that saw I/O, so IOPS and MB/s are those of the
 * pass, not diluted by the empty seconds up to the runtime cap. The same
 * rule live (stepexec.c) and in rebuilds (rebuild.c).
 */
bool bc_result_size_based(const struct bc_step_result *res)
{
	const struct bc_agg *g = &res->agg;
	bool sized = bc_workload_size_based(&res->step->wl);
	int i;

	/* every workload of every volume: the step's, the volume's, the step's entries for it */
	for (i = 0; i < g->prof->nvolumes && !sized; i++)
		sized = bc_step_volume_size_based(res->step, &g->prof->volumes[i], i);
	return sized;
}

void bc_result_trim_size_based(struct bc_step_result *res)
{
	struct bc_agg *g = &res->agg;
	const struct bc_entity *t = &g->ent[BC_LVL_TOTAL][0];
	uint32_t k, last = 0;
	int op;

	if (!bc_result_size_based(res))
		return;
	for (k = 0; k < g->seconds; k++) {
		uint64_t n = bc_entity_row(t, k)->errors + bc_entity_row(t, k)->short_ios;

		for (op = 0; op < BC_OP_NR; op++)
			n += bc_entity_row(t, k)->ios[op];
		if (n)
			last = k + 1;
		bc_agg_rows_read(g, k);
	}
	if (last < g->ramp_s + 1)
		last = g->ramp_s + 1;
	if (last < g->seconds) {
		g->seconds = last;
		bc_agg_window_secs(g);
	}
}

int bc_result_host_sample(struct bc_step_result *r, int agent, double second, const cJSON *host)
{
	if (!r->hosts)
		r->hosts = bc_hostsamples_new(r->agg.prof, r->agg.ramp_s, r->agg.seconds,
					      bc_result_size_based(r));
	return r->hosts ? bc_hostsamples_add(r->hosts, agent, second, host) : -ENOMEM;
}

void bc_result_hosts_settle(struct bc_step_result *r)
{
	bc_hostsamples_settle(r->hosts, r->agg.seconds);
}

void bc_step_result_free(struct bc_step_result *r)
{
	bc_agg_free(&r->agg);
	cJSON_Delete(r->agent_totals);
	cJSON_Delete(r->ready);
	if (r->fid_free)
		r->fid_free(r->fid);
	cJSON_Delete(r->clock);
	cJSON_Delete(r->clock_end);
	cJSON_Delete(r->lost);
	cJSON_Delete(r->rejoined);
	cJSON_Delete(r->gaps);
	bc_hostsamples_free(r->hosts);
	cJSON_Delete(r->node_counters);
	cJSON_Delete(r->analysis);
	free(r->out);
	bc_steady_free(&r->steady);
	memset(r, 0, sizeof(*r));
}
