/*
 * fleet/fleet.c - the coordinator's agent connections: starting "local" agents on
 * loopback, one DEALER socket per agent, HELLO with a bounded wait, the
 * clock-offset exchange, and an orderly goodbye that leaves nothing running.
 *
 * Every connection is CURVE: to a profile agent with the coordinator's key
 * pair (--cert) and the agent's server_key (profile or --known-hosts), plain
 * only with --insecure; to a local agent with key pairs made for this run
 * alone, so even a one-machine run is authenticated. A socket monitor per
 * connection turns a silent handshake failure into a precise error.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "util/clock.h"
#include "util/curve.h"
#include "util/json.h"
#include "util/rjson.h"
#include "util/log.h"
#include "wire/clocksync.h"

/* TIME exchanges per agent; the minimum-RTT sample gives the offset */
#define S_TIME_ROUNDS 8
/*
 * agents with a TIME exchange in flight at once: enough to hide round trips
 * (1,000 agents x 8 rounds one at a time is seconds), few enough that a reply
 * does not queue behind hundreds of others and inflate its round trip
 */
#define S_TIME_WINDOW	   16
#define S_SPAWN_TIMEOUT_MS 5000

static void s_agent_binary(char *out, size_t len)
{
	const char *env = getenv("BC_AGENT_BIN");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		slash = strrchr(self, '/');
		/* bench-agent is installed and built next to bench-coord */
		if (slash && (size_t)(slash - self) + sizeof("/bench-agent") <= len) {
			memcpy(out, self, (size_t)(slash - self));
			memcpy(out + (slash - self), "/bench-agent", sizeof("/bench-agent"));
			if (!access(out, X_OK))
				return;
		}
	}
	snprintf(out, len, "bench-agent");
}

static void s_child_exec(const char *bin, int ready_fd, char *const *argv, const char *log)
{
	int fd;

	/* a local agent must not outlive its coordinator, even after a crash */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (ready_fd == 3)
		fcntl(3, F_SETFD, 0);
	else if (dup2(ready_fd, 3) < 0)
		_exit(126);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	execvp(bin, argv);
	_exit(127);
}

/*
 * The run's key material for local agents: an ephemeral coordinator key
 * pair, and a private directory (0700) holding each local agent's pair and
 * an authorized-keys directory with the coordinator's public key. Removed
 * by bc_fleet_close.
 */
static int s_local_keys(struct bc_fleet *f, char *err, size_t errlen)
{
	char auth[BC_PATH_MAX + 16], path[BC_PATH_MAX + 32];
	int rc;

	if (f->local_cert)
		return 0;
	snprintf(f->keydir, sizeof(f->keydir), "/tmp/bench-coord-keys.XXXXXX");
	if (!mkdtemp(f->keydir)) {
		rc = -errno;
		f->keydir[0] = 0;
		snprintf(err, errlen, "cannot create a directory for local agents' keys: %s",
			 strerror(-rc));
		return rc;
	}
	snprintf(auth, sizeof(auth), "%s/authorized", f->keydir);
	snprintf(path, sizeof(path), "%s/coord.cert", auth);
	f->local_cert = zcert_new();
	if (!f->local_cert || mkdir(auth, 0700) || zcert_save_public(f->local_cert, path)) {
		snprintf(err, errlen, "cannot write local agents' keys in '%s': %s", f->keydir,
			 strerror(errno));
		return -EIO;
	}
	return 0;
}

