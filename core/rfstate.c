/* rfstate.c - one trace per reads-from class, by a search over machine
 * states annotated with their reads-from history.
 *
 * Two traces are reads-from equivalent when they have the same events and
 * every read (including an observer read of each observed memory location
 * after the end, so that final values are part of the class) reads from the
 * same write.  This explorer walks the machine's transition graph depth
 * first; a node is (machine state, reads-from so far).  Interleavings that
 * reach the same node are merged, which collapses the factorial number of
 * interleavings to the number of (state, history) pairs, and each maximal
 * node yields its class once.  It is exact, and it is the oracle the RF-SMC
 * explorer is tested against, but unlike RF-SMC its memory grows with the
 * number of nodes visited: it keeps a 128-bit fingerprint of each.
 */
#include "rfstate.h"
#include "budget.h"

#include <stdlib.h>
#include <string.h>

typedef struct fp {
    uint64_t a, b;
} fp;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static fp fp_bytes(const void *data, size_t n, fp seed)
{
    const unsigned char *d = data;
    uint64_t a = seed.a ^ 0x9E3779B97F4A7C15ULL, b = seed.b ^ 0xC2B2AE3D27D4EB4FULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, d + i, 8);
        a = mix64(a ^ w);
        b = mix64(b + w * 0x9E3779B97F4A7C15ULL);
    }
    uint64_t w = 0;
    memcpy(&w, d + i, n - i);
    a = mix64(a ^ w ^ n);
    b = mix64(b + w + n);
    return (fp){ a, b };
}

/* The history after one more read: (reader, source) folded in.  A class is
 * a set of such pairs, so the fold is a sum: independent of the order in
 * which the reads happened. */
static fp fp_read(fp h, wmx_eid reader, wmx_eid source)
{
    uint64_t w = ((uint64_t)(uint32_t)reader << 32) | (uint32_t)source;
    return (fp){ h.a + mix64(w ^ 0x5851F42D4C957F2DULL), h.b + mix64(w * 0xD6E8FEB86659FD93ULL + 1) };
}

/* an open-addressing set of fingerprints */
typedef struct fpset {
    fp *slots;
    size_t cap, n;
} fpset;

static bool fp_zero(fp x) { return x.a == 0 && x.b == 0; }

