/*
 * bc_import.h - what the importers (import-fio: fiojob.c, import-vdbench:
 * vdbench.c) share: the text of a job or parameter file, notes and
 * differences kept once each as "file:line: what", the profile's name and
 * description, and the command's last stage - print the notes, refuse on
 * differences unless lenient, validate the profile, write it.
 */
#ifndef BC_IMPORT_H
#define BC_IMPORT_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/* a file's text (at most 64 MiB), NULL with errno set; caller frees */
char *bc_import_slurp(const char *path);

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

#endif
