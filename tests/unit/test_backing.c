/*
 * test_backing: what backs a volume's bytes. bc_extents_scan on a real file
 * (in the build directory: a real filesystem, unlike a tmpfs /tmp) finds the
 * unwritten extents fallocate leaves, the hole an ftruncate leaves, and
 * nothing once the file is written; adjacent unbacked ranges come as one.
 * bc_blkdev_under finds the device under that file on the live system, says
 * "no block device" under tmpfs, and (as root, with device nodes made by
 * mknod and a sysfs/procfs fixture tree) takes a partition to its disk,
 * follows a loop device to its backing file's filesystem device, and counts
 * a device-mapper device at the top of its stack, naming its members.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "host/blkdev.h"
#include "target/extents.h"
#include "bc_test.h"

struct s_ranges {
	int n;
	uint64_t off[8], len[8];
};

static int s_range(void *arg, uint64_t off, uint64_t len)
{
	struct s_ranges *r = arg;

	if (r->n < 8) {
		r->off[r->n] = off;
		r->len[r->n] = len;
	}
	r->n++;
	return 0;
}

static void s_extents(const char *dir)
{
	char path[512];
	struct bc_extscan x;
	struct s_ranges r = {0};
	static char buf[256 << 10];
	int fd;

	snprintf(path, sizeof(path), "%s/test_backing.XXXXXX", dir);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	if (fallocate(fd, 0, 0, 1 << 20)) {
		fprintf(stderr, "no fallocate here (%s): extents not checked\n", strerror(errno));
		close(fd);
		return;
	}
	CHECK(bc_extents_scan(fd, 0, 0, &x, NULL, NULL) == 0);
	if (!x.method || strcmp(x.method, "FIEMAP")) {
		fprintf(stderr, "no FIEMAP under %s (%s): extents not checked\n", dir,
			x.method ? x.method : "nothing");
		close(fd);
		return;
	}
	CHECK_MSG(x.len == 1 << 20 && x.unwritten == 1 << 20 && x.holes == 0,
		  "fresh: len %llu unwritten %llu holes %llu", (unsigned long long)x.len,
		  (unsigned long long)x.unwritten, (unsigned long long)x.holes);
	memset(buf, 0x5a, sizeof(buf));
	CHECK(pwrite(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf));
	CHECK(fdatasync(fd) == 0);
	CHECK(ftruncate(fd, 2 << 20) == 0);
	CHECK(bc_extents_scan(fd, 0, 0, &x, s_range, &r) == 0);
	CHECK_MSG(x.unwritten == (1 << 20) - sizeof(buf) && x.holes == 1 << 20,
		  "written 256k, extended: unwritten %llu holes %llu",
		  (unsigned long long)x.unwritten, (unsigned long long)x.holes);
	/* the unwritten tail and the hole after it: one range */
	CHECK_MSG(r.n == 1 && r.off[0] == sizeof(buf) && r.len[0] == (2 << 20) - sizeof(buf),
		  "%d range(s), first %llu+%llu", r.n, (unsigned long long)r.off[0],
		  (unsigned long long)r.len[0]);
	/* a window inside: only what lies in it */
	CHECK(bc_extents_scan(fd, 128 << 10, 256 << 10, &x, NULL, NULL) == 0);
	CHECK(x.start == 128 << 10 && x.len == 256 << 10 && bc_extscan_unbacked(&x) == 128 << 10);
	/* written all over: nothing unbacked */
	for (off_t o = 0; o < 2 << 20; o += sizeof(buf))
		CHECK(pwrite(fd, buf, sizeof(buf), o) == (ssize_t)sizeof(buf));
	CHECK(fdatasync(fd) == 0);
	CHECK(bc_extents_scan(fd, 0, 0, &x, NULL, NULL) == 0);
	CHECK_MSG(bc_extscan_unbacked(&x) == 0, "written: %llu unbacked",
		  (unsigned long long)bc_extscan_unbacked(&x));
	close(fd);
}

static void s_live(const char *dir)
{
	struct bc_blkdev b;
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/CMakeCache.txt", dir);
	CHECK(bc_blkdev_under("", path, &b) == 0);
	if (b.found)
		CHECK_MSG(b.name[0] && strstr(b.how, " on "), "how '%s'", b.how);
	else
		CHECK_MSG(b.why[0], "neither found nor said why");
	fprintf(stderr, "%s: %s%s\n", path,
		b.found ? b.how : "not measurable: ", b.found ? "" : b.why);
	CHECK(bc_blkdev_under("", "/nonexistent/file", &b) == -ENOENT);
	/* tmpfs, where there is one */
	if (!stat("/dev/shm", &st) && S_ISDIR(st.st_mode)) {
		CHECK(bc_blkdev_under("", "/dev/shm", &b) == 0);
		if (!b.found)
			CHECK_MSG(strstr(b.why, "no block device"), "why '%s'", b.why);
	}
}

static void s_link(const char *root, const char *rel, const char *target)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	CHECK(symlink(target, p) == 0);
}

