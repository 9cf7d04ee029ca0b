/* test_workload.c - the extended workload keys: parsing and errors, per-volume overrides, wire
 * form; bssplit and rwmix proportions, the window is never left, one-pass steps, trim, batching,
 * SQPOLL, affinity */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/profile.h"
#include "bc_jobrun.h"

static char s_err[1024];

/* a one-agent profile around `step` (a JSON object body) and `vol` (extra volume keys) */
static int s_parse(const char *step, const char *vol, struct bc_profile **p)
{
	char sq[4096], text[4096];
	size_t i;

	snprintf(sq, sizeof(sq),
		 "{'name':'t','agents':[{'name':'a','endpoint':'local'}],"
		 "'volumes':[{'agent':'a','path':'null'%s%s}],'steps':[{'name':'s'%s%s}]}",
		 vol[0] ? "," : "", vol, step[0] ? "," : "", step);
	for (i = 0; sq[i]; i++)
		text[i] = sq[i] == '\'' ? '"' : sq[i];
	text[i] = '\0';
	return bc_profile_parse(text, "p.json", p, s_err, sizeof(s_err));
}

static struct bc_profile *s_ok(int line, const char *step, const char *vol)
{
	struct bc_profile *p = NULL;

	if (s_parse(step, vol, &p) || !p) {
		fprintf(stderr, "%s:%d: expected ok for {%s}: %s\n", __FILE__, line, step, s_err);
		bc_test_failures++;
	}
	return p;
}
#define OK(step, vol) s_ok(__LINE__, step, vol)

static void s_bad(int line, const char *step, const char *vol, const char *needle)
{
	struct bc_profile *p = NULL;

	if (s_parse(step, vol, &p) != -EINVAL || p || !strstr(s_err, needle)) {
		fprintf(stderr, "%s:%d: expected an error with \"%s\" for {%s}, got \"%s\"\n",
			__FILE__, line, needle, step, p ? "(parsed)" : s_err);
		bc_test_failures++;
	}
	bc_profile_destroy(&p);
}
#define BAD(step, vol, needle) s_bad(__LINE__, step, vol, needle)

