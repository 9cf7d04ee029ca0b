/*
 * profile/volume_wl.c - per-volume overrides (profile/volume_wl.h): checked and
 * parsed into struct bc_wl_override at load, applied from the struct by
 * the coordinator's readers (PREPARE bodies, results, checks, the verdict,
 * sweeps) without looking at JSON again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/volume_wl.h"
#include "profile/workload/json.h"
#include "profile/workload/keys.h"
#include "profile/workload/streams.h"

bool bc_wl_override_has(const struct bc_wl_override *o, const char *name)
{
	const struct bc_wl_key *k = bc_wl_key_find(name);

	return o && k && (o->given & ((bc_wl_keyset)1 << (k - bc_wl_keys)));
}

/* o over wl, in table order; with c, the streams' mixes and the rules checked at base */
static int s_apply(struct bc_check *c, const struct bc_wl_override *o, const char *base,
		   struct bc_workload *wl)
{
	char path[BC_CHECK_PATH_LEN];
	const struct bc_wl_key *k;
	int i, ret;

	for (i = 0; i < bc_wl_nkeys; i++) {
		k = &bc_wl_keys[i];
		if (!(o->given & ((bc_wl_keyset)1 << i)))
			continue;
		if (k->type != BC_WT_STREAMS) {
			bc_wl_key_copy(k, wl, &o->wl);
			continue;
		}
		bc_check_path(path, base, k->name);
		ret = bc_streams_inherit(c, path, &o->wl, o->own, wl);
		if (ret)
			return ret;
	}
	return bc_check_workload_rules(c, base, wl);
}

void bc_wl_override_apply(const struct bc_wl_override *o, struct bc_workload *wl)
{
	struct bc_check quiet = {0};

	/* the profile checked this pair (bc_check_volume_steps): only the rules could object */
	if (o)
		(void)s_apply(&quiet, o, "", wl);
}

void bc_volume_workload(const struct bc_workload *step, const struct bc_volume_spec *vol,
			struct bc_workload *out)
{
	*out = *step;
	bc_wl_override_apply(vol->workload, out);
}

const struct bc_wl_override *bc_step_volume_override(const struct bc_step *st, int v)
{
	int i;

	for (i = 0; i < st->nvolume_wl; i++)
		if (st->volume_wl[i].volume == v)
			return &st->volume_wl[i];
	return NULL;
}

void bc_step_volume_workload(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
			     struct bc_workload *out)
{
	bc_step_volume_run_workload(st, vol, v, 0, out);
}

int bc_step_volume_runs(const struct bc_step *st, int v)
{
	int i, n = 0;

	for (i = 0; i < st->nvolume_wl; i++) {
		if (st->volume_wl[i].volume != v)
			continue;
		if (st->volume_wl[i].idle)
			return 0;
		n++;
	}
	return n ? n : 1;
}

void bc_step_volume_run_workload(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
				 int r, struct bc_workload *out)
{
	const struct bc_wl_override *o = NULL;
	int i;

	for (i = 0; i < st->nvolume_wl && !o; i++)
		if (st->volume_wl[i].volume == v && st->volume_wl[i].run == r &&
		    !st->volume_wl[i].idle)
			o = &st->volume_wl[i];
	bc_volume_workload(&st->wl, vol, out);
	bc_wl_override_apply(o, out);
}

bool bc_step_volume_overridden(const struct bc_step *st, const struct bc_volume_spec *vol, int v)
{
	return vol->workload || bc_step_volume_override(st, v);
}

bool bc_step_volume_size_based(const struct bc_step *st, const struct bc_volume_spec *vol, int v)
{
	struct bc_workload w;
	int r, runs = bc_step_volume_runs(st, v);

	for (r = 0; r < runs; r++) {
		bc_step_volume_run_workload(st, vol, v, r, &w);
		if (bc_workload_size_based(&w))
			return true;
	}
	return false;
}

