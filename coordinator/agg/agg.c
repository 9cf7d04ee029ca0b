/*
 * agg/agg.c - aggregation of one step's STATS records into volumes, client
 * hosts (agents), storage nodes and the total. Everything is a sum of
 * counters and histograms, so every level and every window is exact; the
 * percentiles of a second come from that second's merged histogram.
 *
 * Cost model (bench/swarm.sh: 1,000 agents x 16 volumes; a volume-second
 * fills a few hundred of the 7,424 buckets): a record is decoded once into
 * the scratch volumes' counters and, per volume and op, an ascending list of
 * its non-empty buckets with their counts (bc_stats_decode_list), which every
 * histogram operation walks; no dense histogram is written or cleared for a
 * volume's record (a body naming a volume twice is decoded densely, then
 * listed). The levels' histograms are added through those lists or the range
 * they span, never whole.
 *  - A volume and an agent get one record per second, so their per-second
 *    percentiles are computed from the record itself (the scratch volume, or
 *    the record's sum in g->asum) when it arrives. A second record for the
 *    same volume or agent and second (an agent repeating itself) is counted
 *    like a late one: in the counters and the window, not in percentiles.
 *  - Nodes and the total merge many records per second: they keep a range
 *    histogram per open second (struct bc_rhist), per op, which is added to
 *    their window when the second closes; the total is fed the record's sum
 *    (hundreds of buckets) rather than each volume.
 *
 * The adding is done on a lane (agg/lane.h): the serial one over g's own
 * scratch, or one per worker thread (agg/pool.c), whose nodes and total are
 * partial copies merged here by the main thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/lane.h"
#include "agg/secfile.h"
#include "agg/volnode.h"
#include "fleet/fleet.h"
#include "util/json.h"
#include "util/log.h"

/*
 * Buckets [lo, lo + n) of each op, op o at b[o * cap]; grown in steps of
 * S_RH_SLACK. Closed seconds' histograms go to a free list for reuse:
 * freeing thousands a second made glibc hand the memory back to the kernel
 * and fault it in again.
 */
struct bc_rhist {
	uint32_t lo, n, cap;
	uint64_t count;
	struct bc_rhist *next; /* on the free list */
	uint64_t b[];
};

#define S_RH_SLACK 256

/* a lane's vblk: one volume's samples in each block of S_VBLK buckets (s_row_blocks) */
#define S_VBLK	  16
#define S_VBLK_NR (BC_HIST_BUCKETS / S_VBLK)
_Static_assert(BC_HIST_BUCKETS % S_VBLK == 0, "the blocks cover the histogram");

static void s_secfile_fail(struct bc_agg *g);

/*
 * e comes zeroed from calloc: a memset would make all of its 350 KB
 * resident. merged: a node or the total, which keeps open seconds' histograms.
 * rows: the entity's row of second 0 in g->rows (stride rows between two
 * seconds); NULL: a lane's partial entity, with rows of its own.
 */
static int s_entity_init(struct bc_entity *e, uint32_t seconds, bool merged, struct bc_secrow *rows,
			 size_t stride)
{
	bc_volstat_reset(&e->window);
	bc_volcnt_reset(&e->all);
	e->rows = rows ? rows : calloc(seconds, sizeof(*e->rows));
	e->rows_stride = rows ? stride : 1;
	/* resident now, not by page faults when the first second's records are added */
	if (!rows && e->rows)
		memset(e->rows, 0, seconds * sizeof(*e->rows));
	if (merged)
		e->sec_hist = calloc(seconds, sizeof(*e->sec_hist));
	return (e->rows && (!merged || e->sec_hist)) ? 0 : -ENOMEM;
}

static void s_entity_free(struct bc_entity *e, uint32_t seconds, bool own_rows)
{
	uint32_t k;

	for (k = 0; e->sec_hist && k < seconds; k++)
		free(e->sec_hist[k]);
	free(e->sec_hist);
	if (own_rows)
		free(e->rows);
}

/*
 * The per-second rows of every entity grow with the run (184 bytes per
 * entity-second: 3 MB a second at 16,000 volumes) and are only read again
 * for run.json and the reports. They are second-major: second k's rows of
 * every entity side by side, so the rows being written are a few MB at the
 * head and every row behind the open seconds is final (a late record adds
 * to one now and then).
 *
 * Past S_SPILL_MIN they live in an unlinked file under /var/tmp mapped
 * shared, and between two seconds (bc_agg_rows_ahead) the pages wholly
 * behind the open seconds are dropped from the process with MADV_DONTNEED,
 * one call for all of them: a shared file mapping's data stays in the page
 * cache, dirty, and the kernel writes it out when it likes - the pages are
 * no longer mapped, so that write-out touches nothing of ours. The
 * coordinator's memory stays flat.
 *
 * The layout was entity-major before: every entity's current page was
 * written each second, so the write-out (an msync every 16 s, or the
 * kernel's after 30 s) write-protected 17,000 mapped pages at 1,000 agents,
 * each with a TLB-shootdown IPI to the other core and a fault on the next
 * write: 40% more CPU per volume-second in bench_agg -s 60 than -s 10.
 */
#define S_SPILL_MIN (64ull << 20)

static size_t s_page_floor(size_t b)
{
	return b & ~(size_t)4095;
}

/* bytes of one second's rows (every entity's): second k's start at k times this */
static size_t s_rows_per_second(const struct bc_agg *g)
{
	return g->rows_len / g->seconds;
}

/*
 * Mapping the pages of the rows of seconds g->touched .. to - 1 at once. A
 * page of the file that is still a hole costs a read on its first write
 * fault (ext4 zero-fills it through filemap_read_folio) and the fault
 * itself, ~770 a second at 16,000 volumes, all on the main thread. So its
 * whole new pages - past the last one touched before, which may hold
 * rows - are written as zeros first, into the page cache with no read,
 * and then mapped writable by one MADV_POPULATE_WRITE. bench_agg -n 1000
 * -m 16 -s 60 (docs/scaling.md): sys time 0.61-0.79 -> 0.42-0.46 s.
 * false: not done (a kernel before 5.14), touch them one by one.
 */
