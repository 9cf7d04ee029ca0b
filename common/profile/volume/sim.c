/*
 * profile/volume/sim.c - a volume's "sim" key (see profile/volume/sim.h, docs/sim.md):
 * {"capacity": "8GiB", "page": "4KiB", "ru": "16MiB", "op": 0.07, "ruhs": 8,
 *  "gc": "greedy" | "cost-benefit", "gc_start_free_rus": 3,
 *  "gc_stop_free_rus": 6, "latency": {"units": 64, "read": "40us", "program":
 *  "200us", "erase": "2ms"}}, every key optional. The geometry check lives here
 * so `bench-coord validate` refuses what the agent could not simulate.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/value/keys.h"
#include "profile/value/units.h"
#include "profile/volume/sim.h"

static const char *const s_keys[] = {
    "capacity",		"page",		 "ru",	"op",	     "ruhs",	"gc", "gc_start_free_rus",
    "gc_stop_free_rus", "background_gc", "ftl", "log_every", "latency", NULL,
};
static const char *const s_bg_keys[] = {"free_rus", "min_invalid", NULL};
static const char *const s_hc_keys[] = {
    "name",
    "hot_share",
    "hot_gc",
    "cold_gc",
    "hot_min_invalid",
    "cold_min_invalid",
    "emergency_min_invalid",
    "borrow_reserve",
    "hot_access",
    "hot_interval",
    "hot_confirm",
    "cold_interval",
    "demote",
    "decay_window",
    NULL,
};
static const char *const s_lat_keys[] = {"units", "read", "program", "erase", NULL};

/*
 * "latency" defaults: FEMU's blackbox SSD (hw/femu/bbssd/ftl.h): 40 us page
 * read, 200 us page program, 2 ms block erase, 8 channels x 8 LUNs
 */
#define S_LAT_UNITS	 64
#define S_LAT_READ_NS	 40000
#define S_LAT_PROGRAM_NS 200000
#define S_LAT_ERASE_NS	 2000000

/* the FTL maps pages with 32-bit indexes: 2^30 logical pages (4 TiB of 4 KiB pages) */
#define S_PAGES_MAX (1ull << 30)
#define S_RUHS_MAX  128

bool bc_sim_path(const char *path)
{
	const char *p;

	if (!strcmp(path, "sim"))
		return true;
	if (strncmp(path, "sim:", 4) || !path[4] || strlen(path + 4) > 63)
		return false;
	for (p = path + 4; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			return false;
	return true;
}

static const char *const s_gc_names[] = {"greedy", "cost-benefit", "age-invalid"};

const char *bc_sim_gc_name(enum bc_sim_gc gc)
{
	return (unsigned)gc < 3 ? s_gc_names[gc] : "greedy";
}

const char *bc_sim_ftl_name(enum bc_sim_ftl_kind k)
{
	return k == BC_SIM_FTL_HOTCOLD ? "hotcold" : "baseline";
}

unsigned bc_sim_classes(const struct bc_sim_spec *s)
{
	return s->ftl == BC_SIM_FTL_HOTCOLD ? 2 : 1;
}

/* seed 001's README and ftl.h: 20:80 pools, thresholds 3 / 64 / 2 / 256, GC gates */
static void s_hotcold_default(struct bc_sim_hotcold *h)
{
	h->hot_share = 0.2;
	h->hot_gc = BC_SIM_GC_GREEDY;
	h->cold_gc = BC_SIM_GC_AGE_INVALID;
	h->hot_min_invalid = 0.125;
	h->cold_min_invalid = 0.30;
	h->emergency_min_invalid = 0.25;
	h->borrow_reserve = 3;
	h->hot_access = 3;
	h->hot_interval = 64;
	h->hot_confirm = 2;
	h->cold_interval = 256;
	h->demote_either = false;
	h->decay_window = 0.1;
}

void bc_sim_spec_default(struct bc_sim_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->enabled = true;
	s->capacity_bytes = 8ull << 30;
	s->page_bytes = 4096;
	/* 16 MiB: 8 GiB at 7% OP then has 35 spare RUs, enough for 8 RUHs (docs/sim.md) */
	s->ru_bytes = 16ull << 20;
	s->op = 0.07;
	s->ruhs = 8;
	s->gc = BC_SIM_GC_GREEDY;
	s->gc_start_free_rus = 3;
	s->gc_stop_free_rus = 6;
	s->ftl = BC_SIM_FTL_BASELINE;
	s_hotcold_default(&s->hc);
	s->log_every_bytes = 1ull << 30;
}

/* "40us", "2ms", "1.5ms", "500ns", "0" -> ns, at most 10 s */
static int s_ns(const cJSON *v, uint32_t *out)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	char *end;
	double d;
	unsigned i;

	if (!cJSON_IsString(v))
		return -EINVAL;
	d = strtod(v->valuestring, &end);
	if (end == v->valuestring || d < 0)
		return -EINVAL;
	if (*end || d != 0) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]) && strcmp(end, units[i].unit); i++)
			;
		if (i == sizeof(units) / sizeof(units[0]))
			return -EINVAL;
		d *= units[i].ns;
	}
	if (d > 1e10)
		return -EINVAL;
	*out = (uint32_t)(d + 0.5);
	return 0;
}

