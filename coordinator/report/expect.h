/*
 * report/expect.h (report/expect.c) - the acceptance criteria evaluated
 */
#ifndef BC_REPORT_EXPECT_H
#define BC_REPORT_EXPECT_H

#include <cjson/cJSON.h>

/* every criterion of profile.expect evaluated on run.json */
cJSON *bc_report_expect_eval(const cJSON *profile, const cJSON *run);

#endif
