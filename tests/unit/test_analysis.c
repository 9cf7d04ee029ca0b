/* test_analysis: point classes and every verdict class on synthetic series, including the 3-node
 * plateau of the NVMe/TCP proof of value (seed 003); the fits: test_fit, the suspects:
 * test_suspects */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "bc_anatest.h"
#include "bc_test.h"

static void test_classes(void)
{
	struct bc_ana_point a = point(1, 100e6, 1 * MiB / 100e6),
			    b = point(2, 190e6, 2 * MiB / 190e6);
	struct bc_ana_point c = point(4, 250e6, 4 * MiB / 250e6),
			    d = point(8, 255e6, 8 * MiB / 255e6);
	struct bc_ana_point e = point(16, 230e6, 16 * MiB / 230e6);
	double eff;

	CHECK(bc_ana_classify(NULL, &a, NULL) == BC_ANA_FIRST);
	CHECK(bc_ana_classify(&a, &b, &eff) == BC_ANA_SCALING && fabs(eff - 0.9) < 1e-9);
	CHECK(bc_ana_classify(&b, &c, &eff) == BC_ANA_DIMINISHING && eff < 0.5);
	CHECK(bc_ana_classify(&c, &d, NULL) == BC_ANA_PLATEAU);
	CHECK(bc_ana_classify(&d, &e, NULL) == BC_ANA_RETROGRADE);
	/* flat throughput but latency that did not grow with N is not the queueing signature */
	d.r_mean_s = c.r_mean_s;
	CHECK(bc_ana_classify(&c, &d, NULL) == BC_ANA_DIMINISHING);
	/* Little's law: 1 MiB I/Os, X*R/N = 1 by construction */
	CHECK(fabs(bc_ana_rho(&a) - 1) < 1e-9);
}

/*
 * Seed 003: 3 nodes on 2x100GbE, 3 clients x 6 volumes; QD x4 (576 -> 2304 I/Os in flight) left
 * throughput flat (27.70 -> 27.49 GB/s) while latency grew 4x (21.8 -> 87.8 ms); each node at
 * ~66 Gbps egress with 42% CPU idle.
 */
static cJSON *pov(double hot_core, double soft_hot)
{
	static struct bc_use nodes[2][3], clients[2][3];
	struct bc_ana_point p[2] = {point(576, 27.70e9, 0.0218), point(2304, 27.49e9, 0.0878)};
	int i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < 3; j++) {
			char nm[16];

			snprintf(nm, sizeof(nm), "oss-%d", j + 1);
			nodes[i][j] = node(nm, 66e9 / 8, 0.58, j == 1 ? hot_core : 0.80,
					   j == 1 ? soft_hot : 0.10);
			snprintf(nm, sizeof(nm), "client-%d", j + 1);
			clients[i][j] = client(nm, p[i].x_bps / 3, 0.25);
		}
		p[i].nodes = nodes[i];
		p[i].nnodes = 3;
		p[i].clients = clients[i];
		p[i].nclients = 3;
	}
	return bc_ana_json(p, 2, "iodepth");
}

