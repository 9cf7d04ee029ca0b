/*
 * run/stepexec.c - one step across the fleet: PREPARE everywhere, wait for every
 * READY (the barrier), START at one absolute time converted into each
 * agent's clock, then take STATS records as they come, close each second
 * once every agent reported it (or it is overdue) and print its live line,
 * until every agent sent STEP_DONE.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agg/agg.h"
#include "agg/pool.h"
#include "agg/secfile.h"
#include "agg/volnode.h"
#include "counters/counters.h"
#include "fleet/fleet.h"
#include "results/fidelity.h"
#include "results/hostsamples.h"
#include "results/files/outfail.h"
#include "results/results.h"
#include "results/files/rundir.h"
#include "results/files/space.h"
#include "results/verdict.h"
#include "run/drift.h"
#include "run/live.h"
#include "run/metrics.h"
#include "run/stepexec.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/stats.h"

/* lead time between START and interval 0: covers sending START to every agent */
#define S_START_LEAD_MS 300
/*
 * plus this per agent: a START costs ~20 us to build and queue (bench/swarm.sh),
 * so 2 ms leaves a wide margin; 20 ms made a 1,000-agent fleet wait 20 s
 */
#define S_START_PER_AGENT_MS 2
/* a second is printed without its missing agents this long after it ended */
#define S_SECOND_GRACE_MS 2000
/* an agent silent this long during a step is lost (heartbeats are 1/s) */
#define S_SILENCE_S  5
#define S_SILENCE_MS (S_SILENCE_S * 1000)
#define S_SILENT     "silent for " S_STR(S_SILENCE_S) " s"
#define S_STR_(x)    #x
#define S_STR(x)     S_STR_(x)
/* after the last interval, agents have this long to drain and say STEP_DONE */
#define S_DRAIN_MS 30000
/* a second reported this long before it ends can only be a finished size-based pass */
#define S_EARLY_MS 500

cJSON *bc_prepare_body(const struct bc_fleet *f, const struct bc_conn *c, int idx,
		       const struct bc_step *st)
{
	cJSON *b = cJSON_CreateObject(), *vols;
	int i;

	cJSON_AddNumberToObject(b, "step", idx);
	cJSON_AddStringToObject(b, "name", st->name);
	cJSON_AddItemToObject(b, "workload", bc_workload_to_json(&st->wl));
	if (st->format.set) /* Format NVM before the I/O (profile/format.h) */
		cJSON_AddItemToObject(b, "format", bc_format_spec_to_json(&st->format));
	/* the load runs on through this much of our silence (agent/session/orphan.h) */
	if (f->prof->orphan_grace_s)
		cJSON_AddNumberToObject(b, "orphan_grace_ms", f->prof->orphan_grace_s * 1000.0);
	vols = cJSON_AddArrayToObject(b, "volumes");
	for (i = 0; i < c->nvols; i++) {
		const struct bc_volume_spec *v = &f->prof->volumes[c->vols[i]];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", v->path);
		cJSON_AddNumberToObject(o, "size", (double)v->size_bytes);
		/* an experiment's precondition window replaces the volume's own */
		cJSON_AddNumberToObject(o, "offset",
					(double)(st->win_set ? st->win_offset : v->offset_bytes));
		cJSON_AddNumberToObject(o, "length",
					(double)(st->win_set ? st->win_length : v->length_bytes));
		if (v->fdp.policy != BC_FDP_NONE) /* NVMe passthrough placement */
			cJSON_AddItemToObject(o, "fdp", bc_fdp_spec_to_json(&v->fdp));
		if (v->nvme_tcp.set) /* the agent attaches it (docs/nvme.md) */
			cJSON_AddItemToObject(o, "nvme_tcp", bc_nvme_tcp_vol_to_json(&v->nvme_tcp));
		if (v->sim.enabled) /* a simulated SSD's geometry (docs/sim.md) */
			cJSON_AddItemToObject(o, "sim", bc_sim_spec_to_json(&v->sim));
		if (v->fileset.enabled) /* a tree of files the agent builds (docs/profiles.md) */
			cJSON_AddItemToObject(o, "fileset", bc_fileset_spec_to_json(&v->fileset));
		if (!v->layout) /* the agent reads the file as it is (results/fidelity.h warns) */
			cJSON_AddBoolToObject(o, "layout", false);
		if (bc_step_volume_overridden(st, v, c->vols[i])) {
			/* the step's workload with this volume's overrides, in full */
			struct bc_workload vw;

			bc_step_volume_workload(st, v, c->vols[i], &vw);
			cJSON_AddItemToObject(o, "workload", bc_workload_to_json(&vw));
		}
		if (bc_step_volume_runs(st, c->vols[i]) != 1) {
			/* several workloads on the volume at once, or none: each in full */
			cJSON *runs = cJSON_AddArrayToObject(o, "workloads");
			struct bc_workload vw;
			int r;

			for (r = 0; r < bc_step_volume_runs(st, c->vols[i]); r++) {
				bc_step_volume_run_workload(st, v, c->vols[i], r, &vw);
				cJSON_AddItemToArray(runs, bc_workload_to_json(&vw));
			}
		}
		cJSON_AddItemToArray(vols, o);
	}
	/* the agent reports its route to each (STEP_DONE "net_path") */
	vols = cJSON_AddArrayToObject(b, "node_addresses");
	for (i = 0; i < f->prof->nnodes; i++) {
		const cJSON *a;

		cJSON_ArrayForEach(
		    a, cJSON_GetObjectItemCaseSensitive(f->prof->nodes[i].json, "addresses"))
		{
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "node", f->prof->nodes[i].name);
			cJSON_AddStringToObject(o, "address", cJSON_GetStringValue(a));
			cJSON_AddItemToArray(vols, o);
		}
	}
	return b;
}

static void s_agent_error(struct bc_step_result *res, const struct bc_conn *c,
			  const struct bc_msg *m, const char *rerr)
{
	const char *msg =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m->json, "message"));

	if (m->type == BC_MSG_ERROR)
		snprintf(res->error, sizeof(res->error), "agent %s (%s): %s", c->spec->name,
			 c->endpoint, msg ? msg : "error without a message");
	else
		snprintf(res->error, sizeof(res->error), "agent %s (%s): %s%s%s", c->spec->name,
			 c->endpoint, rerr[0] ? rerr : "unexpected ", rerr[0] ? "" : "message ",
			 rerr[0] ? "" : bc_msg_name(m->type));
}

/*
 * READY reports each volume's device, with the NVMe/TCP controller address
 * where it has one: the volume-to-node mapping is completed here, before
 * START, so the per-node aggregation of this step already uses it.
 */
