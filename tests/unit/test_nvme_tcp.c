/*
 * test_nvme_tcp.c - NVMe/TCP attach without a kernel: the /dev/nvme-fabrics
 * options string, the connect exchange over a socketpair standing in for the
 * fabrics fd, the reply parser, namespace discovery and disconnect against a
 * fixture sysfs tree built in a temporary directory. The real
 * /dev/nvme-fabrics is never opened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bc_nvme_tcp.h"
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

static void s_put(const char *root, const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
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
	s_put(root, "sys/class/nvme/nvme4/state", "live\n");
	s_put(root, "sys/class/nvme/nvme4/delete_controller", "");
	s_mkdir(root, "sys/class/nvme/nvme4/nvme2c4n1");
	/* non-multipath */
	s_mkdir(root, "sys/class/nvme/nvme6");
	s_put(root, "sys/class/nvme/nvme6/state", "live\n");
	s_mkdir(root, "sys/class/nvme/nvme6/nvme6n1");
	s_mkdir(root, "sys/class/nvme/nvme6/power");
	/* still connecting */
	s_mkdir(root, "sys/class/nvme/nvme5");
	s_put(root, "sys/class/nvme/nvme5/state", "connecting\n");
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

int main(void)
{
	test_options();
	test_reply();
	test_connect_exchange();
	test_sysfs_fixture();
	TEST_DONE();
}
