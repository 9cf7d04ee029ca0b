/*
 * test_agg - aggregation (agg.c) against a dense reference: per-second
 * percentiles, window histograms and counters at every level equal what
 * merging full histograms gives, for ordinary records, a volume listed twice
 * in one record, a late record and the drain; and the "stats" line of
 * bc_rundir_stats is byte for byte the cJSON one (bc_agg_record_json), its
 * compact form carries the body itself. The sharded path (worker threads,
 * agg/pool.c) gives exactly what the serial one gives for the same arrivals:
 * shuffled within seconds, early, late, repeated and drain records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/pool.h"
#include "fleet/fleet.h"
#include "results/rundir.h"
#include "util/base64.h"
#include "bc_test.h"

static const char *s_profile =
    "{\"name\": \"agg\", \"agents\": [{\"name\": \"a.x\", \"endpoint\": \"local\"},"
    " {\"name\": \"b\", \"endpoint\": \"local\"}],"
    " \"nodes\": [{\"name\": \"n0\"}],"
    " \"volumes\": [{\"agent\": \"a.x\", \"path\": \"null\", \"node\": \"n0\"},"
    "  {\"agent\": \"a.x\", \"path\": \"null\"}, {\"agent\": \"b\", \"path\": \"null\", "
    "\"node\": \"n0\"}],"
    " \"defaults\": {\"ramp\": \"1s\", \"runtime\": \"3s\"}, \"steps\": [{\"name\": \"s\"}]}";

static void s_fill(struct bc_volstat *v, int salt)
{
	int o, i, n;

	bc_volstat_reset(v);
	for (o = 0; o < BC_OP_NR; o++) {
		if ((salt + o) % 4 == 3)
			continue; /* some ops empty */
		n = 50 + (int)(bc_test_rand() % 400);
		for (i = 0; i < n; i++)
			bc_opstat_complete(&v->op[o], 4096, 4096,
					   1000 + bc_test_rand() % (100000u << (o + salt % 3)));
		if (salt % 5 == 1)
			bc_opstat_complete(&v->op[o], -5, 4096, 0);
	}
	if (salt % 7 == 2)
		v->op[BC_OP_READ].bytes += 3000000000000000ull; /* prints as %1.15g */
}

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

/*
 * Every volume's, agent's and the total's per-second percentiles against
 * bc_hist_percentile of the merged dense histogram, for shapes that walk
 * the exact path over a volume's lists and block sums (agg/pcts.c) and the ranges of the
 * record's sum at their edges: one bucket, a few adjacent ones, a span from
 * 1 ns to seconds, one op, three ops, counts of one and of millions (two-
 * and three-byte varints), empty volumes.
 */
static void s_shape(struct bc_volstat *v, uint32_t shape)
{
	int o, i;

	bc_volstat_reset(v);
	for (o = 0; o < BC_OP_NR; o++) {
		struct bc_opstat *s = &v->op[o];
		uint64_t base = 1 + bc_test_rand() % 5000000;

		if (shape % 5 == 0 && o != BC_OP_READ)
			continue; /* one op */
		if (shape % 7 == 3)
			continue; /* nothing */
		switch (shape % 4) {
		case 0: /* one bucket, many samples */
			for (i = 0; i < 3; i++)
				bc_opstat_complete(s, 4096, 4096, base);
			s->hist.buckets[bc_hist_index(base)] += 5000000;
			s->hist.count += 5000000;
			s->ios += 5000000;
			break;
		case 1: /* a few adjacent buckets */
			for (i = 0; i < 200; i++)
				bc_opstat_complete(s, 4096, 4096, base + bc_test_rand() % 64);
			break;
		case 2: /* 1 ns to ~4 s */
			for (i = 0; i < 600; i++)
				bc_opstat_complete(
				    s, 4096, 4096,
				    1 + (bc_test_rand() >> (bc_test_rand() % 62 + 2)) %
					    4000000000ull);
			break;
		default: /* a body and a tail, some counts past one byte */
			for (i = 0; i < 1500; i++)
				bc_opstat_complete(s, 4096, 4096, 50000 + bc_test_rand() % 20000);
			for (i = 0; i < 30; i++)
				bc_opstat_complete(s, 4096, 4096,
						   100000 + bc_test_rand() % 50000000);
			break;
		}
	}
}

