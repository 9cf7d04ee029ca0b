/*
 * backed.c - the layout of files this session made, PROGRESS while it runs,
 * and READY's / CHECKED's "backing" (see session/backed.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "session/backed.h"
#include "target/backing.h"
#include "util/clock.h"
#include "util/grow.h"
#include "target/extents.h"
#include "util/log.h"
#include "wire/proto.h"

static struct bc_made *s_made(struct bc_agent *a, dev_t dev, ino_t ino)
{
	int i;

	for (i = 0; i < a->nmade; i++)
		if (a->made[i].dev == dev && a->made[i].ino == ino)
			return &a->made[i];
	return NULL;
}

static struct bc_made *s_made_add(struct bc_agent *a, dev_t dev, ino_t ino)
{
	struct bc_made *m = s_made(a, dev, ino);

	if (m)
		return m;
	if (bc_grow(&a->made, a->nmade, &a->capmade, sizeof(*a->made), 16))
		return NULL;
	m = &a->made[a->nmade++];
	memset(m, 0, sizeof(*m));
	m->dev = dev;
	m->ino = ino;
	return m;
}

/* the made entry of target i, NULL when this session did not make its file */
static struct bc_made *s_made_of(struct bc_agent *a, int i)
{
	struct stat st;

	if (a->step.targets[i].fd < 0 || fstat(a->step.targets[i].fd, &st))
		return NULL;
	return s_made(a, st.st_dev, st.st_ino);
}

/* volume i is read by the step: its workload, or one of its several (step.c's runs) */
static bool s_reads(const struct bc_step_run *s, int i)
{
	int r;

	if (bc_workload_reads(&s->vwl[i]))
		return true;
	for (r = 0; r < s->nruns; r++)
		if (s->rvol[r] == i && bc_workload_reads(&s->rvwl[r]))
			return true;
	return false;
}

/*
 * an unbacked range into the layout, on 4 KiB boundaries (verify's blocks):
 * its start rounded up, its end down unless it is the file's end (the tail
 * is written as it is); FIEMAP's ranges are filesystem blocks already
 */
struct s_plan {
	struct bc_layout_vol *lv;
	uint64_t file_end;
};

static int s_add_range(void *arg, uint64_t off, uint64_t len)
{
	const struct s_plan *p = arg;
	uint64_t end = off + len, start = (off + 4095) & ~(uint64_t)4095;

	if (end != p->file_end)
		end &= ~(uint64_t)4095;
	return end > start ? bc_layout_add(p->lv, start, end - start) : 0;
}

/* a layout volume as PROGRESS and READY describe it */
static cJSON *s_lvol_json(const struct bc_layout_vol *v)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "volume", v->volume);
	cJSON_AddStringToObject(o, "path", v->path);
	cJSON_AddBoolToObject(o, "direct", v->direct);
	cJSON_AddNumberToObject(o, "bytes", (double)v->bytes);
	if (v->fs)
		cJSON_AddNumberToObject(o, "files", v->files);
	return o;
}

static void s_progress(struct bc_agent *a, bool done)
{
	struct bc_step_run *s = &a->step;
	cJSON *b = cJSON_CreateObject(), *arr;
	int i;

	cJSON_AddNumberToObject(b, "step", s->step);
	cJSON_AddStringToObject(b, "phase", "layout");
	cJSON_AddBoolToObject(b, "done", done);
	cJSON_AddNumberToObject(b, "elapsed_s",
				round((double)(bc_mono_ns() - s->layout_t0_ns) / 1e6) / 1e3);
	arr = cJSON_AddArrayToObject(b, "volumes");
	for (i = 0; i < s->nlvols; i++) {
		const struct bc_layout_vol *v = &s->lvols[i];
		cJSON *o = s_lvol_json(v);

		cJSON_AddNumberToObject(o, "done_bytes", (double)atomic_load(&v->done));
		cJSON_AddItemToArray(arr, o);
	}
	bc_msg_send_json(a->sock, a->owner, BC_MSG_PROGRESS, b);
	cJSON_Delete(b);
	s->layout_beat_ns = bc_mono_ns();
}

/*
 * Every workload on volume i is one sequential write pass over the whole of
 * it: the step itself writes every byte a layout would (a file set's
 * format step, vdbench's format=only)
 */
