/*
 * results.c - figures of a step as JSON (run.json) and as the final table on
 * the terminal: IOPS, MB/s and latency percentiles per op and for all ops,
 * over the measured window, for the total, each agent, node and volume,
 * plus the per-second series and the cross-checks.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bc_coord.h"
#include "bc_nvme_report.h"
#include "bc_steady.h"
#include "bc_volnode.h"

static const double s_pcts[] = {50, 90, 99, 99.9, 99.99};
static const char *const s_pct_names[] = {"p50", "p90", "p99", "p99.9", "p99.99"};

static double s_us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* round to 3 decimals so run.json stays readable */
static double s_r3(double v)
{
	return round(v * 1000.0) / 1000.0;
}

static cJSON *s_op_json(const struct bc_opstat *s, const struct bc_hist *h, uint32_t seconds)
{
	cJSON *o = cJSON_CreateObject(), *lat;
	uint64_t v[sizeof(s_pcts) / sizeof(s_pcts[0])];
	size_t i;

	cJSON_AddNumberToObject(o, "ios", (double)s->ios);
	cJSON_AddNumberToObject(o, "bytes", (double)s->bytes);
	cJSON_AddNumberToObject(o, "iops", s_r3(seconds ? (double)s->ios / seconds : 0));
	cJSON_AddNumberToObject(o, "mbps", s_r3(seconds ? (double)s->bytes / seconds / 1e6 : 0));
	cJSON_AddNumberToObject(o, "errors", (double)s->errors);
	cJSON_AddNumberToObject(o, "short", (double)s->short_ios);
	if (s->first_errno)
		cJSON_AddStringToObject(o, "first_error", strerror(-s->first_errno));
	lat = cJSON_AddObjectToObject(o, "lat_us");
	cJSON_AddNumberToObject(lat, "mean",
				s_r3(s->ios ? s_us(s->lat_sum_ns) / (double)s->ios : 0));
	cJSON_AddNumberToObject(lat, "min", s_r3(s->ios ? s_us(s->lat_min_ns) : 0));
	bc_hist_percentiles(h, s_pcts, (int)(sizeof(s_pcts) / sizeof(s_pcts[0])), v);
	for (i = 0; i < sizeof(s_pcts) / sizeof(s_pcts[0]); i++)
		cJSON_AddNumberToObject(lat, s_pct_names[i], s_r3(s_us(v[i])));
	/* the exact maximum, not the bucket midpoint */
	cJSON_AddNumberToObject(lat, "max", s_r3(s_us(s->lat_max_ns)));
	return o;
}

cJSON *bc_result_window_json(const struct bc_volstat *w, uint32_t seconds)
{
	struct bc_opstat *all = malloc(sizeof(*all));
	cJSON *o;
	int op;

	if (!all)
		return NULL;
	memset(all, 0, sizeof(*all));
	bc_opstat_reset(all);
	for (op = 0; op < BC_OP_NR; op++)
		bc_opstat_merge(all, &w->op[op]);
	o = s_op_json(all, &all->hist, seconds);
	cJSON_AddNumberToObject(
	    o, "read_pct",
	    s_r3(all->ios ? 100.0 * (double)w->op[BC_OP_READ].ios / (double)all->ios : 0));
	for (op = 0; op < BC_OP_NR; op++)
		if (w->op[op].ios || w->op[op].errors || w->op[op].short_ios)
			cJSON_AddItemToObject(o, bc_op_names[op],
					      s_op_json(&w->op[op], &w->op[op].hist, seconds));
	free(all);
	return o;
}

static cJSON *s_all_json(const struct bc_volstat *a)
{
	cJSON *o = cJSON_CreateObject();
	uint64_t ios = 0, bytes = 0, err = 0, sh = 0;
	int op;

	for (op = 0; op < BC_OP_NR; op++) {
		ios += a->op[op].ios;
		bytes += a->op[op].bytes;
		err += a->op[op].errors;
		sh += a->op[op].short_ios;
		if (a->op[op].bytes)
			cJSON_AddNumberToObject(o,
						op == BC_OP_READ    ? "read_bytes"
						: op == BC_OP_WRITE ? "write_bytes"
								    : "trim_bytes",
						(double)a->op[op].bytes);
	}
	cJSON_AddNumberToObject(o, "ios", (double)ios);
	cJSON_AddNumberToObject(o, "bytes", (double)bytes);
	cJSON_AddNumberToObject(o, "errors", (double)err);
	cJSON_AddNumberToObject(o, "short", (double)sh);
	return o;
}