static int s_latency(const cJSON *o, const char *base, struct bc_sim_spec *s, char *err,
		     size_t errlen)
{
	static const char *const names[] = {"read", "program", "erase"};
	uint32_t *dst[] = {&s->lat_read_ns, &s->lat_program_ns, &s->lat_erase_ns};
	const cJSON *v;
	char path[160];
	int i;

	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen,
			 "%s.sim.latency: expected an object {\"units\", \"read\", \"program\", "
			 "\"erase\"}",
			 base);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s.sim.latency", base);
	if (bc_keys_known(o, path, s_lat_keys, err, errlen))
		return -EINVAL;
	s->lat_units = S_LAT_UNITS;
	s->lat_read_ns = S_LAT_READ_NS;
	s->lat_program_ns = S_LAT_PROGRAM_NS;
	s->lat_erase_ns = S_LAT_ERASE_NS;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "units")) &&
	    bc_keys_uint(v, 1, 4096, &s->lat_units)) {
		snprintf(err, errlen, "%s.sim.latency.units: expected an integer 1..4096", base);
		return -EINVAL;
	}
	for (i = 0; i < 3; i++) {
		v = cJSON_GetObjectItemCaseSensitive(o, names[i]);
		if (v && s_ns(v, dst[i])) {
			snprintf(
			    err, errlen,
			    "%s.sim.latency.%s: expected a duration such as \"40us\" or \"2ms\" "
			    "(at most 10s)",
			    base, names[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* "greedy", "cost-benefit", "age-invalid" */
static int s_gc(const cJSON *v, enum bc_sim_gc *out)
{
	unsigned i;

	for (i = 0; cJSON_IsString(v) && i < 3; i++)
		if (!strcmp(v->valuestring, s_gc_names[i])) {
			*out = (enum bc_sim_gc)i;
			return 0;
		}
	return -EINVAL;
}

/* a share in [lo, hi] */
static int s_share(const cJSON *v, double lo, double hi, double *out)
{
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi))
		return -EINVAL;
	*out = v->valuedouble;
	return 0;
}

/*
 * "background_gc": {"free_rus": 32 | "25%", "min_invalid": 0.125}; a
 * percentage is of the physical units, rounded down as FEMU rounds its
 * gc_thres_pcent (resolved with the geometry: *pct >= 0)
 */
static int s_background(const cJSON *o, const char *base, struct bc_sim_spec *s, double *pct,
			char *err, size_t errlen)
{
	const cJSON *v;
	char path[160], *end;

	snprintf(path, sizeof(path), "%s.sim.background_gc", base);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: expected an object {\"free_rus\", \"min_invalid\"}",
			 path);
		return -EINVAL;
	}
	if (bc_keys_known(o, path, s_bg_keys, err, errlen))
		return -EINVAL;
	v = cJSON_GetObjectItemCaseSensitive(o, "free_rus");
	if (cJSON_IsString(v)) {
		*pct = strtod(v->valuestring, &end);
		if (end == v->valuestring || strcmp(end, "%") || !(*pct > 0 && *pct <= 100))
			v = NULL;
	} else if (v && !bc_keys_uint(v, 1, 1u << 30, &s->bg_free_rus)) {
		*pct = -1;
	} else {
		v = NULL;
	}
	if (!v) {
		snprintf(err, errlen,
			 "%s.free_rus: expected a number of free units >= 1 or a percentage of "
			 "the units such as \"25%%\" (required)",
			 path);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "min_invalid")) &&
	    s_share(v, 0, 1, &s->bg_min_invalid)) {
		snprintf(err, errlen,
			 "%s.min_invalid: expected the share of a unit's pages that must be "
			 "invalid, 0..1 (0.125: FEMU's one eighth)",
			 path);
		return -EINVAL;
	}
	return 0;
}

