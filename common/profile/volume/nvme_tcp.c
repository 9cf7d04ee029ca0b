/*
 * profile/volume/nvme_tcp.c - the "nvme_tcp" volume key (see profile/volume/nvme_tcp.h). The
 * values end up in the kernel's /dev/nvme-fabrics options string, which is
 * split on ',' '\n' and '=' (drivers/nvme/host/fabrics.c): such characters,
 * and blanks, are refused here so a profile cannot smuggle in options.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile/value/keys.h"
#include "profile/volume/nvme_tcp.h"

static const char *const s_keys[] = {"traddr", "trsvcid",     "subnqn",	  "hostnqn", "nr_io_queues",
				     "nsid",   "passthrough", "discover", NULL};

static bool s_token_ok(const char *s)
{
	return *s && !strpbrk(s, ",\n= \t\r");
}

/* a string value that fits max (with its NUL) and is one fabrics token */
static int s_str(const cJSON *o, const char *base, const char *key, bool required, char *dst,
		 size_t max, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v) {
		if (!required)
			return 0;
		snprintf(err, errlen, "%s.nvme_tcp.%s: required", base, key);
		return -EINVAL;
	}
	if (!cJSON_IsString(v) || !s_token_ok(v->valuestring) || strlen(v->valuestring) >= max) {
		snprintf(err, errlen,
			 "%s.nvme_tcp.%s: expected a non-empty string of at most %zu characters "
			 "without ',', '=' or blanks",
			 base, key, max - 1);
		return -EINVAL;
	}
	snprintf(dst, max, "%s", v->valuestring);
	return 0;
}

static int s_uint(const cJSON *o, const char *base, const char *key, double lo, double hi,
		  double *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi ||
	    v->valuedouble != (double)(long long)v->valuedouble) {
		snprintf(err, errlen, "%s.nvme_tcp.%s: expected an integer %.0f..%.0f", base, key,
			 lo, hi);
		return -EINVAL;
	}
	*out = v->valuedouble;
	return 0;
}

static int s_bool(const cJSON *o, const char *base, const char *key, bool *out, char *err,
		  size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v)
		return 0;
	if (!cJSON_IsBool(v)) {
		snprintf(err, errlen, "%s.nvme_tcp.%s: expected true or false", base, key);
		return -EINVAL;
	}
	*out = cJSON_IsTrue(v);
	return 0;
}

int bc_nvme_tcp_vol_from_json(const cJSON *o, const char *base, struct bc_nvme_tcp_vol *v,
			      char *err, size_t errlen)
{
	const cJSON *svc;
	char path[160];
	double d;
	int rc;

	memset(v, 0, sizeof(*v));
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen,
			 "%s.nvme_tcp: expected an object {\"traddr\": ..., \"subnqn\": ...}",
			 base);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s.nvme_tcp", base);
	if (bc_keys_known(o, path, s_keys, err, errlen))
		return -EINVAL;
	rc = s_bool(o, base, "discover", &v->discover, err, errlen);
	if (!rc)
		rc = s_bool(o, base, "passthrough", &v->passthrough, err, errlen);
	if (!rc)
		rc = s_str(o, base, "traddr", true, v->traddr, sizeof(v->traddr), err, errlen);
	if (!rc)
		rc = s_str(o, base, "subnqn", true, v->subnqn, sizeof(v->subnqn), err, errlen);
	if (!rc && !strcmp(v->subnqn, BC_NVME_DISC_NQN)) {
		snprintf(err, errlen,
			 "%s.nvme_tcp.subnqn: the discovery NQN holds no namespaces; name the "
			 "subsystem and set \"discover\": true",
			 base);
		rc = -EINVAL;
	}
	if (!rc)
		rc = s_str(o, base, "hostnqn", false, v->hostnqn, sizeof(v->hostnqn), err, errlen);
	if (rc)
		return rc;
	/* a port: "4420" or 4420 */
	svc = cJSON_GetObjectItemCaseSensitive(o, "trsvcid");
	if (cJSON_IsNumber(svc)) {
		d = 0;
		rc = s_uint(o, base, "trsvcid", 1, 65535, &d, err, errlen);
		if (rc)
			return rc;
		snprintf(v->trsvcid, sizeof(v->trsvcid), "%.0f", d);
	} else if (svc) {
		rc = s_str(o, base, "trsvcid", true, v->trsvcid, sizeof(v->trsvcid), err, errlen);
		if (rc)
			return rc;
	} else {
		/* the kernel's tcp default is 8009 (discovery): I/O controllers listen on 4420 */
		snprintf(v->trsvcid, sizeof(v->trsvcid), "%s", v->discover ? "8009" : "4420");
	}
	d = 0;
	rc = s_uint(o, base, "nr_io_queues", 1, 1024, &d, err, errlen);
	v->nr_io_queues = (int)d;
	d = 0;
	/* 0 and FFFFFFFFh are not namespace IDs (NVMe 2.0 §3.2.1.2) */
	if (!rc)
		rc = s_uint(o, base, "nsid", 1, 4294967294.0, &d, err, errlen);
	if (rc)
		return rc;
	v->nsid = (uint32_t)d;
	v->set = true;
	return 0;
}

cJSON *bc_nvme_tcp_vol_to_json(const struct bc_nvme_tcp_vol *v)
{
	cJSON *o;

	if (!v->set)
		return NULL;
	o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "traddr", v->traddr);
	cJSON_AddStringToObject(o, "trsvcid", v->trsvcid);
	cJSON_AddStringToObject(o, "subnqn", v->subnqn);
	if (v->hostnqn[0])
		cJSON_AddStringToObject(o, "hostnqn", v->hostnqn);
	if (v->nr_io_queues)
		cJSON_AddNumberToObject(o, "nr_io_queues", v->nr_io_queues);
	if (v->nsid)
		cJSON_AddNumberToObject(o, "nsid", v->nsid);
	if (v->passthrough)
		cJSON_AddBoolToObject(o, "passthrough", true);
	if (v->discover)
		cJSON_AddBoolToObject(o, "discover", true);
	return o;
}

const char *bc_nvme_tcp_vol_label(const struct bc_nvme_tcp_vol *v, char *buf, size_t len)
{
	bool v6 = strchr(v->traddr, ':') != NULL;
	int n;

	n = snprintf(buf, len, BC_NVME_TCP_LABEL_PREFIX "%s%s%s:%s/%s", v6 ? "[" : "", v->traddr,
		     v6 ? "]" : "", v->trsvcid, v->subnqn);
	if (n >= 0 && (size_t)n < len && v->nsid)
		snprintf(buf + n, len - (size_t)n, "/ns%u", v->nsid);
	return buf;
}

int bc_nvme_addr_field(const char *address, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key), n;
	const char *p = address;

	while (p && *p) {
		while (*p == ',' || *p == ' ')
			p++;
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			p += klen + 1;
			n = strcspn(p, ",\n ");
			if (n >= len)
				return -ENAMETOOLONG;
			memcpy(out, p, n);
			out[n] = '\0';
			return 0;
		}
		p = strchr(p, ',');
	}
	return -ENOENT;
}
