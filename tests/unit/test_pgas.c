/* test_pgas.c - PGAS programs (seed 001): the parser's new forms and
 * errors, the machine X(P,N), and robustness.  The differential test runs
 * generated programs through both deciders (nf, search) and, for the small
 * ones, through a brute-force enumeration of every computation whose
 * happens-before relation is rebuilt from scratch (pgas_hb.c); every
 * reported computation must replay and its cycle must check. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "pgas.h"

static wmx_program *parse(const char *src)
{
    wmx_error err;
    memset(&err, 0, sizeof err);
    wmx_program *p = lang_parse(src, strlen(src), "t.wmx", &err);
    if (!p) {
        char buf[1024];
        ck_abort_msg("unexpected parse error: %s\n%s", wmx_error_format(&err, buf, sizeof buf), src);
    }
    return p;
}

static const char *parse_err(const char *src)
{
    static char out[1024];
    wmx_error err;
    memset(&err, 0, sizeof err);
    wmx_program *p = lang_parse(src, strlen(src), "t.wmx", &err);
    ck_assert_msg(p == NULL, "expected an error for: %s", src);
    snprintf(out, sizeof out, "%d:%d: %s", err.line, err.col, err.msg);
    return out;
}

static const char *ONE_TO_ONE =
    "name 1to1\n"
    "ranks 2;\n"
    "var x = 1, y;\n"
    "spmd {\n"
    "  write(x, (rank + 1) % nranks, y, 0);\n"
    "  barrier;\n"
    "  r = y;\n"
    "  assert(r == 1);\n"
    "}\n";

START_TEST(parse_pgas)
{
    wmx_program *p = parse(ONE_TO_ONE);
    ck_assert_int_eq(p->pgas_ranks, 2);
    ck_assert_int_eq(p->nthreads, 1);
    ck_assert_int_eq(p->pgas_queues, 1);
    ck_assert_int_ge(p->pgas_rank_reg, 0);
    ck_assert_int_ge(p->pgas_nranks_reg, 0);
    ck_assert_int_eq(p->threads[0].instrs[0].kind, I_PWRITE);
    ck_assert_int_eq(p->threads[0].instrs[1].kind, I_BARRIER);
    ck_assert_int_eq(p->threads[0].instrs[2].kind, I_LOAD);
    ir_program_free(p);
    /* read/write/barrier stay ordinary register names elsewhere */
    p = parse("var x;\nthread P0 { read = x; write = read + 1; barrier = 2; }\n");
    ir_program_free(p);
}
END_TEST

START_TEST(parse_errors)
{
    ck_assert_str_eq(parse_err("ranks 0;\nvar x;\nspmd { x = 1; }\n"),
                     "1:7: the number of ranks must be between 1 and 16");
    ck_assert_str_eq(parse_err("ranks 2;\nvar x;\n"),
                     "3:1: a PGAS program ('ranks 2;' at line 1) needs one 'spmd { ... }' block");
    ck_assert_str_eq(parse_err("ranks 2;\nvar x;\nspmd { fence; }\n"),
                     "3:8: 'fence' is not a PGAS command (an spmd block has loads, stores, read, write, barrier and quiet)");
    ck_assert_str_eq(parse_err("ranks 2;\nvar x;\nspmd { r = cas(x, 0, 1); }\n"),
                     "3:12: 'cas' is not a PGAS command (an spmd block has loads, stores, read, write, barrier and quiet)");
    ck_assert_str_eq(parse_err("var x, y;\nthread P0 { write(x, 0, y, 0); }\n"),
                     "2:13: 'write' is a PGAS statement: it is only allowed in an 'spmd' block");
    ck_assert_str_eq(parse_err("var x, y;\nthread P0 { barrier; }\n"),
                     "2:13: 'barrier' is a PGAS statement: it is only allowed in an 'spmd' block");
    ck_assert_str_eq(parse_err("ranks 2;\nvar x;\nthread P0 { x = 1; }\n"),
                     "3:1: a program with 'ranks N;' runs one 'spmd { ... }' block, not threads");
    ck_assert_str_eq(parse_err("var x;\nspmd { x = 1; }\n"),
                     "2:1: an 'spmd' block needs a 'ranks N;' declaration before it");
    ck_assert_str_eq(parse_err("ranks 2;\nvar x;\nspmd { rank = 1; }\n"),
                     "3:8: 'rank' is a constant in an spmd block; it cannot be assigned");
    ck_assert_str_eq(parse_err("ranks 2;\nvar x;\nspmd { read(x, 0, x, 9); }\n"),
                     "3:22: queue id 9 out of range (0..7)");
    ck_assert_str_eq(parse_err("ranks 2;\nvar x;\nspmd { read(x, 0, z, 0); }\n"),
                     "3:19: 'z' is not a shared variable (declare it with 'var z;')");
}
END_TEST

