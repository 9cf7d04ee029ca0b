/* test_profile - profile parsing: defaults, precedence, every error class, JSON forms, profiles/ */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "profile/counters.h"
#include "profile/profile.h"
#include "bc_test.h"

/* JSON in C literals is written with ' for " to stay readable */
#define AGENTS                                                                                     \
	"'agents':[{'name':'a','endpoint':'local'},{'name':'b','endpoint':'tcp://"                 \
	"b.example:7470'},"                                                                        \
	"{'name':'c','endpoint':'ipc:///tmp/c'}],"
#define HEAD  "{'name':'t'," AGENTS
#define VOLS  "'volumes':[{'agent':'a','path':'null'}],"
#define STEPS "'steps':[{'name':'s'}]}"

static char s_err[512];

static int parse(const char *sq, struct bc_profile **p)
{
	static char text[16384];
	size_t i;

	for (i = 0; sq[i] && i < sizeof(text) - 1; i++)
		text[i] = sq[i] == '\'' ? '"' : sq[i];
	text[i] = '\0';
	return bc_profile_parse(text, "p.json", p, s_err, sizeof(s_err));
}

/* parse must fail with a message holding every needle (NULL-terminated) */
#define EXPECT_ERR(json, ...) expect_err(__LINE__, json, __VA_ARGS__, NULL)
static void expect_err(int line, const char *json, ...)
{
	struct bc_profile *p = NULL;
	const char *needle;
	va_list ap;
	int ret;

	ret = parse(json, &p);
	if (ret != -EINVAL || p) {
		fprintf(stderr, "%s:%d: expected -EINVAL, got %d (%s)\n", __FILE__, line, ret,
			s_err);
		bc_test_failures++;
		bc_profile_destroy(&p);
		return;
	}
	va_start(ap, json);
	while ((needle = va_arg(ap, const char *))) {
		if (!strstr(s_err, needle)) {
			fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, line,
				s_err, needle);
			bc_test_failures++;
		}
	}
	va_end(ap);
}

static struct bc_profile *expect_ok(const char *json)
{
	struct bc_profile *p = NULL;
	int ret = parse(json, &p);

	CHECK_MSG(ret == 0 && p, "ret %d: %s", ret, s_err);
	return p;
}

static void test_minimal_defaults(void)
{
	struct bc_profile *p = expect_ok(HEAD VOLS STEPS);
	const struct bc_workload *wl;

	if (!p)
		return;
	CHECK(!strcmp(p->name, "t"));
	CHECK(!strcmp(p->source, "p.json"));
	CHECK(p->nagents == 3 && p->nnodes == 0 && p->nvolumes == 1 && p->nsteps == 1);
	CHECK(p->agents[0].local && !p->agents[1].local && !p->agents[2].local);
	CHECK(!strcmp(p->agents[1].endpoint, "tcp://b.example:7470"));
	CHECK(p->volumes[0].agent == 0 && p->volumes[0].node == -1);
	CHECK(!strcmp(p->volumes[0].path, "null"));
	CHECK(!p->volumes[0].size_bytes && !p->volumes[0].offset_bytes &&
	      !p->volumes[0].length_bytes);
	wl = &p->steps[0].wl;
	CHECK(!strcmp(p->steps[0].name, "s"));
	CHECK(wl->rw == BC_RW_RANDREAD && wl->rwmixread_ppm == 50 * BC_SPLIT_PCT1 &&
	      wl->bs == 4096);
	CHECK(wl->iodepth == 1 && wl->numjobs == 1 && wl->direct);
	CHECK(wl->ramp_s == 0 && wl->runtime_s == 10);
	bc_profile_destroy(&p);
	CHECK(p == NULL);
	bc_profile_destroy(&p); /* NULL is fine */
}

static void test_precedence(void)
{
	struct bc_profile *p = expect_ok(
	    HEAD VOLS "'defaults':{'bs':'8k','iodepth':4,'runtime':'1m','direct':false},"
		      "'steps':[{'name':'a'},{'name':'b','bs':16384,'runtime':30,'rw':'randrw',"
		      "'rwmixread':70,'ramp':'2s'}]}");

	if (!p)
		return;
	CHECK(p->steps[0].wl.bs == 8192 && p->steps[0].wl.iodepth == 4);
	CHECK(p->steps[0].wl.runtime_s == 60 && !p->steps[0].wl.direct);
	CHECK(p->steps[0].wl.numjobs == 1 && p->steps[0].wl.rw == BC_RW_RANDREAD);
	CHECK(p->steps[1].wl.bs == 16384 && p->steps[1].wl.iodepth == 4);
	CHECK(p->steps[1].wl.runtime_s == 30 && p->steps[1].wl.ramp_s == 2);
	CHECK(p->steps[1].wl.rw == BC_RW_RANDRW &&
	      p->steps[1].wl.rwmixread_ppm == 70 * BC_SPLIT_PCT1);
	bc_profile_destroy(&p);
}