static void test_parse(void)
{
	struct bc_profile *p;
	char buf[128];

	p = OK("'bs':'4k/50:64k/50'", "");
	if (p) {
		const struct bc_workload *w = &p->steps[0].wl;

		CHECK(w->nbssplit == 2 && w->bs == 65536 && w->bssplit[0].bs == 4096 &&
		      w->bssplit[0].ppm == 500000 && w->bssplit[1].ppm == 500000);
		CHECK(!strcmp(bc_bssplit_format(w, buf, sizeof(buf)), "4096/50:65536/50"));
	}
	bc_profile_destroy(&p);
	/* fio's rule: entries without a percent share what is left */
	p = OK("'bs':'4k/10:8k:16k'", "");
	CHECK(p && p->steps[0].wl.nbssplit == 3 && p->steps[0].wl.bssplit[1].ppm == 450000 &&
	      p->steps[0].wl.bssplit[2].ppm == 450000);
	bc_profile_destroy(&p);
	/* fractions of a percent, four decimals at most, kept exactly and written back */
	p = OK("'bs':'4k/4.5:8k/41.05:16k/54.45'", "");
	if (p) {
		const struct bc_workload *w = &p->steps[0].wl;

		CHECK(w->nbssplit == 3 && w->bssplit[0].ppm == 45000 &&
		      w->bssplit[1].ppm == 410500 && w->bssplit[2].ppm == 544500);
		CHECK(!strcmp(bc_bssplit_format(w, buf, sizeof(buf)),
			      "4096/4.5:8192/41.05:16384/54.45"));
	}
	bc_profile_destroy(&p);
	p = OK("'bs':'4k/0.0001:8k'", "");
	CHECK(p && p->steps[0].wl.bssplit[0].ppm == 1 && p->steps[0].wl.bssplit[1].ppm == 999999);
	bc_profile_destroy(&p);
	BAD("'bs':'4k/4.50001:8k'", "", "percents with up to 4 decimals");
	BAD("'bs':'4k/4.:8k'", "", "expected a size or a split");
	BAD("'bs':'4k/50.5:8k/50'", "", "percentages must add up to 100");
	p = OK("'bs':'8k/100'", "");
	CHECK(p && p->steps[0].wl.nbssplit == 0 && p->steps[0].wl.bs == 8192);
	bc_profile_destroy(&p);
	BAD("'bs':'4k/60:8k/60'", "", "steps[0].bs: percentages must add up to 100");
	BAD("'bs':'3000/50:4k/50'", "", "multiple of 512");
	BAD("'bs':'4k/50:'", "", "expected a size or a split");

	/* rwmixread with decimals (vdbench's rdpct=83.14): millionths, written back as given */
	p = OK("'rw':'randrw','rwmixread':83.14", "");
	if (p) {
		cJSON *j = bc_workload_to_json(&p->steps[0].wl);
		char *s = j ? cJSON_PrintUnformatted(cJSON_GetObjectItem(j, "rwmixread")) : NULL;
		struct bc_workload back = {0};

		CHECK(p->steps[0].wl.rwmixread_ppm == 831400 && s && !strcmp(s, "83.14"));
		CHECK(j && bc_workload_from_json(j, &back, s_err, sizeof(s_err)) == 0 &&
		      back.rwmixread_ppm == 831400);
		free(s);
		cJSON_Delete(j);
	}
	bc_profile_destroy(&p);
	p = OK("'rw':'randrw','rwmixread':0.0001", "");
	CHECK(p && p->steps[0].wl.rwmixread_ppm == 1 &&
	      bc_rw_ops(BC_RW_RANDRW, 1, 0) == (BC_RW_OPS_READ | BC_RW_OPS_WRITE));
	bc_profile_destroy(&p);
	p = OK("'rw':'randrw','rwmixread':70", "");
	if (p) {
		cJSON *j = bc_workload_to_json(&p->steps[0].wl);
		char *s = j ? cJSON_PrintUnformatted(cJSON_GetObjectItem(j, "rwmixread")) : NULL;

		/* a whole percent stays an integer on the wire */
		CHECK(p->steps[0].wl.rwmixread_ppm == 700000 && s && !strcmp(s, "70"));
		free(s);
		cJSON_Delete(j);
	}
	bc_profile_destroy(&p);
	BAD("'rw':'randrw','rwmixread':83.14159", "",
	    "steps[0].rwmixread: a percent has at most 4 decimals");
	BAD("'rw':'randrw','rwmixread':100.5", "", "steps[0].rwmixread: must be in 0..100");
	BAD("'rw':'randrw','rwmixread':'83'", "",
	    "steps[0].rwmixread: expected a percent in 0..100");
	BAD("'rw':'randrw','rwmixread':99.5,'rwmixtrim':1", "",
	    "rwmixread 99.5 + rwmixtrim 1 exceed 100 percent");

	p = OK("'rw':'randtrim'", "");
	CHECK(p && p->steps[0].wl.rw == BC_RW_RANDTRIM && bc_workload_writes(&p->steps[0].wl));
	bc_profile_destroy(&p);
	BAD("'rw':'randrw','rwmixread':80,'rwmixtrim':30", "", "steps[0].rwmixtrim: rwmixread 80");

	p = OK("'random_distribution':'zipf:1.2'", "");
	CHECK(p && p->steps[0].wl.dist.kind == BC_DIST_ZIPF && p->steps[0].wl.dist.param == 1.2);
	bc_profile_destroy(&p);
	p = OK("'random_distribution':'zoned:90/10'", "");
	if (p) {
		CHECK(!strcmp(bc_dist_format(&p->steps[0].wl.dist, buf, sizeof(buf)),
			      "zoned:90/10:10/90"));
	}
	bc_profile_destroy(&p);
	p = OK("'random_distribution':'normal:2.5'", "");
	CHECK(p && !strcmp(bc_dist_format(&p->steps[0].wl.dist, buf, sizeof(buf)), "normal:2.5"));
	bc_profile_destroy(&p);
	BAD("'random_distribution':'zipf:0'", "", "theta in (0, 100]");
	BAD("'random_distribution':'pareto:1'", "", "h in (0, 1)");
	BAD("'random_distribution':'zoned:50/100'", "", "only 50% of the I/Os");
	BAD("'random_distribution':'zoned:80/10:30/10'", "", "zoned:ACCESS/RANGE");
	BAD("'random_distribution':'gauss:3'", "", "expected uniform, zipf");

	p = OK("'cpus_allowed':'0-3,8','cpus_allowed_policy':'split'", "");
	CHECK(p && !strcmp(p->steps[0].wl.cpus_allowed, "0-3,8") && p->steps[0].wl.cpus_split);
	bc_profile_destroy(&p);
	p = OK("'cpus_allowed':'numa:0-1,3'", "");
	CHECK(p && !strcmp(p->steps[0].wl.cpus_allowed, "numa:0-1,3"));
	bc_profile_destroy(&p);
	BAD("'cpus_allowed':'numa:'", "", "NUMA node list");
	BAD("'cpus_allowed':'numa:x'", "", "NUMA node list");
	BAD("'cpus_allowed':'3-1'", "", "CPU list");
	BAD("'cpus_allowed':'2000'", "", "CPU list");

	p = OK("'thinktime':'250us','rate_iops':1000,'rate_bw':'100m','io_size':'1g'", "");
	if (p) {
		const struct bc_workload *w = &p->steps[0].wl;

		CHECK(w->thinktime_us == 250 && w->rate_iops == 1000 && w->rate_bw == 100 << 20 &&
		      w->io_size == 1ull << 30 && bc_workload_size_based(w));
	}
	bc_profile_destroy(&p);
	p = OK("'thinktime':'2ms'", "");
	CHECK(p && p->steps[0].wl.thinktime_us == 2000);
	bc_profile_destroy(&p);
	BAD("'thinktime':'2h'", "", "up to 1h");

	BAD("'verify':true,'bs':'512'", "", "steps[0].verify: verify checks 4 KiB blocks");
	BAD("'hipri':true,'direct':false", "", "needs \"direct\": true");
	BAD("'sqpoll_cpu':-2", "", "sqpoll_cpu");
	BAD("'iodepth_batch_submit':0", "", "iodepth_batch_submit");

	/* per-volume overrides: volume keys only, checked against every step */
	p = OK("'rw':'randrw'", "'workload':{'rate_iops':500,'bs':'8k','rwmixtrim':10}");
	if (p) {
		struct bc_workload vw;

		bc_volume_workload(&p->steps[0].wl, &p->volumes[0], &vw);
		CHECK(vw.rate_iops == 500 && vw.bs == 8192 && vw.rwmixtrim == 10 &&
		      vw.rw == BC_RW_RANDRW);
		CHECK(p->steps[0].wl.rate_iops == 0);
	}
	bc_profile_destroy(&p);
	BAD("", "'workload':{'numjobs':2}",
	    "volumes[0].workload.numjobs: applies to the whole step");
	BAD("", "'workload':{'bogus':2}", "volumes[0].workload.bogus: unknown key");
	BAD("'rw':'randrw','rwmixread':70", "'workload':{'rwmixtrim':40}",
	    "exceed 100 percent (in step \"s\")");
}

