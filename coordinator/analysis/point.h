/*
 * analysis/point.h (analysis/point.c) - one point of a sweep as the analysis sees it:
 * each host's use of its resources (bc_use), the load and figures of the
 * point, Little's law and the class of a point against the one before, and
 * the thresholds every part of the analysis judges by (analysis/analysis.h
 * says where each comes from).
 */
#ifndef BC_ANALYSIS_POINT_H
#define BC_ANALYSIS_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "counters/facts.h"
#include "figures/hostfig.h"
#include "profile/counters.h"

/*
 * ---- thresholds: the Little's-law band, the class table of bc_ana_classify
 * and the USE saturation levels of Gregg's Linux checklist ----
 */
#define BC_ANA_RHO_LO	     0.9  /* Little's law: X*R/N below this: N not kept in flight */
#define BC_ANA_RHO_HI	     1.1  /* above: windows or clocks disagree */
#define BC_ANA_SCALING_E     0.5  /* efficiency of added load for "scaling" */
#define BC_ANA_PLATEAU_DX    0.05 /* throughput change under 5% ... */
#define BC_ANA_PLATEAU_DR    0.20 /* ... with latency up k +- 20% */
#define BC_ANA_KNEE_FRAC     0.95 /* 95% rule: smallest N with X >= 95% of max */
#define BC_ANA_NIC_U	     0.90
#define BC_ANA_CPU_U	     0.90
#define BC_ANA_LOAD_PER_CPU  2.0  /* node-mixin: load1 per core */
#define BC_ANA_CPU_PRESSURE  0.20 /* PSI cpu some: tasks waited for a CPU a fifth of the time */
#define BC_ANA_HOT_CORE_U    0.95 /* one core this busy ... */
#define BC_ANA_HOT_CORE_MEAN 0.70 /* ... while the mean is below this */
#define BC_ANA_SOFTIRQ_U     0.50 /* softirq share on the hot core: RSS/IRQ affinity */
#define BC_ANA_REACTOR_U     0.95
#define BC_ANA_DISK_AQU	     10.0 /* node-mixin aqu-sz, with await rising */
#define BC_ANA_GC_RATIO	     0.5  /* GC writes half of what users write (write amplification 1.5) */
#define BC_ANA_JOURNAL_X     5.0  /* journal latency this many times the devices' write await ... */
#define BC_ANA_JOURNAL_MIN_S                                                                       \
	0.005		       /* ... and at least this long: the journal queues, not the disk */
#define BC_ANA_CACHE_DROP 0.20 /* the cache hit ratio fell this much from the first point */
#define BC_ANA_RISING	  2.0  /* drops/retransmits "rising": x2 and +10/s over the point before */
#define BC_ANA_BALANCE	  1.15 /* busiest node over the mean: imbalanced */

/* a client's route to one storage-node address */
#define BC_USE_ROUTES 16
struct bc_use_route {
	char node[BC_HF_NAME * 2]; /* the profile's node name */
	char addr[64];
	char dev[BC_HF_NAME];  /* the interface it leaves by, "" unknown */
	char gateway[64];      /* "" on a connected subnet */
	char bond[BC_HF_NAME]; /* the bond it leaves by (dev or its master), "" none */
	char error[96];	       /* why there is no route, "" */
	bool local;	       /* the address is the client's own */
	double mtu;	       /* what the path carries (the route's metric, else dev's MTU) */
	double speed_bps;      /* dev's link speed, NaN unknown */
	int numa_node;	       /* dev's NUMA node, -1 none */
};

