/*
 * session/control.c - the agent's control loop: one ROUTER socket (CURVE unless
 * --insecure, see auth.c), one coordinator session at a time (others get
 * BUSY), heartbeats both ways, and the dispatch of protocol messages to
 * step.c. Whatever is malformed, oversized, of another version or from a
 * peer without the session is dropped, counted and answered without
 * blocking: no peer can stall this thread. I/O runs in job threads; this
 * thread only moves messages and per-second records.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nvme/tcp.h"
#include "session/announce.h"
#include "session/auth.h"
#include "session/backed.h"
#include "session/control.h"
#include "session/hostinfo.h"
#include "session/orphan.h"
#include "session/step.h"
#include "engine/kvgen.h"
#include "sim/dev.h"
#include "util/clock.h"
#include "util/curve.h"
#include "util/json.h"
#include "util/log.h"
#include "wire/proto.h"

/* poll often while a step runs: records leave within ~10 ms of a boundary */
#define S_TICK_RUN_MS  10
#define S_TICK_IDLE_MS 200

static bool s_is_owner(const struct bc_agent *a, const struct bc_msg *m)
{
	return a->owner && zframe_eq(a->owner, m->id);
}

/* past the silence limit, how long a message waiting unread defers the dead-man switch */
#define S_WAITING_MS 1000
/* a coordinator silence longer than this is logged when it ends */
#define S_GAP_LOG_MS 2000

/* the router's normal send timeout: a vanished coordinator fails a send after 1 s */
#define S_SNDTIMEO_MS 1000

/*
 * An ERROR to a peer that may not be reading (garbage, a second
 * coordinator): never wait for room in its queue, drop the reply instead.
 */