static void test_syntax(void)
{
	/* the '2' after "[1 " is line 3, byte column 16 */
	EXPECT_ERR("{\n  'name': 't',\n  'agents': [1 2]\n}",
		   "p.json:3:16: JSON syntax error near '2]'");
	EXPECT_ERR("{'name':", "p.json:1:9: JSON syntax error at end of input");
	EXPECT_ERR("", "p.json:1:1: JSON syntax error at end of input");
	EXPECT_ERR("{} x", "p.json:1:4: JSON syntax error near 'x'");
	/* the excerpt stops at 20 characters */
	EXPECT_ERR("{\n\t'a': nope_nope_nope_nope_nope}",
		   "p.json:2:7: JSON syntax error near 'nope_nope_nope_nope_'");
	EXPECT_ERR("[1]", "p.json: expected an object at the top level, got [1]");
}

static void test_unknown_keys(void)
{
	EXPECT_ERR(HEAD VOLS "'foo':1," STEPS, "p.json: foo: unknown key");
	EXPECT_ERR("{'name':'t','agents':[{'name':'a','endpoint':'local','x':1}]," VOLS STEPS,
		   "p.json: agents[0].x: unknown key");
	EXPECT_ERR(HEAD "'nodes':[{'name':'n','mac':'x'}]," VOLS STEPS,
		   "p.json: nodes[0].mac: unknown key");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'null','bs':'4k'}]," STEPS,
		   "p.json: volumes[0].bs: unknown key");
	EXPECT_ERR(HEAD VOLS "'defaults':{'name':'x'}," STEPS,
		   "p.json: defaults.name: unknown key");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','foo':1}]}",
		   "p.json: steps[0].foo: unknown key");
	/* keys are case-sensitive */
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','BS':'4k'}]}", "steps[0].BS: unknown key");
	EXPECT_ERR(HEAD VOLS "'name':'u'," STEPS, "p.json: name: duplicate key");
}

static void test_missing(void)
{
	EXPECT_ERR("{" AGENTS VOLS STEPS, "p.json: name: required key missing");
	EXPECT_ERR("{'name':'t'," VOLS STEPS, "p.json: agents: required key missing");
	EXPECT_ERR(HEAD STEPS, "p.json: volumes: required key missing");
	EXPECT_ERR(HEAD VOLS "'defaults':{}}", "p.json: steps: required key missing");
	EXPECT_ERR(HEAD VOLS "'steps':[]}", "p.json: steps: expected a non-empty array");
	EXPECT_ERR(HEAD "'volumes':[]," STEPS, "p.json: volumes: expected a non-empty array");
	EXPECT_ERR("{'name':'t','agents':[{'name':'a'}]," VOLS STEPS,
		   "p.json: agents[0].endpoint: required key missing");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a'}]," STEPS,
		   "p.json: volumes[0].path: required key missing");
	EXPECT_ERR(HEAD "'volumes':[{'path':'null'}]," STEPS,
		   "p.json: volumes[0].agent: required key missing");
	EXPECT_ERR(HEAD VOLS "'steps':[{'bs':'4k'}]}",
		   "p.json: steps[0].name: required key missing");
	EXPECT_ERR(HEAD "'nodes':[{'nic':'eth0'}]," VOLS STEPS,
		   "p.json: nodes[0].name: required key missing");
}

