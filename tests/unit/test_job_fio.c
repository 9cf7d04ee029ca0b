/*
 * test_job_fio.c - the job shapes fio's options ask for, measured from what
 * the jobs wrote (the stamps of engine/job.h: each 4 KiB block's offset and
 * its write's sequence number) or counted: block sizes from a range (fio's
 * bsrange draw), holes after sequential writes, sequential runs in random
 * ones, strided zones, flow weights, a low-water mark, an fsync every N
 * writes and at the end, a verify backlog, a pattern (with fio's scramble)
 * as content, and default content that no compressor folds across blocks.
 * Every assertion is on counts or bytes, never on a rate or a time: a loaded
 * host changes how fast, not what. About 15 s.
 */
#include <math.h>
#include <zlib.h>

#include "bc_jobrun.h"
#include "profile/workload/workload.h"

#define FILE_BYTES (8ull << 20)

static struct bc_workload s_wl(enum bc_rw rw, uint32_t bs, uint32_t qd)
{
	struct bc_workload wl = bc_workload_builtin;

	wl.rw = rw;
	wl.bs = bs;
	wl.iodepth = qd;
	wl.numjobs = 1;
	wl.runtime_s = 30;
	return wl;
}

/* one job of wl on a fresh zero file of bytes at path (fd returned); r kept */
static int s_file_run(struct bc_workload *wl, uint64_t bytes, char *path, size_t plen,
		      struct jr_run *r)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_target t;
	char err[256] = "";
	int fd = jr_tempfile(path, plen, bytes), rc;

	memset(r, 0, sizeof(*r));
	if (jr_open(&t, path, &spec, wl)) {
		close(fd);
		return -1;
	}
	rc = jr_run(&t, 1, wl, NULL, wl->runtime_s, r, err, sizeof(err));
	CHECK_MSG(rc == 0, "run: %s", err);
	bc_target_close(&t);
	if (rc) {
		close(fd);
		return -1;
	}
	return fd;
}

/* the stamp of the 4 KiB block at off: its recorded offset and sequence; false if all zeros */
static bool s_stamp(int fd, uint64_t off, uint64_t *soff, uint64_t *seq)
{
	static const uint8_t zero[4096];
	uint8_t b[4096];

	if (pread(fd, b, sizeof(b), (off_t)off) != sizeof(b) || !memcmp(b, zero, sizeof(b)))
		return false;
	memcpy(soff, b, sizeof(*soff));
	memcpy(seq, b + 8, sizeof(*seq));
	return true;
}

/* a sequential pass with bs "4k-64k": each write's size from its run of one sequence number */
static void test_bsrange(void)
{
	struct bc_workload wl = s_wl(BC_RW_WRITE, 65536, 4);
	uint64_t count[17] = {0}, off, so = 0, seq = 0, prev = UINT64_MAX, run = 0, n = 0;
	struct jr_run r;
	char path[64];
	int fd, i;

	wl.bs_min = 4096;
	wl.size_based = true;
	fd = s_file_run(&wl, FILE_BYTES, path, sizeof(path), &r);
	if (fd < 0)
		return;
	CHECK(r.total[0].op[BC_OP_WRITE].bytes == FILE_BYTES);
	for (off = 0; off <= FILE_BYTES; off += 4096) {
		bool ok = off < FILE_BYTES && s_stamp(fd, off, &so, &seq);

		CHECK(off == FILE_BYTES || (ok && so == off));
		if (ok && seq == prev) {
			run++;
			continue;
		}
		if (run) {
			CHECK(run <= 16);
			count[run <= 16 ? run : 0]++;
			n++;
		}
		prev = seq;
		run = 1;
	}
	printf("bs 4k-64k: %llu writes over 16 sizes:", (unsigned long long)n);
	for (i = 1; i <= 16; i++)
		printf(" %llu", (unsigned long long)count[i]);
	printf("\n");
	/* fio's draw is uniform over the 16 sizes (the pass's last write may be cut short) */
	for (i = 1; i <= 16; i++)
		CHECK_MSG(fabs((double)count[i] - (double)n / 16) < 5 * sqrt((double)n / 16) + 2,
			  "size %d x 4k: %llu of %llu", i, (unsigned long long)count[i],
			  (unsigned long long)n);
	CHECK(!count[0]);
	jr_free(&r);
	close(fd);
	unlink(path);
}

