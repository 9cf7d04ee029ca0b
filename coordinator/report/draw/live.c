/*
 * report/draw/live.c - a chart as a figure of report.html
 * (report/draw/live.h): the static SVG, and beside it the same chart as
 * data (a <script type="application/json">, which is never run) for the
 * page's interactive charts. The keys, read by live.js:
 *   t  title
 *   x, y  axes {l label, k "lin"|"log10"|"log2"|"cat", f "si"|"lat", n (log
 *      scale noted), min, max, tv tick values, tl tick labels}
 *   x0  the x of point i is x0 + i (per-second series), or xs  the x of every
 *      point (the series of one chart share their x)
 *   s  series [{n name, c colour, d dash, w width, y values (null: a gap),
 *      p dots, lb point labels}]
 *   sh  [to, label] the shaded start; mk [x, label] the marker; kn the knee's
 *      point index
 * Numbers with six significant digits: the hover shows what run.json has.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/draw/live.h"
#include "report/draw/svg.h"
#include "report/parts/fmt.h"
#include "util/base64.h"
#include "util/sha256.h"

/* cmake/BcEmbed.cmake: the vendored uPlot, our adapter and driver (js/), uPlot's style */
extern const char bc_live_script[], bc_live_style[];
extern const unsigned long bc_live_script_len, bc_live_style_len;

/* a JSON string, escaped for a <script> element: no "</" can close it */
static void s_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '<' || ch == '>' || ch == '&' || ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void s_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fprintf(f, "null");
}

static void s_nums(FILE *f, const double *v, int n)
{
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		s_num(f, v[i]);
	}
	fputc(']', f);
}

static void s_axis(FILE *f, const char *key, const struct bc_axis *a)
{
	static const char *const kind[] = {"lin", "log10", "log2", "cat"};
	int i;

	fprintf(f, ",\"%s\":{\"l\":", key);
	s_str(f, a->label);
	fprintf(f, ",\"k\":\"%s\",\"f\":\"%s\"", kind[a->kind],
		a->fmt == BC_FMT_LAT_US ? "lat" : "si");
	if (a->log_note)
		fprintf(f, ",\"n\":1");
	if (a->max > a->min) {
		fprintf(f, ",\"min\":");
		s_num(f, a->min);
		fprintf(f, ",\"max\":");
		s_num(f, a->max);
	}
	if (a->nticks) {
		fprintf(f, ",\"tv\":");
		s_nums(f, a->ticks, a->nticks);
	}
	if (a->nticks && a->tick_labels) {
		fprintf(f, ",\"tl\":[");
		for (i = 0; i < a->nticks; i++) {
			if (i)
				fputc(',', f);
			s_str(f, a->tick_labels[i] ? a->tick_labels[i] : "");
		}
		fputc(']', f);
	}
	fputc('}', f);
}

static void s_series(FILE *f, const struct bc_series *s, int n)
{
	const char *dash = bc_plot_dash(s);
	int i;

	fprintf(f, "{\"n\":");
	s_str(f, s->name);
	fprintf(f, ",\"c\":\"%s\"", bc_fmt_color(s->color));
	if (*dash)
		fprintf(f, ",\"d\":\"%s\"", dash);
	if (s->color < 0)
		fprintf(f, ",\"w\":2.4");
	if (s->points)
		fprintf(f, ",\"p\":1");
	fprintf(f, ",\"y\":");
	/* every series as long as the chart's x: a shorter one ends in gaps */
	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		s_num(f, i < s->n ? s->y[i] : NAN);
	}
	fputc(']', f);
	if (s->labels) {
		fprintf(f, ",\"lb\":[");
		for (i = 0; i < s->n; i++) {
			if (i)
				fputc(',', f);
			s_str(f, s->labels[i] ? s->labels[i] : "");
		}
		fputc(']', f);
	}
	fputc('}', f);
}

void bc_live_data(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns)
{
	int i, n = 0;
	const double *xs = ns ? s[0].x : NULL;

	for (i = 0; i < ns; i++)
		n = s[i].n > n ? s[i].n : n;
	/* one x for the chart: series that do not share it are drawn as SVG only */
	for (i = 1; i < ns; i++)
		if (s[i].x != xs && !(s[i].n <= s[0].n && xs && s[i].x &&
				      !memcmp(s[i].x, xs, (size_t)s[i].n * sizeof(*xs))))
			return;
	fprintf(f, "<script type=\"application/json\" class=\"cd\">{\"t\":");
	s_str(f, c->title);
	s_axis(f, "x", &c->x);
	s_axis(f, "y", &c->y);
	if (xs) {
		fprintf(f, ",\"xs\":");
		s_nums(f, xs, n);
	} else {
		fprintf(f, ",\"x0\":0.5");
	}
	fprintf(f, ",\"s\":[");
	for (i = 0; i < ns; i++) {
		if (i)
			fputc(',', f);
		s_series(f, &s[i], n);
	}
	fputc(']', f);
	if (c->shade_to > 0 && c->x.kind == BC_AXIS_LIN) {
		fprintf(f, ",\"sh\":[");
		s_num(f, c->shade_to);
		fputc(',', f);
		s_str(f, c->shade_label ? c->shade_label : "");
		fputc(']', f);
	}
	if (c->has_mark) {
		fprintf(f, ",\"mk\":[");
		s_num(f, c->mark_x);
		fputc(',', f);
		s_str(f, c->mark_label ? c->mark_label : "");
		fputc(']', f);
	}
	if (c->knee >= 0)
		fprintf(f, ",\"kn\":%d", c->knee);
	fprintf(f, "}</script>");
}

void bc_live_figure(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns)
{
	fprintf(f, "<figure>");
	bc_svg_plot(f, c, s, ns, false);
	bc_live_data(f, c, s, ns);
	fprintf(f, "</figure>\n");
}

void bc_live_csp(FILE *f)
{
	char b64[64] = "";
	uint8_t h[32];

	/* the one inline script the page runs, by its hash: no other can */
	bc_sha256(bc_live_script, bc_live_script_len, h);
	bc_base64_encode(b64, h, sizeof(h));
	fprintf(f, " script-src 'sha256-%s';", b64);
}

void bc_live_style_css(FILE *f)
{
	fwrite(bc_live_style, 1, bc_live_style_len, f);
	/* on screen the live chart stands in for the SVG; printed, the SVG is drawn */
	fprintf(f,
		"figure.on svg.chart{display:none}.live .u-title{font-size:12.5px;"
		"font-weight:600;text-align:left;padding-left:8px}.live .u-legend{font-size:11px}"
		"@media print{figure.on svg.chart{display:block}.live{display:none}}");
}

void bc_live_script_tag(FILE *f)
{
	fprintf(f, "<script>");
	fwrite(bc_live_script, 1, bc_live_script_len, f);
	fprintf(f, "</script>\n");
}
