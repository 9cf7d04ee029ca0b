/* test_proto: message framing and version mismatch (wire/proto.h) over real ZeroMQ sockets */

#include <string.h>

#include "wire/proto.h"
#include "bc_test.h"

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
	test_framing();
	TEST_DONE();
}
