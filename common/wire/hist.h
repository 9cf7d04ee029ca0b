/*
 * wire/hist.h - mergeable log-linear latency histogram (nanoseconds).
 *
 * Values below 256 ns get one bucket each; above, every power of two is
 * split into 128 equal sub-buckets, so a bucket is at most 1/128 of its lower
 * bound wide and its midpoint is within 0.39% of any value in it (the
 * layout of HdrHistogram, hdrhistogram.org: linear sub-buckets per power
 * of two). The
 * index space covers all of uint64_t, so nothing is clamped: 60 s = 6e10 ns
 * lands in bucket ~3800.
 *
 * Histograms merge by adding counts, so the percentile of a merged histogram
 * is exact up to the bucket error - never an average of percentiles.
 * Not thread-safe: one writer per histogram (the job thread that owns it).
 */
#ifndef BC_WIRE_HIST_H
#define BC_WIRE_HIST_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define BC_HIST_SUB_BITS 7
#define BC_HIST_SUB	 (1u << BC_HIST_SUB_BITS)
/* shift goes up to 63 - SUB_BITS; index = shift * SUB + (v >> shift) < 2 * SUB */
#define BC_HIST_BUCKETS ((64 - BC_HIST_SUB_BITS) * BC_HIST_SUB + BC_HIST_SUB)

struct bc_hist {
	uint64_t count;			   /* samples */
	uint64_t buckets[BC_HIST_BUCKETS]; /* samples per bucket */
};

/* bucket index of v; branch-light, used on the completion path */
static inline unsigned bc_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * BC_HIST_SUB)
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - BC_HIST_SUB_BITS;
	return shift * BC_HIST_SUB + (unsigned)(v >> shift);
}

static inline void bc_hist_add(struct bc_hist *h, uint64_t v)
{
	h->buckets[bc_hist_index(v)]++;
	h->count++;
}

void bc_hist_reset(struct bc_hist *h);

/* lowest value that maps to bucket idx, and the representative (midpoint) */
uint64_t bc_hist_bucket_low(unsigned idx);
uint64_t bc_hist_bucket_mid(unsigned idx);

/* dst += src */
void bc_hist_merge(struct bc_hist *dst, const struct bc_hist *src);

/*
 * h += run.json's sparse form of a histogram, [[bucket, count], ...] (pairs
 * that are not two numbers, or out of range, are skipped)
 */
void bc_hist_add_pairs(struct bc_hist *h, const cJSON *pairs);

/*
 * The one rank rule: the pct-th percentile (0 < pct < 100) of count samples
 * is the rank-th smallest, rank = ceil(pct/100 * count), at least 1.
 */
uint64_t bc_hist_rank(double pct, uint64_t count);

/*
 * Value at percentile pct (0 < pct <= 100): the midpoint of the bucket that
 * holds the ceil(pct/100 * count)-th smallest sample. 0 when empty.
 */
uint64_t bc_hist_percentile(const struct bc_hist *h, double pct);
/*
 * bc_hist_percentile for n percentiles, ascending, in one pass over the
 * buckets (a report computes five per op per entity: at 16,000 volumes,
 * one pass each would be most of the time spent writing results)
 */
void bc_hist_percentiles(const struct bc_hist *h, const double *pct, int n, uint64_t *out);
/*
 * the same percentiles of the sum of nh histograms, without building it: a
 * step's all-ops window per volume took a 59 KB histogram each, faulted in,
 * zeroed and merged three times (most of run.json's step entry at 1,600
 * volumes). nh <= 8; buckets below from are empty in all of them (0: not known).
 */
void bc_hist_percentiles_sum(const struct bc_hist *const *hs, int nh, unsigned from,
			     const double *pct, int n, uint64_t *out);

/* midpoint of the highest / lowest non-empty bucket; 0 when empty */
uint64_t bc_hist_max(const struct bc_hist *h);
uint64_t bc_hist_min(const struct bc_hist *h);

/*
 * Moments of counts b[0..n), which are buckets [lo, lo + n), each sample
 * taken at its bucket's midpoint: m[0] += samples, m[1] += sum of values,
 * m[2] += sum of squares (ns, ns^2). Add several ops' ranges into one m,
 * then bc_hist_stddev(m). The midpoint is within 1/256 of the sample
 * (BC_HIST_SUB), so the standard deviation is too.
 */
void bc_hist_moments(const uint64_t *b, unsigned lo, unsigned n, double m[3]);
/* population standard deviation (vdbench's "resp stddev") from m; 0 below two samples */
double bc_hist_stddev(const double m[3]);

/*
 * Sparse wire form: varint(pairs) then pairs of varint(delta index),
 * varint(count). Returns bytes written, or -ENOSPC when cap is too small
 * (BC_HIST_WIRE_MAX always suffices).
 */
#define BC_HIST_WIRE_MAX (10 + (size_t)BC_HIST_BUCKETS * 20)
long bc_hist_encode(const struct bc_hist *h, uint8_t *buf, size_t cap);

/*
 * Decode and ADD into h (so several records merge directly). Returns bytes
 * consumed, or -EBADMSG on a truncated or out-of-range encoding.
 */
long bc_hist_decode_add(struct bc_hist *h, const uint8_t *buf, size_t len);

/*
 * bc_hist_decode_add that also appends to idx[*n] the index of every bucket
 * it turned from empty to non-empty, so a caller can later visit (add
 * elsewhere, reset) only those instead of all BC_HIST_BUCKETS. idx must hold
 * BC_HIST_BUCKETS entries; indexes of one call are ascending.
 */
long bc_hist_decode_add_idx(struct bc_hist *h, const uint8_t *buf, size_t len, uint16_t *idx,
			    uint32_t *n);

/*
 * Decode without a dense histogram: append every non-empty bucket to
 * idx[*n] (ascending) and its samples to cnt[*n], and add the samples to
 * *sum. Both arrays must hold BC_HIST_BUCKETS entries from *n on. The
 * coordinator adds a record into four levels from these lists instead of
 * writing (and clearing) 180 KB of dense buckets per volume. Returns bytes
 * consumed or -EBADMSG as bc_hist_decode_add.
 */
long bc_hist_decode_list(const uint8_t *buf, size_t len, uint16_t *idx, uint64_t *cnt, uint32_t *n,
			 uint64_t *sum);

#endif
