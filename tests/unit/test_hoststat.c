/* test_hoststat: client host counters from a fixture procfs/sysfs tree (exact figures) and from
 * this machine's own /proc (figures present and sane) */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "figures/hostfig.h"
#include "host/hoststat.h"
#include "bc_test.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char p[256], d[256], *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	snprintf(d, sizeof(d), "%s", p);
	for (slash = d + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(d, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* USER_HZ ticks over one second: cpu0 20% busy, cpu1 90% busy with 60% in softirq */
static void tree(int t)
{
	char stat[512], dev[512], disk[512];
	long hz = sysconf(_SC_CLK_TCK);

	snprintf(stat, sizeof(stat),
		 "cpu  0 0 0 0 0 0 0 0 0 0\n"
		 "cpu0 %ld 0 %ld %ld 0 0 0 0 0 0\n"
		 "cpu1 %ld 0 %ld %ld 0 0 %ld 0 0 0\n"
		 "intr 1 2 3\n",
		 t * hz / 10, t * hz / 10, t * hz * 8 / 10, t * hz / 10, t * hz * 2 / 10,
		 t * hz / 10, t * hz * 6 / 10);
	put("/proc/stat", stat);
	snprintf(
	    dev, sizeof(dev),
	    "Inter-|   Receive                                                |  Transmit\n"
	    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
	    "errs drop fifo colls carrier compressed\n"
	    "    lo: %d 10 0 0 0 0 0 0 %d 10 0 0 0 0 0 0\n"
	    "  eth0: %lld 10 0 %d 0 0 0 0 %lld 10 0 0 0 0 0 0\n"
	    "veth12: 999999 10 0 0 0 0 0 0 999999 10 0 0 0 0 0 0\n",
	    1000 * t, 1000 * t, 1000000000LL * t, t, 500000000LL * t);
	put("/proc/net/dev", dev);
	put("/sys/class/net/eth0/speed", "10000\n"); /* Mb/s: 1.25 GB/s */
	put("/sys/class/net/lo/speed", "-1\n");
	snprintf(disk, sizeof(disk),
		 " 259 0 nvme0n1 %d 0 %d %d %d 0 %d %d 0 %d %d 0 0 0 0\n"
		 " 259 1 nvme0n1p1 1 0 8 1 1 0 8 1 0 1 2 0 0 0 0\n"
		 "   8 0 sda 5 0 40 5 5 0 40 5 0 5 10 0 0 0 0\n",
		 1000 * t, 2048 * t, 500 * t, 100 * t, 800 * t, 1000 * t, 500 * t, 4000 * t);
	put("/proc/diskstats", disk);
	put("/proc/meminfo",
	    "MemTotal:       1000000 kB\nMemFree:  1 kB\nMemAvailable:    250000 kB\n");
	put("/proc/loadavg", "3.50 2.00 1.00 2/300 1234\n");
	put("/proc/net/softnet_stat",
	    t ? "00000010 00000000 00000005\n00000010 00000001 00000003\n"
	      : "00000001 00000000 00000001\n00000001 00000000 00000001\n");
	put("/proc/net/snmp", t ? "Tcp: RtoAlgorithm OutSegs RetransSegs\nTcp: 1 2000 70\n"
				: "Tcp: RtoAlgorithm OutSegs RetransSegs\nTcp: 1 1000 20\n");
}

/* got * dt == want within 1% (dt and the rates are rounded to 3 decimals) */
static bool per_dt(double got, double dt, double want)
{
	return fabs(got * dt - want) <= 0.01 * fabs(want);
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void test_fixture(void)
{
	const char *devs[] = {"/dev/nvme0n1"};
	struct bc_hoststat *h;
	cJSON *j, *eth, *d;

	snprintf(root, sizeof(root), "/tmp/bc-hoststat.XXXXXX");
	CHECK(mkdtemp(root) != NULL);
	tree(0);
	h = bc_hoststat_new_at(root, devs, 1);
	CHECK(h != NULL);
	if (!h)
		return;
	/* rates come over the real time between the reads, printed to 3 decimals: make it 0.2 s */
	usleep(200000);
	tree(1);
	j = bc_hoststat_sample_json(h);
	CHECK(j != NULL);
	/* the sample times are real clock reads, so rates are over that dt: compare ratios */
	CHECK(num(j, "dt_s") > 0);
	CHECK_MSG(fabs(num(j, "cpu_busy_pct") - 55) < 0.01, "busy %f", num(j, "cpu_busy_pct"));
	CHECK(fabs(num(j, "cpu_hot_core_pct") - 90) < 0.01 && num(j, "cpu_hot_core") == 1);
	CHECK(fabs(num(j, "softirq_pct") - 30) < 0.01 &&
	      fabs(num(j, "softirq_hot_core_pct") - 60) < 0.01);
	CHECK(num(j, "ncpu") == 2);
	CHECK(fabs(num(j, "mem_used_pct") - 75) < 1e-9 && num(j, "load1") == 3.5);
	/* eth0 is the only counted interface: lo and veth are not physical */
	eth = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "nics"), "eth0");
	CHECK(eth && cJSON_IsTrue(cJSON_GetObjectItem(eth, "counted")));
	CHECK(fabs(num(eth, "speed_mbps") - 1250) < 1e-9);
	CHECK(fabs(num(j, "link_mbps") - 1250) < 1e-9);
	CHECK(fabs(num(eth, "rx_util_pct") / num(eth, "tx_util_pct") - 2) < 1e-3);
	CHECK(per_dt(num(j, "net_rx_mbps"), num(j, "dt_s"), 1000));
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "nics"), "veth12") == NULL);
	CHECK(!cJSON_IsTrue(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(j, "nics"), "lo"), "counted")));
	/* only the target device, in 512-byte sectors and ms */
	d = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "disks"), "nvme0n1");
	CHECK(d && cJSON_GetArraySize(cJSON_GetObjectItem(j, "disks")) == 1);
	CHECK(per_dt(num(d, "read_mbps"), num(j, "dt_s"), 2048 * 512 / 1e6));
	CHECK(fabs(num(d, "r_await_ms") - 0.5) < 1e-9 && fabs(num(d, "w_await_ms") - 10) < 1e-9);
	CHECK(per_dt(num(d, "aqu"), num(j, "dt_s"), 4));
	CHECK(per_dt(num(j, "tcp_retrans_per_s"), num(j, "dt_s"), 50));
	CHECK(per_dt(num(j, "softnet_squeezed_per_s"), num(j, "dt_s"), 6));
	cJSON_Delete(j);
	/* nothing moved since: zero rates, not missing ones */
	j = bc_hoststat_sample_json(h);
	CHECK(j && num(j, "cpu_busy_pct") != num(j, "cpu_busy_pct")); /* no CPU ticks: unknown */
	CHECK(j && num(j, "net_tx_mbps") == 0);
	cJSON_Delete(j);
	bc_hoststat_destroy(&h);
	CHECK(h == NULL);
	bc_hoststat_destroy(&h);
}

