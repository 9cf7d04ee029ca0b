/*
 * engine/rate.c - setting up a (job, volume) rate limiter (see engine/rate.h; the
 * per-I/O operations are inline there).
 */
#include <math.h>

#include "engine/rate.h"

#define S_NS_PER_S 1e9

double bc_rate_gap(double u)
{
	return -log1p(-u);
}

void bc_rate_init(struct bc_rate *r, uint64_t iops, uint64_t bytes_per_s, unsigned njobs,
		  uint64_t origin_ns)
{
	double jobs = njobs ? (double)njobs : 1;

	/* each job gets rate / njobs: its cost per unit is njobs times the volume's */
	*r = (struct bc_rate){
	    .iops_cost_ns = iops ? jobs * S_NS_PER_S / (double)iops : 0,
	    .byte_cost_ns = bytes_per_s ? jobs * S_NS_PER_S / (double)bytes_per_s : 0,
	};
	bc_rate_start(r, origin_ns);
}

void bc_rate_start(struct bc_rate *r, uint64_t origin_ns)
{
	r->origin_ns = origin_ns;
	/* "empty": the first I/O conforms at the origin, the next one a cost later */
	r->tat_iops = r->tat_bw = BC_RATE_TAU_NS;
}
