/* test_fdp_report.c - what an FDP experiment's steps add up to: WAF per mode from summed
 * device counter deltas (never an average of ratios), merged latency, the verdict (as expected /
 * not observed / inconclusive, and seed 000's "WAF ~1: GC never ran" lesson), the reference
 * comparison and the summary.md section */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/experiment.h"
#include "profile/profile.h"
#include "report/parts/fdp.h"
#include "results/fdp.h"
#include "bc_test.h"

static char s_err[1024];

/* a measurement step entry as run.json holds it: one agent, one volume, one write bucket */
static cJSON *s_step(const char *mode, const char *phase, double host, double media,
		     unsigned lat_bucket)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"name\": \"x@%s/%s-1\", \"status\": \"ok\", \"experiment_of\": \"x\", "
		 "\"mode\": \"%s\", \"phase\": \"%s\", \"measured_seconds\": 1, "
		 "\"class_placement\": {\"hot\": [0]}, "
		 "\"total\": {\"write\": {\"bytes\": %.0f, \"hist\": [[%u, 100]]}}, "
		 "\"agent_totals\": {\"a\": {\"volumes\": [{\"nvme\": {\"waf\": "
		 "{\"status\": \"available\", \"source\": \"fdp\", \"host_bytes\": %.0f, "
		 "\"media_bytes\": %.0f}}}]}}}",
		 mode, phase, mode, phase, host, lat_bucket, host, media);
	return cJSON_Parse(text);
}

static struct bc_profile *s_profile(const char *exp)
{
	char text[2048];
	struct bc_profile *p = NULL;

	snprintf(
	    text, sizeof(text),
	    "{\"name\": \"t\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}], "
	    "\"volumes\": [{\"agent\": \"a\", \"path\": \"null\"}], \"steps\": [{\"name\": "
	    "\"x\", \"rw\": \"randwrite\", \"streams\": [{\"name\": \"h\", \"class\": \"hot\", "
	    "\"share\": 1}, {\"name\": \"c\", \"class\": \"cold\", \"share\": 1}], "
	    "\"experiment\": %s}]}",
	    exp);
	if (bc_profile_parse(text, "p.json", &p, s_err, sizeof(s_err)))
		fprintf(stderr, "%s\n", s_err);
	return p;
}

static const cJSON *s_mode(const cJSON *x, const char *mode)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, cJSON_GetObjectItem(x, "modes"))
	{
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(m, "mode")), mode))
			return m;
	}
	return NULL;
}

static const char *s_outcome(const cJSON *x, int i)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(x, "verdict"), i), "outcome"));
}

