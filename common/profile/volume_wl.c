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

	return o && k && (o->given & (1ull << (k - bc_wl_keys)));
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
		if (!(o->given & (1ull << i)))
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
	bc_volume_workload(&st->wl, vol, out);
	bc_wl_override_apply(bc_step_volume_override(st, v), out);
}

bool bc_step_volume_overridden(const struct bc_step *st, const struct bc_volume_spec *vol, int v)
{
	return vol->workload || bc_step_volume_override(st, v);
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
	n = cJSON_GetArraySize(v);
	st->volume_wl = calloc(n ? (size_t)n : 1, sizeof(*st->volume_wl));
	if (!st->volume_wl)
		return -ENOMEM;
	cJSON_ArrayForEach(k, v)
	{
		bc_check_path(kpath, path, k->string);
		idx = s_volume_index(k->string, nvolumes);
		if (idx < 0 || bc_step_volume_override(st, idx))
			ret = bc_check_fail(c, kpath,
					    "expected a volume index 0..%d (once), got \"%s\"",
					    nvolumes - 1, k->string);
		if (!ret)
			ret = s_check_overrides(c, k, kpath, idx, &st->volume_wl[st->nvolume_wl]);
		if (ret)
			break;
		st->nvolume_wl++;
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

int bc_check_volume_steps(struct bc_check *c, const struct bc_profile *p)
{
	char base[BC_CHECK_PATH_LEN];
	const struct bc_wl_override *own;
	struct bc_workload wl;
	size_t used;
	int v, s, ret;

	for (v = 0; v < p->nvolumes; v++) {
		for (s = 0; s < p->nsteps; s++) {
			own = bc_step_volume_override(&p->steps[s], v);
			if (!p->volumes[v].workload && !own)
				continue;
			wl = p->steps[s].wl;
			snprintf(base, sizeof(base), "volumes[%d].workload", v);
			ret = p->volumes[v].workload ? s_apply(c, p->volumes[v].workload, base, &wl)
						     : 0;
			if (!ret && own) {
				snprintf(base, sizeof(base), "steps[%d].volume_workloads.%d", s, v);
				ret = s_apply(c, own, base, &wl);
			}
			if (!ret)
				continue;
			if (c->err && c->errlen) {
				used = strlen(c->err);
				snprintf(c->err + used, c->errlen - used, " (in step \"%s\")",
					 p->steps[s].name);
			}
			return ret;
		}
	}
	return 0;
}
