/*
 * profile/volume/fdp.h - a volume's "fdp": FDP placement for NVMe passthrough
 * writes, parsed by the profile and by the agent from PREPARE
 * (profile/volume/fdp.c, docs/nvme.md).
 */
#ifndef BC_PROFILE_VOLUME_FDP_H
#define BC_PROFILE_VOLUME_FDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define BC_FDP_PIDS_MAX 16 /* placement indexes of a volume's "fdp" */

/*
 * "fdp" of a volume: FDP placement for NVMe passthrough writes (docs/nvme.md).
 * pids are indices into the namespace's reclaim unit handle status list, as
 * fio's fdp_pli; the agent maps them to placement IDs when it opens the target.
 */
enum bc_fdp_policy {
	BC_FDP_NONE = 0, /* no placement directive */
	BC_FDP_FIXED,	 /* every write to pids[0] */
	BC_FDP_ROUND_ROBIN,
	BC_FDP_RANDOM,
};
struct bc_fdp_spec {
	enum bc_fdp_policy policy;
	int npids;
	uint16_t pids[BC_FDP_PIDS_MAX];
	/*
	 * "pids": "all": every handle the namespace reports, up to 16 (fio's
	 * fdp=1 without plids); the target fills pids 0..n-1 when it opens
	 */
	bool all;
};

/* parse {"pids": [..] | "all", "policy": ".."}: 0 or -EINVAL with a message naming base */
int bc_fdp_spec_from_json(const cJSON *o, const char *base, struct bc_fdp_spec *f, char *err,
			  size_t errlen);
/* NULL when f->policy is BC_FDP_NONE; caller owns the result */
cJSON *bc_fdp_spec_to_json(const struct bc_fdp_spec *f);
const char *bc_fdp_policy_name(enum bc_fdp_policy p);

#endif
