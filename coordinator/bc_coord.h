/*
 * bc_coord.h - the coordinator's shared types: the fleet of agent
 * connections (fleet.c), the run directory and its event log (rundir.c),
 * per-step aggregation (agg.c), step execution (stepexec.c) and the result
 * writers (results.c). All of it runs on the coordinator's loop thread,
 * except the event log's writer (rundir.c) and the aggregation workers
 * (aggpool.c), which own their data.
 */
#ifndef BC_COORD_H
#define BC_COORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <czmq.h>

#include "bc_hist.h"
#include "bc_profile.h"
#include "bc_proto.h"
#include "bc_stats.h"

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
};

/* one agent connection */
struct bc_conn {
	const struct bc_agent_spec *spec;
	int index;
	zsock_t *sock; /* DEALER */
	char endpoint[BC_ENDPOINT_MAX];
	pid_t pid;		 /* local agent process we started, 0 otherwise */
	cJSON *hello;		 /* HELLO_OK body, owned */
	int64_t offset_ns;	 /* agent CLOCK_REALTIME minus ours */
	uint64_t rtt_ns;	 /* round trip of the sample the offset came from */
	uint64_t clock_unc_ns;	 /* worst-case error of offset_ns (rtt/2) */
	int64_t first_offset_ns; /* offset measured at connect, to see drift */
	uint64_t last_heard_ns;	 /* CLOCK_MONOTONIC */
	struct bc_monitor *mon;	 /* connect and CURVE handshake events (fleet.c) */
	int *vols;		 /* global volume indexes, in the order sent to the agent */
	int nvols;
	bool ready;
	bool done;
	bool lost; /* declared lost (silence); with on_agent_loss "continue" the run goes on */
	char lost_why[128];
};

struct bc_step_result;

/* live.c: the per-second view (lines, a terminal panel, or JSON lines) */
enum bc_live_mode { BC_LIVE_AUTO = 0, BC_LIVE_LINES, BC_LIVE_TTY, BC_LIVE_JSON, BC_LIVE_QUIET };
struct bc_live_progress {
	int step, nsteps; /* profile step (0-based) and how many */
	uint32_t after_s; /* seconds of the steps after this one (the run ETA) */
};
void bc_live_init(enum bc_live_mode mode);
enum bc_live_mode bc_live_mode(void);
/* what the per-second lines look like (--format): bench-coord's, or vdbench's 13 columns */
enum bc_live_format { BC_LIVE_FMT_DEFAULT = 0, BC_LIVE_FMT_VDBENCH };
void bc_live_set_format(enum bc_live_format fmt);
enum bc_live_format bc_live_format(void);
/* where text for people goes: stdout, or stderr when stdout carries JSON */
FILE *bc_live_out(void);
/* the terminal's width when the live view is a panel on one, else 0 (unlimited) */
int bc_live_cols(void);
/*
 * text on f in lines of fewer than cols columns, folded at spaces, every line
 * after the first indented by indent; one word longer than a line (a path)
 * is printed whole. cols 0: text as is.
 */
void bc_live_fold(FILE *f, int cols, int indent, const char *text);
void bc_live_header(const struct bc_step_result *res);
void bc_live_second(const struct bc_step_result *res, uint32_t k, int nagents,
		    const struct bc_live_progress *p);
void bc_live_note(const char *text);
void bc_live_step_end(void);

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
	struct bc_counters *counters; /* storage-node counters (bc_counter.h), owned by cmd_run */
	struct bc_live_progress progress; /* where the run is, for the live view */
	struct bc_metrics *metrics;	  /* --metrics-listen server, NULL without */
	struct bc_volnode *volnode; /* [prof->nvolumes]: each volume's node (volnode.c), owned */
	struct bc_fleet_held *held; /* received during bc_fleet_beside, for bc_fleet_recv */
	uint64_t beat_ns;	    /* CLOCK_MONOTONIC of bc_fleet_beat's last HEARTBEAT */
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
/* send to one agent (and look at its socket again: a send can take a receive's wake-up) */
int bc_fleet_send(struct bc_fleet *f, struct bc_conn *c, enum bc_msg_type t, const cJSON *body);
void bc_fleet_broadcast(struct bc_fleet *f, enum bc_msg_type t, const cJSON *body);
/* a HEARTBEAT to every agent unless one went less than a second ago: call it while waiting */
void bc_fleet_beat(struct bc_fleet *f);
/*
 * run fn(arg) on a thread of its own while this thread keeps every session
 * alive (heartbeats, receives; messages other than heartbeats are held for
 * bc_fleet_recv); fn must not use the fleet's sockets. Returns when fn has.
 */
