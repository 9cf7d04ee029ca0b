/*
 * report/parts/fdp.c - an FDP experiment object (results/fdp.h) rendered for
 * summary.md, report.html and the terminal: modes with WAF and its
 * interval, the verdict rows, the comparison with a reference run.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profile/experiment.h"
#include "profile/profile.h"
#include "report/parts/fdp.h"
#include "report/parts/fmt.h"
#include "report/parts/table.h"
#include "util/rjson.h"

static const char *s_num(const cJSON *m, const char *key, int dec, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, key);

	if (!cJSON_IsNumber(v))
		return "-";
	snprintf(buf, len, "%.*f", dec, v->valuedouble);
	return buf;
}

/* an observed figure: 4 significant decimals for WAF and ms, binary units for bytes */
static const char *s_fig(const cJSON *r, const char *key, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, key);
	const char *metric = bc_rj_str("", r, "metric");

	if (!cJSON_IsNumber(v))
		return "-";
	if (strstr(metric, "bytes"))
		return bc_fmt_bytes(v->valuedouble, buf, len);
	snprintf(buf, len, "%.4g%s", v->valuedouble, strstr(metric, "_ms") ? " ms" : "");
	return buf;
}

/* "7.6612 [7.5904, 7.7320] (8 it.)": the per-iteration mean and its interval, or "-" */
static const char *s_ci_text(const cJSON *m, char *buf, size_t len)
{
	const cJSON *c = bc_rj(m, "waf_ci");

	if (!c)
		snprintf(buf, len, "-");
	else if (!cJSON_IsNumber(bc_rj(c, "lo")))
		snprintf(buf, len, "%.4f (%.0f it., no interval)", bc_rj_num(c, "mean"),
			 bc_rj_num(c, "iterations"));
	else
		snprintf(buf, len, "%.4f [%.4f, %.4f] (%.0f it.)", bc_rj_num(c, "mean"),
			 bc_rj_num(c, "lo"), bc_rj_num(c, "hi"), bc_rj_num(c, "iterations"));
	return buf;
}

/* a JSON number, or "-" (present NULL) */
static void s_cell_num(struct bc_table *t, const cJSON *o, const char *key, int dec)
{
	const cJSON *v = bc_rj(o, key);

	bc_table_num(t, cJSON_IsNumber(v) ? v : NULL, cJSON_IsNumber(v) ? v->valuedouble : 0, dec);
}

/* placements as their profile text: [0,1], "none", "volume" */
static void s_cell_json(struct bc_table *t, const cJSON *v)
{
	char *s = v ? cJSON_PrintUnformatted(v) : NULL;

	bc_table_text(t, s ? s : "-");
	cJSON_free(s);
}

/*
 * The modes: WAF from the experiment's source (OCP C0 over SMART by
 * default) with the other source beside it, write/read/all p50 and p99
 */
static struct bc_table *s_modes_table(const cJSON *x)
{
	static const char *const cols[] = {
	    "mode",	     "placement",     "iterations",	   "=host writes",
	    "=media writes", "=WAF",	      "WAF source",	   "=WAF OCP C0",
	    "=WAF FDP",	     "=write p50 ms", "=write p99 ms",	   "=read p50 ms",
	    "=read p99 ms",  "=all p99 ms",   "WAF per iteration", NULL};
	struct bc_table *t = bc_table_new("Modes", cols);
	char b1[48], b2[48], b3[96];
	const cJSON *m;

	cJSON_ArrayForEach(m, bc_rj(x, "modes"))
	{
		bc_table_text(t, bc_rj_str("?", m, "mode"));
		s_cell_json(t, bc_rj(m, "placement"));
		bc_table_cell(t, BC_CELL_TEXT, "%.0f/%.0f", bc_rj_num(m, "ok_iterations"),
			      bc_rj_num(m, "measure_iterations"));
		bc_table_text(t, bc_fmt_bytes(bc_rj_num(m, "host_write_bytes"), b1, sizeof(b1)));
		bc_table_text(t, bc_fmt_bytes(bc_rj_num(m, "media_write_bytes"), b2, sizeof(b2)));
		s_cell_num(t, m, "waf", 4);
		bc_table_text(t, cJSON_IsNumber(bc_rj(m, "waf")) ? bc_rj_str("-", m, "waf_source")
								 : bc_rj_str("-", m, "waf_status"));
		s_cell_num(t, bc_rj(m, "wafs", "ocp_c0"), "waf", 4);
		s_cell_num(t, bc_rj(m, "wafs", "fdp"), "waf", 4);
		s_cell_num(t, m, "write_p50_ms", 3);
		s_cell_num(t, m, "write_p99_ms", 3);
		s_cell_num(t, m, "read_p50_ms", 3);
		s_cell_num(t, m, "read_p99_ms", 3);
		s_cell_num(t, m, "all_p99_ms", 3);
		bc_table_text(t, s_ci_text(m, b3, sizeof(b3)));
	}
	return t;
}

