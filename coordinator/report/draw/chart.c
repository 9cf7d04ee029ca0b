/*
 * report/draw/chart.c - the latency charts storage engineers look at, for
 * report.html and as standalone SVG files in <run>/charts/ (each chart
 * carries its own <style>, so a file pasted elsewhere looks the same):
 *  - latency distribution per step and level: the histogram (share of I/Os
 *    per latency bin, log latency axis) and the percentile curve (latency
 *    against "nines", both axes log), read and write apart when the step
 *    mixes them, one line per client host / storage node at those levels;
 *  - a latency heatmap over the step's seconds from the per-second
 *    histograms the run data reader binned (bc_rundata_heat; shade = share
 *    of that second's I/Os, or of a column's past BC_HEAT_COLS seconds).
 * Latency bins are 10 per decade of the histograms' bucket midpoints (the
 * histograms themselves have 128 per power of two); percentiles come from
 * merged histograms, never from averaged ones.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agg/secfile.h"
#include "report/draw/chart.h"
#include "report/parts/fmt.h"
#include "report/parts/rundata.h"
#include "report/draw/svg.h"
#include "report/parts/steptab.h"
#include "results/files/outfail.h"
#include "util/base64.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/hist.h"
#include "wire/stats.h"

#define S_ENT_MAX 8 /* lines per level chart; more are named in a note */

#define S_W 520
#define S_H 300
#define S_L 62
#define S_R 34
#define S_T 30
#define S_B 58

static const char s_style[] =
    "<style>.bcx text{font:11px system-ui,\"DejaVu Sans\",Arial,sans-serif;fill:#3d4656}"
    ".bcx .t{font-weight:600;font-size:12.5px;fill:#1d2430}.bcx .g{stroke:#e6e9ef}"
    ".bcx .a{stroke:#8a94a6}.bcx .xt,.bcx .xl{text-anchor:middle}.bcx .yt{text-anchor:end}"
    ".bcx .yl{text-anchor:middle}.bcx .k{stroke:#cf222e;stroke-dasharray:4 3}"
    ".bcx .kl{fill:#cf222e}.bcx .n{fill:#5b6575;font-style:italic}</style>";

/* ---- a plot frame with linear or log10 axes ---- */

struct s_plot {
	FILE *f;
	double x0, x1, y0, y1; /* data domain, log10 of it on a log axis */
	bool xlog, ylog;
	int h;
};

static double s_px(const struct s_plot *p, double x)
{
	if (p->xlog)
		x = log10(x);
	return S_L + (x - p->x0) / (p->x1 - p->x0) * (S_W - S_L - S_R);
}

static double s_py(const struct s_plot *p, double y)
{
	if (p->ylog)
		y = log10(y > 0 ? y : 1e-300);
	if (y < p->y0)
		y = p->y0;
	return S_T + (p->y1 - y) / (p->y1 - p->y0) * (p->h - S_T - S_B);
}

/* "100 ns", "10 us", "1 ms", "1 s" for a power of ten of microseconds */
static void s_lat_label(double us, char *buf, size_t len)
{
	if (us < 1)
		snprintf(buf, len, "%.0f ns", us * 1e3);
	else if (us < 1e3)
		snprintf(buf, len, "%.0f us", us);
	else if (us < 1e6)
		snprintf(buf, len, "%.0f ms", us / 1e3);
	else
		snprintf(buf, len, "%.0f s", us / 1e6);
}

static void s_open(FILE *f, const char *id, const char *title, int h, bool file)
{
	if (file)
		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f,
		"<svg class=\"chart bcx\" data-chart=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		"height=\"%d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">%s<title>",
		id, S_W, h, S_W, h, s_style);
	bc_html_puts(f, title);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", S_W, h);
	fprintf(f, "<text class=\"t\" x=\"%d\" y=\"17\">", S_L);
	bc_html_puts(f, title);
	fprintf(f, "</text>\n");
}