static bool s_wl_ext_eq(const struct bc_workload *a, const struct bc_workload *b)
{
	return a->rwmixtrim == b->rwmixtrim && a->nbssplit == b->nbssplit &&
	       !memcmp(a->bssplit, b->bssplit, sizeof(a->bssplit)) && a->bs == b->bs &&
	       a->blockalign == b->blockalign && a->dist.kind == b->dist.kind &&
	       a->dist.param == b->dist.param && a->dist.nzones == b->dist.nzones &&
	       !memcmp(a->dist.zones, b->dist.zones, sizeof(a->dist.zones)) &&
	       a->batch_submit == b->batch_submit && a->batch_complete == b->batch_complete &&
	       !strcmp(a->cpus_allowed, b->cpus_allowed) && a->cpus_split == b->cpus_split &&
	       a->rate_iops == b->rate_iops && a->rate_bw == b->rate_bw &&
	       a->size_based == b->size_based && a->io_size == b->io_size &&
	       a->thinktime_us == b->thinktime_us && a->verify == b->verify &&
	       a->sqpoll == b->sqpoll && a->sqpoll_cpu == b->sqpoll_cpu && a->hipri == b->hipri;
}

static void test_wire(void)
{
	struct bc_workload in = {
	    .rw = BC_RW_RANDRW,
	    .rwmixread_ppm = 50 * BC_SPLIT_PCT1,
	    .rwmixtrim = 20,
	    .bs = 65536,
	    .nbssplit = 2,
	    .bssplit = {{4096, 300000}, {65536, 700000}},
	    .iodepth = 8,
	    .numjobs = 2,
	    .direct = true,
	    .runtime_s = 5,
	    .blockalign = 8192,
	    .dist = {.kind = BC_DIST_ZONED, .nzones = 2, .zones = {{70, 5}, {30, 95}}},
	    .batch_submit = 4,
	    .batch_complete = 2,
	    .cpus_allowed = "numa",
	    .cpus_split = true,
	    .rate_iops = 12345,
	    .rate_bw = 1 << 30,
	    .size_based = true,
	    .io_size = 1 << 30,
	    .thinktime_us = 77,
	    .verify = true,
	    .sqpoll = true,
	    .sqpoll_cpu = 3,
	    .hipri = false};
	struct bc_workload out = {0};
	cJSON *j = bc_workload_to_json(&in), *old;

	CHECK(j && bc_workload_from_json(j, &out, s_err, sizeof(s_err)) == 0);
	CHECK_MSG(s_wl_ext_eq(&in, &out), "extended keys do not survive the wire form");
	in.dist = (struct bc_dist_spec){.kind = BC_DIST_PARETO, .param = 0.123456789};
	cJSON_Delete(j);
	j = bc_workload_to_json(&in);
	CHECK(j && bc_workload_from_json(j, &out, s_err, sizeof(s_err)) == 0 &&
	      out.dist.param == 0.123456789);
	cJSON_Delete(j);
	/* an older coordinator's PREPARE (the 8 basic keys) still parses, with defaults */
	old = cJSON_Parse("{\"rw\":\"read\",\"rwmixread\":50,\"bs\":4096,\"iodepth\":1,"
			  "\"numjobs\":1,\"direct\":true,\"ramp\":0,\"runtime\":1}");
	CHECK(bc_workload_from_json(old, &out, s_err, sizeof(s_err)) == 0);
	CHECK(out.sqpoll_cpu == -1 && !out.rate_iops && !out.nbssplit && out.batch_submit == 1);
	cJSON_Delete(old);
}

