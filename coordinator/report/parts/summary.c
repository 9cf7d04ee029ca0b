/*
 * report/parts/summary.c - the summary a report opens with, computed from
 * run.json, profile.json and the devices (report/parts/summary.h). Every
 * figure is one run.json holds, picked by a rule said here; the confidence
 * is a rule over run.json's own facts (docs/report.md): low when the figures
 * may not be the storage's or the cause is what is left once unmeasured
 * resources are ruled out; medium when a check failed, the knee is not
 * confirmed, the window at the ceiling was not steady, or a suspect that
 * matters was not measured; high otherwise.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/point.h"
#include "report/parts/fmt.h"
#include "report/parts/rundata.h"
#include "report/parts/steptab.h"
#include "report/parts/summary.h"
#include "report/parts/sweep.h"
#include "util/rjson.h"

#define S_NAMES_MAX 6 /* hosts, nodes and steps named in a sentence; more are counted */

/* a step's figures count: it measured something (a failed or unstarted step did not) */
static bool s_measured(const cJSON *st)
{
	const char *s = bc_rj_str("", st, "status"), *phase = bc_rj_str("", st, "phase");

	/* an FDP experiment's preconditioning and warm-up prepare the device: not its figures */
	if (!strcmp(phase, "precondition") || !strcmp(phase, "warmup"))
		return false;
	return (!strcmp(s, "ok") || !strcmp(s, "degraded") || !strcmp(s, "suspect")) &&
	       cJSON_IsNumber(bc_rj(st, "total", "iops"));
}

/* "a, b and c", or "N" things when there are more than S_NAMES_MAX */
static void s_names(char *buf, size_t len, const cJSON *arr, const char *key)
{
	const cJSON *x;
	int n = cJSON_GetArraySize(arr), i = 0;

	if (!n || n > S_NAMES_MAX)
		return;
	bc_ana_cat(buf, len, " (");
	cJSON_ArrayForEach(x, arr)
	{
		bc_ana_cat(buf, len, "%s%s", i ? (i == n - 1 ? " and " : ", ") : "",
			   bc_rj_str("?", x, key));
		i++;
	}
	bc_ana_cat(buf, len, ")");
}

/* what a device is, in words */
static const char *s_kind_words(const cJSON *d)
{
	const char *kind = bc_rj_str("", d, "kind");

	if (bc_rj(d, "nvme"))
		return !strcmp(bc_rj_str("", d, "nvme", "transport"), "tcp") ? "NVMe/TCP namespace"
									     : "NVMe namespace";
	if (!strcmp(kind, "file"))
		return "file";
	if (!strcmp(kind, "block") || !strcmp(kind, "bdev"))
		return "block device";
	if (!strcmp(kind, "nvme-char"))
		return "NVMe namespace";
	if (!strcmp(kind, "nvme-tcp"))
		return "NVMe/TCP namespace";
	if (!strcmp(kind, "sim"))
		return "simulated SSD";
	if (!strcmp(kind, "null"))
		return "null target (no storage)";
	return "volume";
}

/* the volumes: how many, of which kinds and sizes, how many a host */
static void s_volumes(char *buf, size_t len, const struct bc_report *r)
{
	const char *kinds[8];
	int nk[8] = {0}, k, nkind = 0, nvol = 0;
	double size = -1;
	bool same = true;
	const cJSON *a, *d;
	char b[32];

	cJSON_ArrayForEach(a, r->devices)
	{
		cJSON_ArrayForEach(d, a)
		{
			const char *w = s_kind_words(d);

			for (k = 0; k < nkind && strcmp(kinds[k], w); k++)
				;
			if (k == nkind && nkind < 8)
				kinds[nkind++] = w;
			if (k < nkind)
				nk[k]++;
			if (size < 0)
				size = bc_rj_num(d, "size");
			same &= bc_rj_num(d, "size") == size;
			nvol++;
		}
	}
	if (!nvol) {
		nvol = cJSON_GetArraySize(bc_rj(r->profile, "volumes"));
		bc_ana_cat(buf, len, "%s volume%s", bc_fmt_int(nvol, b, sizeof(b)),
			   nvol == 1 ? "" : "s");
		return;
	}
	if (nkind == 1) {
		bc_ana_cat(buf, len, "%s %s%s", bc_fmt_int(nvol, b, sizeof(b)), kinds[0],
			   nvol == 1 ? "" : "s");
	} else {
		bc_ana_cat(buf, len, "%s volumes (", bc_fmt_int(nvol, b, sizeof(b)));
		for (k = 0; k < nkind; k++)
			bc_ana_cat(buf, len, "%s%d %s%s", k ? ", " : "", nk[k], kinds[k],
				   nk[k] == 1 ? "" : "s");
		bc_ana_cat(buf, len, ")");
	}
	if (same && size > 0)
		bc_ana_cat(buf, len, " of %s%s", bc_fmt_bytes(size, b, sizeof(b)),
			   nvol > 1 ? " each" : "");
}

