/*
 * agg/lane.c - records decoded into a lane (agg/lane.h).
 *   the scratch - cleared between records; a body that names a volume twice
 *                 decoded densely, then listed (s_scratch_clear, s_dense_to_list)
 *   lanes - a worker's lane (bc_agg_lane_init), the serial one over g's own
 *           fields (s_lane_serial)
 *   adding - decode, then the fan-out (bc_agg_lane_add, bc_agg_add,
 *            bc_agg_add_decoded)
 *   bc_agg_record_json - the serial lane's decoded record, for events.jsonl
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agg/fanout.h"
#include "agg/lane.h"
#include "agg/pcts.h"
#include "agg/rhist.h"
#include "agg/rows.h"
#include "fleet/fleet.h"
#include "util/json.h"

/*
 * A scratch volume's counters cleared and its lists emptied for the next
 * decode; its dense buckets are all zero between records (s_dense_to_list).
 */
static void s_scratch_clear(struct bc_volstat *v, struct bc_stats_list *s)
{
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		v->op[o].hist.count = 0;
		bc_opstat_reset_counters(&v->op[o]);
		s->n[o] = 0;
	}
	s->seen = s->has_pct = false;
	v->verify_errors = 0;
}

static int s_u16_cmp(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/*
 * The dense histograms of a scratch volume (a body that names a volume
 * twice, or run/rebuild.c's records) as its lists, ascending; the dense buckets
 * are zeroed on the way and hist.count kept.
 */
static void s_dense_to_list(struct bc_volstat *v, struct bc_stats_touch *t, struct bc_stats_list *s)
{
	uint32_t j;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		uint64_t *bk = v->op[o].hist.buckets;

		if (t->unsorted & (1u << o))
			qsort(t->idx[o], t->n[o], sizeof(t->idx[o][0]), s_u16_cmp);
		for (j = 0; j < t->n[o]; j++) {
			s->idx[o][j] = t->idx[o][j];
			s->cnt[o][j] = bk[t->idx[o][j]];
			bk[t->idx[o][j]] = 0;
		}
		s->n[o] = t->n[o];
		t->n[o] = 0;
	}
	s->seen = s->has_pct = false; /* a volume that came twice: its own percentiles */
	t->unsorted = 0;
}

/* rebuild touch[i] from a scratch volume filled by someone else (run/rebuild.c) */
static void s_scratch_index(struct bc_agg *g, int i)
{
	struct bc_stats_touch *t = &g->touch[i];
	unsigned b;
	int o;

	t->unsorted = 0; /* made in ascending order */
	for (o = 0; o < BC_OP_NR; o++) {
		const struct bc_hist *h = &g->scratch[i].op[o].hist;

		t->n[o] = 0;
		for (b = 0; b < BC_HIST_BUCKETS && h->count; b++)
			if (h->buckets[b])
				t->idx[o][t->n[o]++] = (uint16_t)b;
	}
}

/* the serial lane: g's own scratch and free list */
static void s_lane_serial(struct bc_agg_lane *l, struct bc_agg *g)
{
	memset(l, 0, sizeof(*l));
	l->g = g;
	l->scratch = g->scratch;
	l->touch = g->touch;
	l->sl = g->sl;
	l->asum = g->asum;
	l->blk = g->blk;
	l->rh_free = &g->rh_free;
}

int bc_agg_lane_add(struct bc_agg_lane *l, const struct bc_conn *c, const uint8_t *body, size_t len,
		    struct bc_stats_hdr *hdr)
{
	int i, rc;

	for (i = 0; i < c->nvols; i++)
		s_scratch_clear(&l->scratch[i], &l->sl[i]);
	rc = bc_stats_decode_list(body, len, hdr, l->scratch, l->sl, (uint32_t)c->nvols);
	if (rc == 1) {
		/* a volume came twice: the dense decode adds its entries up, then lists them */
		for (i = 0; i < c->nvols; i++)
			s_scratch_clear(&l->scratch[i], &l->sl[i]);
		rc =
		    bc_stats_decode_touch(body, len, hdr, l->scratch, l->touch, (uint32_t)c->nvols);
		for (i = 0; i < c->nvols; i++)
			s_dense_to_list(&l->scratch[i], &l->touch[i], &l->sl[i]);
	}
	if (rc)
		return rc;
	return bc_agg_fanout(l, c, hdr);
}

int bc_agg_add(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
	       struct bc_stats_hdr *hdr)
{
	struct bc_agg_lane l;

	s_lane_serial(&l, g);
	return bc_agg_lane_add(&l, c, body, len, hdr);
}

int bc_agg_add_decoded(struct bc_agg *g, const struct bc_conn *c, const struct bc_stats_hdr *hdr)
{
	struct bc_agg_lane l;
	int i;

	for (i = 0; i < c->nvols; i++) {
		s_scratch_index(g, i);
		s_dense_to_list(&g->scratch[i], &g->touch[i], &g->sl[i]);
	}
	s_lane_serial(&l, g);
	return bc_agg_fanout(&l, c, hdr);
}

