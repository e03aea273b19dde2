/* test_verify.c - executions, VSC-rf/VTSO-rf/VPSO-rf, explanations, the
 * event-set file form, and the differential test against the exhaustive
 * explorer on generated programs. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "explore.h"
#include "verify.h"
#include "irbuild.h"

/* a program with n threads and vars x, y, z used only as a name space for
 * hand-built executions */
static wmx_program *names(int nthreads)
{
    wmx_program *p = ir_program_new("t", "t.wmx", "wmx");
    ir_add_var(p, "x", 1);
    ir_add_var(p, "y", 1);
    ir_add_var(p, "z", 1);
    char nm[16];
    for (int t = 0; t < nthreads; t++) {
        snprintf(nm, sizeof nm, "P%d", t);
        ir_add_thread(p, nm);
    }
    return p;
}

static void W(wmx_exec *x, int t, int cell, wmx_val v)
{
    xevent e = { .kind = X_WRITE, .thread = t, .instr = -1, .cell = cell, .value = v,
                 .rf = EID_INIT, .flushed = true, .mem_order = -1 };
    exec_add(x, &e);
}

static void R(wmx_exec *x, int t, int cell, wmx_val v, wmx_eid rf)
{
    xevent e = { .kind = X_READ, .thread = t, .instr = -1, .cell = cell, .value = v,
                 .rf = rf, .mem_order = -1 };
    exec_add(x, &e);
}

static void F(wmx_exec *x, int t)
{
    xevent e = { .kind = X_FENCE, .thread = t, .instr = -1, .cell = -1, .rf = EID_INIT, .mem_order = -1 };
    exec_add(x, &e);
}

static const wmx_transition S0 = { TR_STEP, 0, -1 }, S1 = { TR_STEP, 1, -1 }, S2 = { TR_STEP, 2, -1 };
static const wmx_transition F0 = { TR_FLUSH, 0, -1 }, F1 = { TR_FLUSH, 1, -1 };

/* ---- the executability examples of the paper ---- */

START_TEST(remote_write_missing)
{
    /* P0: w x=1     P1: r x=1 (rf P0.0) */
    wmx_program *p = names(2);
    wmx_exec *x = exec_new(p, MODEL_TSO);
    W(x, 0, 0, 1);
    R(x, 1, 0, 1, EID_MAKE(0, 0));
    exec_seal(x);
    verify_prefix *v = verify_prefix_new(x, MODEL_TSO);
    ck_assert_int_eq(verify_prefix_executable(v, &S1), VB_REMOTE_MISSING);
    ck_assert_int_eq(verify_prefix_apply(v, &S1), -1);
    ck_assert_int_eq(verify_prefix_apply(v, &S0), 0);
    /* the write is in P0's buffer: pending, and still missing for P1 */
    ck_assert(verify_prefix_pending(v, 0));
    ck_assert_int_eq(verify_prefix_executable(v, &S1), VB_REMOTE_MISSING);
    ck_assert_int_eq(verify_prefix_apply(v, &F0), 0);
    ck_assert(!verify_prefix_pending(v, 0));
    ck_assert(verify_prefix_held(v, 0));          /* P1 still has to read it */
    ck_assert_int_eq(verify_prefix_executable(v, &S1), VB_OK);
    ck_assert_int_eq(verify_prefix_apply(v, &S1), 0);
    ck_assert(!verify_prefix_held(v, 0));
    ck_assert(verify_prefix_complete(v));
    verify_prefix_free(v);
    exec_free(x);
    ir_program_free(p);
}
END_TEST

START_TEST(held_variable_blocks)
{
    /* P0: w x=1   P1: w x=2   P2: r x=1 (rf P0.0) */
    wmx_program *p = names(3);
    wmx_exec *x = exec_new(p, MODEL_TSO);
    W(x, 0, 0, 1);
    W(x, 1, 0, 2);
    R(x, 2, 0, 1, EID_MAKE(0, 0));
    exec_seal(x);
    verify_prefix *v = verify_prefix_new(x, MODEL_TSO);
    ck_assert(verify_prefix_held(v, 0) == false);
    ck_assert_int_eq(verify_prefix_apply(v, &S0), 0);
    ck_assert_int_eq(verify_prefix_apply(v, &S1), 0);
    ck_assert_int_eq(verify_prefix_apply(v, &F0), 0);
    ck_assert(verify_prefix_held(v, 0));
    ck_assert_int_eq(verify_prefix_executable(v, &F1), VB_HELD);
    ck_assert_int_eq(verify_prefix_apply(v, &S2), 0);
    ck_assert_int_eq(verify_prefix_executable(v, &F1), VB_OK);
    verify_prefix_free(v);
    verify_result r;
    vtso_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(r.consistent);
    wmx_error err;
    /* the witness replays only on a real program: checked in the
     * differential test; here check its shape */
    ck_assert_int_eq(r.wlen, 5);
    (void)err;
    verify_result_free(&r);
    exec_free(x);
    ir_program_free(p);
}
END_TEST

