/*
 * nvme/tcp.c - NVMe/TCP attach through /dev/nvme-fabrics and sysfs (see
 * nvme/tcp.h; kernel drivers/nvme/host/fabrics.c, libnvme fabrics.c and
 * filters.c; the connect options are those of the kernel's
 * nvmf_connect_opt_tokens).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nvme/tcp.h"
#include "util/log.h"
#include "wire/disc_msg.h"

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

/*
 * The ledger (bc_nvme_tcp_ledger_open): the controllers this agent connected
 * and has not disconnected yet, rewritten after every change. One agent
 * process, one control thread: no locking beyond the file lock that keeps a
 * second agent off the same ledger.
 */
#define S_LEDGER_MAX 64 /* controllers at once; more are connected but not recorded */
struct s_ledger_ent {
	int instance;
	int cntlid; /* from the connect reply; -1 unknown */
	/*
	 * st_ino of /sys/class/nvme/nvmeN right after the connect, 0 unknown:
	 * kernfs numbers its nodes cyclically (idr_alloc_cyclic in
	 * fs/kernfs/dir.c), so a controller made later under the same name -
	 * even to the same subsystem with the same cntlid - has another one
	 */
	unsigned long long ino;
	char subnqn[BC_NQN_MAX];
	char traddr[BC_TRADDR_MAX];
	char trsvcid[BC_TRSVCID_MAX + 1];
};
static struct {
	bool open;
	int lock_fd;
	char path[PATH_MAX];
	char boot[64]; /* /proc/sys/kernel/random/boot_id: instances are per boot */
	int n;
	struct s_ledger_ent e[S_LEDGER_MAX];
} s_led = {.lock_fd = -1};

static int s_read_line(const char *path, char *buf, size_t len);

/* the whole ledger to path.tmp, then renamed over path: 0 or -errno */
static int s_ledger_write(void)
{
	char tmp[PATH_MAX + 8];
	FILE *f;
	int i, ret = 0;

	/* nothing connected: no file (a scratch directory without NVMe/TCP stays clean) */
	if (!s_led.n)
		return unlink(s_led.path) && errno != ENOENT ? -errno : 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", s_led.path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f,
		"# bench-agent pid %d: NVMe/TCP controllers it connected\n"
		"# name subnqn traddr trsvcid cntlid sysfs_ino boot_id\n",
		(int)getpid());
	for (i = 0; i < s_led.n; i++)
		fprintf(f, "nvme%d %s %s %s %d %llu %s\n", s_led.e[i].instance, s_led.e[i].subnqn,
			s_led.e[i].traddr, s_led.e[i].trsvcid, s_led.e[i].cntlid, s_led.e[i].ino,
			s_led.boot);
	/* no fsync: the controllers do not outlive a power loss either */
	if (fflush(f) || ferror(f))
		ret = -errno ? -errno : -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, s_led.path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/* st_ino of root/sys/class/nvme/nvme<instance> (the symlink followed), 0 when unknown */
static unsigned long long s_ctrl_ino(const char *root, int instance)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/sys/class/nvme/nvme%d", root, instance);
	return stat(p, &st) ? 0 : (unsigned long long)st.st_ino;
}

static void s_ledger_add(const char *root, int instance, int cntlid,
			 const struct bc_nvme_tcp_spec *s)
{
	struct s_ledger_ent *e;
	int ret;

	if (!s_led.open)
		return;
	if (s_led.n == S_LEDGER_MAX) {
		bc_warn("cannot record nvme%d in '%s': %d controllers recorded already (a crash "
			"would leave it connected)",
			instance, s_led.path, S_LEDGER_MAX);
		return;
	}
	e = &s_led.e[s_led.n++];
	e->instance = instance;
	e->cntlid = cntlid;
	e->ino = s_ctrl_ino(root, instance);
	snprintf(e->subnqn, sizeof(e->subnqn), "%s", s->subnqn);
	snprintf(e->traddr, sizeof(e->traddr), "%s", s->traddr);
	snprintf(e->trsvcid, sizeof(e->trsvcid), "%s", s->trsvcid ? s->trsvcid : "4420");
	ret = s_ledger_write();
	if (ret)
		bc_warn("cannot record nvme%d in '%s': %s (a crash would leave it connected)",
			instance, s_led.path, strerror(-ret));
}

