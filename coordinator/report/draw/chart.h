/*
 * report/draw/chart.h (report/draw/chart.c) - latency distribution, heatmap and latency-vs-IOPS
 * charts, into report.html (a "Latency charts" section) and as SVG files in DIR/charts/ (0 or
 * -errno, logged)
 */
#ifndef BC_REPORT_DRAW_CHART_H
#define BC_REPORT_DRAW_CHART_H

#include <stdio.h>

#include "report/parts/rundata.h"

void bc_chart_html(FILE *f, const struct bc_report *r);
int bc_chart_files(const struct bc_report *r);

/*
 * dir/charts/name written atomically: bc_chart_open makes the temporary
 * file (NULL on failure, noted: results/files/outfail.h), bc_chart_close renames
 * it into place (0 or -errno, noted); what another chart writer uses
 */
struct bc_chart_file {
	FILE *f;
	char path[BC_PATH_MAX + 160], tmp[BC_PATH_MAX + 170];
};
FILE *bc_chart_open(struct bc_chart_file *cf, const char *dir, const char *name);
int bc_chart_close(struct bc_chart_file *cf);

#endif
