/* test_rank: a level too large to list, ranked (report/parts/rank.h): ties in run.json's order */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/rank.h"
#include "report/parts/rundata.h"
#include "util/rjson.h"
#include "bc_test.h"

/*
 * Equal figures rank in run.json's order, whatever the items' addresses:
 * built here in reverse, the array's first item is the highest in memory
 * (the rule once compared addresses, and a run and its rebuild listed tied
 * volumes differently)
 */
static void test_rank_ties(void)
{
	cJSON *ents = cJSON_CreateArray(), *e[8];
	struct bc_rank k;
	int i;

	for (i = 0; i < 8; i++) {
		char name[8];

		e[i] = cJSON_CreateObject();
		snprintf(name, sizeof(name), "v%d", i);
		cJSON_AddStringToObject(e[i], "name", name);
		/* v0 and v1 lead on IOPS; the rest tie on both figures */
		cJSON_AddNumberToObject(e[i], "iops", i < 2 ? 2000 - i : 1000);
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(e[i], "lat_us"), "p99", 500);
	}
	for (i = 7; i >= 0; i--)
		cJSON_AddItemToArray(ents, e[i]); /* run.json order: v7, v6, ..., v0 */
	CHECK(bc_rank_make(&k, ents) == 0);
	CHECK(k.n == 8);
	for (i = 0; i < 8 && k.n == 8; i++) {
		/* p99 all tied: run.json's order */
		CHECK_MSG(k.by_p99[i] == e[7 - i], "p99 rank %d is %s, expected v%d", i,
			  bc_rj_str("?", k.by_p99[i], "name"), 7 - i);
	}
	if (k.n == 8) {
		CHECK(k.by_iops[0] == e[0] && k.by_iops[1] == e[1]);
		/* the ties after them: v7 ... v2, as listed */
		for (i = 2; i < 8; i++)
			CHECK(k.by_iops[i] == e[9 - i]);
	}
	bc_rank_free(&k);
	cJSON_Delete(ents);
}

int main(void)
{
	test_rank_ties();
	TEST_DONE();
}
