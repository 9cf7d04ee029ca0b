/*
 * safety.c - the agent's PREPARE gate (see bc_safety.h): the allowlist of
 * paths, the checks that keep a write step off a device that is in use or
 * holds data, the on-disk signature probe, and the agent's config file,
 * whose main job is the allowlist.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bc_log.h"
#include "bc_safety.h"

/*
 * Signature probe windows. The head covers every superblock we know up to
 * the end of ZFS label L0 (256 KiB); the tail covers md 0.90 (up to 128 KiB
 * before the end) and ZFS labels L2/L3 (the last 512 KiB).
 */
#define S_HEAD_BYTES (256u << 10)
#define S_TAIL_BYTES (512u << 10)

/* ---- allowlist ---- */

static bool s_has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * Canonical form of a path that may not exist yet: realpath of the path, or
 * of its directory plus the last component. A dangling symlink is refused:
 * creating the file would follow it somewhere nobody allowed.
 */
static int s_canonical(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *base;
	struct stat st;

	if (realpath(path, real)) {
		if (snprintf(out, len, "%s", real) >= (int)len)
			return -ENAMETOOLONG;
		return 0;
	}
	if (errno != ENOENT)
		return -errno;
	if (!lstat(path, &st))
		return -ELOOP; /* exists as a link to nothing */
	base = strrchr(path, '/');
	if (!base || !base[1] || !strcmp(base + 1, ".") || !strcmp(base + 1, ".."))
		return -EINVAL;
	if ((size_t)(base - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(base - path));
	dir[base - path] = 0;
	if (!realpath(dir[0] ? dir : "/", real))
		return -errno;
	if (snprintf(out, len, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base + 1) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* "/a/b/x*.dat" becomes realpath("/a/b") + "/x*.dat" when /a/b exists */
static char *s_canonical_glob(const char *glob)
{
	char lead[PATH_MAX], real[PATH_MAX], *out;
	const char *g = strpbrk(glob, "*?["), *cut;
	size_t n;

	if (!g) {
		if (realpath(glob, real))
			return strdup(real);
		return strdup(glob);
	}
	/* the directory part before the first component holding a glob character */
	for (cut = g; cut > glob && *cut != '/'; cut--)
		;
	n = (size_t)(cut - glob);
	if (n == 0 || n >= sizeof(lead))
		return strdup(glob);
	memcpy(lead, glob, n);
	lead[n] = 0;
	if (!realpath(lead, real))
		return strdup(glob);
	out = malloc(strlen(real) + strlen(cut) + 1);
	if (out)
		sprintf(out, "%s%s", real, cut);
	return out;
}

int bc_safety_allow(struct bc_safety *s, const char *glob)
{
	char **grown;
	char *c;

	if (!glob || glob[0] != '/')
		return -EINVAL;
	c = s_canonical_glob(glob);
	if (!c)
		return -ENOMEM;
	grown = realloc(s->allow, (size_t)(s->nallow + 1) * sizeof(*grown));
	if (!grown) {
		free(c);
		return -ENOMEM;
	}
	s->allow = grown;
	s->allow[s->nallow++] = c;
	return 0;
}

void bc_safety_free(struct bc_safety *s)
{
	int i;

	for (i = 0; i < s->nallow; i++)
		free(s->allow[i]);
	free(s->allow);
	s->allow = NULL;
	s->nallow = 0;
}

/* path equals dir or lies below it */
static bool s_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0 || n == 1);
}

/* one allow entry against the canonical target */
static bool s_match(const char *pattern, const char *canon)
{
	size_t n = strlen(pattern);
	char real[PATH_MAX];
	glob_t g;
	size_t i;
	bool hit = false;

	if (n >= 3 && !strcmp(pattern + n - 3, "/**")) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(n - 3), pattern);
		if (!s_has_glob(dir))
			return s_below(canon, dir);
		/* a glob before the trailing stars: canon lies below a path matching it */
		for (i = 1; canon[i] && !hit; i++)
			if (canon[i] == '/') {
				snprintf(real, sizeof(real), "%.*s", (int)i, canon);
				hit = !fnmatch(dir, real, FNM_PATHNAME);
			}
		return hit || !fnmatch(dir, canon, FNM_PATHNAME);
	}
	if (!fnmatch(pattern, canon, FNM_PATHNAME))
		return true;
	/*
	 * Links among a glob's matches name their targets -- under /dev only,
	 * where only root makes links (/dev/disk/by-id/nvme-* is /dev/nvme0n1).
	 * Elsewhere whoever can write the directory could point one anywhere.
	 */
	if (strncmp(pattern, "/dev/", 5) || !s_has_glob(pattern))
		return false;
	if (glob(pattern, 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc && !hit; i++)
		hit = realpath(g.gl_pathv[i], real) && !strcmp(real, canon);
	globfree(&g);
	return hit;
}

