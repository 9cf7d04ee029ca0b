/*
 * report/html.c - report.html: one self-contained page (inline CSS and SVG,
 * no script, font or network; a CSP meta tag forbids them) with the tables
 * of summary.md and, per step, per-second charts of IOPS, MB/s and latency
 * for the total, each client host and each storage node - one colour per
 * entity throughout, the ramp shaded. Sweep curves, node egress against link
 * rate and WAF appear only when run.json holds them. Every text from the run
 * (names, paths, messages) is escaped. A step with more volumes or client
 * hosts than report.html can list and still open quickly (report/parts/rank.h) shows
 * those levels summarised - top and bottom by IOPS and p99, quantiles and
 * histograms - and volumes.html (bc_report_volumes_html) lists them whole.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/chart.h"
#include "report/parts/fdp.h"
#include "report/parts/fmt.h"
#include "report/parts/rank.h"
#include "report/parts/repeat.h"
#include "report/parts/rundata.h"
#include "report/parts/svg.h"
#include "report/parts/table.h"
#include "report/writers.h"
#include "util/rjson.h"

static const char s_css[] =
    ":root{--fg:#1d2430;--muted:#5b6575;--line:#d9dee7}"
    "body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",Arial,"
    "sans-serif;color:var(--fg);margin:0;background:#f5f6f8}"
    "main{max-width:1400px;margin:0 auto;padding:18px 24px 40px}"
    "h1{font-size:22px;margin:0 0 6px}"
    "h2{font-size:18px;margin:30px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}"
    "h3{font-size:15px;margin:18px 0 6px}"
    "table{border-collapse:collapse;background:#fff;margin:6px 0 12px;"
    "font-variant-numeric:tabular-nums;display:block;overflow-x:auto;max-width:100%;"
    "width:max-content}"
    "th,td{border:1px solid var(--line);padding:3px 9px;text-align:right;white-space:nowrap}"
    "th{background:#eef1f5;font-weight:600}td.l,th.l{text-align:left}"
    "td.w{white-space:normal;min-width:240px;max-width:420px}"
    ".badge{display:inline-block;padding:1px 9px;border-radius:10px;color:#fff;font-size:12px;"
    "font-weight:600;vertical-align:middle}"
    ".ok{background:#1a7f37}.bad{background:#cf222e}.skip{background:#8a94a6}"
    ".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:12px;"
    "margin:10px 0}"
    "figure{margin:0;background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px}"
    "svg.chart{width:100%;height:auto;display:block;font-size:11px}"
    "svg .ct{font-weight:600;font-size:12.5px;fill:#1d2430}"
    "svg .grid{stroke:#e6e9ef}svg .axis,svg .tick{stroke:#8a94a6}"
    "svg .yt{text-anchor:end;fill:#5b6575}svg .xt,svg .bv{text-anchor:middle;fill:#5b6575}"
    "svg .xl,svg .yl{text-anchor:middle;fill:#3d4656}"
    "svg .shade{fill:#eceff3}svg .sl{fill:#8a94a6;font-style:italic}"
    "svg .mark{stroke:#cf222e;stroke-dasharray:4 3}svg .ml{fill:#cf222e}"
    "svg .legend text{fill:#3d4656}"
    ".sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}"
    ".muted{color:var(--muted)}ul{margin:4px 0 10px}"
    /*
     * a sweep's report is hundreds of charts and tables: the browser lays out
     * and paints each only when it scrolls near (a 10-point sweep at 100 x 16
     * opened ~1.2 s sooner of ~7 s on this VM, docs/scaling.md); what is
     * skipped stays in the page, for find-in-page and links
     */
    "figure,table{content-visibility:auto;contain-intrinsic-size:auto 300px}";

static void s_esc(FILE *f, const char *s)
{
	bc_html_puts(f, s);
}

static void s_badge(FILE *f, const char *status)
{
	fprintf(f, "<span class=\"badge %s\">", !strcmp(status, "ok") ? "ok" : "bad");
	s_esc(f, status);
	fprintf(f, "</span>");
}

/* a numeric cell; decimals < 0: as short as exact */
static void s_td_num(FILE *f, double v, int decimals)
{
	char num[64];

	if (decimals < 0)
		fprintf(f, "<td>%s</td>", bc_fmt_num(v, num, sizeof(num)));
	else
		fprintf(f, "<td>%.*f</td>", decimals, v);
}

static void s_swatch(FILE *f, int color)
{
	fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>", bc_svg_color(color));
}

static void s_head(FILE *f, const struct bc_report *r, const char *what, const char *css)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src 'unsafe-inline'; img-src data:\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<link rel=\"icon\" href=\"data:,\">\n<title>bench-coord: ");
	s_esc(f, bc_rj_str("run", r->run, "profile"));
	fprintf(f, "%s</title>\n<style>%s%s</style>\n</head>\n<body>\n<main>\n", what, s_css, css);
}

