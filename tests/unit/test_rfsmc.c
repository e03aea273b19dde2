/* test_rfsmc.c - the reads-from explorer (--algo rfsmc) against the
 * stateful reads-from oracle (rfstate): equal class counts, blocked counts,
 * final states and verdicts on hundreds of generated programs (loops,
 * fences, RMWs, awaits, 2-4 threads) under SC, TSO and PSO; no class
 * reported twice (a fingerprint set kept by the test only); the published
 * class counts of the classic litmus shapes; robustness of SB and MP. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "machine.h"
#include "robust.h"
#include "irbuild.h"
#include "randprog.h"
#include "blocked_cmp.h"
#include "plp.h"

/* ---- building programs ---- */

/* records a bounded loop (the TSO/PSO machines size store buffers by it) */
static void add_loop(wmx_program *p, int t, int head, int counter, int bound)
{
    ir_thread *th = &p->threads[t];
    th->loops = wmx_realloc(th->loops, (size_t)(th->nloops + 1) * sizeof *th->loops);
    th->loops[th->nloops++] = (ir_loop){ head, th->ninstrs, counter, bound };
}

/* do { r = x; n++; assume(n <= bound) } while (r == 0) */
static void spin(wmx_program *p, int t, const char *reg, int var, int bound)
{
    char cnt[32];
    snprintf(cnt, sizeof cnt, "$n%d", ninstr(p, t));
    int n = ir_thread_reg(p, t, cnt);
    int head = ninstr(p, t);
    int r = load(p, t, reg, var);
    let(p, t, n, ir_binop(p, OP_ADD, ir_reg(p, n), ir_const(p, 1)));
    assume(p, t, ir_binop(p, OP_LE, ir_reg(p, n), ir_const(p, bound)));
    jump(p, t, ir_binop(p, OP_EQ, ir_reg(p, r), ir_const(p, 0)), head);
    add_loop(p, t, head, n, bound);
}

/* for (n = 0; n < 2; n++) x = x + 1  (load, store) */
static void incr_loop(wmx_program *p, int t, const char *reg, int var)
{
    char cnt[32];
    snprintf(cnt, sizeof cnt, "$i%d", ninstr(p, t));
    int n = ir_thread_reg(p, t, cnt);
    int head = ninstr(p, t);
    int r = load(p, t, reg, var);
    ir_instr in = ir_instr_init(I_STORE, L);
    in.addr.var = var;
    in.e1 = ir_binop(p, OP_ADD, ir_reg(p, r), ir_const(p, 1));
    ir_add_instr(p, t, &in);
    let(p, t, n, ir_binop(p, OP_ADD, ir_reg(p, n), ir_const(p, 1)));
    jump(p, t, ir_binop(p, OP_LT, ir_reg(p, n), ir_const(p, 2)), head);
    add_loop(p, t, head, n, 2);
}

static void observe(wmx_program *p, int thread, int reg, int cell)
{
    p->observed = wmx_realloc(p->observed, (size_t)(p->nobserved + 1) * sizeof *p->observed);
    p->observed[p->nobserved++] = (cond_lhs){ thread, reg, cell };
}

/* ---- the class fingerprints of one run ---- */

typedef struct fpcheck {
    const wmx_machine *m;
    int nobs;
    int *obs;
    int n, cap;
    char **keys;
    int dups;
} fpcheck;

