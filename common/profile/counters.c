/*
 * profile/counters.c - the node keys of the counter sources
 * (coordinator/counters/counters.h), beside "metrics" and "nic":
 *   "prometheus": {"url": "http://prom:9090",     a Prometheus server
 *                  "instance": "10.0.1.1:9100",  optional: the node's instance
 *                                                label (default: host:port of
 *                                                its first metrics URL)
 *                  "rate_window": "5s",          optional: rate() range, >= 2
 *                                                scrape intervals of the server
 *                  "lag": "2s"}                  optional: wait after a step's
 *                                                end before asking
 *   "series": [{"name": "gc_mbps", "promql": "... $instance ..."},
 *              {"name": "reactor_busy", "metric": "spdk_reactor_busy_total",
 *               "labels": {"lcore": "3"}, "rate": true, "scale": 1e-6}]
 *     a "promql" series needs "prometheus"; a "metric" series needs
 *     "metrics" and is the sum of the matching samples, per second when
 *     "rate" (default: the name ends in _total), times "scale" (default 1).
 *     "role" (profile/counters.h) says what the verdict makes of it; a
 *     "version" series is an info metric whose "label" holds the version.
 */
#include <stdio.h>
#include <string.h>

#include "figures/hostfig.h"
#include "profile/counters.h"
#include "profile/value/units.h"

static const char *const s_prom_keys[] = {"url", "instance", "rate_window", "lag", NULL};
static const char *const s_series_keys[] = {"name",  "promql", "metric", "labels", "rate",
					    "scale", "role",   "label",	 NULL};

const char *const bc_series_role_names[BC_ROLE_NR] = {
    [BC_ROLE_NONE] = "none",
    [BC_ROLE_GC_WRITE_BYTES] = "gc_write_bytes",
    [BC_ROLE_WAF] = "write_amplification",
    [BC_ROLE_JOURNAL_LATENCY] = "journal_latency",
    [BC_ROLE_CACHE_HIT_RATIO] = "cache_hit_ratio",
    [BC_ROLE_REACTOR_BUSY] = "reactor_busy",
    [BC_ROLE_VERSION] = "version",
};

static enum bc_series_role s_role(const char *name)
{
	int i;

	for (i = 1; name && i < BC_ROLE_NR; i++)
		if (!strcmp(name, bc_series_role_names[i]))
			return (enum bc_series_role)i;
	return BC_ROLE_NONE;
}

enum bc_series_role bc_series_role_of(const cJSON *node, const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(node, "series"))
	{
		const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "name"));

		if (n && name && !strcmp(n, name))
			return s_role(
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "role")));
	}
	return BC_ROLE_NONE;
}

/* "role" and "label"; each numeric role once per node (roles[] counts them) */
static int s_series_role(struct bc_check *c, const cJSON *s, const char *ipath, bool promql,
			 int *roles)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, "role"), *l;
	enum bc_series_role r = BC_ROLE_NONE;
	int i;

	l = cJSON_GetObjectItemCaseSensitive(s, "label");
	if (v) {
		bc_check_path(path, ipath, "role");
		r = cJSON_IsString(v) ? s_role(v->valuestring) : BC_ROLE_NONE;
		if (r == BC_ROLE_NONE) {
			char list[200] = "";

			for (i = 1; i < BC_ROLE_NR; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i > 1 ? ", " : "", bc_series_role_names[i]);
			return bc_check_fail(c, path, "expected one of %s, got %s", list,
					     bc_check_show(v, shown));
		}
		if (r == BC_ROLE_VERSION && promql)
			return bc_check_fail(c, path,
					     "a version is read from a metric's label: give "
					     "\"metric\", not \"promql\"");
		if (r != BC_ROLE_VERSION && roles[r]++)
			return bc_check_fail(c, path, "a second series with role \"%s\"",
					     bc_series_role_names[r]);
	}
	if (!l)
		return 0;
	bc_check_path(path, ipath, "label");
	if (r != BC_ROLE_VERSION)
		return bc_check_fail(c, path, "goes with \"role\": \"version\"");
	if (!cJSON_IsString(l) || !*l->valuestring || strlen(l->valuestring) > 63)
		return bc_check_fail(c, path, "expected a label name, got %s",
				     bc_check_show(l, shown));
	return 0;
}

static bool s_metric_name(const char *s)
{
	const char *p = s;

	if (!*p ||
	    !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == ':'))
		return false;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
		      *p == ':' || (*p >= '0' && *p <= '9')))
			return false;
	return p - s < 256;
}

static int s_duration(struct bc_check *c, const cJSON *obj, const char *base, const char *key)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	uint64_t ms;
	int ret;

	ret = bc_check_item(c, obj, base, key, false, path, &v);
	if (ret || !v)
		return ret;
	/* PromQL durations are strings with a unit ("5s", "1m"); a bare number is not one */
	if (!cJSON_IsString(v) || bc_parse_duration_ms(v->valuestring, &ms) || !ms ||
	    (v->valuestring[strlen(v->valuestring) - 1] >= '0' &&
	     v->valuestring[strlen(v->valuestring) - 1] <= '9'))
		return bc_check_fail(c, path,
				     "expected a duration with a unit such as \"5s\", got %s",
				     bc_check_show(v, shown));
	return 0;
}

