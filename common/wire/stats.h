/*
 * wire/stats.h - per-second I/O counters per (volume, op) and their compact
 * binary wire form (the STATS body).
 *
 * One struct bc_opstat is written by exactly one job thread; the agent's
 * control thread merges the job threads' sealed seconds, the coordinator
 * merges agents. Merging is addition (and min/max), so any aggregation level
 * (volume, agent, node, total; one second or a window) is exact.
 */
#ifndef BC_WIRE_STATS_H
#define BC_WIRE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "wire/hist.h"

/*
 * The op classes a volume's statistics keep apart. BC_OP_META is a file
 * set's metadata operations (create, delete, getattr, ...: profile
 * "meta"): counted and timed as one class with its own histogram, no
 * bytes; the kinds are counted apart at STEP_DONE (engine/meta.h).
 */
enum bc_op { BC_OP_READ = 0, BC_OP_WRITE, BC_OP_TRIM, BC_OP_META, BC_OP_NR };

extern const char *const bc_op_names[BC_OP_NR];

/* an op's counters; struct bc_opstat starts with the same, as its cnt */
#define BC_OPCNT_FIELDS                                                                            \
	uint64_t ios;	     /* completed successfully (full length) */                            \
	uint64_t bytes;	     /* bytes of successful completions */                                 \
	uint64_t errors;     /* completions with res < 0 */                                        \
	uint64_t short_ios;  /* completions with 0 <= res < requested length */                    \
	uint64_t lat_sum_ns; /* sum of submit->complete latency of successful ios */               \
	uint64_t lat_min_ns; /* UINT64_MAX when no ios */                                          \
	uint64_t lat_max_ns;                                                                       \
	int32_t first_errno; /* first error seen this second (0 if none), e.g. -EIO */

struct bc_opcnt {
	BC_OPCNT_FIELDS
};

struct bc_opstat {
	union {
		struct {
			BC_OPCNT_FIELDS
		};
		struct bc_opcnt cnt; /* the counters as one struct */
	};
	struct bc_hist hist; /* latency of successful ios, ns */
};

struct bc_volstat {
	struct bc_opstat op[BC_OP_NR];
	/*
	 * 4 KiB blocks whose verify header or checksum did not match (each
	 * such read also counts as a read error with -EBADMSG); agent/engine/verify.c
	 */
	uint64_t verify_errors;
};

/*
 * A volume's counters without histograms: 264 bytes where a bc_volstat
 * takes 238 KB (the coordinator's "every interval" sums, agg/types.h).
 */
struct bc_volcnt {
	struct bc_opcnt op[BC_OP_NR];
	uint64_t verify_errors;
};

void bc_opcnt_reset(struct bc_opcnt *c);
void bc_volcnt_reset(struct bc_volcnt *v);
/*
 * the one rule for counters: sums, min and max, the first errno kept
 * (inline: the coordinator merges ~24 of them per volume-second)
 */
static inline void bc_opcnt_merge(struct bc_opcnt *dst, const struct bc_opcnt *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	dst->short_ios += src->short_ios;
	dst->lat_sum_ns += src->lat_sum_ns;
	if (src->lat_min_ns < dst->lat_min_ns)
		dst->lat_min_ns = src->lat_min_ns;
	if (src->lat_max_ns > dst->lat_max_ns)
		dst->lat_max_ns = src->lat_max_ns;
	if (!dst->first_errno)
		dst->first_errno = src->first_errno;
}
void bc_opstat_reset(struct bc_opstat *s);
void bc_volstat_reset(struct bc_volstat *v);
/* the counters without the histogram: what bc_opstat_reset leaves when hist is unused */
void bc_opstat_reset_counters(struct bc_opstat *s);
void bc_opstat_merge(struct bc_opstat *dst, const struct bc_opstat *src);
/*
 * The buckets [*lo, *hi] that can hold s's histogram, from its exact
 * minimum and maximum latency (*lo > *hi: empty). A scan of a dense
 * histogram's 7,424 buckets reads 15 pages, most never written: on the
 * kernels here each read fault takes a page, 2.8 GB over 16,000 volumes'
 * windows; the span stays within the written ones.
 */
void bc_opstat_hist_span(const struct bc_opstat *s, unsigned *lo, unsigned *hi);
/* bc_opstat_merge without the histogram (callers that add sparse buckets themselves) */
void bc_opstat_merge_counters(struct bc_opstat *dst, const struct bc_opstat *src);
void bc_volstat_merge(struct bc_volstat *dst, const struct bc_volstat *src);

/* record one completion; called on the completion path */
static inline void bc_opstat_complete(struct bc_opstat *s, int64_t res, uint32_t len,
				      uint64_t lat_ns)
{
	if (res < 0) {
		s->errors++;
		if (!s->first_errno)
			s->first_errno = (int32_t)res;
		return;
	}
	if ((uint64_t)res < len) {
		s->short_ios++;
		return;
	}
	s->ios++;
	s->bytes += len;
	s->lat_sum_ns += lat_ns;
	if (lat_ns < s->lat_min_ns)
		s->lat_min_ns = lat_ns;
	if (lat_ns > s->lat_max_ns)
		s->lat_max_ns = lat_ns;
	bc_hist_add(&s->hist, lat_ns);
}