static void test_wrong_types(void)
{
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s'},{'name':'t','iodepth':'x'}]}",
		   "p.json: steps[1].iodepth: expected integer >= 1, got \"x\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','iodepth':1.5}]}",
		   "steps[0].iodepth: expected integer >= 1, got 1.5");
	EXPECT_ERR(HEAD VOLS "'steps':{}}", "p.json: steps: expected a non-empty array, got {}");
	EXPECT_ERR("{'name':5," AGENTS VOLS STEPS, "p.json: name: expected a name", "got 5");
	EXPECT_ERR("{'name':'a b'," AGENTS VOLS STEPS, "p.json: name: expected a name",
		   "got \"a b\"");
	EXPECT_ERR(HEAD VOLS "'description':[]," STEPS, "description: expected a string, got []");
	EXPECT_ERR("{'name':'t','agents':['a']," VOLS STEPS,
		   "p.json: agents[0]: expected an object, got \"a\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','direct':'yes'}]}",
		   "steps[0].direct: expected true or false, got \"yes\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','rw':'readwrite'}]}",
		   "steps[0].rw: expected one of read, write", "got \"readwrite\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','bs':true}]}", "steps[0].bs: expected a size",
		   "got true");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','bs':'4q'}]}",
		   "steps[0].bs: expected a size such as", "got \"4q\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','runtime':'ten'}]}",
		   "steps[0].runtime: expected a duration", "got \"ten\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','ramp':-1}]}",
		   "steps[0].ramp: expected a duration", "got -1");
	EXPECT_ERR(HEAD VOLS "'defaults':[]," STEPS,
		   "p.json: defaults: expected an object, got []");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'null','size':-4096}]," STEPS,
		   "volumes[0].size: expected a size", "got -4096");
	/* long values are cut so the message stays one short line */
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','iodepth':[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,"
			     "16,17,18,19,20]}]}",
		   "steps[0].iodepth: expected integer >= 1, got [1,2,3,4,5,6,7,8,9,10,11,12,13,14,"
		   "15,16,17,1...");
}

static void test_ranges(void)
{
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','iodepth':70000}]}",
		   "p.json: steps[0].iodepth: must be in 1..65536, got 70000");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','numjobs':0}]}",
		   "steps[0].numjobs: must be in 1..1024, got 0");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','numjobs':1025}]}",
		   "steps[0].numjobs: must be in 1..1024, got 1025");
	EXPECT_ERR(HEAD VOLS "'defaults':{'rwmixread':101}," STEPS,
		   "p.json: defaults.rwmixread: must be in 0..100, got 101");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','bs':1000}]}",
		   "steps[0].bs: must be a multiple of 512", "got 1000");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','bs':'0'}]}",
		   "steps[0].bs: must be a multiple of 512", "got \"0\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','bs':'2g'}]}",
		   "steps[0].bs: must be a multiple of 512 in 512..1g", "got \"2g\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','runtime':'0s'}]}",
		   "steps[0].runtime: must be >= 1s, got \"0s\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','runtime':0}]}",
		   "steps[0].runtime: must be >= 1s, got 0");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','runtime':'1500ms'}]}",
		   "steps[0].runtime: durations are whole seconds, got \"1500ms\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s','ramp':'99999999999h'}]}",
		   "steps[0].ramp: must be at most 4294967295 seconds");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'f','size':'16384t'}]," STEPS,
		   "volumes[0].size: size too large");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'f','offset':'100'}]," STEPS,
		   "p.json: volumes[0].offset: must be a multiple of 512, got \"100\"");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'f','size':'1m','offset':'1m'}]," STEPS,
		   "p.json: volumes[0]: I/O window (offset 1m, length 0) exceeds size 1m");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'f','size':'1m','offset':'512k',"
			"'length':'1m'}]," STEPS,
		   "volumes[0]: I/O window (offset 512k, length 1m) exceeds size 1m");

	/* the edges themselves are accepted */
	struct bc_profile *p = expect_ok(
	    HEAD "'volumes':[{'agent':'a','path':'f','size':'1m','offset':'512k','length':'512k'}],"
		 "'steps':[{'name':'s','iodepth':65536,'numjobs':1024,'rwmixread':0,'bs':'1g',"
		 "'runtime':'1000ms','ramp':0}]}");
	if (p) {
		CHECK(p->volumes[0].offset_bytes == 512 * 1024 &&
		      p->volumes[0].length_bytes == 512 * 1024);
		CHECK(p->steps[0].wl.bs == 1u << 30 && p->steps[0].wl.runtime_s == 1);
		bc_profile_destroy(&p);
	}
}

