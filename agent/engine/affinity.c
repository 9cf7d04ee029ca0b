/*
 * engine/affinity.c - job CPU sets from "cpus_allowed" and the sysfs facts behind a
 * volume (NUMA node, poll queues). See engine/affinity.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/affinity.h"

/* a file's first line, without the newline */
static int s_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

int bc_sysfs_disk_dir(const char *path, char *out, size_t len)
{
	char link[64], real[PATH_MAX], part[PATH_MAX + 16];
	struct stat st;
	dev_t dev;
	char *slash;

	if (stat(path, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		dev = st.st_rdev;
	else if (S_ISREG(st.st_mode))
		dev = st.st_dev;
	else
		return -ENODEV;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	/* tmpfs, overlay and other device-less filesystems have no entry here */
	if (!realpath(link, real))
		return -ENODEV;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (!access(part, F_OK)) {
		slash = strrchr(real, '/');
		if (slash)
			*slash = '\0';
	}
	if (strlen(real) >= len)
		return -ENAMETOOLONG;
	memcpy(out, real, strlen(real) + 1);
	return 0;
}

int bc_sysfs_numa_node(const char *path, int *node)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], line[32];
	char *slash;
	int ret;

	ret = bc_sysfs_disk_dir(path, dir, sizeof(dir));
	if (ret)
		return ret;
	/* the disk's bus device (PCI function) holds numa_node: walk up to it */
	for (;;) {
		snprintf(file, sizeof(file), "%s/numa_node", dir);
		if (!s_read_line(file, line, sizeof(line))) {
			*node = atoi(line);
			return 0;
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir || !strcmp(dir, "/sys/devices"))
			break;
		*slash = '\0';
	}
	*node = -1;
	return 0;
}

int bc_sysfs_io_poll(const char *path)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], line[16];
	int ret;

	ret = bc_sysfs_disk_dir(path, dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(file, sizeof(file), "%s/queue/io_poll", dir);
	ret = s_read_line(file, line, sizeof(line));
	return ret ? ret : atoi(line) == 1;
}

int bc_sysfs_discards(const char *path)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], line[32];
	int ret;

	ret = bc_sysfs_disk_dir(path, dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(file, sizeof(file), "%s/queue/discard_max_bytes", dir);
	ret = s_read_line(file, line, sizeof(line));
	return ret ? ret : strtoull(line, NULL, 10) > 0;
}

int64_t bc_sysfs_max_io(const char *path)
{
	char dir[PATH_MAX], file[PATH_MAX + 40], line[32];
	const char *base = strrchr(path, '/');
	unsigned c, n;
	int ret;

	base = base ? base + 1 : path;
	/* /dev/ngXnY is the generic device of the namespace nvmeXnY */
	if (sscanf(base, "ng%un%u", &c, &n) == 2) {
		snprintf(file, sizeof(file), "/sys/block/nvme%un%u/queue/max_hw_sectors_kb", c, n);
	} else {
		ret = bc_sysfs_disk_dir(path, dir, sizeof(dir));
		if (ret)
			return ret;
		snprintf(file, sizeof(file), "%s/queue/max_hw_sectors_kb", dir);
	}
	ret = s_read_line(file, line, sizeof(line));
	return ret ? ret : (int64_t)strtoull(line, NULL, 10) * 1024;
}

int bc_cpus_parse(const char *list, cpu_set_t *set)
{
	const char *p = list;
	char *end;
	long lo, hi, c;

	CPU_ZERO(set);
	while (*p) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtol(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtol(p, &end, 10);
		}
		if (lo < 0 || hi < lo || hi >= CPU_SETSIZE || (*end && *end != ','))
			return -EINVAL;
		for (c = lo; c <= hi; c++)
			CPU_SET((int)c, set);
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -EINVAL;
	}
	return 0;
}

void bc_cpus_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int c, lo;

	buf[0] = '\0';
	for (c = 0; c < CPU_SETSIZE && used < len; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		lo = c;
		while (c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, set))
			c++;
		used += (size_t)snprintf(buf + used, len - used, lo == c ? "%s%d" : "%s%d-%d",
					 used ? "," : "", lo, c);
	}
}

/* union of the CPUs of the volumes' NUMA nodes; 0 and an empty set when none has one */
static int s_numa_cpus(const struct bc_target *t, int nt, cpu_set_t *set, char *nodes, size_t nlen)
{
	char file[96], line[1024];
	cpu_set_t one;
	int i, node, seen[64] = {0};
	size_t used = 0;

	CPU_ZERO(set);
	nodes[0] = '\0';
	for (i = 0; i < nt; i++) {
		if ((t[i].ops && (t[i].ops->caps & BC_TCAP_DISKLESS)) ||
		    bc_sysfs_numa_node(t[i].path, &node) || node < 0 || node >= 64 || seen[node]++)
			continue;
		snprintf(file, sizeof(file), "/sys/devices/system/node/node%d/cpulist", node);
		if (s_read_line(file, line, sizeof(line)) || bc_cpus_parse(line, &one))
			continue;
		CPU_OR(set, set, &one);
		used += (size_t)snprintf(nodes + used, used < nlen ? nlen - used : 0, "%s%d",
					 used ? "," : "", node);
	}
	return 0;
}