static void s_ledger_remove(int instance)
{
	int i, ret;

	if (!s_led.open)
		return;
	for (i = 0; i < s_led.n && s_led.e[i].instance != instance; i++)
		;
	if (i == s_led.n)
		return;
	s_led.e[i] = s_led.e[--s_led.n];
	ret = s_ledger_write();
	if (ret)
		bc_warn("cannot rewrite '%s' after disconnecting nvme%d: %s", s_led.path, instance,
			strerror(-ret));
}

/*
 * One line of a previous agent's ledger: disconnect the controller when it is
 * still the one that agent connected - same boot, nvmeN's sysfs node the
 * same (inode), and still a TCP controller to the same subsysnqn at the same
 * traddr/trsvcid (and cntlid, when both are known). Returns 1 disconnected, 0 left alone or gone,
 * -errno when the disconnect failed (the line is kept for the next start).
 */
static int s_leftover(const char *root, const char *line, struct s_ledger_ent *e)
{
	char dir[PATH_MAX], p[PATH_MAX + 32], v[512], a[BC_TRADDR_MAX], svc[BC_TRSVCID_MAX + 1];
	char boot[64];
	int ret;

	if (sscanf(line, "nvme%d %222s %255s %32s %d %llu %63s", &e->instance, e->subnqn, e->traddr,
		   e->trsvcid, &e->cntlid, &e->ino, boot) != 7 ||
	    e->instance < 0)
		return 0;
	if (strcmp(boot, s_led.boot)) {
		bc_debug("ledger: nvme%d is from another boot: ignored", e->instance);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/sys/class/nvme/nvme%d", root, e->instance);
	snprintf(p, sizeof(p), "%s/transport", dir);
	if (s_read_line(p, v, sizeof(v))) {
		bc_debug("ledger: nvme%d is gone already", e->instance);
		return 0;
	}
	if (strcmp(v, "tcp") || (e->ino && s_ctrl_ino(root, e->instance) != e->ino))
		goto other;
	snprintf(p, sizeof(p), "%s/subsysnqn", dir);
	if (s_read_line(p, v, sizeof(v)) || strcmp(v, e->subnqn))
		goto other;
	snprintf(p, sizeof(p), "%s/address", dir);
	if (s_read_line(p, v, sizeof(v)) || bc_nvme_addr_field(v, "traddr", a, sizeof(a)) ||
	    strcmp(a, e->traddr) || bc_nvme_addr_field(v, "trsvcid", svc, sizeof(svc)) ||
	    strcmp(svc, e->trsvcid))
		goto other;
	snprintf(p, sizeof(p), "%s/cntlid", dir);
	if (e->cntlid >= 0 && !s_read_line(p, v, sizeof(v)) && atoi(v) != e->cntlid)
		goto other;
	ret = bc_nvme_tcp_disconnect(root, e->instance);
	if (ret) {
		bc_warn(
		    "cannot disconnect nvme%d (%s:%s, %s), left connected by a bench-agent that "
		    "did not exit cleanly: %s",
		    e->instance, e->traddr, e->trsvcid, e->subnqn, strerror(-ret));
		return ret;
	}
	bc_info("disconnected nvme%d (%s:%s, %s): left connected by a bench-agent that did not "
		"exit cleanly",
		e->instance, e->traddr, e->trsvcid, e->subnqn);
	return 1;
other:
	bc_info("left nvme%d alone: it is no longer the controller to %s at %s:%s that a previous "
		"bench-agent connected",
		e->instance, e->subnqn, e->traddr, e->trsvcid);
	return 0;
}

int bc_nvme_tcp_ledger_open(const char *root, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], p[PATH_MAX], line[1024], *slash;
	int fd, ret, cleaned = 0;
	FILE *f;

	if (s_led.open)
		return -EALREADY;
	if (strlen(path) >= sizeof(s_led.path))
		return -ENAMETOOLONG;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	/* the directory is the lock: no lock file to leave behind */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", dir, strerror(-ret));
		return ret;
	}
	/* released by the kernel when the holder dies, SIGKILL included */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		snprintf(err, errlen, "cannot lock '%s': %s", dir,
			 ret == -EBUSY ? "another bench-agent uses this directory"
				       : strerror(-ret));
		close(fd);
		return ret;
	}
	memset(&s_led, 0, sizeof(s_led));
	s_led.lock_fd = fd;
	snprintf(s_led.path, sizeof(s_led.path), "%s", path);
	snprintf(p, sizeof(p), "%s/proc/sys/kernel/random/boot_id", root);
	if (s_read_line(p, s_led.boot, sizeof(s_led.boot)) || !s_led.boot[0] ||
	    strchr(s_led.boot, ' '))
		snprintf(s_led.boot, sizeof(s_led.boot), "-");
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		struct s_ledger_ent e;

		if (line[0] == '#')
			continue;
		ret = s_leftover(root, line, &e);
		if (ret > 0)
			cleaned++;
		/* a failed disconnect stays recorded: the next start tries again */
		else if (ret < 0 && s_led.n < S_LEDGER_MAX)
			s_led.e[s_led.n++] = e;
	}
	if (f)
		fclose(f);
	s_led.open = true;
	ret = s_ledger_write();
	if (ret) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
		bc_nvme_tcp_ledger_close();
		return ret;
	}
	return cleaned;
}