void bc_fleet_beside(struct bc_fleet *f, void (*fn)(void *), void *arg);
/* bc_result_step_json and bc_step_result_free, run beside the fleet */
cJSON *bc_fleet_step_json(struct bc_fleet *f, const struct bc_step_result *res);
void bc_fleet_step_free(struct bc_fleet *f, struct bc_step_result *res);
struct bc_agg;
/* bc_agg_init (seconds at 1,000s of volumes: it zeroes every second's slots) beside the fleet */
int bc_fleet_agg_init(struct bc_fleet *f, struct bc_agg *g, const struct bc_step *st);

/*
 * rundir.c: the run directory and its append-only event log. "stats" events
 * are JSON with every histogram bucket, or compact: the STATS body in base64
 * (auto: compact above BC_EVENTS_COMPACT_STREAMS volumes; docs/protocol.md)
 */
enum bc_events_format { BC_EVENTS_AUTO = 0, BC_EVENTS_JSON, BC_EVENTS_COMPACT };
#define BC_EVENTS_COMPACT_STREAMS 2000
struct bc_rundir {
	char path[BC_PATH_MAX];
	FILE *events; /* events.jsonl, flushed per record */
	char *line;   /* bc_rundir_stats' line buffer without a writer thread, owned */
	size_t line_cap;
	struct bc_rundir_writer *writer; /* rundir.c: the thread that writes events.jsonl */
	bool compact;	      /* "stats" events as base64 STATS bodies (BC_EVENTS_COMPACT) */
	struct bc_secw *secw; /* seconds.bin (bc_secfile.h), closed with the directory */
	uint32_t secw_steps;  /* steps written into it so far (the next one's ordinal) */
};
int bc_rundir_create(struct bc_rundir *r, const char *parent, const char *name, char *err,
		     size_t errlen);
/* append one event (adds "event" and "time_ns"); takes ownership of body */
void bc_rundir_event(struct bc_rundir *r, const char *event, cJSON *body);
int bc_rundir_write_json(struct bc_rundir *r, const char *file, const cJSON *j);
struct bc_agg;
/*
 * append the "stats" event of the record just added to g (bc_agg_add) from
 * agent c, whose raw body is body: byte for byte what bc_rundir_event would
 * write for bc_agg_record_json + "step", without building it in cJSON (at
 * 1,000 agents that is 13 million numbers a second), rendered by the writer
 * thread from a copy of body (or here without one); compact: the body in
 * base64 instead of its histograms. g is not read (the body says it all).
 */
void bc_rundir_stats(struct bc_rundir *r, const struct bc_agg *g, const struct bc_conn *c,
		     const struct bc_stats_hdr *h, const uint8_t *body, size_t len);
/* the writer thread's CPU time so far, ns (0 without one) */
uint64_t bc_rundir_writer_cpu_ns(const struct bc_rundir *r);
void bc_rundir_close(struct bc_rundir *r);

/* agg.c: per-step aggregation into volumes, agents, nodes and the total */
struct bc_secrow {
	uint64_t ios[BC_OP_NR];
	uint64_t bytes[BC_OP_NR];
	uint64_t errors;
	uint64_t short_ios;
	uint64_t lat_sum_ns;
	uint64_t op_lat_sum_ns[BC_OP_NR]; /* lat_sum_ns by op (vdbench's read/write resp) */
	uint64_t op_max_ns[BC_OP_NR];	  /* exact maximum latency by op, 0 without ios */
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns, p9999_ns, max_ns; /* all ops, merged histogram */
	/*
	 * population standard deviation of every op's latency, from the
	 * merged histogram (bc_hist_stddev): nodes and the total only, which
	 * merge theirs when the second closes (0 for volumes and agents)
	 */
	uint64_t lat_sd_ns;
	uint32_t reports; /* records added into this second */
	uint32_t late;	  /* records that arrived after the second was closed */
};

