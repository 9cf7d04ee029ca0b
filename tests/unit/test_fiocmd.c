/* test_fiocmd - fio command lines read as the shell splits them and as fio builds jobs from
 * them: the same profile as the job file with the same options, groups from '&' and wait,
 * notes and differences at the line they were written on */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/fiocmd.h"
#include "import/fiojob.h"
#include "import/import.h"
#include "bc_test.h"

static struct bc_import_opts s_im = {.src = "t.sh", .agent = "local", .endpoint = "local"};

static cJSON *s_notes, *s_diffs;

/* the profile of text read as commands (NULL: it did not parse, or nothing mapped) */
static cJSON *cmd(const char *text)
{
	struct bc_import_doc *d = NULL;
	char err[512];
	cJSON *p;

	cJSON_Delete(s_notes);
	cJSON_Delete(s_diffs);
	s_notes = cJSON_CreateArray();
	s_diffs = cJSON_CreateArray();
	if (bc_fio_cmd_parse(text, "t.sh", s_notes, s_diffs, &d, err, sizeof(err))) {
		fprintf(stderr, "parse: %s\n", err);
		return NULL;
	}
	p = bc_fio_to_profile(d, &s_im, s_notes, s_diffs, err, sizeof(err));
	bc_import_doc_free(&d);
	return p;
}

/* the profile of a job file, steps and volumes only (names and descriptions differ) */
static char *steps_of(cJSON *p)
{
	cJSON *o = cJSON_CreateObject();
	char *s;

	cJSON_AddItemToObject(o, "v", cJSON_Duplicate(cJSON_GetObjectItem(p, "volumes"), 1));
	cJSON_AddItemToObject(o, "s", cJSON_Duplicate(cJSON_GetObjectItem(p, "steps"), 1));
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

static char *jobfile_steps(const char *text)
{
	struct bc_import_doc *d = NULL;
	cJSON *n = cJSON_CreateArray(), *df = cJSON_CreateArray(), *p;
	char err[512], *s = NULL;

	if (!bc_fio_parse(text, "t.fio", &d, err, sizeof(err))) {
		p = bc_fio_to_profile(d, &s_im, n, df, err, sizeof(err));
		s = p ? steps_of(p) : NULL;
		cJSON_Delete(p);
	}
	bc_import_doc_free(&d);
	cJSON_Delete(n);
	cJSON_Delete(df);
	return s;
}

static bool has(const cJSON *arr, const char *needle)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, arr) if (strstr(n->valuestring, needle)) return true;
	fprintf(stderr, "nothing with \"%s\" among:\n", needle);
	cJSON_ArrayForEach(n, arr) fprintf(stderr, "  %s\n", n->valuestring);
	return false;
}

static int nsteps(const cJSON *p)
{
	return cJSON_GetArraySize(cJSON_GetObjectItem(p, "steps"));
}

/* which text is commands and which a job file */
static void test_detect(void)
{
	CHECK(bc_fio_cmd_is("fio --name=a --rw=read\n"));
	CHECK(bc_fio_cmd_is("#!/bin/bash\n# a comment\nDEV=/dev/sdb\nsudo -E fio --name=a\n"));
	CHECK(bc_fio_cmd_is("mkdir -p /mnt/x\n/usr/local/bin/fio --name=a\n"));
	CHECK(bc_fio_cmd_is("for i in 1 2; do fio --name=a; done\n"));
	CHECK(bc_fio_cmd_is("taskset -c 1 fio --name=a\n"));
	CHECK(!bc_fio_cmd_is("; comment\n[global]\nrw=read\n[a]\n"));
	CHECK(!bc_fio_cmd_is("[job]\nfilename=fio\n"));
	CHECK(!bc_fio_cmd_is("echo hello\nls\n"));
	CHECK(!bc_fio_cmd_is(""));
}

