/*
 * proctop.c - per-process CPU from /proc/<pid>/stat (proc(5): fields 14-15
 * utime and stime of the thread group, 22 starttime, in clock ticks), PSI
 * from /proc/pressure/cpu (Documentation/accounting/psi.rst).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/grow.h"
#include "host/proctop.h"

#define S_MIN_NS (50 * BC_NS_PER_MS)

/* one /proc/<pid>/stat into p; 0 or -1 (gone, kernel thread with no CPU yet is kept) */
static int s_stat(const char *root, pid_t pid, double hz, struct bc_proctop_proc *p)
{
	char path[512], buf[1024], *rp;
	unsigned long long ut, st, start;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/proc/%d/stat", root, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* "pid (comm) state ...": comm may hold spaces and parentheses, so from the last ')' */
	rp = strrchr(buf, ')');
	if (!rp || !strchr(buf, '('))
		return -1;
	n = (size_t)(rp - strchr(buf, '(') - 1);
	if (n >= sizeof(p->comm))
		n = sizeof(p->comm) - 1;
	memcpy(p->comm, strchr(buf, '(') + 1, n);
	p->comm[n] = 0;
	/* after ')': state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	 * utime(14) stime(15) ... starttime(22) */
	if (sscanf(rp + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d "
		   "%llu",
		   &ut, &st, &start) != 3)
		return -1;
	p->pid = pid;
	p->start = start;
	p->cpu_s = (double)(ut + st) / hz;
	return 0;
}

static void s_psi(const char *root, struct bc_proctop_snap *s)
{
	char path[512], line[256];
	FILE *f;

	s->psi_some_s = s->psi_some_avg10 = NAN;
	snprintf(path, sizeof(path), "%s/proc/pressure/cpu", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		double avg10;
		unsigned long long total;

		if (sscanf(line, "some avg10=%lf avg60=%*f avg300=%*f total=%llu", &avg10,
			   &total) == 2) {
			s->psi_some_avg10 = avg10;
			s->psi_some_s = (double)total / 1e6; /* microseconds */
		}
	}
	fclose(f);
}

static void s_running(const char *root, struct bc_proctop_snap *s)
{
	char path[512], line[256];
	FILE *f;

	s->procs_running = -1;
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "procs_running %d", &s->procs_running) == 1)
			break;
	fclose(f);
}

static int s_cmp(const void *a, const void *b)
{
	const struct bc_proctop_proc *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

int bc_proctop_read(const char *root, struct bc_proctop_snap *s)
{
	char path[512];
	struct dirent *e;
	double hz = (double)sysconf(_SC_CLK_TCK);
	DIR *d;

	s->n = 0;
	s->t_ns = bc_mono_ns();
	s->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	s_psi(root, s);
	s_running(root, s);
	snprintf(path, sizeof(path), "%s/proc", root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		struct bc_proctop_proc p;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		p.counted = false;
		if (s_stat(root, (pid_t)atoi(e->d_name), hz > 0 ? hz : 100, &p))
			continue;
		if (bc_grow(&s->p, s->n, &s->cap, sizeof(*s->p), 512)) {
			closedir(d);
			return -ENOMEM;
		}
		s->p[s->n++] = p;
	}
	closedir(d);
	if (s->n)
		qsort(s->p, (size_t)s->n, sizeof(*s->p), s_cmp);
	return 0;
}

void bc_proctop_free(struct bc_proctop_snap *s)
{
	free(s->p);
	memset(s, 0, sizeof(*s));
}

static const struct bc_proctop_proc *s_find(const struct bc_proctop_snap *s, pid_t pid)
{
	struct bc_proctop_proc k = {.pid = pid};

	return s->n ? bsearch(&k, s->p, (size_t)s->n, sizeof(k), s_cmp) : NULL;
}

static struct bc_proctop_cmd *s_cmd(struct bc_proctop *t, const char *comm)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->cmd[i].comm, comm))
			return &t->cmd[i];
	if (bc_grow(&t->cmd, t->n, &t->cap, sizeof(*t->cmd), 64))
		return NULL;
	memset(&t->cmd[t->n], 0, sizeof(t->cmd[t->n]));
	snprintf(t->cmd[t->n].comm, sizeof(t->cmd[t->n].comm), "%s", comm);
	return &t->cmd[t->n++];
}

int bc_proctop_begin(struct bc_proctop *t, const char *root, pid_t self)
{
	int rc;

	snprintf(t->root, sizeof(t->root), "%s", root);
	t->self = self;
	t->n = 0;
	t->run_sum = 0;
	t->run_n = 0;
	rc = bc_proctop_read(t->root, &t->prev);
	t->t0_ns = t->prev.t_ns;
	t->psi0_s = t->prev.psi_some_s;
	t->cur.n = 0;
	t->cur.t_ns = 0;
	return rc;
}

