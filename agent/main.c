/*
 * main.c - bench-agent: the daemon that runs I/O on a client host for a
 * bench-coord coordinator. Parses options, binds the control socket and runs
 * the control loop (control.c) until SIGINT/SIGTERM.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_agent.h"
#include "bc_log.h"
#include "bc_proto.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-agent [options]\n"
		   "  -l, --listen EP           ZeroMQ endpoint to bind (default tcp://*:7470)\n"
		   "  -s, --scratch-dir DIR     where relative volume paths live\n"
		   "                            (default /var/tmp/bench-agent)\n"
		   "      --allow-block-writes  allow write steps on block devices\n"
		   "      --ready-fd N          write the bound endpoint to fd N once listening\n"
		   "      --exit-on-bye         exit when the coordinator's session ends\n"
		   "  -v, --verbose             debug messages\n"
		   "  -V, --version             print the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"listen", required_argument, NULL, 'l'},
		{"scratch-dir", required_argument, NULL, 's'},
		{"allow-block-writes", no_argument, NULL, 'B'},
		{"ready-fd", required_argument, NULL, 'R'},
		{"exit-on-bye", no_argument, NULL, 'E'},
		{"verbose", no_argument, NULL, 'v'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bc_agent a = {
		.opts = {.listen = "tcp://*:7470",
			 .scratch_dir = "/var/tmp/bench-agent",
			 .ready_fd = -1},
	};
	enum bc_log_level lvl = BC_LOG_INFO;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "l:s:vVh", lopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			a.opts.listen = optarg;
			break;
		case 's':
			a.opts.scratch_dir = optarg;
			break;
		case 'B':
			a.opts.allow_block_writes = true;
			break;
		case 'R':
			a.opts.ready_fd = (int)strtol(optarg, &end, 10);
			if (*end || a.opts.ready_fd < 0) {
				fprintf(stderr, "bench-agent: --ready-fd: expected a file descriptor, "
						"got '%s'\n", optarg);
				return 2;
			}
			break;
		case 'E':
			a.opts.exit_on_bye = true;
			break;
		case 'v':
			lvl = BC_LOG_DEBUG;
			break;
		case 'V':
			printf("bench-agent %s (protocol %d)\n", BC_VERSION, BC_PROTO_VERSION);
			return 0;
		case 'h':
			s_usage(stdout);
			return 0;
		default:
			s_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench-agent: unexpected argument '%s'\n", argv[optind]);
		s_usage(stderr);
		return 2;
	}
	bc_log_init("bench-agent", lvl);
	return bc_agent_run(&a) ? 1 : 0;
}
