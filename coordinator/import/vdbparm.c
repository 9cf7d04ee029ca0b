/*
 * import/vdbparm.c - vdbench parameter files to bench-coord profiles (see
 * import/vdbparm.h).
 *
 * vdbench's model: storage definitions (sd=, a lun on every host of hd=
 * unless host= says otherwise) are driven by workload definitions (wd=: an
 * op mix, transfer sizes, seek pattern, skew) which run definitions (rd=)
 * run for elapsed seconds with threads outstanding I/Os per sd, at an
 * iorate, possibly looping over for*= values. Here each (sd, host) is a
 * volume, each rd (and loop value) a step, a for*= loop the profile can
 * sweep a sweep, several wds on one sd streams sharing it by skew. Every
 * pair is mapped, inert (reporting, connection details) or a difference,
 * refused unless the import is lenient. Parameter semantics follow the
 * vdbench 5.04 reference.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import/import.h"
#include "import/vdbparm.h"
#include "profile/profile.h"
#include "profile/value/units.h"
#include "profile/volume/fileset.h"

#define S_MAX_DEFS     1024
#define S_MAX_INCLUDES 16
#define S_MAX_LIST     64 /* values of a list, points of a loop, steps of an rd */
#define S_MAX_KV       512

/* ---- parsing ---- */

static const char *const s_kinds[] = {"hd", "sd", "wd", "rd", "fsd", "fwd", NULL};

/* general parameters: they begin a line of their own rather than continue a definition */
static const char *const s_general[] = {
    "include",	   "messagescan", "report",	    "histogram",  "create_anchors",    "monitor",
    "port",	   "data_errors", "compratio",	    "dedupratio", "validate",	       "journal",
    "concatenate", "debug",	  "formatxfersize", "showlba",	  "force_error_after", "loop",
    "startcmd",	   "endcmd",	  "dedupunit",	    "dedupsets",  "patterns",	       NULL,
};

static bool s_in(const char *const *list, const char *k)
{
	for (; *list; list++)
		if (!strcmp(*list, k))
			return true;
	return false;
}

static int s_add_kv(struct bc_import_sec *d, const char *key, const char *val, const char *src,
		    int line)
{
	char *v;

	if (d->nkv >= S_MAX_KV)
		return -E2BIG;
	v = strdup(val);
	if (!v)
		return -ENOMEM;
	return bc_import_add_kv(d, key, v, src, line);
}

static int s_parse_text(struct bc_import_doc *p, const char *text, const char *src, int depth,
			char *err, size_t errlen);

/* the next comma-separated token of *pp outside parentheses, trimmed; NULL at the end */
static char *s_token(char **pp)
{
	char *s = *pp, *t;
	int depth = 0;

	if (!s)
		return NULL;
	for (t = s; *t; t++) {
		if (*t == '(')
			depth++;
		else if (*t == ')' && depth)
			depth--;
		else if (*t == ',' && !depth)
			break;
	}
	if (*t) {
		*t = '\0';
		*pp = t + 1;
	} else {
		*pp = NULL;
	}
	return bc_import_trim(s);
}

static int s_include(struct bc_import_doc *p, const char *name, const char *src, int line,
		     int depth, char *err, size_t errlen)
{
	char path[4096], msg[4200];
	char *text;
	int rc;

	if (depth >= S_MAX_INCLUDES)
		return bc_import_fail(err, errlen, src, line, "includes nested too deep");
	text = bc_import_include(src, name, path, sizeof(path));
	if (!text) {
		snprintf(msg, sizeof(msg), "include=%s: cannot read '%s': %s", name, path,
			 strerror(errno));
		bc_import_fail(err, errlen, src, line, msg);
		return -EIO; /* an error, not a file vdbench would refuse */
	}
	rc = s_parse_text(p, text, path, depth + 1, err, errlen);
	free(text);
	return rc;
}

/*
 * text with vdbench's command-line variables filled in: for each
 * "name=value" of p's, every $name and !name is value (InsertHosts'
 * substitution); a copy the caller frees, NULL without memory
 */
static char *s_subst(const struct bc_import_doc *p, const char *text)
{
	char *out = strdup(text), *next, *at;
	size_t klen, vlen, pre;
	int i;

	for (i = 0; out && i < p->nvars; i++) {
		const char *eq = strchr(p->vars[i], '=');

		klen = (size_t)(eq - p->vars[i]);
		vlen = strlen(eq + 1);
		for (at = out; (at = strpbrk(at, "$!"));) {
			if (strncmp(at + 1, p->vars[i], klen)) {
				at++;
				continue;
			}
			pre = (size_t)(at - out);
			next = malloc(strlen(out) - klen - 1 + vlen + 1);
			if (!next) {
				free(out);
				return NULL;
			}
			memcpy(next, out, pre);
			memcpy(next + pre, eq + 1, vlen);
			strcpy(next + pre + vlen, at + 1 + klen);
			free(out);
			out = next;
			at = out + pre + vlen;
		}
	}
	return out;
}

static int s_parse_text(struct bc_import_doc *p, const char *text, const char *src, int depth,
			char *err, size_t errlen)
{
	const char *s = bc_import_add_src(p, src);
	char *copy = s_subst(p, text), *line, *save = NULL, *c;
	bool cont = false; /* the previous line ended in a comma */
	int lineno = 0, rc = 0;

	if (!s || !copy) {
		free(copy);
		return -ENOMEM;
	}
	/* strtok_r would skip empty lines and miscount: split by hand */
	for (line = copy; line && !rc; line = save) {
		char *nl = strchr(line, '\n'), *rest, *tok;
		bool first = true;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		/* a line that starts with a blank and holds no keyword=value is a comment */
		if (isspace((unsigned char)*line) && !cont && !strchr(line, '='))
			continue;
		line = bc_import_trim(line);
		/*
		 * vdbench's own copy of a parameter file (output/parmfile.html) wraps it
		 * in "<title>...</title><pre>" and "</pre>": the markup is no parameter
		 */
		if (*line == '<' && strrchr(line, '>'))
			line = bc_import_trim(strrchr(line, '>') + 1);
		if (!*line || strchr("*#/", *line))
			continue;
		/* a blank then '#': the rest of the line is a comment */
		for (c = line + 1; *c; c++)
			if (*c == '#' && isspace((unsigned char)c[-1])) {
				*c = '\0';
				break;
			}
		line = bc_import_trim(line);
		rest = line;
		while (!rc && (tok = s_token(&rest))) {
			char *eq = strchr(tok, '='), key[64];
			struct bc_import_sec *d;
			size_t kl;

			if (!*tok)
				continue;
			if (!eq) {
				snprintf(err, errlen, "%s:%d: '%s' is not keyword=value", s, lineno,
					 tok);
				rc = -EINVAL;
				break;
			}
			kl = (size_t)(eq - tok) < sizeof(key) - 1 ? (size_t)(eq - tok)
								  : sizeof(key) - 1;
			memcpy(key, tok, kl);
			key[kl] = '\0';
			c = bc_import_trim(key);
			memmove(key, c, strlen(c) + 1);
			for (c = key; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			eq = bc_import_trim(eq + 1);
			/* host= beginning a line: vdbench's deprecated spelling of hd= */
			if (first && !cont && !strcmp(key, "host"))
				snprintf(key, sizeof(key), "hd");
			if (first && !cont && !strcmp(key, "include")) {
				rc = s_include(p, eq, s, lineno, depth, err, errlen);
				break;
			}
			if (first && !cont &&
			    (s_in(s_kinds, key) || s_in(s_general, key) || !p->nsecs)) {
				if (p->nsecs >= S_MAX_DEFS) {
					rc = bc_import_fail(err, errlen, s, lineno,
							    "too many definitions");
					break;
				}
				d = bc_import_add_sec(p, s, lineno);
				if (!d) {
					rc = -ENOMEM;
					break;
				}
				if (s_in(s_kinds, key)) {
					snprintf(d->kind, sizeof(d->kind), "%s", key);
					d->name = strdup(eq);
					if (!d->name) {
						rc = -ENOMEM;
						break;
					}
					first = false;
					continue;
				}
			}
			first = false;
			rc = s_add_kv(&p->secs[p->nsecs - 1], key, eq, s, lineno);
		}
		cont = line[strlen(line) - 1] == ',';
	}
	free(copy);
	return rc;
}

static int s_canonical(struct bc_import_doc *p);
static int s_expand_count(struct bc_import_doc *p);

int bc_vdb_parse(const char *text, const char *src, struct bc_import_doc **out, char *err,
		 size_t errlen)
{
	return bc_vdb_parse_vars(text, src, NULL, 0, out, err, errlen);
}

int bc_vdb_parse_vars(const char *text, const char *src, char *const *vars, int nvars,
		      struct bc_import_doc **out, char *err, size_t errlen)
{
	struct bc_import_doc *p = calloc(1, sizeof(*p));
	int rc;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->vars = vars;
	p->nvars = nvars;
	rc = s_parse_text(p, text, src, 0, err, errlen);
	if (!rc)
		rc = s_canonical(p);
	if (!rc)
		rc = s_expand_count(p);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src);
	if (rc) {
		bc_import_doc_free(&p);
		return rc;
	}
	*out = p;
	return 0;
}

/* ---- mapping ---- */

struct s_ctx {
	const struct bc_import_opts *im;
	cJSON *notes, *diffs;
	bool verify; /* validate=yes */
	char *comp;  /* the forcompratio= value of the rd being mapped, or NULL */
	bool split;  /* the step just made spreads an sd's threads over its hosts */
	bool lun_used[BC_IMPORT_LUNS_MAX]; /* im->luns[i] named an sd= or a lun= */
};

#define S_DIFF(c, kv, ...) bc_import_diff((c)->diffs, (kv)->src, (kv)->line, __VA_ARGS__)

/* a definition's effective pairs: its kind's defaults before it, then its own */
struct s_view {
	const struct bc_import_kv *kv[S_MAX_KV * 2];
	int n;
};

static const struct bc_import_kv *s_get(const struct s_view *v, const char *key)
{
	int i;

	for (i = v->n; i-- > 0;)
		if (!strcmp(v->kv[i]->key, key))
			return v->kv[i];
	return NULL;
}

/*
 * skew=: vdbench's default is 0, "no skew of its own" (the workload shares
 * what the others leave), so skew=0 written out is the same as none
 */
static const struct bc_import_kv *s_get_skew(const struct s_view *v)
{
	const struct bc_import_kv *kv = s_get(v, "skew");

	return kv && kv->val && strtod(kv->val, NULL) == 0 ? NULL : kv;
}

static void s_view_of(const struct bc_import_doc *p, int idx, struct s_view *v)
{
	const struct bc_import_sec *d = &p->secs[idx];
	int i, k;

	v->n = 0;
	for (i = 0; i < idx; i++)
		if (!strcmp(p->secs[i].kind, d->kind) && !strcmp(p->secs[i].name, "default"))
			for (k = 0; k < p->secs[i].nkv && v->n < S_MAX_KV * 2; k++)
				v->kv[v->n++] = &p->secs[i].kv[k];
	for (k = 0; k < d->nkv && v->n < S_MAX_KV * 2; k++)
		v->kv[v->n++] = &d->kv[k];
}

/* "(a,b,c)" or "a" into items (pointers into buf); returns the count, -1 when too many */
static int s_list(const char *val, char *buf, size_t len, char **items)
{
	char *s = buf, *t;
	int n = 0;

	snprintf(buf, len, "%s", val);
	s = bc_import_trim(buf);
	if (*s == '(') {
		s++;
		t = strrchr(s, ')');
		if (t)
			*t = '\0';
	}
	while ((t = s_token(&s)))
		if (*t) {
			if (n >= S_MAX_LIST)
				return -1;
			items[n++] = t;
		}
	return n;
}

/* vdbench times: "600", "600s", "10m", "1h" -> seconds */
static bool s_secs(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v || d < 0)
		return false;
	if (!strcasecmp(end, "") || !strcasecmp(end, "s"))
		*out = d;
	else if (!strcasecmp(end, "m"))
		*out = d * 60;
	else if (!strcasecmp(end, "h"))
		*out = d * 3600;
	else
		return false;
	return true;
}

static bool s_pct(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v || *end || d < 0 || d > 100)
		return false;
	*out = d;
	return true;
}

/*
 * A vdbench size: a number, possibly with a fraction ("0.5k", "1.5g": vdbench
 * reads the number as a double), and a suffix as bc_parse_size's; the
 * bytes must come out whole. 0, or -EINVAL.
 */
static int s_size(const char *v, uint64_t *out)
{
	char *end, one[16];
	uint64_t mult;
	double d, b;

	if (!bc_parse_size(v, out))
		return 0;
	if (!isdigit((unsigned char)v[0]) && v[0] != '.')
		return -EINVAL;
	d = strtod(v, &end);
	if (end == v || d < 0 || snprintf(one, sizeof(one), "1%s", end) >= (int)sizeof(one) ||
	    bc_parse_size(one, &mult))
		return -EINVAL;
	b = d * (double)mult;
	if (b >= 1.8e19 || fabs(b - floor(b + 0.5)) > 1e-6)
		return -EINVAL;
	*out = (uint64_t)floor(b + 0.5);
	return 0;
}

struct s_hd {
	const char *name;
	char endpoint[256];
	int agent; /* the hd whose agent this is: itself, or the first on the same system */
};

struct s_sd {
	int def;
	const char *name;
	int vol0, nvol; /* its volumes: one per host */
	bool direct;
	const struct bc_import_kv *range;
	uint64_t hitarea; /* bytes, vdbench's default 1m */
	uint64_t size;	  /* size= in bytes, 0: not given (maxdata= multiplies it) */
	unsigned threads; /* threads= on the sd, 0: not given (an rd's own wins) */
};

struct s_wd {
	int def;
	const char *name;
	int rd; /* an rd's own workload (its sd=, vdbench's wd parameters in the rd): that
		   rd's definition index, else -1 */
	bool sd[S_MAX_DEFS]; /* by index into sds */
	bool nosd;	     /* no sd=: only in rds that give sd= (vdbench's RD_entry) */
	cJSON *wl;	     /* rw, rwmixread, bs, size_based */
	const struct bc_import_kv *skew, *range, *xfer;
	/* hotband=: range is the band, its random I/Os skewed (engine/dist.h) */
	const struct bc_import_kv *hotband;
	const struct bc_import_kv *iorate; /* iorate= of a wd= (not an rd's own) */
	double rdpct;
	bool seq;
	unsigned seq_pct; /* seekpct 1..99: the share that continues sequentially */
	uint64_t hit;	  /* rhpct/whpct=100: the I/Os stay in the sd's hitarea (bytes) */
	/* rhpct/whpct between 0 and 100: hits and misses, as streams (s_hit_streams) */
	const struct bc_import_kv *hitmix;
	double rh, wh;
};

/* a file system definition: a volume with a "fileset" on one host */
struct s_fsd {
	int def;
	const char *name;
	/* its volume on each host (same anchor, each agent's own), -1: none or refused */
	int vol[S_MAX_LIST];
	uint64_t bytes; /* the tree's bytes on average (maxdata= multiplies it) */
	uint64_t files;
	bool shared; /* shared=yes: vdbench gives each host every nth file */
	/* an rd's format=clean deleted the tree: the next step on it starts fresh */
	const struct bc_import_kv *clean;
};

/* a file system workload: a workload on its fsds' volumes */
struct s_fwd {
	int def;
	const char *name;
	bool fsd[S_MAX_DEFS]; /* by index into fsds */
	cJSON *wl;	      /* rw, rwmixread, bs, fileselect, file_shared, direct */
	unsigned threads;
	const struct bc_import_kv *skew, *host;
	int hd; /* host= as an index into the hds, -1: every host */
};

struct s_map {
	struct s_hd hd[S_MAX_LIST];
	int nhd;
	struct s_sd *sd;
	int nsd;
	struct s_wd *wd;
	int nwd;
	struct s_fsd *fsd;
	int nfsd;
	struct s_fwd *fwd;
	int nfwd;
	int nvol;
	bool hd_implicit; /* no hd=: vdbench's one host, "localhost" */
	/*
	 * fwd=format: the threads, first xfersize and openflags of vdbench's
	 * format runs (FwdEntry's format_fwd, default 8 threads of 128k)
	 */
	unsigned fmt_threads;
	char fmt_bs[32];
	int fmt_direct; /* -1: not said (each fwd's own) */
};

/*
 * Every vdbench keyword the import knows, per definition kind ("" for the
 * general parameters), like vdbench's own parameter tables: its name,
 * aliases, kind and the profile key it becomes. vdbench accepts any
 * unique abbreviation of a keyword ("thread" for threads, "openflag" for
 * openflags): the parser rewrites each key to its full name here first.
 * MAPPED keys are read where their definition is mapped; INERT ones change
 * nothing bench-coord measures; DIFF ones are refused with the reason; a
 * key in no row is a difference.
 */
enum s_vkind { S_V_MAPPED, S_V_INERT, S_V_DIFF };

struct s_vkey {
	const char *def;   /* "", "hd", "sd", "wd", "rd", "fsd", "fwd" */
	const char *name;  /* full keyword */
	const char *alias; /* another spelling vdbench accepts, or NULL */
	enum s_vkind kind;
	const char *key; /* MAPPED: the profile key; DIFF: why */
};

/* clang-format off */
static const struct s_vkey s_vkeys[] = {
    {"", "include", NULL, S_V_MAPPED, "-"},
    {"", "data_errors", NULL, S_V_MAPPED, "-"},
    {"", "validate", NULL, S_V_MAPPED, "verify"},
    {"", "compratio", NULL, S_V_MAPPED, "compress_pct"},
    {"", "dedupratio", NULL, S_V_MAPPED, "dedupe_pct"},
    {"", "dedupunit", NULL, S_V_MAPPED, "dedupe_unit"},
    {"", "dedupsets", NULL, S_V_MAPPED, "dedupe_sets"},
    {"", "messagescan", NULL, S_V_INERT, NULL},
    {"", "report", NULL, S_V_INERT, NULL},
    {"", "histogram", NULL, S_V_INERT, NULL},
    {"", "create_anchors", NULL, S_V_INERT, NULL},
    {"", "monitor", NULL, S_V_INERT, NULL},
    {"", "port", NULL, S_V_INERT, NULL},
    {"", "formatxfersize", NULL, S_V_INERT, NULL},
    {"", "showlba", NULL, S_V_INERT, NULL},
    {"", "startcmd", "start_cmd", S_V_INERT, "not run: vdbench runs it before the first rd (run it yourself)"},
    {"", "endcmd", "end_cmd", S_V_INERT, "not run: vdbench runs it after the last rd (run it yourself)"},
    {"", "debug", NULL, S_V_INERT, NULL},
    {"", "journal", NULL, S_V_DIFF, "journaling of data validation has no equivalent"},
    {"", "concatenate", NULL, S_V_DIFF, "concatenated sds have no equivalent"},
    {"", "force_error_after", NULL, S_V_DIFF, "injected errors have no equivalent"},
    {"", "loop", NULL, S_V_MAPPED, "repeat"},
    {"", "patterns", NULL, S_V_DIFF, "data patterns from files have no equivalent"},
    {"", "swat", NULL, S_V_DIFF, "trace replay (swat) has no equivalent"},
    {"", "dedupflipflop", NULL, S_V_DIFF, "dedup flip-flop has no equivalent"},
    {"", "abort_failed_skew", NULL, S_V_INERT, "inert (vdbench's check that the skew was met)"},
    {"hd", "system", NULL, S_V_MAPPED, "agents[].endpoint"},
    {"hd", "vdbench", NULL, S_V_INERT, NULL},
    {"hd", "user", NULL, S_V_INERT, NULL},
    {"hd", "shell", NULL, S_V_INERT, NULL},
    {"hd", "jvms", NULL, S_V_INERT, NULL},
    {"hd", "rsh", NULL, S_V_INERT, NULL},
    {"hd", "master", NULL, S_V_INERT, NULL},
    {"sd", "lun", NULL, S_V_MAPPED, "volumes[].path"},
    {"sd", "openflags", NULL, S_V_MAPPED, "direct"},
    {"sd", "size", NULL, S_V_MAPPED, "volumes[].size"},
    {"sd", "offset", NULL, S_V_MAPPED, "volumes[].offset"},
    {"sd", "range", NULL, S_V_MAPPED, "streams[].range"},
    {"sd", "host", "hd", S_V_MAPPED, "volumes[].agent"},
    {"sd", "align", NULL, S_V_MAPPED, "blockalign"},
    {"sd", "threads", NULL, S_V_MAPPED, "iodepth"},
    {"sd", "hitarea", NULL, S_V_MAPPED, "window_length"},
    {"sd", "journal", NULL, S_V_DIFF, "journaling of data validation has no equivalent"},
    {"sd", "count", NULL, S_V_DIFF, "expected (first,number) of a sequence of sds"},
    {"wd", "sd", NULL, S_V_MAPPED, "-"},
    {"wd", "xfersize", NULL, S_V_MAPPED, "bs"},
    {"wd", "rdpct", "readpct", S_V_MAPPED, "rw, rwmixread"},
    {"wd", "rhpct", NULL, S_V_MAPPED, "window_length"},
    {"wd", "whpct", NULL, S_V_MAPPED, "window_length"},
    {"wd", "seekpct", NULL, S_V_MAPPED, "rw, seq_pct"},
    {"wd", "skew", NULL, S_V_MAPPED, "streams[].share"},
    {"wd", "range", NULL, S_V_MAPPED, "streams[].range"},
    {"wd", "openflags", NULL, S_V_MAPPED, "direct"},
    {"wd", "host", "hd", S_V_MAPPED, "-"},
    {"wd", "stride", NULL, S_V_DIFF, "strided sequential I/O has no equivalent"},
    {"wd", "hotband", NULL, S_V_MAPPED, "streams[].range, random_distribution"},
    {"wd", "priority", NULL, S_V_DIFF, "workload priorities have no equivalent"},
    {"wd", "iorate", NULL, S_V_MAPPED, "volume_workloads rate_iops, rate_process"},
    {"rd", "wd", NULL, S_V_MAPPED, "steps[]"},
    {"rd", "iorate", NULL, S_V_MAPPED, "rate_iops, rate_process"},
    {"rd", "threads", NULL, S_V_MAPPED, "iodepth (numjobs in an rd with fwd=)"},
    {"rd", "elapsed", NULL, S_V_MAPPED, "runtime"},
    {"rd", "interval", NULL, S_V_MAPPED, "-"},
    {"rd", "warmup", NULL, S_V_MAPPED, "ramp"},
    {"rd", "forthreads", NULL, S_V_MAPPED, "sweep.iodepth"},
    {"rd", "forxfersize", "xfersize", S_V_MAPPED, "sweep.bs"},
    {"rd", "forrdpct", "rdpct", S_V_MAPPED, "sweep.rwmixread"},
    {"rd", "forseekpct", "seekpct", S_V_MAPPED, "steps[]"},
    {"rd", "curve", NULL, S_V_MAPPED, "sweep.curve"},
    {"rd", "distribution", NULL, S_V_MAPPED, "rate_process"},
    {"rd", "openflags", NULL, S_V_MAPPED, "direct"},
    {"rd", "pause", NULL, S_V_MAPPED, "start_delay, ramp (of the next step)"},
    {"rd", "hitarea", NULL, S_V_MAPPED, "the sds' hit area in its steps"},
    {"rd", "forcompratio", "compratio", S_V_MAPPED, "compress_pct"},
    {"rd", "stopcurve", NULL, S_V_DIFF, "a curve stopped at a response time has no equivalent"},
    {"rd", "startcmd", "start_cmd", S_V_INERT, "not run: vdbench runs it before the rd (run it yourself)"},
    {"rd", "endcmd", "end_cmd", S_V_INERT, "not run: vdbench runs it after the rd (run it yourself)"},
    {"rd", "forhitarea", NULL, S_V_MAPPED, "the sds' hit area in its steps"},
    {"rd", "forrhpct", NULL, S_V_DIFF, "a loop over read hit percentages has no equivalent (an rd per value)"},
    {"rd", "forwhpct", NULL, S_V_DIFF, "a loop over write hit percentages has no equivalent (an rd per value)"},
    {"rd", "fordepth", NULL, S_V_DIFF, "a run per tree shape: a volume keeps one tree (an fsd per value on its own anchor, an rd on each)"},
    {"rd", "forwidth", NULL, S_V_DIFF, "a run per tree shape: a volume keeps one tree (an fsd per value on its own anchor, an rd on each)"},
    {"rd", "forfiles", NULL, S_V_DIFF, "a run per tree shape: a volume keeps one tree (an fsd per value on its own anchor, an rd on each)"},
    {"rd", "forsizes", NULL, S_V_DIFF, "a run per file size: a volume keeps one tree (an fsd per value on its own anchor, an rd on each)"},
    {"rd", "fortotal", "fortotalsize", S_V_DIFF, "a run per totalsize: a volume keeps one subset (an fsd per value, an rd on each)"},
    {"rd", "forwss", "forworkingsetsize", S_V_DIFF, "a run per working set: a volume keeps one (an fsd per value, an rd on each)"},
    {"rd", "maxdata", NULL, S_V_MAPPED, "stop_bytes"},
    {"rd", "format", NULL, S_V_MAPPED, "fileset_format; a format step"},
    {"rd", "sd", NULL, S_V_MAPPED, "steps[] (the rd's own workloads)"},
    {"rd", "fwd", NULL, S_V_MAPPED, "steps[] (volume_workloads on file sets)"},
    {"rd", "fwdrate", NULL, S_V_MAPPED, "rate_iops"},
    {"rd", "operations", NULL, S_V_MAPPED, "rw or meta of its fwds (one operation; several at once have no equivalent)"},
    {"rd", "foroperations", NULL, S_V_MAPPED, "a step per operation: rw or meta"},
    {"fsd", "anchor", NULL, S_V_MAPPED, "volumes[].path"},
    {"fsd", "depth", NULL, S_V_MAPPED, "fileset.depth"},
    {"fsd", "width", NULL, S_V_MAPPED, "fileset.width"},
    {"fsd", "files", NULL, S_V_MAPPED, "fileset.files"},
    {"fsd", "sizes", "size", S_V_MAPPED, "fileset.sizes"},
    {"fsd", "distribution", NULL, S_V_MAPPED, "fileset.distribution"},
    {"fsd", "openflags", NULL, S_V_MAPPED, "direct, write_sync"},
    {"fsd", "shared", NULL, S_V_MAPPED, "fileset.share"},
    {"fsd", "totalsize", NULL, S_V_MAPPED, "fileset.totalsize"},
    {"fsd", "workingsetsize", "wss", S_V_MAPPED, "fileset.workingset"},
    {"fsd", "count", NULL, S_V_DIFF, "expected (first,number) of a sequence of fsds"},
    {"fwd", "fsd", NULL, S_V_MAPPED, "-"},
    {"fwd", "operation", NULL, S_V_MAPPED, "rw, or meta (mkdir, rmdir, create, delete, open, close, getattr, setattr, access)"},
    {"fwd", "rdpct", "readpct", S_V_MAPPED, "rw, rwmixread"},
    {"fwd", "fileio", NULL, S_V_MAPPED, "rw, file_shared"},
    {"fwd", "fileselect", NULL, S_V_MAPPED, "fileselect, fileselect_midpoint"},
    {"fwd", "xfersizes", "xfersize", S_V_MAPPED, "bs"},
    {"fwd", "threads", NULL, S_V_MAPPED, "numjobs, jobs"},
    {"fwd", "skew", NULL, S_V_MAPPED, "rate_iops (a share of fwdrate)"},
    {"fwd", "openflags", NULL, S_V_MAPPED, "direct, write_sync"},
    {"fwd", "host", "hd", S_V_MAPPED, "volumes[].agent"},
    {"fwd", "stopafter", NULL, S_V_MAPPED, "file_stopafter"},
};
/* clang-format on */

