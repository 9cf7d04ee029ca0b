/*
 * report/draw/stepcharts.c - the charts of a step in report.html
 * (report/draw/stepcharts.h): per second, IOPS, MB/s and latency
 * percentiles of the total; IOPS, MB/s and p99 per client host and storage
 * node (a line each, or the spread across them at fleet size); node egress
 * against the link rate; a summarised level's distributions; and node
 * counters across a sweep. Each chart is built as chart data
 * (report/draw/plot.h) and drawn by report/draw/live.c. Latency is given in
 * microseconds and the axis chooses its unit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/draw/live.h"
#include "report/draw/stepcharts.h"
#include "report/draw/svg.h"
#include "report/parts/fmt.h"
#include "report/parts/rank.h"
#include "report/parts/rundata.h"
#include "report/parts/sweep.h"
#include "results/fullsize.h"
#include "results/long/minutes.h"
#include "util/rjson.h"

/* series of up to S_MAXS entities on one chart; more are named in the title */
#define S_MAXS	   48
#define S_MAXS_STR "48"
#define S_LOG_SPAN 20 /* a latency axis is in decades beyond this max / min */

struct s_chart {
	struct bc_chart c;
	struct bc_series s[S_MAXS];
	int ns;
	double *own[S_MAXS]; /* the arrays the series point into */
	char id[96], title[200], names[S_MAXS][BC_NAME_MAX + 16];
};

/* a run.json number array as doubles; caller frees */
static double *s_doubles(const cJSON *arr, int *n)
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
	cJSON_ArrayForEach(x, arr) v[i++] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	return v;
}

/* a per-second chart of step st (index i): time on x, the ramp shaded */
static void s_init(struct s_chart *ch, const cJSON *st, int i, const char *what, const char *ylabel,
		   bool lat)
{
	memset(ch, 0, sizeof(*ch));
	snprintf(ch->id, sizeof(ch->id), "s%d-%s", i, what);
	ch->c.id = ch->id;
	ch->c.title = ch->title;
	ch->c.knee = -1;
	ch->c.x.label = "time in step (s)";
	ch->c.x.min = 0;
	ch->c.x.max = bc_rj_num(st, "seconds");
	ch->c.y.label = ylabel;
	ch->c.y.fmt = lat ? BC_FMT_LAT_US : BC_FMT_SI;
	ch->c.shade_to = bc_rj_num(st, "measured_from_second");
	ch->c.shade_label = "ramp";
	/* a long step's series are minutes (results/long/minutes.h) */
	if (bc_long_step((uint32_t)ch->c.x.max)) {
		ch->c.x.label = "time in step (min)";
		ch->c.x.max = ceil(ch->c.x.max / BC_MINUTE_S);
		ch->c.shade_to /= BC_MINUTE_S;
	}
}

/* a series from a run.json array (copied: the chart owns it) */
static struct bc_series *s_add(struct s_chart *ch, const char *name, const cJSON *arr, int color,
			       bool dashed)
{
	struct bc_series *s;

	if (ch->ns >= S_MAXS || !arr)
		return NULL;
	s = &ch->s[ch->ns];
	memset(s, 0, sizeof(*s));
	snprintf(ch->names[ch->ns], sizeof(ch->names[0]), "%s", name);
	s->name = ch->names[ch->ns];
	s->y = ch->own[ch->ns] = s_doubles(arr, &s->n);
	s->color = color;
	s->dashed = dashed;
	ch->ns++;
	return s;
}

static void s_emit(FILE *f, struct s_chart *ch)
{
	int i;

	/* a p99.9 in ms beside a p50 in us: decades, or the p50 is a flat line */
	if (ch->c.y.fmt == BC_FMT_LAT_US)
		bc_chart_auto_log(&ch->c, ch->s, ch->ns, S_LOG_SPAN);
	bc_live_figure(f, &ch->c, ch->s, ch->ns);
	for (i = 0; i < ch->ns; i++)
		free(ch->own[i]);
	ch->ns = 0;
}