static void s_volnodes_from_ready(struct bc_fleet *f, struct bc_rundir *rd, const struct bc_conn *c,
				  const cJSON *ready)
{
	const cJSON *vols = cJSON_GetObjectItemCaseSensitive(ready, "volumes");
	int i;

	for (i = 0; f->volnode && i < c->nvols && i < cJSON_GetArraySize(vols); i++) {
		int v = c->vols[i];
		cJSON *ev;

		if (!bc_volnode_from_ready(f->prof, f->volnode, v, cJSON_GetArrayItem(vols, i)))
			continue;
		ev = cJSON_CreateObject();
		cJSON_AddNumberToObject(ev, "volume", v);
		cJSON_AddStringToObject(ev, "path", f->prof->volumes[v].path);
		if (f->volnode[v].node >= 0)
			cJSON_AddStringToObject(ev, "node",
						f->prof->nodes[f->volnode[v].node].name);
		cJSON_AddStringToObject(ev, "node_source", f->volnode[v].why);
		bc_rundir_event(rd, "volume_node", ev);
		bc_info("volume %s on agent %s: node %s (%s)", f->prof->volumes[v].path,
			c->spec->name,
			f->volnode[v].node >= 0 ? f->prof->nodes[f->volnode[v].node].name : "none",
			f->volnode[v].why);
	}
}

/*
 * "stop_window_pct" counts against the I/O windows of the volumes the step
 * runs on (vdbench's maxdata= up to 100: a multiple of the size of the sds
 * the rd uses), as each agent laid them out: READY's win_start/win_end
 */
static void s_windows_from_ready(struct bc_step_result *res, const struct bc_conn *c,
				 const cJSON *ready)
{
	const cJSON *vols = cJSON_GetObjectItemCaseSensitive(ready, "volumes");
	int i;

	for (i = 0; i < c->nvols && i < cJSON_GetArraySize(vols); i++) {
		const cJSON *v = cJSON_GetArrayItem(vols, i);
		double s = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, "win_start"));
		double e = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, "win_end"));

		if (bc_step_volume_runs(res->step, c->vols[i]) > 0 && e > s)
			res->ready_window_bytes += (uint64_t)(e - s);
	}
}

static int s_agent_lost(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			struct bc_conn *a, int *pending, const char *why, bool silent);

/*
 * PROGRESS from an agent laying its files out (engine/layout.h): logged, shown
 * (a line per volume when it ends, one per agent and 5 s while it writes),
 * and the READY wait extended - a layout of a large file takes as long as
 * the device needs, and its agent says so every second.
 */
static void s_on_progress(const struct bc_fleet *f, struct bc_rundir *rd, const struct bc_conn *c,
			  const cJSON *body)
{
	bool done = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(body, "done"));
	double el = bc_rj_num(body, "elapsed_s"), sum = 0, all = 0;
	const cJSON *v;
	cJSON *ev = cJSON_Duplicate(body, 1);
	char line[1024];

	cJSON_AddStringToObject(ev, "agent", c->spec->name);
	bc_rundir_event(rd, "layout_progress", ev);
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(body, "volumes"))
	{
		sum += bc_rj_num(v, "done_bytes");
		all += bc_rj_num(v, "bytes");
		if (!done || f->opts->quiet)
			continue;
		snprintf(line, sizeof(line),
			 "layout %s:%s: %.1f MiB written in %.1f s (%s, 1 MiB blocks, before the "
			 "step reads it; not in its figures)",
			 c->spec->name, bc_rj_str("?", v, "path"),
			 bc_rj_num(v, "bytes") / (1 << 20), el,
			 cJSON_IsTrue(bc_rj(v, "direct")) ? "direct" : "buffered");
		bc_live_note(line);
	}
	if (done || f->opts->quiet || (int)el % 5 || el < 1)
		return;
	snprintf(line, sizeof(line), "layout %s: %.0f of %.0f MiB (%.0f%%), %.0f MB/s",
		 c->spec->name, sum / (1 << 20), all / (1 << 20), all > 0 ? 100 * sum / all : 0,
		 el > 0 ? sum / el / 1e6 : 0);
	bc_live_note(line);
}

/* named at PREPARE: a read window not all written data (results/fidelity.h's words) */
static void s_backing_named(const struct bc_fleet *f, const struct bc_step_result *res,
			    const struct bc_conn *c, const cJSON *ready)
{
	const cJSON *v;
	int i = 0;

	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(ready, "volumes"))
	{
		char name[BC_NAME_MAX + BC_PATH_MAX + 2], text[1024];

		if (i >= c->nvols)
			break;
		snprintf(name, sizeof(name), "%s:%s", c->spec->name,
			 f->prof->volumes[c->vols[i++]].path);
		if (cJSON_GetObjectItemCaseSensitive(v, "backing") &&
		    bc_fidelity_backing_text(name, cJSON_GetObjectItemCaseSensitive(v, "backing"),
					     text, sizeof(text)))
			bc_warn("step %s: PREPARE: %s", res->step->name, text);
	}
}

static int s_alive(const struct bc_fleet *f)
{
	return f->n - f->nlost;
}

#define S_REJOIN_WHY "it had no session (restarted, or it ended the session after a silence)"

/*
 * c answered "no session" to this step's PREPARE (or to a heartbeat before
 * it): the agent was restarted between steps, or it ended the session
 * after a silence of this coordinator. Nothing of an earlier step is
 * missing (its STEP_DONE came), so it is HELLOed and PREPAREd again, once
 * per step; the "no session" replies it sent before that HELLO are stale.
 * One after its HELLO_OK is an error. 0 or -errno (res->error set).
 */
static int s_rejoin(struct bc_fleet *f, struct bc_step_result *res, int idx, struct bc_conn *c,
		    const struct bc_msg *m)
{
	cJSON *b;
	int rc;

	if (c->rejoining)
		return 0;
	if (c->rejoined_step == idx + 1) {
		s_agent_error(res, c, m, "");
		return -EIO;
	}
	bc_warn("agent %s (%s): %s: HELLO and PREPARE again", c->spec->name, c->endpoint,
		S_REJOIN_WHY);
	c->rejoining = true;
	c->rejoined_step = idx + 1;
	rc = bc_fleet_hello_one(f, c);
	b = rc ? NULL : bc_prepare_body(f, c, idx, res->step);
	rc = rc ? rc : b ? bc_fleet_send(f, c, BC_MSG_PREPARE, b) : -ENOMEM;
	cJSON_Delete(b);
	if (rc)
		snprintf(res->error, sizeof(res->error), "agent %s (%s): HELLO again failed: %s",
			 c->spec->name, c->endpoint, strerror(-rc));
	return rc;
}

/* its HELLO_OK after s_rejoin: the new session's hello, kept for the step_start's event */
static void s_rejoined(struct bc_step_result *res, struct bc_conn *c, struct bc_msg *m)
{
	cJSON *r = cJSON_CreateObject();

	c->rejoining = false;
	cJSON_Delete(c->hello);
	c->hello = m->json;
	m->json = NULL;
	if (!res->rejoined)
		res->rejoined = cJSON_CreateArray();
	cJSON_AddStringToObject(r, "name", c->spec->name);
	cJSON_AddStringToObject(r, "reason", S_REJOIN_WHY);
	/* the new process (run.json's "agents" keep the one the run began with) */
	cJSON_AddStringToObject(r, "version", bc_rj_str("?", c->hello, "version"));
	cJSON_AddNumberToObject(r, "pid", bc_rj_num(c->hello, "pid"));
	cJSON_AddItemToArray(res->rejoined, r);
	bc_info("agent %s (%s) joined again: bench-agent %s, pid %.0f", c->spec->name, c->endpoint,
		bc_rj_str("?", c->hello, "version"), bc_rj_num(c->hello, "pid"));
}

