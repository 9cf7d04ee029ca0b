/*
 * test_vdbench - vdbench's interval table (report/parts/vdbench.c): a second's row
 * and a window's avg row against hand-computed figures, the standard
 * deviation from histogram moments, the client hosts' cpu per second
 * (exact and newest-so-far), and the text column for column as vdbench
 * printed seed 002's lines.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/vdbench.h"
#include "results/hostsamples.h"
#include "bc_test.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) < 1e-9 * (fabs((double)(b)) + 1))

static void s_second(void)
{
	struct bc_secrow r;
	struct bc_vdb_row v;

	memset(&r, 0, sizeof(r));
	bc_vdb_row_from_sec(&r, 1, 1, &v);
	CHECK(isnan(v.rate) && isnan(v.resp_ms) && isnan(v.cpu_pct)); /* no record: no figures */

	/* 3 reads of 4 KiB (100 us each), 1 write of 8 KiB (500 us) in one second */
	r.reports = 1;
	r.ios[BC_OP_READ] = 3;
	r.ios[BC_OP_WRITE] = 1;
	r.bytes[BC_OP_READ] = 3 * 4096;
	r.bytes[BC_OP_WRITE] = 8192;
	r.op_lat_sum_ns[BC_OP_READ] = 300000;
	r.op_lat_sum_ns[BC_OP_WRITE] = 500000;
	r.lat_sum_ns = 800000;
	r.op_max_ns[BC_OP_READ] = 150000;
	r.op_max_ns[BC_OP_WRITE] = 500000;
	r.lat_sd_ns = 10000;
	bc_vdb_row_from_sec(&r, 20, 5, &v);
	CHECK(NEAR(v.rate, 4));
	CHECK(NEAR(v.mb_s, 20480.0 / 1048576.0));
	CHECK(NEAR(v.bytes_io, 5120));
	CHECK(NEAR(v.read_pct, 75));
	CHECK(NEAR(v.resp_ms, 0.2));
	CHECK(NEAR(v.read_resp_ms, 0.1));
	CHECK(NEAR(v.write_resp_ms, 0.5));
	CHECK(NEAR(v.read_max_ms, 0.15));
	CHECK(NEAR(v.write_max_ms, 0.5));
	CHECK(NEAR(v.resp_sd_ms, 0.01));
	CHECK(NEAR(v.queue_depth, 4 * 0.2e-3)); /* 4 I/Os a second, 0.2 ms each */
	CHECK(v.cpu_pct == 20 && v.cpu_sys_pct == 5);

	/* reads only: write columns are 0, as vdbench prints them */
	r.ios[BC_OP_WRITE] = 0;
	r.bytes[BC_OP_WRITE] = 0;
	r.op_lat_sum_ns[BC_OP_WRITE] = 0;
	r.op_max_ns[BC_OP_WRITE] = 0;
	bc_vdb_row_from_sec(&r, NAN, NAN, &v);
	CHECK(v.write_resp_ms == 0 && v.write_max_ms == 0 && NEAR(v.read_pct, 100));
}

static void s_window(void)
{
	struct bc_volstat *w = malloc(sizeof(*w));
	struct bc_vdb_row v;

	if (!w) {
		CHECK(!"out of memory");
		return;
	}
	bc_volstat_reset(w);
	/* below 256 ns every bucket holds one value: the moments are exact */
	bc_opstat_complete(&w->op[BC_OP_READ], 512, 512, 100);
	bc_opstat_complete(&w->op[BC_OP_READ], 512, 512, 150);
	bc_opstat_complete(&w->op[BC_OP_READ], 512, 512, 200);
	bc_opstat_complete(&w->op[BC_OP_WRITE], 1024, 1024, 250);
	bc_vdb_row_from_window(w, 2, 30, 10, &v);
	CHECK(NEAR(v.rate, 2));			     /* 4 I/Os over 2 seconds */
	CHECK(NEAR(v.mb_s, 2560.0 / 2 / 1048576.0)); /* 3 x 512 + 1024 bytes */
	CHECK(NEAR(v.bytes_io, 640));
	CHECK(NEAR(v.read_pct, 75));
	CHECK(NEAR(v.resp_ms, 175e-6)); /* (100+150+200+250)/4 ns */
	CHECK(NEAR(v.read_resp_ms, 150e-6));
	CHECK(NEAR(v.write_resp_ms, 250e-6));
	CHECK(NEAR(v.read_max_ms, 200e-6));
	CHECK(NEAR(v.write_max_ms, 250e-6));
	/* population stddev of {100,150,200,250}: sqrt((75^2+25^2+25^2+75^2)/4) */
	CHECK_MSG(NEAR(v.resp_sd_ms, sqrt(3125.0) / 1e6), "sd %g ms", v.resp_sd_ms);
	CHECK(NEAR(v.queue_depth, 2 * 175e-9));
	bc_vdb_row_from_window(w, 0, 30, 10, &v);
	CHECK(isnan(v.rate)); /* no second carried records */
	free(w);
}

static void s_moments(void)
{
	uint64_t b[4] = {2, 0, 0, 2};
	double m[3] = {0, 0, 0};

	/* buckets 10 and 13 (exact below 256): two 10s and two 13s, sd 1.5 */
	bc_hist_moments(b, 10, 4, m);
	CHECK(m[0] == 4 && m[1] == 46 && m[2] == 2 * 100 + 2 * 169);
	CHECK(NEAR(bc_hist_stddev(m), 1.5));
	m[0] = 1;
	CHECK(bc_hist_stddev(m) == 0);
}

