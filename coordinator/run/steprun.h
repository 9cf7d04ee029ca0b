/*
 * run/steprun.h - a profile step, swept or not, into run.json's steps array
 * (steprun.c)
 */
#ifndef BC_RUN_STEPRUN_H
#define BC_RUN_STEPRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

struct bc_fleet;
struct bc_rundir;

struct bc_profile;

/* the seconds a whole profile runs (steps, sweep points, experiments) and its run.json entries */
void bc_run_profile_size(const struct bc_profile *p, uint32_t *seconds, uint32_t *entries);
/* the same of every profile step after step idx */
uint32_t bc_run_seconds_after(const struct bc_profile *p, int idx, uint32_t *entries);

/*
 * profile step idx into steps; skip: of a sweep, its first points, which a
 * run resumed (bench-coord run --resume) has in steps already
 */
int bc_run_profile_step(struct bc_fleet *f, struct bc_rundir *rd, int idx, int skip, cJSON *steps,
			void (*flush)(void *), void *ctx, bool *degraded, char *err, size_t errlen);

#endif
