/*
 * run/rebuild.c - run.json rebuilt from events.jsonl, for a run whose
 * coordinator died (kill -9, power loss) before writing it, or wrote it
 * mid-step. events.jsonl holds every record in the order it arrived -
 * a line naming its STATS body in records.bin (the binary form, the
 * default), the record with its sparse histograms (json), or its body in
 * base64 (compact) - so the same aggregation code that runs live
 * (agg.c, results.c, checks.c) replays them into the same figures. The
 * replay is serial: records in file order, as the live run took them.
 * A replayed step that never saw every agent's STEP_DONE is marked
 * "incomplete", and so is the run when events.jsonl has no run_end.
 * `bench-coord report DIR` calls this when run.json is missing or says
 * "running", or with --rebuild.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/pool.h"
#include "agg/secfile.h"
#include "agg/volnode.h"
#include "counters/counters.h"
#include "fleet/fleet.h"
#include "results/fidelity.h"
#include "results/hostsamples.h"
#include "results/files/reclog.h"
#include "results/results.h"
#include "results/runjson.h"
#include "results/verdict.h"
#include "run/experiment.h"
#include "run/rebuild.h"
#include "util/base64.h"
#include "util/json.h"
#include "util/log.h"
#include "wire/varint.h"

struct s_replay {
	struct bc_profile *prof;
	struct bc_conn *conns; /* one per agent: index and volume mapping, no socket */
	cJSON *run;	       /* the run.json being rebuilt */
	cJSON *steps;
	struct bc_step_result res;
	struct bc_step step; /* the step (or sweep point) being replayed, as it ran */
	int step_idx;	     /* its profile step */
	bool in_step;
	bool user_stopped; /* a step_stopped event: the steps after it did not run, by choice */
	cJSON *sweep;	   /* a "sweep" event for the step being replayed, owned */
	bool *lost;	   /* [nagents]: lost under "continue", out of every later step */
	uint8_t *body;	   /* a compact record's STATS body, decoded */
	cJSON *ready;	   /* the latest "ready" event's READY bodies, for the step that follows */
	size_t body_cap;
	struct bc_volnode *volnode; /* volume to node, as "volume_node" events decided it */
	struct bc_secw *secw;	    /* seconds.bin written again, as the live run wrote it */
	uint32_t secw_steps;
	const char *dir;
	struct bc_reclogr rec; /* records.bin, opened at the first line naming a record */
	bool rec_open, rec_tried;
	/*
	 * bc_rebuild_window: every step's measured window is seconds
	 * [win_from_s, win_to_s) instead of its ramp to its end
	 */
	bool windowed;
	uint32_t win_from_s, win_to_s;
	uint8_t *relabel; /* a compact record's body with its second made BC_STATS_DRAIN */
	size_t relabel_cap;
	/* bc_rebuild_resume: the end of records.bin's last frame a line names */
	uint64_t rec_end;
	bool ended; /* a run_end event: the run finished */
	/* the step being replayed as a resumed coordinator would re-attach to it */
	cJSON *open_step; /* its step_start event */
	uint32_t *held;	  /* [nagents]: 1 + its newest second in */
	bool *drained, *done;
	uint64_t last_ns;
	/*
	 * bc_rebuild_open_step: the profile to replay with (not loaded, not
	 * freed), no output written, and the step the log ends in kept open
	 */
	struct bc_profile *given;
	struct bc_open_step *keep;
	/*
	 * the node counters' samples ("node_scrape" events) replayed into
	 * them (counters/counters.h): a step the log ends in without its
	 * node_counters event gets them from there; own: made here, freed here
	 */
	struct bc_counters *counters;
	bool own_counters, scraped;
};

static int s_conns(struct s_replay *r)
{
	const struct bc_profile *p = r->prof;
	int i, v;

	r->conns = calloc((size_t)p->nagents, sizeof(*r->conns));
	if (!r->conns)
		return -ENOMEM;
	for (i = 0; i < p->nagents; i++) {
		struct bc_conn *c = &r->conns[i];

		c->spec = &p->agents[i];
		c->index = i;
		snprintf(c->endpoint, sizeof(c->endpoint), "%s", p->agents[i].endpoint);
		c->vols = calloc((size_t)p->nvolumes + 1, sizeof(int));
		if (!c->vols)
			return -ENOMEM;
		for (v = 0; v < p->nvolumes; v++)
			if (p->volumes[v].agent == i)
				c->vols[c->nvols++] = v;
	}
	return 0;
}

static struct bc_conn *s_conn(struct s_replay *r, const char *name)
{
	int i;

	for (i = 0; name && i < r->prof->nagents; i++)
		if (!strcmp(r->prof->agents[i].name, name))
			return &r->conns[i];
	return NULL;
}

static double s_num(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* a counter or timestamp, exactly (util/json.h); 0 when absent */
static uint64_t s_u64(const cJSON *o, const char *k)
{
	return bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(o, k));
}

/*
 * The window as the step's ramp and runtime: the aggregation's measured
 * window is [ramp, ramp + runtime), so its figures at every level are the
 * window's, from the same code as a live run. Clipped to the step's
 * seconds (a shorter step has a shorter or empty window).
 */
