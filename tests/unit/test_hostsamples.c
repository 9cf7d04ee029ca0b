/*
 * test_hostsamples - a step's host samples store (results/hostsamples.h) against
 * the rules of the samples kept whole and scanned, written out here as the
 * coordinator had them (a cJSON array per agent): the series of a second
 * are its last sample's, vdbench's pick is a scan from the newest sample
 * back, the window mean is bc_hostfig_mean_json over the window's samples
 * in the order they came (a second sent twice counts twice) with the
 * window's t0_s / t1_s and the first baselines. Samples come out of order,
 * twice, with seconds missing and outside the window; a size-based step's
 * window is trimmed after they came. And the store's size an agent-second.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/hostfig.h"
#include "results/hostsamples.h"
#include "bc_test.h"

static uint64_t s_rng = 88172645463325252ull;

static uint32_t s_rand(uint32_t n)
{
	s_rng ^= s_rng << 13;
	s_rng ^= s_rng >> 7;
	s_rng ^= s_rng << 17;
	return (uint32_t)(s_rng % n);
}

/* a value of three decimals, as agents send them: means land on .0005 often */
static double s_val(void)
{
	return (double)s_rand(4000) / 1000;
}

/* a random host sample: the series keys, NICs, a string, bools, temperatures, baselines */
static cJSON *s_sample(int nvol)
{
	cJSON *h = cJSON_CreateObject(), *nics, *temps;
	int i;

	for (i = 0; i < BC_HS_NR; i++)
		if (s_rand(5))
			cJSON_AddNumberToObject(h, bc_hs_keys[i], s_val());
	cJSON_AddNumberToObject(h, "cpu_hot_core", s_rand(4));
	cJSON_AddNumberToObject(h, "softirq_hot_core", s_rand(4));
	if (s_rand(2))
		cJSON_AddNumberToObject(h, "softirq_hot_core_pct", s_rand(3)); /* ties */
	if (!s_rand(6))
		cJSON_AddStringToObject(h, "kernel", s_rand(2) ? "6.1" : "6.8");
	nics = cJSON_AddObjectToObject(h, "nics");
	for (i = 0; i < 3; i++)
		if (s_rand(3)) {
			char name[8];
			cJSON *n;

			snprintf(name, sizeof(name), "eth%d", (int)s_rand(4));
			if (cJSON_GetObjectItem(nics, name))
				continue;
			n = cJSON_AddObjectToObject(nics, name);
			cJSON_AddNumberToObject(n, "tx_mbps", s_val());
			cJSON_AddBoolToObject(n, "counted", s_rand(2));
		}
	if (s_rand(4)) {
		temps = cJSON_AddArrayToObject(h, "nvme_temp_c");
		for (i = 0; i < nvol + (int)s_rand(2); i++)
			cJSON_AddItemToArray(temps, s_rand(3) ? cJSON_CreateNumber(30 + s_val())
							      : cJSON_CreateNull());
	}
	if (!s_rand(5))
		cJSON_AddNumberToObject(h, "baseline_load1", s_val());
	if (!s_rand(5))
		cJSON_AddNumberToObject(h, "baseline_s", s_val());
	if (!s_rand(7))
		cJSON_AddNumberToObject(h, "baseline_cpu_busy_pct", s_val());
	return h;
}

/* ---- the rules as the coordinator had them: samples kept whole (with "second") ---- */

static double s_sec(const cJSON *smp)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItem(smp, "second"));
}

/* verdict.c's bc_verdict_client_mean over an agent's samples, window [ramp, end) */
static cJSON *s_ref_mean(const cJSON *arr, double ramp, double end)
{
	static const char *const keys[] = {"baseline_s", "baseline_cpu_busy_pct",
					   "baseline_agent_cpu_pct", "baseline_load1"};
	const cJSON **win = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(*win)), *smp;
	cJSON *mean;
	int n = 0;
	size_t i;

	cJSON_ArrayForEach(smp, arr) if (s_sec(smp) >= ramp && s_sec(smp) < end) win[n++] = smp;
	mean = n ? bc_hostfig_mean_json(win, n) : NULL;
	if (mean) {
		const cJSON *t0 = cJSON_GetObjectItem(win[0], "t0_s");
		const cJSON *t1 = cJSON_GetObjectItem(win[n - 1], "t1_s");

		cJSON_DeleteItemFromObject(mean, "t0_s");
		cJSON_DeleteItemFromObject(mean, "t1_s");
		if (cJSON_IsNumber(t0) && cJSON_IsNumber(t1)) {
			cJSON_AddNumberToObject(mean, "t0_s", t0->valuedouble);
			cJSON_AddNumberToObject(mean, "t1_s", t1->valuedouble);
		}
	}
	cJSON_ArrayForEach(smp, arr) for (i = 0; mean && i < 4; i++)
	{
		const cJSON *v = cJSON_GetObjectItem(smp, keys[i]);

		if (cJSON_IsNumber(v) && !cJSON_GetObjectItem(mean, keys[i]))
			cJSON_AddNumberToObject(mean, keys[i], v->valuedouble);
	}
	free(win);
	return mean;
}

