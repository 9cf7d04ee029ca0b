/*
 * safety/safety.c - the agent's PREPARE gate (see safety/safety.h): the allowlist
 * (allowlist.c), then, for a write to a device, the checks that keep it off
 * a device that is in use or holds data (mounted, swap, holders, partitions,
 * an exclusive open, signatures by signature.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "safety/safety.h"
#include "safety/signature.h"
#include "safety/vopen.h"
#include "util/log.h"

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

/* never overridable: the kernel pages to it */
static int s_refuse_swap(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "refusing to write to %s: it is an active swap area; swapoff it first", path);
	return -EBUSY;
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
	if (s_swap(st))
		return s_refuse_swap(path, err, errlen);
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

	/* the name parse of bc_nvme_name_parse, local: the fuzz build links agent/safety/ alone */
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
	int rc, fd;

	if (!s)
		s = &none;
	rc = bc_safety_allowed(s, path, err, errlen);
	if (rc)
		return rc;
	/*
	 * what the path leads to now, judged as the open will judge it
	 * (safety/vopen.h): no symlink, mount point or hard link on the way, no
	 * FIFO, socket, directory or device node outside /dev. A file still to
	 * be made is made through the same gate.
	 */
	fd = bc_vopen(s, path, O_PATH, 0, err, errlen);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	close(fd);
	if (!writes || stat(path, &st))
		return 0;
	if (s_swap(&st))
		return s_refuse_swap(path, err, errlen);
	if (S_ISCHR(st.st_mode))
		return s_check_nvme_char(s, path, destructive, err, errlen);
	if (!S_ISBLK(st.st_mode))
		return 0;
	return s_check_block(s, path, &st, destructive, err, errlen);
}
