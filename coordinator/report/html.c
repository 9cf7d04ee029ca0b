/*
 * report/html.c - report.html: one self-contained page a PoV engineer hands
 * to the customer (inline CSS, SVG and data; nothing fetched, a CSP meta tag
 * forbids it). It opens with the answer - the summary (what was tested, the
 * headline figures, where the ceiling is and why, how sure, the caveats) -
 * then the acceptance criteria, the system under test (profile, client
 * hosts, storage nodes, devices, versions), the results of every step, and
 * each step in detail: a sweep starts with its story (throughput and
 * latency against the swept value, latency against throughput, the knee,
 * its table and the evidence), a step with its table, charts, notes and
 * checks. Sections whose data run.json does not hold are left out. Every
 * text from the run is escaped. The words, tables and notes come from
 * report/parts/ (summary.md renders the same), the charts from
 * report/draw/. A step with more volumes or client hosts than the page can
 * list and still open quickly (report/parts/rank.h) shows those levels
 * summarised, and volumes.html (bc_report_volumes_html) lists them whole.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/draw/chart.h"
#include "report/draw/live.h"
#include "report/draw/stepcharts.h"
#include "report/draw/story.h"
#include "report/draw/svg.h"
#include "profile/experiment.h"
#include "report/parts/fdp.h"
#include "report/parts/fmt.h"
#include "report/parts/notes.h"
#include "report/parts/nvme.h"
#include "report/parts/rank.h"
#include "report/parts/repeat.h"
#include "report/parts/rundata.h"
#include "report/parts/steptab.h"
#include "report/parts/summary.h"
#include "report/parts/sweep.h"
#include "report/parts/table.h"
#include "report/writers.h"
#include "util/rjson.h"

static const char s_css[] =
    ":root{--fg:#1d2430;--muted:#5b6575;--line:#d9dee7;--bg:#f5f6f8}"
    "body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",Arial,"
    "sans-serif;color:var(--fg);margin:0;background:var(--bg)}"
    "main{max-width:1840px;margin:0 auto;padding:18px 28px 40px}"
    "h1{font-size:23px;margin:0 0 4px}"
    "h2{font-size:19px;margin:34px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}"
    "h3{font-size:16px;margin:22px 0 6px}h4{font-size:14px;margin:14px 0 4px}"
    "a{color:#0b5cad}.muted{color:var(--muted)}ul{margin:4px 0 10px}"
    "nav.toc{margin:8px 0 4px;font-size:13px}nav.toc a{margin-right:14px}"
    /* tables fit their column: text wraps, numbers do not; a wider one scrolls in its box */
    ".tw{max-width:100%;overflow-x:auto;margin:6px 0 12px}"
    "table{border-collapse:collapse;background:#fff;font-variant-numeric:tabular-nums}"
    "th,td{border:1px solid var(--line);padding:3px 8px;text-align:right;white-space:nowrap;"
    "vertical-align:top}"
    "th{background:#eef1f5;font-weight:600}td.l,th.l{text-align:left}"
    "td.w{white-space:normal;min-width:14em;max-width:46em;overflow-wrap:anywhere}td.w "
    "ul{margin:0;padding-left:16px}"
    ".badge{display:inline-block;padding:1px 9px;border-radius:10px;color:#fff;font-size:12px;"
    "font-weight:600;vertical-align:middle;white-space:nowrap}"
    ".ok{background:#1a7f37}.bad{background:#cf222e}.skip{background:#8a94a6}"
    ".warn{background:#bf8700}"
    "p.warn{background:none;color:#6e1c1c;border-left:4px solid #cf222e;padding-left:8px}"
    ".sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}"
    /* the summary: a box that reads alone */
    ".summary{background:#fff;border:1px solid var(--line);border-radius:8px;padding:6px 20px "
    "14px;margin:12px 0}"
    ".figs{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0}"
    ".fig{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:150px;"
    "background:#fafbfc}"
    ".fig .v{font-size:21px;font-weight:650}.fig .k,.fig .w{font-size:12px;color:var(--muted)}"
    ".ceiling{font-size:15px}.conf{font-weight:600}"
    ".conf.high{color:#1a7f37}.conf.medium{color:#9a6700}.conf.low{color:#cf222e}"
    ".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:12px;"
    "margin:10px 0}"
    "figure{margin:0;background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px;"
    "min-width:0}"
    /* a sweep's story: its charts, the table beside them on a wide screen */
    ".story{display:grid;grid-template-columns:minmax(0,1fr);gap:12px;align-items:start}"
    ".story .charts{margin:0}"
    "@media (min-width:1100px){.story .charts{grid-template-columns:repeat(3,minmax(0,1fr))}}"
    "@media (min-width:1500px){.story{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}"
    ".story .charts{grid-template-columns:repeat(2,minmax(0,1fr))}}"
    "svg.chart{width:100%;height:auto;display:block;font-size:11px}"
    "svg .ct{font-weight:600;font-size:12.5px;fill:#1d2430}"
    "svg .grid{stroke:#e6e9ef}svg .axis,svg .tick{stroke:#8a94a6}"
    "svg .yt{text-anchor:end;fill:#5b6575}svg .xt,svg .bv{text-anchor:middle;fill:#5b6575}"
    "svg .xl,svg .yl{text-anchor:middle;fill:#3d4656}"
    "svg .shade{fill:#eceff3}svg .sl{fill:#8a94a6;font-style:italic}"
    "svg .mark{stroke:#cf222e;stroke-dasharray:4 3}svg .ml{fill:#cf222e}"
    "svg .legend text{fill:#3d4656}"
    /*
     * a sweep's report is hundreds of charts and tables: the browser lays out
     * and paints each only when it scrolls near (docs/results.md); what is
     * skipped stays in the page, for find-in-page and links
     */
    "figure,.tw{content-visibility:auto;contain-intrinsic-size:auto 300px}"
    /* printed (to PDF): white, every part drawn, nothing split across pages that fits on one */
    "@page{size:A4;margin:12mm 10mm}"
    "@media print{body{background:#fff;font-size:10.5px}main{max-width:none;padding:0}"
    "nav.toc{display:none}h2{break-before:auto;break-after:avoid}h3,h4{break-after:avoid}"
    "figure,.tw,table,tr,.fig,.summary{break-inside:avoid}"
    "figure,.tw{content-visibility:visible}"
    ".charts{grid-template-columns:repeat(2,minmax(0,1fr))}"
    ".story{grid-template-columns:minmax(0,1fr)}"
    "th,td{padding:2px 5px}td.w{max-width:none}.tw{overflow:visible}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}a{color:inherit}}";

