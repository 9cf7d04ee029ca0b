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

#include <sys/stat.h>

#include "agg/secfile.h"
#include "report/parts/rundata.h"
#include "results/fullsize.h"
#include "util/base64.h"
#include "results/long/minutes.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/hist.h"
#include "wire/stats.h"

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
	bool minutes = bc_long_step(n);
	struct bc_secrow *rows;
	int i, lvl;

	*tmp = NULL;
	/* a long step is read per minute (results/long/minutes.h) */
	if (minutes && bc_rj(e, "minutes"))
		return bc_rj(e, "minutes");
	if (ser || !r->secf || !cJSON_IsNumber(ord))
		return ser;
	lvl = s_level_of(r->secf, st, e);
	if (lvl < 0)
		return NULL;
	i = s_secf_entity(r->secf, st, (uint32_t)ord->valuedouble, lvl, e);
	if (minutes) {
		*tmp = i >= 0 ? bc_minutes_entity_json(&r->secf->r, (uint32_t)ord->valuedouble, lvl,
						       i, n, NULL)
			      : NULL;
		return *tmp;
	}
	rows = i >= 0 ? calloc(n + 1, sizeof(*rows)) : NULL;
	if (!rows)
		return NULL;
	for (k = 0; k < n; k++)
		bc_secr_row(&r->secf->r, (uint32_t)ord->valuedouble, k, lvl, i, &rows[k]);
	*tmp = bc_secrow_series_json(rows, 1, n, NULL);
	free(rows);
	return *tmp;
}

/* a heatmap from at most this much events.jsonl; beyond it the report says so */
#define S_EVENTS_MAX (512ull << 20)

int bc_lat_bin(double us)
{
	int b = (int)floor(log10(us / BC_LAT_LO_US) * BC_LAT_BINS_DECADE);

	return b < 0 ? 0 : b >= BC_LAT_BINS ? BC_LAT_BINS - 1 : b;
}

double bc_lat_bin_lo(int b)
{
	return BC_LAT_LO_US * pow(10, (double)b / BC_LAT_BINS_DECADE);
}

/* ---- per-second histograms for the heatmaps: seconds.bin, else events.jsonl ---- */

static int s_step_index(const cJSON *run, const char *name)
{
	const cJSON *st;
	int i = 0;

	cJSON_ArrayForEach(st, bc_rj(run, "steps"))
	{
		if (!strcmp(bc_rj_str("", st, "name"), name))
			return i;
		i++;
	}
	return -1;
}

static void s_heat_size(struct bc_heat_step *h, int seconds)
{
	h->seconds = seconds;
	h->g = (seconds + BC_HEAT_COLS - 1) / BC_HEAT_COLS;
	if (h->g < 1)
		h->g = 1;
	h->cols = (seconds + h->g - 1) / h->g;
}

static void s_heat_add_pairs(struct bc_heat_step *h, int op, int sec, const cJSON *pairs)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, pairs)
	{
		double idx = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 0));
		double n = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 1));

		if (!(idx >= 0 && idx < BC_HIST_BUCKETS && n > 0))
			continue;
		h->cnt[op][(sec / h->g) * BC_LAT_BINS +
			   bc_lat_bin((double)bc_hist_bucket_mid((unsigned)idx) / 1e3)] += n;
		h->total[op] += n;
	}
}

static void s_heat_add_hist(struct bc_heat_step *h, int op, int sec, const struct bc_hist *hist)
{
	unsigned i;

	if (!hist->count)
		return;
	for (i = 0; i < BC_HIST_BUCKETS; i++)
		if (hist->buckets[i]) {
			h->cnt[op][(sec / h->g) * BC_LAT_BINS +
				   bc_lat_bin((double)bc_hist_bucket_mid(i) / 1e3)] +=
			    (double)hist->buckets[i];
			h->total[op] += (double)hist->buckets[i];
		}
}

/* a compact record: the agent's binary STATS body (docs/protocol.md) */
static void s_heat_compact(struct bc_heat_step *h, const char *b64, struct bc_volstat *vs,
			   uint32_t cap)
{
	size_t n = strlen(b64);
	uint8_t *body = malloc(n / 4 * 3 + 4);
	struct bc_stats_hdr hdr;
	long len;
	uint32_t v;

	if (!body)
		return;
	len = bc_base64_decode(body, b64, n);
	for (v = 0; v < cap; v++)
		bc_volstat_reset(&vs[v]);
	if (len > 0 && !bc_stats_decode(body, (size_t)len, &hdr, vs, cap) &&
	    hdr.second < (uint32_t)h->seconds)
		for (v = 0; v < hdr.nvol && v < cap; v++) {
			s_heat_add_hist(h, 0, (int)hdr.second, &vs[v].op[BC_OP_READ].hist);
			s_heat_add_hist(h, 1, (int)hdr.second, &vs[v].op[BC_OP_WRITE].hist);
		}
	free(body);
}

/*
 * The same from seconds.bin: the total's merged histogram of each second,
 * one frame per second instead of parsing every record of events.jsonl
 * (66 MB for 320 volumes x 40 s). Records that came after their second
 * closed are in the total's counters but not its per-second histogram,
 * so not here either. false when the file cannot serve every step.
 */
