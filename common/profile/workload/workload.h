/*
 * profile/workload/workload.h - what a step runs on a volume: the workload's types (op
 * kind, block sizes, offset distribution, placement, streams), the
 * built-in defaults, and the rules every reader of a workload asks (which
 * ops, does it write, is it random). No JSON here: the keys that spell a
 * workload are the table of profile/workload/keys.h, a workload object is read and
 * written by profile/workload/json.h. Below everything else in common/profile.
 */
#ifndef BC_PROFILE_WORKLOAD_WORKLOAD_H
#define BC_PROFILE_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/volume/fdp.h"

/* I/O alignment unit: the logical block size every O_DIRECT device accepts */
#define BC_SECTOR 512u

enum bc_rw {
	BC_RW_READ = 0,
	BC_RW_WRITE,
	BC_RW_RANDREAD,
	BC_RW_RANDWRITE,
	BC_RW_RW, /* sequential mixed */
	BC_RW_RANDRW,
	BC_RW_TRIM, /* sequential trim (fallocate punch hole) */
	BC_RW_RANDTRIM,
};
#define BC_RW_LAST BC_RW_RANDTRIM

extern const char *const bc_rw_names[]; /* indexed by enum bc_rw, NULL after the last */

/* how writes reach stable storage: "write_sync" (fio's sync=, vdbench's openflags) */
enum bc_write_sync {
	BC_WSYNC_NONE = 0,
	BC_WSYNC_SYNC,	/* O_SYNC semantics per write (RWF_SYNC) */
	BC_WSYNC_DSYNC, /* O_DSYNC semantics per write (RWF_DSYNC) */
};

/*
 * "submit_mode": when the job sends the I/Os it prepared from a batch of
 * completions (docs/engine.md, "Submission policy"). auto: batch, or pairs
 * where a short trial at PREPARE finds them faster on the step's own volumes
 */
enum bc_submit_mode {
	BC_SUBMIT_AUTO = 0,
	BC_SUBMIT_BATCH, /* all of them in the next io_uring_enter */
	BC_SUBMIT_PAIRS, /* two at a time as they are prepared: never plugged */
	BC_SUBMIT_EACH,	 /* one io_uring_enter per I/O, as fio's iodepth_batch_submit=1 */
};

/* bounds of the vocabulary the table of profile/workload/keys.c parses */
#define BC_PATTERN_MAX 64
#define BC_BSSPLIT_MAX 16
#define BC_ZONES_MAX   16
#define BC_CPUS_MAX    128 /* "cpus_allowed" text, e.g. "0-7,16-23" or "numa" */

/*
 * A block size's share in millionths of the I/Os (not of bytes): "4k/4.5"
 * is 45000, so a percent has four decimals, as vdbench's xfersize
 * distributions are written (4.5, 41.05); a split sums to BC_SPLIT_ALL.
 * rwmixread is held the same way (vdbench's rdpct=83.14).
 */
#define BC_SPLIT_ALL  1000000u
#define BC_SPLIT_PCT1 (BC_SPLIT_ALL / 100) /* one percent */
struct bc_bssplit {
	uint32_t bs;  /* bytes */
	uint32_t ppm; /* millionths of the I/Os, > 0 */
};

enum bc_dist_kind {
	BC_DIST_UNIFORM = 0,
	BC_DIST_ZIPF,	/* param: theta > 0 */
	BC_DIST_PARETO, /* param: h in (0, 1): the hottest 1-h of the blocks take h of the I/Os */
	BC_DIST_NORMAL, /* param: sigma, percent of the window, centred on its middle */
	BC_DIST_ZONED,	/* zones: access % to range %, in window order */
	/*
	 * vdbench's hotband: the window is the band, random I/Os drawn from
	 * vdbench's cache-hit curve, biased to its start, writes 1% further
	 * in (engine/dist.h)
	 */
	BC_DIST_HOTBAND,
};

struct bc_zone {
	uint32_t access_pct; /* of the I/Os */
	uint32_t range_pct;  /* of the window */
};

struct bc_dist_spec {
	enum bc_dist_kind kind;
	double param;
	uint32_t nzones; /* BC_DIST_ZONED: zones in window order, both columns sum to 100 */
	struct bc_zone zones[BC_ZONES_MAX];
};

