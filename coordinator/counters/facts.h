/*
 * counters/facts.h - what a storage node is, beside what it does: the facts
 * node_exporter lacks, read from the same /metrics page. They come from the
 * node-facts textfile collector (deploy/node-facts/bench-node-facts.sh):
 *   bench_node_numa_nodes                                   NUMA nodes on the host
 *   bench_node_nic_numa_node{device}                        a NIC's NUMA node (-1 none)
 *   bench_node_bond_info{bond,mode,xmit_hash_policy,members} 1
 *   bench_node_bond_active_members{bond}                    links carrying traffic
 *   bench_node_process_info{process,cpus,numa_nodes}        1: where a storage process may run
 *   bench_node_software_info{name,version}                  1
 *   bench_node_nvme_info{device,model,firmware}             1
 * and from node_exporter's own collectors (nvme: node_nvme_info{device,model,
 * firmware_revision}; bonding: node_bonding_slaves{master}, and node_bonding_active{master},
 * the links up, when the collector gives no aggregator count), and from a profile series with
 * "role": "version" (a vendor exporter's build-info metric, its version label). Facts are the
 * latest scrape's; the analysis judges NUMA placement, versions, firmware and the bond's mode from
 * them (analysis/suspects.c).
 */
#ifndef BC_COUNTERS_FACTS_H
#define BC_COUNTERS_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "counters/promtext.h"

#define BC_FACT_NAME  32
#define BC_FACT_TEXT  64
#define BC_FACT_NICS  16
#define BC_FACT_BONDS 4
#define BC_FACT_PROCS 4
#define BC_FACT_SW    8
#define BC_FACT_NVME  32

struct bc_fact_nic {
	char dev[BC_FACT_NAME];
	int numa; /* -1: the kernel reports none */
};

struct bc_fact_bond {
	char bond[BC_FACT_NAME];
	char mode[BC_FACT_NAME];    /* Linux bonding's names: 802.3ad, active-backup... */
	char hash[BC_FACT_NAME];    /* xmit_hash_policy */
	char members[BC_FACT_TEXT]; /* "eth0,eth1" */
	int nmembers, active;	    /* links; of them carrying traffic, -1 unknown */
	bool active_set;	    /* active from the collector, not node_bonding_active */
};

struct bc_fact_proc {
	char name[BC_FACT_NAME];
	char cpus[BC_FACT_TEXT];       /* its allowed CPUs, "0-31" */
	char numa_nodes[BC_FACT_NAME]; /* their NUMA nodes, "0" */
};

struct bc_fact_sw {
	char name[BC_FACT_NAME];
	char version[BC_FACT_TEXT];
};

struct bc_fact_nvme {
	char dev[BC_FACT_NAME];
	char model[BC_FACT_TEXT];
	char firmware[BC_FACT_NAME];
};

struct bc_nodefacts {
	bool any;	/* some fact was read */
	int numa_nodes; /* 0 unknown */
	int nnics, nbonds, nprocs, nsw, nnvme;
	struct bc_fact_nic nics[BC_FACT_NICS];
	struct bc_fact_bond bonds[BC_FACT_BONDS];
	struct bc_fact_proc procs[BC_FACT_PROCS];
	struct bc_fact_sw sw[BC_FACT_SW];
	struct bc_fact_nvme nvme[BC_FACT_NVME];
};

void bc_nodefacts_init(struct bc_nodefacts *f);

/* the metric is a fact's (name not NUL-terminated, len bytes) */
bool bc_nodefacts_wants(const char *name, size_t len);

/* one sample of a fact metric into f; others are ignored */
void bc_nodefacts_sample(struct bc_nodefacts *f, const struct bc_prom_sample *s);

/* a software version from a "role": "version" series: name, its label's value */
void bc_nodefacts_software(struct bc_nodefacts *f, const char *name, const char *version);

/* the bond called name, else the only one; NULL none */
const struct bc_fact_bond *bc_nodefacts_bond(const struct bc_nodefacts *f, const char *name);

/* the facts as run.json's steps[].nodes[].counters.facts; NULL when none */
cJSON *bc_nodefacts_json(const struct bc_nodefacts *f);

#endif
