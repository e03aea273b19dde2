/* ir.c - construction and evaluation of the program IR. */
#include "ir.h"
#include "cond.h"
#include "util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wmx_program *ir_program_new(const char *name, const char *file, const char *arch)
{
    wmx_program *p = wmx_calloc(1, sizeof *p);
    p->name = wmx_strdup(name ? name : "");
    p->file = wmx_strdup(file ? file : "");
    p->arch = wmx_strdup(arch ? arch : "wmx");
    p->cond_root = -1;
    p->quant = Q_NONE;
    p->pgas_rank_reg = p->pgas_nranks_reg = -1;
    return p;
}

const char *ir_loc_file(const wmx_program *p, wmx_srcloc loc)
{
    return loc.file > 0 && loc.file <= p->nsrcfiles ? p->srcfiles[loc.file - 1] : p->file;
}

int ir_add_srcfile(wmx_program *p, const char *path)
{
    for (int i = 0; i < p->nsrcfiles; i++)
        if (strcmp(p->srcfiles[i], path) == 0)
            return i + 1;
    p->srcfiles = wmx_realloc(p->srcfiles, (size_t)(p->nsrcfiles + 1) * sizeof *p->srcfiles);
    p->srcfiles[p->nsrcfiles++] = wmx_strdup(path);
    return p->nsrcfiles;
}

void ir_program_free(wmx_program *p)
{
    if (!p)
        return;
    for (int t = 0; t < p->nthreads; t++) {
        ir_thread *th = &p->threads[t];
        free(th->name);
        for (int r = 0; r < th->nregs; r++)
            free(th->reg_names[r]);
        free(th->reg_names);
        free(th->reg_init);
        for (int i = 0; i < th->ninstrs; i++)
            free(th->instrs[i].text);
        free(th->instrs);
        free(th->loops);
    }
    free(p->threads);
    for (int i = 0; i < p->nsrcfiles; i++)
        free(p->srcfiles[i]);
    free(p->srcfiles);
    for (int v = 0; v < p->nvars; v++)
        free(p->vars[v].name);
    free(p->vars);
    free(p->cell_init);
    free(p->exprs);
    free(p->conds);
    free(p->cond_text);
    free(p->nondet_extra);
    free(p->cell_float);
    free(p->observed);
    free(p->name);
    free(p->file);
    free(p->arch);
    free(p);
}

int ir_add_thread(wmx_program *p, const char *name)
{
    p->threads = wmx_realloc(p->threads, (size_t)(p->nthreads + 1) * sizeof *p->threads);
    ir_thread *th = &p->threads[p->nthreads];
    memset(th, 0, sizeof *th);
    th->name = wmx_strdup(name);
    return p->nthreads++;
}

int ir_find_reg(const wmx_program *p, int t, const char *name)
{
    const ir_thread *th = &p->threads[t];
    for (int r = 0; r < th->nregs; r++)
        if (strcmp(th->reg_names[r], name) == 0)
            return r;
    return -1;
}

int ir_thread_reg(wmx_program *p, int t, const char *name)
{
    int r = ir_find_reg(p, t, name);
    if (r >= 0)
        return r;
    return ir_add_reg(p, t, name);
}

int ir_add_reg(wmx_program *p, int t, const char *name)
{
    ir_thread *th = &p->threads[t];
    if (th->nregs + 1 > th->capregs) {
        int cap = th->nregs < 8 ? 8 : th->nregs + th->nregs / 2;
        th->reg_names = wmx_realloc(th->reg_names, (size_t)cap * sizeof *th->reg_names);
        th->reg_init = wmx_realloc(th->reg_init, (size_t)cap * sizeof *th->reg_init);
        th->capregs = cap;
    }
    th->reg_names[th->nregs] = wmx_strdup(name);
    th->reg_init[th->nregs] = 0;
    return th->nregs++;
}