static void s_window_step(struct s_replay *r)
{
	struct bc_workload *wl = &r->step.wl;
	uint32_t len = wl->ramp_s + wl->runtime_s;
	uint32_t from = r->win_from_s < len ? r->win_from_s : len;
	uint32_t to = r->win_to_s < len ? r->win_to_s : len;

	wl->ramp_s = from;
	wl->runtime_s = to - from;
}

/*
 * A record of a second after the window counts as the drain interval
 * does: in the all-intervals totals (which the agents' STEP_DONE totals
 * are checked against), in no second and no window.
 */
static bool s_after_window(const struct s_replay *r, uint32_t second)
{
	return r->windowed && second != BC_STATS_DRAIN && second >= r->res.agg.seconds;
}

/*
 * body[0..*len) with its header's second replaced by BC_STATS_DRAIN (the
 * header is varints, wire/stats.h: the rest is copied as it is); the copy
 * in r->relabel, its length in *len. 0 or -errno.
 */
static int s_relabel_drain(struct s_replay *r, const uint8_t *body, size_t *len)
{
	uint64_t v[4];
	size_t off = 1, n, out = 1, need;
	int i;

	for (i = 0; i < 4; i++) {
		n = off < *len ? bc_varint_get(body + off, *len - off, &v[i]) : 0;
		if (!n)
			return -EBADMSG;
		off += n;
	}
	v[1] = BC_STATS_DRAIN;
	need = 1 + 4 * 10 + (*len - off);
	if (need > r->relabel_cap) {
		free(r->relabel);
		r->relabel = malloc(need);
		r->relabel_cap = r->relabel ? need : 0;
		if (!r->relabel)
			return -ENOMEM;
	}
	r->relabel[0] = body[0];
	for (i = 0; i < 4; i++)
		out += bc_varint_put(r->relabel + out, need - out, v[i]);
	memcpy(r->relabel + out, body + off, *len - off);
	*len = out + (*len - off);
	return 0;
}

/*
 * A sweep point's entry as the live run writes it (steprun.c): which sweep
 * and point ("<step>@<param>=<label>"), and on the last point the sweep's
 * table and analysis from its "sweep" event.
 */
static void s_sweep_point(struct s_replay *r, cJSON *sj)
{
	const struct bc_step *ps = &r->prof->steps[r->step_idx];
	const char *at = strchr(r->step.name, '@'), *eq = at ? strchr(at, '=') : NULL;

	if (!ps->sweep)
		return;
	cJSON_AddStringToObject(sj, "sweep_of", ps->name);
	cJSON_AddStringToObject(sj, "sweep_point", eq ? eq + 1 : "-");
	if (!r->sweep)
		return;
	cJSON_DeleteItemFromObject(sj, "analysis");
	cJSON_AddItemToObject(sj, "sweep", cJSON_DetachItemFromObject(r->sweep, "sweep"));
	if (cJSON_GetObjectItem(r->sweep, "analysis"))
		cJSON_AddItemToObject(sj, "analysis",
				      cJSON_DetachItemFromObject(r->sweep, "analysis"));
	cJSON_Delete(r->sweep);
	r->sweep = NULL;
}

void bc_rebuild_mark_interrupted(cJSON *sj)
{
	char why[160];

	if (cJSON_GetObjectItemCaseSensitive(sj, "interrupted"))
		return;
	snprintf(why, sizeof(why),
		 "the coordinator stopped after %.0f measured second(s); the run resumed "
		 "(bench-coord run --resume) and ran this step again as the next entry",
		 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sj, "measured_seconds")));
	cJSON_AddStringToObject(sj, "interrupted", why);
}

/*
 * finish the step being replayed: close its seconds and append its JSON;
 * resumed: the run went on after it (a run_resume event), so a step left
 * incomplete was interrupted by the coordinator's end, and ran again
 */
