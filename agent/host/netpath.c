/*
 * host/netpath.c - the route to each storage-node address and the facts of its
 * interface (see host/netpath.h). The route comes from the kernel itself
 * (RTM_GETROUTE, as iproute2's `ip route get` asks it), so policy routing,
 * a more specific route or a route "mtu" metric are what the kernel would
 * really use; /proc/net/route would miss all three and IPv6.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <math.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/affinity.h"
#include "host/netpath.h"

/* a number from sysroot/sys/class/net/<dev>/<file>, NaN when absent */
static double s_net_num(const char *root, const char *dev, const char *file)
{
	char p[PATH_MAX];
	double v = NAN;
	FILE *f;

	snprintf(p, sizeof(p), "%s/sys/class/net/%s/%s", root, dev, file);
	f = fopen(p, "re");
	if (!f)
		return NAN;
	if (fscanf(f, "%lf", &v) != 1)
		v = NAN;
	fclose(f);
	return v;
}

/* the first line of a sysfs file, "" when absent */
static void s_net_line(const char *root, const char *dev, const char *file, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	snprintf(p, sizeof(p), "%s/sys/class/net/%s/%s", root, dev, file);
	f = fopen(p, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* the last component of the symlink at sysroot/sys/class/net/<dev>/master, "" none */
static void s_master(const char *root, const char *dev, char *out, size_t len)
{
	char p[PATH_MAX], t[PATH_MAX];
	const char *base;
	ssize_t n;

	out[0] = '\0';
	snprintf(p, sizeof(p), "%s/sys/class/net/%s/master", root, dev);
	n = readlink(p, t, sizeof(t) - 1);
	if (n <= 0)
		return;
	t[n] = '\0';
	base = strrchr(t, '/');
	snprintf(out, len, "%s", base ? base + 1 : t);
}

/* the interface's device's NUMA node, -1 when it has none (virtual, single node) */
static int s_dev_numa(const char *root, const char *dev)
{
	double v = s_net_num(root, dev, "device/numa_node");

	return isnan(v) || v < 0 ? -1 : (int)v;
}

/*
 * The bond behind dev (dev itself, or its master), its hash policy and
 * members, and the NUMA node of the path: the device's own, or for a bond
 * its members' when they agree (-1 when they do not or none says).
 */
static void s_if_facts(const char *root, struct bc_route *r)
{
	char slaves[256], p[PATH_MAX], *tok, *save = NULL;
	int node = -2;

	r->if_mtu = s_net_num(root, r->dev, "mtu");
	r->speed_bps = s_net_num(root, r->dev, "speed");
	r->speed_bps = r->speed_bps > 0 ? r->speed_bps * 1e6 / 8 : NAN;
	r->numa_node = s_dev_numa(root, r->dev);
	snprintf(p, sizeof(p), "%s/sys/class/net/%s/bonding", root, r->dev);
	if (!access(p, F_OK))
		snprintf(r->bond, sizeof(r->bond), "%s", r->dev);
	else
		s_master(root, r->dev, r->bond, sizeof(r->bond));
	if (!r->bond[0])
		return;
	s_net_line(root, r->bond, "bonding/slaves", slaves, sizeof(slaves));
	/* "layer2 0": the policy's name and its number */
	s_net_line(root, r->bond, "bonding/xmit_hash_policy", r->hash_policy,
		   sizeof(r->hash_policy));
	r->hash_policy[strcspn(r->hash_policy, " ")] = '\0';
	for (tok = strtok_r(slaves, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int m = s_dev_numa(root, tok);

		snprintf(r->members + strlen(r->members), sizeof(r->members) - strlen(r->members),
			 "%s%s", r->members[0] ? "," : "", tok);
		node = node == -2 ? m : (node == m ? node : -1);
	}
	if (r->numa_node < 0 && node >= 0)
		r->numa_node = node;
}

/* append one attribute to a netlink request of cap bytes */
static int s_attr(struct nlmsghdr *n, size_t cap, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	if (NLMSG_ALIGN(n->nlmsg_len) + RTA_SPACE(len) > cap)
		return -ENOSPC;
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	n->nlmsg_len = (uint32_t)(NLMSG_ALIGN(n->nlmsg_len) + RTA_SPACE(len));
	return 0;
}

static void s_parse_route(const struct nlmsghdr *h, int family, struct bc_route *r)
{
	const struct rtmsg *rt = NLMSG_DATA(h);
	const struct rtattr *a = RTM_RTA(rt);
	int len = (int)RTM_PAYLOAD(h);

	r->local = rt->rtm_type == RTN_LOCAL;
	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		switch (a->rta_type) {
		case RTA_OIF: {
			int ifi;

			memcpy(&ifi, RTA_DATA(a), sizeof(ifi));
			if (!if_indextoname((unsigned)ifi, r->dev))
				r->dev[0] = '\0';
			break;
		}
		case RTA_GATEWAY:
			inet_ntop(family, RTA_DATA(a), r->gateway, sizeof(r->gateway));
			break;
		case RTA_PREFSRC:
			inet_ntop(family, RTA_DATA(a), r->src, sizeof(r->src));
			break;
		case RTA_METRICS: {
			const struct rtattr *m = RTA_DATA(a);
			int mlen = (int)RTA_PAYLOAD(a);

			for (; RTA_OK(m, mlen); m = RTA_NEXT(m, mlen))
				if (m->rta_type == RTAX_MTU) {
					uint32_t v;

					memcpy(&v, RTA_DATA(m), sizeof(v));
					r->route_mtu = v;
				}
			break;
		}
		default:
			break;
		}
	}
}

int bc_route_get(const char *sysroot, const char *addr, struct bc_route *r, char *err,
		 size_t errlen)
{
	struct {
		struct nlmsghdr n;
		struct rtmsg r;
		char buf[64];
	} req;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	unsigned char dst[16];
	char *reply = NULL;
	const size_t cap = 16384;
	int fd = -1, family, ret = 0;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	r->route_mtu = r->if_mtu = r->mtu = r->speed_bps = NAN;
	r->numa_node = -1;
	if (inet_pton(AF_INET, addr, dst) == 1)
		family = AF_INET;
	else if (inet_pton(AF_INET6, addr, dst) == 1)
		family = AF_INET6;
	else {
		snprintf(err, errlen, "'%s' is not a numeric IPv4 or IPv6 address", addr);
		return -EINVAL;
	}
	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.n.nlmsg_type = RTM_GETROUTE;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = 1;
	req.r.rtm_family = (unsigned char)family;
	req.r.rtm_dst_len = family == AF_INET ? 32 : 128;
	s_attr(&req.n, sizeof(req), RTA_DST, dst, family == AF_INET ? 4 : 16);
	reply = malloc(cap);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (!reply || fd < 0) {
		ret = reply ? -errno : -ENOMEM;
		snprintf(err, errlen, "route to %s: netlink socket: %s", addr, strerror(-ret));
		goto out;
	}
	if (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "route to %s: RTM_GETROUTE: %s", addr, strerror(-ret));
		goto out;
	}
	n = recv(fd, reply, cap, 0);
	if (n < 0) {
		ret = -errno;
		snprintf(err, errlen, "route to %s: netlink reply: %s", addr, strerror(-ret));
		goto out;
	}
	ret = -ENOENT;
	for (struct nlmsghdr *h = (struct nlmsghdr *)reply; NLMSG_OK(h, (unsigned)n);
	     h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			ret = e->error ? e->error : -ENOENT;
			snprintf(err, errlen, "no route to %s: %s", addr, strerror(-ret));
			goto out;
		}
		if (h->nlmsg_type == RTM_NEWROUTE) {
			s_parse_route(h, family, r);
			ret = 0;
			break;
		}
	}
	if (ret) {
		snprintf(err, errlen, "route to %s: no RTM_NEWROUTE in the kernel's reply", addr);
		goto out;
	}
	if (r->dev[0])
		s_if_facts(sysroot ? sysroot : "", r);
	r->mtu = !isnan(r->route_mtu) && r->route_mtu > 0 ? r->route_mtu : r->if_mtu;
out:
	if (fd >= 0)
		close(fd);
	free(reply);
	return ret;
}

