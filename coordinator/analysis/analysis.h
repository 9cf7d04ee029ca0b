/*
 * analysis/analysis.h - where the ceiling is and why: pure functions over the
 * numbers of a sweep (or of one step), no I/O. The procedure: a
 * Little's-law check per point (X (R + Z) / N near 1), a class
 * per point (scaling / diminishing / plateau / retrograde), the knee (first
 * plateau, the 95% rule and Kneedle on log2 N), a USL fit, USE attribution
 * at the knee per storage node and per client host in the order NIC -> CPU
 * -> hottest core -> softirq -> reactors -> disk/GC, byte reconciliation
 * between client goodput and node traffic, node balance, and one verdict
 * with its evidence. USE is Brendan Gregg's method (utilization,
 * saturation, errors per resource: brendangregg.com/usemethod.html); the
 * thresholds below say where each one comes from.
 *
 * Units: bytes/s, seconds, fractions (0..1) in; JSON out uses GB/s
 * (1e9 bytes), ms and percent, like the rest of run.json.
 */
#ifndef BC_ANALYSIS_ANALYSIS_H
#define BC_ANALYSIS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "analysis/fit.h"
#include "analysis/point.h"
#include "analysis/suspects.h"

/* what USE found on one host */
struct bc_use_finding {
	bool saturated;
	const char *cls;      /* "nic", "cpu", "core", "softirq", "reactor", "disk", "gc", or the
				 highest resource when nothing is saturated */
	const char *resource; /* "NIC tx", "CPU", "core 12", ... human words */
	double u, threshold;  /* the figure and the limit it is judged by */
	char detail[200];
};

/*
 * The USE checks on h in the order of the file comment (NIC, CPU, hottest
 * core, softirq, reactors, disk/GC); prev is the same
 * host at the point before (for "rising" drops and await), may be NULL.
 * Returns f->saturated.
 */
bool bc_ana_use_host(const struct bc_use *h, const struct bc_use *prev, struct bc_use_finding *f);

/*
 * The whole analysis of pts[0..n) (n >= 1, ordered by increasing load) as
 * the steps[].analysis object (reports/README.md, "Analysis"). With
 * node_load, "nodes" holds each storage node's own series, class and knee:
 * a node whose volumes are all paced at their limit is "paced", and when
 * only some volumes are paced the verdict names those nodes and judges the
 * rest of the load apart. Caller owns it.
 */
cJSON *bc_ana_json(const struct bc_ana_point *pts, int n, const char *param);

#endif