/* "ftl": "baseline" | "hotcold" | {"name": "hotcold", <struct bc_sim_hotcold keys>} */
static int s_ftl(const cJSON *o, const char *base, struct bc_sim_spec *s, char *err, size_t errlen)
{
	static const char *const gates[] = {"hot_min_invalid", "cold_min_invalid",
					    "emergency_min_invalid"};
	static const char *const counts[] = {"hot_access", "hot_interval", "hot_confirm",
					     "cold_interval", "borrow_reserve"};
	struct bc_sim_hotcold *h = &s->hc;
	double *gate[] = {&h->hot_min_invalid, &h->cold_min_invalid, &h->emergency_min_invalid};
	uint32_t *count[] = {&h->hot_access, &h->hot_interval, &h->hot_confirm, &h->cold_interval,
			     &h->borrow_reserve};
	const cJSON *name = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, "name") : o;
	const cJSON *v;
	char path[160];
	unsigned i;

	snprintf(path, sizeof(path), "%s.sim.ftl", base);
	if (cJSON_IsString(name) && !strcmp(name->valuestring, "baseline"))
		s->ftl = BC_SIM_FTL_BASELINE;
	else if (cJSON_IsString(name) && !strcmp(name->valuestring, "hotcold"))
		s->ftl = BC_SIM_FTL_HOTCOLD;
	else {
		snprintf(err, errlen,
			 "%s: expected \"baseline\", \"hotcold\" or {\"name\": \"hotcold\", "
			 "...}",
			 path);
		return -EINVAL;
	}
	if (!cJSON_IsObject(o))
		return 0;
	if (bc_keys_known(o, path, s_hc_keys, err, errlen))
		return -EINVAL;
	if (s->ftl == BC_SIM_FTL_BASELINE && cJSON_GetArraySize(o) > 1) {
		snprintf(err, errlen, "%s: the baseline FTL has no keys but \"name\"", path);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "hot_share")) &&
	    (s_share(v, 0, 1, &h->hot_share) || h->hot_share <= 0 || h->hot_share >= 1)) {
		snprintf(err, errlen,
			 "%s.hot_share: expected the hot pool's share of the units, between 0 "
			 "and 1 (0.2: the seed's 20:80)",
			 path);
		return -EINVAL;
	}
	if (((v = cJSON_GetObjectItemCaseSensitive(o, "hot_gc")) && s_gc(v, &h->hot_gc)) ||
	    ((v = cJSON_GetObjectItemCaseSensitive(o, "cold_gc")) && s_gc(v, &h->cold_gc))) {
		snprintf(err, errlen,
			 "%s.%s: expected \"greedy\", \"cost-benefit\" or \"age-invalid\"", path,
			 v->string);
		return -EINVAL;
	}
	for (i = 0; i < 3; i++)
		if ((v = cJSON_GetObjectItemCaseSensitive(o, gates[i])) &&
		    s_share(v, 0, 1, gate[i])) {
			snprintf(err, errlen,
				 "%s.%s: expected the share of a unit's pages that must be "
				 "invalid, 0..1",
				 path, gates[i]);
			return -EINVAL;
		}
	for (i = 0; i < 5; i++)
		if ((v = cJSON_GetObjectItemCaseSensitive(o, counts[i])) &&
		    bc_keys_uint(v, i == 4 ? 0 : 1, i == 4 ? 1u << 20 : 1u << 30, count[i])) {
			snprintf(err, errlen, "%s.%s: expected an integer >= %d", path, counts[i],
				 i == 4 ? 0 : 1);
			return -EINVAL;
		}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "demote"))) {
		if (cJSON_IsString(v) && !strcmp(v->valuestring, "both"))
			h->demote_either = false;
		else if (cJSON_IsString(v) && !strcmp(v->valuestring, "either"))
			h->demote_either = true;
		else {
			snprintf(err, errlen,
				 "%s.demote: expected \"both\" (few accesses and a long interval, "
				 "the seed's README) or \"either\" (its code)",
				 path);
			return -EINVAL;
		}
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "decay_window")) &&
	    (s_share(v, 0, 1000, &h->decay_window) || h->decay_window <= 0)) {
		snprintf(err, errlen,
			 "%s.decay_window: expected a share of the physical pages > 0 (0.1: "
			 "the access counts halve each time the host writes a tenth of them)",
			 path);
		return -EINVAL;
	}
	return 0;
}

