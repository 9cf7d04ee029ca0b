/*
 * results/files/reclog.h - records.bin, the run's raw record log (reclog.c): every
 * STATS body exactly as an agent sent it, one frame per record, in the
 * order the records arrived. events.jsonl keeps one short "stats" line per
 * record that names the frame by its offset ("rec"), so the log of
 * everything that happened stays one ordered text file while the bytes of
 * the histograms live here. Format, and why: docs/results.md.
 *
 * File: a 16-byte header ("BCRECS01", u32 version, u32 flags), then frames
 * [u32 payload length][u32 CRC-32 of the payload][payload], little-endian.
 * Payload: u8 codec (0: the body as is, 1: zlib, RFC 1950), varint
 * time_ns (coordinator CLOCK_REALTIME when it arrived), varint length +
 * the agent's name, varint length of the body, then the body (compressed
 * with codec 1). No index or trailer: a file cut short reads up to its last
 * whole frame; events.jsonl is the index.
 */
#ifndef BC_RESULTS_RECLOG_H
#define BC_RESULTS_RECLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

#define BC_RECLOG_NAME	  "records.bin"
#define BC_RECLOG_VERSION 1
#define BC_RECLOG_HDR	  16 /* the first frame's offset */

enum bc_reclog_codec { BC_RECLOG_RAW = 0, BC_RECLOG_ZLIB = 1 };

/* writer: one per run directory, used by one thread at a time */
struct bc_reclogw;
/* create path (truncating it); level: zlib level 1-9 (Huffman coding only), 0 to store */
int bc_reclogw_open(struct bc_reclogw **w, const char *path, int level, char *err, size_t errlen);
/* open path to append at end (a resumed run: a frame past it is cut off); end <= the header: create
 */
int bc_reclogw_open_at(struct bc_reclogw **w, const char *path, int level, uint64_t end, char *err,
		       size_t errlen);
/* append one record; *off: its frame's offset, what events.jsonl's "rec" says. 0 or -errno */
int bc_reclogw_put(struct bc_reclogw *w, const char *agent, uint64_t time_ns, const uint8_t *body,
		   size_t len, uint64_t *off);
/* what was appended reaches the file (before the events.jsonl lines naming it) */
int bc_reclogw_flush(struct bc_reclogw *w);
/* flush, close, free (w may be NULL); 0 or the first error */
int bc_reclogw_close(struct bc_reclogw *w);

/* one record read back: body valid until the next read from the same reader */
struct bc_reclog_rec {
	uint64_t off, next; /* this frame's offset, the next one's */
	uint64_t time_ns;
	int codec;
	char agent[BC_NAME_MAX];
	const uint8_t *body;
	size_t len;    /* of the body, uncompressed */
	size_t stored; /* bytes of the payload (what the frame costs, less its 8-byte header) */
};

struct bc_reclogr {
	int fd;
	char path[BC_PATH_MAX];
	uint64_t size;
	uint8_t *buf, *out; /* the payload, the inflated body */
	size_t buf_cap, out_cap;
};

int bc_reclogr_open(struct bc_reclogr *r, const char *path, char *err, size_t errlen);
/*
 * the record whose frame is at off, its CRC checked: 0; -ENOENT when the
 * file ends before that frame does (cut short), -EBADMSG on a bad CRC or
 * payload, -EINVAL for an offset inside the header
 */
int bc_reclogr_get(struct bc_reclogr *r, uint64_t off, struct bc_reclog_rec *rec);
void bc_reclogr_close(struct bc_reclogr *r);

#endif