static void s_esc(FILE *f, const char *s)
{
	bc_html_puts(f, s);
}

static void s_badge(FILE *f, const char *status)
{
	fprintf(f, "<span class=\"badge %s\">",
		!strcmp(status, "ok")					  ? "ok"
		: !strcmp(status, "failed") || !strcmp(status, "aborted") ? "bad"
									  : "warn");
	s_esc(f, status);
	fprintf(f, "</span>");
}

/* live: the page runs its one script (the interactive charts), admitted by its hash */
static void s_head_title(FILE *f, const char *title, const char *css, bool live)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src 'unsafe-inline'; img-src data:;");
	if (live)
		bc_live_csp(f);
	fprintf(f, "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<link rel=\"icon\" href=\"data:,\">\n<title>bench-coord: ");
	s_esc(f, title);
	fprintf(f, "</title>\n<style>%s%s", s_css, css);
	if (live)
		bc_live_style_css(f);
	fprintf(f, "</style>\n</head>\n<body>\n<main>\n");
}

static void s_head(FILE *f, const struct bc_report *r, const char *what, const char *css, bool live)
{
	char title[BC_NAME_MAX + 64];

	snprintf(title, sizeof(title), "%s%s", bc_rj_str("run", r->run, "profile"), what);
	s_head_title(f, title, css, live);
}

