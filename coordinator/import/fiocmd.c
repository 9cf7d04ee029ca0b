/*
 * import/fiocmd.c - fio command lines read as the shell splits them and as
 * fio's command line parser builds jobs from them (fiocmd.h). The result is
 * the parsed job file fiojob.c maps, so a command and a job file with the
 * same options import alike.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/fiocmd.h"
#include "import/fiojob.h"

#define S_MAX_WORDS 4096
#define S_MAX_VARS  256

/* one word of a command, after quotes and expansions, and the line it starts on */
struct s_word {
	char *w;
	int line;
	bool quoted; /* some of it was quoted: not an assignment, not a keyword */
};

/* how a command ended: the next one waits for it, or starts at once ('&') */
enum s_end { S_END_FG, S_END_BG, S_END_EOF };

struct s_var {
	char *name, *val;
};

struct s_lex {
	const char *p;
	const char *src;
	int line;
	struct s_var vars[S_MAX_VARS]; /* the snippet's own NAME=value assignments */
	int nvars;
	cJSON *notes, *diffs;
};

/* a growing string */
struct s_buf {
	char *s;
	size_t n, cap;
};

static int s_put(struct s_buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;
		char *g = realloc(b->s, cap);

		if (!g)
			return -ENOMEM;
		b->s = g;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
	return 0;
}

/* "src:line: what" once into arr */
static void s_say(struct s_lex *x, cJSON *arr, int line, const char *fmt, va_list ap)
{
	char what[512];

	vsnprintf(what, sizeof(what), fmt, ap);
	bc_import_add(arr, "%s:%d: %s", x->src, line, what);
}

