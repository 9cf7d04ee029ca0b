/*
 * test_suspects: the suspects table (analysis/suspects.h) on seeded sweeps:
 * each named rule implicates or clears its row, the network path from the
 * agents' net_path, the client CPU rules
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "bc_anatest.h"
#include "bc_test.h"

/* ---- the suspects table on the seed's shape: 3 nodes x 128 cores, 3 clients x 2 cores ---- */

enum seed_case {
	SEED_TIED,	    /* nothing saturated, every node alike */
	SEED_GROUP_LOW,	    /* 16 cores pegged, node mean 58% */
	SEED_GROUP_HIGH,    /* 16 cores pegged, the rest at 68%: node mean 72% */
	SEED_NIC,	    /* node-2's NIC at 98% */
	SEED_SOFTIRQ,	    /* node-3's core 0 pegged by softirq */
	SEED_BOND,	    /* node-1's bond: one member carries everything */
	SEED_BUSY_CLIENT,   /* client-1 busy with other processes, the agent at 5% */
	SEED_CPU_CLIENTS,   /* every agent's own CPU rises with the load to the whole host */
	SEED_KERNEL_DRIFT,  /* node-3 runs another kernel */
	SEED_ROUTES_OK,	    /* every client reaches every node by eth1 at the nodes' MTU */
	SEED_ROUTE_MTU,	    /* client-2's eth1 at MTU 1500 against the nodes' 9000 */
	SEED_ROUTE_ODD,	    /* client-3 reaches node-3 by its 1 GbE management port */
	SEED_BOND_L2,	    /* SEED_BOND with the node's policy layer2 (the profile's nic_hash) */
	SEED_BOND_SKEW,	    /* node-1's eth0 carries the flows at 60%, client bond layer2+3 */
	SEED_NUMA_REMOTE,   /* the clients' jobs pinned to node 1, their NIC on node 0 */
	SEED_NUMA_LOCAL,    /* pinned to the NIC's node */
	SEED_NUMA_UNPINNED, /* unpinned over both nodes */
	SEED_NUMA_ONE,	    /* one NUMA node */
};

/*
 * A client's net_path as the agent reports it (STEP_DONE, host/netpath.h),
 * recorded from a 2-socket client with eth0 (1 GbE management) and eth1
 * (100 GbE data, NUMA node 0) reaching three nodes at 10.0.1.1-3.
 */
static void seed_net_path(struct bc_use *k, enum seed_case c, int j)
{
	char js[2048];
	const char *mtu = c == SEED_ROUTE_MTU && j == 1 ? "1500" : "9000";
	const char *dev3 = c == SEED_ROUTE_ODD && j == 2 ? "eth0" : "eth1";
	const char *cpus = c == SEED_NUMA_REMOTE     ? "\"8-15\", \"job_numa_nodes\": \"1\""
			   : c == SEED_NUMA_UNPINNED ? "\"0-15\", \"job_numa_nodes\": \"0-1\""
						     : "\"0-7\", \"job_numa_nodes\": \"0\"";
	const char *bond = c == SEED_BOND_SKEW ? ", \"bond\": \"bond1\", \"xmit_hash_policy\": "
						 "\"layer2+3\", \"members\": \"eth1,eth2\""
					       : "";
	cJSON *np;

	snprintf(js, sizeof(js),
		 "{\"routes\": ["
		 "{\"node\": \"node-1\", \"address\": \"10.0.1.1\", \"dev\": \"%s\", "
		 "\"local\": false, \"mtu\": %s, \"speed_mbps\": 12500, \"numa_node\": 0%s},"
		 "{\"node\": \"node-2\", \"address\": \"10.0.1.2\", \"dev\": \"%s\", "
		 "\"local\": false, \"mtu\": %s, \"speed_mbps\": 12500, \"numa_node\": 0%s},"
		 "{\"node\": \"node-3\", \"address\": \"10.0.1.3\", \"dev\": \"%s\", "
		 "\"gateway\": \"192.168.0.1\", \"local\": false, \"mtu\": %s, "
		 "\"speed_mbps\": %s, \"numa_node\": 0%s},"
		 "{\"node\": \"node-3\", \"address\": \"node-3.lab\", \"error\": \"'node-3.lab' "
		 "is not a numeric IPv4 or IPv6 address\"}],"
		 " \"numa\": {\"nodes\": %d, \"job_cpus\": %s, \"pinned\": %s}}",
		 c == SEED_BOND_SKEW ? "bond1" : "eth1", mtu, bond,
		 c == SEED_BOND_SKEW ? "bond1" : "eth1", mtu, bond, dev3,
		 !strcmp(dev3, "eth0") ? "1500" : mtu, !strcmp(dev3, "eth0") ? "125" : "12500",
		 bond, c == SEED_NUMA_ONE ? 1 : 2, cpus,
		 c == SEED_NUMA_UNPINNED ? "false" : "true");
	np = cJSON_Parse(js);
	CHECK_MSG(np != NULL, "net_path JSON: %s", js);
	snprintf(k->nics, sizeof(k->nics), "%s", c == SEED_BOND_SKEW ? "bond1" : "eth1");
	bc_use_net_path(k, np);
	cJSON_Delete(np);
}

