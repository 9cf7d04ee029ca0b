/*
 * bc_report.h - the report writers: everything a person or a tool reads
 * after a run (summary.md, report.html, timeseries.csv, fio.json) is made
 * from the run directory's files alone - run.json, profile.json and
 * events.jsonl - by bc_report_write_all(), both at the end of `bench-coord
 * run` and by `bench-coord report DIR`. Writers never see live structures,
 * so a report rebuilt later is the report written then.
 *
 * Files: report.c (driver, loading, JSON helpers), report_expect.c
 * (acceptance criteria), report_md.c, report_html.c + report_svg.c (charts),
 * report_csv.c, report_fio.c; rebuild.c (run.json from events.jsonl).
 */
#ifndef BC_REPORT_H
#define BC_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "bc_profile.h"

struct bc_report_secf;

/* what the writers read; all owned by the struct (bc_report_free) */
struct bc_report {
	char dir[BC_PATH_MAX];
	cJSON *run;	/* run.json */
	cJSON *profile; /* profile.json (resolved), NULL when missing */
	/*
	 * {"<agent>": [{"path", "resolved", "kind", "size", "lbs", "pbs"}, ...]}:
	 * the first READY of each agent in events.jsonl (the opened device), else
	 * the HELLO "paths" in run.json (checked before anything was created)
	 */
	cJSON *devices;
	/* evaluated "expect" criteria (report_expect.c), [] when none */
	cJSON *expect;
	bool run_borrowed; /* run is the caller's (bc_report_write_all_run): not freed here */
	/* per-second latency from events.jsonl for the heatmaps (report_chart.c), or NULL */
	struct bc_heat *heat;
	/* summary.md carries vdbench's interval table (run --format vdbench, report --format) */
	bool vdbench;
	/*
	 * seconds.bin (bc_secfile.h), open when a step's volumes have their
	 * series there, and where bc_report_series last found one (report.c)
	 */
	struct bc_report_secf *secf;
};

/*
 * entity e's per-second series (run.json "series") in step st: its own, or
 * for a volume whose series run.json's tree does not hold (the run still
 * writing, bc_runjson_write), made from seconds.bin into *tmp, which the
 * caller deletes. NULL when neither has one.
 */
const cJSON *bc_report_series(const struct bc_report *r, const cJSON *st, const cJSON *e,
			      cJSON **tmp);

/* report.c */

/*
 * Load DIR/run.json (required), DIR/profile.json and the devices from
 * DIR/events.jsonl. Returns 0, or -errno with a one-line message in err.
 */
int bc_report_load(struct bc_report *r, const char *dir, char *err, size_t errlen);
void bc_report_free(struct bc_report *r);

/* DIR/NAME parsed; NULL with a message in err. Caller owns the result. */
cJSON *bc_report_read_json(const char *dir, const char *name, char *err, size_t errlen);

/*
 * Write summary.md, report.html, timeseries.csv and fio.json into dir from
 * its run.json, profile.json and events.jsonl. Each file is written to a
 * temporary name and renamed, so readers never see half a report. Errors are
 * logged (naming the file); returns 0 or the first -errno.
 */
int bc_report_write_all(const char *dir);
/*
 * The same from run, the tree just written to dir/run.json, instead of
 * parsing that file again (at 16,000 volumes a second copy of a tree of
 * gigabytes, and seconds of parsing). run is only read.
 */
int bc_report_write_all_run(const char *dir, cJSON *run);
/* bc_report_write_all with vdbench's interval table in summary.md whatever the run's format */
int bc_report_write_all_vdbench(const char *dir);

/* the writers: each writes one whole document to f; 0 or -errno */
int bc_report_md(const struct bc_report *r, FILE *f);
int bc_report_html(const struct bc_report *r, FILE *f);
int bc_report_csv(const struct bc_report *r, FILE *f);
int bc_report_fio(const struct bc_report *r, FILE *f);
/* runs of several steps: one fio JSON per step under r->dir/fio/ in bench-fio's layout */
int bc_report_fio_points(const struct bc_report *r);

/*
 * report_table.c: a table both documents show, as rows of cells built from
 * run.json once and rendered as Markdown or HTML.
 */
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

/* report_expect.c: every criterion of profile.expect evaluated on run.json */
cJSON *bc_report_expect_eval(const cJSON *profile, const cJSON *run);

/*
 * rebuild.c: reconstruct DIR/run.json from DIR/events.jsonl (the
 * coordinator died before writing it, or wrote it mid-step). Returns 0 or
 * -errno with a message in err; -ENOSYS until it is implemented.
 */
int bc_rebuild_from_events(const char *dir, char *err, size_t errlen);

/* subcommands (cmd_*.c), dispatched from main.c */
int bc_cmd_report(int argc, char **argv);
int bc_cmd_compare(int argc, char **argv);
int bc_cmd_agents(int argc, char **argv);
int bc_cmd_import_fio(int argc, char **argv);
int bc_cmd_import_vdbench(int argc, char **argv);

/*
 * JSON lookups along a NULL-terminated key path; missing keys give NULL /
 * 0 / the fallback, never a crash, since run.json may be partial.
 */
