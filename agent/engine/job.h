/*
 * engine/job.h - one job thread: its own io_uring ring driving every target of
 * the step at its iodepth (the workload's op mix, sizes, offset distribution,
 * rate limits, thinktime and verify per volume), recording per-second
 * statistics.
 *
 * Threading contract. The control thread creates, starts, collects and
 * destroys a job; the job thread sets up and tears down its own ring (it is
 * the ring's single issuer) and runs the I/O loop. Per-second results
 * pass through a small ring of slots (struct bc_volstat[ntargets] each):
 * the job thread seals second k by a release store of its sealed counter and
 * moves to the next slot; the control thread reads a sealed slot, merges it,
 * resets it and releases it with another release store. No locks, no
 * allocation and no syscalls other than io_uring_enter on the I/O path.
 *
 * Timeline: interval k covers [start + k s, start + (k+1) s) on the agent's
 * CLOCK_MONOTONIC. The job submits until start + seconds s (or until a
 * size-based volume set has done its pass), then reaps what is still in
 * flight into the drain interval (BC_STATS_DRAIN): those bytes were
 * transferred and count in totals, but belong to no measured second.
 */
#ifndef BC_ENGINE_JOB_H
#define BC_ENGINE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/verify.h"
#include "target/ops.h"
#include "wire/stats.h"

#define BC_JOB_SLOTS 4

/* one ring holds at most this many SQ entries (IORING_MAX_ENTRIES) */
#define BC_JOB_MAX_ENTRIES 32768

/*
 * Write stamp: every BC_JOB_STAMP_BYTES of a write buffer begins with two
 * native-endian u64s, the target byte offset of that spot and the job's
 * write sequence number (0, 1, ... per job over all its targets). The rest
 * is random data filled once. It keeps written blocks distinct (arrays that
 * deduplicate would otherwise see one buffer's content everywhere) and lets
 * tests tell which write landed where.
 */
#define BC_JOB_STAMP_BYTES 4096

struct bc_job_cfg {
	const struct bc_workload *wl; /* the step's: job-level keys, and every volume's default */
	/*
	 * [ntargets] each volume's own workload (the step's with its overrides),
	 * or NULL when every volume runs wl; job-level keys (numjobs, batch
	 * sizes, cpus, sqpoll, hipri) are always taken from wl
	 */
	const struct bc_workload *vwl;
	struct bc_target *targets; /* opened; shared read-only between jobs */
	int ntargets;
	/*
	 * [ntargets] the volume each target's statistics count for, or NULL:
	 * target i is volume i. Several concurrent workloads on one volume are
	 * several targets (copies of its bc_target, one open file) with the
	 * same volume index; bc_job_collect adds them up into acc[volume] and
	 * bc_job_verify_bad takes a volume index.
	 */
	const int *run_vol;
	unsigned job_index; /* 0..numjobs-1: selects the sequential region */
	unsigned numjobs;
	uint64_t seed;
};

struct bc_job;

/*
 * Create the job thread (on its CPUs when cpus_allowed asks) and let it set
 * up its ring, aligned buffers (filled with a non-zero pattern for writes)
 * and stat slots; returns once that is done. Returns NULL with a message in
 * err. The job keeps the workloads by value; cfg->targets must stay open
 * until bc_job_destroy. Sequential workloads split each target's window into
 * numjobs regions of whole blocks (an error when the window has fewer than
 * numjobs blocks).
 */
struct bc_job *bc_job_new(const struct bc_job_cfg *cfg, char *err, size_t errlen);

/*
 * Start the job: it waits until start_mono_ns (CLOCK_MONOTONIC), runs
 * `seconds` intervals (a size-based pass may end sooner: the job then seals
 * the second it ended in and finishes, so the seconds after it and the drain
 * come back empty), then drains. Returns 0, or -EBUSY if already started.
 */
int bc_job_start(struct bc_job *j, uint64_t start_mono_ns, uint32_t seconds);
/*
 * The length of an interval in this host's CLOCK_MONOTONIC, set before
 * bc_job_start: 1 s, or the coordinator's second as this host's clock
 * counts it when the two clocks run at measurably different rates (START's
 * "second_ns"), so that every interval is one second of the coordinator's.
 */
void bc_job_set_second(struct bc_job *j, uint64_t second_ns);

/*
 * Control thread: end the job at the boundary of second `seconds` (counted
 * from its start) instead of its own end, or at the next boundary when it is
 * past that already; the seconds after it never start (STOP: a step that
 * runs until the user stops it). Never later than the job's own end.
 */
void bc_job_stop_at(struct bc_job *j, uint32_t seconds);

