/*
 * bc_streams.c - the "streams", "stream_share" and "placement" workload
 * keys (bc_streams.h): checked with the same value validators as the rest of
 * the workload, so a stream's "bs" or "random_distribution" says exactly what
 * the step's would; written back in the form the strict wire reader accepts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_profile_check.h"
#include "bc_streams.h"
#include "bc_units.h"

static const char *const s_stream_keys[] = {
    "name",  "class",	   "share",
    "rw",    "rwmixread",  "rwmixtrim",
    "bs",    "blockalign", "random_distribution",
    "range", "placement",  NULL,
};
/* the keys a stream takes from the workload's vocabulary, checked by its validators */
static const char *const s_inherited[] = {
    "rw", "rwmixread", "rwmixtrim", "bs", "blockalign", "random_distribution", NULL,
};
static const char *const s_range_keys[] = {"offset", "size", NULL};

bool bc_stream_writes(const struct bc_stream *s)
{
	return bc_rw_ops(s->rw, s->rwmixread, s->rwmixtrim) & (BC_RW_OPS_WRITE | BC_RW_OPS_TRIM);
}

const char *bc_placement_format(const struct bc_placement *p, char *buf, size_t len)
{
	size_t used;
	unsigned i;

	if (p->kind == BC_PLACEMENT_NONE) {
		snprintf(buf, len, "none");
		return buf;
	}
	if (p->kind != 1) {
		snprintf(buf, len, "volume");
		return buf;
	}
	snprintf(buf, len, "[");
	for (i = 0; i < p->n; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%u", i ? "," : "", p->idx[i]);
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, "]");
	return buf;
}

cJSON *bc_placement_to_json(const struct bc_placement *p)
{
	cJSON *a;
	unsigned i;

	if (p->kind == BC_PLACEMENT_NONE)
		return cJSON_CreateString("none");
	if (p->kind != 1)
		return cJSON_CreateString("volume");
	a = cJSON_CreateArray();
	for (i = 0; a && i < p->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(p->idx[i]));
	return a;
}

/* "volume", "none" or [idx, ...] with 1..16 indexes 0..15 */
static int s_placement(struct bc_check *c, const char *path, const cJSON *v, struct bc_placement *p)
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

/* a range position: "25%", "1g" or integer bytes */
static int s_pos(struct bc_check *c, const char *path, const cJSON *v, struct bc_stream_pos *p)
{
	char shown[BC_CHECK_SHOW_LEN], *end;
	size_t n;
	double d;

	memset(p, 0, sizeof(*p));
	if (cJSON_IsString(v) && (n = strlen(v->valuestring)) && v->valuestring[n - 1] == '%') {
		d = strtod(v->valuestring, &end);
		if (end != v->valuestring + n - 1 || end == v->valuestring || !isfinite(d) ||
		    d < 0 || d > 100)
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

static cJSON *s_pos_json(const struct bc_stream_pos *p)
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

static int s_range(struct bc_check *c, const char *base, const cJSON *v, struct bc_stream *st)
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *o, *s;
	int ret;

	ret = bc_check_object(c, base, v);
	if (!ret)
		ret = bc_check_keys(c, v, base, s_range_keys);
	if (!ret)
		ret = bc_check_item(c, v, base, "offset", false, path, &o);
	if (!ret && o)
		ret = s_pos(c, path, o, &st->off);
	if (!ret)
		ret = bc_check_item(c, v, base, "size", false, path, &s);
	if (!ret && s)
		ret = s_pos(c, path, s, &st->len);
	if (ret)
		return ret;
	if (st->off.pct && st->len.pct && st->off.pct_val + st->len.pct_val > 100.0 + 1e-9)
		return bc_check_fail(c, base,
				     "offset %g%% + size %g%% leave the window (more than 100%%)",
				     st->off.pct_val, st->len.pct_val);
	if (st->off.pct && st->off.pct_val >= 100)
		return bc_check_fail(c, base, "offset %g%% leaves nothing of the window",
				     st->off.pct_val);
	st->range_set = true;
	return 0;
}

static bool s_stream_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n < BC_STREAM_NAME_MAX &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

static int s_stream_name(struct bc_check *c, const char *path, const cJSON *v, char *dst)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (!cJSON_IsString(v) || !s_stream_name_ok(v->valuestring))
		return bc_check_fail(c, path,
				     "expected a name of 1..%d characters [A-Za-z0-9._-], got %s",
				     BC_STREAM_NAME_MAX - 1, bc_check_show(v, shown));
	snprintf(dst, BC_STREAM_NAME_MAX, "%s", v->valuestring);
	return 0;
}

