/*
 * report.c - the report driver: load a run directory (run.json,
 * profile.json, the devices from events.jsonl), evaluate the acceptance
 * criteria, and have each writer produce its file atomically. Also the small
 * helpers every writer shares: JSON path lookups that tolerate a partial
 * run.json, escaping for HTML, Markdown and CSV, and number formatting.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bc_json.h"
#include "bc_log.h"
#include "bc_report.h"
#include "bc_secfile.h"

const struct bc_report_level bc_report_levels[4] = {
    {"total", "total"}, {"agents", "agent"}, {"nodes", "node"}, {"volumes", "volume"}};

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

cJSON *bc_report_read_json(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[BC_PATH_MAX + 64];
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
	j = bc_json_parse(text, (size_t)n); /* exact 64-bit integers (bc_json.h) */
	if (!j)
		snprintf(err, errlen, "'%s' is not valid JSON", path);
out:
	free(text);
	fclose(f);
	return j;
}

/*
 * The profile's volumes of one agent, in the order the agent got them: the
 * first at or after v (a cursor, so an agent's volumes cost one walk of the
 * list, not one each: 16,000 volumes made that 256 million compares)
 */
static const cJSON *s_profile_volume(const cJSON *v, const char *agent)
{
	for (; v; v = v->next)
		if (!strcmp(bc_rj_str("", v, "agent"), agent))
			return v;
	return NULL;
}

static cJSON *s_device(const char *path, const cJSON *src)
{
	static const char *const keys[] = {"kind", "size", "lbs", "pbs", "nvme"};
	cJSON *d = cJSON_CreateObject();
	size_t i;

	cJSON_AddStringToObject(d, "path", path);
	cJSON_AddStringToObject(d, "resolved",
				bc_rj_str(bc_rj_str("", src, "path"), src, "resolved"));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *v = bc_rj(src, keys[i]);

		if (v)
			cJSON_AddItemToObject(d, keys[i], cJSON_Duplicate(v, 1));
	}
	return d;
}

/*
 * The first "ready" record of events.jsonl: every agent that answered the
 * first PREPARE, with its volumes as opened. Only lines that mention it are
 * parsed and the scan stops there, so a long log of STATS records costs one
 * read of its head. Caller owns the result; NULL when there is none.
 */
static cJSON *s_first_ready(const char *dir)
{
	char path[BC_PATH_MAX + 32];
	char *line = NULL;
	size_t cap = 0;
	cJSON *ev = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (!ev && getline(&line, &cap, f) > 0)
		if (strstr(line, "\"event\":\"ready\""))
			ev = bc_json_parse(line, strlen(line));
	free(line);
	fclose(f);
	return ev;
}

static void s_add_devices(struct bc_report *r, const char *agent, const cJSON *ready)
{
	const cJSON *v, *vols = bc_rj(r->profile, "volumes");
	const cJSON *pv = s_profile_volume(vols ? vols->child : NULL, agent);
	cJSON *list;

	if (cJSON_GetObjectItemCaseSensitive(r->devices, agent))
		return;
	list = cJSON_AddArrayToObject(r->devices, agent);
	cJSON_ArrayForEach(v, bc_rj(ready, "volumes"))
	{
		cJSON_AddItemToArray(list,
				     s_device(bc_rj_str(bc_rj_str("?", v, "path"), pv, "path"), v));
		pv = pv ? s_profile_volume(pv->next, agent) : NULL;
	}
}

/*
 * Devices in the agents' order: as each agent opened them (READY), or for
 * agents that never got that far, what HELLO said about their paths.
 */
static void s_devices(struct bc_report *r)
{
	cJSON *ev = s_first_ready(r->dir);
	const cJSON *a, *p;

	cJSON_ArrayForEach(a, bc_rj(r->run, "agents"))
	{
		const char *name = bc_rj_str(NULL, a, "name");
		cJSON *list;

		if (!name)
			continue;
		if (bc_rj(ev, "agents", name)) {
			s_add_devices(r, name, bc_rj(ev, "agents", name));
			continue;
		}
		if (!bc_rj(a, "hello", "paths"))
			continue;
		list = cJSON_AddArrayToObject(r->devices, name);
		cJSON_ArrayForEach(p, bc_rj(a, "hello", "paths"))
		    cJSON_AddItemToArray(list, s_device(bc_rj_str("?", p, "path"), p));
	}
	/* a run.json written before its agent list still shows what READY saw */
	cJSON_ArrayForEach(a, bc_rj(ev, "agents")) s_add_devices(r, a->string, a);
	cJSON_Delete(ev);
}

/*
 * seconds.bin, and a cursor: volume names repeat, so a volume of run.json
 * is matched by walking its step's volumes[] in order (bc_secr_next); the
 * writers ask for them in that order, and the cursor makes that O(1) each.
 */
struct bc_report_secf {
	struct bc_secr r;
	const cJSON *st, *e; /* the volume found last, of step st */
	int i;		     /* its index in seconds.bin */
};

/* seconds.bin when some volume of some step has its series only there */
static void s_secf_open(struct bc_report *r)
{
	char path[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128];
	const cJSON *st, *e;
	bool need = false;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		if (!bc_rj(st, "seconds_bin_step"))
			continue;
		cJSON_ArrayForEach(e, bc_rj(st, "volumes")) need |= !bc_rj(e, "series");
		if (need)
			break;
	}
	if (!need || !(r->secf = calloc(1, sizeof(*r->secf))))
		return;
	snprintf(path, sizeof(path), "%s/%s", r->dir, BC_SECF_NAME);
	if (bc_secr_open(&r->secf->r, path, false, err, sizeof(err))) {
		bc_warn("the volumes' per-second figures are left out of the reports: %s", err);
		free(r->secf);
		r->secf = NULL;
	}
}

