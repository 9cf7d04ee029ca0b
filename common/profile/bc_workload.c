/*
 * bc_workload.c - the workload vocabulary beyond the basic keys: bssplit,
 * trim mixes, random distributions, block alignment, batch sizes, CPU
 * affinity, rate limits, size-based steps, thinktime, verify and the
 * io_uring setup flags; the rules between keys; per-volume overrides. Called
 * from bc_profile_check.c for every workload key it does not handle itself,
 * so profile files and the strict PREPARE wire form share one validator.
 * Semantics of every key: docs/engine.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_profile_check.h"
#include "bc_streams.h"
#include "bc_units.h"

/* verify checks headers per 4 KiB block, so I/Os must cover whole blocks (bc_verify.h) */
#define S_VERIFY_BLOCK 4096u
/* a thinktime beyond an hour is a mistyped unit, not a workload */
#define S_THINK_MAX_US (3600ull * 1000 * 1000)
/* CPU_SETSIZE of glibc: the largest CPU number a cpu_set_t holds, plus one */
#define S_CPU_MAX 1024
/* same bound as bc_profile_check.c: bs travels as 32 bits */
#define S_BS_MAX (1u << 30)
/* a rate above this is a typo (and keeps rate arithmetic far from overflow) */
#define S_RATE_IOPS_MAX 1000000000ull

/* the keys a volume's "workload" may override; the rest belong to the whole step */
static const char *const s_volume_keys[] = {
    "rw",	  "rwmixread", "rwmixtrim",  "bs",
    "blockalign", "iodepth",   "direct",     "random_distribution",
    "rate_iops",  "rate_bw",   "size_based", "io_size",
    "thinktime",  "verify",    "placement",  "stream_share",
    "streams",	  NULL,
};

unsigned bc_rw_ops(enum bc_rw rw, uint32_t rwmixread, uint32_t rwmixtrim)
{
	switch (rw) {
	case BC_RW_READ:
	case BC_RW_RANDREAD:
		return BC_RW_OPS_READ;
	case BC_RW_WRITE:
	case BC_RW_RANDWRITE:
		return BC_RW_OPS_WRITE;
	case BC_RW_TRIM:
	case BC_RW_RANDTRIM:
		return BC_RW_OPS_TRIM;
	case BC_RW_RW:
	case BC_RW_RANDRW:
		return (rwmixread ? BC_RW_OPS_READ : 0) | (rwmixtrim ? BC_RW_OPS_TRIM : 0) |
		       (rwmixread + rwmixtrim < 100 ? BC_RW_OPS_WRITE : 0);
	}
	return 0;
}

bool bc_workload_writes(const struct bc_workload *wl)
{
	uint32_t i;

	/* with streams, the streams' op mixes are what runs */
	for (i = 0; i < wl->nstreams; i++)
		if (bc_stream_writes(&wl->streams[i]))
			return true;
	if (wl->nstreams)
		return false;
	return bc_rw_ops(wl->rw, wl->rwmixread, wl->rwmixtrim) & (BC_RW_OPS_WRITE | BC_RW_OPS_TRIM);
}

bool bc_workload_random(const struct bc_workload *wl)
{
	return wl->rw == BC_RW_RANDREAD || wl->rw == BC_RW_RANDWRITE || wl->rw == BC_RW_RANDRW ||
	       wl->rw == BC_RW_RANDTRIM;
}

bool bc_workload_size_based(const struct bc_workload *wl)
{
	return wl->size_based || wl->io_size;
}

/* the shortest "%g" text that reads back as the same double */
static void s_fmt_double(double v, char *buf, size_t len)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

const char *bc_dist_format(const struct bc_dist_spec *d, char *buf, size_t len)
{
	static const char *const names[] = {"uniform", "zipf", "pareto", "normal", "zoned"};
	size_t used;
	uint32_t i;
	char num[32];

	if ((unsigned)d->kind > BC_DIST_ZONED) {
		snprintf(buf, len, "?");
		return buf;
	}
	if (d->kind == BC_DIST_UNIFORM) {
		snprintf(buf, len, "uniform");
		return buf;
	}
	if (d->kind != BC_DIST_ZONED) {
		s_fmt_double(d->param, num, sizeof(num));
		snprintf(buf, len, "%s:%s", names[d->kind], num);
		return buf;
	}
	snprintf(buf, len, "zoned");
	for (i = 0; i < d->nzones; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, ":%u/%u", d->zones[i].access_pct,
			 d->zones[i].range_pct);
	}
	return buf;
}

