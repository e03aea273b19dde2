/* test_litmus.c - unit tests for the herd7 litmus reader (core/litmus.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "litmus.h"
#include "util.h"

#define CORPUS_DEFAULT "../shared/litmus"

static const char *corpus_dir(void)
{
    const char *d = getenv("WMX_LITMUS_DIR");
    return d && *d ? d : CORPUS_DEFAULT;
}

static wmx_program *parse_str(const char *s, wmx_error *err)
{
    memset(err, 0, sizeof *err);
    return litmus_parse(s, strlen(s), "t.litmus", err);
}

static wmx_program *parse_ok(const char *s)
{
    wmx_error err;
    wmx_program *p = parse_str(s, &err);
    if (!p) {
        char b[1024];
        ck_abort_msg("parse failed: %s", wmx_error_format(&err, b, sizeof b));
    }
    return p;
}

static wmx_program *parse_file(const char *rel)
{
    char path[4600];
    snprintf(path, sizeof path, "%s/%s", corpus_dir(), rel);
    wmx_error err;
    memset(&err, 0, sizeof err);
    size_t len;
    char *text = wmx_read_file(path, &len, &err);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    wmx_program *p = litmus_parse(text, len, path, &err);
    free(text);
    if (!p) {
        char b[1024];
        ck_abort_msg("parse failed: %s", wmx_error_format(&err, b, sizeof b));
    }
    return p;
}

/* Expects a parse error at line:col whose message contains `frag`. */
static void expect_error(const char *s, int line, int col, const char *frag)
{
    wmx_error err;
    wmx_program *p = parse_str(s, &err);
    if (p) {
        ir_program_free(p);
        ck_abort_msg("expected an error containing '%s'", frag);
    }
    ck_assert_msg(strstr(err.msg, frag) != NULL, "message '%s' lacks '%s'", err.msg, frag);
    ck_assert_msg(err.line == line && err.col == col, "'%s' at %d:%d, expected %d:%d",
                  err.msg, err.line, err.col, line, col);
    ck_assert_str_eq(err.file, "t.litmus");
}

static const ir_expr *ex(const wmx_program *p, int e)
{
    ck_assert_int_ge(e, 0);
    ck_assert_int_lt(e, p->nexprs);
    return &p->exprs[e];
}

static const char *regname(const wmx_program *p, int t, int r)
{
    ck_assert_int_ge(r, 0);
    ck_assert_int_lt(r, p->threads[t].nregs);
    return p->threads[t].reg_names[r];
}

static int is_reg_expr(const wmx_program *p, int t, int e, const char *name)
{
    const ir_expr *x = ex(p, e);
    return x->op == OP_REG && strcmp(regname(p, t, x->reg), name) == 0;
}

/* ---- a sequential reference run (threads one after the other) ---------- */

/* Runs the threads in order P0, P1, ... each to completion under SC; returns
 * false when a thread blocks or runs away. regs/mem are filled. */
static bool run_seq(const wmx_program *p, wmx_val **regs, wmx_val *mem)
{
    if (p->ncells)
        memcpy(mem, p->cell_init, (size_t)p->ncells * sizeof *mem);
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        wmx_val *r = regs[t];
        if (th->nregs)
            memcpy(r, th->reg_init, (size_t)th->nregs * sizeof *r);
        int pc = 0, steps = 0;
        while (pc < th->ninstrs) {
            if (++steps > 10000)
                return false;
            const ir_instr *in = &th->instrs[pc++];
            int cell = -1;
            switch (in->kind) {
            case I_LOAD: case I_STORE: case I_XCHG: case I_FAA: case I_CAS:
                cell = ir_address_cell(p, &in->addr, r);
                ck_assert_int_ge(cell, 0);
                break;
            default:
                break;
            }
            wmx_val v1 = in->e1 >= 0 ? ir_eval(p, in->e1, r, NULL) : 0;
            wmx_val v2 = in->e2 >= 0 ? ir_eval(p, in->e2, r, NULL) : 0;
            switch (in->kind) {
            case I_LOAD: r[in->dst] = mem[cell]; break;
            case I_STORE: mem[cell] = v1; break;
            case I_XCHG: {
                wmx_val o = mem[cell];
                mem[cell] = v1;
                if (in->dst >= 0)
                    r[in->dst] = o;
                break;
            }
            case I_FAA: {
                wmx_val o = mem[cell];
                mem[cell] = (wmx_val)((uint64_t)o + (uint64_t)v1);
                if (in->dst >= 0)
                    r[in->dst] = o;
                break;
            }
            case I_CAS: {
                wmx_val o = mem[cell];
                bool ok = o == v1;
                if (ok)
                    mem[cell] = v2;
                if (in->dst >= 0)
                    r[in->dst] = o;
                if (in->dst2 >= 0)
                    r[in->dst2] = ok;
                break;
            }
            case I_LET: r[in->dst] = v1; break;
            case I_JUMP: if (in->e1 < 0 || v1 != 0) pc = in->target; break;
            case I_HALT: pc = th->ninstrs; break;
            case I_ASSUME: if (!v1) return false; break;
            default: break;
            }
        }
    }
    return true;
}

