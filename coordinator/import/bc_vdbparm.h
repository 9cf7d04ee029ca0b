/*
 * bc_vdbparm.h - vdbench parameter files (hd=, sd=, wd=, rd= and general
 * parameters) and their mapping onto a bench-coord profile, for
 * `bench-coord import-vdbench`.
 *
 * Parsing follows vdbench's reader: a line starting with '*', '#' or '/' is
 * a comment, so is anything after a blank followed by '#'; a definition is
 * "kind=name" then comma-separated key=value pairs (values may be lists in
 * parentheses) and goes on over the following lines until the next line
 * that starts a definition (or a general parameter); "kind=default" sets
 * defaults for the definitions of that kind after it; include=FILE reads
 * FILE in place. Every pair keeps its file and line. Mapping sorts what it
 * cannot express into notes (the same load, said for the record) and
 * differences (the load would not be vdbench's), each "file:line: what".
 * docs/vdbench.md has the mapping table.
 */
#ifndef BC_VDBPARM_H
#define BC_VDBPARM_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

struct bc_vdb_kv {
	char *key;	 /* lowercased */
	char *val;	 /* as written, "(4k,50,8k,50)" lists with their parentheses */
	const char *src; /* the file it was read from (owned by the parm) */
	int line;
};

struct bc_vdb_def {
	char kind[8]; /* "hd", "sd", "wd", "rd", "fsd", "fwd", or "" for general parameters */
	char *name;   /* the definition's name, "default" for defaults; NULL for general */
	struct bc_vdb_kv *kv; /* the pairs after the name (general: all of them) */
	int nkv;
	const char *src;
	int line;
};

struct bc_vdb_parm {
	struct bc_vdb_def *defs;
	int ndefs;
	char **srcs; /* file names, the top one first */
	int nsrcs;
};

/*
 * Parse parameter-file text; src names it in messages and locates included
 * files. Returns 0 and a parm the caller owns (bc_vdb_parm_free), or
 * -EINVAL / -ENOMEM with "<file>:<line>: <what>" in err.
 */
int bc_vdb_parse(const char *text, const char *src, struct bc_vdb_parm **out, char *err,
		 size_t errlen);
void bc_vdb_parm_free(struct bc_vdb_parm **p);

struct bc_vdb_import {
	const char *src;      /* parameter file name, for the description */
	const char *name;     /* profile name; NULL: from src */
	const char *agent;    /* the agent of a file without hd= */
	const char *endpoint; /* its endpoint ("local" or tcp://...) */
	bool lenient;	      /* differences go into the description instead of failing */
};

/*
 * The profile (as JSON) that runs p's run definitions, one step (or sweep)
 * per rd= and loop value. Notes go to notes, differences ("file:line:
 * key=value: why") to diffs; with im->lenient the differences are also in
 * the description. NULL with a message in err when nothing can be mapped.
 */
cJSON *bc_vdb_to_profile(const struct bc_vdb_parm *p, const struct bc_vdb_import *im, cJSON *notes,
			 cJSON *diffs, char *err, size_t errlen);

#endif
