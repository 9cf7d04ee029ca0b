/*
 * target/fileset.c - a volume with a "fileset" (profile/volume/fileset.h):
 * a tree of directories and files under the volume's path, as vdbench's FSD
 * builds it under its anchor. PREPARE builds what is missing (every
 * directory, every file at its planned size; "fileset_format": "fresh"
 * deletes the tree's own files first) and opens every file; the files that
 * were created or extended are written out before the step
 * (engine/layout.h), so reads measure the device, not unwritten extents.
 *
 * Safety: directories are made and walked relative to the path with
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV), so a
 * symlink or mount point planted in the tree cannot lead outside it; every
 * file is opened through the agent's safety opener (target/opener.h,
 * safety/vopen.h), which refuses a symlink, a hard link, a device node or a
 * FIFO in its place. Deletions use unlinkat on directories opened the same
 * way, and touch only the names the tree has.
 *
 * The files are one space to the job (struct bc_target_files): file i
 * holds offsets [vstart[i], vstart[i] + size[i]); prep finds the file by a
 * binary search and issues the I/O on its descriptor, at the offset within
 * it. Every descriptor stays open for the step (the agent raises its
 * RLIMIT_NOFILE to the hard limit, and refuses a tree with more files than
 * that allows).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target/opener.h"
#include "target/ops.h"

/* descriptors kept for everything else the agent opens beside the files */
#define S_FD_SPARE 256

struct s_fs {
	struct bc_fileset_plan plan;
	uint64_t *had; /* [nfiles] */
	int *fd;       /* [nfiles], -1 when not open */
	struct bc_target_files files;
	/* a "meta" workload's tree: its root kept open, each entry's state */
	int root;
	_Atomic uint8_t *fstate, *dstate;
};

