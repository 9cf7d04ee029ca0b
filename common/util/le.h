/*
 * util/le.h - little-endian loads from byte buffers: on-disk superblocks and
 * NVMe log pages are little-endian whatever the host, and their fields sit
 * at offsets a struct cast would read misaligned.
 */
#ifndef BC_UTIL_LE_H
#define BC_UTIL_LE_H

#include <stdint.h>

static inline uint16_t bc_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t bc_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t bc_le64(const uint8_t *p)
{
	return (uint64_t)bc_le32(p) | (uint64_t)bc_le32(p + 4) << 32;
}

#endif
