/* naive.c - the exhaustive explorer: depth-first over every interleaving of
 * thread steps and buffer flushes.  It is the reference the optimal
 * explorers are tested against, so it stays simple. */
#include "naive.h"
#include "budget.h"
#include "parallel.h"

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

typedef struct naive_unit {
    int len;
    wmx_transition steps[];    /* a schedule from the initial state */
} naive_unit;

/* Someone waits: the untried transitions of the shallowest level with any
 * become units (each its prefix and one transition), and this worker keeps
 * only its current branch there. */
static void give_away(dfs *d, int base, int depth, team *t)
{
    for (int k = base; k < depth; k++) {
        frame *f = &d->frames[k];
        if (f->next >= f->nenabled)
            continue;
        /* a unit replays k steps to run traces of depth - k steps or more
         * below: worth it from depth - k >= 3 k (see odpor.c's give_away) */
        if (4 * k > depth && !team_eager(t))
            return;
        for (; f->next < f->nenabled; f->next++) {
            naive_unit *u = wmx_malloc(sizeof *u + (size_t)(k + 1) * sizeof *u->steps);
            u->len = k + 1;
            memcpy(u->steps, d->steps, (size_t)k * sizeof *u->steps);
            u->steps[k] = d->enabled[(size_t)k * (size_t)d->maxen + (size_t)f->next];
            team_give(t, u);
        }
        return;
    }
}

/* Depth-first over everything below the stack's level `base` (whose state
 * and enabled set are set up). */
static void dfs_run(dfs *d, int base, const explore_opts *opts, explore_result *res,
                    explore_clock *clk, team *t)
{
    const wmx_machine *m = d->m;
    int depth = base;
    for (;;) {
        frame *f = &d->frames[depth];
        if (f->nenabled == 0) {
            /* maximal trace */
            explore_trace tr = { depth, d->steps, d->events, STATE(d, depth),
                                 machine_is_blocked(m, STATE(d, depth)),
                                 machine_has_error(m, STATE(d, depth)), false };
            explore_result_add_trace(res, m, &tr);
            if (opts->on_trace)
                opts->on_trace(&tr, opts->ud);
            if (t && team_hungry(t))
                give_away(d, base, depth, t);
        }
        f = &d->frames[depth];
        if (f->next >= f->nenabled) {
            if (depth == base)
                break;
            depth--;
            continue;
        }
        if (explore_should_stop(clk, opts, res, depth))
            break;
        if (depth + 1 >= d->cap) {
            /* the stack of states doubles: refuse it past the memory budget */
            if (explore_reserve(clk, opts, res, (size_t)d->cap * d->ssize))
                break;
            dfs_grow(d);
        }
        /* a step copies a state: megabytes on a big program */
        if (explore_charge(clk, opts, res, d->ssize))
            break;
        f = &d->frames[depth];
        wmx_transition tr = d->enabled[(size_t)depth * (size_t)d->maxen + (size_t)f->next++];
        memcpy(STATE(d, depth + 1), STATE(d, depth), d->ssize);
        machine_apply(m, STATE(d, depth + 1), &tr, &d->events[depth]);
        d->steps[depth] = tr;
        res->events++;
        depth++;
        d->frames[depth].nenabled = machine_enabled(m, STATE(d, depth),
                                                    &d->enabled[(size_t)depth * (size_t)d->maxen]);
        d->frames[depth].next = 0;
    }
}

static void dfs_free(dfs *d)
{
    free(d->states);
    free(d->enabled);
    free(d->frames);
    free(d->steps);
    free(d->events);
}

int explore_naive(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err)
{
    if (explore_split(opts))
        return explore_naive_parallel(prog, opts, res, err);
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
    d.frames[0].nenabled = machine_enabled(m, STATE(&d, 0), &d.enabled[0]);
    d.frames[0].next = 0;
    dfs_run(&d, 0, opts, res, &clk, NULL);
    res->time_s = explore_now() - t0;
    explore_finish(res);
    dfs_free(&d);
    machine_free(m);
    return 0;
}

/* ---- --jobs N ---- */