/* absolute, and no "." or ".." component that would need the filesystem to resolve */
static bool s_lexical_ok(const char *path)
{
	const char *p = path;

	if (path[0] != '/')
		return false;
	while ((p = strchr(p, '/'))) {
		p++;
		if ((p[0] == '.' && (p[1] == '/' || !p[1])) ||
		    (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2])))
			return false;
	}
	return true;
}

int bc_safety_allowed(const struct bc_safety *s, const char *path, char *err, size_t errlen)
{
	char canon[PATH_MAX], scratch[PATH_MAX];
	int i, rc;

	rc = s_canonical(path, canon, sizeof(canon));
	/* a directory still to be made (the scratch directory): judge the words as given */
	if (rc == -ENOENT && s_lexical_ok(path) && strlen(path) < sizeof(canon)) {
		snprintf(canon, sizeof(canon), "%s", path);
		rc = 0;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s", path,
			 rc == -ELOOP ? "is a symlink to nothing; refusing to follow it"
				      : strerror(-rc));
		return -EPERM;
	}
	if (s->scratch_dir[0]) {
		if (s_canonical(s->scratch_dir, scratch, sizeof(scratch)))
			snprintf(scratch, sizeof(scratch), "%s", s->scratch_dir);
		if (s_below(canon, scratch))
			return 0;
	}
	for (i = 0; i < s->nallow; i++)
		if (s_match(s->allow[i], canon))
			return 0;
	snprintf(err, errlen,
		 "%s%s%s%s: not in this agent's allowlist (allowed: its scratch directory %s, "
		 "\"null\"%s); add it to \"allow\" in the agent's --config or start it with "
		 "--allow",
		 path, strcmp(path, canon) ? " (" : "", strcmp(path, canon) ? canon : "",
		 strcmp(path, canon) ? ")" : "", s->scratch_dir,
		 s->nallow ? " and the config's globs" : "");
	return -EPERM;
}

/* ---- signatures ---- */

static uint16_t s_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t s_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t s_le64(const uint8_t *p)
{
	return (uint64_t)s_le32(p) | (uint64_t)s_le32(p + 4) << 32;
}

/* n bytes of magic at off, within a buffer of len bytes */
static bool s_at(const uint8_t *buf, size_t len, size_t off, const void *magic, size_t n)
{
	return off + n <= len && !memcmp(buf + off, magic, n);
}

/* Linux md superblock magic (include/uapi/linux/raid/md_p.h MD_SB_MAGIC) */
#define S_MD_MAGIC 0xa92b4efcu
/* ZFS uberblock magic (uberblock_impl.h UBERBLOCK_MAGIC), either byte order */
#define S_ZFS_MAGIC 0x00bab10cull

/* ZFS: uberblock ring at 128 KiB into a 256 KiB label, 1 KiB slots at least */
static bool s_zfs_label(const uint8_t *label, size_t len)
{
	size_t off;

	for (off = 128u << 10; off + 8 <= len && off < 256u << 10; off += 1024) {
		uint64_t v = s_le64(label + off);

		if (v == S_ZFS_MAGIC || __builtin_bswap64(v) == S_ZFS_MAGIC)
			return true;
	}
	return false;
}

