/*
 * analysis/suspects.c - every suspect a ceiling can have, judged one by one
 * at the point the verdict looks at: implicated, excluded or not measured,
 * with the figures that decided it. A finding names every host that shows
 * it (nodes or clients alike are named together, none picked by list
 * order), and each row scores its deciding figure over its limit capped
 * at 1, so a load average cannot outrank a pegged core. The verdict is the
 * implicated rows; an internal limit is what is left when every measured
 * row is excluded. Pure: points in, struct out; JSON at the end.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/suspects.h"

const char *const bc_sus_state_names[] = {"not measured", "excluded", "implicated"};
const char *const bc_sus_names[BC_SUS_NR] = {
    [BC_SUS_NODE_NIC] = "node NIC",
    [BC_SUS_NET_PATH] = "network path",
    [BC_SUS_NODE_CPU] = "node CPU",
    [BC_SUS_SOFTIRQ] = "softirq/IRQ spread",
    [BC_SUS_CORE_GROUP] = "node core group",
    [BC_SUS_DISK] = "node disk/GC",
    [BC_SUS_JOURNAL] = "node journal",
    [BC_SUS_CACHE] = "node read cache",
    [BC_SUS_CLIENT_NIC] = "client NIC",
    [BC_SUS_CLIENT_CPU] = "client CPU",
    [BC_SUS_LOAD] = "load/queue depth",
    [BC_SUS_NUMA] = "NUMA locality",
    [BC_SUS_VERSION] = "software/kernel version",
};

/* what would measure a suspect nobody measured: said beside "not measured" */
static const char *const s_how[BC_SUS_NR] = {
    [BC_SUS_NODE_NIC] = "node_exporter's node_network_* series (nodes[].metrics, \"nic\")",
    [BC_SUS_NET_PATH] = "MTUs (node_network_mtu_bytes, the agents' routes), bond links "
			"(nic_members or the node-facts collector)",
    [BC_SUS_NODE_CPU] = "node_exporter's node_cpu_seconds_total (nodes[].metrics)",
    [BC_SUS_SOFTIRQ] = "node_exporter's per-core node_cpu_seconds_total",
    [BC_SUS_CORE_GROUP] = "node_exporter's per-core node_cpu_seconds_total",
    [BC_SUS_DISK] = "node_exporter's node_disk_* series; a node series with role "
		    "gc_write_bytes or write_amplification for GC",
    [BC_SUS_JOURNAL] = "a node series with role journal_latency (the storage software's "
		       "journal/commit write latency) beside node_disk_*",
    [BC_SUS_CACHE] = "a node series with role cache_hit_ratio",
    [BC_SUS_CLIENT_NIC] = "the agents' host counters",
    [BC_SUS_CLIENT_CPU] = "the agents' host counters",
    [BC_SUS_LOAD] = "a sweep of the load (steps[].sweep)",
    [BC_SUS_NUMA] = "the node-facts collector on the nodes (deploy/node-facts/"
		    "bench-node-facts.sh --process NAME); the agents report the clients'",
    [BC_SUS_VERSION] = "node_uname_info; a node series with role version or the node-facts "
		       "collector's --package/--version; NVMe firmware from node_exporter's "
		       "nvme collector or the node-facts collector",
};

#define S_SAT_IDLE    0.10 /* a saturated group is a finding of its own while this much is idle */
#define S_FLAT_SPREAD 1.05 /* nodes within 5% of each other plateau alike */

/* one host's judgement of one suspect */
struct s_eval {
	enum bc_sus_state st;
	double u, thr;	 /* the deciding figure and its limit */
	const char *res; /* what it is, when the row's name is not enough ("NIC rx") */
	char phrase[240];
};

static void s_say(struct s_eval *e, enum bc_sus_state st, double u, double thr, const char *fmt,
		  ...) __attribute__((format(printf, 5, 6)));

static void s_say(struct s_eval *e, enum bc_sus_state st, double u, double thr, const char *fmt,
		  ...)
{
	va_list ap;

	e->st = st;
	e->res = NULL;
	e->u = u;
	e->thr = thr;
	va_start(ap, fmt);
	vsnprintf(e->phrase, sizeof(e->phrase), fmt, ap);
	va_end(ap);
}

static double s_score(double u, double thr)
{
	if (!(thr > 0) || isnan(u))
		return 0;
	return fmin(1.0, fmax(0.0, u / thr));
}

static const struct bc_use *s_host(const struct bc_ana_point *p, bool client, int j)
{
	if (client)
		return j < p->nclients ? &p->clients[j] : NULL;
	return j < p->nnodes ? &p->nodes[j] : NULL;
}

typedef void (*s_eval_fn)(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e);

/*
 * A row over every node (or client): implicated by each host that shows
 * it, the hosts named together - "all 3 nodes" when every one does and
 * their phrases agree - and the highest figure quoted when none does.
 */
static void s_row(const struct bc_ana_point *pts, int n, int at, bool client, s_eval_fn fn,
		  struct bc_suspect *r)
{
	const struct bc_ana_point *p = &pts[at];
	int nh = client ? p->nclients : p->nnodes, j, nimp = 0, nmeas = 0, best = -1;
	struct s_eval *ev = calloc((size_t)(nh ? nh : 1), sizeof(*ev));
	const char *kind = client ? "client" : "node";
	bool same = true;

	r->state = BC_SUS_NOT_MEASURED;
	if (!ev)
		return;
	for (j = 0; j < nh; j++) {
		fn(pts, n, at, j, &ev[j]);
		if (ev[j].st == BC_SUS_NOT_MEASURED)
			continue;
		nmeas++;
		if (ev[j].st == BC_SUS_IMPLICATED) {
			if (nimp && strcmp(ev[j].phrase, ev[best].phrase))
				same = false;
			if (!nimp ||
			    s_score(ev[j].u, ev[j].thr) > s_score(ev[best].u, ev[best].thr))
				best = j;
			nimp++;
		} else if (!nimp && (best < 0 || s_score(ev[j].u, ev[j].thr) >
						     s_score(ev[best].u, ev[best].thr)))
			best = j;
	}
	if (!nmeas) {
		/* why not, when a host said: what would decide it */
		for (j = 0; j < nh; j++)
			if (ev[j].phrase[0]) {
				snprintf(r->figures, sizeof(r->figures), "%s %s: %s", kind,
					 s_host(p, client, j)->name, ev[j].phrase);
				break;
			}
		free(ev);
		return;
	}
	r->u = ev[best].u;
	r->threshold = ev[best].thr;
	r->resource = ev[best].res;
	if (!nimp) {
		const struct bc_use *h = s_host(p, client, best);

		r->state = BC_SUS_EXCLUDED;
		r->score = s_score(ev[best].u, ev[best].thr);
		snprintf(r->hosts, sizeof(r->hosts), "%d %s%s measured", nmeas, kind,
			 nmeas > 1 ? "s" : "");
		snprintf(r->figures, sizeof(r->figures), "highest: %s %s: %s", kind,
			 h ? h->name : "?", ev[best].phrase);
		free(ev);
		return;
	}
	r->state = BC_SUS_IMPLICATED;
	r->score = 1;
	r->nhosts = nimp;
	for (j = 0; j < nh; j++)
		if (ev[j].st == BC_SUS_IMPLICATED)
			bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%s", r->hosts[0] ? ", " : "",
				   s_host(p, client, j)->name);
	if (same) {
		if (nimp == nh && nh > 1)
			snprintf(r->finding, sizeof(r->finding), "all %d %ss: %s", nh, kind,
				 ev[best].phrase);
		else
			bc_ana_cat(r->finding, sizeof(r->finding), "%s%s %s: %s", kind,
				   nimp > 1 ? "s" : "", r->hosts, ev[best].phrase);
	} else {
		for (j = 0; j < nh; j++)
			if (ev[j].st == BC_SUS_IMPLICATED)
				bc_ana_cat(r->finding, sizeof(r->finding), "%s%s %s: %s",
					   r->finding[0] ? "; " : "", kind,
					   s_host(p, client, j)->name, ev[j].phrase);
	}
	memcpy(r->figures, r->finding, sizeof(r->figures));
	free(ev);
}

