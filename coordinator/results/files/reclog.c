/*
 * results/files/reclog.c - records.bin (results/files/reclog.h): the writer events.jsonl's writer
 * thread appends each STATS body to, and the reader that rebuilds, `report`
 * and `bench-coord dump-events` read a record back with by its offset.
 * Each body is compressed on its own (zlib, Huffman only): a record can be read without
 * any other, and a file cut short loses only the frame it ends in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "agg/secfile.h"
#include "results/files/reclog.h"
#include "wire/varint.h"

#define S_MAGIC "BCRECS01"
#define S_FRAME 8 /* length, crc */
/* a payload longer than this is a corrupt length, not a record (16 volumes: ~20 KB) */
#define S_PAYLOAD_MAX (256u << 20)

static void s_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t s_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int s_room(uint8_t **b, size_t *cap, size_t need)
{
	uint8_t *n;

	if (need <= *cap)
		return 0;
	n = realloc(*b, need);
	if (!n)
		return -ENOMEM;
	*b = n;
	*cap = need;
	return 0;
}

/* ---- writer ---- */

struct bc_reclogw {
	FILE *f;
	uint64_t off; /* bytes written so far: the next frame's offset */
	int level;
	z_stream z;
	bool z_on;
	uint8_t *buf; /* the frame being built */
	size_t cap;
	int err; /* the first error, sticky */
};

int bc_reclogw_open(struct bc_reclogw **out, const char *path, int level, char *err, size_t errlen)
{
	return bc_reclogw_open_at(out, path, level, 0, err, errlen);
}

int bc_reclogw_open_at(struct bc_reclogw **out, const char *path, int level, uint64_t end,
		       char *err, size_t errlen)
{
	struct bc_reclogw *w = calloc(1, sizeof(*w));
	uint8_t h[BC_RECLOG_HDR] = S_MAGIC;
	int rc = 0;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->level = level < 0 ? 0 : level > 9 ? 9 : level;
	if (w->level) {
		/*
		 * Huffman coding alone: a body is varints with few repeats, so
		 * LZ77's matches buy ~2% at 4x the CPU (docs/results.md)
		 */
		if (deflateInit2(&w->z, w->level, Z_DEFLATED, 15, 8, Z_HUFFMAN_ONLY) != Z_OK) {
			rc = -ENOMEM;
			snprintf(err, errlen, "'%s': cannot start zlib", path);
			goto out;
		}
		w->z_on = true;
	}
	/* a resumed run appends after the last frame its log names: what follows goes */
	w->f = fopen(path, end > BC_RECLOG_HDR ? "r+" : "w");
	if (!w->f) {
		rc = -errno;
		snprintf(err, errlen, "cannot %s '%s': %s", end > BC_RECLOG_HDR ? "open" : "create",
			 path, strerror(errno));
		goto out;
	}
	if (end > BC_RECLOG_HDR) {
		setvbuf(w->f, NULL, _IONBF, 0);
		if (ftruncate(fileno(w->f), (off_t)end) || fseeko(w->f, (off_t)end, SEEK_SET)) {
			rc = -errno;
			snprintf(err, errlen, "cannot cut '%s' to %llu bytes: %s", path,
				 (unsigned long long)end, strerror(errno));
			goto out;
		}
		w->off = end;
		*out = w;
		return 0;
	}
	/*
	 * one write(2) per record, the frame built whole first: a frame is in the
	 * kernel before the events.jsonl line naming it is even buffered, so a
	 * coordinator killed at any point leaves no line without its record
	 * (1,000 agents: 1,000 writes a second, of ~10 KB)
	 */
	setvbuf(w->f, NULL, _IONBF, 0);
	s_put32(h + 8, BC_RECLOG_VERSION);
	s_put32(h + 12, 0);
	errno = 0;
	if (fwrite(h, 1, sizeof(h), w->f) != sizeof(h)) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-rc));
		goto out;
	}
	w->off = BC_RECLOG_HDR;
	*out = w;
	w = NULL;
out:
	if (w) {
		if (w->f)
			fclose(w->f);
		if (w->z_on)
			deflateEnd(&w->z);
		free(w);
	}
	return rc;
}

int bc_reclogw_put(struct bc_reclogw *w, const char *agent, uint64_t time_ns, const uint8_t *body,
		   size_t len, uint64_t *off)
{
	size_t nlen = strlen(agent), at = S_FRAME, bound;
	uint8_t *p;

	if (w->err)
		return w->err;
	bound = w->z_on ? deflateBound(&w->z, len) : len;
	if (s_room(&w->buf, &w->cap, S_FRAME + 1 + 3 * 10 + nlen + bound))
		return -ENOMEM;
	p = w->buf;
	p[at++] = w->z_on ? BC_RECLOG_ZLIB : BC_RECLOG_RAW;
	at += bc_varint_put(p + at, 10, time_ns);
	at += bc_varint_put(p + at, 10, nlen);
	memcpy(p + at, agent, nlen);
	at += nlen;
	at += bc_varint_put(p + at, 10, len);
	if (w->z_on) {
		/* one zlib stream per record: each can be read alone */
		if (deflateReset(&w->z) != Z_OK)
			return -EIO;
		w->z.next_in = (Bytef *)(uintptr_t)body;
		w->z.avail_in = (uInt)len;
		w->z.next_out = p + at;
		w->z.avail_out = (uInt)bound;
		if (deflate(&w->z, Z_FINISH) != Z_STREAM_END)
			return -EIO;
		at += bound - w->z.avail_out;
	} else {
		memcpy(p + at, body, len);
		at += len;
	}
	s_put32(p, (uint32_t)(at - S_FRAME));
	s_put32(p + 4, bc_secf_crc32(0, p + S_FRAME, at - S_FRAME));
	errno = 0;
	if (fwrite(p, 1, at, w->f) != at) {
		/* disk full, I/O error: the real errno, and no frame cut short left behind */
		w->err = errno ? -errno : -EIO;
		clearerr(w->f);
		if (!ftruncate(fileno(w->f), (off_t)w->off))
			fseeko(w->f, (off_t)w->off, SEEK_SET);
		return w->err;
	}
	*off = w->off;
	w->off += at;
	return 0;
}

