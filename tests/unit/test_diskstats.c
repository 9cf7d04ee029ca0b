/* test_diskstats: /proc/diskstats lines parsed (sectors are 512 bytes), and an NVMe multipath
 * head (nvme1n1) read as the sum of its paths (nvme1c1n1, nvme1c2n1), where Linux before 6.2
 * counts its I/O - the lines are those a 6.1 guest printed with an NVMe/TCP namespace */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "host/diskstats.h"
#include "bc_test.h"

int main(void)
{
	char path[] = "/tmp/test_diskstats.XXXXXX";
	struct bc_diskstat d;
	int fd = mkstemp(path);
	FILE *f;

	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	CHECK(f != NULL);
	fputs(" 259       0 nvme0n1 1 0 8 11 0 0 0 0 0 12 11 0 0 0 0 0 0\n"
	      " 259       1 nvme0n2 2 0 16 1 100 0 800 35 0 40 36 3 0 24 1 0 0\n"
	      " 259       2 nvme1c1n1 1 0 8 3 100 0 800 86 0 100 90 0 0 0 0 0 0\n"
	      " 259       3 nvme1n1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	      " 259       4 nvme1c2n1 5 0 40 3 7 0 56 86 0 100 90 0 0 0 0 0 0\n"
	      " 259       5 nvme1c1n2 9 0 72 3 9 0 72 86 0 100 90 0 0 0 0 0 0\n"
	      " 259       6 nvme2n1 4 0 32 1 0 0 0 0 0 1 1\n",
	      f);
	fclose(f);

	/* a plain namespace: its own line, discard fields included */
	CHECK(bc_diskstats_read_file(path, makedev(259, 1), &d) == 0);
	CHECK(d.rd_ios == 2 && d.rd_bytes == 16 * 512 && d.wr_ios == 100 &&
	      d.wr_bytes == 800 * 512 && d.discard_ios == 3 && d.discard_bytes == 24 * 512);
	/* the head: the sum of nvme1c1n1 and nvme1c2n1, not nvme1c1n2 (another namespace) */
	CHECK(bc_diskstats_read_file(path, makedev(259, 3), &d) == 0);
	CHECK_MSG(d.wr_ios == 107 && d.wr_bytes == 856 * 512 && d.rd_ios == 6 &&
		      d.rd_bytes == 48 * 512,
		  "head: rd %llu/%llu wr %llu/%llu", (unsigned long long)d.rd_ios,
		  (unsigned long long)d.rd_bytes, (unsigned long long)d.wr_ios,
		  (unsigned long long)d.wr_bytes);
	CHECK(!strcmp(d.name, "nvme1n1"));
	/* a path on its own is itself */
	CHECK(bc_diskstats_read_file(path, makedev(259, 2), &d) == 0 && d.wr_ios == 100);
	/* a head without listed paths keeps its own line (old kernels without discard fields) */
	CHECK(bc_diskstats_read_file(path, makedev(259, 6), &d) == 0 && d.rd_ios == 4 &&
	      d.discard_ios == 0);
	CHECK(bc_diskstats_read_file(path, makedev(259, 9), &d) == -ENOENT);
	unlink(path);
	TEST_DONE();
}