static int eid_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void on_trace(const explore_trace *tr, void *ud)
{
    fpcheck *f = ud;
    int64_t *pairs = malloc((size_t)(tr->len + f->nobs + 2) * sizeof *pairs);
    int n = 0;
    for (int i = 0; i < tr->len; i++) {
        const wmx_event *e = &tr->events[i];
        if (e->kind == EV_READ || e->kind == EV_AWAIT || e->kind == EV_RMW)
            pairs[n++] = ((int64_t)e->id << 32) | (uint32_t)e->rf;
        else if (e->kind != EV_WRITE_MEM)
            pairs[n++] = ((int64_t)e->id << 32) | 0x7fffffff;
    }
    qsort(pairs, (size_t)n, sizeof *pairs, eid_cmp);
    const wmx_eid *w = machine_memory_writer(f->m, tr->final_state);
    for (int i = 0; i < f->nobs; i++)
        pairs[n++] = w[f->obs[i]];
    pairs[n++] = tr->blocked;
    char *key = malloc((size_t)n * 24 + 1);
    int k = 0;
    for (int i = 0; i < n; i++)
        k += sprintf(key + k, "%llx,", (long long)pairs[i]);
    free(pairs);
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->keys = realloc(f->keys, (size_t)f->cap * sizeof *f->keys);
    }
    f->keys[f->n++] = key;
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Counts the classes reported more than once. */
static void count_dups(fpcheck *f)
{
    if (f->n < 2)
        return;                 /* nothing recorded (no on_trace): no keys */
    qsort(f->keys, (size_t)f->n, sizeof *f->keys, key_cmp);
    for (int i = 1; i < f->n; i++)
        if (strcmp(f->keys[i - 1], f->keys[i]) == 0)
            f->dups++;
}

/* Runs rfsmc and rfstate; NULL when they agree, else what differs. */
static const char *differential(const wmx_program *p, wmx_model model, char *msg, size_t n)
{
    explore_opts o;
    explore_opts_init(&o);
    o.model = model;
    explore_result a, b;
    wmx_error err = { 0 };
    o.algo = ALGO_RFSTATE;
    if (explore_run(p, &o, &a, &err) != 0) {
        snprintf(msg, n, "%s: rfstate failed", p->name);
        return msg;
    }
    fpcheck f = { 0 };
    f.m = machine_new(p, model, &err);
    f.obs = malloc((size_t)(a.nobserved + 1) * sizeof *f.obs);
    for (int i = 0; i < a.nobserved; i++)
        if (a.observed[i].thread < 0)
            f.obs[f.nobs++] = a.observed[i].cell;
    o.algo = ALGO_RFSMC;
    o.on_trace = on_trace;
    o.ud = &f;
    const char *bad = NULL;
    if (explore_run(p, &o, &b, &err) != 0) {
        snprintf(msg, n, "%s: rfsmc failed", p->name);
        explore_result_free(&a);
        bad = msg;
        goto out;
    }
    count_dups(&f);
    if (a.traces != b.traces || a.blocked != b.blocked || a.positive != b.positive
        || a.negative != b.negative || a.nstates != b.nstates || a.error_traces != b.error_traces
        || explore_cond_ok(&a) != explore_cond_ok(&b) || f.dups
        || !blocked_at_same(&a, &b, true, false))
        bad = msg;
    for (int i = 0; !bad && i < a.nstates; i++)
        if (a.states[i].count != b.states[i].count
            || memcmp(a.states[i].vals, b.states[i].vals, (size_t)a.nobserved * sizeof(wmx_val)))
            bad = msg;
    if (bad)
        snprintf(msg, n, "%s %s: rfstate %ld+%ld blocked %d states, rfsmc %ld+%ld blocked %d states, %d duplicates",
                 p->name, model_name(model), a.traces, a.blocked, a.nstates, b.traces, b.blocked,
                 b.nstates, f.dups);
    explore_result_free(&a);
    explore_result_free(&b);
out:
    for (int i = 0; i < f.n; i++)
        free(f.keys[i]);
    free(f.keys);
    free(f.obs);
    machine_free((wmx_machine *)f.m);
    return bad;
}

/* ---- random programs ---- */


