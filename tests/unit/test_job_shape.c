/*
 * test_job_shape.c - the engine's arrival and run-shape keys and the content
 * of reducible writes, measured from what the jobs did: per-direction rates
 * and Poisson arrivals (counts per second), latency from the intended time
 * on a saturated file, a start delay, seq_pct (from the stamps written),
 * several workloads on one volume with "jobs", and compression and
 * deduplication of a written file (zlib per 4 KiB, distinct 4 KiB blocks).
 * About 25 s.
 */
#include <math.h>
#include <zlib.h>

#include "bc_jobrun.h"
#include "profile/workload/workload.h"

#define FILE_BYTES (32ull << 20)

static struct bc_workload s_wl(enum bc_rw rw, uint32_t bs, uint32_t qd, uint32_t numjobs)
{
	struct bc_workload wl = bc_workload_builtin;

	wl.rw = rw;
	wl.bs = bs;
	wl.iodepth = qd;
	wl.numjobs = numjobs;
	return wl;
}

static void s_null(struct bc_target *t, struct bc_workload *wl)
{
	char err[256] = "";

	CHECK_MSG(bc_target_open(t, "null", NULL, wl, err, sizeof(err)) == 0, "null: %s", err);
}

/* rate_iops_read / _write cap the ops of a mix separately, shared by the jobs */
static void test_dir_rates(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDRW, 4096, 8, 2);
	struct bc_target t;
	struct jr_run r;
	char err[256];
	double rd, wr;

	wl.rwmixread_ppm = 50 * BC_SPLIT_PCT1;
	wl.rate_iops_dir[0] = 3000;
	wl.rate_iops_dir[1] = 1000;
	s_null(&t, &wl);
	if (!jr_run(&t, 1, &wl, NULL, 4, &r, err, sizeof(err))) {
		/* seconds 1..3: the first holds the start */
		rd = (double)jr_ios(&r, 0, BC_OP_READ, 1, 4) / 3;
		wr = (double)jr_ios(&r, 0, BC_OP_WRITE, 1, 4) / 3;
		printf("per-direction caps 3000/1000: %.0f reads/s, %.0f writes/s\n", rd, wr);
		/*
		 * a job thread descheduled past rate.h's tau (50 ms) loses that
		 * credit, so a loaded host can only lower the counts: above the
		 * cap is a defect, well below it a busy CI machine
		 */
		CHECK(rd < 3300 && wr < 1100 && rd > 2250 && wr > 750);
		CHECK(rd > 1.5 * wr && rd < 4.5 * wr);
	}
	jr_free(&r);
	bc_target_close(&t);
}

/* Poisson arrivals: the same mean, counts per second spread like a Poisson's (var = mean) */
static void test_poisson(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 16, 1);
	double mean = 0, var = 0, c[8];
	struct bc_target t;
	struct jr_run r;
	char err[256];
	uint32_t k;

	wl.rate_iops = 2000;
	wl.rate_poisson = true;
	s_null(&t, &wl);
	if (!jr_run(&t, 1, &wl, NULL, 7, &r, err, sizeof(err))) {
		for (k = 1; k < 7; k++) {
			c[k] = (double)jr_ios(&r, 0, BC_OP_READ, k, k + 1);
			mean += c[k] / 6;
		}
		for (k = 1; k < 7; k++)
			var += (c[k] - mean) * (c[k] - mean) / 5;
		printf("poisson 2000/s: mean %.0f per second, sd %.1f (evenly spaced: ~0)\n", mean,
		       sqrt(var));
		/* as above: a loaded host can only lower the mean */
		CHECK(mean < 2150 && mean > 1500);
		/* a Poisson count of mean 2000 has sd 45; evenly spaced ones differ by a few */
		CHECK(sqrt(var) > 8);
	}
	jr_free(&r);
	bc_target_close(&t);
}

/* one run of a rate far above what a file serves: mean latency of reads in ms */
static double s_saturated_ms(const char *path, bool intended)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 1, 1);
	struct bc_volume_spec spec = {.node = -1};
	struct bc_target t;
	struct jr_run r;
	char err[256];
	double ms = -1;

	wl.rate_iops = 50000000;
	wl.lat_intended = intended;
	wl.direct = false;
	if (jr_open(&t, path, &spec, &wl))
		return -1;
	if (!jr_run(&t, 1, &wl, NULL, 2, &r, err, sizeof(err)) && r.total[0].op[BC_OP_READ].ios)
		ms = (double)r.total[0].op[BC_OP_READ].lat_sum_ns /
		     (double)r.total[0].op[BC_OP_READ].ios / 1e6;
	jr_free(&r);
	bc_target_close(&t);
	return ms;
}

