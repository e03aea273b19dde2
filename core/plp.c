/* plp.c - the partial loop purity rewrite (see plp.h). */
#include "plp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- copying ---- */

static char *dup0(const char *s) { return s ? wmx_strdup(s) : NULL; }

static void *dupmem(const void *src, size_t n)
{
    if (!src || n == 0)
        return NULL;
    void *d = wmx_malloc(n);
    memcpy(d, src, n);
    return d;
}

wmx_program *plp_copy_program(const wmx_program *p)
{
    wmx_program *q = wmx_calloc(1, sizeof *q);
    *q = *p;
    q->name = dup0(p->name);
    q->file = dup0(p->file);
    q->srcfiles = dupmem(p->srcfiles, (size_t)p->nsrcfiles * sizeof *p->srcfiles);
    for (int i = 0; i < p->nsrcfiles; i++)
        q->srcfiles[i] = dup0(p->srcfiles[i]);
    q->arch = dup0(p->arch);
    q->cond_text = dup0(p->cond_text);
    q->nondet_extra = p->nondet_nextra ? dupmem(p->nondet_extra, (size_t)p->nondet_nextra * sizeof *p->nondet_extra) : NULL;
    q->threads = dupmem(p->threads, (size_t)p->nthreads * sizeof *p->threads);
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *a = &p->threads[t];
        ir_thread *b = &q->threads[t];
        b->name = dup0(a->name);
        b->reg_names = dupmem(a->reg_names, (size_t)a->nregs * sizeof *a->reg_names);
        for (int r = 0; r < a->nregs; r++)
            b->reg_names[r] = dup0(a->reg_names[r]);
        b->reg_init = dupmem(a->reg_init, (size_t)a->nregs * sizeof *a->reg_init);
        b->capregs = a->nregs;       /* the copies are that long */
        b->instrs = dupmem(a->instrs, (size_t)a->ninstrs * sizeof *a->instrs);
        for (int i = 0; i < a->ninstrs; i++)
            b->instrs[i].text = dup0(a->instrs[i].text);
        b->loops = dupmem(a->loops, (size_t)a->nloops * sizeof *a->loops);
    }
    q->vars = dupmem(p->vars, (size_t)p->nvars * sizeof *p->vars);
    for (int v = 0; v < p->nvars; v++)
        q->vars[v].name = dup0(p->vars[v].name);
    q->cell_init = dupmem(p->cell_init, (size_t)p->ncells * sizeof *p->cell_init);
    q->cap_exprs = p->nexprs;
    q->exprs = dupmem(p->exprs, (size_t)p->nexprs * sizeof *p->exprs);
    q->cap_conds = p->nconds;
    q->conds = dupmem(p->conds, (size_t)p->nconds * sizeof *p->conds);
    q->observed = dupmem(p->observed, (size_t)p->nobserved * sizeof *p->observed);
    return q;
}

/* ---- register use ---- */

static bool expr_reads_any(const wmx_program *p, int e, const bool *set)
{
    while (e >= 0) {
        const ir_expr *x = &p->exprs[e];
        if (x->op == OP_REG && x->reg >= 0 && set[x->reg])
            return true;
        if (x->b >= 0 && expr_reads_any(p, x->b, set))
            return true;
        e = x->a;
    }
    return false;
}

static bool instr_reads_any(const wmx_program *p, const ir_instr *in, const bool *set)
{
    return expr_reads_any(p, in->e1, set) || expr_reads_any(p, in->e2, set) ||
           expr_reads_any(p, in->addr.index, set) || expr_reads_any(p, in->addr.ptr, set);
}

/* ---- loop analysis ---- */

typedef struct shape {
    bool do_while;     /* back jump conditional, no exit jump */
    int back;          /* back jump (end - 1) */
    int exitj;         /* while: the exit jump; -1 for do-while */
} shape;