/* the signatures found in the head (bytes [0, hlen)) */
static bool s_head_signature(const uint8_t *h, size_t hlen, char *what, size_t len)
{
	static const size_t pages[] = {4096, 8192, 16384, 65536};
	size_t i;

	if (s_at(h, hlen, 0, "XFSB", 4)) {
		snprintf(what, len, "XFS filesystem (\"XFSB\" at byte 0)");
		return true;
	}
	/* ext2/3/4: s_magic in the superblock at 1024, sanity-checked against noise */
	if (hlen >= 2048 && s_le16(h + 1080) == 0xEF53 && s_le32(h + 1024 + 24) <= 6 &&
	    s_le32(h + 1024 + 40) != 0) {
		snprintf(what, len, "ext2/3/4 filesystem (magic 0xEF53 at byte 1080)");
		return true;
	}
	if (s_at(h, hlen, 65536 + 64, "_BHRfS_M", 8)) {
		snprintf(what, len, "btrfs filesystem (\"_BHRfS_M\" at byte 65600)");
		return true;
	}
	if (hlen >= 1028 && s_le32(h + 1024) == 0xF2F52010u) {
		snprintf(what, len, "F2FS filesystem (magic 0xF2F52010 at byte 1024)");
		return true;
	}
	for (i = 0; i < 4; i++)
		if (s_at(h, hlen, i * 512, "LABELONE", 8)) {
			snprintf(what, len, "LVM2 physical volume (\"LABELONE\" at byte %zu)",
				 i * 512);
			return true;
		}
	if (s_at(h, hlen, 0, "LUKS\xba\xbe", 6)) {
		snprintf(what, len, "LUKS encrypted volume (\"LUKS\\xba\\xbe\" at byte 0)");
		return true;
	}
	if (hlen >= 4 && s_le32(h) == S_MD_MAGIC) {
		snprintf(what, len,
			 "Linux md RAID member (superblock 1.1, magic 0xa92b4efc at byte 0)");
		return true;
	}
	if (hlen >= 4100 && s_le32(h + 4096) == S_MD_MAGIC) {
		snprintf(what, len,
			 "Linux md RAID member (superblock 1.2, magic 0xa92b4efc at byte 4096)");
		return true;
	}
	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		if (s_at(h, hlen, pages[i] - 10, "SWAPSPACE2", 10) ||
		    s_at(h, hlen, pages[i] - 10, "SWAP-SPACE", 10)) {
			snprintf(what, len, "swap area (\"SWAPSPACE2\" at byte %zu)",
				 pages[i] - 10);
			return true;
		}
	if (s_at(h, hlen, 512, "EFI PART", 8) || s_at(h, hlen, 4096, "EFI PART", 8)) {
		snprintf(what, len, "GPT partition table (\"EFI PART\" at byte %d)",
			 s_at(h, hlen, 512, "EFI PART", 8) ? 512 : 4096);
		return true;
	}
	if (s_at(h, hlen, 32769, "CD001", 5)) {
		snprintf(what, len, "ISO 9660 filesystem (\"CD001\" at byte 32769)");
		return true;
	}
	if (s_zfs_label(h, hlen)) {
		snprintf(what, len, "ZFS pool member (uberblock magic 0x00bab10c in label 0)");
		return true;
	}
	if (hlen < 512 || h[510] != 0x55 || h[511] != 0xAA)
		return false;
	if (s_at(h, hlen, 3, "NTFS    ", 8)) {
		snprintf(what, len, "NTFS filesystem (\"NTFS\" at byte 3)");
		return true;
	}
	if (s_at(h, hlen, 54, "FAT1", 4) || s_at(h, hlen, 82, "FAT32", 5)) {
		snprintf(what, len, "FAT filesystem (boot sector with 0x55AA at byte 510)");
		return true;
	}
	/* MBR: a boot flag of 0x00/0x80 and a type and a length in some entry */
	for (i = 0; i < 4; i++) {
		const uint8_t *e = h + 446 + 16 * i;

		if ((e[0] == 0 || e[0] == 0x80) && e[4] && s_le32(e + 12)) {
			snprintf(
			    what, len,
			    "MBR partition table (0x55AA at byte 510, entry %zu of type 0x%02x)",
			    i + 1, e[4]);
			return true;
		}
	}
	snprintf(what, len, "boot sector (0x55AA at byte 510)");
	return true;
}

