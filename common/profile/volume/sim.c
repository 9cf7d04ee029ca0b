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
    "capacity",		"page",	   "ru", "op", "ruhs", "gc", "gc_start_free_rus",
    "gc_stop_free_rus", "latency", NULL,
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

const char *bc_sim_gc_name(enum bc_sim_gc gc)
{
	return gc == BC_SIM_GC_COST_BENEFIT ? "cost-benefit" : "greedy";
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
}

static int s_size(const cJSON *v, uint64_t *out)
{
	if (cJSON_IsString(v))
		return bc_parse_size(v->valuestring, out);
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 18446744073709551616.0 &&
	    v->valuedouble == floor(v->valuedouble)) {
		*out = (uint64_t)v->valuedouble;
		return 0;
	}
	return -EINVAL;
}

static int s_uint(const cJSON *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
	if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi ||
	    v->valuedouble != floor(v->valuedouble))
		return -EINVAL;
	*out = (uint32_t)v->valuedouble;
	return 0;
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
	    s_uint(v, 1, 4096, &s->lat_units)) {
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
	g->needed_rus = s->ruhs + s->gc_stop_free_rus + 1;
	if (g->spare_rus < g->needed_rus) {
		snprintf(
		    err, errlen,
		    "op: %u spare reclaim units (%u physical, %llu logical) are too few for %u "
		    "RUHs and gc_stop_free_rus %u: need at least %u; raise op or capacity, or "
		    "use smaller RUs or fewer RUHs",
		    g->spare_rus, g->rus, (unsigned long long)logical_rus, s->ruhs,
		    s->gc_stop_free_rus, g->needed_rus);
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
	    (s_size(v, &s->capacity_bytes) || !s->capacity_bytes)) {
		snprintf(err, errlen, "%s.sim.capacity: expected a size > 0 such as \"8GiB\"",
			 base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "page"))) {
		if (s_size(v, &sz) || sz > (1u << 20)) {
			snprintf(err, errlen, "%s.sim.page: expected a size such as \"4KiB\"",
				 base);
			return -EINVAL;
		}
		s->page_bytes = (uint32_t)sz;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "ru")) && s_size(v, &s->ru_bytes)) {
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
	    s_uint(v, 1, S_RUHS_MAX, &s->ruhs)) {
		snprintf(err, errlen, "%s.sim.ruhs: expected an integer 1..%d", base, S_RUHS_MAX);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "gc"))) {
		if (cJSON_IsString(v) && !strcmp(v->valuestring, "greedy"))
			s->gc = BC_SIM_GC_GREEDY;
		else if (cJSON_IsString(v) && !strcmp(v->valuestring, "cost-benefit"))
			s->gc = BC_SIM_GC_COST_BENEFIT;
		else {
			snprintf(err, errlen, "%s.sim.gc: expected \"greedy\" or \"cost-benefit\"",
				 base);
			return -EINVAL;
		}
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "gc_start_free_rus")) &&
	    s_uint(v, 2, 1u << 20, &s->gc_start_free_rus)) {
		snprintf(err, errlen, "%s.sim.gc_start_free_rus: expected an integer >= 2", base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "gc_stop_free_rus")) &&
	    s_uint(v, 2, 1u << 20, &s->gc_stop_free_rus)) {
		snprintf(err, errlen, "%s.sim.gc_stop_free_rus: expected an integer >= 2", base);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "latency")) &&
	    s_latency(v, base, s, err, errlen))
		return -EINVAL;
	/* a start above the default stop raises the stop with it unless both are given */
	if (cJSON_GetObjectItemCaseSensitive(o, "gc_start_free_rus") &&
	    !cJSON_GetObjectItemCaseSensitive(o, "gc_stop_free_rus") &&
	    s->gc_stop_free_rus < s->gc_start_free_rus)
		s->gc_stop_free_rus = s->gc_start_free_rus;
check:
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
	cJSON_AddStringToObject(o, "gc", bc_sim_gc_name(s->gc));
	cJSON_AddNumberToObject(o, "gc_start_free_rus", s->gc_start_free_rus);
	cJSON_AddNumberToObject(o, "gc_stop_free_rus", s->gc_stop_free_rus);
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
