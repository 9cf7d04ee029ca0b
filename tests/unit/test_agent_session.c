/* test_agent_session: a real bench-agent (over CURVE) answers HELLO with host and path facts,
 * refuses a second coordinator with BUSY and another protocol version with ERROR, counts what it
 * refused, and reports an unopenable path by name. A step with an orphan_grace outlives its
 * coordinator: a HELLO with "resume" from the same key takes the session over once the owner is
 * silent (not before, not for another step or key), and REATTACH has every second sent again
 * once, in order, then the step ends as usual. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/curve.h"
#include "wire/proto.h"
#include "wire/stats.h"
#include "bc_test.h"

static char s_ep[256];
static pid_t s_pid;
static char s_keys[] = "/tmp/bc-test-session-keys-XXXXXX";
static char s_agent_cert[320], s_auth[320], s_server_key[BC_KEY_Z85_LEN + 1];
static zcert_t *s_coord_cert, *s_other_cert;

/* an agent key pair, a coordinator key pair, and the coordinator authorized */
static void s_make_keys(void)
{
	char err[512], path[400];

	if (!mkdtemp(s_keys))
		SKIP("cannot create a temp dir");
	snprintf(s_agent_cert, sizeof(s_agent_cert), "%s/agent.cert", s_keys);
	snprintf(s_auth, sizeof(s_auth), "%s/auth", s_keys);
	snprintf(path, sizeof(path), "%s/coord.cert", s_auth);
	if (bc_curve_keygen(s_keys, "agent.cert", false, s_server_key, err, sizeof(err)) ||
	    bc_curve_keygen(s_auth, "coord.cert", false, NULL, err, sizeof(err)) ||
	    bc_curve_load(path, "keygen", &s_coord_cert, err, sizeof(err))) {
		fprintf(stderr, "keys: %s\n", err);
		exit(1);
	}
	/* a second authorized coordinator key (the re-attach refuses it) */
	snprintf(path, sizeof(path), "%s/other.cert", s_auth);
	if (bc_curve_keygen(s_auth, "other.cert", false, NULL, err, sizeof(err)) ||
	    bc_curve_load(path, "keygen", &s_other_cert, err, sizeof(err))) {
		fprintf(stderr, "keys: %s\n", err);
		exit(1);
	}
	/* the authorized directory holds only the public files */
	snprintf(path, sizeof(path), "%s/coord.cert_secret", s_auth);
	unlink(path);
	snprintf(path, sizeof(path), "%s/other.cert_secret", s_auth);
	unlink(path);
}

static void s_start_agent(const char *scratch)
{
	int p[2];
	ssize_t n;

	if (pipe(p))
		SKIP("pipe failed");
	s_pid = fork();
	if (s_pid == 0) {
		dup2(p[1], 3);
		execl(BC_BIN_DIR "/bench-agent", "bench-agent", "--listen", "tcp://127.0.0.1:*",
		      "--ready-fd", "3", "--scratch-dir", scratch, "--cert", s_agent_cert,
		      "--authorized-keys", s_auth, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	/*
	 * to its newline: the agent writes the endpoint and the newline apart,
	 * and a pipe closed between the two kills it (SIGPIPE)
	 */
	for (n = 0; (size_t)n < sizeof(s_ep) - 1 && !memchr(s_ep, '\n', (size_t)n);) {
		ssize_t r = read(p[0], s_ep + n, sizeof(s_ep) - 1 - (size_t)n);

		if (r <= 0)
			break;
		n += r;
	}
	close(p[0]);
	if (n <= 0) {
		fprintf(stderr, "bench-agent did not start\n");
		exit(1);
	}
	s_ep[n] = 0;
	s_ep[strcspn(s_ep, "\n")] = 0;
}

static zsock_t *s_coord_as(zcert_t *cert)
{
	zsock_t *s = zsock_new(ZMQ_DEALER);

	zsock_set_rcvtimeo(s, 5000);
	zsock_set_linger(s, 0);
	zcert_apply(cert, s);
	zsock_set_curve_serverkey(s, s_server_key);
	if (zsock_connect(s, "%s", s_ep))
		exit(1);
	return s;
}

static zsock_t *s_coord(void)
{
	return s_coord_as(s_coord_cert);
}

/* send type+body, receive the reply into m; returns bc_msg_recv's result */
static int s_ask(zsock_t *s, enum bc_msg_type t, const char *body, struct bc_msg *m)
{
	cJSON *b = cJSON_Parse(body);
	char err[256];
	int rc;

	bc_msg_send_json(s, NULL, t, b);
	cJSON_Delete(b);
	do {
		rc = bc_msg_recv(s, false, m, err, sizeof(err));
		if (rc || m->type != BC_MSG_HEARTBEAT)
			break;
		bc_msg_clear(m);
	} while (1);
	return rc;
}

static const char *s_str(const cJSON *o, const char *k)
{
	const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));

	return v ? v : "";
}