static bool s_rows_populate(struct bc_agg *g, uint32_t to)
{
	static char zero[64 << 10]; /* never written: the shared zero page */
	const size_t per = s_rows_per_second(g), pg = 4096;
	size_t from = s_page_floor(per * g->touched), end = per * to;
	size_t z = s_page_floor(per * g->touched + pg - 1), zend = s_page_floor(end + pg - 1);
	struct iovec iov[64];
	int i;

	zend = zend < g->rows_len ? zend : g->rows_len;
	while (z < zend) {
		size_t n = 0;
		ssize_t w;

		for (i = 0; i < 64 && z + n < zend; i++) {
			iov[i].iov_base = zero;
			iov[i].iov_len = zend - z - n < sizeof(zero) ? zend - z - n : sizeof(zero);
			n += iov[i].iov_len;
		}
		w = pwritev(g->rows_fd, iov, i, (off_t)z);
		if (w <= 0)
			break; /* the write faults zero-fill what is left */
		z += (size_t)w;
	}
	return !madvise((uint8_t *)g->rows + from, end - from, MADV_POPULATE_WRITE);
}

/*
 * The first access to a row's page must be a write: a read fault maps up to
 * 64 KB of cached neighbours ("fault-around"), earlier seconds' dropped
 * pages among them, and memory would grow with the run again. A locked add
 * of 0 to one byte of each page of second k's rows is a write to the CPU and
 * changes nothing. Done when a second first appears (seconds g->touched ..
 * k), while no worker runs.
 */
void bc_agg_rows_touch(struct bc_agg *g, uint32_t k)
{
	size_t per = s_rows_per_second(g), b, end;
	uint8_t *base = (uint8_t *)g->rows;
	uint32_t to = k + 1 < g->seconds ? k + 1 : g->seconds;

	if (g->touched < to && s_rows_populate(g, to)) {
		g->touched = to;
		return;
	}
	for (; g->touched <= k && g->touched < g->seconds; g->touched++) {
		end = per * (g->touched + 1);
		for (b = per * g->touched; b < end; b = s_page_floor(b) + 4096)
			__atomic_fetch_add(&base[b], 0, __ATOMIC_RELAXED);
	}
}

/* every entity's rows, [seconds][entities]: anonymous, or mapped past S_SPILL_MIN */
static int s_rows_alloc(struct bc_agg *g, size_t per_second)
{
	size_t len = per_second * g->seconds * sizeof(struct bc_secrow);
	void *m;
	int fd;

	g->rows_len = len;
	if (len >= S_SPILL_MIN) {
		fd = open("/var/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0 && !ftruncate(fd, (off_t)len)) {
			m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (m != MAP_FAILED) {
				/* results read an entity's rows a second apart: no readahead */
				madvise(m, len, MADV_RANDOM);
				g->rows = m;
				g->rows_map = true;
				g->rows_fd = fd; /* s_rows_populate writes through it */
			}
		}
		if (fd >= 0 && !g->rows_map)
			close(fd);
		if (g->rows_map)
			return 0;
	}
	/* resident now, not by page faults when the first second's records are added */
	g->rows = malloc(len ? len : 1);
	if (!g->rows)
		return -ENOMEM;
	memset(g->rows, 0, len);
	return 0;
}

/*
 * Latencies from 16 us to 16 ms: where most storage I/O lands (local NVMe to
 * NVMe/TCP to disks). The window histograms' pages for that range are
 * faulted in before START, so the first second's records do not pay for
 * ~100,000 page faults at 16,000 volumes (+175 ms on that second's lag,
 * bench/agg.c). Pages outside the range are faulted when used, as before.
 */
#define S_WARM_LO_NS 16000ull
#define S_WARM_HI_NS 16000000ull

static void s_window_warm(struct bc_entity *e, const bool *ops)
{
	unsigned lo = bc_hist_index(S_WARM_LO_NS), hi = bc_hist_index(S_WARM_HI_NS), b;
	const unsigned stride = 4096 / sizeof(uint64_t);
	int o;

	/* a read would map the shared zero page: it must be a write */
	for (o = 0; o < BC_OP_NR; o++)
		for (b = lo; ops[o] && b <= hi + stride; b += stride)
			__atomic_fetch_add(&e->window.op[o].hist.buckets[b < hi ? b : hi], 0,
					   __ATOMIC_RELAXED);
}

/*
 * A volume's window add is the aggregation's cold store: at 1,000 agents
 * 16,000 windows, each touched once a second, a 64-byte line per 8 buckets
 * of 8 bytes. So a volume's buckets within BC_AGG_PEND of two octaves
 * below its first listed bucket add to 8-bit pending counts first, 64 to
 * a line (16-bit counts, 32 to a line, still took a fifth of the
 * aggregation's time under perf: the lines a second's pairs touch are the
 * cost). A count that would pass 255 goes to the window with the pair's
 * count and restarts at 0: rare at the rates the counts are for (a bucket
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

static int s_pend_alloc(struct bc_agg *g, const bool *ops)
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
	 * a TLB miss every time at 16,000 volumes (perf: the stall on
	 * s_pend_prefetch's loop halved). Dense and all used: nothing wasted.
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
		 * (its outcome as random as the samples) was most of the step's
		 * finish under perf
		 */
		for (q = 0; q < 8; q++)
			w[j + q] += p[j + q];
		memset(&p[j], 0, sizeof(eight));
	}
	e->pend_hi[o] = 0;
}

