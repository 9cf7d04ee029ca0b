/*
 * report/parts/table.c - the tables summary.md and report.html both show
 * (acceptance criteria, verdicts, agents, devices, NVMe identity, storage
 * nodes), built once from run.json as rows of cells and rendered by a
 * Markdown and an HTML renderer. One builder per table means the two
 * documents cannot drift apart: a column added here appears in both.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/fmt.h"
#include "report/parts/rundata.h"
#include "report/parts/table.h"
#include "util/rjson.h"

struct bc_table *bc_table_new(const char *title, const char *const *cols)
{
	struct bc_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	snprintf(t->title, sizeof(t->title), "%s", title);
	while (cols[t->ncols] && t->ncols < BC_TABLE_COLS) {
		/* "=name": a number column, right-aligned; "~name": long text, wrapped */
		t->num[t->ncols] = cols[t->ncols][0] == '=';
		t->wrap[t->ncols] = cols[t->ncols][0] == '~';
		t->cols[t->ncols] = cols[t->ncols] + (t->num[t->ncols] || t->wrap[t->ncols]);
		t->ncols++;
	}
	return t;
}

void bc_table_destroy(struct bc_table **tp)
{
	struct bc_table *t = *tp;
	int i;

	if (!t)
		return;
	for (i = 0; i < t->nrows * t->ncols; i++) {
		free(t->cells[i].text);
		free(t->cells[i].href);
	}
	free(t->cells);
	free(t->rowflags);
	free(t);
	*tp = NULL;
}

/* the next cell of the current row (a new row when the last one is full) */
static struct bc_cell *s_next(struct bc_table *t)
{
	struct bc_cell *c;

	if (!t->nrows || t->col == t->ncols) {
		int *fl = realloc(t->rowflags, (size_t)(t->nrows + 1) * sizeof(*fl));

		if (!fl)
			return NULL;
		t->rowflags = fl;
		fl[t->nrows] = 0;
		c = realloc(t->cells, (size_t)(t->nrows + 1) * t->ncols * sizeof(*c));
		if (!c)
			return NULL;
		t->cells = c;
		memset(&c[t->nrows * t->ncols], 0, t->ncols * sizeof(*c));
		t->nrows++;
		t->col = 0;
	}
	c = &t->cells[(t->nrows - 1) * t->ncols + t->col++];
	c->swatch = -1;
	return c;
}

/* the next cell, its text printf-formatted; NULL without memory */
static struct bc_cell *s_vcell(struct bc_table *t, enum bc_cell_style style, const char *fmt,
			       va_list ap)
{
	struct bc_cell *c = s_next(t);

	if (!c)
		return NULL;
	c->style = style;
	if (vasprintf(&c->text, fmt, ap) < 0)
		c->text = NULL;
	return c;
}

void bc_table_cell(struct bc_table *t, enum bc_cell_style style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s_vcell(t, style, fmt, ap);
	va_end(ap);
}

void bc_table_text(struct bc_table *t, const char *s)
{
	bc_table_cell(t, BC_CELL_TEXT, "%s", s ? s : "");
}

void bc_table_swatch(struct bc_table *t, int color, const char *s)
{
	bc_table_text(t, s);
	t->cells[(t->nrows - 1) * t->ncols + t->col - 1].swatch = color;
}

/* a number column's cell; decimals < 0: as short as exact; absent: "-" */
void bc_table_num(struct bc_table *t, const cJSON *present, double v, int decimals)
{
	char num[64];

	if (!present || cJSON_IsNull(present)) /* absent, or null: not measured */
		bc_table_text(t, "-");
	else if (decimals < 0)
		bc_table_text(t, bc_fmt_num(v, num, sizeof(num)));
	else
		bc_table_cell(t, BC_CELL_TEXT, "%.*f", decimals, v);
}

void bc_table_lat(struct bc_table *t, const cJSON *us)
{
	char b[32];

	bc_table_text(t, bc_fmt_lat_fig(us, b, sizeof(b)));
}

