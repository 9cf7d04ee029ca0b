/*
 * bc_garbage - send an agent garbage: N malformed, truncated, oversized,
 * wrong-version and out-of-session messages over an authenticated CURVE
 * connection, and (--raw) bytes that are not ZeroMQ at all over plain TCP.
 * A helper of tests/multihost/test_multihost_garbage.sh, not a test itself.
 *
 *   bc_garbage ENDPOINT SERVER_KEY COORD_CERT COUNT   garbage; prints what it sent
 *   bc_garbage --raw HOST PORT COUNT                   non-ZMTP bytes, COUNT connections
 *   bc_garbage --hello ENDPOINT SERVER_KEY COORD_CERT  HELLO; prints HELLO_OK's "security"
 *   bc_garbage --prepare ENDPOINT SERVER_KEY COORD_CERT BODY
 *                          HELLO, then PREPARE with the bytes of file BODY as its body
 *                          (a path may hold what the coordinator never sends: \u0000);
 *                          prints the agent's answer
 *   bc_garbage --big ENDPOINT SERVER_KEY COORD_CERT MIB
 *                          one frame of MIB MiB (libzmq cuts such a connection at its header)
 *   bc_garbage --greeting HOST PORT MECHANISM
 *                          a ZMTP 3.0 greeting naming MECHANISM, then waits for the close
 *
 * Exit 0 when everything was sent (and for --hello, HELLO_OK arrived).
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/curve.h"
#include "wire/proto.h"
#include "wire/stats.h"

/* xorshift64: reproducible garbage */
static uint64_t s_rng = 0x9e3779b97f4a7c15ull;

static uint64_t s_rand(void)
{
	s_rng ^= s_rng << 13;
	s_rng ^= s_rng >> 7;
	s_rng ^= s_rng << 17;
	return s_rng;
}

static void s_fill(uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)s_rand();
}

/* send frames as one multipart message without waiting for room */
/* "BC", this build's protocol version byte, the type: a header the agent takes as well-formed
 * (hard-coding the byte would turn every probe into a version mismatch when the protocol moves) */
static const char *s_hdr(const char *type)
{
	static char ring[4][32];
	static unsigned next;
	char *h = ring[next++ % 4];

	snprintf(h, sizeof(ring[0]), "BC%c%s", (char)BC_PROTO_VERSION, type);
	return h;
}

static int s_send(zsock_t *s, int nframes, const void *const *data, const size_t *len)
{
	zmsg_t *m = zmsg_new();
	int i;

	for (i = 0; i < nframes; i++)
		zmsg_addmem(m, data[i], len[i]);
	return zmsg_send(&m, s);
}

/* read whatever replies are queued, so the agent's queue to us never fills */
static int s_drain(zsock_t *s)
{
	int n = 0;
	zmsg_t *m;

	while ((m = zmsg_recv(s))) {
		zmsg_destroy(&m);
		n++;
	}
	return n;
}

static zsock_t *s_connect(const char *ep, const char *skey, const char *cert_path)
{
	zsock_t *s = zsock_new(ZMQ_DEALER);
	zcert_t *cert = NULL;
	char err[512];

	if (bc_curve_load(cert_path, "bench-coord keygen", &cert, err, sizeof(err))) {
		fprintf(stderr, "bc_garbage: %s\n", err);
		exit(2);
	}
	zcert_apply(cert, s);
	zcert_destroy(&cert);
	zsock_set_curve_serverkey(s, skey);
	zsock_set_linger(s, 1000);
	zsock_set_sndtimeo(s, 2000);
	zsock_set_rcvtimeo(s, 0);
	if (zsock_connect(s, "%s", ep)) {
		fprintf(stderr, "bc_garbage: cannot connect to %s\n", ep);
		exit(2);
	}
	return s;
}

static const char *const s_json_bodies[] = {
    "{",
    "{\"step\":",
    "[]",
    "1",
    "null",
    "\"x\"",
    "{\"step\":0,\"volumes\":[{\"path\":",
    "{\"a\":\"\\ud800\"}",
    "{}}",
    "\xff\xfe\x00\x01",
};