/* latency from the intended time shows the queue of arrivals a saturated target builds */
static void test_intended(void)
{
	char path[64];
	int fd = jr_tempfile(path, sizeof(path), FILE_BYTES);
	double sub = s_saturated_ms(path, false), itd = s_saturated_ms(path, true);

	printf("50M IOPS asked of one slot: mean latency %.4f ms from submission, %.1f ms from "
	       "the intended time\n",
	       sub, itd);
	/* arrivals fall ever further behind over 2 s: hundreds of ms on average */
	CHECK(sub >= 0 && itd > 100 && itd > 100 * sub);
	close(fd);
	unlink(path);
}

/* start_delay: nothing before it, I/O after it */
static void test_start_delay(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 4, 1);
	struct bc_target t;
	struct jr_run r;
	char err[256];

	wl.start_delay_s = 2;
	s_null(&t, &wl);
	if (!jr_run(&t, 1, &wl, NULL, 4, &r, err, sizeof(err))) {
		CHECK(jr_ios(&r, 0, BC_OP_READ, 0, 1) == 0);
		CHECK(jr_ios(&r, 0, BC_OP_READ, 1, 2) < jr_ios(&r, 0, BC_OP_READ, 3, 4) / 10);
		CHECK(jr_ios(&r, 0, BC_OP_READ, 3, 4) > 1000);
	}
	jr_free(&r);
	bc_target_close(&t);
}

/*
 * seq_pct: of the writes whose predecessor (sequence number - 1) still has
 * its stamp in the file, the share that begins where the predecessor ended
 */
static double s_seq_share(uint32_t seq_pct)
{
	struct bc_workload wl = s_wl(BC_RW_RANDWRITE, 4096, 1, 1);
	struct bc_volume_spec spec = {.node = -1};
	uint64_t nblocks = FILE_BYTES / 4096, b, w[2], *off_of, cont = 0, pairs = 0, s;
	struct bc_target t;
	struct jr_run r;
	char path[64], err[256];
	int fd = jr_tempfile(path, sizeof(path), FILE_BYTES);

	wl.seq_pct = seq_pct;
	wl.size_based = true;
	wl.io_size = FILE_BYTES / 4; /* most stamps survive the overwrites */
	wl.runtime_s = 30;
	off_of = calloc(nblocks, sizeof(*off_of));
	if (!off_of || jr_open(&t, path, &spec, &wl))
		return -1;
	if (!jr_run(&t, 1, &wl, NULL, 30, &r, err, sizeof(err))) {
		/* off_of[seq] = offset + 1 of the block that write seq left */
		for (b = 0; b < nblocks; b++)
			if (pread(fd, w, sizeof(w), (off_t)(b * 4096)) == sizeof(w) &&
			    w[0] == b * 4096 && w[1] < nblocks && w[0] | w[1])
				off_of[w[1]] = b * 4096 + 1;
		for (s = 1; s < nblocks; s++) {
			if (!off_of[s] || !off_of[s - 1])
				continue;
			pairs++;
			cont += off_of[s] == off_of[s - 1] + 4096;
		}
	}
	jr_free(&r);
	bc_target_close(&t);
	free(off_of);
	close(fd);
	unlink(path);
	return pairs ? (double)cont / (double)pairs : -1;
}

static void test_seq_pct(void)
{
	double s0 = s_seq_share(0), s50 = s_seq_share(50), s90 = s_seq_share(90);

	printf("seq_pct 0/50/90: %.3f / %.3f / %.3f of writes continue the one before\n", s0, s50,
	       s90);
	CHECK(s0 >= 0 && s0 < 0.02);
	CHECK(fabs(s50 - 0.5) < 0.05);
	CHECK(fabs(s90 - 0.9) < 0.04);
}

/*
 * Two workloads on one volume (seed 001's hot and cold writers): the first
 * on every thread, the second ("jobs": 1) on one; both count for volume 0
 */
static void test_runs(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDWRITE, 4096, 4, 4), vwl[2];
	static const int vol[2] = {0, 0};
	struct bc_target t[2];
	struct jr_run r;
	char err[256];
	uint64_t ios, bytes;

	vwl[0] = wl;
	vwl[1] = s_wl(BC_RW_WRITE, 131072, 4, 4);
	vwl[1].jobs = 1;
	s_null(&t[0], &wl);
	t[1] = t[0];
	jr_run_vol = vol;
	if (!jr_run(t, 2, &wl, vwl, 3, &r, err, sizeof(err))) {
		ios = r.total[0].op[BC_OP_WRITE].ios;
		bytes = r.total[0].op[BC_OP_WRITE].bytes;
		/* both ran: more bytes than 4k writes alone, fewer than 128k writes alone */
		printf("hot 4k x 4 threads + cold 128k x 1 thread: %llu writes, %.1f KiB average\n",
		       (unsigned long long)ios, ios ? (double)bytes / (double)ios / 1024 : 0);
		CHECK(r.total[1].op[BC_OP_WRITE].ios == 0);
		CHECK(ios && bytes > ios * 4096 && bytes < ios * 131072);
	}
	jr_run_vol = NULL;
	jr_free(&r);
	bc_target_close(&t[0]);
}

