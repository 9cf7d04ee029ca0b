/*
 * nvme/ident.c - who an NVMe namespace is (see nvme/ident.h). sysfs first
 * (/sys/class/nvme/nvmeX/{model,serial,firmware_rev,transport,address,
 * subsysnqn}, /sys/block/nvmeXnY/{size,nsid,queue/{logical,physical}_block_size}; libnvme
 * sysfs.c reads the same attributes), then Identify over the admin ioctl,
 * which also lists the LBA formats. A root prefix lets tests run against a
 * fixture tree (tests/data/sysfs-nvme/).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "nvme/ident.h"
#include "nvme/nvme.h"

bool bc_nvme_name_parse(const char *path, unsigned *ctrl, unsigned *ns, bool *generic)
{
	const char *base = strrchr(path, '/');
	unsigned x, y;
	int n = -1;

	base = base ? base + 1 : path;
	*generic = !strncmp(base, "ng", 2);
	if (*generic)
		sscanf(base, "ng%un%u%n", &x, &y, &n);
	else
		sscanf(base, "nvme%un%u%n", &x, &y, &n);
	/* "nvme0n1p2" (partition) and "nvme0c1n1" (multipath path) end elsewhere */
	if (n < 0 || base[n] != '\0')
		return false;
	*ctrl = x;
	*ns = y;
	return true;
}

int bc_nvme_sysfs_line(const char *root, const char *path, char *buf, size_t len)
{
	char p[PATH_MAX];
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, path);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		buf[0] = '\0';
		return -EIO;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int s_read_u64(const char *root, const char *path, uint64_t *v)
{
	char buf[64], *end;
	int ret = bc_nvme_sysfs_line(root, path, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || end == buf ? -EINVAL : 0;
}

int bc_nvme_ident_sysfs(const char *root, const char *path, struct bc_nvme_ident *id)
{
	char p[256], v[64];
	uint64_t u;
	bool generic;
	int ret;

	memset(id, 0, sizeof(*id));
	id->numa_node = -1;
	id->fmt = -1;
	if (!bc_nvme_name_parse(path, &id->ctrl_instance, &id->ns_index, &generic))
		return -ENODEV;
	snprintf(id->block, sizeof(id->block), "nvme%un%u", id->ctrl_instance, id->ns_index);

	/* the namespace: size in 512-byte sectors whatever the LBA size (sysfs-block ABI) */
	snprintf(p, sizeof(p), "/sys/block/%s/size", id->block);
	ret = s_read_u64(root, p, &u);
	if (ret)
		return ret == -ENOENT ? -ENOENT : ret;
	id->size_bytes = u * 512;
	snprintf(p, sizeof(p), "/sys/block/%s/nsid", id->block);
	if (!s_read_u64(root, p, &u))
		id->nsid = (uint32_t)u;
	snprintf(p, sizeof(p), "/sys/block/%s/queue/logical_block_size", id->block);
	if (!s_read_u64(root, p, &u))
		id->lba_bytes = (uint32_t)u;
	snprintf(p, sizeof(p), "/sys/block/%s/queue/physical_block_size", id->block);
	if (!s_read_u64(root, p, &u))
		id->pbs = (uint32_t)u;

	/*
	 * The controller. With native multipath the X in nvmeXnY is the
	 * subsystem's instance, which need not be controller X: then the
	 * namespace's device link (to the subsystem, which has model, serial
	 * and firmware too) is the better source and transport stays unknown.
	 */
	snprintf(p, sizeof(p), "/sys/class/nvme/nvme%u/model", id->ctrl_instance);
	if (bc_nvme_sysfs_line(root, p, id->model, sizeof(id->model))) {
		snprintf(p, sizeof(p), "/sys/block/%s/device/model", id->block);
		bc_nvme_sysfs_line(root, p, id->model, sizeof(id->model));
		snprintf(p, sizeof(p), "/sys/block/%s/device/serial", id->block);
		bc_nvme_sysfs_line(root, p, id->serial, sizeof(id->serial));
		snprintf(p, sizeof(p), "/sys/block/%s/device/firmware_rev", id->block);
		bc_nvme_sysfs_line(root, p, id->firmware, sizeof(id->firmware));
		return 0;
	}
	snprintf(p, sizeof(p), "/sys/class/nvme/nvme%u/serial", id->ctrl_instance);
	bc_nvme_sysfs_line(root, p, id->serial, sizeof(id->serial));
	snprintf(p, sizeof(p), "/sys/class/nvme/nvme%u/firmware_rev", id->ctrl_instance);
	bc_nvme_sysfs_line(root, p, id->firmware, sizeof(id->firmware));
	snprintf(p, sizeof(p), "/sys/class/nvme/nvme%u/transport", id->ctrl_instance);
	bc_nvme_sysfs_line(root, p, id->transport, sizeof(id->transport));
	snprintf(p, sizeof(p), "/sys/class/nvme/nvme%u/address", id->ctrl_instance);
	bc_nvme_sysfs_line(root, p, id->address, sizeof(id->address));
	snprintf(p, sizeof(p), "/sys/class/nvme/nvme%u/subsysnqn", id->ctrl_instance);
	bc_nvme_sysfs_line(root, p, id->subsysnqn, sizeof(id->subsysnqn));
	/* PCIe: the PCI function's node; fabrics controllers have no device link */
	snprintf(p, sizeof(p), "/sys/class/nvme/nvme%u/device/numa_node", id->ctrl_instance);
	if (!bc_nvme_sysfs_line(root, p, v, sizeof(v)))
		id->numa_node = atoi(v);
	return 0;
}

static int s_admin(int fd, struct nvme_passthru_cmd *c)
{
	int ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, c);

	if (ret < 0)
		return -errno;
	return ret > 0 ? -EIO : 0; /* an NVMe status */
}

