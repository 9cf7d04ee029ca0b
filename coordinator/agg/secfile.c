/*
 * agg/secfile.c - seconds.bin (agg/secfile.h): the writer the aggregation feeds
 * as each second closes, and the reader run.json's series, timeseries.csv
 * and `bench-coord dump-seconds` use. Format and the reasons for it:
 * docs/results.md.
 *
 * A ROWS payload is a fixed prefix (u32 ordinal, u32 second, u32 entities),
 * a table of u32 offsets (entities + 1 of them, volumes then agents, nodes,
 * the total) and the records: so one entity's row of one second is two
 * small reads, and a series is read one entity at a time without decoding
 * the other 16,000 volumes. A record is a varint bit mask of its non-zero
 * fields and those fields as varints: a silent entity is one byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agg/secfile.h"
#include "util/json.h"
#include "wire/varint.h"

#define S_MAGIC	     "BCSECS01"
#define S_TMAGIC     "BCSECIDX"
#define S_HDR	     16
#define S_FRAME	     9 /* type, length, crc */
#define S_TRAILER    16
#define S_ROWS_FIX   12
#define S_ROW_FIELDS 18
#define S_ROW_MAX    (3 + S_ROW_FIELDS * 10)
/* a frame longer than this is a corrupt length, not a second (16,000 volumes: ~1 MB) */
#define S_FRAME_MAX (1u << 30)

static uint32_t s_crc_table[256];

