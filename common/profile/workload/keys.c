/*
 * profile/workload/keys.c - the table of workload keys (profile/workload/keys.h) and the value
 * parsers and writers its types name: block-size splits, distributions,
 * CPU lists, thinktime and placement beside the plain integers, sizes,
 * durations and choices. The profile parser and the strict PREPARE reader
 * go through here, so a key means the same in a profile file and on the
 * wire. Semantics of every key: docs/engine.md.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/value/units.h"
#include "profile/workload/keys.h"

/* a thinktime beyond an hour is a mistyped unit, not a workload */
#define S_THINK_MAX_US (3600ull * 1000 * 1000)
/* CPU_SETSIZE of glibc: the largest CPU number a cpu_set_t holds, plus one */
#define S_CPU_MAX 1024
/*
 * bs is 32-bit in the wire form and every in-flight I/O owns a bs buffer
 * (iodepth x numjobs of them); the block layer splits anything this large.
 */
#define S_BS_MAX (1u << 30)
/* a rate above this is a typo (and keeps rate arithmetic far from overflow) */
#define S_RATE_IOPS_MAX 1000000000ull

#define S_FIELD(f) offsetof(struct bc_workload, f), sizeof(((struct bc_workload *)0)->f)

static const char *const s_policy[] = {"shared", "split", NULL};
static const char *const s_share[] = {"ios", "bytes", NULL};
static const char *const s_process[] = {"linear", "poisson", NULL};
static const char *const s_latfrom[] = {"submit", "intended", NULL};
static const char *const s_regions[] = {"split", "shared", NULL};
static const char *const s_wsync[] = {"none", "sync", "dsync", NULL};
static const char *const s_fileselect[] = {"sequential", "random", "poisson", NULL};
static const char *const s_fsformat[] = {"restart", "fresh", "none", NULL};
/* enum bc_meta_kind's order */
static const char *const s_meta[] = {"none",	"create", "delete",	  "getattr",
				     "setattr", "access", "open",	  "close",
				     "mkdir",	"rmdir",  "create_write", NULL};
/* Linux's IOPRIO_CLASS_* in order (none: 0); cmdprio's from rt, fio's default */
static const char *const s_prioclass[] = {"none", "rt", "be", "idle", NULL};
static const char *const s_cmdclass[] = {"rt", "be", "idle", NULL};
/* enum bc_submit_mode in order */
static const char *const s_submit[] = {"auto", "batch", "pairs", "each", NULL};

_Static_assert(sizeof(enum bc_rw) == sizeof(uint32_t), "rw is stored as a 32-bit index");

#define S_V  BC_WK_VOLUME
#define S_S  BC_WK_STREAM
#define S_SW BC_WK_SWEEP
#define S_W  BC_WK_WIRE
#define S_NZ BC_WK_NZ

