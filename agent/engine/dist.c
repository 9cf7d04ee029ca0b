/*
 * engine/dist.c - offset distributions and the unit permutation (see engine/dist.h).
 * zipf and pareto draw a rank (0 = hottest) and scatter it with the keyed
 * permutation, like fio hashes its ranks, but as a bijection so the shape
 * over units is exactly the shape over ranks; normal and zoned keep their
 * locality (a hot middle, hot zones in window order).
 */
#include <errno.h>
#include <math.h>

#include "engine/dist.h"

/* 64-bit odd constants of splitmix64/murmur3 finalisers: good avalanche per multiply */
#define S_MIX1 0xbf58476d1ce4e5b9ull
#define S_MIX2 0x94d049bb133111ebull

void bc_perm_init(struct bc_perm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;
	int i;

	while (bits < 64 && (1ull << bits) < n)
		bits++;
	bits += bits & 1;
	p->n = n;
	p->half_bits = bits / 2;
	p->half_mask = (1ull << p->half_bits) - 1;
	for (i = 0; i < 4; i++)
		p->keys[i] = bc_splitmix64(&seed);
}

/* round function: the top half_bits of a keyed multiply-xorshift */
static inline uint64_t s_round(const struct bc_perm *p, uint64_t x, uint64_t key)
{
	x = (x ^ key) * S_MIX1;
	x ^= x >> 31;
	x *= S_MIX2;
	return (x >> (64 - p->half_bits)) & p->half_mask;
}

static inline uint64_t s_feistel(const struct bc_perm *p, uint64_t v)
{
	uint64_t l = v >> p->half_bits, r = v & p->half_mask, t;
	int i;

	for (i = 0; i < 4; i++) {
		t = l ^ s_round(p, r, p->keys[i]);
		l = r;
		r = t;
	}
	return (l << p->half_bits) | r;
}

uint64_t bc_perm_apply(const struct bc_perm *p, uint64_t i)
{
	/* cycle walking: a permutation of the larger domain, restricted to [0, n) */
	do
		i = s_feistel(p, i);
	while (i >= p->n);
	return i;
}

/*
 * Zipf by rejection-inversion: Hoermann & Derflinger, "Rejection-inversion
 * to generate variates from monotone discrete distributions" (ACM TOMACS
 * 1996), in the form of Apache Commons RNG's RejectionInversionZipfSampler.
 * Exact P(k) ~ k^-theta on 1..n for every theta > 0, O(1) per draw, no table.
 */
static double s_helper1(double x) /* log1p(x) / x, stable near 0 */
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double s_helper2(double x) /* expm1(x) / x, stable near 0 */
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double s_zh(const struct bc_dist *d, double x) /* x^-theta */
{
	return exp(-d->z_exp * log(x));
}

static double s_zhint(const struct bc_dist *d, double x) /* integral of x^-theta */
{
	double lx = log(x);

	return s_helper2((1 - d->z_exp) * lx) * lx;
}

static double s_zhint_inv(const struct bc_dist *d, double x)
{
	double t = x * (1 - d->z_exp);

	if (t < -1)
		t = -1;
	return exp(s_helper1(t) * x);
}

static uint64_t s_zipf_rank(struct bc_dist *d, struct bc_rand *r)
{
	double u, x, k;

	for (;;) {
		u = d->z_hn + bc_rand_double(r) * (d->z_hx1 - d->z_hn);
		x = s_zhint_inv(d, u);
		k = floor(x + 0.5);
		if (k < 1)
			k = 1;
		else if (k > (double)d->n)
			k = (double)d->n;
		if (k - x <= d->z_s || u >= s_zhint(d, k + 0.5) - s_zh(d, k))
			return (uint64_t)k - 1;
	}
}

