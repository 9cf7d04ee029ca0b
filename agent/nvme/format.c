/*
 * nvme/format.c - Format NVM under a volume (nvme/format.h): the checks, the
 * partition table kept across the format, the command and the rescan.
 *
 * Order: every check and the whole new partition table are settled first,
 * then the one destructive act (the Format NVM command), then the table is
 * written back and re-read. GPT (UEFI 2.x, "GUID Partition Table"): the
 * protective MBR, the primary header at LBA 1 with its entry array at LBA 2,
 * the backup array and header at the end; both CRC-32s (zlib's crc32, the
 * IEEE polynomial GPT uses). The disk GUID, each entry's type, GUID,
 * attributes and name are kept; only LBAs change. MBR: the boot code, disk
 * signature and four entries kept, start and size in the new sectors.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "nvme/format.h"
#include "nvme/ident.h"
#include "safety/safety.h"
#include "safety/signature.h"
#include "util/le.h"
#include "util/log.h"

#define S_FORMAT_NVM  0x80
#define S_GPT_HDR     92
#define S_GPT_ENTRIES 128 /* entries kept at most: what every tool writes */
#define S_GPT_ENTRY   128
#define S_GPT_ARRAY   (S_GPT_ENTRIES * S_GPT_ENTRY)
#define S_MAX_PARTS   16
#define S_WAIT_STEPS  100 /* x 100 ms for the kernel to show the new format and partitions */

/* a partition table as read, its ranges in bytes */
struct s_table {
	enum { T_NONE, T_GPT, T_MBR } kind;
	uint8_t mbr[512];	       /* MBR: the sector as it was (boot code, signature) */
	uint8_t guid[16];	       /* GPT: the disk's GUID */
	uint8_t ent[S_GPT_ARRAY];      /* GPT: the entries as they were */
	int nent;		       /* GPT: entries in the array (<= S_GPT_ENTRIES) */
	uint64_t first[S_GPT_ENTRIES]; /* bytes, per GPT entry (0 unused) or MBR slot */
	uint64_t end[S_GPT_ENTRIES];   /* one past the last byte */
	int nparts;		       /* used entries */
};

static double s_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void s_put_le32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void s_put_le64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int s_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
}

static int s_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	ssize_t n = pwrite(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
}

/* the table on fd (lbs-byte blocks, size bytes); 0 with kind T_NONE when there is none */
static int s_read_table(int fd, uint32_t lbs, uint64_t size, struct s_table *t, char *err,
			size_t errlen)
{
	uint8_t *h = malloc(lbs > 512 ? lbs : 512);
	uint32_t n, esz;
	uint64_t elba;
	int i, ret;

	memset(t, 0, sizeof(*t));
	if (!h)
		return -ENOMEM;
	ret = s_pread(fd, t->mbr, 512, 0);
	if (ret)
		goto out;
	if (t->mbr[510] != 0x55 || t->mbr[511] != 0xAA)
		goto out; /* no table */
	ret = s_pread(fd, h, lbs, lbs);
	if (ret)
		goto out;
	if (!memcmp(h, "EFI PART", 8)) {
		elba = bc_le64(h + 72);
		n = bc_le32(h + 80);
		esz = bc_le32(h + 84);
		if (esz != S_GPT_ENTRY || n > S_GPT_ENTRIES || !n ||
		    (elba + 1) * lbs + (uint64_t)n * esz > size) {
			snprintf(err, errlen,
				 "its GPT has %u entries of %u bytes at LBA %llu: only up to %d "
				 "entries of %d bytes are kept across a format",
				 n, esz, (unsigned long long)elba, S_GPT_ENTRIES, S_GPT_ENTRY);
			ret = -EOPNOTSUPP;
			goto out;
		}
		ret = s_pread(fd, t->ent, (size_t)n * esz, elba * lbs);
		if (ret)
			goto out;
		t->kind = T_GPT;
		t->nent = (int)n;
		memcpy(t->guid, h + 56, 16);
		for (i = 0; i < t->nent; i++) {
			const uint8_t *e = t->ent + (size_t)i * S_GPT_ENTRY;
			static const uint8_t zero[16];

			if (!memcmp(e, zero, 16))
				continue;
			t->first[i] = bc_le64(e + 32) * lbs;
			t->end[i] = (bc_le64(e + 40) + 1) * lbs;
			t->nparts++;
		}
		goto out;
	}
	/* MBR: entries with a type and a length; 0xEE alone is a protective MBR of a lost GPT */
	for (i = 0; i < 4; i++) {
		const uint8_t *e = t->mbr + 446 + 16 * i;

		if (!e[4] || !bc_le32(e + 12))
			continue;
		if (e[4] == 0xEE || e[4] == 0x05 || e[4] == 0x0F || e[4] == 0x85) {
			snprintf(
			    err, errlen,
			    "its MBR has a%s partition (type 0x%02x) that is not kept across a "
			    "format",
			    e[4] == 0xEE ? " GPT-protective" : "n extended", e[4]);
			ret = -EOPNOTSUPP;
			goto out;
		}
		t->first[i] = (uint64_t)bc_le32(e + 8) * lbs;
		t->end[i] = t->first[i] + (uint64_t)bc_le32(e + 12) * lbs;
		t->nparts++;
	}
	t->kind = t->nparts ? T_MBR : T_NONE;
out:
	free(h);
	return ret;
}

