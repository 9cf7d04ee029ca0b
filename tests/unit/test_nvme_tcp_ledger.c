/*
 * test_nvme_tcp_ledger.c - the ledger of controllers the agent connected
 * (bc_nvme_tcp_ledger_open): a connect records the controller before it
 * returns, a disconnect removes it, and the next start disconnects what a
 * killed agent left - only when nvmeN is still that controller (same boot,
 * subsysnqn, traddr/trsvcid, cntlid), never a reused name. Runs on a copy of
 * tests/data/sysfs-nvme with regular files standing in for /dev/nvme-fabrics
 * and delete_controller; the real ones are never opened.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nvme/tcp.h"
#include "bc_test.h"

#define FIXTURE BC_SRC_DIR "/tests/data/sysfs-nvme"
#define NQN	"nqn.2024-01.io.bench:fresh"
#define BOOT	"4f1c2a9e-0b7d-4c61-9a53-2f0e8d6b7c11"

static bool s_exists(const char *root, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return !access(p, F_OK);
}

static int s_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int s_sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* a copy of the fixture, a boot id, a scratch directory, and controller nvme7 to NQN */
static void s_setup(char *root)
{
	if (!mkdtemp(root))
		SKIP("mkdtemp: %s", strerror(errno));
	if (s_sh("cp -r '" FIXTURE "/sys' '%s/' && mkdir -p '%s/dev' '%s/proc/sys/kernel/random'",
		 root, root, root))
		SKIP("cannot copy the fixture tree");
	bc_test_put(root, "proc/sys/kernel/random/boot_id", BOOT "\n");
	s_sh("mkdir -p '%s/scratch' '%s/sys/class/nvme/nvme7'", root, root);
	bc_test_put(root, "sys/class/nvme/nvme7/transport", "tcp\n");
	bc_test_put(root, "sys/class/nvme/nvme7/subsysnqn", NQN "\n");
	bc_test_put(root, "sys/class/nvme/nvme7/address", "traddr=198.51.100.7,trsvcid=4420\n");
	bc_test_put(root, "sys/class/nvme/nvme7/state", "live\n");
	bc_test_put(root, "sys/class/nvme/nvme7/delete_controller", "");
}

static void s_ledger_path(const char *root, char *buf, size_t len)
{
	snprintf(buf, len, "%s/scratch/nvme-tcp-connected", root);
}

/*
 * The stand-in fabrics file: as many bytes of padding as the options for s,
 * which the connect overwrites, then the kernel's reply it reads on from there.
 */
static void s_fake_fabrics(const char *root, const struct bc_nvme_tcp_spec *s, const char *reply)
{
	char p[512], opts[1024];
	FILE *f;
	int i, n = bc_nvme_tcp_options(s, opts, sizeof(opts));

	snprintf(p, sizeof(p), "%s/dev/nvme-fabrics", root);
	f = fopen(p, "w");
	if (!f)
		return;
	for (i = 0; i < n; i++)
		fputc('#', f);
	fputs(reply, f);
	fclose(f);
}

/* a connect is in the file when connect returns; a disconnect takes it out */
static unsigned long long s_ino7(const char *root);

static void test_connect_records_disconnect_removes(void)
{
	char root[] = "/tmp/bc-ledger-XXXXXX", path[600], err[512], got[1024], line[512];
	struct bc_nvme_tcp_spec s = {.traddr = "198.51.100.7", .trsvcid = "4420", .subnqn = NQN};
	int inst = -1;

	s_setup(root);
	s_ledger_path(root, path, sizeof(path));
	CHECK_MSG(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == 0, "%s", err);
	CHECK(bc_nvme_tcp_ledger_count() == 0);
	CHECK(!s_exists(root, "scratch/nvme-tcp-connected")); /* nothing connected: no file */
	s_fake_fabrics(root, &s, "instance=7,cntlid=3\n");
	CHECK_MSG(!bc_nvme_tcp_connect(root, &s, &inst, err, sizeof(err)), "%s", err);
	CHECK(inst == 7 && bc_nvme_tcp_ledger_count() == 1);
	bc_test_read(root, "scratch/nvme-tcp-connected", got, sizeof(got));
	snprintf(line, sizeof(line), "\nnvme7 " NQN " 198.51.100.7 4420 3 %llu " BOOT "\n",
		 s_ino7(root));
	CHECK_MSG(strstr(got, line) != NULL, "%s", got);
	CHECK(!s_exists(root, "scratch/nvme-tcp-connected.tmp"));
	CHECK(!bc_nvme_tcp_disconnect(root, 7));
	CHECK(bc_nvme_tcp_ledger_count() == 0);
	CHECK(!s_exists(root, "scratch/nvme-tcp-connected"));
	bc_nvme_tcp_ledger_close();
	s_sh("rm -rf '%s'", root);
}