/* log axis ticks at powers of ten (latency labels when lat), else nice linear steps */
static void s_ticks(const struct s_plot *p, bool xaxis, bool lat, const char *label)
{
	double lo = xaxis ? p->x0 : p->y0, hi = xaxis ? p->x1 : p->y1, v, step;
	bool lg = xaxis ? p->xlog : p->ylog;
	int bottom = p->h - S_B;
	char b[32];

	step = lg ? 1 : pow(10, floor(log10((hi - lo) / 4)));
	if (!lg && (hi - lo) / step > 8)
		step *= (hi - lo) / step > 16 ? 5 : 2;
	for (v = ceil(lo / step - 1e-9) * step; v <= hi + 1e-9; v += step) {
		double d = lg ? pow(10, v) : fabs(v) < step * 1e-9 ? 0 : v;

		if (lat)
			s_lat_label(d, b, sizeof(b));
		else
			snprintf(b, sizeof(b), "%g", d);
		if (xaxis) {
			double x = s_px(p, d);

			fprintf(p->f,
				"<line class=\"g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
				"<text class=\"xt\" x=\"%.1f\" y=\"%d\">%s</text>\n",
				x, x, S_T, bottom, x, bottom + 14, b);
		} else {
			double y = s_py(p, d);

			fprintf(p->f,
				"<line class=\"g\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
				"<text class=\"yt\" x=\"%d\" y=\"%.1f\">%s</text>\n",
				S_L, S_W - S_R, y, y, S_L - 4, y + 4, b);
		}
	}
	if (xaxis)
		fprintf(p->f, "<text class=\"xl\" x=\"%d\" y=\"%d\">%s</text>\n",
			S_L + (S_W - S_L - S_R) / 2, bottom + 30, label);
	else
		fprintf(p->f,
			"<text class=\"yl\" transform=\"translate(14 %d) rotate(-90)\">%s</text>\n",
			S_T + (p->h - S_T - S_B) / 2, label);
}

/* the plot's border, and a legend row under the x axis title */
static void s_frame(const struct s_plot *p)
{
	fprintf(p->f,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" class=\"a\"/>\n",
		S_L, S_T, S_W - S_L - S_R, p->h - S_T - S_B);
}

static void s_legend(const struct s_plot *p, const char *const *names, const int *colors, int n)
{
	int i, x = S_L;

	for (i = 0; i < n; i++) {
		fprintf(p->f,
			"<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">",
			x, p->h - 14, bc_fmt_color(colors[i]), x + 14, p->h - 5);
		bc_html_puts(p->f, names[i]);
		fprintf(p->f, "</text>\n");
		x += 24 + 7 * (int)strnlen(names[i], 40);
	}
}

static void s_polyline(const struct s_plot *p, const double *x, const double *y, int n, int color)
{
	int i;

	fprintf(p->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"",
		bc_fmt_color(color));
	for (i = 0; i < n; i++)
		fprintf(p->f, "%s%.1f,%.1f", i ? " " : "", s_px(p, x[i]), s_py(p, y[i]));
	fprintf(p->f, "\"/>\n");
}

/* ---- latency distribution of merged histograms ---- */

/* one line of a distribution chart: a merged histogram and its name */
struct s_dist {
	char name[BC_NAME_MAX + 16];
	struct bc_hist *h;
	int color;
};

static void s_add_pairs(struct bc_hist *h, const cJSON *pairs)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, pairs)
	{
		double i = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 0));
		double n = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 1));

		if (i >= 0 && i < BC_HIST_BUCKETS && n > 0) {
			h->buckets[(unsigned)i] += (uint64_t)n;
			h->count += (uint64_t)n;
		}
	}
}

/*
 * the lines of a level: the total's read and write apart when the step
 * mixes them (else all ops), or one line per entity (all ops merged)
 */
