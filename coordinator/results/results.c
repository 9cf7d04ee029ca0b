/*
 * results/results.c - figures of a step as JSON (run.json) and as the final table on
 * the terminal: IOPS, MB/s and latency percentiles per op and for all ops,
 * over the measured window, for the total, each agent, node and volume,
 * plus the per-second series and the cross-checks.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "agg/rows.h"
#include "agg/secfile.h"
#include "agg/volnode.h"
#include "figures/steady.h"
#include "results/checks.h"
#include "results/fidelity.h"
#include "results/fullsize.h"
#include "results/hostsamples.h"
#include "results/long/minutes.h"
#include "results/nvme.h"
#include "results/results.h"
#include "results/runjson.h"
#include "results/vdbench.h"
#include "results/verdict.h"
#include "util/json.h"
#include "util/log.h"

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

/* a figure, or null where nothing was measured (renderers show "-", never 0.000) */
static cJSON *s_fig(double v, bool measured)
{
	return measured ? cJSON_CreateNumber(s_r3(v)) : cJSON_CreateNull();
}

/* s's figures; its percentiles are those of the sum of hs[0..nh), empty below bucket from */
static cJSON *s_op_json(const struct bc_opstat *s, const struct bc_hist *const *hs, int nh,
			unsigned from, uint32_t seconds)
{
	cJSON *o = cJSON_CreateObject(), *lat;
	uint64_t v[sizeof(s_pcts) / sizeof(s_pcts[0])];
	bool any = s->ios > 0;
	uint64_t count = 0;
	size_t i;
	int j;

	for (j = 0; j < nh; j++)
		count += hs[j]->count;
	bc_json_add_u64(o, "ios", s->ios);
	bc_json_add_u64(o, "bytes", s->bytes);
	/* rates over the seconds that carried records: none, no rate (not 0) */
	cJSON_AddItemToObject(o, "iops", s_fig(seconds ? (double)s->ios / seconds : 0, seconds));
	cJSON_AddItemToObject(o, "mbps",
			      s_fig(seconds ? (double)s->bytes / seconds / 1e6 : 0, seconds));
	bc_json_add_u64(o, "errors", s->errors);
	bc_json_add_u64(o, "short", s->short_ios);
	if (s->first_errno)
		cJSON_AddStringToObject(o, "first_error", strerror(-s->first_errno));
	lat = cJSON_AddObjectToObject(o, "lat_us");
	cJSON_AddItemToObject(lat, "mean",
			      s_fig(any ? s_us(s->lat_sum_ns) / (double)s->ios : 0, any));
	cJSON_AddItemToObject(lat, "min", s_fig(s_us(s->lat_min_ns), any));
	bc_hist_percentiles_sum(hs, nh, from, s_pcts, (int)(sizeof(s_pcts) / sizeof(s_pcts[0])), v);
	for (i = 0; i < sizeof(s_pcts) / sizeof(s_pcts[0]); i++)
		cJSON_AddItemToObject(lat, s_pct_names[i], s_fig(s_us(v[i]), any && count));
	/* the exact maximum, not the bucket midpoint */
	cJSON_AddItemToObject(lat, "max", s_fig(s_us(s->lat_max_ns), any));
	return o;
}

cJSON *bc_result_window_json(const struct bc_volstat *w, uint32_t seconds)
{
	const struct bc_hist *hs[BC_OP_NR];
	unsigned lo[BC_OP_NR], hi, from = BC_HIST_BUCKETS;
	struct bc_opstat all;
	cJSON *o;
	int op;

	/* the counters summed; the histograms walked together (bc_hist_percentiles_sum) */
	bc_opstat_reset_counters(&all);
	for (op = 0; op < BC_OP_NR; op++) {
		bc_opstat_merge_counters(&all, &w->op[op]);
		hs[op] = &w->op[op].hist;
		bc_opstat_hist_span(&w->op[op], &lo[op], &hi);
		if (w->op[op].hist.count && lo[op] < from)
			from = lo[op];
	}
	o = s_op_json(&all, hs, BC_OP_NR, from, seconds);
	cJSON_AddNumberToObject(o, "seconds", seconds);
	cJSON_AddItemToObject(
	    o, "read_pct",
	    s_fig(all.ios ? 100.0 * (double)w->op[BC_OP_READ].ios / (double)all.ios : 0, all.ios));
	for (op = 0; op < BC_OP_NR; op++)
		if (w->op[op].ios || w->op[op].errors || w->op[op].short_ios)
			cJSON_AddItemToObject(o, bc_op_names[op],
					      s_op_json(&w->op[op], &hs[op], 1, lo[op], seconds));
	return o;
}