static void s_reply_nowait(struct bc_agent *a, zframe_t *id, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void s_reply_nowait(struct bc_agent *a, zframe_t *id, const char *code, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	zsock_set_sndtimeo(a->sock, 0);
	bc_msg_send_error(a->sock, id, code, "%s", buf);
	zsock_set_sndtimeo(a->sock, S_SNDTIMEO_MS);
}

/* the coordinator's CURVE key, as the ZAP handler set it on the connection */
static const char *s_peer_key(const struct bc_msg *m)
{
	zframe_t *f = m->raw ? zmsg_first(m->raw) : NULL;
	const char *k = f ? zframe_meta(f, "User-Id") : NULL;

	return k && *k ? k : NULL;
}

/* the sender's address as libzmq saw it ("Peer-Address"), NULL when unknown */
static const char *s_peer_addr(const struct bc_msg *m)
{
	zframe_t *f = m->raw ? zmsg_first(m->raw) : NULL;
	const char *k = f ? zframe_meta(f, "Peer-Address") : NULL;

	return k && *k ? k : NULL;
}

static void s_end_session(struct bc_agent *a, const char *why)
{
	if (!a->owner)
		return;
	bc_info("session with %s ended: %s (longest coordinator silence %llu ms)", a->owner_name,
		why, (unsigned long long)(a->max_gap_ns / BC_NS_PER_MS));
	bc_step_teardown(a);
	bc_orphan_free(a);
	/* simulated SSDs live for one session: the next run starts fresh (docs/sim.md) */
	bc_sim_dev_forget_all();
	/* so do the KV stores the jobs kept between steps (engine/kvgen.h) */
	bc_kvgen_forget(NULL);
	/* files made and windows written are this session's: the next lays its own out */
	bc_backed_forget(a);
	zframe_destroy(&a->owner);
	a->owner_name[0] = 0;
	a->owner_key[0] = 0;
	cJSON_Delete(a->destructive);
	a->destructive = NULL;
	if (a->opts.exit_on_bye)
		a->quit = true;
}

static void s_on_hello(struct bc_agent *a, struct bc_msg *m)
{
	const cJSON *who = cJSON_GetObjectItemCaseSensitive(m->json, "coordinator");
	cJSON *reply, *o;

	const char *why = NULL;
	bool taken = false;

	/* a resumed run's coordinator takes over the session of the step it resumes */
	if (a->owner && !s_is_owner(a, m) &&
	    (taken = bc_orphan_may_take(a, m->json, s_peer_key(m), &why))) {
		a->orphan.silent_ns = bc_mono_ns() - a->last_heard_ns;
		bc_info("session of %s taken over by %s: a resumed run re-attaches to step %u "
			"after %llu ms of coordinator silence",
			a->owner_name, cJSON_IsString(who) ? who->valuestring : "?", a->orphan.step,
			(unsigned long long)(a->orphan.silent_ns / BC_NS_PER_MS));
		zframe_destroy(&a->owner);
		a->owner = zframe_dup(m->id);
		snprintf(a->owner_name, sizeof(a->owner_name), "%s",
			 cJSON_IsString(who) ? who->valuestring : "unnamed coordinator");
		/* nothing is sent until its REATTACH says from which second */
		a->orphan.paused = true;
		a->orphan.send_failed = false;
	}
	if (a->owner && !s_is_owner(a, m)) {
		cJSON *b = cJSON_CreateObject();

		cJSON_AddStringToObject(b, "owner", a->owner_name);
		bc_json_add_u64(b, "since_ns", a->owner_since_ns);
		cJSON_AddStringToObject(b, "message",
					why ? why : "agent is serving another coordinator");
		zsock_set_sndtimeo(a->sock, 0);
		bc_msg_send_json(a->sock, m->id, BC_MSG_BUSY, b);
		zsock_set_sndtimeo(a->sock, S_SNDTIMEO_MS);
		cJSON_Delete(b);
		bc_auth_counters(a->auth)->refused++;
		bc_auth_log_drop(a->auth, "refused a second coordinator (%s): busy with %s",
				 cJSON_IsString(who) ? who->valuestring : "?", a->owner_name);
		return;
	}
	if (!a->owner) {
		const char *key = s_peer_key(m);

		a->owner = zframe_dup(m->id);
		snprintf(a->owner_name, sizeof(a->owner_name), "%s",
			 cJSON_IsString(who) ? who->valuestring : "unnamed coordinator");
		a->owner_since_ns = bc_real_ns();
		snprintf(a->owner_key, sizeof(a->owner_key), "%s", key ? key : "");
		a->last_beat_ns = 0;
		a->max_gap_ns = 0;
		bc_info("session started by %s%s%s%s", a->owner_name, key ? " (key " : "",
			key ? key : "", key ? ")" : "");
	}
	/* the profile's consent to destroy, per path; the agent's flag is checked at PREPARE */
	cJSON_Delete(a->destructive);
	a->destructive =
	    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(m->json, "destructive"), true);
	if (a->destructive && !cJSON_IsArray(a->destructive)) {
		cJSON_Delete(a->destructive);
		a->destructive = NULL;
	}
	a->last_heard_ns = bc_mono_ns();
	reply = bc_hostinfo_json(a, cJSON_GetObjectItemCaseSensitive(m->json, "paths"));
	if (!reply) {
		bc_msg_send_error(a->sock, m->id, "nomem", "out of memory");
		return;
	}
	cJSON_AddItemToObject(reply, "security", bc_auth_json(a->auth));
	if (taken)
		cJSON_AddItemToObject(reply, "reattach", bc_orphan_hello_json(a));
	else if ((o = bc_orphan_end_json(a, m->json)))
		cJSON_AddItemToObject(reply, "orphan_end", o); /* what the resume lost */
	bc_msg_send_json(a->sock, m->id, BC_MSG_HELLO_OK, reply);
	cJSON_Delete(reply);
}

static void s_on_time(struct bc_agent *a, struct bc_msg *m)
{
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(m->json, "seq");
	cJSON *r = cJSON_CreateObject();

	cJSON_AddNumberToObject(r, "seq", cJSON_IsNumber(seq) ? seq->valuedouble : 0);
	/* read as late as possible: the coordinator assumes mid-RTT */
	bc_json_add_u64(r, "agent_ns", bc_real_ns());
	bc_msg_send_json(a->sock, m->id, BC_MSG_TIME, r);
	cJSON_Delete(r);
}

/*
 * `bench-coord discover`: read one discovery log. It blocks this thread for
 * the connect (seconds when the address does not answer), so never while a
 * step is prepared or running.
 */
static void s_on_discover(struct bc_agent *a, struct bc_msg *m)
{
	struct bc_disc_req r;
	char err[1024];
	cJSON *reply;

	if (a->step.prepared || a->step.running) {
		bc_msg_send_error(a->sock, m->id, "busy", "DISCOVER refused: a step is %s",
				  a->step.running ? "running" : "prepared");
		return;
	}
	if (bc_disc_req_from_json(m->json, &r, err, sizeof(err))) {
		bc_msg_send_error(a->sock, m->id, "discover", "DISCOVER: %s", err);
		return;
	}
	/* the live system: "" (tests drive bc_nvme_tcp_disc_list on fixture roots) */
	reply = bc_nvme_tcp_disc_list("", &r, err, sizeof(err));
	a->last_heard_ns = bc_mono_ns();
	if (!reply) {
		bc_warn("%s", err);
		bc_msg_send_error(a->sock, m->id, "discover", "%s", err);
		return;
	}
	bc_info("discovery log at %s:%s: %d entries", r.traddr, r.trsvcid,
		cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(reply, "entries")));
	bc_msg_send_json(a->sock, m->id, BC_MSG_DISCOVERY_LOG, reply);
	cJSON_Delete(reply);
}

