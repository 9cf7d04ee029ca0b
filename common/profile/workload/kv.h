/*
 * profile/workload/kv.h - the KV-cache workload (docs/kv.md): an object
 * store on the volume, generated per class. Each stream of a workload whose
 * streams say "kv" is either an object class ("kv": {...}: its bs is the
 * object size, its range the region its objects live in, its placement
 * where they are written) or a metadata log ("kv": "meta": its bs is the
 * record size, its range the ring the records go round, its placement
 * theirs). A class stores objects, reads live ones back (prefetch), evicts
 * the oldest when its capacity is full (so an object lives capacity / store
 * rate) and writes a metadata record per store and per eviction to its log.
 *
 * Profile (in "defaults" or a step, with "streams"):
 *   "streams": [
 *     {"name": "llama8b_chat_chunk256", "class": "hot_churn", "bs": "4m",
 *      "range": {"offset": "0%", "size": "10%"},
 *      "kv": {"workers": 2, "stores": 5120, "prefetches": 640,
 *             "capacity": "2g", "popularity": "zipf:0.9",
 *             "store_rate": 85.3, "meta": "hot_meta"}},
 *     {"name": "hot_meta", "class": "hot_meta", "bs": "4k",
 *      "range": {"offset": "95%", "size": "1%"}, "kv": "meta"}],
 *   "kv": {"trim": "auto" | true | false, "pace": "60s", "trace": "day1.csv"}
 *
 * Per step (each step is a fresh store, as each iteration of seed 000 ran
 * fresh replay processes): a class's workers split its stores, prefetches
 * and capacity evenly, each on its own part of the region; the step ends
 * when every worker has issued its records ("runtime" caps it).
 */
#ifndef BC_PROFILE_WORKLOAD_KV_H
#define BC_PROFILE_WORKLOAD_KV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/value/check.h"
#include "profile/workload/workload.h"

/* the most workers a class may have (numjobs' own bound) */
#define BC_KV_WORKERS_MAX 1024

/*
 * An object larger than this is written and read in I/Os of this size (the
 * kernel cuts larger requests into the device's maximum transfer anyway;
 * passthrough, which is not cut, is capped by the namespace's own limit)
 */
#define BC_KV_MAX_IO (1u << 20)

/* a stream's "kv": its role and, for a class, what it does */
int bc_kv_check_stream(struct bc_check *c, const char *path, const cJSON *v, struct bc_stream *st);

/* a stream's "kv" in the wire form (NULL when the stream has none); caller owns it */
cJSON *bc_kv_stream_json(const struct bc_stream *st);

/* the workload's "kv" object: trim, pace, trace */
int bc_kv_check(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl);

/* the workload's "kv" onto obj in the wire form (nothing for a workload without it) */
bool bc_kv_to_json(cJSON *obj, const struct bc_workload *wl);

/*
 * The rules between keys of a KV workload (no-op for others): every stream
 * a class or a log, each class's "meta" a log of this workload, numjobs the
 * sum of the classes' workers, one object size per class, no verify,
 * size_based or io_size (the records end the step). base names the workload.
 */
int bc_kv_rules(struct bc_check *c, const char *base, const struct bc_workload *wl);

/* some stream of wl is a KV class or log */
bool bc_workload_kv(const struct bc_workload *wl);

/* the i-th of n even parts of total (parts differ by at most one) */
static inline uint64_t bc_kv_part(uint64_t total, unsigned i, unsigned n)
{
	return (uint64_t)((unsigned __int128)total * (i + 1) / n -
			  (unsigned __int128)total * i / n);
}

/*
 * Which class job `job` (0..numjobs-1) works for: the classes take the jobs
 * in stream order, workers each. Returns the stream index and sets *worker
 * (0..workers-1), or -1 when job is beyond the workers.
 */
int bc_kv_job_class(const struct bc_workload *wl, unsigned job, unsigned *worker);

/*
 * The writers of log stream `log` are the workers of every class naming it,
 * in job order; job's place among them into *idx and their count into *n.
 * Returns 0, or -1 when job does not write that log.
 */
int bc_kv_log_writer(const struct bc_workload *wl, int log, unsigned job, unsigned *idx,
		     unsigned *n);

/* the stream index of class st's log, or -1 */
int bc_kv_meta_index(const struct bc_workload *wl, const struct bc_stream *st);

/* a class's store rate in stores per second (its own, else stores / pace), 0: unpaced */
double bc_kv_store_rate(const struct bc_workload *wl, const struct bc_stream *st);

/* some class of wl stores at a rate */
bool bc_kv_paced(const struct bc_workload *wl);

/*
 * A trace to replay ("kv": {"trace": FILE}, docs/kv.md): one record a line,
 * CSV "time,class,op,key,bytes" (an optional header line "time,...") or a
 * JSON object {"time", "class", "op", "key", "bytes"}; '#' starts a
 * comment. time: seconds from the trace's start, in order; class: a KV
 * class's stream name; op: store, prefetch or evict; key: any text (a
 * number in JSON), hashed; bytes: the object's size (at most the class's
 * bs; store only, the others may say 0).
 */
enum { BC_KV_TR_STORE = 0, BC_KV_TR_PREFETCH, BC_KV_TR_EVICT };
struct bc_kv_trace_rec {
	double t_s;
	int cls; /* stream index */
	int op;	 /* BC_KV_TR_* */
	uint64_t key;
	uint64_t bytes;
	unsigned line;
};

/*
 * Every record of the trace at path, in order, to fn (a non-zero return
 * stops it and is returned). 0, or -errno / -EINVAL with "path:line: why".
 */
int bc_kv_trace_read(const char *path, const struct bc_workload *wl,
		     int (*fn)(void *arg, const struct bc_kv_trace_rec *r), void *arg, char *err,
		     size_t errlen);

/* the trace at path read through: *records, or the first error (the coordinator's check) */
int bc_kv_trace_check(const char *path, const struct bc_workload *wl, uint64_t *records, char *err,
		      size_t errlen);

#endif