static void s_end_step_as(struct s_replay *r, bool resumed)
{
	struct bc_step_result *res = &r->res;
	uint32_t k;
	int i, done = 0, lost = cJSON_GetArraySize(res->lost), out = 0;
	bool interrupted;
	cJSON *sj;

	if (!r->in_step)
		return;
	for (k = 0; k < res->agg.seconds; k++)
		bc_agg_close_second(&res->agg, k);
	bc_agg_finish(&res->agg); /* as the live run: the windows whole (no workers here) */
	for (i = 0; i < r->prof->nagents; i++) {
		done += cJSON_HasObjectItem(res->agent_totals, r->prof->agents[i].name);
		out += bc_result_agent_out(res, i);
	}
	/*
	 * as the live run does for a step that finished: its window trimmed,
	 * then its status (which asks whether it measured the storage)
	 */
	if (!strcmp(res->status, "running") && done + lost + out == r->prof->nagents) {
		bc_result_trim_size_based(res);
		/*
		 * a step a resumed coordinator re-attached to (run/reattach.c)
		 * whose live end left no verdict in the log: its verdict from its
		 * records here, as stepexec.c's s_finish_counters makes it
		 */
		if (res->gaps && !res->analysis) {
			res->analysis = bc_verdict_step(NULL, res);
			bc_fidelity_verdict(bc_result_fidelity(res), res->analysis);
		}
		res->status = bc_fidelity_status(res);
	} else if (!strcmp(res->status, "running")) {
		res->status = "incomplete";
	}
	interrupted = !strcmp(res->status, "incomplete");
	/* no node_counters event (the coordinator died in the step): its samples, as logged */
	if (!res->node_counters && r->scraped) {
		bc_counters_step_end(r->counters, res->agg.seconds);
		res->node_counters = bc_counters_step_json(r->counters);
	}
	bc_result_hosts_settle(res);
	bc_agg_secfile_end(&res->agg);
	sj = bc_result_step_json(res);
	cJSON_AddItemToArray(r->steps, sj);
	if (interrupted && resumed)
		bc_rebuild_mark_interrupted(sj);
	s_sweep_point(r, sj);
	/* an FDP experiment's step: mode, phase, iteration from its name (experiment.c) */
	bc_experiment_annotate(cJSON_GetArrayItem(r->steps, cJSON_GetArraySize(r->steps) - 1),
			       &r->prof->steps[r->step_idx], &r->step);
	bc_step_result_free(res);
	r->in_step = false;
	cJSON_Delete(r->open_step);
	r->open_step = NULL;
}

static void s_end_step(struct s_replay *r)
{
	s_end_step_as(r, false);
}

static int s_step_start(struct s_replay *r, const cJSON *ev)
{
	int idx = (int)s_num(ev, "step"), rc;
	const char *ename;

	s_end_step(r);
	if (idx < 0 || idx >= r->prof->nsteps)
		return -ERANGE;
	r->step = r->prof->steps[idx];
	r->step_idx = idx;
	r->step.sweep = NULL;
	r->step.experiment = NULL;
	if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ev, "name")))
		snprintf(r->step.name, sizeof(r->step.name), "%s",
			 cJSON_GetObjectItemCaseSensitive(ev, "name")->valuestring);
	if (cJSON_GetObjectItemCaseSensitive(ev, "workload")) {
		char e[256];

		if (bc_workload_from_json(cJSON_GetObjectItemCaseSensitive(ev, "workload"),
					  &r->step.wl, e, sizeof(e)))
			return -EINVAL;
	}
	if (r->windowed)
		s_window_step(r);
	r->res.step = &r->step;
	r->res.status = "running";
	r->res.out = calloc((size_t)r->prof->nagents + 1, sizeof(bool));
	if (!r->res.out)
		return -ENOMEM;
	memcpy(r->res.out, r->lost, (size_t)r->prof->nagents * sizeof(bool));
	r->res.start_ns = s_u64(ev, "start_ns");
	r->res.agent_totals = cJSON_CreateObject();
	/* READY's backing and layout (fidelity.c), as the live run kept them */
	r->res.ready = r->ready ? r->ready : cJSON_CreateObject();
	r->ready = NULL;
	r->res.clock = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "clock"), 1);
	r->in_step = true;
	cJSON_Delete(r->open_step);
	r->open_step = cJSON_Duplicate(ev, 1);
	memset(r->held, 0, (size_t)r->prof->nagents * sizeof(*r->held));
	memset(r->drained, 0, (size_t)r->prof->nagents * sizeof(*r->drained));
	memset(r->done, 0, (size_t)r->prof->nagents * sizeof(*r->done));
	rc = bc_agg_init(&r->res.agg, r->prof, r->res.step);
	r->res.agg.volnode = r->volnode;
	r->scraped = false;
	if (!rc && !r->windowed)
		bc_counters_step_replay(r->counters, r->res.start_ns, r->res.agg.seconds,
					r->step.wl.ramp_s);
	/* in seconds.bin like the live run's: a step that started (not one PREPARE failed) */
	ename = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "event"));
	if (!rc && r->secw && ename && !strcmp(ename, "step_start"))
		rc = bc_agg_secfile_begin(&r->res.agg, r->secw, r->secw_steps++, idx, r->step.name);
	return rc;
}

/* a volume's node decided at READY (stepexec.c): the step after it aggregates by it */
static int s_volume_node(struct s_replay *r, const cJSON *ev)
{
	const char *node = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "node"));
	const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "node_source"));
	int v = (int)s_num(ev, "volume"), i;

	if (!r->volnode || v < 0 || v >= r->prof->nvolumes)
		return -ERANGE;
	r->volnode[v].node = -1;
	for (i = 0; node && i < r->prof->nnodes; i++)
		if (!strcmp(r->prof->nodes[i].name, node))
			r->volnode[v].node = i;
	snprintf(r->volnode[v].why, sizeof(r->volnode[v].why), "%s", why ? why : "");
	return 0;
}

