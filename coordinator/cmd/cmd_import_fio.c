/*
 * cmd_import_fio.c - `bench-coord import-fio JOBFILE`: a fio job file as a
 * bench-coord profile (fiojob.c does the mapping). The profile goes to
 * stdout or -o FILE, validated first. Notes (the same load, remarked on) go
 * to stderr. A job file whose load the profile would change - an option
 * with no equivalent, an engine that is not block or file I/O - is refused
 * with one "file:line: what" line per difference, unless --lenient, which
 * imports anyway and lists the differences in the profile's description.
 * Exit 0 on success, 1 when the job file cannot be read or mapped, 2 for bad
 * usage and for a refused import.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_fiojob.h"
#include "bc_cmd_opts.h"
#include "bc_import.h"
#include "bc_log.h"
#include "bc_profile.h"
#include "bc_cmd.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord import-fio [options] JOBFILE\n"
		   "  translate a fio job file into a bench-coord profile\n"
		   "  -o, --output FILE   write the profile to FILE (default: stdout)\n"
		   "      --agent NAME    the agent every volume belongs to (default: local)\n"
		   "      --endpoint EP   that agent's endpoint (default: local, started by\n"
		   "                      bench-coord itself)\n"
		   "      --name NAME     the profile's name (default: from JOBFILE)\n"
		   "      --lenient       import even where the load would differ from fio's;\n"
		   "                      the differences go into the profile's description\n");
}

int bc_cmd_import_fio(int argc, char **argv)
{
	struct bc_fio_import im = {0};
	struct bc_fio_jobfile *jf = NULL;
	cJSON *notes = NULL, *diffs = NULL, *prof = NULL;
	char err[1024], *text = NULL;
	int status;
	struct bc_cmd_import_args args;

	status = bc_cmd_import_args(argc, argv, s_usage, &args);
	if (status >= 0)
		return status;
	status = 1;
	im.src = args.src;
	im.agent = args.agent;
	im.endpoint = args.endpoint;
	im.name = args.name;
	im.lenient = args.lenient;
	notes = cJSON_CreateArray();
	diffs = cJSON_CreateArray();
	text = bc_fio_slurp(im.src);
	if (!text) {
		bc_error("cannot read '%s': %s", im.src, strerror(errno));
		goto out;
	}
	if (bc_fio_parse(text, im.src, &jf, err, sizeof(err))) {
		bc_error("%s", err);
		goto out;
	}
	prof = bc_fio_to_profile(jf, &im, notes, diffs, err, sizeof(err));
	status = bc_import_emit(im.src, "fio", prof, notes, diffs, im.lenient, args.out, err);
out:
	cJSON_Delete(prof);
	cJSON_Delete(notes);
	cJSON_Delete(diffs);
	bc_fio_free(&jf);
	free(text);
	return status;
}
