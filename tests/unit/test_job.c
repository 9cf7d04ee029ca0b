/*
 * test_job.c - job threads on a file and the null target: stats, placement, folding, cancel,
 * the submission policy (forced, probed, and where no probe applies)
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/job.h"
#include "target/target.h"
#include "util/clock.h"
#include "bc_jobrun.h"
#include "bc_test.h"

#define FILE_BYTES (16ull << 20)
#define MAX_JOBS   4

/* what a control thread would have gathered from one run */
struct run {
	int nt; /* targets */
	uint32_t seconds;
	struct bc_volstat *sec;		   /* [seconds * nt], merged over jobs */
	struct bc_volstat *drain;	   /* [nt] */
	struct bc_volstat *job;		   /* [njobs * nt]: totals per job, drain included */
	bool merged[16];		   /* per second: some job folded */
	struct bc_job_info info[MAX_JOBS]; /* each job's, once finished */
};

static void s_run_free(struct run *r)
{
	free(r->sec);
	free(r->drain);
	free(r->job);
}

static uint64_t s_sum(const struct bc_volstat *v, int n, enum bc_op op)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i].op[op].ios;
	return s;
}

/*
 * Run numjobs jobs for `seconds` and collect like a control thread: second
 * by second, every job, then the drain. collect_after_ms > 0 first sleeps
 * that long (a control thread that fell behind); cancel_after_ms > 0
 * cancels every job at that point.
 */
static int s_run(struct bc_target *targets, int nt, const struct bc_workload *wl, uint32_t seconds,
		 unsigned collect_after_ms, unsigned cancel_after_ms, struct run *r)
{
	struct bc_job *jobs[MAX_JOBS] = {NULL};
	struct bc_volstat *tmp = jr_vs_new((size_t)nt);
	unsigned n = wl->numjobs, i;
	uint64_t start, deadline;
	char err[512] = "";
	uint32_t k, idx;
	int ret = 0, t, c;
	bool merged;

	memset(r, 0, sizeof(*r));
	r->nt = nt;
	r->seconds = seconds;
	r->sec = jr_vs_new((size_t)seconds * (size_t)nt);
	r->drain = jr_vs_new((size_t)nt);
	r->job = jr_vs_new((size_t)n * (size_t)nt);
	for (i = 0; i < n; i++) {
		struct bc_job_cfg cfg = {.wl = wl,
					 .targets = targets,
					 .ntargets = nt,
					 .job_index = i,
					 .numjobs = n,
					 .seed = 42};

		jobs[i] = bc_job_new(&cfg, err, sizeof(err));
		CHECK_MSG(jobs[i], "bc_job_new: %s", err);
		if (!jobs[i]) {
			ret = -1;
			goto out;
		}
	}
	start = bc_mono_ns() + 50 * BC_NS_PER_MS;
	deadline = start + (seconds + 20ull) * BC_NS_PER_S;
	for (i = 0; i < n; i++)
		CHECK(bc_job_start(jobs[i], start, seconds) == 0);
	if (collect_after_ms)
		jr_sleep_ms(collect_after_ms);
	if (cancel_after_ms) {
		jr_sleep_ms(cancel_after_ms);
		for (i = 0; i < n; i++)
			bc_job_cancel(jobs[i]);
	}
	for (k = 0; k <= seconds; k++) {
		idx = k < seconds ? k : BC_STATS_DRAIN;
		for (i = 0; i < n; i++) {
			while ((c = bc_job_collect(jobs[i], idx, tmp, &merged)) == 0) {
				if (bc_mono_ns() > deadline) {
					CHECK_MSG(0, "job %u never sealed interval %u", i, idx);
					ret = -1;
					goto out;
				}
				jr_sleep_ms(5);
			}
			CHECK_MSG(c == 1, "collect(%u) returned %d", idx, c);
			for (t = 0; t < nt; t++) {
				bc_volstat_merge(k < seconds
						     ? &r->sec[k * (uint32_t)nt + (uint32_t)t]
						     : &r->drain[t],
						 &tmp[t]);
				bc_volstat_merge(&r->job[i * (unsigned)nt + (unsigned)t], &tmp[t]);
				bc_volstat_reset(&tmp[t]);
			}
			if (k < seconds && k < 16 && merged)
				r->merged[k] = true;
		}
	}
	for (i = 0; i < n; i++) {
		CHECK(bc_job_finished(jobs[i]));
		CHECK(bc_job_error(jobs[i]) == 0);
		bc_job_get_info(jobs[i], &r->info[i]);
	}
out:
	for (i = 0; i < n; i++)
		bc_job_destroy(&jobs[i]);
	free(tmp);
	return ret;
}