/* one host's use of its resources over a window; NaN = not observed */
struct bc_use {
	char name[BC_HF_NAME * 2];
	bool client;
	double net_tx_bps, net_rx_bps, link_bps;
	double nic_tx, nic_rx; /* fractions of link_bps */
	char nics[96];	       /* interfaces counted, "bond0" */
	double cpu_busy;       /* fraction over every core */
	double hot_core;       /* busiest core */
	int hot_core_id;
	double softirq, softirq_hot; /* average, and hottest core */
	int softirq_hot_id;
	double load1;
	int ncpu;
	double drops_per_s, retrans_per_s, squeezed_per_s;
	double reactor_busy;	/* busy/(busy+idle) of polling reactors (custom series) */
	double disk_aqu_max;	/* worst device's average queue */
	double disk_w_await_ms; /* worst device's write await */
	double disk_write_bps;
	double waf;		 /* write amplification (role write_amplification) */
	double gc_write_bps;	 /* the storage software's GC writes (role gc_write_bytes) */
	double client_write_bps; /* nodes: what the clients wrote to its volumes */
	double journal_lat_s;	 /* journal/commit write latency (role journal_latency) */
	double cache_hit;	 /* read cache hit ratio (role cache_hit_ratio) */
	/* the saturated core group (figures/hostfig.h cpu_sat_*): how many, which, how busy */
	double sat_cores, sat_busy;
	char sat_list[128]; /* "0-15", "" unknown or none */
	/* clients: the agent's own share of the host, and the host before the step */
	double agent_cpu, agent_cores, agent_iou_cpu;
	double baseline_busy, baseline_load1;
	/*
	 * clients: the host's CPU outside this run (the host's busy time less
	 * the run's agents on it), PSI's share of time tasks waited for a CPU,
	 * and the processes that held it most (results/fidelity.c)
	 */
	double others_cpu, run_cpu, cpu_pressure;
	char others_top[240];
	/* network path: the counted links' MTU, the bond's member links */
	double mtu_min, mtu_max;
	int nmembers;
	double member_max_util, member_min_util; /* the busier direction, of each member's speed */
	char member_max[BC_HF_NAME], member_min[BC_HF_NAME];
	char kernel[64]; /* "" unknown */
	/* a bond's transmit hash policy: a client's from sysfs, a node's from "nic_hash" */
	char hash_policy[32];
	/* clients: the route to each node address (the agent's STEP_DONE "net_path") */
	int nroutes;
	struct bc_use_route routes[BC_USE_ROUTES];
	/* nodes, from the node-facts collector (counters/facts.h); "" unknown */
	char nic_numa[32]; /* NUMA node(s) of the counted NIC (a bond's links) */
	char proc_name[64], proc_cpus[64], proc_numa[32]; /* the storage processes */
	char versions[160];				  /* "lightos 3.18.2": storage software */
	char firmware[160];	     /* "PM9A3 GDC5602Q x6": NVMe models and firmware */
	char bond_mode[32];	     /* the counted bond's mode */
	int bond_links, bond_active; /* its links, and those carrying traffic (-1) */
	char hash_declared[32];	     /* the profile's nic_hash when the node reports another */
	/* NUMA nodes on the host (0 unknown); clients: where the job threads run */
	int numa_nodes;
	char job_cpus[64], job_numa[32]; /* "0-7", "0"; "" unknown */
	bool jobs_pinned;		 /* cpus_allowed placed them; else the process's CPUs */
};

/* printf onto the end of buf, cut at len */
void bc_ana_cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "0-1,3" into a mask of the nodes (or CPUs) below 64 in it; 0 for ""; and back */
uint64_t bc_ana_node_mask(const char *list);
void bc_ana_mask_list(uint64_t m, char *buf, size_t len);

/* every figure NaN */
void bc_use_init(struct bc_use *u, const char *name, bool client);

/*
 * Fill u from window figures; roles[i] says what custom series i is
 * (profile/counters.h: GC writes, write amplification, journal latency,
 * cache hits, reactors); roles may be NULL.
 */
void bc_use_from_hostfig(struct bc_use *u, const char *name, bool client,
			 const struct bc_hostfig *f, const enum bc_series_role *roles);

/*
 * A node's facts into u: NUMA of the NIC it is counted on (nic: the
 * profile's "nic", else the counted interfaces) and of its storage
 * processes, versions, firmware, the bond's mode and links; the bond's
 * measured hash policy replaces a declared one (kept in hash_declared
 * when they differ).
 */
void bc_use_facts(struct bc_use *u, const struct bc_nodefacts *f, const char *nic);

/*
 * GC's writes over the clients' writes: from the GC series and the clients'
 * writes to the node, else the write amplification less 1; NaN unknown.
 * phrase (may be NULL) says it in words.
 */
double bc_use_gc_ratio(const struct bc_use *h, char *phrase, size_t len);

/* the same from a bc_hostfig_json() object (a client's averaged samples) */
void bc_use_from_json(struct bc_use *u, const char *name, bool client, const cJSON *fig);

