/*
 * agg/rows.c - the step's per-second rows (agg/rows.h).
 *   the layout - second-major, in memory or in a spill file (bc_agg_rows_alloc)
 *   touching - a second's pages made resident by a write before its records
 *              come (bc_agg_rows_touch, s_rows_populate)
 *   dropping - the pages behind the open seconds leave the process (bc_agg_rows_drop)
 *   entities - an entity's rows and open seconds' histograms (bc_agg_entity_init)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "agg/rhist.h"
#include "agg/rows.h"

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
 * Second-major because the kernel's write-out of a shared mapping
 * write-protects every dirty page it writes: were each entity's rows
 * together, each second would dirty a page per entity (17,000 at 1,000
 * agents), and every write-out would cost as many write faults, each with a
 * TLB-shootdown IPI to the other cores.
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
 * and then mapped writable by one MADV_POPULATE_WRITE.
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
int bc_agg_rows_alloc(struct bc_agg *g, size_t per_second)
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

void bc_agg_rows_free(struct bc_agg *g)
{
	if (g->rows_map) {
		munmap(g->rows, g->rows_len);
		close(g->rows_fd);
	} else
		free(g->rows);
}

/*
 * A page of the rows wholly behind the open seconds is only written again by
 * a late record, and that write faults the cached page back in: no settle
 * of the workers is needed.
 */
void bc_agg_rows_drop(struct bc_agg *g)
{
	size_t upto;

	if (!g->rows_map)
		return;
	upto = s_page_floor(s_rows_per_second(g) * g->closed);
	if (upto > g->dropped) {
		madvise((uint8_t *)g->rows + g->dropped, upto - g->dropped, MADV_DONTNEED);
		g->dropped = upto;
	}
}

#define S_READ_SPAN (16ull << 20)

void bc_agg_rows_read(const struct bc_agg *g, uint32_t k)
{
	size_t rps, span, from, to;

	if (!g->rows_map)
		return;
	rps = s_rows_per_second(g);
	span = rps ? S_READ_SPAN / rps : 0;
	if (span < 1)
		span = 1;
	if (k % span != span - 1)
		return;
	/* the seconds (k - span, k]: whole pages, a neighbour's bytes stay in the file */
	from = s_page_floor(rps * (k + 1 - span));
	to = s_page_floor(rps * (k + 1) + 4095);
	if (to > from)
		madvise((uint8_t *)g->rows + from, to - from, MADV_DONTNEED);
}

void bc_agg_rows_forget(const struct bc_agg *g)
{
	size_t upto;

	if (!g->rows_map)
		return;
	upto = s_page_floor(s_rows_per_second(g) * g->closed);
	if (upto)
		madvise((uint8_t *)g->rows, upto, MADV_DONTNEED);
}

void bc_agg_window_secs(struct bc_agg *g)
{
	uint32_t k;
	int lvl, i;

	for (lvl = 0; lvl < BC_LVL_NR; lvl++)
		for (i = 0; i < g->nent[lvl]; i++)
			g->ent[lvl][i].win_secs = 0;
	/* second-major, as the rows lie: each page read once */
	for (k = g->ramp_s; k < g->seconds; k++) {
		for (lvl = 0; lvl < BC_LVL_NR; lvl++)
			for (i = 0; i < g->nent[lvl]; i++)
				g->ent[lvl][i].win_secs +=
				    bc_entity_row(&g->ent[lvl][i], k)->reports > 0;
		bc_agg_rows_read(g, k);
	}
	g->win_secs_for = g->seconds;
	bc_agg_rows_forget(g);
}

/* e comes zeroed from calloc: a memset would make all of its 350 KB resident */
int bc_agg_entity_init(struct bc_entity *e, uint32_t seconds, bool merged, struct bc_secrow *rows,
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

void bc_agg_entity_free(struct bc_entity *e, uint32_t seconds, bool own_rows)
{
	uint32_t k;

	for (k = 0; e->sec_hist && k < seconds; k++)
		free(e->sec_hist[k]);
	free(e->sec_hist);
	if (own_rows)
		free(e->rows);
}
