/*
 * test_volnode.c - volume to storage node mapping (docs/nvme.md) and the
 * NVMe figures of the report, on coordinator code with fixtures: the
 * profile's "node" wins; an "nvme_tcp" volume maps by its traddr; a block
 * device that READY shows to be an NVMe/TCP namespace maps by the sysfs
 * address the agent reported; no match says why. The mapping feeds the
 * per-node aggregation of records added after it (READY comes before
 * START). Then run.json's per-volume temperature series and WAF, and the
 * NVMe table of summary.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "agg/volnode.h"
#include "fleet/fleet.h"
#include "report/parts/nvme.h"
#include "results/nvme.h"
#include "results/results.h"
#include "run/rebuild.h"
#include "bc_test.h"

static const char *s_prof =
    "{\"name\": \"map\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
    " \"nodes\": [{\"name\": \"n1\", \"addresses\": [\"10.0.0.1\", \"fd00::1\"]},"
    "  {\"name\": \"n2\", \"addresses\": [\"10.0.0.2\"]}],"
    " \"volumes\": ["
    "  {\"agent\": \"a\", \"path\": \"/dev/nvme1n1\", \"node\": \"n2\"},"
    "  {\"agent\": \"a\", \"nvme_tcp\": {\"traddr\": \"10.0.0.1\", \"subnqn\": \"nqn.v\"}},"
    "  {\"agent\": \"a\", \"path\": \"/dev/nvme4n1\"},"
    "  {\"agent\": \"a\", \"nvme_tcp\": {\"traddr\": \"10.0.0.9\", \"subnqn\": \"nqn.w\"}},"
    "  {\"agent\": \"a\", \"nvme_tcp\": {\"traddr\": \"fd00::1\", \"subnqn\": \"nqn.z\"}}],"
    " \"defaults\": {\"runtime\": \"2s\"}, \"steps\": [{\"name\": \"s\"}]}";

/* a READY "volumes" entry as step.c builds it */
static cJSON *s_ready(const char *transport, const char *address, const char *tcp_traddr)
{
	cJSON *o = cJSON_CreateObject(), *n;

	if (transport) {
		n = cJSON_AddObjectToObject(o, "nvme");
		cJSON_AddStringToObject(n, "transport", transport);
		cJSON_AddStringToObject(n, "address", address);
	}
	if (tcp_traddr)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "nvme_tcp"), "traddr",
					tcp_traddr);
	return o;
}

static void test_decide(const struct bc_profile *p, struct bc_volnode *vn)
{
	cJSON *r;

	/* from the profile alone */
	CHECK(vn[0].node == 1 && !strcmp(vn[0].why, "profile"));
	CHECK(vn[1].node == 0 &&
	      !strcmp(vn[1].why, "nvme-tcp address 10.0.0.1 (profile nvme_tcp)"));
	CHECK(vn[2].node == -1 && !vn[2].why[0]);
	CHECK(vn[3].node == -1 && strstr(vn[3].why, "10.0.0.9") && strstr(vn[3].why, "no node"));
	CHECK(vn[4].node == 0);
	CHECK(bc_volnode_match(p, "[fd00::1]") == 0 && bc_volnode_match(p, "10.0.0.3") == -1);

	/* READY: the explicit node is kept whatever the device says */
	r = s_ready("tcp", "traddr=10.0.0.1,trsvcid=4420", NULL);
	CHECK(!bc_volnode_from_ready(p, vn, 0, r) && vn[0].node == 1);
	cJSON_Delete(r);
	/* a plain block device that is an NVMe/TCP namespace: by its controller's address */
	r = s_ready("tcp", "traddr=10.0.0.2,trsvcid=4420,src_addr=10.0.0.200", NULL);
	CHECK(bc_volnode_from_ready(p, vn, 2, r) && vn[2].node == 1 &&
	      !strcmp(vn[2].why, "nvme-tcp address 10.0.0.2"));
	CHECK(!bc_volnode_from_ready(p, vn, 2, r)); /* the same again: no change */
	cJSON_Delete(r);
	/* a PCIe device: nothing to derive */
	r = s_ready("pcie", "0000:01:00.0", NULL);
	vn[2].node = -1;
	vn[2].why[0] = '\0';
	CHECK(!bc_volnode_from_ready(p, vn, 2, r) && vn[2].node == -1);
	cJSON_Delete(r);
	r = s_ready("tcp", "traddr=10.0.0.2,trsvcid=4420", NULL);
	CHECK(bc_volnode_from_ready(p, vn, 2, r) && vn[2].node == 1);
	cJSON_Delete(r);
	/* an attached volume: the controller it attached (here found by discovery) */
	r = s_ready(NULL, NULL, "10.0.0.2");
	CHECK(bc_volnode_from_ready(p, vn, 1, r) && vn[1].node == 1 &&
	      !strcmp(vn[1].why, "nvme-tcp address 10.0.0.2"));
	cJSON_Delete(r);
	/* the attach record beats the identity (multipath numbering may name another nvmeX) */
	r = s_ready("tcp", "traddr=10.0.0.2,trsvcid=4420", "10.0.0.1");
	CHECK(bc_volnode_from_ready(p, vn, 1, r) && vn[1].node == 0 &&
	      !strcmp(vn[1].why, "nvme-tcp address 10.0.0.1"));
	cJSON_Delete(r);
}