/* the devices' models, when they say ("SAMSUNG MZ... x 6") */
static void s_models(char *buf, size_t len, const struct bc_report *r)
{
	const char *models[4];
	int n[4] = {0}, k, nm = 0;
	const cJSON *a, *d;

	cJSON_ArrayForEach(a, r->devices)
	{
		cJSON_ArrayForEach(d, a)
		{
			const char *m = bc_rj_str(NULL, d, "nvme", "model");

			if (!m || !*m)
				continue;
			for (k = 0; k < nm && strcmp(models[k], m); k++)
				;
			if (k == nm && nm < 4)
				models[nm++] = m;
			if (k < nm)
				n[k]++;
		}
	}
	for (k = 0; k < nm; k++)
		bc_ana_cat(buf, len, "%s%s x %d", k ? ", " : "; devices: ", models[k], n[k]);
}

/* one profile step in words: its workload and what varies */
static void s_step_words(char *buf, size_t len, const cJSON *ps)
{
	const cJSON *sw = bc_rj(ps, "sweep"), *x;
	char wl[256];
	int k = 0, ns = cJSON_GetArraySize(bc_rj(ps, "streams"));

	if (ns) {
		/* streams have each their own pattern and block size: named, not summed up */
		bc_ana_cat(buf, len, "%s (%d streams:", bc_rj_str("?", ps, "name"), ns);
		cJSON_ArrayForEach(x, bc_rj(ps, "streams"))
		{
			if (k < 4)
				bc_ana_cat(buf, len, "%s %s", k ? "," : "",
					   bc_rj_str("?", x, "name"));
			k++;
		}
		if (ns > 4)
			bc_ana_cat(buf, len, " and %d more", ns - 4);
		bc_ana_cat(buf, len, "; ramp %.0f s, %.0f s measured", bc_rj_num(ps, "ramp"),
			   bc_rj_num(ps, "runtime"));
	} else {
		bc_ana_cat(buf, len, "%s (%s", bc_rj_str("?", ps, "name"),
			   bc_tab_workload(ps, wl, sizeof(wl)));
	}
	cJSON_ArrayForEach(x, sw)
	{
		const cJSON *v;
		int i = 0, n = cJSON_GetArraySize(x);

		if (!strcmp(x->string, "stop") || !cJSON_IsArray(x))
			continue;
		bc_ana_cat(buf, len, "; %s swept over ", x->string);
		cJSON_ArrayForEach(v, x)
		{
			if (n > 8 && i > 2 && i < n - 2) {
				if (i == 3)
					bc_ana_cat(buf, len, ", ...");
				i++;
				continue;
			}
			if (cJSON_IsNumber(v))
				bc_ana_cat(buf, len, "%s%g", i ? ", " : "", v->valuedouble);
			else
				bc_ana_cat(buf, len, "%s%s", i ? ", " : "",
					   cJSON_GetStringValue(v));
			i++;
		}
		if (bc_rj(sw, "stop", "p99_ms"))
			bc_ana_cat(buf, len, " until p99 > %g ms", bc_rj_num(sw, "stop", "p99_ms"));
	}
	if (bc_rj(ps, "experiment")) {
		int i = 0;

		bc_ana_cat(buf, len, "; an FDP experiment over modes");
		cJSON_ArrayForEach(x, bc_rj(ps, "experiment", "modes"))
		    bc_ana_cat(buf, len, "%s %s", i++ ? "," : "", cJSON_GetStringValue(x));
	}
	if (bc_rj_num(ps, "repeat") > 1)
		bc_ana_cat(buf, len, "; repeated %.0f times", bc_rj_num(ps, "repeat"));
	bc_ana_cat(buf, len, ")");
}

static double s_epoch(const char *iso)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!iso || !strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NAN;
	return (double)timegm(&tm);
}

