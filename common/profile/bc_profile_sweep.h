/*
 * bc_profile_sweep.h - the profile parser's check of a step's "sweep"
 * (bc_profile_sweep.c); the sweep itself is bc_sweep.h.
 */
#ifndef BC_PROFILE_SWEEP_H
#define BC_PROFILE_SWEEP_H

#include <cjson/cJSON.h>

#include "bc_check.h"
#include "bc_workload.h"

/* base."sweep" of a step (wl is the step's workload), every point checked, copied to *out */
int bc_check_sweep(struct bc_check *c, const cJSON *item, const char *base,
		   const struct bc_workload *wl, cJSON **out);

#endif
