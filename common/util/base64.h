/*
 * util/base64.h - RFC 4648 base64 (standard alphabet, padded), for binary
 * STATS bodies inside events.jsonl lines.
 */
#ifndef BC_UTIL_BASE64_H
#define BC_UTIL_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* bytes bc_base64_encode writes for len input bytes (no terminating NUL) */
#define BC_BASE64_LEN(len) (((len) + 2) / 3 * 4)

/* encode src[0..len) into dst (BC_BASE64_LEN(len) bytes); returns dst's end */
char *bc_base64_encode(char *dst, const uint8_t *src, size_t len);

/*
 * decode n characters of src into dst (room for n / 4 * 3 bytes); returns
 * the bytes written, or -EINVAL for a length or character that is not base64
 */
long bc_base64_decode(uint8_t *dst, const char *src, size_t n);

#endif
