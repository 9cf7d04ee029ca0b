/*
 * agg.c - the coordinator's aggregation alone, in one process: N agents x M
 * volumes of synthetic STATS records (bench/synth, the payloads bench_swarm
 * sends) added second by second through bc_agg_submit and closed with
 * bc_agg_close_second, as the run loop does, without sockets, CURVE or the
 * event log. It isolates the CPU cost of aggregation from everything the
 * swarm benchmark (bench/swarm.sh) measures end to end, so a change to
 * coordinator/agg/agg.c can be judged on a noisy machine: CPU time is counted
 * per thread, not read off a wall clock.
 *
 * usage: bench_agg [-n AGENTS] [-m VOLUMES] [-s SECONDS] [-t WORKERS] [--iops N] [--no-pct]
 *                  [--digest]
 * Prints per second the wall time from the first record to the close, and
 * the CPU per volume-second, without the step's finish
 * ("agg_seconds_ns_per_volume_second") and with it (the last line,
 * "agg_ns_per_volume_second: X").
 * --digest also prints "agg_digest: X", a hash of every figure the
 * aggregation made (every entity's rows, window counters and histograms):
 * a change to the hot path must leave it as it was.
 * --no-pct sends records without the volumes' percentile buckets, as an
 * agent before protocol 2 did: the coordinator finds every volume's
 * percentiles itself (its exact path), and the digest is the same.
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "agg/agg.h"
#include "agg/pool.h"
#include "fleet/fleet.h"
#include "synth/synth.h"
#include "util/clock.h"

#define S_POOL 64

static uint64_t s_cpu_ns(void)
{
	return bc_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

/* N agents on loopback ports (never contacted), M "null" volumes each, 8 nodes */
static char *s_profile_text(int n, int m, int secs)
{
	size_t cap = 4096 + (size_t)n * 128 + (size_t)n * m * 96, off = 0;
	char *t = malloc(cap);
	int i, v;

	if (!t)
		return NULL;
	off += (size_t)snprintf(t + off, cap - off, "{\"name\":\"bench-agg\",\"agents\":[");
	for (i = 0; i < n; i++)
		off +=
		    (size_t)snprintf(t + off, cap - off,
				     "%s{\"name\":\"a%04d\",\"endpoint\":\"tcp://127.0.0.1:%d\"}",
				     i ? "," : "", i, 20000 + i);
	off += (size_t)snprintf(t + off, cap - off, "],\"nodes\":[");
	for (i = 0; i < 8; i++)
		off += (size_t)snprintf(t + off, cap - off, "%s{\"name\":\"node-%d\"}",
					i ? "," : "", i);
	off += (size_t)snprintf(t + off, cap - off, "],\"volumes\":[");
	for (i = 0; i < n; i++)
		for (v = 0; v < m; v++)
			off += (size_t)snprintf(
			    t + off, cap - off,
			    "%s{\"agent\":\"a%04d\",\"path\":\"null\",\"node\":\"node-%d\"}",
			    i || v ? "," : "", i, (i * m + v) % 8);
	snprintf(
	    t + off, cap - off,
	    "],\"defaults\":{\"rw\":\"randrw\",\"bs\":\"4k\",\"ramp\":\"0s\",\"runtime\":\"%ds\"},"
	    "\"steps\":[{\"name\":\"agg\"}]}",
	    secs);
	return t;
}

/* FNV-1a, 64 bits */
static uint64_t s_fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

static uint64_t s_digest(const struct bc_agg *g)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int lvl, i, o;
	uint32_t k;
	unsigned b;

	for (lvl = 0; lvl < BC_LVL_NR; lvl++)
		for (i = 0; i < g->nent[lvl]; i++) {
			const struct bc_entity *e = &g->ent[lvl][i];

			/* entity by entity, as when each had its rows together */
			for (k = 0; k < g->seconds; k++)
				h = s_fnv(h, bc_entity_row(e, k), sizeof(struct bc_secrow));
			for (o = 0; o < BC_OP_NR; o++) {
				const struct bc_opstat *w = &e->window.op[o];
				const struct bc_opcnt *a = &e->all.op[o];
				uint64_t c[] = {w->ios,	       w->bytes,
						w->errors,     w->short_ios,
						w->lat_sum_ns, w->lat_min_ns,
						w->lat_max_ns, (uint64_t)w->first_errno,
						w->hist.count, a->ios,
						a->bytes,      a->lat_sum_ns};

				h = s_fnv(h, c, sizeof(c));
				for (b = 0; b < BC_HIST_BUCKETS && w->hist.count; b++)
					if (w->hist.buckets[b]) {
						h = s_fnv(h, &b, sizeof(b));
						h = s_fnv(h, &w->hist.buckets[b], 8);
					}
			}
		}
	return h;
}

/* minor page faults so far: first touches of the step's memory are part of its cost */
static long s_minflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_minflt;
}

