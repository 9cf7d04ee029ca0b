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
#include <fcntl.h>
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
	uint8_t port;	/* S_CONTROL or S_ANNOUNCE */
	uint64_t at_ns; /* CLOCK_MONOTONIC when accepted */
	int dup;	/* a duplicate of the socket (control port: s_on_gone), -1 none */
	bool closing;	/* shut down by the cap: its handshake failure is ours, not the peer's */
};

enum { S_CONTROL, S_ANNOUNCE };
static const char *const s_port_names[] = {"control", "key-announce"};

/*
 * What each peer address (the host, not its port) was refused, to say who
 * floods and to choose whom to close: the peer holding most unauthenticated
 * connections loses its oldest first, so one flooding host cannot push out
 * another's handshake in progress. The S_PEERS busiest are kept.
 */
#define S_PEERS 64
struct s_peer {
	char addr[NI_MAXHOST]; /* "" unused */
	uint64_t closed[2];    /* unauthenticated connections closed, per port */
	uint64_t handshakes;   /* failed handshakes (refused keys, noise, timeouts) */
	uint64_t dropped;      /* messages dropped (malformed, oversized, ...) */
};

/*
 * a ZMTP 3 greeting is 64 bytes and a CURVE HELLO 200: a connection that has
 * received less cannot have authenticated
 */
#define S_AUTH_MIN_BYTES 264
/* accepted connections tracked, oldest first (beyond: the oldest is forgotten) */
#define S_TRACK_MAX 4096
/*
 * control connections whose socket is kept to see why it closed: the cap of
 * unauthenticated ones and a few more (a duplicate is closed with its
 * connection, or when the cap closes it)
 */
#define S_DUP_MAX (BC_AGENT_UNAUTH_MAX + 64)