/* hostsamples' old index: a second's last sample */
static const cJSON *s_ref_by_second(const cJSON *arr, uint32_t k)
{
	const cJSON *smp, *by = NULL;

	cJSON_ArrayForEach(smp, arr) if (s_sec(smp) == (double)k) by = smp;
	return by;
}

/* results/vdbench.c's scan from the newest sample back */
static const cJSON *s_ref_pick(const cJSON *arr, uint32_t k, bool latest)
{
	const cJSON *s = arr && arr->child ? arr->child->prev : NULL;

	for (; s; s = s == arr->child ? NULL : s->prev) {
		if (s_sec(s) == (double)k || (latest && s_sec(s) < (double)k))
			return s;
		if (s_sec(s) < (double)k)
			return NULL;
	}
	return NULL;
}

static bool s_same_num(double a, const cJSON *v)
{
	return cJSON_IsNumber(v) ? a == v->valuedouble : isnan(a);
}

static bool s_same_json(const cJSON *a, const cJSON *b)
{
	char *x = a ? cJSON_PrintUnformatted(a) : NULL, *y = b ? cJSON_PrintUnformatted(b) : NULL;
	bool same = (!x && !y) || (x && y && !strcmp(x, y));

	if (!same)
		fprintf(stderr, "  store: %s\n  whole: %s\n", x ? x : "NULL", y ? y : "NULL");
	free(x);
	free(y);
	return same;
}

/*
 * One run: 2 agents (a0 with nvol volumes), a step of secs seconds, ramp
 * seconds of ramp, n samples each in a random order with duplicates and
 * seconds past the end; sized: the window ends at end after they came.
 */
