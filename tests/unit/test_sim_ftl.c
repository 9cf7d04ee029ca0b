/*
 * test_sim_ftl.c - the simulated FDP SSD: its FTL against a published
 * analytic write-amplification model (greedy GC, uniform random overwrite),
 * sequential overwrite at WAF 1, exact host byte counts, trims, FDP
 * placement separating hot from cold data, the "sim" key's checks, and the
 * sim target's counters through the real drives' log-page path
 * (nvme/counters.c) into the STEP_DONE "nvme" object.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "profile/workload/workload.h"
#include "sim/dev.h"
#include "sim/ftl.h"
#include "sim/lat.h"
#include "target/devcounters.h"
#include "target/target.h"
#include "bc_test.h"

static uint64_t s_x = 0x9E3779B97F4A7C15ull;

static uint64_t s_rand(void)
{
	s_x ^= s_x << 13;
	s_x ^= s_x >> 7;
	s_x ^= s_x << 17;
	return s_x;
}

/* principal branch W0 of Lambert's W on [-1/e, 0), by Newton's method */
static double s_lambert_w0(double z)
{
	double w = -0.5;
	int i;

	for (i = 0; i < 200; i++) {
		double e = exp(w), step = (w * e - z) / (e * (w + 1));

		w -= step;
		if (fabs(step) < 1e-14)
			break;
	}
	return w;
}

/*
 * Write amplification of greedy GC under uniform random single-page
 * overwrites, Xiang & Kurkoski, "An Improved Analytic Expression for Write
 * Amplification in NAND Flash", ICNC 2012 (arXiv:1110.4245), eq. for A:
 *   A = (1 + rho) / (1 + rho + W0(-(1 + rho) e^-(1 + rho)))
 * rho = over-provisioning (physical - logical) / logical. Assumptions: every
 * host write is one page to a uniformly random logical page, the device is
 * full (every logical page mapped), one write frontier, and many blocks of
 * many pages (the victim's valid fraction concentrates on its mean). The
 * same expression is Desnoyers' FIFO/LRU model (SYSTOR 2012), which greedy
 * approaches as pages per block grow. Their check: rho 0.3 gives 2.36
 * against 2.35 simulated.
 */
static double s_greedy_model(double rho)
{
	double a = 1 + rho;

	return a / (a + s_lambert_w0(-a * exp(-a)));
}

static struct bc_sim_spec s_spec(uint64_t capacity, uint64_t ru, double op, uint32_t ruhs)
{
	struct bc_sim_spec s;

	bc_sim_spec_default(&s);
	s.capacity_bytes = capacity;
	s.ru_bytes = ru;
	s.op = op;
	s.ruhs = ruhs;
	s.gc_start_free_rus = 2;
	s.gc_stop_free_rus = 3;
	return s;
}

static double s_waf(const struct bc_sim_counters *a, const struct bc_sim_counters *b)
{
	return (double)(b->media_write_bytes - a->media_write_bytes) /
	       (double)(b->host_write_bytes - a->host_write_bytes);
}

/* fill sequentially, age with 4 random passes, measure 4 more */
static double s_random_waf(struct bc_sim_ftl *f, uint64_t pages)
{
	struct bc_sim_counters a, b;
	uint64_t i;

	for (i = 0; i < pages; i++)
		bc_sim_ftl_write(f, i * 4096, 4096, 0);
	for (i = 0; i < 4 * pages; i++)
		bc_sim_ftl_write(f, (s_rand() % pages) * 4096, 4096, 0);
	bc_sim_ftl_counters(f, &a);
	for (i = 0; i < 4 * pages; i++)
		bc_sim_ftl_write(f, (s_rand() % pages) * 4096, 4096, 0);
	bc_sim_ftl_counters(f, &b);
	return s_waf(&a, &b);
}

/*
 * 1 GiB of 4 KiB pages, 1 MiB RUs (256 pages, ~1100 RUs): enough RUs that
 * the 2-3 free RUs GC keeps and the open RU cost under 0.3% of the spare.
 */
