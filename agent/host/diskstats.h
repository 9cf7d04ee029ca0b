/*
 * host/diskstats.h - a block device's kernel I/O counters from /proc/diskstats,
 * read before and after a step so the coordinator can check the agent's own
 * byte counts against what the kernel saw (Documentation/admin-guide/iostats.rst).
 */
#ifndef BC_HOST_DISKSTATS_H
#define BC_HOST_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct bc_diskstat {
	char name[64];
	uint64_t rd_ios, rd_bytes;
	uint64_t wr_ios, wr_bytes;
	uint64_t discard_ios, discard_bytes;
};

/*
 * Counters of the block device rdev (major:minor). Returns 0, -ENOENT when
 * the kernel lists no such device, or -errno reading /proc/diskstats. A
 * native NVMe multipath head (nvme<S>n<N>) gets the sum of its paths
 * (nvme<S>c<C>n<N>), where the kernel counts its I/O; out->name stays the head.
 */
int bc_diskstats_read(dev_t rdev, struct bc_diskstat *out);

/* the same from a diskstats-format file (tests) */
int bc_diskstats_read_file(const char *file, dev_t rdev, struct bc_diskstat *out);

#endif
