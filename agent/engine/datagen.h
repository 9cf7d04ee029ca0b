/*
 * datagen.h - the content of writes when a workload asks for data an
 * array can reduce (docs/profiles.md "Data reduction"): compressible
 * chunks and deduplicable units.
 *
 * Compression: every chunk of compress_chunk bytes is random bytes
 * followed by compress_pct percent zeros (fio's buffer_compress_percentage
 * layout), so any compressor working on blocks of a chunk or more sees
 * 100 / (100 - compress_pct) : 1. Deduplication: each dedupe_unit of a write
 * is, with probability dedupe_pct, one of dedupe_sets repeated contents,
 * else unique; over many units that is 100 / (100 - dedupe_pct) : 1.
 *
 * Everything is generated off the I/O path: a pool of compressible units
 * when the job is set up, with which the slot buffers are filled. Per write
 * only the stamps change (BC_JOB_STAMP_BYTES, engine/job.h): a unique unit
 * keeps the buffer's content and gets its offset and sequence number
 * stamped every 4 KiB; a repeated unit is the pool unit of its set with
 * the set's own stamps (one memcpy of the unit), identical wherever it is
 * written. No allocation, no syscall; one job thread per generator.
 */
#ifndef BC_ENGINE_DATAGEN_H
#define BC_ENGINE_DATAGEN_H

#include <stdint.h>
#include <string.h>

#include "engine/rand.h"
#include "profile/workload/workload.h"

/* the second stamp word of a repeated unit: never a job's write sequence number */
#define BC_DATAGEN_SET_MARK 0xdedede0000000000ull

struct bc_datagen {
	uint32_t unit;	    /* dedupe unit, bytes */
	uint32_t chunk;	    /* compression chunk, bytes */
	uint32_t comp_pct;  /* zeros per chunk, percent */
	uint32_t dup_below; /* a 32-bit draw below it: the unit repeats a set; 0: none */
	uint32_t nsets;
	uint32_t npool; /* units in pool */
	uint8_t *pool;	/* npool x unit bytes of compressible random content */
};

/* the workload asks for reducible content (compression or deduplication) */
bool bc_datagen_wanted(const struct bc_workload *wl);

/* the pool for wl's keys, from seed; 0 or -ENOMEM */
int bc_datagen_init(struct bc_datagen *g, const struct bc_workload *wl, uint64_t seed);
void bc_datagen_free(struct bc_datagen *g);

/* fill a slot buffer of len bytes with pool units, starting at pool unit first */
void bc_datagen_fill(const struct bc_datagen *g, void *buf, size_t len, uint64_t first);

/* the stamps of engine/job.h every 4 KiB of [at, at + len) of buf: (off + x, w1) */
static inline void bc_datagen_stamp(uint8_t *buf, uint32_t len, uint64_t off, uint64_t w1)
{
	uint64_t w[2] = {0, w1};
	uint32_t x;

	for (x = 0; x + sizeof(w) <= len; x += 4096) {
		w[0] = off + x;
		memcpy(buf + x, w, sizeof(w));
	}
}

/*
 * The content of one write of len bytes at off (seq: the job's write
 * sequence number), unit by unit: repeated (pool unit of its set, stamped
 * with the set) or unique (stamped with off and seq).
 */
static inline void bc_datagen_write(const struct bc_datagen *g, struct bc_rand *rng, void *buf,
				    uint32_t len, uint64_t off, uint64_t seq)
{
	uint8_t *b = buf;
	uint32_t at, n;
	uint64_t set;

	for (at = 0; at < len; at += n) {
		n = len - at < g->unit ? len - at : g->unit;
		if ((uint32_t)(bc_rand_next(rng) >> 32) < g->dup_below && n == g->unit) {
			set = bc_rand_below(rng, g->nsets);
			memcpy(b + at, g->pool + (set % g->npool) * g->unit, n);
			/* the set's stamps: a 4 KiB piece of it is the same wherever it lands */
			bc_datagen_stamp(b + at, n, set << 20, BC_DATAGEN_SET_MARK | set);
		} else {
			bc_datagen_stamp(b + at, n, off + at, seq);
		}
	}
}

#endif
