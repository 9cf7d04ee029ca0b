/*
 * results/kv.c - per-class KV-cache figures over several steps
 * (results/kv.h): the agents' STEP_DONE "kv" objects as run.json keeps them
 * (steps[].agent_totals.<agent>.volumes[i].kv), summed per class name, their
 * histograms merged so the lifetime and latency percentiles are exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/kv.h"
#include "util/rjson.h"
#include "wire/hist.h"

#define S_CLASSES_MAX 16
#define S_KINDS	      4

static const char *const s_kinds[S_KINDS] = {"store", "prefetch", "meta", "evict"};

/* the counters a class adds up, in run.json's names */
static const char *const s_counts[] = {"stores",	 "store_bytes",	 "prefetches",
				       "prefetch_bytes", "meta_records", "meta_bytes",
				       "evictions",	 "trims",	 "record_failures"};
#define S_NCOUNTS (sizeof(s_counts) / sizeof(s_counts[0]))

struct s_class {
	char name[64], cls[64], meta[64];
	cJSON *placement, *meta_placement; /* the first step's, duplicated */
	double workers, object_bytes;
	double count[S_NCOUNTS];
	double expected_stores, expected_prefetches, io_errors;
	double life_ns, lat_ns[S_KINDS], ios[S_KINDS];
	struct bc_hist life, lat[S_KINDS];
};

struct bc_kvsum {
	int n;
	struct s_class *c[S_CLASSES_MAX];
};

struct bc_kvsum *bc_kvsum_new(void)
{
	return calloc(1, sizeof(struct bc_kvsum));
}

void bc_kvsum_free(struct bc_kvsum **ps)
{
	struct bc_kvsum *s = *ps;
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		cJSON_Delete(s->c[i]->placement);
		cJSON_Delete(s->c[i]->meta_placement);
		free(s->c[i]);
	}
	free(s);
	*ps = NULL;
}

static struct s_class *s_find(struct bc_kvsum *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i]->name, name))
			return s->c[i];
	if (s->n == S_CLASSES_MAX || !(s->c[s->n] = calloc(1, sizeof(struct s_class))))
		return NULL;
	snprintf(s->c[s->n]->name, sizeof(s->c[s->n]->name), "%s", name);
	return s->c[s->n++];
}

static void s_add_class(struct s_class *k, const cJSON *c, const cJSON *placement)
{
	const char *meta = bc_rj_str(NULL, c, "meta");
	size_t i;
	int j;

	if (!k->cls[0]) {
		snprintf(k->cls, sizeof(k->cls), "%s", bc_rj_str("", c, "class"));
		k->object_bytes = bc_rj_num(c, "object_bytes");
		if (meta)
			snprintf(k->meta, sizeof(k->meta), "%s", meta);
		k->placement = cJSON_Duplicate(bc_rj(placement, k->name), true);
		if (meta)
			k->meta_placement = cJSON_Duplicate(bc_rj(placement, meta), true);
	}
	/* one volume's workers; several agents or volumes: the most any had */
	if (bc_rj_num(c, "workers") > k->workers)
		k->workers = bc_rj_num(c, "workers");
	for (i = 0; i < S_NCOUNTS; i++)
		k->count[i] += bc_rj_num(c, s_counts[i]);
	k->expected_stores += bc_rj_num(c, "expected", "stores");
	k->expected_prefetches += bc_rj_num(c, "expected", "prefetches");
	for (j = 0; j < S_KINDS; j++) {
		const cJSON *l = bc_rj(c, "latency", s_kinds[j]);

		k->io_errors += bc_rj_num(c, "errors", s_kinds[j]);
		k->ios[j] += bc_rj_num(l, "ios");
		k->lat_ns[j] += bc_rj_num(l, "mean_ms") * 1e6 * bc_rj_num(l, "ios");
		bc_hist_add_pairs(&k->lat[j], bc_rj(l, "hist"));
	}
	k->life_ns +=
	    bc_rj_num(c, "lifetime", "mean_ms") * 1e6 * bc_rj_num(c, "lifetime", "objects");
	bc_hist_add_pairs(&k->life, bc_rj(c, "lifetime", "hist"));
}

