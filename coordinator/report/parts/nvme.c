/*
 * report/parts/nvme.c - summary.md's NVMe table of a step, from run.json alone
 * (report/parts/nvme.h): one row per volume that has NVMe figures.
 */
#include <stdbool.h>
#include <string.h>

#include "report/parts/fmt.h"
#include "report/parts/nvme.h"
#include "util/rjson.h"

/* per FDP volume: each handle's free blocks in its unit at both ends, the step's FDP events */
static void s_md_fdp(FILE *f, const cJSON *st)
{
	const cJSON *v, *h, *e;

	cJSON_ArrayForEach(v, bc_rj(st, "volumes"))
	{
		const cJSON *ruhs = bc_rj(v, "nvme_counters", "ruhs");
		const cJSON *ev = bc_rj(v, "nvme_counters", "fdp_events");

		if (!cJSON_GetArraySize(ruhs))
			continue;
		fprintf(f, "\nFDP placement on ");
		bc_md_puts(f, bc_rj_str("?", v, "name"));
		fprintf(f,
			" (RUH status: blocks left in each handle's reclaim unit, start → end):");
		cJSON_ArrayForEach(h, ruhs)
		{
			fprintf(f, " pid %.0f %.0f", bc_rj_num(h, "pid"),
				bc_rj_num(h, "ruamw_start"));
			if (bc_rj_num(h, "ruamw_end") != bc_rj_num(h, "ruamw_start"))
				fprintf(f, "→%.0f", bc_rj_num(h, "ruamw_end"));
			fprintf(f, "%s", h->next ? ";" : ".");
		}
		if (ev) {
			fprintf(f, " FDP events of the step:");
			cJSON_ArrayForEach(e,
					   bc_rj(ev, "host")) if (e->valuedouble > 0 &&
								  strncmp(e->string, "entries", 7))
			    fprintf(f, " host %s %.0f,", e->string, e->valuedouble);
			cJSON_ArrayForEach(
			    e, bc_rj(ev, "controller")) if (e->valuedouble > 0 &&
							    strncmp(e->string, "entries", 7))
			    fprintf(f, " controller %s %.0f,", e->string, e->valuedouble);
			fprintf(f, " (others 0).");
		}
		fprintf(f, "\n");
	}
}

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
	s_md_fdp(f, st);
}
