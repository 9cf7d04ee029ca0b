/*
 * analysis/analysis.c - the decision procedure described in analysis/analysis.h, over a
 * sweep: validate (Little's law, bytes), classify each point,
 * find the knee, attribute the ceiling with USE per node and per client,
 * and say it in one verdict with the numbers behind it; per storage node,
 * the same classes and knee over the load on its own volumes, so a node
 * held flat by the profile's rate limits is named and the rest judged
 * apart. Pure: numbers in, JSON out; the fits are in analysis/fit.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* GB/GiB: 1e9 / 2^30 and its inverse, and how near a ratio must be to count as one */
#define S_GIB_RATIO  0.9313225746
#define S_GIB_TOL    0.015
#define S_BYTES_LOW  0.97 /* node bytes below client goodput: something is not counted */
#define S_BYTES_HIGH 1.5  /* well above: other traffic or double counting */

static bool s_set(struct bc_use_finding *f, const char *cls, const char *res, double u, double thr,
		  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static bool s_set(struct bc_use_finding *f, const char *cls, const char *res, double u, double thr,
		  const char *fmt, ...)
{
	va_list ap;

	f->saturated = true;
	f->cls = cls;
	f->resource = res;
	f->u = u;
	f->threshold = thr;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
	return true;
}

/* the highest utilization seen, for a host where nothing is saturated */
static void s_highest(const struct bc_use *h, struct bc_use_finding *f)
{
	struct {
		const char *cls, *res;
		double u, thr;
	} c[] = {
	    {"nic", "NIC tx", h->nic_tx, BC_ANA_NIC_U},
	    {"nic", "NIC rx", h->nic_rx, BC_ANA_NIC_U},
	    {"cpu", "CPU", h->cpu_busy, BC_ANA_CPU_U},
	    {"core", "busiest core", h->hot_core, BC_ANA_HOT_CORE_U},
	    {"reactor", "reactors", h->reactor_busy, BC_ANA_REACTOR_U},
	};
	size_t i;

	memset(f, 0, sizeof(*f));
	f->cls = "none";
	f->resource = "nothing observed";
	f->u = NAN;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (!isnan(c[i].u) && (isnan(f->u) || c[i].u / c[i].thr > f->u / f->threshold)) {
			f->cls = c[i].cls;
			f->resource = c[i].res;
			f->u = c[i].u;
			f->threshold = c[i].thr;
		}
	if (!isnan(f->u))
		snprintf(f->detail, sizeof(f->detail), "highest: %s at %.0f%% (limit %.0f%%)",
			 f->resource, 100 * f->u, 100 * f->threshold);
	else
		snprintf(f->detail, sizeof(f->detail), "no counters");
}

bool bc_ana_use_host(const struct bc_use *h, const struct bc_use *prev, struct bc_use_finding *f)
{
	const char *nic = h->nics[0] ? h->nics : "NIC";
	double lpc = h->ncpu > 0 ? h->load1 / h->ncpu : NAN, gr;
	char gc[160];

	memset(f, 0, sizeof(*f));
	/* 1. NIC: either direction at 90% of the link, or drops/retransmits rising */
	if (h->nic_tx >= BC_ANA_NIC_U || h->nic_rx >= BC_ANA_NIC_U) {
		bool tx = !(h->nic_rx > h->nic_tx);

		return s_set(f, "nic", tx ? "NIC tx" : "NIC rx", tx ? h->nic_tx : h->nic_rx,
			     BC_ANA_NIC_U, "%s %s at %.0f%% of %.2f GB/s", nic, tx ? "tx" : "rx",
			     100 * (tx ? h->nic_tx : h->nic_rx), h->link_bps / 1e9);
	}
	if (prev && bc_ana_rising(h->drops_per_s, prev->drops_per_s))
		return s_set(f, "nic", "NIC drops", fmax(h->nic_tx, h->nic_rx), BC_ANA_NIC_U,
			     "%s drops rising: %.0f/s (before %.0f/s)", nic, h->drops_per_s,
			     isnan(prev->drops_per_s) ? 0 : prev->drops_per_s);
	if (prev && bc_ana_rising(h->retrans_per_s, prev->retrans_per_s))
		return s_set(f, "nic", "TCP retransmits", fmax(h->nic_tx, h->nic_rx), BC_ANA_NIC_U,
			     "%s TCP retransmits rising: %.0f/s (before %.0f/s)", nic,
			     h->retrans_per_s,
			     isnan(prev->retrans_per_s) ? 0 : prev->retrans_per_s);
	/* 2. CPU: busy over every core, or a run queue twice the cores */
	if (h->cpu_busy >= BC_ANA_CPU_U)
		return s_set(f, "cpu", "CPU", h->cpu_busy, BC_ANA_CPU_U,
			     "CPU %.0f%% busy over %d cores", 100 * h->cpu_busy, h->ncpu);
	if (lpc > BC_ANA_LOAD_PER_CPU)
		return s_set(f, "cpu", "CPU run queue", lpc, BC_ANA_LOAD_PER_CPU,
			     "load1 %.1f on %d cores (%.1f per core)", h->load1, h->ncpu, lpc);
	/* 3-4. one core pegged while the rest idle; softirq on it names the cause */
	if (h->hot_core >= BC_ANA_HOT_CORE_U && h->cpu_busy < BC_ANA_HOT_CORE_MEAN) {
		bool soft = h->softirq_hot >= BC_ANA_SOFTIRQ_U ||
			    (prev && bc_ana_rising(h->squeezed_per_s, prev->squeezed_per_s));

		if (soft)
			return s_set(
			    f, "softirq", "softirq on one core", h->hot_core, BC_ANA_HOT_CORE_U,
			    "core %d %.0f%% busy, softirq %.0f%% on core %d, squeezed "
			    "%.0f/s, mean CPU %.0f%%: RSS/IRQ affinity",
			    h->hot_core_id, 100 * h->hot_core, 100 * h->softirq_hot,
			    h->softirq_hot_id, isnan(h->squeezed_per_s) ? 0 : h->squeezed_per_s,
			    100 * h->cpu_busy);
		return s_set(f, "core", "single core", h->hot_core, BC_ANA_HOT_CORE_U,
			     "core %d %.0f%% busy while the mean is %.0f%%: a single-threaded "
			     "stage",
			     h->hot_core_id, 100 * h->hot_core, 100 * h->cpu_busy);
	}
	/* 5. polling reactors spin, so OS idle says nothing: their own busy share */
	if (h->reactor_busy >= BC_ANA_REACTOR_U)
		return s_set(f, "reactor", "reactors", h->reactor_busy, BC_ANA_REACTOR_U,
			     "reactors %.0f%% busy", 100 * h->reactor_busy);
	/* 6. disk queue with await rising; GC when writes are amplified */
	gr = bc_use_gc_ratio(h, gc, sizeof(gc));
	if (gr >= BC_ANA_GC_RATIO)
		return s_set(f, "gc", "garbage collection", gr, BC_ANA_GC_RATIO, "%s", gc);
	if (h->disk_aqu_max > BC_ANA_DISK_AQU &&
	    (!prev || isnan(prev->disk_w_await_ms) || h->disk_w_await_ms > prev->disk_w_await_ms))
		return s_set(f, "disk", "disk queue", h->disk_aqu_max, BC_ANA_DISK_AQU,
			     "disk queue %.1f (aqu-sz), write await %.1f ms", h->disk_aqu_max,
			     h->disk_w_await_ms);
	s_highest(h, f);
	return false;
}

/* ---- JSON ---- */

static cJSON *s_num(double v, int decimals)
{
	double m = pow(10, decimals);

	return isfinite(v) ? cJSON_CreateNumber(round(v * m) / m) : cJSON_CreateNull();
}

static void s_add(cJSON *o, const char *key, double v, int decimals)
{
	if (isfinite(v))
		cJSON_AddItemToObject(o, key, s_num(v, decimals));
}

static void s_evidence(cJSON *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void s_evidence(cJSON *arr, const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
}

static const char *s_verdict_class(const struct bc_use *h, const struct bc_use_finding *f)
{
	if (h->client)
		return "client-bound";
	if (!strcmp(f->cls, "nic"))
		return "NIC-bound";
	if (!strcmp(f->cls, "cpu") || !strcmp(f->cls, "reactor"))
		return "CPU-bound";
	if (!strcmp(f->cls, "core") || !strcmp(f->cls, "softirq"))
		return "single-core/softirq-bound";
	return "disk/GC-bound";
}

static cJSON *s_host_json(const struct bc_use *h, const struct bc_use_finding *f)
{
	cJSON *o = cJSON_CreateObject(), *e;

	cJSON_AddStringToObject(o, "name", h->name);
	cJSON_AddStringToObject(o, "verdict",
				f->saturated ? s_verdict_class(h, f) : "no resource saturated");
	cJSON_AddStringToObject(o, "resource", f->resource);
	if (f->threshold > 1) {
		s_add(o, "u", f->u, 2);
		s_add(o, "threshold", f->threshold, 2);
	} else {
		s_add(o, "u_pct", 100 * f->u, 1);
		s_add(o, "threshold_pct", 100 * f->threshold, 1);
	}
	cJSON_AddStringToObject(o, "detail", f->detail);
	e = cJSON_AddObjectToObject(o, "evidence");
	if (h->nics[0])
		cJSON_AddStringToObject(e, "nics", h->nics);
	s_add(e, "net_tx_gbps", h->net_tx_bps / 1e9, 3);
	s_add(e, "net_rx_gbps", h->net_rx_bps / 1e9, 3);
	s_add(e, "link_gbps", h->link_bps / 1e9, 3);
	s_add(e, "nic_tx_pct", 100 * h->nic_tx, 1);
	s_add(e, "nic_rx_pct", 100 * h->nic_rx, 1);
	s_add(e, "cpu_busy_pct", 100 * h->cpu_busy, 1);
	s_add(e, "hot_core_pct", 100 * h->hot_core, 1);
	if (h->hot_core_id >= 0)
		cJSON_AddNumberToObject(e, "hot_core", h->hot_core_id);
	s_add(e, "softirq_pct", 100 * h->softirq, 1);
	s_add(e, "softirq_hot_core_pct", 100 * h->softirq_hot, 1);
	s_add(e, "load_per_cpu", h->ncpu ? h->load1 / h->ncpu : NAN, 2);
	s_add(e, "drops_per_s", h->drops_per_s, 1);
	s_add(e, "retrans_per_s", h->retrans_per_s, 1);
	s_add(e, "softnet_squeezed_per_s", h->squeezed_per_s, 1);
	s_add(e, "reactor_busy_pct", 100 * h->reactor_busy, 1);
	s_add(e, "disk_aqu_max", h->disk_aqu_max, 2);
	s_add(e, "disk_w_await_ms", h->disk_w_await_ms, 2);
	s_add(e, "waf", h->waf, 3);
	s_add(e, "gc_write_mbps", h->gc_write_bps / 1e6, 2);
	s_add(e, "client_write_mbps", h->client_write_bps / 1e6, 2);
	s_add(e, "journal_latency_ms", 1e3 * h->journal_lat_s, 3);
	s_add(e, "cache_hit_pct", 100 * h->cache_hit, 1);
	return o;
}

/* node bytes against client goodput, both directions */
static cJSON *s_reconcile(const struct bc_ana_point *p, cJSON *ev)
{
	cJSON *o = cJSON_CreateObject(), *missing = NULL;
	double tx = 0, rx = 0, ratio;
	bool reads = p->x_read_bps >= p->x_write_bps;
	const char *status, *msg;
	int i, have = 0;

	for (i = 0; i < p->nnodes; i++) {
		if (isnan(p->nodes[i].net_tx_bps)) {
			if (!missing)
				missing = cJSON_AddArrayToObject(o, "nodes_without_counters");
			cJSON_AddItemToArray(missing, cJSON_CreateString(p->nodes[i].name));
			continue;
		}
		tx += p->nodes[i].net_tx_bps;
		rx += p->nodes[i].net_rx_bps;
		have++;
	}
	cJSON_AddStringToObject(o, "direction", reads ? "read: node tx" : "write: node rx");
	s_add(o, "client_gbps", (reads ? p->x_read_bps : p->x_write_bps) / 1e9, 3);
	if (!have || !((reads ? p->x_read_bps : p->x_write_bps) > 0)) {
		cJSON_AddStringToObject(o, "status", "unknown");
		return o;
	}
	ratio = (reads ? tx : rx) / (reads ? p->x_read_bps : p->x_write_bps);
	s_add(o, "node_gbps", (reads ? tx : rx) / 1e9, 3);
	s_add(o, "ratio", ratio, 4);
	/*
	 * Nodes sending 1/1.074 of the goodput cannot be overhead: one side
	 * counts in binary units. 1.074 times it can be either: NVMe/TCP at
	 * 4 KiB carries ~7.7% of PDU and TCP/IP headers (VM lab, tests/vmlab).
	 */
	if (fabs(ratio - S_GIB_RATIO) < S_GIB_TOL) {
		status = "gib-like";
		msg = "nodes moved 1/1.074 of the clients' goodput, the GB/GiB factor: one of "
		      "them counts in binary units";
	} else if (fabs(ratio - 1 / S_GIB_RATIO) < S_GIB_TOL) {
		status = "ok";
		msg = "node traffic is goodput + 7.4%: protocol overhead (NVMe/TCP at 4 KiB adds "
		      "about that), or one side counts in binary units (the GB/GiB factor)";
	} else if (ratio < S_BYTES_LOW) {
		status = "low";
		msg = "nodes moved fewer bytes than clients received: an interface is not counted "
		      "(bond slaves, a second port) or the units differ";
	} else if (ratio > S_BYTES_HIGH) {
		status = "high";
		msg = "nodes moved far more bytes than the clients' goodput: other traffic "
		      "(replication, other clients) or an interface counted twice";
	} else {
		status = "ok";
		msg = "node traffic covers client goodput plus protocol overhead";
	}
	if (missing)
		status = "incomplete";
	cJSON_AddStringToObject(o, "status", status);
	cJSON_AddStringToObject(o, "message", msg);
	s_evidence(ev, "bytes: nodes %s %.2f GB/s vs clients %.2f GB/s (ratio %.3f): %s%s",
		   reads ? "sent" : "received", (reads ? tx : rx) / 1e9,
		   (reads ? p->x_read_bps : p->x_write_bps) / 1e9, ratio, status,
		   strcmp(status, "ok") ? " - check the counting" : "");
	if (have < p->nnodes)
		s_evidence(ev, "bytes: %d of %d nodes have no NIC counters", p->nnodes - have,
			   p->nnodes);
	return o;
}

static bool s_paced(const struct bc_ana_load *l, bool all);

/*
 * Per-node throughput: the clients' bytes of its volumes, else its NIC
 * traffic. A node whose volumes are all held at the profile's rate limits
 * is left out: its share is the profile's choice, not the storage's.
 */
static cJSON *s_balance(const struct bc_ana_point *p, cJSON *ev)
{
	cJSON *o = cJSON_CreateObject(), *per = cJSON_AddObjectToObject(o, "per_node_gbps");
	bool reads = p->x_read_bps >= p->x_write_bps;
	double sum = 0, mx = 0, v;
	cJSON *out = NULL;
	int i, n = 0;

	cJSON_AddStringToObject(
	    o, "basis", p->node_goodput_bps ? "client goodput per node" : "node NIC traffic");
	for (i = 0; i < p->nnodes; i++) {
		if (p->node_load && s_paced(&p->node_load[i], true)) {
			if (!out)
				out = cJSON_AddArrayToObject(o, "paced_nodes_left_out");
			cJSON_AddItemToArray(out, cJSON_CreateString(p->nodes[i].name));
			continue;
		}
		v = p->node_goodput_bps ? p->node_goodput_bps[i]
		    : reads		? p->nodes[i].net_tx_bps
					: p->nodes[i].net_rx_bps;
		if (isnan(v))
			continue;
		s_add(per, p->nodes[i].name, v / 1e9, 3);
		sum += v;
		mx = v > mx ? v : mx;
		n++;
	}
	if (n < 2 || sum <= 0) {
		cJSON_AddStringToObject(o, "status", n ? "one node" : "unknown");
		return o;
	}
	s_add(o, "max_over_mean", mx / (sum / n), 3);
	cJSON_AddStringToObject(o, "status",
				mx / (sum / n) > BC_ANA_BALANCE ? "imbalanced" : "balanced");
	if (mx / (sum / n) > BC_ANA_BALANCE)
		s_evidence(ev,
			   "balance: the busiest node carries %.0f%% more than the mean: the "
			   "ceiling may be one node's",
			   100 * (mx / (sum / n) - 1));
	return o;
}

/* the per-node throughput an internal limit is quoted at */
static double s_per_node(const struct bc_ana_point *p)
{
	double sum = 0;
	int i, n = 0;

	if (p->node_goodput_bps) {
		for (i = 0; i < p->nnodes; i++)
			if (!isnan(p->node_goodput_bps[i]))
				sum += p->node_goodput_bps[i], n++;
		if (n)
			return sum / n;
	}
	return p->nnodes ? p->x_bps / p->nnodes : p->x_bps;
}

static cJSON *s_usl_json(const struct bc_ana_point *pts, int n, cJSON *ev, struct bc_usl *u,
			 bool *fitted)
{
	cJSON *o = cJSON_CreateObject();
	double *nn = malloc((size_t)n * sizeof(double)), *xx = malloc((size_t)n * sizeof(double));
	int i, rc = -ENOMEM, m = 0;

	*fitted = false;
	for (i = 0; nn && xx && i < n; i++)
		if (pts[i].n >= 1 && pts[i].x_bps > 0) {
			nn[m] = pts[i].n;
			xx[m++] = pts[i].x_bps;
		}
	if (nn && xx)
		rc = bc_ana_usl_fit(nn, xx, m, u);
	free(nn);
	free(xx);
	if (rc) {
		cJSON_AddBoolToObject(o, "fitted", false);
		cJSON_AddStringToObject(o, "reason",
					rc == -EINVAL ? "needs at least 6 points with "
							"N >= 1, including low N"
						      : "the fit did not converge");
		cJSON_AddNumberToObject(o, "points", m);
		return o;
	}
	*fitted = true;
	cJSON_AddBoolToObject(o, "fitted", true);
	s_add(o, "lambda_gbps", u->lambda / 1e9, 6);
	s_add(o, "sigma", u->sigma, 6);
	cJSON_AddItemToObject(o, "kappa", cJSON_CreateNumber(u->kappa));
	s_add(o, "n_max", u->n_max, 0);
	s_add(o, "x_max_gbps", u->x_max / 1e9, 3);
	s_add(o, "r2", u->r2, 4);
	cJSON_AddStringToObject(o, "bound", u->sigma > u->kappa ? "contention" : "coherency");
	if (u->sigma > 0.5)
		cJSON_AddStringToObject(o, "warning",
					"sigma near 1: the sweep starts above the knee; "
					"add low-N points");
	{
		char nmax[32] = "none";

		if (isfinite(u->n_max))
			snprintf(nmax, sizeof(nmax), "%.0f", u->n_max);
		s_evidence(ev,
			   "USL: sigma %.4f, kappa %.3g, N_max %s, X_max %.2f GB/s (R2 %.3f): %s",
			   u->sigma, u->kappa, nmax, u->x_max / 1e9, u->r2,
			   u->sigma > u->kappa ? "contention (serialization, per-connection limits)"
					       : "coherency (crosstalk)");
	}
	return o;
}

/*
 * USE on every host at point at, as data (run.json's "use"): the suspects
 * table is the one verdict, so no per-host line goes to the evidence.
 */
static cJSON *s_use(const struct bc_ana_point *pts, int at)
{
	const struct bc_ana_point *p = &pts[at], *pp = at > 0 ? &pts[at - 1] : NULL;
	cJSON *o = cJSON_CreateObject(), *nodes, *clients;
	int i;

	cJSON_AddNumberToObject(o, "at_index", at);
	nodes = cJSON_AddArrayToObject(o, "nodes");
	clients = cJSON_AddArrayToObject(o, "clients");
	for (i = 0; i < p->nnodes + p->nclients; i++) {
		bool client = i >= p->nnodes;
		int j = client ? i - p->nnodes : i;
		const struct bc_use *h = client ? &p->clients[j] : &p->nodes[j];
		const struct bc_use *ph = NULL;
		struct bc_use_finding f;

		if (pp && !client && j < pp->nnodes)
			ph = &pp->nodes[j];
		else if (pp && client && j < pp->nclients)
			ph = &pp->clients[j];
		bc_ana_use_host(h, ph, &f);
		cJSON_AddItemToArray(client ? clients : nodes, s_host_json(h, &f));
	}
	return o;
}

/* ---- paced volumes and per-node series ---- */

/* what the paced volumes did over what they were allowed, the tighter kind of limit */
static double s_paced_frac(const struct bc_ana_load *l)
{
	double f = NAN;

	if (l->paced_limit_iops > 0)
		f = l->paced_iops / l->paced_limit_iops;
	if (l->paced_limit_bps > 0)
		f = isnan(f) ? l->paced_bps / l->paced_limit_bps
			     : fmin(f, l->paced_bps / l->paced_limit_bps);
	return f;
}

/*
 * The paced volumes of l at their limits: each of them, or together (a
 * volume a starved second left a little short does not undo the group);
 * with all, every volume of l paced as well.
 */
static bool s_paced(const struct bc_ana_load *l, bool all)
{
	if (l->paced_volumes <= 0 ||
	    (l->paced_at_limit < l->paced_volumes && !(s_paced_frac(l) >= BC_ANA_PACED_FRAC)))
		return false;
	return !all || l->volumes <= 0 || l->paced_volumes >= l->volumes;
}

/* "1999 of 2000 IOPS allowed by rate_iops", "..MB/s allowed by rate_bw" or both */
static void s_paced_limits(const struct bc_ana_load *l, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (l->paced_limit_iops > 0)
		n = snprintf(buf, len, "%.0f of %.0f IOPS allowed by rate_iops", l->paced_iops,
			     l->paced_limit_iops);
	if (l->paced_limit_bps > 0 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s%.1f of %.1f MB/s allowed by rate_bw",
			 n ? ", " : "", l->paced_bps / 1e6, l->paced_limit_bps / 1e6);
}

static const char *s_paced_keys(const struct bc_ana_load *l)
{
	if (l->paced_limit_iops > 0 && l->paced_limit_bps > 0)
		return "rate_iops/rate_bw";
	return l->paced_limit_bps > 0 ? "rate_bw" : "rate_iops";
}

/* a load as an analysis point, for the classes and Little's law */
static struct bc_ana_point s_load_point(const struct bc_ana_point *p, const struct bc_ana_load *l)
{
	struct bc_ana_point q;

	memset(&q, 0, sizeof(q));
	q.value = p->value;
	q.label = p->label;
	q.volumes = l->volumes;
	q.n = l->n;
	q.x_bps = q.x_read_bps = l->x_bps;
	q.x_iops = l->x_iops;
	q.r_mean_s = l->r_mean_s;
	q.p99_s = NAN;
	q.think_s = l->think_s;
	return q;
}

/* p without its paced volumes: the load the storage answered freely */
static struct bc_ana_point s_rest_point(const struct bc_ana_point *p)
{
	const struct bc_ana_load *l = &p->paced;
	struct bc_ana_point q = *p;
	double iops = p->x_iops - l->x_iops;

	q.volumes = p->volumes > 0 ? p->volumes - l->volumes : 0;
	q.n = p->n - l->n;
	q.x_bps = p->x_bps - l->x_bps;
	/*
	 * every volume paced at this point: the rest is empty, and what the
	 * subtractions leave is rounding, not a load (a rate of 1e-12 IOPS
	 * made Little's law read 0.00 for no volume at all)
	 */
	if (!(q.n > 0) || (p->volumes > 0 && q.volumes <= 0))
		q.x_bps = iops = 0;
	q.x_iops = iops;
	q.r_mean_s = iops > 0 ? (p->x_iops * p->r_mean_s - l->x_iops * l->r_mean_s) / iops : NAN;
	q.think_s = iops > 0 ? (p->x_iops * p->think_s - l->x_iops * l->think_s) / iops : 0;
	memset(&q.paced, 0, sizeof(q.paced));
	return q;
}

/* the knee of a series: smallest N at 95% of the max, confirmed when a plateau follows */
struct s_knee {
	int k95, first_plateau;
	enum bc_ana_class flat; /* the class of the first point that stopped scaling */
	bool confirmed;
	double xmax;
};

static void s_knee_of(const struct bc_ana_point *pts, int n, struct s_knee *k)
{
	int i;

	memset(k, 0, sizeof(*k));
	k->k95 = k->first_plateau = -1;
	k->flat = BC_ANA_PLATEAU;
	for (i = 0; i < n; i++) {
		enum bc_ana_class c = bc_ana_classify(i ? &pts[i - 1] : NULL, &pts[i], NULL);

		if (k->first_plateau < 0 && (c == BC_ANA_PLATEAU || c == BC_ANA_RETROGRADE)) {
			k->first_plateau = i;
			k->flat = c;
		}
		k->xmax = pts[i].x_bps > k->xmax ? pts[i].x_bps : k->xmax;
	}
	for (i = 0; i < n && k->k95 < 0; i++)
		if (pts[i].x_bps >= BC_ANA_KNEE_FRAC * k->xmax)
			k->k95 = i;
	k->confirmed = k->first_plateau >= 0 && k->k95 >= 0 && k->first_plateau > k->k95;
}

/* "iodepth=16", or "N=48" without a swept parameter */
static void s_where(const struct bc_ana_point *p, const char *param, char *buf, size_t len)
{
	if (param && strcmp(param, "none") && strcmp(param, "step") && p->label)
		snprintf(buf, len, "%s=%s", param, p->label);
	else
		snprintf(buf, len, "N=%.0f", p->n);
}

/* what the per-node section found, for the verdict */
struct s_nodes_sum {
	char paced[160]; /* "n2" or "n2, n4": every volume paced, at its limit, flat */
	int npaced;
	char rest[160]; /* the other nodes that still scale */
	int nrest;
	char plateau[160]; /* the other nodes that flattened */
	int nplateau;
};

static void s_list_add(char *buf, size_t len, int *count, const char *name)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
	(*count)++;
}

/*
 * One storage node over the sweep: its own load series (the I/Os its
 * volumes had in flight, their throughput and latency), the class of each
 * point, its knee, and a class for the node: "paced" when every volume of
 * it runs at the profile's rate limit and the series is flat there,
 * "plateau"/"retrograde" for a ceiling with the queueing signature,
 * "scaling"/"diminishing" when no ceiling showed.
 */
static cJSON *s_node_json(const struct bc_ana_point *pts, int n, int j, const char *param,
			  cJSON *ev, struct s_nodes_sum *sum)
{
	struct bc_ana_point *q = calloc((size_t)n, sizeof(*q));
	const struct bc_ana_load *last = &pts[n - 1].node_load[j];
	const char *name = pts[n - 1].nodes ? pts[n - 1].nodes[j].name : "?";
	cJSON *o = cJSON_CreateObject(), *arr, *kn;
	const char *cls = "first", *pcls = "first";
	bool paced, retro = false;
	char where[64], lim[160];
	struct s_knee k;
	int i;

	if (!q || !o) {
		free(q);
		return o;
	}
	for (i = 0; i < n; i++)
		q[i] = s_load_point(&pts[i], &pts[i].node_load[j]);
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddNumberToObject(o, "volumes", last->volumes);
	cJSON_AddNumberToObject(o, "paced_volumes", last->paced_volumes);
	arr = cJSON_AddArrayToObject(o, "points");
	for (i = 0; i < n; i++) {
		const struct bc_ana_load *l = &pts[i].node_load[j];
		cJSON *pt = cJSON_CreateObject();
		double e = NAN;
		enum bc_ana_class c = bc_ana_classify(i ? &q[i - 1] : NULL, &q[i], &e);

		pcls = bc_ana_class_names[c];
		/* flat because the profile holds it there: latency need not grow with N */
		if (c != BC_ANA_FIRST && s_paced(l, true) &&
		    fabs(q[i].x_bps / q[i - 1].x_bps - 1) < BC_ANA_PLATEAU_DX) {
			pcls = "paced";
		}
		retro |= c == BC_ANA_RETROGRADE;
		s_add(pt, "value", q[i].value, 3);
		s_add(pt, "n", q[i].n, 1);
		s_add(pt, "x_gbps", q[i].x_bps / 1e9, 4);
		s_add(pt, "iops", q[i].x_iops, 0);
		s_add(pt, "r_mean_ms", q[i].r_mean_s * 1e3, 3);
		s_add(pt, "rho", bc_ana_rho(&q[i]), 3);
		cJSON_AddStringToObject(pt, "class", pcls);
		s_add(pt, "efficiency", e, 3);
		if (l->paced_volumes)
			s_add(pt, "paced_pct", 100 * s_paced_frac(l), 1);
		cJSON_AddItemToArray(arr, pt);
	}
	s_knee_of(q, n, &k);
	/*
	 * Held at its limits from the knee to the last point: flat by the
	 * profile's doing, whatever a starved second did in between.
	 */
	paced = n > 1 && k.k95 >= 0 && k.k95 < n - 1 && s_paced(&pts[k.k95].node_load[j], true) &&
		s_paced(last, true);
	k.confirmed |= paced;
	if (n == 1)
		cls = s_paced(last, true) ? "paced" : "one point";
	else if (paced)
		cls = "paced";
	else if (k.confirmed)
		cls = retro ? "retrograde" : "plateau";
	else
		cls = !strcmp(pcls, "scaling") ? "scaling" : "diminishing";
	cJSON_AddStringToObject(o, "class", cls);
	kn = cJSON_AddObjectToObject(o, "knee");
	if (k.k95 >= 0) {
		cJSON_AddNumberToObject(kn, "index", k.k95);
		s_add(kn, "value", q[k.k95].value, 3);
		s_add(kn, "n", q[k.k95].n, 1);
		s_add(kn, "iops", q[k.k95].x_iops, 0);
		s_add(kn, "x_gbps", q[k.k95].x_bps / 1e9, 4);
		cJSON_AddBoolToObject(kn, "confirmed", k.confirmed);
	}
	if (last->paced_volumes) {
		cJSON *pc = cJSON_AddObjectToObject(o, "paced");

		cJSON_AddNumberToObject(pc, "volumes", last->paced_volumes);
		cJSON_AddNumberToObject(pc, "at_limit", last->paced_at_limit);
		s_add(pc, "limit_iops", last->paced_limit_iops > 0 ? last->paced_limit_iops : NAN,
		      0);
		s_add(pc, "iops", last->paced_limit_iops > 0 ? last->paced_iops : NAN, 0);
		s_add(pc, "limit_mbps",
		      last->paced_limit_bps > 0 ? last->paced_limit_bps / 1e6 : NAN, 3);
		s_add(pc, "mbps", last->paced_limit_bps > 0 ? last->paced_bps / 1e6 : NAN, 3);
		s_add(pc, "pct", 100 * s_paced_frac(last), 1);
	}
	s_add(o, "x_ratio", q[0].x_bps > 0 ? q[n - 1].x_bps / q[0].x_bps : NAN, 2);
	s_add(o, "n_ratio", q[0].n > 0 ? q[n - 1].n / q[0].n : NAN, 2);
	if (k.k95 >= 0)
		s_where(&q[k.k95], param, where, sizeof(where));
	else
		snprintf(where, sizeof(where), "-");
	s_paced_limits(last, lim, sizeof(lim));
	if (!strcmp(cls, "paced")) {
		char v[300];

		snprintf(v, sizeof(v),
			 "paced: flat at %.0f IOPS from %s, its %d volume(s) at %.0f%% of the "
			 "profile's rate limits (%s), latency %.3f ms -> %.3f ms: the "
			 "client's own pacing, not the storage",
			 q[n - 1].x_iops, where, last->paced_volumes, 100 * s_paced_frac(last), lim,
			 q[k.k95].r_mean_s * 1e3, q[n - 1].r_mean_s * 1e3);
		cJSON_AddStringToObject(o, "verdict", v);
		s_evidence(ev, "node %s: %s", name, v);
		s_list_add(sum->paced, sizeof(sum->paced), &sum->npaced, name);
	} else if (!strcmp(cls, "plateau") || !strcmp(cls, "retrograde")) {
		char v[300];

		snprintf(v, sizeof(v),
			 "%s: %.0f IOPS at %s, %.0f%% of its max, latency x%.2f after it%s", cls,
			 q[k.k95].x_iops, where, 100 * q[k.k95].x_bps / k.xmax,
			 q[n - 1].r_mean_s / q[k.k95].r_mean_s,
			 last->paced_volumes ? " (some volumes paced)" : "");
		cJSON_AddStringToObject(o, "verdict", v);
		s_evidence(ev, "node %s: %s", name, v);
		s_list_add(sum->plateau, sizeof(sum->plateau), &sum->nplateau, name);
	} else if (n > 1) {
		char v[300];

		snprintf(v, sizeof(v),
			 "%s: IOPS x%.1f for load x%.0f (%.0f -> %.0f IOPS), no ceiling in the "
			 "sweep",
			 cls, q[n - 1].x_iops / q[0].x_iops, q[n - 1].n / q[0].n, q[0].x_iops,
			 q[n - 1].x_iops);
		cJSON_AddStringToObject(o, "verdict", v);
		s_evidence(ev, "node %s: %s", name, v);
		s_list_add(sum->rest, sizeof(sum->rest), &sum->nrest, name);
	}
	free(q);
	return o;
}

/* the "nodes" array: each node's own series, class and knee */
static cJSON *s_nodes_json(const struct bc_ana_point *pts, int n, const char *param, cJSON *ev,
			   struct s_nodes_sum *sum)
{
	cJSON *arr = cJSON_CreateArray();
	int i, j;

	memset(sum, 0, sizeof(*sum));
	for (j = 0; j < pts[n - 1].nnodes; j++) {
		bool ok = true;

		/* a node without volumes has no load of its own */
		for (i = 0; i < n; i++)
			ok &= pts[i].node_load && j < pts[i].nnodes &&
			      pts[i].node_load[j].volumes > 0;
		if (ok)
			cJSON_AddItemToArray(arr, s_node_json(pts, n, j, param, ev, sum));
	}
	return arr;
}

/* what the verdict is judged from, computed by bc_ana_json before anything is said */
struct s_judged {
	const struct bc_ana_point *pts, *rest, *jp; /* rest: the unpaced load, when partial */
	int n, at, first_plateau;
	const char *param;
	bool all_paced, partial, confirmed, fitted;
	double rho;
	const char *lim; /* the profile's rate limits, as s_paced_limits says them */
	const struct s_nodes_sum *ns;
	const struct bc_suspects *sus;
	const struct bc_usl *usl;
};

#define S_VERDICT_MAX 2048

/* the verdict: its class, the sentence and the bottleneck */
struct s_verdict {
	const char *cls;
	/* room for the longest: a knee's reason, several suspects with their evidence, a partial
	 * fit's caveat (700 bytes cut real verdicts mid-word) */
	char text[S_VERDICT_MAX], bottleneck[300];
};

/* the verdict of j, appending the evidence it rests on to ev */
static void s_verdict(const struct s_judged *j, cJSON *ev, struct s_verdict *out)
{
	const struct bc_ana_point *pts = j->pts, *rest = j->rest, *jp = j->jp;
	const struct s_nodes_sum ns = *j->ns;
	const struct bc_suspects sus = *j->sus;
	const struct bc_usl usl = *j->usl;
	const int n = j->n, at = j->at, first_plateau = j->first_plateau;
	const char *param = j->param, *lim = j->lim;
	const bool all_paced = j->all_paced, partial = j->partial, confirmed = j->confirmed,
		   fitted = j->fitted;
	const double rho = j->rho;
	char verdict[sizeof(out->text)], bottleneck[sizeof(out->bottleneck)];
	const char *cls;
	int i;

	if (all_paced) {
		/* the profile's own rate limit is the ceiling: a client-side cap, by design */
		const struct bc_ana_load *pc = &pts[n - 1].paced;

		cls = "client-bound";
		snprintf(verdict, sizeof(verdict),
			 "client-bound: the profile's rate limits cap %d volume(s) at %s%s%s; the "
			 "storage was not the limit there",
			 pc->paced_volumes, lim,
			 ns.npaced ? ns.npaced > 1 ? " on nodes " : " on node " : "", ns.paced);
		snprintf(bottleneck, sizeof(bottleneck), "%s in the profile", s_paced_keys(pc));
		s_evidence(ev,
			   "rate-limited volumes at %.1f%% of their configured limits at N=%.0f",
			   100 * s_paced_frac(pc), pts[n - 1].n);
	} else if (partial && !confirmed && first_plateau < 0) {
		/* some volumes flat at their limits, the others still scaling: no ceiling */
		const struct bc_ana_load *pc = &pts[n - 1].paced;
		char who[200], others[200], where[64];
		struct s_knee pk;
		struct bc_ana_point *pq = calloc((size_t)n, sizeof(*pq));

		for (i = 0; pq && i < n; i++)
			pq[i] = s_load_point(&pts[i], &pts[i].paced);
		if (pq)
			s_knee_of(pq, n, &pk);
		if (pq && pk.k95 >= 0)
			s_where(&pts[pk.k95], param, where, sizeof(where));
		else
			snprintf(where, sizeof(where), "the first point");
		free(pq);
		if (ns.npaced)
			snprintf(who, sizeof(who), "node%s %s", ns.npaced > 1 ? "s" : "", ns.paced);
		else
			snprintf(who, sizeof(who), "%d volume(s)", pc->paced_volumes);
		if (ns.nrest)
			snprintf(others, sizeof(others), "node%s %s", ns.nrest > 1 ? "s" : "",
				 ns.rest);
		else
			snprintf(others, sizeof(others), "the other volumes");
		cls = "client-bound";
		snprintf(verdict, sizeof(verdict),
			 "client-bound: %s %s held flat by the profile's own rate limits from %s "
			 "(%d volume(s) paced, %s): client-side pacing, not the storage; %s still "
			 "scale%s (IOPS x%.1f for load x%.0f), no ceiling found there",
			 who, ns.npaced == 1 ? "is" : "are", where, pc->paced_volumes, lim, others,
			 ns.nrest == 1 ? "s" : "", rest[n - 1].x_iops / rest[0].x_iops,
			 rest[n - 1].n / rest[0].n);
		snprintf(bottleneck, sizeof(bottleneck), "%s in the profile%s%s", s_paced_keys(pc),
			 ns.npaced ? " on " : "", ns.npaced ? who : "");
	} else if (sus.nimplicated) {
		const struct bc_suspect *lead = &sus.row[sus.lead];
		size_t used;
		int k;

		int pass;

		cls = lead->cls;
		snprintf(verdict, sizeof(verdict), "%s: %s", cls, lead->finding);
		/* the others after it: saturated ones first, then differences to explain */
		for (pass = 0; pass < 2; pass++)
			for (k = 0; k < BC_SUS_NR; k++)
				if (k != BC_SUS_LOAD && k != sus.lead &&
				    sus.row[k].state == BC_SUS_IMPLICATED &&
				    (sus.row[k].score >= 1) == (pass == 0)) {
					used = strlen(verdict);
					snprintf(verdict + used, sizeof(verdict) - used, "; %s",
						 sus.row[k].finding);
				}
		used = strlen(verdict);
		if (sus.cluster[0] && used < sizeof(verdict))
			snprintf(verdict + used, sizeof(verdict) - used, " (%s)", sus.cluster);
		/* the path and the versions are about nodes and clients alike */
		const char *kind = lead - sus.row == BC_SUS_NET_PATH ||
					   lead - sus.row == BC_SUS_VERSION ||
					   lead - sus.row == BC_SUS_NUMA
				       ? "host"
				   : lead - sus.row >= BC_SUS_CLIENT_NIC ? "client"
									 : "node";

		/* queues, load and WAF are not fractions: quote them as they are */
		if (!(lead->threshold > 0))
			snprintf(bottleneck, sizeof(bottleneck), "%s%s %s: %s", kind,
				 lead->nhosts > 1 ? "s" : "", lead->hosts, lead->resource);
		else if (lead->threshold > 1)
			snprintf(bottleneck, sizeof(bottleneck), "%s%s %s: %s %.2f (limit %.2f)",
				 kind, lead->nhosts > 1 ? "s" : "", lead->hosts, lead->resource,
				 lead->u, lead->threshold);
		else
			snprintf(bottleneck, sizeof(bottleneck),
				 "%s%s %s: %s %.0f%% (limit %.0f%%)", kind,
				 lead->nhosts > 1 ? "s" : "", lead->hosts, lead->resource,
				 100 * lead->u, 100 * lead->threshold);
	} else if (!isnan(rho) && (rho < BC_ANA_RHO_LO || rho > BC_ANA_RHO_HI)) {
		cls = "invalid";
		snprintf(verdict, sizeof(verdict),
			 "invalid: Little's law X*(R+Z)/N = %.2f at N=%.0f (%s); fix the "
			 "measurement before reading a ceiling",
			 rho, jp->n,
			 rho < BC_ANA_RHO_LO ? "the generator did not keep N in flight"
					     : "windows or clocks disagree");
		snprintf(bottleneck, sizeof(bottleneck), "load generator or measurement");
	} else if (first_plateau >= 0) {
		double per = partial
				 ? (ns.nrest + ns.nplateau ? jp->x_bps / (ns.nrest + ns.nplateau)
							   : jp->x_bps)
				 : s_per_node(&pts[at]);

		char rate[32];

		cls = "internal-limit";
		bc_ana_rate3(per, rate, sizeof(rate));
		if (pts[at].nnodes)
			snprintf(verdict, sizeof(verdict),
				 "no resource saturated: internal limit at %s per node%s", rate,
				 sus.nflat > 1 ? ", every node flat alike" : "");
		else
			snprintf(verdict, sizeof(verdict),
				 "no resource saturated: internal limit at %s (no node counters)",
				 rate);
		snprintf(bottleneck, sizeof(bottleneck), "internal software limit%s%s",
			 fitted
			     ? (usl.sigma > usl.kappa ? ": serialization or per-connection limits "
							"(USL contention)"
						      : ": coherency/crosstalk (USL kappa)")
			     : "",
			 pts[at].nnodes ? "" : "; no node counters to rule out node resources");
		s_evidence(ev, "not observed: switch uplinks, PCIe, memory bandwidth");
	} else {
		cls = "not-saturated";
		if (n == 1)
			snprintf(verdict, sizeof(verdict),
				 "no resource saturated at this load (one point: sweep the load to "
				 "find a ceiling)");
		else
			snprintf(
			    verdict, sizeof(verdict),
			    "not saturated: throughput still rising at N=%.0f (%.2f GB/s); extend "
			    "the sweep",
			    pts[n - 1].n, pts[n - 1].x_bps / 1e9);
		snprintf(bottleneck, sizeof(bottleneck), "none found");
	}
	/* a ceiling found in the rest: say which volumes were set apart, and why */
	if (partial && (confirmed || first_plateau >= 0)) {
		size_t used = strlen(verdict);

		if (used < sizeof(verdict))
			snprintf(verdict + used, sizeof(verdict) - used,
				 "; %s%s%s paced by the profile's rate limits (%s), judged apart",
				 ns.npaced ? (ns.npaced > 1 ? "nodes " : "node ") : "",
				 ns.npaced ? ns.paced : "some volumes",
				 ns.npaced > 1 || !ns.npaced ? " are" : " is", lim);
	}
	if (partial)
		s_evidence(ev,
			   "rate-limited volumes (%d of %d) at %.1f%% of their limits: set "
			   "apart, the ceiling is looked for in the rest",
			   pts[n - 1].paced.paced_volumes, pts[n - 1].volumes,
			   100 * s_paced_frac(&pts[n - 1].paced));
	out->cls = cls;
	memcpy(out->text, verdict, sizeof(verdict));
	memcpy(out->bottleneck, bottleneck, sizeof(bottleneck));
}

/*
 * steps[].analysis.points: each point's figures, Little's law and class
 * (against the point before), with a line of evidence per point that
 * stopped scaling
 */
static cJSON *s_points_json(const struct bc_ana_point *pts, int n, cJSON *ev)
{
	cJSON *arr = cJSON_CreateArray();
	double rho;
	int i;

	for (i = 0; i < n; i++) {
		const struct bc_ana_point *p = &pts[i];
		cJSON *pt = cJSON_CreateObject();
		double e = NAN;
		enum bc_ana_class c = bc_ana_classify(i ? &pts[i - 1] : NULL, p, &e);

		rho = bc_ana_rho(p);
		s_add(pt, "value", p->value, 3);
		if (p->label)
			cJSON_AddStringToObject(pt, "label", p->label);
		s_add(pt, "n", p->n, 1);
		s_add(pt, "x_gbps", p->x_bps / 1e9, 4);
		s_add(pt, "iops", p->x_iops, 0);
		s_add(pt, "r_mean_ms", p->r_mean_s * 1e3, 3);
		s_add(pt, "p99_ms", p->p99_s * 1e3, 3);
		if (p->think_s > 0)
			s_add(pt, "think_ms", p->think_s * 1e3, 3);
		s_add(pt, "rho", rho, 3);
		cJSON_AddStringToObject(pt, "little",
					isnan(rho)	      ? "unknown"
					: rho < BC_ANA_RHO_LO ? "low"
					: rho > BC_ANA_RHO_HI ? "high"
							      : "ok");
		cJSON_AddStringToObject(pt, "class", bc_ana_class_names[c]);
		s_add(pt, "efficiency", e, 3);
		if (p->paced.paced_volumes)
			s_add(pt, "paced_pct", 100 * s_paced_frac(&p->paced), 1);
		cJSON_AddItemToArray(arr, pt);
		if (c == BC_ANA_PLATEAU || c == BC_ANA_RETROGRADE) {
			if (c == BC_ANA_PLATEAU)
				s_evidence(
				    ev,
				    "N x%.2g (%.0f -> %.0f): throughput %+.1f%%, mean latency "
				    "x%.2f: pure queueing (plateau)",
				    p->n / pts[i - 1].n, pts[i - 1].n, p->n,
				    100 * (p->x_bps / pts[i - 1].x_bps - 1),
				    p->r_mean_s / pts[i - 1].r_mean_s);
			else
				s_evidence(
				    ev, "N x%.2g (%.0f -> %.0f): throughput %+.1f%% (retrograde)",
				    p->n / pts[i - 1].n, pts[i - 1].n, p->n,
				    100 * (p->x_bps / pts[i - 1].x_bps - 1));
		}
	}
	return arr;
}

/* Kneedle on (log2 N, X): the index of its knee, -1 none (or out of memory) */
static int s_kneedle_log2(const struct bc_ana_point *pts, int n)
{
	double *lx = malloc((size_t)n * sizeof(double)), *xs = malloc((size_t)n * sizeof(double));
	int i, kd;

	for (i = 0; lx && xs && i < n; i++) {
		lx[i] = pts[i].n > 0 ? log2(pts[i].n) : 0;
		xs[i] = pts[i].x_bps;
	}
	kd = lx && xs ? bc_ana_kneedle(lx, xs, n, 1.0) : -1;
	free(lx);
	free(xs);
	return kd;
}

/*
 * steps[].analysis.knee of the total's knee tk (the 95% rule, confirmed
 * by a plateau after it or not) and Kneedle's kd; its reason also into
 * reason (left as it is without a knee)
 */
static cJSON *s_knee_json(const struct bc_ana_point *pts, int n, const struct s_knee *tk, int kd,
			  char *reason, size_t len)
{
	cJSON *knee = cJSON_CreateObject();
	int k95 = tk->k95;
	const char *flat = bc_ana_class_names[tk->flat]; /* the knee line names what it saw */

	if (n <= 1 || k95 < 0)
		return knee;
	s_add(knee, "value", pts[k95].value, 3);
	cJSON_AddNumberToObject(knee, "index", k95);
	s_add(knee, "n", pts[k95].n, 1);
	s_add(knee, "x_gbps", pts[k95].x_bps / 1e9, 4);
	cJSON_AddBoolToObject(knee, "confirmed", tk->confirmed);
	if (tk->first_plateau >= 0)
		cJSON_AddNumberToObject(knee, "first_plateau_index", tk->first_plateau);
	if (kd >= 0) {
		cJSON *k = cJSON_AddObjectToObject(knee, "kneedle");

		cJSON_AddNumberToObject(k, "index", kd);
		s_add(k, "n", pts[kd].n, 1);
		s_add(k, "value", pts[kd].value, 3);
	}
	snprintf(reason, len, "%s%s at N=%.0f reaches %.0f%% of the max %.2f GB/s%s",
		 tk->confirmed ? flat : "95% rule", ":", pts[k95].n,
		 100 * pts[k95].x_bps / tk->xmax, tk->xmax / 1e9,
		 tk->confirmed ? ", and more load only adds queueing"
			       : " (no plateau seen after it)");
	cJSON_AddStringToObject(knee, "reason", reason);
	return knee;
}

cJSON *bc_ana_json(const struct bc_ana_point *pts, int n, const char *param)
{
	cJSON *o = cJSON_CreateObject(), *ev;
	struct bc_ana_point *rest = NULL;
	const struct bc_ana_point *jp; /* the point judged: the total, or the unpaced rest */
	int i, first_plateau, k95, at;
	double rho;
	bool confirmed, fitted = false, partial, all_paced;
	char verdict[S_VERDICT_MAX], lim[160]; /* verdict: the knee's reason */
	struct s_nodes_sum ns;
	struct s_knee tk, rk; /* the total's knee, the unpaced rest's */
	struct bc_suspects sus;
	struct bc_usl usl;
	struct s_judged j;
	struct s_verdict v;

	if (!o || n < 1)
		return o;
	ev = cJSON_CreateArray();
	cJSON_AddStringToObject(o, "param", param ? param : "none");
	cJSON_AddItemToObject(o, "points", s_points_json(pts, n, ev));
	s_knee_of(pts, n, &tk);
	k95 = tk.k95;
	first_plateau = tk.first_plateau;
	confirmed = tk.confirmed;
	cJSON_AddItemToObject(
	    o, "knee", s_knee_json(pts, n, &tk, s_kneedle_log2(pts, n), verdict, sizeof(verdict)));
	cJSON_AddItemToObject(o, "usl", s_usl_json(pts, n, ev, &usl, &fitted));
	cJSON_AddItemToObject(o, "nodes", s_nodes_json(pts, n, param, ev, &ns));

	/*
	 * Volumes the profile paces at their limit hold fewer than N in flight
	 * and flatten by design. When every volume is paced, that is the
	 * verdict. When only some are, the rest of the load - what the storage
	 * answered freely - is what a ceiling is looked for in.
	 */
	all_paced =
	    s_paced(&pts[n - 1].paced, false) &&
	    (pts[n - 1].volumes <= 0 || pts[n - 1].paced.paced_volumes >= pts[n - 1].volumes);
	partial = s_paced(&pts[n - 1].paced, false) && !all_paced;
	memset(&rk, 0, sizeof(rk));
	if (partial && (rest = calloc((size_t)n, sizeof(*rest)))) {
		for (i = 0; i < n; i++)
			rest[i] = s_rest_point(&pts[i]);
		s_knee_of(rest, n, &rk);
		first_plateau = rk.first_plateau;
		confirmed = rk.confirmed;
		k95 = rk.k95;
	} else {
		partial = false;
	}

	/* attribute at the knee when there is a ceiling, else at the highest load */
	at = confirmed ? k95 : n - 1;
	jp = partial ? &rest[at] : &pts[at];
	cJSON_AddItemToObject(o, "use", s_use(pts, at));
	bc_ana_suspects(partial ? rest : pts, n, at, first_plateau >= 0, &sus);
	cJSON_AddItemToObject(o, "suspects", bc_ana_suspects_json(&sus));
	if (sus.cluster[0])
		cJSON_AddStringToObject(o, "cluster", sus.cluster);
	cJSON_AddItemToObject(o, "reconciliation", s_reconcile(&pts[at], ev));
	cJSON_AddItemToObject(o, "balance", s_balance(&pts[at], ev));
	rho = bc_ana_rho(jp);
	/* said once where the verdicts are shown, not as evidence of every step */
	if (jp->queue_note)
		cJSON_AddStringToObject(o, "queue_note", jp->queue_note);
	if (!isnan(rho))
		s_evidence(ev, "Little's law at N=%.0f%s: X*(R+Z)/N = %.2f (%s)", jp->n,
			   partial ? " (unpaced volumes)" : "", rho,
			   rho < BC_ANA_RHO_LO	 ? "the generator did not keep N in flight"
			   : rho > BC_ANA_RHO_HI ? "windows or clocks disagree"
						 : "consistent");
	s_paced_limits(&pts[n - 1].paced, lim, sizeof(lim));

	j = (struct s_judged){.pts = pts,
			      .rest = rest,
			      .jp = jp,
			      .n = n,
			      .at = at,
			      .first_plateau = first_plateau,
			      .param = param,
			      .all_paced = all_paced,
			      .partial = partial,
			      .confirmed = confirmed,
			      .fitted = fitted,
			      .rho = rho,
			      .lim = lim,
			      .ns = &ns,
			      .sus = &sus,
			      .usl = &usl};
	s_verdict(&j, ev, &v);
	free(rest);
	cJSON_AddStringToObject(o, "class", v.cls);
	cJSON_AddStringToObject(o, "verdict", v.text);
	cJSON_AddStringToObject(o, "bottleneck", v.bottleneck);
	cJSON_AddItemToObject(o, "evidence", ev);
	return o;
}
