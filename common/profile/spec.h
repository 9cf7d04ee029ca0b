/*
 * profile/spec.h - the parsed profile: agents, nodes, volumes, steps and
 * criteria as bc_profile_parse (profile/profile.h) leaves them, every default
 * applied. Types only, so the parts of the parser (sweep, experiment,
 * expect, repeat, per-volume overrides) and every reader share them without
 * depending on the parser that fills them.
 */
#ifndef BC_PROFILE_SPEC_H
#define BC_PROFILE_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/value/check.h"
#include "profile/volume/fdp.h"
#include "profile/volume/fileset.h"
#include "profile/volume/nvme_tcp.h"
#include "profile/volume/sim.h"
#include "profile/format.h"
#include "profile/workload/workload.h"

struct bc_wl_override; /* profile/volume_wl.h */
struct bc_expect;      /* profile/expect.h */

#define BC_PATH_MAX	1024
#define BC_ENDPOINT_MAX 256

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

struct bc_volume_spec {
	int agent; /* index into profile->agents */
	int node;  /* index into profile->nodes, -1 if none */
	char path[BC_PATH_MAX];
	uint64_t size_bytes;   /* 0: use the existing size */
	uint64_t offset_bytes; /* start of the I/O window */
	uint64_t length_bytes; /* 0: to the end of the volume */
	bool destructive;      /* "destructive" (volume, else top level): data may be overwritten */
	/*
	 * "layout" (volume, else top level; default true): a file the agent
	 * creates or extends is written out before the first step that reads
	 * it; false keeps it as it is, and every output says it was not
	 */
	bool layout;
	/* "workload": this volume's overrides in every step (profile/volume_wl.h), NULL if none */
	struct bc_wl_override *workload; /* owned */
	cJSON *workload_json;		 /* as written, for bc_profile_to_json; owned */
	struct bc_fdp_spec fdp; /* "fdp": NVMe passthrough placement, policy NONE if absent */
	/* "nvme_tcp": the agent attaches it; path then holds its label (nvme-tcp://...) */
	struct bc_nvme_tcp_vol nvme_tcp;
	struct bc_sim_spec sim; /* "sim": simulated SSD on sim paths (profile/volume/sim.h) */
	/* "fileset": a tree of files under the path (profile/volume/fileset.h), enabled false if
	 * none */
	struct bc_fileset_spec fileset;
};

struct bc_step {
	char name[BC_NAME_MAX];
	struct bc_workload wl;
	cJSON *sweep;	   /* "sweep" as given and checked (profile/sweep.h), NULL if none; owned */
	cJSON *experiment; /* "experiment" as given and checked (profile/experiment.h); owned */
	/* "volume_workloads": this step's overrides of some volumes (profile/volume_wl.h) */
	struct bc_wl_override *volume_wl; /* nvolume_wl of them, in written order; owned */
	int nvolume_wl;
	cJSON *volume_workloads; /* as written, for bc_profile_to_json; owned */
	/*
	 * an I/O window for every volume instead of their own offset/length
	 * (an experiment's precondition window); length 0: to the end
	 */
	bool win_set;
	uint64_t win_offset, win_length;
	/* "repeat" (profile/repeat.c): repetition rep of nrep, named "<name>#<rep>"; 0: once */
	uint32_t rep, nrep;
	/* "format" (profile/format.h): Format NVM of the volumes' namespaces before the I/O */
	struct bc_format_spec format;
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
	struct bc_expect *expects; /* acceptance criteria, see profile/expect.h */
	int nexpects;
	enum bc_loss_policy on_agent_loss; /* "on_agent_loss": what a lost agent does to a run */
	/*
	 * "orphan_grace": a step's load runs on through this much coordinator
	 * silence, its records kept for a resumed coordinator (0: 5 s, the
	 * dead-man switch; agent/session/orphan.h)
	 */
	uint32_t orphan_grace_s;
};

/* "orphan_grace" at most 1 h: the agents hold every record of the gap in memory */
#define BC_PROFILE_GRACE_MAX_S 3600u

#endif