static cJSON *s_all_json(const struct bc_volcnt *a)
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
			bc_json_add_u64(o,
					op == BC_OP_READ    ? "read_bytes"
					: op == BC_OP_WRITE ? "write_bytes"
							    : "trim_bytes",
					a->op[op].bytes);
	}
	bc_json_add_u64(o, "ios", ios);
	bc_json_add_u64(o, "bytes", bytes);
	bc_json_add_u64(o, "errors", err);
	bc_json_add_u64(o, "short", sh);
	return o;
}

/*
 * The window's merged histogram per op as sparse [bucket index, count] pairs
 * (wire/hist.h layout) into o[op].hist: report writers rebuild exact
 * distributions from it (fio.json "bins", the latency charts). Total,
 * agents and storage nodes (few, and where ceilings are found); not
 * volumes, to keep run.json small.
 */
static void s_add_hists(cJSON *o, const struct bc_volstat *w)
{
	int op;
	unsigned i, lo, hi;

	for (op = 0; op < BC_OP_NR; op++) {
		cJSON *ojs = cJSON_GetObjectItemCaseSensitive(o, bc_op_names[op]), *arr;

		if (!ojs || !w->op[op].hist.count)
			continue;
		arr = cJSON_AddArrayToObject(ojs, "hist");
		bc_opstat_hist_span(&w->op[op], &lo, &hi);
		for (i = lo; arr && i <= hi; i++) {
			cJSON *pair;

			if (!w->op[op].hist.buckets[i])
				continue;
			pair = cJSON_CreateArray();
			cJSON_AddItemToArray(pair, cJSON_CreateNumber(i));
			cJSON_AddItemToArray(pair, bc_json_u64(w->op[op].hist.buckets[i]));
			cJSON_AddItemToArray(arr, pair);
		}
	}
}

static cJSON *s_entity_json(const struct bc_agg *g, const struct bc_entity *e, int lvl)
{
	cJSON *o = bc_result_window_json(&e->window, bc_result_window_secs(g, e));

	if (lvl == BC_LVL_TOTAL || lvl == BC_LVL_AGENT || lvl == BC_LVL_NODE)
		s_add_hists(o, &e->window);
	cJSON_AddStringToObject(o, "name", e->name);
	cJSON_AddItemToObject(o, "all_intervals", s_all_json(&e->all));
	/*
	 * a volume's, agent's or node's series is read back from seconds.bin
	 * when run.json is written (bc_runjson_write) and by the reports
	 * (bc_report_series): 16,000 volumes are most of a step's JSON, 1,000
	 * agents x 600 s 7.8 million cJSON nodes. The total's stays (one, and
	 * its agents_reported is not in the file).
	 */
	if ((lvl != BC_LVL_TOTAL || bc_long_step(g->seconds)) && g->secw_on)
		return o; /* a long step's total: its "minutes" (s_minutes_json) */
	cJSON_AddItemToObject(
	    o, "series",
	    bc_secrow_series_json(e->rows, e->rows_stride, g->seconds,
				  lvl == BC_LVL_TOTAL ? g->agents_reported : NULL));
	return o;
}

/* the steady-state sentence, the same wherever it is printed */
static void s_steady_text(const cJSON *o, int rc, const struct bc_steady *st, uint32_t n, char *buf,
			  size_t len)
{
	if (rc)
		snprintf(buf, len,
			 "not judged: %s (%s, IOPS): nothing to say whether the figures describe a "
			 "state the system was in",
			 n < 3 ? "the window is shorter than 3 s" : "no I/O",
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "window")));
	else
		snprintf(buf, len,
			 "%s (%s, IOPS): mean %.0f, trend %+.2f%%/s (limit %.1f), spread %.1f%% "
			 "(limit %.1f), stddev %.1f%%%s",
			 st->steady ? "steady" : "NOT steady",
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "window")),
			 st->mean, st->slope_pct, BC_STEADY_SLOPE_PCT, st->spread_pct,
			 BC_STEADY_SPREAD_PCT, st->stddev_pct,
			 st->steady ? "" : ": the average describes no state the system was in");
}

/*
 * A long step (results/fullsize.h) read per minute from seconds.bin: the
 * total's and each node's "minutes" with their exact percentiles, and the
 * step's "drift" (results/long/minutes.h); the agents' and volumes' minutes are
 * added as run.json is written (results/runjson.c), like their series.
 */