static void test_agents_nodes_volumes(void)
{
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'x1'},{'agent':'b','path':'x2'},"
			"{'agent':'c','path':'x3'},{'agent':'client-9','path':'x4'}]," STEPS,
		   "p.json: volumes[3].agent: unknown agent \"client-9\" (declared: a, b, c)");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'null','node':'x'}]," STEPS,
		   "p.json: volumes[0].node: unknown node \"x\" (no nodes declared)");
	EXPECT_ERR(HEAD "'nodes':[{'name':'n1'},{'name':'n2'}],"
			"'volumes':[{'agent':'a','path':'null','node':'n3'}]," STEPS,
		   "volumes[0].node: unknown node \"n3\" (declared: n1, n2)");
	EXPECT_ERR("{'name':'t','agents':[{'name':'x','endpoint':'local'},{'name':'x','endpoint':"
		   "'local'}]," VOLS STEPS,
		   "p.json: agents[1].name: duplicate agent name \"x\"");
	EXPECT_ERR(HEAD "'nodes':[{'name':'n'},{'name':'n'}]," VOLS STEPS,
		   "p.json: nodes[1].name: duplicate node name \"n\"");
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'s'},{'name':'s'}]}",
		   "p.json: steps[1].name: duplicate step name \"s\"");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':'f'},{'agent':'a','path':'f'}]," STEPS,
		   "p.json: volumes[1].path: duplicate volume \"f\" on agent \"a\"");
	EXPECT_ERR("{'name':'t','agents':[{'name':'x','endpoint':'tcp://h.example:1'},{'name':'y',"
		   "'endpoint':'tcp://h.example:1'}]," VOLS STEPS,
		   "p.json: agents[1].endpoint: duplicate endpoint \"tcp://h.example:1\"");
	EXPECT_ERR("{'name':'t','agents':[{'name':'a','endpoint':'http://h.example'}]," VOLS STEPS,
		   "p.json: agents[0].endpoint: expected \"local\" or a tcp:// or ipc:// endpoint",
		   "got \"http://h.example\"");
	EXPECT_ERR("{'name':'t','agents':[{'name':'a','endpoint':'tcp://'}]," VOLS STEPS,
		   "agents[0].endpoint: expected \"local\"");
	EXPECT_ERR(HEAD "'volumes':[{'agent':'a','path':''}]," STEPS,
		   "p.json: volumes[0].path: expected a non-empty string");
	EXPECT_ERR(HEAD "'nodes':[{'name':'n','metrics':['n.example:9100']}]," VOLS STEPS,
		   "p.json: nodes[0].metrics[0]: expected an http:// or https:// URL");
	EXPECT_ERR(HEAD "'nodes':[{'name':'n','addresses':'n.example'}]," VOLS STEPS,
		   "p.json: nodes[0].addresses: expected an array of strings, got \"n.example\"");
	EXPECT_ERR(HEAD "'nodes':[{'name':'n','addresses':['a.example',7]}]," VOLS STEPS,
		   "p.json: nodes[0].addresses[1]: expected a non-empty string, got 7");
	EXPECT_ERR(HEAD "'nodes':[{'name':'n','nic':'a-very-long-nic-name'}]," VOLS STEPS,
		   "p.json: nodes[0].nic: expected an interface name of 1..15 characters");
	EXPECT_ERR(HEAD "'nodes':{}," VOLS STEPS, "p.json: nodes: expected an array, got {}");

	/* null may repeat; the same file on two agents is two files */
	struct bc_profile *p = expect_ok(
	    HEAD "'nodes':[{'name':'n','addresses':['n.example'],'metrics':['https://n.example/m'],"
		 "'nic':'bond0'}],"
		 "'volumes':[{'agent':'a','path':'null'},{'agent':'a','path':'null'},"
		 "{'agent':'b','path':'f','node':'n'},{'agent':'c','path':'f','size':'4k'}],"
		 "'steps':[{'name':'s'}]}");
	if (p) {
		CHECK(p->nnodes == 1 && p->nvolumes == 4);
		CHECK(p->volumes[2].agent == 1 && p->volumes[2].node == 0);
		CHECK(p->volumes[3].agent == 2 && p->volumes[3].size_bytes == 4096);
		CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(p->nodes[0].json, "nic")),
			      "bond0"));
		bc_profile_destroy(&p);
	}
}

