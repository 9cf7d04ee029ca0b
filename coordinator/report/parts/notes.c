/*
 * report/parts/notes.c - a step's sentences and checks, built once from
 * run.json into notes and rendered by summary.md and report.html alike
 * (report/parts/notes.h). The words live here; the writers only choose how a
 * paragraph, a warning or a list item looks in their format.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/fmt.h"
#include "report/parts/notes.h"
#include "report/parts/rundata.h"
#include "util/rjson.h"

/* above this many agents the clocks are one line of ranges, not a line of every agent */
#define S_CLOCKS_EACH 8

void bc_notes_add(struct bc_notes *n, enum bc_note_style style, const char *lead, const char *badge,
		  enum bc_note_tone tone, const char *fmt, ...)
{
	struct bc_note *x;
	va_list ap;

	if (n->n == n->cap) {
		int cap = n->cap ? 2 * n->cap : 16;
		struct bc_note *v = realloc(n->v, (size_t)cap * sizeof(*v));

		if (!v)
			return;
		n->v = v;
		n->cap = cap;
	}
	x = &n->v[n->n++];
	memset(x, 0, sizeof(*x));
	x->style = style;
	x->tone = tone;
	x->lead = lead ? strdup(lead) : NULL;
	x->badge = badge ? strdup(badge) : NULL;
	if (fmt) {
		va_start(ap, fmt);
		if (vasprintf(&x->text, fmt, ap) < 0)
			x->text = NULL;
		va_end(ap);
	}
}

void bc_notes_free(struct bc_notes *n)
{
	int i;

	for (i = 0; i < n->n; i++) {
		free(n->v[i].lead);
		free(n->v[i].text);
		free(n->v[i].badge);
	}
	free(n->v);
	memset(n, 0, sizeof(*n));
}

/*
 * the node counters of a coordinator gap whose successor scraped from
 * second live on: the seconds no one scraped (nodes[].counters'
 * coordinator_gaps), the rest measured
 */
static void s_node_gap(struct bc_notes *n, const cJSON *st, double live)
{
	const cJSON *nd, *g;
	double from = -1;

	cJSON_ArrayForEach(nd, bc_rj(st, "nodes"))
	{
		cJSON_ArrayForEach(g, bc_rj(nd, "counters", "coordinator_gaps"))
		{
			if (bc_rj_num(g, "to_second") + 1 == live)
				from = bc_rj_num(g, "from_second");
		}
	}
	if (from < 0) /* a Prometheus server's only: it scraped through the gap */
		bc_notes_add(n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE,
			     "Its clock drift is measured from the re-attach to its end.");
	else
		bc_notes_add(n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE,
			     "Node counters scraped from node_exporter have no values for seconds "
			     "%.0f to %.0f (coordinator_gaps: nobody scraped between the dead "
			     "coordinator's last scrape, which its log kept, and the resumed one's "
			     "first); every second before and after is measured, and the node's "
			     "window figures run across the gap (its counters are cumulative). "
			     "Its clock drift is measured from the re-attach to its end.",
			     from, live - 1);
}

/* the agents lost in the step and those that joined again before it */
static void s_agents(struct bc_notes *n, const cJSON *st)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, bc_rj(st, "lost_agents"))
	{
		bc_notes_add(n, BC_NOTE_WARN, NULL, NULL, BC_TONE_BAD,
			     "Agent %s lost from second %.0f (%s); its figures stop there.",
			     bc_rj_str("?", c, "name"), bc_rj_num(c, "from_second"),
			     bc_rj_str("?", c, "reason"));
	}
	cJSON_ArrayForEach(c, bc_rj(st, "coordinator_gaps"))
	{
		bc_notes_add(
		    n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE,
		    "The coordinator stopped in this step (its records end before second "
		    "%.0f) and a resumed one (bench-coord run --resume) re-attached %.1f s "
		    "after its last record; the agents kept the load running and every "
		    "record through the gap (orphan_grace %.0f s) and sent %.0f second(s) "
		    "of them again, each second counted once: the step is whole.",
		    bc_rj_num(c, "from_second"), bc_rj_num(c, "gap_s"), bc_rj_num(c, "grace_s"),
		    bc_rj_num(c, "replayed_seconds"));
		/* what no coordinator measured: the node counters of the gap */
		if (cJSON_IsNumber(bc_rj(c, "node_counters_from_second")))
			s_node_gap(n, st, bc_rj_num(c, "node_counters_from_second"));
	}
	cJSON_ArrayForEach(c, bc_rj(st, "rejoined_agents"))
	{
		bc_notes_add(n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE,
			     "Agent %s joined again before this step (%s; now bench-agent %s, pid "
			     "%.0f); nothing of the step before was missing.",
			     bc_rj_str("?", c, "name"), bc_rj_str("?", c, "reason"),
			     bc_rj_str("?", c, "version"), bc_rj_num(c, "pid"));
	}
}

