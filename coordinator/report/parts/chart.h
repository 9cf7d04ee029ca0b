/*
 * report/parts/chart.h (report/parts/chart.c) - latency distribution, heatmap and latency-vs-IOPS
 * charts, into report.html (a "Latency charts" section) and as SVG files in DIR/charts/ (0 or
 * -errno, logged)
 */
#ifndef BC_REPORT_PARTS_CHART_H
#define BC_REPORT_PARTS_CHART_H

#include <stdio.h>

#include "report/parts/rundata.h"
#include "report/parts/table.h"

void bc_chart_html(FILE *f, const struct bc_report *r);
/* read once per report: r->heat from DIR/events.jsonl (NULL without memory) */
struct bc_heat *bc_heat_load(const struct bc_report *r);
void bc_heat_free(struct bc_heat *ht);
int bc_chart_files(const struct bc_report *r);
/* read and write apart, per step that mixes them: total, agents, nodes */
struct bc_table *bc_table_rw(const struct bc_report *r);

#endif