int bc_sim_geometry(const struct bc_sim_spec *s, struct bc_sim_geometry *g, char *err,
		    size_t errlen)
{
	uint64_t logical_rus, rus, shift = 0;
	double phys;

	memset(g, 0, sizeof(*g));
	if (s->page_bytes < 512 || s->page_bytes > (1u << 20) ||
	    (s->page_bytes & (s->page_bytes - 1))) {
		snprintf(err, errlen, "page: %u is not a power of two from 512 to 1m",
			 s->page_bytes);
		return -EINVAL;
	}
	if (!s->ru_bytes || s->ru_bytes % s->page_bytes || s->ru_bytes / s->page_bytes < 16 ||
	    s->ru_bytes / s->page_bytes > (1u << 24)) {
		snprintf(err, errlen,
			 "ru: %llu bytes must be 16 to 2^24 pages of %u bytes (a whole number)",
			 (unsigned long long)s->ru_bytes, s->page_bytes);
		return -EINVAL;
	}
	if (!s->capacity_bytes || s->capacity_bytes % s->page_bytes ||
	    s->capacity_bytes / s->page_bytes > S_PAGES_MAX) {
		snprintf(err, errlen,
			 "capacity: %llu bytes must be a whole number of pages, at most 2^30 "
			 "pages (the mapping table takes 4 bytes per page)",
			 (unsigned long long)s->capacity_bytes);
		return -EINVAL;
	}
	if (!(s->op > 0 && s->op <= 10)) {
		snprintf(err, errlen, "op: %g must be in (0, 10] (spare / logical capacity)",
			 s->op);
		return -EINVAL;
	}
	if (s->gc_start_free_rus < 2 || s->gc_stop_free_rus < s->gc_start_free_rus) {
		snprintf(err, errlen,
			 "gc_start_free_rus %u / gc_stop_free_rus %u: need 2 <= start <= stop "
			 "(one free RU is GC's own reserve)",
			 s->gc_start_free_rus, s->gc_stop_free_rus);
		return -EINVAL;
	}
	g->logical_pages = s->capacity_bytes / s->page_bytes;
	g->pages_per_ru = (uint32_t)(s->ru_bytes / s->page_bytes);
	logical_rus = (g->logical_pages + g->pages_per_ru - 1) / g->pages_per_ru;
	phys = (double)s->capacity_bytes * (1 + s->op) / (double)s->ru_bytes;
	rus = (uint64_t)phys;
	while ((1ull << shift) < g->pages_per_ru)
		shift++;
	if (rus << shift >= 0xffffffffull) {
		snprintf(
		    err, errlen,
		    "capacity/op/ru: %llu physical reclaim units of 2^%llu page slots do not fit "
		    "32-bit page addresses",
		    (unsigned long long)rus, (unsigned long long)shift);
		return -EINVAL;
	}
	g->rus = (uint32_t)rus;
	g->spare_rus = rus > logical_rus ? (uint32_t)(rus - logical_rus) : 0;
	/*
	 * With ruhs + gc_stop + 1 spare RUs, the full RUs outnumber the
	 * logical data by more than one RU whenever GC runs, so a victim with
	 * at least one invalid page always exists and GC always makes progress.
	 */
	g->needed_rus = bc_sim_classes(s) * s->ruhs + s->gc_stop_free_rus + 1;
	if (g->spare_rus < g->needed_rus) {
		snprintf(
		    err, errlen,
		    "op: %u spare reclaim units (%u physical, %llu logical) are too few for %u "
		    "RUHs%s and gc_stop_free_rus %u: need at least %u; raise op or capacity, or "
		    "use smaller RUs or fewer RUHs",
		    g->spare_rus, g->rus, (unsigned long long)logical_rus, s->ruhs,
		    s->ftl == BC_SIM_FTL_HOTCOLD ? " (each with a hot and a cold frontier)" : "",
		    s->gc_stop_free_rus, g->needed_rus);
		return -EINVAL;
	}
	if (s->ftl == BC_SIM_FTL_HOTCOLD) {
		uint32_t hot = (uint32_t)(s->hc.hot_share * g->rus);

		/* a victim's pages may go to both classes' frontiers: a free unit for each */
		if (s->gc_start_free_rus < 3) {
			snprintf(err, errlen,
				 "gc_start_free_rus: %u is too few for the hot/cold FTL: need >= 3 "
				 "(GC copies may open a hot and a cold unit)",
				 s->gc_start_free_rus);
			return -EINVAL;
		}
		if (!hot || hot >= g->rus) {
			snprintf(err, errlen,
				 "ftl.hot_share: %g of %u units leaves a pool with no unit",
				 s->hc.hot_share, g->rus);
			return -EINVAL;
		}
	}
	if (s->bg_free_rus > g->rus) {
		snprintf(err, errlen, "background_gc.free_rus: %u is more than the %u units",
			 s->bg_free_rus, g->rus);
		return -EINVAL;
	}
	return 0;
}