void bc_kvsum_add_step(struct bc_kvsum *s, const cJSON *sj)
{
	const cJSON *agent, *vol, *c;
	struct s_class *k;

	cJSON_ArrayForEach(agent, bc_rj(sj, "agent_totals"))
	{
		cJSON_ArrayForEach(vol, bc_rj(agent, "volumes"))
		{
			cJSON_ArrayForEach(c, bc_rj(vol, "kv", "classes"))
			{
				k = s_find(s, bc_rj_str("", c, "name"));
				if (k)
					s_add_class(k, c, bc_rj(sj, "placement"));
			}
		}
	}
}

int bc_kvsum_classes(const struct bc_kvsum *s)
{
	return s ? s->n : 0;
}

double bc_kvsum_record_failures(const struct bc_kvsum *s)
{
	double n = 0;
	int i;

	for (i = 0; s && i < s->n; i++)
		n += s->c[i]->count[S_NCOUNTS - 1];
	return n;
}

/* ms of a histogram's percentile, null when empty */
static void s_pct(cJSON *o, const char *key, const struct bc_hist *h, double pct)
{
	if (h->count)
		cJSON_AddNumberToObject(o, key, (double)bc_hist_percentile(h, pct) / 1e6);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *bc_kvsum_json(const struct bc_kvsum *s)
{
	cJSON *arr = cJSON_CreateArray(), *o, *x, *y;
	size_t i;
	int n, j;

	for (n = 0; arr && s && n < s->n; n++) {
		const struct s_class *k = s->c[n];

		o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "name", k->name);
		cJSON_AddStringToObject(o, "class", k->cls);
		cJSON_AddNumberToObject(o, "workers", k->workers);
		cJSON_AddNumberToObject(o, "object_bytes", k->object_bytes);
		cJSON_AddItemToObject(o, "placement",
				      k->placement ? cJSON_Duplicate(k->placement, true)
						   : cJSON_CreateNull());
		if (k->meta[0]) {
			cJSON_AddStringToObject(o, "meta", k->meta);
			cJSON_AddItemToObject(o, "meta_placement",
					      k->meta_placement
						  ? cJSON_Duplicate(k->meta_placement, true)
						  : cJSON_CreateNull());
		}
		for (i = 0; i < S_NCOUNTS; i++)
			cJSON_AddNumberToObject(o, s_counts[i], k->count[i]);
		cJSON_AddNumberToObject(o, "expected_stores", k->expected_stores);
		cJSON_AddNumberToObject(o, "expected_prefetches", k->expected_prefetches);
		cJSON_AddNumberToObject(o, "io_errors", k->io_errors);
		x = cJSON_AddObjectToObject(o, "lifetime");
		cJSON_AddNumberToObject(x, "objects", (double)k->life.count);
		if (k->life.count)
			cJSON_AddNumberToObject(x, "mean_ms",
						k->life_ns / (double)k->life.count / 1e6);
		else
			cJSON_AddNullToObject(x, "mean_ms");
		s_pct(x, "p50_ms", &k->life, 50);
		s_pct(x, "p99_ms", &k->life, 99);
		if (k->life.count)
			cJSON_AddNumberToObject(x, "max_ms", (double)bc_hist_max(&k->life) / 1e6);
		x = cJSON_AddObjectToObject(o, "latency");
		for (j = 0; j < S_KINDS; j++) {
			y = cJSON_AddObjectToObject(x, s_kinds[j]);
			cJSON_AddNumberToObject(y, "ios", k->ios[j]);
			if (k->ios[j] > 0)
				cJSON_AddNumberToObject(y, "mean_ms",
							k->lat_ns[j] / k->ios[j] / 1e6);
			else
				cJSON_AddNullToObject(y, "mean_ms");
			s_pct(y, "p50_ms", &k->lat[j], 50);
			s_pct(y, "p99_ms", &k->lat[j], 99);
		}
	}
	return arr;
}
