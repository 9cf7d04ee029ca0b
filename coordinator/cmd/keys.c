/*
 * cmd/keys.c - agents' keys into known-hosts from files, never from pasted
 * strings:
 *
 *   bench-coord trust [--known-hosts F] [--endpoint EP | --name N] AGENT.cert...
 *     pins each public certificate (bench-agent keygen's agent.cert) under
 *     the endpoint recorded in it (keygen --endpoint), else
 *     tcp://HOSTNAME:7470 from its hostname, else the one given.
 *   bench-coord keyscan [--trust-on-first-use] [--known-hosts F] [--name N] EP...
 *     asks each agent's key announcement (plain text, the control port + 1,
 *     agent/session/announce.h) for its public key and prints it with its
 *     fingerprint; pins it only with --trust-on-first-use.
 *
 * Either way a key already pinned for that endpoint or name that differs is
 * a hard error (exit 1), never replaced here, and every line printed that a
 * person may paste is shell-safe.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "profile/profile.h"
#include "util/curve.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/proto.h"

#define S_AGENT_PORT 7470

struct s_keyopts {
	const char *known_hosts; /* NULL: $XDG_CONFIG_HOME/bench-coord/known_hosts */
	const char *name;	 /* pin under this name instead of the endpoint */
	const char *endpoint;	 /* trust: the endpoint, whatever the file says */
	bool tofu;		 /* keyscan --trust-on-first-use */
	double timeout_s;	 /* keyscan: per endpoint */
};

static const char *s_known_hosts(const struct s_keyopts *o, char *buf, size_t len)
{
	if (o->known_hosts)
		return o->known_hosts;
	bc_curve_default_dir("bench-coord", buf, len - 13);
	strcat(buf, "/known_hosts");
	return buf;
}

/* pin and say what happened; 0, or 1 on a mismatch or error */
static int s_pin(const char *file, const char *who, const char *key, const char *origin)
{
	char pinned[BC_KEY_Z85_LEN + 1] = "", err[1024], fp[BC_FINGERPRINT_LEN + 1];
	char qf[2200];
	int rc;

	bc_curve_fingerprint(key, fp);
	rc = bc_known_hosts_pin(file, who, key, origin, pinned, err, sizeof(err));
	if (rc < 0) {
		bc_error("%s", err);
		return 1;
	}
	printf("%s %s %s: %s %s\n", rc ? "pinned" : "already pinned", who, fp,
	       rc ? "added to" : "in", bc_shell_quote(file, qf, sizeof(qf)));
	return 0;
}

static void s_trust_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord trust [options] AGENT.cert...\n"
		   "  pin each agent's public certificate (bench-agent keygen writes agent.cert)\n"
		   "  in the known-hosts file, under the endpoint the certificate records\n"
		   "  (keygen --endpoint), else tcp://HOSTNAME:7470; a different key already\n"
		   "  pinned there is an error\n"
		   "      --known-hosts FILE    the file to add to (default\n"
		   "                            $XDG_CONFIG_HOME/bench-coord/known_hosts)\n"
		   "      --endpoint EP         pin under EP (one certificate only)\n"
		   "      --name NAME           pin under the profile's agent name (one only)\n");
}

