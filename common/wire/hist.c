/*
 * wire/hist.c - log-linear histogram: bucket arithmetic, merge, percentiles
 * and the sparse varint wire form. See wire/hist.h for the layout.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "wire/hist.h"
#include "wire/varint.h"

void bc_hist_reset(struct bc_hist *h)
{
	memset(h, 0, sizeof(*h));
}

uint64_t bc_hist_bucket_low(unsigned idx)
{
	unsigned shift;

	if (idx < 2 * BC_HIST_SUB)
		return idx;
	shift = idx / BC_HIST_SUB - 1;
	return (uint64_t)(idx - shift * BC_HIST_SUB) << shift;
}

uint64_t bc_hist_bucket_mid(unsigned idx)
{
	unsigned shift;

	if (idx < 2 * BC_HIST_SUB)
		return idx;
	shift = idx / BC_HIST_SUB - 1;
	/* width is 1 << shift; the midpoint keeps the error symmetric */
	return bc_hist_bucket_low(idx) + ((1ull << shift) >> 1);
}

void bc_hist_moments(const uint64_t *b, unsigned lo, unsigned n, double m[3])
{
	unsigned i;

	for (i = 0; i < n; i++) {
		double c, v;

		if (!b[i])
			continue;
		c = (double)b[i];
		v = (double)bc_hist_bucket_mid(lo + i);
		m[0] += c;
		m[1] += c * v;
		m[2] += c * v * v;
	}
}

double bc_hist_stddev(const double m[3])
{
	double mean, var;

	if (m[0] < 2)
		return 0;
	mean = m[1] / m[0];
	var = m[2] / m[0] - mean * mean;
	/* cancellation can leave a tiny negative for a one-bucket histogram */
	return var > 0 ? sqrt(var) : 0;
}