/*
 * PREPARE to every agent still in the run, and their READY. An agent that
 * does not answer is lost under on_agent_loss "continue" (out of this step
 * and every later one, which are degraded) and fails the step under
 * "abort": one whose connection closed and stayed closed for S_SILENCE_MS
 * (killed between sweep points, its host gone) at once, any other at the
 * PREPARE timeout. A PREPARE may legitimately send nothing for long (the
 * agent lays out its files in its loop), so silence alone is not a loss
 * here, a closed connection is.
 */
static int s_prepare_all(struct bc_fleet *f, struct bc_rundir *rd, int idx,
			 struct bc_step_result *res)
{
	uint64_t deadline = bc_mono_ns() + (uint64_t)f->opts->prepare_timeout_ms * BC_NS_PER_MS;
	uint64_t last_scan = 0;
	int i, pending = 0, rc = 0;
	char why[96];
	cJSON *ev = cJSON_CreateObject(), *agents = cJSON_AddObjectToObject(ev, "agents");

	for (i = 0; i < f->n; i++) {
		cJSON *b;

		f->conns[i].ready = f->conns[i].done = f->conns[i].rejoining = false;
		f->conns[i].stats_next = 0;
		if (f->conns[i].lost)
			continue; /* lost in an earlier step under "continue" */
		pending++;
		b = bc_prepare_body(f, &f->conns[i], idx, res->step);
		bc_fleet_send(f, &f->conns[i], BC_MSG_PREPARE, b);
		cJSON_Delete(b);
	}
	snprintf(why, sizeof(why), "not READY within %.1f s of PREPARE",
		 f->opts->prepare_timeout_ms / 1000.0);
	while (pending) {
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char rerr[256] = "";
		uint64_t now = bc_mono_ns();

		if (zsys_interrupted)
			break;
		if (now >= deadline || now - last_scan >= 100 * BC_NS_PER_MS) {
			last_scan = now;
			for (i = 0; i < f->n && !rc; i++) {
				struct bc_conn *a = &f->conns[i];
				const char *w;

				if (a->ready || a->lost)
					continue;
				w = now >= deadline ? why
				    : bc_fleet_gone(f, a, S_SILENCE_MS)
					? "connection closed during PREPARE"
					: NULL;
				if (!w)
					continue;
				if (f->prof->on_agent_loss == BC_LOSS_ABORT) {
					snprintf(res->error, sizeof(res->error),
						 "agent %s (%s): %s (on_agent_loss: abort)",
						 a->spec->name, a->endpoint, w);
					rc = -EIO;
				} else {
					s_agent_lost(f, rd, res, a, &pending, w, false);
				}
			}
			if (rc || now >= deadline || !pending)
				break;
		}
		bc_fleet_beat(f); /* the READY wait for the slowest PREPARE */
		rc = bc_fleet_recv(f, 100, &c, &m, rerr, sizeof(rerr));
		if (rc == -ETIMEDOUT) {
			rc = 0;
			continue;
		}
		/*
		 * lost (in an earlier step, or in this PREPARE) is out of the run:
		 * restarted, it answers the heartbeats "no session", which must
		 * not HELLO it in again nor count its READY among the pending
		 */
		if (c && c->lost) {
			rc = 0;
			bc_msg_clear(&m);
			continue;
		}
		if (!rc && c && m.type == BC_MSG_PROGRESS && !c->ready) {
			s_on_progress(f, rd, c, m.json);
			/* still writing: the wait runs from its latest word */
			if (deadline < now + (uint64_t)f->opts->prepare_timeout_ms * BC_NS_PER_MS)
				deadline =
				    now + (uint64_t)f->opts->prepare_timeout_ms * BC_NS_PER_MS;
		} else if (!rc && c && m.type == BC_MSG_READY && !c->ready) {
			c->ready = true;
			pending--;
			s_volnodes_from_ready(f, rd, c, m.json);
			s_windows_from_ready(res, c, m.json);
			/* what backs each read window and the layout (fidelity.c) */
			cJSON_AddItemToObject(res->ready, c->spec->name,
					      cJSON_Duplicate(m.json, 1));
			s_backing_named(f, res, c, m.json);
			cJSON_AddItemToObject(agents, c->spec->name, m.json);
			m.json = NULL;
		} else if (!rc && c && !c->ready && bc_msg_is_error(&m, BC_ERR_NO_SESSION)) {
			rc = s_rejoin(f, res, idx, c, &m);
			if (rc) {
				bc_msg_clear(&m);
				break;
			}
		} else if (!rc && c && c->rejoining && m.type == BC_MSG_HELLO_OK) {
			s_rejoined(res, c, &m);
		} else if (c && (rc == -EPROTO || rc == -EBADMSG ||
				 (!rc && m.type != BC_MSG_HEARTBEAT &&
				  m.type != BC_MSG_TIME /* a late clock exchange */))) {
			s_agent_error(res, c, &m, rerr);
			bc_msg_clear(&m);
			break;
		}
		rc = 0;
		bc_msg_clear(&m);
	}
	cJSON_AddNumberToObject(ev, "step", idx);
	bc_rundir_event(rd, "ready", ev);
	if (!pending && !res->error[0] && s_alive(f))
		return 0;
	if (!res->error[0] && zsys_interrupted) {
		/* prepared (perhaps) but never started: the agents are told to drop it */
		snprintf(res->error, sizeof(res->error),
			 "not started: interrupted (SIGINT/SIGTERM) while the agents prepared it");
		return -ECANCELED;
	}
	if (!res->error[0])
		snprintf(res->error, sizeof(res->error), "every agent was lost");
	return -EIO;
}

/* I/Os (done or failed) of second k over every agent */
static uint64_t s_second_ios(const struct bc_agg *g, uint32_t k)
{
	const struct bc_secrow *r = bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k);
	uint64_t n = r->errors + r->short_ios;
	int op;

	for (op = 0; op < BC_OP_NR; op++)
		n += r->ios[op];
	return n;
}

/*
 * "second_closed": when second k was aggregated and written, as the lag
 * after its end on the common timeline (bench/swarm.sh reads it)
 */
