/*
 * profile/workload/json.c - workload objects read and written through the key
 * table (profile/workload/json.h): one loop over bc_wl_keys for a profile's
 * "defaults" and steps, a volume's overrides and the strict wire form, and
 * the rules that hold between keys once a workload is complete.
 */
#include <errno.h>
#include <stdio.h>

#include "profile/workload/json.h"
#include "profile/workload/keys.h"
#include "profile/workload/kv.h"
#include "profile/workload/streams.h"

/* verify checks headers per 4 KiB block, so I/Os must cover whole blocks (engine/verify.h) */
#define S_VERIFY_BLOCK 4096u

static bool s_is_key(const char *name)
{
	return bc_wl_key_find(name) != NULL;
}

int bc_check_workload_keys(struct bc_check *c, const cJSON *obj, const char *base,
			   const char *const *extra)
{
	return bc_check_keys_with(c, obj, base, extra, s_is_key);
}

int bc_check_workload_given(struct bc_check *c, const cJSON *obj, const char *base,
			    struct bc_workload *wl, bc_wl_keyset *given,
			    uint8_t own[BC_STREAMS_MAX])
{
	char path[BC_CHECK_PATH_LEN];
	const struct bc_wl_key *k;
	const cJSON *v;
	int i, ret;

	if (given)
		*given = 0;
	for (i = 0; i < bc_wl_nkeys; i++) {
		k = &bc_wl_keys[i];
		/*
		 * The wire form must carry the first keys; the later ones default
		 * when absent, so a PREPARE from an older coordinator still means
		 * what it meant.
		 */
		ret = bc_check_item(c, obj, base, k->name, c->strict && (k->where & BC_WK_WIRE),
				    path, &v);
		if (!ret && v)
			ret = k->type == BC_WT_STREAMS ? bc_check_streams(c, path, v, wl, own)
			      : k->type == BC_WT_KV    ? bc_kv_check(c, path, v, wl)
						       : bc_wl_key_parse(c, k, v, path, wl);
		if (ret)
			return ret;
		if (v && given)
			*given |= (bc_wl_keyset)1 << i;
	}
	return bc_check_workload_rules(c, base, wl);
}

int bc_check_workload(struct bc_check *c, const cJSON *obj, const char *base,
		      struct bc_workload *wl)
{
	return bc_check_workload_given(c, obj, base, wl, NULL, NULL);
}

/* every block size of the workload (the split, or bs) is a multiple of unit */
static bool s_sizes_multiple(const struct bc_workload *wl, uint32_t unit)
{
	uint32_t i;

	if (!wl->nbssplit)
		return wl->bs % unit == 0;
	for (i = 0; i < wl->nbssplit; i++)
		if (wl->bssplit[i].bs % unit)
			return false;
	return true;
}

/* the arrival, run-shape and content keys against the rest of the workload */
static int s_check_shape(struct bc_check *c, const char *base, const struct bc_workload *wl)
{
	bool rated = wl->rate_iops || wl->rate_bw || wl->rate_iops_dir[0] || wl->rate_iops_dir[1] ||
		     wl->rate_bw_dir[0] || wl->rate_bw_dir[1];
	char path[BC_CHECK_PATH_LEN];

	if (wl->jobs > wl->numjobs) {
		bc_check_path(path, base, "jobs");
		return bc_check_fail(c, path, "%u threads of the step's numjobs %u", wl->jobs,
				     wl->numjobs);
	}
	if (wl->seq_pct && !bc_workload_random(wl)) {
		bc_check_path(path, base, "seq_pct");
		return bc_check_fail(c, path,
				     "applies to random kinds (randread, randwrite, "
				     "randrw, randtrim); a sequential one is all sequential");
	}
	if ((wl->rate_poisson || wl->lat_intended) && !rated) {
		bc_check_path(path, base, wl->rate_poisson ? "rate_process" : "latency_from");
		return bc_check_fail(c, path,
				     "needs a rate (rate_iops, rate_bw or a "
				     "per-direction one): arrivals follow the rate");
	}
	if (wl->fileselect_midpoint && wl->fileselect != BC_FILESEL_POISSON) {
		bc_check_path(path, base, "fileselect_midpoint");
		return bc_check_fail(c, path, "the skew of \"fileselect\": \"poisson\"; needs it");
	}
	if ((wl->compress_pct || wl->dedupe_pct) && wl->verify) {
		bc_check_path(path, base, wl->compress_pct ? "compress_pct" : "dedupe_pct");
		return bc_check_fail(c, path, "not with \"verify\" (its headers are the content)");
	}
	if (wl->compress_pct >= 100 && wl->dedupe_pct) {
		bc_check_path(path, base, "dedupe_pct");
		return bc_check_fail(
		    c, path, "not with compress_pct 100 (every write is the pattern alone)");
	}
	if (wl->pattern_len && !wl->compress_pct) {
		bc_check_path(path, base, "buffer_pattern");
		return bc_check_fail(c, path,
				     "fills the compressible part of the data: needs compress_pct "
				     "(100: all of it)");
	}
	if (wl->scramble && wl->compress_pct < 100) {
		bc_check_path(path, base, "scramble");
		return bc_check_fail(
		    c, path, "scrambles a write that is all pattern: needs compress_pct 100");
	}
	if (wl->pattern_len && wl->verify) {
		bc_check_path(path, base, "buffer_pattern");
		return bc_check_fail(c, path, "not with \"verify\" (its headers are the content)");
	}
	if (wl->verify_backlog && !wl->verify) {
		bc_check_path(path, base, "verify_backlog");
		return bc_check_fail(c, path, "reads back what \"verify\" writes: needs verify");
	}
	if (wl->seq_gap && bc_workload_random(wl)) {
		bc_check_path(path, base, "seq_gap");
		return bc_check_fail(
		    c, path, "applies to sequential kinds (a random one has no next offset)");
	}
	if (wl->seq_run && (!bc_workload_random(wl) || wl->seq_pct)) {
		bc_check_path(path, base, "seq_run");
		return bc_check_fail(c, path,
				     wl->seq_pct
					 ? "one of seq_run and seq_pct"
					 : "applies to random kinds (a sequential one is one run)");
	}
	if ((wl->seq_run || wl->seq_gap || wl->zone_size) && (wl->nstreams || wl->kv.given)) {
		bc_check_path(path, base,
			      wl->seq_run   ? "seq_run"
			      : wl->seq_gap ? "seq_gap"
					    : "zone_size");
		return bc_check_fail(c, path, "not supported with \"streams\"");
	}
	if (!wl->zone_size && (wl->zone_range || wl->zone_skip)) {
		bc_check_path(path, base, wl->zone_range ? "zone_range" : "zone_skip");
		return bc_check_fail(c, path, "needs zone_size (the bytes done in each zone)");
	}
	if (wl->zone_size && (wl->zone_size % BC_SECTOR || wl->zone_range % BC_SECTOR ||
			      wl->zone_skip % BC_SECTOR || wl->dist.kind != BC_DIST_UNIFORM)) {
		bc_check_path(path, base, "zone_size");
		return bc_check_fail(
		    c, path,
		    wl->dist.kind != BC_DIST_UNIFORM
			? "zones take uniform random offsets only"
			: "zone_size, zone_range and zone_skip are multiples of 512");
	}
	if (wl->compress_chunk && wl->compress_chunk < 512) {
		bc_check_path(path, base, "compress_chunk");
		return bc_check_fail(c, path, "at least 512 bytes");
	}
	if (wl->dedupe_unit && wl->dedupe_unit < 512) {
		bc_check_path(path, base, "dedupe_unit");
		return bc_check_fail(c, path, "at least 512 bytes");
	}
	return 0;
}

