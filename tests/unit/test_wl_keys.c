/* test_wl_keys.c - the workload key table: the docs and the man page name every key and its
 * per-volume ones, the sweep's dimensions are its sweep keys, the wire form is the table in
 * order and reads back, per-volume overrides resolve against each step as if written there */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "profile/sweep.h"
#include "profile/workload/keys.h"
#include "bc_test.h"

static char *s_read(const char *rel)
{
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", BC_SRC_DIR, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* name in text as a whole word (not "rw" inside "rwmixread") between start and end */
static bool s_word(const char *start, const char *end, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = start; (p = strstr(p, name)) && p + n <= end; p++) {
		char before = p > start ? p[-1] : ' ', after = p[n];

		if ((before == '_' || (before >= 'a' && before <= 'z')) ||
		    (after == '_' || (after >= 'a' && after <= 'z')))
			continue;
		return true;
	}
	return false;
}

/* the span of text from the first `from` to the next `to` after it */
static const char *s_span(const char *text, const char *from, const char *to, const char **end)
{
	const char *a = text ? strstr(text, from) : NULL,
		   *b = a ? strstr(a + strlen(from), to) : NULL;

	*end = b ? b : (a ? a + strlen(a) : NULL);
	return a;
}

/* every key in the docs' and the man page's key lists; the per-volume sentence names exactly
 * the BC_WK_VOLUME keys */
static void test_docs(void)
{
	char *md = s_read("docs/profiles.md"), *man = s_read("man/bench-coord-profile.5");
	const char *mv, *mve, *dv, *dve, *mw, *mwe;
	char tick[64];
	int i;

	CHECK(md && man);
	if (!md || !man)
		goto out;
	dv = s_span(md, "A volume may carry `\"workload\"", "\n- ", &dve);
	mv = s_span(man, ".B workload\nOverrides", ".TP", &mve);
	mw = s_span(man, ".SH WORKLOAD", ".SH EXPECT", &mwe);
	CHECK(dv && mv && mw);
	if (!dv || !mv || !mw)
		goto out;
	for (i = 0; i < bc_wl_nkeys; i++) {
		const struct bc_wl_key *k = &bc_wl_keys[i];
		bool vol = k->where & BC_WK_VOLUME;

		snprintf(tick, sizeof(tick), "`%s`", k->name);
		CHECK_MSG(strstr(md, tick), "docs/profiles.md does not name %s", tick);
		CHECK_MSG(s_word(mw, mwe, k->name),
			  "bench-coord-profile.5's WORKLOAD section does not name %s", k->name);
		CHECK_MSG(s_word(dv, dve, tick) == vol, "docs/profiles.md's per-volume list %s %s",
			  vol ? "lacks" : "names", tick);
		CHECK_MSG(s_word(mv, mve, k->name) == vol,
			  "bench-coord-profile.5's volume workload list %s %s",
			  vol ? "lacks" : "names", k->name);
	}
out:
	free(md);
	free(man);
}

/* names unique and found; sweep dimensions; the stream's keys are workload keys */
static void test_table(void)
{
	int i, j, nsweep = 0;

	for (i = 0; i < bc_wl_nkeys; i++) {
		CHECK(bc_wl_key_find(bc_wl_keys[i].name) == &bc_wl_keys[i]);
		for (j = 0; j < i; j++)
			CHECK(strcmp(bc_wl_keys[i].name, bc_wl_keys[j].name));
		if (bc_wl_keys[i].where & BC_WK_SWEEP)
			nsweep++;
		/* the strict wire form needs its required keys first, as older agents read them */
		if (i && (bc_wl_keys[i].where & BC_WK_WIRE))
			CHECK(bc_wl_keys[i - 1].where & BC_WK_WIRE);
	}
	CHECK(!bc_wl_key_find("bogus"));
	/* the streams after the keys they inherit, the KV store after the streams it is made of */
	CHECK(!strcmp(bc_wl_keys[bc_wl_nkeys - 2].name, "streams"));
	CHECK(!strcmp(bc_wl_keys[bc_wl_nkeys - 1].name, "kv"));
	/* enum bc_sweep_param's dimensions but curve are the table's sweep keys */
	for (i = BC_SWEEP_IODEPTH; i <= BC_SWEEP_RWMIXREAD; i++) {
		const struct bc_wl_key *k = bc_wl_key_find(bc_sweep_param_names[i]);

		if (i == BC_SWEEP_CURVE)
			continue;
		CHECK_MSG(k && (k->where & BC_WK_SWEEP), "%s", bc_sweep_param_names[i]);
	}
	CHECK(nsweep == BC_SWEEP_RWMIXREAD - BC_SWEEP_IODEPTH); /* every one but curve */
}

