/*
 * engine/kvgen.c - the KV-cache workload per job (engine/kvgen.h): the
 * worker's slots, log ring, popularity and pacing precomputed at PREPARE,
 * then one record at a time expanded into its I/Os on the job thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kvgen.h"
#include "profile/workload/kv.h"
#include "profile/workload/streams.h"

const char *const bc_kv_kind_names[BC_KV_KINDS] = {"store", "prefetch", "meta", "evict"};

/* the stores jobs left, by key; PREPARE and teardown only (the lock is for form's sake) */
struct s_saved {
	char key[384];
	uint64_t next_id, mnext, nslots;
	uint64_t *stored_at;
};
static pthread_mutex_t s_reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct s_saved *s_reg;
static size_t s_nreg;

static void s_reg_drop(size_t i)
{
	free(s_reg[i].stored_at);
	s_reg[i] = s_reg[--s_nreg];
}

void bc_kvgen_forget(const char *path)
{
	size_t i, n = path ? strlen(path) : 0;

	pthread_mutex_lock(&s_reg_mu);
	for (i = 0; i < s_nreg;) {
		if (!path || (!strncmp(s_reg[i].key, path, n) && s_reg[i].key[n] == '|'))
			s_reg_drop(i);
		else
			i++;
	}
	if (!s_nreg) {
		free(s_reg);
		s_reg = NULL;
	}
	pthread_mutex_unlock(&s_reg_mu);
}

/* the store this job left in the previous step, if its layout is this one's */
static void s_resume(struct bc_kvgen *g)
{
	size_t i;

	pthread_mutex_lock(&s_reg_mu);
	for (i = 0; i < s_nreg; i++) {
		if (strcmp(s_reg[i].key, g->key) || s_reg[i].nslots != g->nslots)
			continue;
		g->stored_at = s_reg[i].stored_at;
		g->next_id = s_reg[i].next_id;
		g->mnext = s_reg[i].mnext;
		g->resumed = true;
		s_reg[i].stored_at = NULL;
		s_reg_drop(i);
		break;
	}
	pthread_mutex_unlock(&s_reg_mu);
}

/* keep g's store for the next step (without memory it is forgotten) */
static void s_keep(struct bc_kvgen *g)
{
	struct s_saved *r;
	size_t i;

	pthread_mutex_lock(&s_reg_mu);
	for (i = 0; i < s_nreg; i++)
		if (!strcmp(s_reg[i].key, g->key))
			break;
	if (i == s_nreg && (r = realloc(s_reg, (s_nreg + 1) * sizeof(*r)))) {
		s_reg = r;
		memset(&s_reg[s_nreg++], 0, sizeof(*r));
	}
	if (i < s_nreg) {
		free(s_reg[i].stored_at);
		snprintf(s_reg[i].key, sizeof(s_reg[i].key), "%s", g->key);
		s_reg[i].next_id = g->next_id;
		s_reg[i].mnext = g->mnext;
		s_reg[i].nslots = g->nslots;
		s_reg[i].stored_at = g->stored_at;
		g->stored_at = NULL;
	}
	pthread_mutex_unlock(&s_reg_mu);
}

/* the worker's part of a stream's region: [*lo, *lo + *n) units of `unit` bytes */
static int s_part(const struct bc_stream *st, uint64_t win_start, uint64_t win_end, uint32_t unit,
		  unsigned i, unsigned n, uint64_t *lo, uint64_t *cnt, const char *path, char *err,
		  size_t errlen)
{
	uint64_t start, end, units, first;
	char msg[384];
	int ret;

	ret = bc_stream_range(st, win_start, win_end, unit, &start, &end, msg, sizeof(msg));
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return ret;
	}
	units = (end - start) / unit;
	first = (uint64_t)((unsigned __int128)units * i / n);
	*cnt = bc_kv_part(units, i, n);
	*lo = start + first * unit;
	return 0;
}

static int s_trace_load(struct bc_kvgen *g, const struct bc_workload *wl,
			const struct bc_stream *st, char *err, size_t errlen);

