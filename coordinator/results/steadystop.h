/*
 * results/steadystop.h (steadystop.c) - when a step is in steady state, as
 * fio's steadystate judges it: the one rule (bc_steady_judge), the step's window
 * of per-second values that feeds it, and the "stop_steady" object of
 * run.json. The coordinator judges each second as it closes
 * (run/stepexec.c) and logs the outcome as an event that a rebuild
 * (run/rebuild.c) takes as it is.
 */
#ifndef BC_RESULTS_STEADYSTOP_H
#define BC_RESULTS_STEADYSTOP_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/workload/workload.h"

/* one window judged */
struct bc_steady_eval {
	double mean;	/* of the window's values */
	double max_dev; /* the largest distance of a value from the mean */
	double slope;	/* least squares, per second */
	/* what the limit is compared with: max_dev or |slope|, or either in % of mean */
	double value;
	bool steady;
};

/*
 * The rule: y[0..n-1], the window's per-second values in order, is steady
 * when, for a deviation criterion, every value is within the limit of their
 * mean, and for a slope criterion, the least-squares slope's size is within
 * it; a percent limit is a percent of the mean. The window's figures are
 * figures/steady.h's (bc_steady_check). A window of fewer than 3 values or
 * whose mean is 0 (no I/O) is never steady. Fills out; returns out->steady.
 */
bool bc_steady_judge(const struct bc_steady_spec *ss, const double *y, uint32_t n,
		     struct bc_steady_eval *out);

/* a step's steady-state tracking: live, its window; live and rebuilt, the outcome */
struct bc_steady_track {
	double *ring;	  /* [window]: the latest values, oldest at head once full */
	uint32_t n, head; /* values in the ring; the next slot */
	uint32_t judged;  /* windows judged */
	bool reached;
	bool done;		    /* the outcome is settled (reached, or the step ended) */
	uint32_t at_second;	    /* reached: the second that closed the steady window */
	uint32_t end_s;		    /* reached: the step's seconds (it ends there) */
	struct bc_steady_eval last; /* the last window judged (the steady one when reached) */
};

/*
 * Second k's value of the step's total (IOPS or bytes of every op) into the
 * window, once it is past ramp_s + the criterion's ramp; judges the window once it
 * is full. True when this second reached steady state (t->reached is set).
 * -ENOMEM as false with nothing judged: the window could not be made.
 */
bool bc_steady_second(struct bc_steady_track *t, const struct bc_workload *wl, uint32_t ramp_s,
		      uint32_t k, uint64_t ios, uint64_t bytes);

/* the event's body (for a rebuild) and its reading back */
cJSON *bc_steady_event(const struct bc_steady_track *t, int step);
void bc_steady_from_event(struct bc_steady_track *t, const cJSON *ev);

/* run.json's "stop_steady" of a step with wl's criterion that ran seconds */
cJSON *bc_steady_json(const struct bc_steady_track *t, const struct bc_workload *wl,
		      uint32_t seconds);

void bc_steady_free(struct bc_steady_track *t);

#endif