void bc_nvme_tcp_ledger_close(void)
{
	if (s_led.lock_fd >= 0)
		close(s_led.lock_fd);
	s_led.lock_fd = -1;
	s_led.open = false;
	s_led.n = 0;
}

int bc_nvme_tcp_ledger_count(void)
{
	return s_led.open ? s_led.n : -1;
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
	else
		s_ledger_add(root, *instance, cntlid, s);
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

int bc_nvme_tcp_disconnect(const char *root, int instance)
{
	char p[PATH_MAX];
	int fd, ret = 0;

	snprintf(p, sizeof(p), "%s/sys/class/nvme/nvme%d/delete_controller", root, instance);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		/* the controller is gone either way: nothing left to clean up after a crash */
		if (ret == -ENOENT)
			s_ledger_remove(instance);
		return ret;
	}
	if (write(fd, "1", 1) != 1)
		ret = -errno;
	close(fd);
	if (!ret)
		s_ledger_remove(instance);
	return ret;
}

int bc_nvme_tcp_find_ctrl(const char *root, const char *subnqn, const char *traddr,
			  const char *trsvcid)
{
	char dir[PATH_MAX], p[PATH_MAX + 32], v[512], a[BC_TRADDR_MAX], svc[BC_TRSVCID_MAX + 1];
	struct dirent *e;
	int ret = -ENOENT, n;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/sys/class/nvme", root);
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		int end = -1;

		if (sscanf(e->d_name, "nvme%d%n", &n, &end) != 1 || end < 0 || e->d_name[end])
			continue;
		snprintf(p, sizeof(p), "%s/%s/transport", dir, e->d_name);
		if (s_read_line(p, v, sizeof(v)) || strcmp(v, "tcp"))
			continue;
		snprintf(p, sizeof(p), "%s/%s/subsysnqn", dir, e->d_name);
		if (s_read_line(p, v, sizeof(v)) || strcmp(v, subnqn))
			continue;
		snprintf(p, sizeof(p), "%s/%s/address", dir, e->d_name);
		if (s_read_line(p, v, sizeof(v)) || bc_nvme_addr_field(v, "traddr", a, sizeof(a)) ||
		    strcmp(a, traddr) || bc_nvme_addr_field(v, "trsvcid", svc, sizeof(svc)) ||
		    strcmp(svc, trsvcid))
			continue;
		ret = n;
		break;
	}
	closedir(d);
	return ret;
}

/* the nsid of entry ent of controller dir: its own attribute, else the head's */
static uint32_t s_entry_nsid(const char *root, const char *dir, const char *ent, const char *head)
{
	char p[PATH_MAX + 64], v[32];

	snprintf(p, sizeof(p), "%s/%s/nsid", dir, ent);
	if (s_read_line(p, v, sizeof(v))) {
		snprintf(p, sizeof(p), "%s/sys/block/%s/nsid", root, head);
		if (s_read_line(p, v, sizeof(v)))
			return 0;
	}
	return (uint32_t)strtoul(v, NULL, 10);
}

