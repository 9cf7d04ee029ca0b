/*
 * nvme_tcp.c - NVMe/TCP attach through /dev/nvme-fabrics and sysfs (see
 * bc_nvme_tcp.h; kernel drivers/nvme/host/fabrics.c, libnvme fabrics.c and
 * filters.c, nvme.md §5).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bc_nvme_tcp.h"

/* NVMF_NQN_SIZE 223 in the kernel's fabrics.h, NUL excluded */
#define S_NQN_MAX 223

/* the kernel splits options on ',' and '\n' and values on '=' */
static bool s_value_ok(const char *v)
{
	return v && *v && !strpbrk(v, ",\n= \t");
}

int bc_nvme_tcp_options(const struct bc_nvme_tcp_spec *s, char *buf, size_t len)
{
	const char *svc = s->trsvcid ? s->trsvcid : "4420";
	int n;

	if (!s_value_ok(s->traddr) || !s_value_ok(s->subnqn) || !s_value_ok(svc) ||
	    strlen(s->subnqn) >= S_NQN_MAX || s->nr_io_queues < 0)
		return -EINVAL;
	if (s->hostnqn && (!s_value_ok(s->hostnqn) || strlen(s->hostnqn) >= S_NQN_MAX))
		return -EINVAL;
	n = snprintf(buf, len, "nqn=%s,transport=tcp,traddr=%s,trsvcid=%s", s->subnqn, s->traddr,
		     svc);
	if (n >= 0 && (size_t)n < len && s->hostnqn)
		n += snprintf(buf + n, len - (size_t)n, ",hostnqn=%s", s->hostnqn);
	if (n >= 0 && (size_t)n < len && s->nr_io_queues)
		n += snprintf(buf + n, len - (size_t)n, ",nr_io_queues=%d", s->nr_io_queues);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}

int bc_nvme_tcp_parse_reply(const char *reply, int *instance, int *cntlid)
{
	const char *p = strstr(reply, "instance=");
	char *end;
	long v;

	if (!p)
		return -EINVAL;
	v = strtol(p + 9, &end, 10);
	if (end == p + 9 || v < 0 || v > INT_MAX || (*end && *end != ',' && *end != '\n'))
		return -EINVAL;
	*instance = (int)v;
	if (cntlid) {
		p = strstr(reply, "cntlid=");
		*cntlid = p ? atoi(p + 7) : -1;
	}
	return 0;
}

int bc_nvme_tcp_connect_fd(int fd, const char *opts, int *instance, int *cntlid)
{
	size_t len = strlen(opts);
	char reply[256];
	ssize_t n;

	/* one write: the kernel parses exactly what one write hands it */
	n = write(fd, opts, len);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	n = read(fd, reply, sizeof(reply) - 1);
	if (n < 0)
		return -errno;
	reply[n] = '\0';
	return bc_nvme_tcp_parse_reply(reply, instance, cntlid);
}

int bc_nvme_tcp_connect(const char *root, const struct bc_nvme_tcp_spec *s, int *instance,
			char *err, size_t errlen)
{
	char opts[1024], path[PATH_MAX];
	int fd, ret, cntlid;

	ret = bc_nvme_tcp_options(s, opts, sizeof(opts));
	if (ret < 0) {
		snprintf(err, errlen, "nvme_tcp %s: invalid traddr, trsvcid, subnqn or hostnqn",
			 s->traddr ? s->traddr : "(no traddr)");
		return ret;
	}
	snprintf(path, sizeof(path), "%s/dev/nvme-fabrics", root);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s': %s (is nvme-fabrics loaded?)", path,
			 strerror(-ret));
		return ret;
	}
	ret = bc_nvme_tcp_connect_fd(fd, opts, instance, &cntlid);
	close(fd);
	if (ret)
		snprintf(err, errlen, "nvme_tcp connect to %s:%s (%s) failed: %s", s->traddr,
			 s->trsvcid ? s->trsvcid : "4420", s->subnqn, strerror(-ret));
	return ret;
}

static int s_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* one look: 0 and name, -EAGAIN not (yet) there, -errno */
static int s_find_once(const char *root, int instance, char *name, size_t len)
{
	char dir[PATH_MAX], p[PATH_MAX + 16], state[32];
	struct dirent *e;
	int ret = -EAGAIN;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/sys/class/nvme/nvme%d", root, instance);
	snprintf(p, sizeof(p), "%s/state", dir);
	if (s_read_line(p, state, sizeof(state)))
		return -ENOENT;
	if (strcmp(state, "live"))
		return -EAGAIN;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		unsigned x, c, y;
		int n = -1;

		/* multipath path first: "nvme0c1n1" -> head "nvme0n1" */
		if (sscanf(e->d_name, "nvme%uc%un%u%n", &x, &c, &y, &n) == 3 && n > 0 &&
		    !e->d_name[n]) {
			snprintf(name, len, "nvme%un%u", x, y);
			ret = 0;
			break;
		}
		n = -1;
		if (sscanf(e->d_name, "nvme%un%u%n", &x, &y, &n) == 2 && n > 0 && !e->d_name[n]) {
			snprintf(name, len, "nvme%un%u", x, y);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

int bc_nvme_tcp_find_ns(const char *root, int instance, unsigned timeout_ms, char *name, size_t len)
{
	struct timespec nap = {0, 50 * 1000 * 1000};
	unsigned waited = 0;
	int ret;

	for (;;) {
		ret = s_find_once(root, instance, name, len);
		if (ret != -EAGAIN)
			return ret;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&nap, NULL);
		waited += 50;
	}
}

int bc_nvme_tcp_disconnect(const char *root, int instance)
{
	char p[PATH_MAX];
	int fd, ret = 0;

	snprintf(p, sizeof(p), "%s/sys/class/nvme/nvme%d/delete_controller", root, instance);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}