struct bc_auth {
	zcert_t *cert;	     /* NULL when insecure */
	zcertstore_t *store; /* authorized coordinator keys, reloaded when the directory changes */
	char keys_dir[1024];
	zsock_t *zap;			  /* REP on inproc://zeromq.zap.01 */
	struct bc_monitor *mon, *mon_ann; /* the control socket's and the key announcement's */
	struct bc_agent_counters n;
	struct s_ratelimit rl_zap, rl_hs, rl_drop, rl_cap[2], rl_timeout, rl_big;
	uint32_t handshake_ms;
	struct s_peer peers[S_PEERS];
	int ndup;
	struct s_conn *conns; /* [S_TRACK_MAX] ring of accepted connections, oldest at head */
	int chead, clen;
	/*
	 * a failed handshake waiting for its peer's address: the failure event
	 * carries only the listening endpoint, the DISCONNECTED event libzmq
	 * queues right after it carries the descriptor, whose peer we recorded
	 * at ACCEPTED. "<what> from <peer><rest>" is logged then.
	 */
	bool hs_pending;
	bool hs_no_detail; /* ...without detail: the peer left, or this agent's timeout closed it */
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
			    uint32_t handshake_ms, char *err, size_t errlen)
{
	struct bc_auth *a = calloc(1, sizeof(*a));
	struct stat st;
	int n;

	if (!a) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	zsock_set_maxmsgsize(s, BC_AGENT_WIRE_MAX);
	/* a connection that has not authenticated by then is closed (and said so: s_hs_flush) */
	a->handshake_ms = handshake_ms ? handshake_ms : BC_AGENT_HANDSHAKE_MS;
	zsock_set_handshake_ivl(s, (int)a->handshake_ms);
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
	bc_monitor_destroy(&a->mon_ann);
	for (int i = 0; a->conns && i < a->clen; i++)
		if (a->conns[(a->chead + i) % S_TRACK_MAX].dup >= 0)
			close(a->conns[(a->chead + i) % S_TRACK_MAX].dup);
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

/* the tracked connection of fd, newest first; NULL when not tracked */
static struct s_conn *s_conn_of(struct bc_auth *a, int fd)
{
	int i;

	for (i = a->clen - 1; fd >= 0 && i >= 0; i--) {
		struct s_conn *c = &a->conns[(a->chead + i) % S_TRACK_MAX];

		if (c->fd == fd)
			return c;
	}
	return NULL;
}

/* "10.0.0.1:43120", "[fd00::1]:43120" or "an unknown peer" for connection c */
static const char *s_peer_name(const struct s_conn *c, char *out, size_t len)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	snprintf(out, len, "an unknown peer");
	if (c && !getnameinfo((const struct sockaddr *)&c->peer, c->peer_len, host, sizeof(host),
			      serv, sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(out, len, c->peer.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, serv);
	return out;
}

/* the peer table's entry of c's host (a free or the quietest slot when new) */
static struct s_peer *s_peer(struct bc_auth *a, const struct s_conn *c)
{
	char host[NI_MAXHOST];
	struct s_peer *p, *quiet = &a->peers[0];
	int i;

	if (!c || getnameinfo((const struct sockaddr *)&c->peer, c->peer_len, host, sizeof(host),
			      NULL, 0, NI_NUMERICHOST))
		snprintf(host, sizeof(host), "unknown");
	for (i = 0; i < S_PEERS; i++) {
		p = &a->peers[i];
		if (!strcmp(p->addr, host))
			return p;
		if (p->closed[0] + p->closed[1] + p->handshakes + p->dropped <
		    quiet->closed[0] + quiet->closed[1] + quiet->handshakes + quiet->dropped)
			quiet = p;
	}
	memset(quiet, 0, sizeof(*quiet));
	snprintf(quiet->addr, sizeof(quiet->addr), "%s", host);
	return quiet;
}

/* a dropped message's peer, by its routing frame's metadata (libzmq's Peer-Address) */
void bc_auth_count_drop(struct bc_auth *a, const char *address)
{
	struct s_conn c = {0};
	struct addrinfo hints = {.ai_flags = AI_NUMERICHOST}, *ai = NULL;

	if (!address || getaddrinfo(address, NULL, &hints, &ai) || !ai) {
		s_peer(a, NULL)->dropped++;
		return;
	}
	memcpy(&c.peer, ai->ai_addr, ai->ai_addrlen);
	c.peer_len = ai->ai_addrlen;
	freeaddrinfo(ai);
	s_peer(a, &c)->dropped++;
}

/*
 * log the pending failed handshake with the peer of fd (-1: unknown). One
 * without detail is either the peer closing before the handshake was done
 * or this agent's handshake timeout closing it (a half-open or idle
 * connection): the connection's age tells which.
 */
static void s_hs_flush(struct bc_auth *a, int fd)
{
	char peer[NI_MAXHOST + NI_MAXSERV + 4];
	const struct s_conn *c = s_conn_of(a, fd);
	uint64_t age = c ? bc_mono_ns() - c->at_ns : 0;

	if (!a->hs_pending)
		return;
	a->hs_pending = false;
	if (c && c->closing)
		return; /* the cap closed it: counted and logged there */
	a->n.handshake_failures++;
	s_peer(a, c)->handshakes++;
	if (a->hs_no_detail && c && age + 200 * BC_NS_PER_MS >= a->handshake_ms * BC_NS_PER_MS) {
		a->n.handshake_timeouts++;
		if (s_may_log(&a->rl_timeout, "handshake timeouts"))
			bc_warn("closed the connection from %s on the %s port: no handshake within "
				"%.1f s (a half-open or idle connection; --handshake-timeout)",
				s_peer_name(c, peer, sizeof(peer)), s_port_names[c->port],
				a->handshake_ms / 1000.0);
		return;
	}
	if (!s_may_log(&a->rl_hs, "failed handshakes"))
		return;
	bc_warn("%s from %s%s", a->hs_what, s_peer_name(c, peer, sizeof(peer)), a->hs_rest);
}

/* a failed handshake to log once its peer is known (see hs_pending) */
static void s_hs_failed(struct bc_auth *a, bool no_detail, const char *what, const char *fmt, ...)
{
	va_list ap;

	s_hs_flush(a, -1); /* two failures and no DISCONNECTED between: not ours to pair */
	a->hs_pending = true;
	a->hs_no_detail = no_detail;
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

/* a connection that cannot have authenticated: any on the announce port, none authenticates */
static bool s_unauth(const struct s_conn *c)
{
	return !c->closing && s_same(c) &&
	       (c->port == S_ANNOUNCE || s_bytes_received(c->fd) < S_AUTH_MIN_BYTES);
}

static void s_forget(struct bc_auth *a, int fd)
{
	int i, j, n = 0;

	for (i = 0; i < a->clen; i++) {
		struct s_conn *c = &a->conns[(a->chead + i) % S_TRACK_MAX];

		if (c->fd == fd) {
			if (c->dup >= 0) {
				close(c->dup);
				a->ndup--;
			}
			continue;
		}
		j = (a->chead + n++) % S_TRACK_MAX;
		if (&a->conns[j] != c)
			a->conns[j] = *c;
	}
	a->clen = n;
}

/*
 * A connection was accepted on port: track it, and when more than
 * BC_AGENT_UNAUTH_MAX of those tracked (both ports together) cannot have
 * authenticated, shut one down (libzmq then closes it, as if the peer had
 * left): the oldest of the peer that holds most of them.
 */
static void s_on_accepted(struct bc_auth *a, int fd, int port)
{
	struct s_conn *c;
	struct s_peer *p;
	char peer[NI_MAXHOST + NI_MAXSERV + 4];
	int i, k, unauth = 0, victim = -1, most = 0, from = 0;
	int *idx = NULL;

	if (a->clen == S_TRACK_MAX) {
		c = &a->conns[a->chead];
		if (c->dup >= 0) {
			close(c->dup);
			a->ndup--;
		}
		a->chead = (a->chead + 1) % S_TRACK_MAX;
		a->clen--;
	}
	c = &a->conns[(a->chead + a->clen) % S_TRACK_MAX];
	c->fd = fd;
	c->port = (uint8_t)port;
	c->at_ns = bc_mono_ns();
	c->dup = -1;
	c->closing = false;
	c->peer_len = sizeof(c->peer);
	if (getpeername(fd, (struct sockaddr *)&c->peer, &c->peer_len))
		return; /* gone already */
	/*
	 * the control socket's connections are kept as duplicates, so that when
	 * libzmq drops one its socket still says why (s_on_gone): the events
	 * name no descriptor once a handshake is done, and libzmq may close it
	 * before this thread reads the event
	 */
	if (port == S_CONTROL && a->ndup < S_DUP_MAX) {
		c->dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (c->dup >= 0)
			a->ndup++;
	}
	a->clen++;
	if (a->clen <= BC_AGENT_UNAUTH_MAX)
		return;
	idx = malloc((size_t)a->clen * sizeof(*idx));
	if (!idx)
		return;
	for (i = 0; i < a->clen; i++)
		if (s_unauth(&a->conns[(a->chead + i) % S_TRACK_MAX]))
			idx[unauth++] = (a->chead + i) % S_TRACK_MAX;
	if (unauth <= BC_AGENT_UNAUTH_MAX) {
		free(idx);
		return;
	}
	/* the peer with most unauthenticated connections, and its oldest */
	for (i = 0; i < unauth; i++) {
		const struct s_conn *x = &a->conns[idx[i]];
		int same = 0;

		for (k = 0; k < unauth; k++) {
			const struct s_conn *y = &a->conns[idx[k]];

			same += x->peer.ss_family == y->peer.ss_family &&
				(x->peer.ss_family == AF_INET
				     ? ((const struct sockaddr_in *)&x->peer)->sin_addr.s_addr ==
					   ((const struct sockaddr_in *)&y->peer)->sin_addr.s_addr
				     : !memcmp(&((const struct sockaddr_in6 *)&x->peer)->sin6_addr,
					       &((const struct sockaddr_in6 *)&y->peer)->sin6_addr,
					       sizeof(struct in6_addr)));
		}
		if (same > most) {
			most = same;
			victim = idx[i];
		}
		if (most > unauth / 2)
			break; /* a majority: nobody else can hold more */
	}
	free(idx);
	if (victim < 0)
		return;
	c = &a->conns[victim];
	fd = c->fd;
	port = c->port;
	from = most;
	s_peer_name(c, peer, sizeof(peer));
	p = s_peer(a, c);
	p->closed[port]++;
	/* libzmq closes it now, as if the peer had left; forgotten at its DISCONNECTED */
	shutdown(fd, SHUT_RDWR);
	c->closing = true;
	if (c->dup >= 0) {
		close(c->dup);
		c->dup = -1;
		a->ndup--;
	}
	if (port == S_ANNOUNCE)
		a->n.announce_closed++;
	else
		a->n.flooded++;
	if (s_may_log(&a->rl_cap[port],
		      port == S_ANNOUNCE ? "closed unauthenticated connections (key-announce port)"
					 : "closed unauthenticated connections (control port)"))
		bc_warn(
		    "more than %d connections that have not authenticated: closed the oldest of "
		    "%s (%d of them from its host) on the %s port (%llu closed there so far)",
		    BC_AGENT_UNAUTH_MAX, peer, from, s_port_names[port],
		    (unsigned long long)(port == S_ANNOUNCE ? a->n.announce_closed : a->n.flooded));
}

/*
 * A control connection closed. libzmq drops a peer whose frame exceeds
 * ZMQ_MAXMSGSIZE (or whose framing is broken) when it reads the frame's
 * header, with no event of its own. The duplicate tells: a connection that
 * had authenticated and whose peer had not closed it (no FIN: the socket is
 * still established) was closed by libzmq, for a frame it refused.
 */
#define S_TCP_ESTABLISHED 1 /* tcpi_state (include/net/tcp_states.h) */

static void s_on_gone(struct bc_auth *a, struct s_conn *c)
{
	char peer[NI_MAXHOST + NI_MAXSERV + 4];
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (c->dup < 0 || s_bytes_received(c->dup) < S_AUTH_MIN_BYTES ||
	    getsockopt(c->dup, IPPROTO_TCP, TCP_INFO, &ti, &len) ||
	    ti.tcpi_state != S_TCP_ESTABLISHED)
		return;
	a->n.oversized++;
	s_peer(a, c)->dropped++;
	if (s_may_log(&a->rl_big, "connections dropped on oversized frames"))
		bc_warn(
		    "dropped the connection from %s: it sent an oversized frame (over the %d MiB "
		    "transport limit, or broken framing), after %llu bytes",
		    s_peer_name(c, peer, sizeof(peer)), BC_AGENT_WIRE_MAX >> 20,
		    (unsigned long long)s_bytes_received(c->dup));
}

static void s_events(struct bc_auth *a, struct bc_monitor *mon, int port)
{
	struct bc_monitor_event ev;
	struct s_conn *c;

	while (!bc_monitor_read(mon, &ev)) {
		switch (ev.event) {
		case ZMQ_EVENT_ACCEPTED:
			s_on_accepted(a, (int)ev.value, port);
			break;
		case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
			if (ev.value == ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC)
				s_hs_failed(a, false, "CURVE handshake",
					    " on %s failed: %s -- a coordinator is using a "
					    "server_key that is not this agent's public key %s",
					    ev.addr, bc_monitor_protocol_error(ev.value),
					    bc_auth_public_key(a) ? bc_auth_public_key(a)
								  : "(none)");
			else if (ev.value == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH)
				s_hs_failed(
				    a, false, "handshake",
				    " on %s failed: security mechanism mismatch: the peer's "
				    "greeting asks for another mechanism than %s (NULL, PLAIN, "
				    "or one unknown to ZeroMQ)",
				    ev.addr, a->cert && port == S_CONTROL ? "CURVE" : "NULL");
			else
				s_hs_failed(a, false, "handshake", " on %s failed: %s", ev.addr,
					    bc_monitor_protocol_error(ev.value));
			break;
		case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
			s_hs_failed(a, true, "handshake",
				    " on %s failed: %s (the peer closed the connection before the "
				    "handshake was done, or does not speak ZeroMQ)",
				    ev.addr, strerror((int)ev.value));
			break;
		case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
			/* the ZAP handler has counted and logged it */
			break;
		case ZMQ_EVENT_DISCONNECTED:
			s_hs_flush(a, (int)ev.value);
			c = s_conn_of(a, (int)ev.value);
			if (c)
				s_on_gone(a, c);
			s_forget(a, (int)ev.value);
			a->n.disconnects++;
			bc_debug("a connection on %s closed", ev.addr);
			break;
		default:
			break;
		}
	}
}

static void s_on_monitor(struct bc_auth *a, struct bc_monitor *mon, int port)
{
	bool waited = false;

	for (;;) {
		s_events(a, mon, port);
		if (!a->hs_pending)
			return;
		/* the DISCONNECTED that names the peer is on its way: wait once, briefly */
		zmq_pollitem_t it = {zsock_resolve(bc_monitor_sock(mon)), 0, ZMQ_POLLIN, 0};

		if (waited || zmq_poll(&it, 1, S_PEER_WAIT_MS) <= 0) {
			s_hs_flush(a, -1);
			return;
		}
		waited = true;
	}
}

void bc_auth_on_monitor(struct bc_auth *a)
{
	s_on_monitor(a, a->mon, S_CONTROL);
}

int bc_auth_watch_announce(struct bc_auth *a, zsock_t *s)
{
	zsock_set_handshake_ivl(s, (int)a->handshake_ms);
	a->mon_ann =
	    bc_monitor_new(s, ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
				  ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_DISCONNECTED);
	return a->mon_ann ? 0 : -errno;
}

zsock_t *bc_auth_announce_monitor_sock(struct bc_auth *a)
{
	return a->mon_ann ? bc_monitor_sock(a->mon_ann) : NULL;
}

void bc_auth_on_announce_monitor(struct bc_auth *a)
{
	if (a->mon_ann)
		s_on_monitor(a, a->mon_ann, S_ANNOUNCE);
}

/* the peers that were refused most, busiest first (at most 8) */
static void s_peers_json(const struct bc_auth *a, cJSON *arr)
{
	bool used[S_PEERS] = {false};
	int k, i;

	for (k = 0; k < 8; k++) {
		const struct s_peer *best = NULL;
		int bi = -1;

		for (i = 0; i < S_PEERS; i++) {
			const struct s_peer *p = &a->peers[i];
			uint64_t t = p->closed[0] + p->closed[1] + p->handshakes + p->dropped;

			if (used[i] || !p->addr[0] || !t)
				continue;
			if (!best || t > best->closed[0] + best->closed[1] + best->handshakes +
					     best->dropped) {
				best = p;
				bi = i;
			}
		}
		if (!best)
			break;
		used[bi] = true;
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "address", best->addr);
		cJSON_AddNumberToObject(o, "unauthenticated_closed", (double)best->closed[0]);
		cJSON_AddNumberToObject(o, "announce_closed", (double)best->closed[1]);
		cJSON_AddNumberToObject(o, "handshake_failures", (double)best->handshakes);
		cJSON_AddNumberToObject(o, "dropped_messages", (double)best->dropped);
		cJSON_AddItemToArray(arr, o);
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
	cJSON_AddNumberToObject(d, "handshake_timeouts", (double)a->n.handshake_timeouts);
	cJSON_AddNumberToObject(d, "malformed", (double)a->n.malformed);
	cJSON_AddNumberToObject(d, "wrong_version", (double)a->n.wrong_version);
	cJSON_AddNumberToObject(d, "oversized", (double)a->n.oversized);
	cJSON_AddNumberToObject(d, "refused", (double)a->n.refused);
	cJSON_AddNumberToObject(d, "disconnects", (double)a->n.disconnects);
	cJSON_AddNumberToObject(d, "unauthenticated_closed", (double)a->n.flooded);
	cJSON_AddNumberToObject(d, "announce_closed", (double)a->n.announce_closed);
	s_peers_json(a, cJSON_AddArrayToObject(j, "peers"));
	return j;
}
