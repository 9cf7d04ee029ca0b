/*
 * results/long/minutes.c - a long step per minute and its drift (results/long/minutes.h)
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agg/types.h"
#include "results/long/minutes.h"
#include "util/json.h"

static const double s_pcts[5] = {50, 90, 99, 99.9, 99.99};
static const char *const s_pct_keys[5] = {"lat_p50_us", "lat_p90_us", "lat_p99_us", "lat_p99.9_us",
					  "lat_p99.99_us"};

static double s_r3(double v)
{
	return round(v * 1000.0) / 1000.0;
}

static cJSON *s_fig(double v, bool measured)
{
	return measured && isfinite(v) ? cJSON_CreateNumber(s_r3(v)) : cJSON_CreateNull();
}

/* second r into its minute: only a second with records is a sample */
static void s_minute_add(struct bc_minute *mi, const struct bc_secrow *r, uint32_t rep, bool tot)
{
	uint64_t ios = 0, mx = 0;
	int op;

	mi->late += r->late;
	if (!r->reports)
		return;
	for (op = 0; op < BC_OP_NR; op++) {
		ios += r->ios[op];
		mi->bytes += r->bytes[op];
		mx = r->op_max_ns[op] > mx ? r->op_max_ns[op] : mx;
	}
	/* seconds.bin's rows keep the merged histogram's maximum, not the exact one */
	mx = r->max_ns > mx ? r->max_ns : mx;
	mi->ios += ios;
	mi->read_ios += r->ios[BC_OP_READ];
	mi->errors += r->errors + r->short_ios;
	mi->lat_sum_ns += r->lat_sum_ns;
	mi->max_ns = mx > mi->max_ns ? mx : mi->max_ns;
	mi->p99_worst_ns = r->p99_ns > mi->p99_worst_ns ? r->p99_ns : mi->p99_worst_ns;
	if (!mi->secs || ios < mi->iops_min)
		mi->iops_min = ios;
	if (!mi->secs || ios > mi->iops_max)
		mi->iops_max = ios;
	if (tot && (!mi->secs || rep < mi->rep_min))
		mi->rep_min = rep;
	mi->secs++;
}

/* the columns of a "minutes" object, in its order */
enum {
	S_SECS,
	S_IOPS,
	S_IOPS_MIN,
	S_IOPS_MAX,
	S_READ,
	S_MBPS,
	S_MEAN,
	S_MAX,
	S_WORST,
	S_ERR,
	S_LATE,
	S_NCOL
};
static const char *const s_cols[S_NCOL] = {"seconds",	  "iops",	 "iops_min",
					   "iops_max",	  "read_iops",	 "mbps",
					   "lat_mean_us", "lat_max_us",	 "lat_p99_worst_second_us",
					   "errors",	  "late_records"};

/*
 * The object for minutes mi[0..n); pct (or NULL): their exact percentiles,
 * has[j] when minute j had samples; rep: add agents_reported_min
 */
