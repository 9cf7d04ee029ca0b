/*
 * test_pool: aggregation on worker threads (agg/pool.h) gives exactly what
 * the serial path gives for the same arrivals: shuffled within seconds,
 * early, late, repeated and drain records
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "agg/pool.h"
#include "fleet/fleet.h"
#include "bc_aggtest.h"
#include "bc_test.h"

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

int main(void)
{
	static const int small[] = {1, 2, 3, 5}, big[] = {2, 4};

	s_sharded(11, 6, small, 4);
	/* ~20 MB of records: the rings wrap */
	s_sharded(96, 24, big, 2);
	s_sharded_spilled();
	TEST_DONE();
}
