/*
 * bc_vdbench.h - vdbench's interval table: the 13 columns vdbench prints per
 * interval (i/o rate, MB/sec, bytes i/o, read pct, resp time, read resp,
 * write resp, read max, write max, resp stddev, queue depth, cpu% sys+u,
 * cpu% sys) and its avg_N-M line over the measured seconds. Rows are
 * computed here from the aggregated seconds (live lines, the step summary,
 * run.json's "vdbench") and rendered here from a row (the terminal and
 * summary.md), so every place prints the same figures. docs/vdbench.md.
 */
#ifndef BC_VDBENCH_H
#define BC_VDBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "bc_agg.h"
#include "bc_results.h"

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
 * Client hosts' cpu of second k from hosts ({agent: [sample with "second"]}):
 * the mean over agents with a sample of that second, or with latest, each
 * agent's newest sample up to k (live lines: a host sample comes just after
 * the second's STATS). NAN when there is none.
 */
void bc_vdb_cpu(const cJSON *hosts, uint32_t k, bool latest, double *cpu, double *sys);

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

/* vdbench's two header lines, date ("Sep 01, 2023") in the first column */
void bc_vdb_print_header(FILE *f, const char *date);
/* one line: time ("21:49:54.001"), interval label ("597", "avg_2-600") and the row */
void bc_vdb_print_row(FILE *f, const char *time, const char *label, const struct bc_vdb_row *r);
/* "Sep 01, 2023" and "21:49:54.001" of a CLOCK_REALTIME ns, local time */
void bc_vdb_date(uint64_t ns, char *buf, size_t len);
void bc_vdb_time(uint64_t ns, char *buf, size_t len);
/* the avg label of interval numbers first..last (1-based, as vdbench counts) */
void bc_vdb_avg_label(uint32_t first, uint32_t last, char *buf, size_t len);

/*
 * summary.md's vdbench section of a step from its run.json record st: the
 * total's table, and with several hosts or sds their avg lines and a table
 * each (vdbench's host and SD reports)
 */
void bc_vdb_md(FILE *f, const cJSON *st);

/* the avg line of a step just run, under its interval lines (--format vdbench) */
void bc_vdb_print_avg(FILE *f, const struct bc_step_result *r);

#endif
