/*
 * engine/verify.h - data verification. With "verify", every 4 KiB block a job
 * writes begins with a header: the block's own byte offset in the volume, a
 * generation (the job's write sequence number), the writer (job index), a
 * magic and a CRC-32C of the whole block (header included, CRC field
 * excluded). Reads check each block they return: magic, offset, CRC. A block
 * of zeros is "never written" (fresh file, trimmed) and passes; anything else
 * that fails is a data error at that block's offset.
 *
 * The first two header words are the engine's write stamp (offset, sequence;
 * engine/job.h), so verified and unverified writes look alike to a reader.
 * Pure functions on caller buffers: thread-safe, no allocation.
 */
#ifndef BC_ENGINE_VERIFY_H
#define BC_ENGINE_VERIFY_H

#include <stdint.h>

#define BC_VERIFY_BLOCK 4096u
#define BC_VERIFY_MAGIC 0x31766362u /* "bcv1" in little-endian bytes */

struct bc_verify_hdr {
	uint64_t off;	 /* byte offset of this block in the volume */
	uint64_t gen;	 /* writer's sequence number of the write */
	uint64_t writer; /* job index */
	uint32_t magic;	 /* BC_VERIFY_MAGIC */
	uint32_t crc;	 /* CRC-32C of the block with this field as if absent */
};

enum bc_verify_why {
	BC_VERIFY_OK = 0,
	BC_VERIFY_BAD_MAGIC,  /* no header and not zeros: foreign or garbled data */
	BC_VERIFY_BAD_OFFSET, /* a valid block that belongs elsewhere (misplaced write) */
	BC_VERIFY_BAD_CRC,    /* header in place, contents changed */
};

/* "checksum", "offset", "magic" */
const char *bc_verify_why_name(enum bc_verify_why why);

/* CRC-32C (Castagnoli), SSE4.2 when the CPU has it; crc starts at 0 */
uint32_t bc_crc32c(uint32_t crc, const void *buf, uint64_t len);

/* stamp every 4 KiB block of buf (len a multiple of 4096, written at byte off) */
void bc_verify_fill(void *buf, uint32_t len, uint64_t off, uint64_t gen, uint64_t writer);

/*
 * Check len bytes read at off. Returns the number of bad blocks; the first
 * one's offset and reason go to *bad_off and *why (untouched when none).
 */
uint32_t bc_verify_check(const void *buf, uint32_t len, uint64_t off, uint64_t *bad_off,
			 enum bc_verify_why *why);

#endif
