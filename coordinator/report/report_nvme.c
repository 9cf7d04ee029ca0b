/*
 * report_nvme.c - summary.md's NVMe table of a step, from run.json alone
 * (see bc_nvme_report.h): one row per volume that has NVMe figures.
 */
#include <stdbool.h>
#include <string.h>

#include "bc_nvme_report.h"
#include "bc_report.h"

void bc_report_md_nvme(FILE *f, const cJSON *st)
{
	const cJSON *v;
	bool any = false;
	char b[2][32];

	cJSON_ArrayForEach(v, bc_rj(st, "volumes"))
	{
		const cJSON *t = bc_rj(v, "nvme_temp"), *w = bc_rj(v, "nvme_counters", "waf");

		if (!t && !w)
			continue;
		if (!any)
			fprintf(f,
				"\nNVMe devices (counters over the step, ramp included; "
				"temperature each second):\n\n| volume | node (decided by) | WAF "
				"| WAF status | source | media bytes | host bytes | temp min °C "
				"| temp max °C |\n|---|---|---:|---|---|---:|---:|---:|---:|\n");
		any = true;
		fprintf(f, "| ");
		bc_md_puts(f, bc_rj_str("?", v, "name"));
		fprintf(f, " | ");
		bc_md_puts(f, bc_rj_str("-", v, "node"));
		if (bc_rj(v, "node_source")) {
			fprintf(f, " (");
			bc_md_puts(f, bc_rj_str("", v, "node_source"));
			fprintf(f, ")");
		}
		if (bc_rj(w, "value"))
			fprintf(f, " | %.3f | ", bc_rj_num(w, "value"));
		else
			fprintf(f, " | - | ");
		bc_md_puts(f, w ? bc_rj_str("?", w, "status") : "not sampled");
		fprintf(f, " | %s | %s | %s | ", w ? bc_rj_str("-", w, "source") : "-",
			w ? bc_fmt_bytes(bc_rj_num(w, "media_bytes"), b[0], sizeof(b[0])) : "-",
			w ? bc_fmt_bytes(bc_rj_num(w, "host_bytes"), b[1], sizeof(b[1])) : "-");
		if (t)
			fprintf(f, "%.1f | %.1f |\n", bc_rj_num(t, "min_c"), bc_rj_num(t, "max_c"));
		else
			fprintf(f, "- | - |\n");
	}
}