/*
 * Placement of writes on an FDP namespace (profile/workload/streams.c, docs/fdp.md):
 * "volume" applies the volume's own "fdp" policy, "none" writes without a
 * directive (DTYPE 0), a list of indexes into the volume's "fdp" pids is
 * used round-robin by each job. The values match struct bc_io_desc.placement.
 */
#define BC_PLACEMENT_VOLUME (-1)
#define BC_PLACEMENT_NONE   (-2)
struct bc_placement {
	int8_t kind; /* BC_PLACEMENT_VOLUME (the zero value is mapped to it), _NONE, or 1: list */
	uint8_t n;   /* kind 1: indexes in idx */
	uint16_t idx[BC_FDP_PIDS_MAX];
};

/*
 * One stream of a multi-stream workload ("streams", profile/workload/streams.c): its
 * share of the I/Os (or bytes), op mix, sizes, offset distribution, sequential
 * share, region of the volume's window and lifetime class. A stream's keys
 * that are not given take the workload's values where "streams" is written.
 *
 * At most 64 streams on a volume: a vdbench parameter file runs every wd=
 * on an sd= as one stream; hand-written files have up to 9 of them, a
 * hot-spot generator's output 51 (the corpus in tests/data/corpus). A
 * workload carries its streams inline and is copied per step and per job
 * target: 46 KiB at 64 (704 bytes a stream). A stream is picked per I/O in
 * constant time whatever their number (engine/streamgen.h), and only the
 * streams given go on the wire.
 */
#define BC_STREAMS_MAX	   64
#define BC_STREAM_NAME_MAX 32
struct bc_stream_pos {
	bool pct;	/* pct of the window, else bytes */
	double pct_val; /* 0..100 */
	uint64_t bytes;
};
/*
 * The KV-cache workload (profile/workload/kv.h, docs/kv.md): a stream is an
 * object class (its bs the object size, its range the slots' region) or a
 * metadata log (its bs the record size, its range the ring), or neither.
 */
enum bc_kv_role { BC_KV_NONE = 0, BC_KV_CLASS, BC_KV_LOG };
struct bc_kv_class {
	uint8_t role;	     /* enum bc_kv_role */
	uint32_t workers;    /* jobs working for the class */
	uint64_t stores;     /* store records per step, over its workers */
	uint64_t prefetches; /* prefetch records per step, over its workers */
	uint64_t capacity;   /* bytes of live objects, over its workers; 0: capacity_pct */
	double capacity_pct; /* percent of the class's region (each worker of its part) */
	double store_rate;   /* stores per second over its workers; 0: stores / pace, or unpaced */
	struct bc_dist_spec popularity; /* a prefetch's rank among the live objects, newest first */
	char meta[BC_STREAM_NAME_MAX];	/* the log its records go to, "" none */
};
enum bc_kv_trim { BC_KV_TRIM_AUTO = 0, BC_KV_TRIM_ON, BC_KV_TRIM_OFF };
struct bc_kv {
	bool given;   /* the workload has a "kv" object */
	uint8_t trim; /* enum bc_kv_trim: evicted objects trimmed (auto: where the target trims) */
	uint32_t pace_s; /* a class without store_rate stores at stores / pace */
	uint32_t max_io; /* an object's I/Os at most this large; 0: BC_KV_MAX_IO */
	char trace[256]; /* a trace to replay (docs/kv.md), "" none */
};

struct bc_stream {
	char name[BC_STREAM_NAME_MAX];
	char cls[BC_STREAM_NAME_MAX]; /* lifetime class ("hot_churn", "cold", ...) */
	double share;		      /* relative weight > 0 */
	enum bc_rw rw;
	uint32_t rwmixread_ppm, rwmixtrim; /* as struct bc_workload's */
	uint32_t bs;			   /* bytes; with a split, its largest size */
	uint32_t nbssplit;
	struct bc_bssplit bssplit[BC_BSSPLIT_MAX];
	uint32_t blockalign; /* 0: the stream's smallest bs */
	struct bc_dist_spec dist;
	uint32_t seq_pct;	       /* random kinds: percent continuing sequentially */
	bool range_set;		       /* else the whole window */
	struct bc_stream_pos off;      /* from the window's start */
	struct bc_stream_pos len;      /* 0 bytes: to the window's end */
	struct bc_placement placement; /* kind 0: the workload's placement */
	struct bc_kv_class kv;	       /* a KV class or log (kv.h), role 0 otherwise */
};

