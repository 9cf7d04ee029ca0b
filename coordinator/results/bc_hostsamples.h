/*
 * bc_hostsamples.h - agents' host samples by second (hostsamples.c)
 */
#ifndef BC_HOSTSAMPLES_H
#define BC_HOSTSAMPLES_H

#include <stdint.h>

#include <cjson/cJSON.h>

/*
 * hostsamples.c: one agent's host samples (res->hosts[agent]) indexed by
 * second, [seconds], NULL where none came; NULL when out of memory; free() it
 */
const cJSON **bc_host_by_second(const cJSON *samples, uint32_t seconds);

#endif