void bc_table_int(struct bc_table *t, const cJSON *present, double v)
{
	char b[40];

	/* run.json's null is a figure not measured: "-", never 0 */
	bc_table_text(t, present && !cJSON_IsNull(present) ? bc_fmt_int(v, b, sizeof(b)) : "-");
}

void bc_table_link(struct bc_table *t, const char *href)
{
	if (t->nrows && t->col > 0 && href)
		t->cells[(t->nrows - 1) * t->ncols + t->col - 1].href = strdup(href);
}

void bc_table_span(struct bc_table *t, enum bc_cell_style style, const char *fmt, ...)
{
	struct bc_cell *c;
	va_list ap;
	int k;

	/* a row of its own: finish the one being filled */
	while (t->nrows && t->col < t->ncols)
		bc_table_text(t, "");
	va_start(ap, fmt);
	c = s_vcell(t, style, fmt, ap);
	va_end(ap);
	if (!c)
		return;
	t->rowflags[t->nrows - 1] |= BC_ROW_SPAN;
	for (k = 1; k < t->ncols; k++)
		bc_table_text(t, "");
}

/* a list cell: the strings of a JSON array */
static void s_list(struct bc_table *t, const cJSON *arr)
{
	const cJSON *s;
	size_t len = 1, at = 0;
	char *text;

	cJSON_ArrayForEach(s, arr) len += strlen(cJSON_GetStringValue(s) ? s->valuestring : "") + 1;
	text = calloc(1, len);
	cJSON_ArrayForEach(s, arr)
	{
		if (!text)
			break;
		/* items are separated by newlines: each renderer lays them out */
		at += (size_t)snprintf(text + at, len - at, "%s%s", at ? "\n" : "",
				       cJSON_GetStringValue(s) ? s->valuestring : "");
	}
	bc_table_cell(t, BC_CELL_LIST, "%s", text ? text : "");
	free(text);
}

/* the criteria of profile.expect with their results; NULL when there are none */
struct bc_table *bc_table_expect(const struct bc_report *r)
{
	static const char *const cols[] = {"result", "step",	  "scope", "metric", "=min",
					   "=max",   "=measured", "~note", NULL};
	struct bc_table *t;
	const cJSON *x;
	char num[64];
	int n = 0, pass = 0;

	if (!cJSON_GetArraySize(r->expect) || !(t = bc_table_new("Acceptance criteria", cols)))
		return NULL;
	cJSON_ArrayForEach(x, r->expect)
	{
		bool ok = cJSON_IsTrue(bc_rj(x, "pass"));

		n++;
		pass += ok;
		bc_table_cell(t, ok ? BC_CELL_PASS : BC_CELL_FAIL, "%s", ok ? "PASS" : "FAIL");
		bc_table_text(t, bc_rj_str("", x, "step"));
		bc_table_text(t, bc_rj_str("", x, "scope"));
		bc_table_text(t, bc_rj_str("", x, "metric"));
		bc_table_num(t, bc_rj(x, "min"), bc_rj_num(x, "min"), -1);
		bc_table_num(t, bc_rj(x, "max"), bc_rj_num(x, "max"), -1);
		if (bc_rj(x, "value"))
			bc_table_cell(
			    t, BC_CELL_TEXT, "%s %s",
			    bc_fmt_num(round(bc_rj_num(x, "value") * 1e3) / 1e3, num, sizeof(num)),
			    bc_rj_str("", x, "unit"));
		else
			bc_table_text(t, "-");
		bc_table_text(t, bc_rj_str("", x, "detail"));
	}
	snprintf(t->note, sizeof(t->note), "%d of %d criteria passed.", pass, n);
	return t;
}

/*
 * Each analysed step's verdict with its evidence; NULL when no step was
 * analysed. Sweeps are left out: a sweep's section has its verdict and
 * suspects, and each point's own analysis stays in run.json.
 */
