/*
 * sim/ftl.c - the page-mapped FTL of the simulated SSD (sim/ftl.h).
 *
 * Physical page addresses are (ru << shift) | index, shift = ceil(log2(pages
 * per RU)), so no division is on the write path. l2p maps logical pages to
 * physical ones (S_NONE: never written or trimmed); p2l maps back and may
 * hold stale entries: a physical page is valid iff l2p[p2l[p]] == p.
 * Per RU: valid page count, state, owning RUH and the host-page clock when
 * it was closed (the age cost-benefit needs). Free RUs are a stack.
 *
 * GC runs inside the write that opens a new RU and leaves fewer than
 * gc_start_free_rus free (foreground GC, as a drive without idle time does),
 * reclaiming victims until gc_stop_free_rus are free. bc_sim_geometry
 * guarantees enough spare RUs that a victim with an invalid page always
 * exists and a free RU is always there to allocate (docs/sim.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ftl.h"

#define S_NONE UINT32_MAX

enum { S_RU_FREE = 0, S_RU_OPEN, S_RU_FULL };

struct s_ruh {
	uint32_t ru; /* open reclaim unit, S_NONE before the first write */
	uint32_t wp; /* next page index in it; pages_per_ru when full */
};

struct bc_sim_ftl {
	struct bc_sim_spec spec;
	uint64_t nlp;	/* logical pages */
	uint32_t ppr;	/* pages per RU */
	uint32_t shift; /* ceil(log2(ppr)) */
	uint32_t page_shift;
	uint32_t nru;
	uint32_t nruh;
	uint32_t *l2p;	     /* [nlp] */
	uint32_t *p2l;	     /* [nru << shift] */
	uint32_t *valid;     /* [nru] valid pages */
	uint8_t *state;	     /* [nru] S_RU_* */
	uint16_t *owner;     /* [nru] RUH that wrote it */
	uint64_t *closed_at; /* [nru] clock when it became full */
	uint32_t *free;	     /* [nru] stack of free RUs */
	uint32_t nfree;
	struct s_ruh *ruh; /* [nruh] */
	uint64_t clock;	   /* host pages programmed so far */
	int in_gc;
	struct bc_sim_counters c;
};

int bc_sim_ftl_new(const struct bc_sim_spec *s, struct bc_sim_ftl **out, char *err, size_t errlen)
{
	struct bc_sim_geometry g;
	struct bc_sim_ftl *f;
	uint32_t i;
	int ret;

	*out = NULL;
	ret = bc_sim_geometry(s, &g, err, errlen);
	if (ret)
		return ret;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->spec = *s;
	f->nlp = g.logical_pages;
	f->ppr = g.pages_per_ru;
	while ((1u << f->shift) < f->ppr)
		f->shift++;
	f->page_shift = (uint32_t)__builtin_ctz(s->page_bytes);
	f->nru = g.rus;
	f->nruh = s->ruhs;
	f->l2p = malloc(f->nlp * sizeof(*f->l2p));
	f->p2l = malloc(((size_t)f->nru << f->shift) * sizeof(*f->p2l));
	f->valid = calloc(f->nru, sizeof(*f->valid));
	f->state = calloc(f->nru, sizeof(*f->state));
	f->owner = calloc(f->nru, sizeof(*f->owner));
	f->closed_at = calloc(f->nru, sizeof(*f->closed_at));
	f->free = malloc(f->nru * sizeof(*f->free));
	f->ruh = malloc(f->nruh * sizeof(*f->ruh));
	if (!f->l2p || !f->p2l || !f->valid || !f->state || !f->owner || !f->closed_at ||
	    !f->free || !f->ruh) {
		snprintf(err, errlen, "out of memory for a simulated SSD of %llu pages",
			 (unsigned long long)f->nlp);
		bc_sim_ftl_destroy(&f);
		return -ENOMEM;
	}
	memset(f->l2p, 0xff, f->nlp * sizeof(*f->l2p));
	memset(f->p2l, 0xff, ((size_t)f->nru << f->shift) * sizeof(*f->p2l));
	/* pushed in reverse so RU 0 is allocated first */
	for (i = 0; i < f->nru; i++)
		f->free[i] = f->nru - 1 - i;
	f->nfree = f->nru;
	for (i = 0; i < f->nruh; i++)
		f->ruh[i] = (struct s_ruh){.ru = S_NONE, .wp = f->ppr};
	*out = f;
	return 0;
}

