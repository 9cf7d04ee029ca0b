/*
 * fleet/fleet.h - the options of a run and its fleet of agent connections
 * (fleet.c): sockets, HELLO, clock sync, receives over epoll, heartbeats,
 * and work run beside the fleet while it keeps every session alive. All on
 * the coordinator's loop thread.
 */
#ifndef BC_FLEET_FLEET_H
#define BC_FLEET_FLEET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <czmq.h>

#include "profile/profile.h"
#include "wire/clocksync.h"
#include "wire/proto.h"

struct bc_monitor;
struct bc_counters;
struct bc_metrics;
struct bc_volnode;

/* where the run is, for the live view (live.c) */
struct bc_live_progress {
	int step, nsteps;	/* profile step (0-based) and how many */
	uint32_t after_s;	/* seconds of the steps after this one (the run ETA) */
	uint32_t after_entries; /* run.json entries (steps, points) after this one */
};

struct bc_run_opts {
	const char *profile_path;
	const char *output_dir;	 /* parent of run directories (default "reports") */
	const char *scratch_dir; /* local agents' scratch root (default /var/tmp/...) */
	bool keep_scratch;	 /* keep local agents' files after the run */
	uint32_t connect_timeout_ms;
	uint32_t prepare_timeout_ms;
	bool quiet;		    /* no per-second lines */
	int live;		    /* enum bc_live_mode: auto, lines, tty, json */
	const char *metrics_listen; /* host:port for the Prometheus endpoint, or NULL */
	const char *cert;	    /* coordinator key pair for profile agents (--cert) */
	const char *known_hosts;    /* "endpoint-or-name key" lines (--known-hosts) */
	bool insecure;		    /* plain text to profile agents (--insecure) */
	bool allow_destructive;	    /* local agents get --allow-destructive */
	int agg_threads;	    /* aggregation workers, -1: bc_agg_threads_auto */
	int events_format;	    /* enum bc_events_format */
	uint32_t results_delay_ms;  /* for tests: each results write takes this much longer */
	int format;		    /* enum bc_live_format (--format) */
	const char *resume_dir;	    /* --resume: the run directory taken up again */
};

/* one agent connection */
struct bc_conn {
	const struct bc_agent_spec *spec;
	int index;
	zsock_t *sock; /* DEALER */
	char endpoint[BC_ENDPOINT_MAX];
	pid_t pid;		 /* local agent process we started, 0 otherwise */
	uint64_t hello_again_ns; /* --resume: BUSY (dead coordinator's session): HELLO again then */
	/* --resume: the step in flight its HELLO takes over (run/reattach.h); 0: none */
	uint64_t resume_start_ns;
	int resume_step;
	cJSON *hello;		 /* HELLO_OK body, owned */
	int64_t offset_ns;	 /* agent CLOCK_REALTIME minus ours */
	uint64_t rtt_ns;	 /* round trip of the sample the offset came from */
	uint64_t clock_unc_ns;	 /* worst-case error of offset_ns (rtt/2) */
	int64_t first_offset_ns; /* offset measured at connect, to see drift */
	uint64_t clock_at_ns;	 /* our CLOCK_REALTIME when offset_ns was measured */
	/*
	 * The agent's clock rate against ours (run/drift.c): the coordinator's
	 * second in its clock, sent with START (1 s: no rate measured), and the
	 * TIME exchanges made during a step to see it drift
	 */
	uint64_t second_ns;
	int64_t rate_off; /* the estimate the next rate is measured from (the last START's) */
	uint64_t rate_unc, rate_at;
	int drift_seq;
	uint64_t drift_sent_ns;
	int drift_n;
	struct bc_clock_sample drift_smp[4];
	uint64_t last_heard_ns; /* CLOCK_MONOTONIC */
	struct bc_monitor *mon; /* connect and CURVE handshake events (fleet.c) */
	int *vols;		/* global volume indexes, in the order sent to the agent */
	int nvols;
	bool ready;
	bool done;
	bool lost; /* declared lost (silence); with on_agent_loss "continue" the run goes on */
	/*
	 * HELLO sent again in this step's PREPARE (it had no session, stepexec.c):
	 * its HELLO_OK is awaited, and "no session" replies sent before it are stale
	 */
	bool rejoining;
	int rejoined_step;   /* 1 + the step it was last HELLOed again in, 0: never */
	uint32_t stats_next; /* 1 + the second of its latest record in this step, 0: none */
	char lost_why[128];
};

