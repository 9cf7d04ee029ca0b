/*
 * sim/ftl.c - the page-mapped FTL of the simulated SSD (sim/ftl.h).
 *
 * The state is in sim/state.h (the policies read it); which class (write
 * frontier) a page goes to and what GC reclaims is the policies'
 * (sim/policy.h: the baseline in sim/policy.c, seed 001's hot/cold FTL in
 * sim/hotcold.c), the rest is here.
 *
 * Physical page addresses are (ru << shift) | index, shift = ceil(log2(pages
 * per RU)), so no division is on the write path. l2p maps logical pages to
 * physical ones (S_NONE: never written or trimmed); p2l maps back and may
 * hold stale entries: a physical page is valid iff l2p[p2l[p]] == p.
 * Per RU: valid page count, state, owning RUH and the host-page clock when
 * it was closed (the age cost-benefit needs), and the pool that holds it.
 * Each pool's free RUs are a stack. A pool owns its home units (the hot
 * pool the first hot_share of them); a unit lent to the other pool returns
 * home when it is next erased, so the split holds over time.
 *
 * GC runs inside the write that opens a new RU: the FTL policy refills a
 * pool whose last free unit was taken (pool_empty), and when fewer than
 * gc_start_free_rus are free in all, victims are reclaimed until
 * gc_stop_free_rus are (foreground GC, as a drive without idle time does).
 * With "background_gc", each host command ends with at most one victim
 * while few units are free (FEMU's GC thread, serialized). bc_sim_geometry
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

/* the pool a unit belongs to when it is free */
static inline unsigned s_home(const struct bc_sim_ftl *f, uint32_t ru)
{
	return ru < f->hot_home ? BC_SIM_HOT : BC_SIM_COLD;
}

static void s_push_free(struct bc_sim_ftl *f, uint32_t ru, unsigned pool)
{
	f->state[ru] = BC_SIM_RU_FREE;
	if (f->pool[ru] != pool) {
		f->prus[f->pool[ru]]--;
		f->prus[pool]++;
		f->pool[ru] = (uint8_t)pool;
	}
	f->pfree[pool][f->npfree[pool]++] = ru;
	f->nfree++;
}