static void s_total(FILE *f, const cJSON *st, int i)
{
	static const char *const pk[] = {"lat_p50_us", "lat_p99_us", "lat_p99.9_us"};
	static const char *const pn[] = {"p50", "p99", "p99.9"};
	const cJSON *t = bc_rj(st, "total");
	/* a long step's total per minute: the mean second, its lowest and highest */
	const char *sk = bc_rj(t, "series") ? "series" : "minutes";
	bool min = !strcmp(sk, "minutes");
	struct s_chart ch;
	size_t k;

	s_init(&ch, st, i, "iops-total", "IOPS", false);
	snprintf(ch.title, sizeof(ch.title), min ? "IOPS per minute, total" : "IOPS, total");
	s_add(&ch, min ? "mean second" : "total", bc_rj(t, sk, "iops"), -1, false);
	s_add(&ch, "reads", bc_rj(t, sk, "read_iops"), 0, true);
	if (min) {
		s_add(&ch, "lowest second", bc_rj(t, sk, "iops_min"), 2, true);
		s_add(&ch, "highest second", bc_rj(t, sk, "iops_max"), 4, true);
	}
	s_emit(f, &ch);

	s_init(&ch, st, i, "mbps-total", "MB/s", false);
	snprintf(ch.title, sizeof(ch.title),
		 min ? "Bandwidth per minute, total" : "Bandwidth, total");
	s_add(&ch, "total", bc_rj(t, sk, "mbps"), -1, false);
	s_emit(f, &ch);

	s_init(&ch, st, i, "lat-total", "latency", true);
	snprintf(ch.title, sizeof(ch.title),
		 min ? "Latency percentiles per minute (merged), total"
		     : "Latency percentiles, total");
	for (k = 0; k < sizeof(pk) / sizeof(pk[0]); k++)
		s_add(&ch, pn[k], bc_rj(t, sk, pk[k]), k == 1 ? -1 : (int)k * 2, false);
	s_emit(f, &ch);
}

/*
 * A level too large for a line each (client hosts above the summary
 * limit): per second, the lowest, 10th percentile, median, 90th percentile
 * and highest of the figure across its entities (bc_rank_spread)
 */
static void s_spread(FILE *f, const struct bc_report *r, const cJSON *st, int i, const char *key,
		     int m)
{
	static const char *const what[] = {"iops", "mbps", "p99"};
	static const char *const keys[] = {"iops", "mbps", "lat_p99_us"};
	static const char *const title[] = {"IOPS", "Bandwidth", "p99 latency"};
	static const char *const ylab[] = {"IOPS", "MB/s", "p99 latency"};
	static const char *const qname[BC_RANK_SPREAD] = {"lowest", "p10", "median", "p90",
							  "highest"};
	static const int color[BC_RANK_SPREAD] = {1, 0, -1, 0, 1};
	const cJSON *ents = bc_rj(st, key);
	double *y[BC_RANK_SPREAD];
	int n = (int)bc_rj_num(st, "seconds"), q;
	struct s_chart ch;
	char id[48];

	if (n <= 0 || bc_rank_spread(r, st, ents, keys[m], n, y))
		return;
	snprintf(id, sizeof(id), "%s-%s", what[m], key);
	s_init(&ch, st, i, id, ylab[m], m == 2);
	snprintf(ch.title, sizeof(ch.title), "%s across the %d client hosts, per second", title[m],
		 cJSON_GetArraySize(ents));
	for (q = 0; q < BC_RANK_SPREAD; q++) {
		struct bc_series *sr = &ch.s[ch.ns];

		memset(sr, 0, sizeof(*sr));
		sr->name = qname[q];
		sr->y = ch.own[ch.ns] = y[q];
		sr->n = n;
		sr->color = color[q];
		sr->dashed = q == 0 || q == BC_RANK_SPREAD - 1;
		ch.ns++;
	}
	s_emit(f, &ch);
}

/*
 * IOPS, MB/s and p99 with one line per agent (lvl 1) or node (lvl 2); their
 * series from run.json, or from seconds.bin while the run writes it
 * (bc_report_series), read once for the S_MAXS entities the charts show
 */
