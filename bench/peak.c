/*
 * peak.c - bench_peak: the job engine alone, no coordinator and no agent
 * control loop, for measuring the hot path (fio's t/io_uring in spirit).
 * One process runs numjobs job threads on the given volumes for a few
 * seconds and prints IOPS, CPU per I/O and latency percentiles:
 *
 *   bench_peak [-t seconds] [-d iodepth] [-j jobs] [-b bs] [-w rw] [-B batch] VOLUME...
 *
 * VOLUME is "null", a file or a block device (opened read-only unless rw writes).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/job.h"
#include "profile/value/units.h"
#include "target/target.h"
#include "util/clock.h"

#define S_MAX_JOBS 64
#define S_MAX_VOLS 64

static uint64_t s_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * BC_NS_PER_S +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

int main(int argc, char **argv)
{
	struct bc_workload wl = {.rw = BC_RW_RANDREAD,
				 .bs = 4096,
				 .iodepth = 32,
				 .numjobs = 1,
				 .direct = true,
				 .runtime_s = 5,
				 .batch_submit = 1,
				 .batch_complete = 1,
				 .sqpoll_cpu = -1};
	struct bc_target t[S_MAX_VOLS];
	struct bc_job *jobs[S_MAX_JOBS];
	struct bc_volstat *tmp, all;
	uint64_t start, cpu0, cpu1, bs, ios = 0;
	char err[512];
	int c, i, nt, k, rwi;
	bool merged;

	while ((c = getopt(argc, argv, "t:d:j:b:w:B:P:")) != -1) {
		switch (c) {
		case 't':
			wl.runtime_s = (uint32_t)atoi(optarg);
			break;
		case 'd':
			wl.iodepth = (uint32_t)atoi(optarg);
			break;
		case 'j':
			wl.numjobs = (uint32_t)atoi(optarg);
			break;
		case 'b':
			if (bc_parse_size(optarg, &bs))
				return 2;
			wl.bs = (uint32_t)bs;
			break;
		case 'w':
			for (rwi = 0; rwi <= BC_RW_LAST && strcmp(bc_rw_names[rwi], optarg); rwi++)
				;
			if (rwi > BC_RW_LAST)
				return 2;
			wl.rw = (enum bc_rw)rwi;
			break;
		case 'B':
			wl.batch_submit = wl.batch_complete = (uint32_t)atoi(optarg);
			break;
		case 'P': /* submit_mode: 0 auto, 1 batch, 2 pairs, 3 each */
			wl.submit_mode = (uint32_t)atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: bench_peak [-t s] [-d qd] [-j jobs] [-b bs] [-w rw] "
				"[-B batch] VOLUME...\n");
			return 2;
		}
	}
	nt = argc - optind;
	if (nt < 1 || nt > S_MAX_VOLS || wl.numjobs > S_MAX_JOBS)
		return 2;
	for (i = 0; i < nt; i++) {
		if (bc_target_open(&t[i], argv[optind + i], NULL, &wl, err, sizeof(err))) {
			fprintf(stderr, "bench_peak: %s\n", err);
			return 1;
		}
	}
	for (i = 0; i < (int)wl.numjobs; i++) {
		struct bc_job_cfg cfg = {.wl = &wl,
					 .targets = t,
					 .ntargets = nt,
					 .job_index = (unsigned)i,
					 .numjobs = wl.numjobs,
					 .seed = 1};

		jobs[i] = bc_job_new(&cfg, err, sizeof(err));
		if (!jobs[i]) {
			fprintf(stderr, "bench_peak: %s\n", err);
			return 1;
		}
	}
	tmp = calloc((size_t)nt, sizeof(*tmp));
	memset(&all, 0, sizeof(all));
	bc_volstat_reset(&all);
	for (i = 0; i < nt; i++)
		bc_volstat_reset(&tmp[i]);
	start = bc_mono_ns() + 20 * BC_NS_PER_MS;
	cpu0 = s_cpu_ns();
	for (i = 0; i < (int)wl.numjobs; i++)
		bc_job_start(jobs[i], start, wl.runtime_s);
	for (k = 0; k <= (int)wl.runtime_s; k++) {
		uint32_t idx = k < (int)wl.runtime_s ? (uint32_t)k : BC_STATS_DRAIN;

		for (i = 0; i < (int)wl.numjobs; i++) {
			struct timespec ts = {0, 2000000};

			while (!bc_job_collect(jobs[i], idx, tmp, &merged))
				nanosleep(&ts, NULL);
		}
		for (i = 0; i < nt; i++) {
			for (c = 0; c < BC_OP_NR; c++)
				bc_opstat_merge(&all.op[c], &tmp[i].op[c]);
			bc_volstat_reset(&tmp[i]);
		}
	}
	cpu1 = s_cpu_ns();
	for (c = 0; c < BC_OP_NR; c++)
		ios += all.op[c].ios;
	for (c = 1; c < BC_OP_NR; c++)
		bc_hist_merge(&all.op[0].hist, &all.op[c].hist);
	printf("cpu_ns_per_io %.1f  p50_us %.2f  p99_us %.2f  errors %llu\niops: %.0f\n",
	       (double)(cpu1 - cpu0) / (double)(ios ? ios : 1),
	       bc_hist_percentile(&all.op[0].hist, 50) / 1e3,
	       bc_hist_percentile(&all.op[0].hist, 99) / 1e3,
	       (unsigned long long)(all.op[0].errors + all.op[1].errors + all.op[2].errors),
	       (double)ios / wl.runtime_s);
	for (i = 0; i < (int)wl.numjobs; i++) {
		struct bc_job_info ji;

		bc_job_get_info(jobs[i], &ji);
		printf("job %d submit %s (%s) probe IOPS batch %.0f pairs %.0f enters/io %.3f\n", i,
		       ji.submit, ji.submit_why,
		       ji.probe_ns ? (double)ji.probe_ios[0] * 1e9 / (double)ji.probe_ns : 0.0,
		       ji.probe_ns ? (double)ji.probe_ios[1] * 1e9 / (double)ji.probe_ns : 0.0,
		       (double)ji.submit_calls / (double)(ios ? ios : 1));
		bc_job_destroy(&jobs[i]);
	}
	for (i = 0; i < nt; i++)
		bc_target_close(&t[i]);
	free(tmp);
	return 0;
}