/* rw=write:12k: 4k written, 12k skipped, over the whole file once */
static void test_seq_gap(void)
{
	struct bc_workload wl = s_wl(BC_RW_WRITE, 4096, 2);
	uint64_t off, so, seq, bad = 0;
	struct jr_run r;
	char path[64];
	int fd;

	wl.seq_gap = 12288;
	wl.size_based = true;
	fd = s_file_run(&wl, FILE_BYTES, path, sizeof(path), &r);
	if (fd < 0)
		return;
	/* one pass: the window holds FILE_BYTES / 16k writes */
	CHECK(r.total[0].op[BC_OP_WRITE].ios == FILE_BYTES / 16384);
	for (off = 0; off < FILE_BYTES; off += 4096)
		bad += s_stamp(fd, off, &so, &seq) != (off % 16384 == 0);
	printf("seq_gap 12k: %llu writes, %llu blocks out of place\n",
	       (unsigned long long)r.total[0].op[BC_OP_WRITE].ios, (unsigned long long)bad);
	CHECK(!bad);
	jr_free(&r);
	close(fd);
	unlink(path);
}

/* randread:4 as a write: a new random offset every 4 writes, each followed by 3 in a row */
static void test_seq_run(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDWRITE, 4096, 1);
	uint64_t *by = calloc(1 << 20, sizeof(*by)), off, so, seq, cont = 0, n = 0;
	struct jr_run r;
	char path[64];
	int fd;

	wl.seq_run = 4;
	wl.size_based = true;
	wl.io_size = 4096 * 4000;
	/* a sparse 256 MiB file: few writes land on an earlier one */
	fd = s_file_run(&wl, 256ull << 20, path, sizeof(path), &r);
	if (fd < 0 || !by) {
		free(by);
		return;
	}
	/* the offset of each write by its sequence number (qd 1: in issue order) */
	for (off = 0; off < (256ull << 20); off += 4096)
		if (s_stamp(fd, off, &so, &seq) && seq < (1 << 20))
			by[seq] = off + 1;
	for (seq = 1; seq < 4000; seq++) {
		if (!by[seq] || !by[seq - 1])
			continue; /* overwritten later by another write */
		n++;
		cont += by[seq] == by[seq - 1] + 4096;
	}
	printf("seq_run 4: %.3f of writes continue the one before (3/4 asked)\n",
	       n ? (double)cont / (double)n : 0);
	CHECK(n > 2000 && fabs((double)cont / (double)n - 0.75) < 0.03);
	free(by);
	jr_free(&r);
	close(fd);
	unlink(path);
}

/* strided zones: 64k done in each 64k zone, 192k skipped, 1 MiB in all */
static void test_zones(void)
{
	struct bc_workload wl = s_wl(BC_RW_WRITE, 4096, 4);
	uint64_t off, so, seq, in = 0, out = 0;
	struct jr_run r;
	char path[64];
	int fd;

	wl.zone_size = 65536;
	wl.zone_skip = 196608;
	wl.size_based = true;
	wl.io_size = 1 << 20;
	fd = s_file_run(&wl, FILE_BYTES, path, sizeof(path), &r);
	if (fd < 0)
		return;
	CHECK(r.total[0].op[BC_OP_WRITE].bytes == 1 << 20);
	for (off = 0; off < FILE_BYTES; off += 4096) {
		bool w = s_stamp(fd, off, &so, &seq);

		if (off % 262144 < 65536 && off < 4u << 20)
			in += w;
		else
			out += w;
	}
	printf("zones 64k every 256k: %llu blocks in the first 16 zones, %llu outside\n",
	       (unsigned long long)in, (unsigned long long)out);
	CHECK(in == 256 && out == 0);
	jr_free(&r);
	close(fd);
	unlink(path);
}