/* attach/detach go through the same two helpers: a step's controller is recorded */
static void test_attach_detach_recorded(void)
{
	char root[] = "/tmp/bc-ledger-XXXXXX", path[600], err[512];
	struct bc_nvme_tcp_vol v = {
	    .set = true, .traddr = "198.51.100.7", .trsvcid = "4420", .subnqn = NQN};
	struct bc_nvme_tcp_att att;

	s_setup(root);
	s_ledger_path(root, path, sizeof(path));
	/* nvme7 exists already in the tree: point the attach at a fresh subsystem instead */
	bc_test_put(root, "sys/class/nvme/nvme7/subsysnqn", "nqn.other\n");
	s_sh("mkdir -p '%s/sys/class/nvme/nvme8/nvme8n1' && touch '%s/dev/nvme8n1'", root, root);
	bc_test_put(root, "sys/class/nvme/nvme8/state", "live\n");
	bc_test_put(root, "sys/class/nvme/nvme8/delete_controller", "");
	{
		struct bc_nvme_tcp_spec s = {
		    .traddr = v.traddr, .trsvcid = v.trsvcid, .subnqn = v.subnqn};

		s_fake_fabrics(root, &s, "instance=8,cntlid=1\n");
	}
	CHECK(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == 0);
	CHECK_MSG(!bc_nvme_tcp_attach(root, &v, 0, &att, err, sizeof(err)), "%s", err);
	CHECK(att.instance == 8 && att.owned && bc_nvme_tcp_ledger_count() == 1);
	CHECK(!bc_nvme_tcp_detach(root, &att));
	CHECK(bc_nvme_tcp_ledger_count() == 0);
	bc_nvme_tcp_ledger_close();
	s_sh("rm -rf '%s'", root);
}

/* SIGKILL between connect and disconnect: the next start disconnects the leftover */
static void test_leftover_disconnected(void)
{
	char root[] = "/tmp/bc-ledger-XXXXXX", path[600], err[512], got[64];
	struct bc_nvme_tcp_spec s = {.traddr = "198.51.100.7", .trsvcid = "4420", .subnqn = NQN};
	int inst = -1;

	s_setup(root);
	s_ledger_path(root, path, sizeof(path));
	CHECK(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == 0);
	s_fake_fabrics(root, &s, "instance=7,cntlid=3\n");
	CHECK(!bc_nvme_tcp_connect(root, &s, &inst, err, sizeof(err)) && inst == 7);
	/* the "crash": the lock goes, the file stays */
	bc_nvme_tcp_ledger_close();
	CHECK(s_exists(root, "scratch/nvme-tcp-connected"));
	bc_test_put(root, "sys/class/nvme/nvme7/cntlid", "3\n");
	CHECK_MSG(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == 1, "%s", err);
	bc_test_read(root, "sys/class/nvme/nvme7/delete_controller", got, sizeof(got));
	CHECK(!strcmp(got, "1"));
	CHECK(bc_nvme_tcp_ledger_count() == 0 && !s_exists(root, "scratch/nvme-tcp-connected"));
	bc_nvme_tcp_ledger_close();
	s_sh("rm -rf '%s'", root);
}

/* st_ino of root's nvme7, as the agent records it */
static unsigned long long s_ino7(const char *root)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s/sys/class/nvme/nvme7", root);
	return stat(p, &st) ? 0 : (unsigned long long)st.st_ino;
}

