/*
 * profile/experiment.c - a step's "experiment" (profile/experiment.h): checked when
 * the profile is parsed, against the step's streams and the volumes' "fdp"
 * pids, so a plan that would place a class on a handle the volume does not
 * list fails before anything is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/experiment.h"
#include "profile/volume_wl.h"
#include "profile/workload/keys.h"
#include "profile/workload/streams.h"

static const char *const s_keys[] = {
    "modes",  "placements",    "precondition", "warmup_iterations", "measure_iterations",
    "expect", "tolerance_pct", "gc_waf",       "reference",	    "waf_source",
    NULL,
};
static const char *const s_pre_keys[] = {"discard",   "seq_fill", "random_passes", "window", "bs",
					 "random_bs", "iodepth",  "runtime",	   NULL};
static const char *const s_expect_keys[] = {"metric", "lower", "than", NULL};

const char *const bc_exp_metrics[] = {"waf",	      "media_bytes", "host_bytes",  "write_p99_ms",
				      "write_p50_ms", "read_p99_ms", "read_p50_ms", NULL};

/* the plan's limits: what a person would type; beyond them it is a typo */
#define S_ITER_MAX   1000
#define S_PASSES_MAX 100
/* 24 + "@" + 24 + "/seq_fill-" + 4 digits = 63: the run.json names of an experiment's steps */
#define S_MODE_NAME_MAX 24

static int s_mode_index(const struct bc_experiment *x, const char *name)
{
	int i;

	for (i = 0; i < x->nmodes; i++)
		if (!strcmp(x->modes[i].name, name))
			return i;
	return -1;
}

static int s_uint(struct bc_check *c, const char *path, const cJSON *v, uint32_t lo, uint32_t hi,
		  uint32_t *out)
{
	double d;
	int rc = bc_check_int(c, path, v, lo, hi, &d);

	if (!rc)
		*out = (uint32_t)d;
	return rc;
}

/* "volume" | "namespace" | {"offset": size, "size": size} */
static int s_window(struct bc_check *c, const char *path, const cJSON *v, struct bc_experiment *x)
{
	static const char *const keys[] = {"offset", "size", NULL};
	char p2[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *o;
	int ret;

	if (cJSON_IsString(v) && !strcmp(v->valuestring, "volume"))
		return 0;
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "namespace")) {
		x->win_set = true;
		return 0;
	}
	if (!cJSON_IsObject(v))
		return bc_check_fail(c, path,
				     "expected \"volume\", \"namespace\" or {\"offset\": ..., "
				     "\"size\": ...}, got %s",
				     bc_check_show(v, shown));
	ret = bc_check_keys(c, v, path, keys);
	if (!ret)
		ret = bc_check_item(c, v, path, "offset", false, p2, &o);
	if (!ret && o)
		ret = bc_check_size(c, p2, o, &x->win_offset);
	if (!ret)
		ret = bc_check_item(c, v, path, "size", true, p2, &o);
	if (!ret)
		ret = bc_check_size(c, p2, o, &x->win_length);
	if (ret)
		return ret;
	if (x->win_offset % BC_SECTOR || x->win_length % BC_SECTOR || !x->win_length)
		return bc_check_fail(c, path, "offset and size must be multiples of 512, size > 0");
	x->win_set = true;
	return 0;
}