/*
 * every volume's pending counts into its window; later adds go to the
 * window itself (pend[o] is NULL: a second call finds nothing). The memory goes with the rest in
 * bc_agg_free: the step's end is on the way to its results.
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

int bc_agg_vol_node(const struct bc_agg *g, int vol)
{
	return g->volnode ? g->volnode[vol].node : g->prof->volumes[vol].node;
}

int bc_agg_init(struct bc_agg *g, const struct bc_profile *p, const struct bc_step *st)
{
	struct bc_secrow *rows;
	bool ops[BC_OP_NR] = {false};
	size_t per;
	unsigned m;
	int lvl, i, a, max = 1;

	memset(g, 0, sizeof(*g));
	g->prof = p;
	g->ramp_s = st->wl.ramp_s;
	g->seconds = st->wl.ramp_s + st->wl.runtime_s;
	g->nent[BC_LVL_VOLUME] = p->nvolumes;
	g->nent[BC_LVL_AGENT] = p->nagents;
	g->nent[BC_LVL_NODE] = p->nnodes;
	g->nent[BC_LVL_TOTAL] = 1;
	per = (size_t)p->nvolumes + (size_t)p->nagents + (size_t)p->nnodes + 1;
	if (s_rows_alloc(g, per))
		return -ENOMEM;
	rows = g->rows;
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		g->ent[lvl] = calloc((size_t)g->nent[lvl] + 1, sizeof(struct bc_entity));
		if (!g->ent[lvl])
			return -ENOMEM;
		for (i = 0; i < g->nent[lvl]; i++)
			if (s_entity_init(&g->ent[lvl][i], g->seconds, lvl >= BC_LVL_NODE, rows++,
					  per))
				return -ENOMEM;
	}
	for (i = 0; i < p->nvolumes; i++)
		snprintf(g->ent[BC_LVL_VOLUME][i].name, sizeof(g->ent[0][0].name), "%s:%s",
			 p->agents[p->volumes[i].agent].name, p->volumes[i].path);
	for (i = 0; i < p->nagents; i++)
		snprintf(g->ent[BC_LVL_AGENT][i].name, sizeof(g->ent[0][0].name), "%s",
			 p->agents[i].name);
	for (i = 0; i < p->nnodes; i++)
		snprintf(g->ent[BC_LVL_NODE][i].name, sizeof(g->ent[0][0].name), "%s",
			 p->nodes[i].name);
	snprintf(g->ent[BC_LVL_TOTAL][0].name, sizeof(g->ent[0][0].name), "total");
	for (a = 0; a < p->nagents; a++) {
		int n = 0;

		for (i = 0; i < p->nvolumes; i++)
			n += p->volumes[i].agent == a;
		if (n > max)
			max = n;
	}
	g->scratch_n = max;
	g->scratch = calloc((size_t)max, sizeof(*g->scratch));
	g->touch = calloc((size_t)max, sizeof(*g->touch));
	g->sl = calloc((size_t)max, sizeof(*g->sl));
	g->asum = calloc(1, sizeof(*g->asum));
	g->vblk = calloc(S_VBLK_NR, sizeof(*g->vblk));
	if (!g->asum || !g->vblk)
		return -ENOMEM;
	bc_volstat_reset(g->asum);
	g->agents_reported = calloc(g->seconds, sizeof(uint32_t));
	g->late = calloc(g->seconds, sizeof(uint32_t));
	g->last_rx_ns = calloc(g->seconds, sizeof(uint64_t));
	if (!g->scratch || !g->touch || !g->sl || !g->agents_reported || !g->late || !g->last_rx_ns)
		return -ENOMEM;
	for (i = 0; i < max; i++)
		bc_volstat_reset(&g->scratch[i]);
	/* the step's ops (volumes' own workloads may differ: this is only a warm-up) */
	m = bc_rw_ops(st->wl.rw, st->wl.rwmixread, st->wl.rwmixtrim);
	ops[BC_OP_READ] = m & BC_RW_OPS_READ;
	ops[BC_OP_WRITE] = m & BC_RW_OPS_WRITE;
	for (lvl = BC_LVL_VOLUME; lvl <= BC_LVL_AGENT; lvl++)
		for (i = 0; i < g->nent[lvl]; i++)
			s_window_warm(&g->ent[lvl][i], ops);
	if (s_pend_alloc(g, ops))
		return -ENOMEM;
	bc_agg_rows_ahead(g);
	return 0;
}

void bc_agg_free(struct bc_agg *g)
{
	int lvl, i;

	if (g->pool)
		g->pool_ops->destroy(g);
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; g->ent[lvl] && i < g->nent[lvl]; i++)
			s_entity_free(&g->ent[lvl][i], g->seconds, false);
		free(g->ent[lvl]);
	}
	while (g->rh_free) {
		struct bc_rhist *h = g->rh_free;

		g->rh_free = h->next;
		free(h);
	}
	if (g->rows_map) {
		munmap(g->rows, g->rows_len);
		close(g->rows_fd);
	} else
		free(g->rows);
	free(g->secw_reports);
	if (g->pend)
		munmap(g->pend, g->pend_len);
	free(g->scratch);
	free(g->touch);
	free(g->sl);
	free(g->asum);
	free(g->vblk);
	free(g->agents_reported);
	free(g->late);
	free(g->last_rx_ns);
	memset(g, 0, sizeof(*g));
}

/* a zeroed histogram of at least n buckets per op, from the free list when one fits */
static struct bc_rhist *s_rhist_get(struct bc_rhist **freel, uint32_t n)
{
	struct bc_rhist *h = *freel;
	/* 4 KiB size classes: most seconds of most entities fit the first */
	uint32_t cap = (n + 511) & ~511u;

	if (h) {
		*freel = h->next;
		if (h->cap < n) {
			free(h); /* the list must not grow with blocks nobody can use */
			h = NULL;
		}
	}
	if (!h) {
		h = malloc(sizeof(*h) + (size_t)cap * BC_OP_NR * sizeof(uint64_t));
		if (!h)
			return NULL;
		h->cap = cap;
	}
	memset(h->b, 0, (size_t)h->cap * BC_OP_NR * sizeof(uint64_t));
	h->count = 0;
	h->next = NULL;
	return h;
}

static void s_rhist_put(struct bc_rhist **freel, struct bc_rhist *h)
{
	if (!h)
		return;
	h->next = *freel;
	*freel = h;
}

