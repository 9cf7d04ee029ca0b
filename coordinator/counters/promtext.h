/*
 * counters/promtext.h - a parser for the Prometheus text exposition format 0.0.4
 * (prometheus.io/docs/instrumenting/exposition_formats, "Text-based format"):
 * "# HELP" / "# TYPE" lines, samples "name{label="value",...} value [ts_ms]"
 * with \\ \" \n escapes in label values, Go floats (NaN, +Inf, -Inf) and
 * optional millisecond timestamps. Robust rather than strict: a line it
 * cannot read is counted and skipped, never fatal, because one odd vendor
 * metric must not cost a node its CPU figures.
 */
#ifndef BC_COUNTERS_PROMTEXT_H
#define BC_COUNTERS_PROMTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BC_PROM_NAME_MAX   256 /* metric names */
#define BC_PROM_LNAME_MAX  128 /* label names */
#define BC_PROM_LVALUE_MAX 512 /* label values; longer ones skip the sample */
#define BC_PROM_LABELS_MAX 32

enum bc_prom_type {
	BC_PROM_UNTYPED = 0,
	BC_PROM_COUNTER,
	BC_PROM_GAUGE,
	BC_PROM_HISTOGRAM,
	BC_PROM_SUMMARY,
};

struct bc_prom_label {
	char name[BC_PROM_LNAME_MAX];
	char value[BC_PROM_LVALUE_MAX]; /* unescaped */
};

struct bc_prom_sample {
	char name[BC_PROM_NAME_MAX];
	enum bc_prom_type type; /* from the family's # TYPE line; untyped without one */
	int nlabels;
	struct bc_prom_label labels[BC_PROM_LABELS_MAX];
	double value; /* NaN and +-Inf as given */
	bool has_ts;
	int64_t ts_ms;
};

struct bc_prom_stats {
	uint32_t lines;		 /* non-empty lines */
	uint32_t samples;	 /* parsed sample lines (wanted or not) */
	uint32_t comments;	 /* HELP, TYPE and other # lines */
	uint32_t bad;		 /* lines skipped as unreadable */
	uint32_t first_bad_line; /* 1-based, 0 when none */
};

/*
 * want(arg, name, len): is this metric of interest? Only then are the labels
 * and value parsed and on_sample called; NULL wants everything.
 * on_sample returns 0 to go on, non-zero to stop the parse with that value.
 */
typedef bool (*bc_prom_want_fn)(void *arg, const char *name, size_t len);
typedef int (*bc_prom_sample_fn)(void *arg, const struct bc_prom_sample *s);

/*
 * Parse text[0..len) (need not be NUL-terminated). Returns 0, or what
 * on_sample returned to stop. stats may be NULL. Reentrant; uses ~20 KB of
 * stack for the sample.
 */
int bc_prom_parse(const char *text, size_t len, bc_prom_want_fn want, bc_prom_sample_fn on_sample,
		  void *arg, struct bc_prom_stats *stats);

/* the value of label name in s, or NULL */
const char *bc_prom_label(const struct bc_prom_sample *s, const char *name);

#endif
