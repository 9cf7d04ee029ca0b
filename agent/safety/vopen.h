/*
 * safety/vopen.h - opening a volume so that what is opened is what was allowed.
 * The allowlist (safety/allowlist.h) judges a path; this judges the descriptor
 * the kernel hands back, so a path changed between the check and the open
 * (a component swapped for a symlink, a file replaced) cannot slip through:
 *
 *   - the path is resolved to its canonical form (symlinks, "..") and must
 *     be allowed: below the scratch directory, or matching the allowlist;
 *   - below the scratch directory it is opened relative to that directory
 *     with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 *     RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV): no symlink, no "..", no
 *     mount point (a bind mount or another filesystem) on the way;
 *     elsewhere from "/" with RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
 *     (the canonical path has no symlink left, so any found was put there
 *     since);
 *   - where openat2 is missing (Linux < 5.6, or refused by a seccomp
 *     filter) the same walk is made one component at a time with
 *     openat(O_PATH | O_NOFOLLOW), each directory checked to be on the
 *     scratch directory's mount (its mount id);
 *   - the descriptor is then judged by fstat (bc_safety_kind): a regular
 *     file with one link (more only when an allow entry names that very
 *     file), or a block or character device under /dev matched by the
 *     allowlist; never a directory, FIFO, socket or a device node anywhere
 *     else (the scratch directory holds files, not devices).
 *
 * The open is O_NONBLOCK (a FIFO swapped in cannot hang the agent), cleared
 * again before the descriptor is returned.
 */
#ifndef BC_VOPEN_H
#define BC_VOPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "safety/allowlist.h"

struct open_how;

/*
 * The system calls this module makes that tests replace (the style of
 * SQLite's VFS syscall table): a test sets openat2 to a function returning
 * -1 with errno ENOSYS to take the fallback path.
 */
struct bc_vopen_sys {
	long (*openat2)(int dirfd, const char *path, struct open_how *how, size_t size);
};
extern struct bc_vopen_sys bc_vopen_sys;

/*
 * Open path (absolute, as the session resolved it) with flags (O_RDONLY,
 * O_RDWR, O_CREAT | O_EXCL, O_DIRECT, O_EXCL, O_PATH ...) and mode, under
 * policy s. Returns the descriptor, or -errno with one line naming the path
 * and the reason in err.
 */
int bc_vopen(const struct bc_safety *s, const char *path, int flags, mode_t mode, char *err,
	     size_t errlen);

/*
 * The rule on what a volume may be (see the file comment), for canonical
 * path canon whose stat is st, below the scratch directory or not. 0, or
 * -EPERM with a message.
 */
int bc_safety_kind(const struct bc_safety *s, const char *canon, const struct stat *st,
		   bool in_scratch, char *err, size_t errlen);

#endif
