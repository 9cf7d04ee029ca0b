/*
 * counters/prom.h - the "prom-text" source's mapping of a /metrics page
 * into a snapshot (counters/prom.c), for tests and offline use.
 */
#ifndef BC_COUNTERS_PROM_H
#define BC_COUNTERS_PROM_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "counters/facts.h"
#include "counters/promtext.h"
#include "figures/hostfig.h"

/*
 * Parse one /metrics page into snap (and the node's facts into facts)
 * exactly as a scrape would, with the node's "nic" and "series" (node may
 * be NULL). Returns 0 or -errno; facts and st may be NULL.
 */
int bc_counter_prom_parse(const char *text, size_t len, const cJSON *node, struct bc_hostsnap *snap,
			  struct bc_nodefacts *facts, struct bc_prom_stats *st);

#endif