void bc_hist_merge(struct bc_hist *dst, const struct bc_hist *src)
{
	unsigned i;

	if (!src->count)
		return;
	for (i = 0; i < BC_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
}

uint64_t bc_hist_rank(double pct, uint64_t count)
{
	double want = pct / 100.0 * (double)count;
	uint64_t rank = (uint64_t)want;

	if ((double)rank < want)
		rank++;
	return rank ? rank : 1;
}

void bc_hist_percentiles_sum(const struct bc_hist *const *hs, int nh, unsigned from,
			     const double *pct, int n, uint64_t *out)
{
	const struct bc_hist *use[8];
	uint64_t rank, seen = 0, count = 0, max = 0;
	unsigned i = 0;
	int p, j, nu = 0;

	/* an empty one is not read at all: its untouched pages would each fault in */
	for (j = 0; j < nh; j++)
		if (hs[j]->count && nu < (int)(sizeof(use) / sizeof(use[0]))) {
			use[nu++] = hs[j];
			count += hs[j]->count;
		}
	hs = use;
	nh = nu;
	/* buckets below from are empty in every one */
	i = from < BC_HIST_BUCKETS ? from : 0;
	/* the maximum only when asked for: its scan from the top reads every empty page */
	for (p = 0; p < n && count && !max; p++)
		if (pct[p] >= 100.0)
			for (j = 0; j < nh; j++)
				if (bc_hist_max(hs[j]) > max)
					max = bc_hist_max(hs[j]);
	for (p = 0; p < n; p++) {
		if (!count) {
			out[p] = 0;
			continue;
		}
		if (pct[p] >= 100.0) {
			out[p] = max;
			continue;
		}
		/* the scan resumes where the last percentile's stopped */
		rank = bc_hist_rank(pct[p], count);
		for (; seen < rank && i < BC_HIST_BUCKETS; i++)
			for (j = 0; j < nh; j++)
				seen += hs[j]->buckets[i];
		/* past the last bucket only if counts and buckets disagree: the top one */
		if (seen < rank)
			for (j = 0; j < nh; j++)
				if (bc_hist_max(hs[j]) > max)
					max = bc_hist_max(hs[j]);
		out[p] = seen >= rank ? bc_hist_bucket_mid(i - 1) : max;
	}
}

void bc_hist_percentiles(const struct bc_hist *h, const double *pct, int n, uint64_t *out)
{
	bc_hist_percentiles_sum(&h, 1, 0, pct, n, out);
}

uint64_t bc_hist_percentile(const struct bc_hist *h, double pct)
{
	uint64_t v;

	bc_hist_percentiles(h, &pct, 1, &v);
	return v;
}

uint64_t bc_hist_max(const struct bc_hist *h)
{
	unsigned i;

	if (!h->count)
		return 0;
	for (i = BC_HIST_BUCKETS; i-- > 0;)
		if (h->buckets[i])
			return bc_hist_bucket_mid(i);
	return 0;
}

uint64_t bc_hist_min(const struct bc_hist *h)
{
	unsigned i;

	for (i = 0; i < BC_HIST_BUCKETS && h->count; i++)
		if (h->buckets[i])
			return bc_hist_bucket_mid(i);
	return 0;
}

long bc_hist_encode(const struct bc_hist *h, uint8_t *buf, size_t cap)
{
	uint64_t pairs = 0;
	unsigned i, prev = 0;
	size_t off, n;

	for (i = 0; i < BC_HIST_BUCKETS && h->count; i++)
		pairs += h->buckets[i] != 0;
	off = bc_varint_put(buf, cap, pairs);
	if (!off)
		return -ENOSPC;
	for (i = 0; i < BC_HIST_BUCKETS && pairs; i++) {
		if (!h->buckets[i])
			continue;
		n = bc_varint_put(buf + off, cap - off, i - prev);
		if (!n)
			return -ENOSPC;
		off += n;
		n = bc_varint_put(buf + off, cap - off, h->buckets[i]);
		if (!n)
			return -ENOSPC;
		off += n;
		prev = i;
	}
	return (long)off;
}

long bc_hist_decode_add(struct bc_hist *h, const uint8_t *buf, size_t len)
{
	return bc_hist_decode_add_idx(h, buf, len, NULL, NULL);
}

/*
 * One (delta, count) pair at *q, before end: most deltas and counts are one
 * byte each, so both are read at once and the general varint only runs when
 * either is longer. The pair's end, or NULL when it is cut short.
 */
static inline const uint8_t *s_pair(const uint8_t *q, const uint8_t *end, uint64_t *delta,
				    uint64_t *count)
{
	size_t n;

	if (end - q >= 2 && !((q[0] | q[1]) & 0x80)) {
		*delta = q[0];
		*count = q[1];
		return q + 2;
	}
	n = bc_varint_get(q, (size_t)(end - q), delta);
	if (!n)
		return NULL;
	q += n;
	n = bc_varint_get(q, (size_t)(end - q), count);
	return n ? q + n : NULL;
}

/*
 * The pairs' loop (the coordinator decodes a few hundred per volume-second,
 * bench/agg.c): pointers and locals only, the first pair apart so that the
 * loop's one check is "deltas after the first advance".
 */
static inline __attribute__((always_inline)) long s_decode(struct bc_hist *h, const uint8_t *buf,
							   size_t len, uint16_t *idx,
							   uint32_t *nidx, const bool with_idx)
{
	uint64_t pairs, delta, count, at, p, sum = 0, *bk = h->buckets, old;
	uint32_t ni = nidx ? *nidx : 0;
	const uint8_t *q, *end = buf + len;
	size_t off;
	long rc = -EBADMSG;

	off = bc_varint_get(buf, len, &pairs);
	if (!off || pairs > BC_HIST_BUCKETS)
		return -EBADMSG;
	q = buf + off;
	if (!pairs)
		return (long)off;
	q = s_pair(q, end, &at, &count);
	/* indexes must stay in range */
	if (!q || at >= BC_HIST_BUCKETS)
		goto out;
	for (p = 0;;) {
		old = bk[at];
		bk[at] = old + count;
		sum += count;
		if (with_idx && count && !old && ni < BC_HIST_BUCKETS)
			idx[ni++] = (uint16_t)at;
		if (++p == pairs)
			break;
		q = s_pair(q, end, &delta, &count);
		/* deltas after the first must advance */
		if (!q || !delta || delta >= BC_HIST_BUCKETS - at)
			goto out;
		at += delta;
	}
	rc = (long)(q - buf);
out:
	/* what was added stays added, and the count says so */
	h->count += sum;
	if (nidx)
		*nidx = ni;
	return rc;
}

/*
 * The buckets of four pairs of one-byte deltas at q (w: the same 8 bytes)
 * after bucket at, written at ip[0..3]; returns the last. The caller
 * refuses a last bucket out of range (ip[] is then written over: the list
 * has room for every pair). This is the hot loop of the coordinator's
 * decode (bench/agg.c under callgrind): on a little-endian host the four
 * buckets are one prefix sum of the deltas as 16-bit lanes (each below
 * 2^13 + 4 x 127: no carry between lanes), stored at once.
 */
static inline uint64_t s_quad_idx(const uint8_t *q, uint64_t w, uint64_t at, uint16_t *ip)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x = w & 0x00ff00ff00ff00ffull;

	(void)q;
	x += x << 16;
	x += x << 32;
	x += at * 0x0001000100010001ull;
	memcpy(ip, &x, sizeof(x));
	return x >> 48;
#else
	(void)w;
	ip[0] = (uint16_t)(at += q[0]);
	ip[1] = (uint16_t)(at += q[2]);
	ip[2] = (uint16_t)(at += q[4]);
	ip[3] = (uint16_t)(at += q[6]);
	return at;
#endif
}

