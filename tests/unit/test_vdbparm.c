/*
 * test_vdbparm - the vdbench parameter-file reader (vdbparm.c): comments,
 * definitions and their pairs with lines, lists kept whole, continuation
 * lines, defaults, general parameters, syntax errors with file:line; and
 * the mapping of one small file (threads, elapsed, xfersize distribution,
 * a refused seekpct) without going through the command; file system
 * workloads (fsd=, fwd=, rd= with fwd=, fwdrate=, format=) as file sets, each
 * difference with its file:line, and every profile written valid. vdbench's
 * own rules where files met them: the rd's threads over the sd's, spread
 * over an sd's hosts; pause= as idle time; what vdbench accepts (a wd
 * without sd=, host=, seekpct=rand, fwd=format); loop ranges of sizes,
 * fractional shares, several hds on one system, an unreadable include=.
 */
#include <errno.h>
#include <string.h>

#include "import/import.h"
#include "import/vdbparm.h"
#include "profile/profile.h"
#include "bc_test.h"

static const char *s_text = "* a comment\n"
			    "# another\n"
			    "/ and a third\n"
			    "messagescan=no\n"
			    "sd=default,openflags=o_direct\n"
			    "sd=sd1,lun=/dev/sdb, size=1g\n"
			    "wd=wd1,sd=sd1,\n"
			    "   xfersize=(4k,50,8k,50),rdpct=70   # mixed sizes\n"
			    "rd=rd1,wd=wd1,threads=16,elapsed=60\n"
			    "   interval=1\n";

static const struct bc_import_kv *s_kv(const struct bc_import_sec *d, const char *key)
{
	int i;

	for (i = 0; i < d->nkv; i++)
		if (!strcmp(d->kv[i].key, key))
			return &d->kv[i];
	return NULL;
}

static void s_parse(void)
{
	struct bc_import_doc *p = NULL;
	const struct bc_import_kv *kv;
	char err[256];

	CHECK(!bc_vdb_parse(s_text, "t.parm", &p, err, sizeof(err)));
	if (!p)
		return;
	CHECK(p->nsecs == 5);
	CHECK(!p->secs[0].kind[0] && p->secs[0].nkv == 1 &&
	      !strcmp(p->secs[0].kv[0].key, "messagescan") && p->secs[0].kv[0].line == 4);
	CHECK(!strcmp(p->secs[1].kind, "sd") && !strcmp(p->secs[1].name, "default"));
	CHECK(!strcmp(p->secs[2].name, "sd1") && p->secs[2].nkv == 2);
	kv = s_kv(&p->secs[2], "size");
	CHECK(kv && !strcmp(kv->val, "1g") && kv->line == 6); /* blank after the comma trimmed */
	/* a line ending in a comma goes on; the list stays one value; the comment goes */
	kv = s_kv(&p->secs[3], "xfersize");
	CHECK(kv && !strcmp(kv->val, "(4k,50,8k,50)") && kv->line == 8);
	kv = s_kv(&p->secs[3], "rdpct");
	CHECK(kv && !strcmp(kv->val, "70"));
	/* a line starting with a key that begins nothing continues the definition */
	kv = s_kv(&p->secs[4], "interval");
	CHECK(kv && kv->line == 10 && !strcmp(p->secs[4].kind, "rd"));
	bc_import_doc_free(&p);
	CHECK(!p);

	/* vdbench's own copy of a parameter file (output/parmfile.html): the markup goes */
	CHECK(!bc_vdb_parse("<title>Vdbench out/parmfile.html</title><pre>\n\n"
			    "* Contents of parameter file: /x.parm\nsd=sd1,lun=/dev/sdb\n</pre>\n",
			    "h.html", &p, err, sizeof(err)));
	CHECK(p && p->nsecs == 1 && !strcmp(p->secs[0].kind, "sd") && p->secs[0].line == 4);
	bc_import_doc_free(&p);

	CHECK(bc_vdb_parse("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1,rdpct\n", "x.parm", &p, err,
			   sizeof(err)) == -EINVAL);
	CHECK_MSG(!strcmp(err, "x.parm:2: 'rdpct' is not keyword=value"), "%s", err);
	CHECK(!p);
}

static void s_map(void)
{
	struct bc_import_doc *p = NULL;
	struct bc_import_opts im = {.src = "t.parm", .agent = "local", .endpoint = "local"};
	cJSON *notes = cJSON_CreateArray(), *diffs = cJSON_CreateArray(), *prof;
	const cJSON *st;
	char err[256];

	CHECK(!bc_vdb_parse(s_text, "t.parm", &p, err, sizeof(err)));
	prof = bc_vdb_to_profile(p, &im, notes, diffs, err, sizeof(err));
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(st, "bs")), "4k/50:8k/50"));
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(st, "rw")), "randrw"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(st, "rwmixread")) == 70);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(st, "iodepth")) == 16);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(st, "ramp")) == 1);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(st, "runtime")) == 59);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(prof, "defaults"), "direct")));
	cJSON_Delete(prof);
	bc_import_doc_free(&p);

	/* seekpct=30: 30% seek, the rest continue sequentially; "thread" is threads (prefix) */
	CHECK(!bc_vdb_parse("sd=sd1,lun=/dev/sdb,openflag=o_direct\nwd=wd1,sd=sd1,seekpct=30\n"
			    "rd=rd1,wd=wd1,thread=4\n",
			    "s.parm", &p, err, sizeof(err)));
	prof = bc_vdb_to_profile(p, &im, notes, diffs, err, sizeof(err));
	CHECK_MSG(cJSON_GetArraySize(diffs) == 0, "%s",
		  cJSON_GetArraySize(diffs) ? cJSON_GetArrayItem(diffs, 0)->valuestring : "");
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(st, "rw")), "randread") &&
	      cJSON_GetNumberValue(cJSON_GetObjectItem(st, "seq_pct")) == 70 &&
	      cJSON_GetNumberValue(cJSON_GetObjectItem(st, "iodepth")) == 4);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(prof, "defaults"), "direct")));
	cJSON_Delete(prof);
	bc_import_doc_free(&p);
	cJSON_Delete(diffs);
	diffs = cJSON_CreateArray();

	/* vdbench's defaults: elapsed 30, threads 8 */
	CHECK(!bc_vdb_parse("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1\n", "s.parm", &p,
			    err, sizeof(err)));
	prof = bc_vdb_to_profile(p, &im, notes, diffs, err, sizeof(err));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(st, "runtime")) == 29);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(st, "iodepth")) == 8);
	cJSON_Delete(prof);
	bc_import_doc_free(&p);
	cJSON_Delete(notes);
	cJSON_Delete(diffs);
}

/* text imported: the profile (validated as `bench-coord validate` would), its diffs in *diffs */
static cJSON *s_fs_import(const char *text, cJSON **diffs)
{
	struct bc_import_opts im = {.src = "f.parm", .agent = "local", .endpoint = "local"};
	struct bc_import_doc *p = NULL;
	struct bc_profile *bp = NULL;
	cJSON *notes = cJSON_CreateArray(), *prof = NULL;
	char err[512], *t;

	*diffs = cJSON_CreateArray();
	CHECK_MSG(!bc_vdb_parse(text, "f.parm", &p, err, sizeof(err)), "%s", err);
	if (p)
		prof = bc_vdb_to_profile(p, &im, notes, *diffs, err, sizeof(err));
	bc_import_doc_free(&p);
	cJSON_Delete(notes);
	if (!prof)
		return NULL;
	/* what --lenient writes: valid whatever the differences */
	t = cJSON_Print(prof);
	CHECK_MSG(!bc_profile_parse(t, "f.json", &bp, err, sizeof(err)), "invalid: %s\n%s", err, t);
	bc_profile_destroy(&bp);
	free(t);
	return prof;
}

static bool s_diff_has(const cJSON *diffs, const char *want)
{
	const cJSON *d;

	cJSON_ArrayForEach(d, diffs) if (strstr(d->valuestring, want)) return true;
	return false;
}

static const char *s_str(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(o, k)) ?: "";
}

static double s_num(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItem(o, k));
}

