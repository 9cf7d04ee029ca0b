/* test_sqeflags.c - the SQE fields a workload's ioprio, cmdprio, nowait and force_async put on
 * a prepared read or write (engine/sqeflags.h), byte for byte, and the keys' profile form:
 * defaults, fio's class rules, the share of cmdprio SQEs over a run of draws. That the kernel
 * receives them: tests/e2e/test_e2e_sqe_flags.sh. */
#include <stdio.h>
#include <string.h>

#include "engine/sqeflags.h"
#include "profile/profile.h"
#include "profile/workload/keys.h"
#include "bc_test.h"

/* a read the target prepared, then the extras on it */
static struct io_uring_sqe prepared(struct bc_sqe_extra *x, bool rw, uint32_t draw)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_read(&sqe, 3, NULL, 4096, 0);
	bc_sqe_extra_apply(x, &sqe, rw, draw);
	return sqe;
}

static void test_values(void)
{
	struct bc_workload wl = bc_workload_builtin;
	struct bc_sqe_extra x;
	struct io_uring_sqe s;
	int i, async = 0;

	/* nothing asked: the job never decorates */
	CHECK(!bc_sqe_extra_init(&x, &wl));
	/* ioprio_class be, level 7: (2 << 13) | 7 on every read and write, not on a sync */
	wl.ioprio_class = 2;
	wl.ioprio = 7;
	CHECK(bc_sqe_extra_init(&x, &wl));
	s = prepared(&x, true, 0);
	CHECK(s.ioprio == (2 << 13 | 7) && !s.rw_flags && !(s.flags & IOSQE_ASYNC));
	s = prepared(&x, false, 0);
	CHECK(s.ioprio == 0);
	/* fio's prio without prioclass: best effort */
	wl.ioprio_class = 0;
	wl.ioprio = 3;
	CHECK(bc_sqe_extra_init(&x, &wl) && prepared(&x, true, 0).ioprio == (2 << 13 | 3));
	/* idle, the class alone */
	wl.ioprio_class = 3;
	wl.ioprio = 0;
	CHECK(bc_sqe_extra_init(&x, &wl) && prepared(&x, true, 0).ioprio == 3 << 13);
	/* cmdprio 25% rt 0 (the defaults) over the job's be 4: draws below 2^32/4 carry rt */
	wl.ioprio_class = 2;
	wl.ioprio = 4;
	wl.cmdprio_pct = 25;
	CHECK(bc_sqe_extra_init(&x, &wl));
	CHECK(prepared(&x, true, 0).ioprio == 1 << 13);
	CHECK(prepared(&x, true, (1u << 30) - 1).ioprio == 1 << 13);
	CHECK(prepared(&x, true, 1u << 30).ioprio == (2 << 13 | 4));
	CHECK(prepared(&x, true, UINT32_MAX).ioprio == (2 << 13 | 4));
	/* cmdprio_class idle level 5 (index 2 of rt, be, idle), at 100%: every one */
	wl.cmdprio_class = 2;
	wl.cmdprio = 5;
	wl.cmdprio_pct = 100;
	CHECK(bc_sqe_extra_init(&x, &wl) && prepared(&x, true, UINT32_MAX).ioprio == (3 << 13 | 5));
	/* nowait: RWF_NOWAIT beside what the target set (RWF_SYNC on a write_sync write) */
	wl = bc_workload_builtin;
	wl.nowait = true;
	CHECK(bc_sqe_extra_init(&x, &wl));
	memset(&s, 0, sizeof(s));
	io_uring_prep_write(&s, 3, NULL, 4096, 0);
	s.rw_flags = RWF_SYNC;
	bc_sqe_extra_apply(&x, &s, true, 0);
	CHECK(s.rw_flags == (RWF_SYNC | RWF_NOWAIT) && s.ioprio == 0);
	/* force_async 3: IOSQE_ASYNC on every third SQE, syncs counted too */
	wl = bc_workload_builtin;
	wl.force_async = 3;
	CHECK(bc_sqe_extra_init(&x, &wl));
	for (i = 0; i < 30; i++) {
		s = prepared(&x, i % 5 != 0, 0);
		if (s.flags & IOSQE_ASYNC) {
			async++;
			CHECK(i % 3 == 2);
		}
		CHECK(s.ioprio == 0 && !s.rw_flags);
	}
	CHECK(async == 10);
}

/* the keys through a profile: parsed, defaults, refused out of range */
static void test_keys(void)
{
	static const char *const bad[] = {"\"ioprio\": 8",	  "\"ioprio_class\": \"high\"",
					  "\"cmdprio_pct\": 101", "\"cmdprio_class\": \"none\"",
					  "\"nice\": -21",	  "\"nice\": 20",
					  "\"force_async\": -1"};
	char text[1024], err[512];
	struct bc_profile *p = NULL;
	size_t i;
	int rc;

	snprintf(text, sizeof(text),
		 "{\"name\": \"x\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
		 " \"volumes\": [{\"agent\": \"a\", \"path\": \"v.dat\", \"size\": \"1m\"}],"
		 " \"steps\": [{\"name\": \"s\", \"rw\": \"randread\", \"ioprio_class\": \"rt\","
		 " \"ioprio\": 2, \"cmdprio_pct\": 10, \"cmdprio_class\": \"be\", \"cmdprio\": 1,"
		 " \"nowait\": true, \"force_async\": 4, \"nice\": -3}]}");
	rc = bc_profile_parse(text, "t", &p, err, sizeof(err));
	CHECK(rc == 0);
	if (!rc) {
		const struct bc_workload *w = &p->steps[0].wl;

		CHECK(w->ioprio_class == 1 && w->ioprio == 2 && w->cmdprio_pct == 10 &&
		      w->cmdprio_class == 1 && w->cmdprio == 1 && w->nowait &&
		      w->force_async == 4 && w->nice == -3);
	}
	bc_profile_destroy(&p);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "{\"name\": \"x\", \"agents\": [{\"name\": \"a\", \"endpoint\": "
			 "\"local\"}], \"volumes\": [{\"agent\": \"a\", \"path\": \"v.dat\", "
			 "\"size\": \"1m\"}], \"steps\": [{\"name\": \"s\", %s}]}",
			 bad[i]);
		rc = bc_profile_parse(text, "t", &p, err, sizeof(err));
		if (!rc)
			fprintf(stderr, "accepted: %s\n", bad[i]);
		CHECK(rc != 0 && strstr(err, "steps[0]"));
		bc_profile_destroy(&p);
	}
}

int main(void)
{
	test_values();
	test_keys();
	TEST_DONE();
}