int ir_find_var(const wmx_program *p, const char *name)
{
    for (int v = 0; v < p->nvars; v++)
        if (strcmp(p->vars[v].name, name) == 0)
            return v;
    return -1;
}

int ir_add_var(wmx_program *p, const char *name, int length)
{
    if (ir_find_var(p, name) >= 0 || length < 1)
        return -1;
    p->vars = wmx_realloc(p->vars, (size_t)(p->nvars + 1) * sizeof *p->vars);
    ir_var *v = &p->vars[p->nvars];
    v->name = wmx_strdup(name);
    v->base = p->ncells;
    v->length = length;
    v->elem_size = 8;
    p->cell_init = wmx_realloc(p->cell_init, (size_t)(p->ncells + length) * sizeof *p->cell_init);
    for (int i = 0; i < length; i++)
        p->cell_init[p->ncells + i] = 0;
    p->ncells += length;
    return p->nvars++;
}

ir_instr ir_instr_init(ir_kind kind, wmx_srcloc loc)
{
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.kind = kind;
    in.addr.var = -1;
    in.addr.index = -1;
    in.addr.ptr = -1;
    in.addr2 = in.addr;
    in.dst = in.dst2 = -1;
    in.e1 = in.e2 = -1;
    in.cmp = OP_EQ;
    in.target = -1;
    in.loc = loc;
    return in;
}

int ir_add_instr(wmx_program *p, int t, const ir_instr *in)
{
    ir_thread *th = &p->threads[t];
    /* capacity is the next power of two: grow when the count reaches one */
    int n = th->ninstrs;
    if (n == 0 || (n & (n - 1)) == 0)
        th->instrs = wmx_realloc(th->instrs, (size_t)(n ? 2 * n : 4) * sizeof *th->instrs);
    th->instrs[th->ninstrs] = *in;
    th->instrs[th->ninstrs].text = in->text ? wmx_strdup(in->text) : NULL;
    return th->ninstrs++;
}

static int add_expr(wmx_program *p, ir_expr e)
{
    if (p->nexprs == p->cap_exprs) {
        p->cap_exprs = p->cap_exprs ? 2 * p->cap_exprs : 32;
        p->exprs = wmx_realloc(p->exprs, (size_t)p->cap_exprs * sizeof *p->exprs);
    }
    p->exprs[p->nexprs] = e;
    return p->nexprs++;
}

int ir_const(wmx_program *p, wmx_val v)
{
    ir_expr e = { OP_CONST, -1, -1, -1, v };
    return add_expr(p, e);
}

int ir_reg(wmx_program *p, int reg)
{
    ir_expr e = { OP_REG, -1, -1, reg, 0 };
    return add_expr(p, e);
}

int ir_unop(wmx_program *p, ir_op op, int a)
{
    ir_expr e = { op, a, -1, -1, 0 };
    return add_expr(p, e);
}

int ir_binop(wmx_program *p, ir_op op, int a, int b)
{
    ir_expr e = { op, a, b, -1, 0 };
    return add_expr(p, e);
}

int ir_add_cond(wmx_program *p, const ir_cond *c)
{
    if (p->nconds == p->cap_conds) {
        p->cap_conds = p->cap_conds ? 2 * p->cap_conds : 16;
        p->conds = wmx_realloc(p->conds, (size_t)p->cap_conds * sizeof *p->conds);
    }
    p->conds[p->nconds] = *c;
    return p->nconds++;
}

/* Byte addresses: variable v starts at ADDR_BASE + v * ADDR_STRIDE, so that
 * pointer values are recognisable and never collide with small integers. */
#define ADDR_BASE   ((wmx_val)0x100000)
#define ADDR_STRIDE ((wmx_val)0x10000)

wmx_val ir_cell_address(const wmx_program *p, int cell)
{
    int v = ir_cell_var(p, cell);
    if (v < 0)
        return 0;
    return ADDR_BASE + v * ADDR_STRIDE + (wmx_val)(cell - p->vars[v].base) * p->vars[v].elem_size;
}

