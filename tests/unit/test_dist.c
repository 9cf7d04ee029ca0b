/* test_dist.c - offset distributions over 1M draws match their analytic shapes; the permutation is
 * a bijection */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dist.h"
#include "bc_test.h"

#define DRAWS 1000000u
/*
 * Tolerance on a share, absolute. A share p over 1M draws has a binomial
 * standard deviation of sqrt(p(1-p)/1e6) <= 0.0005, so 0.004 is 8 sigma: a
 * failure is a wrong shape, never bad luck.
 */
#define TOL 0.004

/* generalised harmonic number H(k, theta) = sum_{i=1..k} i^-theta */
static double s_harmonic(uint64_t k, double theta)
{
	double h = 0;
	uint64_t i;

	/* smallest terms first: keeps the double sum exact to ~1e-12 */
	for (i = k; i >= 1; i--)
		h += pow((double)i, -theta);
	return h;
}

/* draw DRAWS units; counts[unit]++; every draw must stay in [0, n) */
static uint64_t *s_draw(const struct bc_dist_spec *spec, uint64_t n, struct bc_dist *d)
{
	uint64_t *counts = calloc(n, sizeof(*counts)), u;
	struct bc_rand r;
	unsigned i, out = 0;

	if (!counts)
		exit(1);
	CHECK(bc_dist_init(d, spec, n, 7) == 0);
	bc_rand_seed(&r, 12345);
	for (i = 0; i < DRAWS; i++) {
		u = bc_dist_next(d, &r);
		if (u >= n)
			out++;
		else
			counts[u]++;
	}
	CHECK_MSG(!out, "%u draws outside [0, %llu)", out, (unsigned long long)n);
	return counts;
}

/* rank (0 = hottest) of every unit, by walking the sampler's permutation */
static uint64_t *s_ranks(const struct bc_dist *d)
{
	uint64_t *rank = malloc(d->n * sizeof(*rank)), r, u;
	uint8_t *seen = calloc(d->n, 1);
	uint64_t dup = 0;

	if (!rank || !seen)
		exit(1);
	for (r = 0; r < d->n; r++) {
		u = bc_perm_apply(&d->perm, r);
		dup += u >= d->n || seen[u]++;
		if (u < d->n)
			rank[u] = r;
	}
	CHECK_MSG(!dup, "permutation of %llu is not a bijection", (unsigned long long)d->n);
	free(seen);
	return rank;
}

/* share of draws that went to the ranks [0, k) */
static double s_top_share(const uint64_t *counts, const uint64_t *rank, uint64_t n, uint64_t k)
{
	uint64_t hit = 0, u;

	for (u = 0; u < n; u++)
		if (rank[u] < k)
			hit += counts[u];
	return (double)hit / DRAWS;
}

static void s_expect(const char *what, double got, double want)
{
	printf("%-40s empirical %.4f  analytic %.4f\n", what, got, want);
	CHECK_MSG(fabs(got - want) <= TOL, "%s: %.4f, expected %.4f +- %.3f", what, got, want, TOL);
}

static void test_perm(void)
{
	static const uint64_t ns[] = {1, 2, 3, 4, 5, 1000, 4096, 12345, 65537};
	struct bc_dist d;
	struct bc_dist_spec uni = {.kind = BC_DIST_ZIPF, .param = 1};
	unsigned i;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		CHECK(bc_dist_init(&d, &uni, ns[i], 99) == 0);
		free(s_ranks(&d));
	}
}

/* zipf: the share of the hottest k of n units is H(k, theta) / H(n, theta) */
static void test_zipf(double theta)
{
	const uint64_t n = 100000;
	struct bc_dist_spec spec = {.kind = BC_DIST_ZIPF, .param = theta};
	static const double tops[] = {0.0001, 0.01, 0.1, 0.5};
	uint64_t *counts, *rank;
	struct bc_dist d;
	double hn = s_harmonic(n, theta);
	char what[80];
	unsigned i;

	counts = s_draw(&spec, n, &d);
	rank = s_ranks(&d);
	for (i = 0; i < sizeof(tops) / sizeof(tops[0]); i++) {
		uint64_t k = (uint64_t)(tops[i] * (double)n);

		snprintf(what, sizeof(what), "zipf:%g top %g%% share", theta, tops[i] * 100);
		s_expect(what, s_top_share(counts, rank, n, k), s_harmonic(k, theta) / hn);
	}
	free(counts);
	free(rank);
}