/* the signatures found in the tail: t holds [tstart, tstart + tlen) of size bytes */
static bool s_tail_signature(const uint8_t *t, size_t tlen, uint64_t tstart, uint64_t size,
			     char *what, size_t len)
{
	uint64_t off;

	/* md 0.90: 64 KiB-aligned block, 64 KiB before the aligned end (MD_NEW_SIZE_SECTORS) */
	if (size >= (128u << 10)) {
		off = (size & ~(uint64_t)(65535)) - 65536;
		if (off >= tstart && off + 4 <= tstart + tlen &&
		    s_le32(t + (off - tstart)) == S_MD_MAGIC) {
			snprintf(what, len,
				 "Linux md RAID member (superblock 0.90, magic 0xa92b4efc at byte "
				 "%llu)",
				 (unsigned long long)off);
			return true;
		}
	}
	/* md 1.0: 8 KiB before the end, 4 KiB aligned (mdadm super1.c) */
	if (size >= (16u << 10)) {
		off = (((size >> 9) - 16) & ~(uint64_t)7) << 9;
		if (off >= tstart && off + 4 <= tstart + tlen &&
		    s_le32(t + (off - tstart)) == S_MD_MAGIC) {
			snprintf(what, len,
				 "Linux md RAID member (superblock 1.0, magic 0xa92b4efc at byte "
				 "%llu)",
				 (unsigned long long)off);
			return true;
		}
	}
	/* ZFS labels L2 and L3: the last two 256 KiB blocks of the aligned size */
	if (size >= (1u << 20)) {
		uint64_t end = size & ~(uint64_t)((256u << 10) - 1), l;

		for (l = end - (512u << 10); l < end; l += 256u << 10)
			if (l >= tstart && l + (256u << 10) <= tstart + tlen &&
			    s_zfs_label(t + (l - tstart), 256u << 10)) {
				snprintf(what, len,
					 "ZFS pool member (uberblock magic 0x00bab10c in a label "
					 "at byte %llu)",
					 (unsigned long long)l);
				return true;
			}
	}
	return false;
}

static ssize_t s_pread_full(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int bc_safety_signature(int fd, uint64_t size_bytes, char *what, size_t len)
{
	size_t hlen = size_bytes < S_HEAD_BYTES ? (size_t)size_bytes : S_HEAD_BYTES;
	size_t tlen = size_bytes < S_TAIL_BYTES ? (size_t)size_bytes : S_TAIL_BYTES;
	uint8_t *buf = malloc(S_HEAD_BYTES > S_TAIL_BYTES ? S_HEAD_BYTES : S_TAIL_BYTES);
	ssize_t n;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	n = s_pread_full(fd, buf, hlen, 0);
	if (n < 0) {
		rc = (int)n;
		goto out;
	}
	if (s_head_signature(buf, (size_t)n, what, len)) {
		rc = 1;
		goto out;
	}
	n = s_pread_full(fd, buf, tlen, size_bytes - tlen);
	if (n < 0) {
		rc = (int)n;
		goto out;
	}
	rc = s_tail_signature(buf, (size_t)n, size_bytes - tlen, size_bytes, what, len) ? 1 : 0;
out:
	free(buf);
	return rc;
}

/* ---- devices in use ---- */

/* undo mountinfo's octal escapes (\040 for a space) in place */
static void s_unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
}

