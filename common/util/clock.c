/*
 * util/clock.c - the drifting clock of bench-agent --debug-clock-ppm (see
 * clock.h): a test's way to give an agent a host clock that runs fast or
 * slow, so that the coordinator's drift measurement and its placing of the
 * agent's seconds can be checked. Nothing else sets it.
 */
#include "util/clock.h"

int32_t bc_clock_skew_ppm;
static uint64_t s_origin[2]; /* the kernel's MONOTONIC and REALTIME when set */

static int s_which(clockid_t id)
{
	return id == CLOCK_REALTIME ? 1 : id == CLOCK_MONOTONIC ? 0 : -1;
}

void bc_clock_skew_set(int32_t ppm)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	s_origin[0] = (uint64_t)ts.tv_sec * BC_NS_PER_S + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_REALTIME, &ts);
	s_origin[1] = (uint64_t)ts.tv_sec * BC_NS_PER_S + (uint64_t)ts.tv_nsec;
	bc_clock_skew_ppm = ppm;
}

uint64_t bc_clock_skewed(clockid_t id, uint64_t t)
{
	int w = s_which(id);

	if (w < 0 || t < s_origin[w])
		return t;
	return t + (uint64_t)((double)(t - s_origin[w]) * bc_clock_skew_ppm / 1e6);
}

uint64_t bc_clock_kernel(clockid_t id, uint64_t t)
{
	int w = s_which(id);

	if (!bc_clock_skew_ppm || w < 0 || t < s_origin[w])
		return t;
	return s_origin[w] + (uint64_t)((double)(t - s_origin[w]) / (1 + bc_clock_skew_ppm / 1e6));
}
