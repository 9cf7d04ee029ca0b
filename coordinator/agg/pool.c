/*
 * agg/pool.c - aggregation on worker threads. At 1,000 agents x 16 volumes
 * a second's 1,000 records arrive within a few milliseconds and adding them
 * costs ~0.26 s of one core: the second closes that late. Here each worker
 * owns the agents i with i % workers == its index, so their volumes and
 * agents are written by that worker alone; nodes and the total are added
 * into each worker's partial copies (agg/lane.h), merged by the main
 * thread before it closes a second.
 *
 * The main thread reads each record's header (second k), does the
 * bookkeeping that decides when a second closes (agents_reported, late,
 * the rows_map touch) and copies the body into the worker's ring: a single
 * producer, single consumer ring of bytes, no lock and no allocation per
 * record. Before it closes a second it waits until every worker has done
 * everything it was given (bc_agg_pool_settle); g->closed, which decides
 * which records are late, only changes then, so the results are those of
 * the serial path byte for byte (tests/unit/test_agg.c).
 *
 * Sleeping: a worker with an empty ring, or the main thread waiting for
 * room or for the workers to settle, waits on a condition variable; the
 * other side signals only when it sees the sleeper's flag (both sides use
 * sequentially consistent atomics, so one of them always sees the other).
 *
 *   the rings - s_push, s_take, s_wait_head, s_room, s_publish
 *   a worker - s_worker_main: records off its ring into its lane
 *   merging - the lanes' partial nodes and total into g (s_merge_entity,
 *             s_lanes_merge), first errors by arrival order
 *   the pool's life - bc_agg_pool_start, bc_agg_submit, bc_agg_pool_settle,
 *                     bc_agg_pool_destroy, bc_agg_finish
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agg/fanout.h"
#include "agg/lane.h"
#include "agg/pool.h"
#include "agg/rhist.h"
#include "agg/rows.h"
#include "agg/rows.h"
#include "fleet/fleet.h"

/*
 * Bytes of records a worker can be behind by: a second of 1,000 agents is
 * ~20 MB of bodies; with this much per worker the main thread seldom waits
 * for room, and the rings' pages are touched once and reused.
 */
#define S_RING_BYTES (8u << 20)
/* a record larger than this is added by the main thread, the workers settled */
#define S_BIG_BYTES (S_RING_BYTES / 4)
/* below this many agents one thread keeps up easily (bench/swarm.sh: 28 ms/s at 100) */
#define S_AUTO_MIN_AGENTS  64
#define S_AUTO_MAX_THREADS 4

/* a record in a ring: this header, the body, padding to 8 bytes */
struct s_rec {
	const struct bc_conn *c;
	uint64_t seq; /* arrival order over all workers */
	uint32_t len; /* of the body; with skip: of the gap to the ring's end */
	uint32_t skip;
};

struct s_worker {
	struct bc_agg_lane *lane; /* &pool->lanes[index] */
	pthread_t th;
	bool started;
	clockid_t cpu_clock;
	uint8_t *ring;
	/*
	 * bytes ever written (tail, atomic; produced: the main thread's copy) and
	 * consumed (head, atomic); ring offset = value % S_RING_BYTES
	 */
	uint64_t tail, head, produced;
	pthread_mutex_t mu;
	pthread_cond_t wake; /* the worker: more records, or stop */
	pthread_cond_t room; /* the main thread: head reached want */
	int sleeping;	     /* the worker waits on wake */
	uint64_t want;	     /* the main thread waits for head >= want - 1; 0: not waiting */
	bool stop;
	int err; /* first failed record's -errno, and its connection */
	const struct bc_conn *err_conn;
};

struct bc_aggpool {
	struct bc_agg *g;
	struct bc_agg_lane *lanes; /* [n], contiguous for s_lanes_merge */
	struct s_worker *w;	   /* [n] */
	int n;
	bool ready;		       /* every lane initialised (the merge needs them all) */
	uint32_t slot_k[BC_AGG_SLOTS]; /* second held by each partial row slot */
	uint64_t seq;		       /* records handed over */
};

