/*
 * profile/workload/kv.c - the KV-cache workload's keys (profile/workload/kv.h):
 * a stream's "kv" (a class or a metadata log), the workload's "kv", the
 * rules between them, their wire form, and the split of classes over jobs
 * that the agent (engine/kvgen.c) and the coordinator (expected record
 * counts) both use.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/workload/keys.h"
#include "profile/workload/kv.h"

static const char *const s_class_keys[] = {"workers",	 "stores",     "prefetches", "capacity",
					   "popularity", "store_rate", "meta",	     NULL};
static const char *const s_kv_keys[] = {"trim", "pace", "max_io", "trace", NULL};
static const char *const s_trim_names[] = {"auto", "on", "off"};

bool bc_workload_kv(const struct bc_workload *wl)
{
	uint32_t i;

	for (i = 0; i < wl->nstreams; i++)
		if (wl->streams[i].kv.role != BC_KV_NONE)
			return true;
	return false;
}

/* "popularity": a rank distribution over the live objects, newest first */
static int s_popularity(struct bc_check *c, const char *path, const cJSON *v,
			struct bc_dist_spec *out)
{
	struct bc_workload tmp = bc_workload_builtin;
	int ret;

	ret = bc_check_workload_key(c, "random_distribution", v, path, &tmp);
	if (ret)
		return ret;
	if (tmp.dist.kind != BC_DIST_UNIFORM && tmp.dist.kind != BC_DIST_ZIPF &&
	    tmp.dist.kind != BC_DIST_PARETO)
		return bc_check_fail(c, path,
				     "expected uniform, zipf:THETA or pareto:H (a rank among the "
				     "live objects, newest first)");
	*out = tmp.dist;
	return 0;
}

static int s_class(struct bc_check *c, const char *base, const cJSON *o, struct bc_kv_class *k)
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *v;
	uint64_t n;
	double d;
	int ret;

	ret = bc_check_keys(c, o, base, s_class_keys);
	if (!ret)
		ret = bc_check_item(c, o, base, "workers", false, path, &v);
	k->workers = 1;
	if (!ret && v && !(ret = bc_check_uint(c, path, v, 1, BC_KV_WORKERS_MAX, &n)))
		k->workers = (uint32_t)n;
	if (!ret)
		ret = bc_check_item(c, o, base, "stores", false, path, &v);
	if (!ret && v)
		ret = bc_check_uint(c, path, v, 1, 1ull << 40, &k->stores);
	if (!ret)
		ret = bc_check_item(c, o, base, "prefetches", false, path, &v);
	if (!ret && v)
		ret = bc_check_uint(c, path, v, 0, 1ull << 40, &k->prefetches);
	if (!ret)
		ret = bc_check_item(c, o, base, "capacity", false, path, &v);
	if (!ret && v && cJSON_IsString(v) && (n = strlen(v->valuestring)) &&
	    v->valuestring[n - 1] == '%') {
		char *end;

		d = strtod(v->valuestring, &end);
		if (end != v->valuestring + n - 1 || !(d > 0) || d > 100)
			return bc_check_fail(c, path,
					     "expected a size or a percentage of the region in "
					     "(0%%, 100%%], got %s",
					     v->valuestring);
		k->capacity_pct = d;
	} else if (!ret && v) {
		ret = bc_check_size(c, path, v, &k->capacity);
		if (!ret && !k->capacity)
			ret = bc_check_fail(c, path,
					    "expected a size > 0 or a percentage of the region");
	}
	if (!ret)
		ret = bc_check_item(c, o, base, "popularity", false, path, &v);
	if (!ret && v)
		ret = s_popularity(c, path, v, &k->popularity);
	if (!ret)
		ret = bc_check_item(c, o, base, "store_rate", false, path, &v);
	if (!ret && v) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble > 0) || !isfinite(v->valuedouble) ||
		    v->valuedouble > 1e9)
			return bc_check_fail(c, path, "expected stores per second > 0 (e.g. 85.3)");
		d = v->valuedouble;
		k->store_rate = d;
	}
	if (!ret)
		ret = bc_check_item(c, o, base, "meta", false, path, &v);
	if (!ret && v) {
		if (!cJSON_IsString(v) || !v->valuestring[0] ||
		    strlen(v->valuestring) >= sizeof(k->meta))
			return bc_check_fail(c, path,
					     "expected the name of a stream with \"kv\": "
					     "\"meta\"");
		snprintf(k->meta, sizeof(k->meta), "%s", v->valuestring);
	}
	if (ret)
		return ret;
	k->role = BC_KV_CLASS;
	return 0;
}