/* runtime faults are input errors with the statement's position */
START_TEST(runtime_faults)
{
    wmx_program *p = parse("ranks 2;\nvar x, y;\nspmd {\n  write(x, rank + 1, y, 0);\n}\n");
    pgas_opts o;
    pgas_opts_init(&o);
    pgas_robust_result r;
    wmx_error err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(pgas_robust(p, PGAS_SEARCH, &o, &r, &err), -1);
    ck_assert_int_eq(err.line, 4);
    ck_assert_int_eq(err.col, 3);
    ck_assert_ptr_nonnull(strstr(err.msg, "remote rank 2 out of range"));
    pgas_robust_result_free(&r);
    pgas_explore_result e;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(pgas_explore(p, &o, &e, &err), -1);
    ck_assert_int_eq(err.line, 4);
    pgas_explore_result_free(&e);
    ir_program_free(p);
}
END_TEST

START_TEST(machine_steps)
{
    wmx_program *p = parse(ONE_TO_ONE);
    wmx_error err;
    pgas_machine *m = pgas_machine_new(p, 2, 0, &err);
    ck_assert_ptr_nonnull(m);
    void *s = malloc(pgas_state_size(m));
    pgas_init(m, s);
    pgas_transition t[16];
    ck_assert_int_eq(pgas_enabled(m, s, t), 2);          /* two writes */
    pgas_transition w0 = { PT_STEP, 0, -1 }, pa = { PT_POPA, 0, 0 }, pb = { PT_POPB, 0, 0 };
    pgas_event ev[4];
    pgas_apply(m, s, &w0, ev);
    ck_assert_int_eq(ev[0].kind, PE_WRITE);
    const pgas_entry *e;
    ck_assert_int_eq(pgas_queue(m, s, 0, 0, 0, &e), 1);
    ck_assert_int_eq(e[0].dst_rank, 1);
    ck_assert(!pgas_is_enabled(m, s, &w0));               /* rank 0 waits at the barrier */
    pgas_apply(m, s, &pa, ev);
    ck_assert_int_eq(ev[0].kind, PE_POPA);
    ck_assert_int_eq(ev[0].addr_rank, 0);
    ck_assert_int_eq(ev[0].value, 1);
    ck_assert_int_eq(pgas_queue(m, s, 0, 0, 1, &e), 1);
    pgas_apply(m, s, &pb, ev);
    ck_assert_int_eq(ev[0].kind, PE_POPB);
    ck_assert_int_eq(ev[0].addr_rank, 1);
    ck_assert_int_eq(pgas_memory(m, s, 1)[1], 1);         /* R1:y = 1 */
    pgas_transition bar = { PT_BARRIER, -1, -1 };
    ck_assert(!pgas_is_enabled(m, s, &bar));
    pgas_transition w1 = { PT_STEP, 1, -1 };
    pgas_apply(m, s, &w1, ev);
    ck_assert(pgas_is_enabled(m, s, &bar));
    ck_assert_int_eq(pgas_apply(m, s, &bar, ev), 2);
    ck_assert_int_eq(ev[0].kind, PE_BAR);
    ck_assert_int_eq(ev[1].rank, 1);
    free(s);
    pgas_machine_free(m);
    ir_program_free(p);
}
END_TEST

static void check_violation(const wmx_program *p, const pgas_robust_result *r)
{
    wmx_error err;
    pgas_machine *m = pgas_machine_new(p, r->nranks, 0, &err);
    pgas_event *ev;
    int n;
    ck_assert_msg(pgas_replay(m, &r->computation, &ev, &n) == 0, "computation does not replay");
    ck_assert_int_eq(n, r->nevents);
    void *s = malloc(pgas_state_size(m));
    pgas_init(m, s);
    for (int i = 0; i < r->computation.len; i++)
        pgas_apply(m, s, &r->computation.steps[i], NULL);
    ck_assert_msg(pgas_queues_empty(m, s), "computation ends with requests in flight");
    free(s);
    ck_assert_msg(pgas_hb_violating(m, ev, n), "reported computation is not violating");
    ck_assert_msg(r->ncycle > 0 && r->lemma17, "no cycle reported");
    int cyc[256];
    for (int i = 0; i < r->ncycle; i++)
        cyc[i] = r->cycle[i].event;
    const char *why;
    ck_assert_msg(pgas_check_cycle(m, ev, n, cyc, r->ncycle, &why), "bad cycle: %s", why);
    free(ev);
    pgas_machine_free(m);
}

