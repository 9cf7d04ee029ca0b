/*
 * bc_fdp.h - FDP write-amplification experiments on the coordinator: the
 * run (experiment.c expands a step's "experiment" into ordinary steps) and
 * what is made of them (report_fdp.c: per-mode figures, the verdict table,
 * the comparison with a reference run, the summary.md section). Design and
 * profile syntax: docs/fdp.md, common/bc_experiment.h.
 */
#ifndef BC_FDP_H
#define BC_FDP_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "bc_experiment.h"

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

/*
 * report_fdp.c: the experiment object of step `name` from run.json's
 * step entries (those with "experiment_of" == name): per mode the
 * measurement iterations' device counter deltas summed (host and media
 * bytes, WAF = media / host, its status), the merged read/write p50/p99,
 * the precondition's bytes; the verdict rows of x's expectations; the
 * GC-reached judgement; and, when x names a reference run directory, the
 * per-mode comparison with it. Caller owns the result.
 */
cJSON *bc_fdp_summary(const cJSON *steps, const char *name, const struct bc_experiment *x);

/*
 * Per mode of two experiment objects (matched by mode name): WAF and write
 * p99 of each and the differences. Caller owns the array.
 */
cJSON *bc_fdp_compare(const cJSON *now, const cJSON *ref);

/* the experiment object as Markdown (summary.md): modes, verdict, reference */
void bc_fdp_md(FILE *f, const cJSON *exp);

/* the same for report.html: modes table, verdict table, WAF bars */
void bc_fdp_html(FILE *f, const cJSON *exp);

/* the same, short, for the terminal at the end of the experiment */
void bc_fdp_print(FILE *f, const cJSON *exp);

#endif
