/*
 * test_kv.c - the KV-cache workload: its keys and their exact errors, the
 * wire form read back, the split of classes over jobs and logs over
 * writers, and the generator a job runs (engine/kvgen.h): exact record
 * counts, stores and prefetches interleaved evenly with the store first,
 * prefetches reading live objects only, FIFO eviction trimming the slot of
 * the object `capacity` stores older, the metadata ring, pacing, and the
 * whole thing through a job on a real file (tests/unit/bc_jobrun.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kvgen.h"
#include "profile/profile.h"
#include "profile/workload/json.h"
#include "profile/workload/kv.h"
#include "bc_jobrun.h"
#include "bc_test.h"

static char s_err[2048];

/* a one-agent profile with the step body step (' for ") */
static int s_parse(const char *step, struct bc_profile **p)
{
	char sq[8192], text[8192];
	size_t i;

	snprintf(sq, sizeof(sq),
		 "{'name':'t','agents':[{'name':'a','endpoint':'local'}],"
		 "'volumes':[{'agent':'a','path':'sim'}],'steps':[{'name':'s',%s}]}",
		 step);
	for (i = 0; sq[i]; i++)
		text[i] = sq[i] == '\'' ? '"' : sq[i];
	text[i] = '\0';
	return bc_profile_parse(text, "p.json", p, s_err, sizeof(s_err));
}

static void s_bad(int line, const char *step, const char *msg)
{
	struct bc_profile *p = NULL;

	if (s_parse(step, &p) != -EINVAL || p || !strstr(s_err, msg)) {
		fprintf(stderr, "%s:%d: expected\n  \"%s\"\ngot\n  \"%s\"\n", __FILE__, line, msg,
			p ? "(parsed)" : s_err);
		bc_test_failures++;
	}
	bc_profile_destroy(&p);
}
#define BAD(step, msg) s_bad(__LINE__, step, msg)

#define CLS_A                                                                                      \
	"{'name':'a','class':'hot','bs':'64k','range':{'offset':'0%','size':'40%'},"               \
	"'kv':{'workers':2,'stores':100,'prefetches':30,'capacity':'50%','meta':'log'}}"
#define CLS_B                                                                                      \
	"{'name':'b','class':'cold','bs':'128k','range':{'offset':'40%','size':'50%'},"            \
	"'kv':{'stores':40,'capacity':'64m','popularity':'zipf:0.9','store_rate':20}}"
#define LOG "{'name':'log','bs':'4k','range':{'offset':'95%','size':'5%'},'kv':'meta'}"

