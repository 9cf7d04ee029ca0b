/*
 * run/resume.c - where bench-coord run --resume takes a run up again
 * (run/resume.h). The entries of run.json come in the order the profile ran
 * them, and a run that ended (a run_end event) is not resumed, so only the
 * last entry can be cut short: the run goes on after the last entry that
 * completed. A sweep goes on at its first point not completed, its earlier
 * points fed to the stop rule from their recorded figures; an FDP experiment
 * starts again from its precondition, since the device's state after a gap
 * of unknown length is not the one its iterations measure.
 */
#include <string.h>

#include "run/resume.h"

static const char *s_str(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static double s_num(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* an entry that ran to its end (ok, degraded, a failed check...), not one cut short */
static bool s_complete(const cJSON *sj)
{
	static const char *const cut[] = {"incomplete", "failed", "aborted", "not started",
					  "running"};
	const char *st = s_str(sj, "status");
	size_t i;

	if (!st)
		return false;
	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		if (!strcmp(st, cut[i]))
			return false;
	return true;
}

/* the profile step an entry belongs to: its name, sweep or experiment; -1 when none */
static int s_owner(const struct bc_profile *p, const cJSON *sj)
{
	const char *of = s_str(sj, "sweep_of") ? s_str(sj, "sweep_of") : s_str(sj, "experiment_of");
	const char *name = of ? of : s_str(sj, "name");
	int i;

	for (i = 0; name && i < p->nsteps; i++)
		if (!strcmp(p->steps[i].name, name))
			return i;
	return -1;
}

static int s_points_done(const cJSON *steps, const char *sweep)
{
	const cJSON *sj;
	int n = 0;

	cJSON_ArrayForEach(sj, steps)
	{
		const char *of = s_str(sj, "sweep_of");

		n += of && !strcmp(of, sweep) && s_complete(sj);
	}
	return n;
}

void bc_resume_plan(const struct bc_profile *p, cJSON *steps, struct bc_resume_at *at)
{
	cJSON *last = cJSON_GetArrayItem(steps, cJSON_GetArraySize(steps) - 1);
	const struct bc_step *st;
	bool done;
	int i;

	memset(at, 0, sizeof(*at));
	if (!last || (i = s_owner(p, last)) < 0)
		return; /* nothing ran (or nothing of this profile): from the start */
	st = &p->steps[i];
	done = s_complete(last);
	if (!done)
		at->interrupted = last;
	at->step = i;
	if (st->sweep) {
		/* the last point carries the sweep's table once the sweep has ended */
		if (done && cJSON_GetObjectItemCaseSensitive(last, "sweep"))
			at->step = i + 1;
		else
			at->points = s_points_done(steps, st->name);
	} else if (st->experiment) {
		if (done && cJSON_GetObjectItemCaseSensitive(last, "experiment"))
			at->step = i + 1;
		else
			at->why = "an FDP experiment starts again from its precondition: the "
				  "device's state after the gap is not the one its iterations "
				  "measure";
	} else if (done) {
		at->step = i + 1;
	}
}

cJSON *bc_resume_point(cJSON *steps, const char *sweep, int n, struct bc_sweep_result *r)
{
	cJSON *sj;

	memset(r, 0, sizeof(*r));
	cJSON_ArrayForEach(sj, steps)
	{
		const char *of = s_str(sj, "sweep_of");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(sj, "total");
		const cJSON *lat = cJSON_GetObjectItemCaseSensitive(t, "lat_us");
		double secs = s_num(t, "seconds"), ios = s_num(t, "ios");

		if (!of || strcmp(of, sweep) || !s_complete(sj) || n--)
			continue;
		/* as steprun.c's s_sweep_result takes them from the live window */
		r->ok = secs > 0 && ios > 0;
		if (r->ok) {
			r->iops = ios / secs;
			r->bytes_per_s = s_num(t, "bytes") / secs;
			r->lat_mean_ms = s_num(lat, "mean") / 1e3;
			r->p99_ms = s_num(lat, "p99") / 1e3;
		}
		return sj;
	}
	return NULL;
}
