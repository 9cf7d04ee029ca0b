/*
 * bc_counter.h - storage-node counters on the step's 1 s timeline, from
 * pluggable sources (an ops table, in the spirit of fio's engines):
 *   prom-text  node_exporter-style /metrics endpoints (nodes[].metrics),
 *              scraped at every second boundary of a step (counter_prom.c);
 *   promql     a Prometheus server (nodes[].prometheus), asked once per step
 *              with /api/v1/query_range at 1 s resolution (counter_promql.c).
 * All transfers go through one libcurl multi handle, so nothing here blocks:
 * a slow or dead node costs its own missing seconds, never the run.
 *
 * Call contract for the run loop (single thread, the coordinator's):
 *
 *   c = bc_counters_new(prof, err, len);      once per run, after loading the
 *                                             profile; NULL + err on bad config
 *   per step:
 *     bc_counters_step_begin(c, res->start_ns, res->agg.seconds, ramp_s);
 *                                             right after START is sent
 *     in the loop, at least every 100 ms and whenever
 *     bc_counters_timeout_ms(c, now) has elapsed:
 *       bc_counters_tick(c, bc_real_ns());    starts due scrapes, reads
 *                                             finished ones; < ~5 ms
 *     after the step's last second (while waiting for STEP_DONE, or after):
 *       keep ticking until bc_counters_step_done(c) - the last boundary is
 *       the step's end, PromQL is asked 2 s ("lag") after it and may take
 *       up to 5 s more. Or call bc_counters_step_finish(c, 1000) (it ticks
 *       and sleeps on curl's sockets) repeatedly with a HEARTBEAT broadcast
 *       between calls: agents end their session after BC_AGENT_SILENCE_MS
 *       (5 s) without one, so never block longer than a second at a time.
 *     j = bc_counters_node_json(c, i);        steps[].nodes[i].counters
 *     bc_counters_node_hostfig(c, i, &fig, names), then bc_use_from_hostfig()
 *                                             for the analysis (bc_analysis.h)
 *   bc_counters_destroy(&c);                  at the end of the run
 *
 * Second k of a step is [start + k s, start + (k+1) s) as for the agents:
 * each text endpoint is sampled at every boundary k = 0..seconds, and the
 * delta from boundary k to k+1 is second k. A boundary whose scrape failed
 * (800 ms timeout, HTTP error, unparsable body) or that could not start
 * within 400 ms of its time leaves the seconds on both sides missing (null
 * in the series, listed in "missing_seconds"); window figures come from the
 * first and last good boundaries of the measured window, so a gap inside it
 * costs nothing but resolution.
 */
#ifndef BC_COUNTER_H
#define BC_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "bc_hostfig.h"
#include "bc_profile.h"

struct bc_counters;

/*
 * Sources for every node of p that has "metrics" or "prometheus" (none is
 * fine: every call is then a no-op). Returns NULL with a message in err on
 * a bad node configuration or without memory. p must outlive the object.
 */
struct bc_counters *bc_counters_new(const struct bc_profile *p, char *err, size_t errlen);
void bc_counters_destroy(struct bc_counters **cp);

/* any node has a source */
bool bc_counters_active(const struct bc_counters *c);

/*
 * A new step: forget the previous step's data, sample boundary 0 at
 * start_real_ns (CLOCK_REALTIME, the common timeline) and every second
 * after it up to boundary `seconds`. ramp_s seconds are outside the window.
 */
void bc_counters_step_begin(struct bc_counters *c, uint64_t start_real_ns, uint32_t seconds,
			    uint32_t ramp_s);

/* start what is due at now_real_ns, collect what finished; never waits */
void bc_counters_tick(struct bc_counters *c, uint64_t now_real_ns);

/* ms until the next tick is due (0: now), -1 when nothing is pending */
int bc_counters_timeout_ms(const struct bc_counters *c, uint64_t now_real_ns);

/* every boundary of the step was sampled or given up, every query answered */
bool bc_counters_step_done(const struct bc_counters *c);

/* tick until bc_counters_step_done or timeout_ms; 0 or -ETIMEDOUT */
int bc_counters_step_finish(struct bc_counters *c, int timeout_ms);

/*
 * Node i's counters of the step, for steps[].nodes[i].counters; NULL when
 * the node has no source. Shape (reports/README.md, "Node counters"):
 * {"sources": [...], "link_mbps": 25000, "interfaces": ["bond0"],
 *  "window": {"from_second", "to_second", <bc_hostfig keys>},
 *  "series": {<key>: [per second, null when missing]}, "missing_seconds": [...],
 *  "nics": {...}, "disks": {...}, "custom": {name: {"window", "series"}},
 *  "scrapes": {"ok", "failed", "last_error"}, "promql": {...}}
 * Caller owns it.
 */
