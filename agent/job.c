/*
 * job.c - one job thread: a private io_uring ring keeping iodepth I/Os in
 * flight on every target, per-second stats sealed into a ring of slots the
 * control thread drains without locks, and the drain of what is still in
 * flight when the step's time is up. Design and latency definition:
 * docs/engine.md.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "bc_clock.h"
#include "bc_job.h"

/* registered buffer table limit of the kernel (IORING_MAX_REG_BUFFERS) */
#define S_MAX_REG_BUFFERS 16384
/* buffers are page aligned: O_DIRECT needs lbs alignment, 4096 covers 4Kn */
#define S_BUF_ALIGN 4096
/* consecutive failed io_uring_enter calls without progress before giving up */
#define S_MAX_HARD_ERRORS 100
/* cache line, to keep the job's and the control thread's counters apart */
#define S_CACHELINE 64

/* one in-flight I/O; its address is the SQE's user_data */
struct s_io {
	uint64_t submit_ns; /* CLOCK_MONOTONIC of the submit batch that sent it */
	uint64_t off;	    /* bytes */
	void *buf;
	uint32_t len; /* bytes */
	uint16_t target;
	uint8_t op;	  /* enum bc_op */
	uint8_t nop_full; /* target completes with res 0 meaning len bytes */
	int buf_index;	  /* registered buffer, -1 if none */
};

/* this job's view of one target */
struct s_jtarget {
	const struct bc_target *t;
	int file_index;	    /* registered file index in this ring, -1 if none */
	uint64_t nblocks;   /* whole bs blocks in the window (random offsets) */
	uint64_t seq_start; /* this job's sequential region, bytes */
	uint64_t seq_end;
	uint64_t seq_next;
};

/* one second (or several folded together) of stats for every target */
struct s_stat_slot {
	uint32_t first; /* intervals [first, last] are in this slot */
	uint32_t last;
	bool merged;	       /* last > first: the ring was full */
	struct bc_volstat *vs; /* [ntargets] */
};

struct bc_job {
	/* set up by bc_job_new, read-only afterwards */
	struct io_uring ring;
	bool ring_ok;
	struct bc_workload wl;
	int ntargets;
	unsigned job_index;
	bool random, mixed;
	enum bc_op op; /* when !mixed */
	struct s_jtarget *tg;
	struct s_io *ios;
	struct s_io **batch; /* I/Os prepared since the last submit */
	unsigned nios;
	void *bufs;
	struct bc_job_info info;
	struct s_stat_slot slots[BC_JOB_SLOTS];
	struct bc_volstat *drain; /* [ntargets] */
	struct bc_volstat *stat_mem;
	pthread_t thread;
	bool started;
	uint64_t start_ns;
	uint32_t seconds;

	/* job thread only */
	uint64_t rng[4];
	uint64_t write_seq;
	struct bc_volstat *cur; /* where completions are counted now */
	uint32_t k;		/* interval being recorded */
	uint32_t w_sealed;	/* job's copy of sealed */

	/* control thread only */
	uint32_t c_released; /* control's copy of released */
	uint32_t c_next;     /* first interval not handed out yet */
	uint32_t c_first;    /* first interval of the slot collected last */
	bool drain_taken;

	/* shared; each counter has one writer */
	_Alignas(S_CACHELINE) atomic_uint sealed;   /* slots sealed (job thread) */
	_Alignas(S_CACHELINE) atomic_uint released; /* slots released (control thread) */
	_Alignas(S_CACHELINE) atomic_bool cancel;
	atomic_bool finished;
	atomic_int err;
};

/* xoshiro256** (Blackman & Vigna, public domain): fast, 256-bit state */
static inline uint64_t s_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t s_rand(uint64_t *s)
{
	uint64_t r = s_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = s_rotl(s[3], 45);
	return r;
}

/* splitmix64: the seeding generator xoshiro's authors recommend */
static uint64_t s_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Uniform in [0, n) by multiply-high (Lemire): no division, and a bias of
 * at most n / 2^64, far below anything a benchmark can see.
 */
static inline uint64_t s_below(uint64_t *rng, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)s_rand(rng) * n) >> 64);
}