static wmx_program *random_program(uint64_t seed)
{
    rng r = { seed * 2654435761ULL + 7 };
    char name[32];
    snprintf(name, sizeof name, "rand%llu", (unsigned long long)seed);
    wmx_program *p = ir_program_new(name, name, "wmx");
    int nvars = 1 + pick(&r, 3);
    int vars[3];
    for (int v = 0; v < nvars; v++)
        vars[v] = ir_add_var(p, v == 0 ? "x" : v == 1 ? "y" : "z", 1);
    int nth = 2 + pick(&r, 3);
    for (int t = 0; t < nth; t++) {
        char tn[16];
        snprintf(tn, sizeof tn, "T%d", t);
        ir_add_thread(p, tn);
        int nins = 1 + pick(&r, nth == 4 ? 2 : nth == 3 ? 3 : 4);
        for (int k = 0; k < nins; k++) {
            int v = vars[pick(&r, nvars)];
            char reg[16];
            snprintf(reg, sizeof reg, "r%d", k);
            switch (pick(&r, 16)) {
            case 0: case 1: case 2: store(p, t, v, 1 + pick(&r, 2)); break;
            case 3: case 4: case 5: load(p, t, reg, v); break;
            case 6: fence(p, t); break;
            case 7: rmw(p, t, I_FAA, pick(&r, 2) ? reg : NULL, v, 1, 0); break;
            case 8:
                if (pick(&r, 3) == 0) {
                    /* a lock, and (mostly) its unlock */
                    lock_cas(p, t, reg, v, 0, 1 + pick(&r, 2));
                    if (pick(&r, 3) != 0)
                        rmw(p, t, I_XCHG, NULL, v, 0, 0);
                } else {
                    rmw(p, t, I_CAS, reg, v, pick(&r, 2), 2);
                }
                break;
            case 9: rmw(p, t, I_XCHG, reg, v, 1 + pick(&r, 2), 0); break;
            case 10: await_(p, t, NULL, v, pick(&r, 2) ? OP_EQ : OP_GE, pick(&r, 3)); break;
            case 11: spin(p, t, reg, v, 2); break;
            case 12: {
                int rr = load(p, t, reg, v);
                int j = jump(p, t, ir_binop(p, OP_NE, ir_reg(p, rr), ir_const(p, 1)), -1);
                store(p, t, vars[pick(&r, nvars)], 2);
                p->threads[t].instrs[j].target = ninstr(p, t);
                break;
            }
            case 13: {
                int rr = load(p, t, reg, v);
                assume(p, t, ir_binop(p, OP_NE, ir_reg(p, rr), ir_const(p, 2)));
                break;
            }
            case 14: {
                int rr = load(p, t, reg, v);
                assert_(p, t, ir_binop(p, OP_NE, ir_reg(p, rr), ir_const(p, 2)));
                break;
            }
            default: incr_loop(p, t, reg, v); break;
            }
        }
    }
    /* a third of the programs observe only some locations */
    if (pick(&r, 3) == 0) {
        observe(p, -1, -1, p->vars[vars[pick(&r, nvars)]].base);
        if (p->threads[0].nregs > 0 && p->threads[0].reg_names[0][0] != '$')
            observe(p, 0, 0, -1);
    }
    return p;
}

/* rfsmc against rfstate (differential) under SC, TSO and PSO on the
 * programs gen makes for seeds 1.. (env names a knob for their number) */
static void differential_over(wmx_program *(*gen)(uint64_t), const char *env, uint64_t seeds)
{
    char msg[512], first[512] = "";
    int fails = 0;
    if (getenv(env))
        seeds = (uint64_t)atoi(getenv(env));
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        wmx_program *p = gen(seed);
        for (int m = 0; m < 3; m++) {
            const char *f = differential(p, (wmx_model)m, msg, sizeof msg);
            if (f && !first[0]) {
                snprintf(first, sizeof first, "%s", f);
                if (getenv("DBG_PRINT")) { char *t = plp_format(p, NULL); fprintf(stderr, "%s\n%s\n", f, t); free(t); }
            }
            fails += f != NULL;
        }
        ir_program_free(p);
    }
    ck_assert_msg(fails == 0, "%d runs differ, first: %s", fails, first);
}

START_TEST(random_differential)
{
    differential_over(random_program, "RFSMC_SEEDS", 300);
}
END_TEST

/* mutexes (randprog.h): locks wait.  A mutex that a plain CAS (a trylock
 * that does not write back) also takes is no chain: RF-SMC reaches its
 * classes through locks that fail (never counted) and through "absent";
 * the others are chains (a lock takes another's release) */
START_TEST(random_differential_locks)
{
    differential_over(random_lock_program, "RFSMC_LOCK_SEEDS", 200);
}
END_TEST

/* critical sections in rounds (randprog.h): a lock's alternatives are the
 * other locks that could take its release, threads waiting at a lock
 * included */
START_TEST(random_differential_mutex)
{
    differential_over(random_mutex_program, "RFSMC_LOCK_SEEDS", 150);
}
END_TEST

/* ---- the classic shapes ---- */