/* one stream object; wl holds the workload's values the stream inherits */
static int s_stream(struct bc_check *c, const char *base, const cJSON *item,
		    const struct bc_workload *wl, struct bc_stream *st)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	struct bc_workload *tmp;
	const cJSON *v;
	int i, ret;

	memset(st, 0, sizeof(*st));
	ret = bc_check_object(c, base, item);
	if (!ret)
		ret = bc_check_keys(c, item, base, s_stream_keys);
	if (!ret)
		ret = bc_check_item(c, item, base, "name", true, path, &v);
	if (!ret)
		ret = s_stream_name(c, path, v, st->name);
	if (!ret)
		ret = bc_check_item(c, item, base, "class", false, path, &v);
	if (ret)
		return ret;
	if (v)
		ret = s_stream_name(c, path, v, st->cls);
	else
		snprintf(st->cls, sizeof(st->cls), "%s", st->name);
	if (!ret)
		ret = bc_check_item(c, item, base, "share", true, path, &v);
	if (ret)
		return ret;
	if (!cJSON_IsNumber(v) || !(v->valuedouble > 0) || !isfinite(v->valuedouble) ||
	    v->valuedouble > 1e9)
		return bc_check_fail(c, path, "expected a weight > 0 (e.g. 60 or 0.6), got %s",
				     bc_check_show(v, shown));
	st->share = v->valuedouble;

	/* the workload's own validators, on a copy that starts from the workload */
	tmp = malloc(sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	*tmp = *wl;
	for (i = 0; !ret && s_inherited[i]; i++) {
		ret = bc_check_item(c, item, base, s_inherited[i], false, path, &v);
		if (!ret && v)
			ret = bc_check_workload_key(c, s_inherited[i], v, path, tmp);
	}
	if (!ret && tmp->rwmixread + tmp->rwmixtrim > 100) {
		bc_check_path(path, base, "rwmixtrim");
		ret = bc_check_fail(c, path, "rwmixread %u + rwmixtrim %u exceed 100 percent",
				    tmp->rwmixread, tmp->rwmixtrim);
	}
	if (!ret) {
		st->rw = tmp->rw;
		st->rwmixread = tmp->rwmixread;
		st->rwmixtrim = tmp->rwmixtrim;
		st->bs = tmp->bs;
		st->nbssplit = tmp->nbssplit;
		memcpy(st->bssplit, tmp->bssplit, sizeof(st->bssplit));
		st->blockalign = tmp->blockalign;
		st->dist = tmp->dist;
	}
	free(tmp);
	if (!ret)
		ret = bc_check_item(c, item, base, "range", false, path, &v);
	if (!ret && v)
		ret = s_range(c, path, v, st);
	if (!ret)
		ret = bc_check_item(c, item, base, "placement", false, path, &v);
	if (!ret && v)
		ret = s_placement(c, path, v, &st->placement);
	return ret;
}