static int s_spawn_local(struct bc_fleet *f, struct bc_conn *c, char *skey, char *err,
			 size_t errlen)
{
	char bin[PATH_MAX], scratch[BC_PATH_MAX + BC_NAME_MAX + 2], log[BC_PATH_MAX + 96];
	char cert[BC_PATH_MAX + BC_NAME_MAX + 8], auth[BC_PATH_MAX + 16];
	zcert_t *ac = zcert_new();
	/*
	 * fixed options, "--allow PATH" (and its namespace, or a file set's
	 * tree) per volume, 4 for NVMe/TCP volumes; ns[nvols + v]: volume v's tree
	 */
	const char **argv = calloc(20 + 6 * (size_t)c->nvols, sizeof(*argv));
	char(*ns)[BC_PATH_MAX] = calloc(2 * (size_t)c->nvols + 1, sizeof(*ns));
	bool tcp_allowed = false, formats = false;
	unsigned part;
	struct pollfd pfd;
	int pipefd[2], rc = 0, st, v, k = 0;
	ssize_t n;
	size_t got = 0;

	s_agent_binary(bin, sizeof(bin));
	snprintf(scratch, sizeof(scratch), "%s/%s", f->scratch_root, c->spec->name);
	snprintf(log, sizeof(log), "%s/agent-%s.log", f->logdir, c->spec->name);
	snprintf(cert, sizeof(cert), "%s/%s.cert", f->keydir, c->spec->name);
	snprintf(auth, sizeof(auth), "%s/authorized", f->keydir);
	for (v = 0; v < f->prof->nsteps; v++)
		formats |= f->prof->steps[v].format.set;
	if (!ac || !argv || !ns || zcert_save(ac, cert)) {
		snprintf(err, errlen, "agent %s: cannot write its key pair '%s'", c->spec->name,
			 cert);
		zcert_destroy(&ac);
		free(argv);
		free(ns);
		return -EIO;
	}
	snprintf(skey, BC_KEY_Z85_LEN + 1, "%s", zcert_public_txt(ac));
	zcert_destroy(&ac);
	argv[k++] = "bench-agent";
	argv[k++] = "--listen";
	argv[k++] = "tcp://127.0.0.1:*";
	argv[k++] = "--ready-fd";
	argv[k++] = "3";
	argv[k++] = "--scratch-dir";
	argv[k++] = scratch;
	argv[k++] = "--exit-on-bye";
	argv[k++] = "--cert";
	argv[k++] = cert;
	argv[k++] = "--authorized-keys";
	argv[k++] = auth;
	if (f->opts->allow_destructive)
		argv[k++] = "--allow-destructive";
	/* the profile is this user's own consent for an agent they start themselves */
	for (v = 0; v < c->nvols; v++) {
		const char *p = f->prof->volumes[c->vols[v]].path;

		if (p[0] == '/') {
			argv[k++] = "--allow";
			argv[k++] = p;
		}
		/* a file set's files are below its directory: all of them, as its tree has */
		if (p[0] == '/' && f->prof->volumes[c->vols[v]].fileset.enabled) {
			snprintf(ns[c->nvols + v], sizeof(ns[0]), "%s/**", p);
			argv[k++] = "--allow";
			argv[k++] = ns[c->nvols + v];
		}
		/* a step that formats touches the partition's whole namespace: allowed as well */
		if (p[0] == '/' && formats &&
		    !bc_nvme_partition_ns(p, ns[v], sizeof(ns[v]), &part)) {
			argv[k++] = "--allow";
			argv[k++] = ns[v];
		}
		/*
		 * An NVMe/TCP namespace's device is known once the agent attached it:
		 * allow NVMe namespaces; the write checks (mounts, holders,
		 * signatures) still apply to whichever it turns out to be.
		 */
		if (f->prof->volumes[c->vols[v]].nvme_tcp.set && !tcp_allowed) {
			argv[k++] = "--allow";
			argv[k++] = "/dev/nvme*n*";
			argv[k++] = "--allow";
			argv[k++] = "/dev/ng*n*";
			tcp_allowed = true;
		}
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		free(argv);
		free(ns);
		return -errno;
	}
	c->pid = fork();
	if (c->pid < 0) {
		rc = -errno;
		c->pid = 0;
		close(pipefd[0]);
		close(pipefd[1]);
		free(argv);
		free(ns);
		snprintf(err, errlen, "agent %s: cannot fork: %s", c->spec->name, strerror(-rc));
		return rc;
	}
	if (c->pid == 0)
		s_child_exec(bin, pipefd[1], (char *const *)argv, log);
	free(argv);
	free(ns);
	close(pipefd[1]);
	pfd.fd = pipefd[0];
	pfd.events = POLLIN;
	/* the agent writes its bound endpoint and a newline, then closes the pipe */
	while (got < sizeof(c->endpoint) - 1) {
		if (poll(&pfd, 1, S_SPAWN_TIMEOUT_MS) <= 0) {
			rc = -ETIMEDOUT;
			break;
		}
		n = read(pipefd[0], c->endpoint + got, sizeof(c->endpoint) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		if (memchr(c->endpoint, '\n', got))
			break;
	}
	close(pipefd[0]);
	c->endpoint[got] = 0;
	c->endpoint[strcspn(c->endpoint, "\n")] = 0;
	if (!rc && strncmp(c->endpoint, "tcp://", 6))
		rc = -ECHILD;
	if (rc) {
		if (waitpid(c->pid, &st, WNOHANG) == c->pid)
			c->pid = 0;
		snprintf(err, errlen, "agent %s: local bench-agent '%s' did not start (see %s)",
			 c->spec->name, bin, log);
	}
	return rc;
}

/*
 * The server key of a profile agent (profile, else --known-hosts) and the
 * coordinator's own key pair; skey stays "" with --insecure (plain text).
 */
static int s_remote_keys(struct bc_fleet *f, const struct bc_conn *c, char *skey, char *err,
			 size_t errlen)
{
	const struct bc_run_opts *o = f->opts;
	char def[1100], kh[1100], lerr[512] = "";
	const char *known = o->known_hosts;
	int rc;

	if (o->insecure)
		return 0;
	/* like ssh: a known_hosts file beside the key pair is read when it exists */
	bc_curve_default_dir("bench-coord", kh, sizeof(kh) - 16);
	strcat(kh, "/known_hosts");
	if (!known && !access(kh, F_OK))
		known = kh;
	if (c->spec->server_key[0]) {
		snprintf(skey, BC_KEY_Z85_LEN + 1, "%s", c->spec->server_key);
	} else if (known) {
		rc = bc_known_hosts_lookup(known, c->spec->name, c->endpoint, skey, lerr,
					   sizeof(lerr));
		if (rc && rc != -ENOENT) {
			snprintf(err, errlen, "%s", lerr);
			return rc;
		}
	}
	if (!skey[0]) {
		snprintf(
		    err, errlen,
		    "agent %s (%s): no server key: trust the agent's public file (bench-coord "
		    "trust agent.cert, from bench-agent keygen on that host), or fetch it with "
		    "bench-coord keyscan --trust-on-first-use %s, or set agents[%d].server_key "
		    "in the profile%s%s, or run with --insecure on a trusted network",
		    c->spec->name, c->endpoint, c->endpoint, c->index,
		    known ? "; known hosts read: " : "", known ? known : "");
		return -ENOKEY;
	}
	if (f->cert)
		return 0;
	if (!o->cert) {
		bc_curve_default_dir("bench-coord", def, sizeof(def) - 12);
		strcat(def, "/coord.cert");
	}
	rc = bc_curve_load(o->cert ? o->cert : def, "bench-coord keygen", &f->cert, lerr,
			   sizeof(lerr));
	if (rc)
		snprintf(err, errlen, "coordinator key: %s", lerr);
	else if (known) /* once per run: whoever may write it chooses whom we trust */
		bc_curve_perm_warn(known, "known-hosts file", false);
	return rc;
}

/*
 * A fleet of hundreds of agents needs more than the defaults: descriptors
 * (a connection, a mailbox and a monitor per agent; soft limit often 1024)
 * and ZeroMQ sockets (czmq's default is 1024: a DEALER, a monitor and its
 * pipe per agent). Called before the process's first socket.
 */
static void s_raise_limits(int nagents)
{
	size_t want = (size_t)nagents * 4 + 256;
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	/* only when needed: czmq refuses (asserts) once a socket exists */
	if (want > 1024)
		zsys_set_max_sockets(want);
}

int bc_fleet_open(struct bc_fleet *f, const struct bc_profile *p, const struct bc_run_opts *o,
		  const char *logdir, char *err, size_t errlen)
{
	int i, v, rc = 0;

	s_raise_limits(p->nagents);
	memset(f, 0, sizeof(*f));
	f->prof = p;
	f->opts = o;
	snprintf(f->logdir, sizeof(f->logdir), "%s", logdir);
	if (o->scratch_dir)
		snprintf(f->scratch_root, sizeof(f->scratch_root), "%s", o->scratch_dir);
	else
		snprintf(f->scratch_root, sizeof(f->scratch_root), "/var/tmp/bench-coord.%d",
			 (int)getpid());
	f->conns = calloc((size_t)p->nagents, sizeof(*f->conns));
	f->queue = calloc((size_t)p->nagents + 1, sizeof(int));
	f->queued = calloc((size_t)p->nagents + 1, sizeof(bool));
	f->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!f->conns || !f->queue || !f->queued || f->epfd < 0)
		return -ENOMEM;
	f->n = p->nagents;
	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];

		c->spec = &p->agents[i];
		c->index = i;
		c->vols = calloc((size_t)p->nvolumes + 1, sizeof(int));
		if (!c->vols)
			return -ENOMEM;
		for (v = 0; v < p->nvolumes; v++)
			if (p->volumes[v].agent == i)
				c->vols[c->nvols++] = v;
	}
	for (i = 0; i < f->n && !rc; i++) {
		struct bc_conn *c = &f->conns[i];
		char skey[BC_KEY_Z85_LEN + 1] = "";
		zcert_t *mine;

		if (c->spec->local) {
			if (mkdir(f->scratch_root, 0755) && errno != EEXIST) {
				rc = -errno;
				snprintf(err, errlen, "cannot create scratch directory '%s': %s",
					 f->scratch_root, strerror(errno));
				break;
			}
			rc = s_local_keys(f, err, errlen);
			if (!rc)
				rc = s_spawn_local(f, c, skey, err, errlen);
			mine = f->local_cert;
		} else {
			snprintf(c->endpoint, sizeof(c->endpoint), "%s", c->spec->endpoint);
			rc = s_remote_keys(f, c, skey, err, errlen);
			mine = f->cert;
		}
		if (rc)
			break;
		c->sock = zsock_new(ZMQ_DEALER);
		if (!c->sock)
			return -ENOMEM;
		/* before connecting, so the first handshake is seen too */
		c->mon = bc_monitor_new(c->sock, ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED |
						     ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
						     ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
						     ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
						     ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
		if (skey[0]) {
			zcert_apply(mine, c->sock);
			zsock_set_curve_serverkey(c->sock, skey);
		}
		/* never block exit on messages to an agent that is gone */
		zsock_set_linger(c->sock, 200);
		zsock_set_sndtimeo(c->sock, 1000);
		/* receives follow a poll; never block on a message another path took */
		zsock_set_rcvtimeo(c->sock, 0);
		if (zsock_connect(c->sock, "%s", c->endpoint)) {
			snprintf(err, errlen, "agent %s: cannot connect to '%s': %s", c->spec->name,
				 c->endpoint, zmq_strerror(zmq_errno()));
			rc = -EINVAL;
			break;
		}
		{
			struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};

			epoll_ctl(f->epfd, EPOLL_CTL_ADD, zsock_fd(c->sock), &ev);
		}
	}
	return rc;
}

