/*
 * test_outfail.c - a run directory's writers say the kernel's errno, not a
 * generic one: records.bin, seconds.bin and run.json on a full device
 * (/dev/full answers every write with ENOSPC) fail with -ENOSPC, the first
 * failure is kept and named (results/files/outfail.h), later ones only counted;
 * and run.json's .tmp is not left behind when its write fails (a tmpfs of
 * 64 KiB would need root: a directory whose run.json.tmp is /dev/full does).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agg/secfile.h"
#include "bc_test.h"
#include "results/files/outfail.h"
#include "results/files/reclog.h"
#include "results/runjson.h"

int main(void)
{
	struct bc_reclogw *rw = NULL;
	struct bc_secw *sw = NULL;
	char err[512], dir[] = "/tmp/bc-outfail-XXXXXX", tmp[600], path[600], what[160];
	cJSON *run;
	int rc;

	if (access("/dev/full", W_OK))
		SKIP("no writable /dev/full");

	/* records.bin: one write per frame, so the header already fails, with ENOSPC */
	rc = bc_reclogw_open(&rw, "/dev/full", 1, err, sizeof(err));
	CHECK_MSG(rc == -ENOSPC && strstr(err, "No space left"), "%d %s", rc, err);

	/* seconds.bin: buffered; its flush says ENOSPC (the header in the buffer) */
	rc = bc_secw_open(&sw, "/dev/full", err, sizeof(err));
	CHECK_MSG(rc == 0, "%d %s", rc, err);
	if (sw) {
		rc = bc_secw_flush(sw);
		CHECK_MSG(rc == -ENOSPC, "%d", rc);
		CHECK(bc_secw_error(sw) == -ENOSPC);
		rc = bc_secw_close(sw);
		CHECK_MSG(rc == -ENOSPC, "close: %d", rc);
	}

	/* run.json through its .tmp: -ENOSPC, the failure named, the .tmp gone */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(tmp, sizeof(tmp), "%s/run.json.tmp", dir);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	CHECK(symlink("/dev/full", tmp) == 0);
	run = cJSON_CreateObject();
	cJSON_AddStringToObject(run, "status", "ok");
	cJSON_AddItemToObject(run, "steps", cJSON_CreateArray());
	CHECK(bc_outfail_rc() == 0);
	rc = bc_runjson_write(dir, run, NULL);
	CHECK_MSG(rc == -ENOSPC, "%d", rc);
	CHECK(access(tmp, F_OK) && errno == ENOENT);
	CHECK(access(path, F_OK) && errno == ENOENT);
	CHECK(bc_outfail_rc() == -ENOSPC && bc_outfail_count() == 1);
	CHECK_MSG(!strcmp(bc_outfail_text(what, sizeof(what)), "cannot write run.json (ENOSPC)"),
		  "%s", what);
	/* a second failure is counted, the first stays the one named */
	bc_outfail_note("/x/records.bin", -EIO);
	CHECK(bc_outfail_rc() == -ENOSPC && bc_outfail_count() == 2);
	CHECK(!strcmp(bc_errno_name(-EDQUOT), "EDQUOT") && !strcmp(bc_errno_name(EROFS), "EROFS"));
	cJSON_Delete(run);
	snprintf(tmp, sizeof(tmp), "rm -rf '%s'", dir);
	CHECK(system(tmp) == 0);
	TEST_DONE();
}
