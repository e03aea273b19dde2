/* test_explore.c - differential tests of the exhaustive explorers on
 * generated programs: stateful must report exactly naive's counts and final
 * states; rfstate must find naive's final states and exactly the number of
 * distinct reads-from classes among naive's traces (computed here from the
 * events of every trace, independently of rfstate's own bookkeeping). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "lang.h"

static const wmx_srcloc L = { 1, 1, 0 };

/* a small deterministic generator (no global state) */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
static int pick(uint64_t *s, int n) { return (int)(next(s) % (uint64_t)n); }

/* 2-3 threads, 2 variables, 2-3 instructions each: loads, stores, fences,
 * FAA, XCHG, CAS, and a conditional store depending on a load. */
static wmx_program *gen(uint64_t *rng)
{
    wmx_program *p = ir_program_new("gen", "gen", "wmx");
    int nv = 2;
    ir_add_var(p, "x", 1);
    ir_add_var(p, "y", 1);
    int nt = 2 + pick(rng, 2);
    for (int t = 0; t < nt; t++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", t);
        ir_add_thread(p, name);
        int n = 2 + pick(rng, 2);
        for (int i = 0; i < n; i++) {
            int k = pick(rng, 10);
            ir_instr in;
            char reg[16];
            snprintf(reg, sizeof reg, "r%d", i);
            switch (k) {
            case 0: case 1: case 2:
                in = ir_instr_init(I_STORE, L);
                in.addr.var = pick(rng, nv);
                in.e1 = ir_const(p, 1 + pick(rng, 2));
                break;
            case 3: case 4: case 5:
                in = ir_instr_init(I_LOAD, L);
                in.addr.var = pick(rng, nv);
                in.dst = ir_thread_reg(p, t, reg);
                break;
            case 6:
                in = ir_instr_init(I_FENCE, L);
                break;
            case 7:
                in = ir_instr_init(I_FAA, L);
                in.addr.var = pick(rng, nv);
                in.e1 = ir_const(p, 1);
                in.dst = ir_thread_reg(p, t, reg);
                break;
            case 8:
                in = ir_instr_init(I_XCHG, L);
                in.addr.var = pick(rng, nv);
                in.e1 = ir_const(p, 3);
                in.dst = ir_thread_reg(p, t, reg);
                break;
            default:
                in = ir_instr_init(I_CAS, L);
                in.addr.var = pick(rng, nv);
                in.e1 = ir_const(p, 0);
                in.e2 = ir_const(p, 2);
                in.dst = ir_thread_reg(p, t, reg);
                break;
            }
            ir_add_instr(p, t, &in);
        }
    }
    /* every other program names x and y (`locations [x, y]`): their final
     * writers are part of a class; the others name nothing, so every cell
     * is shown and none splits a class */
    if (pick(rng, 2)) {
        for (int v = 0; v < nv; v++) {
            p->observed = wmx_realloc(p->observed, (size_t)(p->nobserved + 1) * sizeof *p->observed);
            p->observed[p->nobserved++] = (cond_lhs){ -1, -1, p->vars[v].base };
        }
    }
    return p;
}

/* ---- reads-from classes of naive's traces, computed from the events ---- */

typedef struct rfset {
    int n, cap;
    char **keys;
    int nobs;
    const cond_lhs *obs;
    const wmx_machine *m;
} rfset;

static int cmp_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return *x < *y ? -1 : *x > *y;
}

