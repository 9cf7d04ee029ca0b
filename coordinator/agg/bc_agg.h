/*
 * bc_agg.h - per-step aggregation (agg.c): every record an agent sends is
 * added into its volumes, its agent, the volumes' storage nodes and the
 * total, second by second, with exact counters and merged histograms;
 * seconds close into rows (bc_secrow) written to seconds.bin as they close.
 */
#ifndef BC_AGG_H
#define BC_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "bc_hist.h"
#include "bc_profile.h"
#include "bc_stats.h"

struct bc_conn;
struct bc_secw;
struct bc_volnode;
struct bc_aggpool;
struct bc_stats_touch;
struct bc_stats_list;

struct bc_secrow {
	uint64_t ios[BC_OP_NR];
	uint64_t bytes[BC_OP_NR];
	uint64_t errors;
	uint64_t short_ios;
	uint64_t lat_sum_ns;
	uint64_t op_lat_sum_ns[BC_OP_NR]; /* lat_sum_ns by op (vdbench's read/write resp) */
	uint64_t op_max_ns[BC_OP_NR];	  /* exact maximum latency by op, 0 without ios */
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns, p9999_ns, max_ns; /* all ops, merged histogram */
	/*
	 * population standard deviation of every op's latency, from the
	 * merged histogram (bc_hist_stddev): nodes and the total only, which
	 * merge theirs when the second closes (0 for volumes and agents)
	 */
	uint64_t lat_sd_ns;
	uint32_t reports; /* records added into this second */
	uint32_t late;	  /* records that arrived after the second was closed */
};

struct bc_rhist; /* agg.c: a histogram over the range of its non-empty buckets */

struct bc_entity {
	char name[BC_NAME_MAX + BC_PATH_MAX];
	struct bc_volstat window; /* measured window (ramp excluded) */
	/*
	 * every interval, ramp and drain included: counters only, its
	 * histograms stay empty (nothing reads them; 16,000 of them would
	 * cost a gigabyte)
	 */
	struct bc_volstat all;
	struct bc_secrow *secs;	    /* [seconds] */
	struct bc_rhist **sec_hist; /* [seconds], nodes and total: open seconds only */
};

enum bc_level { BC_LVL_VOLUME = 0, BC_LVL_AGENT, BC_LVL_NODE, BC_LVL_TOTAL, BC_LVL_NR };

struct bc_agg {
	const struct bc_profile *prof;
	/* each volume's node (volnode.c), NULL: the profile's (bc_agg_vol_node) */
	const struct bc_volnode *volnode;
	uint32_t seconds; /* ramp + runtime */
	uint32_t ramp_s;
	struct bc_entity *ent[BC_LVL_NR];
	int nent[BC_LVL_NR];
	uint32_t *agents_reported;     /* [seconds]: agents whose record for k arrived */
	uint32_t *late;		       /* [seconds]: records flagged late by an agent */
	uint64_t *last_rx_ns;	       /* [seconds]: when k's latest record arrived (realtime) */
	uint32_t closed;	       /* seconds [0, closed) are closed */
	struct bc_volstat *scratch;    /* decode buffer, sized for the largest agent */
	struct bc_stats_touch *touch;  /* [scratch_n]: the non-empty buckets of scratch */
	struct bc_stats_list *sl;      /* [scratch_n]: scratch's histograms, as lists */
	struct bc_rhist *rh_free;      /* closed seconds' histograms, for reuse */
	struct bc_volstat *asum;       /* the record being added, summed over its volumes */
	struct bc_stats_touch *atouch; /* the non-empty buckets of asum */
	void *rows_map;		       /* every entity's secs, file-backed when large (agg.c) */
	size_t rows_map_len;
	uint32_t touched; /* rows_map: seconds [0, touched) were touched (agg.c) */
	uint32_t spilled; /* rows_map: g->closed at the last write-out and drop */
	int scratch_n;
	struct bc_aggpool *pool; /* worker threads (aggpool.c), NULL: serial */
	/* seconds.bin (bc_secfile.h): each second written as it closes */
	struct bc_secw *secw;	/* NULL: not written (before START, or ended) */
	uint32_t secw_step;	/* this step's ordinal in it */
	bool secw_on;		/* the step is in the file: run.json's volume series come from it */
	uint32_t *secw_reports; /* [seconds]: the total's reports when k's rows were written */
};

int bc_agg_init(struct bc_agg *g, const struct bc_profile *p, const struct bc_step *st);
void bc_agg_free(struct bc_agg *g);
/* the node volume vol aggregates into: g->volnode when set, else the profile's */
int bc_agg_vol_node(const struct bc_agg *g, int vol);
/* decode one STATS body from agent c and add it everywhere; -errno on a bad record */
int bc_agg_add(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
	       struct bc_stats_hdr *hdr);
/*
 * add g->scratch[0..c->nvols) (already decoded, agent volume order)
 * everywhere; the caller filled it after bc_volstat_reset (rebuild.c)
 */
int bc_agg_add_decoded(struct bc_agg *g, const struct bc_conn *c, const struct bc_stats_hdr *hdr);
/* close second k: percentiles from its histograms, which are then freed */
void bc_agg_close_second(struct bc_agg *g, uint32_t k);
/*
 * Between seconds, right after closing some: write out and drop the rows
 * when due (agg.c), and fault in every entity's row of the next open second
 * now rather than when its first record arrives (17,000 page faults at
 * 1,000 agents, on the critical path of that second's lag).
 */
void bc_agg_rows_ahead(struct bc_agg *g);
/*
 * seconds.bin: from now on write each second of g into w as it closes, as
 * step ord (profile step idx, named name); 0 or -errno. _end: the seconds
 * that late records changed after they were written, again, and the
 * step's end; call after bc_agg_finish (and a size-based trim).
 */
int bc_agg_secfile_begin(struct bc_agg *g, struct bc_secw *w, uint32_t ord, int idx,
			 const char *name);
void bc_agg_secfile_end(struct bc_agg *g);
/* the JSON of a decoded record for events.jsonl; caller owns it */
cJSON *bc_agg_record_json(const struct bc_agg *g, const struct bc_conn *c,
			  const struct bc_stats_hdr *h);

#endif
