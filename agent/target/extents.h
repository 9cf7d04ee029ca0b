/*
 * target/extents.h - which bytes of a file are backed by written data: a read of
 * an unwritten extent (fallocate) or of a hole is answered by the filesystem
 * with zeroes and no device I/O, so a benchmark that reads there measures the
 * filesystem, not the storage. FIEMAP names unwritten extents and, by their
 * gaps, holes; where a filesystem has no FIEMAP, SEEK_DATA/SEEK_HOLE finds
 * the holes (ext4 and XFS report unwritten extents as holes there too).
 */
#ifndef BC_TARGET_EXTENTS_H
#define BC_TARGET_EXTENTS_H

#include <stdint.h>

struct bc_extscan {
	uint64_t start, len;	   /* the range scanned (clipped to the file's size) */
	uint64_t unwritten, holes; /* bytes of it not backed by written data */
	const char *method;	   /* "FIEMAP", "SEEK_HOLE", NULL: the filesystem says neither */
};

/* bytes of the scanned range not backed by written data */
static inline uint64_t bc_extscan_unbacked(const struct bc_extscan *x)
{
	return x->unwritten + x->holes;
}

/*
 * Scan [start, start + len) of the open file fd (len 0: to its end). Each
 * range not backed by written data is passed to range(arg, off, len) in
 * order, when range is not NULL (a non-zero return stops the scan and is
 * returned). Delayed-allocation extents hold data: they count as backed.
 * Returns 0 with out filled (out->method NULL when the filesystem answers
 * neither FIEMAP nor SEEK_HOLE: nothing is known), or -errno.
 */
int bc_extents_scan(int fd, uint64_t start, uint64_t len, struct bc_extscan *out,
		    int (*range)(void *arg, uint64_t off, uint64_t len), void *arg);

/* the same by path (opened read-only) */
int bc_extents_scan_path(const char *path, uint64_t start, uint64_t len, struct bc_extscan *out);

#endif