static void s_tested(struct bc_summary *s, const struct bc_report *r)
{
	const cJSON *agents = bc_rj(r->run, "agents"), *nodes = bc_rj(r->profile, "nodes"), *st;
	const cJSON *psteps = bc_rj(r->profile, "steps");
	int na = cJSON_GetArraySize(agents), nn = cJSON_GetArraySize(nodes), i = 0, np;
	double t0 = s_epoch(bc_rj_str(NULL, r->run, "started"));
	double t1 = s_epoch(bc_rj_str(NULL, r->run, "finished")), measured = 0;
	char b[64], b2[64];
	bool counters = false;

	bc_ana_cat(s->tested, sizeof(s->tested), "%s client host%s", bc_fmt_int(na, b, sizeof(b)),
		   na == 1 ? "" : "s");
	s_names(s->tested, sizeof(s->tested), agents, "name");
	bc_ana_cat(s->tested, sizeof(s->tested), " drove ");
	s_volumes(s->tested, sizeof(s->tested), r);
	if (na > 1 && cJSON_GetArraySize(bc_rj(r->profile, "volumes")) % na == 0)
		bc_ana_cat(s->tested, sizeof(s->tested), ", %d a host",
			   cJSON_GetArraySize(bc_rj(r->profile, "volumes")) / na);
	s_models(s->tested, sizeof(s->tested), r);
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		const cJSON *nd;

		cJSON_ArrayForEach(nd, bc_rj(st, "nodes")) counters |=
		    bc_rj(nd, "counters") != NULL;
		measured += bc_rj_num(st, "measured_seconds");
	}
	if (nn) {
		bc_ana_cat(s->tested, sizeof(s->tested), ", served by %d storage node%s", nn,
			   nn == 1 ? "" : "s");
		s_names(s->tested, sizeof(s->tested), nodes, "name");
		bc_ana_cat(s->tested, sizeof(s->tested), ", %s",
			   counters ? "their counters scraped beside the I/O"
				    : "without node counters");
	} else {
		bc_ana_cat(s->tested, sizeof(s->tested),
			   ", with no storage node named in the profile");
	}
	np = cJSON_GetArraySize(psteps);
	bc_ana_cat(s->tested, sizeof(s->tested), ".");
	if (np)
		bc_ana_cat(s->tested, sizeof(s->tested),
			   " %s:", np == 1 ? "The workload" : "The workloads");
	cJSON_ArrayForEach(st, psteps)
	{
		if (i == S_NAMES_MAX) {
			bc_ana_cat(s->tested, sizeof(s->tested), "; and %d more", np - i);
			break;
		}
		bc_ana_cat(s->tested, sizeof(s->tested), "%s ", i ? ";" : "");
		s_step_words(s->tested, sizeof(s->tested), st);
		i++;
	}
	if (np)
		bc_ana_cat(s->tested, sizeof(s->tested), ".");
	if (isfinite(t1 - t0))
		bc_ana_cat(s->tested, sizeof(s->tested), " The run took %s",
			   bc_fmt_dur(t1 - t0, b, sizeof(b)));
	else if (bc_rj(r->run, "started"))
		bc_ana_cat(s->tested, sizeof(s->tested), " The run did not finish");
	if (measured > 0 && bc_rj(r->run, "started"))
		bc_ana_cat(s->tested, sizeof(s->tested), ", %s of it measured",
			   bc_fmt_dur(measured, b2, sizeof(b2)));
	if (bc_rj(r->run, "started"))
		bc_ana_cat(s->tested, sizeof(s->tested), " (started %s).",
			   bc_rj_str("?", r->run, "started"));
}

static struct bc_sum_fig *s_fig(struct bc_summary *s, const char *key, const char *label)
{
	struct bc_sum_fig *f;

	if (s->nfig == BC_SUM_FIGS)
		return NULL;
	f = &s->fig[s->nfig++];
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->step = -1;
	snprintf(f->label, sizeof(f->label), "%s", label);
	return f;
}

static void s_lat_fig(struct bc_summary *s, const char *key, const char *label, double us,
		      const char *where, int step)
{
	struct bc_sum_fig *f;

	if (!isfinite(us) || !(f = s_fig(s, key, label)))
		return;
	f->value = us;
	bc_fmt_lat_us(us, f->text, sizeof(f->text));
	snprintf(f->where, sizeof(f->where), "%s", where);
	f->step = step;
}

