/*
 * bc_target.h - pluggable I/O targets (fio engines / SQLite io_methods style).
 *
 * A target is one volume opened by the agent: a regular file, a block device,
 * or "null" (completes every I/O without touching a device, to measure the
 * engine's own cost). Each kind fills a struct bc_target_ops; the job thread
 * only ever calls ops->prep on the I/O path.
 */
#ifndef BC_TARGET_H
#define BC_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <liburing.h>

#include "bc_profile.h"
#include "bc_stats.h"

enum bc_path_kind {
	BC_KIND_MISSING = 0, /* does not exist (may be created as a file) */
	BC_KIND_FILE,
	BC_KIND_BLOCK,
	BC_KIND_NVME_CHAR, /* /dev/ngXnY generic char device (passthrough) */
	BC_KIND_NULL,
	BC_KIND_SIM, /* "sim" / "sim:NAME": a simulated SSD (target_sim.c) */
	BC_KIND_OTHER,
};

const char *bc_path_kind_name(enum bc_path_kind k);

struct bc_devinfo {
	enum bc_path_kind kind;
	uint64_t size_bytes;
	uint32_t lbs; /* logical block size, bytes (512 for files: O_DIRECT granule) */
	uint32_t pbs; /* physical block size, bytes */
};

/*
 * Look at path without opening it for I/O (block devices are opened O_RDONLY
 * for their size ioctls). Returns 0 (kind may be BC_KIND_MISSING) or -errno
 * (e.g. -EACCES). The path "null" is the null target: 1 TiB virtual size.
 * Values not known (NVMe char devices whose sysfs lacks them) are 0.
 */
int bc_devinfo_probe(const char *path, struct bc_devinfo *di);

struct bc_target;

/*
 * Version 2: prep takes a struct bc_io_desc (the job's registered buffer and
 * file indexes travel with each I/O, because registration is per job ring and
 * targets are shared between jobs) and ops carry nop_full.
 * Version 3: ops carry ring_flags (NVMe passthrough needs SQE128|CQE32).
 * Version 4: ops carry timeout_full (the sim target's modelled latency).
 */
#define BC_TARGET_OPS_VERSION 4

/* control ops; unknown ones return -ENOTSUP */
enum bc_target_ctl {
	BC_TCTL_NONE = 0,
	/*
	 * arg: struct bc_target_log; a target that simulates a device answers
	 * Get Log Page itself with the NVMe layout (target_sim.c), so its
	 * counters take the real logs' path (nvme_counters.c)
	 */
	BC_TCTL_GET_LOG,
	/* arg: struct bc_sim_counters (bc_sim_ftl.h): the simulated FTL's own counters */
	BC_TCTL_SIM_COUNTERS,
};

struct bc_target_log {
	uint8_t lid;  /* log page identifier (NVMe 2.0 §5.16, Get Log Page) */
	void *buf;    /* zeroed and filled by the target */
	uint32_t len; /* bytes */
};

/* one I/O as the job thread hands it to ops->prep */
struct bc_io_desc {
	enum bc_op op;
	uint32_t len;	/* bytes */
	uint64_t off;	/* byte offset in the target */
	void *buf;	/* len bytes, 4096-aligned, owned by the job */
	int buf_index;	/* registered buffer index in the job's ring, -1: not registered */
	int file_index; /* registered file index in the job's ring, -1: use t->fd */
	/*
	 * writes: index into the volume's "fdp" pids chosen by the job (a
	 * stream's placement), -1 (BC_PLACEMENT_VOLUME): the target applies the
	 * volume's own policy, -2 (BC_PLACEMENT_NONE): no placement directive
	 * at all (DTYPE 0), whatever the volume's "fdp" says
	 */
	int placement;
};

