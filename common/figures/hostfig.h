/*
 * figures/hostfig.h - host counters and the per-second figures made from them,
 * shared by client hosts (agent/host/hoststat.c reads procfs/sysfs) and storage
 * nodes (coordinator/counters/prom.c reads node_exporter's /metrics).
 *
 * A snapshot holds raw counters at one instant; two snapshots give the
 * figures of the interval between them: NIC bytes/s and share of link speed,
 * CPU busy, busiest core, softirq (average and hottest core), disk bytes/s,
 * utilization and queue, memory. Both sides use the same definitions, so a
 * client's "cpu_busy_pct" means what a node's does (the USE method's
 * definitions, as in figures/hostfig.c; node_exporter's counters for nodes).
 *
 * Unknown values are NaN in the structs and absent (objects) or null
 * (series) in JSON; a counter that went backwards (reset) gives NaN.
 */
#ifndef BC_FIGURES_HOSTFIG_H
#define BC_FIGURES_HOSTFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* node_exporter's node_cpu_seconds_total{mode} values, /proc/stat's columns */
enum bc_cpu_mode {
	BC_CPU_USER = 0,
	BC_CPU_NICE,
	BC_CPU_SYSTEM,
	BC_CPU_IDLE,
	BC_CPU_IOWAIT,
	BC_CPU_IRQ,
	BC_CPU_SOFTIRQ,
	BC_CPU_STEAL,
	BC_CPU_MODE_NR
};
extern const char *const bc_cpu_mode_names[BC_CPU_MODE_NR];

#define BC_HF_NAME   32	  /* interface and block device names (IFNAMSIZ 16, disks short) */
#define BC_HF_NICS   32	  /* virtual interfaces are skipped before this fills up */
#define BC_HF_DISKS  64	  /* a 2U JBOF has 24-48 NVMe */
#define BC_HF_CUSTOM 16	  /* named custom series per host */
#define BC_HF_CPUS   4096 /* Linux NR_CPUS on distribution kernels is 8192; 4096 is plenty */

struct bc_hostsnap_nic {
	char name[BC_HF_NAME];
	double tx_bytes, rx_bytes; /* counters */
	double tx_drop, rx_drop;   /* counters, NaN unknown */
	double speed_bytes;	   /* link speed in bytes/s, NaN when unknown (down, virtual) */
	double mtu;		   /* bytes, NaN unknown (node_network_mtu_bytes, sysfs mtu) */
	char master[BC_HF_NAME];   /* the bond/team it is a member of, "" none or unknown */
};

struct bc_hostsnap_disk {
	char name[BC_HF_NAME];
	double rd_bytes, wr_bytes, reads, writes; /* counters */
	double rd_time_s, wr_time_s;		  /* total time of completed I/Os */
	double io_time_s, io_wtime_s;		  /* busy time; weighted (queue) time */
};

struct bc_hostsnap {
	uint64_t t_ns; /* when the counters were read, CLOCK_REALTIME */
	int ncpu;      /* cpu indexes [0, ncpu) hold data where idle is not NaN */
	int cpu_cap;
	double (*cpu)[BC_CPU_MODE_NR]; /* seconds per mode, by cpu number; owned */
	int nnics;
	struct bc_hostsnap_nic nics[BC_HF_NICS];
	int ndisks;
	struct bc_hostsnap_disk disks[BC_HF_DISKS];
	double mem_total, mem_avail;		  /* bytes, gauges */
	double load1;				  /* gauge */
	double softnet_squeezed, softnet_dropped; /* counters summed over cpus */
	double tcp_retrans, tcp_out;		  /* segments, counters */
	int ncustom;
	double custom[BC_HF_CUSTOM]; /* sum of the matching samples, NaN when none */
	/*
	 * The agent's own CPU seconds (user + system, /proc/self/task/<tid>/stat):
	 * the whole process, its job threads (bc-job-*) and its io_uring
	 * workers (iou-wrk-*, iou-sqp-*); NaN where not read (storage nodes).
	 */
	double proc_cpu_s, proc_jobs_cpu_s, proc_iou_cpu_s;
	char kernel[64]; /* kernel release (node_uname_info, osrelease), "" unknown */
};