static bool loop_shape(const ir_thread *th, int li, shape *sh)
{
    const ir_loop *L = &th->loops[li];
    if (L->head < 0 || L->end <= L->head || L->end > th->ninstrs)
        return false;
    for (int o = 0; o < th->nloops; o++)
        if (o != li && th->loops[o].head >= L->head && th->loops[o].head < L->end)
            return false;          /* nested loop */
    sh->back = L->end - 1;
    const ir_instr *bj = &th->instrs[sh->back];
    if (bj->kind != I_JUMP || bj->target != L->head)
        return false;
    sh->exitj = -1;
    for (int i = L->head; i < sh->back; i++) {
        const ir_instr *in = &th->instrs[i];
        switch (in->kind) {
        case I_STORE: case I_XCHG: case I_FAA: case I_CAS: case I_ASSERT: case I_HALT:
            return false;
        case I_JUMP:
            if (in->target != L->end || in->e1 < 0 || sh->exitj >= 0)
                return false;
            sh->exitj = i;
            break;
        default:
            break;
        }
    }
    sh->do_while = bj->e1 >= 0;
    if (sh->do_while)
        return sh->exitj < 0;
    return sh->exitj >= 0 && sh->exitj + 1 < sh->back;
}

/* Every register written in the loop (but the counter) is overwritten
 * before it is read, on the path from the head back to the head. */
static bool iteration_leaves_nothing(const wmx_program *p, const ir_thread *th, const ir_loop *L,
                                     int upto)
{
    int n = th->nregs ? th->nregs : 1;
    bool *written = wmx_calloc((size_t)n, sizeof *written);
    bool *undefined = wmx_calloc((size_t)n, sizeof *undefined);
    for (int i = L->head; i < L->end; i++) {
        const ir_instr *in = &th->instrs[i];
        if (in->dst >= 0 && in->dst != L->counter)
            written[in->dst] = true;
        if (in->dst2 >= 0 && in->dst2 != L->counter)
            written[in->dst2] = true;
    }
    memcpy(undefined, written, (size_t)n * sizeof *undefined);
    bool ok = true;
    for (int i = L->head; i <= upto && ok; i++) {
        const ir_instr *in = &th->instrs[i];
        if (instr_reads_any(p, in, undefined))
            ok = false;
        if (in->dst >= 0)
            undefined[in->dst] = false;
        if (in->dst2 >= 0)
            undefined[in->dst2] = false;
    }
    free(written);
    free(undefined);
    return ok;
}

/* Reads e as (register r) cmp K where K does not read `loopregs`. */
static bool as_test(wmx_program *p, int e, int r, const bool *loopregs, ir_op *cmp, int *k)
{
    const ir_expr x = p->exprs[e];
    if (x.op == OP_NOT) {
        if (!as_test(p, x.a, r, loopregs, cmp, k))
            return false;
        *cmp = ir_cmp_negate(*cmp);
        return true;
    }
    if (x.op == OP_REG && x.reg == r) {
        *cmp = OP_NE;
        *k = ir_const(p, 0);
        return true;
    }
    if (!ir_op_is_cmp(x.op))
        return false;
    const ir_expr a = p->exprs[x.a], b = p->exprs[x.b];
    if (a.op == OP_REG && a.reg == r && !expr_reads_any(p, x.b, loopregs)) {
        *cmp = x.op;
        *k = x.b;
        return true;
    }
    if (b.op == OP_REG && b.reg == r && !expr_reads_any(p, x.a, loopregs)) {
        *cmp = ir_cmp_swap(x.op);
        *k = x.a;
        return true;
    }
    return false;
}

static void note(plp_result *res, int t, int i, int li, ir_kind from, ir_kind to)
{
    res->changes = wmx_realloc(res->changes, (size_t)(res->nchanges + 1) * sizeof *res->changes);
    res->changes[res->nchanges++] = (plp_change){ t, i, li, from, to };
}