/*
 * Every field's zero value means "off" or "the default", so a workload
 * built in code only sets what it needs (sqpoll_cpu only matters with sqpoll).
 */
/*
 * "stop_steady": {"criterion", "window", "ramp"}: the step ends once its
 * total's per-second IOPS or bandwidth is steady over a window (fio's
 * steadystate, ss_dur, ss_ramp). criterion: "iops:2%", "bw_slope:0.1%",
 * "bw:10m" (bytes/s), "iops:500". The rule is results/steadystop.h's.
 */
enum bc_steady_metric {
	BC_SS_NONE = 0,
	BC_SS_IOPS,	  /* max deviation of IOPS from the window's mean */
	BC_SS_IOPS_SLOPE, /* least-squares slope of IOPS over the window */
	BC_SS_BW,	  /* the same of bytes per second */
	BC_SS_BW_SLOPE,
};
struct bc_steady_spec {
	uint32_t metric;   /* enum bc_steady_metric */
	uint32_t pct;	   /* 1: limit is a percent of the window's mean, 0: absolute */
	double limit;	   /* per second: IOPS, bytes/s; or percent */
	uint32_t window_s; /* "window": the seconds judged at once (fio's ss_dur) */
	uint32_t ramp_s;   /* "ramp": seconds after the step's ramp before the first */
};

/* a set of workload keys, bit i for bc_wl_keys[i] (profile/workload/keys.h) */
typedef unsigned __int128 bc_wl_keyset;

struct bc_workload {
	enum bc_rw rw;
	uint32_t rwmixread_ppm; /* reads for rw/randrw, millionths (BC_SPLIT_ALL: all) */
	uint32_t bs;	    /* bytes; with a bssplit, its largest size (buffers, window checks) */
	uint32_t iodepth;   /* in flight per job per volume */
	uint32_t numjobs;   /* threads (one io_uring each) per agent */
	bool direct;	    /* O_DIRECT */
	uint32_t ramp_s;    /* seconds excluded from the measured window */
	uint32_t runtime_s; /* measured seconds after the ramp */

