/*
 * wire/disc_msg.h - the bodies of DISCOVER (coordinator -> agent: which
 * discovery controller to read) and DISCOVERY_LOG (agent -> coordinator: its
 * entries), for `bench-coord discover` (docs/nvme.md, docs/protocol.md). Pure
 * JSON in and out, shared by both sides and the unit tests.
 */
#ifndef BC_WIRE_DISC_MSG_H
#define BC_WIRE_DISC_MSG_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "profile/volume/nvme_tcp.h"

/* DISCOVER {"traddr", "trsvcid", ["hostnqn"]} */
struct bc_disc_req {
	char traddr[BC_TRADDR_MAX];
	char trsvcid[BC_TRSVCID_MAX + 1]; /* default "8009", the discovery port */
	char hostnqn[BC_NQN_MAX];	  /* "": the kernel's default */
};

/* one discovery log entry (NVMe-oF 1.1 Figure 38), numbers as the device gives them */
struct bc_disc_rec {
	unsigned trtype;  /* 1 RDMA, 2 FC, 3 TCP, 254 loop */
	unsigned adrfam;  /* 1 IPv4, 2 IPv6, 3 IB, 4 FC, 254 loop */
	unsigned subtype; /* 1 referral, 2 NVM subsystem, 3 current discovery */
	unsigned portid;
	char traddr[257];
	char trsvcid[33];
	char subnqn[257];
};

/* caller owns the object; NULL on allocation failure */
cJSON *bc_disc_req_to_json(const struct bc_disc_req *r);

/*
 * o into r: traddr required; trsvcid a string or integer (default 8009);
 * values holding ',' '=' or blanks refused (they would add fabrics options).
 * Returns 0 or -EINVAL with one line in err.
 */
int bc_disc_req_from_json(const cJSON *o, struct bc_disc_req *r, char *err, size_t errlen);

/*
 * {"trtype": "tcp", "adrfam": "ipv4", "traddr", "trsvcid", "subnqn",
 * "subtype": "nvme", "portid"}: known codes by name, others as their number
 * in decimal ("7"). Caller owns the object.
 */
cJSON *bc_disc_rec_to_json(const struct bc_disc_rec *e);

/* the object back (names or decimal numbers): 0 or -EINVAL with err */
int bc_disc_rec_from_json(const cJSON *o, struct bc_disc_rec *e, char *err, size_t errlen);

/* "tcp", "ipv4", "nvme" ...: buf holds the decimal number for unknown codes; returns buf */
const char *bc_disc_trtype_name(unsigned v, char *buf, size_t len);
const char *bc_disc_adrfam_name(unsigned v, char *buf, size_t len);
const char *bc_disc_subtype_name(unsigned v, char *buf, size_t len);

#endif