int bc_kvgen_init(struct bc_kvgen *g, const struct bc_workload *wl, const char *path,
		  uint64_t win_start, uint64_t win_end, unsigned job, unsigned iodepth, bool trim,
		  uint32_t max_io, char *err, size_t errlen)
{
	const struct bc_stream *st, *ms;
	unsigned widx, wn;
	double rate;
	int cls, log, ret;

	memset(g, 0, sizeof(*g));
	cls = bc_kv_job_class(wl, job, &g->worker);
	if (cls < 0) {
		snprintf(err, errlen, "%s: job %u works for no KV class (numjobs %u)", path, job,
			 wl->numjobs);
		return -EINVAL;
	}
	g->cls = cls;
	st = &wl->streams[cls];
	g->obj = st->bs;
	g->trim = trim;
	g->chunk = wl->kv.max_io ? wl->kv.max_io : BC_KV_MAX_IO;
	if (max_io && max_io < g->chunk)
		g->chunk = max_io;
	if (g->chunk > g->obj)
		g->chunk = g->obj;
	g->nchunks = (g->obj + g->chunk - 1) / g->chunk;
	g->stores = bc_kv_part(st->kv.stores, g->worker, st->kv.workers);
	g->prefetches = bc_kv_part(st->kv.prefetches, g->worker, st->kv.workers);
	ret = s_part(st, win_start, win_end, g->obj, g->worker, st->kv.workers, &g->start,
		     &g->nslots, path, err, errlen);
	if (ret)
		return ret;
	g->cap = st->kv.capacity_pct > 0
		     ? (uint64_t)((double)g->nslots * st->kv.capacity_pct / 100.0)
		     : bc_kv_part(st->kv.capacity, g->worker, st->kv.workers) / g->obj;
	/* a trace says what lives: every slot may */
	if (wl->kv.trace[0])
		g->cap = g->nslots > iodepth ? g->nslots - iodepth : 0;
	/*
	 * A store goes to slot next_id % nslots: with iodepth slots beyond the
	 * capacity, the slot it overwrites held an object evicted at least
	 * iodepth stores ago, never a live one or one still in flight.
	 */
	if (!g->cap || g->nslots < g->cap + iodepth) {
		snprintf(err, errlen,
			 "%s: KV class \"%s\" worker %u: its part of the region holds %llu "
			 "objects of %u bytes, fewer than its capacity of %llu objects plus "
			 "iodepth %u (enlarge the stream's range or lower kv.capacity)",
			 path, st->name, g->worker, (unsigned long long)g->nslots, g->obj,
			 (unsigned long long)g->cap, iodepth);
		return -EINVAL;
	}
	if (st->kv.popularity.kind != BC_DIST_UNIFORM) {
		g->popular = true;
		if (bc_dist_init(&g->pop, &st->kv.popularity, g->cap, 0)) {
			snprintf(err, errlen, "%s: KV class \"%s\": popularity over %llu objects",
				 path, st->name, (unsigned long long)g->cap);
			return -EINVAL;
		}
	}
	log = bc_kv_meta_index(wl, st);
	if (log >= 0 && !bc_kv_log_writer(wl, log, job, &widx, &wn)) {
		ms = &wl->streams[log];
		g->meta = true;
		g->mbytes = ms->bs;
		ret = s_part(ms, win_start, win_end, ms->bs, widx, wn, &g->mstart, &g->mslots, path,
			     err, errlen);
		if (ret)
			return ret;
		if (!g->mslots) {
			snprintf(err, errlen,
				 "%s: metadata log \"%s\" has fewer %u-byte records than its %u "
				 "writers",
				 path, ms->name, ms->bs, wn);
			return -EINVAL;
		}
		bc_splace_init(&g->mplace, &ms->placement, &wl->placement);
	}
	bc_splace_init(&g->place, &st->placement, &wl->placement);
	rate = bc_kv_store_rate(wl, st) / st->kv.workers;
	if (rate > 0 && g->stores)
		/* the worker's records over the time its stores take at its rate */
		g->interval_ns = (uint64_t)((double)g->stores / rate * 1e9 /
					    (double)(g->stores + g->prefetches));
	snprintf(
	    g->key, sizeof(g->key),
	    "%s|%llu-%llu|job %u|%s %u of %u|%u B x %llu slots at %llu, %llu live|log %llu+%llu",
	    path, (unsigned long long)win_start, (unsigned long long)win_end, job, st->name,
	    g->worker, st->kv.workers, g->obj, (unsigned long long)g->nslots,
	    (unsigned long long)g->start, (unsigned long long)g->cap, (unsigned long long)g->mstart,
	    (unsigned long long)g->mslots);
	if (wl->kv.trace[0]) {
		g->key[0] = '\0'; /* a trace replays from its start: nothing to go on with */
		ret = s_trace_load(g, wl, st, err, errlen);
		if (ret)
			return ret;
	} else {
		s_resume(g);
	}
	/* a ticket per record with I/Os out: iodepth of them, plus the one issuing */
	g->nrec = iodepth + 2;
	g->rec = calloc(g->nrec, sizeof(*g->rec));
	g->freet = calloc(g->nrec, sizeof(*g->freet));
	if (!g->rec || !g->freet) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (g->nfree = 0; g->nfree < g->nrec; g->nfree++)
		g->freet[g->nfree] = (uint16_t)(g->nrec - 1 - g->nfree);
	if (!g->stored_at)
		g->stored_at = calloc(g->nslots, sizeof(*g->stored_at));
	if (!g->stored_at) {
		snprintf(err, errlen, "%s: out of memory for %llu object slots", path,
			 (unsigned long long)g->nslots);
		return -ENOMEM;
	}
	return 0;
}

