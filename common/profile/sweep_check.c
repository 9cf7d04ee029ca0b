/*
 * profile/sweep_check.c - the profile's steps[].sweep object (profile/sweep.h):
 * checked when the profile is parsed, every point's workload included, so a
 * sweep that would fail at its 7th point fails before anything runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile/sweep.h"
#include "profile/sweep_check.h"
#include "profile/workload/json.h"
#include "profile/workload/keys.h"

/* beside the table's sweep dimensions (BC_WK_SWEEP) and per-point keys (BC_WK_POINT) */
static const char *const s_keys[] = {"curve", "stop", NULL};
static const char *const s_stop_keys[] = {"p99_ms", "min_gain_pct", NULL};

static bool s_table_key(const char *name)
{
	const struct bc_wl_key *k = bc_wl_key_find(name);

	return k && (k->where & (BC_WK_SWEEP | BC_WK_POINT));
}

static bool s_dimension(const char *name)
{
	const struct bc_wl_key *k = bc_wl_key_find(name);

	return !strcmp(name, "curve") || (k && (k->where & BC_WK_SWEEP));
}

/* the swept key of a checked sweep object, and its list */
static enum bc_sweep_param s_param(const cJSON *sw, const cJSON **list)
{
	static const struct {
		const char *key;
		enum bc_sweep_param param;
	} dims[] = {{"iodepth", BC_SWEEP_IODEPTH},
		    {"numjobs", BC_SWEEP_NUMJOBS},
		    {"bs", BC_SWEEP_BS},
		    {"rw", BC_SWEEP_RW},
		    {"rwmixread", BC_SWEEP_RWMIXREAD},
		    {"curve", BC_SWEEP_CURVE}};
	size_t i;

	for (i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
		*list = cJSON_GetObjectItemCaseSensitive(sw, dims[i].key);
		if (*list)
			return dims[i].param;
	}
	return BC_SWEEP_NONE;
}

static int s_check_stop(struct bc_check *c, const cJSON *sw, const char *base,
			enum bc_sweep_param param)
{
	char path[BC_CHECK_PATH_LEN], p2[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *stop, *v;
	int ret;

	ret = bc_check_item(c, sw, base, "stop", false, path, &stop);
	if (ret || !stop)
		return ret;
	ret = bc_check_object(c, path, stop);
	if (!ret)
		ret = bc_check_keys(c, stop, path, s_stop_keys);
	if (!ret)
		ret = bc_check_item(c, stop, path, "p99_ms", false, p2, &v);
	if (ret)
		return ret;
	if (v && (!cJSON_IsNumber(v) || v->valuedouble <= 0))
		return bc_check_fail(c, p2, "expected a number of milliseconds > 0, got %s",
				     bc_check_show(v, shown));
	if (v && param == BC_SWEEP_CURVE)
		return bc_check_fail(c, p2,
				     "a curve lowers the load point by point; a latency "
				     "bound cannot end it");
	ret = bc_check_item(c, stop, path, "min_gain_pct", false, p2, &v);
	if (ret || !v)
		return ret;
	if (!cJSON_IsNumber(v) || v->valuedouble < 0)
		return bc_check_fail(c, p2, "expected a percentage >= 0, got %s",
				     bc_check_show(v, shown));
	if (param != BC_SWEEP_IODEPTH && param != BC_SWEEP_NUMJOBS)
		return bc_check_fail(c, p2,
				     "only an iodepth or numjobs sweep raises the load, so "
				     "only there can a gain stop it");
	return 0;
}

/* one list item: its value and, for curve, a percentage */
static int s_check_value(struct bc_check *c, enum bc_sweep_param param, const cJSON *v,
			 const char *path, struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (param != BC_SWEEP_CURVE) {
		struct bc_workload tmp = *wl;
		int ret = bc_check_workload_key(c, bc_sweep_param_names[param], v, path, &tmp);

		if (!ret && param == BC_SWEEP_BS)
			tmp.nbssplit = 0;
		if (!ret)
			*wl = tmp;
		return ret;
	}
	if (!cJSON_IsNumber(v) || v->valuedouble <= 0 || v->valuedouble > 100)
		return bc_check_fail(c, path,
				     "expected a percentage of the max in (0, 100], got %s",
				     bc_check_show(v, shown));
	return 0;
}

int bc_check_sweep(struct bc_check *c, const cJSON *item, const char *base,
		   const struct bc_workload *wl, cJSON **out)
{
	char path[BC_CHECK_PATH_LEN], lpath[BC_CHECK_PATH_LEN], ipath[BC_CHECK_PATH_LEN + 16];
	char shown[BC_CHECK_SHOW_LEN];
	const cJSON *sw, *list, *v;
	enum bc_sweep_param param;
	struct bc_workload pt = *wl;
	int ret, i = 0, dims = 0, k;

	*out = NULL;
	ret = bc_check_item(c, item, base, "sweep", false, path, &sw);
	if (ret || !sw)
		return ret;
	ret = bc_check_object(c, path, sw);
	if (!ret)
		ret = bc_check_keys_with(c, sw, path, s_keys, s_table_key);
	if (ret)
		return ret;
	cJSON_ArrayForEach(v, sw) dims += s_dimension(v->string);
	if (dims != 1)
		return bc_check_fail(
		    c, path,
		    "expected exactly one of iodepth, numjobs, bs, rw, rwmixread or curve, "
		    "got %d",
		    dims);
	param = s_param(sw, &list);
	bc_check_path(lpath, path, bc_sweep_param_names[param]);
	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) < 1 ||
	    cJSON_GetArraySize(list) > BC_SWEEP_MAX - 1)
		return bc_check_fail(c, lpath, "expected a list of 1..%d values, got %s",
				     BC_SWEEP_MAX - 1, bc_check_show(list, shown));
	/* ramp and runtime of every point, with the workload's own checks */
	for (k = 0; k < bc_wl_nkeys; k++) {
		if (!(bc_wl_keys[k].where & BC_WK_POINT))
			continue;
		ret = bc_check_item(c, sw, path, bc_wl_keys[k].name, false, ipath, &v);
		if (!ret && v)
			ret = bc_wl_key_parse(c, &bc_wl_keys[k], v, ipath, &pt);
		if (ret)
			return ret;
	}
	cJSON_ArrayForEach(v, list)
	{
		struct bc_workload w = pt;

		snprintf(ipath, sizeof(ipath), "%s[%d]", lpath, i++);
		ret = s_check_value(c, param, v, ipath, &w);
		if (!ret && !c->partial)
			ret = bc_check_workload_rules(c, ipath, &w);
		if (ret)
			return ret;
	}
	ret = s_check_stop(c, sw, path, param);
	if (ret)
		return ret;
	*out = cJSON_Duplicate(sw, true);
	return *out ? 0 : -ENOMEM;
}
