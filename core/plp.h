/* plp.h - the partial loop purity (PLP) rewrite of seed 003.
 *
 * An iteration of a loop is pure when it writes no shared memory and leaves
 * no register value that a later instruction can see (every register it
 * writes is overwritten before being read on the way back to the head).
 * PLP blocks pure iterations with an `assume` placed where the thread can
 * tell that the iteration is pure; with --to await, a load followed by such
 * an assume on the loaded value becomes an `await` on the shared variable.
 *
 * Handled loops: straight-line bodies (the shapes the native parser lowers
 * `while (c) bound N { ... }` and `do { ... } while (c) bound N;` into)
 * without stores, RMWs, assertions or nested control flow.  Other loops are
 * left unchanged.
 *
 * Instruction indices are preserved: the rewritten program has exactly the
 * instructions of the original, some replaced in place (an assume, an
 * await, an unconditional jump or a nop), so instruction i of thread t in
 * the result corresponds to instruction i of thread t in the original; the
 * list of changes names each one.
 */
#ifndef WMX_PLP_H
#define WMX_PLP_H

#include "ir.h"
#include "util.h"

typedef enum plp_mode { PLP_ASSUME, PLP_AWAIT } plp_mode;

typedef struct plp_change {
    int thread, instr;       /* the same position in both programs */
    int loop;                /* index into the thread's loops */
    ir_kind from, to;
} plp_change;

typedef struct plp_result {
    wmx_program *prog;       /* the rewritten program, owned */
    int nchanges;
    plp_change *changes;
    int loops_total;         /* loops in the program */
    int loops_assume;        /* loops whose pure iterations are now assume-blocked */
    int loops_await;         /* ... of which turned into an await */
} plp_result;

/* Rewrites a copy of p; returns 0 (p is not modified). */
int plp_transform(const wmx_program *p, plp_mode mode, plp_result *out, wmx_error *err);
void plp_result_free(plp_result *r);

/* A deep copy of a program. */
wmx_program *plp_copy_program(const wmx_program *p);

/* The program as a listing, one instruction per line, with the rewritten
 * instructions marked (pass res = NULL for a plain listing). */
char *plp_format(const wmx_program *p, const plp_result *res);

#endif
