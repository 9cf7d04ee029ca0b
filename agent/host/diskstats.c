/*
 * host/diskstats.c - parse one device's line of /proc/diskstats.
 * Sector fields count 512-byte units whatever the device's block size
 * (iostats.rst: "sectors" are always 512 bytes).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "host/diskstats.h"

/* one line into *d; its major:minor into maj/mnr. 0, or -EINVAL for a short line */
static int s_parse(const char *line, unsigned *maj, unsigned *mnr, struct bc_diskstat *d)
{
	uint64_t v[15] = {0};
	int n;

	memset(d, 0, sizeof(*d));
	n = sscanf(line,
		   " %u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   maj, mnr, d->name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
		   &v[9], &v[10], &v[11], &v[12], &v[13]);
	if (n < 13)
		return -EINVAL;
	d->rd_ios = v[0];
	d->rd_bytes = v[2] * 512;
	d->wr_ios = v[4];
	d->wr_bytes = v[6] * 512;
	if (n >= 17) { /* discard fields: Linux 4.18+ */
		d->discard_ios = v[11];
		d->discard_bytes = v[13] * 512;
	}
	return 0;
}

/* "nvme<S>c<C>n<N>" is a path of the native multipath head "nvme<S>n<N>" */
static bool s_mpath_of(const char *path, unsigned s, unsigned nsi)
{
	unsigned ps, pc, pn;
	int end = -1;

	return sscanf(path, "nvme%uc%un%u%n", &ps, &pc, &pn, &end) == 3 && end > 0 && !path[end] &&
	       ps == s && pn == nsi;
}

int bc_diskstats_read_file(const char *file, dev_t rdev, struct bc_diskstat *out)
{
	FILE *f = fopen(file, "re");
	struct bc_diskstat d, sum;
	char line[512];
	unsigned maj, mnr, s, nsi;
	int rc = -ENOENT, paths = 0, end = -1;

	memset(out, 0, sizeof(*out));
	memset(&sum, 0, sizeof(sum));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (s_parse(line, &maj, &mnr, &d) || maj != major(rdev) || mnr != minor(rdev))
			continue;
		*out = d;
		rc = 0;
		break;
	}
	/*
	 * A native NVMe multipath head (nvme<S>n<N>: NVMe/TCP, multi-controller
	 * subsystems) is bio-based: before Linux 6.2 (d4d957b53d91, "support io
	 * stats on the mpath device") it counts nothing and its I/O shows on the
	 * request-based path devices nvme<S>c<C>n<N> only, which count on every
	 * kernel. So a head is the sum of its paths, when the kernel lists any.
	 */
	if (!rc && sscanf(out->name, "nvme%un%u%n", &s, &nsi, &end) == 2 && end > 0 &&
	    !out->name[end]) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			if (s_parse(line, &maj, &mnr, &d) || !s_mpath_of(d.name, s, nsi))
				continue;
			sum.rd_ios += d.rd_ios;
			sum.rd_bytes += d.rd_bytes;
			sum.wr_ios += d.wr_ios;
			sum.wr_bytes += d.wr_bytes;
			sum.discard_ios += d.discard_ios;
			sum.discard_bytes += d.discard_bytes;
			paths++;
		}
		if (paths) {
			memcpy(sum.name, out->name, sizeof(sum.name));
			*out = sum;
		}
	}
	fclose(f);
	return rc;
}

int bc_diskstats_read(dev_t rdev, struct bc_diskstat *out)
{
	return bc_diskstats_read_file("/proc/diskstats", rdev, out);
}