static int s_precondition(struct bc_check *c, const char *path, const cJSON *v,
			  struct bc_experiment *x)
{
	char p2[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	struct bc_workload tmp = {0};
	const cJSON *o;
	int ret;

	x->pre = true;
	x->discard = x->seq_fill = true;
	x->random_passes = 1;
	x->pre_bs = 128 * 1024;
	x->pre_random_bs = 4096;
	x->pre_iodepth = 32;
	x->pre_runtime_s = 3600;
	if (!v)
		return 0;
	if (cJSON_IsFalse(v)) {
		x->pre = false;
		return 0;
	}
	if (!cJSON_IsObject(v))
		return bc_check_fail(c, path, "expected an object or false, got %s",
				     bc_check_show(v, shown));
	ret = bc_check_keys(c, v, path, s_pre_keys);
	if (!ret)
		ret = bc_check_item(c, v, path, "discard", false, p2, &o);
	/* "namespace": the whole device, then fill and passes over the window (seed 000) */
	if (!ret && o && cJSON_IsString(o) && !strcmp(o->valuestring, "namespace"))
		x->discard_namespace = true;
	else if (!ret && o && !cJSON_IsBool(o))
		return bc_check_fail(c, p2, "expected true, false or \"namespace\", got %s",
				     bc_check_show(o, shown));
	else if (!ret && o)
		ret = bc_check_bool(c, p2, o, &x->discard);
	if (!ret)
		ret = bc_check_item(c, v, path, "seq_fill", false, p2, &o);
	if (!ret && o)
		ret = bc_check_bool(c, p2, o, &x->seq_fill);
	if (!ret)
		ret = bc_check_item(c, v, path, "random_passes", false, p2, &o);
	if (!ret && o)
		ret = s_uint(c, p2, o, 0, S_PASSES_MAX, &x->random_passes);
	if (!ret)
		ret = bc_check_item(c, v, path, "window", false, p2, &o);
	if (!ret && o)
		ret = s_window(c, p2, o, x);
	if (!ret)
		ret = bc_check_item(c, v, path, "bs", false, p2, &o);
	if (!ret && o && !(ret = bc_check_workload_key(c, "bs", o, p2, &tmp)))
		x->pre_bs = tmp.bs;
	if (!ret && o && tmp.nbssplit)
		ret = bc_check_fail(c, p2, "expected one block size, got a split");
	if (!ret)
		ret = bc_check_item(c, v, path, "random_bs", false, p2, &o);
	if (!ret && o && !(ret = bc_check_workload_key(c, "bs", o, p2, &tmp)))
		x->pre_random_bs = tmp.bs;
	if (!ret && o && tmp.nbssplit)
		ret = bc_check_fail(c, p2, "expected one block size, got a split");
	if (!ret)
		ret = bc_check_item(c, v, path, "iodepth", false, p2, &o);
	if (!ret && o && !(ret = bc_check_workload_key(c, "iodepth", o, p2, &tmp)))
		x->pre_iodepth = tmp.iodepth;
	if (!ret)
		ret = bc_check_item(c, v, path, "runtime", false, p2, &o);
	if (!ret && o && !(ret = bc_check_workload_key(c, "runtime", o, p2, &tmp)))
		x->pre_runtime_s = tmp.runtime_s;
	if (!ret && !x->discard && !x->seq_fill && !x->random_passes)
		ret = bc_check_fail(c, path,
				    "discard, seq_fill and random_passes are all off: say "
				    "\"precondition\": false");
	return ret;
}

/* the built-in placements of mode m over ncls classes */
static void s_builtin(struct bc_exp_mode *m, int ncls)
{
	int k, i;

	for (k = 0; k < ncls; k++) {
		struct bc_placement *p = &m->cls[k];

		memset(p, 0, sizeof(*p));
		if (!strcmp(m->name, "no_fdp")) {
			p->kind = BC_PLACEMENT_NONE;
		} else if (!strcmp(m->name, "separated")) {
			p->kind = 1;
			p->n = 1;
			p->idx[0] = (uint16_t)k;
		} else {
			/* mixed: every class over every handle the classes use */
			p->kind = 1;
			p->n = (uint8_t)ncls;
			for (i = 0; i < ncls; i++)
				p->idx[i] = (uint16_t)((i + k) % ncls);
		}
	}
}

static bool s_builtin_name(const char *n)
{
	return !strcmp(n, "no_fdp") || !strcmp(n, "mixed") || !strcmp(n, "separated");
}

/* placements.<mode>: {class: placement, "*": placement} over the step's classes */
static int s_mode_map(struct bc_check *c, const char *path, const cJSON *v,
		      const struct bc_workload *wl, struct bc_exp_mode *m)
{
	char p2[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN], list[BC_STREAMS_MAX * 34] = "";
	const char *cls[BC_STREAMS_MAX];
	struct bc_placement star = {0};
	bool set[BC_STREAMS_MAX] = {false};
	const cJSON *it;
	int ncls = bc_stream_classes(wl, cls), k, ret;

	for (k = 0; k < ncls; k++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k ? ", " : "",
			 cls[k]);
	if (!cJSON_IsObject(v))
		return bc_check_fail(c, path,
				     "expected an object {\"<class>\": [indexes] | \"none\", "
				     "\"*\": ...}, got %s",
				     bc_check_show(v, shown));
	cJSON_ArrayForEach(it, v)
	{
		struct bc_placement pl;

		bc_check_path(p2, path, it->string);
		ret = bc_check_placement(c, p2, it, &pl);
		if (ret)
			return ret;
		if (pl.kind == BC_PLACEMENT_VOLUME)
			return bc_check_fail(c, p2,
					     "a mode places classes itself: give indexes or "
					     "\"none\"");
		if (!strcmp(it->string, "*")) {
			star = pl;
			continue;
		}
		k = bc_stream_class_index(wl, it->string);
		if (k < 0)
			return bc_check_fail(c, p2, "no stream has class \"%s\" (classes: %s)",
					     it->string, list);
		if (set[k])
			return bc_check_fail(c, p2, "duplicate key");
		set[k] = true;
		m->cls[k] = pl;
	}
	for (k = 0; k < ncls; k++) {
		if (set[k])
			continue;
		if (!star.kind)
			return bc_check_fail(c, path,
					     "class \"%s\" has no placement (name it or give "
					     "\"*\")",
					     cls[k]);
		m->cls[k] = star;
	}
	return 0;
}

/* every placement index of every mode exists in every volume's "fdp" pids */
static int s_check_pids(struct bc_check *c, const char *base, const struct bc_profile *p,
			const struct bc_workload *wl, const struct bc_experiment *x)
{
	char path[BC_CHECK_PATH_LEN];
	const char *cls[BC_STREAMS_MAX];
	int ncls = bc_stream_classes(wl, cls), v, m, k, i;

	for (v = 0; v < p->nvolumes; v++) {
		const struct bc_fdp_spec *f = &p->volumes[v].fdp;
		bool placed =
		    !strncmp(p->volumes[v].path, "/dev/ng", 7) || p->volumes[v].sim.enabled;

		/* an FDP namespace or a simulated SSD without pids could not place anything */
		for (m = 0; placed && f->policy == BC_FDP_NONE && m < x->nmodes; m++) {
			for (k = 0; k < ncls && x->modes[m].cls[k].kind != 1; k++)
				;
			if (k == ncls)
				continue;
			snprintf(path, sizeof(path), "volumes[%d]", v);
			return bc_check_fail(c, path,
					     "has no \"fdp\" pids, but the experiment of %s places "
					     "classes on placement indexes in mode \"%s\" (give "
					     "\"fdp\": {\"pids\": [...]})",
					     base, x->modes[m].name);
		}
		if (f->policy == BC_FDP_NONE)
			continue;
		for (m = 0; m < x->nmodes; m++) {
			for (k = 0; k < ncls; k++) {
				const struct bc_placement *pl = &x->modes[m].cls[k];

				/* "all": the agent checks the indexes against the drive's */
				for (i = 0; pl->kind == 1 && !f->all && i < pl->n; i++) {
					if (pl->idx[i] < f->npids)
						continue;
					snprintf(path, sizeof(path), "%s.experiment.modes[%d]",
						 base, m);
					return bc_check_fail(
					    c, path,
					    "mode \"%s\" puts class \"%s\" on placement index %u, "
					    "but volumes[%d].fdp has %d pid(s) (list more pids, or "
					    "give \"placements\".\"%s\")",
					    x->modes[m].name, cls[k], pl->idx[i], v, f->npids,
					    x->modes[m].name);
				}
			}
		}
	}
	return 0;
}

static int s_expect(struct bc_check *c, const char *path, const cJSON *v, struct bc_experiment *x)
{
	char base[BC_CHECK_PATH_LEN], p2[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *it, *o;
	int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1, i = 0, j, ret;

	if (n < 0 || n > BC_EXP_EXPECT_MAX)
		return bc_check_fail(c, path,
				     "expected an array of at most %d expectations, got %s",
				     BC_EXP_EXPECT_MAX, bc_check_show(v, shown));
	cJSON_ArrayForEach(it, v)
	{
		struct bc_exp_expect *e = &x->expect[i];

		snprintf(base, sizeof(base), "%s[%d]", path, i);
		ret = bc_check_object(c, base, it);
		if (!ret)
			ret = bc_check_keys(c, it, base, s_expect_keys);
		if (!ret)
			ret = bc_check_item(c, it, base, "metric", true, p2, &o);
		if (ret)
			return ret;
		for (j = 0; bc_exp_metrics[j]; j++)
			if (cJSON_IsString(o) && !strcmp(o->valuestring, bc_exp_metrics[j]))
				break;
		if (!bc_exp_metrics[j])
			return bc_check_fail(
			    c, p2,
			    "expected one of waf, media_bytes, host_bytes, "
			    "write_p99_ms, write_p50_ms, read_p99_ms, read_p50_ms, "
			    "got %s",
			    bc_check_show(o, shown));
		snprintf(e->metric, sizeof(e->metric), "%s", bc_exp_metrics[j]);
		ret = bc_check_item(c, it, base, "lower", true, p2, &o);
		if (ret)
			return ret;
		e->lower = cJSON_IsString(o) ? s_mode_index(x, o->valuestring) : -1;
		if (e->lower < 0)
			return bc_check_fail(c, p2,
					     "expected one of the experiment's modes, got %s",
					     bc_check_show(o, shown));
		ret = bc_check_item(c, it, base, "than", true, p2, &o);
		if (ret)
			return ret;
		e->than = cJSON_IsString(o) ? s_mode_index(x, o->valuestring) : -1;
		if (e->than < 0 || e->than == e->lower)
			return bc_check_fail(c, p2,
					     "expected another of the experiment's modes, got %s",
					     bc_check_show(o, shown));
		i++;
	}
	x->nexpect = n;
	return 0;
}

/* the default expectations: what FDP placement is for (seed 000's table) */
static void s_default_expect(struct bc_experiment *x)
{
	int sep = s_mode_index(x, "separated"), mix = s_mode_index(x, "mixed"),
	    nof = s_mode_index(x, "no_fdp");
	struct bc_exp_expect *e = x->expect;

#define S_ADD(m, lo, th)                                                                           \
	do {                                                                                       \
		snprintf(e[x->nexpect].metric, sizeof(e->metric), "%s", m);                        \
		e[x->nexpect].lower = lo;                                                          \
		e[x->nexpect].than = th;                                                           \
		x->nexpect++;                                                                      \
	} while (0)
	if (sep >= 0 && nof >= 0)
		S_ADD("waf", sep, nof);
	if (sep >= 0 && mix >= 0)
		S_ADD("waf", sep, mix);
	if (nof >= 0 && mix >= 0)
		S_ADD("waf", nof, mix);
	if (sep >= 0 && nof >= 0)
		S_ADD("write_p99_ms", sep, nof);
	if (sep >= 0 && mix >= 0)
		S_ADD("write_p99_ms", sep, mix);
#undef S_ADD
}

/* the whole object into x; p may be NULL (no volume checks) */
static int s_parse(struct bc_check *c, const cJSON *v, const char *path, const char *base,
		   const struct bc_profile *p, const struct bc_step *st, struct bc_experiment *x)
{
	char p2[BC_CHECK_PATH_LEN], p3[BC_CHECK_PATH_LEN + 16], shown[BC_CHECK_SHOW_LEN];
	const char *cls[BC_STREAMS_MAX];
	const cJSON *o, *it;
	int ncls, i, j, ret;

	memset(x, 0, sizeof(*x));
	x->measure = 1;
	x->tolerance_pct = 2;
	x->gc_waf = 1.05;
	ret = bc_check_object(c, path, v);
	if (!ret)
		ret = bc_check_keys(c, v, path, s_keys);
	if (ret)
		return ret;
	if (!st->wl.nstreams)
		return bc_check_fail(c, path,
				     "needs \"streams\" in the step's workload: the modes place "
				     "streams by lifetime class");
	if (st->sweep)
		return bc_check_fail(c, path, "a step has either a sweep or an experiment");
	ncls = bc_stream_classes(&st->wl, cls);
	ret = bc_check_item(c, v, path, "modes", true, p2, &o);
	if (ret)
		return ret;
	if (!cJSON_IsArray(o) || !cJSON_GetArraySize(o) || cJSON_GetArraySize(o) > BC_EXP_MODES_MAX)
		return bc_check_fail(c, p2, "expected an array of 1 to %d mode names, got %s",
				     BC_EXP_MODES_MAX, bc_check_show(o, shown));
	i = 0;
	cJSON_ArrayForEach(it, o)
	{
		snprintf(p3, sizeof(p3), "%s[%d]", p2, i);
		ret = bc_check_name(c, p3, it, x->modes[i].name);
		if (ret)
			return ret;
		/* "<step>@<mode>/seq_fill-N" must fit a step name (BC_NAME_MAX) */
		if (strlen(x->modes[i].name) > S_MODE_NAME_MAX)
			return bc_check_fail(c, p3, "a mode name has at most %d characters, got %s",
					     S_MODE_NAME_MAX, bc_check_show(it, shown));
		for (j = 0; j < i; j++)
			if (!strcmp(x->modes[j].name, x->modes[i].name))
				return bc_check_fail(c, p3, "duplicate mode \"%s\"",
						     x->modes[i].name);
		s_builtin(&x->modes[i], ncls);
		i++;
	}
	x->nmodes = i;
	ret = bc_check_item(c, v, path, "placements", false, p2, &o);
	if (ret)
		return ret;
	if (o && !cJSON_IsObject(o))
		return bc_check_fail(c, p2, "expected an object {\"<mode>\": {...}}, got %s",
				     bc_check_show(o, shown));
	cJSON_ArrayForEach(it, o)
	{
		bc_check_path(p3, p2, it->string);
		i = s_mode_index(x, it->string);
		if (i < 0)
			return bc_check_fail(c, p3, "not one of the experiment's modes");
		if (!strcmp(it->string, "no_fdp"))
			return bc_check_fail(c, p3,
					     "no_fdp writes without directives; it has no "
					     "placement");
		ret = s_mode_map(c, p3, it, &st->wl, &x->modes[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < x->nmodes; i++) {
		if (s_builtin_name(x->modes[i].name) ||
		    cJSON_GetObjectItemCaseSensitive(o, x->modes[i].name))
			continue;
		snprintf(p3, sizeof(p3), "%s.modes[%d]", path, i);
		return bc_check_fail(c, p3,
				     "\"%s\" is not a built-in mode (no_fdp, mixed, separated): "
				     "give its \"placements\"",
				     x->modes[i].name);
	}
	ret = bc_check_item(c, v, path, "precondition", false, p2, &o);
	if (!ret)
		ret = s_precondition(c, p2, o, x);
	if (!ret)
		ret = bc_check_item(c, v, path, "warmup_iterations", false, p2, &o);
	if (!ret && o)
		ret = s_uint(c, p2, o, 0, S_ITER_MAX, &x->warmup);
	if (!ret)
		ret = bc_check_item(c, v, path, "measure_iterations", false, p2, &o);
	if (!ret && o)
		ret = s_uint(c, p2, o, 1, S_ITER_MAX, &x->measure);
	if (!ret)
		ret = bc_check_item(c, v, path, "tolerance_pct", false, p2, &o);
	if (!ret && o) {
		if (!cJSON_IsNumber(o) || o->valuedouble < 0 || o->valuedouble > 100)
			return bc_check_fail(c, p2, "expected a percentage in 0..100, got %s",
					     bc_check_show(o, shown));
		x->tolerance_pct = o->valuedouble;
	}
	if (!ret)
		ret = bc_check_item(c, v, path, "gc_waf", false, p2, &o);
	if (!ret && o) {
		if (!cJSON_IsNumber(o) || o->valuedouble < 1 || o->valuedouble > 100)
			return bc_check_fail(c, p2, "expected a WAF in 1..100, got %s",
					     bc_check_show(o, shown));
		x->gc_waf = o->valuedouble;
	}
	if (!ret)
		ret = bc_check_item(c, v, path, "waf_source", false, p2, &o);
	if (!ret && o) {
		if (!cJSON_IsString(o) ||
		    (strcmp(o->valuestring, "ocp") && strcmp(o->valuestring, "fdp")))
			return bc_check_fail(
			    c, p2,
			    "expected \"ocp\" (OCP C0 physical media units "
			    "written over SMART data units written) or \"fdp\" (FDP "
			    "statistics MBMW over HBMW), got %s",
			    bc_check_show(o, shown));
		x->waf_fdp = !strcmp(o->valuestring, "fdp");
	}
	if (!ret)
		ret = bc_check_item(c, v, path, "reference", false, p2, &o);
	if (!ret && o) {
		ret = bc_check_str(c, p2, o, sizeof(x->reference));
		if (!ret)
			snprintf(x->reference, sizeof(x->reference), "%s", o->valuestring);
	}
	if (!ret)
		ret = bc_check_item(c, v, path, "expect", false, p2, &o);
	if (!ret && o)
		ret = s_expect(c, p2, o, x);
	else if (!ret)
		s_default_expect(x);
	if (ret || !p)
		return ret;
	for (i = 0; i < p->nvolumes; i++) {
		if (!bc_wl_override_has(p->volumes[i].workload, "streams"))
			continue;
		snprintf(p3, sizeof(p3), "volumes[%d].workload.streams", i);
		return bc_check_fail(c, p3,
				     "the experiment of %s places the step's streams: a volume "
				     "cannot replace them",
				     base);
	}
	return s_check_pids(c, base, p, &st->wl, x);
}

int bc_check_experiment(struct bc_check *c, const cJSON *item, const char *base,
			const struct bc_profile *p, const struct bc_step *st, cJSON **out)
{
	char path[BC_CHECK_PATH_LEN];
	struct bc_experiment *x;
	const cJSON *v;
	int ret;

	*out = NULL;
	ret = bc_check_item(c, item, base, "experiment", false, path, &v);
	if (ret || !v)
		return ret;
	x = malloc(sizeof(*x));
	if (!x)
		return -ENOMEM;
	ret = s_parse(c, v, path, base, p, st, x);
	free(x);
	if (!ret) {
		*out = cJSON_Duplicate(v, true);
		ret = *out ? 0 : -ENOMEM;
	}
	return ret;
}

int bc_experiment_get(const struct bc_step *st, struct bc_experiment *x, char *err, size_t errlen)
{
	struct bc_check c = {.err = err, .errlen = errlen};

	if (!st->experiment) {
		snprintf(err, errlen, "step \"%s\" has no experiment", st->name);
		return -EINVAL;
	}
	return s_parse(&c, st->experiment, "experiment", "step", NULL, st, x);
}

void bc_experiment_mode_workload(const struct bc_experiment *x, int m, const struct bc_workload *wl,
				 struct bc_workload *out)
{
	uint32_t i;
	int k;

	*out = *wl;
	for (i = 0; i < out->nstreams; i++) {
		k = bc_stream_class_index(wl, wl->streams[i].cls);
		if (k >= 0)
			out->streams[i].placement = x->modes[m].cls[k];
	}
}

int bc_experiment_pre_steps(const struct bc_experiment *x)
{
	if (!x->pre)
		return 0;
	return (int)x->discard + (int)x->seq_fill + (int)x->random_passes;
}

uint64_t bc_experiment_seconds(const struct bc_experiment *x, const struct bc_workload *wl)
{
	uint64_t per_mode = (uint64_t)bc_experiment_pre_steps(x) * x->pre_runtime_s +
			    (uint64_t)(x->warmup + x->measure) * (wl->ramp_s + wl->runtime_s);

	return per_mode * (uint64_t)x->nmodes;
}
