/*
 * safety/allowlist.c - which paths this agent lets a coordinator touch (see
 * safety/allowlist.h): globs and the scratch directory, matched against the
 * canonical path so a link or ".." cannot lead out of what was allowed.
 */
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/allowlist.h"

static bool s_has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * Canonical form of a path that may not exist yet: realpath of the path, or
 * of its directory plus the last component. A dangling symlink is refused:
 * creating the file would follow it somewhere nobody allowed.
 */
int bc_safety_canonical(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *base;
	struct stat st;

	if (realpath(path, real)) {
		if (snprintf(out, len, "%s", real) >= (int)len)
			return -ENAMETOOLONG;
		return 0;
	}
	if (errno != ENOENT)
		return -errno;
	if (!lstat(path, &st))
		return -ELOOP; /* exists as a link to nothing */
	base = strrchr(path, '/');
	if (!base || !base[1] || !strcmp(base + 1, ".") || !strcmp(base + 1, ".."))
		return -EINVAL;
	if ((size_t)(base - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(base - path));
	dir[base - path] = 0;
	if (!realpath(dir[0] ? dir : "/", real))
		return -errno;
	if (snprintf(out, len, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base + 1) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* "/a/b/x*.dat" becomes realpath("/a/b") + "/x*.dat" when /a/b exists */
static char *s_canonical_glob(const char *glob)
{
	char lead[PATH_MAX], real[PATH_MAX], *out;
	const char *g = strpbrk(glob, "*?["), *cut;
	size_t n;

	if (!g) {
		if (realpath(glob, real))
			return strdup(real);
		return strdup(glob);
	}
	/* the directory part before the first component holding a glob character */
	for (cut = g; cut > glob && *cut != '/'; cut--)
		;
	n = (size_t)(cut - glob);
	if (n == 0 || n >= sizeof(lead))
		return strdup(glob);
	memcpy(lead, glob, n);
	lead[n] = 0;
	if (!realpath(lead, real))
		return strdup(glob);
	out = malloc(strlen(real) + strlen(cut) + 1);
	if (out)
		sprintf(out, "%s%s", real, cut);
	return out;
}

int bc_safety_allow(struct bc_safety *s, const char *glob)
{
	char **grown;
	char *c;

	if (!glob || glob[0] != '/')
		return -EINVAL;
	c = s_canonical_glob(glob);
	if (!c)
		return -ENOMEM;
	grown = realloc(s->allow, (size_t)(s->nallow + 1) * sizeof(*grown));
	if (!grown) {
		free(c);
		return -ENOMEM;
	}
	s->allow = grown;
	s->allow[s->nallow++] = c;
	return 0;
}

void bc_safety_free(struct bc_safety *s)
{
	int i;

	for (i = 0; i < s->nallow; i++)
		free(s->allow[i]);
	free(s->allow);
	s->allow = NULL;
	s->nallow = 0;
}

bool bc_safety_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0 || n == 1);
}

/* one allow entry against the canonical target */
static bool s_match(const char *pattern, const char *canon)
{
	size_t n = strlen(pattern);
	char real[PATH_MAX];
	glob_t g;
	size_t i;
	bool hit = false;

	if (n >= 3 && !strcmp(pattern + n - 3, "/**")) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(n - 3), pattern);
		if (!s_has_glob(dir))
			return bc_safety_below(canon, dir);
		/* a glob before the trailing stars: canon lies below a path matching it */
		for (i = 1; canon[i] && !hit; i++)
			if (canon[i] == '/') {
				snprintf(real, sizeof(real), "%.*s", (int)i, canon);
				hit = !fnmatch(dir, real, FNM_PATHNAME);
			}
		return hit || !fnmatch(dir, canon, FNM_PATHNAME);
	}
	if (!fnmatch(pattern, canon, FNM_PATHNAME))
		return true;
	/*
	 * Links among a glob's matches name their targets -- under /dev only,
	 * where only root makes links (/dev/disk/by-id/nvme-* is /dev/nvme0n1).
	 * Elsewhere whoever can write the directory could point one anywhere.
	 */
	if (strncmp(pattern, "/dev/", 5) || !s_has_glob(pattern))
		return false;
	if (glob(pattern, 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc && !hit; i++)
		hit = realpath(g.gl_pathv[i], real) && !strcmp(real, canon);
	globfree(&g);
	return hit;
}