/* the row of key in definitions of kind def: exact, alias, then a unique abbreviation */
static const struct s_vkey *s_vkey_find(const char *def, const char *key)
{
	const struct s_vkey *hit = NULL;
	size_t i, n = strlen(key), found = 0;

	for (i = 0; i < sizeof(s_vkeys) / sizeof(s_vkeys[0]); i++) {
		const struct s_vkey *k = &s_vkeys[i];

		if (strcmp(k->def, def))
			continue;
		if (!strcmp(k->name, key) || (k->alias && !strcmp(k->alias, key)))
			return k;
		if (n >= 2 && !strncmp(k->name, key, n)) {
			hit = k;
			found++;
		}
	}
	return found == 1 ? hit : NULL;
}

/* each key as its full keyword (vdbench takes unique abbreviations and aliases) */
/*
 * count=(first,number) on an sd= or fsd=: vdbench's sequence of
 * definitions, the one written repeated number times, each named the name
 * with first, first+1, ... after it and with that number for each '$' of
 * its lun= (sd) or anchor= (fsd): fsd=fsd,anchor=/mnt/fs$,count=(1,4) is
 * fsd1../mnt/fs1 to fsd4../mnt/fs4. Expanded in place, before anything
 * reads the definitions; a count= that is no such pair is left for the
 * mapping to name.
 */
static int s_expand_count(struct bc_import_doc *p)
{
	int i, k, j;

	for (i = 0; i < p->nsecs; i++) {
		struct bc_import_sec *d = &p->secs[i], *grown, one;
		const char *what = !strcmp(d->kind, "sd") ? "lun" : "anchor";
		long first = -1, n = 0;
		int at = -1;
		char *end;

		if ((strcmp(d->kind, "sd") && strcmp(d->kind, "fsd")) || !d->name ||
		    !strcmp(d->name, "default"))
			continue;
		for (k = 0; k < d->nkv; k++)
			if (!strcmp(d->kv[k].key, "count") && d->kv[k].val) {
				const char *v = d->kv[k].val + (*d->kv[k].val == '(');

				at = k;
				first = strtol(v, &end, 10);
				if (end == v || *end != ',' || first < 0)
					first = -1;
				else
					n = strtol(end + 1, &end, 10);
				if (*end != ')' && *end)
					first = -1;
			}
		if (at < 0 || first < 0 || n < 1 || n > S_MAX_LIST || p->nsecs + n - 1 > S_MAX_DEFS)
			continue;
		one = *d;
		free(one.kv[at].key);
		free(one.kv[at].val);
		memmove(&one.kv[at], &one.kv[at + 1],
			(size_t)(one.nkv - at - 1) * sizeof(one.kv[0]));
		one.nkv--;
		grown = realloc(p->secs, (size_t)(p->nsecs + n - 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		p->secs = grown;
		memmove(&p->secs[i + n], &p->secs[i + 1],
			(size_t)(p->nsecs - i - 1) * sizeof(*grown));
		p->nsecs += (int)n - 1;
		for (j = 0; j < n; j++) {
			struct bc_import_sec *e = &p->secs[i + j];
			char num[24];

			snprintf(num, sizeof(num), "%ld", first + j);
			*e = one;
			e->kv = calloc((size_t)one.nkv ? (size_t)one.nkv : 1, sizeof(*e->kv));
			e->name = malloc(strlen(one.name) + strlen(num) + 1);
			if (!e->kv || !e->name) {
				free(e->kv);
				free(e->name);
				e->kv = NULL;
				e->name = NULL;
				e->nkv = 0;
				for (k = j + 1; k < n; k++)
					memset(&p->secs[i + k], 0, sizeof(p->secs[0]));
				goto fail;
			}
			sprintf(e->name, "%s%s", one.name, num);
			for (k = 0; k < one.nkv; k++) {
				const char *v = one.kv[k].val, *q;
				size_t len = v ? strlen(v) + 1 : 0;
				char *o;

				e->kv[k] = one.kv[k];
				e->kv[k].key = strdup(one.kv[k].key);
				if (v && !strcmp(one.kv[k].key, what))
					for (q = v; (q = strchr(q, '$')); q++)
						len += strlen(num);
				e->kv[k].val = v ? malloc(len) : NULL;
				if (!e->kv[k].key || (v && !e->kv[k].val)) {
					e->nkv = k + 1;
					for (j++; j < n; j++)
						memset(&p->secs[i + j], 0, sizeof(p->secs[0]));
					goto fail;
				}
				if (!v)
					continue;
				for (o = e->kv[k].val, q = v; *q; q++)
					if (*q == '$' && !strcmp(one.kv[k].key, what))
						o += sprintf(o, "%s", num);
					else
						*o++ = *q;
				*o = '\0';
			}
		}
		for (k = 0; k < one.nkv; k++) {
			free(one.kv[k].key);
			free(one.kv[k].val);
		}
		free(one.kv);
		free(one.name);
		i += (int)n - 1;
		continue;
	fail:
		for (k = 0; k < one.nkv; k++) {
			free(one.kv[k].key);
			free(one.kv[k].val);
		}
		free(one.kv);
		free(one.name);
		return -ENOMEM;
	}
	return 0;
}

static int s_canonical(struct bc_import_doc *p)
{
	int i, k;

	for (i = 0; i < p->nsecs; i++) {
		for (k = 0; k < p->secs[i].nkv; k++) {
			struct bc_import_kv *kv = &p->secs[i].kv[k];
			const struct s_vkey *vk = s_vkey_find(p->secs[i].kind, kv->key);
			char *full;

			if (!vk || !strcmp(vk->name, kv->key))
				continue;
			full = strdup(vk->name);
			if (!full)
				return -ENOMEM;
			free(kv->key);
			kv->key = full;
		}
	}
	return 0;
}

/* every pair of a definition is known, inert, or a difference */
static void s_classify(struct s_ctx *c, const struct bc_import_sec *d)
{
	int k;

	for (k = 0; k < d->nkv; k++) {
		const struct bc_import_kv *kv = &d->kv[k];
		const struct s_vkey *vk = s_vkey_find(d->kind, kv->key);

		if (!*d->kind && !strcmp(kv->key, "data_errors")) {
			bc_import_add(c->notes,
				      "%s:%d: data_errors=%s: bench-coord counts I/O errors "
				      "per class and never stops for them",
				      kv->src, kv->line, kv->val);
			continue;
		}
		if (!*d->kind && !strcmp(kv->key, "validate") && strcasecmp(kv->val, "yes") &&
		    strcasecmp(kv->val, "no")) {
			S_DIFF(c, kv, "validate=%s: yes or no", kv->val);
			continue;
		}
		if (vk && vk->kind == S_V_MAPPED)
			continue;
		if (vk && vk->kind == S_V_INERT) {
			bc_import_add(
			    c->notes, "%s:%d: %s=%s: %s", kv->src, kv->line, kv->key, kv->val,
			    vk->key ? vk->key
				    : "inert (reporting or how vdbench reaches its hosts)");
			continue;
		}
		if (vk)
			S_DIFF(c, kv, "%s=%s: %s", kv->key, kv->val, vk->key);
		else
			S_DIFF(c, kv, "%s=%s: no bench-coord equivalent%s%s%s", kv->key, kv->val,
			       *d->kind ? " in " : "", d->kind, *d->kind ? "=" : "");
	}
}

/* the hosts of hd= as agents; without hd= (or only localhost) the import's own agent */
static void s_hosts(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, cJSON *agents)
{
	struct s_view v;
	const char *sysname;
	int i, k;

	for (i = 0; i < p->nsecs && m->nhd < S_MAX_LIST; i++) {
		const struct bc_import_sec *d = &p->secs[i];
		const struct bc_import_kv *sys;
		struct s_hd *h;

		if (strcmp(d->kind, "hd") || !strcmp(d->name, "default"))
			continue;
		s_view_of(p, i, &v);
		sys = s_get(&v, "system");
		h = &m->hd[m->nhd];
		h->name = d->name;
		h->agent = m->nhd++;
		/* without system=, vdbench takes the hd's name for the host (HostParms) */
		sysname = sys ? sys->val : d->name;
		if (!strcmp(sysname, "localhost") || !strcmp(sysname, "127.0.0.1"))
			snprintf(h->endpoint, sizeof(h->endpoint), "%s", c->im->endpoint);
		else
			snprintf(h->endpoint, sizeof(h->endpoint), "tcp://%s:7470", sysname);
		/*
		 * several hds on one system are vdbench slaves on one host: one
		 * agent, whose volume of an sd on several of them is one
		 */
		for (k = 0; k < m->nhd - 1 && strcmp(m->hd[k].endpoint, h->endpoint); k++)
			;
		if (k < m->nhd - 1) {
			h->agent = m->hd[k].agent;
			bc_import_add(
			    c->notes,
			    "%s:%d: hd=%s: the same host as hd=%s (%s): one agent; vdbench "
			    "runs a slave per hd there, an sd on several of them is one "
			    "volume with the sd's threads",
			    d->src, d->line, d->name, m->hd[k].name, h->endpoint);
		} else if (strcmp(h->endpoint, c->im->endpoint))
			bc_import_add(
			    c->notes,
			    "%s:%d: hd=%s: agent %s at %s (run bench-agent there; trust its "
			    "key with bench-coord trust)",
			    d->src, d->line, d->name, d->name, h->endpoint);
	}
	if (!m->nhd) {
		m->hd_implicit = true;
		m->nhd = 1;
		m->hd[0].name = c->im->agent;
		snprintf(m->hd[0].endpoint, sizeof(m->hd[0].endpoint), "%s", c->im->endpoint);
	}
	for (i = 0; i < m->nhd; i++) {
		cJSON *a;
		char name[BC_NAME_MAX];

		if (m->hd[i].agent != i)
			continue;
		a = cJSON_CreateObject();
		bc_import_sanitize(m->hd[i].name, name, sizeof(name));
		cJSON_AddStringToObject(a, "name", name);
		cJSON_AddStringToObject(a, "endpoint", m->hd[i].endpoint);
		cJSON_AddItemToArray(agents, a);
	}
}

static bool s_name_in(const char *pat, const char *name);

/* host h shares its agent with a host before it that on[] selects too */
static bool s_same_agent(const struct s_map *m, const bool *on, int h)
{
	int k;

	for (k = 0; k < h; k++)
		if (on[k] && m->hd[k].agent == m->hd[h].agent)
			return true;
	return false;
}

/*
 * host i is named name: its hd= name, or "localhost" for the one host without
 * hd=; name may be a wildcard (hd*, hd1-hd4) as vdbench's Host.findSelectedHosts
 */
static bool s_host_is(const struct s_map *m, int i, const char *name)
{
	return s_name_in(name, m->hd[i].name) || (m->hd_implicit && !strcmp(name, "localhost"));
}

/* host= / hd= of an sd: which of m's hosts it is on (all without it) */
static void s_sd_hosts(struct s_ctx *c, const struct s_map *m, const struct bc_import_kv *kv,
		       bool *on)
{
	char buf[1024], *items[S_MAX_LIST];
	int i, k, n;

	for (i = 0; i < m->nhd; i++)
		on[i] = !kv;
	if (!kv)
		return;
	n = s_list(kv->val, buf, sizeof(buf), items);
	for (k = 0; k < n; k++) {
		bool found = false;

		for (i = 0; i < m->nhd; i++)
			if (s_host_is(m, i, items[k]))
				on[i] = found = true;
		if (!found)
			S_DIFF(c, kv, "%s=%s: no hd=%s", kv->key, kv->val, items[k]);
	}
}

/*
 * openflags: o_direct / directio is O_DIRECT (directio_off the default,
 * buffered). On Linux vdbench passes o_sync, o_dsync and o_rsync alike as
 * 0x1000, O_DSYNC: every write waits for its data on stable storage, the
 * workload's write_sync "dsync"; fsync is one fsync() before the file is
 * closed, at the end of the run: end_fsync. Those two go into sync (a
 * volume's or a step's workload); where there is none (wd=) they are
 * differences, as is any other flag (a hex value, clear_cache). On a file
 * set (files: fsd=, fwd=) o_sync is the same write_sync, but fsync is a
 * difference: vdbench fsyncs each file it closes, each time a thread moves
 * on to another, and a file set's files stay open for the step.
 */
static bool s_openflags(struct s_ctx *c, const struct bc_import_kv *kv, cJSON *sync, bool files)
{
	char buf[256], *items[S_MAX_LIST];
	int k, n = s_list(kv->val, buf, sizeof(buf), items);
	bool direct = false;

	for (k = 0; k < n; k++) {
		const char *f = items[k];
		bool wsync = !strcasecmp(f, "o_sync") || !strcasecmp(f, "o_dsync") ||
			     !strcasecmp(f, "o_rsync");

		if (!strcasecmp(f, "o_direct") || !strcasecmp(f, "directio"))
			direct = true;
		else if (!strcasecmp(f, "directio_off"))
			continue;
		else if (files && !strcasecmp(f, "fsync"))
			S_DIFF(c, kv,
			       "openflags=%s: vdbench fsyncs each file as it closes it, whenever a "
			       "thread moves to another file; a file set's files stay open for "
			       "the step: no equivalent",
			       f);
		else if ((wsync || !strcasecmp(f, "fsync")) && !sync)
			S_DIFF(c, kv,
			       "openflags=%s: synchronous writes or a final fsync of one wd= "
			       "have no equivalent (on its sd= or the rd= they have)",
			       f);
		else if (wsync && !cJSON_GetObjectItem(sync, "write_sync"))
			cJSON_AddStringToObject(sync, "write_sync", "dsync");
		else if (!strcasecmp(f, "fsync") && !cJSON_GetObjectItem(sync, "end_fsync"))
			cJSON_AddBoolToObject(sync, "end_fsync", true);
		else if (!wsync && strcasecmp(f, "fsync"))
			S_DIFF(
			    c, kv,
			    "openflags=%s: no bench-coord equivalent (o_direct, directio, o_sync, "
			    "o_dsync, o_rsync and fsync have)",
			    f);
	}
	return direct;
}

/*
 * A lun= or anchor= written on Windows (the file ran there): 0 not a Windows
 * path (out is val); 1 a file or directory, out its last component, which
 * resolves in the agent's scratch directory as any relative name does; 2 a
 * file opened raw (\\.\c:\temp\file: unbuffered, O_DIRECT), out likewise;
 * -1 (why says what it is) a raw device (\\.\d:, \\.\PhysicalDrive1), a
 * network share (\\server\share) or a drive's root, which name nothing an
 * agent has.
 */
static int s_win_path(const char *val, char *out, size_t len, const char **why)
{
	const char *e, *b;

	snprintf(out, len, "%s", val);
	if (!strchr(val, '\\') && !(isalpha((unsigned char)val[0]) && val[1] == ':'))
		return 0;
	if (!strncmp(val, "\\\\.\\", 4) || !strncmp(val, "\\\\?\\", 4)) {
		const char *f = val + 4;

		/* a drive, then a path in it: a file, raw */
		if (isalpha((unsigned char)f[0]) && f[1] == ':' && (f[2] == '\\' || f[2] == '/') &&
		    s_win_path(f, out, len, why) == 1)
			return 2;
		snprintf(out, len, "%s", val);
		*why = "a Windows raw device";
		return -1;
	}
	if (!strncmp(val, "\\\\", 2)) {
		*why = "a Windows network share";
		return -1;
	}
	for (e = val + strlen(val); e > val && (e[-1] == '\\' || e[-1] == '/'); e--)
		;
	for (b = e; b > val && b[-1] != '\\' && b[-1] != '/' && b[-1] != ':'; b--)
		;
	if (b == e) {
		*why = "a Windows drive's root";
		return -1;
	}
	snprintf(out, len, "%.*s", (int)(e - b), b);
	return 1;
}

/*
 * A variable in a value, which vdbench fills in before it reads the file:
 * "$name" from its command line (vdbench -f FILE name=VALUE), "$host",
 * "!host" or "#host" by repeating the definition once per host. true with
 * why saying which and what to do; the value itself names nothing.
 */
static bool s_var(const char *val, char *why, size_t len)
{
	const char *p, *e;

	for (p = val; *p; p++) {
		if (*p != '$' && *p != '!' && *p != '#')
			continue;
		for (e = p + 1; isalnum((unsigned char)*e) || *e == '_'; e++)
			;
		if (e == p + 1 || (!isalpha((unsigned char)p[1]) && p[1] != '_'))
			continue;
		if ((e - p == 5 || (e - p == 6 && *p == '#')) && !strncmp(p + 1, "host", 4)) {
			snprintf(why, len,
				 "%.*s: vdbench repeats the definition once per host with the "
				 "host's name or number in its place; write a definition per host",
				 (int)(e - p), p);
			return true;
		}
		if (*p != '$')
			continue;
		snprintf(why, len,
			 "%.*s is a variable vdbench's command line fills in (vdbench -f FILE "
			 "%.*s=...); give it the same way (bench-coord import-vdbench FILE "
			 "%.*s=...)",
			 (int)(e - p), p, (int)(e - p - 1), p + 1, (int)(e - p - 1), p + 1);
		return true;
	}
	return false;
}

/*
 * An rd that would drive nothing is dropped: a difference, unless its sds
 * (fsds) were dropped already, whose own difference says why; then the rd
 * goes with them, a note, not a second difference for one cause
 */
static void s_rd_idle(struct s_ctx *c, const struct bc_import_sec *rd, bool refused,
		      const char *what)
{
	if (refused)
		bc_import_add(c->notes,
			      "%s:%d: rd=%s: its %s were refused (above); dropped with them",
			      rd->src, rd->line, rd->name, what);
	else
		bc_import_diff(c->diffs, rd->src, rd->line, "rd=%s: drives no volume (dropped)",
			       rd->name);
}

/*
 * fwd's fileselect=, read as vdbench reads its list: "random" or
 * "sequential" (or a prefix of either), "once", "poisson" (or "skewed":
 * random, skew 3), "midpoint=N" or a number N (the skew); the poisson draw
 * is vdbench's index in its file list, an exponential variate of mean
 * files / N wrapped at the number of files
 */
static void s_fileselect(struct s_ctx *c, const struct bc_import_kv *kv, cJSON *wl)
{
	char buf[256], *items[S_MAX_LIST], *end;
	bool rnd = false, once = false, bad = false;
	double mid = 0, x;
	int i, n = s_list(kv->val, buf, sizeof(buf), items);

	for (i = 0; i < n; i++) {
		const char *it = items[i];

		if (*it && !strncasecmp("random", it, strlen(it)))
			rnd = true;
		else if (*it && !strncasecmp("sequential", it, strlen(it)))
			rnd = false;
		else if (!strcasecmp(it, "once"))
			once = true;
		else if (!strcasecmp(it, "poisson") || !strcasecmp(it, "skewed"))
			rnd = true, mid = mid ? mid : BC_FILESEL_MIDPOINT;
		else if (!strncasecmp(it, "midpoint=", 9) && (x = strtod(it + 9, &end)) > 0 &&
			 !*end)
			rnd = true, mid = x;
		else if ((x = strtod(it, &end)) > 0 && !*end && end != it)
			mid = x;
		else
			bad = true;
	}
	if (bad || !n) {
		S_DIFF(c, kv,
		       "fileselect=%s: random, sequential, (sequential,once) or (poisson,N) "
		       "(sequentialnz and (random,once) have no equivalent)",
		       kv->val);
		return;
	}
	if (once && rnd) {
		S_DIFF(c, kv, "fileselect=%s: (random,once) has no equivalent", kv->val);
		return;
	}
	if (once) {
		/* every file once, in order, then the run ends: one pass */
		cJSON_AddBoolToObject(wl, "size_based", true);
		return;
	}
	if (!rnd)
		return; /* sequential: the default (a skew without random is unused, as in vdbench)
			 */
	if (!mid) {
		cJSON_AddStringToObject(wl, "fileselect", "random");
		return;
	}
	if (mid != floor(mid) || mid > 1000000) {
		S_DIFF(c, kv,
		       "fileselect=%s: a poisson midpoint of %g; the profile's is a whole number "
		       "from 1 to 1000000",
		       kv->val, mid);
		return;
	}
	cJSON_AddStringToObject(wl, "fileselect", "poisson");
	if (mid != BC_FILESEL_MIDPOINT)
		cJSON_AddNumberToObject(wl, "fileselect_midpoint", mid);
}

/* a volume of agent on path is made already */
static bool s_lun_taken(const cJSON *vols, const char *agent, const char *path)
{
	const cJSON *v;

	cJSON_ArrayForEach(
	    v, vols) if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "agent")), agent) &&
			 !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "path")), path) &&
			 strcmp(path, "null")) return true;
	return false;
}

