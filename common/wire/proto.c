/*
 * wire/proto.c - framing of protocol messages (see wire/proto.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"
#include "wire/proto.h"

static const char *const s_names[BC_MSG_NR] = {
    [BC_MSG_UNKNOWN] = "UNKNOWN",
    [BC_MSG_HELLO] = "HELLO",
    [BC_MSG_HELLO_OK] = "HELLO_OK",
    [BC_MSG_BUSY] = "BUSY",
    [BC_MSG_ERROR] = "ERROR",
    [BC_MSG_TIME] = "TIME",
    [BC_MSG_PREPARE] = "PREPARE",
    [BC_MSG_READY] = "READY",
    [BC_MSG_START] = "START",
    [BC_MSG_STATS] = "STATS",
    [BC_MSG_STEP_DONE] = "STEP_DONE",
    [BC_MSG_HEARTBEAT] = "HEARTBEAT",
    [BC_MSG_ABORT] = "ABORT",
    [BC_MSG_BYE] = "BYE",
    [BC_MSG_HOST] = "HOST",
    [BC_MSG_DISCOVER] = "DISCOVER",
    [BC_MSG_DISCOVERY_LOG] = "DISCOVERY_LOG",
    [BC_MSG_CHECK] = "CHECK",
    [BC_MSG_CHECKED] = "CHECKED",
    [BC_MSG_KEYSCAN] = "KEYSCAN",
    [BC_MSG_KEY] = "KEY",
    [BC_MSG_STOP] = "STOP",
    [BC_MSG_PROGRESS] = "PROGRESS",
    [BC_MSG_REATTACH] = "REATTACH",
};

const char *bc_msg_name(enum bc_msg_type t)
{
	return (t > 0 && t < BC_MSG_NR) ? s_names[t] : "UNKNOWN";
}

static enum bc_msg_type s_lookup(const char *name, size_t len)
{
	int t;

	for (t = 1; t < BC_MSG_NR; t++)
		if (strlen(s_names[t]) == len && !memcmp(s_names[t], name, len))
			return (enum bc_msg_type)t;
	return BC_MSG_UNKNOWN;
}

int bc_msg_send_raw(zsock_t *s, zframe_t *id, int version, const char *type, const void *body,
		    size_t len)
{
	size_t tlen = strlen(type);
	zmsg_t *m = zmsg_new();
	char hdr[64];
	int rc = -ENOMEM;

	if (!m || tlen + 3 > sizeof(hdr))
		goto out;
	hdr[0] = 'B';
	hdr[1] = 'C';
	hdr[2] = (char)version;
	memcpy(hdr + 3, type, tlen);
	if (id) {
		zframe_t *idc = zframe_dup(id);

		if (zmsg_append(m, &idc))
			goto out;
	}
	if (zmsg_addmem(m, hdr, tlen + 3) || zmsg_addmem(m, body, len))
		goto out;
	rc = zmsg_send(&m, s) ? -EIO : 0;
out:
	zmsg_destroy(&m);
	return rc;
}

int bc_msg_send_bin(zsock_t *s, zframe_t *id, enum bc_msg_type t, const void *body, size_t len)
{
	return bc_msg_send_raw(s, id, BC_PROTO_VERSION, bc_msg_name(t), body, len);
}

int bc_msg_send_json(zsock_t *s, zframe_t *id, enum bc_msg_type t, const cJSON *body)
{
	char *text = body ? bc_json_print(body, false) : NULL;
	int rc;

	if (body && !text)
		return -ENOMEM;
	rc = bc_msg_send_bin(s, id, t, text ? text : "{}", text ? strlen(text) : 2);
	cJSON_free(text);
	return rc;
}

int bc_msg_send_error(zsock_t *s, zframe_t *id, const char *code, const char *fmt, ...)
{
	cJSON *j = cJSON_CreateObject();
	char buf[1024];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!j)
		return -ENOMEM;
	cJSON_AddStringToObject(j, "code", code);
	cJSON_AddStringToObject(j, "message", buf);
	rc = bc_msg_send_json(s, id, BC_MSG_ERROR, j);
	cJSON_Delete(j);
	return rc;
}

bool bc_msg_is_error(const struct bc_msg *m, const char *code)
{
	const char *c;

	if (m->type != BC_MSG_ERROR)
		return false;
	c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m->json, "code"));
	return c && !strcmp(c, code);
}

void bc_msg_clear(struct bc_msg *m)
{
	zframe_destroy(&m->id);
	cJSON_Delete(m->json);
	zmsg_destroy(&m->raw);
	memset(m, 0, sizeof(*m));
}

int bc_msg_recv(zsock_t *s, bool router, struct bc_msg *m, char *err, size_t errlen)
{
	zmsg_t *raw = zmsg_recv(s);

	if (!raw) {
		memset(m, 0, sizeof(*m));
		return zsys_interrupted ? -EINTR : -EAGAIN;
	}
	return bc_msg_parse(&raw, router, m, err, errlen);
}

int bc_msg_parse(zmsg_t **raw, bool router, struct bc_msg *m, char *err, size_t errlen)
{
	zframe_t *hdr, *body;
	const char *h;
	size_t hl;
	int rc = -EBADMSG;

	memset(m, 0, sizeof(*m));
	m->raw = *raw;
	*raw = NULL;
	if (router)
		m->id = zmsg_pop(m->raw);
	hdr = zmsg_first(m->raw);
	body = zmsg_next(m->raw);
	if (!hdr || !body || zmsg_size(m->raw) != 2 || (router && !m->id)) {
		snprintf(err, errlen, "malformed message: %zu frames", zmsg_size(m->raw));
		goto out;
	}
	h = (const char *)zframe_data(hdr);
	hl = zframe_size(hdr);
	if (hl < 4 || h[0] != 'B' || h[1] != 'C') {
		snprintf(err, errlen, "not a bench-coord protocol message");
		goto out;
	}
	m->version = (unsigned char)h[2];
	m->type = s_lookup(h + 3, hl - 3);
	m->bin = zframe_data(body);
	m->bin_len = zframe_size(body);
	if (m->version != BC_PROTO_VERSION) {
		snprintf(err, errlen, "peer speaks protocol version %d, this build speaks %d",
			 m->version, BC_PROTO_VERSION);
		if (m->type == BC_MSG_ERROR)
			m->json = bc_json_parse((const char *)m->bin, m->bin_len);
		return -EPROTO;
	}
	if (m->type == BC_MSG_UNKNOWN) {
		snprintf(err, errlen, "unknown message type '%.*s'",
			 (int)(hl - 3 > 32 ? 32 : hl - 3), h + 3);
		goto out;
	}
	if (m->type != BC_MSG_STATS) {
		char where[128];

		m->json = bc_json_parse((const char *)m->bin, m->bin_len);
		if (!cJSON_IsObject(m->json)) {
			snprintf(err, errlen, "%s: body is not a JSON object",
				 bc_msg_name(m->type));
			goto out;
		}
		/* cJSON reads "a\u0000b" as "a": a path must never be cut silently */
		if (bc_json_nul_path(m->json, (const char *)m->bin, m->bin_len, where,
				     sizeof(where))) {
			snprintf(err, errlen, "%s: %s holds a NUL character (\\u0000); refused",
				 bc_msg_name(m->type), where[0] ? where : "a string");
			goto out;
		}
	}
	rc = 0;
out:
	return rc;
}