int bc_proctop_sample(struct bc_proctop *t)
{
	struct bc_proctop_snap tmp;
	int i, rc = bc_proctop_read(t->root, &t->cur);

	if (rc)
		return rc;
	if (t->cur.procs_running >= 0) {
		t->run_sum += t->cur.procs_running;
		t->run_n++;
	}
	for (i = 0; i < t->cur.n; i++) {
		struct bc_proctop_proc *q = &t->cur.p[i];
		const struct bc_proctop_proc *p0 = s_find(&t->prev, q->pid);
		bool same = p0 && p0->start == q->start;
		double used;
		struct bc_proctop_cmd *c;

		if (q->pid == t->self)
			continue;
		/* seen before: what it used since; new (or a reused pid): its whole life */
		used = same ? q->cpu_s - p0->cpu_s : q->cpu_s;
		q->counted = same && p0->counted;
		if (used <= 0 || !(c = s_cmd(t, q->comm)))
			continue;
		c->cpu_s += used;
		if (!q->counted)
			c->procs++;
		q->counted = true;
		if (used > c->pid_cpu_s) {
			c->pid_cpu_s = used;
			c->pid = q->pid;
		}
	}
	/* cur becomes prev; the old prev's array is reused for the next read */
	tmp = t->prev;
	t->prev = t->cur;
	t->cur = tmp;
	return 0;
}

void bc_proctop_destroy(struct bc_proctop *t)
{
	bc_proctop_free(&t->prev);
	bc_proctop_free(&t->cur);
	free(t->cmd);
	memset(t, 0, sizeof(*t));
}

static int s_by_cpu(const void *a, const void *b)
{
	const struct bc_proctop_cmd *x = a, *y = b;

	return (x->cpu_s < y->cpu_s) - (x->cpu_s > y->cpu_s);
}

cJSON *bc_proctop_json(const struct bc_proctop *t, int n)
{
	const struct bc_proctop_snap *b = &t->prev;
	double dt = ((double)b->t_ns - (double)t->t0_ns) / 1e9, others = 0;
	int i, ncpu = b->ncpu > 0 ? b->ncpu : 1;
	struct bc_proctop_cmd *sorted;
	cJSON *o, *arr;

	if (b->t_ns < t->t0_ns + S_MIN_NS)
		return NULL;
	sorted = malloc(((size_t)t->n + 1) * sizeof(*sorted));
	if (!sorted)
		return NULL;
	/* no other process used the CPU (a quiet host): t->cmd is NULL, nothing to copy */
	if (t->n) {
		memcpy(sorted, t->cmd, (size_t)t->n * sizeof(*sorted));
		qsort(sorted, (size_t)t->n, sizeof(*sorted), s_by_cpu);
	}
	for (i = 0; i < t->n; i++)
		others += sorted[i].cpu_s;
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "seconds", round(dt * 1000) / 1000);
	cJSON_AddNumberToObject(o, "ncpu", ncpu);
	if (b->procs_running >= 0)
		cJSON_AddNumberToObject(o, "procs_running", b->procs_running);
	if (t->run_n)
		cJSON_AddNumberToObject(o, "procs_running_mean",
					round(100 * t->run_sum / t->run_n) / 100);
	if (!isnan(t->psi0_s) && !isnan(b->psi_some_s) && b->psi_some_s >= t->psi0_s)
		cJSON_AddNumberToObject(o, "cpu_pressure_pct",
					round(1000 * fmin(1, (b->psi_some_s - t->psi0_s) / dt)) /
					    10);
	if (!isnan(b->psi_some_avg10))
		cJSON_AddNumberToObject(o, "psi_some_avg10", b->psi_some_avg10);
	/* never above the host: a process seen only at the end is counted for its life */
	cJSON_AddNumberToObject(o, "others_cpu_pct",
				round(1000 * fmin(1, others / (dt * ncpu))) / 10);
	arr = cJSON_AddArrayToObject(o, "top");
	for (i = 0; i < n && i < t->n; i++) {
		const struct bc_proctop_cmd *c = &sorted[i];
		cJSON *p;

		if (c->cpu_s < 0.01 * dt)
			break;
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "comm", c->comm);
		cJSON_AddNumberToObject(p, "pid", c->pid);
		cJSON_AddNumberToObject(p, "processes", c->procs);
		cJSON_AddNumberToObject(p, "cpu_pct",
					round(1000 * fmin(1, c->cpu_s / (dt * ncpu))) / 10);
		cJSON_AddNumberToObject(p, "cores", round(100 * c->cpu_s / dt) / 100);
		cJSON_AddItemToArray(arr, p);
	}
	free(sorted);
	return o;
}
