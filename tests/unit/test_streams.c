/* test_streams.c - multi-stream workloads and FDP experiments: profile parsing and its exact
 * errors, the wire form, stream selection by share (1M draws within 1%), offsets inside each
 * stream's region, 64 streams each with its own share, read share and sequential share (seq_pct,
 * 4M draws), placement per stream and per mode, and a job on a file whose writes land only in the
 * writing stream's region */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/streamgen.h"
#include "profile/experiment.h"
#include "profile/profile.h"
#include "profile/workload/streams.h"
#include "bc_jobrun.h"

static char s_err[2048];

/* a one-agent profile around step (JSON body, ' for ") and vol (extra volume keys) */
static int s_parse(const char *step, const char *vol, struct bc_profile **p)
{
	char sq[8192], text[8192];
	size_t i;

	/* vol may name its own path */
	snprintf(sq, sizeof(sq),
		 "{'name':'t','agents':[{'name':'a','endpoint':'local'}],"
		 "'volumes':[{'agent':'a'%s%s%s}],'steps':[{'name':'s'%s%s}]}",
		 strncmp(vol, "'path'", 6) ? ",'path':'null'" : "", vol[0] ? "," : "", vol,
		 step[0] ? "," : "", step);
	for (i = 0; sq[i]; i++)
		text[i] = sq[i] == '\'' ? '"' : sq[i];
	text[i] = '\0';
	return bc_profile_parse(text, "p.json", p, s_err, sizeof(s_err));
}

static struct bc_profile *s_ok(int line, const char *step, const char *vol)
{
	struct bc_profile *p = NULL;

	if (s_parse(step, vol, &p) || !p) {
		fprintf(stderr, "%s:%d: expected ok, got: %s\n", __FILE__, line, s_err);
		bc_test_failures++;
	}
	return p;
}
#define OK(step, vol) s_ok(__LINE__, step, vol)

/* the whole message, exactly */
static void s_bad(int line, const char *step, const char *vol, const char *msg)
{
	struct bc_profile *p = NULL;

	if (s_parse(step, vol, &p) != -EINVAL || p || strcmp(s_err, msg)) {
		fprintf(stderr, "%s:%d: expected\n  \"%s\"\ngot\n  \"%s\"\n", __FILE__, line, msg,
			p ? "(parsed)" : s_err);
		bc_test_failures++;
	}
	bc_profile_destroy(&p);
}
#define BAD(step, vol, msg) s_bad(__LINE__, step, vol, msg)

#define HOTCOLD                                                                                    \
	"'rw':'randwrite','streams':[{'name':'hot','class':'hot_churn','share':60,"                \
	"'range':{'offset':'0%','size':'25%'},'random_distribution':'zipf:0.99'},"                 \
	"{'name':'cold','share':40,'bs':'64k','rw':'write','range':{'offset':'25%'}}]"

