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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/ci.h"
#include "results/fdp.h"
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

/* device counters of one step entry, over every agent's volumes */
struct s_counters {
	double host, media;
	int nvol, navail;
	char status[160]; /* the first volume's status that is not "available" */
	char source[16];
	double gc_copy; /* simulator only: GC copies (bytes) */
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

static void s_step_counters(const cJSON *sj, struct s_counters *c)
{
	const cJSON *agent, *vol;

	memset(c, 0, sizeof(*c));
	cJSON_ArrayForEach(agent, bc_rj(sj, "agent_totals"))
	{
		cJSON_ArrayForEach(vol, bc_rj(agent, "volumes"))
		{
			const cJSON *w = bc_rj(vol, "nvme", "waf");
			const char *st = bc_rj_str(NULL, w, "status");

			if (s_seen_device(sj, vol))
				continue;
			c->nvol++;
			if (st && !strcmp(st, "available")) {
				c->navail++;
				c->host += bc_rj_num(w, "host_bytes");
				c->media += bc_rj_num(w, "media_bytes");
				snprintf(c->source, sizeof(c->source), "%s",
					 bc_rj_str("", w, "source"));
				if (bc_rj(vol, "nvme", "fdp", "mbe")) {
					c->have_mbe = true;
					c->erased += bc_rj_num(vol, "nvme", "fdp", "mbe");
				}
			} else if (!c->status[0]) {
				snprintf(c->status, sizeof(c->status), "%s",
					 st ? st
					    : "unavailable: no device counters (the volume is "
					      "neither an NVMe namespace nor a simulated SSD)");
			}
			if (bc_rj(vol, "nvme", "sim")) {
				c->have_sim = true;
				c->gc_copy += bc_rj_num(vol, "nvme", "sim", "gc_copy_bytes");
			}
		}
	}
}

/* add run.json's sparse [[bucket, count], ...] pairs to h */
static void s_hist_add(struct bc_hist *h, const cJSON *pairs)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, pairs)
	{
		const cJSON *i = cJSON_GetArrayItem(p, 0), *n = cJSON_GetArrayItem(p, 1);

		if (!cJSON_IsNumber(i) || !cJSON_IsNumber(n) || i->valuedouble < 0 ||
		    i->valuedouble >= BC_HIST_BUCKETS || n->valuedouble < 0)
			continue;
		h->buckets[(unsigned)i->valuedouble] += (uint64_t)n->valuedouble;
		h->count += (uint64_t)n->valuedouble;
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

/* one mode's figures from its steps */
static cJSON *s_mode(const cJSON *steps, const char *name, const char *mode)
{
	struct bc_hist *rd = calloc(1, sizeof(*rd)), *wr = calloc(1, sizeof(*wr));
	cJSON *o = cJSON_CreateObject(), *iters, *pre;
	double host = 0, media = 0, gc = 0, pre_host = 0, pre_media = 0, wbytes = 0, wsecs = 0;
	double erased = 0;
	int nmeas = 0, nok = 0, nvol_avail = 1, npre = 0;
	char status[160] = "", source[16] = "";
	bool have_sim = false, have_mbe = false;
	const cJSON *sj;

	if (!o || !rd || !wr) {
		free(rd);
		free(wr);
		cJSON_Delete(o);
		return NULL;
	}
	cJSON_AddStringToObject(o, "mode", mode);
	iters = cJSON_CreateArray();
	cJSON_ArrayForEach(sj, steps)
	{
		struct s_counters c;
		const char *ph = bc_rj_str("", sj, "phase");

		if (!s_of(sj, name, mode))
			continue;
		s_step_counters(sj, &c);
		if (!strcmp(ph, "precondition")) {
			npre++;
			pre_host += c.host;
			pre_media += c.media;
			continue;
		}
		if (strcmp(ph, "measure"))
			continue;
		if (!cJSON_GetObjectItemCaseSensitive(o, "placement") &&
		    bc_rj(sj, "class_placement"))
			cJSON_AddItemToObject(o, "placement",
					      cJSON_Duplicate(bc_rj(sj, "class_placement"), true));
		nmeas++;
		if (strcmp(bc_rj_str("", sj, "status"), "ok"))
			continue;
		nok++;
		s_hist_add(rd, bc_rj(sj, "total", "read", "hist"));
		s_hist_add(wr, bc_rj(sj, "total", "write", "hist"));
		wbytes += bc_rj_num(sj, "total", "write", "bytes");
		wsecs += bc_rj_num(sj, "measured_seconds");
		if (c.navail < c.nvol || !c.nvol) {
			nvol_avail = 0;
			if (!status[0])
				snprintf(status, sizeof(status), "%s",
					 c.status[0] ? c.status : "unavailable: no volumes");
		}
		host += c.host;
		media += c.media;
		gc += c.gc_copy;
		have_sim |= c.have_sim;
		erased += c.erased;
		have_mbe |= c.have_mbe;
		if (c.source[0])
			snprintf(source, sizeof(source), "%s", c.source);
		cJSON_AddItemToArray(iters, c.host > 0 && c.navail == c.nvol
						? cJSON_CreateNumber(s_r4(c.media / c.host))
						: cJSON_CreateNull());
	}
	cJSON_AddNumberToObject(o, "measure_iterations", nmeas);
	cJSON_AddNumberToObject(o, "ok_iterations", nok);
	cJSON_AddNumberToObject(o, "host_write_bytes", host);
	cJSON_AddNumberToObject(o, "media_write_bytes", media);
	if (nok && nvol_avail && host > 0) {
		cJSON_AddNumberToObject(o, "waf", s_r4(media / host));
		cJSON_AddStringToObject(o, "waf_status", "available");
	} else {
		cJSON_AddNullToObject(o, "waf");
		cJSON_AddStringToObject(o, "waf_status",
					!nok	    ? "unavailable: no measurement iteration ran"
					: status[0] ? status
						    : "unavailable: no host writes");
	}
	cJSON_AddStringToObject(o, "waf_source", source[0] ? source : "none");
	cJSON_AddItemToObject(o, "waf_iterations", iters);
	s_add_iter_ci(o);
	if (have_sim)
		cJSON_AddNumberToObject(o, "gc_copy_bytes", gc);
	if (have_mbe)
		cJSON_AddNumberToObject(o, "media_erased_bytes", erased);
	cJSON_AddNumberToObject(o, "agent_write_bytes", wbytes);
	cJSON_AddNumberToObject(o, "write_mbps", wsecs > 0 ? s_r4(wbytes / wsecs / 1e6) : 0);
	s_add_pct(o, "read_p50_ms", rd, 50);
	s_add_pct(o, "read_p99_ms", rd, 99);
	s_add_pct(o, "write_p50_ms", wr, 50);
	s_add_pct(o, "write_p99_ms", wr, 99);
	pre = cJSON_AddObjectToObject(o, "precondition");
	cJSON_AddNumberToObject(pre, "steps", npre);
	cJSON_AddNumberToObject(pre, "host_write_bytes", pre_host);
	cJSON_AddNumberToObject(pre, "media_write_bytes", pre_media);
	if (pre_host > 0)
		cJSON_AddNumberToObject(pre, "waf", s_r4(pre_media / pre_host));
	free(rd);
	free(wr);
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
	cJSON *o = cJSON_CreateObject(), *modes, *ver, *gc, *plan, *ml;
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
	modes = cJSON_AddArrayToObject(o, "modes");
	for (m = 0; m < x->nmodes; m++) {
		cJSON *mo = s_mode(steps, name, x->modes[m].name);

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