/* make *hp cover buckets [lo, hi); 0 or -ENOMEM (the histogram is unchanged then) */
static int s_rhist_cover(struct bc_rhist **freel, struct bc_rhist **hp, uint32_t lo, uint32_t hi)
{
	struct bc_rhist *h = *hp, *nh;
	uint32_t nlo, nhi;
	int o;

	if (h && lo >= h->lo && hi <= h->lo + h->n)
		return 0;
	nlo = lo > S_RH_SLACK ? lo - S_RH_SLACK : 0;
	nhi = hi + S_RH_SLACK < BC_HIST_BUCKETS ? hi + S_RH_SLACK : BC_HIST_BUCKETS;
	if (h) {
		nlo = nlo < h->lo ? nlo : h->lo;
		nhi = nhi > h->lo + h->n ? nhi : h->lo + h->n;
	}
	nh = s_rhist_get(freel, nhi - nlo);
	if (!nh)
		return -ENOMEM;
	nh->lo = nlo;
	nh->n = nhi - nlo;
	if (h) {
		nh->count = h->count;
		for (o = 0; o < BC_OP_NR; o++)
			memcpy(&nh->b[(size_t)o * nh->cap + (h->lo - nlo)],
			       &h->b[(size_t)o * h->cap], (size_t)h->n * sizeof(uint64_t));
		s_rhist_put(freel, h);
	}
	*hp = nh;
	return 0;
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

/* stands in for an unused op's buckets, so the sums below have no branches */
static const uint64_t s_zeros[BC_HIST_BUCKETS];

/*
 * The percentiles of bc_hist_percentile (same ranks, same bucket midpoints)
 * and bc_hist_max of the sum of the ops' buckets base + [0, n): op o's
 * bucket base + i is ops[o][i] (NULL: op not used). Runs 17,000 times a
 * second at 1,000 agents over ~1,000 buckets each, so it steps over blocks
 * of S_BLOCK buckets that cannot reach the next rank.
 */
#define S_BLOCK 16

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

static void s_row_pcts(struct bc_secrow *row, uint64_t count, const uint64_t *const *ops,
		       uint32_t base, uint32_t n)
{
	uint64_t *out[5];
	const uint64_t *a = ops[0] ? ops[0] : s_zeros, *b = ops[1] ? ops[1] : s_zeros;
	const uint64_t *c = ops[2] ? ops[2] : s_zeros;
	uint64_t rank[5], seen = 0;
	uint32_t i, j, p = 0;
	bool top = false;

	s_row_ranks(row, count, rank, out);
	if (!count)
		return;
	/* the maximum: the last non-empty bucket */
	for (i = n; i-- > 0;)
		if (a[i] + b[i] + c[i]) {
			row->max_ns = bc_hist_bucket_mid(base + i);
			top = true;
			break;
		}
	if (!top)
		return;
	for (i = 0; i < n && p < 5;) {
		if (i + S_BLOCK <= n) {
			uint64_t sum = 0;

			for (j = i; j < i + S_BLOCK; j++)
				sum += a[j] + b[j] + c[j];
			if (seen + sum < rank[p]) {
				seen += sum;
				i += S_BLOCK;
				continue;
			}
		}
		seen += a[i] + b[i] + c[i];
		for (; p < 5 && seen >= rank[p]; p++)
			*out[p] = bc_hist_bucket_mid(base + i);
		i++;
	}
	for (; p < 5; p++)
		*out[p] = row->max_ns;
}

/*
 * s_row_pcts over a volume's record (bc_stats_list): the same ranks over
 * its non-empty buckets alone, the ops' ascending lists merged by index,
 * instead of every bucket of their range times three ops.
 */
static void s_row_list(struct bc_secrow *row, const struct bc_volstat *v,
		       const struct bc_stats_list *s)
{
	const uint16_t *x[BC_OP_NR];
	const uint64_t *xc[BC_OP_NR];
	uint32_t at[BC_OP_NR] = {0}, nx[BC_OP_NR];
	uint64_t *out[5], rank[5], count = 0, seen = 0;
	unsigned top = 0, p = 0, b, m, nl = 0;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		count += v->op[o].hist.count;
		if (!s->n[o])
			continue;
		x[nl] = s->idx[o];
		xc[nl] = s->cnt[o];
		nx[nl] = s->n[o];
		if (x[nl][nx[nl] - 1] > top)
			top = x[nl][nx[nl] - 1];
		nl++;
	}
	s_row_ranks(row, count, rank, out);
	if (!count || !nl)
		return;
	row->max_ns = bc_hist_bucket_mid(top);
	/*
	 * One op or two (a read/write mix), the common cases: p50 from the
	 * bottom, p90 to p99.99 from the top, the rank-th smallest of count
	 * samples being the (count - rank + 1)-th largest (rank <= count: a
	 * ceiling of less than count). That needs the lists to hold all count
	 * samples: every decode sums hist.count from the pairs it lists,
	 * rebuild.c from the buckets it sets. About half the buckets are
	 * visited instead of nearly all.
	 */
	if (nl <= 2) {
		const uint16_t *y0 = x[0], *y1 = nl == 2 ? x[1] : x[0];
		const uint64_t *c0 = xc[0], *c1 = nl == 2 ? xc[1] : xc[0];
		uint32_t n0 = nx[0], n1 = nl == 2 ? nx[1] : 0, i = 0, j = 0;
		uint64_t c;
		int q = 4;

		while (i < n0 || j < n1) {
			if (i < n0 && (j >= n1 || y0[i] <= y1[j])) {
				b = y0[i];
				c = c0[i++];
				if (j < n1 && y1[j] == b)
					c += c1[j++];
			} else {
				b = y1[j];
				c = c1[j++];
			}
			seen += c;
			if (seen >= rank[0]) {
				*out[0] = bc_hist_bucket_mid(b);
				p = 1;
				break;
			}
		}
		if (!p)
			*out[0] = row->max_ns;
		for (i = n0, j = n1, seen = 0; q >= 1 && (i || j);) {
			if (i && (!j || y0[i - 1] >= y1[j - 1])) {
				b = y0[--i];
				c = c0[i];
				if (j && y1[j - 1] == b)
					c += c1[--j];
			} else {
				b = y1[--j];
				c = c1[j];
			}
			seen += c;
			for (; q >= 1 && seen > count - rank[q]; q--)
				*out[q] = bc_hist_bucket_mid(b);
		}
		for (; q >= 1; q--)
			*out[q] = row->max_ns;
		return;
	}
	while (p < 5) {
		b = BC_HIST_BUCKETS;
		for (m = 0; m < nl; m++)
			if (at[m] < nx[m] && x[m][at[m]] < b)
				b = x[m][at[m]];
		if (b == BC_HIST_BUCKETS)
			break;
		for (m = 0; m < nl; m++)
			if (at[m] < nx[m] && x[m][at[m]] == b)
				seen += xc[m][at[m]++];
		if (seen < rank[p])
			continue;
		for (; p < 5 && seen >= rank[p]; p++)
			*out[p] = bc_hist_bucket_mid(b);
	}
	for (; p < 5; p++)
		*out[p] = row->max_ns;
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
	if (s_rhist_cover(freel, hp, lo, hi))
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
 * a second's percentiles from a dense volstat whose non-empty buckets are
 * in [lo, hi) (a record's sum)
 */
static void s_row_from_range(struct bc_secrow *row, const struct bc_volstat *v, uint32_t lo,
			     uint32_t hi)
{
	const uint64_t *ops[BC_OP_NR];
	uint64_t count = 0;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		ops[o] = v->op[o].hist.count && lo < hi ? &v->op[o].hist.buckets[lo] : NULL;
		count += v->op[o].hist.count;
	}
	s_row_pcts(row, count, ops, lo, lo < hi ? hi - lo : 0);
}

/*
 * Counters of v into e's "all", window and row ri (second k). Returns true
 * when v's histograms belong in e's second k too: k is a second of the step
 * that is still open (and, with first_only, e has no report for it yet).
 * eseq (a lane's partial entity): where to note seq when an op's
 * first_errno is set, so the merge can keep the first in arrival order.
 */
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
 * A scratch volume's counters cleared and its lists emptied for the next
 * decode; its dense buckets are all zero between records (s_dense_to_list).
 */
static void s_scratch_clear(struct bc_volstat *v, struct bc_stats_list *s)
{
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		v->op[o].hist.count = 0;
		bc_opstat_reset_counters(&v->op[o]);
		s->n[o] = 0;
	}
	s->seen = s->has_pct = false;
	v->verify_errors = 0;
}

