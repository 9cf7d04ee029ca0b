/*
 * agg/fanout.c - a decoded record added everywhere (agg/fanout.h): the
 * aggregation's hot path, and the only place that asks for memory ahead.
 *   pending counts - a volume's window buckets as 8-bit counts first
 *                    (bc_agg_pend_alloc, s_pend_place, s_pend_empty,
 *                    bc_agg_windows_final)
 *   lists - a volume's listed buckets into a dense or a range histogram
 *           (s_hist_add_pairs, s_span_list, s_rhist_add_list, s_window_list)
 *   counters - a volume's counters into an entity and its second's row
 *              (s_entity_counters)
 *   prefetching - the next volumes' lines asked for while one is added
 *                 (s_vol_prefetch, s_pend_prefetch, s_agent_prefetch)
 *   the fan-out - one volume's buckets in one pass into its window (or
 *                 pending counts), its node's open second, the record's sum
 *                 and the block sums its percentiles need (s_vol_fanout,
 *                 s_fan_window, s_fan_pend)
 *   the record's sum - into the agent's window and the total (s_asum_drain)
 *   bc_agg_fanout - a record: every volume, then the sum
 *
 * Cost model (bench/swarm.sh: 1,000 agents x 16 volumes; a volume-second
 * fills a few hundred of the 7,424 buckets): a record is decoded once into
 * the scratch volumes' counters and, per volume and op, an ascending list of
 * its non-empty buckets with their counts (bc_stats_decode_list), which every
 * histogram operation walks; no dense histogram is written or cleared for a
 * volume's record. The levels' histograms are added through those lists or
 * the range they span, never whole.
 *  - A volume and an agent get one record per second, so their per-second
 *    percentiles are computed from the record itself (the scratch volume, or
 *    the record's sum in the lane's asum) when it arrives. A second record
 *    for the same volume or agent and second (an agent repeating itself) is
 *    counted like a late one: in the counters and the window, not in
 *    percentiles.
 *  - Nodes and the total merge many records per second: they keep a range
 *    histogram per open second (agg/rhist.h), per op, which is added to their
 *    window when the second closes (agg/second.c); the total is fed the
 *    record's sum (hundreds of buckets) rather than each volume.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "agg/fanout.h"
#include "agg/pcts.h"
#include "agg/rhist.h"
#include "agg/rows.h"
#include "agg/volnode.h"
#include "fleet/fleet.h"

/*
 * A volume's window add is the aggregation's cold store: at 1,000 agents
 * 16,000 windows, each touched once a second, a 64-byte line per 8 buckets
 * of 8 bytes. So a volume's buckets within BC_AGG_PEND of two octaves
 * below its first listed bucket add to 8-bit pending counts first, 64 to
 * a line: the lines a second's pairs touch are the cost, so the narrower
 * the count the fewer. A count that would pass 255 goes to the window with
 * the pair's count and restarts at 0: rare at the rates the counts are for (a bucket
 * of a volume doing 2,000 IOPS gets a few samples a second), so the test
 * is a branch the CPU predicts. The rest reach the window when the step's
 * records are all in (bc_agg_windows_final, from bc_agg_finish), before
 * anything reads a window's buckets. A volume doing more than S_PEND_MAX
 * samples of an op in a second would pass 255 in its busy buckets every
 * second and adds to its window directly. Exact: a pending count is a part
 * of its bucket's. 2 KB per volume and op the step uses, resident from the
 * start (64 MB at 16,000 volumes doing reads and writes). bench/agg.c
 * figures: docs/scaling.md.
 */
#define S_PEND_MAX 8192u
#define S_HUGE	   ((size_t)2 << 20)