/* one look for nsid (0: the lowest): 0 and name, -EAGAIN not (yet) there, -errno */
static int s_find_nsid_once(const char *root, int instance, uint32_t nsid, char *name, size_t len,
			    uint32_t *found)
{
	char dir[PATH_MAX], p[PATH_MAX + 16], state[32], head[32], best[32] = "";
	uint32_t best_id = 0;
	struct dirent *e;
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
		uint32_t id;

		/* a multipath path "nvme0c1n1" stands for the head "nvme0n1" */
		if (sscanf(e->d_name, "nvme%uc%un%u%n", &x, &c, &y, &n) == 3 && n > 0 &&
		    !e->d_name[n]) {
			snprintf(head, sizeof(head), "nvme%un%u", x, y);
		} else if (n = -1, sscanf(e->d_name, "nvme%un%u%n", &x, &y, &n) == 2 && n > 0 &&
				       !e->d_name[n]) {
			snprintf(head, sizeof(head), "nvme%un%u", x, y);
		} else {
			continue;
		}
		id = s_entry_nsid(root, dir, e->d_name, head);
		if (nsid ? id == nsid : (!best[0] || (id && id < best_id))) {
			snprintf(best, sizeof(best), "%s", head);
			best_id = id;
			if (nsid)
				break;
		}
	}
	closedir(d);
	if (!best[0])
		return -EAGAIN;
	snprintf(name, len, "%s", best);
	if (found)
		*found = best_id;
	return 0;
}

int bc_nvme_tcp_find_nsid(const char *root, int instance, uint32_t nsid, unsigned timeout_ms,
			  char *name, size_t len, uint32_t *found)
{
	struct timespec nap = {0, 50 * 1000 * 1000};
	unsigned waited = 0;
	int ret;

	for (;;) {
		ret = s_find_nsid_once(root, instance, nsid, name, len, found);
		if (ret != -EAGAIN)
			return ret;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&nap, NULL);
		waited += 50;
	}
}

int bc_nvme_tcp_find_ns(const char *root, int instance, unsigned timeout_ms, char *name, size_t len)
{
	return bc_nvme_tcp_find_nsid(root, instance, 0, timeout_ms, name, len, NULL);
}

int bc_nvme_disc_pick(const void *buf, size_t len, const char *subnqn,
		      struct bc_nvme_disc_entry *out, unsigned *seen)
{
	const uint8_t *b = buf;
	uint64_t genctr, numrec, i;
	uint16_t recfmt;

	*seen = 0;
	if (bc_nvme_parse_disc_header(buf, len, &genctr, &numrec, &recfmt))
		return -EINVAL;
	if (len < BC_NVME_DISC_ENTRY_BYTES)
		return -EINVAL;
	/* a list longer than what was read: look at what was read */
	if (numrec > len / BC_NVME_DISC_ENTRY_BYTES - 1)
		numrec = len / BC_NVME_DISC_ENTRY_BYTES - 1;
	for (i = 0; i < numrec; i++) {
		struct bc_nvme_disc_entry e;

		bc_nvme_parse_disc_entry(b + BC_NVME_DISC_ENTRY_BYTES * (i + 1),
					 BC_NVME_DISC_ENTRY_BYTES, &e);
		(*seen)++;
		/* trtype 3 = TCP, subtype 2 = NVM subsystem (NVMe-oF 1.1 Figure 38) */
		if (e.trtype == 3 && e.subtype == 2 && !strcmp(e.subnqn, subnqn)) {
			*out = e;
			return 0;
		}
	}
	return -ENOENT;
}

