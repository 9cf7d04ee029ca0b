/*
 * profile/value/keys.c - unknown keys in a small JSON object, named with the list of
 * the known ones so the fix is in the message, and the sizes and counts such objects hold
 * (see profile/value/keys.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profile/value/keys.h"
#include "profile/value/units.h"

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

int bc_keys_size(const cJSON *v, uint64_t *out)
{
	if (cJSON_IsString(v))
		return bc_parse_size(v->valuestring, out);
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 18446744073709551616.0 &&
	    v->valuedouble == floor(v->valuedouble)) {
		*out = (uint64_t)v->valuedouble;
		return 0;
	}
	return -EINVAL;
}

int bc_keys_uint(const cJSON *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
	if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi ||
	    v->valuedouble != floor(v->valuedouble))
		return -EINVAL;
	*out = (uint32_t)v->valuedouble;
	return 0;
}
