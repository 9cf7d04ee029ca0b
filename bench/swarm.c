/*
 * swarm.c - one process that plays N bench-agents with M volumes each, to
 * measure a real bench-coord against a fleet (bench/swarm.sh). Simulated
 * agent i owns a ROUTER socket on tcp://127.0.0.1:(PORT+i) and speaks the
 * real protocol over CURVE: HELLO, TIME, PREPARE -> READY, START, STATS every
 * second on the common timeline, the drain record, STEP_DONE whose totals
 * equal the records' sum, heartbeats, ABORT and BYE. A ZAP handler admits
 * only the coordinator key it is given, as bench-agent's does.
 *
 * One thread (plus libzmq's I/O thread): epoll over the sockets' ZMQ_FDs,
 * each woken socket drained (zmq_poll over 1,000 sockets costs about a
 * millisecond per call, which would make the swarm itself the bottleneck),
 * every socket re-checked every 50 ms and after each send (a send can eat
 * the wake-up of a message that waits). A resumed coordinator
 * (bench-coord run --resume) takes a step in flight over as from bench-agent
 * with an orphan_grace: HELLO with resume {step, start_ns} after 2 s of the
 * owner's silence gets HELLO_OK reattach {...}, REATTACH {from} has every
 * second from there sent again. The records are a pure function of (step,
 * second, agent), so none is kept: they are made again, and the STEP_DONE
 * totals count each second once. STATS bodies are assembled from a
 * pool of per-volume payloads encoded once with bc_stats_encode from
 * synthetic latency distributions (lognormal body, a slow tail), so the
 * swarm spends little CPU and leaves the machine to the coordinator.
 *
 * usage: bench_swarm -n AGENTS -m VOLUMES [-p BASE_PORT] --cert AGENT_CERT
 *                    --authorized COORD_CERT [--iops N] [--sigma S] [--jitter-ms J]
 * Prints "ready" on stdout once every socket is bound, then runs until
 * SIGINT/SIGTERM; on exit prints "swarm: records N bytes B".
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#include "synth/synth.h"
#include "util/clock.h"
#include "util/curve.h"
#include "util/json.h"
#include "wire/proto.h"
#include "wire/stats.h"

/* distinct per-volume payloads; a record picks one per volume by hash */
#define S_POOL	     64
#define S_DRAIN_POOL 4
#define S_SENT_MAX   4096

struct s_agent {
	int idx;
	zsock_t *sock;
	zframe_t *owner;       /* routing id of the session's coordinator */
	uint64_t last_beat_ns; /* CLOCK_MONOTONIC */
	uint64_t heard_ns;     /* CLOCK_MONOTONIC: the owner's last message */
	bool prepared, running;
	bool ended;	  /* the step's STEP_DONE went out: a resumed coordinator may ask again */
	bool paused;	  /* taken over: nothing is sent until REATTACH */
	uint32_t counted; /* seconds [0, counted) are in tot */
	bool drain_counted;
	uint32_t step, seconds, next_k;
	uint64_t start_ns;	      /* CLOCK_REALTIME of interval 0 */
	uint64_t jitter_ns;	      /* this agent sends this long after each boundary */
	uint64_t (*tot)[4][BC_OP_NR]; /* [vol]: ios bytes errors short per op */
};

struct s_swarm {
	int n, m;
	struct s_agent *agents;
	struct bc_synth_payload pool[S_POOL], drain[S_DRAIN_POOL];
	zsock_t *zap;
	uint8_t authorized[32];
	bool insecure;
	const char *public_txt;
	size_t maxlen; /* longest payload */
	uint8_t *body;
	const struct bc_synth_payload **picked; /* [m]: the payloads of the record being sent */
	size_t body_cap;
	uint64_t records, bytes_sent, rejected;
	/* [k]: the latest send of second k's STATS, ns after the second's end (first S_SENT_MAX) */
	uint64_t sent_after[S_SENT_MAX];
};

static void s_send(struct s_agent *a, enum bc_msg_type t, cJSON *b)
{
	bc_msg_send_json(a->sock, a->owner, t, b);
	cJSON_Delete(b);
}

