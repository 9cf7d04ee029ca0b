/*
 * results/checks.h - cross-checks of a finished step (checks.c): the figures
 * recomputed from independent sources, and the warnings they give
 */
#ifndef BC_RESULTS_CHECKS_H
#define BC_RESULTS_CHECKS_H

#include <cjson/cJSON.h>

struct bc_step_result;

/*
 * An agent whose clock drifted against the coordinator's by more than this
 * (parts per million, beyond its uncertainty) over a step is flagged: 100
 * ppm moves its seconds 6 ms a minute off the common timeline, and NTP keeps
 * a synchronised clock within tens of ppm
 */
#define BC_CHECK_DRIFT_PPM 100

/* the cross-checks of a finished step, as a run.json array */
cJSON *bc_checks_json(const struct bc_step_result *r);
/*
 * After a step (sj: its run.json object): warnings for failed checks, a
 * suspect step, a contended host, the named warnings and an unsteady window
 */
void bc_result_warn_checks(const struct bc_step_result *res, const cJSON *sj);

#endif
