/*
 * wire/clocksync.h - clock offset of an agent from request/response exchanges
 * (NTP's on-wire method, simplified): for each exchange the coordinator
 * notes its send and receive times and the agent its own time in between.
 * The exchange with the smallest round trip bounds the offset best: whatever
 * the split of the delay between the two directions, the true offset lies
 * within +-rtt/2 of (agent - midpoint).
 */
#ifndef BC_WIRE_CLOCKSYNC_H
#define BC_WIRE_CLOCKSYNC_H

#include <stdint.h>

struct bc_clock_sample {
	uint64_t t_send_ns;  /* coordinator CLOCK_REALTIME at send */
	uint64_t t_agent_ns; /* agent CLOCK_REALTIME when it answered */
	uint64_t t_recv_ns;  /* coordinator CLOCK_REALTIME at receive */
};

struct bc_clock_est {
	int64_t offset_ns;	 /* agent clock minus coordinator clock */
	uint64_t rtt_ns;	 /* round trip of the chosen sample */
	uint64_t uncertainty_ns; /* half that round trip: the worst-case error */
	int samples;		 /* valid samples considered */
	uint64_t at_ns;		 /* the chosen sample's midpoint, coordinator time */
};

/*
 * Estimate from n samples; samples whose receive precedes their send are
 * ignored. Returns 0, or -EINVAL when no sample is valid.
 */
int bc_clock_estimate(const struct bc_clock_sample *s, int n, struct bc_clock_est *out);

#endif
