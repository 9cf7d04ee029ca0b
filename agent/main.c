/*
 * main.c - bench-agent: the daemon that runs I/O on a client host for a
 * bench-coord coordinator. Parses options and the config file, binds the
 * control socket (CURVE unless --insecure) and runs the control loop
 * (control.c) until SIGINT/SIGTERM. `bench-agent keygen [DIR]` writes the
 * agent's key pair instead.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "nvme/tcp.h"
#include "safety/allowlist.h"
#include "session/announce.h"
#include "session/config.h"
#include "session/control.h"
#include "session/volume.h"
#include "target/opener.h"
#include "target/target.h"
#include "util/clock.h"
#include "util/curve.h"
#include "util/log.h"
#include "wire/proto.h"

#define S_CERT_NAME "agent.cert"
#define S_KEYS_NAME "authorized_keys"

static void s_usage(FILE *f)
{
	char dir[1024];

	bc_curve_default_dir("bench-agent", dir, sizeof(dir));
	fprintf(
	    f,
	    "usage: bench-agent [options]\n"
	    "       bench-agent keygen [--force] [--endpoint EP] [DIR]\n"
	    "                            write DIR/" S_CERT_NAME " (public) and DIR/" S_CERT_NAME
	    "_secret\n"
	    "                            (default DIR: %s; EP: where coordinators reach\n"
	    "                            this agent, recorded for bench-coord trust)\n"
	    "       bench-agent fingerprint [CERT]   print the public key and its fingerprint\n"
	    "  -l, --listen EP           ZeroMQ endpoint to bind (default tcp://*:7470)\n"
	    "  -s, --scratch-dir DIR     where relative volume paths live\n"
	    "                            (default /var/tmp/bench-agent)\n"
	    "  -c, --config FILE         JSON config: {\"allow\": [globs], \"listen\", "
	    "\"scratch_dir\",\n"
	    "                            \"cert\", \"authorized_keys\", \"key_announce\"};\n"
	    "                            options given here win\n"
	    "      --allow GLOB          also allow volumes matching GLOB (repeatable); without\n"
	    "                            any, only the scratch directory and \"null\" are allowed\n"
	    "      --allow-destructive   allow writes to devices that hold data or a partition\n"
	    "                            table, for volumes the profile marks \"destructive\"\n"
	    "      --cert FILE           this agent's key pair (default %s/" S_CERT_NAME ")\n"
	    "      --authorized-keys DIR coordinators' public key files admitted\n"
	    "                            (default %s/" S_KEYS_NAME ")\n"
	    "      --key-announce EP     answer bench-coord keyscan with the public key, in plain\n"
	    "                            text, on EP (default: the --listen port + 1 when it is\n"
	    "                            a number; \"off\": none)\n"
	    "      --insecure            plain text, no authentication (trusted networks only)\n"
	    "      --allow-block-writes  deprecated, no effect (see --allow, --allow-destructive)\n"
	    "      --ready-fd N          write the bound endpoint to fd N once listening\n"
	    "      --exit-on-bye         exit when the coordinator's session ends\n"
	    "      --handshake-timeout S a connection that has not completed its handshake\n"
	    "                            within S seconds is closed (default 10)\n"
	    "      --debug-clock-ppm PPM for tests: this agent's clocks run PPM parts per\n"
	    "                            million fast (negative: slow), as a drifting host's\n"
	    "      --deadman-ms MS       for tests: end the session (and stop I/O) after MS ms\n"
	    "                            of coordinator silence, running or idle (default:\n"
	    "                            5000 while I/O runs, 60000 between steps)\n"
	    "      --orphan-ring-kib N   for tests: the records kept for a silent coordinator\n"
	    "                            (orphan_grace) get N KiB instead of their budget\n"
	    "  -v, --verbose             debug messages\n"
	    "  -V, --version             print the version\n",
	    dir, dir, dir);
}

/* bench-agent keygen [--force] [--endpoint EP] [DIR] */
static int s_keygen(int argc, char **argv)
{
	char dir[1024], keys[1100], pub[BC_KEY_Z85_LEN + 1], err[1024], fp[BC_FINGERPRINT_LEN + 1];
	char q[2300], qc[2300];
	const char *endpoint = NULL;
	bool force = false;
	int i;

	bc_curve_default_dir("bench-agent", dir, sizeof(dir));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--force")) {
			force = true;
		} else if (!strcmp(argv[i], "--endpoint") && i + 1 < argc) {
			endpoint = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			s_usage(stdout);
			return 0;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "bench-agent keygen: unknown option '%s'\n", argv[i]);
			return 2;
		} else {
			snprintf(dir, sizeof(dir), "%s", argv[i]);
		}
	}
	if (bc_curve_keygen_at(dir, S_CERT_NAME, force, endpoint, pub, err, sizeof(err))) {
		fprintf(stderr, "bench-agent keygen: %s\n", err);
		return 1;
	}
	snprintf(keys, sizeof(keys), "%s/%s", dir, S_KEYS_NAME);
	if (mkdir(keys, 0700) && errno != EEXIST)
		fprintf(stderr, "bench-agent keygen: cannot create '%s': %s\n", keys,
			strerror(errno));
	bc_curve_fingerprint(pub, fp);
	snprintf(q, sizeof(q), "%s/%s", dir, S_CERT_NAME);
	bc_shell_quote(q, qc, sizeof(qc));
	/*
	 * every line a person may paste is shell-safe: Z85 keys hold $ ! * ] &
	 * and may begin with '-', so the key is always in single quotes (the Z85
	 * alphabet, ZeroMQ RFC 32, has no quote or backslash to escape)
	 */
	printf("wrote %s/%s (public) and %s/%s_secret (keep it on this host)\n"
	       "server key: '%s'\n"
	       "fingerprint: %s\n"
	       "  give the public file to the coordinator host and trust it there:\n"
	       "    bench-coord trust %s%s\n"
	       "  or, from the coordinator host: bench-coord keyscan --trust-on-first-use "
	       "tcp://HOST:7470\n"
	       "  (compare the fingerprint it prints with the one above)\n",
	       dir, S_CERT_NAME, dir, S_CERT_NAME, pub, fp,
	       endpoint ? "" : "--endpoint tcp://HOST:7470 ", qc);
	bc_shell_quote(keys, qc, sizeof(qc));
	printf("authorized coordinators: copy each coordinator's public key file (bench-coord\n"
	       "  keygen writes coord.cert) into %s\n",
	       qc);
	return 0;
}