uint32_t bc_secf_crc32(uint32_t crc, const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	if (!s_crc_table[1]) {
		uint32_t c, n, k;

		for (n = 0; n < 256; n++) {
			for (c = n, k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			s_crc_table[n] = c;
		}
	}
	crc = ~crc;
	for (i = 0; i < len; i++)
		crc = s_crc_table[(crc ^ b[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

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

static uint64_t s_get64(const uint8_t *p)
{
	return (uint64_t)s_get32(p) | (uint64_t)s_get32(p + 4) << 32;
}

/* the fields of a row in record order; the mask's bit f is field f */
static void s_row_fields(const struct bc_secrow *r, uint64_t f[S_ROW_FIELDS])
{
	int o;

	f[0] = r->reports;
	f[1] = r->late;
	for (o = 0; o <= BC_OP_TRIM; o++) {
		f[2 + o] = r->ios[o];
		f[5 + o] = r->bytes[o];
	}
	/* metadata ops came after the format: last, and with no bytes */
	f[17] = r->ios[BC_OP_META];
	f[8] = r->errors;
	f[9] = r->short_ios;
	f[10] = r->lat_sum_ns;
	f[11] = r->p50_ns;
	f[12] = r->p90_ns;
	f[13] = r->p99_ns;
	f[14] = r->p999_ns;
	f[15] = r->p9999_ns;
	f[16] = r->max_ns;
}

static void s_row_set(struct bc_secrow *r, const uint64_t f[S_ROW_FIELDS])
{
	int o;

	memset(r, 0, sizeof(*r));
	r->reports = (uint32_t)f[0];
	r->late = (uint32_t)f[1];
	for (o = 0; o <= BC_OP_TRIM; o++) {
		r->ios[o] = f[2 + o];
		r->bytes[o] = f[5 + o];
	}
	r->ios[BC_OP_META] = f[17];
	r->errors = f[8];
	r->short_ios = f[9];
	r->lat_sum_ns = f[10];
	r->p50_ns = f[11];
	r->p90_ns = f[12];
	r->p99_ns = f[13];
	r->p999_ns = f[14];
	r->p9999_ns = f[15];
	r->max_ns = f[16];
}

/* ---- run.json's series from rows ---- */

/* the figures' rules of run.json (results.c): us, 3 decimals, null where not measured */
static double s_us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static cJSON *s_fig(double v, bool measured)
{
	return measured ? cJSON_CreateNumber(round(v * 1000.0) / 1000.0) : cJSON_CreateNull();
}

/*
 * columnar per-second series: one array per figure. A second without a
 * record is null throughout (nothing was measured, not zero I/Os); one
 * with records but no I/O has its counts and null latencies.
 */
cJSON *bc_secrow_series_json(const struct bc_secrow *rows, size_t stride, uint32_t seconds,
			     const uint32_t *rep)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *iops = cJSON_AddArrayToObject(o, "iops"), *mbps = cJSON_AddArrayToObject(o, "mbps");
	cJSON *rd = cJSON_AddArrayToObject(o, "read_iops");
	cJSON *mean = cJSON_AddArrayToObject(o, "lat_mean_us");
	cJSON *p50 = cJSON_AddArrayToObject(o, "lat_p50_us");
	cJSON *p90 = cJSON_AddArrayToObject(o, "lat_p90_us");
	cJSON *p99 = cJSON_AddArrayToObject(o, "lat_p99_us");
	cJSON *p999 = cJSON_AddArrayToObject(o, "lat_p99.9_us");
	cJSON *p9999 = cJSON_AddArrayToObject(o, "lat_p99.99_us");
	cJSON *mx = cJSON_AddArrayToObject(o, "lat_max_us");
	cJSON *er = cJSON_AddArrayToObject(o, "errors");
	cJSON *rp = rep ? cJSON_AddArrayToObject(o, "agents_reported") : NULL;
	cJSON *late = cJSON_AddArrayToObject(o, "late_records");
	uint32_t k;
	int op;

	for (k = 0; k < seconds; k++) {
		const struct bc_secrow *r = &rows[k * stride];
		uint64_t ios = 0, bytes = 0;
		bool ran = r->reports > 0, lat;

		for (op = 0; op < BC_OP_NR; op++) {
			ios += r->ios[op];
			bytes += r->bytes[op];
		}
		lat = ran && ios;
		cJSON_AddItemToArray(iops, ran ? bc_json_u64(ios) : cJSON_CreateNull());
		cJSON_AddItemToArray(mbps, s_fig((double)bytes / 1e6, ran));
		cJSON_AddItemToArray(rd,
				     ran ? bc_json_u64(r->ios[BC_OP_READ]) : cJSON_CreateNull());
		cJSON_AddItemToArray(mean, s_fig(ios ? s_us(r->lat_sum_ns) / (double)ios : 0, lat));
		cJSON_AddItemToArray(p50, s_fig(s_us(r->p50_ns), lat));
		cJSON_AddItemToArray(p90, s_fig(s_us(r->p90_ns), lat));
		cJSON_AddItemToArray(p99, s_fig(s_us(r->p99_ns), lat));
		cJSON_AddItemToArray(p999, s_fig(s_us(r->p999_ns), lat));
		cJSON_AddItemToArray(p9999, s_fig(s_us(r->p9999_ns), lat));
		cJSON_AddItemToArray(late, cJSON_CreateNumber(r->late));
		cJSON_AddItemToArray(mx, s_fig(s_us(r->max_ns), lat));
		cJSON_AddItemToArray(er, ran ? bc_json_u64(r->errors + r->short_ios)
					     : cJSON_CreateNull());
		if (rp)
			cJSON_AddItemToArray(rp, cJSON_CreateNumber(rep[k]));
	}
	return o;
}

/* ---- writer ---- */

struct s_wstep {
	uint32_t ord, seconds;
	uint64_t step_off, end_off;
	uint64_t *rows_off, *hist_off; /* [seconds] */
};

struct bc_secw {
	FILE *f;
	char path[BC_PATH_MAX];
	uint64_t off; /* bytes written so far */
	uint8_t *buf; /* the payload being built */
	size_t len, cap;
	struct s_wstep *steps;
	uint32_t nsteps, steps_cap;
	/* the HIST frame being built */
	uint32_t h_ord, h_k, h_count;
	size_t h_count_at;
	int err; /* the first write error, sticky */
};

static int s_need(struct bc_secw *w, size_t more)
{
	size_t cap = w->cap ? w->cap : 4096;
	uint8_t *b;

	if (w->len + more <= w->cap)
		return 0;
	while (cap < w->len + more)
		cap *= 2;
	b = realloc(w->buf, cap);
	if (!b)
		return -ENOMEM;
	w->buf = b;
	w->cap = cap;
	return 0;
}

static int s_vput(struct bc_secw *w, uint64_t v)
{
	if (s_need(w, 10))
		return -ENOMEM;
	w->len += bc_varint_put(w->buf + w->len, 10, v);
	return 0;
}

static int s_bput(struct bc_secw *w, const void *p, size_t n)
{
	if (s_need(w, n))
		return -ENOMEM;
	memcpy(w->buf + w->len, p, n);
	w->len += n;
	return 0;
}

static int s_sput(struct bc_secw *w, const char *s)
{
	size_t n = strlen(s);

	return s_vput(w, n) ? -ENOMEM : s_bput(w, s, n);
}

/* the payload in w->buf as one frame of type t; its offset in *at */
static int s_frame(struct bc_secw *w, int t, uint64_t *at)
{
	uint8_t h[S_FRAME];

	if (w->err)
		return w->err;
	h[0] = (uint8_t)t;
	s_put32(h + 1, (uint32_t)w->len);
	s_put32(h + 5, bc_secf_crc32(0, w->buf, w->len));
	errno = 0;
	if (fwrite(h, 1, S_FRAME, w->f) != S_FRAME || fwrite(w->buf, 1, w->len, w->f) != w->len) {
		w->err = errno ? -errno : -EIO; /* ENOSPC, EIO, EDQUOT ... as the kernel said */
		return w->err;
	}
	if (at)
		*at = w->off;
	w->off += S_FRAME + w->len;
	w->len = 0;
	return 0;
}

static struct s_wstep *s_wstep(struct bc_secw *w, uint32_t ord)
{
	uint32_t i;

	/* the step being written is the last one */
	for (i = w->nsteps; i-- > 0;)
		if (w->steps[i].ord == ord)
			return &w->steps[i];
	return NULL;
}

int bc_secw_open(struct bc_secw **out, const char *path, char *err, size_t errlen)
{
	struct bc_secw *w = calloc(1, sizeof(*w));
	uint8_t h[S_HDR] = S_MAGIC;
	int rc = 0;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->f = fopen(path, "w");
	if (!w->f) {
		rc = -errno;
		snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
		goto out;
	}
	/* a second of 16,000 volumes is ~600 KB: write it in few system calls */
	setvbuf(w->f, NULL, _IOFBF, 1 << 20);
	s_put32(h + 8, BC_SECF_VERSION);
	s_put32(h + 12, 0);
	errno = 0;
	if (fwrite(h, 1, S_HDR, w->f) != S_HDR) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-rc));
		goto out;
	}
	w->off = S_HDR;
	*out = w;
	w = NULL;
out:
	if (w) {
		if (w->f)
			fclose(w->f);
		free(w);
	}
	return rc;
}

int bc_secw_error(const struct bc_secw *w)
{
	return w ? w->err : 0;
}

const char *bc_secw_path(const struct bc_secw *w)
{
	return w ? w->path : "";
}

int bc_secw_flush(struct bc_secw *w)
{
	if (!w)
		return 0;
	errno = 0;
	if (!w->err && fflush(w->f))
		w->err = errno ? -errno : -EIO;
	return w->err;
}

int bc_secw_step(struct bc_secw *w, uint32_t ord, int profile_idx, const char *name,
		 const struct bc_agg *g)
{
	struct s_wstep *s;
	int lvl, i, rc = 0;

	if (w->nsteps == w->steps_cap) {
		uint32_t cap = w->steps_cap ? w->steps_cap * 2 : 16;
		struct s_wstep *n = realloc(w->steps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		w->steps = n;
		w->steps_cap = cap;
	}
	s = &w->steps[w->nsteps];
	memset(s, 0, sizeof(*s));
	s->ord = ord;
	s->seconds = g->seconds;
	s->rows_off = calloc(g->seconds + 1, sizeof(uint64_t));
	s->hist_off = calloc(g->seconds + 1, sizeof(uint64_t));
	if (!s->rows_off || !s->hist_off) {
		free(s->rows_off);
		free(s->hist_off);
		return -ENOMEM;
	}
	w->nsteps++;
	w->len = 0;
	rc |= s_vput(w, ord);
	rc |= s_vput(w, (uint64_t)profile_idx);
	rc |= s_vput(w, g->seconds);
	rc |= s_vput(w, g->ramp_s);
	rc |= s_sput(w, name);
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		rc |= s_vput(w, (uint64_t)g->nent[lvl]);
		for (i = 0; i < g->nent[lvl]; i++)
			rc |= s_sput(w, g->ent[lvl][i].name);
	}
	if (rc)
		return -ENOMEM;
	return s_frame(w, BC_SECF_STEP, &s->step_off);
}

int bc_secw_rows(struct bc_secw *w, uint32_t ord, const struct bc_agg *g, uint32_t k)
{
	struct s_wstep *s = s_wstep(w, ord);
	uint32_t n = 0, j = 0, base;
	uint64_t f[S_ROW_FIELDS];
	size_t tab;
	int lvl, i, b;

	if (!s || k >= s->seconds)
		return -EINVAL;
	for (lvl = 0; lvl < BC_LVL_NR; lvl++)
		n += (uint32_t)g->nent[lvl];
	w->len = 0;
	if (s_need(w, S_ROWS_FIX + 4 * ((size_t)n + 1)))
		return -ENOMEM;
	s_put32(w->buf, ord);
	s_put32(w->buf + 4, k);
	s_put32(w->buf + 8, n);
	tab = S_ROWS_FIX;
	base = S_ROWS_FIX + 4 * (n + 1);
	w->len = base;
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; i < g->nent[lvl]; i++, j++) {
			uint64_t mask = 0;

			s_put32(w->buf + tab + 4 * j, (uint32_t)(w->len - base));
			s_row_fields(bc_entity_row(&g->ent[lvl][i], k), f);
			for (b = 0; b < S_ROW_FIELDS; b++)
				mask |= (uint64_t)(f[b] != 0) << b;
			if (s_vput(w, mask))
				return -ENOMEM;
			for (b = 0; b < S_ROW_FIELDS; b++)
				if (f[b] && s_vput(w, f[b]))
					return -ENOMEM;
		}
	}
	s_put32(w->buf + tab + 4 * n, (uint32_t)(w->len - base));
	/* a second written again (late records after it closed) supersedes the first */
	return s_frame(w, BC_SECF_ROWS, &s->rows_off[k]);
}