static void test_parse(void)
{
	struct bc_profile *p = NULL;
	const struct bc_workload *wl;
	unsigned w, idx, n;

	CHECK_MSG(
	    !s_parse("'numjobs':3,'streams':[" CLS_A "," CLS_B "," LOG "],'kv':{'pace':'5s'}", &p),
	    "%s", s_err);
	if (!p)
		return;
	wl = &p->steps[0].wl;
	CHECK(bc_workload_kv(wl) && bc_workload_writes(wl) && bc_workload_size_based(wl));
	CHECK(wl->streams[0].kv.role == BC_KV_CLASS && wl->streams[0].kv.workers == 2 &&
	      wl->streams[0].kv.capacity_pct == 50 && wl->streams[2].kv.role == BC_KV_LOG);
	CHECK(wl->streams[1].kv.popularity.kind == BC_DIST_ZIPF && wl->kv.pace_s == 5);
	/* a's rate is its stores over the pace, b's its own */
	CHECK(fabs(bc_kv_store_rate(wl, &wl->streams[0]) - 20.0) < 1e-9);
	CHECK(fabs(bc_kv_store_rate(wl, &wl->streams[1]) - 20.0) < 1e-9);
	/* jobs 0, 1 work for a, job 2 for b; a's two workers write the log, b has none */
	CHECK(bc_kv_job_class(wl, 0, &w) == 0 && w == 0);
	CHECK(bc_kv_job_class(wl, 1, &w) == 0 && w == 1);
	CHECK(bc_kv_job_class(wl, 2, &w) == 1 && w == 0);
	CHECK(bc_kv_job_class(wl, 3, &w) == -1);
	CHECK(bc_kv_log_writer(wl, 2, 1, &idx, &n) == 0 && idx == 1 && n == 2);
	CHECK(bc_kv_log_writer(wl, 2, 2, &idx, &n) == -1);
	bc_profile_destroy(&p);

	BAD("'numjobs':2,'streams':[" CLS_A "," CLS_B "," LOG "]",
	    "steps[0].numjobs: 2, but the KV classes have 3 workers in all");
	BAD("'numjobs':2,'streams':[" CLS_A ",{'name':'x','share':1}," LOG "]",
	    "steps[0].streams[1]: \"x\": in a KV workload every stream is an object class");
	BAD("'numjobs':2,'streams':[" CLS_A "]",
	    "steps[0].streams[0]: \"a\": kv.meta \"log\" is no stream of this workload");
	BAD("'streams':[{'name':'a','bs':'64k','kv':{'capacity':'1g'}}]",
	    "steps[0].streams[0]: \"a\": kv.stores is required");
	BAD("'streams':[{'name':'a','kv':{'stores':1,'capacity':'150%'}}]",
	    "steps[0].streams[0].kv.capacity: expected a size or a percentage of the region");
	BAD("'streams':[{'name':'a','kv':{'stores':1,'capacity':'1g','popularity':'normal:5'}}]",
	    "steps[0].streams[0].kv.popularity: expected uniform, zipf:THETA or pareto:H");
	BAD("'streams':[{'name':'a','kv':{'stores':1,'capacity':'1g','ttl':3}}]",
	    "steps[0].streams[0].kv.ttl: unknown key");
	BAD("'streams':[{'name':'a','kv':'log'}]",
	    "steps[0].streams[0].kv: expected a class {\"stores\": ..., \"capacity\": ...} or "
	    "\"meta\"");
	BAD("'rate_iops':100,'streams':[{'name':'a','kv':{'stores':1,'capacity':'1g'}}]",
	    "steps[0].rate_iops: not with a KV workload");
	BAD("'kv':{'trim':true}", "steps[0].kv: no stream is a KV class");
	BAD("'streams':[{'name':'a','seq_pct':20,'kv':{'stores':1,'capacity':'1g'}}]",
	    "steps[0].streams[0].seq_pct: not in a KV class or log: its offsets are its records'");
	BAD("'streams':[{'name':'a','kv':{'stores':1,'capacity':'1g'}}],'kv':{'trim':'maybe'}",
	    "steps[0].kv.trim: expected \"auto\", true or false");
}

/* the wire form reads back to the same workload, and writes the same text again */
static void test_wire(void)
{
	struct bc_profile *p = NULL;
	struct bc_workload back;
	char *a, *b;
	cJSON *j;

	CHECK(!s_parse("'numjobs':3,'streams':[" CLS_A "," CLS_B "," LOG
		       "],'kv':{'pace':'5s','trim':false}",
		       &p));
	if (!p)
		return;
	j = bc_workload_to_json(&p->steps[0].wl);
	CHECK_MSG(j && !bc_workload_from_json(j, &back, s_err, sizeof(s_err)), "%s", s_err);
	a = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	j = bc_workload_to_json(&back);
	b = cJSON_PrintUnformatted(j);
	CHECK_MSG(a && b && !strcmp(a, b), "%s\n!=\n%s", a, b);
	CHECK(back.kv.trim == BC_KV_TRIM_OFF && back.kv.pace_s == 5 &&
	      back.streams[0].kv.capacity_pct == 50 && back.streams[1].kv.capacity == 64 << 20 &&
	      !strcmp(back.streams[0].kv.meta, "log"));
	cJSON_free(a);
	cJSON_free(b);
	cJSON_Delete(j);
	bc_profile_destroy(&p);
}

