/*
 * bc_profile_expect.h - the profile parser's side of "expect"
 * (bc_profile_expect.c): the criteria read into the profile and written
 * back; the criteria and their metrics are bc_expect.h.
 */
#ifndef BC_PROFILE_EXPECT_H
#define BC_PROFILE_EXPECT_H

#include <cjson/cJSON.h>

#include "bc_check.h"
#include "bc_expect.h"
#include "bc_profile_spec.h"

/* root.expect into p->expects (after steps, agents, nodes) */
int bc_profile_parse_expect(struct bc_check *c, const cJSON *root, struct bc_profile *p);

/* p->expects as the profile's "expect" array; caller owns it, NULL without memory */
cJSON *bc_profile_expect_json(const struct bc_profile *p);

#endif
