/*
 * sim/ftl.h - a page-mapped flash translation layer with FDP reclaim unit
 * handles: the state of a simulated SSD (no data, only where each logical
 * page lives). Each RUH writes into its own open reclaim unit per class
 * (one class, or hot and cold with the hot/cold FTL policy); garbage
 * collection reclaims the victims its policies (sim/policy.h) pick,
 * relocating the valid pages into the victim's own RUH (persistently
 * isolated, NVMe TP4146), in the class the FTL policy names.
 * Not thread-safe: the owner serializes calls (sim/dev.c).
 */
#ifndef BC_SIM_FTL_H
#define BC_SIM_FTL_H

#include <stddef.h>
#include <stdint.h>

#include "profile/volume/sim.h"
#include "sim/state.h"

struct bc_sim_ftl;

/*
 * A fresh (all-trimmed) device for s, whose geometry must check
 * (bc_sim_geometry). Returns 0 and *out (caller owns; bc_sim_ftl_destroy),
 * -ENOMEM, or -EINVAL with why in err.
 */
int bc_sim_ftl_new(const struct bc_sim_spec *s, struct bc_sim_ftl **out, char *err, size_t errlen);
void bc_sim_ftl_destroy(struct bc_sim_ftl **f);

/*
 * Host commands over [off, off + len) bytes, clipped to the capacity.
 * A write programs every page it touches (a partial page is a
 * read-modify-write of the whole page) into RUH ruh (taken modulo the
 * number of RUHs) and may run GC first; a trim unmaps whole pages only.
 */
void bc_sim_ftl_write(struct bc_sim_ftl *f, uint64_t off, uint32_t len, unsigned ruh);
void bc_sim_ftl_read(struct bc_sim_ftl *f, uint64_t off, uint32_t len);
void bc_sim_ftl_trim(struct bc_sim_ftl *f, uint64_t off, uint32_t len);

void bc_sim_ftl_counters(const struct bc_sim_ftl *f, struct bc_sim_counters *c);

/* free reclaim units now (tests) */
uint32_t bc_sim_ftl_free_rus(const struct bc_sim_ftl *f);

/* the first n RUHs' counters into out (a scan of the RUs); returns how many */
unsigned bc_sim_ftl_ruh_counters(const struct bc_sim_ftl *f, struct bc_sim_ruh_counters *out,
				 unsigned n);

/* valid pages now in the RUs RUH ruh wrote (tests, reports) */
uint64_t bc_sim_ftl_ruh_valid_pages(const struct bc_sim_ftl *f, unsigned ruh);

/* walk every mapping and count: 0 when the invariants hold, else -EUCLEAN (tests) */
int bc_sim_ftl_check(const struct bc_sim_ftl *f);

/*
 * The counter log samples from index from on (samples are numbered from 0
 * as taken; the newest BC_SIM_LOG_MAX are kept), at most max into out.
 * Returns how many; *first: the index of out[0] (later than from when the
 * ring lost some).
 */
unsigned bc_sim_ftl_log(const struct bc_sim_ftl *f, uint64_t from, struct bc_sim_log_sample *out,
			unsigned max, uint64_t *first);

#endif
