/*
 * fiojob.c - fio job files to bench-coord profiles (see bc_fiojob.h).
 *
 * fio runs the jobs of a group (jobs between stonewalls) concurrently, each
 * on its own files; a bench-coord step runs one workload on every volume of
 * the profile. So each group becomes one step per distinct workload in it,
 * each filename one volume, and whatever does not fit - an option we have
 * no equivalent for, a group whose jobs differ, a step fio ran on fewer
 * files - becomes a note rather than a silent change in what is measured.
 * Option semantics follow the fio 3.33 HOWTO.
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bc_fiojob.h"
#include "bc_profile.h"
#include "bc_units.h"

#define S_MAX_JOBS  1024
#define S_MAX_FILES 4096

/* ---- parsing ---- */

static char *s_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* ${VAR} from the environment (fio does the same); unset ones stay as written */
static char *s_expand(const char *in)
{
	size_t cap = strlen(in) + 1, used = 0;
	char *out = malloc(cap), *grown;
	const char *p = in;

	while (out && *p) {
		const char *add = p, *end = NULL, *val;
		char name[128];
		size_t n = 1;

		if (p[0] == '$' && p[1] == '{' && (end = strchr(p, '}')) &&
		    (size_t)(end - p - 2) < sizeof(name)) {
			memcpy(name, p + 2, (size_t)(end - p - 2));
			name[end - p - 2] = '\0';
			val = getenv(name);
			if (val) {
				add = val;
				n = strlen(val);
			} else {
				n = (size_t)(end - p + 1);
			}
			p = end + 1;
		} else {
			p++;
		}
		if (used + n + 1 > cap) {
			cap = (used + n + 1) * 2;
			grown = realloc(out, cap);
			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
		}
		memcpy(out + used, add, n);
		used += n;
	}
	if (out)
		out[used] = '\0';
	return out;
}

static int s_fail(char *err, size_t errlen, const char *src, int line, const char *what)
{
	snprintf(err, errlen, "%s:%d: %s", src, line, what);
	return -EINVAL;
}

static int s_add_opt(struct bc_fio_section *sec, const char *key, const char *val, int line)
{
	struct bc_fio_opt *o = realloc(sec->opts, (size_t)(sec->nopts + 1) * sizeof(*o));
	char *k;

	if (!o)
		return -ENOMEM;
	sec->opts = o;
	o = &sec->opts[sec->nopts];
	o->key = strdup(key);
	o->val = val ? s_expand(val) : NULL;
	o->line = line;
	if (!o->key || (val && !o->val)) {
		free(o->key);
		free(o->val);
		return -ENOMEM;
	}
	for (k = o->key; *k; k++)
		*k = (char)tolower((unsigned char)*k);
	sec->nopts++;
	return 0;
}

int bc_fio_parse(const char *text, const char *src, struct bc_fio_jobfile **out, char *err,
		 size_t errlen)
{
	struct bc_fio_jobfile *jf = calloc(1, sizeof(*jf));
	char *copy = strdup(text ? text : ""), *save = NULL, *raw, *l, *eq;
	int line = 0, rc = 0;

	*out = NULL;
	if (!jf || !copy) {
		rc = -ENOMEM;
		goto out;
	}
	/* strsep keeps empty lines, so line numbers stay right */
	for (save = copy; (raw = strsep(&save, "\n"));) {
		line++;
		l = s_trim(raw);
		if (!*l || *l == ';' || *l == '#')
			continue;
		if (*l == '[') {
			struct bc_fio_section *s;
			char *close = strchr(l, ']');

			if (!close || close[1]) {
				rc = s_fail(err, errlen, src, line,
					    "expected a section header \"[name]\"");
				goto out;
			}
			*close = '\0';
			l = s_trim(l + 1);
			if (!*l) {
				rc = s_fail(err, errlen, src, line, "empty section name");
				goto out;
			}
			s = realloc(jf->secs, (size_t)(jf->nsecs + 1) * sizeof(*s));
			if (!s) {
				rc = -ENOMEM;
				goto out;
			}
			jf->secs = s;
			s = &jf->secs[jf->nsecs++];
			memset(s, 0, sizeof(*s));
			s->name = strdup(l);
			s->global = !strcmp(l, "global");
			s->line = line;
			if (!s->name) {
				rc = -ENOMEM;
				goto out;
			}
			continue;
		}
		if (!jf->nsecs) {
			rc = s_fail(err, errlen, src, line, "option before any [section]");
			goto out;
		}
		/* "include file.fio" is fio's one keyword with a space */
		if (!strncasecmp(l, "include", 7) && isspace((unsigned char)l[7])) {
			rc = s_add_opt(&jf->secs[jf->nsecs - 1], "include", s_trim(l + 8), line);
		} else {
			eq = strchr(l, '=');
			if (eq)
				*eq = '\0';
			rc = s_add_opt(&jf->secs[jf->nsecs - 1], s_trim(l),
				       eq ? s_trim(eq + 1) : NULL, line);
		}
		if (rc)
			goto out;
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src);
	if (rc)
		bc_fio_free(&jf);
	free(copy);
	*out = jf;
	return rc;
}

