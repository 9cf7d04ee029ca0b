/*
 * run/reattach.c - a resumed run takes up the step in flight (run/reattach.h).
 * The log is replayed up to its end with the step left open (run/rebuild.h
 * bc_rebuild_open_step) and the step then runs live from there as any step
 * (run/stepexec.h bc_step_take_up): a record of a second the log holds
 * already, sent again because the agent cannot know what reached the disk,
 * is dropped; everything else is aggregated, shown, judged and logged as
 * live, and the replay of the whole log afterwards makes the step's entry.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "counters/counters.h"
#include "fleet/fleet.h"
#include "profile/workload/workload.h"
#include "results/files/rundir.h"
#include "run/live.h"
#include "run/reattach.h"
#include "run/rebuild.h"
#include "run/stepexec.h"
#include "run/steprun.h"
#include "run/steptable.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/stats.h"

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

		const cJSON *e = cJSON_GetObjectItemCaseSensitive(c->hello, "orphan_end");
		uint32_t held = res->held[c->index], at = (uint32_t)bc_rj_num(e, "stopped_at");

		if (!r && e && at > held) {
			/* it said what it stopped and what it dropped (agent/session/orphan.h) */
			s_why(why, len,
			      "agent %s no longer runs the step: it stopped its I/O in second %u "
			      "after %.0f ms of coordinator silence (%s); its records of seconds "
			      "%u to %u never reached the run directory and are lost",
			      c->spec->name, at, bc_rj_num(e, "silent_ms"),
			      bc_rj_str("?", e, "reason"), held, at - 1);
			ok = false;
		} else if (!r && e) {
			s_why(why, len,
			      "agent %s no longer runs the step: it stopped its I/O in second %u "
			      "after %.0f ms of coordinator silence (%s); the run directory has "
			      "every record it made",
			      c->spec->name, at, bc_rj_num(e, "silent_ms"),
			      bc_rj_str("?", e, "reason"));
			ok = false;
		} else if (!r) {
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

/* what the live view shows from here on, said once */
static void s_line(const struct s_att *a, uint32_t live_from)
{
	char line[BC_NAME_MAX + 200];

	snprintf(line, sizeof(line),
		 "re-attached: %s at second %u of %u: the agents kept the load and its "
		 "records through the gap; the seconds they kept come first",
		 a->name, live_from, a->seconds);
	bc_live_fold(bc_live_out(), bc_live_cols(), 4, line);
	fflush(bc_live_out());
}

/* the coordinator_gap event: where each agent goes on, how long the gap was */
static void s_gap_event(struct bc_fleet *f, struct bc_rundir *rd, const struct bc_resume *res,
			const struct s_att *a, uint64_t now, uint32_t live_from)
{
	cJSON *ev = cJSON_CreateObject(), *ags = cJSON_CreateObject();
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
	/*
	 * what this coordinator measures itself from the second boundary after
	 * it re-attached: node counters scraped from node_exporter (a
	 * Prometheus server scraped through the gap: its series are whole)
	 */
	cJSON_AddNumberToObject(ev, "live_from_second", live_from);
	if (bc_counters_active(f->counters))
		cJSON_AddNumberToObject(ev, "node_counters_from_second", live_from);
	cJSON_AddItemToObject(ev, "agents", ags);
	bc_rundir_event(rd, "coordinator_gap", ev);
}

/* the step's place in the run, for the live view's ETAs */
static void s_progress(struct bc_fleet *f, const struct s_att *a)
{
	f->progress.step = a->step;
	f->progress.nsteps = f->prof->nsteps;
	f->progress.after_s = bc_run_seconds_after(f->prof, a->step, &f->progress.after_entries);
}

int bc_reattach_run(struct bc_fleet *f, struct bc_rundir *rd, const struct bc_resume *res,
		    char *why, size_t whylen)
{
	struct bc_open_step os;
	struct s_att a;
	uint64_t now;
	uint32_t live_from;
	int i, rc;

	why[0] = 0;
	if (!res->open_step || !f->prof->orphan_grace_s)
		return 0;
	s_step_of(res, &a);
	rc = s_all_attached(f, res, why, whylen) ? 0 : -EAGAIN;
	/* the step as the log leaves it, its seconds and its stop rules' state */
	if (!rc)
		rc = bc_rebuild_open_step(rd->path, (struct bc_profile *)f->prof, f->counters, &os,
					  why, whylen);
	if (rc) {
		/* a step cannot go on with part of its agents: it runs again, from its start */
		for (i = 0; i < f->n; i++)
			if (cJSON_GetObjectItemCaseSensitive(f->conns[i].hello, "reattach"))
				bc_fleet_send(f, &f->conns[i], BC_MSG_ABORT, NULL);
		return 0;
	}
	now = bc_real_ns();
	live_from = now > a.start_ns ? (uint32_t)((now - a.start_ns) / BC_NS_PER_S) + 1 : 0;
	s_gap_event(f, rd, res, &a, now, live_from);
	os.res.idx = a.step;
	os.res.held = res->held;
	os.res.held_drain = res->drained;
	os.res.held_done = res->done;
	/* each volume's node as the dead coordinator's READYs decided it */
	if (!f->volnode) {
		f->volnode = os.volnode;
		os.volnode = NULL;
	}
	os.res.agg.volnode = f->volnode;
	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];
		cJSON *b = cJSON_CreateObject();

		c->stats_next = res->held[c->index];
		cJSON_AddNumberToObject(b, "step", a.step);
		cJSON_AddNumberToObject(b, "from", res->held[c->index]);
		bc_fleet_send(f, c, BC_MSG_REATTACH, b);
		cJSON_Delete(b);
	}
	if (!f->opts->quiet)
		s_line(&a, live_from);
	s_progress(f, &a);
	rc = bc_step_take_up(f, rd, &os.res, live_from);
	bc_live_step_end();
	if (rc)
		snprintf(why, whylen, "%s", os.res.error);
	else if (!f->opts->quiet)
		bc_result_print_step(bc_live_out(), &os.res, bc_live_cols());
	bc_fleet_step_free(f, &os.res);
	bc_open_step_free(&os);
	if (rc)
		return rc == -EINTR ? rc : 0;
	return 1;
}
