/*
 * run/steptable.h (steptable.c) - a finished step's table on the terminal
 */
#ifndef BC_RUN_STEPTABLE_H
#define BC_RUN_STEPTABLE_H

#include <stdio.h>

#include <cjson/cJSON.h>

struct bc_step_result;

/* the step's table on f, fitted to cols columns (bc_live_cols(); 0: full width) */
void bc_result_print_step(FILE *f, const struct bc_step_result *r, int cols);

/* after the table and the verdict: the steady state sentence of sj (its run.json entry) */
void bc_result_print_steady(FILE *f, const cJSON *sj, int cols);
/* per simulated SSD of the step (sj: its run.json entry): WAF, FTL, GC overhead, free units */
void bc_result_print_sim(FILE *f, const cJSON *sj, int cols);

#endif