void bc_report_html_head(FILE *f, const char *title)
{
	s_head_title(f, title, "", true);
}

void bc_report_html_tail(FILE *f)
{
	fprintf(f, "</main>\n");
	bc_live_script_tag(f);
	fprintf(f, "</body>\n</html>\n");
}

static void s_header(FILE *f, const struct bc_report *r)
{
	const cJSON *run = r->run;

	fprintf(f, "<h1>");
	s_esc(f, bc_rj_str("?", run, "profile"));
	fprintf(f, " ");
	s_badge(f, bc_rj_str("?", run, "status"));
	fprintf(f, "</h1>\n<p class=\"muted\">");
	if (bc_rj(r->profile, "description")) {
		s_esc(f, bc_rj_str("", r->profile, "description"));
		fprintf(f, "<br>");
	}
	s_esc(f, bc_rj_str("bench-coord", run, "tool"));
	fprintf(f, " &middot; started ");
	s_esc(f, bc_rj_str("-", run, "started"));
	fprintf(f, " &middot; finished ");
	s_esc(f, bc_rj_str("-", run, "finished"));
	fprintf(f, "</p>\n");
}

/* the page's contents, for a long report */
static void s_toc(FILE *f, const struct bc_report *r, const struct bc_sweep *sw, int nsw)
{
	int k;

	fprintf(f, "<nav class=\"toc\"><a href=\"#summary\">Summary</a>");
	if (cJSON_GetArraySize(r->expect))
		fprintf(f, "<a href=\"#criteria\">Acceptance criteria</a>");
	fprintf(f,
		"<a href=\"#environment\">System under test</a><a href=\"#results\">Results</a>");
	for (k = 0; k < nsw; k++) {
		fprintf(f, "<a href=\"#sweep-%d\">Sweep ", k);
		s_esc(f, sw[k].name);
		fprintf(f, "</a>");
	}
	fprintf(f, "<a href=\"#steps\">Steps</a><a href=\"#latency-charts\">Latency charts</a>"
		   "</nav>\n");
}

static void s_summary(FILE *f, const struct bc_summary *s)
{
	char id[32];
	int i;

	fprintf(f, "<section class=\"summary\" id=\"summary\">\n<h2>Summary</h2>\n<p>");
	s_esc(f, s->tested);
	fprintf(f, "</p>\n<div class=\"figs\">\n");
	for (i = 0; i < s->nfig; i++) {
		const struct bc_sum_fig *g = &s->fig[i];
		char num[64];

		fprintf(f, "<div class=\"fig\" data-fig=\"%s\" data-value=\"%s\"", g->key,
			bc_fmt_num(g->value, num, sizeof(num)));
		if (g->step >= 0) {
			fprintf(f, " data-step=\"");
			s_esc(f, g->where);
			fprintf(f, "\"");
		}
		fprintf(f, "><div class=\"k\">");
		s_esc(f, g->label);
		fprintf(f, "</div><div class=\"v\">");
		s_esc(f, g->text);
		fprintf(f, "</div><div class=\"w\">");
		if (g->step >= 0)
			fprintf(f, "<a href=\"#%s\">", bc_tab_step_id(g->step, id, sizeof(id)));
		s_esc(f, g->where);
		fprintf(f, "%s</div></div>\n", g->step >= 0 ? "</a>" : "");
	}
	fprintf(f, "</div>\n");
	for (i = 0; i < s->nceil; i++) {
		const struct bc_sum_ceiling *c = &s->ceil[i];

		fprintf(f, "<p class=\"ceiling\">");
		s_esc(f, c->sentence);
		fprintf(f, " <a href=\"#%s\">Evidence</a>", c->anchor);
		if (c->confidence) {
			fprintf(f, "<br><span class=\"conf %s\">Confidence: %s.</span> ",
				c->confidence, c->confidence);
			if (c->why[0]) {
				fprintf(f, "Lowered by: ");
				s_esc(f, c->why);
				fprintf(f, ".");
			}
		}
		fprintf(f, "</p>\n");
		if (c->unmeasured[0]) {
			fprintf(f, "<p class=\"muted\"><strong>Not measured:</strong> ");
			s_esc(f, c->unmeasured);
			fprintf(f, ".</p>\n");
		}
	}
	if (s->caveats.n) {
		fprintf(f, "<h4>Caveats</h4>\n");
		bc_notes_html(f, &s->caveats);
	}
	fprintf(f, "</section>\n");
}