static void s_enqueue(struct bc_fleet *f, int i)
{
	if (f->queued[i] || !f->conns[i].sock)
		return;
	f->queued[i] = true;
	f->queue[(f->qhead + f->qlen++) % f->n] = i;
}

struct bc_conn *bc_fleet_conn(struct bc_fleet *f, void *sock)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->conns[i].sock == sock)
			return &f->conns[i];
	return NULL;
}

/*
 * ZMQ_FD only says "something changed"; ZMQ_EVENTS says whether a message
 * waits, and a send may consume the change it signals. So: every socket
 * whose fd fired goes into the ring, each ring entry is checked with
 * ZMQ_EVENTS, a socket that gave a message goes to the back (others first),
 * a socket that was sent to goes in too (bc_fleet_send), and every socket
 * is looked at at least every s_sweep_ms whatever epoll says. That last is
 * a safety net, and not free: each look is two system calls in libzmq
 * (poll on its mailbox, getpid), 40,000 a second for 1,000 agents every
 * 50 ms, most of the loop's CPU. Large fleets are swept less often.
 */
#define S_SWEEP_MS     50
#define S_SWEEP_MAX_MS 500

static int s_sweep_ms(const struct bc_fleet *f)
{
	int ms = S_SWEEP_MS * ((f->n + 99) / 100);

	return ms < S_SWEEP_MS ? S_SWEEP_MS : ms > S_SWEEP_MAX_MS ? S_SWEEP_MAX_MS : ms;
}

