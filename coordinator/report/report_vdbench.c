/*
 * report_vdbench.c - vdbench's interval table (bc_vdbench.h): rows from the
 * aggregated seconds and windows, the client hosts' cpu per second, the
 * table's JSON in run.json and its text, column for column as vdbench
 * prints it (widths and decimals of vdbench's own interval lines).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bc_clock.h"
#include "bc_live.h"
#include "bc_vdbench.h"

/* vdbench's MB is 1024**2 bytes (its header says so) */
#define S_MB 1048576.0

static double s_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double s_div(double a, double b)
{
	return b > 0 ? a / b : 0;
}

static void s_row_nan(struct bc_vdb_row *o)
{
	o->rate = o->mb_s = o->bytes_io = o->read_pct = NAN;
	o->resp_ms = o->read_resp_ms = o->write_resp_ms = NAN;
	o->read_max_ms = o->write_max_ms = o->resp_sd_ms = o->queue_depth = NAN;
	o->cpu_pct = o->cpu_sys_pct = NAN;
}

/*
 * The columns every row shares, from counts over secs seconds: ios, bytes
 * and latency sums by op, maxima by op, the standard deviation.
 */
static void s_row(const uint64_t *ios, const uint64_t *bytes, const uint64_t *lat_ns,
		  const uint64_t *max_ns, double sd_ns, double secs, struct bc_vdb_row *o)
{
	double n = 0, b = 0, l = 0;
	int op;

	for (op = 0; op < BC_OP_NR; op++) {
		n += (double)ios[op];
		b += (double)bytes[op];
		l += (double)lat_ns[op];
	}
	o->rate = s_div(n, secs);
	o->mb_s = s_div(b, secs) / S_MB;
	o->bytes_io = s_div(b, n);
	o->read_pct = 100.0 * s_div((double)ios[BC_OP_READ], n);
	o->resp_ms = s_div(l, n) / 1e6;
	o->read_resp_ms = s_div((double)lat_ns[BC_OP_READ], (double)ios[BC_OP_READ]) / 1e6;
	o->write_resp_ms = s_div((double)lat_ns[BC_OP_WRITE], (double)ios[BC_OP_WRITE]) / 1e6;
	o->read_max_ms = ios[BC_OP_READ] ? s_ms(max_ns[BC_OP_READ]) : 0;
	o->write_max_ms = ios[BC_OP_WRITE] ? s_ms(max_ns[BC_OP_WRITE]) : 0;
	o->resp_sd_ms = sd_ns / 1e6;
	/* the mean number of I/Os in flight: arrival rate x time in the system */
	o->queue_depth = o->rate * o->resp_ms / 1e3;
}

void bc_vdb_row_from_sec(const struct bc_secrow *r, double cpu, double sys, struct bc_vdb_row *out)
{
	s_row_nan(out);
	if (!r->reports)
		return; /* nothing was measured: not a zero */
	s_row(r->ios, r->bytes, r->op_lat_sum_ns, r->op_max_ns, (double)r->lat_sd_ns, 1, out);
	out->cpu_pct = cpu;
	out->cpu_sys_pct = sys;
}

void bc_vdb_row_from_window(const struct bc_volstat *w, uint32_t secs, double cpu, double sys,
			    struct bc_vdb_row *out)
{
	uint64_t ios[BC_OP_NR], bytes[BC_OP_NR], lat[BC_OP_NR], mx[BC_OP_NR];
	double m[3] = {0, 0, 0};
	int op;

	s_row_nan(out);
	if (!secs)
		return;
	for (op = 0; op < BC_OP_NR; op++) {
		ios[op] = w->op[op].ios;
		bytes[op] = w->op[op].bytes;
		lat[op] = w->op[op].lat_sum_ns;
		mx[op] = w->op[op].lat_max_ns;
		if (w->op[op].hist.count)
			bc_hist_moments(w->op[op].hist.buckets, 0, BC_HIST_BUCKETS, m);
	}
	s_row(ios, bytes, lat, mx, bc_hist_stddev(m), secs, out);
	out->cpu_pct = cpu;
	out->cpu_sys_pct = sys;
}

