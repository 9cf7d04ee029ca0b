/*
 * session/announce.h - the agent's key announcement, for `bench-coord keyscan`.
 * CURVE never sends the server's long-term public key, so a coordinator
 * cannot learn it from the control socket: the agent also binds a second,
 * plain-text (ZMTP NULL) ROUTER that answers KEYSCAN with KEY {public_key,
 * fingerprint, hostname, version, endpoint} and nothing else. It reads no
 * session state, takes messages of at most 256 bytes and never waits to
 * send. What it says is unauthenticated by nature -- keyscan pins it only
 * with --trust-on-first-use and shows the fingerprint to compare with the
 * agent host's (`bench-agent fingerprint`, and the agent's start-up log);
 * a pinned key that differs is a hard error (docs/protocol.md).
 */
#ifndef BC_SESSION_ANNOUNCE_H
#define BC_SESSION_ANNOUNCE_H

#include <czmq.h>

#include "util/curve.h" /* bc_announce_endpoint */

struct bc_announce;

/* bind ep and answer for public_key (Z85); NULL with a message in err */
struct bc_announce *bc_announce_new(const char *ep, const char *public_key, const char *control_ep,
				    char *err, size_t errlen);
zsock_t *bc_announce_sock(struct bc_announce *a);
const char *bc_announce_bound(const struct bc_announce *a);
/* answer every queued request (never blocks) */
void bc_announce_on_readable(struct bc_announce *a);
void bc_announce_destroy(struct bc_announce **ap);

#endif
