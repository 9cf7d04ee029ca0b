/*
 * report/parts/vdbench.c - vdbench's interval table as text (report/parts/vdbench.h):
 * header and row lines column for column as vdbench prints them (widths
 * and decimals of its own interval lines), and summary.md's section from
 * run.json's steps[].vdbench. The rows themselves: results/vdbench.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agg/agg.h"
#include "report/parts/fmt.h"
#include "report/parts/vdbench.h"
#include "results/fullsize.h"
#include "util/clock.h"
#include "util/rjson.h"

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

/* the two header lines, after a lead column of width lead (what on the first line) when lead > 0 */
static void s_header(FILE *f, int lead, const char *what, const char *date)
{
	size_t c;
	int line;

	for (line = 0; line < 2; line++) {
		if (lead)
			fprintf(f, "%-*s", lead, line ? "" : what);
		fprintf(f, "%-12s%12s", line ? "" : date, line ? "" : "interval");
		for (c = 0; c < BC_VDB_NCOLS; c++)
			fprintf(f, "%*s", bc_vdb_cols[c].width,
				line ? bc_vdb_cols[c].head2 : bc_vdb_cols[c].head1);
		fputc('\n', f);
	}
}

void bc_vdb_print_header(FILE *f, const char *date)
{
	s_header(f, 0, NULL, date);
}

void bc_vdb_print_row(FILE *f, const char *time, const char *label, const struct bc_vdb_row *r)
{
	size_t c;

	fprintf(f, "%-12s%12s", time, label);
	/* a figure right-aligned in its columns, "-" where unmeasured */
	for (c = 0; c < BC_VDB_NCOLS; c++) {
		double v = bc_vdb_value(r, c);

		if (isfinite(v))
			fprintf(f, "%*.*f", bc_vdb_cols[c].width, bc_vdb_cols[c].decimals, v);
		else
			fprintf(f, "%*s", bc_vdb_cols[c].width, "-");
	}
	fputc('\n', f);
}

/* one table of run.json's steps[].vdbench (the total's or a host's or sd's) in a text block */
static void s_md_table(FILE *f, const cJSON *v, const cJSON *t, uint64_t t0)
{
	const cJSON *iv;
	struct bc_vdb_row row;
	char date[32], ts[32], label[48];
	uint32_t k = 0;

	fprintf(f, "```text\n");
	bc_vdb_date(t0, date, sizeof(date));
	bc_vdb_print_header(f, date);
	cJSON_ArrayForEach(iv, bc_rj(t, "intervals"))
	{
		k++;
		if (cJSON_IsNull(iv))
			continue; /* no record: vdbench prints no line either */
		bc_vdb_row_from_json(iv, &row);
		bc_vdb_time(t0 + (uint64_t)k * BC_NS_PER_S, ts, sizeof(ts));
		snprintf(label, sizeof(label), "%u", k);
		bc_vdb_print_row(f, ts, label, &row);
	}
	bc_vdb_row_from_json(bc_rj(t, "avg"), &row);
	bc_vdb_time(t0 + (uint64_t)bc_rj_num(v, "last_interval") * BC_NS_PER_S, ts, sizeof(ts));
	bc_vdb_print_row(f, ts, bc_rj_str("avg", v, "avg_label"), &row);
	fprintf(f, "```\n");
}

/* the avg lines of a list of tables (hosts or sds), one a line, after a column of their names */
static void s_md_avgs(FILE *f, const cJSON *v, uint64_t t0, const cJSON *list, const char *what)
{
	const char *label = bc_rj_str("avg", v, "avg_label");
	const cJSON *t;
	struct bc_vdb_row row;
	char date[32];
	int lead = (int)strlen(what) + 2;

	cJSON_ArrayForEach(t, list)
	{
		int n = (int)strlen(bc_rj_str("?", t, "name")) + 2;

		lead = n > lead ? n : lead;
	}
	fprintf(f, "```text\n");
	bc_vdb_date(t0, date, sizeof(date));
	s_header(f, lead, what, date);
	cJSON_ArrayForEach(t, list)
	{
		bc_vdb_row_from_json(bc_rj(t, "avg"), &row);
		fprintf(f, "%-*s", lead, bc_rj_str("?", t, "name"));
		bc_vdb_print_row(f, "", label, &row);
	}
	fprintf(f, "```\n");
}

void bc_vdb_md(FILE *f, const cJSON *st)
{
	const cJSON *v = bc_rj(st, "vdbench"), *hosts = bc_rj(v, "hosts"), *sds = bc_rj(v, "sds"),
		    *t;
	uint64_t t0 = (uint64_t)bc_rj_num(st, "start_ns");
	int nh = cJSON_GetArraySize(hosts), ns = cJSON_GetArraySize(sds);
	bool cut_h, cut_s;

	if (!v)
		return;
	fprintf(f, "\nvdbench interval table (1-based intervals; the avg line covers the measured "
		   "seconds, ramp excluded):\n\n");
	s_md_table(f, v, v, t0);
	/* one host or one sd is the total again: vdbench's host and SD reports add nothing then */
	if (nh < 2 && ns < 2)
		return;
	fprintf(f, "\nPer host and per sd (vdbench's host and SD reports; a host's or sd's own "
		   "seconds have no resp stddev, their avg lines do):\n\n");
	if (nh > 1)
		s_md_avgs(f, v, t0, hosts, "host");
	if (ns > 1)
		s_md_avgs(f, v, t0, sds, "sd");
	/* a summarised level has its avg lines only (results/fullsize.h) */
	cut_h = nh > 1 && !bc_rj(cJSON_GetArrayItem(hosts, 0), "intervals");
	cut_s = ns > 1 && !bc_rj(cJSON_GetArrayItem(sds, 0), "intervals");
	if (cut_h || cut_s)
		fprintf(f,
			"\nThe %s interval tables are left out above %d hosts and %d sds: "
			"their seconds are in seconds.bin (`bench-coord dump-seconds --level "
			"agent|volume`; `report --window` re-windows them).\n",
			cut_h && cut_s ? "host and sd"
			: cut_h	       ? "host"
				       : "sd",
			bc_full_limit(BC_LVL_AGENT), bc_full_limit(BC_LVL_VOLUME));
	cJSON_ArrayForEach(t, hosts)
	{
		if (nh < 2 || !bc_rj(t, "intervals"))
			break;
		fprintf(f, "\nhost ");
		bc_md_puts(f, bc_rj_str("?", t, "name"));
		fprintf(f, ":\n\n");
		s_md_table(f, v, t, t0);
	}
	cJSON_ArrayForEach(t, sds)
	{
		if (ns < 2 || !bc_rj(t, "intervals"))
			break;
		fprintf(f, "\nsd ");
		bc_md_puts(f, bc_rj_str("?", t, "name"));
		fprintf(f, " (host ");
		bc_md_puts(f, bc_rj_str("?", t, "host"));
		fprintf(f, "):\n\n");
		s_md_table(f, v, t, t0);
	}
}