void bc_sim_ftl_destroy(struct bc_sim_ftl **pf)
{
	struct bc_sim_ftl *f = *pf;

	if (!f)
		return;
	free(f->l2p);
	free(f->p2l);
	free(f->valid);
	free(f->state);
	free(f->owner);
	free(f->closed_at);
	free(f->free);
	free(f->ruh);
	free(f);
	*pf = NULL;
}

static void s_gc(struct bc_sim_ftl *f);

/* close RUH h's full RU and open a free one; may run GC (never nested) */
static void s_open_ru(struct bc_sim_ftl *f, struct s_ruh *h, uint16_t idx)
{
	uint32_t ru;

	if (h->ru != S_NONE) {
		f->state[h->ru] = S_RU_FULL;
		f->closed_at[h->ru] = f->clock;
	}
	/* bc_sim_geometry's spare-RU bound makes this unreachable; a bug must be loud */
	if (__builtin_expect(!f->nfree, 0))
		abort();
	ru = f->free[--f->nfree];
	f->state[ru] = S_RU_OPEN;
	f->owner[ru] = idx;
	f->valid[ru] = 0;
	h->ru = ru;
	h->wp = 0;
	if (!f->in_gc && f->nfree < f->spec.gc_start_free_rus)
		s_gc(f);
}

/* lpn goes to the next page of h (room checked by the caller) */
static inline void s_program(struct bc_sim_ftl *f, struct s_ruh *h, uint32_t lpn)
{
	uint32_t ppn = (h->ru << f->shift) | h->wp++;

	f->l2p[lpn] = ppn;
	f->p2l[ppn] = lpn;
	f->valid[h->ru]++;
}

static uint32_t s_victim(const struct bc_sim_ftl *f)
{
	uint32_t i, best = S_NONE, minv = f->ppr;
	double score, top = -1;

	if (f->spec.gc == BC_SIM_GC_GREEDY) {
		for (i = 0; i < f->nru; i++)
			if (f->state[i] == S_RU_FULL && f->valid[i] < minv) {
				minv = f->valid[i];
				best = i;
				if (!minv)
					break;
			}
		return best;
	}
	/* Kawaguchi, Nishioka, Motoda, USENIX 1995: age * (1 - u) / 2u */
	for (i = 0; i < f->nru; i++) {
		double u = (double)f->valid[i] / f->ppr;

		if (f->state[i] != S_RU_FULL || f->valid[i] == f->ppr)
			continue;
		if (!f->valid[i])
			return i;
		score = (double)(f->clock - f->closed_at[i] + 1) * (1 - u) / (2 * u);
		if (score > top) {
			top = score;
			best = i;
		}
	}
	return best;
}

/* move v's valid pages into its RUH's open RU, then erase v */
static void s_reclaim(struct bc_sim_ftl *f, uint32_t v)
{
	uint16_t idx = f->owner[v];
	struct s_ruh *h = &f->ruh[idx];
	uint32_t base = v << f->shift, i, lpn, moved = 0;

	for (i = 0; i < f->ppr && f->valid[v]; i++) {
		lpn = f->p2l[base | i];
		if (lpn == S_NONE || f->l2p[lpn] != (base | i))
			continue;
		if (h->wp == f->ppr)
			s_open_ru(f, h, idx);
		s_program(f, h, lpn);
		f->valid[v]--;
		moved++;
	}
	f->c.gc_copy_bytes += (uint64_t)moved << f->page_shift;
	f->c.media_write_bytes += (uint64_t)moved << f->page_shift;
	f->c.media_read_bytes += (uint64_t)moved << f->page_shift;
	f->state[v] = S_RU_FREE;
	f->free[f->nfree++] = v;
	f->c.erases++;
	f->c.erase_bytes += f->spec.ru_bytes;
}

static void s_gc(struct bc_sim_ftl *f)
{
	uint32_t v;

	f->in_gc = 1;
	f->c.gc_runs++;
	while (f->nfree < f->spec.gc_stop_free_rus) {
		v = s_victim(f);
		if (v == S_NONE)
			break;
		s_reclaim(f, v);
	}
	f->in_gc = 0;
}