static void s_header(FILE *f, const struct bc_report *r)
{
	const cJSON *run = r->run;

	fprintf(f, "<h1>");
	s_esc(f, bc_rj_str("?", run, "profile"));
	fprintf(f, " ");
	s_badge(f, bc_rj_str("?", run, "status"));
	fprintf(f, "</h1>\n<p class=\"muted\">");
	s_esc(f, bc_rj_str("bench-coord", run, "tool"));
	fprintf(f, " &middot; started ");
	s_esc(f, bc_rj_str("-", run, "started"));
	fprintf(f, " &middot; finished ");
	s_esc(f, bc_rj_str("-", run, "finished"));
	fprintf(f, " &middot; %d agent(s), %d volume(s), %d step(s)</p>\n",
		cJSON_GetArraySize(bc_rj(run, "agents")),
		cJSON_GetArraySize(bc_rj(r->profile, "volumes")),
		cJSON_GetArraySize(bc_rj(r->profile, "steps")));
	if (bc_rj(run, "error")) {
		fprintf(f, "<p><strong>Error:</strong> ");
		s_esc(f, bc_rj_str("", run, "error"));
		fprintf(f, "</p>\n");
	}
}

static void s_workload(FILE *f, const cJSON *wl)
{
	char bs[32];

	s_esc(f, bc_rj_str("?", wl, "rw"));
	if (strstr(bc_rj_str("", wl, "rw"), "rw"))
		fprintf(f, " %.0f%% read", bc_rj_num(wl, "rwmixread"));
	fprintf(f, ", bs %s, iodepth %.0f, numjobs %.0f, direct %s, ramp %.0f s, runtime %.0f s",
		bc_fmt_bytes(bc_rj_num(wl, "bs"), bs, sizeof(bs)), bc_rj_num(wl, "iodepth"),
		bc_rj_num(wl, "numjobs"), cJSON_IsFalse(bc_rj(wl, "direct")) ? "no" : "yes",
		bc_rj_num(wl, "ramp"), bc_rj_num(wl, "runtime"));
}

#define S_FIG_HEAD                                                                                 \
	"<th>IOPS</th><th>MB/s</th><th>read %%</th><th>mean ms</th><th>p50 ms</th>"                \
	"<th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>max ms</th><th>errors</th>"

