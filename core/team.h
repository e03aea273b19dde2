/* team.h - the workers of a parallel exploration (--jobs N) and the units of
 * work they hand each other.
 *
 * Every worker explores on its own (its own machine, result and clock).  A
 * worker that runs out of work waits in team_take(); busy workers poll
 * team_hungry() between two traces and, when someone waits and nothing is
 * queued, split off part of their search with team_give().  The run is over
 * when every worker waits and the queue is empty.  What a unit is belongs
 * to the explorer (a schedule prefix for naive, a path of shared decisions
 * for rfsmc); the team only moves pointers.  Below the explorers: it knows
 * nothing of programs or results. */
#ifndef WMX_TEAM_H
#define WMX_TEAM_H

#include <stdbool.h>

typedef struct team team;

/* The number of workers --jobs N asks for: N, or the online cores for 0. */
int team_size(int jobs);

team *team_new(int workers);
void team_free(team *t);
int team_workers(const team *t);

/* Tests: busy workers split whenever nothing is queued, waiting or not,
 * so that short runs share work too (WMX_TEST_SPLIT=1, see parallel.c). */
void team_set_eager(team *t);
bool team_eager(team *t);

/* Someone waits for work and none is queued: a cheap read. */
bool team_hungry(team *t);
/* Queues a unit; a waiting worker takes it. */
void team_give(team *t, void *unit);
/* The next unit, waiting while other workers may still give one; NULL when
 * every worker waits and nothing is queued, or after team_abort(). */
void *team_take(team *t);
/* Ends the run: every waiting worker returns NULL from team_take().  The
 * units still queued are returned by team_drain(). */
void team_abort(team *t);
void *team_drain(team *t);

/* A distributed run (team_net.h): the team is one process's share.  When
 * all its workers wait and nothing is queued the run is not over (another
 * process may still send a unit); it ends with team_finish() or
 * team_abort().  The process's messenger thread uses the rest. */
void team_set_distributed(team *t);
/* Every worker waits and nothing is queued (or the run was aborted or
 * finished): this process has no work. */
bool team_passive(team *t);
bool team_aborted(team *t);
/* Another process asks for work: busy workers split as for a waiting one. */
void team_want(team *t, bool want);
/* The oldest queued unit (the biggest piece), for another process; NULL
 * when none. */
void *team_steal(team *t);
/* The run is over everywhere: every waiting worker returns NULL. */
void team_finish(team *t);

/* Runs fn(arg[i]) on team_workers(t) threads (worker 0 on the caller's) and
 * waits for them all; false when a thread could not be started (the
 * callers then run the missing workers' share themselves, see team.c). */
bool team_run(team *t, void *(*fn)(void *), void **args);

#endif