static size_t s_rec_size(size_t len)
{
	return (sizeof(struct s_rec) + len + 7) & ~(size_t)7;
}

static uint64_t s_load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static void s_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

/* one record from the ring at offset off; returns the bytes it took */
static size_t s_take(struct s_worker *w, uint64_t off)
{
	size_t pos = off % S_RING_BYTES;
	struct s_rec r;
	struct bc_stats_hdr h;
	int rc;

	/* too little room for a header at the ring's end: the producer wrapped */
	if (S_RING_BYTES - pos < sizeof(r))
		return S_RING_BYTES - pos;
	memcpy(&r, w->ring + pos, sizeof(r));
	if (r.skip)
		return r.len;
	w->lane->seq = r.seq;
	rc = bc_agg_lane_add(w->lane, r.c, w->ring + pos + sizeof(r), r.len, &h);
	if (rc && !__atomic_load_n(&w->err, __ATOMIC_ACQUIRE)) {
		w->err_conn = r.c;
		__atomic_store_n(&w->err, rc, __ATOMIC_RELEASE);
	}
	return s_rec_size(r.len);
}

static void *s_worker_main(void *arg)
{
	struct s_worker *w = arg;
	uint64_t head = w->head;

	for (;;) {
		uint64_t tail = s_load(&w->tail), want;

		if (head == tail) {
			pthread_mutex_lock(&w->mu);
			__atomic_store_n(&w->sleeping, 1, __ATOMIC_SEQ_CST);
			while (!w->stop && s_load(&w->tail) == head)
				pthread_cond_wait(&w->wake, &w->mu);
			__atomic_store_n(&w->sleeping, 0, __ATOMIC_SEQ_CST);
			if (w->stop && s_load(&w->tail) == head) {
				pthread_mutex_unlock(&w->mu);
				break;
			}
			pthread_mutex_unlock(&w->mu);
			continue;
		}
		while (head != tail) {
			head += s_take(w, head);
			s_store(&w->head, head);
			want = s_load(&w->want);
			if (want && head + 1 >= want) {
				pthread_mutex_lock(&w->mu);
				pthread_cond_signal(&w->room);
				pthread_mutex_unlock(&w->mu);
			}
		}
	}
	return NULL;
}

/*
 * How long the loop waits for a worker before it calls g->wait_fn: workers
 * behind on a busy 2-core host at 1,000 agents held it for 2 s, and no
 * heartbeat went meanwhile
 */
#define S_WAIT_MS 250

/* wait until worker w has consumed up to byte at (at most its tail) */
static void s_wait_head(struct s_worker *w, uint64_t at)
{
	const struct bc_agg *g = w->lane->g;

	if (s_load(&w->head) >= at)
		return;
	pthread_mutex_lock(&w->mu);
	s_store(&w->want, at + 1);
	while (s_load(&w->head) < at) {
		struct timespec ts;

		if (!g->wait_fn) {
			pthread_cond_wait(&w->room, &w->mu);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += S_WAIT_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&w->room, &w->mu, &ts) == ETIMEDOUT &&
		    s_load(&w->head) < at) {
			pthread_mutex_unlock(&w->mu);
			g->wait_fn(g->wait_arg);
			pthread_mutex_lock(&w->mu);
		}
	}
	s_store(&w->want, 0);
	pthread_mutex_unlock(&w->mu);
}

/* wait until the ring has room for bytes up to end (counted like tail) */
static void s_room(struct s_worker *w, uint64_t end)
{
	if (end > S_RING_BYTES)
		s_wait_head(w, end - S_RING_BYTES);
}

static void s_publish(struct s_worker *w, uint64_t tail)
{
	s_store(&w->tail, tail);
	if (__atomic_load_n(&w->sleeping, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&w->mu);
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->mu);
	}
}