/* one worker of class a run to its end: counts, order, eviction, live prefetches, the log */
static void test_generator(void)
{
	struct bc_profile *p = NULL;
	struct bc_kvgen *g = malloc(sizeof(*g));
	struct bc_rand rng;
	struct bc_kvio io;
	uint64_t ready, stores = 0, pref = 0, meta = 0, trims = 0, k = 0, last_store = 0;
	uint64_t win = 1ull << 30, gap = 0, mnext, obj_id = 0, chunk = 0;
	int64_t *slot_obj;
	bool first = true;

	CHECK(!s_parse("'numjobs':3,'iodepth':4,'streams':[" CLS_A "," CLS_B "," LOG "]", &p));
	if (!p || !g)
		goto out;
	bc_rand_seed(&rng, 7);
	/* job 1: class a's second worker, the log's second writer */
	/* the target takes at most 16 KiB per I/O: an object is 4 of them */
	CHECK_MSG(!bc_kvgen_init(g, &p->steps[0].wl, "sim", 0, win, 1, 4, true, 16384, s_err,
				 sizeof(s_err)),
		  "%s", s_err);
	/* a: 40% of 1 GiB in 64 KiB slots, 2 workers: 3,276 slots each; capacity half of them */
	CHECK(g->cls == 0 && g->worker == 1 && g->stores == 50 && g->prefetches == 15);
	CHECK(g->nslots == 3277 && g->cap == 1638 && g->obj == 65536);
	CHECK(g->chunk == 16384 && g->nchunks == 4 && bc_kvgen_maxbs(g) == 16384);
	CHECK(g->start == (uint64_t)(win * 40 / 100 / 65536) / 2 * 65536);
	CHECK(g->meta && g->mbytes == 4096 && g->interval_ns == 0);
	slot_obj = malloc(sizeof(*slot_obj) * g->nslots);
	if (!slot_obj)
		goto out;
	memset(slot_obj, 0xff, sizeof(*slot_obj) * g->nslots);
	mnext = g->mstart;
	while (bc_kvgen_next(g, &rng, 1000 + k, &io, &ready)) {
		uint64_t slot = (io.off - g->start) / g->obj;

		k++;
		CHECK(ready == 0);
		switch (io.kind) {
		case BC_KV_STORE:
			/* the object's 4 chunks in order, one record's ticket */
			CHECK(io.op == BC_OP_WRITE && io.len == 16384 &&
			      slot == obj_id % g->nslots &&
			      io.off == g->start + slot * 65536 + chunk * 16384);
			if (++chunk < 4)
				break;
			chunk = 0;
			slot_obj[slot] = (int64_t)obj_id++;
			stores++;
			if (stores > 1)
				gap = k - last_store > gap ? k - last_store : gap;
			last_store = k;
			break;
		case BC_KV_PREFETCH:
			CHECK(!first && io.op == BC_OP_READ && io.len == 16384 &&
			      slot_obj[slot] >= 0 && (uint64_t)slot_obj[slot] + g->cap >= obj_id);
			pref += ++chunk == 4;
			chunk %= 4;
			break;
		case BC_KV_META:
			CHECK(io.op == BC_OP_WRITE && io.len == 4096 && io.off == mnext);
			mnext += 4096;
			meta++;
			break;
		case BC_KV_EVICT:
			CHECK(io.op == BC_OP_TRIM && slot_obj[slot] >= 0 &&
			      (uint64_t)slot_obj[slot] + g->cap == obj_id);
			slot_obj[slot] = -1;
			trims++;
			break;
		}
		first = false;
		/* every I/O completes at once; a record counts when its last chunk is back */
		bc_kvgen_done(g, io.kind, io.ticket, io.len, io.len, 1000, 2000 + k);
	}
	/* exact totals; 50 stores into 1,638 slots of capacity: nothing evicted yet */
	CHECK(stores == 50 && pref == 15 && meta == 50 && trims == 0);
	CHECK(g->st.records[BC_KV_STORE] == 50 && g->st.ios[BC_KV_STORE] == 200 &&
	      g->st.records[BC_KV_PREFETCH] == 15 && g->st.records[BC_KV_META] == 50);
	CHECK(g->nfree == g->nrec); /* every ticket back */
	/* 15 prefetches among 50 stores: never more than one between two stores */
	CHECK(gap <= 2 * (4 + 1) + 4);
	free(slot_obj);
out:
	if (g)
		bc_kvgen_free(g);
	free(g);
	bc_profile_destroy(&p);
}

