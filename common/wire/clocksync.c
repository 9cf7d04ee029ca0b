/*
 * wire/clocksync.c - minimum-RTT clock offset estimator (see wire/clocksync.h).
 */
#include <errno.h>
#include <string.h>

#include "wire/clocksync.h"

int bc_clock_estimate(const struct bc_clock_sample *s, int n, struct bc_clock_est *out)
{
	int i, best = -1;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (s[i].t_recv_ns < s[i].t_send_ns)
			continue;
		out->samples++;
		if (best < 0 ||
		    s[i].t_recv_ns - s[i].t_send_ns < s[best].t_recv_ns - s[best].t_send_ns)
			best = i;
	}
	if (best < 0)
		return -EINVAL;
	out->rtt_ns = s[best].t_recv_ns - s[best].t_send_ns;
	out->uncertainty_ns = (out->rtt_ns + 1) / 2;
	out->at_ns = s[best].t_send_ns + out->rtt_ns / 2;
	out->offset_ns = (int64_t)(s[best].t_agent_ns - out->at_ns);
	return 0;
}