START_TEST(local_unflushed_blocks)
{
    /* P0: w x=1     P1: w x=2; r x=1 (rf P0.0) */
    wmx_program *p = names(2);
    wmx_exec *x = exec_new(p, MODEL_TSO);
    W(x, 0, 0, 1);
    W(x, 1, 0, 2);
    R(x, 1, 0, 1, EID_MAKE(0, 0));
    exec_seal(x);
    verify_prefix *v = verify_prefix_new(x, MODEL_TSO);
    ck_assert_int_eq(verify_prefix_apply(v, &S0), 0);
    ck_assert_int_eq(verify_prefix_apply(v, &S1), 0);
    ck_assert_int_eq(verify_prefix_executable(v, &F0), VB_LOCAL_UNFLUSHED);
    ck_assert_int_eq(verify_prefix_apply(v, &F1), 0);
    ck_assert_int_eq(verify_prefix_executable(v, &F0), VB_OK);
    ck_assert_int_eq(verify_prefix_apply(v, &F0), 0);
    ck_assert_int_eq(verify_prefix_apply(v, &S1), 0);
    ck_assert(verify_prefix_complete(v));
    verify_prefix_free(v);
    verify_result r;
    vtso_rf(x, 0, &r);
    ck_assert(r.consistent);
    verify_result_free(&r);
    exec_free(x);
    ir_program_free(p);
}
END_TEST

START_TEST(spurious_and_pending)
{
    /* P0: w x=1; w y=1     P1: r y=1 (rf P0.1) */
    wmx_program *p = names(2);
    wmx_exec *x = exec_new(p, MODEL_TSO);
    W(x, 0, 0, 1);
    W(x, 0, 1, 1);
    R(x, 1, 1, 1, EID_MAKE(0, 1));
    exec_seal(x);
    verify_prefix *v = verify_prefix_new(x, MODEL_TSO);
    ck_assert(verify_prefix_spurious(v, 0));      /* nobody reads x=1 */
    ck_assert(!verify_prefix_spurious(v, 1));     /* P1 must read y=1 */
    ck_assert(!verify_prefix_pending(v, 0));
    ck_assert_int_eq(verify_prefix_apply(v, &S0), 0);
    ck_assert(verify_prefix_pending(v, 0));
    ck_assert_int_eq(verify_prefix_apply(v, &S0), 0);
    ck_assert(verify_prefix_pending(v, 1));
    ck_assert_int_eq(verify_prefix_apply(v, &F0), 0);
    ck_assert_int_eq(verify_prefix_apply(v, &F0), 0);
    ck_assert(!verify_prefix_pending(v, 1));
    ck_assert(!verify_prefix_spurious(v, 1));     /* still to be read */
    ck_assert_int_eq(verify_prefix_apply(v, &S1), 0);
    ck_assert(verify_prefix_spurious(v, 1));
    verify_prefix_free(v);
    exec_free(x);
    ir_program_free(p);
}
END_TEST

/* SB with both reads from init: TSO yes, SC no (with a cycle), and with
 * fences TSO no either */
static wmx_exec *sb_exec(wmx_program *p, bool fences)
{
    wmx_exec *x = exec_new(p, MODEL_TSO);
    W(x, 0, 0, 1);
    if (fences) F(x, 0);
    R(x, 0, 1, 0, EID_INIT);
    W(x, 1, 1, 1);
    if (fences) F(x, 1);
    R(x, 1, 0, 0, EID_INIT);
    exec_seal(x);
    return x;
}