int bc_secw_hist_begin(struct bc_secw *w, uint32_t ord, uint32_t k)
{
	w->len = 0;
	w->h_ord = ord;
	w->h_k = k;
	w->h_count = 0;
	if (s_vput(w, ord) || s_vput(w, k) || s_need(w, 4))
		return -ENOMEM;
	/* the number of entities, fixed width: known at the end */
	w->h_count_at = w->len;
	w->len += 4;
	return 0;
}

int bc_secw_hist_add(struct bc_secw *w, int lvl, int i, uint32_t lo, uint32_t n,
		     const uint64_t *const ops[BC_OP_NR])
{
	int o, rc = 0;
	uint32_t j;

	rc |= s_vput(w, (uint64_t)lvl);
	rc |= s_vput(w, (uint64_t)i);
	for (o = 0; o < BC_OP_NR; o++) {
		uint32_t nb = 0, prev = 0;

		for (j = 0; ops[o] && j < n; j++)
			nb += ops[o][j] != 0;
		rc |= s_vput(w, nb);
		/* bucket indexes as deltas: most are a few apart, one byte each */
		for (j = 0; ops[o] && j < n; j++) {
			if (!ops[o][j])
				continue;
			rc |= s_vput(w, lo + j - prev);
			rc |= s_vput(w, ops[o][j]);
			prev = lo + j;
		}
	}
	w->h_count++;
	return rc ? -ENOMEM : 0;
}

