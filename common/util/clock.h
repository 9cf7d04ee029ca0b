/*
 * util/clock.h - clock reads in nanoseconds. CLOCK_MONOTONIC times the I/O and
 * the interval boundaries; CLOCK_REALTIME is only used to agree on a common
 * timeline between hosts (START times, offsets, record timestamps).
 */
#ifndef BC_UTIL_CLOCK_H
#define BC_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

#define BC_NS_PER_S  1000000000ull
#define BC_NS_PER_MS 1000000ull

static inline uint64_t bc_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * BC_NS_PER_S + (uint64_t)ts.tv_nsec;
}

static inline uint64_t bc_mono_ns(void)
{
	return bc_clock_ns(CLOCK_MONOTONIC);
}

static inline uint64_t bc_real_ns(void)
{
	return bc_clock_ns(CLOCK_REALTIME);
}

#endif