static void test_live(void)
{
	struct bc_hoststat *h = bc_hoststat_new(NULL, 0);
	cJSON *j;

	if (!h) {
		fprintf(stderr, "no /proc/stat here: live part skipped\n");
		return;
	}
	usleep(200000);
	j = bc_hoststat_sample_json(h);
	CHECK(j != NULL);
	CHECK(num(j, "dt_s") > 0.1 && num(j, "ncpu") >= 1);
	CHECK(num(j, "cpu_busy_pct") >= 0 && num(j, "cpu_busy_pct") <= 100);
	CHECK(num(j, "cpu_hot_core_pct") >= num(j, "cpu_busy_pct") - 1e-6);
	CHECK(num(j, "mem_used_pct") > 0);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "nics"), "lo") != NULL);
	cJSON_Delete(j);
	bc_hoststat_destroy(&h);
}

/* CPU seconds this thread has used */
static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* burn 0.3 s of CPU in a thread named like a job thread, whatever the machine's load */
static void *burn(void *arg)
{
	volatile double x = 0;
	double t0;

	(void)arg;
	pthread_setname_np(pthread_self(), "bc-job-0");
	t0 = thread_cpu_s();
	while (thread_cpu_s() - t0 < 0.3)
		x += 1;
	return NULL;
}

