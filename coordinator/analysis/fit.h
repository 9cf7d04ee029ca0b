/*
 * analysis/fit.h (analysis/fit.c) - curve fits over a sweep: Kneedle and the
 * Universal Scalability Law
 */
#ifndef BC_ANALYSIS_FIT_H
#define BC_ANALYSIS_FIT_H

/*
 * Kneedle (Satopää et al., ICDCSW 2011) on a concave increasing curve:
 * index of the first knee, or -1 (fewer than 3 points, none found). s is
 * the sensitivity (1 is the paper's default).
 */
int bc_ana_kneedle(const double *x, const double *y, int n, double s);

struct bc_usl {
	double lambda, sigma, kappa; /* X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) */
	double n_max;		     /* floor(sqrt((1 - sigma) / kappa)), inf when kappa = 0 */
	double x_max;		     /* X(n_max), lambda / sigma without coherency */
	double r2;		     /* of the fit, on X */
	int iterations;
	double seed_sigma, seed_kappa; /* the linearized fit it started from */
};
#define BC_USL_MIN_POINTS 6 /* usl4j, R usl and codahale/usl all ask for six */

/*
 * Fit the USL to (n[i], x[i]): the linearized least squares as a seed,
 * then Gauss-Newton on (lambda, sigma, kappa) with sigma, kappa >= 0.
 * Returns 0, -EINVAL with fewer than BC_USL_MIN_POINTS points (or bad
 * values), -EDOM when it does not converge.
 */
int bc_ana_usl_fit(const double *n, const double *x, int cnt, struct bc_usl *out);

#endif