static int s_dists(const cJSON *st, int lvl, struct s_dist *d, int *more)
{
	const cJSON *t = bc_rj(st, "total"), *e;
	int n = 0;

	*more = 0;
	if (lvl == 0) {
		/* metadata operations beside data I/O: a line of their own too */
		bool mixed = bc_tab_mixed(t) ||
			     (bc_rj_num(t, "meta", "ios") > 0 &&
			      bc_rj_num(t, "read", "ios") + bc_rj_num(t, "write", "ios") > 0);
		int k;

		for (k = 0; k < 3; k++) {
			static const char *const ops[] = {"read", "write", "meta"};
			const char *op = ops[k];

			if (!(bc_rj_num(t, op, "ios") > 0))
				continue;
			if (!mixed && n) {
				s_add_pairs(d[0].h, bc_rj(t, op, "hist"));
				continue;
			}
			snprintf(d[n].name, sizeof(d[n].name), "%s", mixed ? op : "all I/Os");
			d[n].color = k;
			s_add_pairs(d[n].h, bc_rj(t, op, "hist"));
			n++;
		}
		return n;
	}
	cJSON_ArrayForEach(e, bc_rj(st, bc_report_levels[lvl].key))
	{
		if (n == S_ENT_MAX) {
			(*more)++;
			continue;
		}
		snprintf(d[n].name, sizeof(d[n].name), "%s", bc_rj_str("?", e, "name"));
		d[n].color = n;
		s_add_pairs(d[n].h, bc_rj(e, "read", "hist"));
		s_add_pairs(d[n].h, bc_rj(e, "write", "hist"));
		s_add_pairs(d[n].h, bc_rj(e, "trim", "hist"));
		s_add_pairs(d[n].h, bc_rj(e, "meta", "hist"));
		if (d[n].h->count)
			n++;
		else
			memset(d[n].h, 0, sizeof(*d[n].h));
	}
	return n;
}

/* the latency range (us) every line's non-empty bins cover, whole decades */
static void s_lat_range(const struct s_dist *d, int n, double *lo, double *hi)
{
	int i;
	unsigned b;

	*lo = 1e12;
	*hi = 0;
	for (i = 0; i < n; i++)
		for (b = 0; b < (int)BC_HIST_BUCKETS; b++)
			if (d[i].h->buckets[b]) {
				double us = (double)bc_hist_bucket_mid(b) / 1e3;

				*lo = fmin(*lo, us);
				*hi = fmax(*hi, us);
			}
	*lo = floor(log10(fmax(*lo, BC_LAT_LO_US)));
	*hi = ceil(log10(fmax(*hi, BC_LAT_LO_US * 10)) + 1e-9);
	if (*hi <= *lo)
		*hi = *lo + 1;
}

static void s_hist_chart(FILE *f, const char *id, const char *title, const struct s_dist *d, int n,
			 int more, bool file)
{
	struct s_plot p = {.f = f, .xlog = true, .h = S_H};
	double share[BC_LAT_BINS], x[2 * BC_LAT_BINS + 2], y[2 * BC_LAT_BINS + 2], ymax = 0;
	const char *names[S_ENT_MAX];
	int colors[S_ENT_MAX], i, b, k;

	s_lat_range(d, n, &p.x0, &p.x1);
	for (i = 0; i < n; i++) {
		memset(share, 0, sizeof(share));
		for (b = 0; b < (int)BC_HIST_BUCKETS; b++)
			if (d[i].h->buckets[b])
				share[bc_lat_bin((double)bc_hist_bucket_mid((unsigned)b) / 1e3)] +=
				    100.0 * (double)d[i].h->buckets[b] / (double)d[i].h->count;
		for (b = 0; b < BC_LAT_BINS; b++)
			ymax = fmax(ymax, share[b]);
	}
	p.y0 = 0;
	p.y1 = ymax > 0 ? ymax * 1.08 : 1;
	s_open(f, id, title, p.h, file);
	s_ticks(&p, true, true, "latency (log scale)");
	s_ticks(&p, false, false, "% of I/Os per bin (10 bins a decade)");
	for (i = 0; i < n; i++) {
		memset(share, 0, sizeof(share));
		for (b = 0; b < (int)BC_HIST_BUCKETS; b++)
			if (d[i].h->buckets[b])
				share[bc_lat_bin((double)bc_hist_bucket_mid((unsigned)b) / 1e3)] +=
				    100.0 * (double)d[i].h->buckets[b] / (double)d[i].h->count;
		/* a step outline over the plotted decades */
		k = 0;
		for (b = (int)round((p.x0 - log10(BC_LAT_LO_US)) * BC_LAT_BINS_DECADE);
		     b < (int)round((p.x1 - log10(BC_LAT_LO_US)) * BC_LAT_BINS_DECADE) &&
		     b < BC_LAT_BINS;
		     b++) {
			if (b < 0)
				continue;
			x[k] = bc_lat_bin_lo(b);
			y[k++] = share[b];
			x[k] = bc_lat_bin_lo(b + 1);
			y[k++] = share[b];
		}
		s_polyline(&p, x, y, k, d[i].color);
		names[i] = d[i].name;
		colors[i] = d[i].color;
	}
	s_frame(&p);
	s_legend(&p, names, colors, n);
	if (more)
		fprintf(f, "<text class=\"n\" x=\"%d\" y=\"%d\">+%d more not drawn</text>\n",
			S_W - 130, p.h - 5, more);
	fprintf(f, "</svg>\n");
}

