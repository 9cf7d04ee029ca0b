/* test_expect - the profile's "expect" criteria: parsing, JSON-path errors, metric names, round
 * trip */
#include <errno.h>
#include <string.h>

#include "profile/expect.h"
#include "profile/profile.h"
#include "bc_test.h"

#define HEAD                                                                                       \
	"{'name':'t','agents':[{'name':'a','endpoint':'local'}],"                                  \
	"'nodes':[{'name':'n1'}],'volumes':[{'agent':'a','path':'null','node':'n1'}],"             \
	"'steps':[{'name':'s1'},{'name':'s2'}],"

static char s_err[512];

static int parse(const char *sq, struct bc_profile **p)
{
	static char text[4096];
	size_t i;

	for (i = 0; sq[i] && i < sizeof(text) - 1; i++)
		text[i] = sq[i] == '\'' ? '"' : sq[i];
	text[i] = '\0';
	return bc_profile_parse(text, "p.json", p, s_err, sizeof(s_err));
}

static void expect_err(int line, const char *json, const char *needle)
{
	struct bc_profile *p = NULL;

	if (parse(json, &p) != -EINVAL || !strstr(s_err, needle)) {
		fprintf(stderr, "%s:%d: expected an error with \"%s\", got \"%s\"\n", __FILE__,
			line, needle, s_err);
		bc_test_failures++;
	}
	bc_profile_destroy(&p);
}
#define EXPECT_ERR(json, needle) expect_err(__LINE__, json, needle)

static void test_valid(void)
{
	struct bc_profile *p = NULL, *q = NULL;
	cJSON *j;
	char *text;

	CHECK(parse(HEAD "'expect':[{'step':'s1','metric':'read_gbps','min':24},"
			 "{'step':'s2','metric':'p99.9_ms','max':2.5,'agent':'a'},"
			 "{'step':'s2','metric':'errors','min':0,'max':0,'node':'n1'}]}",
		    &p) == 0);
	CHECK_MSG(p && p->nexpects == 3, "%s", s_err);
	if (!p)
		return;
	CHECK(!strcmp(p->expects[0].metric, "read_gbps") && p->expects[0].has_min &&
	      !p->expects[0].has_max && p->expects[0].min == 24);
	CHECK(p->expects[1].scope == BC_EXPECT_AGENT && !strcmp(p->expects[1].entity, "a"));
	CHECK(p->expects[2].scope == BC_EXPECT_NODE && p->expects[2].has_max);
	/* the resolved profile keeps the criteria and parses back the same */
	j = bc_profile_to_json(p);
	text = cJSON_Print(j);
	CHECK(bc_profile_parse(text, "resolved", &q, s_err, sizeof(s_err)) == 0);
	CHECK(q && q->nexpects == 3 && !memcmp(q->expects, p->expects, 3 * sizeof(*q->expects)));
	cJSON_free(text);
	cJSON_Delete(j);
	bc_profile_destroy(&q);
	bc_profile_destroy(&p);

	/* no "expect": nothing in the resolved form either */
	CHECK(parse(HEAD "'defaults':{}}", &p) == 0);
	j = p ? bc_profile_to_json(p) : NULL;
	CHECK(j && !cJSON_GetObjectItem(j, "expect"));
	cJSON_Delete(j);
	bc_profile_destroy(&p);
}

static void test_errors(void)
{
	EXPECT_ERR(HEAD "'expect':{}}", "expect: expected an array");
	EXPECT_ERR(HEAD "'expect':[{'step':'s1','metric':'iops','min':1,'x':1}]}",
		   "expect[0].x: unknown key");
	EXPECT_ERR(HEAD "'expect':[{'metric':'iops','min':1}]}", "expect[0].step: required key");
	EXPECT_ERR(HEAD "'expect':[{'step':'nope','metric':'iops','min':1}]}",
		   "expect[0].step: expected the name of a declared step, got \"nope\"");
	EXPECT_ERR(HEAD "'expect':[{'step':'s1','metric':'iops','min':1},"
			"{'step':'s1','metric':'bandwidth','min':1}]}",
		   "expect[1].metric: unknown metric \"bandwidth\" (known: iops, mbps, gbps");
	EXPECT_ERR(HEAD "'expect':[{'step':'s1','metric':'iops'}]}",
		   "expect[0]: give \"min\", \"max\" or both");
	EXPECT_ERR(HEAD "'expect':[{'step':'s1','metric':'iops','min':'1k'}]}",
		   "expect[0].min: expected a number, got \"1k\"");
	EXPECT_ERR(HEAD "'expect':[{'step':'s1','metric':'iops','min':5,'max':1}]}",
		   "expect[0]: min 5 is above max 1");
	EXPECT_ERR(HEAD "'expect':[{'step':'s1','metric':'iops','min':1,'agent':'zz'}]}",
		   "expect[0].agent: unknown agent \"zz\"");
	EXPECT_ERR(HEAD "'expect':[{'step':'s1','metric':'iops','min':1,'agent':'a','node':'n1'}]}",
		   "expect[0]: give \"agent\" or \"node\", not both");
}

static void test_metrics(void)
{
	const struct bc_expect_metric *m;
	int n = 0;

	for (m = bc_expect_metrics; m->name; m++, n++)
		CHECK_MSG(bc_expect_metric_find(m->name) == m, "%s", m->name);
	CHECK(n == 33);
	m = bc_expect_metric_find("write_p99_ms");
	CHECK(m && !strcmp(m->op, "write") && !strcmp(m->lat, "p99") && m->scale == 1e-3);
	CHECK(!bc_expect_metric_find("p99") && !bc_expect_metric_find(NULL));
}

int main(void)
{
	test_valid();
	test_errors();
	test_metrics();
	TEST_DONE();
}
