/* test_affinity.c - cpus_allowed "numa:LIST" (fio's numa_cpu_nodes): the CPUs of those nodes as
 * this host's sysfs lists them, and a node without CPUs refused naming it */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/affinity.h"
#include "bc_test.h"

int main(void)
{
	char desc[256], err[256], line[1024] = "";
	cpu_set_t set, node0, avail;
	bool pinned = false;
	FILE *f = fopen("/sys/devices/system/node/node0/cpulist", "r");
	int rc;

	if (!f || !fgets(line, sizeof(line), f)) {
		printf("skip: no /sys/devices/system/node/node0/cpulist (a kernel without NUMA)\n");
		if (f)
			fclose(f);
		return 77;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	CHECK(bc_cpus_parse(line, &node0) == 0);
	CHECK(sched_getaffinity(0, sizeof(avail), &avail) == 0);
	CPU_AND(&node0, &node0, &avail);
	rc = bc_affinity_job("numa:0", false, NULL, 0, 0, &set, &pinned, desc, sizeof(desc), err,
			     sizeof(err));
	CHECK(rc == 0 && pinned && CPU_EQUAL(&set, &node0) && strstr(desc, "numa node 0"));
	/* split: job 1 on the node's second CPU (modulo its count) */
	rc = bc_affinity_job("numa:0", true, NULL, 0, 1, &set, &pinned, desc, sizeof(desc), err,
			     sizeof(err));
	CHECK(rc == 0 && CPU_COUNT(&set) == 1);
	/* a node this host lacks: refused, naming it and the file read */
	if (access("/sys/devices/system/node/node1000", F_OK)) {
		rc = bc_affinity_job("numa:0,1000", false, NULL, 0, 0, &set, &pinned, desc,
				     sizeof(desc), err, sizeof(err));
		CHECK(rc == -EINVAL && strstr(err, "NUMA node 1000 has no CPUs"));
	}
	TEST_DONE();
}