static int s_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {{"iops", required_argument, NULL, 'i'},
					      {"digest", no_argument, NULL, 'd'},
					      {"no-pct", no_argument, NULL, 'p'},
					      {NULL, 0, NULL, 0}};
	bool digest = false;
	unsigned enc = 0;
	int n = 1000, m = 16, secs = 20, threads = 2, c, i, rc = 1;
	uint64_t iops = 2000, cpu0, cpu1, fin, *wall = NULL;
	long flt0, flt1;
	struct bc_synth_payload pool[S_POOL] = {0};
	struct bc_profile *p = NULL;
	struct bc_conn *conns = NULL;
	struct bc_agg g = {0};
	uint8_t *body = NULL;
	size_t cap, maxlen = 0;
	char err[512], *text = NULL;
	uint32_t k;

	while ((c = getopt_long(argc, argv, "n:m:s:t:", lopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'm':
			m = atoi(optarg);
			break;
		case 's':
			secs = atoi(optarg);
			break;
		case 't':
			threads = atoi(optarg);
			break;
		case 'i':
			iops = strtoull(optarg, NULL, 10);
			break;
		case 'd':
			digest = true;
			break;
		case 'p':
			enc = BC_STATS_ENC_NO_PCT;
			break;
		default:
			fprintf(stderr, "usage: bench_agg [-n AGENTS] [-m VOLUMES] [-s SECONDS] "
					"[-t WORKERS] [--iops N] [--no-pct] [--digest]\n");
			return 2;
		}
	}
	if (n < 1 || m < 1 || secs < 1 || threads < 0) {
		fprintf(stderr, "bench_agg: -n, -m, -s must be positive, -t not negative\n");
		return 2;
	}
	for (i = 0; i < S_POOL; i++) {
		if (bc_synth_payload_opts(&pool[i], iops, 0.35, enc))
			goto out;
		if (pool[i].len > maxlen)
			maxlen = pool[i].len;
	}
	text = s_profile_text(n, m, secs);
	if (!text || bc_profile_parse(text, "bench-agg.json", &p, err, sizeof(err))) {
		fprintf(stderr, "bench_agg: %s\n", text ? err : "out of memory");
		goto out;
	}
	cap = 64 + (size_t)m * (10 + maxlen);
	body = malloc(cap);
	conns = calloc((size_t)n, sizeof(*conns));
	wall = calloc((size_t)secs, sizeof(*wall));
	if (!body || !conns || !wall)
		goto out;
	for (i = 0; i < n; i++) {
		int v;

		conns[i].spec = &p->agents[i];
		conns[i].index = i;
		conns[i].vols = calloc((size_t)m, sizeof(int));
		if (!conns[i].vols)
			goto out;
		for (v = 0; v < m; v++)
			conns[i].vols[conns[i].nvols++] = i * m + v;
	}
	if (bc_agg_init(&g, p, &p->steps[0]) || bc_agg_pool_start(&g, threads))
		goto out;
	flt0 = s_minflt();
	cpu0 = s_cpu_ns();
	for (k = 0; k < (uint32_t)secs; k++) {
		uint64_t t0 = bc_mono_ns();

		for (i = 0; i < n; i++) {
			const struct bc_conn *bad;
			struct bc_stats_hdr h;
			size_t len = bc_synth_record(body, cap, 0, k, i, m, pool, S_POOL, NULL);

			if (bc_agg_submit(&g, &conns[i], body, len, &h, &bad)) {
				fprintf(stderr, "bench_agg: record of agent %d second %u refused\n",
					i, k);
				goto out;
			}
		}
		bc_agg_close_second(&g, k);
		bc_agg_rows_ahead(&g);
		wall[k] = bc_mono_ns() - t0;
	}
	fin = s_cpu_ns();
	bc_agg_finish(&g);
	cpu1 = s_cpu_ns();
	fin = cpu1 - fin;
	flt1 = s_minflt();
	qsort(wall, (size_t)secs, sizeof(*wall), s_cmp);
	printf("agents %d volumes %d seconds %d workers %d, %u histogram buckets per "
	       "volume-second on average\n",
	       n, m, secs, threads, pool[0].pairs);
	printf("wall per second (first record to close): p50 %.1f ms, max %.1f ms\n",
	       (double)wall[secs / 2] / 1e6, (double)wall[secs - 1] / 1e6);
	printf("cpu per second: %.1f ms\n", (double)(cpu1 - cpu0) / 1e6 / secs);
	/* once a step, counted above: the windows made whole (agg.c's pending counts) */
	printf("finish (after the last second): %.1f ms of cpu\n", (double)fin / 1e6);
	printf("page faults per second: %.0f\n", (double)(flt1 - flt0) / secs);
	if (digest)
		printf("agg_digest: %016llx\n", (unsigned long long)s_digest(&g));
	/* the seconds alone: what each second costs while the step runs (the lag) */
	printf("agg_seconds_ns_per_volume_second: %.0f\n",
	       (double)(cpu1 - cpu0 - fin) / ((double)n * m * secs));
	printf("agg_ns_per_volume_second: %.0f\n", (double)(cpu1 - cpu0) / ((double)n * m * secs));
	rc = 0;
out:
	bc_agg_free(&g);
	for (i = 0; conns && i < n; i++)
		free(conns[i].vols);
	for (i = 0; i < S_POOL; i++)
		bc_synth_payload_free(&pool[i]);
	free(conns);
	free(wall);
	free(body);
	free(text);
	bc_profile_destroy(&p);
	return rc;
}
