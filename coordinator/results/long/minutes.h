/*
 * results/long/minutes.h - a long step read per minute (minutes.c): what run.json and
 * the reports carry for a step longer than the limit of results/fullsize.h
 * (bc_long_step: an hour) instead of per-second series, and its drift.
 *
 * Computed once, after the step, by streaming over seconds.bin: the rows of
 * one entity at a time (every entity's per-minute figures: the mean, lowest
 * and highest second's IOPS, MB/s, the exact mean latency and maximum, the
 * worst second's p99, errors, late records) and one walk over the step's
 * HIST frames for the total's and the storage nodes' exact percentiles of
 * each minute (their seconds' histograms merged, never percentiles
 * averaged) and of each hour (the total). Memory is a few dense histograms
 * and a handful of numbers per minute: a day is 1,440 minutes, whatever the
 * volumes and seconds. The per-second data stay in seconds.bin
 * (`bench-coord dump-seconds`, `bench-coord report --window A-B` for any part
 * at full resolution).
 *
 * The drift of the total over the measured window: IOPS and exact p99 per
 * hour, their least-squares trends over the minutes in % of the mean per
 * hour, the worst minute by IOPS and by p99, and the time to steady state:
 * the start of the first 30 minutes whose per-minute IOPS stay within
 * +-10% of their mean with a trend across them under 10% of it (the
 * excursion rules of SNIA's Performance Test Specification, on minutes).
 */
#ifndef BC_RESULTS_MINUTES_H
#define BC_RESULTS_MINUTES_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "agg/secfile.h"

#define BC_MINUTE_S	    60
#define BC_STEADY_MINUTES   30
#define BC_STEADY_BAND_PCT  10.0 /* +- around the mean of the 30 minutes */
#define BC_STEADY_TREND_PCT 10.0 /* across the 30 minutes, of their mean */

/* one minute of one entity, from its rows */
struct bc_minute {
	uint64_t ios, bytes, read_ios, errors, lat_sum_ns, late;
	uint64_t max_ns, p99_worst_ns; /* exact maximum; the worst second's p99 */
	uint64_t iops_min, iops_max;   /* the lowest and highest second's I/Os */
	uint32_t secs;		       /* seconds with records */
	uint32_t rep_min;	       /* the total: fewest agents reported in a second */
};

/* a step's minutes: the total's and its drift, every node's exact percentiles */
struct bc_minutes {
	uint32_t seconds, ramp_s, nmin;
	int nnodes;
	struct bc_minute *tot; /* [nmin] */
	/* [(1 + nnodes) * nmin][5]: p50 p90 p99 p99.9 p99.99 (ns); entity 0 the total */
	uint64_t (*pct)[5];
	bool *has_pct; /* [(1 + nnodes) * nmin] */
	/* hours of the measured window, from its first whole minute */
	uint32_t first_min, nhours;
	uint64_t *hour_ios, *hour_p99_ns; /* [nhours] */
	uint32_t *hour_secs;
};

/*
 * The step ord of sr (seconds long, ramp_s of ramp, nnodes storage nodes):
 * the total's minutes from its rows, every minute's exact percentiles of the
 * total and the nodes from the HIST frames. rep: agents reported per second
 * (the total's, not in the file), or NULL. 0 or -errno.
 */
int bc_minutes_load(struct bc_minutes *m, const struct bc_secr *sr, uint32_t ord, uint32_t seconds,
		    uint32_t ramp_s, int nnodes, const uint32_t *rep);
void bc_minutes_free(struct bc_minutes *m);

/*
 * Entity (lvl, i)'s "minutes" object, its rows read from sr one second at a
 * time; m (or NULL) gives the exact percentiles of the total and the nodes.
 * NULL without memory or on a bad file.
 */
cJSON *bc_minutes_entity_json(const struct bc_secr *sr, uint32_t ord, int lvl, int i,
			      uint32_t seconds, const struct bc_minutes *m);
/*
 * Every entity of level lvl at once, in one pass over the seconds (each
 * second's rows read together: entity after entity, a long step would read
 * every block of the file again for each): [nent * minutes], nent the
 * level's entities in the file; NULL without memory or on a bad file.
 * _json: entity i's object from it (percentiles: none).
 */
struct bc_minute *bc_minutes_level(const struct bc_secr *sr, uint32_t ord, int lvl,
				   uint32_t seconds, int *nent);
cJSON *bc_minutes_level_json(const struct bc_minute *all, int i, uint32_t seconds);
/* the total's "minutes" object, from m */
cJSON *bc_minutes_total_json(const struct bc_minutes *m);
/* the step's "drift" object, from m */
cJSON *bc_minutes_drift_json(const struct bc_minutes *m);

#endif
