/*
 * bc_fdp_report.h (report_fdp.c) - an FDP experiment object rendered:
 * summary.md, report.html, the terminal
 */
#ifndef BC_FDP_REPORT_H
#define BC_FDP_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

/* the experiment object as Markdown (summary.md): modes, verdict, reference */
void bc_fdp_md(FILE *f, const cJSON *exp);

/* the same for report.html: modes table, verdict table, WAF bars */
void bc_fdp_html(FILE *f, const cJSON *exp);

/* the same, short, for the terminal at the end of the experiment */
void bc_fdp_print(FILE *f, const cJSON *exp);

#endif