/* zlib over each 4 KiB block of the file: bytes in / bytes out */
static double s_zratio(int fd, uint64_t bytes)
{
	uint8_t in[4096], out[8192];
	uint64_t b, tin = 0, tout = 0;
	uLongf n;

	for (b = 0; b < bytes; b += 4096) {
		if (pread(fd, in, sizeof(in), (off_t)b) != sizeof(in))
			return -1;
		n = sizeof(out);
		if (compress2(out, &n, in, sizeof(in), 6) != Z_OK)
			return -1;
		tin += sizeof(in);
		tout += n < sizeof(in) ? n : sizeof(in); /* an array stores it raw */
	}
	return (double)tin / (double)tout;
}

static int s_cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 4 KiB blocks / distinct 4 KiB blocks (by a 64-bit hash of each) */
static double s_dratio(int fd, uint64_t bytes)
{
	uint64_t n = bytes / 4096, *h = malloc(n * sizeof(*h)), b, distinct = 0;
	uint8_t in[4096];

	if (!h)
		return -1;
	for (b = 0; b < n; b++) {
		if (pread(fd, in, sizeof(in), (off_t)(b * 4096)) != sizeof(in))
			return -1;
		h[b] =
		    (uint64_t)crc32(0, in, sizeof(in)) << 32 | (uint32_t)adler32(1, in, sizeof(in));
	}
	qsort(h, n, sizeof(*h), s_cmp64);
	for (b = 0; b < n; b++)
		distinct += !b || h[b] != h[b - 1];
	free(h);
	return (double)n / (double)distinct;
}

/* one sequential pass of 64k writes with compress/dedupe: ratios measured on the file */
static void s_reduce(uint32_t comp, uint32_t dedupe, uint32_t sets, double *zr, double *dr)
{
	struct bc_workload wl = s_wl(BC_RW_WRITE, 65536, 4, 1);
	struct bc_volume_spec spec = {.node = -1};
	struct bc_target t;
	struct jr_run r;
	char path[64], err[256];
	int fd = jr_tempfile(path, sizeof(path), FILE_BYTES);

	*zr = *dr = -1;
	wl.size_based = true;
	wl.runtime_s = 30;
	wl.compress_pct = comp;
	wl.dedupe_pct = dedupe;
	wl.dedupe_sets = sets;
	if (jr_open(&t, path, &spec, &wl))
		return;
	if (!jr_run(&t, 1, &wl, NULL, 30, &r, err, sizeof(err))) {
		CHECK(r.total[0].op[BC_OP_WRITE].bytes == FILE_BYTES);
		*zr = s_zratio(fd, FILE_BYTES);
		*dr = s_dratio(fd, FILE_BYTES);
	}
	jr_free(&r);
	bc_target_close(&t);
	close(fd);
	unlink(path);
}

static void test_reduction(void)
{
	double zr, dr;

	s_reduce(0, 0, 0, &zr, &dr);
	printf("default content: compression %.3f, dedupe %.3f\n", zr, dr);
	CHECK(zr > 0 && zr < 1.01 && dr > 0 && dr < 1.001);
	s_reduce(50, 0, 0, &zr, &dr);
	printf("compress_pct 50: compression %.3f (2 asked), dedupe %.3f\n", zr, dr);
	/* zlib spends ~10% over the random bytes' own size on a 4 KiB block */
	CHECK(zr > 1.8 && zr < 2.02 && dr < 1.001);
	s_reduce(75, 50, 0, &zr, &dr);
	printf(
	    "compress_pct 75, dedupe_pct 50: compression %.3f (4 asked), dedupe %.3f (2 asked)\n",
	    zr, dr);
	/* repeats of units written before: no new content, 100 / 50 */
	CHECK(zr > 3.4 && zr < 4.04 && fabs(dr - 2) < 0.08);
	s_reduce(0, 50, 1024, &zr, &dr);
	printf("dedupe_pct 50 over 1024 sets: dedupe %.3f (8192 / (4096 + ~1005) asked)\n", dr);
	/* 8192 blocks, half of them one of 1024 sets (about 1005 of them drawn) */
	CHECK(fabs(dr - 8192.0 / 5101) < 0.08);
}

int main(void)
{
	test_dir_rates();
	test_poisson();
	test_start_delay();
	test_runs();
	test_seq_pct();
	test_intended();
	test_reduction();
	TEST_DONE();
}
