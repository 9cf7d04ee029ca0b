/*
 * test_steadystop: the rule that ends a step in steady state (fio's steadystate) on known
 * series - flat, ramping, noisy - with percent and absolute limits, deviation and slope; the
 * window that feeds it second by second; and the criterion's profile form
 */
#include <math.h>
#include <string.h>

#include "profile/workload/keys.h"
#include "results/steadystop.h"
#include "bc_test.h"

static struct bc_steady_spec s_spec(const char *crit)
{
	struct bc_steady_spec ss;

	CHECK_MSG(!bc_steady_parse(crit, &ss), "%s", crit);
	return ss;
}

static bool s_steady(const char *crit, const double *y, uint32_t n)
{
	struct bc_steady_spec ss = s_spec(crit);
	struct bc_steady_eval ev;

	return bc_steady_judge(&ss, y, n, &ev);
}

int main(void)
{
	double flat[10], ramp[10], noisy[10], bw[10], zero[5] = {0};
	struct bc_steady_spec ss;
	struct bc_steady_eval ev;
	struct bc_steady_track t;
	struct bc_workload wl;
	char buf[96];
	uint32_t i, k;

	for (i = 0; i < 10; i++) {
		flat[i] = 1000;
		ramp[i] = 1000 + 50.0 * i; /* mean 1225, slope 50/s (4.08%), max deviation 225 */
		noisy[i] = 100000.0 * (1.0 + ((i % 2) ? 0.03 : -0.03)); /* +-3% about 100000 */
		bw[i] = (100 << 20) + ((i % 2) ? 1 : -1) * (double)(5 << 20); /* 100 MiB/s +-5 */
	}

	/* flat: steady by every rule, its figures exact */
	ss = s_spec("iops:2%");
	CHECK(bc_steady_judge(&ss, flat, 10, &ev));
	CHECK(ev.mean == 1000 && ev.max_dev == 0 && ev.value == 0 && fabs(ev.slope) < 1e-9);
	CHECK(s_steady("iops_slope:0.1%", flat, 10));
	CHECK(s_steady("iops:0", flat, 10));

	/* ramping: the slope and the deviation both see it, in percent and absolute */
	ss = s_spec("iops_slope:1%");
	CHECK(!bc_steady_judge(&ss, ramp, 10, &ev));
	CHECK(fabs(ev.mean - 1225) < 1e-9 && fabs(ev.slope - 50) < 1e-6);
	CHECK(fabs(ev.value - 50.0 / 1225 * 100) < 1e-6);
	CHECK(s_steady("iops_slope:4.1%", ramp, 10) && !s_steady("iops_slope:4%", ramp, 10));
	CHECK(!s_steady("iops_slope:49", ramp, 10) && s_steady("iops_slope:50.5", ramp, 10));
	ss = s_spec("iops:10%");
	CHECK(!bc_steady_judge(&ss, ramp, 10, &ev));
	CHECK(fabs(ev.max_dev - 225) < 1e-6 && fabs(ev.value - 225 / 12.25) < 1e-6);
	CHECK(s_steady("iops:18.5%", ramp, 10) && !s_steady("iops:18.3%", ramp, 10));
	CHECK(!s_steady("iops:224", ramp, 10) && s_steady("iops:226", ramp, 10));

	/* noisy but level: the deviation is the noise, the slope near nothing */
	CHECK(!s_steady("iops:2%", noisy, 10) && s_steady("iops:3.01%", noisy, 10));
	CHECK(s_steady("iops_slope:0.5%", noisy, 10));
	CHECK(!s_steady("iops:2999", noisy, 10) && s_steady("iops:3001", noisy, 10));

	/* bandwidth: an absolute limit is bytes per second, a size may say it */
	CHECK(s_steady("bw:6m", bw, 10) && !s_steady("bw:4m", bw, 10));
	CHECK(!s_steady("bw:5000000", bw, 10) && s_steady("bw:5.5%", bw, 10));
	CHECK(s_steady("bw_slope:1%", bw, 10));

	/* no I/O is a stall, not a steady state; fewer than 3 seconds are no window */
	CHECK(!s_steady("iops:100%", zero, 5) && !s_steady("iops:100%", flat, 2));

	/* the criterion's form: parsed, refused, written back */
	ss = s_spec("bw_slope:0.25%");
	CHECK(ss.metric == BC_SS_BW_SLOPE && ss.pct && ss.limit == 0.25);
	CHECK(!strcmp(bc_steady_format(&ss, buf, sizeof(buf)), "bw_slope:0.25%"));
	ss = s_spec("bw:10m");
	CHECK(ss.metric == BC_SS_BW && !ss.pct && ss.limit == 10485760);
	CHECK(!strcmp(bc_steady_format(&ss, buf, sizeof(buf)), "bw:10485760"));
	CHECK(bc_steady_parse("iops", &ss) && bc_steady_parse("lat:2%", &ss));
	CHECK(bc_steady_parse("iops:", &ss) && bc_steady_parse("iops:-1", &ss));
	CHECK(bc_steady_parse("iops:x%", &ss) && bc_steady_parse("iops_slope:1%%", &ss));

	/*
	 * The window, second by second: the step's ramp 2 s, the criterion's 1 s more, a
	 * window of 3; a throughput climbing to a level: seconds 3-5 are the first window
	 * (judged at 5), the first level one closes at second 7
	 */
	memset(&wl, 0, sizeof(wl));
	memset(&t, 0, sizeof(t));
	wl.steady = s_spec("iops:1%");
	wl.steady.window_s = 3;
	wl.steady.ramp_s = 1;
	{
		static const uint64_t ios[] = {100, 200, 300, 400, 500, 600, 600, 600, 600, 600};
		bool hit = false;

		for (k = 0; k < 10 && !hit; k++)
			hit = bc_steady_second(&t, &wl, 2, k, ios[k], ios[k] * 4096);
		CHECK(hit && t.reached && t.done && t.at_second == 7 && t.judged == 3);
		CHECK(t.last.mean == 600 && t.last.value == 0);
		/* settled: later seconds change nothing */
		CHECK(!bc_steady_second(&t, &wl, 2, 8, 1, 1) && t.at_second == 7);
	}
	bc_steady_free(&t);
	/* by bandwidth, the same climb never levels within a 1% deviation */
	wl.steady = s_spec("bw:1%");
	wl.steady.window_s = 4;
	for (k = 0; k < 10; k++)
		CHECK(!bc_steady_second(&t, &wl, 0, k, 1000, (uint64_t)(k + 1) << 20));
	CHECK(!t.reached && t.judged == 7 && t.last.value > 1);
	bc_steady_free(&t);
	TEST_DONE();
}