/* the peak IOPS and MB/s over the steps that measured, latency where it counts */
static void s_figures(struct bc_summary *s, const struct bc_report *r, const struct bc_sweep *sw,
		      int nsw)
{
	const cJSON *st, *best_iops = NULL, *best_mbps = NULL, *low99 = NULL;
	int i = 0, bi = -1, bm = -1, bl = -1;
	double errors = 0;
	struct bc_sum_fig *f;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		const cJSON *t = bc_rj(st, "total");

		errors += bc_rj_num(t, "errors") + bc_rj_num(t, "short");
		if (s_measured(st)) {
			if (!best_iops ||
			    bc_rj_num(t, "iops") > bc_rj_num(best_iops, "total", "iops")) {
				best_iops = st;
				bi = i;
			}
			if (!best_mbps ||
			    bc_rj_num(t, "mbps") > bc_rj_num(best_mbps, "total", "mbps")) {
				best_mbps = st;
				bm = i;
			}
			if (cJSON_IsNumber(bc_rj(t, "lat_us", "p99")) &&
			    (!low99 || bc_rj_num(t, "lat_us", "p99") <
					   bc_rj_num(low99, "total", "lat_us", "p99"))) {
				low99 = st;
				bl = i;
			}
		}
		i++;
	}
	if (best_iops && (f = s_fig(s, "peak_iops", "Peak IOPS"))) {
		f->value = bc_rj_num(best_iops, "total", "iops");
		bc_fmt_int(round(f->value), f->text, sizeof(f->text));
		snprintf(f->where, sizeof(f->where), "%s", bc_rj_str("?", best_iops, "name"));
		f->step = bi;
	}
	if (best_mbps && (f = s_fig(s, "peak_mbps", "Peak throughput"))) {
		f->value = bc_rj_num(best_mbps, "total", "mbps");
		bc_fmt_mbps(f->value, f->text, sizeof(f->text));
		snprintf(f->where, sizeof(f->where), "%s", bc_rj_str("?", best_mbps, "name"));
		f->step = bm;
	}
	/* the last sweep with a knee: the latency a customer buys at the ceiling */
	for (i = nsw - 1; i >= 0; i--) {
		const struct bc_sweep_pt *p;
		char where[160];

		if (sw[i].knee < 0)
			continue;
		p = &sw[i].pt[sw[i].knee];
		snprintf(where, sizeof(where), "%s", bc_rj_str("?", p->step, "name"));
		s_lat_fig(s, "knee_p50_us", "p50 at the knee", p->p50_us, where,
			  sw[i].first + sw[i].knee);
		s_lat_fig(s, "knee_p99_us", "p99 at the knee", p->p99_us, where,
			  sw[i].first + sw[i].knee);
		break;
	}
	if (i < 0 && best_iops) {
		s_lat_fig(s, "peak_p50_us", "p50 at peak IOPS",
			  bc_rj_num(best_iops, "total", "lat_us", "p50"),
			  bc_rj_str("?", best_iops, "name"), bi);
		s_lat_fig(s, "peak_p99_us", "p99 at peak IOPS",
			  bc_rj_num(best_iops, "total", "lat_us", "p99"),
			  bc_rj_str("?", best_iops, "name"), bi);
	}
	/* the lowest p99 is news when another step than the peak had it */
	if (low99 && low99 != best_iops)
		s_lat_fig(s, "lowest_p99_us", "Lowest p99",
			  bc_rj_num(low99, "total", "lat_us", "p99"), bc_rj_str("?", low99, "name"),
			  bl);
	if (cJSON_GetArraySize(r->expect) && (f = s_fig(s, "criteria_passed", "Criteria passed"))) {
		const cJSON *x;
		int n = 0, pass = 0;

		cJSON_ArrayForEach(x, r->expect)
		{
			n++;
			pass += cJSON_IsTrue(bc_rj(x, "pass"));
		}
		f->value = pass;
		snprintf(f->text, sizeof(f->text), "%d of %d", pass, n);
		snprintf(f->where, sizeof(f->where), "the profile's acceptance criteria");
	}
	if (errors > 0 && (f = s_fig(s, "io_errors", "I/O errors"))) {
		f->value = errors;
		bc_fmt_int(errors, f->text, sizeof(f->text));
		snprintf(f->where, sizeof(f->where), "errors and short transfers, every step");
	}
}

void bc_summary_unmeasured(const cJSON *analysis, char *buf, size_t len)
{
	const char *name[32], *how[32];
	const cJSON *row;
	int n = 0, i, j, said = 0;
	bool done[32] = {false};

	buf[0] = '\0';
	cJSON_ArrayForEach(row, bc_rj(analysis, "suspects"))
	{
		if (n < 32 && !strcmp(bc_rj_str("", row, "state"), "not measured")) {
			name[n] = bc_rj_str("?", row, "suspect");
			how[n++] = bc_rj_str("see docs/verdict.md", row, "measure");
		}
	}
	/* one clause per way of measuring, the suspects it would decide named before it */
	for (i = 0; i < n; i++) {
		if (done[i])
			continue;
		bc_ana_cat(buf, len, "%s%s", said++ ? "; " : "", name[i]);
		for (j = i + 1; j < n; j++)
			if (!done[j] && !strcmp(how[j], how[i])) {
				bc_ana_cat(buf, len, ", %s", name[j]);
				done[j] = true;
			}
		bc_ana_cat(buf, len, " (%s)", how[i]);
	}
}

/* a suspect row of analysis a left not measured */
static bool s_unmeasured(const cJSON *a, const char *suspect)
{
	const cJSON *row;

	cJSON_ArrayForEach(
	    row,
	    bc_rj(a, "suspects")) if (!strcmp(bc_rj_str("", row, "suspect"),
					      suspect)) return !strcmp(bc_rj_str("", row, "state"),
								       "not measured");
	return false;
}

