/*
 * engine/rate.h - rate limits of one (job, volume): IOPS and bandwidth token
 * buckets in their GCRA form (ITU-T I.371 virtual scheduling). A bucket is a
 * "theoretical arrival time": an I/O may go when now >= tat - tau, and
 * sending it moves tat to max(tat, now) + its cost. Nothing sleeps here:
 * the job parks a slot until bc_rate_when() and uses that time as its
 * io_uring wait timeout. One writer (the job thread), no locks.
 */
#ifndef BC_ENGINE_RATE_H
#define BC_ENGINE_RATE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Burst tolerance: a job that falls behind by up to this much (a late
 * wake-up, a descheduled thread on a busy client, a device hiccup) catches
 * up, so the long-run rate holds; beyond it the credit is lost rather than
 * spent as a storm. At most this much of the rate goes out at once.
 */
#define BC_RATE_TAU_NS 50000000.0

struct bc_rate {
	double iops_cost_ns; /* per I/O; 0: no IOPS limit */
	double byte_cost_ns; /* per byte; 0: no bandwidth limit */
	double tat_iops;     /* ns since origin */
	double tat_bw;
	uint64_t origin_ns; /* CLOCK_MONOTONIC */
	/*
	 * Open arrivals ("latency_from": "intended"): the schedule of arrivals
	 * never slips behind a late release (no tau cap), so an arrival's
	 * intended time is bc_rate_when() whatever the device does, and a
	 * saturated device shows its queue in the latency measured from it.
	 */
	bool open;
};

/*
 * This job's share of a volume's limits: iops and bytes_per_s are the
 * volume's, split evenly over njobs. 0 disables a bucket. The buckets start
 * empty at origin_ns: the first I/O may go then, the next ones at the rate
 * (no burst at the start; tau only lets a late job catch up).
 */
void bc_rate_init(struct bc_rate *r, uint64_t iops, uint64_t bytes_per_s, unsigned njobs,
		  uint64_t origin_ns);

/* restart the buckets, empty, at origin_ns (the job's real start) */
void bc_rate_start(struct bc_rate *r, uint64_t origin_ns);

static inline bool bc_rate_on(const struct bc_rate *r)
{
	return r->iops_cost_ns > 0 || r->byte_cost_ns > 0;
}

/* earliest CLOCK_MONOTONIC time at which an I/O conforms to both buckets */
static inline uint64_t bc_rate_when(const struct bc_rate *r)
{
	double t = r->tat_iops > r->tat_bw ? r->tat_iops : r->tat_bw;

	t -= BC_RATE_TAU_NS;
	return t <= 0 ? r->origin_ns : r->origin_ns + (uint64_t)t + 1;
}

/*
 * An I/O of len bytes is sent at now (>= bc_rate_when): charge both buckets.
 * gap scales the cost: 1 for evenly spaced arrivals, an exponential draw of
 * mean 1 (bc_rate_gap) for Poisson arrivals.
 */
static inline void bc_rate_take(struct bc_rate *r, uint32_t len, uint64_t now, double gap)
{
	double t = r->open ? 0 : (double)(now - r->origin_ns);

	if (r->iops_cost_ns > 0)
		r->tat_iops = (r->tat_iops > t ? r->tat_iops : t) + r->iops_cost_ns * gap;
	if (r->byte_cost_ns > 0)
		r->tat_bw = (r->tat_bw > t ? r->tat_bw : t) + r->byte_cost_ns * len * gap;
}

/* an exponential draw of mean 1 from u in [0, 1): the gap of Poisson arrivals */
double bc_rate_gap(double u);

#endif