int bc_agg_pend_alloc(struct bc_agg *g, const bool *ops)
{
	size_t per = 0, len, map, pg;
	uint8_t *p;
	int i, o;

	for (o = 0; o < BC_OP_NR; o++)
		per += ops[o] ? BC_AGG_PEND : 0;
	len = per * (size_t)g->nent[BC_LVL_VOLUME] * sizeof(*p);
	if (!len)
		return 0;
	/*
	 * 2 MB pages where the kernel gives them (THP, "madvise" on Debian) and
	 * the counts fill one: each volume's are another 4 KB page otherwise,
	 * a TLB miss every time at 16,000 volumes, which s_pend_prefetch's
	 * loop would stall on. Dense and all used: nothing wasted.
	 */
	map = len >= S_HUGE ? (len + S_HUGE - 1) & ~(S_HUGE - 1) : len;
	p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	if (map >= S_HUGE)
		madvise(p, map, MADV_HUGEPAGE); /* a hint: 4 KB pages if refused */
	g->pend_len = map;
	/* resident now, not by page faults in the first second: a write to each page */
	for (pg = 0; pg < len / 4096; pg++)
		__atomic_fetch_add(&p[pg * (4096 / sizeof(*p))], 0, __ATOMIC_RELAXED);
	g->pend = p;
	for (i = 0; i < g->nent[BC_LVL_VOLUME]; i++)
		for (o = 0; o < BC_OP_NR; o++)
			if (ops[o]) {
				g->ent[BC_LVL_VOLUME][i].pend[o] = p;
				p += BC_AGG_PEND;
			}
	return 0;
}

/* where volume e's pending counts start, from its first listed buckets [lo, ...) */
static void s_pend_place(struct bc_entity *e, uint32_t lo)
{
	const uint32_t below = 2 * BC_HIST_SUB;

	e->pend_lo = lo > below ? lo - below : 0;
	if (e->pend_lo > BC_HIST_BUCKETS - BC_AGG_PEND)
		e->pend_lo = BC_HIST_BUCKETS - BC_AGG_PEND;
	e->pend_set = true;
}

/* volume e's pending counts of op o into its window, and zeroed */
static void s_pend_empty(struct bc_entity *e, int o)
{
	uint64_t *w = &e->window.op[o].hist.buckets[e->pend_lo];
	uint8_t *p = e->pend[o];
	uint32_t j, q, end = e->pend_hi[o];

	/* [0, pend_hi): what was added to; mostly cold at the step's end, so not a page more */
	for (j = 0; j < end; j += 8) {
		uint64_t eight;

		memcpy(&eight, &p[j], sizeof(eight)); /* eight at a time */
		if (!eight)
			continue; /* a window page no sample reached stays unmapped */
		/*
		 * all eight, without a test each: the eight share a window line or
		 * two that the non-empty ones bring in anyway, and a test per count
		 * (its outcome as random as the samples) would be most of the
		 * step's finish
		 */
		for (q = 0; q < 8; q++)
			w[j + q] += p[j + q];
		memset(&p[j], 0, sizeof(eight));
	}
	e->pend_hi[o] = 0;
}

/*
 * pend[o] is NULL afterwards, so a second call finds nothing; the memory
 * goes with the rest in bc_agg_free: the step's end is on the way to its
 * results.
 */
void bc_agg_windows_final(struct bc_agg *g)
{
	int i, o;

	if (!g->pend)
		return;
	for (i = 0; i < g->nent[BC_LVL_VOLUME]; i++) {
		struct bc_entity *e = &g->ent[BC_LVL_VOLUME][i];

		for (o = 0; o < BC_OP_NR; o++) {
			if (e->pend[o])
				s_pend_empty(e, o);
			e->pend[o] = NULL;
		}
	}
}

/* listed buckets (count samples in all) into a dense histogram */
static void s_hist_add_pairs(struct bc_hist *dst, const uint16_t *idx, const uint64_t *cnt,
			     uint32_t n, uint64_t count)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		dst->buckets[idx[i]] += cnt[i];
	dst->count += count;
}