int bc_cmd_trust(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"known-hosts", required_argument, NULL, 'H'},
	    {"endpoint", required_argument, NULL, 'e'},
	    {"name", required_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct s_keyopts o = {0};
	char khbuf[1100];
	const char *kh;
	int c, i, status = 0;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'H':
			o.known_hosts = optarg;
			break;
		case 'e':
			o.endpoint = optarg;
			break;
		case 'n':
			o.name = optarg;
			break;
		default:
			return bc_cmd_help(c, s_trust_usage);
		}
	}
	if (optind >= argc || ((o.endpoint || o.name) && argc - optind > 1) ||
	    (o.endpoint && o.name))
		return bc_cmd_bad_usage(s_trust_usage);
	kh = s_known_hosts(&o, khbuf, sizeof(khbuf));
	for (i = optind; i < argc; i++) {
		zcert_t *cert = zcert_load(argv[i]);
		const char *ep, *host;
		char who[BC_ENDPOINT_MAX];

		if (!cert) {
			bc_error(
			    "trust: '%s' is not a CURVE certificate (bench-agent keygen writes "
			    "agent.cert)",
			    argv[i]);
			status = 1;
			continue;
		}
		ep = zcert_meta(cert, "endpoint");
		host = zcert_meta(cert, "hostname");
		if (o.name || o.endpoint)
			snprintf(who, sizeof(who), "%s", o.name ? o.name : o.endpoint);
		else if (ep && *ep)
			snprintf(who, sizeof(who), "%s", ep);
		else if (host && *host)
			snprintf(who, sizeof(who), "tcp://%s:%d", host, S_AGENT_PORT);
		else
			who[0] = 0;
		if (!who[0]) {
			bc_error("trust: '%s' records neither an endpoint nor a hostname: give "
				 "--endpoint tcp://HOST:PORT or --name AGENT",
				 argv[i]);
			status = 1;
		} else {
			status |= s_pin(kh, who, zcert_public_txt(cert), argv[i]);
		}
		zcert_destroy(&cert);
	}
	return status;
}

static void s_keyscan_usage(FILE *f)
{
	fprintf(
	    f, "usage: bench-coord keyscan [options] ENDPOINT...\n"
	       "  fetch each agent's public key from its key announcement (plain text, on\n"
	       "  the control port + 1: tcp://HOST:7470 asks tcp://HOST:7471) and print it\n"
	       "  with its fingerprint; compare that with `bench-agent fingerprint` on the\n"
	       "  agent host. A different key already pinned for the endpoint is an error.\n"
	       "      --trust-on-first-use  pin keys not pinned yet in the known-hosts file\n"
	       "      --known-hosts FILE    (default $XDG_CONFIG_HOME/bench-coord/known_hosts)\n"
	       "      --name NAME           pin under the profile's agent name (one endpoint)\n"
	       "      --announce EP         ask EP instead of the control port + 1 (one endpoint)\n"
	       "      --timeout S           seconds to wait for each agent (default 5)\n");
}

/* one KEYSCAN round trip to ann; 0 with key, or -errno with the reason in err */
static int s_scan(const char *ann, double timeout_s, char *key, cJSON **reply, char *err,
		  size_t errlen)
{
	zsock_t *s = zsock_new(ZMQ_DEALER);
	zpoller_t *p = NULL;
	struct bc_msg m = {0};
	const char *k;
	int rc;

	if (!s)
		return -ENOMEM;
	zsock_set_linger(s, 0);
	zsock_set_maxmsgsize(s, 4096);
	if (zsock_connect(s, "%s", ann) < 0) {
		snprintf(err, errlen, "cannot connect to '%s': %s", ann, zmq_strerror(zmq_errno()));
		rc = -EINVAL;
		goto out;
	}
	bc_msg_send_json(s, NULL, BC_MSG_KEYSCAN, NULL);
	p = zpoller_new(s, NULL);
	if (!p || zpoller_wait(p, (int)(timeout_s * 1000)) != s) {
		snprintf(err, errlen,
			 "no answer from the key announcement on %s within %.1f s (agent not "
			 "running, older, started with --key-announce off, or a firewall)",
			 ann, timeout_s);
		rc = -ETIMEDOUT;
		goto out;
	}
	rc = bc_msg_recv(s, false, &m, err, errlen);
	if (rc || m.type != BC_MSG_KEY) {
		if (!rc)
			snprintf(err, errlen, "%s answered %s, not KEY", ann, bc_msg_name(m.type));
		rc = rc ? rc : -EPROTO;
		goto out;
	}
	k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m.json, "public_key"));
	if (!bc_curve_key_valid(k)) {
		snprintf(err, errlen, "%s announced something that is not a CURVE key", ann);
		rc = -EPROTO;
		goto out;
	}
	snprintf(key, BC_KEY_Z85_LEN + 1, "%s", k);
	*reply = m.json;
	m.json = NULL;
