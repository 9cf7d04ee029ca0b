/*
 * agg/pcts.c - a second's percentiles (agg/pcts.h).
 *   s_row_ranks - the ranks of the five percentiles, the row's fields zeroed
 *   bc_agg_pcts_agent - the path over the agents' buckets
 *   bc_agg_pcts - the exact path: one walk up the buckets' blocks, opening
 *                 only a block that reaches the next rank (s_dense_block,
 *                 s_listed_block read dense buckets and a volume's lists)
 *   bc_agg_pcts_range, bc_agg_pcts_volume - the two ways in for a record
 *
 * Volumes take the agents' buckets; agents (their record's sum), nodes and
 * the total (their merged second) and volumes without their agent's buckets
 * take the exact path. It runs for every agent each second and for every
 * volume without buckets (16,000 a second at 1,000 agents), over ~1,000
 * buckets each, so it steps over whole blocks that cannot reach the next
 * rank; a volume's block sums are added up by the fan-out in the pass that
 * adds its buckets everywhere (agg/fanout.c).
 */
#include <stdbool.h>
#include <string.h>

#include "agg/pcts.h"
#include "wire/hist.h"
#include "wire/stats.h"

#define S_BLOCK BC_AGG_PCT_BLOCK
_Static_assert(BC_HIST_BUCKETS % S_BLOCK == 0, "the blocks cover the histogram");

/* stands in for an unused op's buckets, so the sums below have no branches */
static const uint64_t s_zeros[BC_HIST_BUCKETS];

/* the ranks of the row's five percentiles among count samples; the row's percentiles zeroed */
static void s_row_ranks(struct bc_secrow *row, uint64_t count, uint64_t rank[5], uint64_t *out[5])
{
	int i;

	out[0] = &row->p50_ns;
	out[1] = &row->p90_ns;
	out[2] = &row->p99_ns;
	out[3] = &row->p999_ns;
	out[4] = &row->p9999_ns;
	for (i = 0; i < BC_STATS_PCT_NR; i++) {
		rank[i] = bc_hist_rank(bc_stats_pcts[i], count);
		*out[i] = 0;
	}
	row->max_ns = 0;
}

/*
 * Finding them here would cost a fifth of the aggregation's CPU at 16,000
 * volumes (docs/scaling.md). A volume named twice in a body has none.
 */
bool bc_agg_pcts_agent(struct bc_secrow *row, uint64_t count, const struct bc_stats_list *s,
		       uint32_t lo, uint32_t hi)
{
	uint64_t *out[BC_STATS_PCT_NR], rank[BC_STATS_PCT_NR];
	int p;

	if (!s->has_pct || !count || lo >= hi || s->pct[0] < lo ||
	    s->pct[BC_STATS_PCT_NR - 1] >= hi)
		return false;
	s_row_ranks(row, count, rank, out);
	row->max_ns = bc_hist_bucket_mid(hi - 1); /* a list's last entry: not empty */
	for (p = 0; p < BC_STATS_PCT_NR; p++)
		*out[p] = bc_hist_bucket_mid(s->pct[p]);
	return true;
}

/* the ops' dense arrays, s_zeros for an op without (the sums below name all four) */
_Static_assert(BC_OP_NR == 4, "pcts.c sums the ops' buckets by hand: one term per op");
static void s_dense_ops(const struct bc_agg_buckets *in, const uint64_t *d[BC_OP_NR])
{
	int o;

	for (o = 0; o < BC_OP_NR; o++)
		d[o] = in->dense[o] ? in->dense[o] : s_zeros;
}

/* the highest non-empty bucket, or BC_HIST_BUCKETS when none */
static uint32_t s_top(const struct bc_agg_buckets *in)
{
	const uint64_t *d[BC_OP_NR];
	uint32_t i;

	if (in->s)
		return in->hi - 1; /* a list's last entry: not empty */
	s_dense_ops(in, d);
	for (i = in->hi - in->lo; i-- > 0;)
		if (d[0][i] + d[1][i] + d[2][i] + d[3][i])
			return in->lo + i;
	return BC_HIST_BUCKETS;
}

/* dense: block j's buckets (0 outside [lo, hi)) summed over the ops into part; their sum */
static uint64_t s_dense_block(const struct bc_agg_buckets *in, const uint64_t *const d[BC_OP_NR],
			      uint32_t j, uint64_t part[S_BLOCK])
{
	const uint32_t first = j * S_BLOCK;
	uint64_t sum = 0;
	uint32_t b;

	if (first >= in->lo && first + S_BLOCK <= in->hi) {
		const uint32_t i = first - in->lo;

		for (b = 0; b < S_BLOCK; b++) {
			part[b] = d[0][i + b] + d[1][i + b] + d[2][i + b] + d[3][i + b];
			sum += part[b];
		}
		return sum;
	}
	for (b = 0; b < S_BLOCK; b++) {
		const uint32_t x = first + b;

		part[b] = x >= in->lo && x < in->hi ? d[0][x - in->lo] + d[1][x - in->lo] +
							  d[2][x - in->lo] + d[3][x - in->lo]
						    : 0;
		sum += part[b];
	}
	return sum;
}

