/*
 * test_target.c - the target registry and opening a volume (target/target.h):
 * what each target declares, the names they claim, a missing file, create on
 * demand, what a block device refuses
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/target.h"
#include "bc_test.h"

/* run a shell command, return its first output line */
static int s_sh(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	int st;

	if (!p)
		return -1;
	out[0] = 0;
	if (fgets(out, (int)len, p))
		out[strcspn(out, "\n")] = 0;
	st = pclose(p);
	return st == 0 && out[0] ? 0 : -1;
}

/* errors: a missing file, create on demand, and what a block device refuses */
static void test_open_errors(void)
{
	struct bc_workload rd = {.rw = BC_RW_RANDREAD, .bs = 4096, .iodepth = 1, .numjobs = 1};
	struct bc_workload wr = {.rw = BC_RW_RANDWRITE, .bs = 4096, .iodepth = 1, .numjobs = 1};
	struct bc_volume_spec spec = {.node = -1};
	char path[64], dev[64], cmd[256], err[512] = "";
	struct bc_devinfo di;
	struct bc_target t;
	const char *kind;
	int fd, ret;

	CHECK(bc_target_probe("null", &di, &kind) == 0 && di.kind == BC_KIND_PSEUDO &&
	      !strcmp(kind, "null") && di.size_bytes == 1ull << 40);

	snprintf(path, sizeof(path), "/var/tmp/bc-test-missing-%d", (int)getpid());
	unlink(path);
	ret = bc_target_open(&t, path, &spec, &rd, err, sizeof(err));
	CHECK_MSG(ret == -ENOENT && strstr(err, path), "missing: %d '%s'", ret, err);
	CHECK(t.fd == -1);

	spec.size_bytes = 1 << 20;
	ret = bc_target_open(&t, path, &spec, &rd, err, sizeof(err));
	CHECK_MSG(ret == 0 && t.info.kind == BC_KIND_FILE && t.info.size_bytes == 1 << 20,
		  "create: %d '%s'", ret, err);
	bc_target_close(&t);
	unlink(path);

	spec.size_bytes = 0;
	spec.offset_bytes = 1 << 20;
	snprintf(path, sizeof(path), "/var/tmp/bc-test-target-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		SKIP("cannot create a temp file in /var/tmp: %s", strerror(errno));
	CHECK(ftruncate(fd, 1 << 20) == 0);
	ret = bc_target_open(&t, path, &spec, &rd, err, sizeof(err));
	CHECK_MSG(ret == -EINVAL && strstr(err, path), "offset past end: %d '%s'", ret, err);
	spec.offset_bytes = 0;

	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null", path);
	if (s_sh(cmd, dev, sizeof(dev))) {
		printf("skip block-device checks: losetup -f failed (not root, or no loop "
		       "devices)\n");
		goto out;
	}
	/* "size" creates files: a block device keeps its own, "length" limits the window */
	spec.size_bytes = 4096;
	ret = bc_target_open(&t, dev, &spec, &wr, err, sizeof(err));
	CHECK_MSG(ret == -EINVAL && strstr(err, dev) && strstr(err, "\"length\""),
		  "block size refused: %d '%s'", ret, err);
	spec.size_bytes = 0;
	/* writes are the PREPARE gate's to refuse (bc_safety_check), not the target's */
	ret = bc_target_open(&t, dev, &spec, &wr, err, sizeof(err));
	CHECK_MSG(ret == 0 && t.info.kind == BC_KIND_BLOCK && t.info.size_bytes == 1 << 20 &&
		      t.info.lbs >= 512,
		  "block open: %d '%s'", ret, err);
	bc_target_close(&t);
	snprintf(cmd, sizeof(cmd), "losetup -d %s", dev);
	CHECK(system(cmd) == 0);
out:
	close(fd);
	unlink(path);
}

/*
 * the registry: what each target declares, the names they claim,
 * and registration's refusal of an ops table of another version
 */
static void test_registry(void)
{
	static const char *const names[] = {"file", "nvme", "null", "sim"};
	const struct bc_target_ops *null = bc_target_ops_find("null");
	const struct bc_target_ops *sim = bc_target_ops_find("sim");
	struct bc_target_ops old;
	char err[256] = "";
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct bc_target_ops *o = bc_target_ops_find(names[i]);

		CHECK_MSG(o && !bc_target_ops_check(o, err, sizeof(err)), "%s: %s", names[i], err);
	}
	CHECK(!bc_target_ops_find("tape"));
	CHECK(bc_target_pseudo("null") == null && bc_target_pseudo("sim") == sim &&
	      bc_target_pseudo("sim:a.b-1") == sim);
	CHECK(!bc_target_pseudo("sim:") && !bc_target_pseudo("sim:bad name") &&
	      !bc_target_pseudo("nullx") && !bc_target_pseudo("/dev/null") &&
	      !bc_target_pseudo("data/null"));
	CHECK((null->caps & BC_TCAP_DISKLESS) && (null->caps & BC_TCAP_ANY_ALIGN) &&
	      !(null->caps & BC_TCAP_PLACEMENT) && null->safety == 0 && null->kinds == 0);
	CHECK((sim->caps & BC_TCAP_DISKLESS) && (sim->caps & BC_TCAP_NO_DATA) &&
	      (sim->caps & BC_TCAP_PLACEMENT) && !(sim->caps & BC_TCAP_ANY_ALIGN));
	CHECK(bc_target_safety("null") == 0 && bc_target_safety("sim:x") == 0 &&
	      bc_target_safety("/var/tmp/x") == (BC_TSAFE_ALLOWLIST | BC_TSAFE_DEVICE));

	old = *null;
	old.version = BC_TARGET_OPS_VERSION - 1;
	CHECK(bc_target_ops_check(&old, err, sizeof(err)) == -ENOTSUP);
	CHECK_MSG(strstr(err, "\"null\"") && strstr(err, "version"), "%s", err);
	old = *null;
	old.prep = NULL;
	CHECK(bc_target_ops_check(&old, err, sizeof(err)) == -ENOTSUP);
	CHECK_MSG(strstr(err, "\"null\"") && strstr(err, "prep"), "%s", err);
	old = *null;
	old.probe = NULL; /* claims names, so it must say what they are */
	CHECK(bc_target_ops_check(&old, err, sizeof(err)) == -ENOTSUP);
}

int main(void)
{
	test_registry();
	test_open_errors();
	TEST_DONE();
}