/* the discovery log of controller instance through its char device: 0 or -errno */
#define S_DISC_MAX 64 /* entries read; a subsystem list longer than this is cut */
static int s_read_disc_log(const char *root, int instance, void **logp, size_t *lenp)
{
	char dev[PATH_MAX];
	struct nvme_passthru_cmd c;
	uint64_t genctr, gen2, numrec;
	uint16_t recfmt;
	size_t len;
	uint8_t *buf = NULL;
	int fd, ret = -EIO, tries;

	snprintf(dev, sizeof(dev), "%s/dev/nvme%d", root, instance);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (posix_memalign((void **)&buf, 4096, BC_NVME_DISC_ENTRY_BYTES * (S_DISC_MAX + 1))) {
		close(fd);
		return -ENOMEM;
	}
	/* libnvme nvmf_get_discovery_log: header, entries, header again until genctr holds */
	for (tries = 0; tries < 4; tries++) {
		memset(buf, 0, BC_NVME_DISC_ENTRY_BYTES * (S_DISC_MAX + 1));
		bc_nvme_get_log(&c, BC_NVME_LID_DISCOVERY, 0, 0, 0, 0, 0, buf, 20);
		if ((ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c)))
			break;
		bc_nvme_parse_disc_header(buf, 20, &genctr, &numrec, &recfmt);
		if (numrec > S_DISC_MAX)
			numrec = S_DISC_MAX;
		len = BC_NVME_DISC_ENTRY_BYTES * (1 + numrec);
		if (numrec) {
			bc_nvme_get_log(&c, BC_NVME_LID_DISCOVERY, 0, 0, 0,
					BC_NVME_DISC_ENTRY_BYTES, 0, buf + BC_NVME_DISC_ENTRY_BYTES,
					(uint32_t)(numrec * BC_NVME_DISC_ENTRY_BYTES));
			if ((ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c)))
				break;
		}
		bc_nvme_get_log(&c, BC_NVME_LID_DISCOVERY, 0, 0, 0, 0, 0, buf, 20);
		if ((ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c)))
			break;
		bc_nvme_parse_disc_header(buf, 20, &gen2, &numrec, &recfmt);
		if (gen2 != genctr)
			continue;
		*logp = buf;
		*lenp = len;
		close(fd);
		return 0;
	}
	close(fd);
	free(buf);
	if (ret > 0)
		return -EIO; /* an NVMe status */
	return ret < 0 ? -errno : -EAGAIN;
}

static void s_fabric(const char *traddr, const char *trsvcid, char *buf, size_t len)
{
	snprintf(buf, len, strchr(traddr, ':') ? "[%s]:%s" : "%s:%s", traddr, trsvcid);
}

/* the subsystem's I/O address from the discovery controller at v's address */
static int s_discover(const char *root, const struct bc_nvme_tcp_vol *v,
		      struct bc_nvme_tcp_att *att, char *err, size_t errlen)
{
	struct bc_nvme_tcp_spec ds = {.traddr = v->traddr,
				      .trsvcid = v->trsvcid,
				      .subnqn = BC_NVME_DISC_NQN,
				      .hostnqn = v->hostnqn[0] ? v->hostnqn : NULL};
	struct bc_nvme_disc_entry e;
	char fab[320], why[512];
	void *log = NULL;
	size_t len = 0;
	unsigned seen = 0;
	int inst = -1, ret, dret;

	s_fabric(v->traddr, v->trsvcid, fab, sizeof(fab));
	ret = bc_nvme_tcp_connect(root, &ds, &inst, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "discovery at %s: %s", fab, why);
		return ret;
	}
	ret = s_read_disc_log(root, inst, &log, &len);
	/* the discovery controller is ours alone (the kernel sets duplicate_connect for it) */
	dret = bc_nvme_tcp_disconnect(root, inst);
	if (ret) {
		snprintf(err, errlen,
			 "discovery at %s: cannot read the discovery log from nvme%d: %s", fab,
			 inst, strerror(-ret));
		free(log);
		return ret;
	}
	ret = bc_nvme_disc_pick(log, len, v->subnqn, &e, &seen);
	free(log);
	if (ret) {
		snprintf(err, errlen, "discovery at %s: no TCP entry for subsystem %s among %u",
			 fab, v->subnqn, seen);
		return ret;
	}
	if (dret)
		snprintf(err, errlen,
			 "discovery at %s: cannot delete discovery controller nvme%d: %s", fab,
			 inst, strerror(-dret));
	snprintf(att->traddr, sizeof(att->traddr), "%s", e.traddr);
	snprintf(att->trsvcid, sizeof(att->trsvcid), "%s", e.trsvcid);
	att->discovered = true;
	return 0;
}

/* both device nodes exist: 0, or -ETIMEDOUT after timeout_ms */
static int s_wait_nodes(const char *a, const char *b, unsigned timeout_ms)
{
	struct timespec nap = {0, 50 * 1000 * 1000};
	unsigned waited = 0;

	while (access(a, F_OK) || access(b, F_OK)) {
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&nap, NULL);
		waited += 50;
	}
	return 0;
}