struct bc_rhist; /* agg.c: a histogram over the range of its non-empty buckets */

struct bc_entity {
	char name[BC_NAME_MAX + BC_PATH_MAX];
	struct bc_volstat window; /* measured window (ramp excluded) */
	/*
	 * every interval, ramp and drain included: counters only, its
	 * histograms stay empty (nothing reads them; 16,000 of them would
	 * cost a gigabyte)
	 */
	struct bc_volstat all;
	struct bc_secrow *secs;	    /* [seconds] */
	struct bc_rhist **sec_hist; /* [seconds], nodes and total: open seconds only */
};

enum bc_level { BC_LVL_VOLUME = 0, BC_LVL_AGENT, BC_LVL_NODE, BC_LVL_TOTAL, BC_LVL_NR };

struct bc_volnode; /* bc_volnode.h */

struct bc_agg {
	const struct bc_profile *prof;
	/* each volume's node, NULL: the profile's (bc_agg_vol_node, volnode.c) */
	const struct bc_volnode *volnode;
	uint32_t seconds; /* ramp + runtime */
	uint32_t ramp_s;
	struct bc_entity *ent[BC_LVL_NR];
	int nent[BC_LVL_NR];
	uint32_t *agents_reported;     /* [seconds]: agents whose record for k arrived */
	uint32_t *late;		       /* [seconds]: records flagged late by an agent */
	uint64_t *last_rx_ns;	       /* [seconds]: when k's latest record arrived (realtime) */
	uint32_t closed;	       /* seconds [0, closed) are closed */
	struct bc_volstat *scratch;    /* decode buffer, sized for the largest agent */
	struct bc_stats_touch *touch;  /* [scratch_n]: the non-empty buckets of scratch */
	struct bc_rhist *rh_free;      /* closed seconds' histograms, for reuse */
	struct bc_volstat *asum;       /* the record being added, summed over its volumes */
	struct bc_stats_touch *atouch; /* the non-empty buckets of asum */
	void *rows_map;		       /* every entity's secs, file-backed when large (agg.c) */
	size_t rows_map_len;
	uint32_t touched; /* rows_map: seconds [0, touched) were touched (agg.c) */
	uint32_t spilled; /* rows_map: g->closed at the last write-out and drop */
	int scratch_n;
	struct bc_aggpool *pool; /* worker threads (aggpool.c), NULL: serial */
	/* seconds.bin (bc_secfile.h): each second written as it closes */
	struct bc_secw *secw;	/* NULL: not written (before START, or ended) */
	uint32_t secw_step;	/* this step's ordinal in it */
	bool secw_on;		/* the step is in the file: run.json's volume series come from it */
	uint32_t *secw_reports; /* [seconds]: the total's reports when k's rows were written */
};

int bc_agg_init(struct bc_agg *g, const struct bc_profile *p, const struct bc_step *st);
void bc_agg_free(struct bc_agg *g);
/* decode one STATS body from agent c and add it everywhere; -errno on a bad record */
int bc_agg_add(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
	       struct bc_stats_hdr *hdr);
/*
 * add g->scratch[0..c->nvols) (already decoded, agent volume order)
 * everywhere; the caller filled it after bc_volstat_reset (rebuild.c)
 */
int bc_agg_add_decoded(struct bc_agg *g, const struct bc_conn *c, const struct bc_stats_hdr *hdr);
/* close second k: percentiles from its histograms, which are then freed */
void bc_agg_close_second(struct bc_agg *g, uint32_t k);
/*
 * Between seconds, right after closing some: write out and drop the rows
 * when due (agg.c), and fault in every entity's row of the next open second
 * now rather than when its first record arrives (17,000 page faults at
 * 1,000 agents, on the critical path of that second's lag).
 */
