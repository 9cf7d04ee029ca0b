/*
 * run/steptable.c - a finished step's table on the terminal (the live view's
 * last word on a step): each level's window figures, fitted to the
 * terminal's width, vdbench's avg line first in --format vdbench
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "report/parts/fmt.h"
#include "report/parts/vdbench.h"
#include "results/results.h"
#include "run/live.h"
#include "run/steptable.h"
#include "util/clock.h"
#include "util/rjson.h"

/*
 * The step table's columns. Full (111 columns) when nothing limits the
 * width (--plain, a pipe, a terminal of 120 or more); on a narrower
 * terminal the figures take compact widths and columns go in the order
 * below until the label has at least S_LABEL_MIN columns, so no line
 * wraps (a wrapped table is unreadable at 80 columns). What goes first is
 * what another column or another view says best: p50 (mean and p99 stay),
 * read% (a mixed step has its read and write rows), max, mean, MB/s.
 */
enum { S_C_IOPS, S_C_MBPS, S_C_READ, S_C_MEAN, S_C_P50, S_C_P99, S_C_MAX, S_C_ERR, S_NCOLS };

static const struct {
	const char *head;
	int full, compact; /* widths */
	int drop;	   /* order of dropping on a narrow terminal, 0: never */
} s_cols[S_NCOLS] = {
    [S_C_IOPS] = {"IOPS", 11, 10, 0}, [S_C_MBPS] = {"MB/s", 9, 8, 5},
    [S_C_READ] = {"read%", 6, 5, 2},  [S_C_MEAN] = {"mean_ms", 9, 8, 4},
    [S_C_P50] = {"p50_ms", 9, 8, 1},  [S_C_P99] = {"p99_ms", 9, 8, 0},
    [S_C_MAX] = {"max_ms", 9, 8, 3},  [S_C_ERR] = {"errors", 7, 6, 0},
};

#define S_LABEL_FULL 32
#define S_LABEL_MIN  12
/* a terminal this wide gets the full table (111 columns, the label at full width) */
#define S_TABLE_FULL_COLS 120

struct s_layout {
	int cols;  /* the terminal's width; 0: unlimited */
	int label; /* label width */
	int w[S_NCOLS];
};

static void s_layout(int cols, struct s_layout *l)
{
	int i, d, used;

	memset(l, 0, sizeof(*l));
	l->label = S_LABEL_FULL;
	for (i = 0; i < S_NCOLS; i++)
		l->w[i] = s_cols[i].full;
	if (cols <= 0 || cols >= S_TABLE_FULL_COLS)
		return;
	l->cols = cols;
	for (i = 0; i < S_NCOLS; i++)
		l->w[i] = s_cols[i].compact;
	for (d = 1;; d++) {
		used = 2 + 1; /* the indent, and the last column left free (no autowrap) */
		for (i = 0; i < S_NCOLS; i++)
			used += l->w[i] ? 1 + l->w[i] : 0;
		l->label = cols - used;
		if (l->label >= S_LABEL_MIN)
			break;
		for (i = 0; i < S_NCOLS && s_cols[i].drop != d; i++)
			;
		if (i == S_NCOLS)
			break; /* nothing left to drop: the line is cut in s_put */
		l->w[i] = 0;
	}
	if (l->label > S_LABEL_FULL)
		l->label = S_LABEL_FULL;
	if (l->label < 6)
		l->label = 6; /* "total", "~e.dat": narrower is cut by s_put */
}

/* print buf, cut to the terminal's width when there is one */
static void s_put(FILE *f, const struct s_layout *l, char *buf)
{
	if (l->cols > 0 && (int)strlen(buf) > l->cols - 1)
		buf[l->cols - 1] = '\0';
	fprintf(f, "%s\n", buf);
}