/* x of a percentile on the "nines" axis: 0 at p0, 1 at p90, 2 at p99 ... */
static double s_nines(double frac_below)
{
	return -log10(1 - frac_below);
}

static void s_pct_chart(FILE *f, const char *id, const char *title, const struct s_dist *d, int n,
			int more, bool file)
{
	static const char *const lab[] = {"",	    "p90",     "p99",	  "p99.9",
					  "p99.99", "p99.999", "p99.9999"};
	struct s_plot p = {.f = f, .ylog = true, .h = S_H};
	const char *names[S_ENT_MAX];
	int colors[S_ENT_MAX], i, k, maxn = 0;
	double *x = malloc(sizeof(double) * (BC_HIST_BUCKETS + 1));
	double *y = malloc(sizeof(double) * (BC_HIST_BUCKETS + 1));

	if (!x || !y)
		goto out;
	s_lat_range(d, n, &p.y0, &p.y1);
	for (i = 0; i < n; i++)
		maxn = (int)fmax(maxn, ceil(log10((double)d[i].h->count)));
	p.x0 = 0;
	p.x1 = maxn < 2 ? 2 : maxn > 6 ? 6 : maxn;
	s_open(f, id, title, p.h, file);
	for (k = 0; k <= (int)p.x1; k++) {
		double px = s_px(&p, k);

		fprintf(f,
			"<line class=\"g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
			"<text class=\"xt\" x=\"%.1f\" y=\"%d\">%s</text>\n",
			px, px, S_T, p.h - S_B, px, p.h - S_B + 14, lab[k]);
	}
	fprintf(f,
		"<line class=\"g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/><text "
		"class=\"xt\" x=\"%.1f\" y=\"%d\">p50</text>\n",
		s_px(&p, log10(2)), s_px(&p, log10(2)), S_T, p.h - S_B, s_px(&p, log10(2)),
		p.h - S_B + 14);
	fprintf(f,
		"<text class=\"xl\" x=\"%d\" y=\"%d\">percentile (log scale of 1/(1-p))</text>\n",
		S_L + (S_W - S_L - S_R) / 2, p.h - S_B + 30);
	s_ticks(&p, false, true, "latency (log scale)");
	for (i = 0; i < n; i++) {
		double below = 0, cnt = (double)d[i].h->count;
		unsigned b;

		k = 0;
		for (b = 0; b < BC_HIST_BUCKETS; b++) {
			if (!d[i].h->buckets[b])
				continue;
			/* the bucket's value is reached at the share of I/Os below it */
			if (s_nines(below / cnt) <= p.x1) {
				x[k] = s_nines(below / cnt);
				y[k++] = (double)bc_hist_bucket_mid(b) / 1e3;
			}
			below += (double)d[i].h->buckets[b];
		}
		s_polyline(&p, x, y, k, d[i].color);
		names[i] = d[i].name;
		colors[i] = d[i].color;
	}
	s_frame(&p);
	s_legend(&p, names, colors, n);
	if (more)
		fprintf(f, "<text class=\"n\" x=\"%d\" y=\"%d\">+%d more not drawn</text>\n",
			S_W - 130, p.h - 5, more);
	fprintf(f, "</svg>\n");
out:
	free(x);
	free(y);
}

