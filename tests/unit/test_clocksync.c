/* test_clocksync: the minimum-RTT offset estimator stays within its stated uncertainty under
 * asymmetric, jittery delays */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>

#include "wire/clocksync.h"
#include "bc_test.h"

static uint64_t s_rng = 0x9e3779b97f4a7c15ull;

static uint64_t s_next(void)
{
	s_rng ^= s_rng << 13;
	s_rng ^= s_rng >> 7;
	s_rng ^= s_rng << 17;
	return s_rng;
}

/* one exchange against an agent whose clock is ahead by true_off, with given one-way delays */
static struct bc_clock_sample s_exchange(uint64_t t0, int64_t true_off, uint64_t out_ns,
					 uint64_t back_ns)
{
	struct bc_clock_sample s;

	s.t_send_ns = t0;
	s.t_agent_ns = (uint64_t)((int64_t)(t0 + out_ns) + true_off);
	s.t_recv_ns = t0 + out_ns + back_ns;
	return s;
}

int main(void)
{
	struct bc_clock_sample smp[8];
	struct bc_clock_est e;
	int trial, i;
	int64_t worst = 0;

	/* symmetric delays: exact */
	smp[0] = s_exchange(1000000000, -123456, 50000, 50000);
	CHECK(bc_clock_estimate(smp, 1, &e) == 0);
	CHECK(e.offset_ns == -123456 && e.rtt_ns == 100000 && e.uncertainty_ns == 50000);

	/* fully asymmetric (all delay one way): error equals the stated uncertainty, no more */
	smp[0] = s_exchange(1000000000, 5000000, 800000, 0);
	CHECK(bc_clock_estimate(smp, 1, &e) == 0);
	CHECK(e.offset_ns - 5000000 == 400000 && e.uncertainty_ns == 400000);

	/* jitter and asymmetry: the min-RTT sample wins and the bound holds */
	for (trial = 0; trial < 10000; trial++) {
		int64_t off = (int64_t)(s_next() % 2000000000) - 1000000000;
		uint64_t base = 20000 + s_next() % 100000;

		for (i = 0; i < 8; i++) {
			/* outbound delay up to 5x the return: a congested direction */
			uint64_t out = base + s_next() % (5 * base), back = base + s_next() % base;

			if (s_next() % 4 == 0)
				out += 2000000; /* an occasional 2 ms stall */
			smp[i] = s_exchange(5000000000ull + (uint64_t)i * 10000000, off, out, back);
		}
		CHECK(bc_clock_estimate(smp, 8, &e) == 0);
		CHECK(e.samples == 8);
		CHECK_MSG((uint64_t)llabs(e.offset_ns - off) <= e.uncertainty_ns,
			  "trial %d: error %lld > uncertainty %llu", trial,
			  (long long)(e.offset_ns - off), (unsigned long long)e.uncertainty_ns);
		CHECK(e.rtt_ns < 2000000); /* a stalled sample is never chosen */
		if (llabs(e.offset_ns - off) > worst)
			worst = llabs(e.offset_ns - off);
	}
	printf("worst error over 10000 trials: %lld ns\n", (long long)worst);

	/* invalid input */
	smp[0].t_send_ns = 10;
	smp[0].t_recv_ns = 5;
	CHECK(bc_clock_estimate(smp, 1, &e) == -EINVAL);
	CHECK(bc_clock_estimate(smp, 0, &e) == -EINVAL);
	TEST_DONE();
}
