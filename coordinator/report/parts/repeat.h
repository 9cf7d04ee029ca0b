/*
 * report/parts/repeat.h (report/parts/repeat.c) - figures with 95% intervals (common/figures/ci.h).
 * A figure of step group name (a step's name, or a repeated step's without "#k") for op "total",
 * "read" or "write": over its repetitions that finished
 * (*reps true; Student t), else of the one step's per-second series (op
 * "total"; batch means), else the bare window figure without an interval.
 * 0, -ENOENT (no such step), -ENODATA (no figure) or -ENOMEM.
 */
#ifndef BC_REPORT_PARTS_REPEAT_H
#define BC_REPORT_PARTS_REPEAT_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "report/parts/rundata.h"
#include "report/parts/table.h"

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

#endif
