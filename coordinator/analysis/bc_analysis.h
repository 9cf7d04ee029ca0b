/*
 * bc_analysis.h - where the ceiling is and why: pure functions over the
 * numbers of a sweep (or of one step), no I/O. The procedure: a
 * Little's-law check per point (X (R + Z) / N near 1), a class
 * per point (scaling / diminishing / plateau / retrograde), the knee (first
 * plateau, the 95% rule and Kneedle on log2 N), a USL fit, USE attribution
 * at the knee per storage node and per client host in the order NIC -> CPU
 * -> hottest core -> softirq -> reactors -> disk/GC, byte reconciliation
 * between client goodput and node traffic, node balance, and one verdict
 * with its evidence. USE is Brendan Gregg's method (utilization,
 * saturation, errors per resource: brendangregg.com/usemethod.html); the
 * thresholds below say where each one comes from.
 *
 * Units: bytes/s, seconds, fractions (0..1) in; JSON out uses GB/s
 * (1e9 bytes), ms and percent, like the rest of run.json.
 */
#ifndef BC_ANALYSIS_H
#define BC_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "bc_hostfig.h"

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
#define BC_ANA_HOT_CORE_U    0.95 /* one core this busy ... */
#define BC_ANA_HOT_CORE_MEAN 0.70 /* ... while the mean is below this */
#define BC_ANA_SOFTIRQ_U     0.50 /* softirq share on the hot core: RSS/IRQ affinity */
#define BC_ANA_REACTOR_U     0.95
#define BC_ANA_DISK_AQU	     10.0 /* node-mixin aqu-sz, with await rising */
#define BC_ANA_WAF_GC	     1.5  /* write amplification: GC moves as much as 1/2 of user data */
#define BC_ANA_RISING	     2.0 /* drops/retransmits "rising": x2 and +10/s over the point before */
#define BC_ANA_BALANCE	     1.15 /* busiest node over the mean: imbalanced */

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
	double waf; /* write amplification (custom series), GC when high */
	/* the saturated core group (bc_hostfig.h cpu_sat_*): how many, which, how busy */
	double sat_cores, sat_busy;
	char sat_list[128]; /* "0-15", "" unknown or none */
	/* clients: the agent's own share of the host, and the host before the step */
	double agent_cpu, agent_cores, agent_iou_cpu;
	double baseline_busy, baseline_load1;
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
	/* clients: NUMA nodes on the host (0 unknown), and where the job threads run */
	int numa_nodes;
	char job_cpus[64], job_numa[32]; /* "0-7", "0"; "" unknown */
	bool jobs_pinned;		 /* cpus_allowed placed them; else the process's CPUs */
};

/* every figure NaN */
void bc_use_init(struct bc_use *u, const char *name, bool client);

/*
 * Fill u from window figures. Custom series named "reactor_busy_pct" (or
 * "reactor_busy", a fraction) and "waf" feed the reactor and GC checks.
 */
void bc_use_from_hostfig(struct bc_use *u, const char *name, bool client,
			 const struct bc_hostfig *f, const char *const *custom_names);

/* the same from a bc_hostfig_json() object (a client's averaged samples) */
void bc_use_from_json(struct bc_use *u, const char *name, bool client, const cJSON *fig);

/*
 * A client's routes, bond hash policy and NUMA placement from the agent's
 * "net_path" object (agent/host/bc_netpath.h); NULL leaves u as it is.
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
};
enum bc_ana_class {
	BC_ANA_FIRST = 0, /* no point before it */
	BC_ANA_SCALING,
	BC_ANA_DIMINISHING,
	BC_ANA_PLATEAU,
	BC_ANA_RETROGRADE,
};
extern const char *const bc_ana_class_names[]; /* "first", "scaling", ... */

/* Little's law: X_iops * (R_mean + thinktime) / N; NaN without the numbers */
double bc_ana_rho(const struct bc_ana_point *p);

/*
 * The class of cur against prev, with k = N ratio and e = (X ratio - 1) / (k - 1):
 * retrograde when X falls more than BC_ANA_PLATEAU_DX, plateau when X moves less
 * and R grows like N (within BC_ANA_PLATEAU_DR), scaling when e >= BC_ANA_SCALING_E,
 * else diminishing; first without a usable prev. *e gets the efficiency, may be NULL.
 */
enum bc_ana_class bc_ana_classify(const struct bc_ana_point *prev, const struct bc_ana_point *cur,
				  double *e);

/*
 * Kneedle (Satopää et al., ICDCSW 2011) on a concave increasing curve:
 * index of the first knee, or -1 (fewer than 3 points, none found). s is
 * the sensitivity (1 is the paper's default).
 */
int bc_ana_kneedle(const double *x, const double *y, int n, double s);

