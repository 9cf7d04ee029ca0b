/*
 * wire/stats.c - counter merge and the STATS binary body (see wire/stats.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire/stats.h"
#include "wire/varint.h"

const char *const bc_op_names[BC_OP_NR] = {"read", "write", "trim", "meta"};

void bc_opstat_reset(struct bc_opstat *s)
{
	/* the histogram dominates the size: only clear it when it was used */
	if (s->hist.count)
		bc_hist_reset(&s->hist);
	bc_opstat_reset_counters(s);
}

void bc_opcnt_reset(struct bc_opcnt *s)
{
	s->ios = s->bytes = s->errors = s->short_ios = s->lat_sum_ns = s->lat_max_ns = 0;
	s->lat_min_ns = UINT64_MAX;
	s->first_errno = 0;
}

void bc_volcnt_reset(struct bc_volcnt *v)
{
	int i;

	for (i = 0; i < BC_OP_NR; i++)
		bc_opcnt_reset(&v->op[i]);
	v->verify_errors = 0;
}

void bc_opstat_reset_counters(struct bc_opstat *s)
{
	bc_opcnt_reset(&s->cnt);
}

void bc_volstat_reset(struct bc_volstat *v)
{
	int i;

	for (i = 0; i < BC_OP_NR; i++)
		bc_opstat_reset(&v->op[i]);
	v->verify_errors = 0;
}

void bc_opstat_merge_counters(struct bc_opstat *dst, const struct bc_opstat *src)
{
	bc_opcnt_merge(&dst->cnt, &src->cnt);
}

void bc_opstat_hist_span(const struct bc_opstat *s, unsigned *lo, unsigned *hi)
{
	*lo = 1;
	*hi = 0;
	if (!s->hist.count)
		return;
	if (s->lat_min_ns > s->lat_max_ns) { /* no counters for it: every bucket */
		*lo = 0;
		*hi = BC_HIST_BUCKETS - 1;
		return;
	}
	*lo = bc_hist_index(s->lat_min_ns);
	*hi = bc_hist_index(s->lat_max_ns);
	if (*hi >= BC_HIST_BUCKETS)
		*hi = BC_HIST_BUCKETS - 1;
	if (*lo > *hi)
		*lo = *hi;
}

void bc_opstat_merge(struct bc_opstat *dst, const struct bc_opstat *src)
{
	bc_opstat_merge_counters(dst, src);
	bc_hist_merge(&dst->hist, &src->hist);
}

void bc_volstat_merge(struct bc_volstat *dst, const struct bc_volstat *src)
{
	int i;

	for (i = 0; i < BC_OP_NR; i++)
		bc_opstat_merge(&dst->op[i], &src->op[i]);
	dst->verify_errors += src->verify_errors;
}

static bool s_op_used(const struct bc_opstat *s)
{
	return s->ios || s->errors || s->short_ios;
}

struct s_wbuf {
	uint8_t *p;
	size_t len, cap;
	int err;
};

static void s_put(struct s_wbuf *w, uint64_t v)
{
	size_t n;

	if (w->err)
		return;
	n = bc_varint_put(w->p + w->len, w->cap - w->len, v);
	if (!n)
		w->err = -ENOSPC;
	w->len += n;
}

const double bc_stats_pcts[BC_STATS_PCT_NR] = {50, 90, 99, 99.9, 99.99};

bool bc_volstat_pct_buckets(const struct bc_volstat *v, uint16_t out[BC_STATS_PCT_NR])
{
	const uint64_t *bk[BC_OP_NR];
	uint64_t count = 0, seen = 0, rank;
	unsigned lo = BC_HIST_BUCKETS, hi = 0, olo, ohi, b, top = 0;
	int o, n = 0, p = 0;

	for (o = 0; o < BC_OP_NR; o++) {
		if (!v->op[o].hist.count)
			continue;
		bc_opstat_hist_span(&v->op[o], &olo, &ohi);
		lo = olo < lo ? olo : lo;
		hi = ohi > hi ? ohi : hi;
		count += v->op[o].hist.count;
		bk[n++] = v->op[o].hist.buckets;
	}
	if (!count)
		return false;
	rank = bc_hist_rank(bc_stats_pcts[0], count);
	for (b = lo; b <= hi && p < BC_STATS_PCT_NR; b++) {
		uint64_t here = 0;

		for (o = 0; o < n; o++)
			here += bk[o][b];
		if (!here)
			continue;
		top = b;
		seen += here;
		for (; p < BC_STATS_PCT_NR && seen >= rank; p++) {
			out[p] = (uint16_t)b;
			if (p + 1 < BC_STATS_PCT_NR)
				rank = bc_hist_rank(bc_stats_pcts[p + 1], count);
		}
	}
	/* counts past what the buckets hold (never, from bc_hist_add): the top one, as agg.c */
	for (; p < BC_STATS_PCT_NR; p++)
		out[p] = (uint16_t)top;
	return true;
}

