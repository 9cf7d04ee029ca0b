/*
 * session/auth.c - CURVE on the agent's control socket, the ZAP handler that admits
 * authorized coordinators, the handshake monitor and the drop counters
 * (see session/auth.h).
 *
 * Why our own ZAP handler and not czmq's zauth actor: it runs on the control
 * thread (no extra thread), it can log "rejected coordinator key X from
 * ADDR" in our words and count it, and it hands the key to the session as
 * the ZeroMQ User-Id so the agent knows which coordinator it serves.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/tcp.h> /* tcp_info with tcpi_bytes_received (glibc's lacks it) */
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/auth.h"
#include "util/clock.h"
#include "util/curve.h"
#include "util/log.h"

/* at most this many log lines per kind of refusal per window */
#define S_LOG_BURST	5
#define S_LOG_WINDOW_NS (10 * BC_NS_PER_S)

struct s_ratelimit {
	uint64_t window_start_ns;
	unsigned logged;
	uint64_t suppressed;
};

/*
 * a TCP connection libzmq accepted on the control socket (its monitor gives
 * the descriptor), with its peer's address to be sure it is still the same
 * socket before we touch it
 */
struct s_conn {
	int fd;
	struct sockaddr_storage peer;
	socklen_t peer_len;
};

/*
 * a ZMTP 3 greeting is 64 bytes and a CURVE HELLO 200: a connection that has
 * received less cannot have authenticated
 */
#define S_AUTH_MIN_BYTES 264
/* accepted connections tracked, oldest first (beyond: the oldest is forgotten) */
#define S_TRACK_MAX 4096

struct bc_auth {
	zcert_t *cert;	     /* NULL when insecure */
	zcertstore_t *store; /* authorized coordinator keys, reloaded when the directory changes */
	char keys_dir[1024];
	zsock_t *zap; /* REP on inproc://zeromq.zap.01 */
	struct bc_monitor *mon;
	struct bc_agent_counters n;
	struct s_ratelimit rl_zap, rl_hs, rl_drop, rl_cap;
	struct s_conn *conns; /* [S_TRACK_MAX] ring of accepted connections, oldest at head */
	int chead, clen;
	/*
	 * a failed handshake waiting for its peer's address: the failure event
	 * carries only the listening endpoint, the DISCONNECTED event libzmq
	 * queues right after it carries the descriptor, whose peer we recorded
	 * at ACCEPTED. "<what> from <peer><rest>" is logged then.
	 */
	bool hs_pending;
	const char *hs_what;
	char hs_rest[512];
};

/* how long to wait for the DISCONNECTED after a failed handshake before the
 * line is logged without the peer: libzmq sends both from one engine call,
 * so this is reached only when the I/O thread is starved */
#define S_PEER_WAIT_MS 200

/* true when this line may be logged; logs the suppressed count when a window ends */
static bool s_may_log(struct s_ratelimit *rl, const char *what)
{
	uint64_t now = bc_mono_ns();

	if (now - rl->window_start_ns > S_LOG_WINDOW_NS) {
		if (rl->suppressed)
			bc_warn("%llu more %s not logged in the last %llu s",
				(unsigned long long)rl->suppressed, what,
				(unsigned long long)(S_LOG_WINDOW_NS / BC_NS_PER_S));
		rl->window_start_ns = now;
		rl->logged = 0;
		rl->suppressed = 0;
	}
	if (rl->logged < S_LOG_BURST) {
		rl->logged++;
		return true;
	}
	rl->suppressed++;
	return false;
}

void bc_auth_log_drop(struct bc_auth *a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!s_may_log(&a->rl_drop, "dropped messages"))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	bc_warn("%s", buf);
}

/* count the coordinator certificates in dir, warning about files that are not */
static int s_count_keys(const char *dir)
{
	char path[1300];
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		zcert_t *c;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		c = zcert_load(path);
		if (c)
			n++;
		else
			bc_warn("authorized keys: '%s' is not a CURVE public key file; ignored",
				path);
		zcert_destroy(&c);
	}
	closedir(dp);
	return n;
}

