/*
 * agg/lane.h - what agg.c and agg/pool.c share: a lane is the state one
 * thread needs to add records (decode scratch, the record's sum, a free
 * list of range histograms). The serial path has one lane over g's own
 * fields; with worker threads (agg/pool.c) each worker has a lane, owns the
 * volumes and agents of its shard of the agents, and adds into partial
 * copies of the nodes and the total, which the main thread merges into g
 * (bc_agg_lanes_merge) while every worker is idle.
 */
#ifndef BC_AGG_LANE_H
#define BC_AGG_LANE_H

#include "agg/types.h"
#include "fleet/fleet.h"

/*
 * Partial node and total rows are kept for this many distinct seconds
 * between two merges (slot k % BC_AGG_SLOTS); agg/pool.c merges first
 * when a second would take a slot another second holds.
 */
#define BC_AGG_SLOTS	 16
#define BC_AGG_SLOT_FREE UINT32_MAX

struct bc_agg_lane {
	struct bc_agg *g;
	struct bc_volstat *scratch;   /* [g->scratch_n] decode buffer */
	struct bc_stats_touch *touch; /* [g->scratch_n] its non-empty buckets (dense decode) */
	struct bc_stats_list *sl;     /* [g->scratch_n] its histograms as lists (every decode) */
	struct bc_volstat *asum;      /* the record being added, summed over its volumes */
	uint64_t *vblk; /* one volume's samples by block of buckets (agg.c); zero between records */
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

/* a worker's lane for g, everything allocated; 0 or -ENOMEM (then free it) */
int bc_agg_lane_init(struct bc_agg_lane *l, struct bc_agg *g);
void bc_agg_lane_free(struct bc_agg_lane *l);
/*
 * Decode one STATS body and add it (bc_agg_add on lane l). A worker lane
 * leaves g->agents_reported, g->late and the rows_map touch to the main
 * thread (agg/pool.c). 0 or -errno.
 */
int bc_agg_lane_add(struct bc_agg_lane *l, const struct bc_conn *c, const uint8_t *body, size_t len,
		    struct bc_stats_hdr *hdr);
/*
 * Merge the partial nodes and total of lanes[0..n) into g and clear them;
 * slot_k[s] is the second slot s holds (BC_AGG_SLOT_FREE: none). Only
 * while no worker runs. Partial first_errno values win by arrival order.
 */
void bc_agg_lanes_merge(struct bc_agg *g, struct bc_agg_lane *lanes, int n, const uint32_t *slot_k);
/* make every entity's row of seconds up to k resident by a write (agg.c) */
void bc_agg_rows_touch(struct bc_agg *g, uint32_t k);

#endif
