/*
 * nvme/tcp.h - attach and detach NVMe/TCP namespaces the way libnvme does,
 * without nvme-cli: an options string written to /dev/nvme-fabrics, the
 * "instance=N,cntlid=M" reply read back on the same fd, the namespace found
 * under /sys/class/nvme/nvmeN/, and "1" written to delete_controller.
 * Every path takes a root prefix ("" live, else a fixture tree); the agent
 * always passes "" (step.c), tests pass a fixture tree. A volume's
 * "nvme_tcp" is attached at PREPARE and detached at step teardown
 * (bc_nvme_tcp_attach/detach, docs/nvme.md).
 */
#ifndef BC_NVME_TCP_H
#define BC_NVME_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvme/nvme.h"
#include "profile/volume/nvme_tcp.h"
#include "wire/disc_msg.h"

struct bc_nvme_tcp_spec {
	const char *traddr;  /* required */
	const char *trsvcid; /* NULL: "4420" (the kernel would default to 8009, discovery) */
	const char *subnqn;  /* required, < 223 characters */
	const char *hostnqn; /* NULL: the kernel's default host NQN */
	int nr_io_queues;    /* 0: the kernel's default (online CPUs) */
};

/*
 * The options string for /dev/nvme-fabrics into buf. Returns its length or
 * -EINVAL (missing field, a value holding ',' '\n' '=' or space, NQN too
 * long) / -ENAMETOOLONG (does not fit len).
 */
int bc_nvme_tcp_options(const struct bc_nvme_tcp_spec *s, char *buf, size_t len);

/* "instance=N,cntlid=M\n": 0 with *instance (and *cntlid), or -EINVAL */
int bc_nvme_tcp_parse_reply(const char *reply, int *instance, int *cntlid);

/*
 * One write of opts to fd, one read of the reply from the same fd (the
 * fabrics misc device answers on the fd that connected). Returns 0 or -errno
 * (EALREADY: already connected; ECONNREFUSED; ...).
 */
int bc_nvme_tcp_connect_fd(int fd, const char *opts, int *instance, int *cntlid);

/*
 * open root/dev/nvme-fabrics and connect; 0 or -errno with a message. With
 * the ledger open, the controller is recorded in it before this returns.
 */
int bc_nvme_tcp_connect(const char *root, const struct bc_nvme_tcp_spec *s, int *instance,
			char *err, size_t errlen);

/*
 * The namespace block device of controller instance: root/sys/class/nvme/
 * nvme<instance>/ holding "nvme<X>n<Y>" (non-multipath) or "nvme<S>c<C>n<N>"
 * (multipath path: the head is nvme<S>n<N>) and state "live". Polls every
 * 50 ms up to timeout_ms (namespace scanning is asynchronous). Writes
 * "nvme<X>n<Y>" of the lowest nsid into name; 0, -ETIMEDOUT or -errno
 * (bc_nvme_tcp_find_nsid with nsid 0).
 */
int bc_nvme_tcp_find_ns(const char *root, int instance, unsigned timeout_ms, char *name,
			size_t len);

/*
 * write "1" to root/sys/class/nvme/nvme<instance>/delete_controller: 0 or
 * -errno; on success (or -ENOENT: gone) instance leaves the ledger
 */
int bc_nvme_tcp_disconnect(const char *root, int instance);

/*
 * The instance N of an existing controller (/sys/class/nvme/nvmeN) with
 * transport tcp, subsysnqn subnqn and an address holding traddr and trsvcid,
 * in whatever state (the kernel refuses a second connect to it with
 * -EALREADY anyway). Returns N or -ENOENT.
 */
int bc_nvme_tcp_find_ctrl(const char *root, const char *subnqn, const char *traddr,
			  const char *trsvcid);

/*
 * bc_nvme_tcp_find_ns for namespace nsid (0: the lowest nsid the controller
 * shows), read from each entry's "nsid" attribute (else its head's in
 * /sys/block); the nsid found into *found when not NULL (0: unknown).
 */
int bc_nvme_tcp_find_nsid(const char *root, int instance, uint32_t nsid, unsigned timeout_ms,
			  char *name, size_t len, uint32_t *found);

/*
 * A discovery log page as the device lays it out (header at 0, numrec
 * entries of 1024 bytes from 1024; the Fabrics Discovery Log Page) in buf: the first entry
 * that is an NVM subsystem (subtype 2) on TCP (trtype 3) named subnqn, into
 * out; entries beyond len are not looked at. Returns 0, -ENOENT (with the
 * number of entries looked at in *seen), or -EINVAL (len < 1024).
 */
