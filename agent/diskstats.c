/*
 * diskstats.c - parse one device's line of /proc/diskstats.
 * Sector fields count 512-byte units whatever the device's block size
 * (iostats.rst: "sectors" are always 512 bytes).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "bc_diskstats.h"

int bc_diskstats_read(dev_t rdev, struct bc_diskstat *out)
{
	FILE *f = fopen("/proc/diskstats", "r");
	char line[512];
	int rc = -ENOENT;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned maj, mnr;
		uint64_t v[15] = {0};
		int n;

		n = sscanf(line,
			   " %u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64,
			   &maj, &mnr, out->name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13]);
		if (n < 13 || maj != major(rdev) || mnr != minor(rdev))
			continue;
		out->rd_ios = v[0];
		out->rd_bytes = v[2] * 512;
		out->wr_ios = v[4];
		out->wr_bytes = v[6] * 512;
		if (n >= 17) { /* discard fields: Linux 4.18+ */
			out->discard_ios = v[11];
			out->discard_bytes = v[13] * 512;
		}
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}