/* open rel (a directory) beneath dirfd, no symlink, no "..", no mount point on the way */
static int s_open_dir(int dirfd, const char *rel)
{
	struct open_how how = {
	    .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve =
		RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	long fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

static const char *s_why(int rc)
{
	switch (rc) {
	case -ELOOP:
		return "a symbolic link in the tree; refused";
	case -EXDEV:
		return "a mount point in the tree (another filesystem or a bind mount); refused";
	case -ENOTDIR:
		return "not a directory where the tree has one; refused";
	default:
		return strerror(-rc);
	}
}

/* rel's directory part opened beneath root (root itself for a bare name); *base its last name */
static int s_parent(int root, char *rel, const char **base)
{
	char *slash = strrchr(rel, '/');
	int fd;

	if (!slash) {
		*base = rel;
		fd = fcntl(root, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? -errno : fd;
	}
	*slash = 0;
	fd = s_open_dir(root, rel);
	*slash = '/';
	*base = slash + 1;
	return fd;
}

/* the path itself: made when missing (its parent must exist), and a directory, not a symlink */
static int s_root(struct bc_target *t, bool dry, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (!dry && mkdir(t->path, 0755) && errno != EEXIST) {
		fd = -errno;
		snprintf(err, errlen, "%s: cannot make the file set's directory: %s", t->path,
			 strerror(-fd));
		return fd;
	}
	fd = open(t->path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		if (dry && fd == -ENOENT)
			return fd;
		snprintf(err, errlen, "%s: %s", t->path,
			 fd == -ENOTDIR || fd == -ELOOP
			     ? "not a directory (a file set's path is the directory of its tree)"
			     : strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) || !S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a directory", t->path);
		return -ENOTDIR;
	}
	return fd;
}

/*
 * vdbench's format=yes: the tree's own files and directories deleted,
 * nothing else (files beside a totalsize subset too). A shared tree's
 * volume deletes only its own files and no directory: another host may be
 * making its files in them at that moment.
 */
static int s_delete(struct bc_target *t, struct s_fs *fs, int root, char *err, size_t errlen)
{
	char rel[BC_PATH_MAX];
	const char *base;
	uint32_t i;
	int dfd, rc;

	for (i = 0; i < fs->plan.ntree; i++) {
		if (!bc_fileset_mine(&t->fileset, i))
			continue;
		rc = bc_fileset_file_path(&t->fileset, i, rel, sizeof(rel));
		dfd = rc ? rc : s_parent(root, rel, &base);
		if (dfd == -ENOENT)
			continue;
		if (dfd < 0) {
			snprintf(err, errlen, "%s/%s: %s", t->path, rel, s_why(dfd));
			return dfd;
		}
		if (!unlinkat(dfd, base, 0))
			fs->files.deleted++;
		else if (errno != ENOENT) {
			rc = -errno;
			snprintf(err, errlen, "%s/%s: cannot delete: %s", t->path, rel,
				 strerror(-rc));
			close(dfd);
			return rc;
		}
		close(dfd);
	}
	/* directories deepest first; one that holds files of someone else's stays */
	for (i = t->fileset.share_count ? 0 : fs->plan.ndirs; i-- > 0;) {
		if (bc_fileset_dir_path(&t->fileset, i, rel, sizeof(rel)))
			continue;
		dfd = s_parent(root, rel, &base);
		if (dfd < 0)
			continue;
		(void)unlinkat(dfd, base, AT_REMOVEDIR);
		close(dfd);
	}
	return 0;
}

static int s_mkdirs(struct bc_target *t, struct s_fs *fs, int root, char *err, size_t errlen)
{
	char rel[BC_PATH_MAX];
	const char *base;
	struct stat st;
	uint32_t i;
	int dfd, rc;

	for (i = 0; i < fs->plan.ndirs; i++) {
		rc = bc_fileset_dir_path(&t->fileset, i, rel, sizeof(rel));
		dfd = rc ? rc : s_parent(root, rel, &base);
		if (dfd < 0) {
			snprintf(err, errlen, "%s/%s: %s", t->path, rel, s_why(dfd));
			return dfd;
		}
		rc = mkdirat(dfd, base, 0755) && errno != EEXIST ? -errno : 0;
		if (!rc && fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW))
			rc = -errno;
		else if (!rc && !S_ISDIR(st.st_mode))
			rc = S_ISLNK(st.st_mode) ? -ELOOP : -ENOTDIR;
		close(dfd);
		if (rc) {
			snprintf(err, errlen, "%s/%s: %s", t->path, rel, s_why(rc));
			return rc;
		}
	}
	return 0;
}

/* a "meta" workload opens no file for the step: a file built is closed at once */
static int s_meta_close(const struct bc_target *t, struct s_fs *fs, uint32_t i)
{
	if (t->fileset_meta && fs->fd[i] >= 0) {
		close(fs->fd[i]);
		fs->fd[i] = -1;
	}
	return 0;
}

/*
 * A "meta" workload's start: whether each file and directory of the tree
 * exists, as the disk says (fileset_format "none" builds nothing, so a
 * create has files to make). Something else in an entry's place is refused,
 * as the build refuses it.
 */
static int s_meta_state(struct bc_target *t, struct s_fs *fs, int root, char *err, size_t errlen)
{
	char rel[BC_PATH_MAX];
	struct stat st;
	uint32_t i, n = fs->plan.ndirs + fs->plan.nfiles;
	bool dir;
	int rc;

	fs->dstate = calloc(fs->plan.ndirs ? fs->plan.ndirs : 1, sizeof(*fs->dstate));
	fs->fstate = calloc(fs->plan.nfiles ? fs->plan.nfiles : 1, sizeof(*fs->fstate));
	if (!fs->dstate || !fs->fstate) {
		snprintf(err, errlen, "%s: out of memory for the file set's state", t->path);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		dir = i < fs->plan.ndirs;
		rc = dir ? bc_fileset_dir_path(&t->fileset, i, rel, sizeof(rel))
			 : bc_fileset_file_path(&t->fileset, fs->plan.tree[i - fs->plan.ndirs], rel,
						sizeof(rel));
		if (!rc && fstatat(root, rel, &st, AT_SYMLINK_NOFOLLOW))
			rc = errno == ENOENT || errno == ENOTDIR ? 1 : -errno;
		if (rc == 1)
			continue;
		if (!rc && (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)))
			rc = S_ISLNK(st.st_mode) ? -ELOOP : dir ? -ENOTDIR : -EPERM;
		if (rc) {
			snprintf(err, errlen, "%s/%s: %s", t->path, rel,
				 rc == -EPERM
				     ? "not a regular file where the file set has one; refused"
				     : s_why(rc));
			return rc;
		}
		atomic_store_explicit(dir ? &fs->dstate[i] : &fs->fstate[i - fs->plan.ndirs],
				      BC_MSTATE_PRESENT, memory_order_relaxed);
	}
	return 0;
}

/* file i: opened (created when missing, extended when short) through the safety opener */
static int s_file(struct bc_target *t, struct s_fs *fs, int root, uint32_t i, char *err,
		  size_t errlen)
{
	char rel[BC_PATH_MAX], path[BC_PATH_MAX * 2];
	uint64_t want = fs->plan.size[i];
	const char *base;
	struct stat st;
	bool missing, grow;
	int dfd, fd, flags, rc;

	rc = bc_fileset_file_path(&t->fileset, fs->plan.tree[i], rel, sizeof(rel));
	dfd = rc ? rc : s_parent(root, rel, &base);
	if (dfd < 0) {
		snprintf(err, errlen, "%s/%s: %s", t->path, rel, s_why(dfd));
		return dfd;
	}
	rc = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
	close(dfd);
	if (rc && rc != -ENOENT) {
		snprintf(err, errlen, "%s/%s: %s", t->path, rel, strerror(-rc));
		return rc;
	}
	missing = rc == -ENOENT;
	/* what stands in a file's place is judged again by the opener; this names it first */
	if (!missing && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s/%s: %s where the file set has a file; refused", t->path,
			 rel,
			 S_ISLNK(st.st_mode)	? "a symbolic link"
			 : S_ISDIR(st.st_mode)	? "a directory"
			 : S_ISFIFO(st.st_mode) ? "a FIFO"
			 : S_ISSOCK(st.st_mode) ? "a socket"
			 : S_ISBLK(st.st_mode)	? "a block device node"
			 : S_ISCHR(st.st_mode)	? "a character device node"
						: "not a regular file");
		return -EPERM;
	}
	grow = missing || (S_ISREG(st.st_mode) && (uint64_t)st.st_size < want);
	flags = (t->writable || grow ? O_RDWR : O_RDONLY) | (missing ? O_CREAT : 0) |
		(t->direct ? O_DIRECT : 0);
	snprintf(path, sizeof(path), "%s/%s", t->path, rel);
	/* the opener judges what it opened: no symlink, hard link, FIFO or device node */
	fd = bc_target_open_path(path, flags, 0644, err, errlen);
	if (fd < 0) {
		if (fd == -EINVAL && t->direct)
			snprintf(err, errlen,
				 "%s: the filesystem does not support O_DIRECT; set \"direct\": "
				 "false in the step to use buffered I/O",
				 path);
		return fd;
	}
	fs->fd[i] = fd;
	fs->had[i] = missing ? 0 : (uint64_t)st.st_size < want ? (uint64_t)st.st_size : want;
	if (!grow)
		return s_meta_close(t, fs, i);
	if (fallocate(fd, 0, (off_t)fs->had[i], (off_t)(want - fs->had[i]))) {
		rc = errno == EOPNOTSUPP ? (ftruncate(fd, (off_t)want) ? -errno : 0) : -errno;
		if (rc) {
			snprintf(err, errlen, "cannot %s '%s' to %llu bytes: %s%s",
				 missing ? "create" : "extend", path, (unsigned long long)want,
				 strerror(-rc), rc == -ENOSPC ? " (the filesystem is full)" : "");
			return rc;
		}
	}
	if (missing)
		fs->files.created++;
	else
		fs->files.extended++;
	return s_meta_close(t, fs, i);
}