struct bc_table *bc_table_verdicts(const struct bc_report *r)
{
	static const char *const cols[] = {"step", "~verdict", "~bottleneck", "~evidence", NULL};
	struct bc_table *t = NULL;
	const cJSON *st;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		const cJSON *a = bc_rj(st, "analysis");

		/* a sweep's verdict is in its own section, with its evidence */
		if (bc_rj(st, "sweep_of"))
			continue;
		if (!a || (!t && !(t = bc_table_new("Verdicts", cols))))
			continue;
		bc_table_text(t, bc_rj_str("", st, "name"));
		bc_table_text(t, bc_rj_str("-", a, "verdict"));
		bc_table_text(t, bc_rj_str("-", a, "bottleneck"));
		s_list(t, bc_rj(a, "evidence"));
		/* why Little's law was not checked: said once under the table, not per step */
		if (bc_rj(a, "queue_note") && !strstr(t->note, bc_rj_str("", a, "queue_note")) &&
		    strlen(t->note) + strlen(bc_rj_str("", a, "queue_note")) + 40 < sizeof(t->note))
			snprintf(t->note + strlen(t->note), sizeof(t->note) - strlen(t->note),
				 "%sLittle's law is not checked where %s.", t->note[0] ? " " : "",
				 bc_rj_str("", a, "queue_note"));
	}
	return t;
}

/* the agents as they answered HELLO, with their clock offsets */
struct bc_table *bc_table_agents(const struct bc_report *r)
{
	static const char *const cols[] = {"agent",	   "endpoint", "host",	 "bench-agent",
					   "=protocol",	   "=cpus",    "kernel", "=clock offset",
					   "=uncertainty", "=rtt",     NULL};
	struct bc_table *t;
	const cJSON *a;
	int i = 0;

	if (!cJSON_GetArraySize(bc_rj(r->run, "agents")) ||
	    !(t = bc_table_new("Client hosts (agents)", cols)))
		return NULL;
	cJSON_ArrayForEach(a, bc_rj(r->run, "agents"))
	{
		const cJSON *h = bc_rj(a, "hello");

		char b[32];
		double off = bc_rj_num(a, "clock_offset_ns") / 1e3;

		bc_table_swatch(t, i++, bc_rj_str("?", a, "name"));
		bc_table_text(t, bc_rj_str("-", a, "endpoint"));
		bc_table_text(t, bc_rj_str("-", h, "hostname"));
		bc_table_text(t, bc_rj_str("-", h, "version"));
		bc_table_num(t, a, bc_rj_num(h, "protocol"), 0);
		bc_table_num(t, a, bc_rj_num(h, "cpus"), 0);
		bc_table_text(t, bc_rj_str("-", h, "kernel"));
		/* signed: the agent's clock ahead of the coordinator's, or behind */
		bc_table_cell(t, BC_CELL_TEXT, "%s%s", off < 0 ? "-" : "+",
			      bc_fmt_lat_us(fabs(off), b, sizeof(b)));
		bc_table_text(
		    t, bc_rj(a, "clock_uncertainty_ns")
			   ? bc_fmt_lat_us(bc_rj_num(a, "clock_uncertainty_ns") / 1e3, b, sizeof(b))
			   : "-");
		bc_table_text(t, bc_fmt_lat_us(bc_rj_num(a, "clock_rtt_ns") / 1e3, b, sizeof(b)));
	}
	return t;
}

/* every opened volume; NULL when no agent reported one */
struct bc_table *bc_table_devices(const struct bc_report *r)
{
	static const char *const cols[] = {"agent", "volume",	      "~opened as",	 "kind",
					   "=size", "=logical block", "=physical block", NULL};
	struct bc_table *t;
	const cJSON *a, *d;
	char b[32];