/* seconds without records, or without every agent's */
static void s_seconds(struct bc_notes *n, const cJSON *st)
{
	int miss = cJSON_GetArraySize(bc_rj(st, "incomplete_seconds"));
	const cJSON *c;

	if (miss)
		bc_notes_add(n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE,
			     "%d second(s) lack some agent's record (run.json incomplete_seconds).",
			     miss);
	cJSON_ArrayForEach(c, bc_rj(st, "lost_seconds"))
	{
		bc_notes_add(
		    n, BC_NOTE_WARN, NULL, NULL, BC_TONE_BAD,
		    "Seconds %.0f-%.0f carried no records and are out of every figure (%s).",
		    bc_rj_num(c, "from"), bc_rj_num(c, "to"), bc_rj_str("?", c, "why"));
	}
	if (bc_rj(st, "degraded"))
		bc_notes_add(n, BC_NOTE_WARN, "Degraded:", NULL, BC_TONE_BAD, "%s",
			     bc_rj_str("", st, "degraded"));
}

/*
 * What makes the figures another thing than the storage's, as run.json says
 * it: a suspect step (the devices did not move the bytes it reports), a
 * contended client host, named warnings, and the sentences of the checks of
 * the device and the layout under the volumes
 */
static void s_fidelity(struct bc_notes *n, const cJSON *st)
{
	static const char *const texts[] = {"device_check", "layout"};
	const cJSON *c;
	size_t i;

	if (bc_rj(st, "suspect_reason"))
		bc_notes_add(n, BC_NOTE_WARN, "Suspect:", NULL, BC_TONE_BAD, "%s",
			     bc_rj_str("", st, "suspect_reason"));
	if (cJSON_IsTrue(bc_rj(st, "contended")))
		bc_notes_add(n, BC_NOTE_WARN, "Contended:", NULL, BC_TONE_BAD,
			     "the figures are the client host's, not the storage's%s%s",
			     bc_rj(st, "contention", "why") ? ": " : ".",
			     bc_rj_str("", st, "contention", "why"));
	cJSON_ArrayForEach(c, bc_rj(st, "warnings"))
	{
		if (cJSON_IsString(c))
			bc_notes_add(n, BC_NOTE_WARN, "Warning:", NULL, BC_TONE_WARN, "%s",
				     c->valuestring);
	}
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		cJSON_ArrayForEach(c, bc_rj(st, texts[i])) if (bc_rj(c, "text")) bc_notes_add(
		    n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE, "%s.", bc_rj_str("", c, "text"));
	cJSON_ArrayForEach(c, bc_rj(st, "contention", "hosts")) if (bc_rj(c, "text")) bc_notes_add(
	    n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE, "%s.", bc_rj_str("", c, "text"));
}

