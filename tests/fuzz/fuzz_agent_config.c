/*
 * fuzz_agent_config: what the agent reads from files: its JSON config (the
 * allowlist), a known-hosts file, and the first and last bytes of a device
 * for on-disk signatures -- the same input seen as each of the three.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "safety/allowlist.h"
#include "safety/signature.h"
#include "session/config.h"
#include "util/curve.h"

static int s_fd = -1;
static char s_path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_safety s = {.scratch_dir = "/var/tmp/fuzz"};
	struct bc_agent_config cfg = {0};
	char err[1024], key[BC_KEY_Z85_LEN + 1], what[256];
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (!bc_agent_config_parse(text, "fuzz.json", &s, &cfg, err, sizeof(err)))
		bc_safety_allowed(&s, "/var/tmp/fuzz/x", err, sizeof(err));
	bc_agent_config_free(&cfg);
	bc_safety_free(&s);
	free(text);

	if (s_fd < 0) {
		s_fd = memfd_create("fuzz", 0);
		snprintf(s_path, sizeof(s_path), "/proc/self/fd/%d", s_fd);
	}
	if (ftruncate(s_fd, 0) || pwrite(s_fd, data, size, 0) != (ssize_t)size)
		return 0;
	bc_known_hosts_lookup(s_path, "h1", "tcp://h1:7470", key, err, sizeof(err));
	bc_safety_signature(s_fd, size, what, sizeof(what));
	return 0;
}
