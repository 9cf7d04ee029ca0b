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

/*
 * vdbench's hotband curve (its HotBand class): at cumulative probability
 * s_hb_p[i] a cache of s_hb_mb[i] megabytes, linear between points at the
 * slope vdbench gives (megabytes per unit of probability). Every slope is
 * the rise between its points but the last, which is vdbench's own value:
 * its tail ends near 1.31e9, not at the last point.
 */
#define S_HB_POINTS 29
static const double s_hb_p[S_HB_POINTS] = {
    0,	      0.087217, 0.10101,  0.132206, 0.159946, 0.201713, 0.262602, 0.32645,
    0.366902, 0.386175, 0.436941, 0.482631, 0.523752, 0.56076,	0.594068, 0.624045,
    0.651024, 0.675305, 0.697159, 0.716827, 0.734528, 0.750459, 0.764797, 0.777701,
    0.789314, 0.799767, 0.809174, 0.81764,  1,
};
static const double s_hb_mb[S_HB_POINTS] = {
    0,	       16,	  32,	     64,	   128,		  256,	    512,      1024,
    2048,      4096,	  8192,	     16384,	   32768,	  65536,    131072,   262144,
    524288,    1048576,	  2097152,   4194304,	   8388608,	  16777216, 33554432, 67108864,
    134217728, 268435456, 536870912, 1073741824.0, 10737418240.0,
};
static const double s_hb_slope[S_HB_POINTS - 1] = {
    183.4511752,   1159.945628,	  1025.778015,	 2307.172362,  3064.644852,  4204.331611,
    8019.055699,   25313.90019,	  106263.1067,	 80683.52498,  179296.7222,  398437.1604,
    885415.912,	   1967590.916,	  4372424.257,	 9716498.348,  21592218.55,  47982707.89,
    106628239.8,   236951643.9,	  526559208.7,	 1170131575.0, 2600292389.0, 5778427530.0,
    12840950067.0, 28535444594.0, 63412099098.0, 1313220630.0,
};

int bc_dist_hotband_init(struct bc_dist *d, uint64_t band_bytes, uint32_t max_len)
{
	d->hb_bytes = band_bytes / 1000000 * 1000000;
	return d->hb_bytes && d->hb_bytes >= max_len ? 0 : -EINVAL;
}

uint64_t bc_dist_hotband(const struct bc_dist *d, struct bc_rand *r, uint32_t len, bool write)
{
	double u = bc_rand_double(r);
	unsigned lo = 0, hi = S_HB_POINTS - 2, mid;
	uint64_t mb, blocks = d->hb_bytes / len, blk;

	/* the segment [p[lo], p[lo + 1]) holding u */
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (s_hb_p[mid] <= u)
			lo = mid;
		else
			hi = mid - 1;
	}
	/* whole megabytes, as vdbench truncates them; times 1000 its byte offset */
	mb = (uint64_t)((u - s_hb_p[lo]) * s_hb_slope[lo] + s_hb_mb[lo]);
	blk = mb * 1000 / len;
	/* writes step 1% of the band away from its hottest blocks */
	if (write)
		blk += blocks / 100;
	return blk % blocks * len;
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