/* one op of one volume of a "stats" event back into counters and histogram */
static int s_op(struct bc_opstat *s, const cJSON *js)
{
	const cJSON *pair;

	s->ios = s_u64(js, "ios");
	s->bytes = s_u64(js, "bytes");
	s->errors = s_u64(js, "errors");
	s->short_ios = s_u64(js, "short");
	s->lat_sum_ns = s_u64(js, "lat_sum_ns");
	if (s->ios)
		s->lat_min_ns = s_u64(js, "lat_min_ns");
	s->lat_max_ns = s_u64(js, "lat_max_ns");
	/* written only when set: absent is 0, not NaN cast to int */
	s->first_errno =
	    (int32_t)bc_json_i64_of(cJSON_GetObjectItemCaseSensitive(js, "first_errno"));
	cJSON_ArrayForEach(pair, cJSON_GetObjectItemCaseSensitive(js, "hist"))
	{
		double bi = cJSON_GetNumberValue(cJSON_GetArrayItem(pair, 0));
		uint64_t n;

		if (!(bi >= 0 && bi < BC_HIST_BUCKETS) ||
		    !bc_json_get_u64(cJSON_GetArrayItem(pair, 1), &n))
			return -EINVAL;
		s->hist.buckets[(unsigned)bi] += n;
		s->hist.count += n;
	}
	return 0;
}

/*
 * c's record of second k is in: when c did I/O in k, a size-based window
 * reaches past k (the total's second holds c's), and the host samples
 * waiting for that count now rather than at the step's end
 */
static int s_io_hint(struct s_replay *r, const struct bc_conn *c, uint32_t k, int rc)
{
	const struct bc_agg *g = &r->res.agg;
	const struct bc_secrow *row;
	uint64_t n;
	int op;

	if (rc || !r->res.hosts || k >= g->seconds)
		return rc;
	row = bc_entity_row(&g->ent[BC_LVL_AGENT][c->index], k);
	n = row->errors + row->short_ios;
	for (op = 0; op < BC_OP_NR; op++)
		n += row->ios[op];
	if (n)
		bc_hostsamples_io_second(r->res.hosts, k);
	return 0;
}

/*
 * a STATS body as the agent sent it (compact or records.bin), added as live;
 * with a window, a record of a second after it counts like the drain's
 */
static int s_add_body(struct s_replay *r, struct bc_conn *c, const uint8_t *body, size_t len)
{
	struct bc_stats_hdr h;
	int rc;

	if (r->windowed && !bc_stats_decode_hdr(body, len, &h) && s_after_window(r, h.second)) {
		size_t rl = len;

		rc = s_relabel_drain(r, body, &rl);

		return rc ? rc : bc_agg_add(&r->res.agg, c, r->relabel, rl, &h);
	}
	rc = bc_agg_add(&r->res.agg, c, body, len, &h);
	return s_io_hint(r, c, h.second, rc);
}

/* a compact "stats" event: the STATS body as the agent sent it, added as live */
static int s_stats_compact(struct s_replay *r, struct bc_conn *c, const char *b64)
{
	size_t n = strlen(b64);
	long len;

	if (n / 4 * 3 > r->body_cap) {
		free(r->body);
		r->body_cap = n / 4 * 3;
		r->body = malloc(r->body_cap);
		if (!r->body) {
			r->body_cap = 0;
			return -ENOMEM;
		}
	}
	len = bc_base64_decode(r->body, b64, n);
	if (len < 0)
		return (int)len;
	return s_add_body(r, c, r->body, (size_t)len);
}

/*
 * a binary form's "stats" event: the STATS body is the frame of records.bin
 * at "rec", added as live; a frame the file does not hold whole (cut short
 * by a crash) is skipped like a line cut short
 */
static int s_stats_rec(struct s_replay *r, struct bc_conn *c, const cJSON *off)
{
	struct bc_reclog_rec rec;
	int rc;

	if (!r->rec_tried) {
		char path[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128];

		r->rec_tried = true;
		snprintf(path, sizeof(path), "%s/%s", r->dir, BC_RECLOG_NAME);
		r->rec_open = !bc_reclogr_open(&r->rec, path, err, sizeof(err));
		if (!r->rec_open)
			bc_warn("%s: its records are left out", err);
	}
	rc = r->rec_open ? bc_reclogr_get(&r->rec, bc_json_u64_of(off), &rec) : -ENOENT;
	if (!rc && strcmp(rec.agent, c->spec->name))
		rc = -EBADMSG;
	if (rc)
		return rc;
	if (rec.next > r->rec_end)
		r->rec_end = rec.next;
	return s_add_body(r, c, rec.body, rec.len);
}