/* one line of the table: label and the cells of the columns kept */
static void s_cells(FILE *f, const struct s_layout *l, const char *label, char c[S_NCOLS][32])
{
	char buf[512], lab[BC_NAME_MAX + 16];
	size_t n = strlen(label);
	int i, o;

	/*
	 * a label that does not fit keeps its level ("agent ", "node ") and the
	 * end of its name: a path's file name, a host's number
	 */
	if ((int)n > l->label) {
		size_t pre = !strncmp(label, "agent ", 6) ? 6 : !strncmp(label, "node ", 5) ? 5 : 0;

		if ((int)pre + 2 > l->label)
			pre = 0;
		snprintf(lab, sizeof(lab), "%.*s~%s", (int)pre, label,
			 label + n - (size_t)(l->label - 1 - (int)pre));
	} else
		snprintf(lab, sizeof(lab), "%s", label);
	o = snprintf(buf, sizeof(buf), "  %-*s", l->label, lab);
	for (i = 0; i < S_NCOLS; i++)
		if (l->w[i] && o < (int)sizeof(buf))
			o += snprintf(buf + o, sizeof(buf) - (size_t)o, " %*s", l->w[i], c[i]);
	s_put(f, l, buf);
}

static void s_print_row(FILE *f, const struct s_layout *l, const char *label,
			const struct bc_volstat *w, uint32_t secs)
{
	cJSON *j = bc_result_window_json(w, secs);
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(j, "lat_us");
	char c[S_NCOLS][32];

	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(j, "iops"), 1, 0, c[S_C_IOPS], sizeof(c[0]));
	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(j, "mbps"), 1, 1, c[S_C_MBPS], sizeof(c[0]));
	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(j, "read_pct"), 1, 1, c[S_C_READ],
		   sizeof(c[0]));
	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(lat, "mean"), 1000, 3, c[S_C_MEAN],
		   sizeof(c[0]));
	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(lat, "p50"), 1000, 3, c[S_C_P50], sizeof(c[0]));
	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(lat, "p99"), 1000, 3, c[S_C_P99], sizeof(c[0]));
	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(lat, "max"), 1000, 3, c[S_C_MAX], sizeof(c[0]));
	bc_fmt_fig(cJSON_GetObjectItemCaseSensitive(j, "errors"), 1, 0, c[S_C_ERR], sizeof(c[0]));
	s_cells(f, l, label, c);
	cJSON_Delete(j);
}

static void s_print_folded(FILE *f, const struct s_layout *l, const char *text)
{
	bc_live_fold(f, l->cols, 4, text);
}

/*
 * A terminal table of a few hundred rows is still read; one of 16,000
 * volumes is not (and costs seconds to compute): past this many rows a
 * level prints its first ones and a pointer to the reports.
 */
#define S_PRINT_ROWS_MAX 64

static void s_print_level(FILE *f, const struct s_layout *l, const struct bc_step_result *r,
			  int lvl, const char *prefix, const char *plural)
{
	const struct bc_agg *g = &r->agg;
	char text[256];
	int i;

	for (i = 0; i < g->nent[lvl] && i < S_PRINT_ROWS_MAX; i++) {
		char label[BC_NAME_MAX + 8];

		if ((lvl == BC_LVL_AGENT && bc_result_agent_out(r, i)) ||
		    (lvl == BC_LVL_VOLUME && bc_result_agent_out(r, g->prof->volumes[i].agent)))
			continue;
		snprintf(label, sizeof(label), "%s%s", prefix, g->ent[lvl][i].name);
		s_print_row(f, l, label, &g->ent[lvl][i].window,
			    bc_result_window_secs(g, &g->ent[lvl][i]));
	}
	if (g->nent[lvl] > S_PRINT_ROWS_MAX) {
		snprintf(text, sizeof(text),
			 "  ... and %d more %s: summary.md, report.html, timeseries.csv",
			 g->nent[lvl] - S_PRINT_ROWS_MAX, plural);
		s_print_folded(f, l, text);
	}
}

/* a window of several op classes (or metadata operations): each on its own row under the total */
static void s_print_ops(FILE *f, const struct s_layout *l, const struct bc_volstat *w,
			uint32_t secs)
{
	struct bc_volstat *one;
	int op, n = 0;

	/* a row per op class when there are several, and always for metadata operations */
	for (op = 0; op < BC_OP_NR; op++)
		n += w->op[op].ios > 0;
	if (n < 2 && !w->op[BC_OP_META].ios)
		return;
	one = malloc(sizeof(*one));
	for (op = 0; one && op < BC_OP_NR; op++) {
		char label[16];

		if (!w->op[op].ios)
			continue;
		bc_volstat_reset(one);
		one->op[op] = w->op[op];
		snprintf(label, sizeof(label), "  %s", bc_op_names[op]);
		s_print_row(f, l, label, one, secs);
	}
	free(one);
}

