/*
 * util/base64.c - RFC 4648 §4 base64, see util/base64.h.
 */
#include <errno.h>
#include <stdbool.h>

#include "util/base64.h"

static const char s_abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *bc_base64_encode(char *dst, const uint8_t *src, size_t len)
{
	size_t i;

	for (i = 0; i + 3 <= len; i += 3) {
		uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];

		*dst++ = s_abc[v >> 18];
		*dst++ = s_abc[(v >> 12) & 63];
		*dst++ = s_abc[(v >> 6) & 63];
		*dst++ = s_abc[v & 63];
	}
	if (len - i == 1) {
		uint32_t v = (uint32_t)src[i] << 16;

		*dst++ = s_abc[v >> 18];
		*dst++ = s_abc[(v >> 12) & 63];
		*dst++ = '=';
		*dst++ = '=';
	} else if (len - i == 2) {
		uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8;

		*dst++ = s_abc[v >> 18];
		*dst++ = s_abc[(v >> 12) & 63];
		*dst++ = s_abc[(v >> 6) & 63];
		*dst++ = '=';
	}
	return dst;
}

/* a character's 6 bits, or -1 */
static int s_val(char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

long bc_base64_decode(uint8_t *dst, const char *src, size_t n)
{
	size_t i, pad = 0;
	long out = 0;

	if (n % 4)
		return -EINVAL;
	if (n && src[n - 1] == '=')
		pad = n >= 2 && src[n - 2] == '=' ? 2 : 1;
	for (i = 0; i < n; i += 4) {
		int a = s_val(src[i]), b = s_val(src[i + 1]), c, d;
		bool last = i + 4 == n;
		uint32_t v;

		c = last && pad == 2 ? 0 : s_val(src[i + 2]);
		d = last && pad ? 0 : s_val(src[i + 3]);
		if (a < 0 || b < 0 || c < 0 || d < 0)
			return -EINVAL;
		v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
		dst[out++] = (uint8_t)(v >> 16);
		if (!(last && pad == 2))
			dst[out++] = (uint8_t)(v >> 8);
		if (!(last && pad))
			dst[out++] = (uint8_t)v;
	}
	return out;
}
