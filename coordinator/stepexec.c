/*
 * stepexec.c - one step across the fleet: PREPARE everywhere, wait for every
 * READY (the barrier), START at one absolute time converted into each
 * agent's clock, then take STATS records as they come, close each second
 * once every agent reported it (or it is overdue) and print its live line,
 * until every agent sent STEP_DONE.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bc_clock.h"
#include "bc_coord.h"
#include "bc_log.h"

/* lead time between START and interval 0: covers sending START to every agent */
#define S_START_LEAD_MS 300
/* a second is printed without its missing agents this long after it ended */
#define S_SECOND_GRACE_MS 2000
/* an agent silent this long during a step is lost */
#define S_SILENCE_MS 5000
/* after the last interval, agents have this long to drain and say STEP_DONE */
#define S_DRAIN_MS 30000

static cJSON *s_prepare_body(const struct bc_fleet *f, const struct bc_conn *c, int idx)
{
	const struct bc_step *st = &f->prof->steps[idx];
	cJSON *b = cJSON_CreateObject(), *vols;
	int i;

	cJSON_AddNumberToObject(b, "step", idx);
	cJSON_AddStringToObject(b, "name", st->name);
	cJSON_AddItemToObject(b, "workload", bc_workload_to_json(&st->wl));
	vols = cJSON_AddArrayToObject(b, "volumes");
	for (i = 0; i < c->nvols; i++) {
		const struct bc_volume_spec *v = &f->prof->volumes[c->vols[i]];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", v->path);
		cJSON_AddNumberToObject(o, "size", (double)v->size_bytes);
		cJSON_AddNumberToObject(o, "offset", (double)v->offset_bytes);
		cJSON_AddNumberToObject(o, "length", (double)v->length_bytes);
		cJSON_AddItemToArray(vols, o);
	}
	return b;
}

static void s_agent_error(struct bc_step_result *res, const struct bc_conn *c,
			  const struct bc_msg *m, const char *rerr)
{
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m->json, "message"));

	if (m->type == BC_MSG_ERROR)
		snprintf(res->error, sizeof(res->error), "agent %s (%s): %s", c->spec->name,
			 c->endpoint, msg ? msg : "error without a message");
	else
		snprintf(res->error, sizeof(res->error), "agent %s (%s): %s%s%s", c->spec->name,
			 c->endpoint, rerr[0] ? rerr : "unexpected ", rerr[0] ? "" : "message ",
			 rerr[0] ? "" : bc_msg_name(m->type));
}

static int s_prepare_all(struct bc_fleet *f, struct bc_rundir *rd, int idx,
			 struct bc_step_result *res)
{
	uint64_t deadline = bc_mono_ns() + (uint64_t)f->opts->prepare_timeout_ms * BC_NS_PER_MS;
	int i, pending = f->n;
	cJSON *ev = cJSON_CreateObject(), *agents = cJSON_AddObjectToObject(ev, "agents");

	for (i = 0; i < f->n; i++) {
		cJSON *b = s_prepare_body(f, &f->conns[i], idx);

		f->conns[i].ready = f->conns[i].done = false;
		bc_msg_send_json(f->conns[i].sock, NULL, BC_MSG_PREPARE, b);
		cJSON_Delete(b);
	}
	while (pending) {
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char rerr[256] = "";
		uint64_t now = bc_mono_ns();
		int rc;

		if (now >= deadline || zsys_interrupted)
			break;
		rc = bc_fleet_recv(f, (int)((deadline - now) / BC_NS_PER_MS) + 1, &c, &m, rerr,
				   sizeof(rerr));
		if (!rc && c && m.type == BC_MSG_READY && !c->ready) {
			c->ready = true;
			pending--;
			cJSON_AddItemToObject(agents, c->spec->name, m.json);
			m.json = NULL;
		} else if (c && (rc == -EPROTO || rc == -EBADMSG ||
				 (!rc && m.type != BC_MSG_HEARTBEAT))) {
			s_agent_error(res, c, &m, rerr);
			bc_msg_clear(&m);
			break;
		}
		bc_msg_clear(&m);
	}
	cJSON_AddNumberToObject(ev, "step", idx);
	bc_rundir_event(rd, "ready", ev);
	if (!pending)
		return 0;
	if (!res->error[0]) {
		for (i = 0; i < f->n && f->conns[i].ready; i++)
			;
		if (zsys_interrupted)
			snprintf(res->error, sizeof(res->error), "interrupted during PREPARE");
		else
			snprintf(res->error, sizeof(res->error),
				 "agent %s (%s): not READY within %.1f s of PREPARE",
				 f->conns[i].spec->name, f->conns[i].endpoint,
				 f->opts->prepare_timeout_ms / 1000.0);
	}
	return -EIO;
}