/* a small capacity: every store after it evicts (trim + record), lifetimes are recorded */
static void test_eviction(void)
{
	struct bc_profile *p = NULL;
	struct bc_kvgen *g = malloc(sizeof(*g));
	struct bc_rand rng;
	struct bc_kvio io;
	uint64_t ready, trims = 0, meta = 0, t = 0;

	CHECK(!s_parse("'numjobs':1,'iodepth':2,'streams':[{'name':'x','bs':'4k','range':{'size':"
		       "'64k'},'kv':{'stores':100,'capacity':'32k','store_rate':1000,'meta':'l'}},"
		       "{'name':'l','bs':'4k','range':{'offset':'64k','size':'8k'},'kv':'meta'}]",
		       &p));
	if (!p || !g)
		goto out;
	bc_rand_seed(&rng, 1);
	CHECK_MSG(!bc_kvgen_init(g, &p->steps[0].wl, "f", 0, 1 << 20, 0, 2, true, 0, s_err,
				 sizeof(s_err)),
		  "%s", s_err);
	CHECK(g->cap == 8 && g->nslots == 16 && g->mslots == 2);
	/* paced: 1,000 stores a second, one record per ms */
	CHECK(g->interval_ns == 1000000);
	while (bc_kvgen_next(g, &rng, t, &io, &ready)) {
		t = ready > t ? ready : t;
		if (io.kind == BC_KV_STORE)
			bc_kvgen_done(g, io.kind, io.ticket, io.len, io.len, 10, t + 10);
		trims += io.kind == BC_KV_EVICT;
		meta += io.kind == BC_KV_META;
		/* the log is a ring of its 2 records */
		if (io.kind == BC_KV_META)
			CHECK(io.off == 65536 || io.off == 65536 + 4096);
	}
	CHECK(trims == 92 && g->st.evictions == 92 && meta == 100 + 92);
	/* 99 ms from the first store to the last; an object lives 8 stores: 8 ms */
	CHECK(t >= 99000000 && g->st.life.count == 92 &&
	      fabs((double)g->st.life_ns / 92 - 8e6) < 1e5);
	/* the next step on the same volume and layout goes on with the same store */
	bc_kvgen_free(g);
	CHECK(!bc_kvgen_init(g, &p->steps[0].wl, "f", 0, 1 << 20, 0, 2, true, 0, s_err,
			     sizeof(s_err)));
	CHECK(g->resumed && g->next_id == 100 && g->mnext == (100 + 92) % 2);
	CHECK(bc_kvgen_next(g, &rng, t + 1, &io, &ready) && io.kind == BC_KV_EVICT &&
	      io.off == (100 - 8) % 16 * 4096);
	/* something else wrote the volume: the store starts over */
	bc_kvgen_free(g);
	bc_kvgen_forget("f");
	CHECK(!bc_kvgen_init(g, &p->steps[0].wl, "f", 0, 1 << 20, 0, 2, true, 0, s_err,
			     sizeof(s_err)));
	CHECK(!g->resumed && g->next_id == 0);
	/* a region too small for the capacity plus the I/Os in flight */
	bc_kvgen_free(g);
	CHECK(bc_kvgen_init(g, &p->steps[0].wl, "f", 0, 1 << 20, 0, 9, true, 0, s_err,
			    sizeof(s_err)) == -EINVAL &&
	      strstr(s_err, "fewer than its capacity of 8 objects plus iodepth 9"));
out:
	if (g)
		bc_kvgen_free(g);
	free(g);
	bc_profile_destroy(&p);
}