/* QD 192 -> 384 -> 768 per client: 27.70 -> 27.60 -> 27.49 GB/s, latency x2 per step */
static cJSON *seed(enum seed_case c)
{
	static struct bc_use nodes[3][3], cl[3][3];
	static double goodput[3][3];
	static const double qd[] = {576, 1152, 2304}, x[] = {27.70e9, 27.60e9, 27.49e9};
	struct bc_ana_point p[3];
	int i, j;

	for (i = 0; i < 3; i++) {
		p[i] = point(qd[i], x[i], qd[i] * MiB / x[i]);
		for (j = 0; j < 3; j++) {
			struct bc_use *u = &nodes[i][j], *k = &cl[i][j];
			char nm[16];

			snprintf(nm, sizeof(nm), "node-%d", j + 1);
			*u = node(nm, x[i] / 3 * 1.02, 0.58, 0.80, 0.02);
			u->ncpu = 128;
			u->sat_cores = 0;
			u->mtu_min = u->mtu_max = 9000;
			u->nmembers = 2;
			u->member_max_util = u->nic_tx * 1.03;
			u->member_min_util = u->nic_tx * 0.97;
			snprintf(u->member_max, sizeof(u->member_max), "eth0");
			snprintf(u->member_min, sizeof(u->member_min), "eth1");
			snprintf(u->kernel, sizeof(u->kernel), "5.14.0-362.el9");
			if (c == SEED_GROUP_LOW || c == SEED_GROUP_HIGH) {
				u->sat_cores = 16;
				u->sat_busy = 1.0;
				u->hot_core = 1.0;
				u->hot_core_id = 0;
				snprintf(u->sat_list, sizeof(u->sat_list), "0-15");
				u->cpu_busy = c == SEED_GROUP_LOW ? 0.58 : (16 + 112 * 0.68) / 128;
			}
			if (c == SEED_NIC && j == 1) {
				u->nic_tx = 0.98;
				u->link_bps = u->net_tx_bps / 0.98;
			}
			if (c == SEED_SOFTIRQ && j == 2) {
				u->hot_core = 1.0;
				u->hot_core_id = 0;
				u->softirq_hot = 0.95;
				u->softirq_hot_id = 0;
				u->sat_cores = 1;
				snprintf(u->sat_list, sizeof(u->sat_list), "0");
			}
			if ((c == SEED_BOND || c == SEED_BOND_L2) && j == 0) {
				/* 2 x 100GbE members, all of the bond's 50% on eth0 */
				u->link_bps = u->net_tx_bps / 0.5;
				u->nic_tx = 0.5;
				u->member_max_util = 0.99;
				u->member_min_util = 0.01;
			}
			if (c == SEED_BOND_L2)
				snprintf(u->hash_policy, sizeof(u->hash_policy), "layer2");
			if (c == SEED_BOND_SKEW && j == 0) {
				u->link_bps = u->net_tx_bps / 0.3;
				u->nic_tx = 0.3;
				u->member_max_util = 0.6;
				u->member_min_util = 0.01;
				snprintf(u->hash_policy, sizeof(u->hash_policy), "layer2");
			}
			if (c == SEED_KERNEL_DRIFT && j == 2)
				snprintf(u->kernel, sizeof(u->kernel), "5.14.0-284.el9");
			goodput[i][j] = x[i] / 3;

			snprintf(nm, sizeof(nm), "client-%d", j + 1);
			*k = client(nm, x[i] / 3, 0.25);
			k->ncpu = 2;
			k->load1 = 0.6;
			k->agent_cpu = 0.20;
			k->agent_cores = 0.4;
			k->mtu_min = k->mtu_max = 9000;
			if (c == SEED_BUSY_CLIENT && j == 0) {
				k->cpu_busy = 0.95;
				k->load1 = 15.5;
				k->agent_cpu = 0.05;
				k->agent_cores = 0.1;
				k->baseline_busy = 0.93;
				k->others_cpu = 0.90;
				snprintf(k->others_top, sizeof(k->others_top),
					 "cc1 (12 processes) 1.70 cores");
			}
			if (c == SEED_CPU_CLIENTS) {
				k->agent_cpu = 0.93;
				k->cpu_busy = 0.97;
				k->agent_cores = 1.86;
			}
			if (c >= SEED_ROUTES_OK)
				seed_net_path(k, c, j);
		}
		p[i].nodes = nodes[i];
		p[i].nnodes = 3;
		p[i].clients = cl[i];
		p[i].nclients = 3;
		p[i].node_goodput_bps = goodput[i];
	}
	return bc_ana_json(p, 3, "iodepth");
}