struct bc_auth *bc_auth_new(zsock_t *s, const char *cert_path, const char *keys_dir, bool insecure,
			    char *err, size_t errlen)
{
	struct bc_auth *a = calloc(1, sizeof(*a));
	struct stat st;
	int n;

	if (!a) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	zsock_set_maxmsgsize(s, BC_AGENT_WIRE_MAX);
	a->conns = calloc(S_TRACK_MAX, sizeof(*a->conns));
	if (!a->conns) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	a->mon = bc_monitor_new(s, ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |
				       ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED);
	if (!a->mon) {
		snprintf(err, errlen, "cannot monitor the control socket: %s",
			 zmq_strerror(zmq_errno()));
		goto fail;
	}
	if (insecure)
		return a;
	if (bc_curve_load(cert_path, "bench-agent keygen", &a->cert, err, errlen)) {
		snprintf(err + strlen(err), errlen - strlen(err),
			 "; or start with --insecure on a trusted network");
		goto fail;
	}
	if (stat(keys_dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "authorized keys directory '%s': %s (create it and copy each "
			 "coordinator's public key file there; 'bench-coord keygen' writes one)",
			 keys_dir, errno ? strerror(errno) : "not a directory");
		goto fail;
	}
	snprintf(a->keys_dir, sizeof(a->keys_dir), "%s", keys_dir);
	n = s_count_keys(keys_dir);
	if (n == 0)
		bc_warn("no coordinator keys in '%s' yet: every coordinator is refused until one "
			"is copied there (no restart needed)",
			keys_dir);
	else
		bc_info("%d authorized coordinator key(s) in '%s'", n, keys_dir);
	a->store = zcertstore_new(keys_dir);
	/* the ZAP endpoint is fixed by RFC 27; libzmq asks it about every CURVE client */
	a->zap = zsock_new(ZMQ_REP);
	if (!a->store || !a->zap || zsock_bind(a->zap, "inproc://zeromq.zap.01")) {
		snprintf(err, errlen, "cannot start the authentication handler: %s",
			 zmq_strerror(zmq_errno()));
		goto fail;
	}
	zcert_apply(a->cert, zsock_resolve(s));
	zsock_set_curve_server(s, 1);
	zsock_set_zap_domain(s, "bench-agent");
	return a;
fail:
	bc_auth_destroy(&a);
	return NULL;
}

void bc_auth_destroy(struct bc_auth **ap)
{
	struct bc_auth *a = *ap;

	if (!a)
		return;
	bc_monitor_destroy(&a->mon);
	zsock_destroy(&a->zap);
	zcertstore_destroy(&a->store);
	zcert_destroy(&a->cert);
	free(a->conns);
	free(a);
	*ap = NULL;
}

zsock_t *bc_auth_zap_sock(struct bc_auth *a)
{
	return a->zap;
}

zsock_t *bc_auth_monitor_sock(struct bc_auth *a)
{
	return bc_monitor_sock(a->mon);
}

const char *bc_auth_public_key(const struct bc_auth *a)
{
	return a && a->cert ? zcert_public_txt(a->cert) : NULL;
}

struct bc_agent_counters *bc_auth_counters(struct bc_auth *a)
{
	return &a->n;
}

/* RFC 27 reply: version, request id, status code, status text, user id, metadata */
static void s_zap_reply(struct bc_auth *a, zframe_t **req_id, const char *code, const char *text,
			const char *user)
{
	zmsg_t *r = zmsg_new();

	zmsg_addstr(r, "1.0");
	zmsg_append(r, req_id);
	zmsg_addstr(r, code);
	zmsg_addstr(r, text);
	zmsg_addstr(r, user);
	zmsg_addmem(r, "", 0);
	zmsg_send(&r, a->zap);
}