void bc_kvgen_free(struct bc_kvgen *g)
{
	if (g->key[0] && g->stored_at)
		s_keep(g);
	free(g->stored_at);
	free(g->rec);
	free(g->freet);
	free(g->tr);
	free(g->slot_len);
	g->tr = NULL;
	g->slot_len = NULL;
	g->stored_at = NULL;
	g->rec = NULL;
	g->freet = NULL;
}

uint32_t bc_kvgen_maxbs(const struct bc_kvgen *g)
{
	return g->meta && g->mbytes > g->chunk ? g->mbytes : g->chunk;
}

void bc_kvgen_used_ops(const struct bc_kvgen *g, bool used[BC_OP_NR])
{
	memset(used, 0, sizeof(bool) * BC_OP_NR);
	used[BC_OP_WRITE] = true;
	used[BC_OP_READ] = g->prefetches > 0;
	used[BC_OP_TRIM] = g->trim;
}

static inline void s_push(struct bc_kvgen *g, uint8_t kind, uint8_t op, uint64_t off, uint32_t len,
			  int placement)
{
	g->q[g->qn++] = (struct bc_kvio){.kind = kind,
					 .op = op,
					 .len = len,
					 .off = off,
					 .ticket = BC_KV_NO_TICKET,
					 .placement = placement};
}

static inline void s_meta(struct bc_kvgen *g)
{
	if (!g->meta)
		return;
	s_push(g, BC_KV_META, BC_OP_WRITE, g->mstart + g->mnext * g->mbytes, g->mbytes,
	       bc_splace_next(&g->mplace));
	if (++g->mnext == g->mslots)
		g->mnext = 0;
}

/* the record's data I/Os: the object's chunks, counted by a ticket */
static void s_data(struct bc_kvgen *g, uint8_t kind, uint64_t slot, uint32_t len, int placement)
{
	struct bc_kvrec *r;

	g->ck_kind = kind;
	g->ck_slot = (uint32_t)slot;
	g->ck_next = 0;
	g->ck_len = len;
	g->ck_nch = (len + g->chunk - 1) / g->chunk;
	g->ck_place = placement;
	/* bc_kvgen_init's bound: a free ticket always exists (a bug must be loud) */
	if (__builtin_expect(!g->nfree, 0))
		abort();
	g->ck_ticket = g->freet[--g->nfree];
	r = &g->rec[g->ck_ticket];
	r->left = g->ck_nch;
	r->slot = (uint32_t)slot;
	r->failed = false;
}

/* a store: evict the oldest when full, then the object and its record */
static void s_store(struct bc_kvgen *g, uint64_t now)
{
	uint64_t slot;

	if (g->next_id >= g->cap) {
		slot = (g->next_id - g->cap) % g->nslots;
		g->st.evictions++;
		if (g->stored_at[slot]) {
			uint64_t life = now > g->stored_at[slot] ? now - g->stored_at[slot] : 0;

			g->st.life_ns += life;
			bc_hist_add(&g->st.life, life);
			g->stored_at[slot] = 0;
		}
		if (g->trim)
			s_push(g, BC_KV_EVICT, BC_OP_TRIM, g->start + slot * g->obj, g->obj,
			       BC_PLACEMENT_VOLUME);
		s_meta(g);
	}
	g->npre = g->qn;
	slot = g->next_id % g->nslots;
	s_data(g, BC_KV_STORE, slot, g->obj, bc_splace_next(&g->place));
	s_meta(g);
	g->next_id++;
	g->done_s++;
}

