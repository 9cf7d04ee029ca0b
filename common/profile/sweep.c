/*
 * profile/sweep.c - a step's sweep as a list of points, the stop rule, and the
 * columnar steps[].sweep record. The stop rule is the latency-bounded
 * search of fio's latency_target and vdbench's curve run, reduced to what a
 * run loop can decide after each point.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profile/sweep.h"
#include "profile/value/units.h"
#include "profile/volume_wl.h"
#include "profile/workload/keys.h"

const char *const bc_sweep_param_names[] = {"none", "iodepth", "numjobs",  "bs",
					    "rw",   "curve",   "rwmixread"};

int bc_sweep_init(struct bc_sweep_state *s, const struct bc_profile *p, const struct bc_step *st)
{
	/* in enum bc_sweep_param's order */
	static const char *const dims[] = {"iodepth", "numjobs", "bs", "rw", "curve", "rwmixread"};
	const cJSON *sw = st->sweep, *stop, *v;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->prof = p;
	s->step = st;
	s->stop_min_gain_pct = -1;
	s->values = cJSON_CreateArray();
	if (!s->values)
		return -ENOMEM;
	for (i = 0; sw && i < sizeof(dims) / sizeof(dims[0]); i++) {
		const cJSON *list = cJSON_GetObjectItemCaseSensitive(sw, dims[i]);

		if (!list)
			continue;
		s->param = (enum bc_sweep_param)(i + 1);
		/* a curve starts with the unthrottled run that defines "max" */
		if (s->param == BC_SWEEP_CURVE)
			cJSON_AddItemToArray(s->values, cJSON_CreateString("max"));
		cJSON_ArrayForEach(v, list)
		    cJSON_AddItemToArray(s->values, cJSON_Duplicate(v, true));
	}
	if (s->param == BC_SWEEP_NONE)
		cJSON_AddItemToArray(s->values, cJSON_CreateNull());
	s->npoints = cJSON_GetArraySize(s->values);
	if (s->npoints > BC_SWEEP_MAX)
		s->npoints = BC_SWEEP_MAX;
	stop = cJSON_GetObjectItemCaseSensitive(sw, "stop");
	if ((v = cJSON_GetObjectItemCaseSensitive(stop, "p99_ms")))
		s->stop_p99_ms = v->valuedouble;
	if ((v = cJSON_GetObjectItemCaseSensitive(stop, "min_gain_pct")))
		s->stop_min_gain_pct = v->valuedouble;
	return 0;
}

void bc_sweep_free(struct bc_sweep_state *s)
{
	cJSON_Delete(s->values);
	s->values = NULL;
}

double bc_sweep_outstanding(const struct bc_profile *p, const struct bc_workload *wl)
{
	double n = 0;
	int i;

	for (i = 0; i < p->nvolumes; i++) {
		struct bc_workload vw;

		bc_volume_workload(wl, &p->volumes[i], &vw);
		n += (double)vw.iodepth * wl->numjobs;
	}
	return n;
}

int bc_sweep_apply_key(const char *key, const cJSON *v, struct bc_workload *wl)
{
	struct bc_check c = {0};

	return bc_check_workload_key(&c, key, v, "", wl);
}

int bc_sweep_apply(enum bc_sweep_param param, const cJSON *v, struct bc_workload *wl)
{
	struct bc_check c = {0};

	if (param == BC_SWEEP_NONE || param == BC_SWEEP_CURVE)
		return 0; /* curve: the rate is set from the measured max */
	/* a swept size replaces a split: the BS key's parser does that for a plain size */
	return bc_check_workload_key(&c, bc_sweep_param_names[param], v, "", wl);
}

int bc_sweep_point(const struct bc_sweep_state *s, int i, struct bc_sweep_point *out)
{
	const cJSON *sw = s->step->sweep, *v;
	const char *pname = bc_sweep_param_names[s->param];
	char buf[32];

	if (i < 0 || i >= s->npoints)
		return -ERANGE;
	memset(out, 0, sizeof(*out));
	out->index = i;
	out->wl = s->step->wl;
	/* per-point ramp and runtime; the profile checked them */
	if ((v = cJSON_GetObjectItemCaseSensitive(sw, "ramp")))
		bc_sweep_apply_key("ramp", v, &out->wl);
	if ((v = cJSON_GetObjectItemCaseSensitive(sw, "runtime")))
		bc_sweep_apply_key("runtime", v, &out->wl);
	v = cJSON_GetArrayItem(s->values, i);
	switch (s->param) {
	case BC_SWEEP_NONE:
		snprintf(out->name, sizeof(out->name), "%s", s->step->name);
		snprintf(out->label, sizeof(out->label), "-");
		break;
	case BC_SWEEP_CURVE:
		if (i == 0) {
			snprintf(out->label, sizeof(out->label), "max");
			out->value = 100;
			out->wl.rate_iops = 0;
			out->wl.rate_bw = 0;
		} else {
			double per_vol;

			if (s->done < 1 || !s->results[0].ok || s->results[0].iops <= 0)
				return -EAGAIN;
			out->value = v->valuedouble;
			snprintf(out->label, sizeof(out->label), "%g%%", out->value);
			/* rate_iops is per volume: the max split evenly, as vdbench's iorate is
			 * total */
			per_vol = s->results[0].iops * out->value / 100.0 /
				  (s->prof->nvolumes ? s->prof->nvolumes : 1);
			out->wl.rate_iops = (uint64_t)ceil(per_vol);
			out->wl.rate_bw = 0;
		}
		snprintf(out->name, sizeof(out->name), "%s@curve=%s", s->step->name, out->label);
		break;
	default:
		if (bc_sweep_apply(s->param, v, &out->wl))
			return -EINVAL;
		if (s->param == BC_SWEEP_RW) {
			out->value = out->wl.rw;
			snprintf(out->label, sizeof(out->label), "%s", bc_rw_names[out->wl.rw]);
		} else if (s->param == BC_SWEEP_BS) {
			out->value = out->wl.bs;
			snprintf(out->label, sizeof(out->label), "%s",
				 bc_fmt_size(out->wl.bs, buf, sizeof(buf)));
		} else {
			out->value = s->param == BC_SWEEP_IODEPTH ? out->wl.iodepth
				     : s->param == BC_SWEEP_NUMJOBS
					 ? out->wl.numjobs
					 : out->wl.rwmixread_ppm / (double)BC_SPLIT_PCT1;
			snprintf(out->label, sizeof(out->label), "%g", out->value);
		}
		snprintf(out->name, sizeof(out->name), "%s@%s=%s", s->step->name, pname,
			 out->label);
	}
	out->outstanding = bc_sweep_outstanding(s->prof, &out->wl);
	return 0;
}