/* ---- per-host judgements ---- */

static void s_nic(const struct bc_use *h, const char *what, struct s_eval *e)
{
	bool tx = !(h->nic_rx > h->nic_tx);
	double u = tx ? h->nic_tx : h->nic_rx;
	char link[32];

	if (isnan(h->nic_tx) && isnan(h->nic_rx)) {
		e->st = BC_SUS_NOT_MEASURED;
		return;
	}
	bc_ana_rate3(h->link_bps, link, sizeof(link));
	if (u >= BC_ANA_NIC_U) {
		s_say(e, BC_SUS_IMPLICATED, u, BC_ANA_NIC_U, "%s %s at %.0f%% of %s", what,
		      tx ? "tx" : "rx", 100 * u, link);
		e->res = tx ? "NIC tx" : "NIC rx";
	} else
		s_say(e, BC_SUS_EXCLUDED, u, BC_ANA_NIC_U, "%s tx %.0f%%, rx %.0f%% of %s", what,
		      100 * h->nic_tx, 100 * h->nic_rx, link);
}

static void s_node_nic(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];

	s_nic(h, h->nics[0] ? h->nics : "NIC", e);
}

static void s_client_nic(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	s_nic(&pts[at].clients[j], "NIC", e);
}

static void s_node_cpu(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];
	double lpc = h->ncpu > 0 ? h->load1 / h->ncpu : NAN;

	if (isnan(h->cpu_busy) && isnan(lpc) && isnan(h->reactor_busy))
		e->st = BC_SUS_NOT_MEASURED;
	else if (h->cpu_busy >= BC_ANA_CPU_U)
		s_say(e, BC_SUS_IMPLICATED, h->cpu_busy, BC_ANA_CPU_U,
		      "CPU %.0f%% busy over %d cores", 100 * h->cpu_busy, h->ncpu);
	else if (lpc > BC_ANA_LOAD_PER_CPU)
		s_say(e, BC_SUS_IMPLICATED, lpc, BC_ANA_LOAD_PER_CPU,
		      "load1 %.1f on %d cores (%.1f per core)", h->load1, h->ncpu, lpc);
	else if (h->reactor_busy >= BC_ANA_REACTOR_U)
		s_say(e, BC_SUS_IMPLICATED, h->reactor_busy, BC_ANA_REACTOR_U,
		      "reactors %.0f%% busy", 100 * h->reactor_busy);
	else if (!isnan(h->reactor_busy))
		s_say(e, BC_SUS_EXCLUDED, h->reactor_busy, BC_ANA_REACTOR_U,
		      "reactors %.0f%% busy, CPU %.0f%%", 100 * h->reactor_busy, 100 * h->cpu_busy);
	else
		s_say(e, BC_SUS_EXCLUDED, h->cpu_busy, BC_ANA_CPU_U,
		      "CPU %.0f%% busy (%.0f%% idle), load %.2f per core", 100 * h->cpu_busy,
		      100 * (1 - h->cpu_busy), lpc);
}

/* the hot core is softirq's: RSS/IRQ affinity puts the network on it */
static bool s_softirq_hot(const struct bc_use *h, const struct bc_use *prev)
{
	return h->softirq_hot >= BC_ANA_SOFTIRQ_U &&
	       (h->hot_core >= BC_ANA_HOT_CORE_U ||
		(prev && bc_ana_rising(h->squeezed_per_s, prev->squeezed_per_s)));
}

static void s_softirq(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];
	const struct bc_use *prev = at > 0 && j < pts[at - 1].nnodes ? &pts[at - 1].nodes[j] : NULL;

	if (isnan(h->softirq_hot))
		e->st = BC_SUS_NOT_MEASURED;
	else if (s_softirq_hot(h, prev))
		s_say(e, BC_SUS_IMPLICATED, h->softirq_hot, BC_ANA_SOFTIRQ_U,
		      "core %d %.0f%% busy, softirq %.0f%% on core %d, squeezed %.0f/s, mean CPU "
		      "%.0f%%: RSS/IRQ affinity",
		      h->hot_core_id, 100 * h->hot_core, 100 * h->softirq_hot, h->softirq_hot_id,
		      isnan(h->squeezed_per_s) ? 0 : h->squeezed_per_s, 100 * h->cpu_busy);
	else
		s_say(e, BC_SUS_EXCLUDED, h->softirq_hot, BC_ANA_SOFTIRQ_U,
		      "softirq %.1f%% on average, %.0f%% on its hottest core", 100 * h->softirq,
		      100 * h->softirq_hot);
}

/* the saturated cores: counted by the node's counters, else the hot core alone */
static double s_sat(const struct bc_use *h)
{
	if (!isnan(h->sat_cores))
		return h->sat_cores;
	if (isnan(h->hot_core))
		return NAN;
	return h->hot_core >= BC_ANA_HOT_CORE_U ? 1 : 0;
}

/* the same cores saturated at every point of the sweep (lists known), or not */
static const char *s_stability(const struct bc_ana_point *pts, int n, int at, int j)
{
	const struct bc_use *h = &pts[at].nodes[j];
	int i;

	if (!h->sat_list[0] || n < 2)
		return "";
	for (i = 0; i < n; i++)
		if (j >= pts[i].nnodes || strcmp(pts[i].nodes[j].sat_list, h->sat_list))
			return ", the set moves between points";
	return ", the same at every point";
}

static void s_core_group(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];
	const struct bc_use *prev = at > 0 && j < pts[at - 1].nnodes ? &pts[at - 1].nodes[j] : NULL;
	double sat = s_sat(h), idle = 1 - h->cpu_busy;

	if (isnan(sat)) {
		e->st = BC_SUS_NOT_MEASURED;
		return;
	}
	/* a whole CPU busy is the CPU row's; one softirq core is the softirq row's */
	if (sat < 1 || !(idle >= S_SAT_IDLE) || (sat < 2 && s_softirq_hot(h, prev))) {
		s_say(e, BC_SUS_EXCLUDED, h->hot_core, BC_ANA_HOT_CORE_U,
		      "%.0f of %d cores at >= 95%%, busiest %.0f%% (core %d), %.0f%% idle", sat,
		      h->ncpu, 100 * h->hot_core, h->hot_core_id, 100 * idle);
		return;
	}
	if (sat < 2)
		s_say(e, BC_SUS_IMPLICATED, h->hot_core, BC_ANA_HOT_CORE_U,
		      "core %d %.0f%% busy while the mean is %.0f%%: a single-threaded stage",
		      h->hot_core_id, 100 * h->hot_core, 100 * h->cpu_busy);
	else
		s_say(e, BC_SUS_IMPLICATED, isnan(h->sat_busy) ? h->hot_core : h->sat_busy,
		      BC_ANA_HOT_CORE_U,
		      "%.0f of %d cores at %.0f%% (cores %s%s) while %.0f%% is idle: a fixed group "
		      "of cores is the limit",
		      sat, h->ncpu, 100 * (isnan(h->sat_busy) ? h->hot_core : h->sat_busy),
		      h->sat_list[0] ? h->sat_list : "?", s_stability(pts, n, at, j), 100 * idle);
}

