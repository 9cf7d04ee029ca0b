/*
 * bc_nvme_report.h - the NVMe figures of each volume, into run.json
 * (nvme_results.c) and summary.md (report_nvme.c): per-second composite
 * temperature, device counters with the step's WAF and its status, and how
 * the volume's storage node was decided.
 */
#ifndef BC_NVME_REPORT_H
#define BC_NVME_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

struct bc_step_result;
/*
 * Add volume vol's "nvme_temp" {celsius: [per second, null where none],
 * min_c, max_c} and "nvme_counters" (its STEP_DONE "nvme", with "waf") to its
 * run.json entry e, when its agent reported them.
 */
void bc_result_nvme_volume(const struct bc_step_result *r, int vol, cJSON *e);

/*
 * summary.md: a table of the step's NVMe volumes (st: one run.json step):
 * WAF with its status and source, media and host bytes, temperature
 * min/max, node and how it was decided. Nothing when no volume has NVMe
 * figures.
 */
void bc_report_md_nvme(FILE *f, const cJSON *st);

#endif