/* the invariants of every measured second of a run that had no failures */
static void s_check_seconds(const struct run *r, enum bc_op op, uint32_t bs, uint32_t from,
			    uint32_t to)
{
	uint32_t k;
	int t;

	for (k = from; k < to; k++) {
		for (t = 0; t < r->nt; t++) {
			const struct bc_opstat *s =
			    &r->sec[k * (uint32_t)r->nt + (uint32_t)t].op[op];

			CHECK_MSG(s->ios > 0, "second %u target %d: no %s ios", k, t,
				  bc_op_names[op]);
			CHECK_MSG(s->bytes == s->ios * bs, "second %u: bytes %llu != ios %llu x %u",
				  k, (unsigned long long)s->bytes, (unsigned long long)s->ios, bs);
			CHECK_MSG(!s->errors && !s->short_ios,
				  "second %u: %llu errors (first %d), %llu short", k,
				  (unsigned long long)s->errors, s->first_errno,
				  (unsigned long long)s->short_ios);
			CHECK(s->hist.count == s->ios);
			CHECK(bc_hist_percentile(&s->hist, 50) > 0);
			CHECK(bc_hist_percentile(&s->hist, 99) >= bc_hist_percentile(&s->hist, 50));
			CHECK(s->lat_min_ns > 0 && s->lat_min_ns <= s->lat_max_ns);
		}
	}
}

static void s_report(const char *what, const struct run *r, enum bc_op op)
{
	struct bc_opstat all;
	uint32_t k;
	int t;

	memset(&all, 0, sizeof(all));
	bc_opstat_reset(&all);
	for (k = 0; k < r->seconds; k++)
		for (t = 0; t < r->nt; t++)
			bc_opstat_merge(&all, &r->sec[k * (uint32_t)r->nt + (uint32_t)t].op[op]);
	printf("%-34s %10.0f IOPS  p50 %7.1f us  p99 %7.1f us  max %8.1f us\n", what,
	       (double)all.ios / r->seconds, bc_hist_percentile(&all.hist, 50) / 1e3,
	       bc_hist_percentile(&all.hist, 99) / 1e3, (double)all.lat_max_ns / 1e3);
}

static struct bc_workload s_wl(enum bc_rw rw, uint32_t bs, uint32_t qd, uint32_t numjobs,
			       bool direct)
{
	return (struct bc_workload){.rw = rw,
				    .rwmixread_ppm = 50 * BC_SPLIT_PCT1,
				    .bs = bs,
				    .iodepth = qd,
				    .numjobs = numjobs,
				    .direct = direct,
				    .runtime_s = 2};
}

/*
 * Every block of each job's region carries the stamp of the write that
 * landed there: offset words must match, and the highest sequence number
 * seen must be the job's write count - 1, so the file itself confirms how
 * many writes the stats counted.
 */
static void s_check_written(int fd, const struct bc_target *t, const struct run *r,
			    unsigned numjobs, uint32_t bs)
{
	uint64_t nblocks = (t->win_end - t->win_start) / bs, b, lo, hi, writes, maxseq;
	uint64_t w[2], at;
	uint8_t *buf = malloc(bs);
	unsigned jix;
	bool any;

	if (!buf)
		exit(1);
	for (jix = 0; jix < numjobs; jix++) {
		lo = nblocks * jix / numjobs;
		hi = nblocks * (jix + 1) / numjobs;
		writes = r->job[jix].op[BC_OP_WRITE].ios;
		maxseq = 0;
		any = false;
		CHECK_MSG(writes > 0, "job %u wrote nothing", jix);
		for (b = lo; b < hi; b++) {
			uint64_t off = t->win_start + b * bs;
			bool expect = b - lo < writes;

			CHECK(pread(fd, buf, bs, (off_t)off) == (ssize_t)bs);
			for (at = 0; at + sizeof(w) <= bs; at += BC_JOB_STAMP_BYTES) {
				memcpy(w, buf + at, sizeof(w));
				if (!expect) {
					CHECK_MSG(!w[0] && !w[1],
						  "block %llu written beyond job %u's %llu writes",
						  (unsigned long long)b, jix,
						  (unsigned long long)writes);
					continue;
				}
				CHECK_MSG(w[0] == off + at,
					  "block %llu: stamp offset %llu, expected %llu",
					  (unsigned long long)b, (unsigned long long)w[0],
					  (unsigned long long)(off + at));
				CHECK_MSG(w[1] % (hi - lo) == b - lo,
					  "block %llu: write #%llu does not belong here",
					  (unsigned long long)b, (unsigned long long)w[1]);
			}
			if (!expect)
				continue;
			memcpy(w, buf, sizeof(w));
			if (w[1] > maxseq)
				maxseq = w[1];
			any = true;
		}
		CHECK_MSG(any && maxseq + 1 == writes,
			  "job %u: file shows %llu writes, stats counted %llu", jix,
			  (unsigned long long)(maxseq + 1), (unsigned long long)writes);
	}
	free(buf);
}