double bc_step_volume_depth(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
			    bool *paced)
{
	struct bc_workload w;
	double n = 0;
	int r, runs = bc_step_volume_runs(st, v);

	if (paced)
		*paced = false;
	for (r = 0; r < runs; r++) {
		bc_step_volume_run_workload(st, vol, v, r, &w);
		n += (double)w.iodepth * (w.jobs && w.jobs < w.numjobs ? w.jobs : w.numjobs);
		if (paced)
			*paced |= w.rate_iops || w.rate_bw || w.rate_iops_dir[0] ||
				  w.rate_iops_dir[1] || w.rate_bw_dir[0] || w.rate_bw_dir[1] ||
				  w.thinktime_us || w.start_delay_s;
	}
	return n;
}

/* one volume's overrides at path: only per-volume keys, values checked, parsed into *o */
static int s_check_overrides(struct bc_check *c, const cJSON *v, const char *path, int vol,
			     struct bc_wl_override *o)
{
	struct bc_check vc = *c;
	char kpath[BC_CHECK_PATH_LEN];
	const struct bc_wl_key *k;
	const cJSON *it;
	int ret;

	ret = bc_check_object(c, path, v);
	if (ret)
		return ret;
	cJSON_ArrayForEach(it, v)
	{
		k = bc_wl_key_find(it->string);
		bc_check_path(kpath, path, it->string);
		if (k && !(k->where & BC_WK_VOLUME))
			return bc_check_fail(c, kpath,
					     "applies to the whole step, not to one volume");
	}
	ret = bc_check_workload_keys(c, v, path, NULL);
	if (ret)
		return ret;
	memset(o, 0, sizeof(*o));
	o->volume = vol;
	o->wl = bc_workload_builtin;
	/* values only: the rules between keys hold for each step's resolved workload */
	vc.partial = true;
	return bc_check_workload_given(&vc, v, path, &o->wl, &o->given, o->own);
}

int bc_check_volume_workload(struct bc_check *c, const cJSON *item, const char *base, int vol,
			     struct bc_wl_override **out, cJSON **json)
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *v;
	int ret;

	*out = NULL;
	*json = NULL;
	ret = bc_check_item(c, item, base, "workload", false, path, &v);
	if (ret || !v)
		return ret;
	*out = malloc(sizeof(**out));
	if (!*out)
		return -ENOMEM;
	ret = s_check_overrides(c, v, path, vol, *out);
	if (!ret) {
		*json = cJSON_Duplicate(v, true);
		ret = *json ? 0 : -ENOMEM;
	}
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

/* a volume index as written "0".."nvolumes-1", without sign, spaces or leading zeros */
static int s_volume_index(const char *s, int nvolumes)
{
	long idx;
	char *end;

	if (!*s || *s < '0' || *s > '9' || (s[0] == '0' && s[1]))
		return -1;
	idx = strtol(s, &end, 10);
	return *end || idx >= nvolumes ? -1 : (int)idx;
}

/* an entry's array at path: each element a workload on volume idx; "[]": idle */
static int s_check_runs(struct bc_check *c, const cJSON *arr, const char *path, int idx,
			struct bc_step *st)
{
	char rpath[BC_CHECK_PATH_LEN];
	const cJSON *r;
	int n = 0, ret;

	if (!cJSON_GetArraySize(arr)) {
		memset(&st->volume_wl[st->nvolume_wl], 0, sizeof(st->volume_wl[0]));
		st->volume_wl[st->nvolume_wl].volume = idx;
		st->volume_wl[st->nvolume_wl].idle = true;
		st->volume_wl[st->nvolume_wl++].wl = bc_workload_builtin;
		return 0;
	}
	cJSON_ArrayForEach(r, arr)
	{
		snprintf(rpath, sizeof(rpath), "%s[%d]", path, n);
		ret = s_check_overrides(c, r, rpath, idx, &st->volume_wl[st->nvolume_wl]);
		if (ret)
			return ret;
		st->volume_wl[st->nvolume_wl++].run = n++;
	}
	return 0;
}

