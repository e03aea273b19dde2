/* irbuild.h - building small IR programs by hand, for the unit tests
 * (shared so each test file does not grow its own copy). */
#ifndef WMX_TEST_IRBUILD_H
#define WMX_TEST_IRBUILD_H

#include "ir.h"

/* the source location every hand-built instruction gets */
static const wmx_srcloc L = { 1, 1 };

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

#endif
