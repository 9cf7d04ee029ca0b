/*
 * target/file.c - regular files and block devices through io_uring
 * IORING_OP_READ/WRITE, or READ_FIXED/WRITE_FIXED when the job registered its
 * buffers, with IOSQE_FIXED_FILE when it registered the fd. O_DIRECT follows
 * the workload's "direct". Trim is IORING_OP_FALLOCATE with
 * PUNCH_HOLE | KEEP_SIZE: on a file it deallocates the range; on a block
 * device (Linux >= 4.9) blkdev_fallocate turns it into a write-zeroes request
 * that may unmap (NVMe Write Zeroes with DEAC, SCSI WRITE SAME with UNMAP),
 * the closest io_uring has to BLKDISCARD. A device without write-zeroes
 * support fails it with EOPNOTSUPP, counted as trim errors. A missing or
 * smaller file is created or extended to the volume's "size" before open;
 * its new extents are unwritten until the session lays them out (step.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "target/ops.h"
#include "target/opener.h"

/*
 * Grow t->path to t->create_bytes: a missing file is created (fresh), an
 * existing smaller one extended. fallocate reserves the blocks so a write
 * step cannot fail with ENOSPC half way; filesystems without it (some
 * network filesystems) get a sparse file from ftruncate.
 */
static int s_grow_file(struct bc_target *t, bool fresh, char *err, size_t errlen)
{
	uint64_t have = fresh ? 0 : t->info.size_bytes;
	int flags = O_WRONLY | O_CLOEXEC, fd, ret = 0;

	if (t->create_bytes > (uint64_t)INT64_MAX) {
		snprintf(err, errlen, "%s: size %llu is too large", t->path,
			 (unsigned long long)t->create_bytes);
		return -EFBIG;
	}
	if (fresh)
		flags |= O_CREAT | O_EXCL;
	fd = bc_target_open_path(t->path, flags, 0644, err, errlen);
	if (fd < 0) {
		ret = fd;
		if (ret != -EPERM) /* a refusal's message is whole already */
			snprintf(err, errlen, "cannot %s '%s': %s", fresh ? "create" : "open",
				 t->path, strerror(-ret));
		return ret;
	}
	if (fallocate(fd, 0, (off_t)have, (off_t)(t->create_bytes - have))) {
		ret = -errno;
		if (ret == -EOPNOTSUPP)
			ret = ftruncate(fd, (off_t)t->create_bytes) ? -errno : 0;
	}
	if (ret) {
		snprintf(err, errlen, "cannot %s '%s' to %llu bytes: %s",
			 fresh ? "create" : "extend", t->path, (unsigned long long)t->create_bytes,
			 strerror(-ret));
		if (fresh)
			unlink(t->path);
	}
	close(fd);
	return ret;
}

/*
 * What s_grow_file would meet, without creating or extending anything: the
 * directory (fresh) or the file must be writable. The volume then has the
 * size it would be given. Same messages as s_grow_file.
 */
static int s_grow_check(struct bc_target *t, bool fresh, char *err, size_t errlen)
{
	char dir[BC_PATH_MAX];
	const char *slash = strrchr(t->path, '/');
	int ret;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - t->path) + 1 : 1,
		 slash ? t->path : ".");
	if (t->create_bytes > (uint64_t)INT64_MAX) {
		snprintf(err, errlen, "%s: size %llu is too large", t->path,
			 (unsigned long long)t->create_bytes);
		return -EFBIG;
	}
	if (access(fresh ? dir : t->path, W_OK | (fresh ? X_OK : 0))) {
		ret = -errno;
		snprintf(err, errlen, "cannot %s '%s': %s", fresh ? "create" : "open", t->path,
			 strerror(-ret));
		return ret;
	}
	t->info.size_bytes = t->create_bytes;
	if (fresh)
		t->info.lbs = t->info.pbs = 512;
	return 0;
}

/* "size" creates or extends regular files; a block device keeps its size */
static int s_file_prepare(struct bc_target *t, bool dry, char *err, size_t errlen)
{
	bool fresh = t->info.kind == BC_KIND_MISSING;
	int ret;

	if (t->info.kind == BC_KIND_BLOCK) {
		if (!t->create_bytes)
			return 0;
		snprintf(err, errlen,
			 "%s: \"size\" applies to regular files only; use \"length\" to "
			 "limit the I/O window on a block device",
			 t->path);
		return -EINVAL;
	}
	if (fresh && !t->create_bytes) {
		snprintf(err, errlen, "%s: no such file (give the volume a \"size\" to create it)",
			 t->path);
		return -ENOENT;
	}
	if (!fresh && t->create_bytes <= t->info.size_bytes)
		return 0;
	if (dry)
		return s_grow_check(t, fresh, err, errlen);
	ret = s_grow_file(t, fresh, err, errlen);
	if (ret)
		return ret;
	/* the new bytes are unwritten extents: laid out before a step reads them (engine/layout.h)
	 */
	t->grew = true;
	t->grew_from = fresh ? 0 : t->info.size_bytes;
	ret = bc_devinfo_probe(t->path, &t->info);
	if (ret)
		snprintf(err, errlen, "cannot access '%s': %s", t->path, strerror(-ret));
	return ret;
}