int bc_nvme_tcp_attach(const char *root, const struct bc_nvme_tcp_vol *v, unsigned timeout_ms,
		       struct bc_nvme_tcp_att *att, char *err, size_t errlen)
{
	struct bc_nvme_tcp_spec s = {.subnqn = v->subnqn,
				     .hostnqn = v->hostnqn[0] ? v->hostnqn : NULL,
				     .nr_io_queues = v->nr_io_queues};
	char fab[320], why[512], bdev[PATH_MAX];
	int ret, inst = -1;
	unsigned x, y;

	memset(att, 0, sizeof(*att));
	att->instance = -1;
	snprintf(att->traddr, sizeof(att->traddr), "%s", v->traddr);
	snprintf(att->trsvcid, sizeof(att->trsvcid), "%s", v->trsvcid);
	if (v->discover) {
		ret = s_discover(root, v, att, err, errlen);
		if (ret)
			return ret;
	}
	s.traddr = att->traddr;
	s.trsvcid = att->trsvcid;
	s_fabric(att->traddr, att->trsvcid, fab, sizeof(fab));
	ret = bc_nvme_tcp_find_ctrl(root, v->subnqn, att->traddr, att->trsvcid);
	if (ret >= 0) {
		att->instance = ret; /* someone else's: used, never disconnected */
	} else {
		ret = bc_nvme_tcp_connect(root, &s, &inst, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s", why);
			return ret;
		}
		att->instance = inst;
		att->owned = true;
	}
	ret = bc_nvme_tcp_find_nsid(root, att->instance, v->nsid, timeout_ms, att->block,
				    sizeof(att->block), &att->nsid);
	if (ret) {
		char ns[32] = "a namespace";

		if (v->nsid)
			snprintf(ns, sizeof(ns), "namespace %u", v->nsid);
		snprintf(err, errlen, "nvme_tcp %s (%s): controller nvme%d shows no %s%s: %s", fab,
			 v->subnqn, att->instance, ns, ret == -ETIMEDOUT ? " (or is not live)" : "",
			 strerror(-ret));
		return ret;
	}
	if (sscanf(att->block, "nvme%un%u", &x, &y) != 2)
		return -EINVAL;
	if (v->passthrough)
		snprintf(att->dev, sizeof(att->dev), "%s/dev/ng%un%u", root, x, y);
	else
		snprintf(att->dev, sizeof(att->dev), "%s/dev/%s", root, att->block);
	/*
	 * With native multipath the path entry (nvmeScCnN) shows before the
	 * kernel has added the head's disk: wait for the device nodes the
	 * step opens (the block device too: the safety checks and the
	 * passthrough target's O_EXCL claim use it).
	 */
	snprintf(bdev, sizeof(bdev), "%s/dev/%s", root, att->block);
	ret = s_wait_nodes(att->dev, bdev, timeout_ms);
	if (ret)
		snprintf(err, errlen, "nvme_tcp %s (%s): namespace %s of nvme%d has no %s yet: %s",
			 fab, v->subnqn, att->block, att->instance,
			 access(att->dev, F_OK) ? att->dev : bdev, strerror(-ret));
	return ret;
}

int bc_nvme_tcp_detach(const char *root, struct bc_nvme_tcp_att *att)
{
	int ret = 0;

	if (att->instance >= 0 && att->owned)
		ret = bc_nvme_tcp_disconnect(root, att->instance);
	att->instance = -1;
	att->owned = false;
	return ret;
}

int bc_nvme_tcp_detach_all(const char *root, struct bc_nvme_tcp_att *att, int n)
{
	int i, inst, rc, failed = 0;
	bool owned;

	for (i = 0; i < n; i++) {
		inst = att[i].instance;
		owned = att[i].owned;
		if (inst < 0)
			continue;
		rc = bc_nvme_tcp_detach(root, &att[i]);
		if (rc) {
			failed++;
			bc_warn("volumes[%d]: cannot disconnect nvme%d (%s:%s): %s", i, inst,
				att[i].traddr, att[i].trsvcid, strerror(-rc));
		} else if (owned) {
			bc_info("volumes[%d]: disconnected nvme%d (%s:%s)", i, inst, att[i].traddr,
				att[i].trsvcid);
		} else {
			bc_info("volumes[%d]: left nvme%d (%s:%s) connected: this volume did not "
				"connect it",
				i, inst, att[i].traddr, att[i].trsvcid);
		}
	}
	return failed;
}