/* the agent's own CPU: the process's CPU time over the interval, its job threads apart */
static void test_self_cpu(void)
{
	struct bc_hoststat *h = bc_hoststat_new(NULL, 0);
	pthread_t t;
	double ncpu;
	cJSON *j;

	if (!h)
		return;
	usleep(100000);
	j = bc_hoststat_sample_json(h);
	CHECK(j != NULL);
	ncpu = num(j, "ncpu");
	CHECK_MSG(num(j, "agent_cpu_pct") >= 0 && num(j, "agent_cpu_pct") <= 100,
		  "agent_cpu_pct %g", num(j, "agent_cpu_pct"));
	CHECK(num(j, "agent_cores") >= 0 && num(j, "agent_cores") <= ncpu + 0.01);
	CHECK(cJSON_GetObjectItem(j, "agent_jobs_cpu_pct") != NULL);
	CHECK(cJSON_GetObjectItem(j, "agent_iouring_cpu_pct") != NULL);
	CHECK(cJSON_GetStringValue(cJSON_GetObjectItem(j, "kernel")) != NULL);
	cJSON_Delete(j);
	bc_hoststat_destroy(&h);
	/* one interval over a whole burn: what getrusage says the process used */
	h = bc_hoststat_new(NULL, 0);
	{
		struct rusage r0, r1;
		double used;

		getrusage(RUSAGE_SELF, &r0);
		CHECK(pthread_create(&t, NULL, burn, NULL) == 0);
		pthread_join(t, NULL);
		getrusage(RUSAGE_SELF, &r1);
		used = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) +
		       (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) / 1e6 +
		       (double)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) +
		       (double)(r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6;
		j = bc_hoststat_sample_json(h);
		/* /proc counts in 10 ms ticks: within two of getrusage's figure */
		CHECK_MSG(fabs(num(j, "agent_cores") * num(j, "dt_s") - used) < 0.04,
			  "agent %.3f s, getrusage %.3f s", num(j, "agent_cores") * num(j, "dt_s"),
			  used);
		cJSON_Delete(j);
	}
	bc_hoststat_destroy(&h);
}

#define S 1000000000ull /* ns per second */

/*
 * Boundary sampling on a fake monotonic clock: interval k's figures are read at start + k s
 * and start + (k+1) s (t0_s, t1_s), whenever they are taken; a missed boundary leaves its
 * second without figures; an interval sealed early is closed when taken.
 */