int bc_fleet_recv(struct bc_fleet *f, int timeout_ms, struct bc_conn **from, struct bc_msg *m,
		  char *err, size_t errlen)
{
	uint64_t now = bc_mono_ns();
	uint64_t deadline = now + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * BC_NS_PER_MS;
	struct epoll_event evs[64];
	int rc, i, n, wait;

	memset(m, 0, sizeof(*m));
	if (f->held) { /* kept by bc_fleet_beside, in the order they came */
		struct bc_fleet_held *h = f->held;

		f->held = h->next;
		*from = h->from;
		*m = h->m;
		rc = h->rc;
		if (rc)
			snprintf(err, errlen, "%s", h->err);
		free(h);
		return rc;
	}
	for (;;) {
		/* as zpoller_wait: an interrupt ends the wait */
		if (zsys_interrupted)
			return -EINTR;
		while (f->qlen) {
			struct bc_conn *c;

			i = f->queue[f->qhead];
			f->qhead = (f->qhead + 1) % f->n;
			f->qlen--;
			f->queued[i] = false;
			c = &f->conns[i];
			if (!c->sock || !(zsock_events(c->sock) & ZMQ_POLLIN))
				continue;
			rc = bc_msg_recv(c->sock, false, m, err, errlen);
			if (rc == -EAGAIN) {
				bc_msg_clear(m);
				memset(m, 0, sizeof(*m));
				continue;
			}
			s_enqueue(f, i); /* it may hold more */
			*from = c;
			c->last_heard_ns = bc_mono_ns();
			return rc;
		}
		now = bc_mono_ns();
		if (now - f->swept_ns >= (uint64_t)s_sweep_ms(f) * BC_NS_PER_MS) {
			f->swept_ns = now;
			for (i = 0; i < f->n; i++)
				s_enqueue(f, i);
			if (f->qlen)
				continue;
		}
		wait = S_SWEEP_MS; /* timeout_ms < 0: wait for ever, looking every S_SWEEP_MS */
		if (timeout_ms == 0) {
			wait = 0;
		} else if (timeout_ms > 0) {
			if (now >= deadline)
				return -ETIMEDOUT;
			if ((deadline - now) / BC_NS_PER_MS + 1 < (uint64_t)wait)
				wait = (int)((deadline - now) / BC_NS_PER_MS) + 1;
		}
		n = epoll_wait(f->epfd, evs, (int)(sizeof(evs) / sizeof(evs[0])), wait);
		if (n < 0 && errno != EINTR)
			return -EINTR;
		for (i = 0; i < n; i++)
			s_enqueue(f, (int)evs[i].data.u32);
		if (n <= 0 && timeout_ms == 0)
			return -ETIMEDOUT;
	}
}

bool bc_fleet_waiting(struct bc_fleet *f, struct bc_conn *c)
{
	const struct bc_fleet_held *h;

	for (h = f->held; h; h = h->next)
		if (h->from == c)
			return true;
	return c->sock && (zsock_events(c->sock) & ZMQ_POLLIN);
}

bool bc_fleet_gone(struct bc_fleet *f, struct bc_conn *c, uint32_t ms)
{
	const struct bc_monitor_state *st = c->mon ? bc_monitor_drain(c->mon) : NULL;

	return st && st->down && bc_mono_ns() - st->down_ns >= (uint64_t)ms * BC_NS_PER_MS &&
	       !bc_fleet_waiting(f, c);
}

int bc_fleet_send(struct bc_fleet *f, struct bc_conn *c, enum bc_msg_type t, const cJSON *body)
{
	int rc = bc_msg_send_json(c->sock, NULL, t, body);

	/* a send may have taken the wake-up of a message that waits */
	if (f->queue)
		s_enqueue(f, c->index);
	return rc;
}

void bc_fleet_broadcast(struct bc_fleet *f, enum bc_msg_type t, const cJSON *body)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->conns[i].sock && f->conns[i].hello)
			bc_fleet_send(f, &f->conns[i], t, body);
}

/*
 * Twice a second: an agent between points or in a paced step hears nothing
 * else, and at one beat a second any delay of the loop (a poll that slept
 * its whole timeout, a busy core) made its longest silence just over a
 * second (bench/pov-scale.sh's max_silence_ms read 1,096-1,102); the PoV
 * target is 1 s, the agent's dead-man limit 5 s. 2,000 small messages a
 * second at 1,000 agents cost the loop little.
 */
#define S_BEAT_NS (BC_NS_PER_S / 2)

/* agents stop their I/O after BC_AGENT_SILENCE_MS (5 s): a loop late by 2 s is worth a line */
#define S_BEAT_LATE_NS (2 * BC_NS_PER_S)