/* seed 001's README: two fio commands started with '&' are one group, as the job file */
static void test_seed001(void)
{
	const char *sh = "# Hot job (4KB random write)\n"
			 "fio --name=hot --rw=randwrite --bs=4k --numjobs=4 \\\n"
			 "    --filename=/dev/nvme0n1 --ioengine=libaio \\\n"
			 "    --iodepth=32 --runtime=3600 --time_based &\n"
			 "\n"
			 "# Cold job (128KB sequential write)\n"
			 "fio --name=cold --rw=write --bs=128k --numjobs=1 \\\n"
			 "    --filename=/dev/nvme0n1 --ioengine=libaio \\\n"
			 "    --iodepth=32 --runtime=3600 --time_based &\n";
	const char *jf = "[hot]\nrw=randwrite\nbs=4k\nnumjobs=4\nfilename=/dev/nvme0n1\n"
			 "ioengine=libaio\niodepth=32\nruntime=3600\ntime_based\n"
			 "[cold]\nrw=write\nbs=128k\nnumjobs=1\nfilename=/dev/nvme0n1\n"
			 "ioengine=libaio\niodepth=32\nruntime=3600\ntime_based\n";
	cJSON *p = cmd(sh);
	char *a = p ? steps_of(p) : NULL, *b = jobfile_steps(jf);

	CHECK(p && nsteps(p) == 1);
	CHECK(cJSON_GetArraySize(s_diffs) == 0);
	CHECK_MSG(a && b && !strcmp(a, b), "commands %s\njob file %s", a ? a : "-", b ? b : "-");
	free(a);
	free(b);
	cJSON_Delete(p);
}

/* a foreground command, `wait` and ';' end a group; '&' does not */
static void test_groups(void)
{
	cJSON *p = cmd("fio --name=a --filename=/f1 --size=1g --rw=randread --runtime=10 &\n"
		       "fio --name=b --filename=/f2 --size=1g --rw=randwrite --runtime=10 &\n"
		       "wait\n"
		       "fio --name=c --filename=/f1 --size=1g --rw=read --runtime=5; "
		       "fio --name=d --filename=/f1 --size=1g --rw=write --runtime=5\n");

	CHECK(p && nsteps(p) == 3);
	cJSON_Delete(p);
	/* a background fio that may outlive the foreground one is said */
	p = cmd("fio --name=a --filename=/f1 --size=1g --rw=read --runtime=60 &\n"
		"fio --name=b --filename=/f2 --size=1g --rw=read --runtime=5\n"
		"fio --name=c --filename=/f2 --size=1g --rw=read --runtime=5\n");
	CHECK(p && nsteps(p) == 2);
	CHECK(has(s_notes, "t.sh:3: fio started in the background at line 1 may still run"));
	cJSON_Delete(p);
}

/* the shell's words: variables, quotes, -opt and --opt, "--opt value", redirections, pipes */
static void test_words(void)
{
	const char *sh =
	    "DEV=/dev/sdz\n"
	    "RT=30\n"
	    "sudo -u root fio -name='my job' -filename=\"$DEV\" -rw randread --bs 8k \\\n"
	    "  --runtime=${RT} --time_based --size=${SIZE:-2g} --group_reporting \\\n"
	    "  --output-format=json --output out.json > log 2>&1 | tee x.log\n"
	    "sleep 5\n";
	cJSON *p = cmd(sh), *st, *vol;

	CHECK(p && nsteps(p) == 1);
	st = p ? cJSON_GetArrayItem(cJSON_GetObjectItem(p, "steps"), 0) : NULL;
	vol = p ? cJSON_GetArrayItem(cJSON_GetObjectItem(p, "volumes"), 0) : NULL;
	CHECK(st && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(st, "name")), "my-job"));
	CHECK(st && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(st, "rw")), "randread"));
	CHECK(st && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(st, "bs")), "8k"));
	CHECK(st && cJSON_GetNumberValue(cJSON_GetObjectItem(st, "runtime")) == 30);
	CHECK(vol && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(vol, "path")), "/dev/sdz"));
	CHECK(cJSON_GetArraySize(s_diffs) == 0);
	CHECK(has(s_notes, "t.sh:5: --output-format: fio's own output"));
	CHECK(has(s_notes, "t.sh:6: sleep: not fio, not imported"));
	cJSON_Delete(p);
}