/* the GPT's entry-array size in blocks of lbs */
static uint64_t s_array_lbas(uint32_t lbs)
{
	return (S_GPT_ARRAY + lbs - 1) / lbs;
}

/* every partition starts and ends on a block of lbs and fits the table's room on size bytes */
static int s_fits(const struct s_table *t, uint32_t lbs, uint64_t size, char *err, size_t errlen)
{
	uint64_t last = size / lbs - 1, lo = 0, hi = last;
	int i;

	if (t->kind == T_GPT) {
		lo = 2 + s_array_lbas(lbs);
		hi = last - 1 - s_array_lbas(lbs);
	}
	for (i = 0; i < S_GPT_ENTRIES; i++) {
		if (!t->end[i])
			continue;
		if (t->first[i] % lbs || t->end[i] % lbs) {
			snprintf(err, errlen,
				 "partition %d (bytes %llu..%llu) does not start and end on a "
				 "%u-byte block: it cannot be kept in that format",
				 i + 1, (unsigned long long)t->first[i],
				 (unsigned long long)t->end[i], lbs);
			return -EINVAL;
		}
		if (t->first[i] / lbs < lo || t->end[i] / lbs - 1 > hi ||
		    (t->kind == T_MBR && t->end[i] / lbs > 0xFFFFFFFFull)) {
			snprintf(
			    err, errlen,
			    "partition %d (bytes %llu..%llu) does not fit a %s partition table "
			    "with %u-byte blocks",
			    i + 1, (unsigned long long)t->first[i], (unsigned long long)t->end[i],
			    t->kind == T_GPT ? "GPT" : "MBR", lbs);
			return -EINVAL;
		}
	}
	return 0;
}

/* one GPT header (primary when at == 1) into h (lbs bytes, zeroed) */
static void s_gpt_header(const struct s_table *t, uint8_t *h, uint64_t at, uint64_t alt,
			 uint64_t entries_at, uint64_t lo, uint64_t hi, uint32_t array_crc)
{
	memcpy(h, "EFI PART", 8);
	s_put_le32(h + 8, 0x00010000);
	s_put_le32(h + 12, S_GPT_HDR);
	s_put_le64(h + 24, at);
	s_put_le64(h + 32, alt);
	s_put_le64(h + 40, lo);
	s_put_le64(h + 48, hi);
	memcpy(h + 56, t->guid, 16);
	s_put_le64(h + 72, entries_at);
	s_put_le32(h + 80, S_GPT_ENTRIES);
	s_put_le32(h + 84, S_GPT_ENTRY);
	s_put_le32(h + 88, array_crc);
	s_put_le32(h + 16, (uint32_t)crc32(0, h, S_GPT_HDR));
}

