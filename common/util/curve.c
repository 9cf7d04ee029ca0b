/*
 * util/curve.c - CURVE key files, known-hosts lookups and the socket monitor
 * (see util/curve.h).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/base64.h"
#include "util/clock.h"
#include "util/curve.h"
#include "util/log.h"
#include "util/sha256.h"

/* ZMQ RFC 32 (Z85): the 85 characters of the encoding alphabet */
static const char s_z85[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    ".-:+=^!/*?&<>()[]{}@%$#";

bool bc_curve_key_valid(const char *s)
{
	size_t i;

	if (!s || strlen(s) != BC_KEY_Z85_LEN)
		return false;
	for (i = 0; i < BC_KEY_Z85_LEN; i++)
		if (!strchr(s_z85, s[i]) || !s[i])
			return false;
	return true;
}

void bc_curve_default_dir(const char *tool, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		snprintf(buf, len, "%s/%s", xdg, tool);
	else if (home && *home == '/')
		snprintf(buf, len, "%s/.config/%s", home, tool);
	else
		snprintf(buf, len, "/etc/%s", tool);
}

/* mkdir -p with mode for the last component */
static int s_mkdirs(const char *dir, mode_t mode)
{
	char buf[1024];
	char *p;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

int bc_curve_keygen(const char *dir, const char *name, bool force, char *pub, char *err,
		    size_t errlen)
{
	return bc_curve_keygen_at(dir, name, force, NULL, pub, err, errlen);
}

int bc_curve_keygen_at(const char *dir, const char *name, bool force, const char *endpoint,
		       char *pub, char *err, size_t errlen)
{
	char host[256] = "";
	char path[1024], secret[1040];
	zcert_t *cert = NULL;
	struct stat st;
	int rc;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		snprintf(err, errlen, "'%s': path too long", dir);
		return -ENAMETOOLONG;
	}
	snprintf(secret, sizeof(secret), "%s_secret", path);
	if (!force && !stat(secret, &st)) {
		snprintf(err, errlen,
			 "'%s' already exists; refusing to replace a key pair (use --force; every "
			 "peer that trusts the old public key must then get the new one)",
			 secret);
		return -EEXIST;
	}
	rc = s_mkdirs(dir, 0700);
	if (rc) {
		snprintf(err, errlen, "cannot create '%s': %s", dir, strerror(-rc));
		return rc;
	}
	cert = zcert_new();
	if (!cert) {
		snprintf(err, errlen, "cannot generate a key pair (is libzmq built with CURVE?)");
		return -ENOTSUP;
	}
	zcert_set_meta(cert, "created-by", "bench-coord %s", BC_VERSION);
	if (!gethostname(host, sizeof(host) - 1) && host[0])
		zcert_set_meta(cert, "hostname", "%s", host);
	if (endpoint)
		zcert_set_meta(cert, "endpoint", "%s", endpoint);
	/* the secret first: a public file without its secret is useless but harmless */
	unlink(secret);
	if (zcert_save_secret(cert, secret) || chmod(secret, 0600)) {
		rc = -(errno ? errno : EIO);
		snprintf(err, errlen, "cannot write '%s': %s", secret, strerror(-rc));
		goto out;
	}
	if (zcert_save_public(cert, path) || chmod(path, 0644)) {
		rc = -(errno ? errno : EIO);
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-rc));
		goto out;
	}
	if (pub)
		snprintf(pub, BC_KEY_Z85_LEN + 1, "%s", zcert_public_txt(cert));
	rc = 0;
out:
	zcert_destroy(&cert);
	return rc;
}

