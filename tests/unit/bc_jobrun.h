/*
 * bc_jobrun.h - run job threads the way an agent's control thread does
 * (start, collect every second in order, then the drain) and keep what came
 * back, for the engine feature tests. Static functions: include once per test.
 */
#ifndef BC_JOBRUN_H
#define BC_JOBRUN_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/job.h"
#include "target/target.h"
#include "util/clock.h"
#include "bc_test.h"

#define JR_MAX_JOBS 8
/* helpers a test does not use must not warn */
#define JR_FN static __attribute__((unused))

struct jr_run {
	int nt;
	uint32_t seconds;
	struct bc_volstat *sec;	  /* [seconds * nt], merged over jobs */
	struct bc_volstat *total; /* [nt]: every second and the drain */
	struct bc_job_bad bad[JR_MAX_JOBS * BC_JOB_VERIFY_REPORT];
	int nbad;	  /* target 0's verify reports over all jobs */
	uint64_t wall_ns; /* start to the last job finished */
	char info_cpus[96];
};

/* bc_job_cfg.run_vol for the next jr_run (NULL: each target is its own volume) */
static const int *jr_run_vol __attribute__((unused));

JR_FN struct bc_volstat *jr_vs_new(size_t n)
{
	struct bc_volstat *v = calloc(n, sizeof(*v));
	size_t i;

	if (!v) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++)
		bc_volstat_reset(&v[i]);
	return v;
}

JR_FN void jr_free(struct jr_run *r)
{
	free(r->sec);
	free(r->total);
	r->sec = r->total = NULL;
}

JR_FN void jr_sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

/*
 * Run wl->numjobs jobs on targets (vwl: per-target workloads or NULL) for
 * `seconds`. Returns 0, or -1 when a job could not be created (err holds its
 * message; no check fails, so tests can expect it) or never finished.
 */
JR_FN int jr_run(struct bc_target *targets, int nt, const struct bc_workload *wl,
		 const struct bc_workload *vwl, uint32_t seconds, struct jr_run *r, char *err,
		 size_t errlen)
{
	struct bc_job *jobs[JR_MAX_JOBS] = {NULL};
	struct bc_volstat *tmp = jr_vs_new((size_t)nt);
	unsigned n = wl->numjobs, i;
	uint64_t start, deadline, fin = 0;
	uint32_t k, idx;
	int ret = 0, t, c;
	bool merged;

	memset(r, 0, sizeof(*r));
	r->nt = nt;
	r->seconds = seconds;
	r->sec = jr_vs_new((size_t)seconds * (size_t)nt);
	r->total = jr_vs_new((size_t)nt);
	for (i = 0; i < n && i < JR_MAX_JOBS; i++) {
		struct bc_job_cfg cfg = {.wl = wl,
					 .vwl = vwl,
					 .targets = targets,
					 .ntargets = nt,
					 .job_index = i,
					 .numjobs = n,
					 .run_vol = jr_run_vol,
					 .seed = 42};

		jobs[i] = bc_job_new(&cfg, err, errlen);
		if (!jobs[i]) {
			ret = -1;
			goto out;
		}
	}
	if (jobs[0]) {
		struct bc_job_info ji;

		bc_job_get_info(jobs[0], &ji);
		snprintf(r->info_cpus, sizeof(r->info_cpus), "%s", ji.cpus);
	}
	start = bc_mono_ns() + 50 * BC_NS_PER_MS;
	deadline = start + (seconds + 20ull) * BC_NS_PER_S;
	for (i = 0; i < n; i++)
		CHECK(bc_job_start(jobs[i], start, seconds) == 0);
	for (k = 0; k <= seconds; k++) {
		idx = k < seconds ? k : BC_STATS_DRAIN;
		for (i = 0; i < n; i++) {
			while ((c = bc_job_collect(jobs[i], idx, tmp, &merged)) == 0) {
				if (bc_mono_ns() > deadline) {
					CHECK_MSG(0, "job %u never sealed interval %u", i, idx);
					ret = -1;
					goto out;
				}
				jr_sleep_ms(2);
			}
			CHECK_MSG(c == 1, "collect(%u) returned %d", idx, c);
			if (idx == BC_STATS_DRAIN && !fin)
				fin = bc_mono_ns();
			for (t = 0; t < nt; t++) {
				if (k < seconds)
					bc_volstat_merge(&r->sec[k * (uint32_t)nt + (uint32_t)t],
							 &tmp[t]);
				bc_volstat_merge(&r->total[t], &tmp[t]);
				bc_volstat_reset(&tmp[t]);
			}
		}
	}
	r->wall_ns = fin - start;
	for (i = 0; i < n; i++) {
		CHECK(bc_job_finished(jobs[i]));
		CHECK(bc_job_error(jobs[i]) == 0);
		r->nbad += bc_job_verify_bad(jobs[i], 0, r->bad + r->nbad, BC_JOB_VERIFY_REPORT);
	}
out:
	for (i = 0; i < n && i < JR_MAX_JOBS; i++)
		bc_job_destroy(&jobs[i]);
	free(tmp);
	return ret;
}

/* I/Os of op on target t in seconds [from, to) */
JR_FN uint64_t jr_ios(const struct jr_run *r, int t, enum bc_op op, uint32_t from, uint32_t to)
{
	uint64_t n = 0;
	uint32_t k;

	for (k = from; k < to; k++)
		n += r->sec[k * (uint32_t)r->nt + (uint32_t)t].op[op].ios;
	return n;
}

/* a zero-filled temp file of bytes in /var/tmp (O_DIRECT capable on most hosts) */
JR_FN int jr_tempfile(char *path, size_t len, uint64_t bytes)
{
	int fd;

	snprintf(path, len, "/var/tmp/bc-test-engine-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		SKIP("cannot create a temp file in /var/tmp: %s", strerror(errno));
	if (ftruncate(fd, (off_t)bytes)) {
		fprintf(stderr, "ftruncate %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

/* open path as a target for wl, falling back to buffered I/O where O_DIRECT is refused */
JR_FN int jr_open(struct bc_target *t, const char *path, struct bc_volume_spec *spec,
		  struct bc_workload *wl)
{
	char err[512] = "";
	int ret;

	ret = bc_target_open(t, path, spec, wl, err, sizeof(err));
	if (ret == -EINVAL && strstr(err, "O_DIRECT")) {
		wl->direct = false;
		ret = bc_target_open(t, path, spec, wl, err, sizeof(err));
	}
	CHECK_MSG(ret == 0, "open %s: %s", path, err);
	return ret;
}

#endif