	if (!cJSON_GetArraySize(r->devices) || !(t = bc_table_new("Devices", cols)))
		return NULL;
	cJSON_ArrayForEach(a, r->devices)
	{
		cJSON_ArrayForEach(d, a)
		{
			bc_table_text(t, a->string);
			bc_table_text(t, bc_rj_str("", d, "path"));
			bc_table_text(t, bc_rj_str("", d, "resolved"));
			bc_table_text(t, bc_rj_str("-", d, "kind"));
			bc_table_text(t, bc_fmt_bytes(bc_rj_num(d, "size"), b, sizeof(b)));
			bc_table_num(t, d, bc_rj_num(d, "lbs"), 0);
			bc_table_num(t, d, bc_rj_num(d, "pbs"), 0);
		}
	}
	return t;
}

/* what FDP discovery found before any I/O (docs/fdp.md), one cell */
static const char *s_fdp_cell(const cJSON *fdp, char *b, size_t len)
{
	char ru[32];

	if (!fdp)
		return "-";
	if (!cJSON_IsTrue(bc_rj(fdp, "supported")))
		return "not supported";
	if (!cJSON_IsTrue(bc_rj(fdp, "enabled")))
		return "supported, disabled";
	snprintf(b, len, "enabled: config %.0f, %.0f RG, %.0f handles, %s RUs, %d placement IDs",
		 bc_rj_num(fdp, "config_index"), bc_rj_num(fdp, "reclaim_groups"),
		 bc_rj_num(fdp, "handles"),
		 bc_fmt_bytes(bc_rj_num(fdp, "ru_bytes"), ru, sizeof(ru)),
		 cJSON_GetArraySize(bc_rj(fdp, "ruhs")));
	return b;
}

/* NVMe identity of the volumes that have one (docs/nvme.md); NULL when none */
struct bc_table *bc_table_nvme(const struct bc_report *r)
{
	static const char *const cols[] = {"agent",    "volume",     "model",	  "serial",
					   "firmware", "LBA format", "=metadata", "transport",
					   "address",  "=NUMA",	     "~FDP",	  NULL};
	static const char *const ident[] = {"model", "serial", "firmware", "lba_kind"};
	char b[160];
	struct bc_table *t = NULL;
	const cJSON *a, *d;
	size_t c;

	cJSON_ArrayForEach(a, r->devices)
	{
		cJSON_ArrayForEach(d, a)
		{
			if (!bc_rj(d, "nvme") || (!t && !(t = bc_table_new("NVMe identity", cols))))
				continue;
			bc_table_text(t, a->string);
			bc_table_text(t, bc_rj_str("", d, "path"));
			for (c = 0; c < sizeof(ident) / sizeof(ident[0]); c++)
				bc_table_text(t, bc_rj_str("-", d, "nvme", ident[c]));
			bc_table_num(t, d, bc_rj_num(d, "nvme", "metadata_bytes"), 0);
			bc_table_text(t, bc_rj_str("-", d, "nvme", "transport"));
			bc_table_text(t, bc_rj_str("-", d, "nvme", "address"));
			bc_table_num(t, d, bc_rj_num(d, "nvme", "numa_node"), 0);
			bc_table_text(t, s_fdp_cell(bc_rj(d, "nvme", "fdp"), b, sizeof(b)));
		}
	}
	return t;
}

/* the profile's storage nodes; NULL when it has none */
struct bc_table *bc_table_nodes(const struct bc_report *r)
{
	static const char *const cols[] = {"node", "~addresses", "~metrics", "nic", NULL};
	struct bc_table *t;
	const cJSON *n, *s;
	int i = 0;

	if (!cJSON_GetArraySize(bc_rj(r->profile, "nodes")) ||
	    !(t = bc_table_new("Storage nodes", cols)))
		return NULL;
	cJSON_ArrayForEach(n, bc_rj(r->profile, "nodes"))
	{
		static const char *const keys[] = {"addresses", "metrics"};
		size_t k;

		bc_table_swatch(t, i++, bc_rj_str("", n, "name"));
		for (k = 0; k < 2; k++) {
			char line[1024] = "";
			size_t at = 0;

			cJSON_ArrayForEach(s, bc_rj(n, keys[k])) if (at < sizeof(line)) at +=
			    (size_t)snprintf(line + at, sizeof(line) - at, "%s%s", at ? " " : "",
					     cJSON_GetStringValue(s) ? s->valuestring : "");
			bc_table_text(t, line);
		}
		bc_table_text(t, bc_rj_str("-", n, "nic"));
	}
	return t;
}

