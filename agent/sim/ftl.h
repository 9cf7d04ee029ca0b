/*
 * sim/ftl.h - a page-mapped flash translation layer with FDP reclaim unit
 * handles: the state of a simulated SSD (no data, only where each logical
 * page lives). Each RUH writes into its own open reclaim unit; garbage
 * collection (greedy or cost-benefit) relocates a victim's valid pages into
 * the victim's own RUH (persistently isolated, NVMe TP4146) and erases it.
 * Not thread-safe: the owner serializes calls (sim/dev.c).
 */
#ifndef BC_SIM_FTL_H
#define BC_SIM_FTL_H

#include <stddef.h>
#include <stdint.h>

#include "profile/volume/sim.h"

struct bc_sim_ftl;

/* cumulative since the FTL was made */
struct bc_sim_counters {
	uint64_t host_write_bytes; /* bytes the host asked to write */
	uint64_t host_write_cmds;
	uint64_t host_read_bytes;
	uint64_t host_read_cmds;
	uint64_t host_trim_bytes;
	uint64_t media_write_bytes; /* pages programmed (host + GC) x page */
	uint64_t gc_copy_bytes;	    /* of which GC relocations */
	uint64_t media_read_bytes;  /* mapped pages read by the host + GC reads */
	uint64_t erases;	    /* reclaim units erased */
	uint64_t erase_bytes;	    /* erases x RU size (FDP statistics MBE) */
	uint64_t gc_runs;	    /* times GC started */
};

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

/* valid pages now in the RUs RUH ruh wrote (tests, reports) */
uint64_t bc_sim_ftl_ruh_valid_pages(const struct bc_sim_ftl *f, unsigned ruh);

/* walk every mapping and count: 0 when the invariants hold, else -EUCLEAN (tests) */
int bc_sim_ftl_check(const struct bc_sim_ftl *f);

#endif