int ir_cell_var(const wmx_program *p, int cell)
{
    for (int v = 0; v < p->nvars; v++)
        if (cell >= p->vars[v].base && cell < p->vars[v].base + p->vars[v].length)
            return v;
    return -1;
}

static uint64_t u64(wmx_val v) { return (uint64_t)v; }

bool ir_cmp_holds(ir_op op, wmx_val a, wmx_val b)
{
    switch (op) {
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    default:    return a == b;
    }
}

static double as_double(wmx_val v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static wmx_val from_double(double d)
{
    wmx_val v;
    memcpy(&v, &d, sizeof v);
    return v;
}

/* C's conversions, with what C leaves undefined (NaN, out of range) made
 * total: NaN is 0, and a value past the ends gives the end. */
static wmx_val float_unary(ir_op op, wmx_val a)
{
    double d = as_double(a);
    switch (op) {
    case OP_FNEG: return from_double(-d);
    case OP_ITOF: return from_double((double)a);
    case OP_UTOF: return from_double((double)(uint64_t)a);
    case OP_F32:
        /* past float's range C leaves the conversion undefined: IEEE
         * rounds it to an infinity */
        if (d > FLT_MAX || d < -FLT_MAX)
            return from_double(d > 0 ? (double)INFINITY : -(double)INFINITY);
        return from_double((double)(float)d);
    case OP_FTOI:
        if (d != d)
            return 0;
        if (d >= 9223372036854775808.0)
            return INT64_MAX;
        if (d <= -9223372036854775808.0)
            return INT64_MIN;
        return (wmx_val)d;
    case OP_FTOU:
        if (d != d || d <= 0)
            return 0;
        if (d >= 18446744073709551616.0)
            return (wmx_val)UINT64_MAX;
        return (wmx_val)(uint64_t)d;
    default:      return 0;
    }
}

static wmx_val float_binary(ir_op op, wmx_val a, wmx_val b)
{
    double x = as_double(a), y = as_double(b);
    switch (op) {
    case OP_FADD: return from_double(x + y);
    case OP_FSUB: return from_double(x - y);
    case OP_FMUL: return from_double(x * y);
    case OP_FDIV: return from_double(x / y);
    case OP_FEQ:  return x == y;
    case OP_FNE:  return x < y || x > y;      /* ordered: not with a NaN */
    case OP_FLT:  return x < y;
    case OP_FLE:  return x <= y;
    case OP_FGT:  return x > y;
    case OP_FGE:  return x >= y;
    default:      return 0;
    }
}

const char *ir_value_text(const wmx_program *p, int cell, wmx_val v, char *buf, size_t n)
{
    if (!p->cell_float || cell < 0 || cell >= p->ncells || !p->cell_float[cell]) {
        snprintf(buf, n, "%lld", (long long)v);
        return buf;
    }
    double d = as_double(v);
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, d);
        if (strtod(buf, NULL) == d || d != d)
            break;
    }
    /* a double says so: 3.0, not 3 */
    if (d == d && !strpbrk(buf, ".eni") && strlen(buf) + 3 <= n)
        strcat(buf, ".0");
    return buf;
}