/* the volumes are reached over a network: node and NIC suspects matter */
static bool s_remote(const struct bc_report *r)
{
	const cJSON *v, *a, *d;

	if (cJSON_GetArraySize(bc_rj(r->profile, "nodes")))
		return true;
	cJSON_ArrayForEach(v, bc_rj(r->profile, "volumes")) if (bc_rj(v, "nvme_tcp")) return true;
	cJSON_ArrayForEach(a, r->devices) cJSON_ArrayForEach(
	    d, a) if (!strcmp(bc_rj_str("", d, "nvme", "transport"), "tcp")) return true;
	return false;
}

/* how sure: the rule of this file's head, the reasons that lowered it in why */
static const char *s_confidence(const struct bc_report *r, const struct bc_sweep *sw, char *why,
				size_t len)
{
	static const char *const node_rows[] = {"node NIC", "node CPU", "node disk/GC"};
	const cJSON *a = sw->analysis;
	const char *cls = bc_rj_str("", a, "class");
	int low = 0, medium = 0, i, bad = 0, contended = 0, suspect = 0, fails = 0;
	bool remote = s_remote(r), nodes_missing = false;
	size_t k;

	why[0] = '\0';
	for (i = 0; i < sw->n; i++) {
		const cJSON *st = sw->pt[i].step, *c;

		bad += !sw->pt[i].ok;
		contended += cJSON_IsTrue(bc_rj(st, "contended"));
		suspect += !strcmp(bc_rj_str("", st, "status"), "suspect");
		cJSON_ArrayForEach(c, bc_rj(st, "checks")) fails += cJSON_IsFalse(bc_rj(c, "pass"));
	}
	for (k = 0; k < sizeof(node_rows) / sizeof(node_rows[0]); k++)
		nodes_missing |= s_unmeasured(a, node_rows[k]);
	if (!strcmp(cls, "invalid")) {
		low++;
		bc_ana_cat(why, len, "%sLittle's law does not hold: the measurement is in question",
			   *why ? "; " : "");
	}
	if (contended) {
		low++;
		bc_ana_cat(why, len, "%s%d point%s ran on a contended client host",
			   *why ? "; " : "", contended, contended == 1 ? "" : "s");
	}
	if (suspect) {
		low++;
		bc_ana_cat(why, len,
			   "%s%d point%s suspect (the devices did not move the bytes reported)",
			   *why ? "; " : "", suspect, suspect == 1 ? " is" : "s are");
	}
	if (bad) {
		low++;
		bc_ana_cat(why, len, "%s%d point%s did not finish", *why ? "; " : "", bad,
			   bad == 1 ? "" : "s");
	}
	if (!strcmp(cls, "internal-limit") && remote && nodes_missing) {
		low++;
		bc_ana_cat(
		    why, len,
		    "%san internal limit is what is left once the node resources are ruled out, "
		    "and they were not measured",
		    *why ? "; " : "");
	} else if (remote && nodes_missing) {
		medium++;
		bc_ana_cat(why, len, "%sthe storage nodes' resources were not measured",
			   *why ? "; " : "");
	}
	if (fails) {
		medium++;
		bc_ana_cat(why, len, "%s%d check%s failed in the sweep's points", *why ? "; " : "",
			   fails, fails == 1 ? "" : "s");
	}
	if (sw->knee >= 0 && !sw->knee_confirmed) {
		medium++;
		bc_ana_cat(why, len, "%sthe knee is not confirmed by the points after it",
			   *why ? "; " : "");
	}
	if (sw->knee >= 0 &&
	    cJSON_IsFalse(bc_rj(sw->pt[sw->knee].step, "steady_state", "steady"))) {
		medium++;
		bc_ana_cat(why, len, "%sthe window at the knee was not steady", *why ? "; " : "");
	}
	return low ? "low" : medium ? "medium" : "high";
}

/* a sweep's ceiling in one sentence */
static void s_ceiling(struct bc_sum_ceiling *c, const struct bc_report *r,
		      const struct bc_sweep *sw, int k)
{
	const cJSON *a = sw->analysis;
	const char *cls = bc_rj_str("", a, "class"),
		   *verdict = bc_rj_str("no verdict", a, "verdict");
	const struct bc_sweep_pt *p = bc_sweep_peak(sw);
	char rate[32], iops[32];

	snprintf(c->anchor, sizeof(c->anchor), "sweep-%d", k);
	if (!strcmp(cls, "not-saturated") || !p)
		snprintf(c->sentence, sizeof(c->sentence), "Sweep %s over %s found no ceiling: %s.",
			 sw->name, sw->param, verdict);
	else if (!strcmp(cls, "invalid"))
		snprintf(c->sentence, sizeof(c->sentence),
			 "Sweep %s over %s: no ceiling can be read from it: %s.", sw->name,
			 sw->param, verdict);
	else
		snprintf(c->sentence, sizeof(c->sentence),
			 "Sweep %s over %s: the ceiling is %s (%s IOPS) at %s=%s, %s; cause: %s.",
			 sw->name, sw->param, bc_fmt_mbps(p->mbps, rate, sizeof(rate)),
			 bc_fmt_int(round(p->iops), iops, sizeof(iops)), sw->param, p->label,
			 sw->knee >= 0 ? "its knee" : "its highest point", verdict);
	c->confidence = s_confidence(r, sw, c->why, sizeof(c->why));
	bc_summary_unmeasured(a, c->unmeasured, sizeof(c->unmeasured));
}