void bc_fleet_beat_at(struct bc_fleet *f, const char *where)
{
	uint64_t now = bc_mono_ns();

	if (now - f->beat_ns < S_BEAT_NS)
		return;
	if (f->beat_ns && now - f->beat_ns > S_BEAT_LATE_NS)
		bc_warn("no heartbeat to the agents for %llu ms (the loop was held before %s; "
			"agents running I/O stop it after %d s of silence)",
			(unsigned long long)((now - f->beat_ns) / BC_NS_PER_MS), where,
			BC_AGENT_SILENCE_MS / 1000);
	f->beat_ns = now;
	bc_fleet_broadcast(f, BC_MSG_HEARTBEAT, NULL);
}

/*
 * Results work (a step's run.json entry, run.json and the reports, a
 * sweep's analysis) takes seconds at scale, and an agent that hears nothing
 * for BC_AGENT_SILENCE_MS stops its I/O and ends the session. ZeroMQ sockets
 * belong to one thread, so rather than make every results writer
 * incremental (each would have to yield to the loop, and a new writer that
 * forgot would silence the fleet again), the work runs on a thread of its
 * own while this, the loop thread, keeps the sessions: heartbeats twice
 * a second, every message received as it comes (last_heard_ns stays true),
 * and whatever is not a heartbeat held, in order, for the next
 * bc_fleet_recv. The work must not touch the sockets; it may read the
 * fleet, which this loop only changes in last_heard_ns and the held list.
 */
#define S_BESIDE_POLL_MS 5

struct s_beside {
	void (*fn)(void *);
	void *arg;
	atomic_bool done;
};

static void *s_beside_main(void *p)
{
	struct s_beside *b = p;

	b->fn(b->arg);
	atomic_store(&b->done, true);
	return NULL;
}

static void s_hold(struct bc_fleet *f, struct bc_conn *c, struct bc_msg *m, int rc, const char *err)
{
	struct bc_fleet_held *h = calloc(1, sizeof(*h)), **tail = &f->held;

	if (!h) { /* the record is lost: say so rather than pass it silently */
		bc_error("agent %s: out of memory holding a %s while results are written",
			 c->spec->name, bc_msg_name(m->type));
		bc_msg_clear(m);
		return;
	}
	h->from = c;
	h->m = *m;
	h->rc = rc;
	snprintf(h->err, sizeof(h->err), "%s", err);
	memset(m, 0, sizeof(*m));
	while (*tail)
		tail = &(*tail)->next;
	*tail = h;
}

void bc_fleet_beside(struct bc_fleet *f, void (*fn)(void *), void *arg)
{
	struct s_beside b = {fn, arg, false};
	pthread_t th;

	if (!f->conns || pthread_create(&th, NULL, s_beside_main, &b)) {
		fn(arg); /* no fleet to keep, or no thread: as before */
		return;
	}
	bc_fleet_beat(f);
	while (!atomic_load(&b.done)) {
		struct bc_fleet_held *h = f->held;
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char err[sizeof(h->err)] = "";
		int rc;

		/* held messages first: bc_fleet_recv would hand them back */
		f->held = NULL;
		rc = bc_fleet_recv(f, S_BESIDE_POLL_MS, &c, &m, err, sizeof(err));
		f->held = h;
		if (c && !rc && m.type == BC_MSG_HEARTBEAT)
			bc_msg_clear(&m);
		else if (c && rc != -ETIMEDOUT && rc != -EINTR)
			s_hold(f, c, &m, rc, err);
		else
			bc_msg_clear(&m);
		if (rc == -EINTR) /* interrupted: the work still ends, without a busy wait */
			usleep(S_BESIDE_POLL_MS * 1000);
		bc_fleet_beat(f);
	}
	pthread_join(th, NULL);
}

static cJSON *s_hello_body(const struct bc_fleet *f, const struct bc_conn *c)
{
	cJSON *b = cJSON_CreateObject(), *paths, *destroy;
	char who[300], host[256] = "?";
	int v;

	gethostname(host, sizeof(host) - 1);
	snprintf(who, sizeof(who), "bench-coord %s on %s pid %d", BC_VERSION, host, (int)getpid());
	cJSON_AddStringToObject(b, "coordinator", who);
	paths = cJSON_AddArrayToObject(b, "paths");
	/* the profile's consent, per path; the agent also needs --allow-destructive */
	destroy = cJSON_AddArrayToObject(b, "destructive");
	for (v = 0; v < c->nvols; v++) {
		const struct bc_volume_spec *vol = &f->prof->volumes[c->vols[v]];

		cJSON_AddItemToArray(paths, cJSON_CreateString(vol->path));
		if (vol->destructive)
			cJSON_AddItemToArray(destroy, cJSON_CreateString(vol->path));
	}
	/* a resumed run: the step in flight, for an agent that kept it running */
	if (c->resume_start_ns) {
		cJSON *r = cJSON_AddObjectToObject(b, "resume");

		cJSON_AddNumberToObject(r, "step", c->resume_step);
		bc_json_add_u64(r, "start_ns", c->resume_start_ns);
	}
	return b;
}