/* one ledger line for nvme7 (its inode + ino_delta), then sysfs changed as given */
static void s_left_alone(const char *what, const char *attr, const char *value, int ino_delta,
			 int cleaned)
{
	char root[] = "/tmp/bc-ledger-XXXXXX", path[600], err[512], got[64], rel[128], line[512];

	s_setup(root);
	s_ledger_path(root, path, sizeof(path));
	snprintf(line, sizeof(line),
		 "# written by hand\nnvme7 " NQN " 198.51.100.7 4420 3 %llu " BOOT "\n",
		 s_ino7(root) + (unsigned long long)ino_delta);
	bc_test_put(root, "scratch/nvme-tcp-connected", line);
	snprintf(rel, sizeof(rel), "sys/class/nvme/nvme7/%s", attr);
	bc_test_put(root, rel, value);
	CHECK_MSG(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == cleaned, "%s", what);
	bc_test_read(root, "sys/class/nvme/nvme7/delete_controller", got, sizeof(got));
	CHECK_MSG(!strcmp(got, cleaned ? "1" : ""), "%s: delete_controller holds '%s'", what, got);
	CHECK(bc_nvme_tcp_ledger_count() == 0);
	bc_nvme_tcp_ledger_close();
	s_sh("rm -rf '%s'", root);
}

/* the name was reused after the crash: never disconnect someone else's controller */
static void test_reused_name_left_alone(void)
{
	s_left_alone("same controller", "cntlid", "3\n", 0, 1);
	/* recreated under the same name, to the same subsystem, same cntlid: another sysfs node */
	s_left_alone("same name, another node", "cntlid", "3\n", 1, 0);
	s_left_alone("another subsystem", "subsysnqn", "nqn.2024-01.io.bench:other\n", 0, 0);
	s_left_alone("another address", "address", "traddr=198.51.100.8,trsvcid=4420\n", 0, 0);
	s_left_alone("another port", "address", "traddr=198.51.100.7,trsvcid=4421\n", 0, 0);
	s_left_alone("another transport", "transport", "rdma\n", 0, 0);
	s_left_alone("another cntlid", "cntlid", "4\n", 0, 0);
	/* a ledger from before a reboot: every instance number is someone else's now */
	s_left_alone("another boot", "../../../../proc/sys/kernel/random/boot_id",
		     "0e3e1f6a-6d0c-4d0e-8c55-7c1f5b0b9d22\n", 0, 0);
}

/* gone already: nothing to do, no error; a failed disconnect is kept for the next start */
static void test_gone_and_failed(void)
{
	char root[] = "/tmp/bc-ledger-XXXXXX", path[600], err[512], got[1024];

	s_setup(root);
	s_ledger_path(root, path, sizeof(path));
	bc_test_put(root, "scratch/nvme-tcp-connected",
		    "nvme9 " NQN " 198.51.100.7 4420 1 0 " BOOT "\nnvme7 " NQN
		    " 198.51.100.7 4420 3 0 " BOOT "\ngarbage\n");
	/* delete_controller that cannot be opened for writing */
	s_sh("rm -f '%s/sys/class/nvme/nvme7/delete_controller' && "
	     "mkdir '%s/sys/class/nvme/nvme7/delete_controller'",
	     root, root);
	CHECK_MSG(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == 0, "%s", err);
	CHECK(bc_nvme_tcp_ledger_count() == 1);
	bc_test_read(root, "scratch/nvme-tcp-connected", got, sizeof(got));
	CHECK_MSG(strstr(got, "\nnvme7 " NQN) && !strstr(got, "nvme9") && !strstr(got, "garbage"),
		  "%s", got);
	bc_nvme_tcp_ledger_close();
	s_sh("rm -rf '%s'", root);
}

/* a second agent on the same directory gets -EBUSY and touches nothing */
static void test_second_agent_busy(void)
{
	char root[] = "/tmp/bc-ledger-XXXXXX", path[600], err[512];
	pid_t pid;
	int st = 0;

	s_setup(root);
	s_ledger_path(root, path, sizeof(path));
	CHECK(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == 0);
	CHECK(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == -EALREADY);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		bc_nvme_tcp_ledger_close(); /* the child's copy: closes its fd, the lock stays */
		_exit(bc_nvme_tcp_ledger_open(root, path, err, sizeof(err)) == -EBUSY &&
			      strstr(err, "another bench-agent")
			  ? 0
			  : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	bc_nvme_tcp_ledger_close();
	s_sh("rm -rf '%s'", root);
}

int main(void)
{
	test_connect_records_disconnect_removes();
	test_attach_detach_recorded();
	test_leftover_disconnected();
	test_reused_name_left_alone();
	test_gone_and_failed();
	test_second_agent_busy();
	TEST_DONE();
}