/* the first of idx[from, n) (ascending) that is key or more: n when none */
static uint32_t s_lower(const uint16_t *idx, uint32_t from, uint32_t n, uint32_t key)
{
	while (from < n) {
		uint32_t mid = from + (n - from) / 2;

		if (idx[mid] < key)
			from = mid + 1;
		else
			n = mid;
	}
	return from;
}

/* listed: block j's buckets summed over the ops into part; at[o]: where op o's list is */
static void s_listed_block(const struct bc_stats_list *s, uint32_t j, uint64_t part[S_BLOCK],
			   uint32_t at[BC_OP_NR])
{
	const uint32_t first = j * S_BLOCK;
	int o;

	memset(part, 0, S_BLOCK * sizeof(*part));
	for (o = 0; o < BC_OP_NR; o++) {
		const uint16_t *x = s->idx[o];

		at[o] = s_lower(x, at[o], s->n[o], first);
		for (; at[o] < s->n[o] && x[at[o]] < first + S_BLOCK; at[o]++)
			part[x[at[o]] - first] += s->cnt[o][at[o]];
	}
}

/*
 * bc_agg_pcts' walk, made twice (listed a constant): no test per block of
 * which kind of buckets it reads
 */
static inline void s_walk(struct bc_secrow *row, uint64_t count, const struct bc_agg_buckets *in,
			  const bool listed)
{
	const struct bc_stats_list *s = in->s;
	const uint64_t *blk = in->blk, *d[BC_OP_NR];
	uint64_t *out[5], rank[5], seen = 0, part[S_BLOCK], sum;
	uint32_t at[BC_OP_NR] = {0}, top, j, b, p = 0;

	s_row_ranks(row, count, rank, out);
	if (!count || in->lo >= in->hi)
		return;
	top = s_top(in);
	if (top == BC_HIST_BUCKETS)
		return;
	row->max_ns = bc_hist_bucket_mid(top);
	s_dense_ops(in, d);
	for (j = in->lo / S_BLOCK; j <= top / S_BLOCK; j++) {
		sum = listed ? blk[j] : s_dense_block(in, d, j, part);
		if (seen + sum < rank[p]) {
			seen += sum;
			continue;
		}
		if (listed)
			s_listed_block(s, j, part, at);
		/* the whole block, so that seen stays a sum of whole blocks */
		for (b = 0; b < S_BLOCK; b++) {
			seen += part[b];
			while (seen >= rank[p]) {
				*out[p] = bc_hist_bucket_mid(j * S_BLOCK + b);
				if (++p == 5)
					return;
			}
		}
	}
	for (; p < 5; p++) /* not reached: count is more than the buckets hold */
		*out[p] = row->max_ns;
}

void bc_agg_pcts(struct bc_secrow *row, uint64_t count, const struct bc_agg_buckets *in)
{
	if (in->s)
		s_walk(row, count, in, true);
	else
		s_walk(row, count, in, false);
}

void bc_agg_pcts_range(struct bc_secrow *row, const struct bc_volstat *v, uint32_t lo, uint32_t hi)
{
	struct bc_agg_buckets in = {.lo = lo, .hi = hi};
	uint64_t count = 0;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		in.dense[o] = v->op[o].hist.count && lo < hi ? &v->op[o].hist.buckets[lo] : NULL;
		count += v->op[o].hist.count;
	}
	bc_agg_pcts(row, count, &in);
}

void bc_agg_pcts_volume(struct bc_secrow *row, const struct bc_volstat *v,
			const struct bc_stats_list *s)
{
	uint64_t blk[BC_AGG_PCT_BLOCKS], count = 0;
	struct bc_agg_buckets in = {.lo = BC_HIST_BUCKETS, .hi = 0, .s = s, .blk = blk};
	uint32_t i;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		count += v->op[o].hist.count;
		if (!s->n[o])
			continue;
		in.lo = s->idx[o][0] < in.lo ? s->idx[o][0] : in.lo;
		in.hi = s->idx[o][s->n[o] - 1] >= in.hi ? s->idx[o][s->n[o] - 1] + 1u : in.hi;
	}
	if (bc_agg_pcts_agent(row, count, s, in.lo, in.hi))
		return;
	if (in.lo < in.hi)
		memset(&blk[in.lo / S_BLOCK], 0,
		       ((in.hi - 1) / S_BLOCK - in.lo / S_BLOCK + 1) * sizeof(*blk));
	for (o = 0; o < BC_OP_NR; o++)
		for (i = 0; i < s->n[o]; i++)
			blk[s->idx[o][i] / S_BLOCK] += s->cnt[o][i];
	bc_agg_pcts(row, count, &in);
}
