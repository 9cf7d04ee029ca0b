/*
 * profile/value/check.c - the value validators behind bc_profile_parse and
 * bc_workload_from_json (profile/value/check.h). Profiles are typed by hand, so every error names
 * its JSON path and quotes the offending value: the fix should be obvious from the message alone.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/value/check.h"
#include "profile/value/units.h"

/*
 * JSON numbers are doubles: above 2^53 not every integer exists, so a size
 * could not survive bc_profile_to_json and back. 8 PiB is far beyond any
 * device this tool will see.
 */
#define S_SIZE_MAX (1ull << 53)

int bc_check_fail(struct bc_check *c, const char *path, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	if (!c->err || !c->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (c->src && *path)
		snprintf(c->err, c->errlen, "%s: %s: %s", c->src, path, what);
	else if (c->src || *path)
		snprintf(c->err, c->errlen, "%s: %s", c->src ? c->src : path, what);
	else
		snprintf(c->err, c->errlen, "%s", what);
	return -EINVAL;
}

/* the value as JSON, cut to keep the message one short line */
const char *bc_check_show(const cJSON *v, char buf[BC_CHECK_SHOW_LEN])
{
	char *s = cJSON_PrintUnformatted(v);

	if (!s)
		snprintf(buf, BC_CHECK_SHOW_LEN, "?");
	else if (strlen(s) >= BC_CHECK_SHOW_LEN)
		snprintf(buf, BC_CHECK_SHOW_LEN, "%.*s...", BC_CHECK_SHOW_LEN - 4, s);
	else
		snprintf(buf, BC_CHECK_SHOW_LEN, "%s", s);
	cJSON_free(s);
	return buf;
}

void bc_check_path(char path[BC_CHECK_PATH_LEN], const char *base, const char *key)
{
	snprintf(path, BC_CHECK_PATH_LEN, *base ? "%s.%s" : "%s%s", base, key);
}

static bool s_listed(const char *const *keys, const char *k)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, k))
			return true;
	return false;
}

/* cJSON keeps both copies of a repeated key and reads the first: refuse it */
static int s_repeated(struct bc_check *c, const cJSON *obj, const cJSON *k, const char *path)
{
	const cJSON *prev;

	for (prev = obj->child; prev != k; prev = prev->next)
		if (!strcmp(prev->string, k->string))
			return bc_check_fail(c, path, "duplicate key");
	return 0;
}

int bc_check_keys(struct bc_check *c, const cJSON *obj, const char *base, const char *const *keys)
{
	return bc_check_keys_with(c, obj, base, keys, NULL);
}

int bc_check_keys_with(struct bc_check *c, const cJSON *obj, const char *base,
		       const char *const *keys, bool (*known)(const char *key))
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *k;
	int ret;

	cJSON_ArrayForEach(k, obj)
	{
		bc_check_path(path, base, k->string);
		if (!(keys && s_listed(keys, k->string)) && !(known && known(k->string)))
			return bc_check_fail(c, path, "unknown key");
		ret = s_repeated(c, obj, k, path);
		if (ret)
			return ret;
	}
	return 0;
}

int bc_check_bool(struct bc_check *c, const char *path, const cJSON *v, bool *out)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (!cJSON_IsBool(v))
		return bc_check_fail(c, path, "expected true or false, got %s",
				     bc_check_show(v, shown));
	*out = cJSON_IsTrue(v);
	return 0;
}

int bc_check_int(struct bc_check *c, const char *path, const cJSON *v, double lo, double hi,
		 double *out)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
	    v->valuedouble > hi)
		return bc_check_fail(c, path, "expected an integer in %.0f..%.0f, got %s", lo, hi,
				     bc_check_show(v, shown));
	*out = v->valuedouble;
	return 0;
}

int bc_check_object(struct bc_check *c, const char *path, const cJSON *v)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (!cJSON_IsObject(v))
		return bc_check_fail(c, path, "expected an object, got %s",
				     bc_check_show(v, shown));
	return 0;
}

int bc_check_item(struct bc_check *c, const cJSON *obj, const char *base, const char *key,
		  bool required, char path[BC_CHECK_PATH_LEN], const cJSON **v)
{
	bc_check_path(path, base, key);
	*v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!*v && required)
		return bc_check_fail(c, path, "required key missing");
	return 0;
}

int bc_check_array(struct bc_check *c, const cJSON *obj, const char *key, bool required,
		   const cJSON **arr)
{
	char shown[BC_CHECK_SHOW_LEN];
	int n;

	*arr = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!*arr && !required)
		return 0;
	if (!*arr)
		return bc_check_fail(c, key, "required key missing");
	n = cJSON_IsArray(*arr) ? cJSON_GetArraySize(*arr) : -1;
	if (n < 0 || (required && !n))
		return bc_check_fail(c, key, "expected %s, got %s",
				     required ? "a non-empty array" : "an array",
				     bc_check_show(*arr, shown));
	return n;
}

int bc_check_entry(struct bc_check *c, const cJSON *item, const char *base, const char *const *keys,
		   const char *key, char path[BC_CHECK_PATH_LEN], const cJSON **v)
{
	int ret = bc_check_object(c, base, item);

	if (!ret)
		ret = bc_check_keys(c, item, base, keys);
	if (!ret)
		ret = bc_check_item(c, item, base, key, true, path, v);
	return ret;
}