/* a prefetch: a live object by its recency rank (0 = the newest) */
static void s_prefetch(struct bc_kvgen *g, struct bc_rand *rng)
{
	uint64_t live = g->next_id < g->cap ? g->next_id : g->cap, r, slot;

	r = g->popular ? bc_dist_rank(&g->pop, rng) : bc_rand_below(rng, live);
	/* while the store fills up, ranks beyond what lives wrap onto it */
	if (r >= live)
		r %= live;
	slot = (g->next_id - 1 - r) % g->nslots;
	g->npre = 0;
	s_data(g, BC_KV_PREFETCH, slot, g->obj, BC_PLACEMENT_VOLUME);
	g->done_p++;
}

/* a key's slot while the trace is compiled: open addressing, tombstones on eviction */
struct s_tmap {
	uint64_t *key;
	uint32_t *slot; /* slot + 1; 0 empty, UINT32_MAX removed */
	uint64_t mask;
};

static uint32_t *s_tmap_find(struct s_tmap *m, uint64_t key, bool add)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) & m->mask;
	uint32_t *hole = NULL;

	for (;; i = (i + 1) & m->mask) {
		if (!m->slot[i]) {
			if (!add)
				return NULL;
			if (!hole) {
				m->key[i] = key;
				hole = &m->slot[i];
			}
			return hole;
		}
		if (m->slot[i] == UINT32_MAX) {
			if (add && !hole) {
				m->key[i] = key;
				hole = &m->slot[i];
			}
			continue;
		}
		if (m->key[i] == key)
			return &m->slot[i];
	}
}

/* the records of this job's class and worker (keys split by hash), collected */
struct s_tload {
	struct bc_kvgen *g;
	unsigned workers;
	struct bc_kv_trace_rec *r;
	uint64_t n, cap;
};