int bc_secw_hist_end(struct bc_secw *w)
{
	struct s_wstep *s = s_wstep(w, w->h_ord);

	if (!s || w->h_k >= s->seconds)
		return -EINVAL;
	s_put32(w->buf + w->h_count_at, w->h_count);
	return s_frame(w, BC_SECF_HIST, &s->hist_off[w->h_k]);
}

int bc_secw_end(struct bc_secw *w, uint32_t ord, uint32_t seconds)
{
	struct s_wstep *s = s_wstep(w, ord);

	if (!s)
		return -EINVAL;
	w->len = 0;
	if (s_vput(w, ord) || s_vput(w, seconds))
		return -ENOMEM;
	return s_frame(w, BC_SECF_END, &s->end_off);
}

int bc_secw_close(struct bc_secw *w)
{
	uint64_t at = 0;
	uint8_t t[S_TRAILER] = S_TMAGIC;
	uint32_t i, k;
	int rc = 0;

	if (!w)
		return 0;
	w->len = 0;
	rc |= s_vput(w, w->nsteps);
	for (i = 0; i < w->nsteps; i++) {
		const struct s_wstep *s = &w->steps[i];

		rc |= s_vput(w, s->ord);
		rc |= s_vput(w, s->step_off);
		rc |= s_vput(w, s->end_off);
		rc |= s_vput(w, s->seconds);
		for (k = 0; k < s->seconds; k++) {
			rc |= s_vput(w, s->rows_off[k]);
			rc |= s_vput(w, s->hist_off[k]);
		}
	}
	if (rc)
		rc = -ENOMEM;
	if (!rc)
		rc = s_frame(w, BC_SECF_INDEX, &at);
	if (!rc) {
		s_put32(t + 8, (uint32_t)at);
		s_put32(t + 12, (uint32_t)(at >> 32));
		errno = 0;
		if (fwrite(t, 1, S_TRAILER, w->f) != S_TRAILER)
			rc = errno ? -errno : -EIO;
	}
	if (w->err && (!rc || rc == -ENOMEM))
		rc = w->err; /* the first failure, not what it led to */
	errno = 0;
	if (fclose(w->f) && !rc)
		rc = errno ? -errno : -EIO;
	for (i = 0; i < w->nsteps; i++) {
		free(w->steps[i].rows_off);
		free(w->steps[i].hist_off);
	}
	free(w->steps);
	free(w->buf);
	free(w);
	return rc;
}

/* ---- reader ---- */

static int s_pread(const struct bc_secr *r, void *p, size_t n, uint64_t off)
{
	ssize_t got = pread(r->fd, p, n, (off_t)off);

	if (got < 0)
		return -errno;
	return (size_t)got == n ? 0 : -EBADMSG;
}

/*
 * The series of run.json and the reports read one entity at a time, every
 * second of it: a row of second k is two small reads (its offset in the
 * frame's table, then the row), each in a different frame than second
 * k-1's, and the next entity's are the bytes right after. Two preads a
 * row were 4.5 million syscalls and ~10 of the 15 s `bench-coord report`
 * took on a 100 x 16 x 10 x 300 s run. So a reader keeps, for each second
 * and each of the two parts of its rows frame, the last block it read
 * there (S_CBLK bytes from the wanted offset, never past the size seen at
 * open, which a writer only appends to): the next entities' rows come from
 * memory. 2 x S_CBLK per second of the longest step up to S_CSECS seconds,
 * allocated when used; a longer step's seconds share them (second k's
 * blocks are slot k mod S_CSECS), so a reader holds at most 32 MB whatever
 * the step's length. Past S_CSECS seconds, reading entity after entity
 * reads a block again for each entity it serves (a long step's minutes,
 * results/long/minutes.h): time, not memory.
 */
#define S_CBLK	(8u << 10)
#define S_CSECS 2048u