static bool s_writes_whole(const struct bc_step_run *s, int i)
{
	const struct bc_workload *w = &s->vwl[i];
	int r, n = 0;

	for (r = 0; r < s->nruns; r++)
		if (s->rvol[r] == i) {
			w = &s->rvwl[r];
			if (n++ || bc_workload_reads(w) || bc_workload_random(w) ||
			    !bc_workload_size_based(w) || w->io_size || w->file_shared)
				return false;
		}
	return !bc_workload_reads(w) && !bc_workload_random(w) && bc_workload_size_based(w) &&
	       !w->io_size && !w->file_shared;
}

/*
 * a file set's sizes as READY says them: each size and its count when there
 * are few (a "sizes" distribution), else the smallest, largest and mean
 */
static void s_fileset_sizes(const struct bc_target_files *f, cJSON *b)
{
	uint64_t size[BC_FILESET_SIZES_MAX], min = UINT64_MAX, max = 0;
	uint32_t count[BC_FILESET_SIZES_MAX], n = 0, i, k;
	bool few = true;
	cJSON *arr;

	for (i = 0; i < f->n; i++) {
		min = f->size[i] < min ? f->size[i] : min;
		max = f->size[i] > max ? f->size[i] : max;
		for (k = 0; few && k < n && size[k] != f->size[i]; k++)
			;
		if (!few || k < n) {
			count[k] += few;
			continue;
		}
		if (n == BC_FILESET_SIZES_MAX) {
			few = false;
			continue;
		}
		size[n] = f->size[i];
		count[n++] = 1;
	}
	if (!few) {
		cJSON_AddNumberToObject(b, "size_min", (double)min);
		cJSON_AddNumberToObject(b, "size_max", (double)max);
		cJSON_AddNumberToObject(b, "size_mean", f->n ? (double)f->bytes / f->n : 0);
		return;
	}
	arr = cJSON_AddArrayToObject(b, "sizes");
	for (k = 0; k < n; k++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddNumberToObject(e, "bytes", (double)size[k]);
		cJSON_AddNumberToObject(e, "files", count[k]);
		cJSON_AddItemToArray(arr, e);
	}
}

/* a file set's files this PREPARE created or extended, written out before the step */
static void s_plan_fileset(struct bc_step_run *s, int i, struct bc_layout_vol *lv)
{
	const struct bc_target *t = &s->targets[i];
	const struct bc_target_files *f = t->files;
	uint32_t k;

	if (!t->grew || s->layout_off[i] || s_writes_whole(s, i))
		return;
	lv->volume = i;
	snprintf(lv->path, sizeof(lv->path), "%s", t->path);
	lv->fs = t;
	for (k = 0; k < f->n; k++)
		if (f->had[k] < f->size[k]) {
			lv->bytes += f->size[k] - f->had[k];
			lv->files++;
		}
	if (lv->bytes)
		s->nlvols++;
}

int bc_backed_prepare(struct bc_agent *a, const cJSON *vols, char *err, size_t errlen)
{
	struct bc_step_run *s = &a->step;
	uint64_t total = 0;
	int i, rc;

	s->layout_off = calloc((size_t)s->ntargets + 1, sizeof(*s->layout_off));
	s->lvols = calloc((size_t)s->ntargets + 1, sizeof(*s->lvols));
	if (!s->layout_off || !s->lvols)
		return -ENOMEM;
	for (i = 0; i < s->ntargets; i++) {
		const struct bc_target *t = &s->targets[i];
		struct bc_layout_vol *lv = &s->lvols[s->nlvols];
		struct s_plan plan;
		struct bc_made *m;
		struct bc_extscan x;
		struct stat st;

		s->layout_off[i] = cJSON_IsFalse(
		    cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(vols, i), "layout"));
		if (t->files) {
			s_plan_fileset(s, i, lv);
			total += lv->bytes;
			continue;
		}
		if (t->info.kind != BC_KIND_FILE || t->fd < 0 || fstat(t->fd, &st))
			continue;
		m = s_made(a, st.st_dev, st.st_ino);
		if (t->grew) {
			m = s_made_add(a, st.st_dev, st.st_ino);
			if (!m)
				return -ENOMEM;
			/* grown again: its new part waits for a layout */
			m->from = m->laid_out || !m->to ? t->grew_from : m->from;
			m->to = t->info.size_bytes;
			m->laid_out = false;
		}
		if (!m || m->laid_out || s->layout_off[i] || !s_reads(s, i))
			continue;
		/* once per session: two volumes on one file lay it out once */
		m->laid_out = true;
		lv->volume = i;
		snprintf(lv->path, sizeof(lv->path), "%s", t->path);
		lv->direct = s->vwl[i].direct;
		plan = (struct s_plan){lv, (uint64_t)st.st_size};
		rc = bc_extents_scan(t->fd, m->from, m->to - m->from, &x, s_add_range, &plan);
		if (!rc && !x.method)
			/* nothing says what is written: all of what this session made */
			rc = s_add_range(&plan, m->from, m->to - m->from);
		if (rc) {
			snprintf(err, errlen, "volumes[%d] (%s): cannot plan the layout: %s", i,
				 t->path, strerror(-rc));
			return rc;
		}
		if (!lv->bytes) {
			bc_layout_vol_free(lv);
			continue;
		}
		total += lv->bytes;
		s->nlvols++;
	}
	if (!s->nlvols)
		return 0;
	rc = bc_layout_start(&s->layout, s->lvols, s->nlvols);
	if (rc) {
		snprintf(err, errlen, "cannot start the layout: %s", strerror(-rc));
		return rc;
	}
	s->layout_t0_ns = bc_mono_ns();
	bc_info("step %u: laying out %d file(s), %.1f MiB, before the step reads them", s->step,
		s->nlvols, (double)total / (1 << 20));
	s_progress(a, false);
	return 1;
}

