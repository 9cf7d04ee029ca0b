/*
 * mc_flash.h - an object-level Monte-Carlo model of a log-structured flash
 * device, the independent check of the simulated SSD's write amplification
 * (tests/unit/test_sim_lifetime.c, tests/e2e/kv_model.c). Written from the
 * rules docs/sim.md states, not from agent/sim: reclaim units (RUs) of k
 * object slots; one write frontier per reclaim unit handle (RUH); garbage
 * collection when opening a unit leaves fewer than gc_start free, until
 * gc_stop are free; the victim is the full unit with the fewest live
 * objects (the lowest-numbered of equals), its live objects appended to its
 * own handle's frontier; freed units are reused last freed first. It knows
 * objects, not pages, and nothing of mapping tables.
 *
 * The workload is the KV-cache store's: classes of objects stored in a
 * fixed interleave by share, each class keeping its newest `cap` objects
 * and trimming the oldest as it stores a new one (FIFO eviction), so an
 * object of class c lives exactly cap_c stores of class c.
 */
#ifndef MC_FLASH_H
#define MC_FLASH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MC_CLASSES_MAX 8
#define MC_RUHS_MAX    8

struct mc_class {
	double share; /* of the stores */
	uint64_t cap; /* objects live at once */
	int ruh;      /* the handle its objects are written to */
};

struct mc_dev {
	int nru, k, gc_start, gc_stop;
	int64_t *slot; /* [nru * k]: the object in each slot, -1 none or dead */
	int *live;     /* [nru] live objects */
	int *full;     /* [nru] closed and not yet reclaimed */
	int *owner;    /* [nru] the handle that wrote it */
	int *freestk, nfree;
	int open[MC_RUHS_MAX], wp[MC_RUHS_MAX];
	int64_t *where; /* [object id] its slot, -1 none */
	uint64_t programs;
	int in_gc;
};

static void mc_gc(struct mc_dev *d);

/* append object id to handle h's frontier, opening (and collecting) as needed */
static void mc_append(struct mc_dev *d, int64_t id, int h)
{
	int64_t at;

	/* collection inside may fill this frontier again: until it has room */
	while (d->wp[h] == d->k) {
		if (d->open[h] >= 0)
			d->full[d->open[h]] = 1;
		if (!d->nfree)
			abort(); /* more live data than the device holds: a broken case */
		d->open[h] = d->freestk[--d->nfree];
		d->wp[h] = 0;
		d->live[d->open[h]] = 0;
		d->full[d->open[h]] = 0;
		d->owner[d->open[h]] = h;
		if (!d->in_gc && d->nfree < d->gc_start)
			mc_gc(d);
	}
	at = (int64_t)d->open[h] * d->k + d->wp[h]++;
	d->slot[at] = id;
	d->live[at / d->k]++;
	d->where[id] = at;
	d->programs++;
}

static void mc_gc(struct mc_dev *d)
{
	int r, v, i;

	d->in_gc = 1;
	while (d->nfree < d->gc_stop) {
		for (v = -1, r = 0; r < d->nru; r++)
			if (d->full[r] && (v < 0 || d->live[r] < d->live[v]))
				v = r;
		if (v < 0)
			break;
		for (i = 0; i < d->k; i++) {
			int64_t id = d->slot[(int64_t)v * d->k + i];

			if (id < 0)
				continue;
			d->slot[(int64_t)v * d->k + i] = -1;
			d->live[v]--;
			mc_append(d, id, d->owner[v]);
		}
		d->full[v] = 0;
		d->freestk[d->nfree++] = v;
	}
	d->in_gc = 0;
}

static void mc_trim(struct mc_dev *d, int64_t id)
{
	int64_t at = d->where[id];

	if (at < 0)
		return;
	d->slot[at] = -1;
	d->live[at / d->k]--;
	d->where[id] = -1;
}

/*
 * Programs per stored object over `meas` stores after `warm` stores: the
 * write amplification. The stores interleave by share deterministically
 * (each store goes to the class furthest behind its share). Returns -1
 * without memory, -2 when the classes' live objects cannot fit the device.
 */
static double mc_waf(int nru, int k, int gc_start, int gc_stop, const struct mc_class *cl, int ncl,
		     uint64_t warm, uint64_t meas)
{
	struct mc_dev d = {.nru = nru, .k = k, .gc_start = gc_start, .gc_stop = gc_stop};
	uint64_t seq[MC_CLASSES_MAX] = {0}, n, total = warm + meas, p0 = 0, live = 0;
	double acc[MC_CLASSES_MAX] = {0}, best, waf = -1;
	int64_t *ids[MC_CLASSES_MAX] = {0};
	int c, j;

	/* more live objects than the units outside GC's reserve and the frontiers hold: no answer
	 */
	for (c = 0; c < ncl; c++)
		live += cl[c].cap;
	if (live >= (uint64_t)(nru - gc_stop - MC_RUHS_MAX) * (uint64_t)k)
		return -2;

	d.slot = malloc(sizeof(*d.slot) * (size_t)nru * (size_t)k);
	d.live = calloc((size_t)nru, sizeof(int));
	d.full = calloc((size_t)nru, sizeof(int));
	d.owner = calloc((size_t)nru, sizeof(int));
	d.freestk = malloc(sizeof(int) * (size_t)nru);
	d.where = malloc(sizeof(*d.where) * total);
	for (c = 0; c < ncl; c++)
		ids[c] = malloc(sizeof(int64_t) * total);
	if (!d.slot || !d.live || !d.full || !d.owner || !d.freestk || !d.where)
		goto out;
	for (c = 0; c < ncl; c++)
		if (!ids[c])
			goto out;
	memset(d.slot, 0xff, sizeof(*d.slot) * (size_t)nru * (size_t)k);
	memset(d.where, 0xff, sizeof(*d.where) * total);
	for (j = 0; j < nru; j++)
		d.freestk[d.nfree++] = nru - 1 - j;
	for (j = 0; j < MC_RUHS_MAX; j++) {
		d.open[j] = -1;
		d.wp[j] = k;
	}
	for (n = 0; n < total; n++) {
		if (n == warm)
			p0 = d.programs;
		for (c = 0, best = -1e300, j = 0; j < ncl; j++) {
			acc[j] += cl[j].share;
			if (acc[j] > best) {
				best = acc[j];
				c = j;
			}
		}
		acc[c] -= 1;
		if (seq[c] >= cl[c].cap)
			mc_trim(&d, ids[c][seq[c] - cl[c].cap]);
		ids[c][seq[c]++] = (int64_t)n;
		mc_append(&d, (int64_t)n, cl[c].ruh);
	}
	waf = (double)(d.programs - p0) / (double)meas;
out:
	for (c = 0; c < ncl; c++)
		free(ids[c]);
	free(d.slot);
	free(d.live);
	free(d.full);
	free(d.owner);
	free(d.freestk);
	free(d.where);
	return waf;
}

#endif
