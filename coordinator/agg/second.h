/*
 * agg/second.h - the life of a second (agg/second.c): it opens when its
 * first record comes (its rows touched, agg/rows.h), takes records until it
 * closes, then its nodes' and total's merged histograms give their
 * percentiles, join their windows and go to seconds.bin with every row; the
 * rows behind the open seconds leave memory.
 */
#ifndef BC_AGG_SECOND_H
#define BC_AGG_SECOND_H

#include <stdint.h>

#include "agg/types.h"

struct bc_secw;

/* close second k: percentiles from its histograms, which are then freed */
void bc_agg_close_second(struct bc_agg *g, uint32_t k);
/*
 * Between seconds, right after closing some: drop the rows' pages behind
 * the open seconds from memory (a large step's, agg/rows.h), and fault in
 * the next open second's rows now rather than when its first record arrives
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

#endif
