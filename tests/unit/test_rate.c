/* test_rate.c - the limiter is exact on a simulated clock (catch-up after a short stall
 * included); on the real clock rate_iops, rate_bw and thinktime are never exceeded, over 5 s
 * or in any one second, split across jobs. Below the limit a loaded host may lose time the
 * limiter cannot give back (a thread descheduled for longer than its catch-up allowance),
 * so the real-clock lower bounds only prove the load ran at all (half the limit). */
#include <stdint.h>
#include <stdio.h>

#include "engine/rate.h"
#include "bc_jobrun.h"

#define SECONDS 5
#define TOL	0.05

/* the limiter alone, on a simulated clock polled every 37 us: the long-run rate is exact */
static void test_gcra(void)
{
	struct bc_rate r;
	uint64_t now, sent = 0, bytes = 0;
	bool stalled;

	bc_rate_init(&r, 1000, 0, 4, 0); /* 1000 IOPS over 4 jobs: 250 for this one */
	for (now = 0; now < 10 * BC_NS_PER_S; now += 37000) {
		while (bc_rate_when(&r) <= now) {
			bc_rate_take(&r, 4096, now, 1);
			sent++;
		}
	}
	/* 10 s x 250/s: the buckets start empty, so no burst is added */
	CHECK_MSG(sent >= 2500 && sent <= 2501, "sent %llu, expected 2500",
		  (unsigned long long)sent);

	bc_rate_init(&r, 0, 1 << 20, 1, 0); /* 1 MiB/s of 64 KiB I/Os: 16 per second */
	for (now = 0; now < 10 * BC_NS_PER_S; now += 37000) {
		while (bc_rate_when(&r) <= now) {
			bc_rate_take(&r, 65536, now, 1);
			bytes += 65536;
		}
	}
	CHECK_MSG(bytes >= 160ull << 16 && bytes <= 161ull << 16, "sent %llu bytes in 10 s",
		  (unsigned long long)bytes);
	/* a job stalled for 30 ms (< tau) catches up: the 10 s total still holds */
	bc_rate_init(&r, 1000, 0, 1, 0);
	for (now = 0, sent = 0, stalled = false; now < 10 * BC_NS_PER_S; now += 37000) {
		if (!stalled && now >= 5 * BC_NS_PER_S) {
			now += 30 * BC_NS_PER_MS;
			stalled = true;
		}
		while (bc_rate_when(&r) <= now) {
			bc_rate_take(&r, 4096, now, 1);
			sent++;
		}
	}
	CHECK_MSG(sent >= 9999 && sent <= 10001, "after a 30 ms stall: sent %llu, expected 10000",
		  (unsigned long long)sent);
	bc_rate_init(&r, 0, 0, 1, 0);
	CHECK(!bc_rate_on(&r));
}

/* at most the limit (+TOL for the one-slot burst at the window's edges), at least half */
static void s_within(const char *what, double got, double want)
{
	printf("%-44s %10.1f /s  (limit %.1f, %+.2f%%)\n", what, got, want,
	       100 * (got - want) / want);
	CHECK_MSG(got <= (1 + TOL) * want && got >= 0.5 * want, "%s: %.1f/s, limit %.1f/s", what,
		  got, want);
}

/* two null volumes, 2 jobs QD 16: one capped at 5000 IOPS, the other at 8 MiB/s of 4k..64k */
static void test_engine(void)
{
	struct bc_workload wl = {.rw = BC_RW_RANDREAD,
				 .bs = 4096,
				 .iodepth = 16,
				 .numjobs = 2,
				 .direct = true,
				 .runtime_s = SECONDS};
	struct bc_workload vwl[3];
	struct bc_target t[3];
	struct jr_run r;
	char err[512] = "";
	uint64_t rd, bytes;
	int i;

	vwl[0] = wl;
	vwl[0].rate_iops = 5000;
	vwl[1] = wl;
	vwl[1].rate_bw = 8 << 20;
	vwl[1].bs = 65536;
	vwl[1].nbssplit = 2;
	vwl[1].bssplit[0] = (struct bc_bssplit){4096, 500000};
	vwl[1].bssplit[1] = (struct bc_bssplit){65536, 500000};
	/* thinktime 2 ms per slot, QD 4, 2 jobs: at most 8 / 2 ms = 4000 IOPS */
	vwl[2] = wl;
	vwl[2].iodepth = 4;
	vwl[2].thinktime_us = 2000;
	for (i = 0; i < 3; i++)
		CHECK(bc_target_open(&t[i], "null", NULL, &vwl[i], err, sizeof(err)) == 0);
	if (!jr_run(t, 3, &wl, vwl, SECONDS, &r, err, sizeof(err))) {
		rd = jr_ios(&r, 0, BC_OP_READ, 0, SECONDS);
		s_within("rate_iops 5000 over 2 jobs", (double)rd / SECONDS, 5000);
		for (i = 0, bytes = 0; i < SECONDS; i++)
			bytes += r.sec[i * 3 + 1].op[BC_OP_READ].bytes;
		s_within("rate_bw 8 MiB/s (bssplit 4k/50:64k/50)", (double)bytes / SECONDS,
			 8 << 20);
		rd = jr_ios(&r, 2, BC_OP_READ, 0, SECONDS);
		printf("%-44s %10.1f /s  (ceiling 4000)\n", "thinktime 2ms, QD 4 x 2 jobs",
		       (double)rd / SECONDS);
		/*
		 * Never above the ceiling; below it by the wake-up latency of each
		 * cycle, which a loaded test host stretches: only half is certain.
		 */
		CHECK_MSG(rd <= 4000 * SECONDS && rd >= 2000 * SECONDS,
			  "thinktime: %.0f IOPS, expected under 4000", (double)rd / SECONDS);
		/* and per second too: no catch-up burst above the limit */
		for (i = 1; i < SECONDS; i++) {
			rd = r.sec[i * 3].op[BC_OP_READ].ios;
			CHECK_MSG(rd <= (1 + TOL) * 5000 && rd >= 0.5 * 5000,
				  "second %d: %llu IOPS", i, (unsigned long long)rd);
		}
	}
	jr_free(&r);
	for (i = 0; i < 3; i++)
		bc_target_close(&t[i]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_gcra();
	test_engine();
	TEST_DONE();
}
