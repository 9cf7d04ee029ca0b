/*
 * target_file.c - regular files and block devices through io_uring
 * IORING_OP_READ/WRITE, or READ_FIXED/WRITE_FIXED when the job registered its
 * buffers, with IOSQE_FIXED_FILE when it registered the fd. O_DIRECT follows
 * the workload's "direct". Trim is IORING_OP_FALLOCATE with
 * PUNCH_HOLE | KEEP_SIZE: on a file it deallocates the range; on a block
 * device (Linux >= 4.9) blkdev_fallocate turns it into a write-zeroes request
 * that may unmap (NVMe Write Zeroes with DEAC, SCSI WRITE SAME with UNMAP),
 * the closest io_uring has to BLKDISCARD. A device without write-zeroes
 * support fails it with EOPNOTSUPP, counted as trim errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bc_target.h"

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
	t->fd = open(t->path, flags);
	if (t->fd >= 0)
		goto out;
	ret = -errno;
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

static int s_file_control(struct bc_target *t, int op, void *arg)
{
	return -ENOTSUP;
}

const struct bc_target_ops bc_target_file_ops = {
    .name = "file",
    .version = BC_TARGET_OPS_VERSION,
    .open = s_file_open,
    .close = s_file_close,
    .prep = s_file_prep,
    .control = s_file_control,
};
