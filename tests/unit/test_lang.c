/* test_lang.c - the .wmx reader (core/lang.c): the IR produced for every
 * statement form, loops, conditions, the shipped examples, and error
 * messages with their exact positions. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfront_cache.h"
#include "lang.h"
#include "thread_memo.h"

/* ---- helpers ------------------------------------------------------- */

static wmx_program *parse(const char *src)
{
    wmx_error err;
    memset(&err, 0, sizeof err);
    wmx_program *p = lang_parse(src, strlen(src), "t.wmx", &err);
    if (!p) {
        char buf[1024];
        ck_abort_msg("unexpected parse error: %s", wmx_error_format(&err, buf, sizeof buf));
    }
    return p;
}

/* Parses text that must fail; returns "line:col: message". */
static const char *parse_err(const char *src)
{
    static char out[1024];
    wmx_error err;
    memset(&err, 0, sizeof err);
    wmx_program *p = lang_parse(src, strlen(src), "t.wmx", &err);
    if (p) {
        ir_program_free(p);
        ck_abort_msg("expected a parse error for:\n%s", src);
    }
    ck_assert_str_eq(err.file, "t.wmx");
    snprintf(out, sizeof out, "%d:%d: %s", err.line, err.col, err.msg);
    return out;
}

static void expect_err(const char *src, const char *want)
{
    const char *got = parse_err(src);
    ck_assert_msg(strncmp(got, want, strlen(want)) == 0,
                  "error for\n%s\nwas   \"%s\"\nwanted \"%s...\"", src, got, want);
}

/* Expressions printed in prefix form over register names. */
static void fmt_expr(const wmx_program *p, int t, int e, char *buf, size_t n)
{
    static const char *const ops[] = {
        "c", "r", "&", "neg", "!", "~", "+", "-", "*", "/", "%", "&", "|", "^",
        "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"
    };
    if (e < 0) {
        snprintf(buf, n, "_");
        return;
    }
    const ir_expr *x = &p->exprs[e];
    if (x->op == OP_CONST) {
        snprintf(buf, n, "%lld", (long long)x->value);
    } else if (x->op == OP_REG) {
        snprintf(buf, n, "%s", p->threads[t].reg_names[x->reg]);
    } else {
        char a[256], b[256];
        fmt_expr(p, t, x->a, a, sizeof a);
        if (x->b >= 0) {
            fmt_expr(p, t, x->b, b, sizeof b);
            if (snprintf(buf, n, "(%s %s %s)", ops[x->op], a, b) >= (int)n)
                ck_abort_msg("expression too long to print");
        } else {
            if (snprintf(buf, n, "(%s %s)", ops[x->op], a) >= (int)n)
                ck_abort_msg("expression too long to print");
        }
    }
}

static const char *E(const wmx_program *p, int t, int e)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    fmt_expr(p, t, e, buf[k], sizeof buf[k]);
    return buf[k];
}

static const char *R(const wmx_program *p, int t, int r)
{
    return r < 0 ? "_" : p->threads[t].reg_names[r];
}

static const ir_instr *I(const wmx_program *p, int t, int i)
{
    ck_assert_int_lt(t, p->nthreads);
    ck_assert_int_lt(i, p->threads[t].ninstrs);
    return &p->threads[t].instrs[i];
}

static const char *VAR(const wmx_program *p, const ir_instr *in)
{
    return in->addr.var < 0 ? "_" : p->vars[in->addr.var].name;
}

#define HEAD "var x, y = 3, z = -2;\nvar a[4] = {1, 2};\n"

/* ---- declarations -------------------------------------------------- */

START_TEST(test_vars_and_name)
{
    wmx_program *p = parse("// c\nname SB+x.y\n" HEAD "thread P0 { }\n");
    ck_assert_str_eq(p->name, "SB+x.y");
    ck_assert_str_eq(p->arch, "wmx");
    ck_assert_str_eq(p->file, "t.wmx");
    ck_assert_int_eq(p->nvars, 4);
    ck_assert_int_eq(p->ncells, 7);
    ck_assert_str_eq(p->vars[3].name, "a");
    ck_assert_int_eq(p->vars[3].length, 4);
    wmx_val want[] = { 0, 3, -2, 1, 2, 0, 0 };
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(p->cell_init[i], want[i]);
    ck_assert_int_eq(p->quant, Q_NONE);
    ck_assert_int_eq(p->cond_root, -1);
    ck_assert_int_eq(p->nthreads, 1);
    ck_assert_int_eq(p->threads[0].ninstrs, 0);
    ir_program_free(p);

    /* default name: the file's base name */
    wmx_error err;
    const char *src = "thread P0 { }";
    p = lang_parse(src, strlen(src), "dir/sub/my-test.wmx", &err);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->name, "my-test");
    ir_program_free(p);
}
END_TEST

START_TEST(test_register_init)
{
    wmx_program *p = parse("thread P0 (r1 = 5, r2 = -9223372036854775808) { r3 = r1 + r2; }");
    const ir_thread *th = &p->threads[0];
    ck_assert_int_eq(th->nregs, 3);
    ck_assert_str_eq(th->reg_names[0], "r1");
    ck_assert_int_eq(th->reg_init[0], 5);
    ck_assert_int_eq(th->reg_init[1], INT64_MIN);
    ck_assert_int_eq(th->reg_init[2], 0);
    ir_program_free(p);
}
END_TEST

/* ---- statements ---------------------------------------------------- */