/* Marsaglia's polar method: two independent standard normal deviates per accepted pair */
static double s_gauss(struct bc_dist *d, struct bc_rand *r)
{
	double a, b, s, f;

	if (d->g_have_spare) {
		d->g_have_spare = 0;
		return d->g_spare;
	}
	do {
		a = 2 * bc_rand_double(r) - 1;
		b = 2 * bc_rand_double(r) - 1;
		s = a * a + b * b;
	} while (s >= 1 || s == 0);
	f = sqrt(-2 * log(s) / s);
	d->g_spare = b * f;
	d->g_have_spare = 1;
	return a * f;
}

int bc_dist_init(struct bc_dist *d, const struct bc_dist_spec *spec, uint64_t n, uint64_t seed)
{
	uint64_t lo, hi;
	uint32_t i, cum_a = 0, cum_r = 0;

	*d = (struct bc_dist){.kind = spec->kind, .n = n};
	if (!n)
		return -EINVAL;
	bc_perm_init(&d->perm, n, seed);
	switch (spec->kind) {
	case BC_DIST_ZIPF:
		d->z_exp = spec->param;
		d->z_hx1 = s_zhint(d, 1.5) - 1;
		d->z_hn = s_zhint(d, (double)n + 0.5);
		d->z_s = 2 - s_zhint_inv(d, s_zhint(d, 2.5) - s_zh(d, 2));
		break;
	case BC_DIST_PARETO:
		d->p_inv_a = log(spec->param) / log(1 - spec->param);
		break;
	case BC_DIST_NORMAL:
		d->g_mean = (double)n / 2;
		d->g_sigma = spec->param / 100 * (double)n;
		break;
	case BC_DIST_ZONED:
		d->nzones = spec->nzones;
		for (i = 0; i < spec->nzones; i++) {
			lo = (uint64_t)((unsigned __int128)n * cum_r / 100);
			cum_r += spec->zones[i].range_pct;
			hi = (uint64_t)((unsigned __int128)n * cum_r / 100);
			cum_a += spec->zones[i].access_pct;
			d->z_cum[i] = cum_a;
			d->z_lo[i] = lo;
			d->z_n[i] = hi - lo;
			if (spec->zones[i].access_pct && hi == lo)
				return -EINVAL;
		}
		break;
	default:
		break;
	}
	return 0;
}

/* pareto: 1 - u in (0, 1]: the hottest ranks come from u near 1 */
static uint64_t s_pareto_rank(const struct bc_dist *d, struct bc_rand *r)
{
	uint64_t rank = (uint64_t)((1 - pow(1 - bc_rand_double(r), d->p_inv_a)) * (double)d->n);

	return rank < d->n ? rank : d->n - 1;
}

uint64_t bc_dist_rank(struct bc_dist *d, struct bc_rand *r)
{
	switch (d->kind) {
	case BC_DIST_ZIPF:
		return s_zipf_rank(d, r);
	case BC_DIST_PARETO:
		return s_pareto_rank(d, r);
	default:
		return bc_rand_below(r, d->n);
	}
}

uint64_t bc_dist_next(struct bc_dist *d, struct bc_rand *r)
{
	uint32_t pct, i;
	double x;

	switch (d->kind) {
	case BC_DIST_ZIPF:
		return bc_perm_apply(&d->perm, s_zipf_rank(d, r));
	case BC_DIST_PARETO:
		return bc_perm_apply(&d->perm, s_pareto_rank(d, r));
	case BC_DIST_NORMAL:
		/* truncated to the window by redrawing, so the shape inside is exact */
		do
			x = floor(d->g_mean + d->g_sigma * s_gauss(d, r));
		while (x < 0 || x >= (double)d->n);
		return (uint64_t)x;
	case BC_DIST_ZONED:
		pct = (uint32_t)bc_rand_below(r, 100);
		for (i = 0; pct >= d->z_cum[i]; i++)
			;
		return d->z_lo[i] + bc_rand_below(r, d->z_n[i]);
	default:
		return bc_rand_below(r, d->n);
	}
}
