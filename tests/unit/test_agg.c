/*
 * test_agg - aggregation (agg/agg.h) against a dense reference: per-second
 * percentiles, window histograms and counters at every level equal what
 * merging full histograms gives, for ordinary records, a volume listed twice
 * in one record, a late record and the drain; and the "stats" line of
 * bc_rundir_stats is byte for byte the cJSON one (bc_agg_record_json), its
 * compact form carries the body itself. The rooms of agg/ have their own:
 * test_pcts, test_rows, test_fanout, test_pool.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/pool.h"
#include "fleet/fleet.h"
#include "results/files/rundir.h"
#include "util/base64.h"
#include "bc_aggtest.h"
#include "bc_test.h"

static const char *s_profile =
    "{\"name\": \"agg\", \"agents\": [{\"name\": \"a.x\", \"endpoint\": \"local\"},"
    " {\"name\": \"b\", \"endpoint\": \"local\"}],"
    " \"nodes\": [{\"name\": \"n0\"}],"
    " \"volumes\": [{\"agent\": \"a.x\", \"path\": \"null\", \"node\": \"n0\"},"
    "  {\"agent\": \"a.x\", \"path\": \"null\"}, {\"agent\": \"b\", \"path\": \"null\", "
    "\"node\": \"n0\"}],"
    " \"defaults\": {\"ramp\": \"1s\", \"runtime\": \"3s\"}, \"steps\": [{\"name\": \"s\"}]}";

/* the "stats" line as the cJSON path writes it, up to and without "time_ns" */
static char *s_reference_line(const struct bc_agg *g, const struct bc_conn *c,
			      const struct bc_stats_hdr *h)
{
	cJSON *ev = bc_agg_record_json(g, c, h);
	char *t, *cut;

	cJSON_AddNumberToObject(ev, "step", h->step);
	cJSON_AddItemToObject(ev, "event", cJSON_CreateString("stats"));
	cJSON_AddItemToObject(ev, "time_ns", cJSON_CreateNumber(1.7e18));
	t = cJSON_PrintUnformatted(ev);
	cJSON_Delete(ev);
	cut = strstr(t, ",\"time_ns\":");
	if (cut)
		*cut = 0;
	return t;
}

/* the same records through a real run directory and its writer thread */
static struct bc_rundir s_rd2;

/* add one record from agent c, compare its event line with the reference */
static void s_record(struct bc_agg *g, struct bc_rundir *rd, char **buf, size_t *len,
		     const struct bc_conn *c, uint32_t k, const struct bc_volstat *vols,
		     uint32_t nvol, bool twice)
{
	struct bc_stats_hdr h = {.step = 0, .second = k, .flags = k == 2, .nvol = nvol}, got;
	uint8_t *body = NULL, *dup = NULL;
	size_t blen = 0, before = *len, i;
	char *ref, *line;

	CHECK(bc_stats_encode(&h, vols, &body, &blen) == 0);
	if (twice) {
		/* volume 0 listed a second time: the record ends with a copy of its entry */
		struct bc_stats_hdr h1 = {.step = 0, .second = k, .nvol = 1};
		uint8_t *one = NULL;
		size_t olen = 0;

		CHECK(bc_stats_encode(&h1, vols, &one, &olen) == 0);
		dup = malloc(blen + olen);
		memcpy(dup, body, blen);
		/* header: version, step, second (k < 128), flags, nvol; nvol is byte 4 */
		dup[4] = (uint8_t)(nvol + 1);
		memcpy(dup + blen, one + 5, olen - 5);
		blen += olen - 5;
		free(body);
		free(one);
		body = dup;
	}
	CHECK(bc_agg_add(g, c, body, blen, &got) == 0);
	bc_rundir_stats(rd, g, c, &got, body, blen);
	bc_rundir_stats(&s_rd2, g, c, &got, body, blen);
	fflush(rd->events);
	ref = s_reference_line(g, c, &got);
	line = strndup(*buf + before, *len - before);
	for (i = 0; line[i] && line[i] == ref[i]; i++)
		;
	CHECK_MSG(!ref[i] && !strncmp(line + i, ",\"time_ns\":", 11),
		  "at %zu:\n fast %.200s\n  ref %.200s", i, line + (i > 40 ? i - 40 : 0),
		  ref + (i > 40 ? i - 40 : 0));
	free(line);
	cJSON_free(ref);
	free(body);
}