/* Runs sequentially and evaluates the final proposition. */
static bool seq_cond(const wmx_program *p)
{
    wmx_val *regs[64];
    ck_assert_int_le(p->nthreads, 64);
    for (int t = 0; t < p->nthreads; t++)
        regs[t] = calloc((size_t)p->threads[t].nregs + 1, sizeof(wmx_val));
    wmx_val *mem = calloc((size_t)p->ncells + 1, sizeof(wmx_val));
    bool ok = run_seq(p, regs, mem);
    bool res = ok && ir_cond_eval(p, p->cond_root, (const wmx_val *const *)regs, mem);
    for (int t = 0; t < p->nthreads; t++)
        free(regs[t]);
    free(mem);
    return res;
}

/* ---- corpus ------------------------------------------------------------- */

static int parse_tsv(const char *dialect)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/expected.tsv", corpus_dir(), dialect);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char line[4096];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        if (lineno++ == 0)
            continue;    /* header */
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        char rel[4200];
        snprintf(rel, sizeof rel, "%s/%s", dialect, line);
        wmx_program *p = parse_file(rel);
        ck_assert_int_ge(p->nthreads, 1);
        ck_assert_str_eq(p->arch, strcmp(dialect, "x86") == 0 ? "X86" : "X86_64");
        ck_assert_int_ne(p->quant, Q_NONE);
        ck_assert_int_ge(p->cond_root, 0);
        ck_assert_ptr_nonnull(p->cond_text);
        for (int t = 0; t < p->nthreads; t++)
            for (int i = 0; i < p->threads[t].ninstrs; i++) {
                const ir_instr *in = &p->threads[t].instrs[i];
                ck_assert_ptr_nonnull(in->text);
                ck_assert_int_gt(in->loc.line, 0);
                ck_assert_int_gt(in->loc.col, 0);
            }
        ir_program_free(p);
        n++;
    }
    fclose(f);
    return n;
}

START_TEST(test_corpus_x86)
{
    ck_assert_int_eq(parse_tsv("x86"), 136);
}
END_TEST

START_TEST(test_corpus_x86_64)
{
    ck_assert_int_eq(parse_tsv("x86_64"), 42);
}
END_TEST

/* Single-thread instruction tests: a sequential run decides their forall. */
START_TEST(test_instruction_tests_eval)
{
    static const char *const names[] = {
        "A000", "A001", "A002", "A003", "A004", "A005", "A007", "A008",
        "A009", "A010", "A012"
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "x86_64/herdtools7/herd/tests/instructions/X86_64/%s.litmus", names[i]);
        wmx_program *p = parse_file(rel);
        ck_assert_int_eq(p->quant, Q_FORALL);
        ck_assert_msg(seq_cond(p), "%s: condition false after a sequential run", names[i]);
        ir_program_free(p);
    }
}
END_TEST

/* ---- shapes ------------------------------------------------------------- */

static const char *SB =
    "X86 SB\n"
    "\"Fre PodWR Fre PodWR\"\n"
    "Cycle=Fre PodWR Fre PodWR\n"
    "{ x=0; y=0; }\n"
    " P0          | P1          ;\n"
    " MOV [x],$1  | MOV [y],$1  ;\n"
    " MOV EAX,[y] | MOV EAX,[x] ;\n"
    "exists (0:EAX=0 /\\ 1:EAX=0)\n";

START_TEST(test_sb_shape)
{
    wmx_program *p = parse_ok(SB);
    ck_assert_str_eq(p->name, "SB");
    ck_assert_str_eq(p->arch, "X86");
    ck_assert_str_eq(p->file, "t.litmus");
    ck_assert_int_eq(p->nthreads, 2);
    ck_assert_str_eq(p->threads[0].name, "P0");
    ck_assert_str_eq(p->threads[1].name, "P1");
    ck_assert_int_eq(p->nvars, 2);
    int x = ir_find_var(p, "x"), y = ir_find_var(p, "y");
    ck_assert_int_ge(x, 0);
    ck_assert_int_ge(y, 0);
    for (int t = 0; t < 2; t++) {
        const ir_thread *th = &p->threads[t];
        ck_assert_int_eq(th->ninstrs, 2);
        const ir_instr *st = &th->instrs[0], *ld = &th->instrs[1];
        ck_assert_int_eq(st->kind, I_STORE);
        ck_assert_int_eq(st->addr.var, t == 0 ? x : y);
        ck_assert_int_eq(st->addr.index, -1);
        ck_assert_int_eq(st->addr.ptr, -1);
        ck_assert_int_eq(ex(p, st->e1)->op, OP_CONST);
        ck_assert_int_eq(ex(p, st->e1)->value, 1);
        ck_assert_int_eq(ld->kind, I_LOAD);
        ck_assert_int_eq(ld->addr.var, t == 0 ? y : x);
        ck_assert_str_eq(regname(p, t, ld->dst), "EAX");
        ck_assert_int_eq(st->loc.line, 6);
        ck_assert_int_eq(ld->loc.line, 7);
        ck_assert_int_eq(st->loc.col, t == 0 ? 2 : 16);
        ck_assert_str_eq(st->text, t == 0 ? "MOV [x],$1" : "MOV [y],$1");
        ck_assert_str_eq(ld->text, t == 0 ? "MOV EAX,[y]" : "MOV EAX,[x]");
    }
    ck_assert_int_eq(p->quant, Q_EXISTS);
    const ir_cond *root = &p->conds[p->cond_root];
    ck_assert_int_eq(root->kind, C_AND);
    for (int k = 0; k < 2; k++) {
        const ir_cond *a = &p->conds[k == 0 ? root->a : root->b];
        ck_assert_int_eq(a->kind, C_EQ);
        ck_assert_int_eq(a->lhs.thread, k);
        ck_assert_str_eq(regname(p, k, a->lhs.reg), "EAX");
        ck_assert_int_eq(a->value, 0);
        ck_assert(!a->value_is_addr);
    }
    ck_assert_str_eq(p->cond_text, "(0:EAX=0 /\\ 1:EAX=0)");
    ir_program_free(p);
}
END_TEST

