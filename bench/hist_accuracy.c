/*
 * hist_accuracy.c - how exact are bench-coord's merged percentiles?
 * 10M latencies from a heavy-tailed distribution (lognormal body, Pareto
 * tail) are split across 8 simulated agents with different speeds. Each
 * agent records them per second exactly as a job does (bc_opstat_complete),
 * encodes STATS bodies, and the coordinator side decodes and merges them
 * (bc_stats_decode), as in a real run. The merged p99/p99.9 are compared
 * with the exact order statistics of the sorted samples, and with the
 * average of per-agent p99s that some peer tools report.
 * Last line: "p99_error_pct: X".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/stats.h"

#define S_AGENTS  8
#define S_SECONDS 10
#define S_TOTAL	  10000000u

static uint64_t s_rng = 0x243f6a8885a308d3ull;

static double s_unif(void)
{
	s_rng ^= s_rng << 13;
	s_rng ^= s_rng >> 7;
	s_rng ^= s_rng << 17;
	return ((double)(s_rng >> 11) + 0.5) / 9007199254740992.0;
}

/* lognormal body around 100 us x speed, 2% Pareto(alpha 1.3) tail from 1 ms */
static uint64_t s_sample(double speed)
{
	double u = s_unif(), v = s_unif();

	if (s_unif() < 0.02)
		return (uint64_t)(1e6 * speed / pow(u, 1.0 / 1.3));
	return (uint64_t)(1e5 * speed * exp(0.5 * sqrt(-2 * log(u)) * cos(2 * M_PI * v)));
}

static int s_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t s_exact(const uint64_t *sorted, size_t n, double pct)
{
	size_t rank = (size_t)ceil(pct / 100.0 * (double)n);

	return sorted[(rank ? rank : 1) - 1];
}

int main(void)
{
	static struct bc_volstat agent[S_AGENTS], merged;
	static struct bc_volstat perag_win[S_AGENTS];
	uint64_t *all = malloc(S_TOTAL * sizeof(uint64_t));
	double avg_p99 = 0, e99, e999;
	size_t n = 0;
	int a, k;
	uint32_t i;

	if (!all)
		return 1;
	bc_volstat_reset(&merged);
	for (a = 0; a < S_AGENTS; a++)
		bc_volstat_reset(&perag_win[a]);
	for (k = 0; k < S_SECONDS; k++) {
		for (a = 0; a < S_AGENTS; a++) {
			/* agents differ: speed 0.5x .. 4x, and load share */
			double speed = 0.5 * (1 << (a % 4));
			uint32_t cnt = S_TOTAL / S_SECONDS / S_AGENTS;
			struct bc_stats_hdr h = {.step = 0, .second = (uint32_t)k, .nvol = 1}, g;
			uint8_t *buf;
			size_t len;

			bc_volstat_reset(&agent[a]);
			for (i = 0; i < cnt; i++) {
				uint64_t v = s_sample(speed);

				all[n++] = v;
				bc_opstat_complete(&agent[a].op[BC_OP_READ], 4096, 4096, v);
			}
			bc_volstat_merge(&perag_win[a], &agent[a]);
			/* the wire path, exactly as agents and coordinator use it */
			if (bc_stats_encode(&h, &agent[a], &buf, &len) ||
			    bc_stats_decode(buf, len, &g, &merged, 1))
				return 1;
			free(buf);
		}
	}
	qsort(all, n, sizeof(*all), s_cmp);
	for (a = 0; a < S_AGENTS; a++)
		avg_p99 += (double)bc_hist_percentile(&perag_win[a].op[BC_OP_READ].hist, 99);
	avg_p99 /= S_AGENTS;
	{
		const struct bc_hist *h = &merged.op[BC_OP_READ].hist;
		uint64_t x99 = s_exact(all, n, 99), x999 = s_exact(all, n, 99.9);
		uint64_t m99 = bc_hist_percentile(h, 99), m999 = bc_hist_percentile(h, 99.9);

		e99 = 100.0 * fabs((double)m99 - (double)x99) / (double)x99;
		e999 = 100.0 * fabs((double)m999 - (double)x999) / (double)x999;
		printf("samples: %zu over %d agents x %d s; merged count %llu\n", n, S_AGENTS,
		       S_SECONDS, (unsigned long long)h->count);
		printf("%-28s %14s %14s %10s\n", "", "exact_us", "merged_us", "error_%");
		printf("%-28s %14.3f %14.3f %10.4f\n", "p50", s_exact(all, n, 50) / 1e3,
		       bc_hist_percentile(h, 50) / 1e3,
		       100.0 *
			   fabs((double)bc_hist_percentile(h, 50) - (double)s_exact(all, n, 50)) /
			   (double)s_exact(all, n, 50));
		printf("%-28s %14.3f %14.3f %10.4f\n", "p99", x99 / 1e3, m99 / 1e3, e99);
		printf("%-28s %14.3f %14.3f %10.4f\n", "p99.9", x999 / 1e3, m999 / 1e3, e999);
		printf("%-28s %14.3f %14.3f %10.4f\n", "max", all[n - 1] / 1e3,
		       merged.op[BC_OP_READ].lat_max_ns / 1e3,
		       100.0 * fabs((double)merged.op[BC_OP_READ].lat_max_ns - (double)all[n - 1]) /
			   (double)all[n - 1]);
		printf("%-28s %14.3f %14.3f %10.2f\n", "average of per-agent p99s", x99 / 1e3,
		       avg_p99 / 1e3, 100.0 * fabs(avg_p99 - (double)x99) / (double)x99);
		printf("p999_error_pct: %.4f\n", e999);
		printf("p99_error_pct: %.4f\n", e99);
	}
	free(all);
	return 0;
}
