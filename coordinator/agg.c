/*
 * agg.c - aggregation of one step's STATS records into volumes, client
 * hosts (agents), storage nodes and the total. Everything is a sum of
 * counters and histograms, so every level and every window is exact; the
 * percentiles of a second are computed once that second is closed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bc_coord.h"

static int s_entity_init(struct bc_entity *e, uint32_t seconds)
{
	memset(e, 0, sizeof(*e));
	bc_volstat_reset(&e->window);
	bc_volstat_reset(&e->all);
	e->secs = calloc(seconds, sizeof(*e->secs));
	e->sec_hist = calloc(seconds, sizeof(*e->sec_hist));
	return (e->secs && e->sec_hist) ? 0 : -ENOMEM;
}

static void s_entity_free(struct bc_entity *e, uint32_t seconds)
{
	uint32_t k;

	for (k = 0; e->sec_hist && k < seconds; k++)
		free(e->sec_hist[k]);
	free(e->sec_hist);
	free(e->secs);
}

int bc_agg_init(struct bc_agg *g, const struct bc_profile *p, const struct bc_step *st)
{
	int lvl, i, a, max = 1;

	memset(g, 0, sizeof(*g));
	g->prof = p;
	g->ramp_s = st->wl.ramp_s;
	g->seconds = st->wl.ramp_s + st->wl.runtime_s;
	g->nent[BC_LVL_VOLUME] = p->nvolumes;
	g->nent[BC_LVL_AGENT] = p->nagents;
	g->nent[BC_LVL_NODE] = p->nnodes;
	g->nent[BC_LVL_TOTAL] = 1;
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		g->ent[lvl] = calloc((size_t)g->nent[lvl] + 1, sizeof(struct bc_entity));
		if (!g->ent[lvl])
			return -ENOMEM;
		for (i = 0; i < g->nent[lvl]; i++)
			if (s_entity_init(&g->ent[lvl][i], g->seconds))
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
	g->agents_reported = calloc(g->seconds, sizeof(uint32_t));
	g->late = calloc(g->seconds, sizeof(uint32_t));
	if (!g->scratch || !g->agents_reported || !g->late)
		return -ENOMEM;
	for (i = 0; i < max; i++)
		bc_volstat_reset(&g->scratch[i]);
	return 0;
}

void bc_agg_free(struct bc_agg *g)
{
	int lvl, i;

	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; g->ent[lvl] && i < g->nent[lvl]; i++)
			s_entity_free(&g->ent[lvl][i], g->seconds);
		free(g->ent[lvl]);
	}
	free(g->scratch);
	free(g->agents_reported);
	free(g->late);
	memset(g, 0, sizeof(*g));
}

static int s_entity_add(struct bc_entity *e, const struct bc_agg *g, uint32_t k,
			const struct bc_volstat *v)
{
	struct bc_secrow *row;
	int o;

	bc_volstat_merge(&e->all, v);
	if (k >= g->seconds)
		return 0; /* the drain interval counts in totals only */
	if (k >= g->ramp_s)
		bc_volstat_merge(&e->window, v);
	row = &e->secs[k];
	if (k < g->closed) {
		/* the second was already closed and printed: count it, mark it late */
		row->late++;
		for (o = 0; o < BC_OP_NR; o++) {
			row->ios[o] += v->op[o].ios;
			row->bytes[o] += v->op[o].bytes;
			row->errors += v->op[o].errors;
			row->short_ios += v->op[o].short_ios;
			row->lat_sum_ns += v->op[o].lat_sum_ns;
		}
		row->reports++;
		return 0;
	}
	if (!e->sec_hist[k]) {
		e->sec_hist[k] = calloc(1, sizeof(struct bc_hist));
		if (!e->sec_hist[k])
			return -ENOMEM;
	}
	for (o = 0; o < BC_OP_NR; o++) {
		const struct bc_opstat *s = &v->op[o];

		row->ios[o] += s->ios;
		row->bytes[o] += s->bytes;
		row->errors += s->errors;
		row->short_ios += s->short_ios;
		row->lat_sum_ns += s->lat_sum_ns;
		bc_hist_merge(e->sec_hist[k], &s->hist);
	}
	row->reports++;
	return 0;
}

