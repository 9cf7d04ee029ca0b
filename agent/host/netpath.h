/*
 * host/netpath.h - the client's side of the network path to each storage
 * node: the route the kernel picks for a node address (what `ip route get`
 * prints, asked over rtnetlink, RTM_GETROUTE), the MTU a packet on it can
 * carry, the interface's link speed and NUMA node, the bond it is with its
 * transmit hash policy, and where the job threads run against those NUMA
 * nodes. Control thread only (a netlink round trip and sysfs reads; never
 * on the I/O path). Reported in STEP_DONE as "net_path" (docs/protocol.md).
 */
#ifndef BC_HOST_NETPATH_H
#define BC_HOST_NETPATH_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#define BC_NETPATH_IF 16 /* IFNAMSIZ */

struct bc_route {
	char dev[BC_NETPATH_IF]; /* output interface, "" when none */
	char gateway[64];	 /* next hop, "" when the node is on a connected subnet */
	char src[64];		 /* preferred source address, "" when the kernel gave none */
	bool local;		 /* the address is this host's own (RTN_LOCAL) */
	double route_mtu;	 /* the route's own "mtu" metric, NaN when the route has none */
	double if_mtu;		 /* the interface's MTU (sysfs), NaN unknown */
	double mtu;	  /* what the path carries: the route's metric, else the interface's */
	double speed_bps; /* the interface's link speed, bytes/s, NaN unknown (virtual, down) */
	int numa_node;	  /* its device's NUMA node; a bond's members' if they agree; -1 none */
	char bond[BC_NETPATH_IF]; /* the bond the route leaves by: dev itself or its master */
	char hash_policy[32];	  /* that bond's xmit_hash_policy ("layer2"), "" unknown */
	char members[128];	  /* that bond's member links, "eth0,eth1" */
};

/*
 * The route to addr (numeric IPv4 or IPv6), with the interface facts read
 * under sysroot ("" for the host's own /sys). Returns 0, -EINVAL for an
 * address that is not numeric, -ENETUNREACH / -EHOSTUNREACH when the
 * kernel has no route, or another -errno from the netlink socket; err says
 * which in words.
 */
int bc_route_get(const char *sysroot, const char *addr, struct bc_route *r, char *err,
		 size_t errlen);

/*
 * The NUMA node of every CPU in set, as a list "0" or "0-1" (sysroot's
 * /sys/devices/system/node); *nnodes gets the host's NUMA node count (0 when
 * sysfs has no node directory).
 */
void bc_numa_nodes_of(const char *sysroot, const cpu_set_t *set, char *buf, size_t len,
		      int *nnodes);

/*
 * STEP_DONE's "net_path": {"routes": [{node, address, dev, gateway, src,
 * local, mtu, if_mtu, route_mtu, speed_mbps, numa_node, bond,
 * xmit_hash_policy, members} or {node, address, error}], "numa": {nodes,
 * job_cpus, job_numa_nodes, pinned}}. addresses is PREPARE's
 * "node_addresses" ([{node, address}], may be NULL); job_cpus the job
 * threads' CPUs (their union), pinned whether cpus_allowed placed them.
 * Caller owns the result.
 */
cJSON *bc_netpath_json(const char *sysroot, const cJSON *addresses, const cpu_set_t *job_cpus,
		       bool pinned);

#endif
