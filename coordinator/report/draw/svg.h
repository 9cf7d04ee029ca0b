/*
 * report/draw/svg.h (report/draw/svg.c) - charts as SVG, inline in report.html
 * or standalone files in charts/. Text is escaped; the chart carries
 * data-chart="<id>" so tests (and readers' scripts) find it.
 */
#ifndef BC_REPORT_DRAW_SVG_H
#define BC_REPORT_DRAW_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "report/draw/plot.h"

/* a line chart (report/draw/plot.h); file: a standalone .svg with its own style and size */
void bc_svg_plot(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns, bool file);

/* a bar chart's titles */
struct bc_svg_chart {
	const char *id;	       /* data-chart id, unique in the page */
	const char *title;     /* above the plot */
	const char *x_label;   /* what the bars are */
	const char *y_label;   /* with unit: "MB/s" */
	const double *lo, *hi; /* each bar's interval, drawn as a whisker; NULL: none */
	const int *colors;     /* each bar's palette colour; NULL: one each in turn */
};

/* a bar chart: one bar per label, its value above it */
void bc_svg_bars(FILE *f, const struct bc_svg_chart *c, const char *const *labels, const double *v,
		 int n);

#endif