int bc_sim_spec_from_json(const cJSON *o, const char *base, struct bc_sim_spec *s, char *err,
			  size_t errlen)
{
	const cJSON *v;
	struct bc_sim_geometry g;
	uint64_t sz;
	double bg_pct = -1;
	char why[384], path[160];

	bc_sim_spec_default(s);
	if (!o)
		goto check;
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s.sim: expected an object {\"capacity\": ..., \"ru\": ...}",
			 base);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s.sim", base);
	if (bc_keys_known(o, path, s_keys, err, errlen))
		return -EINVAL;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "capacity")) &&
	    (bc_keys_size(v, &s->capacity_bytes) || !s->capacity_bytes)) {
		snprintf(err, errlen, "%s.sim.capacity: expected a size > 0 such as \"8GiB\"",
			 base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "page"))) {
		if (bc_keys_size(v, &sz) || sz > (1u << 20)) {
			snprintf(err, errlen, "%s.sim.page: expected a size such as \"4KiB\"",
				 base);
			return -EINVAL;
		}
		s->page_bytes = (uint32_t)sz;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "ru")) && bc_keys_size(v, &s->ru_bytes)) {
		snprintf(err, errlen, "%s.sim.ru: expected a size such as \"16MiB\"", base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "op"))) {
		if (!cJSON_IsNumber(v)) {
			snprintf(err, errlen, "%s.sim.op: expected a number such as 0.07", base);
			return -EINVAL;
		}
		s->op = v->valuedouble;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "ruhs")) &&
	    bc_keys_uint(v, 1, S_RUHS_MAX, &s->ruhs)) {
		snprintf(err, errlen, "%s.sim.ruhs: expected an integer 1..%d", base, S_RUHS_MAX);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "gc")) && s_gc(v, &s->gc)) {
		snprintf(err, errlen,
			 "%s.sim.gc: expected \"greedy\", \"cost-benefit\" or \"age-invalid\"",
			 base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "gc_start_free_rus")) &&
	    bc_keys_uint(v, 2, 1u << 20, &s->gc_start_free_rus)) {
		snprintf(err, errlen, "%s.sim.gc_start_free_rus: expected an integer >= 2", base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "gc_stop_free_rus")) &&
	    bc_keys_uint(v, 2, 1u << 20, &s->gc_stop_free_rus)) {
		snprintf(err, errlen, "%s.sim.gc_stop_free_rus: expected an integer >= 2", base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "latency")) &&
	    s_latency(v, base, s, err, errlen))
		return -EINVAL;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "ftl")) && s_ftl(v, base, s, err, errlen))
		return -EINVAL;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "background_gc")) &&
	    s_background(v, base, s, &bg_pct, err, errlen))
		return -EINVAL;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "log_every")) &&
	    bc_keys_size(v, &s->log_every_bytes)) {
		snprintf(err, errlen,
			 "%s.sim.log_every: expected a size such as \"1GiB\" (0: no counter log)",
			 base);
		return -EINVAL;
	}
	/* one rule in one place: the hot/cold FTL picks victims per pool */
	if (s->ftl == BC_SIM_FTL_HOTCOLD && cJSON_GetObjectItemCaseSensitive(o, "gc")) {
		snprintf(err, errlen,
			 "%s.sim.gc: the hot/cold FTL chooses victims per pool: use "
			 "ftl.hot_gc and ftl.cold_gc",
			 base);
		return -EINVAL;
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "background_gc");
	if (s->ftl == BC_SIM_FTL_HOTCOLD && cJSON_GetObjectItemCaseSensitive(v, "min_invalid")) {
		snprintf(err, errlen,
			 "%s.sim.background_gc.min_invalid: the hot/cold FTL's background GC takes "
			 "its pools' minimums: use ftl.hot_min_invalid and ftl.cold_min_invalid",
			 base);
		return -EINVAL;
	}
	/* a start above the default stop raises the stop with it unless both are given */
	if (cJSON_GetObjectItemCaseSensitive(o, "gc_start_free_rus") &&
	    !cJSON_GetObjectItemCaseSensitive(o, "gc_stop_free_rus") &&
	    s->gc_stop_free_rus < s->gc_start_free_rus)
		s->gc_stop_free_rus = s->gc_start_free_rus;