static struct bc_workload s_null_wl(enum bc_rw rw, uint32_t qd)
{
	return (struct bc_workload){.rw = rw,
				    .rwmixread_ppm = 50 * BC_SPLIT_PCT1,
				    .bs = 4096,
				    .iodepth = qd,
				    .numjobs = 1,
				    .direct = true};
}

/* proportions on the null target: 2-size split and a read/write/trim mix */
static void test_proportions(void)
{
	struct bc_workload wl = s_null_wl(BC_RW_RANDRW, 16);
	struct bc_target t;
	struct jr_run r;
	double f, n, rd, wr, tr;

	wl.rwmixread_ppm = 50 * BC_SPLIT_PCT1;
	wl.rwmixtrim = 20;
	wl.bs = 65536;
	wl.nbssplit = 2;
	wl.bssplit[0] = (struct bc_bssplit){4096, 250000};
	wl.bssplit[1] = (struct bc_bssplit){65536, 750000};
	CHECK(bc_target_open(&t, "null", NULL, &wl, s_err, sizeof(s_err)) == 0);
	if (!jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err))) {
		const struct bc_volstat *v = &r.total[0];
		uint64_t ios = 0, bytes = 0;
		int o;

		for (o = 0; o < BC_OP_NR; o++) {
			ios += v->op[o].ios;
			bytes += v->op[o].bytes;
		}
		n = (double)ios;
		/* mean size = 4k + f x 60k: the share f of 64k I/Os */
		f = ((double)bytes / n - 4096) / (65536 - 4096);
		rd = v->op[BC_OP_READ].ios / n;
		wr = v->op[BC_OP_WRITE].ios / n;
		tr = v->op[BC_OP_TRIM].ios / n;
		printf("%.0f I/Os: 64k share %.4f (want 0.75), read %.4f (0.50) write %.4f (0.30) "
		       "trim %.4f (0.20)\n",
		       n, f, rd, wr, tr);
		/* >= 100k I/Os: 5 sigma of a share is < 0.008 */
		CHECK(n >= 100000);
		CHECK(fabs(f - 0.75) < 0.01 && fabs(rd - 0.5) < 0.01 && fabs(wr - 0.3) < 0.01 &&
		      fabs(tr - 0.2) < 0.01);
	}
	jr_free(&r);
	bc_target_close(&t);
}