bool bc_safety_named(const struct bc_safety *s, const char *canon)
{
	int i;

	for (i = 0; i < s->nallow; i++)
		if (!s_has_glob(s->allow[i]) && !strcmp(s->allow[i], canon))
			return true;
	return false;
}

int bc_safety_scratch(const struct bc_safety *s, char *out, size_t len)
{
	if (!s->scratch_dir[0])
		return -ENOENT;
	if (s->scratch_pinned) {
		snprintf(out, len, "%s", s->scratch_canon);
		return 0;
	}
	if (bc_safety_canonical(s->scratch_dir, out, len))
		snprintf(out, len, "%s", s->scratch_dir);
	return 0;
}

int bc_safety_pin_scratch(struct bc_safety *s, char *err, size_t errlen)
{
	char part[PATH_MAX], canon[PATH_MAX];
	const char *p;
	struct stat st;

	if (s->scratch_pinned || !s->scratch_dir[0] || stat(s->scratch_dir, &st))
		return 0; /* pinned already, or not made yet (PREPARE makes and pins it) */
	/* every symlink on the configured path belongs to root or to this agent's user */
	for (p = s->scratch_dir; (p = strchr(p + 1, '/')) || 1;) {
		size_t n = p ? (size_t)(p - s->scratch_dir) : strlen(s->scratch_dir);

		if (n && n < sizeof(part)) {
			memcpy(part, s->scratch_dir, n);
			part[n] = 0;
			if (!lstat(part, &st) && S_ISLNK(st.st_mode) && st.st_uid &&
			    st.st_uid != geteuid()) {
				snprintf(
				    err, errlen,
				    "scratch directory '%s': '%s' is a symlink owned by uid %u "
				    "(neither root nor this agent's user), who could point the "
				    "scratch directory anywhere; refusing it",
				    s->scratch_dir, part, (unsigned)st.st_uid);
				return -EPERM;
			}
		}
		if (!p)
			break;
	}
	if (!realpath(s->scratch_dir, canon) || stat(canon, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "scratch directory '%s': %s", s->scratch_dir,
			 errno ? strerror(errno) : "not a directory");
		return -ENOTDIR;
	}
	snprintf(s->scratch_canon, sizeof(s->scratch_canon), "%s", canon);
	s->scratch_dev = st.st_dev;
	s->scratch_ino = st.st_ino;
	s->scratch_pinned = true;
	return 0;
}

/* absolute, and no "." or ".." component that would need the filesystem to resolve */
static bool s_lexical_ok(const char *path)
{
	const char *p = path;

	if (path[0] != '/')
		return false;
	while ((p = strchr(p, '/'))) {
		p++;
		if ((p[0] == '.' && (p[1] == '/' || !p[1])) ||
		    (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2])))
			return false;
	}
	return true;
}

int bc_safety_allowed(const struct bc_safety *s, const char *path, char *err, size_t errlen)
{
	char canon[PATH_MAX], scratch[PATH_MAX];
	int i, rc;

	rc = bc_safety_canonical(path, canon, sizeof(canon));
	/* a directory still to be made (the scratch directory): judge the words as given */
	if (rc == -ENOENT && s_lexical_ok(path) && strlen(path) < sizeof(canon)) {
		snprintf(canon, sizeof(canon), "%s", path);
		rc = 0;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s", path,
			 rc == -ELOOP ? "is a symlink to nothing; refusing to follow it"
				      : strerror(-rc));
		return -EPERM;
	}
	if (!bc_safety_scratch(s, scratch, sizeof(scratch)) && bc_safety_below(canon, scratch))
		return 0;
	for (i = 0; i < s->nallow; i++)
		if (s_match(s->allow[i], canon))
			return 0;
	snprintf(err, errlen,
		 "%s%s%s%s: not in this agent's allowlist (allowed: its scratch directory %s, "
		 "\"null\"%s); add it to \"allow\" in the agent's --config or start it with "
		 "--allow",
		 path, strcmp(path, canon) ? " (" : "", strcmp(path, canon) ? canon : "",
		 strcmp(path, canon) ? ")" : "", s->scratch_dir,
		 s->nallow ? " and the config's globs" : "");
	return -EPERM;
}