void bc_fio_free(struct bc_fio_jobfile **pjf)
{
	struct bc_fio_jobfile *jf = pjf ? *pjf : NULL;
	int i, k;

	if (!jf)
		return;
	for (i = 0; i < jf->nsecs; i++) {
		for (k = 0; k < jf->secs[i].nopts; k++) {
			free(jf->secs[i].opts[k].key);
			free(jf->secs[i].opts[k].val);
		}
		free(jf->secs[i].opts);
		free(jf->secs[i].name);
	}
	free(jf->secs);
	free(jf);
	*pjf = NULL;
}

/* ---- mapping ---- */

/* the effective options of one job: the [global]s before it, then its own */
struct s_view {
	const struct bc_fio_opt *opt[512];
	int n;
};

struct s_job {
	char name[BC_NAME_MAX];
	int group;
	const char *rw; /* bench-coord rw name */
	unsigned rwmixread;
	uint64_t bs;
	unsigned iodepth, numjobs;
	bool direct;
	unsigned ramp_s, runtime_s; /* runtime_s 0: none given */
	char *files[64];	    /* owned */
	int nfiles;
	uint64_t size_per_file, offset; /* 0: none */
};

struct s_ctx {
	const struct bc_fio_import *im;
	cJSON *notes;
	cJSON *unmapped; /* {"key": {"jobs": [names], "value": "first value"}} */
};

static void s_note(struct s_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_note(struct s_ctx *c, const char *fmt, ...)
{
	char buf[1024];
	const cJSON *n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON_ArrayForEach(n, c->notes) if (!strcmp(n->valuestring, buf)) return;
	cJSON_AddItemToArray(c->notes, cJSON_CreateString(buf));
}

/*
 * Options the mapping reads (with aliases), and options that change nothing
 * bench-coord measures (reporting, thread vs process, naming). Anything else
 * is listed as not mapped.
 */
static const char *const s_mapped[] = {
    "rw",	 "readwrite",	      "rwmixread", "rwmixwrite",
    "bs",	 "blocksize",	      "iodepth",   "numjobs",
    "direct",	 "buffered",	      "ramp_time", "runtime",
    "timeout",	 "time_based",	      "filename",  "directory",
    "size",	 "filesize",	      "offset",	   "ioengine",
    "stonewall", "wait_for_previous", "name",	   "description",
    "thread",	 "group_reporting",   "new_group", NULL,
};

static bool s_listed(const char *const *list, const char *k)
{
	for (; *list; list++)
		if (!strcmp(*list, k))
			return true;
	return false;
}

static const char *s_get(const struct s_view *v, const char *key)
{
	int i;

	for (i = v->n; i-- > 0;)
		if (!strcmp(v->opt[i]->key, key))
			return v->opt[i]->val ? v->opt[i]->val : "1";
	return NULL;
}

/* the last of key or its alias */
static const char *s_get2(const struct s_view *v, const char *key, const char *alias)
{
	int i;

	for (i = v->n; i-- > 0;)
		if (!strcmp(v->opt[i]->key, key) || (alias && !strcmp(v->opt[i]->key, alias)))
			return v->opt[i]->val ? v->opt[i]->val : "1";
	return NULL;
}

static bool s_bool(const char *v)
{
	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
		     !strcasecmp(v, "on"));
}

