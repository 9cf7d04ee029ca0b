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
#include "report/parts/svg.h"
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

void bc_fdp_md(FILE *f, const cJSON *x)
{
	char b8[96];
	char b1[48], b2[48], b3[32], b4[32], b5[32], b6[32], b7[32];
	const cJSON *m, *r;

	if (!x)
		return;
	fprintf(f, "\n## FDP experiment: ");
	bc_md_puts(f, bc_rj_str("?", x, "step"));
	fprintf(f, "\n\nWAF = media bytes written / host bytes written (device counters) summed "
		   "over each mode's measurement iterations; latency from their merged "
		   "histograms.\n\n");
	fprintf(f, "| mode | placement | iterations | host writes | media writes | WAF | WAF "
		   "status | read p50 ms | read p99 ms | write p50 ms | write p99 ms | WAF per "
		   "iteration, mean [95%% CI] |\n");
	fprintf(f, "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
	cJSON_ArrayForEach(m, bc_rj(x, "modes"))
	{
		char *pl = cJSON_PrintUnformatted(bc_rj(m, "placement"));

		fprintf(f, "| ");
		bc_md_puts(f, bc_rj_str("?", m, "mode"));
		fprintf(f, " | ");
		bc_md_puts(f, pl ? pl : "-");
		cJSON_free(pl);
		fprintf(f, " | %.0f/%.0f | %s | %s | %s | ", bc_rj_num(m, "ok_iterations"),
			bc_rj_num(m, "measure_iterations"),
			bc_fmt_bytes(bc_rj_num(m, "host_write_bytes"), b1, sizeof(b1)),
			bc_fmt_bytes(bc_rj_num(m, "media_write_bytes"), b2, sizeof(b2)),
			s_num(m, "waf", 4, b3, sizeof(b3)));
		bc_md_puts(f, bc_rj_str("-", m, "waf_status"));
		fprintf(f, " | %s | %s | %s | %s | %s |\n",
			s_num(m, "read_p50_ms", 3, b4, sizeof(b4)),
			s_num(m, "read_p99_ms", 3, b5, sizeof(b5)),
			s_num(m, "write_p50_ms", 3, b6, sizeof(b6)),
			s_num(m, "write_p99_ms", 3, b7, sizeof(b7)), s_ci_text(m, b8, sizeof(b8)));
	}
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
	char b1[48], b2[48], b3[32], b4[32];
	const cJSON *m, *r;

	fprintf(f, "\nexperiment %s:\n", bc_rj_str("?", x, "step"));
	fprintf(f, "  %-12s %12s %12s %9s %12s\n", "mode", "host", "media", "WAF", "write p99 ms");
	cJSON_ArrayForEach(m, bc_rj(x, "modes"))
	    fprintf(f, "  %-12s %12s %12s %9s %12s%s%s\n", bc_rj_str("?", m, "mode"),
		    bc_fmt_bytes(bc_rj_num(m, "host_write_bytes"), b1, sizeof(b1)),
		    bc_fmt_bytes(bc_rj_num(m, "media_write_bytes"), b2, sizeof(b2)),
		    s_num(m, "waf", 4, b3, sizeof(b3)), s_num(m, "write_p99_ms", 3, b4, sizeof(b4)),
		    cJSON_IsNumber(bc_rj(m, "waf")) ? "" : "  ",
		    cJSON_IsNumber(bc_rj(m, "waf")) ? "" : bc_rj_str("", m, "waf_status"));
	fprintf(f, "  gc: %s\n", bc_rj_str("-", x, "gc", "note"));
	cJSON_ArrayForEach(r, bc_rj(x, "verdict"))
	    fprintf(f, "  expected %-40s observed %s vs %s: %s%s%s\n",
		    bc_rj_str("?", r, "expected"), s_fig(r, "observed_lower", b1, sizeof(b1)),
		    s_fig(r, "observed_than", b2, sizeof(b2)), bc_rj_str("?", r, "judgement"),
		    bc_rj(r, "real_difference") ? "; real difference: " : "",
		    bc_rj_str("", r, "real_difference"));
	fflush(f);
}

void bc_fdp_html(FILE *f, const cJSON *x)
{
	const char *labels[BC_EXP_MODES_MAX];
	double v[BC_EXP_MODES_MAX];
	char id[BC_NAME_MAX + 8], b1[48], b2[48], b3[96];
	struct bc_svg_chart c = {.title = "WAF per mode (measurement iterations)",
				 .x_label = "placement mode",
				 .y_label = "WAF (media / host writes)"};
	const cJSON *m, *r;
	int n = 0;

	if (!x)
		return;
	snprintf(id, sizeof(id), "waf-%s", bc_rj_str("", x, "step"));
	c.id = id;
	fprintf(f, "<h3>FDP experiment ");
	bc_html_puts(f, bc_rj_str("?", x, "step"));
	fprintf(f, "</h3>\n<table>\n<tr><th>mode</th><th>host writes</th><th>media writes</th>"
		   "<th>WAF</th><th>WAF status</th><th>write p99 ms</th><th>read p99 ms</th>"
		   "<th>WAF per iteration, mean [95%% CI]</th></tr>\n");
	cJSON_ArrayForEach(m, bc_rj(x, "modes"))
	{
		const cJSON *w = bc_rj(m, "waf");

		fprintf(f, "<tr><td>");
		bc_html_puts(f, bc_rj_str("?", m, "mode"));
		fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>",
			bc_fmt_bytes(bc_rj_num(m, "host_write_bytes"), b1, sizeof(b1)),
			bc_fmt_bytes(bc_rj_num(m, "media_write_bytes"), b2, sizeof(b2)),
			cJSON_IsNumber(w) ? "" : "-");
		if (cJSON_IsNumber(w))
			fprintf(f, "%.4f", w->valuedouble);
		fprintf(f, "</td><td>");
		bc_html_puts(f, bc_rj_str("-", m, "waf_status"));
		fprintf(f, "</td><td>%s</td>", s_num(m, "write_p99_ms", 3, b1, sizeof(b1)));
		fprintf(f, "<td>%s</td>", s_num(m, "read_p99_ms", 3, b1, sizeof(b1)));
		fprintf(f, "<td>%s</td></tr>\n", s_ci_text(m, b3, sizeof(b3)));
		if (cJSON_IsNumber(w) && n < BC_EXP_MODES_MAX) {
			labels[n] = bc_rj_str("?", m, "mode");
			v[n++] = w->valuedouble;
		}
	}
	fprintf(f, "</table>\n<p>Garbage collection: ");
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
	if (n) {
		fprintf(f, "<div class=\"charts\"><figure>");
		bc_svg_bars(f, &c, labels, v, n);
		fprintf(f, "</figure></div>\n");
	}
}