int bc_nvme_ident_ioctl(const char *path, struct bc_nvme_ident *id)
{
	struct nvme_passthru_cmd c;
	struct bc_nvme_id_ctrl ctrl;
	struct bc_nvme_id_ns ns;
	void *buf = NULL;
	int fd, ret, nsid, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0) {
		ret = nsid < 0 ? -errno : -ENODEV;
		goto out;
	}
	if (posix_memalign(&buf, 4096, BC_NVME_IDENTIFY_BYTES)) {
		ret = -ENOMEM;
		goto out;
	}
	memset(buf, 0, BC_NVME_IDENTIFY_BYTES);
	bc_nvme_identify(&c, BC_NVME_CNS_NS, (uint32_t)nsid, buf);
	ret = s_admin(fd, &c);
	if (!ret)
		ret = bc_nvme_parse_id_ns(buf, BC_NVME_IDENTIFY_BYTES, &ns);
	if (ret)
		goto out;
	memset(buf, 0, BC_NVME_IDENTIFY_BYTES);
	bc_nvme_identify(&c, BC_NVME_CNS_CTRL, 0, buf);
	ret = s_admin(fd, &c);
	if (!ret)
		ret = bc_nvme_parse_id_ctrl(buf, BC_NVME_IDENTIFY_BYTES, &ctrl);
	if (ret)
		goto out;
	id->nsid = (uint32_t)nsid;
	id->size_bytes = ns.nsze * ns.lba_bytes;
	id->lba_bytes = ns.lba_bytes;
	id->ms = ns.ms;
	id->extended = ns.extended;
	id->endgid = ns.endgid;
	id->dlfeat = ns.dlfeat;
	id->nsfeat = ns.nsfeat;
	id->nsze = ns.nsze;
	id->nuse = ns.nuse;
	id->fmt = ns.fmt;
	id->nformats = 0;
	for (i = 0; i < ns.nlbaf && i < BC_NVME_IDENT_FORMATS; i++) {
		if (ns.lbaf[i].lbads < 9 || ns.lbaf[i].lbads > 31)
			continue; /* not available */
		id->formats[id->nformats].lba_bytes = 1u << ns.lbaf[i].lbads;
		id->formats[id->nformats].ms = ns.lbaf[i].ms;
		id->formats[id->nformats].rp = ns.lbaf[i].rp;
		id->formats[id->nformats].index = (uint8_t)i;
		id->nformats++;
	}
	snprintf(id->model, sizeof(id->model), "%s", ctrl.mn);
	snprintf(id->serial, sizeof(id->serial), "%s", ctrl.sn);
	snprintf(id->firmware, sizeof(id->firmware), "%s", ctrl.fr);
	if (ctrl.subnqn[0])
		snprintf(id->subsysnqn, sizeof(id->subsysnqn), "%s", ctrl.subnqn);
	id->fdps = ctrl.fdps;
	id->from_identify = true;
out:
	free(buf);
	close(fd);
	return ret;
}

struct bc_nvme_fdp_ident bc_nvme_ident_fdp(const struct bc_nvme_ident *id, int err)
{
	struct bc_nvme_fdp_ident f = {.err = err};

	if (!err) {
		f.fdps = id->fdps;
		f.endgid = id->endgid;
		f.nsid = id->nsid;
	}
	return f;
}

/* where a partition lies in its namespace (sysfs start and size, 512-byte sectors) */
static void s_partition(const char *root, const char *path, unsigned part, struct bc_nvme_ident *id)
{
	const char *base = strrchr(path, '/');
	char p[128];
	uint64_t u;

	base = base ? base + 1 : path;
	id->part = part;
	snprintf(id->part_name, sizeof(id->part_name), "%s", base);
	snprintf(p, sizeof(p), "/sys/class/block/%s/start", id->part_name);
	if (!s_read_u64(root, p, &u))
		id->part_start = u * 512;
	snprintf(p, sizeof(p), "/sys/class/block/%s/size", id->part_name);
	if (!s_read_u64(root, p, &u))
		id->part_size = u * 512;
}