/* t written on fd in blocks of lbs over size bytes */
static int s_write_table(int fd, const struct s_table *t, uint32_t lbs, uint64_t size)
{
	uint64_t last = size / lbs - 1, alba = s_array_lbas(lbs);
	size_t blen = (size_t)(alba * lbs);
	uint8_t *ent = calloc(1, blen), *h = calloc(1, lbs), mbr[512];
	uint32_t crc;
	int i, ret = -ENOMEM;

	if (!ent || !h)
		goto out;
	if (t->kind == T_MBR) {
		memcpy(mbr, t->mbr, 512);
		for (i = 0; i < 4; i++) {
			uint8_t *e = mbr + 446 + 16 * i;

			if (!t->end[i])
				continue;
			s_put_le32(e + 8, (uint32_t)(t->first[i] / lbs));
			s_put_le32(e + 12, (uint32_t)((t->end[i] - t->first[i]) / lbs));
			/* CHS is meaningless at these sizes: the LBA-only marker */
			memset(e + 1, 0xFE, 3);
			memset(e + 5, 0xFE, 3);
		}
		ret = s_pwrite(fd, mbr, 512, 0);
		goto out;
	}
	/* GPT: the protective MBR, the entries with new LBAs, both headers */
	memset(mbr, 0, sizeof(mbr));
	mbr[446 + 4] = 0xEE;
	mbr[446 + 2] = 0x02;
	memset(mbr + 446 + 5, 0xFF, 3);
	s_put_le32(mbr + 446 + 8, 1);
	s_put_le32(mbr + 446 + 12, last > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)last);
	mbr[510] = 0x55;
	mbr[511] = 0xAA;
	memcpy(ent, t->ent, (size_t)t->nent * S_GPT_ENTRY);
	for (i = 0; i < t->nent; i++) {
		uint8_t *e = ent + (size_t)i * S_GPT_ENTRY;

		if (!t->end[i])
			continue;
		s_put_le64(e + 32, t->first[i] / lbs);
		s_put_le64(e + 40, t->end[i] / lbs - 1);
	}
	crc = (uint32_t)crc32(0, ent, S_GPT_ARRAY);
	ret = s_pwrite(fd, mbr, 512, 0);
	if (!ret)
		ret = s_pwrite(fd, ent, blen, 2 * (uint64_t)lbs);
	if (!ret)
		ret = s_pwrite(fd, ent, blen, (last - alba) * lbs);
	s_gpt_header(t, h, 1, last, 2, 2 + alba, last - 1 - alba, crc);
	if (!ret)
		ret = s_pwrite(fd, h, lbs, lbs);
	memset(h, 0, lbs);
	s_gpt_header(t, h, last, 1, last - alba, 2 + alba, last - 1 - alba, crc);
	if (!ret)
		ret = s_pwrite(fd, h, lbs, last * lbs);
out:
	if (!ret && fsync(fd))
		ret = -errno;
	free(ent);
	free(h);
	return ret;
}

/* a directory with an entry besides . and .. */
static bool s_has_entries(const char *dir)
{
	struct dirent *d;
	bool any = false;
	DIR *dp = opendir(dir);

	if (!dp)
		return false;
	while (!any && (d = readdir(dp)))
		any = strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
	closedir(dp);
	return any;
}

/*
 * What would make a format lose someone's data or pull a device from under
 * its user: name (the namespace, or one of its partitions) mounted, held,
 * busy or signed. table: the namespace's own table is not a signature here
 * (it is kept); its partitions are judged one by one.
 */
