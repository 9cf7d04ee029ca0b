/*
 * report/fio.c - fio.json: the run in the shape of fio 3.33's
 * --output-format=json+ so existing fio tooling reads it; and, for runs of
 * several steps (sweeps included), one such file per step in bench-fio's
 * layout (fio/<target>/<bs>/<rw>-<iodepth>-<numjobs>.json) so fio-plot
 * charts a sweep as it charts bench-fio's output.
 *
 * - one agent: fio's plain layout, "jobs" with one entry per step;
 * - several: fio's client/server layout, "client_stats" with one entry per
 *   agent ("hostname", "port") and an "All clients" entry per step; "jobs"
 *   keeps the per-step totals too (fio's client output has none, but
 *   jobs[]-readers such as fio_jsonplus_clat2csv then still read the run);
 * - "global options": the options every step of the document shares, in
 *   fio's spelling (bs "4k", rwmixread only on mixes); "job options" the
 *   rest, with filename and size;
 * - per direction: io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops,
 *   runtime (ms), total_ios, short_ios, slat/clat/lat_ns, per-second
 *   bw_* / iops_* statistics, and json+ "bins" (ns -> count);
 * - usr_cpu / sys_cpu: the agent process's getrusage over the step (STEP_DONE
 *   "cpu", job threads and io_uring workers included) as % of the step's
 *   seconds, summed over agents for totals;
 * - iodepth_level: derived, not sampled: a closed loop without rate,
 *   thinktime or size bound keeps its configured depth, so 100% sits in
 *   that bucket; gated workloads get none;
 * - disk_util: each agent's block devices from its diskstats deltas (ios
 *   only: bench-agent does not read merges, ticks or utilisation).
 *
 * bench-coord measures submission to completion (fio's lat); it does not
 * split off submission latency, so slat_ns is empty and clat_ns carries the
 * same distribution as lat_ns - tools that only read clat see the latency
 * bench-coord measured. Bins are the midpoints of bench-coord's histogram
 * buckets (wire/hist.h), rebuilt from run.json's sparse "hist" pairs. What
 * fio has and bench-coord does not measure (ctx, majf, minf,
 * iodepth_submit/_complete) is left out rather than invented.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "profile/value/units.h"
#include "report/parts/fmt.h"
#include "report/parts/rundata.h"
#include "report/writers.h"
#include "results/files/outfail.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/hist.h"

/* fio's default percentile_list (fio HOWTO, "percentile_list") */
static const double s_pcts[] = {1,  5,	10, 20, 30,   40,   50,	   60,	 70,
				80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

/* fio's latency_ns / latency_us / latency_ms bucket upper bounds (stat.c) */
static const unsigned s_lat_bounds[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};

static const char *const s_ops[] = {"read", "write", "trim"};

struct s_step {
	const struct bc_report *r;
	const cJSON *st;
	double runtime_s;	  /* measured seconds */
	double bs;		  /* bytes per I/O */
	bool bw_per_second_ok;	  /* every measured second's bytes == ios x bs */
	double total_bw_bytes[3]; /* per direction, for bw_agg (% of the step's total) */
};

/* run.json "hist" pairs into h (zeroed first); false when there are none */
static bool s_hist(const cJSON *pairs, struct bc_hist *h)
{
	const cJSON *p;

	bc_hist_reset(h);
	cJSON_ArrayForEach(p, pairs)
	{
		double i = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 0));
		double n = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 1));

		if (!(i >= 0 && i < BC_HIST_BUCKETS) || !(n > 0))
			continue;
		h->buckets[(unsigned)i] += (uint64_t)n;
		h->count += (uint64_t)n;
	}
	return h->count > 0;
}

static double s_hist_stddev(const struct bc_hist *h)
{
	double sum = 0, sq = 0, n = (double)h->count, m;
	unsigned i;

	for (i = 0; i < BC_HIST_BUCKETS && h->count; i++) {
		double v = (double)bc_hist_bucket_mid(i), c = (double)h->buckets[i];

		sum += v * c;
		sq += v * v * c;
	}
	if (n < 2)
		return 0;
	m = sum / n;
	return sqrt(fmax(0, sq / n - m * m));
}