/* the next message other than a heartbeat, HOST or TIME into m; bc_msg_recv's result */
static int s_next(zsock_t *s, struct bc_msg *m)
{
	char err[256];
	int rc;

	for (;;) {
		rc = bc_msg_recv(s, false, m, err, sizeof(err));
		if (rc || (m->type != BC_MSG_HEARTBEAT && m->type != BC_MSG_HOST &&
			   m->type != BC_MSG_TIME))
			return rc;
		bc_msg_clear(m);
	}
}

/*
 * A step of secs seconds with a 20 s orphan_grace on file: A starts it and
 * goes away after its second 1, silent for wait_us; B resumes it with A's
 * key, C with another key. ended: the step is over by then (held for B)
 */
static void s_reattach(const char *file, zcert_t *other, uint32_t secs, useconds_t wait_us,
		       bool ended)
{
	zsock_t *a = s_coord(), *b = s_coord(), *c = s_coord_as(other);
	char body[800];
	struct bc_msg m;
	struct bc_stats_hdr h;
	struct timespec ts;
	uint64_t start;
	uint32_t next = 0;
	int rc, stats = 0, done = 0;
	cJSON *j;

	CHECK(s_ask(a, BC_MSG_HELLO, "{\"coordinator\":\"test A\"}", &m) == 0 &&
	      m.type == BC_MSG_HELLO_OK);
	bc_msg_clear(&m);
	snprintf(body, sizeof(body),
		 "{\"step\":3,\"orphan_grace_ms\":20000,\"workload\":{\"rw\":\"randread\","
		 "\"rwmixread\":50,\"bs\":4096,\"iodepth\":1,\"numjobs\":1,\"direct\":false,"
		 "\"ramp\":0,\"runtime\":%u,\"rate_iops\":100},\"volumes\":[{\"path\":\"%s\","
		 "\"layout\":false}]}",
		 secs, file);
	CHECK(s_ask(a, BC_MSG_PREPARE, body, &m) == 0);
	CHECK_MSG(m.type == BC_MSG_READY, "PREPARE: %s", s_str(m.json, "message"));
	bc_msg_clear(&m);
	/* START in the agent's clock: this host's */
	clock_gettime(CLOCK_REALTIME, &ts);
	start = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + 200000000ull;
	snprintf(body, sizeof(body), "{\"step\":3,\"start_ns\":%llu,\"seconds\":%u}",
		 (unsigned long long)start, secs);
	j = cJSON_Parse(body);
	bc_msg_send_json(a, NULL, BC_MSG_START, j);
	cJSON_Delete(j);
	/* A hears seconds 0 and 1 (and heartbeats, as a coordinator does), then is gone */
	while (next < 2 && !s_next(a, &m)) {
		if (m.type == BC_MSG_STATS && !bc_stats_decode_hdr(m.bin, m.bin_len, &h))
			next = h.second + 1;
		bc_msg_clear(&m);
		bc_msg_send_json(a, NULL, BC_MSG_HEARTBEAT, NULL);
	}
	CHECK(next == 2);
	/* B may not take a session whose owner just spoke, C never (another key) */
	snprintf(body, sizeof(body),
		 "{\"coordinator\":\"test B\",\"resume\":{\"step\":3,\"start_ns\":%llu}}",
		 (unsigned long long)start);
	CHECK(s_ask(b, BC_MSG_HELLO, body, &m) == 0 && m.type == BC_MSG_BUSY);
	CHECK_MSG(strstr(s_str(m.json, "message"), "not silent") != NULL, "got '%s'",
		  s_str(m.json, "message"));
	bc_msg_clear(&m);
	zsock_destroy(&a);
	usleep(wait_us);
	CHECK(s_ask(c, BC_MSG_HELLO, body, &m) == 0 && m.type == BC_MSG_BUSY);
	CHECK_MSG(strstr(s_str(m.json, "message"), "key") != NULL, "got '%s'",
		  s_str(m.json, "message"));
	bc_msg_clear(&m);
	/* another step's start is not this one (1 ms off: exact in a JSON double) */
	snprintf(body, sizeof(body),
		 "{\"coordinator\":\"test B\",\"resume\":{\"step\":3,\"start_ns\":%llu}}",
		 (unsigned long long)start + 1000000);
	CHECK(s_ask(b, BC_MSG_HELLO, body, &m) == 0 && m.type == BC_MSG_BUSY);
	bc_msg_clear(&m);
	/* the step's own: handed over, with what the agent kept */
	snprintf(body, sizeof(body),
		 "{\"coordinator\":\"test B\",\"resume\":{\"step\":3,\"start_ns\":%llu}}",
		 (unsigned long long)start);
	CHECK(s_ask(b, BC_MSG_HELLO, body, &m) == 0 && m.type == BC_MSG_HELLO_OK);
	{
		const cJSON *r = cJSON_GetObjectItem(m.json, "reattach");

		CHECK(r && cJSON_GetNumberValue(cJSON_GetObjectItem(r, "step")) == 3);
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(r, "sent")) >= 3);
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(r, "kept_from")) == 0);
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(r, "silent_ms")) >= 2000);
		CHECK(cJSON_IsTrue(cJSON_GetObjectItem(r, "ended")) == ended);
	}
	bc_msg_clear(&m);
	/* a REATTACH for another step is refused */
	CHECK(s_ask(b, BC_MSG_REATTACH, "{\"step\":4,\"from\":1}", &m) == 0);
	CHECK(m.type == BC_MSG_ERROR && !strcmp(s_str(m.json, "code"), "reattach"));
	bc_msg_clear(&m);
	/* from second 1: 1 ... secs-1 once each, in order, the drain, STEP_DONE */
	CHECK(s_ask(b, BC_MSG_REATTACH, "{\"step\":3,\"from\":1}", &m) == 0);
	next = 1;
	for (rc = 0; !rc && !done; rc = s_next(b, &m)) {
		if (m.type == BC_MSG_STATS) {
			CHECK(!bc_stats_decode_hdr(m.bin, m.bin_len, &h));
			CHECK_MSG(h.second == (next < secs ? next : BC_STATS_DRAIN),
				  "second %u, expected %u", h.second, next);
			next++;
			stats++;
		} else if (m.type != BC_MSG_HOST) {
			done = m.type == BC_MSG_STEP_DONE;
			CHECK_MSG(done, "got %s: %s", bc_msg_name(m.type),
				  s_str(m.json, "message"));
			if (!done)
				rc = -EPROTO;
		}
		bc_msg_clear(&m);
		if (done || rc)
			break;
		bc_msg_send_json(b, NULL, BC_MSG_HEARTBEAT, NULL);
	}
	CHECK(!rc && done && stats == (int)secs);
	bc_msg_send_json(b, NULL, BC_MSG_BYE, NULL);
	usleep(200000);
	zsock_destroy(&b);
	zsock_destroy(&c);
}

