/*
 * session/agent.h - the agent daemon's state (types only), shared by its
 * control-thread modules: control.c (socket loop, session ownership,
 * heartbeats; session/control.h), step.c (the PREPARE/START/STATS/STEP_DONE life
 * of one step; session/step.h), hostinfo.c (session/hostinfo.h) and volume.c
 * (session/volume.h). Everything here belongs to the control thread; job threads
 * only see their struct bc_job.
 */
#ifndef BC_SESSION_AGENT_H
#define BC_SESSION_AGENT_H

#include <stdbool.h>
#include <stdint.h>

#include <czmq.h>

#include "engine/job.h"
#include "engine/layout.h"
#include "host/blkdev.h"
#include "host/diskstats.h"
#include "host/hoststat.h"
#include "host/proctop.h"
#include "profile/profile.h"
#include "target/ops.h"
#include "wire/proto.h"
#include "wire/stats.h"

/*
 * with no I/O running (between steps, while the coordinator writes results)
 * a silent coordinator costs nothing but the session, so it is given longer;
 * one whose connection is gone loses the session at once (control.c)
 */
#define BC_AGENT_IDLE_SILENCE_MS 60000

struct bc_agent_opts {
	const char *listen;	     /* ZeroMQ endpoint to bind */
	const char *scratch_dir;     /* relative volume paths resolve here */
	bool allow_block_writes;     /* deprecated, no effect: block writes pass bc_safety_check */
	const char *cert;	     /* CURVE key pair of this agent (auth.c) */
	const char *authorized_keys; /* directory of coordinator public keys */
	bool insecure;		     /* plain text, no authentication (--insecure) */
	struct bc_safety *safety;    /* allowlist and destructive policy (safety/allowlist.h) */
	int ready_fd;		     /* write the bound endpoint here, then close (-1: none) */
	bool exit_on_bye;	     /* end the process when the session ends (local agents) */
	uint32_t deadman_ms;	     /* for tests (--deadman-ms): silence limit, running or idle */
	uint32_t orphan_ring_kib;    /* for tests (--orphan-ring-kib): the record buffer's size */
	const char *announce;	     /* plain-text key announcement endpoint, NULL/"": none */
	bool announce_given;	     /* --key-announce EP: failing to bind it is fatal */
	uint32_t handshake_ms;	     /* --handshake-timeout: unauthenticated connections' limit */
};

struct bc_nvme_counters; /* nvme/counters.h */
struct bc_nvme_tcp_att;	 /* nvme/tcp.h */
struct bc_temp_sampler;	 /* nvme/temp.h */

/* a file this session created or extended: [from, to) is written out before a read (backed.c) */
struct bc_made {
	dev_t dev;
	ino_t ino;
	uint64_t from, to;
	bool laid_out; /* once per session */
};

/* a block device window a sequential write pass of this session covered */
struct bc_written {
	dev_t rdev;
	uint64_t start, end;
};

