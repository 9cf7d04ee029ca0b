/*
 * test_repeat.c - "repeat" in a profile (common/profile/repeat.c): the
 * steps expand into "<name>#k" in rounds, the resolved profile parses back
 * to the same steps, bad values name their JSON path, and run.json names
 * map back to their step.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "bc_test.h"

static char s_err[512];

static int s_parse(const char *sq, struct bc_profile **p)
{
	static char text[8192];
	size_t i;

	for (i = 0; sq[i] && i < sizeof(text) - 1; i++)
		text[i] = sq[i] == '\'' ? '"' : sq[i];
	text[i] = '\0';
	return bc_profile_parse(text, "p.json", p, s_err, sizeof(s_err));
}

#define HEAD                                                                                       \
	"{'name':'t','agents':[{'name':'a','endpoint':'local'}],"                                  \
	"'volumes':[{'agent':'a','path':'null'}],"

static void s_names(const struct bc_profile *p, char *out, size_t len)
{
	int i;

	out[0] = '\0';
	for (i = 0; i < p->nsteps; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? " " : "",
			 p->steps[i].name);
}

static void test_rounds(void)
{
	struct bc_profile *p = NULL, *q = NULL;
	char names[512], again[512];
	cJSON *j;
	char *txt;

	CHECK_MSG(!s_parse(HEAD "'repeat':2,'steps':[{'name':'fill','rw':'write','repeat':1},"
				"{'name':'rd','iodepth':4,'sweep':{'iodepth':[1,2]}},"
				"{'name':'wr','rw':'randwrite','repeat':3}]}",
			   &p),
		  "%s", s_err);
	if (!p)
		return;
	s_names(p, names, sizeof(names));
	CHECK_MSG(!strcmp(names, "fill rd#1 wr#1 rd#2 wr#2 wr#3"), "%s", names);
	CHECK(p->nsteps == 6);
	CHECK(p->steps[0].nrep == 1 && p->steps[5].rep == 3 && p->steps[5].nrep == 3);
	CHECK(p->steps[5].wl.rw == BC_RW_RANDWRITE);
	/* each repetition owns its sweep */
	CHECK(p->steps[1].sweep && p->steps[3].sweep && p->steps[1].sweep != p->steps[3].sweep);

	/* the resolved profile holds each step once with its repeat, and reads back the same */
	j = bc_profile_to_json(p);
	txt = j ? cJSON_PrintUnformatted(j) : NULL;
	CHECK(txt && cJSON_GetArraySize(cJSON_GetObjectItem(j, "steps")) == 3);
	CHECK(txt && !strstr(txt, "#"));
	if (txt && !bc_profile_parse(txt, "resolved.json", &q, s_err, sizeof(s_err))) {
		s_names(q, again, sizeof(again));
		CHECK_MSG(!strcmp(again, names), "%s", again);
	} else {
		CHECK_MSG(0, "resolved profile: %s", s_err);
	}
	free(txt);
	cJSON_Delete(j);
	bc_profile_destroy(&q);
	bc_profile_destroy(&p);

	/* no repeat anywhere: names untouched */
	CHECK(!s_parse(HEAD "'steps':[{'name':'s'}]}", &p));
	CHECK(p && p->nsteps == 1 && !strcmp(p->steps[0].name, "s"));
	bc_profile_destroy(&p);
}

static void test_errors(void)
{
	struct bc_profile *p = NULL;

	CHECK(s_parse(HEAD "'steps':[{'name':'s','repeat':0}]}", &p) == -EINVAL && !p);
	CHECK_MSG(strstr(s_err, "steps[0].repeat"), "%s", s_err);
	CHECK(s_parse(HEAD "'repeat':'x','steps':[{'name':'s'}]}", &p) == -EINVAL);
	CHECK_MSG(strstr(s_err, "repeat"), "%s", s_err);
	CHECK(s_parse(HEAD "'steps':[{'name':'s','repeat':101}]}", &p) == -EINVAL);
	CHECK(s_parse(HEAD "'steps':[{'name':'"
			   "a123456789b123456789c123456789d123456789e123456789f1234567890',"
			   "'repeat':2}]}",
		      &p) == -EINVAL);
	CHECK_MSG(strstr(s_err, "steps[0]: name"), "%s", s_err);
}

static void test_repeat_of(void)
{
	char base[64];
	uint32_t rep = 0;

	CHECK(bc_step_repeat_of("seq#2", base, sizeof(base), &rep) && rep == 2 &&
	      !strcmp(base, "seq"));
	CHECK(bc_step_repeat_of("seq#12@iodepth=4", base, sizeof(base), &rep) && rep == 12 &&
	      !strcmp(base, "seq@iodepth=4"));
	CHECK(!bc_step_repeat_of("seq", base, sizeof(base), &rep));
	CHECK(!bc_step_repeat_of("seq#0", base, sizeof(base), &rep));
	CHECK(!bc_step_repeat_of("seq#2x", base, sizeof(base), &rep));
	CHECK(!bc_step_repeat_of("seq@iodepth=4", NULL, 0, NULL));
}

int main(void)
{
	test_rounds();
	test_errors();
	test_repeat_of();
	TEST_DONE();
}
