/*
 * test_fanout: the volumes' pending window counts (agg/fanout.h) against a
 * dense sum: overflow, the direct path and buckets out of their range
 */

#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "agg/pool.h"
#include "fleet/fleet.h"
#include "bc_aggtest.h"
#include "bc_test.h"

/*
 * A volume's window through its pending counts (agg/fanout.c), against a
 * dense sum: a bucket whose count passes what 8 and 16 bits hold over the
 * seconds (volume 0: 3,000 samples a second in a few buckets), more than
 * S_PEND_MAX samples of an op in a second, which go to the window directly
 * (volume 1, its second 4), and buckets below and above the pending range
 * (1 us to 2 s around a first second at 1 ms), serial and with workers.
 */
static void s_pending(void)
{
	static const char *prof =
	    "{\"name\": \"pend\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"},"
	    " {\"name\": \"b\", \"endpoint\": \"local\"}], \"nodes\": [{\"name\": \"n\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\", \"node\": \"n\"},"
	    " {\"agent\": \"b\", \"path\": \"null\", \"node\": \"n\"}],"
	    " \"defaults\": {\"runtime\": \"40s\", \"rw\": \"randrw\"},"
	    " \"steps\": [{\"name\": \"s\"}]}";
	static struct bc_volstat v[2], ref[2];
	struct bc_profile *p = NULL;
	struct bc_conn c[2] = {0};
	struct bc_agg g;
	char err[256];
	int vol[2] = {0, 1}, a, o, t, i;
	uint32_t k;

	CHECK(bc_profile_parse(prof, "pend.json", &p, err, sizeof(err)) == 0);
	if (!p)
		return;
	s_conns_one_vol(c, p, vol);
	for (t = 0; t < 2; t++) {
		CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
		CHECK(g.pend != NULL);
		CHECK(bc_agg_pool_start(&g, t * 2) == 0);
		bc_volstat_reset(&ref[0]);
		bc_volstat_reset(&ref[1]);
		for (k = 0; k < 40; k++) {
			for (a = 0; a < 2; a++) {
				struct bc_stats_hdr h = {.second = k, .nvol = 1}, got;
				const struct bc_conn *bad;
				uint8_t *body = NULL;
				size_t len = 0;

				bc_volstat_reset(&v[a]);
				for (o = 0; o < 2; o++) {
					int n = a == 1 && k == 4 ? 20000 : 3000;

					/* few buckets around 1 ms; the first second only there */
					for (i = 0; i < n; i++)
						bc_opstat_complete(&v[a].op[o], 4096, 4096,
								   1000000 +
								       1000 * (bc_test_rand() % 3));
					if (k) { /* 1 us and 2 s: outside 16 octaves of it */
						bc_opstat_complete(&v[a].op[o], 4096, 4096, 1000);
						bc_opstat_complete(&v[a].op[o], 4096, 4096,
								   2000000000ull);
					}
				}
				bc_volstat_merge(&ref[a], &v[a]);
				CHECK(bc_stats_encode(&h, &v[a], &body, &len) == 0);
				CHECK(bc_agg_submit(&g, &c[a], body, len, &got, &bad) == 0);
				free(body);
			}
			bc_agg_close_second(&g, k);
		}
		bc_agg_finish(&g);
		for (a = 0; a < 2; a++)
			for (o = 0; o < BC_OP_NR; o++)
				CHECK_MSG(!memcmp(&g.ent[BC_LVL_VOLUME][a].window.op[o].hist,
						  &ref[a].op[o].hist, sizeof(ref[a].op[o].hist)),
					  "volume %d op %d, %d workers: window histogram", a, o,
					  t * 2);
		/* the test means it: a bucket's count is past what 16 bits hold */
		CHECK(bc_hist_max(&ref[0].op[0].hist) > 0 &&
		      ref[0].op[0].hist.buckets[bc_hist_index(1000000)] > UINT16_MAX);
		bc_agg_free(&g);
	}
	bc_profile_destroy(&p);
}

int main(void)
{
	s_pending();
	TEST_DONE();
}
