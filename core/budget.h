/* budget.h - the limits of a run (trace count, time, memory, a cancel flag),
 * polled by every explorer and checker between steps.  Below the explorers:
 * it knows the options and the result, nothing above them. */
#ifndef WMX_BUDGET_H
#define WMX_BUDGET_H

#include "result.h"

/* Limit bookkeeping: returns true (and sets res->complete/stop_reason)
 * when the run must stop.  Cheap enough to call after every event. */
typedef struct explore_clock {
    double start;
    double next_progress;
    long polls;
} explore_clock;

double explore_now(void);
void explore_clock_start(explore_clock *c);
bool explore_should_stop(explore_clock *c, const explore_opts *o, explore_result *res,
                         int depth);

#endif