struct bc_target_ops {
	const char *name;
	int version; /* BC_TARGET_OPS_VERSION */
	/*
	 * true when prep issues IORING_OP_NOP: the kernel then reports res 0,
	 * which the job counts as a full transfer of len bytes (a negative res
	 * stays an error). Real targets leave it false. NVMe passthrough sets it
	 * too: its CQE res is 0 on success and a positive NVMe status on
	 * failure, which the job counts as an error (-EIO).
	 */
	bool nop_full;
	/*
	 * true when prep may issue a pure IORING_OP_TIMEOUT (count 0) to
	 * complete the I/O after a modelled delay: its -ETIME then counts as
	 * a full transfer of len bytes (target_sim.c with "latency").
	 */
	bool timeout_full;
	/*
	 * io_uring_setup flags every job ring that drives this target must
	 * have (IORING_SETUP_SQE128 | IORING_SETUP_CQE32 for URING_CMD), 0 for
	 * most. prep may then use the whole 128-byte SQE.
	 */
	unsigned ring_flags;
	/* open t->path; on failure return -errno and write a message naming the path */
	int (*open)(struct bc_target *t, char *err, size_t errlen);
	void (*close)(struct bc_target *t);
	/*
	 * Fill sqe for one I/O. Called by job threads concurrently on a shared
	 * target: must only read t (state behind t->priv that prep changes
	 * brings its own synchronization: target_nvme's atomic placement
	 * counter, target_sim's device lock). Cannot fail; an op the target
	 * does not implement must still produce a CQE (the job never issues
	 * one today).
	 */
	void (*prep)(const struct bc_target *t, struct io_uring_sqe *sqe,
		     const struct bc_io_desc *io);
	int (*control)(struct bc_target *t, int op, void *arg);
};

/*
 * Filled by bc_target_open, then shared read-only by every job thread of the
 * step. Per-ring state (registered file index) lives in each job, not here.
 */
struct bc_target {
	const struct bc_target_ops *ops;
	char path[BC_PATH_MAX]; /* absolute, or "null" */
	bool writable;		/* open for writing (the step writes) */
	bool direct;		/* O_DIRECT */
	uint64_t create_bytes;	/* regular files: create/extend to this size (0 = as is) */
	int fd;			/* -1 when closed (and always for null) */
	struct bc_devinfo info;
	uint64_t win_start; /* I/O window [win_start, win_end), bytes, block aligned */
	uint64_t win_end;
	struct bc_fdp_spec fdp; /* the volume's "fdp" (NVMe passthrough and sim only) */
	struct bc_sim_spec sim; /* the volume's "sim" (sim paths only), enabled false if none */
	void *priv;
};

/*
 * Open a volume: probe it, pick the ops by kind, open it, apply the window
 * (offset/length from the spec, clipped to the size; an empty window or a
 * window smaller than bs is an error). Writes to block devices are refused
 * unless allow_block_writes. On failure returns -errno and a message that
 * names the path.
 * A missing or smaller regular file is created/extended to spec->size_bytes
 * (fallocate, else ftruncate). The window is aligned to max(lbs, 512). spec
 * may be NULL (whole volume, no create). t is closed (fd -1) on failure.
 * bc_target_close is idempotent.
 */
int bc_target_open(struct bc_target *t, const char *path, const struct bc_volume_spec *spec,
		   const struct bc_workload *wl, bool allow_block_writes, char *err, size_t errlen);
void bc_target_close(struct bc_target *t);
/*
 * bc_target_open's checks without its effects (the pre-flight, CHECK): the
 * same probe, refusals and window, with the same messages, but nothing is
 * created, extended or opened for writing (files are opened read-only,
 * NVMe passthrough and simulated SSDs not at all). Returns 0 or -errno.
 */
int bc_target_check(const char *path, const struct bc_volume_spec *spec,
		    const struct bc_workload *wl, char *err, size_t errlen);

extern const struct bc_target_ops bc_target_file_ops; /* files and block devices */
extern const struct bc_target_ops bc_target_null_ops;
extern const struct bc_target_ops bc_target_nvme_ops; /* /dev/ngXnY passthrough */
extern const struct bc_target_ops bc_target_sim_ops;  /* "sim": a simulated FDP SSD */

#endif
