/*
 * sim/state.h - the simulated FTL's state and counters (types only): what
 * sim/ftl.c changes and the policies of sim/policy.h read, kept apart so
 * neither module includes the other.
 */
#ifndef BC_SIM_STATE_H
#define BC_SIM_STATE_H

#include <stdint.h>

#include "profile/volume/sim.h"

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

/* one reclaim unit handle's share of the device (cumulative; valid: now) */
struct bc_sim_ruh_counters {
	uint64_t host_write_bytes; /* pages the host wrote through it, x page */
	uint64_t gc_copy_bytes;	   /* GC copies programmed into its units */
	uint64_t valid_bytes;	   /* valid pages in its units now, x page */
};

#define BC_SIM_NONE UINT32_MAX

enum { BC_SIM_RU_FREE = 0, BC_SIM_RU_OPEN, BC_SIM_RU_FULL };

/* a write frontier: the reclaim unit a reclaim unit handle (or GC) programs next */
struct bc_sim_frontier {
	uint32_t ru; /* open reclaim unit, BC_SIM_NONE before the first write */
	uint32_t wp; /* next page index in it; pages per RU when full */
};

struct bc_sim_policy_ops;

/* the FTL's state (sim/ftl.c writes it; a policy only reads it, in its ops) */
struct bc_sim_ftl {
	struct bc_sim_spec spec;
	const struct bc_sim_policy_ops *policy; /* sim/policy.h */
	uint64_t nlp;				/* logical pages */
	uint32_t ppr;				/* pages per RU */
	uint32_t shift;				/* ceil(log2(ppr)) */
	uint32_t page_shift;
	uint32_t nru;
	uint32_t nruh;
	uint32_t *l2p;	     /* [nlp] */
	uint32_t *p2l;	     /* [nru << shift] */
	uint32_t *valid;     /* [nru] valid pages */
	uint8_t *state;	     /* [nru] BC_SIM_RU_* */
	uint16_t *owner;     /* [nru] the frontier (RUH) that wrote it */
	uint64_t *closed_at; /* [nru] clock when it became full */
	uint32_t *free;	     /* [nru] stack of free RUs */
	uint32_t nfree;
	struct bc_sim_frontier *ruh; /* [nruh] one frontier per reclaim unit handle */
	uint64_t clock;		     /* host pages programmed so far */
	int in_gc;
	struct bc_sim_counters c;
	uint64_t *ruh_host; /* [nruh] host pages written through each RUH */
	uint64_t *ruh_gc;   /* [nruh] GC copies programmed into each RUH's units */
};

#endif
