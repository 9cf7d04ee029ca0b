/*
 * analysis/fit.c - curve fits over a sweep: the Universal Scalability Law
 * (Gunther, "Guerrilla Capacity Planning", 2007: X(N) = lambda N / (1 +
 * sigma (N - 1) + kappa N (N - 1)), fitted by least squares as usl4j does and
 * checked against usl4j's Cisco data in test_analysis.c) and Kneedle (Satopää, Albrecht, Irwin,
 * Raghavan, ICDCS Workshops 2011, as kneed implements it).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fit.h"

#define S_GN_ITER_MAX 200
#define S_GN_TOL      1e-12 /* relative step of every parameter */

static double s_usl(double lambda, double sigma, double kappa, double n)
{
	return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

static double s_sse(const double *n, const double *y, int cnt, const double th[3])
{
	double s = 0;
	int i;

	for (i = 0; i < cnt; i++) {
		double r = y[i] - s_usl(th[0], th[1], th[2], n[i]);

		s += r * r;
	}
	return s;
}

/* solve a 3x3 system by Gaussian elimination with partial pivoting; false if singular */
static bool s_solve3(double a[3][3], double b[3], double x[3])
{
	int i, j, k;

	for (i = 0; i < 3; i++) {
		int p = i;

		for (j = i + 1; j < 3; j++)
			if (fabs(a[j][i]) > fabs(a[p][i]))
				p = j;
		if (fabs(a[p][i]) < 1e-300)
			return false;
		if (p != i) {
			for (k = 0; k < 3; k++) {
				double t = a[i][k];

				a[i][k] = a[p][k];
				a[p][k] = t;
			}
			double t = b[i];

			b[i] = b[p];
			b[p] = t;
		}
		for (j = i + 1; j < 3; j++) {
			double f = a[j][i] / a[i][i];

			for (k = i; k < 3; k++)
				a[j][k] -= f * a[i][k];
			b[j] -= f * b[i];
		}
	}
	for (i = 2; i >= 0; i--) {
		double s = b[i];

		for (k = i + 1; k < 3; k++)
			s -= a[i][k] * x[k];
		x[i] = s / a[i][i];
	}
	return true;
}

/*
 * (a) the linearized fit: with lambda fixed, Nλ/X - 1 = σ(N-1) + κN(N-1) is
 * linear in (σ, κ); least squares through the origin. Biased (it weights
 * the residuals by N/X), so only a starting point.
 */
static void s_seed(const double *n, const double *y, int cnt, double lambda, double *sigma,
		   double *kappa)
{
	double suu = 0, suv = 0, svv = 0, suy = 0, svy = 0, det;
	int i;

	for (i = 0; i < cnt; i++) {
		double u = n[i] - 1, v = n[i] * (n[i] - 1), w = n[i] * lambda / y[i] - 1;

		suu += u * u;
		suv += u * v;
		svv += v * v;
		suy += u * w;
		svy += v * w;
	}
	det = suu * svv - suv * suv;
	*sigma = fabs(det) > 0 ? (suy * svv - svy * suv) / det : 0;
	*kappa = fabs(det) > 0 ? (suu * svy - suv * suy) / det : 0;
	if (!(*sigma > 0))
		*sigma = 0;
	if (!(*kappa > 0))
		*kappa = 0;
}

int bc_ana_usl_fit(const double *n, const double *x, int cnt, struct bc_usl *out)
{
	double *y, scale = 0, th[3], sse, mean = 0, sst = 0;
	int i, it, rc = -EDOM;

	memset(out, 0, sizeof(*out));
	if (cnt < BC_USL_MIN_POINTS)
		return -EINVAL;
	for (i = 0; i < cnt; i++) {
		if (!(n[i] >= 1) || !(x[i] > 0) || !isfinite(x[i]))
			return -EINVAL;
		scale = x[i] > scale ? x[i] : scale;
	}
	y = malloc((size_t)cnt * sizeof(*y));
	if (!y)
		return -ENOMEM;
	/* fit on X / max X: bytes/s of 1e10 would make the normal equations lopsided */
	th[0] = 0;
	for (i = 0; i < cnt; i++) {
		y[i] = x[i] / scale;
		th[0] = y[i] / n[i] > th[0] ? y[i] / n[i] : th[0];
	}
	s_seed(n, y, cnt, th[0], &th[1], &th[2]);
	out->seed_sigma = th[1];
	out->seed_kappa = th[2];
	sse = s_sse(n, y, cnt, th);
	/* (b) Gauss-Newton with step halving; sigma and kappa clamped at 0 */
	for (it = 0; it < S_GN_ITER_MAX; it++) {
		double a[3][3] = {{0}}, b[3] = {0}, d[3], next[3], nsse = INFINITY, step = 1;
		bool small = true;
		int j, k;

		for (i = 0; i < cnt; i++) {
			double den = 1 + th[1] * (n[i] - 1) + th[2] * n[i] * (n[i] - 1);
			double f = th[0] * n[i] / den, r = y[i] - f;
			double jac[3] = {n[i] / den, -f * (n[i] - 1) / den,
					 -f * n[i] * (n[i] - 1) / den};

			for (j = 0; j < 3; j++) {
				b[j] += jac[j] * r;
				for (k = 0; k < 3; k++)
					a[j][k] += jac[j] * jac[k];
			}
		}
		if (!s_solve3(a, b, d))
			break;
		for (; step > 1e-12; step /= 2) {
			for (j = 0; j < 3; j++)
				next[j] = th[j] + step * d[j];
			next[1] = next[1] < 0 ? 0 : next[1];
			next[2] = next[2] < 0 ? 0 : next[2];
			nsse = s_sse(n, y, cnt, next);
			if (nsse <= sse)
				break;
		}
		if (!(nsse <= sse))
			break; /* no step lowers the error: at the minimum (or stuck) */
		for (j = 0; j < 3; j++) {
			if (fabs(next[j] - th[j]) > S_GN_TOL * (fabs(th[j]) + 1e-300))
				small = false;
			th[j] = next[j];
		}
		sse = nsse;
		if (small) {
			rc = 0;
			break;
		}
	}
	/* a step that can no longer lower the error is convergence too, if it got that far */
	if (rc && it > 0 && isfinite(sse))
		rc = 0;
	out->iterations = it;
	out->lambda = th[0] * scale;
	out->sigma = th[1];
	out->kappa = th[2];
	if (th[2] > 0) {
		out->n_max = floor(sqrt((1 - th[1]) / th[2]));
		out->x_max = s_usl(out->lambda, th[1], th[2], out->n_max);
	} else {
		out->n_max = INFINITY;
		out->x_max = th[1] > 0 ? out->lambda / th[1] : INFINITY;
	}
	for (i = 0; i < cnt; i++)
		mean += y[i] / cnt;
	for (i = 0; i < cnt; i++)
		sst += (y[i] - mean) * (y[i] - mean);
	out->r2 = sst > 0 ? 1 - sse / sst : NAN;
	free(y);
	if (!isfinite(out->lambda) || !isfinite(out->sigma) || !isfinite(out->kappa))
		return -EDOM;
	return rc;
}

int bc_ana_kneedle(const double *x, const double *y, int n, double s)
{
	double xmin, xmax, ymin, ymax, *yd, thr = NAN, mdx;
	int i, cand = -1, knee = -1, first = -1;

	if (n < 3)
		return -1;
	xmin = xmax = x[0];
	ymin = ymax = y[0];
	for (i = 1; i < n; i++) {
		xmin = fmin(xmin, x[i]);
		xmax = fmax(xmax, x[i]);
		ymin = fmin(ymin, y[i]);
		ymax = fmax(ymax, y[i]);
	}
	if (xmax <= xmin || ymax <= ymin)
		return -1;
	yd = malloc((size_t)n * sizeof(*yd));
	if (!yd)
		return -1;
	/* normalized difference curve for a concave increasing curve: yn - xn */
	for (i = 0; i < n; i++)
		yd[i] = (y[i] - ymin) / (ymax - ymin) - (x[i] - xmin) / (xmax - xmin);
	mdx = 1.0 / (n - 1); /* mean(diff(xn)) of a normalized, sorted x */
	for (i = 1; i < n - 1 && first < 0; i++)
		if (yd[i] >= yd[i - 1] && yd[i] >= yd[i + 1])
			first = i;
	for (i = first; first > 0 && i < n - 1; i++) {
		bool lmx = yd[i] >= yd[i - 1] && yd[i] >= yd[i + 1];
		bool lmn = yd[i] <= yd[i - 1] && yd[i] <= yd[i + 1];

		if (lmx) {
			thr = yd[i] - s * mdx;
			cand = i;
		} else if (lmn) {
			thr = 0; /* kneed: a minimum resets the threshold */
		}
		if (yd[i + 1] < thr) {
			knee = cand;
			break;
		}
	}
	free(yd);
	return knee;
}
