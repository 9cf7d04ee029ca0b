/*
 * session/orphan.c - a step that outlives its coordinator (session/orphan.h).
 * Every message of the step goes into the ring before it is sent: a record
 * sent into a connection that was dying, or received by a coordinator that
 * died before writing it, is still here for the one that comes back, which
 * says from which second it lacks them. The ring only lets go of seconds
 * the coordinator surely holds: those S_MARGIN_S seconds or more before the
 * newest while it is heard; once it is silent nothing newer leaves.
 */
#include <errno.h>
#include <string.h>

#include "session/orphan.h"
#include "session/replay.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/log.h"
#include "wire/stats.h"

/*
 * seconds a heard coordinator may still lack: in its sockets, its writer's
 * queue, unwritten when it died (records.bin is written behind the loop)
 */
#define S_MARGIN_S 10
/* a coordinator heard within this is alive: what it was sent long ago it holds */
#define S_HEARD_MS 1500
/* a session is taken over only from a coordinator silent this long (it heartbeats at 2 Hz) */
#define S_TAKE_SILENT_MS 2000

static uint32_t s_grace_s(uint32_t grace_ms)
{
	return (grace_ms + 999) / 1000;
}

int bc_orphan_prepare(struct bc_agent *a, const cJSON *body, char *err, size_t errlen)
{
	struct bc_orphan *o = &a->orphan;
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(body, "orphan_grace_ms");
	const struct bc_workload *wl = &a->step.wl;
	uint32_t secs;
	size_t bytes;

	bc_orphan_free(a);
	if (g &&
	    (!cJSON_IsNumber(g) || g->valuedouble < 0 || g->valuedouble > BC_ORPHAN_GRACE_MAX_MS)) {
		snprintf(err, errlen, "PREPARE: orphan_grace_ms must be 0 to %u",
			 BC_ORPHAN_GRACE_MAX_MS);
		return -EINVAL;
	}
	o->grace_ms = g ? (uint32_t)g->valuedouble : 0;
	if (!o->grace_ms)
		return 0; /* the dead-man switch alone: nothing kept, nothing handed over */
	/* the grace and the margin, no more than the step (a step run until stopped: the grace) */
	secs = s_grace_s(o->grace_ms) + S_MARGIN_S + 2;
	if (!wl->until_stopped && wl->ramp_s + wl->runtime_s + 2 < secs)
		secs = wl->ramp_s + wl->runtime_s + 2;
	bytes = bc_replay_bytes(secs, a->step.ntargets);
	if (bytes > BC_ORPHAN_RING_MAX) {
		snprintf(err, errlen,
			 "PREPARE: orphan_grace of %u s over %d volume(s) needs a %zu MiB record "
			 "buffer, more than the %zu MiB an agent keeps: shorten orphan_grace",
			 o->grace_ms / 1000, a->step.ntargets, bytes >> 20,
			 BC_ORPHAN_RING_MAX >> 20);
		return -E2BIG;
	}
	o->ring = bc_replay_new(secs, a->step.ntargets, (size_t)a->opts.orphan_ring_kib << 10);
	if (!o->ring) {
		snprintf(err, errlen,
			 "PREPARE: no memory for a %zu MiB record buffer (orphan_grace)",
			 bytes >> 20);
		return -ENOMEM;
	}
	return 0;
}

void bc_orphan_start(struct bc_agent *a)
{
	struct bc_orphan *o = &a->orphan;

	o->step = a->step.step;
	o->start_ns = a->step.start_real_ns;
	o->seconds = a->step.seconds;
	o->next_k = 0;
	o->started = true;
}

