/* test_fiojob - fio job files: ini parsing, stonewall groups, option mapping and the notes on what
 * did not map */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bc_fiojob.h"
#include "bc_profile.h"
#include "bc_test.h"

static const struct bc_fio_import s_im = {.src = "t.fio", .agent = "local", .endpoint = "local"};

static cJSON *import(const char *text, cJSON **notes)
{
	struct bc_fio_jobfile *jf = NULL;
	char err[512];
	cJSON *p;

	*notes = cJSON_CreateArray();
	if (bc_fio_parse(text, "t.fio", &jf, err, sizeof(err))) {
		fprintf(stderr, "parse: %s\n", err);
		return NULL;
	}
	p = bc_fio_to_profile(jf, &s_im, *notes, err, sizeof(err));
	if (!p)
		fprintf(stderr, "map: %s\n", err);
	bc_fio_free(&jf);
	return p;
}

static bool has_note(const cJSON *notes, const char *needle)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, notes) if (strstr(n->valuestring, needle)) return true;
	fprintf(stderr, "no note with \"%s\" among:\n", needle);
	cJSON_ArrayForEach(n, notes) fprintf(stderr, "  %s\n", n->valuestring);
	return false;
}

/* the profile parses, so bench-coord would accept it */
static bool valid(const cJSON *prof)
{
	struct bc_profile *p = NULL;
	char *text = cJSON_Print(prof), err[512];
	int rc = bc_profile_parse(text, "imported", &p, err, sizeof(err));

	if (rc)
		fprintf(stderr, "invalid: %s\n", err);
	bc_profile_destroy(&p);
	cJSON_free(text);
	return rc == 0;
}

static const cJSON *step(const cJSON *prof, int i)
{
	return cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), i);
}

static const char *sval(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(o, k));
}

static double nval(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItem(o, k));
}

static void test_parse(void)
{
	struct bc_fio_jobfile *jf = NULL;
	char err[256];

	setenv("BC_TEST_DEPTH", "32", 1);
	CHECK(bc_fio_parse("; comment\n# another\n[global]\n  bs = 4k \ntime_based\n\n"
			   "[job1]\niodepth=${BC_TEST_DEPTH}\ninclude other.fio\n",
			   "t.fio", &jf, err, sizeof(err)) == 0);
	CHECK(jf && jf->nsecs == 2);
	if (jf) {
		CHECK(jf->secs[0].global && jf->secs[0].nopts == 2);
		CHECK(!strcmp(jf->secs[0].opts[0].key, "bs") &&
		      !strcmp(jf->secs[0].opts[0].val, "4k"));
		CHECK(!jf->secs[0].opts[1].val && jf->secs[0].opts[1].line == 5);
		CHECK(!strcmp(jf->secs[1].opts[0].val, "32"));
		CHECK(!strcmp(jf->secs[1].opts[1].key, "include"));
	}
	bc_fio_free(&jf);
	CHECK(bc_fio_parse("bs=4k\n", "t.fio", &jf, err, sizeof(err)) == -EINVAL);
	CHECK(!strcmp(err, "t.fio:1: option before any [section]") && !jf);
	CHECK(bc_fio_parse("[ok]\n[bad\n", "t.fio", &jf, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "t.fio:2: expected a section header") != NULL);
	CHECK(bc_fio_parse("[]\n", "t.fio", &jf, err, sizeof(err)) == -EINVAL);
}

