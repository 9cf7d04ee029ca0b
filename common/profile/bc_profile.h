/*
 * bc_profile.h - benchmark profiles: JSON parse, validation with errors that
 * name the JSON path, defaults applied, and the resolved form.
 *
 * Profile shape (unknown keys anywhere are errors):
 * {
 *   "name": "seq-read-3client",          required, [A-Za-z0-9._-]{1,63}
 *   "description": "...",                optional
 *   "agents": [{"name": "client-04",     required, unique, [A-Za-z0-9._-]{1,63}
 *               "endpoint": "tcp://10.0.0.4:7470" | "local",     required
 *               "server_key": "<40-char Z85 key>"}],  optional: the agent's CURVE
 *                                        public key (else --known-hosts); not for "local"
 *   "destructive": false,                optional, also per volume (the volume's wins):
 *                                        a write step may overwrite data on the volume,
 *                                        if the agent also runs --allow-destructive
 *   "nodes": [{"name": "oss-1", "addresses": ["10.0.1.1"],       optional
 *              "metrics": ["http://10.0.1.1:9100/metrics"], "nic": "bond0",
 *              "nic_members": "eth0,eth1",             optional: the bond's links
 *              "nic_hash": "layer3+4",                 optional: the bond's xmit_hash_policy
 *              "prometheus": {"url": ..., "instance": ...},   optional, and
 *              "series": [{"name", "promql" | "metric"...}]}], see bc_profile_counters.c
 *   "volumes": [{"agent": "client-04",   required, must name a declared agent
 *                "path": "/dev/nvme1n1" | "vol0.dat",   required; relative paths
 *                                        resolve in the agent's scratch directory
 *                "size": "256m",         optional: create/extend a regular file
 *                "offset": "0", "length": "1g",   optional I/O window
 *                "node": "oss-1",        optional, must name a declared node
 *                "sim": {...}}],         optional, with path "sim" / "sim:NAME" only:
 *                                        a simulated FDP SSD (bc_sim_spec.h, docs/sim.md)
 *   or instead of "path": "nvme_tcp": {"traddr", "subnqn", "trsvcid", "hostnqn",
 *                "nr_io_queues", "nsid", "passthrough", "discover"}  (bc_nvme_tcp_vol.h)
 *   "defaults": {<workload keys>},       optional
 *   "steps": [{"name": "...", <workload keys>,      required, >= 1, unique names
 *              "sweep": {"iodepth": [1, 2, 4]}}]       optional, see bc_sweep.h
 *   "expect": [{"step": "...", "metric": "iops", "min": 1}]  optional, see bc_expect.h
 *   "repeat": 3                          optional, also per step (the step's wins): run
 *                                        each step N times as "<name>#1".. (bc_profile_repeat.c)
 * }
 * Workload keys (step value > defaults value > built-in default):
 *   rw: read|write|randread|randwrite|rw|randrw (default randread)
 *   rwmixread: 0..100 percent reads for rw/randrw (default 50)
 *   bs: size, > 0, multiple of 512 (default 4k)
 *   iodepth: 1..65536 (default 1)       numjobs: 1..1024 (default 1)
 *   direct: bool (default true)
 *   ramp: duration (default 0s)         runtime: duration >= 1s (default 10s)
 * Extended workload keys (bc_workload.c; docs/engine.md has the semantics):
 *   rw also trim|randtrim; rwmixtrim: percent of trims in rw/randrw mixes
 *   bs: also a split "4k/50:64k/30:1m/20" (size/percent of I/Os)
 *   blockalign: size; random_distribution: uniform | zipf:1.2 | pareto:0.8 |
 *     normal:10 (sigma % of the window) | zoned:90/10[:a/r...] (a% of I/Os to r% of window)
 *   iodepth_batch_submit, iodepth_batch_complete: 1..65536
 *   cpus_allowed: "0-3,8" | "numa"; cpus_allowed_policy: shared | split
 *   rate_iops: I/Os per second per volume; rate_bw: size per second per volume
 *   size_based: bool; io_size: size per volume (both: one pass, then the step ends)
 *   thinktime: duration with us/ms/s (integers are microseconds)
 *   verify: bool; sqpoll: bool; sqpoll_cpu: -1..1023; hipri: bool
 *   streams: [{name, class, share, rw, bs, random_distribution, range, placement...}],
 *     stream_share: ios | bytes; placement: volume | none | [indexes]  (bc_streams.h)
 * A step may carry "experiment": an FDP WAF plan (modes, precondition,
 * iterations) run as ordinary steps (bc_experiment.h, docs/fdp.md).
 * A volume may carry "workload": {...} overriding these per-volume keys for
 * every step: rw rwmixread rwmixtrim bs blockalign iodepth direct
 * random_distribution rate_iops rate_bw size_based io_size thinktime verify.
 * A step may carry "volume_workloads": {"0": {...}, "2": {...}}: the same
 * per-volume keys for that step only, on top of the volume's own (several
 * concurrent workloads in one step, as a group of fio jobs on their own files).
 * Sizes are strings ("4k") or non-negative integers (bytes); durations are
 * strings ("10s") or integers (seconds).
 *
 * Error messages are one line: "<file>:<line>:<col>: <what>" for JSON syntax,
 * "<file>: <json path>: <what>" otherwise, for example
 * "p.json: steps[1].iodepth: expected integer >= 1, got \"x\"".
 */
