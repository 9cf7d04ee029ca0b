/*
 * test_suspects_node: the storage nodes' own suspects on seed 003's write
 * collapse and its excluded list: GC against the clients' writes, the
 * journal against its devices, the read cache across a sweep (series
 * roles), and NUMA placement, bond mode and versions from the node facts
 * (counters/facts.h through bc_use_facts). Each case changes one node and
 * must implicate that node in that row only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "bc_anatest.h"
#include "bc_test.h"

enum ncase {
	N_CLEAN,	 /* every node alike, nothing implicated among these rows */
	N_GC,		 /* node-2's GC writes as much as its clients do */
	N_WAF,		 /* node-1 reports write amplification 2.1 (no GC series) */
	N_GC_IDLE,	 /* node-3's GC writes while nobody writes */
	N_JOURNAL,	 /* node-3's journal at 75 ms over 2 ms devices */
	N_JOURNAL_DISK,	 /* node-3's journal at 40 ms, its devices at 35 ms: the disk's */
	N_NUMA,		 /* node-1's storage process on NUMA node 0, its bond's links on 1 */
	N_NUMA_SPAN,	 /* node-1's storage process allowed on both NUMA nodes */
	N_ACTIVE_BACKUP, /* node-2's bond in active-backup, its one link at 95% */
	N_LACP_HALF,	 /* node-3's 802.3ad bond aggregates 1 of 2 links */
	N_SW_DRIFT,	 /* node-2 runs another storage software version */
	N_FW_DRIFT,	 /* node-3's drives run another firmware */
	N_CACHE,	 /* the read cache's hit ratio falls from 92% to 45% */
	N_LINK_DOWN,	 /* node-1: no collector, node_exporter's bonding says 1 of 2 links up */
};

/* what the node-facts collector says about node j (counters/facts.h) */
static void facts(struct bc_nodefacts *f, enum ncase c, int j)
{
	int k;

	bc_nodefacts_init(f);
	f->any = true;
	if (c == N_LINK_DOWN && j == 0) {
		/* only what node_exporter's bonding collector says */
		struct bc_prom_sample smp = {
		    .name = "node_bonding_slaves", .nlabels = 1, .value = 2};

		snprintf(smp.labels[0].name, sizeof(smp.labels[0].name), "master");
		snprintf(smp.labels[0].value, sizeof(smp.labels[0].value), "bond0");
		bc_nodefacts_sample(f, &smp);
		snprintf(smp.name, sizeof(smp.name), "node_bonding_active");
		smp.value = 1;
		bc_nodefacts_sample(f, &smp);
		return;
	}
	f->numa_nodes = 2;
	f->nnics = 2;
	snprintf(f->nics[0].dev, sizeof(f->nics[0].dev), "eth0");
	snprintf(f->nics[1].dev, sizeof(f->nics[1].dev), "eth1");
	f->nics[0].numa = f->nics[1].numa = 1;
	f->nbonds = 1;
	snprintf(f->bonds[0].bond, sizeof(f->bonds[0].bond), "bond0");
	snprintf(f->bonds[0].mode, sizeof(f->bonds[0].mode), "%s",
		 c == N_ACTIVE_BACKUP && j == 1 ? "active-backup" : "802.3ad");
	snprintf(f->bonds[0].hash, sizeof(f->bonds[0].hash), "layer3+4");
	snprintf(f->bonds[0].members, sizeof(f->bonds[0].members), "eth0,eth1");
	f->bonds[0].nmembers = 2;
	f->bonds[0].active = c == N_LACP_HALF && j == 2	      ? 1
			     : c == N_ACTIVE_BACKUP && j == 1 ? 1
							      : 2;
	f->nprocs = 1;
	snprintf(f->procs[0].name, sizeof(f->procs[0].name), "duroslight");
	snprintf(f->procs[0].cpus, sizeof(f->procs[0].cpus), "%s",
		 c == N_NUMA && j == 0	      ? "0-31"
		 : c == N_NUMA_SPAN && j == 0 ? "0-63"
					      : "32-63");
	snprintf(f->procs[0].numa_nodes, sizeof(f->procs[0].numa_nodes), "%s",
		 c == N_NUMA && j == 0	      ? "0"
		 : c == N_NUMA_SPAN && j == 0 ? "0,1"
					      : "1");
	bc_nodefacts_software(f, "lightos", c == N_SW_DRIFT && j == 1 ? "3.17.1" : "3.18.2");
	f->nnvme = 6;
	for (k = 0; k < 6; k++) {
		snprintf(f->nvme[k].dev, sizeof(f->nvme[k].dev), "nvme%d", k);
		snprintf(f->nvme[k].model, sizeof(f->nvme[k].model), "PM9A3");
		snprintf(f->nvme[k].firmware, sizeof(f->nvme[k].firmware), "%s",
			 c == N_FW_DRIFT && j == 2 ? "GDC5A02Q" : "GDC5602Q");
	}
}