/* the next "\n"-separated item of a list cell into item; false at the end */
static bool s_item(const char **s, char *item, size_t len)
{
	size_t n = strcspn(*s, "\n");

	if (!**s)
		return false;
	snprintf(item, len, "%.*s", (int)n, *s);
	*s += n + ((*s)[n] == '\n');
	return true;
}

/* Markdown: "#"-heading of the given level (none when the title is ""), the table, its note */
void bc_table_md(FILE *f, const struct bc_table *t, int level)
{
	int r, c;

	if (!t)
		return;
	if (t->title[0])
		fprintf(f, "\n%.*s %s\n", level, "######", t->title);
	if (t->intro[0]) {
		fprintf(f, "\n");
		bc_md_puts(f, t->intro);
		fprintf(f, "\n");
	}
	fprintf(f, "\n|");
	for (c = 0; c < t->ncols; c++)
		fprintf(f, " %s |", t->cols[c]);
	fprintf(f, "\n|");
	for (c = 0; c < t->ncols; c++)
		fprintf(f, "%s|", t->num[c] ? "---:" : "---");
	fprintf(f, "\n");
	for (r = 0; r < t->nrows; r++) {
		fprintf(f, "|");
		for (c = 0; c < t->ncols; c++) {
			const struct bc_cell *x = &t->cells[r * t->ncols + c];
			const char *s = x->text ? x->text : "";
			bool bold = (x->style == BC_CELL_PASS || x->style == BC_CELL_FAIL ||
				     x->style == BC_CELL_STRONG) &&
				    *s;
			const char *mark = bold ? "**" : x->style == BC_CELL_MUTED && *s ? "_" : "";

			fprintf(f, " %s", mark);
			if (x->style == BC_CELL_LIST || x->style == BC_CELL_STATUS) {
				bool list = x->style == BC_CELL_LIST;
				char item[1024];

				/* "a; b;" on one line: a Markdown cell holds no list */
				while (s_item(&s, item, sizeof(item))) {
					bc_md_puts(f, item);
					fprintf(f, "%s%s",
						list ? ";"
						: *s ? ","
						     : "",
						*s ? " " : "");
				}
			} else {
				bc_md_puts(f, s);
			}
			fprintf(f, "%s |", mark);
		}
		fprintf(f, "\n");
	}
	if (t->note[0]) {
		fprintf(f, "\n");
		bc_md_puts(f, t->note);
		fprintf(f, "\n");
	}
}

/* a status word's badge colour: ok green, a failure red, the rest (degraded ...) amber */
static const char *s_status_class(const char *s)
{
	if (!strcmp(s, "ok") || !strcmp(s, "PASS"))
		return "ok";
	if (!strcmp(s, "failed") || !strcmp(s, "FAIL") || !strcmp(s, "aborted"))
		return "bad";
	return "warn";
}