static cJSON *s_json(const struct bc_minute *mi, uint32_t n, const uint64_t (*pct)[5],
		     const bool *has, bool rep)
{
	cJSON *o = cJSON_CreateObject(), *col[S_NCOL], *pc[5] = {0}, *rp = NULL;
	uint32_t j;
	int c;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "interval_s", BC_MINUTE_S);
	for (c = 0; c < S_NCOL; c++)
		col[c] = cJSON_AddArrayToObject(o, s_cols[c]);
	for (c = 0; pct && c < 5; c++)
		pc[c] = cJSON_AddArrayToObject(o, s_pct_keys[c]);
	if (rep)
		rp = cJSON_AddArrayToObject(o, "agents_reported_min");
	for (j = 0; j < n; j++) {
		const struct bc_minute *m = &mi[j];
		bool ran = m->secs > 0, lat = ran && m->ios;
		double s = ran ? (double)m->secs : 1;

		cJSON_AddItemToArray(col[S_SECS], cJSON_CreateNumber(m->secs));
		cJSON_AddItemToArray(col[S_IOPS], s_fig((double)m->ios / s, ran));
		cJSON_AddItemToArray(col[S_IOPS_MIN],
				     ran ? bc_json_u64(m->iops_min) : cJSON_CreateNull());
		cJSON_AddItemToArray(col[S_IOPS_MAX],
				     ran ? bc_json_u64(m->iops_max) : cJSON_CreateNull());
		cJSON_AddItemToArray(col[S_READ], s_fig((double)m->read_ios / s, ran));
		cJSON_AddItemToArray(col[S_MBPS], s_fig((double)m->bytes / s / 1e6, ran));
		cJSON_AddItemToArray(
		    col[S_MEAN],
		    s_fig(lat ? (double)m->lat_sum_ns / 1e3 / (double)m->ios : 0, lat));
		cJSON_AddItemToArray(col[S_MAX], s_fig((double)m->max_ns / 1e3, lat));
		cJSON_AddItemToArray(col[S_WORST], s_fig((double)m->p99_worst_ns / 1e3, lat));
		cJSON_AddItemToArray(col[S_ERR], ran ? bc_json_u64(m->errors) : cJSON_CreateNull());
		cJSON_AddItemToArray(col[S_LATE], bc_json_u64(m->late));
		for (c = 0; pct && c < 5; c++)
			cJSON_AddItemToArray(pc[c], s_fig((double)pct[j][c] / 1e3, lat && has[j]));
		if (rp)
			cJSON_AddItemToArray(rp, ran ? cJSON_CreateNumber(m->rep_min)
						     : cJSON_CreateNull());
	}
	return o;
}

/* where a HIST frame's entity goes: the total and the nodes, each its minute's */
struct s_acc {
	struct bc_hist *h; /* [(1 + nnodes) * BC_OP_NR] */
	int nnodes;
};

static struct bc_hist *s_dst(void *arg, int lvl, int i)
{
	struct s_acc *a = arg;

	if (lvl == BC_LVL_TOTAL && i == 0)
		return a->h;
	if (lvl == BC_LVL_NODE && i >= 0 && i < a->nnodes)
		return a->h + (size_t)(1 + i) * BC_OP_NR;
	return NULL;
}

/* the five percentiles of h[0..BC_OP_NR) merged: false when empty */
static bool s_pct(const struct bc_hist *h, uint64_t out[5])
{
	const struct bc_hist *hs[BC_OP_NR];
	uint64_t n = 0;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		hs[o] = &h[o];
		n += h[o].count;
	}
	if (!n)
		return false;
	bc_hist_percentiles_sum(hs, BC_OP_NR, 0, s_pcts, 5, out);
	return true;
}

static void s_hist_add(struct bc_hist *dst, const struct bc_hist *src)
{
	unsigned b;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		if (!src[o].count)
			continue;
		for (b = 0; b < BC_HIST_BUCKETS; b++)
			dst[o].buckets[b] += src[o].buckets[b];
		dst[o].count += src[o].count;
	}
}

/* one walk over the step's HIST frames: each minute's and hour's percentiles */
static int s_hists(struct bc_minutes *m, const struct bc_secr *sr, uint32_t ord)
{
	size_t ne = (size_t)(1 + m->nnodes), e;
	struct s_acc a = {calloc(ne * BC_OP_NR, sizeof(struct bc_hist)), m->nnodes};
	struct bc_hist *hour = calloc(BC_OP_NR, sizeof(*hour));
	uint32_t k, j, h;
	uint64_t p[5];
	int rc = 0;

	if (!a.h || !hour) {
		rc = -ENOMEM;
		goto out;
	}
	for (k = 0; k < m->seconds && !rc; k++) {
		rc = bc_secr_hist_all(sr, ord, k, s_dst, &a);
		if (rc == -ENOENT) /* a second without records has no frame */
			rc = 0;
		if (rc || ((k + 1) % BC_MINUTE_S && k + 1 < m->seconds))
			continue;
		j = k / BC_MINUTE_S;
		for (e = 0; e < ne; e++) {
			struct bc_hist *x = a.h + e * BC_OP_NR;

			m->has_pct[e * m->nmin + j] = s_pct(x, m->pct[e * m->nmin + j]);
			if (!e && j >= m->first_min)
				s_hist_add(hour, x);
			if (m->has_pct[e * m->nmin + j])
				memset(x, 0, BC_OP_NR * sizeof(*x));
		}
		/* an hour of the window ends with its 60th minute, or the step */
		if (j < m->first_min || ((j - m->first_min + 1) % 60 && j + 1 < m->nmin))
			continue;
		h = (j - m->first_min) / 60;
		if (h < m->nhours && s_pct(hour, p))
			m->hour_p99_ns[h] = p[2];
		memset(hour, 0, BC_OP_NR * sizeof(*hour));
	}
out:
	free(a.h);
	free(hour);
	return rc;
}

