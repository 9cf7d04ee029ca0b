/*
 * run/reattach.c - a resumed run takes up the step in flight (run/reattach.h).
 * Nothing is aggregated here: the records go into the run directory exactly
 * as the live step writes them (bc_rundir_stats, "host", "step_done"), each
 * once - a record of a second the log holds already, sent again because the
 * agent cannot know what reached the disk, is dropped - and the replay of the
 * whole log (run/rebuild.c, the same aggregation as live) makes the step's
 * figures. The live panel is not drawn meanwhile: one line every 10 s.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fleet/fleet.h"
#include "profile/workload/workload.h"
#include "results/files/rundir.h"
#include "run/live.h"
#include "run/reattach.h"
#include "run/rebuild.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/stats.h"

/* an agent silent this long in the re-attached step stops it (heartbeats are 1/s) */
#define S_SILENCE_MS 5000
/* after the step's planned end, agents have this long to drain and say STEP_DONE */
#define S_DRAIN_MS 30000
/* a progress line this often */
#define S_LINE_NS (10 * BC_NS_PER_S)

struct s_att {
	int step;
	const char *name;
	uint32_t seconds;
	uint64_t start_ns; /* coordinator clock */
};

static void s_step_of(const struct bc_resume *res, struct s_att *a)
{
	const cJSON *ev = res->open_step;

	a->step = (int)bc_rj_num(ev, "step");
	a->name = bc_rj_str("?", ev, "name");
	a->seconds = (uint32_t)bc_rj_num(ev, "seconds");
	a->start_ns = bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(ev, "start_ns"));
}

void bc_reattach_plan(struct bc_fleet *f, const struct bc_resume *res)
{
	const cJSON *starts;
	int i;

	/* without a grace the agents stop within 5 s: the step runs again (docs/results.md) */
	if (!res->open_step || !f->prof->orphan_grace_s)
		return;
	starts = cJSON_GetObjectItemCaseSensitive(res->open_step, "agent_start_ns");
	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];

		c->resume_step = (int)bc_rj_num(res->open_step, "step");
		c->resume_start_ns =
		    bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(starts, c->spec->name));
	}
}

static void s_why(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void s_why(char *why, size_t len, const char *fmt, ...)
{
	size_t n = strlen(why);
	va_list ap;

	if (n + 3 >= len)
		return;
	if (n)
		n += (size_t)snprintf(why + n, len - n, "; ");
	va_start(ap, fmt);
	vsnprintf(why + n, len - n, fmt, ap);
	va_end(ap);
}

/* whether every agent took the step up and keeps what the log lacks; why not in why */
static bool s_all_attached(struct bc_fleet *f, const struct bc_resume *res, char *why, size_t len)
{
	bool ok = true;
	int i;

	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(c->hello, "reattach");

		if (!r) {
			s_why(why, len,
			      "agent %s no longer runs the step (its orphan_grace ran out, or it "
			      "restarted)",
			      c->spec->name);
			ok = false;
		} else if (bc_rj_num(r, "kept_from") > res->held[c->index]) {
			s_why(why, len,
			      "agent %s no longer keeps the records of seconds %u to %.0f (its "
			      "buffer let them go)",
			      c->spec->name, res->held[c->index], bc_rj_num(r, "kept_from") - 1);
			ok = false;
		}
	}
	return ok;
}

/* a step whose end the coordinator decides from its seconds as they close (stepexec.c) */
static bool s_judged_live(const struct bc_workload *wl)
{
	return wl->until_stopped || wl->stop_bytes || wl->stop_window_pct || wl->steady.window_s;
}

/* the step's progress now and then, as records come */
static void s_line(const struct s_att *a, uint32_t k, bool first)
{
	char line[BC_NAME_MAX + 160];

	snprintf(line, sizeof(line), "%s %s: second %u of %u%s", first ? "re-attached:" : "  ",
		 a->name, k, a->seconds,
		 first ? " (the agents kept the load and its records through the gap)" : "");
	bc_live_fold(bc_live_out(), bc_live_cols(), 4, line);
	fflush(bc_live_out());
}