/* text imports with a difference that starts with want (a refusal naming file:line) */
static void s_refused(const char *text, const char *want)
{
	cJSON *diffs, *prof = s_fs_import(text, &diffs);

	CHECK_MSG(s_diff_has(diffs, want), "no \"%s\" among the differences of:\n%s", want, text);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

static void s_fs(void)
{
	cJSON *prof, *diffs;
	const cJSON *vol, *st, *fs, *vw;

	/* juicefs's small-file test: a file set, random writes in randomly chosen files */
	prof = s_fs_import("data_errors=1\n"
			   "fsd=fsd1,anchor=/tmp/vdbench/small,depth=3,width=10,files=10,size=128k,"
			   "openflags=o_direct\n"
			   "fwd=fwd1,fsd=fsd1,operation=write,xfersize=128k,fileio=random,"
			   "fileselect=random,threads=4\n"
			   "fwd=fwd3,fsd=fsd1,rdpct=70,xfersize=(4k,50,64k,50),fileio=random,"
			   "fileselect=random,threads=4\n"
			   "rd=rd1,fwd=fwd1,fwdrate=max,format=restart,elapsed=60,interval=1\n"
			   "rd=rd3,fwd=fwd3,fwdrate=max,format=restart,elapsed=60,interval=1\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 0);
	fs = cJSON_GetObjectItem(vol, "fileset");
	CHECK(!strcmp(s_str(vol, "path"), "/tmp/vdbench/small"));
	CHECK(s_num(fs, "depth") == 3 && s_num(fs, "width") == 10 && s_num(fs, "files") == 10 &&
	      s_num(fs, "sizes") == 131072);
	/* every file set opened with O_DIRECT: the profile's default */
	CHECK(!cJSON_GetObjectItem(vol, "workload") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(prof, "defaults"), "direct")));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(s_str(st, "rw"), "randwrite") && !strcmp(s_str(st, "fileselect"), "random"));
	CHECK(!strcmp(s_str(st, "bs"), "128k") && s_num(st, "numjobs") == 4 &&
	      s_num(st, "iodepth") == 1 && s_num(st, "ramp") == 1 && s_num(st, "runtime") == 59);
	CHECK(!cJSON_GetObjectItem(st, "volume_workloads") &&
	      !cJSON_GetObjectItem(st, "file_shared"));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 1);
	CHECK(!strcmp(s_str(st, "rw"), "randrw") && s_num(st, "rwmixread") == 70 &&
	      !strcmp(s_str(st, "bs"), "4k/50:64k/50"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* sizes by share and (n,0); two fwds at once by skew of a rate, sharing files;
	 * format=only is one sequential write pass; format=yes builds the tree anew */
	prof =
	    s_fs_import("fsd=default,depth=1,width=2,files=20\n"
			"fsd=a,anchor=ta,sizes=(32k,10,64k,90)\n"
			"fsd=b,anchor=tb,sizes=(10m,0)\n"
			"fwd=r,fsd=a,operation=read,fileio=(random,shared),xfersize=4k,threads=8,"
			"skew=30\n"
			"fwd=w,fsd=a,operation=write,fileio=sequential,xfersize=64k,threads=2\n"
			"fwd=f,fsd=b,threads=3\n"
			"rd=fmt,fwd=(r,f),fwdrate=max,format=only\n"
			"rd=mix,fwd=(r,w),fwdrate=1000,format=yes,elapsed=10,warmup=5\n"
			"rd=max,fwd=(r,w),fwdrate=max,elapsed=10\n",
			&diffs);
	CHECK_MSG(prof && !cJSON_GetArraySize(diffs), "%s",
		  cJSON_GetArraySize(diffs) ? cJSON_GetArrayItem(diffs, 0)->valuestring : "");
	vol = cJSON_GetObjectItem(prof, "volumes");
	fs = cJSON_GetObjectItem(cJSON_GetArrayItem(vol, 0), "fileset");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(fs, "sizes")) == 2 &&
	      s_num(cJSON_GetArrayItem(cJSON_GetObjectItem(fs, "sizes"), 1), "pct") == 90);
	fs = cJSON_GetObjectItem(cJSON_GetArrayItem(vol, 1), "fileset");
	CHECK(s_num(cJSON_GetArrayItem(cJSON_GetObjectItem(fs, "sizes"), 0), "pct") == 0);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(s_str(st, "name"), "fmt") && !strcmp(s_str(st, "rw"), "write") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(st, "size_based")) &&
	      !strcmp(s_str(st, "fileset_format"), "fresh") && s_num(st, "numjobs") == 8);
	vw = cJSON_GetObjectItem(st, "volume_workloads");
	/* a format run is vdbench's format_fwd's: 8 threads of 128k on each file set, alike */
	CHECK(!vw && !strcmp(s_str(st, "bs"), "128k") && !cJSON_GetObjectItem(st, "flow"));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 1);
	vw = cJSON_GetObjectItem(cJSON_GetObjectItem(st, "volume_workloads"), "0");
	CHECK(cJSON_GetArraySize(vw) == 2 && s_num(st, "numjobs") == 8 && s_num(st, "ramp") == 5 &&
	      s_num(st, "runtime") == 10 && !strcmp(s_str(st, "fileset_format"), "fresh"));
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(vw, 0), "rw"), "randread") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(vw, 0), "file_shared")) &&
	      s_num(cJSON_GetArrayItem(vw, 0), "rate_iops") == 300);
	/* the fwd without skew= takes what the others leave */
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(vw, 1), "rw"), "write") &&
	      s_num(cJSON_GetArrayItem(vw, 1), "rate_iops") == 700 &&
	      s_num(cJSON_GetArrayItem(vw, 1), "jobs") == 2);
	/* volume b idles in a step that does not use it */
	CHECK(
	    cJSON_IsArray(cJSON_GetObjectItem(cJSON_GetObjectItem(st, "volume_workloads"), "1")) &&
	    !cJSON_GetArraySize(
		cJSON_GetObjectItem(cJSON_GetObjectItem(st, "volume_workloads"), "1")));
	/* at fwdrate=max the skew keeps the counts in proportion */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 2);
	vw = cJSON_GetObjectItem(cJSON_GetObjectItem(st, "volume_workloads"), "0");
	CHECK(s_num(cJSON_GetArrayItem(vw, 0), "flow") == 3000 &&
	      s_num(cJSON_GetArrayItem(vw, 1), "flow") == 7000 &&
	      !cJSON_GetObjectItem(cJSON_GetArrayItem(vw, 0), "fileset_format"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* a fwd's threads over its fsds: RD_entry's max(1, threads / fsds), rounding down */
	prof =
	    s_fs_import("fsd=default,depth=0,files=4,size=64k\nfsd=f1,anchor=a1\n"
			"fsd=f2,anchor=a2\nfwd=r,fsd=(f1-f2),threads=5\nrd=r,fwd=r,fwdrate=max\n",
			&diffs);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(prof && s_num(st, "numjobs") == 2); /* 5 / 2: vdbench runs 2 on each, not 3 */
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* numbered ranges of names; format=clean after the last run: the tree would stay */
	prof = s_fs_import("fsd=default,depth=0,files=4,size=64k\nfsd=f1,anchor=a1\n"
			   "fsd=f2,anchor=a2\nfsd=f3,anchor=a3\n"
			   "fwd=r,fsd=(f1-f2),threads=2\nrd=r,fwd=r,fwdrate=max\n"
			   "rd=c,fwd=r,fwdrate=max,format=clean\n",
			   &diffs);
	vw = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0),
				 "volume_workloads");
	CHECK(prof && cJSON_GetArraySize(cJSON_GetObjectItem(prof, "steps")) == 1);
	CHECK(cJSON_IsObject(cJSON_GetObjectItem(vw, "1")) ||
	      !cJSON_GetObjectItem(vw, "1")); /* f2 runs */
	CHECK(cJSON_IsArray(cJSON_GetObjectItem(vw, "2")) &&
	      !cJSON_GetArraySize(cJSON_GetObjectItem(vw, "2"))); /* f3 idles */
	CHECK(
	    s_diff_has(diffs, "f.parm:7: format=clean: fsd=f1's tree deleted after its last run"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/*
	 * a shared fsd on two hosts: a volume on each with its half of the files,
	 * the fwd's threads split over them, the rd's fwdrate the total over both
	 */
	prof = s_fs_import("hd=h1,system=10.0.0.1\nhd=h2,system=10.0.0.2\n"
			   "fsd=f,anchor=/x,depth=0,files=4,size=64k,shared=yes\n"
			   "fwd=w,fsd=f,threads=2\nrd=r,fwd=w,fwdrate=100,maxdata=2\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs) &&
	      cJSON_GetArraySize(cJSON_GetObjectItem(prof, "volumes")) == 2);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	vw = cJSON_GetObjectItem(st, "volume_workloads");
	CHECK(s_num(cJSON_GetObjectItem(vw, "0"), "rate_iops") == 50 &&
	      s_num(cJSON_GetObjectItem(vw, "1"), "rate_iops") == 50);
	CHECK(s_num(st, "numjobs") == 1); /* threads=2 over the two hosts */
	/* maxdata=2: twice the tree, each volume's half once: 2 x 4 x 64k */
	CHECK(s_num(st, "stop_bytes") == 2.0 * 4 * 65536);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	/* without shared=yes vdbench refuses one fwd on several hosts */
	s_refused("hd=h1,system=10.0.0.1\nhd=h2,system=10.0.0.2\n"
		  "fsd=f,anchor=/x,depth=0,files=4,size=64k\n"
		  "fwd=w,fsd=f,threads=2\nrd=r,fwd=w,fwdrate=100\n",
		  "f.parm:5: rd=r: fwd=w on 2 hosts on fsd=f without shared=yes");

	/* stopafter=: transfers of the fwd's xfersize, or a percent of the file */
	prof = s_fs_import("fsd=a,anchor=ta,depth=0,files=4,size=64k\n"
			   "fwd=s,fsd=a,xfersize=16k,stopafter=2,fileselect=(seq,once)\n"
			   "fwd=r,fsd=a,fileio=random,"
			   "stopafter=25%\nrd=s,fwd=s,fwdrate=max\nrd=r,fwd=r,fwdrate=max\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(s_num(st, "file_stopafter") == 32768);
	/* fileselect=(seq,once): every file once, then the run ends: one pass */
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(st, "size_based")));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 1);
	CHECK(!strcmp(s_str(st, "file_stopafter"), "25%"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* more threads than files: vdbench would give up finding a free file */
	prof = s_fs_import("fsd=a,anchor=ta,depth=0,files=3,size=64k\n"
			   "fwd=r,fsd=a,threads=4\nrd=r,fwd=r,fwdrate=max\n",
			   &diffs);
	CHECK(prof &&
	      s_diff_has(diffs, "f.parm:3: rd=r: fwd=r: 4 threads on the 3 files of fsd=a"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/*
	 * metadata operations: fwd operation= a "meta" kind (create: vdbench's
	 * create writes the file, create_write), the tree as it is without
	 * format=; foroperations= a step per operation over the fwd's, format=yes
	 * a fresh tree before each, read a data step
	 */
	prof = s_fs_import(
	    "fsd=a,anchor=/mnt/a,depth=1,width=2,files=4,size=64k\n"
	    "fwd=g,fsd=a,operation=getattr,threads=2\n"
	    "rd=r,fwd=g,fwdrate=max,elapsed=10\n"
	    "rd=f,fwd=g,fwdrate=max,format=yes,elapsed=10,foroperations=(create,read)\n",
	    &diffs);
	{
		const cJSON *ms = cJSON_GetObjectItem(prof, "steps");

		CHECK(prof && cJSON_GetArraySize(diffs) == 0 && cJSON_GetArraySize(ms) == 3);
		CHECK(!strcmp(s_str(cJSON_GetArrayItem(ms, 0), "meta"), "getattr") &&
		      !strcmp(s_str(cJSON_GetArrayItem(ms, 0), "fileset_format"), "none"));
		CHECK(!strcmp(s_str(cJSON_GetArrayItem(ms, 1), "name"), "f_operations-create") &&
		      !strcmp(s_str(cJSON_GetArrayItem(ms, 1), "meta"), "create_write") &&
		      !strcmp(s_str(cJSON_GetArrayItem(ms, 1), "fileset_format"), "fresh"));
		CHECK(!strcmp(s_str(cJSON_GetArrayItem(ms, 2), "name"), "f_operations-read") &&
		      !cJSON_GetObjectItem(cJSON_GetArrayItem(ms, 2), "meta") &&
		      !strcmp(s_str(cJSON_GetArrayItem(ms, 2), "rw"), "read"));
	}
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* what has no equivalent: each a difference at its file:line, the rest still valid */
	prof =
	    s_fs_import("fsd=a,anchor=/mnt/a,depth=1,width=2,files=4,size=64k\n"
			"fsd=w,anchor=\\\\srv\\share\\vm0,size=64k\n"
			"fwd=md,fsd=a,operation=copy,threads=1\n"
			"fwd=p,fsd=a,fileselect=(random,once),xfersize=(4k,50,8k,50),stopafter=100,"
			"threads=1\n"
			"fwd=ok,fsd=a,operation=read,threads=2\n"
			"rd=r1,fwd=(md,p),fwdrate=max,format=(clean,only)\n"
			"rd=r2,fwd=ok,fwdrate=max,format=no,forxfersize=(4k,8k)\n",
			&diffs);
	CHECK(prof);
	CHECK(s_diff_has(diffs, "f.parm:3: operation=copy: copy has no equivalent"));
	CHECK(s_diff_has(diffs, "f.parm:4: fileselect=(random,once): (random,once) has no"));
	/* stopafter= a count of transfers of a size distribution: no byte count */
	CHECK(s_diff_has(diffs, "f.parm:4: stopafter=100: a count of transfers of one xfersize"));
	CHECK(s_diff_has(diffs, "f.parm:2: anchor=\\\\srv\\share\\vm0: a Windows network share"));
	/*
	 * format=(clean,only): no step, the next step on the tree starts from a
	 * fresh one; forxfersize=: a step per size, the second on the tree the
	 * first left
	 */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "steps")) == 2 &&
	      !strcmp(s_str(st, "name"), "r2_xfersize-4k") &&
	      !strcmp(s_str(st, "fileset_format"), "fresh") && !strcmp(s_str(st, "bs"), "4k"));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 1);
	CHECK(!strcmp(s_str(st, "name"), "r2_xfersize-8k") && !strcmp(s_str(st, "bs"), "8k") &&
	      !cJSON_GetObjectItem(st, "fileset_format"));
	CHECK(s_diff_has(diffs, "f.parm:6: rd=r1: fwd=p: 1 threads") == false);
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "volumes")) == 1);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* files run on Windows: a file or directory by its last name, a device refused */
static void s_windows(void)
{
	cJSON *prof, *diffs;
	const cJSON *vols;

	prof = s_fs_import("fsd=f,anchor=c:/\\vm0_testfile,depth=0,width=1,files=2,size=1m\n"
			   "fwd=w,fsd=f,operation=write,threads=1\n"
			   "rd=r,fwd=w,fwdrate=max,format=yes,elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vols = cJSON_GetObjectItem(prof, "volumes");
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(vols, 0), "path"), "vm0_testfile"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	prof = s_fs_import("sd=a,lun=c:\\data\\disk1.dat,size=1g\n"
			   "sd=b,lun=\\\\.\\PhysicalDrive1\n"
			   "sd=c,lun=\\\\.\\d:\n"
			   "wd=w,sd=a\nrd=r,wd=w,elapsed=10\n",
			   &diffs);
	vols = cJSON_GetObjectItem(prof, "volumes");
	CHECK(cJSON_GetArraySize(vols) == 1 &&
	      !strcmp(s_str(cJSON_GetArrayItem(vols, 0), "path"), "disk1.dat"));
	CHECK(s_diff_has(diffs, "f.parm:2: lun=\\\\.\\PhysicalDrive1: a Windows raw device"));
	CHECK(s_diff_has(diffs, "f.parm:3: lun=\\\\.\\d:: a Windows raw device"));
	CHECK(cJSON_GetArraySize(diffs) == 2);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/*
 * fileselect= as vdbench reads it: (poisson,N) and its aliases a poisson
 * draw of midpoint N (3 by default), a fractional midpoint a difference
 */
static void s_fileselect_poisson(void)
{
	static const struct {
		const char *val, *sel;
		int mid; /* 0: no fileselect_midpoint; -1: a difference */
	} cases[] = {
	    {"(poisson,5)", "poisson", 5}, {"poisson", "poisson", 0},
	    {"skewed", "poisson", 0},	   {"(random,midpoint=8)", "poisson", 8},
	    {"(poisson,2.5)", NULL, -1},   {"r", "random", 0},
	    {"(seq,4)", NULL, 0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];
		cJSON *prof, *diffs;
		const cJSON *st;

		snprintf(text, sizeof(text),
			 "fsd=a,anchor=/mnt/a,depth=0,width=1,files=8,size=64k\n"
			 "fwd=p,fsd=a,operation=read,fileselect=%s,threads=1\n"
			 "rd=r,fwd=p,fwdrate=max,elapsed=10\n",
			 cases[i].val);
		prof = s_fs_import(text, &diffs);
		st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
		CHECK_MSG(cJSON_GetArraySize(diffs) == (cases[i].mid < 0), "%s: %d differences",
			  cases[i].val, cJSON_GetArraySize(diffs));
		CHECK_MSG(cases[i].sel ? !strcmp(s_str(st, "fileselect"), cases[i].sel)
				       : !cJSON_GetObjectItem(st, "fileselect"),
			  "%s", cases[i].val);
		CHECK_MSG(cases[i].mid > 0 ? cJSON_GetNumberValue(cJSON_GetObjectItem(
						 st, "fileselect_midpoint")) == cases[i].mid
					   : !cJSON_GetObjectItem(st, "fileselect_midpoint"),
			  "%s", cases[i].val);
		cJSON_Delete(prof);
		cJSON_Delete(diffs);
	}
}

/*
 * a variable vdbench fills in ($lun from its command line, $host per host)
 * refuses its sd or fsd, naming it; the rds of a refused sd go with it
 * without a difference of their own
 */
static void s_variables(void)
{
	cJSON *prof, *diffs;

	prof = s_fs_import("sd=a,lun=$lun\nsd=b,lun=/dev/sd$host\nsd=c,lun=/dev/sdc\n"
			   "wd=w,sd=a\nwd=x,sd=c\nrd=r,wd=w,elapsed=10\nrd=q,wd=x,elapsed=10\n",
			   &diffs);
	CHECK(prof && cJSON_GetArraySize(cJSON_GetObjectItem(prof, "volumes")) == 1);
	CHECK(s_diff_has(diffs, "f.parm:1: lun=$lun: $lun is a variable vdbench's command line "
				"fills in (vdbench -f FILE lun=...)"));
	CHECK(s_diff_has(diffs, "f.parm:2: lun=/dev/sd$host: $host: vdbench repeats"));
	CHECK_MSG(cJSON_GetArraySize(diffs) == 2, "%d differences",
		  cJSON_GetArraySize(diffs)); /* not rd=r's "drives no volume" */
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "steps")) == 1);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	prof = s_fs_import("fsd=f,anchor=/mnt/$dir,depth=0,width=1,files=2,size=1m\n"
			   "fsd=g,anchor=/mnt/g,depth=0,width=1,files=2,size=1m\n"
			   "fwd=w,fsd=f,operation=read\nfwd=v,fsd=g,operation=read\n"
			   "rd=r,fwd=w,fwdrate=max,elapsed=10\nrd=s,fwd=v,fwdrate=max,elapsed=10\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:1: anchor=/mnt/$dir: $dir is a variable"));
	CHECK_MSG(cJSON_GetArraySize(diffs) == 1, "%d differences", cJSON_GetArraySize(diffs));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	{
		/* given as on vdbench's command line: $name and !name filled in, a prefix too */
		char *const vars[] = {"lun=/dev/sdb", "n=4"};
		struct bc_import_opts im = {.src = "f.parm", .agent = "local", .endpoint = "local"};
		struct bc_import_doc *p = NULL;
		cJSON *notes = cJSON_CreateArray();
		char err[256];

		diffs = cJSON_CreateArray();
		CHECK(!bc_vdb_parse_vars("sd=a,lun=$lun\nsd=b,lun=!lunx,threads=$n\n"
					 "wd=w,sd=*\nrd=r,wd=w,elapsed=10\n",
					 "f.parm", vars, 2, &p, err, sizeof(err)));
		prof = p ? bc_vdb_to_profile(p, &im, notes, diffs, err, sizeof(err)) : NULL;
		CHECK_MSG(prof && !cJSON_GetArraySize(diffs), "%d differences",
			  cJSON_GetArraySize(diffs));
		CHECK(!strcmp(
		    s_str(cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 0), "path"),
		    "/dev/sdb"));
		CHECK(!strcmp(
		    s_str(cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 1), "path"),
		    "/dev/sdbx"));
		bc_import_doc_free(&p);
		cJSON_Delete(prof);
		cJSON_Delete(notes);
		cJSON_Delete(diffs);
	}
}

