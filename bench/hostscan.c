/*
 * hostscan.c - what a step's client host samples cost the results: N agents
 * with one "null" volume each and a host sample per agent and second (each
 * a real agent's HOST body with a few NICs, disks and cores) into the step's
 * store (results/hostsamples.h, as stepexec.c does), every second marked as
 * reported (so vdbench's tables read each second's cpu), then the CPU time
 * of bc_result_step_json. Per-second work must not depend on the step's
 * length: the figure per agent-second stays flat from 60 s to 3,000 s
 * (count instructions with valgrind --tool=callgrind
 * --toggle-collect=bc_result_step_json rather than trusting the clock).
 *
 * Memory, measured with glibc's mallinfo2 (bytes in use before and after):
 * the store's bytes per agent-second, and for comparison the same samples
 * kept the way stepexec.c kept them before the store, as cJSON
 * ({agent: [sample with "second"]}), built here and freed.
 *
 * usage: bench_hostscan [-n AGENTS] [-s SECONDS]
 * Last line: "hosts_us_per_agent_second: X".
 */
#include <malloc.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agg/agg.h"
#include "results/hostsamples.h"
#include "results/results.h"
#include "util/clock.h"

/* a real agent's host sample (agent/host/hoststat.c) with 4 NICs and 4 disks */
static const char s_sample[] =
    "{\"dt_s\":1.019,\"net_tx_mbps\":812.5,\"net_rx_mbps\":20.1,\"net_drops_per_s\":0,"
    "\"tcp_retrans_per_s\":0.5,\"softnet_squeezed_per_s\":0,\"cpu_busy_pct\":61.2,"
    "\"cpu_hot_core_pct\":93.1,\"softirq_pct\":5.263,\"softirq_hot_core_pct\":10.526,"
    "\"irq_pct\":0.4,\"iowait_pct\":2.1,\"mem_used_pct\":22.227,\"load1\":11.07,\"ncpu\":32,"
    "\"cpu_hot_core\":3,\"softirq_hot_core\":1,\"nics\":{"
    "\"lo\":{\"tx_mbps\":0.198,\"rx_mbps\":0.198,\"counted\":false},"
    "\"eth0\":{\"tx_mbps\":406.2,\"rx_mbps\":10.0,\"counted\":true},"
    "\"eth1\":{\"tx_mbps\":406.3,\"rx_mbps\":10.1,\"counted\":true},"
    "\"bond0\":{\"tx_mbps\":812.5,\"rx_mbps\":20.1,\"counted\":false}},"
    "\"disks\":{\"nvme0n1\":{\"read_mbps\":0,\"write_mbps\":1.2,\"util_pct\":0.4},"
    "\"nvme1n1\":{\"read_mbps\":0,\"write_mbps\":0,\"util_pct\":0},"
    "\"sda\":{\"read_mbps\":0.1,\"write_mbps\":0.3,\"util_pct\":0.2},"
    "\"sdb\":{\"read_mbps\":0,\"write_mbps\":0,\"util_pct\":0}},"
    "\"t0_s\":0.0002,\"t1_s\":1.0129}";

static char *s_profile_text(int n, int secs)
{
	size_t cap = 4096 + (size_t)n * 200, off = 0;
	char *t = malloc(cap);
	int i;

	if (!t)
		return NULL;
	off += (size_t)snprintf(t + off, cap - off, "{\"name\":\"hostscan\",\"agents\":[");
	for (i = 0; i < n; i++)
		off +=
		    (size_t)snprintf(t + off, cap - off,
				     "%s{\"name\":\"a%04d\",\"endpoint\":\"tcp://127.0.0.1:%d\"}",
				     i ? "," : "", i, 20000 + i);
	off += (size_t)snprintf(t + off, cap - off, "],\"volumes\":[");
	for (i = 0; i < n; i++)
		off +=
		    (size_t)snprintf(t + off, cap - off,
				     "%s{\"agent\":\"a%04d\",\"path\":\"null\"}", i ? "," : "", i);
	snprintf(t + off, cap - off,
		 "],\"defaults\":{\"rw\":\"randread\",\"bs\":\"4k\",\"ramp\":\"0s\",\"runtime\":"
		 "\"%ds\"},\"steps\":[{\"name\":\"hosts\"}]}",
		 secs);
	return t;
}

