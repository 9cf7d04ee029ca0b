/*
 * datagen.c - the pool of compressible units behind reducible writes (see
 * engine/datagen.h; the per-write part is inline there). Built when a job is
 * set up, never on the I/O path.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/datagen.h"

/* the pool: enough distinct units that a 32 KiB compression window never sees one twice */
#define S_POOL_BYTES (1u << 20)
#define S_POOL_MIN   16u
#define S_CHUNK_DEF  512u
#define S_UNIT_DEF   4096u

bool bc_datagen_wanted(const struct bc_workload *wl)
{
	return wl->compress_pct || wl->dedupe_pct;
}

/* n bytes of the pattern from its start (fio's cpy_pattern), or zeros without one */
static void s_pattern(const struct bc_datagen *g, uint8_t *p, uint32_t n)
{
	uint32_t i;

	if (!g->plen) {
		memset(p, 0, n);
		return;
	}
	for (i = 0; i < n; i++)
		p[i] = g->pat[i % g->plen];
}

/* one unit: per chunk, random bytes then comp_pct percent zeros (or the pattern) */
static void s_unit(const struct bc_datagen *g, struct bc_rand *rng, uint8_t *u)
{
	uint32_t at, n, rnd, i;
	uint64_t w;

	if (g->whole) { /* the pattern runs on over the whole unit, as over fio's buffer */
		for (at = 0; at < g->unit; at++)
			u[at] = g->plen ? g->pat[at % g->plen] : 0;
		return;
	}
	for (at = 0; at < g->unit; at += n) {
		n = g->unit - at < g->chunk ? g->unit - at : g->chunk;
		rnd = (uint32_t)((uint64_t)n * (100 - g->comp_pct) / 100);
		for (i = 0; i < rnd; i += 8) {
			w = bc_rand_next(rng);
			memcpy(u + at + i, &w, rnd - i < 8 ? rnd - i : 8);
		}
		s_pattern(g, u + at + rnd, n - rnd);
	}
}

int bc_datagen_init(struct bc_datagen *g, const struct bc_workload *wl, uint64_t seed)
{
	struct bc_rand rng;
	uint32_t i;

	memset(g, 0, sizeof(*g));
	g->unit = wl->dedupe_unit ? wl->dedupe_unit : S_UNIT_DEF;
	g->chunk = wl->compress_chunk ? wl->compress_chunk : S_CHUNK_DEF;
	g->comp_pct = wl->compress_pct;
	g->whole = wl->compress_pct >= 100;
	g->scramble = g->whole && wl->scramble;
	g->plen = wl->pattern_len;
	memcpy(g->pat, wl->pattern, sizeof(g->pat));
	/* a whole pattern's units must join up: a unit of whole patterns */
	if (g->whole && g->plen && !wl->dedupe_unit && S_UNIT_DEF >= g->plen)
		g->unit = S_UNIT_DEF / g->plen * g->plen;
	g->nsets = wl->dedupe_sets; /* 0: repeats are of units written before */
	/* dedupe_pct percent of the 2^32 draws, 100 percent being every one */
	g->dup_below =
	    wl->dedupe_pct >= 100 ? UINT32_MAX : (uint32_t)(((uint64_t)wl->dedupe_pct << 32) / 100);
	g->npool = S_POOL_BYTES / g->unit;
	if (g->npool < S_POOL_MIN)
		g->npool = S_POOL_MIN;
	g->pool = malloc((size_t)g->npool * g->unit);
	if (!g->pool)
		return -ENOMEM;
	bc_rand_seed(&rng, seed ^ 0x62632d6461746167ull);
	for (i = 0; i < g->npool; i++)
		s_unit(g, &rng, g->pool + (size_t)i * g->unit);
	return 0;
}

void bc_datagen_free(struct bc_datagen *g)
{
	free(g->pool);
	g->pool = NULL;
}

void bc_datagen_fill(const struct bc_datagen *g, void *buf, size_t len, uint64_t first)
{
	uint8_t *b = buf;
	size_t at, n;

	for (at = 0; at < len; at += n, first++) {
		n = len - at < g->unit ? len - at : g->unit;
		memcpy(b + at, g->pool + (first % g->npool) * g->unit, n);
	}
}
