/*
 * nvme/fdp.h - flexible data placement on an NVMe namespace: what the
 * device offers (discovery before any I/O), the check of a volume's "fdp"
 * placement against it, and the FDP events of a step. Encoders and parsers
 * are pure functions on byte buffers (unit-tested against fixtures); the
 * rest goes to the device through NVME_IOCTL_ADMIN_CMD / NVME_IOCTL_IO_CMD
 * on the namespace's own path (NVMe 2.0, flexible data placement).
 */
#ifndef BC_NVME_FDP_H
#define BC_NVME_FDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "nvme/nvme.h"
#include "profile/profile.h"

#define BC_NVME_ADMIN_SET_FEATURES 0x09
#define BC_NVME_ADMIN_GET_FEATURES 0x0A
#define BC_NVME_FID_FDP		   0x1D
#define BC_NVME_FID_FDP_EVENTS	   0x1E
#define BC_NVME_LID_FDP_CONFIGS	   0x20
#define BC_NVME_LID_RUH_USAGE	   0x21
#define BC_NVME_LID_FDP_EVENTS	   0x23

/* reclaim unit handles kept (fio caps its placement list at 128 too) */
#define BC_NVME_FDP_RUH_MAX 128
/* FDP events log: a 64-byte header, then 64-byte events */
#define BC_NVME_FDP_EVENT_BYTES 64
#define BC_NVME_FDP_EVENTS_MAX	255

/* Get / Set Features (cdw10 = FID, select 0: current); buf may be NULL with len 0 */
void bc_nvme_get_features(struct nvme_passthru_cmd *c, uint8_t fid, uint32_t nsid, uint32_t cdw11,
			  void *buf, uint32_t len);
void bc_nvme_set_features(struct nvme_passthru_cmd *c, uint8_t fid, uint32_t nsid, uint32_t cdw11,
			  uint32_t cdw12, void *buf, uint32_t len);

/* one FDP configuration (FDP Configurations log descriptor) */
struct bc_nvme_fdp_conf {
	bool valid;	  /* FDPA bit 7 */
	uint8_t rgif;	  /* PID bits naming the reclaim group */
	uint32_t nrg;	  /* reclaim groups */
	uint16_t nruh;	  /* reclaim unit handles */
	uint16_t maxpids; /* placement IDs a namespace may have, 0-based as on the wire + 1 */
	uint64_t runs;	  /* reclaim unit size, bytes */
};
/*
 * Descriptor idx of an FDP Configurations log (LID 20h): 0, -ENOENT (no
 * such index), -EINVAL (truncated or malformed).
 */
int bc_nvme_parse_fdp_configs(const void *buf, size_t len, unsigned idx,
			      struct bc_nvme_fdp_conf *out);

/* RUH Usage log (LID 21h): the RUHA of up to max handles; returns NRUH or -EINVAL */
int bc_nvme_parse_ruh_usage(const void *buf, size_t len, uint8_t *ruha, int max);

/* FDP event types counted per step (FDP events log, NVMe 2.0), "other" for the rest */
enum bc_fdp_event_type {
	BC_FDP_EV_RU_NOT_WRITTEN,   /* 00h reclaim unit not fully written */
	BC_FDP_EV_RU_TIME_LIMIT,    /* 01h */
	BC_FDP_EV_RESET_RUH,	    /* 02h controller reset modified RUHs */
	BC_FDP_EV_INVALID_PID,	    /* 03h */
	BC_FDP_EV_MEDIA_REALLOC,    /* 80h */
	BC_FDP_EV_IMPLICIT_RUH_MOD, /* 81h */
	BC_FDP_EV_OTHER,
	BC_FDP_EV_NR
};
extern const char *const bc_fdp_event_names[BC_FDP_EV_NR];
struct bc_nvme_fdp_events {
	uint32_t n; /* events the log holds (header N) */
	uint32_t count[BC_FDP_EV_NR];
};
/* count the events of an FDP Events log page (LID 23h): 0 or -EINVAL */
int bc_nvme_parse_fdp_events(const void *buf, size_t len, struct bc_nvme_fdp_events *out);

/* what the namespace's controller says about FDP, read before any I/O */
struct bc_nvme_fdp {
	bool probed;	 /* discovery ran (an NVMe namespace) */
	int err;	 /* 0, or -errno of the first step that failed */
	char why[96];	 /* what failed, when err */
	bool supported;	 /* Identify Controller CTRATT bit 19 */
	uint16_t endgid; /* the namespace's endurance group */
	bool enabled;	 /* Get Features 1Dh: FDPE */
	uint8_t conf_idx;
	struct bc_nvme_fdp_conf conf; /* the active configuration */
	int nruhu;		      /* RUH Usage descriptors read, -1 unread */
	uint8_t ruha[BC_NVME_FDP_RUH_MAX];
	int nruhs; /* the namespace's placement handles (RUH Status) */
	struct bc_nvme_ruhs ruhs[BC_NVME_FDP_RUH_MAX];
};

/* what Identify said that FDP discovery needs (bc_nvme_ident_fdp in nvme/ident.h) */
struct bc_nvme_fdp_ident {
	int err;	 /* Identify's -errno, 0 when it answered */
	bool fdps;	 /* Identify Controller CTRATT bit 19 */
	uint16_t endgid; /* the namespace's endurance group */
	uint32_t nsid;
};

/*
 * Discover FDP on path (nvmeXnY or ngXnY) whose Identify said id: the FDP
 * feature, the configurations log, RUH usage and the namespace's RUH status.
 * Fills f (f->err says what was missing, "Identify" when id->err; not
 * supported is not an error) and returns f->err.
 */
int bc_nvme_fdp_discover(const char *path, const struct bc_nvme_fdp_ident *id,
			 struct bc_nvme_fdp *f);

/* the placement ID of write number seq under policy (pids non-empty) */
uint16_t bc_nvme_pick_pid(const uint16_t *pids, int npids, enum bc_fdp_policy policy, uint64_t seq);

/*
 * A volume's "fdp" placement against what the device has: FDP not
 * supported, disabled, or a pid index the namespace does not have are
 * refused, the device and the index named in err. 0 or -EINVAL/-EOPNOTSUPP.
 */
int bc_nvme_fdp_check(const struct bc_nvme_fdp *f, const char *path, const struct bc_fdp_spec *spec,
		      char *err, size_t errlen);

/* {supported, enabled, endgid, config_index, reclaim_groups, ...}: the caller owns it */
cJSON *bc_nvme_fdp_json(const struct bc_nvme_fdp *f);

/*
 * Enable (or disable) every FDP event type on each of the namespace's
 * nph placement handles (Set Features 1Eh per handle). 0 or -errno.
 */
int bc_nvme_fdp_events_set(const char *path, int nph, bool enable);

/* read the host (host = true) or controller events log of endgid on path: 0 or -errno */
int bc_nvme_fdp_events_read(const char *path, uint16_t endgid, bool host,
			    struct bc_nvme_fdp_events *out);

#endif