static void s_entities(FILE *f, const struct bc_report *r, const cJSON *st, int i, int lvl)
{
	static const char *const what[] = {"iops", "mbps", "p99"};
	static const char *const keys[] = {"iops", "mbps", "lat_p99_us"};
	static const char *const ylab[] = {"IOPS", "MB/s", "p99 latency"};
	const char *key = bc_report_levels[lvl].key;
	const char *who = lvl == 1 ? "client host" : "storage node";
	const cJSON *ents = bc_rj(st, key), *e, *ser[S_MAXS], *es[S_MAXS];
	cJSON *tmp[S_MAXS];
	int m, c, j, ne = 0, n = cJSON_GetArraySize(ents);
	struct s_chart ch;
	char id[48];

	if (!bc_report_whole(r, lvl, n)) {
		for (m = 0; m < 3; m++)
			s_spread(f, r, st, i, key, m);
		return;
	}
	cJSON_ArrayForEach(e, ents)
	{
		if (ne == S_MAXS)
			break;
		es[ne] = e;
		ser[ne] = bc_report_series(r, st, e, &tmp[ne]);
		ne++;
	}
	for (m = 0; m < 3; m++) {
		snprintf(id, sizeof(id), "%s-%s", what[m], key);
		s_init(&ch, st, i, id, ylab[m], m == 2);
		/* beyond S_MAXS lines a chart says which it shows (the tables have all) */
		snprintf(ch.title, sizeof(ch.title), "%s per %s%s",
			 m == 0	  ? "IOPS"
			 : m == 1 ? "Bandwidth"
				  : "p99 latency",
			 who, n > S_MAXS ? " (first " S_MAXS_STR ")" : "");
		for (c = 0; c < ne; c++)
			s_add(&ch, bc_rj_str("?", es[c], "name"), bc_rj(ser[c], keys[m]), c, false);
		s_emit(f, &ch);
	}
	for (j = 0; j < ne; j++)
		cJSON_Delete(tmp[j]);
}

/* steps[].nodes[].counters.series.net_tx_mbps against link_mbps */
static void s_egress(FILE *f, const cJSON *st, int i)
{
	const cJSON *n;
	struct s_chart ch;
	cJSON *links = cJSON_CreateArray();
	char name[BC_NAME_MAX + 16];
	int c = 0, k;

	s_init(&ch, st, i, "node-egress", "MB/s", false);
	snprintf(ch.title, sizeof(ch.title), "Storage node egress vs link rate");
	cJSON_ArrayForEach(n, bc_rj(st, "nodes"))
	{
		const cJSON *tx = bc_rj(n, "counters", "series", "net_tx_mbps");
		double link = bc_rj_num(n, "counters", "link_mbps");

		if (tx && ch.ns + 2 <= S_MAXS) {
			s_add(&ch, bc_rj_str("?", n, "name"), tx, c, false);
			if (link > 0) {
				cJSON *flat = cJSON_CreateArray();

				for (k = 0; k < cJSON_GetArraySize(tx); k++)
					cJSON_AddItemToArray(flat, cJSON_CreateNumber(link));
				cJSON_AddItemToArray(links, flat);
				snprintf(name, sizeof(name), "%s link", bc_rj_str("?", n, "name"));
				s_add(&ch, name, flat, c, true);
			}
		}
		c++;
	}
	if (ch.ns)
		s_emit(f, &ch);
	cJSON_Delete(links);
}

void bc_stepcharts_html(FILE *f, const struct bc_report *r, const cJSON *st, int i)
{
	if (bc_rj(st, "total", "series") || bc_rj(st, "total", "minutes"))
		s_total(f, st, i);
	if (cJSON_GetArraySize(bc_rj(st, "agents")))
		s_entities(f, r, st, i, 1);
	if (cJSON_GetArraySize(bc_rj(st, "nodes")))
		s_entities(f, r, st, i, 2);
	s_egress(f, st, i);
}

void bc_stepcharts_rank_html(FILE *f, const struct bc_rank *k, const char *who, int i, int lvl)
{
	const struct bc_rank_fig *d[2] = {&k->iops, &k->p99_ms};
	static const char *const fig[2] = {"IOPS", "p99 ms"};
	int j, b;

	for (j = 0; j < 2; j++) {
		char labels[BC_RANK_BINS][32], title[96], xl[64], id[48], yl[48];
		const char *lp[BC_RANK_BINS];
		double v[BC_RANK_BINS];
		struct bc_svg_chart c = {.id = id, .title = title, .x_label = xl, .y_label = yl};

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
		fprintf(f, "<figure>");
		bc_svg_bars(f, &c, lp, v, BC_RANK_BINS);
		fprintf(f, "</figure>\n");
	}
}