wmx_val ir_eval(const wmx_program *p, int e, const wmx_val *regs, bool *fault)
{
    if (e < 0)
        return 0;
    const ir_expr *x = &p->exprs[e];
    wmx_val a, b;
    switch (x->op) {
    case OP_CONST: return x->value;
    case OP_REG:   return regs[x->reg];
    case OP_ADDR:  return ir_cell_address(p, (int)x->value);
    case OP_NEG:   return (wmx_val)(0 - u64(ir_eval(p, x->a, regs, fault)));
    case OP_NOT:   return !ir_eval(p, x->a, regs, fault);
    case OP_BNOT:  return ~ir_eval(p, x->a, regs, fault);
    case OP_FNEG: case OP_ITOF: case OP_UTOF: case OP_FTOI: case OP_FTOU: case OP_F32:
        return float_unary(x->op, ir_eval(p, x->a, regs, fault));
    default: break;
    }
    a = ir_eval(p, x->a, regs, fault);
    /* short-circuit operators evaluate b only when needed */
    if (x->op == OP_LAND)
        return a ? ir_eval(p, x->b, regs, fault) != 0 : 0;
    if (x->op == OP_LOR)
        return a ? 1 : ir_eval(p, x->b, regs, fault) != 0;
    b = ir_eval(p, x->b, regs, fault);
    switch (x->op) {
    /* wrap-around arithmetic, done unsigned so it is defined behaviour */
    case OP_ADD: return (wmx_val)(u64(a) + u64(b));
    case OP_SUB: return (wmx_val)(u64(a) - u64(b));
    case OP_MUL: return (wmx_val)(u64(a) * u64(b));
    case OP_DIV:
    case OP_MOD:
        if (b == 0 || (a == INT64_MIN && b == -1)) {
            if (fault)
                *fault = true;
            return 0;
        }
        return x->op == OP_DIV ? a / b : a % b;
    case OP_UDIV:
    case OP_UREM:
        if (b == 0) {
            if (fault)
                *fault = true;
            return 0;
        }
        return (wmx_val)(x->op == OP_UDIV ? u64(a) / u64(b) : u64(a) % u64(b));
    case OP_AND: return a & b;
    case OP_OR:  return a | b;
    case OP_XOR: return a ^ b;
    case OP_SHL: return (wmx_val)(u64(a) << (u64(b) & 63));
    case OP_SHR: return (wmx_val)(u64(a) >> (u64(b) & 63));
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        return ir_cmp_holds(x->op, a, b);
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV:
    case OP_FEQ: case OP_FNE: case OP_FLT: case OP_FLE: case OP_FGT: case OP_FGE:
        return float_binary(x->op, a, b);
    default:     return 0;
    }
}

int ir_address_cell(const wmx_program *p, const ir_addr *a, const wmx_val *regs)
{
    if (a->ptr >= 0) {
        wmx_val byte = ir_eval(p, a->ptr, regs, NULL);
        if (byte < ADDR_BASE)
            return -1;
        wmx_val v = (byte - ADDR_BASE) / ADDR_STRIDE;
        if (v >= p->nvars)
            return -1;
        wmx_val off = (byte - ADDR_BASE) % ADDR_STRIDE;
        const ir_var *var = &p->vars[v];
        if (off % var->elem_size != 0 || off / var->elem_size >= var->length)
            return -1;
        return var->base + (int)(off / var->elem_size);
    }
    if (a->var < 0 || a->var >= p->nvars)
        return -1;
    const ir_var *var = &p->vars[a->var];
    wmx_val i = a->index >= 0 ? ir_eval(p, a->index, regs, NULL) : 0;
    if (i < 0 || i >= var->length)
        return -1;
    return var->base + (int)i;
}

const char *ir_cell_name(const wmx_program *p, int cell, char *buf, size_t n)
{
    int v = ir_cell_var(p, cell);
    if (v < 0)
        snprintf(buf, n, "?%d", cell);
    else if (p->vars[v].length == 1)
        snprintf(buf, n, "%s", p->vars[v].name);
    else
        snprintf(buf, n, "%s[%d]", p->vars[v].name, cell - p->vars[v].base);
    return buf;
}

bool ir_waits(const ir_instr *in)
{
    return in->kind == I_AWAIT || (in->kind == I_CAS && in->blocking);
}

bool ir_has_locks(const wmx_program *p)
{
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstrs; i++)
            if (p->threads[t].instrs[i].kind == I_CAS && p->threads[t].instrs[i].blocking)
                return true;
    return false;
}

