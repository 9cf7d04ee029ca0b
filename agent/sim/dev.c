/*
 * sim/dev.c - the agent's simulated SSDs (sim/dev.h): a small registry
 * by name, and the lock that serializes each device's FTL.
 *
 * Why a lock on the I/O path: ops->prep runs on every job thread that
 * drives the volume, and the FTL is one shared mapping that every write
 * mutates (GC included). A real drive serializes the same way: one
 * controller owns the mapping. With one job per volume (the usual sim
 * profile) the mutex is never contended and costs one atomic exchange per
 * I/O, no syscall; with more jobs they queue behind each other's GC as I/Os
 * queue behind a drive's foreground GC. Per-job partitions would change
 * what is simulated (several small drives), and refusing numjobs > 1 would
 * forbid the multi-stream workloads FDP is about.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/dev.h"
#include "sim/lat.h"
#include "util/log.h"

/* "sim" and "sim:NAME" volumes on one agent at once */
#define S_DEVS_MAX 64

struct bc_sim_dev {
	char name[72];
	struct bc_sim_spec spec;
	pthread_mutex_t lock;
	struct bc_sim_ftl *ftl;
	struct bc_sim_lat *lat; /* NULL: no modelled latency */
};

static struct bc_sim_dev *s_devs[S_DEVS_MAX];

static void s_destroy(struct bc_sim_dev **pd)
{
	struct bc_sim_dev *d = *pd;

	if (!d)
		return;
	bc_sim_ftl_destroy(&d->ftl);
	bc_sim_lat_destroy(&d->lat);
	pthread_mutex_destroy(&d->lock);
	free(d);
	*pd = NULL;
}

static bool s_same_hc(const struct bc_sim_hotcold *a, const struct bc_sim_hotcold *b)
{
	return a->hot_share == b->hot_share && a->hot_gc == b->hot_gc && a->cold_gc == b->cold_gc &&
	       a->hot_min_invalid == b->hot_min_invalid &&
	       a->cold_min_invalid == b->cold_min_invalid &&
	       a->emergency_min_invalid == b->emergency_min_invalid &&
	       a->borrow_reserve == b->borrow_reserve && a->hot_access == b->hot_access &&
	       a->hot_interval == b->hot_interval && a->hot_confirm == b->hot_confirm &&
	       a->cold_interval == b->cold_interval && a->demote_either == b->demote_either &&
	       a->decay_window == b->decay_window;
}

/* a device keeps its state only for the very same simulated drive (FTL policy included) */
static bool s_same(const struct bc_sim_spec *a, const struct bc_sim_spec *b)
{
	return a->ftl == b->ftl && (a->ftl != BC_SIM_FTL_HOTCOLD || s_same_hc(&a->hc, &b->hc)) &&
	       a->bg_free_rus == b->bg_free_rus && a->bg_min_invalid == b->bg_min_invalid &&
	       a->log_every_bytes == b->log_every_bytes && a->capacity_bytes == b->capacity_bytes &&
	       a->page_bytes == b->page_bytes && a->ru_bytes == b->ru_bytes && a->op == b->op &&
	       a->ruhs == b->ruhs && a->gc == b->gc &&
	       a->gc_start_free_rus == b->gc_start_free_rus &&
	       a->gc_stop_free_rus == b->gc_stop_free_rus && a->lat_units == b->lat_units &&
	       a->lat_read_ns == b->lat_read_ns && a->lat_program_ns == b->lat_program_ns &&
	       a->lat_erase_ns == b->lat_erase_ns;
}

