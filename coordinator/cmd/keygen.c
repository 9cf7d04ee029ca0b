/*
 * cmd/keygen.c - `bench-coord keygen [--force] [DIR]`: write the
 * coordinator's CURVE key pair, DIR/coord.cert (public: copy it into each
 * agent's authorized-keys directory) and DIR/coord.cert_secret (stays here).
 * DIR defaults to ~/.config/bench-coord, where `run` looks for it.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/curve.h"
#include "util/log.h"

int bc_cmd_keygen(int argc, char **argv)
{
	char dir[1024], pub[BC_KEY_Z85_LEN + 1], err[1024], path[1100], q[2300];
	bool force = false;
	int i;

	bc_curve_default_dir("bench-coord", dir, sizeof(dir));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--force")) {
			force = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: bench-coord keygen [--force] [DIR]\n"
			       "  writes DIR/coord.cert (public) and DIR/coord.cert_secret\n"
			       "  (default DIR: %s; an existing pair is kept unless --force)\n",
			       dir);
			return 0;
		} else if (argv[i][0] == '-') {
			bc_error("keygen: unknown option '%s'", argv[i]);
			return 2;
		} else {
			snprintf(dir, sizeof(dir), "%s", argv[i]);
		}
	}
	if (bc_curve_keygen(dir, "coord.cert", force, pub, err, sizeof(err))) {
		bc_error("keygen: %s", err);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/coord.cert", dir);
	/*
	 * shell-safe: the path may hold anything, the key holds $ ! * ] and the
	 * like and may begin with '-': always single-quoted (Z85 has no quote)
	 */
	printf(
	    "wrote %s/coord.cert (public) and %s/coord.cert_secret (keep it on this host)\n"
	    "coordinator key: '%s'\n"
	    "  authorize it on each agent host: copy the file into the agent's\n"
	    "  --authorized-keys directory (`bench-agent --help` there shows its default), e.g.\n"
	    "    scp %s HOST:.config/bench-agent/authorized_keys/\n",
	    dir, dir, pub, bc_shell_quote(path, q, sizeof(q)));
	return 0;
}