static void test_parse(void)
{
	struct bc_profile *p;
	const struct bc_stream *s;
	char buf[64];

	p = OK(HOTCOLD, "");
	if (p) {
		CHECK(p->steps[0].wl.nstreams == 2);
		s = &p->steps[0].wl.streams[0];
		CHECK(!strcmp(s->name, "hot") && !strcmp(s->cls, "hot_churn") && s->share == 60);
		CHECK(s->rw == BC_RW_RANDWRITE && s->bs == 4096 && s->dist.kind == BC_DIST_ZIPF);
		CHECK(s->range_set && s->off.pct && s->len.pct && s->len.pct_val == 25);
		s = &p->steps[0].wl.streams[1];
		CHECK(!strcmp(s->cls, "cold") && s->bs == 65536 && s->rw == BC_RW_WRITE);
		CHECK(s->off.pct_val == 25 && !s->len.pct && !s->len.bytes);
		CHECK(bc_workload_writes(&p->steps[0].wl));
	}
	bc_profile_destroy(&p);
	/* a read-only step with a writing stream opens for writes */
	p = OK("'rw':'randread','streams':[{'name':'w','share':1,'rw':'randwrite'}]", "");
	CHECK(p && bc_workload_writes(&p->steps[0].wl));
	bc_profile_destroy(&p);
	p = OK("'streams':[{'name':'r','share':1}],'placement':'none'", "");
	CHECK(p && !bc_workload_writes(&p->steps[0].wl) &&
	      p->steps[0].wl.placement.kind == BC_PLACEMENT_NONE);
	bc_profile_destroy(&p);
	/* placement lists, stream_share, and streams inherited from defaults */
	p = OK("'streams':[{'name':'a','share':1,'rw':'randwrite','placement':[3,1]}],"
	       "'stream_share':'bytes'",
	       "");
	CHECK(p && p->steps[0].wl.share_bytes && p->steps[0].wl.streams[0].placement.kind == 1 &&
	      p->steps[0].wl.streams[0].placement.n == 2 &&
	      !strcmp(bc_placement_format(&p->steps[0].wl.streams[0].placement, buf, sizeof(buf)),
		      "[3,1]"));
	bc_profile_destroy(&p);

	BAD("'streams':{}", "",
	    "p.json: steps[0].streams: expected an array of 0 to 64 streams, got {}");
	BAD("'streams':[{'share':1}]", "",
	    "p.json: steps[0].streams[0].name: required key missing");
	BAD("'streams':[{'name':'a'}]", "",
	    "p.json: steps[0].streams[0].share: required key missing");
	BAD("'streams':[{'name':'a','share':0}]", "",
	    "p.json: steps[0].streams[0].share: expected a weight > 0 (e.g. 60 or 0.6), got 0");
	BAD("'streams':[{'name':'a','share':1,'iodepth':4}]", "",
	    "p.json: steps[0].streams[0].iodepth: unknown key");
	BAD("'streams':[{'name':'a','share':1},{'name':'a','share':1}]", "",
	    "p.json: steps[0].streams[1].name: duplicate stream name \"a\"");
	BAD("'streams':[{'name':'a b','share':1}]", "",
	    "p.json: steps[0].streams[0].name: expected a name of 1..31 characters "
	    "[A-Za-z0-9._-], got \"a b\"");
	BAD("'streams':[{'name':'a','share':1,'bs':1000}]", "",
	    "p.json: steps[0].streams[0].bs: must be a multiple of 512 in 512..1g, got 1000");
	BAD("'streams':[{'name':'a','share':1,'random_distribution':'zipf:0'}]", "",
	    "p.json: steps[0].streams[0].random_distribution: zipf needs theta in (0, 100], got "
	    "\"zipf:0\"");
	BAD("'streams':[{'name':'a','share':1,'rw':'randrw','rwmixread':70,'rwmixtrim':40}]", "",
	    "p.json: steps[0].streams[0].rwmixtrim: rwmixread 70 + rwmixtrim 40 exceed 100 "
	    "percent");
	BAD("'streams':[{'name':'a','share':1,'range':{'offset':'60%','size':'50%'}}]", "",
	    "p.json: steps[0].streams[0].range: offset 60% + size 50% leave the window (more than "
	    "100%)");
	BAD("'streams':[{'name':'a','share':1,'range':{'offset':'101%'}}]", "",
	    "p.json: steps[0].streams[0].range.offset: expected a percentage of the window in "
	    "0%..100%, got \"101%\"");
	BAD("'streams':[{'name':'a','share':1,'range':{'start':0}}]", "",
	    "p.json: steps[0].streams[0].range.start: unknown key");
	BAD("'streams':[{'name':'a','share':1,'placement':[16]}]", "",
	    "p.json: steps[0].streams[0].placement: expected \"volume\", \"none\" or a list of 1 "
	    "to "
	    "16 indexes into the volume's fdp pids (0..15), got [16]");
	BAD("'placement':'all'", "",
	    "p.json: steps[0].placement: expected \"volume\", \"none\" or a list of 1 to 16 "
	    "indexes "
	    "into the volume's fdp pids (0..15), got \"all\"");
	BAD("'stream_share':'iops'", "",
	    "p.json: steps[0].stream_share: expected \"ios\" or \"bytes\", got \"iops\"");
	BAD("'verify':true,'streams':[{'name':'a','share':1}]", "",
	    "p.json: steps[0].verify: not supported with \"streams\"");
	/* a volume's own workload may carry streams too */
	p = OK("", "'workload':{'streams':[{'name':'v','share':1,'rw':'randwrite'}]}");
	bc_profile_destroy(&p);
}

/* the wire form reads back the same, strictly */
static void test_wire(void)
{
	struct bc_profile *p = OK(HOTCOLD ",'placement':[1],'stream_share':'bytes'", "");
	struct bc_workload back;
	cJSON *j;
	char *a = NULL, *b = NULL;

	if (!p)
		return;
	j = bc_workload_to_json(&p->steps[0].wl);
	CHECK(j && !bc_workload_from_json(j, &back, s_err, sizeof(s_err)));
	a = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	j = bc_workload_to_json(&back);
	b = cJSON_PrintUnformatted(j);
	CHECK_MSG(a && b && !strcmp(a, b), "%s\n!=\n%s", a, b);
	CHECK(back.nstreams == 2 && back.share_bytes && back.placement.kind == 1 &&
	      back.streams[1].off.pct_val == 25);
	CHECK(strstr(a, "\"range\":{\"offset\":\"25%\",\"size\":0}") != NULL);
	cJSON_free(a);
	cJSON_free(b);
	cJSON_Delete(j);
	bc_profile_destroy(&p);
}

/* 1M draws: each stream's share within 1% (relative), every offset in its region */
/* the streams' next I/O: its stream (returned), op, size and offset */
static unsigned s_next(struct bc_sgens *sg, struct bc_rand *rng, uint8_t *op, uint32_t *len,
		       uint64_t *off)
{
	unsigned s = bc_sgens_pick(sg, bc_rand_next(rng));
	int pl;

	bc_sgen_next(&sg->g[s], rng, op, len, off, &pl);
	return s;
}

