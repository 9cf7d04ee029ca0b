/*
 * sim/lat.h - the simulated SSD's modelled media time: units parallel
 * dies, each serving one page operation at a time in arrival order, with
 * foreground GC work spread over every die before the command that
 * triggered it. Turns one command into the delay after which it completes.
 * Not thread-safe: called under the device's lock (sim/dev.c).
 */
#ifndef BC_SIM_LAT_H
#define BC_SIM_LAT_H

#include <stdint.h>

#include "profile/volume/sim.h"

struct bc_sim_lat;

/* a model for s (s->lat_units > 0); NULL when out of memory; caller owns it */
struct bc_sim_lat *bc_sim_lat_new(const struct bc_sim_spec *s);
void bc_sim_lat_destroy(struct bc_sim_lat **l);

/*
 * One command arriving at now_ns (CLOCK_MONOTONIC): gc_ns of GC work it set
 * off (copies and erases, the whole device's) runs first on all dies, then
 * its pages, each page_ns, striped over the dies from a rotating cursor.
 * Returns the ns from now_ns until its last page is done (0 without pages:
 * an unmapped read touches no media).
 */
uint64_t bc_sim_lat_command(struct bc_sim_lat *l, uint64_t now_ns, uint32_t pages, uint32_t page_ns,
			    uint64_t gc_ns);

#endif