static void s_pcts_match(const struct bc_secrow *r, const struct bc_hist *all, const char *what,
			 int i, uint32_t k)
{
	CHECK_MSG(
	    r->p50_ns == bc_hist_percentile(all, 50) && r->p90_ns == bc_hist_percentile(all, 90) &&
		r->p99_ns == bc_hist_percentile(all, 99) &&
		r->p999_ns == bc_hist_percentile(all, 99.9) &&
		r->p9999_ns == bc_hist_percentile(all, 99.99) && r->max_ns == bc_hist_max(all),
	    "%s %d second %u: p50 %llu p99.99 %llu max %llu, reference %llu %llu %llu", what, i, k,
	    (unsigned long long)r->p50_ns, (unsigned long long)r->p9999_ns,
	    (unsigned long long)r->max_ns, (unsigned long long)bc_hist_percentile(all, 50),
	    (unsigned long long)bc_hist_percentile(all, 99.99),
	    (unsigned long long)bc_hist_max(all));
}

/* pct: the bodies carry the agent's percentile buckets (protocol 2), or not (an older agent) */
static void s_shapes(bool pct)
{
	static const char *prof =
	    "{\"name\": \"shapes\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"}],"
	    " \"nodes\": [{\"name\": \"n0\"}, {\"name\": \"n1\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\", \"node\": \"n0\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n1\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n0\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n1\"},"
	    " {\"agent\": \"a\", \"path\": \"null\", \"node\": \"n0\"},"
	    " {\"agent\": \"a\", \"path\": \"null\"}],"
	    " \"defaults\": {\"ramp\": \"1s\", \"runtime\": \"24s\"}, \"steps\": [{\"name\": "
	    "\"s\"}]}";
	enum { NV = 6, SECS = 25 };
	static struct bc_volstat v[NV];
	struct bc_hist *all = calloc(1, sizeof(*all)), *agent = calloc(1, sizeof(*agent));
	struct bc_profile *p = NULL;
	struct bc_conn c = {0};
	struct bc_agg g;
	char err[256];
	uint32_t k;
	int i, o;

	CHECK(all && agent);
	CHECK(bc_profile_parse(prof, "shapes.json", &p, err, sizeof(err)) == 0);
	CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
	c.spec = &p->agents[0];
	c.vols = calloc(NV, sizeof(int));
	for (i = 0; i < NV; i++)
		c.vols[c.nvols++] = i;
	for (k = 0; k < SECS; k++) {
		struct bc_stats_hdr h = {.step = 0, .second = k, .nvol = NV}, got;
		uint8_t *body = NULL;
		size_t blen = 0;

		for (i = 0; i < NV; i++)
			s_shape(&v[i], k * NV + (uint32_t)i);
		CHECK(bc_stats_encode_opts(&h, v, pct ? 0 : BC_STATS_ENC_NO_PCT, &body, &blen) ==
		      0);
		CHECK(bc_agg_add(&g, &c, body, blen, &got) == 0);
		free(body);
		bc_agg_close_second(&g, k);
		memset(agent, 0, sizeof(*agent));
		for (i = 0; i < NV; i++) {
			memset(all, 0, sizeof(*all));
			for (o = 0; o < BC_OP_NR; o++) {
				bc_hist_merge(all, &v[i].op[o].hist);
				bc_hist_merge(agent, &v[i].op[o].hist);
			}
			s_pcts_match(bc_entity_row(&g.ent[BC_LVL_VOLUME][i], k), all,
				     pct ? "volume (its agent's buckets)" : "volume", i, k);
		}
		s_pcts_match(bc_entity_row(&g.ent[BC_LVL_AGENT][0], k), agent, "agent", 0, k);
		s_pcts_match(bc_entity_row(&g.ent[BC_LVL_TOTAL][0], k), agent, "total", 0, k);
	}
	bc_agg_free(&g);
	free(c.vols);
	free(all);
	free(agent);
	bc_profile_destroy(&p);
}

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