/* the logical pages [*first, *end) that [off, off + len) touches, clipped */
static inline int s_range(const struct bc_sim_ftl *f, uint64_t off, uint32_t len, uint64_t *first,
			  uint64_t *end)
{
	if (!len || (off >> f->page_shift) >= f->nlp)
		return 0;
	*first = off >> f->page_shift;
	*end = ((off + len - 1) >> f->page_shift) + 1;
	if (*end > f->nlp)
		*end = f->nlp;
	return 1;
}

void bc_sim_ftl_write(struct bc_sim_ftl *f, uint64_t off, uint32_t len, unsigned ruh)
{
	uint16_t idx = (uint16_t)(ruh < f->nruh ? ruh : ruh % f->nruh);
	struct s_ruh *h = &f->ruh[idx];
	uint64_t lpn, first, end;
	uint32_t old;

	f->c.host_write_bytes += len;
	f->c.host_write_cmds++;
	if (!s_range(f, off, len, &first, &end))
		return;
	for (lpn = first; lpn < end; lpn++) {
		/* room first: GC may move lpn itself, so read its mapping after */
		while (h->wp == f->ppr)
			s_open_ru(f, h, idx);
		old = f->l2p[lpn];
		if (old != S_NONE)
			f->valid[old >> f->shift]--;
		s_program(f, h, (uint32_t)lpn);
		f->clock++;
	}
	f->c.media_write_bytes += (end - first) << f->page_shift;
}

void bc_sim_ftl_read(struct bc_sim_ftl *f, uint64_t off, uint32_t len)
{
	uint64_t lpn, first, end, mapped = 0;

	f->c.host_read_bytes += len;
	f->c.host_read_cmds++;
	if (!s_range(f, off, len, &first, &end))
		return;
	/* an unmapped page reads as zeroes without touching the media */
	for (lpn = first; lpn < end; lpn++)
		mapped += f->l2p[lpn] != S_NONE;
	f->c.media_read_bytes += mapped << f->page_shift;
}

void bc_sim_ftl_trim(struct bc_sim_ftl *f, uint64_t off, uint32_t len)
{
	uint64_t page = f->spec.page_bytes, lpn, first, end;
	uint32_t old;

	f->c.host_trim_bytes += len;
	/* whole pages only: a partial page keeps its data */
	first = (off + page - 1) >> f->page_shift;
	end = (off + len) >> f->page_shift;
	if (end > f->nlp)
		end = f->nlp;
	for (lpn = first; lpn < end; lpn++) {
		old = f->l2p[lpn];
		if (old == S_NONE)
			continue;
		f->valid[old >> f->shift]--;
		f->l2p[lpn] = S_NONE;
	}
}

void bc_sim_ftl_counters(const struct bc_sim_ftl *f, struct bc_sim_counters *c)
{
	*c = f->c;
}

uint32_t bc_sim_ftl_free_rus(const struct bc_sim_ftl *f)
{
	return f->nfree;
}

uint64_t bc_sim_ftl_ruh_valid_pages(const struct bc_sim_ftl *f, unsigned ruh)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < f->nru; i++)
		if (f->state[i] != S_RU_FREE && f->owner[i] == ruh)
			n += f->valid[i];
	return n;
}

int bc_sim_ftl_check(const struct bc_sim_ftl *f)
{
	uint32_t *count = calloc(f->nru, sizeof(*count)), i, nfree = 0;
	uint64_t lpn;
	int ret = -EUCLEAN;

	if (!count)
		return -ENOMEM;
	for (lpn = 0; lpn < f->nlp; lpn++) {
		uint32_t p = f->l2p[lpn];

		if (p == S_NONE)
			continue;
		if ((p >> f->shift) >= f->nru || f->p2l[p] != lpn ||
		    f->state[p >> f->shift] == S_RU_FREE)
			goto out;
		count[p >> f->shift]++;
	}
	for (i = 0; i < f->nru; i++) {
		if (count[i] != f->valid[i])
			goto out;
		nfree += f->state[i] == S_RU_FREE;
	}
	if (nfree != f->nfree)
		goto out;
	ret = 0;
out:
	free(count);
	return ret;
}
