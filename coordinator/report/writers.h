/*
 * report/writers.h - the report writers' contract (report/md.c, report/html.c,
 * report/csv.c, report/fio.c), called by the driver (report.c): a header
 * of its own so a writer depends on the run data, not on the driver
 */
#ifndef BC_REPORT_WRITERS_H
#define BC_REPORT_WRITERS_H

#include <stdio.h>

#include "report/parts/rundata.h"

/* the writers: each writes one whole document to f; 0 or -errno */
int bc_report_md(const struct bc_report *r, FILE *f);
int bc_report_html(const struct bc_report *r, FILE *f);
int bc_report_csv(const struct bc_report *r, FILE *f);
int bc_report_fio(const struct bc_report *r, FILE *f);
/*
 * volumes.html / volumes.csv: every entity of every step with its window
 * figures, listed whole (report.html summarises levels too large for it)
 */
int bc_report_volumes_html(const struct bc_report *r, FILE *f);
int bc_report_volumes_csv(const struct bc_report *r, FILE *f);
/* runs of several steps: one fio JSON per step under r->dir/fio/ in bench-fio's layout */
int bc_report_fio_points(const struct bc_report *r);
/*
 * compare.html: runs[0..n) (loaded run directories, labels naming them)
 * overlaid - each sweep's curves, each step's figures with their intervals
 * as bars, the differences the statistics support (report/parts/versus.h) -
 * for the steps names[0..nnames); one self-contained page
 */
int bc_report_compare_html(FILE *f, const struct bc_report *runs, const char *const *labels, int n,
			   const char *const *names, int nnames);
/* report.html's page around another document: its head (style, script policy) and its end */
void bc_report_html_head(FILE *f, const char *title);
void bc_report_html_tail(FILE *f);

#endif
