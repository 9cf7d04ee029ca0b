/*
 * test_sim_lifetime.c - the simulated SSD separates lifetimes the way the
 * physics says: two object classes of known lifetimes (FIFO eviction with a
 * trim, so an object of class c lives exactly cap_c stores of class c),
 * written through the FTL once on one reclaim unit handle (the classes
 * mixed in every unit) and once on a handle each, against an independent
 * object-level Monte-Carlo model of the device (mc_flash.h, written from
 * docs/sim.md's rules, not from agent/sim). Separated, every unit holds one
 * class's objects in store order and dies whole: WAF 1 exactly, which is
 * also the analytic answer. Mixed, the long-lived objects are copied out of
 * units the short-lived ones emptied. Runs in about 2 s.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_flash.h"
#include "profile/volume/sim.h"
#include "sim/ftl.h"
#include "bc_test.h"

#define MIB	(1ull << 20)
#define OBJ	(64u << 10) /* object bytes: 16 pages of 4 KiB, 16 objects a 1 MiB unit */
#define K	16
#define LOGICAL (1024 * MIB)

struct s_case {
	double op, short_share;
	uint64_t cap_short, cap_long; /* MiB of live objects */
	uint64_t region_short;	      /* MiB; the long class has the rest */
};

/* the two classes through the FTL: WAF over 30 GiB of stores after 20 GiB */
static double s_ftl(const struct s_case *c, bool separated)
{
	uint64_t ns = c->region_short * MIB / OBJ, nl = (LOGICAL - c->region_short * MIB) / OBJ;
	uint64_t cs = c->cap_short * MIB / OBJ, cl = c->cap_long * MIB / OBJ, is = 0, il = 0;
	uint64_t n, total = 50 * 1024 * MIB / OBJ, warm = 20 * 1024 * MIB / OBJ;
	struct bc_sim_counters a = {0}, b;
	struct bc_sim_spec s;
	struct bc_sim_ftl *f;
	double acc_s = 0, acc_l = 0;
	char err[256];

	bc_sim_spec_default(&s);
	s.capacity_bytes = LOGICAL;
	s.ru_bytes = MIB;
	s.op = c->op;
	s.ruhs = 2;
	if (bc_sim_ftl_new(&s, &f, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	for (n = 0; n < total; n++) {
		if (n == warm)
			bc_sim_ftl_counters(f, &a);
		/* the same interleave as the model: the class furthest behind its share */
		acc_s += c->short_share;
		acc_l += 1 - c->short_share;
		if (acc_s >= acc_l) {
			acc_s -= 1;
			if (is >= cs)
				bc_sim_ftl_trim(f, ((is - cs) % ns) * OBJ, OBJ);
			bc_sim_ftl_write(f, (is++ % ns) * OBJ, OBJ, 0);
		} else {
			acc_l -= 1;
			if (il >= cl)
				bc_sim_ftl_trim(f, c->region_short * MIB + ((il - cl) % nl) * OBJ,
						OBJ);
			bc_sim_ftl_write(f, c->region_short * MIB + (il++ % nl) * OBJ, OBJ,
					 separated ? 1 : 0);
		}
	}
	bc_sim_ftl_counters(f, &b);
	CHECK(bc_sim_ftl_check(f) == 0);
	bc_sim_ftl_destroy(&f);
	return (double)(b.media_write_bytes - a.media_write_bytes) /
	       (double)(b.host_write_bytes - a.host_write_bytes);
}

static double s_model(const struct s_case *c, bool separated)
{
	struct mc_class cl[2] = {
	    {c->short_share, c->cap_short * MIB / OBJ, 0},
	    {1 - c->short_share, c->cap_long * MIB / OBJ, separated ? 1 : 0},
	};
	struct bc_sim_spec s;

	bc_sim_spec_default(&s);
	/* the simulator's unit count: floor(capacity x (1 + op) / unit) */
	return mc_waf((int)floor((double)LOGICAL * (1 + c->op) / (double)MIB), K,
		      (int)s.gc_start_free_rus, (int)s.gc_stop_free_rus, cl, 2,
		      20 * 1024 * MIB / OBJ, 30 * 1024 * MIB / OBJ);
}

int main(void)
{
	/*
	 * Lifetimes in host bytes are cap / share: case 0 keeps short objects
	 * 250 MiB and long ones 2,000 MiB of writes on 1,280 MiB of flash.
	 */
	static const struct s_case cases[] = {
	    {0.25, 0.8, 200, 400, 300},
	    {0.25, 0.6, 100, 600, 300},
	    {0.10, 0.7, 150, 650, 250},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct s_case *c = &cases[i];
		double fm = s_ftl(c, false), fs = s_ftl(c, true);
		double mm = s_model(c, false), ms = s_model(c, true);

		printf(
		    "case %zu: op %.2f, short share %.1f, capacity %llu/%llu MiB: mixed WAF %.4f "
		    "(model %.4f), separated %.4f (model %.4f), separation lowers it by %.4f "
		    "(model %.4f)\n",
		    i, c->op, c->short_share, (unsigned long long)c->cap_short,
		    (unsigned long long)c->cap_long, fm, mm, fs, ms, fm - fs, mm - ms);
		CHECK_MSG(fm > 1.05, "case %zu: mixed lifetimes must cost GC copies (WAF %.4f)", i,
			  fm);
		CHECK_MSG(fabs(fm - mm) <= 0.02 * mm, "case %zu: mixed WAF %.4f vs model %.4f", i,
			  fm, mm);
		/* one class per unit, stored in order and evicted in order: units die whole */
		CHECK_MSG(fabs(fs - 1.0) < 1e-9 && fabs(ms - 1.0) < 1e-9,
			  "case %zu: separated WAF %.6f (model %.6f), analytically 1", i, fs, ms);
		CHECK_MSG(fabs((fm - fs) - (mm - ms)) <= 0.05 * (mm - ms),
			  "case %zu: reduction %.4f vs model %.4f", i, fm - fs, mm - ms);
	}
	return bc_test_failures ? 1 : 0;
}
