/*
 * nvme/temp.h - an NVMe namespace's composite temperature, read once a
 * second by a sampler thread (never the I/O path, nor the control thread: a
 * read is an admin command, and a controller that stopped answering holds
 * it for the admin timeout, 60 s, which would stop heartbeats): the
 * controller's hwmon temp1_input when the kernel registered one (sysfs, any
 * user), else the SMART / Health log (LID 02h) over NVME_IOCTL_ADMIN_CMD
 * (root). Both ask the device each time (the kernel's nvme hwmon driver
 * issues a Get Log Page per read, it caches nothing); over NVMe/TCP the
 * value is the target's.
 */
#ifndef BC_NVME_TEMP_H
#define BC_NVME_TEMP_H

#include <limits.h>
#include <stddef.h>

enum bc_nvme_temp_src { BC_TEMP_NONE = 0, BC_TEMP_HWMON, BC_TEMP_SMART };

struct bc_nvme_temp {
	enum bc_nvme_temp_src src;
	char file[PATH_MAX]; /* hwmon: .../temp1_input; smart: the namespace device */
};

/*
 * Find where path's (nvmeXnY or ngXnY) temperature comes from, under root
 * ("" live, else a fixture tree): /sys/class/nvme/nvmeX/hwmon*, then
 * /sys/class/nvme/nvmeX/device/hwmon/hwmon* (kernels before 5.19 hung it
 * there), else the SMART log on path itself. Returns 0, or -ENODEV when
 * path is not an NVMe namespace name (t->src stays BC_TEMP_NONE).
 */
int bc_nvme_temp_open(const char *root, const char *path, struct bc_nvme_temp *t);

/*
 * The composite temperature in degrees Celsius into *celsius (hwmon's
 * millidegrees / 1000; SMART's Kelvin - 273.15, as the kernel converts).
 * Returns 0, -ENODATA when the device reports none (0 K: Linux's nvmet
 * target does), or -errno.
 */
int bc_nvme_temp_read(const struct bc_nvme_temp *t, double *celsius);

/*
 * A detached thread reading sources t[0..n) (taken over) once a second.
 * bc_temp_sampler_get: source i's latest value, 0 or -ENODATA (none yet,
 * or its last read failed). bc_temp_sampler_stop: returns at once; the
 * thread frees everything when its current read returns.
 */
struct bc_temp_sampler;
struct bc_temp_sampler *bc_temp_sampler_start(struct bc_nvme_temp *t, int n);
int bc_temp_sampler_get(struct bc_temp_sampler *s, int i, double *celsius);
void bc_temp_sampler_stop(struct bc_temp_sampler **s);

#endif
