/*
 * test_vdbparm - the vdbench parameter-file reader (vdbparm.c): comments,
 * definitions and their pairs with lines, lists kept whole, continuation
 * lines, defaults, general parameters, syntax errors with file:line; and
 * the mapping of one small file (threads, elapsed, xfersize distribution,
 * a refused seekpct) without going through the command.
 */
#include <errno.h>
#include <string.h>

#include "import/import.h"
#include "import/vdbparm.h"
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

int main(void)
{
	s_parse();
	s_map();
	TEST_DONE();
}
