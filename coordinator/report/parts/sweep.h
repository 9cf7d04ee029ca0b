/*
 * report/parts/sweep.h (report/parts/sweep.c) - a sweep as the reports tell
 * it: its points in order (the swept value, the load, IOPS, MB/s, p50, p99
 * and mean latency of each), the knee and the analysis of its last point,
 * gathered once from run.json's steps (run.json keeps a point per step and
 * the sweep's columns and analysis on the last one) for the summary, the
 * sweep's section, its charts and its table.
 */
#ifndef BC_REPORT_PARTS_SWEEP_H
#define BC_REPORT_PARTS_SWEEP_H

#include <stdbool.h>

#include <cjson/cJSON.h>

struct bc_report;

#define BC_SWEEP_POINTS 64 /* a sweep's points shown; run.json's sweep table has at most this */

struct bc_sweep_pt {
	const cJSON *step; /* the point's run.json step */
	char label[48];	   /* the swept value as written ("16", "4k", "70%") */
	double value;	   /* as a number (NAN for rw names) */
	double n;	   /* the load: I/Os in flight asked (iodepth x jobs x volumes), NAN */
	double iops, mbps, p50_us, p99_us, mean_us; /* the total over the window, NAN */
	const char *cls;			    /* the analysis's class of the point, or NULL */
	bool ok; /* status "ok" (or degraded/suspect: measured) */
};

struct bc_sweep {
	const char *name;  /* the profile step swept (run.json sweep_of) */
	const char *param; /* "iodepth", "numjobs", "bs", "rw", "rate" ... */
	int first;	   /* the index in run.json's steps of its first point */
	int steps;	   /* run.json steps it spans: its points, or 1 (a step with the columns) */
	int n;
	struct bc_sweep_pt pt[BC_SWEEP_POINTS];
	int knee; /* index of the knee in pt, -1 when none */
	bool knee_confirmed;
	const char *knee_reason;
	const cJSON *analysis; /* the last point's analysis (the sweep's), or NULL */
	const cJSON *last;     /* the last point's step */
	bool x_log2;	       /* the swept values double: iodepth, numjobs, bs */
};

/*
 * The run's sweeps in order (a point of each in run.json, consecutive
 * steps of one sweep_of). *out is an array the caller frees; returns how
 * many (0 when none or without memory).
 */
int bc_sweeps_make(const struct bc_report *r, struct bc_sweep **out);

/* the point of sw at the knee, else the one with the most IOPS; NULL when it has none */
const struct bc_sweep_pt *bc_sweep_peak(const struct bc_sweep *sw);

#endif