static int s_stats_add(struct s_replay *r, const cJSON *ev)
{
	struct bc_conn *c = s_conn(r, cJSON_GetStringValue(cJSON_GetObjectItem(ev, "agent")));
	struct bc_agg *g = &r->res.agg;
	struct bc_stats_hdr h = {0};
	const cJSON *v;
	const char *b64 = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "body_b64"));
	double sec = s_num(ev, "second");
	int i, o, rc;

	if (!c || !r->in_step)
		return -EINVAL;
	if (b64)
		return s_stats_compact(r, c, b64);
	if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(ev, "rec")))
		return s_stats_rec(r, c, cJSON_GetObjectItemCaseSensitive(ev, "rec"));
	for (i = 0; i < c->nvols; i++)
		bc_volstat_reset(&g->scratch[i]);
	h.second = sec < 0 ? BC_STATS_DRAIN : (uint32_t)sec;
	if (s_after_window(r, h.second))
		h.second = BC_STATS_DRAIN;
	h.flags = (uint32_t)s_num(ev, "flags");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(ev, "volumes"))
	{
		int gv = (int)s_num(v, "volume"), lv = -1;

		for (i = 0; i < c->nvols; i++)
			if (c->vols[i] == gv)
				lv = i;
		if (lv < 0)
			return -ERANGE;
		for (o = 0; o < BC_OP_NR; o++) {
			const cJSON *js = cJSON_GetObjectItemCaseSensitive(v, bc_op_names[o]);

			rc = js ? s_op(&g->scratch[lv].op[o], js) : 0;
			if (rc)
				return rc;
		}
	}
	rc = bc_agg_add_decoded(g, c, &h);
	return s_io_hint(r, c, h.second, rc);
}

/* a "stats" event added; what the log holds of each agent's step, for a resume */
static int s_stats(struct s_replay *r, const cJSON *ev)
{
	struct bc_conn *c = s_conn(r, cJSON_GetStringValue(cJSON_GetObjectItem(ev, "agent")));
	double sec = s_num(ev, "second");
	int rc = s_stats_add(r, ev);

	if (rc || !c)
		return rc;
	if (sec < 0)
		r->drained[c->index] = true;
	else if ((uint32_t)sec + 1 > r->held[c->index])
		r->held[c->index] = (uint32_t)sec + 1;
	return 0;
}

/*
 * "second_closed": the live run closed seconds up to this one here, in the
 * log's order, so the replay closes them at the same point: a record that
 * came after is late as it was live, and the seconds behind leave memory as
 * they did (each open second holds its nodes' and total's histograms, and
 * a day-long step's rows would otherwise stay until its end)
 */
static void s_second_closed(struct s_replay *r, const cJSON *ev)
{
	struct bc_agg *g = &r->res.agg;
	double k = s_num(ev, "second");

	if ((int)s_num(ev, "step") != r->step_idx || !(k >= 0) || k >= g->seconds)
		return;
	while (g->closed <= (uint32_t)k)
		bc_agg_close_second(g, g->closed);
	bc_agg_rows_ahead(g);
}

static void s_step_done(struct s_replay *r, const cJSON *ev)
{
	cJSON *body = cJSON_Duplicate(ev, 1);
	struct bc_conn *c = s_conn(r, cJSON_GetStringValue(cJSON_GetObjectItem(ev, "agent")));

	if (c)
		r->done[c->index] = true;
	cJSON_DeleteItemFromObject(body, "event");
	cJSON_DeleteItemFromObject(body, "time_ns");
	cJSON_DeleteItemFromObject(body, "agent");
	cJSON_AddItemToObject(r->res.agent_totals,
			      cJSON_GetStringValue(cJSON_GetObjectItem(ev, "agent")), body);
}

/* an agent's host counters of one second, as stepexec.c keeps them */
static void s_host(struct s_replay *r, const cJSON *ev)
{
	const char *agent = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "agent"));
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(ev, "host");
	int a;

	if (!agent || !host || (r->windowed && s_num(ev, "second") >= r->res.agg.seconds))
		return;
	for (a = 0; a < r->prof->nagents && strcmp(r->prof->agents[a].name, agent); a++)
		;
	if (a < r->prof->nagents)
		(void)bc_result_host_sample(&r->res, a, s_num(ev, "second"), host);
}

/* a step's lost_agents or rejoined_agents entry: its event without the event's own keys */
static void s_entry_from_event(cJSON **list, const cJSON *ev)
{
	cJSON *e = cJSON_Duplicate(ev, 1);

	if (!*list)
		*list = cJSON_CreateArray();
	cJSON_DeleteItemFromObject(e, "event");
	cJSON_DeleteItemFromObject(e, "time_ns");
	cJSON_DeleteItemFromObject(e, "step");
	cJSON_AddItemToArray(*list, e);
}

void bc_rebuild_resume_note(cJSON *run, const cJSON *ev)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(run, "resumed"), *e = cJSON_Duplicate(ev, 1);

	if (!arr)
		arr = cJSON_AddArrayToObject(run, "resumed");
	cJSON_DeleteItemFromObject(e, "event");
	cJSON_DeleteItemFromObject(e, "time_ns");
	cJSON_AddItemToArray(arr, e);
}

static void s_resume_note(cJSON *run, const cJSON *ev)
{
	bc_rebuild_resume_note(run, ev);
}

