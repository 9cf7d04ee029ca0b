/*
 * report/draw/live.c - a chart as a figure of report.html (report/draw/live.h)
 */
#include "report/draw/live.h"
#include "report/draw/svg.h"

void bc_live_figure(FILE *f, const struct bc_chart *c, const struct bc_series *s, int ns)
{
	fprintf(f, "<figure>");
	bc_svg_plot(f, c, s, ns, false);
	fprintf(f, "</figure>\n");
}
