/*
 * extents.c - a file's ranges not backed by written data, from FIEMAP
 * (Documentation/filesystems/fiemap.rst) or SEEK_DATA/SEEK_HOLE (lseek(2)).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/extents.h"

#define S_EXTENTS 256 /* extents asked per FIEMAP call */

/* adjacent unbacked ranges (an unwritten extent, then a hole) are passed as one */
struct s_pend {
	uint64_t off, len;
	int (*range)(void *arg, uint64_t off, uint64_t len);
	void *arg;
};

static int s_flush(struct s_pend *p)
{
	int rc = 0;

	if (p->len && p->range)
		rc = p->range(p->arg, p->off, p->len);
	p->len = 0;
	return rc;
}

static int s_unbacked(struct s_pend *p, uint64_t off, uint64_t len)
{
	int rc;

	if (!len)
		return 0;
	if (p->len && p->off + p->len == off) {
		p->len += len;
		return 0;
	}
	rc = s_flush(p);
	p->off = off;
	p->len = len;
	return rc;
}

/* [lo, hi) of [a, a + n) inside [s, e): its length, 0 outside */
static uint64_t s_clip(uint64_t a, uint64_t n, uint64_t s, uint64_t e, uint64_t *lo)
{
	uint64_t l = a > s ? a : s, h = a + n < e ? a + n : e;

	*lo = l;
	return h > l ? h - l : 0;
}

static int s_fiemap(int fd, struct bc_extscan *x, struct s_pend *p)
{
	size_t sz = sizeof(struct fiemap) + S_EXTENTS * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, sz);
	uint64_t end = x->start + x->len, pos = x->start, lo, n;
	int rc = 0;
	bool last = false;
	unsigned i;

	if (!fm)
		return -ENOMEM;
	while (!last && pos < end) {
		memset(fm, 0, sz);
		fm->fm_start = pos;
		fm->fm_length = end - pos;
		fm->fm_extent_count = S_EXTENTS;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			rc = -errno;
			goto out;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			last = e->fe_flags & FIEMAP_EXTENT_LAST;
			/* a gap before the extent is a hole */
			if (e->fe_logical > pos) {
				n = s_clip(pos, e->fe_logical - pos, x->start, end, &lo);
				x->holes += n;
				rc = s_unbacked(p, lo, n);
			}
			n = s_clip(e->fe_logical, e->fe_length, x->start, end, &lo);
			if (!rc && (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN) &&
			    !(e->fe_flags & FIEMAP_EXTENT_DELALLOC)) {
				x->unwritten += n;
				rc = s_unbacked(p, lo, n);
			}
			if (rc)
				goto out;
			if (e->fe_logical + e->fe_length > pos)
				pos = e->fe_logical + e->fe_length;
			if (pos >= end)
				break;
		}
	}
	/* past the last extent: a hole to the end */
	if (pos < end) {
		x->holes += end - pos;
		rc = s_unbacked(p, pos, end - pos);
	}
out:
	free(fm);
	return rc;
}

static int s_seek(int fd, struct bc_extscan *x, struct s_pend *p)
{
	uint64_t end = x->start + x->len, pos = x->start;
	int rc = 0;

	while (pos < end && !rc) {
		off_t d = lseek(fd, (off_t)pos, SEEK_DATA), h;

		if (d < 0 && errno != ENXIO)
			return -errno;
		/* no data from pos on: a hole to the end */
		if (d < 0 || (uint64_t)d >= end) {
			x->holes += end - pos;
			return s_unbacked(p, pos, end - pos);
		}
		if ((uint64_t)d > pos) {
			x->holes += (uint64_t)d - pos;
			rc = s_unbacked(p, pos, (uint64_t)d - pos);
		}
		h = lseek(fd, d, SEEK_HOLE);
		if (h < 0)
			return -errno;
		pos = (uint64_t)h;
	}
	return rc;
}

int bc_extents_scan(int fd, uint64_t start, uint64_t len, struct bc_extscan *out,
		    int (*range)(void *arg, uint64_t off, uint64_t len), void *arg)
{
	struct s_pend p = {0, 0, range, arg};
	struct stat st;
	uint64_t size;
	int rc;

	memset(out, 0, sizeof(*out));
	if (fstat(fd, &st))
		return -errno;
	size = (uint64_t)st.st_size;
	if (start > size)
		start = size;
	if (!len || len > size - start)
		len = size - start;
	out->start = start;
	out->len = len;
	if (!len) {
		out->method = "FIEMAP";
		return 0;
	}
	rc = s_fiemap(fd, out, &p);
	if (!rc) {
		out->method = "FIEMAP";
		return s_flush(&p);
	}
	if (rc != -EOPNOTSUPP && rc != -ENOTTY && rc != -EINVAL)
		return rc;
	/* no FIEMAP (tmpfs, some network filesystems): holes by SEEK_DATA/SEEK_HOLE */
	out->unwritten = out->holes = 0;
	p.len = 0;
	rc = s_seek(fd, out, &p);
	if (!rc) {
		out->method = "SEEK_HOLE";
		return s_flush(&p);
	}
	out->unwritten = out->holes = 0;
	return rc == -EINVAL || rc == -EOPNOTSUPP ? 0 : rc;
}

int bc_extents_scan_path(const char *path, uint64_t start, uint64_t len, struct bc_extscan *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return -errno;
	rc = bc_extents_scan(fd, start, len, out, NULL, NULL);
	close(fd);
	return rc;
}
