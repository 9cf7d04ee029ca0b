/* test_stats: the STATS body (wire/stats.h): round trip and rejection, the percentile buckets */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire/stats.h"
#include "bc_test.h"

static struct bc_volstat s_in[2], s_out[2];

static void test_stats_roundtrip(void)
{
	struct bc_stats_hdr h = {.step = 3, .second = 17, .flags = BC_STATS_F_LATE, .nvol = 2}, g;
	uint8_t *buf = NULL;
	size_t len = 0;
	int i;

	bc_volstat_reset(&s_in[0]);
	bc_volstat_reset(&s_in[1]);
	for (i = 0; i < 1000; i++)
		bc_opstat_complete(&s_in[0].op[BC_OP_READ], 4096, 4096, 50000 + (uint64_t)i * 10);
	for (i = 0; i < 10; i++)
		bc_opstat_complete(&s_in[1].op[BC_OP_WRITE], 65536, 65536, 900000);
	bc_opstat_complete(&s_in[1].op[BC_OP_WRITE], -EIO, 65536, 0);
	bc_opstat_complete(&s_in[1].op[BC_OP_WRITE], 512, 65536, 1000);
	CHECK(bc_stats_encode(&h, s_in, &buf, &len) == 0);
	printf("STATS body: %zu bytes for 1012 completions on 2 volumes\n", len);
	bc_volstat_reset(&s_out[0]);
	bc_volstat_reset(&s_out[1]);
	CHECK(bc_stats_decode(buf, len, &g, s_out, 2) == 0);
	CHECK(g.step == 3 && g.second == 17 && g.flags == BC_STATS_F_LATE && g.nvol == 2);
	CHECK(s_out[0].op[BC_OP_READ].ios == 1000);
	CHECK(s_out[0].op[BC_OP_READ].bytes == 4096000);
	CHECK(s_out[0].op[BC_OP_READ].lat_min_ns == 50000);
	CHECK(s_out[0].op[BC_OP_READ].lat_max_ns == 50000 + 999 * 10);
	CHECK(!memcmp(&s_out[0].op[BC_OP_READ].hist, &s_in[0].op[BC_OP_READ].hist,
		      sizeof(struct bc_hist)));
	CHECK(s_out[1].op[BC_OP_WRITE].ios == 10);
	CHECK(s_out[1].op[BC_OP_WRITE].errors == 1);
	CHECK(s_out[1].op[BC_OP_WRITE].short_ios == 1);
	CHECK(s_out[1].op[BC_OP_WRITE].first_errno == -EIO);
	CHECK(s_out[0].op[BC_OP_WRITE].ios == 0 &&
	      s_out[0].op[BC_OP_WRITE].lat_min_ns == UINT64_MAX);
	/* decoding adds, so records for the same second merge */
	CHECK(bc_stats_decode(buf, len, &g, s_out, 2) == 0);
	CHECK(s_out[0].op[BC_OP_READ].ios == 2000);
	/* the header alone, as the aggregation pool reads it to route a body */
	memset(&g, 0, sizeof(g));
	CHECK(bc_stats_decode_hdr(buf, len, &g) == 0);
	CHECK(g.step == 3 && g.second == 17 && g.flags == BC_STATS_F_LATE && g.nvol == 2);
	CHECK(bc_stats_decode_hdr(buf, 3, &g) == -EBADMSG); /* cut inside the header */
	CHECK(bc_stats_decode_hdr(buf, 0, &g) == -EBADMSG);
	/* malformed input */
	CHECK(bc_stats_decode(buf, len - 1, &g, s_out, 2) == -EBADMSG);
	CHECK(bc_stats_decode(buf, len, &g, s_out, 1) == -ERANGE);
	buf[0] = BC_STATS_VERSION + 1;
	CHECK(bc_stats_decode(buf, len, &g, s_out, 2) == -EPROTO);
	CHECK(bc_stats_decode_hdr(buf, len, &g) == -EPROTO);
	CHECK(bc_stats_decode(buf, 0, &g, s_out, 2) == -EBADMSG);
	free(buf);
}

/*
 * The percentile buckets a body carries (BC_STATS_M_PCT) against a brute
 * force written apart from bc_volstat_pct_buckets: the samples of every op
 * listed one by one, sorted, and the ceil(p/100 * n)-th taken. Shapes: one
 * sample, one op or three, ranks that fall on a bucket's last sample, a long
 * tail. Then what a decoder must refuse or fall back on.
 */