check:
	if (bg_pct > 0 && !bc_sim_geometry(s, &g, why, sizeof(why))) {
		/* FEMU: (int)(share * lines); at least one, or no background GC was meant */
		s->bg_free_rus = (uint32_t)(bg_pct / 100 * g.rus);
		if (!s->bg_free_rus)
			s->bg_free_rus = 1;
	}
	if (bc_sim_geometry(s, &g, why, sizeof(why))) {
		snprintf(err, errlen, "%s.sim.%s", base, why);
		return -EINVAL;
	}
	return 0;
}

cJSON *bc_sim_spec_to_json(const struct bc_sim_spec *s)
{
	cJSON *o;

	if (!s->enabled)
		return NULL;
	o = cJSON_CreateObject();
	if (!o)
		return NULL;
	/* integers (bytes), which bc_sim_spec_from_json reads back exactly */
	cJSON_AddNumberToObject(o, "capacity", (double)s->capacity_bytes);
	cJSON_AddNumberToObject(o, "page", s->page_bytes);
	cJSON_AddNumberToObject(o, "ru", (double)s->ru_bytes);
	cJSON_AddNumberToObject(o, "op", s->op);
	cJSON_AddNumberToObject(o, "ruhs", s->ruhs);
	if (s->ftl == BC_SIM_FTL_BASELINE)
		cJSON_AddStringToObject(o, "gc", bc_sim_gc_name(s->gc));
	cJSON_AddNumberToObject(o, "gc_start_free_rus", s->gc_start_free_rus);
	cJSON_AddNumberToObject(o, "gc_stop_free_rus", s->gc_stop_free_rus);
	if (s->bg_free_rus) {
		cJSON *b = cJSON_AddObjectToObject(o, "background_gc");

		cJSON_AddNumberToObject(b, "free_rus", s->bg_free_rus);
		if (s->ftl == BC_SIM_FTL_BASELINE)
			cJSON_AddNumberToObject(b, "min_invalid", s->bg_min_invalid);
	}
	if (s->ftl == BC_SIM_FTL_HOTCOLD) {
		const struct bc_sim_hotcold *h = &s->hc;
		cJSON *x = cJSON_AddObjectToObject(o, "ftl");

		cJSON_AddStringToObject(x, "name", "hotcold");
		cJSON_AddNumberToObject(x, "hot_share", h->hot_share);
		cJSON_AddStringToObject(x, "hot_gc", bc_sim_gc_name(h->hot_gc));
		cJSON_AddStringToObject(x, "cold_gc", bc_sim_gc_name(h->cold_gc));
		cJSON_AddNumberToObject(x, "hot_min_invalid", h->hot_min_invalid);
		cJSON_AddNumberToObject(x, "cold_min_invalid", h->cold_min_invalid);
		cJSON_AddNumberToObject(x, "emergency_min_invalid", h->emergency_min_invalid);
		cJSON_AddNumberToObject(x, "borrow_reserve", h->borrow_reserve);
		cJSON_AddNumberToObject(x, "hot_access", h->hot_access);
		cJSON_AddNumberToObject(x, "hot_interval", h->hot_interval);
		cJSON_AddNumberToObject(x, "hot_confirm", h->hot_confirm);
		cJSON_AddNumberToObject(x, "cold_interval", h->cold_interval);
		cJSON_AddStringToObject(x, "demote", h->demote_either ? "either" : "both");
		cJSON_AddNumberToObject(x, "decay_window", h->decay_window);
	} else {
		cJSON_AddStringToObject(o, "ftl", "baseline");
	}
	cJSON_AddNumberToObject(o, "log_every", (double)s->log_every_bytes);
	if (s->lat_units) {
		cJSON *l = cJSON_AddObjectToObject(o, "latency");
		char b[32];

		cJSON_AddNumberToObject(l, "units", s->lat_units);
		snprintf(b, sizeof(b), "%uns", s->lat_read_ns);
		cJSON_AddStringToObject(l, "read", b);
		snprintf(b, sizeof(b), "%uns", s->lat_program_ns);
		cJSON_AddStringToObject(l, "program", b);
		snprintf(b, sizeof(b), "%uns", s->lat_erase_ns);
		cJSON_AddStringToObject(l, "erase", b);
	}
	return o;
}