static void s_closed_event(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			   uint32_t k, uint64_t end)
{
	static uint64_t cpu_last, agg_last, wr_last;
	uint64_t t = bc_real_ns(), cpu = bc_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t agg = bc_agg_pool_cpu_ns(&res->agg), wr = bc_rundir_writer_cpu_ns(rd), rx;
	cJSON *ev = cJSON_CreateObject();

	cJSON_AddNumberToObject(ev, "step", res->idx);
	cJSON_AddNumberToObject(ev, "second", k);
	cJSON_AddNumberToObject(ev, "agents", res->agg.agents_reported[k]);
	cJSON_AddNumberToObject(ev, "lag_ms", t > end ? (double)(t - end) / 1e6 : 0.0);
	/* the part of the lag spent waiting for the agents: their latest record's arrival */
	rx = res->agg.last_rx_ns[k];
	if (rx)
		cJSON_AddNumberToObject(ev, "last_record_ms",
					rx > end ? (double)(rx - end) / 1e6 : 0.0);
	/* this loop's CPU since the previous close: the lag on an otherwise idle core */
	if (cpu_last && cpu > cpu_last)
		cJSON_AddNumberToObject(ev, "loop_cpu_ms", (double)(cpu - cpu_last) / 1e6);
	cpu_last = cpu;
	/* the aggregation workers' (all of them) and the event writer's, likewise */
	if (agg_last && agg > agg_last)
		cJSON_AddNumberToObject(ev, "agg_cpu_ms", (double)(agg - agg_last) / 1e6);
	agg_last = agg;
	if (wr_last && wr > wr_last)
		cJSON_AddNumberToObject(ev, "writer_cpu_ms", (double)(wr - wr_last) / 1e6);
	wr_last = wr;
	bc_rundir_event(rd, "second_closed", ev);
}

/*
 * The step ends at second two ahead of the current one (no agent has sent
 * it yet), with at least one measured second: the agents end their jobs
 * there (STOP) and send that many seconds and the drain. Returns it.
 */
static uint32_t s_send_stop(struct bc_fleet *f, struct bc_step_result *res)
{
	uint64_t now = bc_real_ns();
	uint32_t k = now > res->start_ns ? (uint32_t)((now - res->start_ns) / BC_NS_PER_S) : 0;
	cJSON *b;
	int i;

	k += 2;
	if (k < res->agg.ramp_s + 1)
		k = res->agg.ramp_s + 1;
	if (k >= res->agg.seconds) /* it ends by then anyway */
		k = res->agg.seconds;
	b = cJSON_CreateObject();
	cJSON_AddNumberToObject(b, "step", res->idx);
	cJSON_AddNumberToObject(b, "second", k);
	for (i = 0; i < f->n; i++)
		if (!f->conns[i].lost && !f->conns[i].done)
			bc_fleet_send(f, &f->conns[i], BC_MSG_STOP, b);
	cJSON_Delete(b);
	res->agg.seconds = k;
	bc_counters_step_end(f->counters, k);
	return k;
}

/*
 * The bytes "stop_bytes" / "stop_window_pct" ask for (the smaller when both
 * are set), 0: none
 */
static uint64_t s_stop_target(const struct bc_step_result *res)
{
	const struct bc_workload *wl = &res->step->wl;
	uint64_t want = wl->stop_bytes, w;

	if (wl->stop_window_pct && res->ready_window_bytes) {
		w = (uint64_t)((double)res->ready_window_bytes * wl->stop_window_pct / 100.0);
		if (w && (!want || w < want))
			want = w;
	}
	return want;
}

/*
 * "stop_bytes" (vdbench's maxdata=): the bytes of closed second k after the
 * ramp, over every volume; once they reach the step's target, the step
 * ends two seconds on (vdbench checks at each interval's end and stops
 * after the next) and the run goes on with the next step.
 */
static void s_count_bytes(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			  uint32_t k)
{
	const struct bc_entity *t;
	const struct bc_secrow *row;
	uint64_t want = s_stop_target(res);
	cJSON *ev;
	uint32_t end;

	if (!want || res->bytes_stopped_s || res->stopped_s || res->steady.reached ||
	    k < res->agg.ramp_s || !res->agg.nent[BC_LVL_TOTAL])
		return;
	t = &res->agg.ent[BC_LVL_TOTAL][0];
	row = bc_entity_row(t, k);
	res->win_bytes += row->bytes[BC_OP_READ] + row->bytes[BC_OP_WRITE];
	if (res->win_bytes < want || res->agg.seconds <= k + 1)
		return;
	end = s_send_stop(f, res);
	res->bytes_stopped_s = end;
	ev = cJSON_CreateObject();
	cJSON_AddNumberToObject(ev, "step", res->idx);
	cJSON_AddNumberToObject(ev, "seconds", end);
	cJSON_AddNumberToObject(ev, "bytes", (double)res->win_bytes);
	cJSON_AddNumberToObject(ev, "target", (double)want);
	cJSON_AddNumberToObject(ev, "at_second", k);
	bc_rundir_event(rd, "step_bytes_reached", ev);
	if (!f->opts->quiet) {
		char note[160];

		snprintf(note, sizeof(note),
			 "stop_bytes reached at second %u (%llu bytes after the ramp): the step "
			 "ends at second %u",
			 k, (unsigned long long)res->win_bytes, end);
		bc_live_note(note);
	}
}

/*
 * "stop_steady" (fio's steadystate): closed second k of the step's total
 * into its window (results/steady.h judges); once steady, the step ends two
 * seconds on, as with stop_bytes, and the run goes on with the next step
 */
static void s_judge_steady(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			   uint32_t k)
{
	const struct bc_secrow *row;
	uint64_t ios = 0, bytes = 0;
	int op;

	if (!res->step->wl.steady.metric || res->steady.done || res->bytes_stopped_s ||
	    res->stopped_s || !res->agg.nent[BC_LVL_TOTAL])
		return;
	row = bc_entity_row(&res->agg.ent[BC_LVL_TOTAL][0], k);
	for (op = 0; op < BC_OP_NR; op++) {
		ios += row->ios[op];
		bytes += row->bytes[op];
	}
	if (!bc_steady_second(&res->steady, &res->step->wl, res->agg.ramp_s, k, ios, bytes))
		return;
	res->steady.end_s = res->agg.seconds > k + 1 ? s_send_stop(f, res) : res->agg.seconds;
	bc_rundir_event(rd, "step_steady", bc_steady_event(&res->steady, res->idx));
	if (!f->opts->quiet) {
		char note[160];

		snprintf(note, sizeof(note),
			 "steady state at second %u (%s over the last %u s): the step ends at "
			 "second %u",
			 k, res->step->wl.steady.pct ? "within its percent" : "within its limit",
			 res->step->wl.steady.window_s, res->steady.end_s);
		bc_live_note(note);
	}
}

/* a step with stop_steady that ended without it: the event says so, for a rebuild */
static void s_steady_missed(struct bc_rundir *rd, struct bc_step_result *res)
{
	if (!res->step->wl.steady.metric || res->steady.done)
		return;
	res->steady.done = true;
	bc_rundir_event(rd, "step_steady", bc_steady_event(&res->steady, res->idx));
}