static void test_selection(void)
{
	struct bc_profile *p =
	    OK("'rw':'randwrite','streams':["
	       "{'name':'a','share':50,'range':{'offset':'0%','size':'10%'}},"
	       "{'name':'b','share':30,'bs':'4k/50:16k/50','range':{'offset':'10%','size':'30%'},"
	       "'random_distribution':'zipf:1.1'},"
	       "{'name':'c','share':15,'rw':'write','bs':'128k','range':{'offset':'40%','size':'40%"
	       "'}},"
	       "{'name':'d','share':5,'rw':'randrw','rwmixread':50,'range':{'offset':'80%'}}]",
	       "");
	struct bc_sgens *sg = malloc(sizeof(*sg));
	uint64_t n[4] = {0}, bytes[4] = {0}, win = 1ull << 30, draws = 1000000, i;
	struct bc_rand rng;
	double want[4] = {0.5, 0.3, 0.15, 0.05};
	int bad = 0, k;

	if (!p || !sg)
		goto out;
	CHECK(!bc_sgens_init(sg, &p->steps[0].wl, "t", 0, win, 0, 1, 512, 7, s_err, sizeof(s_err)));
	bc_rand_seed(&rng, 42);
	for (i = 0; i < draws; i++) {
		uint64_t off;
		uint32_t len;
		uint8_t op;
		unsigned s = s_next(sg, &rng, &op, &len, &off);

		n[s]++;
		bytes[s] += len;
		if (off < sg->g[s].start || off + len > sg->g[s].end)
			bad++;
	}
	for (k = 0; k < 4; k++)
		CHECK_MSG(fabs((double)n[k] / (double)draws - want[k]) <= 0.01 * want[k],
			  "stream %d: %.4f of the I/Os, want %.2f", k, (double)n[k] / (double)draws,
			  want[k]);
	CHECK_MSG(!bad, "%d offsets outside their stream's region", bad);
	CHECK(sg->g[0].start == 0 && sg->g[0].end == win / 10 / 4096 * 4096);
	CHECK(sg->g[3].end == win && sg->maxbs == 131072);
	/* shares of bytes: I/O shares divided by the mean sizes */
	p->steps[0].wl.share_bytes = true;
	CHECK(!bc_sgens_init(sg, &p->steps[0].wl, "t", 0, win, 0, 1, 512, 7, s_err, sizeof(s_err)));
	memset(bytes, 0, sizeof(bytes));
	for (i = 0; i < draws; i++) {
		uint64_t off;
		uint32_t len;
		uint8_t op;
		unsigned s = s_next(sg, &rng, &op, &len, &off);

		bytes[s] += len;
	}
	{
		double tot = (double)(bytes[0] + bytes[1] + bytes[2] + bytes[3]);

		for (k = 0; k < 4; k++)
			CHECK_MSG(fabs((double)bytes[k] / tot - want[k]) <= 0.02 * want[k] + 0.001,
				  "stream %d: %.4f of the bytes, want %.2f", k,
				  (double)bytes[k] / tot, want[k]);
	}
	/* a region that leaves the window, named */
	CHECK(bc_sgens_init(sg, &p->steps[0].wl, "t", 0, 300 << 10, 0, 1, 512, 7, s_err,
			    sizeof(s_err)) == -EINVAL);
	CHECK_MSG(strstr(s_err, "stream \"a\": range of 28672 bytes") ||
		      strstr(s_err, "stream \"c\""),
		  "%s", s_err);
out:
	free(sg);
	bc_profile_destroy(&p);
}

/* seq_pct in a stream: its own, inherited by random streams only, refused on a sequential one */
static void test_seq_parse(void)
{
	struct bc_profile *p;
	const struct bc_workload *wl;
	char step[8192];
	size_t n;
	int i;

	p = OK("'rw':'randread','seq_pct':30,'streams':[{'name':'a','share':1},"
	       "{'name':'b','share':1,'seq_pct':80},{'name':'c','share':1,'rw':'write'},"
	       "{'name':'d','share':1,'rw':'randwrite','seq_pct':0}]",
	       "");
	wl = p ? &p->steps[0].wl : NULL;
	CHECK(wl && wl->streams[0].seq_pct == 30 && wl->streams[1].seq_pct == 80 &&
	      wl->streams[2].seq_pct == 0 && wl->streams[3].seq_pct == 0);
	bc_profile_destroy(&p);
	BAD("'rw':'randread','streams':[{'name':'a','share':1,'rw':'read','seq_pct':20}]", "",
	    "p.json: steps[0].streams[0].seq_pct: applies to random kinds (randread, randwrite, "
	    "randrw, randtrim); the stream's rw read is all sequential");
	/* a volume's streams in a step: the step's seq_pct reaches the random ones */
	p = OK(
	    "'rw':'randwrite','seq_pct':40",
	    "'workload':{'streams':[{'name':'a','share':1},{'name':'b','share':1,'rw':'write'}]}");
	if (p) {
		struct bc_workload vw;

		bc_volume_workload(&p->steps[0].wl, &p->volumes[0], &vw);
		CHECK_MSG(vw.nstreams == 2 && vw.streams[0].seq_pct == 40 && !vw.streams[1].seq_pct,
			  "%u streams, seq_pct %u / %u", vw.nstreams, vw.streams[0].seq_pct,
			  vw.streams[1].seq_pct);
	}
	bc_profile_destroy(&p);
	/* 64 streams are the most; 65 are named */
	n = (size_t)snprintf(step, sizeof(step), "'rw':'randread','streams':[");
	for (i = 0; i < 65; i++)
		n += (size_t)snprintf(step + n, sizeof(step) - n, "%s{'name':'s%d','share':1}",
				      i ? "," : "", i);
	snprintf(step + n, sizeof(step) - n, "]");
	BAD(step, "",
	    "p.json: steps[0].streams: expected an array of 0 to 64 streams, got [{\"name\":\"s0\","
	    "\"share\":1},{\"name\":\"s1\",\"share...");
	strcpy(strrchr(step, '{') - 1, "]");
	p = OK(step, "");
	CHECK(p && p->steps[0].wl.nstreams == 64);
	bc_profile_destroy(&p);
}