START_TEST(test_x86_64_registers)
{
    wmx_program *p = parse_ok(
        "X86_64 SB\n{\n}\n"
        " P0            | P1            ;\n"
        " movl $1,(x)   | movl $1,(y)   ;\n"
        " mfence        | movq (x),%RAX ;\n"
        " movl (y),%eax | movw (x),%ax  ;\n"
        "exists (0:RAX=0 /\\ 1:eax=0)\n");
    ck_assert_str_eq(p->arch, "X86_64");
    const ir_thread *t0 = &p->threads[0], *t1 = &p->threads[1];
    ck_assert_int_eq(t0->ninstrs, 3);
    ck_assert_int_eq(t0->instrs[1].kind, I_FENCE);
    ck_assert_int_eq(t0->instrs[2].kind, I_LOAD);
    ck_assert_str_eq(regname(p, 0, t0->instrs[2].dst), "rax");
    ck_assert_int_eq(t1->instrs[1].kind, I_LOAD);
    ck_assert_str_eq(regname(p, 1, t1->instrs[1].dst), "rax");
    /* a 16-bit load goes through a hidden register and merges */
    ck_assert_int_eq(t1->ninstrs, 4);
    ck_assert_int_eq(t1->instrs[2].kind, I_LOAD);
    ck_assert_int_eq(regname(p, 1, t1->instrs[2].dst)[0], '$');
    ck_assert_int_eq(t1->instrs[3].kind, I_LET);
    ck_assert_str_eq(regname(p, 1, t1->instrs[3].dst), "rax");
    ck_assert_int_eq(ir_find_reg(p, 1, "eax"), -1);
    const ir_cond *root = &p->conds[p->cond_root];
    ck_assert_str_eq(regname(p, 0, p->conds[root->a].lhs.reg), "rax");
    ck_assert_str_eq(regname(p, 1, p->conds[root->b].lhs.reg), "rax");
    ir_program_free(p);
}
END_TEST

START_TEST(test_xchg)
{
    wmx_program *p = parse_ok(
        "X86 X\n{ x=0; }\n"
        " P0            | P1           ;\n"
        " XCHG [x],EAX  | XCHG EBX,[x] ;\n"
        " MOV EAX,$2    | XCHG EAX,EBX ;\n"
        "exists (0:EAX=0)\n");
    const ir_instr *a = &p->threads[0].instrs[0];
    ck_assert_int_eq(a->kind, I_XCHG);
    ck_assert_int_eq(a->addr.var, ir_find_var(p, "x"));
    ck_assert_str_eq(regname(p, 0, a->dst), "EAX");
    ck_assert(is_reg_expr(p, 0, a->e1, "EAX"));
    ck_assert_int_eq(p->threads[0].instrs[1].kind, I_LET);
    ck_assert_int_eq(ex(p, p->threads[0].instrs[1].e1)->value, 2);
    const ir_instr *b = &p->threads[1].instrs[0];
    ck_assert_int_eq(b->kind, I_XCHG);
    ck_assert_str_eq(regname(p, 1, b->dst), "EBX");
    ck_assert(is_reg_expr(p, 1, b->e1, "EBX"));
    /* register-register exchange: three lets, no memory access */
    ck_assert_int_eq(p->threads[1].ninstrs, 4);
    for (int i = 1; i < 4; i++)
        ck_assert_int_eq(p->threads[1].instrs[i].kind, I_LET);
    ir_program_free(p);

    p = parse_ok("X86_64 A\n{ int y; }\n P0 ;\n movl $2,%eax ;\n xchgl (y),%eax ;\n"
                 "lock xchg %ebx,(y) ;\nforall (0:rax=0)\n");
    ck_assert_int_eq(p->threads[0].instrs[1].kind, I_XCHG);
    ck_assert_str_eq(regname(p, 0, p->threads[0].instrs[1].dst), "rax");
    ck_assert_int_eq(p->threads[0].instrs[2].kind, I_XCHG);
    ck_assert_str_eq(regname(p, 0, p->threads[0].instrs[2].dst), "rbx");
    ir_program_free(p);
}
END_TEST

