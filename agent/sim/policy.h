/*
 * sim/policy.h - the simulated FTL's policies as plug-ins: what a flash
 * controller decides on its own, apart from the mechanics (mapping,
 * programming, erasing, counting) of sim/ftl.c.
 *
 * Two kinds, each one ops table:
 * - a victim policy (sim/policy.c: greedy, cost-benefit, age-invalid)
 *   picks the full reclaim unit GC reclaims next, within a pool and above a
 *   minimum of invalid pages; the "sim" key's "gc" names the baseline's.
 * - a device-side FTL policy (the "ftl" key) decides which class (write
 *   frontier of the handle) a host page and a GC copy go to, and which
 *   victims GC takes when the device runs low, in the background, and when
 *   a pool runs out. "baseline" (sim/policy.c): one pool, one frontier per
 *   handle. "hotcold" (sim/hotcold.c): seed 001's classifier and pools.
 * Host placement (FDP) stays the FTL's: a write goes to the handle the host
 * chose, into that handle's frontier of the class the FTL policy chose, and
 * GC keeps a victim's pages with its handle (docs/sim.md).
 */
#ifndef BC_SIM_POLICY_H
#define BC_SIM_POLICY_H

#include <stdint.h>

#include "profile/volume/sim.h"
#include "sim/state.h"

/* a victim policy; reads the FTL, changes nothing */
struct bc_sim_policy_ops {
	const char *name;
	/*
	 * the full reclaim unit GC reclaims next among pool's (-1: any pool)
	 * with at least min_invalid invalid pages (>= 1), BC_SIM_NONE when none
	 */
	uint32_t (*victim)(const struct bc_sim_ftl *f, int pool, uint32_t min_invalid);
};

/* the victim policy of a "gc" value; never NULL */
const struct bc_sim_policy_ops *bc_sim_policy(enum bc_sim_gc gc);

/* what a pool that ran out does next (bc_sim_ftl_ops.pool_empty) */
enum bc_sim_refill {
	BC_SIM_REFILL_NONE = 0,	 /* nothing: the FTL borrows a unit when it next needs one */
	BC_SIM_REFILL_POOL_GC,	 /* reclaim *victim (the pool's own GC) */
	BC_SIM_REFILL_EMERGENCY, /* reclaim *victim (emergency GC, any pool) */
	BC_SIM_REFILL_BORROW,	 /* move a free unit of the other pool into this one */
};

/*
 * a device-side FTL policy. Like a victim policy it only decides (reads the
 * FTL, changes nothing but its own per-page state in host_class); the FTL
 * (sim/ftl.c) does what it decides, with its lock held, never nesting GC.
 */
struct bc_sim_ftl_ops {
	const char *name;
	/* its own state in f (f->lpn, ...); 0 or -ENOMEM. NULL: none */
	int (*init)(struct bc_sim_ftl *f);
	void (*fini)(struct bc_sim_ftl *f);
	/* the class a host write of logical page lpn goes to (may learn from it) */
	unsigned (*host_class)(struct bc_sim_ftl *f, uint32_t lpn);
	/* the class a GC copy of lpn goes to */
	unsigned (*copy_class)(const struct bc_sim_ftl *f, uint32_t lpn);
	/* the device ran low (gc_start_free_rus): the next victim, any pool */
	uint32_t (*forced_victim)(const struct bc_sim_ftl *f);
	/* background GC ("background_gc"): the victim, BC_SIM_NONE to skip */
	uint32_t (*background_victim)(const struct bc_sim_ftl *f);
	/*
	 * a host frontier of class cls took its pool's last free unit: how to
	 * refill it. Asked again while the pool stays empty, with reclaimed
	 * set once a victim went home to another pool (a lent unit), at most
	 * twice. NULL for one pool.
	 */
	enum bc_sim_refill (*pool_empty)(const struct bc_sim_ftl *f, unsigned cls, bool reclaimed,
					 uint32_t *victim);
};

/*
 * the FTL policies, by "ftl" value (sim/ftl.c picks one): the baseline
 * (sim/policy.c) and seed 001's hot/cold FTL (sim/hotcold.c)
 */
extern const struct bc_sim_ftl_ops bc_sim_ftl_baseline;
extern const struct bc_sim_ftl_ops bc_sim_ftl_hotcold;

#endif
