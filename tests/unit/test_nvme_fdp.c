/*
 * test_nvme_fdp.c - FDP encodings, parsers and the placement check against
 * byte-exact fixtures built from the NVMe 2.0 FDP layouts (the same figures
 * QEMU 10's emulated FDP controller answered in the VM lab: 1 reclaim group,
 * 8 handles, 1 MiB units).
 */
#include <errno.h>
#include <string.h>

#include "nvme/fdp.h"
#include "profile/profile.h"
#include "target/target.h"
#include "bc_test.h"

static uint8_t s_buf[8192];

static void s_put(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void test_features(void)
{
	struct nvme_passthru_cmd c;
	uint8_t ev[6];

	bc_nvme_get_features(&c, BC_NVME_FID_FDP, 0, 1, NULL, 0);
	CHECK(c.opcode == 0x0A && c.cdw10 == 0x1D && c.cdw11 == 1 && c.nsid == 0 && !c.data_len);
	bc_nvme_set_features(&c, BC_NVME_FID_FDP_EVENTS, 1, 6u << 16 | 3, 1, ev, sizeof(ev));
	CHECK(c.opcode == 0x09 && c.cdw10 == 0x1E && c.cdw11 == (6u << 16 | 3) && c.cdw12 == 1);
	CHECK(c.nsid == 1 && c.data_len == 6 && c.addr == (uint64_t)(uintptr_t)ev);
}

/* header + two descriptors; the second (index 1) is QEMU's shape */
static void test_configs(void)
{
	struct bc_nvme_fdp_conf f;
	uint8_t *d;

	memset(s_buf, 0, sizeof(s_buf));
	s_put(s_buf, 1, 2);		   /* two configurations, 0-based */
	s_put(s_buf + 4, 16 + 96 + 96, 4); /* size */
	d = s_buf + 16;
	s_put(d, 96, 2); /* DSZE: 64 + 8 handles x 4 */
	d[2] = 0x80 | 2; /* valid, RGIF 2 */
	s_put(d + 4, 4, 4);
	s_put(d + 8, 4, 2);
	s_put(d + 16, 64 << 20, 8);
	d = s_buf + 16 + 96;
	s_put(d, 96, 2);
	d[2] = 0x80;
	s_put(d + 4, 1, 4);	   /* NRG */
	s_put(d + 8, 8, 2);	   /* NRUH */
	s_put(d + 10, 127, 2);	   /* MAXPIDS, 0-based */
	s_put(d + 16, 1 << 20, 8); /* RUNS */
	CHECK(bc_nvme_parse_fdp_configs(s_buf, sizeof(s_buf), 1, &f) == 0);
	CHECK(f.valid && f.rgif == 0 && f.nrg == 1 && f.nruh == 8 && f.maxpids == 128);
	CHECK(f.runs == 1 << 20);
	CHECK(bc_nvme_parse_fdp_configs(s_buf, sizeof(s_buf), 0, &f) == 0);
	CHECK(f.rgif == 2 && f.nrg == 4 && f.nruh == 4 && f.runs == 64u << 20);
	CHECK(bc_nvme_parse_fdp_configs(s_buf, sizeof(s_buf), 2, &f) == -ENOENT);
	/* a descriptor running past the log's size */
	s_put(s_buf + 4, 16 + 96 + 40, 4);
	CHECK(bc_nvme_parse_fdp_configs(s_buf, sizeof(s_buf), 1, &f) == -EINVAL);
	s_put(s_buf + 16, 8, 2); /* DSZE below the fixed part */
	CHECK(bc_nvme_parse_fdp_configs(s_buf, sizeof(s_buf), 0, &f) == -EINVAL);
	CHECK(bc_nvme_parse_fdp_configs(s_buf, 8, 0, &f) == -EINVAL);
}

static void test_usage_events(void)
{
	struct bc_nvme_fdp_events ev;
	uint8_t ruha[4];

	memset(s_buf, 0, sizeof(s_buf));
	s_put(s_buf, 3, 2);
	s_buf[8] = 1;
	s_buf[16] = 2;
	s_buf[24] = 0;
	CHECK(bc_nvme_parse_ruh_usage(s_buf, 64, ruha, 4) == 3);
	CHECK(ruha[0] == 1 && ruha[1] == 2 && ruha[2] == 0);
	CHECK(bc_nvme_parse_ruh_usage(s_buf, 4, ruha, 4) == -EINVAL);

	memset(s_buf, 0, sizeof(s_buf));
	s_put(s_buf, 4, 4); /* four events from byte 64 */
	s_buf[64] = 0x00;
	s_buf[128] = 0x00;
	s_buf[192] = 0x81;
	s_buf[256] = 0x7f;
	s_buf[320] = 0x03; /* beyond N: not counted */
	CHECK(bc_nvme_parse_fdp_events(s_buf, 1024, &ev) == 0);
	CHECK(ev.n == 4 && ev.count[BC_FDP_EV_RU_NOT_WRITTEN] == 2);
	CHECK(ev.count[BC_FDP_EV_IMPLICIT_RUH_MOD] == 1 && ev.count[BC_FDP_EV_OTHER] == 1);
	CHECK(ev.count[BC_FDP_EV_INVALID_PID] == 0);
	/* a page shorter than N says: only what it holds */
	CHECK(bc_nvme_parse_fdp_events(s_buf, 192, &ev) == 0 &&
	      ev.count[BC_FDP_EV_RU_NOT_WRITTEN] == 2 && ev.count[BC_FDP_EV_OTHER] == 0);
	CHECK(!strcmp(bc_fdp_event_names[BC_FDP_EV_RU_NOT_WRITTEN], "ru_not_fully_written"));
}

static void test_check(void)
{
	struct bc_nvme_fdp f;
	struct bc_fdp_spec spec = {.policy = BC_FDP_ROUND_ROBIN, .npids = 2, .pids = {1, 8}};
	char err[512];
	int i;

	memset(&f, 0, sizeof(f));
	f.probed = f.supported = f.enabled = true;
	f.endgid = 1;
	f.conf.nruh = 8;
	f.nruhs = 8;
	for (i = 0; i < 8; i++)
		f.ruhs[i].pid = (uint16_t)i;
	CHECK(bc_nvme_fdp_check(&f, "/dev/ng0n1", &spec, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "/dev/ng0n1") && strstr(err, "pids[1] = 8 refused") &&
	      strstr(err, "8 placement handles"));
	spec.pids[1] = 7;
	CHECK(bc_nvme_fdp_check(&f, "/dev/ng0n1", &spec, err, sizeof(err)) == 0);
	/* supported but disabled: the endurance group named */
	f.enabled = false;
	CHECK(bc_nvme_fdp_check(&f, "/dev/ng0n1", &spec, err, sizeof(err)) == -EOPNOTSUPP);
	CHECK(strstr(err, "/dev/ng0n1") && strstr(err, "index 1 refused") &&
	      strstr(err, "FDP is disabled on endurance group 1"));
	f.supported = false;
	CHECK(bc_nvme_fdp_check(&f, "/dev/ng1n1", &spec, err, sizeof(err)) == -EOPNOTSUPP);
	CHECK(strstr(err, "/dev/ng1n1") && strstr(err, "does not support flexible data placement"));
	/* no placement asked: nothing to refuse */
	spec.policy = BC_FDP_NONE;
	spec.npids = 0;
	CHECK(bc_nvme_fdp_check(&f, "/dev/ng1n1", &spec, err, sizeof(err)) == 0);
}

static void test_json(void)
{
	struct bc_nvme_fdp f;
	cJSON *o;

	memset(&f, 0, sizeof(f));
	f.probed = f.supported = f.enabled = true;
	f.endgid = 1;
	f.conf = (struct bc_nvme_fdp_conf){.valid = true, .nrg = 1, .nruh = 2, .runs = 1 << 20};
	f.nruhu = 2;
	f.ruha[0] = 1;
	f.ruha[1] = 2;
	f.nruhs = 2;
	f.ruhs[1] = (struct bc_nvme_ruhs){.pid = 1, .ruhid = 1, .ruamw = 96};
	o = bc_nvme_fdp_json(&f);
	CHECK(o && cJSON_IsTrue(cJSON_GetObjectItem(o, "enabled")));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "ru_bytes")) == 1 << 20);
	CHECK(!strcmp(
	    cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "ruh_usage"), 1)),
	    "controller"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(
		  cJSON_GetArrayItem(cJSON_GetObjectItem(o, "ruhs"), 1), "ruamw")) == 96);
	cJSON_Delete(o);
	f.supported = false;
	o = bc_nvme_fdp_json(&f);
	CHECK(o && cJSON_IsFalse(cJSON_GetObjectItem(o, "supported")) &&
	      !cJSON_GetObjectItem(o, "ruhs"));
	cJSON_Delete(o);
}

