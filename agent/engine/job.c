/*
 * engine/job.c - one job thread: a private io_uring ring keeping iodepth I/Os in
 * flight on every target (or fewer, where thinktime and rate limits park
 * slots), the workload's choice of op, size and offset per I/O, per-second
 * stats sealed into a ring of slots the control thread drains without locks,
 * and the drain of what is still in flight when the step's time (or its one
 * pass) is over. The thread sets up and tears down its own ring, so it can
 * be a single issuer and its memory is local to the CPUs it runs on.
 * Design and latency definition: docs/engine.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "engine/affinity.h"
#include "engine/datagen.h"
#include "engine/dist.h"
#include "engine/job.h"
#include "engine/kvgen.h"
#include "engine/meta.h"
#include "engine/rand.h"
#include "engine/rate.h"
#include "engine/seqmix.h"
#include "engine/sqeflags.h"
#include "engine/streamgen.h"
#include "profile/workload/kv.h"
#include "util/clock.h"

/* registered buffer table limit of the kernel (IORING_MAX_REG_BUFFERS) */
#define S_MAX_REG_BUFFERS 16384
/* buffers are at least page aligned: O_DIRECT needs lbs alignment, 4096 covers 4Kn */
#define S_BUF_ALIGN 4096
/* consecutive failed io_uring_enter calls without progress before giving up */
#define S_MAX_HARD_ERRORS 100
/* default content: distinct bytes the slots of a target cycle their writes through */
#define S_ROT_BYTES (1u << 20)
#define S_ROT_MAX   256u
/* cache line, to keep the job's and the control thread's counters apart */
#define S_CACHELINE 64

/* what a target's I/Os need beyond a fixed op, size and uniform offset */
#define S_TF_MIX     0x01u /* op drawn per I/O */
#define S_TF_SPLIT   0x02u /* size drawn per I/O */
#define S_TF_RANDOM  0x04u
#define S_TF_DIST    0x08u /* non-uniform offsets */
#define S_TF_PERM    0x10u /* one random pass: walk a permutation of the blocks */
#define S_TF_SIZED   0x20u /* stop after `remaining` bytes */
#define S_TF_GATED   0x40u /* thinktime or rate limit: completions park */
#define S_TF_VERIFY  0x80u
#define S_TF_SEQMIX  0x100u   /* random kinds: some I/Os continue where the last one ended */
#define S_TF_DATA    0x200u   /* reducible content (engine/datagen.h) */
#define S_TF_KV	     0x400u   /* a KV-cache store: engine/kvgen.h picks every I/O */
#define S_TF_BSRANGE 0x800u   /* size drawn from [bs_min, bs] as fio's bsrange */
#define S_TF_ZONED   0x1000u  /* strided zones: the window moves after zone_size bytes */
#define S_TF_FLOW    0x2000u  /* a flow weight: issues kept in proportion (gated) */
#define S_TF_LOW     0x4000u  /* iodepth_low: a full queue drains to it before refilling */
#define S_TF_SYNC    0x8000u  /* an fsync or fdatasync after every N writes */
#define S_TF_VBACK   0x10000u /* verify_backlog: every N writes are read back and checked */
#define S_TF_FILES   0x20000u /* a file set: a file at a time, offsets within it */
#define S_TF_META    0x40000u /* a file set's metadata operations (engine/meta.h) */
/* slow path on completion: anything but "pick and resubmit" */
#define S_TF_SLOW                                                                                  \
	(S_TF_SIZED | S_TF_GATED | S_TF_VERIFY | S_TF_KV | S_TF_ZONED | S_TF_SYNC | S_TF_VBACK |   \
	 S_TF_META)

/* a completed write of a verify backlog: where it went */
struct s_extent {
	uint64_t off;
	uint32_t len;
};

/* one in-flight I/O; its address is the SQE's user_data */
struct s_io {
	uint64_t submit_ns; /* CLOCK_MONOTONIC of the submit batch that sent it */
	uint64_t off;	    /* bytes */
	void *buf;
	uint32_t len; /* bytes */
	uint16_t target;
	uint8_t op;	    /* enum bc_op, or enum bc_io_extra (a sync) */
	uint8_t nop_full;   /* target completes with res 0 meaning len bytes */
	uint8_t tmo_full;   /* pure timeout: -ETIME means len bytes (ops.timeout_full) */
	uint8_t read_in;    /* S_TF_DATA: a read overwrote the buffer's content */
	uint8_t kv_kind;    /* KV store: enum bc_kv_kind of this I/O */
	uint16_t kv_ticket; /* KV store: its record's ticket */
	int32_t buf_index;  /* registered buffer, -1 if none */
	uint32_t rot;	    /* content rotation: the slot's writes cycle through nrot buffers */
	void *buf0;	    /* the slot's first buffer (rotation: buf0 + k x buf_bytes) */
	int32_t placement;  /* writes: bc_io_desc.placement (a stream's, or the workload's) */
	uint64_t ready_ns;  /* parked: not before this (thinktime) */
	/* "latency_from": "intended": the arrival's scheduled time, latency counts from it */
	uint64_t intended_ns;
	/* BC_OP_META: the operation was done at issue (engine/meta.h): its result, latency */
	int32_t meta_res;
	uint64_t meta_lat_ns;
};

/* this job's view of one target: everything an I/O on it needs */
struct s_jtarget {
	const struct bc_target *t;
	void (*prep)(const struct bc_target *t, struct io_uring_sqe *sqe,
		     const struct bc_io_desc *io);
	uint32_t flags;			  /* S_TF_* */
	int file_index;			  /* registered file index in this ring, -1 if none */
	uint8_t op;			  /* when not S_TF_MIX */
	uint64_t read_below, write_below; /* S_TF_MIX on a 32-bit draw: read, write, else trim */
	uint32_t bs;			  /* bytes, when not S_TF_SPLIT; else the largest */
	uint32_t nsplit;
	uint32_t split_below[BC_BSSPLIT_MAX]; /* cumulative thresholds on a 32-bit draw */
	uint32_t split_bs[BC_BSSPLIT_MAX];
	uint64_t win_start, win_end;
	struct bc_seqmix sm;  /* S_TF_SEQMIX: its draw and where the last I/O ended */
	unsigned jidx, njobs; /* this job among the ones driving the volume ("jobs") */
	uint64_t align;	      /* random offsets: win_start + unit * align */
	uint64_t nunits;      /* random offsets: units that leave room for the largest I/O */
	uint64_t seq_start, seq_end, seq_next; /* sequential: this job's region */
	uint64_t seq_gap;		       /* sequential: bytes skipped after each I/O */
	uint32_t run_len, run_i; /* S_TF_SEQMIX by count: a new random offset every run_len */
	uint32_t bs_min;	 /* S_TF_BSRANGE: the smallest size; bs the largest */
	bool bs_pow2;		 /* bs_min is a power of two: sizes are its multiples by masking */
	/* S_TF_ZONED: zone start, step to the next, range, bytes per zone, done in it, first */
	uint64_t zone_base, zone_step, zone_range, zone_size, zone_bytes, zone_first;
	/* S_TF_FLOW: weight and I/Os issued (the job's totals are in struct bc_job) */
	uint32_t flow_w;
	uint64_t flow_n;
	bool flow_done; /* out of the proportion (a size-based pass that ended) */
	/* S_TF_LOW: low-water mark, I/Os in flight, and whether the queue is draining to it */
	uint32_t low, low_inflight;
	bool low_draining;
	/* sync: writes' RWF flags; S_TF_SYNC: every sync_every writes a sync_op */
	int wflags;
	/* ioprio, cmdprio, nowait, force_async on the SQEs (engine/sqeflags.h); sqe_x: any */
	struct bc_sqe_extra sx;
	bool sqe_x;
	uint32_t sync_every, writes_since;
	uint8_t sync_op;
	bool end_sync;
	struct bc_opcnt syncs; /* fsyncs and fdatasyncs: count, errors, latency */
	/*
	 * S_TF_META: the entries this job acts on, [m_first, m_first + m_step
	 * x m_count) of the tree's files (or directories), the scan's place
	 * among them, whether none is left in the state the kind needs, the
	 * entries passed over (rmdir of a directory not empty, mkdir under one
	 * not there), and the operations' counts
	 */
	uint32_t m_first, m_step, m_count, m_cur;
	bool m_done, m_out; /* m_out: done because nothing was left (not because m_left ran out) */
	/* size_based: operations still to do (the share times "passes"), 0: unbounded */
	uint64_t m_left;
	uint64_t m_passed;
	uint32_t m_passed_row;
	struct bc_opcnt meta;
	/* S_TF_VBACK: completed writes in a ring, read back and checked every backlog of them */
	uint32_t backlog, vb_cap, vb_head, vb_n, vb_winflight;
	bool vb_pending, vb_reading;
	struct s_extent *vb;
	/* content rotation: buffers per slot, writes over [rot_base, rot_base + rot_mask] */
	uint32_t nrot, rot_mask, rot_base;
	uint64_t remaining; /* S_TF_SIZED: bytes still to issue */
	/*
	 * S_TF_FILES: this job's files are first, first + step, ... (count of
	 * them); the current one, where a sequential walk is in it, and the
	 * bytes still to do in it before the next is picked
	 */
	const struct bc_target_files *files;
	uint32_t f_first, f_step, f_count, f_cur, f_next;
	/* this job's place among all the jobs of the set's workloads that own files */
	uint32_t f_before, f_total;
	uint64_t f_pos, f_left;
	uint32_t f_k; /* the current file among this job's (0..f_count) */
	/* "fileselect": "poisson": the mean of the exponential draw, f_count / midpoint */
	double f_pmean;
	/* "file_stopafter": [f_count] where each file's next sequential visit starts */
	uint64_t *f_resume;
	uint64_t perm_lo, perm_n, perm_next; /* S_TF_PERM: indexes walked */
	struct bc_perm perm;
	struct bc_dist dist;
	/* S_TF_GATED */
	uint64_t think_ns;
	uint64_t delay_ns; /* "start_delay" */
	struct bc_rate rate;
	struct bc_rate rate_dir[2]; /* per direction: reads, writes */
	bool dir_rated, poisson, intended;
	struct bc_datagen dg; /* S_TF_DATA or compressible: the content pool */
	struct s_io **park;   /* FIFO ring of parked slots, park_cap = this target's slots */
	uint32_t park_head, park_n, park_cap;
	/* slots of this target; with their buffers, [slot0, slot0 + nslots) */
	uint32_t slot0, nslots;
	uint32_t buf_bytes; /* per slot */
	bool used_op[BC_OP_NR];
	/* S_TF_VERIFY: the first mismatches, read by the control thread once finished */
	uint32_t nbad;
	struct bc_job_bad bad[BC_JOB_VERIFY_REPORT];
	/* "streams": the stream tables (NULL without streams), else the workload's placement */
	struct bc_sgens *sg;
	struct bc_kvgen *kv; /* a KV-cache store (S_TF_KV), else NULL */
	struct bc_splace place;
	/* set up by bc_job_new; the workload of this volume */
	struct bc_workload wl;
};

/* one second (or several folded together) of stats for every target */
struct s_stat_slot {
	uint32_t first; /* intervals [first, last] are in this slot */
	uint32_t last;
	bool merged;	       /* last > first: the ring was full */
	struct bc_volstat *vs; /* [ntargets] */
};

struct bc_job {
	/* set up by bc_job_new and the thread's setup, read-only afterwards */
	struct io_uring ring;
	bool ring_ok;
	struct bc_workload wl; /* the step's: job-level keys */
	int ntargets;
	unsigned job_index, numjobs;
	struct s_jtarget *tg;
	int *run_vol; /* [ntargets] the volume each target counts for (bc_job_cfg), or NULL */
	struct s_io *ios;
	struct s_io **batch; /* I/Os prepared since the last clock read */
	unsigned nios;
	size_t buf_align;
	void *bufs;
	size_t bufs_bytes;
	struct bc_job_info info;
	struct s_stat_slot slots[BC_JOB_SLOTS];
	struct bc_volstat *drain; /* [ntargets] */
	struct bc_volstat *stat_mem;
	size_t stat_bytes;
	cpu_set_t cpus;
	bool pinned;
	bool gated; /* some target parks slots */
	/*
	 * s_issue submits as soon as this many I/Os are prepared (2: pairs, which
	 * are not plugged; 1: each alone); 0: the next enter sends the batch
	 */
	unsigned submit_every;
	/* flow: the weights and issues of the targets with a flow, over this job thread */
	uint64_t flow_w_total, flow_n_total;
	pthread_t thread;
	bool thread_ok;
	uint64_t start_ns;
	uint32_t seconds;
	uint64_t second_ns; /* an interval in this host's CLOCK_MONOTONIC (bc_job_set_second) */

	/* setup handshake and start (control thread <-> job thread, not the I/O path) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int setup_state; /* 0: running, 1: done, < 0: -errno */
	char setup_err[512];
	bool go, quit, started;

	/* job thread only */
	struct bc_rand rng;
	uint64_t clock_ns; /* the loop's last clock read (fio's scramble stamps a time) */
	uint64_t write_seq;
	struct bc_volstat *cur; /* where completions are counted now */
	uint32_t k;		/* interval being recorded */
	uint32_t w_sealed;	/* job's copy of sealed */
	unsigned inflight;	/* in the SQ or the kernel */
	unsigned unsubmitted;	/* prepared since the last submitting enter */
	unsigned parked;	/* waiting for thinktime or a rate token */
	unsigned nbatch;

	/* control thread only */
	uint32_t c_released; /* control's copy of released */
	uint32_t c_next;     /* first interval not handed out yet */
	uint32_t c_first;    /* first interval of the slot collected last */
	bool drain_taken;

	/* shared; each counter has one writer */
	_Alignas(S_CACHELINE) atomic_uint sealed;   /* slots sealed (job thread) */
	_Alignas(S_CACHELINE) atomic_uint released; /* slots released (control thread) */
	_Alignas(S_CACHELINE) atomic_bool cancel;
	atomic_uint stop_k; /* bc_job_stop_at's second, UINT32_MAX: none (control thread) */
	atomic_bool finished;
	atomic_int err;
};

