/*
 * report/parts/versus.h (report/parts/versus.c) - a step of several runs
 * against the first run's, by the interval rule of `compare`: each run's
 * IOPS, MB/s, mean and p99 latency with its 95% interval (over the step's
 * repetitions, else its seconds: report/parts/repeat.h), the difference from
 * the first with its interval (Welch, figures/ci.h), and what the statistics
 * support - higher, lower, not distinguishable. Computed once; the terminal,
 * the Markdown file and compare.html render it.
 */
#ifndef BC_REPORT_PARTS_VERSUS_H
#define BC_REPORT_PARTS_VERSUS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "figures/ci.h"
#include "profile/profile.h"

#define BC_VS_RUNS 32
#define BC_VS_FIGS 4

/* the figures judged: head, key (of bc_rep_ci), decimals of ms / counts, latency? */
struct bc_vs_fig {
	const char *head, *key;
	int decimals;
	bool lat; /* in ms as bc_rep_ci gives it */
};
extern const struct bc_vs_fig bc_vs_figs[BC_VS_FIGS];

struct bc_vs_cell {
	bool have;	 /* the run has the step finished */
	struct bc_ci ci; /* its mean and interval */
	bool reps;	 /* over repetitions (else seconds) */
	enum bc_cmp cmp; /* against the first run's (the first: BC_CMP_SAME) */
	struct bc_ci d;	 /* the difference from the first's */
	char diff[96];	 /* "+12.3% [+10.1%, +14.5%]", "-", the first's "(reference)" */
};

struct bc_vs_step {
	char name[BC_NAME_MAX + 32];
	int nruns;
	struct bc_vs_cell cell[BC_VS_RUNS][BC_VS_FIGS];
	bool differ, comparable;
	char verdict[1024]; /* "DIFFERENT: B IOPS higher; ...", "not distinguishable", ... */
};

/* step name of runs[0..n) (labels name them in the verdict) against runs[0] */
void bc_vs_step(const cJSON *const *runs, const char *const *labels, int n, const char *name,
		struct bc_vs_step *out);
/*
 * Append to verdict that a contended run was compared: the runs of runs[0..n)
 * in which step name (or one of its repetitions, "name#k") ran on a client
 * host whose CPU other processes held (results/fidelity.h). They are
 * compared all the same; their figures are the host's, not the storage's.
 */
void bc_vs_contended(const cJSON *const *runs, const char *const *labels, int n, const char *name,
		     char *verdict, size_t len);
/* a cell's interval as text: "[1234, 1456] (5 reps)", "(no interval, n=2)" */
void bc_vs_ci_text(const struct bc_vs_cell *c, int decimals, char *buf, size_t len);

#endif