/* one garbage message of kind k; returns the kind's name */
static const char *s_garbage(zsock_t *s, int k, uint8_t *buf, size_t cap)
{
	const void *d[6];
	size_t l[6];
	char hdr[64];
	int i, n;

	switch (k) {
	case 0: /* random frames, 0..5 of them */
		n = (int)(s_rand() % 6);
		for (i = 0; i < n; i++) {
			l[i] = s_rand() % 300;
			s_fill(buf + i * 300, l[i]);
			d[i] = buf + i * 300;
		}
		if (!n) {
			d[0] = "";
			l[0] = 0;
			n = 1;
		}
		s_send(s, n, d, l);
		return "random frames";
	case 1: /* truncated headers */
		d[0] = s_hdr("HELLO");
		l[0] = s_rand() % 4;
		d[1] = "{}";
		l[1] = 2;
		s_send(s, 2, d, l);
		return "truncated header";
	case 2: /* valid header, broken JSON */
		d[0] = (s_rand() & 1) ? s_hdr("PREPARE") : s_hdr("HELLO");
		l[0] = strlen(d[0]);
		d[1] = s_json_bodies[s_rand() % (sizeof(s_json_bodies) / sizeof(s_json_bodies[0]))];
		l[1] = strlen(d[1]);
		s_send(s, 2, d, l);
		return "invalid JSON";
	case 3: /* another protocol version */
		hdr[0] = 'B';
		hdr[1] = 'C';
		hdr[2] = (char)(1 + s_rand() % 250);
		if (hdr[2] == BC_PROTO_VERSION)
			hdr[2]++;
		memcpy(hdr + 3, "HELLO", 5);
		d[0] = hdr;
		l[0] = 8;
		d[1] = "{}";
		l[1] = 2;
		s_send(s, 2, d, l);
		return "wrong version";
	case 4: /* unknown type */
		d[0] = s_hdr("NOPE");
		l[0] = 7;
		d[1] = "{}";
		l[1] = 2;
		s_send(s, 2, d, l);
		return "unknown type";
	case 5: /* STATS from a coordinator, random binary */
		d[0] = s_hdr("STATS");
		l[0] = 8;
		l[1] = s_rand() % 200;
		s_fill(buf, l[1]);
		d[1] = buf;
		s_send(s, 2, d, l);
		return "random STATS";
	case 6: /* frame counts the protocol never uses */
		d[0] = d[1] = d[2] = s_hdr("TIME");
		l[0] = l[1] = l[2] = 7;
		s_send(s, (s_rand() & 1) ? 1 : 3, d, l);
		return "wrong frame count";
	case 7: /* well-formed, but this peer has no session */
		d[0] = (s_rand() & 1) ? s_hdr("ABORT") : s_hdr("PREPARE");
		l[0] = strlen(d[0]);
		d[1] = "{\"step\":0,\"workload\":{},\"volumes\":[{\"path\":\"/etc/passwd\"}]}";
		l[1] = strlen(d[1]);
		s_send(s, 2, d, l);
		return "out of session";
	case 8: /* deep nesting */
		n = (int)(cap < 20000 ? cap : 20000);
		memset(buf, '[', (size_t)n);
		d[0] = s_hdr("HELLO");
		l[0] = 8;
		d[1] = buf;
		l[1] = (size_t)n;
		s_send(s, 2, d, l);
		return "deep nesting";
	default: /* oversized for the agent (1 MiB), below ZeroMQ's cut (4 MiB) */
		l[1] = (2u << 20) < cap ? (2u << 20) : cap;
		s_fill(buf, l[1]);
		d[0] = s_hdr("HELLO");
		l[0] = 8;
		d[1] = buf;
		s_send(s, 2, d, l);
		return "oversized";
	}
}