static void s_disk(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];
	const struct bc_use *prev = at > 0 && j < pts[at - 1].nnodes ? &pts[at - 1].nodes[j] : NULL;
	char gc[160], rate[32], extra[200] = "";
	double gr = bc_use_gc_ratio(h, gc, sizeof(gc));

	if (!isnan(gr))
		snprintf(extra, sizeof(extra), ", %s", gc);
	else if (h->gc_write_bps > 0) {
		/* GC with nothing written in this step: what earlier writes left to clean */
		bc_ana_rate3(h->gc_write_bps, rate, sizeof(rate));
		snprintf(extra, sizeof(extra), ", GC writes %s while clients write nothing", rate);
	}
	if (isnan(gr) && isnan(h->disk_aqu_max) && isnan(h->gc_write_bps))
		e->st = BC_SUS_NOT_MEASURED;
	else if (gr >= BC_ANA_GC_RATIO)
		s_say(e, BC_SUS_IMPLICATED, gr, BC_ANA_GC_RATIO, "%s: GC/write amplification", gc);
	else if (h->disk_aqu_max > BC_ANA_DISK_AQU && (!prev || isnan(prev->disk_w_await_ms) ||
						       h->disk_w_await_ms > prev->disk_w_await_ms))
		s_say(e, BC_SUS_IMPLICATED, h->disk_aqu_max, BC_ANA_DISK_AQU,
		      "disk queue %.1f (aqu-sz), write await %.1f ms%s", h->disk_aqu_max,
		      h->disk_w_await_ms, extra);
	else if (!isnan(h->disk_aqu_max))
		s_say(e, BC_SUS_EXCLUDED, h->disk_aqu_max, BC_ANA_DISK_AQU,
		      "disk queue %.1f (aqu-sz)%s", h->disk_aqu_max, extra);
	else
		s_say(e, BC_SUS_EXCLUDED, isnan(gr) ? 0 : gr, BC_ANA_GC_RATIO, "%s",
		      extra[0] ? extra + 2 : "GC not measured");
}

/*
 * The journal (or commit log) queues when its latency is far above what
 * the devices under it take for a write: the software waits, not the disk.
 * Near the devices' own await, a slow journal is the disk's (the row above).
 */
static void s_journal(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];
	double jl = h->journal_lat_s, dev = h->disk_w_await_ms / 1e3, x;

	(void)n;
	if (isnan(jl)) {
		e->st = BC_SUS_NOT_MEASURED;
		return;
	}
	if (isnan(dev)) {
		s_say(e, BC_SUS_NOT_MEASURED, NAN, NAN,
		      "journal latency %.2f ms; no device write await to compare it with "
		      "(node_disk_write_time_seconds_total)",
		      1e3 * jl);
		return;
	}
	x = jl / fmax(dev, 1e-5);
	if (jl >= BC_ANA_JOURNAL_MIN_S && x >= BC_ANA_JOURNAL_X) {
		s_say(e, BC_SUS_IMPLICATED, x, BC_ANA_JOURNAL_X,
		      "journal latency %.1f ms while its devices' write await is %.2f ms (x%.0f): "
		      "writes queue in the journal",
		      1e3 * jl, 1e3 * dev, x);
		e->res = "journal latency";
	} else
		s_say(e, BC_SUS_EXCLUDED, x, BC_ANA_JOURNAL_X,
		      "journal latency %.2f ms, devices' write await %.2f ms (x%.1f)", 1e3 * jl,
		      1e3 * dev, x);
}

/* a read cache whose hit ratio fell as the load grew: the working set outgrew it */
static void s_cache(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];
	/* over the whole sweep: the judged point of a plateau is its first */
	const struct bc_use *z = j < pts[n - 1].nnodes ? &pts[n - 1].nodes[j] : h;
	double first = j < pts[0].nnodes ? pts[0].nodes[j].cache_hit : NAN;

	if (isnan(h->cache_hit) && isnan(z->cache_hit))
		e->st = BC_SUS_NOT_MEASURED;
	else if (n > 1 && first - z->cache_hit >= BC_ANA_CACHE_DROP) {
		s_say(e, BC_SUS_IMPLICATED, first - z->cache_hit, BC_ANA_CACHE_DROP,
		      "read cache hits %.0f%% at the highest load, %.0f%% at the first point: the "
		      "working set outgrew the cache",
		      100 * z->cache_hit, 100 * first);
		e->res = "read cache";
	} else if (n > 1 && !isnan(first))
		s_say(e, BC_SUS_EXCLUDED, fmax(first - z->cache_hit, 0), BC_ANA_CACHE_DROP,
		      "read cache hits %.0f%% (%.0f%% at the first point)", 100 * z->cache_hit,
		      100 * first);
	else
		s_say(e, BC_SUS_EXCLUDED, 0, BC_ANA_CACHE_DROP, "read cache hits %.0f%%",
		      100 * h->cache_hit);
}

/*
 * A client host at or near full CPU, or with tasks waiting for one, limits
 * whatever runs on it, whoever holds the CPU: implicated. The finding says
 * who held it - the agent, the run's other agents on the host, other
 * processes (named) - and what it was before the step.
 */
static void s_client_cpu(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].clients[j];
	double lpc = h->ncpu > 0 ? h->load1 / h->ncpu : NAN;
	char who[480] = "", before[80] = "", wait[80] = "";
	size_t used;

	(void)n;
	if (isnan(h->cpu_busy) && isnan(lpc)) {
		e->st = BC_SUS_NOT_MEASURED;
		return;
	}
	if (!isnan(h->agent_cpu))
		snprintf(who, sizeof(who), ", the agent %.0f%% of the host (%.2f cores)",
			 100 * h->agent_cpu, h->agent_cores);
	used = strlen(who);
	if (!isnan(h->run_cpu) && !isnan(h->agent_cpu) && h->run_cpu > h->agent_cpu + 0.005)
		snprintf(who + used, sizeof(who) - used, ", the run's agents on it %.0f%%",
			 100 * h->run_cpu);
	used = strlen(who);
	if (!isnan(h->others_cpu))
		snprintf(who + used, sizeof(who) - used, ", other processes %.0f%%%s%s%s",
			 100 * h->others_cpu, h->others_top[0] ? " (" : "", h->others_top,
			 h->others_top[0] ? ")" : "");
	if (!isnan(h->baseline_busy))
		snprintf(before, sizeof(before), ", %.0f%% busy before the step",
			 100 * h->baseline_busy);
	if (!isnan(h->cpu_pressure))
		snprintf(wait, sizeof(wait), ", tasks waited for a CPU %.0f%% of the time",
			 100 * h->cpu_pressure);
	if (h->cpu_busy >= BC_ANA_CPU_U)
		s_say(e, BC_SUS_IMPLICATED, h->cpu_busy, BC_ANA_CPU_U,
		      "CPU %.0f%% busy over %d cores%s%s%s", 100 * h->cpu_busy, h->ncpu, wait, who,
		      before);
	else if (lpc > BC_ANA_LOAD_PER_CPU)
		s_say(e, BC_SUS_IMPLICATED, lpc, BC_ANA_LOAD_PER_CPU,
		      "load1 %.1f on %d cores (%.1f per core)%s%s%s", h->load1, h->ncpu, lpc, wait,
		      who, before);
	else if (h->cpu_pressure >= BC_ANA_CPU_PRESSURE)
		s_say(e, BC_SUS_IMPLICATED, h->cpu_pressure, BC_ANA_CPU_PRESSURE,
		      "tasks waited for a CPU %.0f%% of the time, CPU %.0f%% busy%s%s",
		      100 * h->cpu_pressure, 100 * h->cpu_busy, who, before);
	else
		s_say(e, BC_SUS_EXCLUDED,
		      fmax(h->cpu_busy / BC_ANA_CPU_U, lpc / BC_ANA_LOAD_PER_CPU), 1,
		      "CPU %.0f%% busy, load %.2f per core%s%s", 100 * h->cpu_busy, lpc, wait, who);
}