int bc_stats_encode(const struct bc_stats_hdr *hdr, const struct bc_volstat *vols, uint8_t **out,
		    size_t *out_len)
{
	return bc_stats_encode_opts(hdr, vols, 0, out, out_len);
}

int bc_stats_encode_opts(const struct bc_stats_hdr *hdr, const struct bc_volstat *vols,
			 unsigned opts, uint8_t **out, size_t *out_len)
{
	struct s_wbuf w = {0};
	uint32_t v;
	int o;
	long n;

	/* worst case is bounded: fixed fields plus a full histogram per op */
	w.cap = 64 + (size_t)hdr->nvol * BC_OP_NR * (8 * 10 + BC_HIST_WIRE_MAX);
	w.p = malloc(w.cap);
	if (!w.p)
		return -ENOMEM;
	w.p[w.len++] = BC_STATS_VERSION;
	s_put(&w, hdr->step);
	s_put(&w, hdr->second);
	s_put(&w, hdr->flags);
	s_put(&w, hdr->nvol);
	for (v = 0; v < hdr->nvol && !w.err; v++) {
		uint16_t pct[BC_STATS_PCT_NR];
		unsigned mask = 0, p;

		for (o = 0; o < BC_OP_NR; o++)
			if (s_op_used(&vols[v].op[o]))
				mask |= 1u << o;
		if (vols[v].verify_errors)
			mask |= BC_STATS_M_VERIFY;
		if (!(opts & BC_STATS_ENC_NO_PCT) && bc_volstat_pct_buckets(&vols[v], pct))
			mask |= BC_STATS_M_PCT;
		s_put(&w, v);
		s_put(&w, mask);
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *s = &vols[v].op[o];
			int64_t e = s->first_errno;

			if (!(mask & (1u << o)))
				continue;
			s_put(&w, s->ios);
			s_put(&w, s->bytes);
			s_put(&w, s->errors);
			s_put(&w, s->short_ios);
			s_put(&w, s->lat_sum_ns);
			s_put(&w, s->ios ? s->lat_min_ns : 0);
			s_put(&w, s->lat_max_ns);
			/* zigzag; shifting the unsigned value: << of a negative int64 is UB */
			s_put(&w, ((uint64_t)e << 1) ^ (uint64_t)(e >> 63));
			if (w.err)
				break;
			n = bc_hist_encode(&s->hist, w.p + w.len, w.cap - w.len);
			if (n < 0) {
				w.err = (int)n;
				break;
			}
			w.len += (size_t)n;
		}
		if (mask & BC_STATS_M_VERIFY)
			s_put(&w, vols[v].verify_errors);
		for (p = 0; p < BC_STATS_PCT_NR && (mask & BC_STATS_M_PCT); p++)
			s_put(&w, p ? (uint64_t)(pct[p] - pct[p - 1]) : pct[0]);
	}
	if (w.err) {
		free(w.p);
		return w.err;
	}
	*out = w.p;
	*out_len = w.len;
	return 0;
}

struct s_rbuf {
	const uint8_t *p;
	size_t len, off;
	int err;
};

static uint64_t s_get(struct s_rbuf *r)
{
	uint64_t v = 0;
	size_t n;

	if (r->err)
		return 0;
	n = bc_varint_get(r->p + r->off, r->len - r->off, &v);
	if (!n)
		r->err = -EBADMSG;
	r->off += n;
	return v;
}

int bc_stats_decode(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr,
		    struct bc_volstat *vols, uint32_t nvol_cap)
{
	return bc_stats_decode_touch(buf, len, hdr, vols, NULL, nvol_cap);
}

/* the header into *hdr; r->off is left after it (r->err set when it is cut short) */
static int s_get_hdr(struct s_rbuf *r, struct bc_stats_hdr *hdr, uint64_t *nvol)
{
	if (r->len < 1)
		return -EBADMSG;
	if (r->p[0] != BC_STATS_VERSION)
		return -EPROTO;
	r->off = 1;
	hdr->step = (uint32_t)s_get(r);
	hdr->second = (uint32_t)s_get(r);
	hdr->flags = (uint32_t)s_get(r);
	*nvol = s_get(r);
	hdr->nvol = (uint32_t)*nvol;
	return r->err;
}

