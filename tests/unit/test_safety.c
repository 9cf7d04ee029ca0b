/* test_safety: the agent's PREPARE gate: on-disk signatures found in crafted images (and real
 * mkfs/mkswap output), the allowlist (globs, subtrees, symlinks, ".."), the config file's errors,
 * mountinfo parsing, and a partitioned loop device refused for writes */
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
#include "safety/signature.h"
#include "session/config.h"
#include "target/target.h"
#include "bc_test.h"

static char s_dir[] = "/var/tmp/bc-test-safety-XXXXXX";

/* a size-byte image with n bytes of magic at off (or none when magic is NULL) */
static int s_image(const char *name, uint64_t size, uint64_t off, const void *magic, size_t n)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", s_dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)size))
		SKIP("cannot create %s", path);
	if (magic && pwrite(fd, magic, n, (off_t)off) != (ssize_t)n)
		SKIP("cannot write %s", path);
	return fd;
}

/* the signature found in fd, "" when none */
static const char *s_sig(int fd, uint64_t size)
{
	static char what[256];
	int rc = bc_safety_signature(fd, size, what, sizeof(what));

	if (rc < 0)
		snprintf(what, sizeof(what), "error %d", rc);
	else if (!rc)
		what[0] = 0;
	close(fd);
	return what;
}

#define EXPECT_SIG(fd, size, needle)                                                               \
	do {                                                                                       \
		const char *w_ = s_sig(fd, size);                                                  \
		CHECK_MSG(strstr(w_, needle) != NULL && (*(needle) || !*w_),                       \
			  "expected '%s', got '%s'", needle, w_);                                  \
	} while (0)

static void test_signatures(void)
{
	const uint64_t M = 1 << 20;
	uint8_t ext[64] = {0}, mbr[512] = {0}, fat[512] = {0};
	const uint32_t md = 0xa92b4efc, zfs_le[2] = {0x00bab10c, 0};
	int fd;

	EXPECT_SIG(s_image("blank", M, 0, NULL, 0), M, "");
	/* ext: s_magic at 1080, with a sane block size and inodes per group */
	ext[24] = 2;  /* s_log_block_size: 4 KiB */
	ext[40] = 16; /* s_inodes_per_group */
	ext[56] = 0x53;
	ext[57] = 0xEF;
	EXPECT_SIG(s_image("ext4", M, 1024, ext, sizeof(ext)), M, "ext2/3/4");
	ext[24] = 200; /* noise with the right two bytes is not a filesystem */
	EXPECT_SIG(s_image("ext-noise", M, 1024, ext, sizeof(ext)), M, "");
	EXPECT_SIG(s_image("xfs", M, 0, "XFSB", 4), M, "XFS");
	EXPECT_SIG(s_image("btrfs", M, 65536 + 64, "_BHRfS_M", 8), M, "btrfs");
	EXPECT_SIG(s_image("lvm", M, 512, "LABELONE", 8), M, "LVM2");
	EXPECT_SIG(s_image("luks", M, 0, "LUKS\xba\xbe", 6), M, "LUKS");
	EXPECT_SIG(s_image("md11", M, 0, &md, 4), M, "superblock 1.1");
	EXPECT_SIG(s_image("md12", M, 4096, &md, 4), M, "superblock 1.2");
	/* md 0.90: 64 KiB below the 64 KiB-aligned end; 1.0: 8 KiB below the end, 4 KiB aligned */
	EXPECT_SIG(s_image("md090", M + 4096, M - 65536, &md, 4), M + 4096, "superblock 0.90");
	EXPECT_SIG(s_image("md10", M, M - 8192, &md, 4), M, "superblock 1.0");
	EXPECT_SIG(s_image("gpt", M, 512, "EFI PART", 8), M, "GPT");
	EXPECT_SIG(s_image("gpt4k", M, 4096, "EFI PART", 8), M, "GPT");
	EXPECT_SIG(s_image("swap", M, 4096 - 10, "SWAPSPACE2", 10), M, "swap");
	EXPECT_SIG(s_image("iso", M, 32769, "CD001", 5), M, "ISO 9660");
	EXPECT_SIG(s_image("zfs", M, 128 << 10, zfs_le, 8), M, "ZFS");
	EXPECT_SIG(s_image("zfs-l2", 4 * M, 4 * M - (512 << 10) + (128 << 10), zfs_le, 8), 4 * M,
		   "ZFS");
	/* MBR: an entry with a type and a length; FAT: its boot sector names itself */
	mbr[446 + 4] = 0x83;
	mbr[446 + 12] = 0x00;
	mbr[446 + 13] = 0x08;
	mbr[510] = 0x55;
	mbr[511] = 0xAA;
	EXPECT_SIG(s_image("mbr", M, 0, mbr, sizeof(mbr)), M, "MBR partition table");
	memcpy(fat + 82, "FAT32   ", 8);
	fat[510] = 0x55;
	fat[511] = 0xAA;
	EXPECT_SIG(s_image("fat", M, 0, fat, sizeof(fat)), M, "FAT");
	EXPECT_SIG(s_image("bootsig", M, 510, "\x55\xaa", 2), M, "boot sector");
	/* an image smaller than the probe windows is read as far as it goes */
	EXPECT_SIG(s_image("tiny", 700, 0, "XFSB", 4), 700, "XFS");
	fd = s_image("tiny-blank", 100, 0, NULL, 0);
	EXPECT_SIG(fd, 100, "");
}