const char *bc_bssplit_format(const struct bc_workload *wl, char *buf, size_t len)
{
	size_t used;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < wl->nbssplit; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%u/%u", i ? ":" : "", wl->bssplit[i].bs,
			 wl->bssplit[i].pct);
	}
	return buf;
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
 * "4k/50:64k/30:1m" - size/percent entries; entries without a percent share
 * what the others leave evenly (fio's bssplit rule), the first of them takes
 * the rounding remainder. One entry is plain bs.
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
		sp[n].pct = 0;
		if (slash) {
			if (s_uint_span(slash + 1, item + ilen, 100, &sp[n].pct))
				goto bad;
			item[slash - item] = '\0';
		}
		if (bc_parse_size(item, &bytes) || !bytes || bytes % BC_SECTOR || bytes > S_BS_MAX)
			return bc_check_fail(
			    c, path, "block size \"%s\" must be a multiple of 512 in 512..1g",
			    item);
		sp[n].bs = (uint32_t)bytes;
		if (has_pct[n])
			sum += sp[n].pct;
		else if (!open++)
			first_open = n;
		n++;
		p = colon ? colon + 1 : p + ilen;
		if (colon && !*p)
			goto bad;
	}
	if (!n)
		goto bad;
	if (sum > 100 || (!open && sum != 100) || (open && sum == 100 && n > 1))
		return bc_check_fail(c, path, "percentages must add up to 100, got %s",
				     bc_check_show(v, shown));
	share = open ? (100 - sum) / open : 0;
	for (i = 0; i < n; i++) {
		if (!has_pct[i])
			sp[i].pct = share + (i == first_open ? (100 - sum) % open : 0);
		if (sp[i].bs > max)
			max = sp[i].bs;
	}
	wl->bs = max;
	wl->nbssplit = 0;
	for (i = 0; i < n; i++)
		if (sp[i].pct)
			wl->bssplit[wl->nbssplit++] = sp[i];
	/* one size is not a split */
	if (wl->nbssplit == 1) {
		wl->bs = wl->bssplit[0].bs;
		wl->nbssplit = 0;
	}
	return 0;