static void on_trace(const explore_trace *tr, void *ud)
{
    rfset *s = ud;
    /* the class: sorted (reader, source) pairs, plus the final writer of each
     * observed cell, plus the blocked flag */
    int n = 0;
    int64_t *pairs = malloc((size_t)(tr->len + s->nobs + 2) * sizeof *pairs);
    for (int i = 0; i < tr->len; i++) {
        const wmx_event *e = &tr->events[i];
        if (e->kind == EV_READ || e->kind == EV_AWAIT || e->kind == EV_RMW)
            pairs[n++] = ((int64_t)e->id << 32) | (uint32_t)e->rf;
    }
    qsort(pairs, (size_t)n, sizeof *pairs, cmp_pair);
    const wmx_eid *w = machine_memory_writer(s->m, tr->final_state);
    for (int i = 0; i < s->nobs; i++)
        if (s->obs[i].thread < 0)
            pairs[n++] = (int64_t)w[s->obs[i].cell];
    pairs[n++] = tr->blocked;
    size_t len = (size_t)n * sizeof *pairs;
    for (int i = 0; i < s->n; i++)
        if (memcmp(s->keys[i], pairs, len) == 0 && s->keys[i][len] == 'E') {
            free(pairs);
            return;
        }
    char *key = malloc(len + 1);
    memcpy(key, pairs, len);
    key[len] = 'E';
    free(pairs);
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->keys = realloc(s->keys, (size_t)s->cap * sizeof *s->keys);
    }
    s->keys[s->n++] = key;
}

static void same_states(const explore_result *a, const explore_result *b)
{
    ck_assert_int_eq(a->nstates, b->nstates);
    ck_assert_int_eq(a->nobserved, b->nobserved);
    for (int i = 0; i < a->nstates; i++)
        ck_assert(memcmp(a->states[i].vals, b->states[i].vals,
                         (size_t)a->nobserved * sizeof(wmx_val)) == 0);
}

START_TEST(differential)
{
    uint64_t rng = 0x1234567ULL + (uint64_t)_i * 7919;
    int programs = 0;
    for (int k = 0; k < 25; k++) {
        wmx_program *p = gen(&rng);
        for (int model = MODEL_SC; model <= MODEL_PSO; model++) {
            explore_opts o;
            explore_opts_init(&o);
            o.model = (wmx_model)model;
            o.algo = ALGO_NAIVE;
            wmx_machine *m = machine_new(p, o.model, NULL);
            explore_result naive, stateful, rfs;
            /* naive, collecting reads-from classes as it goes */
            rfset classes = { 0 };
            explore_result observed;      /* only for its observed locations */
            explore_result_init(&observed, p, o.model, ALGO_NAIVE);
            /* locations only shown are not part of a class */
            classes.nobs = explore_observed_shown_only(p) ? 0 : observed.nobserved;
            classes.obs = observed.observed;
            classes.m = m;
            o.on_trace = on_trace;
            o.ud = &classes;
            ck_assert_int_eq(explore_run(p, &o, &naive, NULL), 0);
            o.on_trace = NULL;
            o.algo = ALGO_STATEFUL;
            ck_assert_int_eq(explore_run(p, &o, &stateful, NULL), 0);
            o.algo = ALGO_RFSTATE;
            ck_assert_int_eq(explore_run(p, &o, &rfs, NULL), 0);
            ck_assert(naive.complete && stateful.complete && rfs.complete);
            ck_assert_int_eq(naive.traces, stateful.traces);
            ck_assert_int_eq(naive.blocked, stateful.blocked);
            ck_assert_int_eq(naive.positive, stateful.positive);
            ck_assert_int_eq(naive.negative, stateful.negative);
            same_states(&naive, &stateful);
            same_states(&naive, &rfs);
            ck_assert_int_eq(rfs.traces + rfs.blocked, classes.n);
            for (int i = 0; i < classes.n; i++)
                free(classes.keys[i]);
            free(classes.keys);
            explore_result_free(&naive);
            explore_result_free(&stateful);
            explore_result_free(&rfs);
            explore_result_free(&observed);
            machine_free(m);
            programs++;
        }
        ir_program_free(p);
    }
    ck_assert_int_eq(programs, 75);
}
END_TEST


/* The listed states are in strictly increasing order of their values, read
 * as signed numbers, whichever way they were sorted: with few states
 * (rows compared), many states in keys of one word (readers of x) or of
 * several (two threads reading x 17 times each: 68 bits of ranks), and
 * merged from two workers. */