/* seed 000's criteria table: each row per mode, PASS or FAIL with what was observed */
static struct bc_table *s_criteria_table(const cJSON *x)
{
	const char *cols[BC_TABLE_COLS + 1] = {"criterion", "requirement"};
	const cJSON *m, *r;
	struct bc_table *t;
	int n = 2;

	if (!bc_rj(x, "criteria"))
		return NULL;
	cJSON_ArrayForEach(m, bc_rj(x, "modes")) if (n < BC_TABLE_COLS - 1) cols[n++] =
	    bc_rj_str("?", m, "mode");
	cols[n++] = "result";
	cols[n] = NULL;
	t = bc_table_new("Criteria", cols);
	cJSON_ArrayForEach(r, bc_rj(x, "criteria"))
	{
		int k = 2;

		bc_table_text(t, bc_rj_str("?", r, "criterion"));
		bc_table_text(t, bc_rj_str("?", r, "requirement"));
		cJSON_ArrayForEach(m, bc_rj(x, "modes"))
		{
			const cJSON *c = bc_rj(r, "modes", bc_rj_str("?", m, "mode"));

			if (k++ >= BC_TABLE_COLS - 1)
				break;
			if (!c)
				bc_table_text(t, "-");
			else
				bc_table_cell(
				    t, cJSON_IsTrue(bc_rj(c, "pass")) ? BC_CELL_PASS : BC_CELL_FAIL,
				    "%s: %s", cJSON_IsTrue(bc_rj(c, "pass")) ? "PASS" : "FAIL",
				    bc_rj_str("", c, "observed"));
		}
		bc_table_cell(t, cJSON_IsTrue(bc_rj(r, "pass")) ? BC_CELL_PASS : BC_CELL_FAIL, "%s",
			      cJSON_IsTrue(bc_rj(r, "pass")) ? "PASS" : "FAIL");
	}
	snprintf(t->note, sizeof(t->note), "Result: %s", bc_rj_str("-", x, "result"));
	return t;
}

/* a KV workload's classes in one mode, over its measurement iterations (docs/kv.md) */
static struct bc_table *s_classes_table(const cJSON *m)
{
	static const char *const cols[] = {"workload",
					   "class",
					   "=workers",
					   "data placement",
					   "metadata placement",
					   "=logical store bytes",
					   "=store records",
					   "=prefetch records",
					   "=lifetime mean ms",
					   "=lifetime p99 ms",
					   "=store p99 ms",
					   "=prefetch p99 ms",
					   "=meta p99 ms",
					   "=record failures",
					   NULL};
	char title[96], b1[48];
	struct bc_table *t;
	const cJSON *c;

	if (!bc_rj(m, "classes"))
		return NULL;
	snprintf(title, sizeof(title), "KV classes in %s", bc_rj_str("?", m, "mode"));
	t = bc_table_new(title, cols);
	cJSON_ArrayForEach(c, bc_rj(m, "classes"))
	{
		double st = bc_rj_num(c, "stores"), pf = bc_rj_num(c, "prefetches");

		bc_table_text(t, bc_rj_str("?", c, "name"));
		bc_table_text(t, bc_rj_str("?", c, "class"));
		s_cell_num(t, c, "workers", 0);
		s_cell_json(t, bc_rj(c, "placement"));
		s_cell_json(t, bc_rj(c, "meta_placement"));
		bc_table_text(t, bc_fmt_bytes(bc_rj_num(c, "store_bytes"), b1, sizeof(b1)));
		/* the record counts with what the profile asked, when they differ */
		if (st == bc_rj_num(c, "expected_stores"))
			bc_table_cell(t, BC_CELL_TEXT, "%.0f", st);
		else
			bc_table_cell(t, BC_CELL_FAIL, "%.0f of %.0f", st,
				      bc_rj_num(c, "expected_stores"));
		if (pf == bc_rj_num(c, "expected_prefetches"))
			bc_table_cell(t, BC_CELL_TEXT, "%.0f", pf);
		else
			bc_table_cell(t, BC_CELL_FAIL, "%.0f of %.0f", pf,
				      bc_rj_num(c, "expected_prefetches"));
		s_cell_num(t, bc_rj(c, "lifetime"), "mean_ms", 1);
		s_cell_num(t, bc_rj(c, "lifetime"), "p99_ms", 1);
		s_cell_num(t, bc_rj(c, "latency", "store"), "p99_ms", 3);
		s_cell_num(t, bc_rj(c, "latency", "prefetch"), "p99_ms", 3);
		s_cell_num(t, bc_rj(c, "latency", "meta"), "p99_ms", 3);
		s_cell_num(t, c, "record_failures", 0);
	}
	return t;
}

