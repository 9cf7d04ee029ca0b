/*
 * test_nvme_tcp.c - NVMe/TCP attach without a kernel: the /dev/nvme-fabrics
 * options string, the connect exchange over a socketpair standing in for the
 * fabrics fd, the reply parser, namespace discovery and disconnect against a
 * fixture sysfs tree built in a temporary directory; the attach/detach
 * lifecycle (connect or reuse, namespace by nsid, passthrough device,
 * disconnect only what was connected) on a copy of tests/data/sysfs-nvme with
 * a regular file standing in for /dev/nvme-fabrics; discovery log parsing.
 * The real /dev/nvme-fabrics is never opened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvme/tcp.h"
#include "bc_test.h"

static void test_options(void)
{
	struct bc_nvme_tcp_spec s = {.traddr = "192.0.2.10", .subnqn = "nqn.2024-01.io.bench:v1"};
	char buf[512];

	CHECK(bc_nvme_tcp_options(&s, buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "nqn=nqn.2024-01.io.bench:v1,transport=tcp,traddr=192.0.2.10,"
			   "trsvcid=4420"));
	s.trsvcid = "4421";
	s.hostnqn = "nqn.2014-08.org.nvmexpress:uuid:1234";
	s.nr_io_queues = 8;
	CHECK(bc_nvme_tcp_options(&s, buf, sizeof(buf)) == (int)strlen(buf));
	CHECK(!strcmp(buf, "nqn=nqn.2024-01.io.bench:v1,transport=tcp,traddr=192.0.2.10,"
			   "trsvcid=4421,hostnqn=nqn.2014-08.org.nvmexpress:uuid:1234,"
			   "nr_io_queues=8"));
	CHECK(bc_nvme_tcp_options(&s, buf, 20) == -ENAMETOOLONG);
	s.traddr = "1.2.3.4,discovery";
	CHECK(bc_nvme_tcp_options(&s, buf, sizeof(buf)) == -EINVAL);
	s.traddr = NULL;
	CHECK(bc_nvme_tcp_options(&s, buf, sizeof(buf)) == -EINVAL);
}

static void test_reply(void)
{
	int inst = -2, cntlid = -2;

	CHECK(!bc_nvme_tcp_parse_reply("instance=3,cntlid=1\n", &inst, &cntlid));
	CHECK(inst == 3 && cntlid == 1);
	CHECK(!bc_nvme_tcp_parse_reply("instance=12,cntlid=65\n", &inst, NULL) && inst == 12);
	/* a fresh fd's probe answer is not a connection */
	CHECK(bc_nvme_tcp_parse_reply("instance=-1,cntlid=-1,transport=%s,...", &inst, &cntlid) ==
	      -EINVAL);
	CHECK(bc_nvme_tcp_parse_reply("garbage", &inst, &cntlid) == -EINVAL);
}

static void test_connect_exchange(void)
{
	int sv[2], inst = -1, cntlid = -1;
	char got[256];
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		SKIP("socketpair: %s", strerror(errno));
	/* the "kernel" answers first; the reply waits in the socket */
	CHECK(write(sv[1], "instance=7,cntlid=2\n", 20) == 20);
	CHECK(!bc_nvme_tcp_connect_fd(sv[0], "nqn=x,transport=tcp,traddr=a,trsvcid=4420", &inst,
				      &cntlid));
	CHECK(inst == 7 && cntlid == 2);
	n = read(sv[1], got, sizeof(got) - 1);
	CHECK(n == 41);
	got[n > 0 ? n : 0] = '\0';
	CHECK(!strcmp(got, "nqn=x,transport=tcp,traddr=a,trsvcid=4420"));
	close(sv[0]);
	close(sv[1]);
}

static void s_mkdir(const char *root, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	mkdir(p, 0755);
}