/* clang-format off */
const struct bc_wl_key bc_wl_keys[] = {
    {"rw", BC_WT_CHOICE, S_V | S_S | S_SW | S_W, 0, 0, bc_rw_names, S_FIELD(rw)},
    {"rwmixread", BC_WT_PCT, S_V | S_S | S_SW | S_W, 0, 100, NULL, S_FIELD(rwmixread_ppm)},
    {"bs", BC_WT_BS, S_V | S_S | S_SW | S_W, 0, 0, NULL, S_FIELD(bs)},
    {"iodepth", BC_WT_COUNT, S_V | S_SW | S_W, 1, 65536, NULL, S_FIELD(iodepth)},
    {"numjobs", BC_WT_COUNT, S_SW | S_W, 1, 1024, NULL, S_FIELD(numjobs)},
    {"direct", BC_WT_BOOL, S_V | S_W, 0, 0, NULL, S_FIELD(direct)},
    {"ramp", BC_WT_DURATION, BC_WK_POINT | S_W, 0, 0, NULL, S_FIELD(ramp_s)},
    {"runtime", BC_WT_DURATION, BC_WK_POINT | S_W, 1, 0, NULL, S_FIELD(runtime_s)},
    {"rwmixtrim", BC_WT_INT, S_V | S_S, 0, 100, NULL, S_FIELD(rwmixtrim)},
    {"blockalign", BC_WT_SIZE, S_V | S_S, 0, S_BS_MAX, NULL, S_FIELD(blockalign)},
    {"random_distribution", BC_WT_DIST, S_V | S_S, 0, 0, NULL, S_FIELD(dist)},
    {"iodepth_batch_submit", BC_WT_INT, BC_WK_ZERO1, 1, 65536, NULL, S_FIELD(batch_submit)},
    {"iodepth_batch_complete", BC_WT_INT, BC_WK_ZERO1, 1, 65536, NULL, S_FIELD(batch_complete)},
    {"cpus_allowed", BC_WT_CPUS, 0, 0, 0, NULL, S_FIELD(cpus_allowed)},
    {"cpus_allowed_policy", BC_WT_CHOICE, 0, 0, 0, s_policy, S_FIELD(cpus_split)},
    {"rate_iops", BC_WT_INT, S_V, 0, (double)S_RATE_IOPS_MAX, NULL, S_FIELD(rate_iops)},
    {"rate_bw", BC_WT_SIZE, S_V, 0, 0, NULL, S_FIELD(rate_bw)},
    {"size_based", BC_WT_BOOL, S_V, 0, 0, NULL, S_FIELD(size_based)},
    {"io_size", BC_WT_SIZE, S_V, 0, 0, NULL, S_FIELD(io_size)},
    {"passes", BC_WT_INT, S_V | S_NZ, 1, 1000000, NULL, S_FIELD(passes)},
    {"thinktime", BC_WT_THINKTIME, S_V, 0, (double)S_THINK_MAX_US, NULL, S_FIELD(thinktime_us)},
    {"verify", BC_WT_BOOL, S_V, 0, 0, NULL, S_FIELD(verify)},
    {"sqpoll", BC_WT_BOOL, 0, 0, 0, NULL, S_FIELD(sqpoll)},
    {"sqpoll_cpu", BC_WT_INT, 0, -1, S_CPU_MAX - 1, NULL, S_FIELD(sqpoll_cpu)},
    {"hipri", BC_WT_BOOL, 0, 0, 0, NULL, S_FIELD(hipri)},
    {"rate_iops_read", BC_WT_INT, S_V | S_NZ, 0, (double)S_RATE_IOPS_MAX, NULL, S_FIELD(rate_iops_dir[0])},
    {"rate_iops_write", BC_WT_INT, S_V | S_NZ, 0, (double)S_RATE_IOPS_MAX, NULL, S_FIELD(rate_iops_dir[1])},
    {"rate_bw_read", BC_WT_SIZE, S_V | S_NZ, 0, 0, NULL, S_FIELD(rate_bw_dir[0])},
    {"rate_bw_write", BC_WT_SIZE, S_V | S_NZ, 0, 0, NULL, S_FIELD(rate_bw_dir[1])},
    {"rate_process", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_process, S_FIELD(rate_poisson)},
    {"latency_from", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_latfrom, S_FIELD(lat_intended)},
    {"start_delay", BC_WT_DURATION, S_V | S_NZ, 0, 0, NULL, S_FIELD(start_delay_s)},
    {"jobs", BC_WT_INT, S_V | S_NZ, 0, 1024, NULL, S_FIELD(jobs)},
    {"seq_pct", BC_WT_INT, S_V | S_S | S_NZ, 0, 100, NULL, S_FIELD(seq_pct)},
    {"window_offset", BC_WT_POS, S_V | S_NZ, 0, 0, NULL, S_FIELD(window_offset)},
    {"window_length", BC_WT_POS, S_V | S_NZ, 0, 0, NULL, S_FIELD(window_length)},
    {"compress_pct", BC_WT_INT, S_V | S_NZ, 0, 100, NULL, S_FIELD(compress_pct)},
    {"compress_chunk", BC_WT_SIZE, S_V | S_NZ, 0, S_BS_MAX, NULL, S_FIELD(compress_chunk)},
    {"dedupe_pct", BC_WT_INT, S_V | S_NZ, 0, 100, NULL, S_FIELD(dedupe_pct)},
    {"dedupe_unit", BC_WT_SIZE, S_V | S_NZ, 0, S_BS_MAX, NULL, S_FIELD(dedupe_unit)},
    {"dedupe_sets", BC_WT_INT, S_V | S_NZ, 0, 1u << 30, NULL, S_FIELD(dedupe_sets)},
    {"seq_regions", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_regions, S_FIELD(seq_shared)},
    {"until_stopped", BC_WT_BOOL, S_NZ, 0, 0, NULL, S_FIELD(until_stopped)},
    {"stop_bytes", BC_WT_SIZE, S_NZ, 0, 0, NULL, S_FIELD(stop_bytes)},
    {"stop_window_pct", BC_WT_INT, S_NZ, 1, 10000, NULL, S_FIELD(stop_window_pct)},
    {"stop_steady", BC_WT_STEADY, S_NZ, 0, 0, NULL, S_FIELD(steady)},
    {"seq_gap", BC_WT_SIZE, S_V | S_NZ, 0, 0, NULL, S_FIELD(seq_gap)},
    {"seq_run", BC_WT_INT, S_V | S_NZ, 0, 1u << 30, NULL, S_FIELD(seq_run)},
    {"zone_size", BC_WT_SIZE, S_V | S_NZ, 0, 0, NULL, S_FIELD(zone_size)},
    {"zone_range", BC_WT_SIZE, S_V | S_NZ, 0, 0, NULL, S_FIELD(zone_range)},
    {"zone_skip", BC_WT_SIZE, S_V | S_NZ, 0, 0, NULL, S_FIELD(zone_skip)},
    {"flow", BC_WT_INT, S_V | S_NZ, 0, 1u << 20, NULL, S_FIELD(flow)},
    {"iodepth_low", BC_WT_INT, S_V | S_NZ, 0, 65536, NULL, S_FIELD(iodepth_low)},
    {"write_sync", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_wsync, S_FIELD(write_sync)},
    {"fsync", BC_WT_INT, S_V | S_NZ, 0, 1u << 30, NULL, S_FIELD(fsync_every)},
    {"fdatasync", BC_WT_INT, S_V | S_NZ, 0, 1u << 30, NULL, S_FIELD(fdatasync_every)},
    {"end_fsync", BC_WT_BOOL, S_V | S_NZ, 0, 0, NULL, S_FIELD(end_fsync)},
    {"verify_backlog", BC_WT_INT, S_V | S_NZ, 0, 1u << 20, NULL, S_FIELD(verify_backlog)},
    {"buffer_pattern", BC_WT_PATTERN, S_V | S_NZ, 0, 0, NULL, S_FIELD(pattern)},
    {"scramble", BC_WT_BOOL, S_V | S_NZ, 0, 0, NULL, S_FIELD(scramble)},
    {"ioprio_class", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_prioclass, S_FIELD(ioprio_class)},
    {"ioprio", BC_WT_INT, S_V | S_NZ, 0, 7, NULL, S_FIELD(ioprio)},
    {"cmdprio_pct", BC_WT_INT, S_V | S_NZ, 0, 100, NULL, S_FIELD(cmdprio_pct)},
    {"cmdprio_class", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_cmdclass, S_FIELD(cmdprio_class)},
    {"cmdprio", BC_WT_INT, S_V | S_NZ, 0, 7, NULL, S_FIELD(cmdprio)},
    {"nowait", BC_WT_BOOL, S_V | S_NZ, 0, 0, NULL, S_FIELD(nowait)},
    {"force_async", BC_WT_INT, S_V | S_NZ, 0, 1u << 30, NULL, S_FIELD(force_async)},
    {"submit_mode", BC_WT_CHOICE, S_NZ, 0, 0, s_submit, S_FIELD(submit_mode)},
    {"nice", BC_WT_INT, S_NZ, -20, 19, NULL, S_FIELD(nice)},
    /* a volume with a "fileset" (profile/volume/fileset.h) */
    {"fileselect", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_fileselect, S_FIELD(fileselect)},
    {"fileselect_midpoint", BC_WT_INT, S_V | S_NZ, 0, 1000000, NULL, S_FIELD(fileselect_midpoint)},
    {"file_shared", BC_WT_BOOL, S_V | S_NZ, 0, 0, NULL, S_FIELD(file_shared)},
    {"fileset_format", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_fsformat, S_FIELD(fileset_format)},
    {"file_stopafter", BC_WT_POS, S_V | S_NZ, 0, 0, NULL, S_FIELD(file_stopafter)},
    {"meta", BC_WT_CHOICE, S_V | S_NZ, 0, 0, s_meta, S_FIELD(meta)},
    /*
     * profile/workload/streams.h; "streams" after the keys its streams inherit, "kv" after
     * the streams it makes a KV-cache store of
     */
    {"placement", BC_WT_PLACEMENT, S_V | S_S, 0, 0, NULL, S_FIELD(placement)},
    {"stream_share", BC_WT_CHOICE, S_V | BC_WK_STREAMS, 0, 0, s_share, S_FIELD(share_bytes)},
    {"streams", BC_WT_STREAMS, S_V | BC_WK_STREAMS, 0, 0, NULL, S_FIELD(streams)},
    {"kv", BC_WT_KV, BC_WK_STREAMS, 0, 0, NULL, S_FIELD(kv)},
};
/* clang-format on */