START_TEST(test_lock_rmw)
{
    wmx_program *p = parse_ok(
        "X86 L\n{ x=0; y=0; }\n"
        " P0                     ;\n"
        " LOCK CMPXCHG [x],EBX   ;\n"
        " LOCK ADD [y],$3        ;\n"
        " LOCK XADD [y],ECX      ;\n"
        " LOCK INC [x]           ;\n"
        " LOCK DEC [x]           ;\n"
        " LOCK OR [x],$4         ;\n"
        " ADD [y],EAX            ;\n"
        "exists (0:EAX=0)\n");
    const ir_thread *th = &p->threads[0];
    int x = ir_find_var(p, "x"), y = ir_find_var(p, "y");
    const ir_instr *cas = &th->instrs[0];
    ck_assert_int_eq(cas->kind, I_CAS);
    ck_assert_int_eq(cas->addr.var, x);
    ck_assert_str_eq(regname(p, 0, cas->dst), "EAX");
    ck_assert(is_reg_expr(p, 0, cas->e1, "EAX"));
    ck_assert(is_reg_expr(p, 0, cas->e2, "EBX"));
    ck_assert_str_eq(regname(p, 0, cas->dst2), "$zf");
    const ir_instr *add = &th->instrs[1];
    ck_assert_int_eq(add->kind, I_FAA);
    ck_assert_int_eq(add->addr.var, y);
    ck_assert_int_eq(add->dst, -1);
    ck_assert_int_eq(ex(p, add->e1)->value, 3);
    const ir_instr *xadd = &th->instrs[2];
    ck_assert_int_eq(xadd->kind, I_FAA);
    ck_assert_str_eq(regname(p, 0, xadd->dst), "ECX");
    ck_assert(is_reg_expr(p, 0, xadd->e1, "ECX"));
    ck_assert_int_eq(th->instrs[3].kind, I_FAA);
    ck_assert_int_eq(ir_eval(p, th->instrs[3].e1, NULL, NULL), 1);
    ck_assert_int_eq(th->instrs[4].kind, I_FAA);
    ck_assert_int_eq(ir_eval(p, th->instrs[4].e1, NULL, NULL), -1);
    /* LOCK OR: load, CAS, assume success */
    ck_assert_int_eq(th->instrs[5].kind, I_LOAD);
    ck_assert_int_eq(th->instrs[6].kind, I_CAS);
    ck_assert_int_eq(th->instrs[7].kind, I_ASSUME);
    ck_assert_str_eq(th->instrs[6].text, "LOCK OR [x],$4");
    /* unlocked ADD on memory: a plain load and store */
    ck_assert_int_eq(th->instrs[8].kind, I_LOAD);
    ck_assert_int_eq(th->instrs[9].kind, I_STORE);
    ck_assert_int_eq(th->ninstrs, 10);
    ck_assert_int_eq(th->instrs[9].loc.line, 10);
    /* sequential semantics: x: CAS(0->EBX=0) ok, +1, -1, |4 => 4; y: 3 then xadd 0 */
    wmx_val *regs[1] = { calloc((size_t)th->nregs, sizeof(wmx_val)) };
    wmx_val mem[2];
    ck_assert(run_seq(p, regs, mem));
    ck_assert_int_eq(mem[p->vars[x].base], 4);
    ck_assert_int_eq(mem[p->vars[y].base], 3);
    ck_assert_int_eq(regs[0][ir_find_reg(p, 0, "$zf")], 1);
    ck_assert_int_eq(regs[0][ir_find_reg(p, 0, "ECX")], 3);
    free(regs[0]);
    ir_program_free(p);
}
END_TEST

START_TEST(test_cmpxchg_fail_semantics)
{
    wmx_program *p = parse_ok(
        "X86_64 C\n{ x=5; 0:rax=1; 0:rbx=9; }\n P0 ;\n"
        " lock cmpxchgq %rbx,(x) ;\n jne L1 ;\n movq $7,%rcx ;\n L1: ;\n"
        "forall (0:rax=5 /\\ [x]=5 /\\ 0:rcx=0)\n");
    ck_assert(seq_cond(p));
    ir_program_free(p);
    p = parse_ok(
        "X86_64 C\n{ x=5; 0:rax=5; 0:rbx=9; }\n P0 ;\n"
        " lock cmpxchgq %rbx,(x) ;\n jne L1 ;\n movq $7,%rcx ;\n L1: ;\n"
        "forall (0:rax=5 /\\ [x]=9 /\\ 0:rcx=7)\n");
    ck_assert(seq_cond(p));
    ir_program_free(p);
}
END_TEST

START_TEST(test_xadd_flags)
{
    wmx_program *p = parse_ok(
        "X86_64 XF\n{ x=1; 0:rbx=-1; }\n P0 ;\n"
        " lock xaddq %rbx,(x) ;\n je L1 ;\n movq $7,%rcx ;\n L1: ;\n"
        "forall (0:rbx=1 /\\ [x]=0 /\\ 0:rcx=0)\n");
    ck_assert(seq_cond(p));
    ir_program_free(p);
    p = parse_ok("X86 I\n{ }\n P0 ;\n MOV EAX,1 ;\n MOV EBX,EAX ;\n ADD EBX,$-3 ;\n"
                 " MOV [x],EBX ;\nforall (x=-2 /\\ 0:EAX=1)\n");
    ck_assert(seq_cond(p));
    ir_program_free(p);
}
END_TEST