/* records added after the mapping land in the node the mapping names */
static void test_feeds_node_aggregation(const struct bc_profile *p, const struct bc_volnode *vn)
{
	static struct bc_volstat v[5];
	struct bc_conn c = {0};
	struct bc_stats_hdr h = {.nvol = 5, .second = 0}, got;
	struct bc_agg g;
	int vols[5] = {0, 1, 2, 3, 4}, i;
	uint8_t *body = NULL;
	size_t len = 0;

	CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
	g.volnode = vn;
	c.spec = &p->agents[0];
	c.vols = vols;
	c.nvols = 5;
	for (i = 0; i < 5; i++) {
		bc_volstat_reset(&v[i]);
		bc_opstat_complete(&v[i].op[BC_OP_READ], 4096, 4096, 1000 * (i + 1));
	}
	CHECK(bc_stats_encode(&h, v, &body, &len) == 0);
	CHECK(bc_agg_add(&g, &c, body, len, &got) == 0);
	free(body);
	bc_agg_close_second(&g, 0);
	/* n1: volumes 1 and 4; n2: volumes 0 and 2 (as decided above); 3: none */
	CHECK(bc_entity_row(&g.ent[BC_LVL_NODE][0], 0)->ios[BC_OP_READ] == 2);
	CHECK(bc_entity_row(&g.ent[BC_LVL_NODE][1], 0)->ios[BC_OP_READ] == 2);
	CHECK(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], 0)->ios[BC_OP_READ] == 5);
	CHECK(bc_agg_vol_node(&g, 2) == 1);
	g.volnode = NULL;
	CHECK(bc_agg_vol_node(&g, 2) == -1); /* the profile alone */
	bc_agg_free(&g);
}

