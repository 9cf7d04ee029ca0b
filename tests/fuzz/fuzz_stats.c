/*
 * fuzz_stats: the STATS body decoder (bc_stats_decode) and the sparse
 * histogram decoder (bc_hist_decode_add) on arbitrary bytes. A body that
 * decodes must encode again, and that encoding must decode to the same
 * counters: the coordinator's totals rest on this.
 */
#include <stdlib.h>
#include <string.h>

#include "wire/hist.h"
#include "wire/stats.h"

#define S_NVOL 4

static struct bc_volstat s_a[S_NVOL], s_b[S_NVOL];
static struct bc_hist s_h;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_stats_hdr h, h2;
	uint8_t *out = NULL;
	size_t len = 0;
	int i, o;

	bc_hist_reset(&s_h);
	bc_hist_decode_add(&s_h, data, size);

	memset(s_a, 0, sizeof(s_a));
	for (i = 0; i < S_NVOL; i++)
		bc_volstat_reset(&s_a[i]);
	if (bc_stats_decode(data, size, &h, s_a, S_NVOL))
		return 0;
	if (h.nvol > S_NVOL)
		return 0;
	if (bc_stats_encode(&h, s_a, &out, &len))
		return 0;
	memset(s_b, 0, sizeof(s_b));
	for (i = 0; i < S_NVOL; i++)
		bc_volstat_reset(&s_b[i]);
	if (bc_stats_decode(out, len, &h2, s_b, S_NVOL))
		abort();
	/*
	 * Every op with completions survives whole. An op without any is not
	 * encoded, so bytes or latencies without completions (which no agent
	 * sends) are dropped, and that is fine.
	 */
	for (i = 0; i < (int)h.nvol; i++)
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *x = &s_a[i].op[o], *y = &s_b[i].op[o];

			if (!x->ios && !x->errors && !x->short_ios)
				continue;
			if (x->ios != y->ios || x->bytes != y->bytes || x->errors != y->errors ||
			    x->short_ios != y->short_ios || x->hist.count != y->hist.count)
				abort();
		}
	free(out);
	return 0;
}