/* the compact "stats" line carries the body itself, and the header's fields */
static void s_compact_line(const struct bc_conn *c, const uint8_t *body, size_t blen)
{
	struct bc_rundir rd = {0};
	struct bc_stats_hdr h = {.step = 2, .second = BC_STATS_DRAIN, .flags = 1, .nvol = 2};
	char *buf = NULL;
	size_t len = 0;
	cJSON *j;
	const char *b64;
	uint8_t *dec;
	long n;

	rd.events = open_memstream(&buf, &len);
	rd.compact = true;
	bc_rundir_stats(&rd, NULL, c, &h, body, blen);
	fflush(rd.events);
	j = cJSON_Parse(buf);
	CHECK(j != NULL);
	b64 = cJSON_GetStringValue(cJSON_GetObjectItem(j, "body_b64"));
	CHECK(b64 != NULL);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "event")), "stats"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "second")) == -1 &&
	      cJSON_IsTrue(cJSON_GetObjectItem(j, "drain")));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "step")) == 2);
	dec = malloc(blen + 3);
	n = b64 ? bc_base64_decode(dec, b64, strlen(b64)) : -1;
	CHECK(n == (long)blen && !memcmp(dec, body, blen));
	/* every tail length decodes back */
	for (n = 0; n < 5; n++) {
		char enc[16];
		uint8_t back[8], src[4] = {0xfb, 0x00, 0xff, 0x3e};
		char *e = bc_base64_encode(enc, src, (size_t)n);

		CHECK(bc_base64_decode(back, enc, (size_t)(e - enc)) == n && !memcmp(back, src, n));
	}
	CHECK(bc_base64_decode(dec, "ab*=", 4) == -EINVAL);
	free(dec);
	cJSON_Delete(j);
	fclose(rd.events);
	rd.events = NULL;
	bc_rundir_close(&rd);
	free(buf);
}