static void s_cell_html(FILE *f, const struct bc_table *t, const struct bc_cell *x, int c)
{
	const char *s = x->text ? x->text : "";

	if (x->href) {
		fprintf(f, "<a href=\"");
		bc_html_puts(f, x->href);
		fprintf(f, "\">");
	}
	if (x->swatch >= 0)
		fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>",
			bc_fmt_color(x->swatch));
	if (x->style == BC_CELL_PASS || x->style == BC_CELL_FAIL || x->style == BC_CELL_STATUS) {
		char item[256];

		/* a status may be several words ("suspect\ncontended"): a badge each */
		while (s_item(&s, item, sizeof(item))) {
			fprintf(f, "<span class=\"badge %s\">",
				x->style == BC_CELL_PASS   ? "ok"
				: x->style == BC_CELL_FAIL ? "bad"
							   : s_status_class(item));
			bc_html_puts(f, item);
			fprintf(f, "</span>%s", *s ? " " : "");
		}
	} else if (x->style == BC_CELL_LIST) {
		char item[1024];

		fprintf(f, "<ul>");
		while (s_item(&s, item, sizeof(item))) {
			fprintf(f, "<li>");
			bc_html_puts(f, item);
			fprintf(f, "</li>");
		}
		fprintf(f, "</ul>");
	} else {
		fprintf(f, "%s", x->style == BC_CELL_STRONG ? "<strong>" : "");
		bc_html_puts(f, s);
		fprintf(f, "%s", x->style == BC_CELL_STRONG ? "</strong>" : "");
	}
	if (x->href)
		fprintf(f, "</a>");
	(void)t;
	(void)c;
}

