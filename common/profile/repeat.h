/*
 * profile/repeat.h - "repeat": steps expanded into repetitions
 * "<name>#1".."<name>#N" (profile/repeat.c), and the rule that reads a
 * repetition's name back.
 */
#ifndef BC_PROFILE_REPEAT_H
#define BC_PROFILE_REPEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profile/spec.h"
#include "profile/value/check.h"

/* profile side: "repeat" (top level, steps) expanded into p->steps, last */
int bc_profile_expand_repeats(struct bc_check *c, const cJSON *root, struct bc_profile *p);

/*
 * A repetition's step name ("seq#2", "seq#2@iodepth=4"): true, its step's
 * name without "#<rep>" in base ("seq", "seq@iodepth=4") and rep; false for
 * any other name. base and rep may be NULL.
 */
bool bc_step_repeat_of(const char *name, char *base, size_t len, uint32_t *rep);

#endif
