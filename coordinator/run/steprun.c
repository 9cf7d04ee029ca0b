/*
 * run/steprun.c - one profile step as run.json sees it: a plain step is run
 * once; a step with a "sweep" runs each point (profile/sweep.h) as its own step
 * entry ("<step>@iodepth=16"), applies the stop rule, and the last point's
 * entry carries the sweep table and the analysis over every point (knee,
 * USL, USE at the knee, verdict). Each entry reaches the disk as soon as it
 * is measured.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg/agg.h"
#include "analysis/analysis.h"
#include "fleet/fleet.h"
#include "profile/sweep.h"
#include "results/checks.h"
#include "results/fidelity.h"
#include "results/results.h"
#include "results/files/rundir.h"
#include "results/verdict.h"
#include "run/experiment.h"
#include "run/live.h"
#include "run/resume.h"
#include "run/stepexec.h"
#include "run/steprun.h"
#include "run/steptable.h"
#include "util/log.h"

/* the point's figures for the stop rule, from the measured window */
static void s_sweep_result(const struct bc_step_result *res, int rc, struct bc_sweep_result *r)
{
	const struct bc_volstat *w = &res->agg.ent[BC_LVL_TOTAL][0].window;
	double secs =
	    res->step ? bc_result_window_secs(&res->agg, &res->agg.ent[BC_LVL_TOTAL][0]) : 0;
	struct bc_hist *h = calloc(1, sizeof(*h));
	uint64_t ios = 0, bytes = 0, lat = 0;
	int op;

	memset(r, 0, sizeof(*r));
	for (op = 0; op < BC_OP_NR; op++) {
		ios += w->op[op].ios;
		bytes += w->op[op].bytes;
		lat += w->op[op].lat_sum_ns;
		if (h)
			bc_hist_merge(h, &w->op[op].hist);
	}
	r->ok = !rc && ios && secs > 0 && h;
	if (r->ok) {
		r->iops = (double)ios / secs;
		r->bytes_per_s = (double)bytes / secs;
		r->lat_mean_ms = (double)lat / (double)ios / 1e6;
		r->p99_ms = (double)bc_hist_percentile(h, 99) / 1e6;
	}
	free(h);
}

/* the sweep's points as a table: the load, what it gave, each point's class */
static void s_print_points(FILE *o, const cJSON *ana)
{
	const cJSON *p;

	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ana, "points")) < 2)
		return;
	fprintf(o, "  %-10s %8s %12s %10s %10s %10s  %s\n", "point", "N", "throughput", "IOPS",
		"mean ms", "p99 ms", "class");
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(ana, "points"))
	{
		const char *label =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "label"));
		char rate[32];

		bc_ana_rate3(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "x_gbps")) *
				 1e9,
			     rate, sizeof(rate));
		fprintf(o, "  %-10s %8.0f %12s %10.0f %10.3f %10.3f  %s\n", label ? label : "-",
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "n")), rate,
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "iops")),
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "r_mean_ms")),
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "p99_ms")),
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "class")) ?: "-");
	}
}

/*
 * The verdict at the end of a step, where the operator is looking: a
 * sweep's points and every suspect; a plain step's implicated suspects.
 */
static void s_print_verdict(const cJSON *ana, bool sweep)
{
	FILE *o = bc_live_out();
	const cJSON *e;

	if (!ana)
		return;
	if (sweep)
		s_print_points(o, ana);
	char line[2048];
	int cols = bc_live_cols();

	snprintf(line, sizeof(line), "  verdict: %s",
		 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ana, "verdict")));
	bc_live_fold(o, cols, 6, line);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ana, "suspects"))
	{
		const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "state"));

		if (!st || (!sweep && strcmp(st, "implicated")))
			continue;
		snprintf(line, sizeof(line), "    %-12s %-24s %s", st,
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "suspect")),
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "figures")));
		bc_live_fold(o, cols, 6, line);
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ana, "evidence"))
	{
		if (cJSON_IsString(e) && !sweep) {
			snprintf(line, sizeof(line), "    - %s", e->valuestring);
			bc_live_fold(o, cols, 6, line);
		}
	}
	fflush(o);
}

/* seconds of every profile step after idx, and (entries) how many run.json entries they make */
static uint32_t s_steps_after(const struct bc_profile *p, int idx, uint32_t *entries)
{
	uint32_t t = 0, each;
	int i, n;

	*entries = 0;
	for (i = idx + 1; i < p->nsteps; i++) {
		struct bc_sweep_state s2;
		struct bc_experiment x;
		char e[8];

		each = p->steps[i].wl.ramp_s + p->steps[i].wl.runtime_s;
		if (p->steps[i].experiment && !bc_experiment_get(&p->steps[i], &x, e, sizeof(e))) {
			uint32_t xs = (uint32_t)bc_experiment_seconds(&x, &p->steps[i].wl);

			t += xs;
			*entries += each ? (xs + each - 1) / each : 1;
			continue;
		}

		n = 1;
		if (!bc_sweep_init(&s2, p, &p->steps[i])) {
			n = s2.npoints > 0 ? s2.npoints : 1;
			bc_sweep_free(&s2);
		}
		t += (uint32_t)n * each;
		*entries += (uint32_t)n;
	}
	return t;
}

