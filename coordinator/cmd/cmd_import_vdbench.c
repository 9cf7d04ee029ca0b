/*
 * cmd_import_vdbench.c - `bench-coord import-vdbench PARMFILE`: a vdbench
 * parameter file as a bench-coord profile (vdbparm.c does the mapping). The
 * profile goes to stdout or -o FILE, validated first; notes go to stderr. A
 * file whose load the profile would change - a parameter with no
 * equivalent - is refused with one "file:line: what" line per difference,
 * unless --lenient, which imports anyway and lists the differences in the
 * profile's description. Exit 0 on success, 1 when the file cannot be read
 * or mapped, 2 for bad usage and for a refused import.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_cmd_opts.h"
#include "bc_import.h"
#include "bc_log.h"
#include "bc_cmd.h"
#include "bc_vdbparm.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord import-vdbench [options] PARMFILE\n"
		   "  translate a vdbench parameter file (hd=, sd=, wd=, rd=) into a\n"
		   "  bench-coord profile\n"
		   "  -o, --output FILE   write the profile to FILE (default: stdout)\n"
		   "      --agent NAME    the agent of a file without hd= (default: local)\n"
		   "      --endpoint EP   that agent's endpoint (default: local, started by\n"
		   "                      bench-coord itself)\n"
		   "      --name NAME     the profile's name (default: from PARMFILE)\n"
		   "      --lenient       import even where the load would differ from\n"
		   "                      vdbench's; the differences go into the description\n");
}

int bc_cmd_import_vdbench(int argc, char **argv)
{
	struct bc_vdb_import im = {0};
	struct bc_vdb_parm *p = NULL;
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
	text = bc_import_slurp(im.src);
	if (!text) {
		bc_error("cannot read '%s': %s", im.src, strerror(errno));
		goto out;
	}
	if (bc_vdb_parse(text, im.src, &p, err, sizeof(err))) {
		bc_error("%s", err);
		status = 2;
		goto out;
	}
	prof = bc_vdb_to_profile(p, &im, notes, diffs, err, sizeof(err));
	status = bc_import_emit(im.src, "vdbench", prof, notes, diffs, im.lenient, args.out, err);
out:
	cJSON_Delete(prof);
	cJSON_Delete(notes);
	cJSON_Delete(diffs);
	bc_vdb_parm_free(&p);
	free(text);
	return status;
}