static void s_dispatch(struct bc_agent *a, struct bc_msg *m)
{
	if (m->type == BC_MSG_HELLO) {
		s_on_hello(a, m);
		return;
	}
	if (!s_is_owner(a, m)) {
		/* a stale or foreign peer: tell it, never act on it */
		bc_auth_counters(a->auth)->refused++;
		bc_auth_log_drop(a->auth, "refused %s from a peer without the session",
				 bc_msg_name(m->type));
		s_reply_nowait(a, m->id, a->owner ? "busy" : BC_ERR_NO_SESSION, "%s refused: %s",
			       bc_msg_name(m->type),
			       a->owner ? "agent is serving another coordinator"
					: "send HELLO first");
		return;
	}
	{
		uint64_t now = bc_mono_ns();

		if (now - a->last_heard_ns > a->max_gap_ns)
			a->max_gap_ns = now - a->last_heard_ns;
		/* a long silence that did not end the session, for whoever tunes a fleet */
		if (now - a->last_heard_ns > S_GAP_LOG_MS * BC_NS_PER_MS)
			bc_info("heard the coordinator again after %llu ms of silence (%s)",
				(unsigned long long)((now - a->last_heard_ns) / BC_NS_PER_MS),
				a->step.running ? "I/O running" : "no I/O running");
		a->last_heard_ns = now;
		bc_orphan_heard(a);
	}
	switch (m->type) {
	case BC_MSG_TIME:
		s_on_time(a, m);
		break;
	case BC_MSG_PREPARE:
		bc_step_prepare(a, m->json);
		break;
	case BC_MSG_CHECK:
		bc_step_check(a, m->json);
		break;
	case BC_MSG_START:
		bc_step_start(a, m->json);
		break;
	case BC_MSG_HEARTBEAT:
		break;
	case BC_MSG_STOP:
		bc_step_stop(a, m->json);
		break;
	case BC_MSG_ABORT:
		bc_info("step aborted by the coordinator");
		bc_step_teardown(a);
		bc_orphan_free(a);
		break;
	case BC_MSG_REATTACH:
		bc_orphan_reattach(a, m->json);
		break;
	case BC_MSG_BYE:
		s_end_session(a, "BYE");
		break;
	case BC_MSG_DISCOVER:
		s_on_discover(a, m);
		break;
	default:
		bc_msg_send_error(a->sock, m->id, "unexpected", "agent does not accept %s",
				  bc_msg_name(m->type));
		break;
	}
}

static void s_recv_one(struct bc_agent *a)
{
	struct bc_msg m;
	char err[256];
	int rc;

	struct bc_agent_counters *n = bc_auth_counters(a->auth);
	const char *key, *addr;
	size_t size;

	rc = bc_msg_recv(a->sock, true, &m, err, sizeof(err));
	key = s_peer_key(&m);
	addr = s_peer_addr(&m);
	size = m.raw ? zmsg_content_size(m.raw) : 0;
	if (m.id && (size > BC_AGENT_MSG_MAX || rc == -EPROTO || rc == -EBADMSG))
		bc_auth_count_drop(a->auth, addr);
	if (!m.id) {
		/* nothing to answer: a ROUTER always prefixes the routing id */
	} else if (size > BC_AGENT_MSG_MAX) {
		n->oversized++;
		bc_auth_log_drop(a->auth,
				 "dropped a %zu-byte message from %s at %s: larger than %u bytes",
				 size, key ? key : "a peer", addr ? addr : "?", BC_AGENT_MSG_MAX);
		s_reply_nowait(a, m.id, "too-large", "message of %zu bytes exceeds %u", size,
			       BC_AGENT_MSG_MAX);
	} else if (rc == -EPROTO) {
		n->wrong_version++;
		bc_auth_log_drop(a->auth, "dropped a message from %s at %s: %s",
				 key ? key : "a peer", addr ? addr : "?", err);
		s_reply_nowait(
		    a, m.id, "version",
		    "protocol version mismatch: coordinator speaks %d, agent %s speaks %d",
		    m.version, BC_VERSION, BC_PROTO_VERSION);
	} else if (rc == -EBADMSG) {
		n->malformed++;
		bc_auth_log_drop(a->auth, "dropped a bad message from %s at %s: %s",
				 key ? key : "a peer", addr ? addr : "?", err);
		s_reply_nowait(a, m.id, "bad-message", "%s", err);
	} else if (!rc) {
		s_dispatch(a, &m);
	}
	bc_msg_clear(&m);
}