/* the same load, a remark */
static void s_note(struct s_lex *x, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void s_note(struct s_lex *x, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s_say(x, x->notes, line, fmt, ap);
	va_end(ap);
}

/* a load fio would not run */
static void s_diff(struct s_lex *x, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void s_diff(struct s_lex *x, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s_say(x, x->diffs, line, fmt, ap);
	va_end(ap);
}

static const char *s_var_get(const struct s_lex *x, const char *name)
{
	for (int i = x->nvars - 1; i >= 0; i--)
		if (!strcmp(x->vars[i].name, name))
			return x->vars[i].val;
	return getenv(name);
}

static int s_var_set(struct s_lex *x, const char *name, size_t nlen, const char *val)
{
	struct s_var *v;

	if (x->nvars == S_MAX_VARS)
		return -E2BIG;
	v = &x->vars[x->nvars];
	v->name = strndup(name, nlen);
	v->val = strdup(val);
	if (!v->name || !v->val) {
		free(v->name);
		free(v->val);
		return -ENOMEM;
	}
	x->nvars++;
	return 0;
}

/*
 * $NAME, ${NAME}, ${NAME:-default} / ${NAME-default} at x->p (after the '$')
 * into b; a variable that is not set is a difference (the command ran with a
 * value this text does not give), $(...) and `...` likewise
 */
static int s_expand(struct s_lex *x, struct s_buf *b)
{
	const char *p = x->p, *name = p, *def = NULL, *val;
	size_t nlen = 0, dlen = 0;
	bool brace = *p == '{', colon = false;
	char nm[128];

	if (*p == '(') {
		s_diff(x, x->line, "%s: a command substitution: write the value it gives",
		       "$(...)");
		for (int depth = 0; *p; p++) {
			depth += *p == '(';
			depth -= *p == ')';
			if (!depth)
				break;
		}
		x->p = *p ? p + 1 : p;
		return 0;
	}
	if (brace)
		name = ++p;
	while (isalnum((unsigned char)p[nlen]) || p[nlen] == '_')
		nlen++;
	if (!nlen && !brace && (isdigit((unsigned char)*p) || strchr("@*#?$!-", *p)))
		nlen = 1; /* $1, $@, $?: a script's arguments and state, never set here */
	if (!nlen)
		return s_put(b, "$", 1); /* a lone '$' is itself */
	p += nlen;
	if (brace) {
		if (p[0] == ':' && p[1] == '-') {
			colon = true;
			p++;
		}
		if (*p == '-') {
			def = ++p;
			while (p[dlen] && p[dlen] != '}')
				dlen++;
			p += dlen;
		}
		if (*p != '}')
			return -EINVAL;
		p++;
	}
	x->p = p;
	snprintf(nm, sizeof(nm), "%.*s", (int)nlen, name);
	val = s_var_get(x, nm);
	if (def && (!val || (colon && !*val)))
		return s_put(b, def, dlen);
	if (!val) {
		s_diff(x, x->line, "$%s is not set: set it in the environment or in the commands",
		       nm);
		return 0;
	}
	return s_put(b, val, strlen(val));
}

/*
 * The next command's words (expanded) into w, how it ended into *end.
 * Separators: newline, ';', '&&', '||' (the next command waits), '&' (it
 * does not), '|' (what follows is the same pipeline: its words are dropped).
 * Redirections (>, >>, <, 2>&1, &>) are dropped with their targets.
 */
static int s_command(struct s_lex *x, struct s_word *w, int *nw, enum s_end *end)
{
	struct s_buf b = {0};
	bool in_word = false, quoted = false, piped = false, redir = false;
	int start = x->line, rc = 0;

	*nw = 0;
	*end = S_END_EOF;
	for (;;) {
		char c = *x->p;
		bool sep = !c || c == '\n' || c == ';' || c == '&' || c == '|' || c == ' ' ||
			   c == '\t' || c == '<' || c == '>' || c == '\r';

		if (sep && in_word) {
			/* the word ends: "2" before '>' is a file descriptor, not a word */
			bool fd = (c == '<' || c == '>') && !quoted && b.s &&
				  strspn(b.s, "0123456789") == b.n;

			if (redir || fd || piped) {
				free(b.s);
			} else if (*nw == S_MAX_WORDS) {
				free(b.s);
				rc = -E2BIG;
				goto out;
			} else {
				w[(*nw)++] = (struct s_word){b.s ? b.s : strdup(""), start, quoted};
				if (!w[*nw - 1].w) {
					rc = -ENOMEM;
					goto out;
				}
			}
			redir = fd ? redir : false;
			b = (struct s_buf){0};
			in_word = quoted = false;
		}
		if (!c)
			break;
		if (c == '\\' && x->p[1] == '\n') { /* a line continued */
			x->p += 2;
			x->line++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r') {
			x->p++;
			continue;
		}
		if (c == '#' && !in_word) { /* a comment to the end of the line */
			while (*x->p && *x->p != '\n')
				x->p++;
			continue;
		}
		if (c == '\n' || c == ';') {
			x->p++;
			if (c == '\n')
				x->line++;
			if (*nw || piped) {
				*end = S_END_FG;
				break;
			}
			continue;
		}
		if (c == '&' || c == '|') {
			bool dbl = x->p[1] == c;

			if (c == '&' && x->p[1] == '>') { /* &> file */
				x->p += x->p[2] == '>' ? 3 : 2;
				redir = true;
				continue;
			}
			x->p += dbl ? 2 : 1;
			if (c == '|' && !dbl) {
				piped = true;
				continue;
			}
			*end = c == '&' && !dbl ? S_END_BG : S_END_FG;
			break;
		}
		if (c == '<' || c == '>') {
			x->p++;
			if (*x->p == '>' || *x->p == '&')
				x->p++;
			/* >&2, 2>&1: the target is a descriptor, joined to the operator */
			if (x->p[-1] == '&' && (isdigit((unsigned char)*x->p) || *x->p == '-')) {
				while (isdigit((unsigned char)*x->p) || *x->p == '-')
					x->p++;
				continue;
			}
			redir = true;
			continue;
		}
		/* a word's character */
		if (!in_word) {
			in_word = true;
			start = x->line;
		}
		if (c == '\'') {
			const char *q = strchr(x->p + 1, '\'');

			if (!q) {
				rc = -EINVAL;
				goto out;
			}
			for (const char *n = x->p; n < q; n++)
				x->line += *n == '\n';
			rc = s_put(&b, x->p + 1, (size_t)(q - x->p - 1));
			quoted = true;
			x->p = q + 1;
		} else if (c == '"') {
			quoted = true;
			for (x->p++; *x->p && *x->p != '"' && !rc;) {
				if (*x->p == '\\' && x->p[1] && strchr("\"\\$`\n", x->p[1])) {
					if (x->p[1] == '\n')
						x->line++;
					else
						rc = s_put(&b, x->p + 1, 1);
					x->p += 2;
				} else if (*x->p == '$') {
					x->p++;
					rc = s_expand(x, &b);
				} else if (*x->p == '`') {
					s_diff(x, x->line,
					       "%s: a command substitution: write the value",
					       "`...`");
					x->p =
					    strchr(x->p + 1, '`') ? strchr(x->p + 1, '`') + 1 : "";
				} else {
					x->line += *x->p == '\n';
					rc = s_put(&b, x->p++, 1);
				}
			}
			if (*x->p != '"') {
				rc = -EINVAL;
				goto out;
			}
			x->p++;
		} else if (c == '\\') {
			rc = x->p[1] ? s_put(&b, x->p + 1, 1) : 0;
			x->p += x->p[1] ? 2 : 1;
		} else if (c == '$') {
			x->p++;
			rc = s_expand(x, &b);
		} else if (c == '`') {
			s_diff(x, x->line, "%s: a command substitution: write the value", "`...`");
			x->p = strchr(x->p + 1, '`') ? strchr(x->p + 1, '`') + 1 : "";
		} else {
			rc = s_put(&b, x->p++, 1);
		}
		if (rc)
			goto out;
	}
out:
	if (rc)
		free(b.s);
	return rc;
}

/* ---- fio's command line ---- */

/* fio's own options that are not job options (fio's l_opts) */
enum s_gkind { S_G_INERT, S_G_NOJOB, S_G_DIFF, S_G_READONLY };

static const struct {
	const char *name;
	bool arg; /* takes a value ("--output file" as well as "--output=file") */
	enum s_gkind kind;
	const char *why;
} s_gopts[] = {
    {"output", true, S_G_INERT, NULL},
    {"output-format", true, S_G_INERT, NULL},
    {"minimal", false, S_G_INERT, NULL},
    {"terse-version", true, S_G_INERT, NULL},
    {"append-terse", false, S_G_INERT, NULL},
    {"latency-log", false, S_G_INERT, NULL},
    {"bandwidth-log", false, S_G_INERT, NULL},
    {"eta", true, S_G_INERT, NULL},
    {"eta-interval", true, S_G_INERT, NULL},
    {"eta-newline", true, S_G_INERT, NULL},
    {"status-interval", true, S_G_INERT, NULL},
    {"warnings-fatal", false, S_G_INERT, NULL},
    {"max-jobs", true, S_G_INERT, NULL},
    {"alloc-size", true, S_G_INERT, NULL},
    {"debug", true, S_G_INERT, NULL},
    {"idle-prof", true, S_G_INERT, NULL},
    {"aux-path", true, S_G_INERT, NULL},
    {"readonly", false, S_G_READONLY, NULL},
    {"version", false, S_G_NOJOB, NULL},
    {"help", false, S_G_NOJOB, NULL},
    {"cmdhelp", false, S_G_NOJOB, NULL},
    {"enghelp", false, S_G_NOJOB, NULL},
    {"showcmd", false, S_G_NOJOB, NULL},
    {"parse-only", false, S_G_NOJOB, NULL},
    {"cpuclock-test", false, S_G_NOJOB, NULL},
    {"crctest", false, S_G_NOJOB, NULL},
    {"merge-blktrace-only", false, S_G_NOJOB, NULL},
    {"inflate-log", true, S_G_NOJOB, NULL},
    {"daemonize", true, S_G_NOJOB, NULL},
    {"client", true, S_G_DIFF, "fio's client mode: give each host's jobs its agent (--agent)"},
    {"server", false, S_G_DIFF, "fio's server mode runs what a client sends, not these jobs"},
    {"remote-config", true, S_G_DIFF, "a job file on the fio server's host"},
    {"section", true, S_G_DIFF, "runs some sections of the job file: import the file"},
    {"trigger", true, S_G_DIFF, "a command fio runs on a trigger"},
    {"trigger-file", true, S_G_DIFF, "a command fio runs on a trigger"},
    {"trigger-timeout", true, S_G_DIFF, "a command fio runs on a trigger"},
    {"trigger-remote", true, S_G_DIFF, "a command fio runs on a trigger"},
};

/*
 * Job options that fio's command line takes bare (FIO_OPT_STR_SET: an
 * optional value), so the word after them is not their value. Any other job
 * option given bare takes the next word, as fio's getopt_long_only does,
 * unless that word is an option itself.
 */
static const char *const s_flags[] = {
    "time_based",
    "group_reporting",
    "thread",
    "stonewall",
    "wait_for_previous",
    "new_group",
    "exitall",
    "exitall_on_error",
    "zero_buffers",
    "norandommap",
    "bs_unaligned",
    "hipri",
    "fixedbufs",
    "registerfiles",
    "sqthread_poll",
    "userspace_reap",
    NULL,
};

static bool s_in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* what a fio command line made: its own defaults and jobs, each an option list */
struct s_fio {
	struct bc_import_doc *d;
	struct s_lex *x;
	struct bc_import_kv *g; /* the command's defaults so far (before/after --name=global) */
	int ng, gcap;
	struct bc_import_sec *job; /* the job options go to; NULL: the defaults */
	bool stonewall;		   /* the command's first job starts a new group */
	int njobs;
	const char *file; /* a job file named on the command line */
	int file_line;
	bool writes, readonly;
	int readonly_line;
};

static int s_global(struct s_fio *f, const char *key, const char *val, int line)
{
	if (f->ng == f->gcap) {
		int cap = f->gcap ? f->gcap * 2 : 16;
		struct bc_import_kv *g = realloc(f->g, (size_t)cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		f->g = g;
		f->gcap = cap;
	}
	f->g[f->ng] = (struct bc_import_kv){strdup(key), val ? strdup(val) : NULL, NULL, line};
	if (!f->g[f->ng].key || (val && !f->g[f->ng].val)) {
		free(f->g[f->ng].key);
		free(f->g[f->ng].val);
		return -ENOMEM;
	}
	f->ng++;
	return 0;
}

/* the section name, unique in the document (two fio processes may name a job alike) */
static char *s_unique(struct s_fio *f, const char *name, int line)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", name);
	for (int n = 2;; n++) {
		bool taken = false;

		for (int i = 0; i < f->d->nsecs && !taken; i++)
			taken = f->d->secs[i].name && !strcmp(f->d->secs[i].name, buf);
		if (!taken)
			break;
		snprintf(buf, sizeof(buf), "%s-%d", name, n);
	}
	if (strcmp(buf, name))
		s_note(f->x, line, "two jobs are named %s: the later ones get -2, -3, ...", name);
	return strdup(buf);
}

/* --name=NAME: a new job with the command's defaults so far */
static int s_new_job(struct s_fio *f, const char *name, int line)
{
	const char *src = f->d->srcs[0];
	struct bc_import_sec *s = bc_import_add_sec(f->d, src, line);
	int rc = 0;

	if (!s)
		return -ENOMEM;
	s->name = s_unique(f, name, line);
	if (!s->name)
		return -ENOMEM;
	if (f->stonewall && !f->njobs)
		rc = bc_import_add_kv(s, "stonewall", NULL, src, line);
	for (int i = 0; i < f->ng && !rc; i++) {
		char *v = f->g[i].val ? strdup(f->g[i].val) : NULL;

		rc = f->g[i].val && !v ? -ENOMEM
				       : bc_import_add_kv(s, f->g[i].key, v, src, f->g[i].line);
	}
	f->job = s;
	f->njobs++;
	return rc;
}

static int s_option(struct s_fio *f, const char *key, const char *val, int line)
{
	char *v;

	/* what the command writes, for --readonly (fio refuses such a job) */
	if (!strcmp(key, "rw") || !strcmp(key, "readwrite"))
		f->writes |= val && strcmp(val, "read") && strcmp(val, "randread");
	if (!strcmp(key, "name")) {
		if (val && !strcmp(val, "global")) {
			f->job = NULL;
			return 0;
		}
		return s_new_job(f, val && *val ? val : "fio", line);
	}
	if (!f->job)
		return s_global(f, key, val, line);
	v = val ? strdup(val) : NULL;
	if (val && !v)
		return -ENOMEM;
	return bc_import_add_kv(f->job, key, v, f->d->srcs[0], line);
}

/* one fio command's arguments (w[0] is fio itself) */
static int s_fio_args(struct s_fio *f, struct s_word *w, int nw)
{
	bool opts_end = false;
	int rc = 0;

	for (int i = 1; i < nw && !rc; i++) {
		const char *a = w[i].w;
		char key[128];
		const char *eq, *val = NULL;
		size_t k;
		bool taken = false;

		if (opts_end || a[0] != '-' || !a[1]) {
			if (f->file) {
				s_diff(f->x, w[i].line, "%s: a second job file on one fio command",
				       a);
				continue;
			}
			f->file = a;
			f->file_line = w[i].line;
			continue;
		}
		if (!strcmp(a, "--")) {
			opts_end = true;
			continue;
		}
		a += a[1] == '-' ? 2 : 1; /* fio's getopt_long_only: -rw= is --rw= */
		eq = strchr(a, '=');
		k = eq ? (size_t)(eq - a) : strlen(a);
		if (k >= sizeof(key)) {
			s_diff(f->x, w[i].line, "%s: not a fio option", w[i].w);
			continue;
		}
		memcpy(key, a, k);
		key[k] = '\0';
		val = eq ? eq + 1 : NULL;
		for (size_t g = 0; g < sizeof(s_gopts) / sizeof(s_gopts[0]) && !taken; g++) {
			if (strcmp(s_gopts[g].name, key))
				continue;
			taken = true;
			if (!val && s_gopts[g].arg && i + 1 < nw)
				val = w[++i].w;
			switch (s_gopts[g].kind) {
			case S_G_INERT:
				s_note(
				    f->x, w[i].line,
				    "--%s: fio's own output and logging, nothing bench-coord runs",
				    key);
				break;
			case S_G_NOJOB:
				s_note(f->x, w[i].line, "fio --%s runs no job: not imported", key);
				f->njobs = -1;
				break;
			case S_G_READONLY:
				f->readonly = true;
				f->readonly_line = w[i].line;
				break;
			case S_G_DIFF: {
				char what[256];

				snprintf(what, sizeof(what), "--%s: %s", key, s_gopts[g].why);
				s_diff(f->x, w[i].line, "%s", what);
				break;
			}
			}
		}
		if (taken)
			continue;
		/* a job option; one given bare takes the next word as fio does */
		if (!val && !s_in(s_flags, key) && i + 1 < nw && w[i + 1].w[0] != '-')
			val = w[++i].w;
		rc = s_option(f, key, val, w[i].line);
	}
	return rc;
}

/*
 * One fio command (w[0] is fio): its jobs into f->d; a job file it names
 * read under its options as defaults (a [global] the file's own follow)
 */
static int s_fio_command(struct s_fio *f, struct s_word *w, int nw, int line, char *err,
			 size_t errlen)
{
	const char *src = f->d->srcs[0];
	struct bc_import_sec *gs;
	int rc = s_fio_args(f, w, nw);

	if (rc)
		return rc;
	if (f->readonly && f->writes)
		s_diff(f->x, f->readonly_line,
		       "--readonly: fio refuses the writes of this command");
	if (!f->njobs && !f->file)
		s_diff(f->x, line, "fio runs no job without --name= or a job file");
	if (!f->file)
		return 0;
	gs = bc_import_add_sec(f->d, src, line);
	if (!gs || !(gs->name = strdup("global")))
		return -ENOMEM;
	snprintf(gs->kind, sizeof(gs->kind), "global");
	for (int j = 0; j < f->ng && !rc; j++) {
		char *v = f->g[j].val ? strdup(f->g[j].val) : NULL;

		rc = f->g[j].val && !v ? -ENOMEM
				       : bc_import_add_kv(gs, f->g[j].key, v, src, f->g[j].line);
	}
	return rc ? rc : bc_fio_parse_file(f->d, f->file, src, f->file_line, err, errlen);
}

/* the words before the command itself: sudo and its options, time, env, nohup, ... */
static bool s_assignment(const struct s_word *w, size_t *nlen);

static int s_skip_prefix(struct s_lex *x, struct s_word *w, int nw, int i)
{
	size_t nlen;

	while (i < nw) {
		const char *a = w[i].w;

		if (!strcmp(a, "sudo") || !strcmp(a, "doas")) {
			for (i++; i < nw && w[i].w[0] == '-'; i++)
				if (strchr("ugCDhprT", w[i].w[1]) && !w[i].w[2] && i + 1 < nw)
					i++; /* sudo -u user */
		} else if (!strcmp(a, "time") || !strcmp(a, "nohup") || !strcmp(a, "exec") ||
			   !strcmp(a, "command") || !strcmp(a, "stdbuf")) {
			for (i++; i < nw && w[i].w[0] == '-'; i++)
				;
		} else if (!strcmp(a, "env")) {
			for (i++; i < nw && (w[i].w[0] == '-' || strchr(w[i].w, '=')); i++)
				;
		} else if (!strcmp(a, "taskset") || !strcmp(a, "numactl") || !strcmp(a, "nice") ||
			   !strcmp(a, "ionice") || !strcmp(a, "chrt") || !strcmp(a, "cgexec") ||
			   !strcmp(a, "systemd-run")) {
			/* they change where or how fio's threads run: the workload's own keys */
			s_diff(x, w[i].line,
			       "%s: runs fio with other CPUs, memory or priority; give the "
			       "workload's cpus_allowed / its jobs' priority instead",
			       a);
			/* its arguments up to the command: options, and the values they take */
			for (i++; i < nw && strcmp(w[i].w, "fio") && !strstr(w[i].w, "/fio"); i++)
				;
		} else if (s_assignment(&w[i], &nlen)) {
			i++; /* VAR=value for this command alone */
		} else {
			break;
		}
	}
	return i;
}

static bool s_is_fio(const char *cmd)
{
	const char *base = strrchr(cmd, '/');

	return !strcmp(base ? base + 1 : cmd, "fio");
}

/* a shell keyword that makes the text a script, not commands one after another */
static bool s_control(const struct s_word *w)
{
	static const char *const kw[] = {"for",	     "while",  "until", "if", "case",
					 "function", "select", "{",	"(",  NULL};
	size_t n = strlen(w->w);

	return !w->quoted && (s_in(kw, w->w) || (n > 2 && !strcmp(w->w + n - 2, "()")));
}

static bool s_assignment(const struct s_word *w, size_t *nlen)
{
	const char *a = w->w;
	size_t n = 0;

	if (w->quoted && !strchr(a, '='))
		return false;
	while (isalnum((unsigned char)a[n]) || a[n] == '_')
		n++;
	*nlen = n;
	return n && !isdigit((unsigned char)a[0]) && a[n] == '=';
}

bool bc_fio_cmd_is(const char *text)
{
	static const char *const opening[] = {"do", "then", "else", "{", "(", "!", NULL};
	struct s_lex x = {.p = text,
			  .src = "",
			  .line = 1,
			  .notes = cJSON_CreateArray(),
			  .diffs = cJSON_CreateArray()};
	struct s_word *w = calloc(S_MAX_WORDS, sizeof(*w));
	const char *t = text;
	bool is = false;
	enum s_end end;
	int nw = 0;

	/* a job file's first line, after its comments, is a [section] */
	while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r' || *t == '#' || *t == ';')
		t += (*t == '#' || *t == ';') ? strcspn(t, "\n") : 1;
	/* commands, when any of them runs fio (a loop around it included: refused later) */
	while (w && x.notes && x.diffs && *t != '[' && !is && *x.p &&
	       !s_command(&x, w, &nw, &end)) {
		size_t nlen;
		int i = 0;

		while (i < nw && (s_assignment(&w[i], &nlen) || s_in(opening, w[i].w)))
			i++;
		i = s_skip_prefix(&x, w, nw, i);
		is = i < nw && s_is_fio(w[i].w);
		for (int j = 0; j < nw; j++)
			free(w[j].w);
		nw = 0;
	}
	free(w);
	cJSON_Delete(x.notes);
	cJSON_Delete(x.diffs);
	return is;
}

static void s_fio_free(struct s_fio *f)
{
	for (int i = 0; i < f->ng; i++) {
		free(f->g[i].key);
		free(f->g[i].val);
	}
	free(f->g);
	*f = (struct s_fio){0};
}

int bc_fio_cmd_parse(const char *text, const char *src, cJSON *notes, cJSON *diffs,
		     struct bc_import_doc **out, char *err, size_t errlen)
{
	struct s_lex *x = calloc(1, sizeof(*x));
	struct s_word *w = calloc(S_MAX_WORDS, sizeof(*w));
	struct bc_import_doc *d = calloc(1, sizeof(*d));
	bool new_group = false; /* the next fio command waits for those before it */
	int nw = 0, nfio = 0, file_cmds = 0, bg_line = 0, open_bg = 0, rc = 0;
	int file_line = 0;
	enum s_end end;

	*out = NULL;
	if (!x || !w || !d || !bc_import_add_src(d, src)) {
		rc = -ENOMEM;
		goto out;
	}
	*x =
	    (struct s_lex){.p = text, .src = d->srcs[0], .line = 1, .notes = notes, .diffs = diffs};
	while (*x->p) {
		int line, i = 0;
		size_t nlen;

		rc = s_command(x, w, &nw, &end);
		if (rc == -EINVAL) {
			rc = bc_import_fail(err, errlen, src, x->line,
					    "a quote or ${...} that does not end");
			goto out;
		}
		if (rc)
			goto out;
		if (!nw)
			continue;
		line = w[0].line;
		if (s_control(&w[0])) {
			rc = bc_import_fail(err, errlen, src, line,
					    "shell control flow (loops, conditions, functions): "
					    "give the fio commands one after another");
			goto out;
		}
		while (i < nw && s_assignment(&w[i], &nlen))
			i++;
		if (i == nw) { /* NAME=value lines: the shell's variables, for later commands */
			for (int j = 0; j < nw && !rc; j++) {
				s_assignment(&w[j], &nlen);
				rc = s_var_set(x, w[j].w, nlen, w[j].w + nlen + 1);
			}
		} else if ((i = s_skip_prefix(x, w, nw, i)) < nw && s_is_fio(w[i].w)) {
			struct s_fio f = {.d = d, .x = x, .stonewall = new_group && nfio};

			if (f.stonewall && open_bg)
				s_note(
				    x, line,
				    "fio started in the background at line %d may still run when "
				    "this command starts; bench-coord starts it when every job "
				    "before it has ended",
				    open_bg);
			open_bg = f.stonewall ? 0 : open_bg;
			rc = s_fio_command(&f, w + i, nw - i, line, err, errlen);
			file_line = f.file ? f.file_line : file_line;
			file_cmds += f.file != NULL;
			s_fio_free(&f);
			if (rc)
				goto out;
			nfio++;
			if (end == S_END_BG) {
				bg_line = bg_line ? bg_line : line;
				new_group = false;
			} else {
				/* the group's background fio may outlive this command */
				open_bg = bg_line;
				new_group = true;
				bg_line = 0;
			}
		} else if (i < nw && !strcmp(w[i].w, "wait")) {
			new_group = true;
			bg_line = open_bg = 0;
		} else if (i < nw) {
			s_note(x, line, "%s: not fio, not imported", w[i].w);
		}
		for (int j = 0; j < nw; j++)
			free(w[j].w);
		nw = 0;
	}
	if (!nfio)
		rc = bc_import_fail(err, errlen, src, 1, "no fio command");
	else if (file_cmds && nfio > 1)
		/* a job file's [global] would reach the other commands' jobs */
		rc = bc_import_fail(err, errlen, src, file_line,
				    "a job file beside other fio commands: import the job file "
				    "itself");
out:
	for (int j = 0; j < nw; j++)
		free(w[j].w);
	if (x)
		for (int j = 0; j < x->nvars; j++) {
			free(x->vars[j].name);
			free(x->vars[j].val);
		}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src);
	else if (rc == -E2BIG)
		snprintf(err, errlen, "%s: too many words or variables", src);
	if (rc)
		bc_import_doc_free(&d);
	*out = d;
	free(w);
	free(x);
	return rc ? (rc == -ENOMEM ? -ENOMEM : -EINVAL) : 0;
}