/* run.json's volume entry, then summary.md's table from it */
static void test_report(const struct bc_profile *p, const struct bc_volnode *vn)
{
	struct bc_step_result r;
	cJSON *e = cJSON_CreateObject(), *st, *vols, *host0, *host1;
	char *md = NULL;
	size_t mdlen = 0;
	FILE *f;

	memset(&r, 0, sizeof(r));
	r.step = &p->steps[0];
	r.status = "ok";
	CHECK(bc_agg_init(&r.agg, p, &p->steps[0]) == 0);
	r.agg.volnode = vn;
	/* agent a: nvme_temp_c per volume in its order; second 0 has none for volume 1 */
	host1 = cJSON_Parse("{\"nvme_temp_c\": [null, 40.5, null, null, null]}");
	host0 = cJSON_Parse("{\"nvme_temp_c\": [null, null, null, null, null]}");
	CHECK(bc_result_host_sample(&r, 0, 1, host1) == 0);
	CHECK(bc_result_host_sample(&r, 0, 0, host0) == 0);
	cJSON_Delete(host1);
	cJSON_Delete(host0);
	r.agent_totals = cJSON_Parse(
	    "{\"a\": {\"volumes\": [{}, {\"nvme\": {\"waf\": {\"status\": \"unavailable: the "
	    "device "
	    "reports neither FDP statistics nor the OCP C0 log (FDP statistics: Operation not "
	    "supported; OCP C0: Input/output error)\", \"source\": \"none\", \"media_bytes\": 0, "
	    "\"host_bytes\": 0}}}]}}");
	bc_result_nvme_volume(&r, 1, 1, e); /* its agent's second volume */
	CHECK(cJSON_GetArraySize(
		  cJSON_GetObjectItem(cJSON_GetObjectItem(e, "nvme_temp"), "celsius")) == 2);
	CHECK(cJSON_IsNull(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(e, "nvme_temp"), "celsius"), 0)));
	CHECK(cJSON_GetNumberValue(
		  cJSON_GetObjectItem(cJSON_GetObjectItem(e, "nvme_temp"), "max_c")) == 40.5);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "nvme_counters"), "waf") != NULL);

	/* the whole step entry as results.c writes it: node, node_source, NVMe figures */
	st = bc_result_step_json(&r);
	vols = cJSON_GetObjectItem(st, "volumes");
	CHECK(!strcmp(
	    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 0), "node_source")),
	    "profile"));
	CHECK(!strcmp(
	    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 1), "node_source")),
	    "nvme-tcp address 10.0.0.1"));
	CHECK(!strcmp(
	    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 1), "node")), "n1"));
	CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 1), "nvme_temp") != NULL);
	CHECK(!cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 0), "nvme_temp"));
	f = open_memstream(&md, &mdlen);
	if (f) {
		bc_report_md_nvme(f, st);
		fclose(f);
	}
	CHECK(md && strstr(md, "| WAF | WAF status |"));
	CHECK(md && strstr(md, "n1 (nvme-tcp address 10.0.0.1) | - | unavailable: the device "
			       "reports neither"));
	CHECK(md && strstr(md, "| none | ") && strstr(md, "| 40.5 | 40.5 |"));
	/* one row: only the volume with NVMe figures */
	CHECK(md && !strstr(md, "nvme1n1"));
	free(md);
	cJSON_Delete(st);
	cJSON_Delete(e);
	cJSON_Delete(r.agent_totals);
	r.agent_totals = NULL;
	bc_step_result_free(&r);
}

/* bench-coord report --rebuild: the "volume_node" events give the mapping back */
static void test_rebuild(void)
{
	char dir[] = "/tmp/bc-volnode-XXXXXX", path[256], cmd[300];
	cJSON *run, *vols;
	FILE *f;
	char *text;
	long n;

	if (!mkdtemp(dir))
		SKIP("mkdtemp failed");
	snprintf(path, sizeof(path), "%s/profile.json", dir);
	f = fopen(path, "w");
	if (f) {
		fputs(s_prof, f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("{\"event\": \"volume_node\", \"volume\": 2, \"path\": \"/dev/nvme4n1\", "
		      "\"node\": \"n1\", \"node_source\": \"nvme-tcp address 10.0.0.1\"}\n"
		      "{\"event\": \"step_start\", \"step\": 0, \"name\": \"s\", \"start_ns\": 1, "
		      "\"seconds\": 2}\n",
		      f);
		fclose(f);
	}
	CHECK(bc_rebuild_from_events(dir, path, sizeof(path)) == 0);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	f = fopen(path, "r");
	text = NULL;
	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		text = calloc(1, (size_t)n + 1);
		if (text && fread(text, 1, (size_t)n, f) != (size_t)n)
			text[0] = 0;
	}
	if (f)
		fclose(f);
	run = text ? cJSON_Parse(text) : NULL;
	vols = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(run, "steps"), 0),
				   "volumes");
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 2), "node"))
			  ?: "",
		      "n1"));
	CHECK(!strcmp(
	    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(vols, 2), "node_source"))
		?: "",
	    "nvme-tcp address 10.0.0.1"));
	cJSON_Delete(run);
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	struct bc_profile *p = NULL;
	struct bc_volnode *vn;
	char err[512];

	CHECK_MSG(!bc_profile_parse(s_prof, "map.json", &p, err, sizeof(err)), "%s", err);
	if (!p)
		TEST_DONE();
	vn = bc_volnode_new(p);
	CHECK(vn != NULL);
	if (vn) {
		test_decide(p, vn);
		test_feeds_node_aggregation(p, vn);
		test_report(p, vn);
	}
	test_rebuild();
	free(vn);
	bc_profile_destroy(&p);
	TEST_DONE();
}
