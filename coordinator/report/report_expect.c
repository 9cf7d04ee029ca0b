/*
 * report_expect.c - the profile's acceptance criteria evaluated on run.json:
 * each "expect" entry becomes PASS or FAIL with the measured value. A step
 * that did not run, failed, or has no figure for the metric FAILs with the
 * reason, so a criterion can never pass by absence.
 */
#include <string.h>

#include "bc_expect.h"
#include "bc_report.h"

static const cJSON *s_find(const cJSON *arr, const char *name)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, arr) if (!strcmp(bc_rj_str("", e, "name"), name)) return e;
	return NULL;
}

/* the value of metric m in entity e; false when run.json has no such figure */
static bool s_value(const cJSON *e, const struct bc_expect_metric *m, double *v)
{
	const cJSON *o = m->op ? bc_rj(e, m->op) : e;

	if (!o) {
		/* no I/O of that kind: zero throughput and errors, but no latency */
		*v = 0;
		return !m->lat && bc_rj(e, "ios");
	}
	if (m->lat) {
		const cJSON *x = bc_rj(o, "lat_us", m->lat);

		if (!cJSON_IsNumber(x) || !bc_rj_num(o, "ios"))
			return false;
		*v = x->valuedouble * m->scale;
		return true;
	}
	if (!cJSON_IsNumber(bc_rj(o, m->key)))
		return false;
	*v = bc_rj_num(o, m->key) * m->scale;
	if (!strcmp(m->key, "errors"))
		*v += bc_rj_num(o, "short");
	return true;
}

static cJSON *s_eval(const cJSON *x, const cJSON *run)
{
	const char *stepname = bc_rj_str("", x, "step"), *metric = bc_rj_str("", x, "metric");
	const char *agent = bc_rj_str(NULL, x, "agent"), *node = bc_rj_str(NULL, x, "node");
	const struct bc_expect_metric *m = bc_expect_metric_find(metric);
	const cJSON *step = s_find(bc_rj(run, "steps"), stepname), *ent;
	const cJSON *min = bc_rj(x, "min"), *max = bc_rj(x, "max");
	cJSON *o = cJSON_CreateObject();
	char scope[BC_NAME_MAX + 8] = "total", detail[256] = "";
	bool pass = false;
	double v = 0;

	if (agent)
		snprintf(scope, sizeof(scope), "agent %s", agent);
	else if (node)
		snprintf(scope, sizeof(scope), "node %s", node);
	cJSON_AddStringToObject(o, "step", stepname);
	cJSON_AddStringToObject(o, "metric", metric);
	cJSON_AddStringToObject(o, "scope", scope);
	cJSON_AddStringToObject(o, "unit", m ? m->unit : "");
	if (cJSON_IsNumber(min))
		cJSON_AddNumberToObject(o, "min", min->valuedouble);
	if (cJSON_IsNumber(max))
		cJSON_AddNumberToObject(o, "max", max->valuedouble);
	ent = agent  ? s_find(bc_rj(step, "agents"), agent)
	      : node ? s_find(bc_rj(step, "nodes"), node)
		     : bc_rj(step, "total");
	if (!m)
		snprintf(detail, sizeof(detail), "unknown metric");
	else if (!step)
		snprintf(detail, sizeof(detail), "step did not run");
	else if (!ent)
		snprintf(detail, sizeof(detail), "no %s in run.json", scope);
	else if (!s_value(ent, m, &v))
		snprintf(detail, sizeof(detail), "no %s figure measured", metric);
	else {
		cJSON_AddNumberToObject(o, "value", v);
		pass = (!cJSON_IsNumber(min) || v >= min->valuedouble) &&
		       (!cJSON_IsNumber(max) || v <= max->valuedouble);
		/* figures of a step that did not finish are not a result */
		if (strcmp(bc_rj_str("", step, "status"), "ok")) {
			snprintf(detail, sizeof(detail), "step %s",
				 bc_rj_str("did not finish", step, "status"));
			pass = false;
		}
	}
	cJSON_AddBoolToObject(o, "pass", pass);
	if (detail[0])
		cJSON_AddStringToObject(o, "detail", detail);
	return o;
}

cJSON *bc_report_expect_eval(const cJSON *profile, const cJSON *run)
{
	cJSON *out = cJSON_CreateArray();
	const cJSON *x;

	cJSON_ArrayForEach(x, bc_rj(profile, "expect")) cJSON_AddItemToArray(out, s_eval(x, run));
	return out;
}