int bc_orphan_send(struct bc_agent *a, enum bc_msg_type t, uint32_t second, const void *body,
		   size_t len)
{
	struct bc_orphan *o = &a->orphan;
	uint64_t quiet = bc_mono_ns() - a->last_heard_ns;
	int rc;

	if (o->ring && bc_replay_put(o->ring, (uint32_t)t, second, body, len)) {
		if (!o->overflow)
			bc_warn(
			    "the records kept for a silent coordinator fill their %zu KiB after "
			    "%llu ms of silence: stopping all I/O",
			    o->ring->cap >> 10, (unsigned long long)(quiet / BC_NS_PER_MS));
		o->overflow = true;
		return -ENOSPC;
	}
	if (o->ring && second != BC_STATS_DRAIN && second + 1 > o->next_k)
		o->next_k = second + 1;
	if (o->paused)
		return 0;
	rc = bc_msg_send_bin(a->sock, a->owner, t, body, len);
	/* a coordinator gone: the ring keeps what it will be sent, said once */
	if (rc && o->ring && quiet > S_HEARD_MS * BC_NS_PER_MS) {
		if (!o->send_failed)
			bc_info("coordinator %s silent for %llu ms and its connection gone: "
				"keeping the step's records for it (orphan_grace %u s)",
				a->owner_name, (unsigned long long)(quiet / BC_NS_PER_MS),
				o->grace_ms / 1000);
		o->send_failed = true;
		return 0;
	}
	return rc;
}

/*
 * Held until the coordinator speaks again (bc_orphan_heard): one that died
 * a moment before the step's end heartbeats no more, and its STEP_DONE may
 * have gone into a dying connection; a live one speaks within half a second
 */
void bc_orphan_step_done(struct bc_agent *a)
{
	struct bc_orphan *o = &a->orphan;

	if (!o->ring || !o->started || !o->grace_ms)
		return;
	o->held = true;
	if (o->paused || bc_mono_ns() - a->last_heard_ns > S_HEARD_MS * BC_NS_PER_MS)
		bc_info("step %u ended while its coordinator is silent: its records are kept for "
			"%u s of silence",
			o->step, s_grace_s(o->grace_ms));
}

void bc_orphan_heard(struct bc_agent *a)
{
	struct bc_orphan *o = &a->orphan;

	/* an owner that speaks again hears what was sent meanwhile: the connection held */
	if (!o->paused) {
		o->held = false;
		o->send_failed = false;
	}
}

void bc_orphan_tick(struct bc_agent *a)
{
	struct bc_orphan *o = &a->orphan;

	if (!o->ring || o->paused || bc_mono_ns() - a->last_heard_ns > S_HEARD_MS * BC_NS_PER_MS)
		return;
	o->ring->keep_from = o->next_k > S_MARGIN_S ? o->next_k - S_MARGIN_S : 0;
}

uint32_t bc_orphan_oldest(const struct bc_agent *a)
{
	const struct bc_replay *r = a->orphan.ring;
	const uint8_t *b;

	return r && r->n ? bc_replay_at(r, 0, &b)->second : 0;
}

bool bc_orphan_holds(const struct bc_agent *a)
{
	return a->step.running || a->orphan.held;
}

uint32_t bc_orphan_limit_ms(const struct bc_agent *a)
{
	const struct bc_orphan *o = &a->orphan;
	uint32_t limit = a->opts.deadman_ms ? a->opts.deadman_ms
			 : a->step.running  ? BC_AGENT_SILENCE_MS
					    : BC_AGENT_IDLE_SILENCE_MS;

	/* the grace replaces the dead-man switch (and the idle limit of a step held) */
	return bc_orphan_holds(a) && o->grace_ms && o->ring ? o->grace_ms : limit;
}

bool bc_orphan_may_take(const struct bc_agent *a, const cJSON *hello, const char *key,
			const char **why)
{
	const struct bc_orphan *o = &a->orphan;
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(hello, "resume");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "step");
	uint64_t start = bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(r, "start_ns"));

	*why = "agent is serving another coordinator";
	if (!cJSON_IsObject(r))
		return false;
	if (!o->ring || !o->started || !bc_orphan_holds(a) || !cJSON_IsNumber(st) ||
	    (uint32_t)st->valuedouble != o->step || start != o->start_ns) {
		*why = "agent is serving another coordinator, in another step than the one "
		       "resumed";
		return false;
	}
	if (strcmp(key ? key : "", a->owner_key)) {
		*why = "a resumed run re-attaches only with the key of the coordinator that "
		       "started the step";
		return false;
	}
	if (bc_mono_ns() - a->last_heard_ns < S_TAKE_SILENT_MS * BC_NS_PER_MS) {
		*why = "agent is serving another coordinator, which is not silent";
		return false;
	}
	return true;
}