/* one step analysed alone (no sweep): its verdict is about one load only */
static void s_step_ceiling(struct bc_sum_ceiling *c, const cJSON *st, int i)
{
	const cJSON *a = bc_rj(st, "analysis");
	const char *v = bc_rj_str("no verdict", a, "verdict");

	snprintf(c->anchor, sizeof(c->anchor), "step-%d", i);
	snprintf(c->sentence, sizeof(c->sentence), "Step %s ran at one load: %s.%s",
		 bc_rj_str("?", st, "name"), v,
		 strstr(v, "sweep") ? ""
				    : " One load shows the figures there, not where the ceiling is "
				      "(sweep iodepth or numjobs to find it).");
	c->confidence = NULL;
	bc_summary_unmeasured(a, c->unmeasured, sizeof(c->unmeasured));
}

/* names of the steps for which pred holds, "a, b and 3 more" */
static int s_steps_where(const struct bc_report *r, bool (*pred)(const cJSON *), char *buf,
			 size_t len)
{
	const cJSON *st;
	int n = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		if (!pred(st))
			continue;
		if (n < S_NAMES_MAX)
			bc_ana_cat(buf, len, "%s%s", n ? ", " : "", bc_rj_str("?", st, "name"));
		n++;
	}
	if (n > S_NAMES_MAX)
		bc_ana_cat(buf, len, " and %d more", n - S_NAMES_MAX);
	return n;
}

static bool s_is_contended(const cJSON *st)
{
	return cJSON_IsTrue(bc_rj(st, "contended"));
}

static bool s_is_suspect(const cJSON *st)
{
	return !strcmp(bc_rj_str("", st, "status"), "suspect");
}

static bool s_is_unmeasured(const cJSON *st)
{
	const char *s = bc_rj_str("", st, "status");

	return strcmp(s, "ok") && strcmp(s, "degraded") && strcmp(s, "suspect");
}

static bool s_is_degraded(const cJSON *st)
{
	return !strcmp(bc_rj_str("", st, "status"), "degraded");
}

static bool s_is_unsteady(const cJSON *st)
{
	return s_measured(st) && cJSON_IsFalse(bc_rj(st, "steady_state", "steady"));
}

static void s_caveats(struct bc_summary *s, const struct bc_report *r)
{
	const cJSON *st, *c;
	char names[1024], first[600] = "";
	int n, fails = 0, shown = 0;

	if (bc_rj(r->run, "error"))
		bc_notes_add(&s->caveats, BC_NOTE_WARN, "The run ended in error:", NULL,
			     BC_TONE_BAD, "%s.", bc_rj_str("", r->run, "error"));
	if ((n = s_steps_where(r, s_is_contended, names, sizeof(names))))
		bc_notes_add(&s->caveats, BC_NOTE_WARN, "Contended client host:", NULL, BC_TONE_BAD,
			     "%s ran while other processes held the client host's CPU: %s "
			     "figures are the host's, not the storage's.",
			     names, n == 1 ? "its" : "their");
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps")) if (s_is_suspect(st))
	    bc_notes_add(&s->caveats, BC_NOTE_WARN, "Suspect:", NULL, BC_TONE_BAD, "step %s: %s.",
			 bc_rj_str("?", st, "name"),
			 bc_rj_str("its figures are in question", st, "suspect_reason"));
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		if (!s_is_unmeasured(st))
			continue;
		bc_notes_add(&s->caveats, BC_NOTE_WARN, "Not measured:", NULL, BC_TONE_BAD,
			     "step %s is %s%s%s.", bc_rj_str("?", st, "name"),
			     bc_rj_str("?", st, "status"), bc_rj(st, "error") ? ": " : "",
			     bc_rj_str("", st, "error"));
	}
	if ((n = s_steps_where(r, s_is_degraded, names, sizeof(names))))
		bc_notes_add(&s->caveats, BC_NOTE_WARN, "Degraded:", NULL, BC_TONE_WARN,
			     "%s lost an agent; %s figures stop where it was lost.", names,
			     n == 1 ? "its" : "their");
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		cJSON_ArrayForEach(c, bc_rj(st, "checks"))
		{
			if (!cJSON_IsFalse(bc_rj(c, "pass")))
				continue;
			if (shown++ < 3)
				bc_ana_cat(
				    first, sizeof(first), "%s%s (%s%s%s)", *first ? "; " : "",
				    bc_rj_str("?", c, "name"), bc_rj_str("?", st, "name"),
				    bc_rj(c, "scope") ? ", " : "", bc_rj_str("", c, "scope"));
			fails++;
		}
	}
	if (fails)
		bc_notes_add(&s->caveats, BC_NOTE_WARN, "Checks failed:", NULL, BC_TONE_BAD,
			     "%d: %s%s.", fails, first,
			     fails > 3 ? "; and more in each step's checks" : "");
	if ((n = s_steps_where(r, s_is_unsteady, names, sizeof(names))))
		bc_notes_add(&s->caveats, BC_NOTE_WARN, "Not steady:", NULL, BC_TONE_WARN,
			     "%s: throughput trended or spread beyond the steady-state limits, so "
			     "%s averages describe no state the system was in.",
			     names, n == 1 ? "its" : "their");
}

