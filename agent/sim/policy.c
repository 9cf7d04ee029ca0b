/*
 * sim/policy.c - the simulated FTL's policies (sim/policy.h): greedy and
 * cost-benefit victim selection, both relocating a victim's valid pages
 * into the victim's own reclaim unit handle (persistently isolated RUHs,
 * NVMe TP4146: data placed apart stays apart through GC).
 */
#include "sim/policy.h"

/* the unit with the fewest valid pages (the lowest-numbered of equals) */
static uint32_t s_greedy_victim(const struct bc_sim_ftl *f)
{
	uint32_t i, best = BC_SIM_NONE, minv = f->ppr;

	for (i = 0; i < f->nru; i++)
		if (f->state[i] == BC_SIM_RU_FULL && f->valid[i] < minv) {
			minv = f->valid[i];
			best = i;
			if (!minv)
				break;
		}
	return best;
}

/* Kawaguchi, Nishioka, Motoda, USENIX 1995: the most age * (1 - u) / 2u */
static uint32_t s_cost_benefit_victim(const struct bc_sim_ftl *f)
{
	uint32_t i, best = BC_SIM_NONE;
	double score, top = -1;

	for (i = 0; i < f->nru; i++) {
		double u = (double)f->valid[i] / f->ppr;

		if (f->state[i] != BC_SIM_RU_FULL || f->valid[i] == f->ppr)
			continue;
		if (!f->valid[i])
			return i;
		score = (double)(f->clock - f->closed_at[i] + 1) * (1 - u) / (2 * u);
		if (score > top) {
			top = score;
			best = i;
		}
	}
	return best;
}

/* persistently isolated: a victim's pages stay with the handle that wrote them */
static unsigned s_own_frontier(const struct bc_sim_ftl *f, uint32_t v)
{
	return f->owner[v];
}

static const struct bc_sim_policy_ops s_greedy = {
    .name = "greedy",
    .victim = s_greedy_victim,
    .gc_frontier = s_own_frontier,
};

static const struct bc_sim_policy_ops s_cost_benefit = {
    .name = "cost-benefit",
    .victim = s_cost_benefit_victim,
    .gc_frontier = s_own_frontier,
};

const struct bc_sim_policy_ops *bc_sim_policy(enum bc_sim_gc gc)
{
	switch (gc) {
	case BC_SIM_GC_COST_BENEFIT:
		return &s_cost_benefit;
	case BC_SIM_GC_GREEDY:
	default:
		return &s_greedy;
	}
}
