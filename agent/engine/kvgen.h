/*
 * engine/kvgen.h - the job thread's side of the KV-cache workload
 * (profile/workload/kv.h, docs/kv.md). A job works for one class: it owns
 * one worker's part of the class's region (object slots), its share of the
 * stores, prefetches and capacity, and one writer's part of the class's
 * metadata log. Each record becomes its I/Os in order:
 *
 *   store:    [trim of the evicted object] [its eviction record]
 *             writes of the object, then its store record
 *   prefetch: reads of a live object chosen by popularity (rank 0 = newest)
 *
 * An object larger than the job's largest I/O (chunk) is written and read
 * in chunks; a record completes when its last chunk does (a ticket per
 * record in flight counts them).
 *
 * Stores and prefetches are interleaved evenly (exact totals), records are
 * released at the class's store rate when it has one, the oldest object is
 * evicted once the worker holds its capacity (so an object lives capacity /
 * store rate). Everything is precomputed by bc_kvgen_init; a draw touches
 * this struct and the job's RNG only: no allocation, no lock.
 */
#ifndef BC_ENGINE_KVGEN_H
#define BC_ENGINE_KVGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "engine/dist.h"
#include "engine/rand.h"
#include "engine/streamgen.h"
#include "profile/profile.h"
#include "wire/hist.h"

/* what an I/O of the KV workload is for (run.json "latency" per kind) */
enum bc_kv_kind {
	BC_KV_STORE = 0, /* an object's data */
	BC_KV_PREFETCH,	 /* a live object read back */
	BC_KV_META,	 /* a metadata record (per store and per eviction) */
	BC_KV_EVICT,	 /* the trim of an evicted object */
	BC_KV_KINDS,
};
extern const char *const bc_kv_kind_names[BC_KV_KINDS];

/* one class in one job over the step: what completed */
struct bc_kvstat {
	uint64_t records[BC_KV_KINDS]; /* records all of whose I/Os completed whole */
	uint64_t ios[BC_KV_KINDS];     /* I/Os completed whole */
	uint64_t bytes[BC_KV_KINDS];   /* of those */
	uint64_t errors[BC_KV_KINDS];  /* completed with an error or short */
	uint64_t evictions;	       /* objects evicted (trimmed or not) */
	uint64_t lat_ns[BC_KV_KINDS];  /* sum of latencies of ios[] */
	uint64_t life_ns;	       /* sum of lifetimes of the evicted objects */
	struct bc_hist lat[BC_KV_KINDS];
	struct bc_hist life; /* a store's completion to its eviction, ns */
};

/* one I/O the generator asks for */
struct bc_kvio {
	uint8_t kind; /* enum bc_kv_kind */
	uint8_t op;   /* enum bc_op */
	uint32_t len;
	uint64_t off;
	uint32_t slot;	 /* stores: the object's slot (its completion time is kept) */
	uint16_t ticket; /* the record's ticket (store, prefetch), BC_KV_NO_TICKET */
	int placement;
};
#define BC_KV_NO_TICKET UINT16_MAX

/* a trace record, compiled: when, what, which slot, how many bytes */
struct bc_kvtr {
	uint64_t t_ns;
	uint32_t slot, len;
	uint8_t kind; /* BC_KV_TR_* of profile/workload/kv.h, or BC_KVTR_MISS */
};
#define BC_KVTR_MISS 0xff

/* a store or prefetch record whose I/Os are not all back */
struct bc_kvrec {
	uint32_t left; /* I/Os still to complete */
	uint32_t slot;
	bool failed;
};

struct bc_kvgen {
	/* set up by bc_kvgen_init, read-only afterwards */
	int cls;	 /* stream index of the class */
	unsigned worker; /* 0..workers-1 */
	uint32_t obj;	 /* object bytes */
	uint32_t chunk;	 /* the largest I/O: an object is ceil(obj / chunk) of them */
	uint32_t nchunks;
	uint64_t start;	 /* the worker's first slot */
	uint64_t nslots; /* slots in the worker's part of the region */
	uint64_t cap;	 /* objects the worker keeps live */
	uint64_t stores, prefetches;
	bool trim;
	bool popular; /* non-uniform popularity */
	struct bc_dist pop;
	bool meta;
	uint32_t mbytes;		/* metadata record bytes */
	uint64_t mstart, mslots, mnext; /* the worker's part of the log, a ring */
	uint64_t interval_ns;		/* between records when paced, else 0 */
	struct bc_splace place, mplace;