static void s_on_hello(struct s_swarm *w, struct s_agent *a, struct bc_msg *m)
{
	cJSON *r = cJSON_CreateObject(), *paths, *sec, *drop, *p, *ra;
	char host[64];
	const cJSON *ps = cJSON_GetObjectItemCaseSensitive(m->json, "paths");
	const cJSON *rs = cJSON_GetObjectItemCaseSensitive(m->json, "resume");
	uint64_t silent = bc_mono_ns() - a->heard_ns;
	/* the step in flight, asked for by its start, its owner silent 2 s (as bench-agent) */
	bool take =
	    a->owner && !zframe_eq(a->owner, m->id) && rs && (a->running || a->ended) &&
	    (uint32_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rs, "step")) ==
		a->step &&
	    bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(rs, "start_ns")) == a->start_ns &&
	    silent >= 2 * BC_NS_PER_S;

	if (take)
		zframe_destroy(&a->owner);
	if (a->owner && !zframe_eq(a->owner, m->id)) {
		cJSON_AddStringToObject(r, "owner", "another coordinator");
		cJSON_AddStringToObject(r, "message", "agent is serving another coordinator");
		bc_msg_send_json(a->sock, m->id, BC_MSG_BUSY, r);
		cJSON_Delete(r);
		return;
	}
	if (!a->owner)
		a->owner = zframe_dup(m->id);
	snprintf(host, sizeof(host), "swarm-%d", a->idx);
	cJSON_AddStringToObject(r, "version", BC_VERSION);
	cJSON_AddNumberToObject(r, "protocol", BC_PROTO_VERSION);
	cJSON_AddStringToObject(r, "hostname", host);
	cJSON_AddNumberToObject(r, "cpus", 32);
	cJSON_AddStringToObject(r, "kernel", "6.1.0-swarm");
	cJSON_AddNumberToObject(r, "pid", (double)getpid());
	cJSON_AddStringToObject(r, "scratch_dir", "/var/tmp/bench-swarm");
	cJSON_AddNumberToObject(r, "agent_ns", (double)bc_real_ns());
	paths = cJSON_AddArrayToObject(r, "paths");
	cJSON_ArrayForEach(p, ps)
	{
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", cJSON_GetStringValue(p) ? p->valuestring : "?");
		cJSON_AddStringToObject(o, "resolved",
					cJSON_GetStringValue(p) ? p->valuestring : "?");
		cJSON_AddStringToObject(o, "kind", "null");
		cJSON_AddNumberToObject(o, "size", 0);
		cJSON_AddNumberToObject(o, "lbs", 512);
		cJSON_AddNumberToObject(o, "pbs", 4096);
		cJSON_AddItemToArray(paths, o);
	}
	sec = cJSON_AddObjectToObject(r, "security");
	cJSON_AddStringToObject(sec, "mode", w->insecure ? "plain" : "curve");
	if (!w->insecure)
		cJSON_AddStringToObject(sec, "public_key", w->public_txt);
	drop = cJSON_AddObjectToObject(sec, "dropped");
	cJSON_AddNumberToObject(drop, "rejected_keys", (double)w->rejected);
	a->paused = take;
	if (take) {
		ra = cJSON_AddObjectToObject(r, "reattach");
		cJSON_AddNumberToObject(ra, "step", a->step);
		bc_json_add_u64(ra, "start_ns", a->start_ns);
		cJSON_AddNumberToObject(ra, "seconds", a->seconds);
		cJSON_AddNumberToObject(ra, "sent",
					a->next_k < a->seconds ? a->next_k : a->seconds);
		cJSON_AddNumberToObject(ra, "kept_from", 0); /* every second can be made again */
		cJSON_AddBoolToObject(ra, "ended", a->ended);
		cJSON_AddNumberToObject(ra, "silent_ms", (double)(silent / BC_NS_PER_MS));
		cJSON_AddNumberToObject(ra, "grace_ms", 0);
	}
	s_send(a, BC_MSG_HELLO_OK, r);
}