static void test_greedy_matches_model(void)
{
	static const double ops[] = {0.07, 0.25};
	char err[256];
	unsigned i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct bc_sim_spec s = s_spec(1ull << 30, 1ull << 20, ops[i], 1);
		struct bc_sim_ftl *f;
		double sim, model;

		s.gc = BC_SIM_GC_GREEDY;
		CHECK(!bc_sim_ftl_new(&s, &f, err, sizeof(err)));
		if (!f)
			return;
		sim = s_random_waf(f, s.capacity_bytes / 4096);
		model = s_greedy_model(ops[i]);
		printf("greedy, uniform random 4k, op %.2f: simulated WAF %.3f, model %.3f "
		       "(%+.1f%%)\n",
		       ops[i], sim, model, 100 * (sim - model) / model);
		CHECK_MSG(fabs(sim - model) / model < 0.10, "op %.2f: %.3f vs %.3f", ops[i], sim,
			  model);
		CHECK(!bc_sim_ftl_check(f));
		bc_sim_ftl_destroy(&f);
	}
	/* the model's own published check point */
	CHECK(fabs(s_greedy_model(0.3) - 2.36) < 0.01);
}

static void test_sequential_overwrite_waf_one(void)
{
	struct bc_sim_spec s = s_spec(256ull << 20, 1ull << 20, 0.07, 4);
	struct bc_sim_counters a, b;
	struct bc_sim_ftl *f;
	uint64_t off, pass;
	char err[256];
	double waf;

	CHECK(!bc_sim_ftl_new(&s, &f, err, sizeof(err)));
	if (!f)
		return;
	for (off = 0; off < s.capacity_bytes; off += 128 << 10)
		bc_sim_ftl_write(f, off, 128 << 10, 0);
	bc_sim_ftl_counters(f, &a);
	for (pass = 0; pass < 3; pass++)
		for (off = 0; off < s.capacity_bytes; off += 128 << 10)
			bc_sim_ftl_write(f, off, 128 << 10, 0);
	bc_sim_ftl_counters(f, &b);
	waf = s_waf(&a, &b);
	printf("sequential overwrite 128k: WAF %.4f, GC copied %llu bytes\n", waf,
	       (unsigned long long)(b.gc_copy_bytes - a.gc_copy_bytes));
	CHECK_MSG(waf >= 1.0 && waf < 1.01, "%.4f", waf);
	CHECK(b.erases > a.erases);
	CHECK(!bc_sim_ftl_check(f));
	bc_sim_ftl_destroy(&f);
}

static void test_counts_exact(void)
{
	struct bc_sim_spec s = s_spec(64ull << 20, 1ull << 20, 0.25, 2);
	struct bc_sim_counters c;
	struct bc_sim_ftl *f;
	char err[256];

	CHECK(!bc_sim_ftl_new(&s, &f, err, sizeof(err)));
	if (!f)
		return;
	bc_sim_ftl_write(f, 0, 4096, 0);	  /* one page */
	bc_sim_ftl_write(f, 4096 + 512, 1024, 1); /* a partial page: one page programmed */
	bc_sim_ftl_write(f, 6144, 8192, 1);	  /* 3 pages touched (1.5 + 2 ...) */
	bc_sim_ftl_read(f, 0, 16384);		  /* 4 pages, all mapped */
	bc_sim_ftl_read(f, 1 << 20, 4096);	  /* unmapped: no media read */
	bc_sim_ftl_counters(f, &c);
	CHECK(c.host_write_bytes == 4096 + 1024 + 8192 && c.host_write_cmds == 3);
	CHECK(c.media_write_bytes == (1 + 1 + 3) * 4096ull);
	CHECK(c.host_read_bytes == 16384 + 4096 && c.host_read_cmds == 2);
	CHECK(c.media_read_bytes == 4 * 4096ull);
	CHECK(c.gc_copy_bytes == 0 && c.erases == 0);
	/* a trim unmaps whole pages only: [2048, 10240) covers page 1 alone */
	bc_sim_ftl_trim(f, 2048, 8192);
	bc_sim_ftl_read(f, 4096, 4096);
	bc_sim_ftl_counters(f, &c);
	CHECK(c.media_read_bytes == 4 * 4096ull && c.host_trim_bytes == 8192);
	CHECK(!bc_sim_ftl_check(f));
	bc_sim_ftl_destroy(&f);
}

