/* test_fiojob - fio job files: ini parsing, stonewall groups, option mapping and the notes on what
 * did not map */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/fiojob.h"
#include "import/import.h"
#include "profile/profile.h"
#include "bc_test.h"

static struct bc_import_opts s_im = {.src = "t.fio", .agent = "local", .endpoint = "local"};

static cJSON *s_diffs;

/* the profile, its notes in *notes and its differences in s_diffs (replaced each call) */
static cJSON *import(const char *text, cJSON **notes)
{
	struct bc_import_doc *jf = NULL;
	char err[512];
	cJSON *p;

	*notes = cJSON_CreateArray();
	cJSON_Delete(s_diffs);
	s_diffs = cJSON_CreateArray();
	if (bc_fio_parse(text, "t.fio", &jf, err, sizeof(err))) {
		fprintf(stderr, "parse: %s\n", err);
		return NULL;
	}
	p = bc_fio_to_profile(jf, &s_im, *notes, s_diffs, err, sizeof(err));
	if (!p)
		fprintf(stderr, "map: %s\n", err);
	bc_import_doc_free(&jf);
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
	struct bc_import_doc *jf = NULL;
	char err[256];

	setenv("BC_TEST_DEPTH", "32", 1);
	unsetenv("BC_TEST_UNSET");
	CHECK(bc_fio_parse("; comment\n# another\n[global]\n  bs = 4k \ntime_based\n\n"
			   "[job1] ; a job\niodepth=${BC_TEST_DEPTH}\nruntime=3600 # one hour\n"
			   "numjobs=4 ; four clones\nfilename=x ; or y\nname=a${BC_TEST_UNSET}b\n"
			   "size=1g#tight\n",
			   "t.fio", &jf, err, sizeof(err)) == 0);
	CHECK(jf && jf->nsecs == 2);
	if (jf && jf->nsecs == 2 && jf->secs[1].nkv == 6) {
		CHECK(!strcmp(jf->secs[0].kind, "global") && jf->secs[0].nkv == 2);
		CHECK(!strcmp(jf->secs[0].kv[0].key, "bs") && !strcmp(jf->secs[0].kv[0].val, "4k"));
		CHECK(!jf->secs[0].kv[1].val && jf->secs[0].kv[1].line == 5);
		CHECK(!strcmp(jf->secs[1].name, "job1"));
		CHECK(!strcmp(jf->secs[1].kv[0].val, "32"));
		/* fio ends a line at its first ';' or '#' */
		CHECK(!strcmp(jf->secs[1].kv[1].val, "3600"));
		CHECK(!strcmp(jf->secs[1].kv[2].val, "4"));
		CHECK(!strcmp(jf->secs[1].kv[3].val, "x"));
		/* an unset ${VAR} is empty, as in fio */
		CHECK(!strcmp(jf->secs[1].kv[4].val, "ab"));
		CHECK(!strcmp(jf->secs[1].kv[5].val, "1g"));
		CHECK(!strcmp(jf->secs[1].kv[5].src, "t.fio") && jf->secs[1].kv[5].line == 13);
	} else {
		CHECK(!"parsed shape");
	}
	bc_import_doc_free(&jf);
	CHECK(bc_fio_parse("[j]\nnumjobs=$ncpus\n", "t.fio", &jf, err, sizeof(err)) == 0);
	CHECK(jf && atoi(jf->secs[0].kv[0].val) >= 1);
	bc_import_doc_free(&jf);
	CHECK(bc_fio_parse("[j]\ninclude nowhere.inc\n", "t.fio", &jf, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(strstr(err, "t.fio:2: include ./nowhere.inc:") != NULL);
	bc_import_doc_free(&jf);
	CHECK(bc_fio_parse("bs=4k\n", "t.fio", &jf, err, sizeof(err)) == -EINVAL);
	CHECK(!strcmp(err, "t.fio:1: option before any [section]") && !jf);
	CHECK(bc_fio_parse("[ok]\n[bad\n", "t.fio", &jf, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "t.fio:2: expected a section header") != NULL);
	CHECK(bc_fio_parse("[]\n", "t.fio", &jf, err, sizeof(err)) == -EINVAL);
}

static cJSON *import_file(const char *name, cJSON **notes)
{
	char path[1024], *text;
	struct bc_import_doc *jf = NULL;
	char err[512];
	cJSON *p = NULL;

	snprintf(path, sizeof(path), "%s/tests/data/fio/%s", BC_SRC_DIR, name);
	*notes = cJSON_CreateArray();
	cJSON_Delete(s_diffs);
	s_diffs = cJSON_CreateArray();
	text = bc_import_slurp(path);
	CHECK(text != NULL);
	if (text && !bc_fio_parse(text, path, &jf, err, sizeof(err)))
		p = bc_fio_to_profile(jf, &s_im, *notes, s_diffs, err, sizeof(err));
	else if (text)
		fprintf(stderr, "parse %s: %s\n", name, err);
	bc_import_doc_free(&jf);
	free(text);
	return p;
}

static bool has_diff(const char *needle)
{
	return has_note(s_diffs, needle);
}

static bool no_diffs(void)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, s_diffs)
	    fprintf(stderr, "unexpected difference: %s\n", n->valuestring);
	return cJSON_GetArraySize(s_diffs) == 0;
}

static const cJSON *vol(const cJSON *prof, int i)
{
	return cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), i);
}

static int nsteps(const cJSON *p)
{
	return cJSON_GetArraySize(cJSON_GetObjectItem(p, "steps"));
}

/* a step by name */
static const cJSON *named(const cJSON *prof, const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(
	    s, cJSON_GetObjectItem(prof, "steps")) if (!strcmp(sval(s, "name"), name)) return s;
	fprintf(stderr, "no step %s\n", name);
	return NULL;
}