const int bc_wl_nkeys = (int)(sizeof(bc_wl_keys) / sizeof(bc_wl_keys[0]));

/* an override's given keys are a mask (struct bc_wl_override) */
_Static_assert(sizeof(bc_wl_keys) / sizeof(bc_wl_keys[0]) <= 8 * sizeof(bc_wl_keyset),
	       "more keys than mask bits");

const struct bc_wl_key *bc_wl_key_find(const char *name)
{
	int i;

	for (i = 0; i < bc_wl_nkeys; i++)
		if (!strcmp(bc_wl_keys[i].name, name))
			return &bc_wl_keys[i];
	return NULL;
}

/* an integer field of any of the widths the table uses */
static int64_t s_get(const struct bc_wl_key *k, const struct bc_workload *wl)
{
	const char *f = (const char *)wl + k->off;
	uint32_t u32;
	int32_t i32;
	uint64_t u64;
	bool b;

	switch (k->size) {
	case sizeof(bool):
		memcpy(&b, f, sizeof(b));
		return b;
	case sizeof(uint32_t):
		if (k->lo < 0) {
			memcpy(&i32, f, sizeof(i32));
			return i32;
		}
		memcpy(&u32, f, sizeof(u32));
		return u32;
	default:
		memcpy(&u64, f, sizeof(u64));
		return (int64_t)u64;
	}
}

static void s_set(const struct bc_wl_key *k, struct bc_workload *wl, int64_t v)
{
	char *f = (char *)wl + k->off;
	uint32_t u32 = (uint32_t)v;
	int32_t i32 = (int32_t)v;
	uint64_t u64 = (uint64_t)v;
	bool b = v != 0;

	if (k->size == sizeof(bool))
		memcpy(f, &b, sizeof(b));
	else if (k->size == sizeof(uint32_t) && k->lo < 0)
		memcpy(f, &i32, sizeof(i32));
	else if (k->size == sizeof(uint32_t))
		memcpy(f, &u32, sizeof(u32));
	else
		memcpy(f, &u64, sizeof(u64));
}

/* a finite decimal number filling all of s */
static int s_number(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*out = strtod(s, &end);
	return *end || !isfinite(*out) ? -EINVAL : 0;
}

/* a decimal integer 0..max filling [s, end) */
static int s_uint_span(const char *s, const char *end, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -ERANGE;
	}
	*out = (uint32_t)v;
	return 0;
}

/*
 * A percent with at most four decimals filling [s, end) ("41.05") into
 * millionths (410500): a split's shares are held exactly
 */
static int s_split_pct(const char *s, const char *end, uint32_t *ppm)
{
	const char *dot = memchr(s, '.', (size_t)(end - s));
	uint32_t whole, frac = 0, scale = BC_SPLIT_PCT1;

	if (s_uint_span(s, dot ? dot : end, 100, &whole))
		return -EINVAL;
	if (dot) {
		if (dot + 1 == end || end - dot - 1 > 4)
			return -EINVAL;
		for (s = dot + 1; s < end; s++) {
			if (*s < '0' || *s > '9')
				return -EINVAL;
			scale /= 10;
			frac += (uint32_t)(*s - '0') * scale;
		}
	}
	*ppm = whole * BC_SPLIT_PCT1 + frac;
	return *ppm > BC_SPLIT_ALL ? -ERANGE : 0;
}

/*
 * "4k/50:64k/30:1m" - size/percent entries, a percent with up to four
 * decimals ("4k/4.5:8k/95.5"); entries without a percent share what the
 * others leave evenly (fio's bssplit rule), the first of them takes the
 * rounding remainder. One entry is plain bs.
 */