/* bench-agent fingerprint [CERT]: what keyscan shows, to compare on this host */
static int s_fingerprint(int argc, char **argv)
{
	char dir[1024], path[1100], fp[BC_FINGERPRINT_LEN + 1], q[100];
	zcert_t *c;

	bc_curve_default_dir("bench-agent", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, S_CERT_NAME);
	if (argc > 1)
		snprintf(path, sizeof(path), "%s", argv[1]);
	c = zcert_load(path);
	if (!c) {
		fprintf(stderr, "bench-agent fingerprint: cannot read a certificate from '%s'\n",
			path);
		return 1;
	}
	bc_curve_fingerprint(zcert_public_txt(c), fp);
	printf("%s %s\n", bc_shell_quote(zcert_public_txt(c), q, sizeof(q)), fp);
	zcert_destroy(&c);
	return 0;
}

/*
 * Descriptors: a shell's soft limit is often 1,024, and with it an agent
 * that devices, io_uring rings and idle TCP connections (scanners, a
 * flood) have used up spins on accept(EMFILE) and refuses its real
 * coordinator. The hard limit is the administrator's ceiling: take it.
 */
static void s_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rlim_t was = rl.rlim_cur;

		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			bc_warn("cannot raise the descriptor limit from %llu to %llu: %s",
				(unsigned long long)was, (unsigned long long)rl.rlim_max,
				strerror(errno));
		else
			bc_info("descriptor limit raised from %llu to %llu",
				(unsigned long long)was, (unsigned long long)rl.rlim_max);
	}
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"listen", required_argument, NULL, 'l'},
	    {"scratch-dir", required_argument, NULL, 's'},
	    {"config", required_argument, NULL, 'c'},
	    {"allow", required_argument, NULL, 'A'},
	    {"allow-destructive", no_argument, NULL, 'D'},
	    {"cert", required_argument, NULL, 'C'},
	    {"authorized-keys", required_argument, NULL, 'K'},
	    {"insecure", no_argument, NULL, 'I'},
	    {"allow-block-writes", no_argument, NULL, 'B'},
	    {"ready-fd", required_argument, NULL, 'R'},
	    {"exit-on-bye", no_argument, NULL, 'E'},
	    {"deadman-ms", required_argument, NULL, 'T'},
	    {"orphan-ring-kib", required_argument, NULL, 'O'},
	    {"key-announce", required_argument, NULL, 'k'},
	    {"handshake-timeout", required_argument, NULL, 'H'},
	    {"debug-clock-ppm", required_argument, NULL, 'P'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"version", no_argument, NULL, 'V'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct bc_agent a = {.opts = {.ready_fd = -1}};
	struct bc_safety safety = {0};
	struct bc_agent_config cfg = {0};
	enum bc_log_level lvl = BC_LOG_INFO;
	const char *config = NULL, *listen = NULL, *scratch = NULL, *cert = NULL, *keys = NULL;
	char defdir[1024], defcert[1100], defkeys[1100], err[1024], ledger[1100], ann[300];
	const char *announce = NULL;
	char **allow = NULL;
	int nallow = 0, c, i, rc = 2;
	char *end;

	if (argc > 1 && !strcmp(argv[1], "keygen"))
		return s_keygen(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "fingerprint"))
		return s_fingerprint(argc - 1, argv + 1);
	allow = calloc((size_t)argc, sizeof(*allow));
	if (!allow)
		return 1;
	while ((c = getopt_long(argc, argv, "l:s:c:vVh", lopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			listen = optarg;
			break;
		case 's':
			scratch = optarg;
			break;
		case 'c':
			config = optarg;
			break;
		case 'A':
			allow[nallow++] = optarg;
			break;
		case 'D':
			safety.allow_destructive = true;
			break;
		case 'C':
			cert = optarg;
			break;
		case 'K':
			keys = optarg;
			break;
		case 'I':
			a.opts.insecure = true;
			break;
		case 'B':
			a.opts.allow_block_writes = true;
			break;
		case 'R':
			a.opts.ready_fd = (int)strtol(optarg, &end, 10);
			if (*end || a.opts.ready_fd < 0) {
				fprintf(stderr,
					"bench-agent: --ready-fd: expected a file descriptor, "
					"got '%s'\n",
					optarg);
				goto out;
			}
			break;
		case 'E':
			a.opts.exit_on_bye = true;
			break;
		case 'T': {
			unsigned long ms = strtoul(optarg, &end, 10);

			if (*end || end == optarg || ms < 100 || ms > 3600000) {
				fprintf(
				    stderr,
				    "bench-agent: --deadman-ms: expected 100-3600000, got '%s'\n",
				    optarg);
				goto out;
			}
			a.opts.deadman_ms = (uint32_t)ms;
			break;
		}
		case 'O': {
			unsigned long kib = strtoul(optarg, &end, 10);

			if (*end || end == optarg || kib < 1 || kib > 1048576) {
				fprintf(stderr,
					"bench-agent: --orphan-ring-kib: expected 1-1048576, got "
					"'%s'\n",
					optarg);
				goto out;
			}
			a.opts.orphan_ring_kib = (uint32_t)kib;
			break;
		}
		case 'k':
			announce = optarg;
			break;
		case 'H': {
			unsigned long sec = strtoul(optarg, &end, 10);

			if (*end || end == optarg || sec < 1 || sec > 3600) {
				fprintf(
				    stderr,
				    "bench-agent: --handshake-timeout: expected 1-3600 (seconds), "
				    "got '%s'\n",
				    optarg);
				goto out;
			}
			a.opts.handshake_ms = (uint32_t)sec * 1000;
			break;
		}
		case 'P': {
			long ppm = strtol(optarg, &end, 10);

			if (*end || end == optarg || ppm < -100000 || ppm > 100000 || !ppm) {
				fprintf(stderr,
					"bench-agent: --debug-clock-ppm: expected -100000..100000 "
					"(not 0), got '%s'\n",
					optarg);
				goto out;
			}
			/* a drifting host clock, for tests of the coordinator's drift checks */
			bc_clock_skew_set((int32_t)ppm);
			bc_warn(
			    "--debug-clock-ppm: this agent's clocks run %+ld ppm off the host's "
			    "(a test of drift; never for a measurement)",
			    ppm);
			break;
		}
		case 'v':
			lvl = BC_LOG_DEBUG;
			break;
		case 'V':
			printf("bench-agent %s (protocol %d)\n", BC_VERSION, BC_PROTO_VERSION);
			rc = 0;
			goto out;
		case 'h':
			s_usage(stdout);
			rc = 0;
			goto out;
		default:
			s_usage(stderr);
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench-agent: unexpected argument '%s'\n", argv[optind]);
		s_usage(stderr);
		goto out;
	}
	bc_log_init("bench-agent", lvl);
	s_raise_nofile();
	if (config && bc_agent_config_load(config, &safety, &cfg, err, sizeof(err))) {
		bc_error("%s", err);
		goto out;
	}
	for (i = 0; i < nallow; i++)
		if (bc_safety_allow(&safety, allow[i])) {
			bc_error("--allow '%s': expected an absolute path or glob", allow[i]);
			goto out;
		}
	bc_curve_default_dir("bench-agent", defdir, sizeof(defdir));
	snprintf(defcert, sizeof(defcert), "%s/%s", defdir, S_CERT_NAME);
	snprintf(defkeys, sizeof(defkeys), "%s/%s", defdir, S_KEYS_NAME);
	a.opts.listen = listen ? listen : cfg.listen ? cfg.listen : "tcp://*:7470";
	a.opts.scratch_dir = scratch	       ? scratch
			     : cfg.scratch_dir ? cfg.scratch_dir
					       : "/var/tmp/bench-agent";
	a.opts.cert = cert ? cert : cfg.cert ? cfg.cert : defcert;
	a.opts.authorized_keys = keys ? keys : cfg.authorized_keys ? cfg.authorized_keys : defkeys;
	snprintf(safety.scratch_dir, sizeof(safety.scratch_dir), "%s", a.opts.scratch_dir);
	/* the scratch directory as it is now, if it exists: a swap of it later is refused */
	if (bc_safety_pin_scratch(&safety, err, sizeof(err))) {
		bc_error("%s", err);
		goto out;
	}
	/* the key announcement: explicit, off, or beside a numbered control port */
	if (!announce)
		announce = cfg.key_announce;
	if (announce && strcmp(announce, "off")) {
		a.opts.announce = announce;
		a.opts.announce_given = true;
	} else if (!announce && !bc_announce_endpoint(a.opts.listen, ann, sizeof(ann)))
		a.opts.announce = ann;
	/* who may add coordinators: said before anyone connects (the secret: bc_curve_load) */
	if (!a.opts.insecure)
		bc_curve_perm_warn(a.opts.authorized_keys, "authorized keys directory", false);
	a.opts.safety = &safety;
	/* every volume a target opens is judged on its descriptor (safety/vopen.h) */
	bc_target_set_opener(bc_agent_volume_open, &safety);
	if (a.opts.allow_block_writes)
		bc_warn("--allow-block-writes is deprecated and has no effect: writes to allowed "
			"block devices are permitted when the device is unused and blank (see "
			"--allow and --allow-destructive)");
	if (safety.allow_destructive)
		bc_warn("--allow-destructive: volumes the profile marks \"destructive\" may be "
			"overwritten even when they hold data");
	/* what a SIGKILLed or crashed agent left connected goes first (nvme/tcp.h) */
	if (mkdir(a.opts.scratch_dir, 0755) && errno != EEXIST)
		bc_debug("cannot create '%s': %s", a.opts.scratch_dir, strerror(errno));
	snprintf(ledger, sizeof(ledger), "%s/nvme-tcp-connected", a.opts.scratch_dir);
	i = bc_nvme_tcp_ledger_open("", ledger, err, sizeof(err));
	if (i < 0)
		bc_log(i == -ENOENT ? BC_LOG_INFO : BC_LOG_WARN,
		       "%s: NVMe/TCP controllers this agent connects are not recorded (a crash "
		       "would leave them connected)",
		       err);
	rc = bc_agent_run(&a) ? 1 : 0;
	bc_nvme_tcp_ledger_close();
out:
	bc_agent_config_free(&cfg);
	bc_safety_free(&safety);
	free(allow);
	return rc;
}
