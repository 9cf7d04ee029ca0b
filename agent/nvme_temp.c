/*
 * nvme_temp.c - composite temperature of an NVMe namespace's controller, per
 * second (see bc_nvme_temp.h; hwmon attributes: kernel drivers/nvme/host/
 * hwmon.c, nvme.md §7).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bc_nvme.h"
#include "bc_nvme_ident.h"
#include "bc_nvme_temp.h"

/* the temp1_input of the first hwmonN directory under dir: 0 with its path in out */
static int s_hwmon_in(const char *dir, char *out, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int ret = -ENOENT;

	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "hwmon", 5) || !e->d_name[5])
			continue;
		snprintf(out, len, "%s/%s/temp1_input", dir, e->d_name);
		if (!access(out, R_OK)) {
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

int bc_nvme_temp_open(const char *root, const char *path, struct bc_nvme_temp *t)
{
	char dir[PATH_MAX - 64];
	unsigned x, y;
	bool generic;

	memset(t, 0, sizeof(*t));
	if (!bc_nvme_name_parse(path, &x, &y, &generic))
		return -ENODEV;
	/*
	 * nvmeX is the controller unless native multipath numbers the head
	 * by its subsystem: then nvmeX may be another controller of the same
	 * subsystem, which reports the same (shared) composite temperature.
	 */
	snprintf(dir, sizeof(dir), "%s/sys/class/nvme/nvme%u", root, x);
	if (!s_hwmon_in(dir, t->file, sizeof(t->file))) {
		t->src = BC_TEMP_HWMON;
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/sys/class/nvme/nvme%u/device/hwmon", root, x);
	if (!s_hwmon_in(dir, t->file, sizeof(t->file))) {
		t->src = BC_TEMP_HWMON;
		return 0;
	}
	snprintf(t->file, sizeof(t->file), "%s", path);
	t->src = BC_TEMP_SMART;
	return 0;
}

static int s_read_hwmon(const char *file, double *celsius)
{
	char buf[32];
	ssize_t n;
	long v;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	v = strtol(buf, NULL, 10);
	/* 0 K comes out as -273150 (or -273000 on old kernels): no sensor */
	if (v <= -273000)
		return -ENODATA;
	*celsius = (double)v / 1000.0;
	return 0;
}

static int s_read_smart(const char *dev, double *celsius)
{
	struct nvme_passthru_cmd c;
	struct bc_nvme_smart sm;
	void *buf = NULL;
	int fd, ret;

	if (posix_memalign(&buf, 4096, BC_NVME_SMART_BYTES))
		return -ENOMEM;
	memset(buf, 0, BC_NVME_SMART_BYTES);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	bc_nvme_get_log(&c, BC_NVME_LID_SMART, 0, BC_NVME_NSID_ALL, 0, 0, 0, buf,
			BC_NVME_SMART_BYTES);
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	ret = ret < 0 ? -errno : ret > 0 ? -EIO : 0;
	close(fd);
	if (!ret)
		ret = bc_nvme_parse_smart(buf, BC_NVME_SMART_BYTES, &sm);
	if (!ret && !sm.temp_k)
		ret = -ENODATA;
	if (!ret)
		*celsius = (double)sm.temp_k - 273.15;
out:
	free(buf);
	return ret;
}

int bc_nvme_temp_read(const struct bc_nvme_temp *t, double *celsius)
{
	switch (t->src) {
	case BC_TEMP_HWMON:
		return s_read_hwmon(t->file, celsius);
	case BC_TEMP_SMART:
		return s_read_smart(t->file, celsius);
	case BC_TEMP_NONE:
		break;
	}
	return -ENODEV;
}