/* "numa:LIST": the union of those nodes' CPUs (fio's numa_cpu_nodes); a node without any refused */
static int s_node_cpus(const char *nodes, cpu_set_t *set, char *err, size_t errlen)
{
	char file[96], line[1024];
	cpu_set_t want, one;
	int node;

	CPU_ZERO(set);
	if (bc_cpus_parse(nodes, &want)) {
		snprintf(err, errlen, "cpus_allowed: bad NUMA node list \"%s\"", nodes);
		return -EINVAL;
	}
	for (node = 0; node < CPU_SETSIZE; node++) {
		if (!CPU_ISSET(node, &want))
			continue;
		snprintf(file, sizeof(file), "/sys/devices/system/node/node%d/cpulist", node);
		if (s_read_line(file, line, sizeof(line)) || bc_cpus_parse(line, &one) ||
		    !CPU_COUNT(&one)) {
			snprintf(
			    err, errlen,
			    "cpus_allowed \"numa:%s\": NUMA node %d has no CPUs on this host (%s)",
			    nodes, node, file);
			return -EINVAL;
		}
		CPU_OR(set, set, &one);
	}
	return 0;
}

int bc_affinity_job(const char *cpus_allowed, bool split, const struct bc_target *targets,
		    int ntargets, unsigned job, cpu_set_t *set, bool *pinned, char *desc,
		    size_t desclen, char *err, size_t errlen)
{
	char list[256], avail_txt[256], nodes[64];
	cpu_set_t avail, miss;
	int c, n, pick;

	*pinned = false;
	snprintf(desc, desclen, "any");
	if (!cpus_allowed[0])
		return 0;
	if (sched_getaffinity(0, sizeof(avail), &avail)) {
		snprintf(err, errlen, "cpus_allowed: cannot read the agent's CPU set: %s",
			 strerror(errno));
		return -errno;
	}
	bc_cpus_format(&avail, avail_txt, sizeof(avail_txt));
	if (!strncmp(cpus_allowed, "numa:", 5)) {
		int ret = s_node_cpus(cpus_allowed + 5, set, err, errlen);

		if (ret)
			return ret;
		CPU_AND(set, set, &avail);
		if (!CPU_COUNT(set)) {
			snprintf(err, errlen,
				 "cpus_allowed \"%s\": none of the nodes' CPUs is available to the "
				 "agent (it may use %s)",
				 cpus_allowed, avail_txt);
			return -EINVAL;
		}
		bc_cpus_format(set, list, sizeof(list));
		snprintf(desc, desclen, "%s (numa node %s)", list, cpus_allowed + 5);
	} else if (!strcmp(cpus_allowed, "numa")) {
		s_numa_cpus(targets, ntargets, set, nodes, sizeof(nodes));
		CPU_AND(set, set, &avail);
		if (!CPU_COUNT(set)) {
			snprintf(desc, desclen, "any (numa: no volume has a NUMA node)");
			return 0;
		}
		bc_cpus_format(set, list, sizeof(list));
		snprintf(desc, desclen, "%s (numa node %s)", list, nodes);
	} else {
		if (bc_cpus_parse(cpus_allowed, set)) {
			snprintf(err, errlen, "cpus_allowed: bad CPU list \"%s\"", cpus_allowed);
			return -EINVAL;
		}
		CPU_XOR(&miss, set, &avail);
		CPU_AND(&miss, &miss, set);
		if (CPU_COUNT(&miss)) {
			bc_cpus_format(&miss, list, sizeof(list));
			snprintf(err, errlen,
				 "cpus_allowed \"%s\": CPU %s not available to the agent (it may "
				 "use %s)",
				 cpus_allowed, list, avail_txt);
			return -EINVAL;
		}
		bc_cpus_format(set, desc, desclen);
	}
	if (split) {
		n = CPU_COUNT(set);
		pick = (int)(job % (unsigned)n);
		for (c = 0; c < CPU_SETSIZE; c++) {
			if (CPU_ISSET(c, set) && !pick--)
				break;
		}
		CPU_ZERO(set);
		CPU_SET(c, set);
		snprintf(desc, desclen, "%d", c);
	}
	*pinned = true;
	return 0;
}
