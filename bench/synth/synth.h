/*
 * synth/synth.h - synthetic per-volume STATS payloads shared by the benchmarks
 * (bench/swarm.c plays a fleet with them, bench/agg.c times aggregation on
 * them): one volume-second of a 70/30 random read/write load, lognormal
 * latencies with a slow tail, encoded once with bc_stats_encode.
 */
#ifndef BC_SYNTH_SYNTH_H
#define BC_SYNTH_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "wire/stats.h"

struct bc_synth_payload {
	uint8_t *buf; /* one volume after its index: op mask, ops, histograms */
	size_t len;
	uint64_t ios[BC_OP_NR], bytes[BC_OP_NR], errors[BC_OP_NR], short_ios[BC_OP_NR];
	uint32_t pairs; /* non-empty histogram buckets, all ops */
};

/* deterministic: the same sequence of payloads in every process */
uint64_t bc_synth_rand(void);
/* one volume-second at about iops, latency spread sigma; 0 or -ENOMEM */
int bc_synth_payload(struct bc_synth_payload *p, uint64_t iops, double sigma);
/* the same, encoded with bc_stats_encode_opts' opts (BC_STATS_ENC_NO_PCT: no percentile buckets) */
int bc_synth_payload_opts(struct bc_synth_payload *p, uint64_t iops, double sigma, unsigned opts);
void bc_synth_payload_free(struct bc_synth_payload *p);
/*
 * A STATS body of m volumes for second k, each volume's payload picked from
 * pool[0..npool) by a hash of (agent, volume, k); body must hold
 * 64 + m * (10 + the longest payload). Returns its length.
 */
size_t bc_synth_record(uint8_t *body, size_t cap, uint32_t step, uint32_t k, int agent, int m,
		       const struct bc_synth_payload *pool, int npool,
		       const struct bc_synth_payload **picked);

#endif