struct bc_usl {
	double lambda, sigma, kappa; /* X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) */
	double n_max;		     /* floor(sqrt((1 - sigma) / kappa)), inf when kappa = 0 */
	double x_max;		     /* X(n_max), lambda / sigma without coherency */
	double r2;		     /* of the fit, on X */
	int iterations;
	double seed_sigma, seed_kappa; /* the linearized fit it started from */
};
#define BC_USL_MIN_POINTS 6 /* usl4j, R usl and codahale/usl all ask for six */

/*
 * Fit the USL to (n[i], x[i]): the linearized least squares as a seed,
 * then Gauss-Newton on (lambda, sigma, kappa) with sigma, kappa >= 0.
 * Returns 0, -EINVAL with fewer than BC_USL_MIN_POINTS points (or bad
 * values), -EDOM when it does not converge.
 */
int bc_ana_usl_fit(const double *n, const double *x, int cnt, struct bc_usl *out);

/* a rate rose: at least BC_ANA_RISING times and 10/s above what the point before saw (NaN: 0) */
bool bc_ana_rising(double now, double before);

/* what USE found on one host */
struct bc_use_finding {
	bool saturated;
	const char *cls;      /* "nic", "cpu", "core", "softirq", "reactor", "disk", "gc", or the
				 highest resource when nothing is saturated */
	const char *resource; /* "NIC tx", "CPU", "core 12", ... human words */
	double u, threshold;  /* the figure and the limit it is judged by */
	char detail[200];
};

/*
 * The USE checks on h in the order of the file comment (NIC, CPU, hottest
 * core, softirq, reactors, disk/GC); prev is the same
 * host at the point before (for "rising" drops and await), may be NULL.
 * Returns f->saturated.
 */
bool bc_ana_use_host(const struct bc_use *h, const struct bc_use *prev, struct bc_use_finding *f);

/*
 * The whole analysis of pts[0..n) (n >= 1, ordered by increasing load) as
 * the steps[].analysis object (reports/README.md, "Analysis"). With
 * node_load, "nodes" holds each storage node's own series, class and knee:
 * a node whose volumes are all paced at their limit is "paced", and when
 * only some volumes are paced the verdict names those nodes and judges the
 * rest of the load apart. Caller owns it.
 */
cJSON *bc_ana_json(const struct bc_ana_point *pts, int n, const char *param);

/* ---- the suspects table (analysis_suspects.c) ---- */

enum bc_sus_state { BC_SUS_NOT_MEASURED = 0, BC_SUS_EXCLUDED, BC_SUS_IMPLICATED };
extern const char *const bc_sus_state_names[]; /* "not measured", "excluded", "implicated" */

/* in the order the verdict names them when several are implicated: nodes before clients */
enum bc_sus_id {
	BC_SUS_NODE_NIC = 0,
	BC_SUS_NET_PATH,
	BC_SUS_NODE_CPU,
	BC_SUS_SOFTIRQ,
	BC_SUS_CORE_GROUP,
	BC_SUS_DISK,
	BC_SUS_CLIENT_NIC,
	BC_SUS_CLIENT_CPU,
	BC_SUS_LOAD,
	BC_SUS_NUMA,
	BC_SUS_VERSION,
	BC_SUS_NR
};

/*
 * One suspect: its state, the hosts it is about (every host with the same
 * finding, never one of them picked), the figures that decided it, and
 * for an implicated one the phrase the verdict says. score is the
 * deciding figure over its limit, capped at 1 (0..1 for every kind of
 * figure, load per core included): an implicated row scores 1.
 */
struct bc_suspect {
	enum bc_sus_state state;
	double score;
	char hosts[200];
	int nhosts;
	char figures[400];
	char finding[400];
	const char *cls;      /* the verdict class when it leads: "NIC-bound", ... */
	const char *resource; /* "NIC tx", "core group", ... for the bottleneck line */
	double u, threshold;  /* the leading host's figure and its limit */
};

struct bc_suspects {
	int at; /* the point judged */
	struct bc_suspect row[BC_SUS_NR];
	int nimplicated;     /* of the rows but BC_SUS_LOAD */
	int lead;	     /* the first implicated row in enum order, -1 none */
	char cluster[240];   /* "all 3 nodes flat at 9.20 GB/s each", "" when nodes differ */
	double per_node_bps; /* the flat nodes' mean goodput, NaN */
	int nflat;	     /* how many nodes that is */
};
extern const char *const bc_sus_names[BC_SUS_NR]; /* "node NIC", "network path", ... */

/*
 * Judge every suspect at point at of pts[0..n) (the knee, or the last
 * point), with the sweep for what must rise with the load. plateau: the
 * series showed the queueing signature (more load, flat throughput).
 */
void bc_ana_suspects(const struct bc_ana_point *pts, int n, int at, bool plateau,
		     struct bc_suspects *out);

/* the "suspects" array of the analysis object (reports/README.md) */
cJSON *bc_ana_suspects_json(const struct bc_suspects *s);

/* "9.20 GB/s", "85.3 MB/s": three significant digits */
void bc_ana_rate3(double bps, char *buf, size_t len);

#endif
