/*
 * target/nvme.c - NVMe generic char devices (/dev/ngXnY) through io_uring
 * passthrough: each read and write is an IORING_OP_URING_CMD carrying a
 * struct nvme_uring_cmd (NVME_URING_CMD_IO) in a 128-byte SQE, on a ring with
 * IORING_SETUP_SQE128 | IORING_SETUP_CQE32 (Linux >= 5.19). liburing 2.3 has
 * no io_uring_prep_uring_cmd, so prep fills the SQE by hand as fio's
 * io_uring_cmd engine does. Optional FDP placement puts DTYPE 2 and a
 * placement ID (DSPEC) on every write; the volume's "fdp" pids are indices
 * into the namespace's Reclaim Unit Handle Status list, mapped to PIDs at
 * open (fio's fdp_pli semantics). Trims are Dataset Management deallocates
 * whose range descriptor lives in the I/O's own buffer.
 * Writes claim the namespace's block device O_EXCL for the whole run: the
 * char device bypasses the block layer's exclusive claim (open(2), O_EXCL on
 * a block device: EBUSY while it is in use), so the claim is taken there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvme/fdp.h"
#include "nvme/ident.h"
#include "nvme/nvme.h"
#include "target/nvme.h"
#include "target/ops.h"
#include "target/opener.h"

struct s_nvme {
	uint32_t nsid;
	unsigned lba_shift;
	int bfd;   /* the namespace block device, held O_EXCL while writing; -1 */
	int npids; /* 0: no placement */
	enum bc_fdp_policy policy;
	uint16_t pids[BC_FDP_PIDS_MAX]; /* placement IDs (DSPEC values) */
	/*
	 * round-robin/random draw: one relaxed atomic shared by the job
	 * threads (prep only reads the target otherwise); a lock-free add,
	 * no syscall, on the hot path.
	 */
	_Atomic uint64_t next;
};

