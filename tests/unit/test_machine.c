/* test_machine.c - the SC/TSO/PSO machines and the naive explorer on
 * programs built directly in the IR (independent of the parsers). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "machine.h"
#include "irbuild.h"

static int atom(wmx_program *p, int thread, int reg, int cell, wmx_val v)
{
    ir_cond c = { C_EQ, -1, -1, { thread, reg, cell }, v, false };
    return ir_add_cond(p, &c);
}

static int and2(wmx_program *p, int a, int b)
{
    ir_cond c = { C_AND, a, b, { -1, -1, -1 }, 0, false };
    return ir_add_cond(p, &c);
}

/* SB: P0: x=1; r0=y   P1: y=1; r0=x   exists r0=0 /\ r0=0; fences optional */
static wmx_program *make_sb(bool fences)
{
    wmx_program *p = ir_program_new("SB", "sb", "wmx");
    int x = ir_add_var(p, "x", 1), y = ir_add_var(p, "y", 1);
    int t0 = ir_add_thread(p, "P0"), t1 = ir_add_thread(p, "P1");
    store(p, t0, x, 1);
    if (fences) fence(p, t0);
    load(p, t0, "r0", y);
    store(p, t1, y, 1);
    if (fences) fence(p, t1);
    load(p, t1, "r0", x);
    p->quant = Q_EXISTS;
    p->cond_root = and2(p, atom(p, 0, 0, -1, 0), atom(p, 1, 0, -1, 0));
    return p;
}

/* MP: P0: x=1; y=1   P1: r0=y; r1=x   exists r0=1 /\ r1=0 */
static wmx_program *make_mp(void)
{
    wmx_program *p = ir_program_new("MP", "mp", "wmx");
    int x = ir_add_var(p, "x", 1), y = ir_add_var(p, "y", 1);
    int t0 = ir_add_thread(p, "P0"), t1 = ir_add_thread(p, "P1");
    store(p, t0, x, 1);
    store(p, t0, y, 1);
    load(p, t1, "r0", y);
    load(p, t1, "r1", x);
    p->quant = Q_EXISTS;
    p->cond_root = and2(p, atom(p, 1, 0, -1, 1), atom(p, 1, 1, -1, 0));
    return p;
}

static explore_result run(wmx_program *p, wmx_model model)
{
    explore_opts o;
    explore_opts_init(&o);
    o.model = model;
    explore_result r;
    wmx_error err;
    ck_assert_int_eq(explore_naive(p, &o, &r, &err), 0);
    return r;
}

