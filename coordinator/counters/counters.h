/*
 * counters/counters.h - storage-node counters on the step's 1 s timeline, the
 * run's API (counters.c) over pluggable sources (counters/ops.h):
 *   prom-text  node_exporter-style /metrics endpoints (nodes[].metrics),
 *              scraped at every second boundary of a step (counters/prom.c);
 *   promql     a Prometheus server (nodes[].prometheus), asked once per step
 *              with /api/v1/query_range at 1 s resolution (counters/promql.c).
 * Nothing here blocks: the HTTP sources share one libcurl multi handle
 * (counters/http.h), and a slow or dead node costs its own missing
 * seconds, never the run.
 *
 * Call contract for the run loop (single thread, the coordinator's):
 *
 *   c = bc_counters_new(prof, err, len);      once per run, after loading the
 *                                             profile; NULL + err on bad config
 *   bc_counters_set_log(c, fn, arg);          every sample into the run's log
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
 *       up to 5 s more. Or call bc_counters_step_finish(c, 500) (it ticks
 *       and sleeps on the sources' sockets) repeatedly with a heartbeat
 *       (bc_fleet_beat) between calls: agents end their session after
 *       BC_AGENT_SILENCE_MS (5 s) without one, and the coordinator beats
 *       twice a second, so never block longer than half a second at a time.
 *     j = bc_counters_node_json(c, i);        steps[].nodes[i].counters
 *     bc_counters_node_hostfig(c, i, &fig, names), then bc_use_from_hostfig()
 *                                             for the analysis (analysis/analysis.h)
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
#ifndef BC_COUNTERS_COUNTERS_H
#define BC_COUNTERS_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "figures/hostfig.h"
#include "profile/profile.h"

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

/*
 * Every sample as it is taken goes to fn(arg, ev) as a "node_scrape"
 * event (ev owned by fn: the run directory's event log), so that the
 * replay of the log (run/rebuild.h) gives the step's node counters again
 * up to the last sample a dead coordinator took. NULL fn: not logged.
 */
void bc_counters_set_log(struct bc_counters *c, void (*fn)(void *arg, cJSON *ev), void *arg);

/*
 * A step replayed from the log: begun as bc_counters_step_begin, but no
 * boundary is sampled until bc_counters_step_from; the "node_scrape"
 * events of the step go to bc_counters_sample in log order.
 */
void bc_counters_step_replay(struct bc_counters *c, uint64_t start_real_ns, uint32_t seconds,
			     uint32_t ramp_s);
/* one "node_scrape" event of the step being replayed; 0, -ENOENT (no such source) */
int bc_counters_sample(struct bc_counters *c, const cJSON *ev);
/*
 * A replayed step taken up live (run/reattach.h): sampled from boundary
 * from_b on. Boundaries before it that no coordinator sampled (the gap)
 * are not counted as failed scrapes; their seconds stay missing and are
 * listed in "coordinator_gaps"; the window runs from the first boundary
 * sampled, before the gap or after it. A Prometheus server, which scraped
 * through the gap, is asked for the whole step as always.
 */
void bc_counters_step_from(struct bc_counters *c, uint32_t from_b);
/* the step ends after `seconds` instead (the user stopped it): no boundary after it is read */
void bc_counters_step_end(struct bc_counters *c, uint32_t seconds);

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
 * Node i's facts (counters/facts.h: NUMA, bonds, processes, versions) from
 * its last scrape of the step. 0, or -ENODATA when no source read any.
 */
struct bc_nodefacts;
int bc_counters_node_facts(const struct bc_counters *c, int node, struct bc_nodefacts *out);

/* the registered source called name ("prom-text", "promql"), NULL if none */
struct bc_counter_ops;
const struct bc_counter_ops *bc_counter_ops_find(const char *name);

/*
 * Registration's check of a source's ops (counters/ops.h), which
 * bc_counters_new runs on every registered source: its version is
 * BC_COUNTER_OPS_VERSION and it has open, ctl, step_json, window and close.
 * 0, or -ENOTSUP with a message naming the source.
 */
int bc_counter_ops_check(const struct bc_counter_ops *ops, char *err, size_t errlen);

#endif