int bc_minutes_load(struct bc_minutes *m, const struct bc_secr *sr, uint32_t ord, uint32_t seconds,
		    uint32_t ramp_s, int nnodes, const uint32_t *rep)
{
	size_t ne = (size_t)(1 + (nnodes > 0 ? nnodes : 0));
	struct bc_secrow row;
	uint32_t k, j;
	int rc;

	memset(m, 0, sizeof(*m));
	m->seconds = seconds;
	m->ramp_s = ramp_s < seconds ? ramp_s : seconds;
	m->nmin = (seconds + BC_MINUTE_S - 1) / BC_MINUTE_S;
	m->nnodes = nnodes > 0 ? nnodes : 0;
	m->first_min = (m->ramp_s + BC_MINUTE_S - 1) / BC_MINUTE_S;
	m->nhours = m->nmin > m->first_min ? (m->nmin - m->first_min + 59) / 60 : 0;
	m->tot = calloc(m->nmin + 1, sizeof(*m->tot));
	m->pct = calloc(ne * m->nmin + 1, sizeof(*m->pct));
	m->has_pct = calloc(ne * m->nmin + 1, sizeof(*m->has_pct));
	m->hour_ios = calloc(m->nhours + 1, sizeof(*m->hour_ios));
	m->hour_p99_ns = calloc(m->nhours + 1, sizeof(*m->hour_p99_ns));
	m->hour_secs = calloc(m->nhours + 1, sizeof(*m->hour_secs));
	if (!m->tot || !m->pct || !m->has_pct || !m->hour_ios || !m->hour_p99_ns || !m->hour_secs) {
		bc_minutes_free(m);
		return -ENOMEM;
	}
	for (k = 0; k < seconds; k++) {
		rc = bc_secr_row(sr, ord, k, BC_LVL_TOTAL, 0, &row);
		if (rc && rc != -ENOENT) {
			bc_minutes_free(m);
			return rc;
		}
		s_minute_add(&m->tot[k / BC_MINUTE_S], &row, rep ? rep[k] : 0, rep != NULL);
	}
	for (j = m->first_min; j < m->nmin; j++) {
		m->hour_ios[(j - m->first_min) / 60] += m->tot[j].ios;
		m->hour_secs[(j - m->first_min) / 60] += m->tot[j].secs;
	}
	rc = s_hists(m, sr, ord);
	if (rc)
		bc_minutes_free(m);
	return rc;
}

void bc_minutes_free(struct bc_minutes *m)
{
	free(m->tot);
	free(m->pct);
	free(m->has_pct);
	free(m->hour_ios);
	free(m->hour_p99_ns);
	free(m->hour_secs);
	memset(m, 0, sizeof(*m));
}