START_TEST(test_store_load)
{
    wmx_program *p = parse(HEAD "thread P0 {\n  x = 1;\n  r0 = y;\n  r1 = a[r0 + 1];\n"
                           "  a[2] = -7;\n  y = r0 * 2;\n}\n");
    const ir_instr *in = I(p, 0, 0);
    ck_assert_int_eq(in->kind, I_STORE);
    ck_assert_str_eq(VAR(p, in), "x");
    ck_assert_int_eq(in->addr.index, -1);
    ck_assert_int_eq(in->addr.ptr, -1);
    ck_assert_str_eq(E(p, 0, in->e1), "1");
    ck_assert_int_eq(in->loc.line, 4);
    ck_assert_int_eq(in->loc.col, 3);
    ck_assert_str_eq(in->text, "x = 1");

    in = I(p, 0, 1);                 /* r = x: one load, no temporary */
    ck_assert_int_eq(in->kind, I_LOAD);
    ck_assert_str_eq(VAR(p, in), "y");
    ck_assert_str_eq(R(p, 0, in->dst), "r0");
    ck_assert_str_eq(in->text, "r0 = y");

    in = I(p, 0, 2);
    ck_assert_int_eq(in->kind, I_LOAD);
    ck_assert_str_eq(VAR(p, in), "a");
    ck_assert_str_eq(E(p, 0, in->addr.index), "(+ r0 1)");
    ck_assert_str_eq(R(p, 0, in->dst), "r1");

    in = I(p, 0, 3);
    ck_assert_int_eq(in->kind, I_STORE);
    ck_assert_str_eq(VAR(p, in), "a");
    ck_assert_str_eq(E(p, 0, in->addr.index), "2");
    ck_assert_str_eq(E(p, 0, in->e1), "-7");

    in = I(p, 0, 4);
    ck_assert_int_eq(in->kind, I_STORE);
    ck_assert_str_eq(E(p, 0, in->e1), "(* r0 2)");
    ck_assert_int_eq(p->threads[0].ninstrs, 5);
    ck_assert_int_eq(p->threads[0].nregs, 2);   /* r0, r1: no hidden registers */
    ir_program_free(p);
}
END_TEST

START_TEST(test_hidden_temporaries)
{
    wmx_program *p = parse(HEAD "thread P0 {\n  r = x + a[y] * 2;\n  a[x] = y - z;\n"
                           "  q = 1 + r;\n}\n");
    /* r = x + a[y] * 2: load x, load y (the index), load a[$t1], then let */
    const ir_instr *in = I(p, 0, 0);
    ck_assert_int_eq(in->kind, I_LOAD);
    ck_assert_str_eq(VAR(p, in), "x");
    ck_assert_str_eq(R(p, 0, in->dst), "$t0");
    in = I(p, 0, 1);
    ck_assert_int_eq(in->kind, I_LOAD);
    ck_assert_str_eq(VAR(p, in), "y");
    ck_assert_str_eq(R(p, 0, in->dst), "$t1");
    in = I(p, 0, 2);
    ck_assert_int_eq(in->kind, I_LOAD);
    ck_assert_str_eq(VAR(p, in), "a");
    ck_assert_str_eq(E(p, 0, in->addr.index), "$t1");
    ck_assert_str_eq(R(p, 0, in->dst), "$t2");
    in = I(p, 0, 3);
    ck_assert_int_eq(in->kind, I_LET);
    ck_assert_str_eq(R(p, 0, in->dst), "r");
    ck_assert_str_eq(E(p, 0, in->e1), "(+ $t0 (* $t2 2))");
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(I(p, 0, i)->text, "r = x + a[y] * 2");
        ck_assert_int_eq(I(p, 0, i)->loc.line, 4);
    }
    /* a[x] = y - z: index load first; temporaries restart per statement */
    ck_assert_str_eq(VAR(p, I(p, 0, 4)), "x");
    ck_assert_str_eq(R(p, 0, I(p, 0, 4)->dst), "$t0");
    ck_assert_str_eq(VAR(p, I(p, 0, 5)), "y");
    ck_assert_str_eq(VAR(p, I(p, 0, 6)), "z");
    in = I(p, 0, 7);
    ck_assert_int_eq(in->kind, I_STORE);
    ck_assert_str_eq(E(p, 0, in->addr.index), "$t0");
    ck_assert_str_eq(E(p, 0, in->e1), "(- $t1 $t2)");
    in = I(p, 0, 8);
    ck_assert_int_eq(in->kind, I_LET);
    ck_assert_str_eq(E(p, 0, in->e1), "(+ 1 r)");
    ck_assert_int_eq(p->threads[0].ninstrs, 9);
    ck_assert_int_eq(ir_find_reg(p, 0, "$t3"), -1);
    ir_program_free(p);
}
END_TEST

START_TEST(test_precedence)
{
    wmx_program *p = parse("thread P0 (a = 1, b = 2, c = 3) {\n"
                           "  r = a + b * c - -a;\n"
                           "  r = a << 1 + b & c | a ^ b;\n"
                           "  r = a < b == b >= c && !c || ~a % 2;\n"
                           "  r = (a + b) * c / 0x10;\n"
                           "  r = - 5 + -(a);\n}\n");
    ck_assert_str_eq(E(p, 0, I(p, 0, 0)->e1), "(- (+ a (* b c)) (neg a))");
    ck_assert_str_eq(E(p, 0, I(p, 0, 1)->e1), "(| (& (<< a (+ 1 b)) c) (^ a b))");
    ck_assert_str_eq(E(p, 0, I(p, 0, 2)->e1),
                     "(|| (&& (== (< a b) (>= b c)) (! c)) (% (~ a) 2))");
    ck_assert_str_eq(E(p, 0, I(p, 0, 3)->e1), "(/ (* (+ a b) c) 16)");
    ck_assert_str_eq(E(p, 0, I(p, 0, 4)->e1), "(+ -5 (neg a))");
    ir_program_free(p);
}
END_TEST