static void s_minutes_json(cJSON *o, const struct bc_agg *g)
{
	struct bc_secr sr = {.fd = -1};
	struct bc_minutes m;
	char err[BC_PATH_MAX + 128];
	cJSON *e;
	int i = 0;

	if (!bc_long_step(g->seconds) || !g->secw_on || !g->secw_path[0])
		return;
	if (bc_secr_open(&sr, g->secw_path, false, err, sizeof(err))) {
		bc_warn("step %s: no per-minute figures: %s",
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "name")), err);
		return;
	}
	if (!bc_minutes_load(&m, &sr, g->secw_step, g->seconds, g->ramp_s, g->nent[BC_LVL_NODE],
			     g->agents_reported)) {
		cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(o, "total"), "minutes",
				      bc_minutes_total_json(&m));
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(o, "nodes"))
		{
			cJSON *mj = bc_minutes_entity_json(&sr, g->secw_step, BC_LVL_NODE, i++,
							   g->seconds, &m);

			if (mj)
				cJSON_AddItemToObject(e, "minutes", mj);
		}
		cJSON_AddItemToObject(o, "drift", bc_minutes_drift_json(&m));
		bc_minutes_free(&m);
	}
	bc_secr_close(&sr);
}

/*
 * vdbench-style avg over the window plus the trend/spread verdict on total
 * IOPS, over the seconds that carried records (a silent second is no zero)
 */
