/*
 * agg/types.h - the aggregation's data: the per-second row, the entity (a
 * volume, an agent, a node or the total), the step's aggregation struct
 * bc_agg and a lane (what one thread needs to add records). Types only, so
 * every room of agg/ and seconds.bin (agg/secfile.c) read them without
 * depending on each other.
 */
#ifndef BC_AGG_TYPES_H
#define BC_AGG_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "wire/hist.h"
#include "wire/stats.h"

struct bc_secw;
struct bc_volnode;
struct bc_aggpool;
struct bc_agg;
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

struct bc_rhist; /* agg/rhist.h: a histogram over the range of its non-empty buckets */

struct bc_entity {
	char name[BC_NAME_MAX + BC_PATH_MAX];
	/*
	 * every interval, ramp and drain included: counters only (nothing
	 * reads histograms of it). Just before window, so that a volume's
	 * second adds to one page for both and the read window's counters:
	 * each page touched is a TLB miss at 16,000 volumes.
	 */
	struct bc_volcnt all;
	struct bc_volstat window; /* measured window (ramp excluded) */
	/*
	 * second k's row is rows[k * rows_stride] (bc_entity_row): the step's
	 * rows are second-major, every entity's row of a second side by side
	 * (agg/rows.c says why); a lane's partial entity has its own, stride 1
	 */
	struct bc_secrow *rows;
	size_t rows_stride;
	/* seconds with records in the window, once the step ended (bc_agg_window_secs) */
	uint32_t win_secs;
	struct bc_rhist **sec_hist; /* [seconds], nodes and total: open seconds only */
	/*
	 * a volume's window buckets [pend_lo, pend_lo + BC_AGG_PEND) of each
	 * op the step uses, as 8-bit counts not yet in window (agg/fanout.c
	 * says why); NULL: none, or added to window by bc_agg_windows_final
	 */
	uint8_t *pend[BC_OP_NR];
	uint16_t pend_hi[BC_OP_NR]; /* pend[o][j] is 0 from j = pend_hi[o] on */
	uint32_t pend_lo;
	bool pend_set; /* pend_lo placed, at the volume's first listed bucket */
};

/* buckets of a volume's pending window per op: 16 octaves, half a 4 KB page */
#define BC_AGG_PEND 2048u

static inline struct bc_secrow *bc_entity_row(const struct bc_entity *e, uint32_t k)
{
	return e->rows + (size_t)k * e->rows_stride;
}

enum bc_level { BC_LVL_VOLUME = 0, BC_LVL_AGENT, BC_LVL_NODE, BC_LVL_TOTAL, BC_LVL_NR };

struct bc_agg {
	const struct bc_profile *prof;
	/* each volume's node (agg/volnode.c), NULL: the profile's (bc_agg_vol_node) */
	const struct bc_volnode *volnode;
	uint32_t seconds; /* ramp + runtime */
	uint32_t ramp_s;
	struct bc_entity *ent[BC_LVL_NR];
	int nent[BC_LVL_NR];
	uint32_t *agents_reported;    /* [seconds]: agents whose record for k arrived */
	uint32_t *late;		      /* [seconds]: records flagged late by an agent */
	uint64_t *last_rx_ns;	      /* [seconds]: when k's latest record arrived (realtime) */
	uint32_t closed;	      /* seconds [0, closed) are closed */
	struct bc_volstat *scratch;   /* decode buffer, sized for the largest agent */
	struct bc_stats_touch *touch; /* [scratch_n]: the non-empty buckets of scratch */
	struct bc_stats_list *sl;     /* [scratch_n]: scratch's histograms, as lists */
	struct bc_rhist *rh_free;     /* closed seconds' histograms, for reuse */
	struct bc_volstat *asum;      /* the record being added, summed over its volumes */
	uint64_t *blk;		      /* the serial lane's block sums (struct bc_agg_lane) */
	struct bc_secrow *rows;	      /* [seconds][entities]: every entity's rows (agg/rows.c) */
	size_t rows_len;	      /* bytes */
	bool rows_map;		      /* rows is a shared file mapping (large steps, agg/rows.c) */
	int rows_fd;		      /* rows_map: the file's descriptor */
	uint32_t touched;	      /* rows_map: seconds [0, touched) were touched (agg/rows.c) */
	size_t dropped;		      /* rows_map: bytes [0, dropped) were dropped from memory */
	uint32_t win_secs_for;	      /* entities' win_secs hold for this many seconds (0: none) */
	/*
	 * called on the waiting thread every S_WAIT_MS while the loop waits for
	 * a worker (room in its ring, a settle): the fleet's heartbeats; NULL
	 * outside the step's loop (agg/pool.c)
	 */
	void (*wait_fn)(void *arg);
	void *wait_arg;
	int scratch_n;
	struct bc_aggpool *pool; /* worker threads (agg/pool.c), NULL: serial */
	/* seconds.bin (agg/secfile.h): each second written as it closes */
	struct bc_secw *secw;	/* NULL: not written (before START, or ended) */
	uint32_t secw_step;	/* this step's ordinal in it */
	bool secw_on;		/* the step is in the file: run.json's volume series come from it */
	uint32_t *secw_reports; /* [seconds]: the total's reports when k's rows were written */
	uint8_t *pend;		/* the volumes' pending windows (bc_entity.pend), NULL: none */
	size_t pend_len;	/* its mapping's length */
	/* seconds.bin's path, for the results' readers (a long step's minutes) */
	char secw_path[BC_PATH_MAX];
};

/*
 * Partial node and total rows are kept for this many distinct seconds
 * between two merges (slot k % BC_AGG_SLOTS); agg/pool.c merges first
 * when a second would take a slot another second holds.
 */
#define BC_AGG_SLOTS	 16
#define BC_AGG_SLOT_FREE UINT32_MAX

/* a lane (agg/lane.h): the state one thread needs to add records */
struct bc_agg_lane {
	struct bc_agg *g;
	struct bc_volstat *scratch;   /* [g->scratch_n] decode buffer */
	struct bc_stats_touch *touch; /* [g->scratch_n] its non-empty buckets (dense decode) */
	struct bc_stats_list *sl;     /* [g->scratch_n] its histograms as lists (every decode) */
	struct bc_volstat *asum;      /* the record being added, summed over its volumes */
	/* [BC_AGG_PCT_BLOCKS] one volume's samples by block of buckets (agg/pcts.h); zero between
	 */
	uint64_t *blk;
	struct bc_rhist **rh_free; /* free list used: &g->rh_free or &own_free */
	struct bc_rhist *own_free;
	/*
	 * [BC_LVL_NODE] nnodes and [BC_LVL_TOTAL] one partial entity, rows and
	 * open histograms indexed by slot; both NULL on the serial lane, which
	 * adds into g's entities directly
	 */
	struct bc_entity *part[BC_LVL_NR];
	/* [nnodes + 1][2 (all, window)][op]: arrival number of part's first_errno */
	uint64_t (*errno_seq)[2][BC_OP_NR];
	uint64_t seq; /* arrival number of the record being added (main thread's order) */
};

#endif