/* vdbench ends a run's interval lines with its avg line (--format vdbench) */
static void s_print_vdb_avg(FILE *f, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	struct bc_vdb_row row;
	char ts[32], label[48];

	bc_vdb_step_avg(r, &row);
	/* without the interval lines above it (--quiet, --json) the line needs its header */
	if (bc_live_mode() == BC_LIVE_QUIET || bc_live_mode() == BC_LIVE_JSON) {
		bc_vdb_date(r->start_ns, ts, sizeof(ts));
		fputc('\n', f);
		bc_vdb_print_header(f, ts);
	}
	bc_vdb_time(r->start_ns + (uint64_t)g->seconds * BC_NS_PER_S, ts, sizeof(ts));
	bc_vdb_avg_label(g->ramp_s + 1, g->seconds, label, sizeof(label));
	bc_vdb_print_row(f, ts, label, &row);
	fflush(f);
}

void bc_result_print_step(FILE *f, const struct bc_step_result *r, int cols)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_entity *t = &g->ent[BC_LVL_TOTAL][0];
	uint32_t secs = bc_result_window_secs(g, t);
	char text[BC_NAME_MAX + sizeof(r->error) + 96], c[S_NCOLS][32];
	struct s_layout l;
	int i;

	if (bc_live_format() == BC_LIVE_FMT_VDBENCH && secs)
		s_print_vdb_avg(f, r);
	s_layout(cols, &l);
	snprintf(text, sizeof(text), "step %s: %s over seconds %u-%u (ramp excluded)%s%s",
		 r->step->name, r->status, g->ramp_s, g->seconds ? g->seconds - 1 : 0,
		 r->error[0] ? ": " : "", r->error);
	fprintf(f, "\n");
	s_print_folded(f, &l, text);
	if (secs < g->seconds - g->ramp_s) {
		snprintf(text, sizeof(text),
			 "  figures over the %u of %u measured seconds that carried records", secs,
			 g->seconds - g->ramp_s);
		s_print_folded(f, &l, text);
	}
	for (i = 0; i < S_NCOLS; i++)
		snprintf(c[i], sizeof(c[i]), "%s", s_cols[i].head);
	s_cells(f, &l, "", c);
	s_print_row(f, &l, "total", &t->window, secs);
	s_print_ops(f, &l, &t->window, secs);
	s_print_level(f, &l, r, BC_LVL_AGENT, "agent ", "agents");
	s_print_level(f, &l, r, BC_LVL_NODE, "node ", "nodes");
	s_print_level(f, &l, r, BC_LVL_VOLUME, "", "volumes");
	fflush(f);
}

void bc_result_print_steady(FILE *f, const cJSON *sj, int cols)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(sj, "steady_state"), "text");
	char text[512];

	if (!cJSON_IsString(t))
		return;
	snprintf(text, sizeof(text), "  steady state: %s", t->valuestring);
	bc_live_fold(f, cols, 4, text);
	fflush(f);
}

void bc_result_print_sim(FILE *f, const cJSON *sj, int cols)
{
	const cJSON *v, *sim, *waf;
	char text[512];
	int n;

	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(sj, "volumes"))
	{
		sim = bc_rj(v, "nvme_counters", "sim");
		waf = bc_rj(v, "nvme_counters", "waf", "value");
		if (!bc_rj(sim, "ftl") || !cJSON_IsNumber(waf))
			continue;
		/* the figures seed 001 compares, where the operator is looking (docs/sim.md) */
		n = snprintf(text, sizeof(text),
			     "  %s: WAF %.3f (device counters), FTL %s, GC overhead %.1f%%, free "
			     "units %.0f of %.0f",
			     bc_rj_str("?", v, "name"), waf->valuedouble,
			     bc_rj_str("?", sim, "ftl"), bc_rj_num(sim, "gc_overhead_pct"),
			     bc_rj_num(sim, "free_rus"), bc_rj_num(sim, "rus"));
		if (bc_rj(sim, "pools") && n > 0 && (size_t)n < sizeof(text))
			snprintf(text + n, sizeof(text) - (size_t)n, " (hot %.0f, cold %.0f)",
				 bc_rj_num(sim, "pools", "hot", "free_rus"),
				 bc_rj_num(sim, "pools", "cold", "free_rus"));
		bc_live_fold(f, cols, 4, text);
	}
	fflush(f);
}
