/* rfsmc_warm.c - steady-state rate of the default explorer (RF-SMC): runs
 * explore_run on one program again and again for at least MIN seconds and
 * prints classes/s and events/s over all runs, and the peak memory.  A
 * single run of a small family (lastwrite(8): 8 classes) takes tens of
 * microseconds and its rate is mostly process start; this is the rate a
 * long run sustains.  Usage: rfsmc_warm FILE.wmx sc|tso|pso [MIN] */
#include "explore.h"
#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rfsmc_warm FILE sc|tso|pso [MIN-SECONDS]\n");
        return 2;
    }
    wmx_error err = { 0 };
    wmx_program *p = wmx_load_program(argv[1], &err);
    wmx_model model;
    if (!p || model_parse(argv[2], &model) < 0) {
        fprintf(stderr, "rfsmc_warm: cannot load %s (%s)\n", argv[1], err.msg);
        return 2;
    }
    double min = argc > 3 ? atof(argv[3]) : 0.5;
    long classes = 0, events = 0, runs = 0;
    double busy = 0;
    while (busy < min) {
        explore_opts o;
        explore_opts_init(&o);
        o.model = model;
        explore_result res;
        if (explore_run(p, &o, &res, &err) < 0 || !res.complete) {
            fprintf(stderr, "rfsmc_warm: run failed\n");
            return 2;
        }
        classes += res.traces + res.blocked;
        events += res.events;
        busy += res.time_s;
        runs++;
        explore_result_free(&res);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%8ld %6ld %10.0f %11.0f %6.1f\n", classes / runs, runs, classes / busy, events / busy,
           ru.ru_maxrss / 1024.0);
    ir_program_free(p);
    return 0;
}
