/*
 * report/report.h - the report driver (report.c): every file a person or a tool
 * reads after a run (summary.md, report.html, timeseries.csv, fio.json,
 * charts/) written from the run directory, at the end of `bench-coord run`
 * and by `bench-coord report DIR`. The writers (report/writers.h) never see
 * live structures, so a report rebuilt later is the report written then.
 */
#ifndef BC_REPORT_REPORT_H
#define BC_REPORT_REPORT_H

#include <cjson/cJSON.h>

#include "report/parts/rundata.h"

/*
 * bc_rundata_load, and profile.expect evaluated (r->expect). Returns 0, or -errno with a one-line
 * message in err.
 */
int bc_report_load(struct bc_report *r, const char *dir, char *err, size_t errlen);
void bc_report_free(struct bc_report *r);

/*
 * Write summary.md, report.html, timeseries.csv and fio.json into dir from
 * its run.json, profile.json and events.jsonl. Each file is written to a
 * temporary name and renamed, so readers never see half a report. Errors are
 * logged (naming the file); returns 0 or the first -errno.
 */
int bc_report_write_all(const char *dir);
/*
 * The same from run, the tree just written to dir/run.json, instead of
 * parsing that file again (at 16,000 volumes a second copy of a tree of
 * gigabytes, and seconds of parsing). run is only read.
 */
int bc_report_write_all_run(const char *dir, cJSON *run);
/* bc_report_write_all with vdbench's interval table in summary.md whatever the run's format */
int bc_report_write_all_vdbench(const char *dir);

#endif
