/*
 * report/md.c - summary.md: the report in Markdown, in report.html's order
 * and words (both render report/parts/: the summary, the tables, the notes):
 * the summary first (what was tested, the headline figures, the ceiling and
 * its cause with the confidence, the caveats), the acceptance criteria, FDP
 * experiments, the system under test, the results of every step, each
 * sweep's story (its charts as links to charts/, its table, the evidence),
 * then each step in detail. Sections whose data run.json does not hold are
 * left out rather than shown empty.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/draw/story.h"
#include "report/parts/fdp.h"
#include "report/parts/fmt.h"
#include "report/parts/notes.h"
#include "report/parts/nvme.h"
#include "report/parts/rank.h"
#include "report/parts/repeat.h"
#include "report/parts/rundata.h"
#include "report/parts/steptab.h"
#include "report/parts/summary.h"
#include "report/parts/sweep.h"
#include "report/parts/table.h"
#include "report/parts/vdbench.h"
#include "report/writers.h"
#include "util/rjson.h"

static void s_header(FILE *f, const struct bc_report *r)
{
	const cJSON *run = r->run;

	fprintf(f, "# ");
	bc_md_puts(f, bc_rj_str("?", run, "profile"));
	fprintf(f, " (%s)\n\n", bc_rj_str("?", run, "status"));
	if (bc_rj(r->profile, "description")) {
		bc_md_puts(f, bc_rj_str("", r->profile, "description"));
		fprintf(f, "\n\n");
	}
	bc_md_puts(f, bc_rj_str("bench-coord", run, "tool"));
	fprintf(f, " · started %s · finished %s\n", bc_rj_str("-", run, "started"),
		bc_rj_str("-", run, "finished"));
}

static void s_summary(FILE *f, const struct bc_summary *s)
{
	int i;

	fprintf(f, "\n## Summary\n\n");
	bc_md_puts(f, s->tested);
	fprintf(f, "\n\n| figure | value | where |\n|---|---:|---|\n");
	for (i = 0; i < s->nfig; i++) {
		fprintf(f, "| ");
		bc_md_puts(f, s->fig[i].label);
		fprintf(f, " | **");
		bc_md_puts(f, s->fig[i].text);
		fprintf(f, "** | ");
		bc_md_puts(f, s->fig[i].where);
		fprintf(f, " |\n");
	}
	for (i = 0; i < s->nceil; i++) {
		const struct bc_sum_ceiling *c = &s->ceil[i];

		fprintf(f, "\n");
		bc_md_puts(f, c->sentence);
		if (c->confidence) {
			fprintf(f, " **Confidence: %s.**", c->confidence);
			if (c->why[0]) {
				fprintf(f, " Lowered by: ");
				bc_md_puts(f, c->why);
				fprintf(f, ".");
			}
		}
		fprintf(f, "\n");
		if (c->unmeasured[0]) {
			fprintf(f, "\n**Not measured:** ");
			bc_md_puts(f, c->unmeasured);
			fprintf(f, ".\n");
		}
	}
	if (s->caveats.n) {
		fprintf(f, "\n### Caveats\n");
		bc_notes_md(f, &s->caveats);
	}
}

static void s_environment(FILE *f, const struct bc_report *r)
{
	struct bc_notes n = {0};

	fprintf(f, "\n## System under test\n");
	bc_summary_profile(&n, r);
	bc_notes_md(f, &n);
	bc_notes_free(&n);
	if (bc_report_summarised(r)) {
		/* 16,000 device rows would bury the page: the full tables are a link away */
		fprintf(f,
			"\n%d client hosts and %d volumes: their tables (host facts, the devices "
			"opened) are in volumes.html.\n",
			cJSON_GetArraySize(bc_rj(r->run, "agents")),
			cJSON_GetArraySize(bc_rj(r->profile, "volumes")));
	} else {
		bc_table_emit(f, bc_table_agents, r, false, 3);
		bc_table_emit(f, bc_table_devices, r, false, 3);
	}
	bc_table_emit(f, bc_table_nvme, r, false, 3);
	bc_table_emit(f, bc_table_nodes, r, false, 3);
}

static void s_table(FILE *f, struct bc_table *t, int level)
{
	bc_table_md(f, t, level);
	bc_table_destroy(&t);
}

/* a level too large to list (results/fullsize.h): its distribution and extremes */
static void s_level_summary(FILE *f, const cJSON *st, int lvl)
{
	const char *who = lvl == 1 ? "client host" : "volume";
	struct bc_rank k;

	if (bc_rank_make(&k, bc_rj(st, bc_report_levels[lvl].key)))
		return;
	fprintf(f,
		"\n%d %ss, too many to list here (every one is in volumes.csv and volumes.html): "
		"the distribution of their window figures, and the %d highest and lowest.\n",
		k.n, who, BC_RANK_TOP);
	s_table(f, bc_tab_rank_dist(&k, who), 4);
	s_table(f, bc_tab_rank_top(k.by_iops, k.n, lvl, false, "by IOPS, highest first"), 4);
	s_table(f, bc_tab_rank_top(k.by_p99, k.n, lvl, true, "by p99 latency, highest first"), 4);
	bc_rank_free(&k);
}