/*
 * a split with a fraction of a percent on the null target: 0.5% of 64k I/Os among 4k ones
 * (whole percents would make it 0 or 1%)
 */
static void test_split_fraction(void)
{
	struct bc_workload wl = s_null_wl(BC_RW_RANDREAD, 16);
	struct bc_target t;
	struct jr_run r;

	wl.bs = 65536;
	wl.nbssplit = 2;
	wl.bssplit[0] = (struct bc_bssplit){4096, 995000};
	wl.bssplit[1] = (struct bc_bssplit){65536, 5000};
	CHECK(bc_target_open(&t, "null", NULL, &wl, s_err, sizeof(s_err)) == 0);
	if (!jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err))) {
		const struct bc_volstat *v = &r.total[0];
		double n = (double)v->op[BC_OP_READ].ios, f;

		f = ((double)v->op[BC_OP_READ].bytes / n - 4096) / (65536 - 4096);
		printf("%.0f I/Os: 64k share %.5f (want 0.00500)\n", n, f);
		/* >= 100k I/Os: 5 sigma of the share is < 0.0012 */
		CHECK(n >= 100000);
		CHECK_MSG(fabs(f - 0.005) < 0.0012, "64k share %.5f", f);
	}
	jr_free(&r);
	bc_target_close(&t);
}

/*
 * rwmixread with decimals on the null target: 83.14% reads; a whole
 * percent's thresholds are those of (pct << 32) / 100, as before decimals
 */
static void test_mix_fraction(void)
{
	struct bc_workload wl = s_null_wl(BC_RW_RANDRW, 16);
	struct bc_target t;
	struct jr_run r;
	uint64_t p;

	for (p = 0; p <= 100; p++)
		CHECK(((p * BC_SPLIT_PCT1) << 32) / BC_SPLIT_ALL == (p << 32) / 100);
	wl.rwmixread_ppm = 831400;
	CHECK(bc_target_open(&t, "null", NULL, &wl, s_err, sizeof(s_err)) == 0);
	if (!jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err))) {
		const struct bc_volstat *v = &r.total[0];
		double rd = (double)v->op[BC_OP_READ].ios, n = rd + (double)v->op[BC_OP_WRITE].ios;
		double sigma = n > 0 ? sqrt(0.8314 * 0.1686 / n) : 1;

		printf("%.0f I/Os: read share %.5f (want 0.83140, sigma %.5f)\n", n, rd / n, sigma);
		CHECK(n >= 100000 && !v->op[BC_OP_TRIM].ios);
		/* 5 sigma: 0.0006 at the ~6M I/Os of an idle machine, so 83% or 84% fail */
		CHECK_MSG(fabs(rd / n - 0.8314) < 5 * sigma, "read share %.5f", rd / n);
	}
	jr_free(&r);
	bc_target_close(&t);
}