/* ---- heatmap ---- */

/* the shade of a bin holding share sh of its column's I/Os, 1..S_HEAT_SHADES; 0: none */
#define S_HEAT_SHADES 20
static int s_heat_shade(double sh)
{
	if (sh <= 0)
		return 0;
	/*
	 * by log share: 1e-4 of the column's I/Os is faint, all of them dark;
	 * in 20 steps, which the eye cannot tell finer apart and which let
	 * neighbouring bins share one cell
	 */
	return (int)lround(S_HEAT_SHADES * fmin(1, fmax(0.05, (log10(sh) + 4) / 4)));
}

/*
 * The shade of every cell: shade[c * BC_LAT_BINS + b] for column c (h->g
 * seconds, summed as they were read: report/parts/rundata.h) and bin b in
 * [lo, hi], its column's share of I/Os (s_heat_shade).
 */
static void s_heat_shades(const struct bc_heat_step *h, int op, int lo, int hi,
			  unsigned char *shade)
{
	const double *c = h->cnt[op];
	int s, b;

	for (s = 0; s < h->cols; s++) {
		double tot = 0;

		for (b = lo; b <= hi; b++)
			tot += c[s * BC_LAT_BINS + b];
		for (b = lo; b <= hi; b++)
			shade[s * BC_LAT_BINS + b] =
			    tot > 0 ? (unsigned char)s_heat_shade(c[s * BC_LAT_BINS + b] / tot) : 0;
	}
}

static void s_heat_chart(FILE *f, const char *id, const char *title, const struct bc_heat_step *h,
			 int op, const cJSON *st, bool file)
{
	struct s_plot p = {.f = f, .ylog = true, .h = S_H + 20};
	const double *c = h->cnt[op];
	double ramp = bc_rj_num(st, "measured_from_second");
	char colnote[32];
	/* seconds a column: past BC_HEAT_COLS they would be thinner than 3 px */
	int g = h->g, s, b, lo = BC_LAT_BINS, hi = 0, ncol, sh;
	unsigned char *shade;

	for (s = 0; s < h->cols; s++)
		for (b = 0; b < BC_LAT_BINS; b++)
			if (c[s * BC_LAT_BINS + b] > 0) {
				lo = b < lo ? b : lo;
				hi = b > hi ? b : hi;
			}
	if (hi < lo)
		return;
	ncol = h->cols;
	shade = calloc((size_t)ncol * BC_LAT_BINS, 1);
	if (!shade)
		return; /* the step's other charts are still drawn */
	s_heat_shades(h, op, lo, hi, shade);
	snprintf(colnote, sizeof(colnote), "; a column is %d s", g);
	p.x0 = 0;
	p.x1 = h->seconds;
	p.y0 = log10(bc_lat_bin_lo(lo));
	p.y1 = log10(bc_lat_bin_lo(hi + 1));
	s_open(f, id, title, p.h, file);
	s_ticks(&p, true, false, "second of the step");
	s_ticks(&p, false, true, "latency (log scale)");
	/*
	 * One <path> per shade, a subpath per cell (a run of a column's bins of
	 * that shade): it draws what a <rect> per cell would, but Chromium's cost
	 * is per element - as rects, a 10-point sweep's 20 heatmaps are 48,000
	 * elements and ~4 s of report.html's opening on a 2-core VM.
	 */
	for (sh = 1; sh <= S_HEAT_SHADES; sh++) {
		bool open = false;

		for (s = 0; s < ncol; s++) {
			const unsigned char *cs = &shade[(size_t)s * BC_LAT_BINS];
			double x0 = s_px(&p, (double)s * g);
			double x1 =
			    s_px(&p, (double)(s + 1) * g < h->seconds ? (s + 1) * g : h->seconds);

			for (b = lo; b <= hi; b++) {
				int run = b;
				double y0, y1;

				if (cs[b] != sh)
					continue;
				/* a run of bins of one shade is one cell: it draws the same */
				while (run < hi && cs[run + 1] == sh)
					run++;
				if (!open)
					fprintf(f,
						"<path fill=\"#08306b\" fill-opacity=\"%.2f\" d=\"",
						(double)sh / S_HEAT_SHADES);
				open = true;
				y0 = s_py(&p, bc_lat_bin_lo(run + 1));
				y1 = s_py(&p, bc_lat_bin_lo(b));
				fprintf(f, "M%.1f %.1fh%.1fv%.1fh%.1fz", x0, y0, x1 - x0 + 0.3,
					y1 - y0 + 0.3, -(x1 - x0 + 0.3));
				b = run;
			}
		}
		if (open)
			fprintf(f, "\"/>\n");
	}
	free(shade);
	if (ramp > 0)
		fprintf(f,
			"<line class=\"k\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
			"<text class=\"kl\" x=\"%.1f\" y=\"%d\">ramp end</text>\n",
			s_px(&p, ramp), s_px(&p, ramp), S_T, p.h - S_B, s_px(&p, ramp) + 3,
			S_T + 11);
	s_frame(&p);
	fprintf(f,
		"<text class=\"n\" x=\"%d\" y=\"%d\">shade: share of the %s's I/Os in the bin, "
		"log scale (1e-4 to 1)%s</text>\n",
		S_L, p.h - 8, g > 1 ? "column" : "second", g > 1 ? colnote : "");
	fprintf(f, "</svg>\n");
}