/* seed 001's figures: separation helps, the verdict says so; WAF sums bytes */
static void test_gc_reached(void)
{
	struct bc_profile *p = s_profile("{\"modes\": [\"no_fdp\", \"mixed\", \"separated\"]}");
	struct bc_experiment x;
	cJSON *steps = cJSON_CreateArray(), *sum;
	const cJSON *m;
	char *md = NULL;
	size_t mdlen = 0;
	FILE *f;

	if (!p || bc_experiment_get(&p->steps[0], &x, s_err, sizeof(s_err))) {
		CHECK(!"profile");
		goto out;
	}
	/* the precondition counts apart; two iterations: (8 + 80) / (2 + 10) = 7.33, not 6 */
	cJSON_AddItemToArray(steps, s_step("no_fdp", "precondition", 1000, 1000, 1000));
	cJSON_AddItemToArray(steps, s_step("no_fdp", "measure", 2, 8, 1000));
	cJSON_AddItemToArray(steps, s_step("no_fdp", "measure", 10, 80, 1000));
	cJSON_AddItemToArray(steps, s_step("mixed", "warmup", 10, 1000, 1000));
	cJSON_AddItemToArray(steps, s_step("mixed", "measure", 100, 767, 1200));
	cJSON_AddItemToArray(steps, s_step("separated", "measure", 100, 394, 900));
	sum = bc_fdp_summary(steps, "x", &x);
	CHECK(sum != NULL);
	m = s_mode(sum, "no_fdp");
	CHECK(m && cJSON_GetObjectItem(m, "waf")->valuedouble == 7.3333);
	CHECK(m && cJSON_GetObjectItem(m, "host_write_bytes")->valuedouble == 12);
	CHECK(m && cJSON_GetArraySize(cJSON_GetObjectItem(m, "waf_iterations")) == 2);
	CHECK(m &&
	      cJSON_GetObjectItem(cJSON_GetObjectItem(m, "precondition"), "waf")->valuedouble == 1);
	m = s_mode(sum, "mixed");
	CHECK(m && cJSON_GetObjectItem(m, "waf")->valuedouble == 7.67);
	/* one bucket per mode: its p99 is that bucket's value (ns -> ms, 4 decimals) */
	CHECK(m && cJSON_GetObjectItem(m, "write_p99_ms")->valuedouble > 0 &&
	      cJSON_GetObjectItem(m, "write_p99_ms")->valuedouble >
		  cJSON_GetObjectItem(s_mode(sum, "separated"), "write_p99_ms")->valuedouble);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(sum, "gc"), "reached")));
	/* defaults: WAF sep<no_fdp, sep<mixed, no_fdp<mixed; p99 sep<no_fdp, sep<mixed */
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(sum, "verdict")) == 5);
	CHECK(!strcmp(s_outcome(sum, 0), "as expected"));
	CHECK(!strcmp(s_outcome(sum, 1), "as expected"));
	CHECK(!strcmp(s_outcome(sum, 2), "as expected")); /* 7.33 vs 7.67: 4.4% > 2% */
	CHECK(!strcmp(s_outcome(sum, 3), "as expected"));
	CHECK(!strcmp(s_outcome(sum, 4), "as expected"));
	f = open_memstream(&md, &mdlen);
	bc_fdp_md(f, sum);
	fclose(f);
	CHECK(md && strstr(md, "| expected | observed | verdict |") &&
	      strstr(md, "| WAF: separated lower than mixed | 3.94 vs 7.67 | as expected (48.6% "
			 "lower) |"));
	free(md);
	cJSON_Delete(sum);
out:
	cJSON_Delete(steps);
	bc_profile_destroy(&p);
}

/* seed 000's figures: WAF 1.0159 everywhere is GC never reached, said as such */
static void test_gc_never(void)
{
	struct bc_profile *p = s_profile("{\"modes\": [\"no_fdp\", \"mixed\", \"separated\"], "
					 "\"reference\": \"/nonexistent-bc-ref\"}");
	struct bc_experiment x;
	cJSON *steps = cJSON_CreateArray(), *sum, *ref, *cmp;
	const cJSON *r;

	if (!p || bc_experiment_get(&p->steps[0], &x, s_err, sizeof(s_err))) {
		CHECK(!"profile");
		goto out;
	}
	cJSON_AddItemToArray(steps,
			     s_step("no_fdp", "measure", 511058432000.0, 519170949120.0, 1000));
	cJSON_AddItemToArray(steps,
			     s_step("mixed", "measure", 500674560000.0, 508619390976.0, 1100));
	cJSON_AddItemToArray(steps,
			     s_step("separated", "measure", 373750784000.0, 379687010304.0, 900));
	sum = bc_fdp_summary(steps, "x", &x);
	CHECK(sum && cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(sum, "gc"), "reached")));
	CHECK(sum && strstr(cJSON_GetStringValue(
				cJSON_GetObjectItem(cJSON_GetObjectItem(sum, "gc"), "note")),
			    "never reached garbage collection"));
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "verdict"), 1);
	CHECK(r &&
	      !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "outcome")), "inconclusive") &&
	      strstr(cJSON_GetStringValue(cJSON_GetObjectItem(r, "judgement")),
		     "never reached garbage collection"));
	/* latency rows are still judged */
	CHECK(!strcmp(s_outcome(sum, 4), "as expected"));
	/* an unreadable reference is said, not fatal */
	ref = cJSON_GetObjectItem(sum, "reference");
	CHECK(ref && cJSON_GetObjectItem(ref, "error"));
	/* compared with itself shifted: per-mode deltas */
	cmp = bc_fdp_compare(sum, sum);
	CHECK(cmp && cJSON_GetArraySize(cmp) == 3 &&
	      cJSON_GetObjectItem(cJSON_GetArrayItem(cmp, 0), "waf_delta")->valuedouble == 0);
	cJSON_Delete(cmp);
	cJSON_Delete(sum);