/* describe why an agent's reply to HELLO is not HELLO_OK */
static void s_hello_refusal(const struct bc_conn *c, int rc, const struct bc_msg *m,
			    const char *rerr, char *err, size_t errlen)
{
	const char *msg =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m->json, "message"));
	const char *owner =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m->json, "owner"));

	if (m->type == BC_MSG_BUSY)
		snprintf(err, errlen, "agent %s (%s) is busy: serving %s", c->spec->name,
			 c->endpoint, owner ? owner : "another coordinator");
	else if (m->type == BC_MSG_ERROR)
		snprintf(err, errlen, "agent %s (%s) refused HELLO: %s", c->spec->name, c->endpoint,
			 msg ? msg : "(no message)");
	else if (rc == -EPROTO)
		snprintf(err, errlen, "agent %s (%s): %s", c->spec->name, c->endpoint, rerr);
	else
		snprintf(err, errlen, "agent %s (%s): unexpected %s in reply to HELLO%s%s",
			 c->spec->name, c->endpoint, bc_msg_name(m->type), rc ? ": " : "",
			 rc ? rerr : "");
}

/* the key this coordinator shows agent c, for messages */
static const char *s_my_key(const struct bc_fleet *f, const struct bc_conn *c)
{
	zcert_t *mine = c->spec->local ? f->local_cert : f->cert;

	return mine ? zcert_public_txt(mine) : "(none: plain text)";
}

/* where keygen put the coordinator's pair: $XDG_CONFIG_HOME/bench-coord/coord.cert */
static const char *s_default_cert(char *buf, size_t len)
{
	bc_curve_default_dir("bench-coord", buf, len - 12);
	strcat(buf, "/coord.cert");
	return buf;
}

/*
 * A handshake failure that will not heal by waiting: the agent refused our
 * key, or one side is plain text. Returns -EACCES with the message, else 0.
 */
static int s_handshake_fatal(const struct bc_fleet *f, struct bc_conn *c, char *err, size_t errlen)
{
	char def[1100];
	const struct bc_monitor_state *st = c->mon ? bc_monitor_drain(c->mon) : NULL;

	if (!st || st->handshaken)
		return 0;
	if (st->fail_event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) {
		snprintf(err, errlen,
			 "agent %s (%s): CURVE handshake failed: the agent rejected this "
			 "coordinator's key %s (status %u): copy the coordinator's public key "
			 "file (%s) into the agent's --authorized-keys directory",
			 c->spec->name, c->endpoint, s_my_key(f, c), st->fail_value,
			 f->opts->cert ? f->opts->cert : s_default_cert(def, sizeof(def)));
		return -EACCES;
	}
	if (st->fail_event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL &&
	    st->fail_value == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH) {
		snprintf(
		    err, errlen, "agent %s (%s): handshake failed: %s -- %s", c->spec->name,
		    c->endpoint, bc_monitor_protocol_error(st->fail_value),
		    f->opts->insecure && !c->spec->local
			? "this coordinator runs --insecure but the agent requires CURVE"
			: "the agent runs --insecure; give it a key pair (bench-agent keygen)");
		return -EACCES;
	}
	return 0;
}

/* why agent c has not answered HELLO, as precisely as the monitor knows */
static void s_hello_timeout(const struct bc_fleet *f, struct bc_conn *c, char *err, size_t errlen)
{
	const struct bc_monitor_state *st = c->mon ? bc_monitor_drain(c->mon) : NULL;
	double s = f->opts->connect_timeout_ms / 1000.0;

	if (!st || (!st->connected && !st->failures))
		snprintf(err, errlen,
			 "agent %s (%s): no answer to HELLO within %.1f s: no connection (is "
			 "bench-agent running and reachable?)",
			 c->spec->name, c->endpoint, s);
	else if (st->handshaken)
		snprintf(err, errlen,
			 "agent %s (%s): no answer to HELLO within %.1f s (connected and "
			 "authenticated, but the agent did not reply)",
			 c->spec->name, c->endpoint, s);
	else if (st->failures)
		snprintf(
		    err, errlen,
		    "agent %s (%s): no answer to HELLO within %.1f s: CURVE handshake failed "
		    "%u time(s) (%s): most likely server_key is not the agent's public key "
		    "(bench-agent logs it at start); also check that the agent authorizes this "
		    "coordinator's key %s",
		    c->spec->name, c->endpoint, s, st->failures,
		    st->fail_event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
			? bc_monitor_protocol_error(st->fail_value)
			: "the agent hung up during the handshake",
		    s_my_key(f, c));
	else
		/* connected, not refused: the agent did not take the handshake up at all */
		snprintf(
		    err, errlen,
		    "agent %s (%s): no answer to HELLO within %.1f s: the TCP connection was "
		    "made but the handshake never completed, most likely because (1) the "
		    "agent is overloaded, stopped, or at its descriptor limit (a flood of "
		    "connections: its log and `bench-coord agents` name the peers it closed), "
		    "(2) the keys: server_key is not the agent's public key, or the agent does "
		    "not authorize this coordinator's key %s (a refusal is normally reported at "
		    "once), (3) the network: a firewall or middlebox that lets the connection "
		    "through but not its data",
		    c->spec->name, c->endpoint, s, s_my_key(f, c));
}

int bc_fleet_hello_one(struct bc_fleet *f, struct bc_conn *c)
{
	cJSON *b = s_hello_body(f, c);
	int rc = b ? bc_fleet_send(f, c, BC_MSG_HELLO, b) : -ENOMEM;

	cJSON_Delete(b);
	return rc;
}

