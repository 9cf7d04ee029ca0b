/*
 * profile/volume/fdp.c - a volume's "fdp" key: {"pids": [0, 1, 2], "policy":
 * "fixed" | "round-robin" | "random"}, parsed the same way by the
 * coordinator (profile check) and the agent (PREPARE), see docs/nvme.md.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile/value/keys.h"
#include "profile/volume/fdp.h"

const char *bc_fdp_policy_name(enum bc_fdp_policy p)
{
	switch (p) {
	case BC_FDP_NONE:
		return "none";
	case BC_FDP_FIXED:
		return "fixed";
	case BC_FDP_ROUND_ROBIN:
		return "round-robin";
	case BC_FDP_RANDOM:
		return "random";
	}
	return "unknown";
}

int bc_fdp_spec_from_json(const cJSON *o, const char *base, struct bc_fdp_spec *f, char *err,
			  size_t errlen)
{
	static const char *const keys[] = {"pids", "policy", NULL};
	const cJSON *pids, *pol, *it;
	char path[160];
	int n = 0;

	memset(f, 0, sizeof(*f));
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen,
			 "%s.fdp: expected an object {\"pids\": [...], \"policy\": ...}", base);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s.fdp", base);
	if (bc_keys_known(o, path, keys, err, errlen))
		return -EINVAL;
	pids = cJSON_GetObjectItemCaseSensitive(o, "pids");
	if (cJSON_IsString(pids) && !strcmp(pids->valuestring, "all")) {
		f->all = true;
		n = 2; /* a list: round-robin by default, never "fixed" */
		pids = NULL;
	} else if (!cJSON_IsArray(pids) || !cJSON_GetArraySize(pids) ||
		   cJSON_GetArraySize(pids) > BC_FDP_PIDS_MAX) {
		snprintf(err, errlen,
			 "%s.fdp.pids: expected \"all\" or an array of 1 to %d placement indexes",
			 base, BC_FDP_PIDS_MAX);
		return -EINVAL;
	}
	cJSON_ArrayForEach(it, pids)
	{
		if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 65535 ||
		    it->valuedouble != (double)(int)it->valuedouble) {
			snprintf(err, errlen, "%s.fdp.pids[%d]: expected an integer 0..65535", base,
				 n);
			return -EINVAL;
		}
		f->pids[n++] = (uint16_t)it->valuedouble;
	}
	f->npids = f->all ? 0 : n;
	pol = cJSON_GetObjectItemCaseSensitive(o, "policy");
	if (!pol)
		f->policy = n == 1 ? BC_FDP_FIXED : BC_FDP_ROUND_ROBIN;
	else if (cJSON_IsString(pol) && !strcmp(pol->valuestring, "fixed"))
		f->policy = BC_FDP_FIXED;
	else if (cJSON_IsString(pol) && !strcmp(pol->valuestring, "round-robin"))
		f->policy = BC_FDP_ROUND_ROBIN;
	else if (cJSON_IsString(pol) && !strcmp(pol->valuestring, "random"))
		f->policy = BC_FDP_RANDOM;
	else {
		snprintf(err, errlen,
			 "%s.fdp.policy: expected \"fixed\", \"round-robin\" or \"random\"", base);
		return -EINVAL;
	}
	if (f->policy == BC_FDP_FIXED && f->all) {
		snprintf(err, errlen, "%s.fdp: policy \"fixed\" takes exactly one pid, not \"all\"",
			 base);
		return -EINVAL;
	}
	if (f->policy == BC_FDP_FIXED && n != 1) {
		snprintf(err, errlen, "%s.fdp: policy \"fixed\" takes exactly one pid, got %d",
			 base, n);
		return -EINVAL;
	}
	return 0;
}

cJSON *bc_fdp_spec_to_json(const struct bc_fdp_spec *f)
{
	cJSON *o, *arr;
	int i;

	if (f->policy == BC_FDP_NONE)
		return NULL;
	o = cJSON_CreateObject();
	if (!o)
		return NULL;
	if (f->all) {
		cJSON_AddStringToObject(o, "pids", "all");
		arr = NULL;
	} else {
		arr = cJSON_AddArrayToObject(o, "pids");
	}
	for (i = 0; arr && i < f->npids; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(f->pids[i]));
	cJSON_AddStringToObject(o, "policy", bc_fdp_policy_name(f->policy));
	return o;
}
