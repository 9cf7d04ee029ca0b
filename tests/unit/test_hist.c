/* test_hist: histogram bucket error bound, percentiles, exact merge, wire round trip */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/hist.h"
#include "bc_test.h"

static void test_error_bound(void)
{
	double worst = 0;
	int i;

	/* log-uniform values from 1 ns to 100 s */
	for (i = 0; i < 2000000; i++) {
		double e = (double)(bc_test_rand() % 1000000) / 1000000.0 * log(1e11);
		uint64_t v = (uint64_t)exp(e);
		unsigned idx = bc_hist_index(v);
		uint64_t mid = bc_hist_bucket_mid(idx);
		double rel = fabs((double)mid - (double)v) / (double)v;

		if (v == 0)
			continue;
		CHECK_MSG(idx < BC_HIST_BUCKETS, "v=%llu idx=%u", (unsigned long long)v, idx);
		CHECK_MSG(bc_hist_bucket_low(idx) <= v, "v=%llu", (unsigned long long)v);
		CHECK_MSG(idx + 1 >= BC_HIST_BUCKETS || bc_hist_bucket_low(idx + 1) > v, "v=%llu",
			  (unsigned long long)v);
		if (rel > worst)
			worst = rel;
	}
	printf("worst relative bucket error: %.5f%%\n", worst * 100);
	CHECK_MSG(worst <= 0.005, "worst relative error %.5f > 0.5%%", worst);
	/* the extremes of the range map and round trip */
	CHECK(bc_hist_index(0) == 0);
	CHECK(bc_hist_index(UINT64_MAX) == BC_HIST_BUCKETS - 1);
	CHECK(bc_hist_index(60ull * 1000000000ull) < BC_HIST_BUCKETS);
	for (i = 0; i < 256; i++)
		CHECK(bc_hist_bucket_mid(bc_hist_index((uint64_t)i)) == (uint64_t)i);
}

static void test_percentiles(void)
{
	static struct bc_hist h;
	uint64_t v;

	bc_hist_reset(&h);
	CHECK(bc_hist_percentile(&h, 99) == 0);
	for (v = 1; v <= 100000; v++)
		bc_hist_add(&h, v * 1000); /* 1 us .. 100 ms */
	CHECK(h.count == 100000);
	CHECK(fabs((double)bc_hist_percentile(&h, 50) - 50000000.0) / 50000000.0 < 0.005);
	CHECK(fabs((double)bc_hist_percentile(&h, 99) - 99000000.0) / 99000000.0 < 0.005);
	CHECK(fabs((double)bc_hist_percentile(&h, 99.9) - 99900000.0) / 99900000.0 < 0.005);
	CHECK(fabs((double)bc_hist_max(&h) - 100000000.0) / 100000000.0 < 0.005);
	CHECK(fabs((double)bc_hist_min(&h) - 1000.0) / 1000.0 < 0.005);
}

static void test_merge_is_exact(void)
{
	static struct bc_hist a, b, all, m;
	int i;

	bc_hist_reset(&a);
	bc_hist_reset(&b);
	bc_hist_reset(&all);
	/* two hosts with very different latency: averaging their p99s would be wrong */
	for (i = 0; i < 99000; i++) {
		uint64_t v = 100000 + bc_test_rand() % 50000;

		bc_hist_add(&a, v);
		bc_hist_add(&all, v);
	}
	for (i = 0; i < 1000; i++) {
		uint64_t v = 5000000 + bc_test_rand() % 1000000;

		bc_hist_add(&b, v);
		bc_hist_add(&all, v);
	}
	m = a;
	bc_hist_merge(&m, &b);
	CHECK(m.count == all.count);
	CHECK(!memcmp(m.buckets, all.buckets, sizeof(m.buckets)));
	CHECK(bc_hist_percentile(&m, 99) == bc_hist_percentile(&all, 99));
	CHECK(bc_hist_percentile(&m, 99.9) > 5000000);
	/* the average of the two p99s is far from the merged p99.9 and p99 */
	CHECK((bc_hist_percentile(&a, 99) + bc_hist_percentile(&b, 99)) / 2 >
	      2 * bc_hist_percentile(&m, 99));
}

