/*
 * results/fdp.c - what an FDP experiment's steps add up to (results/fdp.h): per
 * mode the measurement iterations' device counters summed (WAF = media /
 * host over all of them, never an average of ratios), the read and write
 * p50/p99 of their merged histograms (never averaged either), the verdict
 * of each expected direction, whether the device reached garbage collection
 * at all (seed 000: WAF 1.016 in every mode meant it never did), and the
 * comparison with a reference run. Reads run.json step entries only, so
 * `bench-coord report` rebuilds it the same.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/ci.h"
#include "results/fdp.h"
#include "results/kv.h"
#include "util/rjson.h"
#include "wire/hist.h"

/* round to 4 decimals: WAF differences of 0.1% must survive */
static double s_r4(double v)
{
	return round(v * 10000.0) / 10000.0;
}

/*
 * The mean of a mode's per-iteration WAFs and its 95% interval (Student t:
 * iterations are separate steps). The mode's "waf" stays the ratio of the
 * summed counters; this says how much it moves from iteration to iteration.
 */
static int s_iter_ci(const cJSON *mode, struct bc_ci *ci)
{
	double v[1024];
	const cJSON *it;
	int n = 0;

	cJSON_ArrayForEach(it, bc_rj(mode, "waf_iterations"))
	{
		if (cJSON_IsNumber(it) && n < 1024)
			v[n++] = it->valuedouble;
	}
	return n ? bc_ci_mean(v, n, 0.95, ci) : -ENODATA;
}

static void s_add_iter_ci(cJSON *mode)
{
	struct bc_ci ci;
	cJSON *o;

	if (s_iter_ci(mode, &ci))
		return;
	o = cJSON_AddObjectToObject(mode, "waf_ci");
	cJSON_AddNumberToObject(o, "iterations", ci.n);
	cJSON_AddNumberToObject(o, "mean", s_r4(ci.mean));
	if (isnan(ci.half)) {
		cJSON_AddNullToObject(o, "lo");
		cJSON_AddNullToObject(o, "hi");
	} else {
		cJSON_AddNumberToObject(o, "lo", s_r4(ci.lo));
		cJSON_AddNumberToObject(o, "hi", s_r4(ci.hi));
	}
	cJSON_AddNumberToObject(o, "level", 0.95);
}

/* the two WAF sources of seed 000: OCP C0 over SMART (its official one), FDP statistics */
enum { S_OCP = 0, S_FDP, S_NSRC };
static const char *const s_src[S_NSRC] = {"ocp_c0", "fdp"};

/* device counters of one step entry, over every agent's volumes */
struct s_counters {
	int nvol;
	double host[S_NSRC], media[S_NSRC];
	int navail[S_NSRC];
	char status[S_NSRC][160]; /* the first volume's status that is not "available" */
	double gc_copy;		  /* simulator only: GC copies (bytes) */
	bool have_sim;
	double erased; /* FDP statistics MBE: what the device erased (bytes) */
	bool have_mbe;
};

/*
 * true when an earlier volume of the step reported the same device: its
 * logs are per controller / endurance group, so its deltas count once
 */
static bool s_seen_device(const cJSON *sj, const cJSON *vol)
{
	const char *dev = bc_rj_str(NULL, vol, "nvme", "device");
	const cJSON *agent, *v;

	if (!dev || !*dev)
		return false;
	cJSON_ArrayForEach(agent, bc_rj(sj, "agent_totals"))
	{
		cJSON_ArrayForEach(v, bc_rj(agent, "volumes"))
		{
			if (v == vol)
				return false;
			if (!strcmp(bc_rj_str("", v, "nvme", "device"), dev))
				return true;
		}
	}
	return false;
}

/* a volume's WAF from source k: its "wafs" entry, or (an older run.json) "waf" if it is k's */
static const cJSON *s_vol_waf(const cJSON *vol, int k)
{
	const cJSON *ws = bc_rj(vol, "nvme", "wafs"), *w = bc_rj(vol, "nvme", "waf");

	if (ws)
		return bc_rj(ws, s_src[k]);
	return !strcmp(bc_rj_str("", w, "source"), s_src[k]) ? w : NULL;
}