/*
 * 64 streams (the most) of unequal shares, each with its own read share and sequential share: over
 * 4M draws each stream's share of the I/Os, of its reads and of its I/Os that continue where its
 * last one ended are those asked (within 3 standard deviations, and 1% of the share)
 */
static void test_seq_mix(void)
{
	enum { NS = BC_STREAMS_MAX };
	char step[16384];
	struct bc_profile *p;
	struct bc_sgens *sg = malloc(sizeof(*sg));
	uint64_t n[NS] = {0}, rd[NS] = {0}, cont[NS] = {0}, last[NS], draws = 4000000, i;
	uint64_t win = 64ull << 30;
	double wsum = 0;
	struct bc_rand rng;
	size_t len;
	int k, bad = 0, outside = 0;

	len = (size_t)snprintf(step, sizeof(step), "'rw':'randrw','streams':[");
	for (k = 0; k < NS; k++) {
		/* shares 1..64, reads 0..94%, sequential 0, 1, 3, ... 94 and 100 */
		len += (size_t)snprintf(step + len, sizeof(step) - len,
					"%s{'name':'s%d','share':%d,'rwmixread':%d,'seq_pct':%d,"
					"'range':{'offset':'%g%%','size':'%g%%'}}",
					k ? "," : "", k, k + 1, k * 3 / 2,
					k == NS - 1 ? 100 : k * 3 / 2, k * 100.0 / NS, 100.0 / NS);
		wsum += k + 1;
	}
	snprintf(step + len, sizeof(step) - len, "]");
	p = OK(step, "");
	if (!p || !sg)
		goto out;
	CHECK(!bc_sgens_init(sg, &p->steps[0].wl, "t", 0, win, 0, 1, 512, 7, s_err, sizeof(s_err)));
	memset(last, 0xff, sizeof(last));
	bc_rand_seed(&rng, 4242);
	for (i = 0; i < draws; i++) {
		uint64_t off;
		uint32_t l;
		uint8_t op;
		unsigned s = s_next(sg, &rng, &op, &l, &off);

		n[s]++;
		rd[s] += op == BC_OP_READ;
		cont[s] += off == last[s];
		last[s] = off + l;
		outside += off < sg->g[s].start || off + l > sg->g[s].end;
	}
	for (k = 0; k < NS; k++) {
		double share = (k + 1) / wsum, got = (double)n[k] / (double)draws;
		double pr = (k * 3 / 2) * 0.01, ps = k == NS - 1 ? 1.0 : pr, fr, fs;

		fr = (double)rd[k] / (double)n[k];
		fs = (double)cont[k] / (double)n[k];
		if (fabs(got - share) >
			3 * sqrt(share * (1 - share) / (double)draws) + 0.01 * share ||
		    fabs(fr - pr) > 3 * sqrt(pr * (1 - pr) / (double)n[k]) + 0.002 ||
		    fabs(fs - ps) > 3 * sqrt(ps * (1 - ps) / (double)n[k]) + 0.002) {
			fprintf(stderr,
				"stream %d: %.5f of the I/Os (want %.5f), %.4f reads (want %.2f), "
				"%.4f continue (want %.2f)\n",
				k, got, share, fr, pr, fs, ps);
			bad++;
		}
	}
	CHECK_MSG(!bad, "%d of %d streams off their shares", bad, NS);
	CHECK_MSG(!outside, "%d I/Os outside their stream's region", outside);
out:
	free(sg);
	bc_profile_destroy(&p);
}

/*
 * A split with fractions of a percent (vdbench's xfersize=(4k,4.5,8k,41.05,...)): over 4M
 * draws each size's share of a stream's I/Os is the one asked within 4 standard deviations,
 * the 0.18% one included, where whole percents would be off by up to 0.5%
 */