static int s_garbage_run(const char *ep, const char *skey, const char *cert, int count)
{
	size_t cap = 8u << 20;
	uint8_t *buf = malloc(cap);
	zsock_t *s = s_connect(ep, skey, cert);
	int counts[10] = {0}, i, replies = 0;
	const char *names[10] = {0};
	const void *d[2];
	size_t l[2];

	if (!buf)
		return 1;
	for (i = 0; i < count; i++) {
		/* one oversized message in 50: each costs the agent a 2 MiB read */
		int k = (i % 50 == 49) ? 9 : (int)(s_rand() % 9);

		names[k] = s_garbage(s, k, buf, cap);
		counts[k]++;
		if (i % 20 == 19)
			replies += s_drain(s);
	}
	/* and one the transport itself refuses (> ZMQ_MAXMSGSIZE): the connection drops */
	d[0] = s_hdr("HELLO");
	l[0] = 8;
	s_fill(buf, cap);
	d[1] = buf;
	l[1] = cap;
	s_send(s, 2, d, l);
	usleep(300 * 1000);
	replies += s_drain(s);
	for (i = 0; i < 10; i++)
		if (counts[i])
			printf("%-18s %d\n", names[i], counts[i]);
	printf("sent %d messages (+1 over the transport limit), %d replies\n", count, replies);
	zsock_destroy(&s);
	free(buf);
	return 0;
}

/* bytes that are not ZeroMQ: random, a truncated greeting, a greeting then junk */
static int s_raw_run(const char *host, const char *port, int count)
{
	static const uint8_t greeting[] = {0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f, 3, 0};
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *ai;
	uint8_t buf[600];
	int i, fd, sent = 0;

	if (getaddrinfo(host, port, &hints, &ai)) {
		fprintf(stderr, "bc_garbage: cannot resolve %s:%s\n", host, port);
		return 2;
	}
	for (i = 0; i < count; i++) {
		size_t n;

		fd = socket(ai->ai_family, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen)) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		switch (i % 3) {
		case 0:
			n = 1 + s_rand() % sizeof(buf);
			s_fill(buf, n);
			break;
		case 1:
			n = 1 + s_rand() % sizeof(greeting);
			memcpy(buf, greeting, n);
			break;
		default:
			memcpy(buf, greeting, sizeof(greeting));
			n = sizeof(greeting) + s_rand() % 200;
			s_fill(buf + sizeof(greeting), n - sizeof(greeting));
			break;
		}
		if (write(fd, buf, n) == (ssize_t)n)
			sent++;
		close(fd);
	}
	freeaddrinfo(ai);
	printf("sent non-ZeroMQ bytes on %d connections\n", sent);
	return 0;
}

static int s_hello(const char *ep, const char *skey, const char *cert)
{
	zsock_t *s = s_connect(ep, skey, cert);
	struct bc_msg m;
	char err[256];
	int rc = 1, tries;

	zsock_set_rcvtimeo(s, 5000);
	bc_msg_send_json(s, NULL, BC_MSG_HELLO, NULL);
	for (tries = 0; tries < 5; tries++) {
		if (bc_msg_recv(s, false, &m, err, sizeof(err))) {
			bc_msg_clear(&m);
			break;
		}
		if (m.type == BC_MSG_HELLO_OK) {
			char *t = cJSON_PrintUnformatted(cJSON_GetObjectItem(m.json, "security"));

			printf("%s\n", t ? t : "null");
			cJSON_free(t);
			bc_msg_send_json(s, NULL, BC_MSG_BYE, NULL);
			rc = 0;
			bc_msg_clear(&m);
			break;
		}
		fprintf(stderr, "bc_garbage: got %s\n", bc_msg_name(m.type));
		bc_msg_clear(&m);
	}
	zsock_destroy(&s);
	return rc;
}