/* trimming half the device doubles the spare: WAF of the other half falls */
static void test_trim_lowers_waf(void)
{
	struct bc_sim_spec s = s_spec(256ull << 20, 1ull << 20, 0.07, 1);
	uint64_t pages = s.capacity_bytes / 4096, half = pages / 2, i;
	struct bc_sim_counters a, b;
	struct bc_sim_ftl *f;
	double full, trimmed;
	char err[256];

	CHECK(!bc_sim_ftl_new(&s, &f, err, sizeof(err)));
	if (!f)
		return;
	full = s_random_waf(f, pages);
	bc_sim_ftl_trim(f, half * 4096, (uint32_t)((pages - half) * 4096));
	for (i = 0; i < 4 * half; i++)
		bc_sim_ftl_write(f, (s_rand() % half) * 4096, 4096, 0);
	bc_sim_ftl_counters(f, &a);
	for (i = 0; i < 4 * half; i++)
		bc_sim_ftl_write(f, (s_rand() % half) * 4096, 4096, 0);
	bc_sim_ftl_counters(f, &b);
	trimmed = s_waf(&a, &b);
	printf("random overwrite: WAF %.3f on the full device, %.3f on half after trimming the "
	       "rest (model %.3f)\n",
	       full, trimmed, s_greedy_model((1.07 * (double)pages / (double)half) - 1));
	CHECK_MSG(trimmed < 1.6 && full > 5, "%.3f / %.3f", full, trimmed);
	CHECK(!bc_sim_ftl_check(f));
	bc_sim_ftl_destroy(&f);
}

/*
 * 90% of writes to 10% of the LBAs: with hot and cold on one RUH, GC keeps
 * copying cold pages out of mixed RUs; with each on its own RUH (FDP
 * placement) hot RUs die nearly empty. Both GC policies.
 */
static double s_hotcold_waf(enum bc_sim_gc gc, bool separate)
{
	struct bc_sim_spec s = s_spec(256ull << 20, 1ull << 20, 0.10, 2);
	uint64_t pages = s.capacity_bytes / 4096, hot = pages / 10, i, lpn;
	struct bc_sim_counters a = {0}, b;
	struct bc_sim_ftl *f;
	char err[256];
	int pass;

	s.gc = gc;
	if (bc_sim_ftl_new(&s, &f, err, sizeof(err)))
		return -1;
	for (i = 0; i < pages; i++)
		bc_sim_ftl_write(f, i * 4096, 4096, separate && i < hot ? 0 : 1);
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			bc_sim_ftl_counters(f, &a);
		for (i = 0; i < 4 * pages; i++) {
			bool is_hot = s_rand() % 100 < 90;

			lpn = is_hot ? s_rand() % hot : hot + s_rand() % (pages - hot);
			bc_sim_ftl_write(f, lpn * 4096, 4096, separate && is_hot ? 0 : 1);
		}
	}
	bc_sim_ftl_counters(f, &b);
	CHECK(!bc_sim_ftl_check(f));
	bc_sim_ftl_destroy(&f);
	return s_waf(&a, &b);
}

static void test_placement_separates_hot_and_cold(void)
{
	double gm = s_hotcold_waf(BC_SIM_GC_GREEDY, false);
	double gs = s_hotcold_waf(BC_SIM_GC_GREEDY, true);
	double cm = s_hotcold_waf(BC_SIM_GC_COST_BENEFIT, false);
	double cs = s_hotcold_waf(BC_SIM_GC_COST_BENEFIT, true);

	printf("90/10 hot/cold, op 0.10: greedy WAF %.3f mixed, %.3f separated; cost-benefit "
	       "%.3f mixed, %.3f separated\n",
	       gm, gs, cm, cs);
	/*
	 * greedy gains less: it always takes the emptiest RU, so the cold
	 * pool keeps as much of the spare as the hot one needs more of
	 */
	CHECK_MSG(gs > 0 && gs < 0.95 * gm, "greedy %.3f vs %.3f", gs, gm);
	CHECK_MSG(cs > 0 && cs < 0.85 * cm, "cost-benefit %.3f vs %.3f", cs, cm);
	CHECK(cs < gs && cm < gm);
	CHECK(gm >= 1 && cm >= 1);
}

