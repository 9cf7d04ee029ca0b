/*
 * report/parts/nvme.c - summary.md's NVMe table of a step, from run.json alone
 * (report/parts/nvme.h): one row per volume that has NVMe figures.
 */
#include <stdbool.h>
#include <string.h>

#include "report/parts/fmt.h"
#include "report/parts/nvme.h"
#include "report/parts/table.h"
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

/*
 * a simulated SSD's FTL over the step (run.json nvme_counters.sim): GC
 * overhead, free units per pool, victims by cause, and its counter log
 * (FEMU's WAF lines: host and NAND pages, WAF, free units), at most 12
 * lines spread over the step
 */
struct bc_table *bc_table_sim_ftl(const cJSON *v)
{
	static const char *const cols[] = {"=host pages",
					   "=NAND pages",
					   "=WAF since new",
					   "=WAF since last line",
					   "=GC overhead since last line",
					   "free units (hot, cold)",
					   NULL};
	const cJSON *sim = bc_rj(v, "nvme_counters", "sim"), *log, *e, *prev = NULL;
	struct bc_table *t;
	int n, i, step;

	if (!bc_rj(sim, "ftl") || !(t = bc_table_new("", cols)))
		return NULL;
	snprintf(t->title, sizeof(t->title), "Simulated SSD %s, FTL %s", bc_rj_str("?", v, "name"),
		 bc_rj_str("?", sim, "ftl"));
	if (bc_rj(sim, "pools"))
		snprintf(t->intro, sizeof(t->intro),
			 "GC overhead %.1f%% (GC copies / host writes); free units at the end "
			 "%.0f of %.0f (hot pool %.0f of %.0f, cold %.0f of %.0f); host pages hot "
			 "%.0f, cold %.0f; pages promoted %.0f, demoted %.0f.",
			 bc_rj_num(sim, "gc_overhead_pct"), bc_rj_num(sim, "free_rus"),
			 bc_rj_num(sim, "rus"), bc_rj_num(sim, "pools", "hot", "free_rus"),
			 bc_rj_num(sim, "pools", "hot", "rus"),
			 bc_rj_num(sim, "pools", "cold", "free_rus"),
			 bc_rj_num(sim, "pools", "cold", "rus"),
			 bc_rj_num(sim, "pools", "hot", "host_pages"),
			 bc_rj_num(sim, "pools", "cold", "host_pages"),
			 bc_rj_num(sim, "promotions"), bc_rj_num(sim, "demotions"));
	else
		snprintf(t->intro, sizeof(t->intro),
			 "GC overhead %.1f%% (GC copies / host writes); free units at the end "
			 "%.0f of %.0f.",
			 bc_rj_num(sim, "gc_overhead_pct"), bc_rj_num(sim, "free_rus"),
			 bc_rj_num(sim, "rus"));
	snprintf(t->note, sizeof(t->note),
		 "GC victims: forced %.0f, background %.0f, pool %.0f, emergency %.0f; units lent "
		 "to hot %.0f, to cold %.0f.",
		 bc_rj_num(sim, "gc_forced"), bc_rj_num(sim, "gc_background"),
		 bc_rj_num(sim, "gc_pool"), bc_rj_num(sim, "gc_emergency"),
		 bc_rj_num(sim, "lent_hot"), bc_rj_num(sim, "lent_cold"));
	log = bc_rj(sim, "log");
	n = cJSON_GetArraySize(log);
	if (!n)
		bc_table_span(t, BC_CELL_MUTED,
			      "no log line in this step (the \"sim\" key's log_every)");
	step = n > 12 ? (n + 11) / 12 : 1;
	for (i = step - 1; n && i < n + step - 1; i += step) {
		double dh, dn;

		e = cJSON_GetArrayItem(log, i < n ? i : n - 1);
		dh = bc_rj_num(e, "host_pages") - (prev ? bc_rj_num(prev, "host_pages") : 0);
		dn = bc_rj_num(e, "nand_pages") - (prev ? bc_rj_num(prev, "nand_pages") : 0);
		bc_table_int(t, e, bc_rj_num(e, "host_pages"));
		bc_table_int(t, e, bc_rj_num(e, "nand_pages"));
		bc_table_num(t, e, bc_rj_num(e, "nand_pages") / bc_rj_num(e, "host_pages"), 3);
		if (prev && dh > 0) {
			bc_table_num(t, e, dn / dh, 3);
			bc_table_cell(t, BC_CELL_TEXT, "%.1f%%", 100 * (dn - dh) / dh);
		} else {
			bc_table_text(t, "-");
			bc_table_text(t, "-");
		}
		if (bc_rj(sim, "pools"))
			bc_table_cell(t, BC_CELL_TEXT, "%.0f (hot %.0f, cold %.0f)",
				      bc_rj_num(e, "free_rus"), bc_rj_num(e, "hot_free_rus"),
				      bc_rj_num(e, "cold_free_rus"));
		else
			bc_table_cell(t, BC_CELL_TEXT, "%.0f", bc_rj_num(e, "free_rus"));
		prev = e;
		if (i >= n - 1)
			break;
	}
	if (bc_rj_num(sim, "log_lost") > 0)
		bc_table_span(t, BC_CELL_MUTED,
			      "%.0f earlier lines of the step's log were not kept",
			      bc_rj_num(sim, "log_lost"));
	return t;
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
	cJSON_ArrayForEach(v, bc_rj(st, "volumes"))
	{
		struct bc_table *t = bc_table_sim_ftl(v);

		bc_table_md(f, t, 3);
		bc_table_destroy(&t);
	}
}
