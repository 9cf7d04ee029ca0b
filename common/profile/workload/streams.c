/*
 * profile/workload/streams.c - the "streams" workload key (profile/workload/streams.h): each
 * stream's workload keys are checked and written by the key table (profile/workload/keys.c), so a
 * stream's "bs" or "random_distribution" says exactly what the step's would;
 * written back in the form the strict wire reader accepts. Its regions and
 * lifetime classes for the agent and the experiment.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/value/units.h"
#include "profile/workload/keys.h"
#include "profile/workload/kv.h"
#include "profile/workload/streams.h"

/* a stream object's keys, in the order they are read and written */
static const char *const s_stream_keys[] = {
    "name",    "class",	     "share",
    "rw",      "rwmixread",  "rwmixtrim",
    "bs",      "blockalign", "random_distribution",
    "seq_pct", "range",	     "placement",
    "kv",      NULL,
};
/*
 * The keys a stream takes from the workload (BC_WK_STREAM in profile/workload/keys.c,
 * but placement, whose unset value already means "the workload's"): bit i
 * of a stream's own mask is s_stream_keys[S_INHERIT0 + i].
 */
#define S_INHERIT0 3
#define S_NINHERIT 7
#define S_OWN_SEQ  (1u << 6) /* seq_pct */
static const char *const s_range_keys[] = {"offset", "size", NULL};

bool bc_stream_writes(const struct bc_stream *s)
{
	return bc_rw_writes(s->rw, s->rwmixread_ppm, s->rwmixtrim);
}

/* the stream's inherited values as a workload's fields (the rest of wl is untouched) */
static void s_stream_to_wl(const struct bc_stream *st, struct bc_workload *wl)
{
	wl->rw = st->rw;
	wl->rwmixread_ppm = st->rwmixread_ppm;
	wl->rwmixtrim = st->rwmixtrim;
	wl->bs = st->bs;
	wl->nbssplit = st->nbssplit;
	memcpy(wl->bssplit, st->bssplit, sizeof(wl->bssplit));
	wl->blockalign = st->blockalign;
	wl->dist = st->dist;
	wl->seq_pct = st->seq_pct;
}

/*
 * The inherited values into st (always), then their mix checked (the stream's path is
 * base). seq_pct is the share of a random kind's I/Os that continue sequentially
 * (the rule of engine/seqmix.h): a sequential stream or a KV class takes none from the
 * workload, and one it gives itself is refused (own_seq: the stream gave it).
 */
static int s_wl_to_stream(struct bc_check *c, const char *base, const struct bc_workload *wl,
			  bool own_seq, struct bc_stream *st)
{
	char path[BC_CHECK_PATH_LEN];

	st->rw = wl->rw;
	st->rwmixread_ppm = wl->rwmixread_ppm;
	st->rwmixtrim = wl->rwmixtrim;
	st->bs = wl->bs;
	st->nbssplit = wl->nbssplit;
	memcpy(st->bssplit, wl->bssplit, sizeof(st->bssplit));
	st->blockalign = wl->blockalign;
	st->dist = wl->dist;
	st->seq_pct = (bc_rw_random(wl->rw) && !st->kv.role) || own_seq ? wl->seq_pct : 0;
	if (st->seq_pct && st->kv.role) {
		bc_check_path(path, base, "seq_pct");
		return bc_check_fail(c, path,
				     "not in a KV class or log: its offsets are its records'");
	}
	if (st->seq_pct && !bc_rw_random(st->rw)) {
		bc_check_path(path, base, "seq_pct");
		return bc_check_fail(c, path,
				     "applies to random kinds (randread, randwrite, randrw, "
				     "randtrim); the stream's rw %s is all sequential",
				     bc_rw_names[st->rw]);
	}
	if (wl->bs_min) {
		bc_check_path(path, base, "bs");
		return bc_check_fail(c, path,
				     "a range of block sizes is not supported in a stream "
				     "(a split is)");
	}
	if (wl->rwmixread_ppm + wl->rwmixtrim * BC_SPLIT_PCT1 > BC_SPLIT_ALL) {
		bc_check_path(path, base, "rwmixtrim");
		return bc_check_fail(c, path, "rwmixread %g + rwmixtrim %u exceed 100 percent",
				     wl->rwmixread_ppm / (double)BC_SPLIT_PCT1, wl->rwmixtrim);
	}
	return 0;
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
		ret = bc_check_pos(c, path, o, &st->off);
	if (!ret)
		ret = bc_check_item(c, v, base, "size", false, path, &s);
	if (!ret && s)
		ret = bc_check_pos(c, path, s, &st->len);
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
		    const struct bc_workload *wl, struct bc_stream *st, uint8_t *own)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	struct bc_workload *tmp;
	const cJSON *v;
	int i, ret;

	memset(st, 0, sizeof(*st));
	ret = bc_check_entry(c, item, base, s_stream_keys, "name", path, &v);
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
	/* a KV class or log ("kv") is driven by its records, not by a share */
	if (!ret)
		ret = bc_check_item(c, item, base, "kv", false, path, &v);
	if (!ret && v)
		ret = bc_kv_check_stream(c, path, v, st);
	if (!ret)
		ret = bc_check_item(c, item, base, "share", !st->kv.role, path, &v);
	if (ret)
		return ret;
	st->share = 1;
	if (v && (!cJSON_IsNumber(v) || !(v->valuedouble > 0) || !isfinite(v->valuedouble) ||
		  v->valuedouble > 1e9))
		return bc_check_fail(c, path, "expected a weight > 0 (e.g. 60 or 0.6), got %s",
				     bc_check_show(v, shown));
	if (v)
		st->share = v->valuedouble;

	/* the workload's own validators, on a copy that starts from the workload */
	tmp = malloc(sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	*tmp = *wl;
	*own = 0;
	for (i = 0; !ret && i < S_NINHERIT; i++) {
		const char *key = s_stream_keys[S_INHERIT0 + i];

		ret = bc_check_item(c, item, base, key, false, path, &v);
		if (!ret && v) {
			ret = bc_check_workload_key(c, key, v, path, tmp);
			*own |= (uint8_t)(1u << i);
		}
	}
	if (!ret)
		ret = s_wl_to_stream(c, base, tmp, *own & S_OWN_SEQ, st);
	free(tmp);
	if (!ret)
		ret = bc_check_item(c, item, base, "range", false, path, &v);
	if (!ret && v)
		ret = s_range(c, path, v, st);
	if (!ret)
		ret = bc_check_item(c, item, base, "placement", false, path, &v);
	if (!ret && v)
		ret = bc_check_placement(c, path, v, &st->placement);
	return ret;
}