int main(void)
{
	struct bc_profile *p = NULL;
	struct bc_agg g;
	struct bc_rundir rd = {0};
	struct bc_conn conns[2] = {0};
	static struct bc_volstat va[3][2], vb[3][1], ref_sec[4], ref_win[3], drain[2];
	struct bc_hist *all = calloc(1, sizeof(*all));
	char err[512], *buf = NULL;
	size_t len = 0;
	uint32_t k;
	int i, o, lvl;

	if (bc_profile_parse(s_profile, "agg.json", &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
	rd.events = open_memstream(&buf, &len);
	{
		char tmpl[] = "/tmp/test_agg.XXXXXX";

		CHECK(mkdtemp(tmpl) != NULL);
		CHECK(bc_rundir_create(&s_rd2, tmpl, "agg", err, sizeof(err)) == 0);
		CHECK(s_rd2.writer != NULL);
		bc_rundir_event(&s_rd2, "step_start", NULL);
	}
	for (i = 0; i < 2; i++) {
		int v;

		conns[i].spec = &p->agents[i];
		conns[i].index = i;
		conns[i].vols = calloc(4, sizeof(int));
		for (v = 0; v < p->nvolumes; v++)
			if (p->volumes[v].agent == i)
				conns[i].vols[conns[i].nvols++] = v;
	}
	/* seconds 0..2: a's second 1 lists volume 0 twice; b's second 2 arrives late */
	for (k = 0; k < 3; k++) {
		s_fill(&va[k][0], (int)k);
		s_fill(&va[k][1], (int)k + 10);
		s_fill(&vb[k][0], (int)k + 20);
		s_record(&g, &rd, &buf, &len, &conns[0], k, va[k], 2, k == 1);
		if (k == 1)
			bc_volstat_merge(&va[k][0], &va[k][0]); /* what a duplicate entry adds */
		if (k != 2)
			s_record(&g, &rd, &buf, &len, &conns[1], k, vb[k], 1, false);
		bc_agg_close_second(&g, k);
	}
	s_record(&g, &rd, &buf, &len, &conns[1], 2, vb[2], 1, false);
	s_fill(&drain[0], 3);
	s_fill(&drain[1], 4);
	s_record(&g, &rd, &buf, &len, &conns[0], BC_STATS_DRAIN, drain, 2, false);
	bc_agg_finish(&g); /* every record in: the windows whole */

	/* the dense reference: per second (total level) and window per volume */
	for (k = 0; k < 3; k++) {
		bc_volstat_reset(&ref_sec[k]);
		bc_volstat_merge(&ref_sec[k], &va[k][0]);
		bc_volstat_merge(&ref_sec[k], &va[k][1]);
		if (k != 2)
			bc_volstat_merge(&ref_sec[k], &vb[k][0]);
		memset(all, 0, sizeof(*all));
		for (o = 0; o < BC_OP_NR; o++)
			bc_hist_merge(all, &ref_sec[k].op[o].hist);
		CHECK_MSG(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k)->p99_ns ==
			      bc_hist_percentile(all, 99),
			  "second %u p99", k);
		CHECK(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k)->p50_ns ==
		      bc_hist_percentile(all, 50));
		CHECK(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k)->p9999_ns ==
		      bc_hist_percentile(all, 99.99));
		CHECK(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k)->max_ns == bc_hist_max(all));
	}
	CHECK(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], 2)->late == 1);
	CHECK(bc_entity_row(&g.ent[BC_LVL_AGENT][0], 0)->late == 0 &&
	      bc_entity_row(&g.ent[BC_LVL_AGENT][0], 1)->late == 0);
	CHECK(bc_entity_row(&g.ent[BC_LVL_NODE][0], 0)->late == 0 &&
	      bc_entity_row(&g.ent[BC_LVL_NODE][0], 2)->late == 1);
	/* node n0 = volumes 0 and 2 */
	for (k = 0; k < 2; k++) {
		memset(all, 0, sizeof(*all));
		for (o = 0; o < BC_OP_NR; o++) {
			bc_hist_merge(all, &va[k][0].op[o].hist);
			bc_hist_merge(all, &vb[k][0].op[o].hist);
		}
		CHECK_MSG(bc_entity_row(&g.ent[BC_LVL_NODE][0], k)->p99_ns ==
				  bc_hist_percentile(all, 99) &&
			      bc_entity_row(&g.ent[BC_LVL_NODE][0], k)->max_ns == bc_hist_max(all),
			  "node second %u", k);
	}
	/* volumes and agents: their second from their own record (a's second 1 has volume 0 twice)
	 */
	for (k = 0; k < 3; k++) {
		const struct bc_volstat *one[3] = {&va[k][0], &va[k][1], &vb[k][0]};

		for (i = 0; i < 3; i++) {
			memset(all, 0, sizeof(*all));
			for (o = 0; o < BC_OP_NR; o++)
				bc_hist_merge(all, &one[i]->op[o].hist);
			if (i == 2 && k == 2) /* b's second 2 came late: no percentiles */
				all->count = 0;
			CHECK_MSG(bc_entity_row(&g.ent[BC_LVL_VOLUME][i], k)->p90_ns ==
					  bc_hist_percentile(all, 90) &&
				      bc_entity_row(&g.ent[BC_LVL_VOLUME][i], k)->max_ns ==
					  bc_hist_max(all),
				  "volume %d second %u", i, k);
		}
		memset(all, 0, sizeof(*all));
		for (o = 0; o < BC_OP_NR; o++) {
			bc_hist_merge(all, &va[k][0].op[o].hist);
			bc_hist_merge(all, &va[k][1].op[o].hist);
		}
		CHECK_MSG(bc_entity_row(&g.ent[BC_LVL_AGENT][0], k)->p50_ns ==
				  bc_hist_percentile(all, 50) &&
			      bc_entity_row(&g.ent[BC_LVL_AGENT][0], k)->p999_ns ==
				  bc_hist_percentile(all, 99.9),
			  "agent a second %u", k);
	}
	for (i = 0; i < 3; i++)
		bc_volstat_reset(&ref_win[i]);
	for (k = 1; k < 3; k++) {
		bc_volstat_merge(&ref_win[0], &va[k][0]);
		bc_volstat_merge(&ref_win[1], &va[k][1]);
		bc_volstat_merge(&ref_win[2], &vb[k][0]);
	}
	for (i = 0; i < 3; i++)
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *w = &g.ent[BC_LVL_VOLUME][i].window.op[o];

			CHECK_MSG(w->ios == ref_win[i].op[o].ios &&
				      w->bytes == ref_win[i].op[o].bytes &&
				      w->lat_min_ns == ref_win[i].op[o].lat_min_ns &&
				      w->first_errno == ref_win[i].op[o].first_errno,
				  "volume %d op %d", i, o);
			CHECK(!memcmp(&w->hist, &ref_win[i].op[o].hist, sizeof(w->hist)));
		}
	/* the windows of the merged levels are the sums of their volumes' */
	for (o = 0; o < BC_OP_NR; o++) {
		struct bc_hist *sum = calloc(1, sizeof(*sum));

		for (i = 0; i < 3; i++)
			bc_hist_merge(sum, &g.ent[BC_LVL_VOLUME][i].window.op[o].hist);
		CHECK(!memcmp(sum, &g.ent[BC_LVL_TOTAL][0].window.op[o].hist, sizeof(*sum)));
		memset(sum, 0, sizeof(*sum));
		bc_hist_merge(sum, &g.ent[BC_LVL_VOLUME][0].window.op[o].hist);
		bc_hist_merge(sum, &g.ent[BC_LVL_VOLUME][2].window.op[o].hist);
		CHECK(!memcmp(sum, &g.ent[BC_LVL_NODE][0].window.op[o].hist, sizeof(*sum)));
		memset(sum, 0, sizeof(*sum));
		bc_hist_merge(sum, &g.ent[BC_LVL_VOLUME][0].window.op[o].hist);
		bc_hist_merge(sum, &g.ent[BC_LVL_VOLUME][1].window.op[o].hist);
		CHECK(!memcmp(sum, &g.ent[BC_LVL_AGENT][0].window.op[o].hist, sizeof(*sum)));
		free(sum);
	}
	/* every level's "all" counts the drain too */
	for (lvl = 0; lvl < BC_LVL_NR; lvl++)
		for (i = 0; i < g.nent[lvl]; i++)
			CHECK(g.ent[lvl][i].all.op[BC_OP_READ].ios >=
			      g.ent[lvl][i].window.op[BC_OP_READ].ios);
	CHECK(g.ent[BC_LVL_VOLUME][0].all.op[BC_OP_READ].ios == va[0][0].op[BC_OP_READ].ios +
								    ref_win[0].op[BC_OP_READ].ios +
								    drain[0].op[BC_OP_READ].ios);
	/* a second record for a volume-second that has one counts, but as late */
	s_record(&g, &rd, &buf, &len, &conns[1], 1, vb[1], 1, false);
	CHECK(bc_entity_row(&g.ent[BC_LVL_VOLUME][2], 1)->late == 1);
	{
		struct bc_stats_hdr h = {.second = 1, .nvol = 2};
		uint8_t *body = NULL;
		size_t blen = 0;

		CHECK(bc_stats_encode(&h, va[1], &body, &blen) == 0);
		s_compact_line(&conns[0], body, blen);
		free(body);
	}
	CHECK(bc_entity_row(&g.ent[BC_LVL_VOLUME][2], 1)->ios[BC_OP_READ] ==
	      2 * vb[1][0].op[BC_OP_READ].ios);
	fflush(rd.events);
	{
		/* the writer thread's file: the same lines after the first, up to time_ns */
		char path[BC_PATH_MAX + 32], *line = NULL, *at = buf, *cut;
		size_t cap = 0, n;
		FILE *f;
		int lines = 0;

		snprintf(path, sizeof(path), "%s/events.jsonl", s_rd2.path);
		bc_rundir_close(&s_rd2);
		f = fopen(path, "r");
		CHECK(f != NULL);
		CHECK(f && getline(&line, &cap, f) > 0 && strstr(line, "\"step_start\""));
		while (f && getline(&line, &cap, f) > 0) {
			cut = strstr(line, ",\"time_ns\":");
			n = cut ? (size_t)(cut - line) : 0;
			CHECK_MSG(n && !strncmp(line, at, n), "line %d", lines);
			at = strchr(at, '\n');
			at = at ? at + 1 : buf + len;
			lines++;
		}
		CHECK(lines == 8);
		if (f)
			fclose(f);
		free(line);
		unlink(path);
		rmdir(s_rd2.path);
		*strrchr(s_rd2.path, '/') = 0;
		rmdir(s_rd2.path);
	}
	fclose(rd.events);
	rd.events = NULL;
	bc_rundir_close(&rd);
	free(buf);
	free(all);
	for (i = 0; i < 2; i++)
		free(conns[i].vols);
	bc_agg_free(&g);
	bc_profile_destroy(&p);
	TEST_DONE();
}