static void test_split_fractions(void)
{
	static const uint32_t kb[] = {4, 8, 16, 32, 56, 128, 252, 420, 1004};
	static const double pct[] = {4.5, 41.05, 29.84, 1.23, 1.39, 15.19, 5.23, 0.18, 1.39};
	enum { NB = sizeof(kb) / sizeof(kb[0]) };
	struct bc_profile *p =
	    OK("'rw':'randread','streams':[{'name':'o','share':1,'bs':'4k/4.5:8k/41.05:16k/29.84:"
	       "32k/1.23:56k/1.39:128k/15.19:252k/5.23:420k/0.18:1004k/1.39'}]",
	       "");
	struct bc_sgens *sg = malloc(sizeof(*sg));
	uint64_t n[NB] = {0}, draws = 4000000, i;
	struct bc_rand rng;
	int k, bad = 0;

	if (!p || !sg)
		goto out;
	CHECK(!bc_sgens_init(sg, &p->steps[0].wl, "t", 0, 64ull << 30, 0, 1, 512, 7, s_err,
			     sizeof(s_err)));
	bc_rand_seed(&rng, 4343);
	for (i = 0; i < draws; i++) {
		uint64_t off;
		uint32_t len;
		uint8_t op;

		s_next(sg, &rng, &op, &len, &off);
		for (k = 0; k < NB && len != kb[k] * 1024; k++)
			;
		if (k < NB)
			n[k]++;
	}
	for (k = 0; k < NB; k++) {
		double want = pct[k] / 100, got = (double)n[k] / (double)draws;

		if (fabs(got - want) > 4 * sqrt(want * (1 - want) / (double)draws)) {
			fprintf(stderr, "%uk: %.5f of the I/Os, want %.5f\n", kb[k], got, want);
			bad++;
		}
	}
	CHECK_MSG(!bad, "%d of %d sizes off their shares", bad, NB);
out:
	free(sg);
	bc_profile_destroy(&p);
}

/*
 * vdbench's hotband as its HotBand class defines it, in closed form: u uniform maps through
 * the piecewise-linear curve (probability p[i] at m[i] megabytes, slope[i] megabytes per
 * unit of probability after it), the megabytes truncated, times 1000 the byte offset, cut to
 * blocks of len, a write 1% of the band's blocks further, wrapped at the band's blocks.
 * s_hb_below(m) = P(truncated megabytes < m), m an integer.
 */
static const double s_hbp[] = {0,	 0.087217, 0.10101,  0.132206, 0.159946, 0.201713,
			       0.262602, 0.32645,  0.366902, 0.386175, 0.436941, 0.482631,
			       0.523752, 0.56076,  0.594068, 0.624045, 0.651024, 0.675305,
			       0.697159, 0.716827, 0.734528, 0.750459, 0.764797, 0.777701,
			       0.789314, 0.799767, 0.809174, 0.81764,  1};
static const double s_hbs[] = {
    183.4511752,   1159.945628,	  1025.778015,	 2307.172362,  3064.644852,  4204.331611,
    8019.055699,   25313.90019,	  106263.1067,	 80683.52498,  179296.7222,  398437.1604,
    885415.912,	   1967590.916,	  4372424.257,	 9716498.348,  21592218.55,  47982707.89,
    106628239.8,   236951643.9,	  526559208.7,	 1170131575.0, 2600292389.0, 5778427530.0,
    12840950067.0, 28535444594.0, 63412099098.0, 1313220630.0};

static const double s_hbm[] = {0,	  16,	     32,	64,	     128,      256,
			       512,	  1024,	     2048,	4096,	     8192,     16384,
			       32768,	  65536,     131072,	262144,	     524288,   1048576,
			       2097152,	  4194304,   8388608,	16777216,    33554432, 67108864,
			       134217728, 268435456, 536870912, 1073741824.0};

static double s_hb_below(double m)
{
	int i;

	if (m <= 0)
		return 0;
	/* the segment whose megabytes reach past m (the last one's end is its slope's) */
	for (i = 0; i < 27 && m >= s_hbm[i] + (s_hbp[i + 1] - s_hbp[i]) * s_hbs[i]; i++)
		;
	return fmin(1, s_hbp[i] + (m - s_hbm[i]) / s_hbs[i]);
}

/* P(the I/O's offset in the band < t blocks of len), nblk blocks in the band */
static double s_hb_cdf(uint64_t t, uint64_t nblk, uint32_t len, bool write)
{
	uint64_t shift = write ? nblk / 100 : 0;
	double p = 0;
	int64_t k;

	/* (block + shift) mod nblk < t: block in [k nblk - shift, k nblk - shift + t) */
	for (k = 0; k < 1000000; k++) {
		int64_t lo = k * (int64_t)nblk - (int64_t)shift, hi = lo + (int64_t)t;
		double mlo, mhi;

		if (hi <= 0)
			continue;
		if (lo < 0)
			lo = 0;
		/* block = floor(mb 1000 / len) in [lo, hi): mb in [ceil(lo len / 1000), ...) */
		mlo = ceil((double)lo * len / 1000);
		mhi = ceil((double)hi * len / 1000);
		if (s_hb_below(mlo) >= 1)
			break;
		p += s_hb_below(mhi) - s_hb_below(mlo);
	}
	return p;
}