/* the client hosts' and devices' tables, or at fleet size the link to volumes.html */
static void s_environment(FILE *f, const struct bc_report *r, bool whole)
{
	struct bc_notes n = {0};

	fprintf(f, "<h2 id=\"environment\">System under test</h2>\n");
	if (!whole) {
		bc_summary_profile(&n, r);
		bc_notes_html(f, &n);
		bc_notes_free(&n);
	}
	if (whole || !bc_report_summarised(r)) {
		bc_table_emit(f, bc_table_agents, r, true, 3);
		bc_table_emit(f, bc_table_devices, r, true, 3);
	} else {
		fprintf(
		    f,
		    "<p>%d client hosts and %d volumes: their tables (host facts, the devices "
		    "opened) are in <a href=\"volumes.html#environment\">volumes.html</a>.</p>\n",
		    cJSON_GetArraySize(bc_rj(r->run, "agents")),
		    cJSON_GetArraySize(bc_rj(r->profile, "volumes")));
	}
	bc_table_emit(f, bc_table_nvme, r, true, 3);
	bc_table_emit(f, bc_table_nodes, r, true, 3);
}

/* a level too large to list: its distribution and its extremes, the whole list one click away */
static void s_level_summary(FILE *f, const cJSON *st, int i, int lvl)
{
	const char *who = lvl == 1 ? "client host" : "volume";
	const char *key = bc_report_levels[lvl].key;
	struct bc_table *t;
	struct bc_rank k;

	if (bc_rank_make(&k, bc_rj(st, key)))
		return;
	fprintf(f,
		"<h3>%ss: %d, summarised</h3>\n<p class=\"muted\">Too many to list here and "
		"keep this page quick to open: the distribution of the window's figures per %s, "
		"the %d highest and lowest. Every %s is in <a href=\"volumes.html#s%d-%s\">"
		"volumes.html</a> and <a href=\"volumes.csv\">volumes.csv</a>.</p>\n",
		who, k.n, who, BC_RANK_TOP, who, i, key);
	t = bc_tab_rank_dist(&k, who);
	bc_table_html(f, t, 4);
	bc_table_destroy(&t);
	fprintf(f, "<div class=\"charts\">\n");
	bc_stepcharts_rank_html(f, &k, who, i, lvl);
	fprintf(f, "</div>\n");
	t = bc_tab_rank_top(k.by_iops, k.n, lvl, false, "by IOPS, highest first");
	bc_table_html(f, t, 4);
	bc_table_destroy(&t);
	t = bc_tab_rank_top(k.by_p99, k.n, lvl, true, "by p99 latency, highest first");
	bc_table_html(f, t, 4);
	bc_table_destroy(&t);
	bc_rank_free(&k);
}

/* the step's table: every level listed, but for those too large */
static void s_step_table(FILE *f, const struct bc_report *r, const cJSON *st, int i)
{
	struct bc_table *t = bc_tab_step(r, st, 0xf, false);
	int lvl;

	bc_table_html(f, t, 3);
	bc_table_destroy(&t);
	for (lvl = 1; lvl < 4; lvl++)
		if (!bc_report_whole(r, lvl,
				     cJSON_GetArraySize(bc_rj(st, bc_report_levels[lvl].key))))
			s_level_summary(f, st, i, lvl);
}

