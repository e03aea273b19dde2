/* spin_await.c - spin branches become awaits (see spin_await.h). */
#include "spin_await.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* An assume(false) whose run is thrown away: where a spin loop would go
 * round again, abort(), or assume(false) itself (not a loop bound's cut,
 * which is counted, nor exit(), which ends a complete run). */
static bool is_spin_block(const wmx_program *p, const ir_instr *in)
{
    return in->kind == I_ASSUME && !in->bound_cut && in->ends != IR_ENDS_EXIT && in->e1 >= 0 &&
           p->exprs[in->e1].op == OP_CONST && p->exprs[in->e1].value == 0;
}

/* The spin assume that instruction i reaches with nothing done on the way
 * (through unconditional jumps), or -1. */
static int reaches_spin(const wmx_program *p, const ir_thread *th, int i)
{
    for (int hops = 0; i >= 0 && i < th->ninstrs && hops < 16; hops++) {
        const ir_instr *in = &th->instrs[i];
        if (is_spin_block(p, in))
            return i;
        if (in->kind == I_NOP)
            i++;
        else if (in->kind == I_JUMP && in->e1 < 0)
            i = in->target;
        else
            return -1;
    }
    return -1;
}

static bool is_const(const wmx_program *p, int e, wmx_val v);

/* The end of an SV-COMP atomic section (core/cfront.c): an exchange of its
 * lock that keeps nothing. */
static bool is_section_end(const wmx_program *p, const ir_instr *in)
{
    return in->kind == I_XCHG && in->dst < 0 && in->addr.var >= 0 && in->addr.ptr < 0 &&
           strcmp(p->vars[in->addr.var].name, "$atomic") == 0;
}

/* An expression whose value is 0 or 1: a comparison, !, and C's i1
 * arithmetic on those (c ^ 1, c & 1). */
static bool is_truth(const wmx_program *p, int e, int depth)
{
    if (e < 0 || depth > 32)
        return false;
    const ir_expr *x = &p->exprs[e];
    if (ir_op_is_cmp(x->op) || x->op == OP_NOT || x->op == OP_LAND || x->op == OP_LOR)
        return true;
    if ((x->op == OP_XOR || x->op == OP_AND) && is_const(p, x->b, 1))
        return is_truth(p, x->a, depth + 1);
    return false;
}

/* The symbolic value of each register after the lets that follow the load:
 * env[r] = an expression over the registers as they were at the load, or
 * -1 for "unchanged". */
typedef struct subst {
    wmx_program *p;
    int *env;
    int nregs;
    int loaded;      /* the load's destination register */
    int depth;
} subst;

static int subst_expr(subst *s, int e)
{
    if (e < 0 || ++s->depth > 200)
        return -1;
    ir_expr x = s->p->exprs[e];
    int r = e;
    if (x.op == OP_REG) {
        if (x.reg >= 0 && x.reg < s->nregs && s->env[x.reg] >= 0)
            r = s->env[x.reg];
    } else if (x.a >= 0) {
        int a = subst_expr(s, x.a);
        int b = x.b >= 0 ? subst_expr(s, x.b) : -1;
        if (a < 0 || (x.b >= 0 && b < 0))
            r = -1;
        else if (a != x.a || b != x.b)
            r = x.b >= 0 ? ir_binop(s->p, x.op, a, b) : ir_unop(s->p, x.op, a);
    }
    s->depth--;
    return r;
}

static bool is_const(const wmx_program *p, int e, wmx_val v)
{
    return e >= 0 && p->exprs[e].op == OP_CONST && p->exprs[e].value == v;
}

/* Reads cond (0/1 valued where it is a comparison) as `loaded cmp other`:
 * true and the parts when it is one. */
