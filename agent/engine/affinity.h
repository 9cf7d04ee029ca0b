/*
 * engine/affinity.h - where job threads run and what the device under a volume
 * offers: the sysfs directory of the block device behind a path (the device
 * itself, the disk of a partition, or the device holding a regular file), its
 * NUMA node and whether it has poll queues (IOPOLL), and the CPU set of a job
 * from "cpus_allowed". Control thread only (reads sysfs; never on the I/O path).
 */
#ifndef BC_ENGINE_AFFINITY_H
#define BC_ENGINE_AFFINITY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "target/ops.h"

/*
 * The sysfs directory of the whole disk behind path (e.g.
 * /sys/devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1). Returns 0, or
 * -ENODEV when no block device is behind it (tmpfs, the null target).
 */
int bc_sysfs_disk_dir(const char *path, char *out, size_t len);

/*
 * NUMA node of the device behind path: *node = 0.. or -1 when the platform
 * reports none (single node, virtual device). Returns 0 or -ENODEV.
 */
int bc_sysfs_numa_node(const char *path, int *node);

/* the device behind path has poll queues (queue/io_poll is 1): 1, 0, or -errno */
int bc_sysfs_io_poll(const char *path);

/* the block device behind path discards (queue/discard_max_bytes > 0): 1, 0, or -errno */
int bc_sysfs_discards(const char *path);

/*
 * The largest request an NVMe namespace takes (queue/max_hw_sectors_kb, in
 * bytes): path is its block device or its generic char device /dev/ngXnY
 * (whose passthrough requests are not split). -errno when unknown.
 */
int64_t bc_sysfs_max_io(const char *path);

/* "0-3,8" into set; -EINVAL on a syntax error */
int bc_cpus_parse(const char *list, cpu_set_t *set);

/* set as a compact list ("0-3,8") */
void bc_cpus_format(const cpu_set_t *set, char *buf, size_t len);

/*
 * The CPUs job `job` may run on for cpus_allowed / cpus_allowed_policy:
 * "" leaves the thread unpinned (*pinned = false); "numa" takes the CPUs of
 * the NUMA nodes of the volumes' devices (all CPUs, unpinned, when none has
 * a node); "numa:LIST" the CPUs of those NUMA nodes (fio's numa_cpu_nodes;
 * a node without CPUs is refused); a list must name online CPUs. "split" pins job i to the i-th CPU
 * of the set (modulo its size). desc gets a human description for READY.
 * Returns 0, or -EINVAL with a message in err.
 */
int bc_affinity_job(const char *cpus_allowed, bool split, const struct bc_target *targets,
		    int ntargets, unsigned job, cpu_set_t *set, bool *pinned, char *desc,
		    size_t desclen, char *err, size_t errlen);

#endif