struct s_cblk {
	uint64_t off;
	uint32_t len; /* 0: empty */
	uint8_t *buf; /* S_CBLK bytes, allocated on first use */
};

struct bc_secr_cache {
	uint32_t n; /* slots: 2 per second of the longest step */
	struct s_cblk blk[];
};

static void s_cache_open(struct bc_secr *r)
{
	uint32_t i, max = 0;

	for (i = 0; i < r->nsteps; i++)
		if (r->steps[i] && r->steps[i]->seconds > max)
			max = r->steps[i]->seconds;
	if (max > S_CSECS)
		max = S_CSECS;
	/* none: plain preads (a reader without it is slower, not wrong) */
	r->cache = calloc(1, sizeof(*r->cache) + 2 * (size_t)max * sizeof(struct s_cblk));
	if (r->cache)
		r->cache->n = 2 * max;
}

static void s_cache_close(struct bc_secr *r)
{
	uint32_t i;

	for (i = 0; r->cache && i < r->cache->n; i++)
		free(r->cache->blk[i].buf);
	free(r->cache);
	r->cache = NULL;
}

/* n bytes at off through slot (second k's table: 2k, its rows: 2k + 1) */
static int s_cread(const struct bc_secr *r, uint32_t slot, void *p, size_t n, uint64_t off)
{
	struct s_cblk *b = r->cache && r->cache->n ? &r->cache->blk[slot % r->cache->n] : NULL;
	ssize_t got;

	if (!b || n > S_CBLK || off > r->size)
		return s_pread(r, p, n, off);
	if (!b->len || off < b->off || off + n > b->off + b->len) {
		if (!b->buf && !(b->buf = malloc(S_CBLK)))
			return s_pread(r, p, n, off);
		b->len = 0;
		got = pread(r->fd, b->buf, r->size - off < S_CBLK ? r->size - off : S_CBLK,
			    (off_t)off);
		if (got < 0)
			return -errno;
		if ((size_t)got < n)
			return -EBADMSG;
		b->off = off;
		b->len = (uint32_t)got;
	}
	memcpy(p, b->buf + (off - b->off), n);
	return 0;
}

/* frame at off: type and payload (malloc'd, caller frees) */
static int s_read_frame(const struct bc_secr *r, uint64_t off, int *type, uint8_t **p,
			uint32_t *len, bool check)
{
	uint8_t h[S_FRAME];
	int rc = s_pread(r, h, S_FRAME, off);

	*p = NULL;
	if (rc)
		return rc;
	*type = h[0];
	*len = s_get32(h + 1);
	if (*len > S_FRAME_MAX || off + S_FRAME + *len > r->size)
		return -EBADMSG;
	*p = malloc(*len ? *len : 1);
	if (!*p)
		return -ENOMEM;
	rc = s_pread(r, *p, *len, off + S_FRAME);
	if (!rc && check && bc_secf_crc32(0, *p, *len) != s_get32(h + 5))
		rc = -EBADMSG;
	if (rc) {
		free(*p);
		*p = NULL;
	}
	return rc;
}

static char *s_str(struct bc_varint_cur *c)
{
	uint64_t n = bc_varint_next(c);
	char *s;

	if (c->bad || n > c->n) {
		c->bad = true;
		return NULL;
	}
	s = malloc(n + 1);
	if (!s) {
		c->bad = true;
		return NULL;
	}
	memcpy(s, c->p, n);
	s[n] = 0;
	c->p += n;
	c->n -= n;
	return s;
}

static void s_step_free(struct bc_secr_step *s)
{
	int lvl, i;

	if (!s)
		return;
	for (lvl = 0; lvl < BC_LVL_NR; lvl++) {
		for (i = 0; s->names[lvl] && i < s->nent[lvl]; i++)
			free(s->names[lvl][i]);
		free(s->names[lvl]);
		free(s->sorted[lvl]);
	}
	free(s->rows_off);
	free(s->hist_off);
	free(s);
}

static int s_put_step(struct bc_secr *r, struct bc_secr_step *s)
{
	if (s->ord >= r->nsteps) {
		uint32_t n = s->ord + 1;
		struct bc_secr_step **a = realloc(r->steps, n * sizeof(*a));

		if (!a)
			return -ENOMEM;
		memset(a + r->nsteps, 0, (n - r->nsteps) * sizeof(*a));
		r->steps = a;
		r->nsteps = n;
	}
	s_step_free(r->steps[s->ord]);
	r->steps[s->ord] = s;
	return 0;
}