/* [*lo, *hi) grown to cover a volume's listed buckets (ascending: the ends) */
static void s_span_list(const struct bc_stats_list *s, uint32_t *lo, uint32_t *hi)
{
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		if (!s->n[o])
			continue;
		*lo = s->idx[o][0] < *lo ? s->idx[o][0] : *lo;
		*hi = s->idx[o][s->n[o] - 1] >= *hi ? s->idx[o][s->n[o] - 1] + 1u : *hi;
	}
}

/* a volume's listed buckets into *hp */
static int s_rhist_add_list(struct bc_rhist **freel, struct bc_rhist **hp,
			    const struct bc_volstat *v, const struct bc_stats_list *s)
{
	struct bc_rhist *h;
	uint32_t i, lo = BC_HIST_BUCKETS, hi = 0;
	int o;

	s_span_list(s, &lo, &hi);
	if (lo >= hi)
		return 0;
	if (bc_rhist_cover(freel, hp, lo, hi))
		return -ENOMEM;
	h = *hp;
	for (o = 0; o < BC_OP_NR; o++) {
		uint64_t *b = &h->b[(size_t)o * h->cap];

		for (i = 0; i < s->n[o]; i++)
			b[s->idx[o][i] - h->lo] += s->cnt[o][i];
		h->count += v->op[o].hist.count;
	}
	return 0;
}

/*
 * Does merging c change anything (is it not as bc_opcnt_reset left it)? An
 * op the workload does not issue (trim in randrw) is then not merged:
 * its counters are on a page of their own in each of 16,000 volumes'
 * windows, a TLB miss each.
 */
static bool s_opcnt_used(const struct bc_opcnt *c)
{
	return c->ios | c->bytes | c->errors | c->short_ios | c->lat_sum_ns | c->lat_max_ns |
	       (uint64_t)(c->lat_min_ns != UINT64_MAX) | (uint64_t)c->first_errno;
}

/*
 * Counters of v into e's "all", window and row ri (second k). Returns true
 * when v's histograms belong in e's second k too: k is a second of the step
 * that is still open (and, with first_only, e has no report for it yet).
 * eseq (a lane's partial entity): where to note seq when an op's
 * first_errno is set, so the merge can keep the first in arrival order.
 */
static bool s_entity_counters(struct bc_entity *e, const struct bc_agg *g, uint32_t k, uint32_t ri,
			      const struct bc_volstat *v, bool first_only,
			      uint64_t (*eseq)[BC_OP_NR], uint64_t seq)
{
	struct bc_secrow *row;
	bool open, used[BC_OP_NR];
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		used[o] = s_opcnt_used(&v->op[o].cnt);
		if (!used[o])
			continue;
		if (eseq && !e->all.op[o].first_errno && v->op[o].first_errno)
			eseq[0][o] = seq;
		bc_opcnt_merge(&e->all.op[o], &v->op[o].cnt);
	}
	e->all.verify_errors += v->verify_errors;
	if (k >= g->seconds)
		return false; /* the drain interval counts in totals only */
	if (k >= g->ramp_s) {
		for (o = 0; o < BC_OP_NR; o++) {
			if (!used[o])
				continue;
			if (eseq && !e->window.op[o].first_errno && v->op[o].first_errno)
				eseq[1][o] = seq;
			bc_opcnt_merge(&e->window.op[o].cnt, &v->op[o].cnt);
		}
		e->window.verify_errors += v->verify_errors;
	}
	row = bc_entity_row(e, ri);
	open = k >= g->closed && !(first_only && row->reports);
	for (o = 0; o < BC_OP_NR; o++) {
		row->ios[o] += v->op[o].ios;
		row->bytes[o] += v->op[o].bytes;
		row->errors += v->op[o].errors;
		row->short_ios += v->op[o].short_ios;
		row->lat_sum_ns += v->op[o].lat_sum_ns;
		row->op_lat_sum_ns[o] += v->op[o].lat_sum_ns;
		if (v->op[o].ios && v->op[o].lat_max_ns > row->op_max_ns[o])
			row->op_max_ns[o] = v->op[o].lat_max_ns;
	}
	row->reports++;
	/* the second was already closed and printed (or reported): count it, mark it late */
	if (!open)
		row->late++;
	return open;
}

