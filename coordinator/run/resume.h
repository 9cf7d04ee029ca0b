/*
 * run/resume.h - where a resumed run (bench-coord run --resume DIR) takes
 * the profile up again (resume.c): from run.json's entries as the replay of
 * events.jsonl rebuilt them, the first profile step, or sweep point, that
 * did not complete. An interrupted entry stays as it was measured, marked;
 * what follows it runs as new entries.
 */
#ifndef BC_RUN_RESUME_H
#define BC_RUN_RESUME_H

#include <cjson/cJSON.h>

#include "profile/profile.h"
#include "profile/sweep.h"

struct bc_resume_at {
	int step;	    /* the first profile step to run; nsteps: every one completed */
	int points;	    /* of a sweep: its points that completed (they are not run again) */
	cJSON *interrupted; /* the entry the coordinator's end cut short, or NULL */
	const char *why;    /* an experiment taken up from its start: why */
};

/* where to resume the profile p whose run.json has entries steps */
void bc_resume_plan(const struct bc_profile *p, cJSON *steps, struct bc_resume_at *at);

/*
 * point n (from 0) of sweep `sweep` as a completed entry of steps records it:
 * the stop rule's figures in *r; its entry, or NULL when steps has no such point
 */
cJSON *bc_resume_point(cJSON *steps, const char *sweep, int n, struct bc_sweep_result *r);

#endif
