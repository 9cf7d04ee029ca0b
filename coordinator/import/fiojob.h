/*
 * import/fiojob.h - fio job files (the ini format fio reads) and their mapping
 * onto a bench-coord profile, for `bench-coord import-fio`.
 *
 * Parsing follows fio's reader: comments start at the first ';' or '#' of
 * a line, ${VAR} is replaced from the environment (empty when unset),
 * $ncpus / $mb_memory / $pagesize from this host, `include FILE` reads
 * FILE (relative to the including file's directory) in place. Every option
 * keeps its file and line. Mapping follows fio's semantics - [global]
 * sections set defaults for the jobs after them, `stonewall` /
 * `wait_for_previous` start a new group of concurrent jobs - and sorts what
 * it cannot express into notes (the load is the same, said for the record)
 * and differences (the load would not be fio's), each "file:line: what".
 * docs/fio.md has the mapping table.
 */
#ifndef BC_IMPORT_FIOJOB_H
#define BC_IMPORT_FIOJOB_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "import/import.h"

/*
 * Parse fio job-file text; src names it in messages and locates included
 * files. Returns 0 and the jobfile the caller owns (bc_import_doc_free): a
 * section per [name], of kind "global" for [global], its options as pairs
 * (a bare flag without a value); or -EINVAL / -ENOMEM with
 * "<file>:<line>: <what>" in err.
 */
int bc_fio_parse(const char *text, const char *src, struct bc_import_doc **out, char *err,
		 size_t errlen);

/*
 * The job file name (relative to src's directory unless absolute) parsed
 * into jf after what it holds, as `include name` at src:line would; 0 or
 * -EINVAL / -ENOMEM with "<file>:<line>: <what>" in err.
 */
int bc_fio_parse_file(struct bc_import_doc *jf, const char *name, const char *src, int line,
		      char *err, size_t errlen);

/*
 * The profile (as JSON) that runs jf's jobs. Notes (the same load, with a
 * remark) are appended to notes, differences ("file:line: option=value:
 * why") to diffs. With im->lenient the differences are also listed in the
 * profile's description. Returns NULL with a message in err when no job can
 * be mapped; a caller that is not lenient refuses the profile when diffs is
 * not empty.
 */
cJSON *bc_fio_to_profile(const struct bc_import_doc *jf, const struct bc_import_opts *im,
			 cJSON *notes, cJSON *diffs, char *err, size_t errlen);

#endif