/*
 * hotband=(25,29) on a 4k randrw stream (a wd of IBM's TMS PoC files): what the generator
 * issues, reads and writes apart, matches vdbench's definition in closed form at block
 * counts from 4 blocks to the whole band within 4 standard deviations over 2M I/Os, and
 * never leaves the region
 */
static void test_hotband(void)
{
	static const uint64_t at[] = {1, 4, 16, 256, 4096, 65536, 1 << 20};
	enum { NA = sizeof(at) / sizeof(at[0]) };
	struct bc_profile *p =
	    OK("'rw':'randrw','rwmixread':65,'streams':[{'name':'h','share':1,'bs':'4k',"
	       "'random_distribution':'hotband','range':{'offset':'25%','size':'4%'}}]",
	       "");
	struct bc_sgens *sg = malloc(sizeof(*sg));
	uint64_t below[2][NA] = {{0}}, n[2] = {0}, draws = 2000000, i, nblk = 0;
	struct bc_rand rng;
	int k, o, bad = 0, outside = 0;

	if (!p || !sg)
		goto out;
	CHECK(!bc_sgens_init(sg, &p->steps[0].wl, "t", 0, 256ull << 30, 0, 1, 512, 7, s_err,
			     sizeof(s_err)));
	/* vdbench's band: the range in whole 10^6 bytes */
	nblk = (sg->g[0].end - sg->g[0].start) / 1000000 * 1000000 / 4096;
	bc_rand_seed(&rng, 4444);
	for (i = 0; i < draws; i++) {
		uint64_t off, blk;
		uint32_t len;
		uint8_t op;

		s_next(sg, &rng, &op, &len, &off);
		outside += off < sg->g[0].start || off + len > sg->g[0].end || len != 4096;
		o = op == BC_OP_WRITE;
		blk = (off - sg->g[0].start) / 4096;
		n[o]++;
		for (k = 0; k < NA; k++)
			below[o][k] += blk < at[k];
	}
	for (o = 0; o < 2; o++)
		for (k = 0; k < NA; k++) {
			double want = s_hb_cdf(at[k], nblk, 4096, o);
			double got = (double)below[o][k] / (double)n[o];

			if (fabs(got - want) > 4 * sqrt(want * (1 - want) / (double)n[o]) + 1e-9) {
				fprintf(stderr, "%s below block %llu: %.5f, want %.5f\n",
					o ? "writes" : "reads", (unsigned long long)at[k], got,
					want);
				bad++;
			}
		}
	printf("hotband: reads in the first 4 blocks %.4f (want %.4f), first 1 MiB %.4f "
	       "(want %.4f); writes in the first 1M blocks %.4f (want %.4f)\n",
	       (double)below[0][1] / (double)n[0], s_hb_cdf(4, nblk, 4096, false),
	       (double)below[0][3] / (double)n[0], s_hb_cdf(256, nblk, 4096, false),
	       (double)below[1][6] / (double)n[1], s_hb_cdf(1 << 20, nblk, 4096, true));
	CHECK_MSG(!bad, "%d of %d points off vdbench's hotband", bad, 2 * NA);
	CHECK_MSG(!outside, "%d I/Os outside the region or not 4k", outside);
out:
	free(sg);
	bc_profile_destroy(&p);
}

/* placements: a stream's own, the workload's, round-robin per job, none for reads */
static void test_placement(void)
{
	struct bc_profile *p =
	    OK("'rw':'randwrite','placement':'none','streams':[{'name':'a','share':1,"
	       "'placement':[2,5]},{'name':'b','share':1},{'name':'r','share':1,'rw':'randread'}]",
	       "");
	struct bc_sgens *sg = malloc(sizeof(*sg));
	struct bc_rand rng;
	uint64_t off;
	uint32_t len;
	uint8_t op;
	int pl;

	if (!p || !sg)
		goto out;
	CHECK(!bc_sgens_init(sg, &p->steps[0].wl, "t", 0, 1 << 20, 0, 1, 512, 1, s_err,
			     sizeof(s_err)));
	bc_rand_seed(&rng, 1);
	bc_sgen_next(&sg->g[0], &rng, &op, &len, &off, &pl);
	CHECK(pl == 2);
	bc_sgen_next(&sg->g[0], &rng, &op, &len, &off, &pl);
	CHECK(pl == 5);
	bc_sgen_next(&sg->g[0], &rng, &op, &len, &off, &pl);
	CHECK(pl == 2);
	bc_sgen_next(&sg->g[1], &rng, &op, &len, &off, &pl);
	CHECK(pl == BC_PLACEMENT_NONE);
	bc_sgen_next(&sg->g[2], &rng, &op, &len, &off, &pl);
	CHECK(op == BC_OP_READ && pl == BC_PLACEMENT_VOLUME);
out:
	free(sg);
	bc_profile_destroy(&p);
}

#define EXP_STREAMS                                                                                \
	"'rw':'randwrite','streams':[{'name':'h1','class':'hot','share':3},"                       \
	"{'name':'h2','class':'hot','share':1},{'name':'c','class':'cold','share':1},"             \
	"{'name':'m','class':'meta','share':1}]"
#define FDP4 "'fdp':{'pids':[0,1,2,3]}"