START_TEST(one_to_one)
{
    wmx_program *p = parse(ONE_TO_ONE);
    for (int N = 2; N <= 4; N++)
        for (int meth = 0; meth < 2; meth++) {
            pgas_opts o;
            pgas_opts_init(&o);
            o.nranks = N;
            pgas_robust_result r;
            wmx_error err;
            ck_assert_int_eq(pgas_robust(p, meth ? PGAS_SEARCH : PGAS_NF, &o, &r, &err), 0);
            ck_assert(!r.robust);
            check_violation(p, &r);
            /* seed Example 18: rank 0 a=b=bar, c=d=load; then a=popb, b=write, c=d=bar */
            ck_assert_int_eq(r.ncycle, 5);
            static const pgas_ev_kind kinds[] = { PE_BAR, PE_LOAD, PE_POPB, PE_WRITE, PE_BAR };
            static const char *const roles[] = { "a=b", "c=d", "a", "b", "c=d" };
            for (int i = 0; i < 5; i++) {
                ck_assert_int_eq(r.events[r.cycle[i].event].kind, kinds[i]);
                ck_assert_str_eq(r.cycle[i].role, roles[i]);
            }
            ck_assert_int_eq(r.events[r.cycle[0].event].rank, 0);
            ck_assert_int_eq(r.events[r.cycle[2].event].rank, N - 1);
            pgas_robust_result_free(&r);
        }
    ir_program_free(p);
}
END_TEST

/* ---- brute force: every computation, hb from scratch ---- */

typedef struct brute {
    const pgas_machine *m;
    pgas_transition *path;
    int len, cap;
    long leaves, budget;
    bool violating;
} brute;

static void brute_dfs(brute *b, void *s)
{
    if (b->violating || --b->budget < 0)
        return;
    pgas_transition tr[64];
    int n = pgas_enabled(b->m, s, tr);
    if (n == 0) {
        b->leaves++;
        pgas_path pp = { b->len, b->path };
        pgas_event *ev;
        int ne;
        pgas_replay(b->m, &pp, &ev, &ne);
        if (pgas_hb_violating(b->m, ev, ne))
            b->violating = true;
        free(ev);
        return;
    }
    size_t sz = pgas_state_size(b->m);
    void *t = malloc(sz);
    for (int k = 0; k < n && !b->violating; k++) {
        memcpy(t, s, sz);
        pgas_apply(b->m, t, &tr[k], NULL);
        if (b->len == b->cap) {
            b->cap *= 2;
            b->path = realloc(b->path, (size_t)b->cap * sizeof *b->path);
        }
        b->path[b->len++] = tr[k];
        brute_dfs(b, t);
        b->len--;
    }
    free(t);
}

/* 1 violating, 0 robust, -1 too big to enumerate */
static int brute_force(const wmx_program *p, int N)
{
    wmx_error err;
    pgas_machine *m = pgas_machine_new(p, N, 0, &err);
    brute b = { .m = m, .cap = 64, .budget = 300000 };
    b.path = malloc((size_t)b.cap * sizeof *b.path);
    void *s = malloc(pgas_state_size(m));
    pgas_init(m, s);
    brute_dfs(&b, s);
    int rc = b.violating ? 1 : b.budget < 0 ? -1 : 0;
    free(s);
    free(b.path);
    pgas_machine_free(m);
    return rc;
}

/* ---- generated programs ---- */