static double s_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* the sample of second k in an agent's samples (newest first), or with latest the newest <= k */
static const cJSON *s_sample(const cJSON *arr, uint32_t k, bool latest)
{
	const cJSON *s =
	    arr && arr->child ? arr->child->prev : NULL; /* cJSON: child->prev is last */

	for (; s; s = s == arr->child ? NULL : s->prev) {
		double sec = s_num(s, "second");

		if (sec == (double)k || (latest && sec < (double)k))
			return s;
		if (sec < (double)k)
			return NULL;
	}
	return NULL;
}

void bc_vdb_cpu(const cJSON *hosts, uint32_t k, bool latest, double *cpu, double *sys)
{
	double c = 0, y = 0;
	int nc = 0, ny = 0;
	const cJSON *arr;

	cJSON_ArrayForEach(arr, hosts)
	{
		const cJSON *s = s_sample(arr, k, latest);
		double v = s ? s_num(s, "cpu_busy_pct") : NAN,
		       w = s ? s_num(s, "cpu_sys_pct") : NAN;

		if (!isnan(v)) {
			c += v;
			nc++;
		}
		if (!isnan(w)) {
			y += w;
			ny++;
		}
	}
	*cpu = nc ? c / nc : NAN;
	*sys = ny ? y / ny : NAN;
}

static void s_add(cJSON *o, const char *key, double v, double scale)
{
	cJSON_AddItemToObject(o, key,
			      isfinite(v) ? cJSON_CreateNumber(round(v * scale) / scale)
					  : cJSON_CreateNull());
}

cJSON *bc_vdb_row_json(const struct bc_vdb_row *r)
{
	cJSON *o = cJSON_CreateObject();

	/* six decimals: renderers of run.json round to the table's digits as the live line did */
	s_add(o, "rate", r->rate, 1e6);
	s_add(o, "mb_s", r->mb_s, 1e6);
	s_add(o, "bytes_io", r->bytes_io, 1e6);
	s_add(o, "read_pct", r->read_pct, 1e6);
	s_add(o, "resp_ms", r->resp_ms, 1e6);
	s_add(o, "read_resp_ms", r->read_resp_ms, 1e6);
	s_add(o, "write_resp_ms", r->write_resp_ms, 1e6);
	s_add(o, "read_max_ms", r->read_max_ms, 1e6);
	s_add(o, "write_max_ms", r->write_max_ms, 1e6);
	s_add(o, "resp_stddev_ms", r->resp_sd_ms, 1e6);
	s_add(o, "queue_depth", r->queue_depth, 1e6);
	s_add(o, "cpu_pct", r->cpu_pct, 1e6);
	s_add(o, "cpu_sys_pct", r->cpu_sys_pct, 1e6);
	return o;
}

void bc_vdb_row_from_json(const cJSON *j, struct bc_vdb_row *o)
{
	o->rate = s_num(j, "rate");
	o->mb_s = s_num(j, "mb_s");
	o->bytes_io = s_num(j, "bytes_io");
	o->read_pct = s_num(j, "read_pct");
	o->resp_ms = s_num(j, "resp_ms");
	o->read_resp_ms = s_num(j, "read_resp_ms");
	o->write_resp_ms = s_num(j, "write_resp_ms");
	o->read_max_ms = s_num(j, "read_max_ms");
	o->write_max_ms = s_num(j, "write_max_ms");
	o->resp_sd_ms = s_num(j, "resp_stddev_ms");
	o->queue_depth = s_num(j, "queue_depth");
	o->cpu_pct = s_num(j, "cpu_pct");
	o->cpu_sys_pct = s_num(j, "cpu_sys_pct");
}

void bc_vdb_avg_label(uint32_t first, uint32_t last, char *buf, size_t len)
{
	snprintf(buf, len, "avg_%u-%u", first, last);
}

/* the avg row of r's total over its measured window, cpu the mean of its seconds' */
static void s_avg(const struct bc_step_result *r, struct bc_vdb_row *out)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_entity *t = &g->ent[BC_LVL_TOTAL][0];
	double c = 0, y = 0, cpu, sys;
	int nc = 0, ny = 0;
	uint32_t k;

	for (k = g->ramp_s; k < g->seconds; k++) {
		if (!t->secs[k].reports)
			continue;
		bc_vdb_cpu(r->hosts, k, false, &cpu, &sys);
		if (!isnan(cpu)) {
			c += cpu;
			nc++;
		}
		if (!isnan(sys)) {
			y += sys;
			ny++;
		}
	}
	bc_vdb_row_from_window(&t->window, bc_result_window_secs(g, t), nc ? c / nc : NAN,
			       ny ? y / ny : NAN, out);
}