/*
 * The sharded path against the serial one: nagents agents with 1-4
 * volumes each over 3 nodes (some volumes on none), agents failing with
 * different errnos, records arriving shuffled within a second, some of the
 * next second early, some late (after their second closed), one repeated,
 * then the drain. Every entity's rows, window and "all" must be equal.
 */
enum { S_EV_REC, S_EV_CLOSE };
struct s_ev {
	int type, agent;
	uint32_t k; /* BC_STATS_DRAIN for the drain */
};

static void s_fill_agent(struct bc_volstat *v, int agent, uint32_t k, int vol)
{
	int o, i, n;

	bc_volstat_reset(v);
	for (o = 0; o < BC_OP_NR; o++) {
		if ((agent + vol + o + (int)k) % 5 == 4)
			continue;
		n = 20 + (int)(bc_test_rand() % 200);
		for (i = 0; i < n; i++)
			bc_opstat_complete(&v->op[o], 4096, 4096,
					   500 + bc_test_rand() % (50000u << ((agent + o) % 6)));
		if ((agent * 7 + (int)k + o) % 11 == 3)
			bc_opstat_complete(&v->op[o], -(1 + agent % 30), 4096, 0);
		if ((agent + (int)k) % 13 == 5)
			bc_opstat_complete(&v->op[o], 100, 4096, 0); /* short */
	}
	if ((agent + (int)k) % 17 == 2)
		v->verify_errors = 1 + (uint64_t)agent;
}

static void s_opcnt_same(const struct bc_opcnt *a, const struct bc_opcnt *b, const char *what)
{
	CHECK_MSG(a->ios == b->ios && a->bytes == b->bytes && a->errors == b->errors &&
		      a->short_ios == b->short_ios && a->lat_sum_ns == b->lat_sum_ns &&
		      a->lat_min_ns == b->lat_min_ns && a->lat_max_ns == b->lat_max_ns &&
		      a->first_errno == b->first_errno,
		  "%s: counters differ (ios %llu/%llu errno %d/%d)", what,
		  (unsigned long long)a->ios, (unsigned long long)b->ios, a->first_errno,
		  b->first_errno);
}

static void s_opstat_same(const struct bc_opstat *a, const struct bc_opstat *b, const char *what)
{
	s_opcnt_same(&a->cnt, &b->cnt, what);
	CHECK_MSG(!memcmp(&a->hist, &b->hist, sizeof(a->hist)), "%s: histogram differs", what);
}

static void s_agg_same(const struct bc_agg *a, const struct bc_agg *b, uint32_t upto)
{
	char what[256];
	uint32_t k;
	int lvl, i, o;

	CHECK(a->closed == b->closed);
	CHECK(!memcmp(a->agents_reported, b->agents_reported, a->seconds * sizeof(uint32_t)));
	CHECK(!memcmp(a->late, b->late, a->seconds * sizeof(uint32_t)));
	for (lvl = 0; lvl < BC_LVL_NR; lvl++)
		for (i = 0; i < a->nent[lvl]; i++) {
			const struct bc_entity *x = &a->ent[lvl][i], *y = &b->ent[lvl][i];

			for (o = 0; o < BC_OP_NR; o++) {
				snprintf(what, sizeof(what), "%s window %s", x->name,
					 bc_op_names[o]);
				s_opstat_same(&x->window.op[o], &y->window.op[o], what);
				snprintf(what, sizeof(what), "%s all %s", x->name, bc_op_names[o]);
				s_opcnt_same(&x->all.op[o], &y->all.op[o], what);
			}
			CHECK(x->window.verify_errors == y->window.verify_errors &&
			      x->all.verify_errors == y->all.verify_errors);
			for (k = 0; k < upto; k++)
				CHECK_MSG(
				    !memcmp(bc_entity_row(x, k), bc_entity_row(y, k),
					    sizeof(struct bc_secrow)),
				    "%s second %u: p99 %llu/%llu ios %llu/%llu reports %u/%u "
				    "late %u/%u",
				    x->name, k, (unsigned long long)bc_entity_row(x, k)->p99_ns,
				    (unsigned long long)bc_entity_row(y, k)->p99_ns,
				    (unsigned long long)bc_entity_row(x, k)->ios[0],
				    (unsigned long long)bc_entity_row(y, k)->ios[0],
				    bc_entity_row(x, k)->reports, bc_entity_row(y, k)->reports,
				    bc_entity_row(x, k)->late, bc_entity_row(y, k)->late);
		}
}

