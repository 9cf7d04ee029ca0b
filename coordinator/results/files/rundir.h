/*
 * results/files/rundir.h - the run directory and its append-only event log (rundir.c).
 * "stats" events are, by default (binary), a short line naming the record's
 * frame in records.bin (results/files/reclog.h), which holds the STATS body as the
 * agent sent it; or JSON with every histogram bucket; or compact: the body
 * in base64 (docs/protocol.md). events.jsonl is written by a thread of its
 * own.
 */
#ifndef BC_RESULTS_RUNDIR_H
#define BC_RESULTS_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "profile/profile.h"
#include "wire/stats.h"

struct bc_agg;
struct bc_conn;
struct bc_secw;
struct bc_rundir_writer;

enum bc_events_format { BC_EVENTS_AUTO = 0, BC_EVENTS_JSON, BC_EVENTS_COMPACT, BC_EVENTS_BINARY };
/* records.bin's zlib level (its bodies are Huffman coded only: the level hardly matters) */
#define BC_RECLOG_LEVEL 1
struct bc_rundir {
	char path[BC_PATH_MAX];
	FILE *events; /* events.jsonl, flushed per record */
	char *line;   /* bc_rundir_stats' line buffer without a writer thread, owned */
	size_t line_cap;
	struct bc_rundir_writer *writer; /* rundir.c: the thread that writes events.jsonl */
	bool compact;		   /* "stats" events as base64 STATS bodies (BC_EVENTS_COMPACT) */
	bool binary;		   /* ... as lines naming records.bin's frames (BC_EVENTS_BINARY) */
	struct bc_reclogw *reclog; /* records.bin, opened with the first record */
	struct bc_secw *secw;	   /* seconds.bin (agg/secfile.h), closed with the directory */
	uint32_t secw_steps;	   /* steps written into it so far (the next one's ordinal) */
	uint64_t records_end;	   /* a resumed run: records.bin is appended to from here */
	/* the free-space watch (results/files/space.h) */
	uint64_t space_t0_ns, space_last_ns, space_streams0, space_warned_free;
};
int bc_rundir_create(struct bc_rundir *r, const char *parent, const char *name, char *err,
		     size_t errlen);
/*
 * a run directory taken on again (bench-coord run --resume): events.jsonl cut
 * to events_end and appended to, records.bin appended to from records_end
 * (0: created), seconds.bin's writer secw (owned from here) with secw_steps
 * steps in it
 */
int bc_rundir_reopen(struct bc_rundir *r, const char *dir, struct bc_secw *secw,
		     uint32_t secw_steps, uint64_t events_end, uint64_t records_end, char *err,
		     size_t errlen);
/* append one event (adds "event" and "time_ns"); takes ownership of body */
void bc_rundir_event(struct bc_rundir *r, const char *event, cJSON *body);
int bc_rundir_write_json(struct bc_rundir *r, const char *file, const cJSON *j);
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
/*
 * the "stats" line --events-format fmt (json or compact) writes for the
 * STATS body of agent, whose volumes are vols[nvols] (profile indexes, in
 * the agent's order), received at time_ns: into *line (grown, NUL
 * terminated, ends with a newline); its length or -errno. What
 * `bench-coord dump-events` prints for the binary form's lines.
 */
long bc_rundir_stats_text(enum bc_events_format fmt, const char *agent, const int *vols, int nvols,
			  const uint8_t *body, size_t len, uint64_t time_ns, char **line,
			  size_t *cap);
/* the writer thread's CPU time so far, ns (0 without one) */
uint64_t bc_rundir_writer_cpu_ns(const struct bc_rundir *r);
void bc_rundir_close(struct bc_rundir *r);

#endif