/* ---- rows over several hosts at once ---- */

/* name is one of the comma-separated list */
static bool s_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *q;

	if (!n)
		return false;
	for (q = list; (q = strstr(q, name)); q += n)
		if ((q == list || q[-1] == ',' || q[-1] == ' ') && (q[n] == ',' || !q[n]))
			return true;
	return false;
}

/*
 * The route leaves by a counted interface: itself, its bond, or a VLAN on
 * one ("bond0.100" on a counted bond0 carries bytes bond0 counts).
 */
static bool s_counted_dev(const char *nics, const struct bc_use_route *rt)
{
	char lower[BC_HF_NAME];

	if (s_in_list(nics, rt->dev) || (rt->bond[0] && s_in_list(nics, rt->bond)))
		return true;
	snprintf(lower, sizeof(lower), "%s", rt->dev);
	if (!strchr(lower, '.'))
		return false;
	*strchr(lower, '.') = '\0';
	return s_in_list(nics, lower);
}

/* what a bond's transmit hashing does with the flows between two hosts */
static void s_hash_phrase(const struct bc_use *h, char *buf, size_t len)
{
	const char *p = h->hash_policy;

	if (!p[0])
		snprintf(buf, len, "hash policy not visible (%s)",
			 h->client ? "no bond on the route in sysfs" : "the profile's nic_hash");
	else if (!strncmp(p, "layer2", 6) || !strcmp(p, "vlan+srcmac"))
		snprintf(buf, len,
			 "xmit_hash_policy %s hashes addresses, not ports: one link per pair of "
			 "hosts; layer3+4 spreads connections",
			 p);
	else
		snprintf(buf, len,
			 "xmit_hash_policy %s hashes ports: too few connections to spread (more "
			 "jobs or NVMe/TCP queues)",
			 p);
}

static int s_node_index(const struct bc_ana_point *p, const char *name)
{
	int j;

	for (j = 0; j < p->nnodes; j++)
		if (!strcmp(p->nodes[j].name, name))
			return j;
	return -1;
}

/*
 * Each client's route to each node address: the MTU it carries against
 * the node's (node_network_mtu_bytes), and the interface it leaves by
 * against the ones the client's traffic is counted on - a route by the
 * management port is a path nobody measured. Findings go to r; what was
 * checked to sum.
 */
static int s_routes(const struct bc_ana_point *p, struct bc_suspect *r, char *sum, size_t slen)
{
	char devs[120] = "", errs[4][96] = {""};
	int i, k, e, nr = 0, nlocal = 0, nmtu = 0, nerr[4] = {0};
	double mtu_lo = NAN, mtu_hi = NAN;

	for (i = 0; i < p->nclients; i++) {
		const struct bc_use *h = &p->clients[i];
		char bad[200] = "", bdev[BC_HF_NAME] = "";
		double bmtu = NAN, bnode = NAN;
		bool uniform = true;
		int nbad = 0;

		for (k = 0; k < h->nroutes; k++) {
			const struct bc_use_route *rt = &h->routes[k];
			int j = s_node_index(p, rt->node);
			double nm = j >= 0 ? p->nodes[j].mtu_min : NAN;

			if (rt->error[0]) {
				/* the same error from every client is said once, with the count */
				for (e = 0; e < 4 && errs[e][0] && strcmp(errs[e], rt->error); e++)
					;
				if (e < 4) {
					snprintf(errs[e], sizeof(errs[e]), "%s", rt->error);
					nerr[e]++;
				}
				continue;
			}
			if (rt->local) {
				nlocal++;
				continue;
			}
			nr++;
			if (!s_in_list(devs, rt->dev))
				bc_ana_cat(devs, sizeof(devs), "%s%s", devs[0] ? ", " : "",
					   rt->dev);
			if (!isnan(rt->mtu)) {
				mtu_lo = isnan(mtu_lo) ? rt->mtu : fmin(mtu_lo, rt->mtu);
				mtu_hi = isnan(mtu_hi) ? rt->mtu : fmax(mtu_hi, rt->mtu);
			}
			if (!isnan(rt->mtu) && !isnan(nm)) {
				nmtu++;
				if (rt->mtu != nm) {
					if (nbad++ && (rt->mtu != bmtu || nm != bnode ||
						       strcmp(bdev, rt->dev)))
						uniform = false;
					bmtu = rt->mtu;
					bnode = nm;
					snprintf(bdev, sizeof(bdev), "%s", rt->dev);
					bc_ana_cat(
					    bad, sizeof(bad), "%s%s's %.0f against %s's %.0f",
					    bad[0] ? ", " : "", rt->node, nm, rt->dev, rt->mtu);
					r->resource = r->resource ? r->resource : "MTU";
					r->u = rt->mtu;
					r->threshold = nm;
				}
			}
			/* leaving by an interface the client's counters do not count */
			if (h->nics[0] && !s_counted_dev(h->nics, rt)) {
				char sp[32] = "";

				if (!isnan(rt->speed_bps))
					bc_ana_rate3(rt->speed_bps, sp, sizeof(sp));
				bc_ana_cat(
				    r->finding, sizeof(r->finding),
				    "%sclient %s -> node %s (%s) leaves by %s%s%s%s%s, not by the "
				    "counted %s: an unexpected interface",
				    r->finding[0] ? "; " : "", h->name, rt->node, rt->addr, rt->dev,
				    sp[0] ? " (" : "", sp, sp[0] ? ")" : "",
				    rt->gateway[0] ? " via a gateway" : "", h->nics);
				if (!s_in_list(r->hosts, h->name))
					bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%s",
						   r->hosts[0] ? ", " : "", h->name);
				r->resource =
				    r->resource ? r->resource : "route by an unexpected interface";
			}
		}
		if (!nbad)
			continue;
		if (uniform && nbad > 1)
			bc_ana_cat(r->finding, sizeof(r->finding),
				   "%sclient %s: MTU %.0f via %s to %d nodes whose NICs have %.0f",
				   r->finding[0] ? "; " : "", h->name, bmtu, bdev, nbad, bnode);
		else
			bc_ana_cat(r->finding, sizeof(r->finding),
				   "%sclient %s: MTU differs from the nodes': %s",
				   r->finding[0] ? "; " : "", h->name, bad);
		if (!s_in_list(r->hosts, h->name))
			bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%s", r->hosts[0] ? ", " : "",
				   h->name);
	}
	for (k = 0, r->nhosts = 0; r->hosts[k]; k++)
		r->nhosts += r->hosts[k] == ',' || !k;
	/* the s_net_path findings after these count on from here */
	if (nr && isnan(mtu_lo))
		snprintf(sum, slen, "%d client route(s) to node addresses via %s, MTU unknown", nr,
			 devs);
	else if (nr && mtu_hi != mtu_lo)
		snprintf(sum, slen, "%d client route(s) to node addresses via %s, MTU %.0f-%.0f",
			 nr, devs, mtu_lo, mtu_hi);
	else if (nr)
		snprintf(sum, slen, "%d client route(s) to node addresses via %s, MTU %.0f", nr,
			 devs, mtu_lo);
	if (nr && nmtu)
		bc_ana_cat(sum, slen, ", %d matching the node's own", nmtu);
	if (nlocal)
		bc_ana_cat(sum, slen, "%s%d client route(s) to a node address on the client itself",
			   sum[0] ? "; " : "", nlocal);
	for (e = 0; e < 4 && errs[e][0]; e++)
		bc_ana_cat(sum, slen, "%s%s (%d client%s)", sum[0] ? "; " : "", errs[e], nerr[e],
			   nerr[e] > 1 ? "s" : "");
	return nr;
}

