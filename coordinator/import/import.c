/*
 * import/import.c - the importers' shared pieces (import/import.h): reading the file,
 * notes and differences, the profile's name and description, and the
 * commands' last stage (refuse, validate, write).
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"
#include "profile/profile.h"
#include "util/log.h"

/* a job or parameter file is a page of text: anything this big is the wrong file */
#define S_MAX_TEXT (64u << 20)

const char *bc_import_add_src(struct bc_import_doc *d, const char *src)
{
	char **grown = realloc(d->srcs, (size_t)(d->nsrcs + 1) * sizeof(*grown));

	if (!grown)
		return NULL;
	d->srcs = grown;
	d->srcs[d->nsrcs] = strdup(src);
	return d->srcs[d->nsrcs] ? d->srcs[d->nsrcs++] : NULL;
}

struct bc_import_sec *bc_import_add_sec(struct bc_import_doc *d, const char *src, int line)
{
	struct bc_import_sec *grown = realloc(d->secs, (size_t)(d->nsecs + 1) * sizeof(*grown));

	if (!grown)
		return NULL;
	d->secs = grown;
	grown = &d->secs[d->nsecs++];
	memset(grown, 0, sizeof(*grown));
	grown->src = src;
	grown->line = line;
	return grown;
}

int bc_import_add_kv(struct bc_import_sec *s, const char *key, char *val, const char *src, int line)
{
	struct bc_import_kv *grown = realloc(s->kv, (size_t)(s->nkv + 1) * sizeof(*grown)), *kv;
	char *k;

	if (!grown) {
		free(val);
		return -ENOMEM;
	}
	s->kv = grown;
	kv = &s->kv[s->nkv];
	kv->key = strdup(key);
	kv->val = val;
	kv->src = src;
	kv->line = line;
	if (!kv->key) {
		free(val);
		return -ENOMEM;
	}
	for (k = kv->key; *k; k++)
		*k = (char)tolower((unsigned char)*k);
	s->nkv++;
	return 0;
}

void bc_import_doc_free(struct bc_import_doc **pd)
{
	struct bc_import_doc *d = pd ? *pd : NULL;
	int i, k;

	if (!d)
		return;
	for (i = 0; i < d->nsecs; i++) {
		for (k = 0; k < d->secs[i].nkv; k++) {
			free(d->secs[i].kv[k].key);
			free(d->secs[i].kv[k].val);
		}
		free(d->secs[i].kv);
		free(d->secs[i].name);
	}
	for (i = 0; i < d->nsrcs; i++)
		free(d->srcs[i]);
	free(d->srcs);
	free(d->secs);
	free(d);
	*pd = NULL;
}

char *bc_import_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int bc_import_fail(char *err, size_t errlen, const char *src, int line, const char *what)
{
	snprintf(err, errlen, "%s:%d: %s", src, line, what);
	return -EINVAL;
}

char *bc_import_slurp(const char *path)
{
	/* "-": standard input (a command pasted or piped in) */
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : fdopen(dup(0), "r");
	char *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			grown = cap <= S_MAX_TEXT ? realloc(buf, cap) : NULL;
			if (!grown) {
				free(buf);
				fclose(f);
				errno = cap > S_MAX_TEXT ? EFBIG : ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	buf[len] = '\0';
	if (ferror(f)) {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
	fclose(f);
	return buf;
}

char *bc_import_include(const char *src, const char *name, char *path, size_t len)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", src);
	if (name[0] == '/')
		snprintf(path, len, "%s", name);
	else
		snprintf(path, len, "%s/%s", dirname(dir), name);
	return bc_import_slurp(path);
}

void bc_import_vadd(cJSON *arr, const char *fmt, va_list ap)
{
	char buf[1024];
	const cJSON *n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	cJSON_ArrayForEach(n, arr) if (!strcmp(n->valuestring, buf)) return;
	cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
}

void bc_import_add(cJSON *arr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bc_import_vadd(arr, fmt, ap);
	va_end(ap);
}

void bc_import_diff(cJSON *diffs, const char *src, int line, const char *fmt, ...)
{
	char f2[1024];
	va_list ap;

	snprintf(f2, sizeof(f2), "%s:%d: %s", src, line, fmt);
	va_start(ap, fmt);
	bc_import_vadd(diffs, f2, ap);
	va_end(ap);
}

void bc_import_sanitize(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i < len - 1; i++)
		out[i] = isalnum((unsigned char)in[i]) || strchr("._-", in[i]) ? in[i] : '-';
	out[i] = '\0';
	if (!i)
		snprintf(out, len, "job");
}