static void test_long_path(void)
{
	static char json[4096];
	char path[BC_PATH_MAX + 1];
	struct bc_profile *p = NULL;

	memset(path, 'x', sizeof(path) - 1);
	path[BC_PATH_MAX] = '\0';
	snprintf(json, sizeof(json), HEAD "'volumes':[{'agent':'a','path':'%s'}]," STEPS, path);
	EXPECT_ERR(json, "volumes[0].path: expected a non-empty string of at most 1023 bytes");
	path[BC_PATH_MAX - 1] = '\0';
	snprintf(json, sizeof(json), HEAD "'volumes':[{'agent':'a','path':'%s'}]," STEPS, path);
	p = expect_ok(json);
	bc_profile_destroy(&p);
}

static bool wl_eq(const struct bc_workload *a, const struct bc_workload *b)
{
	return a->rw == b->rw && a->rwmixread_ppm == b->rwmixread_ppm && a->bs == b->bs &&
	       a->iodepth == b->iodepth && a->numjobs == b->numjobs && a->direct == b->direct &&
	       a->ramp_s == b->ramp_s && a->runtime_s == b->runtime_s;
}

static void test_workload_json(void)
{
	struct bc_workload in = {
	    .rw = BC_RW_RANDRW,
	    .rwmixread_ppm = 70 * BC_SPLIT_PCT1,
	    .bs = 1u << 20,
	    .iodepth = 65536,
	    .numjobs = 8,
	    .direct = false,
	    .ramp_s = 10,
	    .runtime_s = 300,
	};
	struct bc_workload out = {0};
	char err[256];
	cJSON *j, *bad;
	int rw;

	for (rw = BC_RW_READ; rw <= BC_RW_RANDRW; rw++) {
		in.rw = (enum bc_rw)rw;
		j = bc_workload_to_json(&in);
		CHECK(j != NULL);
		CHECK_MSG(bc_workload_from_json(j, &out, err, sizeof(err)) == 0, "%s", err);
		CHECK(wl_eq(&in, &out));
		CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "rw")), bc_rw_names[rw]));
		cJSON_Delete(j);
	}

	/* strict: every key, integers only, nothing unknown, and out is untouched on error */
	j = bc_workload_to_json(&in);
	cJSON_DeleteItemFromObject(j, "bs");
	out.bs = 777;
	CHECK(bc_workload_from_json(j, &out, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(!strcmp(err, "workload.bs: required key missing"), "%s", err);
	CHECK(out.bs == 777);
	cJSON_AddStringToObject(j, "bs", "4k");
	CHECK(bc_workload_from_json(j, &out, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(!strcmp(err, "workload.bs: expected integer bytes, got \"4k\""), "%s", err);
	cJSON_ReplaceItemInObject(j, "bs", cJSON_CreateNumber(4096));
	cJSON_ReplaceItemInObject(j, "runtime", cJSON_CreateString("10s"));
	CHECK(bc_workload_from_json(j, &out, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "workload.runtime: expected integer seconds"), "%s", err);
	cJSON_ReplaceItemInObject(j, "runtime", cJSON_CreateNumber(10));
	cJSON_AddNumberToObject(j, "extra", 1);
	CHECK(bc_workload_from_json(j, &out, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(!strcmp(err, "workload.extra: unknown key"), "%s", err);
	cJSON_DeleteItemFromObject(j, "extra");
	cJSON_ReplaceItemInObject(j, "iodepth", cJSON_CreateNumber(0));
	CHECK(bc_workload_from_json(j, &out, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "workload.iodepth: must be in 1..65536, got 0"), "%s", err);
	cJSON_Delete(j);

	bad = cJSON_CreateArray();
	CHECK(bc_workload_from_json(bad, &out, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(!strcmp(err, "workload: expected an object, got []"), "%s", err);
	cJSON_Delete(bad);
	/* NULL err is allowed */
	CHECK(bc_workload_from_json(NULL, &out, NULL, 0) == -EINVAL);
}

/* the resolved profile carries every default and parses back to itself */
static void test_profile_json(void)
{
	struct bc_profile *p, *q = NULL;
	cJSON *j, *k, *v, *s;
	char *text;
	int ret;

	p = expect_ok(HEAD "'nodes':[{'name':'n','nic':'bond0'}],"
			   "'volumes':[{'agent':'b','path':'f','size':'256m','node':'n'}],"
			   "'defaults':{'ramp':'2s'},'steps':[{'name':'s','bs':'1m'}]}");
	if (!p)
		return;
	j = bc_profile_to_json(p);
	CHECK(j != NULL);
	v = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "volumes"), 0);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "agent")), "b"));
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "node")), "n"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(v, "size")) == 256.0 * 1024 * 1024);
	s = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "steps"), 0);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(s, "rw")), "randread"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(s, "bs")) == 1048576.0);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(s, "ramp")) == 2.0);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(s, "runtime")) == 10.0);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(s, "direct")));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(j, "agents")) == 3);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(
			  cJSON_GetArrayItem(cJSON_GetObjectItem(j, "nodes"), 0), "nic")),
		      "bond0"));

	text = cJSON_Print(j);
	ret = bc_profile_parse(text, "resolved.json", &q, s_err, sizeof(s_err));
	CHECK_MSG(ret == 0, "%s", s_err);
	if (!ret) {
		k = bc_profile_to_json(q);
		CHECK(cJSON_Compare(j, k, true));
		cJSON_Delete(k);
	}
	cJSON_free(text);
	cJSON_Delete(j);
	bc_profile_destroy(&q);
	bc_profile_destroy(&p);
}