/* one node's window figure at each point of sweep sw, NAN where unknown */
static void s_node_points(const struct bc_sweep *sw, const char *node, const char *key, double *y)
{
	const cJSON *nd;
	int k;

	for (k = 0; k < sw->n; k++) {
		y[k] = NAN;
		cJSON_ArrayForEach(nd, bc_rj(sw->pt[k].step, "nodes"))
		{
			const cJSON *v = bc_rj(nd, "counters", "window", key);

			if (!strcmp(bc_rj_str("", nd, "name"), node) && cJSON_IsNumber(v))
				y[k] = v->valuedouble;
		}
	}
}

int bc_stepcharts_nodes_html(FILE *f, const struct bc_sweep *sw, int ksw)
{
	static const struct {
		const char *key, *title, *ylabel;
	} figs[] = {
	    {"net_tx_util_pct", "Node NIC tx", "% of link"},
	    {"cpu_busy_pct", "Node CPU busy", "% of every core"},
	    {"cpu_sat_cores", "Node cores >= 95% busy", "cores"},
	    {"disk_util_max_pct", "Node busiest disk", "% busy"},
	};
	const cJSON *nd;
	double x[BC_SWEEP_POINTS], ticks[BC_SWEEP_POINTS];
	const char *labels[BC_SWEEP_POINTS];
	size_t k;
	int shown = 0, p;

	for (p = 0; p < sw->n; p++) {
		x[p] = ticks[p] = sw->pt[p].value;
		labels[p] = sw->pt[p].label;
	}
	for (k = 0; k < sizeof(figs) / sizeof(figs[0]); k++) {
		struct s_chart ch;
		double(*y)[BC_SWEEP_POINTS] = calloc(S_MAXS, sizeof(*y));
		bool any = false;
		int j = 0;

		if (!y)
			break;
		memset(&ch, 0, sizeof(ch));
		/* the first sweep's: nodes-<figure>; a later one's: nodes<k>-<figure> */
		if (ksw)
			snprintf(ch.id, sizeof(ch.id), "nodes%d-%s", ksw, figs[k].key);
		else
			snprintf(ch.id, sizeof(ch.id), "nodes-%s", figs[k].key);
		ch.c.id = ch.id;
		ch.c.title = ch.title;
		ch.c.knee = -1;
		snprintf(ch.title, sizeof(ch.title), "%s vs %s", figs[k].title, sw->param);
		ch.c.y.label = figs[k].ylabel;
		ch.c.x.label = sw->param;
		ch.c.x.kind = sw->x_log2 ? BC_AXIS_LOG2 : BC_AXIS_LIN;
		ch.c.x.ticks = ticks;
		ch.c.x.tick_labels = labels;
		ch.c.x.nticks = sw->n;
		ch.c.shade_to = -1;
		if (sw->knee >= 0) {
			ch.c.has_mark = true;
			ch.c.mark_x = x[sw->knee];
			ch.c.mark_label = "knee";
		}
		cJSON_ArrayForEach(nd, bc_rj(sw->last, "nodes"))
		{
			struct bc_series *s = &ch.s[ch.ns];

			if (j >= S_MAXS || !bc_rj(nd, "counters"))
				continue;
			s_node_points(sw, bc_rj_str("?", nd, "name"), figs[k].key, y[j]);
			for (p = 0; p < sw->n; p++)
				any |= isfinite(y[j][p]);
			memset(s, 0, sizeof(*s));
			snprintf(ch.names[ch.ns], sizeof(ch.names[0]), "%s",
				 bc_rj_str("?", nd, "name"));
			s->name = ch.names[ch.ns];
			s->x = x;
			s->y = y[j];
			s->n = sw->n;
			s->color = j;
			s->points = true;
			ch.ns++;
			j++;
		}
		if (any) {
			if (!shown++)
				fprintf(f, "<h3>Storage nodes across the sweep</h3>\n<div "
					   "class=\"charts\">\n");
			bc_live_figure(f, &ch.c, ch.s, ch.ns);
		}
		free(y);
	}
	if (shown)
		fprintf(f, "</div>\n");
	return shown;
}