static void s_cpu(void)
{
	static const char *const smp[][2] = {
	    {"a", "{\"second\": 0, \"cpu_busy_pct\": 10, \"cpu_sys_pct\": 4}"},
	    {"a", "{\"second\": 1, \"cpu_busy_pct\": 30, \"cpu_sys_pct\": 6}"},
	    {"b", "{\"second\": 0, \"cpu_busy_pct\": 50}"},
	    {"b", "{\"second\": 2, \"cpu_busy_pct\": 70, \"cpu_sys_pct\": 20}"}};
	struct bc_agent_spec agents[2];
	struct bc_profile prof;
	struct bc_hostsamples *h;
	double c, s;
	size_t i;

	memset(agents, 0, sizeof(agents));
	memset(&prof, 0, sizeof(prof));
	strcpy(agents[0].name, "a");
	strcpy(agents[1].name, "b");
	prof.agents = agents;
	prof.nagents = 2;
	h = bc_hostsamples_new(&prof, 0, 6, false);
	CHECK(h != NULL);
	for (i = 0; h && i < sizeof(smp) / sizeof(smp[0]); i++) {
		cJSON *o = cJSON_Parse(smp[i][1]);

		CHECK(bc_hostsamples_add(h, smp[i][0][0] - 'a',
					 cJSON_GetNumberValue(cJSON_GetObjectItem(o, "second")),
					 o) == 0);
		cJSON_Delete(o);
	}
	bc_vdb_cpu(h, 0, false, &c, &s);
	CHECK(NEAR(c, 30) && NEAR(s, 4)); /* b's sample has no sys: mean of those that do */
	bc_vdb_cpu(h, 1, false, &c, &s);
	CHECK(NEAR(c, 30) && NEAR(s, 6)); /* b has no sample of second 1 */
	bc_vdb_cpu(h, 1, true, &c, &s);
	CHECK(NEAR(c, 40) && NEAR(s, 6)); /* ... but one of second 0, the newest so far */
	bc_vdb_cpu(h, 2, false, &c, &s);
	CHECK(NEAR(c, 70) && NEAR(s, 20));
	bc_vdb_cpu(h, 5, false, &c, &s);
	CHECK(isnan(c) && isnan(s));
	bc_vdb_cpu(NULL, 0, true, &c, &s);
	CHECK(isnan(c));
	bc_hostsamples_free(h);
}

/* seed 002's lines, as vdbench printed them */
static const char *s_head1 = "Sep 01, 2023    interval        i/o   MB/sec   bytes   read     resp"
			     "     read    write     read    write     resp  queue  cpu%  cpu%\n";
static const char *s_head2 = "                               rate  1024**2     i/o    pct     time"
			     "     resp     resp      max      max   stddev  depth sys+u   sys\n";
static const char *s_line = "21:49:54.001         597   306850.0  1198.63    4096  50.03    0.103"
			    "    0.186    0.020     8.31     4.21    0.250   31.7  17.8  14.3\n";
static const char *s_avg = "21:49:57.009   avg_2-600   313567.0  1224.87    4096  50.01    0.101"
			   "    0.177    0.025    10.97     6.40    0.215   31.7  18.9  14.9\n";

static void s_text(void)
{
	struct bc_vdb_row r = {306850.0, 1198.63, 4096,	 50.03, 0.103, 0.186, 0.020,
			       8.31,	 4.21,	  0.250, 31.7,	17.8,  14.3};
	struct bc_vdb_row a = {313567.0, 1224.87, 4096,	 50.01, 0.101, 0.177, 0.025,
			       10.97,	 6.40,	  0.215, 31.7,	18.9,  14.9};
	char *buf = NULL, label[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	size_t h1 = strlen(s_head1), h2 = strlen(s_head2), l = strlen(s_line);

	if (!f) {
		CHECK(!"open_memstream");
		return;
	}
	bc_vdb_print_header(f, "Sep 01, 2023");
	bc_vdb_print_row(f, "21:49:54.001", "597", &r);
	bc_vdb_avg_label(2, 600, label, sizeof(label));
	bc_vdb_print_row(f, "21:49:57.009", label, &a);
	r.cpu_pct = r.cpu_sys_pct = NAN;
	bc_vdb_print_row(f, "21:49:54.001", "597", &r);
	fclose(f);
	CHECK_MSG(len > h1 && !strncmp(buf, s_head1, h1), "got\n%s", buf);
	CHECK_MSG(len > h1 + h2 && !strncmp(buf + h1, s_head2, h2), "got\n%s", buf);
	CHECK_MSG(len > h1 + h2 + l && !strncmp(buf + h1 + h2, s_line, l), "got\n%s", buf);
	CHECK_MSG(len >= h1 + h2 + 2 * l && !strncmp(buf + h1 + h2 + l, s_avg, strlen(s_avg)),
		  "got\n%s", buf);
	/* no host sample: a dash where vdbench's cpu figures go */
	CHECK_MSG(strstr(buf, "   31.7     -     -\n") != NULL, "got\n%s", buf);
	free(buf);
}

static void s_json(void)
{
	struct bc_vdb_row r = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, NAN, 13}, b;
	cJSON *j = bc_vdb_row_json(&r);

	bc_vdb_row_from_json(j, &b);
	CHECK(b.rate == 1 && b.mb_s == 2 && b.queue_depth == 11 && b.cpu_sys_pct == 13);
	CHECK(isnan(b.cpu_pct) && cJSON_IsNull(cJSON_GetObjectItem(j, "cpu_pct")));
	cJSON_Delete(j);
}

int main(void)
{
	s_second();
	s_window();
	s_moments();
	s_cpu();
	s_text();
	s_json();
	TEST_DONE();
}
