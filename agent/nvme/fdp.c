/*
 * nvme/fdp.c - FDP discovery, the placement check and FDP events (see
 * nvme/fdp.h). Layouts: NVMe 2.0 base specification (FDP
 * configurations log 20h, RUH usage 21h, events 23h, features 1Dh/1Eh) and
 * NVM command set (RUH status through I/O Management Receive MO 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "nvme/fdp.h"
#include "profile/profile.h"
#include "util/le.h"

const char *const bc_fdp_event_names[BC_FDP_EV_NR] = {
    "ru_not_fully_written",
    "ru_time_limit_exceeded",
    "ctrl_reset_modified_ruh",
    "invalid_placement_id",
    "media_reallocated",
    "implicitly_modified_ruh",
    "other",
};

static void s_features(struct nvme_passthru_cmd *c, uint8_t opcode, uint8_t fid, uint32_t nsid,
		       uint32_t cdw11, uint32_t cdw12, void *buf, uint32_t len)
{
	memset(c, 0, sizeof(*c));
	c->opcode = opcode;
	c->nsid = nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = len;
	c->cdw10 = fid;
	c->cdw11 = cdw11;
	c->cdw12 = cdw12;
}

void bc_nvme_get_features(struct nvme_passthru_cmd *c, uint8_t fid, uint32_t nsid, uint32_t cdw11,
			  void *buf, uint32_t len)
{
	s_features(c, BC_NVME_ADMIN_GET_FEATURES, fid, nsid, cdw11, 0, buf, len);
}

void bc_nvme_set_features(struct nvme_passthru_cmd *c, uint8_t fid, uint32_t nsid, uint32_t cdw11,
			  uint32_t cdw12, void *buf, uint32_t len)
{
	s_features(c, BC_NVME_ADMIN_SET_FEATURES, fid, nsid, cdw11, cdw12, buf, len);
}

int bc_nvme_parse_fdp_configs(const void *buf, size_t len, unsigned idx,
			      struct bc_nvme_fdp_conf *out)
{
	const uint8_t *b = buf;
	size_t off = 16, size;
	unsigned n, i;

	if (len < 16)
		return -EINVAL;
	n = bc_le16(b) + 1u; /* 0-based count */
	size = bc_le32(b + 4);
	if (size < 16)
		return -EINVAL;
	if (size > len)
		size = len;
	if (idx >= n)
		return -ENOENT;
	for (i = 0; i <= idx; i++) {
		const uint8_t *d = b + off;
		size_t dsze;

		if (off + 64 > size)
			return -EINVAL;
		dsze = bc_le16(d);
		if (dsze < 64 || off + dsze > size)
			return -EINVAL;
		if (i == idx) {
			memset(out, 0, sizeof(*out));
			out->valid = d[2] >> 7;
			out->rgif = d[2] & 0x0f;
			out->nrg = bc_le32(d + 4);
			out->nruh = bc_le16(d + 8);
			out->maxpids = (uint16_t)(bc_le16(d + 10) + 1u);
			out->runs = bc_le64(d + 16);
			return 0;
		}
		off += dsze;
	}
	return -EINVAL;
}

int bc_nvme_parse_ruh_usage(const void *buf, size_t len, uint8_t *ruha, int max)
{
	const uint8_t *b = buf;
	int n, i;

	if (len < 8)
		return -EINVAL;
	n = bc_le16(b);
	for (i = 0; i < n && i < max && 8 + 8 * (size_t)i + 8 <= len; i++)
		ruha[i] = b[8 + 8 * i];
	return n;
}

static enum bc_fdp_event_type s_event_type(uint8_t t)
{
	switch (t) {
	case 0x00:
		return BC_FDP_EV_RU_NOT_WRITTEN;
	case 0x01:
		return BC_FDP_EV_RU_TIME_LIMIT;
	case 0x02:
		return BC_FDP_EV_RESET_RUH;
	case 0x03:
		return BC_FDP_EV_INVALID_PID;
	case 0x80:
		return BC_FDP_EV_MEDIA_REALLOC;
	case 0x81:
		return BC_FDP_EV_IMPLICIT_RUH_MOD;
	default:
		return BC_FDP_EV_OTHER;
	}
}

int bc_nvme_parse_fdp_events(const void *buf, size_t len, struct bc_nvme_fdp_events *out)
{
	const uint8_t *b = buf;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	if (len < BC_NVME_FDP_EVENT_BYTES)
		return -EINVAL;
	out->n = bc_le32(b);
	for (i = 0; i < out->n && (i + 2) * (size_t)BC_NVME_FDP_EVENT_BYTES <= len; i++)
		out->count[s_event_type(b[(i + 1) * BC_NVME_FDP_EVENT_BYTES])]++;
	return 0;
}

static int s_cmd(int fd, unsigned long req, struct nvme_passthru_cmd *c)
{
	int ret = ioctl(fd, req, c);

	if (ret < 0)
		return -errno;
	return ret > 0 ? -EIO : 0;
}