static void s_steady(struct bc_notes *n, const cJSON *ss)
{
	const cJSON *steady = bc_rj(ss, "steady");

	if (!ss)
		return;
	if (bc_rj(ss, "text")) {
		bc_notes_add(n, cJSON_IsFalse(steady) ? BC_NOTE_WARN : BC_NOTE_PARA,
			     "Steady state:", NULL, BC_TONE_NONE, "%s", bc_rj_str("", ss, "text"));
		return;
	}
	if (!cJSON_IsBool(steady)) {
		bc_notes_add(n, BC_NOTE_PARA, "Steady state:", NULL, BC_TONE_NONE,
			     "not judged (%s: the window is shorter than 3 s or had no I/O).",
			     bc_rj_str("?", ss, "window"));
		return;
	}
	bc_notes_add(n, cJSON_IsTrue(steady) ? BC_NOTE_PARA : BC_NOTE_WARN, "Steady state:", NULL,
		     BC_TONE_NONE,
		     "%s (%s, IOPS): mean %.0f, trend %+.2f%%/s (limit %.1f), spread %.1f%% (limit "
		     "%.1f), stddev %.1f%%%s",
		     cJSON_IsTrue(steady) ? "steady" : "NOT steady", bc_rj_str("?", ss, "window"),
		     bc_rj_num(ss, "mean"), bc_rj_num(ss, "slope_pct_per_s"),
		     bc_rj_num(ss, "slope_limit_pct"), bc_rj_num(ss, "spread_pct"),
		     bc_rj_num(ss, "spread_limit_pct"), bc_rj_num(ss, "stddev_pct"),
		     cJSON_IsTrue(steady) ? "."
					  : ": the average describes no state the system was in.");
}

/*
 * How the step ended when not at its planned runtime: the user's Ctrl-C,
 * stop_bytes, or stop_steady (fio's steadystate) reached or not. A steady
 * state asked for and not reached changes how a preconditioning reads.
 */
static void s_ended(struct bc_notes *n, const cJSON *st)
{
	const cJSON *ss = bc_rj(st, "stop_steady");

	if (bc_rj(st, "stopped_by_user_at_second"))
		bc_notes_add(n, BC_NOTE_PARA, "Ended:", NULL, BC_TONE_NONE,
			     "stopped by the user at second %.0f; its figures are the seconds "
			     "until then.",
			     bc_rj_num(st, "stopped_by_user_at_second"));
	if (bc_rj(st, "stopped_at_bytes_second"))
		bc_notes_add(n, BC_NOTE_PARA, "Ended:", NULL, BC_TONE_NONE,
			     "its volumes had moved the data it asked for (stop_bytes / "
			     "stop_window_pct) at second %.0f.",
			     bc_rj_num(st, "stopped_at_bytes_second"));
	if (ss)
		bc_notes_add(n, cJSON_IsTrue(bc_rj(ss, "reached")) ? BC_NOTE_PARA : BC_NOTE_WARN,
			     "Stop on steady state", NULL, BC_TONE_NONE, "(%s over %.0f s): %s.",
			     bc_rj_str("?", ss, "criterion"), bc_rj_num(ss, "window_seconds"),
			     bc_rj_str("?", ss, "outcome"));
}

/* each agent's clock offset, or at fleet size their range, and the start skew */
static void s_clocks(struct bc_notes *n, const cJSON *ck)
{
	const cJSON *agents = bc_rj(ck, "agents"), *a;
	char line[2048] = "", b1[32], b2[32];
	double lo = INFINITY, hi = -INFINITY, unc = 0;
	size_t used = 0;
	int na = cJSON_GetArraySize(agents);

	if (!ck)
		return;
	cJSON_ArrayForEach(a, agents)
	{
		double off = bc_rj_num(a, "offset_ns") / 1e3,
		       u = bc_rj_num(a, "uncertainty_ns") / 1e3;

		lo = fmin(lo, off);
		hi = fmax(hi, off);
		unc = fmax(unc, u);
		if (na <= S_CLOCKS_EACH && used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 "%s%s offset %s%s \xc2\xb1%s", used ? "; " : "",
						 a->string, off < 0 ? "-" : "+",
						 bc_fmt_lat_us(fabs(off), b1, sizeof(b1)),
						 bc_fmt_lat_us(u, b2, sizeof(b2)));
	}
	if (na > S_CLOCKS_EACH) {
		char b3[32];

		snprintf(line, sizeof(line),
			 "%d agents, offsets from %s%s to %s%s, uncertainty at most %s", na,
			 lo < 0 ? "-" : "+", bc_fmt_lat_us(fabs(lo), b1, sizeof(b1)),
			 hi < 0 ? "-" : "+", bc_fmt_lat_us(fabs(hi), b2, sizeof(b2)),
			 bc_fmt_lat_us(unc, b3, sizeof(b3)));
		used = strlen(line);
	}
	if (bc_rj(ck, "start_skew_ns") && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "%sobserved start skew %s (at most %s)",
			 used ? "; " : "",
			 bc_fmt_lat_us(bc_rj_num(ck, "start_skew_ns") / 1e3, b1, sizeof(b1)),
			 bc_fmt_lat_us(bc_rj_num(ck, "start_skew_bound_ns") / 1e3, b2, sizeof(b2)));
	if (line[0])
		bc_notes_add(n, BC_NOTE_PARA, "Clocks before START:", NULL, BC_TONE_NONE, "%s.",
			     line);
}

