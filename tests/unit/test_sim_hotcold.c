/*
 * test_sim_hotcold.c - seed 001 (a hot/cold FTL in the FEMU SSD emulator)
 * on the simulated SSD: the seed's workload shape (Zipf 0.99 4 KiB random
 * writes beside 128 KiB sequential writes over the whole device) drives the
 * baseline FTL (one pool, greedy, FEMU's GC triggers) and the hot/cold FTL
 * (the seed's classifier, 20:80 pools, greedy hot GC, age x invalid cold
 * GC, the seed's gates), and the relationships the seed reports are checked
 * on the measured counters: hot/cold lowers WAF and GC overhead, GC
 * overhead is (WAF - 1) x 100, the classifier picks the Zipf head and
 * nothing under uniform writes, the pools keep their books, the counter
 * log samples every "log_every", and the "ftl" key's errors name their JSON
 * path. ~3 s on a loaded 2-core machine: ~2.5 million page
 * writes in all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/dist.h"
#include "profile/volume/sim.h"
#include "sim/ftl.h"
#include "bc_test.h"

#define S_CAP (512ull << 20)
#define S_RU  (2ull << 20)
#define S_PG  4096ull

struct s_run {
	double waf, gc_pct;
	struct bc_sim_counters c;
};

/*
 * The seed's device at the simulator's scale: 512 MiB, 2 MiB units (327
 * of them at op 0.28), FEMU's GC triggers: background GC while at most 25%
 * of the units are free, on victims at least 1/8 invalid (the baseline;
 * the hot/cold FTL gates its pools itself), foreground GC at 5%.
 */
static struct bc_sim_spec s_seed_spec(enum bc_sim_ftl_kind ftl)
{
	struct bc_sim_spec s;
	struct bc_sim_geometry g;
	char err[256];

	bc_sim_spec_default(&s);
	s.capacity_bytes = S_CAP;
	s.ru_bytes = S_RU;
	s.op = 0.28;
	s.ruhs = 1;
	s.ftl = ftl;
	CHECK(!bc_sim_geometry(&s, &g, err, sizeof(err)));
	s.bg_free_rus = g.rus / 4;
	s.bg_min_invalid = 0.125;
	s.gc_start_free_rus = s.gc_stop_free_rus = g.rus / 20 + 1;
	s.log_every_bytes = 64ull << 20;
	return s;
}

/*
 * Sequential fill, then `passes` device-writes of the seed's mix: per 128
 * KiB cold write (the next 32 pages of a sequential sweep) `hot` 4 KiB
 * writes at Zipf 0.99 (uniform: theta 0) over the whole device
 */
static int s_run(const struct bc_sim_spec *s, unsigned hot, double theta, double passes,
		 struct s_run *out)
{
	struct bc_dist_spec ds = {.kind = theta > 0 ? BC_DIST_ZIPF : BC_DIST_UNIFORM,
				  .param = theta};
	uint64_t pages = S_CAP / S_PG, cold = 0, i, n = (uint64_t)(passes * (double)pages);
	struct bc_sim_counters a;
	struct bc_sim_ftl *f;
	struct bc_dist d;
	struct bc_rand r;
	char err[256];
	unsigned j;