int bc_backed_poll(struct bc_agent *a, char *err, size_t errlen)
{
	struct bc_step_run *s = &a->step;
	int i, rc = 0;

	if (!s->layout)
		return 0;
	if (!bc_layout_done(s->layout)) {
		if (bc_mono_ns() - s->layout_beat_ns >= BC_NS_PER_S)
			s_progress(a, false);
		return 1;
	}
	bc_layout_stop(&s->layout);
	for (i = 0; i < s->nlvols; i++) {
		struct bc_layout_vol *v = &s->lvols[i];
		struct bc_made *m;

		if (!v->rc) {
			bc_info("laid out %s: %.1f MiB in %.2f s (%s)", v->path,
				(double)v->bytes / (1 << 20), v->seconds,
				v->direct ? "direct" : "buffered");
			continue;
		}
		/* not laid out after all: the next step that reads tries again */
		m = s_made_of(a, v->volume);
		if (m)
			m->laid_out = false;
		if (!rc) {
			snprintf(err, errlen, "volumes[%d]: %s", v->volume,
				 v->err[0] ? v->err : strerror(-v->rc));
			rc = v->rc;
		}
	}
	s_progress(a, true);
	return rc;
}

static bool s_written(const struct bc_agent *a, dev_t rdev, uint64_t start, uint64_t end)
{
	int i;

	for (i = 0; i < a->nwritten; i++)
		if (a->written[i].rdev == rdev && a->written[i].start <= start &&
		    a->written[i].end >= end)
			return true;
	return false;
}