int bc_agg_add(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
	       struct bc_stats_hdr *hdr)
{
	int i, rc;

	for (i = 0; i < c->nvols; i++)
		bc_volstat_reset(&g->scratch[i]);
	rc = bc_stats_decode(body, len, hdr, g->scratch, (uint32_t)c->nvols);
	if (rc)
		return rc;
	return bc_agg_add_decoded(g, c, hdr);
}

int bc_agg_add_decoded(struct bc_agg *g, const struct bc_conn *c, const struct bc_stats_hdr *hdr)
{
	int i, rc = 0, node;

	if (hdr->second != BC_STATS_DRAIN && hdr->second >= g->seconds)
		return -ERANGE;
	for (i = 0; i < c->nvols && !rc; i++) {
		int v = c->vols[i];

		node = g->prof->volumes[v].node;
		rc = s_entity_add(&g->ent[BC_LVL_VOLUME][v], g, hdr->second, &g->scratch[i]);
		if (!rc)
			rc = s_entity_add(&g->ent[BC_LVL_AGENT][c->index], g, hdr->second,
					  &g->scratch[i]);
		if (!rc && node >= 0)
			rc = s_entity_add(&g->ent[BC_LVL_NODE][node], g, hdr->second,
					  &g->scratch[i]);
		if (!rc)
			rc = s_entity_add(&g->ent[BC_LVL_TOTAL][0], g, hdr->second,
					  &g->scratch[i]);
	}
	if (hdr->second < g->seconds) {
		g->agents_reported[hdr->second]++;
		if (hdr->flags & BC_STATS_F_LATE)
			g->late[hdr->second]++;
	}
	return rc;
}

void bc_agg_close_second(struct bc_agg *g, uint32_t k)
{
	int lvl, i;

	if (k >= g->seconds)
		return;
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; i < g->nent[lvl]; i++) {
			struct bc_entity *e = &g->ent[lvl][i];
			struct bc_hist *h = e->sec_hist[k];

			if (!h)
				continue;
			e->secs[k].p50_ns = bc_hist_percentile(h, 50);
			e->secs[k].p90_ns = bc_hist_percentile(h, 90);
			e->secs[k].p99_ns = bc_hist_percentile(h, 99);
			e->secs[k].p999_ns = bc_hist_percentile(h, 99.9);
			e->secs[k].p9999_ns = bc_hist_percentile(h, 99.99);
			e->secs[k].max_ns = bc_hist_max(h);
			free(h);
			e->sec_hist[k] = NULL;
		}
	}
	if (k + 1 > g->closed)
		g->closed = k + 1;
}

static cJSON *s_hist_json(const struct bc_hist *h)
{
	cJSON *arr = cJSON_CreateArray();
	unsigned i;

	for (i = 0; i < BC_HIST_BUCKETS && h->count; i++) {
		cJSON *pair;

		if (!h->buckets[i])
			continue;
		pair = cJSON_CreateArray();
		cJSON_AddItemToArray(pair, cJSON_CreateNumber(i));
		cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)h->buckets[i]));
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
	cJSON_AddNumberToObject(r, "second", h->second == BC_STATS_DRAIN ? -1.0 : (double)h->second);
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
			cJSON_AddNumberToObject(op, "ios", (double)s->ios);
			cJSON_AddNumberToObject(op, "bytes", (double)s->bytes);
			cJSON_AddNumberToObject(op, "errors", (double)s->errors);
			cJSON_AddNumberToObject(op, "short", (double)s->short_ios);
			cJSON_AddNumberToObject(op, "lat_sum_ns", (double)s->lat_sum_ns);
			cJSON_AddNumberToObject(op, "lat_min_ns",
						s->ios ? (double)s->lat_min_ns : 0);
			cJSON_AddNumberToObject(op, "lat_max_ns", (double)s->lat_max_ns);
			if (s->first_errno)
				cJSON_AddNumberToObject(op, "first_errno", s->first_errno);
			cJSON_AddItemToObject(op, "hist", s_hist_json(&s->hist));
		}
		cJSON_AddItemToArray(vols, v);
	}
	return r;
}