static void s_on_prepare(struct s_swarm *w, struct s_agent *a, struct bc_msg *m)
{
	const cJSON *vols = cJSON_GetObjectItemCaseSensitive(m->json, "volumes"), *v;
	cJSON *r = cJSON_CreateObject(), *arr, *js, *j;
	int n = cJSON_GetArraySize(vols);

	if (n != w->m) {
		cJSON_AddStringToObject(r, "code", "prepare");
		cJSON_AddStringToObject(r, "message",
					"swarm agents have a fixed number of volumes");
		s_send(a, BC_MSG_ERROR, r);
		return;
	}
	a->step = (uint32_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m->json, "step"));
	a->prepared = true;
	a->running = a->ended = a->paused = false;
	cJSON_AddNumberToObject(r, "step", a->step);
	cJSON_AddNumberToObject(r, "jobs", 1);
	arr = cJSON_AddArrayToObject(r, "volumes");
	cJSON_ArrayForEach(v, vols)
	{
		cJSON *o = cJSON_CreateObject();
		const char *path =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "path"));

		cJSON_AddStringToObject(o, "path", path ? path : "null");
		cJSON_AddStringToObject(o, "kind", "null");
		cJSON_AddNumberToObject(o, "size", 0);
		cJSON_AddNumberToObject(o, "lbs", 512);
		cJSON_AddNumberToObject(o, "pbs", 4096);
		cJSON_AddNumberToObject(o, "win_start", 0);
		cJSON_AddNumberToObject(o, "win_end", 1 << 30);
		cJSON_AddItemToArray(arr, o);
	}
	js = cJSON_AddArrayToObject(r, "job_setup");
	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "cpus", "0-31");
	cJSON_AddStringToObject(j, "ring", "swarm");
	cJSON_AddNumberToObject(j, "ring_entries", 256);
	cJSON_AddNumberToObject(j, "ios", 32);
	cJSON_AddBoolToObject(j, "fixed_buffers", 1);
	cJSON_AddBoolToObject(j, "fixed_files", 1);
	cJSON_AddItemToArray(js, j);
	s_send(a, BC_MSG_READY, r);
}

static void s_on_start(struct s_swarm *w, struct s_agent *a, struct bc_msg *m)
{
	/* the start time's digits: a double holds ns since 1970 only to ~256 ns */
	uint64_t st = bc_json_u64_of(cJSON_GetObjectItemCaseSensitive(m->json, "start_ns"));
	double sec = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m->json, "seconds"));

	if (!a->prepared || !st || !(sec >= 1)) {
		bc_msg_send_error(a->sock, a->owner, "state", "START without a prepared step");
		return;
	}
	a->start_ns = st;
	a->seconds = (uint32_t)sec;
	a->next_k = a->counted = 0;
	a->drain_counted = false;
	a->running = true;
	a->prepared = false;
	memset(a->tot, 0, sizeof(*a->tot) * (size_t)w->m);
}

static void s_dispatch(struct s_swarm *w, struct s_agent *a, struct bc_msg *m)
{
	cJSON *r;

	if (m->type == BC_MSG_HELLO) {
		s_on_hello(w, a, m);
		return;
	}
	if (!a->owner || !zframe_eq(a->owner, m->id)) {
		bc_msg_send_error(a->sock, m->id, BC_ERR_NO_SESSION, "send HELLO first");
		return;
	}
	a->heard_ns = bc_mono_ns();
	switch (m->type) {
	case BC_MSG_REATTACH:
		if (!a->paused) {
			bc_msg_send_error(a->sock, a->owner, "reattach", "no step taken over");
			break;
		}
		/* every second from `from` on again, then live; an ended step's drain and end too
		 */
		a->next_k = (uint32_t)cJSON_GetNumberValue(
		    cJSON_GetObjectItemCaseSensitive(m->json, "from"));
		a->paused = false;
		a->running = true;
		a->ended = false;
		break;
	case BC_MSG_TIME:
		r = cJSON_CreateObject();
		cJSON_AddNumberToObject(
		    r, "seq",
		    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m->json, "seq")));
		cJSON_AddNumberToObject(r, "agent_ns", (double)bc_real_ns());
		s_send(a, BC_MSG_TIME, r);
		break;
	case BC_MSG_PREPARE:
		s_on_prepare(w, a, m);
		break;
	case BC_MSG_START:
		s_on_start(w, a, m);
		break;
	case BC_MSG_ABORT:
		a->running = a->prepared = a->ended = a->paused = false;
		break;
	case BC_MSG_BYE:
		a->running = a->prepared = a->ended = a->paused = false;
		zframe_destroy(&a->owner);
		break;
	default:
		break;
	}
}

