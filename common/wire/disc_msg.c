/*
 * wire/disc_msg.c - DISCOVER / DISCOVERY_LOG bodies (see wire/disc_msg.h). The
 * names are nvme-cli's (nvme discover's "trtype: tcp", "adrfam: ipv4",
 * "subtype: nvme subsystem" shortened to one word).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/disc_msg.h"

struct s_code {
	unsigned v;
	const char *name;
};

/* NVMe-oF 1.1 Figure 38 (TRTYPE, ADRFAM, SUBTYPE) */
static const struct s_code s_trtypes[] = {
    {1, "rdma"}, {2, "fc"}, {3, "tcp"}, {254, "loop"}, {0, NULL}};
static const struct s_code s_adrfams[] = {{1, "ipv4"}, {2, "ipv6"},   {3, "ib"},
					  {4, "fc"},   {254, "loop"}, {0, NULL}};
static const struct s_code s_subtypes[] = {
    {1, "referral"}, {2, "nvme"}, {3, "discovery"}, {0, NULL}};

static const char *s_name(const struct s_code *t, unsigned v, char *buf, size_t len)
{
	for (; t->name; t++)
		if (t->v == v) {
			snprintf(buf, len, "%s", t->name);
			return buf;
		}
	snprintf(buf, len, "%u", v);
	return buf;
}

/* a name from t or a decimal number 0..255: 0 or -EINVAL */
static int s_code(const struct s_code *t, const char *s, unsigned *v)
{
	char *end;
	unsigned long n;

	for (; t->name; t++)
		if (!strcmp(t->name, s)) {
			*v = t->v;
			return 0;
		}
	n = strtoul(s, &end, 10);
	if (!*s || *end || n > 255)
		return -EINVAL;
	*v = (unsigned)n;
	return 0;
}

const char *bc_disc_trtype_name(unsigned v, char *buf, size_t len)
{
	return s_name(s_trtypes, v, buf, len);
}

const char *bc_disc_adrfam_name(unsigned v, char *buf, size_t len)
{
	return s_name(s_adrfams, v, buf, len);
}

const char *bc_disc_subtype_name(unsigned v, char *buf, size_t len)
{
	return s_name(s_subtypes, v, buf, len);
}

/* the kernel splits options on ',' and '\n' and values on '=' (as nvme_tcp.c) */
static bool s_value_ok(const char *v)
{
	return v && *v && !strpbrk(v, ",\n= \t");
}

cJSON *bc_disc_req_to_json(const struct bc_disc_req *r)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "traddr", r->traddr);
	cJSON_AddStringToObject(o, "trsvcid", r->trsvcid[0] ? r->trsvcid : "8009");
	if (r->hostnqn[0])
		cJSON_AddStringToObject(o, "hostnqn", r->hostnqn);
	return o;
}

/* string key k of o into out (len): 0, 1 absent, -EINVAL with err */
static int s_str(const cJSON *o, const char *k, char *out, size_t len, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!v)
		return 1;
	if (cJSON_IsNumber(v) && !strcmp(k, "trsvcid") && v->valuedouble >= 1 &&
	    v->valuedouble <= 65535 && v->valuedouble == (int)v->valuedouble) {
		snprintf(out, len, "%d", (int)v->valuedouble);
		return 0;
	}
	if (!cJSON_IsString(v)) {
		snprintf(err, errlen, "%s: expected a string", k);
		return -EINVAL;
	}
	if (strlen(v->valuestring) >= len) {
		snprintf(err, errlen, "%s: longer than %zu characters", k, len - 1);
		return -EINVAL;
	}
	snprintf(out, len, "%s", v->valuestring);
	return 0;
}

int bc_disc_req_from_json(const cJSON *o, struct bc_disc_req *r, char *err, size_t errlen)
{
	int ret;

	memset(r, 0, sizeof(*r));
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "expected an object");
		return -EINVAL;
	}
	ret = s_str(o, "traddr", r->traddr, sizeof(r->traddr), err, errlen);
	if (ret > 0)
		snprintf(err, errlen, "traddr: required");
	if (ret)
		return -EINVAL;
	ret = s_str(o, "trsvcid", r->trsvcid, sizeof(r->trsvcid), err, errlen);
	if (ret < 0)
		return ret;
	if (ret > 0)
		snprintf(r->trsvcid, sizeof(r->trsvcid), "8009");
	ret = s_str(o, "hostnqn", r->hostnqn, sizeof(r->hostnqn), err, errlen);
	if (ret < 0)
		return ret;
	if (!s_value_ok(r->traddr) || !s_value_ok(r->trsvcid) ||
	    (r->hostnqn[0] && !s_value_ok(r->hostnqn))) {
		snprintf(err, errlen,
			 "traddr, trsvcid and hostnqn may not hold ',', '=' or blanks");
		return -EINVAL;
	}
	return 0;
}

cJSON *bc_disc_rec_to_json(const struct bc_disc_rec *e)
{
	cJSON *o = cJSON_CreateObject();
	char b[16];

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "trtype", bc_disc_trtype_name(e->trtype, b, sizeof(b)));
	cJSON_AddStringToObject(o, "adrfam", bc_disc_adrfam_name(e->adrfam, b, sizeof(b)));
	cJSON_AddStringToObject(o, "traddr", e->traddr);
	cJSON_AddStringToObject(o, "trsvcid", e->trsvcid);
	cJSON_AddStringToObject(o, "subnqn", e->subnqn);
	cJSON_AddStringToObject(o, "subtype", bc_disc_subtype_name(e->subtype, b, sizeof(b)));
	cJSON_AddNumberToObject(o, "portid", e->portid);
	return o;
}

int bc_disc_rec_from_json(const cJSON *o, struct bc_disc_rec *e, char *err, size_t errlen)
{
	static const struct {
		const char *k;
		const struct s_code *t;
		size_t off;
	} codes[] = {{"trtype", s_trtypes, offsetof(struct bc_disc_rec, trtype)},
		     {"adrfam", s_adrfams, offsetof(struct bc_disc_rec, adrfam)},
		     {"subtype", s_subtypes, offsetof(struct bc_disc_rec, subtype)}};
	const cJSON *v;
	char code[16];
	size_t i;

	memset(e, 0, sizeof(*e));
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "entry: expected an object");
		return -EINVAL;
	}
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		if (s_str(o, codes[i].k, code, sizeof(code), err, errlen) ||
		    s_code(codes[i].t, code, (unsigned *)((char *)e + codes[i].off))) {
			snprintf(err, errlen, "entry: %s: expected a name or a number 0..255",
				 codes[i].k);
			return -EINVAL;
		}
	}
	if (s_str(o, "traddr", e->traddr, sizeof(e->traddr), err, errlen) ||
	    s_str(o, "trsvcid", e->trsvcid, sizeof(e->trsvcid), err, errlen) ||
	    s_str(o, "subnqn", e->subnqn, sizeof(e->subnqn), err, errlen)) {
		snprintf(err, errlen, "entry: traddr, trsvcid and subnqn: required strings");
		return -EINVAL;
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "portid");
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 65535)
		e->portid = (unsigned)v->valuedouble;
	return 0;
}