int main(void)
{
	char scratch[] = "/var/tmp/bc-test-session-XXXXXX", file[300], body[600];
	zsock_t *a, *b;
	struct bc_msg m;
	const cJSON *paths, *p0, *p1;
	char err[256];
	int fd, st;

	if (!mkdtemp(scratch))
		SKIP("cannot create a temp dir");
	snprintf(file, sizeof(file), "%s/vol.dat", scratch);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || ftruncate(fd, 1 << 20))
		SKIP("cannot create %s", file);
	close(fd);
	s_make_keys();
	s_start_agent(scratch);
	a = s_coord();
	b = s_coord();

	/* HELLO: host facts and a probe of each path asked about */
	snprintf(body, sizeof(body),
		 "{\"coordinator\":\"test A\",\"paths\":[\"vol.dat\",\"%s\",\"missing.dat\"]}",
		 file);
	CHECK(s_ask(a, BC_MSG_HELLO, body, &m) == 0);
	CHECK(m.type == BC_MSG_HELLO_OK);
	CHECK(s_str(m.json, "hostname")[0] != 0);
	CHECK(strstr(s_str(m.json, "kernel"), "Linux") != NULL);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(m.json, "cpus")) >= 1);
	CHECK(!strcmp(s_str(m.json, "version"), BC_VERSION));
	paths = cJSON_GetObjectItem(m.json, "paths");
	CHECK(cJSON_GetArraySize(paths) == 3);
	p0 = cJSON_GetArrayItem(paths, 0);
	p1 = cJSON_GetArrayItem(paths, 2);
	CHECK(!strcmp(s_str(p0, "kind"), "file"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(p0, "size")) == 1 << 20);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(p0, "lbs")) >= 512);
	CHECK(!strcmp(s_str(cJSON_GetArrayItem(paths, 1), "kind"), "file"));
	CHECK(!strcmp(s_str(p1, "kind"), "missing"));
	bc_msg_clear(&m);

	/* a second coordinator is told the agent is busy, and by whom */
	CHECK(s_ask(b, BC_MSG_HELLO, "{\"coordinator\":\"test B\"}", &m) == 0);
	CHECK(m.type == BC_MSG_BUSY);
	CHECK(!strcmp(s_str(m.json, "owner"), "test A"));
	bc_msg_clear(&m);
	/* and cannot drive it */
	CHECK(s_ask(b, BC_MSG_ABORT, "{}", &m) == 0);
	CHECK(m.type == BC_MSG_ERROR && !strcmp(s_str(m.json, "code"), "busy"));
	bc_msg_clear(&m);

	/* another protocol version gets a clear error, and the agent lives on */
	CHECK(bc_msg_send_raw(b, NULL, BC_PROTO_VERSION + 1, "HELLO", "{}", 2) == 0);
	CHECK(bc_msg_recv(b, false, &m, err, sizeof(err)) == 0);
	CHECK(m.type == BC_MSG_ERROR && !strcmp(s_str(m.json, "code"), "version"));
	CHECK(strstr(s_str(m.json, "message"), "protocol version mismatch") != NULL);
	bc_msg_clear(&m);
	CHECK(s_ask(a, BC_MSG_TIME, "{\"seq\":7}", &m) == 0);
	CHECK(m.type == BC_MSG_TIME &&
	      cJSON_GetNumberValue(cJSON_GetObjectItem(m.json, "seq")) == 7);
	bc_msg_clear(&m);

	/* a path the agent cannot open is named in the error */
	CHECK(s_ask(a, BC_MSG_PREPARE,
		    "{\"step\":0,\"workload\":{\"rw\":\"randread\",\"rwmixread\":50,\"bs\":4096,"
		    "\"iodepth\":1,\"numjobs\":1,\"direct\":true,\"ramp\":0,\"runtime\":1},"
		    "\"volumes\":[{\"path\":\"/nonexistent-dir/x.dat\"}]}",
		    &m) == 0);
	CHECK(m.type == BC_MSG_ERROR);
	CHECK_MSG(strstr(s_str(m.json, "message"), "/nonexistent-dir/x.dat") != NULL, "got '%s'",
		  s_str(m.json, "message"));
	CHECK(!strcmp(s_str(m.json, "path"), "/nonexistent-dir/x.dat"));
	bc_msg_clear(&m);

	/* after BYE the agent is free for the next coordinator */
	bc_msg_send_json(a, NULL, BC_MSG_BYE, NULL);
	usleep(200000);
	CHECK(s_ask(b, BC_MSG_HELLO, "{\"coordinator\":\"test B\"}", &m) == 0);
	CHECK(m.type == BC_MSG_HELLO_OK);
	/* what was refused is counted and reported */
	{
		const cJSON *sec = cJSON_GetObjectItem(m.json, "security");
		const cJSON *d = cJSON_GetObjectItem(sec, "dropped");

		CHECK(!strcmp(s_str(sec, "mode"), "curve"));
		CHECK(!strcmp(s_str(sec, "public_key"), s_server_key));
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(d, "wrong_version")) >= 1);
		CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(d, "refused")) >= 2);
	}
	bc_msg_clear(&m);
	bc_msg_send_json(b, NULL, BC_MSG_BYE, NULL);
	usleep(200000);

	/* a step that outlives its coordinator, taken over by a resumed one */
	s_reattach(file, s_other_cert, 6, 2500000, false);
	/* one that ended in the silence: its records and STEP_DONE held for B */
	s_reattach(file, s_other_cert, 3, 4500000, true);

	zsock_destroy(&a);
	zsock_destroy(&b);
	kill(s_pid, SIGTERM);
	CHECK(waitpid(s_pid, &st, 0) == s_pid);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "agent exit status %d", st);
	unlink(file);
	rmdir(scratch);
	zcert_destroy(&s_coord_cert);
	zcert_destroy(&s_other_cert);
	snprintf(body, sizeof(body), "rm -rf '%s'", s_keys);
	CHECK(system(body) == 0);
	TEST_DONE();
}