int bc_curve_load(const char *path, const char *keygen_hint, zcert_t **out, char *err,
		  size_t errlen)
{
	static const uint8_t zero[32];
	char secret[1040];
	zcert_t *cert;

	*out = NULL;
	snprintf(secret, sizeof(secret), "%s_secret", path);
	if (access(path, R_OK) && access(secret, R_OK)) {
		snprintf(err, errlen, "cannot read key pair '%s': %s (create one with '%s')", path,
			 strerror(errno), keygen_hint);
		return -ENOENT;
	}
	cert = zcert_load(path);
	if (!cert) {
		snprintf(err, errlen, "'%s' is not a CURVE certificate (create one with '%s')",
			 path, keygen_hint);
		return -EINVAL;
	}
	/* zcert_load falls back to the public file and leaves the secret key zero */
	if (!memcmp(zcert_secret_key(cert), zero, sizeof(zero))) {
		snprintf(err, errlen,
			 "'%s' holds only a public key; this side needs its secret file '%s' "
			 "(create a pair with '%s')",
			 path, secret, keygen_hint);
		zcert_destroy(&cert);
		return -EINVAL;
	}
	/* both sides load their pair here: one rule for a secret others can read */
	bc_curve_perm_warn(access(secret, F_OK) ? path : secret, "secret key file", true);
	*out = cert;
	return 0;
}

int bc_known_hosts_lookup(const char *file, const char *name, const char *endpoint, char *key,
			  char *err, size_t errlen)
{
	FILE *f = fopen(file, "re");
	char line[1024];
	int lineno = 0, rc = -ENOENT;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot read known-hosts file '%s': %s", file, strerror(-rc));
		return rc;
	}
	while (fgets(line, sizeof(line), f)) {
		char *who, *k, *extra, *save = NULL;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long", file, lineno);
			rc = -EINVAL;
			break;
		}
		who = strtok_r(line, " \t\r\n", &save);
		/* '#' only starts a comment as a line's first word: Z85 keys may contain it */
		if (!who || who[0] == '#')
			continue;
		k = strtok_r(NULL, " \t\r\n", &save);
		extra = k ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		if (!k || extra || !bc_curve_key_valid(k)) {
			snprintf(err, errlen,
				 "%s:%d: expected \"<endpoint-or-name> <40-character Z85 key>\"",
				 file, lineno);
			rc = -EINVAL;
			break;
		}
		if (!strcmp(who, name) || (endpoint && !strcmp(who, endpoint))) {
			snprintf(key, BC_KEY_Z85_LEN + 1, "%s", k);
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

int bc_curve_fingerprint(const char *z85, char fp[BC_FINGERPRINT_LEN + 1])
{
	uint8_t key[32], h[32];
	char b64[BC_BASE64_LEN(32) + 1];
	char *e;

	if (!bc_curve_key_valid(z85) || !zmq_z85_decode(key, z85))
		return -EINVAL;
	bc_sha256(key, sizeof(key), h);
	bc_base64_encode(b64, h, sizeof(h));
	e = strchr(b64, '=');
	if (e)
		*e = 0;
	snprintf(fp, BC_FINGERPRINT_LEN + 1, "SHA256:%s", b64);
	return 0;
}

const char *bc_shell_quote(const char *s, char *out, size_t len)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789@%+=:,./-_";
	size_t o = 0;

	if (*s && strspn(s, plain) == strlen(s)) {
		snprintf(out, len, "%s", s);
		return out;
	}
	if (len < 3) {
		if (len)
			*out = 0;
		return out;
	}
	out[o++] = '\'';
	for (; *s && o + 6 < len; s++) {
		if (*s == '\'') {
			memcpy(out + o, "'\\''", 4);
			o += 4;
		} else {
			out[o++] = *s;
		}
	}
	out[o++] = '\'';
	out[o] = 0;
	return out;
}

int bc_curve_perm_warn(const char *path, const char *what, bool secret)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (secret && (st.st_mode & 077)) {
		bc_warn(
		    "%s '%s' is readable or writable by others (mode %04o): anyone who can read "
		    "it can impersonate this host; chmod 600 '%s'",
		    what, path, (unsigned)(st.st_mode & 07777), path);
		return 1;
	}
	if (!secret && (st.st_mode & 022)) {
		bc_warn("%s '%s' is writable by others (mode %04o): anyone who can write it can "
			"add a key this host then trusts; chmod go-w '%s'",
			what, path, (unsigned)(st.st_mode & 07777), path);
		return 1;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		bc_warn("%s '%s' belongs to uid %u, not to this user (uid %u) or root: its owner "
			"decides which keys are trusted",
			what, path, (unsigned)st.st_uid, (unsigned)geteuid());
		return 1;
	}
	return 0;
}

