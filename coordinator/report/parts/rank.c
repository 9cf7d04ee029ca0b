/*
 * report/parts/rank.c - a step's volumes (or client hosts) ranked by window IOPS
 * and p99, with the quantiles and histogram of both figures (report/parts/rank.h),
 * for report.html's summary of a level too large to list.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/rank.h"
#include "report/parts/rundata.h"
#include "util/rjson.h"

const double bc_rank_q[BC_RANK_NQ] = {0, 1, 10, 25, 50, 75, 90, 99, 100};
const double bc_rank_spread_q[BC_RANK_SPREAD] = {0, 10, 50, 90, 100};

struct s_item {
	const cJSON *e;
	double v; /* NAN: no figure */
	int at;	  /* its place in run.json's array: the tie-break */
};

/*
 * highest first, no figure last, ties in run.json's order: by place, not by
 * the items' addresses, which follow the allocations of whoever built the
 * tree (a run and a rebuild of it ranked equal volumes differently)
 */
static int s_desc(const void *a, const void *b)
{
	const struct s_item *x = a, *y = b;

	if (isnan(x->v) || isnan(y->v)) {
		if (isnan(x->v) != isnan(y->v))
			return isnan(x->v) ? 1 : -1;
	} else if (x->v != y->v) {
		return x->v < y->v ? 1 : -1;
	}
	return x->at < y->at ? -1 : x->at > y->at;
}

static double s_fig(const cJSON *e, bool p99)
{
	const cJSON *v = p99 ? bc_rj(e, "lat_us", "p99") : bc_rj(e, "iops");

	return cJSON_IsNumber(v) ? (p99 ? v->valuedouble / 1e3 : v->valuedouble) : NAN;
}

/* it[0..n) sorted highest first: the figure's quantiles and histogram */
static void s_dist(struct bc_rank_fig *d, const struct s_item *it, int n)
{
	double lo, hi, sum = 0;
	int i, m = 0, b;

	memset(d, 0, sizeof(*d));
	while (m < n && !isnan(it[m].v))
		m++;
	d->n = m;
	if (!m)
		return;
	for (i = 0; i < m; i++)
		sum += it[i].v;
	d->mean = sum / m;
	/* nearest rank: the ceil(q/100 * m)-th smallest; ascending index m - 1 - i */
	for (i = 0; i < BC_RANK_NQ; i++) {
		int rank = (int)ceil(bc_rank_q[i] / 100.0 * m);

		if (rank < 1)
			rank = 1;
		d->q[i] = it[m - rank].v;
	}
	lo = it[m - 1].v;
	hi = it[0].v;
	d->log = lo > 0 && hi > 10 * lo;
	for (b = 0; b <= BC_RANK_BINS; b++)
		d->edge[b] = d->log ? lo * pow(hi / lo, (double)b / BC_RANK_BINS)
				    : lo + (hi - lo) * b / BC_RANK_BINS;
	for (i = 0; i < m; i++) {
		double x = it[i].v;

		if (hi <= lo)
			b = 0;
		else if (d->log)
			b = (int)(log(x / lo) / log(hi / lo) * BC_RANK_BINS);
		else
			b = (int)((x - lo) / (hi - lo) * BC_RANK_BINS);
		d->bins[b < 0 ? 0 : b >= BC_RANK_BINS ? BC_RANK_BINS - 1 : b]++;
	}
}

static int s_order(const cJSON *ents, int n, bool p99, const cJSON ***out, struct bc_rank_fig *d)
{
	struct s_item *it = calloc((size_t)(n ? n : 1), sizeof(*it));
	const cJSON *e;
	int i = 0;

	*out = calloc((size_t)(n ? n : 1), sizeof(**out));
	if (!it || !*out) {
		free(it);
		return -ENOMEM;
	}
	cJSON_ArrayForEach(e, ents)
	{
		it[i].e = e;
		it[i].at = i;
		it[i++].v = s_fig(e, p99);
	}
	qsort(it, (size_t)n, sizeof(*it), s_desc);
	for (i = 0; i < n; i++)
		(*out)[i] = it[i].e;
	s_dist(d, it, n);
	free(it);
	return 0;
}

int bc_rank_make(struct bc_rank *k, const cJSON *ents)
{
	memset(k, 0, sizeof(*k));
	k->n = cJSON_GetArraySize(ents);
	if (s_order(ents, k->n, false, &k->by_iops, &k->iops) ||
	    s_order(ents, k->n, true, &k->by_p99, &k->p99_ms)) {
		bc_rank_free(k);
		return -ENOMEM;
	}
	return 0;
}

void bc_rank_free(struct bc_rank *k)
{
	free(k->by_iops);
	free(k->by_p99);
	memset(k, 0, sizeof(*k));
}

static int s_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int bc_rank_spread(const struct bc_report *r, const cJSON *st, const cJSON *ents, const char *key,
		   int seconds, double *out[BC_RANK_SPREAD])
{
	int n = cJSON_GetArraySize(ents), i = 0, k, q, rc = -ENOMEM;
	double *m = calloc((size_t)(n ? n : 1) * (size_t)(seconds ? seconds : 1), sizeof(double));
	double *col = calloc((size_t)(n ? n : 1), sizeof(double));
	const cJSON *e, *x;

	for (q = 0; q < BC_RANK_SPREAD; q++)
		out[q] = calloc((size_t)(seconds ? seconds : 1), sizeof(double));
	for (q = 0; q < BC_RANK_SPREAD; q++)
		if (!out[q])
			goto out;
	if (!m || !col)
		goto out;
	/* each series walked once (cJSON arrays are lists): entity i's second k at m[i * seconds +
	 * k] */
	cJSON_ArrayForEach(e, ents)
	{
		cJSON *tmp = NULL;
		const cJSON *ser =
		    bc_report_series(r, st, e, &tmp); /* run.json's, or seconds.bin's */

		k = 0;
		for (x = bc_rj(ser, key) ? bc_rj(ser, key)->child : NULL; x && k < seconds;
		     x = x->next)
			m[(size_t)i * seconds + k++] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
		cJSON_Delete(tmp);
		for (; k < seconds; k++)
			m[(size_t)i * seconds + k] = NAN;
		i++;
	}
	for (k = 0; k < seconds; k++) {
		int c = 0;

		for (i = 0; i < n; i++)
			if (!isnan(m[(size_t)i * seconds + k]))
				col[c++] = m[(size_t)i * seconds + k];
		qsort(col, (size_t)c, sizeof(*col), s_cmp_double);
		for (q = 0; q < BC_RANK_SPREAD; q++) {
			int rank = (int)ceil(bc_rank_spread_q[q] / 100.0 * c);

			out[q][k] = c ? col[(rank < 1 ? 1 : rank) - 1] : NAN;
		}
	}
	rc = 0;
out:
	if (rc)
		for (q = 0; q < BC_RANK_SPREAD; q++) {
			free(out[q]);
			out[q] = NULL;
		}
	free(m);
	free(col);
	return rc;
}