/* columnar per-second series: one array per figure */
static cJSON *s_series_json(const struct bc_entity *e, uint32_t seconds, const uint32_t *rep)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *iops = cJSON_AddArrayToObject(o, "iops"), *mbps = cJSON_AddArrayToObject(o, "mbps");
	cJSON *rd = cJSON_AddArrayToObject(o, "read_iops");
	cJSON *mean = cJSON_AddArrayToObject(o, "lat_mean_us");
	cJSON *p50 = cJSON_AddArrayToObject(o, "lat_p50_us");
	cJSON *p90 = cJSON_AddArrayToObject(o, "lat_p90_us");
	cJSON *p99 = cJSON_AddArrayToObject(o, "lat_p99_us");
	cJSON *p999 = cJSON_AddArrayToObject(o, "lat_p99.9_us");
	cJSON *p9999 = cJSON_AddArrayToObject(o, "lat_p99.99_us");
	cJSON *mx = cJSON_AddArrayToObject(o, "lat_max_us");
	cJSON *er = cJSON_AddArrayToObject(o, "errors");
	cJSON *rp = rep ? cJSON_AddArrayToObject(o, "agents_reported") : NULL;
	cJSON *late = cJSON_AddArrayToObject(o, "late_records");
	uint32_t k;
	int op;

	for (k = 0; k < seconds; k++) {
		const struct bc_secrow *r = &e->secs[k];
		uint64_t ios = 0, bytes = 0;

		for (op = 0; op < BC_OP_NR; op++) {
			ios += r->ios[op];
			bytes += r->bytes[op];
		}
		cJSON_AddItemToArray(iops, cJSON_CreateNumber((double)ios));
		cJSON_AddItemToArray(mbps, cJSON_CreateNumber(s_r3((double)bytes / 1e6)));
		cJSON_AddItemToArray(rd, cJSON_CreateNumber((double)r->ios[BC_OP_READ]));
		cJSON_AddItemToArray(
		    mean, cJSON_CreateNumber(s_r3(ios ? s_us(r->lat_sum_ns) / (double)ios : 0)));
		cJSON_AddItemToArray(p50, cJSON_CreateNumber(s_r3(s_us(r->p50_ns))));
		cJSON_AddItemToArray(p90, cJSON_CreateNumber(s_r3(s_us(r->p90_ns))));
		cJSON_AddItemToArray(p99, cJSON_CreateNumber(s_r3(s_us(r->p99_ns))));
		cJSON_AddItemToArray(p999, cJSON_CreateNumber(s_r3(s_us(r->p999_ns))));
		cJSON_AddItemToArray(p9999, cJSON_CreateNumber(s_r3(s_us(r->p9999_ns))));
		cJSON_AddItemToArray(late, cJSON_CreateNumber(r->late));
		cJSON_AddItemToArray(mx, cJSON_CreateNumber(s_r3(s_us(r->max_ns))));
		cJSON_AddItemToArray(er, cJSON_CreateNumber((double)(r->errors + r->short_ios)));
		if (rp)
			cJSON_AddItemToArray(rp, cJSON_CreateNumber(rep[k]));
	}
	return o;
}

/*
 * The window's merged histogram per op as sparse [bucket index, count] pairs
 * (bc_hist.h layout) into o[op].hist: report writers rebuild exact
 * distributions from it (fio.json "bins"). Total and agents only, to keep
 * run.json small.
 */
static void s_add_hists(cJSON *o, const struct bc_volstat *w)
{
	int op;
	unsigned i;

	for (op = 0; op < BC_OP_NR; op++) {
		cJSON *ojs = cJSON_GetObjectItemCaseSensitive(o, bc_op_names[op]), *arr;

		if (!ojs || !w->op[op].hist.count)
			continue;
		arr = cJSON_AddArrayToObject(ojs, "hist");
		for (i = 0; arr && i < BC_HIST_BUCKETS; i++) {
			cJSON *pair;

			if (!w->op[op].hist.buckets[i])
				continue;
			pair = cJSON_CreateArray();
			cJSON_AddItemToArray(pair, cJSON_CreateNumber(i));
			cJSON_AddItemToArray(pair,
					     cJSON_CreateNumber((double)w->op[op].hist.buckets[i]));
			cJSON_AddItemToArray(arr, pair);
		}
	}
}