out:
	cJSON_Delete(steps);
	bc_profile_destroy(&p);
}

/* volumes without device counters: no WAF, said why, the WAF rows inconclusive */
static void test_no_counters(void)
{
	struct bc_profile *p = s_profile("{\"modes\": [\"mixed\", \"separated\"]}");
	struct bc_experiment x;
	cJSON *steps = cJSON_CreateArray(), *sum, *st;
	const cJSON *m;

	if (!p || bc_experiment_get(&p->steps[0], &x, s_err, sizeof(s_err))) {
		CHECK(!"profile");
		goto out;
	}
	st = s_step("mixed", "measure", 1, 1, 1000);
	cJSON_ReplaceItemInObject(
	    st, "agent_totals",
	    cJSON_Parse("{\"a\": {\"volumes\": [{\"write\": {\"bytes\": 4096}}]}}"));
	cJSON_AddItemToArray(steps, st);
	sum = bc_fdp_summary(steps, "x", &x);
	m = s_mode(sum, "mixed");
	CHECK(m && cJSON_IsNull(cJSON_GetObjectItem(m, "waf")) &&
	      strstr(cJSON_GetStringValue(cJSON_GetObjectItem(m, "waf_status")),
		     "no device counters"));
	m = s_mode(sum, "separated");
	CHECK(m && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(m, "waf_status")),
			   "unavailable: no measurement iteration ran"));
	CHECK(!strcmp(s_outcome(sum, 0), "inconclusive"));
	cJSON_Delete(sum);
out:
	cJSON_Delete(steps);
	bc_profile_destroy(&p);
}

/* two namespaces of one drive report the drive's deltas twice: counted once */
static void test_shared_device(void)
{
	struct bc_profile *p = s_profile("{\"modes\": [\"separated\"]}");
	struct bc_experiment x;
	cJSON *steps = cJSON_CreateArray(), *sum, *st;
	const cJSON *m;

	if (!p || bc_experiment_get(&p->steps[0], &x, s_err, sizeof(s_err))) {
		CHECK(!"profile");
		goto out;
	}
	st = s_step("separated", "measure", 0, 0, 1000);
	cJSON_ReplaceItemInObject(
	    st, "agent_totals",
	    cJSON_Parse("{\"a\": {\"volumes\": ["
			"{\"nvme\": {\"device\": \"S1/1\", \"waf\": {\"status\": \"available\", "
			"\"source\": \"fdp\", \"host_bytes\": 100, \"media_bytes\": 300}}},"
			"{\"nvme\": {\"device\": \"S1/1\", \"waf\": {\"status\": \"available\", "
			"\"source\": \"fdp\", \"host_bytes\": 100, \"media_bytes\": 300}}},"
			"{\"nvme\": {\"device\": \"S2/1\", \"waf\": {\"status\": \"available\", "
			"\"source\": \"fdp\", \"host_bytes\": 100, \"media_bytes\": 100}}}]}}"));
	cJSON_AddItemToArray(steps, st);
	sum = bc_fdp_summary(steps, "x", &x);
	m = s_mode(sum, "separated");
	/* (300 + 100) / (100 + 100) = 2, not (300 + 300 + 100) / 300 = 2.33 */
	CHECK_MSG(m && cJSON_GetObjectItem(m, "host_write_bytes")->valuedouble == 200 &&
		      cJSON_GetObjectItem(m, "waf")->valuedouble == 2,
		  "%s", m ? cJSON_PrintUnformatted(m) : "no mode");
	cJSON_Delete(sum);
out:
	cJSON_Delete(steps);
	bc_profile_destroy(&p);
}

