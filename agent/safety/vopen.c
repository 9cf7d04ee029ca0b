/*
 * vopen.c - open a volume and judge the descriptor, not the path (see
 * safety/vopen.h): openat2 beneath the scratch directory or from "/" without
 * symlinks, a component-by-component walk where openat2 is missing, then
 * fstat's type, link count and place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "safety/vopen.h"

static long s_sys_openat2(int dirfd, const char *path, struct open_how *how, size_t size)
{
	return syscall(SYS_openat2, dirfd, path, how, size);
}

struct bc_vopen_sys bc_vopen_sys = {.openat2 = s_sys_openat2};

static const char *s_type_name(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISLNK(m)  ? "a symbolic link"
	       : S_ISBLK(m)  ? "a block device node"
	       : S_ISCHR(m)  ? "a character device node"
			     : "not a regular file";
}

int bc_safety_kind(const struct bc_safety *s, const char *canon, const struct stat *st,
		   bool in_scratch, char *err, size_t errlen)
{
	bool dev = S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode);

	if (S_ISREG(st->st_mode)) {
		if (st->st_nlink <= 1 || bc_safety_named(s, canon))
			return 0;
		snprintf(err, errlen,
			 "%s: a regular file with %lu links (a hard link: the same file is "
			 "reachable from outside what is allowed); refused unless the agent "
			 "allows this very path by name (--allow %s)",
			 canon, (unsigned long)st->st_nlink, canon);
		return -EPERM;
	}
	if (dev && !in_scratch && bc_safety_below(canon, s->dev_dir[0] ? s->dev_dir : "/dev") &&
	    strcmp(canon, s->dev_dir[0] ? s->dev_dir : "/dev"))
		return 0;
	if (dev)
		snprintf(err, errlen,
			 "%s: %s outside /dev; device nodes are used only under /dev and when "
			 "the allowlist names them (the scratch directory holds files)",
			 canon, s_type_name(st->st_mode));
	else
		snprintf(err, errlen, "%s: %s; a volume is a regular file or a device under /dev",
			 canon, s_type_name(st->st_mode));
	return -EPERM;
}

/*
 * The mount id of fd: statx's (Linux >= 5.8), else /proc/self/fdinfo's
 * "mnt_id:" line (>= 3.15). -errno when neither tells.
 */