void bc_notes_step(struct bc_notes *n, const struct bc_report *r, const cJSON *st)
{
	const cJSON *waf = bc_rj(st, "waf");

	(void)r;
	s_fidelity(n, st);
	s_seconds(n, st);
	s_agents(n, st);
	s_ended(n, st);
	s_steady(n, bc_rj(st, "steady_state"));
	if (waf) {
		char h[32], m[32];

		bc_notes_add(n, BC_NOTE_PARA, NULL, NULL, BC_TONE_NONE,
			     "Write amplification (%s): %.3f (host %s written, media %s).",
			     bc_rj_str("-", waf, "mode"), bc_rj_num(waf, "value"),
			     bc_fmt_si(bc_rj_num(waf, "host_write_bytes"), "B", h, sizeof(h)),
			     bc_fmt_si(bc_rj_num(waf, "media_write_bytes"), "B", m, sizeof(m)));
	}
	s_clocks(n, bc_rj(st, "clock"));
	bc_notes_checks(n, bc_rj(st, "checks"));
}

void bc_notes_evidence(struct bc_notes *n, const cJSON *a, const char *unmeasured)
{
	const cJSON *e;

	if (!a)
		return;
	if (unmeasured && unmeasured[0])
		bc_notes_add(n, BC_NOTE_PARA, "Not measured:", NULL, BC_TONE_NONE, "%s.",
			     unmeasured);
	bc_notes_add(n, BC_NOTE_PARA, "Verdict:", NULL, BC_TONE_NONE, "%s",
		     bc_rj_str("-", a, "verdict"));
	bc_notes_add(n, BC_NOTE_PARA, "Bottleneck:", NULL, BC_TONE_NONE, "%s",
		     bc_rj_str("-", a, "bottleneck"));
	if (cJSON_GetArraySize(bc_rj(a, "evidence")))
		bc_notes_add(n, BC_NOTE_HEAD, NULL, NULL, BC_TONE_NONE, "Evidence");
	cJSON_ArrayForEach(e, bc_rj(a, "evidence")) if (cJSON_IsString(e))
	    bc_notes_add(n, BC_NOTE_ITEM, NULL, NULL, BC_TONE_NONE, "%s", e->valuestring);
}

static enum bc_note_tone s_tone(const char *word)
{
	return !strcmp(word, "PASS")   ? BC_TONE_OK
	       : !strcmp(word, "FAIL") ? BC_TONE_BAD
				       : BC_TONE_SKIP;
}

static void s_check(struct bc_notes *n, const cJSON *c)
{
	const char *w = bc_check_word(c);
	char lead[512];

	if (bc_rj(c, "scope"))
		snprintf(lead, sizeof(lead), "%s (%s)", bc_rj_str("?", c, "name"),
			 bc_rj_str("", c, "scope"));
	else
		snprintf(lead, sizeof(lead), "%s", bc_rj_str("?", c, "name"));
	bc_notes_add(n, BC_NOTE_ITEM, lead, w, s_tone(w), "%s", bc_rj_str("", c, "detail"));
}