static bool s_uint(const char *v, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long n;

	if (!v || !isdigit((unsigned char)*v))
		return false;
	n = strtoul(v, &end, 10);
	if (*end || n > max)
		return false;
	*out = (unsigned)n;
	return true;
}

/* fio time: a number with us, ms, s (default), m, h or d; rounded up to seconds */
static bool s_seconds(const char *v, unsigned *out, bool *rounded)
{
	static const struct {
		const char *sfx;
		double mult;
	} u[] = {{"", 1},   {"s", 1},	 {"us", 1e-6}, {"ms", 1e-3},
		 {"m", 60}, {"h", 3600}, {"d", 86400}};
	char *end;
	double d;
	size_t i;

	if (!v || !isdigit((unsigned char)*v))
		return false;
	d = strtod(v, &end);
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (!strcasecmp(end, u[i].sfx)) {
			d *= u[i].mult;
			if (d > 4e9)
				return false;
			*out = (unsigned)ceil(d);
			*rounded = *out != d;
			return true;
		}
	}
	return false;
}

/* fio's filename list: ':' separates, "\:" is a literal colon */
static int s_split_files(const char *list, const char *dir, struct s_job *j)
{
	char buf[BC_PATH_MAX], path[BC_PATH_MAX * 2 + 2];
	size_t n = 0;
	const char *p;

	for (p = list;; p++) {
		if (*p == '\\' && p[1] == ':') {
			if (n < sizeof(buf) - 1)
				buf[n++] = ':';
			p++;
			continue;
		}
		if (*p && *p != ':') {
			if (n < sizeof(buf) - 1)
				buf[n++] = *p;
			continue;
		}
		buf[n] = '\0';
		if (n && j->nfiles == 64)
			return -E2BIG;
		if (n) {
			if (dir && *dir && buf[0] != '/')
				snprintf(path, sizeof(path), "%s/%s", dir, buf);
			else
				snprintf(path, sizeof(path), "%s", buf);
			j->files[j->nfiles] = strdup(path);
			if (!j->files[j->nfiles])
				return -ENOMEM;
			j->nfiles++;
		}
		n = 0;
		if (!*p)
			break;
	}
	return 0;
}

/* [A-Za-z0-9._-], anything else becomes '-' */
static void s_sanitize(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i < len - 1; i++)
		out[i] = isalnum((unsigned char)in[i]) || strchr("._-", in[i]) ? in[i] : '-';
	out[i] = '\0';
	if (!i)
		snprintf(out, len, "job");
}

static void s_unmapped(struct s_ctx *c, const struct bc_fio_opt *o, const char *where)
{
	cJSON *e = cJSON_GetObjectItemCaseSensitive(c->unmapped, o->key), *jobs;
	const cJSON *x;

	if (!e) {
		e = cJSON_AddObjectToObject(c->unmapped, o->key);
		cJSON_AddStringToObject(e, "value", o->val ? o->val : "");
		cJSON_AddNumberToObject(e, "line", o->line);
		cJSON_AddArrayToObject(e, "in");
	}
	jobs = cJSON_GetObjectItemCaseSensitive(e, "in");
	cJSON_ArrayForEach(x, jobs) if (!strcmp(x->valuestring, where)) return;
	cJSON_AddItemToArray(jobs, cJSON_CreateString(where));
}

static const char *s_map_rw(struct s_ctx *c, const struct s_job *j, const char *v)
{
	static const struct {
		const char *fio, *bc;
	} m[] = {{"read", "read"},	     {"write", "write"}, {"randread", "randread"},
		 {"randwrite", "randwrite"}, {"rw", "rw"},	 {"readwrite", "rw"},
		 {"randrw", "randrw"}};
	char base[32];
	size_t i, n = strcspn(v, ":");

	snprintf(base, sizeof(base), "%.*s", (int)(n < sizeof(base) ? n : sizeof(base) - 1), v);
	if (v[n])
		s_note(c, "job %s: rw=%s: the \":%s\" offset modifier is not mapped", j->name, v,
		       v + n + 1);
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(base, m[i].fio))
			return m[i].bc;
	return NULL;
}

/* one job section with its effective options into j; false when it cannot run */
static bool s_job(struct s_ctx *c, const struct bc_fio_section *sec, const struct s_view *v,
		  struct s_job *j)
{
	const char *x, *dir = s_get(v, "directory");
	bool rounded = false;
	uint64_t size = 0;
	unsigned n;