static void s_print_header(FILE *o, const struct bc_step_result *res)
{
	fprintf(o, "\nstep %s: %s bs=%u iodepth=%u numjobs=%u ramp=%us runtime=%us\n",
		res->step->name, bc_rw_names[res->step->wl.rw], res->step->wl.bs,
		res->step->wl.iodepth, res->step->wl.numjobs, res->step->wl.ramp_s,
		res->step->wl.runtime_s);
	fprintf(o, "%-8s %4s %-5s %7s %11s %9s %6s %9s %9s %9s\n", "time", "sec", "phase",
		"agents", "IOPS", "MB/s", "read%", "mean_ms", "p99_ms", "max_ms");
	fflush(o);
}

static void s_print_second(FILE *o, const struct bc_step_result *res, uint32_t k, int nagents)
{
	const struct bc_agg *g = &res->agg;
	const struct bc_secrow *r = &g->ent[BC_LVL_TOTAL][0].secs[k];
	uint64_t ios = 0, bytes = 0;
	time_t t = (time_t)((res->start_ns + (uint64_t)(k + 1) * BC_NS_PER_S) / BC_NS_PER_S);
	char ts[16], ag[16];
	struct tm tm;
	int op;

	for (op = 0; op < BC_OP_NR; op++) {
		ios += r->ios[op];
		bytes += r->bytes[op];
	}
	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	snprintf(ag, sizeof(ag), "%u/%d", g->agents_reported[k], nagents);
	fprintf(o, "%-8s %4u %-5s %7s %11" PRIu64 " %9.1f %6.1f %9.3f %9.3f %9.3f%s%s\n", ts, k,
		k < g->ramp_s ? "ramp" : "run", ag, ios, (double)bytes / 1e6,
		ios ? 100.0 * (double)r->ios[BC_OP_READ] / (double)ios : 0.0,
		ios ? (double)r->lat_sum_ns / (double)ios / 1e6 : 0.0, (double)r->p99_ns / 1e6,
		(double)r->max_ns / 1e6, r->errors ? "  ERRORS" : "",
		g->late[k] ? "  late" : "");
	fflush(o);
}

/* close every second that is complete or overdue */
static void s_close_seconds(struct bc_fleet *f, struct bc_step_result *res, bool all)
{
	struct bc_agg *g = &res->agg;
	uint64_t now = bc_real_ns();

	while (g->closed < g->seconds) {
		uint32_t k = g->closed;
		uint64_t end = res->start_ns + (uint64_t)(k + 1) * BC_NS_PER_S;

		if (!all && g->agents_reported[k] < (uint32_t)f->n &&
		    now < end + S_SECOND_GRACE_MS * BC_NS_PER_MS)
			break;
		bc_agg_close_second(g, k);
		if (!f->opts->quiet)
			s_print_second(stdout, res, k, f->n);
	}
}

static int s_on_message(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res,
			struct bc_conn *c, struct bc_msg *m, int *pending)
{
	struct bc_stats_hdr h;
	cJSON *ev;
	int rc;