/* hitarea= on an rd: the sds' hit area where a wd aims at it, else inert */
static void s_hitarea(void)
{
	cJSON *prof, *diffs;
	const cJSON *st;

	prof = s_fs_import("sd=s,lun=/dev/sdb\nwd=h,sd=s,rhpct=100\nwd=m,sd=s\n"
			   "rd=r1,wd=h,hitarea=2m,elapsed=10\nrd=r2,wd=h,elapsed=10\n"
			   "rd=r3,wd=m,hitarea=2m,elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetObjectItem(prof, "steps");
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(st, 0), "window_length"), "2m"));
	/* the next rd has the sd's own (vdbench's default 1m) */
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(st, 1), "window_length"), "1m"));
	CHECK(!cJSON_GetObjectItem(cJSON_GetArrayItem(st, 2), "window_length"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* rhpct= of a wd that only writes: inert, the whole sd as without it */
	prof = s_fs_import("sd=s,lun=/dev/sdb\nwd=h,sd=s,rdpct=0,rhpct=50\nrd=r,wd=h,elapsed=10\n",
			   &diffs);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(prof && !cJSON_GetArraySize(diffs) && !strcmp(s_str(st, "rw"), "randwrite") &&
	      !cJSON_GetObjectItem(st, "streams") && !cJSON_GetObjectItem(st, "window_length"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* a loop over hit areas of a wd with hits: a difference */
	prof = s_fs_import("sd=s,lun=/dev/sdb\nwd=h,sd=s,rhpct=100\n"
			   "rd=r1,wd=h,forhitarea=(1m,2m),elapsed=10\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:3: forhitarea=(1m,2m): a loop over hit areas"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* fractional sizes (0.5k); only a trailing '*' is a wildcard; a name matching nothing */
static void s_names_sizes(void)
{
	cJSON *prof, *diffs;
	const cJSON *st;

	prof = s_fs_import("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\n"
			   "wd=OLTP1_a,sd=sd*,xfersize=0.5k\nwd=OLTP1_b,sd=(sd1,sd2),"
			   "xfersize=(0.5k,50,1.5k,50)\n"
			   "rd=r,wd=OLTP1*,elapsed=10\nrd=x,wd=OLTP2*,elapsed=10\n"
			   "rd=y,wd=O*1_a,elapsed=10\n",
			   &diffs);
	CHECK(prof);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(st && cJSON_GetArraySize(cJSON_GetObjectItem(st, "streams")) == 2);
	CHECK(
	    !strcmp(s_str(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "streams"), 0), "bs"), "512"));
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "streams"), 1), "bs"),
		      "512/50:1536/50"));
	CHECK(s_diff_has(diffs, "f.parm:6: wd=OLTP2*: no such wd= (vdbench stops"));
	CHECK(s_diff_has(diffs, "f.parm:7: wd=O*1_a: no such wd="));
	CHECK(cJSON_GetArraySize(diffs) == 2);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* the stream of wd name in step st */
