/*
 * report/compare.c - compare.html (`bench-coord compare --html FILE`): two
 * or more runs on one self-contained page, the second half of a PoV (before
 * and after a tuning change, vendor A against vendor B): the runs, what the
 * statistics support step by step (report/parts/versus.h), each sweep of
 * the first run overlaid with the same sweep of the others (throughput and
 * p99 against the swept value, p99 against throughput), and each step's
 * IOPS and p99 per run as bars with their 95% intervals beside its table.
 * The page is report.html's (style, interactive charts, policy).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/draw/live.h"
#include "report/draw/svg.h"
#include "report/parts/fmt.h"
#include "report/parts/sweep.h"
#include "report/parts/table.h"
#include "report/parts/versus.h"
#include "report/writers.h"
#include "util/rjson.h"

/* the runs as the charts name them; the runs table says which is which */
static const char *const s_letter[BC_VS_RUNS] = {
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K",  "L",  "M",	"N",  "O",  "P",
    "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "AA", "AB", "AC", "AD", "AE", "AF"};

/* a figure of the interval rule as the reports print it: latency in its unit, counts grouped */
static const char *s_val(int fig, double v, char *buf, size_t len)
{
	if (bc_vs_figs[fig].lat)
		return bc_fmt_lat_us(v * 1e3, buf, len);
	if (!bc_vs_figs[fig].decimals)
		return bc_fmt_int(round(v), buf, len);
	snprintf(buf, len, "%.*f", bc_vs_figs[fig].decimals, v);
	return buf;
}

static void s_runs(FILE *f, const struct bc_report *runs, const char *const *labels, int n)
{
	static const char *const cols[] = {"", "run", "profile", "started", "status", "tool", NULL};
	struct bc_table *t = bc_table_new("Runs", cols);
	int r;

	if (!t)
		return;
	snprintf(
	    t->intro, sizeof(t->intro),
	    "Each run against the first (A): higher, lower or not distinguishable from the 95%% "
	    "interval of the difference, over each step's repetitions, else over its seconds "
	    "(docs/statistics.md).");
	for (r = 0; r < n; r++) {
		char letter[2] = {(char)('A' + r), '\0'};

		bc_table_swatch(t, r, letter);
		bc_table_text(t, labels[r]);
		bc_table_text(t, bc_rj_str("?", runs[r].run, "profile"));
		bc_table_text(t, bc_rj_str("?", runs[r].run, "started"));
		bc_table_cell(t, BC_CELL_STATUS, "%s", bc_rj_str("?", runs[r].run, "status"));
		bc_table_text(t, bc_rj_str("?", runs[r].run, "tool"));
	}
	bc_table_html(f, t, 2);
	bc_table_destroy(&t);
}

/* the sweep of run r named as sw is, NULL when it has none */
static const struct bc_sweep *s_match(const struct bc_sweep *v, int n, const char *name)
{
	int k;

	for (k = 0; k < n; k++)
		if (!strcmp(v[k].name, name))
			return &v[k];
	return NULL;
}

/* one overlay chart of sweep k: which 0 IOPS, 1 p99 against the value, 2 p99 against IOPS */
static void s_overlay(FILE *f, const struct bc_sweep *const *sw, const char *const *labels, int n,
		      int k, int which)
{
	static const char *const what[] = {"iops", "p99", "p99-vs-iops"};
	double(*x)[BC_SWEEP_POINTS] = calloc((size_t)n, sizeof(*x));
	double(*y)[BC_SWEEP_POINTS] = calloc((size_t)n, sizeof(*y));
	const struct bc_sweep *a = sw[0];
	struct bc_series *s = calloc((size_t)n, sizeof(*s));
	double ticks[BC_SWEEP_POINTS];
	const char *tl[BC_SWEEP_POINTS];
	char id[64], title[160];
	struct bc_chart c = {.id = id, .title = title, .knee = -1};
	int r, i, ns = 0;

	if (!x || !y || !s)
		goto out;
	snprintf(id, sizeof(id), "cmp%d-%s", k, what[which]);
	for (i = 0; i < a->n; i++) {
		ticks[i] = a->pt[i].value;
		tl[i] = a->pt[i].label;
	}
	c.x.label = which == 2 ? "IOPS" : a->param;
	c.x.kind = which == 2 ? BC_AXIS_LIN : a->x_log2 ? BC_AXIS_LOG2 : BC_AXIS_LIN;
	c.x.ticks = ticks;
	c.x.tick_labels = tl;
	c.x.nticks = which == 2 ? 0 : a->n;
	c.y.label = which == 0 ? "IOPS" : "p99 latency";
	c.y.fmt = which == 0 ? BC_FMT_SI : BC_FMT_LAT_US;
	snprintf(title, sizeof(title), "%s: %s, run by run", a->name,
		 which == 0   ? "IOPS against the swept value"
		 : which == 1 ? "p99 against the swept value"
			      : "p99 against IOPS");
	for (r = 0; r < n; r++) {
		if (!sw[r])
			continue;
		for (i = 0; i < sw[r]->n; i++) {
			x[r][i] = which == 2 ? sw[r]->pt[i].iops : sw[r]->pt[i].value;
			y[r][i] = which == 0 ? sw[r]->pt[i].iops : sw[r]->pt[i].p99_us;
		}
		s[ns].name = s_letter[r];
		s[ns].x = x[r];
		s[ns].y = y[r];
		s[ns].n = sw[r]->n;
		s[ns].color = r;
		s[ns].points = true;
		ns++;
	}
	if (which)
		bc_chart_auto_log(&c, s, ns, 20);
	bc_live_figure(f, &c, s, ns);
out:
	free(x);
	free(y);
	free(s);
}

static void s_sweeps(FILE *f, const struct bc_report *runs, const char *const *labels, int n)
{
	struct bc_sweep **v = calloc((size_t)n, sizeof(*v));
	const struct bc_sweep **row = calloc((size_t)n, sizeof(*row));
	int *nv = calloc((size_t)n, sizeof(*nv)), r, k, w;

	if (!v || !row || !nv)
		goto out;
	for (r = 0; r < n; r++)
		nv[r] = bc_sweeps_make(&runs[r], &v[r]);
	for (k = 0; k < nv[0]; k++) {
		row[0] = &v[0][k];
		for (r = 1; r < n; r++)
			row[r] = s_match(v[r], nv[r], v[0][k].name);
		fprintf(f, "<h2 id=\"cmp-sweep-%d\">Sweep ", k);
		bc_html_puts(f, v[0][k].name);
		fprintf(f, " over ");
		bc_html_puts(f, v[0][k].param);
		fprintf(f, ", run by run</h2>\n<div class=\"charts\">\n");
		for (w = 0; w < 3; w++)
			s_overlay(f, row, labels, n, k, w);
		fprintf(f, "</div>\n");
	}
out:
	for (r = 0; v && r < n; r++)
		free(v[r]);
	free(v);
	free(row);
	free(nv);
}

/* a step: its IOPS and p99 per run as bars with their intervals, and its table */
static void s_step(FILE *f, const struct bc_vs_step *vs, const char *const *labels, int n, int k)
{
	static const char *const cols[] = {
	    "run", "figure", "=mean", "=95% interval", "=difference from A", "verdict", NULL};
	static const int figs[] = {0, 3};
	struct bc_table *t = bc_table_new("", cols);
	int r, i, j;

	fprintf(f, "<h3 id=\"cmp-step-%d\">", k);
	bc_html_puts(f, vs->name);
	fprintf(f, " <span class=\"badge %s\">",
		vs->differ	 ? "bad"
		: vs->comparable ? "ok"
				 : "warn");
	bc_html_puts(f, vs->differ	 ? "different"
			: vs->comparable ? "not distinguishable"
					 : "not comparable");
	fprintf(f, "</span></h3>\n<p>");
	bc_html_puts(f, vs->verdict);
	fprintf(f, "</p>\n<div class=\"story\">\n<div class=\"charts\">\n");
	for (j = 0; j < 2; j++) {
		double v[BC_VS_RUNS], lo[BC_VS_RUNS], hi[BC_VS_RUNS];
		int colors[BC_VS_RUNS];
		char id[48], title[96];
		struct bc_svg_chart c = {.id = id,
					 .title = title,
					 .x_label = "run",
					 .y_label = figs[j] ? "p99 (ms)" : "IOPS",
					 .lo = lo,
					 .hi = hi,
					 .colors = colors};
		const struct bc_vs_cell *x;

		for (r = 0; r < n && r < BC_VS_RUNS; r++) {
			x = &vs->cell[r][figs[j]];
			v[r] = x->have ? x->ci.mean : NAN;
			lo[r] = x->have && !isnan(x->ci.half) ? x->ci.lo : NAN;
			hi[r] = x->have && !isnan(x->ci.half) ? x->ci.hi : NAN;
			colors[r] = r;
		}
		snprintf(id, sizeof(id), "cmp-s%d-%s", k, figs[j] ? "p99" : "iops");
		snprintf(title, sizeof(title), "%s with its 95%% interval",
			 bc_vs_figs[figs[j]].head);
		fprintf(f, "<figure>");
		bc_svg_bars(f, &c, s_letter, v, n < BC_VS_RUNS ? n : BC_VS_RUNS);
		fprintf(f, "</figure>\n");
	}
	fprintf(f, "</div>\n<div>");
	for (r = 0; t && r < n && r < BC_VS_RUNS; r++)
		for (i = 0; i < BC_VS_FIGS; i++) {
			const struct bc_vs_cell *x = &vs->cell[r][i];
			char iv[96];

			bc_table_text(t, s_letter[r]);
			/* "p99 ms" of the terminal: here the unit is the cell's */
			bc_table_cell(t, BC_CELL_TEXT, "%.*s",
				      (int)strcspn(bc_vs_figs[i].head, " "), bc_vs_figs[i].head);
			if (!x->have) {
				bc_table_text(t, "absent");
				bc_table_text(t, "");
				bc_table_text(t, "");
				bc_table_text(t, "");
				continue;
			}
			bc_table_text(t, s_val(i, x->ci.mean, iv, sizeof(iv)));
			if (isnan(x->ci.half)) {
				bc_vs_ci_text(x, bc_vs_figs[i].decimals, iv, sizeof(iv));
			} else {
				char lo[32], hi[32];

				snprintf(iv, sizeof(iv), "[%s, %s] (%d %s)",
					 s_val(i, x->ci.lo, lo, sizeof(lo)),
					 s_val(i, x->ci.hi, hi, sizeof(hi)), x->ci.n,
					 x->reps ? "reps" : "s");
			}
			bc_table_text(t, iv);
			bc_table_text(t, x->diff);
			if (!r)
				bc_table_text(t, "(reference)");
			else
				bc_table_cell(t,
					      x->cmp == BC_CMP_HIGHER || x->cmp == BC_CMP_LOWER
						  ? BC_CELL_STRONG
						  : BC_CELL_TEXT,
					      "%s", bc_cmp_word(x->cmp));
		}
	bc_table_html(f, t, 4);
	bc_table_destroy(&t);
	fprintf(f, "</div>\n</div>\n");
}

int bc_report_compare_html(FILE *f, const struct bc_report *runs, const char *const *labels, int n,
			   const char *const *names, int nnames)
{
	const cJSON *rj[BC_VS_RUNS];
	struct bc_vs_step *vs = calloc((size_t)(nnames ? nnames : 1), sizeof(*vs));
	int r, k, differ = 0, same = 0, none = 0;

	if (!vs)
		return -ENOMEM;
	n = n < BC_VS_RUNS ? n : BC_VS_RUNS;
	for (r = 0; r < n; r++)
		rj[r] = runs[r].run;
	for (k = 0; k < nnames; k++) {
		bc_vs_step(rj, labels, n, names[k], &vs[k]);
		differ += vs[k].differ;
		same += !vs[k].differ && vs[k].comparable;
		none += !vs[k].differ && !vs[k].comparable;
	}
	bc_report_html_head(f, "compare");
	fprintf(f,
		"<h1>Comparison of %d runs</h1>\n<section class=\"summary\" id=\"summary\">\n"
		"<h2>Summary</h2>\n<p class=\"ceiling\" data-fig=\"steps\" data-value=\"%d\">"
		"%d step(s): %d different, %d not distinguishable, %d not comparable.</p>\n<ul>\n",
		n, nnames, nnames, differ, same, none);
	for (k = 0; k < nnames; k++) {
		fprintf(f, "<li><a href=\"#cmp-step-%d\">", k);
		bc_html_puts(f, vs[k].name);
		fprintf(f, "</a>: ");
		bc_html_puts(f, vs[k].verdict);
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ul>\n</section>\n");
	s_runs(f, runs, labels, n);
	s_sweeps(f, runs, labels, n);
	fprintf(f, "<h2>Steps</h2>\n");
	for (k = 0; k < nnames; k++)
		s_step(f, &vs[k], labels, n, k);
	fprintf(f,
		"<p class=\"muted\">Written by <code>bench-coord compare --html</code> from each "
		"run's run.json. Charts: drag to zoom, double-click to reset.</p>\n");
	bc_report_html_tail(f);
	free(vs);
	return ferror(f) ? -EIO : 0;
}
