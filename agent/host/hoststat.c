/*
 * host/hoststat.c - client host counters from procfs/sysfs into a bc_hostsnap:
 * /proc/stat (per-cpu modes in USER_HZ ticks), /proc/net/dev and
 * /sys/class/net/<if>/speed (Mb/s), /proc/diskstats (512-byte sectors and
 * milliseconds, Documentation/admin-guide/iostats.rst), /proc/meminfo,
 * /proc/loadavg, /proc/net/softnet_stat and /proc/net/snmp.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "figures/hostfig.h"
#include "host/hoststat.h"
#include "util/clock.h"

/* figures kept for intervals whose STATS has not gone out: a few seconds' worth */
#define S_READY 8
/* an interval closed early needs this much time to say anything */
#define S_MIN_SAMPLE_NS (10 * BC_NS_PER_MS)

struct bc_hoststat {
	char root[PATH_MAX]; /* "" or a fixture tree */
	char (*devs)[BC_HF_NAME];
	int ndevs;
	double hz; /* USER_HZ */
	struct bc_hostsnap prev, cur;
	/* boundary sampling (bc_hoststat_schedule) */
	bool scheduled, have_base;
	uint64_t start_mono_ns, prev_mono_ns; /* boundary 0; when prev was read */
	uint32_t seconds, next;		      /* boundaries 0..seconds; the next one to read */
	uint64_t second_ns; /* between boundaries (bc_hoststat_set_second); 0: 1 s */
	/* the host before the step (PREPARE to START), attached to interval 0 */
	double base_busy, base_agent, base_load1, base_s;
	struct {
		uint32_t k;
		cJSON *fig; /* NULL: free slot */
	} ready[S_READY];
};

static FILE *s_open(const struct bc_hoststat *h, const char *path)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s%s", h->root, path);
	return fopen(p, "re");
}

static int s_read_stat(struct bc_hoststat *h, struct bc_hostsnap *s)
{
	FILE *f = s_open(h, "/proc/stat");
	char line[512];
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[BC_CPU_MODE_NR] = {0};
		int cpu, n, m;

		/* "cpu " is the sum; "cpuN" are the cores */
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n < 5)
			continue;
		for (m = 0; m < BC_CPU_MODE_NR && m < n - 1; m++) {
			rc = bc_hostsnap_cpu_set(s, cpu, (enum bc_cpu_mode)m, (double)v[m] / h->hz);
			if (rc)
				goto out;
		}
	}
out:
	fclose(f);
	return rc;
}

/* link speed in bytes/s: sysfs says Mb/s, -1 or EINVAL when unknown (down, virtual) */
static double s_speed(const struct bc_hoststat *h, const char *ifname)
{
	char p[128];
	FILE *f;
	long mbps = -1;

	snprintf(p, sizeof(p), "/sys/class/net/%s/speed", ifname);
	f = s_open(h, p);
	if (!f)
		return NAN;
	if (fscanf(f, "%ld", &mbps) != 1)
		mbps = -1;
	fclose(f);
	return mbps > 0 ? (double)mbps * 1e6 / 8 : NAN;
}

/* a number from /sys/class/net/<if>/<file>, NaN when absent */
static double s_sysnet_num(const struct bc_hoststat *h, const char *ifname, const char *file)
{
	char p[128];
	FILE *f;
	double v = NAN;

	snprintf(p, sizeof(p), "/sys/class/net/%s/%s", ifname, file);
	f = s_open(h, p);
	if (!f)
		return NAN;
	if (fscanf(f, "%lf", &v) != 1)
		v = NAN;
	fclose(f);
	return v;
}

/* the last component of what the symlink at path points to; out is left alone without one */
static void s_link_base(const char *path, char *out, size_t len)
{
	char t[PATH_MAX];
	const char *base;
	ssize_t n = readlink(path, t, sizeof(t) - 1);

	if (n <= 0)
		return;
	t[n] = '\0';
	base = strrchr(t, '/');
	snprintf(out, len, "%s", base ? base + 1 : t);
}

