/*
 * results/fidelity.h (fidelity.c) - whether a step's figures measured the
 * storage, decided once per step from what the agents sent (READY, STEP_DONE,
 * host samples) and rendered by checks.c, results.c, the verdict and the
 * reports:
 *  - the device moved the bytes: per block device under the volumes (the
 *    agents' "device", host/blkdev.h), the bytes the kernel counted against the
 *    bytes the step reports, read and written apart, summed over every volume
 *    and agent on one kernel's device. Below BC_FID_MOVED of what the step
 *    reports, the step is "suspect": direct I/O was answered without the
 *    device (unwritten extents, holes, deallocated blocks, a loop device's
 *    cached backing file), buffered I/O by the page cache, whose share is a
 *    figure either way. Where nothing can be counted, it says why;
 *  - contended client hosts: a host at or near full CPU (or with tasks
 *    waiting for one) while processes outside the run held a large share;
 *    the top ones by name;
 *  - what backs each read window (named warnings) and the layout before the
 *    step, whose time is reported apart from it;
 *  - a block-device volume's own device counted the step's bytes, and in
 *    requests of the workload's size or merged or split into others.
 */
#ifndef BC_RESULTS_FIDELITY_H
#define BC_RESULTS_FIDELITY_H

#include <stdbool.h>

#include <cjson/cJSON.h>

struct bc_step_result;

#define BC_FID_MOVED  0.90 /* the device moved at least this share of the step's bytes */
#define BC_FID_MATCH  0.01 /* a block-device volume's own counters match the agents' this close */
#define BC_FID_OTHERS 0.25 /* processes outside the run hold this share of the host: large */
/* a host is busy at the client CPU suspect's levels: BC_ANA_CPU_U, BC_ANA_CPU_PRESSURE */
#define BC_FID_UNBACKED 0.001 /* a read window this share unbacked gets a named warning */
/* a block-device volume's requests per I/O this far from 1: merged or split, warned */
#define BC_FID_RESHAPED	    0.05
#define BC_FID_RESHAPED_MIN 200 /* I/Os of a direction before its requests are compared */

struct bc_fidelity {
	bool suspect;		/* a device moved less than BC_FID_MOVED of the step's bytes */
	char suspect_why[1024]; /* "the figures did not measure the storage: ..." */
	cJSON *devices; /* [{device, kernel, how, volumes, agents_*, device_*, moved_*, ...}] */
	/* the block-device volumes' own devices: [{device, volumes, agents_*, kernel_*, outcome}]
	 */
	cJSON *accounting;
	bool contended;
	char contended_why[1024]; /* "client host x (agents a, b): CPU 98% busy ...: cc1 ..." */
	cJSON *hosts;		  /* [{kernel, agents, cpu_busy_pct, others_cpu_pct, top, ...}] */
	cJSON *warnings; /* named warnings: [string] (backing, layout off, not measurable) */
	cJSON *backing;	 /* [{agent, volume, path, ...READY's backing}] */
	cJSON *layout;	 /* [{agent, volume, path, bytes, seconds, direct, ...}] */
	double layout_s; /* the layouts' time (the longest agent's), apart from the step */
};

/*
 * A finished step's status: bc_result_ok_status's, "suspect" instead of "ok"
 * when its devices did not move its bytes
 */
const char *bc_fidelity_status(struct bc_step_result *r);

/* computed at the first call and kept in r->fid; never NULL (an empty one without memory) */
struct bc_fidelity *bc_result_fidelity(struct bc_step_result *r);
void bc_fidelity_free(struct bc_fidelity *f);

/*
 * The verdict says it first: "the figures did not measure the storage
 * (...)" and "contended: ..." before the analysis's own sentence, and the
 * evidence lists them; ana (bc_ana_json) is changed in place, NULL is fine.
 */
void bc_fidelity_verdict(const struct bc_fidelity *f, cJSON *ana);

/*
 * What a volume's "backing" (READY, or CHECKED in the pre-flight) says, in
 * one sentence into buf: 1 when it is a named warning (the window is not
 * all written data, or cannot be checked), 0 for a note or nothing ("").
 */
int bc_fidelity_backing_text(const char *vol, const cJSON *backing, char *buf, size_t len);

/* run.json's step keys: "contended", "contention", "device_check", "backing", "layout" */
void bc_fidelity_json(const struct bc_fidelity *f, cJSON *step);

#endif