static const cJSON *suspect(const cJSON *a, const char *name)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(a, "suspects"))
	{
		if (!strcmp(jstr(r, "suspect"), name))
			return r;
	}
	return NULL;
}

static void test_suspects_seed(void)
{
	static const struct {
		enum seed_case c;
		const char *cls, *in_verdict, *in_verdict2, *row, *state;
	} cases[] = {
	    {SEED_TIED, "internal-limit", "internal limit at 9.23 GB/s per node",
	     "every node flat alike", "node core group", "excluded"},
	    {SEED_GROUP_LOW, "core-group-bound",
	     "all 3 nodes: 16 of 128 cores at 100% (cores 0-15, the same at every point) while "
	     "42% is idle: a fixed group of cores is the limit",
	     "all 3 nodes flat at 9.23 GB/s each", "node core group", "implicated"},
	    {SEED_GROUP_HIGH, "core-group-bound", "16 of 128 cores at 100%", "while 28% is idle",
	     "node core group", "implicated"},
	    {SEED_NIC, "NIC-bound", "node node-2: bond0 tx at 98%", "all 3 nodes flat", "node NIC",
	     "implicated"},
	    {SEED_SOFTIRQ, "single-core/softirq-bound",
	     "node node-3: core 0 100% busy, softirq 95%", "RSS/IRQ affinity", "softirq/IRQ spread",
	     "implicated"},
	    {SEED_BOND, "NIC-bound", "node node-1: bond member eth0 at 99%", "one link",
	     "network path", "implicated"},
	    {SEED_BUSY_CLIENT, "client-bound", "client client-1: CPU 95% busy over 2 cores",
	     "other processes 90% (cc1 (12 processes) 1.70 cores)", "client CPU", "implicated"},
	    {SEED_CPU_CLIENTS, "client-bound", "all 3 clients: CPU 97% busy over 2 cores",
	     "the agent 93% of the host", "client CPU", "implicated"},
	    {SEED_KERNEL_DRIFT, "version-drift", "kernel differs across nodes",
	     "node-3 5.14.0-284.el9", "software/kernel version", "implicated"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int before = bc_test_failures;
		cJSON *a = seed(cases[i].c);
		const char *v = jstr(a, "verdict");
		const cJSON *r = suspect(a, cases[i].row);

		CHECK_MSG(!strcmp(jstr(a, "class"), cases[i].cls), "case %zu: class %s (%s)", i,
			  jstr(a, "class"), v);
		CHECK_MSG(strstr(v, cases[i].in_verdict) && strstr(v, cases[i].in_verdict2),
			  "case %zu: verdict %s", i, v);
		CHECK_MSG(r && !strcmp(jstr(r, "state"), cases[i].state), "case %zu: %s is %s", i,
			  cases[i].row, r ? jstr(r, "state") : "missing");
		/* every suspect has a row, every score is on the same 0..1 scale */
		CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(a, "suspects")) == BC_SUS_NR);
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(a, "suspects"))
		{
			const cJSON *sc = cJSON_GetObjectItemCaseSensitive(r, "score");

			CHECK(!sc || (sc->valuedouble >= 0 && sc->valuedouble <= 1));
		}
		/* queue depth x4 gave nothing: excluded, with the figures */
		r = suspect(a, "load/queue depth");
		CHECK_MSG(!strcmp(jstr(r, "state"), "excluded") &&
			      strstr(jstr(r, "figures"), "more load only queues"),
			  "case %zu: load %s", i, jstr(r, "figures"));
		if (getenv("BC_TEST_VERBOSE"))
			printf("seed case %zu: %s\n", i, v);
		dump_on_fail(a, before);
		cJSON_Delete(a);
	}
	/*
	 * the busy client: implicated whoever holds its CPU, and who does is
	 * named - the agent's share, the other processes, the host before
	 */
	{
		cJSON *a = seed(SEED_BUSY_CLIENT);
		const cJSON *r = suspect(a, "client CPU");

		CHECK_MSG(!strcmp(jstr(r, "state"), "implicated") &&
			      strstr(jstr(r, "figures"), "the agent 5% of the host") &&
			      strstr(jstr(r, "figures"), "other processes 90% (cc1") &&
			      strstr(jstr(r, "figures"), "93% busy before the step"),
			  "client CPU: %s", jstr(r, "figures"));
		cJSON_Delete(a);
	}
	/* nothing measured about NUMA here: said so, never excluded */
	{
		cJSON *a = seed(SEED_TIED);

		CHECK(!strcmp(jstr(suspect(a, "NUMA locality"), "state"), "not measured"));
		CHECK(!strcmp(jstr(suspect(a, "network path"), "state"), "excluded"));
		CHECK(strstr(jstr(suspect(a, "network path"), "figures"), "MTU 9000 on every end"));
		cJSON_Delete(a);
	}
}