static void check_order(const explore_result *r, bool strict)
{
    for (int i = 1; i < r->nstates; i++) {
        const wmx_val *a = r->states[i - 1].vals, *b = r->states[i].vals;
        int k = 0;
        while (k < r->nobserved && a[k] == b[k])
            k++;
        if (k == r->nobserved) {
            ck_assert(!strict);
            continue;
        }
        ck_assert(a[k] < b[k]);
    }
}

static wmx_program *order_program(int readers, int reads)
{
    char text[4096];
    int n = snprintf(text, sizeof text,
                     "var x;\nthread W { x = -7; x = 5000000000; x = -9000000000000; }\n");
    for (int t = 0; t < readers; t++) {
        n += snprintf(text + n, sizeof text - (size_t)n, "thread R%d {", t);
        for (int k = 0; k < reads; k++)
            n += snprintf(text + n, sizeof text - (size_t)n, " r%d = x;", k);
        n += snprintf(text + n, sizeof text - (size_t)n, " }\n");
    }
    wmx_error err;
    wmx_program *p = lang_parse(text, (size_t)n, "order.wmx", &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

START_TEST(state_order)
{
    static const struct { int readers, reads; long states; } cases[] = {
        { 1, 2, 10 },        /* non-decreasing pairs of 4 values: rows compared */
        { 5, 1, 1024 },      /* 4^5: keys of one word */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        wmx_program *p = order_program(cases[c].readers, cases[c].reads);
        explore_result one, two;
        explore_opts o;
        explore_opts_init(&o);
        o.model = MODEL_SC;
        o.algo = ALGO_RFSMC;
        ck_assert_int_eq(explore_run(p, &o, &one, NULL), 0);
        o.jobs = 2;
        ck_assert_int_eq(explore_run(p, &o, &two, NULL), 0);
        ck_assert_int_eq(one.nstates, cases[c].states);
        check_order(&one, true);
        same_states(&one, &two);
        explore_result_free(&one);
        explore_result_free(&two);
        ir_program_free(p);
    }
}
END_TEST

/* A program of `cols` variables v00, v01, ... and nothing else: the
 * observed columns of hand-made rows. */
static wmx_program *columns_program(const char *name, int cols)
{
    wmx_program *p = ir_program_new(name, name, "wmx");
    for (int v = 0; v < cols; v++) {
        char var[16];
        snprintf(var, sizeof var, "v%02d", v);
        ir_add_var(p, var, 1);
    }
    return p;
}

/* explore_finish on hand-made rows: 70 columns of 1, 3 or a few hundred
 * distinct values (extremes and negatives included), so that the keys take
 * several words, or too many (the rows are compared), and each row keeps
 * its count. */
START_TEST(state_order_wide)
{
    enum { COLS = 70, ROWS = 20000 };
    wmx_program *p = columns_program("wide", COLS);
    uint64_t rng = 99 + (uint64_t)_i;
    explore_result r;
    explore_result_init(&r, p, MODEL_SC, ALGO_NAIVE);
    ck_assert_int_eq(r.nobserved, COLS);
    wmx_val *vals = malloc((size_t)ROWS * COLS * sizeof *vals);
    final_state *rows = malloc((size_t)ROWS * sizeof *rows);
    long sum = 0;
    /* rows are a few base rows with one column changed, so that they
     * share long prefixes and are told apart anywhere in the key */
    for (int i = 0; i < ROWS; i++) {
        if (i >= 20)
            memcpy(&vals[(size_t)i * COLS], &vals[(size_t)pick(&rng, 20) * COLS], COLS * sizeof *vals);
        int first = i < 20 ? 0 : pick(&rng, COLS), last = i < 20 ? COLS : first + 1;
        for (int c = first; c < last; c++) {
            wmx_val *v = &vals[(size_t)i * COLS + (size_t)c];
            int kind = _i == 0 ? c % 3 : 2;     /* the second run: wide columns only */
            if (kind == 0)
                *v = 42;
            else if (kind == 1)
                *v = (wmx_val[]){ INT64_MIN, -1, INT64_MAX }[pick(&rng, 3)];
            else
                *v = (wmx_val)pick(&rng, 5000) - 2500;
        }
        rows[i] = (final_state){ &vals[(size_t)i * COLS], i + 1, i % 2 == 0 };
        sum += i + 1;
    }
    r.states = rows;
    r.nstates = r.cap_states = ROWS;
    explore_finish(&r);
    check_order(&r, false);
    long got = 0;
    for (int i = 0; i < ROWS; i++) {
        const final_state *f = &r.states[i];
        size_t row = (size_t)(f->vals - vals) / COLS;
        ck_assert_int_eq(f->count, (long)row + 1);
        ck_assert(f->satisfies == (row % 2 == 0));
        got += f->count;
    }
    ck_assert_int_eq(got, sum);
    free(vals);
    free(rows);
    r.states = NULL;
    r.nstates = 0;
    explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

/* explore_finish on distinct rows laid out in runs: all ascending, all
 * descending (rfsmc's order on readers-N), 2 to 6 runs each ascending or
 * descending (a --jobs worker's), and 200 runs (the general sort).  Each
 * row must end where its rank says, with its count. */
START_TEST(state_order_runs)
{
    enum { COLS = 3, ROWS = 5000 };
    wmx_program *p = columns_program("runs", COLS);
    static const int nruns[] = { 1, 1, 2, 3, 6, 200 };
    uint64_t rng = 7 + (uint64_t)_i;
    wmx_val *vals = malloc((size_t)ROWS * COLS * sizeof *vals);
    /* row i has rank i: (i / 700 - 3, (i % 700) / 10, (i % 10) * 1000000007) */
    for (int i = 0; i < ROWS; i++) {
        vals[(size_t)i * COLS] = i / 700 - 3;
        vals[(size_t)i * COLS + 1] = (i % 700) / 10;
        vals[(size_t)i * COLS + 2] = (wmx_val)(i % 10) * 1000000007LL;
    }
    /* deal the ranks into runs at random, then lay each run out up or down */
    int k = nruns[_i];
    int *owner = malloc(ROWS * sizeof *owner), *order = malloc(ROWS * sizeof *order);
    for (int i = 0; i < ROWS; i++)
        owner[i] = k == 1 ? 0 : pick(&rng, k);
    int n = 0;
    for (int r = 0; r < k; r++) {
        bool down = _i == 1 || (_i > 1 && pick(&rng, 2));
        for (int i = 0; i < ROWS; i++) {
            int rank = down ? ROWS - 1 - i : i;
            if (owner[rank] == r)
                order[n++] = rank;
        }
    }
    ck_assert_int_eq(n, ROWS);
    final_state *rows = malloc((size_t)ROWS * sizeof *rows);
    for (int i = 0; i < ROWS; i++)
        rows[i] = (final_state){ &vals[(size_t)order[i] * COLS], order[i] + 1, false };
    explore_result r;
    explore_result_init(&r, p, MODEL_SC, ALGO_NAIVE);
    r.states = rows;
    r.nstates = r.cap_states = ROWS;
    explore_finish(&r);
    check_order(&r, true);
    for (int i = 0; i < ROWS; i++) {
        ck_assert(r.states[i].vals == &vals[(size_t)i * COLS]);
        ck_assert_int_eq(r.states[i].count, i + 1);
    }
    free(vals);
    free(rows);
    free(owner);
    free(order);
    r.states = NULL;
    r.nstates = 0;
    explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("explore");
    TCase *tc = tcase_create("differential");
    tcase_set_timeout(tc, 600);
    /* 4 seeds x 25 programs x 3 models */
    tcase_add_loop_test(tc, differential, 0, 4);
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("order");
    tcase_set_timeout(to, 120);
    tcase_add_test(to, state_order);
    tcase_add_loop_test(to, state_order_wide, 0, 2);
    tcase_add_loop_test(to, state_order_runs, 0, 6);
    suite_add_tcase(s, to);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
