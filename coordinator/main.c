/*
 * main.c - bench-coord: the command table. Each subcommand lives in its own
 * file of cmd/ and gets argv starting at its own name.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/log.h"
#include "wire/proto.h"

struct s_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static int s_version(int argc, char **argv)
{
	printf("bench-coord %s (protocol %d)\n", BC_VERSION, BC_PROTO_VERSION);
	return 0;
}

static const struct s_cmd s_cmds[] = {
    {"run", bc_cmd_run, "run a profile against its agents"},
    {"validate", bc_cmd_validate, "check profiles without running them"},
    {"keygen", bc_cmd_keygen, "write this coordinator's CURVE key pair"},
    {"trust", bc_cmd_trust, "pin agents' public certificates in known-hosts"},
    {"keyscan", bc_cmd_keyscan, "fetch agents' public keys over the network (and pin them)"},
    {"report", bc_cmd_report, "regenerate a run directory's reports from run.json"},
    {"dump-seconds", bc_cmd_dump_seconds, "print a run's seconds.bin as CSV or JSON lines"},
    {"dump-events", bc_cmd_dump_events, "print a run's events.jsonl with every record in it"},
    {"compare", bc_cmd_compare, "compare the steps of several runs"},
    {"agents", bc_cmd_agents, "contact a profile's agents and show what they report"},
    {"discover", bc_cmd_discover, "list an NVMe/TCP discovery controller's subsystems"},
    {"import-fio", bc_cmd_import_fio, "translate a fio job file into a profile"},
    {"import-vdbench", bc_cmd_import_vdbench, "translate a vdbench parameter file"},
    {"version", s_version, "print the version"},
};

static void s_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: bench-coord COMMAND [options]\n\ncommands:\n");
	for (i = 0; i < sizeof(s_cmds) / sizeof(s_cmds[0]); i++)
		fprintf(f, "  %-10s %s\n", s_cmds[i].name, s_cmds[i].help);
}

int main(int argc, char **argv)
{
	size_t i;

	bc_log_init("bench-coord", BC_LOG_INFO);
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		s_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version"))
		return s_version(0, NULL);
	for (i = 0; i < sizeof(s_cmds) / sizeof(s_cmds[0]); i++)
		if (!strcmp(argv[1], s_cmds[i].name))
			return s_cmds[i].fn(argc - 1, argv + 1);
	bc_error("unknown command '%s'", argv[1]);
	s_usage(stderr);
	return 2;
}
