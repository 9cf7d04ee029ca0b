/*
 * engine/dist.h - where random I/O goes: offset distributions over the units of
 * a volume's window (uniform, zipf, pareto, normal, zoned) and a keyed
 * bijection of [0, n) that scatters ranked (hot-first) units over the window
 * and walks every unit exactly once for one-pass random workloads.
 *
 * Every draw is O(1) with no table: n may be billions of blocks. The state
 * is per job thread (no locks); a sampler only reads its struct after
 * bc_dist_init. Shapes and their analytic forms: docs/engine.md.
 */
#ifndef BC_ENGINE_DIST_H
#define BC_ENGINE_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/rand.h"
#include "profile/profile.h"

/*
 * A bijection of [0, n): a 4-round Feistel network on the smallest
 * even-width power-of-two domain >= n, walked in cycles until the value
 * falls inside [0, n) (fewer than 4 rounds of the network on average).
 */
struct bc_perm {
	uint64_t n;
	unsigned half_bits;
	uint64_t half_mask;
	uint64_t keys[4];
};

/* n >= 1; the same (n, seed) always gives the same permutation */
void bc_perm_init(struct bc_perm *p, uint64_t n, uint64_t seed);
uint64_t bc_perm_apply(const struct bc_perm *p, uint64_t i);

struct bc_dist {
	enum bc_dist_kind kind;
	uint64_t n;	     /* units: draws are in [0, n) */
	struct bc_perm perm; /* zipf, pareto: rank -> unit, so hot units are scattered */
	/* zipf by rejection-inversion (Hoermann & Derflinger 1996) */
	double z_exp, z_hx1, z_hn, z_s;
	/* pareto: rank fraction = 1 - u^(1/a), a = log(1-h) / log(h) */
	double p_inv_a;
	/* normal: centre and sigma in units; a spare polar-method deviate */
	double g_mean, g_sigma, g_spare;
	int g_have_spare;
	/* zoned: zone i takes I/Os with percent draw < z_cum[i], units [z_lo[i], z_lo[i] + z_n[i])
	 */
	uint32_t nzones;
	uint32_t z_cum[BC_ZONES_MAX];
	uint64_t z_lo[BC_ZONES_MAX];
	uint64_t z_n[BC_ZONES_MAX];
	/* hotband: the band's bytes, whole 10^6 as vdbench counts them */
	uint64_t hb_bytes;
};

/*
 * Prepare a sampler over n >= 1 units. seed keys the rank permutation: use
 * the same seed in every job of a volume so they share one hot set.
 * Returns 0, or -EINVAL when a zone with I/Os gets no unit (window too small).
 */
int bc_dist_init(struct bc_dist *d, const struct bc_dist_spec *spec, uint64_t n, uint64_t seed);

/* one unit in [0, n); job thread only (hotband: uniform, see bc_dist_hotband) */
uint64_t bc_dist_next(struct bc_dist *d, struct bc_rand *r);

/*
 * vdbench's hotband over a band of band_bytes (the window or region, from
 * its start), for I/Os of at most max_len bytes: vdbench counts the band in
 * whole 10^6 bytes and refuses one below that. 0, or -EINVAL when the band
 * is smaller than 10^6 bytes or than max_len.
 */
int bc_dist_hotband_init(struct bc_dist *d, uint64_t band_bytes, uint32_t max_len);

/*
 * The byte offset in the band of the next random I/O of len bytes, a
 * multiple of len, as vdbench's HotBand draws it: a uniform u maps
 * through vdbench's piecewise-linear curve of the probability of access
 * against a cache size, the size in megabytes times 1000 is the byte
 * offset (vdbench's own scale: 8.7% of the I/Os in the first 16 KB, a
 * third in the first 1 MB, 70% in the first 2 GB), a write goes 1% of the
 * band's blocks further, and the block wraps at the band's end. O(1), no
 * allocation; job thread only.
 */
uint64_t bc_dist_hotband(const struct bc_dist *d, struct bc_rand *r, uint32_t len, bool write);

/*
 * One rank in [0, n), 0 the hottest, before zipf and pareto scatter ranks
 * over the window (other kinds: uniform); the KV workload's popularity
 * among live objects, newest first. Job thread only.
 */
uint64_t bc_dist_rank(struct bc_dist *d, struct bc_rand *r);

#endif