/* a three-point write sweep on three nodes, the case applied; the analysis object */
static cJSON *run(enum ncase c)
{
	static struct bc_use nodes[3][3], cl[3][3];
	static double goodput[3][3];
	static const double qd[] = {192, 384, 768}, x[] = {6.0e9, 6.1e9, 6.05e9};
	struct bc_ana_point p[3];
	struct bc_nodefacts f;
	int i, j;

	for (i = 0; i < 3; i++) {
		p[i] = point(qd[i], x[i], qd[i] * MiB / x[i]);
		p[i].x_write_bps = x[i];
		p[i].x_read_bps = 0;
		for (j = 0; j < 3; j++) {
			struct bc_use *u = &nodes[i][j], *k = &cl[i][j];
			char nm[16];

			snprintf(nm, sizeof(nm), "node-%d", j + 1);
			*u = node(nm, x[i] / 3 * 0.02, 0.45, 0.60, 0.02);
			u->net_rx_bps = x[i] / 3 * 1.02;
			u->nic_rx = u->net_rx_bps / LINK;
			u->ncpu = 64;
			u->load1 = 20;
			u->disk_aqu_max = 3;
			u->disk_w_await_ms = 2.0;
			u->client_write_bps = x[i] / 3;
			u->gc_write_bps = 0.1 * x[i] / 3;
			u->journal_lat_s = 0.003;
			u->cache_hit = 0.92;
			snprintf(u->kernel, sizeof(u->kernel), "5.14.0-362.el9");
			snprintf(u->hash_policy, sizeof(u->hash_policy), "layer3+4");
			facts(&f, c, j);
			bc_use_facts(u, &f, "bond0");
			if (c == N_GC && j == 1)
				u->gc_write_bps = 1.02 * x[i] / 3;
			if (c == N_WAF && j == 0) {
				u->gc_write_bps = NAN;
				u->waf = 2.1;
			}
			if (c == N_GC_IDLE && j == 2)
				u->client_write_bps = 0;
			if (c == N_JOURNAL && j == 2)
				u->journal_lat_s = 0.075;
			if (c == N_JOURNAL_DISK && j == 2) {
				u->journal_lat_s = 0.040;
				u->disk_w_await_ms = 35;
			}
			if (c == N_ACTIVE_BACKUP && j == 1) {
				/* the bond's speed is its one active link's: 95% of it */
				u->link_bps = LINK / 2;
				u->nic_rx = 0.95;
				u->nmembers = 2;
				u->member_max_util = 0.95;
				u->member_min_util = 0.0;
				snprintf(u->member_max, sizeof(u->member_max), "eth0");
				snprintf(u->member_min, sizeof(u->member_min), "eth1");
			}
			if (c == N_CACHE)
				u->cache_hit = 0.92 - 0.235 * i;
			goodput[i][j] = x[i] / 3;
			snprintf(nm, sizeof(nm), "client-%d", j + 1);
			*k = client(nm, 0.01 * x[i] / 3, 0.30);
			k->net_tx_bps = x[i] / 3;
			k->nic_tx = k->net_tx_bps / LINK;
			k->agent_cpu = 0.2;
			k->agent_cores = 12;
			snprintf(k->kernel, sizeof(k->kernel), "5.14.0-362.el9");
		}
		p[i].nodes = nodes[i];
		p[i].nnodes = 3;
		p[i].clients = cl[i];
		p[i].nclients = 3;
		p[i].node_goodput_bps = goodput[i];
	}
	return bc_ana_json(p, 3, "iodepth");
}