/* every file open at once: the descriptors it takes, or a refusal naming the limit */
static int s_nofile(struct bc_target *t, uint32_t n, char *err, size_t errlen)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur < rl.rlim_max && rl.rlim_cur < (rlim_t)n + S_FD_SPARE) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)n + S_FD_SPARE) {
		snprintf(err, errlen,
			 "%s: the file set has %u files, each open for the step, and the agent "
			 "may open %llu descriptors (RLIMIT_NOFILE, ulimit -n); raise the limit "
			 "or make the tree smaller",
			 t->path, n, (unsigned long long)rl.rlim_cur);
		return -EMFILE;
	}
	return 0;
}

static void s_fs_free(struct s_fs *fs)
{
	uint32_t i;

	if (!fs)
		return;
	for (i = 0; fs->fd && i < fs->plan.nfiles; i++)
		if (fs->fd[i] >= 0)
			close(fs->fd[i]);
	if (fs->root >= 0)
		close(fs->root);
	free((void *)fs->fstate);
	free((void *)fs->dstate);
	free(fs->fd);
	free(fs->had);
	bc_fileset_plan_free(&fs->plan);
	free(fs);
}

static int s_fs_prepare(struct bc_target *t, bool dry, char *err, size_t errlen)
{
	struct s_fs *fs = calloc(1, sizeof(*fs));
	uint32_t i;
	int root = -1, rc;

	rc = fs ? bc_fileset_plan(&t->fileset, &fs->plan) : -ENOMEM;
	if (rc) {
		free(fs);
		snprintf(err, errlen, "%s: %s", t->path,
			 rc == -ERANGE ? "\"totalsize\" is more than the file set's files hold"
				       : "out of memory for the file set's plan");
		return rc;
	}
	fs->root = -1;
	fs->fd = malloc(fs->plan.nfiles * sizeof(*fs->fd));
	fs->had = calloc(fs->plan.nfiles, sizeof(*fs->had));
	if (!fs->fd || !fs->had) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory for the file set", t->path);
		goto fail;
	}
	for (i = 0; i < fs->plan.nfiles; i++)
		fs->fd[i] = -1;
	if (t->fileset_none && !t->fileset_meta) {
		rc = -EINVAL;
		snprintf(err, errlen,
			 "%s: \"fileset_format\": \"none\" builds nothing, so only a \"meta\" "
			 "workload can run on it",
			 t->path);
		goto fail;
	}
	t->info.kind = BC_KIND_FILE; /* files on a filesystem: its device counts their I/O */
	t->info.size_bytes = fs->plan.space;
	t->info.lbs = t->info.pbs = 512;
	/* a "meta" workload keeps no file open */
	rc = s_nofile(t, t->fileset_meta ? 0 : fs->plan.nfiles, err, errlen);
	if (!rc) {
		root = s_root(t, dry, err, errlen);
		rc = root < 0 ? root : 0;
	}
	if (dry) {
		/* a missing tree is made at PREPARE; what is there is checked, nothing changed */
		rc = rc == -ENOENT ? 0 : rc;
		goto fail;
	}
	if (rc)
		goto fail;
	if (t->fileset_fresh)
		rc = s_delete(t, fs, root, err, errlen);
	if (!rc && !t->fileset_none)
		rc = s_mkdirs(t, fs, root, err, errlen);
	for (i = 0; !rc && !t->fileset_none && i < fs->plan.nfiles; i++)
		rc = s_file(t, fs, root, i, err, errlen);
	if (!rc && t->fileset_meta)
		rc = s_meta_state(t, fs, root, err, errlen);
	if (rc)
		goto fail;
	if (t->fileset_meta)
		fs->root = root;
	else
		close(root);
	root = -1;
	fs->files = (struct bc_target_files){
	    .n = fs->plan.nfiles,
	    .ndirs = fs->plan.ndirs,
	    .tree = fs->plan.tree,
	    .nwork = fs->plan.nwork,
	    .work = fs->plan.work,
	    .vstart = fs->plan.vstart,
	    .size = fs->plan.size,
	    .had = fs->had,
	    .bytes = fs->plan.bytes,
	    .created = fs->files.created,
	    .extended = fs->files.extended,
	    .deleted = fs->files.deleted,
	    .root = fs->root,
	    .spec = &t->fileset,
	    .fstate = fs->fstate,
	    .dstate = fs->dstate,
	};
	t->priv = fs;
	t->files = &fs->files;
	/* a meta workload reads no data: nothing of its files to lay out */
	t->grew = !t->fileset_meta && (fs->files.created || fs->files.extended);
	return 0;
