/*
 * report/parts/fmt.c - what every writer shares to put text and numbers into a
 * document: escaping for HTML, Markdown and CSV, and number formatting.
 */
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/parts/fmt.h"

/* Tableau 10: distinguishable, and still distinct in greyscale print */
static const char *const s_palette[BC_FMT_NCOLORS] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
						      "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
						      "#9c755f", "#bab0ac"};

const char *bc_fmt_color(int i)
{
	return i < 0 ? "#222222" : s_palette[i % BC_FMT_NCOLORS];
}

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

/* v with three significant digits ("2.20", "90.1", "342"); 0 as "0" */
static void s_sig3(double v, char *buf, size_t len)
{
	double a = fabs(v);

	/* rounded first, so 99.96 prints "100" and not "100.0" */
	if (a >= 99.95 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 9.995)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 0.9995)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

const char *bc_fmt_lat_us(double us, char *buf, size_t len)
{
	static const struct {
		double below, div; /* us below this, divided by div */
		const char *unit;
	} u[] = {{0.9995, 1e-3, "ns"},
		 {999.5, 1, "\xc2\xb5s"},
		 {999.5e3, 1e3, "ms"},
		 {INFINITY, 1e6, "s"}};
	char num[32];
	size_t i;

	if (!isfinite(us)) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (i = 0; i + 1 < sizeof(u) / sizeof(u[0]) && fabs(us) >= u[i].below; i++)
		;
	s_sig3(us / u[i].div, num, sizeof(num));
	snprintf(buf, len, "%s %s", num, u[i].unit);
	return buf;
}

const char *bc_fmt_lat_fig(const cJSON *us, char *buf, size_t len)
{
	return bc_fmt_lat_us(cJSON_IsNumber(us) ? us->valuedouble : NAN, buf, len);
}

const char *bc_fmt_int(double v, char *buf, size_t len)
{
	char digits[40];
	size_t n, i, o = 0;
	int neg;

	if (!isfinite(v) || fabs(v) >= 1e18) {
		snprintf(buf, len, isfinite(v) ? "%.3g" : "-", v);
		return buf;
	}
	neg = v < 0;
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	n = strlen(digits);
	if (neg && o + 1 < len)
		buf[o++] = '-';
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *bc_fmt_si(double v, const char *unit, char *buf, size_t len)
{
	static const char *const pre[] = {"", "k", "M", "G", "T", "P"};
	char num[32];
	int p = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* the prefix of the rounded value: 999,600 is "1.00M", not "1000k" */
	while (fabs(v) >= 999.5 && p < 5) {
		v /= 1e3;
		p++;
	}
	s_sig3(v, num, sizeof(num));
	snprintf(buf, len, "%s%s%s%s", num, *unit ? " " : "", pre[p], unit);
	return buf;
}

const char *bc_fmt_mbps(double mbps, char *buf, size_t len)
{
	return bc_fmt_si(mbps * 1e6, "B/s", buf, len);
}

const char *bc_fmt_dur(double s, char *buf, size_t len)
{
	long t = lround(s);

	if (!isfinite(s) || s < 0)
		snprintf(buf, len, "-");
	else if (t < 120)
		snprintf(buf, len, "%ld s", t);
	else if (t < 7200)
		snprintf(buf, len, "%ld min %ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%ld h %ld min", t / 3600, t / 60 % 60);
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
