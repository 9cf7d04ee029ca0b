/*
 * profile/profile.h - benchmark profiles: JSON parse, validation with errors that
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
 *              "series": [{"name", "promql" | "metric"...}]}], see profile/counters.c
 *   "volumes": [{"agent": "client-04",   required, must name a declared agent
 *                "path": "/dev/nvme1n1" | "vol0.dat",   required; relative paths
 *                                        resolve in the agent's scratch directory
 *                "size": "256m",         optional: create/extend a regular file
 *                "offset": "0", "length": "1g",   optional I/O window
 *                "node": "oss-1",        optional, must name a declared node
 *                "sim": {...}}],         optional, with path "sim" / "sim:NAME" only:
 *                                        a simulated FDP SSD (profile/volume/sim.h, docs/sim.md)
 *   or instead of "path": "nvme_tcp": {"traddr", "subnqn", "trsvcid", "hostnqn",
 *                "nr_io_queues", "nsid", "passthrough", "discover"}  (profile/volume/nvme_tcp.h)
 *   "defaults": {<workload keys>},       optional
 *   "steps": [{"name": "...", <workload keys>,      required, >= 1, unique names
 *              "sweep": {"iodepth": [1, 2, 4]}}]       optional, see profile/sweep.h
 *   "expect": [{"step": "...", "metric": "iops", "min": 1}]  optional, see profile/expect.h
 *   "repeat": 3                          optional, also per step (the step's wins): run
 *                                        each step N times as "<name>#1".. (profile/repeat.c)
 * }
 * Workload keys (step value > defaults value > built-in default): the table
 * of profile/workload/keys.c says each key's type, range, default and where it is
 * allowed (defaults and steps, a volume's overrides, a stream, a sweep);
 * docs/profiles.md and bench-coord-profile(5) list them, docs/engine.md has
 * the semantics, profile/workload/streams.h the "streams" object.
 * A step may carry "experiment": an FDP WAF plan (modes, precondition,
 * iterations) run as ordinary steps (profile/experiment.h, docs/fdp.md).
 * A volume may carry "workload": {...} overriding the per-volume keys for
 * every step; a step may carry "volume_workloads": {"0": {...}, "2": {...}}:
 * the same keys for that step only, on top of the volume's own (several
 * concurrent workloads in one step, as a group of fio jobs on their own
 * files). Both are parsed once into struct bc_wl_override (profile/volume_wl.h).
 * Sizes are strings ("4k") or non-negative integers (bytes); durations are
 * strings ("10s") or integers (seconds).
 *
 * Error messages are one line: "<file>:<line>:<col>: <what>" for JSON syntax,
 * "<file>: <json path>: <what>" otherwise, for example
 * "p.json: steps[1].iodepth: expected integer >= 1, got \"x\"".
 */
#ifndef BC_PROFILE_PROFILE_H
#define BC_PROFILE_PROFILE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profile/repeat.h"
#include "profile/spec.h"
#include "profile/volume_wl.h"
#include "profile/workload/json.h"
#include "profile/workload/streams.h"

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

#endif
