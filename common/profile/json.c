/*
 * profile/json.c - the resolved profile (every default applied) as JSON
 * for reports and "show"; a workload's own JSON is profile/workload/json.c. The
 * resolved profile is itself a valid profile, so it parses back to the same
 * thing.
 */
#include <errno.h>
#include <stdio.h>

#include "profile/expect.h"
#include "profile/profile.h"

static cJSON *s_agent(const struct bc_agent_spec *a)
{
	cJSON *j = cJSON_CreateObject();

	if (j && (!cJSON_AddStringToObject(j, "name", a->name) ||
		  !cJSON_AddStringToObject(j, "endpoint", a->endpoint) ||
		  (a->server_key[0] && !cJSON_AddStringToObject(j, "server_key", a->server_key)))) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

/* the node as given; a profile built in code may have no JSON, only a name */
static cJSON *s_node(const struct bc_node_spec *nd)
{
	cJSON *j;

	if (nd->json)
		return cJSON_Duplicate(nd->json, true);
	j = cJSON_CreateObject();
	if (j && !cJSON_AddStringToObject(j, "name", nd->name)) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

static cJSON *s_volume(const struct bc_profile *p, const struct bc_volume_spec *v)
{
	cJSON *j = cJSON_CreateObject();
	bool ok;

	ok = j && cJSON_AddStringToObject(j, "agent", p->agents[v->agent].name) &&
	     (v->nvme_tcp.set
		  ? cJSON_AddItemToObject(j, "nvme_tcp", bc_nvme_tcp_vol_to_json(&v->nvme_tcp))
		  : cJSON_AddStringToObject(j, "path", v->path) != NULL) &&
	     cJSON_AddNumberToObject(j, "size", (double)v->size_bytes) &&
	     cJSON_AddNumberToObject(j, "offset", (double)v->offset_bytes) &&
	     cJSON_AddNumberToObject(j, "length", (double)v->length_bytes);
	if (ok && v->node >= 0)
		ok = cJSON_AddStringToObject(j, "node", p->nodes[v->node].name);
	if (ok && v->destructive)
		ok = cJSON_AddBoolToObject(j, "destructive", true) != NULL;
	if (ok && !v->layout)
		ok = cJSON_AddBoolToObject(j, "layout", false) != NULL;
	/* overrides as written: they resolve per step, against each step's workload */
	if (ok && v->workload_json)
		ok = cJSON_AddItemToObject(j, "workload", cJSON_Duplicate(v->workload_json, true));
	if (ok && v->fdp.policy != BC_FDP_NONE)
		ok = cJSON_AddItemToObject(j, "fdp", bc_fdp_spec_to_json(&v->fdp));
	if (ok && v->sim.enabled) /* a simulated SSD, every default applied (docs/sim.md) */
		ok = cJSON_AddItemToObject(j, "sim", bc_sim_spec_to_json(&v->sim));
	if (ok && v->fileset.enabled) /* a tree of files, every default applied */
		ok = cJSON_AddItemToObject(j, "fileset", bc_fileset_spec_to_json(&v->fileset));
	if (!ok) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

static cJSON *s_step(const struct bc_step *st)
{
	cJSON *j = cJSON_CreateObject();
	char name[BC_NAME_MAX];

	/* a repeated step once, with its "repeat", so the file parses back to the same steps */
	if (!bc_step_repeat_of(st->name, name, sizeof(name), NULL) || st->nrep <= 1)
		snprintf(name, sizeof(name), "%s", st->name);
	if (j &&
	    (!cJSON_AddStringToObject(j, "name", name) || !bc_workload_add_json(j, &st->wl) ||
	     (st->sweep && !cJSON_AddItemToObject(j, "sweep", cJSON_Duplicate(st->sweep, true))) ||
	     (st->experiment &&
	      !cJSON_AddItemToObject(j, "experiment", cJSON_Duplicate(st->experiment, true))) ||
	     (st->volume_workloads &&
	      !cJSON_AddItemToObject(j, "volume_workloads",
				     cJSON_Duplicate(st->volume_workloads, true))) ||
	     (st->nrep > 1 && !cJSON_AddNumberToObject(j, "repeat", st->nrep)) ||
	     (st->format.set &&
	      !cJSON_AddItemToObject(j, "format", bc_format_spec_to_json(&st->format))))) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

/* adds it to arr, or frees it; false when either is missing */
static bool s_append(cJSON *arr, cJSON *it)
{
	if (arr && it && cJSON_AddItemToArray(arr, it))
		return true;
	cJSON_Delete(it);
	return false;
}

cJSON *bc_profile_to_json(const struct bc_profile *p)
{
	cJSON *j = cJSON_CreateObject(), *agents = NULL, *nodes = NULL, *vols = NULL, *steps = NULL;
	bool ok;
	int i;

	ok = j && cJSON_AddStringToObject(j, "name", p->name);
	if (ok) {
		agents = cJSON_AddArrayToObject(j, "agents");
		nodes = cJSON_AddArrayToObject(j, "nodes");
		vols = cJSON_AddArrayToObject(j, "volumes");
		steps = cJSON_AddArrayToObject(j, "steps");
	}
	for (i = 0; ok && i < p->nagents; i++)
		ok = s_append(agents, s_agent(&p->agents[i]));
	for (i = 0; ok && i < p->nnodes; i++)
		ok = s_append(nodes, s_node(&p->nodes[i]));
	for (i = 0; ok && i < p->nvolumes; i++)
		ok = s_append(vols, s_volume(p, &p->volumes[i]));
	for (i = 0; ok && i < p->nsteps; i++)
		if (p->steps[i].rep <= 1)
			ok = s_append(steps, s_step(&p->steps[i]));
	/* absent rather than empty, so a profile without criteria reads back unchanged */
	if (ok && p->nexpects)
		ok = cJSON_AddItemToObject(j, "expect", bc_profile_expect_json(p));
	if (ok)
		ok = cJSON_AddStringToObject(
			 j, "on_agent_loss",
			 p->on_agent_loss == BC_LOSS_CONTINUE ? "continue" : "abort") != NULL;
	if (ok && p->orphan_grace_s)
		ok = cJSON_AddNumberToObject(j, "orphan_grace", p->orphan_grace_s) != NULL;
	/* an empty list still needs its array */
	if (!ok || !agents || !nodes || !vols || !steps) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}