/* the window histograms of e from a volume's record lists (when k is in the window) */
static void s_window_list(struct bc_entity *e, const struct bc_agg *g, uint32_t k,
			  const struct bc_volstat *v, const struct bc_stats_list *s)
{
	int o;

	if (k < g->ramp_s || k >= g->seconds)
		return;
	for (o = 0; o < BC_OP_NR; o++)
		s_hist_add_pairs(&e->window.op[o].hist, s->idx[o], s->cnt[o], s->n[o],
				 v->op[o].hist.count);
}

/*
 * a node: a volume's record lists into its open second, or straight into
 * the window when late
 */
static int s_merged_add_list(struct bc_agg_lane *l, struct bc_entity *e, uint32_t k, uint32_t ri,
			     bool open, const struct bc_volstat *v, const struct bc_stats_list *s)
{
	if (open)
		return s_rhist_add_list(l->rh_free, &e->sec_hist[ri], v, s);
	s_window_list(e, l->g, k, v, s);
	return 0;
}

/* the node or total entity j of level lvl that lane l adds into, and its first_errno notes */
static struct bc_entity *s_merged(struct bc_agg_lane *l, int lvl, int j,
				  uint64_t (**eseq)[BC_OP_NR])
{
	if (!l->part[lvl]) {
		*eseq = NULL;
		return &l->g->ent[lvl][j];
	}
	*eseq = l->errno_seq[lvl == BC_LVL_TOTAL ? l->g->nent[BC_LVL_NODE] : j];
	return &l->part[lvl][j];
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

/* the lines of [p, p + len), asked for (a prefetch is only a hint: never a fault) */
static inline __attribute__((always_inline)) void s_prefetch_span(const void *p, size_t len)
{
	const char *c = p;
	size_t off;

	for (off = 0; off < len; off += 64)
		__builtin_prefetch(c + off, 1, 3);
	__builtin_prefetch(c + len - 1, 1, 3); /* the last line, when p is not at a line's start */
}

/*
 * A volume's own lines that each of its seconds writes, apart from its
 * histogram buckets: its counters (all, and window's per op, with the
 * window histogram's count) and the fields after window (rows, pending
 * counts' place), and its node's number (bc_agg_vol_node: one in a
 * profile volume of 2 KB). 16,000 volumes touched once a second: each
 * line is a miss, which the counters' adds (s_entity_counters), the
 * window's count and the node's number would stall on. Asked for two
 * volumes ahead, so that s_pend_prefetch can read the fields it needs a
 * volume ahead. Inlined always: GCC finds a function of prefetches alone
 * free of side effects (const) and drops the call.
 */
static inline __attribute__((always_inline)) void s_vol_prefetch(const struct bc_agg *g, int vol)
{
	const struct bc_entity *ve = &g->ent[BC_LVL_VOLUME][vol];
	int o;

	if (g->volnode)
		__builtin_prefetch(&g->volnode[vol], 0, 3);
	else
		__builtin_prefetch(&g->prof->volumes[vol].node, 0, 3);

	s_prefetch_span(&ve->all, sizeof(ve->all));
	for (o = 0; o < BC_OP_NR; o++) {
		s_prefetch_span(&ve->window.op[o].cnt, sizeof(ve->window.op[o].cnt));
		s_prefetch_span(&ve->window.op[o].hist.count, sizeof(ve->window.op[o].hist.count));
	}
	s_prefetch_span(&ve->window.verify_errors, sizeof(ve->window.verify_errors));
	s_prefetch_span(&ve->rows, sizeof(*ve) - offsetof(struct bc_entity, rows));
}

/*
 * The agent's window lines that s_asum_drain will add the record's sum
 * to, asked for a part at a time while the volumes are added: that add
 * (1,000 agents' windows, each touched once a second) stalls on memory as
 * the volumes' pending counts do. Before volume i of n, the first
 * i / (n - 1) of the span so far [lo, hi) from *next on (the span grows
 * little after the first volume; what is missed the drain loads itself).
 */
static inline __attribute__((always_inline)) void s_agent_prefetch(const struct bc_entity *agent,
								   uint32_t lo, uint32_t hi,
								   uint32_t *next, int i, int n)
{
	uint32_t to, b;
	int o;

	if (lo >= hi || n < 2)
		return;
	to = lo + (uint32_t)((uint64_t)(hi - lo) * (uint32_t)i / (uint32_t)(n - 1));
	b = *next > lo ? *next : lo;
	for (; b < to; b += 64 / sizeof(uint64_t))
		for (o = 0; o < BC_OP_NR; o++)
			__builtin_prefetch(&agent->window.op[o].hist.buckets[b], 1, 2);
	*next = b > *next ? b : *next;
}

/*
 * The next volume's pending counts that its record's lists will reach,
 * asked for while this volume is added: the load of a pending count (2 KB
 * per volume and op, 16,000 volumes touched once a second) is the
 * aggregation's hottest instruction, waiting on memory. The lists are
 * decoded before the first volume is added, so the lines are known a volume
 * ahead (about a microsecond).
 */
static void s_pend_prefetch(const struct bc_entity *ve, const struct bc_stats_list *s)
{
	int o;

	if (!ve->pend_set)
		return;
	for (o = 0; o < BC_OP_NR; o++) {
		uint32_t a, z, j;

		if (!ve->pend[o] || !s->n[o])
			continue;
		a = s->idx[o][0];
		z = s->idx[o][s->n[o] - 1] + 1u;
		/* [a, z) within the pending range [pend_lo, pend_lo + BC_AGG_PEND) */
		a = a > ve->pend_lo ? a - ve->pend_lo : 0;
		z = z > ve->pend_lo ? z - ve->pend_lo : 0;
		z = z < BC_AGG_PEND ? z : BC_AGG_PEND;
		for (j = a & ~63u; j < z; j += 64)
			__builtin_prefetch(&ve->pend[o][j], 1, 3);
	}
}

/*
 * s_vol_fanout's loops over a volume's listed buckets [from, to) of one op:
 * each into the node's open second (nb), the record's sum and, when the
 * volume's percentiles are to be found (blocks), the lane's block sums
 * (agg/pcts.h), and into the volume's window or its pending counts (pd; a
 * count that would pass 255 goes to the window, see bc_agg_pend_alloc). nb and
 * pd are indexed by bucket, though the node's second starts at its lo and
 * the pending counts at the volume's pend_lo: s_by_bucket made them so,
 * and only the buckets they cover are indexed. 32-bit buckets: no
 * zero-extension per use.
 */
static inline void s_fan_window(const uint16_t *idx, const uint64_t *cnt, uint32_t from,
				uint32_t to, uint64_t *win, uint64_t *nb, uint64_t *sum,
				uint64_t *blk, const bool blocks)
{
	uint32_t i;

	for (i = from; i < to; i++) {
		const uint32_t b = idx[i];
		const uint64_t c = cnt[i];

		win[b] += c;
		nb[b] += c;
		sum[b] += c;
		if (blocks)
			blk[b / BC_AGG_PCT_BLOCK] += c;
	}
}

static inline void s_fan_pend(const uint16_t *idx, const uint64_t *cnt, uint32_t from, uint32_t to,
			      uint8_t *pd, uint64_t *win, uint64_t *nb, uint64_t *sum,
			      uint64_t *blk, const bool blocks)
{
	uint32_t i;

	for (i = from; i < to; i++) {
		const uint32_t b = idx[i];
		const uint64_t c = cnt[i];
		uint64_t t = pd[b] + c;

		if (__builtin_expect(t > UINT8_MAX, 0)) {
			win[b] += t;
			t = 0;
		}
		pd[b] = (uint8_t)t;
		nb[b] += c;
		sum[b] += c;
		if (blocks)
			blk[b / BC_AGG_PCT_BLOCK] += c;
	}
}

/*
 * An array whose first element is bucket lo's, as one indexed by bucket:
 * its address minus lo elements (through an integer: the pointer itself
 * would point outside the array): a subtraction saved per bucket in the
 * loops above.
 */
static inline void *s_by_bucket(void *a, uint32_t lo, size_t size)
{
	return (void *)((uintptr_t)a - (uintptr_t)lo * size);
}

/*
 * The common case of one volume's histograms, in one pass over its listed
 * buckets instead of three (each pass a cache miss per bucket into a
 * different entity, 16,000 times a second at 1,000 agents): into the
 * volume's window, its node's open second ne_h (covering [lo, hi) after
 * bc_rhist_cover), the record's sum and, when row (the volume's open second)
 * is given and its agent did not send the second's percentiles, the lane's
 * block sums, to find them; [*alo, *ahi), the record's sum's span, grown to
 * cover the volume's buckets. Second k is in the window.
 */
static int s_vol_fanout(struct bc_agg_lane *l, struct bc_entity *ve, struct bc_rhist **ne_h,
			const struct bc_volstat *v, const struct bc_stats_list *s,
			struct bc_secrow *row, uint32_t *alo, uint32_t *ahi)
{
	uint32_t lo = BC_HIST_BUCKETS, hi = 0, nlo;
	uint64_t *blk = l->blk, count = 0;
	struct bc_rhist *h;
	bool blocks;
	int o;

	s_span_list(s, &lo, &hi);
	if (lo >= hi) {
		if (row)
			bc_agg_pcts_volume(row, v, s); /* no samples: percentiles of 0 */
		return 0;
	}
	if (bc_rhist_cover(l->rh_free, ne_h, lo, hi))
		return -ENOMEM;
	*alo = lo < *alo ? lo : *alo;
	*ahi = hi > *ahi ? hi : *ahi;
	h = *ne_h;
	nlo = h->lo;
	if (!ve->pend_set)
		s_pend_place(ve, lo);
	for (o = 0; o < BC_OP_NR; o++)
		count += v->op[o].hist.count;
	blocks = row && !bc_agg_pcts_agent(row, count, s, lo, hi);
	for (o = 0; o < BC_OP_NR; o++) {
		const uint64_t *cnt = s->cnt[o];
		uint64_t *win = ve->window.op[o].hist.buckets, *sum = l->asum->op[o].hist.buckets;
		uint64_t *nb = &h->b[(size_t)o * h->cap]; /* bucket b at nb[b - nlo] */
		uint8_t *pd;
		const uint16_t *idx = s->idx[o];
		const uint64_t vc = v->op[o].hist.count;
		const uint32_t n = s->n[o], plo = ve->pend_lo;
		uint32_t a = n, z = n; /* the list's part [a, z) in the pending counts */

		if (ve->pend[o] && vc <= S_PEND_MAX) {
			a = s_lower(idx, 0, n, plo);
			z = s_lower(idx, a, n, plo + BC_AGG_PEND);
			if (z > a && idx[z - 1] - plo >= ve->pend_hi[o])
				ve->pend_hi[o] = idx[z - 1] - plo + 1u;
		}
		/* each loop twice, with and without the block sums: no test per bucket */
		nb = s_by_bucket(nb, nlo, sizeof(*nb));
		pd = a < z ? s_by_bucket(ve->pend[o], plo, sizeof(*ve->pend[o])) : NULL;
		if (blocks) {
			s_fan_window(idx, cnt, 0, a, win, nb, sum, blk, true);
			s_fan_pend(idx, cnt, a, z, pd, win, nb, sum, blk, true);
			s_fan_window(idx, cnt, z, n, win, nb, sum, blk, true);
		} else {
			s_fan_window(idx, cnt, 0, a, win, nb, sum, blk, false);
			s_fan_pend(idx, cnt, a, z, pd, win, nb, sum, blk, false);
			s_fan_window(idx, cnt, z, n, win, nb, sum, blk, false);
		}
		ve->window.op[o].hist.count += v->op[o].hist.count;
		l->asum->op[o].hist.count += v->op[o].hist.count;
		h->count += v->op[o].hist.count;
	}
	if (blocks) {
		const struct bc_agg_buckets in = {.lo = lo, .hi = hi, .s = s, .blk = blk};

		bc_agg_pcts(row, count, &in);
		memset(&blk[lo / BC_AGG_PCT_BLOCK], 0,
		       ((hi - 1) / BC_AGG_PCT_BLOCK - lo / BC_AGG_PCT_BLOCK + 1) * sizeof(*blk));
	}
	return 0;
}

/*
 * The record's sum l->asum (buckets in [lo, hi)) into the agent's window
 * (k in the window), the total's open second mk (total_open) or else its
 * window, and cleared for the next record, in one pass over the range
 * instead of three (two dense adds and a memset, each a pass over the
 * range). A dense pass over the range
 * (a few thousand buckets) costs less than a list of the buckets the sum
 * made non-empty: a test and a store for each of the record's ~9,000
 * pairs. total NULL: not into the total. 0 or -ENOMEM (the total's second
 * is then unchanged).
 */
static int s_asum_drain(struct bc_agg_lane *l, struct bc_entity *agent, struct bc_entity *total,
			uint32_t k, uint32_t mk, bool total_open, uint32_t lo, uint32_t hi)
{
	struct bc_volstat *v = l->asum;
	const bool win = k >= l->g->ramp_s && k < l->g->seconds;
	const uint32_t n = lo < hi ? hi - lo : 0;
	struct bc_rhist *h = NULL;
	int o, rc = 0;

	if (total && total_open) {
		if (n)
			rc = bc_rhist_cover(l->rh_free, &total->sec_hist[mk], lo, hi);
		h = n && !rc ? total->sec_hist[mk] : NULL;
		total = NULL; /* h or nothing */
	} else if (!win) {
		total = NULL; /* late, outside the window: in no histogram */
	}
	for (o = 0; o < BC_OP_NR; o++) {
		struct bc_opstat *s = &v->op[o];
		uint64_t *src = &s->hist.buckets[lo], *a = NULL, *t = NULL, c = s->hist.count;
		uint32_t i;

		if (!c) {
			bc_opstat_reset_counters(s);
			continue;
		}
		if (win) {
			a = &agent->window.op[o].hist.buckets[lo];
			agent->window.op[o].hist.count += c;
		}
		if (h) {
			t = &h->b[(size_t)o * h->cap + (lo - h->lo)];
			h->count += c;
		} else if (total) {
			t = &total->window.op[o].hist.buckets[lo];
			total->window.op[o].hist.count += c;
		}
		if (a && t) {
			for (i = 0; i < n; i++) {
				a[i] += src[i];
				t[i] += src[i];
				src[i] = 0;
			}
		} else if (a || t) {
			uint64_t *d = a ? a : t;

			for (i = 0; i < n; i++) {
				d[i] += src[i];
				src[i] = 0;
			}
		} else if (n) {
			memset(src, 0, n * sizeof(*src));
		}
		s->hist.count = 0;
		bc_opstat_reset_counters(s);
	}
	v->verify_errors = 0;
	return rc;
}

int bc_agg_fanout(struct bc_agg_lane *l, const struct bc_conn *c, const struct bc_stats_hdr *hdr)
{
	struct bc_agg *g = l->g;
	uint32_t k = hdr->second;
	/* the row of second k in a node or the total: a slot in a lane's partial copies */
	uint32_t mk = l->part[BC_LVL_TOTAL] ? k % BC_AGG_SLOTS : k;
	struct bc_entity *agent = &g->ent[BC_LVL_AGENT][c->index];
	uint64_t(*tseq)[BC_OP_NR], (*nseq)[BC_OP_NR];
	struct bc_entity *total = s_merged(l, BC_LVL_TOTAL, 0, &tseq);
	bool agent_open = false, total_open = false, open;
	/* the span of the record's sum (its touch list holds no order): the volumes' spans */
	uint32_t alo = BC_HIST_BUCKETS, ahi = 0, apf = 0;
	const bool agent_win = k >= g->ramp_s && k < g->seconds; /* s_asum_drain adds to it */
	int i, o, rc = 0;

	if (k != BC_STATS_DRAIN && k >= g->seconds)
		return -ERANGE;
	/* a worker lane: the main thread touched the rows before handing the record over */
	if (!l->part[BC_LVL_TOTAL] && g->rows_map && k < g->seconds && k >= g->touched)
		bc_agg_rows_touch(g, k);
	for (i = 0; i < c->nvols && !rc; i++) {
		const struct bc_volstat *v = &l->scratch[i];
		const struct bc_stats_list *s = &l->sl[i];
		int vol = c->vols[i], node = bc_agg_vol_node(g, vol);
		struct bc_entity *ve = &g->ent[BC_LVL_VOLUME][vol];

		if (i == 0) /* the first two: while the first one's lines come in */
			for (int j = 0; j < 2 && j < c->nvols; j++)
				s_vol_prefetch(g, c->vols[j]);
		if (i + 2 < c->nvols)
			s_vol_prefetch(g, c->vols[i + 2]);
		if (i + 1 < c->nvols)
			s_pend_prefetch(&g->ent[BC_LVL_VOLUME][c->vols[i + 1]], &l->sl[i + 1]);
		if (agent_win)
			s_agent_prefetch(agent, alo, ahi, &apf, i, c->nvols);

		struct bc_entity *ne = NULL;
		/* a volume: its own second from this record alone (below) */
		bool vopen = s_entity_counters(ve, g, k, k, v, true, NULL, 0);

		/* the agent: the first record of second k, decided on its first volume */
		open = s_entity_counters(agent, g, k, k, v, i == 0, NULL, 0);
		if (i == 0)
			agent_open = open;
		total_open = s_entity_counters(total, g, k, mk, v, false, tseq, l->seq);
		open = false;
		if (node >= 0) {
			ne = s_merged(l, BC_LVL_NODE, node, &nseq);
			open = s_entity_counters(ne, g, k, mk, v, false, nseq, l->seq);
		}
		if (open && k >= g->ramp_s && k < g->seconds) {
			rc = s_vol_fanout(l, ve, &ne->sec_hist[mk], v, s,
					  vopen ? bc_entity_row(ve, k) : NULL, &alo, &ahi);
			continue;
		}
		if (vopen)
			bc_agg_pcts_volume(bc_entity_row(ve, k), v, s);
		/* the rest: the volume's window, its node's second or window, the record's sum */
		s_window_list(ve, g, k, v, s);
		if (ne)
			rc = s_merged_add_list(l, ne, k, mk, open, v, s);
		if (k >= g->seconds)
			continue;
		for (o = 0; o < BC_OP_NR; o++)
			s_hist_add_pairs(&l->asum->op[o].hist, s->idx[o], s->cnt[o], s->n[o],
					 v->op[o].hist.count);
		s_span_list(s, &alo, &ahi);
	}
	if (k < g->seconds) {
		if (agent_open)
			bc_agg_pcts_range(bc_entity_row(agent, k), l->asum, alo, ahi);
		/* after a volume failed (-ENOMEM) the total is left alone; the sum is cleared
		 * anyway */
		int drc = s_asum_drain(l, agent, rc ? NULL : total, k, mk, total_open, alo, ahi);

		rc = rc ? rc : drc;
		/* a worker lane's records are counted by the main thread as they arrive */
		if (!l->part[BC_LVL_TOTAL]) {
			g->agents_reported[k]++;
			if (hdr->flags & BC_STATS_F_LATE)
				g->late[k]++;
		}
	}
	return rc;
}
