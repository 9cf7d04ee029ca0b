/*
 * agg/rhist.c - range histograms and their free list (agg/rhist.h).
 *   the free list - bc_rhist_get (4 KiB size classes), bc_rhist_put, bc_rhist_free_list
 *   growing - bc_rhist_grow: the range widened with slack on both sides
 *   merging - bc_rhist_merge
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agg/rhist.h"
#include "wire/hist.h"
#include "wire/stats.h"

/* buckets added on each side when a histogram grows, so that it seldom grows twice */
#define S_SLACK 256

struct bc_rhist *bc_rhist_get(struct bc_rhist **freel, uint32_t n)
{
	struct bc_rhist *h = *freel;
	/* 4 KiB size classes: most seconds of most entities fit the first */
	uint32_t cap = (n + 511) & ~511u;

	if (h) {
		*freel = h->next;
		if (h->cap < n) {
			free(h); /* the list must not grow with blocks nobody can use */
			h = NULL;
		}
	}
	if (!h) {
		h = malloc(sizeof(*h) + (size_t)cap * BC_OP_NR * sizeof(uint64_t));
		if (!h)
			return NULL;
		h->cap = cap;
	}
	memset(h->b, 0, (size_t)h->cap * BC_OP_NR * sizeof(uint64_t));
	h->count = 0;
	h->next = NULL;
	return h;
}

void bc_rhist_put(struct bc_rhist **freel, struct bc_rhist *h)
{
	if (!h)
		return;
	h->next = *freel;
	*freel = h;
}

void bc_rhist_free_list(struct bc_rhist **freel)
{
	while (*freel) {
		struct bc_rhist *h = *freel;

		*freel = h->next;
		free(h);
	}
}

int bc_rhist_grow(struct bc_rhist **freel, struct bc_rhist **hp, uint32_t lo, uint32_t hi)
{
	struct bc_rhist *h = *hp, *nh;
	uint32_t nlo, nhi;
	int o;

	if (h && lo >= h->lo && hi <= h->lo + h->n)
		return 0;
	nlo = lo > S_SLACK ? lo - S_SLACK : 0;
	nhi = hi + S_SLACK < BC_HIST_BUCKETS ? hi + S_SLACK : BC_HIST_BUCKETS;
	if (h) {
		nlo = nlo < h->lo ? nlo : h->lo;
		nhi = nhi > h->lo + h->n ? nhi : h->lo + h->n;
	}
	nh = bc_rhist_get(freel, nhi - nlo);
	if (!nh)
		return -ENOMEM;
	nh->lo = nlo;
	nh->n = nhi - nlo;
	if (h) {
		nh->count = h->count;
		for (o = 0; o < BC_OP_NR; o++)
			memcpy(&nh->b[(size_t)o * nh->cap + (h->lo - nlo)],
			       &h->b[(size_t)o * h->cap], (size_t)h->n * sizeof(uint64_t));
		bc_rhist_put(freel, h);
	}
	*hp = nh;
	return 0;
}

int bc_rhist_merge(struct bc_rhist **freel, struct bc_rhist **dst, const struct bc_rhist *src)
{
	struct bc_rhist *h;
	uint32_t j;
	int o;

	if (bc_rhist_cover(freel, dst, src->lo, src->lo + src->n))
		return -ENOMEM;
	h = *dst;
	for (o = 0; o < BC_OP_NR; o++) {
		uint64_t *d = &h->b[(size_t)o * h->cap + (src->lo - h->lo)];
		const uint64_t *s = &src->b[(size_t)o * src->cap];

		for (j = 0; j < src->n; j++)
			d[j] += s[j];
	}
	h->count += src->count;
	return 0;
}
