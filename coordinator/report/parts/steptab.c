/*
 * report/parts/steptab.c - the steps' figures as tables for every document
 * (report/parts/steptab.h): built here once, rendered by table.c as Markdown
 * or HTML, so summary.md and report.html show the same columns, units and
 * rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/fmt.h"
#include "report/parts/rank.h"
#include "report/parts/rundata.h"
#include "report/parts/steptab.h"
#include "report/parts/sweep.h"
#include "util/rjson.h"

/* client hosts and storage nodes of a level listed in the read/write table */
#define S_RW_EACH 8

bool bc_tab_mixed(const cJSON *ent)
{
	return bc_rj_num(ent, "read", "ios") > 0 && bc_rj_num(ent, "write", "ios") > 0;
}

/* fio's rw names in words */
static const char *s_rw_words(const char *rw)
{
	static const struct {
		const char *rw, *words;
	} w[] = {
	    {"read", "sequential read"},
	    {"write", "sequential write"},
	    {"randread", "random read"},
	    {"randwrite", "random write"},
	    {"rw", "sequential read/write"},
	    {"readwrite", "sequential read/write"},
	    {"randrw", "random read/write"},
	    {"trim", "sequential trim"},
	    {"randtrim", "random trim"},
	    {"trimwrite", "trim and write"},
	    {"randtrimwrite", "random trim and write"},
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(w[i].rw, rw))
			return w[i].words;
	return rw;
}

const char *bc_tab_workload(const cJSON *wl, char *buf, size_t len)
{
	const char *rw = bc_rj_str("?", wl, "rw");
	char bs[32], mix[32] = "";
	double jobs = bc_rj_num(wl, "numjobs");
	size_t used;

	const char *meta = bc_rj_str("none", wl, "meta");

	if (strstr(rw, "rw") || !strcmp(rw, "readwrite"))
		snprintf(mix, sizeof(mix), " %g/%g", bc_rj_num(wl, "rwmixread"),
			 100 - bc_rj_num(wl, "rwmixread"));
	/* a file set's metadata operations: no size, one at a time per job */
	if (strcmp(meta, "none"))
		used = (size_t)snprintf(buf, len, "metadata: %s, %.0f job%s", meta, jobs,
					jobs == 1 ? "" : "s");
	else
		used = (size_t)snprintf(buf, len, "%s %s%s, iodepth %.0f, %.0f job%s",
					bc_fmt_bytes(bc_rj_num(wl, "bs"), bs, sizeof(bs)),
					s_rw_words(rw), mix, bc_rj_num(wl, "iodepth"), jobs,
					jobs == 1 ? "" : "s");
	if (cJSON_IsFalse(bc_rj(wl, "direct")) && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", buffered");
	if (bc_rj_num(wl, "rate_iops") > 0 && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", capped at %.0f IOPS",
					 bc_rj_num(wl, "rate_iops"));
	if (used < len)
		snprintf(buf + used, len - used, ", ramp %.0f s, %.0f s measured",
			 bc_rj_num(wl, "ramp"), bc_rj_num(wl, "runtime"));
	return buf;
}

const char *bc_tab_step_id(int i, char *buf, size_t len)
{
	snprintf(buf, len, "step-%d", i);
	return buf;
}

/* a step's status, with the marks that change how its figures read */
static void s_status(struct bc_table *t, const cJSON *st)
{
	bc_table_cell(t, BC_CELL_STATUS, "%s%s", bc_rj_str("?", st, "status"),
		      cJSON_IsTrue(bc_rj(st, "contended")) ? "\ncontended" : "");
}

/* the window figures of an entity: IOPS, MB/s, read %, latency, errors */
static void s_figs(struct bc_table *t, const cJSON *e, bool wide)
{
	static const char *const lat_wide[] = {"mean", "p50", "p90", "p99", "p99.9", "max"};
	static const char *const lat_brief[] = {"mean", "p50", "p99", "p99.9", "max"};
	const char *const *lat = wide ? lat_wide : lat_brief;
	size_t i, n = wide ? 6 : 5;

	bc_table_int(t, bc_rj(e, "iops"), round(bc_rj_num(e, "iops")));
	bc_table_num(t, bc_rj(e, "mbps"), bc_rj_num(e, "mbps"), 1);
	bc_table_num(t, bc_rj(e, "read_pct"), bc_rj_num(e, "read_pct"), 1);
	for (i = 0; i < n; i++)
		bc_table_lat(t, bc_rj(e, "lat_us", lat[i]));
	bc_table_int(t, e, bc_rj_num(e, "errors") + bc_rj_num(e, "short"));
}

