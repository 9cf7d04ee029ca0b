/*
 * profile/expect.h - a profile's acceptance criteria ("expect") and the metrics
 * they may name. Parsed with the profile (profile/expect.c), evaluated by
 * the report writers against run.json, so one table here fixes both the
 * names a profile may use and where each value lives in run.json.
 *
 *   "expect": [{"step": "seq-read-1m", "metric": "read_gbps", "min": 24},
 *              {"step": "rand-4k", "metric": "p99_ms", "max": 2, "agent": "c-04"}]
 * step (required) names a declared step; metric (required) is one of
 * bc_expect_metrics; at least one of min/max; agent or node (optional, not
 * both) narrows the scope from the total to one client host or storage node.
 * The parser's side (read into the profile, written back) is at the end.
 */
#ifndef BC_PROFILE_EXPECT_H
#define BC_PROFILE_EXPECT_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "profile/spec.h"
#include "profile/value/check.h"

enum bc_expect_scope { BC_EXPECT_TOTAL = 0, BC_EXPECT_AGENT, BC_EXPECT_NODE };

struct bc_expect {
	char step[BC_NAME_MAX];
	char metric[BC_NAME_MAX];
	enum bc_expect_scope scope;
	char entity[BC_NAME_MAX]; /* agent or node name; empty for the total */
	bool has_min, has_max;
	double min, max; /* in the metric's unit */
};

/*
 * Where a metric's value is in a run.json entity (steps[].total,
 * steps[].agents[i], steps[].nodes[i]): entity[op][key] or entity[key]
 * when op is NULL, with key "lat_us" meaning entity[op].lat_us[lat]. The
 * value in the metric's unit is the run.json number times scale.
 */
struct bc_expect_metric {
	const char *name; /* as written in profiles: "read_mbps" */
	const char *op;	  /* "read", "write" or NULL for all ops */
	const char *key;  /* "iops", "mbps", "errors" or "lat_us" */
	const char *lat;  /* percentile key under lat_us ("p99", "mean", "max"), or NULL */
	double scale;	  /* run.json value -> unit */
	const char *unit; /* for reports: "IOPS", "MB/s", "GB/s", "ms", "" */
};

/* NULL-name terminated */
extern const struct bc_expect_metric bc_expect_metrics[];

/* the metric called name, or NULL */
const struct bc_expect_metric *bc_expect_metric_find(const char *name);

/* root.expect into p->expects (after steps, agents, nodes) */
int bc_profile_parse_expect(struct bc_check *c, const cJSON *root, struct bc_profile *p);

/* p->expects as the profile's "expect" array; caller owns it, NULL without memory */
cJSON *bc_profile_expect_json(const struct bc_profile *p);

#endif
