/*
 * rundir.c - the run directory reports/<UTC timestamp>-<profile>/ and its
 * append-only events.jsonl. Every record is written and flushed as it
 * arrives, so whatever happens later the measurements are on disk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bc_clock.h"
#include "bc_coord.h"

int bc_rundir_create(struct bc_rundir *r, const char *parent, const char *name, char *err,
		     size_t errlen)
{
	char stamp[32], ev[BC_PATH_MAX + 16];
	time_t now = time(NULL);
	struct tm tm;
	int n, i;

	memset(r, 0, sizeof(*r));
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (mkdir(parent, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create '%s': %s", parent, strerror(errno));
		return -errno;
	}
	/* two runs in the same second get -2, -3 ... rather than sharing a directory */
	for (i = 1; i < 100; i++) {
		if (i == 1)
			n = snprintf(r->path, sizeof(r->path), "%s/%s-%s", parent, stamp, name);
		else
			n = snprintf(r->path, sizeof(r->path), "%s/%s-%s-%d", parent, stamp, name,
				     i);
		if (n < 0 || (size_t)n >= sizeof(r->path))
			return -ENAMETOOLONG;
		if (!mkdir(r->path, 0755))
			break;
		if (errno != EEXIST) {
			snprintf(err, errlen, "cannot create '%s': %s", r->path, strerror(errno));
			return -errno;
		}
	}
	snprintf(ev, sizeof(ev), "%s/events.jsonl", r->path);
	r->events = fopen(ev, "a");
	if (!r->events) {
		snprintf(err, errlen, "cannot create '%s': %s", ev, strerror(errno));
		return -errno;
	}
	return 0;
}

void bc_rundir_event(struct bc_rundir *r, const char *event, cJSON *body)
{
	cJSON *o = body ? body : cJSON_CreateObject();
	char *text;

	if (!r->events || !o) {
		cJSON_Delete(o);
		return;
	}
	/* "event" and "time_ns" go first so the log reads well with grep/jq */
	cJSON_AddItemToObject(o, "event", cJSON_CreateString(event));
	cJSON_AddItemToObject(o, "time_ns", cJSON_CreateNumber((double)bc_real_ns()));
	text = cJSON_PrintUnformatted(o);
	if (text) {
		fputs(text, r->events);
		fputc('\n', r->events);
		fflush(r->events);
	}
	cJSON_free(text);
	cJSON_Delete(o);
}

int bc_rundir_write_json(struct bc_rundir *r, const char *file, const cJSON *j)
{
	char path[BC_PATH_MAX + 64], tmp[BC_PATH_MAX + 80];
	char *text = cJSON_Print(j);
	FILE *f = NULL;
	int rc = 0;

	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", r->path, file);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* write then rename: a reader never sees half a file */
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0) {
		rc = -errno;
		goto out;
	}
	if (fclose(f)) {
		f = NULL;
		rc = -errno;
		goto out;
	}
	f = NULL;
	if (rename(tmp, path))
		rc = -errno;
out:
	if (f)
		fclose(f);
	cJSON_free(text);
	return rc;
}

void bc_rundir_close(struct bc_rundir *r)
{
	if (r->events)
		fclose(r->events);
	r->events = NULL;
}
