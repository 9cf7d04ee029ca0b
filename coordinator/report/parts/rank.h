/*
 * report/parts/rank.h (report/parts/rank.c) - one level of a step (its volumes, or its
 * client hosts) summarised for a page that cannot list every entity: the
 * entities ranked by window IOPS and by p99, and the distribution of both
 * figures (quantiles and a histogram). Computed from run.json's figures
 * into a struct; report/html.c only renders it.
 */
#ifndef BC_REPORT_PARTS_RANK_H
#define BC_REPORT_PARTS_RANK_H

#include <stdbool.h>

#include <cjson/cJSON.h>

struct bc_report;

/*
 * report.html lists a step's volumes and client hosts whole up to
 * bc_full_limit (results/fullsize.h: 256 volumes, 64 hosts); above, the level
 * is summarised (top and bottom BC_RANK_TOP, the distribution) and listed
 * whole in volumes.html and volumes.csv. Measured with bench/report-open.sh
 * (docs/results.md, "report.html at fleet size").
 */
#define BC_RANK_TOP 10

#define BC_RANK_NQ   9 /* quantiles: min, p1, p10, p25, median, p75, p90, p99, max */
#define BC_RANK_BINS 20

extern const double bc_rank_q[BC_RANK_NQ]; /* 0, 1, 10, 25, 50, 75, 90, 99, 100 */

struct bc_rank_fig {
	int n;		      /* entities with the figure (a figure is null when unmeasured) */
	double q[BC_RANK_NQ]; /* nearest-rank quantiles of the figure over those n */
	double mean;	      /* of the n */
	bool log;	      /* bins equal in log10 (the figure spans more than 10x) */
	double edge[BC_RANK_BINS + 1]; /* bin b holds [edge[b], edge[b + 1]), the last closed */
	int bins[BC_RANK_BINS];	       /* entities per bin */
};

struct bc_rank {
	int n;		       /* entities at the level */
	const cJSON **by_iops; /* [n] window IOPS, highest first, those without a figure last */
	const cJSON **by_p99;  /* [n] window p99 latency, highest first, likewise */
	struct bc_rank_fig iops;
	struct bc_rank_fig p99_ms;
};

/*
 * Rank the entities of ents (a run.json step's "volumes" or "agents"
 * array, borrowed: k points into it). 0 or -ENOMEM; bc_rank_free after.
 */
int bc_rank_make(struct bc_rank *k, const cJSON *ents);
void bc_rank_free(struct bc_rank *k);

/*
 * The spread of a per-second figure across the entities of ents, second by
 * second: out[q][k] is the BC_RANK_SPREAD_Q[q] quantile (nearest rank) of
 * the entities' series key at second k (bc_report_series: run.json's or
 * seconds.bin's; st the step), over those with a value there (NAN
 * when none). out[q] are allocated [seconds]; the caller frees each. 0 or
 * -ENOMEM. For charts of many client hosts: five lines instead of 1,000.
 */
#define BC_RANK_SPREAD 5
extern const double bc_rank_spread_q[BC_RANK_SPREAD]; /* 0, 10, 50, 90, 100 */
int bc_rank_spread(const struct bc_report *r, const cJSON *st, const cJSON *ents, const char *key,
		   int seconds, double *out[BC_RANK_SPREAD]);

#endif
