/*
 * report/parts/notes.h (report/parts/notes.c) - what the reports say in
 * sentences about a step (agents lost or joined again, seconds missing, the
 * steady state, write amplification, the clocks, the warnings run.json
 * carries) and its checks, built once from run.json as a list of notes and
 * rendered as Markdown (summary.md) or HTML (report.html): the two documents
 * say the same thing in the same words.
 */
#ifndef BC_REPORT_PARTS_NOTES_H
#define BC_REPORT_PARTS_NOTES_H

#include <stdio.h>

#include <cjson/cJSON.h>

struct bc_report;

enum bc_note_style {
	BC_NOTE_PARA = 0, /* a paragraph */
	BC_NOTE_WARN,	  /* a paragraph that changes how the figures read: stands out */
	BC_NOTE_HEAD,	  /* the title of the list of items that follows ("Checks") */
	BC_NOTE_ITEM,	  /* an item of that list, with a badge */
};

/* a badge's colour: a pass, a failure, neither */
enum bc_note_tone { BC_TONE_NONE = 0, BC_TONE_OK, BC_TONE_BAD, BC_TONE_SKIP, BC_TONE_WARN };

struct bc_note {
	enum bc_note_style style;
	char *lead;  /* said first, in bold (owned), or NULL */
	char *text;  /* the rest (owned), or NULL */
	char *badge; /* an item's badge ("PASS", "2 of 12"; owned), or NULL */
	enum bc_note_tone tone;
};

struct bc_notes {
	struct bc_note *v;
	int n, cap;
};

/* add a note; lead, text and badge are copied (NULL: none); text is printf-formatted */
void bc_notes_add(struct bc_notes *n, enum bc_note_style style, const char *lead, const char *badge,
		  enum bc_note_tone tone, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void bc_notes_free(struct bc_notes *n);

/*
 * Step st's notes: seconds without records, agents lost and joined again,
 * degraded, the warnings and fidelity sentences run.json carries, steady
 * state, write amplification, the clocks before START; then its checks
 * (bc_notes_checks). Appended to n.
 */
void bc_notes_step(struct bc_notes *n, const struct bc_report *r, const cJSON *st);
/*
 * a step's checks: a line each, or at fleet size a line of counts per kind of
 * check with its first failures (bc_check_plan, report/parts/fmt.h)
 */
void bc_notes_checks(struct bc_notes *n, const cJSON *checks);

/*
 * an analysis's verdict, bottleneck and evidence lines, after the suspects
 * not measured (unmeasured: bc_summary_unmeasured's line, or "")
 */
void bc_notes_evidence(struct bc_notes *n, const cJSON *analysis, const char *unmeasured);

/* the notes as Markdown paragraphs and lists / as HTML; text escaped */
void bc_notes_md(FILE *f, const struct bc_notes *n);
void bc_notes_html(FILE *f, const struct bc_notes *n);

#endif
