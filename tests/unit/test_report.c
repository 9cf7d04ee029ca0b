/* test_report - report writers on a synthetic run directory: expect criteria, optional sections,
 * CSV/fio shapes (escaping: test_fmt; ranking: test_rank) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/expect.h"
#include "report/parts/fmt.h"
#include "report/parts/rank.h"
#include "report/parts/rundata.h"
#include "report/report.h"
#include "report/writers.h"
#include "util/rjson.h"
#include "bc_test.h"

#define FIXTURE BC_SRC_DIR "/tests/data/report/synthetic"

/* run writer on r into a string the caller frees */
static char *render(int (*writer)(const struct bc_report *, FILE *), const struct bc_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	CHECK(writer(r, f) == 0);
	fclose(f);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static const cJSON *find(const cJSON *arr, const char *step, const char *metric, const char *scope)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, arr) if (!strcmp(bc_rj_str("", x, "step"), step) &&
				       !strcmp(bc_rj_str("", x, "metric"), metric) &&
				       !strcmp(bc_rj_str("", x, "scope"), scope)) return x;
	return NULL;
}

static void test_expect(const struct bc_report *r)
{
	const cJSON *x;

	CHECK(cJSON_GetArraySize(r->expect) == 5);
	x = find(r->expect, "rand-4k", "iops", "total");
	CHECK(x && cJSON_IsTrue(bc_rj(x, "pass")) && bc_rj_num(x, "value") == 20000);
	x = find(r->expect, "rand-4k", "p99_ms", "total");
	CHECK(x && cJSON_IsFalse(bc_rj(x, "pass")) &&
	      fabs(bc_rj_num(x, "value") - 0.401408) < 1e-9);
	x = find(r->expect, "rand-4k", "read_iops", "agent client-a");
	CHECK(x && cJSON_IsTrue(bc_rj(x, "pass")) && bc_rj_num(x, "value") == 7000);
	x = find(r->expect, "sweep-qd", "mbps", "node node-2");
	CHECK(x && cJSON_IsTrue(bc_rj(x, "pass")));
	/* figures of a failed step never pass */
	x = find(r->expect, "failed-step", "iops", "total");
	CHECK(x && cJSON_IsFalse(bc_rj(x, "pass")) && strstr(bc_rj_str("", x, "detail"), "failed"));
}

/* an expectation on a repeated step judges the mean of its repetitions, and
 * any repetition that failed fails it */
