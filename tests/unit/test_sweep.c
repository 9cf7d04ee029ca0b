/* test_sweep: steps[].sweep and the node counter keys in profiles (checks with JSON paths), sweep
 * points with their workloads, the stop rule, a vdbench-style curve, and the steps[].sweep record
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "profile/sweep.h"
#include "bc_test.h"

#define HEAD                                                                                       \
	"{\"name\": \"p\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}], "             \
	"\"volumes\": [{\"agent\": \"a\", \"path\": \"null\"}, {\"agent\": \"a\", \"path\": "      \
	"\"null\"}, {\"agent\": \"a\", \"path\": \"null\"}], "

static struct bc_profile *parse(const char *text, char *err, size_t len)
{
	struct bc_profile *p = NULL;

	if (bc_profile_parse(text, "p.json", &p, err, len))
		return NULL;
	return p;
}

static struct bc_profile *with_steps(const char *steps)
{
	char text[4096], err[512];
	struct bc_profile *p;

	snprintf(text, sizeof(text), HEAD "\"steps\": [%s]}", steps);
	p = parse(text, err, sizeof(err));
	CHECK_MSG(p != NULL, "%s", err);
	return p;
}

/* the profile is rejected with a message containing want */
static void rejects(const char *steps_or_nodes, bool nodes, const char *want)
{
	char text[4096], err[512] = "";
	struct bc_profile *p;

	if (nodes)
		snprintf(text, sizeof(text),
			 HEAD "\"nodes\": [%s], \"steps\": [{\"name\": \"s\"}]}", steps_or_nodes);
	else
		snprintf(text, sizeof(text), HEAD "\"steps\": [%s]}", steps_or_nodes);
	p = parse(text, err, sizeof(err));
	CHECK_MSG(p == NULL && strstr(err, want), "want \"%s\", got \"%s\"", want, err);
	bc_profile_destroy(&p);
}

static struct bc_sweep_result res(double gbps, double p99_ms)
{
	struct bc_sweep_result r = {gbps * 1e9 / 65536, gbps * 1e9, p99_ms / 2, p99_ms, true};

	return r;
}

static void test_iodepth_sweep(void)
{
	struct bc_profile *p =
	    with_steps("{\"name\": \"s\", \"bs\": \"64k\", \"numjobs\": 2, \"runtime\": \"30s\","
		       " \"sweep\": {\"iodepth\": [1, 2, 4, 8, 16], \"stop\": {\"p99_ms\": 50,"
		       " \"min_gain_pct\": 5}, \"ramp\": \"1s\", \"runtime\": \"2s\"}}");
	struct bc_sweep_state s;
	struct bc_sweep_point pt;
	struct bc_sweep_result r;
	cJSON *j, *an;
	char why[160];
	int n = 0;

	if (!p)
		return;
	CHECK(bc_sweep_init(&s, p, &p->steps[0]) == 0);
	CHECK(s.param == BC_SWEEP_IODEPTH && s.npoints == 5);
	while (bc_sweep_next(&s, &pt)) {
		static const double gbps[] = {1, 2, 3.5, 3.6, 9};

		CHECK(pt.index == n && pt.wl.iodepth == 1u << n && pt.wl.numjobs == 2);
		CHECK(pt.wl.ramp_s == 1 && pt.wl.runtime_s == 2 && pt.wl.bs == 65536);
		CHECK(pt.outstanding == 3.0 * 2 * (1 << n)); /* 3 volumes x numjobs x iodepth */
		if (n == 2)
			CHECK(!strcmp(pt.name, "s@iodepth=4") && !strcmp(pt.label, "4"));
		r = res(gbps[n], 10);
		CHECK(bc_sweep_record(&s, &r) == 0);
		n++;
	}
	/* 3.5 -> 3.6 GB/s is +2.9%: below the 5% rule, the sweep ends after point 3 */
	CHECK_MSG(n == 4 && s.stopped, "ran %d points", n);
	CHECK(strstr(s.stop_reason, "+2.9%") != NULL);
	an = cJSON_Parse("{\"knee\": {\"value\": 4, \"reason\": \"test\"}}");
	j = bc_sweep_json(&s, an);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "param")), "iodepth"));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(j, "values")) == 4);
	CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "mbps"), 2)->valuedouble == 3500);
	CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "n"), 3)->valuedouble == 48);
	CHECK(cJSON_GetObjectItem(j, "stopped") != NULL);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "knee"), "value")->valuedouble == 4);
	cJSON_Delete(j);
	cJSON_Delete(an);

	/* the p99 bound, evaluated on a result before it is recorded */
	bc_sweep_free(&s);
	CHECK(bc_sweep_init(&s, p, &p->steps[0]) == 0);
	r = res(1, 60);
	CHECK(bc_sweep_should_stop(&s, &r, why, sizeof(why)) && strstr(why, "p99 60.000 ms"));
	r = res(1, 10);
	r.ok = false;
	CHECK(bc_sweep_should_stop(&s, &r, NULL, 0));
	bc_sweep_free(&s);
	bc_profile_destroy(&p);
}