static int s_tempfile(char *path, size_t len, uint64_t bytes)
{
	int fd;

	snprintf(path, len, "/var/tmp/bc-test-job-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		SKIP("cannot create a temp file in /var/tmp: %s", strerror(errno));
	if (bytes && ftruncate(fd, (off_t)bytes)) {
		fprintf(stderr, "ftruncate %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

/* (a) randread QD8 and (b) 2-job sequential write on a 16 MiB file */
static void test_file(void)
{
	struct bc_volume_spec spec = {.node = -1, .size_bytes = FILE_BYTES};
	struct bc_workload wl;
	struct bc_target t;
	struct run r;
	char path[64], err[512] = "";
	bool direct = true;
	uint64_t bytes;
	int fd, ret;
	uint32_t k;

	/* mkstemp leaves 0 bytes: bc_target_open extends it to "size" */
	fd = s_tempfile(path, sizeof(path), 0);

	wl = s_wl(BC_RW_WRITE, 64 << 10, 4, 2, direct);
	ret = bc_target_open(&t, path, &spec, &wl, err, sizeof(err));
	if (ret == -EINVAL && strstr(err, "O_DIRECT")) {
		printf("note: %s; running buffered\n", err);
		direct = false;
		wl.direct = false;
		ret = bc_target_open(&t, path, &spec, &wl, err, sizeof(err));
	}
	CHECK_MSG(ret == 0, "open %s: %s", path, err);
	if (ret)
		goto out;
	CHECK(t.info.kind == BC_KIND_FILE && t.info.size_bytes == FILE_BYTES);
	CHECK(t.win_start == 0 && t.win_end == FILE_BYTES);
	if (!s_run(&t, 1, &wl, 2, 0, 0, &r)) {
		s_check_seconds(&r, BC_OP_WRITE, wl.bs, 0, 2);
		CHECK(s_sum(r.sec, 2, BC_OP_READ) == 0);
		bytes = r.drain[0].op[BC_OP_WRITE].bytes;
		for (k = 0; k < 2; k++)
			bytes += r.sec[k].op[BC_OP_WRITE].bytes;
		CHECK(bytes ==
		      (r.job[0].op[BC_OP_WRITE].ios + r.job[1].op[BC_OP_WRITE].ios) * wl.bs);
		CHECK(!r.drain[0].op[BC_OP_WRITE].errors);
		s_check_written(fd, &t, &r, 2, wl.bs);
		s_report(direct ? "seq write 64k qd4 x2 jobs, direct" : "seq write 64k qd4 x2 jobs",
			 &r, BC_OP_WRITE);
		printf("  written %llu bytes (%llu in the drain)\n", (unsigned long long)bytes,
		       (unsigned long long)r.drain[0].op[BC_OP_WRITE].bytes);
	}
	s_run_free(&r);
	bc_target_close(&t);

	wl = s_wl(BC_RW_RANDREAD, 4096, 8, 1, direct);
	ret = bc_target_open(&t, path, &spec, &wl, err, sizeof(err));
	CHECK_MSG(ret == 0, "open %s: %s", path, err);
	if (ret)
		goto out;
	if (!s_run(&t, 1, &wl, 2, 0, 0, &r)) {
		s_check_seconds(&r, BC_OP_READ, wl.bs, 0, 2);
		CHECK(s_sum(r.sec, 2, BC_OP_WRITE) == 0);
		s_report(direct ? "randread 4k qd8 file, direct" : "randread 4k qd8 file", &r,
			 BC_OP_READ);
	}
	s_run_free(&r);
	bc_target_close(&t);
out:
	close(fd);
	unlink(path);
}

/*
 * "seq_regions": "shared": each of two sequential jobs walks the whole window
 * from its start, as fio's clones do, so one size-based pass writes every
 * block twice (once per job) and each job's count is the window's blocks.
 */
static void test_shared_regions(void)
{
	struct bc_volume_spec spec = {.node = -1, .size_bytes = 1 << 20};
	struct bc_workload wl = s_wl(BC_RW_WRITE, 64 << 10, 2, 2, false);
	uint64_t nblocks = (1 << 20) / (64 << 10), b, w[2];
	uint8_t buf[64];
	struct bc_target t;
	struct run r;
	char path[64], err[512] = "";
	int fd, ret;

	fd = s_tempfile(path, sizeof(path), 0);
	wl.seq_shared = true;
	wl.size_based = true;
	wl.runtime_s = 30; /* the cap; the pass ends the step */
	ret = bc_target_open(&t, path, &spec, &wl, err, sizeof(err));
	CHECK_MSG(ret == 0, "open %s: %s", path, err);
	if (ret)
		goto out;
	if (!s_run(&t, 1, &wl, wl.runtime_s, 0, 0, &r)) {
		CHECK_MSG(r.job[0].op[BC_OP_WRITE].ios == nblocks &&
			      r.job[1].op[BC_OP_WRITE].ios == nblocks,
			  "jobs wrote %llu and %llu blocks, expected %llu each",
			  (unsigned long long)r.job[0].op[BC_OP_WRITE].ios,
			  (unsigned long long)r.job[1].op[BC_OP_WRITE].ios,
			  (unsigned long long)nblocks);
		/* the last block too: a split would have left each job half the window */
		for (b = 0; b < nblocks; b++) {
			CHECK(pread(fd, buf, sizeof(buf), (off_t)(b * wl.bs)) == sizeof(buf));
			memcpy(w, buf, sizeof(w));
			CHECK_MSG(w[0] == b * wl.bs, "block %llu: stamp offset %llu",
				  (unsigned long long)b, (unsigned long long)w[0]);
		}
	}
	s_run_free(&r);
	bc_target_close(&t);
out:
	close(fd);
	unlink(path);
}

/* (c) the null target: two volumes, one job; then a mixed workload's split */
static void test_null(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 32, 1, true);
	struct bc_target t[2];
	char err[512] = "";
	uint64_t rd, wr;
	struct run r;
	int i;

	for (i = 0; i < 2; i++) {
		CHECK_MSG(bc_target_open(&t[i], "null", NULL, &wl, err, sizeof(err)) == 0,
			  "null: %s", err);
		CHECK(t[i].info.kind == BC_KIND_PSEUDO && !strcmp(bc_target_kind(&t[i]), "null") &&
		      t[i].fd == -1);
	}
	if (!s_run(t, 2, &wl, 2, 0, 0, &r)) {
		s_check_seconds(&r, BC_OP_READ, wl.bs, 0, 2);
		s_report("null 4k qd32 x2 volumes", &r, BC_OP_READ);
	}
	s_run_free(&r);

	wl = s_wl(BC_RW_RANDRW, 4096, 16, 1, true);
	wl.rwmixread_ppm = 70 * BC_SPLIT_PCT1;
	if (!s_run(t, 1, &wl, 1, 0, 0, &r)) {
		s_check_seconds(&r, BC_OP_READ, wl.bs, 0, 1);
		s_check_seconds(&r, BC_OP_WRITE, wl.bs, 0, 1);
		rd = r.sec[0].op[BC_OP_READ].ios;
		wr = r.sec[0].op[BC_OP_WRITE].ios;
		CHECK_MSG(rd * 100 > (rd + wr) * 68 && rd * 100 < (rd + wr) * 72,
			  "rwmixread 70: %llu reads, %llu writes", (unsigned long long)rd,
			  (unsigned long long)wr);
	}
	s_run_free(&r);
	for (i = 0; i < 2; i++)
		bc_target_close(&t[i]);
}

/*
 * A control thread that sleeps through the whole run: three seconds fit in
 * the free slots, the fourth slot folds seconds 3 and 4 together.
 */
static void test_slot_folding(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 4, 1, true);
	struct bc_target t;
	char err[512] = "";
	uint64_t total, hist;
	struct run r;
	uint32_t k;

	CHECK(bc_target_open(&t, "null", NULL, &wl, err, sizeof(err)) == 0);
	if (!s_run(&t, 1, &wl, BC_JOB_SLOTS + 1, (BC_JOB_SLOTS + 1) * 1000 + 300, 0, &r)) {
		s_check_seconds(&r, BC_OP_READ, wl.bs, 0, BC_JOB_SLOTS);
		for (k = 0; k < BC_JOB_SLOTS - 1; k++)
			CHECK_MSG(!r.merged[k], "second %u flagged merged", k);
		CHECK(r.merged[BC_JOB_SLOTS - 1] && r.merged[BC_JOB_SLOTS]);
		/* the folded second's data came back with the first one of the slot */
		CHECK(r.sec[BC_JOB_SLOTS].op[BC_OP_READ].ios == 0);
		total = hist = 0;
		for (k = 0; k <= BC_JOB_SLOTS; k++) {
			total += r.sec[k].op[BC_OP_READ].ios;
			hist += r.sec[k].op[BC_OP_READ].hist.count;
		}
		CHECK(total == hist &&
		      total == r.job[0].op[BC_OP_READ].ios - r.drain[0].op[BC_OP_READ].ios);
	}
	s_run_free(&r);
	bc_target_close(&t);
}

/* cancel in second 1 of 3: that second is sealed short, second 2 comes back empty */
static void test_cancel(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 4, 1, true);
	struct bc_target t;
	char err[512] = "";
	uint64_t t0;
	struct run r;

	CHECK(bc_target_open(&t, "null", NULL, &wl, err, sizeof(err)) == 0);
	t0 = bc_mono_ns();
	if (!s_run(&t, 1, &wl, 3, 0, 1300, &r)) {
		CHECK(r.sec[0].op[BC_OP_READ].ios > 0);
		CHECK(r.sec[1].op[BC_OP_READ].ios > 0);
		CHECK(r.sec[2].op[BC_OP_READ].ios == 0);
		CHECK(bc_mono_ns() - t0 < 2500 * BC_NS_PER_MS);
	}
	s_run_free(&r);
	bc_target_close(&t);
}

/* a job cancelled before START (a step stopped after READY) finishes without running */
static void test_cancel_unstarted(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 4, 1, true);
	struct bc_job_cfg cfg = {.wl = &wl, .ntargets = 1, .numjobs = 1};
	struct bc_job *j;
	struct bc_target t;
	char err[512] = "";
	int ms;

	CHECK(bc_target_open(&t, "null", NULL, &wl, err, sizeof(err)) == 0);
	cfg.targets = &t;
	j = bc_job_new(&cfg, err, sizeof(err));
	CHECK_MSG(j, "bc_job_new: %s", err);
	if (j) {
		bc_job_cancel(j);
		for (ms = 0; ms < 2000 && !bc_job_finished(j); ms++)
			jr_sleep_ms(1);
		CHECK_MSG(bc_job_finished(j), "a cancelled, never started job still runs");
		CHECK(bc_job_start(j, bc_mono_ns(), 1) == -EBUSY);
		bc_job_destroy(&j);
	}
	bc_target_close(&t);
}