static int s_file_open(struct bc_target *t, char *err, size_t errlen)
{
	int flags = O_CLOEXEC, ret = 0;

	flags |= t->writable ? O_RDWR : O_RDONLY;
	if (t->direct)
		flags |= O_DIRECT;
	/*
	 * O_EXCL on a block device fails with EBUSY while it is mounted or
	 * held by another exclusive user (md, dm, LVM): the kernel's own
	 * guard against writing under a filesystem.
	 */
	if (t->writable && t->info.kind == BC_KIND_BLOCK)
		flags |= O_EXCL;
	t->fd = bc_target_open_path(t->path, flags, 0, err, errlen);
	if (t->fd >= 0)
		goto out;
	ret = t->fd;
	t->fd = -1;
	if (ret == -EPERM)
		goto out; /* refused by the gate: its message is whole */
	if (ret == -EINVAL && t->direct)
		snprintf(err, errlen,
			 "%s: the filesystem does not support O_DIRECT; set \"direct\": false "
			 "in the step to use buffered I/O",
			 t->path);
	else if (ret == -EBUSY && (flags & O_EXCL))
		snprintf(err, errlen, "%s: device is busy (mounted or held by another user)",
			 t->path);
	else
		snprintf(err, errlen, "cannot open '%s' for %s: %s", t->path,
			 t->writable ? "writing" : "reading", strerror(-ret));
out:
	return ret;
}

static void s_file_close(struct bc_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

static void s_file_prep(const struct bc_target *t, struct io_uring_sqe *sqe,
			const struct bc_io_desc *io)
{
	int fd = io->file_index >= 0 ? io->file_index : t->fd;

	switch (io->op) {
	case BC_OP_READ:
		if (io->buf_index >= 0)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->off, io->buf_index);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->off);
		break;
	case BC_OP_WRITE:
		if (io->buf_index >= 0)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->off,
						  io->buf_index);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->off);
		sqe->rw_flags = io->rw_flags; /* RWF_SYNC / RWF_DSYNC: "write_sync" */
		break;
	case BC_IO_FSYNC:
	case BC_IO_FDATASYNC:
		io_uring_prep_fsync(sqe, fd, io->op == BC_IO_FDATASYNC ? IORING_FSYNC_DATASYNC : 0);
		break;
	case BC_OP_TRIM:
		/* completes with res 0 on success: the job counts that as len bytes */
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)io->off, (off_t)io->len);
		break;
	default:
		/* no other op exists; a NOP still completes (res 0: a short I/O, not a hang) */
		io_uring_prep_nop(sqe);
		return;
	}
	if (io->file_index >= 0)
		sqe->flags |= IOSQE_FIXED_FILE;
}

/*
 * open's dry run: read-only (with O_DIRECT when the step uses it, which is
 * what fails on filesystems without it), and a write needs write permission;
 * a file still to be created has nothing to open
 */
static int s_file_check(struct bc_target *t, char *err, size_t errlen)
{
	bool writable = t->writable;
	int ret;

	if (t->info.kind == BC_KIND_MISSING)
		return 0;
	if (writable && access(t->path, W_OK)) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s' for writing: %s", t->path, strerror(-ret));
		return ret;
	}
	t->writable = false;
	ret = s_file_open(t, err, errlen);
	s_file_close(t);
	t->writable = writable;
	return ret;
}

static int s_file_control(struct bc_target *t, int op, void *arg)
{
	return -ENOTSUP;
}

const struct bc_target_ops bc_target_file_ops = {
    .name = "file",
    .version = BC_TARGET_OPS_VERSION,
    .desc = "a file or block device",
    .kinds = 1u << BC_KIND_MISSING | 1u << BC_KIND_FILE | 1u << BC_KIND_BLOCK,
    .caps = BC_TCAP_SYNC,
    .safety = BC_TSAFE_ALLOWLIST | BC_TSAFE_DEVICE,
    .prepare = s_file_prepare,
    .check = s_file_check,
    .open = s_file_open,
    .close = s_file_close,
    .prep = s_file_prep,
    .control = s_file_control,
};
