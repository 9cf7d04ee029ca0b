/*
 * profile/workload/workload.c - the workload's built-in defaults and its plain rules:
 * which ops a kind issues, whether it writes, whether offsets are random,
 * and the canonical text of a distribution, a block-size split and a
 * placement (profile/workload/workload.h). Knows no key and no JSON syntax: the bottom
 * every other part of the workload vocabulary builds on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/workload/workload.h"

/* in enum bc_rw order */
/* clang-format off */
const char *const bc_rw_names[] = {"read",	"write",  "randread", "randwrite",
				   "rw",	"randrw", "trim",     "randtrim", NULL};
/* clang-format on */

_Static_assert(sizeof(bc_rw_names) / sizeof(bc_rw_names[0]) == BC_RW_LAST + 2,
	       "bc_rw_names must name every enum bc_rw");

const struct bc_workload bc_workload_builtin = {
    .rw = BC_RW_RANDREAD,
    .rwmixread_ppm = 50 * BC_SPLIT_PCT1,
    .bs = 4096,
    .iodepth = 1,
    .numjobs = 1,
    .direct = true,
    .ramp_s = 0,
    .runtime_s = 10,
    .batch_submit = 1,
    .batch_complete = 1,
    .sqpoll_cpu = -1,
};

unsigned bc_rw_ops(enum bc_rw rw, uint32_t rwmixread_ppm, uint32_t rwmixtrim)
{
	switch (rw) {
	case BC_RW_READ:
	case BC_RW_RANDREAD:
		return BC_RW_OPS_READ;
	case BC_RW_WRITE:
	case BC_RW_RANDWRITE:
		return BC_RW_OPS_WRITE;
	case BC_RW_TRIM:
	case BC_RW_RANDTRIM:
		return BC_RW_OPS_TRIM;
	case BC_RW_RW:
	case BC_RW_RANDRW:
		return (rwmixread_ppm ? BC_RW_OPS_READ : 0) | (rwmixtrim ? BC_RW_OPS_TRIM : 0) |
		       (rwmixread_ppm + rwmixtrim * BC_SPLIT_PCT1 < BC_SPLIT_ALL ? BC_RW_OPS_WRITE
										 : 0);
	}
	return 0;
}

bool bc_rw_writes(enum bc_rw rw, uint32_t rwmixread_ppm, uint32_t rwmixtrim)
{
	return bc_rw_ops(rw, rwmixread_ppm, rwmixtrim) & (BC_RW_OPS_WRITE | BC_RW_OPS_TRIM);
}

const char *const bc_meta_names[BC_META_NR] = {
    "none", "create", "delete", "getattr", "setattr",	   "access",
    "open", "close",  "mkdir",	"rmdir",   "create_write",
};

bool bc_meta_modifies(uint32_t kind)
{
	return kind == BC_META_CREATE || kind == BC_META_DELETE || kind == BC_META_SETATTR ||
	       kind == BC_META_MKDIR || kind == BC_META_RMDIR || kind == BC_META_CREATE_WRITE;
}

bool bc_workload_writes(const struct bc_workload *wl)
{
	uint32_t i;

	/* metadata operations write no data; those that change the tree need it writable */
	if (wl->meta)
		return bc_meta_modifies(wl->meta);
	/* with streams, the streams' op mixes are what runs; a KV store always writes */
	for (i = 0; i < wl->nstreams; i++)
		if (wl->streams[i].kv.role)
			return true;
	for (i = 0; i < wl->nstreams; i++)
		if (bc_rw_writes(wl->streams[i].rw, wl->streams[i].rwmixread_ppm,
				 wl->streams[i].rwmixtrim))
			return true;
	if (wl->nstreams)
		return false;
	return bc_rw_writes(wl->rw, wl->rwmixread_ppm, wl->rwmixtrim);
}

bool bc_workload_reads(const struct bc_workload *wl)
{
	uint32_t i;

	/* no data read: nothing to lay out before the step */
	if (wl->meta)
		return false;
	for (i = 0; i < wl->nstreams; i++)
		if (bc_rw_ops(wl->streams[i].rw, wl->streams[i].rwmixread_ppm,
			      wl->streams[i].rwmixtrim) &
		    BC_RW_OPS_READ)
			return true;
	if (wl->nstreams)
		return false;
	return bc_rw_ops(wl->rw, wl->rwmixread_ppm, wl->rwmixtrim) & BC_RW_OPS_READ;
}

