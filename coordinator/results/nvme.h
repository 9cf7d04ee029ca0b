/*
 * results/nvme.h (results/nvme.c) - the NVMe figures of each volume in
 * run.json: per-second composite temperature, device counters with the
 * step's WAF and its status, and how the volume's storage node was decided
 */
#ifndef BC_RESULTS_NVME_H
#define BC_RESULTS_NVME_H

#include <cjson/cJSON.h>

struct bc_step_result;
/*
 * Add volume vol's "nvme_temp" {celsius: [per second, null where none],
 * min_c, max_c} and "nvme_counters" (its STEP_DONE "nvme", with "waf") to its
 * run.json entry e, when its agent reported them. li: its place among its
 * agent's volumes (0, 1, ... in profile order), as the agent reports them; -1: unknown, nothing
 * added.
 */
void bc_result_nvme_volume(const struct bc_step_result *r, int vol, int li, cJSON *e);

#endif