START_TEST(test_fence_rmw)
{
    wmx_program *p = parse(HEAD "thread P0 {\n  fence;\n  r = xchg(x, 2);\n  xchg(a[1], r);\n"
                           "  s = faa(y, -1);\n  faa(a[r], y);\n  o = cas(x, 0, r + 1);\n"
                           "  o2, ok = cas(a[3], o, 5);\n  cas(z, 1, 2);\n}\n");
    const ir_instr *in = I(p, 0, 0);
    ck_assert_int_eq(in->kind, I_FENCE);
    ck_assert_str_eq(in->text, "fence");

    in = I(p, 0, 1);
    ck_assert_int_eq(in->kind, I_XCHG);
    ck_assert_str_eq(VAR(p, in), "x");
    ck_assert_str_eq(R(p, 0, in->dst), "r");
    ck_assert_str_eq(E(p, 0, in->e1), "2");
    ck_assert_str_eq(in->text, "r = xchg(x, 2)");

    in = I(p, 0, 2);
    ck_assert_int_eq(in->kind, I_XCHG);
    ck_assert_int_eq(in->dst, -1);
    ck_assert_str_eq(E(p, 0, in->addr.index), "1");
    ck_assert_str_eq(E(p, 0, in->e1), "r");

    in = I(p, 0, 3);
    ck_assert_int_eq(in->kind, I_FAA);
    ck_assert_str_eq(R(p, 0, in->dst), "s");
    ck_assert_str_eq(E(p, 0, in->e1), "-1");

    /* faa(a[r], y): y is loaded first */
    in = I(p, 0, 4);
    ck_assert_int_eq(in->kind, I_LOAD);
    ck_assert_str_eq(VAR(p, in), "y");
    in = I(p, 0, 5);
    ck_assert_int_eq(in->kind, I_FAA);
    ck_assert_int_eq(in->dst, -1);
    ck_assert_str_eq(E(p, 0, in->addr.index), "r");
    ck_assert_str_eq(E(p, 0, in->e1), "$t0");

    in = I(p, 0, 6);
    ck_assert_int_eq(in->kind, I_CAS);
    ck_assert_str_eq(R(p, 0, in->dst), "o");
    ck_assert_int_eq(in->dst2, -1);
    ck_assert_str_eq(E(p, 0, in->e1), "0");
    ck_assert_str_eq(E(p, 0, in->e2), "(+ r 1)");

    in = I(p, 0, 7);
    ck_assert_int_eq(in->kind, I_CAS);
    ck_assert_str_eq(R(p, 0, in->dst), "o2");
    ck_assert_str_eq(R(p, 0, in->dst2), "ok");
    ck_assert_str_eq(E(p, 0, in->e1), "o");
    ck_assert_str_eq(in->text, "o2, ok = cas(a[3], o, 5)");

    in = I(p, 0, 8);
    ck_assert_int_eq(in->kind, I_CAS);
    ck_assert_int_eq(in->dst, -1);
    ck_assert_str_eq(VAR(p, in), "z");
    ir_program_free(p);
}
END_TEST

START_TEST(test_await_assume_assert)
{
    wmx_program *p = parse(HEAD "thread P0 {\n  await(x == 1);\n  r = await(a[2] >= r + 1);\n"
                           "  await(y);\n  await(z < y);\n  assume(r != 0);\n"
                           "  assert(x + 1 > r);\n}\n");
    const ir_instr *in = I(p, 0, 0);
    ck_assert_int_eq(in->kind, I_AWAIT);
    ck_assert_str_eq(VAR(p, in), "x");
    ck_assert_int_eq(in->cmp, OP_EQ);
    ck_assert_str_eq(E(p, 0, in->e1), "1");
    ck_assert_int_eq(in->dst, -1);

    in = I(p, 0, 1);
    ck_assert_int_eq(in->kind, I_AWAIT);
    ck_assert_int_eq(in->cmp, OP_GE);
    ck_assert_str_eq(E(p, 0, in->addr.index), "2");
    ck_assert_str_eq(E(p, 0, in->e1), "(+ r 1)");
    ck_assert_str_eq(R(p, 0, in->dst), "r");

    in = I(p, 0, 2);
    ck_assert_int_eq(in->kind, I_AWAIT);
    ck_assert_int_eq(in->cmp, OP_NE);
    ck_assert_str_eq(E(p, 0, in->e1), "0");

    /* await(z < y): y is read once, before waiting */
    ck_assert_int_eq(I(p, 0, 3)->kind, I_LOAD);
    in = I(p, 0, 4);
    ck_assert_int_eq(in->kind, I_AWAIT);
    ck_assert_str_eq(VAR(p, in), "z");
    ck_assert_int_eq(in->cmp, OP_LT);
    ck_assert_str_eq(E(p, 0, in->e1), "$t0");

    in = I(p, 0, 5);
    ck_assert_int_eq(in->kind, I_ASSUME);
    ck_assert_str_eq(E(p, 0, in->e1), "(!= r 0)");
    ck_assert_str_eq(in->text, "assume(r != 0)");

    ck_assert_int_eq(I(p, 0, 6)->kind, I_LOAD);
    in = I(p, 0, 7);
    ck_assert_int_eq(in->kind, I_ASSERT);
    ck_assert_str_eq(E(p, 0, in->e1), "(> (+ $t0 1) r)");
    ck_assert_int_eq(in->loc.line, 9);
    ir_program_free(p);
}
END_TEST

