/*
 * blkdev.c - the block device under a volume: stat, /proc/self/mountinfo for
 * a filesystem without a device number of its own (btrfs, tmpfs, NFS), and
 * /sys/dev/block/MAJ:MIN for partitions, loop devices and stacks.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "host/blkdev.h"
#include "host/diskstats.h"

#define S_HOPS 8 /* loop over a file on another loop...: a bound, not a real depth */

/* first line of root/rel into buf, newline dropped; 0 or -errno */
static int s_line(const char *root, const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	bool ok;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -ENODATA;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static bool s_exists(const char *root, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	return !access(p, F_OK);
}

/* append to the way down */
static void s_add(struct bc_blkdev *o, const char *text)
{
	size_t used = strlen(o->how);

	if (used < sizeof(o->how))
		snprintf(o->how + used, sizeof(o->how) - used, "%s", text);
}

/* the filesystem mounted from device number d: its type and source; 0 or -ENOENT */
static int s_mount_of(const char *root, dev_t d, char *fstype, size_t flen, char *src, size_t slen)
{
	char p[PATH_MAX], line[4096];
	FILE *f;
	int rc = -ENOENT;

	snprintf(p, sizeof(p), "%s/proc/self/mountinfo", root);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned maj, mnr;
		char *dash, t[64], s[256];

		/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue"
		 */
		if (sscanf(line, "%*u %*u %u:%u", &maj, &mnr) != 2 || maj != major(d) ||
		    mnr != minor(d))
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash + 3, "%63s %255s", t, s) != 2)
			continue;
		snprintf(fstype, flen, "%s", t);
		snprintf(src, slen, "%s", s);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

/* "dm-0" -> " (vg-lv, over nvme0n1p2 sda1)" from dm/name and slaves/ */
static void s_stack(const char *root, const char *sysrel, char *buf, size_t len)
{
	char p[PATH_MAX], name[128] = "";
	struct dirent *e;
	size_t used;
	DIR *d;
	int n = 0;

	snprintf(p, sizeof(p), "%s/dm/name", sysrel);
	if (s_line(root, p, name, sizeof(name)))
		name[0] = 0;
	snprintf(buf, len, " (%s%sover", name, name[0] ? ", " : "");
	snprintf(p, sizeof(p), "%s%s/slaves", root, sysrel);
	d = opendir(p);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		used = strlen(buf);
		if (used < len)
			snprintf(buf + used, len - used, " %s", e->d_name);
		n++;
	}
	if (d)
		closedir(d);
	used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s)", n ? "" : " no member listed");
}