int bc_nvme_disc_pick(const void *buf, size_t len, const char *subnqn,
		      struct bc_nvme_disc_entry *out, unsigned *seen);

/* what an attach did, for READY and for the detach */
struct bc_nvme_tcp_att {
	int instance;		    /* the I/O controller nvmeN, -1: nothing attached */
	bool owned;		    /* this agent connected it: detach disconnects it */
	uint32_t nsid;		    /* of the namespace used */
	char block[32];		    /* "nvme2n1", its block device */
	char dev[1100];		    /* root + "/dev/nvme2n1" or "/dev/ng2n1": what runs */
	char traddr[BC_TRADDR_MAX]; /* the I/O controller's address (after discovery) */
	char trsvcid[BC_TRSVCID_MAX + 1];
	bool discovered; /* the address came from a discovery log */
};

/* how long a fresh controller may take to go live and show its namespace */
#define BC_NVME_TCP_SCAN_MS 10000

/*
 * Attach volume v: with v->discover first read the discovery log at
 * traddr:trsvcid and take the subsystem's address from it; then reuse an
 * existing controller to subnqn at that address (owned = false) or connect
 * one (owned = true); then find the namespace. att is filled as it goes: on
 * failure after a connect, att->instance/owned say what to detach. Returns 0
 * or -errno with one line naming the fabric address in err.
 */
int bc_nvme_tcp_attach(const char *root, const struct bc_nvme_tcp_vol *v, unsigned timeout_ms,
		       struct bc_nvme_tcp_att *att, char *err, size_t errlen);

/*
 * Undo an attach: disconnect when this agent connected the controller,
 * leave a pre-existing one alone. Idempotent (att->instance becomes -1).
 * Returns 0 or the -errno of delete_controller.
 */
int bc_nvme_tcp_detach(const char *root, struct bc_nvme_tcp_att *att);

/*
 * Detach att[0..n) (a step's volumes, in order), logging each disconnect
 * and each controller left alone by volume index; every end of a step
 * calls this (step.c bc_step_teardown). Returns the number of disconnects
 * that failed.
 */
int bc_nvme_tcp_detach_all(const char *root, struct bc_nvme_tcp_att *att, int n);

/*
 * The ledger: a small file listing the controllers this agent connected and
 * has not disconnected ("nvmeN subnqn traddr trsvcid cntlid sysfs_ino
 * boot_id" a line, rewritten to path.tmp and renamed after every connect and
 * disconnect, removed when none is left), so that a SIGKILLed or crashed agent's
 * controllers are disconnected when the next agent starts on the same
 * ledger. path's directory is flock()ed for the process' life: a second
 * agent on the same directory gets -EBUSY.
 *
 * bc_nvme_tcp_ledger_open first disconnects the leftovers of the previous
 * file that are still the controllers it recorded - the same boot, the same
 * sysfs node (its inode: kernfs does not reuse them soon, so a controller
 * created later under the same name differs even when it goes to the same
 * subsystem), a TCP controller to the same subsysnqn at the same
 * traddr/trsvcid (and cntlid when sysfs shows one) - logging one line per
 * controller cleaned up or left alone (the name was reused), then writes
 * the ledger anew. Returns
 * the number disconnected, or -errno with one line in err (the agent runs
 * on without a ledger). Not thread-safe: the agent's control thread only.
 */
int bc_nvme_tcp_ledger_open(const char *root, const char *path, char *err, size_t errlen);

/* stop recording and release the lock (the file stays when it lists controllers) */
void bc_nvme_tcp_ledger_close(void);

/* controllers recorded now, -1 without an open ledger (tests) */
int bc_nvme_tcp_ledger_count(void);

/*
 * `bench-coord discover` on the agent: the discovery log at r's address,
 * read through an existing discovery controller there or one connected for
 * the read and deleted after. Returns DISCOVERY_LOG's body {traddr, trsvcid,
 * controller, connected_by_agent, genctr, entries[]} (caller owns it), or
 * NULL with one line naming the address in err.
 */
cJSON *bc_nvme_tcp_disc_list(const char *root, const struct bc_disc_req *r, char *err,
			     size_t errlen);

/* READY's "nvme_tcp" object for att; caller owns it */
cJSON *bc_nvme_tcp_att_json(const struct bc_nvme_tcp_att *att);

#endif