/*
 * Control thread: if the job has sealed interval k (or, for k ==
 * BC_STATS_DRAIN, has finished), ADD its per-target stats into
 * acc[0..ntargets) and return 1; otherwise return 0. Intervals must be
 * collected in order 0, 1, ... then BC_STATS_DRAIN (-EINVAL if one is
 * skipped). *merged is set when the job had to fold later seconds into this
 * one because the slot ring was full (the control thread fell behind); the
 * seconds folded away then return 1 with nothing added and *merged set, so
 * the caller still advances one second at a time. After a cancel the job
 * seals the second it was in and finishes: the seconds it never reached
 * return 1 with nothing added. The drain is added once, with any second the
 * job sealed but nobody collected (seconds past a STOP that came late: their
 * I/O was done and counts in the totals, in no measured second); later calls
 * for it return 1 and add nothing.
 */
int bc_job_collect(struct bc_job *j, uint32_t k, struct bc_volstat *acc, bool *merged);

/* what the job set up (for the READY message and logs); any thread after bc_job_new */
struct bc_job_info {
	unsigned ring_entries;	 /* SQ entries: iodepth x ntargets rounded up to 2^n */
	unsigned ios;		 /* I/O slots: iodepth x ntargets */
	bool fixed_buffers;	 /* READ/WRITE_FIXED; false when registration failed */
	int fixed_buffers_errno; /* why not (e.g. -ENOMEM from RLIMIT_MEMLOCK), else 0 */
	bool fixed_files;	 /* IOSQE_FIXED_FILE for targets with an fd */
	char ring_setup[64];	 /* io_uring setup flags in use, e.g. "submit_all,coop_taskrun" */
	char cpus[96];		 /* where the thread runs: "any", "0-3", "2", "0-7 (numa node 0)" */
	/* the submission policy in use ("batch", "pairs", "each") and why ("probe", "profile", ...)
	 */
	char submit[8];
	char submit_why[32];
	/* the probe (submit_why "probe"): I/Os completed with batch [0] and pairs [1], each in
	 * probe_ns */
	uint64_t probe_ios[2];
	uint64_t probe_ns;
	uint64_t submit_calls; /* io_uring_enter calls that submitted, over the run */
	/* the job thread's CPU time (getrusage RUSAGE_THREAD) over the run; read once finished */
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	uint64_t first_submit_ns; /* CLOCK_MONOTONIC of the first submission; read once finished */
};

void bc_job_get_info(const struct bc_job *j, struct bc_job_info *info);

/*
 * 0, or the -errno of an unexpected io_uring_enter failure: the job then
 * stopped submitting, sealed its current second and drained (I/O errors are
 * not reported here: they are counted per op in the stats).
 */
int bc_job_error(struct bc_job *j);

/*
 * Once finished: add the fsyncs and fdatasyncs the job issued on volume vol
 * ("fsync", "fdatasync", "end_fsync"; ios, errors, latency) into *acc
 */
void bc_job_syncs(struct bc_job *j, int vol, struct bc_opcnt *acc);

/*
 * A volume's metadata operations by kind ("meta", engine/meta.h): each
 * kind's counts and latency, the entries passed over (rmdir of a directory
 * not empty, mkdir under one not there), and whether the kind ran out of
 * entries to act on (every file created, every one deleted), which ends
 * the workload's part in the step as vdbench ends such a run.
 */
struct bc_job_meta {
	struct bc_opcnt kind[BC_META_NR];
	uint64_t passed[BC_META_NR];
	bool done[BC_META_NR];
	bool used[BC_META_NR];
};
/* once finished: add the job's metadata operations on volume vol into *acc (reset by caller) */
void bc_job_meta(struct bc_job *j, int vol, struct bc_job_meta *acc);

/* the first verify mismatches a job reports per volume (one per I/O that had any) */
#define BC_JOB_VERIFY_REPORT 8

struct bc_job_bad {
	uint64_t off; /* byte offset of the first bad 4 KiB block of the I/O */
	enum bc_verify_why why;
};

/*
 * Once finished: copy up to max of the first verify mismatches the job saw
 * on volume vol (its targets, bc_job_cfg run_vol) into out; returns how many (0 before the job
 * finished).
 */
int bc_job_verify_bad(struct bc_job *j, int t, struct bc_job_bad *out, int max);

struct bc_kvgen;

/*
 * Once finished: target t's KV-cache store of this job (engine/kvgen.h:
 * its class, worker and what completed), or NULL (not finished, or not a
 * KV workload). Valid until bc_job_destroy.
 */
const struct bc_kvgen *bc_job_kv(struct bc_job *j, int target);

/* true once the thread has drained and exited its loop */
bool bc_job_finished(struct bc_job *j);

/*
 * Ask the thread to stop submitting now and drain (ABORT), or to end without
 * running when it was never started; does not wait (bc_job_finished says when)
 */
void bc_job_cancel(struct bc_job *j);

/* join the thread (cancelling it if still running) and free everything; NULLs *j */
void bc_job_destroy(struct bc_job **j);

#endif
