/*
 * run/preflight.h - every volume checked before a run (preflight.c)
 */
#ifndef BC_RUN_PREFLIGHT_H
#define BC_RUN_PREFLIGHT_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct bc_fleet;

/*
 * Every volume of every agent through its PREPARE checks
 * (CHECK), nothing opened for writing. checks[i] (f->n of them, caller
 * frees) gets agent i's volumes in its order: {path, ok, resolved,
 * message, steps[]}; *refused counts the refused ones. 0 when every agent
 * answered (refusals included), else -errno with the message in err.
 */
int bc_preflight(struct bc_fleet *f, cJSON **checks, int *refused, char *err, size_t errlen);

#endif
