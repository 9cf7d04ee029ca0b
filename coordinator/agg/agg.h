/*
 * agg/agg.h - per-step aggregation (agg.c): every record an agent sends is
 * added into its volumes, its agent, the volumes' storage nodes and the
 * total, second by second, with exact counters and merged histograms;
 * seconds close into rows (bc_secrow) written to seconds.bin as they close.
 * The types are agg/types.h's.
 */
#ifndef BC_AGG_AGG_H
#define BC_AGG_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "agg/types.h"

struct bc_conn;
struct bc_secw;

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
/*
 * The step's records are all in: the volumes' window buckets made whole
 * (agg.c's pending counts added); bc_agg_finish calls it, and every
 * reader of a window's buckets comes after. Records added later go to the
 * windows directly.
 */
void bc_agg_windows_final(struct bc_agg *g);
/* close second k: percentiles from its histograms, which are then freed */
void bc_agg_close_second(struct bc_agg *g, uint32_t k);
/*
 * Between seconds, right after closing some: drop the rows' pages behind
 * the open seconds from memory (a large step's, agg.c), and fault in the
 * next open second's rows now rather than when its first record arrives
 * (~800 page faults at 1,000 agents, on the critical path of its lag).
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