int bc_sim_ftl_new(const struct bc_sim_spec *s, struct bc_sim_ftl **out, char *err, size_t errlen)
{
	struct bc_sim_geometry g;
	struct bc_sim_ftl *f;
	uint32_t i;
	unsigned p;
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
	f->ncls = bc_sim_classes(s);
	f->ops = s->ftl == BC_SIM_FTL_HOTCOLD ? &bc_sim_ftl_hotcold : &bc_sim_ftl_baseline;
	if (s->ftl == BC_SIM_FTL_HOTCOLD) {
		f->victim[BC_SIM_HOT] = bc_sim_policy(s->hc.hot_gc);
		f->victim[BC_SIM_COLD] = bc_sim_policy(s->hc.cold_gc);
		f->min_invalid[BC_SIM_HOT] = (uint32_t)(s->hc.hot_min_invalid * f->ppr);
		f->min_invalid[BC_SIM_COLD] = (uint32_t)(s->hc.cold_min_invalid * f->ppr);
		f->emergency_invalid = (uint32_t)(s->hc.emergency_min_invalid * f->ppr);
		f->hot_home = (uint32_t)(s->hc.hot_share * f->nru);
	} else {
		f->victim[BC_SIM_HOT] = f->victim[BC_SIM_COLD] = bc_sim_policy(s->gc);
		f->min_invalid[BC_SIM_COLD] = (uint32_t)(s->bg_min_invalid * f->ppr);
	}
	/* a victim frees at least one page: a gate of 0 is a gate of 1 */
	for (p = 0; p < BC_SIM_POOLS; p++)
		if (!f->min_invalid[p])
			f->min_invalid[p] = 1;
	if (!f->emergency_invalid)
		f->emergency_invalid = 1;
	f->l2p = malloc(f->nlp * sizeof(*f->l2p));
	f->p2l = malloc(((size_t)f->nru << f->shift) * sizeof(*f->p2l));
	f->valid = calloc(f->nru, sizeof(*f->valid));
	f->state = calloc(f->nru, sizeof(*f->state));
	f->pool = calloc(f->nru, sizeof(*f->pool));
	f->owner = calloc(f->nru, sizeof(*f->owner));
	f->closed_at = calloc(f->nru, sizeof(*f->closed_at));
	for (p = 0; p < BC_SIM_POOLS; p++)
		f->pfree[p] = malloc(f->nru * sizeof(*f->pfree[p]));
	f->fr = malloc((size_t)f->nruh * f->ncls * sizeof(*f->fr));
	f->ruh_host = calloc(f->nruh, sizeof(*f->ruh_host));
	f->ruh_gc = calloc(f->nruh, sizeof(*f->ruh_gc));
	f->log_every = s->log_every_bytes >> f->page_shift;
	f->log_next = f->log_every;
	if (f->log_every)
		f->log = malloc(BC_SIM_LOG_MAX * sizeof(*f->log));
	if (!f->l2p || !f->p2l || !f->valid || !f->state || !f->pool || !f->owner ||
	    !f->closed_at || !f->pfree[0] || !f->pfree[1] || !f->fr || !f->ruh_host || !f->ruh_gc ||
	    (f->log_every && !f->log) || (f->ops->init && f->ops->init(f))) {
		snprintf(err, errlen, "out of memory for a simulated SSD of %llu pages",
			 (unsigned long long)f->nlp);
		bc_sim_ftl_destroy(&f);
		return -ENOMEM;
	}
	memset(f->l2p, 0xff, f->nlp * sizeof(*f->l2p));
	memset(f->p2l, 0xff, ((size_t)f->nru << f->shift) * sizeof(*f->p2l));
	/* pushed in reverse so each pool's lowest unit is allocated first */
	for (i = 0; i < f->nru; i++) {
		uint32_t ru = f->nru - 1 - i;

		f->pool[ru] = (uint8_t)s_home(f, ru);
		f->prus[f->pool[ru]]++;
		f->pfree[f->pool[ru]][f->npfree[f->pool[ru]]++] = ru;
	}
	f->nfree = f->nru;
	for (i = 0; i < f->nruh * f->ncls; i++)
		f->fr[i] = (struct bc_sim_frontier){.ru = S_NONE, .wp = f->ppr};
	*out = f;
	return 0;
}

void bc_sim_ftl_destroy(struct bc_sim_ftl **pf)
{
	struct bc_sim_ftl *f = *pf;
	unsigned p;

	if (!f)
		return;
	if (f->ops && f->ops->fini)
		f->ops->fini(f);
	free(f->l2p);
	free(f->p2l);
	free(f->valid);
	free(f->state);
	free(f->pool);
	free(f->owner);
	free(f->closed_at);
	for (p = 0; p < BC_SIM_POOLS; p++)
		free(f->pfree[p]);
	free(f->fr);
	free(f->ruh_host);
	free(f->ruh_gc);
	free(f->log);
	free(f);
	*pf = NULL;
}

static int s_lend(struct bc_sim_ftl *f, unsigned from, unsigned to)
{
	uint32_t ru;

	if (!f->npfree[from])
		return -ENOSPC;
	ru = f->pfree[from][--f->npfree[from]];
	f->nfree--;
	s_push_free(f, ru, to);
	if (to == BC_SIM_HOT)
		f->c.lent_hot++;
	else
		f->c.lent_cold++;
	return 0;
}

static void s_gc(struct bc_sim_ftl *f);
static void s_refill(struct bc_sim_ftl *f, unsigned cls);
static void s_reclaim(struct bc_sim_ftl *f, uint32_t v);

