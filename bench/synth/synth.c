/*
 * synth/synth.c - synthetic STATS payloads for the benchmarks (bench/synth/synth.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synth.h"
#include "wire/varint.h"

#define S_BS 4096

static uint64_t s_rng = 0x9e3779b97f4a7c15ull;

uint64_t bc_synth_rand(void)
{
	/* xorshift64*: deterministic synthetic data, no libc state */
	s_rng ^= s_rng >> 12;
	s_rng ^= s_rng << 25;
	s_rng ^= s_rng >> 27;
	return s_rng * 0x2545f4914f6cdd1dull;
}

static double s_unif(void)
{
	return ((double)(bc_synth_rand() >> 11) + 0.5) / 9007199254740992.0;
}

static double s_gauss(void)
{
	return sqrt(-2.0 * log(s_unif())) * cos(2 * M_PI * s_unif());
}

/* n samples: lognormal around median_ns (sigma), 0.2% slow tail at 20-100x */
static void s_fill(struct bc_opstat *s, uint64_t n, double median_ns, double sigma)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		double v = median_ns * exp(sigma * s_gauss());

		if (s_unif() < 0.002)
			v *= 20 + 80 * s_unif();
		bc_opstat_complete(s, 1, 0, (uint64_t)v < 1000 ? 1000 : (uint64_t)v);
		s->bytes += S_BS; /* bc_opstat_complete counted len 0 */
	}
}

int bc_synth_payload(struct bc_synth_payload *p, uint64_t iops, double sigma)
{
	return bc_synth_payload_opts(p, iops, sigma, 0);
}

int bc_synth_payload_opts(struct bc_synth_payload *p, uint64_t iops, double sigma, unsigned opts)
{
	struct bc_volstat *v = calloc(1, sizeof(*v));
	struct bc_stats_hdr h = {.nvol = 1};
	uint8_t *buf = NULL;
	size_t len = 0;
	int o, rc;
	unsigned b;

	memset(p, 0, sizeof(*p));
	if (!v)
		return -ENOMEM;
	bc_volstat_reset(v);
	/*
	 * 70/30 read/write, +-10% per second, reads slower than (cached) writes;
	 * at 2,000 IOPS the mean latency makes Little's law hold for iodepth 1
	 * (swarm.sh's profile), so the coordinator's checks pass
	 */
	s_fill(&v->op[BC_OP_READ], (uint64_t)((double)iops * 0.7 * (0.9 + 0.2 * s_unif())),
	       450e3 + 100e3 * s_unif(), sigma * (1 + 0.6 * s_unif()));
	s_fill(&v->op[BC_OP_WRITE], (uint64_t)((double)iops * 0.3 * (0.9 + 0.2 * s_unif())),
	       250e3 + 100e3 * s_unif(), sigma * (0.8 + 0.5 * s_unif()));
	rc = bc_stats_encode_opts(&h, v, opts, &buf, &len);
	if (rc)
		goto out;
	/* version, step 0, second 0, flags 0, nvol 1, volume 0: one byte each */
	p->len = len - 6;
	p->buf = malloc(p->len);
	if (!p->buf) {
		rc = -ENOMEM;
		goto out;
	}
	memcpy(p->buf, buf + 6, p->len);
	for (o = 0; o < BC_OP_NR; o++) {
		p->ios[o] = v->op[o].ios;
		p->bytes[o] = v->op[o].bytes;
		p->errors[o] = v->op[o].errors;
		p->short_ios[o] = v->op[o].short_ios;
		for (b = 0; b < BC_HIST_BUCKETS && v->op[o].hist.count; b++)
			p->pairs += v->op[o].hist.buckets[b] != 0;
	}
out:
	free(buf);
	free(v);
	return rc;
}

void bc_synth_payload_free(struct bc_synth_payload *p)
{
	free(p->buf);
	p->buf = NULL;
}

size_t bc_synth_record(uint8_t *body, size_t cap, uint32_t step, uint32_t k, int agent, int m,
		       const struct bc_synth_payload *pool, int npool,
		       const struct bc_synth_payload **picked)
{
	size_t off = 0;
	int v;

	body[off++] = BC_STATS_VERSION;
	off += bc_varint_put(body + off, cap - off, step);
	off += bc_varint_put(body + off, cap - off, k);
	off += bc_varint_put(body + off, cap - off, 0);
	off += bc_varint_put(body + off, cap - off, (uint64_t)m);
	for (v = 0; v < m; v++) {
		/* a different distribution per volume and second, reproducibly */
		uint64_t hsh =
		    ((uint64_t)agent * 1000003u + (uint64_t)v * 7919u + k) * 0x9e3779b97f4a7c15ull;
		const struct bc_synth_payload *p = &pool[(hsh >> 40) % (uint64_t)npool];

		off += bc_varint_put(body + off, cap - off, (uint64_t)v);
		memcpy(body + off, p->buf, p->len);
		off += p->len;
		if (picked)
			picked[v] = p;
	}
	return off;
}
