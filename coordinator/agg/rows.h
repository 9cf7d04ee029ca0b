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
 * After the step, the results read rows of every second again, and each
 * read of a dropped page faults it back in from the page cache: a day of
 * 1,600 volumes is 25 GB of rows. A reader walking the seconds in order
 * (one entity's, or every entity's) calls bc_agg_rows_read after each
 * second k: every 16 MB of rows the pages of the seconds it walked since
 * leave the process again, so the results hold at most that much of them
 * whatever the step's length. _forget: all of them.
 */
void bc_agg_rows_forget(const struct bc_agg *g);
void bc_agg_rows_read(const struct bc_agg *g, uint32_t k);
/*
 * every entity's seconds with records in the measured window
 * (bc_result_window_secs) in one second-major pass, after the step's last
 * record and again after its window changed (a size-based trim)
 */
void bc_agg_window_secs(struct bc_agg *g);

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
