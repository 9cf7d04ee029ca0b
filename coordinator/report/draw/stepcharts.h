/*
 * report/draw/stepcharts.h (report/draw/stepcharts.c) - a step's charts in
 * report.html: per-second series of the total, the client hosts and the
 * storage nodes (the spread across hosts at fleet size), node egress
 * against the link, a summarised level's distributions, and the storage
 * nodes' counters across a sweep
 */
#ifndef BC_REPORT_DRAW_STEPCHARTS_H
#define BC_REPORT_DRAW_STEPCHARTS_H

#include <stdio.h>

#include <cjson/cJSON.h>

struct bc_report;
struct bc_rank;
struct bc_sweep;

/* step st's (index i) per-second charts, as figures (the caller's grid around them) */
void bc_stepcharts_html(FILE *f, const struct bc_report *r, const cJSON *st, int i);
/* a summarised level's histograms of window IOPS and p99 per entity (lvl: 1 hosts, 3 volumes) */
void bc_stepcharts_rank_html(FILE *f, const struct bc_rank *k, const char *who, int i, int lvl);
/*
 * the storage nodes' NIC, CPU, hot cores and busiest disk across sweep
 * number ksw, under a heading of their own; how many charts (0: no node
 * counters, nothing written)
 */
int bc_stepcharts_nodes_html(FILE *f, const struct bc_sweep *sw, int ksw);

#endif
