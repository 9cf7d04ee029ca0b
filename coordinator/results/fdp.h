/*
 * results/fdp.h (results/fdp.c) - what an FDP experiment's steps add up
 * to, as run.json's "experiment" object
 */
#ifndef BC_RESULTS_FDP_H
#define BC_RESULTS_FDP_H

#include <cjson/cJSON.h>

#include "profile/experiment.h"

/*
 * The experiment object of step `name` from run.json's
 * step entries (those with "experiment_of" == name): per mode the
 * measurement iterations' device counter deltas summed (host and media
 * bytes, WAF = media / host, its status), the merged read/write p50/p99,
 * the precondition's bytes; the verdict rows of x's expectations; the
 * GC-reached judgement; and, when x names a reference run directory, the
 * per-mode comparison with it. Caller owns the result.
 */
cJSON *bc_fdp_summary(const cJSON *steps, const char *name, const struct bc_experiment *x);

/*
 * Per mode of two experiment objects (matched by mode name): WAF and write
 * p99 of each and the differences. Caller owns the array.
 */
cJSON *bc_fdp_compare(const cJSON *now, const cJSON *ref);

#endif