const cJSON *bc_rj_(const cJSON *o, ...);
double bc_rj_num_(const cJSON *o, ...);
const char *bc_rj_str_(const char *fallback, const cJSON *o, ...);
#define bc_rj(o, ...)	      bc_rj_(o, __VA_ARGS__, (const char *)NULL)
#define bc_rj_num(o, ...)     bc_rj_num_(o, __VA_ARGS__, (const char *)NULL)
#define bc_rj_str(fb, o, ...) bc_rj_str_(fb, o, __VA_ARGS__, (const char *)NULL)

/* output escaping */
void bc_html_puts(FILE *f, const char *s); /* & < > " ' as entities */
void bc_md_puts(FILE *f, const char *s);   /* a Markdown table cell: | and newlines */
void bc_csv_puts(FILE *f, const char *s);  /* an RFC 4180 field, quoted when needed */

/* "%.15g" without trailing noise: the shortest text that reads back the same */
const char *bc_fmt_num(double v, char *buf, size_t len);
/* a measured figure v/div with decimals, or "-" when v is not a number (nothing measured) */
const char *bc_fmt_fig(const cJSON *v, double div, int decimals, char *buf, size_t len);
/* "4 KiB", "1.50 GiB" (binary units, exact values without decimals); "-" for <= 0 */
const char *bc_fmt_bytes(double bytes, char *buf, size_t len);
/* a check's "pass": "PASS", "FAIL", or "SKIP" when it is null (not applicable) */
const char *bc_check_word(const cJSON *check);

/*
 * report_svg.c: inline SVG charts for report.html. Text is escaped; the
 * chart carries data-chart="<id>" so tests (and readers' scripts) find it.
 */
struct bc_svg_series {
	const char *name;
	const double *x; /* NULL: x of point i is i + 0.5 (the middle of second i) */
	const double *y;
	int n;
	int color;   /* palette index, or -1 for the dark "total" colour */
	bool dashed; /* reference lines (a link rate) */
};

struct bc_svg_chart {
	const char *id;	     /* data-chart id, unique in the page */
	const char *title;   /* above the plot */
	const char *x_label; /* with unit: "time (s)" */
	const char *y_label; /* with unit: "MB/s" */
	double x_min, x_max; /* x domain; x_max <= x_min: from the data */
	double shade_to;     /* shade [x_min, shade_to] (the ramp); <= x_min: none */
	const char *shade_label;
	bool x_log2;   /* queue-depth sweeps: 1, 2, 4 ... evenly spaced */
	bool has_mark; /* a vertical marker (the knee) at mark_x */
	double mark_x;
	const char *mark_label;
};

/* a line chart of ns series */
void bc_svg_lines(FILE *f, const struct bc_svg_chart *c, const struct bc_svg_series *s, int ns);
/* a bar chart: one bar per label */
void bc_svg_bars(FILE *f, const struct bc_svg_chart *c, const char *const *labels, const double *v,
		 int n);
/* the colour of palette index i ("#4e79a7"); -1 is the total's */
const char *bc_svg_color(int i);

/*
 * report_repeat.c: figures with 95% intervals (common/bc_ci.h). A figure
 * of step group name (a step's name, or a repeated step's without "#k")
 * for op "total", "read" or "write": over its repetitions that finished
 * (*reps true; Student t), else of the one step's per-second series (op
 * "total"; batch means), else the bare window figure without an interval.
 * 0, -ENOENT (no such step), -ENODATA (no figure) or -ENOMEM.
 */
struct bc_ci;
#define BC_REP_NFIGS 6
struct bc_rep_fig {
	const char *key;   /* "iops", "mbps", or a lat_us key ("p99"), in ms */
	const char *label; /* "IOPS", "p99 ms" */
	int decimals;
};
extern const struct bc_rep_fig bc_rep_figs[BC_REP_NFIGS];
int bc_rep_ci(const cJSON *run, const char *name, const char *op, const char *fig, struct bc_ci *ci,
	      bool *reps);
/* a step's per-second series figure ("iops", "mbps", "mean", "p50", "p99") */
int bc_rep_series_ci(const cJSON *st, const char *fig, struct bc_ci *ci);
/* st is a repetition of name; the repetitions of name in run (*nok finished) */
bool bc_rep_member(const cJSON *st, const char *name);
int bc_rep_count(const cJSON *run, const char *name, int *nok);
struct bc_table *bc_table_repeats(const struct bc_report *r);
struct bc_table *bc_table_series_ci(const struct bc_report *r);

/*
 * report_chart.c: latency distribution, heatmap and latency-vs-IOPS charts,
 * into report.html (a "Latency charts" section) and as SVG files in
 * DIR/charts/ (0 or -errno, logged)
 */
void bc_chart_html(FILE *f, const struct bc_report *r);
/* read once per report: r->heat from DIR/events.jsonl (NULL without memory) */
struct bc_heat *bc_heat_load(const struct bc_report *r);
void bc_heat_free(struct bc_heat *ht);
int bc_chart_files(const struct bc_report *r);
/* read and write apart, per step that mixes them: total, agents, nodes */
struct bc_table *bc_table_rw(const struct bc_report *r);

/* the entity levels of a run.json step, in report order */
struct bc_report_level {
	const char *key;   /* "total" (an object) or "agents", "nodes", "volumes" */
	const char *label; /* "total", "agent", "node", "volume" */
};
extern const struct bc_report_level bc_report_levels[4];

#endif
