/*
 * engine/streamgen.c - precomputed per-job tables of a multi-stream workload
 * (engine/streamgen.h): the shares' alias table, op and size thresholds per stream,
 * the stream's region, its sequential part per job, its sequential share,
 * its distribution and its placement. Runs once per job and target at PREPARE, never on the I/O
 * path.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/streamgen.h"
#include "profile/workload/streams.h"

void bc_splace_init(struct bc_splace *p, const struct bc_placement *own,
		    const struct bc_placement *inherit)
{
	const struct bc_placement *src = own && own->kind ? own : inherit;
	unsigned i;

	memset(p, 0, sizeof(*p));
	p->kind = BC_PLACEMENT_VOLUME;
	if (!src || !src->kind)
		return;
	p->kind = src->kind;
	if (src->kind != 1)
		return;
	p->n = src->n ? src->n : 1;
	for (i = 0; i < p->n; i++)
		p->idx[i] = (int16_t)src->idx[i];
}

/* what the stream does per I/O: op thresholds and sizes */
static void s_ops_sizes(struct bc_sgen *g, const struct bc_stream *st)
{
	uint64_t r = st->rwmixread_ppm, t = st->rwmixtrim, cum = 0;
	uint32_t i;

	switch (st->rw) {
	case BC_RW_READ:
	case BC_RW_RANDREAD:
		g->op = BC_OP_READ;
		break;
	case BC_RW_WRITE:
	case BC_RW_RANDWRITE:
		g->op = BC_OP_WRITE;
		break;
	case BC_RW_TRIM:
	case BC_RW_RANDTRIM:
		g->op = BC_OP_TRIM;
		break;
	default:
		g->flags |= BC_SG_MIX;
		/* thresholds in 2^32 units, as job.c: 100% of one op never draws another */
		g->read_below = (r << 32) / BC_SPLIT_ALL; /* integers: as (pct << 32) / 100 */
		g->write_below = ((100 - t) << 32) / 100;
		g->used_op[BC_OP_READ] = r > 0;
		g->used_op[BC_OP_WRITE] = r + t * BC_SPLIT_PCT1 < BC_SPLIT_ALL;
		g->used_op[BC_OP_TRIM] = t > 0;
		break;
	}
	if (!(g->flags & BC_SG_MIX))
		g->used_op[g->op] = true;
	g->bs = st->bs;
	if (!st->nbssplit)
		return;
	g->flags |= BC_SG_SPLIT;
	g->nsplit = st->nbssplit;
	for (i = 0; i < st->nbssplit; i++) {
		cum += st->bssplit[i].ppm;
		g->split_bs[i] = st->bssplit[i].bs;
		g->split_below[i] = (uint32_t)((cum << 32) / BC_SPLIT_ALL - (cum == BC_SPLIT_ALL));
	}
}

static uint32_t s_minbs(const struct bc_stream *st)
{
	uint32_t m = st->bs, i;

	for (i = 0; i < st->nbssplit; i++)
		if (st->bssplit[i].bs < m)
			m = st->bssplit[i].bs;
	return m;
}

/* mean bytes per I/O of a stream (for "stream_share": "bytes") */
static double s_mean_bytes(const struct bc_stream *st)
{
	double m = 0;
	uint32_t i;

	if (!st->nbssplit)
		return st->bs;
	for (i = 0; i < st->nbssplit; i++)
		m += (double)st->bssplit[i].bs * st->bssplit[i].ppm / BC_SPLIT_ALL;
	return m;
}