/* options before --name are the command's defaults; two processes may name jobs alike */
static void test_defaults_and_names(void)
{
	cJSON *p = cmd("fio --filename=/f1 --size=1g --runtime=5 --name=r --rw=read "
		       "--name=w --rw=write --stonewall\n"
		       "fio --filename=/f2 --size=1g --runtime=7 --name=r --rw=randread\n");
	const cJSON *s;
	int n = 0;

	CHECK(p && nsteps(p) == 3);
	const cJSON *steps = p ? cJSON_GetObjectItem(p, "steps") : NULL;

	cJSON_ArrayForEach(s, steps)
	{
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(s, "name"));
		double rt = cJSON_GetNumberValue(cJSON_GetObjectItem(s, "runtime"));

		n++;
		CHECK(n != 1 || (!strcmp(name, "r") && rt == 5));
		CHECK(n != 2 || (!strcmp(name, "w") && rt == 5));
		CHECK(n != 3 || (!strcmp(name, "r-2") && rt == 7));
	}
	CHECK(has(s_notes, "two jobs are named r"));
	cJSON_Delete(p);
}

/* what would change the load is a difference at its line; what cannot be read is an error */
static void test_refusals(void)
{
	struct bc_import_doc *d = NULL;
	cJSON *n = cJSON_CreateArray(), *df = cJSON_CreateArray();
	char err[512];
	cJSON *p;

	p = cmd("fio --name=a --filename=$NOPE_NOT_SET --rw=read --size=1g\n");
	CHECK(has(s_diffs, "t.sh:1: $NOPE_NOT_SET is not set"));
	cJSON_Delete(p);
	p = cmd("echo x\ntaskset -c 0-3 fio --name=a --filename=/f --rw=read --size=1g\n");
	CHECK(has(s_diffs, "t.sh:2: taskset:"));
	cJSON_Delete(p);
	p = cmd("fio --readonly --name=a --filename=/f --rw=randwrite --size=1g\n");
	CHECK(has(s_diffs, "t.sh:1: --readonly: fio refuses the writes"));
	cJSON_Delete(p);
	p = cmd("fio --readonly --name=a --filename=/f --rw=randread --size=1g --runtime=5\n");
	CHECK(p && cJSON_GetArraySize(s_diffs) == 0);
	cJSON_Delete(p);
	p = cmd("fio --client=host1 --name=a --filename=/f --rw=read --size=1g\n");
	CHECK(has(s_diffs, "t.sh:1: --client: fio's client mode"));
	cJSON_Delete(p);
	p = cmd("fio --filename=/f --rw=read\n");
	CHECK(has(s_diffs, "t.sh:1: fio runs no job without --name="));
	cJSON_Delete(p);
	p = cmd("fio --name=a --filename=$(ls /dev/sd* | head -1) --rw=read --size=1g\n");
	CHECK(has(s_diffs, "t.sh:1: $(...): a command substitution"));
	cJSON_Delete(p);

	CHECK(bc_fio_cmd_parse("x=1\nfor i in 1 2\ndo fio --name=a\ndone\n", "t.sh", n, df, &d, err,
			       sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "t.sh:2: shell control flow"), "%s", err);
	CHECK(!d);
	CHECK(bc_fio_cmd_parse("fio --name='a --rw=read\n", "t.sh", n, df, &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK_MSG(strstr(err, "a quote or ${...} that does not end"), "%s", err);
	CHECK(bc_fio_cmd_parse("echo nothing here\n", "t.sh", n, df, &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK_MSG(strstr(err, "no fio command"), "%s", err);
	cJSON_Delete(n);
	cJSON_Delete(df);
}

/* a job file named on the command line: the command's options are defaults under it */
static void test_jobfile(void)
{
	char dir[] = "/tmp/bc-fiocmd.XXXXXX", path[512], sh[1024];
	cJSON *p, *st;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/j.fio", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("[global]\nruntime=9\n[j]\nrw=randread\nsize=1g\nfilename=/f\n", f);
	fclose(f);
	snprintf(sh, sizeof(sh), "fio --runtime=3 --bs=16k --output-format=json %s\n", path);
	p = cmd(sh);
	st = p ? cJSON_GetArrayItem(cJSON_GetObjectItem(p, "steps"), 0) : NULL;
	/* the file's [global] runtime wins over the command line's; bs comes from the command */
	CHECK(st && cJSON_GetNumberValue(cJSON_GetObjectItem(st, "runtime")) == 9);
	CHECK(st && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(st, "bs")), "16k"));
	cJSON_Delete(p);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_detect();
	test_seed001();
	test_groups();
	test_words();
	test_defaults_and_names();
	test_refusals();
	test_jobfile();
	cJSON_Delete(s_notes);
	cJSON_Delete(s_diffs);
	TEST_DONE();
}
