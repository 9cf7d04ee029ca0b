/*
 * sim/hotcold.c - seed 001's device-side hot/cold FTL (sim/policy.h,
 * docs/seed001.md): a per-page classifier on access count and update
 * interval, a hot and a cold pool of units with their own victim policies,
 * and the seed's rules for a pool that runs out.
 *
 * Classifier (the seed's README): a page becomes hot after at least
 * hot_access writes in the current window whose last hot_confirm rewrites
 * each came within hot_interval host pages of the one before; a hot page
 * turns cold when it has fewer than hot_access writes in the window and
 * (or, with "demote": "either") it is rewritten after more than
 * cold_interval host pages. A window is decay_window x the physical pages
 * of host writes; at each window the counts halve (applied lazily, from
 * the window of the page's last write, so no pass over every page runs
 * while the host waits). A GC copy keeps the page's class.
 *
 * Pool exhaustion (the seed's table), when a host frontier takes its pool's
 * last free unit:
 *   hot:  hot GC (a hot victim at least hot_min_invalid invalid), else
 *         emergency GC (any victim at least emergency_min_invalid invalid)
 *   cold: cold GC (cold_min_invalid), else a free hot unit is lent to the
 *         cold pool ("hot -> cold demotion")
 *   both: the forced GC the device runs when few units are free in all
 *         takes any victim ("aggressive GC", the pool's victim policy over
 *         every unit).
 * A pool lends a unit only while it keeps more than borrow_reserve free;
 * the FTL still borrows one mechanically when a frontier finds its pool
 * empty, so a write never waits on a pool while the device has free units.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "sim/policy.h"

static int s_init(struct bc_sim_ftl *f)
{
	double w = f->spec.hc.decay_window * (double)f->nru * f->ppr;

	f->decay_every = w < 1 ? 1 : (uint64_t)w;
	f->lpn = calloc(f->nlp, sizeof(*f->lpn));
	return f->lpn ? 0 : -ENOMEM;
}

static void s_fini(struct bc_sim_ftl *f)
{
	free(f->lpn);
	f->lpn = NULL;
}

static inline uint8_t s_inc(uint8_t v)
{
	return v == UINT8_MAX ? v : (uint8_t)(v + 1);
}

static unsigned s_host_class(struct bc_sim_ftl *f, uint32_t lpn)
{
	const struct bc_sim_hotcold *h = &f->spec.hc;
	struct bc_sim_lpn *p = &f->lpn[lpn];
	uint16_t epoch = (uint16_t)(f->clock / f->decay_every), gone;
	uint32_t delta = (uint32_t)f->clock - p->last;

	/* the windows since its last write halve its counts once each */
	gone = (uint16_t)(epoch - p->epoch);
	if (gone >= 8) {
		p->acc = 0;
		p->sic = 0;
	} else {
		p->acc >>= gone;
		p->sic >>= gone;
	}
	p->epoch = epoch;
	p->acc = s_inc(p->acc);
	if (p->seen && delta <= h->hot_interval)
		p->sic = s_inc(p->sic);
	else
		p->sic = 0;
	if (!p->hot && p->acc >= h->hot_access && p->sic >= h->hot_confirm) {
		p->hot = 1;
		f->c.promotions++;
	} else if (p->hot && p->seen) {
		bool few = p->acc<h->hot_access, long_gap = delta> h->cold_interval;

		if (h->demote_either ? few || long_gap : few && long_gap) {
			p->hot = 0;
			f->c.demotions++;
		}
	}
	p->seen = 1;
	p->last = (uint32_t)f->clock;
	return p->hot ? BC_SIM_HOT : BC_SIM_COLD;
}

static unsigned s_copy_class(const struct bc_sim_ftl *f, uint32_t lpn)
{
	return f->lpn[lpn].hot ? BC_SIM_HOT : BC_SIM_COLD;
}

/* "aggressive GC": the device ran low in all; the cold policy over every unit */
static uint32_t s_forced(const struct bc_sim_ftl *f)
{
	return f->victim[BC_SIM_COLD]->victim(f, -1, 1);
}

/* background GC: a gated hot victim first (it frees most), else a gated cold one */
static uint32_t s_background(const struct bc_sim_ftl *f)
{
	uint32_t v = f->victim[BC_SIM_HOT]->victim(f, BC_SIM_HOT, f->min_invalid[BC_SIM_HOT]);

	if (v == BC_SIM_NONE)
		v = f->victim[BC_SIM_COLD]->victim(f, BC_SIM_COLD, f->min_invalid[BC_SIM_COLD]);
	return v;
}

static enum bc_sim_refill s_pool_empty(const struct bc_sim_ftl *f, unsigned cls, bool reclaimed,
				       uint32_t *victim)
{
	unsigned other = cls == BC_SIM_HOT ? BC_SIM_COLD : BC_SIM_HOT;

	if (!reclaimed) {
		*victim = f->victim[cls]->victim(f, (int)cls, f->min_invalid[cls]);
		if (*victim != BC_SIM_NONE)
			return BC_SIM_REFILL_POOL_GC;
		if (cls == BC_SIM_HOT) {
			*victim = f->victim[BC_SIM_HOT]->victim(f, -1, f->emergency_invalid);
			if (*victim != BC_SIM_NONE)
				return BC_SIM_REFILL_EMERGENCY;
		}
	}
	/* a reclaimed unit went home: the pool may still be empty (it reclaimed a lent one) */
	return f->npfree[other] > f->spec.hc.borrow_reserve ? BC_SIM_REFILL_BORROW
							    : BC_SIM_REFILL_NONE;
}

const struct bc_sim_ftl_ops bc_sim_ftl_hotcold = {
    .name = "hotcold",
    .init = s_init,
    .fini = s_fini,
    .host_class = s_host_class,
    .copy_class = s_copy_class,
    .forced_victim = s_forced,
    .background_victim = s_background,
    .pool_empty = s_pool_empty,
};
