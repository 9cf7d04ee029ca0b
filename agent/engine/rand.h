/*
 * engine/rand.h - the engine's random numbers: xoshiro256** (Blackman & Vigna,
 * public domain) seeded through splitmix64, uniform integers by
 * multiply-high and doubles in [0, 1). No libc rand, no locks: each job
 * thread owns its state.
 */
#ifndef BC_ENGINE_RAND_H
#define BC_ENGINE_RAND_H

#include <stdint.h>

struct bc_rand {
	uint64_t s[4];
};

static inline uint64_t bc_rand_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t bc_rand_next(struct bc_rand *r)
{
	uint64_t *s = r->s;
	uint64_t v = bc_rand_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = bc_rand_rotl(s[3], 45);
	return v;
}

/* splitmix64: the seeding generator xoshiro's authors recommend */
static inline uint64_t bc_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void bc_rand_seed(struct bc_rand *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = bc_splitmix64(&seed);
}

/*
 * Uniform in [0, n) by multiply-high (Lemire): no division, and a bias of
 * at most n / 2^64, far below anything a benchmark can see.
 */
static inline uint64_t bc_rand_below(struct bc_rand *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)bc_rand_next(r) * n) >> 64);
}

/* uniform double in [0, 1) with 53 random bits */
static inline double bc_rand_double(struct bc_rand *r)
{
	return (double)(bc_rand_next(r) >> 11) * 0x1.0p-53;
}

#endif