/* two classes through real jobs on a file: per-class records exact, trims, the log */
static void test_job_file(void)
{
	char path[] = "/tmp/bc_test_kv_XXXXXX", err[512];
	struct bc_volume_spec spec = {0};
	struct bc_profile *p = NULL;
	struct bc_target t = {0};
	struct jr_run r = {0};
	struct bc_workload wl;
	int fd;

	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 8 << 20)) {
		fprintf(stderr, "skip test_job_file: cannot create %s\n", path);
		return;
	}
	close(fd);
	CHECK(
	    !s_parse("'numjobs':3,'iodepth':4,'direct':false,'streams':["
		     "{'name':'a','bs':'16k','range':{'size':'50%'},"
		     "'kv':{'workers':2,'stores':300,'prefetches':40,'capacity':'25%','meta':'l'}},"
		     "{'name':'b','bs':'64k','range':{'offset':'50%','size':'45%'},"
		     "'kv':{'stores':50,'capacity':'1m','meta':'l'}},"
		     "{'name':'l','bs':'4k','range':{'offset':'95%'},'kv':'meta'}],"
		     "'kv':{'trim':true}",
		     &p));
	if (!p)
		goto out;
	wl = p->steps[0].wl;
	snprintf(spec.path, sizeof(spec.path), "%s", path);
	CHECK_MSG(!bc_target_open(&t, path, &spec, &wl, err, sizeof(err)), "%s", err);
	CHECK_MSG(!jr_run(&t, 1, &wl, NULL, 30, &r, err, sizeof(err)), "%s", err);
	/* 350 stores + 40 prefetches; a record per store and per eviction */
	CHECK(r.total[0].op[BC_OP_READ].ios == 40);
	CHECK_MSG(r.total[0].op[BC_OP_WRITE].ios == 350 + 350 + r.total[0].op[BC_OP_TRIM].ios,
		  "writes %llu trims %llu", (unsigned long long)r.total[0].op[BC_OP_WRITE].ios,
		  (unsigned long long)r.total[0].op[BC_OP_TRIM].ios);
	/* a: 2 workers of 128 slots with 32 live each evict 150 - 32 = 118 each; b: 50 - 16 */
	CHECK(r.total[0].op[BC_OP_TRIM].ios == 2 * 118 + 34);
	CHECK(r.total[0].op[BC_OP_WRITE].errors == 0 && r.total[0].op[BC_OP_TRIM].errors == 0);
	bc_target_close(&t);
out:
	jr_free(&r);
	bc_profile_destroy(&p);
	unlink(path);
}