static const char *op_text(ir_op op)
{
    switch (op) {
    case OP_EQ: return "==";
    case OP_NE: return "!=";
    case OP_LT: return "<";
    case OP_LE: return "<=";
    case OP_GT: return ">";
    case OP_GE: return ">=";
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_MOD: return "%";
    case OP_UDIV: return "/u";
    case OP_UREM: return "%u";
    case OP_AND: return "&";
    case OP_OR: return "|";
    case OP_XOR: return "^";
    case OP_SHL: return "<<";
    case OP_SHR: return ">>";
    case OP_LAND: return "&&";
    case OP_LOR: return "||";
    case OP_NEG: return "-";
    case OP_NOT: return "!";
    case OP_BNOT: return "~";
    case OP_FADD: return "+.";
    case OP_FSUB: return "-.";
    case OP_FMUL: return "*.";
    case OP_FDIV: return "/.";
    case OP_FEQ: return "==.";
    case OP_FNE: return "!=.";
    case OP_FLT: return "<.";
    case OP_FLE: return "<=.";
    case OP_FGT: return ">.";
    case OP_FGE: return ">=.";
    case OP_FNEG: return "-.";
    case OP_ITOF: return "double";
    case OP_UTOF: return "double_u";
    case OP_FTOI: return "int";
    case OP_FTOU: return "int_u";
    case OP_F32: return "float";
    default: return "?";
    }
}

static char *expr_str(const wmx_program *p, int t, int e)
{
    if (e < 0)
        return wmx_strdup("?");
    const ir_expr *x = &p->exprs[e];
    switch (x->op) {
    case OP_CONST:
        return wmx_asprintf("%lld", (long long)x->value);
    case OP_REG:
        return wmx_strdup(p->threads[t].reg_names[x->reg]);
    case OP_ADDR: {
        char c[128];
        return wmx_asprintf("&%s", ir_cell_name(p, (int)x->value, c, sizeof c));
    }
    case OP_NEG: case OP_NOT: case OP_BNOT:
    case OP_FNEG: case OP_ITOF: case OP_UTOF: case OP_FTOI: case OP_FTOU: case OP_F32: {
        char *a = expr_str(p, t, x->a);
        char *r = wmx_asprintf("%s(%s)", op_text(x->op), a);
        free(a);
        return r;
    }
    default: {
        char *a = expr_str(p, t, x->a), *b = expr_str(p, t, x->b);
        char *r = wmx_asprintf("(%s %s %s)", a, op_text(x->op), b);
        free(a);
        free(b);
        return r;
    }
    }
}

static void expr_text(const wmx_program *p, int t, int e, char *buf, size_t n)
{
    char *s = expr_str(p, t, e);
    size_t l = strlen(s);
    if (l >= n)
        l = n - 1;
    memcpy(buf, s, l);
    buf[l] = 0;
    free(s);
}

static void addr_text(const wmx_program *p, int t, const ir_addr *ad, char *buf, size_t n)
{
    char ix[256];
    if (ad->ptr >= 0) {
        expr_text(p, t, ad->ptr, ix, sizeof ix);
        snprintf(buf, n, "*%s", ix);
    } else if (ad->var >= 0 && ad->index >= 0) {
        expr_text(p, t, ad->index, ix, sizeof ix);
        snprintf(buf, n, "%s[%s]", p->vars[ad->var].name, ix);
    } else if (ad->var >= 0) {
        snprintf(buf, n, "%s", p->vars[ad->var].name);
    } else {
        snprintf(buf, n, "?");
    }
}

static void set_text(wmx_program *p, int t, int i)
{
    ir_instr *in = &p->threads[t].instrs[i];
    char a[512], e[512], buf[1200];
    switch (in->kind) {
    case I_ASSUME:
        expr_text(p, t, in->e1, e, sizeof e);
        snprintf(buf, sizeof buf, "assume(%s);", e);
        break;
    case I_AWAIT:
        addr_text(p, t, &in->addr, a, sizeof a);
        expr_text(p, t, in->e1, e, sizeof e);
        if (in->dst >= 0)
            snprintf(buf, sizeof buf, "%s = await(%s %s %s);", p->threads[t].reg_names[in->dst],
                     a, op_text(in->cmp), e);
        else
            snprintf(buf, sizeof buf, "await(%s %s %s);", a, op_text(in->cmp), e);
        break;
    case I_JUMP:
        snprintf(buf, sizeof buf, "goto %d;", in->target);
        break;
    default:
        snprintf(buf, sizeof buf, "nop;");
        break;
    }
    free(in->text);
    in->text = wmx_strdup(buf);
}

