/*
 * agg/agg.h - per-step aggregation: every record an agent sends is added
 * into its volumes, its agent, the volumes' storage nodes and the total,
 * second by second, with exact counters and merged histograms; seconds
 * close into rows (bc_secrow) written to seconds.bin as they close. The
 * step's set-up and end are here (agg/agg.c); this header also brings what
 * a caller of the aggregation uses: adding records (agg/lane.h), a second's
 * life (agg/second.h), each volume's node (agg/volnode.h) and the types
 * (agg/types.h). Worker threads: agg/pool.h.
 */
#ifndef BC_AGG_AGG_H
#define BC_AGG_AGG_H

#include "agg/lane.h"
#include "agg/second.h"
#include "agg/types.h"
#include "agg/volnode.h"

int bc_agg_init(struct bc_agg *g, const struct bc_profile *p, const struct bc_step *st);
void bc_agg_free(struct bc_agg *g);

#endif