static void test_load(void)
{
	char path[] = "/tmp/test_profile_XXXXXX";
	struct bc_profile *p = NULL;
	const char *text = "{\"name\":\"f\",\"agents\":[{\"name\":\"a\",\"endpoint\":\"local\"}],"
			   "\"volumes\":[{\"agent\":\"a\",\"path\":\"null\"}],"
			   "\"steps\":[{\"name\":\"s\",\"bs\":1}]}";
	char want[128];
	int fd, ret;

	ret = bc_profile_load("/nonexistent/p.json", &p, s_err, sizeof(s_err));
	CHECK(ret == -ENOENT && !p);
	CHECK_MSG(!strcmp(s_err, "/nonexistent/p.json: No such file or directory"), "%s", s_err);

	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		CHECK(!"cannot write a temporary file");
		return;
	}
	close(fd);
	/* errors name the file that was loaded */
	ret = bc_profile_load(path, &p, s_err, sizeof(s_err));
	snprintf(want, sizeof(want), "%s: steps[0].bs: must be a multiple of 512", path);
	CHECK_MSG(ret == -EINVAL && strstr(s_err, want), "%s", s_err);
	unlink(path);

	ret = bc_profile_load("/tmp", &p, s_err, sizeof(s_err));
	CHECK_MSG(ret == -EISDIR && !strcmp(s_err, "/tmp: Is a directory"), "%d %s", ret, s_err);
}

/* the repository's profiles directory, or NULL when this build cannot see it */
static const char *profiles_dir(char *buf, size_t len)
{
	const char *src = getenv("BC_SRC");
	const char *tries[] = {"../profiles", "../../profiles"};
	size_t i;

	if (src) {
		snprintf(buf, len, "%s/profiles", src);
		return access(buf, R_OK) ? NULL : buf;
	}
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		if (!access(tries[i], R_OK)) {
			snprintf(buf, len, "%s", tries[i]);
			return buf;
		}
	}
	return NULL;
}

static void check_shipped(const struct bc_profile *p)
{
	const struct bc_workload *wl = &p->steps[0].wl;

	if (!strcmp(p->name, "local-quickstart")) {
		CHECK(p->nagents == 3 && p->agents[0].local && p->agents[2].local);
		CHECK(p->nvolumes >= 2 && p->volumes[0].size_bytes == 64u << 20);
		CHECK(!strcmp(p->steps[0].name, "randrw-4k-70-30"));
		CHECK(wl->rw == BC_RW_RANDRW && wl->rwmixread_ppm == 70 * BC_SPLIT_PCT1 &&
		      wl->bs == 4096);
		CHECK(wl->iodepth == 16 && wl->numjobs == 1 && wl->direct);
		CHECK(wl->ramp_s == 2 && wl->runtime_s == 10);
	} else if (!strcmp(p->name, "seq-read-3client")) {
		CHECK(p->nagents == 3 && p->nnodes == 3 && p->nvolumes == 18);
		CHECK(!strcmp(p->agents[0].endpoint, "tcp://client-01.example:7470"));
		CHECK(!strcmp(p->steps[0].name, "seq-read-1m"));
		CHECK(wl->rw == BC_RW_READ && wl->bs == 1u << 20 && wl->iodepth == 16);
		CHECK(wl->numjobs == 8 && wl->direct && wl->ramp_s == 10 && wl->runtime_s == 300);
	}
}