static wmx_program *shape(const char *name)
{
    wmx_program *p = ir_program_new(name, name, "wmx");
    int x = ir_add_var(p, "x", 1), y = ir_add_var(p, "y", 1);
    int cx = p->vars[x].base, cy = p->vars[y].base;
    for (int t = 0; t < 4; t++) {
        if ((strcmp(name, "IRIW") != 0 && t >= 3) || (t >= 2 && strcmp(name, "IRIW") && strcmp(name, "WRC")))
            break;
        char tn[16];
        snprintf(tn, sizeof tn, "P%d", t);
        ir_add_thread(p, tn);
    }
    if (!strcmp(name, "SB")) {
        store(p, 0, x, 1); load(p, 0, "r0", y);
        store(p, 1, y, 1); load(p, 1, "r0", x);
    } else if (!strcmp(name, "MP")) {
        store(p, 0, x, 1); store(p, 0, y, 1);
        load(p, 1, "r0", y); load(p, 1, "r1", x);
    } else if (!strcmp(name, "LB")) {
        load(p, 0, "r0", x); store(p, 0, y, 1);
        load(p, 1, "r0", y); store(p, 1, x, 1);
    } else if (!strcmp(name, "IRIW")) {
        store(p, 0, x, 1);
        store(p, 1, y, 1);
        load(p, 2, "r0", x); load(p, 2, "r1", y);
        load(p, 3, "r0", y); load(p, 3, "r1", x);
    } else if (!strcmp(name, "WRC")) {
        store(p, 0, x, 1);
        load(p, 1, "r0", x); store(p, 1, y, 1);
        load(p, 2, "r0", y); load(p, 2, "r1", x);
    } else if (!strcmp(name, "R")) {
        store(p, 0, x, 1); store(p, 0, y, 1);
        store(p, 1, y, 2); int r = load(p, 1, "r0", x);
        observe(p, -1, -1, cy);
        observe(p, 1, r, -1);
    } else if (!strcmp(name, "S")) {
        store(p, 0, x, 2); store(p, 0, y, 1);
        int r = load(p, 1, "r0", y); store(p, 1, x, 1);
        observe(p, -1, -1, cx);
        observe(p, 1, r, -1);
    } else if (!strcmp(name, "2+2W")) {
        store(p, 0, x, 1); store(p, 0, y, 2);
        store(p, 1, y, 1); store(p, 1, x, 2);
        observe(p, -1, -1, cx);
        observe(p, -1, -1, cy);
    }
    if (p->nobserved == 0)          /* the registers only */
        for (int t = 0; t < p->nthreads; t++)
            for (int r = 0; r < p->threads[t].nregs; r++)
                observe(p, t, r, -1);
    return p;
}

START_TEST(known_counts)
{
    static const struct { const char *name; long n[3]; } k[] = {
        { "SB", { 3, 4, 4 } }, { "MP", { 3, 3, 4 } }, { "LB", { 3, 3, 3 } },
        { "IRIW", { 15, 15, 15 } }, { "WRC", { 7, 7, 7 } }, { "R", { 3, 4, 4 } },
        { "S", { 3, 3, 4 } }, { "2+2W", { 3, 3, 4 } },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        wmx_program *p = shape(k[i].name);
        for (int m = 0; m < 3; m++) {
            explore_opts o;
            explore_opts_init(&o);
            o.model = (wmx_model)m;
            o.algo = ALGO_RFSMC;
            explore_result res;
            wmx_error err = { 0 };
            ck_assert_int_eq(explore_run(p, &o, &res, &err), 0);
            ck_assert_msg(res.traces == k[i].n[m] && res.complete, "%s under %s: %ld classes, expected %ld",
                          k[i].name, model_name((wmx_model)m), res.traces, k[i].n[m]);
            explore_result_free(&res);
            char msg[256];
            const char *f = differential(p, (wmx_model)m, msg, sizeof msg);
            ck_assert_msg(f == NULL, "%s", f ? f : "");
        }
        ir_program_free(p);
    }
}
END_TEST

