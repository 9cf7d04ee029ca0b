/*
 * report/parts/svg.c - the chart primitives of report.html, written as inline SVG
 * so the page needs no script, font or network: line charts (per-second
 * series, sweep curves) and bar charts, each with a title, axes with units
 * and "nice" ticks (1, 2, 2.5, 5 x 10^n), a legend with one colour per
 * entity, an optional shaded range (the ramp) and an optional marker (the
 * knee). Sizes are in SVG user units; the page scales the viewBox.
 */
#include <math.h>
#include <string.h>

#include "report/parts/fmt.h"
#include "report/parts/svg.h"

#define S_W	   460 /* chart width */
#define S_PLOT_H   190 /* plot area height */
#define S_LEFT	   62  /* room for y tick labels and the y axis title */
#define S_RIGHT	   14
#define S_BOTTOM   40 /* x tick labels and the x axis title */
#define S_LEG_ROW  16
#define S_CHAR_W   6.4 /* average glyph width at 11px, for the legend layout */
#define S_NAME_MAX 30  /* legend labels are cut beyond this (full name in <title>) */

/* Tableau 10: distinguishable, and still distinct in greyscale print */
static const char *const s_palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
					"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define S_NPAL ((int)(sizeof(s_palette) / sizeof(s_palette[0])))

const char *bc_svg_color(int i)
{
	return i < 0 ? "#222222" : s_palette[i % S_NPAL];
}

/* past the palette, colours repeat with a dash pattern so lines stay apart */
static const char *s_dash(int i)
{
	static const char *const dashes[] = {"", "6 3", "2 3", "8 3 2 3"};

	return i < 0 ? "" : dashes[(i / S_NPAL) % 4];
}

/* the tick step for about `want` ticks over range: 1, 2, 2.5 or 5 x 10^n */
static double s_nice_step(double range, int want)
{
	double raw = range / want, p = pow(10, floor(log10(raw))), m = raw / p;

	if (!(range > 0))
		return 1;
	return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
}

/* "2.5k", "1.2M", "0.25": decimals as the step needs, SI suffix for big values */
static void s_tick_label(double v, double step, char *buf, size_t len)
{
	double div = step >= 1e6 ? 1e6 : step >= 1e3 ? 1e3 : 1;
	const char *sfx = div == 1e6 ? "M" : div == 1e3 ? "k" : "";
	int d;

	v /= div;
	step /= div;
	for (d = 0; d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6; d++)
		;
	snprintf(buf, len, "%.*f%s", d, v, sfx);
}

static void s_esc(FILE *f, const char *s)
{
	bc_html_puts(f, s);
}

/* the label cut to S_NAME_MAX bytes on a UTF-8 boundary, with an ellipsis */
static void s_short(FILE *f, const char *s)
{
	char buf[S_NAME_MAX + 8];
	size_t n = strlen(s);

	if (n <= S_NAME_MAX) {
		s_esc(f, s);
		return;
	}
	n = S_NAME_MAX - 1;
	while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	memcpy(buf, s, n);
	memcpy(buf + n, "\xe2\x80\xa6", 4);
	s_esc(f, buf);
}

struct s_frame {
	double x0, x1, ymax, step_y;
	double top, plot_w;
	int height;
	bool log2;
};

static double s_xpos(const struct s_frame *fr, double x)
{
	if (fr->log2)
		x = x > 0 ? log2(x) : 0;
	return S_LEFT + (x - fr->x0) / (fr->x1 - fr->x0) * fr->plot_w;
}

static double s_ypos(const struct s_frame *fr, double y)
{
	return fr->top + S_PLOT_H - (y / fr->ymax) * S_PLOT_H;
}

static double s_x_of(const struct bc_svg_series *s, int i)
{
	return s->x ? s->x[i] : i + 0.5;
}

/* legend rows needed for these names */
static int s_legend_rows(const char *const *names, int n)
{
	double x = 0, w;
	int rows = n ? 1 : 0, i;

	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);

		w = 26 + S_CHAR_W * (double)(len > S_NAME_MAX ? S_NAME_MAX : len);
		if (x > 0 && x + w > S_W - S_LEFT - S_RIGHT) {
			rows++;
			x = 0;
		}
		x += w;
	}
	return rows;
}