#ifndef BC_PROFILE_H
#define BC_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "bc_nvme_tcp_vol.h"
#include "bc_sim_spec.h"

#define BC_NAME_MAX	64
#define BC_PATH_MAX	1024
#define BC_ENDPOINT_MAX 256

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

extern const char *const bc_rw_names[]; /* indexed by enum bc_rw */

/* the extended workload vocabulary (bssplit, distributions, rates, ...): bc_workload.c */
#define BC_BSSPLIT_MAX 16
#define BC_ZONES_MAX   16
#define BC_CPUS_MAX    128 /* "cpus_allowed" text, e.g. "0-7,16-23" or "numa" */

struct bc_bssplit {
	uint32_t bs;  /* bytes */
	uint32_t pct; /* percent of I/Os (not of bytes), > 0; a split sums to 100 */
};

enum bc_dist_kind {
	BC_DIST_UNIFORM = 0,
	BC_DIST_ZIPF,	/* param: theta > 0 */
	BC_DIST_PARETO, /* param: h in (0, 1): the hottest 1-h of the blocks take h of the I/Os */
	BC_DIST_NORMAL, /* param: sigma, percent of the window, centred on its middle */
	BC_DIST_ZONED,	/* zones: access % to range %, in window order */
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
 * Placement of writes on an FDP namespace (bc_streams.c, docs/fdp.md):
 * "volume" applies the volume's own "fdp" policy, "none" writes without a
 * directive (DTYPE 0), a list of indexes into the volume's "fdp" pids is
 * used round-robin by each job. The values match struct bc_io_desc.placement.
 */
#define BC_FDP_PIDS_MAX	    16 /* placement indexes of a volume's "fdp" */
#define BC_PLACEMENT_VOLUME (-1)
#define BC_PLACEMENT_NONE   (-2)
struct bc_placement {
	int8_t kind; /* BC_PLACEMENT_VOLUME (the zero value is mapped to it), _NONE, or 1: list */
	uint8_t n;   /* kind 1: indexes in idx */
	uint16_t idx[BC_FDP_PIDS_MAX];
};

/*
 * One stream of a multi-stream workload ("streams", bc_streams.c): its
 * share of the I/Os (or bytes), op mix, sizes, offset distribution, region
 * of the volume's window and lifetime class. A stream's keys that are not
 * given take the workload's values where "streams" is written.
 */
#define BC_STREAMS_MAX	   8
#define BC_STREAM_NAME_MAX 32
struct bc_stream_pos {
	bool pct;	/* pct of the window, else bytes */
	double pct_val; /* 0..100 */
	uint64_t bytes;
};
struct bc_stream {
	char name[BC_STREAM_NAME_MAX];
	char cls[BC_STREAM_NAME_MAX]; /* lifetime class ("hot_churn", "cold", ...) */
	double share;		      /* relative weight > 0 */
	enum bc_rw rw;
	uint32_t rwmixread, rwmixtrim;
	uint32_t bs; /* bytes; with a split, its largest size */
	uint32_t nbssplit;
	struct bc_bssplit bssplit[BC_BSSPLIT_MAX];
	uint32_t blockalign; /* 0: the stream's smallest bs */
	struct bc_dist_spec dist;
	bool range_set;		       /* else the whole window */
	struct bc_stream_pos off;      /* from the window's start */
	struct bc_stream_pos len;      /* 0 bytes: to the window's end */
	struct bc_placement placement; /* kind 0: the workload's placement */
};

/*
 * Every field's zero value means "off" or "the default", so a workload
 * built in code only sets what it needs (sqpoll_cpu only matters with sqpoll).
 */
struct bc_workload {
	enum bc_rw rw;
	uint32_t rwmixread; /* percent of reads for rw/randrw */
	uint32_t bs;	    /* bytes; with a bssplit, its largest size (buffers, window checks) */
	uint32_t iodepth;   /* in flight per job per volume */
	uint32_t numjobs;   /* threads (one io_uring each) per agent */
	bool direct;	    /* O_DIRECT */
	uint32_t ramp_s;    /* seconds excluded from the measured window */
	uint32_t runtime_s; /* measured seconds after the ramp */

