/*
 * agg/pcts.h - a second's percentiles and maximum in its row (agg/pcts.c):
 * from the buckets a volume's agent found in its own histogram, or exactly
 * from the second's buckets. Both apply bc_hist_percentile's rank rule and
 * report bucket midpoints, so a row is the same whichever path made it.
 */
#ifndef BC_AGG_PCTS_H
#define BC_AGG_PCTS_H

#include <stdbool.h>
#include <stdint.h>

#include "agg/types.h"

/* the exact path's blocks: sums of this many buckets, block j holding [16 j, 16 j + 16) */
#define BC_AGG_PCT_BLOCK  16
#define BC_AGG_PCT_BLOCKS (BC_HIST_BUCKETS / BC_AGG_PCT_BLOCK)

/*
 * A second's buckets as the exact path reads them, every sample in [lo, hi):
 * dense, op o's bucket b at dense[o][b - lo] (NULL: the op has none); or, s
 * set, a volume's record as lists with blk[j] the sum of block j over its ops
 */
struct bc_agg_buckets {
	const uint64_t *dense[BC_OP_NR];
	uint32_t lo, hi;
	const struct bc_stats_list *s;
	const uint64_t *blk;
};

/*
 * A volume's second from the buckets its agent found (bc_volstat_pct_buckets),
 * when the record carries them and they lie in the span [lo, hi) of its
 * lists; false: the caller takes the exact path.
 */
bool bc_agg_pcts_agent(struct bc_secrow *row, uint64_t count, const struct bc_stats_list *s,
		       uint32_t lo, uint32_t hi);
/* exact: the percentiles and maximum of count samples in the buckets of in */
void bc_agg_pcts(struct bc_secrow *row, uint64_t count, const struct bc_agg_buckets *in);
/* bc_agg_pcts over a dense volstat whose non-empty buckets are in [lo, hi) (a record's sum) */
void bc_agg_pcts_range(struct bc_secrow *row, const struct bc_volstat *v, uint32_t lo, uint32_t hi);
/*
 * A volume's second from its own record, away from the fan-out (a late
 * record, the ramp): the agent's buckets, else exact over its lists s
 */
void bc_agg_pcts_volume(struct bc_secrow *row, const struct bc_volstat *v,
			const struct bc_stats_list *s);

#endif
