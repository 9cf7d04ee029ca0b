/*
 * results/files/space.h - room for the run directory: what a run is expected to
 * write there, said before it starts when the filesystem has less free, and
 * watched while it runs so that a filesystem filling up is said while there
 * is still time to make room (a full one fails the run: outfail.h).
 *
 * The expectation, from runs of this build (docs/results.md, "Room for the
 * run directory"): 256 KiB, plus per run.json entry (a step, a sweep point)
 * 640 KiB of reports and 16 KiB per agent and per volume, plus per second
 * 1 KiB per agent and 160 bytes per volume (records.bin, seconds.bin,
 * events.jsonl); events logged as JSON take 5 KiB per volume-second, in
 * base64 1.5 KiB. While the run goes, the measured rate of its streams is
 * used when it is higher.
 */
#ifndef BC_RESULTS_SPACE_H
#define BC_RESULTS_SPACE_H

#include <stdbool.h>
#include <stdint.h>

struct bc_rundir;

struct bc_space_plan {
	uint64_t seconds; /* still to run */
	uint64_t entries; /* run.json entries still to come (steps, sweep points) */
	int agents, volumes;
	bool json, compact; /* events format (rundir.h's flags) */
};

/* bytes the plan is expected to write (see the file comment) */
uint64_t bc_space_expected(const struct bc_space_plan *pl);

/* before the run: a warning with the figures when dir's filesystem has less free */
void bc_space_prerun(const char *dir, const struct bc_space_plan *pl);

/*
 * During the run (called as seconds close; looks at most once a second): a
 * warning when the filesystem's free space is less than what is left to
 * write, and again each time it has halved since.
 */
void bc_space_watch(struct bc_rundir *r, const struct bc_space_plan *left);

#endif