/* count bytes that are not zero in [from, to) of fd */
static uint64_t s_nonzero(int fd, uint64_t from, uint64_t to)
{
	static uint8_t buf[1 << 16];
	uint64_t n = 0, at;
	ssize_t got, i;

	for (at = from; at < to; at += (uint64_t)got) {
		got = pread(fd, buf, to - at < sizeof(buf) ? to - at : sizeof(buf), (off_t)at);
		if (got <= 0)
			break;
		for (i = 0; i < got; i++)
			n += buf[i] != 0;
	}
	return n;
}

/* random and sequential I/O with splits, alignment and skew stay inside offset/length */
static void test_window(void)
{
	const uint64_t size = 8 << 20, off = 1 << 20, len = (3 << 20) + 4096 * 5;
	struct bc_volume_spec spec = {.node = -1, .offset_bytes = off, .length_bytes = len};
	static const enum bc_rw rws[] = {BC_RW_RANDWRITE, BC_RW_WRITE};
	struct bc_workload wl;
	struct bc_target t;
	struct jr_run r;
	char path[64];
	unsigned i;
	int fd;

	fd = jr_tempfile(path, sizeof(path), size);
	for (i = 0; i < 2; i++) {
		wl = s_null_wl(rws[i], 8);
		wl.numjobs = 2;
		wl.bs = 65536;
		wl.nbssplit = 3;
		wl.bssplit[0] = (struct bc_bssplit){4096, 400000};
		wl.bssplit[1] = (struct bc_bssplit){12288, 300000};
		wl.bssplit[2] = (struct bc_bssplit){65536, 300000};
		wl.blockalign = 4096;
		wl.dist = (struct bc_dist_spec){.kind = BC_DIST_ZIPF, .param = 0.6};
		if (jr_open(&t, path, &spec, &wl))
			break;
		if (!jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err))) {
			CHECK(r.total[0].op[BC_OP_WRITE].ios > 1000);
			CHECK_MSG(s_nonzero(fd, 0, off) == 0, "%s wrote before the window",
				  bc_rw_names[rws[i]]);
			CHECK_MSG(s_nonzero(fd, off + len, size) == 0, "%s wrote past the window",
				  bc_rw_names[rws[i]]);
			CHECK(s_nonzero(fd, off, off + len) > 0);
		}
		jr_free(&r);
		bc_target_close(&t);
	}
	close(fd);
	unlink(path);
}

/* one random pass: every block of the window exactly once over 3 jobs, then the step ends */
static void test_one_pass(void)
{
	const uint64_t size = 4 << 20;
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl = s_null_wl(BC_RW_RANDWRITE, 8);
	struct bc_target t;
	struct jr_run r;
	uint64_t w[2], b, nb = size / 8192, ok = 0;
	char path[64];
	int fd;

	fd = jr_tempfile(path, sizeof(path), size);
	wl.numjobs = 3;
	wl.bs = 8192;
	wl.size_based = true;
	wl.runtime_s = 20;
	if (!jr_open(&t, path, &spec, &wl)) {
		if (!jr_run(&t, 1, &wl, NULL, wl.runtime_s, &r, s_err, sizeof(s_err))) {
			CHECK_MSG(r.total[0].op[BC_OP_WRITE].ios == nb,
				  "%llu writes for %llu blocks",
				  (unsigned long long)r.total[0].op[BC_OP_WRITE].ios,
				  (unsigned long long)nb);
			for (b = 0; b < nb; b++) {
				CHECK(pread(fd, w, sizeof(w), (off_t)(b * 8192)) == sizeof(w));
				ok += w[0] == b * 8192;
			}
			CHECK_MSG(ok == nb, "%llu of %llu blocks carry their own stamp",
				  (unsigned long long)ok, (unsigned long long)nb);
			CHECK(r.wall_ns < 10 * BC_NS_PER_S);
		}
		jr_free(&r);
		bc_target_close(&t);
	}
	close(fd);
	unlink(path);

	/* io_size on the null target: exactly that many bytes, split over the jobs */
	wl = s_null_wl(BC_RW_RANDREAD, 4);
	wl.numjobs = 2;
	wl.io_size = 1 << 20;
	wl.runtime_s = 20;
	CHECK(bc_target_open(&t, "null", NULL, &wl, s_err, sizeof(s_err)) == 0);
	if (!jr_run(&t, 1, &wl, NULL, wl.runtime_s, &r, s_err, sizeof(s_err)))
		CHECK(r.total[0].op[BC_OP_READ].bytes == 1 << 20);
	jr_free(&r);
	bc_target_close(&t);
}

