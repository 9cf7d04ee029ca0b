/*
 * test_ci.c - confidence intervals (common/figures/ci.c) against known
 * distributions: t quantiles against the published table; the coverage of
 * the 95% interval on simulated normal samples (repetitions) and AR(1)
 * series (one long step), with a fixed seed; the compare verdict on two
 * runs from one distribution and from two. Prints the coverage figures.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "figures/ci.h"
#include "bc_test.h"

static uint64_t s_state = 0x9e3779b97f4a7c15ull;

/* splitmix64: a fixed, portable sequence */
static uint64_t s_next(void)
{
	uint64_t z = (s_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double s_unif(void)
{
	return ((double)(s_next() >> 11) + 0.5) / 9007199254740992.0;
}

/* Box-Muller, one of the pair */
static double s_normal(double mu, double sd)
{
	return mu + sd * sqrt(-2 * log(s_unif())) * cos(2 * M_PI * s_unif());
}

/* x[i] = mu + e[i], e[i] = phi e[i-1] + N(0, sd), started from its stationary law */
static void s_ar1(double *x, int n, double mu, double phi, double sd)
{
	double e = s_normal(0, sd / sqrt(1 - phi * phi));
	int i;

	for (i = 0; i < n; i++) {
		x[i] = mu + e;
		e = phi * e + s_normal(0, sd);
	}
}

static void test_t_table(void)
{
	/* two-sided 95% (p = 0.975) from any t table */
	static const struct {
		double df, t;
	} tab[] = {{1, 12.7062}, {2, 4.3027},	{4, 2.7764},  {9, 2.2622},
		   {30, 2.0423}, {120, 1.9799}, {1e7, 1.9600}};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		double q = bc_t_quantile(0.975, tab[i].df);

		CHECK_MSG(fabs(q - tab[i].t) < 1e-4, "df %g: %.6f, table %.4f", tab[i].df, q,
			  tab[i].t);
		CHECK(fabs(bc_t_quantile(0.025, tab[i].df) + q) < 1e-9);
	}
	CHECK(fabs(bc_t_cdf(0, 3) - 0.5) < 1e-12);
	CHECK(fabs(bc_t_cdf(2.7764451, 4) - 0.975) < 1e-6);
	/* df 1 is Cauchy: P(T <= 1) = 3/4 exactly */
	CHECK(fabs(bc_t_cdf(1, 1) - 0.75) < 1e-9);
	CHECK(isnan(bc_t_quantile(0, 3)) && isnan(bc_t_quantile(0.5, 0)));
}

static void test_mean_basics(void)
{
	const double x[] = {1, 2, 3, 4, 5};
	struct bc_ci ci;

	CHECK(!bc_ci_mean(x, 5, 0.95, &ci));
	CHECK(ci.mean == 3 && ci.df == 4);
	/* s = sqrt(2.5), se = s / sqrt(5), half = 2.7764 * se = 1.9632 */
	CHECK_MSG(fabs(ci.half - 2.776445 * sqrt(2.5 / 5)) < 1e-5, "half %.6f", ci.half);
	CHECK(ci.lo < 3 && ci.hi > 3 && fabs(ci.hi - ci.lo - 2 * ci.half) < 1e-12);
	CHECK(!bc_ci_mean(x, 1, 0.95, &ci) && ci.mean == 1 && isnan(ci.half));
	CHECK(bc_ci_mean(x, 0, 0.95, &ci) == -22);
	CHECK(bc_ci_mean(x, 5, 1.0, &ci) == -22);
	CHECK(!bc_ci_series(x, 5, 0.95, &ci) && ci.mean == 3 && isnan(ci.half));
}

/* repetitions: n independent normal samples, 20,000 intervals */
static void test_coverage_normal(int n)
{
	const int trials = 20000;
	double x[64];
	int t, i, hit = 0;
	double cov;

	for (t = 0; t < trials; t++) {
		struct bc_ci ci;

		for (i = 0; i < n; i++)
			x[i] = s_normal(1000, 50);
		CHECK(!bc_ci_mean(x, n, 0.95, &ci));
		hit += ci.lo <= 1000 && 1000 <= ci.hi;
	}
	cov = (double)hit / trials;
	/* binomial sd at 20,000 trials is 0.0015: 0.94..0.96 is over 6 sd */
	printf("coverage of the 95%% t interval, normal, n = %d: %.4f (%d trials)\n", n, cov,
	       trials);
	CHECK_MSG(cov > 0.94 && cov < 0.96, "n %d: coverage %.4f", n, cov);
}

/* one long step: AR(1) per-second series; batch means against the naive interval */
static void test_coverage_ar1(double phi, int n, double lo, double hi)
{
	const int trials = 4000;
	static double x[4096];
	int t, hit = 0, naive = 0;
	double cov, ncov, neff = 0;

	for (t = 0; t < trials; t++) {
		struct bc_ci ci, cn;

		s_ar1(x, n, 1000, phi, 10);
		CHECK(!bc_ci_series(x, n, 0.95, &ci));
		CHECK(!bc_ci_mean(x, n, 0.95, &cn));
		hit += ci.lo <= 1000 && 1000 <= ci.hi;
		naive += cn.lo <= 1000 && 1000 <= cn.hi;
		neff += ci.n_eff;
	}
	cov = (double)hit / trials;
	ncov = (double)naive / trials;
	printf("coverage of the 95%% interval, AR(1) phi = %.2f, n = %d s: batch means %.4f "
	       "(batch %d s, mean n_eff %.0f; theory n(1-phi)/(1+phi) = %.0f), naive t %.4f "
	       "(%d trials)\n",
	       phi, n, cov, (int)ceil(sqrt(n)), neff / trials, n * (1 - phi) / (1 + phi), ncov,
	       trials);
	CHECK_MSG(cov > lo && cov < hi, "phi %.2f n %d: coverage %.4f", phi, n, cov);
	/* the reason for batch means: the naive interval is too narrow on such series */
	if (phi >= 0.5)
		CHECK_MSG(ncov < 0.85, "naive coverage %.4f", ncov);
}

/* two runs of 5 repetitions from one distribution, and from two */
static void test_compare(void)
{
	const int trials = 10000;
	double a[5], b[5];
	int t, i, same = 0, higher = 0;
	struct bc_ci ca, cb, d;
	double fp;

	/* the fixed pair the issue names: one distribution, "not distinguishable" */
	for (i = 0; i < 5; i++) {
		a[i] = s_normal(50000, 2500);
		b[i] = s_normal(50000, 2500);
	}
	CHECK(!bc_ci_mean(a, 5, 0.95, &ca) && !bc_ci_mean(b, 5, 0.95, &cb));
	CHECK_MSG(bc_ci_compare(&ca, &cb, &d) == BC_CMP_SAME, "%s: %g [%g, %g]",
		  bc_cmp_word(bc_ci_compare(&ca, &cb, &d)), d.mean, d.lo, d.hi);
	CHECK(!strcmp(bc_cmp_word(BC_CMP_SAME), "not distinguishable"));
	CHECK(d.lo < 0 && d.hi > 0);

	/* and it is the rule, not the seed: about 5% of such pairs differ */
	for (t = 0; t < trials; t++) {
		for (i = 0; i < 5; i++) {
			a[i] = s_normal(50000, 2500);
			b[i] = s_normal(50000, 2500);
		}
		bc_ci_mean(a, 5, 0.95, &ca);
		bc_ci_mean(b, 5, 0.95, &cb);
		same += bc_ci_compare(&ca, &cb, NULL) == BC_CMP_SAME;
	}
	fp = 1 - (double)same / trials;
	printf("compare, one distribution (5 + 5 repetitions): %.4f called different "
	       "(%d pairs)\n",
	       fp, trials);
	/* Welch's df is an approximation: a little below the nominal 5% is expected */
	CHECK_MSG(fp > 0.03 && fp < 0.065, "false positives %.4f", fp);

	/* 10% apart with 5% noise: mostly "higher", never "lower" */
	for (t = 0; t < 2000; t++) {
		for (i = 0; i < 5; i++) {
			a[i] = s_normal(55000, 2500);
			b[i] = s_normal(50000, 2500);
		}
		bc_ci_mean(a, 5, 0.95, &ca);
		bc_ci_mean(b, 5, 0.95, &cb);
		switch (bc_ci_compare(&ca, &cb, NULL)) {
		case BC_CMP_HIGHER:
			higher++;
			break;
		case BC_CMP_LOWER:
			CHECK(!"a lower verdict for a higher mean");
			break;
		default:
			break;
		}
	}
	printf("compare, means 10%% apart, sd 5%%: %.3f called higher (2000 pairs)\n",
	       higher / 2000.0);
	/* t(0.975, ~8) = 2.3 against an effect of 3.2 se: the power is about 0.75 */
	CHECK(higher > 1300);
	/* the verdict is antisymmetric */
	CHECK(bc_ci_compare(&ca, &cb, NULL) != BC_CMP_HIGHER ||
	      bc_ci_compare(&cb, &ca, NULL) == BC_CMP_LOWER);

	/* one side without an interval is not judged */
	bc_ci_mean(a, 1, 0.95, &ca);
	CHECK(bc_ci_compare(&ca, &cb, NULL) == BC_CMP_NONE);
}

int main(void)
{
	test_t_table();
	test_mean_basics();
	test_coverage_normal(3);
	test_coverage_normal(5);
	test_coverage_normal(20);
	test_coverage_ar1(0.0, 300, 0.93, 0.97);
	test_coverage_ar1(0.5, 300, 0.92, 0.97);
	test_coverage_ar1(0.5, 60, 0.90, 0.97);
	test_coverage_ar1(0.8, 600, 0.88, 0.97);
	test_compare();
	TEST_DONE();
}
