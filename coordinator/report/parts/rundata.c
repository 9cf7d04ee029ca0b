/*
 * report/parts/rundata.c - a run directory loaded for the writers: run.json (or the
 * caller's tree), profile.json, the devices each agent opened (its first
 * READY in events.jsonl), and the volumes' series from seconds.bin.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg/secfile.h"
#include "report/parts/rundata.h"
#include "results/fullsize.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rjson.h"

const struct bc_report_level bc_report_levels[4] = {
    {"total", "total"}, {"agents", "agent"}, {"nodes", "node"}, {"volumes", "volume"}};

bool bc_report_whole(const struct bc_report *r, int lvl, int n)
{
	if (lvl == 1)
		return n <= (r->full_agents ? r->full_agents : bc_full_limit(BC_LVL_AGENT));
	if (lvl == 3)
		return n <= (r->full_volumes ? r->full_volumes : bc_full_limit(BC_LVL_VOLUME));
	return true;
}

bool bc_report_summarised(const struct bc_report *r)
{
	return !bc_report_whole(r, 1, cJSON_GetArraySize(bc_rj(r->profile, "agents"))) ||
	       !bc_report_whole(r, 3, cJSON_GetArraySize(bc_rj(r->profile, "volumes")));
}

/*
 * The profile's volumes of one agent, in the order the agent got them: the
 * first at or after v (a cursor, so an agent's volumes cost one walk of the
 * list, not one each: 16,000 volumes made that 256 million compares)
 */
static const cJSON *s_profile_volume(const cJSON *v, const char *agent)
{
	for (; v; v = v->next)
		if (!strcmp(bc_rj_str("", v, "agent"), agent))
			return v;
	return NULL;
}

static cJSON *s_device(const char *path, const cJSON *src)
{
	static const char *const keys[] = {"kind", "size", "lbs", "pbs", "nvme"};
	cJSON *d = cJSON_CreateObject();
	size_t i;

	cJSON_AddStringToObject(d, "path", path);
	cJSON_AddStringToObject(d, "resolved",
				bc_rj_str(bc_rj_str("", src, "path"), src, "resolved"));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *v = bc_rj(src, keys[i]);

		if (v)
			cJSON_AddItemToObject(d, keys[i], cJSON_Duplicate(v, 1));
	}
	return d;
}

/*
 * The first "ready" record of events.jsonl (of step index step, or of any
 * when step < 0): every agent that answered that PREPARE, with its volumes
 * as opened. Only lines that mention it are parsed and the scan stops
 * there, so a long log of STATS records costs one read of its head.
 * Caller owns the result; NULL when there is none.
 */
static cJSON *s_ready(const char *dir, int step)
{
	char path[BC_PATH_MAX + 32];
	char *line = NULL;
	size_t cap = 0;
	cJSON *ev = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (!ev && getline(&line, &cap, f) > 0)
		if (strstr(line, "\"event\":\"ready\"")) {
			ev = bc_json_parse(line, strlen(line));
			if (step >= 0 && bc_rj_num(ev, "step") != step) {
				cJSON_Delete(ev);
				ev = NULL;
			}
		}
	free(line);
	fclose(f);
	return ev;
}

static void s_add_devices(struct bc_report *r, const char *agent, const cJSON *ready)
{
	const cJSON *v, *vols = bc_rj(r->profile, "volumes");
	const cJSON *pv = s_profile_volume(vols ? vols->child : NULL, agent);
	cJSON *list;

	if (cJSON_GetObjectItemCaseSensitive(r->devices, agent))
		return;
	list = cJSON_AddArrayToObject(r->devices, agent);
	cJSON_ArrayForEach(v, bc_rj(ready, "volumes"))
	{
		cJSON_AddItemToArray(list,
				     s_device(bc_rj_str(bc_rj_str("?", v, "path"), pv, "path"), v));
		pv = pv ? s_profile_volume(pv->next, agent) : NULL;
	}
}

/*
 * Devices in the agents' order: as each agent opened them (READY), or for
 * agents that never got that far, what HELLO said about their paths.
 */
static void s_devices(struct bc_report *r, int step)
{
	cJSON *ev = s_ready(r->dir, step);
	const cJSON *a, *p;

	cJSON_ArrayForEach(a, bc_rj(r->run, "agents"))
	{
		const char *name = bc_rj_str(NULL, a, "name");
		cJSON *list;

		if (!name)
			continue;
		if (bc_rj(ev, "agents", name)) {
			s_add_devices(r, name, bc_rj(ev, "agents", name));
			continue;
		}
		if (!bc_rj(a, "hello", "paths"))
			continue;
		list = cJSON_AddArrayToObject(r->devices, name);
		cJSON_ArrayForEach(p, bc_rj(a, "hello", "paths"))
		    cJSON_AddItemToArray(list, s_device(bc_rj_str("?", p, "path"), p));
	}
	/* a run.json written before its agent list still shows what READY saw */
	cJSON_ArrayForEach(a, bc_rj(ev, "agents")) s_add_devices(r, a->string, a);
	cJSON_Delete(ev);
}

/*
 * seconds.bin, and a cursor: volume names repeat, so a volume of run.json
 * is matched by walking its step's volumes[] in order (bc_secr_next); the
 * writers ask for them in that order, and the cursor makes that O(1) each.
 * Agents and nodes likewise (their names are unique: the walk is the same).
 */
struct bc_report_secf {
	struct bc_secr r;
	const cJSON *st, *e; /* the entity found last, of step st */
	int lvl;	     /* its level */
	int i;		     /* its index in seconds.bin */
};