/* flow 1 : 3 between two volumes of one thread: their I/Os in that proportion */
static void test_flow(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 8), vwl[2];
	struct bc_target t[2];
	struct jr_run r;
	char err[256] = "";
	double a, b;

	vwl[0] = vwl[1] = wl;
	vwl[0].flow = 1;
	vwl[1].flow = 3;
	CHECK(bc_target_open(&t[0], "null", NULL, &wl, err, sizeof(err)) == 0);
	CHECK(bc_target_open(&t[1], "null", NULL, &wl, err, sizeof(err)) == 0);
	if (!jr_run(t, 2, &wl, vwl, 2, &r, err, sizeof(err))) {
		a = (double)r.total[0].op[BC_OP_READ].ios;
		b = (double)r.total[1].op[BC_OP_READ].ios;
		printf("flow 1:3: %.0f and %.0f reads, %.4f (0.25 asked)\n", a, b, a / (a + b));
		/* issues are kept in proportion; at most a queue of each is off it */
		CHECK(a > 0 && fabs(a / (a + b) - 0.25) * (a + b) < 2 * 8 + 1);
	}
	jr_free(&r);
	bc_target_close(&t[0]);
	bc_target_close(&t[1]);
}

/* iodepth_low below the depth: the queue drains to it and refills, and the run completes */
static void test_low(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDREAD, 4096, 16);
	struct bc_target t;
	struct jr_run r;
	char err[256] = "";

	wl.iodepth_low = 2;
	wl.size_based = true;
	wl.io_size = 4096 * 20000;
	CHECK(bc_target_open(&t, "null", NULL, &wl, err, sizeof(err)) == 0);
	if (!jr_run(&t, 1, &wl, NULL, 30, &r, err, sizeof(err)))
		CHECK(r.total[0].op[BC_OP_READ].ios == 20000);
	jr_free(&r);
	bc_target_close(&t);
}

/* fsync every 4 writes, then one at the end: counted apart from the writes */
static void test_fsync(void)
{
	struct bc_workload wl = s_wl(BC_RW_WRITE, 4096, 1);
	struct bc_volume_spec spec = {.node = -1};
	struct bc_job_cfg cfg = {.wl = &wl, .numjobs = 1, .ntargets = 1, .seed = 7};
	struct bc_opcnt sy;
	struct bc_target t;
	struct bc_volstat acc;
	struct bc_job *j;
	char path[64], err[256] = "";
	int fd = jr_tempfile(path, sizeof(path), FILE_BYTES);
	bool merged;
	uint32_t k;

	wl.fsync_every = 4;
	wl.end_fsync = true;
	wl.size_based = true;
	wl.io_size = 4096 * 256;
	wl.runtime_s = 20;
	if (jr_open(&t, path, &spec, &wl))
		return;
	cfg.targets = &t;
	j = bc_job_new(&cfg, err, sizeof(err));
	CHECK_MSG(j != NULL, "job: %s", err);
	if (j) {
		bc_volstat_reset(&acc);
		CHECK(bc_job_start(j, bc_mono_ns(), wl.runtime_s) == 0);
		for (k = 0; k <= wl.runtime_s; k++)
			while (bc_job_collect(j, k < wl.runtime_s ? k : BC_STATS_DRAIN, &acc,
					      &merged) == 0)
				jr_sleep_ms(5);
		bc_opcnt_reset(&sy);
		bc_job_syncs(j, 0, &sy);
		printf("fsync every 4 of %llu writes, and at the end: %llu syncs, %llu errors\n",
		       (unsigned long long)acc.op[BC_OP_WRITE].ios, (unsigned long long)sy.ios,
		       (unsigned long long)sy.errors);
		/* after each 4 writes but the last 4 (the pass ends first), then end_fsync */
		CHECK(acc.op[BC_OP_WRITE].ios == 256 && sy.ios == 63 + 1 && !sy.errors);
		bc_job_destroy(&j);
	}
	bc_target_close(&t);
	close(fd);
	unlink(path);
}

/* verify_backlog 16: every write read back and checked while the pass goes on */
static void test_verify_backlog(void)
{
	struct bc_workload wl = s_wl(BC_RW_RANDWRITE, 4096, 8);
	struct jr_run r;
	char path[64];
	uint64_t w, rd;
	int fd;

	wl.verify = true;
	wl.verify_backlog = 16;
	wl.size_based = true;
	wl.io_size = 4096 * 2048;
	fd = s_file_run(&wl, FILE_BYTES, path, sizeof(path), &r);
	if (fd < 0)
		return;
	w = r.total[0].op[BC_OP_WRITE].ios;
	rd = r.total[0].op[BC_OP_READ].ios;
	printf("verify_backlog 16: %llu writes, %llu read back, %llu verify errors\n",
	       (unsigned long long)w, (unsigned long long)rd,
	       (unsigned long long)r.total[0].verify_errors);
	/* all of them, but the few under a newer write then in flight */
	CHECK(w == 2048 && rd >= w - 8 * 8 && rd <= w && !r.total[0].verify_errors);
	jr_free(&r);
	close(fd);
	unlink(path);
}

