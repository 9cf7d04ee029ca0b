/*
 * test_nvme_target.c - the NVMe passthrough target without a device: the
 * 128-byte IORING_OP_URING_CMD SQE byte for byte, FDP placement policies, the
 * volume "fdp" key through profile, wire and target, and the ring flags the
 * target asks of every job ring. No ng device exists here: nothing is
 * submitted to a kernel.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nvme/fdp.h"
#include "profile/workload/workload.h"
#include "target/nvme.h"
#include "target/target.h"
#include "bc_test.h"

static uint32_t s_dw(const void *p, size_t off)
{
	const uint8_t *b = (const uint8_t *)p + off;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void test_sqe128_uring_cmd_bytes(void)
{
	struct io_uring_sqe sqe[2];
	struct nvme_passthru_cmd c;
	static char buf[8192];
	const uint8_t *b = (const uint8_t *)sqe;

	memset(sqe, 0xaa, sizeof(sqe));
	/* FDP write of 8 KiB at LBA 6 (4 KiB LBAs), PID 0x0102, nsid 1, fixed file 3 */
	CHECK(!bc_nvme_rw(&c, BC_NVME_CMD_WRITE, 1, 6 * 4096, 8192, 12, BC_NVME_DTYPE_FDP, 0x0102,
			  buf));
	CHECK(!bc_nvme_uring_prep(sqe, 3, true, &c));
	CHECK(b[0] == 46 && IORING_OP_URING_CMD == 46); /* opcode */
	CHECK(b[1] == IOSQE_FIXED_FILE);		/* flags */
	CHECK(s_dw(b, 4) == 3);				/* fd */
	CHECK(s_dw(b, 8) == 0xC0484E80u);		/* cmd_op = NVME_URING_CMD_IO */
	CHECK(s_dw(b, 12) == 0);			/* __pad1 */
	CHECK(s_dw(b, 16) == 0 && s_dw(b, 20) == 0);	/* addr */
	CHECK(s_dw(b, 24) == 0 && s_dw(b, 28) == 0);	/* len, uring_cmd_flags */
	/* the nvme_uring_cmd at offset 48 */
	CHECK(b[48] == 0x01 && b[49] == 0);
	CHECK(s_dw(b, 48 + 4) == 1);
	CHECK(*(const uint64_t *)(b + 48 + 24) == (uint64_t)(uintptr_t)buf);
	CHECK(s_dw(b, 48 + 36) == 8192);
	CHECK(s_dw(b, 48 + 40) == 6 && s_dw(b, 48 + 44) == 0);
	CHECK(s_dw(b, 48 + 48) == (1u | 2u << 20));
	CHECK(s_dw(b, 48 + 52) == 0x01020000u);
	CHECK(s_dw(b, 48 + 64) == 0 && s_dw(b, 48 + 68) == 0);
	/* the rest of the 128-byte slot cleared */
	for (size_t i = 48 + 72; i < 128; i++)
		CHECK(b[i] == 0);
	/* not-an-NVMe-op: cmd_op 0 so the driver fails it (-ENOTTY) */
	CHECK(bc_nvme_uring_prep(sqe, 4, false, NULL) == -EOPNOTSUPP);
	CHECK(b[0] == 46 && b[1] == 0 && s_dw(b, 4) == 4 && s_dw(b, 8) == 0);
}

static void test_pick_pid_policies(void)
{
	const uint16_t pids[3] = {10, 20, 30};
	int hits[3] = {0}, i;

	CHECK(bc_nvme_pick_pid(pids, 3, BC_FDP_FIXED, 5) == 10);
	CHECK(bc_nvme_pick_pid(pids, 3, BC_FDP_ROUND_ROBIN, 0) == 10);
	CHECK(bc_nvme_pick_pid(pids, 3, BC_FDP_ROUND_ROBIN, 4) == 20);
	CHECK(bc_nvme_pick_pid(pids, 3, BC_FDP_ROUND_ROBIN, 8) == 30);
	CHECK(bc_nvme_pick_pid(pids, 1, BC_FDP_RANDOM, 8) == 10);
	for (i = 0; i < 3000; i++) {
		uint16_t p = bc_nvme_pick_pid(pids, 3, BC_FDP_RANDOM, (uint64_t)i);

		CHECK(p == 10 || p == 20 || p == 30);
		hits[p / 10 - 1]++;
	}
	/* roughly uniform: each within 20% of 1000 */
	for (i = 0; i < 3; i++)
		CHECK_MSG(hits[i] > 800 && hits[i] < 1200, "pid %d: %d", i, hits[i]);
}