static void test_wire(void)
{
	static struct bc_hist h, d;
	static uint8_t buf[BC_HIST_WIRE_MAX];
	long n, m;
	int i;

	bc_hist_reset(&h);
	bc_hist_reset(&d);
	n = bc_hist_encode(&h, buf, sizeof(buf));
	CHECK(n == 1);
	for (i = 0; i < 100000; i++)
		bc_hist_add(&h, bc_test_rand() % 10000000);
	bc_hist_add(&h, UINT64_MAX);
	n = bc_hist_encode(&h, buf, sizeof(buf));
	CHECK(n > 0);
	m = bc_hist_decode_add(&d, buf, (size_t)n);
	CHECK(m == n);
	CHECK(d.count == h.count && !memcmp(d.buckets, h.buckets, sizeof(h.buckets)));
	/* decoding adds: twice gives double counts */
	bc_hist_decode_add(&d, buf, (size_t)n);
	CHECK(d.count == 2 * h.count);
	/* truncation anywhere is detected */
	for (i = 1; i < 64 && i < n; i++) {
		bc_hist_reset(&d);
		CHECK_MSG(bc_hist_decode_add(&d, buf, (size_t)(n - i)) == -EBADMSG, "cut %d", i);
	}
	CHECK(bc_hist_encode(&h, buf, 4) == -ENOSPC);
	/* an index past the end is rejected, not written out of bounds */
	buf[0] = 1;
	buf[1] = 0xff;
	buf[2] = 0xff;
	buf[3] = 0x7f;
	buf[4] = 1;
	CHECK(bc_hist_decode_add(&d, buf, 5) == -EBADMSG);
}

/*
 * The list decode (the coordinator's) lists what the dense decode adds, for
 * histograms whose pairs take the four-pair path, the one-pair path and a
 * mix of both, and refuses what the dense decode refuses.
 */
static void test_wire_list(void)
{
	static struct bc_hist h, d;
	static uint8_t buf[BC_HIST_WIRE_MAX];
	static uint16_t idx[BC_HIST_BUCKETS];
	static uint64_t cnt[BC_HIST_BUCKETS];
	uint32_t n, j, want;
	uint64_t sum, span[] = {300, 20000, 3000000, 1ull << 40};
	long len;
	int round, i;

	for (round = 0; round < 40; round++) {
		bc_hist_reset(&h);
		for (i = 0; i < 20 + round * 500; i++)
			bc_hist_add(&h, 1 + bc_test_rand() % span[round % 4]);
		len = bc_hist_encode(&h, buf, sizeof(buf));
		CHECK(len > 0);
		n = 0;
		sum = 0;
		CHECK(bc_hist_decode_list(buf, (size_t)len, idx, cnt, &n, &sum) == len);
		CHECK(sum == h.count);
		for (want = 0, j = 0; j < BC_HIST_BUCKETS; j++)
			want += h.buckets[j] != 0;
		CHECK_MSG(n == want, "round %d: %u listed, %u buckets", round, n, want);
		for (j = 0; j < n; j++) {
			CHECK(!j || idx[j] > idx[j - 1]);
			CHECK_MSG(cnt[j] == h.buckets[idx[j]], "round %d bucket %u", round, idx[j]);
		}
		/* cut anywhere: refused like the dense decode */
		for (i = 1; i < 40 && i < len; i++) {
			bc_hist_reset(&d);
			n = 0;
			CHECK_MSG(bc_hist_decode_list(buf, (size_t)(len - i), idx, cnt, &n, &sum) ==
				      bc_hist_decode_add(&d, buf, (size_t)(len - i)),
				  "round %d cut %d", round, i);
		}
	}
	/* five one-byte pairs: a zero delta, then past the last bucket, as the dense decode */
	{
		uint8_t z[] = {5, 10, 1, 1, 1, 0, 1, 1, 1, 1, 1};
		/* first index 7419 (varint 0xfb 0x39), four more: the last is 7423 */
		uint8_t hi[] = {5, 0xfb, 0x39, 1, 1, 1, 1, 1, 1, 1, 1, 1};

		n = 0;
		CHECK(bc_hist_decode_list(z, sizeof(z), idx, cnt, &n, &sum) == -EBADMSG);
		bc_hist_reset(&d);
		CHECK(bc_hist_decode_add(&d, z, sizeof(z)) == -EBADMSG);
		n = 0;
		CHECK(bc_hist_decode_list(hi, sizeof(hi), idx, cnt, &n, &sum) == (long)sizeof(hi));
		CHECK(n == 5 && idx[4] == BC_HIST_BUCKETS - 1);
		hi[1] = 0xfc; /* 7420: the fifth would be 7424 */
		n = 0;
		CHECK(bc_hist_decode_list(hi, sizeof(hi), idx, cnt, &n, &sum) == -EBADMSG);
		bc_hist_reset(&d);
		CHECK(bc_hist_decode_add(&d, hi, sizeof(hi)) == -EBADMSG);
	}
	/* the widest four-pair step (deltas and counts of 127) ends on the last bucket, exactly */
	{
		/* first index 6915 (varint 0x83 0x36), count 127; four more 127 apart */
		uint8_t wide[] = {5, 0x83, 0x36, 127, 127, 127, 127, 127, 127, 127, 127, 127};

		n = 0;
		sum = 0;
		CHECK(bc_hist_decode_list(wide, sizeof(wide), idx, cnt, &n, &sum) ==
		      (long)sizeof(wide));
		CHECK(n == 5 && sum == 5 * 127);
		for (j = 0; j < n; j++)
			CHECK_MSG(idx[j] == 6915 + 127 * j && cnt[j] == 127,
				  "wide entry %u: %u %llu", j, idx[j], (unsigned long long)cnt[j]);
		wide[1] = 0x84; /* 6916: the fifth would be 7424 */
		n = 0;
		sum = 0;
		CHECK(bc_hist_decode_list(wide, sizeof(wide), idx, cnt, &n, &sum) == -EBADMSG);
	}
}

