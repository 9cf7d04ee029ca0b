/* test_json: 64-bit integers above 2^53 survive print, parse, duplicate and a message round trip
 * exactly */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bc_json.h"
#include "bc_proto.h"
#include "bc_test.h"

/* 2^53 + 1: the first integer a double cannot hold; a realtime ns; the extremes */
static const uint64_t s_u[] = {
    9007199254740993ULL, 1796151167241854713ULL, UINT64_MAX, 18446744073709551557ULL, 0, 1,
    9007199254740992ULL};
static const int64_t s_i[] = {-9007199254740993LL, INT64_MIN, INT64_MAX, -1796151167241854713LL};

static void test_print_parse(void)
{
	cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "u"), *back, *dup;
	char *text, want[32];
	size_t i;

	for (i = 0; i < sizeof(s_u) / sizeof(s_u[0]); i++)
		cJSON_AddItemToArray(arr, bc_json_u64(s_u[i]));
	for (i = 0; i < sizeof(s_i) / sizeof(s_i[0]); i++) {
		char k[8];

		snprintf(k, sizeof(k), "i%zu", i);
		bc_json_add_i64(o, k, s_i[i]);
	}
	/* a string that looks like a number and a double stay what they are */
	cJSON_AddStringToObject(o, "s", "12345678901234567890 \"quoted\" 99");
	cJSON_AddNumberToObject(o, "d", 1.5e300);
	text = bc_json_print(o, false);
	CHECK(text != NULL);
	printf("%s\n", text);
	snprintf(want, sizeof(want), "%" PRIu64, s_u[1]);
	CHECK(strstr(text, want) != NULL);
	CHECK(strstr(text, "18446744073709551615") != NULL);
	CHECK(strstr(text, "-9223372036854775808") != NULL);
	/* still numbers in memory, for the readers of the tree */
	CHECK(cJSON_IsNumber(cJSON_GetArrayItem(arr, 1)));
	back = bc_json_parse(text, strlen(text));
	CHECK(back != NULL);
	dup = cJSON_Duplicate(back, 1);
	for (i = 0; i < sizeof(s_u) / sizeof(s_u[0]); i++) {
		CHECK(bc_json_u64_of(cJSON_GetArrayItem(cJSON_GetObjectItem(back, "u"), (int)i)) ==
		      s_u[i]);
		CHECK(bc_json_u64_of(cJSON_GetArrayItem(cJSON_GetObjectItem(dup, "u"), (int)i)) ==
		      s_u[i]);
	}
	for (i = 0; i < sizeof(s_i) / sizeof(s_i[0]); i++) {
		char k[8];

		snprintf(k, sizeof(k), "i%zu", i);
		CHECK(bc_json_i64_of(cJSON_GetObjectItem(back, k)) == s_i[i]);
	}
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(back, "s")),
		      "12345678901234567890 \"quoted\" 99"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(back, "d")) == 1.5e300);
	/* printed again: the same text */
	{
		char *again = bc_json_print(dup, false);

		CHECK(again && !strcmp(again, text));
		cJSON_free(again);
	}
	/* plain cJSON would have rounded: the test can fail */
	CHECK((uint64_t)cJSON_GetNumberValue(cJSON_GetArrayItem(arr, 0)) != s_u[0]);
	cJSON_free(text);
	cJSON_Delete(o);
	cJSON_Delete(back);
	cJSON_Delete(dup);
}

/* a JSON message's body over real ZeroMQ sockets keeps the digits */
static void test_message(void)
{
	zsock_t *a = zsock_new_pair("@inproc://test-json"),
		*b = zsock_new_pair(">inproc://test-json");
	cJSON *body = cJSON_CreateObject();
	struct bc_msg m;
	char err[256];

	CHECK(a && b);
	bc_json_add_u64(body, "start_ns", s_u[1]);
	CHECK(bc_msg_send_json(a, NULL, BC_MSG_START, body) == 0);
	CHECK(bc_msg_recv(b, false, &m, err, sizeof(err)) == 0);
	CHECK(m.type == BC_MSG_START);
	CHECK(bc_json_u64_of(cJSON_GetObjectItem(m.json, "start_ns")) == s_u[1]);
	bc_msg_clear(&m);
	cJSON_Delete(body);
	zsock_destroy(&a);
	zsock_destroy(&b);
}

int main(void)
{
	test_print_parse();
	test_message();
	TEST_DONE();
}
