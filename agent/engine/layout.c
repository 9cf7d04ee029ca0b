/*
 * layout.c - one thread writes the ranges of each volume in turn through its
 * own io_uring (see engine/layout.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <liburing.h>

#include "util/clock.h"
#include "util/grow.h"
#include "engine/layout.h"
#include "engine/rand.h"
#include "engine/verify.h"
#include "target/opener.h"
#include "target/ops.h"

#define S_ALIGN 4096u /* O_DIRECT offsets and lengths; the unaligned tail goes buffered */

struct bc_layout {
	struct bc_layout_vol *vols;
	int n;
	pthread_t thread;
	atomic_bool cancel, done;
	void *buf[BC_LAYOUT_QD];
	void *tail; /* unaligned pieces of a direct volume, written through the page cache */
	uint64_t seed;
};

int bc_layout_add(struct bc_layout_vol *v, uint64_t off, uint64_t len)
{
	if (!len)
		return 0;
	/* contiguous with the last range: one longer range */
	if (v->nranges && v->r[v->nranges - 1].off + v->r[v->nranges - 1].len == off) {
		v->r[v->nranges - 1].len += len;
		v->bytes += len;
		return 0;
	}
	if (bc_grow(&v->r, v->nranges, &v->cap, sizeof(*v->r), 16))
		return -ENOMEM;
	v->r[v->nranges++] = (struct bc_layout_range){off, len};
	v->bytes += len;
	return 0;
}

void bc_layout_vol_free(struct bc_layout_vol *v)
{
	free(v->r);
	v->r = NULL;
	v->nranges = v->cap = 0;
}

/*
 * each 4 KiB gets a verify header (engine/verify.h: its offset, the run's
 * seed as generation, the layout as writer, a CRC-32C): no two blocks alike,
 * and a later "verify" read of a block no step wrote finds valid data where
 * it found zeroes before the layout
 */
static void s_stamp(void *buf, uint32_t len, uint64_t off, uint64_t seed)
{
	bc_verify_fill(buf, len, off, seed, BC_LAYOUT_WRITER);
}