static void replace(plp_result *res, int t, int i, int li, ir_instr nin)
{
    wmx_program *p = res->prog;
    ir_instr *in = &p->threads[t].instrs[i];
    ir_kind from = in->kind;
    nin.loc = in->loc;
    nin.text = in->text;       /* set_text frees and replaces it */
    *in = nin;
    set_text(p, t, i);
    note(res, t, i, li, from, nin.kind);
}

static void rewrite_loop(plp_result *res, int t, int li, plp_mode mode)
{
    wmx_program *p = res->prog;
    ir_thread *th = &p->threads[t];
    ir_loop L = th->loops[li];
    shape sh;
    if (!loop_shape(th, li, &sh))
        return;
    if (!iteration_leaves_nothing(p, th, &L, sh.back))
        return;
    /* the registers the loop writes (for the await test) */
    int nr = th->nregs ? th->nregs : 1;
    bool *loopregs = wmx_calloc((size_t)nr, sizeof *loopregs);
    int nvisible = 0, load_at = -1;
    int test_end = sh.do_while ? sh.back : sh.exitj;
    for (int i = L.head; i < L.end; i++) {
        const ir_instr *in = &th->instrs[i];
        if (in->dst >= 0)
            loopregs[in->dst] = true;
        if (in->dst2 >= 0)
            loopregs[in->dst2] = true;
        if (i < test_end && ir_is_visible(in)) {
            nvisible++;
            load_at = in->kind == I_LOAD ? i : -1;
        }
    }
    /* the test that decides purity: the exit test (while) or the negated
     * back test (do-while); pure iterations are those where it is false */
    int exit_test = sh.do_while ? ir_unop(p, OP_NOT, th->instrs[sh.back].e1) : th->instrs[sh.exitj].e1;
    th = &p->threads[t];
    bool await_ok = false;
    ir_op cmp = OP_EQ;
    int k = -1;
    if (mode == PLP_AWAIT && nvisible == 1 && load_at >= 0) {
        const ir_instr *ld = &th->instrs[load_at];
        int r = ld->dst;
        bool addr_ok = !expr_reads_any(p, ld->addr.index, loopregs) &&
                       !expr_reads_any(p, ld->addr.ptr, loopregs);
        bool r_kept = true;
        for (int i = load_at + 1; i < test_end; i++)
            if (th->instrs[i].dst == r || th->instrs[i].dst2 == r)
                r_kept = false;
        /* the load itself must not be needed before the await: nothing
         * between head and the load reads loop registers other than the counter */
        if (r >= 0 && addr_ok && r_kept && as_test(p, exit_test, r, loopregs, &cmp, &k))
            await_ok = true;
        th = &p->threads[t];
    }
    if (await_ok) {
        const ir_instr ld = th->instrs[load_at];
        ir_instr aw = ir_instr_init(I_AWAIT, ld.loc);
        aw.addr = ld.addr;
        aw.dst = ld.dst;
        aw.cmp = cmp;
        aw.e1 = k;
        replace(res, t, load_at, li, aw);
        if (sh.do_while) {
            replace(res, t, sh.back, li, ir_instr_init(I_NOP, ld.loc));
        } else {
            replace(res, t, sh.exitj, li, ir_instr_init(I_NOP, ld.loc));
            ir_instr j = ir_instr_init(I_JUMP, ld.loc);
            j.target = L.end;
            replace(res, t, sh.exitj + 1, li, j);
        }
        res->loops_await++;
        res->loops_assume++;
    } else {
        ir_instr as = ir_instr_init(I_ASSUME, th->instrs[sh.back].loc);
        as.e1 = exit_test;
        as.spin = true;
        if (sh.do_while) {
            replace(res, t, sh.back, li, as);
        } else {
            replace(res, t, sh.exitj, li, as);
            ir_instr j = ir_instr_init(I_JUMP, as.loc);
            j.target = L.end;
            replace(res, t, sh.exitj + 1, li, j);
        }
        res->loops_assume++;
    }
    free(loopregs);
}