static inline uint32_t s_rand32(struct bc_job *j)
{
	return (uint32_t)(bc_rand_next(&j->rng) >> 32);
}

/* the write stamp of engine/job.h, or the full verify header */
static void s_stamp(struct bc_job *j, struct s_jtarget *jt, struct s_io *io)
{
	uint64_t w[2] = {0, j->write_seq++};
	uint32_t at;

	if (jt->flags & S_TF_VERIFY) {
		bc_verify_fill(io->buf, io->len, io->off, w[1], j->job_index);
		return;
	}
	if (jt->flags & S_TF_DATA) {
		/* a read left the device's data in the buffer: the pool's content again */
		if (io->read_in) {
			bc_datagen_fill(&jt->dg, io->buf, jt->buf_bytes, j->write_seq);
			io->read_in = 0;
		}
		/* a pattern (or zeros) and nothing else, or with fio's scramble of it */
		if (jt->dg.whole) {
			if (jt->dg.scramble)
				bc_datagen_scramble(io->buf, io->len, io->off, j->clock_ns);
			return;
		}
		if (jt->dg.dup_below) {
			bc_datagen_write(&jt->dg, &j->rng, io->buf, io->len, io->off, w[1]);
			return;
		}
	}
	/*
	 * Default content: the slot's next buffer of its nrot, so that a slot's
	 * writes do not repeat one content into neighbouring blocks, which a
	 * compressor with units larger than the write would fold (docs/engine.md)
	 */
	if (jt->nrot > 1)
		io->buf = (char *)io->buf0 +
			  (size_t)(jt->rot_base + (++io->rot & jt->rot_mask)) * jt->buf_bytes;
	for (at = 0; at + sizeof(w) <= io->len; at += BC_JOB_STAMP_BYTES) {
		w[0] = io->off + at;
		memcpy((char *)io->buf + at, w, sizeof(w));
	}
}

/* random offset unit: permutation walk, distribution or uniform */
static inline uint64_t s_unit(struct bc_job *j, struct s_jtarget *jt)
{
	uint64_t i;

	if (jt->flags & S_TF_PERM) {
		i = jt->perm_lo + jt->perm_next;
		if (++jt->perm_next == jt->perm_n)
			jt->perm_next = 0;
		return bc_perm_apply(&jt->perm, i);
	}
	if (jt->flags & S_TF_DIST)
		return bc_dist_next(&jt->dist, &j->rng);
	return bc_rand_below(&j->rng, jt->nunits);
}

/* a random I/O's byte offset in the window: a unit, or vdbench's hotband for its op and size */
static inline uint64_t s_rand_off(struct bc_job *j, struct s_jtarget *jt, uint8_t op, uint32_t len)
{
	if ((jt->flags & S_TF_DIST) && jt->dist.kind == BC_DIST_HOTBAND)
		return bc_dist_hotband(&jt->dist, &j->rng, len, op == BC_OP_WRITE);
	return s_unit(j, jt) * jt->align;
}

/*
 * A file set (S_TF_FILES): the I/O's offset in the current file, the next
 * file picked when it is done (vdbench's fileselect: in order, each of the
 * job's files equally likely, or poisson: vdbench's FileAnchor draws the
 * file's index in its list as an exponential variate of mean files /
 * midpoint, wrapped at the number of files, so the first files of the
 * tree's order take most picks); a sequential kind walks the file from
 * its start to its end, a random kind does as many bytes as the file holds
 * at random offsets in it (vdbench's stopafter default). *len is cut to
 * what the file holds.
 */
static inline uint64_t s_file_off(struct bc_job *j, struct s_jtarget *jt, uint32_t *len)
{
	const struct bc_target_files *f = jt->files;
	uint64_t size, off;
	uint32_t k;

	if (!jt->f_left) {
		if (jt->wl.fileselect == BC_FILESEL_POISSON) {
			/* 1 - u in (0, 1]: -log of it is finite */
			k = (uint32_t)((uint64_t)(-log(1.0 - bc_rand_double(&j->rng)) *
						  jt->f_pmean) %
				       jt->f_count);
		} else if (jt->wl.fileselect == BC_FILESEL_RANDOM) {
			k = (uint32_t)bc_rand_below(&j->rng, jt->f_count);
		} else {
			k = jt->f_next;
			jt->f_next = k + 1 == jt->f_count ? 0 : k + 1;
		}
		jt->f_k = k;
		jt->f_cur = jt->f_first + k * jt->f_step;
		if (f->work)
			jt->f_cur = f->work[jt->f_cur]; /* the working set's k-th */
		size = f->size[jt->f_cur];
		/* a stopped sequential visit goes on where it stopped, from the start at the end */
		jt->f_pos = jt->f_resume && jt->f_resume[k] < size ? jt->f_resume[k] : 0;
		jt->f_left = (jt->flags & S_TF_RANDOM) ? size : size - jt->f_pos;
		if (!bc_pos_zero(&jt->wl.file_stopafter)) {
			uint64_t stop = bc_pos_bytes(&jt->wl.file_stopafter, size, 1);

			stop = stop ? stop : 1; /* a percent of a small file: one transfer */
			jt->f_left =
			    (jt->flags & S_TF_RANDOM) || stop < jt->f_left ? stop : jt->f_left;
		}
	}
	size = f->size[jt->f_cur];
	if (*len > size)
		*len = (uint32_t)size; /* a file smaller than an I/O: all of it at once */
	if (jt->flags & S_TF_RANDOM) {
		off = bc_rand_below(&j->rng, (size - *len) / jt->align + 1) * jt->align;
	} else {
		off = jt->f_pos;
		if (*len > size - off)
			*len = (uint32_t)(size - off);
		if (*len > jt->f_left)
			*len = (uint32_t)jt->f_left; /* stopafter a percent: what it leaves */
		jt->f_pos += *len;
		if (jt->f_resume)
			jt->f_resume[jt->f_k] = jt->f_pos;
	}
	jt->f_left = *len >= jt->f_left ? 0 : jt->f_left - *len;
	return f->vstart[jt->f_cur] + off;
}

/* a multi-stream target: the stream by its share, then its op, size, offset, placement */
static inline void s_pick_stream(struct bc_job *j, struct s_jtarget *jt, struct s_io *io)
{
	struct bc_sgen *g = &jt->sg->g[bc_sgens_pick(jt->sg, bc_rand_next(&j->rng))];
	uint32_t len;
	uint8_t op;
	int pl;

	bc_sgen_next(g, &j->rng, &op, &len, &io->off, &pl);
	if ((jt->flags & S_TF_SIZED) && len > jt->remaining)
		len = (uint32_t)jt->remaining;
	if (jt->flags & S_TF_SIZED)
		jt->remaining -= len;
	io->op = op;
	io->len = len;
	io->placement = pl;
}

/* choose op, size and offset of the next I/O of io's slot */
static inline void s_pick(struct bc_job *j, struct s_jtarget *jt, struct s_io *io)
{
	uint32_t len = jt->bs, r, i;
	uint8_t op = jt->op;

	if (jt->sg) {
		s_pick_stream(j, jt, io);
		return;
	}
	if (jt->flags & (S_TF_MIX | S_TF_SPLIT | S_TF_BSRANGE)) {
		r = s_rand32(j);
		if (jt->flags & S_TF_MIX)
			op = r < jt->read_below	   ? BC_OP_READ
			     : r < jt->write_below ? BC_OP_WRITE
						   : BC_OP_TRIM;
		if (jt->flags & S_TF_SPLIT) {
			/* a fresh draw: the op's draw would bias sizes per op */
			r = s_rand32(j);
			for (i = 0; r >= jt->split_below[i] && i + 1 < jt->nsplit; i++)
				;
			len = jt->split_bs[i];
		} else if (jt->flags & S_TF_BSRANGE) {
			/* fio's get_next_buflen: min + max x u, cut to min's multiples, at most max
			 */
			uint64_t l = jt->bs_min + ((uint64_t)jt->bs * s_rand32(j) >> 32);

			l = jt->bs_pow2 ? l & ~(uint64_t)(jt->bs_min - 1) : l - l % jt->bs_min;
			len = l > jt->bs ? jt->bs : (uint32_t)l;
		}
	}
	if ((jt->flags & S_TF_SIZED) && len > jt->remaining)
		len = (uint32_t)jt->remaining;
	if (jt->flags & S_TF_FILES) {
		io->off = s_file_off(j, jt, &len);
	} else if (jt->flags & S_TF_SEQMIX) {
		/* a sequential run goes on from the last I/O while it fits the window: by
		 * chance (seq_pct), or for run_len - 1 I/Os after each random one (seq_run) */
		bool cont = jt->run_len ? jt->run_i++ % jt->run_len != 0
					: bc_seqmix_draw(&jt->sm, s_rand32(j));

		if (bc_seqmix_fits(&jt->sm, cont, len, jt->win_end))
			io->off = jt->sm.next;
		else
			io->off = jt->win_start + s_rand_off(j, jt, op, len);
		bc_seqmix_done(&jt->sm, io->off, len);
	} else if (jt->flags & S_TF_RANDOM) {
		io->off = jt->win_start + s_rand_off(j, jt, op, len);
	} else {
		if (jt->seq_next + len > jt->seq_end)
			jt->seq_next = jt->seq_start;
		io->off = jt->seq_next;
		jt->seq_next += len + jt->seq_gap;
	}
	if (jt->flags & S_TF_SIZED)
		jt->remaining -= len;
	io->op = op;
	io->len = len;
	io->placement = op == BC_OP_WRITE ? bc_splace_next(&jt->place) : BC_PLACEMENT_VOLUME;
}

/* an operation counted apart from the volume's ops (a sync, a metadata kind): 0 is success */
static void s_cnt_done(struct bc_opcnt *c, int64_t res, uint64_t lat)
{
	if (res < 0) {
		c->errors++;
		if (!c->first_errno)
			c->first_errno = (int32_t)res;
		return;
	}
	c->ios++;
	c->lat_sum_ns += lat;
	if (lat < c->lat_min_ns)
		c->lat_min_ns = lat;
	if (lat > c->lat_max_ns)
		c->lat_max_ns = lat;
}

/* the state an entry needs for kind, and the one the operation leaves it in */
static void s_meta_states(uint32_t kind, uint8_t *need, uint8_t *after)
{
	bool makes =
	    kind == BC_META_CREATE || kind == BC_META_MKDIR || kind == BC_META_CREATE_WRITE;
	bool removes = kind == BC_META_DELETE || kind == BC_META_RMDIR;

	*need = makes ? BC_MSTATE_ABSENT : BC_MSTATE_PRESENT;
	*after = removes ? BC_MSTATE_ABSENT : BC_MSTATE_PRESENT;
}

/* entry k of jt's share claimed (its state need -> busy) */
static bool s_meta_try(struct s_jtarget *jt, _Atomic uint8_t *st, uint32_t k, uint8_t need)
{
	uint8_t want = need;

	return atomic_compare_exchange_strong_explicit(&st[jt->m_first + k * jt->m_step], &want,
						       BC_MSTATE_BUSY, memory_order_acquire,
						       memory_order_relaxed);
}

/*
 * create_write: the file just made written to its size in the workload's
 * bs from the slot's buffer, each transfer a write of the volume's (timed
 * and counted as vdbench counts its create's writes), then closed
 */
static void s_meta_fill(struct bc_job *j, struct s_jtarget *jt, struct s_io *io, int fd,
			uint64_t size)
{
	struct bc_opstat *w = &j->cur[io->target].op[BC_OP_WRITE];
	uint64_t off, t0;
	uint32_t len;
	ssize_t res;

	for (off = 0; off < size; off += len) {
		len = size - off < jt->wl.bs ? (uint32_t)(size - off) : jt->wl.bs;
		t0 = bc_mono_ns();
		res = pwrite(fd, io->buf, len, (off_t)off);
		bc_opstat_complete(w, res < 0 ? -errno : res, len, bc_mono_ns() - t0);
		if (res != (ssize_t)len)
			break;
	}
	close(fd);
}

/*
 * The operation of io's slot, now: an entry of the job's share in the state
 * the kind needs is claimed (fileselect random: a few random draws first;
 * else, and then, the next one in the tree's order, rmdir from the deepest
 * directory up), acted on, and left in its new state; none left: m_done.
 */
static void s_meta_do(struct bc_job *j, struct s_jtarget *jt, struct s_io *io)
{
	const struct bc_target_files *f = jt->files;
	uint32_t kind = jt->wl.meta, k = 0, scanned = 0, r;
	_Atomic uint8_t *st = bc_meta_on_dirs(kind) ? f->dstate : f->fstate;
	bool down = kind == BC_META_RMDIR, got = false;
	uint8_t need, after;
	uint64_t lat;
	int rc, fd = -1;

	s_meta_states(kind, &need, &after);
	io->meta_res = 1;
	io->meta_lat_ns = 0;
	for (r = 0; !got && (jt->flags & S_TF_RANDOM) && r < 8 && jt->m_count; r++) {
		k = (uint32_t)(((uint64_t)s_rand32(j) * jt->m_count) >> 32);
		got = s_meta_try(jt, st, k, need);
	}
	/* the walk in the tree's order; each step moves on (a getattr walk visits every file) */
	while (!got && scanned < jt->m_count) {
		k = down ? jt->m_count - 1 - jt->m_cur : jt->m_cur;
		got = s_meta_try(jt, st, k, need);
		jt->m_cur = jt->m_cur + 1 < jt->m_count ? jt->m_cur + 1 : 0;
		scanned++;
	}
	if (!got) {
		jt->m_done = jt->m_out = true;
		return;
	}
	k = jt->m_first + k * jt->m_step;
	rc = bc_meta_op(f, kind, k, jt->wl.direct ? O_DIRECT : 0, &fd, &lat);
	if (kind == BC_META_CREATE_WRITE && !rc)
		s_meta_fill(j, jt, io, fd, f->size[k]);
	/*
	 * a directory not empty, or a directory or file under one not there:
	 * passed over, as vdbench picks another; a whole share passed over in
	 * a row is done
	 */
	if ((rc == -ENOTEMPTY && kind == BC_META_RMDIR) ||
	    (rc == -ENOENT &&
	     (kind == BC_META_MKDIR || kind == BC_META_CREATE || kind == BC_META_CREATE_WRITE))) {
		atomic_store_explicit(&st[k], need, memory_order_release);
		jt->m_passed++;
		if (++jt->m_passed_row >= jt->m_count)
			jt->m_done = jt->m_out = true;
		return;
	}
	jt->m_passed_row = 0;
	/* a size-based workload's passes over its share done (fio's loops on filestat) */
	if (jt->m_left && !--jt->m_left)
		jt->m_done = true;
	/* what the disk says when it disagrees: the entry is there (EEXIST) or not (ENOENT) */
	if (rc == -EEXIST)
		after = BC_MSTATE_PRESENT;
	else if (rc == -ENOENT)
		after = BC_MSTATE_ABSENT;
	else if (rc)
		after = need;
	atomic_store_explicit(&st[k], after, memory_order_release);
	io->meta_res = rc;
	io->meta_lat_ns = lat;
	s_cnt_done(&jt->meta, rc, lat);
}

