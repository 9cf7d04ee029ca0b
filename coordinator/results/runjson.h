/*
 * results/runjson.h - run.json written in one streaming pass (runjson.c)
 */
#ifndef BC_RESULTS_RUNJSON_H
#define BC_RESULTS_RUNJSON_H

#include <cjson/cJSON.h>

/*
 * runjson.c: write run (the run.json tree) to dir/run.json, each step's
 * volumes without a "series" given theirs from the seconds file secf
 * (NULL: dir/seconds.bin); write then rename. 0 or -errno.
 */
int bc_runjson_write(const char *dir, const cJSON *run, const char *secf);

#endif
