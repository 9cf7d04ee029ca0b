/*
 * figures/ci.h - confidence intervals for the reports and `compare`: the mean of
 * independent samples (repetitions of a step, iterations of an FDP mode)
 * with Student's t, the mean of one autocorrelated per-second series with
 * non-overlapping batch means, and the verdict of two such means (Welch).
 *
 * Why batch means for a series: a step's seconds are not independent (a
 * drive's garbage collection, a cache filling, a busy neighbour last for
 * many seconds), so s/sqrt(n) over the seconds is too narrow - on an AR(1)
 * series with phi = 0.5 its interval covers the mean 75% of the time
 * instead of 95% (tests/unit/test_ci.c). Batches of b = ceil(sqrt(n))
 * consecutive seconds are nearly independent once b is well past the
 * correlation time, and their means give a t interval with k - 1 degrees of
 * freedom (k = n / b batches). Unlike an effective-sample-size correction
 * from the lag-1 autocorrelation, it assumes no model of the correlation
 * (AR(1) or otherwise); it gets narrower only as fast as the data allow.
 * Its weakness: correlations longer than a batch make it too narrow again,
 * and a series of fewer than 8 seconds gives no interval.
 */
#ifndef BC_FIGURES_CI_H
#define BC_FIGURES_CI_H

#include <stdint.h>

struct bc_ci {
	int n;		/* samples (seconds for a series); 0: no data */
	double mean;	/* of the samples */
	double se;	/* standard error of the mean; NAN when n < 2 (no interval) */
	double df;	/* degrees of freedom of the t quantile */
	double level;	/* e.g. 0.95 */
	double half;	/* half width: the interval is mean +- half; NAN when none */
	double lo, hi;	/* mean -+ half */
	uint32_t batch; /* a series: seconds per batch; 0: independent samples */
	double n_eff;	/* samples an independent series would need for this se */
};

/* Student's t distribution: P(T <= t) with df > 0 degrees of freedom */
double bc_t_cdf(double t, double df);
/* its quantile: the t with P(T <= t) = p, 0 < p < 1; NAN outside */
double bc_t_quantile(double p, double df);

/*
 * The mean of n independent samples and its interval at level (0.95):
 * mean +- t(1 - (1 - level) / 2, n - 1) * s / sqrt(n). n == 1 gives the
 * mean without an interval (se NAN). Returns 0, or -EINVAL for n < 1 or a
 * level outside (0, 1); NAN samples are -EINVAL too.
 */
int bc_ci_mean(const double *x, int n, double level, struct bc_ci *ci);

/*
 * The mean of a per-second series and an interval that accounts for its
 * autocorrelation (batch means, above). The oldest n mod b seconds are left
 * out of the batches (not of the mean). Fewer than 8 seconds: the mean
 * without an interval. Returns 0 or -EINVAL as bc_ci_mean.
 */
int bc_ci_series(const double *x, int n, double level, struct bc_ci *ci);

/*
 * The difference a - b with its interval (Welch: se^2 = se_a^2 + se_b^2,
 * Welch-Satterthwaite degrees of freedom) at a's level: HIGHER when its
 * whole interval is above 0, LOWER when below, SAME ("not distinguishable")
 * when it holds 0, NONE when either side has no interval. d may be NULL.
 */
enum bc_cmp { BC_CMP_SAME = 0, BC_CMP_HIGHER, BC_CMP_LOWER, BC_CMP_NONE };
enum bc_cmp bc_ci_compare(const struct bc_ci *a, const struct bc_ci *b, struct bc_ci *d);
/* "not distinguishable", "higher", "lower", "no interval" */
const char *bc_cmp_word(enum bc_cmp v);

#endif
