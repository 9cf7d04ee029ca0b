/*
 * import/vdbparm.h - vdbench parameter files (hd=, sd=, wd=, rd= and general
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
#ifndef BC_IMPORT_VDBPARM_H
#define BC_IMPORT_VDBPARM_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "import/import.h"

/*
 * Parse parameter-file text; src names it in messages and locates included
 * files. Returns 0 and the parm the caller owns (bc_import_doc_free): a
 * section per definition, its kind "hd", "sd", "wd", "rd", "fsd" or "fwd"
 * and its name ("default" for a kind's defaults), or of kind "" and no name
 * for general parameters; its pairs after the name, values as written
 * ("(4k,50,8k,50)" lists keep their parentheses). Or, with
 * "<file>:<line>: <what>" in err, -EINVAL (what vdbench would not read),
 * -EIO (an include= that cannot be read) or -ENOMEM.
 */
int bc_vdb_parse(const char *text, const char *src, struct bc_import_doc **out, char *err,
		 size_t errlen);
/*
 * The same, with vdbench's command-line variables: each of vars[nvars],
 * "name=value", replaces $name and !name in every line of the file and of
 * the files it includes, as vdbench does (vdbench -f FILE lun=/dev/sdb)
 */
int bc_vdb_parse_vars(const char *text, const char *src, char *const *vars, int nvars,
		      struct bc_import_doc **out, char *err, size_t errlen);

/*
 * The profile (as JSON) that runs p's run definitions, one step (or sweep)
 * per rd= and loop value. Notes go to notes, differences ("file:line:
 * key=value: why") to diffs; with im->lenient the differences are also in
 * the description. NULL with a message in err when nothing can be mapped.
 */
cJSON *bc_vdb_to_profile(const struct bc_import_doc *p, const struct bc_import_opts *im,
			 cJSON *notes, cJSON *diffs, char *err, size_t errlen);

#endif