static void s_figures(FILE *f, const cJSON *e)
{
	static const char *const lat[] = {"mean", "p50", "p90", "p99", "p99.9", "max"};
	size_t i;

	char c[32];

	/* "-" where nothing was measured (null in run.json), never 0.000 */
	fprintf(f, "<td>%s</td>", bc_fmt_fig(bc_rj(e, "iops"), 1, 0, c, sizeof(c)));
	fprintf(f, "<td>%s</td>", bc_fmt_fig(bc_rj(e, "mbps"), 1, 1, c, sizeof(c)));
	fprintf(f, "<td>%s</td>", bc_fmt_fig(bc_rj(e, "read_pct"), 1, 1, c, sizeof(c)));
	for (i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
		fprintf(f, "<td>%s</td>",
			bc_fmt_fig(bc_rj(e, "lat_us", lat[i]), 1e3, 3, c, sizeof(c)));
	s_td_num(f, bc_rj_num(e, "errors") + bc_rj_num(e, "short"), 0);
}

static void s_overview(FILE *f, const cJSON *steps)
{
	const cJSON *st;

	fprintf(f, "<h2>Results</h2>\n<p class=\"muted\">Measured window of each step (ramp "
		   "excluded). Latency is submission to completion per I/O; percentiles come from "
		   "merged histograms.</p>\n<table><tr><th class=\"l\">step</th><th class=\"l\">"
		   "status</th><th class=\"l\">workload</th>" S_FIG_HEAD "</tr>\n");
	cJSON_ArrayForEach(st, steps)
	{
		fprintf(f, "<tr><td class=\"l\"><a href=\"#");
		s_esc(f, bc_rj_str("", st, "name"));
		fprintf(f, "\">");
		s_esc(f, bc_rj_str("?", st, "name"));
		fprintf(f, "</a></td><td class=\"l\">");
		s_badge(f, bc_rj_str("?", st, "status"));
		fprintf(f, "</td><td class=\"l w\">");
		s_workload(f, bc_rj(st, "workload"));
		fprintf(f, "</td>");
		s_figures(f, bc_rj(st, "total"));
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

static void s_environment(FILE *f, const struct bc_report *r, bool whole)
{
	fprintf(f, "<h2>Environment</h2>\n");
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

/* a run.json number array as doubles times scale; caller frees */
static double *s_doubles(const cJSON *arr, double scale, int *n)
{
	double *v;
	int i = 0;
	const cJSON *x;

	*n = cJSON_GetArraySize(arr);
	v = calloc((size_t)(*n ? *n : 1), sizeof(double));
	if (!v) {
		*n = 0;
		return NULL;
	}
	cJSON_ArrayForEach(x, arr) v[i++] = cJSON_IsNumber(x) ? x->valuedouble * scale : NAN;
	return v;
}

/* series of up to S_MAXS entities on one chart; frees the arrays it made */
#define S_MAXS	   48
#define S_MAXS_STR "48"

struct s_chart {
	struct bc_svg_chart c;
	struct bc_svg_series s[S_MAXS];
	int ns;
	char id[96], title[160], ylabel[48];
};

static void s_chart_init(struct s_chart *ch, const cJSON *st, int step, const char *what)
{
	memset(ch, 0, sizeof(*ch));
	snprintf(ch->id, sizeof(ch->id), "s%d-%s", step, what);
	ch->c.id = ch->id;
	ch->c.title = ch->title;
	ch->c.y_label = ch->ylabel;
	ch->c.x_label = "time in step (s)";
	ch->c.x_min = 0;
	ch->c.x_max = bc_rj_num(st, "seconds");
	ch->c.shade_to = bc_rj_num(st, "measured_from_second");
	ch->c.shade_label = "ramp";
}

static void s_chart_add(struct s_chart *ch, const char *name, const cJSON *arr, double scale,
			int color, bool dashed)
{
	struct bc_svg_series *s;

	if (ch->ns >= S_MAXS || !arr)
		return;
	s = &ch->s[ch->ns++];
	s->name = name;
	s->y = s_doubles(arr, scale, &s->n);
	s->color = color;
	s->dashed = dashed;
}

static void s_chart_emit(FILE *f, struct s_chart *ch)
{
	int i;

	fprintf(f, "<figure>");
	bc_svg_lines(f, &ch->c, ch->s, ch->ns);
	fprintf(f, "</figure>\n");
	for (i = 0; i < ch->ns; i++)
		free((void *)ch->s[i].y);
}

/*
 * the largest value of key over the entities' series, for the unit choice;
 * single: ents is one entity; neither: ents is a series object itself
 */
static double s_series_max(const cJSON *ents, bool single, const char *key)
{
	const cJSON *e, *x;
	double m = 0;

	if (!single && !cJSON_IsArray(ents)) {
		cJSON_ArrayForEach(x, bc_rj(ents, key)) m = fmax(m, cJSON_GetNumberValue(x));
		return m;
	}
	if (single) {
		cJSON_ArrayForEach(x, bc_rj(ents, "series", key)) m =
		    fmax(m, cJSON_GetNumberValue(x));
		return m;
	}
	cJSON_ArrayForEach(e, ents) m = fmax(m, s_series_max(e, true, key));
	return m;
}

/* microseconds below 1 ms, milliseconds above */
static double s_lat_unit(double max_us, const char **unit)
{
	*unit = max_us >= 1000 ? "ms" : "\xc2\xb5s"; /* UTF-8 micro sign */
	return max_us >= 1000 ? 1e-3 : 1;
}

static void s_total_charts(FILE *f, const cJSON *st, int i)
{
	static const char *const pk[] = {"lat_p50_us", "lat_p99_us", "lat_p99.9_us"};
	static const char *const pn[] = {"p50", "p99", "p99.9"};
	const cJSON *t = bc_rj(st, "total");
	struct s_chart ch;
	const char *unit;
	double scale;
	size_t k;

	s_chart_init(&ch, st, i, "iops-total");
	snprintf(ch.title, sizeof(ch.title), "IOPS, total");
	snprintf(ch.ylabel, sizeof(ch.ylabel), "IOPS");
	s_chart_add(&ch, "total", bc_rj(t, "series", "iops"), 1, -1, false);
	s_chart_add(&ch, "reads", bc_rj(t, "series", "read_iops"), 1, 0, true);
	s_chart_emit(f, &ch);

	s_chart_init(&ch, st, i, "mbps-total");
	snprintf(ch.title, sizeof(ch.title), "Bandwidth, total");
	snprintf(ch.ylabel, sizeof(ch.ylabel), "MB/s");
	s_chart_add(&ch, "total", bc_rj(t, "series", "mbps"), 1, -1, false);
	s_chart_emit(f, &ch);

	scale = s_lat_unit(s_series_max(t, true, "lat_p99.9_us") > 0
			       ? s_series_max(t, true, "lat_p99.9_us")
			       : s_series_max(t, true, "lat_p99_us"),
			   &unit);
	s_chart_init(&ch, st, i, "lat-total");
	snprintf(ch.title, sizeof(ch.title), "Latency percentiles, total");
	snprintf(ch.ylabel, sizeof(ch.ylabel), "latency (%s)", unit);
	for (k = 0; k < sizeof(pk) / sizeof(pk[0]); k++)
		s_chart_add(&ch, pn[k], bc_rj(t, "series", pk[k]), scale, k == 1 ? -1 : (int)k * 2,
			    false);
	s_chart_emit(f, &ch);
}

/*
 * A level too large for a line each (client hosts above the summary
 * limit): per second, the lowest, 10th percentile, median, 90th percentile
 * and highest of the figure across its entities (bc_rank_spread)
 */
static void s_spread_chart(FILE *f, const struct bc_report *r, const cJSON *st, int i,
			   const char *key, int m)
{
	static const char *const what[] = {"iops", "mbps", "p99"};
	static const char *const keys[] = {"iops", "mbps", "lat_p99_us"};
	static const char *const title[] = {"IOPS", "Bandwidth", "p99 latency"};
	static const char *const qname[BC_RANK_SPREAD] = {"lowest", "p10", "median", "p90",
							  "highest"};
	static const int color[BC_RANK_SPREAD] = {1, 0, -1, 0, 1};
	const cJSON *ents = bc_rj(st, key);
	double *y[BC_RANK_SPREAD], scale = 1;
	int n = (int)bc_rj_num(st, "seconds"), q, k;
	const char *unit = "";
	struct s_chart ch;
	char id[48];

	if (n <= 0 || bc_rank_spread(r, st, ents, keys[m], n, y))
		return;
	if (m == 2) {
		double mx = 0;

		for (k = 0; k < n; k++)
			mx = isfinite(y[BC_RANK_SPREAD - 1][k]) ? fmax(mx, y[BC_RANK_SPREAD - 1][k])
								: mx;
		scale = s_lat_unit(mx, &unit);
	}
	snprintf(id, sizeof(id), "%s-%s", what[m], key);
	s_chart_init(&ch, st, i, id);
	snprintf(ch.title, sizeof(ch.title), "%s across the %d client hosts, per second", title[m],
		 cJSON_GetArraySize(ents));
	if (m == 2)
		snprintf(ch.ylabel, sizeof(ch.ylabel), "p99 latency (%s)", unit);
	else
		snprintf(ch.ylabel, sizeof(ch.ylabel), "%s", m ? "MB/s" : "IOPS");
	for (q = 0; q < BC_RANK_SPREAD; q++) {
		struct bc_svg_series *sr = &ch.s[ch.ns++];

		for (k = 0; k < n; k++)
			y[q][k] *= scale;
		sr->name = qname[q];
		sr->y = y[q];
		sr->n = n;
		sr->color = color[q];
		sr->dashed = q == 0 || q == BC_RANK_SPREAD - 1;
	}
	s_chart_emit(f, &ch);
}

/*
 * IOPS, MB/s and p99 with one line per agent (lvl 1) or node (lvl 2); their
 * series from run.json, or from seconds.bin while the run writes it
 * (bc_report_series), read once for the S_MAXS entities the charts show
 */
static void s_entity_charts(FILE *f, const struct bc_report *r, const cJSON *st, int i, int lvl)
{
	static const char *const what[] = {"iops", "mbps", "p99"};
	static const char *const keys[] = {"iops", "mbps", "lat_p99_us"};
	const char *key = bc_report_levels[lvl].key, *unit = "";
	const char *who = lvl == 1 ? "client host" : "storage node";
	const cJSON *ents = bc_rj(st, key), *e, *ser[S_MAXS], *es[S_MAXS];
	cJSON *tmp[S_MAXS];
	int m, c, j, ne = 0, n = cJSON_GetArraySize(ents);
	struct s_chart ch;
	char id[48];

	cJSON_ArrayForEach(e, ents)
	{
		if (ne == S_MAXS)
			break;
		es[ne] = e;
		ser[ne] = bc_report_series(r, st, e, &tmp[ne]);
		ne++;
	}
	for (m = 0; m < 3; m++) {
		double scale = 1, mx = 0;

		if (!bc_report_whole(r, lvl, n)) {
			s_spread_chart(f, r, st, i, key, m);
			continue;
		}
		for (j = 0; m == 2 && j < ne; j++)
			mx = fmax(mx, s_series_max(ser[j], false, keys[m]));
		if (m == 2)
			scale = s_lat_unit(mx, &unit);

		snprintf(id, sizeof(id), "%s-%s", what[m], key);
		s_chart_init(&ch, st, i, id);
		/* beyond S_MAXS lines a chart says which it shows (the tables have all) */
		snprintf(ch.title, sizeof(ch.title), "%s per %s%s",
			 m == 0	  ? "IOPS"
			 : m == 1 ? "Bandwidth"
				  : "p99 latency",
			 who, n > S_MAXS ? " (first " S_MAXS_STR ")" : "");
		if (m == 2)
			snprintf(ch.ylabel, sizeof(ch.ylabel), "p99 latency (%s)", unit);
		else
			snprintf(ch.ylabel, sizeof(ch.ylabel), "%s", m ? "MB/s" : "IOPS");
		for (c = 0; c < ne; c++)
			s_chart_add(&ch, bc_rj_str("?", es[c], "name"), bc_rj(ser[c], keys[m]),
				    scale, c, false);
		s_chart_emit(f, &ch);
	}
	for (j = 0; j < ne; j++)
		cJSON_Delete(tmp[j]);
}

/* designed for the sweep writer: steps[].sweep columnar arrays */
static void s_sweep_charts(FILE *f, const cJSON *st, int i)
{
	const cJSON *sw = bc_rj(st, "sweep");
	const char *param = bc_rj_str("value", sw, "param"), *unit;
	struct s_chart ch;
	double *x;
	int n, k;

	if (!sw)
		return;
	x = s_doubles(bc_rj(sw, "values"), 1, &n);
	for (k = 0; k < 2 && x; k++) {
		double scale = 1, m = 0;
		const cJSON *v;

		s_chart_init(&ch, st, i, k ? "sweep-p99" : "sweep-iops");
		ch.c.x_label = param;
		ch.c.x_min = ch.c.x_max = 0;
		ch.c.shade_to = -1;
		ch.c.x_log2 = !strcmp(param, "iodepth") || !strcmp(param, "numjobs");
		ch.c.has_mark = bc_rj(sw, "knee", "value") != NULL;
		ch.c.mark_x = bc_rj_num(sw, "knee", "value");
		ch.c.mark_label = "knee";
		if (k) {
			cJSON_ArrayForEach(v, bc_rj(sw, "lat_p99_us")) m =
			    fmax(m, cJSON_GetNumberValue(v));
			scale = s_lat_unit(m, &unit);
			snprintf(ch.title, sizeof(ch.title), "p99 latency vs %s", param);
			snprintf(ch.ylabel, sizeof(ch.ylabel), "p99 latency (%s)", unit);
			s_chart_add(&ch, "p99", bc_rj(sw, "lat_p99_us"), scale, 2, false);
		} else {
			snprintf(ch.title, sizeof(ch.title), "Throughput vs %s", param);
			snprintf(ch.ylabel, sizeof(ch.ylabel), "IOPS");
			s_chart_add(&ch, "IOPS", bc_rj(sw, "iops"), 1, 0, false);
		}
		if (ch.ns)
			ch.s[0].x = x;
		s_chart_emit(f, &ch);
	}
	free(x);
}

/* designed for node counters: steps[].nodes[].counters.series.net_tx_mbps, link_mbps */
static void s_egress_chart(FILE *f, const cJSON *st, int i)
{
	const cJSON *n;
	struct s_chart ch;
	cJSON *links = cJSON_CreateArray();
	char names[S_MAXS][BC_NAME_MAX + 16];
	int c = 0, k;

	s_chart_init(&ch, st, i, "node-egress");
	snprintf(ch.title, sizeof(ch.title), "Storage node egress vs link rate");
	snprintf(ch.ylabel, sizeof(ch.ylabel), "MB/s");
	cJSON_ArrayForEach(n, bc_rj(st, "nodes"))
	{
		const cJSON *tx = bc_rj(n, "counters", "series", "net_tx_mbps");
		double link = bc_rj_num(n, "counters", "link_mbps");

		if (tx && ch.ns + 2 <= S_MAXS) {
			s_chart_add(&ch, bc_rj_str("?", n, "name"), tx, 1, c, false);
			if (link > 0) {
				cJSON *flat = cJSON_CreateArray();

				for (k = 0; k < cJSON_GetArraySize(tx); k++)
					cJSON_AddItemToArray(flat, cJSON_CreateNumber(link));
				cJSON_AddItemToArray(links, flat);
				snprintf(names[ch.ns], sizeof(names[0]), "%s link",
					 bc_rj_str("?", n, "name"));
				s_chart_add(&ch, names[ch.ns], flat, 1, c, true);
			}
		}
		c++;
	}
	if (ch.ns)
		s_chart_emit(f, &ch);
	cJSON_Delete(links);
}

/* one entity's row of a step table; c: its palette colour, -1: none */
static void s_entity_row(FILE *f, const cJSON *e, int lvl, int c)
{
	fprintf(f, "<tr><td class=\"l\">");
	if (c >= 0)
		s_swatch(f, c);
	fprintf(f, "%s ", lvl < 3 ? bc_report_levels[lvl].label : "");
	s_esc(f, bc_rj_str("?", e, "name"));
	fprintf(f, "</td>");
	s_figures(f, e);
	fprintf(f, "</tr>\n");
}

/* a summarised level's distribution: quantiles of IOPS and p99 per entity, and their histograms */
static void s_rank_dist(FILE *f, const struct bc_rank *k, const char *who, int i, int lvl)
{
	static const char *const qn[BC_RANK_NQ] = {"min", "p1",	 "p10", "p25", "median",
						   "p75", "p90", "p99", "max"};
	const struct bc_rank_fig *d[2] = {&k->iops, &k->p99_ms};
	static const char *const fig[2] = {"IOPS", "p99 ms"};
	int j, q, b;

	fprintf(f, "<table><tr><th class=\"l\">per %s</th><th>%ss</th><th>mean</th>", who, who);
	for (q = 0; q < BC_RANK_NQ; q++)
		fprintf(f, "<th>%s</th>", qn[q]);
	fprintf(f, "</tr>\n");
	for (j = 0; j < 2; j++) {
		fprintf(f, "<tr><td class=\"l\">%s</td><td>%d</td>", fig[j], d[j]->n);
		if (!d[j]->n) {
			fprintf(f, "<td colspan=\"%d\">-</td></tr>\n", BC_RANK_NQ + 1);
			continue;
		}
		s_td_num(f, d[j]->mean, j ? 3 : 1);
		for (q = 0; q < BC_RANK_NQ; q++)
			s_td_num(f, d[j]->q[q], j ? 3 : 1);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n<div class=\"charts\">\n");
	for (j = 0; j < 2; j++) {
		char labels[BC_RANK_BINS][32], title[96], xl[64], id[48], yl[48];
		const char *lp[BC_RANK_BINS];
		double v[BC_RANK_BINS];
		struct bc_svg_chart c = {.id = id, .title = title, .x_label = xl};

		if (!d[j]->n)
			continue;
		for (b = 0; b < BC_RANK_BINS; b++) {
			char num[32];

			snprintf(labels[b], sizeof(labels[b]), "%s",
				 bc_fmt_num(d[j]->edge[b], num, sizeof(num)));
			lp[b] = labels[b];
			v[b] = d[j]->bins[b];
		}
		snprintf(id, sizeof(id), "s%d-dist-%s-%s", i, j ? "p99" : "iops",
			 bc_report_levels[lvl].key);
		snprintf(title, sizeof(title), "%ss by window %s", who, fig[j]);
		snprintf(xl, sizeof(xl), "%s from (bins %s)", fig[j], d[j]->log ? "log" : "equal");
		snprintf(yl, sizeof(yl), "%ss", who);
		c.y_label = yl;
		fprintf(f, "<figure>");
		bc_svg_bars(f, &c, lp, v, BC_RANK_BINS);
		fprintf(f, "</figure>\n");
	}
	fprintf(f, "</div>\n");
}

/* the top and bottom BC_RANK_TOP of a ranked order, as one table */
static void s_rank_table(FILE *f, const cJSON **order, int n, int lvl, bool p99, const char *title)
{
	int j, m = 0;

	/* entities without the figure sort last: the bottom list starts above them */
	while (m < n && !cJSON_IsNumber(p99 ? bc_rj(order[n - 1 - m], "lat_us", "p99")
					    : bc_rj(order[n - 1 - m], "iops")))
		m++;
	fprintf(f, "<table><tr><th class=\"l\">%s</th>" S_FIG_HEAD "</tr>\n", title);
	for (j = 0; j < n && j < BC_RANK_TOP; j++)
		s_entity_row(f, order[j], lvl, -1);
	if (n - m > 2 * BC_RANK_TOP)
		fprintf(f,
			"<tr><td class=\"l muted\" colspan=\"11\">&hellip; %d more &hellip;"
			"</td></tr>\n",
			n - m - 2 * BC_RANK_TOP);
	for (j = n - m - BC_RANK_TOP; j < n - m; j++)
		if (j >= BC_RANK_TOP)
			s_entity_row(f, order[j], lvl, -1);
	fprintf(f, "</table>\n");
}

/* a level too large to list: its distribution and its extremes, the whole list one click away */
static void s_level_summary(FILE *f, const cJSON *st, int i, int lvl)
{
	const char *who = lvl == 1 ? "client host" : "volume";
	const char *key = bc_report_levels[lvl].key;
	struct bc_rank k;
	char title[96];

	if (bc_rank_make(&k, bc_rj(st, key)))
		return;
	fprintf(f,
		"<h3>%ss: %d, summarised</h3>\n<p class=\"muted\">Too many to list here and "
		"keep this page quick to open: the distribution of the window's figures per %s, "
		"the %d highest and lowest. Every %s is in <a href=\"volumes.html#s%d-%s\">"
		"volumes.html</a> and <a href=\"volumes.csv\">volumes.csv</a>.</p>\n",
		who, k.n, who, BC_RANK_TOP, who, i, key);
	s_rank_dist(f, &k, who, i, lvl);
	snprintf(title, sizeof(title), "by IOPS, highest first");
	s_rank_table(f, k.by_iops, k.n, lvl, false, title);
	snprintf(title, sizeof(title), "by p99 latency, highest first");
	s_rank_table(f, k.by_p99, k.n, lvl, true, title);
	bc_rank_free(&k);
}

/* the step's table: every level listed, but for those too large (unless whole) */
static void s_step_table(FILE *f, const struct bc_report *r, const cJSON *st, int i, bool whole)
{
	const cJSON *e;
	int lvl, c;
	bool sum[4] = {false};

	fprintf(f, "<table><tr><th class=\"l\"></th>" S_FIG_HEAD "</tr>\n<tr><td class=\"l\">"
		   "<strong>total</strong></td>");
	s_figures(f, bc_rj(st, "total"));
	fprintf(f, "</tr>\n");
	for (lvl = 1; lvl < 4; lvl++) {
		int n = cJSON_GetArraySize(bc_rj(st, bc_report_levels[lvl].key));

		c = 0;
		if (!whole && !bc_report_whole(r, lvl, n)) {
			sum[lvl] = true;
			fprintf(f,
				"<tr><td class=\"l muted\" colspan=\"11\">%d %ss: summarised below"
				"</td></tr>\n",
				n, bc_report_levels[lvl].label);
			continue;
		}
		if (whole) /* report.html's summaries link here */
			fprintf(f, "<tr id=\"s%d-%s\"></tr>\n", i, bc_report_levels[lvl].key);
		cJSON_ArrayForEach(e, bc_rj(st, bc_report_levels[lvl].key))
		{
			s_entity_row(f, e, lvl, lvl < 3 ? c++ : -1);
		}
	}
	fprintf(f, "</table>\n");
	for (lvl = 1; lvl < 4; lvl++)
		if (sum[lvl])
			s_level_summary(f, st, i, lvl);
}

static void s_step_notes(FILE *f, const cJSON *st)
{
	const cJSON *ss = bc_rj(st, "steady_state"), *c;
	int miss = cJSON_GetArraySize(bc_rj(st, "incomplete_seconds"));
	struct bc_check_plan *plan;

	if (miss)
		fprintf(f,
			"<p><strong>%d second(s)</strong> lack some agent's record (run.json "
			"incomplete_seconds).</p>\n",
			miss);
	cJSON_ArrayForEach(c, bc_rj(st, "lost_agents"))
	{
		fprintf(f, "<p><strong>Agent ");
		s_esc(f, bc_rj_str("?", c, "name"));
		fprintf(f, " lost from second %.0f</strong> (", bc_rj_num(c, "from_second"));
		s_esc(f, bc_rj_str("?", c, "reason"));
		fprintf(f, "); its figures stop there.</p>\n");
	}
	cJSON_ArrayForEach(c, bc_rj(st, "rejoined_agents"))
	{
		fprintf(f, "<p>Agent ");
		s_esc(f, bc_rj_str("?", c, "name"));
		fprintf(f, " joined again before this step (");
		s_esc(f, bc_rj_str("?", c, "reason"));
		fprintf(f, "; now bench-agent ");
		s_esc(f, bc_rj_str("?", c, "version"));
		fprintf(f, ", pid %.0f); nothing of the step before was missing.</p>\n",
			bc_rj_num(c, "pid"));
	}
	if (ss) {
		fprintf(f, "<p>Steady state (IOPS over ");
		s_esc(f, bc_rj_str("?", ss, "window"));
		fprintf(f, "): mean %.0f, trend %+.2f%%/s, spread %.1f%%: %s</p>\n",
			bc_rj_num(ss, "mean"), bc_rj_num(ss, "slope_pct_per_s"),
			bc_rj_num(ss, "spread_pct"),
			cJSON_IsTrue(bc_rj(ss, "steady")) ? "steady"
							  : "<strong>not steady</strong>");
	}
	if (bc_rj(st, "waf")) {
		fprintf(f, "<p>Write amplification (");
		s_esc(f, bc_rj_str("-", st, "waf", "mode"));
		fprintf(f, "): %.3f</p>\n", bc_rj_num(st, "waf", "value"));
	}
	if (!cJSON_GetArraySize(bc_rj(st, "checks")))
		return;
	plan = malloc(sizeof(*plan));
	if (!plan)
		return;
	bc_check_plan_make(plan, bc_rj(st, "checks"));
	fprintf(f, "<h3>Checks</h3>\n<ul>\n");
	cJSON_ArrayForEach(c, bc_rj(st, "checks"))
	{
		const char *w = bc_check_word(c);
		const struct bc_check_kind *k;
		enum bc_check_show show = bc_check_plan_next(plan, c, &k);

		/* a per-entity kind at fleet size: its counts, then its first failures */
		if (show == BC_CHECK_HEAD) {
			fprintf(f, "<li><span class=\"badge %s\">%d of %d</span> ",
				k->fail ? "bad" : "ok", k->fail, k->n);
			s_esc(f, k->name);
			fprintf(f,
				": <span class=\"muted\">%d PASS, %d FAIL, %d SKIP (the first "
				"%d failures listed; every one in run.json's checks)</span></li>\n",
				k->pass, k->fail, k->skip, BC_CHECK_EACH);
		}
		if (show == BC_CHECK_NONE || (show != BC_CHECK_LINE && strcmp(w, "FAIL")))
			continue;
		fprintf(f, "<li><span class=\"badge %s\">%s</span> ",
			!strcmp(w, "PASS")   ? "ok"
			: !strcmp(w, "FAIL") ? "bad"
					     : "skip",
			w);
		s_esc(f, bc_rj_str("?", c, "name"));
		if (bc_rj(c, "scope")) {
			fprintf(f, " (");
			s_esc(f, bc_rj_str("", c, "scope"));
			fprintf(f, ")");
		}
		fprintf(f, ": <span class=\"muted\">");
		s_esc(f, bc_rj_str("", c, "detail"));
		fprintf(f, "</span></li>\n");
	}
	fprintf(f, "</ul>\n");
	free(plan);
}

static void s_step(FILE *f, const struct bc_report *r, const cJSON *st, int i)
{
	fprintf(f, "<h2 id=\"");
	s_esc(f, bc_rj_str("", st, "name"));
	fprintf(f, "\">Step ");
	s_esc(f, bc_rj_str("?", st, "name"));
	fprintf(f, " ");
	s_badge(f, bc_rj_str("?", st, "status"));
	fprintf(f, "</h2>\n<p>");
	s_workload(f, bc_rj(st, "workload"));
	fprintf(f, ". Seconds %.0f&ndash;%.0f measured.</p>\n",
		bc_rj_num(st, "measured_from_second"), bc_rj_num(st, "seconds") - 1);
	if (bc_rj(st, "error")) {
		fprintf(f, "<p><strong>Error:</strong> ");
		s_esc(f, bc_rj_str("", st, "error"));
		fprintf(f, "</p>\n");
	}
	s_step_table(f, r, st, i, false);
	bc_fdp_html(f, bc_rj(st, "experiment"));
	fprintf(f, "<div class=\"charts\">\n");
	if (bc_rj(st, "total", "series"))
		s_total_charts(f, st, i);
	if (cJSON_GetArraySize(bc_rj(st, "agents")))
		s_entity_charts(f, r, st, i, 1);
	if (cJSON_GetArraySize(bc_rj(st, "nodes")))
		s_entity_charts(f, r, st, i, 2);
	s_sweep_charts(f, st, i);
	s_egress_chart(f, st, i);
	fprintf(f, "</div>\n");
	s_step_notes(f, st);
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

/* one node's window figure at each point of the sweep named sweep_of, null where unknown */
static cJSON *s_node_points(const cJSON *steps, const char *sweep_of, const char *node,
			    const char *key, int max)
{
	cJSON *arr = cJSON_CreateArray();
	const cJSON *st, *nd;
	int k = 0;

	cJSON_ArrayForEach(st, steps)
	{
		const cJSON *v = NULL;

		if (k >= max || strcmp(bc_rj_str("", st, "sweep_of"), sweep_of))
			continue;
		cJSON_ArrayForEach(nd, bc_rj(st, "nodes"))
		{
			if (!strcmp(bc_rj_str("", nd, "name"), node))
				v = bc_rj(nd, "counters", "window", key);
		}
		cJSON_AddItemToArray(arr, cJSON_IsNumber(v) ? cJSON_CreateNumber(v->valuedouble)
							    : cJSON_CreateNull());
		k++;
	}
	return arr;
}

/*
 * Per storage node across the last sweep: NIC use, CPU, how many cores
 * are saturated, the busiest disk - where a ceiling shows which resource
 * flattened with the throughput and which still had room.
 */
static void s_node_charts(FILE *f, const struct bc_report *r)
{
	static const struct {
		const char *key, *title, *ylabel;
	} figs[] = {
	    {"net_tx_util_pct", "Node NIC tx", "% of link"},
	    {"cpu_busy_pct", "Node CPU busy", "% of every core"},
	    {"cpu_sat_cores", "Node cores >= 95% busy", "cores"},
	    {"disk_util_max_pct", "Node busiest disk", "% busy"},
	};
	const cJSON *steps = bc_rj(r->run, "steps"), *st, *lead = NULL, *nd;
	const char *param;
	double *x;
	size_t k;
	int n, shown = 0;

	cJSON_ArrayForEach(st, steps) if (bc_rj(st, "sweep") && bc_rj(st, "sweep_of")) lead = st;
	if (!lead || !bc_rj(lead, "nodes"))
		return;
	param = bc_rj_str("value", lead, "sweep", "param");
	x = s_doubles(bc_rj(lead, "sweep", "values"), 1, &n);
	for (k = 0; x && k < sizeof(figs) / sizeof(figs[0]); k++) {
		struct s_chart ch;
		cJSON *arrs[S_MAXS];
		int j = 0, i;
		bool any = false;

		s_chart_init(&ch, lead, 0, figs[k].key);
		snprintf(ch.id, sizeof(ch.id), "nodes-%s", figs[k].key);
		snprintf(ch.title, sizeof(ch.title), "%s vs %s", figs[k].title, param);
		snprintf(ch.ylabel, sizeof(ch.ylabel), "%s", figs[k].ylabel);
		ch.c.x_label = param;
		ch.c.x_min = ch.c.x_max = 0;
		ch.c.shade_to = -1;
		ch.c.x_log2 = !strcmp(param, "iodepth") || !strcmp(param, "numjobs");
		cJSON_ArrayForEach(nd, bc_rj(lead, "nodes"))
		{
			const cJSON *v;

			if (j >= S_MAXS || !bc_rj(nd, "counters"))
				continue;
			arrs[j] = s_node_points(steps, bc_rj_str("", lead, "sweep_of"),
						bc_rj_str("?", nd, "name"), figs[k].key, n);
			cJSON_ArrayForEach(v, arrs[j]) any |= cJSON_IsNumber(v);
			s_chart_add(&ch, bc_rj_str("?", nd, "name"), arrs[j], 1, j, false);
			if (ch.ns)
				ch.s[ch.ns - 1].x = x;
			j++;
		}
		if (any) {
			if (!shown++)
				fprintf(f, "<h2>Storage nodes across the sweep</h2>\n<div "
					   "class=\"charts\">");
			s_chart_emit(f, &ch);
		} else {
			for (i = 0; i < ch.ns; i++)
				free((void *)ch.s[i].y);
		}
		for (i = 0; i < j; i++)
			cJSON_Delete(arrs[i]);
	}
	if (shown)
		fprintf(f, "</div>\n");
	free(x);
}

int bc_report_html(const struct bc_report *r, FILE *f)
{
	const cJSON *steps = bc_rj(r->run, "steps"), *st;
	int i = 0;

	s_head(f, r, "", "");
	s_header(f, r);
	if (bc_report_summarised(r))
		fprintf(f, "<p>Every volume and client host, with its figures in each step: "
			   "<a href=\"volumes.html\">volumes.html</a> (a page) and <a "
			   "href=\"volumes.csv\">volumes.csv</a> (a table).</p>\n");
	bc_table_emit(f, bc_table_expect, r, true, 2);
	bc_table_emit(f, bc_table_suspects, r, true, 2);
	bc_table_emit(f, bc_table_sweep_points, r, true, 2);
	s_node_charts(f, r);
	bc_table_emit(f, bc_table_verdicts, r, true, 2);
	if (cJSON_GetArraySize(steps))
		s_overview(f, steps);
	bc_table_emit(f, bc_table_repeats, r, true, 2);
	bc_table_emit(f, bc_table_series_ci, r, true, 2);
	bc_table_emit(f, bc_table_rw, r, true, 2);
	s_environment(f, r, false);
	cJSON_ArrayForEach(st, steps) s_step(f, r, st, i++);
	s_waf(f, steps);
	if (cJSON_GetArraySize(steps))
		bc_chart_html(f, r);
	fprintf(f, "<p class=\"muted\">Written from run.json by <code>bench-coord report</code>. "
		   "Charts show every second of each step; the shaded start is the ramp, excluded "
		   "from the tables.</p>\n</main>\n</body>\n</html>\n");
	return ferror(f) ? -EIO : 0;
}

int bc_report_volumes_html(const struct bc_report *r, FILE *f)
{
	const cJSON *steps = bc_rj(r->run, "steps"), *st;
	int i = 0;

	/*
	 * tables of 17,000 rows as plain tables: the scrolling block the
	 * report's tables are doubles Chromium's time to lay them out
	 * (bench/report-open.sh; docs/results.md)
	 */
	s_head(f, r, ": every volume and client host", "table{display:table;max-width:none}");
	fprintf(f, "<h1>");
	s_esc(f, bc_rj_str("?", r->run, "profile"));
	fprintf(f, ": every volume and client host</h1>\n<p class=\"muted\">The window figures "
		   "of each step at every level, listed whole (<a href=\"report.html\">report.html"
		   "</a> summarises the levels too large for it; <a href=\"volumes.csv\">"
		   "volumes.csv</a> has the same rows).</p>\n");
	cJSON_ArrayForEach(st, steps)
	{
		fprintf(f, "<h2 id=\"s%d\">Step ", i);
		s_esc(f, bc_rj_str("?", st, "name"));
		fprintf(f, " ");
		s_badge(f, bc_rj_str("?", st, "status"));
		fprintf(f, "</h2>\n");
		s_step_table(f, r, st, i++, true);
	}
	fprintf(f, "<div id=\"environment\"></div>\n");
	s_environment(f, r, true);
	fprintf(f, "</main>\n</body>\n</html>\n");
	return ferror(f) ? -EIO : 0;
}