static void test_stats_pct(void)
{
	static const double pcts[BC_STATS_PCT_NR] = {50, 90, 99, 99.9, 99.99};
	static struct bc_volstat v;
	static struct bc_stats_list lists[2];
	static uint16_t samples[200000];
	struct bc_stats_hdr h = {.second = 1, .nvol = 1}, g;
	uint8_t *buf = NULL;
	size_t len = 0;
	int t, o, p;

	for (t = 0; t < 300; t++) {
		uint16_t got[BC_STATS_PCT_NR];
		size_t n = 0, i, want;

		bc_volstat_reset(&v);
		for (o = 0; o < BC_OP_NR; o++) {
			size_t k,
			    ns = t % 3 == 0 && o ? 0 : (t % 7 == 0 ? 1 : bc_test_rand() % 5000);

			for (k = 0; k < ns; k++) {
				uint64_t lat =
				    t % 5 == 0
					? 20000 + bc_test_rand() % 16 /* few buckets */
					: 1000 + (bc_test_rand() >> (bc_test_rand() % 40 + 24));

				bc_opstat_complete(&v.op[o], 4096, 4096, lat);
				samples[n++] = (uint16_t)bc_hist_index(lat);
			}
		}
		if (!n) {
			CHECK(!bc_volstat_pct_buckets(&v, got));
			continue;
		}
		CHECK(bc_volstat_pct_buckets(&v, got));
		/* insertion into a counting array: the samples' buckets, sorted */
		{
			static uint32_t cnt[BC_HIST_BUCKETS];
			size_t at = 0;
			unsigned b;

			memset(cnt, 0, sizeof(cnt));
			for (i = 0; i < n; i++)
				cnt[samples[i]]++;
			for (b = 0; b < BC_HIST_BUCKETS; b++)
				while (cnt[b]--)
					samples[at++] = (uint16_t)b;
		}
		for (p = 0; p < BC_STATS_PCT_NR; p++) {
			double x = pcts[p] / 100.0 * (double)n;

			want = (size_t)x + ((double)(size_t)x < x);
			want = want ? want : 1;
			CHECK_MSG(got[p] == samples[want - 1],
				  "shape %d: p%g of %zu samples in bucket %u, not %u", t, pcts[p],
				  n, got[p], samples[want - 1]);
		}
		/* on the wire and back, as the coordinator reads it */
		CHECK(bc_stats_encode(&h, &v, &buf, &len) == 0);
		memset(lists, 0, sizeof(lists));
		bc_volstat_reset(&s_out[0]);
		CHECK(bc_stats_decode_list(buf, len, &g, s_out, lists, 1) == 0);
		CHECK(lists[0].seen && lists[0].has_pct && !memcmp(lists[0].pct, got, sizeof(got)));
		free(buf);
		buf = NULL;
	}
	/* without them (an agent before protocol 2): decoded, none listed */
	CHECK(bc_stats_encode_opts(&h, &v, BC_STATS_ENC_NO_PCT, &buf, &len) == 0);
	memset(lists, 0, sizeof(lists));
	CHECK(bc_stats_decode_list(buf, len, &g, s_out, lists, 1) == 0);
	CHECK(lists[0].seen && !lists[0].has_pct);
	free(buf);
	/* a bucket past the histogram's last is malformed; so is a body cut inside them */
	CHECK(bc_stats_encode(&h, &v, &buf, &len) == 0);
	CHECK(buf[len - 1] < 0x80);
	{
		uint8_t *big = malloc(len + 2);

		memcpy(big, buf, len - 1);
		big[len - 1] = 0xff; /* 16,383: past BC_HIST_BUCKETS from anywhere */
		big[len] = 0x7f;
		memset(lists, 0, sizeof(lists));
		CHECK(bc_stats_decode_list(big, len + 1, &g, s_out, lists, 1) == -EBADMSG);
		free(big);
	}
	memset(lists, 0, sizeof(lists));
	CHECK(bc_stats_decode_list(buf, len - 2, &g, s_out, lists, 1) == -EBADMSG);
	free(buf);
	/* a volume twice: its percentiles are no second's, the caller decodes it densely */
	CHECK(bc_stats_encode(&h, &v, &buf, &len) == 0);
	{
		/* header: version, step 0, second 1, flags 0, nvol: one byte each, nvol at 4 */
		uint8_t *two = malloc(2 * len - 5);

		memcpy(two, buf, len);
		memcpy(two + len, buf + 5, len - 5);
		two[4] = 2;
		memset(lists, 0, sizeof(lists));
		CHECK(bc_stats_decode_list(two, 2 * len - 5, &g, s_out, lists, 1) == 1);
		bc_volstat_reset(&s_out[0]);
		CHECK(bc_stats_decode(two, 2 * len - 5, &g, s_out, 1) == 0);
		CHECK(s_out[0].op[0].hist.count == 2 * v.op[0].hist.count);
		free(two);
	}
	free(buf);
}

int main(void)
{
	test_stats_roundtrip();
	test_stats_pct();
	TEST_DONE();
}
