/*
 * results/verdict.h - a finished step as one analysis point (verdict.c): node and
 * client USE, the suspects and the verdict
 */
#ifndef BC_RESULTS_VERDICT_H
#define BC_RESULTS_VERDICT_H

#include <cjson/cJSON.h>

struct bc_ana_point;
struct bc_counters;
struct bc_step_result;

/*
 * fill *pt from a finished step (allocates its USE arrays), with the
 * storage nodes' counters (NULL: none); 0 or -1 without I/O
 */
int bc_verdict_point(struct bc_counters *counters, const struct bc_step_result *res,
		     struct bc_ana_point *pt);
void bc_verdict_point_free(struct bc_ana_point *pt);
cJSON *bc_verdict_step(struct bc_counters *counters, struct bc_step_result *res);
/* window mean of one agent's host samples, NULL without samples; caller owns it */
cJSON *bc_verdict_client_mean(const struct bc_step_result *res, const char *agent);

#endif