	s_sanitize(s_get(v, "name") ? s_get(v, "name") : sec->name, j->name, sizeof(j->name));
	x = s_get2(v, "rw", "readwrite");
	j->rw = s_map_rw(c, j, x ? x : "read");
	if (!j->rw) {
		s_note(c, "job %s: rw=%s has no bench-coord equivalent: job skipped", j->name, x);
		return false;
	}
	j->rwmixread = 50;
	if ((x = s_get(v, "rwmixread")) && s_uint(x, 100, &n))
		j->rwmixread = n;
	else if ((x = s_get(v, "rwmixwrite")) && s_uint(x, 100, &n))
		j->rwmixread = 100 - n;
	else if (x)
		s_note(c, "job %s: cannot read read/write mix \"%s\": using 50%%", j->name, x);
	j->bs = 4096;
	if ((x = s_get2(v, "bs", "blocksize"))) {
		char first[64];
		const char *comma = strchr(x, ',');

		snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - x) : 63, x);
		if (comma && strcmp(first, comma + 1))
			s_note(c, "job %s: bs=%s (different read/write sizes): using %s for both",
			       j->name, x, first);
		if (bc_parse_size(first, &j->bs) || !j->bs || j->bs % 512 || j->bs > (1u << 30)) {
			s_note(c, "job %s: bs=%s is not a multiple of 512 up to 1g: job skipped",
			       j->name, x);
			return false;
		}
	}
	j->iodepth = 1;
	if ((x = s_get(v, "iodepth")) && !s_uint(x, 65536, &j->iodepth))
		s_note(c, "job %s: cannot read iodepth=%s: using 1", j->name, x);
	j->numjobs = 1;
	if ((x = s_get(v, "numjobs")) && !s_uint(x, 1024, &j->numjobs))
		s_note(c, "job %s: cannot read numjobs=%s: using 1", j->name, x);
	if (!j->iodepth || !j->numjobs) {
		j->iodepth = j->iodepth ? j->iodepth : 1;
		j->numjobs = j->numjobs ? j->numjobs : 1;
	}
	/* fio's default is buffered I/O; bench-coord's is direct, so always say which */
	j->direct = s_get(v, "direct") ? s_bool(s_get(v, "direct"))
				       : s_get(v, "buffered") && !s_bool(s_get(v, "buffered"));
	if ((x = s_get(v, "ramp_time")) && !s_seconds(x, &j->ramp_s, &rounded))
		s_note(c, "job %s: cannot read ramp_time=%s: no ramp", j->name, x);
	if (rounded)
		s_note(c, "job %s: ramp_time=%s rounded up to %u s", j->name, x, j->ramp_s);
	rounded = false;
	if ((x = s_get2(v, "runtime", "timeout")) && !s_seconds(x, &j->runtime_s, &rounded))
		s_note(c, "job %s: cannot read runtime=%s", j->name, x);
	if (rounded || (x && j->runtime_s == 0)) {
		j->runtime_s = j->runtime_s ? j->runtime_s : 1;
		s_note(c, "job %s: runtime=%s rounded up to %u s", j->name, x, j->runtime_s);
	}
	if (!j->runtime_s)
		s_note(c,
		       "job %s: no runtime: fio would run until size was transferred; the step "
		       "runs bench-coord's default runtime (10 s)",
		       j->name);
	else if (!s_bool(s_get(v, "time_based")))
		s_note(c,
		       "job %s: time_based not set: fio could stop early once size was "
		       "transferred; bench-coord steps always run for the runtime",
		       j->name);
	if ((x = s_get(v, "filename"))) {
		if (s_split_files(x, dir, j)) {
			s_note(c, "job %s: more than 64 files in filename=: job skipped", j->name);
			return false;
		}
	} else {
		char def[BC_PATH_MAX];

		/* fio's default file name is jobname.jobnum.filenum (one per clone) */
		snprintf(def, sizeof(def), "%s.0.0", sec->name);
		if (s_split_files(def, dir, j))
			return false;
		s_note(c, "job %s: no filename: mapped to one file %s%s%s shared by all %u job(s)",
		       j->name, dir ? dir : "", dir ? "/" : "", def, j->numjobs);
	}
	if (!j->nfiles) {
		s_note(c, "job %s: no usable filename: job skipped", j->name);
		return false;
	}
	if ((x = s_get(v, "filesize"))) {
		if (bc_parse_size(x, &j->size_per_file))
			s_note(c, "job %s: filesize=%s not mapped (ranges are not supported)",
			       j->name, x);
	} else if ((x = s_get(v, "size"))) {
		if (bc_parse_size(x, &size))
			s_note(c, "job %s: size=%s not mapped (only absolute sizes are)", j->name,
			       x);
		/* fio's size is the job's total over its files */
		j->size_per_file = size / (uint64_t)j->nfiles / 512 * 512;
		if (j->nfiles > 1 && size)
			s_note(c, "job %s: size=%s is shared by %d files in fio: %llu bytes each",
			       j->name, x, j->nfiles, (unsigned long long)j->size_per_file);
	}
	if ((x = s_get(v, "offset")) && (bc_parse_size(x, &j->offset) || j->offset % 512)) {
		s_note(c, "job %s: offset=%s not mapped (a multiple of 512 bytes is required)",
		       j->name, x);
		j->offset = 0;
	}
	if (j->nfiles > 1 && j->iodepth > 1) {
		unsigned per = (j->iodepth + (unsigned)j->nfiles - 1) / (unsigned)j->nfiles;

		s_note(c,
		       "job %s: iodepth=%u was shared by %d files in fio; bench-coord's iodepth "
		       "is per volume: %u",
		       j->name, j->iodepth, j->nfiles, per);
		j->iodepth = per;
	}
	if ((x = s_get(v, "ioengine")))
		s_note(c, "ioengine=%s ignored: bench-coord always drives io_uring", x);
	return true;
}

