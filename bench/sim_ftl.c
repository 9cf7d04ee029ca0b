/*
 * sim_ftl.c - bench_sim_ftl: the simulated SSD's FTL alone, driven through
 * the same call the sim target's prep makes (bc_sim_dev_io, lock included),
 * on one thread. Prints simulated I/Os per CPU-second for 4 KiB random
 * writes at steady state (GC running), sequential writes and random reads,
 * and the WAF of the random phase:
 *
 *   bench_sim_ftl [-c capacity] [-r ru] [-o op] [-g greedy|cost-benefit] [-n ios] [-l]
 *
 * Defaults are the "sim" defaults (8 GiB, 4 KiB pages, 16 MiB RUs, 7% OP,
 * 8 RUHs); -l adds the latency model (and a clock read per I/O). Last line: "sim_ios_per_sec: N"
 * (random writes, per core).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile/value/units.h"
#include "sim/dev.h"
#include "util/clock.h"

static uint64_t s_x = 0x2545F4914F6CDD1Dull;

static inline uint64_t s_rand(void)
{
	s_x ^= s_x << 13;
	s_x ^= s_x >> 7;
	s_x ^= s_x << 17;
	return s_x;
}

static int s_timed;

/* what the target's prep passes: a clock read per I/O only with a latency model */
static inline uint64_t s_now(void)
{
	return s_timed ? bc_mono_ns() : 0;
}

static double s_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct bc_sim_counters a, b;
	struct bc_sim_spec s;
	struct bc_sim_dev *d;
	uint64_t pages, n = 20000000, i;
	double t0, rnd, seq, rd;
	char err[512];
	int opt;

	bc_sim_spec_default(&s);
	while ((opt = getopt(argc, argv, "c:r:o:g:n:l")) != -1) {
		switch (opt) {
		case 'c':
			if (bc_parse_size(optarg, &s.capacity_bytes))
				return 2;
			break;
		case 'r':
			if (bc_parse_size(optarg, &s.ru_bytes))
				return 2;
			break;
		case 'o':
			s.op = atof(optarg);
			break;
		case 'g':
			s.gc = strcmp(optarg, "cost-benefit") ? BC_SIM_GC_GREEDY
							      : BC_SIM_GC_COST_BENEFIT;
			break;
		case 'l':
			/* FEMU's timings, as "latency": {} gives them */
			s_timed = 1;
			s.lat_units = 64;
			s.lat_read_ns = 40000;
			s.lat_program_ns = 200000;
			s.lat_erase_ns = 2000000;
			break;
		case 'n':
			n = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-c capacity] [-r ru] [-o op] [-g gc] [-n ios] [-l]\n",
				argv[0]);
			return 2;
		}
	}
	if (bc_sim_dev_get("sim", &s, &d, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	pages = s.capacity_bytes / s.page_bytes;
	printf("device: capacity %llu, page %u, ru %llu, op %.3f, %u RUHs, %s GC\n",
	       (unsigned long long)s.capacity_bytes, s.page_bytes, (unsigned long long)s.ru_bytes,
	       s.op, s.ruhs, bc_sim_gc_name(s.gc));

	/* fill, then one random pass: GC is in its steady state before timing */
	t0 = s_cpu_s();
	for (i = 0; i < pages; i++)
		bc_sim_dev_io(d, BC_OP_WRITE, i * s.page_bytes, s.page_bytes, (unsigned)i % s.ruhs,
			      s_now());
	seq = (double)pages / (s_cpu_s() - t0);
	for (i = 0; i < pages; i++)
		bc_sim_dev_io(d, BC_OP_WRITE, (s_rand() % pages) * s.page_bytes, s.page_bytes,
			      (unsigned)i % s.ruhs, s_now());

	bc_sim_dev_counters(d, &a);
	t0 = s_cpu_s();
	for (i = 0; i < n; i++)
		bc_sim_dev_io(d, BC_OP_WRITE, (s_rand() % pages) * s.page_bytes, s.page_bytes,
			      (unsigned)i % s.ruhs, s_now());
	rnd = (double)n / (s_cpu_s() - t0);
	bc_sim_dev_counters(d, &b);

	t0 = s_cpu_s();
	for (i = 0; i < n; i++)
		bc_sim_dev_io(d, BC_OP_READ, (s_rand() % pages) * s.page_bytes, s.page_bytes, 0,
			      s_now());
	rd = (double)n / (s_cpu_s() - t0);

	printf("sequential 4k write (fill): %.0f IOs/s per core\n", seq);
	printf("random 4k read: %.0f IOs/s per core\n", rd);
	printf("random 4k write, steady state: %.0f IOs/s per core, WAF %.3f (GC copied %.0f "
	       "MiB, %llu erases)\n",
	       rnd,
	       (double)(b.media_write_bytes - a.media_write_bytes) /
		   (double)(b.host_write_bytes - a.host_write_bytes),
	       (double)(b.gc_copy_bytes - a.gc_copy_bytes) / (1 << 20),
	       (unsigned long long)(b.erases - a.erases));
	printf("sim_ios_per_sec: %.0f\n", rnd);
	bc_sim_dev_forget_all();
	return 0;
}
