/*
 * test_nvme_temp.c - where an NVMe volume's per-second temperature comes
 * from, against tests/data/sysfs-nvme: hwmon under the controller's device
 * (kernels before 5.19), hwmon under the controller (nvme1: an NVMe/TCP
 * controller whose target reports 0 K, so no value), and the SMART log
 * fallback named for a controller without hwmon. The SMART ioctl itself is
 * not run: no NVMe device here.
 */
#include <errno.h>
#include <string.h>

#include "bc_nvme_temp.h"
#include "bc_test.h"

#define ROOT BC_SRC_DIR "/tests/data/sysfs-nvme"

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
	CHECK(bc_nvme_temp_open(ROOT, "/var/tmp/x/nvme0n1p1", &t) == -ENODEV);
	TEST_DONE();
}