/* a STEP payload into a new step (its offset arrays sized, zeroed) */
static int s_parse_step(const uint8_t *p, uint32_t len, struct bc_secr_step **out)
{
	struct bc_varint_cur c = {p, len, false};
	struct bc_secr_step *s = calloc(1, sizeof(*s));
	char *name;
	int lvl, i;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->ord = (uint32_t)bc_varint_next(&c);
	s->profile_idx = (int)bc_varint_next(&c);
	s->seconds = (uint32_t)bc_varint_next(&c);
	s->ramp_s = (uint32_t)bc_varint_next(&c);
	name = s_str(&c);
	snprintf(s->name, sizeof(s->name), "%s", name ? name : "");
	free(name);
	for (lvl = 0; lvl < BC_LVL_NR && !c.bad; lvl++) {
		uint64_t n = bc_varint_next(&c);

		if (n > c.n) { /* every name takes at least a byte */
			c.bad = true;
			break;
		}
		s->nent[lvl] = (int)n;
		s->names[lvl] = calloc(n + 1, sizeof(char *));
		if (!s->names[lvl]) {
			c.bad = true;
			break;
		}
		for (i = 0; i < s->nent[lvl] && !c.bad; i++)
			s->names[lvl][i] = s_str(&c);
	}
	if (!c.bad && s->seconds < (1u << 26)) {
		s->rows_off = calloc(s->seconds + 1, sizeof(uint64_t));
		s->hist_off = calloc(s->seconds + 1, sizeof(uint64_t));
	}
	if (c.bad || !s->rows_off || !s->hist_off) {
		s_step_free(s);
		return -EBADMSG;
	}
	*out = s;
	return 0;
}

/* the second k of a ROWS / HIST payload, and its step */
static int s_frame_key(int type, const uint8_t *p, uint32_t len, uint32_t *ord, uint32_t *k)
{
	struct bc_varint_cur c = {p, len, false};

	if (type == BC_SECF_ROWS) {
		if (len < S_ROWS_FIX)
			return -EBADMSG;
		*ord = s_get32(p);
		*k = s_get32(p + 4);
		return 0;
	}
	*ord = (uint32_t)bc_varint_next(&c);
	*k = (uint32_t)bc_varint_next(&c);
	return c.bad ? -EBADMSG : 0;
}

/* no trailer: every frame from the header on; stops at the first one cut short */
static int s_scan(struct bc_secr *r, bool check)
{
	uint64_t off = S_HDR;

	while (off < r->size) {
		uint8_t *p;
		uint32_t len, ord, k;
		int type, rc = s_read_frame(r, off, &type, &p, &len, check);
		struct bc_secr_step *s;

		if (rc == -ENOMEM)
			return rc;
		if (rc) {
			r->truncated = true;
			break;
		}
		r->frames++;
		if (type == BC_SECF_STEP) {
			rc = s_parse_step(p, len, &s);
			if (!rc)
				rc = s_put_step(r, s);
		} else if (type == BC_SECF_ROWS || type == BC_SECF_HIST) {
			rc = s_frame_key(type, p, len, &ord, &k);
			s = !rc && ord < r->nsteps ? r->steps[ord] : NULL;
			if (s && k < s->seconds)
				(type == BC_SECF_ROWS ? s->rows_off : s->hist_off)[k] = off;
		} else if (type == BC_SECF_END) {
			struct bc_varint_cur c = {p, len, false};

			ord = (uint32_t)bc_varint_next(&c);
			k = (uint32_t)bc_varint_next(&c);
			if (!c.bad && ord < r->nsteps && r->steps[ord]) {
				r->steps[ord]->ended = true;
				if (k < r->steps[ord]->seconds)
					r->steps[ord]->seconds = k;
			}
		}
		free(p);
		if (rc == -ENOMEM)
			return rc;
		if (rc) {
			r->truncated = true;
			break;
		}
		off += S_FRAME + len;
	}
	r->valid_bytes = off;
	return 0;
}

/* an indexed file's frames up to its index at end, each CRC checked: truncated at a bad one */
static void s_check_frames(struct bc_secr *r, uint64_t end)
{
	uint64_t off = S_HDR;

	while (off < end) {
		uint8_t *p;
		uint32_t len;
		int type;

		if (s_read_frame(r, off, &type, &p, &len, true)) {
			r->truncated = true;
			r->valid_bytes = off;
			return;
		}
		free(p);
		r->frames++;
		off += S_FRAME + len;
	}
}

