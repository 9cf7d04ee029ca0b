/*
 * engine/streamgen.h - the job thread's side of multi-stream workloads
 * (common/profile/workload/streams.h): per job and target, a table that picks a stream per
 * I/O by its share (Walker's alias method on one 64-bit draw: one multiply and
 * one compare, whatever the number of streams), and per stream its op, size,
 * offset within its own region (random, sequential, or random with a
 * sequential share and its own cursor, engine/seqmix.h) and FDP placement.
 * Everything is precomputed by bc_sgens_init; a draw reads the tables and the
 * job's own RNG only: no allocation, no locks.
 */
#ifndef BC_ENGINE_STREAMGEN_H
#define BC_ENGINE_STREAMGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/dist.h"
#include "engine/rand.h"
#include "engine/seqmix.h"
#include "profile/profile.h"
#include "wire/stats.h"

/* where a job's writes go: fixed (volume policy or no directive) or a list round-robin */
struct bc_splace {
	int32_t kind; /* BC_PLACEMENT_VOLUME, BC_PLACEMENT_NONE, or 1: idx[] */
	uint32_t n, next;
	int16_t idx[BC_FDP_PIDS_MAX];
};

#define BC_SG_MIX    0x1u /* op drawn per I/O */
#define BC_SG_SPLIT  0x2u /* size drawn per I/O */
#define BC_SG_RANDOM 0x4u
#define BC_SG_DIST   0x8u  /* non-uniform offsets */
#define BC_SG_SEQMIX 0x10u /* random with a sequential share (seq_pct) */

/* one stream in one job */
struct bc_sgen {
	uint32_t flags;			  /* BC_SG_* */
	uint8_t op;			  /* when not BC_SG_MIX */
	uint64_t read_below, write_below; /* BC_SG_MIX on a 32-bit draw */
	uint32_t bs;			  /* when not BC_SG_SPLIT */
	uint32_t nsplit;
	uint32_t split_below[BC_BSSPLIT_MAX];
	uint32_t split_bs[BC_BSSPLIT_MAX];
	uint64_t start, end;		       /* the stream's region, bytes of the target */
	uint64_t align, nunits;		       /* random: start + unit * align */
	uint64_t seq_start, seq_end, seq_next; /* sequential: this job's part of the region */
	struct bc_seqmix sm; /* BC_SG_SEQMIX: from this job's part, within the whole region */
	struct bc_dist dist;
	struct bc_splace place;
	bool used_op[BC_OP_NR];
};

/*
 * The alias table: a draw's high half picks a column i uniformly, its low
 * half keeps stream i when below keep[i], else takes stream alias[i]; the
 * columns are built so that stream i gets exactly its share (to 2^-32)
 */
struct bc_sgens {
	uint32_t n;
	uint32_t keep[BC_STREAMS_MAX];
	uint8_t alias[BC_STREAMS_MAX];
	uint32_t maxbs; /* the largest I/O of any stream, bytes */
	struct bc_sgen g[BC_STREAMS_MAX];
};
_Static_assert(BC_STREAMS_MAX <= 256, "alias indexes are bytes");

/*
 * The placement a job applies: wl's, or a stream's own when it has one
 * (kind 0: inherit). Never fails.
 */
void bc_splace_init(struct bc_splace *p, const struct bc_placement *own,
		    const struct bc_placement *inherit);

/* the next write's placement: -1 (volume policy), -2 (no directive) or an index */
static inline int bc_splace_next(struct bc_splace *p)
{
	int v;

	if (p->kind != 1)
		return p->kind;
	v = p->idx[p->next];
	if (++p->next == p->n)
		p->next = 0;
	return v;
}

/*
 * Precompute wl's streams for job job_index of numjobs on the window
 * [win_start, win_end). lbs > 0 with direct: every size and random alignment
 * must be a multiple of it (O_DIRECT). seed keys the distributions' hot sets
 * (the same for every job of a volume). Returns 0, or -EINVAL with a message
 * (prefixed by path) naming the stream.
 */
int bc_sgens_init(struct bc_sgens *s, const struct bc_workload *wl, const char *path,
		  uint64_t win_start, uint64_t win_end, unsigned job_index, unsigned numjobs,
		  uint32_t lbs, uint64_t seed, char *err, size_t errlen);

/* the stream of a 64-bit draw */
static inline unsigned bc_sgens_pick(const struct bc_sgens *s, uint64_t r)
{
	unsigned i = (unsigned)(((r >> 32) * s->n) >> 32);

	return (uint32_t)r < s->keep[i] ? i : s->alias[i];
}

/* the next I/O of stream g: op, bytes, byte offset and placement (writes only) */
static inline void bc_sgen_next(struct bc_sgen *g, struct bc_rand *rng, uint8_t *op, uint32_t *len,
				uint64_t *off, int *placement)
{
	uint32_t r, i, l = g->bs;
	uint8_t o = g->op;

	if (g->flags & (BC_SG_MIX | BC_SG_SPLIT)) {
		r = (uint32_t)(bc_rand_next(rng) >> 32);
		if (g->flags & BC_SG_MIX)
			o = r < g->read_below	 ? BC_OP_READ
			    : r < g->write_below ? BC_OP_WRITE
						 : BC_OP_TRIM;
		if (g->flags & BC_SG_SPLIT) {
			r = (uint32_t)(bc_rand_next(rng) >> 32);
			for (i = 0; r >= g->split_below[i] && i + 1 < g->nsplit; i++)
				;
			l = g->split_bs[i];
		}
	}
	if ((g->flags & BC_SG_SEQMIX) &&
	    bc_seqmix_fits(&g->sm, bc_seqmix_draw(&g->sm, (uint32_t)(bc_rand_next(rng) >> 32)), l,
			   g->end)) {
		*off = g->sm.next;
		bc_seqmix_done(&g->sm, *off, l);
	} else if ((g->flags & BC_SG_DIST) && g->dist.kind == BC_DIST_HOTBAND) {
		*off = g->start + bc_dist_hotband(&g->dist, rng, l, o == BC_OP_WRITE);
		bc_seqmix_done(&g->sm, *off, l);
	} else if (g->flags & BC_SG_RANDOM) {
		uint64_t u = (g->flags & BC_SG_DIST) ? bc_dist_next(&g->dist, rng)
						     : bc_rand_below(rng, g->nunits);

		*off = g->start + u * g->align;
		bc_seqmix_done(&g->sm, *off, l);
	} else {
		if (g->seq_next + l > g->seq_end)
			g->seq_next = g->seq_start;
		*off = g->seq_next;
		g->seq_next += l;
	}
	*op = o;
	*len = l;
	*placement = o == BC_OP_WRITE ? bc_splace_next(&g->place) : BC_PLACEMENT_VOLUME;
}

#endif