static void test_fdp_spec_json(void)
{
	struct bc_fdp_spec f;
	char err[256];
	cJSON *o = cJSON_Parse("{\"pids\":[0,1,2],\"policy\":\"random\"}"), *back;

	CHECK(!bc_fdp_spec_from_json(o, "volumes[0]", &f, err, sizeof(err)));
	CHECK(f.policy == BC_FDP_RANDOM && f.npids == 3 && f.pids[2] == 2);
	back = bc_fdp_spec_to_json(&f);
	CHECK(back && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(back, "policy")), "random"));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(back, "pids")) == 3);
	cJSON_Delete(back);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":[4]}");
	CHECK(!bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) && f.policy == BC_FDP_FIXED);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":[1,2],\"policy\":\"fixed\"}");
	CHECK(bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "exactly one pid") != NULL);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":[70000]}");
	CHECK(bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) == -EINVAL);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":[1],\"policy\":\"lru\"}");
	CHECK(bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) == -EINVAL);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":[1],\"plids\":[1]}");
	CHECK(bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "plids") != NULL);
	cJSON_Delete(o);
	CHECK(bc_fdp_spec_to_json(&(struct bc_fdp_spec){0}) == NULL);
	/* "all": every handle the drive reports (fio's fdp=1 without plids), round-robin */
	o = cJSON_Parse("{\"pids\":\"all\"}");
	CHECK(!bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) && f.all && !f.npids &&
	      f.policy == BC_FDP_ROUND_ROBIN);
	back = bc_fdp_spec_to_json(&f);
	CHECK(back && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(back, "pids")), "all"));
	cJSON_Delete(back);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":\"all\",\"policy\":\"random\"}");
	CHECK(!bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) && f.policy == BC_FDP_RANDOM);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":\"all\",\"policy\":\"fixed\"}");
	CHECK(bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "not \"all\""));
	cJSON_Delete(o);
	o = cJSON_Parse("{\"pids\":\"some\"}");
	CHECK(bc_fdp_spec_from_json(o, "v", &f, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "expected \"all\" or an array"));
	cJSON_Delete(o);
}

static void test_profile_fdp_key(void)
{
	const char *text =
	    "{\"name\":\"t\",\"agents\":[{\"name\":\"a\",\"endpoint\":\"local\"}],"
	    "\"volumes\":[{\"agent\":\"a\",\"path\":\"/dev/ng0n1\","
	    "\"fdp\":{\"pids\":[0,1],\"policy\":\"round-robin\"}}],\"steps\":[{\"name\":\"s\"}]}";
	struct bc_profile *p = NULL;
	char err[512] = "";
	cJSON *j;
	char *txt;

	CHECK_MSG(!bc_profile_parse(text, "p.json", &p, err, sizeof(err)), "%s", err);
	if (!p)
		return;
	CHECK(p->volumes[0].fdp.policy == BC_FDP_ROUND_ROBIN && p->volumes[0].fdp.npids == 2);
	j = bc_profile_to_json(p);
	txt = j ? cJSON_PrintUnformatted(j) : NULL;
	CHECK(txt && strstr(txt, "\"fdp\":{\"pids\":[0,1],\"policy\":\"round-robin\"}"));
	cJSON_free(txt);
	cJSON_Delete(j);
	bc_profile_destroy(&p);
	text = "{\"name\":\"t\",\"agents\":[{\"name\":\"a\",\"endpoint\":\"local\"}],"
	       "\"volumes\":[{\"agent\":\"a\",\"path\":\"null\",\"fdp\":{\"pids\":[]}}],"
	       "\"steps\":[{\"name\":\"s\"}]}";
	CHECK(bc_profile_parse(text, "p.json", &p, err, sizeof(err)) == -EINVAL && !p);
	CHECK(strstr(err, "volumes[0].fdp.pids") != NULL);
}

static void test_fdp_refused_off_nvme(void)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl = bc_workload_builtin;
	struct bc_target t;
	char err[512] = "";

	spec.fdp.policy = BC_FDP_FIXED;
	spec.fdp.npids = 1;
	CHECK(bc_target_open(&t, "null", &spec, &wl, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "ngXnY") != NULL);
	CHECK(t.fd == -1);
}

/* a char node named ng0n1 that is really /dev/null: routed to the nvme ops, refused there */
static void test_open_routes_ng_to_nvme_ops(void)
{
	char dir[] = "/tmp/bc-nvme-target-XXXXXX", ng[64], err[512] = "";
	struct bc_workload wl = bc_workload_builtin;
	struct bc_target t;
	int ret;

	if (geteuid() || !mkdtemp(dir)) {
		printf("skip ng routing check: needs root for mknod\n");
		return;
	}
	snprintf(ng, sizeof(ng), "%s/ng0n1", dir);
	if (mknod(ng, S_IFCHR | 0600, makedev(1, 3))) {
		printf("skip ng routing check: mknod: %s\n", strerror(errno));
		rmdir(dir);
		return;
	}
	ret = bc_target_open(&t, ng, NULL, &wl, err, sizeof(err));
	CHECK_MSG(ret == -ENOTTY && strstr(err, "not an NVMe namespace"), "%d: %s", ret, err);
	CHECK(t.info.kind == BC_KIND_NVME_CHAR && t.fd == -1 && t.priv == NULL);
	unlink(ng);
	rmdir(dir);
}

static void test_ops(void)
{
	const struct bc_target_ops *nvme = bc_target_ops_find("nvme");
	const struct bc_target_ops *file = bc_target_ops_find("file");
	const struct bc_target_ops *null = bc_target_ops_find("null");

	CHECK(nvme && file && null);
	CHECK(nvme->version == BC_TARGET_OPS_VERSION);
	CHECK(nvme->ring_flags == (IORING_SETUP_SQE128 | IORING_SETUP_CQE32));
	CHECK(nvme->nop_full);
	CHECK(file->ring_flags == 0 && null->ring_flags == 0);
	CHECK(nvme->control(NULL, 1, NULL) == -ENOTSUP);
	CHECK(nvme->kinds == 1u << BC_KIND_NVME_CHAR && !nvme->claims);
	CHECK((nvme->caps & BC_TCAP_PLACEMENT) && (nvme->caps & BC_TCAP_PASSTHRU));
}

int main(void)
{
	test_sqe128_uring_cmd_bytes();
	test_pick_pid_policies();
	test_fdp_spec_json();
	test_profile_fdp_key();
	test_fdp_refused_off_nvme();
	test_open_routes_ng_to_nvme_ops();
	test_ops();
	TEST_DONE();
}
