/*
 * engine/verify.c - per-block headers and CRC-32C for "verify" (see engine/verify.h).
 * CRC-32C because x86 (SSE4.2) and arm64 (CRC extension) compute it in
 * hardware at several GB/s per core, and storage stacks use it (iSCSI,
 * NVMe/TCP, ext4, btrfs), so it is the checksum storage people expect.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "engine/verify.h"

#define S_POLY 0x82f63b78u /* CRC-32C, reflected (RFC 3720 B.4) */

/* the header bytes the CRC covers, then where the rest of the block starts */
#define S_HDR_CRC_AT offsetof(struct bc_verify_hdr, crc)
#define S_HDR_BYTES  sizeof(struct bc_verify_hdr)

_Static_assert(S_HDR_BYTES == 32 && S_HDR_CRC_AT == 28, "verify header is 32 bytes, CRC last");

static uint32_t s_table[8][256];
static bool s_hw;

static uint32_t s_sw(uint32_t crc, const unsigned char *p, uint64_t len)
{
	uint64_t w;

	/* slicing-by-8 */
	while (len >= 8) {
		memcpy(&w, p, 8);
		w ^= crc;
		crc = s_table[7][w & 0xff] ^ s_table[6][(w >> 8) & 0xff] ^
		      s_table[5][(w >> 16) & 0xff] ^ s_table[4][(w >> 24) & 0xff] ^
		      s_table[3][(w >> 32) & 0xff] ^ s_table[2][(w >> 40) & 0xff] ^
		      s_table[1][(w >> 48) & 0xff] ^ s_table[0][w >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = s_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t s_hw_crc(uint32_t crc, const unsigned char *p,
							   uint64_t len)
{
	uint64_t c = crc, w;

	while (len >= 8) {
		memcpy(&w, p, 8);
		c = _mm_crc32_u64(c, w);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = _mm_crc32_u8((uint32_t)c, *p++);
	return (uint32_t)c;
}
#else
static uint32_t s_hw_crc(uint32_t crc, const unsigned char *p, uint64_t len)
{
	return s_sw(crc, p, len);
}
#endif

/* tables and CPU check once, before main: the hot path never branches on "initialised" */
__attribute__((constructor)) static void s_init(void)
{
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = c & 1 ? (c >> 1) ^ S_POLY : c >> 1;
		s_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			s_table[j][i] =
			    (s_table[j - 1][i] >> 8) ^ s_table[0][s_table[j - 1][i] & 0xff];
#if defined(__x86_64__)
	s_hw = __builtin_cpu_supports("sse4.2");
#endif
}

uint32_t bc_crc32c(uint32_t crc, const void *buf, uint64_t len)
{
	crc = ~crc;
	crc = s_hw ? s_hw_crc(crc, buf, len) : s_sw(crc, buf, len);
	return ~crc;
}

static uint32_t s_block_crc(const unsigned char *b)
{
	uint32_t crc = bc_crc32c(0, b, S_HDR_CRC_AT);

	return bc_crc32c(crc, b + S_HDR_BYTES, BC_VERIFY_BLOCK - S_HDR_BYTES);
}

const char *bc_verify_why_name(enum bc_verify_why why)
{
	switch (why) {
	case BC_VERIFY_BAD_MAGIC:
		return "magic";
	case BC_VERIFY_BAD_OFFSET:
		return "offset";
	case BC_VERIFY_BAD_CRC:
		return "checksum";
	default:
		return "ok";
	}
}

void bc_verify_fill(void *buf, uint32_t len, uint64_t off, uint64_t gen, uint64_t writer)
{
	unsigned char *b = buf;
	struct bc_verify_hdr h = {.gen = gen, .writer = writer, .magic = BC_VERIFY_MAGIC};
	uint32_t at;

	for (at = 0; at + BC_VERIFY_BLOCK <= len; at += BC_VERIFY_BLOCK) {
		h.off = off + at;
		memcpy(b + at, &h, S_HDR_CRC_AT);
		h.crc = s_block_crc(b + at);
		memcpy(b + at + S_HDR_CRC_AT, &h.crc, sizeof(h.crc));
	}
}

static bool s_zero(const unsigned char *b)
{
	uint64_t w, acc = 0;
	uint32_t i;

	for (i = 0; i < BC_VERIFY_BLOCK; i += 8) {
		memcpy(&w, b + i, 8);
		acc |= w;
	}
	return !acc;
}

uint32_t bc_verify_check(const void *buf, uint32_t len, uint64_t off, uint64_t *bad_off,
			 enum bc_verify_why *why)
{
	const unsigned char *b = buf;
	struct bc_verify_hdr h;
	enum bc_verify_why w;
	uint32_t at, bad = 0;

	for (at = 0; at + BC_VERIFY_BLOCK <= len; at += BC_VERIFY_BLOCK) {
		memcpy(&h, b + at, sizeof(h));
		if (h.magic != BC_VERIFY_MAGIC)
			w = s_zero(b + at) ? BC_VERIFY_OK : BC_VERIFY_BAD_MAGIC;
		else if (h.crc != s_block_crc(b + at))
			w = BC_VERIFY_BAD_CRC;
		else if (h.off != off + at)
			w = BC_VERIFY_BAD_OFFSET;
		else
			w = BC_VERIFY_OK;
		if (w == BC_VERIFY_OK)
			continue;
		if (!bad++) {
			*bad_off = off + at;
			*why = w;
		}
	}
	return bad;
}