/*
 * The path --lun gives sd name (its lun= lun, may be NULL): an entry
 * name=PATH, else one whose key is the lun= value (Windows names compared
 * without case, as Windows does); NULL when none does
 */
static const char *s_lun_given(struct s_ctx *c, const char *name, const struct bc_import_kv *lun)
{
	int i, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < c->im->nluns; i++) {
			const char *e = c->im->luns[i], *eq = strchr(e, '=');
			size_t n = (size_t)(eq - e);

			if (pass == 0
				? strlen(name) == n && !strncmp(e, name, n)
				: lun && strlen(lun->val) == n && !strncasecmp(e, lun->val, n)) {
				c->lun_used[i] = true;
				return eq + 1;
			}
		}
	return NULL;
}

/* a volume's "workload" object, made at the first use */
static cJSON *s_vol_wl(cJSON *vol)
{
	cJSON *w = cJSON_GetObjectItemCaseSensitive(vol, "workload");

	return w ? w : cJSON_AddObjectToObject(vol, "workload");
}

static void s_sds(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, cJSON *vols)
{
	cJSON *osync = NULL; /* the sd's openflags as workload keys (write_sync, end_fsync) */
	const cJSON *k;
	struct s_view v;
	int i, h;

	for (i = 0; i < p->nsecs; i++) {
		const struct bc_import_sec *d = &p->secs[i];
		const struct bc_import_kv *lun, *size, *off, *of;
		char path[1024];
		const char *why = NULL, *lunval;
		bool on[S_MAX_LIST];
		int win;
		struct s_sd *sd;
		uint64_t b, align;

		if (strcmp(d->kind, "sd") || !strcmp(d->name, "default"))
			continue;
		s_view_of(p, i, &v);
		sd = &m->sd[m->nsd++];
		sd->def = i;
		sd->name = d->name;
		sd->vol0 = m->nvol;
		sd->hitarea = 1 << 20;
		if (s_get(&v, "hitarea") && s_size(s_get(&v, "hitarea")->val, &sd->hitarea))
			S_DIFF(c, s_get(&v, "hitarea"), "hitarea=%s: not a size",
			       s_get(&v, "hitarea")->val);
		lun = s_get(&v, "lun");
		size = s_get(&v, "size");
		off = s_get(&v, "offset");
		of = s_get(&v, "openflags");
		sd->range = s_get(&v, "range");
		cJSON_Delete(osync);
		osync = cJSON_CreateObject();
		sd->direct = of && s_openflags(c, of, osync, false);
		lunval = s_lun_given(c, d->name, lun);
		if (lunval) {
			bc_import_add(c->notes, "%s:%d: sd=%s: lun=%s, as --lun says", d->src,
				      d->line, d->name, lunval);
			snprintf(path, sizeof(path), "%s", lunval);
			win = 0;
		} else if (!lun) {
			bc_import_diff(c->diffs, d->src, d->line,
				       "sd=%s: no lun= (give it: --lun %s=/dev/...)", d->name,
				       d->name);
			continue;
		} else if (s_var(lun->val, path, sizeof(path))) {
			S_DIFF(c, lun, "lun=%s: %s", lun->val, path);
			continue;
		} else
			win = s_win_path(lun->val, path, sizeof(path), &why);
		if (win < 0) {
			S_DIFF(c, lun,
			       "lun=%s: %s has no path on an agent; name the Linux device or "
			       "file: import-vdbench --lun '%s=/dev/...' (this sd) or --lun "
			       "'%s=/dev/...' (every sd on this lun)",
			       lun->val, why, d->name, lun->val);
			continue;
		}
		if (!lunval)
			lunval = lun->val;
		if (win)
			bc_import_add(c->notes,
				      "%s:%d: lun=%s: a Windows path; the file %s in the agent's "
				      "scratch directory%s",
				      lun->src, lun->line, lun->val, path,
				      win == 2 ? ", opened raw (direct)" : "");
		if (win == 2)
			sd->direct = true;
		else if (!win && lunval[0] != '/')
			bc_import_add(c->notes,
				      "%s:%d: lun=%s: a relative path resolves in the agent's "
				      "scratch directory",
				      lun ? lun->src : d->src, lun ? lun->line : d->line, lunval);
		/*
		 * align=: the boundary of the sd's random offsets instead of each
		 * transfer size, as fio's blockalign (a key of the volume's workload)
		 */
		align = 0;
		if (s_get(&v, "align") && (s_size(s_get(&v, "align")->val, &align) || !align ||
					   align % 512 || align > (1u << 30))) {
			S_DIFF(c, s_get(&v, "align"),
			       "align=%s: a multiple of 512 bytes up to 1g is what bench-coord "
			       "aligns to",
			       s_get(&v, "align")->val);
			align = 0;
		}
		/*
		 * threads= on an sd: its outstanding I/Os in the rds that give no
		 * threads= or forthreads= of their own (s_rd_step), as vdbench's
		 * RD_entry.getThreadsFromSdOrRd: the rd's when given, else the sd's
		 */
		if (s_get(&v, "threads")) {
			char *end;
			unsigned long t = strtoul(s_get(&v, "threads")->val, &end, 10);

			if (*end || !t || t > 4096)
				S_DIFF(c, s_get(&v, "threads"), "threads=%s: expected 1-4096",
				       s_get(&v, "threads")->val);
			else
				sd->threads = (unsigned)t;
		}
		s_sd_hosts(c, m, s_get(&v, "host") ? s_get(&v, "host") : s_get(&v, "hd"), on);
		for (h = 0; h < m->nhd; h++) {
			cJSON *vol;
			char name[BC_NAME_MAX];

			if (!on[h] || s_same_agent(m, on, h))
				continue;
			bc_import_sanitize(m->hd[m->hd[h].agent].name, name, sizeof(name));
			if (s_lun_taken(vols, name, path)) {
				bc_import_diff(c->diffs, lun ? lun->src : d->src,
					       lun ? lun->line : d->line,
					       "sd=%s: lun=%s on %s is another sd's too; vdbench "
					       "drives both (each its own range and threads), a "
					       "profile has one volume per file (dropped)",
					       d->name, lunval, name);
				continue;
			}
			vol = cJSON_CreateObject();
			cJSON_AddStringToObject(vol, "agent", name);
			cJSON_AddStringToObject(vol, "path", path);
			if (size) {
				if (s_size(size->val, &b))
					S_DIFF(c, size, "size=%s: not a size", size->val);
				else {
					sd->size = b;
					/* a device is not grown: vdbench uses its first size bytes
					 */
					cJSON_AddNumberToObject(
					    vol, strncmp(path, "/dev/", 5) ? "size" : "length",
					    (double)b);
				}
			}
			if (off) {
				if (s_size(off->val, &b))
					S_DIFF(c, off, "offset=%s: not a size", off->val);
				else
					cJSON_AddNumberToObject(vol, "offset", (double)b);
			}
			/* vdbench opens without O_DIRECT unless openflags says so (defaults) */
			if (sd->direct)
				cJSON_AddBoolToObject(s_vol_wl(vol), "direct", true);
			cJSON_ArrayForEach(k, osync)
			    cJSON_AddItemToObject(s_vol_wl(vol), k->string, cJSON_Duplicate(k, 1));
			if (align)
				cJSON_AddNumberToObject(s_vol_wl(vol), "blockalign", (double)align);
			cJSON_AddItemToArray(vols, vol);
			sd->nvol++;
			m->nvol++;
		}
	}
	cJSON_Delete(osync);
}

/* xfersize=4k, or the distribution (4k,50,8k,50): size/percent pairs */
static bool s_xfer(struct s_ctx *c, const struct bc_import_kv *kv, const char *val, char *out,
		   size_t len)
{
	char buf[1024], *items[S_MAX_LIST], sz[32];
	int k, n = s_list(val, buf, sizeof(buf), items);
	size_t used = 0;
	uint64_t b;
	double pct, sum = 0, share[S_MAX_LIST / 2];
	long ppm[S_MAX_LIST / 2], left = BC_SPLIT_ALL;
	bool frac = false;
	int i, j;

	if (n == 1) {
		if (s_size(items[0], &b) || !b) {
			S_DIFF(c, kv, "xfersize=%s: not a size", val);
			return false;
		}
		bc_fmt_size(b, out, len);
		return true;
	}
	if (n == 3) {
		/*
		 * (min,max,align): a size drawn uniformly between min and max, a
		 * multiple of align; with align = min that is the profile's range
		 * "min-max" (uniform over min's multiples)
		 */
		uint64_t lo, hi, al;

		if (s_size(items[0], &lo) || s_size(items[1], &hi) || s_size(items[2], &al) ||
		    !lo || hi <= lo || al != lo) {
			S_DIFF(c, kv,
			       "xfersize=%s: a size range whose align= is not its minimum has no "
			       "bench-coord equivalent (sizes are multiples of the minimum)",
			       val);
			return false;
		}
		snprintf(out, len, "%s-", bc_fmt_size(lo, sz, sizeof(sz)));
		used = strlen(out);
		snprintf(out + used, len > used ? len - used : 0, "%s",
			 bc_fmt_size(hi, sz, sizeof(sz)));
		return true;
	}
	if (n < 2 || n % 2) {
		S_DIFF(c, kv, "xfersize=%s: expected a size, size,percent pairs or (min,max,align)",
		       val);
		return false;
	}
	out[0] = '\0';
	for (k = 0; k < n; k += 2) {
		if (s_size(items[k], &b) || !b || !s_pct(items[k + 1], &pct)) {
			S_DIFF(c, kv, "xfersize=%s: expected size,percent pairs", val);
			return false;
		}
		share[k / 2] = pct;
		sum += pct;
	}
	if (fabs(sum - 100) > 1e-9) {
		S_DIFF(c, kv, "xfersize=%s: the percentages add up to %g, not 100", val, sum);
		return false;
	}
	/*
	 * a profile's split holds a percent to four decimals (millionths of
	 * the I/Os): vdbench's 4.5 and 41.05 exactly; a finer share is rounded
	 * to the nearest millionth (largest remainders keep the sum), a note
	 */
	for (i = 0; i < n / 2; i++) {
		ppm[i] = (long)floor(share[i] * BC_SPLIT_PCT1 + 1e-6);
		left -= ppm[i];
		frac |= fabs(share[i] * BC_SPLIT_PCT1 - (double)ppm[i]) > 1e-6;
		share[i] = share[i] * BC_SPLIT_PCT1 - (double)ppm[i]; /* the remainder */
	}
	for (; left > 0; left--) {
		for (j = 0, i = 1; i < n / 2; i++)
			if (share[i] > share[j])
				j = i;
		ppm[j]++;
		share[j] = -1; /* its remainder taken */
	}
	if (frac)
		bc_import_add(c->notes,
			      "%s:%d: xfersize=%s: shares finer than a millionth of the I/Os "
			      "rounded to millionths",
			      kv->src, kv->line, val);
	for (k = 0; k < n; k += 2) {
		char dec[8] = "";
		long f = ppm[k / 2] % BC_SPLIT_PCT1;

		s_size(items[k], &b);
		if (!ppm[k / 2]) {
			if (s_pct(items[k + 1], &pct) && pct > 0)
				S_DIFF(c, kv, "xfersize=%s: a share below a millionth of the I/Os",
				       val);
			continue;
		}
		if (f) {
			snprintf(dec, sizeof(dec), ".%04ld", f);
			for (i = (int)strlen(dec) - 1; dec[i] == '0'; i--)
				dec[i] = '\0';
		}
		used += (size_t)snprintf(out + used, len > used ? len - used : 0, "%s%s/%ld%s",
					 used ? ":" : "", bc_fmt_size(b, sz, sizeof(sz)),
					 ppm[k / 2] / BC_SPLIT_PCT1, dec);
	}
	return true;
}

/* rw from rdpct and seekpct: seekpct 0/seq/sequential/eof sequential, 100/random random */
/*
 * A seekpct word as vdbench's WD_entry.parseSeekpct reads it: any leading
 * part of "sequential" ('s': "seq", "s"), "eof" ('e'), of "random" ('r':
 * "rand") or of "poisson" ('p'); 0 for a number or anything else
 */
static char s_seek_word(const char *val)
{
	size_t n = strlen(val);

	if (!n)
		return 0;
	if (!strncasecmp("sequential", val, n) && n <= 10)
		return 's';
	if (!strcasecmp(val, "eof"))
		return 'e';
	if (!strncasecmp("random", val, n) && n <= 6)
		return 'r';
	if (!strncasecmp("poisson", val, n) && n <= 7)
		return 'p';
	return 0;
}

static bool s_seek(struct s_ctx *c, const struct bc_import_kv *kv, const char *val, bool *seq,
		   bool *eof)
{
	char w = s_seek_word(val);
	double d;

	*eof = false;
	/* -1 is eof, as vdbench documents it */
	if (w == 's' || w == 'e' || !strcmp(val, "-1")) {
		*seq = true;
		*eof = w != 's';
		return true;
	}
	if (w == 'r') {
		*seq = false;
		return true;
	}
	if (w == 'p') {
		S_DIFF(c, kv,
		       "seekpct=%s: seeks whose distances follow a Poisson distribution have no "
		       "equivalent (random is uniform over the range)",
		       val);
		return false;
	}
	if (!s_pct(val, &d)) {
		S_DIFF(c, kv, "seekpct=%s: expected 0-100, seq, random or eof", val);
		return false;
	}
	*seq = d == 0;
	return true;
}

/*
 * seekpct 1..99: that share of the I/Os seeks, the rest continue where the one
 * before ended: the profile's seq_pct (100 - seekpct), 0 for any other value;
 * a fraction of a percent is a difference named at kv
 */
static unsigned s_seek_seq_pct(struct s_ctx *c, const struct bc_import_kv *kv, const char *val)
{
	unsigned q;
	double sp;

	if (!s_pct(val, &sp) || sp <= 0 || sp >= 100)
		return 0;
	q = (unsigned)lround(100 - sp);
	if (fabs(100 - sp - q) > 1e-9)
		S_DIFF(c, kv, "seekpct=%s: whole percents only", val);
	return q;
}

/*
 * vdbench draws reads at the rdpct given (83.14); a profile's rwmixread
 * holds a percent to four decimals (millionths of the I/Os, as a split's
 * share): finer is a difference where it was read
 */
static bool s_rdpct_held(double rdpct)
{
	double m = rdpct * BC_SPLIT_PCT1;

	return fabs(m - round(m)) < 1e-6;
}

static double s_rdpct_profile(double rdpct)
{
	return round(rdpct * BC_SPLIT_PCT1) / BC_SPLIT_PCT1;
}

static void s_set_rw(cJSON *wl, double rdpct, bool seq)
{
	cJSON_DeleteItemFromObject(wl, "rw");
	cJSON_DeleteItemFromObject(wl, "rwmixread");
	if (rdpct >= 100) {
		cJSON_AddStringToObject(wl, "rw", seq ? "read" : "randread");
	} else if (rdpct <= 0) {
		cJSON_AddStringToObject(wl, "rw", seq ? "write" : "randwrite");
	} else {
		cJSON_AddStringToObject(wl, "rw", seq ? "rw" : "randrw");
		cJSON_AddNumberToObject(wl, "rwmixread", s_rdpct_profile(rdpct));
	}
}

/*
 * range=(a,b): percent of the sd, as a stream's region; values above 200
 * are bytes (range=(1g,2g)), as vdbench reads them. An end between 100 and
 * 200 wraps over the sd's end: no equivalent.
 */
static cJSON *s_range(struct s_ctx *c, const struct bc_import_kv *kv)
{
	char buf[256], *items[S_MAX_LIST], t[32];
	double a, b;
	uint64_t x, y;
	cJSON *r;

	if (s_list(kv->val, buf, sizeof(buf), items) != 2)
		goto bad;
	if (!s_size(items[1], &y) && y > 200) {
		if (s_size(items[0], &x) || x >= y)
			goto bad;
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "offset", bc_fmt_size(x, t, sizeof(t)));
		cJSON_AddStringToObject(r, "size", bc_fmt_size(y - x, t, sizeof(t)));
		return r;
	}
	if (!s_pct(items[0], &a) || !s_pct(items[1], &b) || b <= a)
		goto bad;
	r = cJSON_CreateObject();
	snprintf(t, sizeof(t), "%g%%", a);
	cJSON_AddStringToObject(r, "offset", t);
	snprintf(t, sizeof(t), "%g%%", b - a);
	cJSON_AddStringToObject(r, "size", t);
	return r;
bad:
	S_DIFF(c, kv,
	       "%s=%s: expected (start%%,end%%) within 0-100 or (start,end) in bytes above 200 "
	       "(a range wrapping over the end, up to 200%%, has no equivalent)",
	       kv->key, kv->val);
	return NULL;
}

/*
 * rhpct/whpct: the share of reads (writes) that hit vdbench's "cache", the
 * first hitarea bytes of the sd; the misses go to the rest of it (the miss
 * area). 0 (the default) is no hit; 100 of the ops a wd does keeps it in
 * the hit area; anything between is a mix that s_hit_streams maps.
 */
static void s_hits(struct s_ctx *c, const struct s_view *v, struct s_wd *w)
{
	const struct bc_import_kv *rh = s_get(v, "rhpct"), *wh = s_get(v, "whpct");
	double r = 0, x = 0;

	if (rh && !s_pct(rh->val, &r))
		S_DIFF(c, rh, "rhpct=%s: expected 0-100", rh->val);
	if (wh && !s_pct(wh->val, &x))
		S_DIFF(c, wh, "whpct=%s: expected 0-100", wh->val);
	if (!r && !x)
		return;
	/* rhpct of a wd without reads (whpct without writes) aims nothing at the hit area */
	if (!(w->rdpct > 0 && r) && !(w->rdpct < 100 && x)) {
		const struct bc_import_kv *kv = r ? rh : wh;

		bc_import_add(c->notes,
			      "%s:%d: %s=%s: inert (wd=%s does no %s; vdbench aims only those at "
			      "the hit area)",
			      kv->src, kv->line, kv->key, kv->val, w->name, r ? "reads" : "writes");
		return;
	}
	/* every op of the wd hits: its I/O stays in the hit area */
	if ((w->rdpct <= 0 || r == 100) && (w->rdpct >= 100 || x == 100)) {
		w->hit = 1;
		return;
	}
	w->hitmix = rh && r ? rh : wh;
	w->rh = r;
	w->wh = x;
}

/*
 * A wd alone on its sd with hits and misses mixed: one stream per class of
 * I/O, its share of the wd's I/Os - reads that hit (rdpct x rhpct) in the
 * hit area, reads that miss in the miss area, and the writes likewise with
 * whpct - each random over its area as vdbench draws hits and misses. rdpct
 * is the rd's forrdpct where it has one. NULL with a difference where it
 * cannot be: beside other wds, with a range, or not random.
 */
static cJSON *s_hit_streams(struct s_ctx *c, const struct s_map *m, int si, const struct s_wd *w,
			    const struct bc_import_sec *rd, double rdpct, bool seq)
{
	static const char *const names[4] = {"read_hit", "read_miss", "write_hit", "write_miss"};
	double share[4];
	cJSON *wl, *streams;
	char sz[32];
	int i;

	if (seq || w->seq_pct || w->range || m->sd[si].range ||
	    cJSON_GetObjectItem(w->wl, "size_based")) {
		S_DIFF(c, w->hitmix,
		       "%s=%s: hits and misses of a wd that is not random over its whole sd have "
		       "no equivalent",
		       w->hitmix->key, w->hitmix->val);
		return NULL;
	}
	share[0] = rdpct * w->rh / 100;
	share[1] = rdpct * (100 - w->rh) / 100;
	share[2] = (100 - rdpct) * w->wh / 100;
	share[3] = (100 - rdpct) * (100 - w->wh) / 100;
	wl = cJSON_CreateObject();
	streams = cJSON_AddArrayToObject(wl, "streams");
	for (i = 0; i < 4; i++) {
		cJSON *st, *r;
		const cJSON *k;

		if (share[i] <= 0)
			continue;
		st = cJSON_CreateObject();
		cJSON_AddStringToObject(st, "name", names[i]);
		cJSON_AddNumberToObject(st, "share", share[i]);
		cJSON_AddStringToObject(st, "rw", i < 2 ? "randread" : "randwrite");
		cJSON_ArrayForEach(k, w->wl) if (strcmp(k->string, "rw") &&
						 strcmp(k->string, "rwmixread") &&
						 strcmp(k->string, "direct"))
		    cJSON_AddItemToObject(st, k->string, cJSON_Duplicate(k, 1));
		r = cJSON_AddObjectToObject(st, "range");
		bc_fmt_size(m->sd[si].hitarea, sz, sizeof(sz));
		/* the hit area is the sd's first hitarea bytes, the miss area the rest */
		cJSON_AddStringToObject(r, "offset", i % 2 ? sz : "0");
		cJSON_AddStringToObject(r, "size", i % 2 ? "0" : sz);
		cJSON_AddItemToArray(streams, st);
	}
	if (cJSON_IsTrue(cJSON_GetObjectItem(w->wl, "direct")))
		cJSON_AddBoolToObject(wl, "direct", true);
	bc_import_add(c->notes,
		      "%s:%d: rd=%s: wd=%s: rhpct=%g, whpct=%g at rdpct %g: streams of %g%% read "
		      "hits in the first %s of sd=%s, %g%% read misses, %g%% write hits and %g%% "
		      "write misses in the rest",
		      rd->src, rd->line, rd->name, w->name, w->rh, w->wh, rdpct, share[0], sz,
		      m->sd[si].name, share[1], share[2], share[3]);
	return wl;
}