/* STATS for interval k (BC_STATS_DRAIN for the drain) of agent a */
static int s_send_stats(struct s_swarm *w, struct s_agent *a, uint32_t k)
{
	size_t need = 64 + (size_t)w->m * (10 + w->maxlen), off;
	int v, o;

	if (need > w->body_cap) {
		free(w->body);
		free(w->picked);
		w->body = malloc(need);
		w->picked = calloc((size_t)w->m, sizeof(*w->picked));
		w->body_cap = w->body && w->picked ? need : 0;
		if (!w->body_cap)
			return -ENOMEM;
	}
	off = k == BC_STATS_DRAIN ? bc_synth_record(w->body, need, a->step, k, a->idx, w->m,
						    w->drain, S_DRAIN_POOL, w->picked)
				  : bc_synth_record(w->body, need, a->step, k, a->idx, w->m,
						    w->pool, S_POOL, w->picked);
	/* a second made again for a resumed coordinator is in the totals once */
	for (v = 0; (k == BC_STATS_DRAIN ? !a->drain_counted : k >= a->counted) && v < w->m; v++)
		for (o = 0; o < BC_OP_NR; o++) {
			a->tot[v][0][o] += w->picked[v]->ios[o];
			a->tot[v][1][o] += w->picked[v]->bytes[o];
			a->tot[v][2][o] += w->picked[v]->errors[o];
			a->tot[v][3][o] += w->picked[v]->short_ios[o];
		}
	if (k == BC_STATS_DRAIN)
		a->drain_counted = true;
	else if (k >= a->counted)
		a->counted = k + 1;
	w->records++;
	w->bytes_sent += off;
	return bc_msg_send_bin(a->sock, a->owner, BC_MSG_STATS, w->body, off);
}

static void s_send_done(struct s_swarm *w, struct s_agent *a)
{
	cJSON *r = cJSON_CreateObject(), *arr, *cpu;
	int v, o;

	cJSON_AddNumberToObject(r, "step", a->step);
	cJSON_AddNumberToObject(r, "seconds", a->seconds);
	bc_json_add_u64(r, "planned_start_ns", a->start_ns); /* exact, as the agent */
	cJSON_AddNumberToObject(r, "start_late_min_ns", 20000 + a->idx % 7 * 1000);
	cJSON_AddNumberToObject(r, "start_late_max_ns", 60000 + a->idx % 11 * 1000);
	arr = cJSON_AddArrayToObject(r, "volumes");
	for (v = 0; v < w->m; v++) {
		cJSON *vo = cJSON_CreateObject();

		for (o = 0; o < BC_OP_NR; o++) {
			cJSON *op = cJSON_AddObjectToObject(vo, bc_op_names[o]);

			bc_json_add_u64(op, "ios", a->tot[v][0][o]);
			bc_json_add_u64(op, "bytes", a->tot[v][1][o]);
			bc_json_add_u64(op, "errors", a->tot[v][2][o]);
			bc_json_add_u64(op, "short", a->tot[v][3][o]);
		}
		cJSON_AddItemToArray(arr, vo);
	}
	cpu = cJSON_AddObjectToObject(r, "cpu");
	cJSON_AddNumberToObject(cpu, "process_user_ns", 0);
	cJSON_AddNumberToObject(cpu, "process_sys_ns", 0);
	cJSON_AddNumberToObject(cpu, "jobs_user_ns", 0);
	cJSON_AddNumberToObject(cpu, "jobs_sys_ns", 0);
	s_send(a, BC_MSG_STEP_DONE, r);
}