bad:
	return bc_check_fail(c, path, "expected a size or a split such as \"4k/50:64k/50\", got %s",
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
			     "expected uniform, zipf:THETA, pareto:H, normal:SIGMA%% or "
			     "zoned:ACCESS/RANGE[:...], got %s",
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
	return bc_check_fail(c, path,
			     "expected \"numa\" or a CPU list such as \"0-3,8\" (CPUs below %d), "
			     "got %s",
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

int bc_check_workload_ext(struct bc_check *c, const char *key, const cJSON *v, const char *path,
			  struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];
	uint64_t n;
	double d;
	int ret;

	if (!strcmp(key, "bs")) {
		if (cJSON_IsString(v) && strpbrk(v->valuestring, "/:"))
			return s_bssplit(c, path, v, wl);
		/* a plain size replaces a split inherited from the defaults */
		wl->nbssplit = 0;
		return -ENOENT;
	}
	if (!strcmp(key, "random_distribution"))
		return s_distribution(c, path, v, wl);
	if (!strcmp(key, "streams"))
		return bc_check_streams(c, path, v, wl);
	if (!strcmp(key, "placement"))
		return bc_check_placement(c, path, v, &wl->placement);
	if (!strcmp(key, "stream_share"))
		return bc_check_stream_share(c, path, v, wl);
	if (!strcmp(key, "cpus_allowed"))
		return s_cpus(c, path, v, wl);
	if (!strcmp(key, "cpus_allowed_policy")) {
		if (cJSON_IsString(v) &&
		    (!strcmp(v->valuestring, "shared") || !strcmp(v->valuestring, "split"))) {
			wl->cpus_split = !strcmp(v->valuestring, "split");
			return 0;
		}
		return bc_check_fail(c, path, "expected \"shared\" or \"split\", got %s",
				     bc_check_show(v, shown));
	}
	if (!strcmp(key, "thinktime"))
		return s_thinktime(c, path, v, &wl->thinktime_us);
	if (!strcmp(key, "size_based"))
		return bc_check_bool(c, path, v, &wl->size_based);
	if (!strcmp(key, "verify"))
		return bc_check_bool(c, path, v, &wl->verify);
	if (!strcmp(key, "sqpoll"))
		return bc_check_bool(c, path, v, &wl->sqpoll);
	if (!strcmp(key, "hipri"))
		return bc_check_bool(c, path, v, &wl->hipri);
	if (!strcmp(key, "rwmixtrim")) {
		ret = bc_check_int(c, path, v, 0, 100, &d);
		wl->rwmixtrim = ret ? wl->rwmixtrim : (uint32_t)d;
		return ret;
	}
	if (!strcmp(key, "iodepth_batch_submit") || !strcmp(key, "iodepth_batch_complete")) {
		ret = bc_check_int(c, path, v, 1, 65536, &d);
		if (!ret && key[14] == 's')
			wl->batch_submit = (uint32_t)d;
		else if (!ret)
			wl->batch_complete = (uint32_t)d;
		return ret;
	}
	if (!strcmp(key, "sqpoll_cpu")) {
		ret = bc_check_int(c, path, v, -1, S_CPU_MAX - 1, &d);
		wl->sqpoll_cpu = ret ? wl->sqpoll_cpu : (int32_t)d;
		return ret;
	}
	if (!strcmp(key, "rate_iops")) {
		ret = bc_check_int(c, path, v, 0, (double)S_RATE_IOPS_MAX, &d);
		wl->rate_iops = ret ? wl->rate_iops : (uint64_t)d;
		return ret;
	}
	if (!strcmp(key, "rate_bw") || !strcmp(key, "io_size") || !strcmp(key, "blockalign")) {
		ret = bc_check_size(c, path, v, &n);
		if (ret)
			return ret;
		if (key[0] == 'r')
			wl->rate_bw = n;
		else if (key[0] == 'i')
			wl->io_size = n;
		else if (n % BC_SECTOR || n > S_BS_MAX)
			return bc_check_fail(c, path, "must be a multiple of 512 up to 1g, got %s",
					     bc_check_show(v, shown));
		else
			wl->blockalign = (uint32_t)n;
		return 0;
	}
	return -ENOENT;
}

/* every block size of the workload (the split, or bs) is a multiple of unit */
static bool s_sizes_multiple(const struct bc_workload *wl, uint32_t unit)
{
	uint32_t i;

	if (!wl->nbssplit)
		return wl->bs % unit == 0;
	for (i = 0; i < wl->nbssplit; i++)
		if (wl->bssplit[i].bs % unit)
			return false;
	return true;
}

int bc_check_workload_rules(struct bc_check *c, const char *base, const struct bc_workload *wl)
{
	char path[BC_CHECK_PATH_LEN];

	if (c->partial)
		return 0;
	if (wl->rwmixread + wl->rwmixtrim > 100) {
		bc_check_path(path, base, "rwmixtrim");
		return bc_check_fail(c, path, "rwmixread %u + rwmixtrim %u exceed 100 percent",
				     wl->rwmixread, wl->rwmixtrim);
	}
	if (wl->verify &&
	    (!s_sizes_multiple(wl, S_VERIFY_BLOCK) || wl->blockalign % S_VERIFY_BLOCK)) {
		bc_check_path(path, base, "verify");
		return bc_check_fail(c, path,
				     "verify checks 4 KiB blocks: bs, every bssplit size and "
				     "blockalign must be multiples of 4k");
	}
	if (wl->hipri && !wl->direct) {
		bc_check_path(path, base, "hipri");
		return bc_check_fail(c, path, "polled I/O needs \"direct\": true");
	}
	if (wl->hipri && wl->sqpoll) {
		/* legal for io_uring, but the SQ thread then also polls: not what hipri measures */
		bc_check_path(path, base, "hipri");
		return bc_check_fail(c, path, "hipri and sqpoll together are not supported");
	}
	return bc_check_streams_rules(c, base, wl);
}

bool bc_workload_bs_to_json(cJSON *obj, const struct bc_workload *wl)
{
	char buf[BC_BSSPLIT_MAX * 24];

	if (!wl->nbssplit)
		return cJSON_AddNumberToObject(obj, "bs", wl->bs) != NULL;
	return cJSON_AddStringToObject(obj, "bs", bc_bssplit_format(wl, buf, sizeof(buf))) != NULL;
}

bool bc_workload_ext_to_json(cJSON *o, const struct bc_workload *wl)
{
	char dist[BC_ZONES_MAX * 10 + 16];

	return cJSON_AddNumberToObject(o, "rwmixtrim", wl->rwmixtrim) &&
	       cJSON_AddNumberToObject(o, "blockalign", wl->blockalign) &&
	       cJSON_AddStringToObject(o, "random_distribution",
				       bc_dist_format(&wl->dist, dist, sizeof(dist))) &&
	       cJSON_AddNumberToObject(o, "iodepth_batch_submit",
				       wl->batch_submit ? wl->batch_submit : 1) &&
	       cJSON_AddNumberToObject(o, "iodepth_batch_complete",
				       wl->batch_complete ? wl->batch_complete : 1) &&
	       cJSON_AddStringToObject(o, "cpus_allowed", wl->cpus_allowed) &&
	       cJSON_AddStringToObject(o, "cpus_allowed_policy",
				       wl->cpus_split ? "split" : "shared") &&
	       cJSON_AddNumberToObject(o, "rate_iops", (double)wl->rate_iops) &&
	       cJSON_AddNumberToObject(o, "rate_bw", (double)wl->rate_bw) &&
	       cJSON_AddBoolToObject(o, "size_based", wl->size_based) &&
	       cJSON_AddNumberToObject(o, "io_size", (double)wl->io_size) &&
	       cJSON_AddNumberToObject(o, "thinktime", (double)wl->thinktime_us) &&
	       cJSON_AddBoolToObject(o, "verify", wl->verify) &&
	       cJSON_AddBoolToObject(o, "sqpoll", wl->sqpoll) &&
	       cJSON_AddNumberToObject(o, "sqpoll_cpu", wl->sqpoll_cpu) &&
	       cJSON_AddBoolToObject(o, "hipri", wl->hipri) && bc_streams_to_json(o, wl);
}

static bool s_listed(const char *const *keys, const char *k)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, k))
			return true;
	return false;
}