int bc_check_streams(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl,
		     uint8_t own[BC_STREAMS_MAX])
{
	uint8_t mine[BC_STREAMS_MAX] = {0};
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
		ret = s_stream(c, base, item, wl, &st[i], &mine[i]);
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
	if (own)
		memcpy(own, mine, sizeof(mine));
	free(st);
	return 0;
}

int bc_streams_inherit(struct bc_check *c, const char *path, const struct bc_workload *given,
		       const uint8_t own[BC_STREAMS_MAX], struct bc_workload *wl)
{
	char base[BC_CHECK_PATH_LEN];
	struct bc_check quiet = {0};
	struct bc_workload tmp, mine = {0};
	uint32_t i;
	int j, ret = 0;

	/* a stream reads only wl's scalar keys, never wl->streams, so it is written in place */
	for (i = 0; i < given->nstreams; i++) {
		struct bc_stream st = given->streams[i];
		int one;

		tmp = *wl;
		s_stream_to_wl(&st, &mine);
		for (j = 0; j < S_NINHERIT; j++)
			if (own[i] & (1u << j))
				bc_wl_key_copy(bc_wl_key_find(s_stream_keys[S_INHERIT0 + j]), &tmp,
					       &mine);
		snprintf(base, sizeof(base), "%s[%u]", path, i);
		/* the first error is the message; the streams after it are still resolved */
		one = s_wl_to_stream(ret ? &quiet : c, base, &tmp, own[i] & S_OWN_SEQ, &st);
		ret = ret ? ret : one;
		wl->streams[i] = st;
	}
	wl->nstreams = given->nstreams;
	return ret;
}

static bool s_stream_to_json(cJSON *arr, const struct bc_stream *st)
{
	struct bc_workload *tmp;
	cJSON *o = cJSON_CreateObject(), *r;
	bool ok;
	int i;

	if (!o)
		return false;
	cJSON_AddItemToArray(arr, o);
	tmp = calloc(1, sizeof(*tmp));
	if (!tmp)
		return false;
	s_stream_to_wl(st, tmp);
	ok = cJSON_AddStringToObject(o, "name", st->name) &&
	     cJSON_AddStringToObject(o, "class", st->cls) &&
	     cJSON_AddNumberToObject(o, "share", st->share);
	/* its workload keys as the workload's own are written, in the stream's order */
	for (i = 0; ok && i < S_NINHERIT; i++)
		ok = bc_wl_key_to_json(o, bc_wl_key_find(s_stream_keys[S_INHERIT0 + i]), tmp);
	free(tmp);
	if (ok && st->range_set) {
		r = cJSON_AddObjectToObject(o, "range");
		ok = r && cJSON_AddItemToObject(r, "offset", bc_pos_to_json(&st->off)) &&
		     cJSON_AddItemToObject(r, "size", bc_pos_to_json(&st->len));
	}
	if (ok && st->placement.kind)
		ok = cJSON_AddItemToObject(o, "placement", bc_placement_to_json(&st->placement));
	if (ok && st->kv.role)
		ok = cJSON_AddItemToObject(o, "kv", bc_kv_stream_json(st));
	return ok;
}

bool bc_streams_to_json(cJSON *o, const struct bc_workload *wl)
{
	cJSON *arr;
	uint32_t i;

	if (!wl->nstreams)
		return true;
	arr = cJSON_AddArrayToObject(o, "streams");
	for (i = 0; arr && i < wl->nstreams; i++)
		if (!s_stream_to_json(arr, &wl->streams[i]))
			return false;
	return arr != NULL;
}

int bc_stream_range(const struct bc_stream *s, uint64_t win_start, uint64_t win_end, uint64_t align,
		    uint64_t *start, uint64_t *end, char *err, size_t errlen)
{
	uint64_t win = win_end - win_start, off = 0, len = win;

	if (s->range_set) {
		off = bc_pos_bytes(&s->off, win, align);
		len = bc_pos_bytes(&s->len, win, align);
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