/* put io in an SQE: submitted by the next submitting enter */
static inline void s_issue(struct bc_job *j, struct s_jtarget *jt, struct s_io *io)
{
	struct io_uring_sqe *sqe;
	struct bc_io_desc d;

	if (io->op == BC_OP_WRITE)
		s_stamp(j, jt, io);
	else if (jt->flags & S_TF_DATA)
		io->read_in = 1;
	else if (jt->nrot > 1) /* reads land in the slot's read buffer, never in a write's */
		io->buf = io->buf0;
	/*
	 * The SQ has an entry for every slot (two with SQPOLL) and a slot has
	 * one SQE at most, so this is never NULL; if it were (an SQ thread
	 * posting CQEs before it moves the SQ head), wait for room.
	 */
	sqe = io_uring_get_sqe(&j->ring);
	while (__builtin_expect(!sqe, 0)) {
		if (j->wl.sqpoll)
			io_uring_sqring_wait(&j->ring);
		else if (io_uring_submit(&j->ring) >= 0)
			j->unsubmitted = 0;
		j->info.submit_calls++;
		sqe = io_uring_get_sqe(&j->ring);
	}
	if (io->op == BC_OP_META) {
		/* done now, synchronously; the NOP brings the slot back through the ring */
		s_meta_do(j, jt, io);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data(sqe, io);
		j->inflight++;
		j->unsubmitted++;
		j->batch[j->nbatch++] = io;
		return;
	}
	d = (struct bc_io_desc){
	    .op = (enum bc_op)io->op,
	    .len = io->len,
	    .off = io->off,
	    .buf = io->buf,
	    .buf_index = io->buf_index,
	    .file_index = jt->file_index,
	    .placement = io->placement,
	    .rw_flags = io->op == BC_OP_WRITE ? jt->wflags : 0,
	};
	jt->prep(jt->t, sqe, &d);
	if (jt->sqe_x)
		bc_sqe_extra_apply(&jt->sx, sqe, d.op == BC_OP_READ || d.op == BC_OP_WRITE,
				   jt->sx.prio_below ? s_rand32(j) : 0);
	io_uring_sqe_set_data(sqe, io);
	j->inflight++;
	j->unsubmitted++;
	j->batch[j->nbatch++] = io;
	/*
	 * Pairs (or single I/Os) go as they are prepared, the rest with the
	 * next enter (the submission policy, s_submit_policy).
	 */
	if (j->submit_every && j->unsubmitted >= j->submit_every) {
		if (io_uring_submit(&j->ring) >= 0)
			j->unsubmitted = 0;
		j->info.submit_calls++;
	}
}

static inline void s_park(struct bc_job *j, struct s_jtarget *jt, struct s_io *io, uint64_t ready)
{
	uint32_t at = jt->park_head + jt->park_n;

	if (at >= jt->park_cap)
		at -= jt->park_cap;
	io->ready_ns = ready;
	jt->park[at] = io;
	jt->park_n++;
	j->parked++;
}

/*
 * The slot's next I/O after a completion (or at the start): none when a
 * size-based target has issued its share, parked when gated, else queued.
 */
/* fio's flow_threshold_exceeded: this volume's share of the thread's issues exceeds its weight's */
static inline bool s_flow_ahead(const struct bc_job *j, const struct s_jtarget *jt)
{
	return jt->flow_n * j->flow_w_total > (uint64_t)jt->flow_w * j->flow_n_total;
}

/* a flow volume whose pass is over leaves the proportion, so the others are not held back */
static void s_flow_leave(struct bc_job *j, struct s_jtarget *jt)
{
	if (!(jt->flags & S_TF_FLOW) || jt->flow_done)
		return;
	jt->flow_done = true;
	j->flow_w_total -= jt->flow_w;
	j->flow_n_total -= jt->flow_n;
	jt->flow_n = 0;
}

/* an I/O leaves the slow path: the counts its gates keep */
static void s_go(struct bc_job *j, struct s_jtarget *jt, struct s_io *io)
{
	if ((jt->flags & S_TF_LOW) && ++jt->low_inflight >= jt->nslots)
		jt->low_draining = true;
	if ((jt->flags & S_TF_FLOW) && !jt->flow_done) {
		jt->flow_n++;
		j->flow_n_total++;
	}
	if ((jt->flags & S_TF_VBACK) && io->op == BC_OP_WRITE)
		jt->vb_winflight++;
	s_issue(j, jt, io);
}

/* a slow-path target's I/O completed with res: the counts of its gates, its backlog */
static void s_done(struct s_jtarget *jt, const struct s_io *io, int64_t res)
{
	if ((jt->flags & S_TF_LOW) && jt->low_inflight && --jt->low_inflight <= jt->low)
		jt->low_draining = false;
	if ((jt->flags & S_TF_VBACK) && io->op == BC_OP_WRITE) {
		jt->vb_winflight--;
		if (res == io->len && jt->vb_n < jt->vb_cap) {
			uint32_t at = (jt->vb_head + jt->vb_n) % jt->vb_cap;

			jt->vb[at] = (struct s_extent){io->off, io->len};
			jt->vb_n++;
		}
		if (jt->vb_n >= jt->backlog)
			jt->vb_reading = true;
	}
}

/* an in-flight write of jt overlaps [off, off + len): reading it back now could tear */
static bool s_write_in_flight(const struct bc_job *j, const struct s_jtarget *jt,
			      const struct s_io *self, uint64_t off, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < jt->nslots; i++) {
		const struct s_io *o = &j->ios[jt->slot0 + i];

		if (o != self && o->op == BC_OP_WRITE && o->off < off + len &&
		    off < o->off + o->len)
			return true;
	}
	return false;
}

/*
 * verify_backlog: the oldest written extent not under a newer write in
 * flight becomes io's read (checked as every read of a verified volume);
 * false when the backlog is done
 */
static bool s_backlog_read(const struct bc_job *j, struct s_jtarget *jt, struct s_io *io)
{
	while (jt->vb_n) {
		struct s_extent e = jt->vb[jt->vb_head];

		jt->vb_head = (jt->vb_head + 1) % jt->vb_cap;
		jt->vb_n--;
		if (s_write_in_flight(j, jt, io, e.off, e.len))
			continue;
		io->op = BC_OP_READ;
		io->off = e.off;
		io->len = e.len;
		io->placement = BC_PLACEMENT_VOLUME;
		return true;
	}
	jt->vb_reading = false;
	return false;
}

/* strided zones (fio's zonemode=strided): I/O in [base, base + range) until zone_size is done */
static void s_zone_set(struct s_jtarget *jt)
{
	uint64_t end = jt->zone_base + jt->zone_range;

	if (end > jt->t->win_end)
		end = jt->t->win_end;
	jt->win_start = jt->zone_base;
	jt->win_end = end;
	jt->seq_start = jt->seq_next = jt->sm.next = jt->zone_base;
	jt->seq_end = jt->zone_base + (end - jt->zone_base) / jt->bs * jt->bs;
	jt->nunits = (end - jt->zone_base - jt->bs) / jt->align + 1;
}

static void s_zone_next(struct s_jtarget *jt, uint32_t len)
{
	if (jt->zone_bytes >= jt->zone_size) {
		jt->zone_bytes = 0;
		jt->zone_base += jt->zone_step;
		/* past the end: from the first zone again, as fio wraps */
		if (jt->zone_base + jt->bs > jt->t->win_end)
			jt->zone_base = jt->zone_first;
		s_zone_set(jt);
	}
	jt->zone_bytes += len;
}

static void s_next(struct bc_job *j, struct s_jtarget *jt, struct s_io *io, uint64_t now)
{
	if (jt->flags & S_TF_KV) {
		struct bc_kvio k;
		uint64_t ready;

		/* every record issued: the slot retires, as a size-based one does */
		if (!bc_kvgen_next(jt->kv, &j->rng, now, &k, &ready))
			return;
		io->op = k.op;
		io->len = k.len;
		io->off = k.off;
		io->placement = k.placement;
		io->kv_kind = k.kind;
		io->kv_ticket = k.ticket;
		if (ready > now)
			s_park(j, jt, io, ready); /* a paced store: its record's time */
		else
			s_issue(j, jt, io);
		return;
	}
	if (jt->flags & S_TF_META) {
		/* nothing left in the state the kind needs: the slot retires */
		if (jt->m_done) {
			s_flow_leave(j, jt);
			return;
		}
		io->op = BC_OP_META;
		io->len = 0;
		io->off = 0;
		if (jt->flags & S_TF_GATED)
			s_park(j, jt, io, now + jt->think_ns);
		else
			s_go(j, jt, io);
		return;
	}
	if ((jt->flags & S_TF_SIZED) && !jt->remaining) {
		/* the pass is over: its last, partial backlog is read back before the slot retires
		 */
		if ((jt->flags & S_TF_VBACK) && jt->vb_n && s_backlog_read(j, jt, io)) {
			s_go(j, jt, io);
			return;
		}
		s_flow_leave(j, jt);
		return;
	}
	/* every sync_every writes an fsync (or fdatasync), in a slot as fio queues it */
	if ((jt->flags & S_TF_SYNC) && jt->writes_since >= jt->sync_every) {
		jt->writes_since = 0;
		io->op = jt->sync_op;
		io->len = 0;
		io->off = 0;
		s_go(j, jt, io);
		return;
	}
	/* a full backlog: the slots read back what was written before writing on */
	if ((jt->flags & S_TF_VBACK) && jt->vb_reading && s_backlog_read(j, jt, io)) {
		s_go(j, jt, io);
		return;
	}
	if (jt->flags & S_TF_ZONED)
		s_zone_next(jt, jt->bs);
	s_pick(j, jt, io);
	if ((jt->flags & S_TF_SYNC) && io->op == BC_OP_WRITE)
		jt->writes_since++;
	if (jt->flags & S_TF_GATED)
		s_park(j, jt, io, now + jt->think_ns);
	else
		s_go(j, jt, io);
}

/* when the head of jt's parking queue may go */
static inline uint64_t s_gate_time(const struct bc_job *j, const struct s_jtarget *jt)
{
	const struct s_io *io = jt->park[jt->park_head];
	uint64_t t = io->ready_ns, r;

	/* counts, not times: closed until completions (this job's or others') open them */
	if ((jt->flags & S_TF_LOW) && jt->low_draining)
		return UINT64_MAX;
	if ((jt->flags & S_TF_FLOW) && !jt->flow_done && s_flow_ahead(j, jt))
		return UINT64_MAX;
	if (bc_rate_on(&jt->rate)) {
		r = bc_rate_when(&jt->rate);
		if (r > t)
			t = r;
	}
	if (jt->dir_rated && io->op < 2 && bc_rate_on(&jt->rate_dir[io->op])) {
		r = bc_rate_when(&jt->rate_dir[io->op]);
		if (r > t)
			t = r;
	}
	return t;
}

/*
 * Per-direction caps: the head of the queue goes as whichever direction's
 * bucket is due first - a direction ahead of its rate yields to the other
 * (fio's rate_ddir does the same), so each gets its own rate whatever the
 * mix.
 */
static void s_pick_dir(struct s_jtarget *jt)
{
	struct s_io *io = jt->park[jt->park_head];
	uint8_t other = io->op == BC_OP_READ ? BC_OP_WRITE : BC_OP_READ;
	uint64_t own, oth;

	if (io->op > BC_OP_WRITE || !jt->used_op[other])
		return;
	own = bc_rate_on(&jt->rate_dir[io->op]) ? bc_rate_when(&jt->rate_dir[io->op]) : 0;
	oth = bc_rate_on(&jt->rate_dir[other]) ? bc_rate_when(&jt->rate_dir[other]) : 0;
	if (oth < own)
		io->op = other;
}

/* the rate buckets io passes through are charged for it at now; its intended time */
static void s_rate_take(struct bc_job *j, struct s_jtarget *jt, struct s_io *io, uint64_t now)
{
	struct bc_rate *d = jt->dir_rated && io->op < 2 && bc_rate_on(&jt->rate_dir[io->op])
				? &jt->rate_dir[io->op]
				: NULL;
	uint64_t when = 0, w;

	if (bc_rate_on(&jt->rate)) {
		when = bc_rate_when(&jt->rate);
		bc_rate_take(&jt->rate, io->len, now,
			     jt->poisson ? bc_rate_gap(bc_rand_double(&j->rng)) : 1);
	}
	if (d) {
		w = bc_rate_when(d);
		when = w > when ? w : when;
		bc_rate_take(d, io->len, now,
			     jt->poisson ? bc_rate_gap(bc_rand_double(&j->rng)) : 1);
	}
	io->intended_ns = jt->intended && when && when < now ? when : 0;
}