/*
 * The dead-man switch. While I/O runs, BC_AGENT_SILENCE_MS of silence stops
 * it: the coordinator may be gone, and the load must not outlive it. With no
 * I/O running nothing is at stake but the session, and a coordinator busy
 * writing a large run's results may be slow yet alive, so an idle session
 * waits BC_AGENT_IDLE_SILENCE_MS; a coordinator that is really gone is seen
 * sooner, when its connection has closed and the heartbeat to it cannot be
 * routed (ROUTER_MANDATORY: EHOSTUNREACH). --deadman-ms (tests) sets both.
 */
static void s_tick(struct bc_agent *a)
{
	uint64_t now = bc_mono_ns();
	/* a step with an orphan_grace runs on that long (session/orphan.h) */
	uint32_t limit = bc_orphan_limit_ms(a);

	if (!a->owner)
		return;
	if (a->orphan.overflow) {
		bc_orphan_note_end(a, "the records it kept for its silent coordinator filled "
				      "their buffer");
		s_end_session(a, "the records kept for a silent coordinator filled their buffer");
		return;
	}
	/*
	 * A message that waits unread may be the heartbeat this thread, late on
	 * a starved host, has not read yet: one more second for it, no more (it
	 * may be another peer's, and those must not keep a session alive).
	 */
	if (now - a->last_heard_ns > limit * BC_NS_PER_MS &&
	    (now - a->last_heard_ns > (limit + S_WAITING_MS) * BC_NS_PER_MS ||
	     !(zsock_events(a->sock) & ZMQ_POLLIN))) {
		if (a->orphan.grace_ms && bc_orphan_holds(a)) {
			bc_warn("coordinator %s silent for %u ms, its orphan_grace: stopping all "
				"I/O; the records kept for it (seconds %u to %u) are dropped",
				a->owner_name, limit, bc_orphan_oldest(a),
				a->orphan.next_k ? a->orphan.next_k - 1 : 0);
			bc_orphan_note_end(a, "its orphan_grace ran out");
		} else
			bc_warn("coordinator %s silent for %u ms: stopping all I/O", a->owner_name,
				limit);
		s_end_session(a, "coordinator silent");
		return;
	}
	bc_orphan_tick(a);
	if (a->step.running)
		bc_step_poll(a);
	if (a->orphan.overflow) {
		bc_orphan_note_end(a, "the records it kept for its silent coordinator filled "
				      "their buffer");
		s_end_session(a, "the records kept for a silent coordinator filled their buffer");
		return;
	}
	if (a->step.layout)
		bc_step_layout_poll(a);
	if (a->owner && now - a->last_beat_ns >= BC_NS_PER_S) {
		int rc = bc_msg_send_json(a->sock, a->owner, BC_MSG_HEARTBEAT, NULL);

		a->last_beat_ns = now;
		if (rc && zmq_errno() == EHOSTUNREACH && !bc_orphan_holds(a)) {
			bc_warn("coordinator %s: connection closed", a->owner_name);
			s_end_session(a, "coordinator gone");
		}
	}
}

/* an endpoint only this host can reach */
static bool s_loopback(const char *ep)
{
	return !strncmp(ep, "ipc://", 6) || !strncmp(ep, "inproc://", 9) ||
	       !strncmp(ep, "tcp://127.", 10) || !strncmp(ep, "tcp://localhost:", 16) ||
	       !strncmp(ep, "tcp://[::1]:", 12);
}

static int s_report_endpoint(struct bc_agent *a)
{
	size_t len = strlen(a->endpoint);
	int rc = 0;

	if (a->opts.ready_fd < 0)
		return 0;
	if (write(a->opts.ready_fd, a->endpoint, len) != (ssize_t)len ||
	    write(a->opts.ready_fd, "\n", 1) != 1)
		rc = -errno;
	close(a->opts.ready_fd);
	return rc;
}

