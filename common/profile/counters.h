/*
 * profile/counters.h - the profile parser's check of a node's counter
 * keys, "prometheus" and "series" (profile/counters.c).
 */
#ifndef BC_PROFILE_COUNTERS_H
#define BC_PROFILE_COUNTERS_H

#include <cjson/cJSON.h>

#include "profile/value/check.h"

/* a node's counter keys: prometheus, series (metrics is checked before) */
int bc_check_node_counters(struct bc_check *c, const cJSON *item, const char *base);

#endif
