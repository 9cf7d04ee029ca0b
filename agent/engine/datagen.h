/*
 * datagen.h - the content of writes when a workload asks for data an
 * array can reduce (docs/profiles.md "Data reduction"): compressible
 * chunks and deduplicable units.
 *
 * Compression: every chunk of compress_chunk bytes is random bytes
 * followed by compress_pct percent zeros, or the buffer_pattern repeated
 * (fio's buffer_compress_percentage layout), so any compressor working on
 * blocks of a chunk or more sees 100 / (100 - compress_pct) : 1. At 100
 * percent a write is the pattern (or zeros) and nothing else, unstamped;
 * with "scramble" fio's small_content_scramble is written over it per
 * write (every 512 bytes: its offset at the start of one of its 64-byte
 * lines, a time at the line's end), as fio does to such buffers. Deduplication: each dedupe_unit of
 * a write is, with probability dedupe_pct, a repeat, else new. A repeat is either the new unit this
 * job made last (dedupe_sets 0, fio's dedupe_mode=repeat: 100 / (100 - dedupe_pct) : 1, and a
 * repeat lands near what it repeats, so overwriting a device keeps the ratio) or one of dedupe_sets
 * contents (vdbench's sets: total / (new + sets) : 1).
 *
 * Everything is generated off the I/O path: a pool of compressible units
 * when the job is set up, with which the slot buffers are filled. Per write
 * only stamps change (BC_JOB_STAMP_BYTES, engine/job.h) and, with dedupe, a
 * unit is copied from the pool: new unit number u of this job is pool unit
 * u (mod its size) stamped with u every 4 KiB, so repeating unit u later
 * copies the same bytes again; a set's unit is stamped with its set. No
 * allocation, no syscall; one job thread per generator.
 */
#ifndef BC_ENGINE_DATAGEN_H
#define BC_ENGINE_DATAGEN_H

#include <stdint.h>
#include <string.h>

#include "engine/rand.h"
#include "profile/workload/workload.h"

/* the second stamp word of a set's unit and of a numbered one: never a sequence number */
#define BC_DATAGEN_SET_MARK 0xdedede0000000000ull
#define BC_DATAGEN_NEW_MARK 0xdedeee0000000000ull

struct bc_datagen {
	uint32_t unit;	    /* dedupe unit, bytes */
	uint32_t chunk;	    /* compression chunk, bytes */
	uint32_t comp_pct;  /* zeros per chunk, percent */
	uint32_t dup_below; /* a 32-bit draw below it: the unit repeats a set; 0: none */
	uint32_t nsets;
	uint32_t npool; /* units in pool */
	bool whole;	/* compress 100: the pattern (or zeros) only, no stamps */
	bool scramble;	/* whole: fio's scramble per write */
	uint32_t plen;	/* pattern bytes, 0: zeros */
	uint8_t pat[BC_PATTERN_MAX];
	uint8_t *pool; /* npool x unit bytes of compressible random content */
	uint64_t made; /* new units written so far (dedupe_sets 0: a repeat is the last one) */
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
 * fio's small_content_scramble of a write of len bytes at off, at time
 * ns: in each 512 bytes, on the 64-byte line (ns ^ off) & 7, the block's
 * offset at its start and the time (seconds, nanoseconds) at its end
 */
static inline void bc_datagen_scramble(void *buf, uint32_t len, uint64_t off, uint64_t ns)
{
	uint64_t t[2] = {ns / 1000000000ull, ns % 1000000000ull};
	uint8_t *p = (uint8_t *)buf + (((ns ^ off) & 7) << 6);
	uint32_t i;

	for (i = 0; i + 512 <= len; i += 512, p += 512, off += 512) {
		memcpy(p, &off, sizeof(off));
		memcpy(p + 64 - sizeof(t), t, sizeof(t));
	}
}

/*
 * The content of one write of len bytes at off (seq: the job's write
 * sequence number), unit by unit: a repeat (of a set, or of a unit written
 * before) or new; a partial last unit is new, stamped with off and seq.
 */
static inline void bc_datagen_write(struct bc_datagen *g, struct bc_rand *rng, void *buf,
				    uint32_t len, uint64_t off, uint64_t seq)
{
	uint8_t *b = buf;
	uint32_t at, n;
	uint64_t u, mark;

	for (at = 0; at < len; at += n) {
		n = len - at < g->unit ? len - at : g->unit;
		if (n < g->unit) {
			bc_datagen_stamp(b + at, n, off + at, seq);
			continue;
		}
		if ((uint32_t)(bc_rand_next(rng) >> 32) < g->dup_below && (g->nsets || g->made)) {
			/* fio's repeat: the unit made just before, so a repeat lands beside it */
			u = g->nsets ? bc_rand_below(rng, g->nsets) : g->made - 1;
			mark = g->nsets ? BC_DATAGEN_SET_MARK : BC_DATAGEN_NEW_MARK;
		} else {
			u = g->made++;
			mark = BC_DATAGEN_NEW_MARK;
		}
		/* unit u's bytes: the same wherever and whenever it is written */
		memcpy(b + at, g->pool + (u % g->npool) * g->unit, n);
		bc_datagen_stamp(b + at, n, u << 20, mark | (u & 0xffffffffffull));
	}
}

#endif