/* the client's routes, the bonds' hash policies and NUMA placement on the seed's shape */
static void test_suspects_net_path(void)
{
	static const struct {
		enum seed_case c;
		const char *row, *state, *in_figures, *cls, *in_verdict;
	} cases[] = {
	    {SEED_ROUTES_OK, "network path", "excluded",
	     "9 client route(s) to node addresses via eth1, MTU 9000, 9 matching the node's own",
	     "internal-limit", "internal limit"},
	    {SEED_ROUTE_MTU, "network path", "implicated",
	     "client client-2: MTU 1500 via eth1 to 3 nodes whose NICs have 9000", "network-path",
	     "network-path: client client-2: MTU 1500"},
	    {SEED_ROUTE_ODD, "network path", "implicated",
	     "client client-3 -> node node-3 (10.0.1.3) leaves by eth0 (125 MB/s) via a gateway, "
	     "not by the counted eth1: an unexpected interface",
	     "network-path", "leaves by eth0"},
	    {SEED_BOND_L2, "network path", "implicated",
	     "bond member eth0 at 99% of its link while eth1 is at 1%: the bond's hashing puts "
	     "the traffic on one link (xmit_hash_policy layer2 hashes addresses, not ports",
	     "NIC-bound", "one link per pair of hosts; layer3+4 spreads connections"},
	    {SEED_BOND_SKEW, "network path", "excluded",
	     "node node-1: member eth0 carries the flows (60%, eth1 1%), xmit_hash_policy layer2 "
	     "hashes addresses",
	     "internal-limit", "internal limit"},
	    {SEED_NUMA_REMOTE, "NUMA locality", "implicated",
	     "job threads pinned on CPUs 8-15 (node 1) while NIC eth1 is on node 0: every I/O "
	     "crosses the socket interconnect",
	     "NUMA-remote", "all 3 clients: job threads pinned on CPUs 8-15"},
	    {SEED_NUMA_LOCAL, "NUMA locality", "excluded",
	     "NIC eth1 on node 0, job threads on CPUs 0-7 (node 0): local to the NIC",
	     "internal-limit", "internal limit"},
	    {SEED_NUMA_UNPINNED, "NUMA locality", "not measured",
	     "job threads unpinned over CPUs 0-15 (nodes 0-1)", "internal-limit", "internal limit"},
	    {SEED_NUMA_ONE, "NUMA locality", "excluded", "one NUMA node", "internal-limit",
	     "internal limit"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int before = bc_test_failures;
		cJSON *a = seed(cases[i].c);
		const cJSON *r = suspect(a, cases[i].row);

		CHECK_MSG(r && !strcmp(jstr(r, "state"), cases[i].state), "case %zu: %s is %s", i,
			  cases[i].row, r ? jstr(r, "state") : "missing");
		CHECK_MSG(strstr(jstr(r, "figures"), cases[i].in_figures), "case %zu: figures %s",
			  i, jstr(r, "figures"));
		CHECK_MSG(!strcmp(jstr(a, "class"), cases[i].cls), "case %zu: class %s (%s)", i,
			  jstr(a, "class"), jstr(a, "verdict"));
		CHECK_MSG(strstr(jstr(a, "verdict"), cases[i].in_verdict), "case %zu: verdict %s",
			  i, jstr(a, "verdict"));
		/* the path's findings are about hosts of either kind, never "node client-3" */
		if (!strcmp(cases[i].cls, "network-path"))
			CHECK_MSG(!strncmp(jstr(a, "bottleneck"), "host client-", 12),
				  "case %zu: bottleneck %s", i, jstr(a, "bottleneck"));
		/* the node side of NUMA is never guessed */
		CHECK(strstr(jstr(suspect(a, "NUMA locality"), "figures"), "nodes: not measured"));
		if (getenv("BC_TEST_VERBOSE"))
			printf("net case %zu: %s\n  %s: %s\n", i, jstr(a, "verdict"), cases[i].row,
			       jstr(r, "figures"));
		dump_on_fail(a, before);
		cJSON_Delete(a);
	}
	/* a VLAN on the counted bond is the bond's traffic; a route by lo is the client itself */
	{
		struct bc_use cl[1], nd[1];
		struct bc_ana_point p = point(16, 1e9, 16 * MiB / 1e9);
		cJSON *np = cJSON_Parse(
		    "{\"routes\": [{\"node\": \"n1\", \"address\": \"10.1.0.1\", \"dev\": "
		    "\"bond0.100\", \"mtu\": 9000, \"numa_node\": -1}, {\"node\": \"n1\", "
		    "\"address\": \"127.0.0.1\", \"dev\": \"lo\", \"local\": true}]}");
		cJSON *a;

		cl[0] = client("c1", 1e9, 0.3);
		snprintf(cl[0].nics, sizeof(cl[0].nics), "bond0");
		bc_use_net_path(&cl[0], np);
		nd[0] = node("n1", 1.02e9, 0.3, 0.4, 0.02);
		nd[0].mtu_min = nd[0].mtu_max = 9000;
		p.clients = cl;
		p.nclients = 1;
		p.nodes = nd;
		p.nnodes = 1;
		a = bc_ana_json(&p, 1, NULL);
		CHECK_MSG(
		    !strcmp(jstr(suspect(a, "network path"), "state"), "excluded") &&
			strstr(jstr(suspect(a, "network path"), "figures"),
			       "1 client route(s) to node addresses via bond0.100, MTU 9000, 1 "
			       "matching the node's own; 1 client route(s) to a node address on "
			       "the client itself"),
		    "vlan: %s", jstr(suspect(a, "network path"), "figures"));
		cJSON_Delete(a);
		cJSON_Delete(np);
	}
	/* a route the agent could not look up is said, not judged */
	{
		cJSON *a = seed(SEED_ROUTES_OK);

		CHECK(strstr(jstr(suspect(a, "network path"), "figures"),
			     "'node-3.lab' is not a numeric IPv4 or IPv6 address (3 clients)"));
		cJSON_Delete(a);
	}
}

/*
 * a client host near full CPU is implicated whether or not the agent's share
 * moved with the load (it limits whatever runs on it), one whose tasks wait
 * for a CPU (PSI) too, and one under the levels is excluded with its figures
 */
static void test_client_cpu_rules(void)
{
	static struct bc_use nodes[2][1], cl[2][1];
	struct bc_ana_point p[2] = {point(16, 1.0e9, 16 * MiB / 1.0e9),
				    point(64, 1.01e9, 64 * MiB / 1.01e9)};
	int i;
	cJSON *a;

	for (i = 0; i < 2; i++) {
		nodes[i][0] = node("n1", 1.05e9, 0.2, 0.4, 0.02);
		cl[i][0] = client("c1", 1.0e9, 0.96);
		cl[i][0].ncpu = 2;
		cl[i][0].load1 = 2.5;
		cl[i][0].agent_cpu = 0.60; /* most of the host, but the same at both points */
		cl[i][0].agent_cores = 1.2;
		p[i].nodes = nodes[i];
		p[i].nnodes = 1;
		p[i].clients = cl[i];
		p[i].nclients = 1;
	}
	a = bc_ana_json(p, 2, "iodepth");
	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "flat agent CPU: %s",
		  jstr(a, "verdict"));
	CHECK(!strcmp(jstr(suspect(a, "client CPU"), "state"), "implicated"));
	cJSON_Delete(a);
	for (i = 0; i < 2; i++) {
		cl[i][0].cpu_busy = 0.70;
		cl[i][0].load1 = 1.0;
		cl[i][0].cpu_pressure = 0.45;
	}
	a = bc_ana_json(p, 2, "iodepth");
	CHECK_MSG(!strcmp(jstr(suspect(a, "client CPU"), "state"), "implicated") &&
		      strstr(jstr(suspect(a, "client CPU"), "figures"),
			     "tasks waited for a CPU 45% of the time"),
		  "pressure: %s", jstr(suspect(a, "client CPU"), "figures"));
	cJSON_Delete(a);
	for (i = 0; i < 2; i++)
		cl[i][0].cpu_pressure = 0.05;
	a = bc_ana_json(p, 2, "iodepth");
	CHECK_MSG(!strcmp(jstr(suspect(a, "client CPU"), "state"), "excluded"), "idle: %s",
		  jstr(suspect(a, "client CPU"), "figures"));
	cJSON_Delete(a);
	for (i = 0; i < 2; i++) {
		cl[i][0].cpu_busy = 0.96;
		cl[i][0].load1 = 2.5;
		cl[i][0].cpu_pressure = NAN;
	}
	/* the agent alone near the whole host is CPU-bound, risen or not */
	for (i = 0; i < 2; i++)
		cl[i][0].agent_cpu = 0.90;
	a = bc_ana_json(p, 2, "iodepth");
	CHECK_MSG(!strcmp(jstr(a, "class"), "client-bound"), "agent at 90%%: %s",
		  jstr(a, "verdict"));
	CHECK(strstr(jstr(a, "bottleneck"), "client c1: CPU 96%") != NULL);
	cJSON_Delete(a);
}

/* one host's links with different MTUs, and no node to compare with: no path mismatch */
static void test_mtu_one_end(void)
{
	struct bc_use cl[1];
	struct bc_ana_point p = point(16, 1e9, 16 * MiB / 1e9);
	cJSON *a;

	cl[0] = client("local", 1e9, 0.3);
	cl[0].mtu_min = 1400;
	cl[0].mtu_max = 1500;
	p.clients = cl;
	p.nclients = 1;
	a = bc_ana_json(&p, 1, NULL);
	CHECK_MSG(strcmp(jstr(suspect(a, "network path"), "state"), "implicated"), "%s",
		  jstr(a, "verdict"));
	CHECK(strstr(jstr(suspect(a, "network path"), "figures"), "clients only") != NULL);
	cJSON_Delete(a);
}

int main(void)
{
	test_suspects_seed();
	test_suspects_net_path();
	test_client_cpu_rules();
	test_mtu_one_end();
	TEST_DONE();
}