static void s_step_counters(const cJSON *sj, struct s_counters *c)
{
	const cJSON *agent, *vol;
	int k;

	memset(c, 0, sizeof(*c));
	cJSON_ArrayForEach(agent, bc_rj(sj, "agent_totals"))
	{
		cJSON_ArrayForEach(vol, bc_rj(agent, "volumes"))
		{
			if (s_seen_device(sj, vol))
				continue;
			c->nvol++;
			for (k = 0; k < S_NSRC; k++) {
				const cJSON *w = s_vol_waf(vol, k);
				const char *st = bc_rj_str(NULL, w, "status");

				if (st && !strcmp(st, "available")) {
					c->navail[k]++;
					c->host[k] += bc_rj_num(w, "host_bytes");
					c->media[k] += bc_rj_num(w, "media_bytes");
				} else if (!c->status[k][0]) {
					snprintf(
					    c->status[k], sizeof(c->status[k]), "%s",
					    st ? st
					    : !bc_rj(vol, "nvme")
						? "unavailable: no device counters (the volume "
						  "is neither an NVMe namespace nor a simulated "
						  "SSD)"
					    : w ? "unavailable"
					    : k ? "unavailable: no FDP statistics log"
						: "unavailable: no OCP C0 log (or no SMART)");
				}
			}
			if (bc_rj(vol, "nvme", "fdp", "mbe")) {
				c->have_mbe = true;
				c->erased += bc_rj_num(vol, "nvme", "fdp", "mbe");
			}
			if (bc_rj(vol, "nvme", "sim")) {
				c->have_sim = true;
				c->gc_copy += bc_rj_num(vol, "nvme", "sim", "gc_copy_bytes");
			}
		}
	}
}

static void s_add_pct(cJSON *o, const char *key, const struct bc_hist *h, double pct)
{
	if (h->count)
		cJSON_AddNumberToObject(o, key, s_r4((double)bc_hist_percentile(h, pct) / 1e6));
	else
		cJSON_AddNullToObject(o, key);
}

static bool s_of(const cJSON *sj, const char *name, const char *mode)
{
	return !strcmp(bc_rj_str("", sj, "experiment_of"), name) &&
	       !strcmp(bc_rj_str("", sj, "mode"), mode);
}

/* one source's sums over a mode's measurement iterations */
struct s_src_sum {
	double host, media;
	int nvol, navail, niter;
	char status[160];
	cJSON *iters; /* each iteration's WAF or null */
};

/* the mode's histograms and counts, besides the device counters */
struct s_mode_acc {
	struct bc_hist rd, wr, all;
	struct bc_kvsum *kv;
	int nmeas, nok, npre, nwarm;
	int failed_steps, lost_agents;
	double op_errors, wbytes, wsecs, gc, erased, pre_host, pre_media;
	bool have_sim, have_mbe;
	struct s_src_sum src[S_NSRC];
};

/* what a warmup or measurement iteration adds to the failure counts */
static void s_failures(struct s_mode_acc *a, const cJSON *sj)
{
	static const char *const ops[] = {"read", "write", "trim"};
	size_t i;

	if (strcmp(bc_rj_str("", sj, "status"), "ok"))
		a->failed_steps++;
	a->lost_agents += cJSON_GetArraySize(bc_rj(sj, "lost_agents"));
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		a->op_errors += bc_rj_num(sj, "total", ops[i], "errors");
}

static void s_measure(struct s_mode_acc *a, const cJSON *sj, const struct s_counters *c)
{
	int k;

	a->nmeas++;
	if (strcmp(bc_rj_str("", sj, "status"), "ok"))
		return;
	a->nok++;
	bc_hist_add_pairs(&a->rd, bc_rj(sj, "total", "read", "hist"));
	bc_hist_add_pairs(&a->wr, bc_rj(sj, "total", "write", "hist"));
	bc_hist_add_pairs(&a->all, bc_rj(sj, "total", "read", "hist"));
	bc_hist_add_pairs(&a->all, bc_rj(sj, "total", "write", "hist"));
	bc_hist_add_pairs(&a->all, bc_rj(sj, "total", "trim", "hist"));
	a->wbytes += bc_rj_num(sj, "total", "write", "bytes");
	a->wsecs += bc_rj_num(sj, "measured_seconds");
	bc_kvsum_add_step(a->kv, sj);
	for (k = 0; k < S_NSRC; k++) {
		struct s_src_sum *s = &a->src[k];
		bool all = c->nvol && c->navail[k] == c->nvol;

		s->niter++;
		s->navail += all;
		if (!all && !s->status[0])
			snprintf(s->status, sizeof(s->status), "%s",
				 c->status[k][0] ? c->status[k] : "unavailable: no volumes");
		s->host += c->host[k];
		s->media += c->media[k];
		cJSON_AddItemToArray(s->iters,
				     all && c->host[k] > 0
					 ? cJSON_CreateNumber(s_r4(c->media[k] / c->host[k]))
					 : cJSON_CreateNull());
	}
	a->gc += c->gc_copy;
	a->have_sim |= c->have_sim;
	a->erased += c->erased;
	a->have_mbe |= c->have_mbe;
}