static void s_legend(FILE *f, const struct bc_svg_series *s, int ns, double y0)
{
	double x = S_LEFT, w;
	int i;

	for (i = 0; i < ns; i++) {
		size_t len = strlen(s[i].name);

		w = 26 + S_CHAR_W * (double)(len > S_NAME_MAX ? S_NAME_MAX : len);
		if (x > S_LEFT && x + w > S_W - S_RIGHT) {
			x = S_LEFT;
			y0 += S_LEG_ROW;
		}
		const char *dash = s[i].dashed ? "4 3" : s_dash(s[i].color);

		fprintf(f, "<g class=\"legend\"><title>");
		s_esc(f, s[i].name);
		fprintf(f,
			"</title><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"%s\"%s%s%s/>",
			x, y0 - 4, x + 18, y0 - 4, bc_svg_color(s[i].color),
			s[i].color < 0 ? "3" : "2", *dash ? " stroke-dasharray=\"" : "", dash,
			*dash ? "\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 22, y0);
		s_short(f, s[i].name);
		fprintf(f, "</text></g>\n");
		x += w;
	}
}

static void s_open(FILE *f, const struct bc_svg_chart *c, int height)
{
	fprintf(f, "<svg class=\"chart\" data-chart=\"");
	s_esc(f, c->id);
	fprintf(f,
		"\" viewBox=\"0 0 %d %d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">"
		"<title>",
		S_W, height);
	s_esc(f, c->title);
	fprintf(f, "</title>\n<text class=\"ct\" x=\"%d\" y=\"16\">", S_LEFT);
	s_esc(f, c->title);
	fprintf(f, "</text>\n");
}

/* grid, ticks, axis titles; x ticks at xticks[] when given, else nice steps or none */
static void s_axes(FILE *f, const struct bc_svg_chart *c, const struct s_frame *fr,
		   const double *xticks, int nxt, bool auto_x)
{
	double bottom = fr->top + S_PLOT_H, y, step_x;
	char lab[32];
	int i;

	for (y = 0; y <= fr->ymax + fr->step_y * 1e-6; y += fr->step_y) {
		s_tick_label(y, fr->step_y, lab, sizeof(lab));
		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"yt\" x=\"%d\" y=\"%.1f\">%s</text>\n",
			S_LEFT, s_ypos(fr, y), S_LEFT + fr->plot_w, s_ypos(fr, y), S_LEFT - 5,
			s_ypos(fr, y) + 3.5, lab);
	}
	if (xticks) {
		for (i = 0; i < nxt; i++) {
			s_tick_label(xticks[i], 1, lab, sizeof(lab));
			fprintf(f, "<text class=\"xt\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
				s_xpos(fr, xticks[i]), bottom + 14, lab);
		}
	} else if (auto_x) {
		step_x = s_nice_step(fr->x1 - fr->x0, 8);
		for (y = ceil(fr->x0 / step_x) * step_x; y <= fr->x1 + 1e-9; y += step_x) {
			s_tick_label(y, step_x, lab, sizeof(lab));
			fprintf(f,
				"<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/><text class=\"xt\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
				s_xpos(fr, y), bottom, s_xpos(fr, y), bottom + 4, s_xpos(fr, y),
				bottom + 14, lab);
		}
	}
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
		S_LEFT, bottom, S_LEFT + fr->plot_w, bottom, S_LEFT, fr->top, S_LEFT, bottom);
	fprintf(f, "<text class=\"xl\" x=\"%.1f\" y=\"%.1f\">", S_LEFT + fr->plot_w / 2,
		bottom + 31);
	s_esc(f, c->x_label);
	fprintf(f, "</text><text class=\"yl\" transform=\"translate(13 %.1f) rotate(-90)\">",
		fr->top + S_PLOT_H / 2.0);
	s_esc(f, c->y_label);
	fprintf(f, "</text>\n");
}

static double s_ymax(const struct bc_svg_series *s, int ns)
{
	double m = 0;
	int i, k;

	for (i = 0; i < ns; i++)
		for (k = 0; k < s[i].n; k++)
			if (isfinite(s[i].y[k]) && s[i].y[k] > m)
				m = s[i].y[k];
	return m;
}

static void s_frame_y(struct s_frame *fr, double max)
{
	if (!(max > 0))
		max = 1;
	fr->step_y = s_nice_step(max, 5);
	fr->ymax = ceil(max / fr->step_y - 1e-9) * fr->step_y;
}