/*
 * A bond's mode as the node reports it (node-facts collector): a mode that
 * does not balance (active-backup, broadcast) carries everything on one of
 * its links, and an 802.3ad bond with links outside its aggregator has
 * less than it was built with. Findings into r, what was checked to worst.
 */
static void s_bond_mode(const struct bc_use *h, const char *kind, struct bc_suspect *r, char *worst,
			size_t wlen, bool *sat, int *bonds)
{
	static const char *const balanced[] = {"802.3ad", "balance-rr", "balance-xor",
					       "balance-tlb", "balance-alb"};
	double util = fmax(isnan(h->nic_tx) ? 0 : h->nic_tx, isnan(h->nic_rx) ? 0 : h->nic_rx);
	bool bal = false;
	size_t i;

	(*bonds)++;
	for (i = 0; i < sizeof(balanced) / sizeof(balanced[0]); i++)
		bal |= !strcmp(h->bond_mode, balanced[i]);
	util = fmax(util, isnan(h->member_max_util) ? 0 : h->member_max_util);
	if (!bal && h->bond_links > 1 && util >= BC_ANA_NIC_U) {
		bc_ana_cat(
		    r->finding, sizeof(r->finding),
		    "%s%s %s: bond %s in %s mode carries everything on one of its %d links, at "
		    "%.0f%% of it",
		    r->finding[0] ? "; " : "", kind, h->name, h->nics, h->bond_mode, h->bond_links,
		    100 * util);
		bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%s", r->hosts[0] ? ", " : "", h->name);
		r->nhosts++;
		if (!*sat) {
			r->u = util;
			r->threshold = BC_ANA_NIC_U;
			r->resource = "bond mode";
		}
		*sat = true;
		return;
	}
	/* a balancing bond (or one of unknown mode) with links out: less than it was built with */
	if ((bal || !h->bond_mode[0]) && h->bond_active >= 0 && h->bond_active < h->bond_links) {
		if (!strcmp(h->bond_mode, "802.3ad"))
			bc_ana_cat(r->finding, sizeof(r->finding),
				   "%s%s %s: bond %s (802.3ad) aggregates %d of its %d links",
				   r->finding[0] ? "; " : "", kind, h->name, h->nics,
				   h->bond_active, h->bond_links);
		else
			bc_ana_cat(r->finding, sizeof(r->finding),
				   "%s%s %s: bond %s%s%s%s has %d of its %d links up",
				   r->finding[0] ? "; " : "", kind, h->name, h->nics,
				   h->bond_mode[0] ? " (" : "", h->bond_mode,
				   h->bond_mode[0] ? ")" : "", h->bond_active, h->bond_links);
		bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%s", r->hosts[0] ? ", " : "", h->name);
		r->nhosts++;
		r->resource = r->resource ? r->resource : "bond links";
		if (util >= BC_ANA_NIC_U)
			*sat = true;
		return;
	}
	bc_ana_cat(worst, wlen, "; %s %s: bond %s %s, %d link(s)", kind, h->name, h->nics,
		   h->bond_mode[0] ? h->bond_mode : "(mode not reported)", h->bond_links);
	if (h->bond_active >= 0)
		bc_ana_cat(worst, wlen, ", %d carrying traffic", h->bond_active);
	/* with member counters the member row below names the policy */
	if (h->hash_policy[0] && !h->nmembers)
		bc_ana_cat(worst, wlen, ", xmit_hash_policy %s", h->hash_policy);
	if (h->hash_declared[0])
		bc_ana_cat(worst, wlen, " (the profile says %s)", h->hash_declared);
}

/*
 * The path between them: every end's MTU alike (each client route against
 * its node when the agents report routes, else every host's), the routes
 * on the interfaces counted, no bond member carrying what the bond as a
 * whole does not (with the hash policy that put it there), drops and
 * retransmits not rising.
 */
