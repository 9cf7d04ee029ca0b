/*
 * host/proctop.h - the processes that use a host's CPU, from /proc/<pid>/stat
 * (utime + stime of the whole thread group, in USER_HZ ticks): read before
 * and after a step, the difference names who held the CPU, so a client host
 * busy with other work is said to be, with the names (a benchmark on a
 * contended host measures the host). /proc/pressure/cpu (PSI, Linux 4.20+)
 * and /proc/stat's procs_running say how long tasks waited for a CPU.
 */
#ifndef BC_HOST_PROCTOP_H
#define BC_HOST_PROCTOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

struct bc_proctop_proc {
	pid_t pid;
	unsigned long long start; /* starttime: a pid reused in between is another process */
	double cpu_s;		  /* user + system seconds so far */
	bool counted;		  /* bc_proctop_sample: already among its command's processes */
	char comm[32];
};

struct bc_proctop_snap {
	uint64_t t_ns; /* CLOCK_MONOTONIC of the read */
	int n, cap;
	struct bc_proctop_proc *p; /* by pid, ascending; owned */
	double psi_some_s;	   /* /proc/pressure/cpu "some" total, seconds; NaN without PSI */
	double psi_some_avg10;	   /* its avg10, percent; NaN without PSI */
	int procs_running;	   /* /proc/stat, at the read; -1 unknown */
	int ncpu;		   /* online CPUs */
};

/* read every process under root ("" live); 0 or -errno (s keeps its array) */
int bc_proctop_read(const char *root, struct bc_proctop_snap *s);
void bc_proctop_free(struct bc_proctop_snap *s);

/* CPU by command name over an interval, summed from one read to the next */
struct bc_proctop_cmd {
	char comm[32];
	double cpu_s;
	int procs; /* distinct processes seen using CPU */
	pid_t pid; /* the one that used most */
	double pid_cpu_s;
};

struct bc_proctop {
	char root[256];
	pid_t self;	/* left out: the agent's own CPU is reported apart */
	uint64_t t0_ns; /* bc_proctop_begin's read */
	double psi0_s;
	double run_sum; /* procs_running summed over the samples, for its mean */
	int run_n;
	struct bc_proctop_snap prev, cur;
	int n, cap;
	struct bc_proctop_cmd *cmd; /* owned */
};

/*
 * Start an interval now (forgets the previous one). Short-lived processes
 * (a compiler's) are caught when bc_proctop_sample runs often, once a second:
 * a process is counted from one read to the next it is seen in.
 */
int bc_proctop_begin(struct bc_proctop *t, const char *root, pid_t self);
int bc_proctop_sample(struct bc_proctop *t);
void bc_proctop_destroy(struct bc_proctop *t);

/*
 * The interval from bc_proctop_begin to the latest sample: {"seconds", "ncpu",
 * "procs_running" (at the end), "procs_running_mean" (over the samples), "cpu_pressure_pct" (PSI
 * some over the interval: the share of time some task waited for a CPU), "psi_some_avg10" (at the
 * end), "others_cpu_pct" (every process but self, % of the host's capacity), "top": [{"comm",
 * "pid", "processes", "cpu_pct" (% of the host), "cores"}]} with the n command names using most
 * CPU, above 1% of a core. NULL when the interval is shorter than 50 ms or without memory.
 */
cJSON *bc_proctop_json(const struct bc_proctop *t, int n);

#endif