/* ---- the charts of one step, inline or as files ---- */

/* a chart id from the step's index and name: [A-Za-z0-9._-] only (file names, ids) */
static void s_id(char *buf, size_t len, int i, const cJSON *st, const char *kind)
{
	const char *name = bc_rj_str("step", st, "name");
	size_t k, o;

	o = (size_t)snprintf(buf, len, "s%d-", i);
	for (k = 0; name[k] && o + 1 < len; k++) {
		char ch = name[k];

		buf[o++] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
				   (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_'
			       ? ch
			       : '_';
	}
	buf[o < len ? o : len - 1] = '\0';
	snprintf(buf + strlen(buf), len - strlen(buf), "-%s", kind);
}

FILE *bc_chart_open(struct bc_chart_file *cf, const char *dir, const char *name)
{
	snprintf(cf->path, sizeof(cf->path), "%s/charts/%s", dir, name);
	snprintf(cf->tmp, sizeof(cf->tmp), "%s/charts/.%s.tmp", dir, name);
	errno = 0;
	cf->f = fopen(cf->tmp, "w");
	if (!cf->f)
		bc_outfail_note(cf->path, errno ? -errno : -EIO);
	return cf->f;
}

int bc_chart_close(struct bc_chart_file *cf)
{
	int rc = 0;

	if (!cf->f)
		return -EIO;
	errno = 0;
	if (fflush(cf->f) || ferror(cf->f))
		rc = errno ? -errno : -EIO;
	if (fclose(cf->f) && !rc)
		rc = errno ? -errno : -EIO;
	if (!rc && rename(cf->tmp, cf->path))
		rc = -errno;
	cf->f = NULL;
	if (!rc)
		return 0;
	unlink(cf->tmp);
	bc_outfail_note(cf->path, rc);
	return rc;
}

/* emit(f, id, ...) either into the page or into <dir>/charts/<id>.svg */
struct s_out {
	FILE *page;	 /* report.html, or NULL: files */
	const char *dir; /* with page NULL: the run directory */
	struct bc_chart_file cf;
	int rc; /* the first failure's -errno */
};

static FILE *s_begin(struct s_out *o, const char *id)
{
	char name[BC_NAME_MAX * 2 + 80];

	if (o->page) {
		fprintf(o->page, "<figure>");
		return o->page;
	}
	snprintf(name, sizeof(name), "%s.svg", id);
	if (!bc_chart_open(&o->cf, o->dir, name) && !o->rc)
		o->rc = -EIO;
	return o->cf.f;
}

static void s_end(struct s_out *o)
{
	int rc;

	if (o->page) {
		fprintf(o->page, "</figure>\n");
		return;
	}
	rc = o->cf.f ? bc_chart_close(&o->cf) : 0;
	if (rc && !o->rc)
		o->rc = rc;
}

static void s_step_charts(struct s_out *o, const struct bc_heat *ht, const cJSON *st, int i)
{
	static const char *const ops[] = {"read", "write"};
	char id[BC_NAME_MAX * 2 + 64], title[BC_NAME_MAX + 96];
	struct s_dist d[S_ENT_MAX];
	int lvl, n, more, k;
	FILE *f;

	for (k = 0; k < S_ENT_MAX; k++) {
		d[k].h = calloc(1, sizeof(*d[k].h));
		if (!d[k].h)
			goto out;
	}
	for (lvl = 0; lvl < 3; lvl++) {
		for (k = 0; k < S_ENT_MAX; k++)
			memset(d[k].h, 0, sizeof(*d[k].h));
		n = s_dists(st, lvl, d, &more);
		/* a level of one entity is the total again */
		if (!n || (lvl && n + more < 2))
			continue;
		for (k = 0; k < 2; k++) {
			char kind[48];

			snprintf(kind, sizeof(kind), "lat-%s-%s", k ? "pct" : "hist",
				 bc_report_levels[lvl].label);
			s_id(id, sizeof(id), i, st, kind);
			snprintf(title, sizeof(title), "%s: latency %s, %s%s",
				 bc_rj_str("?", st, "name"), k ? "percentiles" : "distribution",
				 lvl ? "per " : "", lvl ? bc_report_levels[lvl].label : "total");
			f = s_begin(o, id);
			if (!f)
				continue;
			if (k)
				s_pct_chart(f, id, title, d, n, more, !o->page);
			else
				s_hist_chart(f, id, title, d, n, more, !o->page);
			s_end(o);
		}
	}
	/* the heatmap: read and write apart when the step mixes them */
	if (ht && i < ht->nsteps && ht->st[i].cnt[0]) {
		const struct bc_heat_step *h = &ht->st[i];
		bool mixed = h->total[0] > 0 && h->total[1] > 0;

		for (k = 0; k < 2; k++) {
			if (!(h->total[k] > 0))
				continue;
			s_id(id, sizeof(id), i, st,
			     mixed ? (k ? "lat-heat-write" : "lat-heat-read") : "lat-heat");
			snprintf(title, sizeof(title), "%s: %s latency over time",
				 bc_rj_str("?", st, "name"), ops[k]);
			f = s_begin(o, id);
			if (!f)
				continue;
			s_heat_chart(f, id, title, h, k, st, !o->page);
			s_end(o);
		}
	}
out:
	for (k = 0; k < S_ENT_MAX; k++)
		free(d[k].h);
}

void bc_chart_html(FILE *f, const struct bc_report *r)
{
	const struct bc_heat *ht = r->heat;
	struct s_out o = {.page = f};
	const cJSON *st;
	int i = 0;

	fprintf(
	    f,
	    "<h2 id=\"latency-charts\">Latency charts</h2>\n<p class=\"muted\">Per step: "
	    "the latency distribution (histogram and percentiles, log scales) of the total "
	    "(read and write apart when mixed) and per client host and storage node; the "
	    "latency of every second from the per-second histograms. Each is also an SVG file in "
	    "<code>charts/</code>.");
	if (ht && ht->note[0]) {
		fprintf(f, " ");
		bc_html_puts(f, ht->note);
		fprintf(f, ".");
	}
	fprintf(f, "</p>\n");
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		fprintf(f, "<h3>");
		bc_html_puts(f, bc_rj_str("?", st, "name"));
		fprintf(f, "</h3>\n<div class=\"charts\">\n");
		s_step_charts(&o, ht, st, i++);
		fprintf(f, "</div>\n");
	}
}

int bc_chart_files(const struct bc_report *r)
{
	char dir[BC_PATH_MAX + 16];
	const struct bc_heat *ht = r->heat;
	struct s_out o = {.dir = r->dir};
	const cJSON *st;
	int i = 0;

	snprintf(dir, sizeof(dir), "%s/charts", r->dir);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		int rc = -errno;

		bc_outfail_note(dir, rc);
		return rc;
	}
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps")) s_step_charts(&o, ht, st, i++);
	return o.rc; /* each failure noted (results/files/outfail.h) */
}