bool bc_sweep_next(struct bc_sweep_state *s, struct bc_sweep_point *out)
{
	if (s->stopped || s->done >= s->npoints)
		return false;
	if (bc_sweep_point(s, s->done, out)) {
		s->stopped = true;
		snprintf(s->stop_reason, sizeof(s->stop_reason),
			 "point %d cannot be built (a curve needs a max run that measured IOPS)",
			 s->done);
		return false;
	}
	s->points[s->done] = *out;
	return true;
}

bool bc_sweep_should_stop(const struct bc_sweep_state *s, const struct bc_sweep_result *r,
			  char *why, size_t len)
{
	char dummy[8];
	double best = 0;
	int i;

	if (!why)
		why = dummy, len = sizeof(dummy);
	if (!r->ok) {
		snprintf(why, len, "point %d did not complete", s->done);
		return true;
	}
	if (s->stop_p99_ms > 0 && s->param != BC_SWEEP_CURVE && r->p99_ms > s->stop_p99_ms) {
		snprintf(why, len, "p99 %.3f ms exceeds the bound of %g ms", r->p99_ms,
			 s->stop_p99_ms);
		return true;
	}
	if (s->stop_min_gain_pct < 0 || s->done < 1 ||
	    (s->param != BC_SWEEP_IODEPTH && s->param != BC_SWEEP_NUMJOBS))
		return false;
	for (i = 0; i < s->done; i++)
		if (s->results[i].bytes_per_s > best)
			best = s->results[i].bytes_per_s;
	if (best > 0 && (r->bytes_per_s / best - 1) * 100 < s->stop_min_gain_pct) {
		snprintf(why, len,
			 "throughput %+.1f%% against the best before it (rule: at least "
			 "+%g%%)",
			 (r->bytes_per_s / best - 1) * 100, s->stop_min_gain_pct);
		return true;
	}
	return false;
}

int bc_sweep_record(struct bc_sweep_state *s, const struct bc_sweep_result *r)
{
	char why[sizeof(s->stop_reason)];

	if (s->done >= s->npoints)
		return -ERANGE;
	if (bc_sweep_should_stop(s, r, why, sizeof(why)) && s->done + 1 < s->npoints) {
		s->stopped = true;
		snprintf(s->stop_reason, sizeof(s->stop_reason), "%s", why);
	}
	s->results[s->done++] = *r;
	return 0;
}

static cJSON *s_num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(round(v * 1000) / 1000) : cJSON_CreateNull();
}

cJSON *bc_sweep_json(const struct bc_sweep_state *s, const cJSON *analysis)
{
	cJSON *o = cJSON_CreateObject(), *vals, *labels, *n, *iops, *mbps, *mean, *p99, *knee;
	int i;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "param", bc_sweep_param_names[s->param]);
	vals = cJSON_AddArrayToObject(o, "values");
	labels = cJSON_AddArrayToObject(o, "labels");
	n = cJSON_AddArrayToObject(o, "n");
	iops = cJSON_AddArrayToObject(o, "iops");
	mbps = cJSON_AddArrayToObject(o, "mbps");
	mean = cJSON_AddArrayToObject(o, "lat_mean_us");
	p99 = cJSON_AddArrayToObject(o, "lat_p99_us");
	for (i = 0; i < s->done; i++) {
		const struct bc_sweep_result *r = &s->results[i];

		cJSON_AddItemToArray(vals, s_num(s->points[i].value));
		cJSON_AddItemToArray(labels, cJSON_CreateString(s->points[i].label));
		cJSON_AddItemToArray(n, s_num(s->points[i].outstanding));
		cJSON_AddItemToArray(iops, s_num(r->iops));
		cJSON_AddItemToArray(mbps, s_num(r->bytes_per_s / 1e6));
		cJSON_AddItemToArray(mean, s_num(r->lat_mean_ms * 1e3));
		cJSON_AddItemToArray(p99, s_num(r->p99_ms * 1e3));
	}
	if (s->stopped) {
		cJSON *st = cJSON_AddObjectToObject(o, "stopped");

		cJSON_AddNumberToObject(st, "after", s->done ? s->done - 1 : 0);
		cJSON_AddStringToObject(st, "reason", s->stop_reason);
	}
	knee = cJSON_GetObjectItemCaseSensitive(analysis, "knee");
	if (knee)
		cJSON_AddItemToObject(o, "knee", cJSON_Duplicate(knee, true));
	return o;
}
