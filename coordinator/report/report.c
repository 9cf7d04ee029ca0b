/*
 * report/report.c - the report driver: load a run directory (report/parts/rundata.h),
 * evaluate the acceptance criteria, and have each writer produce its file
 * atomically (a temporary name, then rename).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/expect.h"
#include "report/parts/sweep.h"
#include "report/draw/chart.h"
#include "report/draw/story.h"
#include "report/report.h"
#include "report/writers.h"
#include "results/files/outfail.h"
#include "util/log.h"
#include "util/rjson.h"

/* bc_rundata_load, and what only the driver adds: the criteria */
static int s_load(struct bc_report *r, const char *dir, cJSON *run, char *err, size_t errlen)
{
	int rc = bc_rundata_load(r, dir, run, err, errlen);

	if (rc)
		return rc;
	r->expect = bc_report_expect_eval(r->profile, r->run);
	/* report.html and charts/ both draw the heatmaps: read once */
	if (!r->expect || bc_rundata_heat(r)) {
		snprintf(err, errlen, "out of memory");
		bc_report_free(r);
		return -ENOMEM;
	}
	return 0;
}

int bc_report_load(struct bc_report *r, const char *dir, char *err, size_t errlen)
{
	return s_load(r, dir, NULL, err, errlen);
}

void bc_report_free(struct bc_report *r)
{
	cJSON_Delete(r->expect);
	r->expect = NULL;
	bc_rundata_free(r);
}

/* one writer into dir/name through a temporary file and rename */
static int s_write(const struct bc_report *r, const char *name,
		   int (*writer)(const struct bc_report *, FILE *))
{
	char path[BC_PATH_MAX + 64], tmp[BC_PATH_MAX + 80];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", r->dir, name);
	errno = 0;
	f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		goto fail;
	}
	rc = writer(r, f);
	/* a failed write's own errno (ENOSPC, EDQUOT ...), not a generic EIO */
	if ((!rc || rc == -EIO) && (fflush(f) || ferror(f)))
		rc = errno ? -errno : -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (!rc)
		return 0;
	unlink(tmp);
fail:
	bc_outfail_note(path, rc);
	return rc;
}

static int s_write_all(const char *dir, cJSON *run, bool vdbench);

/* each sweep's charts into charts/ (bc_chart_files made the folder) */
static int s_story_files(const struct bc_report *r)
{
	struct bc_sweep *sw = NULL;
	int n = bc_sweeps_make(r, &sw), k, rc, first = 0;

	for (k = 0; k < n; k++) {
		rc = bc_story_files(r->dir, &sw[k], k);
		first = first ? first : rc;
	}
	free(sw);
	return first;
}

int bc_report_write_all(const char *dir)
{
	return s_write_all(dir, NULL, false);
}

int bc_report_write_all_vdbench(const char *dir)
{
	return s_write_all(dir, NULL, true);
}

int bc_report_write_all_run(const char *dir, cJSON *run)
{
	return s_write_all(dir, run, false);
}

static int s_write_all(const char *dir, cJSON *run, bool vdbench)
{
	static const struct {
		const char *name;
		int (*fn)(const struct bc_report *, FILE *);
	} outs[] = {
	    {"summary.md", bc_report_md},
	    {"report.html", bc_report_html},
	    {"volumes.html", bc_report_volumes_html},
	    {"volumes.csv", bc_report_volumes_csv},
	    {"timeseries.csv", bc_report_csv},
	    {"fio.json", bc_report_fio},
	};
	struct bc_report r;
	char err[BC_PATH_MAX + 128];
	size_t i;
	int rc, first = 0;

	rc = s_load(&r, dir, run, err, sizeof(err));
	if (rc) {
		bc_error("%s", err);
		return rc;
	}
	r.vdbench = r.vdbench || vdbench;
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		rc = s_write(&r, outs[i].name, outs[i].fn);
		if (rc && !first)
			first = rc;
	}
	rc = bc_report_fio_points(&r);
	if (rc && !first)
		first = rc;
	rc = bc_chart_files(&r);
	if (rc && !first)
		first = rc;
	rc = s_story_files(&r);
	if (rc && !first)
		first = rc;
	bc_report_free(&r);
	return first;
}