/* a PoV job file: one job per volume, concurrent, same workload */
static void test_pov(void)
{
	cJSON *notes, *p = import("[global]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n"
				  "iodepth=32\nnumjobs=4\nramp_time=5\nruntime=60\ntime_based\n"
				  "group_reporting\n[vol1]\nfilename=/dev/nvme1n1\n"
				  "[vol2]\nfilename=/dev/nvme2n1\nsize=10g\n",
				  &notes);
	const cJSON *s;

	CHECK(p && valid(p));
	if (!p)
		return;
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(p, "steps")) == 1);
	s = step(p, 0);
	CHECK(!strcmp(sval(s, "name"), "randread-4k-qd32"));
	CHECK(!strcmp(sval(s, "rw"), "randread") && !strcmp(sval(s, "bs"), "4k"));
	CHECK(nval(s, "iodepth") == 32 && nval(s, "numjobs") == 4 && nval(s, "ramp") == 5 &&
	      nval(s, "runtime") == 60 && cJSON_IsTrue(cJSON_GetObjectItem(s, "direct")));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(p, "volumes")) == 2);
	/* size on a block device is an I/O window, not a file to create */
	CHECK(!strcmp(sval(cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 1), "length"),
		      "10g"));
	CHECK(has_note(notes, "ioengine=libaio ignored"));
	CHECK(has_note(notes, "per volume the queue depth is numjobs x iodepth"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* genfio -s: every job waits for the one before, one disk each */
static void test_stonewall(void)
{
	cJSON *notes,
	    *p = import("[global]\nioengine=libaio\ninvalidate=1\nramp_time=5\n"
			"iodepth=1\nruntime=5\ntime_based\n"
			"[randread-sda-4k-seq]\nstonewall\nbs=4k\nfilename=sda\nrw=randread\n"
			"write_bw_log=x.results\n"
			"[write-sda-4k-seq]\nstonewall\nbs=4k\nfilename=sda\nrw=write\n"
			"write_bw_log=y.results\n"
			"[randread-sdb-4k-seq]\nstonewall\nbs=4k\nfilename=sdb\nrw=randread\n",
			&notes);

	CHECK(p && valid(p));
	if (!p)
		return;
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(p, "steps")) == 3);
	CHECK(!strcmp(sval(step(p, 0), "name"), "randread-sda-4k-seq"));
	CHECK(!strcmp(sval(step(p, 1), "rw"), "write"));
	/* fio's default is buffered I/O */
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(step(p, 0), "direct")));
	CHECK(has_note(notes, "not mapped: invalidate=1 (line 3; in [global])"));
	CHECK(has_note(notes, "not mapped: write_bw_log=x.results (line 13; in randread-sda-4k-seq "
			      "and others)"));
	CHECK(has_note(notes, "step randread-sda-4k-seq: fio ran it on sda only"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* a group with different workloads, several files per job, odd values */
static void test_mapping_details(void)
{
	cJSON *notes, *p = import("[a]\nrw=randrw\nrwmixwrite=30\nbs=8k,16k\niodepth=16\n"
				  "filename=/tmp/x\\:1:/tmp/y\nsize=64m\nruntime=1500ms\n"
				  "[b]\nrw=trim\nfilename=/tmp/z\n"
				  "[c]\nrw=read\nbs=1m\nfilename=/tmp/y\nruntime=2\n",
				  &notes);
	const cJSON *v;

	CHECK(p && valid(p));
	if (!p)
		return;
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(p, "steps")) == 2);
	CHECK(nval(step(p, 0), "rwmixread") == 70 && !strcmp(sval(step(p, 0), "bs"), "8k"));
	CHECK(nval(step(p, 0), "iodepth") == 8 && nval(step(p, 0), "runtime") == 2);
	v = cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0);
	CHECK(!strcmp(sval(v, "path"), "/tmp/x:1") && !strcmp(sval(v, "size"), "32m"));
	CHECK(has_note(notes, "bs=8k,16k (different read/write sizes)"));
	CHECK(has_note(notes, "iodepth=16 was shared by 2 files"));
	CHECK(has_note(notes, "runtime=1500ms rounded up to 2 s"));
	CHECK(has_note(notes, "rw=trim has no bench-coord equivalent: job skipped"));
	CHECK(has_note(notes, "with different workloads; bench-coord runs them as consecutive"));
	CHECK(has_note(notes, "time_based not set"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	p = import("[only]\nrw=randtrim\nfilename=/tmp/a\n", &notes);
	CHECK(!p);
	cJSON_Delete(notes);
}

int main(void)
{
	test_parse();
	test_pov();
	test_stonewall();
	test_mapping_details();
	TEST_DONE();
}