int bc_check_list(struct bc_check *c, const cJSON *obj, const char *key, bool required, size_t size,
		  void **table, int *count,
		  int (*one)(struct bc_check *c, const cJSON *item, const char *base, void *arg),
		  void *arg)
{
	char base[BC_CHECK_PATH_LEN];
	const cJSON *arr, *item;
	int n, ret;

	n = bc_check_array(c, obj, key, required, &arr);
	if (n <= 0)
		return n;
	*table = calloc((size_t)n, size);
	if (!*table)
		return -ENOMEM;
	cJSON_ArrayForEach(item, arr)
	{
		snprintf(base, sizeof(base), "%s[%d]", key, *count);
		ret = one(c, item, base, arg);
		if (ret)
			return ret;
		(*count)++;
	}
	return 0;
}

static bool s_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n < BC_NAME_MAX &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

int bc_check_name(struct bc_check *c, const char *path, const cJSON *v, char dst[BC_NAME_MAX])
{
	char shown[BC_CHECK_SHOW_LEN];

	if (!cJSON_IsString(v) || !s_name_ok(v->valuestring))
		return bc_check_fail(c, path,
				     "expected a name of 1..%d characters [A-Za-z0-9._-], got %s",
				     BC_NAME_MAX - 1, bc_check_show(v, shown));
	strcpy(dst, v->valuestring);
	return 0;
}

/* a non-empty string shorter than max bytes */
int bc_check_str(struct bc_check *c, const char *path, const cJSON *v, size_t max)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (!cJSON_IsString(v) || !*v->valuestring || strlen(v->valuestring) >= max)
		return bc_check_fail(c, path,
				     "expected a non-empty string of at most %zu bytes, got %s",
				     max - 1, bc_check_show(v, shown));
	return 0;
}

int bc_check_no_ctl(struct bc_check *c, const char *path, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return bc_check_fail(
			    c, path,
			    "holds a control character (U+%04X at byte %zu); paths "
			    "may not (a terminal or log would show something else)",
			    *p, (size_t)(p - (const unsigned char *)s));
	return 0;
}

static bool s_is_uint(const cJSON *v)
{
	return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= (double)S_SIZE_MAX &&
	       (double)(uint64_t)v->valuedouble == v->valuedouble;
}

int bc_check_uint(struct bc_check *c, const char *path, const cJSON *v, uint64_t min, uint64_t max,
		  uint64_t *out)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (!s_is_uint(v))
		return bc_check_fail(c, path, "expected integer >= %llu, got %s",
				     (unsigned long long)min, bc_check_show(v, shown));
	*out = (uint64_t)v->valuedouble;
	if (*out < min || *out > max)
		return bc_check_fail(c, path, "must be in %llu..%llu, got %s",
				     (unsigned long long)min, (unsigned long long)max,
				     bc_check_show(v, shown));
	return 0;
}

/* "4k" or integer bytes; only integers in the strict wire form */
int bc_check_size(struct bc_check *c, const char *path, const cJSON *v, uint64_t *out)
{
	char shown[BC_CHECK_SHOW_LEN];
	int ret;

	if (cJSON_IsString(v) && !c->strict) {
		ret = bc_parse_size(v->valuestring, out);
		if (ret == -EINVAL)
			return bc_check_fail(c, path,
					     "expected a size such as \"4k\" or \"1GiB\", got %s",
					     bc_check_show(v, shown));
		if (ret || *out > S_SIZE_MAX)
			return bc_check_fail(c, path, "size too large (limit 2^53 bytes), got %s",
					     bc_check_show(v, shown));
		return 0;
	}
	if (!s_is_uint(v))
		return bc_check_fail(c, path,
				     c->strict
					 ? "expected integer bytes, got %s"
					 : "expected a size (\"4k\" or integer bytes), got %s",
				     bc_check_show(v, shown));
	*out = (uint64_t)v->valuedouble;
	return 0;
}

/* "10s" or integer seconds (only integers in the wire form), stored as whole seconds */
int bc_check_duration(struct bc_check *c, const char *path, const cJSON *v, uint32_t min_s,
		      uint32_t *out)
{
	char shown[BC_CHECK_SHOW_LEN];
	uint64_t ms, s;
	int ret;

	if (cJSON_IsString(v) && !c->strict) {
		ret = bc_parse_duration_ms(v->valuestring, &ms);
		if (ret == -EINVAL)
			return bc_check_fail(
			    c, path,
			    "expected a duration such as \"10s\", \"5m\" or \"1h\", got %s",
			    bc_check_show(v, shown));
		if (!ret && ms % 1000)
			return bc_check_fail(c, path, "durations are whole seconds, got %s",
					     bc_check_show(v, shown));
		s = ret ? UINT64_MAX : ms / 1000;
	} else if (s_is_uint(v)) {
		s = (uint64_t)v->valuedouble;
	} else {
		return bc_check_fail(
		    c, path,
		    c->strict ? "expected integer seconds, got %s"
			      : "expected a duration (\"10s\" or integer seconds), got %s",
		    bc_check_show(v, shown));
	}
	if (s > UINT32_MAX)
		return bc_check_fail(c, path, "must be at most %u seconds, got %s", UINT32_MAX,
				     bc_check_show(v, shown));
	if (s < min_s)
		return bc_check_fail(c, path, "must be >= %us, got %s", min_s,
				     bc_check_show(v, shown));
	*out = (uint32_t)s;
	return 0;
}
