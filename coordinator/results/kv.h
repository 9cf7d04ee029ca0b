/*
 * results/kv.h (results/kv.c) - a KV-cache workload's per-class figures
 * (engine/kvgen.h, docs/kv.md) added up over several run.json step entries
 * and every agent's volumes: records and bytes summed, lifetimes and
 * latencies from merged histograms (never averaged percentiles).
 */
#ifndef BC_RESULTS_KV_H
#define BC_RESULTS_KV_H

#include <stdbool.h>

#include <cjson/cJSON.h>

struct bc_kvsum;

/* an empty sum; NULL without memory */
struct bc_kvsum *bc_kvsum_new(void);
void bc_kvsum_free(struct bc_kvsum **s);

/*
 * Add one run.json step entry: every volume's "kv" classes, each with the
 * step's "placement" of its stream and of its metadata log
 */
void bc_kvsum_add_step(struct bc_kvsum *s, const cJSON *sj);

/* classes seen so far (0: the steps ran no KV workload) */
int bc_kvsum_classes(const struct bc_kvsum *s);

/* store and prefetch records that failed or never completed, over every class */
double bc_kvsum_record_failures(const struct bc_kvsum *s);

/*
 * The sum as an array, one object per class in first-seen order: name,
 * class, workers, object_bytes, placement, meta, meta_placement, stores,
 * expected_stores, store_bytes (the logical store bytes), prefetches,
 * expected_prefetches, prefetch_bytes, meta_records, meta_bytes, evictions,
 * trims, record_failures, io_errors, lifetime {objects, mean_ms, p50_ms,
 * p99_ms, max_ms}, latency {store|prefetch|meta|evict: {ios, mean_ms,
 * p50_ms, p99_ms}}. Caller owns it.
 */
cJSON *bc_kvsum_json(const struct bc_kvsum *s);

#endif
