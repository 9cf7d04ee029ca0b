/*
 * run/experiment.h (experiment.c) - an FDP write-amplification
 * experiment run as ordinary steps: a step's "experiment" expanded into its
 * modes' precondition, warmup and measurement steps. Design and profile
 * syntax: docs/fdp.md, profile/experiment.h.
 */
#ifndef BC_RUN_EXPERIMENT_H
#define BC_RUN_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "profile/experiment.h"
#include "profile/profile.h"

struct bc_fleet;
struct bc_rundir;

/*
 * Run profile step idx, which has an "experiment": for each mode its
 * precondition steps, warmup and measurement iterations, each appended to
 * steps as its own entry (with "experiment_of", "mode", "phase",
 * "iteration") and flushed; the last entry gets "experiment" (the per-mode
 * figures and the verdict, bc_fdp_summary). 0 or -errno with err set.
 */
int bc_run_experiment(struct bc_fleet *f, struct bc_rundir *rd, int idx, cJSON *steps,
		      void (*flush)(void *), void *ctx, bool *degraded, char *err, size_t errlen);

/*
 * run.json entry sj of step `ran`, one of profile step pstep's experiment,
 * rebuilt from events.jsonl (rebuild.c): its experiment_of, mode, phase,
 * part, iteration and placements from its name and workload. Nothing when
 * pstep has no experiment or sj has them already.
 */
void bc_experiment_annotate(cJSON *sj, const struct bc_step *pstep, const struct bc_step *ran);

/* each experiment's summary onto its last entry of steps, where it has none (rebuild.c) */
void bc_experiment_summarize_all(cJSON *steps, const struct bc_profile *p);

#endif
