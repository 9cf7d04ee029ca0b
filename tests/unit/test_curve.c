/* test_curve: CURVE key files (keygen never overwrites, a public file alone is refused), Z85 key
 * checks, known-hosts lookups with '#' inside keys, and the socket monitor telling an authenticated
 * handshake from a refused one */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/curve.h"
#include "bc_test.h"

static char s_dir[] = "/tmp/bc-test-curve-XXXXXX";

static void test_keys(void)
{
	char pub[BC_KEY_Z85_LEN + 1], err[1024], path[256];
	zcert_t *c = NULL;
	struct stat st;

	CHECK(bc_curve_key_valid("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"));
	CHECK(!bc_curve_key_valid("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf"));	 /* 39 */
	CHECK(!bc_curve_key_valid("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7x")); /* 41 */
	CHECK(!bc_curve_key_valid("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf\""));
	CHECK(!bc_curve_key_valid(NULL));

	CHECK(bc_curve_keygen(s_dir, "a.cert", false, pub, err, sizeof(err)) == 0);
	CHECK(bc_curve_key_valid(pub));
	snprintf(path, sizeof(path), "%s/a.cert_secret", s_dir);
	CHECK(!stat(path, &st) && (st.st_mode & 0777) == 0600);
	CHECK(bc_curve_keygen(s_dir, "a.cert", false, NULL, err, sizeof(err)) == -EEXIST);
	CHECK_MSG(strstr(err, "--force") != NULL, "%s", err);
	snprintf(path, sizeof(path), "%s/a.cert", s_dir);
	CHECK(bc_curve_load(path, "bench-agent keygen", &c, err, sizeof(err)) == 0);
	CHECK(c && !strcmp(zcert_public_txt(c), pub));
	zcert_destroy(&c);
	/* the secret file itself is accepted too */
	snprintf(path, sizeof(path), "%s/a.cert_secret", s_dir);
	CHECK(bc_curve_load(path, "bench-agent keygen", &c, err, sizeof(err)) == 0);
	zcert_destroy(&c);
	/* a public file alone is not a key pair */
	snprintf(path, sizeof(path), "%s/a.cert_secret", s_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/a.cert", s_dir);
	CHECK(bc_curve_load(path, "bench-agent keygen", &c, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "only a public key") != NULL, "%s", err);
	CHECK(bc_curve_load("/nonexistent-bc/x.cert", "bench-coord keygen", &c, err, sizeof(err)) ==
	      -ENOENT);
	CHECK_MSG(strstr(err, "/nonexistent-bc/x.cert") && strstr(err, "bench-coord keygen"), "%s",
		  err);
	CHECK(bc_curve_keygen(s_dir, "a.cert", true, NULL, err, sizeof(err)) == 0);
}

static void test_known_hosts(void)
{
	const char *k1 = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
	const char *k2 = "#q:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf#";
	char path[256], key[BC_KEY_Z85_LEN + 1], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/known_hosts", s_dir);
	f = fopen(path, "w");
	fprintf(f, "# agents\n\n  tcp://198.18.0.11:7470 %s\nclient-2\t%s\n", k1, k2);
	fclose(f);
	CHECK(bc_known_hosts_lookup(path, "client-1", "tcp://198.18.0.11:7470", key, err,
				    sizeof(err)) == 0 &&
	      !strcmp(key, k1));
	CHECK(bc_known_hosts_lookup(path, "client-2", "tcp://x:1", key, err, sizeof(err)) == 0 &&
	      !strcmp(key, k2));
	CHECK(bc_known_hosts_lookup(path, "client-3", "tcp://x:1", key, err, sizeof(err)) ==
	      -ENOENT);
	f = fopen(path, "a");
	fprintf(f, "client-4 notakey\n");
	fclose(f);
	CHECK(bc_known_hosts_lookup(path, "client-9", NULL, key, err, sizeof(err)) == -EINVAL);
	CHECK_MSG(strstr(err, "known_hosts:5:") != NULL, "%s", err);
	CHECK(bc_known_hosts_lookup("/nonexistent-bc", "x", NULL, key, err, sizeof(err)) ==
	      -ENOENT);
}

/* wait up to 2 s for the monitor to see a handshake outcome */
static const struct bc_monitor_state *s_wait(struct bc_monitor *m)
{
	const struct bc_monitor_state *st = NULL;
	int i;

	for (i = 0; i < 200; i++) {
		st = bc_monitor_drain(m);
		if (st->handshaken || st->failures)
			break;
		usleep(10 * 1000);
	}
	return st;
}

static void test_monitor(void)
{
	zcert_t *srv = zcert_new(), *cli = zcert_new();
	zsock_t *r = zsock_new(ZMQ_ROUTER), *d = zsock_new(ZMQ_DEALER), *p = zsock_new(ZMQ_DEALER);
	struct bc_monitor *md = bc_monitor_new(d, ZMQ_EVENT_ALL),
			  *mp = bc_monitor_new(p, ZMQ_EVENT_ALL);
	const struct bc_monitor_state *st;
	const char *ep;

	CHECK(md && mp);
	zcert_apply(srv, r);
	zsock_set_curve_server(r, 1);
	CHECK(zsock_bind(r, "tcp://127.0.0.1:*") > 0);
	ep = zsock_endpoint(r);
	zcert_apply(cli, d);
	zsock_set_curve_serverkey(d, zcert_public_txt(srv));
	zsock_set_linger(d, 0);
	zsock_set_linger(p, 0);
	CHECK(zsock_connect(d, "%s", ep) == 0);
	st = s_wait(md);
	CHECK(st->connected && st->handshaken && !st->failures);
	/* plain text against a CURVE server: a mechanism mismatch */
	CHECK(zsock_connect(p, "%s", ep) == 0);
	st = s_wait(mp);
	CHECK(st->connected && !st->handshaken && st->failures);
	CHECK(st->fail_event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL &&
	      st->fail_value == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH);
	CHECK(strstr(bc_monitor_protocol_error(st->fail_value), "mechanism mismatch") != NULL);
	bc_monitor_destroy(&md);
	bc_monitor_destroy(&mp);
	CHECK(md == NULL);
	zsock_destroy(&d);
	zsock_destroy(&p);
	zsock_destroy(&r);
	zcert_destroy(&srv);
	zcert_destroy(&cli);
}

/* fingerprints against an independent SHA-256 (python hashlib), quoting the shell reads back */
static void test_fingerprint_quote(void)
{
	char fp[BC_FINGERPRINT_LEN + 1], q[128], kh[300], pinned[BC_KEY_Z85_LEN + 1], err[512];
	const char *k2 = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";

	/* 32 zero bytes are forty '0' in Z85 */
	CHECK(bc_curve_fingerprint("0000000000000000000000000000000000000000", fp) == 0);
	CHECK_MSG(!strcmp(fp, "SHA256:Zmh6rfhivXdsj8GLjp+OIAiXFIVu4jOzkCpZHQ1fKSU"), "got %s", fp);
	CHECK(bc_curve_fingerprint("not a key", fp) == -EINVAL);
	CHECK_MSG(!strcmp(bc_shell_quote("tcp://h:7470", q, sizeof(q)), "tcp://h:7470"), "got %s",
		  q);
	CHECK_MSG(
	    !strcmp(bc_shell_quote(k2, q, sizeof(q)), "'rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7'"),
	    "got %s", q);
	CHECK_MSG(!strcmp(bc_shell_quote("it's", q, sizeof(q)), "'it'\\''s'"), "got %s", q);
	CHECK_MSG(!strcmp(bc_shell_quote("", q, sizeof(q)), "''"), "got %s", q);
	/* pin: new, same, other */
	snprintf(kh, sizeof(kh), "%s/sub/kh", s_dir);
	CHECK(bc_known_hosts_pin(kh, "a1", k2, "t", pinned, err, sizeof(err)) == 1);
	CHECK(bc_known_hosts_pin(kh, "a1", k2, "t", pinned, err, sizeof(err)) == 0);
	CHECK(bc_known_hosts_pin(kh, "a1", "0000000000000000000000000000000000000000", "t", pinned,
				 err, sizeof(err)) == -EKEYREJECTED);
	CHECK(!strcmp(pinned, k2));
	CHECK(bc_known_hosts_pin(kh, "a b", k2, "t", pinned, err, sizeof(err)) == -EINVAL);
	CHECK(bc_known_hosts_lookup(kh, "a1", NULL, pinned, err, sizeof(err)) == 0);
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(s_dir))
		SKIP("cannot create a temp dir");
	zsys_init();
	zsys_set_logstream(NULL);
	test_keys();
	test_known_hosts();
	test_fingerprint_quote();
	test_monitor();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", s_dir);
	CHECK(system(cmd) == 0);
	TEST_DONE();
}
