/*
 * agg/volnode.h - which storage node a volume's I/O lands on: the profile's
 * "node" when it names one, else the node whose "addresses" hold the
 * NVMe/TCP controller's traddr - from the sysfs "address" the agent reports
 * for the volume's device at READY (an "nvme_tcp" volume, or a block device
 * that turns out to be an NVMe/TCP namespace), before that from the
 * profile's "nvme_tcp".traddr. Decided before START, so the per-node
 * aggregation (agg/fanout.c, BC_LVL_NODE) sums the right volumes; run.json says how
 * each was decided ("node_source"). bc_agg_vol_node reads the decision on
 * the aggregation's hot path.
 */
#ifndef BC_AGG_VOLNODE_H
#define BC_AGG_VOLNODE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "agg/types.h"
#include "profile/profile.h"

struct bc_volnode {
	int node;      /* index into prof->nodes, -1: none */
	char why[320]; /* "profile", "nvme-tcp address 10.0.1.1", or why none ("" untold) */
};

/*
 * One entry per profile volume, from the profile alone: explicit nodes
 * ("profile"), "nvme_tcp" volumes by their configured traddr. Caller owns
 * the array (free); NULL on allocation failure.
 */
struct bc_volnode *bc_volnode_new(const struct bc_profile *p);

/* the node whose "addresses" list holds addr (IPv6 brackets ignored), or -1 */
int bc_volnode_match(const struct bc_profile *p, const char *addr);

/*
 * Update volume vol from its entry rv in an agent's READY "volumes": the
 * controller address of its device (the attach record "nvme_tcp".traddr,
 * else the identity "nvme" {transport "tcp", address "traddr=...,..."}).
 * A profile "node" always wins. Returns true when the entry changed.
 */
bool bc_volnode_from_ready(const struct bc_profile *p, struct bc_volnode *vn, int vol,
			   const cJSON *rv);

/* the node volume vol aggregates into: g->volnode when set, else the profile's */
static inline int bc_agg_vol_node(const struct bc_agg *g, int vol)
{
	return g->volnode ? g->volnode[vol].node : g->prof->volumes[vol].node;
}

#endif