	uint32_t rwmixtrim; /* whole percent of trims for rw/randrw; writes get the rest */
	uint32_t nbssplit;  /* 0: every I/O is bs bytes */
	struct bc_bssplit bssplit[BC_BSSPLIT_MAX];
	uint32_t blockalign;	  /* bytes; random offsets are multiples of it; 0: smallest bs */
	struct bc_dist_spec dist; /* random offsets only */
	uint32_t batch_submit;	  /* iodepth_batch_submit: hold SQEs until this many; 0 = 1 */
	uint32_t batch_complete;  /* iodepth_batch_complete: wait for this many CQEs; 0 = 1 */
	uint32_t submit_mode;	  /* enum bc_submit_mode */
	char cpus_allowed[BC_CPUS_MAX]; /* "" (any CPU), "numa" or a list "0-3,8" */
	bool cpus_split;		/* cpus_allowed_policy "split": job i on the i-th CPU */
	uint64_t rate_iops;		/* per volume, over all jobs; 0 = unlimited */
	uint64_t rate_bw;		/* bytes/s per volume, over all jobs; 0 = unlimited */
	bool size_based;		/* one pass over the window (or io_size), then stop */
	uint64_t io_size;		/* bytes per volume over all jobs; 0 = the window */
	uint32_t passes;		/* size-bound: this many times the one pass (0 = once) */
	uint64_t thinktime_us;		/* per slot: completion to next submission */
	bool verify;			/* writes carry headers, reads check them */
	bool sqpoll;			/* IORING_SETUP_SQPOLL */
	int32_t sqpoll_cpu;		/* SQPOLL thread's CPU, -1 = not pinned */
	bool hipri;			/* IORING_SETUP_IOPOLL (device needs poll queues) */
	/*
	 * Arrivals and run shape of a volume (docs/profiles.md): per-direction
	 * rate caps beside the ones above, exponential inter-arrival times
	 * (Poisson arrivals), latency from the arrival's intended time rather
	 * than from the submission, a start delay, how many of the step's job
	 * threads drive it (0: all) and the share of a random workload's I/Os
	 * that continue sequentially from the one before.
	 */
	uint64_t rate_iops_dir[2]; /* [0] reads, [1] writes; 0 = unlimited */
	uint64_t rate_bw_dir[2];   /* bytes/s */
	bool rate_poisson;	   /* "rate_process": "poisson" */
	bool lat_intended;	   /* "latency_from": "intended" */
	uint32_t start_delay_s;	   /* the volume's I/O starts this long after the step's */
	uint32_t jobs;		   /* threads driving it, <= numjobs; 0 = all numjobs */
	uint32_t seq_pct;	   /* random kinds: percent of I/Os continuing sequentially */
	/*
	 * the part of the volume's I/O window this workload uses (bytes, or a
	 * percent of the window as fio's offset=40%, size=20%; length 0: the rest)
	 */
	struct bc_stream_pos window_offset, window_length;
	/*
	 * Content of writes (docs/profiles.md "Data reduction"): each chunk of
	 * compress_chunk bytes is compress_pct percent zeros after random data;
	 * dedupe_pct percent of the dedupe_unit units of a write repeat the new
	 * unit written last (or, with dedupe_sets, one of that many contents).
	 * All off: random data, unique per 4 KiB.
	 */
	uint32_t compress_pct;	 /* 0..100 (100: every byte zero, or the buffer_pattern) */
	uint32_t compress_chunk; /* bytes; 0: 512 */
	uint32_t dedupe_pct;	 /* 0..100 */
	uint32_t dedupe_unit;	 /* bytes; 0: 4096 */
	uint32_t dedupe_sets;	 /* distinct repeated contents; 0: repeats of the last new unit */
	bool seq_shared; /* "seq_regions": "shared": sequential jobs each walk the whole window */
	/*
	 * "until_stopped": the step runs until the user stops it (Ctrl-C ends
	 * it at the next second and keeps its figures, then the run stops, as
	 * fio's time_based job without runtime); runtime is its cap
	 */
	bool until_stopped;
	/*
	 * "stop_bytes": the step ends once the bytes read and written on all
	 * its volumes after the ramp add up to this (vdbench's maxdata=), two
	 * seconds after the second that reached it; runtime is its cap. The
	 * coordinator counts and stops (STOP), so it is not on the wire. 0: none
	 */
	uint64_t stop_bytes;
	/*
	 * "stop_window_pct": the same count, its target this percent of the
	 * step's volumes' I/O windows added up (vdbench's maxdata=2: 200),
	 * which the coordinator learns from READY. With stop_bytes too, the
	 * smaller target ends the step. 0: none
	 */
	uint32_t stop_window_pct;
	/*
	 * "stop_steady": the step ends (STOP, as with stop_bytes) two seconds
	 * after the first second closing a window of steady.window_s seconds
	 * that meets the criterion, its seconds taken from steady.ramp_s
	 * seconds after the step's ramp; runtime is its cap. The coordinator
	 * judges; agents ignore it.
	 */
	struct bc_steady_spec steady;
	/*
	 * More of a job's shape as fio has it (docs/profiles.md): block sizes
	 * from a range, holes after sequential I/Os and sequential runs in
	 * random ones, strided zones, flow weights between the volumes of a job
	 * thread, a low-water mark for refilling the queue, synchronous writes,
	 * an fsync or fdatasync every N writes and one at the end, a verify of
	 * each N writes after them, and a fixed pattern as written content.
	 */
	uint32_t bs_min;	  /* "bs": "4k-512k": sizes drawn as fio's bsrange does; 0: none */
	uint64_t seq_gap;	  /* sequential kinds: bytes skipped after each I/O */
	uint32_t seq_run;	  /* random kinds: a new random offset every seq_run I/Os */
	uint64_t zone_size;	  /* strided zones: bytes done in a zone before the next */
	uint64_t zone_range;	  /* a zone's extent; 0: zone_size */
	uint64_t zone_skip;	  /* bytes skipped after a zone's range */
	uint32_t flow;		  /* this volume's weight among the thread's volumes with one */
	uint32_t iodepth_low;	  /* a drained queue refills only at or below this; 0: off */
	uint32_t write_sync;	  /* enum bc_write_sync */
	uint32_t fsync_every;	  /* an fsync after every this many writes; 0: none */
	uint32_t fdatasync_every; /* an fdatasync after every this many writes; 0: none */
	bool end_fsync;		  /* one fsync of the volume when the job's I/O is done */
	uint32_t verify_backlog;  /* verify: read back and check every this many writes */
	bool scramble;		  /* compress_pct 100: fio's scramble per write over it */
	/*
	 * Per SQE of a read or write (fio's io_uring engine: prio, prioclass,
	 * cmdprio_percentage, cmdprio_class, cmdprio, nowait, force_async):
	 * the I/O priority every one carries (class 0: none, the thread's own),
	 * cmdprio_pct percent of them cmdprio_class/cmdprio instead, RWF_NOWAIT,
	 * IOSQE_ASYNC on every force_async-th SQE
	 */
	uint32_t ioprio_class;	/* enum bc_ioprio_class */
	uint32_t ioprio;	/* level 0..7 */
	uint32_t cmdprio_pct;	/* 0..100 */
	uint32_t cmdprio_class; /* index in rt, be, idle */
	uint32_t cmdprio;	/* level 0..7 */
	bool nowait;
	uint32_t force_async;
	int32_t nice;	      /* the job thread's nice value (setpriority on its tid); 0: left */
	uint32_t pattern_len; /* "buffer_pattern": bytes of pattern, 0: none */
	uint8_t pattern[BC_PATTERN_MAX];
	/* profile/workload/streams.c: placement of writes, and the streams (none: one implicit
	 * stream) */
	struct bc_placement placement;
	bool share_bytes; /* "stream_share": "bytes": shares are of bytes, not of I/Os */
	uint32_t nstreams;
	struct bc_stream streams[BC_STREAMS_MAX];
	struct bc_kv kv; /* "kv" (profile/workload/kv.h): the streams are a KV-cache store */
	/*
	 * A volume with a "fileset" (profile/volume/fileset.h), as vdbench's
	 * FWD uses one: a job works on one file at a time, the next picked in
	 * order or at random (every file equally likely); a sequential kind
	 * reads or writes it from its start to its end, a random kind does as
	 * many bytes of random I/O in it as the file holds (vdbench's stopafter
	 * default); a file is used by one job at a time unless file_shared.
	 * fileset_format "fresh" deletes the tree's files before the step
	 * (vdbench's format=yes), "restart" completes what is missing or short.
	 */
	uint32_t fileselect; /* "fileselect": enum bc_fileselect */
	/*
	 * "fileselect_midpoint": "poisson"'s skew, the number of files over
	 * the mean of the index drawn (0: BC_FILESEL_MIDPOINT, vdbench's 3)
	 */
	uint32_t fileselect_midpoint;
	bool file_shared;	 /* "file_shared": jobs may use one file at once */
	uint32_t fileset_format; /* "fileset_format": enum bc_fileset_format */
	/*
	 * "file_stopafter": bytes (or a percent of the file) done in a file
	 * before the next is picked; a sequential kind's next visit to the file
	 * goes on where this one stopped (vdbench's stopafter); 0: the default
	 * (the whole file, or its size in random transfers)
	 */
	struct bc_stream_pos file_stopafter;
	/*
	 * "meta": a file set's metadata operation this workload performs
	 * instead of data I/O (enum bc_meta_kind; vdbench's fwd operation=,
	 * fio's filecreate / filestat / filedelete engines): one at a time per
	 * job, on the job's files (agent/engine/meta.h)
	 */
	uint32_t meta;
};