void bc_run_profile_size(const struct bc_profile *p, uint32_t *seconds, uint32_t *entries)
{
	*seconds = s_steps_after(p, -1, entries);
}

uint32_t bc_run_seconds_after(const struct bc_profile *p, int idx, uint32_t *entries)
{
	return s_steps_after(p, idx, entries);
}

/* seconds of a step's remaining points, and of every profile step after it */
static uint32_t s_seconds_after(const struct bc_profile *p, int idx,
				const struct bc_sweep_state *sw, int done, uint32_t *entries)
{
	uint32_t t = s_steps_after(p, idx, entries);
	int i;

	for (i = done + 1; i < sw->npoints; i++) {
		t += sw->points[i].wl.ramp_s + sw->points[i].wl.runtime_s;
		++*entries;
	}
	return t;
}

/*
 * one finding of a sweep point into the sweep's: the first point's reason in full, the
 * points after it by label ("point 1: ...; also points 2, 4, 8 (each point's step says
 * why)"). Every point's reason in full ran past the buffer and was cut mid-word, and a
 * reader needs one example and the extent, not the same sentence six times.
 */
static void s_point_add(bool *all, char *buf, size_t len, bool one, const char *label,
			const char *why)
{
	static const char also[] = "; also points ", tail[] = " (each point's step says why)";
	size_t used = strlen(buf);
	char *t;

	if (!one)
		return;
	if (!*all) {
		snprintf(buf, len, "point %s: %s", label, why);
	} else if ((t = strstr(buf, also))) {
		char *end = strstr(t, tail);

		if (end && (size_t)(end - buf) + strlen(label) + 2 + sizeof(tail) < len)
			snprintf(end, len - (size_t)(end - buf), ", %s%s", label, tail);
	} else if (used + sizeof(also) + strlen(label) + sizeof(tail) < len) {
		snprintf(buf + used, len - used, "%s%s%s", also, label, tail);
	}
	*all = true;
}

/* a sweep point's suspect and contended findings, gathered for the sweep's verdict */
static void s_sweep_fidelity(struct bc_fidelity *all, const struct bc_fidelity *one,
			     const char *label)
{
	s_point_add(&all->suspect, all->suspect_why, sizeof(all->suspect_why), one->suspect, label,
		    one->suspect_why);
	s_point_add(&all->contended, all->contended_why, sizeof(all->contended_why), one->contended,
		    label, one->contended_why);
}

/* between two sweep points: only --results-delay-ms (a slow results phase, for tests) */
static void s_point_pause(void *p)
{
	const struct bc_fleet *f = p;

	if (f->opts->results_delay_ms)
		usleep(f->opts->results_delay_ms * 1000);
}

/* a sweep's analysis over its points, run beside the fleet (bc_fleet_beside) */
struct s_ana {
	const struct bc_ana_point *pts;
	int npts;
	const char *param;
	cJSON *json;
};

static void s_ana_json(void *p)
{
	struct s_ana *a = p;

	a->json = bc_ana_json(a->pts, a->npts, a->param);
}