static int s_bssplit(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN], item[64];
	const char *p = v->valuestring, *colon, *slash;
	uint32_t n = 0, sum = 0, open = 0, i, max = 0, share, first_open = UINT32_MAX;
	bool has_pct[BC_BSSPLIT_MAX];
	struct bc_bssplit sp[BC_BSSPLIT_MAX];
	uint64_t bytes;
	size_t ilen;

	while (*p) {
		colon = strchr(p, ':');
		ilen = colon ? (size_t)(colon - p) : strlen(p);
		if (n == BC_BSSPLIT_MAX)
			return bc_check_fail(c, path, "at most %d block sizes in a split, got %s",
					     BC_BSSPLIT_MAX, bc_check_show(v, shown));
		if (!ilen || ilen >= sizeof(item))
			goto bad;
		memcpy(item, p, ilen);
		item[ilen] = '\0';
		slash = strchr(item, '/');
		has_pct[n] = slash != NULL;
		sp[n].ppm = 0;
		if (slash) {
			if (s_split_pct(slash + 1, item + ilen, &sp[n].ppm))
				goto bad;
			item[slash - item] = '\0';
		}
		if (bc_parse_size(item, &bytes) || !bytes || bytes % BC_SECTOR || bytes > S_BS_MAX)
			return bc_check_fail(
			    c, path, "block size \"%s\" must be a multiple of 512 in 512..1g",
			    item);
		sp[n].bs = (uint32_t)bytes;
		if (has_pct[n])
			sum += sp[n].ppm;
		else if (!open++)
			first_open = n;
		n++;
		p = colon ? colon + 1 : p + ilen;
		if (colon && !*p)
			goto bad;
	}
	if (!n)
		goto bad;
	if (sum > BC_SPLIT_ALL || (!open && sum != BC_SPLIT_ALL) ||
	    (open && sum == BC_SPLIT_ALL && n > 1))
		return bc_check_fail(c, path, "percentages must add up to 100, got %s",
				     bc_check_show(v, shown));
	/* fio's even share of whole percents; the first open entry takes the remainder */
	share = open ? (BC_SPLIT_ALL - sum) / BC_SPLIT_PCT1 / open * BC_SPLIT_PCT1 : 0;
	for (i = 0; i < n; i++) {
		if (!has_pct[i])
			sp[i].ppm =
			    share + (i == first_open ? BC_SPLIT_ALL - sum - share * open : 0);
		if (sp[i].bs > max)
			max = sp[i].bs;
	}
	wl->bs = max;
	wl->nbssplit = 0;
	for (i = 0; i < n; i++)
		if (sp[i].ppm)
			wl->bssplit[wl->nbssplit++] = sp[i];
	/* one size is not a split */
	if (wl->nbssplit == 1) {
		wl->bs = wl->bssplit[0].bs;
		wl->nbssplit = 0;
	}
	return 0;
bad:
	return bc_check_fail(
	    c, path,
	    "expected a size or a split such as \"4k/50:64k/50\" (percents with up "
	    "to 4 decimals), got %s",
	    bc_check_show(v, shown));
}

/* "zoned:90/10:5/30": access%/range% pairs in window order, remainder implied */
static int s_zones(struct bc_check *c, const char *path, const cJSON *v, const char *p,
		   struct bc_dist_spec *d)
{
	char shown[BC_CHECK_SHOW_LEN];
	uint32_t sa = 0, sr = 0;
	const char *colon, *slash, *end;

	d->nzones = 0;
	while (*p) {
		colon = strchr(p, ':');
		end = colon ? colon : p + strlen(p);
		slash = memchr(p, '/', (size_t)(end - p));
		if (!slash || d->nzones == BC_ZONES_MAX - 1 ||
		    s_uint_span(p, slash, 100, &d->zones[d->nzones].access_pct) ||
		    s_uint_span(slash + 1, end, 100, &d->zones[d->nzones].range_pct) ||
		    !d->zones[d->nzones].range_pct)
			goto bad;
		sa += d->zones[d->nzones].access_pct;
		sr += d->zones[d->nzones].range_pct;
		d->nzones++;
		p = colon ? colon + 1 : end;
		if (colon && !*p)
			goto bad;
	}
	if (!d->nzones || sa > 100 || sr > 100)
		goto bad;
	if (sr < 100) {
		/* the rest of the window takes the rest of the I/Os (possibly none) */
		d->zones[d->nzones++] = (struct bc_zone){100 - sa, 100 - sr};
	} else if (sa < 100) {
		return bc_check_fail(c, path,
				     "the zones cover the whole window but only %u%% of the I/Os, "
				     "got %s",
				     sa, bc_check_show(v, shown));
	}
	return 0;
bad:
	return bc_check_fail(c, path,
			     "expected zoned:ACCESS/RANGE[:ACCESS/RANGE...] with integer "
			     "percentages (at most 100 each column, ranges > 0), got %s",
			     bc_check_show(v, shown));
}

static int s_distribution(struct bc_check *c, const char *path, const cJSON *v,
			  struct bc_workload *wl)
{
	static const struct {
		const char *name;
		enum bc_dist_kind kind;
		double lo, hi; /* open interval for the parameter */
		const char *what;
	} kinds[] = {
	    {"zipf", BC_DIST_ZIPF, 0, 100.0000001, "theta in (0, 100]"},
	    {"pareto", BC_DIST_PARETO, 0, 1, "h in (0, 1)"},
	    {"normal", BC_DIST_NORMAL, 0, 100.0000001, "sigma in (0, 100] percent of the window"},
	};
	char shown[BC_CHECK_SHOW_LEN];
	struct bc_dist_spec d = {0};
	const char *s, *colon;
	size_t i, nlen;

	if (!cJSON_IsString(v))
		goto bad;
	s = v->valuestring;
	if (!strcmp(s, "uniform") || !strcmp(s, "random")) {
		wl->dist = d;
		return 0;
	}
	if (!strcmp(s, "hotband")) {
		d.kind = BC_DIST_HOTBAND;
		wl->dist = d;
		return 0;
	}
	colon = strchr(s, ':');
	if (!colon)
		goto bad;
	nlen = (size_t)(colon - s);
	if (nlen == 5 && !strncmp(s, "zoned", 5)) {
		d.kind = BC_DIST_ZONED;
		if (s_zones(c, path, v, colon + 1, &d))
			return -EINVAL;
		wl->dist = d;
		return 0;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) != nlen || strncmp(s, kinds[i].name, nlen))
			continue;
		d.kind = kinds[i].kind;
		if (s_number(colon + 1, &d.param) || d.param <= kinds[i].lo ||
		    d.param >= kinds[i].hi)
			return bc_check_fail(c, path, "%s needs %s, got %s", kinds[i].name,
					     kinds[i].what, bc_check_show(v, shown));
		wl->dist = d;
		return 0;
	}