static const cJSON *s_stream(const cJSON *st, const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(st, "streams"))
	{
		if (!strcmp(s_str(s, "name"), name))
			return s;
	}
	return NULL;
}

/*
 * Several wds on one sd, each a stream with its own skew, rdpct and seekpct: seekpct 70 is
 * seq_pct 30 in its stream, 0 and 100 sequential and random; twelve wds are twelve streams;
 * forseekpct replaces each stream's sequential share; more than 32 wds are a difference
 */
static void s_wd_streams(void)
{
	char text[8192];
	cJSON *prof, *diffs;
	const cJSON *st, *s;
	size_t n;
	int i;

	n = (size_t)snprintf(text, sizeof(text), "sd=sd1,lun=/dev/sdb\n");
	for (i = 1; i <= 12; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "wd=wd%d,sd=sd1,skew=%s,rdpct=%d,seekpct=%s\n", i,
				      i <= 2 ? "20" : "6", i * 5,
				      i == 1   ? "70"
				      : i == 2 ? "0"
					       : "100");
	snprintf(text + n, sizeof(text) - n,
		 "rd=r,wd=wd*,iorate=max,elapsed=10\nrd=f,wd=wd*,forseekpct=(40,seq),elapsed=10\n");
	prof = s_fs_import(text, &diffs);
	CHECK_MSG(prof && !cJSON_GetArraySize(diffs), "%s",
		  cJSON_GetArraySize(diffs) ? cJSON_GetArrayItem(diffs, 0)->valuestring : "");
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(st && cJSON_GetArraySize(cJSON_GetObjectItem(st, "streams")) == 12);
	s = s_stream(st, "wd1");
	CHECK(s && !strcmp(s_str(s, "rw"), "randrw") && s_num(s, "seq_pct") == 30 &&
	      s_num(s, "rwmixread") == 5 && s_num(s, "share") == 20);
	s = s_stream(st, "wd2");
	CHECK(s && !strcmp(s_str(s, "rw"), "rw") && !cJSON_GetObjectItem(s, "seq_pct"));
	s = s_stream(st, "wd12");
	CHECK(s && !strcmp(s_str(s, "rw"), "randrw") && !cJSON_GetObjectItem(s, "seq_pct") &&
	      s_num(s, "share") == 6 && s_num(s, "rwmixread") == 60);
	/* forseekpct=40: every stream seeks 40%, continues 60%; seq: all sequential */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 1);
	s = s_stream(st, "wd2");
	CHECK(s && !strcmp(s_str(s, "rw"), "randrw") && s_num(s, "seq_pct") == 60);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 2);
	s = s_stream(st, "wd1");
	CHECK(s && !strcmp(s_str(s, "rw"), "rw") && !cJSON_GetObjectItem(s, "seq_pct"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	n = (size_t)snprintf(text, sizeof(text), "sd=sd1,lun=/dev/sdb\n");
	for (i = 1; i <= 65; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "wd=w%d,sd=sd1\n", i);
	snprintf(text + n, sizeof(text) - n, "rd=r,wd=w*,elapsed=10\n");
	prof = s_fs_import(text, &diffs);
	/* more than a volume's 64 streams: never a silent cut */
	CHECK(s_diff_has(diffs, "f.parm:67: wd=w*: names 65 definitions; bench-coord maps at "
				"most 64"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* skew=0 is vdbench's default ("none of its own"): written out, it is the same as absent */
static void s_skew_zero(void)
{
	cJSON *prof, *diffs;
	const cJSON *st;

	prof = s_fs_import("sd=sd1,lun=/dev/sdb\n"
			   "wd=a,sd=sd1,rdpct=70,xfersize=4k,skew=0\n"
			   "wd=b,sd=sd1,rdpct=0,xfersize=64k,seekpct=0,skew=0\n"
			   "rd=r,wd=*,iorate=max,elapsed=10\n",
			   &diffs);
	CHECK_MSG(prof && !cJSON_GetArraySize(diffs), "%s",
		  cJSON_GetArraySize(diffs) ? cJSON_GetArrayItem(diffs, 0)->valuestring : "");
	st = prof ? cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0) : NULL;
	CHECK(st && s_num(s_stream(st, "a"), "share") == 50 &&
	      s_num(s_stream(st, "b"), "share") == 50);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	prof = s_fs_import("fsd=fsd1,anchor=/mnt/data,depth=2,width=4,files=100,size=1m\n"
			   "fwd=fwd1,fsd=fsd1,rdpct=70,xfersize=64k,skew=0,fileio=random\n"
			   "rd=rd1,fwd=fwd1,elapsed=60,interval=1,fwdrate=max,format=yes\n",
			   &diffs);
	CHECK_MSG(prof && !cJSON_GetArraySize(diffs), "%s",
		  cJSON_GetArraySize(diffs) ? cJSON_GetArrayItem(diffs, 0)->valuestring : "");
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* vdbench's keywords that have an exact mapping: each one small file */
static void s_keywords(void)
{
	cJSON *prof, *diffs;
	const cJSON *st, *steps;

	/* host=localhost without hd= is vdbench's one host; seekpct=-1 is eof */
	prof = s_fs_import("sd=s,lun=/dev/sdb,host=localhost\n"
			   "wd=w,sd=s,host=localhost,seekpct=-1,xfersize=(4k,64k,4k)\n"
			   "wd=b,sd=s,range=(1g,3g)\n"
			   "rd=r,wd=w,compratio=4,elapsed=10,startcmd=sync\nrd=q,wd=b,elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	steps = cJSON_GetObjectItem(prof, "steps");
	st = cJSON_GetArrayItem(steps, 0);
	CHECK(!strcmp(s_str(st, "rw"), "read") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(st, "size_based")));
	/* xfersize=(min,max,align) with align = min: the profile's range of sizes */
	CHECK(!strcmp(s_str(st, "bs"), "4k-64k"));
	/* compratio= on the rd: its step's writes (4 : 1 is 75% zeros) */
	CHECK(s_num(st, "compress_pct") == 75);
	/* range= above 200 is bytes */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(steps, 1), "streams"), 0);
	CHECK(!strcmp(s_str(cJSON_GetObjectItem(st, "range"), "offset"), "1g") &&
	      !strcmp(s_str(cJSON_GetObjectItem(st, "range"), "size"), "2g"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* a size range in a stream: a difference, and still a valid profile */
	prof = s_fs_import("sd=s,lun=/dev/sdb\nwd=w,sd=s,range=(0,50),xfersize=(4k,64k,4k)\n"
			   "rd=r,wd=w,elapsed=10\n",
			   &diffs);
	CHECK(prof && s_diff_has(diffs, "f.parm:3: rd=r: xfersize 4k-64k in a stream"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	prof = s_fs_import("sd=s,lun=/dev/sdb\nwd=w,sd=s,range=(90,110),xfersize=(4k,64k,512)\n"
			   "rd=r,wd=w,forcompratio=(1,2),elapsed=10\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:2: range=(90,110): expected"));
	CHECK(s_diff_has(diffs, "f.parm:2: xfersize=(4k,64k,512): a size range whose align"));
	/* forcompratio=(1,2): the rd once per ratio, each difference said once */
	steps = cJSON_GetObjectItem(prof, "steps");
	CHECK(cJSON_GetArraySize(steps) == 2 && cJSON_GetArraySize(diffs) == 2);
	st = cJSON_GetArrayItem(steps, 1);
	CHECK(!strcmp(s_str(st, "name"), "r_compratio-2") && s_num(st, "compress_pct") == 50);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* validate=yes writes whole verified blocks: no ratio beside it, still valid */
	prof = s_fs_import("validate=yes\ncompratio=2\nsd=s,lun=/dev/sdb\nwd=w,sd=s,rdpct=0\n"
			   "rd=r,wd=w,elapsed=10\n",
			   &diffs);
	CHECK(prof && s_diff_has(diffs, "f.parm:2: compratio=2 with validate=yes"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* openflags: o_sync/o_dsync/o_rsync are O_DSYNC on Linux (write_sync), fsync an end_fsync */
static void s_openflags_sync(void)
{
	cJSON *prof, *diffs;
	const cJSON *vol, *wl, *st;

	prof = s_fs_import("sd=s,lun=/dev/sdb,openflags=(o_direct,o_sync,fsync)\n"
			   "sd=t,lun=\\\\.\\c:\\temp\\t.dat,size=1g\n"
			   "wd=w,sd=*,rdpct=0\nrd=r,wd=w,elapsed=10,openflags=o_rsync\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 0);
	wl = cJSON_GetObjectItem(vol, "workload");
	CHECK(!strcmp(s_str(wl, "write_sync"), "dsync") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(wl, "end_fsync")));
	/* \\.\c:\temp\t.dat: the file t.dat, opened raw (O_DIRECT), like sd=s */
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 1);
	CHECK(!strcmp(s_str(vol, "path"), "t.dat") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(prof, "defaults"), "direct")));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(s_str(st, "write_sync"), "dsync"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	prof = s_fs_import("sd=s,lun=/dev/sdb\nwd=w,sd=s,rdpct=0,openflags=(o_sync,0x1000)\n"
			   "rd=r,wd=w,elapsed=10\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:2: openflags=o_sync: synchronous writes or a final"));
	CHECK(s_diff_has(diffs, "f.parm:2: openflags=0x1000: no bench-coord equivalent"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* file sets: o_sync on an fsd its volumes' write_sync, on a fwd its workload's */
	prof = s_fs_import("fsd=a,anchor=ta,depth=0,files=4,size=64k,openflags=(o_direct,o_sync)\n"
			   "fsd=b,anchor=tb,depth=0,files=4,size=64k,openflags=o_direct\n"
			   "fwd=w,fsd=(a,b),operation=write,threads=2\n"
			   "fwd=v,fsd=b,operation=write,threads=2,openflags=o_dsync\n"
			   "rd=r,fwd=(w,v),elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 0);
	CHECK(!strcmp(s_str(cJSON_GetObjectItem(vol, "workload"), "write_sync"), "dsync"));
	vol = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 1);
	CHECK(!cJSON_GetObjectItem(vol, "workload"));
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(prof, "defaults"), "direct")));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	wl = cJSON_GetArrayItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(st, "volume_workloads"), "1"), 1);
	CHECK(wl && !strcmp(s_str(wl, "write_sync"), "dsync"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	/* fsync on a file set: vdbench fsyncs each file it closes; the set's stay open */
	s_refused("fsd=a,anchor=ta,depth=0,files=4,size=64k,openflags=fsync\n"
		  "fwd=w,fsd=a,operation=write\nrd=r,fwd=w,elapsed=10\n",
		  "f.parm:1: openflags=fsync: vdbench fsyncs each file");
}

/*
 * shared=yes from several hosts: each host's volume its share of the tree
 * (every nth file); totalsize= split over them; format=yes on a shared fsd
 * and a totalsize beyond the tree stop vdbench: differences
 */
static void s_fsd_shared_total(void)
{
	const char *hds = "hd=h1,system=a\nhd=h2,system=b\nhd=h3,system=c\n";
	const cJSON *vol, *fs;
	cJSON *prof, *diffs;
	char buf[1024];
	int k;

	snprintf(buf, sizeof(buf),
		 "%sfsd=f,anchor=/mnt/t,depth=1,width=3,files=10,size=1m,shared=yes,"
		 "totalsize=12m\nfwd=w,fsd=f,operation=read,threads=2\n"
		 "rd=r,fwd=w,format=restart,elapsed=10\n",
		 hds);
	prof = s_fs_import(buf, &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "volumes")) == 3);
	for (k = 0; k < 3; k++) {
		vol = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), k);
		fs = cJSON_GetObjectItem(vol, "fileset");
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(fs, "totalsize")) == 4 << 20);
		fs = cJSON_GetObjectItem(fs, "share");
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(fs, "count")) == 3 &&
		      cJSON_GetNumberValue(cJSON_GetObjectItem(fs, "index")) == k);
	}
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	/* one host: no share; totalsize beyond the 30 files' 30m */
	s_refused("fsd=f,anchor=/mnt/t,depth=1,width=3,files=10,size=1m,shared=yes,"
		  "totalsize=40m\nfwd=w,fsd=f,operation=read\nrd=r,fwd=w,elapsed=10\n",
		  "f.parm:1: fsd=f.fileset.totalsize: 41943040 bytes, and the tree's files hold "
		  "31457280 (vdbench stops at that too)");
	snprintf(buf, sizeof(buf),
		 "%sfsd=f,anchor=/mnt/t,depth=1,width=3,files=10,size=1m,shared=yes\n"
		 "fwd=w,fsd=f,operation=read\nrd=r,fwd=w,format=yes,elapsed=10\n",
		 hds);
	s_refused(buf, "f.parm:6: format=yes on fsd=f, shared=yes: vdbench stops");
}