static void test_experiment(void)
{
	struct bc_experiment x;
	struct bc_workload wl;
	struct bc_profile *p;
	char buf[64];

	p = OK(EXP_STREAMS
	       ",'experiment':{'modes':['no_fdp','mixed','separated','mine'],"
	       "'placements':{'mine':{'hot':[3],'*':'none'},'separated':{'meta':[0],"
	       "'hot':[1,2],'cold':[3]}},'warmup_iterations':2,'measure_iterations':8,"
	       "'precondition':{'random_passes':2,'window':{'offset':'1g','size':'32m'}}}",
	       FDP4);
	if (p) {
		CHECK(!bc_experiment_get(&p->steps[0], &x, s_err, sizeof(s_err)));
		CHECK(x.nmodes == 4 && x.warmup == 2 && x.measure == 8 && x.pre &&
		      x.random_passes == 2 && x.win_set && x.win_offset == 1ull << 30 &&
		      x.win_length == 32ull << 20 && bc_experiment_pre_steps(&x) == 4);
		/* defaults: seed 000's directions */
		CHECK(x.nexpect == 5 && !strcmp(x.expect[0].metric, "waf"));
		bc_experiment_mode_workload(&x, 0, &p->steps[0].wl, &wl);
		CHECK(wl.streams[0].placement.kind == BC_PLACEMENT_NONE &&
		      wl.streams[3].placement.kind == BC_PLACEMENT_NONE);
		bc_experiment_mode_workload(&x, 1, &p->steps[0].wl, &wl);
		CHECK(!strcmp(bc_placement_format(&wl.streams[0].placement, buf, sizeof(buf)),
			      "[0,1,2]") &&
		      !strcmp(bc_placement_format(&wl.streams[2].placement, buf, sizeof(buf)),
			      "[1,2,0]"));
		bc_experiment_mode_workload(&x, 2, &p->steps[0].wl, &wl);
		CHECK(!strcmp(bc_placement_format(&wl.streams[1].placement, buf, sizeof(buf)),
			      "[1,2]") &&
		      !strcmp(bc_placement_format(&wl.streams[3].placement, buf, sizeof(buf)),
			      "[0]"));
		bc_experiment_mode_workload(&x, 3, &p->steps[0].wl, &wl);
		CHECK(wl.streams[0].placement.kind == 1 && wl.streams[0].placement.idx[0] == 3 &&
		      wl.streams[2].placement.kind == BC_PLACEMENT_NONE);
		CHECK(bc_experiment_seconds(&x, &p->steps[0].wl) == 4 * (4 * 3600 + 10 * 10));
	}
	bc_profile_destroy(&p);
	/* the resolved profile parses back */
	p = OK(EXP_STREAMS ",'experiment':{'modes':['separated']}", "");
	if (p) {
		cJSON *j = bc_profile_to_json(p);
		char *t = cJSON_PrintUnformatted(j);
		struct bc_profile *q = NULL;

		CHECK(t && !bc_profile_parse(t, "r.json", &q, s_err, sizeof(s_err)));
		CHECK(q && q->steps[0].experiment && q->steps[0].wl.nstreams == 4);
		bc_profile_destroy(&q);
		cJSON_free(t);
		cJSON_Delete(j);
	}
	bc_profile_destroy(&p);

	BAD("'experiment':{'modes':['no_fdp']}", "",
	    "p.json: steps[0].experiment: needs \"streams\" in the step's workload: the modes "
	    "place streams by lifetime class");
	BAD(EXP_STREAMS ",'experiment':{}", "",
	    "p.json: steps[0].experiment.modes: required key missing");
	BAD(EXP_STREAMS ",'experiment':{'modes':['x']}", "",
	    "p.json: steps[0].experiment.modes[0]: \"x\" is not a built-in mode (no_fdp, mixed, "
	    "separated): give its \"placements\"");
	BAD(EXP_STREAMS ",'experiment':{'modes':['a-mode-name-of-25-chars-x']}", "",
	    "p.json: steps[0].experiment.modes[0]: a mode name has at most 24 characters, got "
	    "\"a-mode-name-of-25-chars-x\"");
	BAD(EXP_STREAMS ",'experiment':{'modes':['mixed','mixed']}", "",
	    "p.json: steps[0].experiment.modes[1]: duplicate mode \"mixed\"");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated'],'runs':3}", "",
	    "p.json: steps[0].experiment.runs: unknown key");
	BAD(EXP_STREAMS ",'experiment':{'modes':['no_fdp'],'placements':{'no_fdp':{}}}", "",
	    "p.json: steps[0].experiment.placements.no_fdp: no_fdp writes without directives; it "
	    "has no placement");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated'],'placements':{'separated':"
			"{'warm':[1]}}}",
	    "",
	    "p.json: steps[0].experiment.placements.separated.warm: no stream has class \"warm\" "
	    "(classes: hot, cold, meta)");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated'],'placements':{'separated':"
			"{'hot':[1]}}}",
	    "",
	    "p.json: steps[0].experiment.placements.separated: class \"cold\" has no placement "
	    "(name it or give \"*\")");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated'],'placements':{'separated':"
			"{'*':'volume'}}}",
	    "",
	    "p.json: steps[0].experiment.placements.separated.*: a mode places classes itself: "
	    "give indexes or \"none\"");
	BAD(EXP_STREAMS ",'experiment':{'modes':['no_fdp','separated']}", "'fdp':{'pids':[0,1]}",
	    "p.json: steps[0].experiment.modes[1]: mode \"separated\" puts class \"meta\" on "
	    "placement index 2, but volumes[0].fdp has 2 pid(s) (list more pids, or give "
	    "\"placements\".\"separated\")");
	BAD(EXP_STREAMS ",'experiment':{'modes':['no_fdp','mixed']}", "'path':'sim'",
	    "p.json: volumes[0]: has no \"fdp\" pids, but the experiment of steps[0] places "
	    "classes on placement indexes in mode \"mixed\" (give \"fdp\": {\"pids\": [...]})");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated'],'measure_iterations':0}", "",
	    "p.json: steps[0].experiment.measure_iterations: expected an integer in 1..1000, got "
	    "0");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated'],'precondition':{'discard':false,"
			"'seq_fill':false,'random_passes':0}}",
	    "",
	    "p.json: steps[0].experiment.precondition: discard, seq_fill and random_passes are "
	    "all off: say \"precondition\": false");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated'],'precondition':{'window':'all'}}", "",
	    "p.json: steps[0].experiment.precondition.window: expected \"volume\", \"namespace\" "
	    "or "
	    "{\"offset\": ..., \"size\": ...}, got \"all\"");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated','mixed'],'expect':[{'metric':'waf',"
			"'lower':'separated','than':'no_fdp'}]}",
	    "",
	    "p.json: steps[0].experiment.expect[0].than: expected another of the experiment's "
	    "modes, got \"no_fdp\"");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated','mixed'],'expect':[{'metric':'iops',"
			"'lower':'separated','than':'mixed'}]}",
	    "",
	    "p.json: steps[0].experiment.expect[0].metric: expected one of waf, media_bytes, "
	    "host_bytes, write_p99_ms, write_p50_ms, read_p99_ms, read_p50_ms, got \"iops\"");
	BAD(EXP_STREAMS ",'sweep':{'iodepth':[1,2]},'experiment':{'modes':['separated']}", "",
	    "p.json: steps[0].experiment: a step has either a sweep or an experiment");
	BAD(EXP_STREAMS ",'experiment':{'modes':['separated']}",
	    "'workload':{'streams':[{'name':'v','share':1}]}",
	    "p.json: volumes[0].workload.streams: the experiment of steps[0] places the step's "
	    "streams: a volume cannot replace them");
}