START_TEST(sb_models)
{
    wmx_program *p = names(2);
    wmx_exec *x = sb_exec(p, false);
    verify_result r;
    vtso_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(r.consistent);
    verify_result_free(&r);
    vpso_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(r.consistent);
    verify_result_free(&r);
    vsc_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(!r.consistent);
    ck_assert_ptr_nonnull(strstr(r.text, "cycle"));
    ck_assert_int_eq(r.nfacts, 4);
    int kinds[6] = { 0 };
    for (int i = 0; i < r.nfacts; i++)
        kinds[r.facts[i].kind]++;
    ck_assert_int_eq(kinds[REL_PO], 2);
    ck_assert_int_eq(kinds[REL_FR], 2);
    verify_result_free(&r);
    exec_free(x);
    x = sb_exec(p, true);
    vtso_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(!r.consistent);
    ck_assert_int_gt(r.nfacts, 0);
    verify_result_free(&r);
    int rc = verify_naive(x, MODEL_TSO, 0, &r);
    ck_assert_int_eq(rc, 0);
    ck_assert(!r.consistent);
    verify_result_free(&r);
    exec_free(x);
    ir_program_free(p);
}
END_TEST

START_TEST(structural_explanations)
{
    wmx_program *p = names(2);
    /* value mismatch */
    wmx_exec *x = exec_new(p, MODEL_TSO);
    W(x, 0, 0, 1);
    R(x, 1, 0, 2, EID_MAKE(0, 0));
    exec_seal(x);
    verify_result r;
    vtso_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(!r.consistent);
    ck_assert_ptr_nonnull(strstr(r.text, "value"));
    verify_result_free(&r);
    exec_free(x);
    /* reading own future write */
    x = exec_new(p, MODEL_TSO);
    R(x, 0, 0, 1, EID_MAKE(0, 1));
    W(x, 0, 0, 1);
    exec_seal(x);
    vsc_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(!r.consistent);
    ck_assert_ptr_nonnull(strstr(r.text, "future"));
    verify_result_free(&r);
    exec_free(x);
    /* reading init after own write (uniproc) */
    x = exec_new(p, MODEL_TSO);
    W(x, 0, 0, 1);
    R(x, 0, 0, 0, EID_INIT);
    exec_seal(x);
    vpso_rf(x, VERIFY_EXPLAIN, &r);
    ck_assert(!r.consistent);
    ck_assert_ptr_nonnull(strstr(r.text, "own latest write"));
    verify_result_free(&r);
    exec_free(x);
    ir_program_free(p);
}
END_TEST

START_TEST(eventset_roundtrip_and_errors)
{
    wmx_program *p = names(2);
    wmx_exec *x = sb_exec(p, true);
    exec_set_observer(x, 0, 0);
    char *text = exec_format(x);
    wmx_error err;
    ck_assert(exec_text_is_eventset(text, strlen(text)));
    wmx_exec *y = exec_parse(text, strlen(text), "f.trace", p, &err);
    ck_assert_ptr_nonnull(y);
    ck_assert_int_eq(y->nev, x->nev);
    for (int i = 0; i < x->nev; i++) {
        ck_assert_int_eq(y->ev[i].kind, x->ev[i].kind);
        ck_assert_int_eq(y->ev[i].cell, x->ev[i].cell);
        ck_assert_int_eq(y->ev[i].rf, x->ev[i].rf);
        ck_assert_int_eq(y->ev[i].value, x->ev[i].value);
    }
    ck_assert_int_eq(y->nobs, 1);
    exec_free(y);
    free(text);
    const char *bad[] = {
        "program t.wmx\nmodel tso\nevents\nP0 w x 1\nP9 r x 1 rf P0.0\nend\n",
        "program t.wmx\nmodel tso\nevents\nP0 w x 1\nP1 r x 1 rf P0.7\nend\n",
        "program t.wmx\nmodel tso\nevents\nP0 w q 1\nend\n",
        "program t.wmx\nmodel tso\nevents\nP0 r x 1\nend\n",
        "program t.wmx\nmodel tso\nevents\nP0 w x 1\n",
        "program t.wmx\nmodel foo\nevents\nend\n",
        "program t.wmx\nmodel tso\nevents\nP0 w x one\nend\n",
    };
    const int lines[] = { 5, 5, 4, 4, 4, 2, 4 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&err, 0, sizeof err);
        y = exec_parse(bad[i], strlen(bad[i]), "f.trace", p, &err);
        ck_assert_msg(y == NULL, "case %zu accepted", i);
        ck_assert_msg(err.line == lines[i], "case %zu: line %d, expected %d (%s)", i, err.line, lines[i], err.msg);
    }
    exec_free(x);
    ir_program_free(p);
}
END_TEST