bool ir_is_loop_bound(const wmx_program *p, int t, int pc)
{
    const ir_thread *th = &p->threads[t];
    if (pc < 0 || pc >= th->ninstrs)
        return false;
    const ir_instr *in = &th->instrs[pc];
    if (in->bound_cut)
        return true;
    if (in->kind != I_ASSUME || in->e1 < 0 || p->exprs[in->e1].op != OP_LE)
        return false;
    int a = p->exprs[in->e1].a;
    if (a < 0 || p->exprs[a].op != OP_REG)
        return false;
    for (int l = 0; l < th->nloops; l++)
        if (th->loops[l].counter == p->exprs[a].reg)
            return true;
    return false;
}

static void owner_mark(int *owner, int v, int t)
{
    owner[v] = owner[v] == -1 || owner[v] == t ? t : -2;
}

/* the variable whose address range holds byte address a, or -1 */
static int address_var(const wmx_program *p, wmx_val a)
{
    if (a < ADDR_BASE)
        return -1;
    wmx_val v = (a - ADDR_BASE) / ADDR_STRIDE;
    return v < p->nvars ? (int)v : -1;
}

void ir_var_owners(const wmx_program *p, int *owner)
{
    for (int v = 0; v < p->nvars; v++)
        owner[v] = -1;
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        for (int i = 0; i < th->ninstrs; i++) {
            const ir_instr *in = &th->instrs[i];
            if (in->addr.var >= 0 && in->addr.var < p->nvars)
                owner_mark(owner, in->addr.var, t);
            if (in->addr2.var >= 0 && in->addr2.var < p->nvars)
                owner_mark(owner, in->addr2.var, t);
        }
        for (int r = 0; r < th->nregs; r++) {
            int v = address_var(p, th->reg_init[r]);
            if (v >= 0)
                owner[v] = -2;
        }
    }
    int *cellvar = wmx_malloc((size_t)(p->ncells ? p->ncells : 1) * sizeof *cellvar);
    for (int v = 0; v < p->nvars; v++)
        for (int k = 0; k < p->vars[v].length; k++)
            cellvar[p->vars[v].base + k] = v;
    for (int e = 0; e < p->nexprs; e++) {
        const ir_expr *x = &p->exprs[e];
        int v = -1;
        if (x->op == OP_ADDR && x->value >= 0 && x->value < p->ncells)
            v = cellvar[x->value];
        else if (x->op == OP_CONST)
            v = address_var(p, x->value);
        if (v >= 0)
            owner[v] = -2;
    }
    for (int c = 0; c < p->ncells; c++) {
        int v = address_var(p, p->cell_init[c]);
        if (v >= 0)
            owner[v] = -2;
    }
    free(cellvar);
}

bool ir_is_creation_gate(const wmx_program *p, int t, int pc)
{
    if (t < 0 || t >= p->nthreads || pc != 0 || p->threads[t].ninstrs == 0)
        return false;
    const ir_instr *in = &p->threads[t].instrs[0];
    return in->kind == I_AWAIT && in->addr.var >= 0 && in->addr.var < p->nvars &&
           strncmp(p->vars[in->addr.var].name, "$start.", 7) == 0;
}

bool ir_is_visible(const ir_instr *in)
{
    switch (in->kind) {
    case I_LOAD: case I_STORE: case I_FENCE: case I_XCHG:
    case I_FAA: case I_CAS: case I_AWAIT:
    case I_PREAD: case I_PWRITE: case I_BARRIER: case I_QUIET:
        return true;
    default:
        return false;
    }
}

bool ir_cond_eval(const wmx_program *p, int c, const wmx_val *const *regs,
                  const wmx_val *mem)
{
    return cond_eval(p, p->conds, c, regs, mem);
}