static const cJSON *row(const cJSON *a, const char *name)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(a, "suspects"))
	{
		if (!strcmp(jstr(r, "suspect"), name))
			return r;
	}
	return NULL;
}

static const char *const s_rows[] = {"node disk/GC",  "node journal", "node read cache",
				     "NUMA locality", "network path", "software/kernel version"};

static void test_cases(void)
{
	static const struct {
		enum ncase c;
		const char *row, *hosts, *in_figures;
	} cases[] = {
	    {N_CLEAN, NULL, NULL, NULL},
	    {N_GC, "node disk/GC", "node-2", "GC writes 2.04 GB/s while clients write 2.00 GB/s"},
	    {N_WAF, "node disk/GC", "node-1", "write amplification 2.10: GC moves 110%"},
	    {N_JOURNAL, "node journal", "node-3",
	     "journal latency 75.0 ms while its devices' write await is 2.00 ms (x38)"},
	    {N_NUMA, "NUMA locality", "node-1",
	     "storage process duroslight on CPUs 0-31 (node 0) while bond0 is on node 1"},
	    {N_ACTIVE_BACKUP, "network path", "node-2",
	     "bond bond0 in active-backup mode carries everything on one of its 2 links, at 95%"},
	    {N_LACP_HALF, "network path", "node-3",
	     "bond bond0 (802.3ad) aggregates 1 of its 2 links"},
	    {N_SW_DRIFT, "software/kernel version", "nodes",
	     "storage software differs across nodes (node-1 lightos 3.18.2, node-2 lightos "
	     "3.17.1"},
	    {N_FW_DRIFT, "software/kernel version", "nodes",
	     "NVMe model/firmware differs across nodes"},
	    {N_CACHE, "node read cache", "all",
	     "read cache hits 45% at the highest load, 92% at the first point"},
	    {N_LINK_DOWN, "network path", "node-1", "bond bond0 has 1 of its 2 links up"},
	};
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int before = bc_test_failures;
		cJSON *a = run(cases[i].c);

		for (k = 0; k < sizeof(s_rows) / sizeof(s_rows[0]); k++) {
			const cJSON *r = row(a, s_rows[k]);
			bool want = cases[i].row && !strcmp(cases[i].row, s_rows[k]);

			CHECK_MSG(r && !strcmp(jstr(r, "state"), want ? "implicated" : "excluded"),
				  "case %zu: %s is %s: %s", i, s_rows[k],
				  r ? jstr(r, "state") : "-", r ? jstr(r, "figures") : "-");
			if (!want || !r)
				continue;
			CHECK_MSG(strstr(jstr(r, "figures"), cases[i].in_figures),
				  "case %zu: %s figures %s", i, s_rows[k], jstr(r, "figures"));
			CHECK_MSG(!strcmp(cases[i].hosts, "all") ||
				      !strcmp(jstr(r, "hosts"), cases[i].hosts),
				  "case %zu: %s hosts %s", i, s_rows[k], jstr(r, "hosts"));
			/* an implicated row is in the verdict */
			CHECK_MSG(strstr(jstr(a, "verdict"), cases[i].in_figures),
				  "case %zu: verdict %s", i, jstr(a, "verdict"));
		}
		if (getenv("BC_TEST_VERBOSE"))
			printf("case %zu: %s\n", i, jstr(a, "verdict"));
		dump_on_fail(a, before);
		cJSON_Delete(a);
	}
}