void bc_notes_checks(struct bc_notes *n, const cJSON *checks)
{
	struct bc_check_plan *p = cJSON_GetArraySize(checks) ? malloc(sizeof(*p)) : NULL;
	const struct bc_check_kind *k;
	const cJSON *c;

	if (!p)
		return;
	bc_check_plan_make(p, checks);
	bc_notes_add(n, BC_NOTE_HEAD, NULL, NULL, BC_TONE_NONE, "Checks");
	cJSON_ArrayForEach(c, checks)
	{
		enum bc_check_show show = bc_check_plan_next(p, c, &k);

		if (show == BC_CHECK_HEAD) {
			char badge[48];

			snprintf(badge, sizeof(badge), "%d of %d failed", k->fail, k->n);
			bc_notes_add(
			    n, BC_NOTE_ITEM, k->name, badge, k->fail ? BC_TONE_BAD : BC_TONE_OK,
			    "%d entities: %d PASS, %d FAIL, %d SKIP (the first %d failures "
			    "listed; every one in run.json's checks)",
			    k->n, k->pass, k->fail, k->skip, BC_CHECK_EACH);
		}
		if (show == BC_CHECK_LINE ||
		    (show != BC_CHECK_NONE && cJSON_IsFalse(bc_rj(c, "pass"))))
			s_check(n, c);
	}
	free(p);
}

void bc_notes_md(FILE *f, const struct bc_notes *n)
{
	int i;

	for (i = 0; i < n->n; i++) {
		const struct bc_note *x = &n->v[i];
		bool bold = x->style == BC_NOTE_WARN;

		switch (x->style) {
		case BC_NOTE_HEAD:
			fprintf(f, "\n%s:\n\n", x->text ? x->text : "");
			continue;
		case BC_NOTE_ITEM:
			fprintf(f, "- ");
			if (x->badge) {
				fprintf(f, "%s", x->tone == BC_TONE_BAD ? "**" : "");
				bc_md_puts(f, x->badge);
				fprintf(f, "%s ", x->tone == BC_TONE_BAD ? "**" : "");
			}
			bc_md_puts(f, x->lead);
			if (x->text && x->text[0]) {
				fprintf(f, "%s", x->lead ? ": " : "");
				bc_md_puts(f, x->text);
			}
			fprintf(f, "\n");
			continue;
		default:
			break;
		}
		fprintf(f, "\n%s", bold ? "**" : "");
		if (x->lead) {
			fprintf(f, "%s", bold ? "" : "**");
			bc_md_puts(f, x->lead);
			fprintf(f, "%s ", bold ? "" : "**");
		}
		bc_md_puts(f, x->text);
		fprintf(f, "%s\n", bold ? "**" : "");
	}
}

static const char *s_tone_class(enum bc_note_tone t)
{
	static const char *const c[] = {"", "ok", "bad", "skip", "warn"};

	return c[t];
}

void bc_notes_html(FILE *f, const struct bc_notes *n)
{
	bool list = false;
	int i;

	for (i = 0; i < n->n; i++) {
		const struct bc_note *x = &n->v[i];

		if (list && x->style != BC_NOTE_ITEM) {
			fprintf(f, "</ul>\n");
			list = false;
		}
		switch (x->style) {
		case BC_NOTE_HEAD:
			fprintf(f, "<h4>");
			bc_html_puts(f, x->text);
			fprintf(f, "</h4>\n<ul class=\"checks\">\n");
			list = true;
			continue;
		case BC_NOTE_ITEM:
			if (!list)
				fprintf(f, "<ul class=\"checks\">\n");
			list = true;
			fprintf(f, "<li>");
			if (x->badge) {
				fprintf(f, "<span class=\"badge %s\">", s_tone_class(x->tone));
				bc_html_puts(f, x->badge);
				fprintf(f, "</span> ");
			}
			bc_html_puts(f, x->lead);
			if (x->text && x->text[0]) {
				fprintf(f, "%s<span class=\"muted\">", x->lead ? ": " : "");
				bc_html_puts(f, x->text);
				fprintf(f, "</span>");
			}
			fprintf(f, "</li>\n");
			continue;
		default:
			break;
		}
		fprintf(f, "<p%s>", x->style == BC_NOTE_WARN ? " class=\"warn\"" : "");
		if (x->lead) {
			fprintf(f, "<strong>");
			bc_html_puts(f, x->lead);
			fprintf(f, "</strong> ");
		}
		if (x->style == BC_NOTE_WARN && !x->lead)
			fprintf(f, "<strong>");
		bc_html_puts(f, x->text);
		if (x->style == BC_NOTE_WARN && !x->lead)
			fprintf(f, "</strong>");
		fprintf(f, "</p>\n");
	}
	if (list)
		fprintf(f, "</ul>\n");
}