static bool s_same_workload(const struct s_job *a, const struct s_job *b)
{
	return !strcmp(a->rw, b->rw) && a->rwmixread == b->rwmixread && a->bs == b->bs &&
	       a->iodepth == b->iodepth && a->numjobs == b->numjobs && a->direct == b->direct &&
	       a->ramp_s == b->ramp_s && a->runtime_s == b->runtime_s;
}

static bool s_is_bdev(const char *path)
{
	return !strncmp(path, "/dev/", 5);
}

static cJSON *s_volume(const struct s_ctx *c, const struct s_job *j, const char *path)
{
	cJSON *v = cJSON_CreateObject();
	char sz[32];

	cJSON_AddStringToObject(v, "agent", c->im->agent);
	cJSON_AddStringToObject(v, "path", path);
	/* a file gets created at that size; a device only gets an I/O window */
	if (j->size_per_file)
		cJSON_AddStringToObject(v, s_is_bdev(path) ? "length" : "size",
					bc_fmt_size(j->size_per_file, sz, sizeof(sz)));
	if (j->offset) {
		cJSON_AddStringToObject(v, "offset", bc_fmt_size(j->offset, sz, sizeof(sz)));
		if (!s_is_bdev(path) && j->size_per_file)
			cJSON_ReplaceItemInObject(
			    v, "size",
			    cJSON_CreateString(
				bc_fmt_size(j->offset + j->size_per_file, sz, sizeof(sz))));
	}
	return v;
}

static cJSON *s_step(const struct s_job *j, const char *name)
{
	cJSON *s = cJSON_CreateObject();
	char bs[32];

	cJSON_AddStringToObject(s, "name", name);
	cJSON_AddStringToObject(s, "rw", j->rw);
	if (strstr(j->rw, "rw"))
		cJSON_AddNumberToObject(s, "rwmixread", j->rwmixread);
	cJSON_AddStringToObject(s, "bs", bc_fmt_size(j->bs, bs, sizeof(bs)));
	cJSON_AddNumberToObject(s, "iodepth", j->iodepth);
	cJSON_AddNumberToObject(s, "numjobs", j->numjobs);
	cJSON_AddBoolToObject(s, "direct", j->direct);
	cJSON_AddNumberToObject(s, "ramp", j->ramp_s);
	if (j->runtime_s)
		cJSON_AddNumberToObject(s, "runtime", j->runtime_s);
	return s;
}