cJSON *bc_minutes_entity_json(const struct bc_secr *sr, uint32_t ord, int lvl, int i,
			      uint32_t seconds, const struct bc_minutes *m)
{
	uint32_t n = (seconds + BC_MINUTE_S - 1) / BC_MINUTE_S, k;
	struct bc_minute *mi = calloc(n + 1, sizeof(*mi));
	bool node = lvl == BC_LVL_NODE && m && i < m->nnodes && m->nmin == n;
	struct bc_secrow row;
	cJSON *o = NULL;
	int rc = 0;

	for (k = 0; mi && k < seconds && !rc; k++) {
		rc = bc_secr_row(sr, ord, k, lvl, i, &row);
		if (rc == -ENOENT) /* never written: no record, a zero row */
			rc = 0;
		if (!rc)
			s_minute_add(&mi[k / BC_MINUTE_S], &row, 0, false);
	}
	if (mi && !rc)
		o = s_json(mi, n, node ? m->pct + (size_t)(1 + i) * n : NULL,
			   node ? m->has_pct + (size_t)(1 + i) * n : NULL, false);
	free(mi);
	return o;
}

struct bc_minute *bc_minutes_level(const struct bc_secr *sr, uint32_t ord, int lvl,
				   uint32_t seconds, int *nent)
{
	const struct bc_secr_step *s = bc_secr_step(sr, ord);
	uint32_t n = (seconds + BC_MINUTE_S - 1) / BC_MINUTE_S, k;
	int ne = s && lvl >= 0 && lvl < BC_LVL_NR ? s->nent[lvl] : 0, i, rc = 0;
	struct bc_minute *all = calloc((size_t)ne * n + 1, sizeof(*all));
	struct bc_secrow row;

	*nent = ne;
	for (k = 0; all && k < seconds && !rc; k++)
		for (i = 0; i < ne && !rc; i++) {
			rc = bc_secr_row(sr, ord, k, lvl, i, &row);
			if (rc == -ENOENT) /* never written: no record, a zero row */
				rc = 0;
			if (!rc)
				s_minute_add(&all[(size_t)i * n + k / BC_MINUTE_S], &row, 0, false);
		}
	if (rc) {
		free(all);
		return NULL;
	}
	return all;
}

cJSON *bc_minutes_level_json(const struct bc_minute *all, int i, uint32_t seconds)
{
	uint32_t n = (seconds + BC_MINUTE_S - 1) / BC_MINUTE_S;

	return s_json(all + (size_t)i * n, n, NULL, NULL, false);
}

cJSON *bc_minutes_total_json(const struct bc_minutes *m)
{
	return s_json(m->tot, m->nmin, m->pct, m->has_pct, true);
}

/* least-squares slope of y over x (n points): per unit of x */
static double s_slope(const double *x, const double *y, uint32_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
	}
	return sxx > 0 ? sxy / sxx : NAN;
}

static double s_mean(const double *y, uint32_t n)
{
	double s = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		s += y[i];
	return n ? s / n : NAN;
}

/*
 * The first window of BC_STEADY_MINUTES consecutive minutes (all with
 * records, index into minute j0 + i) within the band and trend: its first
 * minute's index into x/y, or -1
 */
static int64_t s_steady(const uint32_t *min_of, const double *y, uint32_t n)
{
	uint32_t s, i, w = BC_STEADY_MINUTES;
	double t[BC_STEADY_MINUTES];

	for (i = 0; i < w; i++)
		t[i] = i;
	for (s = 0; s + w <= n; s++) {
		double mu = s_mean(y + s, w), sl;
		bool ok = mu > 0 && min_of[s + w - 1] - min_of[s] == w - 1;

		for (i = 0; ok && i < w; i++)
			ok = fabs(y[s + i] - mu) <= mu * BC_STEADY_BAND_PCT / 100;
		sl = ok ? s_slope(t, y + s, w) : NAN;
		if (ok && fabs(sl * (w - 1)) <= mu * BC_STEADY_TREND_PCT / 100)
			return s;
	}
	return -1;
}

static cJSON *s_worst(const char *key, uint32_t min, double v)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "minute", min);
	cJSON_AddNumberToObject(o, "from_second", (double)min * BC_MINUTE_S);
	cJSON_AddItemToObject(o, key, s_fig(v, true));
	return o;
}