static size_t s_in_use(void)
{
	return mallinfo2().uordblks;
}

/* bytes the samples took as cJSON trees, {agent: [sample with "second"]} as stepexec.c kept them */
static size_t s_cjson_bytes(const cJSON *tmpl, const struct bc_profile *p, int n, int secs)
{
	size_t before = s_in_use(), after;
	cJSON *hosts = cJSON_CreateObject();
	int i, k;

	for (i = 0; hosts && i < n; i++) {
		cJSON *arr = cJSON_AddArrayToObject(hosts, p->agents[i].name);

		for (k = 0; arr && k < secs; k++) {
			cJSON *smp = cJSON_Duplicate(tmpl, 1);

			cJSON_AddNumberToObject(smp, "second", k);
			cJSON_AddItemToArray(arr, smp);
		}
	}
	after = s_in_use();
	cJSON_Delete(hosts);
	return after > before ? after - before : 0;
}

int main(int argc, char **argv)
{
	int n = 10, secs = 600, c, i, k, lv, rc = 1;
	struct bc_profile *p = NULL;
	struct bc_step_result res;
	cJSON *tmpl = cJSON_Parse(s_sample), *sj = NULL;
	uint64_t cpu0, cpu1;
	size_t cjson_bytes, store_bytes, before;
	double as;
	char err[512], *text = NULL;

	memset(&res, 0, sizeof(res));
	while ((c = getopt(argc, argv, "n:s:")) != -1) {
		if (c == 'n')
			n = atoi(optarg);
		else if (c == 's')
			secs = atoi(optarg);
		else {
			fprintf(stderr, "usage: bench_hostscan [-n AGENTS] [-s SECONDS]\n");
			return 2;
		}
	}
	if (n < 1 || secs < 1 || !tmpl) {
		fprintf(stderr, "bench_hostscan: -n and -s must be positive\n");
		return 2;
	}
	text = s_profile_text(n, secs);
	if (!text || bc_profile_parse(text, "bench-hostscan.json", &p, err, sizeof(err))) {
		fprintf(stderr, "bench_hostscan: %s\n", text ? err : "out of memory");
		goto out;
	}
	res.step = &p->steps[0];
	res.status = "ok";
	res.agent_totals = cJSON_CreateObject();
	if (bc_agg_init(&res.agg, p, res.step) || !res.agent_totals)
		goto out;
	cjson_bytes = s_cjson_bytes(tmpl, p, n, secs);
	before = s_in_use();
	for (i = 0; i < n; i++)
		for (k = 0; k < secs; k++)
			if (bc_result_host_sample(&res, i, k, tmpl))
				goto out;
	bc_result_hosts_settle(&res);
	/* every second reported, as if the agents' records came: vdbench's tables read each */
	for (lv = 0; lv < BC_LVL_NR; lv++)
		for (i = 0; i < res.agg.nent[lv]; i++)
			for (k = 0; k < (int)res.agg.seconds; k++)
				bc_entity_row(&res.agg.ent[lv][i], k)->reports = 1;
	store_bytes = s_in_use() - before;
	cpu0 = bc_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	sj = bc_result_step_json(&res);
	cpu1 = bc_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	if (!sj)
		goto out;
	as = (double)n * (double)secs;
	printf("agents: %d, seconds: %d\n", n, secs);
	printf("cjson_bytes_per_agent_second: %.1f\n", (double)cjson_bytes / as);
	printf("store_bytes_per_agent_second: %.1f\n", (double)store_bytes / as);
	printf("store_counted_bytes_per_agent_second: %.1f\n",
	       (double)bc_hostsamples_bytes(res.hosts) / as);
	printf("step_json_ms: %.1f\n", (double)(cpu1 - cpu0) / 1e6);
	printf("hosts_us_per_agent_second: %.2f\n", (double)(cpu1 - cpu0) / 1e3 / as);
	rc = 0;
out:
	cJSON_Delete(sj);
	cJSON_Delete(tmpl);
	bc_step_result_free(&res);
	bc_profile_destroy(&p);
	free(text);
	return rc;
}