/* an FDP experiment's WAF per mode as bars */
static void s_fdp_chart(FILE *f, const cJSON *x)
{
	const char *labels[BC_EXP_MODES_MAX];
	double v[BC_EXP_MODES_MAX];
	char id[BC_NAME_MAX + 8];
	struct bc_svg_chart c = {.id = id,
				 .title = "WAF per mode (measurement iterations)",
				 .x_label = "placement mode",
				 .y_label = "WAF (media / host writes)"};
	const cJSON *m;
	int n = 0;

	cJSON_ArrayForEach(m, bc_rj(x, "modes"))
	{
		if (cJSON_IsNumber(bc_rj(m, "waf")) && n < BC_EXP_MODES_MAX) {
			labels[n] = bc_rj_str("?", m, "mode");
			v[n++] = bc_rj_num(m, "waf");
		}
	}
	if (!n)
		return;
	snprintf(id, sizeof(id), "waf-%s", bc_rj_str("", x, "step"));
	fprintf(f, "<div class=\"charts\"><figure>");
	bc_svg_bars(f, &c, labels, v, n);
	fprintf(f, "</figure></div>\n");
}

static void s_step(FILE *f, const struct bc_report *r, const cJSON *st, int i, bool point)
{
	const cJSON *v;
	struct bc_notes n = {0};
	char id[32], wl[256];

	fprintf(f, "<%s id=\"%s\">%s ", point ? "h3" : "h2", bc_tab_step_id(i, id, sizeof(id)),
		point ? "Point" : "Step");
	s_esc(f, bc_rj_str("?", st, "name"));
	fprintf(f, " ");
	s_badge(f, bc_rj_str("?", st, "status"));
	if (cJSON_IsTrue(bc_rj(st, "contended"))) {
		fprintf(f, " ");
		s_badge(f, "contended");
	}
	fprintf(f, "</%s>\n<p>", point ? "h3" : "h2");
	s_esc(f, bc_tab_workload(bc_rj(st, "workload"), wl, sizeof(wl)));
	fprintf(f, ". Seconds %.0f&ndash;%.0f measured.</p>\n",
		bc_rj_num(st, "measured_from_second"), bc_rj_num(st, "seconds") - 1);
	if (bc_rj(st, "error")) {
		fprintf(f, "<p class=\"warn\"><strong>Error:</strong> ");
		s_esc(f, bc_rj_str("", st, "error"));
		fprintf(f, "</p>\n");
	}
	s_step_table(f, r, st, i);
	cJSON_ArrayForEach(v, bc_rj(st, "volumes"))
	{
		struct bc_table *t = bc_table_sim_ftl(v); /* a simulated SSD's FTL (docs/sim.md) */

		bc_table_html(f, t, 3);
		bc_table_destroy(&t);
	}
	/* a long step's drift per hour (results/long/minutes.h) */
	if (bc_rj(st, "drift")) {
		struct bc_table *dt = bc_table_drift(st);

		bc_table_html(f, dt, 3);
		bc_table_destroy(&dt);
	}
	bc_fdp_html(f, bc_rj(st, "experiment"));
	s_fdp_chart(f, bc_rj(st, "experiment"));
	fprintf(f, "<div class=\"charts\">\n");
	bc_stepcharts_html(f, r, st, i);
	fprintf(f, "</div>\n");
	bc_notes_step(&n, r, st);
	bc_notes_html(f, &n);
	bc_notes_free(&n);
}

/* the verdict's evidence: the measured suspects, the unmeasured in a line, the verdict */
static void s_evidence(FILE *f, const cJSON *a, const char *step)
{
	struct bc_table *t = bc_table_suspects_of(a, step);
	struct bc_notes n = {0};
	char un[1400];

	if (!a)
		return;
	bc_table_html(f, t, 3);
	bc_table_destroy(&t);
	bc_summary_unmeasured(a, un, sizeof(un));
	bc_notes_evidence(&n, a, un);
	bc_notes_html(f, &n);
	bc_notes_free(&n);
}