static bool as_comparison(wmx_program *p, int e, int loaded, ir_op *cmp, int *other)
{
    bool neg = false;
    for (int guard = 0; guard < 16 && e >= 0; guard++) {
        const ir_expr *x = &p->exprs[e];
        if (x->op == OP_NOT || (x->op == OP_XOR && is_const(p, x->b, 1) && is_truth(p, x->a, 0))) {
            /* !c, and C's `!v` on a comparison: c ^ 1 */
            neg = !neg;
            e = x->a;
        } else if (x->op == OP_REG && x->reg == loaded) {
            /* the value read used as a truth value: v != 0 */
            *other = ir_const(p, 0);
            *cmp = neg ? OP_EQ : OP_NE;
            return true;
        } else if ((x->op == OP_AND && is_const(p, x->b, 1) && is_truth(p, x->a, 0)) ||
                   (x->op == OP_NE && is_const(p, x->b, 0) && is_truth(p, x->a, 0))) {
            e = x->a;
        } else if (x->op == OP_EQ && is_const(p, x->b, 0) && is_truth(p, x->a, 0)) {
            neg = !neg;
            e = x->a;
        } else if (ir_op_is_cmp(x->op)) {
            ir_op op = x->op;
            int a = x->a, b = x->b;
            if (a >= 0 && p->exprs[a].op == OP_REG && p->exprs[a].reg == loaded && !ir_expr_uses(p, b, loaded)) {
                *other = b;
            } else if (b >= 0 && p->exprs[b].op == OP_REG && p->exprs[b].reg == loaded &&
                       !ir_expr_uses(p, a, loaded)) {
                *other = a;
                op = ir_cmp_swap(op);
            } else {
                return false;
            }
            *cmp = neg ? ir_cmp_negate(op) : op;
            return true;
        } else {
            return false;
        }
    }
    return false;
}

static void set_text(ir_instr *in, const char *text)
{
    free(in->text);
    in->text = wmx_strdup(text);
}

/* Tries the conditional jump j whose one side blocks at a spin assume.
 * NULL when it rewrote the read before it, else why not. */
/* An access to a variable only thread t touches (ir_var_owners): what it
 * stores there no other thread sees, so its value can be followed. */
static bool private_access(const wmx_program *p, const ir_instr *in, const int *owner, int t)
{
    return (in->kind == I_LOAD || in->kind == I_STORE) && in->addr.var >= 0 && in->addr.ptr < 0 &&
           p->vars[in->addr.var].length == 1 && (in->addr.index < 0 || is_const(p, in->addr.index, 0)) &&
           owner[in->addr.var] == t;
}

static const char *try_jump(wmx_program *p, int t, int j, bool block_when_true, bool spin, const int *owner)
{
    ir_thread *th = &p->threads[t];
    int k = j - 1, ended = 0;
    /* (an abort may test the read after its section ended, through a
     * variable only this thread touches: pthread-wmm's `__VERIFIER_atomic_begin();
     * g = cnt == 3; __VERIFIER_atomic_end(); if (!g) abort();`) */
    while (k >= 0 && (th->instrs[k].kind == I_LET ||
                      (!spin && (th->instrs[k].kind == I_NOP || th->instrs[k].kind == I_FENCE ||
                                 private_access(p, &th->instrs[k], owner, t))) ||
                      (!spin && !ended && is_section_end(p, &th->instrs[k]) && (ended = 1))))
        k--;
    if (k < 0)
        return "its exit test reads no memory";
    ir_instr *rd = &th->instrs[k];
    if (!spin) {
        /* abort() or assume(false): only the first read of an SV-COMP
         * atomic section (`if (!(m == 0)) abort(); m = 1;`, which
         * cfront's sections then make one cas); elsewhere the run stays
         * an aborted one, as the user wrote it */
        int b = k - 1;
        while (b >= 0 && (th->instrs[b].kind == I_LET || th->instrs[b].kind == I_NOP))
            b--;
        const ir_instr *lk = b >= 0 ? &th->instrs[b] : NULL;
        if (!lk || lk->kind != I_CAS || !lk->blocking || lk->addr.var < 0 ||
            strcmp(p->vars[lk->addr.var].name, "$atomic") != 0)
            return "not in an atomic section";
    }
    if (rd->kind != I_LOAD && rd->kind != I_XCHG)
        return rd->kind == I_AWAIT ? NULL : "its exit test is not decided by one load";
    if (rd->dst < 0)
        return "its exit test does not use the value read";
    /* a __VERIFIER_nondet value (a cell of its own, core/cfront.c): its
     * runs that abort stay aborted runs, as the user wrote them */
    if (rd->addr.var >= 0 && strncmp(p->vars[rd->addr.var].name, "$nondet.", 8) == 0)
        return "it tests a __VERIFIER_nondet value";
    subst s = { p, wmx_malloc((size_t)(th->nregs ? th->nregs : 1) * sizeof(int)), th->nregs, rd->dst, 0 };
    for (int r = 0; r < th->nregs; r++)
        s.env[r] = -1;
    const char *why = NULL;
    int *stored = NULL;          /* per variable: the expression stored there, or -1 */
    for (int i = k + 1; i < j && !why; i++) {
        const ir_instr *let = &th->instrs[i];
        if (let->kind == I_LOAD && let->dst == rd->dst) {
            why = "it overwrites the value it read";
        } else if (let->kind == I_STORE || let->kind == I_LOAD) {
            if (!stored) {
                stored = wmx_malloc((size_t)(p->nvars ? p->nvars : 1) * sizeof *stored);
                for (int v = 0; v < p->nvars; v++)
                    stored[v] = -1;
            }
            if (let->kind == I_STORE) {
                stored[let->addr.var] = subst_expr(&s, let->e1);
            } else if (stored[let->addr.var] < 0) {
                why = "its exit test reads a variable it did not store";
            } else if (let->dst >= 0 && let->dst < th->nregs) {
                s.env[let->dst] = stored[let->addr.var];
            }
        } else if (let->kind != I_LET) {
            continue;    /* a fence, the section's end */
        } else if (let->dst == rd->dst)
            why = "it overwrites the value it read";
        else if (let->dst >= 0 && let->dst < th->nregs) {
            int e = subst_expr(&s, let->e1);
            if (e < 0)
                why = "its exit test is too deep";
            else
                s.env[let->dst] = e;
        }
    }
    ir_op cmp = OP_EQ;
    int other = -1;
    if (!why) {
        int cond = subst_expr(&s, th->instrs[j].e1);
        if (cond < 0 || !as_comparison(p, cond, rd->dst, &cmp, &other))
            why = "its exit test is not a comparison of the value read with registers and constants";
    }
    free(s.env);
    free(stored);
    if (why)
        return why;
    /* the read passes when the loop is left */
    ir_op pass = block_when_true ? ir_cmp_negate(cmp) : cmp;
    if (rd->kind == I_LOAD) {
        rd->kind = I_AWAIT;
        rd->cmp = pass;
        rd->e1 = other;
    } else {
        /* an exchange that waits: a blocking CAS writing the same value */
        int value = rd->e1;
        rd->kind = I_CAS;
        rd->blocking = true;
        rd->cmp = pass;
        rd->e1 = other;
        rd->e2 = value;
        rd->dst2 = -1;
    }
    return NULL;
}