/* ---- differential test ---- */

typedef struct strset {
    int n, cap;            /* cap: hash slots (power of two) */
    char **s;              /* items in insertion order */
    int *slot;             /* cap slots: index into s, -1 empty */
} strset;

static uint64_t str_hash(const char *k)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *k; k++) {
        h ^= (unsigned char)*k;
        h *= 1099511628211ULL;
    }
    return h;
}

static int strset_find(const strset *s, const char *k)
{
    if (!s->cap)
        return -1;
    for (size_t i = str_hash(k) & (size_t)(s->cap - 1);; i = (i + 1) & (size_t)(s->cap - 1)) {
        if (s->slot[i] < 0)
            return -1;
        if (strcmp(s->s[s->slot[i]], k) == 0)
            return s->slot[i];
    }
}

static bool strset_add(strset *s, const char *k)
{
    if (strset_find(s, k) >= 0)
        return false;
    if ((s->n + 1) * 2 > s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        s->slot = realloc(s->slot, (size_t)cap * sizeof *s->slot);
        for (int i = 0; i < cap; i++)
            s->slot[i] = -1;
        s->cap = cap;
        s->s = realloc(s->s, (size_t)cap * sizeof *s->s);
        for (int j = 0; j < s->n; j++) {
            size_t i = str_hash(s->s[j]) & (size_t)(cap - 1);
            while (s->slot[i] >= 0)
                i = (i + 1) & (size_t)(cap - 1);
            s->slot[i] = j;
        }
    }
    size_t i = str_hash(k) & (size_t)(s->cap - 1);
    while (s->slot[i] >= 0)
        i = (i + 1) & (size_t)(s->cap - 1);
    s->s[s->n] = strdup(k);
    s->slot[i] = s->n++;
    return true;
}

static void strset_free(strset *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->s[i]);
    free(s->s);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

/* key of the event set (without RF) and of the event set with RF: a
 * compact encoding, numbers in base 32 (printf would dominate the run time) */
static size_t put_num(char *b, long long v)
{
    size_t k = 0;
    unsigned long long u = v < 0 ? (unsigned long long)(-(v + 1)) * 2 + 1 : (unsigned long long)v * 2;
    do {
        b[k++] = (char)('0' + (u & 31));
        u >>= 5;
    } while (u);
    b[k++] = ',';
    return k;
}

static void exec_key(const wmx_exec *x, bool with_rf, char *buf, size_t n)
{
    size_t k = 0;
    for (int i = 0; i < x->nev && k + 128 < n; i++) {
        const xevent *e = &x->ev[i];
        k += put_num(buf + k, e->thread);
        k += put_num(buf + k, e->kind);
        k += put_num(buf + k, e->instr);
        k += put_num(buf + k, e->cell);
        k += put_num(buf + k, e->value);
        k += put_num(buf + k, e->read);
        k += put_num(buf + k, e->wrote);
        if (with_rf && xev_is_read(e))
            k += put_num(buf + k, e->rf);
        buf[k++] = ';';
    }
    buf[k] = '\0';
}

typedef struct collect {
    const wmx_program *p;
    wmx_model model;
    strset rfs;            /* event set + RF realised */
    strset sets;           /* event sets (without RF) */
    wmx_exec **execs;      /* one representative per event set */
    int nexecs;
} collect;

static void on_trace(const explore_trace *tr, void *ud)
{
    collect *c = ud;
    wmx_error err;
    wmx_exec *x = exec_from_events(c->p, c->model, tr->events, tr->len, &err);
    ck_assert_ptr_nonnull(x);
    char key[8192];
    exec_key(x, true, key, sizeof key);
    strset_add(&c->rfs, key);
    exec_key(x, false, key, sizeof key);
    if (strset_add(&c->sets, key)) {
        c->execs = realloc(c->execs, (size_t)(c->nexecs + 1) * sizeof *c->execs);
        c->execs[c->nexecs++] = x;
    } else {
        exec_free(x);
    }
}

static void collect_run(collect *c, const wmx_program *p, wmx_model model)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->model = model;
    explore_opts o;
    explore_opts_init(&o);
    o.model = model;
    o.on_trace = on_trace;
    o.ud = c;
    explore_result r;
    wmx_error err;
    ck_assert_int_eq(explore_naive(p, &o, &r, &err), 0);
    explore_result_free(&r);
}

