/*
 * report/parts/sweep.c - a run's sweeps gathered from run.json's steps
 * (report/parts/sweep.h): each point's figures from its own step, the
 * swept values, loads, knee and analysis from the last point, where the
 * sweep writer puts them (run/steprun.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/rundata.h"
#include "report/parts/sweep.h"
#include "util/rjson.h"

static double s_num(const cJSON *v)
{
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* i of the sweep table's labels equal to label, -1 when none */
static int s_col(const cJSON *sw, const char *label)
{
	const cJSON *l;
	int i = 0;

	cJSON_ArrayForEach(l, bc_rj(sw, "labels"))
	{
		if (cJSON_IsString(l) && !strcmp(l->valuestring, label))
			return i;
		i++;
	}
	return -1;
}

static void s_point(struct bc_sweep *s, const cJSON *st)
{
	struct bc_sweep_pt *p = &s->pt[s->n++];
	const cJSON *t = bc_rj(st, "total");
	const char *status = bc_rj_str("", st, "status");

	p->step = st;
	snprintf(p->label, sizeof(p->label), "%s", bc_rj_str("?", st, "sweep_point"));
	p->value = strtod(p->label, NULL);
	p->n = NAN;
	p->iops = s_num(bc_rj(t, "iops"));
	p->mbps = s_num(bc_rj(t, "mbps"));
	p->p50_us = s_num(bc_rj(t, "lat_us", "p50"));
	p->p99_us = s_num(bc_rj(t, "lat_us", "p99"));
	p->mean_us = s_num(bc_rj(t, "lat_us", "mean"));
	p->ok = !strcmp(status, "ok") || !strcmp(status, "degraded") || !strcmp(status, "suspect");
}

/* what only the last point carries: values, loads, classes, the knee */
static void s_finish(struct bc_sweep *s)
{
	const cJSON *sw = bc_rj(s->last, "sweep"), *pt;
	int i, c;

	s->analysis = bc_rj(s->last, "analysis");
	s->param = bc_rj_str(bc_rj_str("value", s->analysis, "param"), sw, "param");
	s->x_log2 =
	    !strcmp(s->param, "iodepth") || !strcmp(s->param, "numjobs") || !strcmp(s->param, "bs");
	s->knee = -1;
	for (i = 0; i < s->n; i++) {
		c = s->steps == 1 && s->n > 1 ? i : s_col(sw, s->pt[i].label);
		if (c < 0)
			continue;
		s->pt[i].value = s_num(cJSON_GetArrayItem(bc_rj(sw, "values"), c));
		s->pt[i].n = s_num(cJSON_GetArrayItem(bc_rj(sw, "n"), c));
		if (cJSON_IsNumber(bc_rj(sw, "knee", "index"))
			? (int)bc_rj_num(sw, "knee", "index") == c
			: cJSON_IsNumber(bc_rj(sw, "knee", "value")) &&
			      bc_rj_num(sw, "knee", "value") == s->pt[i].value)
			s->knee = i;
	}
	/* the analysis points (those that ran cleanly), matched by their label */
	cJSON_ArrayForEach(pt, bc_rj(s->analysis, "points"))
	{
		for (i = 0; i < s->n; i++)
			if (!strcmp(s->pt[i].label, bc_rj_str("", pt, "label")))
				s->pt[i].cls = bc_rj_str(NULL, pt, "class");
	}
	s->knee_confirmed = cJSON_IsTrue(bc_rj(sw, "knee", "confirmed"));
	s->knee_reason = bc_rj_str(NULL, sw, "knee", "reason");
}

/*
 * A step that carries a sweep's columns but no points of its own (run.json
 * of a single step swept in one, an import): its points from the columns
 */
static void s_columns(struct bc_sweep *s, const cJSON *st)
{
	const cJSON *sw = bc_rj(st, "sweep"), *v;
	int i = 0;

	s->name = bc_rj_str("?", st, "name");
	cJSON_ArrayForEach(v, bc_rj(sw, "values"))
	{
		struct bc_sweep_pt *p = &s->pt[s->n];
		const char *lab = cJSON_GetStringValue(cJSON_GetArrayItem(bc_rj(sw, "labels"), i));

		if (s->n == BC_SWEEP_POINTS)
			break;
		p->step = st;
		if (lab)
			snprintf(p->label, sizeof(p->label), "%s", lab);
		else
			snprintf(p->label, sizeof(p->label), "%g", cJSON_GetNumberValue(v));
		p->value = s_num(v);
		p->iops = s_num(cJSON_GetArrayItem(bc_rj(sw, "iops"), i));
		p->mbps = s_num(cJSON_GetArrayItem(bc_rj(sw, "mbps"), i));
		p->mean_us = s_num(cJSON_GetArrayItem(bc_rj(sw, "lat_mean_us"), i));
		p->p99_us = s_num(cJSON_GetArrayItem(bc_rj(sw, "lat_p99_us"), i));
		p->p50_us = s_num(cJSON_GetArrayItem(bc_rj(sw, "lat_p50_us"), i));
		p->n = NAN;
		p->ok = true;
		s->n++;
		i++;
	}
}

int bc_sweeps_make(const struct bc_report *r, struct bc_sweep **out)
{
	const cJSON *st;
	struct bc_sweep *v = NULL, *cur = NULL;
	int n = 0, i = 0;

	*out = NULL;
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		const char *of = bc_rj_str(NULL, st, "sweep_of");

		if (!of && bc_rj(st, "sweep", "values")) {
			struct bc_sweep *nv = realloc(v, (size_t)(n + 1) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
			memset(&v[n], 0, sizeof(*v));
			s_columns(&v[n], st);
			v[n].first = i++;
			v[n].steps = 1;
			v[n++].last = st;
			cur = NULL;
			continue;
		}
		if (of && (!cur || strcmp(cur->name, of) || cur->n == BC_SWEEP_POINTS ||
			   bc_rj(cur->last, "sweep"))) {
			struct bc_sweep *nv = realloc(v, (size_t)(n + 1) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
			cur = &v[n++];
			memset(cur, 0, sizeof(*cur));
			cur->name = of;
			cur->first = i;
		}
		if (of) {
			s_point(cur, st);
			cur->steps++;
			cur->last = st;
		} else {
			cur = NULL;
		}
		i++;
	}
	for (i = 0; i < n; i++)
		s_finish(&v[i]);
	*out = v;
	return n;
}

const struct bc_sweep_pt *bc_sweep_peak(const struct bc_sweep *sw)
{
	const struct bc_sweep_pt *best = NULL;
	int i;

	if (sw->knee >= 0)
		return &sw->pt[sw->knee];
	for (i = 0; i < sw->n; i++)
		if (sw->pt[i].ok && isfinite(sw->pt[i].iops) &&
		    (!best || sw->pt[i].iops > best->iops))
			best = &sw->pt[i];
	return best;
}
