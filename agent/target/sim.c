/*
 * target/sim.c - a simulated FDP SSD (docs/sim.md): every I/O updates the
 * volume's page-mapped FTL (sim/ftl.h, serialized in sim/dev.c) at
 * submission and completes as an IORING_OP_NOP, so nothing is stored and
 * reads only count. Writes go to a reclaim unit handle: the job's stream
 * placement when it sets one, else the volume's "fdp" policy, else RUH 0.
 * The device answers Get Log Page itself (SMART, FDP statistics) in the
 * NVMe layout, so its WAF takes the real drives' path (devcounters.c).
 * With "latency" (sim/lat.c) an I/O completes as an IORING_OP_TIMEOUT after
 * its modelled media time instead; without, as fast as the ring.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvme/fdp.h"
#include "nvme/nvme.h"
#include "sim/dev.h"
#include "target/ops.h"
#include "util/clock.h"

struct s_sim {
	struct bc_sim_dev *dev; /* owned by the registry (sim/dev.c) */
	int npids;		/* 0: no "fdp", every write to RUH 0 */
	enum bc_fdp_policy policy;
	bool timed;			/* "latency": completions after the modelled delay */
	uint16_t pids[BC_FDP_PIDS_MAX]; /* RUH indexes */
	/* round-robin/random draw shared by the job threads, as target/nvme.c */
	_Atomic uint64_t next;
};

static unsigned s_ruh(struct s_sim *s, const struct bc_io_desc *io)
{
	uint64_t seq;

	/* no directive: a real FDP drive writes through placement handle 0, so RUH 0 here */
	if (!s->npids || io->placement == BC_PLACEMENT_NONE)
		return 0;
	if (io->placement >= 0 && io->placement < s->npids)
		return s->pids[io->placement];
	seq = s->policy == BC_FDP_FIXED
		  ? 0
		  : atomic_fetch_add_explicit(&s->next, 1, memory_order_relaxed);
	return bc_nvme_pick_pid(s->pids, s->npids, s->policy, seq);
}

static void s_sim_prep(const struct bc_target *t, struct io_uring_sqe *sqe,
		       const struct bc_io_desc *io)
{
	struct s_sim *s = t->priv;
	unsigned ruh = io->op == BC_OP_WRITE ? s_ruh(s, io) : 0;
	struct __kernel_timespec *ts;
	uint64_t delay;

	if (!s->timed) {
		bc_sim_dev_io(s->dev, io->op, io->off, io->len, ruh, 0);
		io_uring_prep_nop(sqe);
		return;
	}
	/*
	 * The modelled completion is anchored at this command's arrival, so
	 * "latency" costs one vDSO clock read per I/O (20-30 ns) beyond the
	 * job's one per batch.
	 */
	delay = bc_sim_dev_io(s->dev, io->op, io->off, io->len, ruh, bc_mono_ns());
	if (!delay) {
		io_uring_prep_nop(sqe);
		return;
	}
	/*
	 * A sim volume stores no data, so the I/O's own buffer (the job's,
	 * valid until this I/O completes) carries the timeout's timespec:
	 * no allocation, and the kernel reads it whenever it consumes the SQE
	 * (SQPOLL included). A pure timer (count 0) ends with -ETIME, which
	 * ops.timeout_full makes a full transfer.
	 */
	ts = io->buf;
	ts->tv_sec = (long long)(delay / BC_NS_PER_S);
	ts->tv_nsec = (long long)(delay % BC_NS_PER_S);
	io_uring_prep_timeout(sqe, ts, 0, 0);
}

/* "sim" and "sim:NAME" (profile/volume/sim.h: the profile's rule for the name) */
static bool s_sim_claims(const char *path)
{
	return bc_sim_path(path);
}

/* its size comes from its "sim" spec when the target opens */
static void s_sim_probe(const char *path, struct bc_devinfo *di)
{
	di->lbs = di->pbs = 512;
}

/* geometry from "sim" (defaults when absent); no data, so nothing to verify */
static int s_sim_prepare(struct bc_target *t, bool dry, char *err, size_t errlen)
{
	if (t->create_bytes) {
		snprintf(err, errlen,
			 "%s: \"size\" creates files; a simulated SSD's size is \"sim\": "
			 "{\"capacity\"}",
			 t->path);
		return -EINVAL;
	}
	if (!t->sim.enabled)
		bc_sim_spec_default(&t->sim);
	/* the window of a dry run (nothing is opened then) */
	t->info.size_bytes = t->sim.capacity_bytes;
	t->info.lbs = 512;
	return 0;
}