static void test_expect_repeat(void)
{
	cJSON *prof =
	    cJSON_Parse("{\"expect\":[{\"step\":\"r\",\"metric\":\"iops\",\"min\":150},"
			"{\"step\":\"r\",\"metric\":\"iops\",\"min\":250},"
			"{\"step\":\"r\",\"metric\":\"read_iops\",\"max\":1000,\"agent\":\"a\"},"
			"{\"step\":\"bad\",\"metric\":\"iops\",\"min\":1},"
			"{\"step\":\"gone\",\"metric\":\"iops\",\"min\":1}]}");
	cJSON *run = cJSON_Parse(
	    "{\"steps\":["
	    "{\"name\":\"r#1\",\"status\":\"ok\",\"total\":{\"ios\":10,\"iops\":100},"
	    "\"agents\":[{\"name\":\"a\",\"ios\":10,\"read\":{\"ios\":10,\"iops\":100}}]},"
	    "{\"name\":\"bad#1\",\"status\":\"ok\",\"total\":{\"ios\":10,\"iops\":100}},"
	    "{\"name\":\"r#2\",\"status\":\"ok\",\"total\":{\"ios\":10,\"iops\":200},"
	    "\"agents\":[{\"name\":\"a\",\"ios\":10,\"read\":{\"ios\":10,\"iops\":200}}]},"
	    "{\"name\":\"bad#2\",\"status\":\"failed\",\"total\":{\"ios\":10,\"iops\":100}},"
	    "{\"name\":\"r#3\",\"status\":\"ok\",\"total\":{\"ios\":10,\"iops\":300},"
	    "\"agents\":[{\"name\":\"a\",\"ios\":10,\"read\":{\"ios\":10,\"iops\":300}}]}"
	    "]}");
	cJSON *ev;
	const cJSON *x;

	CHECK(prof && run);
	ev = bc_report_expect_eval(prof, run);
	CHECK(cJSON_GetArraySize(ev) == 5);
	/* mean 200: passes min 150, fails min 250, never "did not run" */
	x = cJSON_GetArrayItem(ev, 0);
	CHECK(cJSON_IsTrue(bc_rj(x, "pass")) && bc_rj_num(x, "value") == 200);
	CHECK(!strcmp(bc_rj_str("", x, "detail"), "mean of 3 repetitions"));
	CHECK(cJSON_GetArraySize(bc_rj(x, "repetitions")) == 3);
	CHECK(cJSON_GetArrayItem(bc_rj(x, "repetitions"), 2)->valuedouble == 300);
	x = cJSON_GetArrayItem(ev, 1);
	CHECK(cJSON_IsFalse(bc_rj(x, "pass")) && bc_rj_num(x, "value") == 200);
	x = cJSON_GetArrayItem(ev, 2);
	CHECK(cJSON_IsTrue(bc_rj(x, "pass")) && bc_rj_num(x, "value") == 200 &&
	      !strcmp(bc_rj_str("", x, "scope"), "agent a"));
	x = cJSON_GetArrayItem(ev, 3);
	CHECK_MSG(cJSON_IsFalse(bc_rj(x, "pass")) && !bc_rj(x, "value") &&
		      !strcmp(bc_rj_str("", x, "detail"), "repetition bad#2 failed"),
		  "%s", bc_rj_str("", x, "detail"));
	x = cJSON_GetArrayItem(ev, 4);
	CHECK(cJSON_IsFalse(bc_rj(x, "pass")) &&
	      !strcmp(bc_rj_str("", x, "detail"), "step did not run"));
	cJSON_Delete(ev);
	cJSON_Delete(prof);
	cJSON_Delete(run);
}

static void test_devices(const struct bc_report *r)
{
	/* READY (events.jsonl) wins; an agent without READY falls back to HELLO */
	CHECK(!strcmp(bc_rj_str("", cJSON_GetArrayItem(bc_rj(r->devices, "client-a"), 0), "kind"),
		      "bdev"));
	CHECK(!strcmp(bc_rj_str("", cJSON_GetArrayItem(bc_rj(r->devices, "client-b"), 0), "kind"),
		      "missing"));
}