cJSON *bc_orphan_hello_json(const struct bc_agent *a)
{
	const struct bc_orphan *o = &a->orphan;
	const struct bc_replay *r = o->ring;
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "step", o->step);
	bc_json_add_u64(j, "start_ns", o->start_ns);
	cJSON_AddNumberToObject(j, "seconds", o->seconds);
	/* records of seconds 0 ... sent-1 were made, kept from kept_from on */
	cJSON_AddNumberToObject(j, "sent", o->next_k);
	cJSON_AddNumberToObject(j, "kept_from", r->dropped_to);
	cJSON_AddBoolToObject(j, "ended", o->held);
	cJSON_AddNumberToObject(j, "silent_ms", (double)(o->silent_ns / BC_NS_PER_MS));
	cJSON_AddNumberToObject(j, "grace_ms", o->grace_ms);
	return j;
}

void bc_orphan_reattach(struct bc_agent *a, const cJSON *body)
{
	struct bc_orphan *o = &a->orphan;
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(body, "step");
	const cJSON *from = cJSON_GetObjectItemCaseSensitive(body, "from");
	uint32_t k, i, sent = 0;
	int rc = 0;

	if (!o->paused || !o->ring || !cJSON_IsNumber(st) || !cJSON_IsNumber(from) ||
	    (uint32_t)st->valuedouble != o->step || from->valuedouble < 0) {
		bc_msg_send_error(a->sock, a->owner, "reattach",
				  "REATTACH: no step %d of a taken-over session here",
				  cJSON_IsNumber(st) ? st->valueint : -1);
		return;
	}
	k = (uint32_t)from->valuedouble;
	if (!bc_replay_has_from(o->ring, k)) {
		bc_msg_send_error(a->sock, a->owner, "reattach",
				  "REATTACH: the records of seconds %u to %u are no longer kept", k,
				  o->ring->dropped_to - 1);
		return;
	}
	for (i = 0; i < o->ring->n && !rc; i++) {
		const uint8_t *b;
		const struct bc_replay_ent *e = bc_replay_at(o->ring, i, &b);

		if (e->second < k)
			continue;
		rc = bc_msg_send_bin(a->sock, a->owner, (enum bc_msg_type)e->type, b, e->len);
		sent += !rc;
	}
	o->paused = false;
	bc_info("re-attached to step %u: %u message(s) of second %u on sent again%s", o->step, sent,
		k, rc ? " (a send failed)" : "");
	if (o->held) /* the step is over: what it kept has gone */
		o->held = false;
}

void bc_orphan_free(struct bc_agent *a)
{
	bc_replay_free(&a->orphan.ring);
	memset(&a->orphan, 0, sizeof(a->orphan));
}

void bc_orphan_note_end(struct bc_agent *a, const char *why)
{
	const struct bc_orphan *o = &a->orphan;
	struct bc_orphan_end *e = &a->orphan_end;

	if (!o->ring || !o->started)
		return;
	e->set = true;
	e->step = o->step;
	e->start_ns = o->start_ns;
	e->kept_from = bc_orphan_oldest(a);
	e->stopped_at = o->next_k;
	e->silent_ms = (uint32_t)((bc_mono_ns() - a->last_heard_ns) / BC_NS_PER_MS);
	snprintf(e->why, sizeof(e->why), "%s", why);
}

cJSON *bc_orphan_end_json(const struct bc_agent *a, const cJSON *hello)
{
	const struct bc_orphan_end *e = &a->orphan_end;
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(hello, "resume");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "step");
	cJSON *j;

	if (!e->set || !cJSON_IsNumber(st) || (uint32_t)st->valuedouble != e->step ||
	    bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(r, "start_ns")) != e->start_ns)
		return NULL;
	j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "step", e->step);
	cJSON_AddNumberToObject(j, "stopped_at", e->stopped_at);
	cJSON_AddNumberToObject(j, "kept_from", e->kept_from);
	cJSON_AddNumberToObject(j, "silent_ms", e->silent_ms);
	cJSON_AddStringToObject(j, "reason", e->why);
	return j;
}
