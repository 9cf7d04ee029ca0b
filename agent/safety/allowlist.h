/*
 * safety/allowlist.h - what this agent allows: the paths a coordinator may
 * touch (the scratch directory always, other paths only when they match a
 * glob of the agent's config "allow" or --allow) and whether it lets a
 * profile destroy a device's contents (--allow-destructive, used by the
 * device checks of safety/safety.h). Paths are canonicalised first (symlinks,
 * "..") so a link in an allowed directory cannot point elsewhere; only links
 * matched by a glob under /dev (where only root makes links:
 * /dev/disk/by-id/...) allow their targets.
 */
#ifndef BC_SAFETY_ALLOWLIST_H
#define BC_SAFETY_ALLOWLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "profile/profile.h"

struct bc_safety {
	char **allow; /* globs, canonical where their leading directories exist; owned */
	int nallow;
	char scratch_dir[BC_PATH_MAX]; /* always allowed, with everything below it */
	bool allow_destructive;	       /* --allow-destructive */
	/* where device nodes may be: "" is /dev; unit tests give a directory of their own */
	char dev_dir[BC_PATH_MAX];
	/*
	 * the scratch directory as it was when first seen (bc_safety_pin_scratch):
	 * its canonical path and identity, so that a scratch directory swapped for
	 * another (or for a symlink) afterwards is refused, not followed
	 */
	bool scratch_pinned;
	char scratch_canon[BC_PATH_MAX];
	dev_t scratch_dev;
	ino_t scratch_ino;
};

/*
 * Add one allowlist entry: an absolute path or glob (fnmatch with
 * FNM_PATHNAME: '*' stays within one directory); an entry ending in a slash
 * and two stars allows everything below that directory. Returns 0, -EINVAL
 * (not absolute) or -ENOMEM.
 */
int bc_safety_allow(struct bc_safety *s, const char *glob);
void bc_safety_free(struct bc_safety *s);

/* the allowlist gate alone: 0, or -EPERM with a message */
int bc_safety_allowed(const struct bc_safety *s, const char *path, char *err, size_t errlen);

/*
 * Canonical form of a path that may not exist yet: realpath of the path, or
 * of its directory plus the last component. 0, -ELOOP for a symlink to
 * nothing (creating the file would follow it), or -errno.
 */
int bc_safety_canonical(const char *path, char *out, size_t len);
/* path equals dir or lies below it (both canonical) */
bool bc_safety_below(const char *path, const char *dir);
/* an allow entry without glob characters names canon itself */
bool bc_safety_named(const struct bc_safety *s, const char *canon);
/* the scratch directory, canonical when it exists (as pinned); -ENOENT when there is none */
int bc_safety_scratch(const struct bc_safety *s, char *out, size_t len);
/*
 * Pin the scratch directory once it exists (at start, or when PREPARE makes
 * it): its canonical path and device/inode. Refused (-EPERM with a message)
 * when a component of the configured path is a symlink owned by neither
 * root nor this agent's user: whoever owns it could point the scratch
 * directory anywhere. 0 when pinned or still missing.
 */
int bc_safety_pin_scratch(struct bc_safety *s, char *err, size_t errlen);

#endif