/* trim punches holes: a written file reads back as zeros after a sequential trim pass */
static void test_trim(void)
{
	const uint64_t size = 2 << 20;
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl = s_null_wl(BC_RW_TRIM, 4);
	struct bc_target t;
	struct jr_run r;
	uint8_t buf[4096];
	char path[64];
	uint64_t at;
	int fd;

	fd = jr_tempfile(path, sizeof(path), size);
	memset(buf, 0xa5, sizeof(buf));
	for (at = 0; at < size; at += sizeof(buf))
		CHECK(pwrite(fd, buf, sizeof(buf), (off_t)at) == sizeof(buf));
	fsync(fd);
	wl.bs = 65536;
	wl.size_based = true;
	wl.runtime_s = 10;
	if (!jr_open(&t, path, &spec, &wl)) {
		if (!jr_run(&t, 1, &wl, NULL, wl.runtime_s, &r, s_err, sizeof(s_err))) {
			const struct bc_opstat *s = &r.total[0].op[BC_OP_TRIM];

			if (s->errors && s->first_errno == -EOPNOTSUPP) {
				printf("skip trim check: the filesystem of /var/tmp cannot punch "
				       "holes\n");
			} else {
				CHECK_MSG(s->ios == size / 65536 && s->bytes == size && !s->errors,
					  "trim: %llu ios, %llu bytes, %llu errors (%d)",
					  (unsigned long long)s->ios, (unsigned long long)s->bytes,
					  (unsigned long long)s->errors, s->first_errno);
				CHECK(s_nonzero(fd, 0, size) == 0);
			}
		}
		jr_free(&r);
		bc_target_close(&t);
	}
	close(fd);
	unlink(path);
}

/* batching, SQPOLL, CPU affinity and the hipri refusal on the null target */
static void test_ring_options(void)
{
	struct bc_workload wl = s_null_wl(BC_RW_RANDREAD, 32);
	struct bc_target t;
	struct jr_run r;

	CHECK(bc_target_open(&t, "null", NULL, &wl, s_err, sizeof(s_err)) == 0);
	wl.batch_submit = 8;
	wl.batch_complete = 8;
	if (!jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err)))
		CHECK(r.sec[0].op[BC_OP_READ].ios > 10000 && !r.total[0].op[BC_OP_READ].errors);
	else
		CHECK_MSG(0, "batched job: %s", s_err);
	jr_free(&r);

	wl = s_null_wl(BC_RW_RANDREAD, 8);
	wl.sqpoll = true;
	wl.sqpoll_cpu = 0;
	if (!jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err)))
		CHECK(r.sec[0].op[BC_OP_READ].ios > 1000);
	else
		printf("note: SQPOLL unavailable here: %s\n", s_err);
	jr_free(&r);

	wl = s_null_wl(BC_RW_RANDREAD, 4);
	snprintf(wl.cpus_allowed, sizeof(wl.cpus_allowed), "0");
	if (!jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err)))
		CHECK_MSG(!strcmp(r.info_cpus, "0"), "cpus \"%s\"", r.info_cpus);
	else
		CHECK_MSG(0, "cpus_allowed 0: %s", s_err);
	jr_free(&r);
	snprintf(wl.cpus_allowed, sizeof(wl.cpus_allowed), "1000");
	CHECK(jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err)) == -1);
	CHECK_MSG(strstr(s_err, "CPU 1000 not available"), "%s", s_err);
	jr_free(&r);

	wl = s_null_wl(BC_RW_RANDREAD, 4);
	wl.hipri = true;
	CHECK(jr_run(&t, 1, &wl, NULL, 1, &r, s_err, sizeof(s_err)) == -1);
	CHECK_MSG(strstr(s_err, "poll queues"), "%s", s_err);
	jr_free(&r);
	bc_target_close(&t);
}