/* a step whose volume also reports FDP statistics with MBE (bytes the device erased) */
static cJSON *s_step_mbe(const char *mode, double host, double media, double mbe)
{
	cJSON *st = s_step(mode, "measure", host, media, 1000);
	cJSON *nv = cJSON_GetObjectItem(
	    cJSON_GetArrayItem(
		cJSON_GetObjectItem(
		    cJSON_GetObjectItem(cJSON_GetObjectItem(st, "agent_totals"), "a"), "volumes"),
		0),
	    "nvme");
	cJSON *fdp = cJSON_AddObjectToObject(nv, "fdp");

	cJSON_AddNumberToObject(fdp, "hbmw", host);
	cJSON_AddNumberToObject(fdp, "mbmw", media);
	cJSON_AddNumberToObject(fdp, "mbe", mbe);
	return st;
}

/*
 * WAF above gc_waf on a device that erased nothing (QEMU's emulated FDP: the
 * write that fills a reclaim unit is counted twice, no GC) is no GC; the same
 * figures with erases are
 */
static void test_gc_nothing_erased(void)
{
	struct bc_profile *p = s_profile("{\"modes\": [\"no_fdp\", \"mixed\", \"separated\"]}");
	struct bc_experiment x;
	cJSON *steps = cJSON_CreateArray(), *sum = NULL;
	const cJSON *gc;
	int erased;

	if (!p || bc_experiment_get(&p->steps[0], &x, s_err, sizeof(s_err))) {
		CHECK(!"profile");
		goto out;
	}
	for (erased = 0; erased < 2; erased++) {
		cJSON_Delete(steps);
		steps = cJSON_CreateArray();
		cJSON_AddItemToArray(steps, s_step_mbe("no_fdp", 1e9, 1.11e9, erased ? 4e8 : 0));
		cJSON_AddItemToArray(steps, s_step_mbe("mixed", 1e9, 1.12e9, 0));
		cJSON_AddItemToArray(steps, s_step_mbe("separated", 1e9, 1.07e9, 0));
		sum = bc_fdp_summary(steps, "x", &x);
		gc = cJSON_GetObjectItem(sum, "gc");
		CHECK(sum && cJSON_IsBool(cJSON_GetObjectItem(gc, "reached")) &&
		      cJSON_IsTrue(cJSON_GetObjectItem(gc, "reached")) == (erased == 1));
		CHECK(!erased == !!strstr(cJSON_GetStringValue(cJSON_GetObjectItem(gc, "note")),
					  "erased nothing"));
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(
			  cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "modes"), 0),
			  "media_erased_bytes")) == (erased ? 4e8 : 0));
		CHECK(!strcmp(s_outcome(sum, 1), erased ? "as expected" : "inconclusive"));
		cJSON_Delete(sum);
	}
out:
	cJSON_Delete(steps);
	bc_profile_destroy(&p);
}

/*
 * seed 000's WAF: OCP C0 over SMART by default, FDP beside it, "waf_source": "fdp" the other
 * way round; the criteria table; a KV store's classes summed over iterations
 */