static void s_net_path(const struct bc_ana_point *pts, int at, struct bc_suspect *r)
{
	const struct bc_ana_point *p = &pts[at], *pp = at > 0 ? &pts[at - 1] : NULL;
	double lo = NAN, hi = NAN, imb = 1;
	char mtus[200] = "", worst[400] = "", routes[300] = "", hash[200];
	int i, measured = 0, members = 0, nmtu = 0, sides = 0, nroutes, bonds = 0;
	bool sat = false;

	r->state = BC_SUS_NOT_MEASURED;
	nroutes = s_routes(p, r, routes, sizeof(routes));
	for (i = 0; i < p->nnodes + p->nclients; i++) {
		bool client = i >= p->nnodes;
		int j = client ? i - p->nnodes : i;
		const struct bc_use *h = s_host(p, client, j),
				    *ph = pp ? s_host(pp, client, j) : NULL;
		const char *kind = client ? "client" : "node";

		/* a host's MTU is its smallest counted link's: what a path through it can carry */
		if (!isnan(h->mtu_min)) {
			nmtu++;
			sides |= client ? 2 : 1;
			lo = isnan(lo) ? h->mtu_min : fmin(lo, h->mtu_min);
			hi = isnan(hi) ? h->mtu_min : fmax(hi, h->mtu_min);
			bc_ana_cat(mtus, sizeof(mtus), "%s%s %.0f", mtus[0] ? ", " : "", h->name,
				   h->mtu_min);
		}
		if (!isnan(h->drops_per_s) || !isnan(h->retrans_per_s))
			measured++;
		if (h->bond_mode[0] || h->bond_links > 0)
			s_bond_mode(h, kind, r, worst, sizeof(worst), &sat, &bonds);
		if (h->nmembers > 0) {
			double ratio = 1;

			members++;
			if (h->member_max_util > 0)
				ratio = h->member_max_util /
					fmax(h->member_min_util, 0.01 * h->member_max_util);
			imb = fmax(imb, ratio);
			s_hash_phrase(h, hash, sizeof(hash));
			/* one link carries the flows, short of saturating it: say so, and why */
			if (h->nmembers > 1 && ratio >= 3 && h->member_max_util >= 0.2 &&
			    h->member_max_util < BC_ANA_NIC_U)
				bc_ana_cat(
				    worst, sizeof(worst),
				    "; %s %s: member %s carries the flows (%.0f%%, %s %.0f%%), %s",
				    kind, h->name, h->member_max, 100 * h->member_max_util,
				    h->member_min, 100 * h->member_min_util, hash);
			else if (h->hash_policy[0])
				bc_ana_cat(worst, sizeof(worst), "; %s %s: xmit_hash_policy %s",
					   kind, h->name, h->hash_policy);
		}
		if (h->nmembers > 0 && h->member_max_util >= BC_ANA_NIC_U &&
		    !(fmax(h->nic_tx, h->nic_rx) >= BC_ANA_NIC_U)) {
			bc_ana_cat(
			    r->finding, sizeof(r->finding),
			    "%s%s %s: bond member %s at %.0f%% of its link while %s is at %.0f%%: "
			    "the bond's hashing puts the traffic on one link (%s)",
			    r->finding[0] ? "; " : "", kind, h->name, h->member_max,
			    100 * h->member_max_util, h->member_min, 100 * h->member_min_util,
			    hash);
			bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%s", r->hosts[0] ? ", " : "",
				   h->name);
			r->nhosts++;
			if (!sat) {
				r->u = h->member_max_util;
				r->threshold = BC_ANA_NIC_U;
				r->resource = "bond member";
			}
			sat = true;
		} else if (ph && (bc_ana_rising(h->drops_per_s, ph->drops_per_s) ||
				  bc_ana_rising(h->retrans_per_s, ph->retrans_per_s))) {
			bool drops = bc_ana_rising(h->drops_per_s, ph->drops_per_s);
			double now = drops ? h->drops_per_s : h->retrans_per_s;
			double was = drops ? ph->drops_per_s : ph->retrans_per_s;

			bc_ana_cat(r->finding, sizeof(r->finding),
				   "%s%s %s: %s rising: %.0f/s (before %.0f/s)",
				   r->finding[0] ? "; " : "", kind, h->name,
				   drops ? "drops" : "TCP retransmits", now, isnan(was) ? 0 : was);
			bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%s", r->hosts[0] ? ", " : "",
				   h->name);
			r->nhosts++;
			if (!sat) {
				r->u = fmax(h->nic_tx, h->nic_rx);
				r->threshold = BC_ANA_NIC_U;
				r->resource = drops ? "NIC drops" : "TCP retransmits";
			}
			sat = true;
		}
	}
	/*
	 * Both ends known, or there is no path to compare; routes off the host
	 * judged it pair by pair (a node address local to the client is none).
	 */
	if (!nroutes && sides == 3 && lo != hi) {
		bc_ana_cat(r->finding, sizeof(r->finding), "%sMTU differs between the ends (%s)",
			   r->finding[0] ? "; " : "", mtus);
		r->resource = r->resource ? r->resource : "MTU";
		r->u = lo;
		r->threshold = hi;
	}
	if (members)
		bc_ana_cat(worst, sizeof(worst), "; bond members: busiest/least busy x%.2f", imb);
	if (r->finding[0]) {
		r->state = BC_SUS_IMPLICATED;
		/* an MTU mismatch or an odd route costs efficiency, it saturates nothing itself */
		r->score = sat ? 1 : 0.5;
		memcpy(r->figures, r->finding, sizeof(r->figures));
		/* what else was checked, after what decided it */
		if (routes[0])
			bc_ana_cat(r->figures, sizeof(r->figures), "; %s", routes);
		bc_ana_cat(r->figures, sizeof(r->figures), "%s", worst);
		r->cls = sat ? "NIC-bound" : "network-path";
		return;
	}
	if (!nmtu && !members && !measured && !routes[0] && !bonds)
		return;
	r->state = BC_SUS_EXCLUDED;
	r->score = members ? s_score(imb, 3.0) : 0;
	snprintf(r->hosts, sizeof(r->hosts), "%d host(s) with MTU, %d with bond members", nmtu,
		 members);
	if (nroutes)
		snprintf(r->figures, sizeof(r->figures), "%s", routes);
	else if (sides == 3)
		snprintf(r->figures, sizeof(r->figures), "MTU %.0f on every end measured (%d)", lo,
			 nmtu);
	else if (nmtu)
		snprintf(r->figures, sizeof(r->figures), "MTU %s (%s only)", mtus,
			 sides == 1 ? "nodes" : "clients");
	else
		snprintf(r->figures, sizeof(r->figures), "MTU not reported");
	if (!nroutes && routes[0])
		bc_ana_cat(r->figures, sizeof(r->figures), "; %s", routes);
	bc_ana_cat(r->figures, sizeof(r->figures), "%s%s", worst,
		   measured ? "; drops/retransmits not rising" : "");
}

/*
 * NUMA on a client: the NIC toward the nodes on one node, the job threads
 * on CPUs of another, and every I/O's data crosses the socket interconnect.
 * Unpinned threads spanning both cannot be judged: the scheduler moves them.
 */
static void s_numa(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].clients[j];
	uint64_t nic = 0, job = bc_ana_node_mask(h->job_numa);
	char nics[120] = "", nl[64], jl[64];
	int k;

	(void)n;
	for (k = 0; k < h->nroutes; k++) {
		const struct bc_use_route *rt = &h->routes[k];

		if (rt->error[0] || rt->local || !rt->dev[0] || strstr(nics, rt->dev))
			continue;
		if (rt->numa_node >= 0 && rt->numa_node < 64)
			nic |= 1ull << rt->numa_node;
		bc_ana_cat(nics, sizeof(nics), "%s%s", nics[0] ? ", " : "", rt->dev);
	}
	bc_ana_mask_list(nic, nl, sizeof(nl));
	/* as the agent wrote them ("0-1"), else from the mask */
	if (h->job_numa[0])
		snprintf(jl, sizeof(jl), "%s", h->job_numa);
	else
		bc_ana_mask_list(job, jl, sizeof(jl));
	if (!h->numa_nodes && !nics[0]) {
		e->st = BC_SUS_NOT_MEASURED;
		return;
	}
	if (h->numa_nodes == 1) {
		s_say(e, BC_SUS_EXCLUDED, 0, 1,
		      "one NUMA node, job threads on CPUs %s: nothing to cross",
		      h->job_cpus[0] ? h->job_cpus : "?");
		return;
	}
	if (!nic || !job) {
		s_say(e, BC_SUS_NOT_MEASURED, NAN, NAN,
		      "%d NUMA nodes; %s%s report no NUMA node, job threads on CPUs %s (node %s)",
		      h->numa_nodes, nics[0] ? "NICs " : "no route to a node: the NICs",
		      nics[0] ? nics : "", h->job_cpus[0] ? h->job_cpus : "?", jl[0] ? jl : "?");
		return;
	}
	if (!(job & ~nic)) {
		s_say(e, BC_SUS_EXCLUDED, 0, 1,
		      "NIC %s on node %s, job threads on CPUs %s (node %s): local to the NIC", nics,
		      nl, h->job_cpus, jl);
		return;
	}
	if (!(job & nic) || h->jobs_pinned) {
		s_say(e, BC_SUS_IMPLICATED, 1, 1,
		      "job threads %s on CPUs %s (node %s) while NIC %s is on node %s: "
		      "%s I/O crosses the socket interconnect",
		      h->jobs_pinned ? "pinned" : "confined", h->job_cpus, jl, nics, nl,
		      job & nic ? "part of the" : "every");
		e->res = "NUMA placement";
		return;
	}
	s_say(e, BC_SUS_NOT_MEASURED, NAN, NAN,
	      "job threads unpinned over CPUs %s (nodes %s), NIC %s on node %s: the "
	      "scheduler places them; cpus_allowed on the NIC's node would decide it",
	      h->job_cpus, jl, nics, nl);
}

/*
 * NUMA on a storage node: its storage processes allowed on CPUs of one
 * node while the NIC the traffic is counted on hangs off another, so every
 * I/O's data crosses the interconnect (node-facts collector, facts.h).
 */
