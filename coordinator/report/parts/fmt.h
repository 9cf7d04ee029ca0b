/*
 * report/parts/fmt.h (fmt.c) - escaping and number formatting for the writers
 */
#ifndef BC_REPORT_PARTS_FMT_H
#define BC_REPORT_PARTS_FMT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* an entity's colour in every chart and table: palette index i ("#4e79a7"); -1 the total's */
#define BC_FMT_NCOLORS 10
const char *bc_fmt_color(int i);

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
/*
 * A latency in microseconds as people read it: the unit chosen by its
 * magnitude (ns, µs, ms, s) and three significant digits ("2.20 µs",
 * "90.1 µs", "1.20 ms", "342 ms"); "-" when it is not a number
 */
const char *bc_fmt_lat_us(double us, char *buf, size_t len);
/* a measured latency of run.json (null: nothing measured, "-"), as bc_fmt_lat_us */
const char *bc_fmt_lat_fig(const cJSON *us, char *buf, size_t len);
/* an integer with thousands grouped by commas ("578,836"); "-" when not finite */
const char *bc_fmt_int(double v, char *buf, size_t len);
/* three significant digits with an SI prefix: "579k", "2.37M", "950", "0.25"; unit appended */
const char *bc_fmt_si(double v, const char *unit, char *buf, size_t len);
/* a throughput in MB/s (10^6 bytes) as "85.3 MB/s", "2.37 GB/s": three significant digits */
const char *bc_fmt_mbps(double mbps, char *buf, size_t len);
/* a duration in seconds as "45 s", "12 min 5 s", "2 h 3 min" */
const char *bc_fmt_dur(double s, char *buf, size_t len);

/* a check's "pass": "PASS", "FAIL", or "SKIP" when it is null (not applicable) */
const char *bc_check_word(const cJSON *check);

/*
 * A step's checks as the reports list them. A check made per entity (Little's
 * law per volume) is listed a line each while it has at most BC_CHECK_EACH
 * entities; above, it is one line of counts plus its first BC_CHECK_EACH
 * failures - 1,602 volumes made 1,602 lines of SKIP - and run.json keeps
 * every one. bc_check_plan says, for each check of the array in order, what
 * to print: BC_CHECK_LINE (the check itself), BC_CHECK_HEAD (the counts of
 * its kind, *kind filled, then the check itself if it failed), BC_CHECK_FAIL
 * (a failure of a summarised kind), BC_CHECK_NONE (left out).
 */
#define BC_CHECK_EACH 10
enum bc_check_show { BC_CHECK_NONE, BC_CHECK_LINE, BC_CHECK_HEAD, BC_CHECK_FAIL };
struct bc_check_kind {
	const char *name;
	int n, pass, fail, skip; /* entities and their outcomes */
	int failed_shown;
};
struct bc_check_plan {
	struct bc_check_kind kind[32]; /* distinct names beyond 32 are each listed whole */
	int kinds;
};
void bc_check_plan_make(struct bc_check_plan *p, const cJSON *checks);
enum bc_check_show bc_check_plan_next(struct bc_check_plan *p, const cJSON *check,
				      const struct bc_check_kind **kind);

#endif
