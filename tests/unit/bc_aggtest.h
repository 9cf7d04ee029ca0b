/*
 * bc_aggtest.h - what the aggregation tests share (test_agg.c, test_pool.c,
 * test_rows.c, test_fanout.c): a volume-second of samples, and two
 * connections of one volume each.
 */
#ifndef BC_AGGTEST_H
#define BC_AGGTEST_H

#include "agg/agg.h"
#include "fleet/fleet.h"
#include "bc_test.h"

#define BC_AGGTEST_FN __attribute__((unused))

static BC_AGGTEST_FN void s_fill(struct bc_volstat *v, int salt)
{
	int o, i, n;

	bc_volstat_reset(v);
	for (o = 0; o < BC_OP_NR; o++) {
		if ((salt + o) % 4 == 3)
			continue; /* some ops empty */
		n = 50 + (int)(bc_test_rand() % 400);
		for (i = 0; i < n; i++)
			bc_opstat_complete(&v->op[o], 4096, 4096,
					   1000 + bc_test_rand() % (100000u << (o + salt % 3)));
		if (salt % 5 == 1)
			bc_opstat_complete(&v->op[o], -5, 4096, 0);
	}
	if (salt % 7 == 2)
		v->op[BC_OP_READ].bytes += 3000000000000000ull; /* prints as %1.15g */
}

/* agents a and b of p as connections, each with its one volume (vol[a] = a) */
static BC_AGGTEST_FN void s_conns_one_vol(struct bc_conn c[2], const struct bc_profile *p,
					  int vol[2])
{
	int a;

	for (a = 0; a < 2; a++) {
		c[a].spec = &p->agents[a];
		c[a].index = a;
		c[a].vols = &vol[a];
		c[a].nvols = 1;
	}
}

#endif
