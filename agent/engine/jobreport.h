/*
 * engine/jobreport.h - what the job threads add to READY and STEP_DONE: how each
 * job was set up (CPUs, io_uring flags, registered buffers and files), the
 * CPU the step cost, and per volume the verify mismatches with the first
 * offsets. Control thread only; the jobs must have finished for STEP_DONE.
 */
#ifndef BC_ENGINE_JOBREPORT_H
#define BC_ENGINE_JOBREPORT_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "engine/job.h"

/* the agent process's user and system CPU time so far, ns (getrusage RUSAGE_SELF) */
void bc_process_cpu(uint64_t *user_ns, uint64_t *sys_ns);

/*
 * READY and STEP_DONE: "job_setup": [{cpus, ring, ring_entries, ios,
 * fixed_buffers, fixed_files}] onto r, one entry per job: what its setup
 * probed and picked (the io_uring setup flags the kernel took, e.g.
 * "submit_all,single_issuer,defer_taskrun").
 */
void bc_jobreport_setup(cJSON *r, struct bc_job **jobs, int njobs);

/*
 * STEP_DONE: "job_setup" (above), "cpu": {process_user_ns, process_sys_ns (since START, from
 * user0/sys0), jobs_user_ns, jobs_sys_ns (the I/O threads only)} onto r, and
 * for volume t of vols[] (the array STEP_DONE already built) "verify_errors"
 * and "verify_first": [{offset, reason}] (the first few over all jobs, by
 * offset) when the volume was verified.
 */
void bc_jobreport_done(cJSON *r, cJSON *vols, struct bc_job **jobs, int njobs,
		       const struct bc_volstat *totals, const struct bc_workload *vwl,
		       uint64_t user0_ns, uint64_t sys0_ns);

#endif