/*
 * for-loops in an rd with fwd=: a step per combination (the last loop the
 * innermost), forrdpct= a mix in each file of the fwd's kind, forxfersize=
 * its size, forthreads= its threads; a range counting down by a step runs
 * its first value alone (vdbench's Var_parms), 0 may start a range
 */
static void s_fwd_loops(void)
{
	static const char *const want[][4] = {{"r_threads-1_rdpct-0", "write", "1", "0"},
					      {"r_threads-1_rdpct-50", "rw", "1", "50"},
					      {"r_threads-1_rdpct-100", "read", "1", "100"},
					      {"r_threads-4_rdpct-0", "write", "4", "0"},
					      {"r_threads-4_rdpct-50", "rw", "4", "50"},
					      {"r_threads-4_rdpct-100", "read", "4", "100"}};
	const cJSON *st;
	cJSON *prof, *diffs;
	int k;

	prof = s_fs_import("fsd=a,anchor=ta,depth=0,files=8,size=64k\n"
			   "fwd=w,fsd=a,fileio=sequential,xfersize=16k\n"
			   "rd=r,fwd=w,forthreads=(1,4),forrdpct=(0-100,50),forxfersize=8k,"
			   "elapsed=10\nrd=d,fwd=w,forrdpct=(100-0,10),elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "steps")) == 7);
	for (k = 0; k < 6; k++) {
		st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), k);
		CHECK_MSG(
		    !strcmp(s_str(st, "name"), want[k][0]) &&
			!strcmp(s_str(st, "rw"), want[k][1]) && !strcmp(s_str(st, "bs"), "8k") &&
			cJSON_GetNumberValue(cJSON_GetObjectItem(st, "numjobs")) ==
			    atoi(want[k][2]) &&
			(!strcmp(want[k][1], "rw")
			     ? cJSON_GetNumberValue(cJSON_GetObjectItem(st, "rwmixread")) == 50
			     : !cJSON_GetObjectItem(st, "rwmixread")),
		    "step %d: %s", k, cJSON_PrintUnformatted(st));
	}
	/* (100-0,10): 100 alone, a note says why */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 6);
	CHECK(!strcmp(s_str(st, "name"), "d") && !strcmp(s_str(st, "rw"), "read") &&
	      !strcmp(s_str(st, "bs"), "16k"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/*
 * threads: the rd's threads= or forthreads= when given, else the sd's, else
 * 8 (vdbench's RD_entry.getThreadsFromSdOrRd); pause=: the next step idles
 */
static void s_threads_pause(void)
{
	cJSON *prof, *diffs;
	const cJSON *st, *steps, *vw;

	/* rd threads=16 beside sd threads=32: 16, and no volume keeps the sd's */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx,threads=32\nwd=wd1,sd=sd1,xfersize=4k,rdpct=70\n"
			   "rd=rd1,wd=wd1,iorate=max,elapsed=60,interval=1,threads=16\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(s_num(st, "iodepth") == 16 && !cJSON_GetObjectItem(st, "volume_workloads"));
	CHECK(!cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 0),
				   "workload"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* forthreads=(4,16): the sweep's, not the sd's 32 */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx,threads=32\nwd=wd1,sd=sd1,xfersize=4k,rdpct=70\n"
			   "rd=rd1,wd=wd1,iorate=max,elapsed=60,interval=1,forthreads=(4,16)\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	vw = cJSON_GetObjectItem(cJSON_GetObjectItem(st, "sweep"), "iodepth");
	CHECK(cJSON_GetArraySize(vw) == 2 && cJSON_GetArrayItem(vw, 1)->valuedouble == 16);
	CHECK(!cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "volumes"), 0),
				   "workload"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* no rd threads: each sd's own (32), else 8; pause=5 and 1m idle the next steps */
	prof = s_fs_import("sd=s1,lun=/dev/sdx,threads=32\nsd=s2,lun=/dev/sdy\nwd=w,sd=*\n"
			   "rd=a,wd=w,elapsed=10,pause=5\n"
			   "rd=b,wd=w,elapsed=10,forxfersize=(4k,8k),pause=1m\n"
			   "rd=c,wd=w,elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	steps = cJSON_GetObjectItem(prof, "steps");
	CHECK(cJSON_GetArraySize(steps) == 4);
	st = cJSON_GetArrayItem(steps, 0);
	vw = cJSON_GetObjectItem(cJSON_GetObjectItem(st, "volume_workloads"), "1");
	CHECK(s_num(st, "iodepth") == 32 && s_num(vw, "iodepth") == 8);
	CHECK(!cJSON_GetObjectItem(st, "start_delay") && s_num(st, "ramp") == 1);
	/* the loop with a pause: a step per value, each after a pause */
	st = cJSON_GetArrayItem(steps, 1);
	CHECK(!cJSON_GetObjectItem(st, "sweep") && s_num(st, "start_delay") == 5 &&
	      s_num(st, "ramp") == 6 && s_num(st, "runtime") == 9);
	st = cJSON_GetArrayItem(steps, 2);
	CHECK(s_num(st, "start_delay") == 60 && s_num(st, "ramp") == 61);
	st = cJSON_GetArrayItem(steps, 3);
	CHECK(!strcmp(s_str(st, "name"), "c") && s_num(st, "start_delay") == 60);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* a curve's points: each idles first (one step) */
	prof =
	    s_fs_import("sd=s,lun=/dev/sdx\nwd=w,sd=s\nrd=r,wd=w,iorate=curve,pause=10\n", &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(s_num(st, "start_delay") == 10 && s_num(st, "ramp") == 11 &&
	      cJSON_GetObjectItem(cJSON_GetObjectItem(st, "sweep"), "curve"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* an rd's iorate is the total: whole per volume within 1%, else a difference */
	prof = s_fs_import("sd=default,size=1g\nsd=s1,lun=/dev/sdx\nsd=s2,lun=/dev/sdy\n"
			   "sd=s3,lun=/dev/sdz\nwd=w,sd=*\nrd=r,wd=w,iorate=1000\n",
			   &diffs);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(prof && !cJSON_GetArraySize(diffs) && s_num(st, "rate_iops") == 333);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	prof = s_fs_import("sd=default,size=1g\nsd=s1,lun=/dev/sdx\nsd=s2,lun=/dev/sdy\n"
			   "sd=s3,lun=/dev/sdz\nwd=w,sd=*\nrd=r,wd=w,iorate=10\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:6: rd=r: iorate=10 over 3 volumes is 3.333 I/Os per "
				"second each"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* what vdbench accepts: a wd without sd= in an rd with sd=, host=, hd*, seekpct=rand */
static void s_accepted(void)
{
	cJSON *prof, *diffs;
	const cJSON *st, *vols;

	/* the rd's sd= gives the wd its sds (vdbench's RD_entry) */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx\nsd=sd2,lun=/dev/sdy\nwd=wd1,xfersize=4k,rdpct=70\n"
			   "rd=rd1,wd=wd1,sd=(sd1,sd2),iorate=max,elapsed=10,interval=1\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(s_num(st, "rwmixread") == 70 && !cJSON_GetObjectItem(st, "volume_workloads"));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "volumes")) == 2);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	/* ... and where no rd gives one, the wd's line says so */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx\nwd=wd1,xfersize=4k\nrd=rd1,wd=wd1\n", &diffs);
	CHECK(s_diff_has(diffs, "f.parm:2: wd=wd1: no sd=, and rd=rd1 gives none either"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* host= is hd= (deprecated); an sd's host=hd* is every host it matches */
	prof = s_fs_import(
	    "host=default,user=root,shell=ssh\nhd=one,system=10.0.0.1\n"
	    "hd=two,system=10.0.0.2\nhd=x,system=10.0.0.3\n"
	    "sd=sd1,host=(o*,tw*),lun=/dev/vdb\nwd=wd1,sd=sd*,xfersize=4k,seekpct=rand\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1\n",
	    &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vols = cJSON_GetObjectItem(prof, "volumes");
	CHECK(cJSON_GetArraySize(vols) == 2 &&
	      !strcmp(s_str(cJSON_GetArrayItem(vols, 0), "agent"), "one") &&
	      !strcmp(s_str(cJSON_GetArrayItem(vols, 1), "agent"), "two"));
	/* seekpct=rand: vdbench takes any leading part of "random" */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(s_str(st, "rw"), "randread"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	prof = s_fs_import("sd=s,lun=/dev/sdx\nwd=w,sd=s,seekpct=s\nwd=p,sd=s,seekpct=poisson\n"
			   "rd=r,wd=w,elapsed=10\nrd=q,wd=p,elapsed=10\n",
			   &diffs);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(s_str(st, "rw"), "read"));
	CHECK(s_diff_has(diffs, "f.parm:3: seekpct=poisson: seeks whose distances"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* fwd=format: no workload; the threads, first size and flags of format runs */
static void s_fwd_format(void)
{
	cJSON *prof, *diffs;
	const cJSON *st;

	prof = s_fs_import("fsd=fsd1,anchor=/tmp/h33_fs,depth=1,width=1,files=4,size=1m\n"
			   "fwd=format,threads=4,xfersize=(64k,128k)\n"
			   "fwd=fwd1,fsd=fsd1,xfersize=4k,fileio=random,fileselect=random,rdpct=50,"
			   "threads=2\n"
			   "rd=rd1,fwd=fwd*,fwdrate=max,format=yes,elapsed=10,interval=1\n"
			   "rd=rd2,fwd=fwd1,fwdrate=max,format=only\n",
			   &diffs);
	CHECK_MSG(prof && !cJSON_GetArraySize(diffs), "%s",
		  cJSON_GetArraySize(diffs) ? cJSON_GetArrayItem(diffs, 0)->valuestring : "");
	/* fwd* does not take format; the run is fwd1's */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(s_str(st, "bs"), "4k") && s_num(st, "numjobs") == 2 &&
	      !strcmp(s_str(st, "fileset_format"), "fresh"));
	/* format=only: the format's 4 threads of 64k, not fwd1's 2 of 4k */
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 1);
	CHECK(!strcmp(s_str(st, "bs"), "64k") && s_num(st, "numjobs") == 4 &&
	      !strcmp(s_str(st, "rw"), "write"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* without fwd=format: vdbench's 8 threads of 128k */
	prof = s_fs_import("fsd=f,anchor=/tmp/h36_fs,depth=1,width=1,files=16,size=1m\n"
			   "fwd=w,fsd=f,xfersize=4k,threads=1\nrd=r,fwd=w,format=only\n",
			   &diffs);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(prof && !strcmp(s_str(st, "bs"), "128k") && s_num(st, "numjobs") == 8);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/* what the import once built invalid: size ranges, fractional shares, hds on one host */
static void s_valid(void)
{
	struct bc_import_doc *p = NULL;
	cJSON *prof, *diffs;
	const cJSON *st, *sw, *vols;
	char err[512];

	/* forxfersize=(4k-64k,d): sizes doubling, as vdbench's Var_parms; (64k-16k,d) halves */
	prof =
	    s_fs_import("sd=sd1,lun=/dev/sdx\nwd=wd1,sd=sd1\n"
			"rd=rd1,wd=wd1,iorate=max,elapsed=10,forxfersize=(4k-64k,d)\n"
			"rd=rd2,wd=wd1,elapsed=10,forxfersize=(64k-16k,d),forthreads=(1,4-8,4)\n",
			&diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	sw = cJSON_GetObjectItem(cJSON_GetObjectItem(st, "sweep"), "bs");
	CHECK(cJSON_GetArraySize(sw) == 5 &&
	      !strcmp(cJSON_GetArrayItem(sw, 0)->valuestring, "4k") &&
	      !strcmp(cJSON_GetArrayItem(sw, 4)->valuestring, "64k"));
	/* 3 sizes x threads 1, 4, 8: 9 steps after rd1's */
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "steps")) == 10);
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 9);
	CHECK(!strcmp(s_str(st, "bs"), "16k") && s_num(st, "iodepth") == 8);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* a read share with decimals, as vdbench uses it: rwmixread to four decimals */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx\nwd=wd1,sd=sd1,rdpct=83.14\n"
			   "rd=rd1,wd=wd1,elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK(!strcmp(s_str(st, "rw"), "randrw") && s_num(st, "rwmixread") == 83.14);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	/* PureStorage's Oracle model: the rd's forrdpct=83.14 mixes each wd's stream */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx\nwd=w1,sd=sd1,rdpct=100,xfersize=4k,seekpct=80\n"
			   "wd=w2,sd=sd1,rdpct=0,xfersize=8k,seekpct=80,range=(50,100)\n"
			   "rd=r1,wd=w*,forrdpct=83.14,iorate=max,elapsed=10,forthreads=16\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	{
		const cJSON *ss = cJSON_GetObjectItem(st, "streams"), *s;
		int mixed = 0;

		cJSON_ArrayForEach(s, ss) mixed +=
		    !strcmp(s_str(s, "rw"), "randrw") && s_num(s, "rwmixread") == 83.14;
		CHECK_MSG(cJSON_GetArraySize(ss) == 2 && mixed == 2, "%d of 2 streams at 83.14",
			  mixed);
	}
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	/* finer than a profile holds: a difference, rounded under --lenient */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx\nwd=wd1,sd=sd1,rdpct=83.14159\n"
			   "rd=rd1,wd=wd1,elapsed=10\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:2: rdpct=83.14159: 83.1416% of reads in a profile "
				"(at most 4 decimals)"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* fractional shares: kept exactly, four decimals of a percent */
	prof =
	    s_fs_import("sd=sd1,lun=/dev/sdx\nwd=wd1,sd=sd1,xfersize=(4k,4.5,8k,41.05,16k,54.45)\n"
			"rd=rd1,wd=wd1,elapsed=10\n",
			&diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK_MSG(!strcmp(s_str(st, "bs"), "4k/4.5:8k/41.05:16k/54.45"), "%s", s_str(st, "bs"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	/* finer than a millionth: rounded by the largest remainders, still 100 in all */
	prof = s_fs_import("sd=sd1,lun=/dev/sdx\nwd=wd1,sd=sd1,xfersize=(4k,33.33333,8k,33.33333,"
			   "16k,33.33334)\nrd=rd1,wd=wd1,elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	CHECK_MSG(!strcmp(s_str(st, "bs"), "4k/33.3333:8k/33.3333:16k/33.3334"), "%s",
		  s_str(st, "bs"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* two hds on one system: one agent, its volumes; an hd without system= is its name */
	prof = s_fs_import("hd=default,vdbench=/opt/vdbench,shell=ssh\nhd=hd1,system=10.0.0.1\n"
			   "hd=hd2,system=10.0.0.1\nhd=mc022\nsd=sd1,host=hd1,lun=/dev/vdb\n"
			   "sd=sd2,host=hd2,lun=/dev/vdc\nsd=sd3,lun=/dev/vdd\nwd=wd1,sd=sd*\n"
			   "rd=rd1,wd=wd1,elapsed=10\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(prof, "agents")) == 2);
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "agents"), 1), "endpoint"),
		      "tcp://mc022:7470"));
	vols = cJSON_GetObjectItem(prof, "volumes");
	/* sd3 on every host: once on hd1's agent (hd2 is the same), once on mc022 */
	CHECK(cJSON_GetArraySize(vols) == 4 &&
	      !strcmp(s_str(cJSON_GetArrayItem(vols, 1), "agent"), "hd1") &&
	      !strcmp(s_str(cJSON_GetArrayItem(vols, 3), "agent"), "mc022"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	/* an include= that cannot be read: an error (-EIO) at its file:line, not a refusal */
	CHECK(bc_vdb_parse("sd=sd1,lun=/dev/sdx\ninclude=/nonexistent/h36_inc\n", "i.parm", &p, err,
			   sizeof(err)) == -EIO);
	CHECK_MSG(!strncmp(err, "i.parm:2: include=/nonexistent/h36_inc: cannot read", 51), "%s",
		  err);
	CHECK(!p);
}

/* an sd on several hosts: its threads round-robin over them (vdbench's RD_entry) */
static void s_threads_hosts(void)
{
	cJSON *prof, *diffs;
	const cJSON *st, *steps, *vw;

	prof =
	    s_fs_import("hd=a,system=10.0.0.1\nhd=b,system=10.0.0.2\n"
			"sd=s1,lun=/dev/vdb,threads=5\nsd=s2,lun=/dev/vdc,host=b,threads=1\n"
			"wd=w,sd=s*\nrd=r,wd=w,elapsed=10\n"
			"sd=s3,lun=/dev/vdd\nwd=x,sd=s3\nrd=q,wd=x,elapsed=10,forthreads=(1,4)\n",
			&diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	steps = cJSON_GetObjectItem(prof, "steps");
	/* s1: 3 on a, 2 on b; s2 (b alone): 1; s3 idle */
	st = cJSON_GetArrayItem(steps, 0);
	vw = cJSON_GetObjectItem(st, "volume_workloads");
	CHECK(s_num(st, "iodepth") == 3 && s_num(cJSON_GetObjectItem(vw, "1"), "iodepth") == 2 &&
	      s_num(cJSON_GetObjectItem(vw, "2"), "iodepth") == 1);
	/* forthreads over s3's two hosts: a step per value, not a sweep; 1 leaves b idle */
	CHECK(cJSON_GetArraySize(steps) == 3);
	st = cJSON_GetArrayItem(steps, 1);
	vw = cJSON_GetObjectItem(st, "volume_workloads");
	CHECK(!cJSON_GetObjectItem(st, "sweep") && s_num(st, "iodepth") == 1 &&
	      cJSON_IsArray(cJSON_GetObjectItem(vw, "4")) &&
	      !cJSON_GetArraySize(cJSON_GetObjectItem(vw, "4")));
	st = cJSON_GetArrayItem(steps, 2);
	vw = cJSON_GetObjectItem(st, "volume_workloads");
	CHECK(s_num(st, "iodepth") == 2 && !cJSON_GetObjectItem(vw, "4"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/*
 * hotband=(a,b) on a wd (IBM's TMS PoC files): the band is the stream's range, its random
 * I/Os hotband's; a sequential wd walks the band; range= written after it sets the band (as
 * in vdbench's WD_entry, where both set one range); with rhpct= a difference
 */
static void s_hotband(void)
{
	cJSON *prof, *diffs;
	const cJSON *st, *s;

	prof =
	    s_fs_import("sd=sd1,lun=/dev/sdx\n"
			"wd=r0,sd=sd1,seekpct=rand,skew=50,rdpct=65,xfersize=4k\n"
			"wd=r1,sd=sd1,seekpct=rand,skew=30,rdpct=65,xfersize=4k,hotband=(25,29)\n"
			"wd=s1,sd=sd1,seekpct=seq,skew=10,rdpct=20,hotband=(10,14)\n"
			"wd=x1,sd=sd1,skew=10,hotband=(10,14),range=(50,60)\n"
			"rd=rd1,wd=*,elapsed=10\n",
			&diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	s = s_stream(st, "r1");
	CHECK(s && !strcmp(s_str(s, "random_distribution"), "hotband") &&
	      !strcmp(s_str(cJSON_GetObjectItem(s, "range"), "offset"), "25%") &&
	      !strcmp(s_str(cJSON_GetObjectItem(s, "range"), "size"), "4%"));
	s = s_stream(st, "s1");
	CHECK(s && !cJSON_GetObjectItem(s, "random_distribution") &&
	      !strcmp(s_str(cJSON_GetObjectItem(s, "range"), "offset"), "10%"));
	s = s_stream(st, "x1");
	CHECK(s && !strcmp(s_str(s, "random_distribution"), "hotband") &&
	      !strcmp(s_str(cJSON_GetObjectItem(s, "range"), "offset"), "50%"));
	s = s_stream(st, "r0");
	CHECK(s && !cJSON_GetObjectItem(s, "random_distribution"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	prof = s_fs_import("sd=sd1,lun=/dev/sdx\nwd=w,sd=sd1,rhpct=50,hotband=(10,20)\n"
			   "rd=rd1,wd=w,elapsed=10\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:2: hotband= with rhpct=/whpct="));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

/*
 * count=(first,number) on fsd= and sd=: the definition repeated with the
 * numbers after its name and in place of each '$' of its anchor= or lun=,
 * in the file's order; fwdrate= lists: a step per rate, each its own
 * rate_iops; a count= that is no pair and fwdrate=curve are differences
 */
static void s_count_fwdrate(void)
{
	cJSON *prof, *diffs, *vols, *steps;
	int k;

	prof = s_fs_import("fsd=default,depth=1,width=2,files=4,size=64k\n"
			   "fsd=fs,anchor=/mnt/a$/t,count=(3,2)\nfsd=z,anchor=/mnt/z\n"
			   "fwd=w,fsd=fs*,operation=read,threads=2\n"
			   "rd=r,fwd=w,fwdrate=(100,200-400,200),elapsed=5\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vols = cJSON_GetObjectItem(prof, "volumes");
	CHECK(cJSON_GetArraySize(vols) == 3);
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(vols, 0), "path"), "/mnt/a3/t"));
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(vols, 1), "path"), "/mnt/a4/t"));
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(vols, 2), "path"), "/mnt/z"));
	steps = cJSON_GetObjectItem(prof, "steps");
	CHECK(cJSON_GetArraySize(steps) == 3);
	for (k = 0; k < 3; k++) {
		const cJSON *st = cJSON_GetArrayItem(steps, k),
			    *vw = cJSON_GetObjectItem(st, "volume_workloads");
		static const char *const names[] = {"r_fwdrate-100", "r_fwdrate-200",
						    "r_fwdrate-400"};

		CHECK_MSG(!strcmp(s_str(st, "name"), names[k]), "%s", s_str(st, "name"));
		/* the rate is the rd's total, half on each of fs3 and fs4; z idle */
		CHECK(s_num(cJSON_GetObjectItem(vw, "0"), "rate_iops") == (k ? 200 * k : 100) / 2);
		CHECK(s_num(cJSON_GetObjectItem(vw, "1"), "rate_iops") == (k ? 200 * k : 100) / 2);
	}
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	prof = s_fs_import("sd=sd,lun=/dev/rdsk/c0t$d0s2,size=1m,count=(0,2)\n"
			   "wd=w,sd=sd*,rdpct=100\nrd=r,wd=w,iorate=max,elapsed=5\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vols = cJSON_GetObjectItem(prof, "volumes");
	CHECK(cJSON_GetArraySize(vols) == 2 &&
	      !strcmp(s_str(cJSON_GetArrayItem(vols, 0), "path"), "/dev/rdsk/c0t0d0s2") &&
	      !strcmp(s_str(cJSON_GetArrayItem(vols, 1), "path"), "/dev/rdsk/c0t1d0s2"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	s_refused("fsd=fs,anchor=/mnt/a$,depth=1,width=1,files=2,size=1m,count=(1)\n"
		  "fwd=w,fsd=fs*\nrd=r,fwd=w,elapsed=5\n",
		  "f.parm:1: count=(1): expected (first,number)");
	/* fwdrate=curve: the step's curve sweep; with a volume idle, a difference */
	prof = s_fs_import("fsd=fs,anchor=/mnt/a,depth=1,width=1,files=2,size=1m\n"
			   "fwd=w,fsd=fs\nrd=r,fwd=w,fwdrate=curve,curve=(30,60),elapsed=5\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	steps = cJSON_GetObjectItem(prof, "steps");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(
		  cJSON_GetObjectItem(cJSON_GetArrayItem(steps, 0), "sweep"), "curve")) == 2);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	s_refused("fsd=fs,anchor=/mnt/a,depth=1,width=1,files=2,size=1m\n"
		  "fsd=z,anchor=/mnt/z,depth=1,width=1,files=2,size=1m\n"
		  "fwd=w,fsd=fs\nrd=r,fwd=w,fwdrate=curve,elapsed=5\n",
		  "f.parm:4: rd=r: fwdrate=curve with volumes idle or with several workloads");
	s_refused("fsd=fs,anchor=/mnt/a,depth=1,width=1,files=2,size=1m\n"
		  "fwd=w,fsd=fs\nrd=r,fwd=w,fwdrate=fast,elapsed=5\n",
		  "f.parm:3: fwdrate=fast: fast: max, curve, operations per second");
	/* a loop over the tree's shape: a run per tree, which a volume cannot be */
	s_refused("fsd=fs,anchor=/mnt/a,depth=1,width=1,files=2,size=1m\n"
		  "fwd=w,fsd=fs\nrd=r,fwd=w,fordepth=(1,2),elapsed=5\n",
		  "f.parm:3: fordepth=(1,2): a run per tree shape");
	s_refused("fsd=fs,anchor=/mnt/a,depth=1,width=1,files=2,size=1m\n"
		  "fwd=w,fsd=fs\nrd=r,fwd=w,forworkingsetsize=(1m,2m),elapsed=5\n",
		  "f.parm:3: forwss=(1m,2m): a run per working set");
	/* wss= (workingsetsize=): the fileset's "workingset", split over hosts as totalsize */
	prof = s_fs_import("fsd=fs,anchor=/mnt/a,depth=1,width=2,files=10,size=1m,totalsize=8m,"
			   "wss=4m\nfwd=w,fsd=fs\nrd=r,fwd=w,elapsed=5\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	vols = cJSON_GetObjectItem(prof, "volumes");
	CHECK(s_num(cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 0), "fileset"), "workingset") ==
	      4 << 20);
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	s_refused("fsd=fs,anchor=/mnt/a,depth=1,width=2,files=10,size=1m,totalsize=8m,"
		  "workingsetsize=9m\nfwd=w,fsd=fs\nrd=r,fwd=w,elapsed=5\n",
		  "f.parm:1: fsd=fs.fileset.workingset: 9437184 bytes, more than the 8388608");
}

/*
 * iorate= on a wd (Nutanix's curie files): in an rd at iorate=max the wd's volume runs at
 * that rate with vdbench's exponential arrivals, the others unlimited (each volume states
 * its own); beside an rd rate, beside other wds on its sd or fractional: a difference
 */
static void s_wd_iorate(void)
{
	cJSON *prof, *diffs;
	const cJSON *st, *vw;

	prof = s_fs_import("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\nsd=sd3,lun=/dev/sdd\n"
			   "wd=wd1,sd=sd1,rdpct=0,iorate=100\nwd=wd2,sd=sd2,iorate=1000\n"
			   "wd=wd3,sd=sd3\nrd=run1,wd=wd*,elapsed=60,iorate=max\n",
			   &diffs);
	CHECK(prof && !cJSON_GetArraySize(diffs));
	st = cJSON_GetArrayItem(cJSON_GetObjectItem(prof, "steps"), 0);
	vw = cJSON_GetObjectItem(st, "volume_workloads");
	CHECK(s_num(st, "rate_iops") == 100 && !strcmp(s_str(st, "rate_process"), "poisson"));
	CHECK(vw && s_num(cJSON_GetObjectItem(vw, "1"), "rate_iops") == 1000 &&
	      !strcmp(s_str(cJSON_GetObjectItem(vw, "1"), "rate_process"), "poisson"));
	CHECK(vw && s_num(cJSON_GetObjectItem(vw, "2"), "rate_iops") == 0 &&
	      !strcmp(s_str(cJSON_GetObjectItem(vw, "2"), "rate_process"), "linear"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);

	prof = s_fs_import("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\n"
			   "wd=wd1,sd=sd1,iorate=100\nwd=wd2,sd=sd2\nwd=wd3,sd=sd1,iorate=10.5\n"
			   "rd=r1,wd=(wd1,wd2),elapsed=60,iorate=500\n"
			   "rd=r2,wd=(wd1,wd3),elapsed=60,iorate=max\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:3: iorate=100 on wd=wd1 in rd=r1 at iorate=500"));
	CHECK(s_diff_has(diffs, "f.parm:3: iorate=100 on wd=wd1 beside other wds on sd=sd1") ||
	      s_diff_has(diffs, "f.parm:5: iorate=10.5 on wd=wd3 beside other wds on sd=sd1"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
	prof = s_fs_import("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1,iorate=10.5\n"
			   "rd=r1,wd=wd1,elapsed=60,iorate=max\n",
			   &diffs);
	CHECK(s_diff_has(diffs, "f.parm:2: iorate=10.5: a profile's rate is whole"));
	cJSON_Delete(prof);
	cJSON_Delete(diffs);
}

int main(void)
{
	s_parse();
	s_map();
	s_fs();
	s_windows();
	s_variables();
	s_fileselect_poisson();
	s_hitarea();
	s_names_sizes();
	s_wd_streams();
	s_skew_zero();
	s_keywords();
	s_openflags_sync();
	s_fsd_shared_total();
	s_fwd_loops();
	s_threads_pause();
	s_accepted();
	s_fwd_format();
	s_valid();
	s_threads_hosts();
	s_hotband();
	s_count_fwdrate();
	s_wd_iorate();
	TEST_DONE();
}
