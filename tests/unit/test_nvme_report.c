/*
 * test_nvme_report.c - the NVMe identity an agent puts in READY shows up in
 * summary.md's and report.html's device sections (one table model feeds
 * both): the synthetic report fixture with an "nvme" object added to its
 * first READY volume, copied to a temporary directory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/rundata.h"
#include "report/report.h"
#include "report/writers.h"
#include "bc_test.h"

#define FIXTURE BC_SRC_DIR "/tests/data/report/synthetic"

int main(void)
{
	char dir[] = "/tmp/bc-nvme-report-XXXXXX", cmd[1024], err[512] = "";
	struct bc_report r;
	char *md = NULL;
	size_t mdlen = 0;
	FILE *f;

	if (!mkdtemp(dir))
		SKIP("mkdtemp: %s", strerror(errno));
	/* the same fixture, its first READY volume given an NVMe identity */
	snprintf(cmd, sizeof(cmd),
		 "cp %s/* %s/ && sed -i '0,/\"pbs\":4096}/s//\"pbs\":4096,\"nvme\":{\"model\":"
		 "\"QEMU NVMe Ctrl\",\"serial\":\"deadbeef\",\"firmware\":\"8.2.0\",\"lba_kind\":"
		 "\"4Kn\",\"metadata_bytes\":0,\"transport\":\"pcie\",\"address\":"
		 "\"0000:00:04.0\",\"numa_node\":0}}/' %s/events.jsonl",
		 FIXTURE, dir, dir);
	CHECK(system(cmd) == 0);
	CHECK_MSG(bc_report_load(&r, dir, err, sizeof(err)) == 0, "%s", err);
	f = open_memstream(&md, &mdlen);
	CHECK(f && bc_report_md(&r, f) == 0);
	if (f)
		fclose(f);
	CHECK(md && strstr(md, "| model | serial | firmware | LBA format |"));
	CHECK_MSG(md &&
		      strstr(md, "| client-a | /dev/nvme0n1 | QEMU NVMe Ctrl | deadbeef | 8.2.0 | "
				 "4Kn | 0 | pcie | 0000:00:04.0 | 0 |"),
		  "%s", md ? md : "(none)");
	free(md);
	md = NULL;
	f = open_memstream(&md, &mdlen);
	CHECK(f && bc_report_html(&r, f) == 0);
	if (f)
		fclose(f);
	CHECK_MSG(
	    md && strstr(md, "<h3>NVMe identity</h3>") &&
		strstr(md, "<td class=\"l\">QEMU NVMe Ctrl</td><td class=\"l\">deadbeef</td>"),
	    "%s", md ? md : "(none)");
	free(md);
	bc_report_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	TEST_DONE();
}
