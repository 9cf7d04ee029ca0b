/* test_json: 64-bit integers above 2^53 survive print, parse, duplicate and a message round trip
 * exactly; bc_json_print writes cJSON_Print's text byte for byte */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "wire/proto.h"
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

/* numbers at every edge of the printer's integer path and of "%1.15g" / "%1.17g" */
static const double s_d[] = {0,
			     1,
			     -1,
			     7,
			     10,
			     -10,
			     123456789,
			     2147483647.0,
			     2147483648.0,
			     -2147483649.0,
			     999999999999999.0,
			     -999999999999999.0,
			     1e15,
			     -1e15,
			     1000000000000001.0,
			     9007199254740992.0,
			     9007199254740993.0,
			     1e16,
			     1.8446744073709552e19,
			     1e300,
			     -1e300,
			     1.7976931348623157e308,
			     5e-324,
			     2.2250738585072014e-308,
			     0.1,
			     -0.1,
			     1.0 / 3,
			     2.0 / 3,
			     0.5,
			     1.5,
			     -2.5,
			     123.456,
			     1e-7,
			     1e-5,
			     0.0001,
			     99999999999999.9,
			     999999999999999.9,
			     3.14159265358979,
			     1234567.000001};

/* a tree with every type, escapes, nesting and the numbers above plus random bit patterns */
static cJSON *s_tree(void)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(o, "nums"), *n, *s;
	char str[256];
	unsigned i;

	for (i = 0; i < sizeof(s_d) / sizeof(s_d[0]); i++) {
		cJSON_AddItemToArray(a, cJSON_CreateNumber(s_d[i]));
		cJSON_AddItemToArray(a, cJSON_CreateNumber(-s_d[i])); /* and -0 */
	}
	cJSON_AddItemToArray(a, cJSON_CreateNumber(NAN));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(INFINITY));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(-INFINITY));
	srand(7);
	for (i = 0; i < 20000; i++) {
		uint64_t bits =
		    ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
		double d;

		memcpy(&d, &bits, sizeof(d));
		cJSON_AddItemToArray(a, cJSON_CreateNumber(d));
		/* integers and near-integers of every size, and counts as the reports have */
		cJSON_AddItemToArray(
		    a, cJSON_CreateNumber((double)(rand() % 100000) * pow(10, rand() % 22 - 4)));
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)rand() / 7.0));
	}
	/* every byte in a string and in a key */
	for (i = 1; i < 256; i++)
		str[i - 1] = (char)i;
	str[255] = 0;
	cJSON_AddStringToObject(o, str, str);
	cJSON_AddStringToObject(o, "", "");
	s = cJSON_CreateString("x");
	free(s->valuestring);
	s->valuestring = NULL; /* cJSON prints "" */
	cJSON_AddItemToObject(o, "null string", s);
	cJSON_AddItemToObject(o, "raw", cJSON_CreateRaw("{\"as\": [1,2]}"));
	cJSON_AddNullToObject(o, "null");
	cJSON_AddTrueToObject(o, "t");
	cJSON_AddFalseToObject(o, "f");
	cJSON_AddObjectToObject(o, "empty object");
	cJSON_AddArrayToObject(o, "empty array");
	/* objects in arrays in objects, as fio.json's jobs */
	n = cJSON_AddArrayToObject(o, "jobs");
	for (i = 0; i < 3; i++) {
		cJSON *j = cJSON_CreateObject(), *in = cJSON_AddObjectToObject(j, "inner");

		cJSON_AddNumberToObject(in, "bins", i * 1000.5);
		cJSON_AddItemToObject(in, "deep", cJSON_CreateArray());
		cJSON_AddItemToArray(cJSON_GetObjectItem(in, "deep"), cJSON_CreateObject());
		cJSON_AddItemToArray(cJSON_GetObjectItem(in, "deep"),
				     cJSON_CreateIntArray((int[]){1, 2}, 2));
		cJSON_AddItemToArray(n, j);
	}
	return o;
}

/* s with depth tabs after every line break: what s_put_nested once did */
static char *s_reindent(const char *s, int depth)
{
	size_t n = 0, i;
	char *out = malloc(strlen(s) * (size_t)(depth + 1) + 1);

	for (; out && *s; s++) {
		out[n++] = *s;
		for (i = 0; *s == '\n' && i < (size_t)depth; i++)
			out[n++] = '\t';
	}
	if (out)
		out[n] = 0;
	return out;
}

static void test_printer_is_cjson(void)
{
	cJSON *o = s_tree();
	char *ours = bc_json_print(o, true), *theirs = cJSON_Print(o), *re;
	size_t i;

	CHECK(ours && theirs);
	CHECK(ours && theirs && strlen(theirs) > 100000);
	for (i = 0; ours && theirs && ours[i] == theirs[i] && ours[i]; i++)
		;
	CHECK_MSG(ours && theirs && !strcmp(ours, theirs),
		  "formatted differs at byte %zu: ours '%.40s' cJSON '%.40s'", i,
		  ours + (i > 20 ? i - 20 : 0), theirs + (i > 20 ? i - 20 : 0));
	cJSON_free(ours);
	cJSON_free(theirs);
	ours = bc_json_print(o, false);
	theirs = cJSON_PrintUnformatted(o);
	CHECK(ours && theirs && !strcmp(ours, theirs));
	cJSON_free(ours);
	cJSON_free(theirs);
	/* nested: as the re-indented whole */
	theirs = cJSON_Print(o);
	re = theirs ? s_reindent(theirs, 3) : NULL;
	ours = bc_json_print_nested(o, 3);
	CHECK(ours && re && !strcmp(ours, re));
	cJSON_free(ours);
	cJSON_free(theirs);
	free(re);
	/* a raw item without text cannot be printed, by either */
	{
		cJSON *r = cJSON_CreateRaw("1");

		free(r->valuestring);
		r->valuestring = NULL;
		cJSON_AddItemToObject(o, "bad raw", r);
		theirs = cJSON_Print(o);
		ours = bc_json_print(o, true);
		CHECK(!theirs && !ours);
	}
	/* the scalars alone */
	{
		cJSON *d = cJSON_CreateNumber(-0.0), *str = cJSON_CreateString("a\"b");

		ours = bc_json_print(d, false);
		CHECK(ours && !strcmp(ours, "-0"));
		cJSON_free(ours);
		ours = bc_json_print(str, true);
		CHECK(ours && !strcmp(ours, "\"a\\\"b\""));
		cJSON_free(ours);
		cJSON_Delete(d);
		cJSON_Delete(str);
	}
	cJSON_Delete(o);
}

int main(void)
{
	test_print_parse();
	test_printer_is_cjson();
	test_message();
	TEST_DONE();
}