int bc_safety_mounted(const char *mountinfo, unsigned long dev, char *where, size_t len)
{
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok, *mnt = NULL, *fstype = NULL, *source = NULL;
		unsigned int maj, min;
		int field = 0;
		bool dash = false, hit = false;
		struct stat st;

		for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			if (field == 2 && sscanf(tok, "%u:%u", &maj, &min) == 2)
				hit = makedev(maj, min) == dev;
			else if (field == 4)
				mnt = tok;
			else if (!dash && field > 5 && !strcmp(tok, "-"))
				dash = true;
			else if (dash && !fstype)
				fstype = tok;
			else if (dash && !source)
				source = tok;
			field++;
		}
		/* btrfs and friends show an anonymous device number; the source names the disk */
		if (!hit && source && !strncmp(source, "/dev/", 5)) {
			s_unescape(source);
			hit = !stat(source, &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev;
		}
		if (hit && mnt) {
			s_unescape(mnt);
			snprintf(where, len, "on %s (%s)", mnt, fstype ? fstype : "?");
			rc = 1;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

/* the device or file is an active swap area (/proc/swaps) */
static bool s_swap(const struct stat *target)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[PATH_MAX + 128], path[PATH_MAX];
	struct stat st;
	bool hit = false;

	if (!f)
		return false;
	while (!hit && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", path) != 1 || path[0] != '/')
			continue;
		s_unescape(path);
		if (stat(path, &st))
			continue;
		if (S_ISBLK(target->st_mode))
			hit = S_ISBLK(st.st_mode) && st.st_rdev == target->st_rdev;
		else
			hit = st.st_dev == target->st_dev && st.st_ino == target->st_ino;
	}
	fclose(f);
	return hit;
}

/* names of the entries of /sys/dev/block/M:m/<sub> ("holders") or its partitions */
static int s_sys_list(dev_t dev, bool partitions, char *out, size_t len)
{
	char dir[128], p[512];
	struct dirent *d;
	DIR *dp;
	int n = 0;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u%s", major(dev), minor(dev),
		 partitions ? "" : "/holders");
	out[0] = 0;
	dp = opendir(dir);
	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (partitions) {
			snprintf(p, sizeof(p), "%s/%s/partition", dir, d->d_name);
			if (access(p, F_OK))
				continue;
		}
		if (strlen(out) + strlen(d->d_name) + 3 < len)
			snprintf(out + strlen(out), len - strlen(out), "%s%s", n ? ", " : "",
				 d->d_name);
		n++;
	}
	closedir(dp);
	return n;
}

static const char s_how_destroy[] =
    "to destroy its contents, set \"destructive\": true for the volume in the profile and "
    "start the agent with --allow-destructive";

/* the overridable refusal: what is missing for the override, said precisely */
static int s_refuse(const struct bc_safety *s, const char *path, bool destructive,
		    const char *reason, char *err, size_t errlen)
{
	if (destructive && s->allow_destructive) {
		bc_warn("%s: %s; writing anyway (\"destructive\" in the profile, "
			"--allow-destructive on this agent)",
			path, reason);
		return 0;
	}
	if (destructive)
		snprintf(err, errlen,
			 "refusing to write to %s: %s; the profile marks it destructive but this "
			 "agent was not started with --allow-destructive",
			 path, reason);
	else if (s->allow_destructive)
		snprintf(err, errlen,
			 "refusing to write to %s: %s; this agent allows destruction but the "
			 "profile does not mark the volume \"destructive\": true",
			 path, reason);
	else
		snprintf(err, errlen, "refusing to write to %s: %s; %s", path, reason,
			 s_how_destroy);
	return -EPERM;
}