/*
 * name is in vdbench's pattern: itself, "*", a prefix with a trailing "*"
 * ("sd*", "OLTP1*": vdbench's only wildcard, case-sensitive; a "*" inside a
 * name is a character), or a range of numbered names ("sd1-sd12",
 * "fsd_h1-fsd_h4": the same prefix, no leading zeros)
 */
static bool s_name_in(const char *pat, const char *name)
{
	size_t np = strlen(pat), pre;
	const char *dash = strchr(pat, '-');
	char *end;
	long a, b, x;

	if (!strcmp(pat, name) || (np && pat[np - 1] == '*' && !strncmp(pat, name, np - 1)))
		return true;
	if (!dash || dash == pat)
		return false;
	/* the prefix: up to the first digit of the range's start */
	for (pre = 0; pat + pre < dash && !isdigit((unsigned char)pat[pre]); pre++)
		;
	if (pat + pre == dash || strncmp(pat, name, pre) || strncmp(pat, dash + 1, pre) ||
	    !isdigit((unsigned char)name[pre]))
		return false;
	a = strtol(pat + pre, &end, 10);
	if (end != dash)
		return false;
	b = strtol(dash + 1 + pre, &end, 10);
	if (*end)
		return false;
	x = strtol(name + pre, &end, 10);
	return !*end && name[pre] != '0' && x >= a && x <= b;
}

/*
 * The definitions a list kv names (s_name_in: names, "*", "prefix*",
 * "sd1-sd4") into out[] (indexes into names[], NULL names skipped), in the
 * list's order; a difference per item naming none (what: "sd", "wd", ...).
 * Returns the count, at most max.
 */
static int s_match(struct s_ctx *c, const struct bc_import_kv *kv, const char *what,
		   const char *const *names, int n, int *out, int max)
{
	char buf[1024], *items[S_MAX_LIST];
	int ni = s_list(kv->val, buf, sizeof(buf), items), no = 0, over = 0, k, j;

	for (k = 0; k < ni; k++) {
		int hit = 0;

		for (j = 0; j < n; j++)
			if (names[j] && s_name_in(items[k], names[j])) {
				if (no < max)
					out[no++] = j;
				else
					over++;
				hit++;
			}
		/* vdbench stops there too ("Could not find WD=... for RD=...") */
		if (!hit)
			S_DIFF(c, kv, "%s=%s: no such %s= (vdbench stops at it too)", what,
			       items[k], what);
	}
	if (over)
		S_DIFF(c, kv,
		       "%s=%s: names %d definitions; bench-coord maps at most %d (the rest "
		       "dropped)",
		       what, kv->val, no + over, max);
	return no;
}

/* s_match's definitions as flags on[] */
static void s_match_on(struct s_ctx *c, const struct bc_import_kv *kv, const char *what,
		       const char *const *names, int n, bool *on)
{
	int idx[S_MAX_DEFS], k, no = s_match(c, kv, what, names, n, idx, S_MAX_DEFS);

	for (k = 0; k < no; k++)
		on[idx[k]] = true;
}

/* the sds a "sd=" list names into on[] */
static void s_match_sds(struct s_ctx *c, const struct s_map *m, const struct bc_import_kv *kv,
			bool *on)
{
	const char *names[S_MAX_DEFS];
	int j;

	for (j = 0; j < m->nsd; j++)
		names[j] = m->sd[j].name;
	s_match_on(c, kv, "sd", names, m->nsd, on);
}

/*
 * One workload: the wd d (or, rd >= 0, the workload rd d defines with its
 * own sd=) from the pairs in v, on the sds sdkv names.
 */
static void s_wd_one(struct s_ctx *c, struct s_map *m, const struct bc_import_sec *d,
		     const struct s_view *v, const struct bc_import_kv *sdkv, int def, int rd)
{
	const struct bc_import_kv *kv;
	char bs[512];
	struct s_wd *w;
	bool eof = false;

	if (m->nwd >= S_MAX_DEFS) {
		bc_import_diff(c->diffs, d->src, d->line, "%s=%s: more than %d workloads", d->kind,
			       d->name, S_MAX_DEFS);
		return;
	}
	w = &m->wd[m->nwd++];
	w->def = def;
	w->rd = rd;
	w->name = d->name;
	w->wl = cJSON_CreateObject();
	w->rdpct = 100; /* vdbench's defaults: all reads, all random, 4k */
	w->seq = false;
	w->skew = s_get_skew(v);
	/*
	 * hotband=(lo,hi) sets the range as range= does (the one written last
	 * wins, as in vdbench's WD_entry) and skews the random I/Os in it
	 */
	w->range = NULL;
	for (int k = 0; k < v->n; k++)
		if (!strcmp(v->kv[k]->key, "range") || !strcmp(v->kv[k]->key, "hotband"))
			w->range = v->kv[k];
	w->hotband = s_get(v, "hotband");
	w->iorate = rd < 0 ? s_get(v, "iorate") : NULL;
	/* a wd without sd= drives the sds of the rds that give sd= (s_rd_wds); others say so */
	if (!sdkv && rd < 0)
		w->nosd = true;
	else if (!sdkv)
		bc_import_diff(c->diffs, d->src, d->line, "wd=%s: no sd=", d->name);
	else
		s_match_sds(c, m, sdkv, w->sd);
	if ((kv = s_get(v, "rdpct")) && !s_pct(kv->val, &w->rdpct))
		S_DIFF(c, kv, "rdpct=%s: expected 0-100", kv->val);
	else if (kv && !s_rdpct_held(w->rdpct))
		S_DIFF(c, kv, "rdpct=%s: %g%% of reads in a profile (at most 4 decimals)", kv->val,
		       s_rdpct_profile(w->rdpct));
	if ((kv = s_get(v, "seekpct"))) {
		s_seek(c, kv, kv->val, &w->seq, &eof);
		w->seq_pct = s_seek_seq_pct(c, kv, kv->val);
	}
	s_set_rw(w->wl, w->rdpct, w->seq);
	if (w->seq_pct)
		cJSON_AddNumberToObject(w->wl, "seq_pct", w->seq_pct);
	s_hits(c, v, w);
	snprintf(bs, sizeof(bs), "4k");
	if ((w->xfer = s_get(v, "xfersize")))
		s_xfer(c, w->xfer, w->xfer->val, bs, sizeof(bs));
	cJSON_AddStringToObject(w->wl, "bs", bs);
	if (eof) {
		/* vdbench stops at end of file: one pass over the lun */
		cJSON_AddBoolToObject(w->wl, "size_based", true);
	}
	if ((kv = s_get(v, "openflags")) && s_openflags(c, kv, NULL, false))
		cJSON_AddBoolToObject(w->wl, "direct", true);
	if ((kv = s_get(v, "host") ? s_get(v, "host") : s_get(v, "hd"))) {
		bool on[S_MAX_LIST];
		int i, k, nd = cJSON_GetArraySize(c->diffs);

		/* every host (the one there is, or "*"): as without host= */
		s_sd_hosts(c, m, kv, on);
		for (i = 0, k = 0; i < m->nhd; i++)
			k += on[i];
		if (k < m->nhd && cJSON_GetArraySize(c->diffs) == nd)
			S_DIFF(c, kv,
			       "%s=%s on wd=: a workload on some of an sd's hosts has no "
			       "equivalent (set host= on the sd)",
			       kv->key, kv->val);
	}
}

/* the wds (not an rd's own) a "wd=" list names into wds[]; returns their count */
static int s_match_wds(struct s_ctx *c, const struct s_map *m, const struct bc_import_kv *kv,
		       int *wds)
{
	const char *names[S_MAX_DEFS];
	int j;

	for (j = 0; j < m->nwd; j++)
		names[j] = m->wd[j].rd < 0 ? m->wd[j].name : NULL;
	return s_match(c, kv, "wd", names, m->nwd, wds, S_MAX_LIST);
}

/*
 * An rd with sd= (vdbench's workload parameters in a run definition):
 * without wd= it runs one workload of the wd=default values set before it
 * on those sds; with wd= each of its wds runs on those sds instead of its
 * own. Either way the rd's own workloads, which its loops (xfersize=,
 * rdpct=, seekpct=, threads= as the for- forms) then vary.
 */
static void s_rd_wds(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, int i)
{
	const struct bc_import_sec *d = &p->secs[i];
	const struct bc_import_kv *sdkv, *wdkv;
	struct s_view v, dv;
	int wds[S_MAX_LIST], nw, k, j;

	s_view_of(p, i, &v);
	if (!(sdkv = s_get(&v, "sd")))
		return;
	if (!strcasecmp(sdkv->val, "single") || !strcasecmp(sdkv->val, "range") ||
	    !strncasecmp(sdkv->val, "setsof", 6)) {
		S_DIFF(c, sdkv,
		       "sd=%s: one run per sd or set of sds has no equivalent (write an rd for "
		       "each)",
		       sdkv->val);
		return;
	}
	if (!(wdkv = s_get(&v, "wd"))) {
		/* the wd=default pairs before the rd */
		dv.n = 0;
		for (j = 0; j < i; j++)
			if (!strcmp(p->secs[j].kind, "wd") && !strcmp(p->secs[j].name, "default"))
				for (k = 0; k < p->secs[j].nkv && dv.n < S_MAX_KV * 2; k++)
					dv.kv[dv.n++] = &p->secs[j].kv[k];
		s_wd_one(c, m, d, &dv, sdkv, i, i);
		return;
	}
	nw = s_match_wds(c, m, wdkv, wds);
	for (k = 0; k < nw; k++) {
		s_view_of(p, m->wd[wds[k]].def, &dv);
		s_wd_one(c, m, &p->secs[m->wd[wds[k]].def], &dv, sdkv, m->wd[wds[k]].def, i);
	}
}

static void s_wds(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m)
{
	struct s_view v;
	int i;

	for (i = 0; i < p->nsecs; i++) {
		const struct bc_import_sec *d = &p->secs[i];

		if (strcmp(d->kind, "wd") || !strcmp(d->name, "default"))
			continue;
		s_view_of(p, i, &v);
		s_wd_one(c, m, d, &v, s_get(&v, "sd"), i, -1);
	}
	for (i = 0; i < p->nsecs; i++)
		if (!strcmp(p->secs[i].kind, "rd") && strcmp(p->secs[i].name, "default"))
			s_rd_wds(c, p, m, i);
}

/* one loop of an rd: its key, the profile's, and its values */
struct s_loop {
	const struct bc_import_kv *kv;
	char buf[1024];
	char *v[S_MAX_LIST];
	char gen[S_MAX_LIST][32]; /* the values a range makes */
	int n;
};

/* a loop value: bytes for forxfersize (4k, 0.5k), else a number */
static bool s_loop_num(const struct s_loop *l, const char *v, double *out)
{
	uint64_t b;
	char *end;

	if (!strcmp(l->kv->key, "forxfersize")) {
		if (s_size(v, &b))
			return false;
		*out = (double)b;
		return true;
	}
	*out = strtod(v, &end);
	return end != v && !*end;
}

/*
 * The values of a loop as vdbench's Var_parms expands them: a list as
 * written, in which "a-b" followed by "d" doubles from a up to b (or halves
 * down to b: 64k-1k,d) and followed by a number n steps a, a+n, ... up to b;
 * sizes with their units (forxfersize=(4k-64k,d)). -1 with a difference.
 */
static int s_loop_values(struct s_ctx *c, struct s_loop *l)
{
	char *items[S_MAX_LIST];
	int k, n = s_list(l->kv->val, l->buf, sizeof(l->buf), items);
	bool xfer = !strcmp(l->kv->key, "forxfersize");

	if (n < 0) {
		S_DIFF(c, l->kv, "%s=%s: more than %d values", l->kv->key, l->kv->val, S_MAX_LIST);
		return -1;
	}
	l->n = 0;
	for (k = 0; k < n; k++) {
		char *dash = strchr(items[k], '-'), lo[32];
		double a, b, step = 0, x;
		bool dbl;

		if (!dash || dash == items[k] || strcmp(l->kv->key, "forseekpct") == 0) {
			if (l->n >= S_MAX_LIST)
				break;
			l->v[l->n++] = items[k];
			continue;
		}
		/* a range: its bounds, then its step */
		snprintf(lo, sizeof(lo), "%.*s", (int)(dash - items[k]), items[k]);
		dbl = k + 1 < n && !strcasecmp(items[k + 1], "d");
		if (!s_loop_num(l, lo, &a) || !s_loop_num(l, dash + 1, &b) || a < 0 || b < 0 ||
		    (dbl && (a <= 0 || b <= 0)) || k + 1 >= n ||
		    (!dbl && (!s_loop_num(l, items[k + 1], &step) || step <= 0))) {
			S_DIFF(c, l->kv, "%s=%s: not a range (a-b,d or a-b,step)", l->kv->key,
			       l->kv->val);
			return -1;
		}
		/*
		 * a-b,step with b below a: vdbench's Var_parms counts up from a by
		 * step while it stays at most b, so only a itself is run
		 */
		if (!dbl && b < a)
			bc_import_add(
			    c->notes,
			    "%s:%d: %s=%s: vdbench counts %s-%s upwards by %s, so it runs "
			    "%s alone",
			    l->kv->src, l->kv->line, l->kv->key, l->kv->val, lo, dash + 1,
			    items[k + 1], lo);
		for (x = a; x == a || (b >= a ? x <= b * (1 + 1e-12) : dbl && x >= b * (1 - 1e-12));
		     x = dbl ? (b >= a ? x * 2 : x / 2) : x + step) {
			if (l->n >= S_MAX_LIST) {
				S_DIFF(c, l->kv, "%s=%s: more than %d values", l->kv->key,
				       l->kv->val, S_MAX_LIST);
				return -1;
			}
			if (xfer && x != floor(x)) {
				S_DIFF(c, l->kv, "%s=%s: %g bytes is no whole size", l->kv->key,
				       l->kv->val, x);
				return -1;
			}
			if (xfer)
				bc_fmt_size((uint64_t)x, l->gen[l->n], sizeof(l->gen[l->n]));
			else
				snprintf(l->gen[l->n], sizeof(l->gen[l->n]), "%.15g", x);
			l->v[l->n] = l->gen[l->n];
			l->n++;
		}
		k++; /* the step */
	}
	return l->n;
}

/*
 * A stream draws its sizes from a split, not a range: xfersize=(min,max,align)
 * of a wd that became a stream (beside other wds, with range= or hits) is a
 * difference, its stream at the smallest size (so --lenient writes a valid
 * profile)
 */
static cJSON *s_stream_bs(struct s_ctx *c, const struct bc_import_sec *rd, cJSON *wl)
{
	cJSON *st;

	cJSON_ArrayForEach(st, cJSON_GetObjectItem(wl, "streams"))
	{
		const char *bs = cJSON_GetStringValue(cJSON_GetObjectItem(st, "bs"));
		char lo[32];

		if (!bs || !strchr(bs, '-'))
			continue;
		bc_import_diff(c->diffs, rd->src, rd->line,
			       "rd=%s: xfersize %s in a stream (%s: beside other workloads, with "
			       "range= or hits): a stream draws sizes from a split, not a range",
			       rd->name, bs, cJSON_GetStringValue(cJSON_GetObjectItem(st, "name")));
		snprintf(lo, sizeof(lo), "%.*s", (int)(strchr(bs, '-') - bs), bs);
		cJSON_ReplaceItemInObject(st, "bs", cJSON_CreateString(lo));
	}
	return wl;
}

/* the workload of volume vol (of sd si) in an rd with wds: one wd's keys, or streams */
static cJSON *s_volume_wl(struct s_ctx *c, const struct s_map *m, int si, const int *wds, int nw,
			  const struct bc_import_sec *rd, const char *bs_over, double rdpct_over,
			  const char *seek_over)
{
	const struct s_wd *on[S_MAX_LIST];
	cJSON *wl, *streams;
	double given = 0, left;
	int i, n = 0, unset = 0;

	for (i = 0; i < nw; i++)
		if (m->wd[wds[i]].sd[si] && n < S_MAX_LIST)
			on[n++] = &m->wd[wds[i]];
	if (!n)
		return NULL;
	for (i = 0; i < n; i++) {
		if (on[i]->skew)
			given += strtod(on[i]->skew->val, NULL);
		else
			unset++;
	}
	/* vdbench: workloads without skew= share what the others leave, equally */
	left = unset ? (100 - given) / unset : 0;
	for (i = 0; i < n; i++)
		if (on[i]->hitmix && n > 1) {
			S_DIFF(c, on[i]->hitmix,
			       "%s=%s: hits and misses of a wd beside other wds on sd=%s have no "
			       "equivalent",
			       on[i]->hitmix->key, on[i]->hitmix->val, m->sd[si].name);
			return cJSON_CreateObject(); /* refused: not idle */
		}
	for (i = 0; i < n; i++)
		if (on[i]->hotband && (on[i]->hitmix || on[i]->hit)) {
			S_DIFF(c, on[i]->hotband,
			       "hotband= with rhpct=/whpct=: vdbench's band is its misses' only; "
			       "hits and misses beside a hot band have no equivalent");
			return cJSON_CreateObject(); /* refused: not idle */
		}
	if (n == 1 && on[0]->hitmix) {
		const char *rw = cJSON_GetStringValue(cJSON_GetObjectItem(on[0]->wl, "rw"));
		bool seq = rw && !strstr(rw, "rand"), eof = false;

		if (seek_over)
			s_seek(c, rd->kv, seek_over, &seq, &eof);
		/* a forseekpct with a sequential share is not random over the sd either */
		if (seek_over && s_seek_seq_pct(c, rd->kv, seek_over))
			seq = true;
		wl = s_hit_streams(c, m, si, on[0], rd, rdpct_over >= 0 ? rdpct_over : on[0]->rdpct,
				   seq);
		if (wl && bs_over) {
			cJSON *st;

			cJSON_ArrayForEach(st, cJSON_GetObjectItem(wl, "streams"))
			{
				cJSON_DeleteItemFromObject(st, "bs");
				cJSON_AddStringToObject(st, "bs", bs_over);
			}
		}
		return wl ? s_stream_bs(c, rd, wl) : cJSON_CreateObject();
	}
	if (n == 1 && !on[0]->range && !m->sd[si].range) {
		wl = cJSON_Duplicate(on[0]->wl, 1);
		streams = NULL;
		if (on[0]->hit) {
			char sz[32];

			cJSON_AddStringToObject(wl, "window_length",
						bc_fmt_size(m->sd[si].hitarea, sz, sizeof(sz)));
		}
	} else {
		wl = cJSON_CreateObject();
		streams = cJSON_AddArrayToObject(wl, "streams");
		if (n > BC_STREAMS_MAX)
			bc_import_diff(c->diffs, rd->src, rd->line,
				       "rd=%s: %d workloads on sd=%s; bench-coord runs at most %d "
				       "streams on a volume",
				       rd->name, n, m->sd[si].name, BC_STREAMS_MAX);
	}
	/* each wd a stream: its own skew, xfersize, rdpct, range and seekpct (seq_pct) */
	for (i = 0; i < n && i < BC_STREAMS_MAX; i++) {
		cJSON *s = streams ? cJSON_CreateObject() : wl;
		const struct bc_import_kv *rg = on[i]->range ? on[i]->range : m->sd[si].range;

		if (streams) {
			char name[BC_NAME_MAX];
			const cJSON *k;

			bc_import_sanitize(on[i]->name, name, sizeof(name));
			cJSON_AddStringToObject(s, "name", name);
			cJSON_AddNumberToObject(
			    s, "share", on[i]->skew ? strtod(on[i]->skew->val, NULL) : left);
			cJSON_ArrayForEach(k, on[i]->wl) if (strcmp(k->string, "direct") &&
							     strcmp(k->string, "size_based"))
			    cJSON_AddItemToObject(s, k->string, cJSON_Duplicate(k, 1));
			if (cJSON_GetObjectItem(on[i]->wl, "size_based"))
				bc_import_diff(
				    c->diffs, rd->src, rd->line,
				    "rd=%s: seekpct=eof in wd=%s shares sd=%s with other "
				    "workloads; one pass applies to the whole volume",
				    rd->name, on[i]->name, m->sd[si].name);
			if (on[i]->hit) {
				/* the hit area: the first hitarea bytes of the sd */
				cJSON *r = cJSON_AddObjectToObject(s, "range");
				char sz[32];

				cJSON_AddStringToObject(r, "offset", "0");
				cJSON_AddStringToObject(
				    r, "size", bc_fmt_size(m->sd[si].hitarea, sz, sizeof(sz)));
			} else if (rg) {
				cJSON *r = s_range(c, rg);

				if (r)
					cJSON_AddItemToObject(s, "range", r);
			}
			cJSON_AddItemToArray(streams, s);
		}
		if (bs_over) {
			cJSON_DeleteItemFromObject(s, "bs");
			cJSON_AddStringToObject(s, "bs", bs_over);
		}
		if (rdpct_over >= 0 || seek_over) {
			const char *rw = cJSON_GetStringValue(cJSON_GetObjectItem(s, "rw"));
			double rp = rdpct_over >= 0 ? rdpct_over : on[i]->rdpct;
			bool seq = rw && !strstr(rw, "rand"), eof = false;

			if (seek_over)
				s_seek(c, rd->kv, seek_over, &seq, &eof);
			s_set_rw(s, rp, seq);
			/* forseekpct: the loop's value replaces the wd's sequential share too */
			if (seek_over) {
				unsigned q = s_seek_seq_pct(c, rd->kv, seek_over);

				cJSON_DeleteItemFromObject(s, "seq_pct");
				if (q)
					cJSON_AddNumberToObject(s, "seq_pct", q);
			}
		}
		/* vdbench draws only random I/Os from the band's curve; sequential ones walk it */
		if (on[i]->hotband) {
			const char *rw = cJSON_GetStringValue(cJSON_GetObjectItem(s, "rw"));

			if (rw && strstr(rw, "rand"))
				cJSON_AddStringToObject(s, "random_distribution", "hotband");
		}
	}
	if (streams && fabs(given + left * unset - 100) > 1e-6)
		bc_import_diff(c->diffs, rd->src, rd->line,
			       "rd=%s: the skews of the workloads on sd=%s add up to %g, not 100",
			       rd->name, m->sd[si].name, given + left * unset);
	for (i = 0; i < n && !cJSON_GetObjectItem(wl, "direct"); i++)
		if (cJSON_IsTrue(cJSON_GetObjectItem(on[i]->wl, "direct")))
			cJSON_AddBoolToObject(wl, "direct", true);
	return s_stream_bs(c, rd, wl);
}

static bool s_same(const cJSON *a, const cJSON *b)
{
	return cJSON_Compare(a, b, true);
}

/* the step of rd with one value of each loop; keyed "threads", "xfersize", "rdpct", "seekpct",
 * "iorate" */