/* close every second that is complete or overdue */
static void s_close_seconds(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			    bool all)
{
	struct bc_agg *g = &res->agg;
	uint64_t now = bc_real_ns();
	int alive = -1; /* counted once per call, and only when needed */
	uint32_t was = g->closed;

	while (g->closed < g->seconds) {
		uint32_t k = g->closed;
		uint64_t end = res->start_ns + (uint64_t)(k + 1) * BC_NS_PER_S;
		/* taken up (run/reattach.h): a second of the gap comes again from then on */
		uint64_t due = end > res->taken_up_ns ? end : res->taken_up_ns;

		if (!all && g->agents_reported[k] < (uint32_t)f->n && alive < 0)
			alive = s_alive(f);
		if (!all && g->agents_reported[k] < (uint32_t)f->n &&
		    g->agents_reported[k] < (uint32_t)alive &&
		    now < due + S_SECOND_GRACE_MS * BC_NS_PER_MS)
			break;
		bc_agg_close_second(g, k);
		s_count_bytes(f, rd, res, k);
		s_judge_steady(f, rd, res, k);
		/* a size-based window reaches past k: host samples waiting for it count */
		if (s_second_ios(g, k))
			bc_hostsamples_io_second(res->hosts, k);
		s_closed_event(f, rd, res, k, end);
		bc_metrics_update(f->metrics, res, k);
		if (f->opts->quiet)
			continue;
		/* no record at all (the step was stopped): nothing to show, not a zero */
		if (!g->agents_reported[k]) {
			if (!k || g->agents_reported[k - 1]) {
				char note[96];

				snprintf(note, sizeof(note), "%-8s %4u no records from here on", "",
					 k);
				bc_live_note(note);
			}
			continue;
		}
		/*
		 * Every agent reported an empty second that is still in the future:
		 * their size-based pass is over and the rest of the step is empty
		 * (docs/engine.md). One note instead of a line per empty second.
		 */
		if (g->agents_reported[k] >= (uint32_t)f->n &&
		    now + S_EARLY_MS * BC_NS_PER_MS < end && !s_second_ios(g, k)) {
			if (!k || s_second_ios(g, k - 1)) {
				char note[96];

				snprintf(note, sizeof(note),
					 "%-8s %4u pass complete: seconds %u-%u are empty", "", k,
					 k, g->seconds - 1);
				bc_live_note(note);
			}
			continue;
		}
		bc_live_second(res, k, f->n, &f->progress);
	}
	if (g->closed != was)
		bc_agg_rows_ahead(g);
}

/* one second of an agent's host counters: kept for the results, logged for rebuilds */
static void s_on_host(struct bc_rundir *rd, struct bc_step_result *res, const struct bc_conn *c,
		      const cJSON *body)
{
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(body, "host");
	cJSON *ev;

	if (!host)
		return;
	/* a step taken up: a second the log holds already, sent again */
	if (res->held && cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(body, "second")) <
			     res->held[c->index])
		return;
	(void)bc_result_host_sample(
	    res, c->index, cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(body, "second")),
	    host);
	ev = cJSON_Duplicate(body, 1);
	cJSON_AddStringToObject(ev, "agent", c->spec->name);
	bc_rundir_event(rd, "host", ev);
}

static int s_on_message(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			struct bc_conn *c, struct bc_msg *m, int *pending)
{
	struct bc_stats_hdr h;
	const struct bc_conn *bad = c;
	cJSON *ev;
	int rc;

	/* restarted mid-step (a heartbeat's answer): its I/O and records ended when it did */
	if (bc_msg_is_error(m, BC_ERR_NO_SESSION))
		return s_agent_lost(f, rd, res, c, pending, "restarted (it has no session)", false);
	switch (m->type) {
	case BC_MSG_STATS:
		/* a step taken up: what the log holds already, sent again, is dropped */
		if (res->held && !bc_stats_decode_hdr(m->bin, m->bin_len, &h) &&
		    (h.second == BC_STATS_DRAIN ? res->held_drain[c->index]
						: h.second < res->held[c->index]))
			return 0;
		/* added here, or handed to an aggregation worker (agg/pool.c) */
		rc = bc_agg_submit(&res->agg, c, m->bin, m->bin_len, &h, &bad);
		if (rc) {
			snprintf(res->error, sizeof(res->error),
				 "agent %s (%s): malformed STATS record: %s", bad->spec->name,
				 bad->endpoint, strerror(-rc));
			return rc;
		}
		if (h.second < res->agg.seconds) {
			res->agg.last_rx_ns[h.second] = bc_real_ns();
			if (h.second >= c->stats_next)
				c->stats_next = h.second + 1;
		}
		/* bc_agg_record_json's shape, written without cJSON (hot path) */
		bc_rundir_stats(rd, &res->agg, c, &h, m->bin, m->bin_len);
		return 0;
	case BC_MSG_STEP_DONE:
		if (!c->done && res->held_done && res->held_done[c->index]) {
			c->done = true; /* its STEP_DONE is in the log (and in agent_totals) */
			(*pending)--;
		} else if (!c->done) {
			c->done = true;
			(*pending)--;
			cJSON_AddItemToObject(res->agent_totals, c->spec->name,
					      cJSON_Duplicate(m->json, 1));
			ev = cJSON_Duplicate(m->json, 1);
			cJSON_AddStringToObject(ev, "agent", c->spec->name);
			bc_rundir_event(rd, "step_done", ev);
		}
		return 0;
	case BC_MSG_HEARTBEAT:
		return 0;
	case BC_MSG_TIME:
		bc_drift_on_time(c, m->json);
		return 0;
	case BC_MSG_HOST:
		s_on_host(rd, res, c, m->json);
		return 0;
	default:
		s_agent_error(res, c, m, "");
		return -EIO;
	}
}

/*
 * An agent went silent, or it answered without a session (restarted).
 * "abort": the step fails (the caller stops everyone). "continue": the
 * agent is marked lost from the second it was last heard on and the others
 * finish; every output shows it. silent: heard last S_SILENCE_S before now;
 * else at its latest record (none before START: second 0).
 */
static int s_agent_lost(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			struct bc_conn *a, int *pending, const char *why, bool silent)
{
	uint64_t now = bc_real_ns();
	uint32_t k = res->start_ns && now > res->start_ns
			 ? (uint32_t)((now - res->start_ns) / BC_NS_PER_S)
			 : 0;
	cJSON *ev, *l;

	/* heard last at this second: its records stop there */
	if (silent)
		k = k >= S_SILENCE_MS / 1000 ? k - S_SILENCE_MS / 1000 : 0;
	else
		k = a->stats_next ? a->stats_next - 1 : 0;
	snprintf(a->lost_why, sizeof(a->lost_why), "%s", why);
	/* in lost_agents under either policy */
	if (!res->lost)
		res->lost = cJSON_CreateArray();
	l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "name", a->spec->name);
	cJSON_AddNumberToObject(l, "from_second", k);
	cJSON_AddStringToObject(l, "reason", a->lost_why);
	cJSON_AddItemToArray(res->lost, l);
	/* lost in PREPARE: the event follows step_start (bc_step_execute), as a rebuild reads it */
	if (res->start_ns) {
		ev = cJSON_Duplicate(l, 1);
		cJSON_AddNumberToObject(ev, "step", res->idx);
		bc_rundir_event(rd, "agent_lost", ev);
	}
	if (f->prof->on_agent_loss == BC_LOSS_ABORT) {
		snprintf(res->error, sizeof(res->error),
			 "agent %s (%s): %s%s (on_agent_loss: abort)", a->spec->name, a->endpoint,
			 a->lost_why, res->start_ns ? " during the step" : "");
		return -ETIMEDOUT;
	}
	a->lost = true;
	f->nlost++;
	(*pending)--;
	bc_warn("agent %s (%s) lost around second %u: %s; continuing with %d agent(s) "
		"(on_agent_loss: continue)",
		a->spec->name, a->endpoint, k, a->lost_why, s_alive(f));
	/* if it comes back, it must not keep writing */
	bc_fleet_send(f, a, BC_MSG_ABORT, NULL);
	return 0;
}

