/*
 * run/experiment.c - a step's FDP "experiment" run as ordinary steps, the way
 * steprun.c runs a sweep's points: for every mode in turn the precondition
 * (discard, sequential fill, random overwrite passes, each one size-based
 * pass over the precondition window, written without placement directives),
 * then the warmup and measurement iterations of the step's streams placed as
 * the mode says. Each is its own run.json entry
 * ("fdp@separated/measure-3") whose seconds reach the disk (seconds.bin,
 * events.jsonl) as they are measured, and run.json once the experiment
 * ends (one rewrite, not one per sub-step); the last carries the per-mode figures and the verdict
 * (report/parts/fdp.c). Device counters come from each step's STEP_DONE
 * (agent/nvme/counters.c), for real drives and the simulator alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "profile/workload/streams.h"
#include "report/parts/fdp.h"
#include "results/checks.h"
#include "results/fdp.h"
#include "results/results.h"
#include "results/files/rundir.h"
#include "run/experiment.h"
#include "run/live.h"
#include "run/stepexec.h"
#include "run/steptable.h"
#include "util/log.h"

enum s_phase { S_PRE_DISCARD = 0, S_PRE_FILL, S_PRE_RANDOM, S_WARMUP, S_MEASURE };
static const char *const s_phase_names[] = {"precondition", "precondition", "precondition",
					    "warmup", "measure"};
static const char *const s_part_names[] = {"discard", "seq_fill", "random", NULL, NULL};

/*
 * A precondition step: one size-based pass of plain writes (or trims) over
 * the window, no streams, no placement directive, nothing that paces it.
 */
static void s_pre_workload(const struct bc_experiment *x, const struct bc_workload *base,
			   enum s_phase ph, struct bc_workload *wl)
{
	*wl = *base;
	wl->nstreams = 0;
	memset(&wl->kv, 0, sizeof(wl->kv));
	wl->share_bytes = false;
	memset(&wl->placement, 0, sizeof(wl->placement));
	wl->placement.kind = BC_PLACEMENT_NONE;
	wl->rw = ph == S_PRE_DISCARD ? BC_RW_TRIM
		 : ph == S_PRE_FILL  ? BC_RW_WRITE
				     : BC_RW_RANDWRITE;
	wl->rwmixread_ppm = 0;
	wl->rwmixtrim = 0;
	wl->bs = ph == S_PRE_RANDOM ? x->pre_random_bs : x->pre_bs;
	wl->nbssplit = 0;
	wl->blockalign = 0;
	memset(&wl->dist, 0, sizeof(wl->dist));
	wl->iodepth = x->pre_iodepth;
	wl->ramp_s = 0;
	wl->runtime_s = x->pre_runtime_s;
	wl->rate_iops = wl->rate_bw = 0;
	wl->thinktime_us = 0;
	wl->size_based = true;
	wl->io_size = 0;
	wl->verify = false;
}

/*
 * {"<stream>": placement} of a workload as run.json records what ran, or
 * by_class: {"<class>": placement} (a mode places classes, so their
 * streams share it)
 */
static cJSON *s_placement_json(const struct bc_workload *wl, bool by_class)
{
	cJSON *o = cJSON_CreateObject();
	uint32_t i;

	for (i = 0; o && i < wl->nstreams; i++) {
		const struct bc_stream *st = &wl->streams[i];
		const struct bc_placement *p = st->placement.kind ? &st->placement : &wl->placement;
		const char *key = by_class ? st->cls : st->name;

		if (!cJSON_GetObjectItemCaseSensitive(o, key))
			cJSON_AddItemToObject(o, key, bc_placement_to_json(p));
	}
	return o;
}

/* what a sub-step's run.json entry says of its place in the experiment */
static void s_annotate(cJSON *sj, const char *experiment, const char *mode, enum s_phase ph,
		       unsigned iter, const struct bc_workload *wl)
{
	cJSON_AddStringToObject(sj, "experiment_of", experiment);
	cJSON_AddStringToObject(sj, "mode", mode);
	cJSON_AddStringToObject(sj, "phase", s_phase_names[ph]);
	if (s_part_names[ph])
		cJSON_AddStringToObject(sj, "part", s_part_names[ph]);
	cJSON_AddNumberToObject(sj, "iteration", iter);
	if (ph >= S_WARMUP) {
		cJSON_AddItemToObject(sj, "placement", s_placement_json(wl, false));
		cJSON_AddItemToObject(sj, "class_placement", s_placement_json(wl, true));
	}
}