static cJSON *s_entity_json(const struct bc_agg *g, const struct bc_entity *e, int lvl)
{
	cJSON *o = bc_result_window_json(&e->window, g->seconds - g->ramp_s);

	if (lvl == BC_LVL_TOTAL || lvl == BC_LVL_AGENT)
		s_add_hists(o, &e->window);
	cJSON_AddStringToObject(o, "name", e->name);
	cJSON_AddItemToObject(o, "all_intervals", s_all_json(&e->all));
	cJSON_AddItemToObject(
	    o, "series",
	    s_series_json(e, g->seconds, lvl == BC_LVL_TOTAL ? g->agents_reported : NULL));
	return o;
}

/* vdbench-style avg over the window plus the trend/spread verdict on total IOPS */
static cJSON *s_steady_json(const struct bc_agg *g)
{
	const struct bc_entity *e = &g->ent[BC_LVL_TOTAL][0];
	uint32_t n = g->seconds - g->ramp_s, k;
	double *x = calloc(n ? n : 1, sizeof(double));
	struct bc_steady st;
	cJSON *o = cJSON_CreateObject();
	char label[32];
	int op, rc;

	for (k = 0; x && k < n; k++)
		for (op = 0; op < BC_OP_NR; op++)
			x[k] += (double)e->secs[g->ramp_s + k].ios[op];
	rc = bc_steady_check(x, x ? n : 0, BC_STEADY_SLOPE_PCT, BC_STEADY_SPREAD_PCT, &st);
	free(x);
	snprintf(label, sizeof(label), "avg_%u-%u", g->ramp_s, g->seconds - 1);
	cJSON_AddStringToObject(o, "window", label);
	cJSON_AddStringToObject(o, "metric", "iops");
	cJSON_AddNumberToObject(o, "mean", s_r3(st.mean));
	cJSON_AddNumberToObject(o, "slope_pct_per_s", s_r3(st.slope_pct));
	cJSON_AddNumberToObject(o, "spread_pct", s_r3(st.spread_pct));
	cJSON_AddNumberToObject(o, "stddev_pct", s_r3(st.stddev_pct));
	cJSON_AddNumberToObject(o, "slope_limit_pct", BC_STEADY_SLOPE_PCT);
	cJSON_AddNumberToObject(o, "spread_limit_pct", BC_STEADY_SPREAD_PCT);
	if (rc) {
		/* fewer than 3 seconds, or no I/O: there is nothing to judge */
		cJSON_AddNullToObject(o, "steady");
		cJSON_AddStringToObject(o, "reason", n < 3 ? "window shorter than 3 s" : "no I/O");
	} else {
		cJSON_AddBoolToObject(o, "steady", st.steady);
	}
	return o;
}

/* offsets re-measured before START and the start skew the agents observed */
static cJSON *s_clock_json(const struct bc_step_result *r)
{
	cJSON *o = cJSON_CreateObject(), *agents = cJSON_Duplicate(r->clock, 1), *a;
	double lo = INFINITY, hi = -INFINITY, umax = 0, usec = 0;

	if (!agents)
		agents = cJSON_CreateObject();
	cJSON_ArrayForEach(a, agents)
	{
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(r->agent_totals, a->string);
		const cJSON *lmin = cJSON_GetObjectItemCaseSensitive(t, "start_late_min_ns");
		const cJSON *lmax = cJSON_GetObjectItemCaseSensitive(t, "start_late_max_ns");
		double u =
		    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "uncertainty_ns"));

		if (!cJSON_IsNumber(lmin) || !cJSON_IsNumber(lmax))
			continue;
		cJSON_AddNumberToObject(a, "start_late_min_ns", lmin->valuedouble);
		cJSON_AddNumberToObject(a, "start_late_max_ns", lmax->valuedouble);
		lo = fmin(lo, lmin->valuedouble);
		hi = fmax(hi, lmax->valuedouble);
		if (u > umax) {
			usec = umax;
			umax = u;
		} else if (u > usec) {
			usec = u;
		}
	}
	cJSON_AddItemToObject(o, "agents", agents);
	if (hi >= lo) {
		/* first to last job start on the common timeline, and its worst case */
		cJSON_AddNumberToObject(o, "start_skew_ns", hi - lo);
		cJSON_AddNumberToObject(o, "start_skew_bound_ns", hi - lo + umax + usec);
	}
	cJSON_AddNumberToObject(o, "max_uncertainty_ns", umax);
	return o;
}