/*
 * one message of the re-attached step, logged as stepexec.c logs it unless
 * the log has it already; *pending counts the agents without STEP_DONE
 */
static int s_on_message(struct bc_rundir *rd, const struct bc_resume *res, struct bc_conn *c,
			struct bc_msg *m, int *pending, char *err, size_t errlen)
{
	struct bc_stats_hdr h;
	cJSON *ev;
	double k;

	switch (m->type) {
	case BC_MSG_STATS:
		if (bc_stats_decode_hdr(m->bin, m->bin_len, &h)) {
			snprintf(err, errlen, "agent %s (%s): malformed STATS record",
				 c->spec->name, c->endpoint);
			return -EBADMSG;
		}
		if (h.second == BC_STATS_DRAIN ? res->drained[c->index]
					       : h.second < res->held[c->index])
			return 0; /* in the log already: sent again, dropped */
		if (h.second != BC_STATS_DRAIN && h.second >= c->stats_next)
			c->stats_next = h.second + 1;
		bc_rundir_stats(rd, NULL, c, &h, m->bin, m->bin_len);
		return 0;
	case BC_MSG_HOST:
		k = bc_rj_num(m->json, "second");
		if (k < res->held[c->index])
			return 0;
		ev = cJSON_Duplicate(m->json, 1);
		cJSON_AddStringToObject(ev, "agent", c->spec->name);
		bc_rundir_event(rd, "host", ev);
		return 0;
	case BC_MSG_STEP_DONE:
		if (!c->done) {
			c->done = true;
			(*pending)--;
			if (!res->done[c->index]) {
				ev = cJSON_Duplicate(m->json, 1);
				cJSON_AddStringToObject(ev, "agent", c->spec->name);
				bc_rundir_event(rd, "step_done", ev);
			}
		}
		return 0;
	case BC_MSG_HEARTBEAT:
	case BC_MSG_TIME:
		return 0;
	default:
		snprintf(err, errlen, "agent %s (%s): %s in the re-attached step: %s",
			 c->spec->name, c->endpoint, bc_msg_name(m->type),
			 bc_rj_str("", m->json, "message"));
		return -EIO;
	}
}

/* the coordinator_gap event: where each agent goes on, how long the gap was */
static void s_gap_event(struct bc_fleet *f, struct bc_rundir *rd, const struct bc_resume *res,
			const struct s_att *a)
{
	cJSON *ev = cJSON_CreateObject(), *ags = cJSON_CreateObject();
	uint64_t now = bc_real_ns();
	uint32_t from = UINT32_MAX, replayed = 0;
	int i;

	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(c->hello, "reattach");
		uint32_t held = res->held[c->index], sent = (uint32_t)bc_rj_num(r, "sent");
		cJSON *o = cJSON_AddObjectToObject(ags, c->spec->name);

		cJSON_AddNumberToObject(o, "from_second", held);
		cJSON_AddNumberToObject(o, "sent_seconds", sent);
		cJSON_AddNumberToObject(o, "silent_ms", bc_rj_num(r, "silent_ms"));
		if (held < from)
			from = held;
		if (sent > held && sent - held > replayed)
			replayed = sent - held;
	}
	cJSON_AddNumberToObject(ev, "step", a->step);
	cJSON_AddStringToObject(ev, "name", a->name);
	cJSON_AddNumberToObject(ev, "from_second", from == UINT32_MAX ? 0 : from);
	/* from the dead coordinator's last word in the log to this one's re-attach */
	cJSON_AddNumberToObject(ev, "gap_s",
				res->last_ns && now > res->last_ns
				    ? (double)((now - res->last_ns) / BC_NS_PER_MS) / 1000.0
				    : 0);
	cJSON_AddNumberToObject(ev, "grace_s", f->prof->orphan_grace_s);
	cJSON_AddNumberToObject(ev, "replayed_seconds", replayed);
	cJSON_AddItemToObject(ev, "agents", ags);
	bc_rundir_event(rd, "coordinator_gap", ev);
}