/* apply evs to g (serial, or sharded over threads workers); the bodies come from rec */
static void s_replay(struct bc_agg *g, const struct bc_profile *p, int threads,
		     const struct bc_conn *conns, const struct s_ev *evs, int nev, uint8_t **bodies,
		     size_t *lens, int nagents, uint32_t seconds)
{
	int e;

	CHECK(bc_agg_init(g, p, &p->steps[0]) == 0);
	CHECK(bc_agg_pool_start(g, threads) == 0);
	CHECK(threads == 0 || g->pool != NULL);
	for (e = 0; e < nev; e++) {
		const struct s_ev *ev = &evs[e];
		uint32_t slot = ev->k == BC_STATS_DRAIN ? seconds : ev->k;
		size_t r = (size_t)slot * (size_t)nagents + (size_t)ev->agent;
		const struct bc_conn *bad = NULL;
		struct bc_stats_hdr h;

		if (ev->type == S_EV_CLOSE) {
			bc_agg_close_second(g, ev->k);
			continue;
		}
		CHECK_MSG(bc_agg_submit(g, &conns[ev->agent], bodies[r], lens[r], &h, &bad) == 0,
			  "record agent %d second %u", ev->agent, ev->k);
		CHECK(h.second == ev->k);
	}
	bc_agg_finish(g);
	CHECK(g->pool == NULL);
}