struct bc_table *bc_tab_results(const struct bc_report *r)
{
	static const char *const cols[] = {"step",    "status",	 "~workload", "=IOPS", "=MB/s",
					   "=read %", "=mean",	 "=p50",      "=p99",  "=p99.9",
					   "=max",    "=errors", NULL};
	const cJSON *st;
	struct bc_table *t;
	char wl[256], id[32];
	int i = 0;

	if (!cJSON_GetArraySize(bc_rj(r->run, "steps")) || !(t = bc_table_new("Results", cols)))
		return NULL;
	snprintf(t->id, sizeof(t->id), "results");
	snprintf(
	    t->intro, sizeof(t->intro),
	    "The measured window of each step (ramp excluded). Latency is submission to "
	    "completion of each I/O; percentiles come from merged histograms, never averaged.");
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		char href[40];

		bc_table_text(t, bc_rj_str("?", st, "name"));
		snprintf(href, sizeof(href), "#%s", bc_tab_step_id(i++, id, sizeof(id)));
		bc_table_link(t, href);
		s_status(t, st);
		bc_table_text(t, bc_tab_workload(bc_rj(st, "workload"), wl, sizeof(wl)));
		s_figs(t, bc_rj(st, "total"), false);
	}
	return t;
}

struct bc_table *bc_tab_step(const struct bc_report *r, const cJSON *st, unsigned mask, bool whole)
{
	static const char *const cols[] = {"",	   "=IOPS", "=MB/s",  "=read %", "=mean",   "=p50",
					   "=p90", "=p99",  "=p99.9", "=max",	 "=errors", NULL};
	struct bc_table *t = bc_table_new("", cols);
	const cJSON *e;
	int lvl, c;

	if (!t)
		return NULL;
	if ((mask & 1) && bc_rj(st, "total")) {
		bc_table_cell(t, BC_CELL_STRONG, "total");
		s_figs(t, bc_rj(st, "total"), true);
	}
	for (lvl = 1; lvl < 4; lvl++) {
		const cJSON *ents = bc_rj(st, bc_report_levels[lvl].key);
		int n = cJSON_GetArraySize(ents);

		if (!(mask & (1u << lvl)) || !n)
			continue;
		if (!whole && !bc_report_whole(r, lvl, n)) {
			char num[32];

			bc_table_span(t, BC_CELL_MUTED, "%s %ss: summarised below",
				      bc_fmt_int(n, num, sizeof(num)), bc_report_levels[lvl].label);
			continue;
		}
		c = 0;
		cJSON_ArrayForEach(e, ents)
		{
			char name[BC_NAME_MAX * 2 + 16];

			snprintf(name, sizeof(name), "%s%s%s",
				 lvl < 3 ? bc_report_levels[lvl].label : "", lvl < 3 ? " " : "",
				 bc_rj_str("?", e, "name"));
			if (lvl < 3)
				bc_table_swatch(t, c++, name);
			else
				bc_table_text(t, name);
			s_figs(t, e, true);
		}
	}
	return t;
}

struct bc_table *bc_tab_by_level(const struct bc_report *r, int lvl)
{
	static const char *const cols[] = {"",	   "step", "=IOPS",   "=MB/s", "=mean",
					   "=p99", "=max", "=errors", NULL};
	const char *key = bc_report_levels[lvl].key;
	const cJSON *steps = bc_rj(r->run, "steps"), *st, *first = NULL, *e0, *e;
	struct bc_table *t = NULL;