START_TEST(limits)
{
    wmx_program *p = shape("IRIW");
    explore_opts o;
    explore_opts_init(&o);
    o.model = MODEL_PSO;
    o.algo = ALGO_RFSMC;
    o.max_traces = 5;
    explore_result res;
    wmx_error err = { 0 };
    ck_assert_int_eq(explore_run(p, &o, &res, &err), 0);
    ck_assert(!res.complete);
    ck_assert_int_eq(res.traces, 5);
    explore_result_free(&res);
    ir_program_free(p);
}
END_TEST

/* The class-at-a-time API: the same classes as the batch run, each trace
 * replays on a fresh machine to the state it reports; stopping early marks
 * the result partial. */
START_TEST(iterator)
{
    const char *names[] = { "SB", "IRIW", "2+2W" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        wmx_program *p = shape(names[i]);
        for (int m = 0; m < 3; m++) {
            explore_opts o;
            explore_opts_init(&o);
            o.model = (wmx_model)m;
            o.algo = ALGO_RFSMC;
            explore_result whole, res;
            wmx_error err = { 0 };
            ck_assert_int_eq(explore_run(p, &o, &whole, &err), 0);
            rfsmc_iter *it = rfsmc_iter_new(p, &o, &res, &err);
            ck_assert_ptr_nonnull(it);
            wmx_machine *m2 = machine_new(p, (wmx_model)m, &err);
            void *st = malloc(machine_state_size(m2));
            void *key1 = malloc(machine_key_size(m2)), *key2 = malloc(machine_key_size(m2));
            explore_trace tr;
            long n = 0;
            while (rfsmc_iter_next(it, &tr)) {
                n++;
                machine_init(m2, st);
                for (int k = 0; k < tr.len; k++) {
                    ck_assert(machine_is_enabled(m2, st, &tr.steps[k]));
                    machine_apply(m2, st, &tr.steps[k], NULL);
                }
                machine_key(m2, st, key1);
                machine_key(m2, tr.final_state, key2);
                ck_assert(memcmp(key1, key2, machine_key_size(m2)) == 0);
            }
            ck_assert_int_eq(n, whole.traces + whole.blocked);
            ck_assert_int_eq(res.traces, whole.traces);
            ck_assert(res.complete);
            rfsmc_iter_free(it);
            explore_result_free(&res);
            /* stop after the first class */
            it = rfsmc_iter_new(p, &o, &res, &err);
            ck_assert(rfsmc_iter_next(it, &tr));
            rfsmc_iter_free(it);
            ck_assert(!res.complete);
            ck_assert_int_ge(res.traces, 1);
            explore_result_free(&res);
            explore_result_free(&whole);
            free(st);
            free(key1);
            free(key2);
            machine_free(m2);
        }
        ir_program_free(p);
    }
}
END_TEST

START_TEST(robustness)
{
    explore_opts o;
    explore_opts_init(&o);
    static const struct { const char *name; bool fences; wmx_model model; long viol; } k[] = {
        { "SB", false, MODEL_TSO, 1 }, { "SB", true, MODEL_TSO, 0 },
        { "MP", false, MODEL_TSO, 0 }, { "MP", false, MODEL_PSO, 1 },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        wmx_program *p = shape(k[i].name);
        /* a line per statement, as a front end gives them: the fence
         * search's candidates are source positions */
        for (int t = 0; t < p->nthreads; t++)
            for (int j = 0; j < p->threads[t].ninstrs; j++)
                p->threads[t].instrs[j].loc = (wmx_srcloc){ 10 * t + j + 1, 1, 0 };
        if (k[i].fences) {
            fence_pos f[2] = { { 0, 0 }, { 1, 0 } };
            wmx_program *q = robust_insert_fences(p, f, 2);
            ir_program_free(p);
            p = q;
        }
        robust_result rr;
        wmx_error err = { 0 };
        ck_assert_int_eq(robust_check(p, k[i].model, &o, 5, true, &rr, &err), 0);
        ck_assert_msg(rr.nviol_total == k[i].viol, "%s%s under %s: %ld non-SC classes", k[i].name,
                      k[i].fences ? "+fences" : "", model_name(k[i].model), rr.nviol_total);
        if (k[i].viol) {
            ck_assert(rr.fences_found);
            ck_assert_int_eq(rr.nfences, k[i].model == MODEL_TSO ? 2 : 1);
            ck_assert(rr.viol[0].why != NULL);
        }
        robust_result_free(&rr);
        ir_program_free(p);
    }
}
END_TEST

