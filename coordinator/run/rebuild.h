/*
 * run/rebuild.h (rebuild.c) - run.json and seconds.bin again from the
 * record log
 */
#ifndef BC_RUN_REBUILD_H
#define BC_RUN_REBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "results/stepres.h"

struct bc_profile;
struct bc_secw;
struct bc_step;
struct bc_volnode;

/*
 * Reconstruct DIR/run.json from DIR/events.jsonl (the
 * coordinator died before writing it, or wrote it mid-step). Returns 0 or
 * -errno with a message in err.
 */
int bc_rebuild_from_events(const char *dir, char *err, size_t errlen);

/*
 * The same replay of DIR/events.jsonl with every step's measured window
 * seconds [from_s, to_s) of the step (second 0 is its first, ramp
 * included; clipped to the step's length, UINT32_MAX: its end): OUT/run.json and
 * OUT/seconds.bin, figures at every level (volume, agent, node, total)
 * with percentiles from the window's merged histograms. DIR is only
 * read; OUT must exist and differ from DIR. 0 or -errno with a message.
 */
int bc_rebuild_window(const char *dir, const char *out, uint32_t from_s, uint32_t to_s, char *err,
		      size_t errlen);

/*
 * What a resumed run (bench-coord run --resume DIR) starts from: the
 * replay of DIR/events.jsonl (run.json and seconds.bin written again, as
 * bc_rebuild_from_events), with seconds.bin left open for the steps that
 * follow and where the logs' whole content ends (a line or frame the kill
 * cut short is past it, and is cut off before anything is appended).
 */
struct bc_resume {
	cJSON *run;	      /* run.json as rebuilt, owned by the caller */
	struct bc_secw *secw; /* DIR/seconds.bin, open; the caller closes it */
	uint32_t secw_steps;  /* steps in it: the next one's ordinal */
	uint64_t events_end;  /* events.jsonl's end after its last whole line */
	uint64_t records_end; /* records.bin's end after the last frame a line names; 0: none */
	bool ended;	      /* the log has the run's end: there is nothing to resume */
	/*
	 * the step the log ends in (no later step, no run_resume): its
	 * step_start event, owned, or NULL; for each agent (profile order) 1 +
	 * the newest second of its records and whether its drain and STEP_DONE
	 * are in; the time of the step's last event (CLOCK_REALTIME): what a
	 * resumed coordinator re-attaching to it (run/reattach.h) lacks
	 */
	cJSON *open_step;
	uint32_t *held;
	bool *drained, *done;
	uint64_t last_ns;
};
/*
 * The step the log of run directory dir ends in, replayed as far as the
 * log goes and left open, for a resumed coordinator to take it up live
 * (run/reattach.h): its records added and its seconds closed as the dead
 * coordinator closed them, its host samples, READY bodies, STEP_DONE
 * bodies and the events its stop rules logged, and its node counters'
 * samples into counters (counters/counters.h: the step replayed, to be
 * taken up with bc_counters_step_from); step: the step as it ran
 * (res.step points at it); volnode: each volume's node. p: the profile
 * the directory holds, kept. Nothing is written. 0, -ENOENT (the log ends
 * in no step) or -errno, with err.
 */
struct bc_open_step {
	struct bc_step_result res;
	struct bc_step *step;
	struct bc_volnode *volnode;
};
struct bc_counters;
int bc_rebuild_open_step(const char *dir, struct bc_profile *p, struct bc_counters *counters,
			 struct bc_open_step *out, char *err, size_t errlen);
void bc_open_step_free(struct bc_open_step *o);

/* frees what bc_rebuild_resume gave besides run and secw */
void bc_resume_free(struct bc_resume *res);
int bc_rebuild_resume(const char *dir, struct bc_resume *out, char *err, size_t errlen);

/*
 * a step entry the coordinator's end interrupted, which the resumed run ran
 * again: says so ("interrupted"), its measured seconds kept as they are
 */
void bc_rebuild_mark_interrupted(cJSON *sj);
/* run.json's "resumed" list gets the run_resume event ev (without "event") */
void bc_rebuild_resume_note(cJSON *run, const cJSON *ev);

#endif
