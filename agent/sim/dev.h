/*
 * sim/dev.h - simulated SSDs of this agent: an FTL (sim/ftl.h) behind
 * its own lock, kept by name ("sim", "sim:NAME") for the coordinator session
 * so a later step sees the state an earlier one left (precondition, then
 * measure). A session's end forgets them all: the next run starts from a
 * fresh, empty device.
 */
#ifndef BC_SIM_DEV_H
#define BC_SIM_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/volume/sim.h"
#include "sim/ftl.h"
#include "wire/stats.h"

struct bc_sim_dev;

/*
 * The device called name, made fresh when there is none or when its spec
 * differs from s (a changed geometry cannot keep the old mapping). The
 * registry owns it. Control thread only. Returns 0, -ENOMEM, -ENOSPC (too
 * many devices) or -EINVAL, with a message in err.
 */
int bc_sim_dev_get(const char *name, const struct bc_sim_spec *s, struct bc_sim_dev **out,
		   char *err, size_t errlen);

/* drop every device (session end); no target may still use one. Control thread only. */
void bc_sim_dev_forget_all(void);

/*
 * One host command arriving at now_ns (CLOCK_MONOTONIC; ignored without a
 * latency model), serialized on the device's lock; any thread. Returns its
 * modelled completion delay in ns, 0 without "latency" (sim/lat.c).
 */
uint64_t bc_sim_dev_io(struct bc_sim_dev *d, enum bc_op op, uint64_t off, uint32_t len,
		       unsigned ruh, uint64_t now_ns);

/* the device models latency ("sim": {"latency"}) */
bool bc_sim_dev_timed(const struct bc_sim_dev *d);

/* a consistent snapshot of the counters; any thread */
void bc_sim_dev_counters(struct bc_sim_dev *d, struct bc_sim_counters *c);

/* the first n RUHs' counters (bc_sim_ftl_ruh_counters) under the lock; any thread */
unsigned bc_sim_dev_ruh_counters(struct bc_sim_dev *d, struct bc_sim_ruh_counters *out, unsigned n);

/* the counter log from sample from on (bc_sim_ftl_log) under the lock; any thread */
unsigned bc_sim_dev_log(struct bc_sim_dev *d, uint64_t from, struct bc_sim_log_sample *out,
			unsigned max, uint64_t *first);

/* valid pages now held by RUH ruh (bc_sim_ftl_ruh_valid_pages); any thread */
uint64_t bc_sim_dev_ruh_valid_pages(struct bc_sim_dev *d, unsigned ruh);

/* bc_sim_ftl_check under the lock: 0 or -EUCLEAN (tests); any thread */
int bc_sim_dev_check(struct bc_sim_dev *d);

const struct bc_sim_spec *bc_sim_dev_spec(const struct bc_sim_dev *d);

#endif