/* Inserts x; returns false when it was already there. */
static bool fpset_add(fpset *s, fp x)
{
    if (fp_zero(x))
        x.a = 1;            /* zero marks an empty slot */
    if (2 * (s->n + 1) > s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 1024;
        fp *old = s->slots;
        s->slots = wmx_calloc(ncap, sizeof *s->slots);
        for (size_t i = 0; i < s->cap; i++)
            if (!fp_zero(old[i])) {
                size_t j = (size_t)old[i].a & (ncap - 1);
                while (!fp_zero(s->slots[j]))
                    j = (j + 1) & (ncap - 1);
                s->slots[j] = old[i];
            }
        free(old);
        s->cap = ncap;
    }
    size_t j = (size_t)x.a & (s->cap - 1);
    while (!fp_zero(s->slots[j])) {
        if (s->slots[j].a == x.a && s->slots[j].b == x.b)
            return false;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = x;
    s->n++;
    return true;
}

static bool reads(const wmx_event *ev)
{
    return ev->kind == EV_READ || ev->kind == EV_AWAIT || ev->kind == EV_RMW;
}

typedef struct frame {
    int nenabled, next;
    fp hist;
} frame;

int explore_rfstate(const wmx_program *prog, const explore_opts *opts,
                    explore_result *res, wmx_error *err)
{
    explore_result_init(res, prog, opts->model, ALGO_RFSTATE);
    double t0 = explore_now();
    wmx_machine *m = machine_new(prog, opts->model, err);
    if (!m)
        return -1;
    size_t ss = machine_state_size(m);
    int maxen = machine_max_enabled(m);
    int cap = 64;
    char *states = wmx_malloc((size_t)(cap + 1) * ss);
    wmx_transition *enabled = wmx_malloc((size_t)(cap + 1) * (size_t)maxen * sizeof *enabled);
    frame *frames = wmx_malloc((size_t)(cap + 1) * sizeof *frames);
    wmx_transition *steps = wmx_malloc((size_t)(cap + 1) * sizeof *steps);
    wmx_event *events = wmx_malloc((size_t)(cap + 1) * sizeof *events);
    fpset visited = { 0 }, classes = { 0 }, counted_classes = { 0 };
    bool shown_only = explore_observed_shown_only(prog);
    explore_clock clk;
    explore_clock_start(&clk, opts);
    /* observer reads: the final writer of each observed memory cell */
    int nobs = 0;
    int *obs = wmx_malloc((size_t)(res->nobserved ? res->nobserved : 1) * sizeof *obs);
    for (int i = 0; i < res->nobserved; i++)
        if (res->observed[i].thread < 0)
            obs[nobs++] = res->observed[i].cell;

#define ST(i) ((void *)(states + (size_t)(i) * ss))
    machine_init(m, ST(0));
    frames[0] = (frame){ machine_enabled(m, ST(0), enabled), 0, { 0, 0 } };
    int depth = 0;
    for (;;) {
        frame *f = &frames[depth];
        if (f->nenabled == 0 && f->next == 0) {
            f->next = 1;
            bool blocked = machine_is_blocked(m, ST(depth));
            fp cls = fp_read(f->hist, blocked, 0);
            /* locations only shown: the class without them is counted,
             * each of its final writers of them is an ending */
            bool counted = !shown_only || fpset_add(&counted_classes, cls);
            const wmx_eid *writer = machine_memory_writer(m, ST(depth));
            for (int i = 0; i < nobs; i++)
                cls = fp_read(cls, EID_MAKE(WMX_MAX_THREADS, i), writer[obs[i]]);
            if (fpset_add(&classes, cls)) {
                explore_trace tr = { depth, steps, events, ST(depth), blocked,
                                     machine_has_error(m, ST(depth)), !counted };
                explore_result_add_trace(res, m, &tr);
                if (opts->on_trace)
                    opts->on_trace(&tr, opts->ud);
            }
        }
        if (f->next >= f->nenabled) {
            if (depth == 0)
                break;
            depth--;
            continue;
        }
        if (explore_should_stop(&clk, opts, res, depth))
            break;
        if (depth + 1 >= cap) {
            /* the stack of states doubles: refuse it past the memory budget */
            if (explore_reserve(&clk, opts, res, (size_t)cap * ss))
                break;
            cap *= 2;
            states = wmx_realloc(states, (size_t)(cap + 1) * ss);
            enabled = wmx_realloc(enabled, (size_t)(cap + 1) * (size_t)maxen * sizeof *enabled);
            frames = wmx_realloc(frames, (size_t)(cap + 1) * sizeof *frames);
            steps = wmx_realloc(steps, (size_t)(cap + 1) * sizeof *steps);
            events = wmx_realloc(events, (size_t)(cap + 1) * sizeof *events);
            f = &frames[depth];
        }
        /* a step copies a state: megabytes on a big program */
        if (explore_charge(&clk, opts, res, ss))
            break;
        wmx_transition tr = enabled[(size_t)depth * (size_t)maxen + (size_t)f->next++];
        memcpy(ST(depth + 1), ST(depth), ss);
        wmx_event *ev = &events[depth];
        machine_apply(m, ST(depth + 1), &tr, ev);
        steps[depth] = tr;
        res->events++;
        fp hist = reads(ev) ? fp_read(f->hist, ev->id, ev->rf) : f->hist;
        /* the state blob holds event ids (buffer entries, last writers,
         * event counts), so equal blobs have equal futures for reads-from */
        if (!fpset_add(&visited, fp_bytes(ST(depth + 1), ss, hist)))
            continue;
        depth++;
        frames[depth] = (frame){ machine_enabled(m, ST(depth), &enabled[(size_t)depth * (size_t)maxen]),
                                 0, hist };
    }
#undef ST
    res->time_s = explore_now() - t0;
    explore_finish(res);
    free(obs);
    free(visited.slots);
    free(classes.slots);
    free(counted_classes.slots);
    free(states);
    free(enabled);
    free(frames);
    free(steps);
    free(events);
    machine_free(m);
    return 0;
}