/* a sweep's story at the top of its section: charts and table, knee, evidence */
static void s_sweep(FILE *f, const struct bc_sweep *sw, int k)
{
	struct bc_table *t = bc_tab_sweep(sw);

	fprintf(f, "<h2 id=\"sweep-%d\">Sweep ", k);
	s_esc(f, sw->name);
	fprintf(f, " over ");
	s_esc(f, sw->param);
	fprintf(f, "</h2>\n<p class=\"muted\">%d point%s, %s. ", sw->n, sw->n == 1 ? "" : "s",
		sw->steps > 1 ? "a step each below" : "measured in the step below");
	if (sw->knee >= 0) {
		fprintf(f, "The knee is at %s=", sw->param);
		s_esc(f, sw->pt[sw->knee].label);
		if (sw->knee_reason) {
			fprintf(f, ": ");
			s_esc(f, sw->knee_reason);
		}
		fprintf(f, "%s.",
			sw->knee_confirmed ? "" : " (not confirmed by the points after it)");
	} else {
		fprintf(f, "No knee: the throughput did not level off.");
	}
	fprintf(f, "</p>\n<div class=\"story\">\n<div class=\"charts\">\n");
	bc_story_html(f, sw, k);
	fprintf(f, "</div>\n<div>");
	bc_table_html(f, t, 4);
	fprintf(f, "</div>\n</div>\n");
	bc_table_destroy(&t);
	bc_stepcharts_nodes_html(f, sw, k);
	s_evidence(f, sw->analysis, sw->name);
}

/* designed for device counters: steps[].waf {mode, value}, one bar per step */
static void s_waf(FILE *f, const cJSON *steps)
{
	const char *labels[64];
	char buf[64][BC_NAME_MAX * 2 + 4];
	double v[64];
	const cJSON *st;
	struct bc_svg_chart c = {.id = "waf",
				 .title = "Write amplification per mode",
				 .x_label = "step (mode)",
				 .y_label = "WAF (media / host writes)"};
	int n = 0;

	cJSON_ArrayForEach(st, steps)
	{
		if (!bc_rj(st, "waf") || n >= 64)
			continue;
		snprintf(buf[n], sizeof(buf[n]), "%s (%s)", bc_rj_str("?", st, "name"),
			 bc_rj_str("-", st, "waf", "mode"));
		labels[n] = buf[n];
		v[n++] = bc_rj_num(st, "waf", "value");
	}
	if (!n)
		return;
	fprintf(f, "<h2>Write amplification</h2>\n<div class=\"charts\"><figure>");
	bc_svg_bars(f, &c, labels, v, n);
	fprintf(f, "</figure></div>\n");
}

/* the steps in order; a sweep's story before its points */
static void s_steps(FILE *f, const struct bc_report *r, const struct bc_sweep *sw, int nsw)
{
	const cJSON *st;
	int i = 0, k = 0;

	fprintf(f, "<h2 id=\"steps\">Steps</h2>\n<p class=\"muted\">Each step's window figures "
		   "per client host, storage node and volume, its charts over time (the shaded "
		   "start is the ramp, excluded from the tables), notes and checks.</p>\n");
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		bool in = k < nsw && i >= sw[k].first && i < sw[k].first + sw[k].steps;

		if (in && i == sw[k].first)
			s_sweep(f, &sw[k], k);
		/* a sweep's points are its subsections; a step that carries a whole sweep is a step
		 */
		s_step(f, r, st, i, in && sw[k].steps > 1);
		if (in && i == sw[k].first + sw[k].steps - 1)
			k++;
		i++;
	}
}