/* a trace replayed: keys to slots, misses, times, the I/Os of each record; bad lines named */
static void test_trace(void)
{
	char path[] = "/tmp/bc_test_kvtrace_XXXXXX", step[1024];
	struct bc_profile *p = NULL;
	struct bc_kvgen *g = malloc(sizeof(*g));
	struct bc_rand rng;
	struct bc_kvio io;
	uint64_t ready, n;
	FILE *f;
	int fd;
	/* kind, slot (-1: none), length of each I/O in order */
	static const struct {
		uint8_t kind, op;
		int64_t slot;
		uint32_t len;
		uint64_t t_ms;
	} want[] = {
	    {BC_KV_STORE, BC_OP_WRITE, 0, 8192, 0},   /* a: 5000 bytes -> 2 blocks */
	    {BC_KV_META, BC_OP_WRITE, -1, 4096, 0},   /* its record */
	    {BC_KV_STORE, BC_OP_WRITE, 1, 16384, 10}, /* b */
	    {BC_KV_META, BC_OP_WRITE, -1, 4096, 10},
	    {BC_KV_PREFETCH, BC_OP_READ, 0, 8192, 20}, /* a read back */
	    {BC_KV_EVICT, BC_OP_TRIM, 0, 8192, 30},    /* a evicted */
	    {BC_KV_META, BC_OP_WRITE, -1, 4096, 30},
	    {BC_KV_STORE, BC_OP_WRITE, 2, 4096, 50}, /* c: the slot freed longest ago */
	    {BC_KV_META, BC_OP_WRITE, -1, 4096, 50},
	    {BC_KV_STORE, BC_OP_WRITE, 1, 16384, 60}, /* b again: in place */
	    {BC_KV_META, BC_OP_WRITE, -1, 4096, 60},
	};
	size_t i = 0;

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || !g) {
		CHECK(!"temporary trace");
		free(g);
		return;
	}
	fputs("time,class,op,key,bytes\n# a comment\n0,x,store,a,5000\n0.010,x,store,b,16384\n"
	      "{\"time\": 0.02, \"class\": \"x\", \"op\": \"prefetch\", \"key\": \"a\"}\n"
	      "0.03,x,evict,a,0\n0.04,x,prefetch,a,0\n0.05,x,store,c,10\n0.06,x,store,b,16384\n",
	      f);
	fclose(f);
	snprintf(step, sizeof(step),
		 "'numjobs':1,'iodepth':2,'streams':[{'name':'x','bs':'16k','range':{'size':'64k'},"
		 "'kv':{'meta':'l'}},{'name':'l','bs':'4k','range':{'offset':'64k','size':'16k'},"
		 "'kv':'meta'}],'kv':{'trace':'%s','trim':true}",
		 path);
	CHECK_MSG(!s_parse(step, &p), "%s", s_err);
	if (!p)
		goto out;
	CHECK(!bc_kv_trace_check(path, &p->steps[0].wl, &n, s_err, sizeof(s_err)) && n == 7);
	{
		/* the wire form of a trace's classes (no record counts) reads back */
		struct bc_workload back;
		cJSON *j = bc_workload_to_json(&p->steps[0].wl);

		CHECK_MSG(j && !bc_workload_from_json(j, &back, s_err, sizeof(s_err)), "%s", s_err);
		CHECK(!strcmp(back.kv.trace, path) && !back.streams[0].kv.stores);
		cJSON_Delete(j);
	}
	bc_rand_seed(&rng, 1);
	CHECK_MSG(!bc_kvgen_init(g, &p->steps[0].wl, "f", 0, 1 << 20, 0, 2, true, 0, s_err,
				 sizeof(s_err)),
		  "%s", s_err);
	CHECK(g->ntr == 7 && g->stores == 4 && g->prefetches == 2 && g->misses == 1);
	while (bc_kvgen_next(g, &rng, 1000000, &io, &ready)) {
		if (i >= sizeof(want) / sizeof(want[0])) {
			CHECK(!"more I/Os than the trace says");
			break;
		}
		CHECK_MSG(io.kind == want[i].kind && io.op == want[i].op && io.len == want[i].len &&
			      (want[i].slot < 0 || io.off == (uint64_t)want[i].slot * 16384) &&
			      ready == 1000000 + want[i].t_ms * 1000000,
			  "I/O %zu: kind %u op %u len %u off %llu ready %llu", i, io.kind, io.op,
			  io.len, (unsigned long long)io.off, (unsigned long long)ready);
		bc_kvgen_done(g, io.kind, io.ticket, io.len, io.len, 10, ready + 10);
		i++;
	}
	CHECK(i == sizeof(want) / sizeof(want[0]));
	CHECK(g->st.records[BC_KV_STORE] == 4 && g->st.records[BC_KV_PREFETCH] == 1 &&
	      g->st.evictions == 1 && g->st.life.count == 1);
	bc_kvgen_free(g);
	/* a bad line: the file and its line */
	f = fopen(path, "a");
	if (f) {
		fputs("0.07,y,store,d,1\n", f);
		fclose(f);
	}
	CHECK(bc_kv_trace_check(path, &p->steps[0].wl, &n, s_err, sizeof(s_err)) == -EINVAL &&
	      strstr(s_err, ":10: class \"y\" is no KV class of the workload"));
	f = fopen(path, "w");
	if (f) {
		fputs("0.5,x,store,a,1\n0.4,x,store,b,1\n", f);
		fclose(f);
	}
	CHECK(bc_kv_trace_check(path, &p->steps[0].wl, &n, s_err, sizeof(s_err)) == -EINVAL &&
	      strstr(s_err, ":2: time 0.4: expected seconds >= 0.5 (in order)"));
out:
	free(g);
	bc_profile_destroy(&p);
	unlink(path);
}

int main(void)
{
	test_parse();
	test_wire();
	test_generator();
	test_eviction();
	test_job_file();
	test_trace();
	return bc_test_failures ? 1 : 0;
}