static void s_node_numa(const struct bc_ana_point *pts, int n, int at, int j, struct s_eval *e)
{
	const struct bc_use *h = &pts[at].nodes[j];
	uint64_t nic = bc_ana_node_mask(h->nic_numa), proc = bc_ana_node_mask(h->proc_numa);
	const char *nics = h->nics[0] ? h->nics : "its NIC";

	(void)n;
	if (!h->numa_nodes && !h->nic_numa[0] && !h->proc_numa[0]) {
		e->st = BC_SUS_NOT_MEASURED;
		return;
	}
	if (h->numa_nodes == 1) {
		s_say(e, BC_SUS_EXCLUDED, 0, 1, "one NUMA node: nothing to cross");
		return;
	}
	if (!nic || !proc) {
		s_say(e, BC_SUS_NOT_MEASURED, NAN, NAN,
		      "%d NUMA nodes; %s on node %s, storage process %s on node %s: both are "
		      "needed (bench-node-facts.sh --process NAME)",
		      h->numa_nodes, nics, h->nic_numa[0] ? h->nic_numa : "?",
		      h->proc_name[0] ? h->proc_name : "?", h->proc_numa[0] ? h->proc_numa : "?");
		return;
	}
	if (!(proc & ~nic)) {
		s_say(e, BC_SUS_EXCLUDED, 0, 1,
		      "storage process %s on CPUs %s (node %s), %s on node %s: local", h->proc_name,
		      h->proc_cpus, h->proc_numa, nics, h->nic_numa);
		return;
	}
	if (!(proc & nic)) {
		s_say(e, BC_SUS_IMPLICATED, 1, 1,
		      "storage process %s on CPUs %s (node %s) while %s is on node %s: every "
		      "I/O crosses the socket interconnect",
		      h->proc_name, h->proc_cpus, h->proc_numa, nics, h->nic_numa);
		e->res = "NUMA placement";
		return;
	}
	s_say(e, BC_SUS_NOT_MEASURED, NAN, NAN,
	      "storage process %s may run on CPUs %s (nodes %s), %s on node %s: the scheduler "
	      "places its threads; pinned to the NIC's node it would be decided",
	      h->proc_name, h->proc_cpus, h->proc_numa, nics, h->nic_numa);
}

/* more load gave more, or only queued */
static void s_load(const struct bc_ana_point *pts, int n, int at, bool plateau,
		   struct bc_suspect *r)
{
	const struct bc_ana_point *a = &pts[at], *z = &pts[n - 1];

	if (n < 2) {
		r->state = BC_SUS_NOT_MEASURED;
		snprintf(r->figures, sizeof(r->figures), "one point: sweep the load to judge it");
		return;
	}
	if (plateau && z->n > a->n && a->x_bps > 0 && a->r_mean_s > 0) {
		r->state = BC_SUS_EXCLUDED;
		r->score = s_score(fmax(z->x_bps / a->x_bps - 1, 0), BC_ANA_PLATEAU_DX);
		snprintf(
		    r->figures, sizeof(r->figures),
		    "N x%.2g (%.0f -> %.0f): throughput %+.1f%%, mean latency x%.2f: more load "
		    "only queues",
		    z->n / a->n, a->n, z->n, 100 * (z->x_bps / a->x_bps - 1),
		    z->r_mean_s / a->r_mean_s);
		return;
	}
	/* the last step up still paid off: more load would give more, the sweep stopped short */
	if (bc_ana_classify(&pts[n - 2], z, NULL) == BC_ANA_SCALING) {
		r->state = BC_SUS_IMPLICATED;
		r->score = 1;
		snprintf(r->figures, sizeof(r->figures),
			 "throughput x%.2f for load x%.2g (N %.0f -> %.0f): still rising, no "
			 "ceiling yet",
			 pts[0].x_bps > 0 ? z->x_bps / pts[0].x_bps : NAN, z->n / pts[0].n,
			 pts[0].n, z->n);
		memcpy(r->finding, r->figures, sizeof(r->finding));
		return;
	}
	r->state = BC_SUS_EXCLUDED;
	r->score = 0.5;
	snprintf(r->figures, sizeof(r->figures),
		 "throughput x%.2f for load x%.2g (N %.0f -> %.0f): more load gave little",
		 pts[0].x_bps > 0 ? z->x_bps / pts[0].x_bps : NAN, z->n / pts[0].n, pts[0].n, z->n);
}

/* what a version fact of a host is */
static const char *s_ver_kernel(const struct bc_use *h)
{
	return h->kernel;
}

static const char *s_ver_software(const struct bc_use *h)
{
	return h->versions;
}

static const char *s_ver_firmware(const struct bc_use *h)
{
	return h->firmware;
}

/*
 * The same kernel on every node and on every client, the same storage
 * software and NVMe firmware on every node: a host that differs is a
 * difference to explain. Returns how many hosts reported one.
 */
static int s_version_of(const struct bc_ana_point *p, int side, const char *what,
			const char *(*get)(const struct bc_use *), struct bc_suspect *r)
{
	int nh = side ? p->nclients : p->nnodes, j, k = 0;
	const char *first = NULL;
	bool drift = false;
	char list[300] = "";

	for (j = 0; j < nh; j++) {
		const struct bc_use *h = s_host(p, side, j);

		if (!get(h)[0])
			continue;
		k++;
		drift |= first && strcmp(first, get(h));
		first = first ? first : get(h);
		bc_ana_cat(list, sizeof(list), "%s%s %s", list[0] ? ", " : "", h->name, get(h));
	}
	if (drift) {
		bc_ana_cat(r->finding, sizeof(r->finding), "%s%s differs across %ss (%s)",
			   r->finding[0] ? "; " : "", what, side ? "client" : "node", list);
		bc_ana_cat(r->hosts, sizeof(r->hosts), "%s%ss", r->hosts[0] ? ", " : "",
			   side ? "client" : "node");
	} else if (k) {
		bc_ana_cat(r->figures, sizeof(r->figures), "%s%s %s on every %s measured (%d)",
			   r->figures[0] ? "; " : "", what, first, side ? "client" : "node", k);
	}
	return k;
}

static void s_version(const struct bc_ana_point *p, struct bc_suspect *r)
{
	int known = 0, sw, fw;

	r->state = BC_SUS_NOT_MEASURED;
	known += s_version_of(p, 0, "kernel", s_ver_kernel, r);
	known += s_version_of(p, 1, "kernel", s_ver_kernel, r);
	sw = s_version_of(p, 0, "storage software", s_ver_software, r);
	fw = s_version_of(p, 0, "NVMe model/firmware", s_ver_firmware, r);
	known += sw + fw;
	/* what was not read is said, with the way to read it */
	if (p->nnodes && !sw && r->figures[0])
		bc_ana_cat(
		    r->figures, sizeof(r->figures),
		    "; storage software version not reported (a series with role version, or "
		    "bench-node-facts.sh --package)");
	if (p->nnodes && !fw && r->figures[0])
		bc_ana_cat(r->figures, sizeof(r->figures),
			   "; NVMe firmware not reported (node_exporter's nvme collector or "
			   "bench-node-facts.sh)");
	if (r->finding[0]) {
		r->state = BC_SUS_IMPLICATED;
		r->score = 0.5; /* a difference to explain, not a saturated resource */
		r->cls = "version-drift";
		r->resource = "versions";
		{
			/* what differs, then what was the same */
			char same[sizeof(r->figures)];

			memcpy(same, r->figures, sizeof(same));
			snprintf(r->figures, sizeof(r->figures), "%s%s%s", r->finding,
				 same[0] ? "; " : "", same);
		}
	} else if (known >= 2) {
		r->state = BC_SUS_EXCLUDED;
	} else {
		snprintf(r->figures, sizeof(r->figures),
			 "kernel releases not reported (node_uname_info, agents' osrelease)");
	}
}