static void test_pov_plateau(void)
{
	int before = bc_test_failures;
	cJSON *a = pov(0.80, 0.10), *knee, *pts, *rec;

	CHECK(a != NULL);
	CHECK_MSG(!strcmp(jstr(a, "class"), "internal-limit"), "class %s", jstr(a, "class"));
	CHECK_MSG(strstr(jstr(a, "verdict"), "no resource saturated: internal limit at 9.23 GB/s "
					     "per node") != NULL,
		  "verdict: %s", jstr(a, "verdict"));
	pts = cJSON_GetObjectItemCaseSensitive(a, "points");
	CHECK(!strcmp(jstr(cJSON_GetArrayItem(pts, 1), "class"), "plateau"));
	CHECK(!strcmp(jstr(cJSON_GetArrayItem(pts, 0), "little"), "ok"));
	CHECK(fabs(jnum(cJSON_GetArrayItem(pts, 1), "rho") - 1) < 0.01);
	knee = cJSON_GetObjectItemCaseSensitive(a, "knee");
	CHECK(jnum(knee, "value") == 576 && cJSON_IsTrue(cJSON_GetObjectItem(knee, "confirmed")));
	/* 3 x 66 Gbps = 24.75 GB/s < 27.70 GB/s of goodput: the coordinator must say so */
	rec = cJSON_GetObjectItemCaseSensitive(a, "reconciliation");
	CHECK_MSG(!strcmp(jstr(rec, "status"), "low"), "reconciliation %s", jstr(rec, "status"));
	CHECK(fabs(jnum(rec, "ratio") - 24.75 / 27.70) < 0.001);
	CHECK(!cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(a, "usl"), "fitted")));
	CHECK(!strcmp(jstr(cJSON_GetObjectItem(a, "balance"), "status"), "balanced"));
	/* the hosts' figures are data in "use", not text beside the suspects table */
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(a, "evidence")) >= 1);
	{
		const cJSON *e;

		cJSON_ArrayForEach(e, cJSON_GetObjectItem(a, "evidence"))
		    CHECK_MSG(!strstr(e->valuestring, "busiest core") &&
				  strncmp(e->valuestring, "client ", 7),
			      "a per-host USE line in the evidence: %s", e->valuestring);
		CHECK(cJSON_GetArraySize(
			  cJSON_GetObjectItem(cJSON_GetObjectItem(a, "use"), "nodes")) == 3);
		CHECK(cJSON_GetArraySize(
			  cJSON_GetObjectItem(cJSON_GetObjectItem(a, "use"), "clients")) == 3);
	}
	if (getenv("BC_TEST_VERBOSE"))
		before = -1;
	dump_on_fail(a, before);
	cJSON_Delete(a);

	/* the same with one node's core pegged by softirq: single-core/softirq-bound */
	before = bc_test_failures;
	a = pov(1.0, 0.6);
	CHECK_MSG(!strcmp(jstr(a, "class"), "single-core/softirq-bound"), "class %s",
		  jstr(a, "class"));
	CHECK(strstr(jstr(a, "bottleneck"), "oss-2") != NULL);
	CHECK(strstr(jstr(a, "verdict"), "RSS/IRQ") != NULL);
	dump_on_fail(a, before);
	cJSON_Delete(a);
	/* pegged without softirq: still a single core */
	a = pov(0.99, 0.05);
	CHECK(!strcmp(jstr(a, "class"), "single-core/softirq-bound"));
	CHECK(strstr(jstr(a, "verdict"), "single-threaded") != NULL);
	cJSON_Delete(a);
}

