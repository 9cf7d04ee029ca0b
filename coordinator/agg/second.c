/*
 * agg/second.c - the life of a second (agg/second.h).
 *   closing - the workers settled, each node's and the total's open
 *             histogram into its row's percentiles and standard deviation,
 *             its window and seconds.bin (bc_agg_close_second)
 *   between seconds - the rows behind dropped, the next one's touched
 *                     (bc_agg_rows_ahead)
 *   seconds.bin - a step in it, a failed write, its end (bc_agg_secfile_begin,
 *                 s_secfile_fail, bc_agg_secfile_end)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/pcts.h"
#include "agg/pool.h"
#include "agg/rhist.h"
#include "agg/rows.h"
#include "agg/second.h"
#include "agg/secfile.h"

static void s_secfile_fail(struct bc_agg *g);

void bc_agg_close_second(struct bc_agg *g, uint32_t k)
{
	struct bc_secw *sw;
	int lvl, i, o;

	if (k >= g->seconds)
		return;
	/* every record handed to a worker is in, and the partial nodes and total merged */
	bc_agg_pool_settle(g);
	/* seconds.bin: the merged histograms of this second, before they are dropped */
	sw = k >= g->closed ? g->secw : NULL;
	if (sw && bc_secw_hist_begin(sw, g->secw_step, k))
		s_secfile_fail(g);
	/* volumes and agents have theirs from their record; nodes and the total merge here */
	for (lvl = BC_LVL_NODE; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; i < g->nent[lvl]; i++) {
			struct bc_entity *e = &g->ent[lvl][i];
			struct bc_rhist *h = e->sec_hist ? e->sec_hist[k] : NULL;
			struct bc_agg_buckets in = {0};
			const uint64_t *ops[BC_OP_NR];
			double m[3];
			uint32_t j;

			if (!h)
				continue;
			for (o = 0; o < BC_OP_NR; o++)
				in.dense[o] = ops[o] = &h->b[(size_t)o * h->cap];
			in.lo = h->lo;
			in.hi = h->lo + h->n;
			bc_agg_pcts(bc_entity_row(e, k), h->count, &in);
			memset(m, 0, sizeof(m));
			for (o = 0; o < BC_OP_NR; o++)
				bc_hist_moments(ops[o], h->lo, h->n, m);
			bc_entity_row(e, k)->lat_sd_ns = (uint64_t)llround(bc_hist_stddev(m));
			if (sw && g->secw && bc_secw_hist_add(sw, lvl, i, h->lo, h->n, ops))
				s_secfile_fail(g);
			for (o = 0; k >= g->ramp_s && o < BC_OP_NR; o++) {
				struct bc_hist *w = &e->window.op[o].hist;

				for (j = 0; j < h->n; j++) {
					w->buckets[h->lo + j] += ops[o][j];
					w->count += ops[o][j];
				}
			}
			bc_rhist_put(&g->rh_free, h);
			e->sec_hist[k] = NULL;
		}
	}
	if (sw && g->secw && (bc_secw_hist_end(sw) || bc_secw_rows(sw, g->secw_step, g, k)))
		s_secfile_fail(g);
	if (sw && g->secw) {
		g->secw_reports[k] = bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k)->reports;
		bc_secw_flush(g->secw); /* a reader (or a crash) sees whole seconds */
	}
	if (k + 1 > g->closed)
		g->closed = k + 1;
}

/*
 * A write that failed (disk full) stops the file for this step, and the
 * step's volume series come from memory instead: run.json stays whole.
 * The error stays in the writer (bc_secw_error), where the run sees it and
 * names it once (results/files/outfail.h).
 */
static void s_secfile_fail(struct bc_agg *g)
{
	g->secw = NULL;
	g->secw_on = false;
}

int bc_agg_secfile_begin(struct bc_agg *g, struct bc_secw *w, uint32_t ord, int idx,
			 const char *name)
{
	int rc;

	if (!w)
		return 0;
	g->secw_reports = calloc(g->seconds + 1, sizeof(uint32_t));
	if (!g->secw_reports)
		return -ENOMEM;
	rc = bc_secw_step(w, ord, idx, name, g);
	if (rc)
		return rc;
	g->secw = w;
	snprintf(g->secw_path, sizeof(g->secw_path), "%s", bc_secw_path(w));
	g->secw_step = ord;
	g->secw_on = true;
	return 0;
}

void bc_agg_secfile_end(struct bc_agg *g)
{
	uint32_t k;

	if (!g->secw)
		return;
	/* late records after a second was written: its rows again (the later ones count) */
	for (k = 0; k < g->closed && k < g->seconds; k++) {
		if (bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k)->reports != g->secw_reports[k] &&
		    bc_secw_rows(g->secw, g->secw_step, g, k)) {
			s_secfile_fail(g);
			return;
		}
		bc_agg_rows_read(g, k);
	}
	if (bc_secw_end(g->secw, g->secw_step, g->seconds) || bc_secw_flush(g->secw))
		s_secfile_fail(g);
	g->secw = NULL;
}

/*
 * The rows' pages wholly behind the open seconds leave the process (their
 * data stays in the file), and the first open second's rows are touched.
 */
void bc_agg_rows_ahead(struct bc_agg *g)
{
	if (!g->rows_map || g->closed >= g->seconds)
		return;
	bc_agg_rows_drop(g);
	if (g->touched > g->closed)
		return;
	bc_agg_pool_settle(g);
	bc_agg_rows_touch(g, g->closed);
}