	uint32_t rwmixtrim; /* percent of trims for rw/randrw; writes get the rest */
	uint32_t nbssplit;  /* 0: every I/O is bs bytes */
	struct bc_bssplit bssplit[BC_BSSPLIT_MAX];
	uint32_t blockalign;	  /* bytes; random offsets are multiples of it; 0: smallest bs */
	struct bc_dist_spec dist; /* random offsets only */
	uint32_t batch_submit;	  /* iodepth_batch_submit: hold SQEs until this many; 0 = 1 */
	uint32_t batch_complete;  /* iodepth_batch_complete: wait for this many CQEs; 0 = 1 */
	char cpus_allowed[BC_CPUS_MAX]; /* "" (any CPU), "numa" or a list "0-3,8" */
	bool cpus_split;		/* cpus_allowed_policy "split": job i on the i-th CPU */
	uint64_t rate_iops;		/* per volume, over all jobs; 0 = unlimited */
	uint64_t rate_bw;		/* bytes/s per volume, over all jobs; 0 = unlimited */
	bool size_based;		/* one pass over the window (or io_size), then stop */
	uint64_t io_size;		/* bytes per volume over all jobs; 0 = the window */
	uint64_t thinktime_us;		/* per slot: completion to next submission */
	bool verify;			/* writes carry headers, reads check them */
	bool sqpoll;			/* IORING_SETUP_SQPOLL */
	int32_t sqpoll_cpu;		/* SQPOLL thread's CPU, -1 = not pinned */
	bool hipri;			/* IORING_SETUP_IOPOLL (device needs poll queues) */
	/* bc_streams.c: placement of writes, and the streams (none: one implicit stream) */
	struct bc_placement placement;
	bool share_bytes; /* "stream_share": "bytes": shares are of bytes, not of I/Os */
	uint32_t nstreams;
	struct bc_stream streams[BC_STREAMS_MAX];
};

struct bc_agent_spec {
	char name[BC_NAME_MAX];
	char endpoint[BC_ENDPOINT_MAX]; /* "local" or a ZeroMQ endpoint */
	bool local;
	char server_key[41]; /* "server_key": the agent's Z85 CURVE public key, "" if not given */
};

struct bc_node_spec {
	char name[BC_NAME_MAX];
	cJSON *json; /* the node object as given (addresses, metrics, nic); owned by profile */
};

/*
 * "fdp" of a volume: FDP placement for NVMe passthrough writes (docs/nvme.md).
 * pids are indices into the namespace's reclaim unit handle status list, as
 * fio's fdp_pli; the agent maps them to placement IDs when it opens the target.
 */
enum bc_fdp_policy {
	BC_FDP_NONE = 0, /* no placement directive */
	BC_FDP_FIXED,	 /* every write to pids[0] */
	BC_FDP_ROUND_ROBIN,
	BC_FDP_RANDOM,
};
struct bc_fdp_spec {
	enum bc_fdp_policy policy;
	int npids;
	uint16_t pids[BC_FDP_PIDS_MAX];
};

/* parse {"pids": [..], "policy": ".."}: 0 or -EINVAL with a message naming base */
int bc_fdp_spec_from_json(const cJSON *o, const char *base, struct bc_fdp_spec *f, char *err,
			  size_t errlen);
/* NULL when f->policy is BC_FDP_NONE; caller owns the result */
cJSON *bc_fdp_spec_to_json(const struct bc_fdp_spec *f);
const char *bc_fdp_policy_name(enum bc_fdp_policy p);

struct bc_volume_spec {
	int agent; /* index into profile->agents */
	int node;  /* index into profile->nodes, -1 if none */
	char path[BC_PATH_MAX];
	uint64_t size_bytes;   /* 0: use the existing size */
	uint64_t offset_bytes; /* start of the I/O window */
	uint64_t length_bytes; /* 0: to the end of the volume */
	bool destructive;      /* "destructive" (volume, else top level): data may be overwritten */
	cJSON *workload;       /* per-volume workload overrides as given, or NULL; owned */
	struct bc_fdp_spec fdp; /* "fdp": NVMe passthrough placement, policy NONE if absent */
	/* "nvme_tcp": the agent attaches it; path then holds its label (nvme-tcp://...) */
	struct bc_nvme_tcp_vol nvme_tcp;
	struct bc_sim_spec sim; /* "sim": simulated SSD (bc_sim_spec.h), enabled on sim paths */
};

struct bc_step {
	char name[BC_NAME_MAX];
	struct bc_workload wl;
	cJSON *sweep;	   /* "sweep" as given and checked (bc_sweep.h), NULL if none; owned */
	cJSON *experiment; /* "experiment" as given and checked (bc_experiment.h); owned */
	/* "volume_workloads": {"<volume index>": overrides} for this step only; owned */
	cJSON *volume_workloads;
	/*
	 * an I/O window for every volume instead of their own offset/length
	 * (an experiment's precondition window); length 0: to the end
	 */
	bool win_set;
	uint64_t win_offset, win_length;
	/* "repeat" (bc_profile_repeat.c): repetition rep of nrep, named "<name>#<rep>"; 0: once */
	uint32_t rep, nrep;
};

/* "abort": stop every agent, exit non-zero; "continue": the others finish the step */
enum bc_loss_policy { BC_LOSS_ABORT = 0, BC_LOSS_CONTINUE };

struct bc_profile {
	char name[BC_NAME_MAX];
	char source[BC_PATH_MAX]; /* file it was loaded from, for messages */
	struct bc_agent_spec *agents;
	int nagents;
	struct bc_node_spec *nodes;
	int nnodes;
	struct bc_volume_spec *volumes;
	int nvolumes;
	struct bc_step *steps;
	int nsteps;
	struct bc_expect *expects; /* acceptance criteria, see bc_expect.h */
	int nexpects;
	enum bc_loss_policy on_agent_loss; /* "on_agent_loss": what a lost agent does to a run */
};

/*
 * Parse and validate text. srcname is used in messages only.
 * Returns 0 and a profile the caller owns (bc_profile_destroy), or -EINVAL
 * with a one-line message in err.
 */
int bc_profile_parse(const char *text, const char *srcname, struct bc_profile **out, char *err,
		     size_t errlen);

/* Read the file and parse it; -errno with the message in err on failure. */
int bc_profile_load(const char *path, struct bc_profile **out, char *err, size_t errlen);

void bc_profile_destroy(struct bc_profile **p);

/*
 * A repetition's step name ("seq#2", "seq#2@iodepth=4"): true, its step's
 * name without "#<rep>" in base ("seq", "seq@iodepth=4") and rep; false for
 * any other name. base and rep may be NULL.
 */
bool bc_step_repeat_of(const char *name, char *base, size_t len, uint32_t *rep);

/* Resolved profile (every default applied) as JSON; caller owns the result. */
cJSON *bc_profile_to_json(const struct bc_profile *p);

/* Workload as JSON (the PREPARE body's "workload"); caller owns the result. */
cJSON *bc_workload_to_json(const struct bc_workload *wl);

/*
 * Workload from JSON as produced by bc_workload_to_json (the agent side).
 * Returns 0 or -EINVAL with the offending key in err.
 */
int bc_workload_from_json(const cJSON *j, struct bc_workload *wl, char *err, size_t errlen);

/*
 * bc_workload.c: the step's workload with a volume's "workload" overrides
 * applied (out = *step when the volume has none). The profile parser has
 * checked every (step, volume) pair, so this only fails on a hand-built
 * profile: -EINVAL with the message in err (may be NULL).
 */
int bc_volume_workload(const struct bc_workload *step, const struct bc_volume_spec *vol,
		       struct bc_workload *out, char *err, size_t errlen);
/*
 * bc_workload.c: volume v's workload in step st: the step's, the volume's
 * "workload", then the step's "volume_workloads" entry for v; and whether
 * either override exists (else the step's workload applies as it is).
 */
int bc_step_volume_workload(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
			    struct bc_workload *out, char *err, size_t errlen);
bool bc_step_volume_overridden(const struct bc_step *st, const struct bc_volume_spec *vol, int v);

/*
 * The one rule for which ops a kind issues: read/randread read,
 * write/randwrite write, trim/randtrim trim; rw/randrw read rwmixread
 * percent, trim rwmixtrim percent and write the rest. A mask of the
 * BC_RW_OPS_* bits; an op with 0 percent is not in it.
 */
#define BC_RW_OPS_READ	1u
#define BC_RW_OPS_WRITE 2u
#define BC_RW_OPS_TRIM	4u
unsigned bc_rw_ops(enum bc_rw rw, uint32_t rwmixread, uint32_t rwmixtrim);

/*
 * The workload changes data on its volumes: it writes or trims (a trim needs
 * a writable fd too), alone or in a mix; with streams, any stream does. The
 * target's open mode, the agent's PREPARE gate (in use, signatures,
 * destructive consent) and the coordinator's pre-flight all ask this; verify
 * does not change the answer (it adds headers to writes, checks to reads).
 */
bool bc_workload_writes(const struct bc_workload *wl);

/* offsets are random (randread, randwrite, randrw, randtrim) */
bool bc_workload_random(const struct bc_workload *wl);

/* the step stops after one pass (size_based or io_size) instead of at runtime */
bool bc_workload_size_based(const struct bc_workload *wl);

/* canonical text of a distribution ("zipf:1.2", "zoned:90/10:10/90") and a bssplit */
const char *bc_dist_format(const struct bc_dist_spec *d, char *buf, size_t len);
const char *bc_bssplit_format(const struct bc_workload *wl, char *buf, size_t len);

#endif
