/* stateful.c - exhaustive exploration of the state graph with memoisation.
 *
 * The naive explorer walks every interleaving, which is hopeless beyond a
 * few threads under TSO (6.SB has ~10^12 of them) although the program has
 * only thousands of distinct states.  This explorer visits each distinct
 * machine state once (keyed by machine_key) and counts the maximal traces
 * below it by dynamic programming: traces(s) = sum of traces(s') over the
 * successors.  So it reports exactly the naive explorer's numbers (traces,
 * blocked, positive, negative) and the same final states, in time linear in
 * the number of states.  Per-state trace counts are not tracked: each final
 * state's `count` is 0 ("unknown").
 */
#include "stateful.h"
#include "budget.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct counts {
    uint64_t traces, blocked, positive, negative;
} counts;

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static void counts_add(counts *a, const counts *b)
{
    a->traces = sat_add(a->traces, b->traces);
    a->blocked = sat_add(a->blocked, b->blocked);
    a->positive = sat_add(a->positive, b->positive);
    a->negative = sat_add(a->negative, b->negative);
}

/* memo: open addressing, keys stored in one arena */
typedef struct memo_slot {
    uint64_t hash;
    size_t key_at;         /* offset in arena + 1; 0 = empty */
    counts c;
} memo_slot;

typedef struct memo {
    size_t ksize;
    memo_slot *slots;
    size_t cap, n;
    char *arena;
    size_t arena_len, arena_cap;
} memo;

static uint64_t key_hash(const void *key, size_t n)
{
    const unsigned char *k = key;
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= k[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 31);
}

static memo_slot *memo_find(memo *mm, const void *key, uint64_t h)
{
    size_t i = (size_t)h & (mm->cap - 1);
    for (;;) {
        memo_slot *s = &mm->slots[i];
        if (!s->key_at)
            return s;
        if (s->hash == h && memcmp(mm->arena + s->key_at - 1, key, mm->ksize) == 0)
            return s;
        i = (i + 1) & (mm->cap - 1);
    }
}

static void memo_grow(memo *mm)
{
    size_t ncap = mm->cap ? mm->cap * 2 : 1024;
    memo_slot *old = mm->slots;
    size_t ocap = mm->cap;
    mm->slots = wmx_calloc(ncap, sizeof *mm->slots);
    mm->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].key_at)
            continue;
        size_t j = (size_t)old[i].hash & (ncap - 1);
        while (mm->slots[j].key_at)
            j = (j + 1) & (ncap - 1);
        mm->slots[j] = old[i];
    }
    free(old);
}

static void memo_put(memo *mm, const void *key, uint64_t h, const counts *c)
{
    if (2 * (mm->n + 1) > mm->cap)
        memo_grow(mm);
    memo_slot *s = memo_find(mm, key, h);
    if (s->key_at) {
        s->c = *c;
        return;
    }
    if (mm->arena_len + mm->ksize > mm->arena_cap) {
        mm->arena_cap = (mm->arena_cap ? mm->arena_cap * 2 : 65536) + mm->ksize;
        mm->arena = wmx_realloc(mm->arena, mm->arena_cap);
    }
    memcpy(mm->arena + mm->arena_len, key, mm->ksize);
    s->hash = h;
    s->key_at = mm->arena_len + 1;
    s->c = *c;
    mm->arena_len += mm->ksize;
    mm->n++;
}

typedef struct frame {
    int nenabled, next;
    uint64_t hash;
    counts acc;
} frame;

static long to_long(uint64_t v)
{
    return v > (uint64_t)LONG_MAX ? LONG_MAX : (long)v;
}