START_TEST(test_if_else)
{
    wmx_program *p = parse(HEAD "thread P0 {\n  r = x;\n  if (r == 1) {\n    y = 1;\n  } else if (z > 0) {\n"
                           "    y = 2;\n  } else {\n    y = 3;\n  }\n  if (r) { y = 4; }\n  r = 0;\n}\n");
    /* 0 load; 1 jump(r != 1) ->4; 2 store; 3 jump ->9;
     * 4 load z; 5 jump($t0 <= 0) ->8; 6 store; 7 jump ->9; 8 store;
     * 9 jump(!r) ->11; 10 store; 11 let */
    const ir_instr *in = I(p, 0, 1);
    ck_assert_int_eq(in->kind, I_JUMP);
    ck_assert_str_eq(E(p, 0, in->e1), "(!= r 1)");
    ck_assert_int_eq(in->target, 4);
    ck_assert_str_eq(in->text, "if (r == 1)");
    ck_assert_int_eq(in->loc.line, 5);
    in = I(p, 0, 3);
    ck_assert_int_eq(in->kind, I_JUMP);
    ck_assert_int_eq(in->e1, -1);
    ck_assert_int_eq(in->target, 9);
    ck_assert_str_eq(in->text, "else");
    ck_assert_int_eq(I(p, 0, 4)->kind, I_LOAD);
    ck_assert_str_eq(I(p, 0, 4)->text, "if (z > 0)");
    in = I(p, 0, 5);
    ck_assert_str_eq(E(p, 0, in->e1), "(<= $t0 0)");
    ck_assert_int_eq(in->target, 8);
    ck_assert_int_eq(I(p, 0, 7)->target, 9);
    ck_assert_str_eq(E(p, 0, I(p, 0, 8)->e1), "3");
    in = I(p, 0, 9);
    ck_assert_str_eq(E(p, 0, in->e1), "(! r)");
    ck_assert_int_eq(in->target, 11);
    ck_assert_int_eq(I(p, 0, 11)->kind, I_LET);
    ck_assert_int_eq(p->threads[0].ninstrs, 12);
    ck_assert_int_eq(p->threads[0].nloops, 0);
    ir_program_free(p);
}
END_TEST

START_TEST(test_while_loop)
{
    wmx_program *p = parse(HEAD "thread P0 {\n  while (x == 0) bound 3 {\n    r = r + 1;\n"
                           "    while (r < 2) { r = r + 1; }\n  }\n  y = r;\n}\n");
    /* 0 load x; 1 jump($t0 != 0) ->12; 2 $loop0++; 3 assume($loop0 <= 3);
     * 4 let r; 5 $loop1 = 0; 6 jump(r >= 2) ->11; 7 $loop1++; 8 assume;
     * 9 let r; 10 jump ->6; 11 jump ->0; 12 store y */
    const ir_thread *th = &p->threads[0];
    ck_assert_int_eq(th->nloops, 2);
    const ir_loop *outer = &th->loops[0], *inner = &th->loops[1];
    ck_assert_int_eq(outer->head, 0);
    ck_assert_int_eq(outer->bound, 3);
    ck_assert_str_eq(R(p, 0, outer->counter), "$loop0");
    ck_assert_int_eq(inner->bound, 8);             /* the default */
    ck_assert_str_eq(R(p, 0, inner->counter), "$loop1");

    const ir_instr *in = I(p, 0, 0);
    ck_assert_int_eq(in->kind, I_LOAD);
    ck_assert_str_eq(in->text, "while (x == 0) bound 3");
    in = I(p, 0, 1);
    ck_assert_int_eq(in->kind, I_JUMP);
    ck_assert_str_eq(E(p, 0, in->e1), "(!= $t0 0)");
    ck_assert_int_eq(in->target, outer->end);
    in = I(p, 0, 2);
    ck_assert_int_eq(in->kind, I_LET);
    ck_assert_int_eq(in->dst, outer->counter);
    ck_assert_str_eq(E(p, 0, in->e1), "(+ $loop0 1)");
    in = I(p, 0, 3);
    ck_assert_int_eq(in->kind, I_ASSUME);
    ck_assert_str_eq(E(p, 0, in->e1), "(<= $loop0 3)");
    ck_assert_int_eq(I(p, 0, 4)->kind, I_LET);
    /* nested loop: its counter is reset on every entry, outside [head, end) */
    in = I(p, 0, 5);
    ck_assert_int_eq(in->kind, I_LET);
    ck_assert_int_eq(in->dst, inner->counter);
    ck_assert_str_eq(E(p, 0, in->e1), "0");
    ck_assert_int_eq(inner->head, 6);
    in = I(p, 0, 6);
    ck_assert_str_eq(E(p, 0, in->e1), "(>= r 2)");
    ck_assert_int_eq(in->target, 11);
    ck_assert_int_eq(inner->end, 11);
    in = I(p, 0, 10);
    ck_assert_int_eq(in->kind, I_JUMP);
    ck_assert_int_eq(in->e1, -1);
    ck_assert_int_eq(in->target, 6);
    in = I(p, 0, 11);
    ck_assert_int_eq(in->kind, I_JUMP);
    ck_assert_int_eq(in->e1, -1);
    ck_assert_int_eq(in->target, 0);
    ck_assert_int_eq(outer->end, 12);
    ck_assert_int_eq(I(p, 0, 1)->target, 12);
    ck_assert_int_eq(I(p, 0, 12)->kind, I_STORE);
    ck_assert_int_eq(th->ninstrs, 13);
    ir_program_free(p);
}
END_TEST

