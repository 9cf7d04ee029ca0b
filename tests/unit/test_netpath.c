/* test_netpath: the client's route to a node address as the kernel answers RTM_GETROUTE -
 * loopback, a fixture sysfs for the bond/NUMA facts, and (as root) a network namespace of the
 * test's own with a veth link, a gatewayed route with an "mtu" metric and no default route */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/netpath.h"
#include "bc_test.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char p[256], d[256], *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	snprintf(d, sizeof(d), "%s", p);
	for (slash = d + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(d, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_loopback(void)
{
	struct bc_route r;
	char err[256];
	int rc;

	rc = bc_route_get("", "127.0.0.1", &r, err, sizeof(err));
	CHECK_MSG(rc == 0, "127.0.0.1: %s", err);
	CHECK_MSG(!strcmp(r.dev, "lo") && r.local, "127.0.0.1 via '%s' local %d", r.dev, r.local);
	CHECK(!r.gateway[0]);
	CHECK_MSG(r.mtu > 0 && r.mtu == r.if_mtu, "lo mtu %.0f if %.0f", r.mtu, r.if_mtu);
	CHECK(r.numa_node == -1 && !r.bond[0]);
	rc = bc_route_get("", "node-1.lab", &r, err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "'node-1.lab' is not a numeric"));
}

/* the bond and NUMA facts of the route's interface, read under a fixture root */
static void test_fixture_bond(void)
{
	struct bc_route r;
	cpu_set_t set;
	char err[256], list[32];
	int rc, n;

	put("/sys/class/net/lo/mtu", "9000\n");
	put("/sys/class/net/lo/bonding/xmit_hash_policy", "layer2 0\n");
	put("/sys/class/net/lo/bonding/slaves", "eth0 eth1\n");
	put("/sys/class/net/eth0/device/numa_node", "1\n");
	put("/sys/class/net/eth1/device/numa_node", "1\n");
	put("/sys/devices/system/node/node0/cpulist", "0-3\n");
	put("/sys/devices/system/node/node1/cpulist", "4-7\n");
	rc = bc_route_get(root, "127.0.0.1", &r, err, sizeof(err));
	CHECK_MSG(rc == 0, "%s", err);
	CHECK_MSG(!strcmp(r.bond, "lo") && !strcmp(r.hash_policy, "layer2") &&
		      !strcmp(r.members, "eth0,eth1"),
		  "bond '%s' policy '%s' members '%s'", r.bond, r.hash_policy, r.members);
	CHECK_MSG(r.numa_node == 1, "the members' NUMA node: %d", r.numa_node);
	CHECK(r.mtu == 9000);
	CPU_ZERO(&set);
	CPU_SET(5, &set);
	bc_numa_nodes_of(root, &set, list, sizeof(list), &n);
	CHECK_MSG(n == 2 && !strcmp(list, "1"), "nodes %d list '%s'", n, list);
	CPU_SET(2, &set);
	bc_numa_nodes_of(root, &set, list, sizeof(list), &n);
	CHECK_MSG(!strcmp(list, "0-1"), "list '%s'", list);
	/* members on different nodes: no single node for the path */
	put("/sys/class/net/eth1/device/numa_node", "0\n");
	bc_route_get(root, "127.0.0.1", &r, err, sizeof(err));
	CHECK(r.numa_node == -1);
}

/* STEP_DONE's net_path for two addresses, one of them not numeric */
static void test_json(void)
{
	cJSON *addr = cJSON_Parse("[{\"node\": \"n1\", \"address\": \"127.0.0.1\"},"
				  " {\"node\": \"n2\", \"address\": \"n2.lab\"}]");
	cJSON *o, *r;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(4, &set);
	o = bc_netpath_json(root, addr, &set, true);
	r = cJSON_GetObjectItem(o, "routes");
	CHECK(cJSON_GetArraySize(r) == 2);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(r, 0), "dev")),
		      "lo"));
	CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(r, 1), "error") != NULL);
	CHECK(!strcmp(cJSON_GetStringValue(
			  cJSON_GetObjectItem(cJSON_GetObjectItem(o, "numa"), "job_numa_nodes")),
		      "1"));
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "numa"), "pinned")));
	cJSON_Delete(o);
	cJSON_Delete(addr);
}

/*
 * In a network namespace of its own (and a mount namespace, so /sys shows
 * that namespace's links): a veth link at MTU 1400 on 10.77.0.1/24, a
 * route to 10.78.0.0/24 via 10.77.0.254 with "mtu 1300", nothing else.
 * Returns the failures seen in the child, or 77 when it cannot be set up.
 */
static int s_netns_child(void)
{
	struct bc_route r;
	char err[256];
	int fails = 0;

	if (unshare(CLONE_NEWNET | CLONE_NEWNS))
		return 77;
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL))
		return 77;
	if (system("ip link set lo up && ip link add bcd0 type veth peer name bcd1 && ip link set "
		   "bcd1 up && ip link set bcd0 mtu 1400 up && ip addr add 10.77.0.1/24 dev bcd0 "
		   "&& ip route add 10.78.0.0/24 via "
		   "10.77.0.254 dev bcd0 mtu 1300"))
		return 77;
	if (bc_route_get("", "10.77.0.9", &r, err, sizeof(err)) || strcmp(r.dev, "bcd0") ||
	    r.gateway[0] || r.mtu != 1400 || strcmp(r.src, "10.77.0.1") || r.local) {
		fprintf(stderr, "10.77.0.9: %s dev '%s' gw '%s' mtu %.0f src '%s'\n", err, r.dev,
			r.gateway, r.mtu, r.src);
		fails++;
	}
	if (bc_route_get("", "10.78.0.5", &r, err, sizeof(err)) || strcmp(r.dev, "bcd0") ||
	    strcmp(r.gateway, "10.77.0.254") || r.mtu != 1300 || r.if_mtu != 1400 ||
	    r.route_mtu != 1300) {
		fprintf(stderr, "10.78.0.5: %s dev '%s' gw '%s' mtu %.0f/%.0f/%.0f\n", err, r.dev,
			r.gateway, r.mtu, r.if_mtu, r.route_mtu);
		fails++;
	}
	if (bc_route_get("", "10.99.0.1", &r, err, sizeof(err)) != -ENETUNREACH ||
	    !strstr(err, "no route to 10.99.0.1")) {
		fprintf(stderr, "10.99.0.1: expected no route, got '%s' dev '%s'\n", err, r.dev);
		fails++;
	}
	return fails;
}

static void test_netns(void)
{
	pid_t pid;
	int st;

	if (geteuid()) {
		fprintf(stderr, "note: not root, the network namespace case is skipped\n");
		return;
	}
	pid = fork();
	if (!pid)
		_exit(s_netns_child());
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		fprintf(stderr,
			"note: no network namespace (unshare, sysfs or ip failed): skipped\n");
	else
		CHECK_MSG(WEXITSTATUS(st) == 0, "%d failure(s) in the namespace", WEXITSTATUS(st));
}

int main(void)
{
	char cmd[96];
	int rc;

	snprintf(root, sizeof(root), "/tmp/bc-netpath.XXXXXX");
	if (!mkdtemp(root))
		SKIP("cannot make a fixture directory");
	test_loopback();
	test_fixture_bond();
	test_json();
	test_netns();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	rc = system(cmd);
	(void)rc;
	TEST_DONE();
}