static int s_mnt_id(int fd, uint64_t *id)
{
	char path[64], line[128];
	struct statx sx;
	FILE *f;
	int rc = -ENOTSUP;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) && (sx.stx_mask & STATX_MNT_ID)) {
		*id = sx.stx_mnt_id;
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "mnt_id: %llu", &v) == 1) {
			*id = v;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/*
 * openat2's resolution by hand, for kernels without it: each directory of
 * rel opened with O_PATH | O_NOFOLLOW from dirfd (a symlink fails), none
 * "." or "..", each on dirfd's mount unless xdev; then the last component
 * with flags | O_NOFOLLOW. The same refusals, the same errnos.
 */
static int s_walk(int dirfd, const char *rel, int flags, mode_t mode, bool xdev)
{
	char part[NAME_MAX + 1];
	uint64_t mnt0 = 0, mnt;
	int cur = dirfd, next, rc = 0;
	const char *p = rel, *slash;
	size_t n;

	if (!xdev && s_mnt_id(dirfd, &mnt0))
		return -ENOTSUP;
	for (;;) {
		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (n > NAME_MAX) {
			rc = -ENAMETOOLONG;
			break;
		}
		memcpy(part, p, n);
		part[n] = 0;
		if (!n || !strcmp(part, ".") || !strcmp(part, "..")) {
			rc = -EXDEV; /* the canonical path has none: not beneath */
			break;
		}
		next = openat(cur, part,
			      slash ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
				    : flags | O_NOFOLLOW | O_CLOEXEC,
			      mode);
		if (next < 0) {
			rc = errno == ENOTDIR && slash ? -ELOOP : -errno;
			break;
		}
		if (cur != dirfd)
			close(cur);
		cur = next;
		if (!xdev && (s_mnt_id(cur, &mnt) || mnt != mnt0)) {
			rc = -EXDEV;
			break;
		}
		if (!slash)
			return cur;
		p = slash + 1;
	}
	if (cur != dirfd)
		close(cur);
	return rc;
}

/* open rel from dirfd without following symlinks (beneath it: in_scratch) */
static int s_resolve(int dirfd, const char *rel, int flags, mode_t mode, bool in_scratch)
{
	struct open_how how = {
	    .flags = (uint64_t)(flags | O_CLOEXEC),
	    .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (in_scratch)
		how.resolve |= RESOLVE_BENEATH | RESOLVE_NO_XDEV;
	fd = bc_vopen_sys.openat2(dirfd, rel, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	/* no openat2 here (an old kernel, or a seccomp filter refusing it) */
	if (errno == ENOSYS || errno == EPERM)
		return s_walk(dirfd, rel, flags, mode, !in_scratch);
	return -errno;
}

static const char *s_why(int rc, bool in_scratch)
{
	switch (rc) {
	case -ELOOP:
		return "a symbolic link on the way (put there after the path was resolved, or a "
		       "link the path may not pass); refused";
	case -EXDEV:
		return in_scratch ? "crosses a mount point inside the scratch directory (a bind "
				    "mount or another filesystem mounted there); refused"
				  : "leaves the directory it was resolved in; refused";
	case -ENOTSUP:
		return "cannot be checked here (no openat2 and no mount ids); refused";
	default:
		return strerror(-rc);
	}
}

/*
 * The scratch directory, as pinned (allowlist.h): its canonical path opened
 * without following a symlink, and the very directory it was (device and
 * inode). A scratch directory swapped for another, or for a symlink, since
 * is refused.
 */
static int s_open_scratch(const struct bc_safety *s, const char *scratch, char *err, size_t errlen)
{
	struct stat st;
	int fd, rc, root;

	if (s->scratch_pinned) {
		/* the pinned path has no symlink: any found on it was put there since */
		root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		fd = root < 0 ? -errno
			      : s_resolve(root, scratch + 1, O_PATH | O_DIRECTORY, 0, false);
		if (root >= 0)
			close(root);
	} else {
		fd = open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0) {
		rc = fd;
		snprintf(err, errlen, "cannot open the scratch directory '%s': %s%s", scratch,
			 s_why(rc, false),
			 rc == -ELOOP ? " (it was replaced by a symlink since the agent saw it)"
				      : "");
		return rc == -ELOOP || rc == -EXDEV ? -EPERM : rc;
	}
	if (s->scratch_pinned &&
	    (fstat(fd, &st) || st.st_dev != s->scratch_dev || st.st_ino != s->scratch_ino)) {
		snprintf(err, errlen,
			 "the scratch directory '%s' is not the directory the agent pinned (it was "
			 "replaced since); refused",
			 scratch);
		close(fd);
		return -EPERM;
	}
	return fd;
}

int bc_vopen(const struct bc_safety *s, const char *path, int flags, mode_t mode, char *err,
	     size_t errlen)
{
	char canon[PATH_MAX], scratch[PATH_MAX];
	const char *rel = NULL;
	bool in_scratch = false;
	struct stat st;
	int dirfd = -1, fd, rc;

	rc = bc_safety_allowed(s, path, err, errlen);
	if (rc)
		return rc;
	rc = bc_safety_canonical(path, canon, sizeof(canon));
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (!bc_safety_scratch(s, scratch, sizeof(scratch)) && bc_safety_below(canon, scratch)) {
		in_scratch = true;
		rel = canon + strlen(scratch);
		while (*rel == '/')
			rel++;
		if (!*rel) {
			snprintf(err, errlen,
				 "%s: the scratch directory itself; a volume is a file in it",
				 path);
			return -EISDIR;
		}
		dirfd = s_open_scratch(s, scratch, err, errlen);
		if (dirfd < 0)
			return dirfd;
	} else {
		dirfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		rel = canon + 1;
		if (dirfd < 0 || !*rel) {
			rc = dirfd < 0 ? -errno : -EISDIR;
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			if (dirfd >= 0)
				close(dirfd);
			return rc;
		}
	}
	fd = s_resolve(dirfd, rel, (flags & O_PATH) ? flags : flags | O_NONBLOCK | O_NOCTTY, mode,
		       in_scratch);
	close(dirfd);
	if (fd < 0) {
		/* the caller's own errors (ENOENT, EEXIST, EACCES) keep their errno */
		snprintf(err, errlen, "%s%s%s%s: %s", path, strcmp(path, canon) ? " (" : "",
			 strcmp(path, canon) ? canon : "", strcmp(path, canon) ? ")" : "",
			 s_why(fd, in_scratch));
		return fd == -ELOOP || fd == -EXDEV || fd == -ENOTSUP ? -EPERM : fd;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	rc = bc_safety_kind(s, canon, &st, in_scratch, err, errlen);
	if (rc)
		goto fail;
	/* the open was O_NONBLOCK only so that a FIFO could not hang it */
	if (!(flags & (O_NONBLOCK | O_PATH)) &&
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return rc;
}
