/*
 * summary.c - summary.md, written from the run.json document so that it can
 * be rebuilt from run.json alone: one table per step with the total, every
 * client host, storage node and volume over the measured window.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bc_coord.h"

static double s_num(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static void s_row(FILE *f, const char *label, const cJSON *e)
{
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(e, "lat_us");

	fprintf(f, "| %s | %.0f | %.1f | %.1f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |\n",
		label, s_num(e, "iops"), s_num(e, "mbps"), s_num(e, "read_pct"),
		s_num(lat, "mean") / 1e3, s_num(lat, "p50") / 1e3, s_num(lat, "p90") / 1e3,
		s_num(lat, "p99") / 1e3, s_num(lat, "p99.9") / 1e3, s_num(lat, "max") / 1e3,
		s_num(e, "errors") + s_num(e, "short"));
}

static void s_rows(FILE *f, const cJSON *step, const char *key, const char *prefix)
{
	const cJSON *e;
	char label[1200];

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(step, key))
	{
		snprintf(label, sizeof(label), "%s%s", prefix,
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name")));
		s_row(f, label, e);
	}
}

static void s_steady(FILE *f, const cJSON *ss)
{
	if (!ss)
		return;
	fprintf(f, "\nSteady state (%s, IOPS): mean %.0f, trend %+.2f%%/s (limit %.1f), spread "
		   "%.1f%% (limit %.1f), stddev %.1f%%: %s\n",
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ss, "window")), s_num(ss, "mean"),
		s_num(ss, "slope_pct_per_s"), s_num(ss, "slope_limit_pct"), s_num(ss, "spread_pct"),
		s_num(ss, "spread_limit_pct"), s_num(ss, "stddev_pct"),
		cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(ss, "steady"))
			? "not judged (window too short or no I/O)"
		: cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "steady"))
			? "steady"
			: "**NOT steady**: the average describes no state the system was in");
}

static void s_clock(FILE *f, const cJSON *ck)
{
	const cJSON *a;

	if (!ck)
		return;
	fprintf(f, "\nClocks before START: ");
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(ck, "agents"))
		fprintf(f, "%s offset %+.1f us +-%.1f us; ", a->string, s_num(a, "offset_ns") / 1e3,
			s_num(a, "uncertainty_ns") / 1e3);
	if (cJSON_GetObjectItemCaseSensitive(ck, "start_skew_ns"))
		fprintf(f, "observed start skew %.3f ms (at most %.3f ms).",
			s_num(ck, "start_skew_ns") / 1e6, s_num(ck, "start_skew_bound_ns") / 1e6);
	if (s_num(ck, "max_uncertainty_ns") > 1e6)
		fprintf(f, " **Warning: clock uncertainty above 1 ms.**");
	fprintf(f, "\n");
}

static void s_step(FILE *f, const cJSON *st)
{
	const cJSON *wl = cJSON_GetObjectItemCaseSensitive(st, "workload");
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(st, "error");
	const cJSON *c, *miss = cJSON_GetObjectItemCaseSensitive(st, "incomplete_seconds");

	fprintf(f, "\n## Step %s (%s)\n\n",
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "name")),
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "status")));
	if (cJSON_IsString(err))
		fprintf(f, "**Error:** %s\n\n", err->valuestring);
	fprintf(f, "Workload: rw=%s rwmixread=%.0f bs=%.0f iodepth=%.0f numjobs=%.0f "
		   "direct=%s; ramp %.0f s excluded, %.0f s measured.\n\n",
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(wl, "rw")),
		s_num(wl, "rwmixread"), s_num(wl, "bs"), s_num(wl, "iodepth"), s_num(wl, "numjobs"),
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(wl, "direct")) ? "yes" : "no",
		s_num(st, "measured_from_second"), s_num(st, "measured_seconds"));
	fprintf(f, "| | IOPS | MB/s | read %% | mean ms | p50 ms | p90 ms | p99 ms | p99.9 ms | "
		   "max ms | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	s_row(f, "**total**", cJSON_GetObjectItemCaseSensitive(st, "total"));
	s_rows(f, st, "agents", "agent ");
	s_rows(f, st, "nodes", "node ");
	s_rows(f, st, "volumes", "");
	if (cJSON_GetArraySize(miss))
		fprintf(f, "\nSeconds with missing agent records: %d (see run.json "
			   "incomplete_seconds).\n",
			cJSON_GetArraySize(miss));
	s_steady(f, cJSON_GetObjectItemCaseSensitive(st, "steady_state"));
	s_clock(f, cJSON_GetObjectItemCaseSensitive(st, "clock"));
	fprintf(f, "\nChecks:\n\n");
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(st, "checks"))
	{
		const cJSON *pass = cJSON_GetObjectItemCaseSensitive(c, "pass");

		fprintf(f, "- %s: %s (%s)\n",
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name")),
			cJSON_IsNull(pass) ? "n/a" : cJSON_IsTrue(pass) ? "PASS" : "**FAIL**",
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "detail")));
	}
}

int bc_result_write_summary(const char *path, const struct bc_profile *p, cJSON *run)
{
	const cJSON *st, *a, *err = cJSON_GetObjectItemCaseSensitive(run, "error");
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "# bench-coord run: %s\n\n", p->name);
	fprintf(f, "- status: **%s**\n",
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "status")));
	if (cJSON_IsString(err))
		fprintf(f, "- error: %s\n", err->valuestring);
	fprintf(f, "- started: %s\n- profile: %s\n",
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "started")), p->source);
	fprintf(f, "\n| agent | endpoint | host | cpus | kernel | clock offset us | +- us | rtt us |\n"
		   "|---|---|---|---:|---|---:|---:|---:|\n");
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(run, "agents"))
	{
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(a, "hello");

		fprintf(f, "| %s | %s | %s | %.0f | %s | %.1f | %.1f | %.1f |\n",
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "name")),
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "endpoint")),
			h ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(h, "hostname")) : "-",
			h ? s_num(h, "cpus") : 0,
			h ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(h, "kernel")) : "-",
			s_num(a, "clock_offset_ns") / 1e3, s_num(a, "clock_uncertainty_ns") / 1e3,
			s_num(a, "clock_rtt_ns") / 1e3);
	}
	cJSON_ArrayForEach(st, cJSON_GetObjectItemCaseSensitive(run, "steps"))
		s_step(f, st);
	fprintf(f, "\nLatency is submission to completion per I/O (fio's `lat`), percentiles "
		   "from merged histograms (never averaged).\n");
	return fclose(f) ? -errno : 0;
}
