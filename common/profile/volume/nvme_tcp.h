/*
 * profile/volume/nvme_tcp.h - a volume given as an NVMe/TCP namespace instead of a
 * path: {"nvme_tcp": {"traddr", "trsvcid", "subnqn", "hostnqn", "nr_io_queues",
 * "nsid", "passthrough", "discover"}}. Parsed the same way by the coordinator
 * (profile check, with JSON paths) and the agent (PREPARE); the agent attaches
 * it (agent/nvme/tcp.h). See docs/nvme.md.
 */
#ifndef BC_PROFILE_VOLUME_NVME_TCP_H
#define BC_PROFILE_VOLUME_NVME_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* NVMF_NQN_SIZE is 223 with the NUL (kernel fabrics.h); NVMF_TRADDR_SIZE 256 */
#define BC_NQN_MAX     223
#define BC_TRADDR_MAX  256
#define BC_TRSVCID_MAX 32

/* the well-known discovery subsystem NQN (NVMe over Fabrics 1.1 §7.1) */
#define BC_NVME_DISC_NQN "nqn.2014-08.org.nvmexpress.discovery"

struct bc_nvme_tcp_vol {
	bool set;			  /* the volume is an NVMe/TCP namespace */
	char traddr[BC_TRADDR_MAX];	  /* IPv4/IPv6 address of the target port */
	char trsvcid[BC_TRSVCID_MAX + 1]; /* port: default 4420, or 8009 with discover */
	char subnqn[BC_NQN_MAX];	  /* the subsystem to connect to */
	char hostnqn[BC_NQN_MAX];	  /* "": the kernel's default host NQN */
	int nr_io_queues;		  /* 0: the kernel's default (online CPUs) */
	uint32_t nsid;			  /* 0: the subsystem's lowest namespace */
	bool passthrough;		  /* drive /dev/ngXnY (io_uring passthrough) */
	bool discover; /* traddr:trsvcid is a discovery controller; subnqn is looked up there */
};

/*
 * Parse o (the "nvme_tcp" object) into v. base names the volume in messages
 * ("volumes[2]"): errors read "volumes[2].nvme_tcp.traddr: ...". Returns 0 or
 * -EINVAL with one line in err.
 */
int bc_nvme_tcp_vol_from_json(const cJSON *o, const char *base, struct bc_nvme_tcp_vol *v,
			      char *err, size_t errlen);

/* the object back, defaults applied; caller owns it; NULL when !v->set */
cJSON *bc_nvme_tcp_vol_to_json(const struct bc_nvme_tcp_vol *v);

/*
 * The volume's name where a path would stand (reports, HELLO, duplicates):
 * "nvme-tcp://10.0.1.2:4420/nqn.x[/ns2]" (IPv6 addresses in brackets).
 * Returns buf.
 */
const char *bc_nvme_tcp_vol_label(const struct bc_nvme_tcp_vol *v, char *buf, size_t len);

/*
 * One field of a fabrics controller's sysfs "address" attribute
 * ("traddr=10.0.1.2,trsvcid=4420,src_addr=10.0.0.9"): 0 with the value in out,
 * -ENOENT when the key is absent, -ENAMETOOLONG when it does not fit.
 */
int bc_nvme_addr_field(const char *address, const char *key, char *out, size_t len);

/* the prefix of every label: a "path" of a volume never starts with it */
#define BC_NVME_TCP_LABEL_PREFIX "nvme-tcp://"

#endif
