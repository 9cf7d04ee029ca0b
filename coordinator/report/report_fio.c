/*
 * report_fio.c - fio.json: the run in the shape of fio 3.33's
 * --output-format=json+ so existing fio tooling reads it.
 *
 * - "jobs": one entry per step with the total of every agent (what fio
 *   prints with group_reporting), so tools that read jobs[] - such as
 *   fio_jsonplus_clat2csv - see the whole step;
 * - "client_stats": per step, one entry per agent with "hostname" and
 *   "port", then an "All clients" entry - fio's client/server shape;
 * - per direction: io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops,
 *   runtime (ms), total_ios, short_ios, slat/clat/lat_ns, per-second
 *   bw_* / iops_* statistics, and json+ "bins" (ns -> count).
 *
 * bench-coord measures submission to completion (fio's lat); it does not
 * split off submission latency, so slat_ns is empty and clat_ns carries the
 * same distribution as lat_ns - tools that only read clat see the latency
 * bench-coord measured. Bins are the midpoints of bench-coord's histogram
 * buckets (bc_hist.h), rebuilt from run.json's sparse "hist" pairs; figures
 * fio has and bench-coord does not (CPU usage, depth distribution,
 * disk_util) are left out rather than invented.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bc_hist.h"
#include "bc_report.h"

/* fio's default percentile_list (fio HOWTO, "percentile_list") */
static const double s_pcts[] = {1,  5,	10, 20, 30,   40,   50,	   60,	 70,
				80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

/* fio's latency_ns / latency_us / latency_ms bucket upper bounds (stat.c) */
static const unsigned s_lat_bounds[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};

static const char *const s_ops[] = {"read", "write", "trim"};

struct s_step {
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
	const cJSON *all = bc_rj(e, "series", "iops"), *rd = bc_rj(e, "series", "read_iops");
	int k, n = 0, from = (int)bc_rj_num(s->st, "measured_from_second");
	int to = (int)bc_rj_num(s->st, "seconds");

	if (!all || !rd || op == 2 || (op == 1 && bc_rj_num(e, "trim", "ios") > 0))
		return -1;
	/* walk the lists: indexing a cJSON array each second is quadratic in the step */
	all = cJSON_GetArrayItem(all, from);
	rd = cJSON_GetArrayItem(rd, from);
	for (k = from; k < to && n < cap; k++) {
		double a = cJSON_GetNumberValue(all), r = cJSON_GetNumberValue(rd);

		out[n++] = op == 0 ? r : a - r;
		all = all ? all->next : NULL;
		rd = rd ? rd->next : NULL;
	}
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
		cJSON_AddItemToObject(d, "clat_ns", s_lat(o, h, have_hist));
		cJSON_AddItemToObject(d, "lat_ns", s_lat(o, h, have_hist));
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

static cJSON *s_job_options(const struct s_step *s, const char *filenames)
{
	const cJSON *wl = bc_rj(s->st, "workload");
	cJSON *o = cJSON_CreateObject();
	char v[64];

	cJSON_AddStringToObject(o, "rw", bc_rj_str("", wl, "rw"));
	cJSON_AddStringToObject(o, "rwmixread",
				bc_fmt_num(bc_rj_num(wl, "rwmixread"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "bs", bc_fmt_num(bc_rj_num(wl, "bs"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "iodepth", bc_fmt_num(bc_rj_num(wl, "iodepth"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "numjobs", bc_fmt_num(bc_rj_num(wl, "numjobs"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "direct", cJSON_IsFalse(bc_rj(wl, "direct")) ? "0" : "1");
	cJSON_AddStringToObject(o, "ramp_time", bc_fmt_num(bc_rj_num(wl, "ramp"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "runtime", bc_fmt_num(bc_rj_num(wl, "runtime"), v, sizeof(v)));
	cJSON_AddStringToObject(o, "time_based", "1");
	cJSON_AddStringToObject(o, "ioengine", "io_uring");
	if (filenames && *filenames)
		cJSON_AddStringToObject(o, "filename", filenames);
	return o;
}

/* one fio job entry for entity e (the total or one agent) of a step */
static cJSON *s_job(const struct s_step *s, int groupid, const cJSON *e, const char *jobname,
		    const char *filenames)
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
	cJSON_AddItemToObject(j, "job options", s_job_options(s, filenames));
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
	if (all && all->count)
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

/* the agent's volume paths as fio's filename=: ':'-separated, "\:" inside a name */
static void s_filenames(const struct bc_report *r, const char *agent, char *buf, size_t len)
{
	const cJSON *v;
	const char *p;
	size_t used = 0;

	cJSON_ArrayForEach(v, bc_rj(r->profile, "volumes"))
	{
		if (strcmp(bc_rj_str("", v, "agent"), agent))
			continue;
		if (used && used + 1 < len)
			buf[used++] = ':';
		for (p = bc_rj_str("", v, "path"); *p && used + 2 < len; p++) {
			if (*p == ':')
				buf[used++] = '\\';
			buf[used++] = *p;
		}
	}
	buf[used < len ? used : len - 1] = '\0';
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

int bc_report_fio(const struct bc_report *r, FILE *f)
{
	cJSON *out = cJSON_CreateObject(), *jobs, *clients;
	const cJSON *st, *a;
	char files[4096];
	char *text;
	int g = 0, rc = 0, op;

	s_header(r, out);
	jobs = cJSON_AddArrayToObject(out, "jobs");
	clients = cJSON_AddArrayToObject(out, "client_stats");
	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		struct s_step s = {.st = st};
		const char *name = bc_rj_str("?", st, "name");
		cJSON *allc;

		s.runtime_s = bc_rj_num(st, "measured_seconds");
		s.bs = bc_rj_num(st, "workload", "bs");
		s.bw_per_second_ok = s_bytes_are_ios_times_bs(st, s.bs);
		for (op = 0; op < 3; op++)
			s.total_bw_bytes[op] =
			    s.runtime_s > 0
				? floor(bc_rj_num(st, "total", s_ops[op], "bytes") / s.runtime_s)
				: 0;
		/* the total spans hosts: each agent's entry names its own files */
		cJSON_AddItemToArray(jobs, s_job(&s, g, bc_rj(st, "total"), name, NULL));
		cJSON_ArrayForEach(a, bc_rj(st, "agents"))
		{
			const char *an = bc_rj_str("?", a, "name");
			const cJSON *ra = s_agent(r->run, an);
			cJSON *j;

			s_filenames(r, an, files, sizeof(files));
			j = s_job(&s, g, a, name, files);
			cJSON_AddStringToObject(j, "hostname",
						bc_rj_str(an, ra, "hello", "hostname"));
			cJSON_AddNumberToObject(j, "port", s_port(bc_rj_str(NULL, ra, "endpoint")));
			cJSON_AddStringToObject(j, "agent", an);
			cJSON_AddItemToArray(clients, j);
		}
		allc = s_job(&s, g, bc_rj(st, "total"), "All clients", NULL);
		cJSON_AddStringToObject(allc, "hostname", "All clients");
		cJSON_AddNumberToObject(allc, "port", 0);
		cJSON_AddItemToArray(clients, allc);
		g++;
	}
	cJSON_AddArrayToObject(out, "disk_util");
	text = cJSON_Print(out);
	if (!text || fputs(text, f) < 0 || fputc('\n', f) < 0)
		rc = text ? -EIO : -ENOMEM;
	cJSON_free(text);
	cJSON_Delete(out);
	return rc;
}
