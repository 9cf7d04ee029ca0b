/*
 * results/checks.h - cross-checks of a finished step (checks.c): the figures
 * recomputed from independent sources, and the warnings they give
 */
#ifndef BC_RESULTS_CHECKS_H
#define BC_RESULTS_CHECKS_H

#include <cjson/cJSON.h>

struct bc_step_result;

/* the cross-checks of a finished step, as a run.json array */
cJSON *bc_checks_json(const struct bc_step_result *r);
/* print failed cross-checks and an unsteady window of a step (sj: its run.json object) */
void bc_result_warn_checks(const struct bc_step_result *res, const cJSON *sj);

#endif
