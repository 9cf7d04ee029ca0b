/*
 * engine/meta.h - a file set's metadata operations (the workload's "meta":
 * create, delete, getattr, setattr, access, open, close, mkdir, rmdir), as
 * a job performs them: a synchronous system call on the job thread, as
 * vdbench's file-system threads and fio's filecreate / filestat /
 * filedelete engines make theirs, one at a time per job (concurrency is
 * the step's jobs). io_uring has openat, close, statx, unlinkat and mkdirat
 * but no setattr or access, and they run in its io-wq workers rather than
 * inline; one synchronous path times every kind the same way.
 *
 * The entry's directory is walked beneath the tree's root (openat2
 * RESOLVE_BENEATH, no symlink, no mount point), so nothing outside the tree
 * is ever touched; the latency covers that walk and the operation, as a
 * path-based call's covers its own walk. Which entry a job acts on, and
 * the tree's state, are the job's (engine/job.c, struct bc_target_files).
 */
#ifndef BC_ENGINE_META_H
#define BC_ENGINE_META_H

#include <stdint.h>

#include "target/ops.h"

/*
 * Perform kind (enum bc_meta_kind) on file idx of f's tree (directory idx
 * for mkdir and rmdir); *lat_ns its latency. 0, or -errno (the
 * operation's, or the walk's). create_write: the file is created with
 * oflags added (O_DIRECT) and left open in *fd for its writes (the
 * caller's, engine/job.c), which the caller closes.
 */
int bc_meta_op(const struct bc_target_files *f, uint32_t kind, uint32_t idx, int oflags, int *fd,
	       uint64_t *lat_ns);

/* kind acts on the tree's directories (mkdir, rmdir), not its files */
static inline int bc_meta_on_dirs(uint32_t kind)
{
	return kind == BC_META_MKDIR || kind == BC_META_RMDIR;
}

#endif