/* release every parked slot whose time has come; returns the next gate time (or UINT64_MAX) */
static uint64_t s_release(struct bc_job *j, uint64_t now)
{
	uint64_t next = UINT64_MAX, t;
	struct s_io *io;
	int i;

	for (i = 0; i < j->ntargets && j->parked; i++) {
		struct s_jtarget *jt = &j->tg[i];

		while (jt->park_n) {
			if (jt->dir_rated)
				s_pick_dir(jt);
			t = s_gate_time(j, jt);
			if (t > now) {
				if (t < next)
					next = t;
				break;
			}
			io = jt->park[jt->park_head];
			if (++jt->park_head == jt->park_cap)
				jt->park_head = 0;
			jt->park_n--;
			j->parked--;
			s_rate_take(j, jt, io, now);
			s_go(j, jt, io);
		}
	}
	return next;
}

/* an fsync or fdatasync came back: 0 is success (a sync moves no bytes of its own) */
static void s_sync_done(struct s_jtarget *jt, int64_t res, uint64_t lat)
{
	s_cnt_done(&jt->syncs, res, lat);
}

/*
 * end_fsync: when the job's I/O is over (drained), one fsync of each volume
 * it wrote with "end_fsync", waited for here; counted with the volume's syncs
 */
static void s_end_sync(struct bc_job *j)
{
	struct io_uring_cqe *cqe;
	unsigned n = 0, i;
	int t;

	for (t = 0; t < j->ntargets; t++) {
		struct s_jtarget *jt = &j->tg[t];
		struct s_io *io;
		struct io_uring_sqe *sqe;

		if (!jt->end_sync || !jt->nslots || !jt->used_op[BC_OP_WRITE])
			continue;
		sqe = io_uring_get_sqe(&j->ring);
		if (!sqe)
			break;
		io = &j->ios[jt->slot0];
		io->op = BC_IO_FSYNC;
		io->len = 0;
		io->submit_ns = bc_mono_ns();
		jt->prep(jt->t, sqe,
			 &(struct bc_io_desc){
			     .op = BC_IO_FSYNC, .buf_index = -1, .file_index = jt->file_index});
		io_uring_sqe_set_data(sqe, io);
		n++;
	}
	if (!n || io_uring_submit(&j->ring) < 0)
		return;
	for (i = 0; i < n && !io_uring_wait_cqe(&j->ring, &cqe); i++) {
		struct s_io *io = io_uring_cqe_get_data(cqe);

		s_sync_done(&j->tg[io->target], cqe->res, bc_mono_ns() - io->submit_ns);
		io_uring_cqe_seen(&j->ring, cqe);
	}
}

/* a read of a verified target came back whole: check it, turn a mismatch into an error */
static int64_t s_verify(struct bc_job *j, struct s_jtarget *jt, struct s_io *io, int64_t res)
{
	enum bc_verify_why why = BC_VERIFY_OK;
	uint64_t bad_off = 0;
	uint32_t nbad;

	nbad = bc_verify_check(io->buf, io->len, io->off, &bad_off, &why);
	if (!nbad)
		return res;
	j->cur[io->target].verify_errors += nbad;
	if (jt->nbad < BC_JOB_VERIFY_REPORT)
		jt->bad[jt->nbad++] = (struct bc_job_bad){.off = bad_off, .why = why};
	/* EBADMSG is what filesystems return for a checksum failure (EFSBADCRC) */
	return -EBADMSG;
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

/* the last second (or the one a cancel or the end of a pass cut short): seal it */
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
		until = bc_clock_kernel(CLOCK_MONOTONIC, until);
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
 * Stamp the batch prepared since the last clock read: with one new clock
 * read, before the enter that sends it; or, where I/Os went out as they were
 * prepared (pairs, each), with the clock read before they were prepared
 * (`now`), so that no I/O's latency starts after its submission.
 */
static uint64_t s_stamp_batch(struct bc_job *j, uint64_t now)
{
	uint64_t t;
	unsigned i;

	if (!j->nbatch)
		return now;
	t = j->submit_every ? now : bc_mono_ns();
	/* an arrival released late counts from when it was due ("latency_from") */
	for (i = 0; i < j->nbatch; i++)
		j->batch[i]->submit_ns = j->batch[i]->intended_ns ? j->batch[i]->intended_ns : t;
	j->nbatch = 0;
	return t;
}

/* every slot's first I/O (gated targets park theirs, released at their rate) */
static uint64_t s_fill(struct bc_job *j, uint64_t now)
{
	unsigned i;
	int t;

	for (t = 0; t < j->ntargets; t++) {
		struct s_jtarget *jt = &j->tg[t];
		/* the volume starts after its delay; the first I/O of a thinktime slot at once */
		uint64_t t0 = now + jt->delay_ns;

		if (bc_rate_on(&jt->rate))
			bc_rate_start(&jt->rate, t0);
		for (i = 0; i < 2; i++)
			if (bc_rate_on(&jt->rate_dir[i]))
				bc_rate_start(&jt->rate_dir[i], t0);
		for (i = 0; i < jt->nslots; i++)
			s_next(j, jt, &j->ios[jt->slot0 + i],
			       t0 > jt->think_ns ? t0 - jt->think_ns : 0);
	}
	return j->parked ? s_release(j, now) : UINT64_MAX;
}

/*
 * The I/O loop. Each iteration: one io_uring_enter that submits what was
 * prepared (unless a submit batch is still filling; a job with sequential
 * I/O has sent all but the last odd one in pairs already) and waits for
 * completions, but never past the next second boundary or the next parked
 * slot's release; one clock read for the completion batch (it closes seconds
 * and times every CQE in the batch); one clock read for the submit batch of
 * the I/Os queued from those CQEs and from the parking queues.
 */
static void s_run(struct bc_job *j)
{
	uint64_t now, tsub, boundary, end, wait_until, gate;
	unsigned seen, ready, head, wait_nr, batch_sub, batch_cpl, kernel;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	bool draining = false;
	int ret, hard = 0;

	batch_sub = j->wl.batch_submit ? j->wl.batch_submit : 1;
	batch_cpl = j->wl.batch_complete ? j->wl.batch_complete : 1;
	boundary = j->start_ns + j->second_ns;
	end = j->start_ns + (uint64_t)j->seconds * j->second_ns;
	now = bc_mono_ns();
	j->clock_ns = now;
	/* the real start, for the coordinator's start-skew evidence */
	j->info.first_submit_ns = now;
	gate = s_fill(j, now);
	tsub = s_stamp_batch(j, now);
	while (j->inflight || j->parked) {
		if (!draining && atomic_load_explicit(&j->cancel, memory_order_relaxed)) {
			s_seal_last(j);
			draining = true;
		}
		if (draining) {
			/* parked slots were never sent: nothing to drain for them */
			j->parked = 0;
			if (!j->inflight)
				break;
			/* draining has no boundary; 1 s keeps the wait bounded all the same */
			wait_until = tsub + BC_NS_PER_S;
		} else {
			wait_until = gate < boundary ? gate : boundary;
		}
		ts = s_ts(wait_until > tsub ? wait_until - tsub : 0);
		kernel = j->inflight - j->unsubmitted;
		if (j->unsubmitted && (j->unsubmitted >= batch_sub || !kernel || draining)) {
			wait_nr = j->inflight < batch_cpl ? j->inflight : batch_cpl;
			ret = io_uring_submit_and_wait_timeout(&j->ring, &cqe,
							       wait_nr ? wait_nr : 1, &ts, NULL);
			j->unsubmitted = 0;
			j->info.submit_calls++;
		} else {
			/* a submit batch is filling (or nothing to send): only reap */
			wait_nr = kernel < batch_cpl ? kernel : batch_cpl;
			ret = io_uring_wait_cqes(&j->ring, &cqe, wait_nr ? wait_nr : 1, &ts, NULL);
		}
		now = bc_mono_ns();
		j->clock_ns = now;
		if (!s_enter_ok(ret)) {
			int zero = 0;

			atomic_compare_exchange_strong(&j->err, &zero, ret);
			if (!draining) {
				s_seal_last(j);
				draining = true;
			}
		}
		while (!draining && now >= boundary) {
			/* the step's end, or a STOP's second (read once a second, not per I/O) */
			uint32_t stop = atomic_load_explicit(&j->stop_k, memory_order_relaxed);

			if (boundary >= end ||
			    (stop != UINT32_MAX &&
			     boundary >= j->start_ns + (uint64_t)stop * BC_NS_PER_S)) {
				s_seal_last(j);
				draining = true;
				break;
			}
			s_next_interval(j);
			boundary += j->second_ns;
		}
		seen = 0;
		/*
		 * The CQEs there now, not those posted while these are handled: a
		 * pair sent from here (s_issue) may complete at once, and its slot
		 * must wait for the next batch (j->batch holds a slot once).
		 */
		ready = io_uring_cq_ready(&j->ring);
		io_uring_for_each_cqe(&j->ring, head, cqe)
		{
			struct s_io *io;
			struct s_jtarget *jt;
			int64_t res;

			if (seen == ready)
				break;
			io = io_uring_cqe_get_data(cqe);
			jt = &j->tg[io->target];
			res = cqe->res;

			/* NOP (null target) and fallocate (trim) succeed with res 0 */
			if (res == 0 && (io->nop_full || io->op == BC_OP_TRIM))
				res = io->len;
			else if (res == -ETIME && io->tmo_full) /* a modelled delay ran out */
				res = io->len;
			else if (res > 0 && io->nop_full) /* NVMe passthrough status: an error */
				res = -EIO;
			if ((jt->flags & S_TF_VERIFY) && io->op == BC_OP_READ && res == io->len)
				res = s_verify(j, jt, io, res);
			/* an fsync or fdatasync: counted apart from the volume's ops */
			if (__builtin_expect(io->op >= BC_OP_NR, 0))
				s_sync_done(jt, res, now - io->submit_ns);
			else if (__builtin_expect(io->op == BC_OP_META, 0)) {
				/* 1: nothing was left to act on, nothing done */
				if (io->meta_res <= 0)
					bc_opstat_complete(&j->cur[io->target].op[BC_OP_META],
							   io->meta_res, 0, io->meta_lat_ns);
			} else
				bc_opstat_complete(&j->cur[io->target].op[io->op], res, io->len,
						   now - io->submit_ns);
			if (jt->flags & S_TF_KV)
				bc_kvgen_done(jt->kv, io->kv_kind, io->kv_ticket, res, io->len,
					      now - io->submit_ns, now);
			seen++;
			j->inflight--;
			if (draining)
				continue;
			if (!(jt->flags & S_TF_SLOW)) {
				s_pick(j, jt, io);
				s_issue(j, jt, io);
				continue;
			}
			s_done(jt, io, res);
			s_next(j, jt, io, now);
		}
		io_uring_cq_advance(&j->ring, seen);
		/* a ring that keeps failing with nothing completing would spin forever */
		hard = s_enter_ok(ret) || seen ? 0 : hard + 1;
		if (hard >= S_MAX_HARD_ERRORS)
			break;
		gate = !draining && j->parked ? s_release(j, now) : UINT64_MAX;
		tsub = s_stamp_batch(j, now);
	}
	/* a size-based pass ended before its time: seal the second it ended in */
	if (!draining)
		s_seal_last(j);
}

static void s_thread_cpu(uint64_t *user_ns, uint64_t *sys_ns)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	*user_ns =
	    (uint64_t)ru.ru_utime.tv_sec * BC_NS_PER_S + (uint64_t)ru.ru_utime.tv_usec * 1000;
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * BC_NS_PER_S + (uint64_t)ru.ru_stime.tv_usec * 1000;
}

static int s_setup(struct bc_job *j);

static void *s_thread(void *arg)
{
	struct bc_job *j = arg;
	uint64_t u0 = 0, s0 = 0, u1 = 0, s1 = 0;
	char name[16];
	int ret;

	snprintf(name, sizeof(name), "bc-job-%u", j->job_index);
	pthread_setname_np(pthread_self(), name);
	ret = s_setup(j);
	pthread_mutex_lock(&j->mu);
	j->setup_state = ret ? ret : 1;
	pthread_cond_broadcast(&j->cv);
	while (!ret && !j->go && !j->quit)
		pthread_cond_wait(&j->cv, &j->mu);
	pthread_mutex_unlock(&j->mu);
	if (!ret && j->go && j->seconds && s_wait_start(j)) {
		s_thread_cpu(&u0, &s0);
		s_run(j);
		s_end_sync(j);
		s_thread_cpu(&u1, &s1);
		j->info.cpu_user_ns = u1 - u0;
		j->info.cpu_sys_ns = s1 - s0;
	}
	/*
	 * The ring is this thread's: it unregisters what only its issuer may.
	 * Files first and synchronously: a ring's teardown is asynchronous
	 * (an io_uring exit worker), and until it ran, a registered block
	 * device would stay claimed and the next step's O_EXCL open fail.
	 */
	if (j->ring_ok) {
		if (j->info.fixed_files)
			io_uring_unregister_files(&j->ring);
		io_uring_queue_exit(&j->ring);
	}
	j->ring_ok = false;
	atomic_store_explicit(&j->finished, true, memory_order_release);
	return NULL;
}

/* setup flags, best first: each older kernel rejects what it lacks with -EINVAL */
static const struct {
	unsigned flags;
	const char *name;
} s_setups[] = {
    /*
     * SINGLE_ISSUER + DEFER_TASKRUN (6.1): only this thread touches the ring,
     * and completion work runs when it asks for completions, not as
     * interrupts of its submission work.
     */
    {IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
     "submit_all,single_issuer,defer_taskrun"},
    /*
     * SUBMIT_ALL: an SQE that fails at submit time must not hold back the
     * rest of the batch (its error still arrives as a CQE). COOP_TASKRUN:
     * completions are run when we enter anyway, no IPI needed (5.18/5.19).
     */
    {IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN, "submit_all,coop_taskrun"},
    {0, ""},
};

