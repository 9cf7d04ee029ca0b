/* test_proto: STATS body round trip and rejection; message framing and version mismatch over real
 * ZeroMQ sockets */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bc_proto.h"
#include "bc_stats.h"
#include "bc_test.h"

static struct bc_volstat s_in[2], s_out[2];

static void test_stats_roundtrip(void)
{
	struct bc_stats_hdr h = {.step = 3, .second = 17, .flags = BC_STATS_F_LATE, .nvol = 2}, g;
	uint8_t *buf = NULL;
	size_t len = 0;
	int i;

	bc_volstat_reset(&s_in[0]);
	bc_volstat_reset(&s_in[1]);
	for (i = 0; i < 1000; i++)
		bc_opstat_complete(&s_in[0].op[BC_OP_READ], 4096, 4096, 50000 + (uint64_t)i * 10);
	for (i = 0; i < 10; i++)
		bc_opstat_complete(&s_in[1].op[BC_OP_WRITE], 65536, 65536, 900000);
	bc_opstat_complete(&s_in[1].op[BC_OP_WRITE], -EIO, 65536, 0);
	bc_opstat_complete(&s_in[1].op[BC_OP_WRITE], 512, 65536, 1000);
	CHECK(bc_stats_encode(&h, s_in, &buf, &len) == 0);
	printf("STATS body: %zu bytes for 1012 completions on 2 volumes\n", len);
	bc_volstat_reset(&s_out[0]);
	bc_volstat_reset(&s_out[1]);
	CHECK(bc_stats_decode(buf, len, &g, s_out, 2) == 0);
	CHECK(g.step == 3 && g.second == 17 && g.flags == BC_STATS_F_LATE && g.nvol == 2);
	CHECK(s_out[0].op[BC_OP_READ].ios == 1000);
	CHECK(s_out[0].op[BC_OP_READ].bytes == 4096000);
	CHECK(s_out[0].op[BC_OP_READ].lat_min_ns == 50000);
	CHECK(s_out[0].op[BC_OP_READ].lat_max_ns == 50000 + 999 * 10);
	CHECK(!memcmp(&s_out[0].op[BC_OP_READ].hist, &s_in[0].op[BC_OP_READ].hist,
		      sizeof(struct bc_hist)));
	CHECK(s_out[1].op[BC_OP_WRITE].ios == 10);
	CHECK(s_out[1].op[BC_OP_WRITE].errors == 1);
	CHECK(s_out[1].op[BC_OP_WRITE].short_ios == 1);
	CHECK(s_out[1].op[BC_OP_WRITE].first_errno == -EIO);
	CHECK(s_out[0].op[BC_OP_WRITE].ios == 0 &&
	      s_out[0].op[BC_OP_WRITE].lat_min_ns == UINT64_MAX);
	/* decoding adds, so records for the same second merge */
	CHECK(bc_stats_decode(buf, len, &g, s_out, 2) == 0);
	CHECK(s_out[0].op[BC_OP_READ].ios == 2000);
	/* the header alone, as the aggregation pool reads it to route a body */
	memset(&g, 0, sizeof(g));
	CHECK(bc_stats_decode_hdr(buf, len, &g) == 0);
	CHECK(g.step == 3 && g.second == 17 && g.flags == BC_STATS_F_LATE && g.nvol == 2);
	CHECK(bc_stats_decode_hdr(buf, 3, &g) == -EBADMSG); /* cut inside the header */
	CHECK(bc_stats_decode_hdr(buf, 0, &g) == -EBADMSG);
	/* malformed input */
	CHECK(bc_stats_decode(buf, len - 1, &g, s_out, 2) == -EBADMSG);
	CHECK(bc_stats_decode(buf, len, &g, s_out, 1) == -ERANGE);
	buf[0] = BC_STATS_VERSION + 1;
	CHECK(bc_stats_decode(buf, len, &g, s_out, 2) == -EPROTO);
	CHECK(bc_stats_decode_hdr(buf, len, &g) == -EPROTO);
	CHECK(bc_stats_decode(buf, 0, &g, s_out, 2) == -EBADMSG);
	free(buf);
}

static void test_framing(void)
{
	zsock_t *router = zsock_new(ZMQ_ROUTER), *dealer = zsock_new(ZMQ_DEALER);
	struct bc_msg m;
	char err[256];
	int port;
	cJSON *b;

	CHECK(router && dealer);
	port = zsock_bind(router, "tcp://127.0.0.1:*");
	CHECK(port > 0);
	CHECK(zsock_connect(dealer, "tcp://127.0.0.1:%d", port) == 0);
	zsock_set_rcvtimeo(router, 5000);
	zsock_set_rcvtimeo(dealer, 5000);

	b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "coordinator", "test");
	CHECK(bc_msg_send_json(dealer, NULL, BC_MSG_HELLO, b) == 0);
	cJSON_Delete(b);
	CHECK(bc_msg_recv(router, true, &m, err, sizeof(err)) == 0);
	CHECK(m.type == BC_MSG_HELLO && m.version == BC_PROTO_VERSION && m.id);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(m.json, "coordinator")), "test"));
	/* reply through the routing id */
	CHECK(bc_msg_send_error(router, m.id, "x", "hello %d", 42) == 0);
	bc_msg_clear(&m);
	CHECK(bc_msg_recv(dealer, false, &m, err, sizeof(err)) == 0);
	CHECK(m.type == BC_MSG_ERROR && !m.id);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(m.json, "message")), "hello 42"));
	bc_msg_clear(&m);

	/* another protocol version: recognised, not parsed, reported */
	CHECK(bc_msg_send_raw(dealer, NULL, BC_PROTO_VERSION + 1, "HELLO", "{}", 2) == 0);
	CHECK(bc_msg_recv(router, true, &m, err, sizeof(err)) == -EPROTO);
	CHECK(m.version == BC_PROTO_VERSION + 1 && m.id && !m.json);
	CHECK(strstr(err, "version") != NULL);
	bc_msg_clear(&m);
	/* unknown type and bad JSON are malformed, not crashes */
	CHECK(bc_msg_send_raw(dealer, NULL, BC_PROTO_VERSION, "NOPE", "{}", 2) == 0);
	CHECK(bc_msg_recv(router, true, &m, err, sizeof(err)) == -EBADMSG);
	CHECK(strstr(err, "unknown message type 'NOPE'") != NULL);
	bc_msg_clear(&m);
	CHECK(bc_msg_send_raw(dealer, NULL, BC_PROTO_VERSION, "PREPARE", "{oops", 5) == 0);
	CHECK(bc_msg_recv(router, true, &m, err, sizeof(err)) == -EBADMSG);
	CHECK(strstr(err, "PREPARE") != NULL);
	bc_msg_clear(&m);
	/* three frames where two are expected */
	zstr_sendm(dealer, "BC\001HELLO");
	zstr_sendm(dealer, "{}");
	zstr_send(dealer, "extra");
	CHECK(bc_msg_recv(router, true, &m, err, sizeof(err)) == -EBADMSG);
	bc_msg_clear(&m);
	/* not our protocol at all */
	zstr_sendm(dealer, "GET / HTTP/1.0");
	zstr_send(dealer, "x");
	CHECK(bc_msg_recv(router, true, &m, err, sizeof(err)) == -EBADMSG);
	bc_msg_clear(&m);
	zsock_destroy(&dealer);
	zsock_destroy(&router);
}

int main(void)
{
	test_stats_roundtrip();
	test_framing();
	TEST_DONE();
}