int bc_known_hosts_pin(const char *file, const char *who, const char *key, const char *origin,
		       char *pinned, char *err, size_t errlen)
{
	char dir[1024], fp[BC_FINGERPRINT_LEN + 1], when[32];
	const char *slash = strrchr(file, '/');
	time_t t = time(NULL);
	struct tm tm;
	FILE *f;
	int rc;

	if (bc_curve_fingerprint(key, fp)) {
		snprintf(err, errlen, "'%s' is not a 40-character Z85 key", key);
		return -EINVAL;
	}
	if (strpbrk(who, " \t\r\n") || who[0] == '#' || !who[0]) {
		snprintf(err, errlen, "'%s' cannot be a known-hosts name (blank, or spaces or '#')",
			 who);
		return -EINVAL;
	}
	rc = bc_known_hosts_lookup(file, who, NULL, pinned, err, errlen);
	if (!rc && !strcmp(pinned, key))
		return 0;
	if (!rc) {
		char pfp[BC_FINGERPRINT_LEN + 1] = "?";

		bc_curve_fingerprint(pinned, pfp);
		snprintf(err, errlen,
			 "%s: %s is pinned to another key (%s), not %s (%s): if that agent's key "
			 "was replaced on purpose, delete its line from %s first; otherwise "
			 "something else is answering for it",
			 file, who, pfp, origin, fp, file);
		return -EKEYREJECTED;
	}
	if (rc != -ENOENT && access(file, F_OK) == 0)
		return rc;
	if (slash && slash != file) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - file), file);
		rc = s_mkdirs(dir, 0700);
		if (rc) {
			snprintf(err, errlen, "cannot create '%s': %s", dir, strerror(-rc));
			return rc;
		}
	}
	f = fopen(file, "ae");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot write '%s': %s", file, strerror(-rc));
		return rc;
	}
	fchmod(fileno(f), 0600);
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(f, "# %s %s, from %s, pinned %s\n%s %s\n", who, fp, origin, when, who, key);
	rc = fclose(f) ? -errno : 1;
	if (rc < 0)
		snprintf(err, errlen, "cannot write '%s': %s", file, strerror(-rc));
	return rc;
}

int bc_announce_endpoint(const char *control, char *out, size_t len)
{
	const char *colon = strrchr(control, ':');
	char *end;
	long port;

	if (strncmp(control, "tcp://", 6) || !colon)
		return -EINVAL;
	port = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || *end || port < 1 || port >= 65535)
		return -EINVAL;
	snprintf(out, len, "%.*s:%ld", (int)(colon - control), control, port + 1);
	return 0;
}

struct bc_monitor {
	zsock_t *pair;
	struct bc_monitor_state st;
};

struct bc_monitor *bc_monitor_new(zsock_t *s, int events)
{
	static atomic_uint seq;
	struct bc_monitor *m = calloc(1, sizeof(*m));
	char ep[96];

	if (!m)
		return NULL;
	snprintf(ep, sizeof(ep), "inproc://bc-monitor-%d-%u", (int)getpid(),
		 atomic_fetch_add(&seq, 1));
	if (zmq_socket_monitor(zsock_resolve(s), ep, events))
		goto fail;
	m->pair = zsock_new(ZMQ_PAIR);
	if (!m->pair)
		goto fail;
	zsock_set_rcvtimeo(m->pair, 0);
	zsock_set_linger(m->pair, 0);
	if (zsock_connect(m->pair, "%s", ep))
		goto fail;
	return m;
fail:
	bc_monitor_destroy(&m);
	return NULL;
}

void bc_monitor_destroy(struct bc_monitor **mp)
{
	struct bc_monitor *m = *mp;

	if (!m)
		return;
	/* the monitored socket stops its side when it closes; ours just goes */
	zsock_destroy(&m->pair);
	free(m);
	*mp = NULL;
}

zsock_t *bc_monitor_sock(struct bc_monitor *m)
{
	return m ? m->pair : NULL;
}

