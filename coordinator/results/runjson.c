/*
 * results/runjson.c - run.json written from the run's tree plus seconds.bin. The
 * tree holds each step's figures, but not its volumes', agents' and nodes'
 * per-second series (at 16,000 volumes they are most of the JSON, ~1 KB of
 * cJSON nodes per volume-second; 1,000 agents x 600 s is 7.8 million
 * nodes): those are read back from seconds.bin one entity at a time while
 * the file is written, so the text is never whole in memory either. What
 * comes out parses to what one tree with every series would print
 * (bc_secrow_series_json makes both), except that a level summarised by
 * results/fullsize.h (above 256 volumes, 64 client hosts), and a volume level
 * of more volume-points than its budget, has no "series" in run.json:
 * seconds.bin keeps them, and the reports read them there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/secfile.h"
#include "results/fullsize.h"
#include "results/long/minutes.h"
#include "results/files/outfail.h"
#include "results/runjson.h"
#include "util/json.h"
#include "util/log.h"

static int s_put_json(FILE *f, const cJSON *j, bool formatted)
{
	char *t = bc_json_print(j, formatted);
	int rc = t && fputs(t, f) >= 0 ? 0 : -EIO;

	cJSON_free(t);
	return rc;
}

/* a key as a JSON string (escaped by cJSON) followed by ": " */
static int s_put_key(FILE *f, const char *key)
{
	cJSON *k = cJSON_CreateString(key ? key : "");
	int rc = k ? s_put_json(f, k, false) : -ENOMEM;

	cJSON_Delete(k);
	return rc || fputs(": ", f) < 0 ? -EIO : 0;
}

/* entity e of level lvl of step ord without its series: e plus the series from the file */
static int s_put_entity(FILE *f, const cJSON *e, const struct bc_secr *sr, uint32_t ord, int lvl,
			uint32_t seconds, struct bc_secrow *rows, int *at, bool *missing,
			const struct bc_minute *mins)
{
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"));
	/* volume names repeat: the next one in profile order (bc_secr_next) */
	int i = sr ? bc_secr_next(sr, ord, lvl, *at, name) : -1, rc;
	char *t = bc_json_print(e, false);
	size_t n = t ? strlen(t) : 0;
	cJSON *ser;
	uint32_t k;

	if (!t)
		return -ENOMEM;
	if (i >= 0)
		*at = i + 1;
	if (i < 0 || n < 2 || t[n - 1] != '}') {
		*missing = true;
		rc = fputs(t, f) < 0 ? -EIO : 0;
		cJSON_free(t);
		return rc;
	}
	/* a long step: the entity's minutes (results/long/minutes.h), its seconds stay in the file
	 */
	if (bc_long_step(seconds)) {
		ser = mins ? bc_minutes_level_json(mins, i, seconds)
			   : bc_minutes_entity_json(sr, ord, lvl, i, seconds, NULL);
		t[n - 1] = 0;
		rc = fputs(t, f) < 0 || fputs(n > 2 ? ",\"minutes\":" : "\"minutes\":", f) < 0
			 ? -EIO
			 : 0;
		goto put;
	}
	for (k = 0; k < seconds; k++) {
		rc = bc_secr_row(sr, ord, k, lvl, i, &rows[k]);
		/* a second never written had no record: a zero row, like one in memory */
		if (rc && rc != -ENOENT) {
			cJSON_free(t);
			return rc;
		}
	}
	ser = bc_secrow_series_json(rows, 1, seconds, NULL);
	t[n - 1] = 0;
	rc = fputs(t, f) < 0 || fputs(n > 2 ? ",\"series\":" : "\"series\":", f) < 0 ? -EIO : 0;
put:
	if (!rc)
		rc = ser ? s_put_json(f, ser, false) : -ENOMEM;
	if (!rc && fputc('}', f) < 0)
		rc = -EIO;
	cJSON_Delete(ser);
	cJSON_free(t);
	return rc;
}

