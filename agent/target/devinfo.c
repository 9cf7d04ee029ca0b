/*
 * target/devinfo.c - what a real volume path is (file, block device, NVMe generic
 * char device, missing) and its size and block sizes, found without opening
 * it for I/O (see target/devinfo.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fs.h>

#include "nvme/ident.h"
#include "target/devinfo.h"

const char *bc_path_kind_name(enum bc_path_kind k)
{
	switch (k) {
	case BC_KIND_MISSING:
		return "missing";
	case BC_KIND_FILE:
		return "file";
	case BC_KIND_BLOCK:
		return "block";
	case BC_KIND_NVME_CHAR:
		return "nvme-char";
	case BC_KIND_PSEUDO:
		return "pseudo";
	case BC_KIND_OTHER:
		return "other";
	}
	return "unknown";
}

static int s_probe_block(const char *path, struct bc_devinfo *di)
{
	unsigned int pbs = 0;
	uint64_t size = 0;
	int lbs = 0, fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, &size) || ioctl(fd, BLKSSZGET, &lbs) ||
	    ioctl(fd, BLKPBSZGET, &pbs)) {
		ret = -errno;
		goto out;
	}
	di->size_bytes = size;
	di->lbs = (uint32_t)lbs;
	di->pbs = pbs;
out:
	close(fd);
	return ret;
}

/* /dev/ngXnY: the NVMe generic (passthrough) char device of namespace Y */
static bool s_is_nvme_generic(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "ng", 2);
}

int bc_devinfo_probe(const char *path, struct bc_devinfo *di)
{
	struct stat st;

	memset(di, 0, sizeof(*di));
	if (stat(path, &st)) {
		if (errno == ENOENT) {
			di->kind = BC_KIND_MISSING;
			return 0;
		}
		return -errno;
	}
	if (S_ISREG(st.st_mode)) {
		di->kind = BC_KIND_FILE;
		di->size_bytes = (uint64_t)st.st_size;
		/*
		 * 512 is the O_DIRECT granule that works on every local
		 * filesystem over 512e/512n devices; st_blksize is the
		 * filesystem's preferred I/O size.
		 */
		di->lbs = 512;
		di->pbs = (uint32_t)st.st_blksize;
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		di->kind = BC_KIND_BLOCK;
		return s_probe_block(path, di);
	}
	if (S_ISCHR(st.st_mode) && s_is_nvme_generic(path)) {
		struct bc_nvme_ident id;

		/* from the namespace's sysfs; the target's open runs Identify */
		di->kind = BC_KIND_NVME_CHAR;
		if (!bc_nvme_ident_sysfs("", path, &id)) {
			di->size_bytes = id.size_bytes;
			di->lbs = id.lba_bytes;
			di->pbs = id.pbs;
		}
		return 0;
	}
	di->kind = BC_KIND_OTHER;
	return 0;
}