int bc_agg_lane_init(struct bc_agg_lane *l, struct bc_agg *g)
{
	int lvl, i;

	memset(l, 0, sizeof(*l));
	l->g = g;
	l->rh_free = &l->own_free;
	l->scratch = calloc((size_t)g->scratch_n, sizeof(*l->scratch));
	l->touch = calloc((size_t)g->scratch_n, sizeof(*l->touch));
	l->sl = calloc((size_t)g->scratch_n, sizeof(*l->sl));
	l->asum = calloc(1, sizeof(*l->asum));
	l->blk = calloc(BC_AGG_PCT_BLOCKS, sizeof(*l->blk));
	l->errno_seq = calloc((size_t)g->nent[BC_LVL_NODE] + 1, sizeof(*l->errno_seq));
	if (!l->scratch || !l->touch || !l->sl || !l->asum || !l->blk || !l->errno_seq)
		return -ENOMEM;
	for (i = 0; i < g->scratch_n; i++)
		bc_volstat_reset(&l->scratch[i]);
	bc_volstat_reset(l->asum);
	for (lvl = BC_LVL_NODE; lvl < BC_LVL_NR; lvl++) {
		l->part[lvl] = calloc((size_t)g->nent[lvl] + 1, sizeof(struct bc_entity));
		if (!l->part[lvl])
			return -ENOMEM;
		for (i = 0; i < g->nent[lvl]; i++)
			if (bc_agg_entity_init(&l->part[lvl][i], BC_AGG_SLOTS, true, NULL, 1))
				return -ENOMEM;
	}
	return 0;
}

void bc_agg_lane_free(struct bc_agg_lane *l)
{
	int lvl, i;

	for (lvl = BC_LVL_NODE; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; l->part[lvl] && i < l->g->nent[lvl]; i++)
			bc_agg_entity_free(&l->part[lvl][i], BC_AGG_SLOTS, true);
		free(l->part[lvl]);
	}
	bc_rhist_free_list(&l->own_free);
	free(l->scratch);
	free(l->touch);
	free(l->sl);
	free(l->asum);
	free(l->blk);
	free(l->errno_seq);
	memset(l, 0, sizeof(*l));
}

/* the record's listed buckets of one op: ascending, non-empty */
static cJSON *s_hist_json(const uint16_t *idx, const uint64_t *cnt, uint32_t n)
{
	cJSON *arr = cJSON_CreateArray();
	uint32_t i;

	for (i = 0; i < n; i++) {
		cJSON *pair = cJSON_CreateArray();

		cJSON_AddItemToArray(pair, cJSON_CreateNumber(idx[i]));
		cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)cnt[i]));
		cJSON_AddItemToArray(arr, pair);
	}
	return arr;
}

cJSON *bc_agg_record_json(const struct bc_agg *g, const struct bc_conn *c,
			  const struct bc_stats_hdr *h)
{
	cJSON *r = cJSON_CreateObject(), *vols;
	int i, o;

	cJSON_AddStringToObject(r, "agent", c->spec->name);
	cJSON_AddNumberToObject(r, "second",
				h->second == BC_STATS_DRAIN ? -1.0 : (double)h->second);
	if (h->second == BC_STATS_DRAIN)
		cJSON_AddBoolToObject(r, "drain", 1);
	cJSON_AddNumberToObject(r, "flags", h->flags);
	vols = cJSON_AddArrayToObject(r, "volumes");
	for (i = 0; i < c->nvols; i++) {
		cJSON *v = cJSON_CreateObject();

		cJSON_AddNumberToObject(v, "volume", c->vols[i]);
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *s = &g->scratch[i].op[o];
			cJSON *op;

			if (!s->ios && !s->errors && !s->short_ios)
				continue;
			op = cJSON_AddObjectToObject(v, bc_op_names[o]);
			bc_json_add_u64(op, "ios", s->ios);
			bc_json_add_u64(op, "bytes", s->bytes);
			bc_json_add_u64(op, "errors", s->errors);
			bc_json_add_u64(op, "short", s->short_ios);
			bc_json_add_u64(op, "lat_sum_ns", s->lat_sum_ns);
			bc_json_add_u64(op, "lat_min_ns", s->ios ? s->lat_min_ns : 0);
			bc_json_add_u64(op, "lat_max_ns", s->lat_max_ns);
			if (s->first_errno)
				cJSON_AddNumberToObject(op, "first_errno", s->first_errno);
			cJSON_AddItemToObject(op, "hist",
					      s_hist_json(g->sl[i].idx[o], g->sl[i].cnt[o],
							  s->hist.count ? g->sl[i].n[o] : 0));
		}
		cJSON_AddItemToArray(vols, v);
	}
	return r;
}