void bc_numa_nodes_of(const char *sysroot, const cpu_set_t *set, char *buf, size_t len, int *nnodes)
{
	cpu_set_t nodes, cpus;
	char p[PATH_MAX], line[4096];
	int node, misses = 0;

	CPU_ZERO(&nodes);
	*nnodes = 0;
	buf[0] = '\0';
	/* node numbers may have holes (offline nodes); stop after a run of missing ones */
	for (node = 0; node < CPU_SETSIZE && misses < 64; node++) {
		FILE *f;

		snprintf(p, sizeof(p), "%s/sys/devices/system/node/node%d/cpulist",
			 sysroot ? sysroot : "", node);
		f = fopen(p, "re");
		if (!f) {
			misses++;
			continue;
		}
		misses = 0;
		(*nnodes)++;
		if (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			CPU_ZERO(&cpus);
			if (line[0] && !bc_cpus_parse(line, &cpus)) {
				CPU_AND(&cpus, &cpus, set);
				if (CPU_COUNT(&cpus))
					CPU_SET(node, &nodes);
			}
		}
		fclose(f);
	}
	bc_cpus_format(&nodes, buf, len);
}

cJSON *bc_netpath_json(const char *sysroot, const cJSON *addresses, const cpu_set_t *job_cpus,
		       bool pinned)
{
	cJSON *o = cJSON_CreateObject(), *routes, *numa;
	const cJSON *a;
	char list[512];
	int nnodes;

	if (!o)
		return NULL;
	routes = cJSON_AddArrayToObject(o, "routes");
	cJSON_ArrayForEach(a, addresses)
	{
		const char *addr =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "address"));
		const char *node =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "node"));
		cJSON *e = cJSON_CreateObject();
		struct bc_route r;
		char err[256];

		if (!addr || !e) {
			cJSON_Delete(e);
			continue;
		}
		if (node)
			cJSON_AddStringToObject(e, "node", node);
		cJSON_AddStringToObject(e, "address", addr);
		cJSON_AddItemToArray(routes, e);
		if (bc_route_get(sysroot, addr, &r, err, sizeof(err))) {
			cJSON_AddStringToObject(e, "error", err);
			continue;
		}
		cJSON_AddStringToObject(e, "dev", r.dev);
		if (r.gateway[0])
			cJSON_AddStringToObject(e, "gateway", r.gateway);
		if (r.src[0])
			cJSON_AddStringToObject(e, "src", r.src);
		cJSON_AddBoolToObject(e, "local", r.local);
		if (!isnan(r.mtu))
			cJSON_AddNumberToObject(e, "mtu", r.mtu);
		if (!isnan(r.if_mtu))
			cJSON_AddNumberToObject(e, "if_mtu", r.if_mtu);
		if (!isnan(r.route_mtu))
			cJSON_AddNumberToObject(e, "route_mtu", r.route_mtu);
		if (!isnan(r.speed_bps))
			cJSON_AddNumberToObject(e, "speed_mbps", r.speed_bps / 1e6);
		cJSON_AddNumberToObject(e, "numa_node", r.numa_node);
		if (r.bond[0]) {
			cJSON_AddStringToObject(e, "bond", r.bond);
			if (r.hash_policy[0])
				cJSON_AddStringToObject(e, "xmit_hash_policy", r.hash_policy);
			cJSON_AddStringToObject(e, "members", r.members);
		}
	}
	numa = cJSON_AddObjectToObject(o, "numa");
	bc_numa_nodes_of(sysroot, job_cpus, list, sizeof(list), &nnodes);
	cJSON_AddNumberToObject(numa, "nodes", nnodes);
	cJSON_AddStringToObject(numa, "job_numa_nodes", list);
	bc_cpus_format(job_cpus, list, sizeof(list));
	cJSON_AddStringToObject(numa, "job_cpus", list);
	cJSON_AddBoolToObject(numa, "pinned", pinned);
	return o;
}