START_TEST(test_do_while)
{
    wmx_program *p = parse(HEAD "thread P0 {\n  do {\n    r = x;\n  } while (r != 1) bound 5;\n  fence;\n}\n");
    const ir_thread *th = &p->threads[0];
    ck_assert_int_eq(th->nloops, 1);
    ck_assert_int_eq(th->loops[0].head, 0);
    ck_assert_int_eq(th->loops[0].end, 4);
    ck_assert_int_eq(th->loops[0].bound, 5);
    ck_assert_int_eq(I(p, 0, 0)->kind, I_LET);
    ck_assert_str_eq(I(p, 0, 0)->text, "do");
    ck_assert_str_eq(E(p, 0, I(p, 0, 1)->e1), "(<= $loop0 5)");
    ck_assert_int_eq(I(p, 0, 2)->kind, I_LOAD);
    const ir_instr *in = I(p, 0, 3);
    ck_assert_int_eq(in->kind, I_JUMP);
    ck_assert_str_eq(E(p, 0, in->e1), "(!= r 1)");
    ck_assert_int_eq(in->target, 0);
    ck_assert_str_eq(in->text, "while (r != 1) bound 5");
    ck_assert_int_eq(in->loc.line, 6);
    ck_assert_int_eq(in->loc.col, 5);
    ck_assert_int_eq(I(p, 0, 4)->kind, I_FENCE);
    ir_program_free(p);
}
END_TEST

START_TEST(test_text_single_line)
{
    wmx_program *p = parse("var x;\nthread P0 {\n  r = x +   /* c */\n      1;  // tail\n"
                           "  if (r\n == 2) { }\n}\n");
    ck_assert_str_eq(I(p, 0, 0)->text, "r = x + 1");
    ck_assert_str_eq(I(p, 0, 2)->text, "if (r == 2)");
    ir_program_free(p);
}
END_TEST

/* ---- conditions ---------------------------------------------------- */

START_TEST(test_condition)
{
    wmx_program *p = parse(HEAD "thread P0 { r0 = x; }\nthread P1 { r0 = y; r1 = 2; }\n"
                           "exists (P0:r0 = 0 /\\ 1:r0 = 1 \\/ ~[x] = -3 /\\ a[1] = 2)\n");
    ck_assert_int_eq(p->quant, Q_EXISTS);
    ck_assert_str_eq(p->cond_text, "(P0:r0 = 0 /\\ 1:r0 = 1 \\/ ~[x] = -3 /\\ a[1] = 2)");
    const ir_cond *c = &p->conds[p->cond_root];
    ck_assert_int_eq(c->kind, C_OR);
    const ir_cond *l = &p->conds[c->a], *r = &p->conds[c->b];
    ck_assert_int_eq(l->kind, C_AND);
    ck_assert_int_eq(r->kind, C_AND);
    const ir_cond *a0 = &p->conds[l->a];
    ck_assert_int_eq(a0->kind, C_EQ);
    ck_assert_int_eq(a0->lhs.thread, 0);
    ck_assert_int_eq(a0->lhs.reg, 0);
    ck_assert_int_eq(a0->value, 0);
    const ir_cond *a1 = &p->conds[l->b];
    ck_assert_int_eq(a1->lhs.thread, 1);
    ck_assert_int_eq(a1->value, 1);
    const ir_cond *n = &p->conds[r->a];
    ck_assert_int_eq(n->kind, C_NOT);
    ck_assert_int_eq(p->conds[n->a].lhs.thread, -1);
    ck_assert_int_eq(p->conds[n->a].lhs.cell, 0);
    ck_assert_int_eq(p->conds[n->a].value, -3);
    ck_assert_int_eq(p->conds[r->b].lhs.cell, p->vars[3].base + 1);
    char buf[256];
    ir_cond_format(p, p->cond_root, buf, sizeof buf);
    ck_assert_str_eq(buf, "P0:r0=0 /\\ P1:r0=1 \\/ ~[x]=-3 /\\ [a[1]]=2");
    ir_program_free(p);

    p = parse("var x;\nthread P0 { r = 1; }\n~exists (P0:r = 1)");
    ck_assert_int_eq(p->quant, Q_NOT_EXISTS);
    ir_program_free(p);

    p = parse("var x;\nthread P0 { r = 1; }\nlocations [x; P0:r;]\n"
              "forall (x = 0 => (P0:r == 1 \\/ true) /\\ P0:r != 2)");
    ck_assert_int_eq(p->quant, Q_FORALL);
    ck_assert_int_eq(p->nobserved, 2);
    ck_assert_int_eq(p->observed[0].thread, -1);
    ck_assert_int_eq(p->observed[0].cell, 0);
    ck_assert_int_eq(p->observed[1].thread, 0);
    c = &p->conds[p->cond_root];
    ck_assert_int_eq(c->kind, C_IMPLIES);
    ck_assert_int_eq(p->conds[c->b].kind, C_AND);
    ck_assert_int_eq(p->conds[p->conds[c->b].b].kind, C_NOT);
    ir_program_free(p);
}
END_TEST

/* ---- examples ------------------------------------------------------ */