/* one volume's overrides at path: only per-volume keys, values checked, copied into *out */
static int s_check_overrides(struct bc_check *c, const cJSON *v, const char *path, cJSON **out)
{
	struct bc_check vc = *c;
	struct bc_workload tmp = bc_workload_builtin;
	char kpath[BC_CHECK_PATH_LEN];
	const cJSON *k;
	int ret;

	ret = bc_check_object(c, path, v);
	if (ret)
		return ret;
	cJSON_ArrayForEach(k, v)
	{
		if (s_listed(s_volume_keys, k->string))
			continue;
		bc_check_path(kpath, path, k->string);
		if (s_listed(bc_workload_keys, k->string))
			return bc_check_fail(c, kpath,
					     "applies to the whole step, not to one volume");
	}
	ret = bc_check_keys(c, v, path, bc_workload_keys);
	/* values only: the rules between keys hold for each step's resolved workload */
	vc.partial = true;
	if (!ret)
		ret = bc_check_workload(&vc, v, path, &tmp);
	if (!ret) {
		*out = cJSON_Duplicate(v, true);
		ret = *out ? 0 : -ENOMEM;
	}
	return ret;
}

int bc_check_volume_workload(struct bc_check *c, const cJSON *item, const char *base, cJSON **out)
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *v;
	int ret;

	*out = NULL;
	ret = bc_check_item(c, item, base, "workload", false, path, &v);
	if (ret || !v)
		return ret;
	return s_check_overrides(c, v, path, out);
}