static int s_sim_open(struct bc_target *t, char *err, size_t errlen)
{
	struct s_sim *s;
	int i, ret;

	t->fd = -1;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	t->priv = s;
	/* "all": every RUH of the simulated SSD, up to 16 */
	if (t->fdp.all) {
		t->fdp.npids = (int)(t->sim.ruhs < BC_FDP_PIDS_MAX ? t->sim.ruhs : BC_FDP_PIDS_MAX);
		for (i = 0; i < t->fdp.npids; i++)
			t->fdp.pids[i] = (uint16_t)i;
	}
	for (i = 0; i < t->fdp.npids; i++) {
		if (t->fdp.pids[i] >= t->sim.ruhs) {
			snprintf(err, errlen,
				 "%s: fdp pid %u is beyond the simulated SSD's %u RUHs", t->path,
				 t->fdp.pids[i], t->sim.ruhs);
			return -EINVAL;
		}
		s->pids[i] = t->fdp.pids[i];
	}
	s->npids = t->fdp.policy == BC_FDP_NONE ? 0 : t->fdp.npids;
	s->policy = t->fdp.policy;
	t->info.size_bytes = t->sim.capacity_bytes;
	/* any 512-byte multiple: a partial page is a read-modify-write in the FTL */
	t->info.lbs = 512;
	t->info.pbs = t->sim.page_bytes;
	ret = bc_sim_dev_get(t->path, &t->sim, &s->dev, err, errlen);
	if (!ret)
		s->timed = bc_sim_dev_timed(s->dev);
	return ret;
}

static void s_sim_close(struct bc_target *t)
{
	free(t->priv);
	t->priv = NULL;
	t->fd = -1;
}

static void s_put_u128(uint8_t *p, bc_u128 v)
{
	int i;

	for (i = 0; i < 16; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* bytes -> SMART data units of 1000 x 512 bytes, rounded up (NVMe 2.0 §5.16.1.3) */
static bc_u128 s_units(uint64_t bytes)
{
	return ((bc_u128)bytes + BC_NVME_DATA_UNIT_BYTES - 1) / BC_NVME_DATA_UNIT_BYTES;
}

/*
 * the logs a real FDP drive offers, at their specified offsets: SMART / Health
 * (LID 02h, NVMe 2.0 §5.16.1.3), OCP SMART extended (C0h) and FDP
 * Statistics (LID 22h, TP4146)
 */
static int s_get_log(struct s_sim *s, struct bc_target_log *l)
{
	struct bc_sim_counters c;
	uint8_t *b = l->buf;

	memset(b, 0, l->len);
	bc_sim_dev_counters(s->dev, &c);
	switch (l->lid) {
	case BC_NVME_LID_SMART:
		if (l->len < BC_NVME_SMART_BYTES)
			return -EINVAL;
		s_put_u128(b + 32, s_units(c.host_read_bytes));
		s_put_u128(b + 48, s_units(c.host_write_bytes));
		s_put_u128(b + 64, c.host_read_cmds);
		s_put_u128(b + 80, c.host_write_cmds);
		return 0;
	case BC_NVME_LID_FDP_STATS:
		if (l->len < BC_NVME_FDP_STATS_BYTES)
			return -EINVAL;
		/* no metadata is simulated: HBMW and MBMW are data bytes */
		s_put_u128(b + 0, c.host_write_bytes);
		s_put_u128(b + 16, c.media_write_bytes);
		s_put_u128(b + 32, c.erase_bytes);
		return 0;
	case BC_NVME_LID_OCP_C0:
		/*
		 * OCP Datacenter NVMe SSD spec, SMART / Health extended (C0h):
		 * physical media units written and read, in bytes, GC included;
		 * the page's GUID makes parsers take it as the OCP page
		 */
		if (l->len < BC_NVME_OCP_C0_BYTES)
			return -EINVAL;
		s_put_u128(b + 0, c.media_write_bytes);
		s_put_u128(b + 16, c.media_read_bytes);
		b[494] = 3; /* log page version */
		memcpy(b + 496, bc_nvme_ocp_c0_guid, sizeof(bc_nvme_ocp_c0_guid));
		return 0;
	default:
		return -ENOTSUP;
	}
}

static int s_sim_control(struct bc_target *t, int op, void *arg)
{
	struct s_sim *s = t->priv;

	if (!s || !s->dev)
		return -ENODEV;
	switch (op) {
	case BC_TCTL_GET_LOG:
		return s_get_log(s, arg);
	case BC_TCTL_SIM_COUNTERS:
		bc_sim_dev_counters(s->dev, arg);
		return 0;
	case BC_TCTL_SIM_RUHS: {
		struct bc_target_ruhs *r = arg;

		r->n = bc_sim_dev_ruh_counters(s->dev, r->out, r->max);
		return 0;
	}
	case BC_TCTL_SIM_LOG: {
		struct bc_target_sim_log *l = arg;

		l->n = bc_sim_dev_log(s->dev, l->from, l->out, l->max, &l->first);
		return 0;
	}
	default:
		return -ENOTSUP;
	}
}

const struct bc_target_ops bc_target_sim_ops = {
    .name = "sim",
    .version = BC_TARGET_OPS_VERSION,
    .desc = "a simulated SSD",
    .claims = s_sim_claims,
    .caps = BC_TCAP_DISKLESS | BC_TCAP_NO_DATA | BC_TCAP_PLACEMENT,
    .nop_full = true,
    .timeout_full = true,
    .probe = s_sim_probe,
    .prepare = s_sim_prepare,
    .open = s_sim_open,
    .close = s_sim_close,
    .prep = s_sim_prep,
    .control = s_sim_control,
};
