/*
 * counters/promtext.c - the Prometheus text exposition format, one line at a time.
 * Grammar (exposition_formats.md, "Text format details"):
 *   line    = comment | sample ; blank lines are ignored
 *   comment = "#" ws ("HELP" ws name ws docstring | "TYPE" ws name ws type | anything)
 *   sample  = name [ "{" [ label { "," label } [","] ] "}" ] ws value [ ws timestamp ]
 *   label   = lname ws? "=" ws? '"' escaped-value '"'
 * Values are Go ParseFloat forms; strtod reads them (the coordinator runs in
 * the C locale, so the decimal point is '.').
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters/promtext.h"

/* the current family, from the last # TYPE line */
struct s_family {
	char name[BC_PROM_NAME_MAX];
	enum bc_prom_type type;
};

static bool s_ws(char c)
{
	return c == ' ' || c == '\t';
}

static const char *s_skip_ws(const char *p, const char *end)
{
	while (p < end && s_ws(*p))
		p++;
	return p;
}

static bool s_name_start(char c, bool metric)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (metric && c == ':');
}

static bool s_name_char(char c, bool metric)
{
	return s_name_start(c, metric) || (c >= '0' && c <= '9');
}

/* a name at p into dst; returns the end of it, or NULL when there is none or it is too long */
static const char *s_name(const char *p, const char *end, bool metric, char *dst, size_t cap)
{
	const char *s = p;

	if (p >= end || !s_name_start(*p, metric))
		return NULL;
	while (p < end && s_name_char(*p, metric))
		p++;
	if ((size_t)(p - s) >= cap)
		return NULL;
	memcpy(dst, s, (size_t)(p - s));
	dst[p - s] = '\0';
	return p;
}

/* a whitespace-delimited token [*tok, return) */
static const char *s_token(const char *p, const char *end, const char **tok)
{
	*tok = p;
	while (p < end && !s_ws(*p))
		p++;
	return p;
}

/* the whole token as a double; false when it is not one */
static bool s_double(const char *tok, const char *tend, double *v)
{
	char buf[64], *e;
	size_t n = (size_t)(tend - tok);

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, tok, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtod(buf, &e);
	/* overflow to +-HUGE_VAL is what Go's ParseFloat also gives: +-Inf */
	return e == buf + n;
}

static bool s_int64(const char *tok, const char *tend, int64_t *v)
{
	char buf[32], *e;
	size_t n = (size_t)(tend - tok);

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, tok, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoll(buf, &e, 10);
	return e == buf + n && !errno;
}

/* a quoted label value at p (just after '"'); returns the end past the closing quote */
static const char *s_lvalue(const char *p, const char *end, char *dst, size_t cap)
{
	size_t n = 0;

	while (p < end && *p != '"') {
		char c = *p++;

		if (c == '\\') {
			if (p >= end)
				return NULL;
			c = *p++;
			/* the format defines \\ \" \n; anything else is kept as written */
			if (c == 'n')
				c = '\n';
			else if (c != '\\' && c != '"') {
				if (n + 1 >= cap)
					return NULL;
				dst[n++] = '\\';
			}
		}
		if (n + 1 >= cap)
			return NULL;
		dst[n++] = c;
	}
	if (p >= end)
		return NULL;
	dst[n] = '\0';
	return p + 1;
}

static const char *s_labels(const char *p, const char *end, struct bc_prom_sample *s)
{
	for (;;) {
		struct bc_prom_label *l;

		p = s_skip_ws(p, end);
		if (p < end && *p == '}')
			return p + 1;
		if (s->nlabels == BC_PROM_LABELS_MAX)
			return NULL;
		l = &s->labels[s->nlabels];
		p = s_name(p, end, false, l->name, sizeof(l->name));
		if (!p)
			return NULL;
		p = s_skip_ws(p, end);
		if (p >= end || *p != '=')
			return NULL;
		p = s_skip_ws(p + 1, end);
		if (p >= end || *p != '"')
			return NULL;
		p = s_lvalue(p + 1, end, l->value, sizeof(l->value));
		if (!p)
			return NULL;
		s->nlabels++;
		p = s_skip_ws(p, end);
		if (p < end && *p == ',')
			p++;
		else if (p >= end || *p != '}')
			return NULL;
	}
}