static int s_event(struct s_replay *r, cJSON *ev)
{
	const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "event"));

	if (!type)
		return -EINVAL;
	if (r->in_step)
		r->last_ns = s_u64(ev, "time_ns");
	if (!strcmp(type, "run_start")) {
		bc_json_add_u64(r->run, "started_ns", s_u64(ev, "time_ns"));
		if (cJSON_IsString(cJSON_GetObjectItem(ev, "started")))
			cJSON_AddStringToObject(r->run, "started",
						cJSON_GetObjectItem(ev, "started")->valuestring);
		/* --format vdbench: summary.md carries the interval table */
		if (cJSON_IsString(cJSON_GetObjectItem(ev, "format")))
			cJSON_AddStringToObject(r->run, "format",
						cJSON_GetObjectItem(ev, "format")->valuestring);
	} else if (!strcmp(type, "agents")) {
		cJSON_ReplaceItemInObject(
		    r->run, "agents",
		    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "agents"), 1));
	} else if (!strcmp(type, "step_start")) {
		return s_step_start(r, ev);
	} else if (!strcmp(type, "volume_node")) {
		return s_volume_node(r, ev);
	} else if (!strcmp(type, "ready")) {
		cJSON_Delete(r->ready);
		r->ready = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "agents"), 1);
	} else if (!strcmp(type, "stats")) {
		return s_stats(r, ev);
	} else if (!strcmp(type, "second_closed") && r->in_step) {
		s_second_closed(r, ev);
	} else if (!strcmp(type, "step_done") && r->in_step) {
		s_step_done(r, ev);
	} else if (!strcmp(type, "host") && r->in_step) {
		s_host(r, ev);
	} else if (!strcmp(type, "clock_end") && r->in_step) {
		cJSON_Delete(r->res.clock_end);
		r->res.clock_end =
		    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "agents"), 1);
	} else if (!strcmp(type, "node_scrape") && r->in_step) {
		/* a node counter sample as it was taken (counters/counters.h) */
		if (!r->windowed && !bc_counters_sample(r->counters, ev))
			r->scraped = true;
	} else if (!strcmp(type, "node_counters") && r->in_step) {
		cJSON_Delete(r->res.node_counters);
		r->res.node_counters =
		    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "nodes"), 1);
	} else if ((!strcmp(type, "analysis") || !strcmp(type, "sweep")) && r->windowed) {
		/* made from the points' whole windows: they would contradict this window's */
		return 0;
	} else if (!strcmp(type, "analysis") && r->in_step) {
		cJSON_Delete(r->res.analysis);
		r->res.analysis =
		    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "analysis"), 1);
	} else if (!strcmp(type, "step_stopped") && r->in_step) {
		/* the user ended a step that runs until stopped: its seconds end there */
		uint32_t k = (uint32_t)s_num(ev, "seconds");

		if (k && k < r->res.agg.seconds)
			r->res.agg.seconds = k;
		r->res.stopped_s = k;
		r->user_stopped = true;
	} else if (!strcmp(type, "step_bytes_reached") && r->in_step) {
		/* a step with stop_bytes whose volumes moved that much: it ended there */
		uint32_t k = (uint32_t)s_num(ev, "seconds");

		if (k && k < r->res.agg.seconds)
			r->res.agg.seconds = k;
		r->res.bytes_stopped_s = k;
	} else if (!strcmp(type, "step_steady") && r->in_step) {
		/* stop_steady judged: reached (the step ended there) or not by its end */
		bc_steady_from_event(&r->res.steady, ev);
		if (r->res.steady.reached && r->res.steady.end_s &&
		    r->res.steady.end_s < r->res.agg.seconds)
			r->res.agg.seconds = r->res.steady.end_s;
	} else if (!strcmp(type, "agent_lost") && r->in_step) {
		struct bc_conn *c =
		    s_conn(r, cJSON_GetStringValue(cJSON_GetObjectItem(ev, "name")));

		if (c && r->prof->on_agent_loss != BC_LOSS_ABORT)
			r->lost[c->index] = true;
		/* as stepexec.c keeps it: {name, from_second, reason} */
		s_entry_from_event(&r->res.lost, ev);
	} else if (!strcmp(type, "agent_rejoined") && r->in_step) {
		/* {name, reason, version, pid} */
		s_entry_from_event(&r->res.rejoined, ev);
	} else if (!strcmp(type, "coordinator_gap") && r->in_step) {
		/* a resumed coordinator re-attached: the step goes on (run/reattach.c) */
		s_entry_from_event(&r->res.gaps, ev);
	} else if (!strcmp(type, "error")) {
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "message"));
		const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "status"));
		int rc;

		/* a step that failed before it started (PREPARE): its entry from here */
		if (cJSON_IsNumber(cJSON_GetObjectItem(ev, "step")) &&
		    (!r->in_step || (int)s_num(ev, "step") != r->step_idx ||
		     (cJSON_IsString(cJSON_GetObjectItem(ev, "name")) &&
		      strcmp(r->step.name, cJSON_GetObjectItem(ev, "name")->valuestring)))) {
			rc = s_step_start(r, ev);
			if (rc)
				return rc;
			r->res.start_ns = 0;
		}
		if (r->in_step) {
			r->res.status = st && !strcmp(st, "aborted")	   ? "aborted"
					: st && !strcmp(st, "not started") ? "not started"
									   : "failed";
			snprintf(r->res.error, sizeof(r->res.error), "%s", msg ? msg : "?");
		}
		/* the run's error is its first (the steps after it say "not started: ..."); the
		 * steps the user's stop left out are none */
		if (!cJSON_GetObjectItem(r->run, "error") &&
		    !(r->user_stopped && st && !strcmp(st, "not started")))
			cJSON_AddStringToObject(r->run, "error", msg ? msg : "?");
	} else if (!strcmp(type, "sweep") && r->in_step) {
		cJSON_Delete(r->sweep);
		r->sweep = cJSON_Duplicate(ev, 1);
	} else if (!strcmp(type, "run_resume")) {
		/* a new coordinator took the run on (bench-coord run --resume): see s_resume */
		s_end_step_as(r, true);
		memset(r->lost, 0, (size_t)r->prof->nagents * sizeof(bool));
		r->ended = false;
		s_resume_note(r->run, ev);
	} else if (!strcmp(type, "run_end")) {
		r->ended = true;
		s_end_step(r);
		if (cJSON_IsString(cJSON_GetObjectItem(ev, "finished")))
			cJSON_AddStringToObject(r->run, "finished",
						cJSON_GetObjectItem(ev, "finished")->valuestring);
		cJSON_ReplaceItemInObject(
		    r->run, "status",
		    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "status"), 1));
	}
	return 0;
}

