/*
 * profile/sweep_check.h - the profile parser's check of a step's "sweep"
 * (profile/sweep_check.c); the sweep itself is profile/sweep.h.
 */
#ifndef BC_PROFILE_SWEEP_CHECK_H
#define BC_PROFILE_SWEEP_CHECK_H

#include <cjson/cJSON.h>

#include "profile/value/check.h"
#include "profile/workload/workload.h"

/* base."sweep" of a step (wl is the step's workload), every point checked, copied to *out */
int bc_check_sweep(struct bc_check *c, const cJSON *item, const char *base,
		   const struct bc_workload *wl, cJSON **out);

#endif
