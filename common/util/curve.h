/*
 * util/curve.h - ZeroMQ CURVE key material and handshake diagnostics shared by
 * bench-agent and bench-coord: key pair files (czmq zcert format: a public
 * file to hand out and a "<file>_secret" beside it that never leaves the
 * host), known-hosts lookups, and a socket monitor that turns libzmq's
 * handshake events into sentences a person can act on.
 *
 * Why CURVE and not TLS: it is built into libzmq (with libsodium), needs no
 * CA, and its keys are 40-character strings that fit in a profile.
 */
#ifndef BC_UTIL_CURVE_H
#define BC_UTIL_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <czmq.h>

/* a Z85-encoded 32-byte CURVE key (ZMQ RFC 32): 40 characters */
#define BC_KEY_Z85_LEN 40

/* s is exactly 40 characters of the Z85 alphabet */
bool bc_curve_key_valid(const char *s);

/*
 * The default directory for a tool's keys: $XDG_CONFIG_HOME/<tool>, else
 * $HOME/.config/<tool>, else /etc/<tool>. Writes into buf (len bytes).
 */
void bc_curve_default_dir(const char *tool, char *buf, size_t len);

/*
 * Write a new key pair: <dir>/<name> (public, mode 0644) and
 * <dir>/<name>_secret (mode 0600); dir is created (0700) when missing. An
 * existing secret file is never overwritten unless force. pub (41 bytes, may
 * be NULL) receives the public key. Returns 0 or -errno with a message.
 */
int bc_curve_keygen(const char *dir, const char *name, bool force, char *pub, char *err,
		    size_t errlen);

/*
 * Load a key pair for this side of a CURVE connection. path may name the
 * public file (its "_secret" sibling is read) or the secret file itself. A
 * file without a secret key is an error. Returns 0 and a cert the caller
 * owns (zcert_destroy), or -errno with a message naming the file and keygen.
 */
int bc_curve_load(const char *path, const char *keygen_hint, zcert_t **out, char *err,
		  size_t errlen);

/*
 * Look a server key up in a known-hosts file: one "<endpoint-or-name> <key>"
 * per line; a line whose first word starts with '#' is a comment (not '#'
 * inside a line: Z85 keys may contain it); blank lines are ignored. The first line
 * whose first word equals name or endpoint wins. Returns 0 with key (41
 * bytes) filled, -ENOENT when no line matches, or -EINVAL/-errno with
 * "<file>:<line>: ..." in err.
 */
int bc_known_hosts_lookup(const char *file, const char *name, const char *endpoint, char *key,
			  char *err, size_t errlen);

/*
 * bc_curve_keygen with metadata in the public file: "hostname" (this host's)
 * always, and "endpoint" when given (where peers reach the key's owner), so
 * `bench-coord trust FILE` knows what the key is for.
 */
int bc_curve_keygen_at(const char *dir, const char *name, bool force, const char *endpoint,
		       char *pub, char *err, size_t errlen);

/* "SHA256:" + unpadded base64 of SHA-256 over the 32 key bytes (as ssh shows keys) */
#define BC_FINGERPRINT_LEN 51
/* 0, or -EINVAL when z85 is not a key */
int bc_curve_fingerprint(const char *z85, char fp[BC_FINGERPRINT_LEN + 1]);

/*
 * s quoted for a POSIX shell: as is when it holds only characters no shell
 * treats specially, else in single quotes (a ' inside becomes '\''). Z85
 * keys contain $ ! * ] & and the like, never a single quote. Returns out.
 */
const char *bc_shell_quote(const char *s, char *out, size_t len);

/*
 * Warn (bc_warn) when path lets others in: a secret key file readable or
 * writable by group/others, or a directory/file of trusted keys
 * (authorized keys, known hosts) writable by group/others or not owned by
 * this user or root. what names it in the warning ("secret key", ...).
 * Returns 1 when it warned, 0 when fine or absent.
 */
int bc_curve_perm_warn(const char *path, const char *what, bool secret);

/*
 * Pin key for who (an endpoint or name) in a known-hosts file: appended
 * with a comment line (fingerprint, origin) when who has no line yet
 * (returns 1); 0 when the same key is already there; -EKEYREJECTED when
 * another key is pinned (pinned, 41 bytes, receives it; never replaced
 * here); -errno otherwise. The file and its directory are created (0600,
 * 0700) when missing. err gets a message for every negative return.
 */
int bc_known_hosts_pin(const char *file, const char *who, const char *key, const char *origin,
		       char *pinned, char *err, size_t errlen);

/*
 * The key announcement endpoint (agent/session/announce.h) of an agent's control
 * endpoint: "tcp://H:P" -> "tcp://H:P+1". -EINVAL when the port is not a
 * number (nothing is announced by default then).
 */
int bc_announce_endpoint(const char *control, char *out, size_t len);

/*
 * Socket monitor: libzmq reports connection and handshake events of one
 * socket on an inproc PAIR we read without blocking. Create it before the
 * socket connects or binds so no event is missed.
 */
struct bc_monitor_event {
	int event;	/* ZMQ_EVENT_* */
	uint32_t value; /* fd, errno, ZAP status code or ZMQ_PROTOCOL_ERROR_* */
	char addr[256]; /* endpoint the event concerns */
};

struct bc_monitor;

/* events: a ZMQ_EVENT_* mask. Returns NULL on failure (errno set). */
struct bc_monitor *bc_monitor_new(zsock_t *s, int events);
void bc_monitor_destroy(struct bc_monitor **mp);
/* the PAIR socket to poll for events */
zsock_t *bc_monitor_sock(struct bc_monitor *m);
/* one event without blocking: 0, or -EAGAIN when none is queued */
int bc_monitor_read(struct bc_monitor *m, struct bc_monitor_event *ev);

/* what the events read so far say about a connecting socket */
struct bc_monitor_state {
	bool connected;	     /* a TCP connection was made at least once */
	bool handshaken;     /* a ZMTP/CURVE handshake succeeded at least once */
	unsigned failures;   /* failed handshakes */
	int fail_event;	     /* the last failure: ZMQ_EVENT_HANDSHAKE_FAILED_*, 0 if none */
	uint32_t fail_value; /* its value (ZAP status code, protocol error, errno) */
	/*
	 * the connection closed (ZMQ_EVENT_DISCONNECTED, when the mask asks for
	 * it) and no handshake succeeded since; down_ns: CLOCK_MONOTONIC when
	 * the drain first read that
	 */
	bool down;
	uint64_t down_ns;
};

/* read every queued event into the state; returns it (never NULL for a valid m) */
const struct bc_monitor_state *bc_monitor_drain(struct bc_monitor *m);

/* "HANDSHAKE_FAILED_AUTH" etc. */
const char *bc_monitor_event_name(int event);
/* a short explanation of a handshake failure's value, e.g. "cryptographic error" */
const char *bc_monitor_protocol_error(uint32_t value);

#endif