static int s_u16_cmp(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/*
 * The dense histograms of a scratch volume (a body that names a volume
 * twice, or rebuild.c's records) as its lists, ascending; the dense buckets
 * are zeroed on the way and hist.count kept.
 */
static void s_dense_to_list(struct bc_volstat *v, struct bc_stats_touch *t, struct bc_stats_list *s)
{
	uint32_t j;
	int o;

	for (o = 0; o < BC_OP_NR; o++) {
		uint64_t *bk = v->op[o].hist.buckets;

		if (t->unsorted & (1u << o))
			qsort(t->idx[o], t->n[o], sizeof(t->idx[o][0]), s_u16_cmp);
		for (j = 0; j < t->n[o]; j++) {
			s->idx[o][j] = t->idx[o][j];
			s->cnt[o][j] = bk[t->idx[o][j]];
			bk[t->idx[o][j]] = 0;
		}
		s->n[o] = t->n[o];
		t->n[o] = 0;
	}
	s->seen = s->has_pct = false; /* a volume that came twice: its own percentiles */
	t->unsorted = 0;
}

/* rebuild touch[i] from a scratch volume filled by someone else (rebuild.c) */
static void s_scratch_index(struct bc_agg *g, int i)
{
	struct bc_stats_touch *t = &g->touch[i];
	unsigned b;
	int o;

	t->unsorted = 0; /* made in ascending order */
	for (o = 0; o < BC_OP_NR; o++) {
		const struct bc_hist *h = &g->scratch[i].op[o].hist;

		t->n[o] = 0;
		for (b = 0; b < BC_HIST_BUCKETS && h->count; b++)
			if (h->buckets[b])
				t->idx[o][t->n[o]++] = (uint16_t)b;
	}
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

/*
 * A volume's second's percentiles on the fan-out path: the lane's vblk
 * holds the sum of each block of S_VBLK buckets over the record's ops
 * (added as the lists are fanned out), the walk steps over the blocks that
 * cannot reach the next rank and rebuilds only a reached block's buckets
 * from the lists. s_row_list's merge of the ops' lists has a branch per
 * bucket that the CPU cannot predict (is the next bucket a read's or a
 * write's?) and took a quarter of the aggregation's instructions
 * (bench/agg.c, callgrind); a dense sum is no better: a second's buckets
 * span ~3,000. Same ranks, same bucket midpoints as s_row_list (the
 * digest of bench_agg --digest did not change).
 */
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

static void s_row_blocks(struct bc_secrow *row, uint64_t count, const uint64_t *blk,
			 const struct bc_stats_list *s, uint32_t lo, uint32_t hi)
{
	uint64_t *out[5], rank[5], seen = 0, part[S_VBLK];
	uint32_t at[BC_OP_NR] = {0}, j, b, base, p = 0;
	int o;

	s_row_ranks(row, count, rank, out);
	if (!count || lo >= hi)
		return;
	row->max_ns = bc_hist_bucket_mid(hi - 1); /* a list's last entry: not empty */
	for (j = lo / S_VBLK; j <= (hi - 1) / S_VBLK; j++) {
		if (seen + blk[j] < rank[p]) {
			seen += blk[j];
			continue;
		}
		base = j * S_VBLK;
		memset(part, 0, sizeof(part));
		for (o = 0; o < BC_OP_NR; o++) {
			const uint16_t *x = s->idx[o];

			at[o] = s_lower(x, at[o], s->n[o], base);
			for (; at[o] < s->n[o] && x[at[o]] < base + S_VBLK; at[o]++)
				part[x[at[o]] - base] += s->cnt[o][at[o]];
		}
		/* the whole block, so that seen stays a sum of whole blocks */
		for (b = 0; b < S_VBLK; b++) {
			seen += part[b];
			while (seen >= rank[p]) {
				*out[p] = bc_hist_bucket_mid(base + b);
				if (++p == 5)
					return;
			}
		}
	}
	for (; p < 5; p++) /* not reached: count is more than the lists hold */
		*out[p] = row->max_ns;
}

/*
 * A volume's second's percentiles from the buckets its agent found
 * (bc_volstat_pct_buckets, the same rank rule over the same samples), when
 * the record has them and they lie in its listed range [lo, hi): what
 * s_row_blocks and s_row_list would give, without the block sums or the
 * lists' merge (a fifth of the aggregation's CPU at 16,000 volumes,
 * docs/scaling.md). false: the caller finds them itself.
 */
static bool s_row_agent_pcts(struct bc_secrow *row, uint64_t count, const struct bc_stats_list *s,
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
 * line is a miss, and under perf the counters' adds (s_entity_counters),
 * the window's count and the node's number stalled on them. Asked for two
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
 * (1,000 agents' windows, each touched once a second) stalled under perf
 * as the volumes' pending counts had. Before volume i of n, the first
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
 * per volume and op, 16,000 volumes touched once a second) was the
 * aggregation's hottest instruction under perf, waiting on memory. The
 * lists are decoded before the first volume is added, so the lines are
 * known a volume ahead (about a microsecond). bench_agg, 14 rounds
 * alternating: 16% less CPU per volume-second (median of the rounds'
 * ratios; docs/scaling.md).
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
 * each into the node's open second (nb), the record's sum and the lane's
 * block sums, and into the volume's window or its pending counts (pd; a
 * count that would pass 255 goes to the window, see s_pend_alloc). nb and
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
			blk[b / S_VBLK] += c;
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
			blk[b / S_VBLK] += c;
	}
}