/*
 * Node counters into steps[].nodes[i].counters, and each client host's
 * counters (window mean plus a few per-second series) into
 * steps[].agents[i].host.
 */
static void s_host_json(cJSON *o, const struct bc_step_result *r)
{
	/* t0_s/t1_s: when the agent read the sample's two ends, seconds after the step's start
	 * (bc_hoststat.h): second k's host figures cover [k, k+1) like its I/O */
	static const char *const keys[] = {"cpu_busy_pct", "cpu_hot_core_pct", "softirq_pct",
					   "net_tx_mbps",  "net_rx_mbps",      "t0_s",
					   "t1_s"};
	cJSON *e;
	size_t i;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(o, "nodes"))
	{
		const char *name =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"));
		cJSON *c = cJSON_GetObjectItemCaseSensitive(r->node_counters, name ? name : "");

		if (c)
			cJSON_AddItemToObject(e, "counters", cJSON_Duplicate(c, 1));
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(o, "agents"))
	{
		const char *name =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"));
		const cJSON *arr = cJSON_GetObjectItemCaseSensitive(r->hosts, name ? name : "");
		cJSON *h, *series, *smp, *mean = bc_verdict_client_mean(r, name ? name : "");

		if (!arr)
			continue;
		h = cJSON_AddObjectToObject(e, "host");
		cJSON_AddItemToObject(h, "window", mean ? mean : cJSON_CreateNull());
		series = cJSON_AddObjectToObject(h, "series");
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			cJSON *col = cJSON_AddArrayToObject(series, keys[i]);
			uint32_t k;

			/* one value per second of the step, null where no sample came */
			for (k = 0; k < r->agg.seconds; k++) {
				const cJSON *v = NULL;

				cJSON_ArrayForEach(smp, arr) if (
				    cJSON_GetNumberValue(
					cJSON_GetObjectItemCaseSensitive(smp, "second")) == k) v =
				    cJSON_GetObjectItemCaseSensitive(smp, keys[i]);
				cJSON_AddItemToArray(col,
						     cJSON_IsNumber(v)
							 ? cJSON_CreateNumber(s_r3(v->valuedouble))
							 : cJSON_CreateNull());
			}
		}
	}
}

cJSON *bc_result_step_json(const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	cJSON *o = cJSON_CreateObject(), *arr, *miss;
	static const char *const lvl_names[BC_LVL_NR] = {"volumes", "agents", "nodes", NULL};
	uint32_t k;
	int lvl, i;

	cJSON_AddStringToObject(o, "name", r->step->name);
	cJSON_AddStringToObject(o, "status", r->status);
	if (r->error[0])
		cJSON_AddStringToObject(o, "error", r->error);
	cJSON_AddItemToObject(o, "workload", bc_workload_to_json(&r->step->wl));
	cJSON_AddNumberToObject(o, "start_ns", (double)r->start_ns);
	cJSON_AddNumberToObject(o, "seconds", g->seconds);
	cJSON_AddNumberToObject(o, "measured_from_second", g->ramp_s);
	cJSON_AddNumberToObject(o, "measured_seconds", g->seconds - g->ramp_s);
	miss = cJSON_AddArrayToObject(o, "incomplete_seconds");
	for (k = 0; k < g->closed; k++)
		if (g->agents_reported[k] < (uint32_t)g->nent[BC_LVL_AGENT])
			cJSON_AddItemToArray(miss, cJSON_CreateNumber(k));
	cJSON_AddItemToObject(o, "total", s_entity_json(g, &g->ent[BC_LVL_TOTAL][0], BC_LVL_TOTAL));
	for (lvl = 0; lvl < BC_LVL_TOTAL; lvl++) {
		arr = cJSON_AddArrayToObject(o, lvl_names[lvl]);
		for (i = 0; i < g->nent[lvl]; i++) {
			cJSON *e = s_entity_json(g, &g->ent[lvl][i], lvl);

			if (lvl == BC_LVL_VOLUME) {
				const struct bc_volume_spec *v = &g->prof->volumes[i];

				cJSON_AddStringToObject(e, "agent", g->prof->agents[v->agent].name);
				cJSON_AddStringToObject(e, "path", v->path);
				/* how its node was decided: "profile", "nvme-tcp address ..." */
				if (bc_agg_vol_node(g, i) >= 0)
					cJSON_AddStringToObject(
					    e, "node", g->prof->nodes[bc_agg_vol_node(g, i)].name);
				if (g->volnode && g->volnode[i].why[0])
					cJSON_AddStringToObject(e, "node_source",
								g->volnode[i].why);
				else if (v->node >= 0)
					cJSON_AddStringToObject(e, "node_source", "profile");
				bc_result_nvme_volume(r, i, e); /* temperature, WAF */
			}
			cJSON_AddItemToArray(arr, e);
		}
	}
	cJSON_AddItemToObject(o, "agent_totals", cJSON_Duplicate(r->agent_totals, 1));
	s_host_json(o, r);
	if (r->analysis)
		cJSON_AddItemToObject(o, "analysis", cJSON_Duplicate(r->analysis, 1));
	cJSON_AddItemToObject(o, "lost_agents",
			      r->lost ? cJSON_Duplicate(r->lost, 1) : cJSON_CreateArray());
	cJSON_AddItemToObject(o, "checks", bc_checks_json(r));
	cJSON_AddItemToObject(o, "steady_state", s_steady_json(g));
	cJSON_AddItemToObject(o, "clock", s_clock_json(r));
	return o;
}