	if (bc_sim_ftl_new(s, &f, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -EINVAL;
	}
	if (bc_dist_init(&d, &ds, pages, 1))
		return -EINVAL;
	bc_rand_seed(&r, 7);
	for (i = 0; i < pages; i += 32)
		bc_sim_ftl_write(f, i * S_PG, 128 << 10, 0);
	bc_sim_ftl_counters(f, &a);
	for (i = 0; i < n; i += hot + 32) {
		for (j = 0; j < hot; j++)
			bc_sim_ftl_write(f, bc_dist_next(&d, &r) * S_PG, S_PG, 0);
		bc_sim_ftl_write(f, cold * S_PG, 128 << 10, 0);
		cold = (cold + 32) % pages;
	}
	bc_sim_ftl_counters(f, &out->c);
	out->waf = (double)(out->c.media_write_bytes - a.media_write_bytes) /
		   (double)(out->c.host_write_bytes - a.host_write_bytes);
	out->gc_pct = 100.0 * (double)(out->c.gc_copy_bytes - a.gc_copy_bytes) /
		      (double)(out->c.host_write_bytes - a.host_write_bytes);
	CHECK(!bc_sim_ftl_check(f));
	CHECK(out->c.pool_rus[0] + out->c.pool_rus[1] == out->c.rus);
	CHECK(out->c.pool_free[0] + out->c.pool_free[1] == out->c.free_rus);
	bc_sim_ftl_destroy(&f);
	return 0;
}

/* hot 4 KiB writes take 80% of the bytes: the seed's 4 hot threads to 1 cold */
#define S_HOT 128

static void test_seed_reduction(void)
{
	struct bc_sim_spec b = s_seed_spec(BC_SIM_FTL_BASELINE),
			   h = s_seed_spec(BC_SIM_FTL_HOTCOLD);
	struct s_run rb, rh;

	if (s_run(&b, S_HOT, 0.99, 8, &rb) || s_run(&h, S_HOT, 0.99, 8, &rh)) {
		CHECK(!"the seed's device was refused");
		return;
	}
	printf("seed 001 shape, op 0.28, FEMU GC triggers: baseline WAF %.2f (GC overhead %.0f%%), "
	       "hotcold WAF %.2f (%.0f%%): %+.1f%%\n",
	       rb.waf, rb.gc_pct, rh.waf, rh.gc_pct, 100 * (rh.waf - rb.waf) / rb.waf);
	/* the seed's own arithmetic: GC overhead is GC copies over host writes */
	CHECK_MSG(rb.gc_pct > 100 * (rb.waf - 1) - 0.01 && rb.gc_pct < 100 * (rb.waf - 1) + 0.01,
		  "%.3f vs WAF %.4f", rb.gc_pct, rb.waf);
	CHECK(rh.gc_pct > 100 * (rh.waf - 1) - 0.01 && rh.gc_pct < 100 * (rh.waf - 1) + 0.01);
	/* FEMU's background GC takes victims once 1/8 invalid: the baseline copies most pages */
	CHECK_MSG(rb.waf > 5, "baseline WAF %.2f", rb.waf);
	CHECK(rb.c.gc_background > rb.c.gc_forced);
	/* the seed's direction and more than its size (-48.6%): measured -65% */
	CHECK_MSG(rh.waf < 0.6 * rb.waf, "hotcold %.2f vs baseline %.2f", rh.waf, rb.waf);
	CHECK(rh.gc_pct < 0.6 * rb.gc_pct);
	/* both pools did work, each with its own GC */
	CHECK(rh.c.pool_host_pages[BC_SIM_HOT] > 0 && rh.c.pool_host_pages[BC_SIM_COLD] > 0);
	CHECK(rh.c.pool_victims[BC_SIM_HOT] > 0 && rh.c.pool_victims[BC_SIM_COLD] > 0);
}

/*
 * Separation alone: the hot/cold FTL with the baseline's gate (1/8) in both
 * pools still lowers WAF, so the gates are not the whole effect
 */
static void test_separation_alone(void)
{
	struct bc_sim_spec b = s_seed_spec(BC_SIM_FTL_BASELINE),
			   h = s_seed_spec(BC_SIM_FTL_HOTCOLD);
	struct s_run rb, rh;

	h.hc.hot_min_invalid = h.hc.cold_min_invalid = 0.125;
	if (s_run(&b, S_HOT, 0.99, 8, &rb) || s_run(&h, S_HOT, 0.99, 8, &rh)) {
		CHECK(!"refused");
		return;
	}
	printf("same 1/8 gates in both pools: baseline WAF %.2f, hotcold WAF %.2f: %+.1f%%\n",
	       rb.waf, rh.waf, 100 * (rh.waf - rb.waf) / rb.waf);
	CHECK_MSG(rh.waf < 0.9 * rb.waf, "hotcold %.2f vs baseline %.2f", rh.waf, rb.waf);
}

/*
 * The classifier: under Zipf 0.99 few pages are promoted yet they take a
 * large share of the host writes (the head of the distribution); under
 * uniform writes over the device no rewrite comes within 64 host pages
 * twice running, so nothing is hot
 */
static void test_classifier(void)
{
	struct bc_sim_spec h = s_seed_spec(BC_SIM_FTL_HOTCOLD);
	uint64_t pages = S_CAP / S_PG;
	struct s_run z, u;
	double zshare, ushare;

	if (s_run(&h, S_HOT, 0.99, 4, &z) || s_run(&h, S_HOT, 0, 4, &u)) {
		CHECK(!"refused");
		return;
	}
	zshare = (double)z.c.pool_host_pages[BC_SIM_HOT] /
		 (double)(z.c.pool_host_pages[0] + z.c.pool_host_pages[1]);
	ushare = (double)u.c.pool_host_pages[BC_SIM_HOT] /
		 (double)(u.c.pool_host_pages[0] + u.c.pool_host_pages[1]);
	printf("classifier: zipf 0.99: %llu pages promoted (%.3f%% of %llu), %.1f%% of host "
	       "pages hot; uniform: %llu promoted, %.3f%% hot\n",
	       (unsigned long long)z.c.promotions, 100.0 * (double)z.c.promotions / (double)pages,
	       (unsigned long long)pages, 100 * zshare, (unsigned long long)u.c.promotions,
	       100 * ushare);
	CHECK(z.c.promotions > 0 && z.c.promotions < pages / 100);
	CHECK_MSG(zshare > 0.15, "%.3f", zshare);
	CHECK_MSG(ushare < 0.001, "%.5f", ushare);
}

/* the counter log: one sample per log_every of host pages, totals since the start */
static void test_log(void)
{
	struct bc_sim_spec s = s_seed_spec(BC_SIM_FTL_HOTCOLD);
	struct bc_sim_log_sample out[64];
	struct bc_sim_counters c;
	struct bc_sim_ftl *f;
	uint64_t first, i, every = s.log_every_bytes / S_PG;
	char err[256];
	unsigned n, k;

	if (bc_sim_ftl_new(&s, &f, err, sizeof(err))) {
		CHECK(!"refused");
		return;
	}
	for (i = 0; i < 3 * S_CAP / S_PG; i++)
		bc_sim_ftl_write(f, (bc_test_rand() % (S_CAP / S_PG)) * S_PG, S_PG, 0);
	bc_sim_ftl_counters(f, &c);
	n = bc_sim_ftl_log(f, 0, out, 64, &first);
	CHECK(c.log_samples == 3 * S_CAP / s.log_every_bytes && n == c.log_samples && !first);
	for (k = 0; k < n; k++) {
		CHECK(out[k].host_pages == (k + 1) * every);
		CHECK(out[k].nand_pages == out[k].host_pages + out[k].gc_pages);
		CHECK(out[k].free_rus == out[k].pool_free[0] + out[k].pool_free[1]);
		CHECK(!k || out[k].gc_pages >= out[k - 1].gc_pages);
	}
	CHECK(out[n - 1].gc_pages > 0);
	/* from a later sample on */
	CHECK(bc_sim_ftl_log(f, n - 2, out, 64, &first) == 2 && first == n - 2);
	bc_sim_ftl_destroy(&f);
}

/* the "ftl" key: parsed, echoed whole, and every error names its JSON path */
static void test_ftl_key(void)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
	    {"{\"ftl\": \"warm\"}", "volumes[0].sim.ftl: expected"},
	    {"{\"ftl\": {\"name\": \"hotcold\", \"hot_share\": 1.5}}",
	     "volumes[0].sim.ftl.hot_share"},
	    {"{\"ftl\": {\"name\": \"hotcold\", \"cold_gc\": \"lru\"}}",
	     "volumes[0].sim.ftl.cold_gc"},
	    {"{\"ftl\": {\"name\": \"hotcold\", \"hot_access\": 0}}",
	     "volumes[0].sim.ftl.hot_access"},
	    {"{\"ftl\": {\"name\": \"hotcold\", \"pools\": 2}}", "volumes[0].sim.ftl"},
	    {"{\"ftl\": {\"name\": \"baseline\", \"hot_share\": 0.2}}", "volumes[0].sim.ftl"},
	    {"{\"ftl\": \"hotcold\", \"gc\": \"greedy\"}", "volumes[0].sim.gc"},
	    {"{\"background_gc\": {\"free_rus\": \"125%\"}}",
	     "volumes[0].sim.background_gc.free_rus"},
	};
	struct bc_sim_spec s;
	cJSON *o, *e;
	char err[512];
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = cJSON_Parse(bad[i].json);
		err[0] = 0;
		CHECK_MSG(bc_sim_spec_from_json(o, "volumes[0]", &s, err, sizeof(err)) == -EINVAL,
			  "%s accepted", bad[i].json);
		CHECK_MSG(strstr(err, bad[i].err) != NULL, "%s: \"%s\"", bad[i].json, err);
		cJSON_Delete(o);
	}
	o = cJSON_Parse("{\"capacity\": \"512MiB\", \"ru\": \"2MiB\", \"op\": 0.28, \"ruhs\": 1, "
			"\"background_gc\": {\"free_rus\": \"25%\"}, "
			"\"ftl\": {\"name\": \"hotcold\", \"hot_share\": 0.2, "
			"\"cold_gc\": \"cost-benefit\"}}");
	CHECK(!bc_sim_spec_from_json(o, "volumes[0]", &s, err, sizeof(err)));
	CHECK(s.ftl == BC_SIM_FTL_HOTCOLD && s.hc.cold_gc == BC_SIM_GC_COST_BENEFIT &&
	      s.hc.hot_gc == BC_SIM_GC_GREEDY && s.hc.hot_interval == 64);
	/* FEMU's rounding: (int)(0.25 x 327 units) */
	CHECK_MSG(s.bg_free_rus == 81, "%u", s.bg_free_rus);
	cJSON_Delete(o);
	s.enabled = true;
	o = bc_sim_spec_to_json(&s);
	e = cJSON_GetObjectItem(o, "ftl");
	CHECK(e && cJSON_IsString(cJSON_GetObjectItem(e, "name")) &&
	      !strcmp(cJSON_GetObjectItem(e, "name")->valuestring, "hotcold") &&
	      !strcmp(cJSON_GetObjectItem(e, "cold_gc")->valuestring, "cost-benefit"));
	/* the wire: the coordinator sends this object, the agent parses it back to the same */
	{
		struct bc_sim_spec back;
		cJSON *again;
		char *x, *y;

		CHECK_MSG(!bc_sim_spec_from_json(o, "volumes[0]", &back, err, sizeof(err)), "%s",
			  err);
		back.enabled = true;
		again = bc_sim_spec_to_json(&back);
		x = cJSON_PrintUnformatted(o);
		y = cJSON_PrintUnformatted(again);
		CHECK_MSG(x && y && !strcmp(x, y), "%s\n%s", x, y);
		free(x);
		free(y);
		cJSON_Delete(again);
	}
	cJSON_Delete(o);
}

int main(void)
{
	test_seed_reduction();
	test_separation_alone();
	test_classifier();
	test_log();
	test_ftl_key();
	return bc_test_failures ? 1 : 0;
}
