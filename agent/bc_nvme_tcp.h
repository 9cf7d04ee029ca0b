/*
 * bc_nvme_tcp.h - attach and detach NVMe/TCP namespaces the way libnvme does,
 * without nvme-cli: an options string written to /dev/nvme-fabrics, the
 * "instance=N,cntlid=M" reply read back on the same fd, the namespace found
 * under /sys/class/nvme/nvmeN/, and "1" written to delete_controller.
 * Every path takes a root prefix ("" live, else a fixture tree).
 * Not yet wired into volumes or the step lifecycle (docs/nvme.md).
 */
#ifndef BC_NVME_TCP_H
#define BC_NVME_TCP_H

#include <stddef.h>

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

/* open root/dev/nvme-fabrics and connect; 0 or -errno with a message */
int bc_nvme_tcp_connect(const char *root, const struct bc_nvme_tcp_spec *s, int *instance,
			char *err, size_t errlen);

/*
 * The namespace block device of controller instance: root/sys/class/nvme/
 * nvme<instance>/ holding "nvme<X>n<Y>" (non-multipath) or "nvme<S>c<C>n<N>"
 * (multipath path: the head is nvme<S>n<N>) and state "live". Polls every
 * 50 ms up to timeout_ms (namespace scanning is asynchronous). Writes
 * "nvme<X>n<Y>" into name; 0, -ETIMEDOUT or -errno.
 */
int bc_nvme_tcp_find_ns(const char *root, int instance, unsigned timeout_ms, char *name,
			size_t len);

/* write "1" to root/sys/class/nvme/nvme<instance>/delete_controller: 0 or -errno */
int bc_nvme_tcp_disconnect(const char *root, int instance);

#endif
