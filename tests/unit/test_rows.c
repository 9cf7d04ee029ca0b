/*
 * test_rows: a long step's rows in the spill file (agg/rows.h): the pages
 * behind the open seconds leave memory, a late record still lands, every row
 * reads back
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg/agg.h"
#include "fleet/fleet.h"
#include "bc_aggtest.h"
#include "bc_test.h"

/* is the page at p mapped in this process (/proc/self/pagemap: bit 63, present)? */
static bool s_page_mapped(const void *p)
{
	uint64_t ent = 0;
	FILE *f = fopen("/proc/self/pagemap", "rb");

	if (!f)
		return false;
	if (fseek(f, (long)((uintptr_t)p / 4096 * sizeof(ent)), SEEK_SET) ||
	    fread(&ent, sizeof(ent), 1, f) != 1)
		ent = 0;
	fclose(f);
	return ent >> 63;
}

/* a long step's rows live in a file mapping whose pages are dropped: nothing is lost */
static void s_spilled_rows(void)
{
	static const char *prof =
	    "{\"name\": \"long\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\"}],"
	    " \"defaults\": {\"runtime\": \"600000s\"}, \"steps\": [{\"name\": \"s\"}]}";
	static struct bc_volstat v;
	struct bc_profile *p = NULL;
	struct bc_conn c = {0};
	struct bc_stats_hdr h = {.nvol = 1}, got;
	struct bc_agg g;
	uint8_t *body = NULL;
	size_t len = 0;
	char err[256];
	int vol = 0;
	size_t per, pg;
	uint32_t k;

	CHECK(bc_profile_parse(prof, "long.json", &p, err, sizeof(err)) == 0);
	if (!p)
		return;
	CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
	CHECK(g.rows_map);
	c.spec = &p->agents[0];
	c.vols = &vol;
	c.nvols = 1;
	s_fill(&v, 0);
	for (k = 0; k < 70; k++) {
		h.second = k;
		CHECK(bc_stats_encode(&h, &v, &body, &len) == 0);
		CHECK(bc_agg_add(&g, &c, body, len, &got) == 0);
		free(body);
		bc_agg_close_second(&g, k);
		/* the pages wholly behind the open second leave the process */
		bc_agg_rows_ahead(&g);
	}
	per = g.rows_len / g.seconds;
	CHECK(per == 3 * sizeof(struct bc_secrow)); /* the volume, its agent, the total */
	CHECK(g.dropped == (per * 70 / 4096) * 4096 && g.dropped >= 8 * 4096);
	for (pg = 0; pg * 4096 < g.dropped; pg++)
		CHECK_MSG(!s_page_mapped((uint8_t *)g.rows + pg * 4096), "page %zu", pg);
	CHECK(s_page_mapped((uint8_t *)g.rows + g.dropped)); /* second 70's first row */
	/* a late record for a dropped second: added to the rows the file kept */
	h.second = 3;
	CHECK(bc_stats_encode(&h, &v, &body, &len) == 0);
	CHECK(bc_agg_add(&g, &c, body, len, &got) == 0);
	free(body);
	CHECK(bc_entity_row(&g.ent[BC_LVL_VOLUME][0], 3)->late == 1);
	CHECK(bc_entity_row(&g.ent[BC_LVL_VOLUME][0], 3)->ios[BC_OP_READ] ==
	      2 * v.op[BC_OP_READ].ios);
	for (k = 0; k < 70; k++)
		CHECK_MSG(bc_entity_row(&g.ent[BC_LVL_VOLUME][0], k)->ios[BC_OP_READ] ==
				  (k == 3 ? 2 : 1) * v.op[BC_OP_READ].ios &&
			      bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k)->p99_ns &&
			      bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k)->p99_ns ==
				  bc_entity_row(&g.ent[BC_LVL_VOLUME][0], k)->p99_ns,
			  "second %u", k);
	bc_agg_free(&g);
	bc_profile_destroy(&p);
}

int main(void)
{
	s_spilled_rows();
	TEST_DONE();
}