/* every option with a profile equivalent (tests/data/fio/options.fio) */
static void test_options(void)
{
	cJSON *notes, *p = import_file("options.fio", &notes);
	const cJSON *s;

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	/* rate_iops per clone -> per volume over the clones */
	CHECK((s = named(p, "rate")) && nval(s, "rate_iops") == 2000 && nval(s, "numjobs") == 2);
	CHECK((s = named(p, "rate-bw")) && nval(s, "rate_bw") == 8 << 20);
	CHECK((s = named(p, "bssplit")) && !strcmp(sval(s, "bs"), "4k/50:64k/30:1m/20"));
	CHECK((s = named(p, "zipf")) && !strcmp(sval(s, "random_distribution"), "zipf:1.2"));
	CHECK((s = named(p, "zoned")) &&
	      !strcmp(sval(s, "random_distribution"), "zoned:90/10:10/90"));
	CHECK((s = named(p, "verify")) && cJSON_IsTrue(cJSON_GetObjectItem(s, "verify")));
	/* fio reads back what a verify job wrote */
	CHECK((s = named(p, "verify-verify")) && !strcmp(sval(s, "rw"), "read") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(s, "verify")) &&
	      cJSON_IsTrue(cJSON_GetObjectItem(s, "size_based")));
	/* thinktime keeps one I/O in flight in fio */
	CHECK((s = named(p, "thinktime")) && nval(s, "thinktime") == 250 &&
	      nval(s, "iodepth") == 1);
	CHECK(has_note(notes, "iodepth=8 imported as 1"));
	CHECK((s = named(p, "batch")) && nval(s, "iodepth_batch_submit") == 8 &&
	      nval(s, "iodepth_batch_complete") == 4 &&
	      cJSON_IsTrue(cJSON_GetObjectItem(s, "sqpoll")) && nval(s, "sqpoll_cpu") == 1 &&
	      !strcmp(sval(s, "cpus_allowed"), "0-1") &&
	      !strcmp(sval(s, "cpus_allowed_policy"), "split") && !cJSON_GetObjectItem(s, "hipri"));
	/* offset_increment = size: the window split into numjobs regions */
	CHECK((s = named(p, "regions")) && nval(s, "numjobs") == 4);
	CHECK(!strcmp(sval(vol(p, 0), "size"), "64m"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* fio's rwmixread is a whole percent: a fraction is a difference, never 83.14 */
	p = import("[m]\nrw=randrw\nrwmixread=83.14\nfilename=/tmp/m\nruntime=1\ntime_based\n",
		   &notes);
	CHECK(has_diff("t.fio:3: rwmixread=83.14: fio reads a whole percent 0..100"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* offset_increment that is not the clone's size has no equivalent */
	p = import("[r]\nrw=write\nfilename=/tmp/r\nsize=1m\noffset_increment=2m\nnumjobs=2\n"
		   "runtime=1\ntime_based\n",
		   &notes);
	CHECK(has_diff("t.fio:5: offset_increment=2m"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* rates on a mix: fio caps reads and writes separately, each at the value (or r,w) */
	p = import("[m]\nrw=randrw\nrate_iops=100\nfilename=/tmp/m\nruntime=1\ntime_based\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() && nval(step(p, 0), "rate_iops_read") == 100 &&
	      nval(step(p, 0), "rate_iops_write") == 100 &&
	      !cJSON_GetObjectItem(step(p, 0), "rate_iops"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[m]\nrw=randrw\nrate_iops=300,100\nrate_process=poisson\nfilename=/tmp/m\n"
		   "runtime=1\ntime_based\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() && nval(step(p, 0), "rate_iops_read") == 300 &&
	      nval(step(p, 0), "rate_iops_write") == 100 &&
	      !strcmp(sval(step(p, 0), "rate_process"), "poisson"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* bs by direction: the one the ops use */
	p = import("[w]\nrw=randwrite\nbs=4k,64k\nfilename=/tmp/w\nruntime=1\ntime_based\n",
		   &notes);
	CHECK(p && no_diffs() && !strcmp(sval(step(p, 0), "bs"), "64k"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[w]\nrw=randrw\nbs=4k,64k\nfilename=/tmp/w\nruntime=1\ntime_based\n", &notes);
	CHECK(has_diff("t.fio:3: bs=4k,64k: reads and writes use different values"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[z]\nrw=randread\nrandom_distribution=zipf:1.1:0.5\nfilename=/tmp/z\n"
		   "runtime=1\ntime_based\n",
		   &notes);
	CHECK(has_diff("t.fio:3: random_distribution=zipf:1.1:0.5: the center argument"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[t]\nrw=randread\nthinktime=1ms\nthinktime_blocks=8\nfilename=/tmp/t\n"
		   "runtime=1\ntime_based\n",
		   &notes);
	CHECK(has_diff("t.fio:4: thinktime_blocks=8"));
	CHECK(p && nval(step(p, 0), "thinktime") == 1000);
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* inline comments and ${VAR} change what is imported (tests/data/fio/comments.fio) */
static void test_comments(void)
{
	cJSON *notes, *p;

	setenv("BC_FIO_TEST_QD", "12", 1);
	p = import_file("comments.fio", &notes);
	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(nval(step(p, 0), "runtime") == 3600 && nval(step(p, 0), "numjobs") == 4 &&
	      nval(step(p, 0), "iodepth") == 12);
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(p, "volumes")) == 1);
	CHECK(!strcmp(sval(vol(p, 0), "path"), "cmt.dat") &&
	      !strcmp(sval(vol(p, 0), "size"), "1g"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* not time_based: fio stops once the bytes are done */
static void test_size_based(void)
{
	cJSON *notes, *p = import_file("sizebased.fio", &notes);
	const cJSON *s;

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK((s = named(p, "fill")) && cJSON_IsTrue(cJSON_GetObjectItem(s, "size_based")) &&
	      !strcmp(sval(s, "io_size"), "256m"));
	CHECK(has_note(notes, "the step ends when the bytes are done"));
	CHECK((s = named(p, "partial")) && !strcmp(sval(s, "io_size"), "64m") &&
	      nval(s, "runtime") == 30);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* clones on one file each do their io_size */
	p = import("[c]\nrw=randread\nfilename=/tmp/c\nsize=1g\nio_size=100m\nnumjobs=4\n", &notes);
	CHECK(p && !strcmp(sval(step(p, 0), "io_size"), "400m"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* filesize alone: each clone's pass is the file, every loop: 8 x 2 x 1g */
	p = import("[f]\nrw=randwrite\nfilename=/tmp/f\nfilesize=1g\nbs=1m\nnumjobs=8\nloops=2\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() && !strcmp(sval(step(p, 0), "io_size"), "16g"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* a device's size is the agent's to know: fio's clones x loops as passes */
	p = import("[d]\nrw=randwrite\nfilename=/dev/nvme0n1\nnumjobs=4\nloops=3\n", &notes);
	CHECK(p && valid(p) && no_diffs() && nval(step(p, 0), "passes") == 12 &&
	      cJSON_IsTrue(cJSON_GetObjectItem(step(p, 0), "size_based")) &&
	      has_note(notes, "12 passes over the window"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* sequential clones each walk the window already: loops alone are passes */
	p = import("[s]\nrw=write\nfilename=/dev/nvme0n1\nbs=128k\nnumjobs=4\nloops=3\n", &notes);
	CHECK(p && valid(p) && nval(step(p, 0), "passes") == 3);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* half the device from 50%, four random clones: four passes over that half */
	p = import("[h]\nrw=randwrite\nfilename=/dev/nvme0n1\noffset=50%\nbs=1m\nnumjobs=4\n",
		   &notes);
	CHECK(p && valid(p) && nval(step(p, 0), "passes") == 4 &&
	      !strcmp(sval(step(p, 0), "window_offset"), "50%"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* fio reads a unit by its first letters: "1Mi" is 1 MiB, "4KiB" (IEC) 4000 bytes */
	p = import("[u]\nrw=read\nfilename=/tmp/u\nsize=1g\nblocksize=1Mi\n", &notes);
	CHECK(p && valid(p) && no_diffs() && !strcmp(sval(step(p, 0), "bs"), "1m"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* loops beside time_based: fio ignores the count, whatever it is */
	p = import("[t]\nrw=randread\nfilename=/tmp/t\nsize=1g\ntime_based\nruntime=60\n"
		   "loops=90000000\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() && !cJSON_GetObjectItem(step(p, 0), "io_size") &&
	      !cJSON_GetObjectItem(step(p, 0), "passes"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* two jobs on one file at once: fio does each one's bytes, as their depths add */
	p = import("[global]\nrw=randwrite\nbs=4k\nioengine=io_uring\niodepth=64\n[b]\nfilename=/"
		   "tmp/b\nsize=1g\n"
		   "[c]\nfilename=/tmp/b\nsize=1g\n[e]\nfilename=/tmp/b\nsize=1g\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() && nval(step(p, 0), "iodepth") == 192 &&
	      !strcmp(sval(step(p, 0), "io_size"), "3g"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* concurrent jobs with different workloads: one step, per-volume workloads */
static void test_concurrent(void)
{
	cJSON *notes, *p = import_file("concurrent.fio", &notes);
	const cJSON *s, *vw;

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(nsteps(p) == 2);
	s = step(p, 0);
	CHECK(!strcmp(sval(s, "rw"), "write") && !strcmp(sval(s, "bs"), "64k") &&
	      nval(s, "iodepth") == 2);
	vw = cJSON_GetObjectItem(s, "volume_workloads");
	CHECK(vw && !cJSON_GetObjectItem(vw, "0"));
	CHECK(vw && !strcmp(sval(cJSON_GetObjectItem(vw, "1"), "rw"), "randread") &&
	      nval(cJSON_GetObjectItem(vw, "1"), "iodepth") == 32);
	CHECK(vw && nval(cJSON_GetObjectItem(vw, "2"), "rate_iops") == 500 &&
	      !strcmp(sval(cJSON_GetObjectItem(vw, "2"), "bs"), "8k"));
	/* the second group is uniform: no overrides */
	CHECK(!cJSON_GetObjectItem(step(p, 1), "volume_workloads"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* fio leaves a volume alone in a group: so does the step ("[]") */
	p = import("[a]\nfilename=/tmp/a\nrw=read\nruntime=1\ntime_based\n"
		   "[b]\nstonewall\nfilename=/tmp/b\nrw=read\nruntime=1\ntime_based\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs());
	CHECK(p &&
	      cJSON_IsArray(
		  cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "1")) &&
	      !cJSON_GetArraySize(
		  cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "1")));
	CHECK(p && cJSON_IsArray(cJSON_GetObjectItem(
		       cJSON_GetObjectItem(step(p, 1), "volume_workloads"), "0")));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* two jobs with different workloads on one file at once: two workloads on the volume */
	p = import("[a]\nfilename=/tmp/a\nrw=read\nruntime=1\ntime_based\n"
		   "[b]\nfilename=/tmp/a\nrw=write\nruntime=1\ntime_based\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs());
	CHECK(p && cJSON_GetArraySize(cJSON_GetObjectItem(
		       cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "0")) == 2);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* numjobs differing in a group: the volume of the one-clone job is driven by one thread */
	p = import(
	    "[global]\nioengine=io_uring\n"
	    "[a]\nfilename=/tmp/a\nrw=randread\niodepth=4\nnumjobs=4\nruntime=1\ntime_based\n"
	    "[b]\nfilename=/tmp/b\nrw=randread\niodepth=8\nruntime=1\ntime_based\n",
	    &notes);
	CHECK(p && valid(p) && no_diffs());
	CHECK(p && nval(step(p, 0), "numjobs") == 4 &&
	      nval(cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "1"),
		   "iodepth") == 8 &&
	      nval(cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "1"),
		   "jobs") == 1);
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* numjobs without filename: each clone its own file */
static void test_clones(void)
{
	cJSON *notes, *p = import_file("clones.fio", &notes);

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(p, "volumes")) == 3);
	CHECK(!strcmp(sval(vol(p, 2), "path"), "clone.2.0") &&
	      !strcmp(sval(vol(p, 2), "size"), "16m"));
	CHECK(nval(step(p, 0), "numjobs") == 1 && nval(step(p, 0), "iodepth") == 8);
	CHECK(has_note(notes, "numjobs=3 clones each on their own files"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* sequential clones on one file all walk it from the start in fio */
	p = import("[s]\nrw=read\nfilename=/tmp/s\nnumjobs=2\nruntime=1\ntime_based\n", &notes);
	CHECK(p && valid(p) && no_diffs());
	CHECK(p && !strcmp(sval(step(p, 0), "seq_regions"), "shared") &&
	      nval(step(p, 0), "numjobs") == 2);
	CHECK(has_note(notes, "numjobs=2 sequential clones each walk the whole file"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* with offset_increment=size the clones' regions are back to back: the jobs' split */
	p = import("[s]\nrw=read\nfilename=/tmp/s\nnumjobs=2\nsize=4m\noffset_increment=4m\n"
		   "runtime=1\ntime_based\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() && !cJSON_GetObjectItem(step(p, 0), "seq_regions"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* include reads a file in place, its lines named by their own file */
static void test_include(void)
{
	cJSON *notes, *p = import_file("include.fio", &notes);

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(!strcmp(sval(step(p, 0), "rw"), "randrw") && nval(step(p, 0), "rwmixread") == 70 &&
	      nval(step(p, 0), "iodepth") == 4 && nval(step(p, 0), "runtime") == 2);
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* engine classes: async, sync (one in flight), null, and what is not storage */
static void test_engines(void)
{
	cJSON *notes, *p = import_file("engine-null.fio", &notes);

	CHECK(p && valid(p) && no_diffs());
	CHECK(p && !strcmp(sval(vol(p, 0), "path"), "null") && nval(step(p, 0), "iodepth") == 32);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import_file("engine-sync.fio", &notes);
	CHECK(p && valid(p) && no_diffs());
	CHECK(p && nval(step(p, 0), "iodepth") == 1 && nval(step(p, 1), "iodepth") == 1);
	CHECK(
	    has_note(notes, "ioengine=libaio on buffered I/O completes each I/O before the next"));
	CHECK(has_note(notes, "ioengine=psync completes each I/O before the next"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import_file("engine-net.fio", &notes);
	CHECK(!p && has_diff("engine-net.fio:3: ioengine=net: not block or file read/write I/O"));
	CHECK(has_diff("engine-net.fio:4: hostname=localhost: an option of fio's libhdfs/net/rdma "
		       "engine"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import_file("engine-cpuio.fio", &notes);
	CHECK(!p && has_diff("engine-cpuio.fio:3: ioengine=cpuio"));
	cJSON_Delete(notes);
	p = import_file("engine-exec.fio", &notes);
	CHECK(!p && has_diff("engine-exec.fio:3: ioengine=exec"));
	cJSON_Delete(notes);
	p = import_file("randtrim.fio", &notes);
	CHECK(p && valid(p) && no_diffs() && !strcmp(sval(step(p, 0), "rw"), "randtrim"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* refused options, one line each with file:line; --lenient puts them in the description */
static void test_refuse_lenient(void)
{
	cJSON *notes, *p = import_file("unmapped.fio", &notes);

	CHECK(cJSON_GetArraySize(s_diffs) == 2);
	CHECK(has_diff("unmapped.fio:12: zonemode=zbd: zoned block devices"));
	CHECK(has_diff("unmapped.fio:14: number_ios=100 with several block sizes"));
	CHECK(p && !strstr(sval(p, "description"), "number_ios"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	s_im.lenient = true;
	p = import_file("unmapped.fio", &notes);
	CHECK(p && valid(p) && strstr(sval(p, "description"), "--lenient") &&
	      strstr(sval(p, "description"), "unmapped.fio:14: number_ios=100"));
	s_im.lenient = false;
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
			"write_bw_log=y.results\n",
			&notes);

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(nsteps(p) == 2);
	CHECK(!strcmp(sval(step(p, 0), "name"), "randread-sda-4k-seq"));
	CHECK(!strcmp(sval(step(p, 1), "rw"), "write") && nval(step(p, 1), "ramp") == 5);
	/* fio's default is buffered I/O */
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(step(p, 0), "direct")));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* a PoV job file: one job per volume, concurrent, same workload */
static void test_pov(void)
{
	cJSON *notes, *p = import_file("pov.fio", &notes);

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(nsteps(p) == 2);
	CHECK(!cJSON_GetObjectItem(step(p, 0), "volume_workloads"));
	CHECK(nval(step(p, 0), "iodepth") == 16 && nval(step(p, 0), "numjobs") == 2);
	CHECK(!strcmp(sval(step(p, 1), "bs"), "128k"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* a step's volume_workloads: resolved per volume on top of the volume's own, checked */
static void test_step_volume_workloads(void)
{
	static const char *const head =
	    "{\"name\": \"vw\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
	    "\"volumes\": [{\"agent\": \"a\", \"path\": \"null\"},"
	    "{\"agent\": \"a\", \"path\": \"null\", \"workload\": {\"bs\": \"8k\"}}],"
	    "\"steps\": [{\"name\": \"s\", \"iodepth\": 4, \"volume_workloads\": ";
	struct bc_profile *p = NULL;
	struct bc_workload w0, w1;
	char text[1024], err[512];

	snprintf(text, sizeof(text), "%s{\"1\": {\"iodepth\": 32, \"rw\": \"randwrite\"}}}]}",
		 head);
	CHECK(bc_profile_parse(text, "vw.json", &p, err, sizeof(err)) == 0);
	if (p) {
		bc_step_volume_workload(&p->steps[0], &p->volumes[0], 0, &w0);
		bc_step_volume_workload(&p->steps[0], &p->volumes[1], 1, &w1);
		CHECK(w0.iodepth == 4 && w0.rw == BC_RW_RANDREAD && w0.bs == 4096);
		CHECK(w1.iodepth == 32 && w1.rw == BC_RW_RANDWRITE && w1.bs == 8192);
		CHECK(!bc_step_volume_overridden(&p->steps[0], &p->volumes[0], 0));
		CHECK(bc_step_volume_overridden(&p->steps[0], &p->volumes[1], 1));
	}
	bc_profile_destroy(&p);
	snprintf(text, sizeof(text), "%s{\"2\": {\"iodepth\": 1}}}]}", head);
	CHECK(bc_profile_parse(text, "vw.json", &p, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "steps[0].volume_workloads.2: expected a volume index 0..1") != NULL);
	snprintf(text, sizeof(text), "%s{\"0\": {\"numjobs\": 2}}}]}", head);
	CHECK(bc_profile_parse(text, "vw.json", &p, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "steps[0].volume_workloads.0.numjobs: applies to the whole step") !=
	      NULL);
	snprintf(text, sizeof(text), "%s{\"0\": {\"rwmixread\": 101}}}]}", head);
	CHECK(bc_profile_parse(text, "vw.json", &p, err, sizeof(err)) == -EINVAL);
}

/*
 * fio's size and offset in percent of the file, a keyword's arithmetic,
 * cpumask, number_ios, an iodepth_low at the depth, a tiobench option
 */
static void test_shares_and_math(void)
{
	cJSON *notes,
	    *p = import("[global]\nfilename=/dev/nullb9\ndirect=1\nioengine=libaio\nbs=4k\n"
			"[pct]\nrw=randread\noffset=40%\nsize=13%\nruntime=2\ntime_based\n"
			"[calc]\nstonewall\nrw=read\nsize=2*$pagesize+(3-1)*512\ncpumask=0x6\n"
			"iodepth=4\niodepth_low=8\nblock=64k\nnumber_ios=3\n"
			"[count]\nstonewall\nrw=randwrite\nnumber_ios=5\nruntime=9\ntime_based\n",
			&notes);

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(!strcmp(sval(step(p, 0), "window_offset"), "40%"));
	CHECK(!strcmp(sval(step(p, 0), "window_length"), "13%"));
	/* fio's bc: 2 pages + 1024 bytes, fewer than number_ios=3 of 4k */
	CHECK(sysconf(_SC_PAGESIZE) != 4096 || !strcmp(sval(step(p, 1), "io_size"), "9k"));
	CHECK(!strcmp(sval(step(p, 1), "cpus_allowed"), "1-2"));
	CHECK(has_note(notes, "block=64k is an option of fio's tiobench profile"));
	CHECK(has_note(notes, "iodepth_low"));
	/* time_based with number_ios: 5 I/Os of 4k or the runtime, whichever first */
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(step(p, 2), "size_based")));
	CHECK(!strcmp(sval(step(p, 2), "io_size"), "20k") && nval(step(p, 2), "runtime") == 9);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* fractional percents are not fio's */
	p = import("[j]\nfilename=/dev/nullb9\nrw=read\nsize=12.5%\n", &notes);
	CHECK(has_diff("t.fio:4: size=12.5%: fio reads an integer percent"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* fio's job shapes: ranges, holes, runs, zones, flow, a low mark, syncs, backlog, content */
static void test_job_shapes(void)
{
	static const char *const text =
	    "[global]\nfilename=/dev/nullb9\ndirect=1\nioengine=libaio\niodepth=16\n"
	    "runtime=2\ntime_based\n"
	    "[range]\nrw=randread\nbs=64k-4k\nflow=3\n"
	    "[holes]\nstonewall\nrw=write:3M\nbs=1m\nsync=dsync\nfsync=4\nend_fsync=1\n"
	    "buffer_pattern=0xdeadbeef\n"
	    "[runs]\nstonewall\nrw=randwrite:8\niodepth_low=4\nfdatasync=8\nzero_buffers=1\n"
	    "[zones]\nstonewall\nrw=read\nbs=1m\nzonesize=2g\nzoneskip=30g\n"
	    "[backlog]\nstonewall\nrw=randwrite\nverify=crc32c\nverify_backlog=1024\n"
	    "[zeros]\nstonewall\nrw=write\nbuffer_compress_percentage=100\nrefill_buffers=1\n"
	    "[plain]\nstonewall\nrw=write\n";
	cJSON *notes, *p = import(text, &notes);
	const cJSON *x;

	CHECK(p && valid(p) && no_diffs());
	if (!p)
		return;
	CHECK(nsteps(p) == 7); /* no verify pass after a backlog */
	x = step(p, 0);
	CHECK(!strcmp(sval(x, "bs"), "4k-64k") && nval(x, "flow") == 3);
	x = step(p, 1);
	CHECK(!strcmp(sval(x, "seq_gap"), "3m") && !strcmp(sval(x, "write_sync"), "dsync"));
	CHECK(nval(x, "fsync") == 4 && cJSON_IsTrue(cJSON_GetObjectItem(x, "end_fsync")));
	/* a pattern alone: every write is it, with fio's scramble */
	CHECK(!strcmp(sval(x, "buffer_pattern"), "0xdeadbeef") && nval(x, "compress_pct") == 100);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(x, "scramble")));
	x = step(p, 2);
	CHECK(nval(x, "seq_run") == 8 && nval(x, "iodepth_low") == 4 && nval(x, "fdatasync") == 8);
	/* asked-for zeros: not scrambled */
	CHECK(nval(x, "compress_pct") == 100 && !cJSON_GetObjectItem(x, "scramble"));
	x = step(p, 3);
	CHECK(!strcmp(sval(x, "zone_size"), "2g") && !strcmp(sval(x, "zone_skip"), "30g"));
	x = step(p, 4);
	CHECK(nval(x, "verify_backlog") == 1024 && cJSON_IsTrue(cJSON_GetObjectItem(x, "verify")));
	CHECK(has_note(notes, "verify_backlog: every write is read back"));
	/* compress 100 with refill_buffers: zeros, refilled instead of scrambled */
	x = step(p, 5);
	CHECK(nval(x, "compress_pct") == 100 && !cJSON_GetObjectItem(x, "scramble"));
	CHECK(has_note(notes, "job plain: fio writes one random buffer per I/O slot"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/dev/nullb9\nrw=read:-4k\nzonemode=zbd\n", &notes);
	CHECK(has_diff("t.fio:3: rw=read:-4k: a hole of whole 512-byte sectors"));
	CHECK(has_diff("t.fio:4: zonemode=zbd"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/*
 * PoV / SNIA-PTS-style preconditioning: fill_device on a device is one sequential pass to its
 * end; steadystate (ss), ss_dur, ss_ramp become stop_steady; what fio would do otherwise is
 * refused with the option's line
 */
static void test_steady_fill(void)
{
	cJSON *notes, *p;
	const cJSON *s, *ss;

	p = import("[global]\nfilename=/dev/nvme0n1\ndirect=1\ngroup_reporting\n"
		   "[fill]\nrw=write\nbs=128k\nfill_device=1\nsize=10g\n"
		   "[steady]\nstonewall\nrw=randwrite\nnumjobs=4\ntime_based\nruntime=7200\n"
		   "ramp_time=60\nss=iops_slope:0.3%\nss_dur=1800\nss_ramp=5m\n"
		   "[bw]\nstonewall\nrw=read\ntime_based\nruntime=600\nsteadystate=bw:2%\n"
		   "ss_dur=60s\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() && nsteps(p) == 3);
	s = step(p, 0);
	CHECK(s && !strcmp(sval(s, "rw"), "write") && nval(s, "stop_window_pct") == 100);
	CHECK(s && cJSON_IsTrue(cJSON_GetObjectItem(s, "size_based")) &&
	      !cJSON_GetObjectItem(s, "io_size"));
	/* the whole device, not size=10g: fio's fill sets the size beyond it */
	CHECK(p && !cJSON_GetObjectItem(vol(p, 0), "length") &&
	      !cJSON_GetObjectItem(vol(p, 0), "size"));
	CHECK(has_note(notes, "fill_device writes to the device's end"));
	s = step(p, 1);
	ss = s ? cJSON_GetObjectItem(s, "stop_steady") : NULL;
	CHECK(ss && !strcmp(sval(ss, "criterion"), "iops_slope:0.3%") &&
	      nval(ss, "window") == 1800 && nval(ss, "ramp") == 300);
	CHECK(s && nval(s, "ramp") == 60 && nval(s, "runtime") == 7200);
	ss = step(p, 2) ? cJSON_GetObjectItem(step(p, 2), "stop_steady") : NULL;
	CHECK(ss && !strcmp(sval(ss, "criterion"), "bw:2%") && nval(ss, "window") == 60 &&
	      !cJSON_GetObjectItem(ss, "ramp"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* without group_reporting fio judges each clone: said */
	p = import("[j]\nfilename=/dev/sdb\nrw=randread\nnumjobs=2\ntime_based\nruntime=60\n"
		   "ss=iops:2%\nss_dur=30\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs());
	CHECK(has_note(notes, "fio judges each of the 2 clones alone"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* without ss_dur fio keeps no window: nothing to judge, and no key */
	p = import("[j]\nfilename=/dev/sdb\nrw=read\ntime_based\nruntime=60\nss=iops:2%\n", &notes);
	CHECK(p && valid(p) && no_diffs() && !cJSON_GetObjectItem(step(p, 0), "stop_steady"));
	CHECK(has_note(notes, "without ss_dur"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* refused: a fill of a file (fio fills the filesystem), a fill by reads, bad criteria */
	p = import("[f]\nfilename=/tmp/x.dat\nrw=write\nfill_device=1\n", &notes);
	CHECK(!p && has_diff("t.fio:4: fill_device=1 on /tmp/x.dat: fio writes until the "
			     "filesystem holding the file is full"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[f]\nfilename=/dev/sdb\nrw=randwrite\nfill_fs=1\n", &notes);
	CHECK(!p && has_diff("fill_fs=1 with rw=randwrite"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/dev/sdb\nrw=read\nss=lat:2%\nss_dur=60\n", &notes);
	CHECK(has_diff("t.fio:4: ss=lat:2%") &&
	      (!p || !cJSON_GetObjectItem(step(p, 0), "stop_steady")));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/dev/sdb\nrw=read\nss=iops:2%\nss_dur=2\n", &notes);
	CHECK(has_diff("t.fio:5: ss_dur=2: bench-coord judges windows of 3 seconds") &&
	      (!p || !cJSON_GetObjectItem(step(p, 0), "stop_steady")));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* the JSON text of item k of o, for comparing small arrays and objects */
static bool json_is(const cJSON *o, const char *k, const char *want)
{
	char *t = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, k));
	bool ok = t && !strcmp(t, want);

	if (!ok)
		fprintf(stderr, "%s is %s, not %s\n", k, t ? t : "absent", want);
	cJSON_free(t);
	return ok;
}

/* fio's FDP jobs on NVMe passthrough: the volume's fdp, each job's placement */
static void test_fdp(void)
{
	cJSON *notes, *p, *vol, *vw;

	/* fio's own example shape: three jobs on one namespace, each its placement IDs and range */
	p = import("[global]\nfilename=/dev/ng0n1\nioengine=io_uring_cmd\ncmd_type=nvme\n"
		   "iodepth=32\nbs=4K\nfdp=1\ntime_based=1\nruntime=60\n"
		   "[hot]\nrw=randrw\nrwmixwrite=90\nfdp_pli=0,1,2,3\noffset=0%\nsize=30%\n"
		   "[mid]\nrw=randrw\nrwmixwrite=30\nfdp_pli=4,5\noffset=30%\nsize=30%\n"
		   "[cold]\nrw=randrw\nrwmixwrite=10\nplids=6\noffset=60%\nsize=30%\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p));
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0);
	CHECK(!strcmp(sval(vol, "path"), "/dev/ng0n1"));
	CHECK(json_is(vol, "fdp", "{\"pids\":[0,1,2,3,4,5,6],\"policy\":\"round-robin\"}"));
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(step(p, 0), "direct")));
	CHECK(json_is(step(p, 0), "placement", "[0,1,2,3]"));
	vw = cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "0");
	CHECK(json_is(cJSON_GetArrayItem(vw, 1), "placement", "[4,5]"));
	CHECK(json_is(cJSON_GetArrayItem(vw, 2), "placement", "[6]"));
	CHECK(has_note(notes, "ioengine=io_uring_cmd: NVMe read/write commands passed through"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* one job: the volume's own list and policy; random selection, ranges of IDs */
	p = import("[j]\nioengine=io_uring_cmd\nfilename=/dev/ng1n1\nrw=randwrite\n"
		   "dataplacement=fdp\nplids=1-3,7\nplid_select=random\nruntime=5\ntime_based\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p));
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0);
	CHECK(json_is(vol, "fdp", "{\"pids\":[1,2,3,7],\"policy\":\"random\"}"));
	CHECK(!cJSON_GetObjectItem(step(p, 0), "placement"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* a job without placement beside one with it: no directive on its writes */
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randwrite\nfdp=1\n"
		   "fdp_pli=2\nruntime=5\ntime_based\n"
		   "[b]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=write\nbs=128k\n"
		   "runtime=5\ntime_based\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p));
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0);
	CHECK(json_is(vol, "fdp", "{\"pids\":[2],\"policy\":\"fixed\"}"));
	vw = cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "0");
	CHECK(json_is(cJSON_GetArrayItem(vw, 1), "placement", "\"none\""));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* without plids fio takes every handle the namespace reports: "all" */
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randwrite\nfdp=1\n"
		   "runtime=5\ntime_based\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p));
	vol = p ? cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0) : NULL;
	CHECK(json_is(vol, "fdp", "{\"pids\":\"all\",\"policy\":\"round-robin\"}"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* beside a job with some handles: those as indexes of every handle */
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randwrite\nfdp=1\n"
		   "plid_select=random\n[b]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\n"
		   "rw=write\nfdp=1\nplids=3,5\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p));
	vol = p ? cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0) : NULL;
	CHECK(json_is(vol, "fdp", "{\"pids\":\"all\",\"policy\":\"random\"}"));
	vw = p ? cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "0")
	       : NULL;
	CHECK(json_is(cJSON_GetArrayItem(vw, 1), "placement", "[3,5]"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* jobs with lists of their own: the volume names handles 0..max, placements read as plids
	 */
	p = import("[hot]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randwrite\nfdp=1\n"
		   "plids=0,1\n[cold]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=write\n"
		   "fdp=1\nplids=3,4\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p));
	vol = p ? cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0) : NULL;
	CHECK(json_is(vol, "fdp", "{\"pids\":[0,1,2,3,4],\"policy\":\"round-robin\"}"));
	CHECK(json_is(step(p, 0), "placement", "[0,1]"));
	vw = p ? cJSON_GetObjectItem(cJSON_GetObjectItem(step(p, 0), "volume_workloads"), "0")
	       : NULL;
	CHECK(json_is(cJSON_GetArrayItem(vw, 1), "placement", "[3,4]"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* xNVMe's io_uring_cmd backend is the same passthrough; its emu backend one at a time */
	p = import("[j]\nioengine=xnvme\nxnvme_async=io_uring_cmd\nfilename=/dev/ng0n1\n"
		   "rw=randwrite\niodepth=16\nfdp=1\nfdp_pli=4,5\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p) && nval(step(p, 0), "iodepth") == 16);
	vol = p ? cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0) : NULL;
	CHECK(json_is(vol, "fdp", "{\"pids\":[4,5],\"policy\":\"round-robin\"}"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nioengine=xnvme\nfilename=/dev/ng0n1\nrw=randwrite\niodepth=16\n", &notes);
	CHECK(p && no_diffs() && nval(step(p, 0), "iodepth") == 1 &&
	      has_note(notes, "its emu backend: one thread over the NVMe ioctl"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nioengine=xnvme\nxnvme_async=thrpool\nfilename=/dev/ng0n1\nrw=read\n",
		   &notes);
	CHECK(!p && has_diff("t.fio:3: xnvme_async=thrpool"));
	cJSON_Delete(p);
	cJSON_Delete(notes);

	/* what has no equivalent: each a difference, and --lenient writes the job unplaced */
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randwrite\n"
		   "dataplacement=streams\nplids=1\nruntime=5\ntime_based\n",
		   &notes);
	CHECK(has_diff("t.fio:5: dataplacement=streams") && p && valid(p));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randwrite\nfdp=1\n"
		   "plids=0,1\nplid_select=random\nruntime=5\ntime_based\n"
		   "[b]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randwrite\nfdp=1\n"
		   "plids=2,3\nruntime=5\ntime_based\n",
		   &notes);
	CHECK(has_diff("job a: plid_select=random over some of /dev/ng0n1's") && p && valid(p));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/nvme0n1\nrw=read\n", &notes);
	CHECK(!p && has_diff("t.fio:2: ioengine=io_uring_cmd on /dev/nvme0n1"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[a]\nioengine=libaio\nfilename=/dev/nvme0n1\nrw=write\nfdp=1\nplids=0\n",
		   &notes);
	CHECK(has_diff("t.fio:5: fdp=1: FDP placement needs ioengine=io_uring_cmd") && p &&
	      valid(p));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=write\nfdp=1\n"
		   "plids=0\nplid_select=scheme\ndp_scheme=/tmp/s\n",
		   &notes);
	CHECK(has_diff("t.fio:7: plid_select=scheme") && has_diff("t.fio:8: dp_scheme"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[a]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=write\nplids=0-16\nfdp=1\n",
		   &notes);
	CHECK(has_diff("t.fio:5: plids=0-16: at most 16"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* I/O priorities, nowait, force_async and nice as fio's io_uring engine and job thread set them */
static void test_prio(void)
{
	cJSON *notes, *p;

	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=randread\nprio=3\n", &notes);
	CHECK(p && no_diffs() && valid(p));
	CHECK(p && !strcmp(sval(step(p, 0), "ioprio_class"), "be") &&
	      nval(step(p, 0), "ioprio") == 3);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=randread\nprioclass=1\n", &notes);
	CHECK(p && no_diffs() && !strcmp(sval(step(p, 0), "ioprio_class"), "rt") &&
	      !cJSON_GetObjectItem(step(p, 0), "ioprio"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nioengine=io_uring\nrw=randrw\n"
		   "cmdprio_percentage=30\ncmdprio_class=2\ncmdprio=5\nnowait=1\nforce_async=4\n"
		   "nice=5\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p));
	CHECK(p && nval(step(p, 0), "cmdprio_pct") == 30 &&
	      !strcmp(sval(step(p, 0), "cmdprio_class"), "be") &&
	      nval(step(p, 0), "cmdprio") == 5 &&
	      cJSON_IsTrue(cJSON_GetObjectItem(step(p, 0), "nowait")) &&
	      nval(step(p, 0), "force_async") == 4 && nval(step(p, 0), "nice") == 5);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* the default cmdprio class is rt, left to the profile's default */
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nioengine=libaio\ndirect=1\nrw=randread\n"
		   "cmdprio_percentage=10\n",
		   &notes);
	CHECK(p && no_diffs() && nval(step(p, 0), "cmdprio_pct") == 10 &&
	      !cJSON_GetObjectItem(step(p, 0), "cmdprio_class"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* what fio does not have, or bench-coord cannot do */
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=randread\ncmdprio_percentage=30\n", &notes);
	CHECK(has_diff("t.fio:5: cmdprio_percentage=30: fio has it on io_uring and libaio only"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nioengine=io_uring\nrw=randrw\n"
		   "cmdprio_percentage=30,10\npriohint=1\ncmdprio_bssplit=4k/10\n",
		   &notes);
	CHECK(has_diff("t.fio:6: cmdprio_percentage=30,10: reads and writes use different") &&
	      has_diff("t.fio:7: priohint=1") && has_diff("t.fio:8: cmdprio_bssplit"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nioengine=io_uring_cmd\nfilename=/dev/ng0n1\nrw=randread\nprio=1\n"
		   "nowait=1\n",
		   &notes);
	CHECK(has_diff("t.fio:5: prio=1 with ioengine=io_uring_cmd") &&
	      has_diff("t.fio:6: nowait=1 with ioengine=io_uring_cmd"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=read\nnice=-21\nforce_async=2\n", &notes);
	CHECK(has_diff("t.fio:5: nice=-21: expected -20..19") &&
	      has_diff("t.fio:6: force_async=2: fio has it on io_uring and io_uring_cmd only"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* the null engine drops a priority: inert */
	p = import("[j]\nioengine=null\nsize=1m\nrw=read\nprio=2\n", &notes);
	CHECK(p && no_diffs() && !cJSON_GetObjectItem(step(p, 0), "ioprio_class") &&
	      has_note(notes, "prio"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* steadystate's long names, numa_cpu_nodes, numa_mem_policy, userspace_reap, wait_for */
static void test_small_opts(void)
{
	cJSON *notes, *p;
	const cJSON *ss;

	p = import("[j]\nfilename=/dev/sdb\nrw=read\nsteadystate=iops:2%\n"
		   "steadystate_duration=10\nsteadystate_ramp_time=5\n"
		   "steadystate_check_interval=1\ntime_based\nruntime=60\n",
		   &notes);
	ss = p ? cJSON_GetObjectItem(step(p, 0), "stop_steady") : NULL;
	CHECK(p && no_diffs() && ss && nval(ss, "window") == 10 && nval(ss, "ramp") == 5);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\nnuma_cpu_nodes=0,2-3\n"
		   "numa_mem_policy=local\nuserspace_reap=1\nioengine=libaio\n",
		   &notes);
	CHECK(p && no_diffs() && valid(p) &&
	      !strcmp(sval(step(p, 0), "cpus_allowed"), "numa:0,2-3") &&
	      has_note(notes, "userspace_reap, numa_mem_policy"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\nnuma_cpu_nodes=all\n"
		   "numa_mem_policy=interleave:0-1\n",
		   &notes);
	CHECK(p && !cJSON_GetObjectItem(step(p, 0), "cpus_allowed") &&
	      has_diff("t.fio:6: numa_mem_policy=interleave:0-1"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\ncpus_allowed=0\nnuma_cpu_nodes=1\n",
		   &notes);
	CHECK(has_diff("t.fio:6: numa_cpu_nodes=1 beside cpus_allowed"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* wait_for the whole group before it: a later step, as a stonewall */
	p = import("[a]\nfilename=/tmp/x\nsize=1m\nrw=write\n"
		   "[b]\nfilename=/tmp/x\nsize=1m\nrw=read\nwait_for=a\n"
		   "[c]\nfilename=/tmp/y\nsize=1m\nrw=read\nwait_for=a\n",
		   &notes);
	CHECK(p && cJSON_GetArraySize(cJSON_GetObjectItem(p, "steps")) == 2 && no_diffs());
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* a waitee beside others in its group, an unknown waitee, a job beside a waiter */
	p = import("[a]\nfilename=/tmp/x\nsize=1m\nrw=write\n[c]\nfilename=/tmp/y\nsize=1m\n"
		   "rw=write\n[b]\nfilename=/tmp/x\nsize=1m\nrw=read\nwait_for=a\n"
		   "[d]\nfilename=/tmp/z\nsize=1m\nrw=read\n[e]\nfilename=/tmp/z\nsize=1m\n"
		   "rw=read\nwait_for=zz\n",
		   &notes);
	CHECK(has_diff("t.fio:13: wait_for=a: fio starts the job when a is done while the other "
		       "1 jobs") &&
	      has_diff("job d: starts with the job before it that waits") &&
	      has_diff("t.fio:22: wait_for=zz: no job of that name"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

/* fio's whole option table: aliases read as their option, defaults inert, names fio refuses */
static void test_fio_names(void)
{
	cJSON *notes, *p;

	/* nr_files is nrfiles, fileoffset is offset, ratemin is rate_min: fio's aliases */
	p = import("[j]\ndirectory=/tmp/d\nnr_files=2\nfilesize=1m\nfileoffset=4k\nrw=read\n"
		   "ratemin=1m\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() &&
	      cJSON_GetArraySize(cJSON_GetObjectItem(p, "volumes")) == 2);
	CHECK(p && !strcmp(sval(vol(p, 0), "offset"), "4k") && has_note(notes, "ratemin"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* an alias set after its option overrides it, as in fio */
	p = import("[j]\ndirectory=/tmp/d\nnrfiles=4\nnr_files=3\nfilesize=1m\nrw=read\n", &notes);
	CHECK(p && no_diffs() && cJSON_GetArraySize(cJSON_GetObjectItem(p, "volumes")) == 3);
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* options at their default change nothing; set, they are each a difference */
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\nwrite_hint=none\nwritefua=0\n"
		   "io_submit_mode=inline\nthinktime_blocks_type=complete\nverify_interval=512\n"
		   "log_issue_time=1\ncgroup=bench\nverifysort=1\nioengine=io_uring\n",
		   &notes);
	CHECK(p && valid(p) && no_diffs() &&
	      has_note(notes, "write_hint, writefua, io_submit_mode, thinktime_blocks_type"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\nwrite_hint=short\nwritefua\n"
		   "io_submit_mode=offload\nthinktime_blocks_type=issue\nexec_prerun=sync\n"
		   "percentage_sequential=50\nioengine=io_uring\n",
		   &notes);
	CHECK(cJSON_GetArraySize(s_diffs) == 6 &&
	      has_diff("t.fio:5: write_hint=short: a write-lifetime hint") &&
	      has_diff("t.fio:6: writefua: FUA writes") &&
	      has_diff("t.fio:7: io_submit_mode=offload") &&
	      has_diff("t.fio:8: thinktime_blocks_type=issue") &&
	      has_diff("t.fio:9: exec_prerun=sync: a command run before the job") &&
	      has_diff("t.fio:10: percentage_sequential=50: a deprecated option: fio stops"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* a name no fio knows (a misspelling): fio itself stops at it */
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\n"
		   "io_engine=libaio\nrandom-distribution=zipf:1.2\ngroup_id=1\n",
		   &notes);
	CHECK(
	    has_diff("t.fio:5: io_engine=libaio: not a fio option: fio stops with 'Bad option'") &&
	    has_diff("t.fio:6: random-distribution=zipf:1.2: not a fio option") &&
	    has_diff("t.fio:7: group_id=1: not a fio option"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* an engine's own option under another engine: fio stops at it */
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\nioengine=libaio\nfixedbufs=1\n"
		   "[k]\nfilename=/tmp/y\nsize=1m\nrw=write\nhipri\nstonewall\n",
		   &notes);
	CHECK(cJSON_GetArraySize(s_diffs) == 2 &&
	      has_diff("t.fio:6: fixedbufs: an option of fio's io_uring/io_uring_cmd engine: "
		       "with ioengine=libaio fio stops with 'Bad option'") &&
	      has_diff("t.fio:11: hipri: an option of fio's io_uring/io_uring_cmd/pvsync2/xnvme "
		       "engine: with ioengine=psync"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
	/* an option of an engine bench-coord does not drive names that engine */
	p = import("[j]\nfilename=/tmp/x\nsize=1m\nrw=write\nhttp_host=s3.example\n", &notes);
	CHECK(has_diff("t.fio:5: http_host=s3.example: an option of fio's http engine"));
	cJSON_Delete(p);
	cJSON_Delete(notes);
}

int main(void)
{
	test_job_shapes();
	test_shares_and_math();
	test_step_volume_workloads();
	test_parse();
	test_options();
	test_comments();
	test_size_based();
	test_concurrent();
	test_clones();
	test_include();
	test_engines();
	test_refuse_lenient();
	test_stonewall();
	test_pov();
	test_steady_fill();
	test_fdp();
	test_prio();
	test_small_opts();
	test_fio_names();
	cJSON_Delete(s_diffs);
	TEST_DONE();
}