/*
 * The submission policy (docs/engine.md, "Submission policy"): a forced one
 * is the one used, and each or pairs send every I/O (pair) in an enter of
 * its own; auto probes a random workload on a file and says what it found;
 * where a probe means nothing (null, sequential, QD 1) it says why not. Which
 * policy a probe picks depends on timing: not asserted.
 */
static void test_submit_policy(void)
{
	static const struct {
		enum bc_submit_mode mode;
		const char *name;
	} forced[] = {
	    {BC_SUBMIT_BATCH, "batch"}, {BC_SUBMIT_PAIRS, "pairs"}, {BC_SUBMIT_EACH, "each"}};
	struct bc_volume_spec spec = {.node = -1, .size_bytes = FILE_BYTES};
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 8, 1, true);
	struct bc_target t, tn;
	char path[64], err[512] = "";
	struct run r;
	uint64_t ios;
	unsigned i;
	int fd, ret;

	fd = s_tempfile(path, sizeof(path), 0);
	wl.runtime_s = 1;
	ret = bc_target_open(&t, path, &spec, &wl, err, sizeof(err));
	if (ret == -EINVAL && strstr(err, "O_DIRECT")) {
		wl.direct = false;
		ret = bc_target_open(&t, path, &spec, &wl, err, sizeof(err));
	}
	CHECK_MSG(ret == 0, "open %s: %s", path, err);
	if (ret)
		goto out;
	for (i = 0; i < sizeof(forced) / sizeof(forced[0]); i++) {
		wl.submit_mode = forced[i].mode;
		if (s_run(&t, 1, &wl, 1, 0, 0, &r))
			continue;
		ios = r.job[0].op[BC_OP_READ].ios;
		CHECK_MSG(!strcmp(r.info[0].submit, forced[i].name) &&
			      !strcmp(r.info[0].submit_why, "profile") && !r.info[0].probe_ns,
			  "forced %s: job says %s (%s)", forced[i].name, r.info[0].submit,
			  r.info[0].submit_why);
		/* each: an enter per I/O; pairs: one per two, and one for a last odd one */
		if (forced[i].mode != BC_SUBMIT_BATCH)
			CHECK_MSG(ios && r.info[0].submit_calls *
						 (forced[i].mode == BC_SUBMIT_EACH ? 1 : 2) >=
					     ios,
				  "%s: %llu submitting enters for %llu I/Os", forced[i].name,
				  (unsigned long long)r.info[0].submit_calls,
				  (unsigned long long)ios);
		s_run_free(&r);
	}
	wl.submit_mode = BC_SUBMIT_AUTO;
	/* buffered: no probe (its reads would fill the page cache the step reads from) */
	if (!wl.direct && !s_run(&t, 1, &wl, 1, 0, 0, &r)) {
		CHECK(!strcmp(r.info[0].submit, "batch") &&
		      !strcmp(r.info[0].submit_why, "nothing to probe"));
		s_run_free(&r);
	}
	if (wl.direct && !s_run(&t, 1, &wl, 1, 0, 0, &r)) {
		CHECK_MSG(
		    !strcmp(r.info[0].submit_why, "probe") && r.info[0].probe_ns &&
			r.info[0].probe_ios[0] && r.info[0].probe_ios[1] &&
			(!strcmp(r.info[0].submit, "batch") || !strcmp(r.info[0].submit, "pairs")),
		    "auto on a file: %s (%s), probe %llu / %llu I/Os", r.info[0].submit,
		    r.info[0].submit_why, (unsigned long long)r.info[0].probe_ios[0],
		    (unsigned long long)r.info[0].probe_ios[1]);
		printf("  randread 4k qd8 file: probe %llu I/Os batch, %llu pairs in %llu ms each: "
		       "%s\n",
		       (unsigned long long)r.info[0].probe_ios[0],
		       (unsigned long long)r.info[0].probe_ios[1],
		       (unsigned long long)(r.info[0].probe_ns / BC_NS_PER_MS), r.info[0].submit);
		s_run_free(&r);
	}
	wl.iodepth = 1;
	if (!s_run(&t, 1, &wl, 1, 0, 0, &r)) {
		CHECK(!strcmp(r.info[0].submit, "batch") &&
		      !strcmp(r.info[0].submit_why, "depth <= 2") && !r.info[0].probe_ns);
		s_run_free(&r);
	}
	wl.iodepth = 4;
	wl.rw = BC_RW_READ;
	if (!s_run(&t, 1, &wl, 1, 0, 0, &r)) {
		CHECK(!strcmp(r.info[0].submit, "pairs") &&
		      !strcmp(r.info[0].submit_why, "sequential"));
		s_run_free(&r);
	}
	bc_target_close(&t);
	wl.rw = BC_RW_RANDREAD;
	wl.iodepth = 8;
	CHECK_MSG(bc_target_open(&tn, "null", NULL, &wl, err, sizeof(err)) == 0, "null: %s", err);
	if (!s_run(&tn, 1, &wl, 1, 0, 0, &r)) {
		CHECK(!strcmp(r.info[0].submit, "batch") &&
		      !strcmp(r.info[0].submit_why, "nothing to probe"));
		s_run_free(&r);
	}
	bc_target_close(&tn);
out:
	close(fd);
	unlink(path);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_file();
	test_shared_regions();
	test_null();
	test_cancel();
	test_cancel_unstarted();
	test_slot_folding();
	test_submit_policy();
	TEST_DONE();
}