/* one step of the PoV's run 1: one client at 99% of its 200GbE */
static void test_client_bound(void)
{
	struct bc_use nodes[3], cl[1];
	struct bc_ana_point p = point(192, 24.69e9, 192 * MiB / 24.69e9);
	int i, before = bc_test_failures;
	cJSON *a;

	for (i = 0; i < 3; i++)
		nodes[i] = node(i == 0	 ? "oss-1"
				: i == 1 ? "oss-2"
					 : "oss-3",
				24.69e9 / 3 * 1.01, 0.5, 0.7, 0.1);
	cl[0] = client("client-1", 24.69e9, 0.4);
	p.nodes = nodes;
	p.nnodes = 3;
	p.clients = cl;
	p.nclients = 1;
	a = bc_ana_json(&p, 1, NULL);
	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "class %s", jstr(a, "class"));
	CHECK(strstr(jstr(a, "bottleneck"), "client client-1: NIC rx 99%") != NULL);
	CHECK(!strcmp(jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"), "ok"));
	dump_on_fail(a, before);
	cJSON_Delete(a);
}

/* a 6-point sweep whose last points are flat, with node figures set by fn */
static cJSON *sweep(void (*fn)(struct bc_use *n, int i), double rho)
{
	static struct bc_use nodes[6][2], cl[6][1];
	static const double n[] = {8, 16, 32, 64, 128, 256};
	static const double x[] = {2e9, 3.9e9, 7.2e9, 9.4e9, 9.7e9, 9.75e9};
	struct bc_ana_point p[6];
	int i;

	for (i = 0; i < 6; i++) {
		p[i] = point(n[i], x[i], rho * n[i] * MiB / x[i]);
		nodes[i][0] = node("n1", x[i] / 2 * 1.02, 0.3, 0.5, 0.05);
		nodes[i][1] = node("n2", x[i] / 2 * 1.02, 0.3, 0.5, 0.05);
		if (fn) {
			fn(&nodes[i][0], i);
			fn(&nodes[i][1], i);
		}
		cl[i][0] = client("c1", x[i], 0.2);
		cl[i][0].link_bps = cl[i][0].link_bps * 4;
		cl[i][0].nic_rx /= 4;
		cl[i][0].nic_tx /= 4;
		p[i].nodes = nodes[i];
		p[i].nnodes = 2;
		p[i].clients = cl[i];
		p[i].nclients = 1;
	}
	return bc_ana_json(p, 6, "iodepth");
}

static void nic_full(struct bc_use *u, int i)
{
	if (i >= 3) {
		u->nic_tx = 0.96;
		u->link_bps = u->net_tx_bps / 0.96;
	}
}

static void cpu_full(struct bc_use *u, int i)
{
	u->cpu_busy = i >= 3 ? 0.95 : 0.5;
}

static void gc_full(struct bc_use *u, int i)
{
	u->waf = i >= 3 ? 2.0 : 1.05;
}

static void disk_queue(struct bc_use *u, int i)
{
	u->disk_aqu_max = 4.0 * (i + 1);
	u->disk_w_await_ms = 0.5 * (i + 1) * (i + 1);
}

static void drops_rising(struct bc_use *u, int i)
{
	u->retrans_per_s = i >= 3 ? 5000 : 5;
}

static void one_hot_node(struct bc_use *u, int i)
{
	if (!strcmp(u->name, "n2"))
		u->net_tx_bps *= 1.6;
}

static void gib(struct bc_use *u, int i)
{
	u->net_tx_bps = 9.75e9 / 2 * 0.9313; /* counted in GiB somewhere */
	if (i < 5)
		u->net_tx_bps = NAN;
}

static void test_sweep_verdicts(void)
{
	static const struct {
		void (*fn)(struct bc_use *, int);
		double rho;
		const char *cls, *in_verdict;
	} cases[] = {
	    {NULL, 1.0, "internal-limit", "internal limit at 4.70 GB/s per node"},
	    {nic_full, 1.0, "NIC-bound", "bond0 tx at 96%"},
	    {cpu_full, 1.0, "CPU-bound", "CPU 95% busy"},
	    {gc_full, 1.0, "disk/GC-bound", "write amplification 2.00"},
	    {disk_queue, 1.0, "disk/GC-bound", "disk queue"},
	    {drops_rising, 1.0, "NIC-bound", "retransmits rising: 5000/s"},
	    {NULL, 0.6, "invalid", "did not keep N in flight"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int before = bc_test_failures;
		cJSON *a = sweep(cases[i].fn, cases[i].rho);

		CHECK_MSG(!strcmp(jstr(a, "class"), cases[i].cls), "case %zu: class %s", i,
			  jstr(a, "class"));
		CHECK_MSG(strstr(jstr(a, "verdict"), cases[i].in_verdict) != NULL,
			  "case %zu: verdict %s", i, jstr(a, "verdict"));
		/* six points with low N: the USL is fitted and contention-bound */
		CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(a, "usl"), "fitted")));
		CHECK(jnum(cJSON_GetObjectItem(a, "knee"), "value") == 64);
		dump_on_fail(a, before);
		cJSON_Delete(a);
	}
}