int bc_nvme_uring_prep(struct io_uring_sqe *sqe, int fd, bool fixed_file,
		       const struct nvme_passthru_cmd *c)
{
	/* the whole 128-byte slot: liburing does not clear SQEs */
	memset(sqe, 0, 2 * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	if (fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (!c) {
		/* not an NVMe op: the ng driver answers -ENOTTY, a counted error */
		sqe->cmd_op = 0;
		return -EOPNOTSUPP;
	}
	sqe->cmd_op = NVME_URING_CMD_IO;
	bc_nvme_to_uring((struct nvme_uring_cmd *)sqe->cmd, c);
	return 0;
}

static void s_nvme_prep(const struct bc_target *t, struct io_uring_sqe *sqe,
			const struct bc_io_desc *io)
{
	struct s_nvme *n = t->priv;
	struct nvme_passthru_cmd c;
	int fd = io->file_index >= 0 ? io->file_index : t->fd, ret = -EOPNOTSUPP;
	uint16_t dspec = 0;
	uint8_t dtype = 0;

	if (io->op == BC_OP_WRITE && n->npids && io->placement >= 0 && io->placement < n->npids) {
		dtype = BC_NVME_DTYPE_FDP;
		dspec = n->pids[io->placement];
	} else if (io->op == BC_OP_WRITE && n->npids && io->placement != BC_PLACEMENT_NONE) {
		uint64_t seq = n->policy == BC_FDP_FIXED
				   ? 0
				   : atomic_fetch_add_explicit(&n->next, 1, memory_order_relaxed);

		dtype = BC_NVME_DTYPE_FDP;
		dspec = bc_nvme_pick_pid(n->pids, n->npids, n->policy, seq);
	}
	if (io->op == BC_OP_READ || io->op == BC_OP_WRITE)
		ret = bc_nvme_rw(&c, io->op == BC_OP_READ ? BC_NVME_CMD_READ : BC_NVME_CMD_WRITE,
				 n->nsid, io->off, io->len, n->lba_shift, dtype, dspec, io->buf);
	/*
	 * A trim is a deallocate: its 16-byte range goes into the I/O's own
	 * buffer, which the job keeps until the completion (the data it held
	 * is of no use to a trim).
	 */
	else if (io->op == BC_OP_TRIM)
		ret = bc_nvme_dsm_deallocate(&c, n->nsid, io->off, io->len, n->lba_shift, io->buf);
	/*
	 * Registered buffers (IORING_URING_CMD_FIXED) need Linux >= 6.1 and
	 * fail with -EINVAL before it: plain user addresses work on 5.19.
	 */
	bc_nvme_uring_prep(sqe, fd, io->file_index >= 0, ret ? NULL : &c);
}

/*
 * FDP on the device before any I/O (bc_nvme_fdp_discover), the volume's pid
 * indexes checked against it, then mapped to the placement IDs its RUH
 * status lists (a drive may accept an unknown ID silently: QEMU charges it
 * to handle 0)
 */
static int s_fdp_map(struct bc_target *t, struct s_nvme *n, const struct bc_nvme_fdp_ident *id,
		     char *err, size_t errlen)
{
	struct bc_nvme_fdp *f = malloc(sizeof(*f));
	int ret, i;

	if (!f)
		return -ENOMEM;
	bc_nvme_fdp_discover(t->path, id, f);
	/* "all": checked as index 0 (whether the drive places at all), then every handle */
	if (t->fdp.all) {
		t->fdp.npids = 1;
		t->fdp.pids[0] = 0;
	}
	ret = bc_nvme_fdp_check(f, t->path, &t->fdp, err, errlen);
	if (ret)
		goto out;
	if (t->fdp.all) {
		t->fdp.npids = f->nruhs < BC_FDP_PIDS_MAX ? f->nruhs : BC_FDP_PIDS_MAX;
		for (i = 0; i < t->fdp.npids; i++)
			t->fdp.pids[i] = (uint16_t)i;
	}
	for (i = 0; i < t->fdp.npids; i++)
		n->pids[i] = f->ruhs[t->fdp.pids[i]].pid;
	n->npids = t->fdp.npids;
	n->policy = t->fdp.policy;
out:
	free(f);
	return ret;
}

/* /dev/ngXnY -> /dev/nvmeXnY in the same directory, claimed exclusively */
static int s_claim_block(struct bc_target *t, struct s_nvme *n, const char *block, char *err,
			 size_t errlen)
{
	char bpath[BC_PATH_MAX + 32];
	const char *slash = strrchr(t->path, '/');
	struct stat st;
	int ret;
	int dirlen = slash ? (int)(slash - t->path) : 1;

	if (!block[0]) {
		snprintf(err, errlen,
			 "%s: refusing passthrough writes: no nvmeXnY block device name for it",
			 t->path);
		return -EPERM;
	}
	snprintf(bpath, sizeof(bpath), "%.*s/%s", dirlen, slash ? t->path : ".", block);
	n->bfd = open(bpath, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (n->bfd >= 0 && !fstat(n->bfd, &st) && S_ISBLK(st.st_mode))
		return 0;
	/* O_EXCL claims only block devices: anything else is no claim at all */
	ret = n->bfd < 0 ? -errno : -ENOTBLK;
	snprintf(err, errlen,
		 "%s: refusing passthrough writes: cannot claim its block device %s "
		 "exclusively (%s); the char device bypasses that claim, so it is required",
		 t->path, bpath, strerror(-ret));
	return ret;
}

static void s_nvme_close(struct bc_target *t)
{
	struct s_nvme *n = t->priv;

	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (n && n->bfd >= 0)
		close(n->bfd);
	free(n);
	t->priv = NULL;
}

static int s_nvme_open(struct bc_target *t, char *err, size_t errlen)
{
	struct bc_nvme_fdp_ident fi;
	struct bc_nvme_ident id;
	struct s_nvme *n;
	int nsid, ret, iret;

	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->bfd = -1;
	t->priv = n;
	t->fd = bc_target_open_path(t->path, t->writable ? O_RDWR : O_RDONLY, 0, err, errlen);
	if (t->fd < 0) {
		ret = t->fd;
		t->fd = -1;
		if (ret != -EPERM) /* a refusal's message is whole already */
			snprintf(err, errlen, "cannot open '%s' for %s: %s", t->path,
				 t->writable ? "writing" : "reading", strerror(-ret));
		return ret;
	}
	nsid = ioctl(t->fd, NVME_IOCTL_ID);
	if (nsid <= 0) {
		ret = nsid < 0 ? -errno : -ENODEV;
		snprintf(err, errlen, "%s: not an NVMe namespace (NVME_IOCTL_ID: %s)", t->path,
			 strerror(-ret));
		return ret;
	}
	n->nsid = (uint32_t)nsid;
	/* sysfs for the block device name, Identify for the format (root, or 6.2+) */
	ret = bc_nvme_ident_sysfs("", t->path, &id);
	iret = bc_nvme_ident_ioctl(t->path, &id);
	if (iret && ret) {
		snprintf(err, errlen, "%s: cannot identify the namespace (sysfs: %s)", t->path,
			 strerror(-ret));
		return ret;
	}
	if (id.from_identify && id.ms) {
		/* fio needs md_per_io_size here; we never hand the device a metadata buffer */
		snprintf(err, errlen,
			 "%s: LBA format with %u metadata bytes per block is not supported; "
			 "format the namespace without metadata",
			 t->path, id.ms);
		return -ENOTSUP;
	}
	if (!id.lba_bytes || (id.lba_bytes & (id.lba_bytes - 1)) || !id.size_bytes) {
		snprintf(err, errlen, "%s: unknown LBA size or namespace size", t->path);
		return -ENODEV;
	}
	n->lba_shift = (unsigned)__builtin_ctz(id.lba_bytes);
	t->info.size_bytes = id.size_bytes;
	t->info.lbs = id.lba_bytes;
	t->info.pbs = id.pbs ? id.pbs : id.lba_bytes;
	if (t->writable) {
		ret = s_claim_block(t, n, id.block, err, errlen);
		if (ret)
			return ret;
	}
	if (t->fdp.policy == BC_FDP_NONE)
		return 0;
	fi = bc_nvme_ident_fdp(&id, iret);
	return s_fdp_map(t, n, &fi, err, errlen);
}

/* size and LBA format come from Identify in open */
static int s_nvme_prepare(struct bc_target *t, bool dry, char *err, size_t errlen)
{
	if (!t->create_bytes)
		return 0;
	snprintf(err, errlen, "%s: \"size\" applies to regular files only", t->path);
	return -EINVAL;
}

static int s_nvme_control(struct bc_target *t, int op, void *arg)
{
	return -ENOTSUP;
}

const struct bc_target_ops bc_target_nvme_ops = {
    .name = "nvme",
    .version = BC_TARGET_OPS_VERSION,
    .desc = "an NVMe namespace through passthrough",
    .kinds = 1u << BC_KIND_NVME_CHAR,
    .caps = BC_TCAP_PLACEMENT | BC_TCAP_PASSTHRU,
    .safety = BC_TSAFE_ALLOWLIST | BC_TSAFE_DEVICE,
    .prepare = s_nvme_prepare,
    .nop_full = true, /* res 0 is success; see target/target.h */
    .ring_flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32,
    .open = s_nvme_open,
    .close = s_nvme_close,
    .prep = s_nvme_prep,
    .control = s_nvme_control,
};
