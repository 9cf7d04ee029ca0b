/*
 * report/csv.c - timeseries.csv: one row per second per entity (total,
 * client host, storage node, volume) of every step, from the columnar
 * series in run.json or seconds.bin - a step's volumes and client hosts
 * only when that level is listed whole (results/fullsize.h; `bench-coord
 * dump-seconds` has every row); volumes.csv: one row per entity per step
 * with its window figures. RFC 4180: CRLF line ends, a header row, fields quoted
 * only when they hold a comma, quote or line break - so spreadsheet and
 * pandas read it as is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>

#include "report/parts/fmt.h"
#include "report/parts/rundata.h"
#include "report/writers.h"
#include "util/json.h"
#include "util/rjson.h"

/* series keys in column order, after the identifying columns */
static const char *const s_cols[] = {
    "iops", "read_iops", "mbps", "lat_mean_us", "lat_p50_us", "lat_p99_us", "lat_max_us", "errors",
};
#define S_NCOLS (sizeof(s_cols) / sizeof(s_cols[0]))

static void s_entity(const struct bc_report *r, FILE *f, const cJSON *st, const char *level,
		     const cJSON *e)
{
	cJSON *tmp;
	const cJSON *series = bc_report_series(r, st, e, &tmp), *col[S_NCOLS];
	int k, n = (int)bc_rj_num(st, "seconds"), ramp = (int)bc_rj_num(st, "measured_from_second");
	/* a long step's rows are minutes, "second" the first of each (results/long/minutes.h) */
	int unit = bc_rj(series, "interval_s") ? (int)bc_rj_num(series, "interval_s") : 1;
	char num[64];
	size_t c;

	/* a cursor per column: cJSON arrays are lists, indexing each second is quadratic */
	for (c = 0; c < S_NCOLS; c++) {
		col[c] = bc_rj(series, s_cols[c]);
		col[c] = col[c] ? col[c]->child : NULL;
	}
	for (k = 0; k<n; k += unit> 0 ? unit : 1) {
		bc_csv_puts(f, bc_rj_str("", st, "name"));
		fprintf(f, ",%d,%s,%s,", k, k < ramp ? "ramp" : "run", level);
		bc_csv_puts(f, bc_rj_str("", e, "name"));
		for (c = 0; c < S_NCOLS; c++) {
			const cJSON *v = col[c];

			/* a figure run.json lacks stays empty rather than reading as 0 */
			fprintf(f, ",%s",
				cJSON_IsNumber(v) ? bc_fmt_num(v->valuedouble, num, sizeof(num))
						  : "");
			if (col[c])
				col[c] = col[c]->next;
		}
		fputs("\r\n", f);
	}
	cJSON_Delete(tmp);
}

int bc_report_csv(const struct bc_report *r, FILE *f)
{
	const cJSON *st, *e;
	size_t c;
	int lvl;

	fputs("step,second,phase,level,entity", f);
	for (c = 0; c < S_NCOLS; c++)
		fprintf(f, ",%s", s_cols[c]);
	fputs("\r\n", f);
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		if (bc_rj(st, "total"))
			s_entity(r, f, st, "total", bc_rj(st, "total"));
		for (lvl = 1; lvl < 4; lvl++) {
			const cJSON *ents = bc_rj(st, bc_report_levels[lvl].key);

			/* a summarised level's seconds: bench-coord dump-seconds
			 * (results/fullsize.h) */
			if (!bc_report_whole(r, lvl, cJSON_GetArraySize(ents)))
				continue;
			cJSON_ArrayForEach(e, ents)
			    s_entity(r, f, st, bc_report_levels[lvl].label, e);
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* the window figures of volumes.csv, after step, level, entity, agent, node */
static const struct {
	const char *col;
	const char *k1, *k2; /* run.json path in the entity */
	bool count;	     /* an exact integer (bytes pass 2^53 in long runs) */
} s_fig_cols[] = {
    {"ios", "ios", NULL, true},
    {"bytes", "bytes", NULL, true},
    {"seconds", "seconds", NULL, true},
    {"iops", "iops", NULL, false},
    {"mbps", "mbps", NULL, false},
    {"read_pct", "read_pct", NULL, false},
    {"lat_mean_us", "lat_us", "mean", false},
    {"lat_p50_us", "lat_us", "p50", false},
    {"lat_p90_us", "lat_us", "p90", false},
    {"lat_p99_us", "lat_us", "p99", false},
    {"lat_p99.9_us", "lat_us", "p99.9", false},
    {"lat_max_us", "lat_us", "max", false},
    {"errors", "errors", NULL, true},
    {"short", "short", NULL, true},
};
#define S_NFIG (sizeof(s_fig_cols) / sizeof(s_fig_cols[0]))

static void s_fig_row(FILE *f, const cJSON *st, const char *level, const cJSON *e)
{
	char num[64];
	size_t c;

	bc_csv_puts(f, bc_rj_str("", st, "name"));
	fprintf(f, ",%s,", level);
	bc_csv_puts(f, bc_rj_str("", e, "name"));
	fputc(',', f);
	bc_csv_puts(f, bc_rj_str("", e, "agent"));
	fputc(',', f);
	bc_csv_puts(f, bc_rj_str("", e, "node"));
	for (c = 0; c < S_NFIG; c++) {
		const cJSON *v = s_fig_cols[c].k2 ? bc_rj(e, s_fig_cols[c].k1, s_fig_cols[c].k2)
						  : bc_rj(e, s_fig_cols[c].k1);

		/* a null figure stays empty */
		if (!cJSON_IsNumber(v))
			fputc(',', f);
		else if (s_fig_cols[c].count)
			fprintf(f, ",%" PRIu64, bc_json_u64_of(v));
		else
			fprintf(f, ",%s", bc_fmt_num(v->valuedouble, num, sizeof(num)));
	}
	fputs("\r\n", f);
}

int bc_report_volumes_csv(const struct bc_report *r, FILE *f)
{
	const cJSON *st, *e;
	size_t c;
	int lvl;

	fputs("step,level,entity,agent,node", f);
	for (c = 0; c < S_NFIG; c++)
		fprintf(f, ",%s", s_fig_cols[c].col);
	fputs("\r\n", f);
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		if (bc_rj(st, "total"))
			s_fig_row(f, st, "total", bc_rj(st, "total"));
		for (lvl = 1; lvl < 4; lvl++)
			cJSON_ArrayForEach(e, bc_rj(st, bc_report_levels[lvl].key))
			    s_fig_row(f, st, bc_report_levels[lvl].label, e);
	}
	return ferror(f) ? -EIO : 0;
}