static bool s_heat_secfile(struct bc_heat *ht, const struct bc_report *r)
{
	char path[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128];
	struct bc_hist *hs = NULL;
	struct bc_secr sr;
	const cJSON *st;
	int i = 0, k;

	/* a step that ran without seconds.bin (a run before it): events.jsonl for all */
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		if (bc_rj_num(st, "seconds") > 0 && bc_rj_num(st, "start_ns") > 0 &&
		    !bc_rj(st, "seconds_bin_step"))
			return false;
	}
	snprintf(path, sizeof(path), "%s/%s", r->dir, BC_SECF_NAME);
	if (bc_secr_open(&sr, path, false, err, sizeof(err)))
		return false;
	hs = malloc(BC_OP_NR * sizeof(*hs));
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		struct bc_heat_step *h = &ht->st[i++];
		const cJSON *ord = bc_rj(st, "seconds_bin_step");

		s_heat_size(h, (int)bc_rj_num(st, "seconds"));
		for (k = 0; k < 2 && h->seconds > 0; k++)
			h->cnt[k] = calloc((size_t)h->cols * BC_LAT_BINS, sizeof(double));
		for (k = 0; hs && ord && h->cnt[0] && h->cnt[1] && k < h->seconds; k++) {
			if (bc_secr_hist(&sr, (uint32_t)ord->valuedouble, (uint32_t)k, BC_LVL_TOTAL,
					 0, hs))
				continue;
			s_heat_add_hist(h, 0, k, &hs[BC_OP_READ]);
			s_heat_add_hist(h, 1, k, &hs[BC_OP_WRITE]);
		}
	}
	free(hs);
	bc_secr_close(&sr);
	return true;
}

static struct bc_heat *s_heat_load(const struct bc_report *r)
{
	struct bc_heat *ht = calloc(1, sizeof(*ht));
	int cur = -1, k, i = 0, step_no = -1;
	char path[BC_PATH_MAX + 32], *line = NULL;
	struct bc_volstat *vs = NULL;
	uint32_t cap = (uint32_t)cJSON_GetArraySize(bc_rj(r->profile, "volumes"));
	size_t lcap = 0;
	const cJSON *st;
	struct stat sb;
	FILE *f;

	if (!ht)
		return NULL;
	ht->nsteps = cJSON_GetArraySize(bc_rj(r->run, "steps"));
	ht->st = calloc((size_t)ht->nsteps + 1, sizeof(*ht->st));
	if (ht->st && s_heat_secfile(ht, r))
		return ht;
	snprintf(path, sizeof(path), "%s/events.jsonl", r->dir);
	if (!ht->st || stat(path, &sb) || !(f = fopen(path, "r"))) {
		snprintf(ht->note, sizeof(ht->note), "no heatmap: events.jsonl is not readable");
		return ht;
	}
	if ((unsigned long long)sb.st_size > S_EVENTS_MAX) {
		snprintf(ht->note, sizeof(ht->note),
			 "no heatmap: events.jsonl is %.0f MiB (read up to %llu MiB)",
			 (double)sb.st_size / 1048576, S_EVENTS_MAX >> 20);
		fclose(f);
		return ht;
	}
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		s_heat_size(&ht->st[i], (int)bc_rj_num(st, "seconds"));
		for (k = 0; k < 2 && ht->st[i].seconds > 0; k++)
			ht->st[i].cnt[k] =
			    calloc((size_t)ht->st[i].cols * BC_LAT_BINS, sizeof(double));
		i++;
	}
	while (getline(&line, &lcap, f) > 0) {
		cJSON *ev;
		const char *e;

		/* only step starts and STATS records matter; skip the rest unparsed */
		if (!strstr(line, "\"step_start\"") && !strstr(line, "\"stats\""))
			continue;
		ev = cJSON_Parse(line);
		e = bc_rj_str("", ev, "event");
		if (!strcmp(e, "step_start")) {
			cur = s_step_index(r->run, bc_rj_str("", ev, "name"));
			step_no = (int)bc_rj_num(ev, "step");
		} else if (!strcmp(e, "stats") && cur >= 0 &&
			   (int)bc_rj_num(ev, "step") == step_no) {
			struct bc_heat_step *h = &ht->st[cur];
			double sec = bc_rj_num(ev, "second");
			const char *b64 = bc_rj_str(NULL, ev, "body_b64");
			const cJSON *v;

			if (!h->cnt[0] || !h->cnt[1] || sec < 0 || sec >= h->seconds) {
				cJSON_Delete(ev);
				continue;
			}
			if (b64 && !vs && cap)
				vs = calloc(cap, sizeof(*vs));
			if (b64 && vs)
				s_heat_compact(h, b64, vs, cap);
			cJSON_ArrayForEach(v, bc_rj(ev, "volumes"))
			{
				s_heat_add_pairs(h, 0, (int)sec, bc_rj(v, "read", "hist"));
				s_heat_add_pairs(h, 1, (int)sec, bc_rj(v, "write", "hist"));
			}
		}
		cJSON_Delete(ev);
	}
	free(line);
	free(vs);
	fclose(f);
	return ht;
}

static void s_heat_free(struct bc_heat *ht)
{
	int i;

	if (!ht)
		return;
	for (i = 0; ht->st && i < ht->nsteps; i++) {
		free(ht->st[i].cnt[0]);
		free(ht->st[i].cnt[1]);
	}
	free(ht->st);
	free(ht);
}

int bc_rundata_heat(struct bc_report *r)
{
	if (!r->heat)
		r->heat = s_heat_load(r);
	return r->heat ? 0 : -ENOMEM;
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
	s_heat_free(r->heat);
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
