/*
 * report/parts/fmt.c - what every writer shares to put text and numbers into a
 * document: escaping for HTML, Markdown and CSV, and number formatting.
 */
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/parts/fmt.h"

void bc_html_puts(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/*
 * Only what breaks a table row or injects markup: names and paths keep
 * their underscores readable in a terminal.
 */
void bc_md_puts(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
}

void bc_csv_puts(FILE *f, const char *s)
{
	/* RFC 4180 section 2: quote fields holding a comma, quote or line break */
	if (!s || !s[strcspn(s, ",\"\r\n")]) {
		fputs(s ? s : "", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

const char *bc_fmt_num(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "0");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.15g", v);
	return buf;
}

const char *bc_fmt_fig(const cJSON *v, double div, int decimals, char *buf, size_t len)
{
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble / div))
		return "-";
	snprintf(buf, len, "%.*f", decimals, v->valuedouble / div);
	return buf;
}

const char *bc_fmt_bytes(double b, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int u = 0;

	if (!(b > 0)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (b >= 1024 && u < 5) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, b == floor(b) ? "%.0f %s" : "%.2f %s", b, units[u]);
	return buf;
}

const char *bc_check_word(const cJSON *check)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(check, "pass");

	return cJSON_IsTrue(p) ? "PASS" : cJSON_IsFalse(p) ? "FAIL" : "SKIP";
}

static struct bc_check_kind *s_kind(struct bc_check_plan *p, const cJSON *check)
{
	const char *nm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(check, "name"));
	int i;

	nm = nm ? nm : "?";
	for (i = 0; i < p->kinds && strcmp(p->kind[i].name, nm); i++)
		;
	if (i == p->kinds && i < (int)(sizeof(p->kind) / sizeof(p->kind[0])))
		p->kind[p->kinds++] = (struct bc_check_kind){.name = nm};
	return i < p->kinds ? &p->kind[i] : NULL;
}

void bc_check_plan_make(struct bc_check_plan *p, const cJSON *checks)
{
	const cJSON *c;

	memset(p, 0, sizeof(*p));
	cJSON_ArrayForEach(c, checks)
	{
		struct bc_check_kind *k = s_kind(p, c);
		const cJSON *pass = cJSON_GetObjectItemCaseSensitive(c, "pass");

		if (!k)
			continue;
		k->n++;
		k->pass += cJSON_IsTrue(pass);
		k->fail += cJSON_IsFalse(pass);
		k->skip += !cJSON_IsBool(pass);
	}
}

enum bc_check_show bc_check_plan_next(struct bc_check_plan *p, const cJSON *check,
				      const struct bc_check_kind **kind)
{
	struct bc_check_kind *k = s_kind(p, check);
	bool failed = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(check, "pass")), head;

	*kind = k;
	if (!k || k->n <= BC_CHECK_EACH || !cJSON_GetObjectItemCaseSensitive(check, "scope"))
		return BC_CHECK_LINE;
	head = !k->failed_shown;
	if (head)
		k->failed_shown = 1; /* 1: the head is out; 1 + the failures shown after it */
	if (failed && k->failed_shown <= BC_CHECK_EACH) {
		k->failed_shown++;
		return head ? BC_CHECK_HEAD : BC_CHECK_FAIL;
	}
	return head ? BC_CHECK_HEAD : BC_CHECK_NONE;
}
