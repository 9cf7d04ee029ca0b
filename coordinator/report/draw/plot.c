/*
 * report/draw/plot.c - a line chart's layout (report/draw/plot.h): the
 * domain from the data, "nice" ticks (1, 2, 2.5, 5 x 10^n) with SI or
 * latency labels, decades on log axes, the swept values on a doubling
 * axis, and the legend rows above the plot.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/draw/plot.h"
#include "report/parts/fmt.h"

#define S_CHAR_W   6.4 /* average glyph width at 11px, for the legend layout */
#define S_NAME_MAX 30  /* legend labels are cut beyond this (full name in <title>) */

const char *bc_plot_dash(const struct bc_series *s)
{
	static const char *const dashes[] = {"", "6 3", "2 3", "8 3 2 3"};

	if (s->dashed)
		return "4 3";
	return s->color < 0 ? "" : dashes[(s->color / BC_FMT_NCOLORS) % 4];
}

const char *bc_plot_short(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (n <= S_NAME_MAX || len < S_NAME_MAX + 4) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	n = S_NAME_MAX - 1;
	while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	memcpy(buf, s, n);
	memcpy(buf + n, "\xe2\x80\xa6", 4);
	return buf;
}

double bc_series_x(const struct bc_series *s, int i)
{
	return s->x ? s->x[i] : i + 0.5;
}

/* the tick step for about `want` ticks over range: 1, 2, 2.5 or 5 x 10^n */
static double s_nice_step(double range, int want)
{
	double raw = range / want, p = pow(10, floor(log10(raw))), m = raw / p;

	if (!(range > 0))
		return 1;
	return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
}

/* the decimals a step needs to be written exactly ("2.5" one, "250" none) */
static int s_decimals(double step)
{
	int d;

	for (d = 0; d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6; d++)
		;
	return d;
}

