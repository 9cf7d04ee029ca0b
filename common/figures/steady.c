/*
 * figures/steady.c - least-squares trend and spread of a series (see figures/steady.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "figures/steady.h"

int bc_steady_check(const double *x, uint32_t n, double slope_limit_pct, double spread_limit_pct,
		    struct bc_steady *out)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, var = 0, dev = 0, slope;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n < 3)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		sx += i;
		sy += x[i];
		sxx += (double)i * i;
		sxy += (double)i * x[i];
	}
	out->mean = sy / n;
	if (out->mean <= 0)
		return -EINVAL;
	slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	for (i = 0; i < n; i++) {
		double d = fabs(x[i] - out->mean);

		var += d * d;
		if (d > dev)
			dev = d;
	}
	out->slope_pct = 100.0 * slope / out->mean;
	out->spread_pct = 100.0 * dev / out->mean;
	out->stddev_pct = 100.0 * sqrt(var / n) / out->mean;
	out->steady =
	    fabs(out->slope_pct) <= slope_limit_pct && out->spread_pct <= spread_limit_pct;
	return 0;
}
