/* budget.c - limits polled by explorers: cancel flag, trace count, time. */
#include "budget.h"

#include <time.h>

double explore_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void explore_clock_start(explore_clock *c)
{
    c->start = explore_now();
    c->next_progress = c->start + 0.1;
    c->polls = 0;
}

bool explore_should_stop(explore_clock *c, const explore_opts *o, explore_result *res, int depth)
{
    if (!res->complete)
        return true;
    if (o->cancel && *o->cancel) {
        res->complete = false;
        res->stop_reason = "interrupted";
        return true;
    }
    if (o->max_traces > 0 && res->traces + res->blocked >= o->max_traces) {
        res->complete = false;
        res->stop_reason = "max-traces";
        return true;
    }
    /* reading the clock is the expensive part: do it every 256 polls */
    if ((++c->polls & 255) != 0)
        return false;
    double now = explore_now();
    if (o->timeout_s > 0 && now - c->start >= o->timeout_s) {
        res->complete = false;
        res->stop_reason = "timeout";
        return true;
    }
    if (o->progress && now >= c->next_progress) {
        explore_progress pr = { res->traces, res->blocked, res->events, depth, now - c->start };
        o->progress(&pr, o->ud);
        c->next_progress = now + 0.1;
    }
    return false;
}