static void test_shipped_profiles(void)
{
	char dir[512], path[1024];
	struct bc_profile *p;
	struct dirent *de;
	int n = 0, ret;
	DIR *d;

	if (!profiles_dir(dir, sizeof(dir)) || !(d = opendir(dir))) {
		fprintf(stderr, "skip: profiles/ not found (set BC_SRC to the source tree)\n");
		return;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		p = NULL;
		ret = bc_profile_load(path, &p, s_err, sizeof(s_err));
		CHECK_MSG(ret == 0, "%s", s_err);
		if (p) {
			check_shipped(p);
			bc_profile_destroy(&p);
		}
		n++;
	}
	closedir(d);
	CHECK_MSG(n >= 2, "only %d profiles in %s", n, dir);
}

/* nodes[].series roles: known names, one series per numeric role, version from a label */
static void test_series_roles(void)
{
#define NODE(series)                                                                               \
	"'nodes':[{'name':'n','metrics':['http://127.0.0.1:9100/metrics'],"                        \
	"'series':[" series "]}],"
	struct bc_profile *p;

	p = expect_ok(
	    HEAD NODE("{'name':'gc','metric':'x_gc_bytes_total','role':'gc_write_bytes'},"
		      "{'name':'v','metric':'x_build_info','role':'version','label':'ver'},"
		      "{'name':'v2','metric':'y_build_info','role':'version'}") VOLS STEPS);
	if (p) {
		CHECK(bc_series_role_of(p->nodes[0].json, "gc") == BC_ROLE_GC_WRITE_BYTES);
		CHECK(bc_series_role_of(p->nodes[0].json, "v") == BC_ROLE_VERSION);
		CHECK(bc_series_role_of(p->nodes[0].json, "nope") == BC_ROLE_NONE);
	}
	bc_profile_destroy(&p);
	EXPECT_ERR(HEAD NODE("{'name':'gc','metric':'x','role':'gc'}") VOLS STEPS,
		   "nodes[0].series[0].role: expected one of gc_write_bytes,", "got \"gc\"");
	EXPECT_ERR(HEAD NODE("{'name':'a','metric':'x','role':'journal_latency'},"
			     "{'name':'b','metric':'y','role':'journal_latency'}") VOLS STEPS,
		   "nodes[0].series[1].role: a second series with role \"journal_latency\"");
	EXPECT_ERR(HEAD NODE("{'name':'a','metric':'x','label':'v'}") VOLS STEPS,
		   "nodes[0].series[0].label: goes with \"role\": \"version\"");
#undef NODE
}

/* a step's "format": one of lba_bytes or index, destructive volumes, no sweep */
static void test_step_format(void)
{
#define DVOLS "'volumes':[{'agent':'a','path':'/dev/nvme0n1p1','destructive':true}],"
	struct bc_profile *p;

	p = expect_ok(HEAD DVOLS "'steps':[{'name':'a','format':{'lba_bytes':4096}},"
				 "{'name':'b','format':{'index':1}}]}");
	if (p) {
		CHECK(p->steps[0].format.set && p->steps[0].format.lba_bytes == 4096 &&
		      p->steps[0].format.index == -1);
		CHECK(p->steps[1].format.set && p->steps[1].format.index == 1);
	}
	bc_profile_destroy(&p);
	EXPECT_ERR(HEAD VOLS "'steps':[{'name':'a','format':{'lba_bytes':4096}}]}",
		   "steps[0].format: volumes[0] (null) is not \"destructive\"");
	EXPECT_ERR(HEAD DVOLS "'steps':[{'name':'a','format':{'lba_bytes':4000}}]}",
		   "steps[0].format.lba_bytes: expected a power of two");
	EXPECT_ERR(HEAD DVOLS "'steps':[{'name':'a','format':{'lba_bytes':512,'index':0}}]}",
		   "steps[0].format: expected exactly one of");
	EXPECT_ERR(HEAD DVOLS "'steps':[{'name':'a','format':{'index':1},"
			      "'sweep':{'iodepth':[1,2]}}]}",
		   "steps[0].format: a step that formats runs one point");
#undef DVOLS
}

int main(void)
{
	test_minimal_defaults();
	test_series_roles();
	test_step_format();
	test_precedence();
	test_syntax();
	test_unknown_keys();
	test_missing();
	test_wrong_types();
	test_ranges();
	test_agents_nodes_volumes();
	test_long_path();
	test_workload_json();
	test_profile_json();
	test_load();
	test_shipped_profiles();
	TEST_DONE();
}
