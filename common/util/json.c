/*
 * util/json.c - exact 64-bit integers through cJSON (util/json.h). An exact
 * integer is a cJSON number whose valuestring holds its digits, marked by a
 * type bit cJSON itself never sets nor reads (it masks types with 0xFF);
 * cJSON_Duplicate copies both and cJSON_Delete frees the string. Printing
 * writes the marked numbers' digits (the printer below is cJSON_Print's
 * format, not cJSON's code); parsing pairs the text's number literals, in document
 * order, with the tree's numbers, which cJSON builds in the same order.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

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

/*
 * The printer: cJSON_Print's text byte for byte (tests/unit/test_json.c
 * compares the two on every kind of value), with the exact integers'
 * digits, and faster. cJSON formats every number with "%1.15g" and reads it
 * back with sscanf to decide whether "%1.17g" is needed: that costs a third
 * of `bench-coord report`'s time at 100 agents x 10 points (fio.json's
 * latency bins are counts). An integer below 10^15 prints under "%1.15g"
 * as its plain digits, so those are written directly; any other number
 * takes cJSON's own route (strtod for sscanf: the same conversion).
 */
struct s_out {
	char *b;
	size_t n, cap;
	bool fail;
};

static void s_grow(struct s_out *o, size_t more)
{
	size_t cap = o->cap ? o->cap : 256;
	char *b;

	if (o->fail || o->n + more < o->cap)
		return;
	while (cap <= o->n + more)
		cap *= 2;
	b = realloc(o->b, cap);
	if (!b) {
		o->fail = true;
		return;
	}
	o->b = b;
	o->cap = cap;
}