int bc_stats_decode_hdr(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr)
{
	struct s_rbuf r = {.p = buf, .len = len};
	uint64_t nvol;

	return s_get_hdr(&r, hdr, &nvol);
}

/* bc_stats_decode_touch (touch may be NULL), or with lists bc_stats_decode_list */
static int s_decode(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr,
		    struct bc_volstat *vols, struct bc_stats_touch *touch,
		    struct bc_stats_list *lists, uint32_t nvol_cap)
{
	struct s_rbuf r = {.p = buf, .len = len};
	uint64_t nvol, i;
	int o, rc;

	rc = s_get_hdr(&r, hdr, &nvol);
	if (rc)
		return rc;
	for (i = 0; i < nvol && !r.err; i++) {
		uint64_t vi = s_get(&r), mask = s_get(&r);

		if (r.err)
			break;
		if (vi >= nvol_cap)
			return -ERANGE;
		if ((mask & ~(uint64_t)(BC_STATS_M_VERIFY | BC_STATS_M_PCT)) >> BC_OP_NR)
			return -EBADMSG;
		if (lists) {
			if (lists[vi].seen)
				return 1; /* the volume came twice */
			lists[vi].seen = true;
		}
		for (o = 0; o < BC_OP_NR && !r.err; o++) {
			struct bc_opstat *d = &vols[vi].op[o];
			uint64_t ios, min, max, ze;
			int32_t e;
			long n;

			if (!(mask & (1u << o)))
				continue;
			ios = s_get(&r);
			d->ios += ios;
			d->bytes += s_get(&r);
			d->errors += s_get(&r);
			d->short_ios += s_get(&r);
			d->lat_sum_ns += s_get(&r);
			min = s_get(&r);
			max = s_get(&r);
			ze = s_get(&r);
			if (r.err)
				break;
			if (ios && min < d->lat_min_ns)
				d->lat_min_ns = min;
			if (max > d->lat_max_ns)
				d->lat_max_ns = max;
			e = (int32_t)((int64_t)(ze >> 1) ^ -(int64_t)(ze & 1));
			if (!d->first_errno)
				d->first_errno = e;
			if (lists) {
				struct bc_stats_list *l = &lists[vi];

				n = bc_hist_decode_list(r.p + r.off, r.len - r.off, l->idx[o],
							l->cnt[o], &l->n[o], &d->hist.count);
				if (n < 0)
					return (int)n;
				r.off += (size_t)n;
				continue;
			}
			/* one decode into an empty list appends ascending indexes */
			if (touch && touch[vi].n[o])
				touch[vi].unsorted |= 1u << o;
			n = bc_hist_decode_add_idx(&d->hist, r.p + r.off, r.len - r.off,
						   touch ? touch[vi].idx[o] : NULL,
						   touch ? &touch[vi].n[o] : NULL);
			if (n < 0)
				return (int)n;
			r.off += (size_t)n;
		}
		if (mask & BC_STATS_M_VERIFY)
			vols[vi].verify_errors += s_get(&r);
		if (mask & BC_STATS_M_PCT) {
			uint16_t pct[BC_STATS_PCT_NR];
			uint64_t at = 0;
			int p;

			for (p = 0; p < BC_STATS_PCT_NR; p++) {
				uint64_t d = s_get(&r);

				if (d >= BC_HIST_BUCKETS || at + d >= BC_HIST_BUCKETS)
					return -EBADMSG;
				at += d;
				pct[p] = (uint16_t)at;
			}
			if (lists && !r.err) {
				memcpy(lists[vi].pct, pct, sizeof(pct));
				lists[vi].has_pct = true;
			}
		}
	}
	if (r.err)
		return r.err;
	return r.off == len ? 0 : -EBADMSG;
}

int bc_stats_decode_touch(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr,
			  struct bc_volstat *vols, struct bc_stats_touch *touch, uint32_t nvol_cap)
{
	return s_decode(buf, len, hdr, vols, touch, NULL, nvol_cap);
}

int bc_stats_decode_list(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr,
			 struct bc_volstat *vols, struct bc_stats_list *lists, uint32_t nvol_cap)
{
	return s_decode(buf, len, hdr, vols, NULL, lists, nvol_cap);
}