/* one pass for several percentiles gives what one call each gives, empty and full alike */
static void test_percentiles_one_pass(void)
{
	static const double p[] = {0.001, 50, 90, 99, 99.9, 99.99, 100};
	struct bc_hist *h = calloc(1, sizeof(*h));
	uint64_t got[7], x = 88172645463325252ull;
	int round, i, n;

	CHECK(h != NULL);
	if (!h)
		return;
	bc_hist_percentiles(h, p, 7, got);
	for (i = 0; i < 7; i++)
		CHECK(got[i] == 0);
	for (round = 0; round < 50; round++) {
		n = 1 + round * 37;
		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			bc_hist_add(h, 1000 + x % (round % 2 ? 5000000 : 20000));
		}
		bc_hist_percentiles(h, p, 7, got);
		for (i = 0; i < 7; i++)
			CHECK_MSG(got[i] == bc_hist_percentile(h, p[i]), "round %d p%g", round,
				  p[i]);
	}
	free(h);
}

static int s_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * percentiles of several histograms summed (a window's all-ops figure),
 * against the sorted samples themselves: the ceil(p% x N)-th smallest
 * sample's bucket midpoint, the largest sample's for p100
 */
static void test_percentiles_sum(void)
{
	static const double p[] = {0.001, 50, 90, 99, 99.9, 99.99, 100};
	struct bc_hist *h = calloc(3, sizeof(*h));
	const struct bc_hist *hs[3] = {&h[0], &h[1], &h[2]};
	uint64_t *all = malloc(3 * 4000 * sizeof(*all)), got[7], x = 0x9e3779b97f4a7c15ull;
	int round, i, j, n, k;

	CHECK(h != NULL && all != NULL);
	if (!h || !all)
		goto out;
	for (round = 0; round < 40; round++) {
		n = 0;
		for (j = 0; j < 3; j++) {
			bc_hist_reset(&h[j]);
			/* one op empty every third round; the ops' ranges overlap or not */
			k = (round % 3 == j) ? 0 : 1 + (round * 97 + j * 31) % 4000;
			for (i = 0; i < k; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				all[n] = (j + 1) * 700 + x % (j == 2 ? 9000000 : 30000);
				bc_hist_add(&h[j], all[n++]);
			}
		}
		qsort(all, (size_t)n, sizeof(*all), s_u64_cmp);
		/* where the lowest bucket is known, the walk may start there */
		bc_hist_percentiles_sum(hs, 3, round % 2 && n ? bc_hist_index(all[0]) : 0, p, 7,
					got);
		for (i = 0; i < 7; i++) {
			double want_rank = p[i] / 100.0 * n;
			uint64_t rank = (uint64_t)want_rank, want;

			if ((double)rank < want_rank)
				rank++;
			if (!rank)
				rank = 1;
			if (p[i] >= 100)
				rank = (uint64_t)n;
			want = n ? bc_hist_bucket_mid(bc_hist_index(all[rank - 1])) : 0;
			CHECK_MSG(got[i] == want, "round %d p%g: %llu, the samples say %llu", round,
				  p[i], (unsigned long long)got[i], (unsigned long long)want);
		}
	}
out:
	free(all);
	free(h);
}

int main(void)
{
	test_percentiles_one_pass();
	test_percentiles_sum();
	test_error_bound();
	test_percentiles();
	test_merge_is_exact();
	test_wire();
	test_wire_list();
	TEST_DONE();
}