cJSON *bc_minutes_drift_json(const struct bc_minutes *m)
{
	uint32_t n = 0, np = 0, j, h, wi = 0, wp = 0;
	double *t = calloc(m->nmin + 1, sizeof(double)), *y = calloc(m->nmin + 1, sizeof(double));
	double *tp = calloc(m->nmin + 1, sizeof(double)), *yp = calloc(m->nmin + 1, sizeof(double));
	uint32_t *min_of = calloc(m->nmin + 1, sizeof(uint32_t));
	double worst_i = INFINITY, worst_p = -1, mu;
	cJSON *o = cJSON_CreateObject(), *hours, *e;
	int64_t st;

	if (!o || !t || !y || !tp || !yp || !min_of) {
		cJSON_Delete(o);
		o = NULL;
		goto out;
	}
	/* the window's minutes with records: IOPS and exact p99 against hours */
	for (j = m->first_min; j < m->nmin; j++) {
		const struct bc_minute *mi = &m->tot[j];
		double hrs = (double)(j - m->first_min) / 60.0;

		if (!mi->secs)
			continue;
		t[n] = hrs;
		y[n] = (double)mi->ios / mi->secs;
		min_of[n] = j;
		/* a minute cut short by the step's end is no worst minute */
		if (mi->secs * 2 >= BC_MINUTE_S && y[n] < worst_i) {
			worst_i = y[n];
			wi = j;
		}
		n++;
		if (!m->has_pct[j])
			continue;
		tp[np] = hrs;
		yp[np] = (double)m->pct[j][2] / 1e3;
		if (mi->secs * 2 >= BC_MINUTE_S && yp[np] > worst_p) {
			worst_p = yp[np];
			wp = j;
		}
		np++;
	}
	cJSON_AddNumberToObject(o, "interval_s", BC_MINUTE_S);
	cJSON_AddNumberToObject(o, "from_second", (double)m->first_min * BC_MINUTE_S);
	cJSON_AddNumberToObject(o, "minutes", n);
	hours = cJSON_AddArrayToObject(o, "hours");
	for (h = 0; h < m->nhours; h++) {
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "hour", h);
		cJSON_AddNumberToObject(e, "from_second",
					(double)(m->first_min + h * 60) * BC_MINUTE_S);
		cJSON_AddNumberToObject(e, "seconds", m->hour_secs[h]);
		cJSON_AddItemToObject(
		    e, "iops",
		    s_fig(m->hour_secs[h] ? (double)m->hour_ios[h] / m->hour_secs[h] : 0,
			  m->hour_secs[h] > 0));
		cJSON_AddItemToObject(
		    e, "lat_p99_us", s_fig((double)m->hour_p99_ns[h] / 1e3, m->hour_p99_ns[h] > 0));
		cJSON_AddItemToArray(hours, e);
	}
	mu = s_mean(y, n);
	cJSON_AddItemToObject(o, "iops_trend_pct_per_hour",
			      s_fig(100 * s_slope(t, y, n) / mu, n >= 3 && mu > 0));
	mu = s_mean(yp, np);
	cJSON_AddItemToObject(o, "p99_trend_pct_per_hour",
			      s_fig(100 * s_slope(tp, yp, np) / mu, np >= 3 && mu > 0));
	if (isfinite(worst_i))
		cJSON_AddItemToObject(o, "worst_minute_iops", s_worst("iops", wi, worst_i));
	if (worst_p >= 0)
		cJSON_AddItemToObject(o, "worst_minute_p99", s_worst("lat_p99_us", wp, worst_p));
	st = s_steady(min_of, y, n);
	if (st >= 0) {
		cJSON_AddNumberToObject(o, "steady_from_second", (double)min_of[st] * BC_MINUTE_S);
		cJSON_AddNumberToObject(o, "steady_after_s",
					(double)(min_of[st] - m->first_min) * BC_MINUTE_S);
	} else {
		cJSON_AddNullToObject(o, "steady_from_second");
	}
	cJSON_AddStringToObject(o, "steady_rule",
				"the first 30 minutes whose IOPS stay within +-10% of their mean, "
				"with a trend across them under 10% of it");
out:
	free(t);
	free(y);
	free(tp);
	free(yp);
	free(min_of);
	return o;
}
