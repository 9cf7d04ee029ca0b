/*
 * results/steadystop.c - a step ends in steady state as fio's steadystate
 * ends a job
 * (results/steadystop.h): the rule, the window that feeds it and its run.json
 * object
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/steady.h"
#include "profile/workload/keys.h"
#include "results/steadystop.h"

static bool s_slope(const struct bc_steady_spec *ss)
{
	return ss->metric == BC_SS_IOPS_SLOPE || ss->metric == BC_SS_BW_SLOPE;
}

bool bc_steady_judge(const struct bc_steady_spec *ss, const double *y, uint32_t n,
		     struct bc_steady_eval *out)
{
	struct bc_steady fig;
	double x;

	memset(out, 0, sizeof(*out));
	/* the series' figures are figures/steady.h's: its slope and spread, in % of the mean */
	if (bc_steady_check(y, n, INFINITY, INFINITY, &fig)) {
		/* fewer than 3 values, or no I/O at all: a stall is not a steady state */
		out->mean = fig.mean;
		return false;
	}
	out->mean = fig.mean;
	out->max_dev = fig.spread_pct * fig.mean / 100.0;
	out->slope = fig.slope_pct * fig.mean / 100.0;
	x = s_slope(ss) ? fabs(fig.slope_pct) : fig.spread_pct;
	out->value = ss->pct ? x : x * fig.mean / 100.0;
	out->steady = out->value <= ss->limit;
	return out->steady;
}

bool bc_steady_second(struct bc_steady_track *t, const struct bc_workload *wl, uint32_t ramp_s,
		      uint32_t k, uint64_t ios, uint64_t bytes)
{
	uint32_t w = wl->steady.window_s, i;
	double *win;

	if (!wl->steady.metric || !w || t->done || k < ramp_s + wl->steady.ramp_s)
		return false;
	/* the ring and, behind it, the window in order for the rule */
	if (!t->ring && !(t->ring = calloc((size_t)w * 2, sizeof(*t->ring))))
		return false;
	t->ring[t->head] = wl->steady.metric == BC_SS_IOPS || wl->steady.metric == BC_SS_IOPS_SLOPE
			       ? (double)ios
			       : (double)bytes;
	t->head = (t->head + 1) % w;
	if (t->n < w)
		t->n++;
	if (t->n < w)
		return false;
	win = t->ring + w;
	for (i = 0; i < w; i++)
		win[i] = t->ring[(t->head + i) % w];
	t->judged++;
	if (!bc_steady_judge(&wl->steady, win, w, &t->last))
		return false;
	t->reached = t->done = true;
	t->at_second = k;
	return true;
}

cJSON *bc_steady_event(const struct bc_steady_track *t, int step)
{
	cJSON *ev = cJSON_CreateObject();

	cJSON_AddNumberToObject(ev, "step", step);
	cJSON_AddBoolToObject(ev, "reached", t->reached);
	if (t->reached) {
		cJSON_AddNumberToObject(ev, "at_second", t->at_second);
		cJSON_AddNumberToObject(ev, "seconds", t->end_s);
	}
	cJSON_AddNumberToObject(ev, "windows_judged", t->judged);
	cJSON_AddNumberToObject(ev, "mean", t->last.mean);
	cJSON_AddNumberToObject(ev, "max_deviation", t->last.max_dev);
	cJSON_AddNumberToObject(ev, "slope", t->last.slope);
	cJSON_AddNumberToObject(ev, "value", t->last.value);
	return ev;
}

static double s_num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

void bc_steady_from_event(struct bc_steady_track *t, const cJSON *ev)
{
	t->done = true;
	t->reached = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "reached"));
	t->at_second = (uint32_t)s_num(ev, "at_second");
	t->end_s = (uint32_t)s_num(ev, "seconds");
	t->judged = (uint32_t)s_num(ev, "windows_judged");
	t->last.mean = s_num(ev, "mean");
	t->last.max_dev = s_num(ev, "max_deviation");
	t->last.slope = s_num(ev, "slope");
	t->last.value = s_num(ev, "value");
	t->last.steady = t->reached;
}

cJSON *bc_steady_json(const struct bc_steady_track *t, const struct bc_workload *wl,
		      uint32_t seconds)
{
	const struct bc_steady_spec *ss = &wl->steady;
	bool iops = ss->metric == BC_SS_IOPS || ss->metric == BC_SS_IOPS_SLOPE;
	cJSON *o = cJSON_CreateObject();
	char buf[96];

	cJSON_AddStringToObject(o, "criterion", bc_steady_format(ss, buf, sizeof(buf)));
	cJSON_AddStringToObject(o, "of", iops ? "iops" : "bytes per second");
	cJSON_AddStringToObject(o, "rule", s_slope(ss) ? "slope" : "deviation");
	cJSON_AddNumberToObject(o, "limit", ss->limit);
	cJSON_AddStringToObject(o, "limit_unit",
				ss->pct ? "% of the mean"
				: iops	? (s_slope(ss) ? "iops per second" : "iops")
					: (s_slope(ss) ? "bytes/s per second" : "bytes/s"));
	cJSON_AddNumberToObject(o, "window_seconds", wl->steady.window_s);
	cJSON_AddNumberToObject(o, "ramp_seconds", wl->steady.ramp_s);
	cJSON_AddBoolToObject(o, "reached", t->reached);
	if (t->reached) {
		cJSON_AddNumberToObject(o, "at_second", t->at_second);
		cJSON_AddNumberToObject(o, "window_from_second",
					t->at_second + 1 - wl->steady.window_s);
		cJSON_AddNumberToObject(o, "ended_at_second", t->end_s);
		snprintf(buf, sizeof(buf), "steady at second %u: the step ended at second %u",
			 t->at_second, t->end_s);
	} else if (t->judged) {
		snprintf(buf, sizeof(buf), "not steady in %u windows: the step ran to second %u",
			 t->judged, seconds);
	} else {
		snprintf(buf, sizeof(buf),
			 "never judged (no full window): the step ran to second %u", seconds);
	}
	cJSON_AddStringToObject(o, "outcome", buf);
	cJSON_AddNumberToObject(o, "windows_judged", t->judged);
	/* the steady window, or the last one judged */
	if (t->judged) {
		cJSON_AddNumberToObject(o, "mean", t->last.mean);
		cJSON_AddNumberToObject(o, "max_deviation", t->last.max_dev);
		cJSON_AddNumberToObject(o, "slope", t->last.slope);
		cJSON_AddNumberToObject(o, "value", t->last.value);
	}
	return o;
}

void bc_steady_free(struct bc_steady_track *t)
{
	free(t->ring);
	memset(t, 0, sizeof(*t));
}
