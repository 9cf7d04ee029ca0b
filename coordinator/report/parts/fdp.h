/*
 * report/parts/fdp.h (report/parts/fdp.c) - an FDP experiment object rendered:
 * summary.md, report.html, the terminal
 */
#ifndef BC_REPORT_PARTS_FDP_H
#define BC_REPORT_PARTS_FDP_H

#include <stdio.h>

#include <cjson/cJSON.h>

/* the experiment object as Markdown (summary.md): modes, verdict, reference */
void bc_fdp_md(FILE *f, const cJSON *exp);

/* the same for report.html (report/html.c draws the WAF bars beside) */
void bc_fdp_html(FILE *f, const cJSON *exp);

/* the same, short, for the terminal at the end of the experiment */
void bc_fdp_print(FILE *f, const cJSON *exp);

#endif
