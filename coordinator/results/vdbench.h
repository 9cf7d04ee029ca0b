/*
 * results/vdbench.h (results/vdbench.c) - vdbench's interval table computed:
 * the 13 columns vdbench prints per interval (i/o rate, MB/sec, bytes i/o,
 * read pct, resp time, read resp, write resp, read max, write max, resp
 * stddev, queue depth, cpu% sys+u, cpu% sys) and its avg_N-M line over the
 * measured seconds, from the aggregated seconds (live lines, the step
 * summary, run.json's "vdbench"). Rendered by report/parts/vdbench.h, so every place
 * prints the same figures. docs/vdbench.md.
 */
#ifndef BC_RESULTS_VDBENCH_H
#define BC_RESULTS_VDBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "agg/agg.h"
#include "results/stepres.h"

/* one line of the table; NAN where nothing was measured */
struct bc_vdb_row {
	double rate;	      /* I/Os per second */
	double mb_s;	      /* MB/sec in vdbench's unit, 1024**2 bytes per second */
	double bytes_io;      /* bytes per I/O */
	double read_pct;      /* reads, % of I/Os */
	double resp_ms;	      /* mean response time of every I/O */
	double read_resp_ms;  /* of reads; 0 without reads, as vdbench prints */
	double write_resp_ms; /* of writes; 0 without writes */
	double read_max_ms;   /* exact maxima */
	double write_max_ms;
	double resp_sd_ms;  /* population standard deviation of every I/O */
	double queue_depth; /* rate x resp time (Little's law), as vdbench derives it */
	double cpu_pct;	    /* client hosts' busy cpu (user+nice+system+irq+softirq) */
	double cpu_sys_pct; /* their kernel share (system+irq+softirq) */
};

/*
 * The 13 columns: run.json key, field, width and decimals of vdbench's
 * interval line, its two header lines. Every row, its JSON and its text
 * go through this table.
 */
#define BC_VDB_NCOLS 13
struct bc_vdb_col {
	const char *key;
	size_t off; /* of the figure in struct bc_vdb_row */
	int width, decimals;
	const char *head1, *head2;
};
extern const struct bc_vdb_col bc_vdb_cols[BC_VDB_NCOLS];
/* column c's figure of r */
double bc_vdb_value(const struct bc_vdb_row *r, size_t c);

/*
 * A second's row from its aggregated figures and seconds (1 for an
 * interval); cpu and sys are the client hosts' percentages (NAN: no sample).
 */
void bc_vdb_row_from_sec(const struct bc_secrow *r, double cpu, double sys, struct bc_vdb_row *out);
/*
 * The avg line from a window's counters and histograms over secs seconds
 * (those that carried records); cpu and sys are the means of the seconds'.
 */
void bc_vdb_row_from_window(const struct bc_volstat *w, uint32_t secs, double cpu, double sys,
			    struct bc_vdb_row *out);

/*
 * Client hosts' cpu of second k from their samples (results/hostsamples.h):
 * the mean over agents with a sample of that second, or with latest, each
 * agent's newest sample up to k (live lines: a host sample comes just after
 * the second's STATS). NAN when there is none.
 */
void bc_vdb_cpu(const struct bc_hostsamples *hosts, uint32_t k, bool latest, double *cpu,
		double *sys);

/*
 * The table of a step for run.json: {"first_interval", "last_interval",
 * "avg_label", "intervals": [row per second, null for one without records],
 * "avg": row, "hosts": [{"name", "intervals", "avg"} per agent], "sds":
 * [{"name", "host", "intervals", "avg"} per volume]}; every row as
 * bc_vdb_row_json (a host's or sd's seconds without resp stddev: only
 * nodes and the total merge a histogram per second). Caller owns it.
 */
cJSON *bc_vdb_step_json(const struct bc_step_result *r);
cJSON *bc_vdb_row_json(const struct bc_vdb_row *row);
/* back from bc_vdb_row_json; missing figures become NAN */
void bc_vdb_row_from_json(const cJSON *j, struct bc_vdb_row *out);
/* the avg row of a step's total over its measured window (the line under the intervals) */
void bc_vdb_step_avg(const struct bc_step_result *r, struct bc_vdb_row *out);
/* the avg label of interval numbers first..last (1-based, as vdbench counts) */
void bc_vdb_avg_label(uint32_t first, uint32_t last, char *buf, size_t len);

#endif