/*
 * "Does this workload write?" - the one rule (bc_rw_ops, bc_workload_writes)
 * that the target's open mode, the PREPARE gate and the pre-flight share.
 */
static void test_writes(void)
{
	static const struct {
		enum bc_rw rw;
		uint32_t mixr, mixt;
		bool verify;
		unsigned ops;
		bool writes;
	} c[] = {
	    {BC_RW_READ, 50, 0, false, BC_RW_OPS_READ, false},
	    {BC_RW_RANDREAD, 50, 0, true, BC_RW_OPS_READ, false}, /* verify only checks */
	    {BC_RW_WRITE, 50, 0, false, BC_RW_OPS_WRITE, true},
	    {BC_RW_RANDWRITE, 50, 0, true, BC_RW_OPS_WRITE, true},
	    {BC_RW_TRIM, 50, 0, false, BC_RW_OPS_TRIM, true},
	    {BC_RW_RANDTRIM, 0, 0, false, BC_RW_OPS_TRIM, true},
	    {BC_RW_RW, 0, 0, false, BC_RW_OPS_WRITE, true},
	    {BC_RW_RANDRW, 0, 0, false, BC_RW_OPS_WRITE, true},
	    {BC_RW_RW, 100, 0, false, BC_RW_OPS_READ, false}, /* a mix of only reads */
	    {BC_RW_RANDRW, 100, 0, true, BC_RW_OPS_READ, false},
	    {BC_RW_RANDRW, 70, 0, false, BC_RW_OPS_READ | BC_RW_OPS_WRITE, true},
	    {BC_RW_RANDRW, 70, 30, false, BC_RW_OPS_READ | BC_RW_OPS_TRIM, true},
	    {BC_RW_RW, 0, 100, false, BC_RW_OPS_TRIM, true},
	    {BC_RW_RANDRW, 50, 20, true, BC_RW_OPS_READ | BC_RW_OPS_WRITE | BC_RW_OPS_TRIM, true},
	};
	struct bc_profile *p = NULL;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct bc_workload wl = {.rw = c[i].rw,
					 .rwmixread_ppm = c[i].mixr * BC_SPLIT_PCT1,
					 .rwmixtrim = c[i].mixt,
					 .verify = c[i].verify};

		CHECK(bc_rw_ops(c[i].rw, c[i].mixr * BC_SPLIT_PCT1, c[i].mixt) == c[i].ops);
		CHECK(bc_workload_writes(&wl) == c[i].writes);
		if (bc_workload_writes(&wl) != c[i].writes)
			printf("case %zu: rw %d rwmixread %u rwmixtrim %u\n", i, (int)c[i].rw,
			       c[i].mixr, c[i].mixt);
	}
	/* from a profile: a read-only mix with verify, and a stream that writes in a read step */
	CHECK(s_parse("'rw':'randrw','rwmixread':100,'verify':true", "", &p) == 0);
	CHECK(p && !bc_workload_writes(&p->steps[0].wl));
	bc_profile_destroy(&p);
	CHECK(s_parse("'rw':'randrw','rwmixread':0,'bs':'4k'", "", &p) == 0);
	CHECK(p && bc_workload_writes(&p->steps[0].wl));
	bc_profile_destroy(&p);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_parse();
	test_wire();
	test_proportions();
	test_split_fraction();
	test_mix_fraction();
	test_window();
	test_one_pass();
	test_trim();
	test_ring_options();
	test_writes();
	TEST_DONE();
}