cJSON *bc_counters_node_json(struct bc_counters *c, int node);

/* {"<node name>": bc_counters_node_json(...), ...} for every node with a source */
cJSON *bc_counters_step_json(struct bc_counters *c);

/*
 * Node i's figures over the measured window into *out: from its text
 * endpoints, with what they lack (and every custom series) filled from its
 * Prometheus server; the names of the custom series into
 * names[0..out->ncustom) (BC_HF_CUSTOM entries; pointers valid for the
 * object's life; names may be NULL). Returns 0, -ENODATA or -ENOMEM.
 */
int bc_counters_node_hostfig(const struct bc_counters *c, int node, struct bc_hostfig *out,
			     const char **names);

/*
 * counter_prom.c: parse one /metrics page into snap exactly as a scrape
 * would, with the node's "nic" and "series" (node may be NULL); for tests
 * and offline use. Returns 0 or -errno; st may be NULL.
 */
struct bc_prom_stats;
int bc_counter_prom_parse(const char *text, size_t len, const cJSON *node, struct bc_hostsnap *snap,
			  struct bc_prom_stats *st);

/* ---- the source interface (counter_*.c) ---- */

#define BC_COUNTER_OPS_VERSION 1
#define BC_COUNTER_TIMEOUT_MS  800 /* a 1 s scrape must end before the next boundary */
#define BC_COUNTER_LATE_MS     400 /* a boundary started later than this is nearer the next one */

struct bc_counter_step {
	uint64_t start_ns; /* boundary 0, CLOCK_REALTIME */
	uint32_t seconds;  /* boundaries 0..seconds */
	uint32_t ramp_s;
};

struct bc_counter_src {
	const struct bc_counter_ops *ops;
	const struct bc_profile *prof;
	int node;     /* index into prof->nodes */
	CURLM *multi; /* shared; the source adds and removes its own easy handles */
	void *priv;   /* the source's state */
	int inflight; /* its transfers in the multi handle (the dispatcher counts) */
};

struct bc_counter_ops {
	int version; /* BC_COUNTER_OPS_VERSION */
	const char *name;
	/* read the node's profile object; -ENOENT: this source is not configured there */
	int (*open)(struct bc_counter_src *s, const cJSON *node, char *err, size_t errlen);
	void (*step_begin)(struct bc_counter_src *s, const struct bc_counter_step *st);
	/* add the transfers due at now to s->multi; must not block */
	void (*start_scrape)(struct bc_counter_src *s, uint64_t now_ns);
	/* one of its transfers finished (CURLOPT_PRIVATE is the source) */
	void (*poll)(struct bc_counter_src *s, CURL *easy, CURLcode result);
	/* when start_scrape next has work, UINT64_MAX when none this step */
	uint64_t (*next_due)(const struct bc_counter_src *s);
	bool (*step_done)(const struct bc_counter_src *s);
	/* add this source's part of the step to the node's object */
	void (*step_json)(struct bc_counter_src *s, cJSON *node_obj);
	/* window figures; names of custom series; 0 or -ENODATA */
	int (*window)(const struct bc_counter_src *s, struct bc_hostfig *out, const char **names);
	void (*close)(struct bc_counter_src *s);
};

extern const struct bc_counter_ops bc_counter_prom_ops;
extern const struct bc_counter_ops bc_counter_promql_ops;

/* counters.c, for sources: a growable response body */
struct bc_counter_buf {
	char *data;
	size_t len, cap;
};
/* CURLOPT_WRITEFUNCTION for a bc_counter_buf (CURLOPT_WRITEDATA); caps at 64 MiB */
size_t bc_counter_buf_write(char *ptr, size_t size, size_t n, void *buf);
/* a configured easy handle for url with the common options; NULL without memory */
CURL *bc_counter_easy(const char *url, struct bc_counter_src *s, struct bc_counter_buf *b,
		      long timeout_ms);
/* add / finish an easy handle of s in the shared multi handle */
int bc_counter_add(struct bc_counter_src *s, CURL *easy);
void bc_counter_remove(struct bc_counter_src *s, CURL *easy);
/* "HTTP 404", "timeout after 800 ms", ... for a finished transfer; returns buf */
const char *bc_counter_xfer_error(CURL *easy, CURLcode rc, char *buf, size_t len);

#endif