/* the percentiles of a second's row at the coordinator, every op's samples together */
#define BC_STATS_PCT_NR 5
extern const double bc_stats_pcts[BC_STATS_PCT_NR];

/*
 * The buckets that hold v's bc_stats_pcts, its ops' histograms summed
 * (bc_hist_rank of their counts), ascending; false when v has no samples.
 * An agent sends them with each volume's second (BC_STATS_M_PCT): finding
 * them is a walk over the volume's dense buckets there, where the
 * coordinator, which gets the buckets as lists, paid a fifth of its
 * aggregation CPU for them at 16,000 volumes (docs/scaling.md).
 */
bool bc_volstat_pct_buckets(const struct bc_volstat *v, uint16_t out[BC_STATS_PCT_NR]);

/*
 * STATS body, all integers varint unless noted:
 *   u8 body version (BC_STATS_VERSION), step, second (interval index k;
 *   BC_STATS_DRAIN for completions after the last interval), flags,
 *   nvol, then per volume: volume index, op mask (bit per op with data,
 *   plus BC_STATS_M_VERIFY), per op in the mask: ios bytes errors short
 *   lat_sum lat_min lat_max zigzag(first_errno), histogram (bc_hist_encode);
 *   then, when the mask has BC_STATS_M_VERIFY, verify_errors. The bit is
 *   only set when there are verify errors. Then, when the mask has
 *   BC_STATS_M_PCT (set by bc_stats_encode for a volume with samples; a
 *   body from before protocol 2 has none), the buckets of the
 *   BC_STATS_PCT_NR percentiles (bc_volstat_pct_buckets): the first, then
 *   each one's distance from the one before.
 */
#define BC_STATS_M_VERIFY 0x80u
#define BC_STATS_M_PCT	  0x40u
#define BC_STATS_VERSION  1
#define BC_STATS_DRAIN	  0xffffffffu
#define BC_STATS_F_LATE	  0x1u /* some job had not sealed this second in time */

struct bc_stats_hdr {
	uint32_t step;
	uint32_t second;
	uint32_t flags;
	uint32_t nvol;
};

/*
 * Encode vols[0..nvol) (indexes are the agent's volume order) into a buffer
 * the function allocates; caller frees *out. Returns 0 or -errno.
 */
int bc_stats_encode(const struct bc_stats_hdr *hdr, const struct bc_volstat *vols, uint8_t **out,
		    size_t *out_len);

/* bc_stats_encode without the percentile buckets: a body as an agent before protocol 2 sent */
#define BC_STATS_ENC_NO_PCT 0x1u
int bc_stats_encode_opts(const struct bc_stats_hdr *hdr, const struct bc_volstat *vols,
			 unsigned opts, uint8_t **out, size_t *out_len);

/*
 * Decode: fills *hdr and ADDS volume i's counters into vols[i] for i < nvol_cap.
 * Returns 0, or -EBADMSG (malformed; names nothing, the caller knows who sent it),
 * -EPROTO (other body version) or -ERANGE (volume index >= nvol_cap).
 */
int bc_stats_decode(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr,
		    struct bc_volstat *vols, uint32_t nvol_cap);

/*
 * The header alone (a consumer that routes a body before decoding it): 0,
 * -EBADMSG or -EPROTO as bc_stats_decode.
 */
int bc_stats_decode_hdr(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr);

/*
 * The histogram buckets a decode made non-empty, per volume and op (see
 * bc_hist_decode_add_idx): the coordinator adds and clears only those.
 */
struct bc_stats_touch {
	uint32_t n[BC_OP_NR];
	/*
	 * bit o: idx[o] may not be ascending (the list had entries when a
	 * decode began: the volume came twice, or the caller did not clear
	 * it); a decode sets bits, only the owner clears them
	 */
	uint32_t unsorted;
	uint16_t idx[BC_OP_NR][BC_HIST_BUCKETS];
};

/* bc_stats_decode that also appends to touch[i] (i < nvol_cap); touch may be NULL */
int bc_stats_decode_touch(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr,
			  struct bc_volstat *vols, struct bc_stats_touch *touch, uint32_t nvol_cap);

/*
 * A volume's histograms as lists (bc_hist_decode_list): op o's non-empty
 * buckets idx[o][0..n[o]), ascending, with cnt[o][j] samples each.
 */
struct bc_stats_list {
	uint32_t n[BC_OP_NR];
	bool seen;    /* the volume was in the body */
	bool has_pct; /* pct: the body's BC_STATS_M_PCT buckets for it */
	uint16_t pct[BC_STATS_PCT_NR];
	uint16_t idx[BC_OP_NR][BC_HIST_BUCKETS];
	uint64_t cnt[BC_OP_NR][BC_HIST_BUCKETS];
};

/*
 * bc_stats_decode with the histograms listed in lists[i] instead of added
 * into vols[i] (whose buckets stay as they were; hist.count gets the
 * samples). Every lists[i] must come empty (n, seen and has_pct zero).
 * Returns what bc_stats_decode does, or 1 when a volume came twice in the
 * body (its lists would not be ascending, its percentiles not its
 * second's): nothing is complete then, decode it with
 * bc_stats_decode_touch instead.
 */
int bc_stats_decode_list(const uint8_t *buf, size_t len, struct bc_stats_hdr *hdr,
			 struct bc_volstat *vols, struct bc_stats_list *lists, uint32_t nvol_cap);

#endif
