/*
 * wire/proto.h - the coordinator <-> agent protocol: message types and framing.
 *
 * Every message is ZeroMQ multipart: [routing id (ROUTER side only)]
 * [header] [body]. The header frame is "BC" + one byte protocol version +
 * the type name in ASCII ("BC\x01HELLO"), so a capture is readable and any
 * version can still be recognised. Bodies are JSON (cJSON) except STATS,
 * whose body is the binary form of wire/stats.h.
 *
 * A peer speaking another version is answered with ERROR (code "version")
 * and never parsed further; ERROR bodies are JSON in every version so the
 * answer itself is always understood.
 *
 * Session: HELLO -> HELLO_OK | BUSY | ERROR; TIME exchanges (clock offset);
 * PREPARE -> [PROGRESS...] READY | ERROR; START; STATS each second; STEP_DONE; ...; BYE.
 * HEARTBEAT both ways; ABORT from the coordinator stops all I/O.
 */
#ifndef BC_WIRE_PROTO_H
#define BC_WIRE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <czmq.h>

/*
 * 3: PROGRESS while PREPARE lays files out; STEP_DONE carries "device" (the
 * device under each volume) and "contention"; READY carries "backing".
 * 4: a step runs on through PREPARE's "orphan_grace_ms" of coordinator
 * silence; HELLO's "resume" takes such a step's session over (HELLO_OK's
 * "reattach"), REATTACH has its records sent again
 */
#define BC_PROTO_VERSION 4

/*
 * an agent running I/O considers the coordinator gone after this much
 * silence and stops all I/O (agent/session/control.c); the coordinator
 * heartbeats twice a second and warns when its loop was held for 2 s
 */
#define BC_AGENT_SILENCE_MS 5000

enum bc_msg_type {
	BC_MSG_UNKNOWN = 0,
	BC_MSG_HELLO,	  /* coord -> agent: {"coordinator", "paths": [...]} */
	BC_MSG_HELLO_OK,  /* agent -> coord: version, hostname, cpus, kernel, paths */
	BC_MSG_BUSY,	  /* agent -> coord: another coordinator holds the agent */
	BC_MSG_ERROR,	  /* either way: {"code", "message", ...} */
	BC_MSG_TIME,	  /* coord -> agent {"seq"}; agent -> coord {"seq", "agent_ns"} */
	BC_MSG_PREPARE,	  /* coord -> agent: step, workload, volumes */
	BC_MSG_READY,	  /* agent -> coord: opened volumes */
	BC_MSG_START,	  /* coord -> agent: step, start time in the agent's clock */
	BC_MSG_STATS,	  /* agent -> coord: binary, one interval */
	BC_MSG_STEP_DONE, /* agent -> coord: per-volume totals */
	BC_MSG_HEARTBEAT, /* both ways: agents once a second, the coordinator twice */
	BC_MSG_ABORT,	  /* coord -> agent: stop I/O now */
	BC_MSG_BYE,	  /* coord -> agent: session over */
	BC_MSG_HOST,	  /* agent -> coord: {step, second, host}: host counters of interval k */
	BC_MSG_DISCOVER,  /* coord -> agent: {traddr, trsvcid, hostnqn}: read a discovery log */
	BC_MSG_DISCOVERY_LOG, /* agent -> coord: {traddr, trsvcid, controller, entries[]} */
	BC_MSG_CHECK,	      /* coord -> agent: a PREPARE body, checked and not opened */
	BC_MSG_CHECKED,	      /* agent -> coord: {step, volumes: [{volume, ok, message}]} */
	BC_MSG_KEYSCAN,	      /* anyone -> agent's announce socket (plain text): {} */
	BC_MSG_KEY,	      /* agent -> keyscan: {public_key, fingerprint, hostname, ...} */
	BC_MSG_STOP,	      /* coord -> agent {step, second}: end the step at that second */
	BC_MSG_PROGRESS,      /* agent -> coord, during PREPARE: {step, phase "layout", volumes} */
	BC_MSG_REATTACH,      /* coord -> agent {step, from}: send seconds >= from again, go on */
	BC_MSG_NR,
};

const char *bc_msg_name(enum bc_msg_type t);

struct bc_msg {
	enum bc_msg_type type;
	int version;  /* version byte of the header */
	zframe_t *id; /* ROUTER routing id, NULL on DEALER sockets; owned */
	cJSON *json;  /* parsed JSON body, NULL for STATS; owned */
	uint8_t *bin; /* raw body bytes (valid until bc_msg_clear); owned */
	size_t bin_len;
	zmsg_t *raw; /* keeps bin alive */
};

/*
 * Send a message; id is the ROUTER routing id (NULL on DEALER). body may be
 * NULL (sent as "{}"). Ownership of id and body stays with the caller.
 * Returns 0 or -errno.
 */
int bc_msg_send_json(zsock_t *s, zframe_t *id, enum bc_msg_type t, const cJSON *body);
int bc_msg_send_bin(zsock_t *s, zframe_t *id, enum bc_msg_type t, const void *body, size_t len);

/* like bc_msg_send_bin with an explicit header version (tests of mismatch handling) */
int bc_msg_send_raw(zsock_t *s, zframe_t *id, int version, const char *type, const void *body,
		    size_t len);

/*
 * ERROR's code from an agent that has no session with the sender: it was
 * restarted, or it ended the session after the coordinator's silence
 * (agent/session/control.c); the coordinator may HELLO it again
 */
#define BC_ERR_NO_SESSION "no-session"

/* ERROR with {"code": code, "message": printf(...)} */
int bc_msg_send_error(zsock_t *s, zframe_t *id, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* whether m is an ERROR whose code is code */
bool bc_msg_is_error(const struct bc_msg *m, const char *code);

/*
 * Receive one message (blocking; use a poller first). router: the socket
 * prefixes a routing id. The caller calls bc_msg_clear(m) whatever the
 * result. Returns
 *   0        m filled (caller calls bc_msg_clear)
 *   -EPROTO  header from another protocol version (m->version, m->id set;
 *            m->type set if the name is known; ERROR bodies still parsed)
 *   -EBADMSG malformed frames, unknown type or invalid JSON (message in err)
 *   -EINTR / -EAGAIN when interrupted or nothing to read
 */
int bc_msg_recv(zsock_t *s, bool router, struct bc_msg *m, char *err, size_t errlen);

/*
 * The parsing half of bc_msg_recv, without a socket (tests, fuzzers): takes
 * ownership of *raw (set to NULL) and returns as bc_msg_recv does.
 */
int bc_msg_parse(zmsg_t **raw, bool router, struct bc_msg *m, char *err, size_t errlen);

void bc_msg_clear(struct bc_msg *m);

#endif
