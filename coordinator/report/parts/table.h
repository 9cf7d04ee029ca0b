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
	BC_CELL_PASS, /* a PASS badge / bold */
	BC_CELL_FAIL, /* a FAIL badge / bold */
	BC_CELL_LIST, /* "\n"-separated items: a list in HTML, "a; b;" in Markdown */
};

struct bc_cell {
	char *text; /* owned */
	enum bc_cell_style style;
	int swatch; /* palette colour shown before the text (HTML), -1: none */
};

struct bc_table {
	char title[96];
	const char *cols[BC_TABLE_COLS]; /* static strings */
	bool num[BC_TABLE_COLS];	 /* right-aligned number column */
	int ncols, nrows, col;		 /* col: cells filled in the last row */
	struct bc_cell *cells;		 /* nrows x ncols, row-major */
	char note[800];			 /* a line after the table (a whole verdict), or "" */
};

/* cols: NULL-terminated names, "=name" for a number column; NULL on ENOMEM */
struct bc_table *bc_table_new(const char *title, const char *const *cols);
void bc_table_destroy(struct bc_table **t);
/* cells fill rows left to right; a full row starts the next */
void bc_table_cell(struct bc_table *t, enum bc_cell_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void bc_table_text(struct bc_table *t, const char *s);
void bc_table_swatch(struct bc_table *t, int color, const char *s);
void bc_table_num(struct bc_table *t, const cJSON *present, double v, int decimals);
void bc_table_md(FILE *f, const struct bc_table *t, int level);
void bc_table_html(FILE *f, const struct bc_table *t, int level);
/* the tables; each NULL when run.json has nothing for it (caller destroys) */
struct bc_table *bc_table_expect(const struct bc_report *r);
struct bc_table *bc_table_verdicts(const struct bc_report *r);
struct bc_table *bc_table_agents(const struct bc_report *r);
struct bc_table *bc_table_devices(const struct bc_report *r);
struct bc_table *bc_table_nvme(const struct bc_report *r);
struct bc_table *bc_table_nodes(const struct bc_report *r);
/* the leading analysis (the last sweep's, else the last step's): suspects, and its points */
struct bc_table *bc_table_suspects(const struct bc_report *r);
struct bc_table *bc_table_sweep_points(const struct bc_report *r);
/* build with fn, render (HTML or Markdown, heading level) and free */
void bc_table_emit(FILE *f, struct bc_table *(*fn)(const struct bc_report *),
		   const struct bc_report *r, bool html, int level);

#endif