static int s_prometheus(struct bc_check *c, const cJSON *item, const char *base)
{
	char path[BC_CHECK_PATH_LEN], p2[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *pr, *v;
	int ret;

	ret = bc_check_item(c, item, base, "prometheus", false, path, &pr);
	if (ret || !pr)
		return ret;
	ret = bc_check_object(c, path, pr);
	if (!ret)
		ret = bc_check_keys(c, pr, path, s_prom_keys);
	if (!ret)
		ret = bc_check_item(c, pr, path, "url", true, p2, &v);
	if (ret)
		return ret;
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= 1000 ||
	    (strncmp(v->valuestring, "http://", 7) && strncmp(v->valuestring, "https://", 8)))
		return bc_check_fail(c, p2, "expected an http:// or https:// URL, got %s",
				     bc_check_show(v, shown));
	ret = bc_check_item(c, pr, path, "instance", false, p2, &v);
	if (!ret && v)
		ret = bc_check_str(c, p2, v, 256);
	if (!ret)
		ret = s_duration(c, pr, path, "rate_window");
	if (!ret)
		ret = s_duration(c, pr, path, "lag");
	if (ret)
		return ret;
	if (!cJSON_GetObjectItemCaseSensitive(pr, "instance") &&
	    !cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(item, "metrics")))
		return bc_check_fail(c, path,
				     "needs \"instance\" (the node's instance label) when the "
				     "node has no metrics URL to take it from");
	return 0;
}

static int s_one_series(struct bc_check *c, const cJSON *item, const cJSON *s, const char *ipath,
			char (*names)[BC_NAME_MAX], int i, int *npromql, int *nmetric, int *roles)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v, *promql, *metric, *l;
	int ret, j;

	ret = bc_check_object(c, ipath, s);
	if (!ret)
		ret = bc_check_keys(c, s, ipath, s_series_keys);
	if (!ret)
		ret = bc_check_item(c, s, ipath, "name", true, path, &v);
	if (!ret)
		ret = bc_check_name(c, path, v, names[i]);
	if (ret)
		return ret;
	for (j = 0; j < i; j++)
		if (!strcmp(names[j], names[i]))
			return bc_check_fail(c, path, "duplicate series name \"%s\"", names[i]);
	promql = cJSON_GetObjectItemCaseSensitive(s, "promql");
	metric = cJSON_GetObjectItemCaseSensitive(s, "metric");
	if (!promql == !metric)
		return bc_check_fail(c, ipath, "expected exactly one of \"promql\" or \"metric\"");
	ret = s_series_role(c, s, ipath, promql != NULL, roles);
	if (ret)
		return ret;
	if (promql) {
		bc_check_path(path, ipath, "promql");
		if (!cJSON_IsString(promql) || !*promql->valuestring ||
		    strlen(promql->valuestring) > 1500)
			return bc_check_fail(c, path, "expected a PromQL expression, got %s",
					     bc_check_show(promql, shown));
		if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(item, "prometheus")))
			return bc_check_fail(c, path, "needs the node's \"prometheus\" server");
		for (j = 0; j < 3; j++)
			if (cJSON_GetObjectItemCaseSensitive(s, s_series_keys[3 + j]))
				return bc_check_fail(c, ipath, "\"%s\" goes with \"metric\"",
						     s_series_keys[3 + j]);
		return ++*npromql > BC_HF_CUSTOM
			   ? bc_check_fail(c, ipath, "at most %d promql series per node",
					   BC_HF_CUSTOM)
			   : 0;
	}
	bc_check_path(path, ipath, "metric");
	if (!cJSON_IsString(metric) || !s_metric_name(metric->valuestring))
		return bc_check_fail(c, path, "expected a Prometheus metric name, got %s",
				     bc_check_show(metric, shown));
	if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(item, "metrics")))
		return bc_check_fail(c, path, "needs the node's \"metrics\" URLs");
	ret = bc_check_item(c, s, ipath, "labels", false, path, &v);
	if (ret)
		return ret;
	if (v && !cJSON_IsObject(v))
		return bc_check_fail(c, path, "expected an object of label values, got %s",
				     bc_check_show(v, shown));
	cJSON_ArrayForEach(l, v) if (!cJSON_IsString(l)) return bc_check_fail(
	    c, path, "label \"%s\": expected a string, got %s", l->string, bc_check_show(l, shown));
	ret = bc_check_item(c, s, ipath, "rate", false, path, &v);
	if (!ret && v && !cJSON_IsBool(v))
		return bc_check_fail(c, path, "expected true or false, got %s",
				     bc_check_show(v, shown));
	ret = ret ? ret : bc_check_item(c, s, ipath, "scale", false, path, &v);
	if (!ret && v && (!cJSON_IsNumber(v) || v->valuedouble == 0))
		return bc_check_fail(c, path, "expected a non-zero number, got %s",
				     bc_check_show(v, shown));
	if (!ret && ++*nmetric > BC_HF_CUSTOM)
		return bc_check_fail(c, ipath, "at most %d metric series per node", BC_HF_CUSTOM);
	return ret;
}

int bc_check_node_counters(struct bc_check *c, const cJSON *item, const char *base)
{
	char path[BC_CHECK_PATH_LEN], ipath[BC_CHECK_PATH_LEN + 16], shown[BC_CHECK_SHOW_LEN];
	char names[2 * BC_HF_CUSTOM][BC_NAME_MAX];
	const cJSON *arr, *s;
	int ret, i = 0, npromql = 0, nmetric = 0, roles[BC_ROLE_NR] = {0};

	ret = s_prometheus(c, item, base);
	if (!ret)
		ret = bc_check_item(c, item, base, "series", false, path, &arr);
	if (ret || !arr)
		return ret;
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > 2 * BC_HF_CUSTOM)
		return bc_check_fail(c, path, "expected a list of at most %d series, got %s",
				     2 * BC_HF_CUSTOM, bc_check_show(arr, shown));
	cJSON_ArrayForEach(s, arr)
	{
		snprintf(ipath, sizeof(ipath), "%s[%d]", path, i);
		ret = s_one_series(c, item, s, ipath, names, i, &npromql, &nmetric, roles);
		if (ret)
			return ret;
		i++;
	}
	return 0;
}
