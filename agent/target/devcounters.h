/*
 * target/devcounters.h - the device counters of a step's targets around the
 * step (SMART, OCP C0, FDP statistics and events, the WAF they give):
 * read from an NVMe namespace's path (nvme/counters.h), or from a target
 * that answers Get Log Page itself (a simulated SSD). Never on the I/O path.
 */
#ifndef BC_TARGET_DEVCOUNTERS_H
#define BC_TARGET_DEVCOUNTERS_H

#include <cjson/cJSON.h>

#include "nvme/counters.h"
#include "target/ops.h"

/*
 * One sample per target that is an NVMe namespace, or that answers Get Log
 * Page itself (BC_TCTL_GET_LOG: a simulated SSD, read with the same
 * parsers): an array of n the caller frees, or NULL when no target is
 * either (or out of memory). On an FDP-enabled namespace every event type
 * is enabled on every handle for the step; bc_devcounters_end_json
 * disables them again.
 */
struct bc_nvme_counters *bc_devcounters_sample_all(const struct bc_target *t, int n);

/* read the end sample for t and add "nvme" to v when start was sampled */
void bc_devcounters_end_json(const struct bc_target *t, const struct bc_nvme_counters *start,
			     cJSON *v);

#endif