static int s_in_use(const char *name, bool table, char *err, size_t errlen)
{
	char p[256], v[64], what[256], dev[300];
	unsigned maj, min;
	uint64_t size;
	int fd, rc = 0;

	snprintf(p, sizeof(p), "/sys/class/block/%s/dev", name);
	if (bc_nvme_sysfs_line("", p, v, sizeof(v)) || sscanf(v, "%u:%u", &maj, &min) != 2) {
		snprintf(err, errlen, "/dev/%s: no sysfs entry", name);
		return -ENODEV;
	}
	rc = bc_safety_mounted("/proc/self/mountinfo", makedev(maj, min), what, sizeof(what));
	if (rc > 0) {
		snprintf(err, errlen, "/dev/%s is mounted %s: unmount it first", name, what);
		return -EBUSY;
	}
	snprintf(p, sizeof(p), "/sys/class/block/%s/holders", name);
	if (s_has_entries(p)) {
		snprintf(err, errlen,
			 "/dev/%s has holders (device-mapper, LVM, md or bcache use it): a format "
			 "would pull it from under them",
			 name);
		return -EBUSY;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s cannot be opened exclusively (%s): it is in use", dev,
			 strerror(-rc));
		return rc;
	}
	size = (uint64_t)lseek(fd, 0, SEEK_END);
	rc = table ? 0 : bc_safety_signature(fd, size, what, sizeof(what));
	close(fd);
	if (rc > 0) {
		snprintf(err, errlen,
			 "%s carries a signature: %s; a format erases it (wipe it first if that "
			 "is meant)",
			 dev, what);
		return -EPERM;
	}
	return rc;
}

/* the partitions of namespace block name ("nvme0n1p1"...) from sysfs, in number order */
static int s_partitions(const char *name, char (*out)[40], int max)
{
	char p[300], v[16];
	struct dirent *d;
	int n = 0;
	DIR *dp;

	snprintf(p, sizeof(p), "/sys/class/block/%s", name);
	dp = opendir(p);
	if (!dp)
		return 0;
	while ((d = readdir(dp)) && n < max) {
		char f[600];

		if (strncmp(d->d_name, name, strlen(name)) || d->d_name[strlen(name)] != 'p')
			continue;
		snprintf(f, sizeof(f), "%s/%s/partition", p, d->d_name);
		if (!bc_nvme_sysfs_line("", f, v, sizeof(v)))
			snprintf(out[n++], sizeof(out[0]), "%s", d->d_name);
	}
	closedir(dp);
	return n;
}

/* the format to go to: by index, or the metadata-free one of that data size (best rp) */
static int s_pick(const struct bc_nvme_ident *id, const struct bc_format_spec *spec, char *err,
		  size_t errlen)
{
	int i, best = -1;

	for (i = 0; i < id->nformats; i++) {
		if (spec->index >= 0 && id->formats[i].index == spec->index) {
			if (id->formats[i].ms) {
				snprintf(err, errlen,
					 "LBA format %d carries %u metadata bytes per block: the "
					 "engine writes data-only blocks",
					 spec->index, id->formats[i].ms);
				return -EOPNOTSUPP;
			}
			return spec->index;
		}
		if (spec->index < 0 && id->formats[i].lba_bytes == spec->lba_bytes &&
		    !id->formats[i].ms && (best < 0 || id->formats[i].rp < id->formats[best].rp))
			best = i;
	}
	if (best >= 0)
		return id->formats[best].index;
	if (!id->nformats)
		snprintf(err, errlen,
			 "its LBA formats are unknown (Identify Namespace did not answer: root "
			 "needed)");
	else if (spec->index >= 0)
		snprintf(err, errlen, "it has no LBA format %d (%d formats listed)", spec->index,
			 id->nformats);
	else
		snprintf(err, errlen, "it has no %u-byte LBA format without metadata",
			 spec->lba_bytes);
	return -EINVAL;
}

/* Format NVM of nsid with LBA format lbaf on fd (the namespace), then a rescan */
static int s_format(int fd, const char *ctrl, uint32_t nsid, int lbaf, char *err, size_t errlen)
{
	struct nvme_admin_cmd c;
	int ret, cfd;

	memset(&c, 0, sizeof(c));
	c.opcode = S_FORMAT_NVM;
	c.nsid = nsid;
	/* CDW10: LBAF bits 3:0, its upper bits 5:4 at 13:12; no secure erase, no PI */
	c.cdw10 = ((uint32_t)lbaf & 0xf) | (((uint32_t)lbaf >> 4) & 0x3) << 12;
	c.timeout_ms = 600000; /* a drive may take minutes */
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (ret) {
		snprintf(err, errlen, "Format NVM (nsid %u, LBA format %d) failed: %s", nsid, lbaf,
			 ret < 0 ? strerror(errno) : "NVMe status");
		if (ret > 0)
			snprintf(err + strlen(err), errlen - strlen(err), " 0x%x", (unsigned)ret);
		return ret < 0 ? -errno : -EIO;
	}
	/* the kernel rescans a namespace whose format changed; asking is harmless */
	cfd = open(ctrl, O_RDONLY | O_CLOEXEC);
	if (cfd >= 0) {
		if (ioctl(cfd, NVME_IOCTL_RESCAN) < 0)
			bc_warn("%s: rescan after the format: %s", ctrl, strerror(errno));
		close(cfd);
	}
	return 0;
}