/* every value unknown, nothing allocated */
void bc_hostsnap_init(struct bc_hostsnap *s);
/* forget the values, keep the cpu array for the next read */
void bc_hostsnap_reset(struct bc_hostsnap *s);
void bc_hostsnap_free(struct bc_hostsnap *s);
/* deep copy into dst (initialized); 0 or -ENOMEM */
int bc_hostsnap_copy(struct bc_hostsnap *dst, const struct bc_hostsnap *src);
/* cpu's mode counter; grows the array; -ERANGE beyond BC_HF_CPUS, -ENOMEM */
int bc_hostsnap_cpu_set(struct bc_hostsnap *s, int cpu, enum bc_cpu_mode mode, double seconds);
/* the named interface or disk, added with unknown counters; NULL when full */
struct bc_hostsnap_nic *bc_hostsnap_nic(struct bc_hostsnap *s, const char *name);
struct bc_hostsnap_disk *bc_hostsnap_disk(struct bc_hostsnap *s, const char *name);
/* interfaces that only re-carry traffic of a physical one (lo, veth, bridges...) */
bool bc_hostfig_virtual_nic(const char *name);

struct bc_hostfig_nic {
	char name[BC_HF_NAME];
	double tx_bps, rx_bps; /* bytes/s */
	double speed_bps;      /* bytes/s, NaN unknown */
	bool counted;	       /* part of the host's net_* totals */
	bool member;	       /* a member link of a counted bond (its bytes are the bond's too) */
	double mtu;	       /* bytes, NaN unknown */
};

struct bc_hostfig_disk {
	char name[BC_HF_NAME];
	double read_bps, write_bps; /* bytes/s */
	double riops, wiops;
	double util; /* busy fraction (io_time); meaningless for parallel SSDs */
	double aqu;  /* average queue size (weighted io_time / t), iostat aqu-sz */
	double r_await_ms, w_await_ms; /* mean time per completed I/O */
};

/* figures of an interval; every "fraction" is 0..1 */
struct bc_hostfig {
	double dt_s;
	double net_tx_bps, net_rx_bps;	 /* counted interfaces, bytes/s */
	double link_bps;		 /* their summed speed, NaN if any is unknown */
	double net_tx_util, net_rx_util; /* fraction of link_bps */
	double net_drops_per_s, tcp_retrans_per_s, softnet_squeezed_per_s;
	int ncpu;
	double cpu_busy;     /* 1 - (idle+iowait+steal)/total over every cpu */
	double cpu_hot_core; /* busiest single cpu, same definition */
	double cpu_sys;	     /* (system + irq + softirq)/total over every cpu: kernel time */
	int cpu_hot_core_id;
	/*
	 * The saturated core group: how many cpus were at least
	 * BC_HF_SAT_CORE_U busy over the interval, which ones (bit c of
	 * cpu_sat_mask), and their mean busy share.
	 */
	double cpu_sat_cores;
	double cpu_sat_busy;
	uint64_t cpu_sat_mask[BC_HF_CPUS / 64];
	double softirq, softirq_hot_core; /* average and hottest cpu */
	int softirq_hot_core_id;
	double irq, iowait;
	double disk_read_bps, disk_write_bps; /* whole devices, not dm/md/loop */
	double disk_util_max, disk_aqu_max, disk_w_await_max_ms;
	double mem_used; /* 1 - MemAvailable/MemTotal at the interval's end */
	double load1;
	int nnics;
	struct bc_hostfig_nic nics[BC_HF_NICS];
	int ndisks;
	struct bc_hostfig_disk disks[BC_HF_DISKS];
	int ncustom;
	double custom[BC_HF_CUSTOM];
	/*
	 * The agent's own CPU over the interval as fractions of the host's
	 * capacity (ncpu cores), comparable with cpu_busy: the process, its job
	 * threads, its io_uring workers; agent_cores is the process in cores.
	 * NaN on storage nodes.
	 */
	double agent_cpu, agent_jobs_cpu, agent_iou_cpu, agent_cores;
	char kernel[64]; /* "" unknown */
};

