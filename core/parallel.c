/* parallel.c - workers' options, results and their sum. */
#include "parallel.h"
#include "budget.h"
#include "team_net.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

bool explore_split(const explore_opts *opts)
{
    return explore_jobs(opts) > 1 || explore_net_on(opts);
}

int explore_jobs(const explore_opts *opts)
{
    if (opts->jobs == 0 || opts->jobs == 1)
        return 1;
    return team_size(opts->jobs < 0 ? 0 : opts->jobs);
}

typedef struct par_run {
    const explore_opts *user;    /* the caller's options */
    pthread_mutex_t trace_mu;    /* on_trace is called by one worker at a time */
    explore_shared shared;
    void (*work)(explore_worker *w);
} par_run;

typedef struct par_arg {
    par_run *run;
    explore_worker *w;
} par_arg;

static void serial_on_trace(const explore_trace *tr, void *ud)
{
    par_run *run = ud;
    pthread_mutex_lock(&run->trace_mu);
    run->user->on_trace(tr, run->user->ud);
    pthread_mutex_unlock(&run->trace_mu);
}

static void serial_progress(const explore_progress *pr, void *ud)
{
    par_run *run = ud;
    /* one worker speaks for the run, with the traces of all */
    explore_progress p = *pr;
    p.traces = atomic_load(&run->shared.traces);
    p.blocked = 0;
    pthread_mutex_lock(&run->trace_mu);
    run->user->progress(&p, run->user->ud);
    pthread_mutex_unlock(&run->trace_mu);
}

static void *par_main(void *arg)
{
    par_arg *a = arg;
    explore_worker *w = a->w;
    a->run->work(w);
    explore_finish(&w->res);     /* each worker sorts its own states */
    if (w->rc != 0 || !w->res.complete) {
        /* a limit (or a failure) stops the whole run */
        atomic_store(&a->run->shared.stop, 1);
        team_abort(w->team);
    }
    return NULL;
}

int explore_parallel(const wmx_program *prog, const explore_opts *opts, explore_algo algo,
                     void (*work)(explore_worker *w), void (*drop)(void *unit, void *ctx),
                     void *ctx, explore_result *res, wmx_error *err)
{
    return explore_parallel_net(prog, opts, algo, work, drop, NULL, ctx, res, err);
}

int explore_parallel_net(const wmx_program *prog, const explore_opts *opts, explore_algo algo,
                         void (*work)(explore_worker *w), void (*drop)(void *unit, void *ctx),
                         const explore_codec *codec, void *ctx, explore_result *res, wmx_error *err)
{
    team_net *net = codec && explore_net_on(opts) ? opts->net : NULL;
    double t0 = explore_now();
    int n = explore_jobs(opts);
    par_run run = { .user = opts, .work = work };
    pthread_mutex_init(&run.trace_mu, NULL);
    atomic_init(&run.shared.traces, 0);
    atomic_init(&run.shared.stop, 0);
    team *t = team_new(n);
    /* the differential tests split work at every step, so that even tiny
     * programs are explored by several workers */
    const char *eager = getenv("WMX_TEST_SPLIT");
    if (eager && *eager == '1')
        team_set_eager(t);
    explore_worker *ws = wmx_calloc((size_t)n, sizeof *ws);
    par_arg *args = wmx_calloc((size_t)n, sizeof *args);
    void **argv = wmx_calloc((size_t)n, sizeof *argv);
    for (int i = 0; i < n; i++) {
        explore_worker *w = &ws[i];
        w->id = i;
        w->starts = i == 0 && (!net || net->rank == 0);
        w->net = net;
        w->prog = prog;
        w->opts = *opts;
        w->opts.jobs = 1;
        w->opts.shared = &run.shared;
        w->opts.ud = &run;
        w->opts.on_trace = opts->on_trace ? serial_on_trace : NULL;
        /* progress from the first worker only, so it ticks as often as before */
        w->opts.progress = i == 0 && opts->progress ? serial_progress : NULL;
        w->team = t;
        w->ctx = ctx;
        explore_result_init(&w->res, prog, opts->model, algo);
        args[i] = (par_arg){ &run, w };
        argv[i] = &args[i];
    }
    if (net) {
        team_set_distributed(t);
        net->begin(net, t, codec, ctx, &run.shared, opts);
    }
    team_run(t, par_main, argv);
    if (net)
        net->end(net);
    for (void *u; (u = team_drain(t)) != NULL;)
        drop(u, ctx);
    explore_result_init(res, prog, opts->model, algo);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        explore_worker *w = &ws[i];
        if (w->rc != 0 && rc == 0) {
            rc = w->rc;
            if (err)
                *err = w->err;
        }
        explore_result_merge(res, &w->res);
        explore_result_free(&w->res);
    }
    explore_finish(res);
    if (net) {
        int grc = net->gather(net, res, rc, err);
        if (grc != 0 && rc == 0)
            rc = grc;
    }
    res->time_s = explore_now() - t0;
    res->workers = n;
    team_free(t);
    free(ws);
    free(args);
    free(argv);
    pthread_mutex_destroy(&run.trace_mu);
    return rc;
}
