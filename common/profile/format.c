/*
 * profile/format.c - a step's "format" (profile/format.h): checked with JSON
 * paths in the profile, written into PREPARE, read back by the agent.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile/format.h"

static const char *const s_keys[] = {"lba_bytes", "index", NULL};

int bc_nvme_partition_ns(const char *path, char *ns, size_t len, unsigned *part)
{
	const char *base = strrchr(path, '/');
	unsigned x, y, z;
	int n = -1;

	snprintf(ns, len, "%s", path);
	base = base ? base + 1 : path;
	if (sscanf(base, "nvme%un%up%u%n", &x, &y, &z, &n) != 3 || n < 0 || base[n] || !z)
		return -ENODEV;
	snprintf(ns, len, "%.*snvme%un%u", (int)(base - path), path, x, y);
	*part = z;
	return 0;
}

int bc_check_format(struct bc_check *c, const cJSON *o, const char *path, struct bc_format_spec *f)
{
	char p[BC_CHECK_PATH_LEN];
	const cJSON *lba, *idx;
	double v;
	int ret;

	memset(f, 0, sizeof(*f));
	f->index = -1;
	ret = bc_check_object(c, path, o);
	if (!ret)
		ret = bc_check_keys(c, o, path, s_keys);
	if (ret)
		return ret;
	lba = cJSON_GetObjectItemCaseSensitive(o, "lba_bytes");
	idx = cJSON_GetObjectItemCaseSensitive(o, "index");
	if (!lba == !idx)
		return bc_check_fail(c, path,
				     "expected exactly one of \"lba_bytes\" (512, 4096...) or "
				     "\"index\" (the LBA format's number in nvme id-ns -H)");
	if (lba) {
		bc_check_path(p, path, "lba_bytes");
		ret = bc_check_int(c, p, lba, 512, 65536, &v);
		if (ret)
			return ret;
		if (((unsigned)v & ((unsigned)v - 1)) != 0)
			return bc_check_fail(c, p,
					     "expected a power of two (512, 4096...), got %.0f", v);
		f->lba_bytes = (uint32_t)v;
	} else {
		bc_check_path(p, path, "index");
		ret = bc_check_int(c, p, idx, 0, 63, &v);
		if (ret)
			return ret;
		f->index = (int)v;
	}
	f->set = true;
	return 0;
}

cJSON *bc_format_spec_to_json(const struct bc_format_spec *f)
{
	cJSON *o;

	if (!f->set)
		return NULL;
	o = cJSON_CreateObject();
	if (f->index >= 0)
		cJSON_AddNumberToObject(o, "index", f->index);
	else
		cJSON_AddNumberToObject(o, "lba_bytes", f->lba_bytes);
	return o;
}

int bc_format_spec_from_json(const cJSON *o, struct bc_format_spec *f, char *err, size_t errlen)
{
	struct bc_check c = {.err = err, .errlen = errlen, .strict = true};

	return bc_check_format(&c, o, "format", f);
}
