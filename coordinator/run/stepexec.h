/*
 * run/stepexec.h - one step (or sweep point) run on every agent (stepexec.c)
 */
#ifndef BC_RUN_STEPEXEC_H
#define BC_RUN_STEPEXEC_H

#include <cjson/cJSON.h>

#include "profile/profile.h"

struct bc_agg;
struct bc_fleet;
struct bc_conn;
struct bc_rundir;
struct bc_step_result;

/* the PREPARE (and CHECK) body of step st (profile step idx) for agent c; caller owns it */
cJSON *bc_prepare_body(const struct bc_fleet *f, const struct bc_conn *c, int idx,
		       const struct bc_step *st);
/*
 * Run st (profile step step_idx, or one point of its sweep) on every agent
 * that is not lost; res is filled whatever happens. 0 or -errno.
 */
int bc_step_execute(struct bc_fleet *f, struct bc_rundir *rd, int step_idx,
		    const struct bc_step *st, struct bc_step_result *res);

/*
 * A step in flight taken up by a resumed coordinator (run/reattach.h):
 * res as the replay of the log left it (run/rebuild.h bc_rebuild_open_step,
 * its held filters set), the agents told to send on (REATTACH). From here
 * it runs as any step: the live view, the stop rules (their state made
 * again from the seconds in the log), node counters from second boundary
 * from_b on (none before: no coordinator scraped them), the clock drift
 * check and the verdict, each logged for the replay. 0 or -errno
 * (res->error; the agents are told ABORT).
 */
int bc_step_take_up(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
		    uint32_t from_b);

/*
 * Work of the loop thread that takes seconds at scale, run beside the fleet
 * (bc_fleet_beside) so every session stays alive: bc_agg_init (it zeroes
 * every second's slots) with bc_agg_pool_start (threads workers; their
 * rings are faulted in: 0.7 s on a busy 2-core host), bc_result_step_json,
 * bc_step_result_free
 */
int bc_fleet_agg_init(struct bc_fleet *f, struct bc_agg *g, const struct bc_step *st, int threads);
cJSON *bc_fleet_step_json(struct bc_fleet *f, const struct bc_step_result *res);
void bc_fleet_step_free(struct bc_fleet *f, struct bc_step_result *res);

#endif