static void s_print_row(FILE *f, const char *label, const struct bc_volstat *w, uint32_t secs)
{
	cJSON *j = bc_result_window_json(w, secs);
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(j, "lat_us");
	double v[8];
	int i;
	static const char *const keys[] = {"iops", "mbps", "read_pct", "errors"};
	static const char *const lk[] = {"mean", "p50", "p99", "max"};

	for (i = 0; i < 4; i++)
		v[i] = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, keys[i]));
	for (i = 0; i < 4; i++)
		v[4 + i] =
		    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(lat, lk[i])) / 1000;
	fprintf(f, "  %-32.32s %11.0f %9.1f %6.1f %9.3f %9.3f %9.3f %9.3f %7.0f\n", label, v[0],
		v[1], v[2], v[4], v[5], v[6], v[7], v[3]);
	cJSON_Delete(j);
}

/*
 * A terminal table of a few hundred rows is still read; one of 16,000
 * volumes is not (and costs seconds to compute): past this many rows a
 * level prints its first ones and a pointer to the reports.
 */
#define S_PRINT_ROWS_MAX 64

static void s_print_level(FILE *f, const struct bc_agg *g, int lvl, const char *prefix,
			  const char *plural, uint32_t secs)
{
	int i;

	for (i = 0; i < g->nent[lvl] && i < S_PRINT_ROWS_MAX; i++) {
		char label[BC_NAME_MAX + 8];

		snprintf(label, sizeof(label), "%s%s", prefix, g->ent[lvl][i].name);
		s_print_row(f, label, &g->ent[lvl][i].window, secs);
	}
	if (g->nent[lvl] > S_PRINT_ROWS_MAX)
		fprintf(f, "  ... and %d more %s: summary.md, report.html, timeseries.csv\n",
			g->nent[lvl] - S_PRINT_ROWS_MAX, plural);
}

void bc_result_print_step(FILE *f, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	uint32_t secs = g->seconds - g->ramp_s;

	fprintf(f, "\nstep %s: %s over seconds %u-%u (ramp excluded)%s%s\n", r->step->name,
		r->status, g->ramp_s, g->seconds ? g->seconds - 1 : 0, r->error[0] ? ": " : "",
		r->error);
	fprintf(f, "  %-32s %11s %9s %6s %9s %9s %9s %9s %7s\n", "", "IOPS", "MB/s", "read%",
		"mean_ms", "p50_ms", "p99_ms", "max_ms", "errors");
	s_print_row(f, "total", &g->ent[BC_LVL_TOTAL][0].window, secs);
	s_print_level(f, g, BC_LVL_AGENT, "agent ", "agents", secs);
	s_print_level(f, g, BC_LVL_NODE, "node ", "nodes", secs);
	s_print_level(f, g, BC_LVL_VOLUME, "", "volumes", secs);
	fflush(f);
}

void bc_step_result_free(struct bc_step_result *r)
{
	bc_agg_free(&r->agg);
	cJSON_Delete(r->agent_totals);
	cJSON_Delete(r->clock);
	cJSON_Delete(r->lost);
	cJSON_Delete(r->hosts);
	cJSON_Delete(r->node_counters);
	cJSON_Delete(r->analysis);
	memset(r, 0, sizeof(*r));
}
