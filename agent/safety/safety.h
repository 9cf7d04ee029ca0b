/*
 * safety/safety.h - what the agent lets a coordinator touch. The agent writes to
 * raw block devices on command from the network, so before any I/O (at
 * PREPARE) every volume with a file or device behind it passes two gates
 * (the rules its target declares, bc_target_safety, applied by
 * bc_agent_volume_gate; a name such as "null" has nothing to protect):
 *
 *   1. the allowlist (safety/allowlist.h): the agent's scratch directory always; other
 *      paths only when they match a glob of the agent's config ("allow") or
 *      --allow. Paths are canonicalised first (symlinks, "..") so a link in an
 *      allowed directory cannot point elsewhere; only links matched by a glob
 *      under /dev (where only root makes links: /dev/disk/by-id/...) allow
 *      their targets. Reads need only this gate.
 *   2. for writes to a block device: refused when it is mounted, active swap
 *      or cannot be opened exclusively (never overridable: corrupting a live
 *      filesystem under the kernel is not a benchmark, and the engine opens
 *      devices it writes O_EXCL anyway), or when it has holders
 *      (device-mapper, LVM, md, bcache) or partitions, or carries a
 *      filesystem/RAID/LVM/partition-table signature (safety/signature.h) -- unless the profile
 *      marks the volume "destructive": true AND the agent runs with
 *      --allow-destructive.
 *
 * The default with no config is deliberately narrow (scratch, and names
 * without files such as "null"): an agent nobody configured can benchmark,
 * but cannot touch a device.
 */
#ifndef BC_SAFETY_SAFETY_H
#define BC_SAFETY_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

#include "safety/allowlist.h"

/*
 * The PREPARE gate for one resolved volume path (see the file comment).
 * writes: the step writes; destructive: the profile marks the volume so.
 * Returns 0, or -EPERM/-EBUSY/-errno with one line naming the path and the
 * reason. The target then opens a written device O_EXCL for the step, so
 * nobody can mount it between the last check and the last I/O.
 */
int bc_safety_check(const struct bc_safety *s, const char *path, bool writes, bool destructive,
		    char *err, size_t errlen);

/*
 * Whether the block device dev (major:minor) is mounted according to a
 * mountinfo file (normally /proc/self/mountinfo). Returns 1 with "on
 * MOUNTPOINT (FSTYPE)" in where, 0 when not mounted, or -errno.
 */
int bc_safety_mounted(const char *mountinfo, unsigned long dev, char *where, size_t len);

#endif