/* copy one record into w's ring, waiting for room */
static void s_push(struct s_worker *w, const struct bc_conn *c, uint64_t seq, const uint8_t *body,
		   size_t len)
{
	size_t need = s_rec_size(len), pos = w->produced % S_RING_BYTES, gap = S_RING_BYTES - pos;
	struct s_rec r = {.c = c, .seq = seq, .len = (uint32_t)len};
	uint64_t tail = w->produced;

	if (gap < need) {
		/* not contiguous: skip to the ring's start */
		s_room(w, tail + gap + need);
		if (gap >= sizeof(r)) {
			struct s_rec sk = {.len = (uint32_t)gap, .skip = 1};

			memcpy(w->ring + pos, &sk, sizeof(sk));
		}
		tail += gap;
		pos = 0;
	} else {
		s_room(w, tail + need);
	}
	memcpy(w->ring + pos, &r, sizeof(r));
	memcpy(w->ring + pos + sizeof(r), body, len);
	w->produced = tail + need;
	s_publish(w, w->produced);
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
				bc_rhist_merge(&g->rh_free, &e->sec_hist[k], p->sec_hist[s]);
				bc_rhist_put(lanes[i].rh_free, p->sec_hist[s]);
				p->sec_hist[s] = NULL;
			}
		}
	}
	for (i = 0; i < n; i++)
		memset(lanes[i].errno_seq[ei], 0, sizeof(lanes[i].errno_seq[ei]));
}

/*
 * the partial nodes and total of lanes[0..n) into g, and cleared; slot_k[s] is
 * the second slot s holds (BC_AGG_SLOT_FREE: none)
 */
static void s_lanes_merge(struct bc_agg *g, struct bc_agg_lane *lanes, int n,
			  const uint32_t *slot_k)
{
	int j;

	for (j = 0; j < g->nent[BC_LVL_NODE]; j++)
		s_merge_entity(g, &g->ent[BC_LVL_NODE][j], BC_LVL_NODE, j, j, lanes, n, slot_k);
	s_merge_entity(g, &g->ent[BC_LVL_TOTAL][0], BC_LVL_TOTAL, 0, g->nent[BC_LVL_NODE], lanes, n,
		       slot_k);
}

void bc_agg_pool_settle(struct bc_agg *g)
{
	struct bc_aggpool *p = g->pool;
	int i, s;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		s_wait_head(&p->w[i], p->w[i].produced);
	/* late and drain records leave counters in the partial copies too: always merge */
	s_lanes_merge(g, p->lanes, p->n, p->slot_k);
	for (s = 0; s < BC_AGG_SLOTS; s++)
		p->slot_k[s] = BC_AGG_SLOT_FREE;
}

int bc_agg_submit(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
		  struct bc_stats_hdr *hdr, const struct bc_conn **bad)
{
	struct bc_aggpool *p = g->pool;
	struct s_worker *w;
	uint32_t k;
	int i, rc;

	*bad = c;
	if (!p)
		return bc_agg_add(g, c, body, len, hdr);
	rc = bc_stats_decode_hdr(body, len, hdr);
	if (rc)
		return rc;
	k = hdr->second;
	if (k != BC_STATS_DRAIN && k >= g->seconds)
		return -ERANGE;
	if (k < g->seconds) {
		uint32_t *slot = &p->slot_k[k % BC_AGG_SLOTS];

		/* rows first written while no worker runs (bc_agg_rows_touch writes them all) */
		if (g->rows_map && k >= g->touched) {
			bc_agg_pool_settle(g);
			bc_agg_rows_touch(g, k);
		}
		if (*slot != k && *slot != BC_AGG_SLOT_FREE)
			bc_agg_pool_settle(g);
		*slot = k;
		g->agents_reported[k]++;
		if (hdr->flags & BC_STATS_F_LATE)
			g->late[k]++;
	}
	w = &p->w[c->index % p->n];
	if (len > S_BIG_BYTES) {
		/* the workers settled, so this thread may use w's lane: it is idle */
		bc_agg_pool_settle(g);
		w->lane->seq = p->seq++;
		rc = bc_agg_lane_add(w->lane, c, body, len, hdr);
		if (rc)
			return rc;
	} else {
		s_push(w, c, p->seq++, body, len);
	}
	for (i = 0; i < p->n; i++) {
		rc = __atomic_load_n(&p->w[i].err, __ATOMIC_ACQUIRE);
		if (rc) {
			*bad = p->w[i].err_conn;
			return rc;
		}
	}
	return 0;
}