/* wake for node scrapes on time: never wait past the next second boundary's scrape */
static int s_recv_timeout(const struct bc_fleet *f)
{
	int t = bc_counters_timeout_ms(f->counters, bc_real_ns());

	return t >= 0 && t < 100 ? t : 100;
}

/*
 * After the last second: let the node counters take their last boundary and
 * the Prometheus queries answer (a few seconds at most), heartbeating the
 * agents meanwhile, then keep the counters and the verdict with the step.
 */
static void s_finish_counters(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res)
{
	int i;
	cJSON *ev;

	/* up to 10 s, in half-second waits: the agents' heartbeats (bc_fleet_beat) keep their pace
	 */
	for (i = 0; i < 20 && bc_counters_active(f->counters) && !zsys_interrupted; i++) {
		if (!bc_counters_step_finish(f->counters, 500))
			break;
		bc_fleet_beat(f);
	}
	if (bc_counters_active(f->counters)) {
		res->node_counters = bc_counters_step_json(f->counters);
		ev = cJSON_CreateObject();
		cJSON_AddNumberToObject(ev, "step", res->idx);
		cJSON_AddItemToObject(ev, "nodes", cJSON_Duplicate(res->node_counters, 1));
		bc_rundir_event(rd, "node_counters", ev);
	}
	res->analysis = bc_verdict_step(f->counters, res);
	/* the devices' own counters, the client hosts: the verdict says it first */
	bc_fidelity_verdict(bc_result_fidelity(res), res->analysis);
	if (res->analysis) {
		ev = cJSON_CreateObject();
		cJSON_AddNumberToObject(ev, "step", res->idx);
		cJSON_AddItemToObject(ev, "analysis", cJSON_Duplicate(res->analysis, 1));
		bc_rundir_event(rd, "analysis", ev);
	}
}

/*
 * The run directory cannot be written (disk full, quota, read-only, I/O
 * error: named once by results/files/outfail.h): measuring on would be for
 * nothing. True with the step's error set.
 */
static bool s_outfail(struct bc_rundir *rd, struct bc_step_result *res)
{
	char what[160];

	bc_outfail_note(bc_secw_path(rd->secw), bc_secw_error(rd->secw));
	if (!bc_outfail_rc())
		return false;
	snprintf(res->error, sizeof(res->error), "the run directory cannot be written: %s",
		 bc_outfail_text(what, sizeof(what)));
	return true;
}

/* the run directory's filesystem, watched while there is time to make room */
static void s_space_watch(const struct bc_fleet *f, struct bc_rundir *rd,
			  const struct bc_step_result *res)
{
	struct bc_space_plan left = {
	    .seconds = f->progress.after_s + (res->agg.seconds - res->agg.closed),
	    .entries = f->progress.after_entries + 1,
	    .agents = f->prof->nagents,
	    .volumes = f->prof->nvolumes,
	    .json = !rd->binary && !rd->compact,
	    .compact = rd->compact,
	};

	bc_space_watch(rd, &left);
}

/*
 * Ctrl-C in a step that runs until it is stopped ("until_stopped", fio's
 * time_based job without runtime): the step ends at a second boundary and
 * keeps its figures, and no later step starts - as fio ends on SIGINT. The
 * second is two ahead of the current one, so no agent has sent it yet; the
 * agents end their jobs there (STOP) and send that many seconds and the
 * drain. A second Ctrl-C aborts as in any step.
 */
static void s_stop_step(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res)
{
	uint32_t k;
	cJSON *ev;

	zsys_interrupted = 0;
	k = s_send_stop(f, res);
	res->stopped_s = k;
	f->user_stopped = true;
	snprintf(f->halted, sizeof(f->halted),
		 "the user stopped the run (SIGINT/SIGTERM) in step %s, which runs until stopped",
		 res->step->name);
	ev = cJSON_CreateObject();
	cJSON_AddNumberToObject(ev, "step", res->idx);
	cJSON_AddNumberToObject(ev, "seconds", k);
	bc_rundir_event(rd, "step_stopped", ev);
	if (!f->opts->quiet) {
		char note[128];

		snprintf(note, sizeof(note),
			 "stopped by the user: the step ends at second %u and keeps its figures "
			 "(Ctrl-C again aborts it)",
			 k);
		bc_live_note(note);
	}
}

static int s_run_loop(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res)
{
	uint64_t end;
	uint64_t last_scan = 0;
	int pending = s_alive(f), rc = 0, i;
	bool scan;

	while (pending && !rc) {
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char rerr[256] = "", why[96];
		uint64_t mono;

		if (zsys_interrupted && res->step->wl.until_stopped && !res->stopped_s)
			s_stop_step(f, rd, res);
		if (zsys_interrupted) {
			snprintf(res->error, sizeof(res->error), "interrupted");
			return -EINTR;
		}
		/* a STOP moves the end */
		end = res->start_ns + (uint64_t)res->agg.seconds * BC_NS_PER_S;
		if (s_outfail(rd, res))
			return -EIO;
		rc = bc_fleet_recv(f, s_recv_timeout(f), &c, &m, rerr, sizeof(rerr));
		if (rc == -ETIMEDOUT || rc == -EINTR) {
			rc = 0;
		} else if (c && c->lost) {
			rc = 0; /* lost: nothing of it counts after its from_second (it was told
				   ABORT) */
		} else if (c && !rc) {
			rc = s_on_message(f, rd, res, c, &m, &pending);
		} else if (c) {
			s_agent_error(res, c, &m, rerr);
			rc = -EIO;
		}
		bc_msg_clear(&m);
		if (rc)
			break;
		/* read after the receive: it may have advanced last_heard_ns */
		mono = bc_mono_ns();
		bc_counters_tick(f->counters, bc_real_ns());
		s_close_seconds(f, rd, res, false);
		s_space_watch(f, rd, res);
		bc_fleet_beat(f);
		/* silence is measured in seconds: a scan of the fleet every 100 ms will do */
		scan = mono - last_scan >= 100 * BC_NS_PER_MS;
		if (scan) {
			last_scan = mono;
			bc_drift_tick(f); /* a clock exchange each second, to see drift */
		}
		for (i = 0; scan && i < f->n && !rc; i++) {
			struct bc_conn *a = &f->conns[i];

			if (a->done || a->lost ||
			    mono - a->last_heard_ns <= S_SILENCE_MS * BC_NS_PER_MS ||
			    bc_fleet_waiting(f, a))
				continue;
			/* what it last sent says where it stopped: a stall, a lost link */
			if (a->stats_next)
				snprintf(why, sizeof(why), "%s (its last record: second %u)",
					 S_SILENT, a->stats_next - 1);
			else
				snprintf(why, sizeof(why), "%s (no record since the START)",
					 S_SILENT);
			rc = s_agent_lost(f, rd, res, a, &pending, why, true);
		}
		if (rc)
			return rc;
		if (bc_real_ns() > end + S_DRAIN_MS * BC_NS_PER_MS) {
			snprintf(res->error, sizeof(res->error),
				 "%d agent(s) did not finish the step within %d s of its end",
				 pending, S_DRAIN_MS / 1000);
			return -ETIMEDOUT;
		}
	}
	return rc;
}