/* {min, max, mean, stddev, N[, percentile, bins]} in ns */
static cJSON *s_lat(const cJSON *op, const struct bc_hist *h, bool have_hist)
{
	cJSON *o = cJSON_CreateObject(), *pct, *bins;
	double ios = bc_rj_num(op, "ios");
	char key[32];
	size_t i;

	cJSON_AddNumberToObject(o, "min", round(bc_rj_num(op, "lat_us", "min") * 1e3));
	cJSON_AddNumberToObject(o, "max", round(bc_rj_num(op, "lat_us", "max") * 1e3));
	cJSON_AddNumberToObject(o, "mean", bc_rj_num(op, "lat_us", "mean") * 1e3);
	cJSON_AddNumberToObject(o, "stddev", have_hist ? s_hist_stddev(h) : 0);
	cJSON_AddNumberToObject(o, "N", ios);
	if (!ios)
		return o; /* fio prints neither percentiles nor bins without samples */
	pct = cJSON_AddObjectToObject(o, "percentile");
	if (have_hist) {
		for (i = 0; i < sizeof(s_pcts) / sizeof(s_pcts[0]); i++) {
			snprintf(key, sizeof(key), "%f", s_pcts[i]);
			cJSON_AddNumberToObject(pct, key, (double)bc_hist_percentile(h, s_pcts[i]));
		}
		bins = cJSON_AddObjectToObject(o, "bins");
		for (i = 0; i < BC_HIST_BUCKETS; i++) {
			if (!h->buckets[i])
				continue;
			snprintf(key, sizeof(key), "%llu",
				 (unsigned long long)bc_hist_bucket_mid((unsigned)i));
			cJSON_AddNumberToObject(bins, key, (double)h->buckets[i]);
		}
	} else {
		/* no histogram in run.json (volumes): the percentiles it has */
		static const char *const have[] = {"p50", "p90", "p99", "p99.9", "p99.99"};
		static const double at[] = {50, 90, 99, 99.9, 99.99};

		for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
			snprintf(key, sizeof(key), "%f", at[i]);
			cJSON_AddNumberToObject(pct, key,
						round(bc_rj_num(op, "lat_us", have[i]) * 1e3));
		}
	}
	return o;
}

static cJSON *s_empty_lat(void)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "min", 0);
	cJSON_AddNumberToObject(o, "max", 0);
	cJSON_AddNumberToObject(o, "mean", 0);
	cJSON_AddNumberToObject(o, "stddev", 0);
	cJSON_AddNumberToObject(o, "N", 0);
	return o;
}

/* min, max, mean, population stddev of per-second values */
static void s_stats(const double *v, int n, double out[4])
{
	double sum = 0, sq = 0;
	int i;

	out[0] = n ? v[0] : 0;
	out[1] = n ? v[0] : 0;
	for (i = 0; i < n; i++) {
		out[0] = fmin(out[0], v[i]);
		out[1] = fmax(out[1], v[i]);
		sum += v[i];
		sq += v[i] * v[i];
	}
	out[2] = n ? sum / n : 0;
	out[3] = n > 1 ? sqrt(fmax(0, sq / n - out[2] * out[2])) : 0;
}

/*
 * Per-second I/O counts of one direction over the measured window: reads
 * from read_iops, writes as all minus reads (valid while no trims ran).
 * Returns the number of seconds, or -1 when run.json cannot tell.
 */
static int s_op_seconds(const struct s_step *s, const cJSON *e, int op, double *out, int cap)
{
	cJSON *tmp;
	const cJSON *ser = bc_report_series(s->r, s->st, e, &tmp);
	const cJSON *all = bc_rj(ser, "iops"), *rd = bc_rj(ser, "read_iops");
	int k, n = 0, from = (int)bc_rj_num(s->st, "measured_from_second");
	int to = (int)bc_rj_num(s->st, "seconds");

	if (!all || !rd || op == 2 || (op == 1 && bc_rj_num(e, "trim", "ios") > 0)) {
		cJSON_Delete(tmp);
		return -1;
	}
	/* walk the lists: indexing a cJSON array each second is quadratic in the step */
	all = cJSON_GetArrayItem(all, from);
	rd = cJSON_GetArrayItem(rd, from);
	for (k = from; k < to && n < cap; k++) {
		double a = cJSON_GetNumberValue(all), r = cJSON_GetNumberValue(rd);

		out[n++] = op == 0 ? r : a - r;
		all = all ? all->next : NULL;
		rd = rd ? rd->next : NULL;
	}
	cJSON_Delete(tmp);
	return n;
}

static void s_add_nums(cJSON *o, const char *const *keys, const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		cJSON_AddNumberToObject(o, keys[i], v[i]);
}

