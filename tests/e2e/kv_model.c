/*
 * kv_model - the independent Monte-Carlo model of tests/unit/mc_flash.h
 * for the e2e tests: the write amplification of FIFO object classes on a
 * log-structured device, from the command line.
 *
 *   kv_model RUS OBJECTS_PER_RU GC_START GC_STOP WARM MEASURE SHARE:CAP:RUH...
 *
 * RUS physical reclaim units, GC_START/GC_STOP free units (the simulator's
 * gc_start_free_rus / gc_stop_free_rus), WARM and MEASURE stores, a class
 * per SHARE:CAP:RUH (share of the stores, objects live at once, handle).
 * Prints the WAF over the MEASURE stores.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mc_flash.h"

int main(int argc, char **argv)
{
	struct mc_class cl[MC_CLASSES_MAX];
	double waf;
	int i, n = 0;

	if (argc < 8 || argc - 7 > MC_CLASSES_MAX) {
		fprintf(stderr, "usage: kv_model RUS OBJECTS_PER_RU GC_START GC_STOP WARM MEASURE "
				"SHARE:CAP:RUH...\n");
		return 2;
	}
	for (i = 7; i < argc; i++, n++) {
		unsigned long long cap;

		if (sscanf(argv[i], "%lf:%llu:%d", &cl[n].share, &cap, &cl[n].ruh) != 3 ||
		    cl[n].ruh < 0 || cl[n].ruh >= MC_RUHS_MAX) {
			fprintf(stderr, "kv_model: bad class '%s' (SHARE:CAP:RUH)\n", argv[i]);
			return 2;
		}
		cl[n].cap = cap;
	}
	waf = mc_waf(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), cl, n,
		     strtoull(argv[5], NULL, 10), strtoull(argv[6], NULL, 10));
	if (waf < 0) {
		fprintf(stderr, "kv_model: %s\n",
			waf < -1.5 ? "more live objects than the device holds" : "out of memory");
		return 1;
	}
	printf("%.4f\n", waf);
	return 0;
}