bad:
	return bc_check_fail(c, path,
			     "expected uniform, zipf:THETA, pareto:H, normal:SIGMA%%, "
			     "zoned:ACCESS/RANGE[:...] or hotband, got %s",
			     bc_check_show(v, shown));
}

/* "0-3,8,10-11" (every CPU < 1024) or "numa"; "" clears */
static int s_cpus(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];
	const char *p, *end, *dash, *comma;
	uint32_t lo, hi;

	if (!cJSON_IsString(v) || strlen(v->valuestring) >= BC_CPUS_MAX)
		goto bad;
	p = v->valuestring;
	/* "numa:0,1": the CPUs of those NUMA nodes, read from sysfs at the agent */
	if (!strncmp(p, "numa:", 5) && !*(p += 5))
		goto bad;
	if (*p && strcmp(p, "numa")) {
		while (*p) {
			comma = strchr(p, ',');
			end = comma ? comma : p + strlen(p);
			dash = memchr(p, '-', (size_t)(end - p));
			if (s_uint_span(p, dash ? dash : end, S_CPU_MAX - 1, &lo))
				goto bad;
			hi = lo;
			if (dash && (s_uint_span(dash + 1, end, S_CPU_MAX - 1, &hi) || hi < lo))
				goto bad;
			p = comma ? comma + 1 : end;
			if (comma && !*p)
				goto bad;
		}
	}
	snprintf(wl->cpus_allowed, sizeof(wl->cpus_allowed), "%s", v->valuestring);
	return 0;
bad:
	return bc_check_fail(
	    c, path,
	    "expected \"numa\", \"numa:\" and a NUMA node list, or a CPU list such "
	    "as \"0-3,8\" (CPUs below %d), got %s",
	    S_CPU_MAX, bc_check_show(v, shown));
}

/* "250us", "2ms", "1s", or integer microseconds */
static int s_thinktime(struct bc_check *c, const char *path, const cJSON *v, uint64_t *us)
{
	char shown[BC_CHECK_SHOW_LEN];
	const char *s, *p;
	uint64_t n = 0, mult;

	if (cJSON_IsNumber(v)) {
		if (v->valuedouble < 0 || v->valuedouble > (double)S_THINK_MAX_US ||
		    (double)(uint64_t)v->valuedouble != v->valuedouble)
			goto bad;
		*us = (uint64_t)v->valuedouble;
		return 0;
	}
	if (!cJSON_IsString(v) || c->strict)
		goto bad;
	s = p = v->valuestring;
	for (; *p >= '0' && *p <= '9' && n <= S_THINK_MAX_US; p++)
		n = n * 10 + (uint64_t)(*p - '0');
	if (p == s)
		goto bad;
	if (!strcmp(p, "us") || !*p)
		mult = 1;
	else if (!strcmp(p, "ms"))
		mult = 1000;
	else if (!strcmp(p, "s"))
		mult = 1000000;
	else
		goto bad;
	if (n > S_THINK_MAX_US / mult)
		goto bad;
	*us = n * mult;
	return 0;
bad:
	return bc_check_fail(c, path,
			     c->strict
				 ? "expected integer microseconds up to 1h, got %s"
				 : "expected a duration such as \"100us\", \"2ms\" or integer "
				   "microseconds, up to 1h, got %s",
			     bc_check_show(v, shown));
}

int bc_check_pos(struct bc_check *c, const char *path, const cJSON *v, struct bc_stream_pos *p)
{
	char shown[BC_CHECK_SHOW_LEN], *end;
	size_t n;
	double d;

	memset(p, 0, sizeof(*p));
	if (cJSON_IsString(v) && (n = strlen(v->valuestring)) && v->valuestring[n - 1] == '%') {
		d = strtod(v->valuestring, &end);
		if (end != v->valuestring + n - 1 || end == v->valuestring || !isfinite(d) ||
		    d < 0 || d > 100 || isspace((unsigned char)v->valuestring[0]))
			return bc_check_fail(c, path,
					     "expected a percentage of the window in 0%%..100%%, "
					     "got %s",
					     bc_check_show(v, shown));
		p->pct = true;
		p->pct_val = d;
		return 0;
	}
	/* the wire form keeps "N%" as text; sizes are integers there */
	return bc_check_size(c, path, v, &p->bytes);
}

cJSON *bc_pos_to_json(const struct bc_stream_pos *p)
{
	char buf[48];
	size_t n;

	if (!p->pct)
		return cJSON_CreateNumber((double)p->bytes);
	/* plain decimals ("12.5%", never "1.25e+01%"); exact when they read back the same */
	snprintf(buf, sizeof(buf), "%.10f", p->pct_val);
	n = strlen(buf);
	while (n > 1 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 1 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (strtod(buf, NULL) != p->pct_val)
		snprintf(buf, sizeof(buf), "%.17g", p->pct_val);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%%");
	return cJSON_CreateString(buf);
}

/* "volume", "none" or [idx, ...] with 1..16 indexes 0..15 */
int bc_check_placement(struct bc_check *c, const char *path, const cJSON *v, struct bc_placement *p)
{
	char shown[BC_CHECK_SHOW_LEN];
	const cJSON *it;
	int n = 0;

	memset(p, 0, sizeof(*p));
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "volume")) {
		p->kind = BC_PLACEMENT_VOLUME;
		return 0;
	}
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "none")) {
		p->kind = BC_PLACEMENT_NONE;
		return 0;
	}
	if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v) || cJSON_GetArraySize(v) > BC_FDP_PIDS_MAX)
		goto bad;
	cJSON_ArrayForEach(it, v)
	{
		if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
		    it->valuedouble >= BC_FDP_PIDS_MAX || it->valuedouble != floor(it->valuedouble))
			goto bad;
		p->idx[n++] = (uint16_t)it->valuedouble;
	}
	p->kind = 1;
	p->n = (uint8_t)n;
	return 0;