int bc_run_profile_step(struct bc_fleet *f, struct bc_rundir *rd, int idx, int skip, cJSON *steps,
			void (*flush)(void *), void *ctx, bool *degraded, char *err, size_t errlen)
{
	const struct bc_step *step = &f->prof->steps[idx];
	struct bc_step *pts_step = calloc(BC_SWEEP_MAX, sizeof(*pts_step));
	struct bc_ana_point *pts = calloc(BC_SWEEP_MAX, sizeof(*pts));
	char(*labels)[32] = calloc(BC_SWEEP_MAX, sizeof(*labels));
	struct bc_sweep_state sw;
	struct bc_sweep_point pt;
	struct bc_sweep_result sr;
	struct bc_fidelity *sfid = calloc(1, sizeof(*sfid)); /* the points', for the sweep */
	cJSON *last = NULL;
	int rc = 0, n = 0, npts = 0;
	bool swept;

	if (step->experiment) { /* FDP modes, precondition, iterations: experiment.c */
		free(pts_step);
		free(pts);
		free(labels);
		return bc_run_experiment(f, rd, idx, steps, flush, ctx, degraded, err, errlen);
	}
	if (!pts_step || !pts || !labels || !sfid || bc_sweep_init(&sw, f->prof, step)) {
		snprintf(err, errlen, "out of memory");
		free(sfid);
		free(pts_step);
		free(pts);
		free(labels);
		return -ENOMEM;
	}
	swept = sw.param != BC_SWEEP_NONE;
	while (n < BC_SWEEP_MAX && bc_sweep_next(&sw, &pt)) {
		struct bc_step_result res;
		cJSON *sj;

		pts_step[n] = *step;
		pts_step[n].wl = pt.wl;
		pts_step[n].sweep = NULL;
		snprintf(pts_step[n].name, sizeof(pts_step[n].name), "%s", pt.name);
		snprintf(labels[n], sizeof(labels[n]), "%s", pt.label);
		/*
		 * a resumed run: the points measured before the coordinator's end
		 * are not run again; their recorded figures go to the stop rule
		 * (and the sweep's table), in the order they ran
		 */
		if (n < skip) {
			cJSON *done = bc_resume_point(steps, step->name, n, &sr);

			if (done) {
				last = done;
				fprintf(bc_live_out(), "\n%s: measured before the resume\n",
					pt.name);
				n++;
				if (bc_sweep_record(&sw, &sr))
					break;
				continue;
			}
			skip = n; /* not recorded after all: this point and the rest run */
		}
		f->progress.step = idx;
		f->progress.nsteps = f->prof->nsteps;
		f->progress.after_s =
		    s_seconds_after(f->prof, idx, &sw, n, &f->progress.after_entries);
		rc = bc_step_execute(f, rd, idx, &pts_step[n], &res);
		bc_live_step_end();
		if (res.step) {
			sj = bc_fleet_step_json(f, &res);
			if (swept) {
				cJSON_AddStringToObject(sj, "sweep_of", step->name);
				cJSON_AddStringToObject(sj, "sweep_point", pt.label);
			}
			if (!rc) {
				bc_result_print_step(bc_live_out(), &res, bc_live_cols());
				if (!swept)
					s_print_verdict(res.analysis, false);
				bc_result_print_steady(bc_live_out(), sj, bc_live_cols());
				bc_result_print_sim(bc_live_out(), sj, bc_live_cols());
			}
			bc_result_warn_checks(&res, sj);
			cJSON_AddItemToArray(steps, sj);
			last = sj;
			s_sweep_fidelity(sfid, bc_result_fidelity(&res), pt.label);
		}
		s_sweep_result(&res, rc, &sr);
		if (swept && sr.ok && !bc_verdict_point(f->counters, &res, &pts[npts])) {
			pts[npts].value = pt.value;
			pts[npts].label = labels[n];
			npts++;
		}
		*degraded |= res.lost != NULL;
		if (rc)
			snprintf(err, errlen, "%s", res.error);
		bc_fleet_step_free(f, &res);
		/*
		 * run.json and the reports once per profile step, not after each
		 * point: at 16,000 volumes each whole rewrite costs tens of
		 * seconds, and every point's seconds are in seconds.bin already
		 */
		bc_fleet_beside(f, swept ? s_point_pause : flush, swept ? (void *)f : ctx);
		n++;
		if (rc || bc_sweep_record(&sw, &sr))
			break;
	}
	if (swept && (npts || skip) && last) {
		struct s_ana a = {pts, npts, bc_sweep_param_names[sw.param], NULL};
		cJSON *ana;

		if (npts)
			bc_fleet_beside(f, s_ana_json, &a);
		ana = a.json;
		/* the node counters of the points before a resume are not replayed */
		if (skip && ana)
			cJSON_AddStringToObject(
			    ana, "resumed",
			    "the points measured before the coordinator's restart are in the "
			    "sweep's table, not in this analysis (knee, USL, suspects)");
		/* a point that did not measure the storage, or ran on a contended host */
		bc_fidelity_verdict(sfid, ana);

		cJSON *ev = cJSON_CreateObject();

		cJSON_DeleteItemFromObject(last, "analysis");
		cJSON_AddItemToObject(last, "sweep", bc_sweep_json(&sw, ana));
		if (ana)
			cJSON_AddItemToObject(last, "analysis", ana);
		/* for rebuilds: the table and analysis as the last point carries them */
		cJSON_AddNumberToObject(ev, "step", idx);
		cJSON_AddItemToObject(ev, "sweep",
				      cJSON_Duplicate(cJSON_GetObjectItem(last, "sweep"), 1));
		if (ana)
			cJSON_AddItemToObject(ev, "analysis", cJSON_Duplicate(ana, 1));
		bc_rundir_event(rd, "sweep", ev);
		fprintf(bc_live_out(), "\nsweep %s over %s: %d point(s)%s%s\n", step->name,
			bc_sweep_param_names[sw.param], npts, sw.stopped ? ", stopped: " : "",
			sw.stopped ? sw.stop_reason : "");
		s_print_verdict(ana, true);
	}
	if (swept)
		bc_fleet_beside(f, flush, ctx);
	while (npts > 0)
		bc_verdict_point_free(&pts[--npts]);
	bc_sweep_free(&sw);
	free(sfid);
	free(pts_step);
	free(pts);
	free(labels);
	return rc;
}