/* a free unit of pool cls, borrowed from the other pool when cls has none */
static uint32_t s_alloc(struct bc_sim_ftl *f, unsigned cls)
{
	/* bc_sim_geometry's spare-RU bound makes this unreachable; a bug must be loud */
	if (__builtin_expect(!f->nfree, 0))
		abort();
	if (!f->npfree[cls])
		s_lend(f, !cls, cls);
	f->nfree--;
	return f->pfree[cls][--f->npfree[cls]];
}

/* close frontier h (RUH idx, class cls)'s full RU and open a free one; may run GC (never nested) */
static void s_open_ru(struct bc_sim_ftl *f, struct bc_sim_frontier *h, uint16_t idx, unsigned cls)
{
	uint32_t ru;

	if (h->ru != S_NONE) {
		f->state[h->ru] = BC_SIM_RU_FULL;
		f->closed_at[h->ru] = f->clock;
	}
	ru = s_alloc(f, cls);
	f->state[ru] = BC_SIM_RU_OPEN;
	f->owner[ru] = idx;
	f->valid[ru] = 0;
	h->ru = ru;
	h->wp = 0;
	if (f->in_gc)
		return;
	if (!f->npfree[cls] && f->ops->pool_empty)
		s_refill(f, cls);
	if (f->nfree < f->spec.gc_start_free_rus)
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

/* move v's valid pages into its handle's frontiers of the classes the policy names, erase v */
static void s_reclaim(struct bc_sim_ftl *f, uint32_t v)
{
	uint16_t idx = f->owner[v];
	uint32_t base = v << f->shift, i, lpn, moved = 0;
	unsigned cls, pool = f->pool[v];
	struct bc_sim_frontier *h;

	for (i = 0; i < f->ppr && f->valid[v]; i++) {
		lpn = f->p2l[base | i];
		if (lpn == S_NONE || f->l2p[lpn] != (base | i))
			continue;
		cls = f->ncls > 1 ? f->ops->copy_class(f, lpn) : 0;
		h = &f->fr[idx * f->ncls + cls];
		if (h->wp == f->ppr)
			s_open_ru(f, h, idx, cls);
		s_program(f, h, lpn);
		f->valid[v]--;
		moved++;
	}
	f->ruh_gc[idx] += moved;
	f->c.pool_victims[pool]++;
	f->c.pool_victim_copies[pool] += moved;
	f->c.gc_copy_bytes += (uint64_t)moved << f->page_shift;
	f->c.media_write_bytes += (uint64_t)moved << f->page_shift;
	f->c.media_read_bytes += (uint64_t)moved << f->page_shift;
	s_push_free(f, v, s_home(f, v));
	f->c.erases++;
	f->c.erase_bytes += f->spec.ru_bytes;
}

/* pool cls ran out: do what the FTL policy decides, as GC */
static void s_refill(struct bc_sim_ftl *f, unsigned cls)
{
	bool reclaimed = false;
	uint32_t v = S_NONE;
	int round;

	f->in_gc = 1;
	for (round = 0; round < 2 && !f->npfree[cls]; round++) {
		switch (f->ops->pool_empty(f, cls, reclaimed, &v)) {
		case BC_SIM_REFILL_POOL_GC:
			s_reclaim(f, v);
			f->c.gc_pool++;
			reclaimed = true;
			break;
		case BC_SIM_REFILL_EMERGENCY:
			s_reclaim(f, v);
			f->c.gc_emergency++;
			reclaimed = true;
			break;
		case BC_SIM_REFILL_BORROW:
			s_lend(f, !cls, cls);
			round = 2;
			break;
		default:
			round = 2;
			break;
		}
	}
	f->in_gc = 0;
}

static void s_gc(struct bc_sim_ftl *f)
{
	uint32_t v;

	f->in_gc = 1;
	f->c.gc_runs++;
	while (f->nfree < f->spec.gc_stop_free_rus) {
		v = f->ops->forced_victim(f);
		if (v == S_NONE)
			break;
		s_reclaim(f, v);
		f->c.gc_forced++;
	}
	f->in_gc = 0;
}

/* FEMU's background GC, one victim per host command while few units are free */
static void s_background(struct bc_sim_ftl *f)
{
	uint32_t v;

	if (f->nfree > f->spec.bg_free_rus)
		return;
	v = f->ops->background_victim(f);
	if (v == S_NONE)
		return;
	f->in_gc = 1;
	s_reclaim(f, v);
	f->in_gc = 0;
	f->c.gc_background++;
}

/* the counter log's next line (the seed's "WAF Statistics" block) */
static void s_log(struct bc_sim_ftl *f)
{
	struct bc_sim_log_sample *l = &f->log[f->c.log_samples % BC_SIM_LOG_MAX];
	uint64_t gc = f->c.gc_copy_bytes >> f->page_shift;

	*l = (struct bc_sim_log_sample){.host_pages = f->clock,
					.nand_pages = f->clock + gc,
					.gc_pages = gc,
					.free_rus = f->nfree,
					.pool_free = {f->npfree[0], f->npfree[1]}};
	f->c.log_samples++;
	f->log_next += f->log_every;
}

unsigned bc_sim_ftl_log(const struct bc_sim_ftl *f, uint64_t from, struct bc_sim_log_sample *out,
			unsigned max, uint64_t *first)
{
	uint64_t oldest = f->c.log_samples > BC_SIM_LOG_MAX ? f->c.log_samples - BC_SIM_LOG_MAX : 0;
	unsigned n = 0;

	if (from < oldest)
		from = oldest;
	*first = from;
	for (; from < f->c.log_samples && n < max; from++)
		out[n++] = f->log[from % BC_SIM_LOG_MAX];
	return n;
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
	struct bc_sim_frontier *h;
	uint64_t lpn, first, end;
	uint32_t old;
	unsigned cls;

	f->c.host_write_bytes += len;
	f->c.host_write_cmds++;
	if (!s_range(f, off, len, &first, &end))
		return;
	for (lpn = first; lpn < end; lpn++) {
		cls = f->ncls > 1 ? f->ops->host_class(f, (uint32_t)lpn) : 0;
		h = &f->fr[idx * f->ncls + cls];
		/* room first: GC may move lpn itself, so read its mapping after */
		while (h->wp == f->ppr)
			s_open_ru(f, h, idx, cls);
		old = f->l2p[lpn];
		if (old != S_NONE)
			f->valid[old >> f->shift]--;
		s_program(f, h, (uint32_t)lpn);
		f->clock++;
		f->c.pool_host_pages[cls]++;
		if (f->log_every && f->clock >= f->log_next)
			s_log(f);
	}
	f->ruh_host[idx] += end - first;
	f->c.media_write_bytes += (end - first) << f->page_shift;
	if (f->spec.bg_free_rus)
		s_background(f);
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
	if (f->spec.bg_free_rus)
		s_background(f);
}

void bc_sim_ftl_counters(const struct bc_sim_ftl *f, struct bc_sim_counters *c)
{
	unsigned p;

	*c = f->c;
	c->ftl = f->spec.ftl;
	c->rus = f->nru;
	c->ru_pages = f->ppr;
	c->free_rus = f->nfree;
	for (p = 0; p < BC_SIM_POOLS; p++) {
		c->pool_free[p] = f->npfree[p];
		c->pool_rus[p] = f->prus[p];
	}
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
	uint32_t *count = calloc(f->nru, sizeof(*count)), i, nfree = 0, pfree[BC_SIM_POOLS] = {0};
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
		if (f->state[i] == BC_SIM_RU_FREE)
			pfree[f->pool[i]]++;
	}
	if (nfree != f->nfree || pfree[0] != f->npfree[0] || pfree[1] != f->npfree[1] ||
	    f->prus[0] + f->prus[1] != f->nru)
		goto out;
	ret = 0;
out:
	free(count);
	return ret;
}