static wmx_program *load_example(const char *name)
{
    char path[512];
    wmx_error err;
    size_t len;
    char *text = NULL;
    /* run from the source root (make check) or from anywhere via __FILE__ */
    snprintf(path, sizeof path, "examples/%s", name);
    text = wmx_read_file(path, &len, &err);
    if (!text) {
        const char *f = __FILE__;
        const char *cut = strstr(f, "tests/unit/");
        snprintf(path, sizeof path, "%.*sexamples/%s", cut ? (int)(cut - f) : 0, f, name);
        text = wmx_read_file(path, &len, &err);
    }
    ck_assert_msg(text != NULL, "cannot read example %s", name);
    wmx_program *p = lang_parse(text, len, path, &err);
    free(text);
    char buf[1024];
    ck_assert_msg(p != NULL, "%s", p ? "" : wmx_error_format(&err, buf, sizeof buf));
    return p;
}

static const char *const examples[] = {
    "sb.wmx", "sb-fences.wmx", "mp.wmx", "mp-fence.wmx", "lb.wmx", "iriw.wmx",
    "2+2w.wmx", "dekker.wmx", "peterson.wmx", "peterson-fence.wmx",
    "spinlock.wmx", "ticketlock.wmx", "lost-update.wmx", "tour.wmx"
};

START_TEST(test_examples_parse)
{
    wmx_program *p = load_example(examples[_i]);
    ck_assert_int_ge(p->nthreads, 2);
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstrs; i++) {
            const ir_instr *in = &p->threads[t].instrs[i];
            ck_assert_ptr_nonnull(in->text);
            ck_assert_ptr_null(strchr(in->text, '\n'));
            ck_assert_int_gt(in->loc.line, 0);
            if (in->kind == I_JUMP) {
                ck_assert_int_ge(in->target, 0);
                ck_assert_int_le(in->target, p->threads[t].ninstrs);
            }
        }
    ir_program_free(p);
}
END_TEST

START_TEST(test_example_sb)
{
    wmx_program *p = load_example("sb.wmx");
    ck_assert_str_eq(p->name, "SB");
    ck_assert_int_eq(p->nthreads, 2);
    ck_assert_str_eq(p->threads[1].name, "P1");
    ck_assert_int_eq(p->threads[0].ninstrs, 2);
    ck_assert_int_eq(p->threads[0].instrs[0].kind, I_STORE);
    ck_assert_int_eq(p->threads[0].instrs[1].kind, I_LOAD);
    ck_assert_int_eq(p->quant, Q_EXISTS);
    char buf[128];
    ir_cond_format(p, p->cond_root, buf, sizeof buf);
    ck_assert_str_eq(buf, "P0:r0=0 /\\ P1:r0=0");
    ir_program_free(p);
}
END_TEST

/* ---- errors -------------------------------------------------------- */

START_TEST(test_errors)
{
    expect_err("var x;\nthread P0 {\n  x = 1\n  r = x;\n}\n",
               "3:8: expected ';' after statement");
    expect_err("var x;\nthread P0 {\n  r = x + ;\n}\n",
               "3:11: expected an expression, found ';'");
    expect_err("var x;\nthread P0 {\n  r = z;\n}\n",
               "3:7: unknown identifier 'z'");
    expect_err("var x;\nthread P0 { r = 1; }\nexists (P0:q = 1)\n",
               "3:12: P0 has no register 'q' (P0's registers: r)");
    expect_err("var x;\nthread P0 { r = 1; }\nexists (P1:r = 1)\n",
               "3:9: unknown thread 'P1' (threads: P0)");
    expect_err("var x;\nthread P0 { r = 1; }\nexists (z = 1)\n",
               "3:9: unknown variable 'z' (variables: x;");
    expect_err("var a[2];\nthread P0 { r = 1; }\nexists (a = 1)\n",
               "3:9: array 'a' needs an index: a[0] to a[1]");
    expect_err("var a[2];\nthread P0 { r = 1; }\nexists ([a[2]] = 1)\n",
               "3:12: index 2 out of bounds for 'a' (length 2)");
    expect_err("var x;\nthread P0 { r = 1; }\nexists ([P0:r] = 1)\n",
               "3:9: '[...]' is for shared memory, not registers");
    expect_err("var x;\nthread P0 {\n  r = 99999999999999999999;\n}\n",
               "3:7: number too large");
    expect_err("var x;\nthread P0 {\n  r = 9223372036854775808;\n}\n",
               "3:7: number too large");
    expect_err("var a[2];\nthread P0 {\n  r = a[2];\n}\n",
               "3:9: index 2 out of bounds for 'a' (length 2)");
    expect_err("var a[2];\nthread P0 {\n  r = a + 1;\n}\n",
               "3:7: array 'a' needs an index");
    expect_err("var x;\nthread P0 {\n  while (r < 1) bound 2 {\n    r = r + 1;\n}\n",
               "6:1: expected '}', found end of file");
    expect_err("var x;\nthread P0 {\n  x = xchg(x, 1);\n}\n",
               "3:7: the result of 'xchg' must go to a register");
    expect_err("var x;\nthread P0 {\n  r = 1 + faa(x, 1);\n}\n",
               "3:11: 'faa(...)' cannot be part of an expression");
    expect_err("var x;\nthread P0 {\n  r = await(x + 1);\n}\n",
               "3:15: expected a comparison");
    expect_err("var x;\nthread P0 {\n  r = cas(x, 1);\n}\n",
               "3:15: expected ',' and the new value");
    expect_err("var x;\nthread P0 {\n  r = xchg(q, 1);\n}\n",
               "3:12: 'q' is not a shared variable");
    expect_err("var x;\nthread P0 {\n  r = x $ 1;\n}\n",
               "3:9: unexpected character '$'");
    expect_err("var x;\nthread P0 {\n  r = \x01;\n}\n",
               "3:7: unexpected byte 0x01");
    expect_err("var x;\nthread P0 {\n  /* never closed\n}\n",
               "3:3: unterminated comment");
    expect_err("var x, x;\nthread P0 { }\n", "1:8: variable 'x' is declared twice");
    expect_err("var x;\nthread P0 { }\nthread P0 { }\n", "3:8: thread 'P0' is declared twice");
    expect_err("thread P0 { }\nvar x;\n", "2:1: variables must be declared before the threads");
    expect_err("var x;\n", "2:1: the program has no threads");
    expect_err("var x;\nthread P0 { while (1) bound -1 { } }\n",
               "2:29: loop bound must be between 0 and 1000000");
    expect_err("var x;\nthread P0 { r = 1; }\nexists (P0:r = 1) junk\n",
               "3:19: expected end of file after the final condition");
    expect_err("var x;\nthread P0 { else { } }\n", "2:13: 'else' without a matching 'if'");
    expect_err("var while;\n", "1:5: expected a variable name, found keyword 'while'");
    expect_err("var a[3] = {1, 2, 3, 4};\nthread P0 { }\n",
               "1:22: too many initial values for 'a'");
    expect_err("var x;\nthread P0 { foo(x); }\n", "2:13: unknown function 'foo'");
    expect_err("var x;\nthread P0 { r = 0x; }\n", "2:17: hexadecimal number needs digits");
    expect_err("var x;\nthread P0 { r = 12ab; }\n", "2:17: malformed number");
}
END_TEST

