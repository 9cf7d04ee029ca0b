/*
 * test_secfile - seconds.bin (secfile.c): what is written reads back
 * exactly (every field of every entity's row, the histograms), a second
 * written again supersedes the first, the index finds steps, seconds and
 * entities by name, and a file cut short or with a damaged frame is read
 * as truncated up to its last whole frame: with the index, without it, and
 * with every frame's CRC checked. records.bin (reclog.c), the raw record
 * log, likewise: every STATS body reads back byte for byte by its offset,
 * stored or compressed, a file cut anywhere reads every record before the
 * cut and says "not there" (-ENOENT) for the one it ends in, and a
 * damaged byte fails that record's CRC only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/secfile.h"
#include "results/files/reclog.h"
#include "wire/stats.h"
#include "bc_test.h"

static const char *s_profile =
    "{\"name\": \"secf\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"},"
    " {\"name\": \"b\", \"endpoint\": \"local\"}],"
    " \"nodes\": [{\"name\": \"n0\"}],"
    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\", \"node\": \"n0\"},"
    "  {\"agent\": \"a\", \"path\": \"/dev/x\"}, {\"agent\": \"b\", \"path\": \"null\"}],"
    " \"defaults\": {\"ramp\": \"1s\", \"runtime\": \"5s\"},"
    " \"steps\": [{\"name\": \"one\"}, {\"name\": \"two\", \"runtime\": \"3s\"}]}";

/* a row with fields of every size: zero, one byte, full 64-bit */
static void s_fill(struct bc_secrow *r)
{
	uint64_t *f[] = {&r->ios[0],   &r->ios[1], &r->ios[2],	  &r->bytes[0],	  &r->bytes[1],
			 &r->bytes[2], &r->errors, &r->short_ios, &r->lat_sum_ns, &r->p50_ns,
			 &r->p90_ns,   &r->p99_ns, &r->p999_ns,	  &r->p9999_ns,	  &r->max_ns};
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t v = bc_test_rand();

		*f[i] = v % 3 == 0 ? 0 : v % 3 == 1 ? v % 200 : v;
	}
	r->reports = (uint32_t)(bc_test_rand() % 3);
	r->late = (uint32_t)(bc_test_rand() % 2);
}

