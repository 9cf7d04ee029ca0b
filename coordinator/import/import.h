/*
 * import/import.h - what the importers (import-fio: fiojob.c, import-vdbench:
 * vdbparm.c) share: the options, the parsed file (sections of key=value
 * pairs, each with its file and line), the text of a job or parameter file, notes and
 * differences kept once each as "file:line: what", the profile's name and
 * description, and the command's last stage - print the notes, refuse on
 * differences unless lenient, validate the profile, write it.
 */
#ifndef BC_IMPORT_IMPORT_H
#define BC_IMPORT_IMPORT_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#define BC_IMPORT_LUNS_MAX 64

/* what both importers take: the file, the profile's name, where the volumes go */
struct bc_import_opts {
	const char *src;      /* the file's name, for the profile's description */
	const char *name;     /* profile name; NULL: from src */
	const char *agent;    /* the agent the volumes belong to (fio: all; vdbench: without hd=) */
	const char *endpoint; /* its endpoint ("local" or tcp://...) */
	bool lenient;	      /* differences go into the description instead of failing */
	/*
	 * import-vdbench's operands after the file, "name=value" each: what
	 * vdbench's command line substitutes for $name (and !name) in the
	 * parameter file and the files it includes
	 */
	char *const *vars;
	int nvars;
	/*
	 * import-vdbench's --lun KEY=PATH, each: the sd= named KEY, or every
	 * sd= whose lun= is KEY (a Windows raw device, \\.\PhysicalDrive1),
	 * drives PATH on its agents instead of its lun=
	 */
	char *const *luns;
	int nluns;
	/*
	 * how long a job that runs until it is stopped (fio's time_based
	 * without runtime) runs: the harness's duration; 0 when not given
	 */
	unsigned until_stopped_s;
};

/* one key=value of an imported file (a fio option, a vdbench pair), where it was written */
struct bc_import_kv {
	char *key;	 /* lowercased */
	char *val;	 /* NULL for a bare flag (fio's "time_based") */
	const char *src; /* the file it was read from (owned by the bc_import_doc) */
	int line;
};

/* a fio [section] or a vdbench definition ("sd=name,..."): its pairs in file order */
struct bc_import_sec {
	char kind[8]; /* the importer's: fio "global" for [global]; vdbench "hd", "sd", ... */
	char *name;   /* NULL for vdbench's general parameters */
	struct bc_import_kv *kv;
	int nkv;
	const char *src;
	int line;
};

/* a parsed file with its includes; bc_import_doc_free */
struct bc_import_doc {
	struct bc_import_sec *secs;
	int nsecs;
	char **srcs; /* file names, the top one first */
	int nsrcs;
	/* vdbench: "name=value" substituted for $name and !name in every line read */
	char *const *vars;
	int nvars;
};

/* a copy of src that d keeps for its pairs to point at; NULL without memory */
const char *bc_import_add_src(struct bc_import_doc *d, const char *src);
/* a new section at the end of d, read at src:line, all else zero; NULL without memory */
struct bc_import_sec *bc_import_add_sec(struct bc_import_doc *d, const char *src, int line);
/* append key (lowercased) = val, which s owns from now on (freed on failure); 0 or -ENOMEM */
int bc_import_add_kv(struct bc_import_sec *s, const char *key, char *val, const char *src,
		     int line);
void bc_import_doc_free(struct bc_import_doc **d);

/* s without leading and trailing white space (cut in place) */
char *bc_import_trim(char *s);
/* "src:line: what" into err; returns -EINVAL */
int bc_import_fail(char *err, size_t errlen, const char *src, int line, const char *what);

/* a file's text (at most 64 MiB; "-": standard input), NULL with errno set; caller frees */
char *bc_import_slurp(const char *path);
/*
 * The text of an included file name (bc_import_slurp), relative to the
 * directory of src, the including file, unless absolute; its path in path.
 * NULL with errno set.
 */
char *bc_import_include(const char *src, const char *name, char *path, size_t len);

/* append the formatted string to arr unless arr already holds it */
void bc_import_vadd(cJSON *arr, const char *fmt, va_list ap);
void bc_import_add(cJSON *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "src:line: " + fmt, once, into diffs */
void bc_import_diff(cJSON *diffs, const char *src, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* [A-Za-z0-9._-] of in, anything else '-' ("job" when empty) */
void bc_import_sanitize(const char *in, char *out, size_t len);
/* the profile name: name when given, else src's base name without ext */
void bc_import_name(const char *name, const char *src, const char *ext, char *out, size_t len);

/*
 * prof's "description": "imported from <what> <src> by bench-coord <cmd>",
 * with lenient the differences after it
 */
void bc_import_describe(cJSON *prof, const char *what, const char *src, const char *cmd,
			bool lenient, const cJSON *diffs);

/*
 * The command's end: notes to stderr as "src: note: ...", differences one a
 * line; refused (exit 2) when there are differences and not lenient; prof
 * NULL (err says why) exits 1; else prof is validated as a profile and
 * written to out (NULL: stdout). Returns the exit status; prof stays the
 * caller's. tool is the other tool's name for the refusal ("fio").
 */
int bc_import_emit(const char *src, const char *tool, cJSON *prof, const cJSON *notes,
		   const cJSON *diffs, bool lenient, const char *out, const char *err);

/*
 * An importer's own stage: text (of im->src) parsed and mapped into *prof,
 * notes and diffs. Returns 0 (*prof NULL with a message in err when nothing
 * maps), or the exit status for a file that does not parse, err saying why.
 */
typedef int (*bc_import_map_fn)(const char *text, const struct bc_import_opts *im, cJSON *notes,
				cJSON *diffs, cJSON **prof, char *err, size_t errlen);

/*
 * A whole import command after its options: read im->src, map it, then
 * bc_import_emit (tool names the other tool, out the output file or NULL).
 * Returns the exit status.
 */
int bc_import_run(const struct bc_import_opts *im, const char *tool, const char *out,
		  bc_import_map_fn map);

#endif