/* a source's WAF over the mode: available when every measurement iteration had it */
static bool s_src_ok(const struct s_src_sum *s)
{
	return s->niter && s->navail == s->niter && s->host > 0;
}

static cJSON *s_src_json(const struct s_src_sum *s, const char *name)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "source", name);
	if (s_src_ok(s))
		cJSON_AddNumberToObject(o, "waf", s_r4(s->media / s->host));
	else
		cJSON_AddNullToObject(o, "waf");
	cJSON_AddStringToObject(o, "status",
				s_src_ok(s)    ? "available"
				: s->status[0] ? s->status
					       : "unavailable: no host writes");
	cJSON_AddNumberToObject(o, "host_write_bytes", s->host);
	cJSON_AddNumberToObject(o, "media_write_bytes", s->media);
	cJSON_AddItemToObject(o, "waf_iterations", cJSON_Duplicate(s->iters, true));
	return o;
}

/*
 * The mode's WAF: the experiment's source ("waf_source", OCP C0 by
 * default) where every iteration had it, else the other one; the mode's
 * host and media bytes are that source's
 */
static void s_mode_waf(cJSON *o, const struct s_mode_acc *a, const struct bc_experiment *x)
{
	int want = x->waf_fdp ? S_FDP : S_OCP, k = want;
	const struct s_src_sum *s;
	cJSON *ws;

	if (!s_src_ok(&a->src[want]) && s_src_ok(&a->src[!want]))
		k = !want;
	s = &a->src[k];
	cJSON_AddNumberToObject(o, "host_write_bytes", s->host);
	cJSON_AddNumberToObject(o, "media_write_bytes", s->media);
	if (a->nok && s_src_ok(s)) {
		cJSON_AddNumberToObject(o, "waf", s_r4(s->media / s->host));
		cJSON_AddStringToObject(o, "waf_status", "available");
	} else {
		cJSON_AddNullToObject(o, "waf");
		cJSON_AddStringToObject(o, "waf_status",
					!a->nok	       ? "unavailable: no measurement iteration ran"
					: s->status[0] ? s->status
						       : "unavailable: no host writes");
	}
	cJSON_AddStringToObject(o, "waf_source", a->nok && s_src_ok(s) ? s_src[k] : "none");
	cJSON_AddItemToObject(o, "waf_iterations", cJSON_Duplicate(s->iters, true));
	ws = cJSON_AddObjectToObject(o, "wafs");
	for (k = 0; k < S_NSRC; k++)
		if (a->src[k].navail)
			cJSON_AddItemToObject(ws, s_src[k], s_src_json(&a->src[k], s_src[k]));
}

static void s_mode_acc_free(struct s_mode_acc *a)
{
	int k;

	if (!a)
		return;
	for (k = 0; k < S_NSRC; k++)
		cJSON_Delete(a->src[k].iters);
	bc_kvsum_free(&a->kv);
	free(a);
}