/* the unaligned tail [off, off + len) of a direct volume, written through the page cache */
static int s_tail(struct bc_layout *l, struct bc_layout_vol *v, uint64_t off, uint32_t len)
{
	int fd = open(v->path, O_WRONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	s_stamp(l->tail, len, off, l->seed);
	if (pwrite(fd, l->tail, len, (off_t)off) != (ssize_t)len)
		rc = errno ? -errno : -EIO;
	if (!rc && fdatasync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

static int s_volume(struct bc_layout *l, struct io_uring *ring, struct bc_layout_vol *v)
{
	int fd = open(v->path, O_WRONLY | O_CLOEXEC | (v->direct ? O_DIRECT : 0)), rc = 0;
	int r = 0, inflight = 0, free_slots[BC_LAYOUT_QD], nfree = BC_LAYOUT_QD, i;
	uint64_t pos = v->nranges ? v->r[0].off : 0;

	if (fd < 0) {
		rc = -errno;
		snprintf(v->err, sizeof(v->err), "cannot open '%s' for the layout: %s", v->path,
			 strerror(-rc));
		return rc;
	}
	for (i = 0; i < BC_LAYOUT_QD; i++)
		free_slots[i] = i;
	while (!rc && (r < v->nranges || inflight)) {
		struct io_uring_cqe *cqe;

		/* fill the queue */
		while (r < v->nranges && nfree && !atomic_load(&l->cancel)) {
			uint64_t end = v->r[r].off + v->r[r].len;
			uint32_t n =
			    end - pos > BC_LAYOUT_BS ? BC_LAYOUT_BS : (uint32_t)(end - pos);
			struct io_uring_sqe *sqe;
			int slot;

			if (v->direct && (pos % S_ALIGN || n % S_ALIGN)) {
				/* only a range's unaligned end: aligned part now, the rest after */
				if (pos % S_ALIGN)
					n = S_ALIGN - pos % S_ALIGN < n ? S_ALIGN - pos % S_ALIGN
									: n;
				else if (n >= S_ALIGN)
					n -= n % S_ALIGN;
				if (pos % S_ALIGN || n % S_ALIGN) {
					rc = s_tail(l, v, pos, n);
					if (rc)
						break;
					atomic_fetch_add(&v->done, n);
					pos += n;
					if (pos >= end && ++r < v->nranges)
						pos = v->r[r].off;
					continue;
				}
			}
			sqe = io_uring_get_sqe(ring);
			if (!sqe)
				break;
			slot = free_slots[--nfree];
			s_stamp(l->buf[slot], n, pos, l->seed);
			io_uring_prep_write(sqe, fd, l->buf[slot], n, (off_t)pos);
			io_uring_sqe_set_data64(sqe, ((uint64_t)slot << 32) | n);
			inflight++;
			pos += n;
			if (pos >= end && ++r < v->nranges)
				pos = v->r[r].off;
		}
		if (rc)
			break;
		if (atomic_load(&l->cancel) && !inflight) {
			rc = -ECANCELED;
			break;
		}
		if (!inflight)
			continue;
		rc = io_uring_submit_and_wait(ring, 1);
		if (rc < 0)
			break;
		rc = 0;
		while (inflight && !io_uring_peek_cqe(ring, &cqe)) {
			uint64_t d = io_uring_cqe_get_data64(cqe);
			uint32_t want = (uint32_t)d;

			if (cqe->res < 0)
				rc = cqe->res;
			else if ((uint32_t)cqe->res != want)
				rc = -EIO; /* short: the filesystem is full, or failing */
			else
				atomic_fetch_add(&v->done, want);
			free_slots[nfree++] = (int)(d >> 32);
			inflight--;
			io_uring_cqe_seen(ring, cqe);
		}
	}
	/* what is still in flight after an error completes before the buffers go */
	while (inflight) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(ring, &cqe))
			break;
		inflight--;
		io_uring_cqe_seen(ring, cqe);
	}
	if (!rc && fdatasync(fd))
		rc = -errno;
	/* the layout's pages leave the page cache: the step reads from the device */
	if (!rc)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (rc && rc != -ECANCELED && !v->err[0])
		snprintf(v->err, sizeof(v->err), "laying out '%s' (%s): %s%s", v->path,
			 v->direct ? "direct" : "buffered", strerror(-rc),
			 rc == -ENOSPC ? " (the filesystem is full)" : "");
	close(fd);
	return rc;
}

/* file i of v's set opened through the agent's safety opener (as the target opened it) */
static int s_fs_open(struct bc_layout_vol *v, uint32_t i, int flags, char *path, size_t len)
{
	char rel[BC_PATH_MAX];
	int rc = bc_fileset_file_path(&v->fs->fileset, v->fs->files->tree[i], rel, sizeof(rel));

	if (rc)
		return rc;
	snprintf(path, len, "%s/%s", v->path, rel);
	return bc_target_open_path(path, flags, 0, v->err, sizeof(v->err));
}

/*
 * A file set's files, each from what it held to its end: buffered writes of
 * the stamped random blocks, then one syncfs for them all (a sync per file
 * costs a journal commit each: minutes for a large tree) and every file's
 * pages dropped, so the step reads from the device
 */
static int s_fileset(struct bc_layout *l, struct bc_layout_vol *v)
{
	const struct bc_target_files *f = v->fs->files;
	char path[BC_PATH_MAX * 2];
	uint32_t i;
	int fd, rc = 0;

	for (i = 0; !rc && i < f->n; i++) {
		uint64_t pos = f->had[i], end = f->size[i];

		if (pos >= end)
			continue;
		if (atomic_load(&l->cancel))
			return -ECANCELED;
		fd = s_fs_open(v, i, O_WRONLY, path, sizeof(path));
		if (fd < 0)
			return fd;
		while (!rc && pos < end) {
			uint32_t n =
			    end - pos > BC_LAYOUT_BS ? BC_LAYOUT_BS : (uint32_t)(end - pos);
			ssize_t w;

			/* stamped by the file's place in the set: no two blocks alike */
			s_stamp(l->buf[0], n, f->vstart[i] + pos, l->seed);
			w = pwrite(fd, l->buf[0], n, (off_t)pos);
			if (w != (ssize_t)n)
				rc = w < 0 ? -errno : -EIO; /* short: the filesystem is full */
			else
				atomic_fetch_add(&v->done, n);
			pos += n;
		}
		close(fd);
		if (rc)
			snprintf(v->err, sizeof(v->err), "laying out '%s': %s%s", path,
				 strerror(-rc), rc == -ENOSPC ? " (the filesystem is full)" : "");
	}
	if (rc)
		return rc;
	fd = open(v->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd)) {
		rc = -errno;
		snprintf(v->err, sizeof(v->err), "laying out '%s': sync: %s", v->path,
			 strerror(-rc));
	}
	if (fd >= 0)
		close(fd);
	/* written back now: their pages leave the page cache */
	for (i = 0; !rc && i < f->n; i++) {
		if (f->had[i] >= f->size[i])
			continue;
		fd = s_fs_open(v, i, O_RDONLY, path, sizeof(path));
		if (fd < 0)
			return fd;
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
	return rc;
}

static void *s_thread(void *arg)
{
	struct bc_layout *l = arg;
	struct io_uring ring;
	int i, rc;

	rc = io_uring_queue_init(BC_LAYOUT_QD * 2, &ring, 0);
	for (i = 0; i < l->n; i++) {
		struct bc_layout_vol *v = &l->vols[i];
		uint64_t t0 = bc_mono_ns();

		if (rc) {
			v->rc = rc;
			snprintf(v->err, sizeof(v->err),
				 "cannot set up io_uring for the layout: %s", strerror(-rc));
			continue;
		}
		if (atomic_load(&l->cancel)) {
			v->rc = -ECANCELED;
			continue;
		}
		v->rc = v->fs ? s_fileset(l, v) : s_volume(l, &ring, v);
		v->seconds = (double)(bc_mono_ns() - t0) / 1e9;
	}
	if (!rc)
		io_uring_queue_exit(&ring);
	atomic_store(&l->done, true);
	return NULL;
}

int bc_layout_start(struct bc_layout **out, struct bc_layout_vol *vols, int n)
{
	struct bc_layout *l = calloc(1, sizeof(*l));
	struct bc_rand rng;
	uint64_t x = bc_real_ns();
	int i, rc;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	if (posix_memalign(&l->tail, S_ALIGN, BC_LAYOUT_BS)) {
		free(l);
		return -ENOMEM;
	}
	l->vols = vols;
	l->n = n;
	l->seed = bc_splitmix64(&x);
	bc_rand_seed(&rng, l->seed);
	for (i = 0; i < BC_LAYOUT_QD; i++) {
		uint64_t *w;
		size_t k;

		if (posix_memalign(&l->buf[i], S_ALIGN, BC_LAYOUT_BS)) {
			rc = -ENOMEM;
			goto fail;
		}
		/* random, so that no device can compress it */
		for (w = l->buf[i], k = 0; k < BC_LAYOUT_BS / sizeof(*w); k++)
			w[k] = bc_rand_next(&rng);
	}
	memcpy(l->tail, l->buf[0], BC_LAYOUT_BS);
	rc = pthread_create(&l->thread, NULL, s_thread, l);
	if (rc) {
		rc = -rc;
		goto fail;
	}
	*out = l;
	return 0;
fail:
	for (i = 0; i < BC_LAYOUT_QD; i++)
		free(l->buf[i]);
	free(l->tail);
	free(l);
	return rc;
}

bool bc_layout_done(const struct bc_layout *l)
{
	return !l || atomic_load(&((struct bc_layout *)l)->done);
}

void bc_layout_stop(struct bc_layout **lp)
{
	struct bc_layout *l = *lp;
	int i;

	if (!l)
		return;
	atomic_store(&l->cancel, true);
	pthread_join(l->thread, NULL);
	for (i = 0; i < BC_LAYOUT_QD; i++)
		free(l->buf[i]);
	free(l->tail);
	free(l);
	*lp = NULL;
}