START_TEST(test_a006_branches)
{
    wmx_program *p = parse_file("x86_64/herdtools7/herd/tests/instructions/X86_64/A006.litmus");
    ck_assert_int_eq(p->nthreads, 2);
    const ir_thread *t0 = &p->threads[0], *t1 = &p->threads[1];
    ck_assert_int_eq(t0->ninstrs, 3);
    ck_assert_int_eq(t0->instrs[2].kind, I_HALT);
    /* mov; cmp (two lets); je; mov; ret; movl; jmp */
    static const ir_kind want[] = { I_LOAD, I_LET, I_LET, I_JUMP, I_STORE, I_HALT, I_STORE, I_JUMP };
    ck_assert_int_eq(t1->ninstrs, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(t1->instrs[i].kind, want[i]);
    ck_assert_str_eq(regname(p, 1, t1->instrs[0].dst), "rax");
    ck_assert_str_eq(regname(p, 1, t1->instrs[1].dst), "$cmp_a");
    ck_assert_str_eq(regname(p, 1, t1->instrs[2].dst), "$cmp_b");
    const ir_instr *je = &t1->instrs[3];
    ck_assert_int_ge(je->e1, 0);
    ck_assert_int_eq(ex(p, je->e1)->op, OP_EQ);
    ck_assert_int_eq(je->target, 6);
    ck_assert_str_eq(je->text, "je L0x3b");
    ck_assert_int_eq(t1->instrs[4].addr.var, ir_find_var(p, "P1_r0"));
    const ir_instr *jmp = &t1->instrs[7];
    ck_assert_int_eq(jmp->e1, -1);
    ck_assert_int_eq(jmp->target, 4);
    ck_assert_int_eq(jmp->loc.line, 19);
    /* condition: [x]=2 /\ P1_r0=1, the bare name is a location */
    const ir_cond *root = &p->conds[p->cond_root];
    ck_assert_int_eq(root->kind, C_AND);
    const ir_cond *b = &p->conds[root->b];
    ck_assert_int_eq(b->lhs.thread, -1);
    ck_assert_int_eq(b->lhs.cell, p->vars[ir_find_var(p, "P1_r0")].base);
    ck_assert_int_eq(b->value, 1);
    /* sequentially (P0 then P1): P1 reads y=1, writes x=1, then P1_r0=1 */
    wmx_val *regs[2] = { calloc(8, sizeof(wmx_val)), calloc(8, sizeof(wmx_val)) };
    wmx_val mem[3];
    ck_assert(run_seq(p, regs, mem));
    ck_assert_int_eq(mem[p->vars[ir_find_var(p, "x")].base], 1);
    ck_assert_int_eq(mem[p->vars[ir_find_var(p, "P1_r0")].base], 1);
    free(regs[0]);
    free(regs[1]);
    ir_program_free(p);
}
END_TEST

START_TEST(test_a009_address)
{
    wmx_program *p = parse_file("x86_64/herdtools7/herd/tests/instructions/X86_64/A009.litmus");
    int t = ir_find_var(p, "t");
    ck_assert_int_ge(t, 0);
    ck_assert_int_eq(p->vars[t].length, 2);
    ck_assert_int_eq(p->vars[t].elem_size, 8);
    ck_assert_int_eq(p->cell_init[p->vars[t].base], 1);
    ck_assert_int_eq(p->cell_init[p->vars[t].base + 1], -1);
    const ir_thread *th = &p->threads[0];
    int rax = ir_find_reg(p, 0, "rax");
    ck_assert_int_ge(rax, 0);
    ck_assert_int_eq(th->reg_init[rax], ir_cell_address(p, p->vars[t].base));
    ck_assert_int_eq(th->reg_init[ir_find_reg(p, 0, "rbx")], 1);
    ck_assert_int_ge(ir_find_reg(p, 0, "rcx"), 0);
    const ir_instr *ld = &th->instrs[0];
    ck_assert_int_eq(ld->kind, I_LOAD);
    ck_assert_int_ge(ld->addr.ptr, 0);
    ck_assert_int_eq(ld->addr.var, -1);
    ck_assert_int_eq(ir_address_cell(p, &ld->addr, th->reg_init), p->vars[t].base + 1);
    ir_program_free(p);

    /* Intel indexed forms and a location's address as an immediate */
    p = parse_ok("X86 I\n{ int t[4]; 0:EBX=2; }\n P0 ;\n MOV EAX,[t+8] ;\n"
                 " MOV ECX,$t ;\n MOV EDX,[ECX+EBX*4] ;\n LEA ESI,[t+12] ;\n"
                 "exists (0:ECX=t /\\ 0:EAX=0)\n");
    th = &p->threads[0];
    t = ir_find_var(p, "t");
    ck_assert_int_eq(p->vars[t].elem_size, 4);
    ck_assert_int_eq(th->instrs[0].addr.var, t);
    ck_assert_int_eq(ir_eval(p, th->instrs[0].addr.index, NULL, NULL), 2);
    ck_assert_int_eq(ex(p, th->instrs[1].e1)->op, OP_ADDR);
    ck_assert_int_ge(th->instrs[2].addr.ptr, 0);
    const ir_cond *a = &p->conds[p->conds[p->cond_root].a];
    ck_assert(a->value_is_addr);
    ck_assert_int_eq(a->value, p->vars[t].base);
    wmx_val *regs[1] = { calloc((size_t)th->nregs, sizeof(wmx_val)) };
    wmx_val mem[4];
    ck_assert(run_seq(p, regs, mem));
    ck_assert_int_eq(regs[0][ir_find_reg(p, 0, "ECX")], ir_cell_address(p, p->vars[t].base));
    ck_assert_int_eq(regs[0][ir_find_reg(p, 0, "ESI")], ir_cell_address(p, p->vars[t].base + 3));
    ck_assert(ir_cond_eval(p, p->cond_root, (const wmx_val *const *)regs, mem));
    free(regs[0]);
    ir_program_free(p);
}
END_TEST

START_TEST(test_alu_semantics)
{
    wmx_program *p = parse_ok(
        "X86_64 ALU\n{ 0:rax=1; 0:rbx=0x202020202020202; }\n P0 ;\n"
        " shl 2,%eax ;\n addl $3,%eax ;\n subq $1,%rax ;\n"       /* rax = 6 */
        " movl $-1,%ecx ;\n"                                          /* rcx = 0xffffffff */
        " movq $-8,%rdx ;\n sarq $1,%rdx ;\n"                       /* rdx = -4 */
        " movq %rbx,%rsi ;\n xorl %esi,%esi ;\n incq %rsi ;\n"      /* rsi = 1 */
        " movq $10,%rdi ;\n decq %rdi ;\n andq $12,%rdi ;\n orq $1,%rdi ;\n" /* 9 */
        " movb $0x55,%bl ;\n"                                         /* low byte replaced */
        " nopw 0(%rax,%eax,0) ;\n endbr64 ;\n"
        "forall (0:rax=6 /\\ 0:rcx=4294967295 /\\ 0:rdx=-4 /\\ 0:rsi=1 /\\ 0:rdi=9"
        " /\\ 0:rbx=0x202020202020255)\n");
    ck_assert(seq_cond(p));
    ir_program_free(p);
}
END_TEST

START_TEST(test_loop_and_jcc)
{
    /* count down from 3 with dec/jne; signed and unsigned compares */
    wmx_program *p = parse_ok(
        "X86_64 LOOP\n{ 0:rcx=3; }\n P0 ;\n"
        " L0: addq $2,%rax ;\n decq %rcx ;\n jne L0 ;\n"
        " movq $-1,%rdx ;\n cmpq $1,%rdx ;\n jl L1 ;\n movq $100,%rax ;\n"
        " L1: cmpq $1,%rdx ;\n ja L2 ;\n movq $200,%rax ;\n L2: ;\n"
        "forall (0:rax=6 /\\ 0:rcx=0)\n");
    ck_assert(seq_cond(p));
    ir_program_free(p);
}
END_TEST

START_TEST(test_condition_forms)
{
    wmx_program *p = parse_ok(
        "X86 C\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n"
        "locations [x; 1:EBX; [y];]\n"
        "~exists (0:EAX=1 \\/ ~(x=2 /\\ [y]=-3) /\\ (1:EAX=0 => z=1))\n");
    ck_assert_int_eq(p->quant, Q_NOT_EXISTS);
    ck_assert_int_ge(ir_find_var(p, "z"), 0);       /* created by the condition */
    ck_assert_int_ge(ir_find_var(p, "y"), 0);
    const ir_cond *root = &p->conds[p->cond_root];
    ck_assert_int_eq(root->kind, C_OR);
    ck_assert_int_eq(p->conds[root->a].kind, C_EQ);
    const ir_cond *conj = &p->conds[root->b];
    ck_assert_int_eq(conj->kind, C_AND);
    const ir_cond *neg = &p->conds[conj->a];
    ck_assert_int_eq(neg->kind, C_NOT);
    const ir_cond *inner = &p->conds[neg->a];
    ck_assert_int_eq(inner->kind, C_AND);
    ck_assert_int_eq(p->conds[inner->b].value, -3);
    ck_assert_int_eq(p->conds[conj->b].kind, C_IMPLIES);
    ck_assert_int_eq(p->nobserved, 3);
    ck_assert_int_eq(p->observed[0].thread, -1);
    ck_assert_int_eq(p->observed[1].thread, 1);
    ck_assert_str_eq(regname(p, 1, p->observed[1].reg), "EBX");
    ck_assert_str_eq(p->cond_text, "(0:EAX=1 \\/ ~(x=2 /\\ [y]=-3) /\\ (1:EAX=0 => z=1))");
    ir_program_free(p);

    p = parse_ok("X86 F\n{ }\n P0 ;\n MOV [x],$1 ;\nforall\n  (x=1 \\/\n   x=2) (* end *)\n");
    ck_assert_int_eq(p->quant, Q_FORALL);
    ck_assert_str_eq(p->cond_text, "(x=1 \\/ x=2)");
    ir_program_free(p);

    p = parse_ok("X86 N\n{ }\n P0 ;\n MFENCE ;\n");
    ck_assert_int_eq(p->quant, Q_NONE);
    ck_assert_int_eq(p->cond_root, -1);
    ir_program_free(p);
}
END_TEST

START_TEST(test_layout_forms)
{
    /* nested comments, empty cells, labels alone in a cell, '#' remarks */
    wmx_program *p = parse_ok(
        "(* lead (* nested *) comment *)\n"
        "X86 LAYOUT (* named *)\n"
        "\"doc\nstring\"\n"
        "Prefetch=0:x=F\n"
        "{ [x]=1; uint64_t y; int64_t 0:EAX; 1:EBX=2 }\n"
        "P0 | P1 | P2 ;\n"
        "    |  MOV EAX,[x] | ;  # trailing remark\n"
        " MFENCE | L0: MOV EBX,$1 | ;\n"
        "  | JMP L1 | ;\n"
        "  | L1: | ;\n"
        "exists (1:EAX=1)\n");
    ck_assert_int_eq(p->nthreads, 3);
    ck_assert_int_eq(p->threads[0].ninstrs, 1);
    ck_assert_int_eq(p->threads[1].ninstrs, 3);
    ck_assert_int_eq(p->threads[2].ninstrs, 0);
    ck_assert_int_eq(p->threads[1].instrs[2].target, 3);
    ck_assert_str_eq(p->threads[1].instrs[1].text, "MOV EBX,$1");
    ck_assert_int_eq(p->threads[1].instrs[1].loc.line, 9);
    ck_assert_int_eq(p->threads[1].instrs[1].loc.col, 15);
    ck_assert_int_eq(p->cell_init[p->vars[ir_find_var(p, "x")].base], 1);
    ck_assert_int_eq(p->threads[1].reg_init[ir_find_reg(p, 1, "EBX")], 2);
    ck_assert_int_ge(ir_find_reg(p, 0, "EAX"), 0);
    ir_program_free(p);
}
END_TEST

START_TEST(test_detect)
{
    ck_assert(litmus_detect("X86 SB\n", 7));
    ck_assert(litmus_detect("  X86_64 SB\n", 12));
    ck_assert(!litmus_detect("AArch64 SB\n", 11));
    ck_assert(!litmus_detect("X86", 3));
    ck_assert(!litmus_detect("", 0));
    ck_assert(!litmus_detect("thread t0 {", 11));
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

START_TEST(test_errors)
{
    expect_error("X86 T\n{ }\n P0 ;\n FOO EAX,[x] ;\nexists (0:EAX=0)\n", 4, 2,
                 "unknown instruction 'FOO'");
    expect_error("X86 T\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[x]\nexists (0:EAX=0)\n", 4, 26,
                 "expected ';'");
    expect_error("X86 T\n(* never\nclosed\n{ }\n", 2, 1, "unterminated comment");
    expect_error("X86 T\n{ x=99999999999999999999; }\n P0 ;\n MFENCE ;\n", 2, 5,
                 "number out of range");
    expect_error("X86 T\n{ 0:FOO=1; }\n P0 ;\n MFENCE ;\n", 2, 5, "undeclared register 'FOO'");
    expect_error("X86_64 T\n{ }\n P0 ;\n movl $1,%foo ;\n", 4, 11, "undeclared register 'foo'");
    expect_error("X86 T\n{ }\n P0 ;\n MFENCE ;\nexists (0:FOO=1)\n", 5, 11, "undeclared register");
    expect_error("X86 T\n{ }\n P0 ;\n JMP L9 ;\n", 4, 6, "undefined label 'L9'");
    expect_error("X86 T\n{ }\n P0 ;\n MFENCE ;\nexists (3:EAX=1)\n", 5, 9, "unknown thread '3' (threads: P0)");
    expect_error("ARM T\n{ }\n", 1, 1, "unsupported architecture 'ARM'");
    expect_error("", 1, 1, "empty file");
    expect_error("X86 T\n{ x=1 \n", 3, 1, "expected ';' or '}'");
    expect_error("X86 T\n{ }\n P0 | P1 ;\n MFENCE | MFENCE | MFENCE ;\n", 4, 18, "more columns");
    expect_error("X86 T\n{ }\n P1 ;\n", 3, 2, "expected 'P0'");
    expect_error("X86 T\n{ }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1 /\\ )\n", 5, 20,
                 "expected a location or register");
    expect_error("X86 T\n{ }\n P0 ;\n MOV [x],[y] ;\n", 4, 2, "one memory operand");
    expect_error("X86 T\n{ }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1) junk\n", 5, 18, "unexpected");
    expect_error("X86 T\n{ }\n P0 ;\n LOCK MOV [x],$1 ;\n", 4, 2, "LOCK prefix");
    expect_error("X86 T\n\"unterminated\n", 2, 1, "unterminated string");
    expect_error("X86 T\n{ int t[5000]; }\n P0 ;\n MFENCE ;\n", 2, 9, "bad array size");
    expect_error("X86 T\n{ }\n P0 ;\n MOV EAX,0x1g ;\n", 4, 10, "malformed number");
    expect_error("X86 T\n{ }\n P0 ;\n MOV EAX,[x] ;\nfilter (0:EAX=1)\n", 5, 1, "filter");
    expect_error("X86 T\n{ }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=-18446744073709551615)\n", 5, 15,
                 "number out of range");
}
END_TEST

START_TEST(test_deep_nesting)
{
    size_t n = 5000;
    char *s = malloc(n * 2 + 20000);
    strcpy(s, "X86 T\n{ }\n P0 ;\n MFENCE ;\nexists ");
    size_t k = strlen(s);
    for (size_t i = 0; i < n; i++)
        s[k++] = '(';
    strcpy(s + k, "x=1");
    k += 3;
    for (size_t i = 0; i < n; i++)
        s[k++] = ')';
    s[k] = '\0';
    wmx_error err;
    wmx_program *p = parse_str(s, &err);
    ck_assert_ptr_null(p);
    ck_assert(strstr(err.msg, "nesting deeper than 1000 levels") != NULL);
    ck_assert_int_eq(err.line, 5);
    /* moderate nesting is fine */
    strcpy(s, "X86 T\n{ }\n P0 ;\n MFENCE ;\nexists ~~((((x=1))))\n");
    p = parse_ok(s);
    ir_program_free(p);
    /* each '(' costs one level, as in .wmx (core/cond.c): 999 around an
     * atom make 1000 levels and pass, 1000 do not */
    for (int depth = 999; depth <= 1000; depth++) {
        strcpy(s, "X86 T\n{ }\n P0 ;\n MFENCE ;\nexists ");
        k = strlen(s);
        for (int i = 0; i < depth; i++)
            s[k++] = '(';
        k += (size_t)sprintf(s + k, "x=1");
        for (int i = 0; i < depth; i++)
            s[k++] = ')';
        s[k] = '\0';
        p = parse_str(s, &err);
        if (depth < 1000) {
            ck_assert_msg(p != NULL, "%s", err.msg);
            ir_program_free(p);
        } else {
            ck_assert_ptr_null(p);
        }
    }
    /* a long chain of /\ is a deep tree too: refused, not a deep recursion later */
    strcpy(s, "X86 T\n{ }\n P0 ;\n MFENCE ;\nexists x=1");
    k = strlen(s);
    for (int i = 0; i < 1000; i++)
        k += (size_t)sprintf(s + k, " /\\ x=1");
    p = parse_str(s, &err);
    ck_assert_ptr_null(p);
    ck_assert(strstr(err.msg, "nesting deeper than 1000") != NULL);
    free(s);
}
END_TEST

/* Every prefix of a corpus file, and junk bytes: no crash, errors located. */
START_TEST(test_truncated_and_junk)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/x86_64/herdtools7/herd/tests/instructions/X86_64/A006.litmus",
             corpus_dir());
    wmx_error err;
    size_t len;
    char *text = wmx_read_file(path, &len, &err);
    ck_assert_ptr_nonnull(text);
    for (size_t n = 0; n <= len; n++) {
        memset(&err, 0, sizeof err);
        wmx_program *p = litmus_parse(text, n, "t", &err);
        if (p)
            ir_program_free(p);
        else
            ck_assert_int_gt(err.line, 0);
    }
    free(text);

    unsigned char junk[512];
    unsigned s = 12345;
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof junk; i++) {
            s = s * 1103515245u + 12345u;
            junk[i] = (unsigned char)(s >> 16);
        }
        memcpy(junk, round % 2 ? "X86 J\n{" : "X86_64 J\n", round % 2 ? 7 : 9);
        wmx_program *p = litmus_parse((const char *)junk, sizeof junk, "t", &err);
        if (p)
            ir_program_free(p);
    }
    static const char nul[] = "X86 T\n{ }\0 P0 ;\n";
    wmx_program *p = litmus_parse(nul, sizeof nul - 1, "t.litmus", &err);
    ck_assert_ptr_null(p);
    ck_assert(strstr(err.msg, "NUL") != NULL);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 4);
}
END_TEST