/* one mode's figures from its steps */
static cJSON *s_mode(const cJSON *steps, const char *name, const struct bc_experiment *x, int m)
{
	const char *mode = x->modes[m].name;
	struct s_mode_acc *a = calloc(1, sizeof(*a));
	cJSON *o = cJSON_CreateObject(), *pre, *f;
	const cJSON *sj;
	int k;

	if (!o || !a || !(a->kv = bc_kvsum_new())) {
		s_mode_acc_free(a);
		cJSON_Delete(o);
		return NULL;
	}
	for (k = 0; k < S_NSRC; k++)
		a->src[k].iters = cJSON_CreateArray();
	cJSON_AddStringToObject(o, "mode", mode);
	cJSON_ArrayForEach(sj, steps)
	{
		struct s_counters c;
		const char *ph = bc_rj_str("", sj, "phase");

		if (!s_of(sj, name, mode))
			continue;
		s_step_counters(sj, &c);
		if (!strcmp(ph, "precondition")) {
			a->npre++;
			a->pre_host += c.host[S_FDP] > 0 ? c.host[S_FDP] : c.host[S_OCP];
			a->pre_media += c.host[S_FDP] > 0 ? c.media[S_FDP] : c.media[S_OCP];
			continue;
		}
		s_failures(a, sj);
		if (!strcmp(ph, "warmup")) {
			a->nwarm++;
			continue;
		}
		if (strcmp(ph, "measure"))
			continue;
		if (!cJSON_GetObjectItemCaseSensitive(o, "placement") &&
		    bc_rj(sj, "class_placement"))
			cJSON_AddItemToObject(o, "placement",
					      cJSON_Duplicate(bc_rj(sj, "class_placement"), true));
		s_measure(a, sj, &c);
	}
	cJSON_AddNumberToObject(o, "warmup_iterations", a->nwarm);
	cJSON_AddNumberToObject(o, "measure_iterations", a->nmeas);
	cJSON_AddNumberToObject(o, "ok_iterations", a->nok);
	s_mode_waf(o, a, x);
	s_add_iter_ci(o);
	if (a->have_sim)
		cJSON_AddNumberToObject(o, "gc_copy_bytes", a->gc);
	if (a->have_mbe)
		cJSON_AddNumberToObject(o, "media_erased_bytes", a->erased);
	cJSON_AddNumberToObject(o, "agent_write_bytes", a->wbytes);
	cJSON_AddNumberToObject(o, "write_mbps",
				a->wsecs > 0 ? s_r4(a->wbytes / a->wsecs / 1e6) : 0);
	s_add_pct(o, "read_p50_ms", &a->rd, 50);
	s_add_pct(o, "read_p99_ms", &a->rd, 99);
	s_add_pct(o, "write_p50_ms", &a->wr, 50);
	s_add_pct(o, "write_p99_ms", &a->wr, 99);
	s_add_pct(o, "all_p50_ms", &a->all, 50);
	s_add_pct(o, "all_p99_ms", &a->all, 99);
	f = cJSON_AddObjectToObject(o, "failures");
	cJSON_AddNumberToObject(f, "process", a->failed_steps + a->lost_agents);
	cJSON_AddNumberToObject(f, "record", bc_kvsum_record_failures(a->kv));
	cJSON_AddNumberToObject(f, "operation", a->op_errors);
	if (bc_kvsum_classes(a->kv))
		cJSON_AddItemToObject(o, "classes", bc_kvsum_json(a->kv));
	pre = cJSON_AddObjectToObject(o, "precondition");
	cJSON_AddNumberToObject(pre, "steps", a->npre);
	cJSON_AddNumberToObject(pre, "host_write_bytes", a->pre_host);
	cJSON_AddNumberToObject(pre, "media_write_bytes", a->pre_media);
	if (a->pre_host > 0)
		cJSON_AddNumberToObject(pre, "waf", s_r4(a->pre_media / a->pre_host));
	s_mode_acc_free(a);
	return o;
}

static const cJSON *s_find_mode(const cJSON *modes, const char *mode)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, modes) if (!strcmp(bc_rj_str("", m, "mode"), mode)) return m;
	return NULL;
}

/* how a metric reads in the verdict table */
static const char *s_metric_label(const char *metric)
{
	static const struct {
		const char *key, *label;
	} l[] = {{"waf", "WAF"},
		 {"media_bytes", "media writes"},
		 {"host_bytes", "host writes"},
		 {"write_p99_ms", "write p99"},
		 {"write_p50_ms", "write p50"},
		 {"read_p99_ms", "read p99"},
		 {"read_p50_ms", "read p50"}};
	size_t i;

	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		if (!strcmp(l[i].key, metric))
			return l[i].label;
	return metric;
}

/* the mode entry's key of a metric ("media_bytes" is the entry's "media_write_bytes") */
static const char *s_metric_key(const char *metric)
{
	if (!strcmp(metric, "media_bytes"))
		return "media_write_bytes";
	if (!strcmp(metric, "host_bytes"))
		return "host_write_bytes";
	return metric;
}