cJSON *bc_vdb_step_json(const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_entity *t = &g->ent[BC_LVL_TOTAL][0];
	cJSON *o = cJSON_CreateObject(), *iv;
	struct bc_vdb_row row;
	char label[48];
	uint32_t k;

	bc_vdb_avg_label(g->ramp_s + 1, g->seconds, label, sizeof(label));
	cJSON_AddNumberToObject(o, "first_interval", g->ramp_s + 1);
	cJSON_AddNumberToObject(o, "last_interval", g->seconds);
	cJSON_AddStringToObject(o, "avg_label", label);
	iv = cJSON_AddArrayToObject(o, "intervals");
	for (k = 0; k < g->seconds; k++) {
		double cpu, sys;

		if (!t->secs[k].reports) {
			cJSON_AddItemToArray(iv, cJSON_CreateNull());
			continue;
		}
		bc_vdb_cpu(r->hosts, k, false, &cpu, &sys);
		bc_vdb_row_from_sec(&t->secs[k], cpu, sys, &row);
		cJSON_AddItemToArray(iv, bc_vdb_row_json(&row));
	}
	s_avg(r, &row);
	cJSON_AddItemToObject(o, "avg", bc_vdb_row_json(&row));
	return o;
}

void bc_vdb_date(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / BC_NS_PER_S);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%b %d, %Y", &tm);
}

void bc_vdb_time(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / BC_NS_PER_S);
	char hms[16];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03u", hms, (unsigned)(ns % BC_NS_PER_S / 1000000));
}

void bc_vdb_print_header(FILE *f, const char *date)
{
	fprintf(f, "%-12s%12s%11s%9s%8s%7s%9s%9s%9s%9s%9s%9s%7s%6s%6s\n", date, "interval", "i/o",
		"MB/sec", "bytes", "read", "resp", "read", "write", "read", "write", "resp",
		"queue", "cpu%", "cpu%");
	fprintf(f, "%-12s%12s%11s%9s%8s%7s%9s%9s%9s%9s%9s%9s%7s%6s%6s\n", "", "", "rate", "1024**2",
		"i/o", "pct", "time", "resp", "resp", "max", "max", "stddev", "depth", "sys+u",
		"sys");
}

/* a figure right-aligned in width columns with decimals, "-" where unmeasured */
static void s_col(FILE *f, int width, int decimals, double v)
{
	if (isfinite(v))
		fprintf(f, "%*.*f", width, decimals, v);
	else
		fprintf(f, "%*s", width, "-");
}

void bc_vdb_print_row(FILE *f, const char *time, const char *label, const struct bc_vdb_row *r)
{
	fprintf(f, "%-12s%12s", time, label);
	s_col(f, 11, 1, r->rate);
	s_col(f, 9, 2, r->mb_s);
	s_col(f, 8, 0, r->bytes_io);
	s_col(f, 7, 2, r->read_pct);
	s_col(f, 9, 3, r->resp_ms);
	s_col(f, 9, 3, r->read_resp_ms);
	s_col(f, 9, 3, r->write_resp_ms);
	s_col(f, 9, 2, r->read_max_ms);
	s_col(f, 9, 2, r->write_max_ms);
	s_col(f, 9, 3, r->resp_sd_ms);
	s_col(f, 7, 1, r->queue_depth);
	s_col(f, 6, 1, r->cpu_pct);
	s_col(f, 6, 1, r->cpu_sys_pct);
	fputc('\n', f);
}

void bc_vdb_print_avg(FILE *f, const struct bc_step_result *r)
{
	const struct bc_agg *g = &r->agg;
	struct bc_vdb_row row;
	char ts[32], label[48];

	s_avg(r, &row);
	/* without the interval lines above it (--quiet, --json) the line needs its header */
	if (bc_live_mode() == BC_LIVE_QUIET || bc_live_mode() == BC_LIVE_JSON) {
		bc_vdb_date(r->start_ns, ts, sizeof(ts));
		fputc('\n', f);
		bc_vdb_print_header(f, ts);
	}
	bc_vdb_time(r->start_ns + (uint64_t)g->seconds * BC_NS_PER_S, ts, sizeof(ts));
	bc_vdb_avg_label(g->ramp_s + 1, g->seconds, label, sizeof(label));
	bc_vdb_print_row(f, ts, label, &row);
	fflush(f);
}
