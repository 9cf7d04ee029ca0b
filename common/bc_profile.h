/*
 * bc_profile.h - benchmark profiles: JSON parse, validation with errors that
 * name the JSON path, defaults applied, and the resolved form.
 *
 * Profile shape (unknown keys anywhere are errors):
 * {
 *   "name": "seq-read-3client",          required, [A-Za-z0-9._-]{1,63}
 *   "description": "...",                optional
 *   "agents": [{"name": "client-04",     required, unique, [A-Za-z0-9._-]{1,63}
 *               "endpoint": "tcp://10.0.0.4:7470" | "local"}],   required
 *   "nodes": [{"name": "oss-1", "addresses": ["10.0.1.1"],       optional
 *              "metrics": ["http://10.0.1.1:9100/metrics"], "nic": "bond0"}],
 *   "volumes": [{"agent": "client-04",   required, must name a declared agent
 *                "path": "/dev/nvme1n1" | "vol0.dat",   required; relative paths
 *                                        resolve in the agent's scratch directory
 *                "size": "256m",         optional: create/extend a regular file
 *                "offset": "0", "length": "1g",   optional I/O window
 *                "node": "oss-1"}],      optional, must name a declared node
 *   "defaults": {<workload keys>},       optional
 *   "steps": [{"name": "...", <workload keys>}]     required, >= 1, unique names
 *   "expect": [{"step": "...", "metric": "iops", "min": 1}]  optional, see bc_expect.h
 * }
 * Workload keys (step value > defaults value > built-in default):
 *   rw: read|write|randread|randwrite|rw|randrw (default randread)
 *   rwmixread: 0..100 percent reads for rw/randrw (default 50)
 *   bs: size, > 0, multiple of 512 (default 4k)
 *   iodepth: 1..65536 (default 1)       numjobs: 1..1024 (default 1)
 *   direct: bool (default true)
 *   ramp: duration (default 0s)         runtime: duration >= 1s (default 10s)
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

#define BC_NAME_MAX 64
#define BC_PATH_MAX 1024
#define BC_ENDPOINT_MAX 256

enum bc_rw {
	BC_RW_READ = 0,
	BC_RW_WRITE,
	BC_RW_RANDREAD,
	BC_RW_RANDWRITE,
	BC_RW_RW, /* sequential mixed */
	BC_RW_RANDRW,
};

extern const char *const bc_rw_names[]; /* indexed by enum bc_rw */

struct bc_workload {
	enum bc_rw rw;
	uint32_t rwmixread; /* percent of reads for rw/randrw */
	uint32_t bs;	    /* bytes */
	uint32_t iodepth;   /* in flight per job per volume */
	uint32_t numjobs;   /* threads (one io_uring each) per agent */
	bool direct;	    /* O_DIRECT */
	uint32_t ramp_s;    /* seconds excluded from the measured window */
	uint32_t runtime_s; /* measured seconds after the ramp */
};

struct bc_agent_spec {
	char name[BC_NAME_MAX];
	char endpoint[BC_ENDPOINT_MAX]; /* "local" or a ZeroMQ endpoint */
	bool local;
};

struct bc_node_spec {
	char name[BC_NAME_MAX];
	cJSON *json; /* the node object as given (addresses, metrics, nic); owned by profile */
};

struct bc_volume_spec {
	int agent; /* index into profile->agents */
	int node;  /* index into profile->nodes, -1 if none */
	char path[BC_PATH_MAX];
	uint64_t size_bytes;   /* 0: use the existing size */
	uint64_t offset_bytes; /* start of the I/O window */
	uint64_t length_bytes; /* 0: to the end of the volume */
};

struct bc_step {
	char name[BC_NAME_MAX];
	struct bc_workload wl;
};

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

/* Resolved profile (every default applied) as JSON; caller owns the result. */
cJSON *bc_profile_to_json(const struct bc_profile *p);

/* Workload as JSON (the PREPARE body's "workload"); caller owns the result. */
cJSON *bc_workload_to_json(const struct bc_workload *wl);

/*
 * Workload from JSON as produced by bc_workload_to_json (the agent side).
 * Returns 0 or -EINVAL with the offending key in err.
 */
int bc_workload_from_json(const cJSON *j, struct bc_workload *wl, char *err, size_t errlen);

#endif
