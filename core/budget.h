/* budget.h - the limits of a run (trace count, time, memory, a cancel flag),
 * polled by every explorer and checker between steps.  Below the explorers:
 * it knows the options and the result, nothing above them. */
#ifndef WMX_BUDGET_H
#define WMX_BUDGET_H

#include "result.h"

#include <stddef.h>

/* Limit bookkeeping for one run.  explore_should_stop() returns true (and
 * marks the result partial with a stop reason) when the run must stop.  It
 * is cheap enough to call in every inner loop: the cancel flag and the
 * trace count are plain reads, then the kernel's coarse clock (a few ns);
 * only when a millisecond has passed does it read the precise clock for the
 * timeout (and the resident set size, about every 10 ms).  So the time
 * between two checks never depends on how long a poll takes. */
typedef struct explore_clock {
    double start;                /* the command's start (opts->started) or the run's */
    double next_check;           /* coarse time of the next real check */
    double next_progress;
    double next_mem;             /* next RSS read */
    long polls;
    long reported;               /* traces added to opts->shared->traces */
    size_t charged;              /* bytes noted by explore_charge since the last RSS read */
} explore_clock;

double explore_now(void);
void explore_clock_start(explore_clock *c, const explore_opts *o);
bool explore_should_stop(explore_clock *c, const explore_opts *o, explore_result *res,
                         int depth);
/* The slow part of explore_should_stop (clock, memory, progress); also for
 * callers that want an immediate check. */
bool explore_check_limits(explore_clock *c, const explore_opts *o, explore_result *res,
                          int depth);
/* Before an allocation of `bytes` that grows with the program: true (and
 * res is stopped with "memory limit") when it would take the process past
 * the budget.  Lets explorers refuse one huge block instead of touching it. */
bool explore_reserve(explore_clock *c, const explore_opts *o, explore_result *res, size_t bytes);
/* After a step that touched `bytes` of new memory (a state copied onto a
 * stack): when the bytes noted since the last RSS read pass a 32nd of the
 * budget, reads it now; true (res stopped) past the budget.  The polls are
 * timed, so without it a step of megabytes (a state of 64 threads of 2000
 * instructions: 4 MiB) ran 8 steps between two reads. */
bool explore_charge(explore_clock *c, const explore_opts *o, explore_result *res, size_t bytes);

/* Resident set size of this process in bytes (0 when unknown). */
size_t explore_rss(void);
/* Parses "512M", "2G", "1.5g", "4096" (bytes), "64k"; -1 when malformed. */
int explore_parse_size(const char *s, size_t *out);
/* Formats a byte count as "512 MiB" etc. */
const char *explore_format_size(size_t n, char *buf, size_t len);

#endif