/* pareto:h: the hottest fraction q of the units takes 1 - (1-q)^a, a = log(1-h)/log(h) */
static void test_pareto(double h)
{
	const uint64_t n = 100000;
	struct bc_dist_spec spec = {.kind = BC_DIST_PARETO, .param = h};
	static const double qs[] = {0.01, 0.05, 0.2, 0.5};
	double a = log(1 - h) / log(h);
	uint64_t *counts, *rank;
	struct bc_dist d;
	char what[80];
	unsigned i;

	counts = s_draw(&spec, n, &d);
	rank = s_ranks(&d);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		snprintf(what, sizeof(what), "pareto:%g hottest %g%% share", h, qs[i] * 100);
		s_expect(what, s_top_share(counts, rank, n, (uint64_t)(qs[i] * (double)n)),
			 1 - pow(1 - qs[i], a));
	}
	/* the headline: pareto:0.8 is the 80/20 rule */
	if (h == 0.8)
		CHECK(fabs(s_top_share(counts, rank, n, n / 5) - 0.8) <= TOL);
	free(counts);
	free(rank);
}

/* normal:s: within +-1, 2, 3 sigma of the window's middle (truncation at +-5 sigma is ~6e-7) */
static void test_normal(void)
{
	const uint64_t n = 1000000;
	struct bc_dist_spec spec = {.kind = BC_DIST_NORMAL, .param = 10};
	double sigma = 0.10 * (double)n, mid = (double)n / 2;
	uint64_t *counts, u, in[3] = {0};
	struct bc_dist d;
	char what[80];
	int s;

	counts = s_draw(&spec, n, &d);
	for (u = 0; u < n; u++)
		for (s = 1; s <= 3; s++)
			if (fabs((double)u + 0.5 - mid) < s * sigma)
				in[s - 1] += counts[u];
	for (s = 1; s <= 3; s++) {
		snprintf(what, sizeof(what), "normal:10 within %d sigma", s);
		s_expect(what, (double)in[s - 1] / DRAWS, erf(s / sqrt(2.0)) / erf(5 / sqrt(2.0)));
	}
	free(counts);
}

/* zoned:90/10:5/30 -> 90% to the first 10% of the window, 5% to the next 30%, 5% to the rest */
static void test_zoned(void)
{
	const uint64_t n = 100000;
	struct bc_dist_spec spec = {
	    .kind = BC_DIST_ZONED, .nzones = 3, .zones = {{90, 10}, {5, 30}, {5, 60}}};
	uint64_t *counts, u, z[3] = {0}, half[2] = {0};
	struct bc_dist d;

	counts = s_draw(&spec, n, &d);
	for (u = 0; u < n; u++) {
		z[u < n / 10 ? 0 : u < n * 4 / 10 ? 1 : 2] += counts[u];
		if (u < n / 10)
			half[u < n / 20] += counts[u];
	}
	s_expect("zoned:90/10:5/30 first 10%", (double)z[0] / DRAWS, 0.90);
	s_expect("zoned:90/10:5/30 next 30%", (double)z[1] / DRAWS, 0.05);
	s_expect("zoned:90/10:5/30 last 60%", (double)z[2] / DRAWS, 0.05);
	/* uniform inside a zone */
	s_expect("zoned: first half of the hot zone", (double)half[1] / DRAWS, 0.45);
	free(counts);

	/* a zone with I/Os and no unit is refused, not silently emptied */
	spec =
	    (struct bc_dist_spec){.kind = BC_DIST_ZONED, .nzones = 2, .zones = {{50, 1}, {50, 99}}};
	CHECK(bc_dist_init(&d, &spec, 10, 1) == -EINVAL);
}

static void test_uniform(void)
{
	const uint64_t n = 1000;
	struct bc_dist_spec spec = {.kind = BC_DIST_UNIFORM};
	uint64_t *counts, u, dec[10] = {0};
	struct bc_dist d;
	int i;

	counts = s_draw(&spec, n, &d);
	for (u = 0; u < n; u++)
		dec[u * 10 / n] += counts[u];
	for (i = 0; i < 10; i++)
		CHECK_MSG(fabs((double)dec[i] / DRAWS - 0.1) <= TOL, "uniform decile %d: %.4f", i,
			  (double)dec[i] / DRAWS);
	free(counts);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_perm();
	test_uniform();
	test_zipf(1.2);
	test_zipf(0.8);
	test_pareto(0.8);
	test_pareto(0.95);
	test_normal();
	test_zoned();
	TEST_DONE();
}
