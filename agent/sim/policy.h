/*
 * sim/policy.h - the simulated FTL's policies as plug-ins (sim/policy.c),
 * and the FTL state they read (sim/ftl.c owns it). A policy decides what
 * a flash controller decides on its own: which full reclaim unit garbage
 * collection reclaims, and which write frontier a host page and a GC copy
 * go to. The FTL does the mechanics (mapping, programming, erasing,
 * counting) and asks the policy at those two points only, so a new policy
 * (a hot/cold classifier, separate pools for GC) is one ops table here and
 * its name in the "sim" key's "gc" (profile/volume/sim.h), nothing in the
 * FTL (docs/sim.md, "Policies").
 */
#ifndef BC_SIM_POLICY_H
#define BC_SIM_POLICY_H

#include <stdint.h>

#include "profile/volume/sim.h"
#include "sim/state.h"

/* what a policy decides; every op reads the FTL and changes nothing */
struct bc_sim_policy_ops {
	const char *name;
	/* the full reclaim unit GC reclaims next, BC_SIM_NONE when none has an invalid page */
	uint32_t (*victim)(const struct bc_sim_ftl *f);
	/* the frontier (RUH index) that takes the valid pages of victim v */
	unsigned (*gc_frontier)(const struct bc_sim_ftl *f, uint32_t v);
};

/* the policy of a "gc" value (enum bc_sim_gc); never NULL for a checked spec */
const struct bc_sim_policy_ops *bc_sim_policy(enum bc_sim_gc gc);

#endif