bad:
	return bc_check_fail(c, path,
			     "expected \"volume\", \"none\" or a list of 1 to %d indexes into the "
			     "volume's fdp pids (0..%d), got %s",
			     BC_FDP_PIDS_MAX, BC_FDP_PIDS_MAX - 1, bc_check_show(v, shown));
}

/* one of k->choices: "expected "a" or "b"" for two, "expected one of a, b, c" for more */
static int s_choice(struct bc_check *c, const struct bc_wl_key *k, const cJSON *v, const char *path,
		    struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN], list[160] = "";
	size_t used;
	int i;

	for (i = 0; k->choices[i] && cJSON_IsString(v); i++) {
		if (!strcmp(v->valuestring, k->choices[i])) {
			s_set(k, wl, i);
			return 0;
		}
	}
	if (k->choices[0] && k->choices[1] && !k->choices[2])
		return bc_check_fail(c, path, "expected \"%s\" or \"%s\", got %s", k->choices[0],
				     k->choices[1], bc_check_show(v, shown));
	for (i = 0; k->choices[i]; i++) {
		used = strlen(list);
		snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", k->choices[i]);
	}
	return bc_check_fail(c, path, "expected one of %s, got %s", list, bc_check_show(v, shown));
}

/* "4k-512k": sizes drawn from the range as fio's bsrange does (engine/job.c) */
static int s_bsrange(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN], lo[32];
	const char *dash = strchr(v->valuestring, '-');
	uint64_t a, b;

	if ((size_t)(dash - v->valuestring) >= sizeof(lo))
		goto bad;
	memcpy(lo, v->valuestring, (size_t)(dash - v->valuestring));
	lo[dash - v->valuestring] = '\0';
	if (bc_parse_size(lo, &a) || bc_parse_size(dash + 1, &b))
		goto bad;
	if (!a || a % BC_SECTOR || b % BC_SECTOR || b > S_BS_MAX || a >= b)
		return bc_check_fail(c, path,
				     "a range of block sizes needs multiples of 512 with the "
				     "smaller first, up to 1g, got %s",
				     bc_check_show(v, shown));
	wl->bs_min = (uint32_t)a;
	wl->bs = (uint32_t)b;
	return 0;
bad:
	return bc_check_fail(c, path,
			     "expected a size, a split or a range such as \"4k-64k\", got %s",
			     bc_check_show(v, shown));
}

static unsigned s_hexval(char c)
{
	return (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
}

/*
 * "0xdeadbeef", "\"text\"" or several joined with '|' (fio's buffer_pattern
 * syntax), at most BC_PATTERN_MAX bytes; written back as one hex string
 */
static int s_pattern(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];
	const char *p;
	uint32_t n = 0;

	if (!cJSON_IsString(v) || !*v->valuestring)
		goto bad;
	for (p = v->valuestring; *p;) {
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			const char *h = p + 2;
			size_t nd = strspn(h, "0123456789abcdefABCDEF"), i = 0;

			if (!nd)
				goto bad;
			/* an odd count: the first digit alone is the first byte */
			if (nd % 2) {
				wl->pattern[n++] = (uint8_t)s_hexval(h[0]);
				i = 1;
			}
			for (; i < nd; i += 2) {
				if (n == BC_PATTERN_MAX)
					goto long_;
				wl->pattern[n++] =
				    (uint8_t)(s_hexval(h[i]) << 4 | s_hexval(h[i + 1]));
			}
			p = h + nd;
		} else if (*p == '"' || *p == '\'') {
			const char *end = strchr(p + 1, *p);

			if (!end)
				goto bad;
			for (p++; p < end; p++) {
				if (n == BC_PATTERN_MAX)
					goto long_;
				wl->pattern[n++] = (uint8_t)*p;
			}
			p = end + 1;
		} else {
			goto bad;
		}
		if (*p == '|')
			p++;
		else if (*p)
			goto bad;
	}
	if (!n)
		goto bad;
	wl->pattern_len = n;
	return 0;
long_:
	return bc_check_fail(c, path, "a pattern of at most %d bytes, got %s", BC_PATTERN_MAX,
			     bc_check_show(v, shown));
bad:
	return bc_check_fail(c, path,
			     "expected a pattern such as \"0xdeadbeef\" or \"'text'\" (joined "
			     "with |), got %s",
			     bc_check_show(v, shown));
}

/* the criteria's names, by enum bc_steady_metric */
static const char *const s_ss_names[] = {"", "iops", "iops_slope", "bw", "bw_slope"};

int bc_steady_parse(const char *s, struct bc_steady_spec *out)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : 0, len;
	char lim[64];
	uint64_t bytes;
	uint32_t m;

	memset(out, 0, sizeof(*out));
	for (m = BC_SS_IOPS; m <= BC_SS_BW_SLOPE; m++)
		if (n == strlen(s_ss_names[m]) && !strncmp(s, s_ss_names[m], n))
			break;
	if (m > BC_SS_BW_SLOPE || !colon[1] || (len = strlen(colon + 1)) >= sizeof(lim))
		return -EINVAL;
	memcpy(lim, colon + 1, len + 1);
	out->metric = m;
	if (lim[len - 1] == '%') {
		lim[len - 1] = '\0';
		out->pct = 1;
		return s_number(lim, &out->limit) || out->limit < 0 ? -EINVAL : 0;
	}
	/* an absolute bandwidth may be a size per second: "10m" */
	if ((m == BC_SS_BW || m == BC_SS_BW_SLOPE) && !bc_parse_size(lim, &bytes)) {
		out->limit = (double)bytes;
		return 0;
	}
	return s_number(lim, &out->limit) || out->limit < 0 ? -EINVAL : 0;
}