/*
 * An array whose first element is bucket lo's, as one indexed by bucket:
 * its address minus lo elements (through an integer: the pointer itself
 * would point outside the array). The per-bucket subtractions it saves took
 * 4 of the 19 instructions of s_fan_pend's loop (15 now).
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
 * s_rhist_cover), the record's sum and, when row (the volume's open second)
 * is given and its agent did not send the second's percentiles, the lane's
 * vblk, to find them; [*alo, *ahi),
 * the record's sum's span, grown to cover the volume's buckets. Second k is
 * in the window.
 */
static int s_vol_fanout(struct bc_agg_lane *l, struct bc_entity *ve, struct bc_rhist **ne_h,
			const struct bc_volstat *v, const struct bc_stats_list *s,
			struct bc_secrow *row, uint32_t *alo, uint32_t *ahi)
{
	uint32_t lo = BC_HIST_BUCKETS, hi = 0, nlo;
	uint64_t *blk = l->vblk, count = 0;
	struct bc_rhist *h;
	bool blocks;
	int o;

	s_span_list(s, &lo, &hi);
	if (lo >= hi) {
		if (row)
			s_row_blocks(row, 0, blk, s, lo, hi); /* no samples: percentiles of 0 */
		return 0;
	}
	if (s_rhist_cover(l->rh_free, ne_h, lo, hi))
		return -ENOMEM;
	*alo = lo < *alo ? lo : *alo;
	*ahi = hi > *ahi ? hi : *ahi;
	h = *ne_h;
	nlo = h->lo;
	if (!ve->pend_set)
		s_pend_place(ve, lo);
	for (o = 0; o < BC_OP_NR; o++)
		count += v->op[o].hist.count;
	blocks = row && !s_row_agent_pcts(row, count, s, lo, hi);
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
		s_row_blocks(row, count, blk, s, lo, hi);
		memset(&blk[lo / S_VBLK], 0, ((hi - 1) / S_VBLK - lo / S_VBLK + 1) * sizeof(*blk));
	}
	return 0;
}

/*
 * The record's sum l->asum (buckets in [lo, hi)) into the agent's window
 * (k in the window), the total's open second mk (total_open) or else its
 * window, and cleared for the next record, in one pass over the range
 * instead of three (two dense adds and a memset: 9% of the aggregation's
 * instructions, bench/agg.c under callgrind). A dense pass over the range
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
			rc = s_rhist_cover(l->rh_free, &total->sec_hist[mk], lo, hi);
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

static int s_add_scratch(struct bc_agg_lane *l, const struct bc_conn *c,
			 const struct bc_stats_hdr *hdr)
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
			s_row_list(bc_entity_row(ve, k), v, s);
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
			s_row_from_range(bc_entity_row(agent, k), l->asum, alo, ahi);
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

/* the serial lane: g's own scratch and free list */
static void s_lane_serial(struct bc_agg_lane *l, struct bc_agg *g)
{
	memset(l, 0, sizeof(*l));
	l->g = g;
	l->scratch = g->scratch;
	l->touch = g->touch;
	l->sl = g->sl;
	l->asum = g->asum;
	l->vblk = g->vblk;
	l->rh_free = &g->rh_free;
}

int bc_agg_lane_add(struct bc_agg_lane *l, const struct bc_conn *c, const uint8_t *body, size_t len,
		    struct bc_stats_hdr *hdr)
{
	int i, rc;

	for (i = 0; i < c->nvols; i++)
		s_scratch_clear(&l->scratch[i], &l->sl[i]);
	rc = bc_stats_decode_list(body, len, hdr, l->scratch, l->sl, (uint32_t)c->nvols);
	if (rc == 1) {
		/* a volume came twice: the dense decode adds its entries up, then lists them */
		for (i = 0; i < c->nvols; i++)
			s_scratch_clear(&l->scratch[i], &l->sl[i]);
		rc =
		    bc_stats_decode_touch(body, len, hdr, l->scratch, l->touch, (uint32_t)c->nvols);
		for (i = 0; i < c->nvols; i++)
			s_dense_to_list(&l->scratch[i], &l->touch[i], &l->sl[i]);
	}
	if (rc)
		return rc;
	return s_add_scratch(l, c, hdr);
}

int bc_agg_add(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
	       struct bc_stats_hdr *hdr)
{
	struct bc_agg_lane l;

	s_lane_serial(&l, g);
	return bc_agg_lane_add(&l, c, body, len, hdr);
}

int bc_agg_add_decoded(struct bc_agg *g, const struct bc_conn *c, const struct bc_stats_hdr *hdr)
{
	struct bc_agg_lane l;
	int i;

	for (i = 0; i < c->nvols; i++) {
		s_scratch_index(g, i);
		s_dense_to_list(&g->scratch[i], &g->touch[i], &g->sl[i]);
	}
	s_lane_serial(&l, g);
	return s_add_scratch(&l, c, hdr);
}

int bc_agg_lane_init(struct bc_agg_lane *l, struct bc_agg *g)
{
	int lvl, i;

	memset(l, 0, sizeof(*l));
	l->g = g;
	l->rh_free = &l->own_free;
	l->scratch = calloc((size_t)g->scratch_n, sizeof(*l->scratch));
	l->touch = calloc((size_t)g->scratch_n, sizeof(*l->touch));
	l->sl = calloc((size_t)g->scratch_n, sizeof(*l->sl));
	l->asum = calloc(1, sizeof(*l->asum));
	l->vblk = calloc(S_VBLK_NR, sizeof(*l->vblk));
	l->errno_seq = calloc((size_t)g->nent[BC_LVL_NODE] + 1, sizeof(*l->errno_seq));
	if (!l->scratch || !l->touch || !l->sl || !l->asum || !l->vblk || !l->errno_seq)
		return -ENOMEM;
	for (i = 0; i < g->scratch_n; i++)
		bc_volstat_reset(&l->scratch[i]);
	bc_volstat_reset(l->asum);
	for (lvl = BC_LVL_NODE; lvl < BC_LVL_NR; lvl++) {
		l->part[lvl] = calloc((size_t)g->nent[lvl] + 1, sizeof(struct bc_entity));
		if (!l->part[lvl])
			return -ENOMEM;
		for (i = 0; i < g->nent[lvl]; i++)
			if (s_entity_init(&l->part[lvl][i], BC_AGG_SLOTS, true, NULL, 1))
				return -ENOMEM;
	}
	return 0;
}