static void test_other_params(void)
{
	struct bc_profile *p = with_steps(
	    "{\"name\": \"b\", \"bs\": \"4k/50:64k/50\", \"sweep\": {\"bs\": [\"4k\", 1048576]}},"
	    "{\"name\": \"r\", \"sweep\": {\"rw\": [\"read\", \"randwrite\"]}},"
	    "{\"name\": \"c\", \"iodepth\": 8, \"sweep\": {\"curve\": [100, 70, 10]}},"
	    "{\"name\": \"plain\", \"iodepth\": 4},"
	    "{\"name\": \"m\", \"rw\": \"randrw\", \"sweep\": {\"rwmixread\": [0, 70, 100]}}");
	struct bc_sweep_state s;
	struct bc_sweep_point pt;
	struct bc_sweep_result r = res(1, 1);
	char err[256];
	cJSON *j;
	struct bc_profile *back;
	char *text;

	if (!p)
		return;
	CHECK(bc_sweep_init(&s, p, &p->steps[0]) == 0 && s.npoints == 2);
	CHECK(bc_sweep_point(&s, 1, &pt) == 0 && pt.wl.bs == 1048576 && pt.wl.nbssplit == 0);
	CHECK(!strcmp(pt.label, "1m") && !strcmp(pt.name, "b@bs=1m"));
	CHECK(bc_sweep_point(&s, 2, &pt) == -ERANGE);
	bc_sweep_free(&s);

	CHECK(bc_sweep_init(&s, p, &p->steps[1]) == 0);
	CHECK(bc_sweep_point(&s, 1, &pt) == 0 && pt.wl.rw == BC_RW_RANDWRITE);
	CHECK(!strcmp(pt.label, "randwrite"));
	bc_sweep_free(&s);

	/* vdbench curve: max first, then percentages of its IOPS as per-volume rate limits */
	CHECK(bc_sweep_init(&s, p, &p->steps[2]) == 0 && s.npoints == 4);
	CHECK(bc_sweep_next(&s, &pt) && !strcmp(pt.label, "max") && pt.wl.rate_iops == 0);
	CHECK(bc_sweep_point(&s, 1, &pt) == -EAGAIN);
	r.iops = 30000;
	CHECK(bc_sweep_record(&s, &r) == 0);
	CHECK(bc_sweep_next(&s, &pt) && !strcmp(pt.label, "100%") && pt.wl.rate_iops == 10000);
	CHECK(bc_sweep_record(&s, &r) == 0);
	CHECK(bc_sweep_next(&s, &pt) && pt.wl.rate_iops == 7000 && !strcmp(pt.name, "c@curve=70%"));
	CHECK(pt.outstanding == 24);
	bc_sweep_free(&s);

	/* a plain step is a sweep of one point: itself */
	CHECK(bc_sweep_init(&s, p, &p->steps[3]) == 0 && s.npoints == 1 &&
	      s.param == BC_SWEEP_NONE);
	CHECK(bc_sweep_next(&s, &pt) && !strcmp(pt.name, "plain") && pt.wl.iodepth == 4);
	CHECK(bc_sweep_record(&s, &r) == 0 && !bc_sweep_next(&s, &pt) && !s.stopped);
	bc_sweep_free(&s);

	/* vdbench's forrdpct: the read share of a mix, point by point */
	CHECK(bc_sweep_init(&s, p, &p->steps[4]) == 0 && s.npoints == 3 &&
	      s.param == BC_SWEEP_RWMIXREAD);
	CHECK(bc_sweep_point(&s, 1, &pt) == 0 && pt.wl.rwmixread_ppm == 70 * BC_SPLIT_PCT1 &&
	      pt.wl.rw == BC_RW_RANDRW);
	CHECK(!strcmp(pt.label, "70") && !strcmp(pt.name, "m@rwmixread=70") && pt.value == 70);
	CHECK(bc_sweep_point(&s, 0, &pt) == 0 && pt.wl.rwmixread_ppm == 0);
	bc_sweep_free(&s);

	/* the resolved profile carries the sweeps and reads back the same */
	j = bc_profile_to_json(p);
	CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "steps"), 2), "sweep"));
	text = cJSON_PrintUnformatted(j);
	back = parse(text, err, sizeof(err));
	CHECK_MSG(back && back->steps[2].sweep &&
		      cJSON_Compare(back->steps[2].sweep, p->steps[2].sweep, true),
		  "%s", err);
	bc_profile_destroy(&back);
	free(text);
	cJSON_Delete(j);
	bc_profile_destroy(&p);
}