static void test_boundaries(void)
{
	struct bc_hoststat *h;
	cJSON *j;

	tree(0);
	h = bc_hoststat_new_at(root, NULL, 0);
	CHECK(h != NULL);
	if (!h)
		return;
	CHECK(bc_hoststat_poll(h, 5 * S) == UINT64_MAX); /* nothing scheduled */
	bc_hoststat_schedule(h, 10 * S, 3);
	CHECK(bc_hoststat_poll(h, 9 * S + S / 2) == S / 2);
	CHECK(bc_hoststat_take(h, 0, 9 * S + S / 2) == NULL); /* no baseline yet */
	tree(1);
	/* boundary 0, a millisecond late: the baseline */
	CHECK(bc_hoststat_poll(h, 10 * S + 1000000) == S - 1000000);
	usleep(2000); /* the rates' dt is the real time between reads: keep it above zero */
	tree(2);
	CHECK(bc_hoststat_poll(h, 10 * S + S / 2) == S / 2);
	/* boundary 1 closes interval 0; STATS for 0 goes out 30 ms later and takes it */
	CHECK(bc_hoststat_poll(h, 11 * S + 2000000) == S - 2000000);
	j = bc_hoststat_take(h, 0, 11 * S + 30000000);
	CHECK(j != NULL);
	CHECK_MSG(num(j, "t0_s") == 0.001 && num(j, "t1_s") == 1.002, "t0 %g t1 %g", num(j, "t0_s"),
		  num(j, "t1_s"));
	CHECK_MSG(fabs(num(j, "cpu_busy_pct") - 55) < 0.01, "busy %f", num(j, "cpu_busy_pct"));
	cJSON_Delete(j);
	CHECK(bc_hoststat_take(h, 0, 11 * S + 40000000) == NULL); /* taken once */
	/* boundary 2 missed (the thread was away until 3.005 s): second 1 gets no figures, second
	 * 2 the read at 3.005 s, its t0_s saying it started at 1.002 s */
	usleep(2000);
	tree(3);
	CHECK(bc_hoststat_poll(h, 13 * S + 5000000) == UINT64_MAX);
	CHECK(bc_hoststat_take(h, 1, 13 * S + 6000000) == NULL);
	j = bc_hoststat_take(h, 2, 13 * S + 6000000);
	CHECK(j && num(j, "t0_s") == 1.002 && num(j, "t1_s") == 3.005);
	cJSON_Delete(j);

	/* a size-based step: the jobs sealed second 0 at 0.5 s, and the last seconds at once */
	bc_hoststat_schedule(h, 20 * S, 3);
	CHECK(bc_hoststat_poll(h, 20 * S) == S);
	usleep(2000);
	tree(4);
	j = bc_hoststat_take(h, 0, 20 * S + S / 2);
	CHECK(j && num(j, "t0_s") == 0 && num(j, "t1_s") == 0.5);
	cJSON_Delete(j);
	CHECK(bc_hoststat_take(h, 1, 20 * S + S / 2 + 1000) == NULL); /* under 10 ms: nothing */
	/* the next boundary still closes the interval after the early one */
	CHECK(bc_hoststat_poll(h, 20 * S + S / 2 + 1000) == 3 * S / 2 - 1000);
	bc_hoststat_destroy(&h);
}

/* a client's samples over a window, averaged for the analysis */
static void test_mean(void)
{
	cJSON *a =
	    cJSON_Parse("{\"cpu_busy_pct\": 10, \"cpu_hot_core_pct\": 50, \"cpu_hot_core\": 1,"
			" \"nics\": {\"eth0\": {\"tx_mbps\": 100, \"counted\": true}}}");
	cJSON *b =
	    cJSON_Parse("{\"cpu_busy_pct\": 30, \"cpu_hot_core_pct\": 90, \"cpu_hot_core\": 7,"
			" \"mem_used_pct\": 40,"
			" \"nics\": {\"eth0\": {\"tx_mbps\": 300, \"counted\": true},"
			" \"eth1\": {\"tx_mbps\": 5}}}");
	const cJSON *both[] = {a, b};
	cJSON *m = bc_hostfig_mean_json(both, 2), *eth0;

	CHECK(m && num(m, "cpu_busy_pct") == 20 && num(m, "cpu_hot_core_pct") == 70);
	CHECK(num(m, "cpu_hot_core") == 7 && num(m, "mem_used_pct") == 40);
	eth0 = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "nics"), "eth0");
	CHECK(num(eth0, "tx_mbps") == 200 && cJSON_IsTrue(cJSON_GetObjectItem(eth0, "counted")));
	CHECK(num(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "nics"), "eth1"), "tx_mbps") == 5);
	CHECK(bc_hostfig_mean_json(both, 0) == NULL);
	cJSON_Delete(m);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

int main(void)
{
	char cmd[128];

	test_fixture();
	test_boundaries();
	test_live();
	test_self_cpu();
	test_mean();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (root[0] && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	TEST_DONE();
}