static void test_sources_criteria_classes(void)
{
	static const char *const vol =
	    "{\"nvme\": {\"waf\": {}, \"wafs\": {\"ocp_c0\": {\"status\": \"available\", "
	    "\"source\": \"ocp_c0\", \"host_bytes\": 1024000, \"media_bytes\": 2048000}, \"fdp\": "
	    "{\"status\": \"available\", \"source\": \"fdp\", \"host_bytes\": 1000000, "
	    "\"media_bytes\": 1500000}}}, \"kv\": {\"classes\": [{\"name\": \"h\", \"class\": "
	    "\"hot\", \"workers\": 2, \"object_bytes\": 4096, \"meta\": \"c\", \"expected\": "
	    "{\"stores\": 10, \"prefetches\": 3}, \"stores\": 10, \"store_bytes\": 40960, "
	    "\"prefetches\": 2, \"prefetch_bytes\": 8192, \"record_failures\": 1, \"lifetime\": "
	    "{\"objects\": 4, \"mean_ms\": 2, \"hist\": [[300, 4]]}, \"latency\": {\"store\": "
	    "{\"ios\": 10, \"mean_ms\": 0.5, \"hist\": [[200, 10]]}}}]}}";
	const char *srcs[] = {"{\"modes\": [\"mixed\"]}",
			      "{\"modes\": [\"mixed\"], \"waf_source\": \"fdp\"}"};
	int k;

	for (k = 0; k < 2; k++) {
		struct bc_profile *p = s_profile(srcs[k]);
		struct bc_experiment x;
		cJSON *steps = cJSON_CreateArray(), *sum, *st, *av;
		const cJSON *m, *c, *r;
		char text[2048];
		int i;

		if (!p || bc_experiment_get(&p->steps[0], &x, s_err, sizeof(s_err))) {
			CHECK(!"profile");
			bc_profile_destroy(&p);
			cJSON_Delete(steps);
			continue;
		}
		for (i = 0; i < 2; i++) {
			st = s_step("mixed", "measure", 1, 1, 1000);
			snprintf(text, sizeof(text), "{\"a\": {\"volumes\": [%s]}}", vol);
			av = cJSON_Parse(text);
			cJSON_ReplaceItemInObject(st, "agent_totals", av);
			cJSON_AddItemToObject(st, "placement",
					      cJSON_Parse("{\"h\": [0, 1], \"c\": [2]}"));
			cJSON_AddItemToArray(steps, st);
		}
		sum = bc_fdp_summary(steps, "x", &x);
		m = s_mode(sum, "mixed");
		/* OCP: 2 x 2,048,000 / 2 x 1,024,000; FDP: 1.5 */
		CHECK(m && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(m, "waf_source")),
				   k ? "fdp" : "ocp_c0"));
		CHECK(m && cJSON_GetObjectItem(m, "waf")->valuedouble == (k ? 1.5 : 2.0));
		CHECK(m && cJSON_GetObjectItem(m, "host_write_bytes")->valuedouble ==
			       (k ? 2000000 : 2048000));
		CHECK(m && cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "wafs"),
								   k ? "ocp_c0" : "fdp"),
					       "waf")
				   ->valuedouble == (k ? 2.0 : 1.5));
		/* the classes: records summed, the placements of the class and its log */
		c = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "classes"), 0);
		CHECK(c && cJSON_GetObjectItem(c, "stores")->valuedouble == 20 &&
		      cJSON_GetObjectItem(c, "expected_prefetches")->valuedouble == 6 &&
		      cJSON_GetObjectItem(c, "prefetches")->valuedouble == 4 &&
		      cJSON_GetObjectItem(c, "store_bytes")->valuedouble == 81920 &&
		      cJSON_GetObjectItem(c, "workers")->valuedouble == 2);
		CHECK(c && cJSON_GetArraySize(cJSON_GetObjectItem(c, "placement")) == 2 &&
		      cJSON_GetArraySize(cJSON_GetObjectItem(c, "meta_placement")) == 1);
		CHECK(c && cJSON_GetObjectItem(cJSON_GetObjectItem(c, "lifetime"), "objects")
				   ->valuedouble == 8);
		/* a record failure fails the criteria, and the run's result */
		r = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "criteria"), 5);
		CHECK(r &&
		      !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "criterion")),
			      "Record failures") &&
		      cJSON_IsFalse(cJSON_GetObjectItem(r, "pass")));
		r = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "criteria"), 0);
		CHECK(r && cJSON_IsTrue(cJSON_GetObjectItem(r, "pass")));
		CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(sum, "result")), "FAIL"));
		cJSON_Delete(sum);
		cJSON_Delete(steps);
		bc_profile_destroy(&p);
	}
}

int main(void)
{
	test_sources_criteria_classes();
	test_gc_nothing_erased();
	test_shared_device();
	test_gc_reached();
	test_gc_never();
	test_no_counters();
	TEST_DONE();
}