/*
 * bc_rebuild_open_step's end: the step the log ends in handed over as it
 * stands, its seconds closed as far as the dead coordinator closed them
 */
static int s_keep_open(struct s_replay *r, char *err, size_t errlen)
{
	struct bc_open_step *k = r->keep;

	if (!r->in_step || !r->open_step) {
		snprintf(err, errlen, "%s: the log ends in no step", r->dir);
		return -ENOENT;
	}
	k->step = malloc(sizeof(*k->step));
	if (!k->step)
		return -ENOMEM;
	*k->step = r->step;
	k->res = r->res;
	k->res.step = k->step;
	k->volnode = r->volnode;
	memset(&r->res, 0, sizeof(r->res));
	r->volnode = NULL;
	r->in_step = false;
	return 0;
}

/*
 * The replay of dir/events.jsonl into out/run.json and out/seconds.bin;
 * r comes with its window set (or not), everything else zero.
 */
static int s_rebuild(struct s_replay *rp, const char *dir, const char *out,
		     struct bc_resume *resume, char *err, size_t errlen)
{
	char path[BC_PATH_MAX + 32], secf[BC_PATH_MAX + 32] = "", *line = NULL;
	struct s_replay r = *rp;
	uint64_t events_end = 0;
	size_t cap = 0;
	long bad = 0;
	FILE *f = NULL;
	int rc, i;

	snprintf(path, sizeof(path), "%s/profile.json", dir);
	rc = r.given ? 0 : bc_profile_load(path, &r.prof, err, errlen);
	if (rc)
		goto out;
	r.dir = dir;
	rc = s_conns(&r);
	if (!rc && !(r.volnode = bc_volnode_new(r.prof)))
		rc = -ENOMEM;
	if (!rc && !(r.lost = calloc((size_t)r.prof->nagents + 1, sizeof(bool))))
		rc = -ENOMEM;
	if (!rc && !r.counters && r.prof->nnodes) {
		r.counters = bc_counters_new(r.prof, err, errlen);
		r.own_counters = true;
		rc = r.counters ? 0 : -EINVAL;
	}
	if (!rc && (!(r.held = calloc((size_t)r.prof->nagents + 1, sizeof(*r.held))) ||
		    !(r.drained = calloc((size_t)r.prof->nagents + 1, sizeof(bool))) ||
		    !(r.done = calloc((size_t)r.prof->nagents + 1, sizeof(bool)))))
		rc = -ENOMEM;
	if (rc)
		goto out;
	r.run = cJSON_CreateObject();
	cJSON_AddStringToObject(r.run, "tool", "bench-coord " BC_VERSION);
	cJSON_AddStringToObject(r.run, "profile", r.prof->name);
	cJSON_AddStringToObject(r.run, "status", "incomplete");
	cJSON_AddStringToObject(r.run, "rebuilt_from", "events.jsonl");
	if (r.windowed) {
		cJSON *w = cJSON_AddObjectToObject(r.run, "window");

		/* seconds [from, to) of every step, as `report --window` was asked */
		cJSON_AddNumberToObject(w, "from_second", r.win_from_s);
		if (r.win_to_s == UINT32_MAX) /* "A-": to each step's end */
			cJSON_AddNullToObject(w, "to_second");
		else
			cJSON_AddNumberToObject(w, "to_second", r.win_to_s);
		cJSON_AddStringToObject(w, "run_dir", dir);
	}
	cJSON_AddItemToObject(r.run, "agents", cJSON_CreateArray());
	r.steps = cJSON_AddArrayToObject(r.run, "steps");
	/* seconds.bin beside the old one until run.json is written from it */
	if (out)
		snprintf(secf, sizeof(secf), "%s/%s.tmp", out, BC_SECF_NAME);
	rc = out ? bc_secw_open(&r.secw, secf, err, errlen) : 0;
	if (rc)
		goto out;
	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	f = fopen(path, "r");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	for (;;) {
		ssize_t n = getline(&line, &cap, f);
		cJSON *ev;

		if (n <= 0)
			break;
		/* a line cut short by the crash is expected at the end: count, skip */
		ev = bc_json_parse(line, strlen(line));
		if (!ev || s_event(&r, ev))
			bad++;
		cJSON_Delete(ev);
		if (line[n - 1] == '\n')
			events_end += (uint64_t)n;
		else
			break; /* the crash's: what follows the last whole line goes */
	}
	/* the step the log ends in, as a resumed coordinator finds it */
	if (resume && r.in_step && r.open_step) {
		resume->open_step = cJSON_Duplicate(r.open_step, 1);
		resume->held = r.held;
		resume->drained = r.drained;
		resume->done = r.done;
		resume->last_ns = r.last_ns;
		r.held = NULL;
		r.drained = r.done = NULL;
	}
	if (r.keep) {
		rc = s_keep_open(&r, err, errlen);
		goto out;
	}
	s_end_step(&r);
	bc_experiment_summarize_all(r.steps, r.prof);
	cJSON_AddNumberToObject(r.run, "events_skipped", (double)bad);
	/* resumed: seconds.bin stays open for the steps the new coordinator runs */
	rc = resume ? bc_secw_flush(r.secw) : bc_secw_close(r.secw);
	if (!resume)
		r.secw = NULL;
	snprintf(path, sizeof(path), "%s/%s", out, BC_SECF_NAME);
	if (rc || rename(secf, path)) {
		rc = rc ? rc : -errno;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-rc));
		goto out;
	}
	rc = bc_runjson_write(out, r.run, path);
	if (rc)
		snprintf(err, errlen, "cannot write '%s/run.json': %s", out, strerror(-rc));
	if (!rc && resume) {
		resume->run = r.run;
		resume->secw = r.secw;
		resume->secw_steps = r.secw_steps;
		resume->events_end = events_end;
		resume->records_end = r.rec_end;
		resume->ended = r.ended;
		r.run = NULL;
		r.secw = NULL;
	}