void bc_plot_tick_label(enum bc_axis_fmt fmt, double v, double step, double axis_max, char *buf,
			size_t len)
{
	static const char *const si[] = {"", "k", "M", "G", "T"};
	static const struct {
		double div;
		const char *unit;
	} lat[] = {{1e-3, "ns"}, {1, "\xc2\xb5s"}, {1e3, "ms"}, {1e6, "s"}};
	int p = 0, u = 1;
	double div = 1;

	if (fmt == BC_FMT_LAT_US) {
		/* one unit along a linear axis, the largest tick's; a log tick its own */
		double ref = step > 0 ? axis_max : fabs(v);

		u = ref < 1 ? 0 : ref < 1e3 ? 1 : ref < 1e6 ? 2 : 3;
		if (v == 0) {
			snprintf(buf, len, "0");
			return;
		}
		snprintf(buf, len, "%.*f %s", step > 0 ? s_decimals(step / lat[u].div) : 0,
			 v / lat[u].div, lat[u].unit);
		if (step <= 0 && v / lat[u].div < 1) /* 0.1 us on a log axis: 100 ns */
			snprintf(buf, len, "%g %s", v / lat[u].div, lat[u].unit);
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	/* SI: the prefix the largest tick (or a log tick itself) calls for: 0.5M, 1M, 1.5M */
	for (div = 1; p < 4 && (step > 0 ? fabs(axis_max) : fabs(v)) >= div * 1e3; p++)
		div *= 1e3;
	snprintf(buf, len, "%.*f%s", step > 0 ? s_decimals(step / div) : 0, v / div, si[p]);
	if (step <= 0 && fabs(v) < 1 && v != 0)
		snprintf(buf, len, "%g", v);
}

static double s_tx(const struct bc_axis *a, double v)
{
	if (a->kind == BC_AXIS_LOG10)
		return v > 0 ? log10(v) : NAN;
	if (a->kind == BC_AXIS_LOG2)
		return v > 0 ? log2(v) : NAN;
	return v;
}

double bc_plot_x(const struct bc_plot *p, double x)
{
	double t = s_tx(&p->c->x, x);

	if (!isfinite(t))
		return NAN;
	return p->left + (t - p->x0) / (p->x1 - p->x0) * (p->right - p->left);
}

double bc_plot_y(const struct bc_plot *p, double y)
{
	double t = s_tx(&p->c->y, y);

	if (!isfinite(t))
		return NAN;
	if (t < p->y0)
		t = p->y0;
	return p->bottom - (t - p->y0) / (p->y1 - p->y0) * (p->bottom - p->top);
}

/* the data's range of an axis: x (or y) of every finite point, > 0 on log axes */
static void s_range(const struct bc_axis *a, const struct bc_series *s, int ns, bool xaxis,
		    double *lo, double *hi)
{
	int i, k;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < ns; i++)
		for (k = 0; k < s[i].n; k++) {
			double v = xaxis ? bc_series_x(&s[i], k) : s[i].y[k];

			if (!isfinite(v) || (a->kind != BC_AXIS_LIN && !(v > 0)) ||
			    (xaxis && !isfinite(s[i].y[k])))
				continue;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	/* a per-second series spans whole seconds: [0, n] */
	for (i = 0; xaxis && i < ns; i++)
		if (!s[i].x && s[i].n) {
			*lo = fmin(*lo, 0);
			*hi = fmax(*hi, s[i].n);
		}
}

/* the label given for tick value v */
static const char *s_tick_text(const struct bc_axis *a, double v)
{
	int k;

	for (k = 0; k < a->nticks; k++)
		if (a->ticks[k] == v && a->tick_labels[k])
			return a->tick_labels[k];
	return "";
}

/* ticks of axis a over [lo, hi] (data units) into t[], pixel positions later */
static void s_axis(struct bc_plot *p, const struct bc_axis *a, bool xaxis, double lo, double hi)
{
	struct bc_tick *t = xaxis ? p->xt : p->yt;
	int *nt = xaxis ? &p->nxt : &p->nyt, k;
	double *d0 = xaxis ? &p->x0 : &p->y0, *d1 = xaxis ? &p->x1 : &p->y1, v, step;
	double vals[BC_PLOT_TICKS];
	int n = 0;

	if (a->max > a->min) {
		lo = a->min;
		hi = a->max;
	}
	if (a->kind == BC_AXIS_LOG10) {
		if (!(lo > 0) || !(hi > 0)) {
			lo = 1;
			hi = 10;
		}
		*d0 = floor(log10(lo) + 1e-9);
		*d1 = ceil(log10(hi) - 1e-9);
		if (*d1 <= *d0)
			*d1 = *d0 + 1;
		for (v = *d0; v <= *d1 + 1e-9 && n < BC_PLOT_TICKS; v++) {
			vals[n++] = pow(10, v);
			/* one or two decades: 2 and 5 between, so the axis has ticks to read */
			if (*d1 - *d0 <= 2 && v < *d1 && n + 2 < BC_PLOT_TICKS) {
				vals[n++] = 2 * pow(10, v);
				vals[n++] = 5 * pow(10, v);
			}
		}
		step = 0;
	} else if (a->kind == BC_AXIS_CAT) {
		for (k = 0; k < a->nticks && n < BC_PLOT_TICKS; k++)
			vals[n++] = a->ticks[k];
		*d0 = (n ? fmin(lo, vals[0]) : 0) - 0.5;
		*d1 = (n ? fmax(hi, vals[n - 1]) : 1) + 0.5;
		step = 0;
	} else if (a->kind == BC_AXIS_LOG2) {
		for (k = 0; k < a->nticks && n < BC_PLOT_TICKS; k++)
			if (a->ticks[k] > 0)
				vals[n++] = a->ticks[k];
		lo = fmax(n ? fmin(lo, vals[0]) : lo, 1e-9);
		hi = fmax(n ? fmax(hi, vals[n - 1]) : hi, lo * 2);
		/* a quarter step of margin so the end points are not on the frame */
		*d0 = log2(lo) - 0.25;
		*d1 = log2(hi) + 0.25;
		step = 0;
	} else {
		if (!xaxis || !isfinite(lo))
			lo = fmin(isfinite(lo) ? lo : 0, 0);
		if (!isfinite(hi) || !(hi > lo))
			hi = lo + 1;
		step = s_nice_step(hi - lo, xaxis ? 8 : 5);
		if (!xaxis)
			hi = ceil(hi / step - 1e-9) * step;
		*d0 = lo;
		*d1 = hi;
		for (v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-6 && n < BC_PLOT_TICKS;
		     v += step)
			vals[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	*nt = 0;
	for (k = 0; k < n; k++) {
		double tv = s_tx(a, vals[k]);

		if (!isfinite(tv) || tv < *d0 - 1e-9 || tv > *d1 + 1e-9)
			continue;
		if (a->tick_labels && a->kind != BC_AXIS_LIN && a->kind != BC_AXIS_LOG10)
			snprintf(t[*nt].label, sizeof(t[*nt].label), "%s", s_tick_text(a, vals[k]));
		else
			bc_plot_tick_label(a->fmt, vals[k], step, hi, t[*nt].label,
					   sizeof(t[*nt].label));
		t[*nt].at = vals[k]; /* data value for now: pixels once the frame is known */
		(*nt)++;
	}
}

void bc_plot_layout(struct bc_plot *p, const struct bc_chart *c, const struct bc_series *s, int ns)
{
	double lo, hi, x = 0, w;
	int i, rows = ns ? 1 : 0;

	memset(p, 0, sizeof(*p));
	p->c = c;
	p->w = BC_PLOT_W;
	/* the legend above the plot: rows as the names need */
	for (i = 0; i < ns && i < BC_PLOT_LEG; i++) {
		size_t len = strlen(s[i].name);

		w = 26 + S_CHAR_W * (double)(len > S_NAME_MAX ? S_NAME_MAX : len);
		if (x > 0 && x + w > BC_PLOT_W - BC_PLOT_LEFT - BC_PLOT_RIGHT) {
			rows++;
			x = 0;
		}
		p->leg[p->nleg].x = BC_PLOT_LEFT + x;
		p->leg[p->nleg].y = 26 + rows * BC_PLOT_ROW - 4;
		p->leg[p->nleg++].series = i;
		x += w;
	}
	p->top = 26 + rows * BC_PLOT_ROW;
	p->bottom = p->top + BC_PLOT_PH;
	p->left = BC_PLOT_LEFT;
	p->right = BC_PLOT_W - BC_PLOT_RIGHT;
	p->h = (int)p->bottom + BC_PLOT_BOT;
	s_range(&c->x, s, ns, true, &lo, &hi);
	s_axis(p, &c->x, true, lo, hi);
	s_range(&c->y, s, ns, false, &lo, &hi);
	s_axis(p, &c->y, false, lo, hi);
	for (i = 0; i < p->nxt; i++)
		p->xt[i].at = bc_plot_x(p, p->xt[i].at);
	for (i = 0; i < p->nyt; i++)
		p->yt[i].at = bc_plot_y(p, p->yt[i].at);
}

void bc_chart_auto_log(struct bc_chart *c, const struct bc_series *s, int ns, double span)
{
	double lo = INFINITY, hi = 0;
	int i, k;

	for (i = 0; i < ns; i++)
		for (k = 0; k < s[i].n; k++)
			if (isfinite(s[i].y[k]) && s[i].y[k] > 0) {
				lo = fmin(lo, s[i].y[k]);
				hi = fmax(hi, s[i].y[k]);
			}
	if (hi > span * lo) {
		c->y.kind = BC_AXIS_LOG10;
		c->y.log_note = true;
	}
}