static int s_put_step(FILE *f, const cJSON *st, const struct bc_secr *sr, bool *missing)
{
	const cJSON *ordj = cJSON_GetObjectItemCaseSensitive(st, "seconds_bin_step"), *it, *e;
	double secs = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "seconds"));
	uint32_t ord = cJSON_IsNumber(ordj) ? (uint32_t)ordj->valuedouble : 0;
	uint32_t seconds = secs > 0 ? (uint32_t)secs : 0;
	struct bc_secrow *rows = NULL;
	struct bc_minute *mins = NULL;
	int rc = 0, at = 0, lvl, nmins = 0;
	bool whole;

	if (!cJSON_IsNumber(ordj))
		return s_put_json(f, st, false);
	/* a long step's entities are read per minute: no row per second held */
	rows = calloc(bc_long_step(seconds) ? 1 : seconds + 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	if (fputc('{', f) < 0)
		rc = -EIO;
	cJSON_ArrayForEach(it, st)
	{
		if (rc)
			break;
		if (it != st->child && fputc(',', f) < 0)
			rc = -EIO;
		if (!rc)
			rc = s_put_key(f, it->string);
		if (rc)
			break;
		lvl = !strcmp(it->string, "volumes")  ? BC_LVL_VOLUME
		      : !strcmp(it->string, "agents") ? BC_LVL_AGENT
		      : !strcmp(it->string, "nodes")  ? BC_LVL_NODE
						      : -1;
		if (lvl < 0 || !cJSON_IsArray(it)) {
			rc = s_put_json(f, it, false);
			continue;
		}
		if (fputs("[\n", f) < 0)
			rc = -EIO;
		at = 0;
		/* listed whole, and small enough to be listed in run.json (results/fullsize.h) */
		whole = bc_full_listed(lvl, cJSON_GetArraySize(it)) &&
			bc_series_in_runjson(lvl, cJSON_GetArraySize(it), seconds);
		/* a long step's listed level: every entity's minutes in one pass */
		free(mins);
		mins = NULL;
		if (whole && sr && bc_long_step(seconds))
			mins = bc_minutes_level(sr, ord, lvl, seconds, &nmins);
		cJSON_ArrayForEach(e, it)
		{
			if (rc)
				break;
			if (e != it->child && fputs(",\n", f) < 0)
				rc = -EIO;
			/* a summarised level's series, and a large volume level's,
			 * stay in seconds.bin alone (results/fullsize.h) */
			if (!rc && (cJSON_HasObjectItem(e, "series") ||
				    cJSON_HasObjectItem(e, "minutes") || !whole))
				rc = s_put_json(f, e, false);
			else if (!rc)
				rc = s_put_entity(f, e, sr, ord, lvl, seconds, rows, &at, missing,
						  mins);
		}
		if (!rc && fputc(']', f) < 0)
			rc = -EIO;
	}
	if (!rc && fputc('}', f) < 0)
		rc = -EIO;
	free(mins);
	free(rows);
	return rc;
}

int bc_runjson_write(const char *dir, const cJSON *run, const char *secf)
{
	char path[BC_PATH_MAX + 64], tmp[BC_PATH_MAX + 80], sp[BC_PATH_MAX + 64];
	char err[BC_PATH_MAX + 128];
	struct bc_secr sr = {.fd = -1};
	bool have = false, missing = false;
	const cJSON *it, *st;
	FILE *f = NULL;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!secf) {
		snprintf(sp, sizeof(sp), "%s/%s", dir, BC_SECF_NAME);
		secf = sp;
	}
	cJSON_ArrayForEach(st, cJSON_GetObjectItemCaseSensitive(run, "steps")) have |=
	    cJSON_HasObjectItem(st, "seconds_bin_step");
	if (have && bc_secr_open(&sr, secf, false, err, sizeof(err))) {
		bc_warn("run.json: the volumes' per-second series are left out: %s", err);
		have = false;
	}
	errno = 0;
	f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		goto out;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	if (fputs("{\n", f) < 0)
		rc = -EIO;
	cJSON_ArrayForEach(it, run)
	{
		if (rc)
			break;
		if (fputs(it == run->child ? "\t" : ",\n\t", f) < 0 || s_put_key(f, it->string)) {
			rc = -EIO;
			break;
		}
		if (strcmp(it->string, "steps") || !cJSON_IsArray(it)) {
			rc = s_put_json(f, it, true);
			continue;
		}
		/* a step per line pair: diff and grep still find their way */
		if (fputs("[\n", f) < 0)
			rc = -EIO;
		cJSON_ArrayForEach(st, it)
		{
			if (rc)
				break;
			if (st != it->child && fputs(",\n", f) < 0)
				rc = -EIO;
			if (!rc)
				rc = s_put_step(f, st, have ? &sr : NULL, &missing);
		}
		if (!rc && fputs("\n]", f) < 0)
			rc = -EIO;
	}
	if (!rc && (fputs("\n}\n", f) < 0 || fflush(f)))
		rc = -EIO;
	/* a failed write's own errno (ENOSPC, EDQUOT ...), not a generic EIO */
	if (rc == -EIO && errno)
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	f = NULL;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (!rc && missing && have)
		bc_warn("%s: some entities have no per-second series: %s lacks their steps", path,
			secf);
out:
	if (f)
		fclose(f);
	if (rc) {
		unlink(tmp); /* no half file left behind */
		bc_outfail_note(path, rc);
	}
	if (have)
		bc_secr_close(&sr);
	return rc;
}