int bc_check_step_volume_workloads(struct bc_check *c, const cJSON *item, const char *base,
				   int nvolumes, struct bc_step *st)
{
	char path[BC_CHECK_PATH_LEN], kpath[BC_CHECK_PATH_LEN];
	const cJSON *v, *k;
	int n, idx, ret;

	st->volume_wl = NULL;
	st->nvolume_wl = 0;
	st->volume_workloads = NULL;
	ret = bc_check_item(c, item, base, "volume_workloads", false, path, &v);
	if (ret || !v)
		return ret;
	ret = bc_check_object(c, path, v);
	if (ret)
		return ret;
	/* an entry is an object, or an array of them (each a workload of its own) */
	n = 0;
	cJSON_ArrayForEach(k, v) n += cJSON_IsArray(k) ? cJSON_GetArraySize(k) : 0;
	n += cJSON_GetArraySize(v);
	st->volume_wl = calloc(n ? (size_t)n : 1, sizeof(*st->volume_wl));
	if (!st->volume_wl)
		return -ENOMEM;
	cJSON_ArrayForEach(k, v)
	{
		bc_check_path(kpath, path, k->string);
		idx = s_volume_index(k->string, nvolumes);
		if (idx < 0 || bc_step_volume_runs(st, idx) != 1 ||
		    bc_step_volume_override(st, idx))
			ret = bc_check_fail(c, kpath,
					    "expected a volume index 0..%d (once), got \"%s\"",
					    nvolumes - 1, k->string);
		if (!ret && cJSON_IsArray(k))
			ret = s_check_runs(c, k, kpath, idx, st);
		else if (!ret)
			ret = s_check_overrides(c, k, kpath, idx, &st->volume_wl[st->nvolume_wl++]);
		if (ret)
			break;
	}
	if (!ret) {
		st->volume_workloads = cJSON_Duplicate(v, true);
		ret = st->volume_workloads ? 0 : -ENOMEM;
	}
	if (ret) {
		free(st->volume_wl);
		st->volume_wl = NULL;
		st->nvolume_wl = 0;
	}
	return ret;
}

/* volume v's workload in step s from the step's entry own (NULL: none), checked at its path */
static int s_check_volume_step(struct bc_check *c, const struct bc_profile *p, int v, int s,
			       const struct bc_wl_override *own, bool many)
{
	char base[BC_CHECK_PATH_LEN];
	struct bc_workload wl = p->steps[s].wl;
	size_t used;
	int ret;

	snprintf(base, sizeof(base), "volumes[%d].workload", v);
	ret = p->volumes[v].workload ? s_apply(c, p->volumes[v].workload, base, &wl) : 0;
	if (!ret && own) {
		if (many)
			snprintf(base, sizeof(base), "steps[%d].volume_workloads.%d[%d]", s, v,
				 own->run);
		else
			snprintf(base, sizeof(base), "steps[%d].volume_workloads.%d", s, v);
		ret = s_apply(c, own, base, &wl);
	}
	if (ret && c->err && c->errlen) {
		used = strlen(c->err);
		snprintf(c->err + used, c->errlen - used, " (in step \"%s\")", p->steps[s].name);
	}
	return ret;
}

int bc_check_volume_steps(struct bc_check *c, const struct bc_profile *p)
{
	const struct bc_step *st;
	int v, s, i, ret, runs;
	bool any;

	for (v = 0; v < p->nvolumes; v++) {
		for (s = 0; s < p->nsteps; s++) {
			st = &p->steps[s];
			runs = bc_step_volume_runs(st, v);
			any = false;
			for (i = 0; i < st->nvolume_wl; i++) {
				if (st->volume_wl[i].volume != v || st->volume_wl[i].idle)
					continue;
				any = true;
				ret = s_check_volume_step(c, p, v, s, &st->volume_wl[i], runs > 1);
				if (ret)
					return ret;
			}
			if (!any && p->volumes[v].workload) {
				ret = s_check_volume_step(c, p, v, s, NULL, false);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}
