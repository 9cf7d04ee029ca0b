/*
 * profile/value/keys.c - unknown keys in a small JSON object, named with the list of
 * the known ones so the fix is in the message (see profile/value/keys.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile/value/keys.h"

int bc_keys_known(const cJSON *o, const char *path, const char *const *keys, char *err,
		  size_t errlen)
{
	const cJSON *it;
	size_t at;
	int i;

	cJSON_ArrayForEach(it, o)
	{
		for (i = 0; keys[i] && strcmp(keys[i], it->string); i++)
			;
		if (keys[i])
			continue;
		at = (size_t)snprintf(err, errlen, "%s: unknown key \"%s\" (known:", path,
				      it->string);
		for (i = 0; keys[i] && at < errlen; i++)
			at +=
			    (size_t)snprintf(err + at, errlen - at, "%s %s", i ? "," : "", keys[i]);
		if (at < errlen)
			snprintf(err + at, errlen - at, ")");
		return -EINVAL;
	}
	return 0;
}
