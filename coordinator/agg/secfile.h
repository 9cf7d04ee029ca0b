/*
 * agg/secfile.h - seconds.bin, the per-second record of a run: every closed
 * second of every step, at every level (volume, agent, node, total), as
 * exact integer counters and the second's percentiles, plus the sparse
 * histograms of the merged levels, written as each second closes; an index
 * at the end. The figures of run.json's series and timeseries.csv are read
 * back from it one entity at a time, so no per-second tree is ever held.
 * Layout, and why: docs/results.md. events.jsonl stays the source of truth
 * (bench-coord report --rebuild writes this file again from it).
 *
 * File: a 16-byte header ("BCSECS01", u32 version, u32 flags), then frames
 * [u8 type][u32 payload length][u32 CRC-32 of the payload][payload], all
 * integers little-endian, then the index frame and a 16-byte trailer
 * ("BCSECIDX", u64 offset of the index frame). A file without the trailer
 * (a coordinator that died, or still running) is read by scanning its
 * frames; a frame cut short ends the scan and the file reads as truncated.
 */
#ifndef BC_AGG_SECFILE_H
#define BC_AGG_SECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agg/types.h"

#define BC_SECF_NAME "seconds.bin"
/*
 * 2: a histogram frame lists BC_OP_NR ops (read, write, trim, meta);
 * version 1 listed three, and is still read
 */
#define BC_SECF_VERSION 2

enum bc_secf_frame {
	BC_SECF_STEP = 1,  /* a step: ordinal, profile index, name, seconds, entity names */
	BC_SECF_ROWS = 2,  /* second k of a step: every entity's row (a later one supersedes) */
	BC_SECF_HIST = 3,  /* second k of a step: the histograms of some entities */
	BC_SECF_END = 4,   /* a step's end: its final number of seconds */
	BC_SECF_INDEX = 5, /* where every step and second is */
};

/* writer: one per run directory, on one thread */
struct bc_secw;
int bc_secw_open(struct bc_secw **w, const char *path, char *err, size_t errlen);
/* write the index and the trailer, close, free (w may be NULL); 0 or -errno */
int bc_secw_close(struct bc_secw *w);
/* make what was written readable by another reader (bc_secr_open) */
int bc_secw_flush(struct bc_secw *w);
/* the writer's first failure (-errno, sticky; 0 while none) and its file */
int bc_secw_error(const struct bc_secw *w);
const char *bc_secw_path(const struct bc_secw *w);
/* the step g aggregates, as ordinal ord (its run.json "seconds_bin_step") */
int bc_secw_step(struct bc_secw *w, uint32_t ord, int profile_idx, const char *name,
		 const struct bc_agg *g);
/* every entity's row of second k */
int bc_secw_rows(struct bc_secw *w, uint32_t ord, const struct bc_agg *g, uint32_t k);
/*
 * second k's histograms: begin, one add per entity with buckets (op o's
 * bucket lo + j at ops[o][j], j < n; ops[o] NULL: none), end writes them
 */
int bc_secw_hist_begin(struct bc_secw *w, uint32_t ord, uint32_t k);
int bc_secw_hist_add(struct bc_secw *w, int lvl, int i, uint32_t lo, uint32_t n,
		     const uint64_t *const ops[BC_OP_NR]);
int bc_secw_hist_end(struct bc_secw *w);
/* the step's end, with its final number of seconds (after a size-based trim) */
int bc_secw_end(struct bc_secw *w, uint32_t ord, uint32_t seconds);

/* reader */
struct bc_secr_step {
	uint32_t ord;
	int profile_idx;
	char name[BC_NAME_MAX];
	uint32_t seconds; /* planned (STEP); the final count once END was read */
	uint32_t ramp_s;
	bool ended;		       /* its END frame is there */
	int nent[BC_LVL_NR];	       /* entities per level */
	char **names[BC_LVL_NR];       /* [nent] */
	uint64_t *rows_off, *hist_off; /* [planned seconds], 0: not written */
	int *sorted[BC_LVL_NR];	       /* names sorted (bc_secr_find), built when asked */
};

struct bc_secr_cache; /* secfile.c: blocks of the rows frames, one reader on one thread */

struct bc_secr {
	int fd;
	char path[BC_PATH_MAX];
	uint64_t size;
	bool indexed;	/* the index and trailer were there */
	bool truncated; /* no trailer and a frame cut short (or a bad one) at valid_bytes */
	uint64_t valid_bytes;
	uint32_t nsteps; /* steps[0, nsteps): by ordinal, NULL where none */
	struct bc_secr_step **steps;
	uint64_t frames;	     /* frames read by a scan (0 when indexed) */
	int nops;		     /* op lists per histogram entry: 3 in version 1 */
	struct bc_secr_cache *cache; /* bc_secr_row's reads; NULL: none (out of memory) */
};

/* open and index path; check_crc: verify every frame (reads the whole file) */
int bc_secr_open(struct bc_secr *r, const char *path, bool check_crc, char *err, size_t errlen);
void bc_secr_close(struct bc_secr *r);
/* step ord, NULL when the file has none */
const struct bc_secr_step *bc_secr_step(const struct bc_secr *r, uint32_t ord);
/* the index of an entity of level lvl named name in step s (any, if several), -1 when none */
int bc_secr_find(const struct bc_secr *r, uint32_t ord, int lvl, const char *name);
/*
 * the first entity i >= from of level lvl named name in step ord, -1 when
 * none. Volume names repeat ("a:null" for each null volume of agent a):
 * a list of them in profile order (run.json's volumes[], which leaves out
 * whole agents) is matched by walking it with this, from the last match + 1.
 */
int bc_secr_next(const struct bc_secr *r, uint32_t ord, int lvl, int from, const char *name);
/*
 * entity (lvl, i)'s row of second k: 0, or -ENOENT when k was never
 * written (the row is zeroed: no record), -EIO/-EBADMSG on a bad file
 */
int bc_secr_row(const struct bc_secr *r, uint32_t ord, uint32_t k, int lvl, int i,
		struct bc_secrow *row);
/*
 * entity (lvl, i)'s histograms of second k into h[op] (reset first): 0,
 * -ENOENT when the file has none for it (volumes and agents: events.jsonl)
 */
int bc_secr_hist(const struct bc_secr *r, uint32_t ord, uint32_t k, int lvl, int i,
		 struct bc_hist h[BC_OP_NR]);

/*
 * second k's histograms, every entity in one walk of its frame: each
 * entity's buckets are added into dst(arg, lvl, i)[op] (NULL: skipped).
 * 0, -ENOENT when the second has no HIST frame, -EIO/-EBADMSG
 */
int bc_secr_hist_all(const struct bc_secr *r, uint32_t ord, uint32_t k,
		     struct bc_hist *(*dst)(void *arg, int lvl, int i), void *arg);

/*
 * an entity's per-second series (run.json "series") from its rows [seconds]:
 * the one rule, for rows in memory (results.c) and read back from the file;
 * second k's row is rows[k * stride] (an entity's: bc_entity_row);
 * rep: agents reported per second (the total's), or NULL
 */
cJSON *bc_secrow_series_json(const struct bc_secrow *rows, size_t stride, uint32_t seconds,
			     const uint32_t *rep);

/* CRC-32 (IEEE 802.3, as zlib), over len bytes, continuing from crc (0 to start) */
uint32_t bc_secf_crc32(uint32_t crc, const void *p, size_t len);

#endif
