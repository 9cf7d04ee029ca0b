/*
 * report/draw/live.h (report/draw/live.c) - a chart as a figure of
 * report.html: its static SVG (what prints, and what summary.md's readers
 * and charts/ get) and the same chart data for the page's interactive
 * charts (hover values, zoom).
 */
#ifndef BC_REPORT_DRAW_LIVE_H
#define BC_REPORT_DRAW_LIVE_H

#include <stdio.h>

#include "report/draw/plot.h"

/* chart c with its ns series as a <figure> of report.html: its SVG and its data */
void bc_live_figure(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns);
/* the data alone (a <script type="application/json">, never run); nothing when the series differ in
 * x */
void bc_live_data(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns);

/*
 * The page's parts: the Content-Security-Policy's script-src that admits the
 * page's one script by its hash, the style the charts need, and the script
 * (the vendored uPlot, third_party/uplot, with report/draw/js/), written once
 * at the end of the page
 */
void bc_live_csp(FILE *f);
void bc_live_style_css(FILE *f);
void bc_live_script_tag(FILE *f);

#endif