bool bc_rw_random(enum bc_rw rw)
{
	return rw == BC_RW_RANDREAD || rw == BC_RW_RANDWRITE || rw == BC_RW_RANDRW ||
	       rw == BC_RW_RANDTRIM;
}

bool bc_workload_random(const struct bc_workload *wl)
{
	return bc_rw_random(wl->rw);
}

bool bc_workload_size_based(const struct bc_workload *wl)
{
	uint32_t i;

	/* a KV store's records end the step: it is a pass too */
	for (i = 0; i < wl->nstreams; i++)
		if (wl->streams[i].kv.role)
			return true;
	return wl->size_based || wl->io_size || wl->passes;
}

/* the shortest "%g" text that reads back as the same double */
static void s_fmt_double(double v, char *buf, size_t len)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

const char *bc_dist_format(const struct bc_dist_spec *d, char *buf, size_t len)
{
	static const char *const names[] = {"uniform", "zipf",	"pareto",
					    "normal",  "zoned", "hotband"};
	size_t used;
	uint32_t i;
	char num[32];

	if ((unsigned)d->kind > BC_DIST_HOTBAND) {
		snprintf(buf, len, "?");
		return buf;
	}
	if (d->kind == BC_DIST_UNIFORM || d->kind == BC_DIST_HOTBAND) {
		snprintf(buf, len, "%s", names[d->kind]);
		return buf;
	}
	if (d->kind != BC_DIST_ZONED) {
		s_fmt_double(d->param, num, sizeof(num));
		snprintf(buf, len, "%s:%s", names[d->kind], num);
		return buf;
	}
	snprintf(buf, len, "zoned");
	for (i = 0; i < d->nzones; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, ":%u/%u", d->zones[i].access_pct,
			 d->zones[i].range_pct);
	}
	return buf;
}

const char *bc_bssplit_format(const struct bc_workload *wl, char *buf, size_t len)
{
	size_t used;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < wl->nbssplit; i++) {
		uint32_t ppm = wl->bssplit[i].ppm, frac = ppm % BC_SPLIT_PCT1;
		char dec[8] = "";
		int d;

		/* whole percents as fio writes them, else the decimals there are ("4.5") */
		if (frac) {
			snprintf(dec, sizeof(dec), ".%04u", frac);
			for (d = (int)strlen(dec) - 1; dec[d] == '0'; d--)
				dec[d] = '\0';
		}
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%u/%u%s", i ? ":" : "", wl->bssplit[i].bs,
			 ppm / BC_SPLIT_PCT1, dec);
	}
	return buf;
}

const char *bc_placement_format(const struct bc_placement *p, char *buf, size_t len)
{
	size_t used;
	unsigned i;

	if (p->kind == BC_PLACEMENT_NONE) {
		snprintf(buf, len, "none");
		return buf;
	}
	if (p->kind != 1) {
		snprintf(buf, len, "volume");
		return buf;
	}
	snprintf(buf, len, "[");
	for (i = 0; i < p->n; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%u", i ? "," : "", p->idx[i]);
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, "]");
	return buf;
}

cJSON *bc_placement_to_json(const struct bc_placement *p)
{
	cJSON *a;
	unsigned i;

	if (p->kind == BC_PLACEMENT_NONE)
		return cJSON_CreateString("none");
	if (p->kind != 1)
		return cJSON_CreateString("volume");
	a = cJSON_CreateArray();
	for (i = 0; a && i < p->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(p->idx[i]));
	return a;
}

uint64_t bc_pos_bytes(const struct bc_stream_pos *p, uint64_t win, uint64_t align)
{
	uint64_t b;

	if (!p->pct)
		return p->bytes;
	b = (uint64_t)((long double)win * p->pct_val / 100.0L);
	return b / align * align;
}

bool bc_pos_zero(const struct bc_stream_pos *p)
{
	return p->pct ? p->pct_val == 0 : !p->bytes;
}
