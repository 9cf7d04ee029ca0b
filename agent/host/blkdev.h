/*
 * host/blkdev.h - the block device under a volume, where the kernel counts the
 * I/O that really reached storage (/proc/diskstats): a regular file's
 * filesystem device, a block device itself; a partition counts as its disk
 * (volumes on two partitions of one disk share it); a loop device is
 * followed to the device under its backing file (loop0's own counters only
 * say what was asked of loop0, which its backing file's page cache or holes
 * may answer); a device-mapper or md device is counted where the filesystem
 * submits, at the top of the stack (its members see mirrored, striped or
 * parity I/O that is no measure of the volume's bytes). A filesystem with no
 * block device (tmpfs, NFS, overlay without one below) is named: there is
 * nothing to measure, and the check says so.
 */
#ifndef BC_HOST_BLKDEV_H
#define BC_HOST_BLKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct bc_blkdev {
	bool found;	  /* dev is a block device /proc/diskstats counts */
	dev_t dev;	  /* that device (a disk, dm-N, md-N, nvmeXnY...) */
	char name[32];	  /* its kernel name, "vda" */
	char how[384];	  /* the way down, "ext4 on vda1, a partition of vda" */
	char why[256];	  /* !found: why nothing can be counted, "tmpfs: memory, no block device" */
	bool loop;	  /* a loop device was followed to its backing file */
	bool loop_cached; /* ... without direct I/O: its backing file's page cache may answer */
	char loop_backing[256]; /* the first loop's backing file, "" none */
};

/*
 * Find the device under path (a regular file or a block device). The sysfs
 * and procfs paths are read under root ("" for the live system). Returns 0
 * with out filled (out->found false and out->why when there is none to
 * count), or -errno when path cannot be stat'ed.
 */
int bc_blkdev_under(const char *root, const char *path, struct bc_blkdev *out);

#endif
