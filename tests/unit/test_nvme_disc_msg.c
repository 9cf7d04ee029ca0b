/*
 * test_nvme_disc_msg.c - `bench-coord discover`'s message pair: DISCOVER and
 * DISCOVERY_LOG bodies encoded and decoded (defaults, refused values, codes
 * by name and by number), both types framed and parsed by bc_proto, the
 * "unknown message type" an older agent answers with; and the agent side,
 * bc_nvme_tcp_disc_list, on a fixture tree: the error names the address and
 * /dev/nvme-fabrics, and a discovery controller is deleted only when the
 * agent connected it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvme/tcp.h"
#include "wire/disc_msg.h"
#include "wire/proto.h"
#include "bc_test.h"

static void test_req_roundtrip(void)
{
	struct bc_disc_req r = {.traddr = "10.0.2.15"}, back;
	char err[256] = "";
	cJSON *o = bc_disc_req_to_json(&r), *bad;

	CHECK(o && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(o, "trsvcid")), "8009"));
	CHECK(!cJSON_GetObjectItem(o, "hostnqn"));
	CHECK_MSG(!bc_disc_req_from_json(o, &back, err, sizeof(err)), "%s", err);
	CHECK(!strcmp(back.traddr, "10.0.2.15") && !strcmp(back.trsvcid, "8009") &&
	      !back.hostnqn[0]);
	cJSON_Delete(o);

	bad = cJSON_Parse("{\"traddr\": \"fe80::1\", \"trsvcid\": 4420, \"hostnqn\": \"nqn.h\"}");
	CHECK(!bc_disc_req_from_json(bad, &back, err, sizeof(err)));
	CHECK(!strcmp(back.trsvcid, "4420") && !strcmp(back.hostnqn, "nqn.h"));
	cJSON_Delete(bad);
	/* refused: no traddr, an option smuggled in, a wrong type */
	bad = cJSON_Parse("{\"trsvcid\": \"8009\"}");
	CHECK(bc_disc_req_from_json(bad, &back, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "traddr: required"));
	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"traddr\": \"1.2.3.4,nqn=x\"}");
	CHECK(bc_disc_req_from_json(bad, &back, err, sizeof(err)) == -EINVAL);
	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"traddr\": 7}");
	CHECK(bc_disc_req_from_json(bad, &back, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "traddr"));
	cJSON_Delete(bad);
	CHECK(bc_disc_req_from_json(NULL, &back, err, sizeof(err)) == -EINVAL);
}

static void test_rec_roundtrip(void)
{
	struct bc_disc_rec e = {.trtype = 3,
				.adrfam = 1,
				.subtype = 2,
				.portid = 1,
				.traddr = "10.0.2.15",
				.trsvcid = "4420",
				.subnqn = "nqn.2026-11.io.bench-coord:v1"},
			   back;
	char err[256] = "", b[16];
	cJSON *o = bc_disc_rec_to_json(&e);

	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(o, "trtype")), "tcp"));
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(o, "adrfam")), "ipv4"));
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(o, "subtype")), "nvme"));
	CHECK_MSG(!bc_disc_rec_from_json(o, &back, err, sizeof(err)), "%s", err);
	CHECK(!memcmp(&e, &back, sizeof(e)));
	cJSON_Delete(o);
	/* codes without a name travel as numbers and come back the same */
	e.trtype = 7;
	e.subtype = 3;
	e.adrfam = 2;
	o = bc_disc_rec_to_json(&e);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(o, "trtype")), "7"));
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(o, "subtype")), "discovery"));
	CHECK(!bc_disc_rec_from_json(o, &back, err, sizeof(err)) && back.trtype == 7 &&
	      back.adrfam == 2);
	cJSON_Delete(o);
	CHECK(!strcmp(bc_disc_subtype_name(1, b, sizeof(b)), "referral"));
	o = cJSON_Parse("{\"trtype\": \"carrier-pigeon\", \"adrfam\": \"ipv4\", \"subtype\": "
			"\"nvme\", \"traddr\": \"a\", \"trsvcid\": \"1\", \"subnqn\": \"n\"}");
	CHECK(bc_disc_rec_from_json(o, &back, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "trtype"));
	cJSON_Delete(o);
	o = cJSON_Parse("{\"trtype\": \"tcp\", \"adrfam\": \"ipv4\", \"subtype\": \"nvme\"}");
	CHECK(bc_disc_rec_from_json(o, &back, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "subnqn"));
	cJSON_Delete(o);
}

/* framed as the wire carries it ("BC\x01DISCOVER" + JSON) and parsed back */
static int s_parse(const char *type, const char *body, struct bc_msg *m, char *err, size_t len)
{
	zmsg_t *z = zmsg_new();
	char hdr[64];

	snprintf(hdr, sizeof(hdr), "BC%c%s", BC_PROTO_VERSION, type);
	zmsg_addmem(z, hdr, strlen(hdr));
	zmsg_addstr(z, body);
	return bc_msg_parse(&z, false, m, err, len);
}

