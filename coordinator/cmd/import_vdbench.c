/*
 * cmd/import_vdbench.c - `bench-coord import-vdbench PARMFILE`: a vdbench
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

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "import/import.h"
#include "import/vdbparm.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord import-vdbench [options] PARMFILE [NAME=VALUE ...]\n"
		   "  translate a vdbench parameter file (hd=, sd=, wd=, rd=) into a\n"
		   "  bench-coord profile; NAME=VALUE fills in $NAME in it, as on\n"
		   "  vdbench's command line (lun=/dev/sdb for lun=$lun)\n"
		   "  -o, --output FILE   write the profile to FILE (default: stdout)\n"
		   "      --agent NAME    the agent of a file without hd= (default: local)\n"
		   "      --endpoint EP   that agent's endpoint (default: local, started by\n"
		   "                      bench-coord itself)\n"
		   "      --name NAME     the profile's name (default: from PARMFILE)\n"
		   "      --lun SD=PATH   sd=SD drives PATH (a device or file) instead of\n"
		   "                      its lun=; --lun 'LUN=PATH': every sd whose lun=\n"
		   "                      is LUN (a Windows \\\\.\\PhysicalDrive1), repeatable\n"
		   "      --lenient       import even where the load would differ from\n"
		   "                      vdbench's; the differences go into the description\n");
}

/*
 * the parameter file parsed and mapped; a file that does not parse exits 2,
 * one that cannot be read (an include=, as fio's) or no memory 1
 */
static int s_map(const char *text, const struct bc_import_opts *im, cJSON *notes, cJSON *diffs,
		 cJSON **prof, char *err, size_t errlen)
{
	struct bc_import_doc *p = NULL;
	int rc = bc_vdb_parse_vars(text, im->src, im->vars, im->nvars, &p, err, errlen);

	if (rc)
		return rc == -EINVAL ? 2 : 1;
	*prof = bc_vdb_to_profile(p, im, notes, diffs, err, errlen);
	bc_import_doc_free(&p);
	return 0;
}

int bc_cmd_import_vdbench(int argc, char **argv)
{
	struct bc_cmd_import_args a;
	int status = bc_cmd_import_args(argc, argv, s_usage, &a);

	return status >= 0 ? status : bc_import_run(&a.im, "vdbench", a.out, s_map);
}
