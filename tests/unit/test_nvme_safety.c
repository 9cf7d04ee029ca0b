/*
 * test_nvme_safety.c - writes to an NVMe generic char device (ngXnY) pass the
 * block-device checks of its nvmeXnY, and are refused without one. Stand-ins:
 * a char node named ng0n1 (the major/minor of /dev/null) and a block node
 * named nvme0n1 pointing at a loop device. Root only (mknod, losetup), else
 * skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "safety/allowlist.h"
#include "safety/safety.h"
#include "bc_test.h"

static char s_dir[] = "/tmp/bc-nvme-safety-XXXXXX";

/* a loop device over an 8 MiB image whose first sector is head (NULL: zeros) */
static int s_loop(const char *name, const uint8_t *head, char *dev, size_t len)
{
	char img[256], cmd[600];
	FILE *p;
	int fd;

	snprintf(img, sizeof(img), "%s/%s", s_dir, name);
	fd = open(img, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 8 << 20) || (head && pwrite(fd, head, 512, 0) != 512)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null", img);
	p = popen(cmd, "r");
	if (!p || !fgets(dev, (int)len, p) || pclose(p) || !dev[0])
		return -1;
	dev[strcspn(dev, "\n")] = 0;
	return 0;
}

static void s_unloop(const char *dev)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "losetup -d %s", dev);
	if (system(cmd))
		fprintf(stderr, "note: %s failed\n", cmd);
}

int main(void)
{
	struct bc_safety s = {0};
	char ng[300], blk[300], dev[64] = "", dev2[64] = "", err[1024], cmd[400];
	uint8_t mbr[512] = {0};
	struct stat st;
	int rc;

	if (geteuid())
		SKIP("needs root for mknod and losetup");
	if (!mkdtemp(s_dir))
		SKIP("mkdtemp: %s", strerror(errno));
	/* the directory stands for /dev: device nodes are used nowhere else */
	snprintf(s.dev_dir, sizeof(s.dev_dir), "%s", s_dir);
	snprintf(ng, sizeof(ng), "%s/ng0n1", s_dir);
	snprintf(blk, sizeof(blk), "%s/nvme0n1", s_dir);
	if (mknod(ng, S_IFCHR | 0600, makedev(1, 3)))
		SKIP("mknod: %s", strerror(errno));
	CHECK(bc_safety_allow(&s, ng) == 0);

	/* no block device beside it: refused, reads still fine */
	rc = bc_safety_check(&s, ng, true, false, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "nvme0n1") && strstr(err, "missing"), "%d: %s", rc,
		  err);
	CHECK(bc_safety_check(&s, ng, false, false, err, sizeof(err)) == 0);

	if (s_loop("blank.img", NULL, dev, sizeof(dev))) {
		printf("skip the block-device half: losetup failed\n");
		goto out;
	}
	/* a blank device behind nvme0n1: the checks run on it and pass */
	CHECK(stat(dev, &st) == 0);
	CHECK(mknod(blk, S_IFBLK | 0600, st.st_rdev) == 0);
	rc = bc_safety_check(&s, ng, true, false, err, sizeof(err));
	CHECK_MSG(rc == 0, "%d: %s", rc, err);
	unlink(blk);

	/* an MBR behind nvme0n1: refused, naming the block device */
	mbr[446 + 4] = 0x83;
	mbr[446 + 9] = 0x08;
	mbr[446 + 13] = 0x08;
	mbr[510] = 0x55;
	mbr[511] = 0xAA;
	if (!s_loop("mbr.img", mbr, dev2, sizeof(dev2))) {
		CHECK(stat(dev2, &st) == 0);
		CHECK(mknod(blk, S_IFBLK | 0600, st.st_rdev) == 0);
		rc = bc_safety_check(&s, ng, true, false, err, sizeof(err));
		CHECK_MSG(rc == -EPERM && strstr(err, blk), "%d: %s", rc, err);
		s_unloop(dev2);
	}
	s_unloop(dev);
out:
	bc_safety_free(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_dir);
	CHECK(system(cmd) == 0);
	TEST_DONE();
}