int bc_check_workload_rules(struct bc_check *c, const char *base, const struct bc_workload *wl)
{
	char path[BC_CHECK_PATH_LEN];
	int ret;

	if (c->partial)
		return 0;
	if (wl->rwmixread_ppm + wl->rwmixtrim * BC_SPLIT_PCT1 > BC_SPLIT_ALL) {
		bc_check_path(path, base, "rwmixtrim");
		return bc_check_fail(c, path, "rwmixread %g + rwmixtrim %u exceed 100 percent",
				     wl->rwmixread_ppm / (double)BC_SPLIT_PCT1, wl->rwmixtrim);
	}
	if (wl->verify && (!s_sizes_multiple(wl, S_VERIFY_BLOCK) || wl->bs_min % S_VERIFY_BLOCK ||
			   wl->blockalign % S_VERIFY_BLOCK)) {
		bc_check_path(path, base, "verify");
		return bc_check_fail(c, path,
				     "verify checks 4 KiB blocks: bs, every bssplit size and "
				     "blockalign must be multiples of 4k");
	}
	if (wl->hipri && !wl->direct) {
		bc_check_path(path, base, "hipri");
		return bc_check_fail(c, path, "polled I/O needs \"direct\": true");
	}
	if (wl->hipri && wl->sqpoll) {
		/* legal for io_uring, but the SQ thread then also polls: not what hipri measures */
		bc_check_path(path, base, "hipri");
		return bc_check_fail(c, path, "hipri and sqpoll together are not supported");
	}
	if (wl->nstreams && wl->verify) {
		bc_check_path(path, base, "verify");
		return bc_check_fail(c, path, "not supported with \"streams\"");
	}
	ret = s_check_shape(c, base, wl);
	return ret ? ret : bc_kv_rules(c, base, wl);
}

bool bc_workload_add_json(cJSON *obj, const struct bc_workload *wl)
{
	const struct bc_wl_key *k;
	bool ok = true;
	int i;

	for (i = 0; ok && i < bc_wl_nkeys; i++) {
		k = &bc_wl_keys[i];
		ok = k->type == BC_WT_STREAMS ? bc_streams_to_json(obj, wl)
		     : k->type == BC_WT_KV    ? bc_kv_to_json(obj, wl)
					      : bc_wl_key_to_json(obj, k, wl);
	}
	return ok;
}

cJSON *bc_workload_to_json(const struct bc_workload *wl)
{
	cJSON *j;

	if ((unsigned)wl->rw > BC_RW_LAST)
		return NULL;
	j = cJSON_CreateObject();
	if (j && !bc_workload_add_json(j, wl)) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

int bc_workload_from_json(const cJSON *j, struct bc_workload *wl, char *err, size_t errlen)
{
	struct bc_check c = {.err = err, .errlen = errlen, .strict = true};
	struct bc_workload tmp = bc_workload_builtin;
	int ret;

	ret = bc_check_object(&c, "workload", j);
	if (!ret)
		ret = bc_check_workload_keys(&c, j, "workload", NULL);
	if (!ret)
		ret = bc_check_workload(&c, j, "workload", &tmp);
	if (!ret)
		*wl = tmp;
	return ret;
}