static void s_sharded(int nagents, uint32_t seconds, const int *thread_counts, int ntc)
{
	struct bc_profile *p = NULL;
	struct bc_conn *conns = calloc((size_t)nagents, sizeof(*conns));
	size_t nrec = (size_t)(seconds + 1) * (size_t)nagents;
	uint8_t **bodies = calloc(nrec, sizeof(*bodies));
	size_t *lens = calloc(nrec, sizeof(*lens));
	struct s_ev *evs = calloc(nrec * 3 + seconds + 8, sizeof(*evs));
	int *order = calloc((size_t)nagents, sizeof(int)),
	    *late = calloc((size_t)nagents, sizeof(int));
	static struct bc_volstat vols[4];
	struct bc_agg serial, sharded;
	char *prof, err[512];
	size_t at = 0, cap = 1 << 20;
	int a, v, i, t, nev = 0, nlate = 0, early = -1;
	uint32_t k;

	/* the profile: agent a has 1 + a % 4 volumes, volume j on node j % 4 (3: none) */
	prof = malloc(cap);
	at += (size_t)snprintf(prof + at, cap - at,
			       "{\"name\": \"shard\", \"nodes\": [{\"name\": \"n0\"}, {\"name\": "
			       "\"n1\"}, {\"name\": \"n2\"}], \"agents\": [");
	for (a = 0; a < nagents; a++)
		at += (size_t)snprintf(prof + at, cap - at,
				       "%s{\"name\": \"a%d\", \"endpoint\": \"local\"}",
				       a ? ", " : "", a);
	at += (size_t)snprintf(prof + at, cap - at, "], \"volumes\": [");
	for (a = 0, i = 0; a < nagents; a++)
		for (v = 0; v < 1 + a % 4; v++, i++) {
			char node[32] = "";

			if (i % 4 != 3)
				snprintf(node, sizeof(node), ", \"node\": \"n%d\"", i % 4);
			at += (size_t)snprintf(prof + at, cap - at,
					       "%s{\"agent\": \"a%d\", \"path\": \"v%d\"%s}",
					       i ? ", " : "", a, v, node);
		}
	snprintf(
	    prof + at, cap - at,
	    "], \"defaults\": {\"ramp\": \"1s\", \"runtime\": \"%us\"}, \"steps\": [{\"name\": "
	    "\"s\"}]}",
	    seconds - 1);
	if (bc_profile_parse(prof, "shard.json", &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n%s\n", err, prof);
		CHECK(0);
		goto out;
	}
	for (a = 0; a < nagents; a++) {
		conns[a].spec = &p->agents[a];
		conns[a].index = a;
		conns[a].vols = calloc((size_t)p->nvolumes, sizeof(int));
		for (v = 0; v < p->nvolumes; v++)
			if (p->volumes[v].agent == a)
				conns[a].vols[conns[a].nvols++] = v;
	}
	/* every record (row seconds: the drain), encoded once */
	for (k = 0; k <= seconds; k++)
		for (a = 0; a < nagents; a++) {
			struct bc_stats_hdr h = {.second = k == seconds ? BC_STATS_DRAIN : k,
						 .flags =
						     (a + (int)k) % 9 == 1 ? BC_STATS_F_LATE : 0,
						 .nvol = (uint32_t)conns[a].nvols};
			size_t r = (size_t)k * (size_t)nagents + (size_t)a;

			for (v = 0; v < conns[a].nvols; v++)
				s_fill_agent(&vols[v], a, k, v);
			CHECK(bc_stats_encode(&h, vols, &bodies[r], &lens[r]) == 0);
		}
	/* arrivals: each second shuffled, a few of them late, one agent's next second early */
	for (k = 0; k < seconds; k++) {
		for (a = 0; a < nagents; a++)
			order[a] = a;
		for (a = nagents - 1; a > 0; a--) {
			int j = (int)(bc_test_rand() % (uint64_t)(a + 1)), tmp = order[a];

			order[a] = order[j];
			order[j] = tmp;
		}
		for (a = 0; a < nagents; a++) {
			if (order[a] == early && k > 0)
				continue; /* came with the second before */
			if (bc_test_rand() % 10 == 0 && k + 1 < seconds) {
				late[nlate++] = order[a];
				continue;
			}
			evs[nev++] = (struct s_ev){S_EV_REC, order[a], k};
		}
		early = (int)(bc_test_rand() % (uint64_t)nagents);
		if (k + 1 < seconds)
			evs[nev++] = (struct s_ev){S_EV_REC, early, k + 1};
		else
			early = -1;
		evs[nev++] = (struct s_ev){S_EV_CLOSE, 0, k};
		for (i = 0; i < nlate; i++)
			evs[nev++] = (struct s_ev){S_EV_REC, late[i], k};
		nlate = 0;
	}
	/* an agent repeating itself, and every agent's drain */
	evs[nev++] = (struct s_ev){S_EV_REC, nagents / 2, 1};
	for (a = 0; a < nagents; a++)
		evs[nev++] = (struct s_ev){S_EV_REC, a, BC_STATS_DRAIN};
	s_replay(&serial, p, 0, conns, evs, nev, bodies, lens, nagents, seconds);
	for (t = 0; t < ntc; t++) {
		s_replay(&sharded, p, thread_counts[t], conns, evs, nev, bodies, lens, nagents,
			 seconds);
		s_agg_same(&serial, &sharded, seconds);
		bc_agg_free(&sharded);
	}
	/* the fixture means something: late records, errors and a node with data */
	CHECK(bc_entity_row(&serial.ent[BC_LVL_TOTAL][0], 1)->late > 0);
	CHECK(serial.ent[BC_LVL_TOTAL][0].window.op[BC_OP_READ].first_errno != 0);
	CHECK(serial.ent[BC_LVL_NODE][1].window.op[BC_OP_READ].ios > 0);
	bc_agg_free(&serial);
out:
	for (a = 0; p && a < nagents; a++)
		free(conns[a].vols);
	for (i = 0; i < (int)nrec; i++)
		free(bodies[i]);
	free(bodies);
	free(lens);
	free(evs);
	free(order);
	free(late);
	free(conns);
	free(prof);
	bc_profile_destroy(&p);
}

/* agents a and b of p as connections, each with its one volume (vol[a] = a) */
static void s_conns_one_vol(struct bc_conn c[2], const struct bc_profile *p, int vol[2])
{
	int a;

	for (a = 0; a < 2; a++) {
		c[a].spec = &p->agents[a];
		c[a].index = a;
		c[a].vols = &vol[a];
		c[a].nvols = 1;
	}
}

/*
 * A volume's window through its 16-bit pending counts (agg.c), against a
 * dense sum: a bucket that passes 65,535 over the seconds (volume 0: 3,000
 * samples a second in a few buckets), more than S_PEND_MAX (16,384) samples
 * of an op in a second, which go to the window directly (volume 1, its
 * second 4), and buckets below and above the pending range (1 us to 2 s
 * around a first second at 1 ms), serial and with workers.
 */
static void s_pending(void)
{
	static const char *prof =
	    "{\"name\": \"pend\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"},"
	    " {\"name\": \"b\", \"endpoint\": \"local\"}], \"nodes\": [{\"name\": \"n\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\", \"node\": \"n\"},"
	    " {\"agent\": \"b\", \"path\": \"null\", \"node\": \"n\"}],"
	    " \"defaults\": {\"runtime\": \"40s\", \"rw\": \"randrw\"},"
	    " \"steps\": [{\"name\": \"s\"}]}";
	static struct bc_volstat v[2], ref[2];
	struct bc_profile *p = NULL;
	struct bc_conn c[2] = {0};
	struct bc_agg g;
	char err[256];
	int vol[2] = {0, 1}, a, o, t, i;
	uint32_t k;

	CHECK(bc_profile_parse(prof, "pend.json", &p, err, sizeof(err)) == 0);
	if (!p)
		return;
	s_conns_one_vol(c, p, vol);
	for (t = 0; t < 2; t++) {
		CHECK(bc_agg_init(&g, p, &p->steps[0]) == 0);
		CHECK(g.pend != NULL);
		CHECK(bc_agg_pool_start(&g, t * 2) == 0);
		bc_volstat_reset(&ref[0]);
		bc_volstat_reset(&ref[1]);
		for (k = 0; k < 40; k++) {
			for (a = 0; a < 2; a++) {
				struct bc_stats_hdr h = {.second = k, .nvol = 1}, got;
				const struct bc_conn *bad;
				uint8_t *body = NULL;
				size_t len = 0;

				bc_volstat_reset(&v[a]);
				for (o = 0; o < 2; o++) {
					int n = a == 1 && k == 4 ? 20000 : 3000;

					/* few buckets around 1 ms; the first second only there */
					for (i = 0; i < n; i++)
						bc_opstat_complete(&v[a].op[o], 4096, 4096,
								   1000000 +
								       1000 * (bc_test_rand() % 3));
					if (k) { /* 1 us and 2 s: outside 16 octaves of it */
						bc_opstat_complete(&v[a].op[o], 4096, 4096, 1000);
						bc_opstat_complete(&v[a].op[o], 4096, 4096,
								   2000000000ull);
					}
				}
				bc_volstat_merge(&ref[a], &v[a]);
				CHECK(bc_stats_encode(&h, &v[a], &body, &len) == 0);
				CHECK(bc_agg_submit(&g, &c[a], body, len, &got, &bad) == 0);
				free(body);
			}
			bc_agg_close_second(&g, k);
		}
		bc_agg_finish(&g);
		for (a = 0; a < 2; a++)
			for (o = 0; o < BC_OP_NR; o++)
				CHECK_MSG(!memcmp(&g.ent[BC_LVL_VOLUME][a].window.op[o].hist,
						  &ref[a].op[o].hist, sizeof(ref[a].op[o].hist)),
					  "volume %d op %d, %d workers: window histogram", a, o,
					  t * 2);
		/* the test means it: a bucket's count is past what 16 bits hold */
		CHECK(bc_hist_max(&ref[0].op[0].hist) > 0 &&
		      ref[0].op[0].hist.buckets[bc_hist_index(1000000)] > UINT16_MAX);
		bc_agg_free(&g);
	}
	bc_profile_destroy(&p);
}