/* a step name not used yet: the base, else base-2, base-3 ... */
static void s_unique(const cJSON *steps, const char *base, char *out, size_t len)
{
	const cJSON *s;
	int i;

	for (i = 1; i < 10000; i++) {
		bool used = false;

		if (i == 1)
			snprintf(out, len, "%s", base);
		else
			snprintf(out, len, "%.*s-%d", BC_NAME_MAX - 8, base, i);
		cJSON_ArrayForEach(s, steps) used |=
		    !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(s, "name")), out);
		if (!used)
			return;
	}
}

static int s_vol_index(const cJSON *vols, const char *path)
{
	const cJSON *v;
	int i = 0;

	cJSON_ArrayForEach(v, vols)
	{
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "path")), path))
			return i;
		i++;
	}
	return -1;
}

/* the jobs of one group with the same workload as jobs[first] become one step */
static void s_emit_step(struct s_ctx *c, struct s_job *jobs, int nj, int first, bool *done,
			bool split, cJSON *steps, cJSON *vols, cJSON *step_vols)
{
	const struct s_job *j0 = &jobs[first];
	char base[BC_NAME_MAX], name[BC_NAME_MAX], bs[32];
	cJSON *mine = cJSON_CreateArray();
	int k, f, count = 0;

	for (k = first; k < nj; k++) {
		if (done[k] || jobs[k].group != j0->group || !s_same_workload(&jobs[k], j0))
			continue;
		done[k] = true;
		count++;
		for (f = 0; f < jobs[k].nfiles; f++) {
			const char *path = jobs[k].files[f];
			const cJSON *x;
			bool seen = false;

			if (s_vol_index(vols, path) < 0)
				cJSON_AddItemToArray(vols, s_volume(c, &jobs[k], path));
			if (path[0] != '/')
				s_note(c, "relative file names resolve in the agent's scratch "
					  "directory, not the current directory");
			cJSON_ArrayForEach(x, mine) seen |= !strcmp(x->valuestring, path);
			if (!seen)
				cJSON_AddItemToArray(mine, cJSON_CreateString(path));
		}
	}
	/* one job keeps its name; a group of volumes is named for what it does */
	if (count == 1)
		snprintf(base, sizeof(base), "%s", j0->name);
	else
		snprintf(base, sizeof(base), "%s-%s-qd%u", j0->rw,
			 bc_fmt_size(j0->bs, bs, sizeof(bs)), j0->iodepth);
	s_unique(steps, base, name, sizeof(name));
	if (split)
		s_note(c,
		       "step %s: fio ran its group's jobs concurrently with different "
		       "workloads; bench-coord runs them as consecutive steps",
		       name);
	if (count > 1 && j0->numjobs > 1)
		s_note(c,
		       "step %s: %d fio jobs of numjobs=%u become one step: per volume the queue "
		       "depth is numjobs x iodepth as in fio, driven by %u threads in all rather "
		       "than %u per file",
		       name, count, j0->numjobs, j0->numjobs, j0->numjobs);
	cJSON_AddItemToArray(steps, s_step(j0, name));
	cJSON_AddItemToObject(step_vols, name, mine);
}