static cJSON *s_ddir(const struct s_step *s, const cJSON *e, int op, const struct bc_hist *h,
		     bool have_hist)
{
	static const char *const bwk[] = {"bw_min", "bw_max", "bw_mean", "bw_dev"};
	static const char *const iok[] = {"iops_min", "iops_max", "iops_mean", "iops_stddev"};
	const cJSON *o = bc_rj(e, s_ops[op]);
	cJSON *d = cJSON_CreateObject();
	double bytes = bc_rj_num(o, "bytes"), ios = bc_rj_num(o, "ios");
	double bw_bytes = s->runtime_s > 0 ? floor(bytes / s->runtime_s) : 0;
	double *per = NULL, st[4];
	int n = -1, i, cap = (int)bc_rj_num(s->st, "seconds") + 1;

	cJSON_AddNumberToObject(d, "io_bytes", bytes);
	cJSON_AddNumberToObject(d, "io_kbytes", floor(bytes / 1024));
	cJSON_AddNumberToObject(d, "bw_bytes", bw_bytes);
	cJSON_AddNumberToObject(d, "bw", floor(bw_bytes / 1024));
	cJSON_AddNumberToObject(d, "iops", s->runtime_s > 0 ? ios / s->runtime_s : 0);
	cJSON_AddNumberToObject(d, "runtime", o ? s->runtime_s * 1000 : 0);
	cJSON_AddNumberToObject(d, "total_ios", ios);
	cJSON_AddNumberToObject(d, "short_ios", bc_rj_num(o, "short"));
	cJSON_AddNumberToObject(d, "drop_ios", 0);
	cJSON_AddItemToObject(d, "slat_ns", s_empty_lat());
	if (o && ios) {
		/* bench-coord measures submission to completion: fio's clat and lat alike */
		cJSON *lat = s_lat(o, h, have_hist);

		cJSON_AddItemToObject(d, "clat_ns", lat);
		cJSON_AddItemToObject(d, "lat_ns", cJSON_Duplicate(lat, 1));
	} else {
		cJSON_AddItemToObject(d, "clat_ns", s_empty_lat());
		cJSON_AddItemToObject(d, "lat_ns", s_empty_lat());
	}
	per = calloc((size_t)cap, sizeof(double));
	if (per && ios)
		n = s_op_seconds(s, e, op, per, cap);
	if (n > 0 && s->bw_per_second_ok) {
		double *bw = calloc((size_t)n, sizeof(double));

		for (i = 0; bw && i < n; i++)
			bw[i] = per[i] * s->bs / 1024;
		s_stats(bw, bw ? n : 0, st);
		s_add_nums(d, bwk, st, 2);
		cJSON_AddNumberToObject(
		    d, "bw_agg",
		    s->total_bw_bytes[op] > 0 ? 100 * bw_bytes / s->total_bw_bytes[op] : 0);
		s_add_nums(d, bwk + 2, st + 2, 2);
		cJSON_AddNumberToObject(d, "bw_samples", n);
		free(bw);
	} else if (!ios) {
		double z[4] = {0};

		s_add_nums(d, bwk, z, 2);
		cJSON_AddNumberToObject(d, "bw_agg", 0);
		s_add_nums(d, bwk + 2, z, 2);
		cJSON_AddNumberToObject(d, "bw_samples", 0);
	}
	if (n > 0 || !ios) {
		s_stats(per, n > 0 ? n : 0, st);
		s_add_nums(d, iok, st, 4);
		cJSON_AddNumberToObject(d, "iops_samples", n > 0 ? n : 0);
	}
	free(per);
	return d;
}

/*
 * fio's latency_ns / latency_us / latency_ms maps: percent of all I/Os per
 * bucket, each labelled by its exclusive upper bound; 1000-1999 ms is
 * "2000" and the rest ">=2000" (fio io_u.c, io_u_mark_lat_*).
 */
static void s_lat_dist(cJSON *job, const struct bc_hist *all)
{
	static const char *const names[] = {"latency_ns", "latency_us", "latency_ms"};
	double pct[3][12] = {{0}};
	char key[16];
	unsigned i, u, b;

	for (i = 0; i < BC_HIST_BUCKETS && all->count; i++) {
		double v = (double)bc_hist_bucket_mid(i);

		if (!all->buckets[i])
			continue;
		u = v < 1e3 ? 0 : v < 1e6 ? 1 : 2;
		v /= u == 0 ? 1 : u == 1 ? 1e3 : 1e6;
		for (b = 0; b < 10 && v >= s_lat_bounds[b]; b++)
			;
		if (b == 10)
			b = v < 2000 ? 10 : 11;
		pct[u][b] += 100.0 * (double)all->buckets[i] / (double)all->count;
	}
	for (u = 0; u < 3; u++) {
		cJSON *o = cJSON_AddObjectToObject(job, names[u]);

		for (b = 0; b < 10; b++) {
			snprintf(key, sizeof(key), "%u", s_lat_bounds[b]);
			cJSON_AddNumberToObject(o, key, pct[u][b]);
		}
		if (u == 2) {
			cJSON_AddNumberToObject(o, "2000", pct[u][10]);
			cJSON_AddNumberToObject(o, ">=2000", pct[u][11]);
		}
	}
}

