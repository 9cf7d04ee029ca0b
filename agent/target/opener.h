/*
 * target/opener.h - how targets open a volume's file or device
 * (target/opener.c), below the registry and the plug-ins so both call it.
 * The agent installs its safety gate's opener (agent/safety/vopen.h), which
 * judges the descriptor the kernel hands back (no symlink, mount point or
 * hard link on the way, no FIFO or stray device node); unset (unit tests,
 * bench tools) it is open(2). The opener returns the descriptor, or -errno
 * with err naming the path; -EPERM means refused by the gate, err then says
 * why whole.
 */
#ifndef BC_TARGET_OPENER_H
#define BC_TARGET_OPENER_H

#include <stddef.h>
#include <sys/types.h>

typedef int (*bc_target_open_fn)(void *ctx, const char *path, int flags, mode_t mode, char *err,
				 size_t errlen);
void bc_target_set_opener(bc_target_open_fn fn, void *ctx);
/* path opened by the installed opener (O_CLOEXEC added); a descriptor or -errno */
int bc_target_open_path(const char *path, int flags, mode_t mode, char *err, size_t errlen);

#endif