struct s_ctx {
	struct bc_fleet *f;
	struct bc_rundir *rd;
	int idx;
	cJSON *steps;
	void (*flush)(void *);
	void *fctx;
	bool *degraded;
	cJSON *last;
	uint64_t left_s; /* seconds of the iterations still to run (the ETA) */
};

/* between two sub-steps: only --results-delay-ms (a slow results phase, for tests) */
static void s_substep_pause(void *p)
{
	const struct bc_fleet *f = p;

	if (f->opts->results_delay_ms)
		usleep(f->opts->results_delay_ms * 1000);
}

/* run one sub-step; its entry goes into steps; 0 or -errno with err */
static int s_run_one(struct s_ctx *c, const struct bc_step *st, const char *mode, enum s_phase ph,
		     unsigned iter, char *err, size_t errlen)
{
	struct bc_step_result res;
	cJSON *sj;
	int rc;

	c->f->progress.step = c->idx;
	c->f->progress.nsteps = c->f->prof->nsteps;
	c->f->progress.after_s = (uint32_t)(c->left_s > UINT32_MAX ? UINT32_MAX : c->left_s);
	fprintf(bc_live_out(), "\n%s: mode %s, %s%s%s %u\n", c->f->prof->steps[c->idx].name, mode,
		s_phase_names[ph], s_part_names[ph] ? " " : "",
		s_part_names[ph] ? s_part_names[ph] : "", iter);
	fflush(bc_live_out());
	rc = bc_step_execute(c->f, c->rd, c->idx, st, &res);
	bc_live_step_end();
	if (res.step) {
		sj = bc_fleet_step_json(c->f, &res);
		s_annotate(sj, c->f->prof->steps[c->idx].name, mode, ph, iter, &st->wl);
		if (st->win_set) {
			cJSON *w = cJSON_AddObjectToObject(sj, "window");

			cJSON_AddNumberToObject(w, "offset", (double)st->win_offset);
			cJSON_AddNumberToObject(w, "length", (double)st->win_length);
		}
		if (!rc) {
			bc_result_print_step(bc_live_out(), &res, bc_live_cols());
			bc_result_print_steady(bc_live_out(), sj, bc_live_cols());
		}
		bc_result_warn_checks(&res, sj);
		cJSON_AddItemToArray(c->steps, sj);
		c->last = sj;
	}
	*c->degraded |= res.lost != NULL;
	if (rc)
		snprintf(err, errlen, "%s", res.error);
	bc_fleet_step_free(c->f, &res);
	/*
	 * run.json and the reports once per experiment, not after each
	 * sub-step (an experiment is tens of them): every sub-step's seconds
	 * are in seconds.bin already; only --results-delay-ms pauses here
	 */
	bc_fleet_beside(c->f, s_substep_pause, c->f);
	return rc;
}