int bc_kv_check_stream(struct bc_check *c, const char *path, const cJSON *v, struct bc_stream *st)
{
	char shown[BC_CHECK_SHOW_LEN];

	memset(&st->kv, 0, sizeof(st->kv));
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "meta")) {
		st->kv.role = BC_KV_LOG;
		return 0;
	}
	if (!cJSON_IsObject(v))
		return bc_check_fail(c, path,
				     "expected a class {\"stores\": ..., \"capacity\": ...} or "
				     "\"meta\" (a metadata log), got %s",
				     bc_check_show(v, shown));
	return s_class(c, path, v, &st->kv);
}

cJSON *bc_kv_stream_json(const struct bc_stream *st)
{
	const struct bc_kv_class *k = &st->kv;
	char dist[64];
	cJSON *o;

	if (k->role == BC_KV_LOG)
		return cJSON_CreateString("meta");
	if (k->role != BC_KV_CLASS)
		return NULL;
	o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "workers", k->workers);
	/* a trace's classes have no record counts or capacity: written only when given */
	if (k->stores)
		cJSON_AddNumberToObject(o, "stores", (double)k->stores);
	cJSON_AddNumberToObject(o, "prefetches", (double)k->prefetches);
	if (k->capacity_pct > 0) {
		char pct[40];

		snprintf(pct, sizeof(pct), "%.17g%%", k->capacity_pct);
		cJSON_AddStringToObject(o, "capacity", pct);
	} else if (k->capacity) {
		cJSON_AddNumberToObject(o, "capacity", (double)k->capacity);
	}
	cJSON_AddStringToObject(o, "popularity",
				bc_dist_format(&k->popularity, dist, sizeof(dist)));
	if (k->store_rate > 0)
		cJSON_AddNumberToObject(o, "store_rate", k->store_rate);
	if (k->meta[0])
		cJSON_AddStringToObject(o, "meta", k->meta);
	return o;
}

