/*
 * report/draw/plot.h (report/draw/plot.c) - a line chart as data (its axes,
 * series, shaded range, marker and knee) and its layout: the frame, the
 * ticks with their labels, the legend, and data-to-pixel mapping, computed
 * once so that every way of drawing it - inline and standalone SVG
 * (report/draw/svg.c) and the interactive chart's data (report/draw/live.c)
 * - shows the same chart.
 */
#ifndef BC_REPORT_DRAW_PLOT_H
#define BC_REPORT_DRAW_PLOT_H

#include <stdbool.h>
#include <stddef.h>

enum bc_axis_kind {
	BC_AXIS_LIN = 0, /* linear, from 0 (y) or the data's range (x) */
	BC_AXIS_LOG10,	 /* decades */
	BC_AXIS_LOG2,	 /* doubling values evenly spaced (queue depths); ticks at ticks[] */
	BC_AXIS_CAT,	 /* categories at 0, 1, 2 ... (rw names); ticks at ticks[] */
};

enum bc_axis_fmt {
	BC_FMT_SI = 0, /* 250k, 1.5M, 2G */
	BC_FMT_LAT_US, /* a latency in microseconds: 250 us, 1.5 ms */
};

struct bc_axis {
	const char *label; /* with its unit when the ticks have none: "IOPS", "MB/s" */
	enum bc_axis_kind kind;
	enum bc_axis_fmt fmt;
	double min, max;     /* the domain; max <= min: from the data */
	bool log_note;	     /* " (log scale)" after the label: set by bc_chart_auto_log */
	const double *ticks; /* BC_AXIS_LOG2, _CAT: the values to tick (the swept ones) */
	const char *const *tick_labels; /* their labels as written ("4k"), or NULL: formatted */
	int nticks;
};

struct bc_series {
	const char *name;
	const double *x; /* NULL: x of point i is i + 0.5 (the middle of second i) */
	const double *y; /* non-finite: a gap */
	int n;
	int color;		   /* palette index (bc_fmt_color), -1 the dark "total" */
	bool dashed;		   /* a reference line (a link rate) */
	bool points;		   /* a dot at each point (sweeps: few points) */
	const char *const *labels; /* a label beside each point, or NULL */
};

struct bc_chart {
	const char *id;	   /* unique in the page; the file name in charts/ */
	const char *title; /* above the plot */
	struct bc_axis x, y;
	double shade_to; /* shade x from the start to here (the ramp); <= x start: none */
	const char *shade_label;
	bool has_mark; /* a vertical dashed line at mark_x (the knee) */
	double mark_x;
	const char *mark_label;
	int knee; /* circle every series' point knee (>= 0), -1 none */
};

/* the layout, in pixels of a w x h canvas */
#define BC_PLOT_TICKS 40
#define BC_PLOT_LEG   64
struct bc_tick {
	double at; /* pixel along the axis */
	char label[32];
};
struct bc_plot {
	int w, h;
	double left, right, top, bottom; /* the plot area */
	double x0, x1, y0, y1;		 /* the domain as drawn (log10 / log2 of it on such axes) */
	struct bc_tick xt[BC_PLOT_TICKS], yt[BC_PLOT_TICKS];
	int nxt, nyt;
	struct {
		double x, y; /* the swatch's left end, the text's baseline */
		int series;
	} leg[BC_PLOT_LEG];
	int nleg;
	const struct bc_chart *c;
};

/* lay out chart c with its ns series */
void bc_plot_layout(struct bc_plot *p, const struct bc_chart *c, const struct bc_series *s, int ns);
/*
 * the y axis in decades when the series' positive values span more than
 * span times (a p99.9 in ms beside a p50 in us would flatten the p50)
 */
void bc_chart_auto_log(struct bc_chart *c, const struct bc_series *s, int ns, double span);
/* a data point's pixel, NAN when it cannot be drawn (not finite, <= 0 on a log axis) */
double bc_plot_x(const struct bc_plot *p, double x);
double bc_plot_y(const struct bc_plot *p, double y);
/* the x of point i of series s */
double bc_series_x(const struct bc_series *s, int i);

/* past the palette, colours repeat with a dash pattern so lines stay apart ("" none) */
const char *bc_plot_dash(const struct bc_series *s);
/* a legend name cut to fit (UTF-8 safe, with an ellipsis) into buf */
const char *bc_plot_short(const char *name, char *buf, size_t len);
/* a tick value as the axis shows it, step the distance between ticks (0: a log tick) */
void bc_plot_tick_label(enum bc_axis_fmt fmt, double v, double step, double axis_max, char *buf,
			size_t len);

#define BC_PLOT_W     460 /* chart width */
#define BC_PLOT_PH    190 /* plot area height */
#define BC_PLOT_LEFT  62  /* room for y tick labels and the y axis title */
#define BC_PLOT_RIGHT 14
#define BC_PLOT_BOT   40 /* x tick labels and the x axis title */
#define BC_PLOT_ROW   16 /* a legend row */

#endif