/* a job on a file: stream "w" writes only its region, "r" only reads the rest */
static void test_job_regions(void)
{
	char path[] = "/tmp/bc-test-streams-XXXXXX", err[512];
	struct bc_profile *p =
	    OK("'rw':'randwrite','iodepth':8,'direct':false,'streams':["
	       "{'name':'w','share':1,'range':{'offset':'25%','size':'25%'}},"
	       "{'name':'r','share':1,'rw':'randread','range':{'offset':'50%'}}]",
	       "");
	struct bc_volume_spec spec = {.node = -1, .size_bytes = 4 << 20};
	struct bc_target t = {.fd = -1};
	struct jr_run r = {0};
	uint64_t w[2], off;
	int fd = -1, outside = 0, inside = 0;

	if (!p)
		return;
	fd = mkstemp(path);
	if (fd < 0) {
		bc_profile_destroy(&p);
		SKIP("cannot create a temporary file");
	}
	close(fd);
	CHECK(!bc_target_open(&t, path, &spec, &p->steps[0].wl, err, sizeof(err)));
	if (!t.ops)
		goto out;
	CHECK_MSG(!jr_run(&t, 1, &p->steps[0].wl, NULL, 1, &r, err, sizeof(err)), "%s", err);
	CHECK(r.total && r.total[0].op[BC_OP_WRITE].ios > 0 && r.total[0].op[BC_OP_READ].ios > 0);
	bc_target_close(&t);
	/* every written 4 KiB block begins with its own offset (the job's write stamp) */
	fd = open(path, O_RDONLY);
	for (off = 0; fd >= 0 && off < (4u << 20); off += 4096) {
		if (pread(fd, w, sizeof(w), (off_t)off) != sizeof(w) || w[0] != off || !w[0])
			continue;
		if (off >= (1u << 20) && off < (2u << 20))
			inside++;
		else
			outside++;
	}
	if (fd >= 0)
		close(fd);
	CHECK_MSG(inside > 0 && !outside, "%d written blocks inside, %d outside", inside, outside);
out:
	jr_free(&r);
	unlink(path);
	bc_profile_destroy(&p);
}

int main(void)
{
	test_parse();
	test_wire();
	test_selection();
	test_seq_parse();
	test_seq_mix();
	test_split_fractions();
	test_hotband();
	test_placement();
	test_experiment();
	test_job_regions();
	TEST_DONE();
}