int bc_sim_dev_get(const char *name, const struct bc_sim_spec *s, struct bc_sim_dev **out,
		   char *err, size_t errlen)
{
	struct bc_sim_dev *d;
	int i, slot = -1, ret;

	*out = NULL;
	for (i = 0; i < S_DEVS_MAX; i++) {
		if (!s_devs[i]) {
			slot = slot < 0 ? i : slot;
			continue;
		}
		if (strcmp(s_devs[i]->name, name))
			continue;
		if (s_same(&s_devs[i]->spec, s)) {
			*out = s_devs[i];
			return 0;
		}
		bc_info("%s: the \"sim\" geometry changed: starting from a fresh device", name);
		s_destroy(&s_devs[i]);
		slot = i;
		break;
	}
	if (slot < 0) {
		snprintf(err, errlen, "%s: more than %d simulated SSDs on one agent", name,
			 S_DEVS_MAX);
		return -ENOSPC;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->spec = *s;
	pthread_mutex_init(&d->lock, NULL);
	ret = bc_sim_ftl_new(s, &d->ftl, err, errlen);
	if (ret) {
		s_destroy(&d);
		return ret;
	}
	if (s->lat_units && !(d->lat = bc_sim_lat_new(s))) {
		s_destroy(&d);
		return -ENOMEM;
	}
	s_devs[slot] = d;
	*out = d;
	return 0;
}

void bc_sim_dev_forget_all(void)
{
	int i;

	for (i = 0; i < S_DEVS_MAX; i++)
		s_destroy(&s_devs[i]);
}

/* the media time a command took, from what the FTL counted doing it */
static uint64_t s_timed(struct bc_sim_dev *d, const struct bc_sim_counters *a,
			const struct bc_sim_counters *b, enum bc_op op, uint64_t now_ns)
{
	const struct bc_sim_spec *s = &d->spec;
	uint64_t gc_pages = (b->gc_copy_bytes - a->gc_copy_bytes) / s->page_bytes;
	uint64_t gc_ns = gc_pages * (s->lat_read_ns + s->lat_program_ns) +
			 (b->erases - a->erases) * s->lat_erase_ns;
	uint64_t pages;

	if (op == BC_OP_WRITE)
		pages = (b->media_write_bytes - a->media_write_bytes -
			 (b->gc_copy_bytes - a->gc_copy_bytes)) /
			s->page_bytes;
	else if (op == BC_OP_READ)
		pages = (b->media_read_bytes - a->media_read_bytes) / s->page_bytes;
	else
		pages = 0; /* a trim only changes the mapping */
	return bc_sim_lat_command(d->lat, now_ns, (uint32_t)pages,
				  op == BC_OP_WRITE ? s->lat_program_ns : s->lat_read_ns, gc_ns);
}

uint64_t bc_sim_dev_io(struct bc_sim_dev *d, enum bc_op op, uint64_t off, uint32_t len,
		       unsigned ruh, uint64_t now_ns)
{
	struct bc_sim_counters a, b;
	uint64_t delay = 0;

	pthread_mutex_lock(&d->lock);
	if (d->lat)
		bc_sim_ftl_counters(d->ftl, &a);
	if (op == BC_OP_WRITE)
		bc_sim_ftl_write(d->ftl, off, len, ruh);
	else if (op == BC_OP_READ)
		bc_sim_ftl_read(d->ftl, off, len);
	else
		bc_sim_ftl_trim(d->ftl, off, len);
	if (d->lat) {
		bc_sim_ftl_counters(d->ftl, &b);
		delay = s_timed(d, &a, &b, op, now_ns);
	}
	pthread_mutex_unlock(&d->lock);
	return delay;
}

bool bc_sim_dev_timed(const struct bc_sim_dev *d)
{
	return d->lat != NULL;
}

void bc_sim_dev_counters(struct bc_sim_dev *d, struct bc_sim_counters *c)
{
	pthread_mutex_lock(&d->lock);
	bc_sim_ftl_counters(d->ftl, c);
	pthread_mutex_unlock(&d->lock);
}

unsigned bc_sim_dev_ruh_counters(struct bc_sim_dev *d, struct bc_sim_ruh_counters *out, unsigned n)
{
	unsigned got;

	pthread_mutex_lock(&d->lock);
	got = bc_sim_ftl_ruh_counters(d->ftl, out, n);
	pthread_mutex_unlock(&d->lock);
	return got;
}

unsigned bc_sim_dev_log(struct bc_sim_dev *d, uint64_t from, struct bc_sim_log_sample *out,
			unsigned max, uint64_t *first)
{
	unsigned n;

	pthread_mutex_lock(&d->lock);
	n = bc_sim_ftl_log(d->ftl, from, out, max, first);
	pthread_mutex_unlock(&d->lock);
	return n;
}

uint64_t bc_sim_dev_ruh_valid_pages(struct bc_sim_dev *d, unsigned ruh)
{
	uint64_t n;

	pthread_mutex_lock(&d->lock);
	n = bc_sim_ftl_ruh_valid_pages(d->ftl, ruh);
	pthread_mutex_unlock(&d->lock);
	return n;
}

int bc_sim_dev_check(struct bc_sim_dev *d)
{
	int ret;

	pthread_mutex_lock(&d->lock);
	ret = bc_sim_ftl_check(d->ftl);
	pthread_mutex_unlock(&d->lock);
	return ret;
}

const struct bc_sim_spec *bc_sim_dev_spec(const struct bc_sim_dev *d)
{
	return &d->spec;
}