static const char *const s_lvl_keys[BC_LVL_TOTAL] = {"volumes", "agents", "nodes"};

/* seconds.bin when some volume of some step has its series only there */
static void s_secf_open(struct bc_report *r)
{
	char path[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128];
	const cJSON *st, *e;
	bool need = false;
	int lvl;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		if (!bc_rj(st, "seconds_bin_step"))
			continue;
		for (lvl = 0; lvl < BC_LVL_TOTAL && !need; lvl++)
			cJSON_ArrayForEach(e, bc_rj(st, s_lvl_keys[lvl])) need |=
			    !bc_rj(e, "series");
		if (need)
			break;
	}
	if (!need || !(r->secf = calloc(1, sizeof(*r->secf))))
		return;
	snprintf(path, sizeof(path), "%s/%s", r->dir, BC_SECF_NAME);
	if (bc_secr_open(&r->secf->r, path, false, err, sizeof(err))) {
		bc_warn("the per-second figures of volumes, agents and nodes are left out of the "
			"reports: %s",
			err);
		free(r->secf);
		r->secf = NULL;
	}
}

/* entity e of level lvl of step st (ordinal ord): its index in seconds.bin, -1 when none */
static int s_secf_entity(struct bc_report_secf *c, const cJSON *st, uint32_t ord, int lvl,
			 const cJSON *e)
{
	const cJSON *x = bc_rj(st, s_lvl_keys[lvl])->child;
	int i = -1;

	if (c->st == st && c->lvl == lvl && c->e && c->e->next == e) {
		x = e;
		i = c->i;
	} else if (c->st == st && c->lvl == lvl && c->e == e) {
		return c->i;
	}
	for (; x; x = x->next) {
		i = bc_secr_next(&c->r, ord, lvl, i + 1, bc_rj_str("", x, "name"));
		if (i < 0 || x == e)
			break;
	}
	c->st = st;
	c->lvl = lvl;
	c->e = i >= 0 ? e : NULL;
	c->i = i;
	return i;
}

/*
 * the level of entity e of step st: the array of st it is in, -1 for none
 * (the total). The writers walk an array in order: the cursor's entity or
 * the one after it answers at once, the array's first starts a walk.
 */
static int s_level_of(const struct bc_report_secf *c, const cJSON *st, const cJSON *e)
{
	const cJSON *x;
	int lvl;

	if (c->st == st && c->e && (c->e == e || c->e->next == e))
		return c->lvl;
	for (lvl = 0; lvl < BC_LVL_TOTAL; lvl++)
		if (bc_rj(st, s_lvl_keys[lvl]) && bc_rj(st, s_lvl_keys[lvl])->child == e)
			return lvl;
	for (lvl = 0; lvl < BC_LVL_TOTAL; lvl++)
		cJSON_ArrayForEach(x, bc_rj(st, s_lvl_keys[lvl])) if (x == e) return lvl;
	return -1;
}

const cJSON *bc_report_series(const struct bc_report *r, const cJSON *st, const cJSON *e,
			      cJSON **tmp)
{
	const cJSON *ser = bc_rj(e, "series"), *ord = bc_rj(st, "seconds_bin_step");
	uint32_t k, n = (uint32_t)fmax(0, bc_rj_num(st, "seconds"));
	struct bc_secrow *rows;
	int i, lvl;

	*tmp = NULL;
	if (ser || !r->secf || !cJSON_IsNumber(ord))
		return ser;
	lvl = s_level_of(r->secf, st, e);
	if (lvl < 0)
		return NULL;
	i = s_secf_entity(r->secf, st, (uint32_t)ord->valuedouble, lvl, e);
	rows = i >= 0 ? calloc(n + 1, sizeof(*rows)) : NULL;
	if (!rows)
		return NULL;
	for (k = 0; k < n; k++)
		bc_secr_row(&r->secf->r, (uint32_t)ord->valuedouble, k, lvl, i, &rows[k]);
	*tmp = bc_secrow_series_json(rows, 1, n, NULL);
	free(rows);
	return *tmp;
}

int bc_rundata_load(struct bc_report *r, const char *dir, cJSON *run, char *err, size_t errlen)
{
	char ignore[256];

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->run_borrowed = run != NULL;
	r->run = run ? run : bc_rj_read_file(dir, "run.json", err, errlen);
	if (!r->run)
		return -ENOENT;
	if (!cJSON_IsObject(r->run)) {
		snprintf(err, errlen, "'%s/run.json' is not a JSON object", dir);
		bc_rundata_free(r);
		return -EINVAL;
	}
	/* a run that failed before its profile was resolved still has a report */
	r->profile = bc_rj_read_file(dir, "profile.json", ignore, sizeof(ignore));
	r->devices = cJSON_CreateObject();
	s_devices(r, -1);
	r->vdbench = !strcmp(bc_rj_str("", r->run, "format"), "vdbench");
	s_secf_open(r);
	if (!r->devices) {
		snprintf(err, errlen, "out of memory");
		bc_rundata_free(r);
		return -ENOMEM;
	}
	return 0;
}

void bc_rundata_free(struct bc_report *r)
{
	if (!r->run_borrowed)
		cJSON_Delete(r->run);
	cJSON_Delete(r->profile);
	cJSON_Delete(r->devices);
	if (r->secf) {
		bc_secr_close(&r->secf->r);
		free(r->secf);
	}
	memset(r, 0, sizeof(*r));
}

void bc_report_devices_of_step(struct bc_report *r, int step)
{
	cJSON_Delete(r->devices);
	r->devices = cJSON_CreateObject();
	s_devices(r, step);
}