int explore_stateful(const wmx_program *prog, const explore_opts *opts,
                     explore_result *res, wmx_error *err)
{
    explore_result_init(res, prog, opts->model, ALGO_STATEFUL);
    double t0 = explore_now();
    wmx_machine *m = machine_new(prog, opts->model, err);
    if (!m)
        return -1;
    size_t ss = machine_state_size(m), ks = machine_key_size(m);
    int maxen = machine_max_enabled(m);
    memo mm = { .ksize = ks };
    memo_grow(&mm);
    int cap = 64;
    char *states = wmx_malloc((size_t)(cap + 1) * ss);
    char *keys = wmx_malloc((size_t)(cap + 1) * ks);
    wmx_transition *enabled = wmx_malloc((size_t)(cap + 1) * (size_t)maxen * sizeof *enabled);
    frame *frames = wmx_malloc((size_t)(cap + 1) * sizeof *frames);
    wmx_transition *steps = wmx_malloc((size_t)(cap + 1) * sizeof *steps);
    wmx_event *events = wmx_malloc((size_t)(cap + 1) * sizeof *events);
    explore_clock clk;
    explore_clock_start(&clk, opts);

#define ST(i) ((void *)(states + (size_t)(i) * ss))
#define KEY(i) ((void *)(keys + (size_t)(i) * ks))
    machine_init(m, ST(0));
    machine_key(m, ST(0), KEY(0));
    frames[0] = (frame){ machine_enabled(m, ST(0), enabled), 0, key_hash(KEY(0), ks), { 0, 0, 0, 0 } };
    int depth = 0;
    bool stopped = false;
    for (;;) {
        frame *f = &frames[depth];
        if (f->nenabled == 0 && f->next == 0) {
            /* a leaf seen for the first time: it carries one trace */
            long pos = res->positive;
            explore_trace tr = { depth, steps, events, ST(depth),
                                 machine_is_blocked(m, ST(depth)), machine_has_error(m, ST(depth)), false };
            explore_result_add_trace(res, m, &tr);
            if (opts->on_trace)
                opts->on_trace(&tr, opts->ud);
            f->acc = (counts){ !tr.blocked, tr.blocked, res->positive > pos, !tr.blocked && res->positive == pos };
            f->next = 1;
        }
        if (f->next >= f->nenabled) {
            memo_put(&mm, KEY(depth), f->hash, &f->acc);
            if (depth == 0)
                break;
            counts c = f->acc;
            depth--;
            counts_add(&frames[depth].acc, &c);
            continue;
        }
        if (explore_should_stop(&clk, opts, res, depth)) {
            stopped = true;
            break;
        }
        if (depth + 1 >= cap) {
            /* the stacks double: refuse it past the memory budget */
            if (explore_reserve(&clk, opts, res, (size_t)cap * (ss + ks))) {
                stopped = true;
                break;
            }
            cap *= 2;
            states = wmx_realloc(states, (size_t)(cap + 1) * ss);
            keys = wmx_realloc(keys, (size_t)(cap + 1) * ks);
            enabled = wmx_realloc(enabled, (size_t)(cap + 1) * (size_t)maxen * sizeof *enabled);
            frames = wmx_realloc(frames, (size_t)(cap + 1) * sizeof *frames);
            steps = wmx_realloc(steps, (size_t)(cap + 1) * sizeof *steps);
            events = wmx_realloc(events, (size_t)(cap + 1) * sizeof *events);
            f = &frames[depth];
        }
        /* a step copies a state and a key: megabytes on a big program */
        if (explore_charge(&clk, opts, res, ss + ks)) {
            stopped = true;
            break;
        }
        wmx_transition tr = enabled[(size_t)depth * (size_t)maxen + (size_t)f->next++];
        memcpy(ST(depth + 1), ST(depth), ss);
        machine_apply(m, ST(depth + 1), &tr, &events[depth]);
        steps[depth] = tr;
        res->events++;
        machine_key(m, ST(depth + 1), KEY(depth + 1));
        uint64_t h = key_hash(KEY(depth + 1), ks);
        memo_slot *hit = memo_find(&mm, KEY(depth + 1), h);
        if (hit->key_at) {
            counts_add(&f->acc, &hit->c);
            continue;
        }
        depth++;
        frames[depth] = (frame){ machine_enabled(m, ST(depth), &enabled[(size_t)depth * (size_t)maxen]),
                                 0, h, { 0, 0, 0, 0 } };
    }
    if (!stopped) {
        /* the root's totals count every maximal path, as naive would */
        res->traces = to_long(frames[0].acc.traces);
        res->blocked = to_long(frames[0].acc.blocked);
        res->positive = to_long(frames[0].acc.positive);
        res->negative = to_long(frames[0].acc.negative);
    }
    /* per-state trace counts are not known here (see the top comment) */
    for (int i = 0; i < res->nstates; i++)
        res->states[i].count = 0;
    for (int i = 0; i < res->nblocked_at; i++)
        res->blocked_at[i].count = 0;
#undef ST
#undef KEY
    res->time_s = explore_now() - t0;
    explore_finish(res);
    free(states);
    free(keys);
    free(enabled);
    free(frames);
    free(steps);
    free(events);
    free(mm.slots);
    free(mm.arena);
    machine_free(m);
    return 0;
}