/* HELLO then PREPARE with the file's bytes as body; the first answer that is not HELLO_OK */
static int s_prepare(const char *ep, const char *skey, const char *cert, const char *body_path)
{
	zsock_t *s = s_connect(ep, skey, cert);
	FILE *f = fopen(body_path, "rb");
	static char body[1 << 16];
	const void *d[2];
	size_t l[2], n;
	zmsg_t *m;
	int rc = 1, tries;

	if (!f)
		return 2;
	n = fread(body, 1, sizeof(body), f);
	fclose(f);
	zsock_set_rcvtimeo(s, 10000);
	bc_msg_send_json(s, NULL, BC_MSG_HELLO, NULL);
	d[0] = s_hdr("PREPARE");
	l[0] = strlen(d[0]);
	d[1] = body;
	l[1] = n;
	for (tries = 0; tries < 20 && (m = zmsg_recv(s)); tries++) {
		zframe_t *h = zmsg_first(m), *b = zmsg_next(m);

		if (h && zframe_size(h) > 3 && !memcmp(zframe_data(h) + 3, "HELLO_OK", 8)) {
			zmsg_destroy(&m);
			s_send(s, 2, d, l);
			continue;
		}
		if (h && zframe_size(h) > 3 && !memcmp(zframe_data(h) + 3, "HEARTBEAT", 9)) {
			zmsg_destroy(&m);
			continue;
		}
		printf("%.*s %.*s\n", h ? (int)zframe_size(h) - 3 : 0,
		       h ? (const char *)zframe_data(h) + 3 : "", b ? (int)zframe_size(b) : 0,
		       b ? (const char *)zframe_data(b) : "");
		zmsg_destroy(&m);
		rc = 0;
		break;
	}
	bc_msg_send_json(s, NULL, BC_MSG_BYE, NULL);
	zsock_destroy(&s);
	return rc;
}

/* one frame of mib MiB: over ZMQ_MAXMSGSIZE, so libzmq drops the connection at its header */
static int s_big(const char *ep, const char *skey, const char *cert, int mib)
{
	zsock_t *s = s_connect(ep, skey, cert);
	size_t n = (size_t)mib << 20;
	uint8_t *buf = calloc(1, n);
	const void *d[2] = {s_hdr("HELLO"), buf};
	size_t l[2] = {8, n};

	if (!buf)
		return 1;
	zsock_set_sndtimeo(s, 10000);
	s_send(s, 2, d, l);
	/* linger: the frame leaves (as far as the agent reads it) before the socket goes */
	usleep(500 * 1000);
	zsock_destroy(&s);
	free(buf);
	return 0;
}

/* a ZMTP 3.0 greeting (RFC 23) naming mech, then read until the agent closes */
static int s_greeting(const char *host, const char *port, const char *mech)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *ai;
	uint8_t g[64] = {0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f, 3, 0};
	struct timeval tv = {10, 0};
	char buf[256];
	int fd;

	snprintf((char *)g + 12, 20, "%s", mech);
	if (getaddrinfo(host, port, &hints, &ai))
		return 2;
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		freeaddrinfo(ai);
		return 2;
	}
	freeaddrinfo(ai);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (write(fd, g, sizeof(g)) != (ssize_t)sizeof(g)) {
		close(fd);
		return 1;
	}
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	printf("greeting with mechanism %s sent; the agent closed the connection\n", mech);
	return 0;
}

int main(int argc, char **argv)
{
	zsys_init();
	zsys_set_logstream(NULL);
	if (argc == 5 && !strcmp(argv[1], "--raw"))
		return s_raw_run(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "--hello"))
		return s_hello(argv[2], argv[3], argv[4]);
	if (argc == 6 && !strcmp(argv[1], "--prepare"))
		return s_prepare(argv[2], argv[3], argv[4], argv[5]);
	if (argc == 6 && !strcmp(argv[1], "--big"))
		return s_big(argv[2], argv[3], argv[4], atoi(argv[5]));
	if (argc == 5 && !strcmp(argv[1], "--greeting"))
		return s_greeting(argv[2], argv[3], argv[4]);
	if (argc == 5)
		return s_garbage_run(argv[1], argv[2], argv[3], atoi(argv[4]));
	fprintf(stderr, "usage: bc_garbage ENDPOINT SERVER_KEY COORD_CERT COUNT\n"
			"       bc_garbage --raw HOST PORT COUNT\n"
			"       bc_garbage --hello ENDPOINT SERVER_KEY COORD_CERT\n"
			"       bc_garbage --prepare ENDPOINT SERVER_KEY COORD_CERT BODY\n"
			"       bc_garbage --big ENDPOINT SERVER_KEY COORD_CERT MIB\n"
			"       bc_garbage --greeting HOST PORT MECHANISM\n");
	return 2;
}
