/* test_steady: the steady-state detector accepts flat noisy series and flags trends, steps and
 * swings */
#include <errno.h>
#include <math.h>

#include "figures/steady.h"
#include "bc_test.h"

int main(void)
{
	double x[60];
	struct bc_steady s;
	uint32_t i;

	/* flat with +-3% alternating noise: steady, no slope */
	for (i = 0; i < 60; i++)
		x[i] = 100000.0 * (1.0 + ((i % 2) ? 0.03 : -0.03));
	CHECK(bc_steady_check(x, 60, BC_STEADY_SLOPE_PCT, BC_STEADY_SPREAD_PCT, &s) == 0);
	CHECK(s.steady);
	CHECK(fabs(s.mean - 100000.0) < 1e-6);
	CHECK(fabs(s.slope_pct) < 0.01);
	CHECK(fabs(s.spread_pct - 3.0) < 1e-9);

	/* a drive filling up: -2%/s decline is a trend, not a state */
	for (i = 0; i < 20; i++)
		x[i] = 100000.0 * (1.0 - 0.02 * i);
	CHECK(bc_steady_check(x, 20, BC_STEADY_SLOPE_PCT, BC_STEADY_SPREAD_PCT, &s) == 0);
	CHECK(!s.steady);
	CHECK(s.slope_pct < -2.0); /* relative to the (lower) mean */

	/* a GC cliff halfway: no slope limit alone would catch the swing; the spread does */
	for (i = 0; i < 30; i++)
		x[i] = i < 15 ? 100000.0 : 60000.0;
	for (i = 0; i < 15; i++) { /* make it symmetric around the middle so the slope is small */
		x[i] = (i % 2) ? 100000.0 : 60000.0;
		x[29 - i] = x[i];
	}
	CHECK(bc_steady_check(x, 30, BC_STEADY_SLOPE_PCT, BC_STEADY_SPREAD_PCT, &s) == 0);
	CHECK(fabs(s.slope_pct) < BC_STEADY_SLOPE_PCT);
	CHECK(s.spread_pct > 20 && !s.steady);

	/* limits are parameters */
	CHECK(bc_steady_check(x, 30, 1.0, 30.0, &s) == 0 && s.steady);

	/* too short, or nothing moved */
	CHECK(bc_steady_check(x, 2, 1, 10, &s) == -EINVAL && !s.steady);
	for (i = 0; i < 5; i++)
		x[i] = 0;
	CHECK(bc_steady_check(x, 5, 1, 10, &s) == -EINVAL && !s.steady);
	TEST_DONE();
}
