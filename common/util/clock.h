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

/*
 * A debugging aid, off (0) unless set by bench-agent --debug-clock-ppm: this
 * process's CLOCK_MONOTONIC and CLOCK_REALTIME run this many parts per
 * million fast (negative: slow) from the moment it is set, as a drifting
 * host's clock would; clock.c. Absolute sleeps convert their deadline back
 * with bc_clock_kernel.
 */
extern int32_t bc_clock_skew_ppm;
void bc_clock_skew_set(int32_t ppm);
uint64_t bc_clock_skewed(clockid_t id, uint64_t t);
/* the kernel's clock reading at which this process's (skewed) clock reads t */
uint64_t bc_clock_kernel(clockid_t id, uint64_t t);

static inline uint64_t bc_clock_ns(clockid_t id)
{
	struct timespec ts;
	uint64_t t;

	clock_gettime(id, &ts);
	t = (uint64_t)ts.tv_sec * BC_NS_PER_S + (uint64_t)ts.tv_nsec;
	if (__builtin_expect(bc_clock_skew_ppm != 0, 0))
		return bc_clock_skewed(id, t);
	return t;
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
