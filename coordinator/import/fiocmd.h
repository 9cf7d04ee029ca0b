/*
 * import/fiocmd.h - fio command lines as a parsed job file, for
 * `bench-coord import-fio` given the commands a README, a runbook or a
 * shell history shows instead of a job file:
 *
 *   fio --name=hot --rw=randwrite --bs=4k --numjobs=4 \
 *       --filename=/dev/nvme0n1 --iodepth=32 --runtime=3600 --time_based &
 *   fio --name=cold --rw=write --bs=128k --filename=/dev/nvme0n1 ... &
 *
 * The text is split as the shell splits it (quotes, backslash-newline,
 * $VAR and ${VAR} from the snippet's own assignments, else the environment;
 * comments; redirections dropped) and each fio command is read as fio's
 * command line parser reads it: options before the first --name are that
 * command's defaults, each --name starts a job, "-opt" and "--opt" alike,
 * "--opt value" for options that take one. Commands started with '&' run
 * at once with the next one (one group of concurrent jobs); a command in
 * the foreground, or `wait`, ends the group. What is not fio (sleep, nvme,
 * echo ...) is named in a note; what would change the load (taskset, a
 * variable that is not set, fio's client/server mode) is a difference.
 */
#ifndef BC_IMPORT_FIOCMD_H
#define BC_IMPORT_FIOCMD_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "import/import.h"

/* text is shell commands whose first one runs fio, not a job file */
bool bc_fio_cmd_is(const char *text);

/*
 * The fio commands of text as a parsed job file (the one bc_fio_parse
 * makes): a section per job, each option at the src:line it was written on,
 * the command's defaults copied into each of its jobs, "stonewall" on the
 * first job of every group but the first. Notes and differences are appended
 * as "src:line: what". Returns 0, or -EINVAL / -ENOMEM with "src:line: what"
 * in err when the text cannot be read as commands.
 */
int bc_fio_cmd_parse(const char *text, const char *src, cJSON *notes, cJSON *diffs,
		     struct bc_import_doc **out, char *err, size_t errlen);

#endif