static void test_reconcile_and_balance(void)
{
	cJSON *a = sweep(one_hot_node, 1.0);

	CHECK(!strcmp(jstr(cJSON_GetObjectItem(a, "balance"), "status"), "imbalanced"));
	CHECK(!strcmp(jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"), "high") ||
	      !strcmp(jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"), "ok"));
	cJSON_Delete(a);
	/* no plateau confirmed on the knee (at index 3): counters only at the last point */
	a = sweep(gib, 1.0);
	CHECK(a != NULL);
	cJSON_Delete(a);
}

static void test_not_saturated(void)
{
	struct bc_ana_point p[4];
	cJSON *a;
	int i;

	for (i = 0; i < 4; i++)
		p[i] = point(1 << i, 1e9 * (1 << i), MiB / 1e9);
	a = bc_ana_json(p, 4, "numjobs");
	CHECK_MSG(!strcmp(jstr(a, "class"), "not-saturated"), "class %s", jstr(a, "class"));
	CHECK(strstr(jstr(a, "verdict"), "still rising") != NULL);
	/* no nodes: reconciliation cannot be judged */
	CHECK(!strcmp(jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"), "unknown"));
	cJSON_Delete(a);
	a = bc_ana_json(p, 1, NULL);
	CHECK(!strcmp(jstr(a, "class"), "not-saturated"));
	cJSON_Delete(a);
}

static void test_gib_ratio(void)
{
	struct bc_use nodes[2];
	struct bc_ana_point p = point(64, 10e9, 64 * MiB / 10e9);
	cJSON *a;

	nodes[0] = node("a", 5e9 * 0.9313, 0.3, 0.4, 0.05);
	nodes[1] = node("b", 5e9 * 0.9313, 0.3, 0.4, 0.05);
	p.nodes = nodes;
	p.nnodes = 2;
	a = bc_ana_json(&p, 1, NULL);
	CHECK_MSG(!strcmp(jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"), "gib-like"),
		  "%s", jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"));
	cJSON_Delete(a);
	/* 7.4% more on the wire than the goodput: overhead is as likely as units */
	nodes[0].net_tx_bps = nodes[1].net_tx_bps = 5e9 * 1.0737;
	a = bc_ana_json(&p, 1, NULL);
	CHECK_MSG(!strcmp(jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"), "ok") &&
		      strstr(jstr(cJSON_GetObjectItem(a, "reconciliation"), "message"),
			     "protocol overhead"),
		  "%s", jstr(cJSON_GetObjectItem(a, "reconciliation"), "status"));
	cJSON_Delete(a);
}

static void test_use_from_json(void)
{
	struct bc_hostfig f;
	struct bc_use u;
	cJSON *j;

	bc_hostfig_clear(&f, 0);
	f.dt_s = 1;
	f.cpu_busy = 0.5;
	f.cpu_hot_core = 0.9;
	f.cpu_hot_core_id = 3;
	f.net_tx_bps = 1e9;
	f.link_bps = 1.25e9;
	f.net_tx_util = 0.8;
	f.ncpu = 8;
	f.nnics = 1;
	snprintf(f.nics[0].name, sizeof(f.nics[0].name), "eth0");
	f.nics[0].counted = true;
	f.nics[0].tx_bps = 1e9;
	f.nics[0].rx_bps = 0;
	f.nics[0].speed_bps = 1.25e9;
	j = bc_hostfig_json(&f, true);
	bc_use_from_json(&u, "c", true, j);
	CHECK(fabs(u.cpu_busy - 0.5) < 1e-9 && fabs(u.hot_core - 0.9) < 1e-9 && u.hot_core_id == 3);
	CHECK(fabs(u.nic_tx - 0.8) < 1e-9 && fabs(u.link_bps - 1.25e9) < 1);
	CHECK(!strcmp(u.nics, "eth0") && u.ncpu == 8 && isnan(u.disk_aqu_max));
	cJSON_Delete(j);
}

/* the profile's own rate limits flatten the curve: attributed to them, not to the storage */
static void test_rate_limited(void)
{
	struct bc_ana_point p[3];
	cJSON *a;
	int i;

	for (i = 0; i < 3; i++) {
		/* 2 volumes x 1500 IOPS of 4 KiB whatever the depth; latency stays low */
		p[i] = point(2 << (2 * i), 3000 * 4096.0, 20e-6);
		p[i].x_iops = 3000;
		p[i].volumes = 2;
		p[i].paced.volumes = p[i].paced.paced_volumes = 2;
		p[i].paced.paced_at_limit = 2;
		p[i].paced.paced_limit_iops = 3000;
		p[i].paced.paced_iops = 2990;
	}
	a = bc_ana_json(p, 3, "iodepth");
	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "class %s", jstr(a, "class"));
	CHECK(strstr(jstr(a, "verdict"), "rate limits cap 2 volume(s)") != NULL);
	CHECK(!strcmp(jstr(a, "bottleneck"), "rate_iops in the profile"));
	cJSON_Delete(a);
	/* one of the two a little short (starved): together they are still at their limits */
	for (i = 0; i < 3; i++) {
		p[i].paced.paced_at_limit = 1;
		p[i].paced.paced_iops = 2900;
	}
	a = bc_ana_json(p, 3, "iodepth");
	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "class %s", jstr(a, "class"));
	cJSON_Delete(a);
	/* below their limits the pacing is not the ceiling: Little's law judges as usual */
	for (i = 0; i < 3; i++) {
		p[i].paced.paced_iops = 1000;
		p[i].paced.paced_at_limit = 0;
	}
	a = bc_ana_json(p, 3, "iodepth");
	CHECK_MSG(strcmp(jstr(a, "class"), "client-bound"), "class %s", jstr(a, "class"));
	cJSON_Delete(a);
}

/*
 * Recorded on loop devices with a profile like tests/e2e/test_e2e_plateau_loop.sh's (one volume
 * per node, 3 local agents, 4k randread, a 4 ms thinktime on every volume): node n2's volume has
 * rate_iops 1000, n1 and n3 none. Per iodepth 1..32: IOPS and mean latency (ms) per node.
 */
static const double rec_iops[3][6] = {{209, 440, 856, 1576, 3135, 5385},
				      {211, 440, 864, 999, 999, 1001},
				      {209, 442, 858, 1587, 3089, 5360}};
static const double rec_lat_ms[3][6] = {{0.604, 0.395, 0.553, 0.795, 0.851, 1.645},
					{0.583, 0.400, 0.511, 0.823, 0.683, 0.905},
					{0.617, 0.391, 0.539, 0.762, 0.881, 1.627}};

/*
 * The recorded series as analysis points; limit is n2's rate_iops (0: none), bw paces it by
 * rate_bw instead, and cpu sets the client hosts' CPU (the VM was 95% busy).
 */
static cJSON *partial_sweep(double limit, bool bw, double cpu, const double (*iops)[6])
{
	static struct bc_ana_load load[6][3];
	static struct bc_use nodes[6][3], cl[6][3];
	static char labels[6][8];
	static const char *const names[3] = {"n1", "n2", "n3"};
	struct bc_ana_point p[6];
	int i, j;

	for (i = 0; i < 6; i++) {
		double qd = 1 << i, lat = 0;

		memset(&p[i], 0, sizeof(p[i]));
		snprintf(labels[i], sizeof(labels[i]), "%d", 1 << i);
		p[i].value = qd;
		p[i].label = labels[i];
		p[i].volumes = 3;
		p[i].think_s = 0.004;
		for (j = 0; j < 3; j++) {
			struct bc_ana_load *l = &load[i][j];

			memset(l, 0, sizeof(*l));
			l->volumes = 1;
			l->n = qd;
			l->x_iops = iops[j][i];
			l->x_bps = iops[j][i] * 4096;
			l->r_mean_s = rec_lat_ms[j][i] / 1e3;
			l->think_s = 0.004;
			if (j == 1 && limit > 0) {
				l->paced_volumes = 1;
				if (bw) {
					l->paced_limit_bps = limit * 4096;
					l->paced_bps = l->x_bps;
				} else {
					l->paced_limit_iops = limit;
					l->paced_iops = l->x_iops;
				}
				l->paced_at_limit = l->x_iops >= BC_ANA_PACED_FRAC * limit;
				p[i].paced = *l;
			}
			p[i].n += l->n;
			p[i].x_iops += l->x_iops;
			p[i].x_bps += l->x_bps;
			lat += l->x_iops * l->r_mean_s;
			bc_use_init(&nodes[i][j], names[j], false);
			cl[i][j] = client(names[j], 0, cpu);
			snprintf(cl[i][j].name, sizeof(cl[i][j].name), "c%d", j + 1);
			cl[i][j].ncpu = 2;
			cl[i][j].load1 = 3;
			/* the agent's own CPU is most of it: the load's doing */
			cl[i][j].agent_cpu = 0.9 * cpu;
			cl[i][j].agent_cores = 2 * 0.9 * cpu;
		}
		p[i].x_read_bps = p[i].x_bps;
		p[i].r_mean_s = lat / p[i].x_iops;
		p[i].p99_s = 5e-3;
		p[i].nodes = nodes[i];
		p[i].nnodes = 3;
		p[i].clients = cl[i];
		p[i].nclients = 3;
		p[i].node_load = load[i];
	}
	return bc_ana_json(p, 6, "iodepth");
}

static const cJSON *jnode(const cJSON *a, const char *name)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(a, "nodes"))
	{
		if (!strcmp(jstr(e, "name"), name))
			return e;
	}
	return NULL;
}

/* one node of three paced at its limit while the others scale: the verdict names that node */
static void test_partial_rate_limit(void)
{
	int before = bc_test_failures;
	const cJSON *n1, *n2, *n3, *k, *pts;
	cJSON *a = partial_sweep(1000, false, 0.95, rec_iops);
	const char *v = jstr(a, "verdict");

	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "class %s", jstr(a, "class"));
	CHECK_MSG(strstr(v, "client-bound: node n2 is held flat by the profile's own rate limits "
			    "from iodepth=8") != NULL,
		  "verdict %s", v);
	CHECK_MSG(strstr(v, "1001 of 1000 IOPS allowed by rate_iops"), "verdict %s", v);
	CHECK_MSG(strstr(v, "nodes n1, n3 still scale") != NULL, "verdict %s", v);
	/* neither the unlimited nodes nor the busy client hosts are blamed */
	CHECK(strstr(v, "CPU") == NULL && strstr(v, "c1") == NULL);
	CHECK_MSG(!strcmp(jstr(a, "bottleneck"), "rate_iops in the profile on node n2"), "%s",
		  jstr(a, "bottleneck"));
	n1 = jnode(a, "n1");
	n2 = jnode(a, "n2");
	n3 = jnode(a, "n3");
	CHECK(n1 && n2 && n3);
	CHECK_MSG(!strcmp(jstr(n2, "class"), "paced"), "n2 %s", jstr(n2, "class"));
	CHECK(!strcmp(jstr(n1, "class"), "scaling") && !strcmp(jstr(n3, "class"), "scaling"));
	k = cJSON_GetObjectItemCaseSensitive(n2, "knee");
	CHECK_MSG(jnum(k, "value") == 8 && cJSON_IsTrue(cJSON_GetObjectItem(k, "confirmed")),
		  "n2 knee %g", jnum(k, "value"));
	CHECK(jnum(k, "iops") == 999);
	CHECK(jnum(cJSON_GetObjectItem(n2, "paced"), "limit_iops") == 1000);
	CHECK(jnum(cJSON_GetObjectItem(n2, "paced"), "pct") >= 99);
	pts = cJSON_GetObjectItemCaseSensitive(n2, "points");
	CHECK(!strcmp(jstr(cJSON_GetArrayItem(pts, 4), "class"), "paced"));
	CHECK(!strcmp(jstr(cJSON_GetArrayItem(pts, 5), "class"), "paced"));
	CHECK(!strcmp(jstr(cJSON_GetArrayItem(pts, 1), "class"), "scaling"));
	CHECK(strstr(jstr(n2, "verdict"), "paced: flat at 1001 IOPS from iodepth=8") != NULL);
	/* the unlimited ones: x25 IOPS for x32 load, and Little's law with the thinktime holds */
	CHECK(jnum(n1, "x_ratio") > 20 && jnum(n1, "n_ratio") == 32);
	CHECK(!cJSON_GetObjectItem(cJSON_GetObjectItem(n1, "knee"), "confirmed") ||
	      !cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(n1, "knee"), "confirmed")));
	pts = cJSON_GetObjectItemCaseSensitive(n1, "points");
	CHECK_MSG(fabs(jnum(cJSON_GetArrayItem(pts, 5), "rho") - 0.95) < 0.03, "n1 rho %g",
		  jnum(cJSON_GetArrayItem(pts, 5), "rho"));
	/* the total never flattens: its knee is the last point, unconfirmed */
	k = cJSON_GetObjectItemCaseSensitive(a, "knee");
	CHECK(jnum(k, "value") == 32 && !cJSON_IsTrue(cJSON_GetObjectItem(k, "confirmed")));
	dump_on_fail(a, getenv("BC_TEST_VERBOSE") ? -1 : before);
	cJSON_Delete(a);

	/* a starved second: n2 falls to 800 IOPS at iodepth 16 and is back at its limit at 32 */
	{
		static double dip[3][6];

		memcpy(dip, rec_iops, sizeof(dip));
		dip[1][4] = 800;
		a = partial_sweep(1000, false, 0.95, (const double(*)[6])dip);
		CHECK_MSG(!strcmp(jstr(jnode(a, "n2"), "class"), "paced"), "n2 %s",
			  jstr(jnode(a, "n2"), "class"));
		CHECK(jnum(cJSON_GetObjectItem(jnode(a, "n2"), "knee"), "value") == 8);
		CHECK(strstr(jstr(a, "verdict"), "node n2 is held flat") != NULL);
		cJSON_Delete(a);
	}

	/* the same paced by rate_bw */
	before = bc_test_failures;
	a = partial_sweep(1000, true, 0.3, rec_iops);
	v = jstr(a, "verdict");
	CHECK_MSG(strstr(v, "node n2 is held flat") != NULL &&
		      strstr(v, "MB/s allowed by rate_bw") != NULL,
		  "verdict %s", v);
	CHECK(!strcmp(jstr(a, "bottleneck"), "rate_bw in the profile on node n2"));
	CHECK(!strcmp(jstr(jnode(a, "n2"), "class"), "paced"));
	dump_on_fail(a, before);
	cJSON_Delete(a);

	/* the same series with no limit declared: n2 kept far fewer than N in flight for no
	 * reason the profile gives, and Little's law says so */
	a = partial_sweep(0, false, 0.3, rec_iops);
	CHECK_MSG(!strcmp(jstr(a, "class"), "invalid"), "class %s", jstr(a, "class"));
	CHECK(strstr(jstr(a, "verdict"), "did not keep N in flight") != NULL);
	CHECK(!strcmp(jstr(jnode(a, "n2"), "class"), "diminishing"));
	cJSON_Delete(a);
}

/* n2 paced, and n1/n3 flatten too with every client CPU full: that ceiling is reported */
static void test_partial_rate_limit_and_ceiling(void)
{
	static double flat[3][6];
	int before = bc_test_failures, i, j;
	const char *v;
	cJSON *a;

	for (j = 0; j < 3; j++)
		for (i = 0; i < 6; i++)
			flat[j][i] = j == 1 ? rec_iops[1][i] : fmin(rec_iops[j][i], 1580);
	/* queueing past the knee: latency grows with N (X*(R+Z)/N stays 1) */
	a = partial_sweep(1000, false, 0.97, (const double(*)[6])flat);
	v = jstr(a, "verdict");
	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "class %s", jstr(a, "class"));
	CHECK_MSG(strstr(v, "CPU 97% busy") != NULL, "verdict %s", v);
	CHECK_MSG(strstr(v, "node n2 is paced by the profile's rate limits") != NULL, "verdict %s",
		  v);
	CHECK(!strcmp(jstr(jnode(a, "n2"), "class"), "paced"));
	dump_on_fail(a, before);
	cJSON_Delete(a);
}