struct s_point {
	/* oper: foroperations= or operations= (read, write, or a "meta" kind) */
	const char *threads, *xfer, *rdpct, *seek, *iorate, *oper;
	char suffix[256];
};

/*
 * maxdata=: vdbench ends the rd once the bytes read and written on all its
 * sds after the warmup pass it (checked at each interval's end); a value up
 * to 100 multiplies the size of the sds the rd uses. The step's stop_bytes
 * is the same count, checked every second; with an sd of unknown size the
 * multiple becomes stop_window_pct, which the coordinator resolves from the
 * windows the agents lay out. sd_bytes: those sizes, 0 when one is not
 * given.
 */
static void s_maxdata(struct s_ctx *c, const struct bc_import_kv *kv,
		      const struct bc_import_sec *rd, uint64_t sd_bytes, cJSON *st)
{
	char *end;
	double x = strtod(kv->val, &end);
	uint64_t b = 0;

	if (!*end && x > 0 && x <= 100) {
		if (!sd_bytes) {
			long pct = lround(x * 100);

			if (pct < 1) {
				S_DIFF(c, kv, "maxdata=%s: less than 1%% of the sds' size",
				       kv->val);
				return;
			}
			cJSON_AddNumberToObject(st, "stop_window_pct", (double)pct);
			bc_import_add(
			    c->notes,
			    "%s:%d: rd=%s: maxdata=%s: the step ends once its volumes read "
			    "and wrote %ld%% of their I/O windows added up after the ramp "
			    "(stop_window_pct; the windows as the agents find them), checked "
			    "every second where vdbench checks at the end of each interval%s",
			    kv->src, kv->line, rd->name, kv->val, pct,
			    fabs(x * 100 - (double)pct) > 1e-9 ? " (rounded to a whole percent)"
							       : "");
			return;
		}
		b = (uint64_t)(x * (double)sd_bytes);
	} else if (s_size(kv->val, &b) || !b) {
		S_DIFF(c, kv, "maxdata=%s: expected a size, or a multiple of the sds' size",
		       kv->val);
		return;
	}
	cJSON_AddNumberToObject(st, "stop_bytes", (double)b);
	bc_import_add(c->notes,
		      "%s:%d: rd=%s: maxdata=%s: the step ends once its volumes read and wrote "
		      "%llu bytes after the ramp (stop_bytes), checked every second where vdbench "
		      "checks at the end of each interval",
		      kv->src, kv->line, rd->name, kv->val, (unsigned long long)b);
}

/*
 * compratio=r / dedupratio=r as the percent of zeros per chunk or of
 * repeated units that gives r : 1 (100 - 100 / r), whole; a note where
 * rounding moves the ratio
 */
static bool s_ratio(struct s_ctx *c, const struct bc_import_kv *kv, long *pct)
{
	bool comp = kv->key[0] == 'c';
	char *end;
	double r = strtod(kv->val, &end);

	if (end == kv->val || *end || r < 1 || (comp && r > 100)) {
		S_DIFF(c, kv, "%s=%s: expected a ratio from 1%s", kv->key, kv->val,
		       comp ? " to 100" : "");
		return false;
	}
	*pct = lround(100 - 100 / r);
	/* verify's headers are the data written: no room for zeros or repeats */
	if (*pct && c->verify) {
		S_DIFF(c, kv,
		       "%s=%s with validate=yes: bench-coord verifies data it writes whole "
		       "(headers and CRC), so data reduction and verification have no equivalent "
		       "together (--lenient keeps validate)",
		       kv->key, kv->val);
		return false;
	}
	if (fabs(100 - 100 / r - (double)*pct) > 0.5 / r)
		bc_import_add(c->notes, "%s:%d: %s=%s: %ld%% %s, %.3f : 1", kv->src, kv->line,
			      kv->key, kv->val, *pct, comp ? "zeros" : "repeated units",
			      100 / (100 - (double)*pct));
	return true;
}

/* an rd's own compratio= (forcompratio= of one value): its step's writes' compress_pct */
static void s_rd_comp(struct s_ctx *c, const struct s_view *v, cJSON *st)
{
	const struct bc_import_kv *kv = s_get(v, "forcompratio");
	struct bc_import_kv one;
	long pct;

	if (!kv)
		return;
	if (c->comp) {
		/* one value of a forcompratio= loop (s_rds runs the rd once per value) */
		one = *kv;
		one.val = c->comp;
		kv = &one;
	}
	if (strchr(kv->val, ','))
		S_DIFF(c, kv,
		       "%s=%s: a loop over compression ratios has no equivalent (an rd per ratio)",
		       kv->key, kv->val);
	else if (s_ratio(c, kv, &pct))
		cJSON_AddNumberToObject(st, "compress_pct", (double)pct);
}

/* sd si is driven by one of the rd's workloads wds[nw] */
static bool s_sd_used(const struct s_map *m, int si, const int *wds, int nw)
{
	int i;

	for (i = 0; i < nw; i++)
		if (m->wd[wds[i]].sd[si])
			return true;
	return false;
}

/*
 * vdbench's arrivals at a rate (the rd's distribution=): exponential gaps
 * unless told otherwise, "poisson"; deterministic ones "linear"; NULL with
 * a difference for uniformly random gaps or a word vdbench does not know
 */
static const char *s_arrivals(struct s_ctx *c, const struct s_view *v)
{
	const struct bc_import_kv *kv = s_get(v, "distribution");

	if (!kv || !strcasecmp(kv->val, "exponential"))
		return "poisson";
	if (!strcasecmp(kv->val, "deterministic"))
		return "linear";
	if (strcasecmp(kv->val, "uniform"))
		S_DIFF(c, kv, "distribution=%s: exponential, uniform or deterministic", kv->val);
	else
		S_DIFF(c, kv,
		       "distribution=uniform: uniformly random gaps have no equivalent (poisson "
		       "or evenly spaced)");
	return NULL;
}

/*
 * iorate= on the one wd of sd si in an rd at iorate=max: vdbench runs that
 * workload at its own rate (WG_entry.wg_set_interarrival: a wd's iorate is
 * its arrival rate on each sd, the others share the rd's rate by skew), so
 * the volume's rate_iops. Every volume of such an rd states its rate (0:
 * none), so that the step's does not leak into another.
 */
static void s_wd_rate(struct s_ctx *c, const struct s_map *m, const struct bc_import_sec *rd,
		      const struct s_view *v, const int *wds, int nw, int si, const char *rd_rate,
		      cJSON *wl)
{
	const struct s_wd *w = NULL;
	const char *proc;
	int i, n = 0, nsd = 0;
	double r;

	for (i = 0; i < nw; i++)
		if (m->wd[wds[i]].sd[si]) {
			n++;
			if (m->wd[wds[i]].iorate)
				w = &m->wd[wds[i]];
		}
	cJSON_DeleteItemFromObject(wl, "rate_iops");
	cJSON_DeleteItemFromObject(wl, "rate_process");
	if (!w) {
		cJSON_AddNumberToObject(wl, "rate_iops", 0);
		cJSON_AddStringToObject(wl, "rate_process", "linear");
		return;
	}
	for (i = 0; i < m->nsd; i++)
		nsd += w->sd[i];
	r = strtod(w->iorate->val, NULL);
	if (rd_rate && strcasecmp(rd_rate, "max"))
		S_DIFF(c, w->iorate,
		       "iorate=%s on wd=%s in rd=%s at iorate=%s: vdbench gives the other "
		       "workloads what the wd rates leave, by skew; no equivalent",
		       w->iorate->val, w->name, rd->name, rd_rate);
	else if (n > 1)
		S_DIFF(c, w->iorate,
		       "iorate=%s on wd=%s beside other wds on sd=%s: a rate per stream has no "
		       "equivalent",
		       w->iorate->val, w->name, m->sd[si].name);
	else if (nsd > 1 || m->sd[si].nvol > 1)
		S_DIFF(c, w->iorate,
		       "iorate=%s on wd=%s over %d sds on %d hosts: how vdbench spreads it has no "
		       "equivalent (a wd of one sd on one host maps)",
		       w->iorate->val, w->name, nsd, m->sd[si].nvol);
	else if (!(r > 0) || r > 1e9 ||
		 strspn(w->iorate->val, "0123456789.") != strlen(w->iorate->val))
		S_DIFF(c, w->iorate, "iorate=%s: expected a rate in I/Os per second",
		       w->iorate->val);
	else if (r != floor(r))
		S_DIFF(c, w->iorate, "iorate=%s: a profile's rate is whole I/Os per second",
		       w->iorate->val);
	else if ((proc = s_arrivals(c, v))) {
		cJSON_AddNumberToObject(wl, "rate_iops", r);
		cJSON_AddStringToObject(wl, "rate_process", proc);
	}
}

static void s_rd_step(struct s_ctx *c, const struct s_map *m, const struct bc_import_sec *rd,
		      const struct s_view *v, const int *wds, int nw, const struct s_point *pt,
		      cJSON *sweep, double ramp, double runtime, cJSON *steps)
{
	cJSON *st = cJSON_CreateObject(), *vw = NULL, *base = NULL;
	char name[BC_NAME_MAX + 256], bs[512] = "";
	const struct bc_import_kv *kv;
	double rdpct = -1;
	unsigned long threads = 8;
	uint64_t sd_bytes = 0; /* the sizes of the sds the rd uses (maxdata <= 100) */
	bool sd_known = true, rd_threads;
	bool wd_rates = false; /* a wd of the rd has its own iorate= (s_wd_rate) */
	int nact = 0;	       /* the volumes the rd drives (the others idle in the step) */
	int ndropped = 0;      /* the sds it uses that a difference dropped (no volume) */
	int si, h;

	for (si = 0; si < nw; si++)
		wd_rates |= m->wd[wds[si]].iorate != NULL;
	if (pt->xfer && !s_xfer(c, rd->kv, pt->xfer, bs, sizeof(bs)))
		bs[0] = '\0';
	if (pt->rdpct && !s_pct(pt->rdpct, &rdpct)) {
		bc_import_diff(c->diffs, rd->src, rd->line, "rd=%s: rdpct %s: expected 0-100",
			       rd->name, pt->rdpct);
		rdpct = -1;
	} else if (pt->rdpct && !s_rdpct_held(rdpct)) {
		bc_import_diff(c->diffs, rd->src, rd->line,
			       "rd=%s: rdpct %s: %g%% of reads in a profile (at most 4 decimals)",
			       rd->name, pt->rdpct, s_rdpct_profile(rdpct));
	}
	snprintf(name, sizeof(name), "%s%s", rd->name, pt->suffix);
	{
		char clean[BC_NAME_MAX], uniq[BC_NAME_MAX];
		const cJSON *o;
		int n = 1;
		bool used;

		bc_import_sanitize(name, clean, sizeof(clean));
		/* vdbench runs rds of one name one after the other: the steps get -2, -3 ... */
		snprintf(uniq, sizeof(uniq), "%s", clean);
		do {
			used = false;
			cJSON_ArrayForEach(o, steps) used |=
			    !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(o, "name")), uniq);
			if (used)
				snprintf(uniq, sizeof(uniq), "%.*s-%d", BC_NAME_MAX - 8, clean,
					 ++n);
		} while (used && n < 10000);
		cJSON_AddStringToObject(st, "name", uniq);
	}
	/* threads: outstanding I/Os per sd, io_uring's iodepth on one job per volume */
	if ((kv = s_get(v, "threads")) || pt->threads) {
		const char *t = pt->threads ? pt->threads : kv->val;
		char *end;

		threads = strtoul(t, &end, 10);
		if (*end || !threads || threads > 4096) {
			bc_import_diff(c->diffs, rd->src, rd->line,
				       "rd=%s: threads=%s: expected 1-4096", rd->name, t);
			threads = 8;
		}
	}
	/*
	 * the rd's threads= or forthreads= when given, else each sd's, else
	 * vdbench's 8; an sd on several hosts has them round-robin over its
	 * hosts (RD_entry's spreadSdThreadsAcrossSlaves): each volume its share
	 */
	rd_threads = pt->threads || s_get(v, "threads") || s_get(v, "forthreads");
	c->split = false;
	for (si = 0; si < m->nsd; si++)
		c->split |= m->sd[si].nvol > 1 && s_sd_used(m, si, wds, nw);
	for (si = 0; si < m->nsd; si++) {
		cJSON *wl = s_volume_wl(c, m, si, wds, nw, rd, bs[0] ? bs : NULL, rdpct, pt->seek);
		unsigned long sdt = rd_threads		? threads
				    : m->sd[si].threads ? m->sd[si].threads
							: 8;

		if (!wl) {
			/* an sd the rd does not use: vdbench leaves it alone, the step too */
			for (h = 0; h < m->sd[si].nvol; h++) {
				char idx[16];

				if (!vw)
					vw = cJSON_CreateObject();
				snprintf(idx, sizeof(idx), "%d", m->sd[si].vol0 + h);
				cJSON_AddItemToObject(vw, idx, cJSON_CreateArray());
			}
			continue;
		}
		if (wd_rates)
			s_wd_rate(c, m, rd, v, wds, nw, si, pt->iorate, wl);
		nact += m->sd[si].nvol;
		ndropped += !m->sd[si].nvol;
		sd_bytes += m->sd[si].size;
		sd_known &= m->sd[si].size > 0;
		for (h = 0; h < m->sd[si].nvol; h++) {
			unsigned long n = (unsigned long)m->sd[si].nvol;
			unsigned long t = sdt / n + ((unsigned long)h < sdt % n);
			cJSON *one = cJSON_Duplicate(wl, 1);
			char idx[16];

			snprintf(idx, sizeof(idx), "%d", m->sd[si].vol0 + h);
			if (!rd_threads || c->split) {
				if (!t) {
					if (!vw)
						vw = cJSON_CreateObject();
					/* fewer threads than hosts: this one gets none */
					cJSON_AddItemToObject(vw, idx, cJSON_CreateArray());
					cJSON_Delete(one);
					continue;
				}
				cJSON_AddNumberToObject(one, "iodepth", (double)t);
			}
			if (!base) {
				base = one;
				continue;
			}
			if (s_same(one, base)) {
				cJSON_Delete(one);
				continue;
			}
			if (!vw)
				vw = cJSON_CreateObject();
			cJSON_AddItemToObject(vw, idx, one);
		}
		cJSON_Delete(wl);
	}
	if (!nact) {
		s_rd_idle(c, rd, ndropped > 0, "sds");
		cJSON_Delete(vw);
		cJSON_Delete(sweep);
		cJSON_Delete(st);
		return;
	}
	if (base) {
		const cJSON *k;

		cJSON_ArrayForEach(k, base)
		    cJSON_AddItemToObject(st, k->string, cJSON_Duplicate(k, 1));
		/* the base's keys are the step's: a volume override must restate what differs */
		cJSON_Delete(base);
	}
	/* the rd's threads alike on every volume; else each volume's own, the base's the step's */
	if (rd_threads && !cJSON_GetObjectItem(st, "iodepth"))
		cJSON_AddNumberToObject(st, "iodepth", (double)threads);
	cJSON_AddNumberToObject(st, "numjobs", 1);
	cJSON_AddNumberToObject(st, "ramp", ramp);
	cJSON_AddNumberToObject(st, "runtime", runtime);
	if ((kv = s_get(v, "maxdata")))
		s_maxdata(c, kv, rd, sd_known ? sd_bytes : 0, st);
	if (pt->iorate && strcasecmp(pt->iorate, "max") && strcasecmp(pt->iorate, "curve")) {
		char *end;
		double r = strtod(pt->iorate, &end);
		unsigned long per;

		if (*end || r <= 0 || !nact) {
			bc_import_diff(c->diffs, rd->src, rd->line,
				       "rd=%s: iorate=%s: expected max, curve or a rate", rd->name,
				       pt->iorate);
		} else {
			/* vdbench's iorate is the rd's total; bench-coord's limit is per volume */
			per = (unsigned long)llround(r / nact);
			if (!per)
				per = 1;
			/*
			 * a whole rate per volume: more than 1% off the total is a
			 * different load (iorate=100 over 64 volumes: 2 each, 128)
			 */
			if (fabs((double)per * nact - r) > 0.01 * r)
				bc_import_diff(c->diffs, rd->src, rd->line,
					       "rd=%s: iorate=%s over %d volumes is %.4g I/Os per "
					       "second each; a profile's rate is whole I/Os per "
					       "second per volume (%lu each: %lu in total)",
					       rd->name, pt->iorate, nact, r / nact, per,
					       per * (unsigned long)nact);
			cJSON_AddNumberToObject(st, "rate_iops", (double)per);
			if (nact > 1)
				bc_import_add(c->notes,
					      "%s:%d: rd=%s: iorate=%s is the total over %d "
					      "volumes: rate_iops %lu each",
					      rd->src, rd->line, rd->name, pt->iorate, nact, per);
			/* vdbench's arrivals at an iorate: exponential gaps unless told otherwise
			 */
			const char *proc = s_arrivals(c, v);

			if (proc && !strcmp(proc, "poisson"))
				cJSON_AddStringToObject(st, "rate_process", "poisson");
		}
	}
	if ((kv = s_get(v, "openflags")) && s_openflags(c, kv, st, false))
		cJSON_AddBoolToObject(st, "direct", true);
	s_rd_comp(c, v, st);
	if (vw)
		cJSON_AddItemToObject(st, "volume_workloads", vw);
	if (sweep)
		cJSON_AddItemToObject(st, "sweep", sweep);
	cJSON_AddItemToArray(steps, st);
}

/*
 * A lone loop the profile can sweep: forthreads (iodepth), forxfersize (bs),
 * forrdpct (rwmixread of a mix: 0 all writes, 100 all reads) and forseekpct
 * of sequential or random values (rw); seekpct=eof is a one-pass step, which
 * a sweep of rw cannot carry.
 */
static bool s_sweepable(const struct s_loop *l)
{
	const char *key = l->kv->key;
	double d;
	int i;

	if (!strcmp(key, "forthreads") || !strcmp(key, "forxfersize"))
		return true;
	for (i = 0; i < l->n; i++) {
		const char *v = l->v[i];

		if (!strcmp(key, "forrdpct") && !s_pct(v, &d))
			return false;
		if (!strcmp(key, "forseekpct") && s_seek_word(v) != 's' && s_seek_word(v) != 'r' &&
		    (!s_pct(v, &d) || (d != 0 && d != 100)))
			return false;
	}
	return !strcmp(key, "forrdpct") || !strcmp(key, "forseekpct");
}

/* rw's sequential or random form for seekpct value v ("randwrite", "write", ...) */
static const char *s_rw_seek(const char *rw, const char *v, char *buf, size_t len)
{
	const char *kind = strncmp(rw, "rand", 4) ? rw : rw + 4;
	bool seq = s_seek_word(v) == 's' || !strcmp(v, "0");

	snprintf(buf, len, "%s%s", seq ? "" : "rand", kind);
	return buf;
}

/*
 * The sweep of the lone loop l on the step st just built; false when the
 * step cannot carry it: a rw or rwmixread sweep changes the step's
 * workload only, so not streams (several wds on an sd, ranges), volumes
 * with workloads of their own, or (forrdpct) a step without a mix.
 */
static bool s_loop_sweep(struct s_ctx *c, const struct s_loop *l, cJSON *st)
{
	const char *key = l->kv->key, *rw = cJSON_GetStringValue(cJSON_GetObjectItem(st, "rw"));
	bool thr = !strcmp(key, "forthreads"), xfer = !strcmp(key, "forxfersize");
	bool rdpct = !strcmp(key, "forrdpct");
	cJSON *sweep, *arr;
	int k;

	/* a sweep of iodepth cannot carry threads spread over an sd's hosts */
	if (thr && c->split)
		return false;
	if (!thr && !xfer &&
	    (!rw || cJSON_GetObjectItem(st, "streams") ||
	     cJSON_GetObjectItem(st, "volume_workloads") ||
	     (rdpct && !cJSON_GetObjectItem(st, "rwmixread"))))
		return false;
	sweep = cJSON_AddObjectToObject(st, "sweep");
	arr = cJSON_AddArrayToObject(sweep, thr	    ? "iodepth"
					    : xfer  ? "bs"
					    : rdpct ? "rwmixread"
						    : "rw");
	for (k = 0; arr && k < l->n; k++) {
		char buf[512];
		double d = 0;

		if (thr)
			cJSON_AddItemToArray(arr, cJSON_CreateNumber(strtod(l->v[k], NULL)));
		else if (xfer && s_xfer(c, l->kv, l->v[k], buf, sizeof(buf)))
			cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
		else if (rdpct && s_pct(l->v[k], &d)) {
			if (!s_rdpct_held(d))
				S_DIFF(c, l->kv, "forrdpct=%s: %g%% of reads is %g%% in a profile",
				       l->kv->val, d, s_rdpct_profile(d));
			cJSON_AddItemToArray(arr, cJSON_CreateNumber(s_rdpct_profile(d)));
		} else if (!thr && !xfer && !rdpct)
			cJSON_AddItemToArray(
			    arr, cJSON_CreateString(s_rw_seek(rw, l->v[k], buf, sizeof(buf))));
	}
	return true;
}

/* drop what a trial left in list past its first n items */
static void s_truncate(cJSON *list, int n)
{
	while (cJSON_GetArraySize(list) > n)
		cJSON_DeleteItemFromArray(list, n);
}

/* ---- file system definitions and workloads (fsd=, fwd=, rd= with fwd=) ---- */

static void s_rd_times(struct s_ctx *c, const struct bc_import_sec *d, const struct s_view *v,
		       double *ramp, double *runtime);

/* fsd= sizes=: one size, size/percent pairs, or (n,0) for an average; NULL with a difference */
static cJSON *s_fsd_sizes(struct s_ctx *c, const struct bc_import_kv *kv, uint64_t *avg)
{
	char buf[1024], *items[S_MAX_LIST];
	int n = s_list(kv->val, buf, sizeof(buf), items), k;
	double pct, sum = 0, mean = 0;
	cJSON *arr;
	uint64_t b;

	if (n == 1) {
		if (s_size(items[0], &b) || !b || b % 512) {
			S_DIFF(c, kv, "%s=%s: a file size in multiples of 512 bytes", kv->key,
			       kv->val);
			return NULL;
		}
		*avg = b;
		return cJSON_CreateNumber((double)b);
	}
	if (n < 2 || n % 2) {
		S_DIFF(c, kv, "%s=%s: expected a size or size,percent pairs", kv->key, kv->val);
		return NULL;
	}
	arr = cJSON_CreateArray();
	for (k = 0; k < n; k += 2) {
		cJSON *e;

		if (s_size(items[k], &b) || !b || b % 512 || !s_pct(items[k + 1], &pct) ||
		    pct != floor(pct)) {
			S_DIFF(c, kv,
			       "%s=%s: expected sizes in multiples of 512 bytes, each with a whole "
			       "percent",
			       kv->key, kv->val);
			cJSON_Delete(arr);
			return NULL;
		}
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "size", (double)b);
		cJSON_AddNumberToObject(e, "pct", pct);
		cJSON_AddItemToArray(arr, e);
		sum += pct;
		mean += (double)b * pct / 100;
	}
	if (n == 2 && sum == 0) {
		/* (n,0): vdbench's average size */
		*avg = b;
		bc_import_add(c->notes,
			      "%s:%d: %s=%s: sizes drawn uniformly around an average of %s (n/2 to "
			      "3n/2), rounded as vdbench rounds them",
			      kv->src, kv->line, kv->key, kv->val, items[0]);
		return arr;
	}
	if (n / 2 > BC_FILESET_SIZES_MAX || fabs(sum - 100) > 1e-9) {
		S_DIFF(c, kv, "%s=%s: %s", kv->key, kv->val,
		       n / 2 > BC_FILESET_SIZES_MAX ? "too many sizes"
						    : "the percentages do not add "
						      "up to 100");
		cJSON_Delete(arr);
		return NULL;
	}
	*avg = (uint64_t)mean;
	return arr;
}