int plp_transform(const wmx_program *p, plp_mode mode, plp_result *out, wmx_error *err)
{
    (void)err;
    memset(out, 0, sizeof *out);
    out->prog = plp_copy_program(p);
    for (int t = 0; t < p->nthreads; t++) {
        out->loops_total += p->threads[t].nloops;
        for (int li = 0; li < p->threads[t].nloops; li++)
            rewrite_loop(out, t, li, mode);
    }
    return 0;
}

void plp_result_free(plp_result *r)
{
    ir_program_free(r->prog);
    free(r->changes);
    memset(r, 0, sizeof *r);
}

static const char *kind_name(ir_kind k)
{
    static const char *names[] = { "nop", "load", "store", "fence", "xchg", "faa", "cas",
                                   "await", "assume", "assert", "let", "jump", "halt" };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* What a rewritten instruction was and is, in the user's words:
 * "its read of the flag, now an await that waits until the loop would end". */
static const char *change_words(const plp_change *ch)
{
    switch (ch->from) {
    case I_LOAD:
        return ch->to == I_AWAIT ? "was its read, now waits until the loop would end"
                                 : "was its read";
    case I_JUMP:
        return ch->to == I_NOP ? "was its exit test, no longer needed (the wait above ends the loop)"
             : ch->to == I_ASSUME ? "was its exit test, now assumes the loop ends (a round that "
                                    "changes nothing is cut)"
             : "was its exit test";
    case I_LET:
        return ch->to == I_JUMP ? "was its round counter, now leaves the loop" : "was its round counter";
    default:
        return "rewritten";
    }
}

char *plp_format(const wmx_program *p, const plp_result *res)
{
    size_t cap = 4096, len = 0;
    char *out = wmx_malloc(cap);
    out[0] = 0;
#define EMIT(...) do { \
        int need_ = snprintf(NULL, 0, __VA_ARGS__); \
        if (len + (size_t)need_ + 1 > cap) { cap = 2 * (len + (size_t)need_ + 1); out = wmx_realloc(out, cap); } \
        snprintf(out + len, cap - len, __VA_ARGS__); \
        len += (size_t)need_; \
    } while (0)
    EMIT("// %s", p->name ? p->name : "");
    if (res)
        EMIT(" after PLP: %d of %d loops rewritten (%d with await)", res->loops_assume,
             res->loops_total, res->loops_await);
    EMIT("\n");
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        EMIT("thread %s {\n", th->name);
        for (int i = 0; i < th->ninstrs; i++) {
            const ir_instr *in = &th->instrs[i];
            const plp_change *ch = NULL;
            for (int c = 0; res && c < res->nchanges; c++)
                if (res->changes[c].thread == t && res->changes[c].instr == i)
                    ch = &res->changes[c];
            char extra[64] = "";
            if (in->kind == I_JUMP)
                snprintf(extra, sizeof extra, " -> %d", in->target);
            /* a blocking CAS is a lock (it waits rather than fails), or
             * with another comparison an exchange-await */
            EMIT("  %3d %-6s %-40s%s", i,
                 in->kind == I_CAS && in->blocking ? (in->cmp == OP_EQ ? "lock" : "xawait") : kind_name(in->kind),
                 in->text ? in->text : "", extra);
            if (ch) {
                const ir_loop *lp = ch->loop >= 0 && ch->loop < th->nloops ? &th->loops[ch->loop] : NULL;
                int line = lp && lp->head >= 0 && lp->head < th->ninstrs ? th->instrs[lp->head].loc.line : 0;
                char where[32] = "the loop";
                if (line > 0)
                    snprintf(where, sizeof where, "the loop at line %d", line);
                EMIT("   // %s: %s", where, change_words(ch));
            }
            EMIT("\n");
        }
        EMIT("}\n");
    }
#undef EMIT
    return out;
}