int bc_reclogw_flush(struct bc_reclogw *w)
{
	if (!w)
		return 0;
	if (fflush(w->f) && !w->err)
		w->err = -errno;
	return w->err;
}

int bc_reclogw_close(struct bc_reclogw *w)
{
	int rc;

	if (!w)
		return 0;
	rc = w->err;
	if (fclose(w->f) && !rc)
		rc = -errno;
	if (w->z_on)
		deflateEnd(&w->z);
	free(w->buf);
	free(w);
	return rc;
}

/* ---- reader ---- */

int bc_reclogr_open(struct bc_reclogr *r, const char *path, char *err, size_t errlen)
{
	uint8_t h[BC_RECLOG_HDR];
	struct stat sb;
	ssize_t got;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return rc;
	}
	if (fstat(r->fd, &sb)) {
		rc = -errno;
		snprintf(err, errlen, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	r->size = (uint64_t)sb.st_size;
	got = pread(r->fd, h, sizeof(h), 0);
	if (got != (ssize_t)sizeof(h) || memcmp(h, S_MAGIC, 8)) {
		rc = -EBADMSG;
		snprintf(err, errlen, "'%s' is not a record log (no %s header)", path, S_MAGIC);
		goto out;
	}
	if (s_get32(h + 8) != BC_RECLOG_VERSION) {
		rc = -EPROTO;
		snprintf(err, errlen, "'%s': version %u, this bench-coord reads %u", path,
			 s_get32(h + 8), BC_RECLOG_VERSION);
		goto out;
	}
out:
	if (rc)
		bc_reclogr_close(r);
	return rc;
}

int bc_reclogr_get(struct bc_reclogr *r, uint64_t off, struct bc_reclog_rec *rec)
{
	uint8_t h[S_FRAME];
	uint32_t len;
	uint64_t nlen, blen;
	struct bc_varint_cur c;
	ssize_t got;

	memset(rec, 0, sizeof(*rec));
	if (off < BC_RECLOG_HDR)
		return -EINVAL;
	/* the file may still grow (a run going on): its size now */
	if (off + S_FRAME > r->size) {
		struct stat sb;

		if (!fstat(r->fd, &sb))
			r->size = (uint64_t)sb.st_size;
		if (off + S_FRAME > r->size)
			return -ENOENT;
	}
	got = pread(r->fd, h, S_FRAME, (off_t)off);
	if (got < 0)
		return -errno;
	if (got != S_FRAME)
		return -ENOENT;
	len = s_get32(h);
	if (len > S_PAYLOAD_MAX)
		return -EBADMSG;
	if (off + S_FRAME + len > r->size)
		return -ENOENT;
	if (s_room(&r->buf, &r->buf_cap, (size_t)len + 1))
		return -ENOMEM;
	got = pread(r->fd, r->buf, len, (off_t)(off + S_FRAME));
	if (got < 0)
		return -errno;
	if ((size_t)got != len)
		return -ENOENT;
	if (bc_secf_crc32(0, r->buf, len) != s_get32(h + 4))
		return -EBADMSG;
	c = (struct bc_varint_cur){r->buf, len, false};
	if (!c.n)
		return -EBADMSG;
	rec->codec = *c.p++;
	c.n--;
	rec->time_ns = bc_varint_next(&c);
	nlen = bc_varint_next(&c);
	if (c.bad || nlen >= sizeof(rec->agent) || nlen > c.n)
		return -EBADMSG;
	memcpy(rec->agent, c.p, nlen);
	rec->agent[nlen] = 0;
	c.p += nlen;
	c.n -= nlen;
	blen = bc_varint_next(&c);
	if (c.bad || blen > S_PAYLOAD_MAX)
		return -EBADMSG;
	rec->off = off;
	rec->next = off + S_FRAME + len;
	rec->stored = len;
	rec->len = (size_t)blen;
	if (rec->codec == BC_RECLOG_RAW) {
		if (blen != c.n)
			return -EBADMSG;
		rec->body = c.p;
		return 0;
	}
	if (rec->codec != BC_RECLOG_ZLIB)
		return -EBADMSG;
	if (s_room(&r->out, &r->out_cap, (size_t)blen + 1))
		return -ENOMEM;
	{
		uLongf n = (uLongf)blen;

		if (uncompress(r->out, &n, c.p, (uLong)c.n) != Z_OK || n != blen)
			return -EBADMSG;
	}
	rec->body = r->out;
	return 0;
}

void bc_reclogr_close(struct bc_reclogr *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->buf);
	free(r->out);
	r->buf = r->out = NULL;
	r->buf_cap = r->out_cap = 0;
}