	switch (m->type) {
	case BC_MSG_STATS:
		rc = bc_agg_add(&res->agg, c, m->bin, m->bin_len, &h);
		if (rc) {
			snprintf(res->error, sizeof(res->error),
				 "agent %s (%s): malformed STATS record: %s", c->spec->name,
				 c->endpoint, strerror(-rc));
			return rc;
		}
		ev = bc_agg_record_json(&res->agg, c, &h);
		cJSON_AddNumberToObject(ev, "step", h.step);
		bc_rundir_event(rd, "stats", ev);
		return 0;
	case BC_MSG_STEP_DONE:
		if (!c->done) {
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
	default:
		s_agent_error(res, c, m, "");
		return -EIO;
	}
}

static int s_run_loop(struct bc_fleet *f, struct bc_rundir *rd, struct bc_step_result *res)
{
	uint64_t end = res->start_ns + (uint64_t)res->agg.seconds * BC_NS_PER_S;
	uint64_t last_beat = 0;
	int pending = f->n, rc = 0, i;

	while (pending && !rc) {
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char rerr[256] = "";
		uint64_t mono;

		if (zsys_interrupted) {
			snprintf(res->error, sizeof(res->error), "interrupted");
			return -EINTR;
		}
		rc = bc_fleet_recv(f, 100, &c, &m, rerr, sizeof(rerr));
		if (rc == -ETIMEDOUT || rc == -EINTR) {
			rc = 0;
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
		s_close_seconds(f, res, false);
		if (mono - last_beat >= BC_NS_PER_S) {
			bc_fleet_broadcast(f, BC_MSG_HEARTBEAT, NULL);
			last_beat = mono;
		}
		for (i = 0; i < f->n; i++) {
			const struct bc_conn *a = &f->conns[i];

			if (!a->done && mono - a->last_heard_ns > S_SILENCE_MS * BC_NS_PER_MS) {
				snprintf(res->error, sizeof(res->error),
					 "agent %s (%s): silent for %d s during the step",
					 a->spec->name, a->endpoint, S_SILENCE_MS / 1000);
				return -ETIMEDOUT;
			}
		}
		if (bc_real_ns() > end + S_DRAIN_MS * BC_NS_PER_MS) {
			snprintf(res->error, sizeof(res->error),
				 "%d agent(s) did not finish the step within %d s of its end",
				 pending, S_DRAIN_MS / 1000);
			return -ETIMEDOUT;
		}
	}
	return rc;
}

/* re-measure every agent's clock offset right before START; keep the evidence */
static int s_clock_recheck(struct bc_fleet *f, struct bc_step_result *res)
{
	char err[512];
	int i, rc;

	rc = bc_fleet_clock_sync(f, err, sizeof(err));
	if (rc) {
		snprintf(res->error, sizeof(res->error), "%s", err);
		return rc;
	}
	res->clock = cJSON_CreateObject();
	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];
		cJSON *a = cJSON_AddObjectToObject(res->clock, c->spec->name);

		cJSON_AddNumberToObject(a, "offset_ns", (double)c->offset_ns);
		cJSON_AddNumberToObject(a, "uncertainty_ns", (double)c->clock_unc_ns);
		cJSON_AddNumberToObject(a, "rtt_ns", (double)c->rtt_ns);
		cJSON_AddNumberToObject(a, "drift_since_connect_ns",
					(double)(c->offset_ns - c->first_offset_ns));
	}
	return 0;
}

int bc_step_execute(struct bc_fleet *f, struct bc_rundir *rd, int idx, struct bc_step_result *res)
{
	const struct bc_step *st = &f->prof->steps[idx];
	cJSON *ev, *starts;
	uint64_t start;
	int i, rc;

	memset(res, 0, sizeof(*res));
	res->step = st;
	res->status = "failed";
	res->agent_totals = cJSON_CreateObject();
	rc = bc_agg_init(&res->agg, f->prof, st);
	if (rc) {
		snprintf(res->error, sizeof(res->error), "out of memory");
		return rc;
	}
	rc = s_prepare_all(f, rd, idx, res);
	if (rc)
		goto out;
	rc = s_clock_recheck(f, res);
	if (rc)
		goto out;
	for (i = 0; i < f->n; i++)
		f->conns[i].last_heard_ns = bc_mono_ns();
	start = bc_real_ns() + (uint64_t)(S_START_LEAD_MS + 20 * f->n) * BC_NS_PER_MS;
	res->start_ns = start;
	ev = cJSON_CreateObject();
	cJSON_AddNumberToObject(ev, "step", idx);
	cJSON_AddStringToObject(ev, "name", st->name);
	cJSON_AddNumberToObject(ev, "start_ns", (double)start);
	cJSON_AddNumberToObject(ev, "seconds", res->agg.seconds);
	starts = cJSON_AddObjectToObject(ev, "agent_start_ns");
	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];
		cJSON *b = cJSON_CreateObject();
		/* the common start in this agent's own clock */
		uint64_t at = (uint64_t)((int64_t)start + c->offset_ns);

		cJSON_AddNumberToObject(b, "step", idx);
		cJSON_AddNumberToObject(b, "start_ns", (double)at);
		cJSON_AddNumberToObject(b, "seconds", res->agg.seconds);
		bc_msg_send_json(c->sock, NULL, BC_MSG_START, b);
		cJSON_Delete(b);
		cJSON_AddNumberToObject(starts, c->spec->name, (double)at);
	}
	bc_rundir_event(rd, "step_start", ev);
	if (!f->opts->quiet)
		s_print_header(stdout, res);
	rc = s_run_loop(f, rd, res);
	s_close_seconds(f, res, true);
out:
	if (rc) {
		bc_fleet_broadcast(f, BC_MSG_ABORT, NULL);
		res->status = rc == -EINTR ? "aborted" : "failed";
		ev = cJSON_CreateObject();
		cJSON_AddNumberToObject(ev, "step", idx);
		cJSON_AddStringToObject(ev, "message", res->error);
		bc_rundir_event(rd, "error", ev);
	} else {
		res->status = "ok";
	}
	return rc;
}