/* volume e of step st (ordinal ord): its index in seconds.bin, -1 when none */
static int s_secf_volume(struct bc_report_secf *c, const cJSON *st, uint32_t ord, const cJSON *e)
{
	const cJSON *x = bc_rj(st, "volumes")->child;
	int i = -1;

	if (c->st == st && c->e && c->e->next == e) {
		x = e;
		i = c->i;
	} else if (c->st == st && c->e == e) {
		return c->i;
	}
	for (; x; x = x->next) {
		i = bc_secr_next(&c->r, ord, BC_LVL_VOLUME, i + 1, bc_rj_str("", x, "name"));
		if (i < 0 || x == e)
			break;
	}
	c->st = st;
	c->e = i >= 0 ? e : NULL;
	c->i = i;
	return i;
}

const cJSON *bc_report_series(const struct bc_report *r, const cJSON *st, const cJSON *e,
			      cJSON **tmp)
{
	const cJSON *ser = bc_rj(e, "series"), *ord = bc_rj(st, "seconds_bin_step");
	uint32_t k, n = (uint32_t)fmax(0, bc_rj_num(st, "seconds"));
	struct bc_secrow *rows;
	int i;

	*tmp = NULL;
	if (ser || !r->secf || !cJSON_IsNumber(ord) || !bc_rj(st, "volumes"))
		return ser;
	i = s_secf_volume(r->secf, st, (uint32_t)ord->valuedouble, e);
	rows = i >= 0 ? calloc(n + 1, sizeof(*rows)) : NULL;
	if (!rows)
		return NULL;
	for (k = 0; k < n; k++)
		bc_secr_row(&r->secf->r, (uint32_t)ord->valuedouble, k, BC_LVL_VOLUME, i, &rows[k]);
	*tmp = bc_secrow_series_json(rows, n, NULL);
	free(rows);
	return *tmp;
}

/* bc_report_load, with run (borrowed) when the caller has it */
static int s_load(struct bc_report *r, const char *dir, cJSON *run, char *err, size_t errlen)
{
	char ignore[256];

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->run_borrowed = run != NULL;
	r->run = run ? run : bc_report_read_json(dir, "run.json", err, errlen);
	if (!r->run)
		return -ENOENT;
	if (!cJSON_IsObject(r->run)) {
		snprintf(err, errlen, "'%s/run.json' is not a JSON object", dir);
		bc_report_free(r);
		return -EINVAL;
	}
	/* a run that failed before its profile was resolved still has a report */
	r->profile = bc_report_read_json(dir, "profile.json", ignore, sizeof(ignore));
	r->devices = cJSON_CreateObject();
	s_devices(r);
	r->expect = bc_report_expect_eval(r->profile, r->run);
	r->vdbench = !strcmp(bc_rj_str("", r->run, "format"), "vdbench");
	s_secf_open(r);
	if (!r->devices || !r->expect) {
		snprintf(err, errlen, "out of memory");
		bc_report_free(r);
		return -ENOMEM;
	}
	return 0;
}

int bc_report_load(struct bc_report *r, const char *dir, char *err, size_t errlen)
{
	return s_load(r, dir, NULL, err, errlen);
}

void bc_report_free(struct bc_report *r)
{
	if (!r->run_borrowed)
		cJSON_Delete(r->run);
	cJSON_Delete(r->profile);
	cJSON_Delete(r->devices);
	cJSON_Delete(r->expect);
	bc_heat_free(r->heat);
	if (r->secf) {
		bc_secr_close(&r->secf->r);
		free(r->secf);
	}
	memset(r, 0, sizeof(*r));
}

/* one writer into dir/name through a temporary file and rename */
static int s_write(const struct bc_report *r, const char *name,
		   int (*writer)(const struct bc_report *, FILE *))
{
	char path[BC_PATH_MAX + 64], tmp[BC_PATH_MAX + 80];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", r->dir, name);
	f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		goto fail;
	}
	rc = writer(r, f);
	if (!rc && ferror(f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (!rc)
		return 0;
	unlink(tmp);
fail:
	bc_error("cannot write '%s': %s", path, strerror(-rc));
	return rc;
}

static int s_write_all(const char *dir, cJSON *run, bool vdbench);

int bc_report_write_all(const char *dir)
{
	return s_write_all(dir, NULL, false);
}

int bc_report_write_all_vdbench(const char *dir)
{
	return s_write_all(dir, NULL, true);
}

int bc_report_write_all_run(const char *dir, cJSON *run)
{
	return s_write_all(dir, run, false);
}

static int s_write_all(const char *dir, cJSON *run, bool vdbench)
{
	static const struct {
		const char *name;
		int (*fn)(const struct bc_report *, FILE *);
	} outs[] = {
	    {"summary.md", bc_report_md},
	    {"report.html", bc_report_html},
	    {"timeseries.csv", bc_report_csv},
	    {"fio.json", bc_report_fio},
	};
	struct bc_report r;
	char err[BC_PATH_MAX + 128];
	size_t i;
	int rc, first = 0;

	rc = s_load(&r, dir, run, err, sizeof(err));
	if (rc) {
		bc_error("%s", err);
		return rc;
	}
	r.vdbench = r.vdbench || vdbench;
	r.heat = bc_heat_load(&r); /* report.html and charts/ both draw the heatmaps */
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		rc = s_write(&r, outs[i].name, outs[i].fn);
		if (rc && !first)
			first = rc;
	}
	rc = bc_report_fio_points(&r);
	if (rc && !first)
		first = rc;
	rc = bc_chart_files(&r);
	if (rc && !first)
		first = rc;
	bc_report_free(&r);
	return first;
}
