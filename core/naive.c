/* naive.c - the exhaustive explorer: depth-first over every interleaving of
 * thread steps and buffer flushes.  It is the reference the optimal
 * explorers are tested against, so it stays simple. */
#include "naive.h"
#include "budget.h"

#include <stdlib.h>
#include <string.h>

typedef struct frame {
    int nenabled;
    int next;                 /* next enabled transition to try */
} frame;

typedef struct dfs {
    const wmx_machine *m;
    size_t ssize;
    int cap;                  /* frames allocated */
    int maxen;
    char *states;             /* cap + 1 states */
    wmx_transition *enabled;  /* cap * maxen */
    frame *frames;
    wmx_transition *steps;    /* the current trace */
    wmx_event *events;
} dfs;

static void dfs_grow(dfs *d)
{
    int cap = d->cap ? 2 * d->cap : 64;
    d->states = wmx_realloc(d->states, (size_t)(cap + 1) * d->ssize);
    d->enabled = wmx_realloc(d->enabled, (size_t)cap * (size_t)d->maxen * sizeof *d->enabled);
    d->frames = wmx_realloc(d->frames, (size_t)cap * sizeof *d->frames);
    d->steps = wmx_realloc(d->steps, (size_t)cap * sizeof *d->steps);
    d->events = wmx_realloc(d->events, (size_t)cap * sizeof *d->events);
    d->cap = cap;
}

#define STATE(d, i) ((void *)((d)->states + (size_t)(i) * (d)->ssize))

int explore_naive(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err)
{
    explore_result_init(res, prog, opts->model, ALGO_NAIVE);
    double t0 = explore_now();
    wmx_machine *m = machine_new(prog, opts->model, err);
    if (!m)
        return -1;
    dfs d = { .m = m, .ssize = machine_state_size(m), .maxen = machine_max_enabled(m) };
    dfs_grow(&d);
    explore_clock clk;
    explore_clock_start(&clk, opts);

    machine_init(m, STATE(&d, 0));
    int depth = 0;
    d.frames[0].nenabled = machine_enabled(m, STATE(&d, 0), &d.enabled[0]);
    d.frames[0].next = 0;
    for (;;) {
        frame *f = &d.frames[depth];
        if (f->nenabled == 0) {
            /* maximal trace */
            explore_trace tr = { depth, d.steps, d.events, STATE(&d, depth),
                                 machine_is_blocked(m, STATE(&d, depth)),
                                 machine_has_error(m, STATE(&d, depth)) };
            explore_result_add_trace(res, m, &tr);
            if (opts->on_trace)
                opts->on_trace(&tr, opts->ud);
        }
        if (f->next >= f->nenabled) {
            if (depth == 0)
                break;
            depth--;
            continue;
        }
        if (explore_should_stop(&clk, opts, res, depth))
            break;
        if (depth + 1 >= d.cap) {
            /* the stack of states doubles: refuse it past the memory budget */
            if (explore_reserve(&clk, opts, res, (size_t)d.cap * d.ssize))
                break;
            dfs_grow(&d);
        }
        f = &d.frames[depth];
        wmx_transition tr = d.enabled[(size_t)depth * (size_t)d.maxen + (size_t)f->next++];
        memcpy(STATE(&d, depth + 1), STATE(&d, depth), d.ssize);
        machine_apply(m, STATE(&d, depth + 1), &tr, &d.events[depth]);
        d.steps[depth] = tr;
        res->events++;
        depth++;
        d.frames[depth].nenabled = machine_enabled(m, STATE(&d, depth),
                                                   &d.enabled[(size_t)depth * (size_t)d.maxen]);
        d.frames[depth].next = 0;
    }
    res->time_s = explore_now() - t0;
    explore_finish(res);
    free(d.states);
    free(d.enabled);
    free(d.frames);
    free(d.steps);
    free(d.events);
    machine_free(m);
    return 0;
}