struct bc_fleet {
	const struct bc_profile *prof;
	const struct bc_run_opts *opts;
	struct bc_conn *conns;
	int n;
	char scratch_root[BC_PATH_MAX]; /* created for local agents, removed after */
	char logdir[BC_PATH_MAX];	/* local agents' logs */
	/*
	 * Which sockets to read (fleet.c): epoll over each socket's ZMQ_FD
	 * feeds a FIFO of connections that may hold a message. zmq_poll (and
	 * zpoller) cost O(agents) per call, ~1 ms at 1,000 agents, per message.
	 */
	int epfd;
	int *queue;   /* [n] ring of conn indexes */
	bool *queued; /* [n] conn i is in the ring */
	int qhead, qlen;
	uint64_t swept_ns;	      /* CLOCK_MONOTONIC of the last look at every socket */
	int nlost;		      /* connections marked lost (they stay lost) */
	zcert_t *cert;		      /* coordinator key pair for profile agents, NULL if none */
	zcert_t *local_cert;	      /* ephemeral coordinator key pair for local agents */
	char keydir[BC_PATH_MAX];     /* ephemeral keys of local agents, removed after */
	struct bc_counters *counters; /* node counters (counters/counters.h), owned by cmd_run */
	struct bc_live_progress progress; /* where the run is, for the live view */
	struct bc_metrics *metrics;	  /* --metrics-listen server, NULL without */
	struct bc_volnode *volnode; /* [prof->nvolumes]: each volume's node (volnode.c), owned */
	struct bc_fleet_held *held; /* received during bc_fleet_beside, for bc_fleet_recv */
	uint64_t beat_ns;	    /* CLOCK_MONOTONIC of bc_fleet_beat's last HEARTBEAT */
	/*
	 * Why no further step starts (set by the run when a step failed; an
	 * interrupt is its own reason): every step from here on is recorded
	 * "not started", without a PREPARE
	 */
	char halted[256];
	/* the user ended a step that runs until stopped: the steps after it do not fail the run */
	bool user_stopped;
};

/* a message bc_fleet_beside received and keeps for bc_fleet_recv (fleet.c) */
struct bc_fleet_held {
	struct bc_conn *from;
	struct bc_msg m;
	int rc;
	char err[256];
	struct bc_fleet_held *next;
};

/* fleet.c */
int bc_fleet_open(struct bc_fleet *f, const struct bc_profile *p, const struct bc_run_opts *o,
		  const char *logdir, char *err, size_t errlen);
int bc_fleet_hello(struct bc_fleet *f, char *err, size_t errlen);
/*
 * HELLO again to one agent that answered BC_ERR_NO_SESSION (restarted
 * between steps): its HELLO_OK comes back as any message does. 0 or -errno
 */
int bc_fleet_hello_one(struct bc_fleet *f, struct bc_conn *c);
int bc_fleet_clock_sync(struct bc_fleet *f, char *err, size_t errlen);
void bc_fleet_close(struct bc_fleet *f);
/* look up the connection a socket belongs to */
struct bc_conn *bc_fleet_conn(struct bc_fleet *f, void *sock);
/* wait for one message from any agent up to timeout_ms; *from set on 0 */
int bc_fleet_recv(struct bc_fleet *f, int timeout_ms, struct bc_conn **from, struct bc_msg *m,
		  char *err, size_t errlen);
/*
 * whether a message from c waits unread: a loop that ran late (a starved
 * host) must not call an agent silent whose records are already here
 */
bool bc_fleet_waiting(struct bc_fleet *f, struct bc_conn *c);
/*
 * c's connection closed at least ms ago and none came back (its socket
 * monitor's DISCONNECTED): a dead agent, told from one busy in a PREPARE
 * that sends nothing for a while (its TCP connection stays up)
 */
bool bc_fleet_gone(struct bc_fleet *f, struct bc_conn *c, uint32_t ms);
/* send to one agent (and look at its socket again: a send can take a receive's wake-up) */
int bc_fleet_send(struct bc_fleet *f, struct bc_conn *c, enum bc_msg_type t, const cJSON *body);
void bc_fleet_broadcast(struct bc_fleet *f, enum bc_msg_type t, const cJSON *body);
/*
 * a HEARTBEAT to every agent unless one went less than half a second ago:
 * call it while waiting. A gap of over 2 s since the last one is logged with
 * where the loop was when it beat again (the work before that call held it).
 */
void bc_fleet_beat_at(struct bc_fleet *f, const char *where);
#define bc_fleet_beat(f) bc_fleet_beat_at((f), __func__)
/*
 * run fn(arg) on a thread of its own while this thread keeps every session
 * alive (heartbeats, receives; messages other than heartbeats are held for
 * bc_fleet_recv); fn must not use the fleet's sockets. Returns when fn has.
 */
void bc_fleet_beside(struct bc_fleet *f, void (*fn)(void *), void *arg);

#endif