	cJSON_ArrayForEach(st, steps)
	{
		int n = cJSON_GetArraySize(bc_rj(st, key));

		/* a level too large to list here is in volumes.csv */
		if (n && !bc_report_whole(r, lvl, n))
			return NULL;
		if (n && !first)
			first = st;
	}
	/* one step says nothing across steps: its own table has the rows */
	if (!first || cJSON_GetArraySize(steps) < 2)
		return NULL;
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
				if (!t) {
					t = bc_table_new(
					    lvl == 2 ? "By storage node" : "By client host", cols);
					if (!t)
						return NULL;
					t->cols[0] = bc_report_levels[lvl].label;
				}
				bc_table_text(t, name);
				bc_table_text(t, bc_rj_str("", st, "name"));
				bc_table_int(t, bc_rj(e, "iops"), round(bc_rj_num(e, "iops")));
				bc_table_num(t, bc_rj(e, "mbps"), bc_rj_num(e, "mbps"), 1);
				bc_table_lat(t, bc_rj(e, "lat_us", "mean"));
				bc_table_lat(t, bc_rj(e, "lat_us", "p99"));
				bc_table_lat(t, bc_rj(e, "lat_us", "max"));
				bc_table_int(t, e, bc_rj_num(e, "errors") + bc_rj_num(e, "short"));
			}
		}
	}
	return t;
}

struct bc_table *bc_tab_rank_dist(const struct bc_rank *k, const char *who)
{
	static const char *const cols[] = {"",	   "=entities", "=mean",   "=min", "=p1",
					   "=p10", "=p25",	"=median", "=p75", "=p90",
					   "=p99", "=max",	NULL};
	const struct bc_rank_fig *d[2] = {&k->iops, &k->p99_ms};
	static const char *const fig[2] = {"IOPS", "p99"};
	struct bc_table *t = bc_table_new("", cols);
	int j, q;

	if (!t)
		return NULL;
	t->cols[0] = who;
	for (j = 0; j < 2; j++) {
		char b[32];

		bc_table_text(t, fig[j]);
		bc_table_text(t, bc_fmt_int(d[j]->n, b, sizeof(b)));
		if (!d[j]->n) {
			for (q = 0; q <= BC_RANK_NQ; q++)
				bc_table_text(t, "-");
			continue;
		}
		/* p99 in the rank is in ms */
		bc_table_text(t, j ? bc_fmt_lat_us(d[j]->mean * 1e3, b, sizeof(b))
				   : bc_fmt_int(round(d[j]->mean), b, sizeof(b)));
		for (q = 0; q < BC_RANK_NQ; q++)
			bc_table_text(t, j ? bc_fmt_lat_us(d[j]->q[q] * 1e3, b, sizeof(b))
					   : bc_fmt_int(round(d[j]->q[q]), b, sizeof(b)));
	}
	return t;
}

/* an entity's row: its level and name, its figures */
static void s_named_row(struct bc_table *t, const cJSON *e, int lvl)
{
	char name[BC_NAME_MAX * 2 + 16];

	snprintf(name, sizeof(name), "%s%s%s", lvl < 3 ? bc_report_levels[lvl].label : "",
		 lvl < 3 ? " " : "", bc_rj_str("?", e, "name"));
	bc_table_text(t, name);
	s_figs(t, e, true);
}

struct bc_table *bc_tab_rank_top(const cJSON **order, int n, int lvl, bool p99, const char *title)
{
	static const char *const cols[] = {"",	   "=IOPS", "=MB/s",  "=read %", "=mean",   "=p50",
					   "=p90", "=p99",  "=p99.9", "=max",	 "=errors", NULL};
	struct bc_table *t = bc_table_new(title, cols);
	int j, m = 0;

	if (!t)
		return NULL;
	/* entities without the figure sort last: the bottom list starts above them */
	while (m < n && !cJSON_IsNumber(p99 ? bc_rj(order[n - 1 - m], "lat_us", "p99")
					    : bc_rj(order[n - 1 - m], "iops")))
		m++;
	for (j = 0; j < n && j < BC_RANK_TOP; j++)
		s_named_row(t, order[j], lvl);
	if (n - m > 2 * BC_RANK_TOP) {
		char num[32];

		bc_table_span(t, BC_CELL_MUTED, "\xe2\x80\xa6 %s more \xe2\x80\xa6",
			      bc_fmt_int(n - m - 2 * BC_RANK_TOP, num, sizeof(num)));
	}
	for (j = n - m - BC_RANK_TOP; j < n - m; j++)
		if (j >= BC_RANK_TOP)
			s_named_row(t, order[j], lvl);
	return t;
}

struct bc_table *bc_tab_sweep(const struct bc_sweep *sw)
{
	static const char *const cols[] = {"",	   "=in flight", "=IOPS", "throughput", "=p50",
					   "=p99", "=mean",	 "class", NULL};
	struct bc_table *t = bc_table_new("", cols);
	int i;