int bc_check_streams(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char base[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	struct bc_stream *st;
	const cJSON *item;
	int n, i, j, ret;

	n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
	if (n < 0 || n > BC_STREAMS_MAX)
		return bc_check_fail(c, path, "expected an array of 0 to %d streams, got %s",
				     BC_STREAMS_MAX, bc_check_show(v, shown));
	st = calloc(BC_STREAMS_MAX, sizeof(*st));
	if (!st)
		return -ENOMEM;
	i = 0;
	cJSON_ArrayForEach(item, v)
	{
		snprintf(base, sizeof(base), "%s[%d]", path, i);
		ret = s_stream(c, base, item, wl, &st[i]);
		for (j = 0; !ret && j < i; j++) {
			if (strcmp(st[j].name, st[i].name))
				continue;
			snprintf(base, sizeof(base), "%s[%d].name", path, i);
			ret = bc_check_fail(c, base, "duplicate stream name \"%s\"", st[i].name);
		}
		if (ret) {
			free(st);
			return ret;
		}
		i++;
	}
	memcpy(wl->streams, st, sizeof(wl->streams));
	wl->nstreams = (uint32_t)n;
	free(st);
	return 0;
}

int bc_check_placement(struct bc_check *c, const char *path, const cJSON *v, struct bc_placement *p)
{
	return s_placement(c, path, v, p);
}

int bc_check_stream_share(struct bc_check *c, const char *path, const cJSON *v,
			  struct bc_workload *wl)
{
	char shown[BC_CHECK_SHOW_LEN];

	if (cJSON_IsString(v) &&
	    (!strcmp(v->valuestring, "ios") || !strcmp(v->valuestring, "bytes"))) {
		wl->share_bytes = !strcmp(v->valuestring, "bytes");
		return 0;
	}
	return bc_check_fail(c, path, "expected \"ios\" or \"bytes\", got %s",
			     bc_check_show(v, shown));
}

int bc_check_streams_rules(struct bc_check *c, const char *base, const struct bc_workload *wl)
{
	char path[BC_CHECK_PATH_LEN];

	if (!wl->nstreams)
		return 0;
	if (wl->verify) {
		bc_check_path(path, base, "verify");
		return bc_check_fail(c, path, "not supported with \"streams\"");
	}
	return 0;
}

static bool s_stream_to_json(cJSON *arr, const struct bc_stream *st)
{
	struct bc_workload tmp = {0};
	char dist[BC_ZONES_MAX * 10 + 16];
	cJSON *o = cJSON_CreateObject(), *r;
	bool ok;

	if (!o)
		return false;
	cJSON_AddItemToArray(arr, o);
	tmp.bs = st->bs;
	tmp.nbssplit = st->nbssplit;
	memcpy(tmp.bssplit, st->bssplit, sizeof(tmp.bssplit));
	ok = cJSON_AddStringToObject(o, "name", st->name) &&
	     cJSON_AddStringToObject(o, "class", st->cls) &&
	     cJSON_AddNumberToObject(o, "share", st->share) &&
	     cJSON_AddStringToObject(o, "rw", bc_rw_names[st->rw]) &&
	     cJSON_AddNumberToObject(o, "rwmixread", st->rwmixread) &&
	     cJSON_AddNumberToObject(o, "rwmixtrim", st->rwmixtrim) &&
	     bc_workload_bs_to_json(o, &tmp) &&
	     cJSON_AddNumberToObject(o, "blockalign", st->blockalign) &&
	     cJSON_AddStringToObject(o, "random_distribution",
				     bc_dist_format(&st->dist, dist, sizeof(dist)));
	if (ok && st->range_set) {
		r = cJSON_AddObjectToObject(o, "range");
		ok = r && cJSON_AddItemToObject(r, "offset", s_pos_json(&st->off)) &&
		     cJSON_AddItemToObject(r, "size", s_pos_json(&st->len));
	}
	if (ok && st->placement.kind)
		ok = cJSON_AddItemToObject(o, "placement", bc_placement_to_json(&st->placement));
	return ok;
}

bool bc_streams_to_json(cJSON *o, const struct bc_workload *wl)
{
	cJSON *arr;
	uint32_t i;

	if (wl->placement.kind &&
	    !cJSON_AddItemToObject(o, "placement", bc_placement_to_json(&wl->placement)))
		return false;
	if (!wl->nstreams)
		return true;
	if (!cJSON_AddStringToObject(o, "stream_share", wl->share_bytes ? "bytes" : "ios"))
		return false;
	arr = cJSON_AddArrayToObject(o, "streams");
	for (i = 0; arr && i < wl->nstreams; i++)
		if (!s_stream_to_json(arr, &wl->streams[i]))
			return false;
	return arr != NULL;
}

/* one range position in bytes of the window, rounded down to align */
static uint64_t s_pos_bytes(const struct bc_stream_pos *p, uint64_t win, uint64_t align)
{
	uint64_t b;

	if (!p->pct)
		return p->bytes;
	b = (uint64_t)((long double)win * p->pct_val / 100.0L);
	return b / align * align;
}

int bc_stream_range(const struct bc_stream *s, uint64_t win_start, uint64_t win_end, uint64_t align,
		    uint64_t *start, uint64_t *end, char *err, size_t errlen)
{
	uint64_t win = win_end - win_start, off = 0, len = win;

	if (s->range_set) {
		off = s_pos_bytes(&s->off, win, align);
		len = s_pos_bytes(&s->len, win, align);
		if (s->len.pct ? s->len.pct_val == 0 : !s->len.bytes)
			len = off < win ? win - off : 0; /* size 0: to the window's end */
	}
	if (off % align || len % align) {
		snprintf(err, errlen,
			 "stream \"%s\": range offset %llu and size %llu must be multiples of "
			 "%llu bytes",
			 s->name, (unsigned long long)off, (unsigned long long)len,
			 (unsigned long long)align);
		return -EINVAL;
	}
	if (off >= win || len > win - off) {
		snprintf(err, errlen,
			 "stream \"%s\": range offset %llu + size %llu bytes leaves the %llu-byte "
			 "window",
			 s->name, (unsigned long long)off, (unsigned long long)len,
			 (unsigned long long)win);
		return -EINVAL;
	}
	if (len < s->bs) {
		snprintf(err, errlen,
			 "stream \"%s\": range of %llu bytes is smaller than its block size %u",
			 s->name, (unsigned long long)len, s->bs);
		return -EINVAL;
	}
	*start = win_start + off;
	*end = win_start + off + len;
	return 0;
}

int bc_stream_classes(const struct bc_workload *wl, const char *cls[BC_STREAMS_MAX])
{
	uint32_t i;
	int n = 0, j;

	for (i = 0; i < wl->nstreams; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(cls[j], wl->streams[i].cls))
				break;
		if (j == n)
			cls[n++] = wl->streams[i].cls;
	}
	return n;
}

int bc_stream_class_index(const struct bc_workload *wl, const char *name)
{
	const char *cls[BC_STREAMS_MAX];
	int n = bc_stream_classes(wl, cls), i;

	for (i = 0; i < n; i++)
		if (!strcmp(cls[i], name))
			return i;
	return -1;
}