static void s_stamp(struct bc_job *j, struct s_io *io)
{
	uint64_t w[2] = {0, j->write_seq++};
	uint32_t at;

	for (at = 0; at + sizeof(w) <= io->len; at += BC_JOB_STAMP_BYTES) {
		w[0] = io->off + at;
		memcpy((char *)io->buf + at, w, sizeof(w));
	}
}

/* pick op and offset for io and put it in an SQE (submitted by the next enter) */
static void s_queue(struct bc_job *j, struct s_io *io)
{
	struct s_jtarget *jt = &j->tg[io->target];
	struct io_uring_sqe *sqe;
	struct bc_io_desc d;

	io->op = j->op;
	if (j->mixed && ((s_rand(j->rng) >> 32) * 100 >> 32) >= j->wl.rwmixread)
		io->op = BC_OP_WRITE;
	if (j->random) {
		io->off = jt->t->win_start + s_below(j->rng, jt->nblocks) * io->len;
	} else {
		io->off = jt->seq_next;
		jt->seq_next += io->len;
		if (jt->seq_next + io->len > jt->seq_end)
			jt->seq_next = jt->seq_start;
	}
	if (io->op == BC_OP_WRITE)
		s_stamp(j, io);
	/* never NULL: the SQ has an entry for every I/O and each has one SQE at most */
	sqe = io_uring_get_sqe(&j->ring);
	d = (struct bc_io_desc){
	    .op = (enum bc_op)io->op,
	    .len = io->len,
	    .off = io->off,
	    .buf = io->buf,
	    .buf_index = io->buf_index,
	    .file_index = jt->file_index,
	};
	jt->t->ops->prep(jt->t, sqe, &d);
	io_uring_sqe_set_data(sqe, io);
}

/* interval k is over: publish its slot and move on, or fold if none is free */
static void s_next_interval(struct bc_job *j)
{
	struct s_stat_slot *s = &j->slots[j->w_sealed % BC_JOB_SLOTS];
	unsigned released = atomic_load_explicit(&j->released, memory_order_acquire);

	if (j->w_sealed + 1 - released >= BC_JOB_SLOTS) {
		s->merged = true;
		j->k++;
		return;
	}
	s->last = j->k;
	atomic_store_explicit(&j->sealed, ++j->w_sealed, memory_order_release);
	j->k++;
	s = &j->slots[j->w_sealed % BC_JOB_SLOTS];
	s->first = j->k;
	s->merged = false;
	j->cur = s->vs;
}

/* the last second (or the one a cancel cut short): seal it, count the rest as drain */
static void s_seal_last(struct bc_job *j)
{
	struct s_stat_slot *s = &j->slots[j->w_sealed % BC_JOB_SLOTS];

	s->last = j->k;
	atomic_store_explicit(&j->sealed, ++j->w_sealed, memory_order_release);
	j->cur = j->drain;
}

static inline struct __kernel_timespec s_ts(uint64_t ns)
{
	return (struct __kernel_timespec){.tv_sec = (long long)(ns / BC_NS_PER_S),
					  .tv_nsec = (long long)(ns % BC_NS_PER_S)};
}

