/*
 * run/drift.h - the agents' clocks against the coordinator's, step by step.
 * An agent's clock that runs at another rate than the coordinator's moves
 * its seconds off the common timeline (1% fast: 1% more I/O in each of its
 * "seconds" than in the coordinator's), so:
 *   - before START the rate since the previous offset estimate is measured
 *     (at least 1 s apart) and, where it is significant (beyond twice its
 *     uncertainty and BC_DRIFT_APPLY_PPM), START tells the agent the
 *     coordinator's second in its own clock ("second_ns"): each of its
 *     intervals is then one second of the coordinator's timeline;
 *   - during the step a TIME exchange with each agent every second, and at
 *     its end the offset from the best (minimum round trip) of the latest
 *     ones: the drift over the step, with its uncertainty, goes into the
 *     step's "clock_end" and its checks (results/checks.c), which flag an
 *     agent whose clock drifted beyond BC_DRIFT_BOUND_PPM.
 */
#ifndef BC_RUN_DRIFT_H
#define BC_RUN_DRIFT_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

struct bc_fleet;
struct bc_conn;

/* a rate this far off (parts per million) is corrected by second_ns */
#define BC_DRIFT_APPLY_PPM 20

/*
 * The clock exchange before START (bc_fleet_clock_sync), at least 1 s after
 * each agent's previous estimate, and each agent's rate from the two:
 * c->second_ns. 0 or -errno with err.
 */
int bc_drift_sync(struct bc_fleet *f, char *err, size_t errlen);

/* during the step: a TIME request to each agent whose last one is a second old */
void bc_drift_tick(struct bc_fleet *f);

/* a TIME answer during the step: its sample kept when it answers c's request */
void bc_drift_on_time(struct bc_conn *c, const cJSON *body);

/*
 * At the step's end: per agent with samples, {offset_ns, uncertainty_ns,
 * after_ms, drift_ppm, drift_uncertainty_ppm} against its estimate before
 * START; the agents' estimates move to the end's. NULL when none answered.
 */
cJSON *bc_drift_end(struct bc_fleet *f);

#endif
