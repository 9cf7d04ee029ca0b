/*
 * agent_overcount: bench-agent that reports 10% more bytes than it moved,
 * through the session's fault seam (struct bc_agent_faults), so that
 * test_diskstats_check can prove the kernel cross-check catches an agent
 * whose byte counts are wrong. The agent itself is compiled in unchanged.
 */
#include "session/step.h"

int bc_agent_main(int argc, char **argv);
#define main bc_agent_main
#include "../../agent/main.c"
#undef main

static void s_overcount(struct bc_volstat *acc, int nvol)
{
	int i, o;

	for (i = 0; i < nvol; i++)
		for (o = 0; o < BC_OP_NR; o++)
			acc[i].op[o].bytes = acc[i].op[o].bytes + acc[i].op[o].bytes / 10;
}

int main(int argc, char **argv)
{
	bc_agent_faults.stats_out = s_overcount;
	bc_warn("agent_overcount: reported byte counts are deliberately 10%% high");
	return bc_agent_main(argc, argv);
}