static void test_framing(void)
{
	struct bc_msg m;
	char err[256] = "";

	CHECK(!strcmp(bc_msg_name(BC_MSG_DISCOVER), "DISCOVER"));
	CHECK(!strcmp(bc_msg_name(BC_MSG_DISCOVERY_LOG), "DISCOVERY_LOG"));
	CHECK(!s_parse("DISCOVER", "{\"traddr\": \"10.0.2.15\"}", &m, err, sizeof(err)));
	CHECK(m.type == BC_MSG_DISCOVER && m.json);
	bc_msg_clear(&m);
	CHECK(!s_parse("DISCOVERY_LOG", "{\"entries\": []}", &m, err, sizeof(err)));
	CHECK(m.type == BC_MSG_DISCOVERY_LOG);
	bc_msg_clear(&m);
	/*
	 * What an agent without DISCOVER sees: an unknown type, answered with
	 * ERROR bad-message naming it - the text cmd/discover.c turns into
	 * "does not know the DISCOVER message ... upgrade it"
	 */
	CHECK(s_parse("DISCOVER_V9", "{}", &m, err, sizeof(err)) == -EBADMSG);
	CHECK_MSG(strstr(err, "unknown message type 'DISCOVER_V9'") != NULL, "%s", err);
	bc_msg_clear(&m);
}

/* the agent side without a kernel: what is deleted, and what the errors say */
static void test_disc_list_fixture(void)
{
	char root[] = "/tmp/bc-disc-XXXXXX", p[600], err[1024] = "", got[64], opts[512];
	struct bc_disc_req r = {.traddr = "192.0.2.20", .trsvcid = "8009"};
	struct bc_nvme_tcp_spec ds = {
	    .traddr = "192.0.2.20", .trsvcid = "8009", .subnqn = BC_NVME_DISC_NQN};
	cJSON *log;
	FILE *f;
	int i, n;

	if (!mkdtemp(root))
		SKIP("mkdtemp: %s", strerror(errno));
	snprintf(p, sizeof(p),
		 "mkdir -p '%s/dev' '%s/sys/class/nvme/nvme4' '%s/sys/class/nvme/nvme5'", root,
		 root, root);
	CHECK(!system(p));
	/* no /dev/nvme-fabrics (this host): the address and the device in one line */
	log = bc_nvme_tcp_disc_list(root, &r, err, sizeof(err));
	CHECK(!log);
	CHECK_MSG(strstr(err, "discovery at 192.0.2.20:8009") && strstr(err, "/dev/nvme-fabrics"),
		  "%s", err);

	/* connected for the read: deleted after it, even though the read failed */
	n = bc_nvme_tcp_options(&ds, opts, sizeof(opts));
	snprintf(p, sizeof(p), "%s/dev/nvme-fabrics", root);
	f = fopen(p, "w");
	for (i = 0; f && i < n; i++)
		fputc('#', f);
	if (f) {
		fputs("instance=4,cntlid=1\n", f);
		fclose(f);
	}
	bc_test_put(root, "sys/class/nvme/nvme4/delete_controller", "");
	bc_test_put(root, "dev/nvme4", ""); /* a regular file: the admin ioctl fails (ENOTTY) */
	log = bc_nvme_tcp_disc_list(root, &r, err, sizeof(err));
	CHECK(!log && strstr(err, "cannot read the discovery log from nvme4"));
	bc_test_read(root, "sys/class/nvme/nvme4/delete_controller", got, sizeof(got));
	CHECK_MSG(!strcmp(got, "1"), "delete_controller of the connected nvme4: '%s'", got);

	/* an existing discovery controller to that address: read, never deleted */
	bc_test_put(root, "sys/class/nvme/nvme5/transport", "tcp\n");
	bc_test_put(root, "sys/class/nvme/nvme5/subsysnqn", BC_NVME_DISC_NQN "\n");
	bc_test_put(root, "sys/class/nvme/nvme5/address", "traddr=192.0.2.20,trsvcid=8009\n");
	bc_test_put(root, "sys/class/nvme/nvme5/delete_controller", "");
	bc_test_put(root, "dev/nvme5", "");
	log = bc_nvme_tcp_disc_list(root, &r, err, sizeof(err));
	CHECK(!log && strstr(err, "nvme5"));
	bc_test_read(root, "sys/class/nvme/nvme5/delete_controller", got, sizeof(got));
	CHECK_MSG(!strcmp(got, ""), "delete_controller of the existing nvme5: '%s'", got);

	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	CHECK(!system(p));
}

int main(void)
{
	test_req_roundtrip();
	test_rec_roundtrip();
	test_framing();
	test_disc_list_fixture();
	TEST_DONE();
}