int bc_reattach_run(struct bc_fleet *f, struct bc_rundir *rd, const struct bc_resume *res,
		    char *why, size_t whylen)
{
	struct s_att a;
	uint64_t end, last_line = 0;
	uint32_t shown = 0;
	int i, rc = 0, pending = 0;

	why[0] = 0;
	if (!res->open_step || !f->prof->orphan_grace_s)
		return 0;
	s_step_of(res, &a);
	if (a.step >= 0 && a.step < f->prof->nsteps && s_judged_live(&f->prof->steps[a.step].wl))
		snprintf(why, whylen,
			 "step %s ends by a rule judged on its live seconds (until_stopped, "
			 "stop_bytes, stop_window_pct or stop_steady), which a re-attached step "
			 "does not judge",
			 a.name);
	if (why[0] || !s_all_attached(f, res, why, whylen)) {
		/* a step cannot go on with part of its agents: it runs again, from its start */
		for (i = 0; i < f->n; i++)
			if (cJSON_GetObjectItemCaseSensitive(f->conns[i].hello, "reattach"))
				bc_fleet_send(f, &f->conns[i], BC_MSG_ABORT, NULL);
		return 0;
	}
	s_gap_event(f, rd, res, &a);
	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];
		cJSON *b = cJSON_CreateObject();

		c->done = false;
		c->stats_next = res->held[c->index];
		c->last_heard_ns = bc_mono_ns();
		cJSON_AddNumberToObject(b, "step", a.step);
		cJSON_AddNumberToObject(b, "from", res->held[c->index]);
		bc_fleet_send(f, c, BC_MSG_REATTACH, b);
		cJSON_Delete(b);
		pending++;
	}
	end = a.start_ns + (uint64_t)a.seconds * BC_NS_PER_S;
	while (pending && !rc) {
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char rerr[256] = "";
		uint64_t mono;

		if (zsys_interrupted) {
			snprintf(why, whylen, "interrupted");
			rc = -EINTR;
			break;
		}
		rc = bc_fleet_recv(f, 100, &c, &m, rerr, sizeof(rerr));
		if (rc == -ETIMEDOUT || rc == -EINTR)
			rc = 0;
		else if (c && !rc)
			rc = s_on_message(rd, res, c, &m, &pending, why, whylen);
		else if (c) {
			snprintf(why, whylen, "agent %s (%s): %s", c->spec->name, c->endpoint,
				 rerr);
			rc = -EIO;
		}
		bc_msg_clear(&m);
		bc_fleet_beat(f);
		mono = bc_mono_ns();
		for (i = 0; i < f->n && !rc; i++) {
			struct bc_conn *x = &f->conns[i];

			if (x->done || mono - x->last_heard_ns <= S_SILENCE_MS * BC_NS_PER_MS ||
			    bc_fleet_waiting(f, x))
				continue;
			snprintf(why, whylen,
				 "agent %s (%s) silent for %d s in the re-attached step (its last "
				 "record: second %u)",
				 x->spec->name, x->endpoint, S_SILENCE_MS / 1000,
				 x->stats_next ? x->stats_next - 1 : 0);
			rc = -ETIMEDOUT;
		}
		if (!rc && bc_real_ns() > end + S_DRAIN_MS * BC_NS_PER_MS) {
			snprintf(why, whylen,
				 "%d agent(s) did not finish the re-attached step within %d s of "
				 "its end",
				 pending, S_DRAIN_MS / 1000);
			rc = -ETIMEDOUT;
		}
		if (!f->opts->quiet && (!last_line || mono - last_line >= S_LINE_NS)) {
			uint32_t k = UINT32_MAX;

			for (i = 0; i < f->n; i++)
				if (f->conns[i].stats_next < k)
					k = f->conns[i].stats_next;
			if (!last_line || k != shown)
				s_line(&a, k, !last_line);
			shown = k;
			last_line = mono;
		}
	}
	if (rc) {
		bc_fleet_broadcast(f, BC_MSG_ABORT, NULL);
		return rc == -EINTR ? rc : 0;
	}
	return 1;
}
