/*
 * session/auth.h - who may talk to the agent: the CURVE server side of its
 * control socket, a ZAP handler that admits only coordinators whose public
 * keys are in the authorized-keys directory, a socket monitor that explains
 * failed handshakes, and the counters of everything dropped on the way.
 * All of it runs on the control thread (control.c polls its two sockets).
 */
#ifndef BC_SESSION_AUTH_H
#define BC_SESSION_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <czmq.h>

/*
 * connections that cannot have authenticated yet (fewer bytes received than
 * a CURVE handshake takes) kept at most; past it the oldest is closed,
 * counted and logged. A coordinator needs one; 256 leaves room for
 * reconnects and scanners while a flood cannot hold the agent's descriptors.
 */
#define BC_AGENT_UNAUTH_MAX 256
/* a control message body larger than this is dropped and counted (PREPARE is ~100 B/volume) */
#define BC_AGENT_MSG_MAX (1u << 20)
/* libzmq drops the connection of a peer sending a frame larger than this (ZMQ_MAXMSGSIZE) */
#define BC_AGENT_WIRE_MAX (4 << 20)
/* a connection without a whole handshake after this is closed (--handshake-timeout) */
#define BC_AGENT_HANDSHAKE_MS 10000

/* everything refused or dropped since the agent started; reported in HELLO_OK */
struct bc_agent_counters {
	uint64_t rejected_keys; /* CURVE clients whose key is not authorized */
	uint64_t
	    handshake_failures;	  /* other failed handshakes: wrong server key, plain text, noise */
	uint64_t malformed;	  /* bad frames, unknown types, invalid JSON */
	uint64_t wrong_version;	  /* another protocol version */
	uint64_t oversized;	  /* bodies over BC_AGENT_MSG_MAX */
	uint64_t refused;	  /* valid messages from a peer that does not own the session */
	uint64_t disconnects;	  /* connections closed (by peers, or by libzmq on oversize) */
	uint64_t flooded;	  /* unauthenticated connections we closed (BC_AGENT_UNAUTH_MAX) */
	uint64_t announce_closed; /* ... of them on the key-announce port (the same cap) */
	uint64_t handshake_timeouts; /* connections closed without a handshake in time */
};

struct bc_auth;

/*
 * Secure the ROUTER socket s before it binds. Unless insecure: load the
 * agent's key pair from cert_path, make s a CURVE server and bind the ZAP
 * handler that checks clients against keys_dir (which must exist). Always:
 * cap message sizes and monitor handshakes. Returns NULL with a message
 * naming the file and the fix.
 */
struct bc_auth *bc_auth_new(zsock_t *s, const char *cert_path, const char *keys_dir, bool insecure,
			    uint32_t handshake_ms, char *err, size_t errlen);
void bc_auth_destroy(struct bc_auth **ap);

/* sockets for the control loop's poller (the ZAP one is NULL when insecure) */
zsock_t *bc_auth_zap_sock(struct bc_auth *a);
zsock_t *bc_auth_monitor_sock(struct bc_auth *a);

/* answer one ZAP request / drain the monitor; both log what they refuse */
void bc_auth_on_zap(struct bc_auth *a);
void bc_auth_on_monitor(struct bc_auth *a);

/*
 * The key-announcement socket s under the same cap and drop policy as the
 * control socket (one budget of BC_AGENT_UNAUTH_MAX for both: none of its
 * connections authenticates) and the same handshake timeout; its monitor
 * for the control loop, and its drain. 0 or -errno.
 */
int bc_auth_watch_announce(struct bc_auth *a, zsock_t *s);
zsock_t *bc_auth_announce_monitor_sock(struct bc_auth *a);
void bc_auth_on_announce_monitor(struct bc_auth *a);

/* a message dropped from address (libzmq's Peer-Address; NULL: unknown), per peer */
void bc_auth_count_drop(struct bc_auth *a, const char *address);

/* the agent's public key (Z85), or NULL when insecure */
const char *bc_auth_public_key(const struct bc_auth *a);
struct bc_agent_counters *bc_auth_counters(struct bc_auth *a);

/*
 * Log a dropped message at most a few times per window, then a count of
 * the suppressed ones: a flood of garbage must not become a flood of logs.
 */
void bc_auth_log_drop(struct bc_auth *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* the counters and mode as JSON for HELLO_OK; caller owns the result */
cJSON *bc_auth_json(const struct bc_auth *a);

#endif