int bc_report_html(const struct bc_report *r, FILE *f)
{
	const cJSON *steps = bc_rj(r->run, "steps");
	struct bc_sweep *sw = NULL;
	struct bc_summary sum;
	struct bc_table *t;
	int nsw = bc_sweeps_make(r, &sw);

	bc_summary_make(&sum, r, sw, nsw);
	s_head(f, r, "", "", true);
	s_header(f, r);
	s_toc(f, r, sw, nsw);
	s_summary(f, &sum);
	bc_summary_free(&sum);
	if (bc_report_summarised(r))
		fprintf(f, "<p>Every volume and client host, with its figures in each step: "
			   "<a href=\"volumes.html\">volumes.html</a> (a page) and <a "
			   "href=\"volumes.csv\">volumes.csv</a> (a table).</p>\n");
	t = bc_table_expect(r);
	if (t)
		snprintf(t->id, sizeof(t->id), "criteria");
	bc_table_html(f, t, 2);
	bc_table_destroy(&t);
	s_environment(f, r, false);
	t = bc_tab_results(r);
	bc_table_html(f, t, 2);
	bc_table_destroy(&t);
	bc_table_emit(f, bc_table_verdicts, r, true, 3);
	bc_table_emit(f, bc_table_repeats, r, true, 3);
	bc_table_emit(f, bc_table_series_ci, r, true, 3);
	bc_table_emit(f, bc_tab_rw, r, true, 3);
	if (cJSON_GetArraySize(steps))
		s_steps(f, r, sw, nsw);
	s_waf(f, steps);
	if (cJSON_GetArraySize(steps))
		bc_chart_html(f, r);
	fprintf(f,
		"<p class=\"muted\">Written from run.json by <code>bench-coord report</code>. "
		"Latency is submission to completion of each I/O; percentiles come from merged "
		"histograms, never averaged. Charts: drag to zoom, double-click to reset; printed, "
		"the static charts.</p>\n</main>\n");
	bc_live_script_tag(f);
	fprintf(f, "</body>\n</html>\n");
	free(sw);
	return ferror(f) ? -EIO : 0;
}

int bc_report_volumes_html(const struct bc_report *r, FILE *f)
{
	const cJSON *steps = bc_rj(r->run, "steps"), *st;
	int i = 0, lvl;

	/*
	 * tables of 17,000 rows as plain tables: the scrolling block the
	 * report's tables are doubles Chromium's time to lay them out
	 * (bench/report-open.sh; docs/results.md)
	 */
	s_head(f, r, ": every volume and client host", ".tw{overflow:visible}", false);
	fprintf(f, "<h1>");
	s_esc(f, bc_rj_str("?", r->run, "profile"));
	fprintf(f, ": every volume and client host</h1>\n<p class=\"muted\">The window figures "
		   "of each step at every level, listed whole (<a href=\"report.html\">report.html"
		   "</a> summarises the levels too large for it; <a href=\"volumes.csv\">"
		   "volumes.csv</a> has the same rows).</p>\n");
	cJSON_ArrayForEach(st, steps)
	{
		struct bc_table *t;

		fprintf(f, "<h2 id=\"s%d\">Step ", i);
		s_esc(f, bc_rj_str("?", st, "name"));
		fprintf(f, " ");
		s_badge(f, bc_rj_str("?", st, "status"));
		fprintf(f, "</h2>\n");
		for (lvl = 0; lvl < 4; lvl++) {
			if (lvl && !cJSON_GetArraySize(bc_rj(st, bc_report_levels[lvl].key)))
				continue;
			/* report.html's summaries link to these */
			fprintf(f, "<h3 id=\"s%d-%s\">%s</h3>\n", i, bc_report_levels[lvl].key,
				bc_report_levels[lvl].key);
			t = bc_tab_step(r, st, 1u << lvl, true);
			bc_table_html(f, t, 4);
			bc_table_destroy(&t);
		}
		i++;
	}
	s_environment(f, r, true);
	fprintf(f, "</main>\n</body>\n</html>\n");
	return ferror(f) ? -EIO : 0;
}