static void test_html(const struct bc_report *r)
{
	static const char *const charts[] = {
	    "s0-iops-total",
	    "s0-mbps-total",
	    "s0-lat-total",
	    "s0-iops-agents",
	    "s0-mbps-agents",
	    "s0-p99-agents",
	    "s0-iops-nodes",
	    "s0-mbps-nodes",
	    "s0-p99-nodes",
	    "s0-node-egress",
	    "sweep0-sweep-qd-throughput",
	    "sweep0-sweep-qd-latency",
	    "sweep0-sweep-qd-latency-vs-throughput",
	    "s2-iops-total",
	    "waf",
	};
	char *h = render(bc_report_html, r), needle[64];
	size_t i;

	CHECK(h && !strncmp(h, "<!DOCTYPE html>", 15));
	/* no markup from the run gets through, and nothing is fetched */
	/* one script runs (the charts), admitted by its hash; the rest is data */
	CHECK(count(h, "<script") ==
	      count(h, "<script type=\"application/json\" class=\"cd\">") + 1);
	CHECK(count(h, "<script>") == 1 && strstr(h, "script-src 'sha256-") != NULL);
	CHECK(count(h, "class=\"cd\">") >= 14);
	CHECK(!strstr(h, "<b>bold"));
	CHECK(strstr(h, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
	/* outside the script (uPlot's licence names its home), no address but SVG's namespace */
	{
		char *s = strstr(h, "<script>"), *e = s ? strstr(s, "</script>") : NULL;

		CHECK(s && e);
		if (s && e)
			memset(s, ' ', (size_t)(e - s));
		CHECK(!strstr(h, "http://") ||
		      count(h, "http://") == count(h, "http://www.w3.org/2000/svg"));
		CHECK(!strstr(h, "https://"));
		CHECK(strstr(h, "default-src 'none'") != NULL);
	}
	for (i = 0; i < sizeof(charts) / sizeof(charts[0]); i++) {
		snprintf(needle, sizeof(needle), "data-chart=\"%s\"", charts[i]);
		CHECK_MSG(count(h, needle) == 1, "chart %s", charts[i]);
	}
	CHECK(strstr(h, "storage node NIC bound") != NULL);
	CHECK(strstr(h, ">knee<") != NULL);
	CHECK(strstr(h, ">SKIP<") != NULL);
	CHECK(count(h, "<svg") == count(h, "</svg>"));
	free(h);
}

/*
 * A level above its limit is summarised in report.html (distribution,
 * top and bottom), linked to volumes.html and volumes.csv, which list every
 * entity of every step; below it, nothing changes and nothing is linked.
 */
static void test_summarised(struct bc_report *r)
{
	char *h = render(bc_report_html, r), *v, *c;

	CHECK(!strstr(h, "summarised") && !strstr(h, "href=\"volumes.html"));
	free(h);
	r->full_volumes = r->full_agents = 1;
	h = render(bc_report_html, r);
	v = render(bc_report_volumes_html, r);
	c = render(bc_report_volumes_csv, r);
	r->full_volumes = r->full_agents = 0;
	/* three steps, each with both levels summarised and linked */
	CHECK_MSG(count(h, "<h3>volumes: 2, summarised</h3>") == 3, "%d",
		  count(h, "<h3>volumes: 2, summarised</h3>"));
	CHECK(count(h, "<h3>client hosts: 2, summarised</h3>") == 3);
	CHECK(strstr(h, "href=\"volumes.html#s0-volumes\"") != NULL);
	CHECK(strstr(h, "href=\"volumes.html#s2-agents\"") != NULL);
	CHECK(strstr(h, "href=\"volumes.csv\"") != NULL);
	CHECK(strstr(h, "href=\"volumes.html#environment\"") != NULL);
	CHECK(count(h, "data-chart=\"s0-dist-iops-volumes\"") == 1);
	CHECK(count(h, "data-chart=\"s1-dist-p99-agents\"") == 1);
	CHECK(strstr(h, "by IOPS, highest first") && strstr(h, "by p99 latency, highest first"));
	/* the per-host charts: the spread across hosts, one chart each still */
	CHECK(count(h, "IOPS across the 2 client hosts, per second") >= 2);
	CHECK(count(h, "data-chart=\"s0-p99-agents\"") == 1);
	CHECK(count(h, "<script>") == 1);
	/* the full page: every volume and agent row of every step, the anchors linked to */
	CHECK(v && !strncmp(v, "<!DOCTYPE html>", 15) && !strstr(v, "<script"));
	CHECK(count(v, "/data/&lt;script&gt;alert(1)&lt;/script&gt;.dat</td>") >= 3);
	CHECK(count(v, "client-a:/dev/nvme0n1</td>") == 3);
	CHECK(strstr(v, "id=\"s0-volumes\"") && strstr(v, "id=\"s2-agents\""));
	CHECK(strstr(v, "id=\"environment\"") != NULL);
	CHECK(count(v, "summarised") == 0);
	/* volumes.csv: header + 3 steps x (total + 2 agents + 2 nodes + 2 volumes) */
	CHECK_MSG(count(c, "\r\n") == 1 + 3 * 7, "%d rows", count(c, "\r\n"));
	CHECK(!strncmp(c, "step,level,entity,agent,node,ios,bytes,seconds,iops,", 52));
	CHECK(strstr(c, "\r\nrand-4k,volume,client-a:/dev/nvme0n1,client-a,node-1,") != NULL);
	CHECK(count(c, ",volume,client-") == 6 && count(c, ",agent,client-") == 6);
	free(h);
	free(v);
	free(c);
}

static void test_md(const struct bc_report *r)
{
	char *m = render(bc_report_md, r);

	CHECK(strstr(m, "## Acceptance criteria") != NULL);
	CHECK(count(m, "| **PASS** |") == 3 && count(m, "| **FAIL** |") == 2);
	CHECK(strstr(m, "3 of 5 criteria passed.") != NULL);
	CHECK(strstr(m, "## Verdicts") != NULL);
	CHECK(strstr(m, "### By storage node") != NULL);
	CHECK_MSG(
	    strstr(
		m,
		"| **8** | - | 52,000 | 213 MB/s | - | 320 \xc2\xb5s | 154 \xc2\xb5s | **knee** |"),
	    "%s", strstr(m, "## Sweep") ? strstr(m, "## Sweep") : m);
	/* the sweep's charts are the files charts/ holds */
	CHECK(strstr(m, "![throughput](charts/sweep0-sweep-qd-throughput.svg)") != NULL);
	CHECK(strstr(m, "Write amplification (fdp-on): 1.020") != NULL);
	CHECK(strstr(m, "**Agent client-b lost from second 5 (silent for 5 s); its figures stop "
			"there.**") != NULL);
	CHECK(strstr(m,
		     "| client-a | /dev/nvme0n1 | /dev/nvme0n1 | bdev | 3.49 TiB | 4096 | 4096 |"));
	CHECK(!strstr(m, "<script"));
	CHECK(!strstr(m, "are in volumes.html"));
	free(m);
}

/* summarised (as report.html is), summary.md leaves the host and device tables to volumes.html */
static void test_md_summarised(struct bc_report *r)
{
	char *m;

	r->full_volumes = r->full_agents = 1;
	m = render(bc_report_md, r);
	r->full_volumes = r->full_agents = 0;
	CHECK(strstr(m, "## System under test") != NULL);
	CHECK_MSG(strstr(m, "2 client hosts and 2 volumes: their tables (host facts, the devices "
			    "opened) are in volumes.html.") != NULL,
		  "%s", strstr(m, "## System under test") ? strstr(m, "## System under test") : m);
	CHECK(!strstr(m, "| client-a | /dev/nvme0n1 | /dev/nvme0n1 | bdev |"));
	free(m);
}

static void test_csv(const struct bc_report *r)
{
	static const char head[] = "step,second,phase,level,entity,iops,read_iops,mbps,"
				   "lat_mean_us,lat_p50_us,lat_p99_us,lat_max_us,errors\r\n";
	char *c = render(bc_report_csv, r), *line2;

	/* header + 3 steps x (total + 2 agents + 2 nodes + 2 volumes) x 8 seconds */
	CHECK_MSG(count(c, "\r\n") == 1 + 3 * 7 * 8, "%d rows", count(c, "\r\n"));
	CHECK(!strncmp(c, head, sizeof(head) - 1));
	line2 = strstr(c, "\r\n") + 2;
	CHECK(!strncmp(line2, "rand-4k,0,ramp,total,total,20000,14000,81.92,", 45));
	CHECK(strstr(c, "rand-4k,2,run,agent,client-a,") != NULL);
	free(c);
}

static void test_fio(const struct bc_report *r)
{
	char *t = render(bc_report_fio, r);
	cJSON *j = cJSON_Parse(t), *job, *cl;
	const cJSON *rd;

	CHECK(j != NULL);
	CHECK(cJSON_GetArraySize(bc_rj(j, "jobs")) == 3);
	/* per step: two agents and "All clients" */
	CHECK(cJSON_GetArraySize(bc_rj(j, "client_stats")) == 9);
	job = cJSON_GetArrayItem(bc_rj(j, "jobs"), 0);
	rd = bc_rj(job, "read");
	CHECK(bc_rj_num(rd, "total_ios") == 84000 && bc_rj_num(rd, "io_bytes") == 84000 * 4096.0);
	CHECK(bc_rj_num(rd, "runtime") == 6000 && bc_rj_num(rd, "bw_bytes") == 84000 * 4096 / 6);
	CHECK(bc_rj_num(rd, "clat_ns", "N") == 84000);
	CHECK(cJSON_GetArraySize(bc_rj(rd, "clat_ns", "bins")) == 4);
	CHECK(bc_rj(rd, "lat_ns", "percentile", "99.000000") != NULL);
	CHECK(bc_rj_num(job, "trim", "total_ios") == 0 && !bc_rj(job, "trim", "clat_ns", "bins"));
	cl = cJSON_GetArrayItem(bc_rj(j, "client_stats"), 2);
	CHECK(!strcmp(bc_rj_str("", cl, "jobname"), "All clients"));
	cl = cJSON_GetArrayItem(bc_rj(j, "client_stats"), 0);
	CHECK(!strcmp(bc_rj_str("", cl, "hostname"), "client-a") && bc_rj_num(cl, "port") == 7470);
	CHECK(bc_rj_num(cl, "read", "bw_agg") == 50);
	CHECK(bc_rj_num(job, "error") == 0);
	CHECK(bc_rj_num(cJSON_GetArrayItem(bc_rj(j, "jobs"), 2), "error") != 0);
	cJSON_Delete(j);
	free(t);
}

/* a sweep: its suspects table is the verdict, whole; its points' own verdicts are not repeated */
static void test_sweep_one_verdict(void)
{
	static const char run[] =
	    "{\"steps\": [{\"name\": \"seq-1\", \"sweep_of\": \"seq\", \"sweep_point\": \"1\","
	    " \"analysis\": {\"verdict\": \"a point's own verdict\", \"bottleneck\": \"-\","
	    " \"evidence\": [\"node n1: NIC tx 3% rx 0%, CPU 58%\"]}},"
	    " {\"name\": \"seq-4\", \"sweep_of\": \"seq\", \"sweep_point\": \"4\","
	    " \"sweep\": {\"param\": \"iodepth\"}, \"analysis\": {\"verdict\": \"core-group-bound: "
	    "all 3 nodes: 16 of 128 cores at 100% (cores 0-15, the same at every point) while 42% "
	    "is "
	    "idle: a fixed group of cores is the limit; client client-2: MTU 1500 via eth1 to 3 "
	    "nodes whose NICs have 9000 (all 3 nodes flat at 9.23 GB/s each)\", \"bottleneck\": "
	    "\"nodes node-1, node-2, node-3: core group 100%\", \"evidence\": [\"Little's law\"],"
	    " \"suspects\": [{\"suspect\": \"node core group\", \"state\": \"implicated\","
	    " \"score\": 1, \"hosts\": \"node-1, node-2, node-3\", \"figures\": \"16 of "
	    "128\"}]}}]}";
	struct bc_report r;
	char *m;

	memset(&r, 0, sizeof(r));
	r.run = cJSON_Parse(run);
	r.expect = cJSON_CreateArray();
	r.devices = cJSON_CreateObject();
	CHECK(r.run && r.expect && r.devices);
	r.run_borrowed = false;
	m = render(bc_report_md, &r);
	CHECK_MSG(!strstr(m, "a point's own verdict"), "a sweep point's verdict repeated:\n%s", m);
	CHECK(!strstr(m, "NIC tx 3%"));
	CHECK_MSG(strstr(m, "**Verdict:** core-group-bound: all 3 nodes: 16 of 128 cores") &&
		      strstr(m, "flat at 9.23 GB/s each)"),
		  "the suspects' verdict is not whole:\n%s", m);
	/* the sweep's section: its suspects and verdict; the summary says it first */
	CHECK(strstr(m, "## Sweep seq over iodepth") &&
	      strstr(m, "## Sweep seq over iodepth") < strstr(m, "### Suspects (seq)"));
	CHECK(strstr(m, "## Summary") < strstr(m, "## Sweep seq"));
	CHECK(strstr(strstr(m, "## Summary"), "core-group-bound: all 3 nodes") <
	      strstr(m, "## Sweep seq"));
	free(m);
	bc_report_free(&r);
}

int main(void)
{
	struct bc_report r;
	char err[512];

	test_sweep_one_verdict();
	if (bc_report_load(&r, FIXTURE, err, sizeof(err))) {
		fprintf(stderr, "cannot load %s: %s\n", FIXTURE, err);
		return 1;
	}
	test_expect(&r);
	test_expect_repeat();
	test_devices(&r);
	test_html(&r);
	test_summarised(&r);
	test_md(&r);
	test_md_summarised(&r);
	test_csv(&r);
	test_fio(&r);
	bc_report_free(&r);
	TEST_DONE();
}