/* the fsds by name (their volumes come once the fwds say which host runs them) */
static void s_fsd_defs(const struct bc_import_doc *p, struct s_map *m)
{
	int i;

	for (i = 0; i < p->nsecs && m->nfsd < S_MAX_DEFS; i++)
		if (!strcmp(p->secs[i].kind, "fsd") && strcmp(p->secs[i].name, "default")) {
			m->fsd[m->nfsd].def = i;
			m->fsd[m->nfsd].name = p->secs[i].name;
			memset(m->fsd[m->nfsd].vol, -1, sizeof(m->fsd[m->nfsd].vol));
			m->nfsd++;
		}
}

/* the fsds a "fsd=" list names into on[] */
static void s_match_fsds(struct s_ctx *c, const struct s_map *m, const struct bc_import_kv *kv,
			 bool *on)
{
	const char *names[S_MAX_DEFS];
	int j;

	for (j = 0; j < m->nfsd; j++)
		names[j] = m->fsd[j].name;
	s_match_on(c, kv, "fsd", names, m->nfsd, on);
}

/*
 * fwd= stopafter=: nn transfers (of its one xfersize) or nn% of the file
 * done before the next file; a sequential visit goes on where the last
 * stopped
 */
static void s_stopafter(struct s_ctx *c, const struct bc_import_kv *kv, const char *bs, cJSON *wl)
{
	size_t n = strlen(kv->val);
	uint64_t b;
	char *end, t[32];
	double pct;
	unsigned long count;

	if (n > 1 && kv->val[n - 1] == '%') {
		snprintf(t, sizeof(t), "%.*s", (int)(n - 1), kv->val);
		if (!s_pct(t, &pct) || pct <= 0) {
			S_DIFF(c, kv, "stopafter=%s: a percent of the file, above 0", kv->val);
			return;
		}
		snprintf(t, sizeof(t), "%g%%", pct);
		cJSON_AddStringToObject(wl, "file_stopafter", t);
		return;
	}
	count = strtoul(kv->val, &end, 10);
	if (*end || !count || strchr(bs, '/') || s_size(bs, &b)) {
		S_DIFF(c, kv,
		       "stopafter=%s: a count of transfers of one xfersize, or a percent "
		       "(transfers of a size distribution have no byte count)",
		       kv->val);
		return;
	}
	cJSON_AddNumberToObject(wl, "file_stopafter", (double)(count * b));
}

/*
 * vdbench's file system operation op as the profile's "meta" kind (the
 * same names); NULL for read and write (data I/O), and, with a difference
 * naming kv, for copy, move and what vdbench does not have
 */
static const char *s_meta_op(struct s_ctx *c, const struct bc_import_kv *kv, const char *op)
{
	static const char *const kinds[] = {"mkdir", "rmdir",	"create",  "delete", "open",
					    "close", "getattr", "setattr", "access", NULL};
	int k;

	if (!strcasecmp(op, "read") || !strcasecmp(op, "write"))
		return NULL;
	/* vdbench's create writes the file it makes to its size (its format is mkdir, create) */
	if (!strcasecmp(op, "create"))
		return "create_write";
	for (k = 0; kinds[k]; k++)
		if (!strcasecmp(op, kinds[k]))
			return kinds[k];
	S_DIFF(c, kv,
	       "%s=%s: %s has no equivalent (read, write, mkdir, rmdir, create, delete, open, "
	       "close, getattr, setattr and access have; copy and move do not)",
	       kv->key, kv->val, op);
	return NULL;
}

/*
 * fwd=: operation (read, write) or rdpct= a mix in each file; fileio the
 * kind (sequential: each file from its start to its end; random: its size
 * in random transfers, vdbench's stopafter default), (random,shared) lets
 * threads share a file; fileselect; xfersize(s); threads; skew; openflags
 */
/*
 * fwd=format is no workload: vdbench's format runs take its threads=, its
 * first xfersize= and its openflags= (FwdEntry, RD_entry's
 * setFormatOperation), and nothing else of it
 */
static void s_fwd_format(struct s_ctx *c, const struct bc_import_sec *d, const struct s_view *v,
			 struct s_map *m)
{
	const struct bc_import_kv *kv;
	char buf[256], *items[S_MAX_LIST];
	uint64_t b;
	int k;

	if ((kv = s_get(v, "threads"))) {
		char *end;
		unsigned long t = strtoul(kv->val, &end, 10);

		if (*end || !t || t > 1024)
			S_DIFF(c, kv, "threads=%s: expected 1-1024", kv->val);
		else
			m->fmt_threads = (unsigned)t;
	}
	if ((kv = s_get(v, "xfersizes"))) {
		if (s_list(kv->val, buf, sizeof(buf), items) < 1 || s_size(items[0], &b) || !b ||
		    b % 512)
			S_DIFF(c, kv, "xfersize=%s: a multiple of 512 bytes first", kv->val);
		else
			bc_fmt_size(b, m->fmt_bs, sizeof(m->fmt_bs));
	}
	if ((kv = s_get(v, "openflags")))
		m->fmt_direct = s_openflags(c, kv, NULL, true);
	bc_import_add(c->notes,
		      "%s:%d: fwd=format: the threads, size and flags of the format=only steps "
		      "(%u threads of %s on each file set); a format=yes or restart tree is "
		      "written by the agent at PREPARE its own way, the same files",
		      d->src, d->line, m->fmt_threads, m->fmt_bs);
	for (k = 0; k < d->nkv; k++)
		if (strcmp(d->kv[k].key, "threads") && strcmp(d->kv[k].key, "xfersizes") &&
		    strcmp(d->kv[k].key, "openflags"))
			bc_import_add(c->notes,
				      "%s:%d: fwd=format: %s=%s: inert (vdbench's format runs use "
				      "only threads=, the first xfersize= and openflags=)",
				      d->kv[k].src, d->kv[k].line, d->kv[k].key, d->kv[k].val);
}

static void s_fwds(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m)
{
	char buf[256], *items[S_MAX_LIST], bs[512];
	const struct bc_import_kv *kv;
	struct s_view v;
	int i, n;

	for (i = 0; i < p->nsecs && m->nfwd < S_MAX_DEFS; i++) {
		const struct bc_import_sec *d = &p->secs[i];
		struct s_fwd *w;
		double rdpct = 100;
		bool seq = true, shared = false, mix = false;

		if (strcmp(d->kind, "fwd") || !strcmp(d->name, "default"))
			continue;
		s_view_of(p, i, &v);
		if (!strcmp(d->name, "format")) {
			s_fwd_format(c, d, &v, m);
			continue;
		}
		w = &m->fwd[m->nfwd++];
		w->def = i;
		w->name = d->name;
		w->wl = cJSON_CreateObject();
		w->threads = 1; /* vdbench's defaults: one thread, operation=read, sequential */
		w->skew = s_get_skew(&v);
		w->host = s_get(&v, "host") ? s_get(&v, "host") : s_get(&v, "hd");
		w->hd = -1;
		if (w->host) {
			for (n = 0; n < m->nhd && !s_host_is(m, n, w->host->val); n++)
				;
			if (n < m->nhd)
				w->hd = m->hd[n].agent; /* the hd whose volumes its agent has */
			else
				S_DIFF(c, w->host, "%s=%s: no such hd= (one host per fwd)",
				       w->host->key, w->host->val);
		}
		if ((kv = s_get(&v, "fsd")))
			s_match_fsds(c, m, kv, w->fsd);
		else
			bc_import_diff(c->diffs, d->src, d->line, "fwd=%s: no fsd=", d->name);
		if ((kv = s_get(&v, "operation"))) {
			const char *meta = s_meta_op(c, kv, kv->val);

			if (!strcasecmp(kv->val, "write"))
				rdpct = 0;
			if (meta)
				cJSON_AddStringToObject(w->wl, "meta", meta);
		}
		if ((kv = s_get(&v, "rdpct"))) {
			if (!s_pct(kv->val, &rdpct) || !s_rdpct_held(rdpct))
				S_DIFF(c, kv, "rdpct=%s: expected 0-100 with at most 4 decimals",
				       kv->val);
			mix = true;
		}
		if ((kv = s_get(&v, "fileio"))) {
			n = s_list(kv->val, buf, sizeof(buf), items);
			if (n >= 1 && !strcasecmp(items[0], "random"))
				seq = false;
			else if (n < 1 || (strcasecmp(items[0], "sequential") &&
					   strcasecmp(items[0], "seq")))
				S_DIFF(c, kv,
				       "fileio=%s: sequential or random (sequentialnz has no "
				       "equivalent)",
				       kv->val);
			if (n == 2 && !seq && !strcasecmp(items[1], "shared"))
				shared = true;
			else if (n >= 2)
				S_DIFF(c, kv, "fileio=%s: only (random,shared) has an equivalent",
				       kv->val);
		}
		/* vdbench: rdpct= mixes reads and writes in the selected file */
		s_set_rw(w->wl, mix ? rdpct : rdpct >= 100 ? 100 : 0, seq);
		if ((kv = s_get(&v, "fileselect")))
			s_fileselect(c, kv, w->wl);
		if (shared)
			cJSON_AddBoolToObject(w->wl, "file_shared", true);
		snprintf(bs, sizeof(bs), "128k"); /* vdbench's file system default since 5.03 */
		if ((kv = s_get(&v, "xfersizes")))
			s_xfer(c, kv, kv->val, bs, sizeof(bs));
		cJSON_AddStringToObject(w->wl, "bs", bs);
		if ((kv = s_get(&v, "threads"))) {
			char *end;
			unsigned long t = strtoul(kv->val, &end, 10);

			if (*end || !t || t > 1024)
				S_DIFF(c, kv, "threads=%s: expected 1-1024", kv->val);
			else
				w->threads = (unsigned)t;
		}
		if ((kv = s_get(&v, "openflags")))
			cJSON_AddBoolToObject(w->wl, "direct", s_openflags(c, kv, w->wl, true));
		if ((kv = s_get(&v, "stopafter")))
			s_stopafter(c, kv, bs, w->wl);
	}
}

/* the hosts an fsd is on: those its fwds run on (host=, else every host), else the first */
static void s_fsd_hosts(const struct s_map *m, int fi, bool *on)
{
	int j, h, any = 0;

	for (h = 0; h < m->nhd; h++)
		on[h] = false;
	for (j = 0; j < m->nfwd; j++) {
		if (!m->fwd[j].fsd[fi])
			continue;
		for (h = 0; h < m->nhd; h++)
			if (m->fwd[j].hd < 0 || m->fwd[j].hd == h) {
				on[h] = true;
				any++;
			}
	}
	if (!any)
		on[0] = true;
}

/*
 * The "fileset" of fsd f's volume on the hi-th of the nh hosts it is on:
 * with shared=yes, that host's share, every nh-th file from the hi-th
 * (vdbench gives each slave every nth file, n the slaves; one per host);
 * totalsize=, split over the hosts as vdbench splits it (RD_entry divides
 * it by the fwd's hosts), its "totalsize". NULL with a difference when
 * validate would refuse it (totalsize more than the files hold: vdbench
 * stops at that too). workingsetsize= (wss) is split the same way, its
 * "workingset". f's bytes and files become the volume's.
 */
static cJSON *s_fsd_share(struct s_ctx *c, const struct bc_import_sec *d, struct s_fsd *f,
			  const cJSON *fs, int hi, int nh, uint64_t total, uint64_t wss)
{
	cJSON *vfs = cJSON_Duplicate(fs, 1), *o;
	struct bc_fileset_spec spec;
	struct bc_fileset_plan plan;
	char err[512], base[32];

	if (f->shared && nh > 1) {
		o = cJSON_AddObjectToObject(vfs, "share");
		cJSON_AddNumberToObject(o, "count", nh);
		cJSON_AddNumberToObject(o, "index", hi);
	}
	if (total)
		cJSON_AddNumberToObject(vfs, "totalsize", (double)(total / (uint64_t)nh));
	if (wss)
		cJSON_AddNumberToObject(vfs, "workingset", (double)(wss / (uint64_t)nh));
	if (!cJSON_GetObjectItem(vfs, "share") && !total && !wss)
		return vfs;
	snprintf(base, sizeof(base), "fsd=%.20s", d->name);
	if (bc_fileset_spec_from_json(vfs, base, &spec, err, sizeof(err))) {
		if (!hi)
			bc_import_diff(c->diffs, d->src, d->line, "%s", err);
		/* --lenient: the whole tree (or share), as if totalsize= and wss= were not there */
		cJSON_DeleteItemFromObject(vfs, "totalsize");
		cJSON_DeleteItemFromObject(vfs, "workingset");
		if ((!total && !wss) ||
		    bc_fileset_spec_from_json(vfs, base, &spec, err, sizeof(err))) {
			cJSON_Delete(vfs);
			return NULL;
		}
	}
	if (!hi && !bc_fileset_plan(&spec, &plan)) {
		f->bytes = plan.bytes;
		f->files = plan.nfiles;
		bc_fileset_plan_free(&plan);
	}
	return vfs;
}

/*
 * each fsd a volume with a "fileset" on each host its fwds run on (the same
 * anchor: a shared filesystem's one tree, or each host's own); refused ones
 * get none
 */
static void s_fsd_vols(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, cJSON *vols)
{
	static const char *const keys[] = {"depth", "width", "files"};
	struct s_view v;
	int i, k;

	for (i = 0; i < m->nfsd; i++) {
		struct s_fsd *f = &m->fsd[i];
		const struct bc_import_sec *d = &p->secs[f->def];
		const struct bc_import_kv *kv, *anchor;
		struct bc_fileset_spec spec;
		cJSON *vol, *fs, *sizes = NULL, *osync, *vfs;
		const cJSON *k2;
		uint64_t total = 0, wss = 0;
		int nh, hi;
		char name[BC_NAME_MAX], err[512], base[32], path[1024];
		const char *why = NULL;
		uint64_t avg = 0, nd, nf;
		bool ok = true, direct, on[S_MAX_LIST];
		int h, win;

		s_view_of(p, f->def, &v);
		anchor = s_get(&v, "anchor");
		if (!anchor) {
			bc_import_diff(c->diffs, d->src, d->line, "fsd=%s: no anchor=", d->name);
			continue;
		}
		win = s_var(anchor->val, path, sizeof(path))
			  ? -2
			  : s_win_path(anchor->val, path, sizeof(path), &why);
		if (win == -2) {
			S_DIFF(c, anchor, "anchor=%s: %s", anchor->val, path);
			ok = false;
		} else if (win < 0) {
			S_DIFF(c, anchor,
			       "anchor=%s: %s has no directory on an agent (name the Linux "
			       "directory, anchor=/mnt/...)",
			       anchor->val, why);
			ok = false;
		} else if (win) {
			bc_import_add(c->notes,
				      "%s:%d: anchor=%s: a Windows path; the directory %s in the "
				      "agent's scratch directory",
				      anchor->src, anchor->line, anchor->val, path);
		} else if (anchor->val[0] != '/') {
			bc_import_add(c->notes,
				      "%s:%d: anchor=%s: a relative path resolves in the agent's "
				      "scratch directory",
				      anchor->src, anchor->line, anchor->val);
		}
		fs = cJSON_CreateObject();
		for (k = 0; k < 3; k++) {
			char *end;
			unsigned long n;

			if (!(kv = s_get(&v, keys[k])))
				continue;
			n = strtoul(kv->val, &end, 10);
			if (*end || end == kv->val) {
				S_DIFF(c, kv, "%s=%s: expected a count", kv->key, kv->val);
				ok = false;
			} else {
				cJSON_AddNumberToObject(fs, keys[k], (double)n);
			}
		}
		if ((kv = s_get(&v, "distribution"))) {
			if (strcasecmp(kv->val, "bottom") && strcasecmp(kv->val, "all")) {
				S_DIFF(c, kv, "distribution=%s: bottom or all", kv->val);
				ok = false;
			} else {
				cJSON_AddStringToObject(fs, "distribution",
							strcasecmp(kv->val, "all") ? "bottom"
										   : "all");
			}
		}
		if (!(kv = s_get(&v, "sizes"))) {
			bc_import_diff(c->diffs, d->src, d->line, "fsd=%s: no size=", d->name);
			ok = false;
		} else if (!(sizes = s_fsd_sizes(c, kv, &avg))) {
			ok = false;
		} else {
			cJSON_AddItemToObject(fs, "sizes", sizes);
		}
		f->shared = (kv = s_get(&v, "shared")) && !strcasecmp(kv->val, "yes");
		/* what validate would say of it, said here at the fsd's line */
		snprintf(base, sizeof(base), "fsd=%.20s", d->name);
		if (ok && bc_fileset_spec_from_json(fs, base, &spec, err, sizeof(err))) {
			bc_import_diff(c->diffs, d->src, d->line, "%s", err);
			ok = false;
		}
		if (!ok) {
			cJSON_Delete(fs);
			continue;
		}
		bc_fileset_count(&spec, &nd, &nf);
		f->bytes = avg * nf;
		f->files = nf;
		osync = cJSON_CreateObject(); /* o_sync: each of its volumes' write_sync */
		direct = (kv = s_get(&v, "openflags")) && s_openflags(c, kv, osync, true);
		s_fsd_hosts(m, i, on);
		for (h = 0, nh = 0; h < m->nhd; h++)
			nh += on[h] && !s_same_agent(m, on, h);
		if ((kv = s_get(&v, "totalsize")) && (s_size(kv->val, &total) || !total)) {
			S_DIFF(c, kv, "totalsize=%s: not a size", kv->val);
			total = 0;
		}
		if ((kv = s_get(&v, "workingsetsize")) && (s_size(kv->val, &wss) || !wss)) {
			S_DIFF(c, kv, "workingsetsize=%s: not a size", kv->val);
			wss = 0;
		}
		for (h = 0, hi = 0; h < m->nhd; h++) {
			if (!on[h] || s_same_agent(m, on, h))
				continue;
			vfs = s_fsd_share(c, d, f, fs, hi++, nh, total, wss);
			if (!vfs)
				continue;
			bc_import_sanitize(m->hd[m->hd[h].agent].name, name, sizeof(name));
			if (s_lun_taken(vols, name, path)) {
				S_DIFF(c, anchor,
				       "fsd=%s: anchor=%s on %s is another volume's too (dropped)",
				       d->name, anchor->val, name);
				cJSON_Delete(vfs);
				continue;
			}
			vol = cJSON_CreateObject();
			cJSON_AddStringToObject(vol, "agent", name);
			cJSON_AddStringToObject(vol, "path", path);
			cJSON_AddItemToObject(vol, "fileset", vfs);
			if (direct)
				cJSON_AddBoolToObject(s_vol_wl(vol), "direct", true);
			cJSON_ArrayForEach(k2, osync) cJSON_AddItemToObject(
			    s_vol_wl(vol), k2->string, cJSON_Duplicate(k2, 1));
			cJSON_AddItemToArray(vols, vol);
			f->vol[h] = m->nvol++;
		}
		cJSON_Delete(osync);
		cJSON_Delete(fs);
	}
}

/*
 * rd= format=: no, restart (complete what is missing), yes (delete the
 * tree and build it anew), only (build it and stop), (restart,only), clean
 * (delete it and stop); the profile's "fileset_format" and, for only, a
 * step that writes every file once. 1: a format-only rd; 2: clean; -1: a
 * difference.
 */
static int s_format(struct s_ctx *c, const struct bc_import_kv *kv, bool *fresh)
{
	char buf[256], *items[S_MAX_LIST];
	int n = s_list(kv->val, buf, sizeof(buf), items), k, only = 0;
	bool restart = false, yes = false, clean = false;

	for (k = 0; k < n; k++) {
		if (!strcasecmp(items[k], "restart"))
			restart = true;
		else if (!strcasecmp(items[k], "yes"))
			yes = true;
		else if (!strcasecmp(items[k], "only"))
			only = 1;
		else if (!strcasecmp(items[k], "clean"))
			clean = true;
		else if (strcasecmp(items[k], "no")) {
			S_DIFF(c, kv,
			       "format=%s: %s has no equivalent (no, yes, restart, only and clean "
			       "have)",
			       kv->val, items[k]);
			return -1;
		}
	}
	if (clean)
		return 2; /* delete the tree and stop, whatever else is said */
	/* restart completes what is there; yes (alone, or with only) starts over */
	*fresh = !restart && (yes || only);
	return only;
}

/* the workload of fwd w on one of its fsds' volumes: its keys, threads and rate */
static cJSON *s_fwd_run(const struct s_fwd *w, unsigned threads, double rate)
{
	cJSON *wl = cJSON_Duplicate(w->wl, 1);

	cJSON_AddNumberToObject(wl, "iodepth", 1); /* vdbench's threads each do one I/O at once */
	cJSON_AddNumberToObject(wl, "jobs", threads);
	if (rate > 0)
		cJSON_AddNumberToObject(wl, "rate_iops", rate < 1 ? 1 : (double)llround(rate));
	return wl;
}

/*
 * a for-loop's value on a fwd's workload: forrdpct= mixes reads and writes
 * in each file (vdbench's FwgEntry readpct, the kind kept), forxfersize= the
 * transfer size (forthreads= is the rd's thread count, in s_fwd_step)
 */
static void s_fwd_point(const struct s_point *pt, cJSON *run)
{
	const char *rw = cJSON_GetStringValue(cJSON_GetObjectItem(run, "rw"));

	if (pt->rdpct)
		s_set_rw(run, strtod(pt->rdpct, NULL), !rw || strncmp(rw, "rand", 4));
	if (pt->xfer)
		cJSON_ReplaceItemInObject(run, "bs", cJSON_CreateString(pt->xfer));
	/* the rd's operation over the fwd's (vdbench's RD_entry operations): one kind */
	if (pt->oper) {
		bool seq = !rw || strncmp(rw, "rand", 4);

		cJSON_DeleteItemFromObject(run, "meta");
		if (!strcasecmp(pt->oper, "read") || !strcasecmp(pt->oper, "write"))
			s_set_rw(run, strcasecmp(pt->oper, "read") ? 0 : 100, seq);
		else
			cJSON_AddStringToObject(run, "meta", pt->oper);
	}
}

/*
 * fwdrate=curve: vdbench's curve, a max run and then runs at curve='s
 * percentages of its rate (10,50,70,80,90,100 by default): the step's
 * sweep curve, whose points give each volume an even share of the rate.
 * That is vdbench's split only when the rd drives every volume with one
 * workload each and no skew (one fwd over its fsds, or fwds on fsds of
 * their own); otherwise a difference.
 */
