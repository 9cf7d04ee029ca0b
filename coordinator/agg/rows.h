/*
 * agg/rows.h - where the step's per-second rows live (agg/rows.c): one block
 * of every entity's rows, second-major, anonymous memory or past 64 MB an
 * unlinked file mapped shared whose pages behind the open seconds leave the
 * process; and each entity's own storage (its rows' place, its open
 * seconds' histograms).
 */
#ifndef BC_AGG_ROWS_H
#define BC_AGG_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agg/types.h"

/* every entity's rows, per_second of them in each of g->seconds; 0 or -ENOMEM */
int bc_agg_rows_alloc(struct bc_agg *g, size_t per_second);
void bc_agg_rows_free(struct bc_agg *g);
/* make every entity's row of seconds up to k resident by a write; while no worker runs */
void bc_agg_rows_touch(struct bc_agg *g, uint32_t k);
/* the pages wholly behind the open seconds dropped from memory (their data stays in the file) */
void bc_agg_rows_drop(struct bc_agg *g);

/*
 * e (zeroed) for a step of seconds: merged, a node or the total, which keeps
 * open seconds' histograms; rows, the entity's row of second 0 in g->rows
 * (stride rows between two seconds), NULL: a lane's partial entity, with rows
 * of its own. 0 or -ENOMEM.
 */
int bc_agg_entity_init(struct bc_entity *e, uint32_t seconds, bool merged, struct bc_secrow *rows,
		       size_t stride);
void bc_agg_entity_free(struct bc_entity *e, uint32_t seconds, bool own_rows);

#endif
