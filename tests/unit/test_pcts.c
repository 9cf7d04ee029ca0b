/*
 * test_pcts: every level's per-second percentiles (agg/pcts.h) against
 * bc_hist_percentile of the merged dense histogram, for records with and
 * without their agents' buckets
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "fleet/fleet.h"
#include "bc_test.h"

/*
 * Every volume's, agent's and the total's per-second percentiles against
 * bc_hist_percentile of the merged dense histogram, for shapes that walk
 * the exact path over a volume's lists and block sums (agg/pcts.c) and the ranges of the
 * record's sum at their edges: one bucket, a few adjacent ones, a span from
 * 1 ns to seconds, one op, three ops, counts of one and of millions (two-
 * and three-byte varints), empty volumes.
 */
static void s_shape(struct bc_volstat *v, uint32_t shape)
{
	int o, i;

	bc_volstat_reset(v);
	for (o = 0; o < BC_OP_NR; o++) {
		struct bc_opstat *s = &v->op[o];
		uint64_t base = 1 + bc_test_rand() % 5000000;

		if (shape % 5 == 0 && o != BC_OP_READ)
			continue; /* one op */
		if (shape % 7 == 3)
			continue; /* nothing */
		switch (shape % 4) {
		case 0: /* one bucket, many samples */
			for (i = 0; i < 3; i++)
				bc_opstat_complete(s, 4096, 4096, base);
			s->hist.buckets[bc_hist_index(base)] += 5000000;
			s->hist.count += 5000000;
			s->ios += 5000000;
			break;
		case 1: /* a few adjacent buckets */
			for (i = 0; i < 200; i++)
				bc_opstat_complete(s, 4096, 4096, base + bc_test_rand() % 64);
			break;
		case 2: /* 1 ns to ~4 s */
			for (i = 0; i < 600; i++)
				bc_opstat_complete(
				    s, 4096, 4096,
				    1 + (bc_test_rand() >> (bc_test_rand() % 62 + 2)) %
					    4000000000ull);
			break;
		default: /* a body and a tail, some counts past one byte */
			for (i = 0; i < 1500; i++)
				bc_opstat_complete(s, 4096, 4096, 50000 + bc_test_rand() % 20000);
			for (i = 0; i < 30; i++)
				bc_opstat_complete(s, 4096, 4096,
						   100000 + bc_test_rand() % 50000000);
			break;
		}
	}
}

static void s_pcts_match(const struct bc_secrow *r, const struct bc_hist *all, const char *what,
			 int i, uint32_t k)
{
	CHECK_MSG(
	    r->p50_ns == bc_hist_percentile(all, 50) && r->p90_ns == bc_hist_percentile(all, 90) &&
		r->p99_ns == bc_hist_percentile(all, 99) &&
		r->p999_ns == bc_hist_percentile(all, 99.9) &&
		r->p9999_ns == bc_hist_percentile(all, 99.99) && r->max_ns == bc_hist_max(all),
	    "%s %d second %u: p50 %llu p99.99 %llu max %llu, reference %llu %llu %llu", what, i, k,
	    (unsigned long long)r->p50_ns, (unsigned long long)r->p9999_ns,
	    (unsigned long long)r->max_ns, (unsigned long long)bc_hist_percentile(all, 50),
	    (unsigned long long)bc_hist_percentile(all, 99.99),
	    (unsigned long long)bc_hist_max(all));
}

/* pct: the bodies carry the agent's percentile buckets (protocol 2), or not (an older agent) */
static void s_shapes(bool pct)
{
	static const char *prof =
	    "{\"name\": \"shapes\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
	    " \"nodes\": [{\"name\": \"n0\"}, {\"name\": \"n1\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\", \"node\": \"n0\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n1\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n0\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n1\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n0\"},"
	    " {\"agent\": \"a\", \"path\": \"null\"}],"
	    " \"defaults\": {\"ramp\": \"1s\", \"runtime\": \"24s\"}, \"steps\": [{\"name\": "
	    "\"s\"}]}";
	enum { NV = 6, SECS = 25 };
	static struct bc_volstat v[NV];
	struct bc_hist *all = calloc(1, sizeof(*all)), *agent = calloc(1, sizeof(*agent));
	struct bc_profile *p = NULL;
	struct bc_conn c = {0};
	struct bc_agg g;
	char err[256];
	uint32_t k;
	int i, o;

	CHECK(all && agent);
	CHECK(bc_profile_parse(prof, "shapes.json", &p, err, sizeof(err)) == 0);
	CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
	c.spec = &p->agents[0];
	c.vols = calloc(NV, sizeof(int));
	for (i = 0; i < NV; i++)
		c.vols[c.nvols++] = i;
	for (k = 0; k < SECS; k++) {
		struct bc_stats_hdr h = {.step = 0, .second = k, .nvol = NV}, got;
		uint8_t *body = NULL;
		size_t blen = 0;

		for (i = 0; i < NV; i++)
			s_shape(&v[i], k * NV + (uint32_t)i);
		CHECK(bc_stats_encode_opts(&h, v, pct ? 0 : BC_STATS_ENC_NO_PCT, &body, &blen) ==
		      0);
		CHECK(bc_agg_add(&g, &c, body, blen, &got) == 0);
		free(body);
		bc_agg_close_second(&g, k);
		memset(agent, 0, sizeof(*agent));
		for (i = 0; i < NV; i++) {
			memset(all, 0, sizeof(*all));
			for (o = 0; o < BC_OP_NR; o++) {
				bc_hist_merge(all, &v[i].op[o].hist);
				bc_hist_merge(agent, &v[i].op[o].hist);
			}
			s_pcts_match(bc_entity_row(&g.ent[BC_LVL_VOLUME][i], k), all,
				     pct ? "volume (its agent's buckets)" : "volume", i, k);
		}
		s_pcts_match(bc_entity_row(&g.ent[BC_LVL_AGENT][0], k), agent, "agent", 0, k);
		s_pcts_match(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k), agent, "total", 0, k);
	}
	bc_agg_free(&g);
	free(c.vols);
	free(all);
	free(agent);
	bc_profile_destroy(&p);
}

int main(void)
{
	s_shapes(true);
	s_shapes(false);
	TEST_DONE();
}