void bc_agg_lane_free(struct bc_agg_lane *l)
{
	int lvl, i;

	for (lvl = BC_LVL_NODE; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; l->part[lvl] && i < l->g->nent[lvl]; i++)
			s_entity_free(&l->part[lvl][i], BC_AGG_SLOTS, true);
		free(l->part[lvl]);
	}
	while (l->own_free) {
		struct bc_rhist *h = l->own_free;

		l->own_free = h->next;
		free(h);
	}
	free(l->scratch);
	free(l->touch);
	free(l->sl);
	free(l->asum);
	free(l->vblk);
	free(l->errno_seq);
	memset(l, 0, sizeof(*l));
}

/* every bucket of src into *dst (grown to cover them); 0 or -ENOMEM */
static int s_rhist_merge(struct bc_rhist **freel, struct bc_rhist **dst, const struct bc_rhist *src)
{
	struct bc_rhist *h;
	uint32_t j;
	int o;

	if (s_rhist_cover(freel, dst, src->lo, src->lo + src->n))
		return -ENOMEM;
	h = *dst;
	for (o = 0; o < BC_OP_NR; o++) {
		uint64_t *d = &h->b[(size_t)o * h->cap + (src->lo - h->lo)];
		const uint64_t *s = &src->b[(size_t)o * src->cap];

		for (j = 0; j < src->n; j++)
			d[j] += s[j];
	}
	h->count += src->count;
	return 0;
}

/* bc_opstat_merge's counters without first_errno, then p's counters cleared */
static void s_opcnt_take(struct bc_opcnt *dst, struct bc_opcnt *p)
{
	int32_t e = dst->first_errno;

	bc_opcnt_merge(dst, p);
	dst->first_errno = e;
	bc_opcnt_reset(p);
}

/* one real node or total entity e (index ei of the notes) from every lane's partial copy */
static void s_merge_entity(struct bc_agg *g, struct bc_entity *e, int lvl, int j, int ei,
			   struct bc_agg_lane *lanes, int n, const uint32_t *slot_k)
{
	int i, o, s, w;

	/* first_errno: the partial one that arrived first, unless e has one from earlier */
	for (w = 0; w < 2; w++)
		for (o = 0; o < BC_OP_NR; o++) {
			struct bc_opcnt *d = w ? &e->window.op[o].cnt : &e->all.op[o];
			uint64_t best = UINT64_MAX;
			int32_t first = 0;

			for (i = 0; i < n && !d->first_errno; i++) {
				struct bc_entity *p = &lanes[i].part[lvl][j];
				int32_t pe =
				    w ? p->window.op[o].first_errno : p->all.op[o].first_errno;

				if (pe && lanes[i].errno_seq[ei][w][o] < best) {
					best = lanes[i].errno_seq[ei][w][o];
					first = pe;
				}
			}
			if (!d->first_errno)
				d->first_errno = first;
		}
	for (i = 0; i < n; i++) {
		struct bc_entity *p = &lanes[i].part[lvl][j];

		for (o = 0; o < BC_OP_NR; o++) {
			s_opcnt_take(&e->all.op[o], &p->all.op[o]);
			s_opcnt_take(&e->window.op[o].cnt, &p->window.op[o].cnt);
			/* late records' histograms (rare): dense, once */
			if (p->window.op[o].hist.count) {
				bc_hist_merge(&e->window.op[o].hist, &p->window.op[o].hist);
				bc_hist_reset(&p->window.op[o].hist);
			}
		}
		e->all.verify_errors += p->all.verify_errors;
		e->window.verify_errors += p->window.verify_errors;
		p->all.verify_errors = p->window.verify_errors = 0;
		for (s = 0; s < BC_AGG_SLOTS; s++) {
			struct bc_secrow *d, *r = bc_entity_row(p, s);
			uint32_t k = slot_k[s];

			if (k == BC_AGG_SLOT_FREE)
				continue;
			d = bc_entity_row(e, k);
			for (o = 0; o < BC_OP_NR; o++) {
				d->ios[o] += r->ios[o];
				d->bytes[o] += r->bytes[o];
				d->op_lat_sum_ns[o] += r->op_lat_sum_ns[o];
				if (r->op_max_ns[o] > d->op_max_ns[o])
					d->op_max_ns[o] = r->op_max_ns[o];
			}
			d->errors += r->errors;
			d->short_ios += r->short_ios;
			d->lat_sum_ns += r->lat_sum_ns;
			d->reports += r->reports;
			d->late += r->late;
			memset(r, 0, sizeof(*r));
			if (p->sec_hist[s]) {
				/* out of memory: the second's percentiles lack this lane's part */
				s_rhist_merge(&g->rh_free, &e->sec_hist[k], p->sec_hist[s]);
				s_rhist_put(lanes[i].rh_free, p->sec_hist[s]);
				p->sec_hist[s] = NULL;
			}
		}
	}
	for (i = 0; i < n; i++)
		memset(lanes[i].errno_seq[ei], 0, sizeof(lanes[i].errno_seq[ei]));
}

void bc_agg_lanes_merge(struct bc_agg *g, struct bc_agg_lane *lanes, int n, const uint32_t *slot_k)
{
	int j;

	for (j = 0; j < g->nent[BC_LVL_NODE]; j++)
		s_merge_entity(g, &g->ent[BC_LVL_NODE][j], BC_LVL_NODE, j, j, lanes, n, slot_k);
	s_merge_entity(g, &g->ent[BC_LVL_TOTAL][0], BC_LVL_TOTAL, 0, g->nent[BC_LVL_NODE], lanes, n,
		       slot_k);
}

