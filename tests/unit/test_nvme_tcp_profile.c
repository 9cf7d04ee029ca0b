/*
 * test_nvme_tcp_profile.c - the "nvme_tcp" volume form: accepted shapes and
 * defaults (trsvcid 4420, or 8009 with discover), the label that stands for
 * the path, errors naming the JSON path (either "path" or "nvme_tcp", unknown
 * keys, values that would inject fabrics options, nsid range, "fdp" without
 * passthrough), and the resolved profile parsing back to the same volume.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "profile/profile.h"
#include "bc_test.h"

static char s_err[512];

static int parse(const char *sq, struct bc_profile **p)
{
	static char text[8192];
	size_t i;

	for (i = 0; sq[i] && i < sizeof(text) - 1; i++)
		text[i] = sq[i] == '\'' ? '"' : sq[i];
	text[i] = '\0';
	return bc_profile_parse(text, "p.json", p, s_err, sizeof(s_err));
}

#define HEAD  "{'name':'t','agents':[{'name':'a','endpoint':'local'}],'volumes':["
#define STEPS "],'steps':[{'name':'s'}]}"

static void expect_err(int line, const char *vols, const char *needle)
{
	char json[4096];
	struct bc_profile *p = NULL;

	snprintf(json, sizeof(json), HEAD "%s" STEPS, vols);
	if (parse(json, &p) != -EINVAL || !strstr(s_err, needle)) {
		fprintf(stderr, "line %d: want error with \"%s\", got \"%s\"\n", line, needle,
			p ? "(accepted)" : s_err);
		bc_test_failures++;
	}
	bc_profile_destroy(&p);
}
#define EXPECT_ERR(vols, needle) expect_err(__LINE__, vols, needle)

static void test_accepts(void)
{
	struct bc_profile *p = NULL, *q = NULL;
	const struct bc_volume_spec *v;
	char *text;
	cJSON *j;

	CHECK_MSG(!parse(HEAD
			 "{'agent':'a','nvme_tcp':{'traddr':'10.0.1.2','subnqn':'nqn.2016-01."
			 "example:vol7'}},"
			 "{'agent':'a','nvme_tcp':{'traddr':'fd00::2','trsvcid':4421,'subnqn':"
			 "'nqn.x','hostnqn':'nqn.2014-08.org.nvmexpress:uuid:1','nr_io_queues':"
			 "8,'nsid':3,'passthrough':true},'fdp':{'pids':[0]}},"
			 "{'agent':'a','nvme_tcp':{'traddr':'10.0.1.9','subnqn':'nqn.y',"
			 "'discover':true}}" STEPS,
			 &p),
		  "%s", s_err);
	if (!p)
		return;
	v = &p->volumes[0];
	CHECK(v->nvme_tcp.set && !strcmp(v->nvme_tcp.trsvcid, "4420") && !v->nvme_tcp.nsid);
	CHECK(!strcmp(v->path, "nvme-tcp://10.0.1.2:4420/nqn.2016-01.example:vol7"));
	v = &p->volumes[1];
	CHECK(!strcmp(v->nvme_tcp.trsvcid, "4421") && v->nvme_tcp.nsid == 3 &&
	      v->nvme_tcp.passthrough && v->nvme_tcp.nr_io_queues == 8 &&
	      !strcmp(v->nvme_tcp.hostnqn, "nqn.2014-08.org.nvmexpress:uuid:1"));
	CHECK(!strcmp(v->path, "nvme-tcp://[fd00::2]:4421/nqn.x/ns3"));
	/* discovery controllers listen on 8009 */
	CHECK(p->volumes[2].nvme_tcp.discover && !strcmp(p->volumes[2].nvme_tcp.trsvcid, "8009"));

	/* the resolved form carries "nvme_tcp", not the label, and parses to the same */
	j = bc_profile_to_json(p);
	text = cJSON_PrintUnformatted(j);
	CHECK(text && !strstr(text, "nvme-tcp://"));
	CHECK_MSG(text && !bc_profile_parse(text, "resolved.json", &q, s_err, sizeof(s_err)), "%s",
		  s_err);
	CHECK(q && !strcmp(q->volumes[1].path, p->volumes[1].path) &&
	      q->volumes[1].nvme_tcp.nsid == 3 && q->volumes[1].fdp.npids == 1);
	cJSON_free(text);
	cJSON_Delete(j);
	bc_profile_destroy(&q);
	bc_profile_destroy(&p);
}

static void test_errors(void)
{
	EXPECT_ERR("{'agent':'a','path':'/dev/x','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n'}}",
		   "p.json: volumes[0]: has both \"path\" and \"nvme_tcp\"");
	EXPECT_ERR("{'agent':'a'}", "volumes[0].path: ");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'subnqn':'n'}}",
		   "volumes[0].nvme_tcp.traddr: required");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4'}}",
		   "volumes[0].nvme_tcp.subnqn: required");
	/* a comma would add a fabrics option of the profile's choosing */
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4,hostnqn=evil','subnqn':'n'}}",
		   "volumes[0].nvme_tcp.traddr: expected a non-empty string");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n m'}}",
		   "volumes[0].nvme_tcp.subnqn");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n','port':1}}",
		   "volumes[0].nvme_tcp: unknown key \"port\"");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n','nsid':0}}",
		   "volumes[0].nvme_tcp.nsid: expected an integer 1..4294967294");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n','trsvcid':70000}}",
		   "volumes[0].nvme_tcp.trsvcid");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n','passthrough':1}}",
		   "volumes[0].nvme_tcp.passthrough: expected true or false");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n'},'fdp':{'pids':[0]}}",
		   "volumes[0]: \"fdp\" needs \"nvme_tcp\": {\"passthrough\": true}");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n'},'size':'1g'}",
		   "volumes[0]: \"size\" creates files");
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':"
		   "'nqn.2014-08.org.nvmexpress.discovery'}}",
		   "the discovery NQN holds no namespaces");
	EXPECT_ERR("{'agent':'a','nvme_tcp':'1.2.3.4'}", "volumes[0].nvme_tcp: expected an object");
	EXPECT_ERR("{'agent':'a','path':'nvme-tcp://1.2.3.4:4420/n'}",
		   "volumes[0].path: an NVMe/TCP namespace is given as \"nvme_tcp\"");
	/* the same namespace twice on one agent doubles its load */
	EXPECT_ERR("{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','subnqn':'n'}},"
		   "{'agent':'a','nvme_tcp':{'traddr':'1.2.3.4','trsvcid':'4420','subnqn':'n'}}",
		   "duplicate volume \"nvme-tcp://1.2.3.4:4420/n\"");
}

int main(void)
{
	test_accepts();
	test_errors();
	TEST_DONE();
}