static unsigned rng(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static void gen_stmt(unsigned *s, char *buf, size_t n, int nranks, bool with_quiet)
{
    static const char *const v[] = { "x", "y" };
    const char *a = v[rng(s) % 2], *c = v[rng(s) % 2];
    char R[32];
    switch (rng(s) % 3) {
    case 0: snprintf(R, sizeof R, "%u", rng(s) % (unsigned)nranks); break;
    case 1: snprintf(R, sizeof R, "(rank + 1) %% nranks"); break;
    default: snprintf(R, sizeof R, "rank"); break;
    }
    int q = rng(s) % 4 == 0 ? 1 : 0;
    switch (rng(s) % 9) {
    case 0: case 1: snprintf(buf, n, "write(%s, %s, %s, %d);", a, R, c, q); break;
    case 2: case 3: snprintf(buf, n, "read(%s, %s, %s, %d);", a, R, c, q); break;
    case 4: snprintf(buf, n, "r = %s;", a); break;
    case 5: snprintf(buf, n, "%s = %u;", a, 1 + rng(s) % 2); break;
    case 6: snprintf(buf, n, "%s = r + 1;", a); break;
    case 7: snprintf(buf, n, "assume(r != %u);", 1 + rng(s) % 2); break;
    default: snprintf(buf, n, with_quiet && rng(s) % 2 ? "quiet;" : "barrier;"); break;
    }
}

static char *gen_program(unsigned seed, int nranks, int len, bool with_quiet)
{
    unsigned s = seed;
    static char text[4096];
    int o = snprintf(text, sizeof text, "name gen%u\nranks %d;\nvar x, y;\nspmd {\n  r = 0;\n", seed, nranks);
    bool split = rng(&s) % 2;
    char st[128];
    if (split) {
        o += snprintf(text + o, sizeof text - o, "  if (rank == 0) {\n");
        for (int i = 0; i < len / 2 + 1; i++) {
            gen_stmt(&s, st, sizeof st, nranks, with_quiet);
            o += snprintf(text + o, sizeof text - o, "    %s\n", st);
        }
        o += snprintf(text + o, sizeof text - o, "  } else {\n");
        for (int i = 0; i < len / 2 + 1; i++) {
            gen_stmt(&s, st, sizeof st, nranks, with_quiet);
            o += snprintf(text + o, sizeof text - o, "    %s\n", st);
        }
        o += snprintf(text + o, sizeof text - o, "  }\n");
    } else {
        for (int i = 0; i < len; i++) {
            gen_stmt(&s, st, sizeof st, nranks, with_quiet);
            o += snprintf(text + o, sizeof text - o, "  %s\n", st);
        }
    }
    snprintf(text + o, sizeof text - o, "}\n");
    return text;
}

START_TEST(differential)
{
    int agree = 0, nonrobust = 0, brute_checked = 0;
    /* PGAS_SEEDS=N hunts further (CI: 400) */
    unsigned nseeds = getenv("PGAS_SEEDS") ? (unsigned)atoi(getenv("PGAS_SEEDS")) : 400;
    for (unsigned seed = 1; seed <= nseeds; seed++) {
        int N = seed % 3 == 0 ? 3 : 2;
        int len = N == 3 ? 2 : 2 + (int)(seed % 3);
        char *src = gen_program(seed, N, len, false);
        wmx_program *p = parse(src);
        pgas_opts o;
        pgas_opts_init(&o);
        o.max_states = 2000000;
        pgas_robust_result a, b;
        wmx_error err;
        ck_assert_int_eq(pgas_robust(p, PGAS_NF, &o, &a, &err), 0);
        ck_assert_int_eq(pgas_robust(p, PGAS_SEARCH, &o, &b, &err), 0);
        ck_assert_msg(a.complete && b.complete, "limit hit on:\n%s", src);
        ck_assert_msg(a.robust == b.robust, "nf says %s, search says %s on:\n%s",
                      a.robust ? "robust" : "not robust", b.robust ? "robust" : "not robust", src);
        if (!a.robust) {
            check_violation(p, &a);
            check_violation(p, &b);
            nonrobust++;
        }
        if (len <= 3) {
            int bf = brute_force(p, N);
            if (bf >= 0) {
                ck_assert_msg(bf == !b.robust, "brute force says %s, search says %s on:\n%s",
                              bf ? "not robust" : "robust", b.robust ? "robust" : "not robust", src);
                brute_checked++;
            }
        }
        agree++;
        pgas_robust_result_free(&a);
        pgas_robust_result_free(&b);
        ir_program_free(p);
    }
    fprintf(stderr, "differential: %d programs agree (%d not robust), %d also by brute force\n",
            agree, nonrobust, brute_checked);
    ck_assert_int_gt(nonrobust, 20);
    ck_assert_int_gt(agree - nonrobust, 20);
    ck_assert_int_gt(brute_checked, 50);
}
END_TEST

/* quiet: search against brute force (whose hb also has the edges from the
 * rank's pops to its quiet), and nf refuses such programs */
START_TEST(differential_quiet)
{
    int checked = 0, nonrobust = 0, with_quiet = 0;
    for (unsigned seed = 1; seed <= 300; seed++) {
        int N = seed % 3 == 0 ? 3 : 2;
        int len = N == 3 ? 2 : 2 + (int)(seed % 2);
        char *src = gen_program(seed * 7919u, N, len, true);
        /* a quiet right after a request makes quiet matter */
        if (seed % 2 == 0) {
            char *w = strstr(src, "write(");
            char *e = w ? strchr(w, ';') : NULL;
            if (e) {
                static char buf[4200];
                snprintf(buf, sizeof buf, "%.*s quiet;%s", (int)(e + 1 - src), src, e + 1);
                src = buf;
            }
        }
        wmx_program *p = parse(src);
        bool has_quiet = strstr(src, "quiet;") != NULL;
        with_quiet += has_quiet;
        pgas_opts o;
        pgas_opts_init(&o);
        o.max_states = 2000000;
        pgas_robust_result a, b;
        wmx_error err;
        ck_assert_int_eq(pgas_robust(p, PGAS_SEARCH, &o, &b, &err), 0);
        ck_assert_msg(b.complete, "limit hit on:\n%s", src);
        if (has_quiet) {
            ck_assert_int_eq(pgas_robust(p, PGAS_NF, &o, &a, &err), -1);
            ck_assert_msg(strstr(err.msg, "--method nf does not support 'quiet'") != NULL, "%s", err.msg);
            pgas_robust_result_free(&a);
        }
        if (!b.robust) {
            check_violation(p, &b);
            nonrobust++;
        }
        int bf = brute_force(p, N);
        if (bf >= 0) {
            ck_assert_msg(bf == !b.robust, "brute force says %s, search says %s on:\n%s",
                          bf ? "not robust" : "robust", b.robust ? "robust" : "not robust", src);
            checked++;
        }
        pgas_robust_result_free(&b);
        ir_program_free(p);
    }
    fprintf(stderr, "differential_quiet: %d with quiet, %d by brute force (%d not robust)\n",
            with_quiet, checked, nonrobust);
    ck_assert_int_gt(with_quiet, 100);
    ck_assert_int_gt(checked, 100);
    ck_assert_int_gt(nonrobust, 20);
}
END_TEST

/* quiet waits for the rank's queues: not enabled while a request is in
 * flight, enabled once both levels are empty */
START_TEST(quiet_machine)
{
    wmx_program *p = parse("ranks 2;\nvar x = 1, y;\nspmd {\n  write(x, (rank + 1) % nranks, y, 0);\n"
                           "  quiet;\n  barrier;\n  r = y;\n  assert(r == 1);\n}\n");
    ck_assert_int_eq(p->threads[0].instrs[1].kind, I_QUIET);
    wmx_error err;
    pgas_machine *m = pgas_machine_new(p, 0, 0, &err);
    void *s = malloc(pgas_state_size(m));
    pgas_init(m, s);
    pgas_transition st0 = { PT_STEP, 0, -1 }, pa = { PT_POPA, 0, 0 }, pb = { PT_POPB, 0, 0 };
    pgas_event ev[2];
    pgas_apply(m, s, &st0, ev);
    ck_assert(!pgas_is_enabled(m, s, &st0));
    pgas_apply(m, s, &pa, ev);
    ck_assert(!pgas_is_enabled(m, s, &st0));
    pgas_apply(m, s, &pb, ev);
    ck_assert(pgas_is_enabled(m, s, &st0));
    ck_assert_int_eq(pgas_apply(m, s, &st0, ev), 1);
    ck_assert_int_eq(ev[0].kind, PE_QUIET);
    free(s);
    pgas_machine_free(m);
    pgas_explore_result r;
    pgas_opts o;
    pgas_opts_init(&o);
    ck_assert_int_eq(pgas_explore(p, &o, &r, &err), 0);
    ck_assert_int_eq(r.nfail, 0);
    pgas_explore_result_free(&r);
    pgas_robust_result rr;
    ck_assert_int_eq(pgas_robust(p, PGAS_SEARCH, &o, &rr, &err), 0);
    ck_assert(rr.robust && rr.complete);
    pgas_robust_result_free(&rr);
    ir_program_free(p);
}
END_TEST

START_TEST(explore_1to1)
{
    wmx_program *p = parse(ONE_TO_ONE);
    pgas_opts o;
    pgas_opts_init(&o);
    pgas_explore_result r;
    wmx_error err;
    ck_assert_int_eq(pgas_explore(p, &o, &r, &err), 0);
    ck_assert(r.complete);
    ck_assert_int_eq(r.nfail, 1);
    ck_assert_int_eq(r.nfinal, 1);
    ck_assert_str_eq(r.final_text[0], "R0: x=1 y=1 r=1 | R1: x=1 y=1 r=1");
    ck_assert_int_eq(r.nblocked, 0);
    pgas_explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("pgas");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, parse_pgas);
    tcase_add_test(tc, parse_errors);
    tcase_add_test(tc, runtime_faults);
    tcase_add_test(tc, machine_steps);
    tcase_add_test(tc, one_to_one);
    tcase_add_test(tc, explore_1to1);
    tcase_add_test(tc, differential);
    tcase_add_test(tc, differential_quiet);
    tcase_add_test(tc, quiet_machine);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
