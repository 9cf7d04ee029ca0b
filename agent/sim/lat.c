/*
 * sim/lat.c - modelled media time of the simulated SSD (sim/lat.h).
 *
 * The model is FEMU's (hw/femu/bbssd/ftl.c, ssd_advance_status): each unit
 * (a die/LUN) has the time it is next free; an operation starts at
 * max(arrival, free) and frees the unit its latency later. Differences, and
 * why: pages are striped over units by a rotating cursor rather than by
 * their physical address (the FTL does not model dies, and a fresh RU is
 * striped across all of them anyway); GC work is not placed page by page
 * but spread evenly over every unit, which is what a superblock-sized RU's
 * relocation does to the host: everyone queues behind it. There is no write
 * cache and no channel transfer time, so write latency is program time.
 */
#include <stdlib.h>

#include "sim/lat.h"

struct bc_sim_lat {
	uint32_t units;
	uint32_t cursor;   /* next unit a page goes to */
	uint64_t *free_at; /* [units] CLOCK_MONOTONIC ns */
};

struct bc_sim_lat *bc_sim_lat_new(const struct bc_sim_spec *s)
{
	struct bc_sim_lat *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->units = s->lat_units ? s->lat_units : 1;
	l->free_at = calloc(l->units, sizeof(*l->free_at));
	if (!l->free_at) {
		free(l);
		return NULL;
	}
	return l;
}

void bc_sim_lat_destroy(struct bc_sim_lat **pl)
{
	if (!*pl)
		return;
	free((*pl)->free_at);
	free(*pl);
	*pl = NULL;
}

uint64_t bc_sim_lat_command(struct bc_sim_lat *l, uint64_t now_ns, uint32_t pages, uint32_t page_ns,
			    uint64_t gc_ns)
{
	uint64_t done = now_ns, share, *u;
	uint32_t i;

	if (gc_ns) {
		/* rounded up: no GC work is lost to the division */
		share = (gc_ns + l->units - 1) / l->units;
		for (i = 0; i < l->units; i++) {
			u = &l->free_at[i];
			*u = (*u > now_ns ? *u : now_ns) + share;
		}
	}
	for (i = 0; i < pages; i++) {
		u = &l->free_at[l->cursor];
		if (++l->cursor == l->units)
			l->cursor = 0;
		*u = (*u > now_ns ? *u : now_ns) + page_ns;
		done = *u > done ? *u : done;
	}
	return done - now_ns;
}