/* the experiment's tables in Markdown or HTML */
static void s_tables(FILE *f, const cJSON *x, bool html)
{
	struct bc_table *t = s_modes_table(x);
	const cJSON *m;

	if (t)
		html ? bc_table_html(f, t, 4) : bc_table_md(f, t, 3);
	bc_table_destroy(&t);
	t = s_criteria_table(x);
	if (t)
		html ? bc_table_html(f, t, 4) : bc_table_md(f, t, 3);
	bc_table_destroy(&t);
	cJSON_ArrayForEach(m, bc_rj(x, "modes"))
	{
		t = s_classes_table(m);
		if (t)
			html ? bc_table_html(f, t, 4) : bc_table_md(f, t, 3);
		bc_table_destroy(&t);
	}
}

void bc_fdp_md(FILE *f, const cJSON *x)
{
	char b1[48], b2[48], b3[32], b4[32], b5[32];
	const cJSON *m, *r;

	if (!x)
		return;
	fprintf(f, "\n## FDP experiment: ");
	bc_md_puts(f, bc_rj_str("?", x, "step"));
	fprintf(f, "\n\nWAF = media bytes written / host bytes written (device counters) summed "
		   "over each mode's measurement iterations: OCP C0 physical media units written "
		   "over SMART data units written where the device has the OCP log (seed 000's "
		   "WAF), the FDP statistics' MBMW over HBMW beside it; latency from their merged "
		   "histograms.\n");
	s_tables(f, x, false);
	fprintf(f, "\nGarbage collection: ");
	bc_md_puts(f, bc_rj_str("-", x, "gc", "note"));
	fprintf(f, "\n\n### Expected vs observed\n\n");
	fprintf(f, "| expected | observed | verdict | real difference (than - lower) |\n"
		   "|---|---|---|---|\n");
	cJSON_ArrayForEach(r, bc_rj(x, "verdict"))
	{
		fprintf(f, "| ");
		bc_md_puts(f, bc_rj_str("?", r, "expected"));
		fprintf(f, " | %s vs %s | ", s_fig(r, "observed_lower", b1, sizeof(b1)),
			s_fig(r, "observed_than", b2, sizeof(b2)));
		bc_md_puts(f, bc_rj_str("?", r, "judgement"));
		fprintf(f, " | ");
		bc_md_puts(f, bc_rj_str("-", r, "real_difference"));
		fprintf(f, " |\n");
	}
	if (bc_rj(x, "reference")) {
		fprintf(f, "\n### Reference run: ");
		bc_md_puts(f, bc_rj_str("?", x, "reference", "dir"));
		fprintf(f, "\n\n");
		if (bc_rj(x, "reference", "error")) {
			bc_md_puts(f, bc_rj_str("", x, "reference", "error"));
			fprintf(f, "\n");
		} else {
			fprintf(f, "| mode | reference WAF | WAF | delta | reference write p99 ms "
				   "| write p99 ms |\n|---|---:|---:|---:|---:|---:|\n");
		}
		cJSON_ArrayForEach(m, bc_rj(x, "reference", "modes"))
		{
			fprintf(f, "| ");
			bc_md_puts(f, bc_rj_str("?", m, "mode"));
			fprintf(f, " | %s | %s | %s | %s | %s |\n",
				s_num(m, "reference_waf", 4, b1, sizeof(b1)),
				s_num(m, "waf", 4, b2, sizeof(b2)),
				s_num(m, "waf_delta", 4, b3, sizeof(b3)),
				s_num(m, "reference_write_p99_ms", 3, b4, sizeof(b4)),
				s_num(m, "write_p99_ms", 3, b5, sizeof(b5)));
		}
	}
}