/* FDP experiments: the verdict rows are the answer */
static void s_experiments(struct bc_summary *s, const struct bc_report *r)
{
	const cJSON *st, *m, *v;
	int i = 0;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		const cJSON *x = bc_rj(st, "experiment");
		struct bc_sum_ceiling *c;

		i++;
		if (!x || s->nceil == BC_SUM_CEIL)
			continue;
		c = &s->ceil[s->nceil++];
		memset(c, 0, sizeof(*c));
		snprintf(c->anchor, sizeof(c->anchor), "step-%d", i - 1);
		bc_ana_cat(c->sentence, sizeof(c->sentence), "FDP experiment %s: WAF",
			   bc_rj_str("?", x, "step"));
		cJSON_ArrayForEach(m, bc_rj(x, "modes"))
		{
			if (cJSON_IsNumber(bc_rj(m, "waf")))
				bc_ana_cat(c->sentence, sizeof(c->sentence), " %s %.3f,",
					   bc_rj_str("?", m, "mode"), bc_rj_num(m, "waf"));
			else
				bc_ana_cat(c->sentence, sizeof(c->sentence), " %s %s,",
					   bc_rj_str("?", m, "mode"),
					   bc_rj_str("unknown", m, "waf_status"));
		}
		cJSON_ArrayForEach(v, bc_rj(x, "verdict"))
		    bc_ana_cat(c->sentence, sizeof(c->sentence), " %s: %s;",
			       bc_rj_str("?", v, "expected"), bc_rj_str("?", v, "judgement"));
		c->sentence[strlen(c->sentence) - 1] = '.';
	}
}

/* a value of every agent's HELLO (or host window) counted: "0.1.0 on every client host" */
static void s_versions(char *buf, size_t len, const cJSON *agents, const char *key)
{
	const char *v[8];
	int n[8] = {0}, nv = 0, k, na = 0;
	const cJSON *a;

	cJSON_ArrayForEach(a, agents)
	{
		const char *x = bc_rj_str(NULL, a, "hello", key);

		if (!x)
			continue;
		na++;
		for (k = 0; k < nv && strcmp(v[k], x); k++)
			;
		if (k == nv && nv < 8)
			v[nv++] = x;
		if (k < nv)
			n[k]++;
	}
	if (nv == 1)
		bc_ana_cat(buf, len, "%s on %s client host%s", v[0], na > 1 ? "every" : "the",
			   na > 1 ? "" : "");
	for (k = 0; nv > 1 && k < nv; k++)
		bc_ana_cat(buf, len, "%s%s on %d host%s", k ? ", " : "", v[k], n[k],
			   n[k] == 1 ? "" : "s");
	if (!nv)
		bc_ana_cat(buf, len, "not reported");
}

/* the client NICs the I/O went over, from the first step with host samples */
static void s_nics(char *buf, size_t len, const struct bc_report *r)
{
	const cJSON *st, *a, *nic;
	int hosts = 0;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		cJSON_ArrayForEach(a, bc_rj(st, "agents"))
		{
			bool any = false;

			cJSON_ArrayForEach(nic, bc_rj(a, "host", "window", "nics"))
			{
				char sp[32];

				if (!cJSON_IsTrue(bc_rj(nic, "counted")))
					continue;
				if (hosts < S_NAMES_MAX)
					bc_ana_cat(
					    buf, len, "%s%s %s (MTU %.0f, %s)",
					    any	    ? ", "
					    : hosts ? "; "
						    : "",
					    any ? "" : bc_rj_str("?", a, "name"), nic->string,
					    bc_rj_num(nic, "mtu"),
					    bc_rj(nic, "speed_mbps")
						? bc_fmt_si(bc_rj_num(nic, "speed_mbps") * 8e6,
							    "b/s", sp, sizeof(sp))
						: "link speed not reported");
				any = true;
			}
			hosts += any;
		}
		if (hosts)
			break;
	}
	if (hosts > S_NAMES_MAX)
		bc_ana_cat(buf, len, "; and %d more client hosts", hosts - S_NAMES_MAX);
}