static bool s_row_eq(const struct bc_secrow *a, const struct bc_secrow *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* an op's histogram as written: buckets [lo, lo + n) */
#define S_LO 300
#define S_N  90

static void s_hist_vals(uint64_t v[BC_OP_NR][S_N], int salt)
{
	int o, j;

	for (o = 0; o < BC_OP_NR; o++)
		for (j = 0; j < S_N; j++)
			v[o][j] =
			    o == BC_OP_TRIM ? 0 : (uint64_t)((j * 7 + salt + o) % 5 ? 0 : j + salt);
}

/* a whole run: two steps, rows of every entity, histograms of the node and the total */
static void s_write(const char *path, struct bc_agg g[2], const struct bc_profile *p)
{
	char err[256];
	struct bc_secw *w;
	uint32_t k;
	int st, lvl, i;

	CHECK(bc_secw_open(&w, path, err, sizeof(err)) == 0);
	if (!w)
		return;
	for (st = 0; st < 2; st++) {
		CHECK(bc_secw_step(w, (uint32_t)st, st, p->steps[st].name, &g[st]) == 0);
		for (k = 0; k < g[st].seconds; k++) {
			uint64_t v[BC_OP_NR][S_N];
			const uint64_t *ops[BC_OP_NR];
			int o;

			for (lvl = 0; lvl < BC_LVL_NR; lvl++)
				for (i = 0; i < g[st].nent[lvl]; i++)
					s_fill(bc_entity_row(&g[st].ent[lvl][i], k));
			CHECK(bc_secw_hist_begin(w, (uint32_t)st, k) == 0);
			for (lvl = BC_LVL_NODE; lvl < BC_LVL_NR; lvl++) {
				s_hist_vals(v, (int)k * 3 + lvl);
				for (o = 0; o < BC_OP_NR; o++)
					ops[o] =
					    o == BC_OP_WRITE && lvl == BC_LVL_NODE ? NULL : v[o];
				CHECK(bc_secw_hist_add(w, lvl, 0, S_LO, S_N, ops) == 0);
			}
			CHECK(bc_secw_hist_end(w) == 0);
			CHECK(bc_secw_rows(w, (uint32_t)st, &g[st], k) == 0);
		}
		/* second 2 of step 0 again, changed (a late record) */
		if (st == 0) {
			bc_entity_row(&g[0].ent[BC_LVL_VOLUME][1], 2)->ios[0] += 5;
			bc_entity_row(&g[0].ent[BC_LVL_VOLUME][1], 2)->late++;
			CHECK(bc_secw_rows(w, 0, &g[0], 2) == 0);
		}
		/* the second step ends early (a size-based trim) */
		CHECK(bc_secw_end(w, (uint32_t)st, st ? g[st].seconds - 1 : g[st].seconds) == 0);
	}
	CHECK(bc_secw_close(w) == 0);
}

/* every row and histogram of steps [0, nst) as written, the last one's up to second upto */
static void s_verify(const struct bc_secr *r, struct bc_agg g[2], int nst, uint32_t upto_last)
{
	uint32_t k;
	int st, lvl, i;

	for (st = 0; st < nst; st++) {
		const struct bc_secr_step *s = bc_secr_step(r, (uint32_t)st);
		uint32_t upto = st == nst - 1 ? upto_last : g[st].seconds;

		CHECK(s != NULL);
		if (!s)
			return;
		for (k = 0; k < upto && k < g[st].seconds; k++) {
			for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
				for (i = 0; i < g[st].nent[lvl]; i++) {
					struct bc_secrow row;
					int rc = bc_secr_row(r, (uint32_t)st, k, lvl, i, &row);

					if (st == 1 && k == g[st].seconds - 1 && s->ended) {
						/* past the END's count: not a second of the step */
						CHECK(rc == -ENOENT);
						continue;
					}
					CHECK_MSG(rc == 0, "step %d second %u lvl %d ent %d: %d",
						  st, k, lvl, i, rc);
					CHECK_MSG(
					    s_row_eq(&row, bc_entity_row(&g[st].ent[lvl][i], k)),
					    "step %d second %u lvl %d ent %d differs", st, k, lvl,
					    i);
				}
			}
			for (lvl = BC_LVL_VOLUME; lvl < BC_LVL_NR && k < s->seconds; lvl++) {
				struct bc_hist h[BC_OP_NR];
				uint64_t v[BC_OP_NR][S_N];
				int o, j, rc = bc_secr_hist(r, (uint32_t)st, k, lvl, 0, h);
				bool same = true;

				if (lvl < BC_LVL_NODE) {
					CHECK(rc == -ENOENT); /* volumes and agents: events.jsonl */
					continue;
				}
				CHECK(rc == 0);
				s_hist_vals(v, (int)k * 3 + lvl);
				for (o = 0; o < BC_OP_NR; o++) {
					uint64_t n = 0;

					for (j = 0; j < (int)BC_HIST_BUCKETS; j++) {
						uint64_t want = 0;

						if (j >= S_LO && j < S_LO + S_N &&
						    !(o == BC_OP_WRITE && lvl == BC_LVL_NODE))
							want = v[o][j - S_LO];
						same &= h[o].buckets[j] == want;
						n += want;
					}
					same &= h[o].count == n;
				}
				CHECK_MSG(same, "histograms of step %d second %u lvl %d", st, k,
					  lvl);
			}
		}
	}
}

