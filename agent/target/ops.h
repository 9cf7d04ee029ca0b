/*
 * target/ops.h - the I/O target plug-in contract (fio's ioengine_ops,
 * SQLite's io_methods): a target is one volume opened by the agent, a regular
 * file, a block device, an NVMe namespace through passthrough, or a name
 * with no file behind it ("null": every I/O completes at once, to measure
 * the engine's own cost; "sim:NAME": a simulated SSD). Each target fills one
 * struct bc_target_ops and declares there what the core would otherwise ask
 * by its identity: which paths it opens (kinds of real paths, names it
 * claims), what it can and cannot do (caps), and which safety rules its
 * paths pass. The job thread only ever calls ops->prep on the I/O path.
 * Registering a target is one entry in target.c's table.
 */
#ifndef BC_TARGET_OPS_H
#define BC_TARGET_OPS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <liburing.h>

#include "profile/profile.h"
#include "sim/ftl.h"
#include "target/devinfo.h"
#include "wire/stats.h"

struct bc_target;

/*
 * Version 2: prep takes a struct bc_io_desc (the job's registered buffer and
 * file indexes travel with each I/O, because registration is per job ring and
 * targets are shared between jobs) and ops carry nop_full.
 * Version 3: ops carry ring_flags (NVMe passthrough needs SQE128|CQE32).
 * Version 4: ops carry timeout_full (the sim target's modelled latency).
 * Version 5: ops declare kinds, claims, caps and safety, and carry the
 * optional probe, prepare and check.
 * Version 6: a desc's op may be BC_IO_FSYNC/FDATASYNC and a write carries
 * rw_flags, both only for targets that declare BC_TCAP_SYNC; target.c
 * refuses any other version.
 */
#define BC_TARGET_OPS_VERSION 6

/* what a target is, asked by the core instead of its identity (fio's FIO_DISKLESSIO...) */
enum bc_target_cap {
	/*
	 * no file or device behind its paths: nothing to resolve against the
	 * scratch directory, to create, or to look up in sysfs (NUMA node,
	 * poll queues) or /proc/diskstats
	 */
	BC_TCAP_DISKLESS = 1u << 0,
	/* any I/O size at any offset: no block size, O_DIRECT alignment does not apply */
	BC_TCAP_ANY_ALIGN = 1u << 1,
	/* keeps no data: "verify" is refused */
	BC_TCAP_NO_DATA = 1u << 2,
	/* takes FDP placement: a volume's "fdp" and streams' placement indexes */
	BC_TCAP_PLACEMENT = 1u << 3,
	/* commands go to the device itself (NVMe passthrough), past the block layer */
	BC_TCAP_PASSTHRU = 1u << 4,
	/*
	 * takes BC_IO_FSYNC / BC_IO_FDATASYNC and a write's rw_flags
	 * (RWF_SYNC, RWF_DSYNC): a file or block device behind an fd
	 */
	BC_TCAP_SYNC = 1u << 5,
	/*
	 * takes a write's rw_flags (RWF_SYNC, RWF_DSYNC) but no fsync: a file
	 * set, whose writes go to many files (vdbench's openflags=o_sync on an
	 * fsd opens each with O_DSYNC; RWF_DSYNC on each write is the same)
	 */
	BC_TCAP_WSYNC = 1u << 6,
};

/*
 * Ops a job issues beside enum bc_op's, on targets with BC_TCAP_SYNC only;
 * not counted among the volume's ops (the job counts them apart): a
 * workload's "fsync" / "fdatasync" every N writes and "end_fsync".
 */
enum bc_io_extra {
	BC_IO_FSYNC = BC_OP_NR,
	BC_IO_FDATASYNC,
};

/* the PREPARE gate's rules (safety/safety.h) a target's paths pass */
enum bc_target_safety {
	/* the path must be in the agent's allowlist (scratch directory, --allow, "allow") */
	BC_TSAFE_ALLOWLIST = 1u << 0,
	/*
	 * writes: the device (or the block device behind a passthrough char
	 * device) unused (not mounted, no swap, no holders, claimable O_EXCL)
	 * and blank (no signature) unless the volume is consented destructive
	 */
	BC_TSAFE_DEVICE = 1u << 1,
};