static void naive_work(explore_worker *w)
{
    wmx_machine *m = machine_new(w->prog, w->opts.model, &w->err);
    if (!m) {
        w->rc = -1;
        return;
    }
    dfs d = { .m = m, .ssize = machine_state_size(m), .maxen = machine_max_enabled(m) };
    dfs_grow(&d);
    explore_clock clk;
    explore_clock_start(&clk, &w->opts);
    naive_unit *u = NULL;
    for (bool first = w->starts; first || (u = team_take(w->team)) != NULL; first = false) {
        /* the unit's prefix is replayed (its events were counted by the giver) */
        int len = u ? u->len : 0;
        while (len + 1 >= d.cap)
            dfs_grow(&d);
        machine_init(m, STATE(&d, 0));
        bool ok = true;
        for (int i = 0; i < len && ok; i++) {
            ok = machine_is_enabled(m, STATE(&d, i), &u->steps[i]);
            memcpy(STATE(&d, i + 1), STATE(&d, i), d.ssize);
            machine_apply(m, STATE(&d, i + 1), &u->steps[i], &d.events[i]);
            d.steps[i] = u->steps[i];
            d.frames[i].nenabled = d.frames[i].next = 0;
        }
        if (u)
            w->res.events++;       /* the unit's own transition was not run by its giver */
        free(u);
        u = NULL;
        if (!ok)
            continue;           /* cannot happen: the machine is deterministic */
        d.frames[len].nenabled = machine_enabled(m, STATE(&d, len),
                                                 &d.enabled[(size_t)len * (size_t)d.maxen]);
        d.frames[len].next = 0;
        dfs_run(&d, len, &w->opts, &w->res, &clk, w->team);
        if (!w->res.complete)
            break;
    }
    dfs_free(&d);
    machine_free(m);
}

static void naive_drop(void *unit, void *ctx)
{
    (void)ctx;
    free(unit);
}

/* Between processes a unit is its schedule: the count, then the transitions. */
static void naive_encode(const void *unit, void *ctx, wire *w)
{
    (void)ctx;
    const naive_unit *u = unit;
    wire_i32(w, u->len);
    wire_put(w, u->steps, (size_t)u->len * sizeof *u->steps);
}

static void *naive_decode(wire_reader *r, void *ctx)
{
    const wmx_program *p = ctx;
    int len = wire_get_count(r, 1 << 24);
    if (len < 0)
        return NULL;
    naive_unit *u = wmx_malloc(sizeof *u + (size_t)len * sizeof *u->steps);
    u->len = len;
    wire_get(r, u->steps, (size_t)len * sizeof *u->steps);
    bool ok = wire_done(r);
    for (int i = 0; i < len && ok; i++)
        ok = u->steps[i].thread >= 0 && u->steps[i].thread < p->nthreads;
    if (!ok) {
        free(u);
        return NULL;
    }
    return u;
}

static const explore_codec naive_codec = { naive_encode, naive_decode, naive_drop, NULL };

int explore_naive_parallel(const wmx_program *prog, const explore_opts *opts,
                           explore_result *res, wmx_error *err)
{
    return explore_parallel_net(prog, opts, ALGO_NAIVE, naive_work, naive_drop, &naive_codec,
                                (void *)prog, res, err);
}

const char *naive_wire_selftest(const wmx_program *p, unsigned seed)
{
    unsigned x = seed * 2654435761u + 1;
#define NEXT() wire_selftest_next(&x)
    int len = (int)(NEXT() % 40);
    naive_unit *u = wmx_malloc(sizeof *u + (size_t)(len + 1) * sizeof *u->steps);
    u->len = len;
    for (int i = 0; i < len; i++)
        u->steps[i] = (wmx_transition){ NEXT() % 2 ? TR_FLUSH : TR_STEP, (int)(NEXT() % (unsigned)p->nthreads),
                                        (int)(NEXT() % 5) - 1 };
#undef NEXT
    wire a, b;
    wire_init(&a);
    wire_init(&b);
    naive_encode(u, (void *)p, &a);
    wire_reader r;
    wire_reader_init(&r, a.buf, a.len);
    naive_unit *v = naive_decode(&r, (void *)p);
    const char *why = NULL;
    if (!v) {
        why = "naive: the unit did not read back";
    } else {
        naive_encode(v, (void *)p, &b);
        if (v->len != u->len || memcmp(v->steps, u->steps, (size_t)len * sizeof *u->steps) != 0)
            why = "naive: another unit read back";
        else if (a.len != b.len || memcmp(a.buf, b.buf, a.len) != 0)
            why = "naive: written again, other bytes";
    }
    free(u);
    free(v);
    wire_free(&a);
    wire_free(&b);
    return why;
}