static void s_mkdirs(const char *root, const char *rel)
{
	char p[512], *s;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

/* device nodes with chosen numbers and a sysfs/procfs tree that describes them */
static void s_fixture(const char *dir)
{
	char root[512], node[600], back[600], line[256];
	struct bc_blkdev b;
	struct stat st;

	if (geteuid()) {
		fprintf(stderr, "not root: the mknod fixtures are not checked\n");
		return;
	}
	snprintf(root, sizeof(root), "%s/test_backing_root.XXXXXX", dir);
	CHECK(mkdtemp(root) != NULL);
	s_mkdirs(root, "dev");
	s_mkdirs(root, "proc/self");
	s_mkdirs(root, "sys/dev/block");
	s_mkdirs(root, "sys/devices/pci/block/sdz/sdz1");
	s_mkdirs(root, "sys/devices/virtual/block/loop9/loop");
	s_mkdirs(root, "sys/devices/virtual/block/dm-7/dm");
	s_mkdirs(root, "sys/devices/virtual/block/dm-7/slaves/sdz1");
	s_mkdirs(root, "sys/devices/virtual/block/vfake");
	bc_test_put(root, "sys/devices/pci/block/sdz/dev", "8:240\n");
	bc_test_put(root, "sys/devices/pci/block/sdz/sdz1/partition", "1\n");
	bc_test_put(root, "sys/devices/pci/block/sdz/sdz1/dev", "8:241\n");
	bc_test_put(root, "sys/devices/virtual/block/dm-7/dm/name", "vg-data\n");
	s_link(root, "sys/dev/block/8:241", "../../devices/pci/block/sdz/sdz1");
	s_link(root, "sys/dev/block/8:240", "../../devices/pci/block/sdz");
	s_link(root, "sys/dev/block/7:9", "../../devices/virtual/block/loop9");
	s_link(root, "sys/dev/block/253:7", "../../devices/virtual/block/dm-7");
	/* the loop's backing file is a real file: its real filesystem device, in the fixture */
	snprintf(back, sizeof(back), "%s/backing.img", root);
	bc_test_put(root, "backing.img", "x");
	CHECK(stat(back, &st) == 0);
	snprintf(line, sizeof(line), "sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	s_link(root, line, "../../devices/virtual/block/vfake");
	snprintf(line, sizeof(line), "%s\n", back);
	bc_test_put(root, "sys/devices/virtual/block/loop9/loop/backing_file", line);
	bc_test_put(root, "sys/devices/virtual/block/loop9/loop/dio", "0\n");
	snprintf(line, sizeof(line), "36 35 %u:%u / /x rw - ext4 /dev/vfake rw\n", major(st.st_dev),
		 minor(st.st_dev));
	bc_test_put(root, "proc/self/mountinfo", line);
	snprintf(line, sizeof(line),
		 "   8     240 sdz 1 0 8 1 0 0 0 0 0 1 1\n"
		 "   8     241 sdz1 1 0 8 1 0 0 0 0 0 1 1\n"
		 " 253       7 dm-7 1 0 8 1 0 0 0 0 0 1 1\n"
		 " %u %u vfake 1 0 8 1 0 0 0 0 0 1 1\n",
		 major(st.st_dev), minor(st.st_dev));
	bc_test_put(root, "proc/diskstats", line);

	/* a partition: its disk */
	snprintf(node, sizeof(node), "%s/dev/sdz1", root);
	CHECK(mknod(node, S_IFBLK | 0600, makedev(8, 241)) == 0);
	CHECK(bc_blkdev_under(root, node, &b) == 0);
	CHECK_MSG(b.found && !strcmp(b.name, "sdz") && b.dev == makedev(8, 240) &&
		      strstr(b.how, "sdz1, a partition of sdz"),
		  "partition: found %d name %s how '%s' why '%s'", b.found, b.name, b.how, b.why);
	/* a loop device: down to the device under its backing file, cached */
	snprintf(node, sizeof(node), "%s/dev/loop9", root);
	CHECK(mknod(node, S_IFBLK | 0600, makedev(7, 9)) == 0);
	CHECK(bc_blkdev_under(root, node, &b) == 0);
	CHECK_MSG(b.found && !strcmp(b.name, "vfake") && b.loop && b.loop_cached &&
		      !strcmp(b.loop_backing, back) && strstr(b.how, "loop9 over ") &&
		      strstr(b.how, "(direct I/O off), ext4 on vfake"),
		  "loop: found %d name %s how '%s' why '%s'", b.found, b.name, b.how, b.why);
	/* a device-mapper device: itself, its members named */
	snprintf(node, sizeof(node), "%s/dev/dm-7", root);
	CHECK(mknod(node, S_IFBLK | 0600, makedev(253, 7)) == 0);
	CHECK(bc_blkdev_under(root, node, &b) == 0);
	CHECK_MSG(b.found && !strcmp(b.name, "dm-7") &&
		      strstr(b.how, "dm-7 (vg-data, over sdz1), counted at the top of its stack"),
		  "dm: found %d name %s how '%s'", b.found, b.name, b.how);
	/* a device the kernel lists nowhere: named, not counted */
	snprintf(node, sizeof(node), "%s/dev/nolist", root);
	CHECK(mknod(node, S_IFBLK | 0600, makedev(8, 99)) == 0);
	CHECK(bc_blkdev_under(root, node, &b) == 0);
	CHECK_MSG(!b.found && strstr(b.why, "8:99"), "unlisted: why '%s'", b.why);
	snprintf(node, sizeof(node), "rm -rf '%s'", root);
	CHECK(system(node) == 0);
}

int main(void)
{
	s_extents(BC_BIN_DIR);
	s_live(BC_BIN_DIR);
	s_fixture(BC_BIN_DIR);
	TEST_DONE();
}
