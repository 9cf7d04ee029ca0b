/*
 * results/stepres.h (stepres.c) - one step's result: what the step did, its
 * aggregation, the agents' totals, host and node samples; and the small
 * questions the checks, the verdict and the reports ask of it
 */
#ifndef BC_RESULTS_STEPRES_H
#define BC_RESULTS_STEPRES_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "agg/agg.h"
#include "profile/profile.h"
#include "results/steadystop.h"

struct bc_hostsamples;
struct bc_fidelity;

struct bc_step_result {
	const struct bc_step *step; /* the step as run: a sweep point's or experiment's copy */
	int idx;		    /* its profile step (events' "step") */
	const char *status;	    /* "ok", "failed", "aborted" */
	char error[1024];
	uint64_t start_ns; /* coordinator CLOCK_REALTIME of interval 0 */
	struct bc_agg agg;
	cJSON *agent_totals; /* STEP_DONE bodies by agent name */
	cJSON *ready;	     /* READY bodies by agent name: "backing", "layout" (fidelity.c) */
	/* did the figures measure the storage (results/fidelity.h), owned: freed by fid_free */
	struct bc_fidelity *fid;
	void (*fid_free)(struct bc_fidelity *fid);
	cJSON *clock;	  /* per-agent clock offset re-measured before START */
	cJSON *clock_end; /* per-agent offset and drift at the step's end (run/drift.h) */
	cJSON *lost;	  /* agents lost during this step: [{name, from_second, reason}] */
	/* agents HELLOed again in its PREPARE (they had no session): [{name, reason}] */
	cJSON *rejoined;
	/*
	 * its coordinator died and a resumed one re-attached to the step in
	 * flight (run/reattach.h): [{gap_s, from_second, agents{...}}], owned
	 */
	cJSON *gaps;
	/* agents' host samples (results/hostsamples.h), NULL before the first */
	struct bc_hostsamples *hosts;
	cJSON *node_counters; /* {node: bc_counters_node_json()} */
	cJSON *analysis;      /* bc_ana_json() of the step as one point */
	bool *
	    out; /* [prof->nagents]: lost in an earlier step, not in this one; owned, may be NULL */
	/* "until_stopped" and the user stopped it: its seconds (agg.seconds), else 0 */
	uint32_t stopped_s;
	/* "stop_bytes": the bytes after the ramp so far, and the second the step ends at once
	 * they reached it (agg.seconds), else 0 */
	uint64_t win_bytes;
	uint32_t bytes_stopped_s;
	/* "stop_window_pct": the I/O windows of the step's volumes that run, added up from
	 * READY (win_end - win_start) */
	uint64_t ready_window_bytes;
	/* "stop_steady": its window and whether, and when, the step was steady */
	struct bc_steady_track steady;
	/*
	 * a step a resumed coordinator takes up (run/reattach.h): per agent
	 * (profile order) 1 + its newest second the log holds, and whether its
	 * drain and STEP_DONE are in; what the agents send again of these is
	 * dropped. NULL in any other step; not owned
	 */
	const uint32_t *held;
	const bool *held_drain, *held_done;
	/* and when (CLOCK_REALTIME): a second that ended before is due from then */
	uint64_t taken_up_ns;
};

/* free what a step result owns and zero it, for the next step */
void bc_step_result_free(struct bc_step_result *r);
/* seconds of the measured window in which e received at least one record */
uint32_t bc_result_window_secs(const struct bc_agg *g, const struct bc_entity *e);
/* profile agent a is not in this step (lost in an earlier one, "continue") */
bool bc_result_agent_out(const struct bc_step_result *r, int a);
/* the agent named was lost during this step */
bool bc_result_agent_lost(const struct bc_step_result *r, const char *name);
/* I/Os the step keeps in flight (iodepth x numjobs) over the volumes in it */
double bc_result_outstanding(const struct bc_step_result *r);
/* a size-based step whose pass ended early ends with its last second of I/O */
void bc_result_trim_size_based(struct bc_step_result *r);

/* the step or one of its volumes is a pass (size-based, a KV store): its window may end early */
bool bc_result_size_based(const struct bc_step_result *r);
/*
 * Profile agent agent's host object of second (the HOST message's) into
 * r->hosts, made at the first; 0, -EINVAL or -ENOMEM
 */
int bc_result_host_sample(struct bc_step_result *r, int agent, double second, const cJSON *host);
/* the host samples' window ends where the step's seconds do (after any trim) */
void bc_result_hosts_settle(struct bc_step_result *r);
/*
 * "ok", or "degraded" when an agent was lost in this step or an earlier one
 * (bc_fidelity_status makes an "ok" one "suspect" where the devices did not
 * move its bytes)
 */
const char *bc_result_ok_status(const struct bc_step_result *r);

#endif
