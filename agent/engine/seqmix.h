/*
 * engine/seqmix.h - the one rule of a random workload's sequential share
 * ("seq_pct": fio's percentage_random, vdbench's seekpct), for a volume's
 * one workload (engine/job.c) and for each stream of a multi-stream one
 * (engine/streamgen.h) alike: an I/O continues where the one before it
 * ended, by the same workload or stream in the same job, with probability
 * seq_pct, while it fits before the end of its region; else it takes a
 * random offset. Either way the next one may continue from its end.
 */
#ifndef BC_ENGINE_SEQMIX_H
#define BC_ENGINE_SEQMIX_H

#include <stdbool.h>
#include <stdint.h>

struct bc_seqmix {
	uint32_t below; /* a 32-bit draw below it continues */
	uint64_t next;	/* where the last I/O ended */
};

/* seq_pct 0..100 from start (the job's first offset in its region) */
static inline void bc_seqmix_init(struct bc_seqmix *m, uint32_t seq_pct, uint64_t start)
{
	m->below = seq_pct >= 100 ? UINT32_MAX : (uint32_t)(((uint64_t)seq_pct << 32) / 100);
	m->next = start;
}

/* the I/O of len bytes continues at m->next (cont: the draw, or a caller's run rule) */
static inline bool bc_seqmix_fits(const struct bc_seqmix *m, bool cont, uint32_t len, uint64_t end)
{
	return cont && m->next + len <= end;
}

/* the draw r continues the run */
static inline bool bc_seqmix_draw(const struct bc_seqmix *m, uint32_t r)
{
	return r < m->below;
}

/* the I/O went to [off, off + len): the next one may continue from its end */
static inline void bc_seqmix_done(struct bc_seqmix *m, uint64_t off, uint32_t len)
{
	m->next = off + len;
}

#endif
