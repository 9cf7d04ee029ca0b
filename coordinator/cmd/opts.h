/*
 * cmd/opts.h - the command-line options that every command opening a
 * fleet of agents shares (run, agents, discover): their getopt_long entries,
 * the one parser of their values into struct bc_run_opts, and the parsers of
 * seconds and of the PROFILE operand; and what every command does with -h and
 * with bad usage (exit 0 and 2). Private to coordinator/cmd/.
 */
#ifndef BC_CMD_OPTS_H
#define BC_CMD_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fleet/fleet.h"
#include "import/import.h"

/* getopt_long codes of the shared options (a command's own options use others) */
enum {
	BC_CMD_OPT_CERT = 'c',
	BC_CMD_OPT_KNOWN_HOSTS = 'H',
	BC_CMD_OPT_INSECURE = 'I',
	BC_CMD_OPT_CONNECT_TIMEOUT = 'C',
	BC_CMD_OPT_SCRATCH_DIR = 'S',
};

/* which shared options a command takes (bits of bc_cmd_longopts' "shared") */
#define BC_CMD_SHARED_SECURITY 0x1u /* --cert FILE, --known-hosts FILE, --insecure */
#define BC_CMD_SHARED_CONNECT  0x2u /* --connect-timeout S */
#define BC_CMD_SHARED_SCRATCH  0x4u /* --scratch-dir DIR */

/*
 * A command's getopt_long table: its own entries (own, ending with a NULL
 * name) followed by the shared ones the bits of shared select, into out[cap]
 * with the closing entry. Returns out, or NULL when cap is too small.
 */
const struct option *bc_cmd_longopts(const struct option *own, unsigned shared, struct option *out,
				     size_t cap);

/*
 * Applies getopt_long's code c with its argument arg to o when c is a shared
 * option (--cert, --known-hosts, --insecure, --connect-timeout,
 * --scratch-dir). Returns 1 when it took c, 0 when c is not one of them (the
 * caller's own option, or '?'), -EINVAL when arg is bad (the message is
 * printed, naming the option and the value).
 */
int bc_cmd_fleet_opt(int c, const char *arg, struct bc_run_opts *o);

/*
 * The last case of a command's option switch, on getopt_long's code c:
 * -h/--help ('h') prints the usage on stdout and gives 0, anything else (an
 * unknown option, a missing argument) the usage on stderr and 2. Returns the
 * command's exit status.
 */
int bc_cmd_help(int c, void (*usage)(FILE *f));
/* operands that do not fit: the usage on stderr; returns 2, the exit status of bad usage */
int bc_cmd_bad_usage(void (*usage)(FILE *f));

/*
 * Seconds in (0, max_s] from arg into *ms. Returns 0, or -EINVAL with
 * "OPT: expected seconds in (0, MAX], got 'ARG'" printed (NaN is refused).
 */
int bc_cmd_parse_secs(const char *opt, const char *arg, double max_s, uint32_t *ms);

/*
 * what import-fio and import-vdbench take: the same options, one FILE
 * operand (import-vdbench: then name=value operands, vdbench's variables)
 */
struct bc_cmd_import_args {
	const char *out; /* -o FILE, NULL: stdout */
	/* the operand, --name NAME (NULL: from the file), --agent NAME and --endpoint EP
	 * (default "local" both), --lenient */
	struct bc_import_opts im;
	char *luns[BC_IMPORT_LUNS_MAX]; /* --lun KEY=PATH (import-vdbench), im.luns points here */
};

/*
 * Parses an importer's command line into *a (usage prints the command's own
 * help). Returns -1 when the command goes on, else its exit code: 0 after
 * --help, 2 for bad usage (the usage printed on stderr).
 */
int bc_cmd_import_args(int argc, char **argv, void (*usage)(FILE *f), struct bc_cmd_import_args *a);

#endif