/* a long step's spilled rows (rows_map) through the workers too */
static void s_sharded_spilled(void)
{
	static const char *prof =
	    "{\"name\": \"long2\", \"agents\": [{\"name\": \"a\", \"endpoint\": \"local\"},"
	    " {\"name\": \"b\", \"endpoint\": \"local\"}], \"nodes\": [{\"name\": \"n\"}],"
	    " \"volumes\": [{\"agent\": \"a\", \"path\": \"null\", \"node\": \"n\"},"
	    " {\"agent\": \"b\", \"path\": \"null\", \"node\": \"n\"}],"
	    " \"defaults\": {\"runtime\": \"300000s\"}, \"steps\": [{\"name\": \"s\"}]}";
	static struct bc_volstat v;
	struct bc_profile *p = NULL;
	struct bc_conn c[2] = {0};
	struct bc_agg g[2];
	uint8_t *body[2] = {0};
	size_t len[2] = {0};
	char err[256];
	int vol[2] = {0, 1}, i, a;
	uint32_t k;

	CHECK(bc_profile_parse(prof, "long2.json", &p, err, sizeof(err)) == 0);
	if (!p)
		return;
	s_conns_one_vol(c, p, vol);
	for (i = 0; i < 2; i++) {
		CHECK(bc_agg_init(&g[i], p, &p->steps[0]) == 0);
		CHECK(g[i].rows_map);
		CHECK(bc_agg_pool_start(&g[i], i * 2) == 0);
	}
	for (k = 0; k < 70; k++) {
		for (a = 0; a < 2; a++) {
			struct bc_stats_hdr h = {.second = k, .nvol = 1};

			s_fill(&v, (int)k + a);
			CHECK(bc_stats_encode(&h, &v, &body[a], &len[a]) == 0);
		}
		for (i = 0; i < 2; i++)
			for (a = 0; a < 2; a++) {
				struct bc_stats_hdr got;
				const struct bc_conn *bad;

				CHECK(bc_agg_submit(&g[i], &c[a], body[a], len[a], &got, &bad) ==
				      0);
			}
		for (i = 0; i < 2; i++) {
			bc_agg_close_second(&g[i], k);
			bc_agg_rows_ahead(&g[i]); /* drops the pages behind */
		}
		free(body[0]);
		free(body[1]);
	}
	for (i = 0; i < 2; i++)
		bc_agg_finish(&g[i]); /* the serial one too: its windows made whole */
	s_agg_same(&g[0], &g[1], 70);
	CHECK(bc_entity_row(&g[1].ent[BC_LVL_TOTAL][0], 69)->p99_ns != 0);
	for (i = 0; i < 2; i++)
		bc_agg_free(&g[i]);
	bc_profile_destroy(&p);
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

	s_shapes(true);
	s_shapes(false);
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
	s_spilled_rows();
	s_pending();
	{
		static const int small[] = {1, 2, 3, 5}, big[] = {2, 4};

		s_sharded(11, 6, small, 4);
		/* ~20 MB of records: the rings wrap */
		s_sharded(96, 24, big, 2);
	}
	s_sharded_spilled();
	TEST_DONE();
}
