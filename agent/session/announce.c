/*
 * session/announce.c - the plain-text key announcement socket (see session/announce.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/announce.h"
#include "util/curve.h"
#include "util/log.h"
#include "wire/proto.h"

/* a KEYSCAN is a header and "{}": anything larger is not one */
#define S_MAX_MSG 256

struct bc_announce {
	zsock_t *sock;
	cJSON *reply;
	char bound[256];
};

struct bc_announce *bc_announce_new(const char *ep, const char *public_key, const char *control_ep,
				    char *err, size_t errlen)
{
	struct bc_announce *a = calloc(1, sizeof(*a));
	char fp[BC_FINGERPRINT_LEN + 1] = "", host[256] = "";
	const char *b;

	if (!a || !(a->sock = zsock_new(ZMQ_ROUTER)) || !(a->reply = cJSON_CreateObject())) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	zsock_set_maxmsgsize(a->sock, S_MAX_MSG);
	zsock_set_sndtimeo(a->sock, 0);
	zsock_set_linger(a->sock, 0);
	if (zsock_bind(a->sock, "%s", ep) < 0) {
		snprintf(err, errlen, "cannot listen for keyscan on '%s': %s", ep,
			 zmq_strerror(zmq_errno()));
		goto fail;
	}
	b = zsock_endpoint(a->sock);
	snprintf(a->bound, sizeof(a->bound), "%s", b ? b : ep);
	bc_curve_fingerprint(public_key, fp);
	gethostname(host, sizeof(host) - 1);
	cJSON_AddStringToObject(a->reply, "public_key", public_key);
	cJSON_AddStringToObject(a->reply, "fingerprint", fp);
	cJSON_AddStringToObject(a->reply, "hostname", host);
	cJSON_AddStringToObject(a->reply, "version", BC_VERSION);
	cJSON_AddStringToObject(a->reply, "endpoint", control_ep);
	return a;
fail:
	bc_announce_destroy(&a);
	return NULL;
}

zsock_t *bc_announce_sock(struct bc_announce *a)
{
	return a ? a->sock : NULL;
}

const char *bc_announce_bound(const struct bc_announce *a)
{
	return a->bound;
}

void bc_announce_on_readable(struct bc_announce *a)
{
	struct bc_msg m;
	char err[128];
	int n;

	/* a bounded batch: a flood of requests cannot hold the control thread */
	for (n = 0; n < 64 && (zsock_events(a->sock) & ZMQ_POLLIN); n++) {
		int rc = bc_msg_recv(a->sock, true, &m, err, sizeof(err));

		if (rc == -EAGAIN || rc == -EINTR) {
			bc_msg_clear(&m);
			break;
		}
		if (m.id && !rc && m.type == BC_MSG_KEYSCAN)
			bc_msg_send_json(a->sock, m.id, BC_MSG_KEY, a->reply);
		else if (m.id)
			bc_msg_send_error(a->sock, m.id, "keyscan",
					  "this endpoint answers KEYSCAN only");
		bc_msg_clear(&m);
	}
}

void bc_announce_destroy(struct bc_announce **ap)
{
	struct bc_announce *a = *ap;

	if (!a)
		return;
	zsock_destroy(&a->sock);
	cJSON_Delete(a->reply);
	free(a);
	*ap = NULL;
}
