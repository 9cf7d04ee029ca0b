/*
 * report/draw/svg.c - charts as SVG: a line chart laid out by
 * report/draw/plot.c (per-second series, sweep curves, latency against
 * throughput) and bar charts, each with a title, axes with units, a legend
 * with one colour per entity, an optional shaded range (the ramp), marker
 * and knee. Inline in report.html (styled by the page) or a standalone file
 * in charts/ that carries its own style, so it looks the same pasted
 * elsewhere. Text is escaped; each chart carries data-chart="<id>".
 */
#include <math.h>
#include <string.h>

#include "report/draw/plot.h"
#include "report/draw/svg.h"
#include "report/parts/fmt.h"

/* the page's chart classes, for a file that has no page around it */
static const char s_style[] =
    "<style>text{font:11px system-ui,\"DejaVu Sans\",Arial,sans-serif;fill:#3d4656}"
    ".ct{font-weight:600;font-size:12.5px;fill:#1d2430}.grid{stroke:#e6e9ef}"
    ".axis,.tick{stroke:#8a94a6}.yt{text-anchor:end;fill:#5b6575}"
    ".xt,.bv{text-anchor:middle;fill:#5b6575}.xl,.yl{text-anchor:middle;fill:#3d4656}"
    ".shade{fill:#eceff3}.sl{fill:#8a94a6;font-style:italic}"
    ".mark{stroke:#cf222e;stroke-dasharray:4 3}.ml{fill:#cf222e}</style>";

static void s_esc(FILE *f, const char *s)
{
	bc_html_puts(f, s);
}

static void s_open(FILE *f, const char *id, const char *title, int w, int h, bool file)
{
	if (file)
		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg class=\"chart\" data-chart=\"");
	s_esc(f, id);
	fprintf(f, "\" viewBox=\"0 0 %d %d\"", w, h);
	if (file)
		fprintf(f, " width=\"%d\" height=\"%d\"", w, h);
	fprintf(f, " role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">%s<title>",
		file ? s_style : "");
	s_esc(f, title);
	fprintf(f, "</title>\n");
	if (file)
		fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h);
	fprintf(f, "<text class=\"ct\" x=\"%d\" y=\"16\">", BC_PLOT_LEFT);
	s_esc(f, title);
	fprintf(f, "</text>\n");
}

static void s_legend(FILE *f, const struct bc_plot *p, const struct bc_series *s)
{
	int i;

	for (i = 0; i < p->nleg; i++) {
		const struct bc_series *x = &s[p->leg[i].series];
		const char *dash = bc_plot_dash(x);
		char name[64];

		fprintf(f, "<g class=\"legend\"><title>");
		s_esc(f, x->name);
		fprintf(f,
			"</title><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"%s\"%s%s%s/>",
			p->leg[i].x, p->leg[i].y - 4, p->leg[i].x + 18, p->leg[i].y - 4,
			bc_fmt_color(x->color), x->color < 0 ? "3" : "2",
			*dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", p->leg[i].x + 22, p->leg[i].y);
		s_esc(f, bc_plot_short(x->name, name, sizeof(name)));
		fprintf(f, "</text></g>\n");
	}
}

static void s_axes(FILE *f, const struct bc_plot *p)
{
	const struct bc_chart *c = p->c;
	int i;

	for (i = 0; i < p->nyt; i++)
		fprintf(f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"yt\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			p->left, p->yt[i].at, p->right, p->yt[i].at, p->left - 5, p->yt[i].at + 3.5,
			p->yt[i].label);
	for (i = 0; i < p->nxt; i++)
		fprintf(f,
			"<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"xt\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			p->xt[i].at, p->bottom, p->xt[i].at, p->bottom + 4, p->xt[i].at,
			p->bottom + 14, p->xt[i].label);
	fprintf(f,
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		p->left, p->bottom, p->right, p->bottom, p->left, p->top, p->left, p->bottom);
	fprintf(f, "<text class=\"xl\" x=\"%.1f\" y=\"%.1f\">", (p->left + p->right) / 2,
		p->bottom + 31);
	s_esc(f, c->x.label);
	fprintf(f, "</text><text class=\"yl\" transform=\"translate(13 %.1f) rotate(-90)\">",
		(p->top + p->bottom) / 2);
	s_esc(f, c->y.label);
	fprintf(f, "%s</text>\n", c->y.log_note ? " (log scale)" : "");
}

static void s_series(FILE *f, const struct bc_plot *p, const struct bc_series *s)
{
	const char *dash = bc_plot_dash(s);
	bool open = false;
	int k;

	fprintf(f, "<g class=\"series\"><title>");
	s_esc(f, s->name);
	fprintf(f, "</title>");
	for (k = 0; k < s->n; k++) {
		double x = bc_plot_x(p, bc_series_x(s, k)), y = bc_plot_y(p, s->y[k]);

		if (!isfinite(x) || !isfinite(y)) {
			if (open)
				fprintf(f, "\"/>");
			open = false;
			continue;
		}
		if (!open)
			fprintf(f,
				"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s%s%s "
				"points=\"",
				bc_fmt_color(s->color), s->color < 0 ? "2.4" : "1.6",
				*dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
		open = true;
		fprintf(f, "%.1f,%.1f ", x, y);
	}
	if (open)
		fprintf(f, "\"/>");
	for (k = 0; k < s->n; k++) {
		double x = bc_plot_x(p, bc_series_x(s, k)), y = bc_plot_y(p, s->y[k]);

		if (!isfinite(x) || !isfinite(y))
			continue;
		if (s->points)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", x, y,
				bc_fmt_color(s->color));
		if (s->labels && s->labels[k]) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 4, y - 5);
			s_esc(f, s->labels[k]);
			fprintf(f, "</text>");
		}
		if (k == p->c->knee)
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" "
				"stroke=\"#cf222e\" stroke-width=\"2\"/>",
				x, y);
	}
	fprintf(f, "</g>\n");
}

