/*
 * session/volume.c - a volume path as the session sees it (see session/volume.h): where
 * it resolves, whether the profile consents to destroying it, and which of
 * the PREPARE gate's rules its target asks for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "safety/safety.h"
#include "safety/vopen.h"
#include "session/volume.h"
#include "target/target.h"

int bc_agent_resolve_path(const struct bc_agent *a, const char *path, char *out, size_t len)
{
	int n;

	/* a name a target claims ("null", "sim:NAME") has no file behind it */
	if (path[0] == '/' || bc_target_pseudo(path))
		n = snprintf(out, len, "%s", path);
	else
		n = snprintf(out, len, "%s/%s", a->opts.scratch_dir, path);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int bc_agent_volume_open(void *safety, const char *path, int flags, mode_t mode, char *err,
			 size_t errlen)
{
	static const struct bc_safety none; /* no policy given: nothing but names without files */

	return bc_vopen(safety ? safety : &none, path, flags, mode, err, errlen);
}

bool bc_agent_volume_destructive(const struct bc_agent *a, const cJSON *vol, const char *path)
{
	const cJSON *p;
	char r[BC_PATH_MAX];

	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(vol, "destructive")))
		return true;
	cJSON_ArrayForEach(p, a->destructive)
	{
		if (cJSON_IsString(p) && !bc_agent_resolve_path(a, p->valuestring, r, sizeof(r)) &&
		    !strcmp(r, path))
			return true;
	}
	return false;
}

int bc_agent_fileset_gate(const struct bc_agent *a, const char *path, char *err, size_t errlen)
{
	static const struct bc_safety none;
	const struct bc_safety *s = a->opts.safety ? a->opts.safety : &none;
	char canon[BC_PATH_MAX], scratch[BC_PATH_MAX];
	int rc = bc_safety_allowed(s, path, err, errlen);

	if (rc)
		return rc;
	if (!bc_safety_canonical(path, canon, sizeof(canon)) &&
	    !bc_safety_scratch(s, scratch, sizeof(scratch)) && !strcmp(canon, scratch)) {
		snprintf(err, errlen,
			 "%s: the scratch directory itself; a file set is a directory in it", path);
		return -EPERM;
	}
	return 0;
}

int bc_agent_volume_gate(const struct bc_agent *a, const char *path, bool writes, bool destructive,
			 char *err, size_t errlen)
{
	unsigned rules = bc_target_safety(path);

	if (!(rules & BC_TSAFE_ALLOWLIST))
		return 0;
	return bc_safety_check(a->opts.safety, path, writes && (rules & BC_TSAFE_DEVICE),
			       destructive, err, errlen);
}
