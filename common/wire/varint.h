/*
 * wire/varint.h - LEB128 unsigned varints for the binary STATS body.
 * Small counters (the common case in sparse histograms) take one byte.
 */
#ifndef BC_WIRE_VARINT_H
#define BC_WIRE_VARINT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* returns bytes written (1..10) or 0 when fewer than 10 bytes remain and v does not fit */
static inline size_t bc_varint_put(uint8_t *p, size_t cap, uint64_t v)
{
	size_t n = 0;

	do {
		if (n >= cap)
			return 0;
		p[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/* returns bytes consumed, or 0 on truncation / overlong encoding */
static inline size_t bc_varint_get(const uint8_t *p, size_t len, uint64_t *v)
{
	uint64_t r = 0;
	size_t n;

	/* most histogram deltas and counts are one byte */
	if (len && p[0] < 0x80) {
		*v = p[0];
		return 1;
	}
	for (n = 0; n < len && n < 10; n++) {
		r |= (uint64_t)(p[n] & 0x7f) << (7 * n);
		if (!(p[n] & 0x80)) {
			*v = r;
			return n + 1;
		}
	}
	return 0;
}

/*
 * A reader of consecutive varints (the record log, seconds.bin): a bad one
 * sets bad and every later read gives 0, so a decoder checks once, at its end.
 */
struct bc_varint_cur {
	const uint8_t *p;
	size_t n;
	bool bad;
};

static inline uint64_t bc_varint_next(struct bc_varint_cur *c)
{
	uint64_t v = 0;
	size_t m = c->bad ? 0 : bc_varint_get(c->p, c->n, &v);

	if (!m) {
		c->bad = true;
		return 0;
	}
	c->p += m;
	c->n -= m;
	return v;
}

#endif