/* placement indexes of the workload and its streams against the volume's "fdp" pids, at open */
static void test_open_placements(void)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl;
	struct bc_target t;
	char err[512] = "";

	memset(&wl, 0, sizeof(wl));
	wl.rw = BC_RW_WRITE;
	wl.bs = 4096;
	wl.iodepth = 1;
	wl.numjobs = 1;
	wl.placement = (struct bc_placement){.kind = 1, .n = 1, .idx = {0}};
	CHECK(bc_target_open(&t, "null", NULL, &wl, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "null: the workload's placement index 0 refused") &&
		      strstr(err, "\"fdp\" has 0 pids"),
		  "%s", err);
	spec.fdp = (struct bc_fdp_spec){.policy = BC_FDP_ROUND_ROBIN, .npids = 2, .pids = {3, 4}};
	wl.placement.idx[0] = 1;
	wl.nstreams = 1;
	snprintf(wl.streams[0].name, sizeof(wl.streams[0].name), "hot");
	wl.streams[0].placement = (struct bc_placement){.kind = 1, .n = 2, .idx = {0, 2}};
	CHECK(bc_target_open(&t, "null", &spec, &wl, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "stream hot's placement index 2 refused") &&
		      strstr(err, "\"fdp\" has 2 pids"),
		  "%s", err);
}

int main(void)
{
	test_open_placements();
	test_features();
	test_configs();
	test_usage_events();
	test_check();
	test_json();
	TEST_DONE();
}
