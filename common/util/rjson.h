/*
 * util/rjson.h (util/rjson.c) - run.json and its kind read: a file parsed with
 * exact integers, and lookups along a key path that tolerate a partial tree
 */
#ifndef BC_UTIL_RJSON_H
#define BC_UTIL_RJSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * JSON lookups along a NULL-terminated key path; missing keys give NULL /
 * 0 / the fallback, never a crash, since run.json may be partial.
 */
const cJSON *bc_rj_(const cJSON *o, ...);
double bc_rj_num_(const cJSON *o, ...);
const char *bc_rj_str_(const char *fallback, const cJSON *o, ...);
#define bc_rj(o, ...)	      bc_rj_(o, __VA_ARGS__, (const char *)NULL)
#define bc_rj_num(o, ...)     bc_rj_num_(o, __VA_ARGS__, (const char *)NULL)
#define bc_rj_str(fb, o, ...) bc_rj_str_(fb, o, __VA_ARGS__, (const char *)NULL)

/* DIR/NAME parsed (exact 64-bit integers); NULL with a message in err. Caller owns it. */
cJSON *bc_rj_read_file(const char *dir, const char *name, char *err, size_t errlen);

#endif
