/*
 * agg/agg.c - one step's aggregation set up and torn down (agg/agg.h): its
 * entities (volumes, client hosts, storage nodes, the total), their rows,
 * the volumes' pending window counts, the decode scratch, and the window
 * pages most latencies land in made resident before START. Adding a record
 * is agg/lane.c and agg/fanout.c, closing a second agg/second.c, worker
 * threads agg/pool.c.
 *   s_window_warm - the window histograms' usual pages written once
 *   bc_agg_init, bc_agg_free
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "agg/agg.h"
#include "agg/fanout.h"
#include "agg/pcts.h"
#include "agg/pool.h"
#include "agg/rhist.h"
#include "agg/rows.h"

/*
 * Latencies from 16 us to 16 ms: where most storage I/O lands (local NVMe to
 * NVMe/TCP to disks). The window histograms' pages for that range are
 * faulted in before START, so the first second's records do not pay for
 * ~100,000 page faults at 16,000 volumes (+175 ms on that second's lag,
 * bench/agg.c). Pages outside the range are faulted when used.
 */
#define S_WARM_LO_NS 16000ull
#define S_WARM_HI_NS 16000000ull

static void s_window_warm(struct bc_entity *e, const bool *ops)
{
	unsigned lo = bc_hist_index(S_WARM_LO_NS), hi = bc_hist_index(S_WARM_HI_NS), b;
	const unsigned stride = 4096 / sizeof(uint64_t);
	int o;

	/* a read would map the shared zero page: it must be a write */
	for (o = 0; o < BC_OP_NR; o++)
		for (b = lo; ops[o] && b <= hi + stride; b += stride)
			__atomic_fetch_add(&e->window.op[o].hist.buckets[b < hi ? b : hi], 0,
					   __ATOMIC_RELAXED);
}

int bc_agg_init(struct bc_agg *g, const struct bc_profile *p, const struct bc_step *st)
{
	struct bc_secrow *rows;
	bool ops[BC_OP_NR] = {false};
	size_t per;
	unsigned m;
	int lvl, i, a, max = 1;

	memset(g, 0, sizeof(*g));
	g->prof = p;
	g->ramp_s = st->wl.ramp_s;
	g->seconds = st->wl.ramp_s + st->wl.runtime_s;
	g->nent[BC_LVL_VOLUME] = p->nvolumes;
	g->nent[BC_LVL_AGENT] = p->nagents;
	g->nent[BC_LVL_NODE] = p->nnodes;
	g->nent[BC_LVL_TOTAL] = 1;
	per = (size_t)p->nvolumes + (size_t)p->nagents + (size_t)p->nnodes + 1;
	if (bc_agg_rows_alloc(g, per))
		return -ENOMEM;
	rows = g->rows;
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		g->ent[lvl] = calloc((size_t)g->nent[lvl] + 1, sizeof(struct bc_entity));
		if (!g->ent[lvl])
			return -ENOMEM;
		for (i = 0; i < g->nent[lvl]; i++)
			if (bc_agg_entity_init(&g->ent[lvl][i], g->seconds, lvl >= BC_LVL_NODE,
					       rows++, per))
				return -ENOMEM;
	}
	for (i = 0; i < p->nvolumes; i++)
		snprintf(g->ent[BC_LVL_VOLUME][i].name, sizeof(g->ent[0][0].name), "%s:%s",
			 p->agents[p->volumes[i].agent].name, p->volumes[i].path);
	for (i = 0; i < p->nagents; i++)
		snprintf(g->ent[BC_LVL_AGENT][i].name, sizeof(g->ent[0][0].name), "%s",
			 p->agents[i].name);
	for (i = 0; i < p->nnodes; i++)
		snprintf(g->ent[BC_LVL_NODE][i].name, sizeof(g->ent[0][0].name), "%s",
			 p->nodes[i].name);
	snprintf(g->ent[BC_LVL_TOTAL][0].name, sizeof(g->ent[0][0].name), "total");
	for (a = 0; a < p->nagents; a++) {
		int n = 0;

		for (i = 0; i < p->nvolumes; i++)
			n += p->volumes[i].agent == a;
		if (n > max)
			max = n;
	}
	g->scratch_n = max;
	g->scratch = calloc((size_t)max, sizeof(*g->scratch));
	g->touch = calloc((size_t)max, sizeof(*g->touch));
	g->sl = calloc((size_t)max, sizeof(*g->sl));
	g->asum = calloc(1, sizeof(*g->asum));
	g->blk = calloc(BC_AGG_PCT_BLOCKS, sizeof(*g->blk));
	if (!g->asum || !g->blk)
		return -ENOMEM;
	bc_volstat_reset(g->asum);
	g->agents_reported = calloc(g->seconds, sizeof(uint32_t));
	g->late = calloc(g->seconds, sizeof(uint32_t));
	g->last_rx_ns = calloc(g->seconds, sizeof(uint64_t));
	if (!g->scratch || !g->touch || !g->sl || !g->agents_reported || !g->late || !g->last_rx_ns)
		return -ENOMEM;
	for (i = 0; i < max; i++)
		bc_volstat_reset(&g->scratch[i]);
	/* the step's ops (volumes' own workloads may differ: this is only a warm-up) */
	m = bc_rw_ops(st->wl.rw, st->wl.rwmixread_ppm, st->wl.rwmixtrim);
	ops[BC_OP_READ] = m & BC_RW_OPS_READ;
	ops[BC_OP_WRITE] = m & BC_RW_OPS_WRITE;
	for (lvl = BC_LVL_VOLUME; lvl <= BC_LVL_AGENT; lvl++)
		for (i = 0; i < g->nent[lvl]; i++)
			s_window_warm(&g->ent[lvl][i], ops);
	if (bc_agg_pend_alloc(g, ops))
		return -ENOMEM;
	bc_agg_rows_ahead(g);
	return 0;
}

void bc_agg_free(struct bc_agg *g)
{
	int lvl, i;

	bc_agg_pool_destroy(g);
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; g->ent[lvl] && i < g->nent[lvl]; i++)
			bc_agg_entity_free(&g->ent[lvl][i], g->seconds, false);
		free(g->ent[lvl]);
	}
	bc_rhist_free_list(&g->rh_free);
	bc_agg_rows_free(g);
	free(g->secw_reports);
	if (g->pend)
		munmap(g->pend, g->pend_len);
	free(g->scratch);
	free(g->touch);
	free(g->sl);
	free(g->asum);
	free(g->blk);
	free(g->agents_reported);
	free(g->late);
	free(g->last_rx_ns);
	memset(g, 0, sizeof(*g));
}
