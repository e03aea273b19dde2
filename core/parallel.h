/* parallel.h - one exploration on several workers (--jobs N), for the
 * explorers that can split their search (naive, rfsmc).
 *
 * explore_parallel() gives every worker its own result and a copy of the
 * options that shares the trace count and the stop flag (explore_shared)
 * and serialises on_trace; it runs the explorer's `work` on each, then adds
 * the workers' results into one and sorts its states, so the listing does
 * not depend on which worker found what.  Between the explorers and the
 * team (team.h), result and budget below them. */
#ifndef WMX_PARALLEL_H
#define WMX_PARALLEL_H

#include "result.h"
#include "team.h"
#include "team_net.h"

typedef struct explore_worker {
    int id;                      /* 0.. in this process */
    bool starts;                 /* starts the search (worker 0 of rank 0); the others wait for work */
    team_net *net;               /* a distributed run's processes, or NULL */
    const wmx_program *prog;
    explore_opts opts;
    explore_result res;          /* initialised before work() runs */
    team *team;
    void *ctx;                   /* the explorer's, shared by all workers */
    int rc;                      /* work()'s: 0, or -1 with err set */
    wmx_error err;
} explore_worker;

/* work(w) explores until team_take() returns NULL; drop() frees a unit left
 * queued when a limit ended the run. */

/* Whether the run is split: over workers (--jobs) or processes (opts->net). */
bool explore_split(const explore_opts *opts);
/* The number of workers opts->jobs asks for (1 when it is 0 or 1). */
int explore_jobs(const explore_opts *opts);

int explore_parallel(const wmx_program *prog, const explore_opts *opts, explore_algo algo,
                     void (*work)(explore_worker *w), void (*drop)(void *unit, void *ctx),
                     void *ctx, explore_result *res, wmx_error *err);

/* The same over the processes of opts->net too, when codec moves units
 * (a run without a net, or without a codec, stays in this process). */
int explore_parallel_net(const wmx_program *prog, const explore_opts *opts, explore_algo algo,
                         void (*work)(explore_worker *w), void (*drop)(void *unit, void *ctx),
                         const explore_codec *codec, void *ctx, explore_result *res, wmx_error *err);

#endif
