/*
 * agg/pool.h - aggregation on worker threads (agg/pool.c), results
 * identical to the serial path. bc_agg_pool_start: threads workers (0: stay serial); 0 or -errno.
 * bc_agg_submit: bc_agg_add, or with a pool hand the record to its agent's
 * worker (fills *hdr from the header; -errno, with *bad the agent, for
 * this record or an earlier one a worker failed on). bc_agg_finish: wait
 * for the workers, merge and stop them, and make the windows whole
 * (bc_agg_windows_final); g is complete afterwards. All on
 * the thread that owns g.
 */
#ifndef BC_AGG_POOL_H
#define BC_AGG_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "wire/stats.h"

struct bc_agg;
struct bc_conn;

int bc_agg_pool_start(struct bc_agg *g, int threads);
int bc_agg_submit(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
		  struct bc_stats_hdr *hdr, const struct bc_conn **bad);
void bc_agg_finish(struct bc_agg *g);
/*
 * every record handed to a worker added, and the partial nodes and total
 * merged into g; nothing without a pool
 */
void bc_agg_pool_settle(struct bc_agg *g);
/* settled, stopped and freed; nothing without a pool */
void bc_agg_pool_destroy(struct bc_agg *g);
/* the workers' CPU time so far, ns (0 without a pool) */
uint64_t bc_agg_pool_cpu_ns(const struct bc_agg *g);
/* --agg-threads auto: 0 below 64 agents, else min(cores - 1, 4), at least 2 */
int bc_agg_threads_auto(int nagents);

#endif
