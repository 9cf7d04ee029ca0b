/*
 * report/parts/vdbench.h (report/parts/vdbench.c) - vdbench's interval table as text: its
 * header and row lines as vdbench prints them, and summary.md's section.
 * The rows: results/vdbench.h. docs/vdbench.md.
 */
#ifndef BC_REPORT_PARTS_VDBENCH_H
#define BC_REPORT_PARTS_VDBENCH_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "results/vdbench.h"

/* vdbench's two header lines, date ("Sep 01, 2023") in the first column */
void bc_vdb_print_header(FILE *f, const char *date);
/* one line: time ("21:49:54.001"), interval label ("597", "avg_2-600") and the row */
void bc_vdb_print_row(FILE *f, const char *time, const char *label, const struct bc_vdb_row *r);
/* "Sep 01, 2023" and "21:49:54.001" of a CLOCK_REALTIME ns, local time */
void bc_vdb_date(uint64_t ns, char *buf, size_t len);
void bc_vdb_time(uint64_t ns, char *buf, size_t len);

/*
 * summary.md's vdbench section of a step from its run.json record st: the
 * total's table, and with several hosts or sds their avg lines and a table
 * each (vdbench's host and SD reports)
 */
void bc_vdb_md(FILE *f, const cJSON *st);

#endif
