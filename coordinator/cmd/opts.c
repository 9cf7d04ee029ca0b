/*
 * cmd/opts.c - the options run, agents and discover share, parsed once
 * (see cmd/opts.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "cmd/opts.h"
#include "util/log.h"

/* HELLO waits beyond a day are typos, and keep the milliseconds in 32 bits */
#define S_CONNECT_MAX_S 86400

static const struct {
	unsigned bit;
	struct option opt;
} s_shared[] = {
    {BC_CMD_SHARED_SECURITY, {"cert", required_argument, NULL, BC_CMD_OPT_CERT}},
    {BC_CMD_SHARED_SECURITY, {"known-hosts", required_argument, NULL, BC_CMD_OPT_KNOWN_HOSTS}},
    {BC_CMD_SHARED_SECURITY, {"insecure", no_argument, NULL, BC_CMD_OPT_INSECURE}},
    {BC_CMD_SHARED_CONNECT,
     {"connect-timeout", required_argument, NULL, BC_CMD_OPT_CONNECT_TIMEOUT}},
    {BC_CMD_SHARED_SCRATCH, {"scratch-dir", required_argument, NULL, BC_CMD_OPT_SCRATCH_DIR}},
};

const struct option *bc_cmd_longopts(const struct option *own, unsigned shared, struct option *out,
				     size_t cap)
{
	size_t n = 0, i;

	for (; own && own->name; own++) {
		if (n + 1 >= cap)
			return NULL;
		out[n++] = *own;
	}
	for (i = 0; i < sizeof(s_shared) / sizeof(s_shared[0]); i++) {
		if (!(shared & s_shared[i].bit))
			continue;
		if (n + 1 >= cap)
			return NULL;
		out[n++] = s_shared[i].opt;
	}
	if (n >= cap)
		return NULL;
	out[n] = (struct option){NULL, 0, NULL, 0};
	return out;
}

int bc_cmd_help(int c, void (*usage)(FILE *f))
{
	usage(c == 'h' ? stdout : stderr);
	return c == 'h' ? 0 : 2;
}

int bc_cmd_bad_usage(void (*usage)(FILE *f))
{
	usage(stderr);
	return 2;
}

int bc_cmd_parse_secs(const char *opt, const char *arg, double max_s, uint32_t *ms)
{
	char *end;
	double d = strtod(arg, &end);

	if (*end || !(d > 0) || d > max_s) {
		bc_error("%s: expected seconds in (0, %g], got '%s'", opt, max_s, arg);
		return -EINVAL;
	}
	*ms = (uint32_t)(d * 1000);
	return 0;
}

int bc_cmd_fleet_opt(int c, const char *arg, struct bc_run_opts *o)
{
	switch (c) {
	case BC_CMD_OPT_CERT:
		o->cert = arg;
		return 1;
	case BC_CMD_OPT_KNOWN_HOSTS:
		o->known_hosts = arg;
		return 1;
	case BC_CMD_OPT_INSECURE:
		o->insecure = true;
		return 1;
	case BC_CMD_OPT_SCRATCH_DIR:
		o->scratch_dir = arg;
		return 1;
	case BC_CMD_OPT_CONNECT_TIMEOUT:
		if (bc_cmd_parse_secs("--connect-timeout", arg, S_CONNECT_MAX_S,
				      &o->connect_timeout_ms))
			return -EINVAL;
		return 1;
	default:
		return 0;
	}
}

int bc_cmd_import_args(int argc, char **argv, void (*usage)(FILE *f), struct bc_cmd_import_args *a)
{
	static const struct option lopts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"agent", required_argument, NULL, 'a'},
	    {"endpoint", required_argument, NULL, 'e'},
	    {"name", required_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},
	    {"lenient", no_argument, NULL, 'l'},
	    {"until-stopped", required_argument, NULL, 'u'},
	    {"lun", required_argument, NULL, 'L'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	*a = (struct bc_cmd_import_args){.im = {.agent = "local", .endpoint = "local"}};
	while ((c = getopt_long(argc, argv, "o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case 'a':
			a->im.agent = optarg;
			break;
		case 'e':
			a->im.endpoint = optarg;
			break;
		case 'n':
			a->im.name = optarg;
			break;
		case 'l':
			a->im.lenient = true;
			break;
		case 'u': {
			char *end;
			unsigned long secs = strtoul(optarg, &end, 10);

			if (*end || !secs || secs > 31u * 86400) {
				fprintf(stderr,
					"bench-coord: --until-stopped: expected seconds 1..%u, got "
					"\"%s\"\n",
					31u * 86400, optarg);
				return 2;
			}
			a->im.until_stopped_s = (unsigned)secs;
			break;
		}
		case 'L':
			/* SD=PATH or LUN=PATH: the first '=' splits (a lun has none) */
			if (!strchr(optarg, '=') || optarg[0] == '=' || !strchr(optarg, '=')[1] ||
			    a->im.nluns == BC_IMPORT_LUNS_MAX) {
				fprintf(stderr,
					"bench-coord: --lun: expected SD=PATH or LUN=PATH (at most "
					"%d), got \"%s\"\n",
					BC_IMPORT_LUNS_MAX, optarg);
				return 2;
			}
			a->luns[a->im.nluns++] = optarg;
			a->im.luns = a->luns;
			break;
		default:
			return bc_cmd_help(c, usage);
		}
	}
	if (optind >= argc)
		return bc_cmd_bad_usage(usage);
	a->im.src = argv[optind];
	/* name=value operands after the file: vdbench's command-line variables */
	a->im.vars = argv + optind + 1;
	a->im.nvars = argc - optind - 1;
	for (c = 0; c < a->im.nvars; c++)
		if (!strchr(a->im.vars[c], '=') || a->im.vars[c][0] == '=')
			return bc_cmd_bad_usage(usage);
	return -1;
}
