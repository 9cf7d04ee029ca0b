/*
 * run/steprun.h - a profile step, swept or not, into run.json's steps array
 * (steprun.c)
 */
#ifndef BC_RUN_STEPRUN_H
#define BC_RUN_STEPRUN_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

struct bc_fleet;
struct bc_rundir;

int bc_run_profile_step(struct bc_fleet *f, struct bc_rundir *rd, int idx, cJSON *steps,
			void (*flush)(void *), void *ctx, bool *degraded, char *err, size_t errlen);

#endif