void bc_agg_rows_ahead(struct bc_agg *g);
/*
 * seconds.bin: from now on write each second of g into w as it closes, as
 * step ord (profile step idx, named name); 0 or -errno. _end: the seconds
 * that late records changed after they were written, again, and the
 * step's end; call after bc_agg_finish (and a size-based trim).
 */
struct bc_secw;
int bc_agg_secfile_begin(struct bc_agg *g, struct bc_secw *w, uint32_t ord, int idx,
			 const char *name);
void bc_agg_secfile_end(struct bc_agg *g);
/*
 * aggpool.c: aggregation on worker threads, results identical to the serial
 * path. bc_agg_pool_start: threads workers (0: stay serial); 0 or -errno.
 * bc_agg_submit: bc_agg_add, or with a pool hand the record to its agent's
 * worker (fills *hdr from the header; -errno, with *bad the agent, for
 * this record or an earlier one a worker failed on). bc_agg_finish: wait
 * for the workers, merge and stop them; g is complete afterwards. All on
 * the thread that owns g.
 */
int bc_agg_pool_start(struct bc_agg *g, int threads);
int bc_agg_submit(struct bc_agg *g, const struct bc_conn *c, const uint8_t *body, size_t len,
		  struct bc_stats_hdr *hdr, const struct bc_conn **bad);
void bc_agg_finish(struct bc_agg *g);
/* the workers' CPU time so far, ns (0 without a pool) */
uint64_t bc_agg_pool_cpu_ns(const struct bc_agg *g);
/* --agg-threads auto: 0 below 64 agents, else min(cores - 1, 4), at least 2 */
int bc_agg_threads_auto(int nagents);
/* the JSON of a decoded record for events.jsonl; caller owns it */
cJSON *bc_agg_record_json(const struct bc_agg *g, const struct bc_conn *c,
			  const struct bc_stats_hdr *h);

/* results.c */
struct bc_step_result {
	const struct bc_step *step; /* the step as run: a sweep point's or experiment's copy */
	int idx;		    /* its profile step (events' "step") */
	const char *status;	    /* "ok", "failed", "aborted" */
	char error[1024];
	uint64_t start_ns; /* coordinator CLOCK_REALTIME of interval 0 */
	struct bc_agg agg;
	cJSON *agent_totals;  /* STEP_DONE bodies by agent name */
	cJSON *clock;	      /* per-agent clock offset re-measured before START */
	cJSON *lost;	      /* agents lost during this step: [{name, from_second, reason}] */
	cJSON *hosts;	      /* {agent: [host counters of second k, with "second"]} */
	cJSON *node_counters; /* {node: bc_counters_node_json()} */
	cJSON *analysis;      /* bc_ana_json() of the step as one point */
	bool *
	    out; /* [prof->nagents]: lost in an earlier step, not in this one; owned, may be NULL */
};
cJSON *bc_result_step_json(const struct bc_step_result *r);
/* free what a step result owns and zero it, for the next step */
void bc_step_result_free(struct bc_step_result *r);
/* the step's table on f, fitted to cols columns (bc_live_cols(); 0: full width) */
void bc_result_print_step(FILE *f, const struct bc_step_result *r, int cols);
/*
 * runjson.c: write run (the run.json tree) to dir/run.json, each step's
 * volumes without a "series" given theirs from the seconds file secf
 * (NULL: dir/seconds.bin); write then rename. 0 or -errno.
 */