/* the step's options in fio's spelling, as fio prints job options (all strings) */
static cJSON *s_options(const cJSON *st)
{
	const cJSON *wl = bc_rj(st, "workload");
	const char *rw = bc_rj_str("", wl, "rw");
	cJSON *o = cJSON_CreateObject();
	char v[64];

	cJSON_AddStringToObject(o, "rw", rw);
	if (!strcmp(rw, "rw") || !strcmp(rw, "randrw"))
		cJSON_AddStringToObject(o, "rwmixread",
					bc_fmt_num(bc_rj_num(wl, "rwmixread"), v, sizeof(v)));
	if (cJSON_IsString(bc_rj(wl, "bs")))
		cJSON_AddStringToObject(o, "bssplit", bc_rj_str("", wl, "bs"));
	else
		cJSON_AddStringToObject(o, "bs",
					bc_fmt_size((uint64_t)bc_rj_num(wl, "bs"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "iodepth", bc_fmt_num(bc_rj_num(wl, "iodepth"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "numjobs", bc_fmt_num(bc_rj_num(wl, "numjobs"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "direct", cJSON_IsFalse(bc_rj(wl, "direct")) ? "0" : "1");
	cJSON_AddStringToObject(o, "ioengine", "io_uring");
	if (bc_rj_num(wl, "ramp") > 0)
		cJSON_AddStringToObject(o, "ramp_time",
					bc_fmt_num(bc_rj_num(wl, "ramp"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "runtime", bc_fmt_num(bc_rj_num(wl, "runtime"), v, sizeof(v)));
	if (cJSON_IsTrue(bc_rj(wl, "size_based"))) {
		if (bc_rj_num(wl, "io_size") > 0)
			cJSON_AddStringToObject(
			    o, "io_size",
			    bc_fmt_size((uint64_t)bc_rj_num(wl, "io_size"), v, sizeof(v)));
	} else {
		cJSON_AddStringToObject(o, "time_based", "1");
	}
	if (bc_rj_num(wl, "rate_iops") > 0)
		cJSON_AddStringToObject(o, "rate_iops",
					bc_fmt_num(bc_rj_num(wl, "rate_iops"), v, sizeof(v)));
	if (bc_rj_num(wl, "rate_bw") > 0)
		cJSON_AddStringToObject(
		    o, "rate", bc_fmt_size((uint64_t)bc_rj_num(wl, "rate_bw"), v, sizeof(v)));
	if (strcmp(bc_rj_str("uniform", wl, "random_distribution"), "uniform"))
		cJSON_AddStringToObject(o, "random_distribution",
					bc_rj_str("", wl, "random_distribution"));
	return o;
}

/* a copy of the step's options without those in global (fio's job options) */
static cJSON *s_job_options(const cJSON *st, const cJSON *global, const char *filenames,
			    const char *size)
{
	cJSON *o = s_options(st), *it, *next;

	for (it = o->child; it; it = next) {
		next = it->next;
		if (cJSON_GetObjectItemCaseSensitive(global, it->string))
			cJSON_Delete(cJSON_DetachItemViaPointer(o, it));
	}
	if (filenames && *filenames)
		cJSON_AddStringToObject(o, "filename", filenames);
	if (size && *size)
		cJSON_AddStringToObject(o, "size", size);
	return o;
}

/* the options every step in steps[0..n) shares: fio's "global options" */
static cJSON *s_global_options(const cJSON *const *steps, int n)
{
	cJSON *g = n ? s_options(steps[0]) : cJSON_CreateObject(), *it, *next;
	int i;

	for (i = 1; i < n; i++) {
		cJSON *o = s_options(steps[i]);

		for (it = g->child; it; it = next) {
			next = it->next;
			if (!cJSON_Compare(it, cJSON_GetObjectItemCaseSensitive(o, it->string),
					   true))
				cJSON_Delete(cJSON_DetachItemViaPointer(g, it));
		}
		cJSON_Delete(o);
	}
	return g;
}

/* CPU of agent a (NULL: all agents) over the step as % of its seconds, fio's usr/sys_cpu */
static void s_cpu(cJSON *j, const cJSON *st, const char *agent)
{
	double secs = bc_rj_num(st, "seconds"), u = 0, sy = 0;
	const cJSON *t;
	bool any = false;

	cJSON_ArrayForEach(t, bc_rj(st, "agent_totals"))
	{
		if (agent && strcmp(t->string, agent))
			continue;
		if (!bc_rj(t, "cpu"))
			continue;
		any = true;
		u += bc_rj_num(t, "cpu", "process_user_ns");
		sy += bc_rj_num(t, "cpu", "process_sys_ns");
	}
	/* fio-plot reads both keys; without STEP_DONE accounting there is nothing to give */
	cJSON_AddNumberToObject(j, "usr_cpu", any && secs > 0 ? 100 * u / (secs * 1e9) : 0);
	cJSON_AddNumberToObject(j, "sys_cpu", any && secs > 0 ? 100 * sy / (secs * 1e9) : 0);
}

/* fio's "IO depths" map, derived from the configured depth of an ungated closed loop */
static void s_iodepth_level(cJSON *j, const cJSON *st)
{
	static const char *const labels[] = {"1", "2", "4", "8", "16", "32", ">=64"};
	const cJSON *wl = bc_rj(st, "workload");
	double d = bc_rj_num(wl, "iodepth");
	cJSON *o;
	int b, at;

	if (bc_rj_num(wl, "rate_iops") > 0 || bc_rj_num(wl, "rate_bw") > 0 ||
	    bc_rj_num(wl, "thinktime") > 0 || cJSON_IsTrue(bc_rj(wl, "size_based")) || d < 1)
		return;
	for (at = 0; at < 6 && d >= 2 << at; at++)
		;
	o = cJSON_AddObjectToObject(j, "iodepth_level");
	for (b = 0; b < 7; b++)
		cJSON_AddNumberToObject(o, labels[b], b == at ? 100.0 : 0.0);
}

/* one fio job entry for entity e (the total or one agent) of a step */
static cJSON *s_job(const struct s_step *s, int groupid, const cJSON *e, const char *jobname,
		    cJSON *options, const char *agent)
{
	cJSON *j = cJSON_CreateObject(), *sync;
	struct bc_hist *h = malloc(sizeof(*h)), *all = calloc(1, sizeof(*all));
	int op;

	cJSON_AddStringToObject(j, "jobname", jobname);
	cJSON_AddNumberToObject(j, "groupid", groupid);
	/* fio's error is an errno; a step that did not finish says EIO */
	cJSON_AddNumberToObject(j, "error", strcmp(bc_rj_str("", s->st, "status"), "ok") ? EIO : 0);
	cJSON_AddNumberToObject(j, "eta", 0);
	cJSON_AddNumberToObject(j, "elapsed", bc_rj_num(s->st, "seconds"));
	cJSON_AddItemToObject(j, "job options", options);
	for (op = 0; op < 3 && h && all; op++) {
		bool have = s_hist(bc_rj(e, s_ops[op], "hist"), h);

		if (have)
			bc_hist_merge(all, h);
		cJSON_AddItemToObject(j, s_ops[op], s_ddir(s, e, op, h, have));
	}
	sync = cJSON_AddObjectToObject(j, "sync");
	cJSON_AddNumberToObject(sync, "total_ios", 0);
	cJSON_AddItemToObject(sync, "lat_ns", s_empty_lat());
	cJSON_AddNumberToObject(j, "job_runtime", s->runtime_s * 1000);
	s_cpu(j, s->st, agent);
	s_iodepth_level(j, s->st);
	/* fio prints the three maps for every job, zeros when nothing completed */
	if (all)
		s_lat_dist(j, all);
	cJSON_AddNumberToObject(j, "latency_depth", bc_rj_num(s->st, "workload", "iodepth"));
	cJSON_AddNumberToObject(j, "latency_target", 0);
	cJSON_AddNumberToObject(j, "latency_percentile", 100.0);
	cJSON_AddNumberToObject(j, "latency_window", 0);
	free(h);
	free(all);
	return j;
}

/* is every measured second's byte count its I/O count times bs? */
static bool s_bytes_are_ios_times_bs(const cJSON *st, double bs)
{
	const cJSON *iops = bc_rj(st, "total", "series", "iops");
	const cJSON *mbps = bc_rj(st, "total", "series", "mbps");
	int k, n = (int)bc_rj_num(st, "seconds");

	if (!iops || !mbps || bs <= 0)
		return false;
	for (k = (int)bc_rj_num(st, "measured_from_second"); k < n; k++) {
		double i = cJSON_GetNumberValue(cJSON_GetArrayItem(iops, k));
		double m = cJSON_GetNumberValue(cJSON_GetArrayItem(mbps, k));

		/* mbps is rounded to 3 decimals: 500 bytes either way */
		if (!(fabs(m * 1e6 - i * bs) <= 501))
			return false;
	}
	return true;
}

/* "tcp://host:port" -> port, 0 when there is none */
static double s_port(const char *ep)
{
	const char *c = ep ? strrchr(ep, ':') : NULL;

	return c && c[1] >= '0' && c[1] <= '9' ? atof(c + 1) : 0;
}

/*
 * The agent's volume paths as fio's filename= (':'-separated, "\:" inside a
 * name), and their size when they all have the same one.
 */
static void s_filenames(const struct bc_report *r, const char *agent, char *buf, size_t len,
			char *size, size_t slen)
{
	const cJSON *v;
	const char *p;
	char szbuf[32] = "";
	size_t used = 0;
	bool same = true;

	cJSON_ArrayForEach(v, bc_rj(r->profile, "volumes"))
	{
		const cJSON *vz = bc_rj(v, "size");
		const char *vs = cJSON_IsString(vz) ? vz->valuestring : "";
		char num[32];

		/* the resolved profile has bytes; fio writes sizes as "16m" */
		if (cJSON_IsNumber(vz) && vz->valuedouble > 0)
			vs = bc_fmt_size((uint64_t)vz->valuedouble, num, sizeof(num));

		if (agent && strcmp(bc_rj_str("", v, "agent"), agent))
			continue;
		same &= !*szbuf || !strcmp(szbuf, vs);
		snprintf(szbuf, sizeof(szbuf), "%s", vs);
		if (used && used + 1 < len)
			buf[used++] = ':';
		for (p = bc_rj_str("", v, "path"); *p && used + 2 < len; p++) {
			if (*p == ':')
				buf[used++] = '\\';
			buf[used++] = *p;
		}
	}
	buf[used < len ? used : len - 1] = '\0';
	snprintf(size, slen, "%s", same ? szbuf : "");
}

static const cJSON *s_agent(const cJSON *run, const char *name)
{
	const cJSON *a;

	cJSON_ArrayForEach(
	    a, bc_rj(run, "agents")) if (!strcmp(bc_rj_str("", a, "name"), name)) return a;
	return NULL;
}

static void s_header(const struct bc_report *r, cJSON *out)
{
	const char *started = bc_rj_str(NULL, r->run, "started");
	struct tm tm = {0};
	char when[64] = "";
	time_t t = 0;

	/* "started" is UTC "2026-01-02T03:04:05Z" */
	if (started && strptime(started, "%Y-%m-%dT%H:%M:%SZ", &tm)) {
		t = timegm(&tm);
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", gmtime_r(&t, &tm));
	}
	cJSON_AddStringToObject(out, "fio version", bc_rj_str("bench-coord", r->run, "tool"));
	cJSON_AddNumberToObject(out, "timestamp", (double)t);
	cJSON_AddNumberToObject(out, "timestamp_ms", (double)t * 1000);
	cJSON_AddStringToObject(out, "time", when);
}

/* fio's disk_util: per agent block device, the diskstats deltas of the document's steps */
static void s_disk_util(cJSON *out, const cJSON *const *steps, int n)
{
	cJSON *du = cJSON_AddArrayToObject(out, "disk_util"), *e;
	const cJSON *t, *v;
	int i;

	for (i = 0; i < n; i++) {
		cJSON_ArrayForEach(t, bc_rj(steps[i], "agent_totals"))
		{
			cJSON_ArrayForEach(v, bc_rj(t, "volumes"))
			{
				const char *dev = bc_rj_str(NULL, v, "diskstats", "device");
				const cJSON *x;

				if (!dev)
					continue;
				e = NULL;
				cJSON_ArrayForEach(
				    x, du) if (!strcmp(bc_rj_str("", x, "name"), dev) &&
					       !strcmp(bc_rj_str("", x, "agent"), t->string)) e =
				    (cJSON *)x;
				if (!e) {
					e = cJSON_CreateObject();
					cJSON_AddStringToObject(e, "name", dev);
					cJSON_AddStringToObject(e, "agent", t->string);
					cJSON_AddNumberToObject(e, "read_ios", 0);
					cJSON_AddNumberToObject(e, "write_ios", 0);
					cJSON_AddItemToArray(du, e);
				}
				cJSON_SetNumberValue(cJSON_GetObjectItem(e, "read_ios"),
						     bc_rj_num(e, "read_ios") +
							 bc_rj_num(v, "diskstats", "read_ios"));
				cJSON_SetNumberValue(cJSON_GetObjectItem(e, "write_ios"),
						     bc_rj_num(e, "write_ios") +
							 bc_rj_num(v, "diskstats", "write_ios"));
			}
		}
	}
}

/*
 * Print v as cJSON_Print would at nesting depth within a document (a tab
 * more after every line break per level), then delete it: a document is
 * written one job at a time, so it is never a whole tree in memory (at 100
 * hosts x 4 points the client jobs' latency bins alone would be 150 MB of
 * cJSON), and reads byte for byte as one cJSON_Print of the whole.
 */
static int s_put_nested(FILE *f, cJSON *v, int depth)
{
	char *text = v ? bc_json_print_nested(v, depth) : NULL;
	int rc = text && fputs(text, f) >= 0 ? 0 : text ? -EIO : -ENOMEM;

	cJSON_Delete(v);
	cJSON_free(text);
	return rc;
}

/* a top-level member's key: '\t"key":\t' after the one before it */
static int s_put_key(FILE *f, const char *key, bool first)
{
	char *k =
	    cJSON_PrintUnformatted(&(cJSON){.type = cJSON_String, .valuestring = (char *)key});
	int rc = k && fprintf(f, "%s\t%s:\t", first ? "" : ",\n", k) > 0 ? 0 : -EIO;

	cJSON_free(k);
	return rc;
}

/* one step's figures for its jobs (s_job) */
static void s_step_init(struct s_step *s, const struct bc_report *r, const cJSON *st)
{
	int op;

	*s = (struct s_step){.r = r, .st = st};
	s->runtime_s = bc_rj_num(st, "measured_seconds");
	s->bs = bc_rj_num(st, "workload", "bs");
	s->bw_per_second_ok = s_bytes_are_ios_times_bs(st, s->bs);
	for (op = 0; op < 3; op++)
		s->total_bw_bytes[op] =
		    s->runtime_s > 0
			? floor(bc_rj_num(st, "total", s_ops[op], "bytes") / s->runtime_s)
			: 0;
}

/* an array member's next element, as cJSON_Print separates them */
static int s_put_elem(FILE *f, cJSON *v, bool *first)
{
	int rc = *first ? 0 : fputs(", ", f) < 0 ? -EIO : 0;

	*first = false;
	return rc ? (cJSON_Delete(v), rc) : s_put_nested(f, v, 2);
}

/* fio's "jobs": a job per step, the step's total (one client: with its files) */
static int s_put_jobs(FILE *f, const struct bc_report *r, const cJSON *const *steps, int n,
		      const cJSON *global, bool several)
{
	char files[4096], size[32];
	bool first = true;
	int g, rc = fputc('[', f) < 0 ? -EIO : 0;

	s_filenames(r, NULL, files, sizeof(files), size, sizeof(size));
	for (g = 0; g < n && !rc; g++) {
		struct s_step s;

		s_step_init(&s, r, steps[g]);
		rc = s_put_elem(f,
				s_job(&s, g, bc_rj(steps[g], "total"),
				      bc_rj_str("?", steps[g], "name"),
				      s_job_options(steps[g], global, several ? NULL : files,
						    several ? NULL : size),
				      NULL),
				&first);
	}
	return rc ? rc : fputc(']', f) < 0 ? -EIO : 0;
}

/* fio's client/server "client_stats": per step each client's job, then "All clients" */
static int s_put_clients(FILE *f, const struct bc_report *r, const cJSON *const *steps, int n,
			 const cJSON *global)
{
	char files[4096], size[32];
	bool first = true;
	int g, rc = fputc('[', f) < 0 ? -EIO : 0;

	for (g = 0; g < n && !rc; g++) {
		const cJSON *st = steps[g], *a;
		const char *name = bc_rj_str("?", st, "name");
		struct s_step s;
		cJSON *allc;

		s_step_init(&s, r, st);
		cJSON_ArrayForEach(a, bc_rj(st, "agents"))
		{
			const char *an = bc_rj_str("?", a, "name");
			const cJSON *ra = s_agent(r->run, an);
			cJSON *j;

			if (rc)
				break;
			s_filenames(r, an, files, sizeof(files), size, sizeof(size));
			j = s_job(&s, g, a, name, s_job_options(st, global, files, size), an);
			cJSON_AddStringToObject(j, "hostname",
						bc_rj_str(an, ra, "hello", "hostname"));
			cJSON_AddNumberToObject(j, "port", s_port(bc_rj_str(NULL, ra, "endpoint")));
			cJSON_AddStringToObject(j, "agent", an);
			rc = s_put_elem(f, j, &first);
		}
		if (rc)
			break;
		allc = s_job(&s, g, bc_rj(st, "total"), "All clients",
			     s_job_options(st, global, NULL, NULL), NULL);
		cJSON_AddStringToObject(allc, "hostname", "All clients");
		cJSON_AddNumberToObject(allc, "port", 0);
		rc = s_put_elem(f, allc, &first);
	}
	return rc ? rc : fputc(']', f) < 0 ? -EIO : 0;
}

/* the fio JSON document of steps[0..n), written to f a job at a time */
static int s_document(const struct bc_report *r, const cJSON *const *steps, int n, FILE *f)
{
	cJSON *head = cJSON_CreateObject(), *global = s_global_options(steps, n), *it;
	bool several = cJSON_GetArraySize(bc_rj(r->run, "agents")) > 1;
	int rc = head && global && fputs("{\n", f) >= 0 ? 0 : -ENOMEM;

	if (!rc)
		s_header(r, head);
	for (it = head ? head->child : NULL; it && !rc; it = it->next) {
		rc = s_put_key(f, it->string, it == head->child);
		if (!rc)
			rc = s_put_nested(f, cJSON_Duplicate(it, 1), 1);
	}
	if (!rc)
		rc = s_put_key(f, "global options", false);
	if (!rc)
		rc = s_put_nested(f, cJSON_Duplicate(global, 1), 1);
	if (!rc)
		rc = s_put_key(f, "jobs", false);
	if (!rc)
		rc = s_put_jobs(f, r, steps, n, global, several);
	if (!rc && several)
		rc = s_put_key(f, "client_stats", false);
	if (!rc && several)
		rc = s_put_clients(f, r, steps, n, global);
	cJSON_Delete(head);
	head = cJSON_CreateObject();
	if (!rc && head) {
		s_disk_util(head, steps, n);
		rc = s_put_key(f, "disk_util", false);
		if (!rc)
			rc = s_put_nested(f, cJSON_DetachItemFromObject(head, "disk_util"), 1);
	}
	if (!rc && fputs("\n}\n", f) < 0)
		rc = -EIO;
	cJSON_Delete(head);
	cJSON_Delete(global);
	return rc;
}

/* the run's steps as an array of pointers; caller frees */
static const cJSON **s_steps(const struct bc_report *r, int *n)
{
	const cJSON *st, **v;

	*n = cJSON_GetArraySize(bc_rj(r->run, "steps"));
	v = calloc((size_t)(*n ? *n : 1), sizeof(*v));
	*n = 0;
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps")) if (v) v[(*n)++] = st;
	return v;
}

int bc_report_fio(const struct bc_report *r, FILE *f)
{
	int n, rc;
	const cJSON **steps = s_steps(r, &n);

	rc = steps ? s_document(r, steps, n, f) : -ENOMEM;
	free(steps);
	return rc;
}

static int s_mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return 0;
}

/* a path component from any text: [A-Za-z0-9._-], the rest '-' */
static void s_component(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++)
		out[i] = (in[i] >= 'a' && in[i] <= 'z') || (in[i] >= 'A' && in[i] <= 'Z') ||
				 (in[i] >= '0' && in[i] <= '9') || strchr("._-", in[i])
			     ? in[i]
			     : '-';
	out[i] = '\0';
}

/* bench-fio's path of a step: <target>/<bs>/<rw>-<iodepth>-<numjobs>.json (mixes: <rw><mix>/) */
static void s_point_path(const struct bc_report *r, const cJSON *st, int run, char *out, size_t len)
{
	const cJSON *vols = bc_rj(r->profile, "volumes"), *wl = bc_rj(st, "workload");
	const char *rw = bc_rj_str("", wl, "rw"), *path;
	char target[BC_NAME_MAX], bs[64], mix[16] = "", runs[32] = "";

	/* bench-fio names the directory after the device; several volumes: the profile */
	path = cJSON_GetArraySize(vols) == 1 ? bc_rj_str("", cJSON_GetArrayItem(vols, 0), "path")
					     : bc_rj_str("run", r->profile, "name");
	s_component(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, target, sizeof(target));
	if (cJSON_IsString(bc_rj(wl, "bs")))
		s_component(bc_rj_str("", wl, "bs"), bs, sizeof(bs));
	else
		bc_fmt_size((uint64_t)bc_rj_num(wl, "bs"), bs, sizeof(bs));
	if (!strcmp(rw, "rw") || !strcmp(rw, "randrw"))
		snprintf(mix, sizeof(mix), "%.0f", bc_rj_num(wl, "rwmixread"));
	if (run > 1)
		snprintf(runs, sizeof(runs), "/run-%d", run);
	/* mixes get a <rw><rwmixread> directory above the block size, as in bench-fio */
	if (*mix)
		snprintf(out, len, "%s/fio/%s/%s%s/%s%s/%s-%.0f-%.0f.json", r->dir, target, rw, mix,
			 bs, runs, rw, bc_rj_num(wl, "iodepth"), bc_rj_num(wl, "numjobs"));
	else
		snprintf(out, len, "%s/fio/%s/%s%s/%s-%.0f-%.0f.json", r->dir, target, bs, runs, rw,
			 bc_rj_num(wl, "iodepth"), bc_rj_num(wl, "numjobs"));
}

int bc_report_fio_points(const struct bc_report *r)
{
	int n, i, rc = 0, run;
	const cJSON **steps = s_steps(r, &n);
	char path[BC_PATH_MAX * 2], tmp[BC_PATH_MAX * 2 + 8];
	cJSON *seen = cJSON_CreateObject();

	/* one step: fio.json is that point already */
	for (i = 0; steps && seen && n > 1 && i < n && !rc; i++) {
		FILE *f;

		/* the same point twice (repeats, equal steps): bench-fio's run-N directories */
		for (run = 1; run < 1000; run++) {
			s_point_path(r, steps[i], run, path, sizeof(path));
			if (!cJSON_GetObjectItemCaseSensitive(seen, path))
				break;
		}
		cJSON_AddTrueToObject(seen, path);
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		rc = s_mkdirs(path);
		errno = 0;
		f = rc ? NULL : fopen(tmp, "w");
		if (!rc && !f)
			rc = -errno;
		if (f) {
			rc = s_document(r, &steps[i], 1, f);
			if ((!rc || rc == -EIO) && (fflush(f) || ferror(f)))
				rc = errno ? -errno : -EIO;
			if (fclose(f) && !rc)
				rc = -errno;
			if (!rc && rename(tmp, path))
				rc = -errno;
			if (rc)
				unlink(tmp);
		}
		bc_outfail_note(path, rc);
	}
	cJSON_Delete(seen);
	free(steps);
	return steps ? rc : -ENOMEM;
}
