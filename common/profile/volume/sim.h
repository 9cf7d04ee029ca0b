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

#endif
