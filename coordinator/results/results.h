/*
 * results/results.h (results.c) - a step's run.json object: every level's
 * window figures and series, clocks, host samples, losses, checks, the
 * verdict and the per-format tables (the result itself: results/stepres.h)
 */
#ifndef BC_RESULTS_RESULTS_H
#define BC_RESULTS_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "agg/agg.h"
#include "profile/profile.h"
#include "results/stepres.h"
#include "wire/stats.h"

cJSON *bc_result_step_json(const struct bc_step_result *r);
/* one row of figures: IOPS, MB/s, latency percentiles for a window */
cJSON *bc_result_window_json(const struct bc_volstat *w, uint32_t seconds);

#endif