/* thinktime takes slots out of flight: Little's law is N = X (R + Z) */
static void test_little_thinktime(void)
{
	struct bc_ana_point p = point(32, 5385 * 4096.0, 1.645e-3);

	p.x_iops = 5385;
	CHECK(bc_ana_rho(&p) < 0.3);
	p.think_s = 0.004;
	CHECK_MSG(fabs(bc_ana_rho(&p) - 0.95) < 0.01, "rho %g", bc_ana_rho(&p));
}

/* a client that is the ceiling: throughput follows its agent's CPU up to the whole host */
static void test_client_cpu_bound_sweep(void)
{
	static struct bc_use nodes[4][2], cl[4][2];
	static const double qd[] = {8, 16, 32, 64}, x[] = {10e9, 18e9, 19.0e9, 19.1e9};
	static const double agent[] = {0.45, 0.85, 0.95, 0.96};
	struct bc_ana_point p[4];
	int i, j;
	cJSON *a;

	for (i = 0; i < 4; i++) {
		p[i] = point(qd[i], x[i], qd[i] * MiB / x[i] * (i >= 2 ? 1.0 : 1.0));
		for (j = 0; j < 2; j++) {
			nodes[i][j] = node(j ? "n2" : "n1", x[i] / 2 * 1.02, 0.3, 0.5, 0.03);
			cl[i][j] = client(j ? "c2" : "c1", x[i] / 2, agent[i] + 0.02);
			cl[i][j].ncpu = 4;
			cl[i][j].load1 = 4 * agent[i];
			cl[i][j].agent_cpu = agent[i];
			cl[i][j].agent_cores = 4 * agent[i];
		}
		p[i].nodes = nodes[i];
		p[i].nnodes = 2;
		p[i].clients = cl[i];
		p[i].nclients = 2;
	}
	/* latency grows with N past the knee: the queueing signature */
	p[3].r_mean_s = p[2].r_mean_s * 2;
	a = bc_ana_json(p, 4, "iodepth");
	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "class %s: %s", jstr(a, "class"),
		  jstr(a, "verdict"));
	CHECK_MSG(strstr(jstr(a, "verdict"), "all 2 clients: CPU 97% busy over 4 cores, the agent "
					     "95% of the host") != NULL,
		  "verdict %s", jstr(a, "verdict"));
	if (getenv("BC_TEST_VERBOSE"))
		printf("cpu-bound clients: %s\n", jstr(a, "verdict"));
	cJSON_Delete(a);
}

