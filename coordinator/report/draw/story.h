/*
 * report/draw/story.h (report/draw/story.c) - a sweep told in charts, the
 * story of a PoV: throughput against the swept value, p50 and p99 latency
 * against it, and latency against throughput, each with the knee marked;
 * into report.html at the top of the sweep's section and as SVG files in
 * charts/ (deploy/charts-png.sh makes PNGs of them), built from one set of
 * chart data.
 */
#ifndef BC_REPORT_DRAW_STORY_H
#define BC_REPORT_DRAW_STORY_H

#include <stdio.h>

struct bc_sweep;

#define BC_STORY_CHARTS 3

/* the chart ids of sweep number k (of bc_sweeps_make) into ids: "sweep0-randread-4k-throughput" */
void bc_story_ids(const struct bc_sweep *sw, int k, char ids[BC_STORY_CHARTS][128]);
/* sweep number k's charts as figures of report.html */
void bc_story_html(FILE *f, const struct bc_sweep *sw, int k);
/* the same as dir/charts/<id>.svg; 0 or the first -errno (each failure noted) */
int bc_story_files(const char *dir, const struct bc_sweep *sw, int k);

#endif