void bc_summary_profile(struct bc_notes *n, const struct bc_report *r)
{
	const cJSON *prof = r->profile, *st, *a, *v;
	const cJSON *agents = bc_rj(r->run, "agents");
	char line[2400] = "";
	int na = cJSON_GetArraySize(bc_rj(prof, "agents")), i = 0;

	bc_notes_add(n, BC_NOTE_PARA, "Profile:", NULL, BC_TONE_NONE, "%s%s%s",
		     bc_rj_str(bc_rj_str("?", r->run, "profile"), prof, "name"),
		     bc_rj(prof, "description") ? ": " : ".", bc_rj_str("", prof, "description"));
	if (cJSON_GetArraySize(bc_rj(prof, "steps")))
		bc_notes_add(n, BC_NOTE_HEAD, NULL, NULL, BC_TONE_NONE,
			     "Steps, as the profile asks");
	cJSON_ArrayForEach(st, bc_rj(prof, "steps"))
	{
		line[0] = '\0';
		s_step_words(line, sizeof(line), st);
		bc_notes_add(n, BC_NOTE_ITEM, NULL, NULL, BC_TONE_NONE, "%s", line);
	}
	/* the volumes of each client host, while they can be listed */
	line[0] = '\0';
	if (na && na <= S_NAMES_MAX * 2) {
		cJSON_ArrayForEach(a, bc_rj(prof, "agents"))
		{
			const char *name = bc_rj_str("?", a, "name");
			int k = 0;

			bc_ana_cat(line, sizeof(line), "%s%s (%s):", i++ ? "; " : "", name,
				   bc_rj_str("?", a, "endpoint"));
			cJSON_ArrayForEach(v, bc_rj(prof, "volumes"))
			{
				if (strcmp(bc_rj_str("", v, "agent"), name))
					continue;
				bc_ana_cat(line, sizeof(line), "%s %s", k++ ? "," : "",
					   bc_rj(v, "nvme_tcp")
					       ? bc_rj_str("?", v, "nvme_tcp", "subnqn")
					       : bc_rj_str("?", v, "path"));
			}
		}
		bc_notes_add(n, BC_NOTE_PARA, "Client hosts and their volumes:", NULL, BC_TONE_NONE,
			     "%s.", line);
	}
	line[0] = '\0';
	bc_ana_cat(line, sizeof(line), "%s; bench-agent ",
		   bc_rj_str("bench-coord", r->run, "tool"));
	s_versions(line, sizeof(line), agents, "version");
	bc_ana_cat(line, sizeof(line), "; kernels: ");
	s_versions(line, sizeof(line), agents, "kernel");
	bc_notes_add(n, BC_NOTE_PARA, "Versions:", NULL, BC_TONE_NONE, "%s.", line);
	line[0] = '\0';
	s_nics(line, sizeof(line), r);
	if (line[0])
		bc_notes_add(n, BC_NOTE_PARA, "Client network:", NULL, BC_TONE_NONE, "%s.", line);
	if (bc_rj(prof, "on_agent_loss"))
		bc_notes_add(n, BC_NOTE_PARA, "An agent lost:", NULL, BC_TONE_NONE,
			     "%s (on_agent_loss).",
			     !strcmp(bc_rj_str("", prof, "on_agent_loss"), "continue")
				 ? "the run continues without it"
				 : "the run stops");
}

void bc_summary_make(struct bc_summary *s, const struct bc_report *r, const struct bc_sweep *sw,
		     int nsw)
{
	const cJSON *st, *lone = NULL;
	int i, first = nsw > BC_SUM_CEIL ? nsw - BC_SUM_CEIL : 0, li = -1;

	memset(s, 0, sizeof(*s));
	s_tested(s, r);
	s_figures(s, r, sw, nsw);
	for (i = first; i < nsw && s->nceil < BC_SUM_CEIL; i++)
		if (sw[i].analysis)
			s_ceiling(&s->ceil[s->nceil++], r, &sw[i], i);
	/* no sweep: the last analysed step speaks for its one load */
	i = 0;
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		/* an experiment's steps answer as the experiment (s_experiments) */
		if (bc_rj(st, "analysis") && !bc_rj(st, "sweep_of") &&
		    !bc_rj(st, "experiment_of")) {
			lone = st;
			li = i;
		}
		i++;
	}
	if (!nsw && lone)
		s_step_ceiling(&s->ceil[s->nceil++], lone, li);
	s_experiments(s, r);
	s_caveats(s, r);
}

void bc_summary_free(struct bc_summary *s)
{
	bc_notes_free(&s->caveats);
}