/* a sweep's story: its charts (files in charts/), its table, the knee, the evidence */
static void s_sweep(FILE *f, const struct bc_sweep *sw, int k)
{
	static const char *const alt[BC_STORY_CHARTS] = {"throughput", "latency",
							 "latency against throughput"};
	char ids[BC_STORY_CHARTS][128], un[1400];
	struct bc_notes n = {0};
	struct bc_table *t;
	int c;

	fprintf(f, "\n## Sweep ");
	bc_md_puts(f, sw->name);
	fprintf(f, " over %s\n\n%d point%s, %s. ", sw->param, sw->n, sw->n == 1 ? "" : "s",
		sw->steps > 1 ? "a step each below" : "measured in the step below");
	if (sw->knee >= 0) {
		fprintf(f, "The knee is at %s=", sw->param);
		bc_md_puts(f, sw->pt[sw->knee].label);
		if (sw->knee_reason) {
			fprintf(f, ": ");
			bc_md_puts(f, sw->knee_reason);
		}
		fprintf(f, "%s.\n",
			sw->knee_confirmed ? "" : " (not confirmed by the points after it)");
	} else {
		fprintf(f, "No knee: the throughput did not level off.\n");
	}
	bc_story_ids(sw, k, ids);
	fprintf(f, "\n");
	for (c = 0; c < BC_STORY_CHARTS; c++)
		fprintf(f, "![%s](charts/%s.svg) ", alt[c], ids[c]);
	fprintf(f, "\n");
	s_table(f, bc_tab_sweep(sw), 3);
	t = bc_table_suspects_of(sw->analysis, sw->name);
	s_table(f, t, 3);
	bc_summary_unmeasured(sw->analysis, un, sizeof(un));
	bc_notes_evidence(&n, sw->analysis, un);
	bc_notes_md(f, &n);
	bc_notes_free(&n);
}

static void s_step(FILE *f, const struct bc_report *r, const cJSON *st)
{
	struct bc_notes n = {0};
	char wl[256];
	int lvl;

	fprintf(f, "\n## Step ");
	bc_md_puts(f, bc_rj_str("?", st, "name"));
	fprintf(f, " (%s%s)\n\n", bc_rj_str("?", st, "status"),
		cJSON_IsTrue(bc_rj(st, "contended")) ? ", contended" : "");
	if (bc_rj(st, "error")) {
		fprintf(f, "**Error:** ");
		bc_md_puts(f, bc_rj_str("", st, "error"));
		fprintf(f, "\n\n");
	}
	fprintf(f, "Workload: ");
	bc_md_puts(f, bc_tab_workload(bc_rj(st, "workload"), wl, sizeof(wl)));
	fprintf(f, "; seconds %.0f-%.0f measured.\n", bc_rj_num(st, "measured_from_second"),
		bc_rj_num(st, "seconds") - 1);
	s_table(f, bc_tab_step(r, st, 0xf, false), 3);
	/* a long step's drift per hour (results/long/minutes.h) */
	if (bc_rj(st, "drift"))
		s_table(f, bc_table_drift(st), 3);
	for (lvl = 1; lvl < 4; lvl++)
		if (!bc_report_whole(r, lvl,
				     cJSON_GetArraySize(bc_rj(st, bc_report_levels[lvl].key))))
			s_level_summary(f, st, lvl);
	bc_report_md_nvme(f, st); /* WAF, temperature, node mapping (docs/nvme.md) */
	if (r->vdbench)
		bc_vdb_md(f, st);
	bc_notes_step(&n, r, st);
	bc_notes_md(f, &n);
	bc_notes_free(&n);
}

int bc_report_md(const struct bc_report *r, FILE *f)
{
	const cJSON *steps = bc_rj(r->run, "steps"), *st;
	struct bc_sweep *sw = NULL;
	struct bc_summary sum;
	int nsw = bc_sweeps_make(r, &sw), i = 0, k = 0;

	bc_summary_make(&sum, r, sw, nsw);
	s_header(f, r);
	s_summary(f, &sum);
	bc_summary_free(&sum);
	bc_table_emit(f, bc_table_expect, r, false, 2);
	/* FDP experiments early: their verdict is what such a run is for (report/parts/fdp.c) */
	cJSON_ArrayForEach(st, steps) bc_fdp_md(f, bc_rj(st, "experiment"));
	s_environment(f, r);
	s_table(f, bc_tab_results(r), 2);
	bc_table_emit(f, bc_table_verdicts, r, false, 3);
	bc_table_emit(f, bc_table_repeats, r, false, 3);
	bc_table_emit(f, bc_table_series_ci, r, false, 3);
	bc_table_emit(f, bc_tab_rw, r, false, 3);
	s_table(f, bc_tab_by_level(r, 2), 3);
	s_table(f, bc_tab_by_level(r, 1), 3);
	cJSON_ArrayForEach(st, steps)
	{
		if (k < nsw && i == sw[k].first)
			s_sweep(f, &sw[k], k);
		s_step(f, r, st);
		if (k < nsw && i == sw[k].first + sw[k].steps - 1)
			k++;
		i++;
	}
	fprintf(f, "\nLatency is submission to completion of each I/O (fio's `lat`), percentiles "
		   "from merged histograms (never averaged). Written from run.json by `bench-coord "
		   "report`.\n");
	free(sw);
	return ferror(f) ? -EIO : 0;
}
