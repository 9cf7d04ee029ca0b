/*
 * report/draw/story.c - a sweep's three charts (report/draw/story.h), built
 * once as chart data from the sweep's points (report/parts/sweep.h) and
 * drawn inline and as SVG files. Latency axes are in
 * decades when the latency spans more than S_LOG_SPAN, so a p99 that jumps
 * from 20 us to 12 ms does not flatten every point before it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/draw/chart.h"
#include "report/draw/live.h"
#include "report/draw/story.h"
#include "report/draw/svg.h"
#include "report/parts/sweep.h"

#define S_LOG_SPAN 20 /* max / min of a latency axis beyond which it is logarithmic */

/* one chart's data: the chart, its series and the arrays they point into */
struct s_story {
	struct bc_chart c;
	struct bc_series s[3];
	int ns;
	double x[BC_SWEEP_POINTS], y[3][BC_SWEEP_POINTS], ticks[BC_SWEEP_POINTS];
	const char *labels[BC_SWEEP_POINTS];
	char title[160], xlabel[64];
};

void bc_story_ids(const struct bc_sweep *sw, int k, char ids[BC_STORY_CHARTS][128])
{
	static const char *const what[BC_STORY_CHARTS] = {"throughput", "latency",
							  "latency-vs-throughput"};
	char name[64];
	size_t i, o = 0;
	int c;

	/* [A-Za-z0-9._-] only: an id and a file name */
	for (i = 0; sw->name[i] && o + 1 < sizeof(name); i++) {
		char ch = sw->name[i];

		name[o++] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
				    (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_'
				? ch
				: '_';
	}
	name[o] = '\0';
	for (c = 0; c < BC_STORY_CHARTS; c++)
		snprintf(ids[c], sizeof(ids[c]), "sweep%d-%s-%s", k, name, what[c]);
}

/* the swept value's axis: doubling values evenly spaced, names as categories */
static void s_param_axis(struct s_story *d, const struct bc_sweep *sw)
{
	int i;
	bool numeric = true;

	for (i = 0; i < sw->n; i++) {
		numeric &= isfinite(sw->pt[i].value) && sw->pt[i].value > 0;
		d->labels[i] = sw->pt[i].label;
	}
	for (i = 0; i < sw->n; i++)
		d->x[i] = d->ticks[i] = numeric ? sw->pt[i].value : i;
	d->c.x.label = sw->param;
	d->c.x.kind = !numeric ? BC_AXIS_CAT : sw->x_log2 ? BC_AXIS_LOG2 : BC_AXIS_LIN;
	d->c.x.ticks = d->ticks;
	d->c.x.tick_labels = d->labels;
	d->c.x.nticks = sw->n;
	if (sw->knee >= 0) {
		d->c.has_mark = true;
		d->c.mark_x = d->x[sw->knee];
		d->c.mark_label = "knee";
	}
}

static struct bc_series *s_add(struct s_story *d, const char *name, const double *y, int n,
			       int color)
{
	struct bc_series *s = &d->s[d->ns++];

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->x = d->x;
	s->y = y;
	s->n = n;
	s->color = color;
	s->points = true;
	return s;
}

/* chart which (0 throughput, 1 latency, 2 latency against throughput) of sw into d */
static void s_build(struct s_story *d, const struct bc_sweep *sw, int which, const char *id)
{
	bool bytes = !strcmp(sw->param, "bs"); /* block sizes: MB/s tells, IOPS fall */
	int i, n = sw->n;

	memset(d, 0, sizeof(*d));
	d->c.id = id;
	d->c.title = d->title;
	d->c.knee = -1;
	for (i = 0; i < n; i++) {
		const struct bc_sweep_pt *p = &sw->pt[i];

		d->y[0][i] = which == 0 ? (bytes ? p->mbps : p->iops) : p->p50_us;
		d->y[1][i] = p->p99_us;
		d->y[2][i] = p->iops;
	}
	if (which == 0) {
		s_param_axis(d, sw);
		snprintf(d->title, sizeof(d->title), "%s: %s vs %s", sw->name,
			 bytes ? "throughput" : "IOPS", sw->param);
		d->c.y.label = bytes ? "MB/s" : "IOPS";
		s_add(d, bytes ? "MB/s" : "IOPS", d->y[0], n, -1);
		return;
	}
	if (which == 1) {
		s_param_axis(d, sw);
		snprintf(d->title, sizeof(d->title), "%s: latency vs %s", sw->name, sw->param);
		d->c.y.fmt = BC_FMT_LAT_US;
		d->c.y.label = "latency";
		s_add(d, "p50", d->y[0], n, 0);
		s_add(d, "p99", d->y[1], n, 2);
		bc_chart_auto_log(&d->c, d->s, d->ns, S_LOG_SPAN);
		return;
	}
	/* latency against what it bought: x is IOPS, each point named by its value */
	for (i = 0; i < n; i++) {
		d->x[i] = d->y[2][i];
		d->labels[i] = sw->pt[i].label;
	}
	snprintf(d->title, sizeof(d->title), "%s: latency vs IOPS (points: %s)", sw->name,
		 sw->param);
	d->c.x.label = "IOPS";
	d->c.x.min = 0;
	for (i = 0; i < n; i++)
		d->c.x.max = fmax(d->c.x.max, isfinite(d->x[i]) ? d->x[i] * 1.1 : 0);
	d->c.y.fmt = BC_FMT_LAT_US;
	d->c.y.label = "latency";
	s_add(d, "p50", d->y[0], n, 0);
	s_add(d, "p99", d->y[1], n, 2)->labels = d->labels;
	bc_chart_auto_log(&d->c, d->s, d->ns, S_LOG_SPAN);
	d->c.knee = sw->knee;
}

void bc_story_html(FILE *f, const struct bc_sweep *sw, int k)
{
	char ids[BC_STORY_CHARTS][128];
	struct s_story d;
	int c;

	bc_story_ids(sw, k, ids);
	for (c = 0; c < BC_STORY_CHARTS; c++) {
		s_build(&d, sw, c, ids[c]);
		bc_live_figure(f, &d.c, d.s, d.ns);
	}
}

int bc_story_files(const char *dir, const struct bc_sweep *sw, int k)
{
	char ids[BC_STORY_CHARTS][128], name[160];
	struct bc_chart_file cf;
	struct s_story d;
	int c, rc, first = 0;

	bc_story_ids(sw, k, ids);
	for (c = 0; c < BC_STORY_CHARTS; c++) {
		s_build(&d, sw, c, ids[c]);
		snprintf(name, sizeof(name), "%s.svg", ids[c]);
		if (bc_chart_open(&cf, dir, name)) {
			bc_svg_plot(cf.f, &d.c, d.s, d.ns, true);
			rc = bc_chart_close(&cf);
		} else {
			rc = -EIO;
		}
		first = first ? first : rc;
	}
	return first;
}
