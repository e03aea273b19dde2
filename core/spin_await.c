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

/* A spin assume whose test is not the constant false: PLP's "this time
 * round changed nothing" (core/cfront.c), `assume(changed)`. */
static bool is_spin_test(const wmx_program *p, const ir_instr *in)
{
    return in->kind == I_ASSUME && in->spin && !in->bound_cut && in->ends == IR_ENDS_NONE &&
           in->e1 >= 0 && p->exprs[in->e1].op != OP_CONST;
}

/* The spin assume that instruction i reaches with nothing done on the way
 * (through unconditional jumps), or -1; with `tested`, one of PLP's
 * assume(changed) too. */
static int reaches_spin(const wmx_program *p, const ir_thread *th, int i, bool tested)
{
    for (int hops = 0; i >= 0 && i < th->ninstrs && hops < 16; hops++) {
        const ir_instr *in = &th->instrs[i];
        if (tested ? is_spin_test(p, in) : is_spin_block(p, in))
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
 * env[r] = an expression over the registers as they were at the load, -1
 * for "unchanged", or POISONED when a jump that skips lets makes it depend
 * on the way taken. */
enum { POISONED = -2 };
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
        if (x.reg >= 0 && x.reg < s->nregs && s->env[x.reg] == POISONED)
            r = -1;             /* its value depends on the way taken */
        else if (x.reg >= 0 && x.reg < s->nregs && s->env[x.reg] >= 0)
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

static bool is_const_expr(const wmx_program *p, int e)
{
    return e >= 0 && p->exprs[e].op == OP_CONST;
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

/* A jump at k inside the straight line k .. j that only skips lets: it goes
 * forward to m (k < m <= j), or to lets elsewhere that jump back to such an
 * m (LLVM's phi copies: `e` keeps 1 when a compare-exchange succeeded).
 * Returns m, or -1; *side is where its lets elsewhere start (-1: none). */
static int skip_lets(const ir_thread *th, int k, int j, int *side)
{
    const ir_instr *in = &th->instrs[k];
    *side = -1;
    if (in->kind != I_JUMP)
        return -1;
    int i = in->target;
    if (i > k && i <= j)
        return i;
    *side = i;
    for (int hops = 0; i >= 0 && i < th->ninstrs && hops < 64; hops++) {
        const ir_instr *x = &th->instrs[i];
        if (x->kind == I_LET || x->kind == I_NOP)
            i++;
        else if (x->kind == I_JUMP && x->e1 < 0 && x->target > k && x->target <= j)
            return x->target;
        else
            return -1;
    }
    return -1;
}

static bool is_skip_jump(const ir_thread *th, int k, int j)
{
    int side;
    return skip_lets(th, k, j, &side) >= 0;
}

static bool defines_reg(const ir_instr *in, int r)
{
    return in->dst == r || (in->kind == I_CAS && in->dst2 == r);
}

/* The value register r holds whenever instruction k is reached, when every
 * way in sets it to the same constant (a backward search over the thread's
 * jumps): PLP's "changed" flag, cleared at the head of its loop. */
static bool reg_const_at(const wmx_program *p, const ir_thread *th, int k, int r, wmx_val *val)
{
    int n = th->ninstrs;
    int *npred = wmx_calloc((size_t)n + 1, sizeof *npred);
    for (int i = 0; i < n; i++) {
        const ir_instr *in = &th->instrs[i];
        bool falls = in->kind != I_HALT && !(in->kind == I_JUMP && in->e1 < 0);
        if (falls && i + 1 < n)
            npred[i + 2]++;
        if (in->kind == I_JUMP && in->target >= 0 && in->target < n)
            npred[in->target + 1]++;
    }
    for (int i = 0; i < n; i++)
        npred[i + 1] += npred[i];
    int *pred = wmx_malloc((size_t)(npred[n] ? npred[n] : 1) * sizeof *pred);
    int *fill = wmx_malloc((size_t)(n ? n : 1) * sizeof *fill);
    memcpy(fill, npred, (size_t)n * sizeof *fill);
    for (int i = 0; i < n; i++) {
        const ir_instr *in = &th->instrs[i];
        bool falls = in->kind != I_HALT && !(in->kind == I_JUMP && in->e1 < 0);
        if (falls && i + 1 < n)
            pred[fill[i + 1]++] = i;
        if (in->kind == I_JUMP && in->target >= 0 && in->target < n)
            pred[fill[in->target]++] = i;
    }
    bool *seen = wmx_calloc((size_t)(n ? n : 1), sizeof *seen);
    int *stack = wmx_malloc((size_t)(n ? n : 1) * sizeof *stack);
    int top = 0;
    bool ok = true, have = false;
    stack[top++] = k;
    seen[k] = true;
    while (ok && top > 0) {
        int at = stack[--top];
        if (at == 0) {      /* the thread's start */
            wmx_val v = th->reg_init ? th->reg_init[r] : 0;
            ok = !have || v == *val;
            *val = v;
            have = true;
        }
        for (int e = npred[at]; ok && e < npred[at + 1]; e++) {
            int q = pred[e];
            const ir_instr *in = &th->instrs[q];
            if (defines_reg(in, r)) {
                if (in->kind != I_LET || in->e1 < 0 || p->exprs[in->e1].op != OP_CONST) {
                    ok = false;
                } else {
                    wmx_val v = p->exprs[in->e1].value;
                    ok = !have || v == *val;
                    *val = v;
                    have = true;
                }
            } else if (!seen[q]) {
                seen[q] = true;
                stack[top++] = q;
            }
        }
    }
    free(npred);
    free(pred);
    free(fill);
    free(seen);
    free(stack);
    return ok && have;
}

/* e with every register but `keep` that is a constant at instruction k
 * replaced by it, and constant parts folded (`0 || c` is c, `1 && c` is
 * c != 0): PLP's `changed || (v != 1)` with changed still 0. */
static int fold_at(wmx_program *p, const ir_thread *th, int k, int e, int keep, int depth)
{
    if (e < 0 || depth > 64)
        return -1;
    ir_expr x = p->exprs[e];
    if (x.op == OP_CONST || x.op == OP_ADDR)
        return e;
    if (x.op == OP_REG) {
        wmx_val v = 0;
        if (x.reg != keep && reg_const_at(p, th, k, x.reg, &v))
            return ir_const(p, v);
        return e;
    }
    int a = fold_at(p, th, k, x.a, keep, depth + 1);
    int b = x.b >= 0 ? fold_at(p, th, k, x.b, keep, depth + 1) : -1;
    if (a < 0 || (x.b >= 0 && b < 0))
        return -1;
    bool ca = p->exprs[a].op == OP_CONST, cb = b >= 0 && p->exprs[b].op == OP_CONST;
    if (x.op == OP_LOR || x.op == OP_LAND) {
        int c = ca ? a : cb ? b : -1, other = ca ? b : a;
        if (c >= 0 && !(ca && cb)) {
            bool nonzero = p->exprs[c].value != 0;
            if (nonzero == (x.op == OP_LOR))
                return ir_const(p, nonzero);
            return is_truth(p, other, 0) ? other : ir_binop(p, OP_NE, other, ir_const(p, 0));
        }
    }
    int r = (a == x.a && b == x.b) ? e : x.b >= 0 ? ir_binop(p, x.op, a, b) : ir_unop(p, x.op, a);
    if (ca && (x.b < 0 || cb)) {
        bool fault = false;
        wmx_val v = ir_eval(p, r, NULL, &fault);
        if (!fault)
            return ir_const(p, v);
    }
    return r;
}

/* Whether {v : v ca a} is a subset of {v : v cb b}: both sets change only
 * at a and b, so the points around them and the two ends decide it. */
static bool cmp_subset(ir_op ca, wmx_val a, ir_op cb, wmx_val b)
{
    wmx_val pts[] = { INT64_MIN, INT64_MAX, a, b,
                      (wmx_val)((uint64_t)a - 1), (wmx_val)((uint64_t)a + 1),
                      (wmx_val)((uint64_t)b - 1), (wmx_val)((uint64_t)b + 1) };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        if (ir_cmp_holds(ca, pts[i], a) && !ir_cmp_holds(cb, pts[i], b))
            return false;
    return true;
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

static const char *try_jump(wmx_program *p, int t, int j, bool block_when_true, bool spin, const int *owner,
                            int spin_test)
{
    ir_thread *th = &p->threads[t];
    int k = j - 1, ended = 0;
    /* (an abort may test the read after its section ended, through a
     * variable only this thread touches: pthread-wmm's `__VERIFIER_atomic_begin();
     * g = cnt == 3; __VERIFIER_atomic_end(); if (!g) abort();`) */
    while (k >= 0 && (th->instrs[k].kind == I_LET || is_skip_jump(th, k, j) ||
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
    /* a compare-exchange whose failure goes round again (a lock's try) */
    bool cas = rd->kind == I_CAS && !rd->blocking && !rd->writes_back;
    if (rd->kind != I_LOAD && rd->kind != I_XCHG && !cas)
        return rd->kind == I_AWAIT ? NULL : "its exit test is not decided by one load";
    if (rd->dst < 0)
        return "its exit test does not use the value read";
    if (cas && (ir_expr_uses(p, rd->e1, rd->dst) || (rd->dst2 >= 0 && ir_expr_uses(p, rd->e1, rd->dst2))))
        return "its compare-exchange compares with what it read";
    /* a __VERIFIER_nondet value (a cell of its own, core/cfront.c): its
     * runs that abort stay aborted runs, as the user wrote them */
    if (rd->addr.var >= 0 && strncmp(p->vars[rd->addr.var].name, "$nondet.", 8) == 0)
        return "it tests a __VERIFIER_nondet value";
    subst s = { p, wmx_malloc((size_t)(th->nregs ? th->nregs : 1) * sizeof(int)), th->nregs, rd->dst, 0 };
    for (int r = 0; r < th->nregs; r++)
        s.env[r] = -1;
    if (cas && rd->dst2 >= 0 && rd->dst2 < th->nregs)   /* its success flag */
        s.env[rd->dst2] = ir_binop(p, OP_EQ, ir_reg(p, rd->dst), rd->e1);
    const char *why = NULL;
    int *stored = NULL;          /* per variable: the expression stored there, or -1 */
    for (int i = k + 1; i < j && !why; i++) {
        const ir_instr *let = &th->instrs[i];
        int side, m = let->kind == I_JUMP ? skip_lets(th, i, j, &side) : -1;
        if (m >= 0) {
            /* both ways meet at m: what the lets between set depends on
             * the way taken */
            for (int a = i + 1; a < m && !why; a++)
                if (th->instrs[a].kind != I_LET && th->instrs[a].kind != I_NOP)
                    why = "it skips more than lets";
            for (int pass = 0; pass < 2 && !why; pass++) {
                int a = pass ? side : i + 1, hops = 0;
                while (a >= 0 && a < th->ninstrs && (pass || a < m) && hops++ < 64) {
                    const ir_instr *x = &th->instrs[a];
                    if (x->kind == I_JUMP)
                        break;
                    if (x->kind == I_LET && x->dst == rd->dst)
                        why = "it overwrites the value it read";
                    else if (x->kind == I_LET && x->dst >= 0 && x->dst < th->nregs)
                        s.env[x->dst] = POISONED;
                    a++;
                }
            }
            i = m - 1;
            continue;
        }
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
    /* the read passes when the loop is left */
    ir_op pass = block_when_true ? ir_cmp_negate(cmp) : cmp;
    if (!why && spin_test >= 0) {
        /* PLP's assume(changed): the run blocks when the branch is taken
         * and nothing changed, so the read passes when it leaves the loop
         * or changes something; one comparison must say both */
        int test = subst_expr(&s, spin_test);
        test = test < 0 ? -1 : fold_at(p, th, k, test, rd->dst, 0);
        ir_op tcmp;
        int tother;
        if (test < 0)
            why = "its spin test is too deep";
        else if (p->exprs[test].op == OP_CONST)
            why = p->exprs[test].value ? "every time round changes something" : NULL;
        else if (!as_comparison(p, test, rd->dst, &tcmp, &tother) || !is_const_expr(p, other) ||
                 !is_const_expr(p, tother))
            why = "what it changes is not a comparison of the value read with constants";
        else if (cmp_subset(pass, p->exprs[other].value, tcmp, p->exprs[tother].value)) {
            pass = tcmp;
            other = tother;
        } else if (!cmp_subset(tcmp, p->exprs[tother].value, pass, p->exprs[other].value))
            why = "leaving the loop and changing something are not one comparison";
    }
    if (!why && cas && !(pass == OP_EQ && is_const_expr(p, other) && is_const_expr(p, rd->e1) &&
                         p->exprs[other].value == p->exprs[rd->e1].value))
        why = "its compare-exchange would pass without succeeding";
    free(s.env);
    free(stored);
    if (why)
        return why;
    if (cas) {
        rd->blocking = true;      /* a lock: enabled only when it succeeds */
        rd->cmp = OP_EQ;
    } else if (rd->kind == I_LOAD) {
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
                int s = reaches_spin(p, th, in->target, false);
                if (s >= 0 && !why[s] && !reached[s])
                    why[s] = "it is entered with no exit test";
                continue;
            }
            int taken = reaches_spin(p, th, in->target, false), fall = reaches_spin(p, th, j + 1, false);
            if (taken < 0 && fall < 0) {
                /* a way to PLP's assume(changed): the read can wait for
                 * what leaves the loop or changes something */
                taken = reaches_spin(p, th, in->target, true);
                fall = reaches_spin(p, th, j + 1, true);
                if ((taken >= 0) != (fall >= 0)) {
                    int s = taken >= 0 ? taken : fall;
                    if (!try_jump(p, t, j, taken >= 0, true, owner, th->instrs[s].e1))
                        rewrites++;
                }
                continue;
            }
            if ((taken >= 0) == (fall >= 0))
                continue;
            int s = taken >= 0 ? taken : fall;
            const char *w = try_jump(p, t, j, taken >= 0, th->instrs[s].spin, owner, -1);
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