/*
 * "fileselect": the next file a job of a file set works on: in the tree's
 * order, each equally likely, or an exponential draw over the tree's
 * order (vdbench's fileselect=(poisson,midpoint))
 */
enum bc_fileselect {
	BC_FILESEL_SEQUENTIAL,
	BC_FILESEL_RANDOM,
	BC_FILESEL_POISSON,
};
/* vdbench's midpoint without a number (fileselect=poisson): the mean index is files / 3 */
#define BC_FILESEL_MIDPOINT 3

/* "fileset_format": what PREPARE does to a file set's tree before the step */
enum bc_fileset_format {
	BC_FILESET_RESTART = 0, /* create the files that are missing, complete the short ones */
	BC_FILESET_FRESH,	/* delete the tree's own files first, then build it anew */
	/* build nothing: the tree as it is (vdbench's format=no); "meta" workloads only */
	BC_FILESET_NONE,
};

/* "meta": the metadata operation of a file set's workload (agent/engine/meta.h says what each does)
 */
enum bc_meta_kind {
	BC_META_NONE = 0, /* data I/O, not metadata */
	BC_META_CREATE,	  /* a file that did not exist is created (and closed) */
	BC_META_DELETE,	  /* a file that exists is deleted */
	BC_META_GETATTR,  /* a file's attributes are read (statx) */
	BC_META_SETATTR,  /* a file's times are set (utimensat) */
	BC_META_ACCESS,	  /* a file's access is checked (faccessat) */
	BC_META_OPEN,	  /* a file is opened, timed, and closed */
	BC_META_CLOSE,	  /* a file is opened, and its close timed */
	BC_META_MKDIR,	  /* a directory of the tree that did not exist is made */
	BC_META_RMDIR,	  /* an empty directory of the tree is removed */
	/* create, then the file written to its size in bs transfers (vdbench's create) */
	BC_META_CREATE_WRITE,
	BC_META_NR,
};
extern const char *const bc_meta_names[BC_META_NR];
/* kind changes the tree (create, delete, setattr, mkdir, rmdir) */
bool bc_meta_modifies(uint32_t kind);