/* the bond or team an interface is enslaved to: /sys/class/net/<if>/master links to it */
static void s_master(const struct bc_hoststat *h, const char *ifname, char *out, size_t len)
{
	char p[PATH_MAX + 64];

	out[0] = '\0';
	snprintf(p, sizeof(p), "%s/sys/class/net/%s/master", h->root, ifname);
	s_link_base(p, out, len);
}

static void s_read_netdev(struct bc_hoststat *h, struct bc_hostsnap *s)
{
	FILE *f = s_open(h, "/proc/net/dev");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long rx, rxp, rxe, rxd, tx, txp, txe, txd;
		char *colon = strchr(line, ':'), *name = line;
		struct bc_hostsnap_nic *n;

		if (!colon)
			continue; /* the two header lines */
		*colon = '\0';
		while (*name == ' ')
			name++;
		if (sscanf(colon + 1, "%llu %llu %llu %llu %*u %*u %*u %*u %llu %llu %llu %llu",
			   &rx, &rxp, &rxe, &rxd, &tx, &txp, &txe, &txd) != 8)
			continue;
		/* loopback stays: local agents' traffic is on it */
		if (strcmp(name, "lo") && bc_hostfig_virtual_nic(name))
			continue;
		n = bc_hostsnap_nic(s, name);
		if (!n)
			continue;
		n->rx_bytes = (double)rx;
		n->tx_bytes = (double)tx;
		n->rx_drop = (double)rxd;
		n->tx_drop = (double)txd;
		n->speed_bytes = s_speed(h, name);
		n->mtu = s_sysnet_num(h, name, "mtu");
		s_master(h, name, n->master, sizeof(n->master));
	}
	fclose(f);
}

/* utime + stime of a /proc stat line, in seconds; the comm in parentheses may hold anything */
static double s_stat_cpu(const struct bc_hoststat *h, const char *path, char *comm, size_t len)
{
	char line[1024], *open_p, *close_p;
	unsigned long long ut, st;
	FILE *f = s_open(h, path);
	bool ok;

	if (!f)
		return NAN;
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	open_p = ok ? strchr(line, '(') : NULL;
	close_p = ok ? strrchr(line, ')') : NULL;
	if (!open_p || !close_p || close_p < open_p)
		return NAN;
	if (comm)
		snprintf(comm, len, "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	/* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
	 * stime */
	if (sscanf(close_p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
		   &st) != 2)
		return NAN;
	return (double)(ut + st) / h->hz;
}

/*
 * The agent's own CPU: the process (dead threads included) and, per live
 * thread, its job threads and its io_uring workers, which are threads of
 * the process too (iou-wrk-<tid>, and iou-sqp-<tid> with SQPOLL).
 */
static void s_read_self(struct bc_hoststat *h, struct bc_hostsnap *s)
{
	char dir[PATH_MAX], path[128], comm[64];
	struct dirent *e;
	DIR *d;

	s->proc_cpu_s = s_stat_cpu(h, "/proc/self/stat", NULL, 0);
	if (isnan(s->proc_cpu_s))
		return;
	snprintf(dir, sizeof(dir), "%s/proc/self/task", h->root);
	d = opendir(dir);
	if (!d)
		return;
	s->proc_jobs_cpu_s = s->proc_iou_cpu_s = 0;
	while ((e = readdir(d))) {
		double v;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.32s/stat", e->d_name);
		v = s_stat_cpu(h, path, comm, sizeof(comm));
		if (isnan(v))
			continue; /* exited since readdir */
		if (!strncmp(comm, "bc-job-", 7))
			s->proc_jobs_cpu_s += v;
		else if (!strncmp(comm, "iou-", 4))
			s->proc_iou_cpu_s += v;
	}
	closedir(d);
}

static void s_read_diskstats(struct bc_hoststat *h, struct bc_hostsnap *s)
{
	FILE *f;
	char line[512];

	if (!h->ndevs)
		return;
	f = s_open(h, "/proc/diskstats");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[11];
		char name[BC_HF_NAME];
		struct bc_hostsnap_disk *d;
		int i;

		if (sscanf(line,
			   " %*u %*u %31s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
			   &v[9], &v[10]) != 12)
			continue;
		for (i = 0; i < h->ndevs && strcmp(h->devs[i], name); i++)
			;
		if (i == h->ndevs || !(d = bc_hostsnap_disk(s, name)))
			continue;
		d->reads = (double)v[0];
		d->rd_bytes = (double)v[2] * 512;
		d->rd_time_s = (double)v[3] / 1e3;
		d->writes = (double)v[4];
		d->wr_bytes = (double)v[6] * 512;
		d->wr_time_s = (double)v[7] / 1e3;
		d->io_time_s = (double)v[9] / 1e3;
		d->io_wtime_s = (double)v[10] / 1e3;
	}
	fclose(f);
}