/*
 * A client's routes, bond hash policy and NUMA placement from the agent's
 * "net_path" object (agent/host/netpath.h); NULL leaves u as it is.
 */
void bc_use_net_path(struct bc_use *u, const cJSON *net_path);

/*
 * The client load on a set of volumes: one storage node's, or the ones the
 * profile paces. Paced volumes (rate_iops or rate_bw) hold fewer than N in
 * flight on purpose; one runs "at its limit" when it did at least
 * BC_ANA_PACED_FRAC of it over the measured window, and a set of them is
 * at its limits when each one is or when together they did that fraction
 * of their summed limits.
 */
struct bc_ana_load {
	int volumes;
	double n;			     /* I/Os in flight configured over them */
	double x_bps, x_iops;		     /* reads + writes */
	double r_mean_s;		     /* mean latency */
	double think_s;			     /* mean thinktime per I/O (IOPS-weighted), 0 without */
	int paced_volumes;		     /* of volumes, with rate_iops or rate_bw */
	int paced_at_limit;		     /* of those, at their limit */
	double paced_limit_iops, paced_iops; /* rate_iops volumes: configured, summed; and done */
	double paced_limit_bps, paced_bps;   /* rate_bw volumes: bytes/s */
};
#define BC_ANA_PACED_FRAC 0.95

/* one point of a sweep (or the one point of a plain step) */
struct bc_ana_point {
	double value;	   /* the swept value (iodepth, numjobs, ...), for the JSON */
	const char *label; /* "16", "64k", may be NULL */
	double n;	   /* I/Os in flight over every volume */
	double x_bps;	   /* client goodput, bytes/s (reads + writes) */
	double x_read_bps, x_write_bps;
	double x_iops;
	double r_mean_s; /* mean latency */
	double p99_s;
	double think_s;		    /* mean thinktime per I/O: Little's law is N = X (R + Z) */
	int volumes;		    /* every volume of the step; 0 = not known */
	const struct bc_use *nodes; /* [nnodes] storage nodes, may be 0 */
	int nnodes;
	const struct bc_use *clients; /* [nclients] */
	int nclients;
	const double
	    *node_goodput_bps; /* [nnodes] client bytes/s of each node's volumes, or NULL */
	const struct bc_ana_load *node_load; /* [nnodes] the load on each node's volumes, or NULL */
	/*
	 * The paced volumes summed (volumes = paced_volumes = how many). When
	 * every volume is paced at its limit the verdict is the profile's own
	 * rate limits; when only some are, the rest is judged apart and the
	 * nodes whose volumes are all paced are named.
	 */
	struct bc_ana_load paced;
	/*
	 * Why Little's law says nothing of this point, or NULL: every volume's
	 * target completes each I/O as it is submitted (a simulated SSD without
	 * its latency model, the null target), or paces its own records (a KV
	 * store's store_rate): N is not what was in flight by design. The
	 * verdict is then not "invalid", and the reason is said once.
	 */
	const char *queue_note;
};
enum bc_ana_class {
	BC_ANA_FIRST = 0, /* no point before it */
	BC_ANA_SCALING,
	BC_ANA_DIMINISHING,
	BC_ANA_PLATEAU,
	BC_ANA_RETROGRADE,
};
extern const char *const bc_ana_class_names[]; /* "first", "scaling", ... */

/* Little's law: X_iops * (R_mean + thinktime) / N; NaN without the numbers or with a queue_note */
double bc_ana_rho(const struct bc_ana_point *p);

/*
 * The class of cur against prev, with k = N ratio and e = (X ratio - 1) / (k - 1):
 * retrograde when X falls more than BC_ANA_PLATEAU_DX, plateau when X moves less
 * and R grows like N (within BC_ANA_PLATEAU_DR), scaling when e >= BC_ANA_SCALING_E,
 * else diminishing; first without a usable prev. *e gets the efficiency, may be NULL.
 */
enum bc_ana_class bc_ana_classify(const struct bc_ana_point *prev, const struct bc_ana_point *cur,
				  double *e);

/* a rate rose: at least BC_ANA_RISING times and 10/s above what the point before saw (NaN: 0) */
bool bc_ana_rising(double now, double before);

/* "9.20 GB/s", "85.3 MB/s": three significant digits */
void bc_ana_rate3(double bps, char *buf, size_t len);

#endif
