/*
 * sim/state.h - the simulated FTL's state and counters (types only): what
 * sim/ftl.c changes and the policies of sim/policy.h read (the device-side
 * FTL policy also keeps its own per-page state here), kept apart so the
 * modules include this and not each other.
 */
#ifndef BC_SIM_STATE_H
#define BC_SIM_STATE_H

#include <stdint.h>

#include "profile/volume/sim.h"

/* the pools (and write classes) of units: the baseline FTL has pool 0 only */
enum { BC_SIM_COLD = 0, BC_SIM_HOT = 1, BC_SIM_POOLS = 2 };

/* cumulative since the FTL was made, unless marked "now" */
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
	uint64_t gc_runs;	    /* times the device ran low (gc_start_free_rus) */
	/* victims reclaimed, by what set GC off */
	uint64_t gc_forced;	/* the device ran low: until gc_stop_free_rus are free */
	uint64_t gc_background; /* "background_gc", one per host command at most */
	uint64_t gc_pool;	/* a pool ran out: its own GC (hot/cold FTL) */
	uint64_t gc_emergency;	/* a pool ran out and its own GC found no victim */
	uint64_t lent_hot;	/* free units the cold pool gave the hot one */
	uint64_t lent_cold;	/* free units the hot pool gave the cold one (demoted) */
	uint64_t pool_host_pages[BC_SIM_POOLS];	   /* host pages programmed into each pool */
	uint64_t pool_victims[BC_SIM_POOLS];	   /* units of each pool reclaimed */
	uint64_t pool_victim_copies[BC_SIM_POOLS]; /* pages GC copied out of them */
	uint64_t promotions;			   /* logical pages the classifier made hot */
	uint64_t demotions;			   /* ... and cold again */
	uint64_t log_samples;			   /* counter-log samples taken so far */
	/* now */
	uint32_t ftl;	   /* enum bc_sim_ftl_kind */
	uint32_t rus;	   /* physical reclaim units */
	uint32_t ru_pages; /* pages per unit */
	uint32_t free_rus;
	uint32_t pool_free[BC_SIM_POOLS];
	uint32_t pool_rus[BC_SIM_POOLS]; /* units each pool holds: free, open and full */
};

/* one reclaim unit handle's share of the device (cumulative; valid: now) */
struct bc_sim_ruh_counters {
	uint64_t host_write_bytes; /* pages the host wrote through it, x page */
	uint64_t gc_copy_bytes;	   /* GC copies programmed into its units */
	uint64_t valid_bytes;	   /* valid pages in its units now, x page */
};

/*
 * One line of the device's counter log, taken each time the host has
 * programmed another "log_every" of pages (FEMU's WAF statistics, printed
 * every 16,384 host pages by seed 001's FTL): totals since the device was
 * made.
 */
struct bc_sim_log_sample {
	uint64_t host_pages; /* pages the host programmed (partial pages count whole) */
	uint64_t nand_pages; /* pages programmed: host + GC */
	uint64_t gc_pages;   /* GC copies */
	uint32_t free_rus;
	uint32_t pool_free[BC_SIM_POOLS];
};

/* samples kept; a step that writes more than this many loses its oldest */
#define BC_SIM_LOG_MAX 1024

#define BC_SIM_NONE UINT32_MAX

enum { BC_SIM_RU_FREE = 0, BC_SIM_RU_OPEN, BC_SIM_RU_FULL };

/* a write frontier: the reclaim unit a handle's class (or GC) programs next */
struct bc_sim_frontier {
	uint32_t ru; /* open reclaim unit, BC_SIM_NONE before the first write */
	uint32_t wp; /* next page index in it; pages per RU when full */
};

/*
 * the hot/cold classifier's view of one logical page (sim/hotcold.c); its
 * counts halve once per decay window, applied lazily from epoch on its
 * next write so no pass over every page runs on the I/O path
 */
struct bc_sim_lpn {
	uint32_t last;	/* host page clock (mod 2^32) at its last write */
	uint16_t epoch; /* decay window of its last write (mod 2^16) */
	uint8_t acc;	/* writes in the current window */
	uint8_t sic;	/* consecutive rewrites within hot_interval */
	uint8_t hot;
	uint8_t seen; /* written at least once */
};

struct bc_sim_policy_ops;
struct bc_sim_ftl_ops;

/* the FTL's state (sim/ftl.c writes it; policies read it, the FTL policy its own part) */
struct bc_sim_ftl {
	struct bc_sim_spec spec;
	const struct bc_sim_ftl_ops *ops;		      /* device-side FTL policy */
	const struct bc_sim_policy_ops *victim[BC_SIM_POOLS]; /* each pool's victim policy */
	uint32_t min_invalid[BC_SIM_POOLS]; /* background GC: invalid pages a victim needs */
	uint32_t emergency_invalid;	    /* emergency GC: the same (hot/cold FTL) */
	uint64_t nlp;			    /* logical pages */
	uint32_t ppr;			    /* pages per RU */
	uint32_t shift;			    /* ceil(log2(ppr)) */
	uint32_t page_shift;
	uint32_t nru;
	uint32_t nruh;
	uint32_t ncls;		       /* frontiers per RUH: 1, or 2 (hot/cold) */
	uint32_t *l2p;		       /* [nlp] */
	uint32_t *p2l;		       /* [nru << shift] */
	uint32_t *valid;	       /* [nru] valid pages */
	uint8_t *state;		       /* [nru] BC_SIM_RU_* */
	uint8_t *pool;		       /* [nru] the pool that holds it (BC_SIM_COLD/HOT) */
	uint16_t *owner;	       /* [nru] the RUH that wrote it */
	uint64_t *closed_at;	       /* [nru] clock when it became full */
	uint32_t *pfree[BC_SIM_POOLS]; /* stacks of each pool's free RUs, [nru] each */
	uint32_t npfree[BC_SIM_POOLS];
	uint32_t prus[BC_SIM_POOLS]; /* units each pool holds */
	uint32_t nfree;		     /* free RUs in all pools */
	struct bc_sim_frontier *fr;  /* [nruh * ncls]: RUH r's class c is fr[r * ncls + c] */
	uint64_t clock;		     /* host pages programmed so far */
	int in_gc;
	struct bc_sim_counters c;
	uint64_t *ruh_host;	       /* [nruh] host pages written through each RUH */
	uint64_t *ruh_gc;	       /* [nruh] GC copies programmed into each RUH's units */
	struct bc_sim_lpn *lpn;	       /* [nlp] the hot/cold FTL's classifier, else NULL */
	uint64_t decay_every;	       /* host pages per decay window of the classifier */
	uint32_t hot_home;	       /* units 0..hot_home-1 belong to the hot pool when free */
	uint64_t log_every;	       /* host pages between log samples, 0: none */
	uint64_t log_next;	       /* clock of the next sample */
	struct bc_sim_log_sample *log; /* [BC_SIM_LOG_MAX] ring, c.log_samples taken */
};

#endif
