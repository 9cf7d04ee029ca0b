/*
 * report/md.c - summary.md: the tables a PoV report needs, from run.json
 * alone - acceptance criteria, results per step / node / client host,
 * environment (agents, devices, versions, clocks), then each step in
 * detail. Sections whose data run.json does not hold (verdicts, sweeps,
 * node counters, WAF) are left out rather than shown empty.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/chart.h"
#include "report/parts/fdp.h"
#include "report/parts/fmt.h"
#include "report/parts/nvme.h"
#include "report/parts/rank.h"
#include "report/parts/repeat.h"
#include "report/parts/rundata.h"
#include "report/parts/table.h"
#include "report/parts/vdbench.h"
#include "report/writers.h"
#include "util/rjson.h"

static double s_err(const cJSON *e)
{
	return bc_rj_num(e, "errors") + bc_rj_num(e, "short");
}

/* a measured figure, "-" where nothing was measured (null in run.json) */
#define S_FIG(buf, div, dec, ...) bc_fmt_fig(bc_rj(__VA_ARGS__), div, dec, buf, sizeof(buf))

/* the figures columns shared by the overview tables */
static void s_brief(FILE *f, const cJSON *e)
{
	char c[5][32];

	fprintf(f, " %s | %s | %s | %s | %s | %.0f |", S_FIG(c[0], 1, 0, e, "iops"),
		S_FIG(c[1], 1, 1, e, "mbps"), S_FIG(c[2], 1e3, 3, e, "lat_us", "mean"),
		S_FIG(c[3], 1e3, 3, e, "lat_us", "p99"), S_FIG(c[4], 1e3, 3, e, "lat_us", "max"),
		s_err(e));
}

static void s_workload(FILE *f, const cJSON *wl)
{
	char bs[32];

	fprintf(f, "%s", bc_rj_str("?", wl, "rw"));
	if (strstr(bc_rj_str("", wl, "rw"), "rw"))
		fprintf(f, " %.0f%% read", bc_rj_num(wl, "rwmixread"));
	fprintf(f, " bs=%s qd=%.0f jobs=%.0f", bc_fmt_bytes(bc_rj_num(wl, "bs"), bs, sizeof(bs)),
		bc_rj_num(wl, "iodepth"), bc_rj_num(wl, "numjobs"));
}

static void s_header(FILE *f, const struct bc_report *r)
{
	const cJSON *run = r->run;

	fprintf(f, "# bench-coord run: ");
	bc_md_puts(f, bc_rj_str("?", run, "profile"));
	fprintf(f, "\n\n| | |\n|---|---|\n| status | **%s** |\n", bc_rj_str("?", run, "status"));
	if (bc_rj(run, "error")) {
		fprintf(f, "| error | ");
		bc_md_puts(f, bc_rj_str("", run, "error"));
		fprintf(f, " |\n");
	}
	fprintf(f, "| started | %s |\n| finished | %s |\n| tool | ", bc_rj_str("-", run, "started"),
		bc_rj_str("-", run, "finished"));
	bc_md_puts(f, bc_rj_str("-", run, "tool"));
	fprintf(f, " |\n| agents / volumes / steps | %d / %d / %d |\n",
		cJSON_GetArraySize(bc_rj(run, "agents")),
		cJSON_GetArraySize(bc_rj(r->profile, "volumes")),
		cJSON_GetArraySize(bc_rj(r->profile, "steps")));
}

