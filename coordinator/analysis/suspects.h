/*
 * analysis/suspects.h (analysis/suspects.c) - every suspect a ceiling can have,
 * judged at the point the verdict looks at
 */
#ifndef BC_ANALYSIS_SUSPECTS_H
#define BC_ANALYSIS_SUSPECTS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "analysis/point.h"

enum bc_sus_state { BC_SUS_NOT_MEASURED = 0, BC_SUS_EXCLUDED, BC_SUS_IMPLICATED };
extern const char *const bc_sus_state_names[]; /* "not measured", "excluded", "implicated" */

/* in the order the verdict names them when several are implicated: nodes before clients */
enum bc_sus_id {
	BC_SUS_NODE_NIC = 0,
	BC_SUS_NET_PATH,
	BC_SUS_NODE_CPU,
	BC_SUS_SOFTIRQ,
	BC_SUS_CORE_GROUP,
	BC_SUS_DISK,
	BC_SUS_JOURNAL,
	BC_SUS_CACHE,
	BC_SUS_CLIENT_NIC,
	BC_SUS_CLIENT_CPU,
	BC_SUS_LOAD,
	BC_SUS_NUMA,
	BC_SUS_VERSION,
	BC_SUS_NR
};

/*
 * One suspect: its state, the hosts it is about (every host with the same
 * finding, never one of them picked), the figures that decided it, and
 * for an implicated one the phrase the verdict says. score is the
 * deciding figure over its limit, capped at 1 (0..1 for every kind of
 * figure, load per core included): an implicated row scores 1.
 */
struct bc_suspect {
	enum bc_sus_state state;
	double score;
	char hosts[200];
	int nhosts;
	char figures[400];
	char finding[400];
	const char *cls;      /* the verdict class when it leads: "NIC-bound", ... */
	const char *resource; /* "NIC tx", "core group", ... for the bottleneck line */
	double u, threshold;  /* the leading host's figure and its limit */
};

struct bc_suspects {
	int at; /* the point judged */
	struct bc_suspect row[BC_SUS_NR];
	int nimplicated;     /* of the rows but BC_SUS_LOAD */
	int lead;	     /* the first implicated row in enum order, -1 none */
	char cluster[240];   /* "all 3 nodes flat at 9.20 GB/s each", "" when nodes differ */
	double per_node_bps; /* the flat nodes' mean goodput, NaN */
	int nflat;	     /* how many nodes that is */
};
extern const char *const bc_sus_names[BC_SUS_NR]; /* "node NIC", "network path", ... */

/*
 * Judge every suspect at point at of pts[0..n) (the knee, or the last
 * point), with the sweep for what must rise with the load. plateau: the
 * series showed the queueing signature (more load, flat throughput).
 */
void bc_ana_suspects(const struct bc_ana_point *pts, int n, int at, bool plateau,
		     struct bc_suspects *out);

/* the "suspects" array of the analysis object (reports/README.md) */
cJSON *bc_ana_suspects_json(const struct bc_suspects *s);

#endif
