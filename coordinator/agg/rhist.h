/*
 * agg/rhist.h - a histogram over the range of its non-empty buckets, per
 * op (a node's or the total's open second), and the free list that keeps
 * closed seconds' histograms for reuse: freeing thousands a second makes
 * glibc hand the memory back to the kernel and fault it in again.
 *   bc_rhist_get, bc_rhist_put, bc_rhist_free_list - the free list
 *   bc_rhist_cover - a histogram grown to cover a range of buckets
 *   bc_rhist_merge - one histogram added into another
 */
#ifndef BC_AGG_RHIST_H
#define BC_AGG_RHIST_H

#include <stdint.h>

/* buckets [lo, lo + n) of each op, op o at b[o * cap] */
struct bc_rhist {
	uint32_t lo, n, cap;
	uint64_t count;
	struct bc_rhist *next; /* on the free list */
	uint64_t b[];
};

/* a zeroed histogram of at least n buckets per op, from *freel when one fits; NULL: no memory */
struct bc_rhist *bc_rhist_get(struct bc_rhist **freel, uint32_t n);
/* h (may be NULL) onto the free list */
void bc_rhist_put(struct bc_rhist **freel, struct bc_rhist *h);
/* every histogram of the free list freed */
void bc_rhist_free_list(struct bc_rhist **freel);
/* bc_rhist_cover when *hp does not cover [lo, hi) yet */
int bc_rhist_grow(struct bc_rhist **freel, struct bc_rhist **hp, uint32_t lo, uint32_t hi);

/*
 * make *hp cover buckets [lo, hi) (NULL: a new histogram); 0 or -ENOMEM
 * (the histogram is unchanged then). Inline: a volume's record asks once,
 * and nearly always its node's second covers it already.
 */
static inline int bc_rhist_cover(struct bc_rhist **freel, struct bc_rhist **hp, uint32_t lo,
				 uint32_t hi)
{
	const struct bc_rhist *h = *hp;

	if (h && lo >= h->lo && hi <= h->lo + h->n)
		return 0;
	return bc_rhist_grow(freel, hp, lo, hi);
}

/* every bucket of src into *dst (grown to cover them); 0 or -ENOMEM */
int bc_rhist_merge(struct bc_rhist **freel, struct bc_rhist **dst, const struct bc_rhist *src);

#endif