static void test_spec_checks(void)
{
	struct bc_sim_spec s;
	char err[512];
	cJSON *o;

	CHECK(bc_sim_path("sim") && bc_sim_path("sim:ssd-0") && !bc_sim_path("sim:") &&
	      !bc_sim_path("sim:a/b") && !bc_sim_path("simx") && !bc_sim_path("/dev/sim"));
	CHECK(!bc_sim_spec_from_json(NULL, "volumes[0]", &s, err, sizeof(err)));
	CHECK(s.enabled && s.capacity_bytes == 8ull << 30 && s.ruhs == 8);

	o = cJSON_Parse("{\"capacity\": \"8GiB\", \"ru\": \"64MiB\", \"ruhs\": 8, \"op\": 0.07}");
	CHECK(bc_sim_spec_from_json(o, "volumes[1]", &s, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "volumes[1].sim.op:") && strstr(err, "spare reclaim units"), "%s",
		  err);
	cJSON_Delete(o);

	o = cJSON_Parse("{\"capacity\": \"1GiB\", \"gc\": \"fifo\"}");
	CHECK(bc_sim_spec_from_json(o, "volumes[2]", &s, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "volumes[2].sim.gc:") != NULL, "%s", err);
	cJSON_Delete(o);

	o = cJSON_Parse("{\"capacity\": \"1GiB\", \"ru\": \"4m\", \"cache\": {}}");
	CHECK(bc_sim_spec_from_json(o, "volumes[3]", &s, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "volumes[3].sim: unknown key \"cache\"") != NULL, "%s", err);
	cJSON_Delete(o);

	o = cJSON_Parse("{\"capacity\": \"1GiB\", \"ru\": \"4m\", \"latency\": {}}");
	CHECK(!bc_sim_spec_from_json(o, "v", &s, err, sizeof(err)));
	CHECK(s.lat_units == 64 && s.lat_read_ns == 40000 && s.lat_program_ns == 200000 &&
	      s.lat_erase_ns == 2000000);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"capacity\": \"1GiB\", \"ru\": \"4m\", \"latency\": {\"units\": 4, "
			"\"read\": \"75us\", \"program\": \"1.5ms\", \"erase\": \"0\"}}");
	CHECK(!bc_sim_spec_from_json(o, "v", &s, err, sizeof(err)));
	CHECK(s.lat_units == 4 && s.lat_read_ns == 75000 && s.lat_program_ns == 1500000 &&
	      s.lat_erase_ns == 0);
	cJSON_Delete(o);
	o = cJSON_Parse(
	    "{\"capacity\": \"1GiB\", \"ru\": \"4m\", \"latency\": {\"program\": 200}}");
	CHECK(bc_sim_spec_from_json(o, "volumes[4]", &s, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "volumes[4].sim.latency.program:") != NULL, "%s", err);
	cJSON_Delete(o);

	o = cJSON_Parse("{\"page\": \"3k\"}");
	CHECK(bc_sim_spec_from_json(o, "v", &s, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "v.sim.page:") != NULL, "%s", err);
	cJSON_Delete(o);

	o = cJSON_Parse("{\"capacity\": \"2GiB\", \"page\": 4096, \"ru\": \"8m\", \"op\": 0.2, "
			"\"ruhs\": 4, \"gc\": \"cost-benefit\", \"gc_start_free_rus\": 4, "
			"\"gc_stop_free_rus\": 9, \"latency\": {\"units\": 8}}");
	CHECK(!bc_sim_spec_from_json(o, "v", &s, err, sizeof(err)));
	CHECK(s.capacity_bytes == 2ull << 30 && s.ru_bytes == 8ull << 20 && s.ruhs == 4 &&
	      s.gc == BC_SIM_GC_COST_BENEFIT && s.gc_start_free_rus == 4 &&
	      s.gc_stop_free_rus == 9);
	cJSON_Delete(o);
	/* the resolved form reads back the same */
	{
		struct bc_sim_spec back;

		o = bc_sim_spec_to_json(&s);
		CHECK(o && !bc_sim_spec_from_json(o, "v", &back, err, sizeof(err)) &&
		      !memcmp(&back, &s, sizeof(s)));
		cJSON_Delete(o);
	}
}