static void s_case(uint32_t secs, uint32_t ramp, int n, bool sized, uint32_t end)
{
	struct bc_agent_spec agents[2];
	struct bc_volume_spec vols[3];
	struct bc_profile p;
	struct bc_hostsamples *s;
	cJSON *arr[2];
	int i, a, li;
	uint32_t k;

	memset(agents, 0, sizeof(agents));
	memset(vols, 0, sizeof(vols));
	memset(&p, 0, sizeof(p));
	strcpy(agents[0].name, "a0");
	strcpy(agents[1].name, "a1");
	vols[0].agent = 0;
	vols[1].agent = 1;
	vols[2].agent = 0;
	p.agents = agents;
	p.nagents = 2;
	p.volumes = vols;
	p.nvolumes = 3;
	s = bc_hostsamples_new(&p, ramp, secs, sized);
	CHECK(s != NULL);
	if (!s)
		return;
	arr[0] = cJSON_CreateArray();
	arr[1] = cJSON_CreateArray();
	CHECK(!bc_hostsamples_has(s, 0) && bc_hostsamples_agent(s, "a1") == 1);
	for (i = 0; i < 2 * n; i++) {
		/* mostly in order, sometimes a second again, or an old one, or past the end */
		uint32_t r = s_rand(10);
		double sec = r < 6   ? (double)(i / 2)
			     : r < 8 ? (double)(i / 2 ? i / 2 - 1 : 0)
			     : r < 9 ? (double)s_rand(secs + 4)
				     : (double)(secs + s_rand(5));
		cJSON *h = s_sample(2), *kept = cJSON_Duplicate(h, 1);

		a = (int)s_rand(2);
		cJSON_AddNumberToObject(kept, "second", sec);
		cJSON_AddItemToArray(arr[a], kept);
		CHECK(bc_hostsamples_add(s, a, sec, h) == 0);
		/* a size-based step: its closed seconds with I/O, as stepexec.c says them */
		if (sized && !s_rand(4) && i / 2 < (int)end)
			bc_hostsamples_io_second(s, (uint32_t)(i / 2));
		cJSON_Delete(h);
	}
	bc_hostsamples_settle(s, sized ? end : secs);
	for (a = 0; a < 2; a++) {
		cJSON *m = bc_hostsamples_window_mean(s, a);
		cJSON *ref = s_ref_mean(arr[a], ramp, sized ? end : secs);

		CHECK(bc_hostsamples_has(s, a) == (cJSON_GetArraySize(arr[a]) > 0));
		CHECK_MSG(s_same_json(m, ref), "agent %d: window mean", a);
		cJSON_Delete(m);
		cJSON_Delete(ref);
		for (k = 0; k < secs; k++) {
			const cJSON *by = s_ref_by_second(arr[a], k), *pk;
			const cJSON *temps = cJSON_GetObjectItem(by, "nvme_temp_c");
			int64_t at;
			bool latest;

			for (i = 0; i < BC_HS_NR; i++)
				CHECK_MSG(s_same_num(bc_hostsamples_value(s, a, k, i),
						     cJSON_GetObjectItem(by, bc_hs_keys[i])),
					  "agent %d second %u %s", a, k, bc_hs_keys[i]);
			for (li = 0; li < (a ? 1 : 2); li++)
				CHECK(s_same_num(bc_hostsamples_nvme_temp(s, a, k, li),
						 cJSON_GetArrayItem(temps, li)));
			for (latest = false;; latest = true) {
				pk = s_ref_pick(arr[a], k, latest);
				at = bc_hostsamples_pick(s, a, k, latest);
				CHECK_MSG(pk ? at == (int64_t)s_sec(pk) : at == -1,
					  "agent %d second %u latest %d: %lld", a, k, latest,
					  (long long)at);
				if (latest)
					break;
			}
		}
	}
	cJSON_Delete(arr[0]);
	cJSON_Delete(arr[1]);
	bc_hostsamples_free(s);
}

/* bc_hostfig_mean_json is the incremental mean: one sample at a time gives the same */
static void s_incremental(void)
{
	const cJSON *smp[20];
	struct bc_hostfig_mean m;
	cJSON *a, *b;
	int i;

	for (i = 0; i < 20; i++)
		smp[i] = s_sample(1);
	bc_hostfig_mean_init(&m);
	for (i = 0; i < 20; i++)
		CHECK(bc_hostfig_mean_add(&m, smp[i]) == 0);
	a = bc_hostfig_mean_finish(&m);
	b = bc_hostfig_mean_finish(&m); /* again: the same, nothing used up */
	CHECK(s_same_json(a, b));
	cJSON_Delete(b);
	b = bc_hostfig_mean_json(smp, 20);
	CHECK(a && s_same_json(a, b));
	/* the hot core of the busiest sample, the first one of a tie */
	CHECK(cJSON_IsNumber(cJSON_GetObjectItem(a, "cpu_hot_core")));
	cJSON_Delete(a);
	cJSON_Delete(b);
	bc_hostfig_mean_free(&m);
	bc_hostfig_mean_init(&m);
	CHECK(bc_hostfig_mean_finish(&m) == NULL); /* no sample, no mean */
	bc_hostfig_mean_free(&m);
	for (i = 0; i < 20; i++)
		cJSON_Delete((cJSON *)smp[i]);
}