/* the saturated group from real counters: which cores, how many, the agent's own share */
static void test_hostfig_core_group(void)
{
	struct bc_hostsnap a, b;
	struct bc_hostfig *f = calloc(1, sizeof(*f));
	char list[64];
	int c;

	bc_hostsnap_init(&a);
	bc_hostsnap_init(&b);
	a.t_ns = 1000000000ULL;
	b.t_ns = 2000000000ULL;
	for (c = 0; c < 8; c++) {
		/* cores 2, 3 and 6 at 100% (user), the others 30% busy */
		double busy = (c == 2 || c == 3 || c == 6) ? 1.0 : 0.3;

		bc_hostsnap_cpu_set(&a, c, BC_CPU_USER, 100);
		bc_hostsnap_cpu_set(&a, c, BC_CPU_IDLE, 100);
		bc_hostsnap_cpu_set(&b, c, BC_CPU_USER, 100 + busy);
		bc_hostsnap_cpu_set(&b, c, BC_CPU_IDLE, 100 + 1 - busy);
	}
	a.proc_cpu_s = 10;
	b.proc_cpu_s = 12; /* 2 cores' worth of the 8 */
	a.proc_iou_cpu_s = 1;
	b.proc_iou_cpu_s = 1.4;
	a.proc_jobs_cpu_s = b.proc_jobs_cpu_s = 0;
	CHECK(f && bc_hostfig_compute(&a, &b, NULL, f) == 0);
	CHECK_MSG(f->cpu_sat_cores == 3, "sat %g", f->cpu_sat_cores);
	bc_hostfig_cpulist(f->cpu_sat_mask, 8, list, sizeof(list));
	CHECK_MSG(!strcmp(list, "2-3,6"), "list %s", list);
	CHECK(fabs(f->agent_cpu - 0.25) < 1e-9 && fabs(f->agent_cores - 2) < 1e-9);
	CHECK(fabs(f->agent_iou_cpu - 0.05) < 1e-9);
	{
		cJSON *j = bc_hostfig_json(f, false);
		struct bc_use u;

		CHECK(!strcmp(jstr(j, "cpu_sat_list"), "2-3,6"));
		bc_use_from_json(&u, "c1", true, j);
		CHECK(u.sat_cores == 3 && !strcmp(u.sat_list, "2-3,6"));
		CHECK(fabs(u.agent_cpu - 0.25) < 1e-9);
		cJSON_Delete(j);
	}
	bc_hostsnap_free(&a);
	bc_hostsnap_free(&b);
	free(f);
}

int main(void)
{
	test_rate_limited();
	test_partial_rate_limit();
	test_partial_rate_limit_and_ceiling();
	test_little_thinktime();
	test_classes();
	test_pov_plateau();
	test_client_bound();
	test_sweep_verdicts();
	test_reconcile_and_balance();
	test_not_saturated();
	test_gib_ratio();
	test_use_from_json();
	test_client_cpu_bound_sweep();
	test_hostfig_core_group();
	TEST_DONE();
}
