/*
 * test_nvme_temp.c - where an NVMe volume's per-second temperature comes
 * from, against tests/data/sysfs-nvme: hwmon under the controller's device
 * (kernels before 5.19), hwmon under the controller (nvme1: an NVMe/TCP
 * controller whose target reports 0 K, so no value), and the SMART log
 * fallback named for a controller without hwmon. The SMART ioctl itself is
 * not run: no NVMe device here. Then the sampler thread over a hwmon file
 * of its own: the latest value, a change within about a second, no value
 * for a source without one, and stop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvme/temp.h"
#include "bc_test.h"

#define ROOT BC_SRC_DIR "/tests/data/sysfs-nvme"

/* source i's value as the sampler has it, waiting up to 3 s for it to be want */
static int s_wait(struct bc_temp_sampler *s, int i, double want, double *c)
{
	struct timespec nap = {0, 20 * 1000 * 1000};
	int k, rc = -ENODATA;

	for (k = 0; k < 150; k++) {
		rc = bc_temp_sampler_get(s, i, c);
		if (!rc && *c > want - 0.01 && *c < want + 0.01)
			return 0;
		nanosleep(&nap, NULL);
	}
	return rc ? rc : -EAGAIN;
}

static void s_sampler(void)
{
	char dir[] = "/tmp/test_nvme_temp.XXXXXX", file[64];
	struct bc_nvme_temp *t = calloc(2, sizeof(*t));
	struct bc_temp_sampler *s;
	double c = 0;

	CHECK(t && mkdtemp(dir) != NULL);
	if (!t)
		return;
	snprintf(file, sizeof(file), "%s/temp1_input", dir);
	bc_test_put(dir, "temp1_input", "38250\n");
	t[0].src = BC_TEMP_HWMON;
	snprintf(t[0].file, sizeof(t[0].file), "%s", file);
	t[1].src = BC_TEMP_NONE;
	s = bc_temp_sampler_start(t, 2);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(!s_wait(s, 0, 38.25, &c));
	bc_test_put(dir, "temp1_input", "44000\n");
	CHECK(!s_wait(s, 0, 44.0, &c));
	CHECK(bc_temp_sampler_get(s, 1, &c) == -ENODATA);
	CHECK(bc_temp_sampler_get(s, 2, &c) == -ENODATA);
	bc_temp_sampler_stop(&s);
	CHECK(s == NULL);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	struct bc_nvme_temp t;
	double c = -1;

	CHECK(!bc_nvme_temp_open(ROOT, "/dev/nvme0n1", &t) && t.src == BC_TEMP_HWMON);
	CHECK(strstr(t.file, "/sys/class/nvme/nvme0/device/hwmon/hwmon1/temp1_input") != NULL);
	CHECK(!bc_nvme_temp_read(&t, &c) && c > 41.84 && c < 41.86);

	/* the generic char device of the same namespace: the same controller */
	CHECK(!bc_nvme_temp_open(ROOT, "/dev/ng0n1", &t) && t.src == BC_TEMP_HWMON);

	/* Linux nvmet answers 0 K: hwmon says -273150, which is no reading */
	CHECK(!bc_nvme_temp_open(ROOT, "/dev/nvme1n2", &t) && t.src == BC_TEMP_HWMON);
	CHECK(strstr(t.file, "/sys/class/nvme/nvme1/hwmon2/temp1_input") != NULL);
	CHECK(bc_nvme_temp_read(&t, &c) == -ENODATA);

	/* no hwmon (multipath head of subsystem 3): the SMART log on the device itself */
	CHECK(!bc_nvme_temp_open(ROOT, "/dev/nvme3n1", &t) && t.src == BC_TEMP_SMART);
	CHECK(!strcmp(t.file, "/dev/nvme3n1"));

	/* not NVMe: nothing to read */
	CHECK(bc_nvme_temp_open(ROOT, "/dev/sda", &t) == -ENODEV && t.src == BC_TEMP_NONE);
	CHECK(bc_nvme_temp_read(&t, &c) == -ENODEV);
	CHECK(bc_nvme_temp_open(ROOT, "/var/tmp/x/nvme0p1", &t) == -ENODEV);
	/* a partition: its namespace's drive (seed 002's lun was /dev/nvme5n1p1) */
	CHECK(!bc_nvme_temp_open(ROOT, "/dev/nvme0n1p1", &t) && t.src == BC_TEMP_HWMON);
	CHECK(strstr(t.file, "/sys/class/nvme/nvme0/device/hwmon/hwmon1/temp1_input") != NULL);
	CHECK(!bc_nvme_temp_open(ROOT, "/dev/nvme3n1p2", &t) && t.src == BC_TEMP_SMART);
	CHECK(!strcmp(t.file, "/dev/nvme3n1"));
	s_sampler();
	TEST_DONE();
}