static void s_cut(const char *from, const char *to, off_t len)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	off_t done = 0;

	while (in >= 0 && out >= 0 && done < len) {
		ssize_t n =
		    read(in, buf,
			 (size_t)(len - done) < sizeof(buf) ? (size_t)(len - done) : sizeof(buf));

		if (n <= 0 || write(out, buf, (size_t)n) != n)
			break;
		done += n;
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

#define S_RECS 40

/* records.bin: S_RECS real STATS bodies at zlib level `level` (0: stored) */
static void s_reclog(const char *dir, int level)
{
	char path[256], cut[256], err[512];
	uint8_t *bodies[S_RECS];
	size_t lens[S_RECS];
	uint64_t offs[S_RECS];
	struct bc_reclogw *w = NULL;
	struct bc_reclogr r;
	struct bc_reclog_rec rec;
	struct stat sb;
	off_t len;
	int i, v, o, j;

	snprintf(path, sizeof(path), "%s/records.bin", dir);
	snprintf(cut, sizeof(cut), "%s/records-cut.bin", dir);
	CHECK(bc_reclogw_open(&w, path, level, err, sizeof(err)) == 0);
	for (i = 0; i < S_RECS; i++) {
		struct bc_stats_hdr h = {0, (uint32_t)i, 0, 3};
		struct bc_volstat vs[3];

		for (v = 0; v < 3; v++) {
			bc_volstat_reset(&vs[v]);
			for (o = 0; o < BC_OP_NR; o++)
				for (j = 0; j < (int)(bc_test_rand() % 300); j++)
					bc_opstat_complete(&vs[v].op[o], 4096, 4096,
							   1000 + bc_test_rand() % 2000000);
		}
		CHECK(bc_stats_encode(&h, vs, &bodies[i], &lens[i]) == 0);
		CHECK(bc_reclogw_put(w, i % 2 ? "agent-b" : "a",
				     1764645000000000000ull + (uint64_t)i, bodies[i], lens[i],
				     &offs[i]) == 0);
		CHECK(i == 0 ? offs[i] == BC_RECLOG_HDR : offs[i] > offs[i - 1]);
	}
	CHECK(bc_reclogw_close(w) == 0);

	/* round trip */
	CHECK(bc_reclogr_open(&r, path, err, sizeof(err)) == 0);
	for (i = 0; i < S_RECS; i++) {
		CHECK(bc_reclogr_get(&r, offs[i], &rec) == 0);
		CHECK(rec.len == lens[i] && !memcmp(rec.body, bodies[i], lens[i]));
		CHECK(!strcmp(rec.agent, i % 2 ? "agent-b" : "a"));
		CHECK(rec.time_ns == 1764645000000000000ull + (uint64_t)i);
		CHECK(rec.codec == (level ? BC_RECLOG_ZLIB : BC_RECLOG_RAW));
		CHECK(rec.next == (i + 1 < S_RECS ? offs[i + 1] : r.size));
		/* compressed: a histogram's bytes are far from random */
		CHECK(!level || rec.stored < lens[i]);
	}
	CHECK(bc_reclogr_get(&r, 3, &rec) == -EINVAL);
	CHECK(bc_reclogr_get(&r, r.size, &rec) == -ENOENT);
	bc_reclogr_close(&r);

	/* cut anywhere: every record whose frame ends before the cut reads, the others do not */
	stat(path, &sb);
	for (len = BC_RECLOG_HDR; len <= sb.st_size; len += 131) {
		s_cut(path, cut, len);
		CHECK(bc_reclogr_open(&r, cut, err, sizeof(err)) == 0);
		for (i = 0; i < S_RECS; i++) {
			uint64_t end = i + 1 < S_RECS ? offs[i + 1] : (uint64_t)sb.st_size;
			int rc = bc_reclogr_get(&r, offs[i], &rec);

			CHECK_MSG(end <= (uint64_t)len ? rc == 0 && rec.len == lens[i] &&
							     !memcmp(rec.body, bodies[i], lens[i])
						       : rc == -ENOENT,
				  "cut at %lld, record %d: %d", (long long)len, i, rc);
		}
		bc_reclogr_close(&r);
	}

	/* a damaged byte inside record 5: its CRC fails, its neighbours still read */
	s_cut(path, cut, sb.st_size);
	{
		int fd = open(cut, O_RDWR);
		uint8_t b = 0;
		off_t at = (off_t)(offs[5] + (offs[6] - offs[5]) / 2);

		CHECK(fd >= 0 && pread(fd, &b, 1, at) == 1);
		b ^= 0x55;
		CHECK(pwrite(fd, &b, 1, at) == 1);
		close(fd);
	}
	CHECK(bc_reclogr_open(&r, cut, err, sizeof(err)) == 0);
	CHECK(bc_reclogr_get(&r, offs[5], &rec) == -EBADMSG);
	CHECK(bc_reclogr_get(&r, offs[4], &rec) == 0 && bc_reclogr_get(&r, offs[6], &rec) == 0);
	bc_reclogr_close(&r);

	/* not a record log */
	s_cut("/proc/self/cmdline", cut, 0);
	CHECK(bc_reclogr_open(&r, cut, err, sizeof(err)) == -EBADMSG);
	CHECK(strstr(err, "not a record log") != NULL);
	for (i = 0; i < S_RECS; i++)
		free(bodies[i]);
	unlink(path);
	unlink(cut);
}

/*
 * A step of 600 volumes: each second's rows frame spans several of the
 * reader's cached blocks (secfile.c, S_CBLK), so rows read entity by entity
 * over every second (as run.json's series are), second by second, and
 * backwards refill blocks mid-frame and cross block ends; every row must
 * still be the one written.
 */
static void s_big(const char *dir)
{
	char path[256], err[512], *text = malloc(64 << 10);
	size_t off = 0, cap = 64 << 10;
	struct bc_profile *p = NULL;
	struct bc_secw *w = NULL;
	struct bc_secr r;
	struct bc_agg g;
	uint32_t k;
	int lvl, i, v, bad = 0, pass;

	CHECK(text != NULL);
	if (!text)
		return;
	off += (size_t)snprintf(text + off, cap - off,
				"{\"name\": \"big\", \"agents\": [{\"name\": \"a\", "
				"\"endpoint\": \"local\"}, {\"name\": \"b\", \"endpoint\": "
				"\"local\"}], \"volumes\": [");
	for (v = 0; v < 600; v++)
		off += (size_t)snprintf(text + off, cap - off,
					"%s{\"agent\": \"%s\", \"path\": \"/dev/v%d\"}",
					v ? ", " : "", v % 2 ? "b" : "a", v);
	snprintf(text + off, cap - off,
		 "], \"defaults\": {\"ramp\": \"0s\", \"runtime\": \"4s\"}, "
		 "\"steps\": [{\"name\": \"only\"}]}");
	snprintf(path, sizeof(path), "%s/big.bin", dir);
	CHECK(bc_profile_parse(text, "big.json", &p, err, sizeof(err)) == 0);
	free(text);
	if (!p)
		return;
	CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
	CHECK(bc_secw_open(&w, path, err, sizeof(err)) == 0);
	if (w) {
		CHECK(bc_secw_step(w, 0, 0, "only", &g) == 0);
		for (k = 0; k < g.seconds; k++) {
			for (lvl = 0; lvl < BC_LVL_NR; lvl++)
				for (i = 0; i < g.nent[lvl]; i++)
					s_fill(bc_entity_row(&g.ent[lvl][i], k));
			CHECK(bc_secw_rows(w, 0, &g, k) == 0);
		}
		CHECK(bc_secw_end(w, 0, g.seconds) == 0);
		CHECK(bc_secw_close(w) == 0);
	}
	CHECK(bc_secr_open(&r, path, false, err, sizeof(err)) == 0);
	/* entity-major (pass 0), then the same backwards: entities and seconds reversed */
	for (pass = 0; pass < 2; pass++)
		for (lvl = 0; lvl < BC_LVL_NR; lvl++)
			for (i = 0; i < g.nent[lvl]; i++)
				for (k = 0; k < g.seconds; k++) {
					int ii = pass ? g.nent[lvl] - 1 - i : i;
					uint32_t kk = pass ? g.seconds - 1 - k : k;
					struct bc_secrow row;

					if (bc_secr_row(&r, 0, kk, lvl, ii, &row) ||
					    !s_row_eq(&row, bc_entity_row(&g.ent[lvl][ii], kk)))
						bad++;
				}
	/* second-major */
	for (k = 0; k < g.seconds; k++)
		for (lvl = 0; lvl < BC_LVL_NR; lvl++)
			for (i = 0; i < g.nent[lvl]; i++) {
				struct bc_secrow row;

				if (bc_secr_row(&r, 0, k, lvl, i, &row) ||
				    !s_row_eq(&row, bc_entity_row(&g.ent[lvl][i], k)))
					bad++;
			}
	CHECK_MSG(bad == 0, "%d rows of the 600-volume step read back wrong", bad);
	bc_secr_close(&r);
	bc_agg_free(&g);
	bc_profile_destroy(&p);
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/test_secfile.XXXXXX", path[256], cut[256], err[512];
	struct bc_profile *p = NULL;
	struct bc_agg g[2];
	struct bc_secr r;
	struct stat sb;
	off_t len;
	int i;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/seconds.bin", dir);
	snprintf(cut, sizeof(cut), "%s/cut.bin", dir);
	CHECK(bc_profile_parse(s_profile, "secf.json", &p, err, sizeof(err)) == 0);
	if (!p)
		TEST_DONE();
	CHECK(bc_agg_init(&g[0], p, &p->steps[0]) == 0);
	CHECK(bc_agg_init(&g[1], p, &p->steps[1]) == 0);
	s_write(path, g, p);

	/* round trip through the index */
	CHECK(bc_secr_open(&r, path, true, err, sizeof(err)) == 0);
	CHECK(r.indexed && !r.truncated);
	CHECK(r.nsteps == 2);
	CHECK(!strcmp(bc_secr_step(&r, 0)->name, "one") &&
	      !strcmp(bc_secr_step(&r, 1)->name, "two"));
	CHECK(bc_secr_step(&r, 0)->seconds == 6 && bc_secr_step(&r, 0)->ramp_s == 1);
	CHECK(bc_secr_step(&r, 1)->seconds == 3 && bc_secr_step(&r, 1)->ended); /* trimmed to 3 */
	CHECK(bc_secr_step(&r, 2) == NULL);
	CHECK(bc_secr_find(&r, 0, BC_LVL_VOLUME, "a:/dev/x") == 1);
	CHECK(bc_secr_find(&r, 0, BC_LVL_VOLUME, "b:null") == 2);
	CHECK(bc_secr_find(&r, 1, BC_LVL_AGENT, "b") == 1);
	CHECK(bc_secr_find(&r, 0, BC_LVL_NODE, "n0") == 0);
	CHECK(bc_secr_find(&r, 0, BC_LVL_TOTAL, "total") == 0);
	CHECK(bc_secr_find(&r, 0, BC_LVL_VOLUME, "a:nope") == -1);
	CHECK(bc_secr_find(&r, 7, BC_LVL_VOLUME, "a:null") == -1);
	s_verify(&r, g, 2, g[1].seconds);
	bc_secr_close(&r);

	/* the same without the index (a run still writing, or a crash): a scan */
	stat(path, &sb);
	s_cut(path, cut, sb.st_size - 16);
	CHECK(bc_secr_open(&r, cut, false, err, sizeof(err)) == 0);
	CHECK(!r.indexed);
	/* the index frame is whole: the scan ends cleanly after it */
	CHECK(!r.truncated && r.valid_bytes == (uint64_t)sb.st_size - 16);
	s_verify(&r, g, 2, g[1].seconds);
	bc_secr_close(&r);

	/* cut anywhere: truncated, and every whole second before the cut still reads */
	for (len = 17; len < sb.st_size - 16; len += 97) {
		s_cut(path, cut, len);
		if (bc_secr_open(&r, cut, true, err, sizeof(err))) {
			CHECK_MSG(0, "cut at %lld: %s", (long long)len, err);
			continue;
		}
		CHECK(!r.indexed);
		CHECK(r.valid_bytes <= (uint64_t)len);
		CHECK_MSG(r.truncated || r.valid_bytes == (uint64_t)len, "cut at %lld",
			  (long long)len);
		if (r.nsteps && r.steps[0]) {
			int last = r.nsteps > 1 && r.steps[1] ? 1 : 0;
			struct bc_secrow row;
			uint32_t k, whole = 0;

			/* the seconds of the last step that made it: a prefix, each exact */
			for (k = 0; k < g[last].seconds; k++)
				if (!bc_secr_row(&r, (uint32_t)last, k, BC_LVL_TOTAL, 0, &row))
					whole = k + 1;
			/* step 0's second 2 is rewritten after its last one: exact once that is in
			 */
			if (last || whole < 3)
				s_verify(&r, g, last + 1, whole);
		}
		bc_secr_close(&r);
	}

	/* a damaged byte in a frame: the CRC check stops there */
	s_cut(path, cut, sb.st_size - 16); /* no index: frames are all there is */
	{
		int fd = open(cut, O_RDWR);
		uint8_t b = 0;

		CHECK(fd >= 0 && pread(fd, &b, 1, 200) == 1);
		b ^= 0x55;
		CHECK(pwrite(fd, &b, 1, 200) == 1);
		close(fd);
	}
	CHECK(bc_secr_open(&r, cut, true, err, sizeof(err)) == 0);
	CHECK(r.truncated && r.valid_bytes < 200);
	bc_secr_close(&r);

	/* not a seconds file */
	s_cut("/proc/self/cmdline", cut, 0);
	CHECK(bc_secr_open(&r, cut, false, err, sizeof(err)) == -EBADMSG);
	CHECK(strstr(err, "not a seconds file") != NULL);

	s_reclog(dir, 0);
	s_reclog(dir, 1);
	s_big(dir);

	for (i = 0; i < 2; i++)
		bc_agg_free(&g[i]);
	bc_profile_destroy(&p);
	unlink(path);
	unlink(cut);
	rmdir(dir);
	TEST_DONE();
}
