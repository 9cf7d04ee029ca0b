/*
 * agg/fanout.h - a decoded record added everywhere (agg/fanout.c): each of
 * its volumes into the volume, its agent, its storage node and the total,
 * counters and histograms, in one pass over the volume's listed buckets; and
 * the volumes' pending window counts that pass writes through.
 */
#ifndef BC_AGG_FANOUT_H
#define BC_AGG_FANOUT_H

#include <stdbool.h>

#include "agg/types.h"

struct bc_conn;

/*
 * The record decoded into lane l's scratch (its volumes in agent c's order,
 * hdr its header) added everywhere; the scratch's lists and sum are cleared
 * on the way. 0 or -errno (-ERANGE: a second past the step's).
 */
int bc_agg_fanout(struct bc_agg_lane *l, const struct bc_conn *c, const struct bc_stats_hdr *hdr);
/* the volumes' pending window counts for the ops the step uses; 0 or -ENOMEM */
int bc_agg_pend_alloc(struct bc_agg *g, const bool *ops);
/*
 * The step's records are all in: every volume's pending counts into its
 * window, which is whole from then on; records added later go to the
 * windows directly. Before anything reads a window's buckets.
 */
void bc_agg_windows_final(struct bc_agg *g);

#endif