static void collect_free(collect *c)
{
    strset_free(&c->rfs);
    strset_free(&c->sets);
    for (int i = 0; i < c->nexecs; i++)
        exec_free(c->execs[i]);
    free(c->execs);
}

static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static wmx_program *gen_program(void)
{
    wmx_program *p = ir_program_new("gen", "gen.wmx", "wmx");
    int nv = 2 + (int)rnd(2), nt = 2 + (int)rnd(3);
    const char *vn[] = { "x", "y", "z" };
    for (int v = 0; v < nv; v++)
        ir_add_var(p, vn[v], 1);
    int budget = nt == 4 ? 8 : nt == 3 ? 8 : 9;     /* keep the naive exploration small */
    wmx_val val = 1;
    for (int t = 0; t < nt; t++) {
        char nm[16];
        snprintf(nm, sizeof nm, "P%d", t);
        ir_add_thread(p, nm);
        int len = 1 + (int)rnd(nt == 4 ? 2 : 3);
        if (len > budget) len = budget;
        budget -= len;
        for (int i = 0; i < len; i++) {
            int var = (int)rnd((unsigned)nv);
            char reg[16];
            snprintf(reg, sizeof reg, "r%d", i);
            unsigned k = rnd(12);
            if (k < 5) store(p, t, var, val++);
            else if (k < 9) load(p, t, reg, var);
            else if (k == 9) fence(p, t);
            else if (k == 10) rmw(p, t, rnd(2) ? I_XCHG : I_FAA, reg, var, val++, 0);
            else rmw(p, t, I_CAS, reg, var, (wmx_val)rnd(3), val++);
        }
    }
    return p;
}

/* Enumerates every RF assignment for x's reads (each read from any write of
 * its cell, or init) and checks the accepted set equals the realised set. */
typedef struct diffstats {
    long programs, candidates, accepted, realised;
} diffstats;

static void check_one(wmx_exec *x, wmx_model model, const strset *realised, strset *accepted, diffstats *st)
{
    verify_result r;
    verify_check(x, model, VERIFY_EXPLAIN, &r);
    verify_result rn;
    verify_naive(x, model, 0, &rn);
    char key[8192];
    exec_key(x, true, key, sizeof key);
    ck_assert_msg(r.consistent == rn.consistent, "%s: checker says %d, naive says %d for %s",
                  model_name(model), r.consistent, rn.consistent, key);
    st->candidates++;
    if (r.consistent) {
        wmx_error err;
        int rc = verify_replay(x, model, r.witness, r.wlen, &err);
        ck_assert_msg(rc == 0, "witness does not replay: %s", err.msg);
        if (strset_add(accepted, key))
            st->accepted++;
        ck_assert_msg(strset_find(realised, key) >= 0, "%s: accepted but never realised: %s",
                      model_name(model), key);
    } else {
        ck_assert_ptr_nonnull(r.text);
        ck_assert(strlen(r.text) > 0);
    }
    verify_result_free(&r);
    verify_result_free(&rn);
}

/* Enumerates the RF assignments of x's reads (each read from any write of
 * its cell with the value it read, or init), plus a few random assignments
 * that ignore values, and checks them all. */
static void check_candidates(const wmx_program *p, wmx_exec *x, wmx_model model,
                             const strset *realised, strset *accepted, diffstats *st)
{
    int reads[64], nr = 0;
    int cands[64][32], nc[64], all[64][32], na[64];
    for (int i = 0; i < x->nev && nr < 64; i++) {
        const xevent *r = &x->ev[i];
        if (!xev_is_read(r))
            continue;
        wmx_val v = r->kind == X_RMW ? r->read : r->value;
        nc[nr] = na[nr] = 0;
        all[nr][na[nr]++] = -1;
        if (x->cell_init[r->cell] == v)
            cands[nr][nc[nr]++] = -1;
        for (int w = 0; w < x->nev && nc[nr] < 32 && na[nr] < 32; w++)
            if (w != i && xev_is_write(&x->ev[w]) && x->ev[w].cell == r->cell) {
                all[nr][na[nr]++] = w;
                if (x->ev[w].value == v)
                    cands[nr][nc[nr]++] = w;
            }
        if (nc[nr] == 0)
            return;         /* no write gives this value: nothing to enumerate */
        reads[nr++] = i;
    }
    int idx[64] = { 0 };
    for (long iter = 0; iter < 4000; iter++) {
        for (int j = 0; j < nr; j++)
            x->ev[reads[j]].rf = cands[j][idx[j]];
        check_one(x, model, realised, accepted, st);
        int j = 0;
        while (j < nr && ++idx[j] == nc[j])
            idx[j++] = 0;
        if (j == nr)
            break;
    }
    for (int k = 0; k < 3 && nr > 0; k++) {
        for (int j = 0; j < nr; j++)
            x->ev[reads[j]].rf = all[j][rnd((unsigned)na[j])];
        check_one(x, model, realised, accepted, st);
    }
    (void)p;
}