void bc_svg_plot(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns, bool file)
{
	struct bc_plot p;
	int i;

	bc_plot_layout(&p, c, s, ns);
	s_open(f, c->id, c->title, p.w, p.h, file);
	s_legend(f, &p, s);
	if (c->shade_to > (c->x.max > c->x.min ? c->x.min : 0) && c->x.kind == BC_AXIS_LIN) {
		double x1 = fmin(bc_plot_x(&p, c->shade_to), p.right);

		fprintf(
		    f,
		    "<rect class=\"shade\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		    "<text class=\"sl\" x=\"%.1f\" y=\"%.1f\">",
		    p.left, p.top, x1 - p.left, p.bottom - p.top, p.left + 3, p.top + 10);
		s_esc(f, c->shade_label ? c->shade_label : "");
		fprintf(f, "</text>\n");
	}
	s_axes(f, &p);
	for (i = 0; i < ns; i++)
		s_series(f, &p, &s[i]);
	if (c->has_mark && isfinite(bc_plot_x(&p, c->mark_x))) {
		double x = bc_plot_x(&p, c->mark_x);

		fprintf(f,
			"<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"ml\" x=\"%.1f\" y=\"%.1f\">",
			x, p.top, x, p.bottom, x + 3, p.top + 10);
		s_esc(f, c->mark_label ? c->mark_label : "");
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</svg>\n");
}

void bc_svg_bars(FILE *f, const struct bc_svg_chart *c, const char *const *labels, const double *v,
		 int n)
{
	struct bc_chart lc = {.id = c->id,
			      .title = c->title,
			      .x = {.label = c->x_label},
			      .y = {.label = c->y_label},
			      .knee = -1};
	double max = 0, slot;
	struct bc_plot p;
	int i;

	/* the frame and y ticks of a line chart from 0 to the highest bar */
	for (i = 0; i < n; i++) {
		if (isfinite(v[i]) && v[i] > max)
			max = v[i];
		if (c->hi && isfinite(c->hi[i]) && c->hi[i] > max)
			max = c->hi[i];
	}
	lc.y.max = max > 0 ? max : 1;
	lc.x.min = 0;
	lc.x.max = n > 0 ? n : 1;
	bc_plot_layout(&p, &lc, NULL, 0);
	p.nxt = 0;
	s_open(f, c->id, c->title, p.w, p.h, false);
	s_axes(f, &p);
	slot = (p.right - p.left) / (n > 0 ? n : 1);
	for (i = 0; i < n; i++) {
		double y = bc_plot_y(&p, isfinite(v[i]) ? v[i] : 0), x = p.left + slot * (i + 0.2);
		char num[32], name[64];

		fprintf(f, "<g class=\"series\"><title>");
		s_esc(f, labels[i]);
		fprintf(f,
			"</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\"/>",
			x, y, slot * 0.6, p.bottom - y, bc_fmt_color(c->colors ? c->colors[i] : i));
		if (c->lo && c->hi && isfinite(c->lo[i]) && isfinite(c->hi[i])) {
			double y0 = bc_plot_y(&p, fmax(c->lo[i], 0)), y1 = bc_plot_y(&p, c->hi[i]);
			double m = x + slot * 0.3;

			/* the 95% interval: a whisker with caps */
			fprintf(f,
				"<path class=\"ci\" stroke=\"#1d2430\" fill=\"none\" d=\"M%.1f "
				"%.1fV%.1f"
				"M%.1f %.1fh%.1fM%.1f %.1fh%.1f\"/>",
				m, y0, y1, m - 5, y0, 10.0, m - 5, y1, 10.0);
		}
		/* the value above the bar, or above its whisker */
		if (c->hi && isfinite(c->hi[i]))
			y = fmin(y, bc_plot_y(&p, c->hi[i]));
		fprintf(
		    f, "<text class=\"bv\" x=\"%.1f\" y=\"%.1f\">%s</text>", x + slot * 0.3, y - 3,
		    bc_fmt_num(round((isfinite(v[i]) ? v[i] : 0) * 1000) / 1000, num, sizeof(num)));
		fprintf(f, "<text class=\"xt\" x=\"%.1f\" y=\"%.1f\">", x + slot * 0.3,
			p.bottom + 14);
		s_esc(f, bc_plot_short(labels[i], name, sizeof(name)));
		fprintf(f, "</text></g>\n");
	}
	fprintf(f, "</svg>\n");
}
