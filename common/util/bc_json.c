/*
 * bc_json.c - exact 64-bit integers through cJSON (bc_json.h). An exact
 * integer is a cJSON number whose valuestring holds its digits, marked by a
 * type bit cJSON itself never sets nor reads (it masks types with 0xFF);
 * cJSON_Duplicate copies both and cJSON_Delete frees the string. Printing
 * turns the marked numbers into raw items for the call (cJSON prints those
 * verbatim) and back; parsing pairs the text's number literals, in document
 * order, with the tree's numbers, which cJSON builds in the same order.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_json.h"

/* in cJSON.type above its 0xFF type mask and its own flags (256, 512) */
#define S_EXACT (1 << 12)
/*
 * doubles hold every integer up to 2^53, but cJSON prints with "%1.15g"
 * and keeps it when it reads back within a relative DBL_EPSILON: only
 * integers of up to 15 digits come out exact
 */
#define S_PLAIN_MAX 999999999999999LL

static cJSON *s_exact(double approx, const char *digits)
{
	cJSON *j = cJSON_CreateNumber(approx);
	size_t n = strlen(digits) + 1;

	if (!j)
		return NULL;
	j->valuestring = cJSON_malloc(n);
	if (!j->valuestring) {
		cJSON_Delete(j);
		return NULL;
	}
	memcpy(j->valuestring, digits, n);
	j->type |= S_EXACT;
	return j;
}

cJSON *bc_json_u64(uint64_t v)
{
	char d[24];

	if (v <= (uint64_t)S_PLAIN_MAX)
		return cJSON_CreateNumber((double)v);
	snprintf(d, sizeof(d), "%" PRIu64, v);
	return s_exact((double)v, d);
}

cJSON *bc_json_i64(int64_t v)
{
	char d[24];

	if (v <= S_PLAIN_MAX && v >= -S_PLAIN_MAX)
		return cJSON_CreateNumber((double)v);
	snprintf(d, sizeof(d), "%" PRId64, v);
	return s_exact((double)v, d);
}

/* j into obj under key, or freed; returns it or NULL */
static cJSON *s_add(cJSON *obj, const char *key, cJSON *j)
{
	if (j && !cJSON_AddItemToObject(obj, key, j)) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

cJSON *bc_json_add_u64(cJSON *obj, const char *key, uint64_t v)
{
	return s_add(obj, key, bc_json_u64(v));
}

cJSON *bc_json_add_i64(cJSON *obj, const char *key, int64_t v)
{
	return s_add(obj, key, bc_json_i64(v));
}

static bool s_has_digits(const cJSON *j)
{
	return (j->type & S_EXACT) && j->valuestring;
}

bool bc_json_get_u64(const cJSON *j, uint64_t *v)
{
	double d;

	*v = 0;
	if (!cJSON_IsNumber(j))
		return false;
	if (s_has_digits(j)) {
		if (j->valuestring[0] != '-') {
			errno = 0;
			*v = strtoull(j->valuestring, NULL, 10);
			if (errno == ERANGE)
				*v = UINT64_MAX;
		}
		return true;
	}
	d = j->valuedouble;
	if (!(d > 0))
		*v = 0;
	else if (d >= 18446744073709551616.0)
		*v = UINT64_MAX;
	else
		*v = (uint64_t)d;
	return true;
}

bool bc_json_get_i64(const cJSON *j, int64_t *v)
{
	double d;

	*v = 0;
	if (!cJSON_IsNumber(j))
		return false;
	if (s_has_digits(j)) {
		errno = 0;
		*v = strtoll(j->valuestring, NULL, 10);
		return true;
	}
	d = j->valuedouble;
	if (isnan(d))
		*v = 0;
	else if (d >= 9223372036854775808.0)
		*v = INT64_MAX;
	else if (d <= -9223372036854775808.0)
		*v = INT64_MIN;
	else
		*v = (int64_t)d;
	return true;
}

uint64_t bc_json_u64_of(const cJSON *j)
{
	uint64_t v;

	bc_json_get_u64(j, &v);
	return v;
}

int64_t bc_json_i64_of(const cJSON *j)
{
	int64_t v;

	bc_json_get_i64(j, &v);
	return v;
}

static void s_flip_one(cJSON *j, int to)
{
	if (s_has_digits(j))
		j->type = (j->type & ~0xFF) | to;
}

/* every marked item under j (not j itself) to type "to" */
static void s_flip(cJSON *j, int to)
{
	for (j = j->child; j; j = j->next) {
		s_flip_one(j, to);
		if (j->child)
			s_flip(j, to);
	}
}

char *bc_json_print(const cJSON *j, bool formatted)
{
	cJSON *w = (cJSON *)j; /* restored before returning */
	char *out;

	if (!j)
		return NULL;
	s_flip_one(w, cJSON_Raw);
	s_flip(w, cJSON_Raw);
	out = formatted ? cJSON_Print(w) : cJSON_PrintUnformatted(w);
	s_flip_one(w, cJSON_Number);
	s_flip(w, cJSON_Number);
	return out;
}

/* the text's next number literal from *p (strings skipped); false at the end */
static bool s_next_number(const char **p, const char *end, const char **tok, size_t *len)
{
	const char *s = *p;

	while (s < end && *s) {
		if (*s == '"') {
			for (s++; s < end && *s && *s != '"'; s++)
				if (*s == '\\' && s + 1 < end)
					s++;
			if (s < end && *s)
				s++;
			continue;
		}
		if (*s == '-' || isdigit((unsigned char)*s)) {
			*tok = s;
			while (s < end && (isdigit((unsigned char)*s) || strchr("+-.eE", *s)))
				s++;
			*len = (size_t)(s - *tok);
			*p = s;
			return true;
		}
		s++;
	}
	*p = s;
	return false;
}

struct s_cursor {
	const char *p, *end;
	bool lost; /* the text and the tree disagree: stop marking */
};

static void s_keep_digits(cJSON *j, const char *tok, size_t len)
{
	char d[32];
	size_t i;

	if (len >= sizeof(d) || fabs(j->valuedouble) <= (double)S_PLAIN_MAX)
		return;
	for (i = 0; i < len; i++)
		if (!isdigit((unsigned char)tok[i]) && !(i == 0 && tok[i] == '-'))
			return; /* a fraction or an exponent: a double, as written */
	memcpy(d, tok, len);
	d[len] = 0;
	j->valuestring = cJSON_malloc(len + 1);
	if (!j->valuestring)
		return;
	memcpy(j->valuestring, d, len + 1);
	j->type |= S_EXACT;
}

static void s_walk(cJSON *j, struct s_cursor *c)
{
	for (; j && !c->lost; j = j->next) {
		if (cJSON_IsNumber(j)) {
			const char *tok;
			size_t len;

			if (!s_next_number(&c->p, c->end, &tok, &len)) {
				c->lost = true;
				return;
			}
			s_keep_digits(j, tok, len);
		}
		if (j->child)
			s_walk(j->child, c);
	}
}

cJSON *bc_json_parse(const char *text, size_t len)
{
	cJSON *j = cJSON_ParseWithLength(text, len);
	struct s_cursor c = {text, text + len, false};

	if (!j)
		return NULL;
	/* the root alone: its siblings are none of ours */
	if (cJSON_IsNumber(j)) {
		const char *tok;
		size_t n;

		if (s_next_number(&c.p, c.end, &tok, &n))
			s_keep_digits(j, tok, n);
	} else if (j->child) {
		s_walk(j->child, &c);
	}
	return j;
}