static int s_fail(struct bc_nvme_fdp *f, int err, const char *what)
{
	f->err = err;
	snprintf(f->why, sizeof(f->why), "%s: %s", what, strerror(-err));
	return err;
}

/* Get Log Page into buf (len bytes, zeroed first) */
static int s_log(int fd, uint8_t lid, uint8_t lsp, uint16_t lsi, void *buf, uint32_t len)
{
	struct nvme_passthru_cmd c;

	memset(buf, 0, len);
	bc_nvme_get_log(&c, lid, lsp, 0, lsi, 0, 0, buf, len);
	return s_cmd(fd, NVME_IOCTL_ADMIN_CMD, &c);
}

/* RUH status (I/O Management Receive MO 1) of namespace nsid into f->ruhs */
static int s_ruhs(int fd, uint32_t nsid, struct bc_nvme_fdp *f, void *buf, uint32_t len)
{
	struct nvme_passthru_cmd c;
	int ret, nr;

	memset(buf, 0, len);
	bc_nvme_ruhs_cmd(&c, nsid, buf, len);
	ret = s_cmd(fd, NVME_IOCTL_IO_CMD, &c);
	if (ret)
		return ret;
	nr = bc_nvme_parse_ruhs(buf, len, f->ruhs, BC_NVME_FDP_RUH_MAX);
	if (nr < 0)
		return nr;
	f->nruhs = nr < BC_NVME_FDP_RUH_MAX ? nr : BC_NVME_FDP_RUH_MAX;
	return 0;
}

int bc_nvme_fdp_discover(const char *path, const struct bc_nvme_fdp_ident *id,
			 struct bc_nvme_fdp *f)
{
	const uint32_t len = 16 + 32 * BC_NVME_FDP_RUH_MAX; /* >= 4096: every log below fits */
	struct nvme_passthru_cmd c;
	void *buf = NULL;
	int fd = -1, ret;

