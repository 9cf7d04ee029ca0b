/*
 * sim/ftl.c - the page-mapped FTL of the simulated SSD (sim/ftl.h).
 *
 * The state is in sim/policy.h (the policies read it); what to reclaim and
 * where a GC copy goes is the policy's (sim/policy.c), the rest is here.
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
#include "sim/policy.h"

#define S_NONE BC_SIM_NONE

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
	f->ruh_host = calloc(f->nruh, sizeof(*f->ruh_host));
	f->ruh_gc = calloc(f->nruh, sizeof(*f->ruh_gc));
	f->policy = bc_sim_policy(s->gc);
	if (!f->l2p || !f->p2l || !f->valid || !f->state || !f->owner || !f->closed_at ||
	    !f->free || !f->ruh || !f->ruh_host || !f->ruh_gc) {
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
		f->ruh[i] = (struct bc_sim_frontier){.ru = S_NONE, .wp = f->ppr};
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
	free(f->ruh_host);
	free(f->ruh_gc);
	free(f);
	*pf = NULL;
}

static void s_gc(struct bc_sim_ftl *f);

/* close RUH h's full RU and open a free one; may run GC (never nested) */
static void s_open_ru(struct bc_sim_ftl *f, struct bc_sim_frontier *h, uint16_t idx)
{
	uint32_t ru;

	if (h->ru != S_NONE) {
		f->state[h->ru] = BC_SIM_RU_FULL;
		f->closed_at[h->ru] = f->clock;
	}
	/* bc_sim_geometry's spare-RU bound makes this unreachable; a bug must be loud */
	if (__builtin_expect(!f->nfree, 0))
		abort();
	ru = f->free[--f->nfree];
	f->state[ru] = BC_SIM_RU_OPEN;
	f->owner[ru] = idx;
	f->valid[ru] = 0;
	h->ru = ru;
	h->wp = 0;
	if (!f->in_gc && f->nfree < f->spec.gc_start_free_rus)
		s_gc(f);
}

/* lpn goes to the next page of h (room checked by the caller) */
static inline void s_program(struct bc_sim_ftl *f, struct bc_sim_frontier *h, uint32_t lpn)
{
	uint32_t ppn = (h->ru << f->shift) | h->wp++;

	f->l2p[lpn] = ppn;
	f->p2l[ppn] = lpn;
	f->valid[h->ru]++;
}

/* move v's valid pages into the frontier the policy names, then erase v */
static void s_reclaim(struct bc_sim_ftl *f, uint32_t v)
{
	uint16_t idx = (uint16_t)f->policy->gc_frontier(f, v);
	struct bc_sim_frontier *h = &f->ruh[idx];
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
	f->ruh_gc[idx] += moved;
	f->c.gc_copy_bytes += (uint64_t)moved << f->page_shift;
	f->c.media_write_bytes += (uint64_t)moved << f->page_shift;
	f->c.media_read_bytes += (uint64_t)moved << f->page_shift;
	f->state[v] = BC_SIM_RU_FREE;
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
		v = f->policy->victim(f);
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
	struct bc_sim_frontier *h = &f->ruh[idx];
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
	f->ruh_host[idx] += end - first;
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

unsigned bc_sim_ftl_ruh_counters(const struct bc_sim_ftl *f, struct bc_sim_ruh_counters *out,
				 unsigned n)
{
	unsigned h;

	for (h = 0; h < n && h < f->nruh; h++)
		out[h] = (struct bc_sim_ruh_counters){
		    .host_write_bytes = f->ruh_host[h] << f->page_shift,
		    .gc_copy_bytes = f->ruh_gc[h] << f->page_shift,
		    .valid_bytes = bc_sim_ftl_ruh_valid_pages(f, h) << f->page_shift};
	return h;
}

uint64_t bc_sim_ftl_ruh_valid_pages(const struct bc_sim_ftl *f, unsigned ruh)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < f->nru; i++)
		if (f->state[i] != BC_SIM_RU_FREE && f->owner[i] == ruh)
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
		    f->state[p >> f->shift] == BC_SIM_RU_FREE)
			goto out;
		count[p >> f->shift]++;
	}
	for (i = 0; i < f->nru; i++) {
		if (count[i] != f->valid[i])
			goto out;
		nfree += f->state[i] == BC_SIM_RU_FREE;
	}
	if (nfree != f->nfree)
		goto out;
	ret = 0;
out:
	free(count);
	return ret;
}
