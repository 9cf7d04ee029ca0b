/*
 * fuzz_msg: the message decoder an agent runs on whatever a peer sends.
 * Input: byte 0 selects ROUTER framing (bit 0); the rest is frames, each a
 * 2-byte little-endian length and that many bytes. The frames go through
 * bc_msg_parse, then through what the agent does with the body: the
 * PREPARE workload and volumes, the STATS decoder the coordinator runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "wire/proto.h"
#include "wire/stats.h"

static struct bc_volstat s_vols[4];

static void s_prepare(const cJSON *body)
{
	const cJSON *vols = cJSON_GetObjectItemCaseSensitive(body, "volumes"), *v;
	struct bc_workload wl;
	char err[512];

	bc_workload_from_json(cJSON_GetObjectItemCaseSensitive(body, "workload"), &wl, err,
			      sizeof(err));
	cJSON_ArrayForEach(v, vols)
	{
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(v, "path");

		(void)cJSON_GetStringValue(p);
		(void)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, "size"));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	zmsg_t *raw = zmsg_new();
	struct bc_stats_hdr h;
	struct bc_msg m;
	char err[256];
	size_t off = 1;
	bool router;
	int rc;

	if (!size || !raw) {
		zmsg_destroy(&raw);
		return 0;
	}
	router = data[0] & 1;
	while (off + 2 <= size) {
		size_t len = (size_t)data[off] | (size_t)data[off + 1] << 8;

		off += 2;
		if (len > size - off)
			len = size - off;
		zmsg_addmem(raw, data + off, len);
		off += len;
	}
	rc = bc_msg_parse(&raw, router, &m, err, sizeof(err));
	if (!rc && m.type == BC_MSG_PREPARE)
		s_prepare(m.json);
	if (!rc && m.type == BC_MSG_STATS) {
		memset(s_vols, 0, sizeof(s_vols));
		bc_stats_decode(m.bin, m.bin_len, &h, s_vols, 4);
	}
	(void)bc_msg_name(m.type);
	bc_msg_clear(&m);
	return 0;
}