const char *bc_steady_format(const struct bc_steady_spec *ss, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%.15g%s", s_ss_names[ss->metric <= BC_SS_BW_SLOPE ? ss->metric : 0],
		 ss->limit, ss->pct ? "%" : "");
	return buf;
}

/* {"criterion": "iops:2%", "window": "60s", "ramp": "10s"} */
static int s_steady(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN], sub[BC_CHECK_PATH_LEN];
	const cJSON *crit = cJSON_GetObjectItemCaseSensitive(v, "criterion"), *x;
	struct bc_steady_spec ss;
	int ret;

	if (!cJSON_IsObject(v))
		return bc_check_fail(c, path,
				     "expected {\"criterion\": \"iops:2%%\", \"window\": \"60s\"} "
				     "(and \"ramp\"), got %s",
				     bc_check_show(v, shown));
	for (x = v->child; x; x = x->next) {
		if (!strcmp(x->string, "criterion") || !strcmp(x->string, "window") ||
		    !strcmp(x->string, "ramp"))
			continue;
		bc_check_path(sub, path, x->string);
		return bc_check_fail(c, sub, "unknown key (criterion, window, ramp)");
	}
	bc_check_path(sub, path, "criterion");
	if (!cJSON_IsString(crit) || bc_steady_parse(crit->valuestring, &ss))
		return bc_check_fail(c, sub,
				     "expected iops, iops_slope, bw or bw_slope, a colon and a "
				     "limit (a percent of the mean, or per second): \"iops:2%%\", "
				     "\"bw:10m\", got %s",
				     crit ? bc_check_show(crit, shown) : "nothing");
	bc_check_path(sub, path, "window");
	if (!cJSON_GetObjectItemCaseSensitive(v, "window"))
		return bc_check_fail(
		    c, sub, "missing: the seconds judged at once, 3 at least (fio's ss_dur)");
	ret = bc_check_duration(c, sub, cJSON_GetObjectItemCaseSensitive(v, "window"), 3,
				&ss.window_s);
	if (ret)
		return ret;
	bc_check_path(sub, path, "ramp");
	if ((x = cJSON_GetObjectItemCaseSensitive(v, "ramp")) &&
	    (ret = bc_check_duration(c, sub, x, 0, &ss.ramp_s)))
		return ret;
	wl->steady = ss;
	return 0;
}

/* a plain block size (a split is s_bssplit's) */
static int s_bs(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];
	uint64_t n;
	int ret;

	if (cJSON_IsString(v) && strpbrk(v->valuestring, "/:"))
		return s_bssplit(c, path, v, wl);
	/* a plain size replaces a split or a range inherited from the defaults */
	wl->nbssplit = 0;
	wl->bs_min = 0;
	if (cJSON_IsString(v) && strchr(v->valuestring, '-'))
		return s_bsrange(c, path, v, wl);
	ret = bc_check_size(c, path, v, &n);
	if (ret)
		return ret;
	if (!n || n % BC_SECTOR || n > S_BS_MAX)
		return bc_check_fail(c, path, "must be a multiple of 512 in 512..1g, got %s",
				     bc_check_show(v, shown));
	wl->bs = (uint32_t)n;
	return 0;
}

/*
 * A percent in lo..hi with at most four decimals (vdbench's rdpct=83.14)
 * into millionths, as a split's share: 83.14 is held exactly as 831400
 */
static int s_pct(struct bc_check *c, const struct bc_wl_key *k, const cJSON *v, const char *path,
		 struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];
	double m;

	if (!cJSON_IsNumber(v))
		return bc_check_fail(c, path, "expected a percent in %g..%g, got %s", k->lo, k->hi,
				     bc_check_show(v, shown));
	if (v->valuedouble < k->lo || v->valuedouble > k->hi)
		return bc_check_fail(c, path, "must be in %g..%g, got %s", k->lo, k->hi,
				     bc_check_show(v, shown));
	m = v->valuedouble * BC_SPLIT_PCT1;
	/* a decimal read into a double is off by far less than 1e-6 of a millionth */
	if (fabs(m - round(m)) > 1e-6)
		return bc_check_fail(c, path, "a percent has at most 4 decimals, got %s",
				     bc_check_show(v, shown));
	s_set(k, wl, (int64_t)llround(m));
	return 0;
}

int bc_wl_key_parse(struct bc_check *c, const struct bc_wl_key *k, const cJSON *v, const char *path,
		    struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];
	uint64_t n;
	uint32_t s;
	double d;
	bool b;
	int ret;

	switch (k->type) {
	case BC_WT_CHOICE:
		return s_choice(c, k, v, path, wl);
	case BC_WT_COUNT:
		ret = bc_check_uint(c, path, v, (uint64_t)k->lo, (uint64_t)k->hi, &n);
		if (!ret)
			s_set(k, wl, (int64_t)n);
		return ret;
	case BC_WT_PCT:
		return s_pct(c, k, v, path, wl);
	case BC_WT_INT:
		ret = bc_check_int(c, path, v, k->lo, k->hi, &d);
		if (!ret)
			s_set(k, wl, (int64_t)d);
		return ret;
	case BC_WT_BOOL:
		ret = bc_check_bool(c, path, v, &b);
		if (!ret)
			s_set(k, wl, b);
		return ret;
	case BC_WT_SIZE:
		ret = bc_check_size(c, path, v, &n);
		if (ret)
			return ret;
		/* the one bounded size is blockalign, whose bound is S_BS_MAX, 1g */
		if (k->hi > 0 && (n % BC_SECTOR || (double)n > k->hi))
			return bc_check_fail(c, path, "must be a multiple of 512 up to 1g, got %s",
					     bc_check_show(v, shown));
		s_set(k, wl, (int64_t)n);
		return 0;
	case BC_WT_DURATION:
		ret = bc_check_duration(c, path, v, (uint32_t)k->lo, &s);
		if (!ret)
			s_set(k, wl, s);
		return ret;
	case BC_WT_BS:
		return s_bs(c, path, v, wl);
	case BC_WT_DIST:
		return s_distribution(c, path, v, wl);
	case BC_WT_CPUS:
		return s_cpus(c, path, v, wl);
	case BC_WT_THINKTIME:
		return s_thinktime(c, path, v, &wl->thinktime_us);
	case BC_WT_PLACEMENT:
		return bc_check_placement(c, path, v, &wl->placement);
	case BC_WT_POS:
		return bc_check_pos(c, path, v, (struct bc_stream_pos *)((char *)wl + k->off));
	case BC_WT_PATTERN:
		return s_pattern(c, path, v, wl);
	case BC_WT_STEADY:
		return s_steady(c, path, v, wl);
	case BC_WT_STREAMS:
	case BC_WT_KV:
		break;
	}
	return bc_check_fail(c, path, "read by its own module (streams.h, kv.h), not here");
}