static void test_sweep_errors(void)
{
	rejects(
	    "{\"name\": \"s\", \"sweep\": {\"iodepth\": [1], \"numjobs\": [2]}}", false,
	    "steps[0].sweep: expected exactly one of iodepth, numjobs, bs, rw, rwmixread or curve, "
	    "got 2");
	rejects("{\"name\": \"s\", \"rw\": \"randrw\", \"sweep\": {\"rwmixread\": [50, 101]}}",
		false, "steps[0].sweep.rwmixread[1]:");
	rejects("{\"name\": \"s\", \"sweep\": {\"iodepth\": [1, 0]}}", false,
		"steps[0].sweep.iodepth[1]: must be in 1..65536, got 0");
	rejects("{\"name\": \"s\", \"sweep\": {\"iodepth\": []}}", false,
		"steps[0].sweep.iodepth: expected a list of 1..63 values");
	rejects("{\"name\": \"s\", \"sweep\": {\"bs\": [4100]}}", false,
		"steps[0].sweep.bs[0]: must be a multiple of 512");
	rejects("{\"name\": \"s\", \"sweep\": {\"rw\": [\"read\", \"sideways\"]}}", false,
		"steps[0].sweep.rw[1]: expected one of read");
	rejects("{\"name\": \"s\", \"sweep\": {\"curve\": [100, 150]}}", false,
		"steps[0].sweep.curve[1]: expected a percentage of the max in (0, 100], got 150");
	rejects("{\"name\": \"s\", \"sweep\": {\"curve\": [50], \"stop\": {\"p99_ms\": 3}}}", false,
		"steps[0].sweep.stop.p99_ms: a curve lowers the load");
	rejects("{\"name\": \"s\", \"sweep\": {\"bs\": [\"4k\"], \"stop\": {\"min_gain_pct\": 3}}}",
		false, "steps[0].sweep.stop.min_gain_pct: only an iodepth or numjobs sweep");
	rejects("{\"name\": \"s\", \"sweep\": {\"iodepth\": [1], \"stop\": {\"p99\": 3}}}", false,
		"steps[0].sweep.stop.p99: unknown key");
	rejects("{\"name\": \"s\", \"sweep\": {\"iodepth\": [1], \"runtime\": \"0s\"}}", false,
		"steps[0].sweep.runtime: must be >= 1s");
	rejects("{\"name\": \"s\", \"sweep\": [1, 2]}", false,
		"steps[0].sweep: expected an object");
}

