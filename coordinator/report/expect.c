/*
 * report/expect.c - the profile's acceptance criteria evaluated on run.json:
 * each "expect" entry becomes PASS or FAIL with the measured value. A step
 * that did not run, failed, or has no figure for the metric FAILs with the
 * reason, so a criterion can never pass by absence.
 *
 * A step that ran as repetitions ("repeat": its run.json entries are
 * "<name>#1".. "<name>#N") is judged on the mean over its repetitions: that
 * is the figure summary.md gives for the step, and one unlucky repetition
 * of a noisy system should move the verdict by its share, not decide it.
 * Every repetition must have finished and measured the figure, and each
 * repetition's value is kept ("repetitions") so a spread is visible.
 */
#include <stdio.h>
#include <string.h>

#include "profile/expect.h"
#include "report/expect.h"
#include "report/parts/repeat.h"
#include "util/rjson.h"

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

/* the entity of scope (agent, node or the total) in a step */
static const cJSON *s_entity(const cJSON *step, const char *agent, const char *node)
{
	return agent  ? s_find(bc_rj(step, "agents"), agent)
	       : node ? s_find(bc_rj(step, "nodes"), node)
		      : bc_rj(step, "total");
}

/*
 * the mean of metric m over the repetitions of stepname into *v, each
 * repetition's value added to vals; false with the reason in detail when a
 * repetition did not finish or has no figure (the first such, by name).
 */
static bool s_rep_mean(const cJSON *run, const char *stepname, const char *agent, const char *node,
		       const struct bc_expect_metric *m, const char *scope, cJSON *vals, double *v,
		       char *detail, size_t len)
{
	const cJSON *st, *ent;
	double x, sum = 0;
	int n = 0;

	cJSON_ArrayForEach(st, bc_rj(run, "steps"))
	{
		const char *name = bc_rj_str("", st, "name");

		if (!bc_rep_member(st, stepname))
			continue;
		ent = s_entity(st, agent, node);
		if (strcmp(bc_rj_str("", st, "status"), "ok")) {
			snprintf(detail, len, "repetition %s %s", name,
				 bc_rj_str("did not finish", st, "status"));
			return false;
		}
		if (!ent) {
			snprintf(detail, len, "no %s in %s in run.json", scope, name);
			return false;
		}
		if (!s_value(ent, m, &x)) {
			snprintf(detail, len, "no %s figure measured in %s", m->name, name);
			return false;
		}
		cJSON_AddItemToArray(vals, cJSON_CreateNumber(x));
		sum += x;
		n++;
	}
	*v = sum / n;
	return true;
}

/* step stepname, or one of its repetitions, ran on a contended client host */
static bool s_contended(const cJSON *run, const char *stepname)
{
	const cJSON *st;

	cJSON_ArrayForEach(st, bc_rj(run, "steps"))
	{
		if ((!strcmp(bc_rj_str("", st, "name"), stepname) || bc_rep_member(st, stepname)) &&
		    cJSON_IsTrue(bc_rj(st, "contended")))
			return true;
	}
	return false;
}

static cJSON *s_eval(const cJSON *x, const cJSON *run)
{
	const char *stepname = bc_rj_str("", x, "step"), *metric = bc_rj_str("", x, "metric");
	const char *agent = bc_rj_str(NULL, x, "agent"), *node = bc_rj_str(NULL, x, "node");
	const struct bc_expect_metric *m = bc_expect_metric_find(metric);
	const cJSON *step = s_find(bc_rj(run, "steps"), stepname), *ent;
	const cJSON *min = bc_rj(x, "min"), *max = bc_rj(x, "max");
	cJSON *o = cJSON_CreateObject();
	char scope[BC_NAME_MAX + 8] = "total", detail[512] = "";
	bool pass = false, got = false;
	double v = 0;
	int nrep = 0, nok;

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
	ent = s_entity(step, agent, node);
	if (!step)
		nrep = bc_rep_count(run, stepname, &nok);
	if (!m)
		snprintf(detail, sizeof(detail), "unknown metric");
	else if (nrep) {
		cJSON *vals = cJSON_CreateArray();

		got = s_rep_mean(run, stepname, agent, node, m, scope, vals, &v, detail,
				 sizeof(detail));
		cJSON_AddItemToObject(o, "repetitions", vals);
		if (got)
			snprintf(detail, sizeof(detail), "mean of %d repetitions", nrep);
	} else if (!step)
		snprintf(detail, sizeof(detail), "step did not run");
	else if (!ent)
		snprintf(detail, sizeof(detail), "no %s in run.json", scope);
	else if (!s_value(ent, m, &v))
		snprintf(detail, sizeof(detail), "no %s figure measured", metric);
	else if (strcmp(bc_rj_str("", step, "status"), "ok")) {
		/* figures of a step that did not finish are not a result */
		cJSON_AddNumberToObject(o, "value", v);
		snprintf(detail, sizeof(detail), "step %s",
			 bc_rj_str("did not finish", step, "status"));
	} else
		got = true;
	if (got) {
		cJSON_AddNumberToObject(o, "value", v);
		pass = (!cJSON_IsNumber(min) || v >= min->valuedouble) &&
		       (!cJSON_IsNumber(max) || v <= max->valuedouble);
	}
	cJSON_AddBoolToObject(o, "pass", pass);
	/* judged all the same, and said: on a contended host the figure is the host's */
	if (got && s_contended(run, stepname)) {
		size_t used = strlen(detail);

		cJSON_AddBoolToObject(o, "contended", true);
		snprintf(detail + used, sizeof(detail) - used,
			 "%sCONTENDED: measured on a client host whose CPU other processes held "
			 "(the figure is the host's, not the storage's)",
			 used ? "; " : "");
	}
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