/* wait until sysfs shows lbs-byte blocks on block name */
static int s_wait_lbs(const char *name, uint32_t lbs)
{
	char p[256], v[32];
	int i;

	snprintf(p, sizeof(p), "/sys/block/%s/queue/logical_block_size", name);
	for (i = 0; i < S_WAIT_STEPS; i++) {
		if (!bc_nvme_sysfs_line("", p, v, sizeof(v)) && strtoul(v, NULL, 10) == lbs)
			return 0;
		usleep(100000);
	}
	return -ETIMEDOUT;
}

/* re-read the partition table and wait for each device node of parts */
static int s_reread(int fd, char (*parts)[40], int n, char *err, size_t errlen)
{
	char p[64];
	int i, k;

	for (i = 0; i < S_WAIT_STEPS && ioctl(fd, BLKRRPART) < 0; i++) {
		if (errno != EBUSY) {
			snprintf(err, errlen, "re-reading the partition table: %s",
				 strerror(errno));
			return -errno;
		}
		usleep(100000);
	}
	for (k = 0; k < n; k++) {
		snprintf(p, sizeof(p), "/dev/%s", parts[k]);
		for (i = 0; i < S_WAIT_STEPS && access(p, F_OK); i++)
			usleep(100000);
		if (access(p, F_OK)) {
			snprintf(err, errlen, "%s did not come back after the format", p);
			return -ENOENT;
		}
	}
	return 0;
}

int bc_nvme_format_volume(const char *path, const struct bc_format_spec *spec, bool consent,
			  struct bc_nvme_format_res *res, char *err, size_t errlen)
{
	char ns[sizeof(res->ns)], why[400] = "", ctrl[64], parts[S_MAX_PARTS][40];
	struct bc_nvme_ident id;
	struct s_table *t = calloc(1, sizeof(*t));
	const char *name;
	unsigned part, x, y;
	bool generic;
	double t0;
	int fd = -1, ret, np, i, to;
	uint64_t size;