/* the index frame at off (trailer present) */
static int s_load_index(struct bc_secr *r, uint64_t off)
{
	uint8_t *p = NULL, *sp = NULL;
	uint32_t len, slen, i, k;
	int type, stype, rc = s_read_frame(r, off, &type, &p, &len, true);
	struct bc_varint_cur c;
	uint64_t n;

	if (rc)
		return rc;
	c = (struct bc_varint_cur){p, len, false};
	n = type == BC_SECF_INDEX ? bc_varint_next(&c) : 0;
	if (type != BC_SECF_INDEX)
		c.bad = true;
	for (i = 0; i < n && !c.bad && !rc; i++) {
		uint64_t step_off, end_off, secs;
		struct bc_secr_step *s;

		bc_varint_next(&c); /* the ordinal: the STEP frame has it too */
		step_off = bc_varint_next(&c);
		end_off = bc_varint_next(&c);
		secs = bc_varint_next(&c);
		if (c.bad)
			break;
		rc = s_read_frame(r, step_off, &stype, &sp, &slen, false);
		if (!rc && stype != BC_SECF_STEP)
			rc = -EBADMSG;
		if (!rc)
			rc = s_parse_step(sp, slen, &s);
		free(sp);
		sp = NULL;
		if (rc)
			break;
		if (secs != s->seconds) {
			s_step_free(s);
			rc = -EBADMSG;
			break;
		}
		for (k = 0; k < secs && !c.bad; k++) {
			s->rows_off[k] = bc_varint_next(&c);
			s->hist_off[k] = bc_varint_next(&c);
		}
		if (end_off) {
			uint8_t *ep;
			uint32_t elen;
			int et;

			rc = s_read_frame(r, end_off, &et, &ep, &elen, false);
			if (!rc) {
				struct bc_varint_cur e = {ep, elen, false};

				bc_varint_next(&e);
				k = (uint32_t)bc_varint_next(&e);
				s->ended = !e.bad && et == BC_SECF_END;
				if (s->ended && k < s->seconds)
					s->seconds = k;
				free(ep);
			}
		}
		if (!rc)
			rc = s_put_step(r, s);
		else
			s_step_free(s);
	}
	free(p);
	if (!rc && c.bad)
		rc = -EBADMSG;
	return rc;
}

int bc_secr_open(struct bc_secr *r, const char *path, bool check_crc, char *err, size_t errlen)
{
	uint8_t h[S_HDR], t[S_TRAILER];
	struct stat sb;
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
	if (s_pread(r, h, S_HDR, 0) || memcmp(h, S_MAGIC, 8)) {
		rc = -EBADMSG;
		snprintf(err, errlen, "'%s' is not a seconds file (no %s header)", path, S_MAGIC);
		goto out;
	}
	r->nops = s_get32(h + 8) == 1 ? BC_OP_META : BC_OP_NR;
	if (s_get32(h + 8) != BC_SECF_VERSION && s_get32(h + 8) != 1) {
		rc = -EPROTO;
		snprintf(err, errlen, "'%s': version %u, this bench-coord reads %u", path,
			 s_get32(h + 8), BC_SECF_VERSION);
		goto out;
	}
	if (r->size >= S_HDR + S_TRAILER && !s_pread(r, t, S_TRAILER, r->size - S_TRAILER) &&
	    !memcmp(t, S_TMAGIC, 8) && s_get64(t + 8) < r->size - S_TRAILER &&
	    !s_load_index(r, s_get64(t + 8))) {
		r->indexed = true;
		r->valid_bytes = r->size;
		/* every frame checked too when asked: the index alone proves only itself */
		if (check_crc)
			s_check_frames(r, s_get64(t + 8));
		goto out;
	}
	/* no (good) index: the frames themselves, as far as they go */
	while (r->nsteps)
		s_step_free(r->steps[--r->nsteps]);
	free(r->steps);
	r->steps = NULL;
	r->indexed = false;
	rc = s_scan(r, check_crc);
	if (rc)
		snprintf(err, errlen, "'%s': %s", path, strerror(-rc));
out:
	if (rc)
		bc_secr_close(r);
	else
		s_cache_open(r);
	return rc;
}

void bc_secr_close(struct bc_secr *r)
{
	uint32_t i;

	for (i = 0; i < r->nsteps; i++)
		s_step_free(r->steps[i]);
	free(r->steps);
	s_cache_close(r);
	if (r->fd >= 0)
		close(r->fd);
	r->steps = NULL;
	r->nsteps = 0;
	r->fd = -1;
}

const struct bc_secr_step *bc_secr_step(const struct bc_secr *r, uint32_t ord)
{
	return ord < r->nsteps ? r->steps[ord] : NULL;
}

static const char *const *s_sort_names;

static int s_name_cmp(const void *a, const void *b)
{
	return strcmp(s_sort_names[*(const int *)a], s_sort_names[*(const int *)b]);
}

