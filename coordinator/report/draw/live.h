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

/* chart c with its ns series as a <figure> of report.html */
void bc_live_figure(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns);

#endif
