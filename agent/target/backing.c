/*
 * backing.c - what backs a volume's window (see target/backing.h): FIEMAP for
 * files and loop devices' backing files, Identify Namespace for NVMe,
 * queue/discard_max_bytes for other block devices.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "target/backing.h"
#include "target/extents.h"
#include "nvme/ident.h"

static double s_pct(uint64_t part, uint64_t whole)
{
	return whole ? round(1000.0 * (double)part / (double)whole) / 10 : 0;
}

static void s_extscan_json(cJSON *o, const struct bc_extscan *x)
{
	cJSON_AddNumberToObject(o, "window_bytes", (double)x->len);
	cJSON_AddNumberToObject(o, "unbacked_bytes", (double)bc_extscan_unbacked(x));
	cJSON_AddNumberToObject(o, "unwritten_bytes", (double)x->unwritten);
	cJSON_AddNumberToObject(o, "hole_bytes", (double)x->holes);
	cJSON_AddNumberToObject(o, "unbacked_pct", s_pct(bc_extscan_unbacked(x), x->len));
}

cJSON *bc_backing_file_json(const char *path, uint64_t start, uint64_t end)
{
	struct bc_extscan x;
	cJSON *o;

	if (bc_extents_scan_path(path, start, end > start ? end - start : 0, &x))
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "file");
	if (!x.method) {
		cJSON_AddNullToObject(o, "checked");
		cJSON_AddStringToObject(o, "detail",
					"the filesystem answers neither FIEMAP nor SEEK_HOLE: "
					"unwritten extents and holes cannot be found");
		return o;
	}
	cJSON_AddStringToObject(o, "checked", x.method);
	s_extscan_json(o, &x);
	return o;
}

/* root/rel's first line into buf; 0 or -1 */
static int s_line(const char *root, const char *rel, char *buf, size_t len)
{
	char p[1024];
	FILE *f;
	bool ok;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "re");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[ok ? strcspn(buf, "\n") : 0] = 0;
	return ok ? 0 : -1;
}

/* a loop device: its backing file's extents over the window, shifted by the loop's offset */
static int s_loop(const char *root, const char *sys, uint64_t start, uint64_t end, cJSON *o)
{
	char rel[512], back[512], offs[32] = "0", detail[768];
	unsigned long long loff = 0;
	struct bc_extscan x;
	char *del;

	snprintf(rel, sizeof(rel), "%s/loop/backing_file", sys);
	if (s_line(root, rel, back, sizeof(back)) || !back[0])
		return -ENOENT;
	del = strstr(back, " (deleted)");
	if (del)
		*del = 0;
	snprintf(rel, sizeof(rel), "%s/loop/offset", sys);
	if (!s_line(root, rel, offs, sizeof(offs)))
		sscanf(offs, "%llu", &loff);
	if (bc_extents_scan_path(back, loff + start, end - start, &x) || !x.method) {
		snprintf(detail, sizeof(detail),
			 "a loop device over %s, whose extents cannot be read: nothing known",
			 back);
		cJSON_AddNullToObject(o, "checked");
		cJSON_AddStringToObject(o, "detail", detail);
		cJSON_AddNullToObject(o, "dealloc");
		return 0;
	}
	snprintf(detail, sizeof(detail),
		 "a loop device over %s: %s of its backing file over the window", back, x.method);
	cJSON_AddStringToObject(o, "checked", x.method);
	cJSON_AddStringToObject(o, "detail", detail);
	cJSON_AddStringToObject(o, "backing_file", back);
	s_extscan_json(o, &x);
	cJSON_AddBoolToObject(o, "dealloc", bc_extscan_unbacked(&x) > 0);
	return 0;
}

/* an NVMe namespace: DLFEAT says what a deallocated block reads as, NUSE how many are */
static int s_nvme(const char *path, cJSON *o)
{
	static const char *const reads[] = {"unspecified", "all zeroes", "all FFh", "unspecified"};
	struct bc_nvme_ident id;
	char detail[512];
	bool thin, dealloc;

	memset(&id, 0, sizeof(id));
	if (bc_nvme_ident_ioctl(path, &id))
		return -ENODEV;
	thin = id.nsfeat & 1;
	/* DLFEAT 2:0 non-zero: the namespace defines deallocated reads, so it deallocates */
	dealloc = (id.dlfeat & 7) || (thin && id.nuse < id.nsze);
	snprintf(detail, sizeof(detail),
		 "Identify Namespace: DLFEAT 0x%02x (a deallocated block reads as %s%s), "
		 "thin provisioning %s, NUSE %llu of NSZE %llu blocks allocated",
		 id.dlfeat, reads[(id.dlfeat & 7) < 3 ? id.dlfeat & 7 : 3],
		 id.dlfeat & 8 ? "; Write Zeroes may deallocate" : "", thin ? "yes" : "no",
		 (unsigned long long)id.nuse, (unsigned long long)id.nsze);
	cJSON_AddStringToObject(o, "checked", "Identify Namespace");
	cJSON_AddStringToObject(o, "detail", detail);
	cJSON_AddNumberToObject(o, "dlfeat", id.dlfeat);
	if (thin && id.nsze)
		cJSON_AddNumberToObject(
		    o, "namespace_unallocated_pct",
		    s_pct(id.nsze - (id.nuse < id.nsze ? id.nuse : id.nsze), id.nsze));
	cJSON_AddBoolToObject(o, "dealloc", dealloc);
	return 0;
}

cJSON *bc_backing_block_json(const char *root, const char *path, uint64_t start, uint64_t end)
{
	char sys[128], rel[256], v[64];
	unsigned long long dmax = 0;
	cJSON *o;
	struct stat st;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "block");
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!s_loop(root, sys, start, end, o))
		return o;
	if (!root[0] && !s_nvme(path, o))
		return o;
	/* a partition's queue is its disk's */
	snprintf(rel, sizeof(rel), "%s/queue/discard_max_bytes", sys);
	if (s_line(root, rel, v, sizeof(v))) {
		snprintf(rel, sizeof(rel), "%s/../queue/discard_max_bytes", sys);
		if (s_line(root, rel, v, sizeof(v))) {
			cJSON_AddNullToObject(o, "checked");
			cJSON_AddStringToObject(o, "detail", "no queue/discard_max_bytes in sysfs");
			cJSON_AddNullToObject(o, "dealloc");
			return o;
		}
	}
	sscanf(v, "%llu", &dmax);
	cJSON_AddStringToObject(o, "checked", "queue/discard_max_bytes");
	cJSON_AddStringToObject(o, "detail",
				dmax ? "the device takes discards, so blocks never written or "
				       "discarded may be deallocated; which ones it does not say"
				     : "the device takes no discards");
	cJSON_AddBoolToObject(o, "dealloc", dmax > 0);
	return o;
}