static cJSON *s_steady_json(const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_entity *e = &g->ent[BC_LVL_TOTAL][0];
	uint32_t n = 0, k;
	double *x = calloc(g->seconds ? g->seconds : 1, sizeof(double));
	struct bc_steady st;
	cJSON *o = cJSON_CreateObject();
	char label[32], text[400];
	int op, rc;

	for (k = g->ramp_s; x && k < g->seconds; k++) {
		bc_agg_rows_read(g, k);
		if (!bc_entity_row(e, k)->reports)
			continue;
		for (op = 0; op < BC_OP_NR; op++)
			x[n] += (double)bc_entity_row(e, k)->ios[op];
		n++;
	}
	/* a pass ends inside its last second: that second is no sample of the rate */
	if (n && bc_result_size_based(r))
		n--;
	rc = bc_steady_check(x, x ? n : 0, BC_STEADY_SLOPE_PCT, BC_STEADY_SPREAD_PCT, &st);
	free(x);
	snprintf(label, sizeof(label), "avg_%u-%u", g->ramp_s, g->seconds - 1);
	cJSON_AddStringToObject(o, "window", label);
	cJSON_AddStringToObject(o, "metric", "iops");
	cJSON_AddNumberToObject(o, "seconds", n);
	cJSON_AddItemToObject(o, "mean", s_fig(st.mean, !rc));
	cJSON_AddItemToObject(o, "slope_pct_per_s", s_fig(st.slope_pct, !rc));
	cJSON_AddItemToObject(o, "spread_pct", s_fig(st.spread_pct, !rc));
	cJSON_AddItemToObject(o, "stddev_pct", s_fig(st.stddev_pct, !rc));
	cJSON_AddNumberToObject(o, "slope_limit_pct", BC_STEADY_SLOPE_PCT);
	cJSON_AddNumberToObject(o, "spread_limit_pct", BC_STEADY_SPREAD_PCT);
	if (rc) {
		/* fewer than 3 seconds, or no I/O: there is nothing to judge */
		cJSON_AddNullToObject(o, "steady");
		cJSON_AddStringToObject(o, "reason", n < 3 ? "window shorter than 3 s" : "no I/O");
	} else {
		cJSON_AddBoolToObject(o, "steady", st.steady);
	}
	/* the one answer every output prints (terminal, summary.md, report.html) */
	cJSON_AddStringToObject(o, "state",
				rc	    ? "not judged"
				: st.steady ? "steady"
					    : "not steady");
	s_steady_text(o, rc, &st, n, text, sizeof(text));
	cJSON_AddStringToObject(o, "text", text);
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
	/* the offsets at the step's end and the drift over it (run/drift.h) */
	cJSON_ArrayForEach(a, agents)
	{
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(r->clock_end, a->string), *v;

		cJSON_ArrayForEach(v, e)
		{
			char key[64];

			snprintf(key, sizeof(key), "%s%s",
				 strncmp(v->string, "drift", 5) ? "end_" : "", v->string);
			cJSON_AddItemToObject(a, key, cJSON_Duplicate(v, 1));
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
	/* the series are bc_hs_keys: t0_s/t1_s are when the agent read the sample's two ends,
	 * seconds after the step's start (host/hoststat.h): second k's host figures cover
	 * [k, k+1) like its I/O */
	uint32_t unit = bc_long_step(r->agg.seconds) ? BC_MINUTE_S : 1;
	cJSON *e;
	int i;

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
		int a = bc_hostsamples_agent(r->hosts, name);
		cJSON *h, *series, *mean;

		if (!bc_hostsamples_has(r->hosts, a))
			continue;
		mean = bc_verdict_client_mean(r, name);
		h = cJSON_AddObjectToObject(e, "host");
		cJSON_AddItemToObject(h, "window", mean ? mean : cJSON_CreateNull());
		/* a long step's: each minute's mean (results/hostsamples.h) */
		series = cJSON_AddObjectToObject(h, unit > 1 ? "minutes" : "series");
		if (unit > 1)
			cJSON_AddNumberToObject(series, "interval_s", unit);
		for (i = 0; i < BC_HS_NR; i++) {
			cJSON *col = cJSON_AddArrayToObject(series, bc_hs_keys[i]);
			uint32_t k;

			/* one value per second of the step, null where no sample came */
			for (k = 0; k < r->agg.seconds; k += unit) {
				double v =
				    bc_hostsamples_value(r->hosts, a, k, (enum bc_hs_series)i);

				cJSON_AddItemToArray(col, !isnan(v) ? cJSON_CreateNumber(s_r3(v))
								    : cJSON_CreateNull());
			}
		}
	}
}

/* agents expected to report second k: every agent of the step not lost before k */
static int s_expected_agents(const struct bc_step_result *r, uint32_t k)
{
	const cJSON *l;
	int n = 0, a;

	for (a = 0; a < r->agg.nent[BC_LVL_AGENT]; a++)
		n += !bc_result_agent_out(r, a);
	cJSON_ArrayForEach(l, r->lost)
	{
		const cJSON *from = cJSON_GetObjectItemCaseSensitive(l, "from_second");

		if (cJSON_IsNumber(from) && from->valuedouble < (double)k)
			n--;
	}
	return n;
}

/* why the seconds of a step without records have none */
static const char *s_lost_why(const struct bc_step_result *r)
{
	if (!strcmp(r->status, "aborted"))
		return "interrupted (SIGINT/SIGTERM): no records after it";
	if (!strcmp(r->status, "failed"))
		return r->error[0] ? r->error : "the step failed";
	if (!strcmp(r->status, "incomplete"))
		return "events.jsonl holds no records for them: the coordinator stopped";
	return "no agent reported them";
}

/*
 * Seconds of the step no agent reported, as ranges {from, to, why}: they
 * are out of every figure (a silent second is not a zero). Agents lost
 * mid-step are in lost_agents: their later seconds are out of their own
 * figures, the others' still count.
 */
static cJSON *s_lost_seconds_json(const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	cJSON *arr = cJSON_CreateArray();
	uint32_t k = 0, from;

	while (r->start_ns && k < g->seconds) {
		cJSON *o;

		if (g->agents_reported[k]) {
			k++;
			continue;
		}
		for (from = k; k < g->seconds && !g->agents_reported[k]; k++)
			;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "from", from);
		cJSON_AddNumberToObject(o, "to", k - 1);
		cJSON_AddStringToObject(o, "why", s_lost_why(r));
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* why a step is "degraded": the agents it ran without, by name */
static cJSON *s_degraded_json(const struct bc_step_result *r)
{
	const struct bc_profile *p = r->agg.prof;
	char why[1024] = "";
	size_t n = 0;
	const cJSON *l;
	int a;

	cJSON_ArrayForEach(l, r->lost)
	{
		if (n >= sizeof(why))
			break;
		n += (size_t)snprintf(
		    why + n, sizeof(why) - n, "%sagent %s lost from second %.0f (%s)",
		    n ? "; " : "",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "name")),
		    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(l, "from_second")),
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "reason")));
	}
	for (a = 0; a < p->nagents; a++)
		if (bc_result_agent_out(r, a) && n < sizeof(why))
			n += (size_t)snprintf(why + n, sizeof(why) - n,
					      "%sagent %s lost in an earlier step, not in this one",
					      n ? "; " : "", p->agents[a].name);
	return cJSON_CreateString(why);
}

