/*
 * report/parts/svg.h (report/parts/svg.c) - inline SVG charts for report.html. Text is
 * escaped; the chart carries data-chart="<id>" so tests (and readers'
 * scripts) find it.
 */
#ifndef BC_REPORT_PARTS_SVG_H
#define BC_REPORT_PARTS_SVG_H

#include <stdbool.h>
#include <stdio.h>

struct bc_svg_series {
	const char *name;
	const double *x; /* NULL: x of point i is i + 0.5 (the middle of second i) */
	const double *y;
	int n;
	int color;   /* palette index, or -1 for the dark "total" colour */
	bool dashed; /* reference lines (a link rate) */
};

struct bc_svg_chart {
	const char *id;	     /* data-chart id, unique in the page */
	const char *title;   /* above the plot */
	const char *x_label; /* with unit: "time (s)" */
	const char *y_label; /* with unit: "MB/s" */
	double x_min, x_max; /* x domain; x_max <= x_min: from the data */
	double shade_to;     /* shade [x_min, shade_to] (the ramp); <= x_min: none */
	const char *shade_label;
	bool x_log2;   /* queue-depth sweeps: 1, 2, 4 ... evenly spaced */
	bool has_mark; /* a vertical marker (the knee) at mark_x */
	double mark_x;
	const char *mark_label;
};

/* a line chart of ns series */
void bc_svg_lines(FILE *f, const struct bc_svg_chart *c, const struct bc_svg_series *s, int ns);
/* a bar chart: one bar per label */
void bc_svg_bars(FILE *f, const struct bc_svg_chart *c, const char *const *labels, const double *v,
		 int n);
/* the colour of palette index i ("#4e79a7"); -1 is the total's */
const char *bc_svg_color(int i);

#endif