long bc_hist_decode_list(const uint8_t *buf, size_t len, uint16_t *idx, uint64_t *cnt, uint32_t *n,
			 uint64_t *sum)
{
	uint64_t pairs, delta, count, at, p, total = 0;
	uint16_t *ip = idx + *n;
	uint64_t *cp = cnt + *n;
	const uint8_t *q, *end = buf + len;
	/* four pairs may be read at once while p <= p4 and q <= q8 (never when 0 or buf) */
	uint64_t p4;
	const uint8_t *q8 = len >= 8 ? end - 8 : buf;
	size_t off;
	long rc = -EBADMSG;

	off = bc_varint_get(buf, len, &pairs);
	if (!off || pairs > BC_HIST_BUCKETS)
		return -EBADMSG;
	q = buf + off;
	if (!pairs)
		return (long)off;
	p4 = pairs >= 4 ? pairs - 4 : 0;
	q = s_pair(q, end, &at, &count);
	if (!q || at >= BC_HIST_BUCKETS)
		goto out;
	/*
	 * Ascending and distinct (deltas advance): at most pairs <=
	 * BC_HIST_BUCKETS entries are listed. An empty pair's entry is
	 * written and then written over.
	 */
	*ip = (uint16_t)at;
	*cp = count;
	ip += count != 0;
	cp += count != 0;
	total += count;
	for (p = 1; p < pairs;) {
		uint64_t w;

		/*
		 * Four pairs of one-byte deltas and counts (most of a record's
		 * pairs): one test for the four, no call. Every byte must be
		 * below 0x80 (one-byte varints) and none zero (deltas advance,
		 * counts list a bucket: an empty pair takes the path below), and
		 * the last bucket in range. With the high bits clear,
		 * (w - 0x01..01) & ~w & 0x80..80 is non-zero exactly when a byte
		 * of w is zero.
		 */
		if (p <= p4 && q <= q8) {
			memcpy(&w, q, 8);
			if (!(w & 0x8080808080808080ull) &&
			    !((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull)) {
				uint64_t last = s_quad_idx(q, w, at, ip);

				if (last < BC_HIST_BUCKETS) {
					cp[0] = q[1];
					cp[1] = q[3];
					cp[2] = q[5];
					cp[3] = q[7];
					total += cp[0] + cp[1] + cp[2] + cp[3];
					at = last;
					ip += 4;
					cp += 4;
					q += 8;
					p += 4;
					continue;
				}
			}
		}
		q = s_pair(q, end, &delta, &count);
		if (!q || !delta || delta >= BC_HIST_BUCKETS - at)
			goto out;
		at += delta;
		*ip = (uint16_t)at;
		*cp = count;
		ip += count != 0;
		cp += count != 0;
		total += count;
		p++;
	}
	rc = (long)(q - buf);
out:
	*sum += total;
	*n = (uint32_t)(ip - idx);
	return rc;
}

long bc_hist_decode_add_idx(struct bc_hist *h, const uint8_t *buf, size_t len, uint16_t *idx,
			    uint32_t *nidx)
{
	/* two copies of the loop, so the one with a list does not test for it per pair */
	return idx ? s_decode(h, buf, len, idx, nidx, true)
		   : s_decode(h, buf, len, NULL, nidx, false);
}

void bc_hist_add_pairs(struct bc_hist *h, const cJSON *pairs)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, pairs)
	{
		const cJSON *i = cJSON_GetArrayItem(p, 0), *n = cJSON_GetArrayItem(p, 1);

		if (!cJSON_IsNumber(i) || !cJSON_IsNumber(n) || i->valuedouble < 0 ||
		    i->valuedouble >= BC_HIST_BUCKETS || n->valuedouble < 0)
			continue;
		h->buckets[(unsigned)i->valuedouble] += (uint64_t)n->valuedouble;
		h->count += (uint64_t)n->valuedouble;
	}
}
