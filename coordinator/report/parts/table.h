/*
 * report/parts/table.h (report/parts/table.c) - a table both documents show, as rows of
 * cells built from run.json once and rendered as Markdown or HTML.
 */
#ifndef BC_REPORT_PARTS_TABLE_H
#define BC_REPORT_PARTS_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "report/parts/rundata.h"

#define BC_TABLE_COLS 16

enum bc_cell_style {
	BC_CELL_TEXT = 0,
	BC_CELL_PASS,	/* a PASS badge / bold */
	BC_CELL_FAIL,	/* a FAIL badge / bold */
	BC_CELL_LIST,	/* "\n"-separated items: a list in HTML, "a; b;" in Markdown */
	BC_CELL_STRONG, /* bold ("total") */
	BC_CELL_STATUS, /* a step's status: a badge coloured by the word ("ok", "failed", ...) */
	BC_CELL_MUTED,	/* a row's remark ("... 12 more ...") */
};

struct bc_cell {
	char *text; /* owned */
	enum bc_cell_style style;
	int swatch; /* palette colour shown before the text (HTML), -1: none */
	char *href; /* a link ("#step-3", "volumes.html"), owned, or NULL */
};

/* a row whose first cell spans the table (a remark between rows) */
#define BC_ROW_SPAN 1

struct bc_table {
	char title[96];			 /* "" for no heading */
	char id[64];			 /* the HTML id of the heading, or "" */
	const char *cols[BC_TABLE_COLS]; /* static strings */
	bool num[BC_TABLE_COLS];	 /* right-aligned number column */
	bool wrap[BC_TABLE_COLS];	 /* long text: wraps in HTML (a minimum width) */
	int ncols, nrows, col;		 /* col: cells filled in the last row */
	struct bc_cell *cells;		 /* nrows x ncols, row-major */
	int *rowflags;			 /* BC_ROW_* per row */
	char intro[400];		 /* a sentence before the table, or "" */
	char note[800];			 /* a line after the table (a whole verdict), or "" */
};

/*
 * cols: NULL-terminated names, "=name" for a number column, "~name" for a
 * column of long text; NULL on ENOMEM
 */
struct bc_table *bc_table_new(const char *title, const char *const *cols);
void bc_table_destroy(struct bc_table **t);
/* cells fill rows left to right; a full row starts the next */
void bc_table_cell(struct bc_table *t, enum bc_cell_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void bc_table_text(struct bc_table *t, const char *s);
void bc_table_swatch(struct bc_table *t, int color, const char *s);
void bc_table_num(struct bc_table *t, const cJSON *present, double v, int decimals);
/* a latency cell (run.json microseconds; null or absent: "-"), bc_fmt_lat_us */
void bc_table_lat(struct bc_table *t, const cJSON *us);
/* a count cell, grouped ("578,836"); absent: "-" */
void bc_table_int(struct bc_table *t, const cJSON *present, double v);
/* the last cell added links to href */
void bc_table_link(struct bc_table *t, const char *href);
/* a row of one cell spanning the table, in style (BC_CELL_MUTED: a remark) */
void bc_table_span(struct bc_table *t, enum bc_cell_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void bc_table_md(FILE *f, const struct bc_table *t, int level);
void bc_table_html(FILE *f, const struct bc_table *t, int level);
/* the tables; each NULL when run.json has nothing for it (caller destroys) */
struct bc_table *bc_table_expect(const struct bc_report *r);
struct bc_table *bc_table_verdicts(const struct bc_report *r);
struct bc_table *bc_table_agents(const struct bc_report *r);
struct bc_table *bc_table_devices(const struct bc_report *r);
struct bc_table *bc_table_nvme(const struct bc_report *r);
struct bc_table *bc_table_nodes(const struct bc_report *r);
/*
 * the suspects an analysis (run.json steps[].analysis) measured, excluded or
 * implicated, with their figures; those not measured are left to one line
 * (bc_summary_unmeasured). NULL when it has none.
 */
struct bc_table *bc_table_suspects_of(const cJSON *analysis, const char *step);
/*
 * a long step's drift (run.json's steps[].drift, results/long/minutes.h): IOPS and
 * merged p99 per hour, the trends, worst minutes and steady state in the note
 */
struct bc_table *bc_table_drift(const cJSON *st);
/* build with fn, render (HTML or Markdown, heading level) and free */
void bc_table_emit(FILE *f, struct bc_table *(*fn)(const struct bc_report *),
		   const struct bc_report *r, bool html, int level);

#endif