static void s_worker_stop(struct s_worker *w)
{
	if (w->started) {
		pthread_mutex_lock(&w->mu);
		w->stop = true;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->th, NULL);
	}
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->room);
	free(w->ring);
}

void bc_agg_pool_destroy(struct bc_agg *g)
{
	struct bc_aggpool *p = g->pool;
	int i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		if (p->w[i].started)
			s_wait_head(&p->w[i], p->w[i].produced);
	if (p->ready)
		s_lanes_merge(g, p->lanes, p->n, p->slot_k);
	for (i = 0; i < p->n; i++)
		s_worker_stop(&p->w[i]);
	for (i = 0; i < p->n; i++)
		bc_agg_lane_free(&p->lanes[i]);
	free(p->w);
	free(p->lanes);
	free(p);
	g->pool = NULL;
}

void bc_agg_finish(struct bc_agg *g)
{
	bc_agg_pool_destroy(g);
	bc_agg_windows_final(g);
	bc_agg_window_secs(g);
}

int bc_agg_pool_start(struct bc_agg *g, int threads)
{
	struct bc_aggpool *p;
	int i, s, rc = 0;

	if (threads <= 0)
		return 0;
	if (threads > g->nent[BC_LVL_AGENT])
		threads = g->nent[BC_LVL_AGENT] > 0 ? g->nent[BC_LVL_AGENT] : 1;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->g = g;
	p->n = threads;
	for (s = 0; s < BC_AGG_SLOTS; s++)
		p->slot_k[s] = BC_AGG_SLOT_FREE;
	p->lanes = calloc((size_t)threads, sizeof(*p->lanes));
	p->w = calloc((size_t)threads, sizeof(*p->w));
	g->pool = p;
	if (!p->lanes || !p->w) {
		free(p->lanes);
		free(p->w);
		free(p);
		g->pool = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < threads; i++) {
		struct s_worker *w = &p->w[i];

		w->lane = &p->lanes[i];
		pthread_mutex_init(&w->mu, NULL);
		pthread_cond_init(&w->wake, NULL);
		pthread_cond_init(&w->room, NULL);
	}
	for (i = 0; i < threads && !rc; i++) {
		struct s_worker *w = &p->w[i];

		rc = bc_agg_lane_init(w->lane, g);
		w->ring = malloc(S_RING_BYTES);
		if (!rc && !w->ring)
			rc = -ENOMEM;
		/* resident now, before START, not by page faults in the first second */
		if (w->ring)
			memset(w->ring, 0, S_RING_BYTES);
		if (!rc) {
			rc = -pthread_create(&w->th, NULL, s_worker_main, w);
			w->started = !rc;
		}
		if (w->started && pthread_getcpuclockid(w->th, &w->cpu_clock))
			w->cpu_clock = (clockid_t)-1;
	}
	p->ready = !rc;
	if (rc)
		bc_agg_pool_destroy(g);
	return rc;
}

uint64_t bc_agg_pool_cpu_ns(const struct bc_agg *g)
{
	struct timespec ts;
	uint64_t ns = 0;
	int i;

	for (i = 0; g->pool && i < g->pool->n; i++)
		if (g->pool->w[i].started && !clock_gettime(g->pool->w[i].cpu_clock, &ts))
			ns += (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return ns;
}

int bc_agg_threads_auto(int nagents)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int n;

	if (nagents < S_AUTO_MIN_AGENTS)
		return 0;
	/* one core for the loop (receiving, the event log); at least two workers */
	n = cores > 1 ? (int)cores - 1 : 1;
	if (n > S_AUTO_MAX_THREADS)
		n = S_AUTO_MAX_THREADS;
	return n < 2 ? 2 : n;
}