int bc_check_workload_key(struct bc_check *c, const char *name, const cJSON *v, const char *path,
			  struct bc_workload *wl)
{
	const struct bc_wl_key *k = bc_wl_key_find(name);

	if (!k)
		return bc_check_fail(c, path, "unknown key");
	return bc_wl_key_parse(c, k, v, path, wl);
}

bool bc_wl_key_to_json(cJSON *o, const struct bc_wl_key *k, const struct bc_workload *wl)
{
	char buf[BC_BSSPLIT_MAX * 24 > BC_ZONES_MAX * 10 + 16 ? BC_BSSPLIT_MAX * 24
							      : BC_ZONES_MAX * 10 + 16];
	int64_t v;

	if ((k->where & BC_WK_STREAMS) && !wl->nstreams)
		return true;
	if (k->type == BC_WT_POS) {
		const struct bc_stream_pos *p =
		    (const struct bc_stream_pos *)((const char *)wl + k->off);

		return ((k->where & BC_WK_NZ) && bc_pos_zero(p)) ||
		       cJSON_AddItemToObject(o, k->name, bc_pos_to_json(p));
	}
	if (k->type == BC_WT_PATTERN) {
		char hex[2 + 2 * BC_PATTERN_MAX + 1] = "0x";
		uint32_t i;

		if (!wl->pattern_len)
			return true;
		for (i = 0; i < wl->pattern_len; i++)
			snprintf(hex + 2 + 2 * i, 3, "%02x", wl->pattern[i]);
		return cJSON_AddStringToObject(o, k->name, hex) != NULL;
	}
	if (k->type == BC_WT_STEADY) {
		cJSON *ss;

		if (!wl->steady.metric)
			return true;
		ss = cJSON_AddObjectToObject(o, k->name);
		return ss &&
		       cJSON_AddStringToObject(ss, "criterion",
					       bc_steady_format(&wl->steady, buf, sizeof(buf))) &&
		       cJSON_AddNumberToObject(ss, "window", wl->steady.window_s) &&
		       cJSON_AddNumberToObject(ss, "ramp", wl->steady.ramp_s);
	}
	if ((k->where & BC_WK_NZ) && !s_get(k, wl))
		return true;
	switch (k->type) {
	case BC_WT_CHOICE:
		v = s_get(k, wl);
		return cJSON_AddStringToObject(o, k->name, k->choices[v]) != NULL;
	case BC_WT_COUNT:
	case BC_WT_INT:
	case BC_WT_SIZE:
	case BC_WT_DURATION:
	case BC_WT_THINKTIME:
		v = s_get(k, wl);
		if (!v && (k->where & BC_WK_ZERO1))
			v = 1;
		return cJSON_AddNumberToObject(o, k->name, (double)v) != NULL;
	case BC_WT_PCT: /* a whole percent written as an integer, as before decimals */
		return cJSON_AddNumberToObject(o, k->name, (double)s_get(k, wl) / BC_SPLIT_PCT1) !=
		       NULL;
	case BC_WT_BOOL:
		return cJSON_AddBoolToObject(o, k->name, s_get(k, wl)) != NULL;
	case BC_WT_BS:
		if (wl->bs_min) {
			snprintf(buf, sizeof(buf), "%u-%u", wl->bs_min, wl->bs);
			return cJSON_AddStringToObject(o, k->name, buf) != NULL;
		}
		if (!wl->nbssplit)
			return cJSON_AddNumberToObject(o, k->name, wl->bs) != NULL;
		return cJSON_AddStringToObject(o, k->name,
					       bc_bssplit_format(wl, buf, sizeof(buf))) != NULL;
	case BC_WT_DIST:
		return cJSON_AddStringToObject(o, k->name,
					       bc_dist_format(&wl->dist, buf, sizeof(buf))) != NULL;
	case BC_WT_CPUS:
		return cJSON_AddStringToObject(o, k->name, wl->cpus_allowed) != NULL;
	case BC_WT_POS: /* above */
	case BC_WT_PATTERN:
	case BC_WT_STEADY:
		break;
	case BC_WT_PLACEMENT:
		/* the zero value is the volume's placement: written only when chosen */
		return !wl->placement.kind ||
		       cJSON_AddItemToObject(o, k->name, bc_placement_to_json(&wl->placement));
	case BC_WT_STREAMS:
	case BC_WT_KV:
		break;
	}
	return false;
}

void bc_wl_key_copy(const struct bc_wl_key *k, struct bc_workload *dst,
		    const struct bc_workload *src)
{
	memcpy((char *)dst + k->off, (const char *)src + k->off, k->size);
	if (k->type == BC_WT_PATTERN)
		dst->pattern_len = src->pattern_len;
	if (k->type == BC_WT_BS) {
		dst->bs_min = src->bs_min;
		dst->nbssplit = src->nbssplit;
		memcpy(dst->bssplit, src->bssplit, sizeof(dst->bssplit));
	}
}
