/* irbuild.h - building small IR programs by hand, for the unit tests
 * (shared so each test file does not grow its own copy). */
#ifndef WMX_TEST_IRBUILD_H
#define WMX_TEST_IRBUILD_H

#include "ir.h"

/* the source location every hand-built instruction gets */
static const wmx_srcloc L = { 1, 1, 0 };

/* [var] = v */
static inline void store(wmx_program *p, int t, int var, wmx_val v)
{
    ir_instr in = ir_instr_init(I_STORE, L);
    in.addr.var = var;
    in.e1 = ir_const(p, v);
    ir_add_instr(p, t, &in);
}

/* reg = [var]; returns the register's index */
static inline int load(wmx_program *p, int t, const char *reg, int var)
{
    ir_instr in = ir_instr_init(I_LOAD, L);
    in.addr.var = var;
    in.dst = ir_thread_reg(p, t, reg);
    ir_add_instr(p, t, &in);
    return in.dst;
}

static inline void fence(wmx_program *p, int t)
{
    ir_instr in = ir_instr_init(I_FENCE, L);
    ir_add_instr(p, t, &in);
}

/* reg = xchg/faa/cas(var, a[, b]); reg may be NULL (result dropped) */
static inline void rmw(wmx_program *p, int t, ir_kind k, const char *reg, int var, wmx_val a, wmx_val b)
{
    ir_instr in = ir_instr_init(k, L);
    in.addr.var = var;
    in.e1 = ir_const(p, a);
    if (k == I_CAS)
        in.e2 = ir_const(p, b);
    in.dst = reg ? ir_thread_reg(p, t, reg) : -1;
    ir_add_instr(p, t, &in);
}

/* reg = trylock(var, a, b): a CAS of a to b that, when it fails, writes
 * back what it read (the C front end's pthread_mutex_trylock) */
static inline void trylock_wb(wmx_program *p, int t, const char *reg, int var, wmx_val a, wmx_val b)
{
    ir_instr in = ir_instr_init(I_CAS, L);
    in.addr.var = var;
    in.e1 = ir_const(p, a);
    in.e2 = ir_const(p, b);
    in.writes_back = true;
    in.dst = reg ? ir_thread_reg(p, t, reg) : -1;
    ir_add_instr(p, t, &in);
}

/* [reg =] xchg_await(var, cmp, a, b): a blocking CAS with another
 * comparison, which waits until ([var] cmp a) and then writes b (the C
 * front end's __VERIFIER_xchg_await_aint) */
static inline void xchg_await(wmx_program *p, int t, const char *reg, int var, ir_op cmp, wmx_val a, wmx_val b)
{
    ir_instr in = ir_instr_init(I_CAS, L);
    in.addr.var = var;
    in.cmp = cmp;
    in.e1 = ir_const(p, a);
    in.e2 = ir_const(p, b);
    in.blocking = true;
    in.dst = reg ? ir_thread_reg(p, t, reg) : -1;
    ir_add_instr(p, t, &in);
}

/* [reg =] lock(var, a, b): a blocking CAS, which waits until [var] == a
 * and then writes b (the C front end's pthread_mutex_lock) */
static inline void lock_cas(wmx_program *p, int t, const char *reg, int var, wmx_val a, wmx_val b)
{
    xchg_await(p, t, reg, var, OP_EQ, a, b);
}

/* [reg =] await([var] cmp v); reg may be NULL */
static inline void await_(wmx_program *p, int t, const char *reg, int var, ir_op cmp, wmx_val v)
{
    ir_instr in = ir_instr_init(I_AWAIT, L);
    in.addr.var = var;
    in.cmp = cmp;
    in.e1 = ir_const(p, v);
    in.dst = reg ? ir_thread_reg(p, t, reg) : -1;
    ir_add_instr(p, t, &in);
}

/* reg = e */
static inline void let(wmx_program *p, int t, int reg, int e)
{
    ir_instr in = ir_instr_init(I_LET, L);
    in.dst = reg;
    in.e1 = e;
    ir_add_instr(p, t, &in);
}

static inline void assume(wmx_program *p, int t, int e)
{
    ir_instr in = ir_instr_init(I_ASSUME, L);
    in.e1 = e;
    ir_add_instr(p, t, &in);
}

static inline void assert_(wmx_program *p, int t, int e)
{
    ir_instr in = ir_instr_init(I_ASSERT, L);
    in.e1 = e;
    ir_add_instr(p, t, &in);
}

/* if (e) goto target; returns the jump's index (to patch target later) */
static inline int jump(wmx_program *p, int t, int e, int target)
{
    ir_instr in = ir_instr_init(I_JUMP, L);
    in.e1 = e;
    in.target = target;
    return ir_add_instr(p, t, &in);
}

static inline int ninstr(const wmx_program *p, int t) { return p->threads[t].ninstrs; }

#endif
