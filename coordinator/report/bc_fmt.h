/*
 * bc_fmt.h (fmt.c) - escaping and number formatting for the writers
 */
#ifndef BC_FMT_H
#define BC_FMT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

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

#endif