struct bc_step_run {
	bool prepared;
	bool running;
	uint32_t step;
	cJSON *formats; /* the step's "format" results (nvme/format.h) for READY; owned */
	struct bc_workload wl;
	struct bc_workload *vwl; /* [ntargets]: each volume's workload (wl + its overrides) */
	struct bc_target *targets;
	int ntargets;
	/*
	 * When a volume runs several workloads at once (or none): the jobs'
	 * targets, one per (volume, workload), copies of targets[rvol[r]]
	 * sharing its open file; NULL (nruns 0) when each volume runs one.
	 */
	struct bc_target *rtargets;
	struct bc_workload *rvwl;
	int *rvol;
	int nruns;
	struct bc_job **jobs;
	int njobs;
	bool *collected;    /* per job: interval next_k already merged */
	uint32_t seconds;   /* ramp + runtime */
	uint64_t second_ns; /* an interval in this host's clock (START's "second_ns", else 1 s) */
	uint32_t next_k;    /* next interval to send; seconds = drain */
	uint64_t start_mono_ns;
	uint32_t flags;		      /* BC_STATS_F_* for the interval being built */
	struct bc_volstat *acc;	      /* [ntargets]: the interval being built */
	struct bc_volstat *totals;    /* [ntargets]: every interval sent (no histograms used) */
	struct bc_diskstat *ds_start; /* [ntargets]: kernel counters at START (block devices) */
	dev_t *rdev;		      /* [ntargets]: block device number, 0 for other targets */
	uint64_t start_real_ns;	      /* planned start, agent CLOCK_REALTIME */
	struct bc_hoststat *host; /* this host's CPU/NIC/disk counters, one sample per interval */
	uint64_t cpu_user0_ns, cpu_sys0_ns; /* the agent process's CPU time at START */
	struct bc_nvme_counters *nvme0; /* [ntargets]: NVMe log counters after PREPARE, or NULL */
	struct bc_nvme_tcp_att *tcp;	/* [ntargets]: NVMe/TCP attachments (instance -1: none) */
	struct bc_temp_sampler *temp;	/* NVMe temperatures, or NULL when none is NVMe */
	cJSON *net_path; /* routes to the nodes, NUMA of NIC and jobs (host/netpath.h), owned */
	/* PREPARE's second half waits for the layout (backed.c): its thread and volumes */
	struct bc_layout *layout;
	struct bc_layout_vol *lvols;
	int nlvols;
	uint64_t layout_t0_ns, layout_beat_ns; /* CLOCK_MONOTONIC: start, last PROGRESS */
	cJSON *node_addresses;		       /* the PREPARE's, kept for its second half */
	bool *layout_off;		       /* [ntargets]: the profile's "layout": false */
	/* the device under each volume (host/blkdev.h) and its counters at START */
	struct bc_blkdev *under;
	struct bc_diskstat *under0;
	/* other processes' CPU: READY to START ("before"), then over the step */
	struct bc_proctop top;
	cJSON *top_before;
	uint64_t pio_read0, pio_write0; /* /proc/self/io at START: this process's block I/O */
};

struct bc_replay; /* session/replay.h */

/* a step that outlives its coordinator's silence (session/orphan.h) */
struct bc_orphan {
	uint32_t grace_ms; /* PREPARE's "orphan_grace_ms": silence the step survives, 0: none */
	struct bc_replay *ring; /* the step's messages as sent, from PREPARE */
	uint32_t step;		/* the step they belong to, and its START */
	uint64_t start_ns;
	uint32_t seconds;
	uint32_t next_k;    /* 1 + the newest second put */
	uint64_t silent_ns; /* CLOCK_MONOTONIC: the coordinator's last message when taken over */
	bool started;	    /* START came: the ring is a running step's */
	bool held;	  /* it ended while the coordinator was silent: kept for one that returns */
	bool paused;	  /* taken over: nothing is sent until the resumed coordinator's REATTACH */
	bool overflow;	  /* the ring is full: the session ends (control.c) */
	bool send_failed; /* a send failed while silent: said once */
};

/*
 * The last step this agent stopped for a silent coordinator (its grace ran
 * out, or its record buffer filled): kept past the session, so that the
 * resume asking for that step learns what was lost (HELLO_OK "orphan_end")
 */
struct bc_orphan_end {
	bool set;
	uint32_t step;
	uint64_t start_ns;
	uint32_t kept_from;  /* records of seconds kept_from .. stopped_at-1 were dropped */
	uint32_t stopped_at; /* the second its I/O stopped in */
	uint32_t silent_ms;
	char why[96];
};

struct bc_agent {
	struct bc_agent_opts opts;
	zsock_t *sock; /* ROUTER */
	char endpoint[256];
	/* session: at most one coordinator at a time */
	zframe_t *owner; /* routing id, NULL when free */
	char owner_name[256];
	char owner_key[64];	 /* its CURVE key (ZAP User-Id), "" when plain text */
	uint64_t owner_since_ns; /* CLOCK_REALTIME */
	uint64_t last_heard_ns;	 /* CLOCK_MONOTONIC */
	uint64_t last_beat_ns;	 /* CLOCK_MONOTONIC, our last HEARTBEAT */
	uint64_t max_gap_ns;	 /* session: longest wait between two coordinator messages */
	cJSON *destructive;	 /* session: paths the coordinator's profile marks destructive */
	struct bc_auth *auth;	 /* CURVE, ZAP, handshake monitor, drop counters */
	bool quit;
	char fingerprint[64]; /* of the public key (bc_curve_fingerprint), "" when insecure */
	struct bc_step_run step;
	struct bc_orphan orphan;
	struct bc_orphan_end orphan_end;
	/* session: files made (laid out once) and block windows written (backed.c) */
	struct bc_made *made;
	int nmade, capmade;
	struct bc_written *written;
	int nwritten, capwritten;
};

#endif