int bc_agent_run(struct bc_agent *a)
{
	struct bc_announce *announce = NULL;
	zpoller_t *poller = NULL;
	const char *ep;
	int rc = -1;

	char err[1024];

	zsys_init();
	a->sock = zsock_new(ZMQ_ROUTER);
	if (!a->sock) {
		bc_error("cannot create the control socket");
		goto out;
	}
	/* fail a send to a vanished coordinator instead of queueing it forever */
	zsock_set_router_mandatory(a->sock, 1);
	zsock_set_sndtimeo(a->sock, S_SNDTIMEO_MS);
	zsock_set_linger(a->sock, 500);
	a->auth = bc_auth_new(a->sock, a->opts.cert, a->opts.authorized_keys, a->opts.insecure,
			      a->opts.handshake_ms, err, sizeof(err));
	if (!a->auth) {
		bc_error("%s", err);
		goto out;
	}
	if (a->opts.insecure && !s_loopback(a->opts.listen))
		bc_warn("--insecure on %s: anyone who can reach it can run I/O on this host's "
			"allowed paths; use only on an isolated, trusted network",
			a->opts.listen);
	if (zsock_bind(a->sock, "%s", a->opts.listen) < 0) {
		bc_error("cannot listen on '%s': %s", a->opts.listen, zmq_strerror(zmq_errno()));
		goto out;
	}
	ep = zsock_endpoint(a->sock);
	snprintf(a->endpoint, sizeof(a->endpoint), "%s", ep ? ep : a->opts.listen);
	if (s_report_endpoint(a)) {
		bc_error("cannot report the endpoint on fd %d: %s", a->opts.ready_fd,
			 strerror(errno));
		goto out;
	}
	if (a->opts.insecure) {
		bc_info("bench-agent %s listening on %s, plain text, no authentication (scratch "
			"%s)",
			BC_VERSION, a->endpoint, a->opts.scratch_dir);
	} else {
		bc_curve_fingerprint(bc_auth_public_key(a->auth), a->fingerprint);
		bc_info("bench-agent %s listening on %s, CURVE, public key %s, fingerprint %s "
			"(scratch %s)",
			BC_VERSION, a->endpoint, bc_auth_public_key(a->auth), a->fingerprint,
			a->opts.scratch_dir);
	}
	poller = zpoller_new(a->sock, bc_auth_monitor_sock(a->auth), NULL);
	if (!poller ||
	    (bc_auth_zap_sock(a->auth) && zpoller_add(poller, bc_auth_zap_sock(a->auth))))
		goto out;
	if (!a->opts.insecure && a->opts.announce && a->opts.announce[0]) {
		announce = bc_announce_new(a->opts.announce, bc_auth_public_key(a->auth),
					   a->endpoint, err, sizeof(err));
		if (!announce && !a->opts.announce_given) {
			/*
			 * the default port+1 may be taken, typically by a second
			 * agent on this host listening there: this agent still
			 * serves, only keyscan cannot reach it. Said once, at start.
			 */
			bc_warn("%s (the key announcement defaults to the control port + 1; "
				"another bench-agent on this host?): this agent serves on %s as "
				"usual, but bench-coord keyscan cannot reach it: give "
				"--key-announce tcp://*:PORT with a free port, or "
				"--key-announce off",
				err, a->endpoint);
		} else if (!announce || zpoller_add(poller, bc_announce_sock(announce))) {
			bc_error("%s", err);
			goto out;
		} else if (bc_auth_watch_announce(a->auth, bc_announce_sock(announce)) ||
			   zpoller_add(poller, bc_auth_announce_monitor_sock(a->auth))) {
			bc_error("cannot watch the key announcement's connections: %s",
				 zmq_strerror(zmq_errno()));
			goto out;
		} else {
			bc_info(
			    "public key announced for bench-coord keyscan on %s (fingerprint %s)",
			    bc_announce_bound(announce), a->fingerprint);
		}
	}
	while (!a->quit && !zsys_interrupted) {
		void *which =
		    zpoller_wait(poller, a->step.running ? S_TICK_RUN_MS : S_TICK_IDLE_MS);

		if (which == a->sock)
			s_recv_one(a);
		else if (which && which == bc_auth_zap_sock(a->auth))
			bc_auth_on_zap(a->auth);
		else if (which && which == bc_auth_monitor_sock(a->auth))
			bc_auth_on_monitor(a->auth);
		else if (which && which == bc_announce_sock(announce))
			bc_announce_on_readable(announce);
		else if (which && which == bc_auth_announce_monitor_sock(a->auth))
			bc_auth_on_announce_monitor(a->auth);
		else if (zpoller_terminated(poller))
			break;
		s_tick(a);
	}
	s_end_session(a, zsys_interrupted ? "agent interrupted" : "agent exiting");
	rc = 0;
out:
	bc_step_teardown(a);
	zpoller_destroy(&poller);
	bc_announce_destroy(&announce);
	zsock_destroy(&a->sock);
	bc_auth_destroy(&a->auth);
	cJSON_Delete(a->destructive);
	a->destructive = NULL;
	return rc;
}