void bc_agg_close_second(struct bc_agg *g, uint32_t k)
{
	struct bc_secw *sw;
	int lvl, i, o;

	if (k >= g->seconds)
		return;
	/* every record handed to a worker is in, and the partial nodes and total merged */
	if (g->pool)
		g->pool_ops->settle(g);
	/* seconds.bin: the merged histograms of this second, before they are dropped */
	sw = k >= g->closed ? g->secw : NULL;
	if (sw && bc_secw_hist_begin(sw, g->secw_step, k))
		s_secfile_fail(g);
	/* volumes and agents have theirs from their record; nodes and the total merge here */
	for (lvl = BC_LVL_NODE; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; i < g->nent[lvl]; i++) {
			struct bc_entity *e = &g->ent[lvl][i];
			struct bc_rhist *h = e->sec_hist ? e->sec_hist[k] : NULL;
			const uint64_t *ops[BC_OP_NR];
			double m[3];
			uint32_t j;

			if (!h)
				continue;
			for (o = 0; o < BC_OP_NR; o++)
				ops[o] = &h->b[(size_t)o * h->cap];
			s_row_pcts(bc_entity_row(e, k), h->count, ops, h->lo, h->n);
			memset(m, 0, sizeof(m));
			for (o = 0; o < BC_OP_NR; o++)
				bc_hist_moments(ops[o], h->lo, h->n, m);
			bc_entity_row(e, k)->lat_sd_ns = (uint64_t)llround(bc_hist_stddev(m));
			if (sw && g->secw && bc_secw_hist_add(sw, lvl, i, h->lo, h->n, ops))
				s_secfile_fail(g);
			for (o = 0; k >= g->ramp_s && o < BC_OP_NR; o++) {
				struct bc_hist *w = &e->window.op[o].hist;

				for (j = 0; j < h->n; j++) {
					w->buckets[h->lo + j] += ops[o][j];
					w->count += ops[o][j];
				}
			}
			s_rhist_put(&g->rh_free, h);
			e->sec_hist[k] = NULL;
		}
	}
	if (sw && g->secw && (bc_secw_hist_end(sw) || bc_secw_rows(sw, g->secw_step, g, k)))
		s_secfile_fail(g);
	if (sw && g->secw) {
		g->secw_reports[k] = bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k)->reports;
		bc_secw_flush(g->secw); /* a reader (or a crash) sees whole seconds */
	}
	if (k + 1 > g->closed)
		g->closed = k + 1;
}

/*
 * A write that failed (disk full) stops the file for this step, and the
 * step's volume series come from memory as before: run.json stays whole.
 * The error stays in the writer (bc_secw_error), where the run sees it and
 * names it once (results/outfail.h).
 */
static void s_secfile_fail(struct bc_agg *g)
{
	g->secw = NULL;
	g->secw_on = false;
}

int bc_agg_secfile_begin(struct bc_agg *g, struct bc_secw *w, uint32_t ord, int idx,
			 const char *name)
{
	int rc;

	if (!w)
		return 0;
	g->secw_reports = calloc(g->seconds + 1, sizeof(uint32_t));
	if (!g->secw_reports)
		return -ENOMEM;
	rc = bc_secw_step(w, ord, idx, name, g);
	if (rc)
		return rc;
	g->secw = w;
	g->secw_step = ord;
	g->secw_on = true;
	return 0;
}

void bc_agg_secfile_end(struct bc_agg *g)
{
	uint32_t k;

	if (!g->secw)
		return;
	/* late records after a second was written: its rows again (the later ones count) */
	for (k = 0; k < g->closed && k < g->seconds; k++)
		if (bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k)->reports != g->secw_reports[k] &&
		    bc_secw_rows(g->secw, g->secw_step, g, k)) {
			s_secfile_fail(g);
			return;
		}
	if (bc_secw_end(g->secw, g->secw_step, g->seconds) || bc_secw_flush(g->secw))
		s_secfile_fail(g);
	g->secw = NULL;
}

/*
 * Between two seconds: the pages wholly behind the open seconds leave the
 * process (their data stays in the file), and the first open second's
 * rows are touched. No settle: a dropped page is only written by a late
 * record, and a write to it faults the cached page back in.
 */
void bc_agg_rows_ahead(struct bc_agg *g)
{
	size_t upto;

	if (!g->rows_map || g->closed >= g->seconds)
		return;
	upto = s_page_floor(s_rows_per_second(g) * g->closed);
	if (upto > g->dropped) {
		madvise((uint8_t *)g->rows + g->dropped, upto - g->dropped, MADV_DONTNEED);
		g->dropped = upto;
	}
	if (g->touched > g->closed)
		return;
	if (g->pool)
		g->pool_ops->settle(g);
	bc_agg_rows_touch(g, g->closed);
}

/* the record's listed buckets of one op: ascending, non-empty */
static cJSON *s_hist_json(const uint16_t *idx, const uint64_t *cnt, uint32_t n)
{
	cJSON *arr = cJSON_CreateArray();
	uint32_t i;

	for (i = 0; i < n; i++) {
		cJSON *pair = cJSON_CreateArray();

		cJSON_AddItemToArray(pair, cJSON_CreateNumber(idx[i]));
		cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)cnt[i]));
		cJSON_AddItemToArray(arr, pair);
	}
	return arr;
}

cJSON *bc_agg_record_json(const struct bc_agg *g, const struct bc_conn *c,
			  const struct bc_stats_hdr *h)
{
	cJSON *r = cJSON_CreateObject(), *vols;
	int i, o;

	cJSON_AddStringToObject(r, "agent", c->spec->name);
	cJSON_AddNumberToObject(r, "second",
				h->second == BC_STATS_DRAIN ? -1.0 : (double)h->second);
	if (h->second == BC_STATS_DRAIN)
		cJSON_AddBoolToObject(r, "drain", 1);
	cJSON_AddNumberToObject(r, "flags", h->flags);
	vols = cJSON_AddArrayToObject(r, "volumes");
	for (i = 0; i < c->nvols; i++) {
		cJSON *v = cJSON_CreateObject();

		cJSON_AddNumberToObject(v, "volume", c->vols[i]);
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *s = &g->scratch[i].op[o];
			cJSON *op;

			if (!s->ios && !s->errors && !s->short_ios)
				continue;
			op = cJSON_AddObjectToObject(v, bc_op_names[o]);
			bc_json_add_u64(op, "ios", s->ios);
			bc_json_add_u64(op, "bytes", s->bytes);
			bc_json_add_u64(op, "errors", s->errors);
			bc_json_add_u64(op, "short", s->short_ios);
			bc_json_add_u64(op, "lat_sum_ns", s->lat_sum_ns);
			bc_json_add_u64(op, "lat_min_ns", s->ios ? s->lat_min_ns : 0);
			bc_json_add_u64(op, "lat_max_ns", s->lat_max_ns);
			if (s->first_errno)
				cJSON_AddNumberToObject(op, "first_errno", s->first_errno);
			cJSON_AddItemToObject(op, "hist",
					      s_hist_json(g->sl[i].idx[o], g->sl[i].cnt[o],
							  s->hist.count ? g->sl[i].n[o] : 0));
		}
		cJSON_AddItemToArray(vols, v);
	}
	return r;
}
