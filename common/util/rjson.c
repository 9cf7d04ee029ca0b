/*
 * util/rjson.c - JSON lookups along a key path that tolerate a partial
 * run.json (a run still writing, or cut short): missing keys give NULL, 0
 * or a fallback, never a crash.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/rjson.h"

static const cJSON *s_rj_va(const cJSON *o, va_list ap)
{
	const char *k;

	while (o && (k = va_arg(ap, const char *)))
		o = cJSON_GetObjectItemCaseSensitive(o, k);
	return o;
}

const cJSON *bc_rj_(const cJSON *o, ...)
{
	va_list ap;

	va_start(ap, o);
	o = s_rj_va(o, ap);
	va_end(ap);
	return o;
}

double bc_rj_num_(const cJSON *o, ...)
{
	va_list ap;

	va_start(ap, o);
	o = s_rj_va(o, ap);
	va_end(ap);
	return cJSON_IsNumber(o) ? o->valuedouble : 0;
}

const char *bc_rj_str_(const char *fallback, const cJSON *o, ...)
{
	va_list ap;

	va_start(ap, o);
	o = s_rj_va(o, ap);
	va_end(ap);
	return cJSON_IsString(o) ? o->valuestring : fallback;
}

cJSON *bc_rj_read_file(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[PATH_MAX + 64];
	char *text = NULL;
	long n;
	cJSON *j = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	text = malloc((size_t)n + 1);
	if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, errlen, "cannot read '%s'", path);
		goto out;
	}
	text[n] = '\0';
	j = bc_json_parse(text, (size_t)n); /* exact 64-bit integers (util/json.h) */
	if (!j)
		snprintf(err, errlen, "'%s' is not valid JSON", path);
out:
	free(text);
	fclose(f);
	return j;
}