/* control ops; unknown ones return -ENOTSUP */
enum bc_target_ctl {
	BC_TCTL_NONE = 0,
	/*
	 * arg: struct bc_target_log; a target that simulates a device answers
	 * Get Log Page itself with the NVMe layout (target/sim.c), so its
	 * counters take the real logs' path (devcounters.c)
	 */
	BC_TCTL_GET_LOG,
	/* arg: struct bc_sim_counters (sim/ftl.h): the simulated FTL's own counters */
	BC_TCTL_SIM_COUNTERS,
	/* arg: struct bc_target_ruhs: the simulated FTL's counters per reclaim unit handle */
	BC_TCTL_SIM_RUHS,
	/* arg: struct bc_target_sim_log: the simulated FTL's counter log (sim/ftl.h) */
	BC_TCTL_SIM_LOG,
};

struct bc_target_sim_log {
	uint64_t from;		       /* the first sample wanted (bc_sim_counters.log_samples) */
	struct bc_sim_log_sample *out; /* [max] */
	unsigned max, n;	       /* n: how many the target filled */
	uint64_t first;		       /* the index of out[0] */
};

struct bc_target_ruhs {
	struct bc_sim_ruh_counters *out; /* [max] */
	unsigned max, n;		 /* n: how many the target filled */
};

struct bc_target_log {
	uint8_t lid;  /* log page identifier (NVMe 2.0 §5.16, Get Log Page) */
	void *buf;    /* zeroed and filled by the target */
	uint32_t len; /* bytes */
};

/* one I/O as the job thread hands it to ops->prep */
struct bc_io_desc {
	int op;		/* enum bc_op, or enum bc_io_extra on a target with BC_TCAP_SYNC */
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
	/* writes on a target with BC_TCAP_SYNC: RWF_SYNC or RWF_DSYNC ("write_sync"), else 0 */
	int rw_flags;
};

struct bc_target_ops {
	const char *name; /* also the kind a pseudo path reports (READY, HELLO_OK) */
	int version;	  /* BC_TARGET_OPS_VERSION */
	const char *desc; /* what it is, in messages: "a simulated SSD" */
	/* the kinds of real paths it opens: bits 1u << BC_KIND_*; 0 for a pseudo target */
	unsigned kinds;
	/* the names it claims, no file behind them ("null"; "sim", "sim:NAME"); NULL: none */
	bool (*claims)(const char *path);
	unsigned caps;	 /* BC_TCAP_* */
	unsigned safety; /* BC_TSAFE_*: 0 for a name with nothing behind it to protect */
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
	 * a full transfer of len bytes (target/sim.c with "latency").
	 */
	bool timeout_full;
	/*
	 * io_uring_setup flags every job ring that drives this target must
	 * have (IORING_SETUP_SQE128 | IORING_SETUP_CQE32 for URING_CMD), 0 for
	 * most. prep may then use the whole 128-byte SQE.
	 */
	unsigned ring_flags;
	/* pseudo targets: what bc_devinfo_probe is for real paths (size, block sizes) */
	void (*probe)(const char *path, struct bc_devinfo *di);
	/*
	 * optional, before open and in the dry run alike: refuse what the
	 * volume's spec asks that this target cannot do, and fill what it knows
	 * of t->info; dry: create and extend nothing (bc_target_check). 0 or
	 * -errno with a message naming the path.
	 */
	int (*prepare)(struct bc_target *t, bool dry, char *err, size_t errlen);
	/* optional: open's dry run for bc_target_check (NULL: nothing to try without opening) */
	int (*check)(struct bc_target *t, char *err, size_t errlen);
	/* open t->path; on failure return -errno and write a message naming the path */
	int (*open)(struct bc_target *t, char *err, size_t errlen);
	void (*close)(struct bc_target *t);
	/*
	 * Fill sqe for one I/O. Called by job threads concurrently on a shared
	 * target: must only read t (state behind t->priv that prep changes
	 * brings its own synchronization: target/nvme.c's atomic placement
	 * counter, target/sim.c's device lock). Cannot fail; an op the target
	 * does not implement must still produce a CQE (the job never issues
	 * one today).
	 */
	void (*prep)(const struct bc_target *t, struct io_uring_sqe *sqe,
		     const struct bc_io_desc *io);
	int (*control)(struct bc_target *t, int op, void *arg);
};