int bc_check_step_volume_workloads(struct bc_check *c, const cJSON *item, const char *base,
				   int nvolumes, cJSON **out)
{
	char path[BC_CHECK_PATH_LEN], kpath[BC_CHECK_PATH_LEN];
	const cJSON *v, *k;
	cJSON *one;
	int ret;

	*out = NULL;
	ret = bc_check_item(c, item, base, "volume_workloads", false, path, &v);
	if (ret || !v)
		return ret;
	ret = bc_check_object(c, path, v);
	if (ret)
		return ret;
	*out = cJSON_CreateObject();
	if (!*out)
		return -ENOMEM;
	cJSON_ArrayForEach(k, v)
	{
		char *end;
		long idx = strtol(k->string, &end, 10);

		bc_check_path(kpath, path, k->string);
		if (!*k->string || *end || idx < 0 || idx >= nvolumes ||
		    cJSON_GetObjectItemCaseSensitive(*out, k->string))
			ret = bc_check_fail(c, kpath,
					    "expected a volume index 0..%d (once), got \"%s\"",
					    nvolumes - 1, k->string);
		if (!ret)
			ret = s_check_overrides(c, k, kpath, &one);
		if (!ret)
			cJSON_AddItemToObject(*out, k->string, one);
		if (ret) {
			cJSON_Delete(*out);
			*out = NULL;
			return ret;
		}
	}
	return 0;
}

int bc_step_volume_workload(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
			    struct bc_workload *out, char *err, size_t errlen)
{
	struct bc_check c = {.err = err, .errlen = errlen};
	const cJSON *own;
	char key[16];
	int ret = bc_volume_workload(&st->wl, vol, out, err, errlen);

	snprintf(key, sizeof(key), "%d", v);
	own = cJSON_GetObjectItemCaseSensitive(st->volume_workloads, key);
	if (!ret && own)
		ret = bc_check_workload(&c, own, "volume_workloads", out);
	return ret;
}

bool bc_step_volume_overridden(const struct bc_step *st, const struct bc_volume_spec *vol, int v)
{
	char key[16];

	snprintf(key, sizeof(key), "%d", v);
	return vol->workload || cJSON_GetObjectItemCaseSensitive(st->volume_workloads, key);
}

int bc_volume_workload(const struct bc_workload *step, const struct bc_volume_spec *vol,
		       struct bc_workload *out, char *err, size_t errlen)
{
	struct bc_check c = {.err = err, .errlen = errlen};

	*out = *step;
	if (!vol->workload)
		return 0;
	return bc_check_workload(&c, vol->workload, "workload", out);
}

int bc_check_volume_steps(struct bc_check *c, const struct bc_profile *p)
{
	char base[BC_CHECK_PATH_LEN];
	struct bc_workload wl;
	size_t used;
	int v, s, ret;

	for (v = 0; v < p->nvolumes; v++) {
		for (s = 0; s < p->nsteps; s++) {
			char key[16];
			const cJSON *own;

			snprintf(key, sizeof(key), "%d", v);
			own = cJSON_GetObjectItemCaseSensitive(p->steps[s].volume_workloads, key);
			if (!p->volumes[v].workload && !own)
				continue;
			wl = p->steps[s].wl;
			snprintf(base, sizeof(base), "volumes[%d].workload", v);
			ret = p->volumes[v].workload
				  ? bc_check_workload(c, p->volumes[v].workload, base, &wl)
				  : 0;
			if (!ret && own) {
				snprintf(base, sizeof(base), "steps[%d].volume_workloads.%d", s, v);
				ret = bc_check_workload(c, own, base, &wl);
			}
			if (!ret)
				continue;
			if (c->err && c->errlen) {
				used = strlen(c->err);
				snprintf(c->err + used, c->errlen - used, " (in step \"%s\")",
					 p->steps[s].name);
			}
			return ret;
		}
	}
	return 0;
}
