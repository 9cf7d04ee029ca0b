/*
 * bc_safety.h - what the agent lets a coordinator touch. The agent writes to
 * raw block devices on command from the network, so before any I/O (at
 * PREPARE) every volume with a file or device behind it passes two gates
 * (the rules its target declares, bc_target_safety, applied by
 * bc_agent_volume_gate; a name such as "null" has nothing to protect):
 *
 *   1. the allowlist: the agent's scratch directory always; other
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
 *      filesystem/RAID/LVM/partition-table signature -- unless the profile
 *      marks the volume "destructive": true AND the agent runs with
 *      --allow-destructive.
 *
 * The default with no config is deliberately narrow (scratch, and names
 * without files such as "null"): an agent nobody configured can benchmark,
 * but cannot touch a device.
 */
#ifndef BC_SAFETY_H
#define BC_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bc_profile.h"

struct bc_safety {
	char **allow; /* globs, canonical where their leading directories exist; owned */
	int nallow;
	char scratch_dir[BC_PATH_MAX]; /* always allowed, with everything below it */
	bool allow_destructive;	       /* --allow-destructive */
};

/* optional settings of the agent's config file, NULL when absent; owned */
struct bc_agent_config {
	char *listen;
	char *scratch_dir;
	char *cert;
	char *authorized_keys;
	char *key_announce; /* as --key-announce: an endpoint or "off" */
};

/*
 * Parse the agent's JSON config (text, named src in messages): "allow"
 * globs are added to s, the other keys go to cfg. Unknown keys and wrong
 * types are errors naming the key ("<src>: allow[1]: ..."). Returns 0 or
 * -EINVAL/-ENOMEM with the message in err.
 */
int bc_agent_config_parse(const char *text, const char *src, struct bc_safety *s,
			  struct bc_agent_config *cfg, char *err, size_t errlen);
/* read path and parse it; -errno with a message naming the file */
int bc_agent_config_load(const char *path, struct bc_safety *s, struct bc_agent_config *cfg,
			 char *err, size_t errlen);
void bc_agent_config_free(struct bc_agent_config *cfg);

/*
 * Add one allowlist entry: an absolute path or glob (fnmatch with
 * FNM_PATHNAME: '*' stays within one directory); an entry ending in a slash
 * and two stars allows everything below that directory. Returns 0, -EINVAL
 * (not absolute) or -ENOMEM.
 */
int bc_safety_allow(struct bc_safety *s, const char *glob);
void bc_safety_free(struct bc_safety *s);

/*
 * The PREPARE gate for one resolved volume path (see the file comment).
 * writes: the step writes; destructive: the profile marks the volume so.
 * Returns 0, or -EPERM/-EBUSY/-errno with one line naming the path and the
 * reason. The target then opens a written device O_EXCL for the step, so
 * nobody can mount it between the last check and the last I/O.
 */
int bc_safety_check(const struct bc_safety *s, const char *path, bool writes, bool destructive,
		    char *err, size_t errlen);

/* the allowlist gate alone: 0, or -EPERM with a message */
int bc_safety_allowed(const struct bc_safety *s, const char *path, char *err, size_t errlen);

/*
 * Look for an on-disk signature in the first and last bytes of a device or
 * image: ext2/3/4, XFS, btrfs, F2FS, LVM2, Linux md RAID (0.90, 1.0, 1.1,
 * 1.2), GPT, MBR/boot sector, swap, ZFS, LUKS. fd is read with pread only.
 * Returns 1 with a description ("ext2/3/4 filesystem (magic 0xEF53 at byte
 * 1080)") in what, 0 when none is found, or -errno.
 */
int bc_safety_signature(int fd, uint64_t size_bytes, char *what, size_t len);

/*
 * Whether the block device dev (major:minor) is mounted according to a
 * mountinfo file (normally /proc/self/mountinfo). Returns 1 with "on
 * MOUNTPOINT (FSTYPE)" in where, 0 when not mounted, or -errno.
 */
int bc_safety_mounted(const char *mountinfo, unsigned long dev, char *where, size_t len);

#endif