static void test_sysfs_fixture(void)
{
	char root[] = "/tmp/bc-nvme-tcp-XXXXXX", name[32] = "", cmd[600], got[8] = "";
	struct bc_nvme_tcp_spec s = {.traddr = "192.0.2.10", .subnqn = "nqn.x"};
	char err[256];
	int inst;
	FILE *f;

	if (!mkdtemp(root))
		SKIP("mkdtemp: %s", strerror(errno));
	s_mkdir(root, "sys");
	s_mkdir(root, "sys/class");
	s_mkdir(root, "sys/class/nvme");
	/* multipath: controller 4 of subsystem 2 */
	s_mkdir(root, "sys/class/nvme/nvme4");
	bc_test_put(root, "sys/class/nvme/nvme4/state", "live\n");
	bc_test_put(root, "sys/class/nvme/nvme4/delete_controller", "");
	s_mkdir(root, "sys/class/nvme/nvme4/nvme2c4n1");
	/* non-multipath */
	s_mkdir(root, "sys/class/nvme/nvme6");
	bc_test_put(root, "sys/class/nvme/nvme6/state", "live\n");
	s_mkdir(root, "sys/class/nvme/nvme6/nvme6n1");
	s_mkdir(root, "sys/class/nvme/nvme6/power");
	/* still connecting */
	s_mkdir(root, "sys/class/nvme/nvme5");
	bc_test_put(root, "sys/class/nvme/nvme5/state", "connecting\n");
	s_mkdir(root, "sys/class/nvme/nvme5/nvme5n1");

	CHECK(!bc_nvme_tcp_find_ns(root, 4, 0, name, sizeof(name)) && !strcmp(name, "nvme2n1"));
	CHECK(!bc_nvme_tcp_find_ns(root, 6, 0, name, sizeof(name)) && !strcmp(name, "nvme6n1"));
	CHECK(bc_nvme_tcp_find_ns(root, 5, 100, name, sizeof(name)) == -ETIMEDOUT);
	CHECK(bc_nvme_tcp_find_ns(root, 9, 0, name, sizeof(name)) == -ENOENT);

	CHECK(!bc_nvme_tcp_disconnect(root, 4));
	snprintf(cmd, sizeof(cmd), "%s/sys/class/nvme/nvme4/delete_controller", root);
	f = fopen(cmd, "r");
	CHECK(f && fgets(got, sizeof(got), f) && !strcmp(got, "1"));
	if (f)
		fclose(f);
	CHECK(bc_nvme_tcp_disconnect(root, 9) == -ENOENT);
	/* the fixture root has no dev/nvme-fabrics: a clean error, nothing opened elsewhere */
	CHECK(bc_nvme_tcp_connect(root, &s, &inst, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "/dev/nvme-fabrics") != NULL);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

#define FIXTURE BC_SRC_DIR "/tests/data/sysfs-nvme"

/* a private copy of the checked-in tree: tests write only to files they made */
static void s_copy_fixture(char *root)
{
	char cmd[512];

	if (!mkdtemp(root))
		SKIP("mkdtemp: %s", strerror(errno));
	snprintf(cmd, sizeof(cmd), "cp -r '%s/sys' '%s/'", FIXTURE, root);
	if (system(cmd))
		SKIP("cannot copy the fixture tree");
	s_mkdir(root, "dev");
}

static void s_rm(const char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

static void s_read(const char *root, const char *rel, char *buf, size_t len)
{
	char p[512];
	FILE *f;

	buf[0] = '\0';
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
}

/*
 * A stand-in for /dev/nvme-fabrics: a regular file holding strlen(opts)
 * bytes of padding, then the kernel's answer. The connect writes its options
 * over the padding (offset 0) and reads on from there - the reply - so the
 * file ends up holding exactly the options the agent wrote.
 */
static void s_fake_fabrics(const char *root, const char *opts, const char *reply)
{
	char p[512];
	FILE *f;
	size_t i;

	snprintf(p, sizeof(p), "%s/dev/nvme-fabrics", root);
	f = fopen(p, "w");
	if (!f)
		return;
	for (i = 0; i < strlen(opts); i++)
		fputc('#', f);
	fputs(reply, f);
	fclose(f);
}

/* the sysfs "address" attribute: any order, src_addr appended by newer kernels */
static void test_addr_field(void)
{
	char v[64];

	CHECK(!bc_nvme_addr_field("traddr=192.0.2.10,trsvcid=4420,src_addr=192.0.2.1", "trsvcid", v,
				  sizeof(v)) &&
	      !strcmp(v, "4420"));
	CHECK(!bc_nvme_addr_field("trsvcid=4420,traddr=fe80::1%eth0", "traddr", v, sizeof(v)) &&
	      !strcmp(v, "fe80::1%eth0"));
	CHECK(bc_nvme_addr_field("traddr=1.2.3.4", "trsvcid", v, sizeof(v)) == -ENOENT);
	/* "host_traddr" is not "traddr" */
	CHECK(!bc_nvme_addr_field("host_traddr=9.9.9.9,traddr=1.2.3.4", "traddr", v, sizeof(v)) &&
	      !strcmp(v, "1.2.3.4"));
	CHECK(bc_nvme_addr_field("traddr=192.0.2.10", "traddr", v, 4) == -ENAMETOOLONG);
}

/* a controller that is already there, found by transport, subsysnqn and address */
static void test_find_ctrl_and_nsid(void)
{
	char name[32];

	CHECK(bc_nvme_tcp_find_ctrl(FIXTURE, "nqn.2024-01.io.bench:vol1", "192.0.2.10", "4420") ==
	      1);
	CHECK(bc_nvme_tcp_find_ctrl(FIXTURE, "nqn.2024-01.io.bench:vol1", "192.0.2.10", "4421") ==
	      -ENOENT);
	CHECK(bc_nvme_tcp_find_ctrl(FIXTURE, "nqn.2024-01.io.bench:vol1", "192.0.2.11", "4420") ==
	      -ENOENT);
	CHECK(bc_nvme_tcp_find_ctrl(FIXTURE, "nqn.other", "192.0.2.10", "4420") == -ENOENT);
	/* nvme0 is PCIe: never a match, whatever its address says */
	CHECK(bc_nvme_tcp_find_ctrl(FIXTURE,
				    "nqn.1994-11.com.samsung:nvme:990PRO:M.2:S6Z2NJ0T123456",
				    "0000:01:00.0", "4420") == -ENOENT);
	CHECK(bc_nvme_tcp_find_ctrl("/nonexistent", "x", "y", "z") == -ENOENT);
	/* nvme1 shows nsid 1 and 2: by nsid, and the lowest without one */
	CHECK(!bc_nvme_tcp_find_nsid(FIXTURE, 1, 2, 0, name, sizeof(name), NULL) &&
	      !strcmp(name, "nvme1n2"));
	CHECK(!bc_nvme_tcp_find_nsid(FIXTURE, 1, 0, 0, name, sizeof(name), NULL) &&
	      !strcmp(name, "nvme1n1"));
	CHECK(bc_nvme_tcp_find_nsid(FIXTURE, 1, 3, 100, name, sizeof(name), NULL) == -ETIMEDOUT);
}

/* connect through the stand-in fabrics file, find the namespace, disconnect what we made */
static void test_attach_connects_and_detaches(void)
{
	char root[] = "/tmp/bc-nvme-attach-XXXXXX", opts[512], got[512], err[512];
	struct bc_nvme_tcp_vol v = {.set = true,
				    .traddr = "198.51.100.7",
				    .trsvcid = "4420",
				    .subnqn = "nqn.2024-01.io.bench:fresh",
				    .nr_io_queues = 4};
	struct bc_nvme_tcp_spec s = {
	    .traddr = v.traddr, .trsvcid = v.trsvcid, .subnqn = v.subnqn, .nr_io_queues = 4};
	struct bc_nvme_tcp_att att;

	s_copy_fixture(root);
	CHECK(bc_nvme_tcp_options(&s, opts, sizeof(opts)) > 0);
	s_fake_fabrics(root, opts, "instance=7,cntlid=3\n");
	/* what the kernel would have made for instance 7: a multipath path of subsystem 5 */
	s_mkdir(root, "sys/class/nvme/nvme7");
	bc_test_put(root, "sys/class/nvme/nvme7/state", "live\n");
	bc_test_put(root, "sys/class/nvme/nvme7/delete_controller", "");
	s_mkdir(root, "sys/class/nvme/nvme7/nvme5c7n1");
	bc_test_put(root, "sys/class/nvme/nvme7/nvme5c7n1/nsid", "1\n");

	/* the path shows before the head's disk: no /dev/nvme5n1 yet, so no attach */
	CHECK(bc_nvme_tcp_attach(root, &v, 100, &att, err, sizeof(err)) == -ETIMEDOUT);
	CHECK(strstr(err, "/dev/nvme5n1") && strstr(err, "198.51.100.7:4420"));
	CHECK(att.instance == 7 && att.owned); /* still ours to detach */
	/* the device nodes (regular files here: only their existence is looked at) */
	bc_test_put(root, "dev/nvme5n1", "");
	bc_test_put(root, "dev/ng5n1", "");
	s_fake_fabrics(root, opts, "instance=7,cntlid=3\n");
	CHECK_MSG(!bc_nvme_tcp_attach(root, &v, 0, &att, err, sizeof(err)), "%s", err);
	CHECK(att.instance == 7 && att.owned && att.nsid == 1 && !att.discovered);
	CHECK(!strcmp(att.block, "nvme5n1"));
	snprintf(got, sizeof(got), "%s/dev/nvme5n1", root);
	CHECK(!strcmp(att.dev, got));
	/* the options the agent wrote, byte for byte */
	s_read(root, "dev/nvme-fabrics", got, sizeof(got));
	CHECK(!strncmp(got,
		       "nqn=nqn.2024-01.io.bench:fresh,transport=tcp,traddr=198.51.100.7,"
		       "trsvcid=4420,nr_io_queues=4instance=7",
		       strlen(opts) + 10));
	/* passthrough: the generic char device of the same namespace */
	v.passthrough = true;
	s_fake_fabrics(root, opts, "instance=7,cntlid=3\n");
	CHECK(!bc_nvme_tcp_attach(root, &v, 0, &att, err, sizeof(err)));
	snprintf(got, sizeof(got), "%s/dev/ng5n1", root);
	CHECK(!strcmp(att.dev, got));

	/* detach: "1" into delete_controller, once */
	CHECK(!bc_nvme_tcp_detach(root, &att));
	s_read(root, "sys/class/nvme/nvme7/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, "1"));
	CHECK(att.instance == -1 && !att.owned);
	bc_test_put(root, "sys/class/nvme/nvme7/delete_controller", "");
	CHECK(!bc_nvme_tcp_detach(root, &att)); /* idempotent: nothing written again */
	s_read(root, "sys/class/nvme/nvme7/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, ""));
	s_rm(root);
}

/* an existing controller to the same subsystem and address: used, never disconnected */
static void test_attach_reuses_existing(void)
{
	char root[] = "/tmp/bc-nvme-reuse-XXXXXX", got[64], err[512];
	struct bc_nvme_tcp_vol v = {.set = true,
				    .traddr = "192.0.2.10",
				    .trsvcid = "4420",
				    .subnqn = "nqn.2024-01.io.bench:vol1",
				    .nsid = 2};
	struct bc_nvme_tcp_att att;

	s_copy_fixture(root);
	bc_test_put(root, "dev/nvme1n2", "");
	/* no dev/nvme-fabrics at all: a connect would fail, so this proves none happened */
	CHECK_MSG(!bc_nvme_tcp_attach(root, &v, 0, &att, err, sizeof(err)), "%s", err);
	CHECK(att.instance == 1 && !att.owned && att.nsid == 2 && !strcmp(att.block, "nvme1n2"));
	CHECK(!bc_nvme_tcp_detach(root, &att));
	s_read(root, "sys/class/nvme/nvme1/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, ""));
	CHECK(att.instance == -1);
	s_rm(root);
}

/* failures name the fabric address, and say what (if anything) is left to detach */
static void test_attach_errors(void)
{
	char root[] = "/tmp/bc-nvme-fail-XXXXXX", opts[512], err[512], got[8];
	struct bc_nvme_tcp_vol v = {.set = true,
				    .traddr = "198.51.100.9",
				    .trsvcid = "4420",
				    .subnqn = "nqn.2024-01.io.bench:gone"};
	struct bc_nvme_tcp_spec s = {.traddr = v.traddr, .trsvcid = v.trsvcid, .subnqn = v.subnqn};
	struct bc_nvme_tcp_att att;

	s_copy_fixture(root);
	/* no fabrics device (no nvme-fabrics module, as on the development host) */
	CHECK(bc_nvme_tcp_attach(root, &v, 0, &att, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "/dev/nvme-fabrics") != NULL);
	CHECK(att.instance == -1 && !att.owned);
	/* connected, but the namespace never shows: the controller is ours to detach */
	CHECK(bc_nvme_tcp_options(&s, opts, sizeof(opts)) > 0);
	s_fake_fabrics(root, opts, "instance=9,cntlid=1\n");
	s_mkdir(root, "sys/class/nvme/nvme9");
	bc_test_put(root, "sys/class/nvme/nvme9/state", "connecting\n");
	bc_test_put(root, "sys/class/nvme/nvme9/delete_controller", "");
	CHECK(bc_nvme_tcp_attach(root, &v, 100, &att, err, sizeof(err)) == -ETIMEDOUT);
	CHECK(strstr(err, "198.51.100.9:4420") != NULL && strstr(err, "nvme9") != NULL);
	CHECK(att.instance == 9 && att.owned);
	CHECK(!bc_nvme_tcp_detach(root, &att));
	s_read(root, "sys/class/nvme/nvme9/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, "1"));
	s_rm(root);
}

/*
 * What every end of a step runs (step.c bc_step_teardown: STEP_DONE, ABORT,
 * failed PREPARE, BYE, coordinator silence, SIGTERM): disconnect exactly the
 * controllers this agent connected, once, and count failures.
 */
static void test_detach_all(void)
{
	char root[] = "/tmp/bc-nvme-detach-XXXXXX", got[8];
	struct bc_nvme_tcp_att att[5];
	int i;

	s_copy_fixture(root);
	s_mkdir(root, "sys/class/nvme/nvme7");
	bc_test_put(root, "sys/class/nvme/nvme7/delete_controller", "");
	memset(att, 0, sizeof(att));
	for (i = 0; i < 5; i++)
		att[i].instance = -1;
	att[0] = (struct bc_nvme_tcp_att){.instance = 7, .owned = true};
	att[1] = (struct bc_nvme_tcp_att){.instance = 1, .owned = false}; /* pre-existing */
	att[3] = (struct bc_nvme_tcp_att){.instance = 7, .owned = false}; /* shares volume 0's */
	att[4] = (struct bc_nvme_tcp_att){.instance = 8, .owned = true};  /* gone already */
	CHECK(bc_nvme_tcp_detach_all(root, att, 5) == 1);
	s_read(root, "sys/class/nvme/nvme7/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, "1"));
	s_read(root, "sys/class/nvme/nvme1/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, ""));
	for (i = 0; i < 5; i++)
		CHECK(att[i].instance == -1 && !att[i].owned);
	/* a second teardown (the control loop's exit path runs it again) does nothing */
	bc_test_put(root, "sys/class/nvme/nvme7/delete_controller", "");
	CHECK(bc_nvme_tcp_detach_all(root, att, 5) == 0);
	s_read(root, "sys/class/nvme/nvme7/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, ""));
	s_rm(root);
}

static void s_disc_entry(uint8_t *e, uint8_t trtype, uint8_t subtype, const char *svc,
			 const char *nqn, const char *addr)
{
	memset(e, 0, 1024);
	e[0] = trtype;
	e[1] = 1; /* IPv4 */
	e[2] = subtype;
	memcpy(e + 32, svc, strlen(svc));
	/* strings are space padded on the wire (nvmet pads trsvcid/traddr with spaces) */
	memset(e + 32 + strlen(svc), ' ', 32 - strlen(svc));
	memcpy(e + 256, nqn, strlen(nqn));
	memcpy(e + 512, addr, strlen(addr));
}

/* a discovery log: a referral, an RDMA port, then the TCP port of the subsystem */
static void test_discovery_pick(void)
{
	static uint8_t log[1024 * 5];
	struct bc_nvme_disc_entry e;
	unsigned seen;

	memset(log, 0, sizeof(log));
	log[0] = 5; /* genctr */
	log[8] = 4; /* numrec */
	s_disc_entry(log + 1024, 3, 3, "8009", BC_NVME_DISC_NQN, "192.0.2.1");
	s_disc_entry(log + 2048, 1, 2, "4420", "nqn.2024-01.io.bench:v7", "192.0.2.2");
	s_disc_entry(log + 3072, 3, 2, "4420", "nqn.2024-01.io.bench:v6", "192.0.2.3");
	s_disc_entry(log + 4096, 3, 2, "4421", "nqn.2024-01.io.bench:v7", "192.0.2.4");
	CHECK(!bc_nvme_disc_pick(log, sizeof(log), "nqn.2024-01.io.bench:v7", &e, &seen));
	CHECK(!strcmp(e.traddr, "192.0.2.4") && !strcmp(e.trsvcid, "4421") && seen == 4);
	CHECK(bc_nvme_disc_pick(log, sizeof(log), "nqn.none", &e, &seen) == -ENOENT && seen == 4);
	/* numrec beyond what was read: only what was read is looked at */
	log[8] = 40;
	CHECK(bc_nvme_disc_pick(log, 1024 * 3, "nqn.2024-01.io.bench:v7", &e, &seen) == -ENOENT &&
	      seen == 2);
	CHECK(bc_nvme_disc_pick(log, 16, "x", &e, &seen) == -EINVAL);
}

int main(void)
{
	test_options();
	test_reply();
	test_connect_exchange();
	test_sysfs_fixture();
	test_addr_field();
	test_find_ctrl_and_nsid();
	test_attach_connects_and_detaches();
	test_attach_reuses_existing();
	test_attach_errors();
	test_detach_all();
	test_discovery_pick();
	TEST_DONE();
}