	if (!t)
		return NULL;
	t->cols[0] = sw->param;
	for (i = 0; i < sw->n; i++) {
		const struct bc_sweep_pt *p = &sw->pt[i];
		char b[32], cls[64];
		bool knee = i == sw->knee;

		bc_table_cell(t, knee ? BC_CELL_STRONG : BC_CELL_TEXT, "%s", p->label);
		bc_table_text(t, isfinite(p->n) ? bc_fmt_int(p->n, b, sizeof(b)) : "-");
		bc_table_text(t, bc_fmt_int(round(p->iops), b, sizeof(b)));
		bc_table_text(t, isfinite(p->mbps) ? bc_fmt_mbps(p->mbps, b, sizeof(b)) : "-");
		bc_table_text(t, bc_fmt_lat_us(p->p50_us, b, sizeof(b)));
		bc_table_text(t, bc_fmt_lat_us(p->p99_us, b, sizeof(b)));
		bc_table_text(t, bc_fmt_lat_us(p->mean_us, b, sizeof(b)));
		snprintf(cls, sizeof(cls), "%s%s%s", knee ? "knee" : "", knee && p->cls ? ", " : "",
			 p->cls	 ? p->cls
			 : knee	 ? ""
			 : p->ok ? "-"
				 : bc_rj_str("?", p->step, "status"));
		bc_table_cell(t, knee ? BC_CELL_STRONG : BC_CELL_TEXT, "%s", cls);
	}
	return t;
}

/* one row of the read/write table: an entity's op over the measured window */
static void s_rw_row(struct bc_table *t, const char *step, const char *who, const cJSON *e,
		     const char *op)
{
	static const char *const lat[] = {"mean", "p50", "p99", "p99.9", "max"};
	const cJSON *o = bc_rj(e, op);
	size_t i;

	bc_table_text(t, step);
	bc_table_text(t, who);
	bc_table_text(t, op);
	bc_table_int(t, bc_rj(o, "iops"), round(bc_rj_num(o, "iops")));
	bc_table_num(t, bc_rj(o, "mbps"), bc_rj_num(o, "mbps"), 1);
	for (i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
		bc_table_lat(t, bc_rj(o, "lat_us", lat[i]));
}

/* an entity whose ops are shown apart: reads beside writes, or metadata operations */
static bool s_apart(const cJSON *e)
{
	return bc_tab_mixed(e) || bc_rj_num(e, "meta", "ios") > 0;
}

/* e's rows, one per op class with ops */
static void s_rw_rows(struct bc_table *t, const char *name, const char *who, const cJSON *e)
{
	static const char *const ops[] = {"read", "write", "trim", "meta"};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (bc_rj_num(e, ops[i], "ios") > 0)
			s_rw_row(t, name, who, e, ops[i]);
}

struct bc_table *bc_tab_rw(const struct bc_report *r)
{
	static const char *const cols[] = {"step", "entity", "op",     "=IOPS", "=MB/s", "=mean",
					   "=p50", "=p99",   "=p99.9", "=max",	NULL};
	struct bc_table *t = NULL;
	const cJSON *st, *e;
	int lvl, n, skipped = 0;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		const char *name = bc_rj_str("?", st, "name");

		if (!s_apart(bc_rj(st, "total")) ||
		    (!t && !(t = bc_table_new("Ops apart (steps that mix reads and writes, and "
					      "metadata operations)",
					      cols))))
			continue;
		s_rw_rows(t, name, "total", bc_rj(st, "total"));
		for (lvl = 1; lvl < 3; lvl++) {
			n = 0;
			cJSON_ArrayForEach(e, bc_rj(st, bc_report_levels[lvl].key))
			{
				char who[BC_NAME_MAX + 16];

				if (!s_apart(e))
					continue;
				if (n++ >= S_RW_EACH) {
					skipped++;
					continue;
				}
				snprintf(who, sizeof(who), "%s %s", bc_report_levels[lvl].label,
					 bc_rj_str("?", e, "name"));
				s_rw_rows(t, name, who, e);
			}
		}
	}
	if (t && skipped)
		snprintf(t->note, sizeof(t->note),
			 "%d more client hosts / storage nodes not listed (at most %d a level; "
			 "run.json has them all).",
			 skipped, S_RW_EACH);
	return t;
}