static enum bc_prom_type s_type(const char *t, size_t n)
{
	static const struct {
		const char *name;
		enum bc_prom_type type;
	} types[] = {{"counter", BC_PROM_COUNTER},
		     {"gauge", BC_PROM_GAUGE},
		     {"histogram", BC_PROM_HISTOGRAM},
		     {"summary", BC_PROM_SUMMARY}};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == n && !memcmp(types[i].name, t, n))
			return types[i].type;
	return BC_PROM_UNTYPED;
}

static void s_comment(const char *p, const char *end, struct s_family *fam)
{
	const char *tok, *te;

	p = s_skip_ws(p + 1, end);
	te = s_token(p, end, &tok);
	if (te - tok != 4 || memcmp(tok, "TYPE", 4))
		return; /* HELP and free comments carry nothing we use */
	p = s_name(s_skip_ws(te, end), end, true, fam->name, sizeof(fam->name));
	if (!p) {
		fam->name[0] = '\0';
		return;
	}
	te = s_token(s_skip_ws(p, end), end, &tok);
	fam->type = s_type(tok, (size_t)(te - tok));
}

/* the family's type applies to its own name and its _bucket/_sum/_count/_total/_created */
static enum bc_prom_type s_sample_type(const struct s_family *fam, const char *name)
{
	static const char *const suffixes[] = {"",	 "_bucket", "_sum",
					       "_count", "_total",  "_created"};
	size_t n = strlen(fam->name), i;

	if (!n || strncmp(name, fam->name, n))
		return BC_PROM_UNTYPED;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (!strcmp(name + n, suffixes[i]))
			return fam->type;
	return BC_PROM_UNTYPED;
}

/* 1: a sample for the callback; 0: not wanted; -1: unreadable */
static int s_sample(const char *p, const char *end, const struct s_family *fam,
		    bc_prom_want_fn want, void *arg, struct bc_prom_sample *s)
{
	const char *tok, *te, *q;

	q = s_name(p, end, true, s->name, sizeof(s->name));
	if (!q)
		return -1;
	if (want && !want(arg, s->name, (size_t)(q - p)))
		return 0;
	s->nlabels = 0;
	s->has_ts = false;
	p = s_skip_ws(q, end);
	if (p < end && *p == '{') {
		p = s_labels(p + 1, end, s);
		if (!p)
			return -1;
		p = s_skip_ws(p, end);
	} else if (p == q) {
		return -1; /* the value must be separated from the name */
	}
	te = s_token(p, end, &tok);
	if (!s_double(tok, te, &s->value))
		return -1;
	p = s_skip_ws(te, end);
	if (p < end) {
		te = s_token(p, end, &tok);
		if (!s_int64(tok, te, &s->ts_ms))
			return -1;
		s->has_ts = true;
		if (s_skip_ws(te, end) != end)
			return -1;
	}
	s->type = s_sample_type(fam, s->name);
	return 1;
}

int bc_prom_parse(const char *text, size_t len, bc_prom_want_fn want, bc_prom_sample_fn on_sample,
		  void *arg, struct bc_prom_stats *stats)
{
	struct bc_prom_stats local;
	struct s_family fam = {"", BC_PROM_UNTYPED};
	struct bc_prom_sample s;
	const char *p = text, *end = text + len;
	uint32_t lineno = 0;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *q;
		int rc;

		lineno++;
		q = s_skip_ws(p, le);
		p = nl ? nl + 1 : end;
		if (le > q && le[-1] == '\r')
			le--;
		if (q == le)
			continue;
		stats->lines++;
		if (*q == '#') {
			stats->comments++;
			s_comment(q, le, &fam);
			continue;
		}
		rc = s_sample(q, le, &fam, want, arg, &s);
		if (rc < 0) {
			stats->bad++;
			if (!stats->first_bad_line)
				stats->first_bad_line = lineno;
			continue;
		}
		stats->samples++;
		if (rc > 0 && on_sample) {
			rc = on_sample(arg, &s);
			if (rc)
				return rc;
		}
	}
	return 0;
}

const char *bc_prom_label(const struct bc_prom_sample *s, const char *name)
{
	int i;

	for (i = 0; i < s->nlabels; i++)
		if (!strcmp(s->labels[i].name, name))
			return s->labels[i].value;
	return NULL;
}
