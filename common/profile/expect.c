/*
 * profile/expect.c - the profile's optional "expect" list: acceptance
 * criteria a PoV states up front ("read_gbps >= 24 on seq-read-1m"), checked
 * against run.json by the report writers. The metric table lives here so a
 * profile can only name what a report can evaluate. See profile/expect.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/expect.h"

/* the same ten figures for all ops, reads only and writes only */
#define S_OP_METRICS(pfx, op)                                                                      \
	{pfx "iops", op, "iops", NULL, 1, "IOPS"}, {pfx "mbps", op, "mbps", NULL, 1, "MB/s"},      \
	    {pfx "gbps", op, "mbps", NULL, 1e-3, "GB/s"},                                          \
	    {pfx "mean_ms", op, "lat_us", "mean", 1e-3, "ms"},                                     \
	    {pfx "p50_ms", op, "lat_us", "p50", 1e-3, "ms"},                                       \
	    {pfx "p90_ms", op, "lat_us", "p90", 1e-3, "ms"},                                       \
	    {pfx "p99_ms", op, "lat_us", "p99", 1e-3, "ms"},                                       \
	    {pfx "p99.9_ms", op, "lat_us", "p99.9", 1e-3, "ms"},                                   \
	    {pfx "p99.99_ms", op, "lat_us", "p99.99", 1e-3, "ms"},                                 \
	    {pfx "max_ms", op, "lat_us", "max", 1e-3, "ms"},                                       \
	/* "errors" counts failed and short I/Os together */                                       \
	{                                                                                          \
		pfx "errors", op, "errors", NULL, 1, ""                                            \
	}

const struct bc_expect_metric bc_expect_metrics[] = {
    S_OP_METRICS("", NULL),
    S_OP_METRICS("read_", "read"),
    S_OP_METRICS("write_", "write"),
    {NULL, NULL, NULL, NULL, 0, NULL},
};

static const char *const s_expect_keys[] = {"step", "metric", "min", "max", "agent", "node", NULL};

const struct bc_expect_metric *bc_expect_metric_find(const char *name)
{
	const struct bc_expect_metric *m;

	for (m = bc_expect_metrics; name && m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

/* "iops, mbps, ..." of the all-ops metrics: the read_/write_ forms are implied */
static void s_metric_list(char *buf, size_t len)
{
	const struct bc_expect_metric *m;
	size_t used = 0;

	buf[0] = '\0';
	for (m = bc_expect_metrics; m->name && !m->op && used < len; m++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", m->name);
}

static int s_bound(struct bc_check *c, const cJSON *item, const char *base, const char *key,
		   bool *has, double *out)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	int ret;

	ret = bc_check_item(c, item, base, key, false, path, &v);
	if (ret || !v)
		return ret;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return bc_check_fail(c, path, "expected a number, got %s", bc_check_show(v, shown));
	*has = true;
	*out = v->valuedouble;
	return 0;
}

/* agent or node name that must be declared in the profile */
static int s_scope(struct bc_check *c, const cJSON *item, const char *base,
		   const struct bc_profile *p, struct bc_expect *e)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *a, *n;
	int i, ret;

	ret = bc_check_item(c, item, base, "agent", false, path, &a);
	if (!ret)
		ret = bc_check_item(c, item, base, "node", false, path, &n);
	if (ret || (!a && !n))
		return ret;
	if (a && n)
		return bc_check_fail(c, base, "give \"agent\" or \"node\", not both");
	bc_check_path(path, base, a ? "agent" : "node");
	if (!cJSON_IsString(a ? a : n))
		return bc_check_fail(c, path, "expected a name, got %s",
				     bc_check_show(a ? a : n, shown));
	e->scope = a ? BC_EXPECT_AGENT : BC_EXPECT_NODE;
	snprintf(e->entity, sizeof(e->entity), "%s", (a ? a : n)->valuestring);
	for (i = 0; a && i < p->nagents; i++)
		if (!strcmp(p->agents[i].name, a->valuestring))
			return 0;
	for (i = 0; n && i < p->nnodes; i++)
		if (!strcmp(p->nodes[i].name, n->valuestring))
			return 0;
	return bc_check_fail(c, path, "unknown %s %s", a ? "agent" : "node",
			     bc_check_show(a ? a : n, shown));
}

/* expect[i], i = p->nexpects (bc_check_list) */
static int s_parse_one(struct bc_check *c, const cJSON *item, const char *base, void *arg)
{
	struct bc_profile *p = arg;
	struct bc_expect *e = &p->expects[p->nexpects];
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN], list[400];
	const cJSON *v;
	int i, ret;

	ret = bc_check_entry(c, item, base, s_expect_keys, "step", path, &v);
	if (ret)
		return ret;
	for (i = 0; cJSON_IsString(v) && i < p->nsteps; i++)
		if (!strcmp(p->steps[i].name, v->valuestring))
			break;
	if (!cJSON_IsString(v) || i == p->nsteps)
		return bc_check_fail(c, path, "expected the name of a declared step, got %s",
				     bc_check_show(v, shown));
	snprintf(e->step, sizeof(e->step), "%s", v->valuestring);

	ret = bc_check_item(c, item, base, "metric", true, path, &v);
	if (ret)
		return ret;
	if (!cJSON_IsString(v) || !bc_expect_metric_find(v->valuestring)) {
		s_metric_list(list, sizeof(list));
		return bc_check_fail(c, path,
				     "unknown metric %s (known: %s; each also as read_* "
				     "and write_*)",
				     bc_check_show(v, shown), list);
	}
	snprintf(e->metric, sizeof(e->metric), "%s", v->valuestring);

	ret = s_bound(c, item, base, "min", &e->has_min, &e->min);
	if (!ret)
		ret = s_bound(c, item, base, "max", &e->has_max, &e->max);
	if (ret)
		return ret;
	if (!e->has_min && !e->has_max)
		return bc_check_fail(c, base, "give \"min\", \"max\" or both");
	if (e->has_min && e->has_max && e->min > e->max)
		return bc_check_fail(c, base, "min %g is above max %g", e->min, e->max);
	return s_scope(c, item, base, p, e);
}

int bc_profile_parse_expect(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	return bc_check_list(c, root, "expect", false, sizeof(*p->expects), (void **)&p->expects,
			     &p->nexpects, s_parse_one, p);
}

cJSON *bc_profile_expect_json(const struct bc_profile *p)
{
	cJSON *arr = cJSON_CreateArray();
	int i;

	for (i = 0; arr && i < p->nexpects; i++) {
		const struct bc_expect *e = &p->expects[i];
		cJSON *o = cJSON_CreateObject();
		bool ok;

		ok = o && cJSON_AddItemToArray(arr, o) &&
		     cJSON_AddStringToObject(o, "step", e->step) &&
		     cJSON_AddStringToObject(o, "metric", e->metric);
		if (ok && e->scope != BC_EXPECT_TOTAL)
			ok = cJSON_AddStringToObject(
			    o, e->scope == BC_EXPECT_AGENT ? "agent" : "node", e->entity);
		if (ok && e->has_min)
			ok = cJSON_AddNumberToObject(o, "min", e->min);
		if (ok && e->has_max)
			ok = cJSON_AddNumberToObject(o, "max", e->max);
		if (!ok) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}