static void s_fwd_curve(struct s_ctx *c, const struct bc_import_sec *d, const struct s_view *v,
			const struct s_map *m, int nrun, bool skewed, cJSON *st)
{
	const struct bc_import_kv *kv = s_get(v, "curve");
	const char *cv = kv ? kv->val : "(10,50,70,80,90,100)";
	char buf[1024], *items[S_MAX_LIST];
	cJSON *sweep, *curve;
	int k, n;

	if (nrun != m->nvol || skewed) {
		bc_import_diff(c->diffs, d->src, d->line,
			       "rd=%s: fwdrate=curve with %s: a curve's points share the rate "
			       "evenly over every volume, one workload each",
			       d->name,
			       skewed ? "skew=" : "volumes idle or with several workloads");
		return;
	}
	n = s_list(cv, buf, sizeof(buf), items);
	curve = cJSON_CreateArray();
	for (k = 0; k < n; k++) {
		double pc;

		if (!s_pct(items[k], &pc) || !pc) {
			S_DIFF(c, kv, "curve=%s: expected percentages", cv);
			cJSON_Delete(curve);
			return;
		}
		cJSON_AddItemToArray(curve, cJSON_CreateNumber(pc));
	}
	sweep = cJSON_AddObjectToObject(st, "sweep");
	cJSON_AddItemToObject(sweep, "curve", curve);
}

/*
 * An rd with fwd=: one step; each fwd a workload on its fsd's volume
 * (several on one volume run at once, as vdbench runs them), its threads
 * the jobs driving it, fwdrate= the rate shared by skew, format= the
 * file set's fileset_format or a step that writes every file once
 */
static void s_fwd_step(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, int ri,
		       const struct s_view *v, const struct s_point *pt, cJSON *steps)
{
	static const char *const loops[] = {"forseekpct", "iorate", "curve", "wd", "sd"};
	const struct bc_import_kv *fr = s_get(v, "fwdrate");
	bool fcurve = fr && !strcasecmp(fr->val, "curve") && !pt->iorate;
	const struct bc_import_sec *d = &p->secs[ri];
	const struct bc_import_kv *kv, *fwdkv = s_get(v, "fwd"), *tkv = s_get(v, "threads");
	const char *names[S_MAX_DEFS];
	char name[BC_NAME_MAX];
	int on[S_MAX_LIST], non = 0, k, j, h, vi, only = 0, nrun = 0, nskew = 0;
	double rate = 0, given = 0, ramp, runtime;
	unsigned rd_threads = 0, maxthr = 1;
	uint64_t bytes = 0;
	bool fresh = false, skewed = false, flow;
	bool used[S_MAX_DEFS] = {false}, shared_said[S_MAX_DEFS] = {false};
	bool multi_said[S_MAX_DEFS] = {false};
	cJSON *st, *vw, *first = NULL;

	for (k = 0; k < (int)(sizeof(loops) / sizeof(loops[0])); k++)
		if ((kv = s_get(v, loops[k])) && !(fcurve && k == 2))
			S_DIFF(c, kv,
			       "%s=%s in an rd with fwd=: no equivalent (loops and block "
			       "workloads beside file system ones)",
			       kv->key, kv->val);
	for (j = 0; j < m->nfwd; j++)
		names[j] = m->fwd[j].name;
	non = s_match(c, fwdkv, "fwd", names, m->nfwd, on, S_MAX_LIST);
	if (!non)
		return;
	if (tkv || pt->threads) {
		const char *tv = pt->threads ? pt->threads : tkv->val;
		char *end;
		unsigned long t = strtoul(tv, &end, 10);

		if (*end || !t || t > 1024)
			S_DIFF(c, pt->threads ? s_get(v, "forthreads") : tkv,
			       "threads=%s: expected 1-1024", tv);
		else
			rd_threads =
			    (unsigned)t; /* vdbench: the rd's threads= overrides the fwds' */
	}
	/* the rate of this run: a fwdrate= list's value (s_fwd_rd), else the one given */
	if ((kv = s_get(v, "fwdrate")) && strcasecmp(pt->iorate ? pt->iorate : kv->val, "max") &&
	    !fcurve) {
		const char *rv = pt->iorate ? pt->iorate : kv->val;
		char *end;

		rate = strtod(rv, &end);
		if (*end || rate <= 0) {
			S_DIFF(c, kv,
			       "fwdrate=%s: %s: max, curve, operations per second or a list of "
			       "them",
			       kv->val, rv);
			rate = 0;
		}
	}
	if ((kv = s_get(v, "format")) && (only = s_format(c, kv, &fresh)) < 0)
		only = 0;
	if (only == 2) {
		/*
		 * clean: the tree deleted, no run; the next rd on each of its fsds
		 * starts from a fresh tree, which is what it would find
		 */
		for (k = 0; k < non; k++)
			for (j = 0; j < m->nfsd; j++)
				if (m->fwd[on[k]].fsd[j])
					m->fsd[j].clean = kv;
		bc_import_add(c->notes,
			      "%s:%d: rd=%s: format=%s: no step; the next step on its file sets "
			      "deletes their trees first (fileset_format fresh)",
			      d->src, d->line, d->name, kv->val);
		return;
	}
	for (k = 0; k < non; k++)
		if (m->fwd[on[k]].skew) {
			given += strtod(m->fwd[on[k]].skew->val, NULL);
			skewed = true;
			nskew++;
		}
	/*
	 * skew at fwdrate=max: the fwds' I/O counts kept in proportion (flow), as
	 * vdbench's shared work queue keeps the skew of an uncontrolled run
	 */
	flow = skewed && !rate && non > 1 && !only; /* a format run has no skew */
	if (skewed && (nskew == non ? fabs(given - 100) > 1e-6 : given > 100 + 1e-6))
		bc_import_diff(c->diffs, d->src, d->line,
			       "rd=%s: the skews of its fwds add up to %g, not 100", d->name,
			       given);
	s_rd_times(c, d, v, &ramp, &runtime);
	st = cJSON_CreateObject();
	snprintf(name, sizeof(name), "%s%s", d->name, pt->suffix);
	bc_import_sanitize(name, name, sizeof(name));
	cJSON_AddStringToObject(st, "name", name);
	vw = cJSON_CreateObject();
	/* every volume: its fwds' workloads, or idle */
	for (vi = 0; vi < m->nvol; vi++) {
		cJSON *runs = cJSON_CreateArray();
		char idx[16];
		bool direct = false, dset = false;

		for (j = 0; j < m->nfsd; j++) {
			for (h = 0; h < m->nhd && m->fsd[j].vol[h] != vi; h++)
				;
			if (h == m->nhd)
				continue;
			for (k = 0; k < non; k++) {
				const struct s_fwd *w = &m->fwd[on[k]];
				unsigned thr = rd_threads ? rd_threads : w->threads;
				double share, r;
				const cJSON *dj;
				cJSON *run;
				int nf = 0, nv = 0, nh, f, g;

				if (!w->fsd[j] || (w->hd >= 0 && w->hd != h))
					continue;
				/* its fsds, and its volumes: each (fsd, host) it runs on */
				for (f = 0; f < m->nfsd; f++) {
					nf += w->fsd[f];
					for (g = 0; w->fsd[f] && g < m->nhd; g++)
						nv += m->fsd[f].vol[g] >= 0 &&
						      (w->hd < 0 || w->hd == g);
				}
				/*
				 * vdbench spreads a fwd's threads over its fsds and the
				 * hosts it runs on (only a shared fsd may have several):
				 * RD_entry's max(1, threads / fsds / hosts), rounding down
				 */
				for (g = 0, nh = 0; g < m->nhd; g++)
					nh += m->fsd[j].vol[g] >= 0 && (w->hd < 0 || w->hd == g);
				thr = thr / (unsigned)nf / (unsigned)(nh > 1 ? nh : 1);
				if (!thr)
					thr = 1;
				if (nh > 1 && !m->fsd[j].shared && !multi_said[j]) {
					multi_said[j] = true;
					bc_import_diff(
					    c->diffs, d->src, d->line,
					    "rd=%s: fwd=%s on %d hosts on fsd=%s without "
					    "shared=yes: vdbench stops at it too (give "
					    "the fwd a host=, or the fsd shared=yes)",
					    d->name, w->name, nh, m->fsd[j].name);
				}
				/* a format run: fwd=format's threads on each (fsd, host) */
				if (only)
					thr = m->fmt_threads;
				if (!only && thr > m->fsd[j].files &&
				    !cJSON_IsTrue(cJSON_GetObjectItem(w->wl, "file_shared")))
					bc_import_diff(
					    c->diffs, d->src, d->line,
					    "rd=%s: fwd=%s: %u threads on the %llu files of "
					    "fsd=%s; vdbench needs a file per thread (a file "
					    "is used by one thread at a time)",
					    d->name, w->name, thr,
					    (unsigned long long)m->fsd[j].files, m->fsd[j].name);
				share = skewed ? (w->skew ? strtod(w->skew->val, NULL)
							  : (100 - given) / (non - nskew))
					       : 100.0 / non;
				/* the rd's rate is the total: this fwd's share, over its volumes */
				r = rate ? rate * share / 100 / nv : 0;
				run = s_fwd_run(w, thr, r);
				s_fwd_point(pt, run);
				if (flow)
					cJSON_AddNumberToObject(run, "flow",
								(double)(lround(share * 100) ?: 1));
				if (only) {
					/* the format: every file written once, in order */
					cJSON_DeleteItemFromObject(run, "rw");
					cJSON_DeleteItemFromObject(run, "rwmixread");
					cJSON_DeleteItemFromObject(run, "fileselect");
					cJSON_DeleteItemFromObject(run, "fileselect_midpoint");
					cJSON_DeleteItemFromObject(run, "file_shared");
					cJSON_DeleteItemFromObject(run, "rate_iops");
					cJSON_AddStringToObject(run, "rw", "write");
					cJSON_AddBoolToObject(run, "size_based", true);
					cJSON_ReplaceItemInObject(run, "bs",
								  cJSON_CreateString(m->fmt_bs));
					if (m->fmt_direct >= 0 && !s_get(v, "openflags")) {
						cJSON_DeleteItemFromObject(run, "direct");
						cJSON_AddBoolToObject(run, "direct",
								      m->fmt_direct > 0);
					}
				}
				if (fresh || m->fsd[j].clean)
					cJSON_AddStringToObject(run, "fileset_format", "fresh");
				/*
				 * a metadata operation without format= (or format=no)
				 * works the tree as it is, so a mkdir or create has what
				 * is missing to make (vdbench's format=no)
				 */
				else if (!only && cJSON_GetObjectItem(run, "meta") &&
					 !(s_get(v, "format") &&
					   strcasestr(s_get(v, "format")->val, "restart")))
					cJSON_AddStringToObject(run, "fileset_format", "none");
				dj = cJSON_GetObjectItem(run, "direct");
				if (dj && dset && cJSON_IsTrue(dj) != direct)
					S_DIFF(c, fwdkv,
					       "fwd=%s: opened %s where another fwd on fsd=%s is "
					       "not; the workloads of a file set share how it is "
					       "opened",
					       w->name, direct ? "buffered" : "with O_DIRECT",
					       m->fsd[j].name);
				if (dj) {
					direct = cJSON_IsTrue(dj);
					dset = true;
				}
				if (thr > maxthr)
					maxthr = thr;
				if (!cJSON_GetArraySize(runs))
					bytes += m->fsd[j].bytes; /* each volume once */
				if (fresh && m->fsd[j].shared && !shared_said[j]) {
					shared_said[j] = true;
					S_DIFF(c, s_get(v, "format"),
					       "format=%s on fsd=%s, shared=yes: vdbench stops at "
					       "it too (another host could delete what one has "
					       "just made); it asks for format=(clean,only), then "
					       "format=(restart,only)",
					       s_get(v, "format")->val, m->fsd[j].name);
				}
				used[j] = true;
				cJSON_AddItemToArray(runs, run);
				nrun++;
				if (only)
					break; /* one format pass per file set */
			}
		}
		snprintf(idx, sizeof(idx), "%d", vi);
		if (cJSON_GetArraySize(runs) == 1) {
			cJSON *one = cJSON_DetachItemFromArray(runs, 0);

			cJSON_Delete(runs);
			if (!first)
				first = cJSON_Duplicate(one, 1);
			cJSON_AddItemToObject(vw, idx, one);
		} else {
			if (!first && cJSON_GetArraySize(runs))
				first = cJSON_Duplicate(cJSON_GetArrayItem(runs, 0), 1);
			cJSON_AddItemToObject(vw, idx, runs);
		}
	}
	if (!nrun) {
		bool dropped = false; /* a fsd of its fwds that a difference left no volume */

		for (k = 0; k < non; k++)
			for (j = 0; j < m->nfsd; j++) {
				for (h = 0; h < m->nhd && m->fsd[j].vol[h] < 0; h++)
					;
				dropped |= m->fwd[on[k]].fsd[j] && h == m->nhd;
			}
		s_rd_idle(c, d, dropped, "fsds");
		cJSON_Delete(st);
		cJSON_Delete(vw);
		cJSON_Delete(first);
		return;
	}
	/* the step's keys: the first workload's (every volume restates its own) */
	{
		const cJSON *kj;

		cJSON_ArrayForEach(kj, first) if (strcmp(kj->string, "jobs") &&
						  strcmp(kj->string, "rate_iops"))
		    cJSON_AddItemToObject(st, kj->string, cJSON_Duplicate(kj, 1));
		cJSON_Delete(first);
	}
	cJSON_AddNumberToObject(st, "numjobs", maxthr);
	/* a volume whose one workload is the step's, on all its threads, needs no entry */
	for (vi = m->nvol; vi-- > 0;) {
		cJSON *e = cJSON_GetArrayItem(vw, vi);
		const cJSON *kj;
		bool same = cJSON_IsObject(e);

		if (!same)
			continue;
		if (cJSON_GetNumberValue(cJSON_GetObjectItem(e, "jobs")) == maxthr)
			cJSON_DeleteItemFromObject(e, "jobs");
		cJSON_ArrayForEach(kj, e) same &= s_same(kj, cJSON_GetObjectItem(st, kj->string));
		if (same && cJSON_GetArraySize(e) == cJSON_GetArraySize(st) - 2 /* name, numjobs */)
			cJSON_DeleteItemFromArray(vw, vi);
	}
	cJSON_AddNumberToObject(st, "ramp", only ? 0 : ramp);
	/* a format runs until every file is written: the runtime is only its cap */
	cJSON_AddNumberToObject(st, "runtime", only ? 86400 : runtime);
	if (!only && (kv = s_get(v, "maxdata")))
		s_maxdata(c, kv, d, bytes, st);
	if (cJSON_GetArraySize(vw))
		cJSON_AddItemToObject(st, "volume_workloads", vw);
	else
		cJSON_Delete(vw);
	if (only)
		bc_import_add(c->notes,
			      "%s:%d: rd=%s: format=%s: a step that %s the file sets and writes "
			      "every file once, sequentially, then ends (vdbench's format run)",
			      d->src, d->line, d->name, s_get(v, "format")->val,
			      fresh ? "deletes and rebuilds" : "completes");
	else
		bc_import_add(
		    c->notes,
		    "%s:%d: rd=%s: format=%s: the agent %s the tree at PREPARE and writes "
		    "the files it makes before the step (not in its figures)%s",
		    d->src, d->line, d->name, s_get(v, "format") ? s_get(v, "format")->val : "no",
		    fresh ? "deletes and rebuilds" : "completes",
		    s_get(v, "format") && strcasecmp(s_get(v, "format")->val, "no")
			? ""
			: "; vdbench's format=no would use only the files there are");
	if (rate)
		bc_import_add(c->notes,
			      "%s:%d: rd=%s: fwdrate=%s: rate_iops per workload by its share, "
			      "evenly spaced",
			      d->src, d->line, d->name,
			      pt->iorate ? pt->iorate : s_get(v, "fwdrate")->val);
	if (flow)
		bc_import_add(
		    c->notes,
		    "%s:%d: rd=%s: skew= at fwdrate=max: the workloads' I/O counts kept in "
		    "their skew's proportion (flow)",
		    d->src, d->line, d->name);
	for (j = 0; j < m->nfsd; j++)
		if (used[j])
			m->fsd[j].clean = NULL; /* its tree made anew by this step */
	if (fcurve && !only)
		s_fwd_curve(c, d, v, m, nrun, flow || skewed, st);
	s_rd_comp(c, v, st);
	cJSON_AddItemToArray(steps, st);
}

/*
 * An rd with fwd= and for-loops (forrdpct=, forxfersize=, forthreads=):
 * vdbench runs it once per value (per combination, the last loop the
 * innermost), each run a new rd with its own format= (format=yes formats
 * before each); a step each, named rd_key-value. A value outside what a
 * profile holds (a fraction of a percent of reads) is a difference.
 */
