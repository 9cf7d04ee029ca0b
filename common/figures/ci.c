/*
 * figures/ci.c - confidence intervals (figures/ci.h). Student's t from the regularized
 * incomplete beta function (continued fraction, evaluated by the modified
 * Lentz method: Press et al., Numerical Recipes 3rd ed. §6.4 and §5.2),
 * its quantile by bisection: the reports call it a few times per figure,
 * so robustness beats speed.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "figures/ci.h"

/* the continued fraction of I_x(a, b), converging fast for x < (a+1)/(a+b+2) */
static double s_betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* the regularized incomplete beta function I_x(a, b), 0 <= x <= 1 */
static double s_ibeta(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * s_betacf(a, b, x) / a;
	return 1 - exp(lbt) * s_betacf(b, a, 1 - x) / b;
}

double bc_t_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * s_ibeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double bc_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -bc_t_quantile(1 - p, df);
	while (bc_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		mid = (lo + hi) / 2;
		if (bc_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* mean and sample variance (two passes: the series' values are large and close) */
static int s_moments(const double *x, int n, double *mean, double *var)
{
	double m = 0, v = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (isnan(x[i]))
			return -EINVAL;
		m += x[i];
	}
	m /= n;
	for (i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? v / (n - 1) : NAN;
	return 0;
}

/* the interval around ci->mean from ci->se and ci->df */
static void s_finish(struct bc_ci *ci, double level)
{
	ci->level = level;
	ci->half = NAN;
	ci->lo = ci->hi = ci->mean;
	if (isnan(ci->se) || !(ci->df > 0))
		return;
	ci->half = bc_t_quantile(1 - (1 - level) / 2, ci->df) * ci->se;
	ci->lo = ci->mean - ci->half;
	ci->hi = ci->mean + ci->half;
}

static int s_init(struct bc_ci *ci, int n, double level)
{
	*ci = (struct bc_ci){.n = n, .se = NAN, .half = NAN, .level = level, .n_eff = NAN};
	if (n < 1 || !(level > 0 && level < 1))
		return -EINVAL;
	return 0;
}

int bc_ci_mean(const double *x, int n, double level, struct bc_ci *ci)
{
	double var;
	int ret = s_init(ci, n, level);

	if (!ret)
		ret = s_moments(x, n, &ci->mean, &var);
	if (ret)
		return ret;
	if (n > 1) {
		ci->se = sqrt(var / n);
		ci->df = n - 1;
		ci->n_eff = n;
	}
	s_finish(ci, level);
	return 0;
}

/* fewer seconds make fewer than 3 batches: t(0.975, 1) = 12.7 says nothing */
#define S_SERIES_MIN 8

int bc_ci_series(const double *x, int n, double level, struct bc_ci *ci)
{
	double var, bm[4096], bmean, bvar;
	int ret = s_init(ci, n, level), b, k, skip, i, j;

	if (!ret)
		ret = s_moments(x, n, &ci->mean, &var);
	if (ret || n < S_SERIES_MIN)
		return ret;
	b = (int)ceil(sqrt((double)n));
	k = n / b;
	if (k > (int)(sizeof(bm) / sizeof(bm[0]))) { /* a 190-day step: wider batches */
		k = (int)(sizeof(bm) / sizeof(bm[0]));
		b = n / k;
	}
	skip = n - k * b;
	for (i = 0; i < k; i++) {
		double s = 0;

		for (j = 0; j < b; j++)
			s += x[skip + i * b + j];
		bm[i] = s / b;
	}
	ret = s_moments(bm, k, &bmean, &bvar);
	if (ret)
		return ret;
	ci->batch = (uint32_t)b;
	ci->se = sqrt(bvar / k);
	ci->df = k - 1;
	ci->n_eff = ci->se > 0 ? var / (ci->se * ci->se) : n;
	s_finish(ci, level);
	return 0;
}

enum bc_cmp bc_ci_compare(const struct bc_ci *a, const struct bc_ci *b, struct bc_ci *d)
{
	struct bc_ci tmp;
	double va, vb;

	if (!d)
		d = &tmp;
	*d = (struct bc_ci){
	    .n = a->n + b->n, .mean = a->mean - b->mean, .se = NAN, .half = NAN, .n_eff = NAN};
	d->lo = d->hi = d->mean;
	d->level = a->level;
	if (isnan(a->se) || isnan(b->se) || !(a->df > 0) || !(b->df > 0))
		return BC_CMP_NONE;
	va = a->se * a->se;
	vb = b->se * b->se;
	d->se = sqrt(va + vb);
	if (d->se == 0) /* no spread on either side: the means are the figures */
		return d->mean > 0 ? BC_CMP_HIGHER : d->mean < 0 ? BC_CMP_LOWER : BC_CMP_SAME;
	d->df = (va + vb) * (va + vb) / (va * va / a->df + vb * vb / b->df);
	s_finish(d, a->level);
	if (d->lo > 0)
		return BC_CMP_HIGHER;
	if (d->hi < 0)
		return BC_CMP_LOWER;
	return BC_CMP_SAME;
}

const char *bc_cmp_word(enum bc_cmp v)
{
	static const char *const w[] = {"not distinguishable", "higher", "lower", "no interval"};

	return v <= BC_CMP_NONE ? w[v] : "?";
}