int bc_blkdev_under(const char *root, const char *path, struct bc_blkdev *o)
{
	char cur[PATH_MAX], sysrel[PATH_MAX], sysabs[PATH_MAX], real[PATH_MAX], buf[PATH_MAX];
	char disk[PATH_MAX]; /* a partition's disk: name points into it, so not in the branch */
	int hop;

	memset(o, 0, sizeof(*o));
	snprintf(cur, sizeof(cur), "%s", path);
	for (hop = 0; hop < S_HOPS; hop++) {
		struct stat st;
		const char *name;
		char fstype[64] = "", src[256] = "";
		struct bc_diskstat ds;
		dev_t d;

		if (stat(cur, &st) && !hop)
			return -errno;
		if (hop && stat(cur, &st)) {
			snprintf(o->why, sizeof(o->why), "%scannot stat the backing file '%s': %s",
				 o->how, cur, strerror(errno));
			return 0;
		}
		if (S_ISBLK(st.st_mode)) {
			d = st.st_rdev;
		} else if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
			d = st.st_dev;
			if (s_mount_of(root, d, fstype, sizeof(fstype), src, sizeof(src)))
				snprintf(fstype, sizeof(fstype), "a filesystem");
			/* btrfs and some others give files an anonymous device: the mount's source
			 */
			if (!major(d)) {
				struct stat sd;

				if (src[0] == '/' && !stat(src, &sd) && S_ISBLK(sd.st_mode)) {
					d = sd.st_rdev;
				} else {
					snprintf(o->why, sizeof(o->why),
						 "%s%s%s%s: no block device under it (%s)", o->how,
						 fstype, src[0] ? " from " : "", src,
						 !strcmp(fstype, "tmpfs") ||
							 !strcmp(fstype, "ramfs")
						     ? "memory"
						     : "a network, memory or virtual filesystem");
					return 0;
				}
			}
			s_add(o, fstype);
			s_add(o, " on ");
		} else {
			snprintf(o->why, sizeof(o->why), "%s'%s' is not a file or block device",
				 o->how, cur);
			return 0;
		}
		snprintf(sysrel, sizeof(sysrel), "/sys/dev/block/%u:%u", major(d), minor(d));
		snprintf(sysabs, sizeof(sysabs), "%s%s", root, sysrel);
		if (!realpath(sysabs, real)) {
			snprintf(o->why, sizeof(o->why), "%sdevice %u:%u: no %s entry", o->how,
				 major(d), minor(d), sysrel);
			return 0;
		}
		name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
		/* a loop device: follow its backing file down */
		snprintf(buf, sizeof(buf), "%s/loop/backing_file", sysrel);
		if (!s_line(root, buf, cur, sizeof(cur)) && cur[0]) {
			char dio[8] = "0", rel[PATH_MAX];
			char *del = strstr(cur, " (deleted)");

			if (del)
				*del = 0;
			snprintf(rel, sizeof(rel), "%s/loop/dio", sysrel);
			s_line(root, rel, dio, sizeof(dio));
			if (!o->loop)
				snprintf(o->loop_backing, sizeof(o->loop_backing), "%s", cur);
			o->loop = true;
			o->loop_cached |= dio[0] != '1';
			snprintf(rel, sizeof(rel), "%s over %s (direct I/O %s), ", name, cur,
				 dio[0] == '1' ? "on" : "off");
			s_add(o, rel);
			continue;
		}
		snprintf(buf, sizeof(buf), "%s/partition", sysrel);
		if (s_exists(root, buf)) {
			/* the disk is the partition's parent in sysfs */
			char devno[32], rel[PATH_MAX];
			unsigned maj, mnr;
			char *slash;

			snprintf(disk, sizeof(disk), "%s", real);
			slash = strrchr(disk, '/');
			if (slash)
				*slash = 0;
			snprintf(rel, sizeof(rel), "%s/dev", disk + strlen(root));
			if (s_line(root, rel, devno, sizeof(devno)) ||
			    sscanf(devno, "%u:%u", &maj, &mnr) != 2) {
				snprintf(o->why, sizeof(o->why),
					 "%s%s: its disk has no device number", o->how, name);
				return 0;
			}
			snprintf(rel, sizeof(rel), "%s, a partition of %s", name,
				 strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk);
			s_add(o, rel);
			d = makedev(maj, mnr);
			name = strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk;
		} else {
			s_add(o, name);
			snprintf(buf, sizeof(buf), "%s/dm", sysrel);
			if (s_exists(root, buf) || !strncmp(name, "md", 2)) {
				char stack[256];

				s_stack(root, sysrel, stack, sizeof(stack));
				s_add(o, stack);
				s_add(o, ", counted at the top of its stack");
			}
		}
		snprintf(o->name, sizeof(o->name), "%s", name);
		o->dev = d;
		snprintf(buf, sizeof(buf), "%s/proc/diskstats", root);
		if (bc_diskstats_read_file(buf, d, &ds)) {
			snprintf(o->why, sizeof(o->why), "%s: no /proc/diskstats line for %s",
				 o->how, name);
			return 0;
		}
		o->found = true;
		return 0;
	}
	snprintf(o->why, sizeof(o->why), "%s: more than %d loop devices deep", o->how, S_HOPS);
	return 0;
}