#define BC_HF_SAT_CORE_U                                                                           \
	0.95 /* a core this busy is saturated: one hot core caps a single-threaded path */

struct bc_hostfig_opts {
	const char *nic;	 /* interfaces to count, "bond0" or "eth0,eth1"; NULL: see .c */
	const bool *custom_rate; /* [ncustom]: counter (per-second rate) or gauge; NULL: gauges */
	const char *members;	 /* member links of the counted bond, "eth0,eth1"; NULL: see .c */
};

/* one fixed figure: its JSON key, where it lives and the factor to the JSON unit */
struct bc_hostfig_field {
	const char *key; /* "net_tx_mbps" (MB/s = 1e6 bytes/s), "cpu_busy_pct", ... */
	size_t off;	 /* offsetof(struct bc_hostfig, ...) */
	double scale;
};
extern const struct bc_hostfig_field bc_hostfig_fields[];
extern const int bc_hostfig_nfields;
/* index into bc_hostfig_fields of key, or -1 */
int bc_hostfig_field_index(const char *key);
static inline double bc_hostfig_get(const struct bc_hostfig *f, int field)
{
	return *(const double *)((const char *)f + bc_hostfig_fields[field].off) *
	       bc_hostfig_fields[field].scale;
}

/* every figure NaN, no interfaces or disks */
void bc_hostfig_clear(struct bc_hostfig *f, int ncustom);

/*
 * Figures of the interval from a to b (b later). Returns 0, or -EINVAL
 * when b is not later than a.
 */
int bc_hostfig_compute(const struct bc_hostsnap *a, const struct bc_hostsnap *b,
		       const struct bc_hostfig_opts *o, struct bc_hostfig *out);

/*
 * The figures as one JSON object: the fixed figures by key (unknown ones
 * left out), "cpu_hot_core" / "softirq_hot_core" ids, and with detail
 * "nics": {name: {tx_mbps, rx_mbps, speed_mbps, tx_util_pct, rx_util_pct,
 * counted}} and "disks": {name: {read_mbps, write_mbps, riops, wiops,
 * util_pct, aqu, r_await_ms, w_await_ms}}. Caller owns it; NULL without memory.
 */
cJSON *bc_hostfig_json(const struct bc_hostfig *f, bool detail);

/*
 * The mean of per-interval bc_hostfig_json() objects (a client's samples
 * over a step's window) in the same shape: every number averaged over the
 * samples that have it, per interface and disk by name; the hot-core ids
 * are those of the sample where that core was busiest. Averaging per-second
 * maxima overstates a hot core that moves between cores: fine for a
 * ceiling check. Caller owns it; NULL without samples or memory.
 */
cJSON *bc_hostfig_mean_json(const cJSON *const *samples, int n);

/*
 * The same mean one sample at a time, for samples that are not kept (a
 * step's host samples, hostsamples.c): init, add each sample in the order
 * they came, finish as often as wanted (a new object each time, NULL
 * without an object sample or memory), free. bc_hostfig_mean_json is these.
 */
struct bc_hostfig_mean {
	cJSON *acc, *cnt; /* sums and counts by key, in the samples' shape */
	int used;	  /* object samples added */
	bool hot_ok[2];	  /* cpu_hot_core, softirq_hot_core: the busiest sample's id */
	double hot_pct[2], hot_id[2];
};
void bc_hostfig_mean_init(struct bc_hostfig_mean *m);
/* 0, or -ENOMEM (the mean is then not to be trusted) */
int bc_hostfig_mean_add(struct bc_hostfig_mean *m, const cJSON *sample);
cJSON *bc_hostfig_mean_finish(const struct bc_hostfig_mean *m);
void bc_hostfig_mean_free(struct bc_hostfig_mean *m);

/* "0-15,64-79": the cpus of a mask, ranges collapsed; "" when none */
void bc_hostfig_cpulist(const uint64_t *mask, int ncpu, char *buf, size_t len);

/* a double for JSON: NaN/inf as null, else rounded to 3 decimals */
cJSON *bc_hostfig_num(double v);

#endif