static void test_profile_sim_key(void)
{
	struct bc_profile *p = NULL;
	char err[512];
	const char *ok = "{\"name\":\"t\",\"agents\":[{\"name\":\"a\",\"endpoint\":\"local\"}],"
			 "\"volumes\":[{\"agent\":\"a\",\"path\":\"sim:x\",\"sim\":{\"capacity\":"
			 "\"1g\",\"ru\":\"4m\",\"ruhs\":4},\"fdp\":{\"pids\":[0,3]}},"
			 "{\"agent\":\"a\",\"path\":\"sim\"}],\"steps\":[{\"name\":\"s\"}]}";
	const char *bad_pid =
	    "{\"name\":\"t\",\"agents\":[{\"name\":\"a\",\"endpoint\":\"local\"}],"
	    "\"volumes\":[{\"agent\":\"a\",\"path\":\"sim\",\"sim\":{\"ruhs\":2},"
	    "\"fdp\":{\"pids\":[2]}}],\"steps\":[{\"name\":\"s\"}]}";
	const char *not_sim =
	    "{\"name\":\"t\",\"agents\":[{\"name\":\"a\",\"endpoint\":\"local\"}],"
	    "\"volumes\":[{\"agent\":\"a\",\"path\":\"x.dat\",\"sim\":{}}],"
	    "\"steps\":[{\"name\":\"s\"}]}";

	CHECK_MSG(!bc_profile_parse(ok, "p.json", &p, err, sizeof(err)), "%s", err);
	if (p) {
		CHECK(p->volumes[0].sim.enabled && p->volumes[0].sim.ruhs == 4 &&
		      p->volumes[0].fdp.npids == 2);
		CHECK(p->volumes[1].sim.enabled && p->volumes[1].sim.ruhs == 8);
		bc_profile_destroy(&p);
	}
	CHECK(bc_profile_parse(bad_pid, "p.json", &p, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "volumes[0].fdp.pids[0]") != NULL, "%s", err);
	CHECK(bc_profile_parse(not_sim, "p.json", &p, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "volumes[0]") && strstr(err, "\"sim\" needs"), "%s", err);
}

/*
 * The target, through its ops: prep applies each I/O to the device and
 * fills a NOP; the counters go through nvme/counters.c's log-page path and
 * give an FDP WAF with exactly the host bytes written.
 */
static void test_target_counters_path(void)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl = bc_workload_builtin;
	struct bc_nvme_counters *c0, c1;
	struct io_uring_sqe sqe;
	struct bc_target t;
	uint64_t written = 0, i;
	char err[512] = "";
	cJSON *v, *w, *sim;
	int ret;

	wl.rw = BC_RW_RANDWRITE;
	bc_sim_spec_default(&spec.sim);
	spec.sim.capacity_bytes = 256ull << 20;
	spec.sim.ru_bytes = 1ull << 20;
	spec.sim.ruhs = 2;
	spec.fdp.policy = BC_FDP_ROUND_ROBIN;
	spec.fdp.npids = 2;
	spec.fdp.pids[0] = 0;
	spec.fdp.pids[1] = 1;
	ret = bc_target_open(&t, "sim:unit", &spec, &wl, err, sizeof(err));
	CHECK_MSG(!ret, "%s", err);
	if (ret)
		return;
	CHECK(t.ops == bc_target_ops_find("sim") && t.info.kind == BC_KIND_PSEUDO &&
	      t.info.size_bytes == 256ull << 20 && t.win_end == 256ull << 20);
	c0 = bc_devcounters_sample_all(&t, 1);
	CHECK(c0 && c0->sampled && c0->have_fdp && c0->have_smart && c0->have_sim && c0->have_ocp);
	for (i = 0; i < 3 * 65536; i++) {
		struct bc_io_desc d = {.op = BC_OP_WRITE,
				       .len = i % 7 ? 4096 : 12288,
				       .off = (s_rand() % 65536) * 4096,
				       .placement = (int)(i % 3) - 1};

		if (d.off + d.len > t.win_end)
			d.off = 0;
		memset(&sqe, 0xff, sizeof(sqe));
		t.ops->prep(&t, &sqe, &d);
		CHECK(sqe.opcode == IORING_OP_NOP);
		written += d.len;
	}
	v = cJSON_CreateObject();
	bc_devcounters_end_json(&t, c0, v);
	w = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(v, "nvme"), "waf"),
				"value");
	sim = cJSON_GetObjectItem(cJSON_GetObjectItem(v, "nvme"), "sim");
	/* the OCP C0 log (physical media units written) over SMART, as seed 000's WAF */
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(
			  cJSON_GetObjectItem(cJSON_GetObjectItem(v, "nvme"), "waf"), "source")),
		      "ocp_c0"));
	CHECK(cJSON_GetNumberValue(
		  cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(v, "nvme"), "ocp_c0"),
				      "physical_media_bytes_written")) ==
	      cJSON_GetNumberValue(cJSON_GetObjectItem(
		  cJSON_GetObjectItem(cJSON_GetObjectItem(v, "nvme"), "fdp"), "mbmw")));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(
		  cJSON_GetObjectItem(cJSON_GetObjectItem(v, "nvme"), "fdp"), "hbmw")) ==
	      (double)written);
	CHECK(cJSON_IsNumber(w) && w->valuedouble > 1.5);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(sim, "gc_copy_bytes")) > 0);
	printf("sim target: %llu host bytes, WAF %.3f through the OCP C0 and SMART logs\n",
	       (unsigned long long)written, cJSON_GetNumberValue(w));
	cJSON_Delete(v);
	/* the device outlives the target until the session ends */
	bc_target_close(&t);
	CHECK(!bc_target_open(&t, "sim:unit", &spec, &wl, err, sizeof(err)));
	CHECK(t.ops && !t.ops->control(&t, BC_TCTL_SIM_COUNTERS, &c1.sim) &&
	      c1.sim.host_write_bytes == written);
	bc_target_close(&t);
	bc_sim_dev_forget_all();
	free(c0);
	/* verify has nothing to check on a device that stores nothing */
	wl.verify = true;
	CHECK(bc_target_open(&t, "sim", &spec, &wl, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "verify") != NULL, "%s", err);
}

