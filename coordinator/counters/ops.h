/*
 * counters/ops.h - the node counter source plug-in contract (in the
 * spirit of fio's engines): a source reads a node's counters on the step's
 * 1 s timeline from wherever they are (node_exporter text endpoints, a
 * Prometheus server, ...). counters.c drives every source through this
 * table alone and knows nothing of how a source gets its numbers: a source
 * that speaks HTTP uses the shared transport of counters/http.h. Adding a
 * source is one counter_X.c plus one entry in counters.c's table.
 */
#ifndef BC_COUNTERS_OPS_H
#define BC_COUNTERS_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "figures/hostfig.h"
#include "profile/profile.h"

/*
 * Version 2: one control call (ctl) with enum bc_counter_ctl replaces
 * step_begin, start_scrape, next_due and step_done, the transport-specific
 * poll is gone, and sources share transports through bc_counter_shared;
 * counters.c refuses any other version.
 */
#define BC_COUNTER_OPS_VERSION 2
#define BC_COUNTER_TIMEOUT_MS  800 /* a 1 s scrape must end before the next boundary */
#define BC_COUNTER_LATE_MS     400 /* a boundary started later than this is nearer the next one */

struct bc_counter_step {
	uint64_t start_ns; /* boundary 0, CLOCK_REALTIME */
	uint32_t seconds;  /* boundaries 0..seconds */
	uint32_t ramp_s;
	/*
	 * the first boundary to sample: 0 live, UINT32_MAX for a step replayed
	 * from the log (BC_CCTL_SAMPLE) until BC_CCTL_STEP_FROM names the
	 * boundary a resumed coordinator goes on from (run/reattach.h)
	 */
	uint32_t from_b;
};

#define BC_COUNTER_SHARED_MAX 4
/*
 * State the sources of one transport share for a run (the HTTP sources' one
 * libcurl multi handle), each under a key that is an address of the
 * transport's own; counters.c only holds the table, the transport fills and
 * empties its slot (bc_counter_http.c).
 */
struct bc_counter_shared {
	const void *key[BC_COUNTER_SHARED_MAX];
	void *ptr[BC_COUNTER_SHARED_MAX];
};

/*
 * Where a source's samples go as they are taken (counters.h,
 * bc_counters_set_log): the run directory's event log, so that a
 * coordinator killed mid-step loses none of them (run/reattach.h replays
 * them through BC_CCTL_SAMPLE). sample is counters.c's: it names the node
 * and the source in body and hands it to fn, which takes ownership.
 */
struct bc_counter_src;
struct bc_counter_log {
	void (*sample)(struct bc_counter_src *s, cJSON *body);
	void (*fn)(void *arg, cJSON *ev);
	void *arg;
};

struct bc_counter_src {
	const struct bc_counter_ops *ops;
	const struct bc_profile *prof;
	int node;			  /* index into prof->nodes */
	void *priv;			  /* the source's state */
	struct bc_counter_shared *shared; /* the run's, for the transports */
	const struct bc_counter_log *log; /* the run's; fn NULL: not logged */
};

/*
 * A sample of source s, body (owned), as a "node_scrape" event with the
 * node's and the source's names: what BC_CCTL_SAMPLE takes back
 */
static inline void bc_counter_log_sample(struct bc_counter_src *s, cJSON *body)
{
	if (s->log && s->log->sample)
		s->log->sample(s, body);
	else
		cJSON_Delete(body);
}

/* the control calls; a source answers -ENOTSUP to one it does not know */
enum bc_counter_ctl {
	/* arg: const struct bc_counter_step *: forget the last step, sample this one */
	BC_CCTL_STEP_BEGIN = 1,
	/* arg: const uint64_t * (now, CLOCK_REALTIME ns): start what is due, collect what finished;
	   never blocks */
	BC_CCTL_TICK,
	/* arg: uint64_t *: when TICK next has work to start, UINT64_MAX when none this step */
	BC_CCTL_NEXT_DUE,
	/* returns 1 while transfers of its own are in flight (TICK collects them), else 0 */
	BC_CCTL_BUSY,
	/* returns 1 when every boundary was sampled or given up and every query answered */
	BC_CCTL_STEP_DONE,
	/* arg: const int * (ms): sleep up to ms on its own sockets, waking when one is ready; 0 */
	BC_CCTL_WAIT,
	/* arg: struct bc_nodefacts * (counters/facts.h): the node's facts of the step; -ENODATA */
	BC_CCTL_FACTS,
	/* arg: const uint32_t *: the step ends after that many seconds (stopped by the user) */
	BC_CCTL_STEP_END,
	/*
	 * arg: const cJSON * (a "node_scrape" event this source logged): apply
	 * it as when it was taken, without logging it again
	 */
	BC_CCTL_SAMPLE,
	/*
	 * arg: const uint32_t *: sample live from that boundary on; a step
	 * begun with from_b UINT32_MAX (replayed) samples nothing before this
	 */
	BC_CCTL_STEP_FROM,
};

struct bc_counter_ops {
	int version; /* BC_COUNTER_OPS_VERSION */
	const char *name;
	/* read the node's profile object; -ENOENT: this source is not configured there */
	int (*open)(struct bc_counter_src *s, const cJSON *node, char *err, size_t errlen);
	/* enum bc_counter_ctl: 0 or what the call says, -errno on failure */
	int (*ctl)(struct bc_counter_src *s, int op, void *arg);
	/* add this source's part of the step to the node's object */
	void (*step_json)(struct bc_counter_src *s, cJSON *node_obj);
	/* window figures; names of custom series; 0 or -ENODATA */
	int (*window)(const struct bc_counter_src *s, struct bc_hostfig *out, const char **names);
	void (*close)(struct bc_counter_src *s);
};

#endif