/* the agg's wait for a worker (agg/types.h wait_fn): this is the loop thread */
static void s_agg_wait(void *f)
{
	bc_fleet_beat(f);
}

/* each agent's offset at the step's end and its drift over it, for the checks and rebuilds */
static void s_clock_end(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res)
{
	cJSON *ev;

	res->clock_end = bc_drift_end(f);
	if (!res->clock_end)
		return;
	ev = cJSON_CreateObject();
	cJSON_AddNumberToObject(ev, "step", res->idx);
	cJSON_AddItemToObject(ev, "agents", cJSON_Duplicate(res->clock_end, 1));
	bc_rundir_event(rd, "clock_end", ev);
}

/* re-measure every agent's clock offset right before START; keep the evidence */
static int s_clock_recheck(struct bc_fleet *f, struct bc_step_result *res)
{
	char err[512];
	int i, rc;

	/* and each agent's clock rate since its previous estimate (run/drift.h) */
	rc = bc_drift_sync(f, err, sizeof(err));
	if (rc) {
		snprintf(res->error, sizeof(res->error), "%s", err);
		return rc;
	}
	res->clock = cJSON_CreateObject();
	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];
		cJSON *a = cJSON_AddObjectToObject(res->clock, c->spec->name);

		bc_json_add_i64(a, "offset_ns", c->offset_ns);
		bc_json_add_u64(a, "uncertainty_ns", c->clock_unc_ns);
		bc_json_add_u64(a, "rtt_ns", c->rtt_ns);
		cJSON_AddNumberToObject(a, "drift_since_connect_ns",
					(double)(c->offset_ns - c->first_offset_ns));
		if (c->second_ns && c->second_ns != BC_NS_PER_S)
			bc_json_add_u64(a, "second_ns", c->second_ns);
	}
	return 0;
}

/*
 * The step from START on: its seconds as they come, its end, its clock
 * drift, node counters and verdict. 0 or -errno (res->error).
 */
static int s_run_to_end(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res)
{
	int rc;

	rc = s_run_loop(f, rd, res);
	s_clock_end(f, rd, res);
	s_close_seconds(f, rd, res, true);
	s_steady_missed(rd, res);
	/* late and drain records the workers still hold; serial from here on */
	bc_agg_finish(&res->agg);
	res->agg.wait_fn = NULL; /* the agg may be freed beside the fleet, off this thread */
	if (!rc)
		bc_result_trim_size_based(res);
	bc_agg_secfile_end(&res->agg);
	if (!rc)
		s_finish_counters(f, rd, res);
	return rc;
}

struct s_agg_init {
	struct bc_agg *g;
	const struct bc_profile *p;
	const struct bc_step *st;
	int threads;
	int rc;
};

static void s_pool_start(void *p)
{
	struct s_agg_init *x = p;

	x->rc = bc_agg_pool_start(x->g, x->threads);
}

int bc_step_take_up(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
		    uint32_t from_b)
{
	struct s_agg_init x = {0};
	uint32_t k;
	int i, rc, threads;

	res->taken_up_ns = bc_real_ns();
	if (!res->agent_totals)
		res->agent_totals = cJSON_CreateObject();
	if (!res->ready)
		res->ready = cJSON_CreateObject();
	for (i = 0; i < f->n; i++) {
		f->conns[i].done = f->conns[i].ready = false;
		f->conns[i].last_heard_ns = bc_mono_ns();
		/* stop_window_pct's bytes, from the READY bodies the log kept */
		s_windows_from_ready(
		    res, &f->conns[i],
		    cJSON_GetObjectItemCaseSensitive(res->ready, f->conns[i].spec->name));
	}
	if (!f->opts->quiet)
		bc_live_header(res);
	/*
	 * The stop rules over the seconds the dead coordinator closed, judged
	 * as it judged them: stop_bytes' count and stop_steady's window are
	 * made again from those seconds' totals; a rule that fired is in the
	 * log (its event, replayed into res) and is not judged again, one that
	 * comes due in them ends the step from now, as it would have live.
	 */
	for (k = 0; k < res->agg.closed; k++) {
		s_count_bytes(f, rd, res, k);
		s_judge_steady(f, rd, res, k);
	}
	/* the node counters go on from the samples the log holds (replayed into them) */
	bc_counters_step_from(f->counters, from_b);
	/*
	 * the workers of a live step, started on the replayed agg: they add
	 * into it as the serial path does (agg/pool.h), and the burst of the
	 * seconds sent again is what they are for
	 */
	threads = f->opts->agg_threads >= 0 ? f->opts->agg_threads : bc_agg_threads_auto(f->n);
	x.g = &res->agg;
	x.threads = threads;
	bc_fleet_beside(f, s_pool_start, &x);
	if (x.rc)
		bc_warn("step %s: aggregated on the loop thread: no workers (%s)", res->step->name,
			strerror(-x.rc));
	res->agg.wait_fn = s_agg_wait;
	res->agg.wait_arg = f;
	rc = s_run_to_end(f, rd, res);
	if (rc) {
		bc_fleet_broadcast(f, BC_MSG_ABORT, NULL);
		res->status = rc == -EINTR ? "aborted" : "failed";
	} else {
		res->status = bc_fidelity_status(res);
	}
	bc_result_hosts_settle(res);
	return rc;
}

int bc_step_execute(struct bc_fleet *f, struct bc_rundir *rd, int idx, const struct bc_step *st,
		    struct bc_step_result *res)
{
	cJSON *ev, *starts, *lost;
	uint64_t start, at;
	int i, rc, threads;
	bool prepared = false;

