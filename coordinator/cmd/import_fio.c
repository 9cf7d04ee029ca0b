/*
 * cmd/import_fio.c - `bench-coord import-fio JOBFILE`: a fio job file, or
 * fio command lines (fiocmd.c reads them as a job file), as a bench-coord
 * profile (fiojob.c does the mapping). JOBFILE "-" is standard input. The profile goes to
 * stdout or -o FILE, validated first. Notes (the same load, remarked on) go
 * to stderr. A job file whose load the profile would change - an option
 * with no equivalent, an engine that is not block or file I/O - is refused
 * with one "file:line: what" line per difference, unless --lenient, which
 * imports anyway and lists the differences in the profile's description.
 * Exit 0 on success, 1 when the job file cannot be read or mapped, 2 for bad
 * usage and for a refused import.
 */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "import/fiocmd.h"
#include "import/fiojob.h"
#include "import/import.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord import-fio [options] JOBFILE\n"
		   "  translate a fio job file, or fio command lines (\"fio --name=...\",\n"
		   "  as a README or a script gives them), into a bench-coord profile;\n"
		   "  JOBFILE - reads standard input\n"
		   "  -o, --output FILE   write the profile to FILE (default: stdout)\n"
		   "      --agent NAME    the agent every volume belongs to (default: local)\n"
		   "      --endpoint EP   that agent's endpoint (default: local, started by\n"
		   "                      bench-coord itself)\n"
		   "      --name NAME     the profile's name (default: from JOBFILE)\n"
		   "      --lenient       import even where the load would differ from fio's;\n"
		   "                      the differences go into the profile's description\n"
		   "      --until-stopped SECS\n"
		   "                      how long jobs that run until stopped (time_based\n"
		   "                      without runtime) run: the duration of the harness\n"
		   "                      that stops fio (default: refused, no runtime known)\n");
}

/* the job file parsed and mapped; a file that does not parse exits 1 */
static int s_map(const char *text, const struct bc_import_opts *im, cJSON *notes, cJSON *diffs,
		 cJSON **prof, char *err, size_t errlen)
{
	struct bc_import_doc *jf = NULL;

	int rc = bc_fio_cmd_is(text)
		     ? bc_fio_cmd_parse(text, im->src, notes, diffs, &jf, err, errlen)
		     : bc_fio_parse(text, im->src, &jf, err, errlen);

	if (rc)
		return 1;
	*prof = bc_fio_to_profile(jf, im, notes, diffs, err, errlen);
	bc_import_doc_free(&jf);
	return 0;
}

int bc_cmd_import_fio(int argc, char **argv)
{
	struct bc_cmd_import_args a;
	int status = bc_cmd_import_args(argc, argv, s_usage, &a);

	if (status < 0 && (a.im.nvars || a.im.nluns)) /* name=value, --lun: vdbench's */
		status = bc_cmd_bad_usage(s_usage);
	return status >= 0 ? status : bc_import_run(&a.im, "fio", a.out, s_map);
}