int bc_monitor_read(struct bc_monitor *m, struct bc_monitor_event *ev)
{
	zmsg_t *msg;
	zframe_t *f;
	uint16_t e;
	int rc = -EAGAIN;

	memset(ev, 0, sizeof(*ev));
	if (!m || !m->pair)
		return -EAGAIN;
	msg = zmsg_recv(m->pair); /* rcvtimeo 0: never blocks */
	if (!msg)
		return -EAGAIN;
	/* libzmq 4.x monitor format: [u16 event, u32 value] [endpoint] */
	f = zmsg_first(msg);
	if (f && zframe_size(f) == 6) {
		memcpy(&e, zframe_data(f), 2);
		memcpy(&ev->value, zframe_data(f) + 2, 4);
		ev->event = e;
		f = zmsg_next(msg);
		if (f)
			snprintf(ev->addr, sizeof(ev->addr), "%.*s", (int)zframe_size(f),
				 (const char *)zframe_data(f));
		rc = 0;
	}
	zmsg_destroy(&msg);
	return rc;
}

const struct bc_monitor_state *bc_monitor_drain(struct bc_monitor *m)
{
	struct bc_monitor_event ev;

	while (!bc_monitor_read(m, &ev)) {
		switch (ev.event) {
		case ZMQ_EVENT_CONNECTED:
		case ZMQ_EVENT_ACCEPTED:
			m->st.connected = true;
			break;
		case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
			m->st.handshaken = true;
			m->st.down = false;
			break;
		case ZMQ_EVENT_DISCONNECTED:
			if (!m->st.down)
				m->st.down_ns = bc_mono_ns();
			m->st.down = true;
			break;
		case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
		case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
		case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
			m->st.failures++;
			m->st.fail_event = ev.event;
			m->st.fail_value = ev.value;
			break;
		default:
			break;
		}
	}
	return &m->st;
}

const char *bc_monitor_event_name(int event)
{
	switch (event) {
	case ZMQ_EVENT_CONNECTED:
		return "CONNECTED";
	case ZMQ_EVENT_CONNECT_DELAYED:
		return "CONNECT_DELAYED";
	case ZMQ_EVENT_CONNECT_RETRIED:
		return "CONNECT_RETRIED";
	case ZMQ_EVENT_LISTENING:
		return "LISTENING";
	case ZMQ_EVENT_BIND_FAILED:
		return "BIND_FAILED";
	case ZMQ_EVENT_ACCEPTED:
		return "ACCEPTED";
	case ZMQ_EVENT_ACCEPT_FAILED:
		return "ACCEPT_FAILED";
	case ZMQ_EVENT_CLOSED:
		return "CLOSED";
	case ZMQ_EVENT_DISCONNECTED:
		return "DISCONNECTED";
	case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
		return "HANDSHAKE_FAILED_NO_DETAIL";
	case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
		return "HANDSHAKE_SUCCEEDED";
	case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
		return "HANDSHAKE_FAILED_PROTOCOL";
	case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
		return "HANDSHAKE_FAILED_AUTH";
	}
	return "EVENT";
}

const char *bc_monitor_protocol_error(uint32_t value)
{
	switch (value) {
	case ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC:
		return "cryptographic error (the keys do not match)";
	case ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH:
		return "security mechanism mismatch (one side is CURVE, the other plain text)";
	case ZMQ_PROTOCOL_ERROR_ZMTP_KEY_EXCHANGE:
		return "key exchange failed";
	case ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND:
	case ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE:
	case ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_UNSPECIFIED:
	case ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_MESSAGE:
	case ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO:
	case ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_INITIATE:
	case ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_ERROR:
	case ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_READY:
	case ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_WELCOME:
	case ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA:
		return "malformed ZMTP handshake (not a ZeroMQ peer, or a broken one)";
	case ZMQ_PROTOCOL_ERROR_ZAP_UNSPECIFIED:
	case ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY:
	case ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID:
	case ZMQ_PROTOCOL_ERROR_ZAP_BAD_VERSION:
	case ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE:
	case ZMQ_PROTOCOL_ERROR_ZAP_INVALID_METADATA:
		return "authentication handler error";
	}
	return "protocol error";
}