static int s_one(struct bc_sgen *g, const struct bc_stream *st, const struct bc_workload *wl,
		 const char *path, uint64_t win_start, uint64_t win_end, unsigned job_index,
		 unsigned numjobs, uint32_t lbs, uint64_t seed, char *err, size_t errlen)
{
	char msg[384];
	uint64_t nblocks, lo, hi, len;
	uint32_t i;
	int ret;

	memset(g, 0, sizeof(*g));
	s_ops_sizes(g, st);
	g->align = st->blockalign ? st->blockalign : s_minbs(st);
	if (lbs && wl->direct) {
		for (i = 0; i < st->nbssplit; i++)
			if (st->bssplit[i].bs % lbs)
				goto unaligned;
		if (st->bs % lbs || g->align % lbs)
			goto unaligned;
	}
	ret =
	    bc_stream_range(st, win_start, win_end, g->align, &g->start, &g->end, msg, sizeof(msg));
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return ret;
	}
	len = g->end - g->start;
	nblocks = len / st->bs;
	lo = nblocks * job_index / numjobs;
	hi = nblocks * (job_index + 1) / numjobs;
	if (!bc_rw_random(st->rw) && hi == lo) {
		snprintf(err, errlen,
			 "%s: stream \"%s\": its region holds %llu blocks of %u bytes, too few for "
			 "%u sequential jobs",
			 path, st->name, (unsigned long long)nblocks, st->bs, numjobs);
		return -EINVAL;
	}
	g->seq_start = g->start + lo * st->bs;
	g->seq_end = g->start + hi * st->bs;
	g->seq_next = g->seq_start;
	if (bc_rw_random(st->rw)) {
		g->flags |= BC_SG_RANDOM;
		/* a sequential share: each job's runs start in its own part of the region */
		bc_seqmix_init(&g->sm, st->seq_pct, g->seq_start);
		if (st->seq_pct)
			g->flags |= BC_SG_SEQMIX;
		/* every unit leaves room for the stream's largest I/O */
		g->nunits = (len - st->bs) / g->align + 1;
		if (st->dist.kind != BC_DIST_UNIFORM) {
			g->flags |= BC_SG_DIST;
			if (bc_dist_init(&g->dist, &st->dist, g->nunits,
					 seed ^ (g->start << 1) ^ (g->end << 3))) {
				snprintf(err, errlen,
					 "%s: stream \"%s\": random_distribution: a zone with I/Os "
					 "gets no block of the %llu in its region",
					 path, st->name, (unsigned long long)g->nunits);
				return -EINVAL;
			}
			if (st->dist.kind == BC_DIST_HOTBAND &&
			    bc_dist_hotband_init(&g->dist, len, st->bs)) {
				snprintf(
				    err, errlen,
				    "%s: stream \"%s\": random_distribution hotband: its region "
				    "of %llu bytes is less than vdbench's minimum band of 10^6 "
				    "bytes or than bs %u",
				    path, st->name, (unsigned long long)len, st->bs);
				return -EINVAL;
			}
		}
	}
	bc_splace_init(&g->place, &st->placement, &wl->placement);
	return 0;
unaligned:
	snprintf(err, errlen,
		 "%s: stream \"%s\": block sizes and blockalign must be multiples of the logical "
		 "block size %u that O_DIRECT requires",
		 path, st->name, lbs);
	return -EINVAL;
}

/*
 * The alias table of weights w (Vose's form of Walker's method): each column
 * holds a stream's weight up to 1/n and, above it, another stream's surplus
 */
static void s_alias(struct bc_sgens *s, const double *w, double sum)
{
	double p[BC_STREAMS_MAX];
	uint8_t small[BC_STREAMS_MAX], large[BC_STREAMS_MAX];
	unsigned ns = 0, nl = 0, i;

	for (i = 0; i < s->n; i++) {
		p[i] = w[i] * s->n / sum;
		s->keep[i] = UINT32_MAX; /* a full column: its alias is itself */
		s->alias[i] = (uint8_t)i;
		if (p[i] < 1.0)
			small[ns++] = (uint8_t)i;
		else
			large[nl++] = (uint8_t)i;
	}
	while (ns && nl) {
		uint8_t lo = small[--ns], hi = large[--nl];

		s->keep[lo] = (uint32_t)(p[lo] * 4294967296.0);
		s->alias[lo] = hi;
		p[hi] -= 1.0 - p[lo];
		if (p[hi] < 1.0)
			small[ns++] = hi;
		else
			large[nl++] = hi;
	}
}

int bc_sgens_init(struct bc_sgens *s, const struct bc_workload *wl, const char *path,
		  uint64_t win_start, uint64_t win_end, unsigned job_index, unsigned numjobs,
		  uint32_t lbs, uint64_t seed, char *err, size_t errlen)
{
	double w[BC_STREAMS_MAX], sum = 0;
	uint32_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!wl->nstreams || wl->nstreams > BC_STREAMS_MAX || !numjobs) {
		snprintf(err, errlen, "%s: no streams to set up", path);
		return -EINVAL;
	}
	s->n = wl->nstreams;
	for (i = 0; i < s->n; i++) {
		const struct bc_stream *st = &wl->streams[i];
		uint32_t j, big = st->bs;

		ret = s_one(&s->g[i], st, wl, path, win_start, win_end, job_index, numjobs, lbs,
			    seed, err, errlen);
		if (ret)
			return ret;
		for (j = 0; j < st->nbssplit; j++)
			big = st->bssplit[j].bs > big ? st->bssplit[j].bs : big;
		s->maxbs = big > s->maxbs ? big : s->maxbs;
		/* a share of bytes is a share of I/Os divided by the mean I/O size */
		w[i] = wl->share_bytes ? st->share / s_mean_bytes(st) : st->share;
		sum += w[i];
	}
	s_alias(s, w, sum);
	return 0;
}