/* sleep until the start time, waking every 100 ms to notice a cancel */
static bool s_wait_start(struct bc_job *j)
{
	struct timespec ts;
	uint64_t now, until;

	for (;;) {
		if (atomic_load_explicit(&j->cancel, memory_order_relaxed))
			return false;
		now = bc_mono_ns();
		if (now >= j->start_ns)
			return true;
		until = j->start_ns;
		if (until - now > 100 * BC_NS_PER_MS)
			until = now + 100 * BC_NS_PER_MS;
		ts.tv_sec = (time_t)(until / BC_NS_PER_S);
		ts.tv_nsec = (long)(until % BC_NS_PER_S);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static bool s_enter_ok(int ret)
{
	return ret >= 0 || ret == -ETIME || ret == -EINTR || ret == -EAGAIN || ret == -EBUSY;
}

/*
 * The I/O loop. Each iteration: one io_uring_enter that submits what was
 * prepared and waits for a completion, but never past the next second
 * boundary; one clock read for the completion batch (it closes seconds and
 * times every CQE in the batch); one clock read for the submit batch of the
 * I/Os re-queued from those CQEs.
 */
static void s_run(struct bc_job *j)
{
	uint64_t now, tsub, boundary, end, wait_ns;
	unsigned inflight, nbatch, seen, head, i;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	bool draining = false;
	int ret, hard = 0;

	boundary = j->start_ns + BC_NS_PER_S;
	end = j->start_ns + (uint64_t)j->seconds * BC_NS_PER_S;
	tsub = bc_mono_ns();
	/* the real start, for the coordinator's start-skew evidence */
	j->info.first_submit_ns = tsub;
	for (i = 0; i < j->nios; i++) {
		s_queue(j, &j->ios[i]);
		j->ios[i].submit_ns = tsub;
	}
	inflight = j->nios;
	while (inflight) {
		if (!draining && atomic_load_explicit(&j->cancel, memory_order_relaxed)) {
			s_seal_last(j);
			draining = true;
		}
		/* draining has no boundary; 1 s keeps the wait bounded all the same */
		wait_ns = draining ? BC_NS_PER_S : boundary > tsub ? boundary - tsub : 0;
		ts = s_ts(wait_ns);
		ret = io_uring_submit_and_wait_timeout(&j->ring, &cqe, 1, &ts, NULL);
		now = bc_mono_ns();
		if (!s_enter_ok(ret)) {
			int zero = 0;

			atomic_compare_exchange_strong(&j->err, &zero, ret);
			if (!draining) {
				s_seal_last(j);
				draining = true;
			}
		}
		while (!draining && now >= boundary) {
			if (boundary >= end) {
				s_seal_last(j);
				draining = true;
				break;
			}
			s_next_interval(j);
			boundary += BC_NS_PER_S;
		}
		nbatch = 0;
		seen = 0;
		io_uring_for_each_cqe(&j->ring, head, cqe)
		{
			struct s_io *io = io_uring_cqe_get_data(cqe);
			int64_t res = cqe->res;

			if (res == 0 && io->nop_full)
				res = io->len;
			bc_opstat_complete(&j->cur[io->target].op[io->op], res, io->len,
					   now - io->submit_ns);
			seen++;
			if (draining) {
				inflight--;
				continue;
			}
			s_queue(j, io);
			j->batch[nbatch++] = io;
		}
		io_uring_cq_advance(&j->ring, seen);
		/* a ring that keeps failing with nothing completing would spin forever */
		hard = s_enter_ok(ret) || seen ? 0 : hard + 1;
		if (hard >= S_MAX_HARD_ERRORS)
			break;
		tsub = now;
		if (nbatch) {
			tsub = bc_mono_ns();
			for (i = 0; i < nbatch; i++)
				j->batch[i]->submit_ns = tsub;
		}
	}
}

static void *s_thread(void *arg)
{
	struct bc_job *j = arg;
	char name[16];

	snprintf(name, sizeof(name), "bc-job-%u", j->job_index);
	pthread_setname_np(pthread_self(), name);
	if (j->seconds && s_wait_start(j))
		s_run(j);
	atomic_store_explicit(&j->finished, true, memory_order_release);
	return NULL;
}

static int s_ring_init(struct bc_job *j, unsigned entries, char *err, size_t errlen)
{
	/*
	 * SUBMIT_ALL: an SQE that fails at submit time must not hold back the
	 * rest of the batch (its error still arrives as a CQE). COOP_TASKRUN:
	 * completions are run when we enter anyway, no IPI needed. Both are
	 * optional (5.18/5.19): retry without them on older kernels.
	 */
	struct io_uring_params p = {
	    .flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN,
	};
	int ret;

	ret = io_uring_queue_init_params(entries, &j->ring, &p);
	if (ret == -EINVAL) {
		memset(&p, 0, sizeof(p));
		ret = io_uring_queue_init_params(entries, &j->ring, &p);
	}
	if (ret) {
		snprintf(err, errlen, "job %u: cannot create an io_uring of %u entries: %s",
			 j->job_index, entries, strerror(-ret));
		return ret;
	}
	j->ring_ok = true;
	/*
	 * Without EXT_ARG (5.11) liburing emulates the wait timeout with a
	 * timeout SQE whose CQE would reach the completion loop as an I/O.
	 */
	if (!(p.features & IORING_FEAT_EXT_ARG)) {
		snprintf(err, errlen, "job %u: io_uring lacks IORING_FEAT_EXT_ARG (Linux >= 5.11)",
			 j->job_index);
		return -ENOTSUP;
	}
	j->info.ring_entries = entries;
	return 0;
}

/* per-target offsets: whole window for random, region job_index of numjobs for sequential */
static int s_targets_init(struct bc_job *j, const struct bc_job_cfg *cfg, char *err, size_t errlen)
{
	uint64_t bs = j->wl.bs;
	int i;

	j->tg = calloc((size_t)cfg->ntargets, sizeof(*j->tg));
	if (!j->tg) {
		snprintf(err, errlen, "job %u: out of memory", j->job_index);
		return -ENOMEM;
	}
	for (i = 0; i < cfg->ntargets; i++) {
		struct s_jtarget *jt = &j->tg[i];
		const struct bc_target *t = &cfg->targets[i];
		uint64_t lo, hi;

		if (!t->ops) {
			snprintf(err, errlen, "job %u: target %d is not open", j->job_index, i);
			return -EBADF;
		}
		jt->t = t;
		jt->file_index = -1;
		jt->nblocks = (t->win_end - t->win_start) / bs;
		lo = (uint64_t)((unsigned __int128)jt->nblocks * cfg->job_index / cfg->numjobs);
		hi = (uint64_t)((unsigned __int128)jt->nblocks * (cfg->job_index + 1) /
				cfg->numjobs);
		if (!jt->nblocks || (!j->random && hi == lo)) {
			snprintf(err, errlen,
				 "%s: the I/O window holds %llu blocks of %llu bytes, too few "
				 "for %u sequential jobs",
				 t->path, (unsigned long long)jt->nblocks, (unsigned long long)bs,
				 cfg->numjobs);
			return -EINVAL;
		}
		jt->seq_start = t->win_start + lo * bs;
		jt->seq_end = t->win_start + hi * bs;
		jt->seq_next = jt->seq_start;
	}
	return 0;
}

/* one buffer per I/O in a single page-aligned block, random data, registered if possible */
static int s_buffers_init(struct bc_job *j, char *err, size_t errlen)
{
	size_t stride = ((size_t)j->wl.bs + S_BUF_ALIGN - 1) / S_BUF_ALIGN * S_BUF_ALIGN;
	size_t total = stride * j->nios, w;
	struct iovec *iov = NULL;
	uint64_t *p;
	unsigned i;
	int ret = 0;

	if (j->nios && total / j->nios != stride) {
		snprintf(err, errlen, "job %u: %u buffers of %u bytes overflow", j->job_index,
			 j->nios, j->wl.bs);
		return -EOVERFLOW;
	}
	ret = -posix_memalign(&j->bufs, S_BUF_ALIGN, total);
	if (ret) {
		j->bufs = NULL;
		snprintf(err, errlen, "job %u: cannot allocate %zu bytes of I/O buffers: %s",
			 j->job_index, total, strerror(-ret));
		return ret;
	}
	/* random, so neither compression nor zero detection flatters writes */
	p = j->bufs;
	for (w = 0; w < total / sizeof(*p); w++)
		p[w] = s_rand(j->rng) | 1;

	j->info.fixed_buffers_errno = -EOVERFLOW;
	if (j->nios <= S_MAX_REG_BUFFERS) {
		iov = calloc(j->nios, sizeof(*iov));
		if (!iov) {
			snprintf(err, errlen, "job %u: out of memory", j->job_index);
			return -ENOMEM;
		}
		for (i = 0; i < j->nios; i++) {
			iov[i].iov_base = (char *)j->bufs + i * stride;
			iov[i].iov_len = j->wl.bs;
		}
		/*
		 * Registration pins the pages and counts against RLIMIT_MEMLOCK
		 * for unprivileged users; when it fails the job still runs
		 * with plain READ/WRITE and bc_job_get_info says so.
		 */
		j->info.fixed_buffers_errno = io_uring_register_buffers(&j->ring, iov, j->nios);
		free(iov);
	}
	j->info.fixed_buffers = !j->info.fixed_buffers_errno;
	for (i = 0; i < j->nios; i++) {
		j->ios[i].buf = (char *)j->bufs + i * stride;
		j->ios[i].buf_index = j->info.fixed_buffers ? (int)i : -1;
	}
	return 0;
}

/*
 * Register every target's fd (the null target has none: -1 is a sparse
 * entry). Optional: without it the SQEs carry the plain fd.
 */
static void s_files_init(struct bc_job *j)
{
	int *fds, i, any = 0;

	fds = calloc((size_t)j->ntargets, sizeof(*fds));
	if (!fds)
		return;
	for (i = 0; i < j->ntargets; i++) {
		fds[i] = j->tg[i].t->fd;
		any |= fds[i] >= 0;
	}
	if (any && !io_uring_register_files(&j->ring, fds, (unsigned)j->ntargets)) {
		j->info.fixed_files = true;
		for (i = 0; i < j->ntargets; i++)
			j->tg[i].file_index = fds[i] >= 0 ? i : -1;
	}
	free(fds);
}

static int s_stats_init(struct bc_job *j, char *err, size_t errlen)
{
	size_t n = (size_t)(BC_JOB_SLOTS + 1) * (size_t)j->ntargets, i;
	int ret;

	ret = -posix_memalign((void **)&j->stat_mem, S_CACHELINE, n * sizeof(*j->stat_mem));
	if (ret) {
		j->stat_mem = NULL;
		snprintf(err, errlen, "job %u: cannot allocate stats: %s", j->job_index,
			 strerror(-ret));
		return ret;
	}
	/* memset, not calloc: fault every page in now, not on the completion path */
	memset(j->stat_mem, 0, n * sizeof(*j->stat_mem));
	for (i = 0; i < n; i++)
		bc_volstat_reset(&j->stat_mem[i]);
	for (i = 0; i < BC_JOB_SLOTS; i++)
		j->slots[i].vs = j->stat_mem + i * (size_t)j->ntargets;
	j->drain = j->stat_mem + (size_t)BC_JOB_SLOTS * (size_t)j->ntargets;
	j->cur = j->slots[0].vs;
	return 0;
}

struct bc_job *bc_job_new(const struct bc_job_cfg *cfg, char *err, size_t errlen)
{
	const struct bc_workload *wl = cfg->wl;
	struct bc_job *j = NULL;
	uint64_t nios, entries, seed;
	unsigned i;
	int ret;

	if (!wl || !cfg->targets || cfg->ntargets < 1 || cfg->ntargets > UINT16_MAX ||
	    !cfg->numjobs || cfg->job_index >= cfg->numjobs || !wl->bs || !wl->iodepth) {
		snprintf(err, errlen, "job %u: invalid job configuration", cfg->job_index);
		return NULL;
	}
	nios = (uint64_t)wl->iodepth * (uint64_t)cfg->ntargets;
	for (entries = 1; entries < nios; entries <<= 1)
		;
	if (entries > BC_JOB_MAX_ENTRIES) {
		snprintf(err, errlen,
			 "iodepth %u x %d volumes = %llu I/Os in flight per job; one io_uring "
			 "holds at most %u (lower iodepth or split volumes over more agents)",
			 wl->iodepth, cfg->ntargets, (unsigned long long)nios, BC_JOB_MAX_ENTRIES);
		return NULL;
	}
	if (posix_memalign((void **)&j, S_CACHELINE, sizeof(*j))) {
		snprintf(err, errlen, "job %u: out of memory", cfg->job_index);
		return NULL;
	}
	memset(j, 0, sizeof(*j));
	j->wl = *wl;
	j->ntargets = cfg->ntargets;
	j->job_index = cfg->job_index;
	j->nios = (unsigned)nios;
	j->info.ios = j->nios;
	j->random = wl->rw == BC_RW_RANDREAD || wl->rw == BC_RW_RANDWRITE || wl->rw == BC_RW_RANDRW;
	j->mixed = wl->rw == BC_RW_RW || wl->rw == BC_RW_RANDRW;
	/* mixed workloads start from READ and turn (100 - rwmixread)% into writes */
	j->op = wl->rw == BC_RW_WRITE || wl->rw == BC_RW_RANDWRITE ? BC_OP_WRITE : BC_OP_READ;
	seed = cfg->seed + cfg->job_index;
	for (i = 0; i < 4; i++)
		j->rng[i] = s_splitmix64(&seed);
	atomic_init(&j->sealed, 0);
	atomic_init(&j->released, 0);
	atomic_init(&j->cancel, false);
	atomic_init(&j->finished, false);
	atomic_init(&j->err, 0);

	ret = s_ring_init(j, (unsigned)entries, err, errlen);
	if (ret)
		goto fail;
	ret = s_targets_init(j, cfg, err, errlen);
	if (ret)
		goto fail;
	j->ios = calloc(j->nios, sizeof(*j->ios));
	j->batch = calloc(j->nios, sizeof(*j->batch));
	if (!j->ios || !j->batch) {
		snprintf(err, errlen, "job %u: out of memory", j->job_index);
		goto fail;
	}
	for (i = 0; i < j->nios; i++) {
		j->ios[i].target = (uint16_t)(i / wl->iodepth);
		j->ios[i].len = wl->bs;
		j->ios[i].nop_full = j->tg[j->ios[i].target].t->ops->nop_full;
	}
	ret = s_buffers_init(j, err, errlen);
	if (ret)
		goto fail;
	s_files_init(j);
	ret = s_stats_init(j, err, errlen);
	if (ret)
		goto fail;
	return j;
fail:
	bc_job_destroy(&j);
	return NULL;
}

int bc_job_start(struct bc_job *j, uint64_t start_mono_ns, uint32_t seconds)
{
	int ret;

	if (j->started)
		return -EBUSY;
	j->start_ns = start_mono_ns;
	j->seconds = seconds;
	ret = pthread_create(&j->thread, NULL, s_thread, j);
	if (ret)
		return -ret;
	j->started = true;
	return 0;
}

int bc_job_collect(struct bc_job *j, uint32_t k, struct bc_volstat *acc, bool *merged)
{
	struct s_stat_slot *s;
	unsigned sealed;
	bool fin;
	int i;

	*merged = false;
	if (k == BC_STATS_DRAIN) {
		if (!atomic_load_explicit(&j->finished, memory_order_acquire))
			return 0;
		if (!j->drain_taken) {
			for (i = 0; i < j->ntargets; i++)
				bc_volstat_merge(&acc[i], &j->drain[i]);
			j->drain_taken = true;
		}
		return 1;
	}
	if (k < j->c_next) {
		/* folded into the slot collected last (or collected already) */
		*merged = k > j->c_first;
		return 1;
	}
	/* finished first: its release follows the last seal, so sealed is final then */
	fin = atomic_load_explicit(&j->finished, memory_order_acquire);
	sealed = atomic_load_explicit(&j->sealed, memory_order_acquire);
	if (sealed == j->c_released)
		return fin ? 1 : 0;
	s = &j->slots[j->c_released % BC_JOB_SLOTS];
	if (k != s->first)
		return -EINVAL;
	for (i = 0; i < j->ntargets; i++) {
		bc_volstat_merge(&acc[i], &s->vs[i]);
		bc_volstat_reset(&s->vs[i]);
	}
	*merged = s->merged;
	j->c_first = s->first;
	j->c_next = s->last + 1;
	atomic_store_explicit(&j->released, ++j->c_released, memory_order_release);
	return 1;
}

bool bc_job_finished(struct bc_job *j)
{
	return atomic_load_explicit(&j->finished, memory_order_acquire);
}

void bc_job_cancel(struct bc_job *j)
{
	atomic_store_explicit(&j->cancel, true, memory_order_relaxed);
}

void bc_job_get_info(const struct bc_job *j, struct bc_job_info *info)
{
	*info = j->info;
}

int bc_job_error(struct bc_job *j)
{
	return atomic_load_explicit(&j->err, memory_order_relaxed);
}

void bc_job_destroy(struct bc_job **jp)
{
	struct bc_job *j = *jp;

	if (!j)
		return;
	if (j->started) {
		bc_job_cancel(j);
		pthread_join(j->thread, NULL);
	}
	/* also unregisters buffers and files */
	if (j->ring_ok)
		io_uring_queue_exit(&j->ring);
	free(j->stat_mem);
	free(j->bufs);
	free(j->batch);
	free(j->ios);
	free(j->tg);
	free(j);
	*jp = NULL;
}