static void s_overview(FILE *f, const cJSON *steps)
{
	const cJSON *st;
	int lvl;

	fprintf(f,
		"\n## Results\n\nMeasured window of each step (ramp excluded); latency is "
		"submission to completion.\n\n| step | status | workload | IOPS | MB/s | mean ms | "
		"p99 ms | max ms | errors |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
	cJSON_ArrayForEach(st, steps)
	{
		fprintf(f, "| ");
		bc_md_puts(f, bc_rj_str("", st, "name"));
		fprintf(f, " | %s | ", bc_rj_str("?", st, "status"));
		s_workload(f, bc_rj(st, "workload"));
		fprintf(f, " |");
		s_brief(f, bc_rj(st, "total"));
		fprintf(f, "\n");
	}
	/* nodes, then client hosts: one table each, a row per (entity, step) */
	for (lvl = 2; lvl >= 1; lvl--) {
		const char *key = bc_report_levels[lvl].key;
		const cJSON *first = NULL, *e0, *e;
		bool any = false;

		cJSON_ArrayForEach(st, steps) if (cJSON_GetArraySize(bc_rj(st, key)) && !first)
		    first = st;
		if (!first)
			continue;
		/* entity-major order reads as "how did node X do across steps" */
		cJSON_ArrayForEach(e0, bc_rj(first, key))
		{
			const char *name = bc_rj_str("", e0, "name");

			cJSON_ArrayForEach(st, steps)
			{
				cJSON_ArrayForEach(e, bc_rj(st, key))
				{
					if (strcmp(bc_rj_str("", e, "name"), name))
						continue;
					if (!any)
						fprintf(
						    f,
						    "\n### By %s\n\n| %s | step | IOPS | MB/s | "
						    "mean ms | p99 ms | max ms | errors |\n"
						    "|---|---|---:|---:|---:|---:|---:|---:|\n",
						    lvl == 2 ? "storage node" : "client host",
						    bc_report_levels[lvl].label);
					any = true;
					fprintf(f, "| ");
					bc_md_puts(f, name);
					fprintf(f, " | ");
					bc_md_puts(f, bc_rj_str("", st, "name"));
					fprintf(f, " |");
					s_brief(f, e);
					fprintf(f, "\n");
				}
			}
		}
	}
}

static void s_environment(FILE *f, const struct bc_report *r)
{
	fprintf(f, "\n## Environment\n");
	if (bc_report_summarised(r)) {
		/* 16,000 device rows would bury the page: the full tables are a link away */
		fprintf(f,
			"\n%d client hosts and %d volumes: their tables (host facts, the devices "
			"opened) are in volumes.html.\n",
			cJSON_GetArraySize(bc_rj(r->run, "agents")),
			cJSON_GetArraySize(bc_rj(r->profile, "volumes")));
	} else {
		bc_table_emit(f, bc_table_agents, r, false, 3);
		bc_table_emit(f, bc_table_devices, r, false, 3);
	}
	bc_table_emit(f, bc_table_nvme, r, false, 3);
	bc_table_emit(f, bc_table_nodes, r, false, 3);
}

static void s_row(FILE *f, const char *prefix, const cJSON *e)
{
	fprintf(f, "| %s", prefix);
	bc_md_puts(f, bc_rj_str("", e, "name"));
	char c[9][32];

	fprintf(f, "%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f |\n",
		*prefix == '*' ? "**" : "", S_FIG(c[0], 1, 0, e, "iops"),
		S_FIG(c[1], 1, 1, e, "mbps"), S_FIG(c[2], 1, 1, e, "read_pct"),
		S_FIG(c[3], 1e3, 3, e, "lat_us", "mean"), S_FIG(c[4], 1e3, 3, e, "lat_us", "p50"),
		S_FIG(c[5], 1e3, 3, e, "lat_us", "p90"), S_FIG(c[6], 1e3, 3, e, "lat_us", "p99"),
		S_FIG(c[7], 1e3, 3, e, "lat_us", "p99.9"), S_FIG(c[8], 1e3, 3, e, "lat_us", "max"),
		s_err(e));
}

/*
 * A level too large to list (results/fullsize.h): its BC_RANK_TOP lowest by IOPS
 * and highest by p99 latency - the entities a reader looks for - in the
 * step's table; every entity is in volumes.csv.
 */
static void s_rank_rows(FILE *f, const cJSON *ents, const char *prefix)
{
	struct bc_rank k;
	char pre[64];
	int i;

	if (bc_rank_make(&k, ents))
		return;
	for (i = 0; i < BC_RANK_TOP && i < k.iops.n; i++) {
		snprintf(pre, sizeof(pre), "%slowest IOPS #%d: ", prefix, i + 1);
		s_row(f, pre, k.by_iops[k.iops.n - 1 - i]);
	}
	for (i = 0; i < BC_RANK_TOP && i < k.p99_ms.n; i++) {
		snprintf(pre, sizeof(pre), "%shighest p99 #%d: ", prefix, i + 1);
		s_row(f, pre, k.by_p99[i]);
	}
	bc_rank_free(&k);
}

/* the level's spread below the table: quantiles of its entities' IOPS and p99 */
static void s_rank_note(FILE *f, const cJSON *ents, const char *label)
{
	const struct bc_rank_fig *d[2];
	static const char *const what[2] = {"Window IOPS", "p99 ms"};
	struct bc_rank k;
	int i, q;

	if (bc_rank_make(&k, ents))
		return;
	d[0] = &k.iops;
	d[1] = &k.p99_ms;
	fprintf(f,
		"\n%d %ss, too many to list here (every one is in volumes.csv and volumes.html): "
		"the table shows the %d lowest by IOPS and the %d highest by p99.",
		k.n, label, BC_RANK_TOP, BC_RANK_TOP);
	for (i = 0; i < 2; i++) {
		if (!d[i]->n)
			continue;
		fprintf(f, " %s over %d:", what[i], d[i]->n);
		for (q = 0; q < BC_RANK_NQ; q++) {
			char name[16];

			if (q == 0 || q == BC_RANK_NQ - 1)
				snprintf(name, sizeof(name), "%s", q ? "max" : "min");
			else if (bc_rank_q[q] == 50)
				snprintf(name, sizeof(name), "median");
			else
				snprintf(name, sizeof(name), "p%g", bc_rank_q[q]);
			fprintf(f, "%s %s %.*f", q ? "," : "", name, i ? 3 : 1, d[i]->q[q]);
		}
		fprintf(f, ".");
	}
	fprintf(f, "\n");
	bc_rank_free(&k);
}

static void s_check_line(FILE *f, const cJSON *c)
{
	fprintf(f, "- ");
	bc_md_puts(f, bc_rj_str("?", c, "name"));
	if (bc_rj(c, "scope")) {
		fprintf(f, " (");
		bc_md_puts(f, bc_rj_str("", c, "scope"));
		fprintf(f, ")");
	}
	fprintf(f, ": %s (", !strcmp(bc_check_word(c), "FAIL") ? "**FAIL**" : bc_check_word(c));
	bc_md_puts(f, bc_rj_str("", c, "detail"));
	fprintf(f, ")\n");
}

/* a step's checks, per-entity kinds summarised at fleet size (bc_check_plan, report/parts/fmt.h) */
static void s_checks(FILE *f, const cJSON *checks)
{
	struct bc_check_plan *p = cJSON_GetArraySize(checks) ? malloc(sizeof(*p)) : NULL;
	const struct bc_check_kind *k;
	const cJSON *c;

	if (!p)
		return;
	bc_check_plan_make(p, checks);
	fprintf(f, "\nChecks:\n\n");
	cJSON_ArrayForEach(c, checks)
	{
		enum bc_check_show show = bc_check_plan_next(p, c, &k);

		if (show == BC_CHECK_HEAD) {
			fprintf(f, "- ");
			bc_md_puts(f, k->name);
			fprintf(
			    f,
			    ": %d entities: %d PASS, %s%d FAIL%s, %d SKIP (the first %d failures "
			    "below; every one in run.json's checks)\n",
			    k->n, k->pass, k->fail ? "**" : "", k->fail, k->fail ? "**" : "",
			    k->skip, BC_CHECK_EACH);
		}
		if (show == BC_CHECK_LINE)
			s_check_line(f, c);
		else if (show != BC_CHECK_NONE && cJSON_IsFalse(bc_rj(c, "pass"))) {
			fprintf(f, "  ");
			s_check_line(f, c);
		}
	}
	free(p);
}

/* designed for the sweep writer: columnar arrays over steps[].sweep.values */
static void s_sweep(FILE *f, const cJSON *sw)
{
	const cJSON *vals = bc_rj(sw, "values");
	int i, n = cJSON_GetArraySize(vals);
	double knee = bc_rj_num(sw, "knee", "value");

	if (!sw)
		return;
	fprintf(f,
		"\nSweep over %s:\n\n| %s | IOPS | MB/s | mean ms | p99 ms | |\n"
		"|---:|---:|---:|---:|---:|---|\n",
		bc_rj_str("?", sw, "param"), bc_rj_str("?", sw, "param"));
	for (i = 0; i < n; i++) {
		double v = cJSON_GetNumberValue(cJSON_GetArrayItem(vals, i));

		fprintf(f, "| %g | %.0f | %.1f | %.3f | %.3f | %s |\n", v,
			cJSON_GetNumberValue(cJSON_GetArrayItem(bc_rj(sw, "iops"), i)),
			cJSON_GetNumberValue(cJSON_GetArrayItem(bc_rj(sw, "mbps"), i)),
			cJSON_GetNumberValue(cJSON_GetArrayItem(bc_rj(sw, "lat_mean_us"), i)) / 1e3,
			cJSON_GetNumberValue(cJSON_GetArrayItem(bc_rj(sw, "lat_p99_us"), i)) / 1e3,
			bc_rj(sw, "knee") && v == knee ? "**knee**" : "");
	}
	if (bc_rj(sw, "knee", "reason")) {
		fprintf(f, "\nKnee: ");
		bc_md_puts(f, bc_rj_str("", sw, "knee", "reason"));
		fprintf(f, "\n");
	}
}

static void s_node_counters(FILE *f, const cJSON *st)
{
	const cJSON *n;
	bool any = false;

	cJSON_ArrayForEach(n, bc_rj(st, "nodes"))
	{
		const cJSON *c = bc_rj(n, "counters");
		double link = bc_rj_num(c, "link_mbps"), tx = bc_rj_num(c, "window", "net_tx_mbps");

		if (!c)
			continue;
		if (!any)
			fprintf(f, "\nStorage node counters (measured window):\n\n| node | egress "
				   "MB/s | ingress MB/s | link MB/s | egress of link |\n"
				   "|---|---:|---:|---:|---:|\n");
		any = true;
		fprintf(f, "| ");
		bc_md_puts(f, bc_rj_str("", n, "name"));
		fprintf(f, " | %.1f | %.1f | %.0f | %s%.1f%% |\n", tx,
			bc_rj_num(c, "window", "net_rx_mbps"), link, link > 0 ? "" : "n/a ",
			link > 0 ? 100 * tx / link : 0);
	}
}

static void s_step_detail(FILE *f, const struct bc_report *r, const cJSON *st)
{
	const cJSON *c, *miss = bc_rj(st, "incomplete_seconds"), *ss = bc_rj(st, "steady_state");
	const cJSON *ck = bc_rj(st, "clock"), *a;
	int lvl;

	fprintf(f, "\n## Step ");
	bc_md_puts(f, bc_rj_str("?", st, "name"));
	fprintf(f, " (%s)\n\n", bc_rj_str("?", st, "status"));
	if (bc_rj(st, "error")) {
		fprintf(f, "**Error:** ");
		bc_md_puts(f, bc_rj_str("", st, "error"));
		fprintf(f, "\n\n");
	}
	fprintf(f, "Workload: ");
	s_workload(f, bc_rj(st, "workload"));
	fprintf(f, " direct=%s; ramp %.0f s excluded, %.0f s measured.\n\n",
		cJSON_IsFalse(bc_rj(st, "workload", "direct")) ? "no" : "yes",
		bc_rj_num(st, "measured_from_second"), bc_rj_num(st, "measured_seconds"));
	fprintf(f, "| | IOPS | MB/s | read %% | mean ms | p50 ms | p90 ms | p99 ms | p99.9 ms | "
		   "max ms | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	if (bc_rj(st, "total"))
		s_row(f, "**", bc_rj(st, "total"));
	for (lvl = 1; lvl < 4; lvl++) {
		const cJSON *ents = bc_rj(st, bc_report_levels[lvl].key);
		const char *prefix = lvl == 1 ? "agent " : lvl == 2 ? "node " : "";

		if (!bc_report_whole(r, lvl, cJSON_GetArraySize(ents))) {
			s_rank_rows(f, ents, prefix);
			continue;
		}
		cJSON_ArrayForEach(c, ents) s_row(f, prefix, c);
	}
	for (lvl = 1; lvl < 4; lvl++) {
		const cJSON *ents = bc_rj(st, bc_report_levels[lvl].key);

		if (!bc_report_whole(r, lvl, cJSON_GetArraySize(ents)))
			s_rank_note(f, ents, bc_report_levels[lvl].label);
	}
	if (cJSON_GetArraySize(miss))
		fprintf(f,
			"\nSeconds with missing agent records: %d (see run.json "
			"incomplete_seconds).\n",
			cJSON_GetArraySize(miss));
	cJSON_ArrayForEach(c, bc_rj(st, "lost_seconds"))
	{
		fprintf(f, "\nSeconds %.0f-%.0f carried no records and are out of every figure (",
			bc_rj_num(c, "from"), bc_rj_num(c, "to"));
		bc_md_puts(f, bc_rj_str("?", c, "why"));
		fprintf(f, ").\n");
	}
	if (bc_rj(st, "degraded")) {
		fprintf(f, "\n**Degraded:** ");
		bc_md_puts(f, bc_rj_str("", st, "degraded"));
		fprintf(f, "\n");
	}
	cJSON_ArrayForEach(c, bc_rj(st, "lost_agents"))
	{
		fprintf(f, "\n**Agent ");
		bc_md_puts(f, bc_rj_str("?", c, "name"));
		fprintf(f, " lost from second %.0f (", bc_rj_num(c, "from_second"));
		bc_md_puts(f, bc_rj_str("?", c, "reason"));
		fprintf(f, "); its figures stop there.**\n");
	}
	cJSON_ArrayForEach(c, bc_rj(st, "rejoined_agents"))
	{
		fprintf(f, "\nAgent ");
		bc_md_puts(f, bc_rj_str("?", c, "name"));
		fprintf(f, " joined again before this step (");
		bc_md_puts(f, bc_rj_str("?", c, "reason"));
		fprintf(f, "; now bench-agent ");
		bc_md_puts(f, bc_rj_str("?", c, "version"));
		fprintf(f, ", pid %.0f); nothing of the step before was missing.\n",
			bc_rj_num(c, "pid"));
	}
	s_sweep(f, bc_rj(st, "sweep"));
	s_node_counters(f, st);
	bc_report_md_nvme(f, st); /* WAF, temperature, node mapping (docs/nvme.md) */
	if (bc_rj(st, "waf"))
		fprintf(f,
			"\nWrite amplification (%s): %.3f (host %.0f bytes, media %.0f bytes).\n",
			bc_rj_str("-", st, "waf", "mode"), bc_rj_num(st, "waf", "value"),
			bc_rj_num(st, "waf", "host_write_bytes"),
			bc_rj_num(st, "waf", "media_write_bytes"));
	if (ss)
		fprintf(f,
			"\nSteady state (%s, IOPS): mean %.0f, trend %+.2f%%/s (limit %.1f), "
			"spread %.1f%% (limit %.1f), stddev %.1f%%: %s\n",
			bc_rj_str("?", ss, "window"), bc_rj_num(ss, "mean"),
			bc_rj_num(ss, "slope_pct_per_s"), bc_rj_num(ss, "slope_limit_pct"),
			bc_rj_num(ss, "spread_pct"), bc_rj_num(ss, "spread_limit_pct"),
			bc_rj_num(ss, "stddev_pct"),
			cJSON_IsNull(bc_rj(ss, "steady"))
			    ? "not judged (window shorter than 3 s or no I/O)"
			: cJSON_IsTrue(bc_rj(ss, "steady"))
			    ? "steady"
			    : "**NOT steady**: the average describes no state the system was in");
	if (r->vdbench)
		bc_vdb_md(f, st);
	if (ck) {
		fprintf(f, "\nClocks before START: ");
		cJSON_ArrayForEach(a, bc_rj(ck, "agents"))
		{
			bc_md_puts(f, a->string);
			fprintf(f, " offset %+.1f us +-%.1f us; ", bc_rj_num(a, "offset_ns") / 1e3,
				bc_rj_num(a, "uncertainty_ns") / 1e3);
		}
		if (bc_rj(ck, "start_skew_ns"))
			fprintf(f, "observed start skew %.3f ms (at most %.3f ms).",
				bc_rj_num(ck, "start_skew_ns") / 1e6,
				bc_rj_num(ck, "start_skew_bound_ns") / 1e6);
		fprintf(f, "\n");
	}
	s_checks(f, bc_rj(st, "checks"));
}

int bc_report_md(const struct bc_report *r, FILE *f)
{
	const cJSON *steps = bc_rj(r->run, "steps"), *st;

	s_header(f, r);
	bc_table_emit(f, bc_table_expect, r, false, 2);
	/* FDP experiments early: their verdict is what such a run is for (report/parts/fdp.c) */
	cJSON_ArrayForEach(st, steps) bc_fdp_md(f, bc_rj(st, "experiment"));
	/* the sweep's verdict and its suspects first: what a reader came for */
	bc_table_emit(f, bc_table_suspects, r, false, 2);
	bc_table_emit(f, bc_table_sweep_points, r, false, 2);
	bc_table_emit(f, bc_table_verdicts, r, false, 2);
	if (cJSON_GetArraySize(steps))
		s_overview(f, steps);
	bc_table_emit(f, bc_table_repeats, r, false, 2);
	bc_table_emit(f, bc_table_series_ci, r, false, 2);
	bc_table_emit(f, bc_table_rw, r, false, 2);
	s_environment(f, r);
	cJSON_ArrayForEach(st, steps) s_step_detail(f, r, st);
	fprintf(f, "\nLatency is submission to completion per I/O (fio's `lat`), percentiles "
		   "from merged histograms (never averaged). Written from run.json by `bench-coord "
		   "report`.\n");
	return ferror(f) ? -EIO : 0;
}