static int s_tcollect(void *arg, const struct bc_kv_trace_rec *r)
{
	struct s_tload *l = arg;
	struct bc_kv_trace_rec *grown;

	if (r->cls != l->g->cls || r->key % l->workers != l->g->worker)
		return 0;
	if (l->n == l->cap) {
		grown = realloc(l->r, (l->cap ? l->cap * 2 : 1024) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		l->r = grown;
		l->cap = l->cap ? l->cap * 2 : 1024;
	}
	l->r[l->n++] = *r;
	return 0;
}

/*
 * The trace's records of this worker compiled to slots: a store of a new key
 * takes the free slot freed longest ago (a ring, so a slot being trimmed is
 * not written at once), an eviction frees its key's slot, a prefetch or an
 * eviction of a key not stored is a miss (counted, no I/O)
 */
static int s_trace_load(struct bc_kvgen *g, const struct bc_workload *wl,
			const struct bc_stream *st, char *err, size_t errlen)
{
	struct s_tload l = {.g = g, .workers = st->kv.workers};
	struct s_tmap m = {0};
	uint64_t i, size = 16, fh = 0, ft, nfree;
	uint32_t *freeq = NULL, *e;
	int ret;

	ret = bc_kv_trace_read(wl->kv.trace, wl, s_tcollect, &l, err, errlen);
	while (!ret && size < 2 * g->nslots + 16)
		size <<= 1;
	if (!ret) {
		m.key = calloc(size, sizeof(*m.key));
		m.slot = calloc(size, sizeof(*m.slot));
		m.mask = size - 1;
		freeq = malloc(g->nslots * sizeof(*freeq));
		g->tr = calloc(l.n ? l.n : 1, sizeof(*g->tr));
		g->slot_len = calloc(g->nslots, sizeof(*g->slot_len));
		if (!m.key || !m.slot || !freeq || !g->tr || !g->slot_len)
			ret = -ENOMEM;
	}
	for (i = 0, nfree = g->nslots; !ret && i < g->nslots; i++)
		freeq[i] = (uint32_t)i;
	ft = 0; /* the ring: take at fh, give back at ft */
	for (i = 0; !ret && i < l.n; i++) {
		const struct bc_kv_trace_rec *r = &l.r[i];
		struct bc_kvtr *t = &g->tr[i];

		t->t_ns = (uint64_t)(r->t_s * 1e9);
		e = s_tmap_find(&m, r->key, r->op == BC_KV_TR_STORE);
		if (r->op == BC_KV_TR_STORE) {
			if (!*e || *e == UINT32_MAX) {
				if (!nfree) {
					snprintf(
					    err, errlen,
					    "%s:%u: KV class \"%s\" worker %u: more objects live "
					    "than its part of the region holds (%llu slots of %u "
					    "bytes): evict more, or enlarge the class's range",
					    wl->kv.trace, r->line, st->name, g->worker,
					    (unsigned long long)g->nslots, g->obj);
					ret = -EINVAL;
					break;
				}
				*e = freeq[fh] + 1;
				fh = fh + 1 == g->nslots ? 0 : fh + 1;
				nfree--;
			}
			t->kind = BC_KV_TR_STORE;
			t->slot = *e - 1;
			/* whole 4 KiB blocks: what every O_DIRECT device takes */
			t->len = (uint32_t)((r->bytes + 4095) / 4096 * 4096);
			if (t->len > g->obj)
				t->len = g->obj;
			g->stores++;
			continue;
		}
		g->prefetches += r->op == BC_KV_TR_PREFETCH;
		if (!e || !*e || *e == UINT32_MAX) {
			t->kind = BC_KVTR_MISS;
			if (r->op == BC_KV_TR_PREFETCH)
				g->misses++;
			else
				g->evict_misses++;
			continue;
		}
		t->kind = (uint8_t)r->op;
		t->slot = *e - 1;
		if (r->op == BC_KV_TR_EVICT) {
			freeq[ft] = *e - 1;
			ft = ft + 1 == g->nslots ? 0 : ft + 1;
			nfree++;
			*e = UINT32_MAX;
		}
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory for the trace's records", wl->kv.trace);
	g->ntr = l.n;
	free(l.r);
	free(m.key);
	free(m.slot);
	free(freeq);
	return ret;
}

/* the next trace record: at its time from the first one's, its I/Os */
static bool s_trace_record(struct bc_kvgen *g, uint64_t now)
{
	const struct bc_kvtr *t;
	uint64_t life;

	if (g->itr == g->ntr)
		return false;
	t = &g->tr[g->itr++];
	if (!g->t0)
		g->t0 = now ? now : 1;
	g->qh = g->qn = g->npre = 0;
	g->q_ready = g->t0 + t->t_ns;
	switch (t->kind) {
	case BC_KV_TR_STORE:
		g->slot_len[t->slot] = t->len;
		s_data(g, BC_KV_STORE, t->slot, t->len, bc_splace_next(&g->place));
		s_meta(g);
		g->done_s++;
		break;
	case BC_KV_TR_PREFETCH:
		s_data(g, BC_KV_PREFETCH, t->slot, g->slot_len[t->slot], BC_PLACEMENT_VOLUME);
		g->done_p++;
		break;
	case BC_KV_TR_EVICT:
		g->st.evictions++;
		if (g->stored_at[t->slot]) {
			life = g->q_ready > g->stored_at[t->slot]
				   ? g->q_ready - g->stored_at[t->slot]
				   : 0;
			g->st.life_ns += life;
			bc_hist_add(&g->st.life, life);
			g->stored_at[t->slot] = 0;
		}
		if (g->trim)
			s_push(g, BC_KV_EVICT, BC_OP_TRIM, g->start + (uint64_t)t->slot * g->obj,
			       g->slot_len[t->slot], BC_PLACEMENT_VOLUME);
		s_meta(g);
		g->npre = g->qn;
		break;
	default: /* counted when compiled */
		break;
	}
	return true;
}

/* the next record: a prefetch when it moves floor(k * P / n), else a store */
static bool s_record(struct bc_kvgen *g, struct bc_rand *rng, uint64_t now)
{
	uint64_t k = g->done_s + g->done_p, n = g->stores + g->prefetches;

	if (k >= n)
		return false;
	if (!g->t0)
		g->t0 = now ? now : 1;
	g->qh = g->qn = 0;
	g->q_ready = g->interval_ns ? g->t0 + k * g->interval_ns : 0;
	/* the prefetches spread evenly, the first record is a store, the totals are exact */
	if (g->prefetches && (unsigned __int128)(k + 1) * g->prefetches / n >
				 (unsigned __int128)k * g->prefetches / n)
		s_prefetch(g, rng);
	else
		s_store(g, g->q_ready > now ? g->q_ready : now);
	return true;
}

bool bc_kvgen_next(struct bc_kvgen *g, struct bc_rand *rng, uint64_t now, struct bc_kvio *io,
		   uint64_t *ready)
{
	uint64_t at;
	uint32_t len;

	/* the record's trim and eviction record, its chunks, its metadata record; then the next */
	while (g->qh == g->qn && g->ck_next == g->ck_nch)
		if (!(g->tr ? s_trace_record(g, now) : s_record(g, rng, now)))
			return false;
	*ready = g->q_ready;
	if (g->qh < g->npre || (g->ck_next == g->ck_nch && g->qh < g->qn)) {
		*io = g->q[g->qh++];
		return true;
	}
	at = (uint64_t)g->ck_next * g->chunk;
	len = g->ck_len - at < g->chunk ? (uint32_t)(g->ck_len - at) : g->chunk;
	*io = (struct bc_kvio){.kind = g->ck_kind,
			       .op = g->ck_kind == BC_KV_STORE ? BC_OP_WRITE : BC_OP_READ,
			       .len = len,
			       .off = g->start + (uint64_t)g->ck_slot * g->obj + at,
			       .slot = g->ck_slot,
			       .ticket = g->ck_ticket,
			       .placement = g->ck_place};
	g->ck_next++;
	return true;
}

void bc_kvstat_merge(struct bc_kvstat *dst, const struct bc_kvstat *src)
{
	int k;

	for (k = 0; k < BC_KV_KINDS; k++) {
		dst->records[k] += src->records[k];
		dst->ios[k] += src->ios[k];
		dst->bytes[k] += src->bytes[k];
		dst->errors[k] += src->errors[k];
		dst->lat_ns[k] += src->lat_ns[k];
		bc_hist_merge(&dst->lat[k], &src->lat[k]);
	}
	dst->evictions += src->evictions;
	dst->life_ns += src->life_ns;
	bc_hist_merge(&dst->life, &src->life);
}

/* a histogram as run.json's sparse [[bucket, count], ...] */
static cJSON *s_hist_json(const struct bc_hist *h)
{
	cJSON *arr = cJSON_CreateArray(), *p;
	unsigned i;

	for (i = 0; arr && h->count && i < BC_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		p = cJSON_CreateArray();
		cJSON_AddItemToArray(p, cJSON_CreateNumber(i));
		cJSON_AddItemToArray(p, cJSON_CreateNumber((double)h->buckets[i]));
		cJSON_AddItemToArray(arr, p);
	}
	return arr;
}

/* count, mean, p50, p99, max (ms) and the histogram of n samples summing to sum_ns */
static cJSON *s_dist_json(const struct bc_hist *h, uint64_t n, uint64_t sum_ns, const char *what)
{
	static const double pct[] = {50, 99};
	cJSON *o = cJSON_CreateObject();
	uint64_t v[2];

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, what, (double)n);
	if (!h->count)
		return o;
	bc_hist_percentiles(h, pct, 2, v);
	cJSON_AddNumberToObject(o, "mean_ms", (double)sum_ns / (double)n / 1e6);
	cJSON_AddNumberToObject(o, "p50_ms", (double)v[0] / 1e6);
	cJSON_AddNumberToObject(o, "p99_ms", (double)v[1] / 1e6);
	cJSON_AddNumberToObject(o, "max_ms", (double)bc_hist_max(h) / 1e6);
	cJSON_AddItemToObject(o, "hist", s_hist_json(h));
	return o;
}

/* one class: its figures over the jobs working for it */
static cJSON *s_class_json(const struct bc_workload *wl, int cls, const struct bc_kvgen *const *g,
			   int n, struct bc_kvstat *acc)
{
	const struct bc_stream *st = &wl->streams[cls];
	uint64_t stores = 0, prefetches = 0, cap = 0, slots = 0, failed, chunk = 0, misses = 0;
	uint64_t evict_misses = 0;
	cJSON *o = cJSON_CreateObject(), *x;
	unsigned workers = 0, resumed = 0;
	bool trim = false;
	double rate = bc_kv_store_rate(wl, st);
	int i, k;

	memset(acc, 0, sizeof(*acc));
	for (i = 0; i < n; i++) {
		if (!g[i] || g[i]->cls != cls)
			continue;
		workers++;
		resumed += g[i]->resumed;
		stores += g[i]->stores;
		prefetches += g[i]->prefetches;
		cap += g[i]->cap;
		slots += g[i]->nslots;
		trim |= g[i]->trim;
		chunk = g[i]->chunk;
		misses += g[i]->misses;
		evict_misses += g[i]->evict_misses;
		bc_kvstat_merge(acc, &g[i]->st);
	}
	cJSON_AddStringToObject(o, "name", st->name);
	cJSON_AddStringToObject(o, "class", st->cls);
	cJSON_AddNumberToObject(o, "workers", workers);
	/* workers that went on with the store the previous step left (engine/kvgen.h) */
	cJSON_AddNumberToObject(o, "resumed_workers", resumed);
	cJSON_AddNumberToObject(o, "object_bytes", st->bs);
	/* an object's data I/Os are at most this large (docs/kv.md) */
	cJSON_AddNumberToObject(o, "io_bytes", (double)chunk);
	cJSON_AddNumberToObject(o, "capacity_objects", (double)cap);
	cJSON_AddNumberToObject(o, "slots", (double)slots);
	if (rate > 0)
		cJSON_AddNumberToObject(o, "store_rate", rate);
	if (st->kv.meta[0])
		cJSON_AddStringToObject(o, "meta", st->kv.meta);
	cJSON_AddBoolToObject(o, "trim", trim);
	x = cJSON_AddObjectToObject(o, "expected");
	cJSON_AddNumberToObject(x, "stores", (double)stores);
	cJSON_AddNumberToObject(x, "prefetches", (double)prefetches);
	cJSON_AddNumberToObject(o, "stores", (double)acc->records[BC_KV_STORE]);
	cJSON_AddNumberToObject(o, "store_bytes", (double)acc->bytes[BC_KV_STORE]);
	cJSON_AddNumberToObject(o, "prefetches", (double)acc->records[BC_KV_PREFETCH]);
	cJSON_AddNumberToObject(o, "prefetch_bytes", (double)acc->bytes[BC_KV_PREFETCH]);
	cJSON_AddNumberToObject(o, "meta_records", (double)acc->ios[BC_KV_META]);
	cJSON_AddNumberToObject(o, "meta_bytes", (double)acc->bytes[BC_KV_META]);
	cJSON_AddNumberToObject(o, "evictions", (double)acc->evictions);
	cJSON_AddNumberToObject(o, "trims", (double)acc->ios[BC_KV_EVICT]);
	cJSON_AddNumberToObject(o, "trim_bytes", (double)acc->bytes[BC_KV_EVICT]);
	x = cJSON_AddObjectToObject(o, "errors");
	for (k = 0; k < BC_KV_KINDS; k++)
		cJSON_AddNumberToObject(x, bc_kv_kind_names[k], (double)acc->errors[k]);
	/* a record fails when its I/O failed or never completed (cancelled, runtime over) */
	/* a trace's prefetch of a key it never stored is a miss, not a failure */
	failed = (stores + prefetches - misses) -
		 (acc->records[BC_KV_STORE] + acc->records[BC_KV_PREFETCH]);
	cJSON_AddNumberToObject(o, "misses", (double)misses);
	cJSON_AddNumberToObject(o, "evict_misses", (double)evict_misses);
	cJSON_AddNumberToObject(o, "record_failures", (double)failed);
	cJSON_AddItemToObject(o, "lifetime",
			      s_dist_json(&acc->life, acc->life.count, acc->life_ns, "objects"));
	x = cJSON_AddObjectToObject(o, "latency");
	for (k = 0; k < BC_KV_KINDS; k++)
		cJSON_AddItemToObject(
		    x, bc_kv_kind_names[k],
		    s_dist_json(&acc->lat[k], acc->ios[k], acc->lat_ns[k], "ios"));
	return o;
}

cJSON *bc_kv_report_json(const struct bc_workload *wl, const struct bc_kvgen *const *gens, int n)
{
	struct bc_kvstat *acc = malloc(sizeof(*acc));
	cJSON *o = cJSON_CreateObject(), *arr;
	uint32_t i;

	if (!acc || !o) {
		free(acc);
		cJSON_Delete(o);
		return NULL;
	}
	arr = cJSON_AddArrayToObject(o, "classes");
	for (i = 0; i < wl->nstreams; i++)
		if (wl->streams[i].kv.role == BC_KV_CLASS)
			cJSON_AddItemToArray(arr, s_class_json(wl, (int)i, gens, n, acc));
	free(acc);
	return o;
}