static void s_fwd_rd(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, int ri,
		     const struct s_view *v, cJSON *steps)
{
	static const char *const keys[] = {"forthreads", "forxfersize", "forrdpct", "foroperations",
					   "fwdrate"};
	struct s_loop loops[5], ops;
	int idx[5] = {0}, nl = 0, total = 1, k;
	const struct bc_import_kv *kv;
	const char *oper = NULL;

	/* operations=: one operation over every fwd's (several at once: no equivalent) */
	if ((kv = s_get(v, "operations"))) {
		ops.kv = kv;
		if (s_loop_values(c, &ops) <= 0)
			return;
		if (ops.n > 1) {
			S_DIFF(c, kv,
			       "operations=%s: several operations in one run (vdbench's threads "
			       "each doing them in turn) have no equivalent; foroperations= (a run "
			       "each) has",
			       kv->val);
			return;
		}
		if (s_meta_op(c, kv, ops.v[0]) || !strcasecmp(ops.v[0], "read") ||
		    !strcasecmp(ops.v[0], "write"))
			oper = ops.v[0];
		else
			return;
	}
	for (k = 0; k < 5; k++) {
		if (!(kv = s_get(v, keys[k])))
			continue;
		/* fwdrate=max and fwdrate=curve are one run: s_fwd_step reads them */
		if (k == 4 && (!strcasecmp(kv->val, "max") || !strcasecmp(kv->val, "curve")))
			continue;
		loops[nl].kv = kv;
		if (s_loop_values(c, &loops[nl]) <= 0)
			return;
		total *= loops[nl].n;
		nl++;
	}
	if (total > S_MAX_LIST) {
		bc_import_diff(c->diffs, p->secs[ri].src, p->secs[ri].line,
			       "rd=%s: its loops make %d runs, more than %d", p->secs[ri].name,
			       total, S_MAX_LIST);
		return;
	}
	for (;;) {
		struct s_point pt = {0};
		size_t used = 0;

		pt.oper = oper;
		for (k = 0; k < nl; k++) {
			const char *key = loops[k].kv->key, *val = loops[k].v[idx[k]];
			double pc;

			if (!strcmp(key, "foroperations")) {
				pt.oper = s_meta_op(c, loops[k].kv, val);
				if (!pt.oper && strcasecmp(val, "read") && strcasecmp(val, "write"))
					return;
				if (!pt.oper)
					pt.oper = val;
			} else if (!strcmp(key, "forthreads"))
				pt.threads = val;
			else if (!strcmp(key, "forxfersize"))
				pt.xfer = val;
			else if (!strcmp(key, "fwdrate"))
				pt.iorate = val; /* vdbench: a run per rate, the total of the rd */
			else if (!s_pct(val, &pc) || !s_rdpct_held(pc)) {
				S_DIFF(c, loops[k].kv,
				       "forrdpct=%s: %s%% of reads: a profile's share of reads has "
				       "at most 4 decimals",
				       loops[k].kv->val, val);
				return;
			} else
				pt.rdpct = val;
			if (loops[k].n < 2)
				continue;
			used += (size_t)snprintf(
			    pt.suffix + used,
			    sizeof(pt.suffix) > used ? sizeof(pt.suffix) - used : 0, "_%s-%s",
			    strncmp(key, "for", 3) ? key : key + 3, val);
		}
		s_fwd_step(c, p, m, ri, v, &pt, steps);
		for (k = nl - 1; k >= 0; k--) {
			if (++idx[k] < loops[k].n)
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}
}

/*
 * An rd's ramp and measured seconds from elapsed=, interval= and warmup=.
 * vdbench (Reporter.java) counts elapsed= in the intervals after the
 * warmup: warmup=W runs W + elapsed seconds and measures elapsed; without
 * it (or warmup=0) the first interval is the warmup, inside elapsed=
 */
static void s_rd_times(struct s_ctx *c, const struct bc_import_sec *d, const struct s_view *v,
		       double *ramp, double *runtime)
{
	double elapsed = 30, interval = 1, warmup = -1;
	const struct bc_import_kv *kv;

	if ((kv = s_get(v, "elapsed")) && (!s_secs(kv->val, &elapsed) || elapsed < 1))
		S_DIFF(c, kv, "elapsed=%s: expected seconds", kv->val);
	if ((kv = s_get(v, "interval")) && (!s_secs(kv->val, &interval) || interval < 1))
		S_DIFF(c, kv, "interval=%s: expected seconds", kv->val);
	if ((kv = s_get(v, "warmup")) && !s_secs(kv->val, &warmup))
		S_DIFF(c, kv, "warmup=%s: expected seconds", kv->val);
	if (interval != 1)
		bc_import_add(c->notes,
			      "%s:%d: rd=%s: interval=%g: bench-coord reports every second%s",
			      d->src, d->line, d->name, interval,
			      warmup > 0 ? ""
					 : " (the ramp is vdbench's first interval, which "
					   "its averages leave out)");
	*ramp = warmup > 0 ? warmup : interval;
	*runtime = warmup > 0 ? elapsed : elapsed - *ramp;
	if (*runtime < 1) {
		bc_import_diff(c->diffs, d->src, d->line,
			       "rd=%s: elapsed=%g leaves no measured second after warmup %g",
			       d->name, elapsed, *ramp);
		*runtime = 1;
	}
}

/*
 * hitarea= (or a forhitarea= of one value) on an rd: the size of its sds'
 * hit area in that run. It shapes only the I/O of wds with rhpct= or whpct=
 * above 0, whose hits go to an sd's first hitarea bytes (s_hits); beside
 * none of those, and in an rd with fwd= (file workloads have no hit area),
 * vdbench's load is the same without it: a note. Returns the size, 0 when
 * the sds keep their own.
 */
static uint64_t s_rd_hitarea(struct s_ctx *c, const struct s_view *v, const struct s_map *m,
			     const int *wds, int nw)
{
	const struct bc_import_kv *kv = s_get(v, "hitarea");
	char buf[256], *items[S_MAX_LIST];
	bool hits = false;
	uint64_t b = 0;
	int k, n;

	if (!kv)
		kv = s_get(v, "forhitarea");
	if (!kv)
		return 0;
	for (k = 0; k < nw; k++)
		hits |= m->wd[wds[k]].hit || m->wd[wds[k]].hitmix;
	if (!hits) {
		bc_import_add(c->notes,
			      "%s:%d: %s=%s: inert (no workload of the rd has rhpct= or whpct= "
			      "above 0, so none aims at a hit area)",
			      kv->src, kv->line, kv->key, kv->val);
		return 0;
	}
	n = s_list(kv->val, buf, sizeof(buf), items);
	if (n != 1) {
		S_DIFF(c, kv, "%s=%s: a loop over hit areas has no equivalent (an rd per size)",
		       kv->key, kv->val);
		return 0;
	}
	if (s_size(items[0], &b) || !b) {
		S_DIFF(c, kv, "%s=%s: not a size", kv->key, kv->val);
		return 0;
	}
	return b;
}

/* an rd's pause= in seconds, 0 without one (a difference, c given, when it is no time) */
static double s_pause(struct s_ctx *c, const struct s_view *v)
{
	const struct bc_import_kv *kv = s_get(v, "pause");
	double secs = 0;

	if (kv && (!s_secs(kv->val, &secs) || secs < 0)) {
		if (c)
			S_DIFF(c, kv, "pause=%s: expected seconds", kv->val);
		secs = 0;
	}
	return secs;
}

/*
 * One rd= with wds (its steps, one per loop value or a sweep) or with fwds
 * (s_fwd_rd); own_hit is each sd's own hitarea=
 */
static void s_rd_one(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, int i,
		     const uint64_t *own_hit, cJSON *steps)
{
	static const char *const loop_keys[] = {"forthreads", "forxfersize", "forrdpct",
						"forseekpct", "iorate"};
	struct s_view v;
	int k;

	const struct bc_import_sec *d = &p->secs[i];
	const struct bc_import_kv *kv;
	struct s_loop loops[5];
	int wds[S_MAX_LIST], nw = 0, nl = 0, sweep_loop = -1, idx[5], total = 1;
	double ramp, runtime;
	char buf[1024], *items[S_MAX_LIST];
	cJSON *curve = NULL;
	const char *iorate1 = NULL;
	bool iocurve = false;
	uint64_t hitarea;

	if (strcmp(d->kind, "rd") || !strcmp(d->name, "default"))
		return;
	s_view_of(p, i, &v);
	if (s_get(&v, "fwd")) {
		s_rd_hitarea(c, &v, m, NULL, 0);
		s_fwd_rd(c, p, m, i, &v, steps);
		return;
	}
	/* its own workloads (sd= in the rd: s_rd_wds), else the wds it names */
	for (k = 0; k < m->nwd && nw < S_MAX_LIST; k++)
		if (m->wd[k].rd == i)
			wds[nw++] = k;
	if (s_get(&v, "sd") && !nw)
		return; /* its sd= could not be mapped: a difference says why */
	kv = s_get(&v, "wd");
	if (!kv && !nw) {
		bc_import_diff(c->diffs, d->src, d->line, "rd=%s: no wd= and no sd=", d->name);
		return;
	}
	if (!nw) {
		int nosd = 0;

		nw = s_match_wds(c, m, kv, wds);
		for (k = 0; k < nw; k++)
			if (m->wd[wds[k]].nosd) {
				bc_import_diff(c->diffs, p->secs[m->wd[wds[k]].def].src,
					       p->secs[m->wd[wds[k]].def].line,
					       "wd=%s: no sd=, and rd=%s gives none either",
					       m->wd[wds[k]].name, d->name);
				nosd++;
			}
		/* one cause, one difference: the rd goes with its sd-less wds */
		if (nw && nosd == nw) {
			s_rd_idle(c, d, true, "wds");
			return;
		}
	}
	if (!nw)
		return;
	/* skew between workloads on different sds would be a ratio of rates: none here */
	for (k = 0; k < nw; k++) {
		int j;

		if (!m->wd[wds[k]].skew)
			continue;
		for (j = 0; j < nw; j++)
			if (memcmp(m->wd[wds[k]].sd, m->wd[wds[j]].sd, sizeof(m->wd[0].sd)))
				break;
		if (j < nw)
			S_DIFF(c, m->wd[wds[k]].skew,
			       "skew=%s: wd=%s and wd=%s of rd=%s drive different sds; a skew "
			       "between volumes has no bench-coord equivalent (each runs at "
			       "its "
			       "own pace)",
			       m->wd[wds[k]].skew->val, m->wd[wds[k]].name, m->wd[wds[j]].name,
			       d->name);
	}
	/* the rd's hit area for its sds, else their own */
	hitarea = s_rd_hitarea(c, &v, m, wds, nw);
	for (k = 0; k < m->nsd; k++)
		m->sd[k].hitarea = hitarea ? hitarea : own_hit[k];
	s_rd_times(c, d, &v, &ramp, &runtime);
	for (k = 0; k < 5; k++) {
		kv = s_get(&v, loop_keys[k]);
		if (!kv)
			continue;
		if (k == 4) {
			if (!strcasecmp(kv->val, "max"))
				continue;
			if (!strcasecmp(kv->val, "curve")) {
				iocurve = true;
				continue;
			}
		}
		loops[nl].kv = kv;
		if (s_loop_values(c, &loops[nl]) <= 0)
			continue;
		/* one value is no loop: iorate=1000 is the step's rate */
		if (loops[nl].n == 1 && k == 4) {
			iorate1 = loops[nl].v[0];
			continue;
		}
		total *= loops[nl].n;
		nl++;
	}
	if (iocurve) {
		const char *cv =
		    s_get(&v, "curve") ? s_get(&v, "curve")->val : "(10,50,70,80,90,100)";
		int n = s_list(cv, buf, sizeof(buf), items);

		curve = cJSON_CreateArray();
		for (k = 0; k < n; k++) {
			double pc;

			if (!s_pct(items[k], &pc) || !pc)
				S_DIFF(c, s_get(&v, "curve"), "curve=%s: expected percentages", cv);
			else
				cJSON_AddItemToArray(curve, cJSON_CreateNumber(pc));
		}
	} else if (nl == 1 && s_sweepable(&loops[0]) && !s_pause(NULL, &v)) {
		/* a pause= between the loop's runs: a step each (s_rds idles each's start) */
		sweep_loop = 0;
	} else if (s_get(&v, "curve")) {
		S_DIFF(c, s_get(&v, "curve"), "curve= without iorate=curve");
	}
	if (total > S_MAX_LIST) {
		bc_import_diff(c->diffs, d->src, d->line,
			       "rd=%s: its loops make %d runs, "
			       "more than %d",
			       d->name, total, S_MAX_LIST);
		return;
	}
	/* a lone loop as a sweep of one step; a step that cannot carry it: a step each */
	if (sweep_loop >= 0) {
		struct s_point pt = {0};
		const char *key = loops[0].kv->key;
		int nsteps = cJSON_GetArraySize(steps), nnotes = cJSON_GetArraySize(c->notes),
		    ndiffs = cJSON_GetArraySize(c->diffs);

		/* the step at the loop's first value; forrdpct: a mix, its share swept */
		if (!strcmp(key, "forrdpct"))
			pt.rdpct = "50";
		else if (!strcmp(key, "forseekpct"))
			pt.seek = loops[0].v[0];
		pt.iorate = iorate1;
		s_rd_step(c, m, d, &v, wds, nw, &pt, NULL, ramp, runtime, steps);
		if (cJSON_GetArraySize(steps) > nsteps &&
		    s_loop_sweep(c, &loops[0], cJSON_GetArrayItem(steps, nsteps))) {
			cJSON_Delete(curve);
			return;
		}
		s_truncate(steps, nsteps);
		s_truncate(c->notes, nnotes);
		s_truncate(c->diffs, ndiffs);
		sweep_loop = -1;
	}
	memset(idx, 0, sizeof(idx));
	for (;;) {
		struct s_point pt = {0};
		size_t used = 0;
		cJSON *sweep = NULL;

		for (k = 0; k < nl; k++) {
			const char *key = loops[k].kv->key, *val = loops[k].v[idx[k]];

			if (k == sweep_loop)
				continue;
			if (!strcmp(key, "forthreads"))
				pt.threads = val;
			else if (!strcmp(key, "forxfersize"))
				pt.xfer = val;
			else if (!strcmp(key, "forrdpct"))
				pt.rdpct = val;
			else if (!strcmp(key, "forseekpct"))
				pt.seek = val;
			else
				pt.iorate = val;
			if (loops[k].n < 2)
				continue;
			used += (size_t)snprintf(
			    pt.suffix + used,
			    sizeof(pt.suffix) > used ? sizeof(pt.suffix) - used : 0, "_%s=%s",
			    !strncmp(key, "for", 3) ? key + 3 : key, val);
		}
		if (!pt.iorate)
			pt.iorate = iorate1;
		if (curve) {
			sweep = cJSON_CreateObject();
			cJSON_AddItemToObject(sweep, "curve", cJSON_Duplicate(curve, 1));
		}
		s_rd_step(c, m, d, &v, wds, nw, &pt, sweep, ramp, runtime, steps);
		for (k = nl - 1; k >= 0; k--) {
			if (k == sweep_loop)
				continue;
			if (++idx[k] < loops[k].n)
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}
	cJSON_Delete(curve);
}

/* entries of list from "from" on that repeat one in [first, from) */
static void s_drop_repeats(cJSON *list, int first, int from)
{
	int i = from, j;

	while (i < cJSON_GetArraySize(list)) {
		const char *s = cJSON_GetStringValue(cJSON_GetArrayItem(list, i));

		for (j = first; j < from; j++)
			if (!strcmp(s, cJSON_GetStringValue(cJSON_GetArrayItem(list, j))))
				break;
		if (j < from)
			cJSON_DeleteItemFromArray(list, i);
		else
			i++;
	}
}

/*
 * pause=N: vdbench sleeps N seconds after each run of the rd before the
 * next run starts (Reporter's prepareNextRun), the load off the device (an
 * SSD collects garbage then). Each step after such a run starts with its
 * volumes idle for N seconds (start_delay) and its ramp N seconds longer, so
 * the idle seconds are not measured and the measured ones are the same.
 */
static void s_pause_step(cJSON *st, double secs)
{
	cJSON *ramp = cJSON_GetObjectItem(st, "ramp");

	if (secs <= 0)
		return;
	cJSON_AddNumberToObject(st, "start_delay", secs);
	if (ramp)
		cJSON_SetNumberValue(ramp, cJSON_GetNumberValue(ramp) + secs);
	else
		cJSON_AddNumberToObject(st, "ramp", secs);
}

/*
 * Every rd= in order. forcompratio=(a,b,..) runs the rd once per ratio, as
 * vdbench does: its steps once per value, named _compratio-a ...
 */
static void s_rds(struct s_ctx *c, const struct bc_import_doc *p, struct s_map *m, cJSON *steps)
{
	uint64_t own_hit[S_MAX_DEFS]; /* the sds' own hitarea= */
	struct s_view v;
	double pending = 0; /* the pause= of the rd whose run came last */
	int i, k;

	for (k = 0; k < m->nsd; k++)
		own_hit[k] = m->sd[k].hitarea;
	for (i = 0; i < p->nsecs; i++) {
		const struct bc_import_kv *fc;
		char buf[1024], *items[S_MAX_LIST];
		int n, nn = 0, nd = 0, s0 = cJSON_GetArraySize(steps), s1;
		double pause;

		if (strcmp(p->secs[i].kind, "rd") || !strcmp(p->secs[i].name, "default"))
			continue;
		s_view_of(p, i, &v);
		pause = s_pause(c, &v);
		fc = s_get(&v, "forcompratio");
		n = fc ? s_list(fc->val, buf, sizeof(buf), items) : 0;
		if (n < 2)
			s_rd_one(c, p, m, i, own_hit, steps);
		for (k = 0; n >= 2 && k < n; k++) {
			int r0 = cJSON_GetArraySize(steps), n0 = cJSON_GetArraySize(c->notes),
			    d0 = cJSON_GetArraySize(c->diffs);
			cJSON *st;

			c->comp = items[k];
			s_rd_one(c, p, m, i, own_hit, steps);
			for (st = cJSON_GetArrayItem(steps, r0); st; st = st->next) {
				char name[BC_NAME_MAX + 64], clean[BC_NAME_MAX];

				snprintf(name, sizeof(name), "%s_compratio-%s",
					 cJSON_GetStringValue(cJSON_GetObjectItem(st, "name")),
					 items[k]);
				bc_import_sanitize(name, clean, sizeof(clean));
				cJSON_ReplaceItemInObject(st, "name", cJSON_CreateString(clean));
			}
			/* the same notes and differences once, not once per ratio */
			if (k) {
				s_drop_repeats(c->notes, nn, n0);
				s_drop_repeats(c->diffs, nd, d0);
			} else {
				nn = n0;
				nd = d0;
			}
		}
		c->comp = NULL;
		/* the pause after the run before, then this rd's after each of its runs */
		s1 = cJSON_GetArraySize(steps);
		for (k = s0; k < s1; k++) {
			cJSON *st = cJSON_GetArrayItem(steps, k);

			/*
			 * a curve's points are one step's: each starts with the
			 * rd's pause, the first too (vdbench's max run follows the
			 * run before after that run's pause)
			 */
			if (!cJSON_GetObjectItem(cJSON_GetObjectItem(st, "sweep"), "curve") ||
			    pause <= 0) {
				s_pause_step(st, k == s0 ? pending : pause);
				continue;
			}
			s_pause_step(st, pause);
			if (k == s0 && k > 0 && pending != pause)
				bc_import_add(c->notes,
					      "%s:%d: rd=%s: pause=%s: the first run of its curve "
					      "idles %g s too, where vdbench starts it %g s after "
					      "the run before",
					      s_get(&v, "pause")->src, s_get(&v, "pause")->line,
					      p->secs[i].name, s_get(&v, "pause")->val, pause,
					      pending);
		}
		if (s1 > s0)
			pending = pause;
		if (pause > 0 && s1 > s0)
			bc_import_add(c->notes,
				      "%s:%d: rd=%s: pause=%s: the volumes idle %g s after each of "
				      "its runs (start_delay of the next step, inside its ramp)",
				      s_get(&v, "pause")->src, s_get(&v, "pause")->line,
				      p->secs[i].name, s_get(&v, "pause")->val, pause);
	}
	for (k = 0; k < m->nsd; k++)
		m->sd[k].hitarea = own_hit[k];
}

/*
 * Data reduction (general parameters): compratio=r and dedupratio=r as the
 * share of zeros per chunk and of repeated units that give r : 1
 * (100 - 100 / r percent), dedupunit, dedupsets as a count.
 */
/*
 * loop=N: vdbench runs all its rds N times, starting over with the first
 * after the last: the profile's top-level repeat, whose rounds run every
 * step in profile order. loop=2h (until a time) has no count to give.
 */
static void s_loop_repeat(struct s_ctx *c, const struct bc_import_doc *p, cJSON *prof)
{
	const struct bc_import_kv *kv = NULL;
	char *end;
	long n;
	int i, k;

	for (i = 0; i < p->nsecs; i++)
		for (k = 0; !*p->secs[i].kind && k < p->secs[i].nkv; k++)
			if (!strcmp(p->secs[i].kv[k].key, "loop"))
				kv = &p->secs[i].kv[k]; /* the last one given */
	if (!kv)
		return;
	n = strtol(kv->val, &end, 10);
	if (*end && end != kv->val && strchr("smhSMH", *end) && !end[1]) {
		S_DIFF(c, kv,
		       "loop=%s: repeating the rds until a time has no equivalent (a count "
		       "does: repeat)",
		       kv->val);
		return;
	}
	if (*end || end == kv->val || n < 1 || n > 100) {
		S_DIFF(c, kv, "loop=%s: expected a count of 1..100 repetitions", kv->val);
		return;
	}
	if (n > 1)
		cJSON_AddNumberToObject(prof, "repeat", (double)n);
	bc_import_add(c->notes,
		      "%s:%d: loop=%s: every step runs %ld times, in rounds in the rds' order as "
		      "vdbench starts over after the last (repeat; the steps are named "
		      "<rd>#1..#%ld)",
		      kv->src, kv->line, kv->val, n, n);
}

static void s_reduction(struct s_ctx *c, const struct bc_import_doc *p, cJSON *defs)
{
	int i, k;

	for (i = 0; i < p->nsecs; i++) {
		for (k = 0; !*p->secs[i].kind && k < p->secs[i].nkv; k++) {
			const struct bc_import_kv *kv = &p->secs[i].kv[k];
			char *end, sz[32];
			uint64_t b;

			if (!strcmp(kv->key, "compratio") || !strcmp(kv->key, "dedupratio")) {
				long pct;

				if (s_ratio(c, kv, &pct) && pct)
					cJSON_AddNumberToObject(
					    defs, kv->key[0] == 'c' ? "compress_pct" : "dedupe_pct",
					    (double)pct);
			} else if (!strcmp(kv->key, "dedupunit")) {
				if (s_size(kv->val, &b) || !b || b % 512)
					S_DIFF(c, kv, "dedupunit=%s: a multiple of 512 bytes",
					       kv->val);
				else
					cJSON_AddStringToObject(defs, "dedupe_unit",
								bc_fmt_size(b, sz, sizeof(sz)));
			} else if (!strcmp(kv->key, "dedupsets")) {
				unsigned long n = strtoul(kv->val, &end, 10);

				if (*end || !n)
					S_DIFF(c, kv,
					       "dedupsets=%s: a count of sets (a percentage of the "
					       "units depends on the sizes vdbench sees)",
					       kv->val);
				else
					cJSON_AddNumberToObject(defs, "dedupe_sets", (double)n);
			}
		}
	}
}

static const char *const s_exts[] = {".parm", ".txt", ".vdb", ".cfg", ".conf", NULL};

cJSON *bc_vdb_to_profile(const struct bc_import_doc *p, const struct bc_import_opts *im,
			 cJSON *notes, cJSON *diffs, char *err, size_t errlen)
{
	struct s_ctx c = {.im = im, .notes = notes, .diffs = diffs};
	struct s_map *m = calloc(1, sizeof(*m));
	cJSON *prof = NULL, *vols, *steps, *defs;
	char pname[BC_NAME_MAX];
	bool verify = false;
	int i, k;

	if (m) {
		m->sd = calloc(S_MAX_DEFS, sizeof(*m->sd));
		m->wd = calloc(S_MAX_DEFS, sizeof(*m->wd));
		m->fsd = calloc(S_MAX_DEFS, sizeof(*m->fsd));
		m->fwd = calloc(S_MAX_DEFS, sizeof(*m->fwd));
		m->fmt_threads = 8; /* vdbench's format_fwd without fwd=format */
		snprintf(m->fmt_bs, sizeof(m->fmt_bs), "128k");
		m->fmt_direct = -1;
	}
	if (!m || !m->sd || !m->wd || !m->fsd || !m->fwd) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < p->nsecs; i++) {
		s_classify(&c, &p->secs[i]);
		for (k = 0; !*p->secs[i].kind && k < p->secs[i].nkv; k++)
			if (!strcmp(p->secs[i].kv[k].key, "validate"))
				verify = !strcasecmp(p->secs[i].kv[k].val, "yes");
	}
	c.verify = verify;
	prof = cJSON_CreateObject();
	/* parameter files carry no one extension: the usual ones go */
	bc_import_name(im->name, im->src, NULL, pname, sizeof(pname));
	for (i = 0; !im->name && s_exts[i]; i++) {
		size_t n = strlen(pname), e = strlen(s_exts[i]);

		if (n > e && !strcmp(pname + n - e, s_exts[i]))
			pname[n - e] = '\0';
	}
	cJSON_AddStringToObject(prof, "name", pname);
	s_hosts(&c, p, m, cJSON_AddArrayToObject(prof, "agents"));
	vols = cJSON_AddArrayToObject(prof, "volumes");
	defs = cJSON_AddObjectToObject(prof, "defaults");
	if (verify)
		cJSON_AddBoolToObject(defs, "verify", true);
	s_reduction(&c, p, defs);
	steps = cJSON_AddArrayToObject(prof, "steps");
	s_sds(&c, p, m, vols);
	for (i = 0; i < im->nluns; i++)
		if (!c.lun_used[i]) {
			/* a mistyped option, not a difference of the file: it alone is said */
			while (cJSON_GetArraySize(diffs))
				cJSON_DeleteItemFromArray(diffs, 0);
			snprintf(err, errlen,
				 "--lun %s: no sd= of that name and no lun= of that value",
				 im->luns[i]);
			cJSON_Delete(prof);
			prof = NULL;
			goto out;
		}
	/* every sd opened alike (the usual file): the profile's default, not each volume's */
	for (i = 1, k = 1; i < m->nsd; i++)
		k &= m->sd[i].direct == m->sd[0].direct;
	if (k) {
		cJSON *v;

		cJSON_ArrayForEach(v, vols)
		{
			cJSON_DeleteItemFromObject(cJSON_GetObjectItem(v, "workload"), "direct");
			if (!cJSON_GetArraySize(cJSON_GetObjectItem(v, "workload")))
				cJSON_DeleteItemFromObject(v, "workload");
		}
	}
	cJSON_AddBoolToObject(defs, "direct", k && m->nsd && m->sd[0].direct);
	/* file sets: their fwds say which host runs each */
	s_fsd_defs(p, m);
	s_fwds(&c, p, m);
	s_fsd_vols(&c, p, m, vols);
	/*
	 * file sets only, every one opened alike: the profile's default, as for
	 * sds (their volumes' "workload" keeps its write_sync)
	 */
	if (!m->nsd && cJSON_GetArraySize(vols)) {
		cJSON *v;

		k = 1;
		cJSON_ArrayForEach(v, vols) k &=
		    cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(v, "workload"), "direct"));
		cJSON_ArrayForEach(v, vols)
		{
			if (!k)
				break;
			cJSON_DeleteItemFromObject(cJSON_GetObjectItem(v, "workload"), "direct");
			if (!cJSON_GetArraySize(cJSON_GetObjectItem(v, "workload")))
				cJSON_DeleteItemFromObject(v, "workload");
		}
		if (k)
			cJSON_ReplaceItemInObject(defs, "direct", cJSON_CreateTrue());
	}
	s_wds(&c, p, m);
	s_rds(&c, p, m, steps);
	for (i = 0; i < m->nfsd; i++)
		if (m->fsd[i].clean)
			S_DIFF(
			    &c, m->fsd[i].clean,
			    "format=%s: fsd=%s's tree deleted after its last run has no equivalent "
			    "(the tree stays)",
			    m->fsd[i].clean->val, m->fsd[i].name);
	s_loop_repeat(&c, p, prof);
	if (!cJSON_GetArraySize(vols) || !cJSON_GetArraySize(steps)) {
		snprintf(err, errlen, "%s: no %s could be mapped", im->src,
			 !cJSON_GetArraySize(vols) ? "sd= or fsd= (storage definition)"
						   : "rd= (run)");
		cJSON_Delete(prof);
		prof = NULL;
		goto out;
	}
	bc_import_describe(prof, "vdbench parameter file", im->src, "import-vdbench", im->lenient,
			   diffs);
out:
	for (i = 0; m && m->wd && i < m->nwd; i++)
		cJSON_Delete(m->wd[i].wl);
	for (i = 0; m && m->fwd && i < m->nfwd; i++)
		cJSON_Delete(m->fwd[i].wl);
	if (m) {
		free(m->sd);
		free(m->wd);
		free(m->fsd);
		free(m->fwd);
	}
	free(m);
	return prof;
}