	memset(res, 0, sizeof(*res));
	res->step = st;
	res->idx = idx;
	res->status = "failed";
	res->agent_totals = cJSON_CreateObject();
	res->ready = cJSON_CreateObject();
	threads = f->opts->agg_threads >= 0 ? f->opts->agg_threads : bc_agg_threads_auto(f->n);
	/* seconds at scale: beside the fleet */
	rc = bc_fleet_agg_init(f, &res->agg, st, threads);
	/* agents lost in an earlier step ("continue") are out of this one */
	res->out = calloc((size_t)f->prof->nagents + 1, sizeof(bool));
	for (i = 0; res->out && i < f->n; i++)
		res->out[f->conns[i].index] = f->conns[i].lost;
	if (!rc && !res->out)
		rc = -ENOMEM;
	if (!rc && !f->volnode && !(f->volnode = bc_volnode_new(f->prof)))
		rc = -ENOMEM;
	/* completed from READY, before START: no record reaches a worker before */
	res->agg.volnode = f->volnode;
	if (rc) {
		snprintf(res->error, sizeof(res->error), "out of memory");
		return rc;
	}
	/*
	 * Interrupted (Ctrl-C while the results of the step before were
	 * written), or the run stopped at an earlier step: no PREPARE, the step
	 * is recorded as never started
	 */
	if (!f->halted[0] && bc_outfail_rc()) {
		char what[160];

		snprintf(f->halted, sizeof(f->halted), "the run directory cannot be written: %s",
			 bc_outfail_text(what, sizeof(what)));
	}
	if (zsys_interrupted || f->halted[0]) {
		snprintf(res->error, sizeof(res->error), "not started: %s",
			 f->halted[0] ? f->halted
				      : "interrupted (SIGINT/SIGTERM) before its PREPARE");
		rc = -ECANCELED;
		goto out;
	}
	/* before each step too: room for it and the rest, said while nothing runs */
	s_space_watch(f, rd, res);
	prepared = true;
	rc = s_prepare_all(f, rd, idx, res);
	if (rc)
		goto out;
	rc = s_clock_recheck(f, res);
	if (rc)
		goto out;
	for (i = 0; i < f->n; i++)
		f->conns[i].last_heard_ns = bc_mono_ns();
	start =
	    bc_real_ns() + (uint64_t)(S_START_LEAD_MS + S_START_PER_AGENT_MS * f->n) * BC_NS_PER_MS;
	res->start_ns = start;
	ev = cJSON_CreateObject();
	cJSON_AddNumberToObject(ev, "step", idx);
	cJSON_AddStringToObject(ev, "name", st->name);
	/* what ran, for rebuilds: a sweep point's workload is not the profile step's */
	cJSON_AddItemToObject(ev, "workload", bc_workload_to_json(&st->wl));
	bc_json_add_u64(ev, "start_ns", start);
	cJSON_AddNumberToObject(ev, "seconds", res->agg.seconds);
	cJSON_AddItemToObject(ev, "clock", cJSON_Duplicate(res->clock, 1));
	starts = cJSON_AddObjectToObject(ev, "agent_start_ns");
	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];
		cJSON *b;

		if (c->lost)
			continue;
		b = cJSON_CreateObject();
		/* the common start in this agent's own clock */
		at = (uint64_t)((int64_t)start + c->offset_ns);

		cJSON_AddNumberToObject(b, "step", idx);
		bc_json_add_u64(b, "start_ns", at);
		cJSON_AddNumberToObject(b, "seconds", res->agg.seconds);
		/* its clock runs at another rate: the coordinator's second in its clock */
		if (c->second_ns && c->second_ns != BC_NS_PER_S)
			bc_json_add_u64(b, "second_ns", c->second_ns);
		bc_fleet_send(f, c, BC_MSG_START, b);
		cJSON_Delete(b);
		bc_json_add_u64(starts, c->spec->name, at);
		bc_fleet_beat(f); /* 1,000 STARTs take seconds on a busy host */
	}
	bc_rundir_event(rd, "step_start", ev);
	/* the agents lost during PREPARE (the only ones lost so far) */
	cJSON_ArrayForEach(lost, res->lost)
	{
		cJSON *e = cJSON_Duplicate(lost, 1);

		cJSON_AddNumberToObject(e, "step", idx);
		bc_rundir_event(rd, "agent_lost", e);
	}
	/* and those HELLOed again in it, likewise after step_start for a rebuild */
	cJSON_ArrayForEach(lost, res->rejoined)
	{
		cJSON *e = cJSON_Duplicate(lost, 1);

		cJSON_AddNumberToObject(e, "step", idx);
		bc_rundir_event(rd, "agent_rejoined", e);
	}
	bc_fleet_beat(f);
	/* seconds.bin: a step with a step_start event, in the same order as a rebuild's */
	if (rd->secw && bc_agg_secfile_begin(&res->agg, rd->secw, rd->secw_steps++, idx, st->name))
		bc_warn("step %s: its seconds are not in seconds.bin (out of memory)", st->name);
	if (!f->opts->quiet)
		bc_live_header(res);
	bc_counters_step_begin(f->counters, start, res->agg.seconds, st->wl.ramp_s);
	/* heartbeats while the loop waits for a worker behind on a busy host */
	res->agg.wait_fn = s_agg_wait;
	res->agg.wait_arg = f;
	rc = s_run_to_end(f, rd, res);
out:
	res->agg.wait_fn = NULL;
	if (rc) {
		if (prepared)
			bc_fleet_broadcast(f, BC_MSG_ABORT, NULL);
		res->status = rc == -ECANCELED ? "not started"
			      : rc == -EINTR   ? "aborted"
					       : "failed";
		ev = cJSON_CreateObject();
		cJSON_AddNumberToObject(ev, "step", idx);
		cJSON_AddStringToObject(ev, "message", res->error);
		/* for rebuilds, also of a step that failed before its step_start */
		cJSON_AddStringToObject(ev, "status", res->status);
		cJSON_AddStringToObject(ev, "name", st->name);
		cJSON_AddItemToObject(ev, "workload", bc_workload_to_json(&st->wl));
		bc_rundir_event(rd, "error", ev);
	} else {
		res->status = bc_fidelity_status(res);
	}
	bc_result_hosts_settle(res);
	return rc;
}

struct s_step_json {
	const struct bc_step_result *res;
	cJSON *sj;
};

static void s_step_json(void *p)
{
	struct s_step_json *x = p;

	x->sj = bc_result_step_json(x->res);
}

cJSON *bc_fleet_step_json(struct bc_fleet *f, const struct bc_step_result *res)
{
	struct s_step_json x = {res, NULL};

	bc_fleet_beside(f, s_step_json, &x);
	return x.sj;
}

static void s_step_free(void *p)
{
	bc_step_result_free(p);
}

void bc_fleet_step_free(struct bc_fleet *f, struct bc_step_result *res)
{
	bc_fleet_beside(f, s_step_free, res);
}

static void s_agg_init(void *p)
{
	struct s_agg_init *x = p;

	x->rc = bc_agg_init(x->g, x->p, x->st);
	if (!x->rc)
		s_pool_start(x);
}

int bc_fleet_agg_init(struct bc_fleet *f, struct bc_agg *g, const struct bc_step *st, int threads)
{
	struct s_agg_init x = {g, f->prof, st, threads, 0};

	bc_fleet_beside(f, s_agg_init, &x);
	return x.rc;
}
