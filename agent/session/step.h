/*
 * session/step.h - one step's life on the agent (step.c): PREPARE opens the
 * volumes and builds the job threads, START arms them, then STATS every
 * interval and STEP_DONE; CHECK runs PREPARE's checks alone.
 */
#ifndef BC_SESSION_STEP_H
#define BC_SESSION_STEP_H

#include <cjson/cJSON.h>

#include "session/agent.h"

/*
 * The fault-injection seam: calls the session makes where a test needs the
 * agent to misbehave in a way a real device cannot be made to (the way SQLite
 * keeps its system calls in a replaceable table to inject EIO). Every member
 * is NULL in bench-agent; a test program links the agent, fills the table
 * and runs the agent's main (tests/e2e/agent_overcount.c). Set before the
 * agent starts, read by the control thread only.
 */
struct bc_agent_faults {
	/* an interval's counters, nvol volumes, just before they are encoded into STATS */
	void (*stats_out)(struct bc_volstat *acc, int nvol);
};
extern struct bc_agent_faults bc_agent_faults;
int bc_step_prepare(struct bc_agent *a, const cJSON *body);
int bc_step_start(struct bc_agent *a, const cJSON *body);
/*
 * CHECK (the pre-flight): every volume of a PREPARE-shaped body through
 * PREPARE's own checks, nothing opened for writing; answers CHECKED with
 * {volume, path, resolved, ok, message} per volume. The step is untouched.
 */
int bc_step_check(struct bc_agent *a, const cJSON *body);
/*
 * STOP {step, second}: the running step ends at that second (the jobs seal it
 * and drain, the seconds after it are not sent); a step already over ignores it
 */
int bc_step_stop(struct bc_agent *a, const cJSON *body);
/* while PREPARE lays files out: PROGRESS, then READY (or ERROR); called every tick */
void bc_step_layout_poll(struct bc_agent *a);
/* collect sealed intervals and send STATS / STEP_DONE; called every tick */
void bc_step_poll(struct bc_agent *a);
/* stop I/O and free the step (ABORT, BYE, silence, shutdown) */
void bc_step_teardown(struct bc_agent *a);

#endif