cJSON *bc_fio_to_profile(const struct bc_fio_jobfile *jf, const struct bc_fio_import *im,
			 cJSON *notes, char *err, size_t errlen)
{
	struct s_ctx c = {.im = im, .notes = notes, .unmapped = cJSON_CreateObject()};
	struct s_job *jobs = calloc(S_MAX_JOBS, sizeof(*jobs));
	bool *done = calloc(S_MAX_JOBS, sizeof(bool));
	struct s_view globals = {0}, v;
	cJSON *prof = NULL, *vols = NULL, *steps = NULL, *step_vols = cJSON_CreateObject(), *a;
	const cJSON *u, *s;
	char pname[BC_NAME_MAX], tmp[BC_PATH_MAX], desc[BC_PATH_MAX + 64];
	int i, k, nj = 0, group = -1;

	if (!jobs || !done || !c.unmapped || !step_vols) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < jf->nsecs; i++) {
		const struct bc_fio_section *sec = &jf->secs[i];
		struct s_job *j = &jobs[nj];
		char where[BC_NAME_MAX + 16];

		snprintf(where, sizeof(where), "%s%s%s", sec->global ? "[" : "", sec->name,
			 sec->global ? "]" : "");
		for (k = 0; k < sec->nopts; k++)
			if (!s_listed(s_mapped, sec->opts[k].key))
				s_unmapped(&c, &sec->opts[k], where);
		if (sec->global) {
			for (k = 0; k < sec->nopts && globals.n < 256; k++)
				globals.opt[globals.n++] = &sec->opts[k];
			continue;
		}
		if (nj >= S_MAX_JOBS) {
			s_note(&c, "more than %d jobs: the rest are skipped", S_MAX_JOBS);
			break;
		}
		v = globals;
		for (k = 0; k < sec->nopts && v.n < 512; k++)
			v.opt[v.n++] = &sec->opts[k];
		/* the first job, and each that waits for the ones before it, starts a group */
		if (group < 0 || s_bool(s_get(&v, "stonewall")) ||
		    s_bool(s_get(&v, "wait_for_previous")))
			group++;
		if (!s_job(&c, sec, &v, j)) {
			for (k = 0; k < j->nfiles; k++)
				free(j->files[k]);
			memset(j, 0, sizeof(*j));
			continue;
		}
		j->group = group;
		nj++;
	}
	if (!nj) {
		snprintf(err, errlen, "%s: no job could be mapped to a bench-coord step", im->src);
		goto out;
	}
	prof = cJSON_CreateObject();
	if (im->name) {
		s_sanitize(im->name, pname, sizeof(pname));
	} else {
		snprintf(tmp, sizeof(tmp), "%s", im->src);
		s_sanitize(basename(tmp), pname, sizeof(pname));
		if (strlen(pname) > 4 && !strcmp(pname + strlen(pname) - 4, ".fio"))
			pname[strlen(pname) - 4] = '\0';
	}
	cJSON_AddStringToObject(prof, "name", pname);
	snprintf(desc, sizeof(desc), "imported from fio job file %s by bench-coord import-fio",
		 im->src);
	cJSON_AddStringToObject(prof, "description", desc);
	a = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(prof, "agents"), a);
	cJSON_AddStringToObject(a, "name", im->agent);
	cJSON_AddStringToObject(a, "endpoint", im->endpoint);
	vols = cJSON_AddArrayToObject(prof, "volumes");
	steps = cJSON_AddArrayToObject(prof, "steps");
	for (i = 0; i < nj; i++) {
		bool split = false;

		if (done[i])
			continue;
		for (k = i + 1; k < nj; k++)
			split |=
			    jobs[k].group == jobs[i].group && !s_same_workload(&jobs[k], &jobs[i]);
		for (k = 0; k < i; k++)
			split |= jobs[k].group == jobs[i].group;
		s_emit_step(&c, jobs, nj, i, done, split, steps, vols, step_vols);
	}
	/* a step runs on every volume: say where fio used fewer */
	cJSON_ArrayForEach(s, step_vols)
	{
		if (cJSON_GetArraySize(s) < cJSON_GetArraySize(vols)) {
			char list[512] = "";
			const cJSON *f;
			size_t used = 0;

			cJSON_ArrayForEach(f, s) if (used < sizeof(list)) used +=
			    (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					     used ? ", " : "", f->valuestring);
			s_note(&c,
			       "step %s: fio ran it on %s only; bench-coord runs every step on "
			       "all %d volumes",
			       s->string, list, cJSON_GetArraySize(vols));
		}
	}
	cJSON_ArrayForEach(u, c.unmapped)
	{
		const cJSON *in = cJSON_GetObjectItem(u, "in");
		const char *val = cJSON_GetStringValue(cJSON_GetObjectItem(u, "value"));
		int n = cJSON_GetArraySize(in);

		s_note(&c, "not mapped: %s%s%s (line %.0f; in %s%s)", u->string, *val ? "=" : "",
		       val, cJSON_GetNumberValue(cJSON_GetObjectItem(u, "line")),
		       cJSON_GetStringValue(cJSON_GetArrayItem(in, 0)), n > 1 ? " and others" : "");
	}
out:
	for (i = 0; jobs && i < nj; i++)
		for (k = 0; k < jobs[i].nfiles; k++)
			free(jobs[i].files[k]);
	free(jobs);
	free(done);
	cJSON_Delete(c.unmapped);
	cJSON_Delete(step_vols);
	return prof;
}