static void s_put(struct s_out *o, const char *s, size_t n)
{
	s_grow(o, n);
	if (o->fail)
		return;
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

static void s_tabs(struct s_out *o, int n)
{
	s_grow(o, (size_t)(n > 0 ? n : 0));
	for (; !o->fail && n > 0; n--)
		o->b[o->n++] = '\t';
}

/* cJSON's string form: quotes, backslash and the C escapes, other controls as \u00xx */
static void s_put_str(struct s_out *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	const unsigned char *run = s;
	char esc[8];

	s_put(o, "\"", 1);
	for (; *s; s++) {
		if (*s > 31 && *s != '"' && *s != '\\')
			continue;
		s_put(o, (const char *)run, (size_t)(s - run));
		run = s + 1;
		switch (*s) {
		case '"':
			s_put(o, "\\\"", 2);
			break;
		case '\\':
			s_put(o, "\\\\", 2);
			break;
		case '\b':
			s_put(o, "\\b", 2);
			break;
		case '\f':
			s_put(o, "\\f", 2);
			break;
		case '\n':
			s_put(o, "\\n", 2);
			break;
		case '\r':
			s_put(o, "\\r", 2);
			break;
		case '\t':
			s_put(o, "\\t", 2);
			break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04x", *s);
			s_put(o, esc, 6);
		}
	}
	s_put(o, (const char *)run, (size_t)(s - run));
	s_put(o, "\"", 1);
}

/* cJSON's rule: equal within a relative DBL_EPSILON */
static bool s_close(double a, double b)
{
	double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= m * DBL_EPSILON;
}

static void s_put_num(struct s_out *o, const cJSON *j)
{
	double d = j->valuedouble;
	char buf[32], *p = buf + sizeof(buf);
	int n;

	if (s_has_digits(j)) {
		s_put(o, j->valuestring, strlen(j->valuestring));
		return;
	}
	if (isnan(d) || isinf(d)) {
		s_put(o, "null", 4);
		return;
	}
	if (fabs(d) <= (double)S_PLAIN_MAX && d == (double)(int64_t)d) {
		/* "%1.15g" of such a value: its digits, and "-0" for negative zero */
		uint64_t v = (uint64_t)(d < 0 ? -(int64_t)d : (int64_t)d);

		do
			*--p = (char)('0' + v % 10);
		while (v /= 10);
		if (signbit(d))
			*--p = '-';
		s_put(o, p, (size_t)(buf + sizeof(buf) - p));
		return;
	}
	n = snprintf(buf, sizeof(buf), "%1.15g", d);
	if (!s_close(strtod(buf, NULL), d))
		n = snprintf(buf, sizeof(buf), "%1.17g", d);
	s_put(o, buf, (size_t)n);
}

/* cJSON's print_value: depth as cJSON counts it (each array and object one more) */
static void s_put_value(struct s_out *o, const cJSON *j, bool fmt, int depth)
{
	const cJSON *c;

	switch (j->type & 0xFF) {
	case cJSON_NULL:
		s_put(o, "null", 4);
		return;
	case cJSON_False:
		s_put(o, "false", 5);
		return;
	case cJSON_True:
		s_put(o, "true", 4);
		return;
	case cJSON_Number:
		s_put_num(o, j);
		return;
	case cJSON_String:
		s_put_str(o, j->valuestring);
		return;
	case cJSON_Raw:
		if (!j->valuestring)
			o->fail = true; /* as cJSON: nothing to print */
		else
			s_put(o, j->valuestring, strlen(j->valuestring));
		return;
	case cJSON_Array:
		s_put(o, "[", 1);
		for (c = j->child; c && !o->fail; c = c->next) {
			s_put_value(o, c, fmt, depth + 1);
			if (c->next)
				s_put(o, ", ", fmt ? 2 : 1);
		}
		s_put(o, "]", 1);
		return;
	case cJSON_Object:
		s_put(o, "{\n", fmt ? 2 : 1);
		for (c = j->child; c && !o->fail; c = c->next) {
			if (fmt)
				s_tabs(o, depth + 1);
			s_put_str(o, c->string);
			s_put(o, ":\t", fmt ? 2 : 1);
			s_put_value(o, c, fmt, depth + 1);
			if (c->next)
				s_put(o, ",", 1);
			if (fmt)
				s_put(o, "\n", 1);
		}
		if (fmt)
			s_tabs(o, depth);
		s_put(o, "}", 1);
		return;
	default:
		o->fail = true; /* cJSON_Invalid */
	}
}

static char *s_print(const cJSON *j, bool fmt, int depth)
{
	struct s_out o = {0};

	if (!j)
		return NULL;
	s_put_value(&o, j, fmt, depth);
	s_put(&o, "", 1);
	if (o.fail) {
		free(o.b);
		return NULL;
	}
	return o.b;
}

char *bc_json_print(const cJSON *j, bool formatted)
{
	return s_print(j, formatted, 0);
}

char *bc_json_print_nested(const cJSON *j, int depth)
{
	return s_print(j, true, depth > 0 ? depth : 0);
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

/*
 * ---- NUL characters in strings ----
 * cJSON decodes "\u0000" into a NUL byte, so a string holding one reads as
 * cut short there ("v.dat\u0000/../../etc/passwd" reads "v.dat"). Its tree
 * cannot tell: the text can. The walk below reads the string tokens of the
 * text in the order the tree holds its keys and string values (cJSON keeps
 * both in text order) and names the first one whose escapes decode to a NUL.
 */

/* the next string token of the text from *p: true when one starts, *nul when it holds \u0000 */
static bool s_next_string(const char **p, const char *end, bool *nul)
{
	const char *s = *p;

	while (s < end && *s && *s != '"')
		s++;
	if (s >= end || !*s)
		return false;
	*nul = false;
	for (s++; s < end && *s && *s != '"'; s++) {
		if (*s != '\\' || s + 1 >= end)
			continue;
		s++;
		if (*s == 'u' && end - s >= 5 && !memcmp(s + 1, "0000", 4))
			*nul = true;
	}
	*p = s < end && *s ? s + 1 : s;
	return true;
}

static bool s_nul_walk(const cJSON *j, bool in_object, const char **p, const char *end, char *path,
		       size_t len)
{
	size_t at = strlen(path);
	int i = 0;
	bool nul;

	for (; j; j = j->next, i++) {
		if (in_object)
			snprintf(path + at, len - at, "%s%s", at ? "." : "",
				 j->string ? j->string : "");
		else
			snprintf(path + at, len - at, "[%d]", i);
		if (in_object && (!s_next_string(p, end, &nul) || nul))
			return true; /* the key itself (or the text ran out: say where) */
		if (cJSON_IsString(j) && (!s_next_string(p, end, &nul) || nul))
			return true;
		if ((cJSON_IsObject(j) || cJSON_IsArray(j)) &&
		    s_nul_walk(j->child, cJSON_IsObject(j), p, end, path, len))
			return true;
	}
	path[at] = 0;
	return false;
}

bool bc_json_nul_path(const cJSON *root, const char *text, size_t len, char *path, size_t pathlen)
{
	const char *p = text, *end = text + len, *q;
	bool nul = false;

	path[0] = 0;
	/* most texts have no "\u0000" at all: one scan and done */
	for (q = text; q + 6 <= end && !nul; q++)
		nul = q[0] == '\\' && q[1] == 'u' && !memcmp(q + 2, "0000", 4);
	if (!nul || !root)
		return false;
	if (cJSON_IsString(root))
		return s_next_string(&p, end, &nul) && nul;
	/* exact: "\\u0000" (an escaped backslash, then "u0000") is no NUL */
	return s_nul_walk(root->child, cJSON_IsObject(root), &p, end, path, pathlen);
}