/* every interval whose end (plus this agent's jitter) has passed, then the drain; true if it sent
 */
static bool s_tick(struct s_swarm *w, struct s_agent *a, uint64_t real, uint64_t mono)
{
	bool sent = false;

	while (a->running && !a->paused) {
		uint64_t due = a->start_ns + (uint64_t)(a->next_k + 1) * BC_NS_PER_S + a->jitter_ns;

		if (real < due)
			break;
		sent = true;
		if (a->next_k < a->seconds) {
			uint64_t end = due - a->jitter_ns, now;

			s_send_stats(w, a, a->next_k);
			now = bc_real_ns();
			if (a->next_k < S_SENT_MAX && now - end > w->sent_after[a->next_k])
				w->sent_after[a->next_k] = now - end;
		} else {
			s_send_stats(w, a, BC_STATS_DRAIN);
			s_send_done(w, a);
			a->running = false;
			a->ended = true;
		}
		a->next_k++;
	}
	if (a->owner && mono - a->last_beat_ns >= BC_NS_PER_S) {
		bc_msg_send_json(a->sock, a->owner, BC_MSG_HEARTBEAT, NULL);
		a->last_beat_ns = mono;
		sent = true;
	}
	return sent;
}

static int s_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* when the swarm had handed a second's last record to libzmq: its own share of the lag */
static void s_sent_summary(struct s_swarm *w)
{
	static uint64_t v[S_SENT_MAX];
	size_t n = 0, k;

	for (k = 0; k < S_SENT_MAX; k++)
		if (w->sent_after[k])
			v[n++] = w->sent_after[k];
	if (!n)
		return;
	qsort(v, n, sizeof(v[0]), s_cmp_u64);
	fprintf(stderr,
		"swarm: last record of a second sent after its end: p50 %.1f ms p99 %.1f ms\n",
		(double)v[n / 2] / 1e6, (double)v[n * 99 / 100] / 1e6);
}