int bc_secr_find(const struct bc_secr *r, uint32_t ord, int lvl, const char *name)
{
	struct bc_secr_step *s = ord < r->nsteps ? r->steps[ord] : NULL;
	int lo = 0, hi, i;

	if (!s || lvl < 0 || lvl >= BC_LVL_NR || !name)
		return -1;
	if (!s->sorted[lvl]) {
		/* built once per step and level: the reader is one thread's */
		s->sorted[lvl] = malloc(((size_t)s->nent[lvl] + 1) * sizeof(int));
		if (!s->sorted[lvl])
			return -1;
		for (i = 0; i < s->nent[lvl]; i++)
			s->sorted[lvl][i] = i;
		s_sort_names = (const char *const *)s->names[lvl];
		qsort(s->sorted[lvl], (size_t)s->nent[lvl], sizeof(int), s_name_cmp);
	}
	hi = s->nent[lvl];
	while (lo < hi) {
		int mid = (lo + hi) / 2, c = strcmp(s->names[lvl][s->sorted[lvl][mid]], name);

		if (!c)
			return s->sorted[lvl][mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int bc_secr_next(const struct bc_secr *r, uint32_t ord, int lvl, int from, const char *name)
{
	const struct bc_secr_step *s = bc_secr_step(r, ord);
	int i;

	if (!s || lvl < 0 || lvl >= BC_LVL_NR || !name)
		return -1;
	for (i = from < 0 ? 0 : from; i < s->nent[lvl]; i++)
		if (!strcmp(s->names[lvl][i], name))
			return i;
	return -1;
}

int bc_secr_row(const struct bc_secr *r, uint32_t ord, uint32_t k, int lvl, int i,
		struct bc_secrow *row)
{
	const struct bc_secr_step *s = bc_secr_step(r, ord);
	uint8_t tab[8], rec[S_ROW_MAX];
	uint64_t f[S_ROW_FIELDS] = {0}, mask, off, base;
	uint32_t j = 0, n = 0, a, b;
	struct bc_varint_cur c;
	int l, bit, rc;

	memset(row, 0, sizeof(*row));
	if (!s || lvl < 0 || lvl >= BC_LVL_NR || i < 0 || i >= s->nent[lvl])
		return -EINVAL;
	if (k >= s->seconds || !s->rows_off[k])
		return -ENOENT;
	for (l = 0; l < BC_LVL_NR; l++) {
		if (l < lvl)
			j += (uint32_t)s->nent[l];
		n += (uint32_t)s->nent[l];
	}
	j += (uint32_t)i;
	off = s->rows_off[k] + S_FRAME;
	base = off + S_ROWS_FIX + 4 * ((uint64_t)n + 1);
	rc = s_cread(r, 2 * k, tab, sizeof(tab), off + S_ROWS_FIX + 4 * (uint64_t)j);
	if (rc)
		return rc;
	a = s_get32(tab);
	b = s_get32(tab + 4);
	if (b < a || b - a > sizeof(rec))
		return -EBADMSG;
	rc = s_cread(r, 2 * k + 1, rec, b - a, base + a);
	if (rc)
		return rc;
	c = (struct bc_varint_cur){rec, b - a, false};
	mask = bc_varint_next(&c);
	for (bit = 0; bit < S_ROW_FIELDS; bit++)
		if (mask & (1ull << bit))
			f[bit] = bc_varint_next(&c);
	if (c.bad)
		return -EBADMSG;
	s_row_set(row, f);
	return 0;
}

int bc_secr_hist_all(const struct bc_secr *r, uint32_t ord, uint32_t k,
		     struct bc_hist *(*dst)(void *arg, int lvl, int i), void *arg)
{
	const struct bc_secr_step *s = bc_secr_step(r, ord);
	uint8_t *p;
	uint32_t len, cnt, e;
	struct bc_varint_cur c;
	int type, rc, o;

	if (!s || k >= s->seconds || !s->hist_off[k])
		return -ENOENT;
	rc = s_read_frame(r, s->hist_off[k], &type, &p, &len, false);
	if (rc)
		return rc;
	c = (struct bc_varint_cur){p, len, false};
	bc_varint_next(&c);
	bc_varint_next(&c);
	if (c.bad || c.n < 4) {
		free(p);
		return -EBADMSG;
	}
	cnt = s_get32(c.p);
	c.p += 4;
	c.n -= 4;
	/* one walk over the frame: every entity's buckets added where dst says */
	for (e = 0; e < cnt && !c.bad; e++) {
		int lvl = (int)bc_varint_next(&c), i = (int)bc_varint_next(&c);
		struct bc_hist *h = c.bad ? NULL : dst(arg, lvl, i);

		for (o = 0; o < r->nops && !c.bad; o++) {
			uint64_t nb = bc_varint_next(&c), b, at = 0;

			for (b = 0; b < nb && !c.bad; b++) {
				uint64_t d = bc_varint_next(&c), v = bc_varint_next(&c);

				at += d;
				if (at >= BC_HIST_BUCKETS) {
					c.bad = true;
					break;
				}
				if (h) {
					h[o].buckets[at] += v;
					h[o].count += v;
				}
			}
		}
	}
	free(p);
	return c.bad ? -EBADMSG : 0;
}

/* bc_secr_hist's one entity, found in the walk of bc_secr_hist_all */
struct s_one {
	int lvl, i;
	struct bc_hist *h;
	bool found;
};

static struct bc_hist *s_one_dst(void *arg, int lvl, int i)
{
	struct s_one *o = arg;

	if (lvl != o->lvl || i != o->i)
		return NULL;
	o->found = true;
	return o->h;
}

int bc_secr_hist(const struct bc_secr *r, uint32_t ord, uint32_t k, int lvl, int i,
		 struct bc_hist h[BC_OP_NR])
{
	struct s_one one = {lvl, i, h, false};
	int o, rc;

	for (o = 0; o < BC_OP_NR; o++)
		memset(&h[o], 0, sizeof(h[o]));
	rc = bc_secr_hist_all(r, ord, k, s_one_dst, &one);
	return rc ? rc : one.found ? 0 : -ENOENT;
}
