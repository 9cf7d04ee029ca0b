/*
 * report/parts/steptab.h (report/parts/steptab.c) - the figures of the steps
 * as tables (report/parts/table.h), built once from run.json for summary.md,
 * report.html and volumes.html: the results of every step, a step's
 * entities, an entity across the steps, a summarised level's distribution
 * and extremes, and a sweep's points. Latencies in the unit their magnitude
 * calls for, counts grouped.
 */
#ifndef BC_REPORT_PARTS_STEPTAB_H
#define BC_REPORT_PARTS_STEPTAB_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "report/parts/table.h"

struct bc_report;
struct bc_rank;
struct bc_sweep;

/* a workload in words: "4 KiB random read, iodepth 16, 1 job, ramp 2 s, 10 s measured" */
const char *bc_tab_workload(const cJSON *wl, char *buf, size_t len);
/* the HTML id of step i's section ("step-3") */
const char *bc_tab_step_id(int i, char *buf, size_t len);

/* every step: status, workload, the total's window figures; NULL without steps */
struct bc_table *bc_tab_results(const struct bc_report *r);
/*
 * step st's (index i) total and entities of the levels in mask (1 << lvl of
 * bc_report_levels), each level listed unless too large for the page
 * (whole: always listed, volumes.html); a level not listed is a remark row
 * ("1,600 volumes: summarised below"). NULL without memory.
 */
struct bc_table *bc_tab_step(const struct bc_report *r, const cJSON *st, unsigned mask, bool whole);
/* each entity of level lvl (1 client hosts, 2 storage nodes) across the steps; NULL when none */
struct bc_table *bc_tab_by_level(const struct bc_report *r, int lvl);
/* a summarised level's distribution: quantiles of its entities' IOPS and p99 */
struct bc_table *bc_tab_rank_dist(const struct bc_rank *k, const char *who);
/* the top and bottom of a ranked order (bc_rank) as one table */
struct bc_table *bc_tab_rank_top(const cJSON **order, int n, int lvl, bool p99, const char *title);
/* read and write apart, per step that mixes them: total, client hosts, nodes; NULL when none */
struct bc_table *bc_tab_rw(const struct bc_report *r);
/* the entity (a run.json total, host, node, volume) both read and wrote */
bool bc_tab_mixed(const cJSON *ent);
/* a sweep's points: the swept value, load, throughput, latency, class; the knee marked */
struct bc_table *bc_tab_sweep(const struct bc_sweep *sw);

#endif