void bc_auth_on_zap(struct bc_auth *a)
{
	zmsg_t *req = zmsg_recv(a->zap);
	char *version = NULL, *domain = NULL, *address = NULL, *mech = NULL;
	zframe_t *req_id = NULL, *identity = NULL, *key = NULL;
	char z85[BC_KEY_Z85_LEN + 1] = "";

	if (!req)
		return;
	version = zmsg_popstr(req);
	req_id = zmsg_pop(req);
	domain = zmsg_popstr(req);
	address = zmsg_popstr(req);
	identity = zmsg_pop(req);
	mech = zmsg_popstr(req);
	key = zmsg_pop(req);
	if (!version || strcmp(version, "1.0") || !req_id) {
		/* libzmq itself never sends this; answer so it does not wait forever */
		if (req_id)
			s_zap_reply(a, &req_id, "500", "bad ZAP request", "");
		goto out;
	}
	if (!mech || strcmp(mech, "CURVE") || !key || zframe_size(key) != 32) {
		a->n.handshake_failures++;
		if (s_may_log(&a->rl_zap, "refused handshakes"))
			bc_warn("refused a %s client from %s: this agent accepts CURVE only",
				mech ? mech : "?", address ? address : "?");
		s_zap_reply(a, &req_id, "400", "CURVE required", "");
		goto out;
	}
	zmq_z85_encode(z85, zframe_data(key), 32);
	if (zcertstore_lookup(a->store, z85)) {
		bc_debug("admitted coordinator key %s from %s", z85, address ? address : "?");
		s_zap_reply(a, &req_id, "200", "OK", z85);
		goto out;
	}
	a->n.rejected_keys++;
	if (s_may_log(&a->rl_zap, "rejected coordinator keys"))
		bc_warn("rejected coordinator key %s from %s: not in the authorized keys "
			"directory '%s'",
			z85, address ? address : "?", a->keys_dir);
	s_zap_reply(a, &req_id, "400", "coordinator key not authorized", "");
out:
	free(version);
	free(domain);
	free(address);
	free(mech);
	zframe_destroy(&req_id);
	zframe_destroy(&identity);
	zframe_destroy(&key);
	zmsg_destroy(&req);
}

/* "10.0.0.1:43120", "[fd00::1]:43120" or "an unknown peer" for the recorded peer of fd */
static const char *s_peer_of(const struct bc_auth *a, int fd, char *out, size_t len)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];
	int i;

	snprintf(out, len, "an unknown peer");
	for (i = a->clen - 1; fd >= 0 && i >= 0; i--) {
		const struct s_conn *c = &a->conns[(a->chead + i) % S_TRACK_MAX];

		if (c->fd != fd)
			continue;
		if (getnameinfo((const struct sockaddr *)&c->peer, c->peer_len, host, sizeof(host),
				serv, sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV))
			break;
		snprintf(out, len, c->peer.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, serv);
		break;
	}
	return out;
}

/* log the pending failed handshake with the peer of fd (-1: unknown) */
static void s_hs_flush(struct bc_auth *a, int fd)
{
	char peer[NI_MAXHOST + NI_MAXSERV + 4];

	if (!a->hs_pending)
		return;
	a->hs_pending = false;
	bc_warn("%s from %s%s", a->hs_what, s_peer_of(a, fd, peer, sizeof(peer)), a->hs_rest);
}

/* a failed handshake to log once its peer is known (see hs_pending) */
static void s_hs_failed(struct bc_auth *a, const char *what, const char *fmt, ...)
{
	va_list ap;

	s_hs_flush(a, -1); /* two failures and no DISCONNECTED between: not ours to pair */
	a->hs_pending = true;
	a->hs_what = what;
	va_start(ap, fmt);
	vsnprintf(a->hs_rest, sizeof(a->hs_rest), fmt, ap);
	va_end(ap);
}

/* c is still the socket we recorded (not closed, its number not reused) */
static bool s_same(const struct s_conn *c)
{
	struct sockaddr_storage now;
	socklen_t len = sizeof(now);

	return !getpeername(c->fd, (struct sockaddr *)&now, &len) && len == c->peer_len &&
	       !memcmp(&now, &c->peer, len);
}

static uint64_t s_bytes_received(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof(ti.tcpi_bytes_received))
		return UINT64_MAX; /* unknown: never taken for unauthenticated */
	return ti.tcpi_bytes_received;
}

static void s_forget(struct bc_auth *a, int fd)
{
	int i, j, n = 0;

	for (i = 0; i < a->clen; i++) {
		const struct s_conn *c = &a->conns[(a->chead + i) % S_TRACK_MAX];

		if (c->fd == fd)
			continue;
		j = (a->chead + n++) % S_TRACK_MAX;
		if (&a->conns[j] != c)
			a->conns[j] = *c;
	}
	a->clen = n;
}

/*
 * A connection was accepted: track it, and when more than
 * BC_AGENT_UNAUTH_MAX of those tracked cannot have authenticated, shut the
 * oldest of them down (libzmq then closes it, as if the peer had left).
 */