static void differential(int nprograms, uint64_t seed, diffstats *st)
{
    rng_state = seed;
    for (int k = 0; k < nprograms; k++) {
        wmx_program *p = gen_program();
        collect pso;
        collect_run(&pso, p, MODEL_PSO);
        for (int m = 0; m < 3; m++) {
            wmx_model model = (wmx_model)m;
            collect c;
            collect_run(&c, p, model);
            strset accepted = { 0 };
            /* candidates over every event set PSO reaches (a superset) */
            for (int i = 0; i < pso.nexecs; i++) {
                wmx_exec *x = exec_copy(pso.execs[i]);
                check_candidates(p, x, model, &c.rfs, &accepted, st);
                exec_free(x);
            }
            /* every realised RF must be accepted */
            for (int i = 0; i < c.rfs.n; i++)
                ck_assert_msg(strset_find(&accepted, c.rfs.s[i]) >= 0, "%s: realised but rejected: %s",
                              model_name(model), c.rfs.s[i]);
            st->realised += c.rfs.n;
            strset_free(&accepted);
            collect_free(&c);
        }
        collect_free(&pso);
        ir_program_free(p);
        st->programs++;
    }
}

START_TEST(differential_generated)
{
    diffstats st = { 0 };
    const char *env = getenv("WMX_DIFF_PROGRAMS");
    int n = env ? atoi(env) : 200;
    differential(n, 0x9E3779B97F4A7C15ULL, &st);
    fprintf(stderr, "differential: %ld programs, %ld candidate RFs, %ld accepted, %ld realised (all models)\n",
            st.programs, st.candidates, st.accepted, st.realised);
    ck_assert_int_eq(st.accepted, st.realised);
    ck_assert_int_gt(st.accepted, 0);
}
END_TEST

START_TEST(witness_replays_sb_program)
{
    /* the real SB program: explore TSO, the both-zero class checks
     * consistent with a witness that replays, and is SC-inconsistent */
    wmx_program *p = ir_program_new("SB", "sb", "wmx");
    int x = ir_add_var(p, "x", 1), y = ir_add_var(p, "y", 1);
    ir_add_thread(p, "P0");
    ir_add_thread(p, "P1");
    store(p, 0, x, 1);
    load(p, 0, "r0", y);
    store(p, 1, y, 1);
    load(p, 1, "r0", x);
    collect c;
    collect_run(&c, p, MODEL_TSO);
    int found = 0;
    for (int i = 0; i < c.nexecs; i++) {
        wmx_exec *e = c.execs[i];
        if (e->ev[1].rf == -1 && e->ev[3].rf == -1) {
            found++;
            verify_result r;
            vtso_rf(e, 0, &r);
            ck_assert(r.consistent);
            wmx_error err;
            ck_assert_int_eq(verify_replay(e, MODEL_TSO, r.witness, r.wlen, &err), 0);
            verify_result_free(&r);
            vsc_rf(e, VERIFY_EXPLAIN, &r);
            ck_assert(!r.consistent);
            verify_result_free(&r);
        }
    }
    ck_assert_int_eq(found, 1);
    collect_free(&c);
    ir_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("verify");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, remote_write_missing);
    tcase_add_test(tc, held_variable_blocks);
    tcase_add_test(tc, local_unflushed_blocks);
    tcase_add_test(tc, spurious_and_pending);
    tcase_add_test(tc, sb_models);
    tcase_add_test(tc, structural_explanations);
    tcase_add_test(tc, eventset_roundtrip_and_errors);
    tcase_add_test(tc, witness_replays_sb_program);
    tcase_add_test(tc, differential_generated);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