int bc_runjson_write(const char *dir, const cJSON *run, const char *secf);
/* one row of figures: IOPS, MB/s, latency percentiles for a window */
cJSON *bc_result_window_json(const struct bc_volstat *w, uint32_t seconds);
/* seconds of the measured window in which e received at least one record */
uint32_t bc_result_window_secs(const struct bc_agg *g, const struct bc_entity *e);
/* profile agent a is not in this step (lost in an earlier one, "continue") */
bool bc_result_agent_out(const struct bc_step_result *r, int a);
/* the agent named was lost during this step */
bool bc_result_agent_lost(const struct bc_step_result *r, const char *name);
/* I/Os the step keeps in flight (iodepth x numjobs) over the volumes in it */
double bc_result_outstanding(const struct bc_step_result *r);
/* a size-based step whose pass ended early ends with its last second of I/O */
void bc_result_trim_size_based(struct bc_step_result *r);
/* "ok", or "degraded" when an agent was lost in this step or an earlier one */
const char *bc_result_ok_status(const struct bc_step_result *r);

/* verdict.c: the step as one analysis point: node and client USE, verdict */
struct bc_ana_point;
/* fill *pt from a finished step (allocates its USE arrays); 0 or -1 without I/O */
int bc_verdict_point(struct bc_fleet *f, const struct bc_step_result *res, struct bc_ana_point *pt);
void bc_verdict_point_free(struct bc_ana_point *pt);
cJSON *bc_verdict_step(struct bc_fleet *f, struct bc_step_result *res);
/* window mean of one agent's host samples, NULL without samples; caller owns it */
cJSON *bc_verdict_client_mean(const struct bc_step_result *res, const char *agent);

/*
 * hostsamples.c: one agent's host samples (res->hosts[agent]) indexed by
 * second, [seconds], NULL where none came; NULL when out of memory; free() it
 */
const cJSON **bc_host_by_second(const cJSON *samples, uint32_t seconds);

/* checks.c: cross-checks of a finished step, as a run.json array */
cJSON *bc_checks_json(const struct bc_step_result *r);

/*
 * preflight.c: every volume of every agent through its PREPARE checks
 * (CHECK), nothing opened for writing. checks[i] (f->n of them, caller
 * frees) gets agent i's volumes in its order: {path, ok, resolved,
 * message, steps[]}; *refused counts the refused ones. 0 when every agent
 * answered (refusals included), else -errno with the message in err.
 */
int bc_preflight(struct bc_fleet *f, cJSON **checks, int *refused, char *err, size_t errlen);

/* stepexec.c */
/* the PREPARE (and CHECK) body of step st (profile step idx) for agent c; caller owns it */
cJSON *bc_prepare_body(const struct bc_fleet *f, const struct bc_conn *c, int idx,
		       const struct bc_step *st);
/*
 * Run st (profile step step_idx, or one point of its sweep) on every agent
 * that is not lost; res is filled whatever happens. 0 or -errno.
 */
int bc_step_execute(struct bc_fleet *f, struct bc_rundir *rd, int step_idx,
		    const struct bc_step *st, struct bc_step_result *res);

/* steprun.c: a profile step, swept or not, into run.json's steps array */
int bc_run_profile_step(struct bc_fleet *f, struct bc_rundir *rd, int idx, cJSON *steps,
			void (*flush)(void *), void *ctx, bool *degraded, char *err, size_t errlen);
/* cmd_run.c: print failed cross-checks and an unsteady window of a step */
void bc_result_warn_checks(const struct bc_step_result *res, const cJSON *sj);

/* metrics.c: --metrics-listen, the live aggregates for Prometheus */
struct bc_metrics;
/* listen on addr ("127.0.0.1:9470"); NULL with a message in err */
struct bc_metrics *bc_metrics_start(const char *addr, const char *profile, char *err,
				    size_t errlen);
/* publish second k of res (just closed); m may be NULL */
void bc_metrics_update(struct bc_metrics *m, const struct bc_step_result *res, uint32_t k);
void bc_metrics_stop(struct bc_metrics **m);

/* command entry points */
int bc_cmd_run(int argc, char **argv);
int bc_cmd_validate(int argc, char **argv);
int bc_cmd_keygen(int argc, char **argv);
int bc_cmd_trust(int argc, char **argv);   /* cmd_keys.c */
int bc_cmd_keyscan(int argc, char **argv); /* cmd_keys.c */
int bc_cmd_discover(int argc, char **argv);
int bc_cmd_dump_seconds(int argc, char **argv); /* cmd_dump.c */

#endif