static void s_read_misc(struct bc_hoststat *h, struct bc_hostsnap *s)
{
	char line[1024], hdr[1024];
	FILE *f;

	if ((f = s_open(h, "/proc/meminfo"))) {
		while (fgets(line, sizeof(line), f)) {
			unsigned long long kb;

			if (sscanf(line, "MemTotal: %llu", &kb) == 1)
				s->mem_total = (double)kb * 1024;
			else if (sscanf(line, "MemAvailable: %llu", &kb) == 1)
				s->mem_avail = (double)kb * 1024;
		}
		fclose(f);
	}
	if ((f = s_open(h, "/proc/sys/kernel/osrelease"))) {
		if (fgets(s->kernel, sizeof(s->kernel), f))
			s->kernel[strcspn(s->kernel, "\n")] = '\0';
		fclose(f);
	}
	if ((f = s_open(h, "/proc/loadavg"))) {
		if (fscanf(f, "%lf", &s->load1) != 1)
			s->load1 = NAN;
		fclose(f);
	}
	if ((f = s_open(h, "/proc/net/softnet_stat"))) {
		/* one line per cpu, hex: processed, dropped, time_squeeze, ... */
		s->softnet_dropped = s->softnet_squeezed = 0;
		while (fgets(line, sizeof(line), f)) {
			unsigned int processed, dropped, squeezed;

			if (sscanf(line, "%x %x %x", &processed, &dropped, &squeezed) == 3) {
				s->softnet_dropped += dropped;
				s->softnet_squeezed += squeezed;
			}
		}
		fclose(f);
	}
	if ((f = s_open(h, "/proc/net/snmp"))) {
		/* "Tcp: <names>" then "Tcp: <values>" */
		hdr[0] = '\0';
		while (fgets(line, sizeof(line), f)) {
			char *hs, *vs, *ht, *vt;

			if (strncmp(line, "Tcp:", 4))
				continue;
			if (!hdr[0]) {
				snprintf(hdr, sizeof(hdr), "%s", line);
				continue;
			}
			ht = strtok_r(hdr, " \n", &hs);
			vt = strtok_r(line, " \n", &vs);
			while (ht && vt) {
				if (!strcmp(ht, "RetransSegs"))
					s->tcp_retrans = strtod(vt, NULL);
				else if (!strcmp(ht, "OutSegs"))
					s->tcp_out = strtod(vt, NULL);
				ht = strtok_r(NULL, " \n", &hs);
				vt = strtok_r(NULL, " \n", &vs);
			}
			break;
		}
		fclose(f);
	}
}

static int s_read(struct bc_hoststat *h, struct bc_hostsnap *s)
{
	int rc;

	bc_hostsnap_reset(s);
	s->t_ns = bc_real_ns();
	rc = s_read_stat(h, s);
	if (rc)
		return rc;
	s_read_netdev(h, s);
	s_read_diskstats(h, s);
	s_read_misc(h, s);
	s_read_self(h, s);
	return 0;
}

