/*
 * figures/steady.h - steady-state check of a per-second series (IOPS or MB/s)
 * over a step's measured window, in the spirit of fio's steadystate
 * (iops_slope: least-squares slope relative to the mean) and vdbench's
 * avg_N-M lines: a step whose throughput still trends or swings is flagged,
 * because its average describes no state the system was in.
 */
#ifndef BC_FIGURES_STEADY_H
#define BC_FIGURES_STEADY_H

#include <stdbool.h>
#include <stdint.h>

/* defaults: a trend under 1% of the mean per second, a band within +-10% of the mean */
#define BC_STEADY_SLOPE_PCT  1.0
#define BC_STEADY_SPREAD_PCT 10.0

struct bc_steady {
	uint32_t n;	   /* seconds considered */
	double mean;	   /* mean of the series */
	double slope_pct;  /* least-squares slope, % of the mean per second */
	double spread_pct; /* largest |x - mean|, % of the mean */
	double stddev_pct; /* standard deviation, % of the mean */
	bool steady;	   /* |slope| and spread within the limits */
};

/*
 * Evaluate x[0..n). Needs n >= 3 and a positive mean; otherwise returns
 * -EINVAL and *out says not steady.
 */
int bc_steady_check(const double *x, uint32_t n, double slope_limit_pct, double spread_limit_pct,
		    struct bc_steady *out);

#endif