void bc_import_name(const char *name, const char *src, const char *ext, char *out, size_t len)
{
	char tmp[4096];
	size_t n, e = ext ? strlen(ext) : 0;

	if (name) {
		bc_import_sanitize(name, out, len);
		return;
	}
	/* standard input has no name of its own */
	snprintf(tmp, sizeof(tmp), "%s", strcmp(src, "-") ? src : "stdin");
	bc_import_sanitize(basename(tmp), out, len);
	n = strlen(out);
	if (e && n > e && !strcmp(out + n - e, ext))
		out[n - e] = '\0';
}

void bc_import_describe(cJSON *prof, const char *what, const char *src, const char *cmd,
			bool lenient, const cJSON *diffs)
{
	size_t cap = 256 + strlen(what) + strlen(src) + strlen(cmd), used;
	const cJSON *d;
	char *desc;

	cJSON_ArrayForEach(d, diffs) cap += strlen(d->valuestring) + 2;
	desc = malloc(cap);
	if (!desc)
		return;
	used = (size_t)snprintf(desc, cap, "imported from %s %s by bench-coord %s", what, src, cmd);
	if (lenient && cJSON_GetArraySize(diffs)) {
		used +=
		    (size_t)snprintf(desc + used, cap - used, " --lenient; not as %s would run it:",
				     !strcmp(cmd, "import-fio") ? "fio" : "vdbench");
		cJSON_ArrayForEach(d, diffs) used +=
		    (size_t)snprintf(desc + used, cap - used, " %s;", d->valuestring);
	}
	cJSON_AddStringToObject(prof, "description", desc);
	free(desc);
}

static int s_write(const char *path, const char *text)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (!f)
		return bc_error("cannot create '%s': %s", path, strerror(errno));
	fputs(text, f);
	fputc('\n', f);
	if (path ? fclose(f) : fflush(f))
		return bc_error("cannot write '%s': %s", path ? path : "<stdout>", strerror(errno));
	return 0;
}

int bc_import_emit(const char *src, const char *tool, cJSON *prof, const cJSON *notes,
		   const cJSON *diffs, bool lenient, const char *out, const char *err)
{
	struct bc_profile *p = NULL;
	char perr[1024], *json = NULL;
	const cJSON *n;
	int status = 1;

	/* a note that names its own file and line needs no prefix */
	cJSON_ArrayForEach(n, notes) if (!strncmp(n->valuestring, src, strlen(src)) &&
					 n->valuestring[strlen(src)] == ':')
	    bc_warn("note: %s", n->valuestring);
	else bc_warn("%s: note: %s", src, n->valuestring);
	cJSON_ArrayForEach(n, diffs) bc_warn("%s", n->valuestring);
	if (cJSON_GetArraySize(diffs) && !lenient) {
		bc_error("%s: refused: %s would run %d thing(s) differently (listed above); "
			 "--lenient imports anyway",
			 src, tool, cJSON_GetArraySize(diffs));
		return 2;
	}
	if (!prof) {
		bc_error("%s", err);
		return 1;
	}
	json = cJSON_Print(prof);
	/* what we write must be a profile bench-coord accepts */
	if (!json ||
	    bc_profile_parse(json, out ? out : "<imported profile>", &p, perr, sizeof(perr))) {
		bc_error("the imported profile is not valid: %s", json ? perr : "out of memory");
		goto out;
	}
	if (!s_write(out, json))
		status = 0;
out:
	bc_profile_destroy(&p);
	cJSON_free(json);
	return status;
}

int bc_import_run(const struct bc_import_opts *im, const char *tool, const char *out,
		  bc_import_map_fn map)
{
	cJSON *notes = cJSON_CreateArray(), *diffs = cJSON_CreateArray(), *prof = NULL;
	char err[1024], *text = bc_import_slurp(im->src);
	/* messages name standard input "stdin", not "-" */
	struct bc_import_opts named = *im;
	int status = 1;

	if (!strcmp(im->src, "-"))
		named.src = "stdin";
	im = &named;

	if (!text) {
		bc_error("cannot read '%s': %s", im->src, strerror(errno));
		goto out;
	}
	status = map(text, im, notes, diffs, &prof, err, sizeof(err));
	if (status) {
		bc_error("%s", err);
		goto out;
	}
	status = bc_import_emit(im->src, tool, prof, notes, diffs, im->lenient, out, err);
out:
	cJSON_Delete(prof);
	cJSON_Delete(notes);
	cJSON_Delete(diffs);
	free(text);
	return status;
}