	memset(f, 0, sizeof(*f));
	f->probed = true;
	f->nruhu = -1;
	if (id->err)
		return s_fail(f, id->err, "Identify");
	f->supported = id->fdps;
	f->endgid = id->endgid;
	if (!f->supported)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return s_fail(f, -errno, "open");
	if (posix_memalign(&buf, 4096, len)) {
		ret = s_fail(f, -ENOMEM, "buffer");
		goto out;
	}
	bc_nvme_get_features(&c, BC_NVME_FID_FDP, 0, id->endgid, NULL, 0);
	ret = s_cmd(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (ret) {
		s_fail(f, ret, "Get Features FDP (1Dh)");
		goto out;
	}
	f->enabled = c.result & 1;
	f->conf_idx = (uint8_t)(c.result >> 8);
	ret = s_log(fd, BC_NVME_LID_FDP_CONFIGS, 0, id->endgid, buf, 4096);
	if (!ret)
		ret = bc_nvme_parse_fdp_configs(buf, 4096, f->conf_idx, &f->conf);
	if (ret) {
		s_fail(f, ret, "FDP configurations log (20h)");
		goto out;
	}
	/* usage is informative: a device without it still places */
	if (!s_log(fd, BC_NVME_LID_RUH_USAGE, 0, id->endgid, buf, 8 + 8 * BC_NVME_FDP_RUH_MAX))
		f->nruhu = bc_nvme_parse_ruh_usage(buf, 8 + 8 * BC_NVME_FDP_RUH_MAX, f->ruha,
						   BC_NVME_FDP_RUH_MAX);
	if (f->enabled) {
		ret = s_ruhs(fd, id->nsid, f, buf, len);
		if (ret)
			s_fail(f, ret, "reclaim unit handle status (I/O Management Receive)");
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return f->err;
}

/* the DSPEC of the next write; splitmix64 for "random" (no per-thread state in prep) */
uint16_t bc_nvme_pick_pid(const uint16_t *pids, int npids, enum bc_fdp_policy policy, uint64_t seq)
{
	uint64_t z;

	if (npids <= 1 || policy == BC_FDP_FIXED)
		return pids[0];
	if (policy == BC_FDP_ROUND_ROBIN)
		return pids[seq % (uint64_t)npids];
	z = seq + 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return pids[z % (uint64_t)npids];
}

int bc_nvme_fdp_check(const struct bc_nvme_fdp *f, const char *path, const struct bc_fdp_spec *spec,
		      char *err, size_t errlen)
{
	int i;

	if (spec->policy == BC_FDP_NONE || spec->npids == 0)
		return 0;
	if (!f->probed || (f->err && !f->supported)) {
		snprintf(err, errlen,
			 "%s: \"fdp\" placement: cannot tell whether the device has FDP (%s)", path,
			 f->err ? f->why : "not an NVMe namespace");
		return -EOPNOTSUPP;
	}
	if (!f->supported) {
		snprintf(err, errlen,
			 "%s: \"fdp\" placement index %u refused: the controller does not support "
			 "flexible data placement (Identify Controller CTRATT bit 19 clear)",
			 path, spec->pids[0]);
		return -EOPNOTSUPP;
	}
	if (f->err) {
		snprintf(err, errlen, "%s: \"fdp\" placement: %s", path, f->why);
		return f->err;
	}
	if (!f->enabled) {
		snprintf(
		    err, errlen,
		    "%s: \"fdp\" placement index %u refused: FDP is disabled on endurance group "
		    "%u (Get Features 1Dh: FDPE 0)",
		    path, spec->pids[0], f->endgid);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < spec->npids; i++)
		if (spec->pids[i] >= f->nruhs) {
			snprintf(
			    err, errlen,
			    "%s: \"fdp\" pids[%d] = %u refused: the namespace has %d placement "
			    "handles (indexes 0-%d of its reclaim unit handle status; endurance "
			    "group %u, configuration %u with %u handles)",
			    path, i, spec->pids[i], f->nruhs, f->nruhs - 1, f->endgid, f->conf_idx,
			    f->conf.nruh);
			return -EINVAL;
		}
	return 0;
}

static const char *s_ruha_name(uint8_t a)
{
	return a == 1 ? "host" : a == 2 ? "controller" : a == 0 ? "unused" : "reserved";
}

cJSON *bc_nvme_fdp_json(const struct bc_nvme_fdp *f)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	int i;

	if (!o)
		return NULL;
	cJSON_AddBoolToObject(o, "supported", f->supported);
	if (f->err)
		cJSON_AddStringToObject(o, "error", f->why);
	if (!f->supported)
		return o;
	cJSON_AddNumberToObject(o, "endgid", f->endgid);
	cJSON_AddBoolToObject(o, "enabled", f->enabled);
	cJSON_AddNumberToObject(o, "config_index", f->conf_idx);
	if (f->conf.nruh) {
		cJSON_AddNumberToObject(o, "reclaim_groups", f->conf.nrg);
		cJSON_AddNumberToObject(o, "handles", f->conf.nruh);
		cJSON_AddNumberToObject(o, "ru_bytes", (double)f->conf.runs);
		cJSON_AddNumberToObject(o, "rgif", f->conf.rgif);
		cJSON_AddNumberToObject(o, "max_pids", f->conf.maxpids);
	}
	if (f->nruhu >= 0) {
		arr = cJSON_AddArrayToObject(o, "ruh_usage");
		for (i = 0; i < f->nruhu && i < BC_NVME_FDP_RUH_MAX; i++)
			cJSON_AddItemToArray(arr, cJSON_CreateString(s_ruha_name(f->ruha[i])));
	}
	if (f->enabled && !f->err) {
		arr = cJSON_AddArrayToObject(o, "ruhs");
		for (i = 0; i < f->nruhs; i++) {
			cJSON *r = cJSON_CreateObject();

			cJSON_AddNumberToObject(r, "pid", f->ruhs[i].pid);
			cJSON_AddNumberToObject(r, "ruhid", f->ruhs[i].ruhid);
			cJSON_AddNumberToObject(r, "ruamw", (double)f->ruhs[i].ruamw);
			cJSON_AddItemToArray(arr, r);
		}
	}
	return o;
}

int bc_nvme_fdp_events_set(const char *path, int nph, bool enable)
{
	/* every type the log knows: host events then controller events */
	static const uint8_t types[] = {0x00, 0x01, 0x02, 0x03, 0x80, 0x81};
	struct nvme_passthru_cmd c;
	uint8_t *buf = NULL;
	int fd, nsid, ph, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0) {
		ret = nsid < 0 ? -errno : -ENODEV;
		goto out;
	}
	if (posix_memalign((void **)&buf, 4096, 4096)) {
		ret = -ENOMEM;
		goto out;
	}
	memset(buf, 0, 4096);
	memcpy(buf, types, sizeof(types));
	for (ph = 0; ph < nph && !ret; ph++) {
		bc_nvme_set_features(&c, BC_NVME_FID_FDP_EVENTS, (uint32_t)nsid,
				     (uint32_t)sizeof(types) << 16 | (uint32_t)ph, enable, buf,
				     (uint32_t)sizeof(types));
		ret = s_cmd(fd, NVME_IOCTL_ADMIN_CMD, &c);
	}
out:
	free(buf);
	close(fd);
	return ret;
}

int bc_nvme_fdp_events_read(const char *path, uint16_t endgid, bool host,
			    struct bc_nvme_fdp_events *out)
{
	const uint32_t len = (BC_NVME_FDP_EVENTS_MAX + 1) * BC_NVME_FDP_EVENT_BYTES;
	void *buf = NULL;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (posix_memalign(&buf, 4096, len)) {
		ret = -ENOMEM;
		goto out;
	}
	/* LSP bit 0: host events (1) or controller events (0) */
	ret = s_log(fd, BC_NVME_LID_FDP_EVENTS, host ? 1 : 0, endgid, buf, len);
	if (!ret)
		ret = bc_nvme_parse_fdp_events(buf, len, out);
out:
	free(buf);
	close(fd);
	return ret;
}