/*
 * The kernel's name for a device path: a block device's own name, or for a
 * file the device holding its filesystem, through /sys/dev/block/MAJ:MIN.
 */
static void s_dev_name(const struct bc_hoststat *h, const char *path, char out[BC_HF_NAME])
{
	char link[PATH_MAX];
	const char *base = strrchr(path, '/');
	struct stat st;

	snprintf(out, BC_HF_NAME, "%s", base ? base + 1 : path);
	if (h->root[0] || stat(path, &st))
		return;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		 major(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev),
		 minor(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev));
	s_link_base(link, out, BC_HF_NAME);
}

struct bc_hoststat *bc_hoststat_new_at(const char *root, const char *const *devices, int n)
{
	struct bc_hoststat *h = calloc(1, sizeof(*h));
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	if (!h)
		return NULL;
	snprintf(h->root, sizeof(h->root), "%s", root ? root : "");
	h->base_busy = h->base_agent = h->base_load1 = h->base_s = NAN;
	h->hz = hz > 0 ? (double)hz : 100.0;
	bc_hostsnap_init(&h->prev);
	bc_hostsnap_init(&h->cur);
	if (n > 0) {
		h->devs = calloc((size_t)n, sizeof(*h->devs));
		if (!h->devs)
			goto fail;
		for (i = 0; i < n; i++)
			s_dev_name(h, devices[i], h->devs[h->ndevs++]);
	}
	if (s_read(h, &h->prev))
		goto fail;
	return h;
fail:
	bc_hoststat_destroy(&h);
	return NULL;
}

struct bc_hoststat *bc_hoststat_new(const char *const *devices, int n)
{
	return bc_hoststat_new_at(NULL, devices, n);
}

cJSON *bc_hoststat_sample_json(struct bc_hoststat *h)
{
	struct bc_hostfig *fig;
	struct bc_hostsnap tmp;
	cJSON *j = NULL;

	if (!h || s_read(h, &h->cur))
		return NULL;
	fig = malloc(sizeof(*fig));
	if (fig && !bc_hostfig_compute(&h->prev, &h->cur, NULL, fig))
		j = bc_hostfig_json(fig, true);
	free(fig);
	/* the new sample is the next interval's start: swap, keeping both allocations */
	tmp = h->prev;
	h->prev = h->cur;
	h->cur = tmp;
	return j;
}

static void s_forget(struct bc_hoststat *h)
{
	int i;

	for (i = 0; i < S_READY; i++) {
		cJSON_Delete(h->ready[i].fig);
		h->ready[i].fig = NULL;
	}
}

/*
 * The host between the last read (PREPARE, or the step before) and now,
 * before any I/O of this step: what other processes use, so a client whose
 * CPU was busy before the load came is not taken for one the load made busy.
 */
static void s_baseline(struct bc_hoststat *h)
{
	struct bc_hostfig *fig = malloc(sizeof(*fig));

	h->base_busy = h->base_agent = h->base_load1 = h->base_s = NAN;
	if (fig && h->prev.t_ns && !s_read(h, &h->cur) &&
	    !bc_hostfig_compute(&h->prev, &h->cur, NULL, fig) && fig->dt_s >= 0.1) {
		h->base_busy = fig->cpu_busy;
		h->base_agent = fig->agent_cpu;
		h->base_load1 = fig->load1;
		h->base_s = fig->dt_s;
	}
	free(fig);
}

static uint64_t s_second(const struct bc_hoststat *h)
{
	return h->second_ns ? h->second_ns : BC_NS_PER_S;
}

void bc_hoststat_set_second(struct bc_hoststat *h, uint64_t second_ns)
{
	if (h)
		h->second_ns = second_ns;
}

void bc_hoststat_schedule(struct bc_hoststat *h, uint64_t start_mono_ns, uint32_t seconds)
{
	if (!h)
		return;
	s_forget(h);
	s_baseline(h);
	h->scheduled = true;
	h->have_base = false;
	h->start_mono_ns = start_mono_ns;
	h->seconds = seconds;
	h->next = 0;
}