int bc_run_experiment(struct bc_fleet *f, struct bc_rundir *rd, int idx, cJSON *steps,
		      void (*flush)(void *), void *ctx, bool *degraded, char *err, size_t errlen)
{
	const struct bc_step *step = &f->prof->steps[idx];
	struct bc_experiment *x = malloc(sizeof(*x));
	struct bc_step *sub = malloc(sizeof(*sub));
	struct s_ctx c = {f, rd, idx, steps, flush, ctx, degraded, NULL, 0};
	cJSON *sum;
	unsigned i;
	int m, rc = 0;

	if (!x || !sub) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	rc = bc_experiment_get(step, x, err, errlen);
	if (rc)
		goto out;
	c.left_s =
	    (uint64_t)x->nmodes * (x->warmup + x->measure) * (step->wl.ramp_s + step->wl.runtime_s);
	for (m = 0; m < x->nmodes && !rc; m++) {
		const char *mode = x->modes[m].name;
		enum s_phase ph;

		for (ph = S_PRE_DISCARD; x->pre && ph <= S_PRE_RANDOM && !rc; ph++) {
			unsigned n = ph == S_PRE_RANDOM ? x->random_passes
				     : ph == S_PRE_FILL ? x->seq_fill
							: x->discard;

			for (i = 1; i <= n && !rc; i++) {
				*sub = *step;
				sub->sweep = sub->experiment = NULL;
				s_pre_workload(x, &step->wl, ph, &sub->wl);
				sub->win_set = x->win_set;
				sub->win_offset = x->win_offset;
				sub->win_length = x->win_length;
				/* seed 000: the namespace discarded, then the window preconditioned
				 */
				if (ph == S_PRE_DISCARD && x->discard_namespace) {
					sub->win_set = true;
					sub->win_offset = sub->win_length = 0;
				}
				snprintf(sub->name, sizeof(sub->name), "%.24s@%s/%s-%u", step->name,
					 mode, s_part_names[ph], i);
				rc = s_run_one(&c, sub, mode, ph, i, err, errlen);
			}
		}
		for (ph = S_WARMUP; ph <= S_MEASURE && !rc; ph++) {
			unsigned n = ph == S_WARMUP ? x->warmup : x->measure;

			for (i = 1; i <= n && !rc; i++) {
				*sub = *step;
				sub->sweep = sub->experiment = NULL;
				sub->win_set = false;
				bc_experiment_mode_workload(x, m, &step->wl, &sub->wl);
				snprintf(sub->name, sizeof(sub->name), "%.24s@%s/%s-%u", step->name,
					 mode, s_phase_names[ph], i);
				rc = s_run_one(&c, sub, mode, ph, i, err, errlen);
				c.left_s -= c.left_s >= step->wl.ramp_s + step->wl.runtime_s
						? step->wl.ramp_s + step->wl.runtime_s
						: c.left_s;
			}
		}
	}
	/* the figures of what ran, also after a failure: a partial experiment is still evidence */
	sum = c.last ? bc_fdp_summary(steps, step->name, x) : NULL;
	if (sum) {
		cJSON_AddItemToObject(c.last, "experiment", sum);
		bc_fdp_print(bc_live_out(), sum);
	}
	/* the experiment's one write of run.json and the reports, also after a failure */
	if (c.last)
		bc_fleet_beside(f, flush, ctx);
out:
	free(x);
	free(sub);
	return rc;
}

/* "<step>@<mode>/<part>-<n>" as s_run_one names them, back into mode, phase, part, n */
static bool s_parse_name(const char *name, char *mode, size_t mlen, enum s_phase *ph,
			 unsigned *iter)
{
	const char *at = strrchr(name, '@'), *sl, *dash;
	size_t n;
	int i;

	if (!at || !(sl = strchr(at, '/')) || !(dash = strrchr(sl, '-')))
		return false;
	n = (size_t)(sl - at - 1);
	if (!n || n >= mlen)
		return false;
	memcpy(mode, at + 1, n);
	mode[n] = '\0';
	for (i = S_PRE_DISCARD; i <= S_MEASURE; i++) {
		const char *w = i >= S_WARMUP ? s_phase_names[i] : s_part_names[i];

		if (strlen(w) == (size_t)(dash - sl - 1) && !strncmp(sl + 1, w, strlen(w))) {
			*ph = (enum s_phase)i;
			*iter = (unsigned)strtoul(dash + 1, NULL, 10);
			return true;
		}
	}
	return false;
}

void bc_experiment_annotate(cJSON *sj, const struct bc_step *pstep, const struct bc_step *ran)
{
	char mode[BC_NAME_MAX];
	enum s_phase ph;
	unsigned iter;

	if (!pstep->experiment || cJSON_GetObjectItemCaseSensitive(sj, "experiment_of") ||
	    !s_parse_name(ran->name, mode, sizeof(mode), &ph, &iter))
		return;
	s_annotate(sj, pstep->name, mode, ph, iter, &ran->wl);
}

void bc_experiment_summarize_all(cJSON *steps, const struct bc_profile *p)
{
	struct bc_experiment *x = malloc(sizeof(*x));
	cJSON *sj, *last;
	char err[256];
	int i;

	for (i = 0; x && i < p->nsteps; i++) {
		if (!p->steps[i].experiment || bc_experiment_get(&p->steps[i], x, err, sizeof(err)))
			continue;
		last = NULL;
		cJSON_ArrayForEach(sj, steps)
		{
			const char *of = cJSON_GetStringValue(
			    cJSON_GetObjectItemCaseSensitive(sj, "experiment_of"));

			if (of && !strcmp(of, p->steps[i].name))
				last = sj;
		}
		if (last && !cJSON_GetObjectItemCaseSensitive(last, "experiment"))
			cJSON_AddItemToObject(last, "experiment",
					      bc_fdp_summary(steps, p->steps[i].name, x));
	}
	free(x);
}