START_TEST(sb_verdicts)
{
    wmx_program *p = make_sb(false);
    explore_result r = run(p, MODEL_SC);
    ck_assert_int_eq(r.nstates, 3);
    ck_assert(!explore_cond_ok(&r));
    explore_result_free(&r);
    r = run(p, MODEL_TSO);
    ck_assert_int_eq(r.nstates, 4);
    ck_assert(explore_cond_ok(&r));
    ck_assert_str_eq(explore_observation(&r), "Sometimes");
    explore_result_free(&r);
    r = run(p, MODEL_PSO);
    ck_assert_int_eq(r.nstates, 4);
    explore_result_free(&r);
    ir_program_free(p);
    p = make_sb(true);
    r = run(p, MODEL_TSO);
    ck_assert_int_eq(r.nstates, 3);
    ck_assert(!explore_cond_ok(&r));
    explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

START_TEST(mp_pso_only)
{
    wmx_program *p = make_mp();
    explore_result r = run(p, MODEL_SC);
    ck_assert(!explore_cond_ok(&r));
    explore_result_free(&r);
    r = run(p, MODEL_TSO);
    ck_assert(!explore_cond_ok(&r));
    explore_result_free(&r);
    r = run(p, MODEL_PSO);
    ck_assert(explore_cond_ok(&r));
    explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

START_TEST(tso_forwarding_and_fence)
{
    /* P0: x=1; r0=x; fence.  The load must see 1 from the buffer while x is
     * still 0 in memory, and the fence must wait for the flush. */
    wmx_program *p = ir_program_new("fwd", "fwd", "wmx");
    int x = ir_add_var(p, "x", 1);
    int t0 = ir_add_thread(p, "P0");
    store(p, t0, x, 1);
    load(p, t0, "r0", x);
    fence(p, t0);
    wmx_machine *m = machine_new(p, MODEL_TSO, NULL);
    void *s = malloc(machine_state_size(m));
    machine_init(m, s);
    wmx_transition en[8];
    ck_assert_int_eq(machine_enabled(m, s, en), 1);
    wmx_event ev;
    machine_apply(m, s, &en[0], &ev);
    ck_assert_int_eq(ev.kind, EV_WRITE_BUF);
    ck_assert_int_eq(machine_memory(m, s)[0], 0);
    const buf_entry *b;
    ck_assert_int_eq(machine_buffer(m, s, 0, &b), 1);
    ck_assert_int_eq(b[0].value, 1);
    /* step (load) and flush are enabled */
    ck_assert_int_eq(machine_enabled(m, s, en), 2);
    ck_assert_int_eq(en[0].kind, TR_STEP);
    machine_apply(m, s, &en[0], &ev);
    ck_assert_int_eq(ev.kind, EV_READ);
    ck_assert(ev.from_buffer);
    ck_assert_int_eq(ev.value, 1);
    ck_assert_int_eq(ev.rf, EID_MAKE(0, 0));
    /* the fence is not enabled until the buffer drains */
    ck_assert_int_eq(machine_enabled(m, s, en), 1);
    ck_assert_int_eq(en[0].kind, TR_FLUSH);
    wmx_transition step = { TR_STEP, 0, -1 };
    ck_assert(!machine_is_enabled(m, s, &step));
    machine_apply(m, s, &en[0], &ev);
    ck_assert_int_eq(ev.kind, EV_WRITE_MEM);
    ck_assert_int_eq(machine_memory(m, s)[0], 1);
    ck_assert(machine_is_enabled(m, s, &step));
    machine_apply(m, s, &step, &ev);
    ck_assert_int_eq(ev.kind, EV_FENCE);
    ck_assert(machine_is_final(m, s));
    ck_assert(!machine_is_blocked(m, s));
    free(s);
    machine_free(m);
    ir_program_free(p);
}
END_TEST

START_TEST(cond_settled_when_its_threads_are_done)
{
    /* SB under TSO: the condition reads P0's and P1's r0.  It is settled
     * once both threads are done, although their stores are still buffered
     * (issue 44: the status line shows it then); an atom on memory settles
     * only in a final state. */
    wmx_program *p = make_sb(false);
    wmx_machine *m = machine_new(p, MODEL_TSO, NULL);
    void *s = malloc(machine_state_size(m));
    machine_init(m, s);
    ck_assert(!machine_cond_settled(m, s));
    wmx_event ev;
    wmx_transition p0 = { TR_STEP, 0, -1 }, p1 = { TR_STEP, 1, -1 };
    machine_apply(m, s, &p0, &ev);
    machine_apply(m, s, &p0, &ev);
    ck_assert(!machine_cond_settled(m, s));     /* P1 has not loaded yet */
    machine_apply(m, s, &p1, &ev);
    machine_apply(m, s, &p1, &ev);
    ck_assert(!machine_is_final(m, s));         /* two stores still buffered */
    ck_assert(machine_cond_settled(m, s));
    /* the same run with the condition on memory: x can still change */
    p->cond_root = atom(p, -1, -1, 0, 1);
    ck_assert(!machine_cond_settled(m, s));
    wmx_transition en[8];
    while (!machine_is_final(m, s)) {
        ck_assert_int_ge(machine_enabled(m, s, en), 1);
        machine_apply(m, s, &en[0], &ev);
    }
    ck_assert(machine_cond_settled(m, s));
    free(s);
    machine_free(m);
    ir_program_free(p);
}
END_TEST

START_TEST(pso_per_variable_flush)
{
    /* P0: x=1; y=1; x=2.  PSO may flush y first, but x's entries stay FIFO. */
    wmx_program *p = ir_program_new("pso", "pso", "wmx");
    int x = ir_add_var(p, "x", 1), y = ir_add_var(p, "y", 1);
    int t0 = ir_add_thread(p, "P0");
    store(p, t0, x, 1);
    store(p, t0, y, 1);
    store(p, t0, x, 2);
    wmx_machine *m = machine_new(p, MODEL_PSO, NULL);
    void *s = malloc(machine_state_size(m));
    machine_init(m, s);
    wmx_transition en[8];
    wmx_event ev;
    for (int i = 0; i < 3; i++) {
        wmx_transition st = { TR_STEP, 0, -1 };
        machine_apply(m, s, &st, &ev);
    }
    int n = machine_enabled(m, s, en);
    ck_assert_int_eq(n, 2);          /* flush x (oldest: 1), flush y */
    ck_assert_int_eq(en[0].cell, x);
    ck_assert_int_eq(en[1].cell, y);
    machine_apply(m, s, &en[1], &ev);   /* y first: allowed under PSO */
    ck_assert_int_eq(ev.cell, y);
    ck_assert_int_eq(machine_memory(m, s)[y], 1);
    ck_assert_int_eq(machine_memory(m, s)[x], 0);
    n = machine_enabled(m, s, en);
    ck_assert_int_eq(n, 1);
    machine_apply(m, s, &en[0], &ev);
    ck_assert_int_eq(ev.value, 1);      /* x=1 before x=2 */
    machine_apply(m, s, &en[0], &ev);
    ck_assert_int_eq(ev.value, 2);
    ck_assert_int_eq(machine_memory(m, s)[x], 2);
    free(s);
    machine_free(m);
    /* under TSO only the oldest entry (x=1) may go */
    m = machine_new(p, MODEL_TSO, NULL);
    s = malloc(machine_state_size(m));
    machine_init(m, s);
    for (int i = 0; i < 3; i++) {
        wmx_transition st = { TR_STEP, 0, -1 };
        machine_apply(m, s, &st, &ev);
    }
    ck_assert_int_eq(machine_enabled(m, s, en), 1);
    machine_apply(m, s, &en[0], &ev);
    ck_assert_int_eq(ev.cell, x);
    ck_assert_int_eq(ev.value, 1);
    free(s);
    machine_free(m);
    ir_program_free(p);
}
END_TEST

START_TEST(rmw_atomic_counter)
{
    /* two threads each FAA(x, 1) twice: x ends at 4 in every execution and
     * under every model; a plain load/store increment would lose updates. */
    for (int model = MODEL_SC; model <= MODEL_PSO; model++) {
        wmx_program *p = ir_program_new("faa", "faa", "wmx");
        int x = ir_add_var(p, "x", 1);
        for (int t = 0; t < 2; t++) {
            int th = ir_add_thread(p, t ? "P1" : "P0");
            for (int k = 0; k < 2; k++) {
                ir_instr in = ir_instr_init(I_FAA, L);
                in.addr.var = x;
                in.e1 = ir_const(p, 1);
                ir_add_instr(p, th, &in);
            }
        }
        p->quant = Q_FORALL;
        p->cond_root = atom(p, -1, -1, x, 4);
        explore_result r = run(p, (wmx_model)model);
        ck_assert(explore_cond_ok(&r));
        ck_assert_int_eq(r.nstates, 1);
        ck_assert_int_eq(r.traces, 6);      /* (4 choose 2) interleavings */
        explore_result_free(&r);
        ir_program_free(p);
    }
}
END_TEST

START_TEST(xchg_waits_for_buffer)
{
    /* P0: x=1; r0 = xchg(y, 1) under TSO: the RMW is not enabled while x=1
     * is buffered. */
    wmx_program *p = ir_program_new("xchg", "xchg", "wmx");
    int x = ir_add_var(p, "x", 1), y = ir_add_var(p, "y", 1);
    int t0 = ir_add_thread(p, "P0");
    store(p, t0, x, 1);
    ir_instr in = ir_instr_init(I_XCHG, L);
    in.addr.var = y;
    in.e1 = ir_const(p, 1);
    in.dst = ir_thread_reg(p, t0, "r0");
    ir_add_instr(p, t0, &in);
    wmx_machine *m = machine_new(p, MODEL_TSO, NULL);
    void *s = malloc(machine_state_size(m));
    machine_init(m, s);
    wmx_transition st = { TR_STEP, 0, -1 };
    wmx_event ev;
    machine_apply(m, s, &st, &ev);
    ck_assert(!machine_is_enabled(m, s, &st));
    wmx_transition fl = { TR_FLUSH, 0, -1 };
    machine_apply(m, s, &fl, &ev);
    ck_assert(machine_is_enabled(m, s, &st));
    machine_apply(m, s, &st, &ev);
    ck_assert_int_eq(ev.kind, EV_RMW);
    ck_assert_int_eq(machine_memory(m, s)[y], 1);
    free(s);
    machine_free(m);
    ir_program_free(p);
}
END_TEST

START_TEST(assume_blocks_assert_fails)
{
    wmx_program *p = ir_program_new("blk", "blk", "wmx");
    int x = ir_add_var(p, "x", 1);
    int t0 = ir_add_thread(p, "P0"), t1 = ir_add_thread(p, "P1");
    store(p, t0, x, 1);
    load(p, t1, "r0", x);
    ir_instr a = ir_instr_init(I_ASSUME, L);
    a.e1 = ir_reg(p, ir_find_reg(p, t1, "r0"));
    ir_add_instr(p, t1, &a);
    ir_instr as = ir_instr_init(I_ASSERT, L);
    as.e1 = ir_const(p, 0);
    as.text = "assert(0)";
    ir_add_instr(p, t1, &as);
    explore_result r = run(p, MODEL_SC);
    /* r0=0: blocked by the assume; r0=1: reaches the failing assert */
    ck_assert_int_eq(r.blocked, 1);
    ck_assert_int_eq(r.traces, 1);
    ck_assert_int_eq(r.nerrors, 1);
    ck_assert(strstr(r.errors[0].message, "assertion failed") != NULL);
    explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

START_TEST(max_traces_partial)
{
    wmx_program *p = make_sb(false);
    explore_opts o;
    explore_opts_init(&o);
    o.max_traces = 2;
    explore_result r;
    ck_assert_int_eq(explore_naive(p, &o, &r, NULL), 0);
    ck_assert(!r.complete);
    ck_assert_str_eq(r.stop_reason, "max-traces");
    ck_assert_int_eq(r.traces, 2);
    explore_result_free(&r);
    ir_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("machine");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, sb_verdicts);
    tcase_add_test(tc, mp_pso_only);
    tcase_add_test(tc, tso_forwarding_and_fence);
    tcase_add_test(tc, pso_per_variable_flush);
    tcase_add_test(tc, cond_settled_when_its_threads_are_done);
    tcase_add_test(tc, rmw_atomic_counter);
    tcase_add_test(tc, xchg_waits_for_buffer);
    tcase_add_test(tc, assume_blocks_assert_fails);
    tcase_add_test(tc, max_traces_partial);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