static double s_since_start(const struct bc_hoststat *h, uint64_t mono_ns)
{
	return ((double)mono_ns - (double)h->start_mono_ns) / (double)BC_NS_PER_S;
}

/* read the counters at now: the baseline, or the end of interval k (kept in ready) */
static void s_boundary(struct bc_hoststat *h, bool base, uint32_t k, uint64_t now)
{
	cJSON *j;
	int slot = (int)(k % S_READY);

	if (base) {
		if (!s_read(h, &h->prev)) {
			h->have_base = true;
			h->prev_mono_ns = now;
		}
		return;
	}
	j = bc_hoststat_sample_json(h);
	if (!j)
		return;
	cJSON_AddNumberToObject(j, "t0_s", round(s_since_start(h, h->prev_mono_ns) * 1e4) / 1e4);
	cJSON_AddNumberToObject(j, "t1_s", round(s_since_start(h, now) * 1e4) / 1e4);
	if (k == 0 && !isnan(h->base_s)) {
		cJSON_AddItemToObject(j, "baseline_s", bc_hostfig_num(h->base_s));
		cJSON_AddItemToObject(j, "baseline_cpu_busy_pct",
				      bc_hostfig_num(100 * h->base_busy));
		cJSON_AddItemToObject(j, "baseline_agent_cpu_pct",
				      bc_hostfig_num(100 * h->base_agent));
		cJSON_AddItemToObject(j, "baseline_load1", bc_hostfig_num(h->base_load1));
	}
	h->prev_mono_ns = now;
	/* an interval nobody took in S_READY seconds is dropped for the new one */
	cJSON_Delete(h->ready[slot].fig);
	h->ready[slot].k = k;
	h->ready[slot].fig = j;
}

uint64_t bc_hoststat_poll(struct bc_hoststat *h, uint64_t now)
{
	uint64_t b, last;

	if (!h || !h->scheduled || h->next > h->seconds)
		return UINT64_MAX;
	b = h->start_mono_ns + (uint64_t)h->next * s_second(h);
	if (now < b)
		return b - now;
	/* the latest boundary passed; any before it were missed and stay without figures */
	last = (now - h->start_mono_ns) / s_second(h);
	if (last > h->seconds)
		last = h->seconds;
	if (!h->have_base || last == 0)
		s_boundary(h, true, 0, now);
	else
		s_boundary(h, false, (uint32_t)last - 1, now);
	h->next = (uint32_t)last + 1;
	if (h->next > h->seconds)
		return UINT64_MAX;
	return h->start_mono_ns + (uint64_t)h->next * s_second(h) - now;
}

cJSON *bc_hoststat_take(struct bc_hoststat *h, uint32_t k, uint64_t now)
{
	int slot = (int)(k % S_READY);
	cJSON *j;

	if (!h || !h->scheduled)
		return NULL;
	if (h->ready[slot].fig && h->ready[slot].k == k) {
		j = h->ready[slot].fig;
		h->ready[slot].fig = NULL;
		return j;
	}
	/* its closing boundary passed, and its figures were missed or dropped */
	if (k + 1 < h->next || !h->have_base || now < h->prev_mono_ns + S_MIN_SAMPLE_NS)
		return NULL;
	/* sealed before its boundary: close it now, and the next interval starts here */
	s_boundary(h, false, k, now);
	h->next = k + 2;
	j = h->ready[slot].fig;
	h->ready[slot].fig = NULL;
	return j;
}

void bc_hoststat_destroy(struct bc_hoststat **hp)
{
	struct bc_hoststat *h = hp ? *hp : NULL;

	if (!h)
		return;
	s_forget(h);
	bc_hostsnap_free(&h->prev);
	bc_hostsnap_free(&h->cur);
	free(h->devs);
	free(h);
	*hp = NULL;
}
