/*
 * profile/volume_wl.h - per-volume workloads: a volume's "workload" (its
 * overrides in every step) and a step's "volume_workloads" ({"<volume
 * index>": overrides}, that step only, over the volume's own). Parsed once
 * when the profile is loaded, with errors naming the JSON path; every
 * (step, volume) pair is checked then, so resolving a volume's workload
 * afterwards cannot fail. Only the keys BC_WK_VOLUME of profile/workload/keys.h are
 * per volume; the others shape the job threads of the whole step.
 */
#ifndef BC_PROFILE_VOLUME_WL_H
#define BC_PROFILE_VOLUME_WL_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/spec.h"
#include "profile/value/check.h"
#include "profile/workload/workload.h"

struct bc_wl_override {
	int volume;		     /* the volume's index */
	int run;		     /* a step's entry: which of the volume's workloads (below) */
	bool idle;		     /* a step's entry "[]": the volume does nothing in the step */
	bc_wl_keyset given;	     /* bit i: bc_wl_keys[i] is overridden */
	uint8_t own[BC_STREAMS_MAX]; /* "streams": the keys each stream gives itself */
	struct bc_workload wl;	     /* the given keys' values (the others are built-in) */
};

/* o overrides the key called name */
bool bc_wl_override_has(const struct bc_wl_override *o, const char *name);

/*
 * wl with o's keys laid over it, as if they were written where wl's were:
 * streams take what they do not give from wl (bc_streams_inherit).
 */
void bc_wl_override_apply(const struct bc_wl_override *o, struct bc_workload *wl);

/* the step's workload with the volume's "workload" applied (*step when it has none) */
void bc_volume_workload(const struct bc_workload *step, const struct bc_volume_spec *vol,
			struct bc_workload *out);

/* step st's "volume_workloads" entry for volume v (its first workload), or NULL */
const struct bc_wl_override *bc_step_volume_override(const struct bc_step *st, int v);

/*
 * Several workloads on one volume at once: a step's entry may be an array
 * of overrides, each a workload of its own on the volume (its own rw, bs,
 * iodepth, rates, "jobs", ...), run concurrently like fio jobs sharing a
 * file; "[]" leaves the volume idle in the step. How many volume v runs in
 * step st (0: idle, 1: the usual one), and the r-th of them in full.
 */
int bc_step_volume_runs(const struct bc_step *st, int v);
void bc_step_volume_run_workload(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
				 int r, struct bc_workload *out);

/*
 * one of volume v's workloads in step st ends with a pass (io_size,
 * size_based, a KV store: bc_workload_size_based) rather than the runtime
 */
bool bc_step_volume_size_based(const struct bc_step *st, const struct bc_volume_spec *vol, int v);

/*
 * The I/Os volume v keeps in flight in step st: each of its workloads'
 * iodepth times the threads driving it ("jobs", else numjobs). *paced (if
 * not NULL) is set when one of them holds fewer on purpose: a rate limit,
 * thinktime or a start delay.
 */
double bc_step_volume_depth(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
			    bool *paced);

/*
 * volume v's workload in step st: the step's, the volume's "workload", then
 * the step's entry for v; and whether either override exists (else the
 * step's workload applies as it is).
 */
void bc_step_volume_workload(const struct bc_step *st, const struct bc_volume_spec *vol, int v,
			     struct bc_workload *out);
bool bc_step_volume_overridden(const struct bc_step *st, const struct bc_volume_spec *vol, int v);

/* profile side (profile/profile.c): base."workload" of volume index vol into *out (NULL if absent)
 */
int bc_check_volume_workload(struct bc_check *c, const cJSON *item, const char *base, int vol,
			     struct bc_wl_override **out, cJSON **json);

/* base."volume_workloads" of step st into st->volume_wl, nvolume_wl and volume_workloads */
int bc_check_step_volume_workloads(struct bc_check *c, const cJSON *item, const char *base,
				   int nvolumes, struct bc_step *st);

/* every step with every volume's overrides is a valid workload */
int bc_check_volume_steps(struct bc_check *c, const struct bc_profile *p);

#endif