int spin_to_await(wmx_program *p)
{
    int rewrites = 0;
    int *owner = wmx_malloc((size_t)(p->nvars ? p->nvars : 1) * sizeof *owner);
    ir_var_owners(p, owner);
    for (int t = 0; t < p->nthreads; t++) {
        ir_thread *th = &p->threads[t];
        const char **why = wmx_calloc((size_t)(th->ninstrs ? th->ninstrs : 1), sizeof *why);
        bool *reached = wmx_calloc((size_t)(th->ninstrs ? th->ninstrs : 1), sizeof *reached);
        for (int j = 0; j < th->ninstrs; j++) {
            const ir_instr *in = &th->instrs[j];
            if (in->kind != I_JUMP)
                continue;
            if (in->e1 < 0) {
                int s = reaches_spin(p, th, in->target);
                if (s >= 0 && !why[s] && !reached[s])
                    why[s] = "it is entered with no exit test";
                continue;
            }
            int taken = reaches_spin(p, th, in->target), fall = reaches_spin(p, th, j + 1);
            if ((taken >= 0) == (fall >= 0))
                continue;
            int s = taken >= 0 ? taken : fall;
            const char *w = try_jump(p, t, j, taken >= 0, th->instrs[s].spin, owner);
            if (w) {
                if (!why[s])
                    why[s] = w;
            } else {
                rewrites++;
                reached[s] = true;
            }
        }
        for (int s = 0; s < th->ninstrs; s++) {
            /* a join of a thread never created, an unreachable point: those
             * block too, but keep saying why */
            if (!is_spin_block(p, &th->instrs[s]) || !th->instrs[s].spin ||
                !th->instrs[s].text || strncmp(th->instrs[s].text, "(spin loop", 10) != 0)
                continue;
            if (why[s]) {
                wmx_strbuf b = { 0 };
                wmx_strbuf_printf(&b, "(spin loop: waits; assume it exits; not an await: %s)", why[s]);
                set_text(&th->instrs[s], b.s);
                free(b.s);
            } else if (reached[s]) {
                set_text(&th->instrs[s], "(spin loop: its read became an await; not reached)");
            }
        }
        free(why);
        free(reached);
    }
    free(owner);
    return rewrites;
}