/* HTML: <hN>, the table (swatches, badges, lists, links), then its note */
void bc_table_html(FILE *f, const struct bc_table *t, int level)
{
	int r, c;

	if (!t)
		return;
	if (t->title[0]) {
		fprintf(f, "<h%d", level);
		if (t->id[0]) {
			fprintf(f, " id=\"");
			bc_html_puts(f, t->id);
			fprintf(f, "\"");
		}
		fprintf(f, ">");
		bc_html_puts(f, t->title);
		fprintf(f, "</h%d>\n", level);
	}
	if (t->intro[0]) {
		fprintf(f, "<p class=\"muted\">");
		bc_html_puts(f, t->intro);
		fprintf(f, "</p>\n");
	}
	fprintf(f, "<div class=\"tw\"><table><thead><tr>");
	for (c = 0; c < t->ncols; c++) {
		fprintf(f, "<th%s>", t->num[c] ? "" : " class=\"l\"");
		bc_html_puts(f, t->cols[c]);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr></thead>\n<tbody>\n");
	for (r = 0; r < t->nrows; r++) {
		const struct bc_cell *row = &t->cells[r * t->ncols];

		if (t->rowflags[r] & BC_ROW_SPAN) {
			fprintf(f, "<tr><td class=\"l%s\" colspan=\"%d\">",
				row->style == BC_CELL_MUTED ? " muted" : "", t->ncols);
			s_cell_html(f, t, row, 0);
			fprintf(f, "</td></tr>\n");
			continue;
		}
		fprintf(f, "<tr>");
		for (c = 0; c < t->ncols; c++) {
			const struct bc_cell *x = &row[c];

			fprintf(f, "<td%s>",
				t->num[c]				 ? ""
				: x->style == BC_CELL_LIST || t->wrap[c] ? " class=\"l w\""
									 : " class=\"l\"");
			s_cell_html(f, t, x, c);
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n");
	if (t->note[0]) {
		fprintf(f, "<p>");
		bc_html_puts(f, t->note);
		fprintf(f, "</p>\n");
	}
}

/* build a table with fn, render it (HTML or Markdown) and free it */
void bc_table_emit(FILE *f, struct bc_table *(*fn)(const struct bc_report *),
		   const struct bc_report *r, bool html, int level)
{
	struct bc_table *t = fn(r);

	if (html)
		bc_table_html(f, t, level);
	else
		bc_table_md(f, t, level);
	bc_table_destroy(&t);
}

struct bc_table *bc_table_suspects_of(const cJSON *a, const char *step)
{
	static const char *const cols[] = {"suspect", "state",	  "=score",
					   "~hosts",  "~figures", NULL};
	const cJSON *row;
	struct bc_table *t;

	if (!bc_rj(a, "suspects") || !(t = bc_table_new("Suspects", cols)))
		return NULL;
	snprintf(t->title, sizeof(t->title), "Suspects (%s)", step);
	snprintf(t->intro, sizeof(t->intro),
		 "Every resource that can hold a ceiling, judged at the point the verdict looks "
		 "at (the knee, else the last point) from the counters measured there.");
	cJSON_ArrayForEach(row, bc_rj(a, "suspects"))
	{
		const char *state = bc_rj_str("", row, "state");

		/* the unmeasured are one line under the table, with how to measure them */
		if (!strcmp(state, "not measured"))
			continue;
		bc_table_text(t, bc_rj_str("", row, "suspect"));
		bc_table_cell(t,
			      !strcmp(state, "implicated") ? BC_CELL_FAIL
			      : !strcmp(state, "excluded") ? BC_CELL_PASS
							   : BC_CELL_TEXT,
			      "%s", state);
		bc_table_num(t, bc_rj(row, "score"), bc_rj_num(row, "score"), 2);
		bc_table_text(t, bc_rj_str("-", row, "hosts"));
		bc_table_text(t, bc_rj_str("-", row, "figures"));
	}
	if (!t->nrows)
		bc_table_span(t, BC_CELL_MUTED, "no suspect was measured");
	return t;
}

/* the drift's worst minute w by what into t's note at n: where it is, its figure */
static size_t s_worst_note(struct bc_table *t, size_t n, const cJSON *w, const char *what,
			   const char *key, int dec, const char *unit)
{
	if (!w || n >= sizeof(t->note))
		return n;
	return n + (size_t)snprintf(t->note + n, sizeof(t->note) - n,
				    " Worst minute by %s: minute %.0f (from second %.0f), %.*f %s.",
				    what, bc_rj_num(w, "minute"), bc_rj_num(w, "from_second"), dec,
				    bc_rj_num(w, key), unit);
}

struct bc_table *bc_table_drift(const cJSON *st)
{
	static const char *const cols[] = {
	    "hour", "=from second", "=seconds", "=IOPS", "=p99 latency (us, merged)", NULL};
	const cJSON *d = bc_rj(st, "drift"), *h, *wi = bc_rj(d, "worst_minute_iops");
	const cJSON *wp = bc_rj(d, "worst_minute_p99");
	struct bc_table *t;
	size_t n = 0;

	if (!d || !(t = bc_table_new("Drift over the step (per hour)", cols)))
		return NULL;
	cJSON_ArrayForEach(h, bc_rj(d, "hours"))
	{
		bc_table_cell(t, BC_CELL_TEXT, "%.0f", bc_rj_num(h, "hour") + 1);
		bc_table_num(t, bc_rj(h, "from_second"), bc_rj_num(h, "from_second"), 0);
		bc_table_num(t, bc_rj(h, "seconds"), bc_rj_num(h, "seconds"), 0);
		bc_table_num(t, bc_rj(h, "iops"), bc_rj_num(h, "iops"), 0);
		bc_table_num(t, bc_rj(h, "lat_p99_us"), bc_rj_num(h, "lat_p99_us"), 1);
	}
	/* the figures a soak is judged by, in one line after the hours */
	n += (size_t)snprintf(
	    t->note + n, sizeof(t->note) - n,
	    "Trend over the minutes: IOPS %+.2f%% per hour, p99 %+.2f%% per hour.",
	    bc_rj_num(d, "iops_trend_pct_per_hour"), bc_rj_num(d, "p99_trend_pct_per_hour"));
	n = s_worst_note(t, n, wi, "IOPS", "iops", 0, "IOPS");
	n = s_worst_note(t, n, wp, "p99", "lat_p99_us", 1, "us");
	if (n < sizeof(t->note) && cJSON_IsNumber(bc_rj(d, "steady_from_second")))
		snprintf(t->note + n, sizeof(t->note) - n,
			 " Steady from second %.0f, %.0f s into the measured window (%s).",
			 bc_rj_num(d, "steady_from_second"), bc_rj_num(d, "steady_after_s"),
			 bc_rj_str("", d, "steady_rule"));
	else if (n < sizeof(t->note))
		snprintf(t->note + n, sizeof(t->note) - n, " Steady state not reached (%s).",
			 bc_rj_str("", d, "steady_rule"));
	return t;
}