int bc_kv_check(struct bc_check *c, const char *path, const cJSON *v, struct bc_workload *wl)
{
	char p2[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *x;
	int ret, i;

	memset(&wl->kv, 0, sizeof(wl->kv));
	ret = bc_check_object(c, path, v);
	if (!ret)
		ret = bc_check_keys(c, v, path, s_kv_keys);
	if (!ret)
		ret = bc_check_item(c, v, path, "trim", false, p2, &x);
	if (!ret && x) {
		if (cJSON_IsBool(x)) {
			wl->kv.trim = cJSON_IsTrue(x) ? BC_KV_TRIM_ON : BC_KV_TRIM_OFF;
		} else if (cJSON_IsString(x)) {
			for (i = 0; i < 3 && strcmp(x->valuestring, s_trim_names[i]); i++)
				;
			if (i == 3)
				return bc_check_fail(c, p2,
						     "expected \"auto\", true or false, got %s",
						     bc_check_show(x, shown));
			wl->kv.trim = (uint8_t)i;
		} else {
			return bc_check_fail(c, p2, "expected \"auto\", true or false, got %s",
					     bc_check_show(x, shown));
		}
	}
	if (!ret)
		ret = bc_check_item(c, v, path, "pace", false, p2, &x);
	if (!ret && x)
		ret = bc_check_duration(c, p2, x, 1, &wl->kv.pace_s);
	if (!ret)
		ret = bc_check_item(c, v, path, "max_io", false, p2, &x);
	if (!ret && x) {
		uint64_t b;

		ret = bc_check_size(c, p2, x, &b);
		if (!ret && (b < 4096 || b > (1u << 30) || b % 512))
			return bc_check_fail(
			    c, p2, "expected a multiple of 512 bytes from 4k to 1g, got %llu",
			    (unsigned long long)b);
		wl->kv.max_io = (uint32_t)b;
	}
	if (!ret)
		ret = bc_check_item(c, v, path, "trace", false, p2, &x);
	if (!ret && x) {
		ret = bc_check_str(c, p2, x, sizeof(wl->kv.trace));
		if (!ret)
			snprintf(wl->kv.trace, sizeof(wl->kv.trace), "%s", x->valuestring);
	}
	if (!ret)
		wl->kv.given = true;
	return ret;
}

bool bc_kv_to_json(cJSON *obj, const struct bc_workload *wl)
{
	cJSON *o;

	if (!wl->kv.given && !bc_workload_kv(wl))
		return true;
	o = cJSON_AddObjectToObject(obj, "kv");
	if (!o)
		return false;
	if (wl->kv.trim == BC_KV_TRIM_AUTO)
		cJSON_AddStringToObject(o, "trim", "auto");
	else
		cJSON_AddBoolToObject(o, "trim", wl->kv.trim == BC_KV_TRIM_ON);
	if (wl->kv.pace_s)
		cJSON_AddNumberToObject(o, "pace", wl->kv.pace_s);
	if (wl->kv.max_io)
		cJSON_AddNumberToObject(o, "max_io", wl->kv.max_io);
	if (wl->kv.trace[0])
		cJSON_AddStringToObject(o, "trace", wl->kv.trace);
	return true;
}

int bc_kv_meta_index(const struct bc_workload *wl, const struct bc_stream *st)
{
	uint32_t i;

	if (!st->kv.meta[0])
		return -1;
	for (i = 0; i < wl->nstreams; i++)
		if (!strcmp(wl->streams[i].name, st->kv.meta) &&
		    wl->streams[i].kv.role == BC_KV_LOG)
			return (int)i;
	return -1;
}

double bc_kv_store_rate(const struct bc_workload *wl, const struct bc_stream *st)
{
	if (st->kv.role != BC_KV_CLASS)
		return 0;
	if (st->kv.store_rate > 0)
		return st->kv.store_rate;
	return wl->kv.pace_s ? (double)st->kv.stores / wl->kv.pace_s : 0;
}

bool bc_kv_paced(const struct bc_workload *wl)
{
	uint32_t i;

	for (i = 0; i < wl->nstreams; i++)
		if (bc_kv_store_rate(wl, &wl->streams[i]) > 0)
			return true;
	return false;
}

int bc_kv_job_class(const struct bc_workload *wl, unsigned job, unsigned *worker)
{
	unsigned first = 0;
	uint32_t i;

	for (i = 0; i < wl->nstreams; i++) {
		const struct bc_kv_class *k = &wl->streams[i].kv;

		if (k->role != BC_KV_CLASS)
			continue;
		if (job < first + k->workers) {
			*worker = job - first;
			return (int)i;
		}
		first += k->workers;
	}
	return -1;
}

int bc_kv_log_writer(const struct bc_workload *wl, int log, unsigned job, unsigned *idx,
		     unsigned *n)
{
	unsigned first = 0, count = 0;
	int found = -1;
	uint32_t i;

	for (i = 0; i < wl->nstreams; i++) {
		const struct bc_stream *st = &wl->streams[i];

		if (st->kv.role != BC_KV_CLASS)
			continue;
		if (bc_kv_meta_index(wl, st) == log) {
			if (job >= first && job < first + st->kv.workers) {
				*idx = count + (job - first);
				found = 0;
			}
			count += st->kv.workers;
		}
		first += st->kv.workers;
	}
	*n = count;
	return found;
}

int bc_kv_rules(struct bc_check *c, const char *base, const struct bc_workload *wl)
{
	char path[BC_CHECK_PATH_LEN];
	unsigned workers = 0, nclass = 0;
	uint32_t i;

	if (!bc_workload_kv(wl)) {
		if (!wl->kv.given)
			return 0;
		bc_check_path(path, base, "kv");
		return bc_check_fail(c, path,
				     "no stream is a KV class: give a stream \"kv\": {\"stores\": "
				     "..., \"capacity\": ...}");
	}
	for (i = 0; i < wl->nstreams; i++) {
		const struct bc_stream *st = &wl->streams[i];

		snprintf(path, sizeof(path), "%s%sstreams[%u]", base, *base ? "." : "", i);
		if (st->kv.role == BC_KV_NONE)
			return bc_check_fail(c, path,
					     "\"%s\": in a KV workload every stream is an object "
					     "class (\"kv\": {...}) or a metadata log (\"kv\": "
					     "\"meta\")",
					     st->name);
		if (st->nbssplit)
			return bc_check_fail(c, path,
					     "\"%s\": one bs (the object or record size), not a "
					     "split",
					     st->name);
		if (st->kv.role != BC_KV_CLASS)
			continue;
		nclass++;
		workers += st->kv.workers;
		if (st->kv.meta[0] && bc_kv_meta_index(wl, st) < 0)
			return bc_check_fail(c, path,
					     "\"%s\": kv.meta \"%s\" is no stream of this workload "
					     "with \"kv\": \"meta\"",
					     st->name, st->kv.meta);
		if (wl->kv.trace[0])
			continue; /* the trace says what is stored, read and evicted */
		if (!st->kv.stores || !(st->kv.capacity || st->kv.capacity_pct > 0))
			return bc_check_fail(
			    c, path,
			    "\"%s\": kv.%s is required (without a \"kv\".\"trace\", "
			    "the class is generated from it)",
			    st->name, !st->kv.stores ? "stores" : "capacity");
		if (st->kv.capacity && st->kv.capacity / st->kv.workers < st->bs)
			return bc_check_fail(c, path,
					     "\"%s\": kv.capacity %llu bytes over %u workers holds "
					     "less than one %u-byte object each",
					     st->name, (unsigned long long)st->kv.capacity,
					     st->kv.workers, st->bs);
		if (st->kv.stores < st->kv.workers)
			return bc_check_fail(
			    c, path, "\"%s\": kv.stores %llu is fewer than its %u workers",
			    st->name, (unsigned long long)st->kv.stores, st->kv.workers);
	}
	if (!nclass) {
		bc_check_path(path, base, "streams");
		return bc_check_fail(c, path, "a KV workload needs at least one object class");
	}
	if (wl->numjobs != workers) {
		bc_check_path(path, base, "numjobs");
		return bc_check_fail(c, path,
				     "%u, but the KV classes have %u workers in all: numjobs is "
				     "their sum (each job works for one class)",
				     wl->numjobs, workers);
	}
	if (wl->jobs) {
		bc_check_path(path, base, "jobs");
		return bc_check_fail(c, path,
				     "not with a KV workload (every job works for its class: "
				     "give the classes' \"workers\")");
	}
	if (wl->rate_iops || wl->rate_bw || wl->thinktime_us || wl->rate_iops_dir[0] ||
	    wl->rate_iops_dir[1] || wl->rate_bw_dir[0] || wl->rate_bw_dir[1]) {
		bc_check_path(path, base, wl->thinktime_us ? "thinktime" : "rate_iops");
		return bc_check_fail(c, path,
				     "not with a KV workload (a class's \"store_rate\" or the "
				     "\"kv\".\"pace\" paces its records)");
	}
	if (wl->verify || wl->size_based || wl->io_size || wl->passes) {
		bc_check_path(path, base,
			      wl->verify       ? "verify"
			      : wl->size_based ? "size_based"
			      : wl->io_size    ? "io_size"
					       : "passes");
		return bc_check_fail(c, path,
				     "not with a KV workload (its records end the step; nothing "
				     "is verified)");
	}
	return 0;
}

/* FNV-1a: a key's hash (the worker it goes to, the slot map's key) */
static uint64_t s_fnv1a(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (uint8_t)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static int s_trace_class(const struct bc_workload *wl, const char *name, size_t n)
{
	uint32_t i;

	for (i = 0; i < wl->nstreams; i++)
		if (wl->streams[i].kv.role == BC_KV_CLASS && strlen(wl->streams[i].name) == n &&
		    !strncmp(wl->streams[i].name, name, n))
			return (int)i;
	return -1;
}

/* "store" | "prefetch" | "evict" */
static int s_trace_op(const char *s, size_t n)
{
	static const char *const ops[] = {"store", "prefetch", "evict"};
	int i;

	for (i = 0; i < 3; i++)
		if (strlen(ops[i]) == n && !strncmp(ops[i], s, n))
			return i;
	return -1;
}

/* one CSV line: time,class,op,key,bytes; 1 parsed, 0 a header, -EINVAL with why */
static int s_trace_csv(const char *line, const struct bc_workload *wl, struct bc_kv_trace_rec *r,
		       char *why, size_t wlen)
{
	const char *f[5], *p = line;
	size_t len[5];
	char num[64], *end;
	double t;
	int n = 0;

	while (n < 5) {
		const char *c = strchr(p, ',');

		f[n] = p;
		len[n] = c ? (size_t)(c - p) : strcspn(p, "\r\n");
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	if (n != 5 || strchr(p, ',')) {
		snprintf(why, wlen, "expected 5 fields (time,class,op,key,bytes)");
		return -EINVAL;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(len[0] < 63 ? len[0] : 63), f[0]);
	t = strtod(num, &end);
	if (end == num || *end) {
		if (!strncmp(f[0], "time", len[0])) /* a header line */
			return 0;
		snprintf(why, wlen, "time: expected seconds >= 0");
		return -EINVAL;
	}
	r->t_s = t;
	r->cls = s_trace_class(wl, f[1], len[1]);
	r->op = s_trace_op(f[2], len[2]);
	r->key = s_fnv1a(f[3], len[3]);
	snprintf(num, sizeof(num), "%.*s", (int)(len[4] < 63 ? len[4] : 63), f[4]);
	r->bytes = strtoull(num, &end, 10);
	if (end == num || *end || num[0] == '-') {
		snprintf(why, wlen, "bytes: expected an integer >= 0");
		return -EINVAL;
	}
	if (r->cls < 0)
		snprintf(why, wlen, "class \"%.*s\" is no KV class of the workload", (int)len[1],
			 f[1]);
	else if (r->op < 0)
		snprintf(why, wlen, "op \"%.*s\": expected store, prefetch or evict", (int)len[2],
			 f[2]);
	return r->cls < 0 || r->op < 0 ? -EINVAL : 1;
}

/* one JSON line: {"time": s, "class": ..., "op": ..., "key": ..., "bytes": n} */
static int s_trace_json(const char *line, const struct bc_workload *wl, struct bc_kv_trace_rec *r,
			char *why, size_t wlen)
{
	cJSON *o = cJSON_Parse(line);
	const cJSON *t, *c, *op, *k, *b;
	char key[64];
	int ret = -EINVAL;

	t = cJSON_GetObjectItemCaseSensitive(o, "time");
	c = cJSON_GetObjectItemCaseSensitive(o, "class");
	op = cJSON_GetObjectItemCaseSensitive(o, "op");
	k = cJSON_GetObjectItemCaseSensitive(o, "key");
	b = cJSON_GetObjectItemCaseSensitive(o, "bytes");
	if (!cJSON_IsObject(o) || !cJSON_IsNumber(t) || !cJSON_IsString(c) || !cJSON_IsString(op) ||
	    !(cJSON_IsString(k) || cJSON_IsNumber(k)) || (b && !cJSON_IsNumber(b))) {
		snprintf(why, wlen,
			 "expected {\"time\": seconds, \"class\": name, \"op\": name, \"key\": "
			 "string or number, \"bytes\": integer}");
		goto out;
	}
	r->t_s = t->valuedouble;
	r->cls = s_trace_class(wl, c->valuestring, strlen(c->valuestring));
	r->op = s_trace_op(op->valuestring, strlen(op->valuestring));
	if (cJSON_IsString(k))
		r->key = s_fnv1a(k->valuestring, strlen(k->valuestring));
	else {
		snprintf(key, sizeof(key), "%.17g", k->valuedouble);
		r->key = s_fnv1a(key, strlen(key));
	}
	r->bytes = b && b->valuedouble > 0 ? (uint64_t)b->valuedouble : 0;
	if (r->cls < 0)
		snprintf(why, wlen, "class \"%s\" is no KV class of the workload", c->valuestring);
	else if (r->op < 0)
		snprintf(why, wlen, "op \"%s\": expected store, prefetch or evict",
			 op->valuestring);
	else
		ret = 1;
out:
	cJSON_Delete(o);
	return ret;
}

int bc_kv_trace_read(const char *path, const struct bc_workload *wl,
		     int (*fn)(void *arg, const struct bc_kv_trace_rec *r), void *arg, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, why[200];
	size_t cap = 0;
	double last = 0;
	unsigned lineno = 0;
	ssize_t n;
	int ret = 0, got;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "kv.trace %s: %s", path, strerror(-ret));
		return ret;
	}
	while (!ret && (n = getline(&line, &cap, f)) >= 0) {
		struct bc_kv_trace_rec r = {0};
		const char *p = line;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n' || *p == '\r' || *p == '#')
			continue;
		if (strlen(p) != (size_t)n - (size_t)(p - line)) {
			snprintf(err, errlen, "%s:%u: a NUL byte (not a text trace)", path, lineno);
			ret = -EINVAL;
			break;
		}
		got = *p == '{' ? s_trace_json(p, wl, &r, why, sizeof(why))
				: s_trace_csv(p, wl, &r, why, sizeof(why));
		if (!got)
			continue;
		if (got > 0 && (r.t_s < last || !(r.t_s >= 0) || r.t_s > 1e9)) {
			snprintf(why, sizeof(why), "time %g: expected seconds >= %g (in order)",
				 r.t_s, last);
			got = -EINVAL;
		}
		if (got > 0 && r.bytes > wl->streams[r.cls].bs) {
			snprintf(why, sizeof(why),
				 "bytes %llu exceed the class's object size %u (its bs)",
				 (unsigned long long)r.bytes, wl->streams[r.cls].bs);
			got = -EINVAL;
		}
		if (got > 0 && r.op == BC_KV_TR_STORE && !r.bytes) {
			snprintf(why, sizeof(why), "a store needs bytes > 0");
			got = -EINVAL;
		}
		if (got < 0) {
			snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
			ret = -EINVAL;
			break;
		}
		last = r.t_s;
		r.line = lineno;
		ret = fn(arg, &r);
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "kv.trace %s: read error", path);
		ret = -EIO;
	}
	free(line);
	fclose(f);
	return ret;
}

/* a trace's records counted, for the coordinator's check */
static int s_trace_count(void *arg, const struct bc_kv_trace_rec *r)
{
	(void)r;
	(*(uint64_t *)arg)++;
	return 0;
}

int bc_kv_trace_check(const char *path, const struct bc_workload *wl, uint64_t *records, char *err,
		      size_t errlen)
{
	*records = 0;
	return bc_kv_trace_read(path, wl, s_trace_count, records, err, errlen);
}
