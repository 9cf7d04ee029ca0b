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

#include "profile/profile.h"

struct bc_safety {
	char **allow; /* globs, canonical where their leading directories exist; owned */
	int nallow;
	char scratch_dir[BC_PATH_MAX]; /* always allowed, with everything below it */
	bool allow_destructive;	       /* --allow-destructive */
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

#endif