/* p in bytes of a window of win bytes, rounded down to align (a percent's share of win) */
uint64_t bc_pos_bytes(const struct bc_stream_pos *p, uint64_t win, uint64_t align);
/* p is unset: 0 bytes or 0% */
bool bc_pos_zero(const struct bc_stream_pos *p);

/* the built-in value of every workload key (what a profile without it gets) */
extern const struct bc_workload bc_workload_builtin;

/*
 * The one rule for which ops a kind issues: read/randread read,
 * write/randwrite write, trim/randtrim trim; rw/randrw read rwmixread_ppm
 * millionths, trim rwmixtrim percent and write the rest. A mask of the
 * BC_RW_OPS_* bits; an op with 0 percent is not in it.
 */
#define BC_RW_OPS_READ	1u
#define BC_RW_OPS_WRITE 2u
#define BC_RW_OPS_TRIM	4u
unsigned bc_rw_ops(enum bc_rw rw, uint32_t rwmixread_ppm, uint32_t rwmixtrim);

/* the mix writes or trims (a trim needs a writable fd too) */
bool bc_rw_writes(enum bc_rw rw, uint32_t rwmixread_ppm, uint32_t rwmixtrim);

/*
 * The workload changes data on its volumes: it writes or trims (a trim needs
 * a writable fd too), alone or in a mix; with streams, any stream does. The
 * target's open mode, the agent's PREPARE gate (in use, signatures,
 * destructive consent) and the coordinator's pre-flight all ask this; verify
 * does not change the answer (it adds headers to writes, checks to reads).
 */
bool bc_workload_writes(const struct bc_workload *wl);

/*
 * The workload reads its volumes, alone or in a mix; with streams, any
 * stream does: a file it reads is laid out first (engine/layout.h), and what
 * backs its window is checked at PREPARE.
 */
bool bc_workload_reads(const struct bc_workload *wl);

/* offsets are random (randread, randwrite, randrw, randtrim) */
bool bc_rw_random(enum bc_rw rw);
bool bc_workload_random(const struct bc_workload *wl);

/* the step stops after one pass (size_based or io_size) instead of at runtime */
bool bc_workload_size_based(const struct bc_workload *wl);

/* canonical text of a distribution ("zipf:1.2", "zoned:90/10:10/90") and a bssplit */
const char *bc_dist_format(const struct bc_dist_spec *d, char *buf, size_t len);
const char *bc_bssplit_format(const struct bc_workload *wl, char *buf, size_t len);

/* "volume", "none" or "[0,1]" */
const char *bc_placement_format(const struct bc_placement *p, char *buf, size_t len);

/* the placement as its profile value ("volume", "none" or an array); caller owns it */
cJSON *bc_placement_to_json(const struct bc_placement *p);

#endif
