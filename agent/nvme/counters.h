/*
 * nvme/counters.h - device counters of an NVMe namespace's controller
 * around a step: SMART (LID 02h), OCP extended SMART (LID C0h) and FDP
 * statistics (LID 22h) through NVME_IOCTL_ADMIN_CMD, and the step's WAF from
 * the two samples. Sampled after PREPARE and at the step's end, never on the
 * I/O path. Get Log Page needs CAP_SYS_ADMIN (the kernel's nvme_cmd_allowed
 * lets unprivileged users issue only some Identify commands).
 */
#ifndef BC_NVME_COUNTERS_H
#define BC_NVME_COUNTERS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "nvme/fdp.h"
#include "nvme/nvme.h"
#include "sim/ftl.h"

struct bc_nvme_counters {
	bool sampled; /* the target is an NVMe namespace and a read was tried */
	bool have_smart, have_ocp, have_fdp;
	int smart_err, ocp_err, fdp_err; /* -errno of what is missing, 0 when had */
	struct bc_nvme_smart smart;
	struct bc_nvme_ocp_c0 ocp;
	struct bc_nvme_fdp_stats fdp;
	bool have_sim; /* a simulated SSD (target/sim.c): its FTL's own counters too */
	/*
	 * what the logs describe: SMART is per controller and FDP statistics
	 * per endurance group, not per namespace, so two volumes on one
	 * device report the same deltas; whoever sums volumes must count each
	 * device once ("serial/endgid", or the sim target's path)
	 */
	char device[48];
	struct bc_sim_counters sim;
	/* per reclaim unit handle of a simulated SSD, its first nsim_ruh */
	struct bc_sim_ruh_counters sim_ruh[BC_FDP_PIDS_MAX];
	unsigned nsim_ruh;
	/* FDP namespaces: RUH status (per-handle placement) and the events of the step */
	struct bc_nvme_fdp fdpi;
	bool have_events;		 /* both event logs read */
	bool events_on;			 /* enabled by the agent at this sample */
	struct bc_nvme_fdp_events ev[2]; /* host, controller */
};

/*
 * read what the device offers from path (nvmeXnY or ngXnY); fills c, never
 * fails. On an FDP-enabled namespace also the RUH status and both FDP event
 * logs (target/devcounters.h enables every event type on every handle for the
 * step and disables them at its end).
 */
void bc_nvme_counters_read(const char *path, struct bc_nvme_counters *c);

/*
 * The step's counters from samples a (start) and b (end) as a JSON object
 * the caller owns: deltas, temperatures, and "waf" {status, source, value,
 * media_bytes, host_bytes}; FDP statistics preferred over OCP C0. FDP
 * namespaces add "ruhs" [{pid, ruhid, ruamw_start, ruamw_end}] and
 * "fdp_events" {host{type: count}, controller{...}, entries_start/end}.
 */
cJSON *bc_nvme_counters_json(const struct bc_nvme_counters *a, const struct bc_nvme_counters *b);

#endif