/* the same, from the real tools when they are installed */
static void test_real_tools(void)
{
	char cmd[512], path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/real-ext4.img", s_dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 8M %s && mkfs.ext4 -q -F %s >/dev/null 2>&1", path,
		 path);
	if (!system(cmd)) {
		fd = open(path, O_RDONLY);
		EXPECT_SIG(fd, 8 << 20, "ext2/3/4");
	} else {
		printf("skip mkfs.ext4 check: not installed\n");
	}
	snprintf(path, sizeof(path), "%s/real-swap.img", s_dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 8M %s && mkswap %s >/dev/null 2>&1", path, path);
	if (!system(cmd)) {
		fd = open(path, O_RDONLY);
		EXPECT_SIG(fd, 8 << 20, "swap");
	} else {
		printf("skip mkswap check: not installed\n");
	}
}

/* whether dir + "/" + rel is allowed */
static int s_allowed(const struct bc_safety *s, const char *dir, const char *rel)
{
	char path[512], err[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return bc_safety_allowed(s, path, err, sizeof(err));
}

static void test_allowlist(void)
{
	struct bc_safety s = {0};
	char p[512], q[512], err[1024];
	int fd;

	snprintf(s.scratch_dir, sizeof(s.scratch_dir), "%s/scratch", s_dir);
	/* the scratch directory need not exist yet */
	CHECK(s_allowed(&s, s_dir, "scratch/v.dat") == 0);
	CHECK(s_allowed(&s, s_dir, "scratch/../outside.dat") == -EPERM);
	/* names with nothing behind them pass no rule: their targets declare none */
	CHECK(bc_target_safety("null") == 0 && bc_target_safety("sim:a") == 0);
	CHECK(bc_target_safety("/etc/passwd") == (BC_TSAFE_ALLOWLIST | BC_TSAFE_DEVICE));
	CHECK(bc_safety_allowed(&s, "/etc/passwd", err, sizeof(err)) == -EPERM);
	CHECK_MSG(strstr(err, "/etc/passwd") && strstr(err, "allowlist") && strstr(err, "--allow"),
		  "message: %s", err);

	snprintf(p, sizeof(p), "%s/data", s_dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/data/sub", s_dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/data/*.dat", s_dir);
	CHECK(bc_safety_allow(&s, p) == 0);
	CHECK(bc_safety_allow(&s, "relative/*.dat") == -EINVAL);
	CHECK(s_allowed(&s, s_dir, "data/new.dat") == 0);
	CHECK(s_allowed(&s, s_dir, "data/new.img") == -EPERM);
	CHECK(s_allowed(&s, s_dir, "data/sub/new.dat") == -EPERM); /* '*' stays in one dir */
	CHECK(s_allowed(&s, s_dir, "data/sub/../new.dat") == 0);
	/* a link in an allowed directory does not lead elsewhere */
	snprintf(p, sizeof(p), "%s/data/escape.dat", s_dir);
	CHECK(symlink("/etc/passwd", p) == 0);
	CHECK(bc_safety_allowed(&s, p, err, sizeof(err)) == -EPERM);
	CHECK_MSG(strstr(err, "(/etc/passwd)") != NULL, "message: %s", err);
	snprintf(p, sizeof(p), "%s/data/dangling.dat", s_dir);
	CHECK(symlink("/nonexistent-bc-dir/x", p) == 0);
	CHECK(bc_safety_allowed(&s, p, err, sizeof(err)) == -EPERM);
	CHECK_MSG(strstr(err, "symlink to nothing") != NULL, "message: %s", err);

	/* a subtree */
	snprintf(p, sizeof(p), "%s/tree/**", s_dir);
	CHECK(bc_safety_allow(&s, p) == 0);
	snprintf(p, sizeof(p), "%s/tree/a/b", s_dir);
	CHECK(system("true") == 0);
	snprintf(q, sizeof(q), "mkdir -p %s", p);
	CHECK(system(q) == 0);
	CHECK(s_allowed(&s, s_dir, "tree/a/b/c.dat") == 0);
	CHECK(s_allowed(&s, s_dir, "tree") == 0);
	CHECK(s_allowed(&s, s_dir, "treetop/x") == -EPERM);

	/*
	 * Outside /dev a glob's links are not followed (anyone who can write
	 * the directory could point one anywhere); an entry that is itself a
	 * link is resolved once, when it is added.
	 */
	snprintf(p, sizeof(p), "%s/real.img", s_dir);
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	close(fd);
	snprintf(q, sizeof(q), "%s/byid", s_dir);
	mkdir(q, 0755);
	snprintf(q, sizeof(q), "%s/byid/disk-1", s_dir);
	CHECK(symlink(p, q) == 0);
	snprintf(q, sizeof(q), "%s/byid/disk-*", s_dir);
	CHECK(bc_safety_allow(&s, q) == 0);
	CHECK(s_allowed(&s, s_dir, "real.img") == -EPERM);
	CHECK(s_allowed(&s, s_dir, "byid/disk-1") == -EPERM);
	snprintf(q, sizeof(q), "%s/byid/disk-1", s_dir);
	CHECK(bc_safety_allow(&s, q) == 0);
	CHECK(s_allowed(&s, s_dir, "real.img") == 0);
	CHECK(s_allowed(&s, s_dir, "byid/disk-1") == 0);

	/* writes to an allowed regular file pass without a device claim */
	CHECK(bc_safety_check(&s, p, true, false, err, sizeof(err)) == 0);
	CHECK(bc_safety_check(&s, "/etc/passwd", false, false, err, sizeof(err)) == -EPERM);
	/* "null" is not a file: the gate itself would refuse it, its target asks for no gate */
	CHECK(bc_safety_check(NULL, "null", true, false, err, sizeof(err)) == -EPERM);
	bc_safety_free(&s);
}

static void test_config(void)
{
	struct bc_safety s = {0};
	struct bc_agent_config cfg = {0};
	char err[1024];

	CHECK(bc_agent_config_parse("{\"allow\": [\"/dev/nvme*n1\", \"/var/tmp/bench/**\"], "
				    "\"listen\": \"tcp://*:7470\", \"cert\": \"/etc/a.cert\"}",
				    "a.json", &s, &cfg, err, sizeof(err)) == 0);
	CHECK(s.nallow == 2 && !strcmp(s.allow[0], "/dev/nvme*n1"));
	CHECK(cfg.listen && !strcmp(cfg.listen, "tcp://*:7470") && !cfg.scratch_dir);
	CHECK(cfg.cert && !strcmp(cfg.cert, "/etc/a.cert"));
	bc_agent_config_free(&cfg);
	bc_safety_free(&s);

	CHECK(bc_agent_config_parse("{\"allow\": [\"/a\", \"b/*\"]}", "a.json", &s, &cfg, err,
				    sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "a.json: allow[1]: expected an absolute path") != NULL, "%s", err);
	bc_safety_free(&s);
	CHECK(bc_agent_config_parse("{\"allow_destructive\": true}", "a.json", &s, &cfg, err,
				    sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "a.json: allow_destructive: unknown key") != NULL, "%s", err);
	CHECK(bc_agent_config_parse("{\"listen\": 3}", "a.json", &s, &cfg, err, sizeof(err)) ==
	      -EINVAL);
	CHECK_MSG(strstr(err, "a.json: listen: expected a non-empty string") != NULL, "%s", err);
	CHECK(bc_agent_config_parse("{\"allow\": [", "a.json", &s, &cfg, err, sizeof(err)) ==
	      -EINVAL);
	CHECK_MSG(strstr(err, "not valid JSON") != NULL, "%s", err);
	bc_agent_config_free(&cfg);
	bc_safety_free(&s);
}

static void test_mountinfo(void)
{
	char path[256], where[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/mountinfo", s_dir);
	f = fopen(path, "w");
	fprintf(f,
		"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		"98 27 7:3 / /mnt/with\\040space rw,relatime shared:9 master:1 - ext4 /dev/loop3 "
		"rw\n");
	fclose(f);
	CHECK(bc_safety_mounted(path, makedev(7, 3), where, sizeof(where)) == 1);
	CHECK_MSG(!strcmp(where, "on /mnt/with space (ext4)"), "where: %s", where);
	CHECK(bc_safety_mounted(path, makedev(7, 4), where, sizeof(where)) == 0);
	CHECK(bc_safety_mounted("/nonexistent-bc", makedev(7, 4), where, sizeof(where)) == -ENOENT);
}

/* a loop device with a partition table: "has partitions" (root only) */
static void test_partitioned_loop(void)
{
	struct bc_safety s = {0};
	char img[256], cmd[600], dev[64] = "", err[1024];
	uint8_t mbr[512] = {0};
	FILE *p;
	int fd, rc, parts;

	snprintf(img, sizeof(img), "%s/parted.img", s_dir);
	mbr[446 + 4] = 0x83;
	mbr[446 + 9] = 0x08;  /* first sector 2048 */
	mbr[446 + 13] = 0x08; /* 2048 sectors */
	mbr[510] = 0x55;
	mbr[511] = 0xAA;
	close(s_image("parted.img", 8 << 20, 0, mbr, sizeof(mbr)));
	snprintf(cmd, sizeof(cmd), "losetup -f --show -P %s 2>/dev/null", img);
	p = popen(cmd, "r");
	if (!p || !fgets(dev, sizeof(dev), p) || pclose(p) || !dev[0]) {
		printf("skip partitioned loop device check: losetup failed (not root?)\n");
		return;
	}
	dev[strcspn(dev, "\n")] = 0;
	usleep(300 * 1000); /* the kernel adds the partition asynchronously */
	snprintf(cmd, sizeof(cmd), "/sys/class/block/%sp1", strrchr(dev, '/') + 1);
	parts = !access(cmd, F_OK);
	CHECK(bc_safety_allow(&s, dev) == 0);
	rc = bc_safety_check(&s, dev, true, false, err, sizeof(err));
	/* a kernel without MBR partition support shows no partition: the table still refuses */
	if (!parts)
		printf("note: the kernel made no partition device for %s; checking the table\n",
		       dev);
	CHECK_MSG(rc == -EPERM && strstr(err, dev) &&
		      strstr(err, parts ? "has partitions" : "MBR partition table"),
		  "%d: %s", rc, err);
	/* reads are fine on an allowed device */
	CHECK(bc_safety_check(&s, dev, false, false, err, sizeof(err)) == 0);
	/* both consents: allowed */
	s.allow_destructive = true;
	rc = bc_safety_check(&s, dev, true, true, err, sizeof(err));
	CHECK_MSG(rc == 0, "%d: %s", rc, err);
	/* a device someone holds O_EXCL is never written, whatever the consent */
	fd = open(dev, O_RDONLY | O_EXCL);
	rc = bc_safety_check(&s, dev, true, true, err, sizeof(err));
	CHECK_MSG(fd >= 0 && rc == -EBUSY && strstr(err, "cannot be opened exclusively"), "%d: %s",
		  rc, err);
	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -d %s", dev);
	CHECK(system(cmd) == 0);
	bc_safety_free(&s);
}

int main(void)
{
	char cmd[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(s_dir))
		SKIP("cannot create a temp dir");
	test_signatures();
	test_real_tools();
	test_allowlist();
	test_config();
	test_mountinfo();
	test_partitioned_loop();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", s_dir);
	CHECK(system(cmd) == 0);
	TEST_DONE();
}