cJSON *bc_nvme_tcp_att_json(const struct bc_nvme_tcp_att *att)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "controller", att->instance);
	cJSON_AddBoolToObject(o, "connected_by_agent", att->owned);
	cJSON_AddStringToObject(o, "device", att->dev);
	cJSON_AddStringToObject(o, "block", att->block);
	cJSON_AddNumberToObject(o, "nsid", att->nsid);
	cJSON_AddStringToObject(o, "traddr", att->traddr);
	cJSON_AddStringToObject(o, "trsvcid", att->trsvcid);
	cJSON_AddBoolToObject(o, "discovered", att->discovered);
	return o;
}

cJSON *bc_nvme_tcp_disc_list(const char *root, const struct bc_disc_req *r, char *err,
			     size_t errlen)
{
	struct bc_nvme_tcp_spec ds = {.traddr = r->traddr,
				      .trsvcid = r->trsvcid,
				      .subnqn = BC_NVME_DISC_NQN,
				      .hostnqn = r->hostnqn[0] ? r->hostnqn : NULL};
	uint64_t genctr = 0, numrec = 0, i;
	char fab[320], why[512];
	cJSON *reply = NULL, *arr;
	uint16_t recfmt;
	bool owned = false;
	void *log = NULL;
	size_t len = 0;
	int inst, ret, dret = 0;

	s_fabric(r->traddr, r->trsvcid, fab, sizeof(fab));
	/* a persistent discovery controller (nvme discover -p) is read, not replaced */
	inst = bc_nvme_tcp_find_ctrl(root, BC_NVME_DISC_NQN, r->traddr, r->trsvcid);
	if (inst < 0) {
		ret = bc_nvme_tcp_connect(root, &ds, &inst, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "discovery at %s: %s", fab, why);
			return NULL;
		}
		owned = true;
	}
	ret = s_read_disc_log(root, inst, &log, &len);
	if (owned)
		dret = bc_nvme_tcp_disconnect(root, inst);
	if (dret)
		bc_warn("discovery at %s: cannot delete discovery controller nvme%d: %s", fab, inst,
			strerror(-dret));
	if (ret) {
		snprintf(err, errlen,
			 "discovery at %s: cannot read the discovery log from nvme%d: %s", fab,
			 inst, strerror(-ret));
		goto out;
	}
	bc_nvme_parse_disc_header(log, len, &genctr, &numrec, &recfmt);
	if (numrec > len / BC_NVME_DISC_ENTRY_BYTES - 1)
		numrec = len / BC_NVME_DISC_ENTRY_BYTES - 1;
	reply = cJSON_CreateObject();
	arr = cJSON_CreateArray();
	if (!reply || !arr) {
		cJSON_Delete(reply);
		cJSON_Delete(arr);
		reply = NULL;
		snprintf(err, errlen, "discovery at %s: out of memory", fab);
		goto out;
	}
	cJSON_AddStringToObject(reply, "traddr", r->traddr);
	cJSON_AddStringToObject(reply, "trsvcid", r->trsvcid);
	cJSON_AddNumberToObject(reply, "controller", inst);
	cJSON_AddBoolToObject(reply, "connected_by_agent", owned);
	cJSON_AddNumberToObject(reply, "genctr", (double)genctr);
	for (i = 0; i < numrec; i++) {
		struct bc_nvme_disc_entry e;
		struct bc_disc_rec d = {0};

		bc_nvme_parse_disc_entry((uint8_t *)log + BC_NVME_DISC_ENTRY_BYTES * (i + 1),
					 BC_NVME_DISC_ENTRY_BYTES, &e);
		d.trtype = e.trtype;
		d.adrfam = e.adrfam;
		d.subtype = e.subtype;
		d.portid = e.portid;
		snprintf(d.traddr, sizeof(d.traddr), "%s", e.traddr);
		snprintf(d.trsvcid, sizeof(d.trsvcid), "%s", e.trsvcid);
		snprintf(d.subnqn, sizeof(d.subnqn), "%s", e.subnqn);
		cJSON_AddItemToArray(arr, bc_disc_rec_to_json(&d));
	}
	cJSON_AddItemToObject(reply, "entries", arr);
out:
	free(log);
	return reply;
}