static void test_node_keys(void)
{
	char text[4096], err[512];
	struct bc_profile *p;

	snprintf(
	    text, sizeof(text),
	    HEAD
	    "\"nodes\": [{\"name\": \"n\", \"metrics\": [\"http://10.0.0.1:9100/metrics\"],"
	    " \"nic\": \"bond0\", \"prometheus\": {\"url\": \"http://prom:9090\","
	    " \"rate_window\": \"5s\", \"lag\": \"3s\"},"
	    " \"series\": [{\"name\": \"gc\", \"promql\": "
	    "\"rate(x{instance=\\\"$instance\\\"}[1m])\"},"
	    " {\"name\": \"busy\", \"metric\": \"spdk_busy_total\", \"labels\": {\"core\": \"1\"},"
	    " \"rate\": true, \"scale\": 0.5}]}], \"steps\": [{\"name\": \"s\"}]}");
	p = parse(text, err, sizeof(err));
	CHECK_MSG(p != NULL, "%s", err);
	bc_profile_destroy(&p);

	rejects("{\"name\": \"n\", \"prometheus\": {\"instance\": \"x:1\"}}", true,
		"nodes[0].prometheus.url: required");
	rejects("{\"name\": \"n\", \"prometheus\": {\"url\": \"ftp://x\", \"instance\": \"x\"}}",
		true, "nodes[0].prometheus.url: expected an http:// or https:// URL");
	rejects("{\"name\": \"n\", \"prometheus\": {\"url\": \"http://x\"}}", true,
		"nodes[0].prometheus: needs \"instance\"");
	rejects("{\"name\": \"n\", \"prometheus\": {\"url\": \"http://x\", \"instance\": \"i\","
		" \"rate_window\": \"5\"}}",
		true, "nodes[0].prometheus.rate_window: expected a duration with a unit");
	rejects("{\"name\": \"n\", \"metrics\": [\"http://x/\"], \"series\": [{\"name\": \"q\","
		" \"promql\": \"up\"}]}",
		true, "nodes[0].series[0].promql: needs the node's \"prometheus\" server");
	rejects("{\"name\": \"n\", \"series\": [{\"name\": \"q\", \"metric\": \"up\"}]}", true,
		"nodes[0].series[0].metric: needs the node's \"metrics\" URLs");
	rejects("{\"name\": \"n\", \"metrics\": [\"http://x/\"], \"series\": [{\"name\": \"q\","
		" \"metric\": \"9bad\"}]}",
		true, "nodes[0].series[0].metric: expected a Prometheus metric name");
	rejects("{\"name\": \"n\", \"metrics\": [\"http://x/\"], \"series\": [{\"name\": \"q\","
		" \"metric\": \"a\"}, {\"name\": \"q\", \"metric\": \"b\"}]}",
		true, "nodes[0].series[1].name: duplicate series name \"q\"");
	rejects("{\"name\": \"n\", \"metrics\": [\"http://x/\"], \"series\": [{\"name\": \"q\"}]}",
		true, "nodes[0].series[0]: expected exactly one of \"promql\" or \"metric\"");
	rejects("{\"name\": \"n\", \"metrics\": [\"http://x/\"], \"series\": [{\"name\": \"q\","
		" \"metric\": \"a\", \"labels\": {\"k\": 1}}]}",
		true, "nodes[0].series[0].labels: label \"k\": expected a string");
	rejects("{\"name\": \"n\", \"scrape\": 1}", true, "nodes[0].scrape: unknown key");
}

int main(void)
{
	test_iodepth_sweep();
	test_other_params();
	test_sweep_errors();
	test_node_keys();
	TEST_DONE();
}