/* Issue 17: an initial value naming an undeclared location declares it,
 * which reallocs cell_init while apply_init was storing into it. */
START_TEST(test_init_declares_location)
{
    for (int extra = 0; extra < 40; extra += 13) {
        char src[4096];
        int n = snprintf(src, sizeof src, "X86 UAF\n{ ");
        for (int i = 0; i < extra; i++)
            n += snprintf(src + n, sizeof src - (size_t)n, "v%d=%d; ", i, i);
        snprintf(src + n, sizeof src - (size_t)n,
                 "int a[2]=x; }\n P0 ;\n MOV EAX,[a] ;\nexists (0:EAX=0)\n");
        wmx_program *p = parse_ok(src);
        int a = ir_find_var(p, "a"), x = ir_find_var(p, "x");
        ck_assert_int_ge(a, 0);
        ck_assert_int_ge(x, 0);
        ck_assert_int_eq(p->cell_init[p->vars[a].base], ir_cell_address(p, p->vars[x].base));
        ir_program_free(p);
    }
}
END_TEST

static Suite *litmus_suite(void)
{
    Suite *s = suite_create("litmus");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_corpus_x86);
    tcase_add_test(tc, test_corpus_x86_64);
    tcase_add_test(tc, test_instruction_tests_eval);
    tcase_add_test(tc, test_sb_shape);
    tcase_add_test(tc, test_x86_64_registers);
    tcase_add_test(tc, test_xchg);
    tcase_add_test(tc, test_lock_rmw);
    tcase_add_test(tc, test_cmpxchg_fail_semantics);
    tcase_add_test(tc, test_xadd_flags);
    tcase_add_test(tc, test_a006_branches);
    tcase_add_test(tc, test_a009_address);
    tcase_add_test(tc, test_alu_semantics);
    tcase_add_test(tc, test_loop_and_jcc);
    tcase_add_test(tc, test_condition_forms);
    tcase_add_test(tc, test_layout_forms);
    tcase_add_test(tc, test_detect);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_deep_nesting);
    tcase_add_test(tc, test_truncated_and_junk);
    tcase_add_test(tc, test_init_declares_location);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(litmus_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