START_TEST(test_deep_nesting)
{
    /* 100000 nested parentheses: an error, not a stack overflow */
    size_t n = 100000;
    char *src = malloc(3 * n + 64);
    size_t o = (size_t)sprintf(src, "thread P0 { r = ");
    for (size_t i = 0; i < n; i++)
        src[o++] = '(';
    src[o++] = '1';
    for (size_t i = 0; i < n; i++)
        src[o++] = ')';
    strcpy(src + o, "; }");
    const char *e = parse_err(src);
    ck_assert_msg(strstr(e, "nesting too deep") != NULL, "%s", e);

    /* long operator chain: depth of the tree is limited too */
    o = (size_t)sprintf(src, "thread P0 { r = 1");
    for (size_t i = 0; i < 1000; i++)
        o += (size_t)sprintf(src + o, " + 1");
    strcpy(src + o, "; }");
    e = parse_err(src);
    ck_assert_msg(strstr(e, "expression too deeply nested") != NULL, "%s", e);

    /* deeply nested blocks */
    o = (size_t)sprintf(src, "thread P0 { ");
    for (size_t i = 0; i < 1000; i++)
        o += (size_t)sprintf(src + o, "if (1) { ");
    src[o] = '\0';
    e = parse_err(src);
    ck_assert_msg(strstr(e, "nesting too deep") != NULL, "%s", e);

    /* long condition chain and nested negations */
    o = (size_t)sprintf(src, "thread P0 { r = 1; }\nexists (P0:r = 1");
    for (size_t i = 0; i < 1000; i++)
        o += (size_t)sprintf(src + o, " /\\ P0:r = 1");
    strcpy(src + o, ")");
    e = parse_err(src);
    ck_assert_msg(strstr(e, "condition nesting deeper than 1000 levels") != NULL, "%s", e);
    o = (size_t)sprintf(src, "thread P0 { r = 1; }\nexists ");
    for (size_t i = 0; i < 1000; i++)
        src[o++] = '~';
    strcpy(src + o, "P0:r = 1");
    e = parse_err(src);
    ck_assert_msg(strstr(e, "nesting deeper than 1000") != NULL, "%s", e);

    /* 150 nested parentheses are fine */
    o = (size_t)sprintf(src, "thread P0 { r = ");
    for (size_t i = 0; i < 150; i++)
        src[o++] = '(';
    src[o++] = '1';
    for (size_t i = 0; i < 150; i++)
        src[o++] = ')';
    strcpy(src + o, "; }");
    wmx_program *p = parse(src);
    ir_program_free(p);
    free(src);
}
END_TEST

START_TEST(test_junk)
{
    /* not NUL-terminated, embedded NULs, random bytes: errors, no crash */
    const char junk[] = { 't', 'h', 'r', 'e', 'a', 'd', ' ', 'P', '\0', '{', (char)0xff };
    wmx_error err;
    ck_assert_ptr_null(lang_parse(junk, sizeof junk, "j", &err));
    ck_assert_ptr_null(lang_parse(junk, 6, "j", &err));
    ck_assert_ptr_null(lang_parse("", 0, "j", &err));
    ck_assert_str_eq(err.msg, "the program has no threads");
    unsigned seed = 12345;
    char buf[300];
    for (int round = 0; round < 2000; round++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (char)(seed >> 16);
        }
        wmx_program *p = lang_parse(buf, sizeof buf, "j", &err);
        ir_program_free(p);
    }
    /* a NULL error pointer is allowed */
    ck_assert_ptr_null(lang_parse("x", 1, "j", NULL));
}
END_TEST


/* ---- the C front end's cache: a program as bytes and back ----------- */

