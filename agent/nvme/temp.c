/*
 * nvme/temp.c - composite temperature of an NVMe namespace's controller, per
 * second (see nvme/temp.h; hwmon attributes: kernel drivers/nvme/host/
 * hwmon.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "nvme/ident.h"
#include "nvme/nvme.h"
#include "nvme/temp.h"

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

	char ns[PATH_MAX];
	unsigned part;

	memset(t, 0, sizeof(*t));
	/* a partition's drive is its namespace's */
	bc_nvme_partition_ns(path, ns, sizeof(ns), &part);
	if (!bc_nvme_name_parse(ns, &x, &y, &generic))
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
	snprintf(t->file, sizeof(t->file), "%s", ns);
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

/* millidegrees, or S_NONE */
#define S_NONE INT64_MIN

struct bc_temp_sampler {
	struct bc_nvme_temp *t;
	int n;
	int64_t *mdeg; /* [n], atomic */
	int refs;      /* the thread's and the owner's, atomic */
	bool stop;     /* under mu */
	pthread_mutex_t mu;
	pthread_cond_t wake;
};

static void s_sampler_put(struct bc_temp_sampler *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->wake);
	free(s->t);
	free(s->mdeg);
	free(s);
}

static void *s_sampler_main(void *arg)
{
	struct bc_temp_sampler *s = arg;
	struct timespec at;
	double c;
	int i;

	pthread_mutex_lock(&s->mu);
	while (!s->stop) {
		pthread_mutex_unlock(&s->mu);
		for (i = 0; i < s->n; i++)
			__atomic_store_n(&s->mdeg[i],
					 s->t[i].src != BC_TEMP_NONE &&
						 !bc_nvme_temp_read(&s->t[i], &c)
					     ? (int64_t)llround(c * 1000)
					     : S_NONE,
					 __ATOMIC_RELAXED);
		clock_gettime(CLOCK_REALTIME, &at);
		at.tv_sec++;
		pthread_mutex_lock(&s->mu);
		while (!s->stop && pthread_cond_timedwait(&s->wake, &s->mu, &at) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&s->mu);
	s_sampler_put(s);
	return NULL;
}

struct bc_temp_sampler *bc_temp_sampler_start(struct bc_nvme_temp *t, int n)
{
	struct bc_temp_sampler *s = calloc(1, sizeof(*s));
	pthread_attr_t at;
	pthread_t th;
	int i, rc = -ENOMEM;

	if (!s || !(s->mdeg = calloc((size_t)n, sizeof(*s->mdeg)))) {
		free(s);
		free(t);
		return NULL;
	}
	s->t = t;
	s->n = n;
	s->refs = 2;
	for (i = 0; i < n; i++)
		s->mdeg[i] = S_NONE;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->wake, NULL);
	if (!pthread_attr_init(&at)) {
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		rc = pthread_create(&th, &at, s_sampler_main, s);
		pthread_attr_destroy(&at);
	}
	if (rc) {
		s->refs = 1;
		s_sampler_put(s);
		return NULL;
	}
	return s;
}

int bc_temp_sampler_get(struct bc_temp_sampler *s, int i, double *celsius)
{
	int64_t v = i >= 0 && i < s->n ? __atomic_load_n(&s->mdeg[i], __ATOMIC_RELAXED) : S_NONE;

	if (v == S_NONE)
		return -ENODATA;
	*celsius = (double)v / 1000;
	return 0;
}

void bc_temp_sampler_stop(struct bc_temp_sampler **sp)
{
	struct bc_temp_sampler *s = *sp;

	if (!s)
		return;
	*sp = NULL;
	pthread_mutex_lock(&s->mu);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->mu);
	s_sampler_put(s);
}
