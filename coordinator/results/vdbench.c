/*
 * results/vdbench.c - vdbench's interval table computed (results/vdbench.h):
 * rows from the aggregated seconds and windows, the client hosts' cpu per
 * second, and the table's JSON in run.json, for the total and, as vdbench's
 * per-host and per-SD reports, per agent and per volume. Rendered by
 * report/parts/vdbench.c.
 */
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agg/rows.h"
#include "results/fullsize.h"
#include "results/long/minutes.h"
#include "results/hostsamples.h"
#include "results/vdbench.h"
#include "util/clock.h"
#include "util/rjson.h"

/* vdbench's MB is 1024**2 bytes (its header says so) */
#define S_MB 1048576.0

static double s_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double s_div(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/*
 * The 13 columns: run.json key, field, width and decimals of vdbench's
 * interval line, its two header lines. Every row, its JSON and its text
 * go through this table.
 */
const struct bc_vdb_col bc_vdb_cols[BC_VDB_NCOLS] = {
#define S_C(f, key, w, d, h1, h2)                                                                  \
	{                                                                                          \
		key, offsetof(struct bc_vdb_row, f), w, d, h1, h2                                  \
	}
    S_C(rate, "rate", 11, 1, "i/o", "rate"),
    S_C(mb_s, "mb_s", 9, 2, "MB/sec", "1024**2"),
    S_C(bytes_io, "bytes_io", 8, 0, "bytes", "i/o"),
    S_C(read_pct, "read_pct", 7, 2, "read", "pct"),
    S_C(resp_ms, "resp_ms", 9, 3, "resp", "time"),
    S_C(read_resp_ms, "read_resp_ms", 9, 3, "read", "resp"),
    S_C(write_resp_ms, "write_resp_ms", 9, 3, "write", "resp"),
    S_C(read_max_ms, "read_max_ms", 9, 2, "read", "max"),
    S_C(write_max_ms, "write_max_ms", 9, 2, "write", "max"),
    S_C(resp_sd_ms, "resp_stddev_ms", 9, 3, "resp", "stddev"),
    S_C(queue_depth, "queue_depth", 7, 1, "queue", "depth"),
    S_C(cpu_pct, "cpu_pct", 6, 1, "cpu%", "sys+u"),
    S_C(cpu_sys_pct, "cpu_sys_pct", 6, 1, "cpu%", "sys"),
#undef S_C
};

static double *s_field(struct bc_vdb_row *r, size_t c)
{
	return (double *)((char *)r + bc_vdb_cols[c].off);
}

double bc_vdb_value(const struct bc_vdb_row *r, size_t c)
{
	return *(const double *)((const char *)r + bc_vdb_cols[c].off);
}

static void s_row_nan(struct bc_vdb_row *o)
{
	size_t c;

	for (c = 0; c < BC_VDB_NCOLS; c++)
		*s_field(o, c) = NAN;
}

/*
 * The columns every row shares, from counts over secs seconds: ios, bytes
 * and latency sums by op, maxima by op, the standard deviation.
 */
static void s_row(const uint64_t *ios, const uint64_t *bytes, const uint64_t *lat_ns,
		  const uint64_t *max_ns, double sd_ns, double secs, struct bc_vdb_row *o)
{
	double n = 0, b = 0, l = 0;
	int op;

	for (op = 0; op < BC_OP_NR; op++) {
		n += (double)ios[op];
		b += (double)bytes[op];
		l += (double)lat_ns[op];
	}
	o->rate = s_div(n, secs);
	o->mb_s = s_div(b, secs) / S_MB;
	o->bytes_io = s_div(b, n);
	o->read_pct = 100.0 * s_div((double)ios[BC_OP_READ], n);
	o->resp_ms = s_div(l, n) / 1e6;
	o->read_resp_ms = s_div((double)lat_ns[BC_OP_READ], (double)ios[BC_OP_READ]) / 1e6;
	o->write_resp_ms = s_div((double)lat_ns[BC_OP_WRITE], (double)ios[BC_OP_WRITE]) / 1e6;
	o->read_max_ms = ios[BC_OP_READ] ? s_ms(max_ns[BC_OP_READ]) : 0;
	o->write_max_ms = ios[BC_OP_WRITE] ? s_ms(max_ns[BC_OP_WRITE]) : 0;
	o->resp_sd_ms = sd_ns / 1e6;
	/* the mean number of I/Os in flight: arrival rate x time in the system */
	o->queue_depth = o->rate * o->resp_ms / 1e3;
}

/* sd_known: the second's stddev was computed (nodes and the total merge their histograms) */
static void s_row_from_sec(const struct bc_secrow *r, double cpu, double sys, bool sd_known,
			   struct bc_vdb_row *out)
{
	s_row_nan(out);
	if (!r->reports)
		return; /* nothing was measured: not a zero */
	s_row(r->ios, r->bytes, r->op_lat_sum_ns, r->op_max_ns,
	      sd_known ? (double)r->lat_sd_ns : NAN, 1, out);
	out->cpu_pct = cpu;
	out->cpu_sys_pct = sys;
}

void bc_vdb_row_from_sec(const struct bc_secrow *r, double cpu, double sys, struct bc_vdb_row *out)
{
	s_row_from_sec(r, cpu, sys, true, out);
}

void bc_vdb_row_from_window(const struct bc_volstat *w, uint32_t secs, double cpu, double sys,
			    struct bc_vdb_row *out)
{
	uint64_t ios[BC_OP_NR], bytes[BC_OP_NR], lat[BC_OP_NR], mx[BC_OP_NR];
	double m[3] = {0, 0, 0};
	unsigned lo, hi;
	int op;

	s_row_nan(out);
	if (!secs)
		return;
	for (op = 0; op < BC_OP_NR; op++) {
		ios[op] = w->op[op].ios;
		bytes[op] = w->op[op].bytes;
		lat[op] = w->op[op].lat_sum_ns;
		mx[op] = w->op[op].lat_max_ns;
		bc_opstat_hist_span(&w->op[op], &lo, &hi);
		if (lo <= hi)
			bc_hist_moments(w->op[op].hist.buckets + lo, lo, hi - lo + 1, m);
	}
	s_row(ios, bytes, lat, mx, bc_hist_stddev(m), secs, out);
	out->cpu_pct = cpu;
	out->cpu_sys_pct = sys;
}

static double s_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* a running mean that leaves out what was not measured */
struct s_mean {
	double sum;
	int n;
};

static void s_mean_add(struct s_mean *m, double v)
{
	if (isnan(v))
		return;
	m->sum += v;
	m->n++;
}

static double s_mean_of(const struct s_mean *m)
{
	return m->n ? m->sum / m->n : NAN;
}

/* an agent's cpu of second k into c and y (its row's, bc_hostsamples_pick: O(1) a second) */
static void s_cpu_add(const struct bc_hostsamples *hs, int agent, uint32_t k, bool latest,
		      struct s_mean *c, struct s_mean *y)
{
	int64_t at = bc_hostsamples_pick(hs, agent, k, latest);

	s_mean_add(c,
		   at >= 0 ? bc_hostsamples_value(hs, agent, (uint32_t)at, BC_HS_CPU_BUSY) : NAN);
	s_mean_add(y, at >= 0 ? bc_hostsamples_value(hs, agent, (uint32_t)at, BC_HS_CPU_SYS) : NAN);
}

/* cpu of second k of the one agent, or with agent -1 over the agents in their samples' order */
static void s_cpu(const struct bc_hostsamples *hs, int agent, uint32_t k, bool latest, double *cpu,
		  double *sys)
{
	struct s_mean c = {0, 0}, y = {0, 0};
	int i, n;
	const int *order = bc_hostsamples_order(hs, &n);

	if (agent >= 0)
		s_cpu_add(hs, agent, k, latest, &c, &y);
	for (i = 0; agent < 0 && i < n; i++)
		s_cpu_add(hs, order[i], k, latest, &c, &y);
	*cpu = s_mean_of(&c);
	*sys = s_mean_of(&y);
}

void bc_vdb_cpu(const struct bc_hostsamples *hosts, uint32_t k, bool latest, double *cpu,
		double *sys)
{
	s_cpu(hosts, -1, k, latest, cpu, sys); /* no hosts: NAN */
}

cJSON *bc_vdb_row_json(const struct bc_vdb_row *r)
{
	cJSON *o = cJSON_CreateObject();
	size_t c;

	/* six decimals: renderers of run.json round to the table's digits as the live line did */
	for (c = 0; c < BC_VDB_NCOLS; c++) {
		double v = bc_vdb_value(r, c);

		cJSON_AddItemToObject(o, bc_vdb_cols[c].key,
				      isfinite(v) ? cJSON_CreateNumber(round(v * 1e6) / 1e6)
						  : cJSON_CreateNull());
	}
	return o;
}

void bc_vdb_row_from_json(const cJSON *j, struct bc_vdb_row *o)
{
	size_t c;

	for (c = 0; c < BC_VDB_NCOLS; c++)
		*s_field(o, c) = s_num(j, bc_vdb_cols[c].key);
}

void bc_vdb_avg_label(uint32_t first, uint32_t last, char *buf, size_t len)
{
	snprintf(buf, len, "avg_%u-%u", first, last);
}

/*
 * Whose table: an entity, and the host samples its cpu columns come from
 * (every agent's for the total, the agent's own for an agent or a volume),
 * with the means of its measured seconds' cpu when they were counted for
 * every entity at once (s_cpu_means)
 */
struct s_ent {
	const struct bc_entity *e;
	int agent;     /* whose host samples: a profile agent, or -1 the mean over all */
	bool sd_known; /* per-second stddev computed (the total) */
	const struct s_mean *c, *y; /* the window's cpu means, or NULL: computed here */
};

/* the cpu means of x over its window's seconds with records */
static void s_cpu_window(const struct bc_step_result *r, const struct s_ent *x, struct s_mean *c,
			 struct s_mean *y)
{
	const struct bc_agg *g = &r->agg;
	double cpu, sys;
	uint32_t k;

	for (k = g->ramp_s; k < g->seconds; k++) {
		bc_agg_rows_read(g, k);
		if (!bc_entity_row(x->e, k)->reports)
			continue;
		s_cpu(r->hosts, x->agent, k, false, &cpu, &sys);
		s_mean_add(c, cpu);
		s_mean_add(y, sys);
	}
}

/* the avg row of an entity over its measured window, cpu the mean of its seconds' */
static void s_avg(const struct bc_step_result *r, const struct s_ent *x, struct bc_vdb_row *out)
{
	const struct bc_agg *g = &r->agg;
	struct s_mean c = {0, 0}, y = {0, 0};

	if (x->c) {
		c = *x->c;
		y = *x->y;
	} else {
		s_cpu_window(r, x, &c, &y);
	}
	bc_vdb_row_from_window(&x->e->window, bc_result_window_secs(g, x->e), s_mean_of(&c),
			       s_mean_of(&y), out);
}

/*
 * Every agent's and volume's window cpu means in one second-major pass (the
 * rows lie second-major: entity by entity, a day of 1,600 volumes would
 * read every page of them 1,600 times). c, y: [agents + volumes]
 */
static void s_cpu_means(const struct bc_step_result *r, struct s_mean *c, struct s_mean *y)
{
	const struct bc_agg *g = &r->agg;
	int na = g->nent[BC_LVL_AGENT], nv = g->nent[BC_LVL_VOLUME], i, a;
	double cpu, sys;
	uint32_t k;

	for (k = g->ramp_s; k < g->seconds; k++) {
		for (i = 0; i < na + nv; i++) {
			const struct bc_entity *e =
			    i < na ? &g->ent[BC_LVL_AGENT][i] : &g->ent[BC_LVL_VOLUME][i - na];

			a = i < na ? i : g->prof->volumes[i - na].agent;
			if (!bc_entity_row(e, k)->reports)
				continue;
			s_cpu(r->hosts, a, k, false, &cpu, &sys);
			s_mean_add(&c[i], cpu);
			s_mean_add(&y[i], sys);
		}
		bc_agg_rows_read(g, k);
	}
}

/*
 * seconds [k0, k1) of x as one interval: counters summed, the exact maxima,
 * the stddev pooled from the seconds' (their means and deviations), cpu the
 * mean of its seconds'
 */
static void s_row_from_span(const struct bc_step_result *r, const struct s_ent *x, uint32_t k0,
			    uint32_t k1, struct bc_vdb_row *out)
{
	uint64_t ios[BC_OP_NR] = {0}, bytes[BC_OP_NR] = {0}, lat[BC_OP_NR] = {0};
	uint64_t mx[BC_OP_NR] = {0};
	struct s_mean c = {0, 0}, y = {0, 0};
	double n = 0, l = 0, s2 = 0, cpu, sys;
	uint32_t k, secs = 0;
	int op;

	s_row_nan(out);
	for (k = k0; k < k1; k++) {
		const struct bc_secrow *w = bc_entity_row(x->e, k);
		double ni = 0, mi;

		bc_agg_rows_read(&r->agg, k);
		if (!w->reports)
			continue;
		secs++;
		for (op = 0; op < BC_OP_NR; op++) {
			ios[op] += w->ios[op];
			bytes[op] += w->bytes[op];
			lat[op] += w->op_lat_sum_ns[op];
			mx[op] = w->op_max_ns[op] > mx[op] ? w->op_max_ns[op] : mx[op];
			ni += (double)w->ios[op];
		}
		if (ni > 0) {
			mi = (double)w->lat_sum_ns / ni;
			s2 += ni * ((double)w->lat_sd_ns * (double)w->lat_sd_ns + mi * mi);
			n += ni;
			l += (double)w->lat_sum_ns;
		}
		s_cpu(r->hosts, x->agent, k, false, &cpu, &sys);
		s_mean_add(&c, cpu);
		s_mean_add(&y, sys);
	}
	if (!secs)
		return;
	s_row(ios, bytes, lat, mx,
	      x->sd_known && n > 0 ? sqrt(fmax(0, s2 / n - (l / n) * (l / n))) : NAN, secs, out);
	out->cpu_pct = s_mean_of(&c);
	out->cpu_sys_pct = s_mean_of(&y);
}

/*
 * {"intervals": [row per interval, null for one without records], "avg": row}
 * into o; the avg alone when the entity's level is summarised (results/fullsize.h).
 * An interval is a second, or a minute in a long step.
 */
static void s_table_json(cJSON *o, const struct bc_step_result *r, const struct s_ent *x,
			 bool intervals)
{
	const struct bc_agg *g = &r->agg;
	cJSON *iv = intervals ? cJSON_AddArrayToObject(o, "intervals") : NULL;
	uint32_t k, unit = bc_long_step(g->seconds) ? BC_MINUTE_S : 1;
	struct bc_vdb_row row;

	for (k = 0; iv && k < g->seconds; k += unit) {
		double cpu, sys;

		if (unit > 1) {
			s_row_from_span(r, x, k, k + unit < g->seconds ? k + unit : g->seconds,
					&row);
			cJSON_AddItemToArray(iv, isnan(row.rate) ? cJSON_CreateNull()
								 : bc_vdb_row_json(&row));
			continue;
		}
		if (!bc_entity_row(x->e, k)->reports) {
			cJSON_AddItemToArray(iv, cJSON_CreateNull());
			continue;
		}
		s_cpu(r->hosts, x->agent, k, false, &cpu, &sys);
		s_row_from_sec(bc_entity_row(x->e, k), cpu, sys, x->sd_known, &row);
		cJSON_AddItemToArray(iv, bc_vdb_row_json(&row));
		bc_agg_rows_read(g, k);
	}
	s_avg(r, x, &row);
	cJSON_AddItemToObject(o, "avg", bc_vdb_row_json(&row));
}

static struct s_ent s_total(const struct bc_step_result *r)
{
	struct s_ent x = {&r->agg.ent[BC_LVL_TOTAL][0], -1, true, NULL, NULL};

	return x;
}

cJSON *bc_vdb_step_json(const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	struct s_ent x = s_total(r);
	cJSON *o = cJSON_CreateObject(), *hosts, *sds;
	int na = g->nent[BC_LVL_AGENT], nv = g->nent[BC_LVL_VOLUME];
	struct s_mean *c = calloc((size_t)(na + nv) + 1, sizeof(*c));
	struct s_mean *y = calloc((size_t)(na + nv) + 1, sizeof(*y));
	bool long_step = bc_long_step(g->seconds);
	uint32_t unit = long_step ? BC_MINUTE_S : 1;
	uint32_t first = g->ramp_s / unit + 1, last = (g->seconds + unit - 1) / unit;
	char label[48];
	bool whole[2]; /* hosts', sds' interval tables listed */
	int i;

	if (c && y)
		s_cpu_means(r, c, y);
	bc_vdb_avg_label(first, last, label, sizeof(label));
	/* a long step's intervals are minutes (results/fullsize.h), as vdbench's interval=60 */
	if (long_step)
		cJSON_AddNumberToObject(o, "interval_s", unit);
	cJSON_AddNumberToObject(o, "first_interval", first);
	cJSON_AddNumberToObject(o, "last_interval", last);
	cJSON_AddStringToObject(o, "avg_label", label);
	s_table_json(o, r, &x, true);
	/*
	 * vdbench's per-host and per-SD reports: each agent, each volume, the
	 * same columns; in a long step their avg lines only (seconds.bin and
	 * `report --window` have their seconds), and the SDs' avg lines only
	 * past run.json's budget of volume-points (results/fullsize.h)
	 */
	whole[0] = !long_step && bc_full_listed(BC_LVL_AGENT, na);
	whole[1] = !long_step && bc_full_listed(BC_LVL_VOLUME, nv) &&
		   bc_series_in_runjson(BC_LVL_VOLUME, nv, g->seconds);
	hosts = cJSON_AddArrayToObject(o, "hosts");
	for (i = 0; hosts && i < na; i++) {
		const struct bc_entity *e = &g->ent[BC_LVL_AGENT][i];
		struct s_ent h = {e, i, false, c && y ? &c[i] : NULL, c && y ? &y[i] : NULL};
		cJSON *t = cJSON_CreateObject();

		cJSON_AddStringToObject(t, "name", e->name);
		s_table_json(t, r, &h, whole[0]);
		cJSON_AddItemToArray(hosts, t);
	}
	sds = cJSON_AddArrayToObject(o, "sds");
	for (i = 0; sds && i < nv; i++) {
		const struct bc_entity *e = &g->ent[BC_LVL_VOLUME][i];
		const char *agent = g->prof->agents[g->prof->volumes[i].agent].name;
		struct s_ent v = {e, g->prof->volumes[i].agent, false, c && y ? &c[na + i] : NULL,
				  c && y ? &y[na + i] : NULL};
		cJSON *t = cJSON_CreateObject();

		cJSON_AddStringToObject(t, "name", e->name);
		cJSON_AddStringToObject(t, "host", agent);
		s_table_json(t, r, &v, whole[1]);
		cJSON_AddItemToArray(sds, t);
	}
	free(c);
	free(y);
	return o;
}

void bc_vdb_step_avg(const struct bc_step_result *r, struct bc_vdb_row *out)
{
	struct s_ent x = s_total(r);

	s_avg(r, &x, out);
}