void ir_lhs_format(const wmx_program *p, const cond_lhs *l, char *buf, size_t n)
{
    if (l->thread >= 0) {
        const ir_thread *th = &p->threads[l->thread];
        if (strcmp(p->arch, "wmx") == 0)
            snprintf(buf, n, "%s:%s", th->name, th->reg_names[l->reg]);
        else
            snprintf(buf, n, "%d:%s", l->thread, th->reg_names[l->reg]);
    } else {
        char name[128];
        ir_cell_name(p, l->cell, name, sizeof name);
        snprintf(buf, n, "[%s]", name);
    }
}

static void cond_fmt(const wmx_program *p, int c, char **out, size_t *left, int prec)
{
    const ir_cond *x = &p->conds[c];
    char tmp[256];
    int n = 0;
    switch (x->kind) {
    case C_TRUE:  n = snprintf(*out, *left, "true"); break;
    case C_FALSE: n = snprintf(*out, *left, "false"); break;
    case C_EQ: {
        char lhs[160];
        ir_lhs_format(p, &x->lhs, lhs, sizeof lhs);
        if (x->value_is_addr)
            ir_cell_name(p, (int)x->value, tmp, sizeof tmp);
        else
            snprintf(tmp, sizeof tmp, "%lld", (long long)x->value);
        n = snprintf(*out, *left, "%s=%s", lhs, tmp);
        break;
    }
    case C_NOT:
        n = snprintf(*out, *left, "~");
        break;
    default:
        break;
    }
    if (n > 0 && (size_t)n < *left) {
        *out += n;
        *left -= (size_t)n;
    }
    if (x->kind == C_NOT) {
        cond_fmt(p, x->a, out, left, 4);
        return;
    }
    if (x->kind == C_AND || x->kind == C_OR || x->kind == C_IMPLIES) {
        int my = x->kind == C_AND ? 3 : x->kind == C_OR ? 2 : 1;
        const char *sym = x->kind == C_AND ? " /\\ " : x->kind == C_OR ? " \\/ " : " => ";
        bool paren = my < prec;
        if (paren && *left > 1) { *(*out)++ = '('; (*left)--; }
        cond_fmt(p, x->a, out, left, my);
        n = snprintf(*out, *left, "%s", sym);
        if (n > 0 && (size_t)n < *left) { *out += n; *left -= (size_t)n; }
        cond_fmt(p, x->b, out, left, my + 1);
        if (paren && *left > 1) { *(*out)++ = ')'; (*left)--; }
        **out = '\0';
    }
}

void ir_cond_format(const wmx_program *p, int c, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (c < 0) {
        snprintf(buf, n, "true");
        return;
    }
    char *out = buf;
    size_t left = n;
    cond_fmt(p, c, &out, &left, 0);
}

bool ir_op_is_cmp(ir_op op) { return op >= OP_EQ && op <= OP_GE; }

bool ir_op_is_unary(ir_op op)
{
    return op == OP_NEG || op == OP_NOT || op == OP_BNOT || (op >= OP_FNEG && op <= OP_F32);
}

ir_op ir_cmp_negate(ir_op op)
{
    switch (op) {
    case OP_EQ: return OP_NE;
    case OP_NE: return OP_EQ;
    case OP_LT: return OP_GE;
    case OP_GE: return OP_LT;
    case OP_GT: return OP_LE;
    default:    return OP_GT;   /* OP_LE */
    }
}

ir_op ir_cmp_swap(ir_op op)
{
    switch (op) {
    case OP_LT: return OP_GT;
    case OP_GT: return OP_LT;
    case OP_LE: return OP_GE;
    case OP_GE: return OP_LE;
    default:    return op;
    }
}

static bool expr_uses_at(const wmx_program *p, int e, int reg, int depth)
{
    if (e < 0)
        return false;
    if (depth > 200)
        return true;
    const ir_expr *x = &p->exprs[e];
    if (x->op == OP_REG)
        return x->reg == reg;
    return expr_uses_at(p, x->a, reg, depth + 1) || expr_uses_at(p, x->b, reg, depth + 1);
}

bool ir_expr_uses(const wmx_program *p, int e, int reg) { return expr_uses_at(p, e, reg, 0); }