out:
	bc_msg_clear(&m);
	zpoller_destroy(&p);
	zsock_destroy(&s);
	return rc;
}

int bc_cmd_keyscan(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"trust-on-first-use", no_argument, NULL, 't'},
	    {"known-hosts", required_argument, NULL, 'H'},
	    {"name", required_argument, NULL, 'n'},
	    {"announce", required_argument, NULL, 'a'},
	    {"timeout", required_argument, NULL, 'T'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct s_keyopts o = {.timeout_s = 5};
	const char *announce = NULL, *kh;
	char khbuf[1100], *end;
	int c, i, status = 0;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 't':
			o.tofu = true;
			break;
		case 'H':
			o.known_hosts = optarg;
			break;
		case 'n':
			o.name = optarg;
			break;
		case 'a':
			announce = optarg;
			break;
		case 'T':
			o.timeout_s = strtod(optarg, &end);
			if (*end || !(o.timeout_s > 0) || o.timeout_s > 3600) {
				bc_error("--timeout: expected seconds in (0, 3600], got '%s'",
					 optarg);
				return 2;
			}
			break;
		default:
			return bc_cmd_help(c, s_keyscan_usage);
		}
	}
	if (optind >= argc || ((o.name || announce) && argc - optind > 1))
		return bc_cmd_bad_usage(s_keyscan_usage);
	kh = s_known_hosts(&o, khbuf, sizeof(khbuf));
	zsys_init();
	zsys_set_logstream(NULL);
	for (i = optind; i < argc; i++) {
		char ann[300], key[BC_KEY_Z85_LEN + 1], pinned[BC_KEY_Z85_LEN + 1];
		char fp[BC_FINGERPRINT_LEN + 1], err[1024], q[600], origin[400];
		const char *who = o.name ? o.name : argv[i];
		cJSON *reply = NULL;
		int rc;

		if (announce)
			snprintf(ann, sizeof(ann), "%s", announce);
		else if (bc_announce_endpoint(argv[i], ann, sizeof(ann))) {
			bc_error("keyscan: '%s': expected tcp://HOST:PORT (or give --announce)",
				 argv[i]);
			status = 1;
			continue;
		}
		if (s_scan(ann, o.timeout_s, key, &reply, err, sizeof(err))) {
			bc_error("keyscan %s: %s", argv[i], err);
			status = 1;
			continue;
		}
		bc_curve_fingerprint(key, fp);
		/* a line the shell reads as endpoint, key, fingerprint and a comment */
		printf("%s ", bc_shell_quote(argv[i], q, sizeof(q)));
		printf("%s %s # host %s, bench-agent %s\n", bc_shell_quote(key, q, sizeof(q)), fp,
		       bc_rj_str("?", reply, "hostname"), bc_rj_str("?", reply, "version"));
		cJSON_Delete(reply);
		snprintf(origin, sizeof(origin), "keyscan of %s", ann);
		if (o.tofu) {
			status |= s_pin(kh, who, key, origin);
			continue;
		}
		/* without consent nothing is written, but a mismatch is still an error */
		rc = bc_known_hosts_lookup(kh, who, NULL, pinned, err, sizeof(err));
		if (!rc && strcmp(pinned, key)) {
			bc_error(
			    "keyscan %s: %s pins another key for %s: the agent's key changed, or "
			    "something else answers there",
			    argv[i], kh, who);
			status = 1;
		} else if (!rc) {
			printf("  already pinned in %s\n", bc_shell_quote(kh, q, sizeof(q)));
		} else {
			printf(
			    "  not pinned: compare %s with `bench-agent fingerprint` on the agent "
			    "host, then run\n    bench-coord keyscan --trust-on-first-use %s\n",
			    fp, bc_shell_quote(argv[i], q, sizeof(q)));
		}
	}
	return status;
}