	memset(res, 0, sizeof(*res));
	res->from_index = res->to_index = -1;
	if (!t)
		return -ENOMEM;
	bc_nvme_partition_ns(path, ns, sizeof(ns), &part);
	snprintf(res->ns, sizeof(res->ns), "%s", ns);
	name = strrchr(ns, '/') ? strrchr(ns, '/') + 1 : ns;
	ret = -EINVAL;
	if (!bc_nvme_name_parse(ns, &x, &y, &generic) || generic) {
		snprintf(why, sizeof(why), "not an NVMe namespace or a partition of one");
		goto fail;
	}
	if (!consent) {
		snprintf(why, sizeof(why),
			 "a format erases the whole namespace: set \"destructive\": true for the "
			 "volume and start the agent with --allow-destructive");
		ret = -EPERM;
		goto fail;
	}
	ret = bc_nvme_ident(ns, &id);
	if (ret || !id.from_identify) {
		snprintf(why, sizeof(why), "Identify Namespace did not answer%s%s",
			 ret ? ": " : " (root needed)", ret ? strerror(-ret) : "");
		ret = ret ? ret : -EACCES;
		goto fail;
	}
	res->from_index = id.fmt;
	res->from_lba = id.lba_bytes;
	to = s_pick(&id, spec, why, sizeof(why));
	if (to < 0) {
		ret = to;
		goto fail;
	}
	res->to_index = to;
	for (i = 0; i < id.nformats; i++)
		if (id.formats[i].index == to)
			res->to_lba = id.formats[i].lba_bytes;
	/* nothing in use, nothing signed, on the namespace or any partition */
	np = s_partitions(name, parts, S_MAX_PARTS);
	for (i = 0; i < np; i++) {
		ret = s_in_use(parts[i], false, why, sizeof(why));
		if (ret)
			goto fail;
	}
	fd = open(ns, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, sizeof(why), "cannot be opened exclusively (%s): it is in use",
			 strerror(-ret));
		goto fail;
	}
	size = (uint64_t)lseek(fd, 0, SEEK_END);
	ret = s_read_table(fd, id.lba_bytes, size, t, why, sizeof(why));
	if (ret)
		goto fail;
	close(fd);
	fd = -1;
	/* without a table the namespace itself must carry nothing */
	ret = s_in_use(name, t->kind != T_NONE, why, sizeof(why));
	if (ret)
		goto fail;
	if (t->kind != T_NONE && np != t->nparts) {
		snprintf(why, sizeof(why),
			 "its partition table lists %d partitions, the kernel shows %d: re-read "
			 "it first",
			 t->nparts, np);
		ret = -EINVAL;
		goto fail;
	}
	if (t->kind != T_NONE) {
		ret = s_fits(t, res->to_lba, size, why, sizeof(why));
		if (ret)
			goto fail;
	}
	/* the one destructive act: from here the old contents are gone */
	fd = open(ns, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, sizeof(why), "cannot be opened exclusively (%s)", strerror(-ret));
		goto fail;
	}
	snprintf(ctrl, sizeof(ctrl), "/dev/nvme%u", x);
	t0 = s_now();
	ret = s_format(fd, ctrl, id.nsid, to, why, sizeof(why));
	if (!ret && s_wait_lbs(name, res->to_lba)) {
		snprintf(why, sizeof(why),
			 "formatted, but the kernel still shows the old block size");
		ret = -ETIMEDOUT;
	}
	res->seconds = s_now() - t0;
	if (ret)
		goto fail;
	/* the block size changed under the open descriptor: a new one sees the new size */
	close(fd);
	fd = open(ns, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, sizeof(why), "cannot be opened after the format (%s)",
			 strerror(-ret));
		goto fail;
	}
	ioctl(fd, BLKFLSBUF, 0);
	snprintf(res->table, sizeof(res->table), "%s",
		 t->kind == T_GPT   ? "gpt"
		 : t->kind == T_MBR ? "mbr"
				    : "none");
	if (t->kind != T_NONE) {
		size = (uint64_t)lseek(fd, 0, SEEK_END);
		ret = s_write_table(fd, t, res->to_lba, size);
		if (ret) {
			snprintf(why, sizeof(why), "writing the partition table back: %s",
				 strerror(-ret));
			goto fail;
		}
		res->partitions = t->nparts;
	}
	/* the kernel drops the old partitions and adds the written ones */
	ret = s_reread(fd, parts, np, why, sizeof(why));
	if (ret)
		goto fail;
	bc_info("%s: formatted from LBA format %d (%u B) to %d (%u B) in %.1f s; %s table, %d "
		"partition(s) written back",
		ns, res->from_index, res->from_lba, res->to_index, res->to_lba, res->seconds,
		res->table, res->partitions);
	close(fd);
	free(t);
	return 0;
fail:
	snprintf(err, errlen, "format of %s (for %s): %s", ns, path, why);
	if (fd >= 0)
		close(fd);
	free(t);
	return ret ? ret : -EINVAL;
}

cJSON *bc_nvme_format_json(const struct bc_nvme_format_res *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "namespace", r->ns);
	cJSON_AddNumberToObject(o, "from_index", r->from_index);
	cJSON_AddNumberToObject(o, "from_lba_bytes", r->from_lba);
	cJSON_AddNumberToObject(o, "to_index", r->to_index);
	cJSON_AddNumberToObject(o, "to_lba_bytes", r->to_lba);
	cJSON_AddStringToObject(o, "partition_table", r->table);
	cJSON_AddNumberToObject(o, "partitions", r->partitions);
	cJSON_AddNumberToObject(o, "seconds", r->seconds);
	return o;
}