/*
 * A resumed run (--resume) may find an agent still in the dead coordinator's
 * session: its dead-man switch ends it BC_AGENT_SILENCE_MS after the last
 * word from that coordinator (at once when idle and the connection closed).
 * BUSY is then asked again every half second, for that long and 10 s more.
 */
#define S_RESUME_WAIT_MS (BC_AGENT_SILENCE_MS + 10000)

int bc_fleet_hello(struct bc_fleet *f, char *err, size_t errlen)
{
	uint64_t t0 = bc_mono_ns();
	uint64_t deadline = t0 + (uint64_t)f->opts->connect_timeout_ms * BC_NS_PER_MS;
	/* a step with an orphan_grace runs that long on without its coordinator */
	uint64_t busy_until =
	    t0 + ((uint64_t)S_RESUME_WAIT_MS + f->prof->orphan_grace_s * 1000ull) * BC_NS_PER_MS;
	int i, pending = 0, rc = 0;

	for (i = 0; i < f->n; i++) {
		cJSON *b = s_hello_body(f, &f->conns[i]);

		bc_fleet_send(f, &f->conns[i], BC_MSG_HELLO, b);
		cJSON_Delete(b);
		pending++;
	}
	while (pending && !rc) {
		uint64_t now = bc_mono_ns();
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char rerr[256] = "";

		for (i = 0; i < f->n; i++) {
			struct bc_conn *b = &f->conns[i];

			if (b->hello_again_ns && b->hello_again_ns != UINT64_MAX &&
			    now >= b->hello_again_ns) {
				b->hello_again_ns = UINT64_MAX; /* asked again: said once */
				bc_fleet_hello_one(f, b);
			}
		}
		if (now >= deadline)
			break;
		bc_fleet_beat(f); /* those that answered wait for the others */
		/* short waits: a refused key shows in the monitor, never as a message */
		rc = bc_fleet_recv(f,
				   (int)((deadline - now) / BC_NS_PER_MS) + 1 > 100
				       ? 100
				       : (int)((deadline - now) / BC_NS_PER_MS) + 1,
				   &c, &m, rerr, sizeof(rerr));
		if (rc == -ETIMEDOUT) {
			bc_msg_clear(&m);
			rc = 0;
			for (i = 0; i < f->n && !rc; i++)
				if (!f->conns[i].hello)
					rc = s_handshake_fatal(f, &f->conns[i], err, errlen);
			continue;
		}
		if (rc == -EINTR) {
			snprintf(err, errlen, "interrupted while connecting to agents");
		} else if (c && !rc && m.type == BC_MSG_HELLO_OK) {
			if (!c->hello)
				pending--;
			cJSON_Delete(c->hello);
			c->hello = m.json;
			m.json = NULL;
		} else if (c && !rc && m.type == BC_MSG_HEARTBEAT) {
			/* a heartbeat may overtake nothing here, but is harmless */
		} else if (c && !rc && m.type == BC_MSG_BUSY && f->opts->resume_dir &&
			   now < busy_until) {
			if (!c->hello_again_ns)
				bc_info("agent %s still serves the stopped coordinator's session "
					"(%s): waiting for it to end (dead-man switch %d s, "
					"orphan_grace %u s)",
					c->spec->name, bc_rj_str("busy", m.json, "message"),
					BC_AGENT_SILENCE_MS / 1000, f->prof->orphan_grace_s);
			c->hello_again_ns = now + 500 * BC_NS_PER_MS;
			if (deadline < busy_until)
				deadline = busy_until;
		} else if (c) {
			s_hello_refusal(c, rc, &m, rerr, err, errlen);
			rc = -ECONNREFUSED;
		}
		bc_msg_clear(&m);
	}
	for (i = 0; i < f->n && !rc && pending; i++) {
		struct bc_conn *c = &f->conns[i];

		if (c->hello)
			continue;
		rc = s_handshake_fatal(f, c, err, errlen);
		if (!rc) {
			s_hello_timeout(f, c, err, errlen);
			rc = -ETIMEDOUT;
		}
	}
	return rc;
}

/* one agent's TIME exchanges in bc_fleet_clock_sync */
struct s_timing {
	struct bc_clock_sample smp[S_TIME_ROUNDS];
	int n;		 /* samples received */
	int round;	 /* exchanges sent */
	int seq;	 /* of the exchange in flight, 0 when none */
	uint64_t due_ns; /* CLOCK_MONOTONIC deadline of that exchange */
};

static void s_time_send(struct bc_fleet *f, struct bc_conn *c, struct s_timing *t, int seq)
{
	cJSON *b = cJSON_CreateObject();

	cJSON_AddNumberToObject(b, "seq", seq);
	t->seq = seq;
	t->round++;
	t->due_ns = bc_mono_ns() + BC_NS_PER_S;
	t->smp[t->n].t_send_ns = bc_real_ns();
	bc_fleet_send(f, c, BC_MSG_TIME, b);
	cJSON_Delete(b);
}