void bc_backed_ready_json(struct bc_agent *a, cJSON *ready)
{
	struct bc_step_run *s = &a->step;
	cJSON *vols = cJSON_GetObjectItemCaseSensitive(ready, "volumes"), *arr;
	int i;

	for (i = 0; i < s->ntargets; i++) {
		const struct bc_target *t = &s->targets[i];
		cJSON *b = NULL;
		struct stat st;

		if (t->files) {
			/* a file set: its tree as built, and whether its new files were laid out */
			const struct bc_target_files *f = t->files;

			b = cJSON_CreateObject();
			cJSON_AddStringToObject(b, "kind", "fileset");
			cJSON_AddNumberToObject(b, "files", f->n);
			cJSON_AddNumberToObject(b, "directories", f->ndirs);
			cJSON_AddNumberToObject(b, "bytes", (double)f->bytes);
			s_fileset_sizes(f, b);
			cJSON_AddNumberToObject(b, "created", f->created);
			cJSON_AddNumberToObject(b, "extended", f->extended);
			cJSON_AddNumberToObject(b, "deleted", f->deleted);
			cJSON_AddBoolToObject(
			    b, "laid_out", t->grew && !s->layout_off[i] && !s_writes_whole(s, i));
			if (s->layout_off[i] && t->grew)
				cJSON_AddBoolToObject(b, "layout_off", true);
		} else if (!s_reads(s, i)) {
			continue;
		} else if (t->info.kind == BC_KIND_FILE) {
			struct bc_made *m = s_made_of(a, i);

			b = bc_backing_file_json(t->path, t->win_start, t->win_end);
			if (b) {
				cJSON_AddBoolToObject(b, "made_this_run", m != NULL);
				cJSON_AddBoolToObject(b, "laid_out", m && m->laid_out);
				if (s->layout_off[i])
					cJSON_AddBoolToObject(b, "layout_off", true);
			}
		} else if (t->info.kind == BC_KIND_BLOCK && !stat(t->path, &st)) {
			if (s_written(a, st.st_rdev, t->win_start, t->win_end)) {
				b = cJSON_CreateObject();
				cJSON_AddStringToObject(b, "kind", "block");
				cJSON_AddBoolToObject(b, "written_this_run", true);
			} else {
				b = bc_backing_block_json("", t->path, t->win_start, t->win_end);
				if (b)
					cJSON_AddBoolToObject(b, "written_this_run", false);
			}
		}
		if (b)
			cJSON_AddItemToObject(cJSON_GetArrayItem(vols, i), "backing", b);
	}
	if (!s->nlvols)
		return;
	arr = cJSON_AddArrayToObject(ready, "layout");
	for (i = 0; i < s->nlvols; i++) {
		const struct bc_layout_vol *v = &s->lvols[i];
		cJSON *o = s_lvol_json(v);

		cJSON_AddNumberToObject(o, "ranges", v->nranges);
		cJSON_AddNumberToObject(o, "seconds", round(v->seconds * 1000) / 1000);
		cJSON_AddNumberToObject(o, "block_bytes", BC_LAYOUT_BS);
		/* a file set's files are written one after the other, buffered */
		cJSON_AddNumberToObject(o, "iodepth", v->fs ? 1 : BC_LAYOUT_QD);
		cJSON_AddItemToArray(arr, o);
	}
}

void bc_backed_step_done(struct bc_agent *a)
{
	struct bc_step_run *s = &a->step;
	int i;

	for (i = 0; i < s->ntargets; i++) {
		const struct bc_target *t = &s->targets[i];
		const struct bc_opstat *w = &s->totals[i].op[BC_OP_WRITE];
		struct stat st;

		/* a sequential write pass over the whole window, without errors */
		if (t->info.kind != BC_KIND_BLOCK || s->vwl[i].rw != BC_RW_WRITE || s->nruns ||
		    w->errors || w->bytes < t->win_end - t->win_start || stat(t->path, &st) ||
		    s_written(a, st.st_rdev, t->win_start, t->win_end))
			continue;
		if (bc_grow(&a->written, a->nwritten, &a->capwritten, sizeof(*a->written), 16))
			return;
		a->written[a->nwritten++] =
		    (struct bc_written){st.st_rdev, t->win_start, t->win_end};
	}
}

cJSON *bc_backed_check_json(struct bc_agent *a, const char *path, uint64_t size, uint64_t offset,
			    uint64_t length, bool layout)
{
	struct stat st;
	uint64_t end;
	cJSON *b;

	if (stat(path, &st)) {
		if (!size)
			return NULL;
		b = cJSON_CreateObject();
		cJSON_AddStringToObject(b, "kind", "file");
		cJSON_AddStringToObject(b, "prepare", "create");
		if (!layout)
			cJSON_AddBoolToObject(b, "layout_off", true);
		return b;
	}
	end = length ? offset + length : 0;
	if (S_ISBLK(st.st_mode)) {
		b = bc_backing_block_json("", path, offset,
					  end ? end : (uint64_t)0 - 1 /* clipped to the device */);
		if (b)
			cJSON_AddBoolToObject(
			    b, "written_this_run",
			    s_written(a, st.st_rdev, offset, end ? end : (uint64_t)st.st_size));
		return b;
	}
	if (!S_ISREG(st.st_mode))
		return NULL;
	b = bc_backing_file_json(path, offset, end ? end : (uint64_t)st.st_size);
	if (b && size > (uint64_t)st.st_size)
		cJSON_AddStringToObject(b, "prepare", "extend");
	if (b && !layout)
		cJSON_AddBoolToObject(b, "layout_off", true);
	return b;
}

void bc_backed_forget(struct bc_agent *a)
{
	free(a->made);
	free(a->written);
	a->made = NULL;
	a->written = NULL;
	a->nmade = a->capmade = a->nwritten = a->capwritten = 0;
}