out:
	if (f)
		fclose(f);
	free(line);
	if (r.in_step)
		s_end_step(&r);
	if (r.secw) {
		bc_secw_close(r.secw);
		unlink(secf);
	}
	for (i = 0; r.conns && i < r.prof->nagents; i++)
		free(r.conns[i].vols);
	free(r.conns);
	free(r.body);
	if (r.rec_open)
		bc_reclogr_close(&r.rec);
	free(r.relabel);
	free(r.volnode);
	cJSON_Delete(r.sweep);
	cJSON_Delete(r.ready);
	free(r.lost);
	free(r.held);
	free(r.drained);
	free(r.done);
	cJSON_Delete(r.open_step);
	cJSON_Delete(r.run);
	if (r.own_counters)
		bc_counters_destroy(&r.counters);
	if (r.given)
		r.prof = NULL;
	bc_profile_destroy(&r.prof);
	return rc;
}

int bc_rebuild_from_events(const char *dir, char *err, size_t errlen)
{
	struct s_replay r = {0};

	return s_rebuild(&r, dir, dir, NULL, err, errlen);
}

int bc_rebuild_window(const char *dir, const char *out, uint32_t from_s, uint32_t to_s, char *err,
		      size_t errlen)
{
	struct s_replay r = {.windowed = true, .win_from_s = from_s, .win_to_s = to_s};

	if (from_s >= to_s) {
		snprintf(err, errlen, "window %u-%u: the end must be after the start", from_s,
			 to_s);
		return -EINVAL;
	}
	return s_rebuild(&r, dir, out, NULL, err, errlen);
}

int bc_rebuild_resume(const char *dir, struct bc_resume *out, char *err, size_t errlen)
{
	struct s_replay r = {0};
	int rc;

	memset(out, 0, sizeof(*out));
	rc = s_rebuild(&r, dir, dir, out, err, errlen);
	if (rc)
		bc_resume_free(out);
	return rc;
}

int bc_rebuild_open_step(const char *dir, struct bc_profile *p, struct bc_counters *counters,
			 struct bc_open_step *out, char *err, size_t errlen)
{
	struct s_replay r = {.given = p, .keep = out, .counters = counters};

	memset(out, 0, sizeof(*out));
	r.prof = p;
	return s_rebuild(&r, dir, NULL, NULL, err, errlen);
}

void bc_open_step_free(struct bc_open_step *o)
{
	bc_step_result_free(&o->res);
	free(o->step);
	free(o->volnode);
	memset(o, 0, sizeof(*o));
}

void bc_resume_free(struct bc_resume *res)
{
	cJSON_Delete(res->open_step);
	free(res->held);
	free(res->drained);
	free(res->done);
	res->open_step = NULL;
	res->held = NULL;
	res->drained = res->done = NULL;
}
