/*
 * profile/volume/sim.h - a volume's "sim" key: the geometry and policies of a
 * simulated FDP SSD (agent/target/sim.c), parsed the same way by the
 * coordinator (profile check) and the agent (PREPARE), see docs/sim.md.
 */
#ifndef BC_PROFILE_VOLUME_SIM_H
#define BC_PROFILE_VOLUME_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

enum bc_sim_gc {
	BC_SIM_GC_GREEDY = 0,	/* victim: the reclaim unit with the fewest valid pages */
	BC_SIM_GC_COST_BENEFIT, /* victim: max age * (1 - u) / (2u), Kawaguchi et al. 1995 */
	BC_SIM_GC_AGE_INVALID,	/* victim: max age * (1 - u), seed 001's cold-pool score */
};

/* the device-side FTL policy (sim/policy.h): independent of host placement (FDP) */
enum bc_sim_ftl_kind {
	BC_SIM_FTL_BASELINE = 0, /* one pool of units, the "gc" victim policy */
	BC_SIM_FTL_HOTCOLD,	 /* seed 001: a per-page classifier, hot and cold pools */
};

/*
 * seed 001's hot/cold FTL (docs/seed001.md): a logical page is promoted to
 * hot when it was written at least hot_access times in the current window
 * and its last hot_confirm rewrites each came within hot_interval host
 * pages; a hot page is demoted when it has fewer than hot_access writes in
 * the window and (or, with demote_either) was rewritten after more than
 * cold_interval host pages. The access and short-interval counts are
 * halved every decay_window x physical pages written by the host. Hot pages go
 * to units of the hot pool (hot_share of the units at start), cold ones to
 * the cold pool, each with its own victim policy and minimum invalid share.
 */
struct bc_sim_hotcold {
	double hot_share;	      /* the hot pool's share of the units at start: 0.2 (20:80) */
	enum bc_sim_gc hot_gc;	      /* greedy */
	enum bc_sim_gc cold_gc;	      /* age-invalid (the seed's Age x Invalid_Ratio) */
	double hot_min_invalid;	      /* hot GC takes units at least this invalid: 0.125 */
	double cold_min_invalid;      /* cold GC: 0.30 */
	double emergency_min_invalid; /* emergency GC, either pool: 0.25 */
	uint32_t borrow_reserve;      /* a pool lends a free unit only above this many: 3 */
	uint32_t hot_access;	      /* 3 */
	uint32_t hot_interval;	      /* host pages: 64 */
	uint32_t hot_confirm;	      /* 2 */
	uint32_t cold_interval;	      /* host pages: 256 */
	bool demote_either;	      /* demote on either condition (the seed's code) */
	double decay_window;	      /* share of the physical pages: 0.1 */
};

struct bc_sim_spec {
	bool enabled;		 /* the volume is a simulated SSD */
	uint64_t capacity_bytes; /* logical capacity the host sees */
	uint32_t page_bytes;	 /* mapping and program unit, a power of two */
	uint64_t ru_bytes;	 /* reclaim unit (erase unit), a multiple of page_bytes */
	double op;		 /* over-provisioning: (physical - logical) / logical */
	uint32_t ruhs;		 /* reclaim unit handles, each with its own open RU */
	enum bc_sim_gc gc;
	uint32_t gc_start_free_rus; /* GC starts when free RUs drop below this */
	uint32_t gc_stop_free_rus;  /* ... and runs until this many are free */
	/*
	 * "background_gc": after each host write or trim command, while at most
	 * bg_free_rus units are free, reclaim one victim that has at least
	 * bg_min_invalid of its pages invalid (FEMU's blackbox FTL thread);
	 * bg_free_rus 0: none
	 */
	uint32_t bg_free_rus;
	double bg_min_invalid; /* baseline only; the hot/cold FTL uses its pools' minimums */
	enum bc_sim_ftl_kind ftl;
	struct bc_sim_hotcold hc; /* ftl == BC_SIM_FTL_HOTCOLD */
	uint64_t
	    log_every_bytes; /* a counter sample each time the host writes this much; 0: none */
	/*
	 * "latency": modelled media time (sim/lat.c); lat_units 0: none, each
	 * I/O completes as fast as the ring
	 */
	uint32_t lat_units;	 /* parallel units (dies) */
	uint32_t lat_read_ns;	 /* one page read */
	uint32_t lat_program_ns; /* one page program */
	uint32_t lat_erase_ns;	 /* one RU erase */
};

/* geometry that follows from a spec */
struct bc_sim_geometry {
	uint64_t logical_pages;
	uint32_t pages_per_ru;
	uint32_t rus;	     /* physical reclaim units: floor(capacity * (1 + op) / ru) */
	uint32_t spare_rus;  /* rus - ceil(logical_pages / pages_per_ru) */
	uint32_t needed_rus; /* spare RUs GC needs to always find a victim (docs/sim.md) */
};

/* "sim" or "sim:NAME" (NAME [A-Za-z0-9._-]{1,63}): a simulated SSD, no file behind it */
bool bc_sim_path(const char *path);

/* the built-in defaults (docs/sim.md), enabled */
void bc_sim_spec_default(struct bc_sim_spec *s);

/*
 * Parse the "sim" object o (NULL: all defaults) into s, check every key
 * (unknown ones refused) and the geometry. Returns 0 or -EINVAL with a
 * message naming "<base>.sim.<key>" in err.
 */
int bc_sim_spec_from_json(const cJSON *o, const char *base, struct bc_sim_spec *s, char *err,
			  size_t errlen);

/* s in full (every default applied); NULL when !s->enabled; caller owns the result */
cJSON *bc_sim_spec_to_json(const struct bc_sim_spec *s);

/* geometry of s; 0, or -EINVAL with why in err when s cannot be simulated */
int bc_sim_geometry(const struct bc_sim_spec *s, struct bc_sim_geometry *g, char *err,
		    size_t errlen);

const char *bc_sim_gc_name(enum bc_sim_gc gc);
const char *bc_sim_ftl_name(enum bc_sim_ftl_kind k);

/* frontiers (write streams) per reclaim unit handle: 2 for the hot/cold FTL, else 1 */
unsigned bc_sim_classes(const struct bc_sim_spec *s);

#endif
