/*
 * engine/meta.c - a file set's metadata operations (engine/meta.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/meta.h"
#include "util/clock.h"

/* the directory part of rel opened beneath root (root itself for a bare name); *base its name */
static int s_dir(int root, char *rel, const char **base, int *own)
{
	struct open_how how = {
	    .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve =
		RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	char *slash = strrchr(rel, '/');
	long fd;

	*own = 0;
	if (!slash) {
		*base = rel;
		return root;
	}
	*slash = 0;
	fd = syscall(SYS_openat2, root, rel, &how, sizeof(how));
	*slash = '/';
	*base = slash + 1;
	if (fd < 0)
		return -errno;
	*own = 1;
	return (int)fd;
}

int bc_meta_op(const struct bc_target_files *f, uint32_t kind, uint32_t idx, int oflags, int *fdp,
	       uint64_t *lat_ns)
{
	char rel[BC_PATH_MAX];
	const char *base;
	struct statx stx;
	uint64_t t0, t1 = 0;
	int dfd, own, fd, rc;

	*lat_ns = 0;
	rc = bc_meta_on_dirs(kind) ? bc_fileset_dir_path(f->spec, idx, rel, sizeof(rel))
				   : bc_fileset_file_path(f->spec, f->tree[idx], rel, sizeof(rel));
	if (rc)
		return rc;
	t0 = bc_mono_ns();
	dfd = s_dir(f->root, rel, &base, &own);
	if (dfd < 0) {
		*lat_ns = bc_mono_ns() - t0;
		return dfd;
	}
	switch (kind) {
	case BC_META_CREATE:
		/* a file that did not exist (fio's filecreate: open with O_CREAT, timed) */
		fd = openat(dfd, base, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
		t1 = bc_mono_ns();
		rc = fd < 0 ? -errno : close(fd);
		break;
	case BC_META_CREATE_WRITE:
		fd = openat(dfd, base,
			    O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC | oflags, 0644);
		t1 = bc_mono_ns();
		rc = fd < 0 ? -errno : 0;
		*fdp = fd;
		break;
	case BC_META_OPEN:
		fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		t1 = bc_mono_ns();
		rc = fd < 0 ? -errno : close(fd);
		break;
	case BC_META_CLOSE:
		/* the open is the way to a close: only the close is timed */
		fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			rc = -errno;
			t1 = bc_mono_ns();
			break;
		}
		t0 = bc_mono_ns();
		rc = close(fd) ? -errno : 0;
		t1 = bc_mono_ns();
		break;
	case BC_META_DELETE:
		rc = unlinkat(dfd, base, 0) ? -errno : 0;
		break;
	case BC_META_GETATTR:
		rc = statx(dfd, base, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) ? -errno : 0;
		break;
	case BC_META_SETATTR:
		/* the access and modification times set to now (touch) */
		rc = utimensat(dfd, base, NULL, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
		break;
	case BC_META_ACCESS:
		rc = faccessat(dfd, base, R_OK | W_OK, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
		break;
	case BC_META_MKDIR:
		rc = mkdirat(dfd, base, 0755) ? -errno : 0;
		break;
	case BC_META_RMDIR:
		rc = unlinkat(dfd, base, AT_REMOVEDIR) ? -errno : 0;
		break;
	default:
		rc = -EINVAL;
		break;
	}
	if (!t1)
		t1 = bc_mono_ns();
	*lat_ns = t1 - t0;
	if (own)
		close(dfd);
	return rc;
}
