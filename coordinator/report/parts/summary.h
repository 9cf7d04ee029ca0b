/*
 * report/parts/summary.h (report/parts/summary.c) - the answer a report opens
 * with, computed from run.json alone: what was tested (client hosts,
 * volumes, storage nodes, workloads, duration), the headline figures with
 * their units, where the ceiling is and why in one sentence per sweep with
 * the confidence and what lowers it, and the caveats (contended or suspect
 * steps, steps that failed or never started, failed checks, unsteady
 * windows, I/O errors, suspects not measured). summary.md and report.html
 * render the same struct.
 */
#ifndef BC_REPORT_PARTS_SUMMARY_H
#define BC_REPORT_PARTS_SUMMARY_H

#include <cjson/cJSON.h>

#include "report/parts/notes.h"

struct bc_report;
struct bc_sweep;

#define BC_SUM_FIGS 10
/* ceilings told, one per sweep (the last ones); any more are in their own sections */
#define BC_SUM_CEIL 4

/* a headline figure */
struct bc_sum_fig {
	const char *key; /* stable name: "peak_iops", "peak_mbps", "knee_p99_us" ... */
	char label[64];	 /* "Peak IOPS" */
	double value;	 /* as run.json has it (IOPS, MB/s, microseconds, a count) */
	char text[64];	 /* as shown: "578,836", "2.37 GB/s", "16.1 \u00b5s" */
	char where[160]; /* the step it comes from, or what it counts */
	int step;	 /* that step's index in run.json, -1 */
};

/* where a sweep's ceiling is, why, and how sure the tool is */
struct bc_sum_ceiling {
	char sentence[4096];
	const char *confidence; /* "high", "medium", "low" */
	char why[900];		/* what lowers it, "" when high */
	char unmeasured[1400];	/* the suspects not measured in one line, how to measure them */
	char anchor[32];	/* its section in report.html: "sweep-0", "step-3" */
};

struct bc_summary {
	char tested[2400];
	struct bc_sum_fig fig[BC_SUM_FIGS];
	int nfig;
	struct bc_sum_ceiling ceil[BC_SUM_CEIL];
	int nceil;
	struct bc_notes caveats; /* what changes how the figures read, BC_NOTE_WARN each */
};

/* the summary of r with its sweeps (bc_sweeps_make); bc_summary_free after */
void bc_summary_make(struct bc_summary *s, const struct bc_report *r, const struct bc_sweep *sw,
		     int nsw);
void bc_summary_free(struct bc_summary *s);

/*
 * the system under test in words for the environment section: the profile
 * and its steps, each client host's volumes, the versions, the client NICs
 */
void bc_summary_profile(struct bc_notes *n, const struct bc_report *r);

/*
 * An analysis's suspects left not measured, in one line with how each would
 * be measured ("node NIC, node CPU: name the storage nodes ..."); "" when
 * every suspect was measured
 */
void bc_summary_unmeasured(const cJSON *analysis, char *buf, size_t len);

#endif
