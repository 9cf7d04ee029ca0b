/*
 * report/parts/rundata.h (rundata.c) - a run directory as the report writers read
 * it: run.json, profile.json, the devices the agents opened, and the
 * volumes' series from seconds.bin. Made from the directory's files alone.
 */
#ifndef BC_REPORT_PARTS_RUNDATA_H
#define BC_REPORT_PARTS_RUNDATA_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "profile/profile.h"

struct bc_heat;
struct bc_report_secf;

/* what the writers read; all owned by the struct (bc_report_free) */
struct bc_report {
	char dir[BC_PATH_MAX];
	cJSON *run;	/* run.json */
	cJSON *profile; /* profile.json (resolved), NULL when missing */
	/*
	 * {"<agent>": [{"path", "resolved", "kind", "size", "lbs", "pbs"}, ...]}:
	 * the first READY of each agent in events.jsonl (the opened device), else
	 * the HELLO "paths" in run.json (checked before anything was created)
	 */
	cJSON *devices;
	/* evaluated "expect" criteria (report/expect.c), [] when none */
	cJSON *expect;
	bool run_borrowed; /* run is the caller's (bc_report_write_all_run): not freed here */
	/* per-second latency histograms for the heatmaps (bc_rundata_heat), or NULL */
	struct bc_heat *heat;
	/* summary.md carries vdbench's interval table (run --format vdbench, report --format) */
	bool vdbench;
	/*
	 * seconds.bin (agg/secfile.h), open when a step's volumes have their
	 * series there, and where bc_report_series last found one (report.c)
	 */
	struct bc_report_secf *secf;
	/*
	 * a step's volumes / client hosts are listed whole up to this many,
	 * summarised above (0: bc_full_limit, results/fullsize.h); unit tests
	 * lower them
	 */
	int full_volumes, full_agents;
};

/*
 * the level lvl of bc_report_levels (1 agents, 2 nodes, 3 volumes) of a step
 * with n entities is listed whole (report.html's rows, timeseries.csv's)
 */
bool bc_report_whole(const struct bc_report *r, int lvl, int n);
/*
 * the run is large enough that some level is summarised: report.html and
 * summary.md then leave the environment's per-host and per-device tables
 * to volumes.html, which lists everything
 */
bool bc_report_summarised(const struct bc_report *r);

/*
 * entity e's per-second series (run.json "series") in step st: its own, or
 * for a volume whose series run.json's tree does not hold (the run still
 * writing, bc_runjson_write), made from seconds.bin into *tmp, which the
 * caller deletes. NULL when neither has one. A long step's entities
 * (results/fullsize.h) are read per minute: their "minutes" (run.json's,
 * else made from seconds.bin), the same keys a value per minute.
 */
const cJSON *bc_report_series(const struct bc_report *r, const cJSON *st, const cJSON *e,
			      cJSON **tmp);

/*
 * Latency bins of the reports' charts: BC_LAT_BINS_DECADE a decade from
 * BC_LAT_LO_US up (100 ns to 100 s), each a range of the histograms'
 * buckets (wire/hist.h, 128 per power of two) by their midpoints.
 */
#define BC_LAT_BINS_DECADE 10
#define BC_LAT_LO_US	   0.1
#define BC_LAT_BINS	   (9 * BC_LAT_BINS_DECADE)
/* the bin of a latency in microseconds (clamped to the range) and a bin's lower edge */
int bc_lat_bin(double us);
double bc_lat_bin_lo(int b);

/*
 * Columns of a heatmap at most: the plot is 424 px wide, and a long step's
 * seconds (one <rect> per second and bin) made report.html tens of MB that
 * Chromium took seconds to draw; grouped, a column's histograms are summed
 * (exactly, as counts) and its shade is the share of the column's I/Os.
 */
#define BC_HEAT_COLS 120
/*
 * one step's histograms of the total per column (g seconds each: a day-long
 * step holds BC_HEAT_COLS columns, not 86,400 seconds), in latency bins
 */
struct bc_heat_step {
	int seconds, g, cols;
	double *cnt[2]; /* read, write: [column * BC_LAT_BINS + bin] */
	double total[2];
};
struct bc_heat {
	int nsteps;
	struct bc_heat_step *st; /* [nsteps], in run.json's order */
	char note[160];		 /* why there is none, or "" */
};
/*
 * r->heat read once: each second's merged histogram of each step's total
 * from seconds.bin, or from events.jsonl's records (a run without
 * seconds.bin; at most 512 MiB of it, else the note says why there is
 * none). 0 or -ENOMEM; freed with the rest (bc_rundata_free).
 */
int bc_rundata_heat(struct bc_report *r);

/* the entity levels of a run.json step, in report order */
struct bc_report_level {
	const char *key;   /* "total" (an object) or "agents", "nodes", "volumes" */
	const char *label; /* "total", "agent", "node", "volume" */
};
extern const struct bc_report_level bc_report_levels[4];

/*
 * Load DIR/run.json (required; run instead, borrowed, when the caller has
 * the tree), DIR/profile.json, the devices from DIR/events.jsonl and
 * seconds.bin. 0, or -errno with a one-line message in err. _free frees
 * what _load made (the driver frees expect: bc_report_free).
 */
int bc_rundata_load(struct bc_report *r, const char *dir, cJSON *run, char *err, size_t errlen);

/* r's devices as the agents opened them for the step of index step (its "ready" record) */
void bc_report_devices_of_step(struct bc_report *r, int step);
void bc_rundata_free(struct bc_report *r);

#endif