static void s_write_pages(struct bc_target *t, uint64_t first, uint64_t n, int placement)
{
	static uint64_t buf[512];
	struct io_uring_sqe sqe;
	uint64_t i;

	for (i = first; i < first + n; i++) {
		struct bc_io_desc d = {.op = BC_OP_WRITE,
				       .len = 4096,
				       .off = i * 4096,
				       .buf = buf,
				       .placement = placement};

		t->ops->prep(t, &sqe, &d);
	}
}

/*
 * Each write lands on the RUH the stream chose (an index into the volume's
 * "fdp" pids), else on the volume's policy's, else on RUH 0; a write with
 * no directive (a "no_fdp" mode) on RUH 0 like a real drive's.
 */
static void test_target_placement(void)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl = bc_workload_builtin;
	struct bc_sim_dev *d;
	struct bc_target t;
	char err[512] = "";
	int ret;

	wl.rw = BC_RW_RANDWRITE;
	bc_sim_spec_default(&spec.sim);
	spec.sim.capacity_bytes = 64ull << 20;
	spec.sim.ru_bytes = 1ull << 20;
	spec.sim.op = 0.25;
	spec.sim.ruhs = 4;
	spec.fdp.policy = BC_FDP_ROUND_ROBIN;
	spec.fdp.npids = 2;
	spec.fdp.pids[0] = 1;
	spec.fdp.pids[1] = 3;
	ret = bc_target_open(&t, "sim:pl", &spec, &wl, err, sizeof(err));
	CHECK_MSG(!ret, "%s", err);
	if (ret)
		return;
	s_write_pages(&t, 0, 100, 0);	 /* stream: pids[0] = RUH 1 */
	s_write_pages(&t, 100, 200, 1);	 /* stream: pids[1] = RUH 3 */
	s_write_pages(&t, 300, 100, -1); /* the volume's round-robin: 50 each */
	s_write_pages(&t, 400, 10, 7);	 /* beyond the pids: the volume's policy too */
	s_write_pages(&t, 410, 20, BC_PLACEMENT_NONE); /* no directive: RUH 0 */
	/* the registry hands back the target's own device for the same name and spec */
	CHECK(!bc_sim_dev_get("sim:pl", &t.sim, &d, err, sizeof(err)));
	CHECK_MSG(bc_sim_dev_ruh_valid_pages(d, 1) == 155 &&
		      bc_sim_dev_ruh_valid_pages(d, 3) == 255 &&
		      bc_sim_dev_ruh_valid_pages(d, 0) == 20 && !bc_sim_dev_ruh_valid_pages(d, 2),
		  "%llu %llu", (unsigned long long)bc_sim_dev_ruh_valid_pages(d, 1),
		  (unsigned long long)bc_sim_dev_ruh_valid_pages(d, 3));
	bc_target_close(&t);

	/* no "fdp": every write on RUH 0, whatever the stream says */
	spec.fdp.policy = BC_FDP_NONE;
	spec.fdp.npids = 0;
	ret = bc_target_open(&t, "sim:nofdp", &spec, &wl, err, sizeof(err));
	CHECK_MSG(!ret, "%s", err);
	if (ret)
		return;
	s_write_pages(&t, 0, 50, 1);
	CHECK(!bc_sim_dev_get("sim:nofdp", &t.sim, &d, err, sizeof(err)));
	CHECK(bc_sim_dev_ruh_valid_pages(d, 0) == 50 && !bc_sim_dev_ruh_valid_pages(d, 1));
	bc_target_close(&t);

	/* "pids": "all": every RUH, round-robin (fio's fdp=1 without plids) */
	spec.fdp = (struct bc_fdp_spec){.policy = BC_FDP_ROUND_ROBIN, .all = true};
	ret = bc_target_open(&t, "sim:all", &spec, &wl, err, sizeof(err));
	CHECK_MSG(!ret, "%s", err);
	if (ret)
		return;
	CHECK(t.fdp.npids == 4 && t.fdp.pids[3] == 3);
	s_write_pages(&t, 0, 100, -1);
	CHECK(!bc_sim_dev_get("sim:all", &t.sim, &d, err, sizeof(err)));
	CHECK(bc_sim_dev_ruh_valid_pages(d, 0) == 25 && bc_sim_dev_ruh_valid_pages(d, 3) == 25);
	bc_target_close(&t);
	/* a workload's placement index beyond them: refused once the target knows them */
	wl.placement = (struct bc_placement){.kind = 1, .n = 1, .idx = {4}};
	ret = bc_target_open(&t, "sim:all2", &spec, &wl, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "placement index 4 refused"));
	if (!ret)
		bc_target_close(&t);
	bc_sim_dev_forget_all();
}