/* the offset from agent c's samples; -ETIMEDOUT when it answered none */
static int s_time_estimate(struct bc_conn *c, const struct s_timing *t, char *err, size_t errlen)
{
	struct bc_clock_est est;

	if (bc_clock_estimate(t->smp, t->n, &est)) {
		snprintf(err, errlen, "agent %s (%s): no answer to TIME requests", c->spec->name,
			 c->endpoint);
		return -ETIMEDOUT;
	}
	if (!c->rtt_ns)
		c->first_offset_ns = est.offset_ns;
	c->offset_ns = est.offset_ns;
	c->clock_at_ns = bc_real_ns();
	c->rtt_ns = est.rtt_ns;
	c->clock_unc_ns = est.uncertainty_ns;
	if (est.uncertainty_ns > BC_NS_PER_MS)
		bc_warn("agent %s (%s): clock offset uncertain by %.3f ms (round trip %.3f "
			"ms): cross-host timing is only that good",
			c->spec->name, c->endpoint, (double)est.uncertainty_ns / 1e6,
			(double)est.rtt_ns / 1e6);
	return 0;
}

/*
 * S_TIME_ROUNDS exchanges with every agent, one at a time per agent (each
 * sample is a clean round trip) and S_TIME_WINDOW agents at a time: a reply
 * is timestamped when read, so the window bounds how long it can wait behind
 * others. A round without an answer within 1 s is lost; the estimate keeps
 * the minimum-RTT sample (wire/clocksync.c).
 */
int bc_fleet_clock_sync(struct bc_fleet *f, char *err, size_t errlen)
{
	static int seq;
	struct s_timing *t = calloc((size_t)f->n + 1, sizeof(*t));
	int next = 0, active = 0, i, rc = 0;

	if (!t)
		return -ENOMEM;
	while (!rc) {
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char e[128];
		uint64_t now;

		/* fill the window with agents that have not started */
		for (; active < S_TIME_WINDOW && next < f->n; next++) {
			if (f->conns[next].lost)
				continue;
			s_time_send(f, &f->conns[next], &t[next], ++seq);
			active++;
		}
		if (!active)
			break;
		/* the agents outside the window hear nothing else, for seconds at 1,000 agents */
		bc_fleet_beat(f);
		rc = bc_fleet_recv(f, 100, &c, &m, e, sizeof(e));
		if (rc == -EINTR) {
			snprintf(err, errlen, "interrupted during the clock exchange");
			bc_msg_clear(&m);
			break;
		}
		now = bc_mono_ns();
		i = c ? c->index : -1;
		/* a stale answer to an earlier round (or a heartbeat) is skipped */
		if (!rc && i >= 0 && t[i].seq && m.type == BC_MSG_TIME) {
			const cJSON *an = cJSON_GetObjectItemCaseSensitive(m.json, "agent_ns");
			const cJSON *sq = cJSON_GetObjectItemCaseSensitive(m.json, "seq");

			if (cJSON_IsNumber(an) && cJSON_IsNumber(sq) && sq->valueint == t[i].seq) {
				t[i].smp[t[i].n].t_recv_ns = bc_real_ns();
				t[i].smp[t[i].n++].t_agent_ns = bc_json_u64_of(an);
				t[i].seq = 0;
			}
		}
		bc_msg_clear(&m);
		rc = 0;
		/* advance every agent whose exchange is answered or overdue */
		for (i = 0; i < next && !rc; i++) {
			if (!t[i].round || (t[i].seq && now < t[i].due_ns) ||
			    t[i].round > S_TIME_ROUNDS)
				continue;
			if (t[i].round < S_TIME_ROUNDS) {
				s_time_send(f, &f->conns[i], &t[i], ++seq);
				continue;
			}
			t[i].round++; /* done */
			t[i].seq = 0;
			active--;
			rc = s_time_estimate(&f->conns[i], &t[i], err, errlen);
		}
	}
	free(t);
	return rc;
}

static int s_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void s_reap_local(struct bc_conn *c)
{
	int st, i;

	if (!c->pid)
		return;
	/* BYE makes a local agent exit; escalate if it does not within 2 s */
	for (i = 0; i < 40; i++) {
		if (waitpid(c->pid, &st, WNOHANG) == c->pid)
			goto reaped;
		if (i == 20)
			kill(c->pid, SIGTERM);
		usleep(50 * 1000);
	}
	kill(c->pid, SIGKILL);
	waitpid(c->pid, &st, 0);
reaped:
	c->pid = 0;
}

void bc_fleet_close(struct bc_fleet *f)
{
	bool any_local = false;
	int i;

	free(f->volnode);
	f->volnode = NULL;
	if (!f->conns)
		return;
	bc_fleet_broadcast(f, BC_MSG_BYE, NULL);
	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];

		if (c->sock && !c->hello)
			zsock_set_linger(c->sock, 0);
		bc_monitor_destroy(&c->mon);
		zsock_destroy(&c->sock);
		any_local |= c->spec->local;
		s_reap_local(c);
		cJSON_Delete(c->hello);
		free(c->vols);
	}
	if (f->epfd > 0)
		close(f->epfd);
	f->epfd = -1;
	free(f->queue);
	free(f->queued);
	f->queue = NULL;
	f->queued = NULL;
	f->qlen = f->qhead = 0;
	free(f->conns);
	f->conns = NULL;
	while (f->held) {
		struct bc_fleet_held *h = f->held;

		f->held = h->next;
		bc_msg_clear(&h->m);
		free(h);
	}
	if (any_local && !f->opts->keep_scratch && !f->opts->scratch_dir)
		nftw(f->scratch_root, s_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	/* the local agents' keys were good for this run only */
	if (f->keydir[0])
		nftw(f->keydir, s_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	f->keydir[0] = 0;
	zcert_destroy(&f->cert);
	zcert_destroy(&f->local_cert);
}