static void s_on_accepted(struct bc_auth *a, int fd)
{
	struct s_conn *c;
	int i, unauth = 0, victim = -1;

	if (a->clen == S_TRACK_MAX) {
		a->chead = (a->chead + 1) % S_TRACK_MAX;
		a->clen--;
	}
	c = &a->conns[(a->chead + a->clen) % S_TRACK_MAX];
	c->fd = fd;
	c->peer_len = sizeof(c->peer);
	if (getpeername(fd, (struct sockaddr *)&c->peer, &c->peer_len))
		return; /* gone already */
	a->clen++;
	if (a->clen <= BC_AGENT_UNAUTH_MAX)
		return;
	for (i = 0; i < a->clen; i++) {
		const struct s_conn *x = &a->conns[(a->chead + i) % S_TRACK_MAX];

		if (!s_same(x) || s_bytes_received(x->fd) >= S_AUTH_MIN_BYTES)
			continue;
		if (victim < 0)
			victim = (a->chead + i) % S_TRACK_MAX;
		unauth++;
	}
	if (unauth <= BC_AGENT_UNAUTH_MAX || victim < 0)
		return;
	fd = a->conns[victim].fd;
	shutdown(fd, SHUT_RDWR);
	s_forget(a, fd);
	a->n.flooded++;
	if (s_may_log(&a->rl_cap, "closed unauthenticated connections"))
		bc_warn("more than %d connections that have not authenticated: closed the oldest "
			"(%llu closed so far)",
			BC_AGENT_UNAUTH_MAX, (unsigned long long)a->n.flooded);
}

void bc_auth_on_monitor(struct bc_auth *a)
{
	struct bc_monitor_event ev;
	bool waited = false;

	for (;;) {
		while (!bc_monitor_read(a->mon, &ev)) {
			switch (ev.event) {
			case ZMQ_EVENT_ACCEPTED:
				s_on_accepted(a, (int)ev.value);
				break;
			case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
				a->n.handshake_failures++;
				if (!s_may_log(&a->rl_hs, "failed handshakes"))
					break;
				if (ev.value == ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC)
					s_hs_failed(
					    a, "CURVE handshake",
					    " on %s failed: %s -- a coordinator is using a "
					    "server_key that is not this agent's public key %s",
					    ev.addr, bc_monitor_protocol_error(ev.value),
					    bc_auth_public_key(a) ? bc_auth_public_key(a)
								  : "(none)");
				else
					s_hs_failed(a, "handshake", " on %s failed: %s", ev.addr,
						    bc_monitor_protocol_error(ev.value));
				break;
			case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
				a->n.handshake_failures++;
				if (s_may_log(&a->rl_hs, "failed handshakes"))
					s_hs_failed(
					    a, "handshake",
					    " on %s failed: %s (the peer hung up or does not "
					    "speak ZeroMQ)",
					    ev.addr, strerror((int)ev.value));
				break;
			case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
				/* the ZAP handler has counted and logged it */
				break;
			case ZMQ_EVENT_DISCONNECTED:
				s_hs_flush(a, (int)ev.value);
				s_forget(a, (int)ev.value);
				a->n.disconnects++;
				bc_debug("a connection on %s closed", ev.addr);
				break;
			default:
				break;
			}
		}
		if (!a->hs_pending)
			return;
		/* the DISCONNECTED that names the peer is on its way: wait once, briefly */
		zmq_pollitem_t it = {zsock_resolve(bc_monitor_sock(a->mon)), 0, ZMQ_POLLIN, 0};

		if (waited || zmq_poll(&it, 1, S_PEER_WAIT_MS) <= 0) {
			s_hs_flush(a, -1);
			return;
		}
		waited = true;
	}
}

cJSON *bc_auth_json(const struct bc_auth *a)
{
	cJSON *j = cJSON_CreateObject(), *d;

	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "mode", a->cert ? "curve" : "insecure");
	if (a->cert)
		cJSON_AddStringToObject(j, "public_key", zcert_public_txt(a->cert));
	d = cJSON_AddObjectToObject(j, "dropped");
	cJSON_AddNumberToObject(d, "rejected_keys", (double)a->n.rejected_keys);
	cJSON_AddNumberToObject(d, "handshake_failures", (double)a->n.handshake_failures);
	cJSON_AddNumberToObject(d, "malformed", (double)a->n.malformed);
	cJSON_AddNumberToObject(d, "wrong_version", (double)a->n.wrong_version);
	cJSON_AddNumberToObject(d, "oversized", (double)a->n.oversized);
	cJSON_AddNumberToObject(d, "refused", (double)a->n.refused);
	cJSON_AddNumberToObject(d, "disconnects", (double)a->n.disconnects);
	cJSON_AddNumberToObject(d, "unauthenticated_closed", (double)a->n.flooded);
	return j;
}