/* hand-made: a second twice keeps the last row and counts twice; seconds outside are out */
static void s_rules(void)
{
	struct bc_agent_spec ag;
	struct bc_profile p;
	struct bc_hostsamples *s;
	cJSON *h, *m;
	static const char *const in[][2] = {
	    {"0", "{\"cpu_busy_pct\": 50, \"baseline_s\": 2, \"t0_s\": 0, \"t1_s\": 1}"},
	    {"1", "{\"cpu_busy_pct\": 10, \"t0_s\": 1, \"t1_s\": 2}"},
	    {"1", "{\"cpu_busy_pct\": 20, \"t0_s\": 1.5, \"t1_s\": 2.5}"},
	    {"3", "{\"cpu_busy_pct\": 40, \"t0_s\": 3, \"t1_s\": 4}"},
	    {"7", "{\"cpu_busy_pct\": 90, \"t0_s\": 7, \"t1_s\": 8}"}};
	size_t i;

	memset(&ag, 0, sizeof(ag));
	memset(&p, 0, sizeof(p));
	strcpy(ag.name, "c");
	p.agents = &ag;
	p.nagents = 1;
	s = bc_hostsamples_new(&p, 1, 5, false);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(bc_hostsamples_window_mean(s, 0) == NULL);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		h = cJSON_Parse(in[i][1]);
		CHECK(bc_hostsamples_add(s, 0, atof(in[i][0]), h) == 0);
		cJSON_Delete(h);
	}
	CHECK(bc_hostsamples_add(s, 1, 0, NULL) == -EINVAL);
	CHECK(bc_hostsamples_value(s, 0, 1, BC_HS_CPU_BUSY) == 20);  /* the last of second 1 */
	CHECK(isnan(bc_hostsamples_value(s, 0, 2, BC_HS_CPU_BUSY))); /* none came */
	CHECK(bc_hostsamples_pick(s, 0, 2, true) == 1 && bc_hostsamples_pick(s, 0, 2, false) == -1);
	m = bc_hostsamples_window_mean(s, 0);
	/* seconds 1, 1, 3 of the window [1, 5): (10 + 20 + 40) / 3; 0 is ramp, 7 past the end */
	CHECK(m &&
	      fabs(cJSON_GetNumberValue(cJSON_GetObjectItem(m, "cpu_busy_pct")) - 23.333) < 1e-9);
	CHECK(m && cJSON_GetNumberValue(cJSON_GetObjectItem(m, "t0_s")) == 1 &&
	      cJSON_GetNumberValue(cJSON_GetObjectItem(m, "t1_s")) == 4);
	CHECK(m && cJSON_GetNumberValue(cJSON_GetObjectItem(m, "baseline_s")) == 2);
	cJSON_Delete(m);
	bc_hostsamples_free(s);
}

/* what an agent-second costs: tens of bytes, whatever the samples carry */
static void s_size(void)
{
	struct bc_agent_spec ag;
	struct bc_volume_spec v[2];
	struct bc_profile p;
	struct bc_hostsamples *s;
	uint32_t k, secs = 3000;
	double per;

	memset(&ag, 0, sizeof(ag));
	memset(v, 0, sizeof(v));
	memset(&p, 0, sizeof(p));
	strcpy(ag.name, "c");
	p.agents = &ag;
	p.nagents = 1;
	p.volumes = v;
	p.nvolumes = 2;
	s = bc_hostsamples_new(&p, 10, secs, false);
	for (k = 0; s && k < secs; k++) {
		cJSON *h = s_sample(2);

		CHECK(bc_hostsamples_add(s, 0, k, h) == 0);
		cJSON_Delete(h);
	}
	per = (double)bc_hostsamples_bytes(s) / secs;
	/* a row: 8 series and 2 temperatures as doubles, and a pick: 84 bytes */
	CHECK_MSG(per >= 84 && per < 100, "%.1f bytes an agent-second", per);
	bc_hostsamples_free(s);

	/* size-based, each second's I/O known a second after its sample: two samples wait at most
	 */
	s = bc_hostsamples_new(&p, 10, secs, true);
	for (k = 0; s && k < secs; k++) {
		cJSON *h = s_sample(2);

		CHECK(bc_hostsamples_add(s, 0, k, h) == 0);
		cJSON_Delete(h);
		if (k)
			bc_hostsamples_io_second(s, k - 1);
	}
	per = (double)bc_hostsamples_bytes(s) / secs;
	CHECK_MSG(per >= 84 && per < 100, "size-based: %.1f bytes an agent-second", per);
	bc_hostsamples_free(s);
}

int main(void)
{
	int i;

	s_rules();
	s_incremental();
	s_size();
	for (i = 0; i < 200; i++)
		s_case(12, i % 3, 10 + (int)s_rand(8), false, 0);
	/* size-based: the window trimmed to end after the samples came */
	for (i = 0; i < 200; i++)
		s_case(12, i % 3, 10 + (int)s_rand(8), true, i % 3 + 1 + s_rand(12 - i % 3));
	TEST_DONE();
}
