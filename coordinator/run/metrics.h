/*
 * run/metrics.h - --metrics-listen: the live aggregates for Prometheus
 * (metrics.c)
 */
#ifndef BC_RUN_METRICS_H
#define BC_RUN_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct bc_metrics;
struct bc_step_result;

/* listen on addr ("127.0.0.1:9470"); NULL with a message in err */
struct bc_metrics *bc_metrics_start(const char *addr, const char *profile, char *err,
				    size_t errlen);
/* publish second k of res (just closed); m may be NULL */
void bc_metrics_update(struct bc_metrics *m, const struct bc_step_result *res, uint32_t k);
void bc_metrics_stop(struct bc_metrics **m);

#endif