cJSON *bc_result_step_json(const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	cJSON *o = cJSON_CreateObject(), *arr, *miss;
	static const char *const lvl_names[BC_LVL_NR] = {"volumes", "agents", "nodes", NULL};
	uint32_t k;
	int lvl, i, *slot;

	cJSON_AddStringToObject(o, "name", r->step->name);
	cJSON_AddStringToObject(o, "status", r->status);
	if (r->error[0])
		cJSON_AddStringToObject(o, "error", r->error);
	cJSON_AddItemToObject(o, "workload", bc_workload_to_json(&r->step->wl));
	bc_json_add_u64(o, "start_ns", r->start_ns);
	/* its seconds in seconds.bin (agg/secfile.h), by this ordinal */
	if (g->secw_on)
		cJSON_AddNumberToObject(o, "seconds_bin_step", g->secw_step);
	cJSON_AddNumberToObject(o, "seconds", g->seconds);
	/* a step that runs until stopped, ended by the user: its seconds are his */
	if (r->stopped_s)
		cJSON_AddNumberToObject(o, "stopped_by_user_at_second", r->stopped_s);
	/* a step with stop_bytes whose volumes moved that much: it ended there */
	if (r->bytes_stopped_s)
		cJSON_AddNumberToObject(o, "stopped_at_bytes_second", r->bytes_stopped_s);
	/* a step with stop_steady: whether it was steady, when, and the window judged */
	if (r->step->wl.steady.metric)
		cJSON_AddItemToObject(o, "stop_steady",
				      bc_steady_json(&r->steady, &r->step->wl, g->seconds));
	cJSON_AddNumberToObject(o, "measured_from_second", g->ramp_s);
	/* the window's figures are over the seconds that carried records */
	cJSON_AddNumberToObject(o, "planned_seconds", g->seconds - g->ramp_s);
	cJSON_AddNumberToObject(o, "measured_seconds",
				bc_result_window_secs(g, &g->ent[BC_LVL_TOTAL][0]));
	cJSON_AddItemToObject(o, "lost_seconds", s_lost_seconds_json(r));
	miss = cJSON_AddArrayToObject(o, "incomplete_seconds");
	for (k = 0; k < g->closed; k++)
		if (g->agents_reported[k] &&
		    g->agents_reported[k] < (uint32_t)s_expected_agents(r, k))
			cJSON_AddItemToArray(miss, cJSON_CreateNumber(k));
	cJSON_AddItemToObject(o, "total", s_entity_json(g, &g->ent[BC_LVL_TOTAL][0], BC_LVL_TOTAL));
	/* each volume's place among its agent's: counted here, not per volume (16,000 squared) */
	slot = calloc((size_t)g->prof->nagents + 1, sizeof(*slot));
	for (lvl = 0; lvl < BC_LVL_TOTAL; lvl++) {
		arr = cJSON_AddArrayToObject(o, lvl_names[lvl]);
		for (i = 0; i < g->nent[lvl]; i++) {
			cJSON *e;

			/* an agent lost in an earlier step is in no figure of this one */
			if ((lvl == BC_LVL_AGENT && bc_result_agent_out(r, i)) ||
			    (lvl == BC_LVL_VOLUME &&
			     bc_result_agent_out(r, g->prof->volumes[i].agent)))
				continue;
			e = s_entity_json(g, &g->ent[lvl][i], lvl);
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
				/* temperature, WAF */
				bc_result_nvme_volume(r, i, slot ? slot[v->agent]++ : -1, e);
			}
			cJSON_AddItemToArray(arr, e);
		}
	}
	free(slot);
	s_minutes_json(o, g);
	cJSON_AddItemToObject(o, "agent_totals", cJSON_Duplicate(r->agent_totals, 1));
	s_host_json(o, r);
	if (r->analysis)
		cJSON_AddItemToObject(o, "analysis", cJSON_Duplicate(r->analysis, 1));
	cJSON_AddItemToObject(o, "lost_agents",
			      r->lost ? cJSON_Duplicate(r->lost, 1) : cJSON_CreateArray());
	cJSON_AddItemToObject(o, "rejoined_agents",
			      r->rejoined ? cJSON_Duplicate(r->rejoined, 1) : cJSON_CreateArray());
	if (r->gaps)
		cJSON_AddItemToObject(o, "coordinator_gaps", cJSON_Duplicate(r->gaps, 1));
	arr = cJSON_AddArrayToObject(o, "agents_out");
	for (i = 0; i < g->prof->nagents; i++)
		if (bc_result_agent_out(r, i))
			cJSON_AddItemToArray(arr, cJSON_CreateString(g->prof->agents[i].name));
	if (!strcmp(r->status, "degraded"))
		cJSON_AddItemToObject(o, "degraded", s_degraded_json(r));
	cJSON_AddItemToObject(o, "checks", bc_checks_json(r));
	/* suspect_reason, contended, device_check, backing, layout, warnings (a cache: const) */
	bc_fidelity_json(bc_result_fidelity((struct bc_step_result *)r), o);
	cJSON_AddItemToObject(o, "steady_state", s_steady_json(r));
	cJSON_AddItemToObject(o, "vdbench", bc_vdb_step_json(r));
	cJSON_AddItemToObject(o, "clock", s_clock_json(r));
	return o;
}
