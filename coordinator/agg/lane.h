/*
 * agg/lane.h - a lane: the state one thread needs to add records (decode
 * scratch, the record's sum, a free list of range histograms; its type is
 * agg/types.h's). The serial path has one lane over g's own fields; with
 * worker threads (agg/pool.c) each worker has a lane, owns the volumes and
 * agents of its shard of the agents, and adds into partial copies of the
 * nodes and the total, which the main thread merges into g while every
 * worker is idle. Here: a record decoded into a lane and handed to the
 * fan-out (agg/fanout.h), and the decoded record as JSON.
 */
#ifndef BC_AGG_LANE_H
#define BC_AGG_LANE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "agg/types.h"

struct bc_conn;

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
/* decode one STATS body from agent c and add it everywhere; -errno on a bad record */
int bc_agg_add(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
	       struct bc_stats_hdr *hdr);
/*
 * add g->scratch[0..c->nvols) (already decoded, agent volume order)
 * everywhere; the caller filled it after bc_volstat_reset (run/rebuild.c)
 */
int bc_agg_add_decoded(struct bc_agg *g, const struct bc_conn *c, const struct bc_stats_hdr *hdr);
/* the JSON of the record bc_agg_add last decoded, for events.jsonl; caller owns it */
cJSON *bc_agg_record_json(const struct bc_agg *g, const struct bc_conn *c,
			  const struct bc_stats_hdr *h);

#endif