/* the wire form carries the table's keys in its order and reads back to the same workload */
static void test_wire(void)
{
	struct bc_workload wl = bc_workload_builtin, back;
	char err[256];
	const cJSON *it;
	cJSON *j;
	int i = 0;

	wl.rw = BC_RW_RANDRW;
	wl.rwmixtrim = 10;
	wl.placement.kind = BC_PLACEMENT_NONE;
	wl.seq_pct = 30; /* an NZ key: written because it is not zero */
	j = bc_workload_to_json(&wl);
	CHECK(j != NULL);
	cJSON_ArrayForEach(it, j)
	{
		/* without streams, stream_share, streams and kv are not written, nor zero NZ keys
		 */
		while (i < bc_wl_nkeys && ((bc_wl_keys[i].where & BC_WK_STREAMS) ||
					   ((bc_wl_keys[i].where & BC_WK_NZ) &&
					    strcmp(bc_wl_keys[i].name, "seq_pct"))))
			i++;
		CHECK_MSG(i < bc_wl_nkeys && !strcmp(it->string, bc_wl_keys[i].name),
			  "wire key %s out of table order", it->string);
		i++;
	}
	CHECK(i == bc_wl_nkeys - 3);
	CHECK(bc_workload_from_json(j, &back, err, sizeof(err)) == 0);
	CHECK(back.rw == BC_RW_RANDRW && back.rwmixtrim == 10 &&
	      back.placement.kind == BC_PLACEMENT_NONE && back.sqpoll_cpu == -1 &&
	      back.batch_submit == 1 && back.seq_pct == 30 && !back.dedupe_pct);
	cJSON_Delete(j);
}

static struct bc_profile *s_profile(const char *text, char *err, size_t len)
{
	struct bc_profile *p = NULL;

	if (bc_profile_parse(text, "p.json", &p, err, len))
		fprintf(stderr, "parse: %s\n", err);
	return p;
}

/* a volume's streams take the keys they do not give from each step, not from the defaults */
static void test_override_streams(void)
{
	static const char text[] =
	    "{\"name\": \"t\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\", \"workload\":"
	    "   {\"bs\": \"8k\", \"streams\": [{\"name\": \"h\", \"share\": 1},"
	    "                                {\"name\": \"c\", \"share\": 1, \"rw\": \"read\"}]}},"
	    "   {\"agent\": \"a\", \"path\": \"null\"}],"
	    " \"steps\": [{\"name\": \"w\", \"rw\": \"randwrite\", \"rwmixread\": 0},"
	    "   {\"name\": \"r\", \"rw\": \"randread\", \"repeat\": 2, \"volume_workloads\":"
	    "     {\"1\": {\"iodepth\": 8}}}]}";
	char err[512];
	struct bc_profile *p = s_profile(text, err, sizeof(err));
	struct bc_workload w;

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(p->nsteps == 3);
	bc_step_volume_workload(&p->steps[0], &p->volumes[0], 0, &w);
	CHECK(w.nstreams == 2 && w.streams[0].rw == BC_RW_RANDWRITE && w.streams[0].bs == 8192 &&
	      w.streams[1].rw == BC_RW_READ);
	bc_step_volume_workload(&p->steps[1], &p->volumes[0], 0, &w);
	CHECK(w.nstreams == 2 && w.streams[0].rw == BC_RW_RANDREAD);
	/* the repetitions own their overrides (destroy frees each once) */
	CHECK(!bc_step_volume_overridden(&p->steps[0], &p->volumes[1], 1));
	bc_step_volume_workload(&p->steps[2], &p->volumes[1], 1, &w);
	CHECK(bc_step_volume_overridden(&p->steps[2], &p->volumes[1], 1) && w.iodepth == 8);
	CHECK(bc_wl_override_has(p->volumes[0].workload, "streams") &&
	      !bc_wl_override_has(p->volumes[0].workload, "iodepth"));
	bc_profile_destroy(&p);
}

/* an override's error is found at load with its JSON path, for the step that breaks it */
static void test_override_errors(void)
{
	static const char head[] =
	    "{\"name\": \"t\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\"%s}], \"steps\": [%s]}";
	static const struct {
		const char *vol, *steps, *want;
	} cases[] = {
	    {", \"workload\": {\"streams\": [{\"name\": \"h\", \"share\": 1, \"rwmixtrim\": 40}]}",
	     "{\"name\": \"ok\", \"rw\": \"randrw\", \"rwmixread\": 50}, {\"name\": \"bad\", "
	     "\"rw\": \"randrw\", \"rwmixread\": 70}",
	     "p.json: volumes[0].workload.streams[0].rwmixtrim: rwmixread 70 + rwmixtrim 40 exceed "
	     "100 percent (in step \"bad\")"},
	    {", \"workload\": {\"verify\": true}", "{\"name\": \"s\", \"bs\": \"512\"}",
	     "p.json: volumes[0].workload.verify: verify checks 4 KiB blocks"},
	    {"", "{\"name\": \"s\", \"volume_workloads\": {\"01\": {\"iodepth\": 2}}}",
	     "p.json: steps[0].volume_workloads.01: expected a volume index 0..0 (once)"},
	    {", \"workload\": {\"numjobs\": 2}", "{\"name\": \"s\"}",
	     "p.json: volumes[0].workload.numjobs: applies to the whole step"},
	};
	char text[2048], err[512];
	struct bc_profile *p;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), head, cases[i].vol, cases[i].steps);
		p = NULL;
		err[0] = '\0';
		CHECK(bc_profile_parse(text, "p.json", &p, err, sizeof(err)) == -EINVAL && !p);
		CHECK_MSG(!strncmp(err, cases[i].want, strlen(cases[i].want)), "got \"%s\"", err);
		bc_profile_destroy(&p);
	}
}

int main(void)
{
	test_docs();
	test_table();
	test_wire();
	test_override_streams();
	test_override_errors();
	TEST_DONE();
}