/* the metric of a mode entry, false when it has none */
static bool s_metric(const cJSON *m, const char *metric, double *v)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(m, metric);

	if (!cJSON_IsNumber(it))
		return false;
	*v = it->valuedouble;
	return true;
}

/*
 * Whether two modes' WAFs differ beyond their iteration-to-iteration
 * spread: the 95% interval of (than - lower) over the iterations (Welch),
 * as "real_difference": "yes ..." (the interval excludes 0), "no: not
 * distinguishable ..." or "unknown: ..." (fewer than 2 iterations a mode).
 */
static void s_real_difference(cJSON *r, const cJSON *lower, const cJSON *than)
{
	struct bc_ci cl, ct, d;
	enum bc_cmp v;
	char why[200];

	if (s_iter_ci(lower, &cl) || s_iter_ci(than, &ct)) {
		cJSON_AddStringToObject(r, "real_difference", "unknown: no WAF per iteration");
		return;
	}
	v = bc_ci_compare(&ct, &cl, &d);
	if (v == BC_CMP_NONE) {
		snprintf(why, sizeof(why), "unknown: %d and %d iteration(s), 2 a mode needed", cl.n,
			 ct.n);
		cJSON_AddStringToObject(r, "real_difference", why);
		return;
	}
	cJSON_AddNumberToObject(r, "difference_lo", s_r4(d.lo));
	cJSON_AddNumberToObject(r, "difference_hi", s_r4(d.hi));
	snprintf(why, sizeof(why), "%s (%+.4f, 95%% CI [%+.4f, %+.4f] over %d+%d iterations)",
		 v == BC_CMP_SAME ? "no: not distinguishable" : "yes", d.mean, d.lo, d.hi, cl.n,
		 ct.n);
	cJSON_AddStringToObject(r, "real_difference", why);
}

/* one expected direction judged: "as expected", "not observed", "inconclusive (...)" */
static cJSON *s_verdict_row(const cJSON *modes, const struct bc_experiment *x,
			    const struct bc_exp_expect *e, bool gc_reached)
{
	const char *lo = x->modes[e->lower].name, *th = x->modes[e->than].name;
	cJSON *r = cJSON_CreateObject();
	double a = 0, b = 0, diff, big;
	char why[256];
	bool ha, hb;

	ha = s_metric(s_find_mode(modes, lo), s_metric_key(e->metric), &a);
	hb = s_metric(s_find_mode(modes, th), s_metric_key(e->metric), &b);
	cJSON_AddStringToObject(r, "metric", e->metric);
	cJSON_AddStringToObject(r, "lower", lo);
	cJSON_AddStringToObject(r, "than", th);
	snprintf(why, sizeof(why), "%s: %s lower than %s", s_metric_label(e->metric), lo, th);
	cJSON_AddStringToObject(r, "expected", why);
	if (ha)
		cJSON_AddNumberToObject(r, "observed_lower", a);
	else
		cJSON_AddNullToObject(r, "observed_lower");
	if (hb)
		cJSON_AddNumberToObject(r, "observed_than", b);
	else
		cJSON_AddNullToObject(r, "observed_than");
	if (!ha || !hb) {
		snprintf(why, sizeof(why), "inconclusive (no %s for %s)", s_metric_label(e->metric),
			 !ha ? lo : th);
		cJSON_AddStringToObject(r, "outcome", "inconclusive");
		cJSON_AddStringToObject(r, "judgement", why);
		return r;
	}
	if (!strcmp(e->metric, "waf"))
		s_real_difference(r, s_find_mode(modes, lo), s_find_mode(modes, th));
	big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	diff = big > 0 ? 100.0 * (b - a) / big : 0;
	cJSON_AddNumberToObject(r, "difference_pct", s_r4(diff));
	if (!strcmp(e->metric, "waf") && !gc_reached) {
		snprintf(why, sizeof(why),
			 "inconclusive (the device never reached garbage collection: WAF <= %g in "
			 "every mode, or nothing erased; see the GC note)",
			 x->gc_waf);
		cJSON_AddStringToObject(r, "outcome", "inconclusive");
	} else if (fabs(diff) <= x->tolerance_pct) {
		snprintf(why, sizeof(why), "inconclusive (within %g%%)", x->tolerance_pct);
		cJSON_AddStringToObject(r, "outcome", "inconclusive");
	} else if (diff > 0) {
		snprintf(why, sizeof(why), "as expected (%.1f%% lower)", diff);
		cJSON_AddStringToObject(r, "outcome", "as expected");
	} else {
		snprintf(why, sizeof(why), "not observed (%.1f%% higher)", -diff);
		cJSON_AddStringToObject(r, "outcome", "not observed");
	}
	cJSON_AddStringToObject(r, "judgement", why);
	return r;
}