/* what the clean case says for each row it clears, so a reader sees what was checked */
static void test_clean_figures(void)
{
	cJSON *a = run(N_CLEAN);

	CHECK(strstr(jstr(row(a, "node disk/GC"), "figures"), "GC writes") != NULL);
	CHECK(strstr(jstr(row(a, "node journal"), "figures"), "devices' write await") != NULL);
	CHECK(strstr(jstr(row(a, "NUMA locality"), "figures"),
		     "storage process duroslight on CPUs 32-63 (node 1), bond0 on node 1: local"));
	CHECK(strstr(jstr(row(a, "network path"), "figures"),
		     "bond bond0 802.3ad, 2 link(s), 2 carrying traffic"));
	CHECK(strstr(jstr(row(a, "software/kernel version"), "figures"),
		     "storage software lightos 3.18.2 on every node measured (3)"));
	CHECK(strstr(jstr(row(a, "software/kernel version"), "figures"),
		     "NVMe model/firmware PM9A3 GDC5602Q x6 on every node measured (3)"));
	cJSON_Delete(a);
}

/* the cases where a figure exists but decides nothing: said, not implicated */
static void test_undecided(void)
{
	cJSON *a = run(N_NUMA_SPAN);
	const cJSON *r = row(a, "NUMA locality");

	CHECK_MSG(strstr(jstr(r, "figures"), "not judged: node node-1: storage process duroslight "
					     "may run on CPUs 0-63 (nodes 0,1)") &&
		      strstr(jstr(r, "figures"), "the scheduler places its threads"),
		  "NUMA span: %s", jstr(r, "figures"));
	cJSON_Delete(a);
	a = run(N_JOURNAL_DISK);
	r = row(a, "node journal");
	CHECK_MSG(!strcmp(jstr(r, "state"), "excluded"), "journal near its disk: %s",
		  jstr(r, "figures"));
	cJSON_Delete(a);
	a = run(N_GC_IDLE);
	r = row(a, "node disk/GC");
	CHECK_MSG(!strcmp(jstr(r, "state"), "excluded") &&
		      strstr(jstr(a, "suspects") ? jstr(r, "figures") : "", "disk queue"),
		  "GC while idle: %s", jstr(r, "figures"));
	cJSON_Delete(a);
}

/* the facts into a node's figures: a bond by its links' NUMA node, the measured hash first */
static void test_facts_use(void)
{
	struct bc_nodefacts f;
	struct bc_use u;

	facts(&f, N_CLEAN, 0);
	bc_use_init(&u, "n", false);
	snprintf(u.hash_policy, sizeof(u.hash_policy), "layer2");
	bc_use_facts(&u, &f, "bond0");
	CHECK(!strcmp(u.nic_numa, "1") && !strcmp(u.proc_numa, "1") && u.numa_nodes == 2);
	CHECK(!strcmp(u.bond_mode, "802.3ad") && u.bond_links == 2 && u.bond_active == 2);
	CHECK(!strcmp(u.hash_policy, "layer3+4") && !strcmp(u.hash_declared, "layer2"));
	CHECK(!strcmp(u.versions, "lightos 3.18.2"));
	CHECK(!strcmp(u.firmware, "PM9A3 GDC5602Q x6"));
	/* nothing read: nothing changes */
	bc_nodefacts_init(&f);
	bc_use_init(&u, "n", false);
	bc_use_facts(&u, &f, "bond0");
	CHECK(!u.nic_numa[0] && !u.bond_mode[0] && u.numa_nodes == 0);
}

int main(void)
{
	test_cases();
	test_clean_figures();
	test_undecided();
	test_facts_use();
	TEST_DONE();
}