/* A generated program whose threads each end by setting a done flag, and
 * one more thread that waits for every flag (a C main joining its
 * threads) and then reads x: the joins are awaits that every write
 * satisfies, which the explorer explores without an "absent" branch when
 * the writer cannot stop before its flag (no assert, assume or await). */
static wmx_program *random_join_program(uint64_t seed)
{
    wmx_program *p = random_program(seed + 1000);
    int nth = p->nthreads;
    int x = 0;                        /* the generator's first variable */
    int main_t = ir_add_thread(p, "M");
    for (int t = 0; t < nth; t++) {
        char dn[16];
        snprintf(dn, sizeof dn, "done%d", t);
        int d = ir_add_var(p, dn, 1);
        store(p, t, d, 1);
        await_(p, main_t, NULL, d, OP_EQ, 1);
    }
    load(p, main_t, "m0", x);
    return p;
}

START_TEST(random_join_differential)
{
    char msg[512], first[512] = "";
    int fails = 0;
    uint64_t n = getenv("RFSMC_SEEDS") ? (uint64_t)atoi(getenv("RFSMC_SEEDS")) : 300;
    for (uint64_t seed = 1; seed <= n / 2; seed++) {
        wmx_program *p = random_join_program(seed);
        for (int m = 0; m < 3; m++) {
            const char *f = differential(p, (wmx_model)m, msg, sizeof msg);
            if (f && !first[0]) {
                snprintf(first, sizeof first, "%s", f);
                if (getenv("DBG_PRINT")) { char *t = plp_format(p, NULL); fprintf(stderr, "%s\n%s\n", f, t); free(t); }
            }
            fails += f != NULL;
        }
        ir_program_free(p);
    }
    ck_assert_msg(fails == 0, "%d runs differ, first: %s", fails, first);
}
END_TEST

/* ---- --jobs: the same classes on several workers ---- */

/* Runs algo on one worker and on two that split at every step; NULL when
 * the counts, states and verdicts agree and no class came twice. */
static const char *jobs_differential(const wmx_program *p, wmx_model model, explore_algo algo,
                                     char *msg, size_t n)
{
    explore_opts o;
    explore_opts_init(&o);
    o.model = model;
    o.algo = algo;
    explore_result a, b;
    wmx_error err = { 0 };
    /* naive enumerates every interleaving: the small programs only */
    if (algo == ALGO_NAIVE)
        o.max_traces = 20000;
    if (explore_run(p, &o, &a, &err) != 0) {
        snprintf(msg, n, "%s: %s failed", p->name, algo_name(algo));
        return msg;
    }
    if (!a.complete) {
        explore_result_free(&a);
        return NULL;
    }
    o.max_traces = 0;
    fpcheck f = { 0 };
    f.m = machine_new(p, model, &err);
    f.obs = malloc((size_t)(a.nobserved + 1) * sizeof *f.obs);
    for (int i = 0; i < a.nobserved; i++)
        if (a.observed[i].thread < 0)
            f.obs[f.nobs++] = a.observed[i].cell;
    o.jobs = 2;
    if (algo == ALGO_RFSMC) {
        o.on_trace = on_trace;      /* serialised by the parallel run */
        o.ud = &f;
    }
    const char *bad = NULL;
    if (explore_run(p, &o, &b, &err) != 0) {
        snprintf(msg, n, "%s: %s --jobs 2 failed", p->name, algo_name(algo));
        explore_result_free(&a);
        bad = msg;
        goto out;
    }
    count_dups(&f);
    if (a.traces != b.traces || a.blocked != b.blocked || a.positive != b.positive ||
        a.negative != b.negative || a.nstates != b.nstates || a.error_traces != b.error_traces ||
        a.events != b.events || a.nerrors != b.nerrors || !b.complete || f.dups ||
        !blocked_at_same(&a, &b, true, true))
        bad = msg;
    for (int i = 0; !bad && i < a.nstates; i++)
        if (a.states[i].count != b.states[i].count ||
            memcmp(a.states[i].vals, b.states[i].vals, (size_t)a.nobserved * sizeof(wmx_val)))
            bad = msg;
    /* the same failing instructions, in the same order, with the same
     * witness: which worker met one first must not show */
    for (int i = 0; !bad && i < a.nerrors; i++) {
        const explore_error *x = &a.errors[i], *y = &b.errors[i];
        if (x->thread != y->thread || x->instr != y->instr || x->len != y->len ||
            strcmp(x->message, y->message) != 0)
            bad = msg;
        for (int k = 0; !bad && k < x->len; k++)
            if (x->steps[k].thread != y->steps[k].thread || x->steps[k].kind != y->steps[k].kind ||
                x->steps[k].cell != y->steps[k].cell)
                bad = msg;
    }
    if (bad)
        snprintf(msg, n, "%s %s %s: 1 worker %ld+%ld %d states %ld events, 2 workers %ld+%ld %d states %ld events, %d duplicates",
                 p->name, model_name(model), algo_name(algo), a.traces, a.blocked, a.nstates, a.events,
                 b.traces, b.blocked, b.nstates, b.events, f.dups);
    explore_result_free(&a);
    explore_result_free(&b);
out:
    for (int i = 0; i < f.n; i++)
        free(f.keys[i]);
    free(f.keys);
    free(f.obs);
    machine_free((wmx_machine *)f.m);
    return bad;
}