void bc_svg_lines(FILE *f, const struct bc_svg_chart *c, const struct bc_svg_series *s, int ns)
{
	const char *names[64];
	struct s_frame fr = {.plot_w = S_W - S_LEFT - S_RIGHT, .log2 = c->x_log2};
	double xt[64];
	int i, k, rows, nxt = 0;

	for (i = 0; i < ns && i < 64; i++)
		names[i] = s[i].name;
	rows = s_legend_rows(names, ns < 64 ? ns : 64);
	fr.top = 26 + rows * S_LEG_ROW;
	fr.height = (int)fr.top + S_PLOT_H + S_BOTTOM;
	fr.x0 = c->x_min;
	fr.x1 = c->x_max;
	if (fr.x1 <= fr.x0) {
		fr.x0 = INFINITY;
		fr.x1 = -INFINITY;
		for (i = 0; i < ns; i++) {
			for (k = 0; k < s[i].n; k++) {
				double x = s_x_of(&s[i], k);

				fr.x0 = fmin(fr.x0, s[i].x ? x : 0);
				fr.x1 = fmax(fr.x1, s[i].x ? x : k + 1);
			}
		}
		if (!(fr.x1 > fr.x0)) {
			fr.x0 = 0;
			fr.x1 = 1;
		}
	}
	/* sweeps: ticks at the swept values, evenly spaced in log2 */
	if (fr.log2) {
		for (k = 0; ns && s[0].x && k < s[0].n && nxt < 64; k++)
			xt[nxt++] = s[0].x[k];
		fr.x0 = log2(fmax(fr.x0, 1));
		fr.x1 = log2(fmax(fr.x1, 2));
		if (fr.x1 <= fr.x0)
			fr.x1 = fr.x0 + 1;
		/* half a step of margin so the end points are not on the frame */
		fr.x0 -= 0.25;
		fr.x1 += 0.25;
	}
	s_frame_y(&fr, s_ymax(s, ns));
	s_open(f, c, fr.height);
	s_legend(f, s, ns, 26 + S_LEG_ROW - 4);
	if (c->shade_to > fr.x0 && !fr.log2) {
		double x1 = s_xpos(&fr, fmin(c->shade_to, fr.x1));

		fprintf(f,
			"<rect class=\"shade\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"/>"
			"<text class=\"sl\" x=\"%d\" y=\"%.1f\">",
			S_LEFT, fr.top, x1 - S_LEFT, S_PLOT_H, S_LEFT + 3, fr.top + 10);
		s_esc(f, c->shade_label ? c->shade_label : "");
		fprintf(f, "</text>\n");
	}
	s_axes(f, c, &fr, fr.log2 ? xt : NULL, nxt, true);
	for (i = 0; i < ns; i++) {
		const char *dash = s[i].dashed ? "4 3" : s_dash(s[i].color);
		bool open = false;

		fprintf(f, "<g class=\"series\"><title>");
		s_esc(f, s[i].name);
		fprintf(f, "</title>");
		for (k = 0; k < s[i].n; k++) {
			if (!isfinite(s[i].y[k])) {
				if (open)
					fprintf(f, "\"/>");
				open = false;
				continue;
			}
			if (!open)
				fprintf(f,
					"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\""
					"%s%s%s points=\"",
					bc_svg_color(s[i].color), s[i].color < 0 ? "2.4" : "1.6",
					*dash ? " stroke-dasharray=\"" : "", dash,
					*dash ? "\"" : "");
			open = true;
			fprintf(f, "%.1f,%.1f ", s_xpos(&fr, s_x_of(&s[i], k)),
				s_ypos(&fr, s[i].y[k]));
		}
		if (open)
			fprintf(f, "\"/>");
		/* sweeps have few points: mark them */
		for (k = 0; fr.log2 && k < s[i].n; k++)
			if (isfinite(s[i].y[k]))
				fprintf(f,
					"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>",
					s_xpos(&fr, s_x_of(&s[i], k)), s_ypos(&fr, s[i].y[k]),
					bc_svg_color(s[i].color));
		fprintf(f, "</g>\n");
	}
	if (c->has_mark) {
		double x = s_xpos(&fr, c->mark_x);

		fprintf(f,
			"<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"ml\" x=\"%.1f\" y=\"%.1f\">",
			x, fr.top, x, fr.top + S_PLOT_H, x + 3, fr.top + 10);
		s_esc(f, c->mark_label ? c->mark_label : "");
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</svg>\n");
}

void bc_svg_bars(FILE *f, const struct bc_svg_chart *c, const char *const *labels, const double *v,
		 int n)
{
	struct s_frame fr = {.plot_w = S_W - S_LEFT - S_RIGHT, .top = 30};
	double slot, max = 0, bottom;
	int i;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > max)
			max = v[i];
	s_frame_y(&fr, max);
	fr.x0 = 0;
	fr.x1 = n > 0 ? n : 1;
	fr.height = (int)fr.top + S_PLOT_H + S_BOTTOM;
	bottom = fr.top + S_PLOT_H;
	slot = fr.plot_w / fr.x1;
	s_open(f, c, fr.height);
	s_axes(f, c, &fr, NULL, 0, false);
	for (i = 0; i < n; i++) {
		double y = isfinite(v[i]) ? v[i] : 0, x = S_LEFT + slot * i + slot * 0.2;
		char num[32];

		fprintf(f, "<g class=\"series\"><title>");
		s_esc(f, labels[i]);
		fprintf(f,
			"</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\"/>",
			x, s_ypos(&fr, y), slot * 0.6, bottom - s_ypos(&fr, y), bc_svg_color(i));
		fprintf(f, "<text class=\"bv\" x=\"%.1f\" y=\"%.1f\">%s</text>", x + slot * 0.3,
			s_ypos(&fr, y) - 3, bc_fmt_num(round(y * 1000) / 1000, num, sizeof(num)));
		fprintf(f, "<text class=\"xt\" x=\"%.1f\" y=\"%.1f\">", x + slot * 0.3,
			bottom + 14);
		s_short(f, labels[i]);
		fprintf(f, "</text></g>\n");
	}
	fprintf(f, "</svg>\n");
}