/* one criterion's row: its judgement per mode and over all of them */
static cJSON *s_crit_row(const char *criterion, const char *requirement)
{
	cJSON *r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "criterion", criterion);
	cJSON_AddStringToObject(r, "requirement", requirement);
	cJSON_AddObjectToObject(r, "modes");
	cJSON_AddBoolToObject(r, "pass", true);
	return r;
}

static void s_crit_mode(cJSON *r, const char *mode, bool pass, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void s_crit_mode(cJSON *r, const char *mode, bool pass, const char *fmt, ...)
{
	cJSON *m = cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(r, "modes"), mode);
	char buf[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON_AddStringToObject(m, "observed", buf);
	cJSON_AddBoolToObject(m, "pass", pass);
	if (!pass)
		cJSON_ReplaceItemInObjectCaseSensitive(r, "pass", cJSON_CreateFalse());
}

/*
 * Seed 000's validity criteria, per mode: WAF available (host and media
 * counters), host and media deltas > 0, p99 available (write p99 at
 * least), process, record and operation failures 0, the iterations the
 * plan asks for
 */
static cJSON *s_criteria(const cJSON *modes, const struct bc_experiment *x)
{
	enum { C_WAF, C_HOST, C_MEDIA, C_P99, C_PROC, C_REC, C_OPS, C_WARM, C_MEAS, C_NR };
	cJSON *rows[C_NR], *arr = cJSON_CreateArray();
	char want[64];
	const cJSON *m;
	int i;

	rows[C_WAF] = s_crit_row("WAF available", "host and media counters collected");
	rows[C_HOST] = s_crit_row("Host write delta", "> 0");
	rows[C_MEDIA] = s_crit_row("Media write delta", "> 0");
	rows[C_P99] = s_crit_row("p99 latency available", "write p99 at least");
	rows[C_PROC] = s_crit_row("Process failures", "0");
	rows[C_REC] = s_crit_row("Record failures", "0");
	rows[C_OPS] = s_crit_row("Operation errors", "0");
	snprintf(want, sizeof(want), "%u", x->warmup);
	rows[C_WARM] = s_crit_row("Warmup iterations", want);
	snprintf(want, sizeof(want), "%u", x->measure);
	rows[C_MEAS] = s_crit_row("Measurement iterations", want);
	cJSON_ArrayForEach(m, modes)
	{
		const char *mode = bc_rj_str("", m, "mode");
		const cJSON *wp = bc_rj(m, "write_p99_ms");
		double v;

		s_crit_mode(rows[C_WAF], mode, !strcmp(bc_rj_str("", m, "waf_status"), "available"),
			    "%s (%s)", bc_rj_str("", m, "waf_status"),
			    bc_rj_str("none", m, "waf_source"));
		v = bc_rj_num(m, "host_write_bytes");
		s_crit_mode(rows[C_HOST], mode, v > 0, "%.0f bytes", v);
		v = bc_rj_num(m, "media_write_bytes");
		s_crit_mode(rows[C_MEDIA], mode, v > 0, "%.0f bytes", v);
		if (cJSON_IsNumber(wp))
			s_crit_mode(rows[C_P99], mode, true, "write %.3f ms, read %s, all %s",
				    wp->valuedouble,
				    cJSON_IsNumber(bc_rj(m, "read_p99_ms")) ? "available" : "n/a",
				    cJSON_IsNumber(bc_rj(m, "all_p99_ms")) ? "available" : "n/a");
		else
			s_crit_mode(rows[C_P99], mode, false, "no write p99");
		v = bc_rj_num(m, "failures", "process");
		s_crit_mode(rows[C_PROC], mode, v == 0, "%.0f", v);
		v = bc_rj_num(m, "failures", "record");
		s_crit_mode(rows[C_REC], mode, v == 0, "%.0f%s", v,
			    bc_rj(m, "classes") ? "" : " (no KV records)");
		v = bc_rj_num(m, "failures", "operation");
		s_crit_mode(rows[C_OPS], mode, v == 0, "%.0f", v);
		v = bc_rj_num(m, "warmup_iterations");
		s_crit_mode(rows[C_WARM], mode, v == x->warmup, "%.0f", v);
		v = bc_rj_num(m, "measure_iterations");
		s_crit_mode(rows[C_MEAS], mode,
			    v == x->measure && bc_rj_num(m, "ok_iterations") == v, "%.0f (%.0f ok)",
			    v, bc_rj_num(m, "ok_iterations"));
	}
	for (i = 0; i < C_NR; i++)
		cJSON_AddItemToArray(arr, rows[i]);
	return arr;
}

cJSON *bc_fdp_compare(const cJSON *now, const cJSON *ref)
{
	cJSON *arr = cJSON_CreateArray();
	const cJSON *m, *r;

	cJSON_ArrayForEach(m, bc_rj(now, "modes"))
	{
		const char *mode = bc_rj_str("", m, "mode");
		cJSON *o;
		double a, b;

		r = s_find_mode(bc_rj(ref, "modes"), mode);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "mode", mode);
		if (!r) {
			cJSON_AddStringToObject(o, "note", "not in the reference run");
			cJSON_AddItemToArray(arr, o);
			continue;
		}
		if (s_metric(r, "waf", &b))
			cJSON_AddNumberToObject(o, "reference_waf", b);
		if (s_metric(m, "waf", &a))
			cJSON_AddNumberToObject(o, "waf", a);
		if (s_metric(r, "waf", &b) && s_metric(m, "waf", &a)) {
			cJSON_AddNumberToObject(o, "waf_delta", s_r4(a - b));
			if (b > 0)
				cJSON_AddNumberToObject(o, "waf_delta_pct",
							s_r4(100 * (a - b) / b));
		}
		if (s_metric(r, "write_p99_ms", &b))
			cJSON_AddNumberToObject(o, "reference_write_p99_ms", b);
		if (s_metric(m, "write_p99_ms", &a))
			cJSON_AddNumberToObject(o, "write_p99_ms", a);
		if (s_metric(r, "host_write_bytes", &b))
			cJSON_AddNumberToObject(o, "reference_host_write_bytes", b);
		if (s_metric(m, "host_write_bytes", &a))
			cJSON_AddNumberToObject(o, "host_write_bytes", a);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* the experiment object of step `name` in a run directory's run.json */
static cJSON *s_reference(const char *dir, const char *name, char *err, size_t errlen)
{
	cJSON *run = bc_rj_read_file(dir, "run.json", err, errlen), *found = NULL;
	const cJSON *sj, *x;

	if (!run)
		return NULL;
	cJSON_ArrayForEach(sj, bc_rj(run, "steps"))
	{
		x = bc_rj(sj, "experiment");
		if (!x)
			continue;
		if (!found || !strcmp(bc_rj_str("", x, "step"), name)) {
			cJSON_Delete(found);
			found = cJSON_Duplicate(x, true);
		}
		if (!strcmp(bc_rj_str("", x, "step"), name))
			break;
	}
	cJSON_Delete(run);
	if (!found)
		snprintf(err, errlen, "%s/run.json holds no experiment", dir);
	return found;
}

cJSON *bc_fdp_summary(const cJSON *steps, const char *name, const struct bc_experiment *x)
{
	cJSON *o = cJSON_CreateObject(), *modes, *ver, *gc, *plan, *ml, *crit, *row;
	bool crit_pass = true;
	double maxw = 0, w, erased = 0;
	bool any = false, reached, have_mbe = false;
	int m, i;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "step", name);
	plan = cJSON_AddObjectToObject(o, "plan");
	ml = cJSON_AddArrayToObject(plan, "modes");
	for (m = 0; m < x->nmodes; m++)
		cJSON_AddItemToArray(ml, cJSON_CreateString(x->modes[m].name));
	cJSON_AddBoolToObject(plan, "precondition", x->pre);
	if (x->pre) {
		cJSON_AddBoolToObject(plan, "discard", x->discard);
		if (x->discard)
			cJSON_AddStringToObject(plan, "discard_window",
						x->discard_namespace ? "namespace" : "window");
		cJSON_AddBoolToObject(plan, "seq_fill", x->seq_fill);
		cJSON_AddNumberToObject(plan, "random_passes", x->random_passes);
		if (x->win_set) {
			cJSON_AddNumberToObject(plan, "window_offset", (double)x->win_offset);
			cJSON_AddNumberToObject(plan, "window_length", (double)x->win_length);
		} else {
			cJSON_AddStringToObject(plan, "window", "volume");
		}
	}
	cJSON_AddNumberToObject(plan, "warmup_iterations", x->warmup);
	cJSON_AddNumberToObject(plan, "measure_iterations", x->measure);
	cJSON_AddNumberToObject(plan, "tolerance_pct", x->tolerance_pct);
	cJSON_AddNumberToObject(plan, "gc_waf", x->gc_waf);
	cJSON_AddStringToObject(plan, "waf_source", x->waf_fdp ? "fdp" : "ocp");
	modes = cJSON_AddArrayToObject(o, "modes");
	for (m = 0; m < x->nmodes; m++) {
		cJSON *mo = s_mode(steps, name, x, m);

		if (!mo)
			continue;
		if (s_metric(mo, "waf", &w)) {
			any = true;
			maxw = w > maxw ? w : maxw;
		}
		if (s_metric(mo, "media_erased_bytes", &w)) {
			have_mbe = true;
			erased += w;
		}
		cJSON_AddItemToArray(modes, mo);
	}
	/*
	 * GC erases: media writes above host writes on a device that erased
	 * nothing (FDP statistics MBE 0 in every mode) are no GC copies but
	 * the device's own accounting (QEMU's emulated FDP counts the write
	 * that fills a reclaim unit twice, and has no GC)
	 */
	reached = any && maxw > x->gc_waf && !(have_mbe && erased == 0);
	gc = cJSON_AddObjectToObject(o, "gc");
	if (!any) {
		cJSON_AddNullToObject(gc, "reached");
		cJSON_AddStringToObject(gc, "note",
					"no mode has a WAF: no device counters (run on an NVMe "
					"namespace or a simulated SSD)");
	} else {
		char note[400];

		cJSON_AddBoolToObject(gc, "reached", reached);
		cJSON_AddNumberToObject(gc, "max_waf", maxw);
		if (any && maxw > x->gc_waf && !reached)
			snprintf(
			    note, sizeof(note),
			    "WAF up to %.4f > %g, but the device erased nothing (FDP statistics "
			    "MBE 0 in every mode): media writes above host writes are not "
			    "garbage collection (a controller without GC, e.g. QEMU's emulated "
			    "FDP, which counts the write that fills a reclaim unit twice), so "
			    "placement could not change WAF here",
			    maxw, x->gc_waf);
		else
			snprintf(
			    note, sizeof(note),
			    reached
				? "the device reached garbage collection (WAF up to %.4f > %g)"
				: "WAF <= %2$g in every mode (at most %1$.4f): the device never "
				  "reached garbage collection, so placement could not change WAF. "
				  "Precondition further (a larger window, more random passes) or "
				  "run "
				  "longer before measuring",
			    maxw, x->gc_waf);
		cJSON_AddStringToObject(gc, "note", note);
	}
	crit = s_criteria(modes, x);
	cJSON_AddItemToObject(o, "criteria", crit);
	cJSON_ArrayForEach(row, crit) crit_pass &= cJSON_IsTrue(bc_rj(row, "pass"));
	cJSON_AddStringToObject(o, "result", crit_pass ? "PASS" : "FAIL");
	ver = cJSON_AddArrayToObject(o, "verdict");
	for (i = 0; i < x->nexpect; i++)
		cJSON_AddItemToArray(ver, s_verdict_row(modes, x, &x->expect[i], reached));
	if (x->reference[0]) {
		cJSON *ref = cJSON_AddObjectToObject(o, "reference"), *rx;
		char err[512] = "";

		cJSON_AddStringToObject(ref, "dir", x->reference);
		rx = s_reference(x->reference, name, err, sizeof(err));
		if (rx) {
			cJSON_AddItemToObject(ref, "modes", bc_fdp_compare(o, rx));
			cJSON_Delete(rx);
		} else {
			cJSON_AddStringToObject(ref, "error", err);
		}
	}
	return o;
}
