/*
 * report/parts/nvme.h (report/parts/nvme.c) - the NVMe figures of each volume in
 * summary.md (run.json's side: results/nvme.h)
 */
#ifndef BC_REPORT_PARTS_NVME_H
#define BC_REPORT_PARTS_NVME_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "report/parts/table.h"

/*
 * summary.md: a table of the step's NVMe volumes (st: one run.json step):
 * WAF with its status and source, media and host bytes, temperature
 * min/max, node and how it was decided. Nothing when no volume has NVMe
 * figures.
 */
void bc_report_md_nvme(FILE *f, const cJSON *st);

/*
 * a simulated SSD volume's FTL over the step (v: one of a run.json step's
 * volumes): GC overhead, pools, victims, the counter log; NULL when v has
 * no FTL figures or without memory (both documents show it)
 */
struct bc_table *bc_table_sim_ftl(const cJSON *v);

#endif