struct s_racer {
	struct bc_target *t;
	uint64_t seed, bytes;
};

static void *s_race(void *arg)
{
	struct s_racer *r = arg;
	static __thread uint64_t buf[512];
	struct io_uring_sqe sqe;
	uint64_t x = r->seed, i;

	for (i = 0; i < 200000; i++) {
		struct bc_io_desc d = {.op = i % 5 ? BC_OP_WRITE : BC_OP_TRIM,
				       .len = i % 3 ? 4096 : 16384,
				       .buf = buf,
				       .placement = (int)(i % 3) - 1};

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		d.off = (x % 16000) * 4096;
		r->t->ops->prep(r->t, &sqe, &d);
		if (d.op == BC_OP_WRITE)
			r->bytes += d.len;
	}
	return NULL;
}

/* job threads share the target: the device lock keeps the FTL whole and the counts exact */
static void test_target_concurrent_jobs(void)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl = bc_workload_builtin;
	struct s_racer r[3];
	struct bc_sim_counters c;
	struct bc_sim_dev *d;
	struct bc_target t;
	pthread_t th[3];
	char err[512] = "";
	int i, ret;

	wl.rw = BC_RW_RANDWRITE;
	bc_sim_spec_default(&spec.sim);
	spec.sim.capacity_bytes = 64ull << 20;
	spec.sim.ru_bytes = 1ull << 20;
	spec.sim.op = 0.25;
	spec.sim.ruhs = 2;
	spec.fdp.policy = BC_FDP_RANDOM;
	spec.fdp.npids = 2;
	spec.fdp.pids[1] = 1;
	ret = bc_target_open(&t, "sim:race", &spec, &wl, err, sizeof(err));
	CHECK_MSG(!ret, "%s", err);
	if (ret)
		return;
	for (i = 0; i < 3; i++) {
		r[i] = (struct s_racer){.t = &t, .seed = 0x1234567ull * (uint64_t)(i + 1)};
		CHECK(!pthread_create(&th[i], NULL, s_race, &r[i]));
	}
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	CHECK(!bc_sim_dev_get("sim:race", &t.sim, &d, err, sizeof(err)));
	bc_sim_dev_counters(d, &c);
	CHECK(c.host_write_bytes == r[0].bytes + r[1].bytes + r[2].bytes);
	CHECK(c.gc_copy_bytes > 0 && !bc_sim_dev_check(d));
	bc_target_close(&t);
	bc_sim_dev_forget_all();
}

/*
 * The latency model: dies serve page operations in arrival order; GC work
 * delays every die. Figures follow from the arithmetic of the model.
 */