	/* job thread */
	uint64_t t0;		   /* first record's release time (paced) */
	uint64_t done_s, done_p;   /* records generated */
	uint64_t next_id;	   /* objects stored so far; object i is in slot i % nslots */
	struct bc_kvio q[3];	   /* the current record's trim and metadata records */
	unsigned qh, qn;	   /* queued: q[qh..qn); the data I/Os go after the first npre */
	unsigned npre;		   /* ... of them */
	uint8_t ck_kind;	   /* the current record's data: store or prefetch */
	uint32_t ck_slot, ck_next; /* its slot and the next chunk to issue */
	uint32_t ck_len, ck_nch;   /* its bytes and chunks */
	uint16_t ck_ticket;
	int ck_place;	      /* its placement (one per object) */
	uint64_t q_ready;     /* when the current record may go */
	struct bc_kvrec *rec; /* [nrec] records in flight, by ticket */
	uint16_t *freet;      /* [nrec] free tickets, a stack */
	unsigned nrec, nfree;
	uint64_t *stored_at; /* [nslots] completion ns of the slot's object, 0: none yet */
	struct bc_kvstat st;
	/* a trace replay ("kv"."trace"): this worker's records, compiled to slots at PREPARE */
	struct bc_kvtr *tr;
	uint64_t ntr, itr;
	uint32_t *slot_len;    /* [nslots] the bytes the slot's object has (trace) */
	uint64_t misses;       /* prefetches of keys not live (trace) */
	uint64_t evict_misses; /* evictions of keys not live (trace) */
	char key[384];	       /* the store's identity across steps (volume, window, job, layout) */
	bool resumed;	       /* the store the previous step left on this volume went on */
};

/*
 * Set up job `job` of wl's KV workload on the window [win_start, win_end):
 * its class, worker part, log part, popularity, pacing and placements.
 * trim: evicted objects are trimmed. iodepth: I/Os this job keeps in
 * flight, so that many slots beyond the capacity keep a slot being stored
 * from holding a live object. max_io: the largest I/O the target takes (0:
 * any; the workload's "max_io" caps it further). 0, or -EINVAL (-ENOMEM)
 * with a message naming the stream and what to change.
 */
int bc_kvgen_init(struct bc_kvgen *g, const struct bc_workload *wl, const char *path,
		  uint64_t win_start, uint64_t win_end, unsigned job, unsigned iodepth, bool trim,
		  uint32_t max_io, char *err, size_t errlen);
void bc_kvgen_free(struct bc_kvgen *g);

/*
 * The store persists: bc_kvgen_free keeps a job's objects (their ids, slots,
 * completion times, the log's position) and the next bc_kvgen_init with the
 * same volume, window, job and layout goes on from them, as a KV cache's
 * store on its device does from one iteration to the next. Forget the
 * stores of path (NULL: all of them) when something else writes it (a
 * precondition) and at the session's end. Control thread only.
 */
void bc_kvgen_forget(const char *path);

/* the largest I/O the job issues (its buffers' size) */
uint32_t bc_kvgen_maxbs(const struct bc_kvgen *g);

/* the ops the job issues (job stats are faulted in for these only) */
void bc_kvgen_used_ops(const struct bc_kvgen *g, bool used[BC_OP_NR]);

/*
 * The next I/O at now (CLOCK_MONOTONIC ns) into *io; *ready is when it may
 * be submitted (<= now: at once). false when every record is issued.
 */
bool bc_kvgen_next(struct bc_kvgen *g, struct bc_rand *rng, uint64_t now, struct bc_kvio *io,
		   uint64_t *ready);

/* an I/O completed at now after lat_ns with res (bytes, or -errno) */
static inline void bc_kvgen_done(struct bc_kvgen *g, uint8_t kind, uint16_t ticket, int64_t res,
				 uint32_t len, uint64_t lat_ns, uint64_t now)
{
	struct bc_kvstat *s = &g->st;
	bool ok = res == (int64_t)len;
	struct bc_kvrec *r;

	if (ok) {
		s->ios[kind]++;
		s->bytes[kind] += len;
		s->lat_ns[kind] += lat_ns;
		bc_hist_add(&s->lat[kind], lat_ns);
	} else {
		s->errors[kind]++;
	}
	if (ticket == BC_KV_NO_TICKET) {
		s->records[kind] += ok; /* a metadata record or a trim is one I/O */
		return;
	}
	r = &g->rec[ticket];
	r->failed |= !ok;
	if (--r->left)
		return;
	if (!r->failed) {
		s->records[kind]++;
		if (kind == BC_KV_STORE)
			g->stored_at[r->slot] = now ? now : 1;
	}
	g->freet[g->nfree++] = ticket;
}

/* dst += src (the control thread merges jobs' stats of one class) */
void bc_kvstat_merge(struct bc_kvstat *dst, const struct bc_kvstat *src);

/*
 * STEP_DONE's "kv" of one volume from its finished jobs' generators (NULL
 * entries skipped): {"classes": [{name, class, workers, object_bytes,
 * capacity_objects, slots, store_rate, meta, trim, expected {stores,
 * prefetches}, stores, store_bytes, prefetches, prefetch_bytes,
 * meta_records, meta_bytes, evictions, trims, trim_bytes, errors {kind: n},
 * record_failures, lifetime {objects, mean_ms, p50_ms, p99_ms, max_ms,
 * hist}, latency {kind: {ios, mean_ms, p50_ms, p99_ms, max_ms, hist}}}]}.
 * Control thread; caller owns it.
 */
cJSON *bc_kv_report_json(const struct bc_workload *wl, const struct bc_kvgen *const *gens, int n);

#endif
