/*
 * sim/policy.c - the simulated FTL's victim policies (greedy, cost-benefit,
 * age-invalid) and the baseline FTL policy (sim/policy.h). Every victim
 * scan is over the units (amortised over the pages a victim frees).
 */
#include "sim/policy.h"

/* a full unit of pool (-1: any) with at least min invalid pages */
static inline int s_candidate(const struct bc_sim_ftl *f, uint32_t i, int pool, uint32_t min)
{
	return f->state[i] == BC_SIM_RU_FULL && (pool < 0 || f->pool[i] == pool) &&
	       f->ppr - f->valid[i] >= min;
}

/* the unit with the fewest valid pages (the lowest-numbered of equals) */
static uint32_t s_greedy_victim(const struct bc_sim_ftl *f, int pool, uint32_t min)
{
	uint32_t i, best = BC_SIM_NONE, minv = f->ppr;

	for (i = 0; i < f->nru; i++)
		if (s_candidate(f, i, pool, min) && f->valid[i] < minv) {
			minv = f->valid[i];
			best = i;
			if (!minv)
				break;
		}
	return best;
}

/* the most score(age, u) among candidates; an empty unit always first */
static uint32_t s_scored_victim(const struct bc_sim_ftl *f, int pool, uint32_t min, int kawaguchi)
{
	uint32_t i, best = BC_SIM_NONE;
	double score, top = -1;

	for (i = 0; i < f->nru; i++) {
		double u = (double)f->valid[i] / f->ppr, age;

		if (!s_candidate(f, i, pool, min))
			continue;
		if (!f->valid[i])
			return i;
		age = (double)(f->clock - f->closed_at[i] + 1);
		score = kawaguchi ? age * (1 - u) / (2 * u) : age * (1 - u);
		if (score > top) {
			top = score;
			best = i;
		}
	}
	return best;
}

/* Kawaguchi, Nishioka, Motoda, USENIX 1995: the most age * (1 - u) / 2u */
static uint32_t s_cost_benefit_victim(const struct bc_sim_ftl *f, int pool, uint32_t min)
{
	return s_scored_victim(f, pool, min, 1);
}

/* seed 001's cold-pool score, "Age x Invalid_Ratio": the most age * (1 - u) */
static uint32_t s_age_invalid_victim(const struct bc_sim_ftl *f, int pool, uint32_t min)
{
	return s_scored_victim(f, pool, min, 0);
}

static const struct bc_sim_policy_ops s_greedy = {.name = "greedy", .victim = s_greedy_victim};
static const struct bc_sim_policy_ops s_cost_benefit = {.name = "cost-benefit",
							.victim = s_cost_benefit_victim};
static const struct bc_sim_policy_ops s_age_invalid = {.name = "age-invalid",
						       .victim = s_age_invalid_victim};

const struct bc_sim_policy_ops *bc_sim_policy(enum bc_sim_gc gc)
{
	switch (gc) {
	case BC_SIM_GC_COST_BENEFIT:
		return &s_cost_benefit;
	case BC_SIM_GC_AGE_INVALID:
		return &s_age_invalid;
	case BC_SIM_GC_GREEDY:
	default:
		return &s_greedy;
	}
}

/* the baseline: one pool, one frontier per handle, the "gc" victim policy */
static unsigned s_base_class(struct bc_sim_ftl *f, uint32_t lpn)
{
	(void)f;
	(void)lpn;
	return BC_SIM_COLD;
}

static unsigned s_base_copy_class(const struct bc_sim_ftl *f, uint32_t lpn)
{
	(void)f;
	(void)lpn;
	return BC_SIM_COLD;
}

static uint32_t s_base_forced(const struct bc_sim_ftl *f)
{
	return f->victim[BC_SIM_COLD]->victim(f, -1, 1);
}

/* FEMU's blackbox FTL: a victim at least background_gc.min_invalid invalid */
static uint32_t s_base_background(const struct bc_sim_ftl *f)
{
	return f->victim[BC_SIM_COLD]->victim(f, -1, f->min_invalid[BC_SIM_COLD]);
}

const struct bc_sim_ftl_ops bc_sim_ftl_baseline = {
    .name = "baseline",
    .host_class = s_base_class,
    .copy_class = s_base_copy_class,
    .forced_victim = s_base_forced,
    .background_victim = s_base_background,
};