fail:
	if (root >= 0)
		close(root);
	s_fs_free(fs);
	return rc;
}

/* everything was opened by prepare; a dry run opened nothing */
static int s_fs_open(struct bc_target *t, char *err, size_t errlen)
{
	if (t->priv)
		return 0;
	snprintf(err, errlen, "%s: the file set was not built", t->path);
	return -EINVAL;
}

static void s_fs_close(struct bc_target *t)
{
	s_fs_free(t->priv);
	t->priv = NULL;
	t->files = NULL;
	t->fd = -1;
}

static void s_fs_prep(const struct bc_target *t, struct io_uring_sqe *sqe,
		      const struct bc_io_desc *io)
{
	const struct s_fs *fs = t->priv;
	const uint64_t *v = fs->plan.vstart;
	uint32_t lo = 0, hi = fs->plan.nfiles, mid;
	uint64_t off;
	int fd;

	/* the last file starting at or before the offset */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] <= io->off)
			lo = mid;
		else
			hi = mid;
	}
	fd = fs->fd[lo];
	off = io->off - v[lo];
	switch (io->op) {
	case BC_OP_READ:
		if (io->buf_index >= 0)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, off, io->buf_index);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, off);
		break;
	case BC_OP_WRITE:
		if (io->buf_index >= 0)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, off, io->buf_index);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, off);
		sqe->rw_flags = io->rw_flags;
		break;
	case BC_OP_TRIM:
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)off, (off_t)io->len);
		break;
	default:
		io_uring_prep_nop(sqe);
		break;
	}
}

static int s_fs_control(struct bc_target *t, int op, void *arg)
{
	return -ENOTSUP;
}

const struct bc_target_ops bc_target_fileset_ops = {
    .name = "fileset",
    .version = BC_TARGET_OPS_VERSION,
    .desc = "a file set (a tree of files)",
    .kinds = 0,		   /* picked by the volume's "fileset", never by a path's kind */
    .caps = BC_TCAP_WSYNC, /* RWF_DSYNC on a write; no fsync of the whole set */
    .safety = BC_TSAFE_ALLOWLIST,
    .prepare = s_fs_prepare,
    .open = s_fs_open,
    .close = s_fs_close,
    .prep = s_fs_prep,
    .control = s_fs_control,
};