/* compress_pct 100 with a pattern: every block is the pattern; with scramble, fio's headers */
static void test_pattern(void)
{
	static const uint8_t pat[4] = {0xde, 0xad, 0xbe, 0xef};
	uint8_t blk[4096];
	uint64_t off, bad = 0, v;
	struct jr_run r;
	char path[64];
	int fd, pass, i, line, k;

	for (pass = 0; pass < 2; pass++) {
		struct bc_workload wl = s_wl(BC_RW_WRITE, 16384, 2);

		wl.compress_pct = 100;
		wl.pattern_len = 4;
		memcpy(wl.pattern, pat, 4);
		wl.scramble = pass == 1;
		wl.size_based = true;
		wl.io_size = 1 << 20;
		fd = s_file_run(&wl, FILE_BYTES, path, sizeof(path), &r);
		if (fd < 0)
			return;
		for (off = 0; off < (1 << 20); off += 4096) {
			if (pread(fd, blk, sizeof(blk), (off_t)off) != sizeof(blk)) {
				bad++;
				continue;
			}
			/*
			 * scrambled: a 64-byte line of each 512 starts with its offset and
			 * ends with a time; other lines may keep an earlier write's marks,
			 * as fio's reused buffers do; the rest of every line is the pattern
			 */
			for (i = 0; pass && i < 4096; i += 512) {
				for (line = 0; line < 8; line++) {
					memcpy(&v, blk + i + line * 64, sizeof(v));
					if (v == off + (uint64_t)i)
						break;
				}
				bad += line == 8;
				for (line = 0; line < 8; line++) {
					memcpy(blk + i + line * 64, pat, 4);
					memcpy(blk + i + line * 64 + 4, pat, 4);
					for (k = 48; k < 64; k += 4)
						memcpy(blk + i + line * 64 + k, pat, 4);
				}
			}
			for (i = 0; i < 4096; i++)
				bad += blk[i] != pat[i % 4];
		}
		printf("pattern 0xdeadbeef%s: %llu bytes out of place in 1 MiB\n",
		       pass ? " with fio's scramble" : "", (unsigned long long)bad);
		CHECK(!bad);
		jr_free(&r);
		close(fd);
		unlink(path);
	}
}

/* default content, one slot of 4k writes: incompressible in 32 KiB units as in 4 KiB ones */
static void test_rotation(void)
{
	struct bc_workload wl = s_wl(BC_RW_WRITE, 4096, 1);
	static uint8_t in[32768], out[40000];
	uint64_t b, tin = 0, tout = 0;
	struct jr_run r;
	char path[64];
	uLongf n;
	int fd;

	wl.size_based = true;
	fd = s_file_run(&wl, FILE_BYTES, path, sizeof(path), &r);
	if (fd < 0)
		return;
	for (b = 0; b < FILE_BYTES; b += sizeof(in)) {
		if (pread(fd, in, sizeof(in), (off_t)b) != sizeof(in))
			break;
		n = sizeof(out);
		if (compress2(out, &n, in, sizeof(in), 6) != Z_OK)
			break;
		tin += sizeof(in);
		tout += n < sizeof(in) ? n : sizeof(in);
	}
	printf("default content, 4k writes from one slot: zlib over 32 KiB units %.3f\n",
	       tout ? (double)tin / (double)tout : 0);
	CHECK(tout && (double)tin / (double)tout < 1.01);
	jr_free(&r);
	close(fd);
	unlink(path);
}

int main(void)
{
	test_bsrange();
	test_seq_gap();
	test_seq_run();
	test_zones();
	test_flow();
	test_low();
	test_fsync();
	test_verify_backlog();
	test_pattern();
	test_rotation();
	TEST_DONE();
}