START_TEST(test_cache_roundtrip)
{
    wmx_program *p = load_example(examples[_i]);
    size_t n = 0, m = 0;
    unsigned char *b = cfront_cache_encode(p, &n);
    wmx_program *q = cfront_cache_decode(b, n);
    ck_assert_ptr_nonnull(q);
    unsigned char *c = cfront_cache_encode(q, &m);
    ck_assert_uint_eq(n, m);
    ck_assert(memcmp(b, c, n) == 0);
    ck_assert_str_eq(q->name, p->name);
    ck_assert_int_eq(q->nthreads, p->nthreads);
    ck_assert_int_eq(q->ncells, p->ncells);
    ck_assert_int_eq(q->nexprs, p->nexprs);
    for (int t = 0; t < p->nthreads; t++) {
        ck_assert_int_eq(q->threads[t].ninstrs, p->threads[t].ninstrs);
        for (int i = 0; i < p->threads[t].ninstrs; i++) {
            ck_assert_int_eq(q->threads[t].instrs[i].kind, p->threads[t].instrs[i].kind);
            ck_assert_int_eq(q->threads[t].instrs[i].loc.line, p->threads[t].instrs[i].loc.line);
            ck_assert_str_eq(q->threads[t].instrs[i].text, p->threads[t].instrs[i].text);
        }
    }
    /* every cut of the bytes is refused, and bytes changed here and there
     * decode to something or nothing, never past the buffer (ASan) */
    for (size_t k = 0; k < n; k++)
        ck_assert_ptr_null(cfront_cache_decode(b, k));
    for (size_t k = 0; k < n; k += 7) {
        unsigned char save = b[k];
        b[k] ^= 0xa5;
        ir_program_free(cfront_cache_decode(b, n));
        b[k] = save;
    }
    free(b);
    free(c);
    ir_program_free(q);
    ir_program_free(p);
}
END_TEST

/* ---- the thread memo (core/thread_memo.h) against the SC machine ------ */

/* Random SC runs of an example: every step of a thread, taken through the
 * memo from the node it stands at, gives the machine's event and leaves
 * the thread's own state as the machine leaves it; a memo of a few hundred
 * bytes (forgetting at every trim) as well as a large one. */
START_TEST(test_thread_memo_runs)
{
    wmx_program *p = load_example(examples[_i]);
    wmx_error err;
    wmx_machine *m = machine_new(p, MODEL_SC, &err);
    ck_assert_ptr_nonnull(m);
    size_t ss = machine_state_size(m);
    char *st = malloc(ss), *chk = malloc(ss);
    int nt = p->nthreads;
    int *node = calloc((size_t)nt, sizeof *node);
    unsigned char *a = malloc(4096), *b = malloc(4096);
    wmx_transition *en = malloc((size_t)machine_max_enabled(m) * sizeof *en);
    unsigned seed = 12345u + (unsigned)_i;
    for (int big = 0; big < 2; big++) {
        thread_memo *tm = thread_memo_new(m, big ? (size_t)1 << 20 : 300);
        for (int run = 0; run < 40; run++) {
            thread_memo_trim(tm);
            machine_init(m, st);
            for (int t = 0; t < nt; t++)
                node[t] = thread_memo_root(tm, t);
            for (int step = 0; step < 200; step++) {
                int ne = machine_enabled(m, st, en);
                if (ne == 0)
                    break;
                seed = seed * 1103515245u + 12345u;
                wmx_transition tr = en[(seed >> 8) % (unsigned)ne];
                int t = tr.thread;
                const thread_memo_node *nd = thread_memo_node_of(tm, t, node[t]);
                ck_assert_int_eq(nd->status, TS_RUNNING);
                wmx_event ev;
                machine_apply(m, st, &tr, &ev);
                wmx_val v = ev.kind == EV_RMW ? ev.read : ev.value;
                int next = thread_memo_step(tm, t, node[t], v, ev.rf);
                ck_assert_int_ge(next, 0);
                const thread_memo_node *c = thread_memo_node_of(tm, t, next);
                ck_assert_int_eq(c->ev.kind, ev.kind);
                ck_assert_int_eq(c->ev.id, ev.id);
                ck_assert_int_eq(c->ev.instr, ev.instr);
                ck_assert_int_eq(c->ev.cell, ev.cell);
                ck_assert(c->ev.value == ev.value);
                ck_assert_int_eq(c->status, machine_status(m, st, t));
                size_t ts = machine_thread_size(m, t);
                ck_assert_uint_le(ts, 4096);
                machine_thread_save(m, st, t, a);
                memcpy(chk, st, ss);
                thread_memo_load(tm, t, next, chk);
                machine_thread_save(m, chk, t, b);
                ck_assert(memcmp(a, b, ts) == 0);
                node[t] = next;
            }
        }
        thread_memo_free(tm);
    }
    free(en);
    free(a);
    free(b);
    free(node);
    free(st);
    free(chk);
    machine_free(m);
    ir_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lang");
    TCase *tc = tcase_create("lang");
    tcase_add_test(tc, test_vars_and_name);
    tcase_add_test(tc, test_register_init);
    tcase_add_test(tc, test_store_load);
    tcase_add_test(tc, test_hidden_temporaries);
    tcase_add_test(tc, test_precedence);
    tcase_add_test(tc, test_fence_rmw);
    tcase_add_test(tc, test_await_assume_assert);
    tcase_add_test(tc, test_if_else);
    tcase_add_test(tc, test_while_loop);
    tcase_add_test(tc, test_do_while);
    tcase_add_test(tc, test_text_single_line);
    tcase_add_test(tc, test_condition);
    tcase_add_loop_test(tc, test_examples_parse, 0, (int)(sizeof examples / sizeof examples[0]));
    tcase_add_test(tc, test_example_sb);
    tcase_add_loop_test(tc, test_cache_roundtrip, 0, (int)(sizeof examples / sizeof examples[0]));
    tcase_add_loop_test(tc, test_thread_memo_runs, 0, (int)(sizeof examples / sizeof examples[0]));
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_deep_nesting);
    tcase_add_test(tc, test_junk);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