int bc_nvme_ident(const char *path, struct bc_nvme_ident *id)
{
	struct bc_nvme_fdp_ident fi;
	char ns[256];
	unsigned part = 0;
	int ret;

	/* a partition: its namespace's identity (the admin commands go to the namespace) */
	if (!bc_nvme_partition_ns(path, ns, sizeof(ns), &part)) {
		ret = bc_nvme_ident(ns, id);
		if (!ret)
			s_partition("", path, part, id);
		return ret;
	}
	ret = bc_nvme_ident_sysfs("", path, id);

	if (ret == -ENODEV)
		return ret;
	/* Identify where permitted (root, or Linux >= 6.2 for CNS 0/1) */
	if (bc_nvme_ident_ioctl(path, id) && ret)
		return ret;
	/* what the device says about FDP, before any I/O (docs/fdp.md) */
	if (id->fdps) {
		fi = bc_nvme_ident_fdp(id, 0); /* fdps comes from Identify: it answered */
		bc_nvme_fdp_discover(path, &fi, &id->fdp);
	} else if (id->from_identify)
		id->fdp.probed = true; /* CTRATT said: not supported */
	return 0;
}

const char *bc_nvme_lba_kind(const struct bc_nvme_ident *id, char *buf, size_t len)
{
	/*
	 * NVMe has no 512e flag: a 512-byte LBA on a larger physical block (the
	 * kernel's nvme_update_disk_info derives the physical block from NPWG/AWUPF)
	 */
	if (id->lba_bytes == 512)
		snprintf(buf, len, "%s", id->pbs > 512 ? "512e" : "512n");
	else if (id->lba_bytes == 4096)
		snprintf(buf, len, "4Kn");
	else
		snprintf(buf, len, "%uB", id->lba_bytes);
	return buf;
}

cJSON *bc_nvme_ident_json(const struct bc_nvme_ident *id)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	char kind[16];
	int i;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "model", id->model);
	cJSON_AddStringToObject(o, "serial", id->serial);
	cJSON_AddStringToObject(o, "firmware", id->firmware);
	cJSON_AddNumberToObject(o, "nsid", id->nsid);
	cJSON_AddStringToObject(o, "block", id->block);
	cJSON_AddNumberToObject(o, "size", (double)id->size_bytes);
	cJSON_AddNumberToObject(o, "lba_bytes", id->lba_bytes);
	cJSON_AddStringToObject(o, "lba_kind", bc_nvme_lba_kind(id, kind, sizeof(kind)));
	cJSON_AddNumberToObject(o, "metadata_bytes", id->ms);
	cJSON_AddBoolToObject(o, "extended_lba", id->extended);
	cJSON_AddStringToObject(o, "transport", id->transport[0] ? id->transport : "unknown");
	cJSON_AddStringToObject(o, "address", id->address);
	cJSON_AddStringToObject(o, "subsysnqn", id->subsysnqn);
	cJSON_AddNumberToObject(o, "numa_node", id->numa_node);
	cJSON_AddBoolToObject(o, "fdp_supported", id->fdps);
	if (id->fdp.probed)
		cJSON_AddItemToObject(o, "fdp", bc_nvme_fdp_json(&id->fdp));
	cJSON_AddStringToObject(o, "source", id->from_identify ? "identify" : "sysfs");
	if (id->part) {
		cJSON *pt = cJSON_AddObjectToObject(o, "partition");

		cJSON_AddStringToObject(pt, "device", id->part_name);
		cJSON_AddNumberToObject(pt, "number", id->part);
		cJSON_AddNumberToObject(pt, "start", (double)id->part_start);
		cJSON_AddNumberToObject(pt, "size", (double)id->part_size);
	}
	if (id->fmt >= 0)
		cJSON_AddNumberToObject(o, "format_index", id->fmt);
	arr = cJSON_AddArrayToObject(o, "formats");
	for (i = 0; arr && i < id->nformats; i++) {
		cJSON *f = cJSON_CreateObject();

		cJSON_AddNumberToObject(f, "index", id->formats[i].index);
		cJSON_AddNumberToObject(f, "lba_bytes", id->formats[i].lba_bytes);
		cJSON_AddNumberToObject(f, "metadata_bytes", id->formats[i].ms);
		cJSON_AddNumberToObject(f, "rp", id->formats[i].rp);
		cJSON_AddItemToArray(arr, f);
	}
	return o;
}
