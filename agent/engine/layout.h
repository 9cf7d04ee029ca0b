/*
 * engine/layout.h - laying a file volume out before it is read, as fio does
 * (filesetup.c: a file it creates or extends for a job that reads is written
 * out first): the ranges of a file not backed by written data (unwritten
 * extents left by fallocate, holes) are written once, sequentially, in
 * BC_LAYOUT_BS blocks with BC_LAYOUT_QD in flight through io_uring, with
 * O_DIRECT when the step that reads is direct; then fdatasync, and the
 * file's pages are dropped from the page cache (fio's invalidate=1), so the
 * step reads from the device. The blocks carry random data, each 4 KiB with
 * a valid verify header (its offset, a CRC): nothing a device could
 * compress or deduplicate, and nothing a verify read would take for foreign
 * data. Ranges are 4 KiB-aligned (bc_layout_add), as verify's blocks are.
 * One thread writes every volume in turn; the control thread reads its
 * progress once a second and may cancel it.
 */
#ifndef BC_ENGINE_LAYOUT_H
#define BC_ENGINE_LAYOUT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "profile/profile.h"

#define BC_LAYOUT_BS	 (1u << 20) /* 1 MiB: large sequential writes, split by the block layer */
#define BC_LAYOUT_QD	 4	    /* in flight: enough to keep a device's write path busy */
#define BC_LAYOUT_WRITER UINT64_MAX /* the verify header's writer of a laid-out block */

struct bc_target;

struct bc_layout_vol {
	int volume; /* index in the PREPARE body */
	char path[BC_PATH_MAX];
	bool direct;
	/*
	 * a file set (target/fileset.c), or NULL: each of its files is written
	 * from what it held before PREPARE to its end, buffered, then synced and
	 * dropped from the page cache; ranges are not used. files counts them.
	 */
	const struct bc_target *fs;
	uint32_t files;
	int nranges, cap;
	struct bc_layout_range {
		uint64_t off, len;
	} * r;		/* byte ranges to write, ascending; owned */
	uint64_t bytes; /* their sum */
	/* results, valid once bc_layout_done */
	_Atomic uint64_t done; /* bytes written so far (read by the control thread) */
	double seconds;
	int rc;
	char err[256];
};

/* add [off, off + len) to v's ranges; 0 or -ENOMEM */
int bc_layout_add(struct bc_layout_vol *v, uint64_t off, uint64_t len);
/* frees v's ranges */
void bc_layout_vol_free(struct bc_layout_vol *v);

struct bc_layout;

/* start writing vols[0..n) (owned by the caller until bc_layout_stop); 0 or -errno */
int bc_layout_start(struct bc_layout **out, struct bc_layout_vol *vols, int n);
/* every volume written, failed or cancelled */
bool bc_layout_done(const struct bc_layout *l);
/* cancel (when not done), join and free; *l NULL after; NULL is fine */
void bc_layout_stop(struct bc_layout **l);

#endif