START_TEST(random_jobs)
{
    /* split at every step, so that these small programs are shared */
    setenv("WMX_TEST_SPLIT", "1", 1);
    char msg[512], first[512] = "";
    int fails = 0;
    for (uint64_t seed = 1; seed <= 150; seed++) {
        wmx_program *p = random_program(seed);
        for (int m = 0; m < 3; m++) {
            const char *f = jobs_differential(p, (wmx_model)m, ALGO_RFSMC, msg, sizeof msg);
            if (!f && m < 2 && seed <= 60)
                f = jobs_differential(p, (wmx_model)m, ALGO_NAIVE, msg, sizeof msg);
            if (f && !first[0]) {
                snprintf(first, sizeof first, "%s", f);
                if (getenv("DBG_PRINT")) { char *t = plp_format(p, NULL); fprintf(stderr, "%s\n%s\n", f, t); free(t); }
            }
            fails += f != NULL;
        }
        ir_program_free(p);
    }
    unsetenv("WMX_TEST_SPLIT");
    ck_assert_msg(fails == 0, "%d runs differ, first: %s", fails, first);
}
END_TEST

/* --max-traces counts the traces of every worker */
START_TEST(jobs_limits)
{
    wmx_program *p = random_program(7);
    for (uint64_t seed = 8; seed < 400; seed++) {
        explore_opts o;
        explore_opts_init(&o);
        o.model = MODEL_TSO;
        explore_result a;
        wmx_error err = { 0 };
        ck_assert_int_eq(explore_run(p, &o, &a, &err), 0);
        long all = a.traces + a.blocked;
        explore_result_free(&a);
        if (all >= 20)
            break;
        ir_program_free(p);
        p = random_program(seed);
    }
    explore_opts o;
    explore_opts_init(&o);
    o.model = MODEL_TSO;
    o.jobs = 2;
    o.max_traces = 5;
    setenv("WMX_TEST_SPLIT", "1", 1);
    explore_result r;
    wmx_error err = { 0 };
    ck_assert_int_eq(explore_run(p, &o, &r, &err), 0);
    unsetenv("WMX_TEST_SPLIT");
    ck_assert(!r.complete);
    ck_assert_str_eq(r.stop_reason, "max-traces");
    /* each worker stops at its next poll: a few more than 5 at most */
    ck_assert_int_ge(r.traces + r.blocked, 5);
    ck_assert_int_le(r.traces + r.blocked, 5 + 4);
    explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("rfsmc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, known_counts);
    tcase_add_test(tc, limits);
    tcase_add_test(tc, iterator);
    tcase_add_test(tc, robustness);
    tcase_add_test(tc, random_differential);
    tcase_add_test(tc, random_differential_locks);
    tcase_add_test(tc, random_differential_mutex);
    tcase_add_test(tc, random_join_differential);
    tcase_add_test(tc, random_jobs);
    tcase_add_test(tc, jobs_limits);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