/*
 * A file set's files as one space (target/fileset.c): file i holds
 * [vstart[i], vstart[i] + size[i]) of the target's offsets. A job that sees
 * it picks a file, then offsets within it (engine/job.c), so an I/O never
 * crosses from one file into the next.
 */
struct bc_target_files {
	uint32_t n, ndirs;
	const uint32_t *tree;	/* [n] each file's number in the tree: its path */
	const uint64_t *vstart; /* [n] */
	const uint64_t *size;	/* [n] bytes */
	/*
	 * [n] bytes of each file that held data before this PREPARE: a file
	 * the agent created (0) or extended (its old size) is written out from
	 * there before the step (engine/layout.h), as vdbench's format does
	 */
	const uint64_t *had;
	uint64_t bytes; /* the files' sizes summed */
	/*
	 * "workingset": the files the data workloads use, nwork indexes into
	 * the n (ascending); NULL: all n. The others are made and laid out only.
	 */
	uint32_t nwork;
	const uint32_t *work;
	uint32_t created, extended; /* files this PREPARE created, extended */
	uint32_t deleted;	    /* files "fileset_format": "fresh" deleted first */
	/*
	 * A "meta" workload's tree (engine/meta.h): the root directory, kept
	 * open (O_PATH) for the step, the spec that names its entries, and
	 * whether each file and directory exists now (BC_MSTATE_*), set at
	 * PREPARE from the disk and changed by the jobs' operations (an atomic
	 * exchange claims an entry, so two jobs never act on one at once);
	 * NULL and -1 for a data workload's set, whose files are open instead.
	 */
	int root;
	const struct bc_fileset_spec *spec;
	_Atomic uint8_t *fstate; /* [n] */
	_Atomic uint8_t *dstate; /* [ndirs] */
};

/* a meta tree's entry (struct bc_target_files fstate, dstate) */
enum bc_meta_state {
	BC_MSTATE_ABSENT = 0,
	BC_MSTATE_PRESENT,
	BC_MSTATE_BUSY, /* claimed by a job's operation in progress */
};

/*
 * Filled by bc_target_open, then shared read-only by every job thread of the
 * step. Per-ring state (registered file index) lives in each job, not here.
 */
struct bc_target {
	const struct bc_target_ops *ops;
	char path[BC_PATH_MAX]; /* absolute, or a name its target claims ("null") */
	bool writable;		/* open for writing (the step writes) */
	bool direct;		/* O_DIRECT */
	uint64_t create_bytes;	/* regular files: create/extend to this size (0 = as is) */
	/* prepare created (grew_from 0) or extended the file from grew_from bytes */
	bool grew;
	uint64_t grew_from;
	int fd; /* -1 when closed (and always for diskless targets) */
	struct bc_devinfo info;
	uint64_t win_start; /* I/O window [win_start, win_end), bytes, block aligned */
	uint64_t win_end;
	struct bc_fdp_spec fdp; /* the volume's "fdp" (targets with BC_TCAP_PLACEMENT) */
	struct bc_sim_spec sim; /* the volume's "sim" (sim paths only), enabled false if none */
	struct bc_fileset_spec fileset;	     /* the volume's "fileset", enabled false if none */
	bool fileset_fresh;		     /* the workload's "fileset_format": "fresh" */
	bool fileset_none;		     /* "fileset_format": "none": build nothing */
	uint32_t fileset_meta;		     /* the workload's "meta": enum bc_meta_kind */
	const struct bc_target_files *files; /* a file set's files once open, else NULL */
	void *priv;
};

#endif