static int s_check_block(const struct bc_safety *s, const char *path, const struct stat *st,
			 bool destructive, char *err, size_t errlen)
{
	char what[256], list[192];
	uint64_t size = 0;
	int fd, rc, n;

	rc = bc_safety_mounted("/proc/self/mountinfo", st->st_rdev, what, sizeof(what));
	if (rc > 0) {
		snprintf(
		    err, errlen,
		    "refusing to write to %s: mounted %s; writes to a mounted device are never "
		    "allowed, even with \"destructive\" -- unmount it first",
		    path, what);
		return -EBUSY;
	}
	if (s_swap(st)) {
		snprintf(err, errlen,
			 "refusing to write to %s: it is an active swap area; swapoff it first",
			 path);
		return -EBUSY;
	}
	n = s_sys_list(st->st_rdev, false, list, sizeof(list));
	if (n) {
		snprintf(what, sizeof(what),
			 "has holders (%s: device-mapper, LVM, md or bcache "
			 "use it)",
			 list);
		return s_refuse(s, path, destructive, what, err, errlen);
	}
	n = s_sys_list(st->st_rdev, true, list, sizeof(list));
	if (n) {
		snprintf(what, sizeof(what), "has partitions (%s)", list);
		return s_refuse(s, path, destructive, what, err, errlen);
	}
	/* what the target's own O_EXCL open would meet: say it here, with the reason */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc != -EBUSY)
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(-rc));
		else
			snprintf(err, errlen,
				 "refusing to write to %s: it cannot be opened exclusively (busy: "
				 "mounted in another mount namespace, or claimed by the kernel or "
				 "another program); writes to a busy device are never allowed",
				 path);
		return rc;
	}
	size = (uint64_t)lseek(fd, 0, SEEK_END);
	rc = bc_safety_signature(fd, size, what, sizeof(what));
	if (rc < 0) {
		snprintf(err, errlen, "cannot read %s to look for signatures: %s", path,
			 strerror(-rc));
		close(fd);
		return rc;
	}
	if (rc > 0) {
		char reason[300];

		snprintf(reason, sizeof(reason), "carries a signature: %s", what);
		rc = s_refuse(s, path, destructive, reason, err, errlen);
	}
	/* closed before the target opens it O_EXCL: a second claim would fail */
	close(fd);
	return rc;
}

/*
 * /dev/ngXnY bypasses the block layer (no mount check, no exclusive claim):
 * its writes pass the checks of the namespace's block device /dev/nvmeXnY,
 * and without one they are refused (docs/nvme.md). Other char devices: 0.
 */
static int s_check_nvme_char(const struct bc_safety *s, const char *path, bool destructive,
			     char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char bpath[PATH_MAX];
	unsigned c, n;
	struct stat st;
	int end = -1;

	/* the name parse of bc_nvme_name_parse, local: the fuzz build links safety.c alone */
	if (sscanf(base, "ng%un%u%n", &c, &n, &end) != 2 || end < 0 || base[end])
		return 0;
	snprintf(bpath, sizeof(bpath), "%.*snvme%un%u", (int)(base - path), path, c, n);
	if (stat(bpath, &st) || !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen,
			 "refusing to write to %s: its block device %s is missing, and the "
			 "safety checks need it",
			 path, bpath);
		return -EPERM;
	}
	return s_check_block(s, bpath, &st, destructive, err, errlen);
}

int bc_safety_check(const struct bc_safety *s, const char *path, bool writes, bool destructive,
		    char *err, size_t errlen)
{
	static const struct bc_safety none; /* no policy given: nothing but names without files */
	struct stat st;
	int rc;

	if (!s)
		s = &none;
	rc = bc_safety_allowed(s, path, err, errlen);
	if (rc || !writes)
		return rc;
	if (stat(path, &st))
		return 0;
	if (s_swap(&st)) {
		snprintf(err, errlen,
			 "refusing to write to %s: it is an active swap area; swapoff it first",
			 path);
		return -EBUSY;
	}
	if (S_ISCHR(st.st_mode))
		return s_check_nvme_char(s, path, destructive, err, errlen);
	if (!S_ISBLK(st.st_mode))
		return 0;
	return s_check_block(s, path, &st, destructive, err, errlen);
}