void bc_fdp_print(FILE *f, const cJSON *x)
{
	char b1[48], b2[48], b3[32], b4[32], b5[32], b6[32], b7[32], b8[32];
	const cJSON *m, *r, *c;

	fprintf(f, "\nexperiment %s:\n", bc_rj_str("?", x, "step"));
	fprintf(f, "  %-12s %12s %12s %9s %-7s %9s %9s %9s %9s %9s\n", "mode", "host", "media",
		"WAF", "source", "OCP WAF", "FDP WAF", "write p99", "read p99", "all p99");
	cJSON_ArrayForEach(m, bc_rj(x, "modes"))
	{
		fprintf(f, "  %-12s %12s %12s %9s %-7s %9s %9s %9s %9s %9s%s%s\n",
			bc_rj_str("?", m, "mode"),
			bc_fmt_bytes(bc_rj_num(m, "host_write_bytes"), b1, sizeof(b1)),
			bc_fmt_bytes(bc_rj_num(m, "media_write_bytes"), b2, sizeof(b2)),
			s_num(m, "waf", 4, b3, sizeof(b3)), bc_rj_str("-", m, "waf_source"),
			s_num(bc_rj(m, "wafs", "ocp_c0"), "waf", 4, b4, sizeof(b4)),
			s_num(bc_rj(m, "wafs", "fdp"), "waf", 4, b5, sizeof(b5)),
			s_num(m, "write_p99_ms", 3, b6, sizeof(b6)),
			s_num(m, "read_p99_ms", 3, b7, sizeof(b7)),
			s_num(m, "all_p99_ms", 3, b8, sizeof(b8)),
			cJSON_IsNumber(bc_rj(m, "waf")) ? "" : "  ",
			cJSON_IsNumber(bc_rj(m, "waf")) ? "" : bc_rj_str("", m, "waf_status"));
		cJSON_ArrayForEach(c, bc_rj(m, "classes"))
		    fprintf(f,
			    "    %-30s %2.0f workers %11s stores %8.0f/%-8.0f prefetches "
			    "%8.0f/%-8.0f lifetime p99 %s ms\n",
			    bc_rj_str("?", c, "name"), bc_rj_num(c, "workers"),
			    bc_fmt_bytes(bc_rj_num(c, "store_bytes"), b1, sizeof(b1)),
			    bc_rj_num(c, "stores"), bc_rj_num(c, "expected_stores"),
			    bc_rj_num(c, "prefetches"), bc_rj_num(c, "expected_prefetches"),
			    s_num(bc_rj(c, "lifetime"), "p99_ms", 1, b2, sizeof(b2)));
	}
	fprintf(f, "  gc: %s\n", bc_rj_str("-", x, "gc", "note"));
	cJSON_ArrayForEach(r, bc_rj(x, "verdict"))
	    fprintf(f, "  expected %-40s observed %s vs %s: %s%s%s\n",
		    bc_rj_str("?", r, "expected"), s_fig(r, "observed_lower", b1, sizeof(b1)),
		    s_fig(r, "observed_than", b2, sizeof(b2)), bc_rj_str("?", r, "judgement"),
		    bc_rj(r, "real_difference") ? "; real difference: " : "",
		    bc_rj_str("", r, "real_difference"));
	cJSON_ArrayForEach(r, bc_rj(x, "criteria")) if (!cJSON_IsTrue(bc_rj(r, "pass")))
	    fprintf(f, "  criterion failed: %s (%s)\n", bc_rj_str("?", r, "criterion"),
		    bc_rj_str("?", r, "requirement"));
	if (bc_rj(x, "result"))
		fprintf(f, "  criteria: %s\n", bc_rj_str("?", x, "result"));
	fflush(f);
}

void bc_fdp_html(FILE *f, const cJSON *x)
{
	const cJSON *r;
	char b1[48], b2[48];

	if (!x)
		return;
	fprintf(f, "<h3>FDP experiment ");
	bc_html_puts(f, bc_rj_str("?", x, "step"));
	fprintf(f, "</h3>\n");
	s_tables(f, x, true);
	fprintf(f, "<p>Garbage collection: ");
	bc_html_puts(f, bc_rj_str("-", x, "gc", "note"));
	fprintf(f, "</p>\n<table>\n<tr><th>expected</th><th>observed</th><th>verdict</th>"
		   "<th>real difference (than - lower)</th></tr>\n");
	cJSON_ArrayForEach(r, bc_rj(x, "verdict"))
	{
		fprintf(f, "<tr><td>");
		bc_html_puts(f, bc_rj_str("?", r, "expected"));
		fprintf(f, "</td><td>%s vs ", s_fig(r, "observed_lower", b1, sizeof(b1)));
		fprintf(f, "%s</td><td>", s_fig(r, "observed_than", b2, sizeof(b2)));
		bc_html_puts(f, bc_rj_str("?", r, "judgement"));
		fprintf(f, "</td><td>");
		bc_html_puts(f, bc_rj_str("-", r, "real_difference"));
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}