/* NUMA placement on the nodes (their facts) and on the clients (the agents'), one row */
static void s_numa_row(const struct bc_ana_point *pts, int n, int at, struct bc_suspect *r)
{
	struct bc_suspect *rn = calloc(2, sizeof(*rn)), *rc = rn ? rn + 1 : NULL;
	int j;

	if (!rn)
		return;
	s_row(pts, n, at, false, s_node_numa, rn);
	s_row(pts, n, at, true, s_numa, rc);
	*r = rn->state >= rc->state ? *rn : *rc;
	if (rn->state == BC_SUS_IMPLICATED && rc->state == BC_SUS_IMPLICATED) {
		snprintf(r->finding, sizeof(r->finding), "%s; %s", rn->finding, rc->finding);
		snprintf(r->hosts, sizeof(r->hosts), "%s, %s", rn->hosts, rc->hosts);
		r->nhosts = rn->nhosts + rc->nhosts;
	}
	/* each side's own figures (an implicated side's are its finding) */
	snprintf(r->figures, sizeof(r->figures), "nodes: %s%s%s; clients: %s",
		 rn->state == BC_SUS_NOT_MEASURED ? "not measured" : "",
		 rn->state == BC_SUS_NOT_MEASURED && rn->figures[0] ? ", " : "",
		 rn->figures[0]			    ? rn->figures
		 : rn->state == BC_SUS_NOT_MEASURED ? " (bench-node-facts.sh --process NAME "
						      "on each node reports it)"
						    : "",
		 rc->figures[0] ? rc->figures : "no NUMA facts from the agents");
	/* a node that could not be judged beside ones that were: said, with why */
	if (rn->state != BC_SUS_NOT_MEASURED)
		for (j = 0; j < pts[at].nnodes; j++) {
			struct s_eval e = {0};

			s_node_numa(pts, n, at, j, &e);
			if (e.st == BC_SUS_NOT_MEASURED && e.phrase[0])
				bc_ana_cat(r->figures, sizeof(r->figures),
					   "; not judged: node %s: %s", pts[at].nodes[j].name,
					   e.phrase);
		}
	r->cls = "NUMA-remote";
	r->resource = r->resource ? r->resource : "NUMA placement";
	/* a remote NIC costs bandwidth and latency; it saturates nothing by itself */
	if (r->state == BC_SUS_IMPLICATED)
		r->score = 0.5;
	free(rn);
}

/* nodes that plateau alike: every node's throughput within 5% of the others' */
static void s_cluster(const struct bc_ana_point *p, bool plateau, struct bc_suspects *s)
{
	double lo = INFINITY, hi = 0, sum = 0, v;
	char rate[32];
	int j, k = 0;

	s->per_node_bps = NAN;
	if (!plateau || p->nnodes < 1)
		return;
	for (j = 0; j < p->nnodes; j++) {
		if (p->node_load && p->node_load[j].volumes <= 0)
			continue;
		v = p->node_goodput_bps ? p->node_goodput_bps[j] : p->nodes[j].net_tx_bps;
		if (!(v > 0))
			return;
		lo = fmin(lo, v);
		hi = fmax(hi, v);
		sum += v;
		k++;
	}
	if (!k || hi > S_FLAT_SPREAD * lo)
		return;
	/* quoted as goodput, whatever the spread was judged on */
	s->per_node_bps = p->node_goodput_bps ? sum / k : p->x_bps / k;
	s->nflat = k;
	bc_ana_rate3(s->per_node_bps, rate, sizeof(rate));
	if (k > 1)
		snprintf(s->cluster, sizeof(s->cluster), "all %d nodes flat at %s each", k, rate);
	else
		snprintf(s->cluster, sizeof(s->cluster), "node %s flat at %s", p->nodes[0].name,
			 rate);
}

void bc_ana_suspects(const struct bc_ana_point *pts, int n, int at, bool plateau,
		     struct bc_suspects *s)
{
	static const struct {
		enum bc_sus_id id;
		bool client;
		s_eval_fn fn;
		const char *cls, *resource;
	} rows[] = {
	    {BC_SUS_NODE_NIC, false, s_node_nic, "NIC-bound", "NIC"},
	    {BC_SUS_NODE_CPU, false, s_node_cpu, "CPU-bound", "CPU"},
	    {BC_SUS_SOFTIRQ, false, s_softirq, "single-core/softirq-bound", "softirq on one core"},
	    {BC_SUS_CORE_GROUP, false, s_core_group, "core-group-bound", "core group"},
	    {BC_SUS_DISK, false, s_disk, "disk/GC-bound", "disk"},
	    {BC_SUS_JOURNAL, false, s_journal, "journal-bound", "journal"},
	    {BC_SUS_CACHE, false, s_cache, "cache-bound", "read cache"},
	    {BC_SUS_CLIENT_NIC, true, s_client_nic, "client-bound", "NIC"},
	    {BC_SUS_CLIENT_CPU, true, s_client_cpu, "client-bound", "CPU"},
	};
	size_t i;
	int k;

	memset(s, 0, sizeof(*s));
	s->at = at;
	s->lead = -1;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct bc_suspect *r = &s->row[rows[i].id];

		s_row(pts, n, at, rows[i].client, rows[i].fn, r);
		r->cls = rows[i].cls;
		r->resource = r->resource ? r->resource : rows[i].resource;
	}
	/* one core of a group: the single-threaded stage keeps its own class */
	if (s->row[BC_SUS_CORE_GROUP].state == BC_SUS_IMPLICATED &&
	    strstr(s->row[BC_SUS_CORE_GROUP].finding, "single-threaded"))
		s->row[BC_SUS_CORE_GROUP].cls = "single-core/softirq-bound";
	s_net_path(pts, at, &s->row[BC_SUS_NET_PATH]);
	s_load(pts, n, at, plateau, &s->row[BC_SUS_LOAD]);
	s->row[BC_SUS_LOAD].resource = "load";
	s_numa_row(pts, n, at, &s->row[BC_SUS_NUMA]);
	s_version(&pts[at], &s->row[BC_SUS_VERSION]);
	/* a read cache that stopped hitting explains latency; it saturates nothing itself */
	if (s->row[BC_SUS_CACHE].state == BC_SUS_IMPLICATED)
		s->row[BC_SUS_CACHE].score = 0.5;
	/* not measured: say what would measure it */
	for (k = 0; k < BC_SUS_NR; k++) {
		struct bc_suspect *r = &s->row[k];

		if (r->state != BC_SUS_NOT_MEASURED || !s_how[k])
			continue;
		if (r->figures[0])
			bc_ana_cat(r->figures, sizeof(r->figures), "; to measure: %s", s_how[k]);
		else
			snprintf(r->figures, sizeof(r->figures), "to measure: %s", s_how[k]);
	}
	/* the lead: the highest score, ties in the table's order (nodes before clients) */
	for (k = 0; k < BC_SUS_NR; k++)
		if (k != BC_SUS_LOAD && s->row[k].state == BC_SUS_IMPLICATED) {
			s->nimplicated++;
			if (s->lead < 0 || s->row[k].score > s->row[s->lead].score)
				s->lead = k;
		}
	s_cluster(&pts[at], plateau, s);
}

cJSON *bc_ana_suspects_json(const struct bc_suspects *s)
{
	cJSON *arr = cJSON_CreateArray();
	int k;

	for (k = 0; arr && k < BC_SUS_NR; k++) {
		const struct bc_suspect *r = &s->row[k];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "suspect", bc_sus_names[k]);
		cJSON_AddStringToObject(o, "state", bc_sus_state_names[r->state]);
		if (r->state != BC_SUS_NOT_MEASURED)
			cJSON_AddNumberToObject(o, "score", round(r->score * 100) / 100);
		if (r->hosts[0])
			cJSON_AddStringToObject(o, "hosts", r->hosts);
		cJSON_AddStringToObject(o, "figures", r->figures[0] ? r->figures : "-");
		/* alone too: a report folds the unmeasured rows into one line with it */
		if (r->state == BC_SUS_NOT_MEASURED && s_how[k])
			cJSON_AddStringToObject(o, "measure", s_how[k]);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}