/* ---- config file ---- */

static int s_cfg_str(const cJSON *v, const char *src, const char *key, char **dst, char *err,
		     size_t errlen)
{
	if (!cJSON_IsString(v) || !v->valuestring[0]) {
		snprintf(err, errlen, "%s: %s: expected a non-empty string", src, key);
		return -EINVAL;
	}
	free(*dst);
	*dst = strdup(v->valuestring);
	return *dst ? 0 : -ENOMEM;
}

int bc_agent_config_parse(const char *text, const char *src, struct bc_safety *s,
			  struct bc_agent_config *cfg, char *err, size_t errlen)
{
	cJSON *root = cJSON_Parse(text), *v;
	int i, rc = 0;

	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "%s: %s", src,
			 root ? "expected a JSON object" : "not valid JSON");
		rc = -EINVAL;
		goto out;
	}
	cJSON_ArrayForEach(v, root)
	{
		const char *k = v->string;

		if (!strcmp(k, "allow")) {
			const cJSON *g;

			if (!cJSON_IsArray(v)) {
				snprintf(err, errlen,
					 "%s: allow: expected an array of absolute paths "
					 "or globs",
					 src);
				rc = -EINVAL;
				goto out;
			}
			i = 0;
			cJSON_ArrayForEach(g, v)
			{
				if (!cJSON_IsString(g) || g->valuestring[0] != '/') {
					char *shown = cJSON_PrintUnformatted(g);

					snprintf(
					    err, errlen,
					    "%s: allow[%d]: expected an absolute path or glob, "
					    "got %.60s",
					    src, i, shown ? shown : "?");
					cJSON_free(shown);
					rc = -EINVAL;
					goto out;
				}
				rc = bc_safety_allow(s, g->valuestring);
				if (rc)
					goto out;
				i++;
			}
		} else if (!strcmp(k, "listen")) {
			rc = s_cfg_str(v, src, k, &cfg->listen, err, errlen);
		} else if (!strcmp(k, "scratch_dir")) {
			rc = s_cfg_str(v, src, k, &cfg->scratch_dir, err, errlen);
		} else if (!strcmp(k, "cert")) {
			rc = s_cfg_str(v, src, k, &cfg->cert, err, errlen);
		} else if (!strcmp(k, "authorized_keys")) {
			rc = s_cfg_str(v, src, k, &cfg->authorized_keys, err, errlen);
		} else if (!strcmp(k, "key_announce")) {
			rc = s_cfg_str(v, src, k, &cfg->key_announce, err, errlen);
		} else {
			/* destruction and plain text are command-line decisions, on purpose */
			snprintf(err, errlen,
				 "%s: %s: unknown key (known: allow, listen, scratch_dir, cert, "
				 "authorized_keys, key_announce)",
				 src, k);
			rc = -EINVAL;
		}
		if (rc)
			goto out;
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src);
	cJSON_Delete(root);
	return rc;
}

int bc_agent_config_load(const char *path, struct bc_safety *s, struct bc_agent_config *cfg,
			 char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot read config '%s': %s", path, strerror(-rc));
		return rc;
	}
	/* the config is one small object: read it whole, NUL-terminated */
	n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		snprintf(err, errlen, "%s: empty file", path);
		return -EINVAL;
	}
	rc = bc_agent_config_parse(text, path, s, cfg, err, errlen);
	free(text);
	return rc;
}

void bc_agent_config_free(struct bc_agent_config *cfg)
{
	free(cfg->listen);
	free(cfg->scratch_dir);
	free(cfg->cert);
	free(cfg->authorized_keys);
	free(cfg->key_announce);
	memset(cfg, 0, sizeof(*cfg));
}