static int s_ring_init(struct bc_job *j, unsigned entries)
{
	struct io_uring_params p;
	unsigned base = 0, i;
	int ret = -EINVAL;

	if (j->wl.sqpoll) {
		base |= IORING_SETUP_SQPOLL;
		if (j->wl.sqpoll_cpu >= 0)
			base |= IORING_SETUP_SQ_AFF;
	}
	if (j->wl.hipri)
		base |= IORING_SETUP_IOPOLL;
	/* what the targets need (NVMe passthrough: SQE128|CQE32), target/ops.h ring_flags */
	for (i = 0; i < (unsigned)j->ntargets; i++)
		base |= j->tg[i].t->ops->ring_flags;
	for (i = 0; i < sizeof(s_setups) / sizeof(s_setups[0]); i++) {
		/* DEFER_TASKRUN needs the issuer to reap: not with an SQ thread */
		if (j->wl.sqpoll && (s_setups[i].flags & IORING_SETUP_DEFER_TASKRUN))
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = base | s_setups[i].flags;
		if (base & IORING_SETUP_SQ_AFF)
			p.sq_thread_cpu = (unsigned)j->wl.sqpoll_cpu;
		ret = io_uring_queue_init_params(entries, &j->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret) {
		snprintf(j->setup_err, sizeof(j->setup_err),
			 "job %u: cannot create an io_uring of %u entries%s%s: %s", j->job_index,
			 entries, j->wl.sqpoll ? " with SQPOLL" : "",
			 j->wl.hipri ? " with IOPOLL" : "", strerror(-ret));
		return ret;
	}
	j->ring_ok = true;
	/*
	 * Without EXT_ARG (5.11) liburing emulates the wait timeout with a
	 * timeout SQE whose CQE would reach the completion loop as an I/O.
	 */
	if (!(p.features & IORING_FEAT_EXT_ARG)) {
		snprintf(j->setup_err, sizeof(j->setup_err),
			 "job %u: io_uring lacks IORING_FEAT_EXT_ARG (Linux >= 5.11)",
			 j->job_index);
		return -ENOTSUP;
	}
	snprintf(j->info.ring_setup, sizeof(j->info.ring_setup), "%s%s%s", s_setups[i].name,
		 j->wl.sqpoll ? ",sqpoll" : "", j->wl.hipri ? ",iopoll" : "");
	j->info.ring_entries = entries;
	/* the ring fd in the task's registered table: no fdget per enter (5.18) */
	io_uring_register_ring_fd(&j->ring);
	return 0;
}

/* one buffer per slot in one aligned block, random data, registered if possible */
static int s_buffers_init(struct bc_job *j)
{
	struct iovec *iov = NULL;
	size_t at = 0, w;
	uint64_t *p;
	unsigned i;
	int ret;

	ret = -posix_memalign(&j->bufs, j->buf_align, j->bufs_bytes);
	if (ret) {
		j->bufs = NULL;
		snprintf(j->setup_err, sizeof(j->setup_err),
			 "job %u: cannot allocate %zu bytes of I/O buffers: %s", j->job_index,
			 j->bufs_bytes, strerror(-ret));
		return ret;
	}
	/* random, so neither compression nor zero detection flatters writes */
	p = j->bufs;
	for (w = 0; w < j->bufs_bytes / sizeof(*p); w++)
		p[w] = bc_rand_next(&j->rng) | 1;
	for (i = 0; i < j->nios; i++) {
		struct s_io *io = &j->ios[i];
		const struct s_jtarget *jt = &j->tg[io->target];

		io->buf = io->buf0 = (char *)j->bufs + at;
		/* reducible content: the pool's units, a different run of them per slot */
		if (jt->dg.pool)
			bc_datagen_fill(&jt->dg, io->buf, jt->buf_bytes,
					(uint64_t)(i - jt->slot0) *
					    (jt->buf_bytes / jt->dg.unit + 1));
		at += (size_t)jt->buf_bytes * (jt->nrot ? jt->nrot : 1);
	}

	j->info.fixed_buffers_errno = -EOVERFLOW;
	if (j->nios <= S_MAX_REG_BUFFERS) {
		iov = calloc(j->nios, sizeof(*iov));
		if (!iov) {
			snprintf(j->setup_err, sizeof(j->setup_err), "job %u: out of memory",
				 j->job_index);
			return -ENOMEM;
		}
		for (i = 0; i < j->nios; i++) {
			const struct s_jtarget *jt = &j->tg[j->ios[i].target];

			/* a slot's rotation buffers are one registered buffer */
			iov[i].iov_base = j->ios[i].buf0;
			iov[i].iov_len = (size_t)jt->buf_bytes * (jt->nrot ? jt->nrot : 1);
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
	for (i = 0; i < j->nios; i++)
		j->ios[i].buf_index = j->info.fixed_buffers ? (int)i : -1;
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

static int s_stats_init(struct bc_job *j)
{
	size_t n = (size_t)(BC_JOB_SLOTS + 1) * (size_t)j->ntargets, i;
	int ret, o;

	ret = -posix_memalign((void **)&j->stat_mem, S_CACHELINE, n * sizeof(*j->stat_mem));
	if (ret) {
		j->stat_mem = NULL;
		snprintf(j->setup_err, sizeof(j->setup_err), "job %u: cannot allocate stats: %s",
			 j->job_index, strerror(-ret));
		return ret;
	}
	/*
	 * Fault in now, not on the completion path - but only the ops a volume
	 * uses: a histogram is 58 KiB, and 16 volumes x 5 slots x 3 ops of them
	 * per job would be most of the agent's memory.
	 */
	for (i = 0; i < n; i++) {
		const struct s_jtarget *jt = &j->tg[i % (size_t)j->ntargets];

		for (o = 0; o < BC_OP_NR; o++) {
			if (jt->used_op[o])
				memset(&j->stat_mem[i].op[o], 0, sizeof(j->stat_mem[i].op[o]));
			else
				memset(&j->stat_mem[i].op[o], 0,
				       offsetof(struct bc_opstat, hist) + sizeof(uint64_t));
		}
		j->stat_mem[i].verify_errors = 0;
		bc_volstat_reset(&j->stat_mem[i]);
	}
	for (i = 0; i < BC_JOB_SLOTS; i++)
		j->slots[i].vs = j->stat_mem + i * (size_t)j->ntargets;
	j->drain = j->stat_mem + (size_t)BC_JOB_SLOTS * (size_t)j->ntargets;
	j->cur = j->slots[0].vs;
	return 0;
}

/*
 * Whether the job must submit in pairs (s_issue): three or more SQEs in one
 * enter are plugged, and the block layer merges neighbouring sequential
 * I/Os into requests larger than bs (128k reads at QD 16 on a loop device:
 * 0.55 requests per I/O); a pair is not plugged. So when some of its I/O
 * may be sequential (a sequential kind, seq_pct, seq_run, streams, a KV
 * store or a file set, which walk runs of blocks) on a target with a block
 * layer, and the workload did not ask for batches (iodepth_batch_submit,
 * with which fio merges alike), the job sends pairs, as fio's batch of one
 * leaves them whole (docs/engine.md).
 */
static bool s_pairs(const struct bc_job *j)
{
	int i;

	if (j->wl.batch_submit > 1)
		return false;
	for (i = 0; i < j->ntargets; i++) {
		const struct s_jtarget *jt = &j->tg[i];

		/* no block layer to merge: nothing behind the path, or passthrough commands */
		if (jt->t->ops->caps & (BC_TCAP_DISKLESS | BC_TCAP_PASSTHRU))
			continue;
		if (!(jt->flags & S_TF_RANDOM) ||
		    (jt->flags & (S_TF_SEQMIX | S_TF_KV | S_TF_FILES)) || jt->wl.seq_run > 1 ||
		    jt->wl.nstreams)
			return true;
	}
	return false;
}

/* the probe's trial of one policy, per policy and round (S_PROBE_ROUNDS rounds of both) */
#define S_PROBE_NS     (25 * BC_NS_PER_MS)
#define S_PROBE_ROUNDS 4
/* pairs must complete this many percent more I/Os than batches to be picked */
#define S_PROBE_MARGIN_PCT 3

/*
 * The op the probe drives a target with: reads where its workload reads,
 * else writes where it writes (never a write to a volume the step does not
 * write); BC_OP_NR: not probed (trims only, no file or block device,
 * buffered I/O, whose probe reads would fill the page cache the step then
 * reads from, or a workload that sets its own pace or offsets: a rate or
 * thinktime is not to be exceeded, a KV store, file set or zones are not a
 * window of blocks).
 */
static enum bc_op s_probe_op(const struct s_jtarget *jt)
{
	if (!(jt->t->ops->caps & BC_TCAP_SYNC) || !jt->nslots || !jt->wl.direct ||
	    (jt->flags & (S_TF_GATED | S_TF_KV | S_TF_FILES | S_TF_ZONED)))
		return BC_OP_NR;
	if (jt->used_op[BC_OP_READ])
		return BC_OP_READ;
	return jt->used_op[BC_OP_WRITE] ? BC_OP_WRITE : BC_OP_NR;
}

/* a probe I/O: the workload's smallest size at a uniform random offset of its window */
static void s_probe_pick(struct bc_job *j, struct bc_rand *rng, struct s_jtarget *jt,
			 struct s_io *io, uint8_t op)
{
	uint32_t len = jt->bs, k;

	if (jt->flags & S_TF_BSRANGE)
		len = jt->bs_min;
	for (k = 0; k < jt->nsplit; k++)
		if (jt->split_bs[k] < len)
			len = jt->split_bs[k];
	io->op = op;
	io->len = len;
	io->off = jt->win_start + bc_rand_below(rng, jt->nunits) * jt->align;
	io->placement = BC_PLACEMENT_VOLUME;
	s_issue(j, jt, io);
}

/*
 * One trial: every probed slot busy for ns with submit_every = every;
 * returns the I/Os that completed whole. The probe's I/Os are counted
 * nowhere else. A ring that fails ends the trial (and the probe) early.
 */
static int s_probe_trial(struct bc_job *j, struct bc_rand *rng, unsigned every, uint64_t ns,
			 uint64_t *done)
{
	struct __kernel_timespec ts = s_ts(100 * BC_NS_PER_MS);
	struct io_uring_cqe *cqe;
	unsigned head, seen, ready, i;
	uint64_t end;
	bool stop = false;
	int t, ret;

	j->submit_every = every;
	for (t = 0; t < j->ntargets; t++) {
		struct s_jtarget *jt = &j->tg[t];
		enum bc_op op = s_probe_op(jt);

		for (i = 0; op != BC_OP_NR && i < jt->nslots; i++)
			s_probe_pick(j, rng, jt, &j->ios[jt->slot0 + i], (uint8_t)op);
	}
	end = bc_mono_ns() + ns;
	while (j->inflight) {
		if (j->unsubmitted)
			ret = io_uring_submit_and_wait_timeout(&j->ring, &cqe, 1, &ts, NULL);
		else
			ret = io_uring_wait_cqes(&j->ring, &cqe, 1, &ts, NULL);
		j->unsubmitted = 0;
		j->nbatch = 0; /* the probe stamps no latency */
		if (!s_enter_ok(ret))
			return ret;
		stop = stop || bc_mono_ns() >= end;
		seen = 0;
		ready = io_uring_cq_ready(&j->ring);
		io_uring_for_each_cqe(&j->ring, head, cqe)
		{
			struct s_io *io = io_uring_cqe_get_data(cqe);

			if (seen == ready)
				break;
			seen++;
			j->inflight--;
			*done += cqe->res == (int32_t)io->len;
			if (!stop)
				s_probe_pick(j, rng, &j->tg[io->target], io, io->op);
		}
		io_uring_cq_advance(&j->ring, seen);
	}
	return 0;
}

/*
 * When the job submits what it prepared from a batch of completions
 * (docs/engine.md, "Submission policy"): what the profile says; pairs for
 * sequential I/O (s_pairs); else, where a trial means something, the
 * faster of batch and pairs in a short timed trial on the job's own
 * volumes, alternating, in the job's setup (PREPARE). A batch costs one
 * enter for many I/Os but the kernel plugs it and hands it to the device
 * at its end; pairs cost an enter per two I/Os and reach the device at
 * once. Which one completes more I/Os depends on the device and the kernel.
 */
static void s_submit_policy(struct bc_job *j)
{
	/* by submit_every */
	static const char *const names[] = {"batch", "each", "pairs"};
	uint64_t done[2] = {0, 0};
	struct bc_rand rng; /* its own: the job's draws stay those of its seed */
	const char *why = NULL;
	bool probe = false;
	unsigned r, k;
	int t;

	j->submit_every = 0;
	if (j->wl.submit_mode != BC_SUBMIT_AUTO) {
		j->submit_every = j->wl.submit_mode == BC_SUBMIT_PAIRS	? 2
				  : j->wl.submit_mode == BC_SUBMIT_EACH ? 1
									: 0;
		why = "profile";
	} else if (s_pairs(j)) {
		j->submit_every = 2;
		why = "sequential";
	} else if (j->wl.sqpoll || j->wl.hipri || j->wl.batch_submit > 1) {
		why = "ring or batch options";
	} else if (j->nios <= 2) {
		why = "depth <= 2"; /* a pair is never plugged: both policies are the same */
	}
	for (t = 0; !why && t < j->ntargets; t++)
		probe = probe || s_probe_op(&j->tg[t]) != BC_OP_NR;
	if (!why && !probe)
		why = "nothing to probe";
	if (why)
		goto out;
	bc_rand_seed(&rng, 0x70726f6265ull + j->job_index);
	/* alternating, so a neighbour's load falls on both alike */
	for (r = 0; r < S_PROBE_ROUNDS; r++)
		for (k = 0; k < 2; k++) {
			unsigned p = (k + r) & 1; /* 0: batch, 1: pairs */

			/* a failing ring fails the step's first enter too: batch, said */
			if (s_probe_trial(j, &rng, p ? 2 : 0, S_PROBE_NS, &done[p])) {
				j->submit_every = 0;
				why = "probe failed";
				goto out;
			}
		}
	j->info.submit_calls = 0; /* the run's, not the probe's */
	j->info.probe_ns = (uint64_t)S_PROBE_ROUNDS * S_PROBE_NS;
	j->info.probe_ios[0] = done[0];
	j->info.probe_ios[1] = done[1];
	j->submit_every = done[1] * 100 > done[0] * (100 + S_PROBE_MARGIN_PCT) ? 2 : 0;
	why = "probe";
out:
	snprintf(j->info.submit, sizeof(j->info.submit), "%s", names[j->submit_every]);
	snprintf(j->info.submit_why, sizeof(j->info.submit_why), "%s", why);
}

/* the job thread's setup: ring, buffers, files, stats; message in setup_err on failure */
static int s_setup(struct bc_job *j)
{
	unsigned entries;
	int ret;

	/* "nice": this thread's own (Linux's nice is per thread), as fio's nice= on its job */
	if (j->wl.nice && setpriority(PRIO_PROCESS, (id_t)gettid(), j->wl.nice)) {
		ret = -errno;
		snprintf(j->setup_err, sizeof(j->setup_err), "job %u: nice %d: setpriority: %s",
			 j->job_index, j->wl.nice, strerror(-ret));
		return ret;
	}

	for (entries = 1; entries < j->nios; entries <<= 1)
		;
	/*
	 * An SQ thread commits the SQ head after its batch while the batch's
	 * CQEs may already be out: twice the slots keeps room for the requeues.
	 */
	if (j->wl.sqpoll && entries < BC_JOB_MAX_ENTRIES)
		entries <<= 1;
	ret = s_ring_init(j, entries);
	if (!ret)
		ret = s_buffers_init(j);
	if (!ret) {
		s_files_init(j);
		ret = s_stats_init(j);
	}
	if (!ret)
		s_submit_policy(j);
	if (ret && j->ring_ok) {
		io_uring_queue_exit(&j->ring);
		j->ring_ok = false;
	}
	return ret;
}

/* sizes: the split's cumulative thresholds on a 32-bit draw, or one size */
static void s_sizes_init(struct s_jtarget *jt)
{
	const struct bc_workload *wl = &jt->wl;
	uint64_t cum = 0;
	uint32_t i;

	jt->bs = wl->bs;
	if (!wl->nbssplit)
		return;
	jt->flags |= S_TF_SPLIT;
	jt->nsplit = wl->nbssplit;
	for (i = 0; i < wl->nbssplit; i++) {
		cum += wl->bssplit[i].ppm;
		jt->split_bs[i] = wl->bssplit[i].bs;
		jt->split_below[i] = (uint32_t)((cum << 32) / BC_SPLIT_ALL - (cum == BC_SPLIT_ALL));
	}
}

/* which ops, how often: read rwmixread_ppm millionths, trim rwmixtrim %, write the rest */
static void s_ops_init(struct s_jtarget *jt)
{
	const struct bc_workload *wl = &jt->wl;
	uint64_t r = wl->rwmixread_ppm, t = wl->rwmixtrim;

	switch (wl->rw) {
	case BC_RW_READ:
	case BC_RW_RANDREAD:
		jt->op = BC_OP_READ;
		break;
	case BC_RW_WRITE:
	case BC_RW_RANDWRITE:
		jt->op = BC_OP_WRITE;
		break;
	case BC_RW_TRIM:
	case BC_RW_RANDTRIM:
		jt->op = BC_OP_TRIM;
		break;
	default:
		jt->flags |= S_TF_MIX;
		/* thresholds on a 32-bit draw, in 2^32 units: 100% of one op never draws another */
		jt->read_below = (r << 32) / BC_SPLIT_ALL; /* integers: as (pct << 32) / 100 */
		jt->write_below = ((100 - t) << 32) / 100;
		jt->used_op[BC_OP_READ] = r > 0;
		jt->used_op[BC_OP_WRITE] = r + t * BC_SPLIT_PCT1 < BC_SPLIT_ALL;
		jt->used_op[BC_OP_TRIM] = t > 0;
		return;
	}
	jt->used_op[jt->op] = true;
}

/* a size-bound workload's passes over its window or files ("passes"; unset: one) */
static uint64_t s_passes(const struct bc_workload *wl)
{
	return wl->passes ? wl->passes : 1;
}

/*
 * A file set's offsets (S_TF_FILES, s_file_off): this job's files (every
 * one with file_shared, else every f_total-th, so that no two jobs of the
 * set's workloads use a file at once, as vdbench's threads do not), and
 * what does not apply to them
 */
static int s_fileset_init(struct s_jtarget *jt, uint32_t minbs, char *err, size_t errlen)
{
	const struct bc_workload *wl = &jt->wl;
	const struct bc_target_files *f = jt->t->files;
	/* the files the workload uses: the working set's, else all */
	uint32_t n = f->work ? f->nwork : f->n, i;
	uint64_t bytes = 0;

	if (wl->dist.kind != BC_DIST_UNIFORM || wl->seq_pct || wl->seq_run > 1 || wl->seq_gap ||
	    wl->zone_size || wl->nstreams || wl->verify || wl->verify_backlog) {
		snprintf(err, errlen,
			 "%s: a file set takes a sequential or random kind, fileselect and "
			 "file_shared; not random_distribution, seq_pct, seq_run, seq_gap, zones, "
			 "streams or verify",
			 jt->t->path);
		return -EINVAL;
	}
	if (!wl->file_shared && n < jt->f_total) {
		snprintf(
		    err, errlen,
		    "%s: the file set has %u files%s for %u jobs, and a file is used by one "
		    "job at a time (vdbench: at least one file per thread); give more files or "
		    "\"file_shared\": true",
		    jt->t->path, n, f->work ? " in its working set" : "", jt->f_total);
		return -EINVAL;
	}
	jt->files = f;
	jt->flags |= S_TF_FILES | (bc_workload_random(wl) ? S_TF_RANDOM : 0);
	jt->align = wl->blockalign ? wl->blockalign : minbs;
	jt->f_first = wl->file_shared ? 0 : jt->f_before + jt->jidx;
	jt->f_step = wl->file_shared ? 1 : jt->f_total;
	jt->f_count = (n - jt->f_first + jt->f_step - 1) / jt->f_step;
	/*
	 * poisson over this job's files: its k-th is the set's f_first + k x
	 * f_step, so the set's files are drawn with a mean of files / midpoint
	 * in the tree's order, as vdbench's one list
	 */
	jt->f_pmean = (double)jt->f_count /
		      (wl->fileselect_midpoint ? wl->fileselect_midpoint : BC_FILESEL_MIDPOINT);
	/* sequential selection: jobs sharing the files start apart, not all on the first */
	jt->f_next = wl->file_shared ? (uint32_t)((uint64_t)n * jt->jidx / jt->njobs) : 0;
	/* stopped sequential visits resume: where, per file (allocated here, not per I/O) */
	if (!bc_pos_zero(&wl->file_stopafter) && !(jt->flags & S_TF_RANDOM)) {
		jt->f_resume = calloc(jt->f_count, sizeof(*jt->f_resume));
		if (!jt->f_resume) {
			snprintf(err, errlen, "%s: out of memory for file_stopafter", jt->t->path);
			return -ENOMEM;
		}
	}
	if (!bc_workload_size_based(wl))
		return 0;
	/* one pass: each of this job's files once (or io_size over the jobs), times passes */
	for (i = 0; i < jt->f_count; i++) {
		uint32_t k = jt->f_first + i * jt->f_step;

		bytes += f->size[f->work ? f->work[k] : k];
	}
	bytes *= s_passes(wl);
	jt->flags |= S_TF_SIZED;
	jt->remaining = wl->io_size	  ? wl->io_size / jt->njobs / minbs * minbs
			: wl->file_shared ? bytes / jt->njobs / minbs * minbs
					  : bytes;
	return 0;
}

/*
 * "meta": the entries this job acts on: its share of the tree's files dealt
 * as a data workload's are (one job per file unless file_shared), or every
 * directory for mkdir and rmdir, each job's walk starting apart
 */
static int s_meta_init(struct s_jtarget *jt, char *err, size_t errlen)
{
	const struct bc_target_files *f = jt->t->files;
	const struct bc_workload *wl = &jt->wl;
	bool dirs = bc_meta_on_dirs(wl->meta);
	uint8_t need, after;
	uint32_t n;

	if (!f || !f->fstate) {
		snprintf(err, errlen, "%s: \"meta\": \"%s\" acts on a file set's files",
			 jt->t->path, bc_meta_names[wl->meta]);
		return -EINVAL;
	}
	n = dirs ? f->ndirs : f->n;
	jt->files = f;
	jt->flags |= S_TF_META | (wl->fileselect != BC_FILESEL_SEQUENTIAL ? S_TF_RANDOM : 0);
	jt->used_op[BC_OP_META] = true;
	jt->used_op[BC_OP_WRITE] = wl->meta == BC_META_CREATE_WRITE;
	if (dirs || wl->file_shared) {
		jt->m_first = 0;
		jt->m_step = 1;
		jt->m_count = n;
		jt->m_cur = (uint32_t)((uint64_t)n * jt->jidx / jt->njobs);
	} else {
		jt->m_first = jt->f_before + jt->jidx;
		jt->m_step = jt->f_total ? jt->f_total : 1;
		jt->m_count = n > jt->m_first ? (n - jt->m_first + jt->m_step - 1) / jt->m_step : 0;
	}
	bc_opcnt_reset(&jt->meta);
	/*
	 * size_based: each entry of the share once per pass ("passes"), the
	 * kinds that change the tree at most once (their state ends them)
	 */
	s_meta_states(wl->meta, &need, &after);
	if (bc_workload_size_based(wl))
		jt->m_left = (uint64_t)jt->m_count * (need != after ? 1 : s_passes(wl));
	return 0;
}

/* offsets: random units over the window, or this job's sequential region */
static int s_offsets_init(struct bc_job *j, struct s_jtarget *jt, char *err, size_t errlen)
{
	const struct bc_workload *wl = &jt->wl;
	const struct bc_target *t = jt->t;
	uint64_t win = t->win_end - t->win_start, nblocks = win / wl->bs, lo, hi, share;
	uint32_t minbs = wl->bs, i;

	for (i = 0; i < wl->nbssplit; i++)
		if (wl->bssplit[i].bs < minbs)
			minbs = wl->bssplit[i].bs;
	if (wl->bs_min) /* a range: its sizes are multiples of its smallest */
		minbs = wl->bs_min;
	jt->win_start = t->win_start;
	jt->win_end = t->win_end;
	if (t->files)
		return s_fileset_init(jt, minbs, err, errlen);
	jt->align = wl->blockalign ? wl->blockalign : minbs;
	/* "seq_regions": "shared": every job walks the whole window from its start, as fio's
	 * numjobs clones do without offset_increment; else job j walks the j-th region */
	lo = wl->seq_shared ? 0 : (uint64_t)((unsigned __int128)nblocks * jt->jidx / jt->njobs);
	hi = wl->seq_shared ? nblocks
			    : (uint64_t)((unsigned __int128)nblocks * (jt->jidx + 1) / jt->njobs);
	if (!nblocks || (!bc_workload_random(wl) && hi == lo)) {
		snprintf(err, errlen,
			 "%s: the I/O window holds %llu blocks of %u bytes, too few for %u "
			 "sequential jobs",
			 t->path, (unsigned long long)nblocks, wl->bs, jt->njobs);
		return -EINVAL;
	}
	jt->seq_start = t->win_start + lo * wl->bs;
	jt->seq_end = t->win_start + hi * wl->bs;
	jt->seq_next = jt->seq_start;
	if (bc_workload_random(wl)) {
		jt->flags |= S_TF_RANDOM;
		if (wl->seq_pct) {
			jt->flags |= S_TF_SEQMIX;
			bc_seqmix_init(&jt->sm, wl->seq_pct, jt->seq_start);
		}
		/* every unit leaves room for the largest I/O: the window is never left */
		jt->nunits = (win - wl->bs) / jt->align + 1;
		if (wl->dist.kind != BC_DIST_UNIFORM) {
			jt->flags |= S_TF_DIST;
			/* the same hot set in every job and every step on this window */
			if (bc_dist_init(&jt->dist, &wl->dist, jt->nunits,
					 t->win_start ^ (t->win_end << 1) ^ 0x62632d64697374ull)) {
				snprintf(
				    err, errlen,
				    "%s: random_distribution: a zone with I/Os gets no block of "
				    "the %llu in the window",
				    t->path, (unsigned long long)jt->nunits);
				return -EINVAL;
			}
			if (wl->dist.kind == BC_DIST_HOTBAND &&
			    bc_dist_hotband_init(&jt->dist, win, wl->bs)) {
				snprintf(
				    err, errlen,
				    "%s: random_distribution hotband: the window of %llu bytes "
				    "is less than vdbench's minimum band of 10^6 bytes or than "
				    "bs %u",
				    t->path, (unsigned long long)win, wl->bs);
				return -EINVAL;
			}
		}
	}
	if (!bc_workload_size_based(wl))
		return 0;
	jt->flags |= S_TF_SIZED;
	if (!(jt->flags & S_TF_RANDOM) && !wl->io_size) {
		/* one sequential pass: exactly this job's region (passes: again from its start) */
		jt->remaining = (jt->seq_end - jt->seq_start) * s_passes(wl);
		return 0;
	}
	share = wl->io_size ? wl->io_size : win * s_passes(wl);
	/* whole smallest blocks per job, so the last I/O keeps the size alignment */
	share = share / jt->njobs / minbs * minbs;
	jt->remaining = share;
	if ((jt->flags & S_TF_RANDOM) && !(jt->flags & (S_TF_DIST | S_TF_SPLIT)) &&
	    jt->align == wl->bs && !wl->nstreams && !wl->seq_pct) {
		/* uniform one pass: every block exactly once over all jobs, in random order */
		jt->flags |= S_TF_PERM;
		bc_perm_init(&jt->perm, jt->nunits, t->win_start ^ 0x62632d7061737321ull);
		jt->perm_lo = jt->nunits * jt->jidx / jt->njobs;
		jt->perm_n = jt->nunits * (jt->jidx + 1) / jt->njobs - jt->perm_lo;
		if (!wl->io_size) /* the permutation again for each further pass */
			jt->remaining = jt->perm_n * wl->bs * s_passes(wl);
		if (!jt->perm_n)
			jt->remaining = 0;
	}
	return 0;
}

/* alignment the device needs of every I/O size and random offset (O_DIRECT) */
static int s_check_align(const struct s_jtarget *jt, char *err, size_t errlen)
{
	const struct bc_workload *wl = &jt->wl;
	uint32_t lbs = jt->t->info.lbs > 512 ? jt->t->info.lbs : 512, i;

	if (!wl->direct || (jt->t->ops->caps & BC_TCAP_ANY_ALIGN))
		return 0;
	if (wl->bs_min % lbs) {
		snprintf(
		    err, errlen,
		    "%s: block size range from %u: not a multiple of the logical block size %u "
		    "that O_DIRECT requires",
		    jt->t->path, wl->bs_min, lbs);
		return -EINVAL;
	}
	for (i = 0; i < wl->nbssplit; i++) {
		if (wl->bssplit[i].bs % lbs) {
			snprintf(err, errlen,
				 "%s: bssplit size %u is not a multiple of the logical block size "
				 "%u that O_DIRECT requires",
				 jt->t->path, wl->bssplit[i].bs, lbs);
			return -EINVAL;
		}
	}
	if ((jt->flags & S_TF_RANDOM) && jt->align % lbs) {
		snprintf(err, errlen,
			 "%s: blockalign %llu is not a multiple of the logical block size %u that "
			 "O_DIRECT requires",
			 jt->t->path, (unsigned long long)jt->align, lbs);
		return -EINVAL;
	}
	return 0;
}

/* polled I/O only works on devices with poll queues: say which one has none */
static int s_check_hipri(const struct s_jtarget *jt, char *err, size_t errlen)
{
	char dir[512] = "";
	int on;

	if (jt->t->ops->caps & BC_TCAP_DISKLESS) {
		snprintf(err, errlen, "%s: hipri (IOPOLL) needs a block device with poll queues",
			 jt->t->path);
		return -EINVAL;
	}
	on = bc_sysfs_io_poll(jt->t->path);
	if (on == 1)
		return 0;
	bc_sysfs_disk_dir(jt->t->path, dir, sizeof(dir));
	snprintf(err, errlen,
		 "%s: hipri needs poll queues, but %s%s (for NVMe: load nvme with poll_queues=N)",
		 jt->t->path, dir[0] ? dir : "no block device is behind it",
		 on == 0  ? "/queue/io_poll is 0"
		 : dir[0] ? "/queue/io_poll is unreadable"
			  : "");
	return -EINVAL;
}

/*
 * A KV-cache store on target jt (engine/kvgen.h): this job's class, its
 * slots and log, whether evicted objects are trimmed ("auto": unless a
 * block device says it cannot discard), the buffers' size and the ops.
 */
static int s_kv_init(struct bc_job *j, struct s_jtarget *jt, char *err, size_t errlen)
{
	const struct bc_target *t = jt->t;
	uint32_t lbs = t->info.lbs > 512 ? t->info.lbs : 512, maxbs;
	bool trim = jt->wl.kv.trim == BC_KV_TRIM_ON;
	int64_t max_io = 0;
	int ret;

	if (jt->wl.kv.trim == BC_KV_TRIM_AUTO)
		trim = t->info.kind != BC_KIND_BLOCK || bc_sysfs_discards(t->path) != 0;
	jt->kv = malloc(sizeof(*jt->kv));
	if (!jt->kv) {
		snprintf(err, errlen, "job %u: out of memory", j->job_index);
		return -ENOMEM;
	}
	/* passthrough is not cut into the device's maximum transfer: its I/Os must fit it */
	if (t->info.kind == BC_KIND_NVME_CHAR)
		max_io = bc_sysfs_max_io(t->path);
	ret = bc_kvgen_init(jt->kv, &jt->wl, t->path, t->win_start, t->win_end, j->job_index,
			    jt->wl.iodepth, trim, max_io > 0 ? (uint32_t)max_io : 0, err, errlen);
	if (ret)
		return ret;
	maxbs = bc_kvgen_maxbs(jt->kv);
	if (jt->wl.direct && !(t->ops->caps & BC_TCAP_ANY_ALIGN) &&
	    (jt->kv->obj % lbs || (jt->kv->meta && jt->kv->mbytes % lbs))) {
		snprintf(err, errlen,
			 "%s: KV object and record sizes must be multiples of the logical block "
			 "size %u that O_DIRECT requires",
			 t->path, lbs);
		return -EINVAL;
	}
	jt->flags |= S_TF_KV;
	jt->bs = maxbs;
	jt->wl.bs = maxbs;
	bc_kvgen_used_ops(jt->kv, jt->used_op);
	return 0;
}

/* a sync key on a target without fsync or RWF flags: which key, on which volume */
static int s_sync_cap(const struct s_jtarget *jt, const char *key, char *err, size_t errlen)
{
	if (jt->t->ops->caps & BC_TCAP_SYNC)
		return 0;
	snprintf(err, errlen, "%s: \"%s\" needs a file or block device (%s has no fsync)",
		 jt->t->path, key, jt->t->ops->desc);
	return -EINVAL;
}

/*
 * The rest of fio's job shape (workload.h): sizes from a range, holes and
 * sequential runs, strided zones, flow, a low-water mark, synchronous
 * writes and syncs, a verify backlog
 */
static int s_shape_init(struct bc_job *j, struct s_jtarget *jt, char *err, size_t errlen)
{
	const struct bc_workload *wl = &jt->wl;
	int ret = 0;

	if (wl->bs_min && !jt->sg && !jt->kv) {
		jt->flags |= S_TF_BSRANGE;
		jt->bs_min = wl->bs_min;
		jt->bs_pow2 = !(wl->bs_min & (wl->bs_min - 1));
	}
	if (!(jt->flags & S_TF_RANDOM) && wl->seq_gap) {
		jt->seq_gap = wl->seq_gap;
		/* one pass over a window with holes: the I/Os that fit it, not its bytes */
		if ((jt->flags & S_TF_SIZED) && !wl->io_size)
			jt->remaining = (jt->seq_end - jt->seq_start + wl->seq_gap) /
					(jt->bs + wl->seq_gap) * jt->bs * s_passes(wl);
	}
	if (wl->seq_run > 1 && (jt->flags & S_TF_RANDOM)) {
		jt->flags |= S_TF_SEQMIX;
		jt->run_len = wl->seq_run;
		bc_seqmix_init(&jt->sm, 0, jt->seq_start);
	}
	if (wl->zone_size) {
		/* every job walks the zones from the window's start, as fio's clones do */
		jt->flags |= S_TF_ZONED;
		jt->flags &= ~(uint32_t)S_TF_PERM;
		jt->zone_size = wl->zone_size;
		jt->zone_range = wl->zone_range ? wl->zone_range : wl->zone_size;
		jt->zone_step = jt->zone_range + wl->zone_skip;
		jt->zone_first = jt->zone_base = jt->t->win_start;
		if (jt->zone_range < jt->bs || jt->zone_range % jt->align) {
			snprintf(
			    err, errlen,
			    "%s: zone_range %llu holds no whole block of %u bytes (aligned %llu)",
			    jt->t->path, (unsigned long long)jt->zone_range, jt->bs,
			    (unsigned long long)jt->align);
			return -EINVAL;
		}
		s_zone_set(jt);
	}
	if (wl->flow) {
		jt->flags |= S_TF_FLOW | S_TF_GATED;
		jt->flow_w = wl->flow;
		j->flow_w_total += wl->flow;
		j->gated = true;
	}
	if (wl->iodepth_low && wl->iodepth_low < jt->nslots) {
		jt->flags |= S_TF_LOW | S_TF_GATED;
		jt->low = wl->iodepth_low;
		j->gated = true;
	}
	if (wl->write_sync) {
		ret = jt->t->ops->caps & BC_TCAP_WSYNC ? 0
						       : s_sync_cap(jt, "write_sync", err, errlen);
		jt->wflags = wl->write_sync == BC_WSYNC_DSYNC ? RWF_DSYNC : RWF_SYNC;
	}
	if (!ret && (wl->fsync_every || wl->fdatasync_every)) {
		ret = s_sync_cap(jt, wl->fsync_every ? "fsync" : "fdatasync", err, errlen);
		jt->flags |= S_TF_SYNC;
		/* both: fio syncs on each count; the fsync, which covers the fdatasync, at its own
		 */
		jt->sync_every = wl->fsync_every ? wl->fsync_every : wl->fdatasync_every;
		jt->sync_op = wl->fsync_every ? BC_IO_FSYNC : BC_IO_FDATASYNC;
	}
	/* ioprio and RWF_NOWAIT are fields of a read or write SQE; a NOP's or URING_CMD's differ */
	if (!ret && bc_sqe_extra_init(&jt->sx, wl)) {
		jt->sqe_x = true;
		if ((jt->sx.prio || jt->sx.prio_hi || jt->sx.rw_flags) &&
		    !(jt->t->ops->caps & BC_TCAP_SYNC)) {
			snprintf(err, errlen,
				 "%s: \"ioprio\", \"cmdprio_pct\" and \"nowait\" need a file or "
				 "block device (%s: its I/O is no read or write SQE)",
				 jt->t->path, jt->t->ops->desc);
			ret = -EINVAL;
		}
	}
	if (!ret && wl->end_fsync) {
		ret = s_sync_cap(jt, "end_fsync", err, errlen);
		jt->end_sync = true;
	}
	jt->syncs.lat_min_ns = UINT64_MAX;
	if (!ret && wl->verify_backlog && wl->verify) {
		jt->flags |= S_TF_VBACK;
		jt->backlog = wl->verify_backlog;
		jt->vb_cap = wl->verify_backlog + jt->nslots;
		jt->vb = calloc(jt->vb_cap, sizeof(*jt->vb));
		if (!jt->vb) {
			snprintf(err, errlen, "job %u: out of memory", j->job_index);
			return -ENOMEM;
		}
	}
	return ret;
}

/*
 * Default content (random, stamped): each slot cycles its writes through
 * enough buffers that the slots together hold S_ROT_BYTES of distinct
 * content, so a compressor with units larger than the write does not find
 * one content repeated in neighbouring blocks; a mix reads into a buffer
 * of its own, so a write never carries what a read brought in.
 */
static void s_rotation_init(struct s_jtarget *jt)
{
	bool mixed = jt->used_op[BC_OP_READ] && jt->used_op[BC_OP_WRITE];
	uint64_t have = (uint64_t)jt->buf_bytes * jt->nslots;
	uint32_t nw = 1;

	jt->nrot = 1;
	if ((jt->flags & (S_TF_DATA | S_TF_VERIFY | S_TF_KV)) || jt->sg ||
	    !jt->used_op[BC_OP_WRITE] || !jt->nslots)
		return;
	while (nw < S_ROT_MAX && have * nw < S_ROT_BYTES)
		nw <<= 1;
	if (nw == 1 && !mixed)
		return;
	jt->rot_mask = nw - 1;
	jt->nrot = nw + (mixed ? 1 : 0);
	jt->rot_base = mixed ? 1 : 0;
}

/* everything about target i that does not need the ring */
static int s_target_init(struct bc_job *j, const struct bc_job_cfg *cfg, int i, char *err,
			 size_t errlen)
{
	struct s_jtarget *jt = &j->tg[i];
	const struct bc_target *t = &cfg->targets[i];
	int ret, d;

	if (!t->ops) {
		snprintf(err, errlen, "job %u: target %d is not open", j->job_index, i);
		return -EBADF;
	}
	jt->t = t;
	jt->prep = t->ops->prep;
	jt->file_index = -1;
	jt->wl = cfg->vwl ? cfg->vwl[i] : *cfg->wl;
	if (!jt->wl.bs || !jt->wl.iodepth) {
		snprintf(err, errlen, "%s: invalid workload (bs %u, iodepth %u)", t->path,
			 jt->wl.bs, jt->wl.iodepth);
		return -EINVAL;
	}
	/* "jobs": the first of the step's threads drive the volume, the others leave it */
	jt->njobs = jt->wl.jobs && jt->wl.jobs < j->numjobs ? jt->wl.jobs : j->numjobs;
	jt->jidx = j->job_index;
	/*
	 * a file set's workloads (runs) at once: files are dealt over all their
	 * jobs, so that no two use a file at once (vdbench's busy files), the
	 * ones with file_shared apart
	 */
	for (d = 0; t->files && d < cfg->ntargets; d++) {
		const struct bc_workload *w = cfg->vwl ? &cfg->vwl[d] : cfg->wl;
		uint32_t nj = w->jobs && w->jobs < j->numjobs ? w->jobs : j->numjobs;

		if (cfg->targets[d].files != t->files || w->file_shared)
			continue;
		jt->f_before += d < i ? nj : 0;
		jt->f_total += nj;
	}
	if (jt->jidx >= jt->njobs) {
		jt->park_cap = 1;
		return 0;
	}
	if (jt->wl.verify && !(t->ops->caps & BC_TCAP_ANY_ALIGN) &&
	    (t->win_start % BC_VERIFY_BLOCK || (jt->wl.blockalign % BC_VERIFY_BLOCK) ||
	     jt->wl.bs % BC_VERIFY_BLOCK)) {
		snprintf(err, errlen,
			 "%s: verify checks 4 KiB blocks at 4 KiB offsets: the window start %llu, "
			 "bs and blockalign must be multiples of 4096",
			 t->path, (unsigned long long)t->win_start);
		return -EINVAL;
	}
	if (jt->wl.verify)
		jt->flags |= S_TF_VERIFY;
	if (jt->wl.meta) {
		ret = s_meta_init(jt, err, errlen);
	} else if (bc_workload_kv(&jt->wl)) {
		ret = s_kv_init(j, jt, err, errlen);
	} else {
		s_sizes_init(jt);
		s_ops_init(jt);
		ret = s_offsets_init(j, jt, err, errlen);
		if (!ret)
			ret = s_check_align(jt, err, errlen);
	}
	if (!ret && cfg->wl->hipri)
		ret = s_check_hipri(jt, err, errlen);
	if (ret)
		return ret;
	bc_splace_init(&jt->place, NULL, &jt->wl.placement);
	if (jt->wl.nstreams && !jt->kv) {
		unsigned k;
		int o;

		/* the streams' tables; the slots' buffers hold the largest stream I/O */
		jt->sg = malloc(sizeof(*jt->sg));
		if (!jt->sg) {
			snprintf(err, errlen, "job %u: out of memory", j->job_index);
			return -ENOMEM;
		}
		ret = bc_sgens_init(
		    jt->sg, &jt->wl, t->path, t->win_start, t->win_end,
		    jt->wl.seq_shared ? 0 : jt->jidx, jt->wl.seq_shared ? 1 : jt->njobs,
		    (t->ops->caps & BC_TCAP_ANY_ALIGN) ? 0 : t->info.lbs,
		    t->win_start ^ (t->win_end << 1) ^ 0x62632d7374726dull, err, errlen);
		if (ret)
			return ret;
		memset(jt->used_op, 0, sizeof(jt->used_op));
		for (k = 0; k < jt->sg->n; k++)
			for (o = 0; o < BC_OP_NR; o++)
				jt->used_op[o] |= jt->sg->g[k].used_op[o];
		if (jt->sg->maxbs > jt->wl.bs)
			jt->wl.bs = jt->sg->maxbs;
	}
	jt->think_ns = jt->wl.thinktime_us * 1000;
	jt->delay_ns = (uint64_t)jt->wl.start_delay_s * BC_NS_PER_S;
	bc_rate_init(&jt->rate, jt->wl.rate_iops, jt->wl.rate_bw, jt->njobs, 0);
	for (d = 0; d < 2; d++) {
		bc_rate_init(&jt->rate_dir[d], jt->wl.rate_iops_dir[d], jt->wl.rate_bw_dir[d],
			     jt->njobs, 0);
		jt->rate_dir[d].open = jt->wl.lat_intended;
		jt->dir_rated |= bc_rate_on(&jt->rate_dir[d]);
	}
	jt->rate.open = jt->wl.lat_intended;
	jt->poisson = jt->wl.rate_poisson;
	jt->intended = jt->wl.lat_intended;
	if (jt->think_ns || jt->delay_ns || bc_rate_on(&jt->rate) || jt->dir_rated) {
		jt->flags |= S_TF_GATED;
		j->gated = true;
	}
	if (bc_datagen_wanted(&jt->wl)) {
		if (bc_datagen_init(&jt->dg, &jt->wl,
				    cfg->seed ^ ((uint64_t)i << 40) ^ (uint64_t)j->job_index)) {
			snprintf(err, errlen, "job %u: out of memory", j->job_index);
			return -ENOMEM;
		}
		jt->flags |= S_TF_DATA;
	}
	jt->nslots = jt->wl.iodepth;
	jt->park_cap = jt->nslots;
	/* trims move no data, but a slot keeps its buffer for the writes of a mix */
	jt->buf_bytes = (uint32_t)((jt->wl.bs + j->buf_align - 1) / j->buf_align * j->buf_align);
	ret = s_shape_init(j, jt, err, errlen);
	if (!ret)
		s_rotation_init(jt);
	return ret;
}

static void s_free(struct bc_job *j)
{
	int i;

	if (!j)
		return;
	free(j->stat_mem);
	free(j->bufs);
	free(j->batch);
	free(j->ios);
	for (i = 0; j->tg && i < j->ntargets; i++) {
		free(j->tg[i].park);
		free(j->tg[i].vb);
		free(j->tg[i].f_resume);
		free(j->tg[i].sg);
		bc_datagen_free(&j->tg[i].dg);
		if (j->tg[i].kv)
			bc_kvgen_free(j->tg[i].kv);
		free(j->tg[i].kv);
	}
	free(j->tg);
	free(j->run_vol);
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cv);
	free(j);
}

struct bc_job *bc_job_new(const struct bc_job_cfg *cfg, char *err, size_t errlen)
{
	const struct bc_workload *wl = cfg->wl;
	struct bc_job *j = NULL;
	pthread_attr_t attr;
	uint64_t nios = 0, entries, bytes = 0;
	uint32_t maxlbs = 0;
	unsigned i, s;
	int t, ret;

	if (!wl || !cfg->targets || cfg->ntargets < 1 || cfg->ntargets > UINT16_MAX ||
	    !cfg->numjobs || cfg->job_index >= cfg->numjobs || !wl->bs || !wl->iodepth) {
		snprintf(err, errlen, "job %u: invalid job configuration", cfg->job_index);
		return NULL;
	}
	for (t = 0; t < cfg->ntargets; t++) {
		nios += cfg->vwl ? cfg->vwl[t].iodepth : wl->iodepth;
		if (cfg->targets[t].info.lbs > maxlbs)
			maxlbs = cfg->targets[t].info.lbs;
	}
	for (entries = 1; entries < nios; entries <<= 1)
		;
	if (entries > BC_JOB_MAX_ENTRIES) {
		snprintf(err, errlen,
			 "iodepth x %d volumes = %llu I/Os in flight per job; one io_uring "
			 "holds at most %u (lower iodepth or split volumes over more agents)",
			 cfg->ntargets, (unsigned long long)nios, BC_JOB_MAX_ENTRIES);
		return NULL;
	}
	if (posix_memalign((void **)&j, S_CACHELINE, sizeof(*j))) {
		snprintf(err, errlen, "job %u: out of memory", cfg->job_index);
		return NULL;
	}
	memset(j, 0, sizeof(*j));
	j->second_ns = BC_NS_PER_S;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	j->wl = *wl;
	j->ntargets = cfg->ntargets;
	j->job_index = cfg->job_index;
	j->numjobs = cfg->numjobs;
	j->nios = (unsigned)nios;
	j->info.ios = j->nios;
	j->buf_align = maxlbs > S_BUF_ALIGN ? maxlbs : S_BUF_ALIGN;
	bc_rand_seed(&j->rng, cfg->seed + cfg->job_index);
	atomic_init(&j->sealed, 0);
	atomic_init(&j->released, 0);
	atomic_init(&j->cancel, false);
	atomic_init(&j->stop_k, UINT32_MAX);
	atomic_init(&j->finished, false);
	atomic_init(&j->err, 0);

	j->tg = calloc((size_t)cfg->ntargets, sizeof(*j->tg));
	j->ios = calloc(j->nios, sizeof(*j->ios));
	j->batch = calloc(j->nios, sizeof(*j->batch));
	if (cfg->run_vol) {
		j->run_vol = malloc((size_t)cfg->ntargets * sizeof(*j->run_vol));
		if (j->run_vol)
			memcpy(j->run_vol, cfg->run_vol,
			       (size_t)cfg->ntargets * sizeof(*j->run_vol));
	}
	if (!j->tg || !j->ios || !j->batch || (cfg->run_vol && !j->run_vol)) {
		snprintf(err, errlen, "job %u: out of memory", j->job_index);
		goto fail;
	}
	for (t = 0, i = 0; t < j->ntargets; t++) {
		struct s_jtarget *jt = &j->tg[t];

		if (s_target_init(j, cfg, t, err, errlen))
			goto fail;
		jt->park = calloc(jt->park_cap, sizeof(*jt->park));
		if (!jt->park) {
			snprintf(err, errlen, "job %u: out of memory", j->job_index);
			goto fail;
		}
		jt->slot0 = i;
		for (s = 0; s < jt->nslots; s++, i++) {
			j->ios[i].target = (uint16_t)t;
			j->ios[i].len = jt->bs;
			j->ios[i].nop_full = jt->t->ops->nop_full;
			j->ios[i].tmo_full = jt->t->ops->timeout_full;
		}
		bytes += (uint64_t)jt->buf_bytes * (jt->nrot ? jt->nrot : 1) * jt->nslots;
	}
	/* volumes this job does not drive ("jobs") have no slots in it */
	j->nios = i;
	j->info.ios = i;
	j->bufs_bytes = (size_t)bytes;
	ret = bc_affinity_job(wl->cpus_allowed, wl->cpus_split, cfg->targets, cfg->ntargets,
			      cfg->job_index, &j->cpus, &j->pinned, j->info.cpus,
			      sizeof(j->info.cpus), err, errlen);
	if (ret)
		goto fail;

	/* the thread sets up its own ring and memory, on its own CPUs */
	pthread_attr_init(&attr);
	if (j->pinned)
		pthread_attr_setaffinity_np(&attr, sizeof(j->cpus), &j->cpus);
	ret = pthread_create(&j->thread, &attr, s_thread, j);
	pthread_attr_destroy(&attr);
	if (ret) {
		snprintf(err, errlen, "job %u: cannot create its thread: %s", j->job_index,
			 strerror(ret));
		goto fail;
	}
	j->thread_ok = true;
	pthread_mutex_lock(&j->mu);
	while (!j->setup_state)
		pthread_cond_wait(&j->cv, &j->mu);
	pthread_mutex_unlock(&j->mu);
	if (j->setup_state < 0) {
		snprintf(err, errlen, "%s", j->setup_err);
		goto fail;
	}
	return j;
fail:
	bc_job_destroy(&j);
	return NULL;
}

void bc_job_set_second(struct bc_job *j, uint64_t second_ns)
{
	pthread_mutex_lock(&j->mu);
	j->second_ns = second_ns ? second_ns : BC_NS_PER_S;
	pthread_mutex_unlock(&j->mu);
}

int bc_job_start(struct bc_job *j, uint64_t start_mono_ns, uint32_t seconds)
{
	pthread_mutex_lock(&j->mu);
	if (j->started || j->quit) {
		pthread_mutex_unlock(&j->mu);
		return -EBUSY;
	}
	j->start_ns = start_mono_ns;
	j->seconds = seconds;
	j->started = j->go = true;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	return 0;
}

static int s_vol(const struct bc_job *j, int target)
{
	return j->run_vol ? j->run_vol[target] : target;
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
			/* sealed and never collected: seconds past a STOP that came late */
			sealed = atomic_load_explicit(&j->sealed, memory_order_acquire);
			for (; j->c_released != sealed; j->c_released++) {
				s = &j->slots[j->c_released % BC_JOB_SLOTS];
				for (i = 0; i < j->ntargets; i++) {
					bc_volstat_merge(&acc[s_vol(j, i)], &s->vs[i]);
					bc_volstat_reset(&s->vs[i]);
				}
			}
			for (i = 0; i < j->ntargets; i++)
				bc_volstat_merge(&acc[s_vol(j, i)], &j->drain[i]);
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
		bc_volstat_merge(&acc[s_vol(j, i)], &s->vs[i]);
		bc_volstat_reset(&s->vs[i]);
	}
	*merged = s->merged;
	j->c_first = s->first;
	j->c_next = s->last + 1;
	atomic_store_explicit(&j->released, ++j->c_released, memory_order_release);
	return 1;
}

const struct bc_kvgen *bc_job_kv(struct bc_job *j, int target)
{
	if (target < 0 || target >= j->ntargets ||
	    !atomic_load_explicit(&j->finished, memory_order_acquire))
		return NULL;
	return j->tg[target].kv;
}

bool bc_job_finished(struct bc_job *j)
{
	return atomic_load_explicit(&j->finished, memory_order_acquire);
}

void bc_job_stop_at(struct bc_job *j, uint32_t seconds)
{
	atomic_store_explicit(&j->stop_k, seconds, memory_order_relaxed);
}

void bc_job_cancel(struct bc_job *j)
{
	atomic_store_explicit(&j->cancel, true, memory_order_relaxed);
	/* a job never started ends too, rather than wait for a START that will not come */
	pthread_mutex_lock(&j->mu);
	j->quit = true;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
}

void bc_job_get_info(const struct bc_job *j, struct bc_job_info *info)
{
	*info = j->info;
}

int bc_job_error(struct bc_job *j)
{
	return atomic_load_explicit(&j->err, memory_order_relaxed);
}

void bc_job_syncs(struct bc_job *j, int vol, struct bc_opcnt *acc)
{
	int t;

	if (!atomic_load_explicit(&j->finished, memory_order_acquire))
		return;
	for (t = 0; t < j->ntargets; t++)
		if (s_vol(j, t) == vol)
			bc_opcnt_merge(acc, &j->tg[t].syncs);
}

void bc_job_meta(struct bc_job *j, int vol, struct bc_job_meta *acc)
{
	const struct s_jtarget *jt;
	int t;

	if (!atomic_load_explicit(&j->finished, memory_order_acquire))
		return;
	for (t = 0; t < j->ntargets; t++) {
		jt = &j->tg[t];
		if (s_vol(j, t) != vol || !(jt->flags & S_TF_META))
			continue;
		bc_opcnt_merge(&acc->kind[jt->wl.meta], &jt->meta);
		acc->passed[jt->wl.meta] += jt->m_passed;
		acc->done[jt->wl.meta] |= jt->m_out;
		acc->used[jt->wl.meta] = true;
	}
}

int bc_job_verify_bad(struct bc_job *j, int vol, struct bc_job_bad *out, int max)
{
	const struct s_jtarget *jt;
	int n = 0, m, t;

	if (!atomic_load_explicit(&j->finished, memory_order_acquire))
		return 0;
	for (t = 0; t < j->ntargets && n < max; t++) {
		if (s_vol(j, t) != vol)
			continue;
		jt = &j->tg[t];
		m = (int)jt->nbad < max - n ? (int)jt->nbad : max - n;
		memcpy(out + n, jt->bad, (size_t)m * sizeof(*out));
		n += m;
	}
	return n;
}

void bc_job_destroy(struct bc_job **jp)
{
	struct bc_job *j = *jp;

	if (!j)
		return;
	if (j->thread_ok) {
		bc_job_cancel(j);
		pthread_join(j->thread, NULL);
	}
	s_free(j);
	*jp = NULL;
}