static void test_latency_model(void)
{
	struct bc_sim_spec s;
	struct bc_sim_lat *l;

	bc_sim_spec_default(&s);
	s.lat_units = 2;
	l = bc_sim_lat_new(&s);
	CHECK(l != NULL);
	if (!l)
		return;
	/* four one-page programs of 100 us at t = 1 ms on 2 idle dies: 2 wait */
	CHECK(bc_sim_lat_command(l, 1000000, 1, 100000, 0) == 100000);
	CHECK(bc_sim_lat_command(l, 1000000, 1, 100000, 0) == 100000);
	CHECK(bc_sim_lat_command(l, 1000000, 1, 100000, 0) == 200000);
	CHECK(bc_sim_lat_command(l, 1000000, 1, 100000, 0) == 200000);
	/* 400 us of GC on both dies (busy until 1.2 ms): 200 us each, then the page */
	CHECK(bc_sim_lat_command(l, 1000000, 1, 100000, 400000) == 500000);
	/* long after: idle again; a 4-page read stripes 2 pages per die */
	CHECK(bc_sim_lat_command(l, 10000000, 4, 40000, 0) == 80000);
	/* an unmapped read touches no media */
	CHECK(bc_sim_lat_command(l, 20000000, 0, 40000, 0) == 0);
	bc_sim_lat_destroy(&l);
	CHECK(l == NULL);
}

/*
 * With "latency" the target completes an I/O as a pure IORING_OP_TIMEOUT
 * whose timespec sits in the I/O's buffer; a write that sets off GC waits
 * for it.
 */
static void test_target_latency_sqe(void)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl = bc_workload_builtin;
	struct __kernel_timespec *ts;
	struct io_uring_sqe sqe;
	static uint64_t buf[512];
	struct bc_target t;
	char err[512] = "";
	uint64_t i, worst = 0;
	int ret;

	wl.rw = BC_RW_RANDWRITE;
	bc_sim_spec_default(&spec.sim);
	spec.sim.capacity_bytes = 64ull << 20;
	spec.sim.ru_bytes = 1ull << 20;
	spec.sim.ruhs = 1;
	spec.sim.lat_units = 64;
	spec.sim.lat_read_ns = 40000;
	spec.sim.lat_program_ns = 200000;
	spec.sim.lat_erase_ns = 2000000;
	spec.sim.op = 0.25;
	ret = bc_target_open(&t, "sim:lat", &spec, &wl, err, sizeof(err));
	CHECK_MSG(!ret, "%s", err);
	if (ret)
		return;
	CHECK(t.ops->timeout_full && t.ops->nop_full);
	{
		struct bc_io_desc d = {.op = BC_OP_WRITE, .len = 4096, .buf = buf, .placement = -1};

		t.ops->prep(&t, &sqe, &d);
		ts = (struct __kernel_timespec *)(uintptr_t)sqe.addr;
		CHECK(sqe.opcode == IORING_OP_TIMEOUT && sqe.off == 0 && ts == (void *)buf);
		/* an idle device: one program, give or take the clock between calls */
		CHECK_MSG(ts->tv_sec == 0 && ts->tv_nsec <= 200000 && ts->tv_nsec > 150000, "%lld",
			  (long long)ts->tv_nsec);
	}
	/* fill and overwrite at random: GC's copies and erases show in the delays */
	for (i = 0; i < 4 * 16384; i++) {
		struct bc_io_desc d = {.op = BC_OP_WRITE,
				       .len = 4096,
				       .off = (i < 16384 ? i : s_rand() % 16384) * 4096,
				       .buf = buf,
				       .placement = -1};

		t.ops->prep(&t, &sqe, &d);
		if (sqe.opcode == IORING_OP_TIMEOUT) {
			ts = (struct __kernel_timespec *)(uintptr_t)sqe.addr;
			if ((uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec > worst)
				worst =
				    (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
		}
	}
	printf("latency model: worst modelled write delay %.3f ms (an open-loop burst: nothing "
	       "completes between these submissions, so GC work queues up)\n",
	       worst / 1e6);
	CHECK(worst > 2000000);
	bc_target_close(&t);
	bc_sim_dev_forget_all();
}

int main(void)
{
	test_greedy_matches_model();
	test_sequential_overwrite_waf_one();
	test_counts_exact();
	test_trim_lowers_waf();
	test_placement_separates_hot_and_cold();
	test_spec_checks();
	test_profile_sim_key();
	test_target_counters_path();
	test_target_placement();
	test_target_concurrent_jobs();
	test_latency_model();
	test_target_latency_sqe();
	TEST_DONE();
}
