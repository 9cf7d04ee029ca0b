/*
 * run/reattach.h - a resumed run (bench-coord run --resume) takes up the step
 * its coordinator died in, still running on agents given an orphan_grace
 * (reattach.c; the agent's side is agent/session/orphan.h). Each HELLO
 * carries the step and its start ("resume"); an agent still in that step
 * hands its session over and says which records it kept (HELLO_OK
 * "reattach"); REATTACH asks each for the seconds the run directory lacks,
 * and the step's records, host samples and STEP_DONE are logged as the live
 * step logs them, after a `coordinator_gap` event. The replay of the log
 * (run/rebuild.h) then makes one continuous step of it.
 */
#ifndef BC_RUN_REATTACH_H
#define BC_RUN_REATTACH_H

#include <stddef.h>

struct bc_fleet;
struct bc_resume;
struct bc_rundir;

/* every connection's HELLO asks for the step the log ends in (res->open_step), if any */
void bc_reattach_plan(struct bc_fleet *f, const struct bc_resume *res);

/*
 * After bc_fleet_hello: 1 when every agent took the step up again and it ran
 * to its end, its records logged in rd; 0 when it could not be re-attached
 * (why: per agent), the agents that were told ABORT, the run going on as
 * without; -errno when the run must stop (interrupted: err).
 */
int bc_reattach_run(struct bc_fleet *f, struct bc_rundir *rd, const struct bc_resume *res,
		    char *why, size_t whylen);

#endif