/* ZAP (RFC 27): admit the one authorized coordinator key, as bench-agent's handler does */
static void s_on_zap(struct s_swarm *w)
{
	zmsg_t *req = zmsg_recv(w->zap), *rep;
	zframe_t *f[7];
	char z85[41] = "";
	bool ok;
	int i;

	if (!req)
		return;
	for (i = 0; i < 7; i++)
		f[i] = i ? zmsg_next(req) : zmsg_first(req);
	ok = f[6] && zframe_size(f[6]) == 32 && !memcmp(zframe_data(f[6]), w->authorized, 32);
	if (f[6] && zframe_size(f[6]) == 32)
		zmq_z85_encode(z85, zframe_data(f[6]), 32);
	if (!ok)
		w->rejected++;
	rep = zmsg_new();
	zmsg_addstr(rep, "1.0");
	zmsg_addmem(rep, f[1] ? zframe_data(f[1]) : NULL, f[1] ? zframe_size(f[1]) : 0);
	zmsg_addstr(rep, ok ? "200" : "400");
	zmsg_addstr(rep, ok ? "OK" : "key not authorized");
	zmsg_addstr(rep, ok ? z85 : "");
	zmsg_addmem(rep, NULL, 0);
	zmsg_send(&rep, w->zap);
	zmsg_destroy(&req);
}

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench_swarm -n AGENTS -m VOLUMES [-p BASE_PORT] (--cert AGENT_CERT "
		   "--authorized COORD_CERT | --insecure)\n"
		   "                   [--iops PER_VOLUME] [--sigma S] [--jitter-ms MS] "
		   "[--io-threads N]\n");
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"agents", required_argument, NULL, 'n'},
	    {"volumes", required_argument, NULL, 'm'},
	    {"port", required_argument, NULL, 'p'},
	    {"cert", required_argument, NULL, 'c'},
	    {"authorized", required_argument, NULL, 'a'},
	    {"insecure", no_argument, NULL, 'I'},
	    {"iops", required_argument, NULL, 'i'},
	    {"jitter-ms", required_argument, NULL, 'j'},
	    {"io-threads", required_argument, NULL, 't'},
	    {"sigma", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct s_swarm w = {.n = 10, .m = 16};
	const char *certf = NULL, *authf = NULL;
	zcert_t *cert = NULL, *coord = NULL;
	struct epoll_event ev, evs[256];
	bool *maybe = NULL; /* [n + 1]: socket i may hold a message (n: the ZAP socket) */
	uint64_t swept = 0;
	int epfd = -1;
	struct rlimit rl;
	char err[512];
	int port = 17000, c, i, rc = 1, iothreads = 1;
	uint64_t iops = 2000, jitter_ms = 20, pairs = 0, plen = 0;
	double sigma = 0.3; /* lognormal shape of the reads' latency; wider: more buckets */

	while ((c = getopt_long(argc, argv, "n:m:p:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			w.n = atoi(optarg);
			break;
		case 'm':
			w.m = atoi(optarg);
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'c':
			certf = optarg;
			break;
		case 'a':
			authf = optarg;
			break;
		case 'I':
			w.insecure = true;
			break;
		case 'i':
			iops = strtoull(optarg, NULL, 10);
			break;
		case 'j':
			jitter_ms = strtoull(optarg, NULL, 10);
			break;
		case 't':
			iothreads = atoi(optarg);
			break;
		case 's':
			sigma = atof(optarg);
			break;
		case 'h':
			s_usage(stdout);
			return 0;
		default:
			s_usage(stderr);
			return 2;
		}
	}
	if (w.n < 1 || w.m < 1 || port < 1 || port + w.n > 65535 ||
	    (!w.insecure && (!certf || !authf))) {
		s_usage(stderr);
		return 2;
	}
	/* a few descriptors per simulated agent: listener, connection, mailbox */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	zsys_init();
	zsys_set_logstream(NULL);
	zsys_set_max_sockets((size_t)w.n + 64);
	zsys_set_io_threads((size_t)iothreads);
	if (!w.insecure) {
		if (bc_curve_load(certf, "bench-agent keygen", &cert, err, sizeof(err))) {
			fprintf(stderr, "bench_swarm: %s\n", err);
			return 1;
		}
		coord = zcert_load(authf);
		if (!coord) {
			fprintf(stderr, "bench_swarm: cannot read coordinator key '%s'\n", authf);
			goto out;
		}
		memcpy(w.authorized, zcert_public_key(coord), 32);
		w.public_txt = zcert_public_txt(cert);
		/* the ZAP endpoint must exist before the first CURVE handshake */
		w.zap = zsock_new(ZMQ_REP);
		if (!w.zap || zsock_bind(w.zap, "inproc://zeromq.zap.01")) {
			fprintf(stderr, "bench_swarm: cannot bind the ZAP handler\n");
			goto out;
		}
	}
	for (i = 0; i < S_POOL; i++) {
		if (bc_synth_payload(&w.pool[i], iops, sigma))
			goto out;
		pairs += w.pool[i].pairs;
		plen += w.pool[i].len;
		if (w.pool[i].len > w.maxlen)
			w.maxlen = w.pool[i].len;
	}
	for (i = 0; i < S_DRAIN_POOL; i++) {
		if (bc_synth_payload(&w.drain[i], 40, sigma))
			goto out;
		if (w.drain[i].len > w.maxlen)
			w.maxlen = w.drain[i].len;
	}
	fprintf(stderr,
		"bench_swarm: %d agents x %d volumes, %.0f histogram buckets and %.0f "
		"bytes per volume-second on average\n",
		w.n, w.m, (double)pairs / S_POOL, (double)plen / S_POOL);
	/* libzmq allocates each message; keep the freed heap rather than fault it in every second
	 */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	w.agents = calloc((size_t)w.n, sizeof(*w.agents));
	maybe = calloc((size_t)w.n + 1, sizeof(*maybe));
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!w.agents || !maybe || epfd < 0)
		goto out;
	for (i = 0; i < w.n; i++) {
		struct s_agent *a = &w.agents[i];

		a->idx = i;
		a->jitter_ns = jitter_ms ? (uint64_t)i * 7919 % (jitter_ms * 1000) * 1000 : 0;
		a->tot = calloc((size_t)w.m, sizeof(*a->tot));
		a->sock = zsock_new(ZMQ_ROUTER);
		if (!a->tot || !a->sock)
			goto out;
		zsock_set_sndtimeo(a->sock, 1000);
		zsock_set_linger(a->sock, 0);
		if (!w.insecure) {
			zcert_apply(cert, a->sock);
			zsock_set_curve_server(a->sock, 1);
			zsock_set_zap_domain(a->sock, "bench-swarm");
		}
		if (zsock_bind(a->sock, "tcp://127.0.0.1:%d", port + i) < 0) {
			fprintf(stderr, "bench_swarm: cannot bind tcp://127.0.0.1:%d: %s\n",
				port + i, zmq_strerror(zmq_errno()));
			goto out;
		}
		ev.events = EPOLLIN;
		ev.data.u32 = (uint32_t)i;
		epoll_ctl(epfd, EPOLL_CTL_ADD, zsock_fd(a->sock), &ev);
	}
	if (w.zap) {
		ev.events = EPOLLIN;
		ev.data.u32 = (uint32_t)w.n;
		epoll_ctl(epfd, EPOLL_CTL_ADD, zsock_fd(w.zap), &ev);
	}
	printf("ready\n");
	fflush(stdout);
	while (!zsys_interrupted) {
		uint64_t real, mono;
		int n = epoll_wait(epfd, evs, (int)(sizeof(evs) / sizeof(evs[0])), 2);

		if (n < 0 && errno != EINTR)
			break;
		for (i = 0; i < n; i++)
			maybe[evs[i].data.u32] = true;
		mono = bc_mono_ns();
		if (mono - swept >= 50 * BC_NS_PER_MS) {
			swept = mono;
			memset(maybe, 1, (size_t)w.n + 1);
		}
		for (i = 0; i <= w.n; i++) {
			zsock_t *sk = i < w.n ? w.agents[i].sock : w.zap;

			if (!maybe[i] || !sk)
				continue;
			maybe[i] = false;
			while (zsock_events(sk) & ZMQ_POLLIN) {
				struct bc_msg m;
				char e[256];

				if (i == w.n) {
					s_on_zap(&w);
					continue;
				}
				if (!bc_msg_recv(sk, true, &m, e, sizeof(e)) && m.id)
					s_dispatch(&w, &w.agents[i], &m);
				bc_msg_clear(&m);
				maybe[i] = true; /* replies were sent: look again next time */
			}
		}
		real = bc_real_ns();
		mono = bc_mono_ns();
		for (i = 0; i < w.n; i++)
			if (s_tick(&w, &w.agents[i], real, mono))
				maybe[i] = true;
	}
	s_sent_summary(&w);
	fprintf(stderr, "swarm: records %llu bytes %llu rejected %llu\n",
		(unsigned long long)w.records, (unsigned long long)w.bytes_sent,
		(unsigned long long)w.rejected);
	rc = 0;
out:
	for (i = 0; w.agents && i < w.n; i++) {
		zframe_destroy(&w.agents[i].owner);
		zsock_destroy(&w.agents[i].sock);
		free(w.agents[i].tot);
	}
	for (i = 0; i < S_POOL; i++)
		bc_synth_payload_free(&w.pool[i]);
	for (i = 0; i < S_DRAIN_POOL; i++)
		bc_synth_payload_free(&w.drain[i]);
	free(w.agents);
	free(maybe);
	if (epfd >= 0)
		close(epfd);
	free(w.body);
	free(w.picked);
	zsock_destroy(&w.zap);
	zcert_destroy(&cert);
	zcert_destroy(&coord);
	return rc;
}
