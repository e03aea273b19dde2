/* test_cond.c - the one condition reader (core/cond.c): every syntax the
 * litmus, .wmx, --outcome and `until` readers accepted, array cells in all
 * their forms, messages with their offsets, the nesting limit, and
 * evaluation. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cond.h"
#include "ir.h"

/* P0 (r0, r1), thread.1 (r), x, a[2], not (a location called `not`) */
static wmx_program *prog(void)
{
    wmx_program *p = ir_program_new("T", "t.wmx", "wmx");
    int t0 = ir_add_thread(p, "P0");
    ir_thread_reg(p, t0, "r0");
    ir_thread_reg(p, t0, "r1");
    int t1 = ir_add_thread(p, "thread.1");
    ir_thread_reg(p, t1, "r");
    ir_thread_reg(p, t1, "$t0");
    ir_add_var(p, "x", 1);
    ir_add_var(p, "a", 2);
    ir_add_var(p, "not", 1);
    return p;
}

/* Parses s into p's conds; returns the root (the test fails on an error). */
static int ok(wmx_program *p, const char *s)
{
    cond_names names = { p, NULL, NULL, NULL };
    cond_error e;
    int r = cond_parse_string(s, &names, cond_out_program(p), &e);
    ck_assert_msg(r >= 0, "'%s': column %zu: %s", s, e.off + 1, e.msg);
    return r;
}

/* The error for s as "COL: message". */
static const char *bad(wmx_program *p, const char *s)
{
    static char out[600];
    cond_names names = { p, NULL, NULL, NULL };
    cond_error e;
    int r = cond_parse_string(s, &names, cond_out_program(p), &e);
    ck_assert_msg(r < 0, "'%s' was accepted", s);
    snprintf(out, sizeof out, "%zu: %s", e.off + 1, e.msg);
    return out;
}

static void expect_bad(wmx_program *p, const char *s, const char *want)
{
    const char *got = bad(p, s);
    ck_assert_msg(strncmp(got, want, strlen(want)) == 0, "'%s' gave\n  \"%s\", wanted\n  \"%s...\"",
                  s, got, want);
}

/* The node s parses to (p->conds moves as it grows: read it after). */
static const ir_cond *node_of(wmx_program *p, const char *s)
{
    int r = ok(p, s);
    return &p->conds[r];
}

static const char *fmt(wmx_program *p, int c)
{
    static char buf[1024];
    ir_cond_format(p, c, buf, sizeof buf);
    return buf;
}

START_TEST(test_locations)
{
    wmx_program *p = prog();
    int base = p->vars[ir_find_var(p, "a")].base;
    /* a cell: x, [x], a[1], [a[1]] (issue 44: the last two failed in
     * --outcome and `until`), [[x]] */
    const char *const cells[] = { "x=1", "[x]=1", "a[1]=1", "[a[1]]=1", "[[x]] = 1", "a[0] == 1" };
    const int want[] = { 0, 0, base + 1, base + 1, 0, base };
    for (int i = 0; i < 6; i++) {
        const ir_cond *c = node_of(p, cells[i]);
        ck_assert_int_eq(c->kind, C_EQ);
        ck_assert_int_eq(c->lhs.thread, -1);
        ck_assert_int_eq(c->lhs.cell, want[i]);
        ck_assert_int_eq(c->value, 1);
    }
    /* a register: by name, by number, herd's p0 for P0, a dotted name */
    const char *const regs[] = { "P0:r1=2", "0:r1=2", "p0:r1 = 2", "thread.1:r=2", "1:r=2" };
    const int wt[] = { 0, 0, 0, 1, 1 }, wr[] = { 1, 1, 1, 0, 0 };
    for (int i = 0; i < 5; i++) {
        const ir_cond *c = node_of(p, regs[i]);
        ck_assert_int_eq(c->lhs.thread, wt[i]);
        ck_assert_int_eq(c->lhs.reg, wr[i]);
        ck_assert_int_eq(c->value, 2);
    }
    /* values: negative, hexadecimal, an address */
    ck_assert_int_eq(node_of(p, "x=-3")->value, -3);
    ck_assert_int_eq(node_of(p, "x=0x10")->value, 16);
    const ir_cond *c = node_of(p, "P0:r0=&a");
    ck_assert(c->value_is_addr);
    ck_assert_int_eq(c->value, base);
    ck_assert(node_of(p, "P0:r0=x")->value_is_addr);
    /* `not` as a location, `exists` in front */
    ck_assert_int_eq(node_of(p, "not=1")->lhs.cell, p->vars[ir_find_var(p, "not")].base);
    ck_assert_str_eq(fmt(p, ok(p, "exists (x=1 /\\ a[1]=2)")), "[x]=1 /\\ [a[1]]=2");
    ir_program_free(p);
}
END_TEST

START_TEST(test_operators)
{
    wmx_program *p = prog();
    /* the spellings of the four readers give the same tree */
    const char *const same[] = {
        "~x=1 /\\ P0:r0=0 \\/ a[0]=1 => a[1]=1",
        "!x=1 && P0:r0=0 || a[0]=1 => a[1]=1",
        "not x=1 /\\ 0:r0==0 \\/ [a[0]]=1 => ([a[1]]=1)",
        "  (~(x = 1) /\\ (P0:r0=0)) \\/ a[0]=1 /* c */ => // c\n a[1]=1",
    };
    char first[1024];
    snprintf(first, sizeof first, "%s", fmt(p, ok(p, same[0])));
    ck_assert_str_eq(first, "~[x]=1 /\\ P0:r0=0 \\/ [a[0]]=1 => [a[1]]=1");
    for (int i = 1; i < 4; i++)
        ck_assert_str_eq(fmt(p, ok(p, same[i])), first);
    /* => is right associative, != is a negation */
    const ir_cond *c = node_of(p, "x=1 => x=2 => x!=3");
    ck_assert_int_eq(c->kind, C_IMPLIES);
    ck_assert_int_eq(p->conds[c->b].kind, C_IMPLIES);
    ck_assert_int_eq(p->conds[p->conds[c->b].b].kind, C_NOT);
    ck_assert_int_eq(node_of(p, "true")->kind, C_TRUE);
    ck_assert_int_eq(node_of(p, "~false")->kind, C_NOT);
    ir_program_free(p);
}
END_TEST

START_TEST(test_errors)
{
    wmx_program *p = prog();
    /* issue 44: an array without an index is an error, not its first cell */
    expect_bad(p, "a=1", "1: array 'a' needs an index: a[0] to a[1]");
    expect_bad(p, "x=1 /\\ [a]=1", "9: array 'a' needs an index");
    expect_bad(p, "a[2]=1", "3: index 2 out of bounds for 'a' (length 2)");
    expect_bad(p, "a[-1]=1", "3: index -1 out of bounds");
    expect_bad(p, "[P0:r0]=1", "1: '[...]' is for shared memory, not registers");
    expect_bad(p, "z=1", "1: unknown variable 'z' (variables: x, a, not; a register is THREAD:REG, e.g. P0:r0)");
    expect_bad(p, "P9:r0=1", "1: unknown thread 'P9' (threads: P0, thread.1)");
    expect_bad(p, "2:r0=1", "1: unknown thread '2' (threads: P0, thread.1)");
    expect_bad(p, "thread.1:q=1", "10: thread.1 has no register 'q' (thread.1's registers: r)");
    expect_bad(p, "x", "2: expected '=' or '!=', found end of input");
    expect_bad(p, "x=", "3: expected a number, found end of input");
    expect_bad(p, "x=1 /\\", "7: expected a location or register (P0:r0, x, a[1] or [x]), found end of input");
    expect_bad(p, "(x=1", "5: expected ')', found end of input");
    expect_bad(p, "x=1 junk", "5: unexpected 'junk' after the condition");
    expect_bad(p, "x=12ab", "3: malformed number");
    expect_bad(p, "x=99999999999999999999", "3: number out of range");
    expect_bad(p, "x=-18446744073709551615", "3: number out of range");
    expect_bad(p, "0 r=1", "3: expected ':' after the thread number");
    expect_bad(p, "x=1 /* open", "5: unterminated comment");
    ir_program_free(p);
}
END_TEST

/* nesting: 1000 levels pass, 1001 do not; no input overflows the stack */
START_TEST(test_depth)
{
    wmx_program *p = prog();
    size_t n = 200000;
    char *s = malloc(8 * n + 64);
    for (int levels = 1000; levels <= 1001; levels++) {
        size_t k = 0;
        for (int i = 0; i < levels - 1; i++)
            s[k++] = '(';
        k += (size_t)sprintf(s + k, "x=1");
        for (int i = 0; i < levels - 1; i++)
            s[k++] = ')';
        s[k] = '\0';
        if (levels == 1000)
            ok(p, s);
        else
            ck_assert_str_eq(bad(p, s), "1000: condition nesting deeper than 1000 levels");
        /* negations and a chain of /\ count the same way */
        k = 0;
        for (int i = 0; i < levels - 1; i++)
            s[k++] = '~';
        strcpy(s + k, "x=1");
        if (levels == 1000)
            ok(p, s);
        else
            ck_assert_msg(strstr(bad(p, s), "nesting deeper than 1000") != NULL, "%s", bad(p, s));
        k = (size_t)sprintf(s, "x=1");
        for (int i = 0; i < levels - 1; i++)
            k += (size_t)sprintf(s + k, " /\\ x=1");
        if (levels == 1000)
            ok(p, s);
        else
            ck_assert_msg(strstr(bad(p, s), "nesting deeper than 1000") != NULL, "%s", bad(p, s));
    }
    /* 200 000 of each opener: an error, not a crash */
    const char *const openers[] = { "(", "~", "[", "x=1 => " };
    for (int o = 0; o < 4; o++) {
        size_t k = 0, l = strlen(openers[o]);
        for (size_t i = 0; i < n; i++, k += l)
            memcpy(s + k, openers[o], l);
        strcpy(s + k, "x=1");
        ck_assert_msg(strstr(bad(p, s), "nesting deeper than 1000") != NULL, "%s", bad(p, s));
    }
    free(s);
    ir_program_free(p);
}
END_TEST

/* Inside a file: the condition ends before what cannot continue it. */
START_TEST(test_embedded)
{
    wmx_program *p = prog();
    const char *text = "exists (x=1 /\\ a[1]=0) ;\nlocations [a[0]; P0:r1]";
    cond_names names = { p, NULL, NULL, NULL };
    cond_error e;
    size_t end;
    int r = cond_parse(text, strlen(text), 7, &names, cond_out_program(p), &end, &e);
    ck_assert_int_ge(r, 0);
    ck_assert_int_eq(end, 22);
    cond_lhs l;
    const char *at = strstr(text, "a[0]");
    ck_assert_int_eq(cond_parse_lhs(text, strlen(text), (size_t)(at - text), &names, &l, &end, &e), 0);
    ck_assert_int_eq(l.cell, p->vars[ir_find_var(p, "a")].base);
    ck_assert_int_eq(text[end], ';');
    ir_program_free(p);
}
END_TEST

START_TEST(test_eval)
{
    wmx_program *p = prog();
    /* a list of the caller's own: the program's conds stay as they were */
    ir_cond *v = NULL;
    int n = 0, cap = 0;
    cond_names names = { p, NULL, NULL, NULL };
    cond_error e;
    int r = cond_parse_string("entered=1", &names, (cond_out){ &v, &n, &cap }, &e);
    ck_assert_int_lt(r, 0);
    r = cond_parse_string("[a[1]]=1 /\\ a[0]=1 /\\ P0:r1 != 5 /\\ (x=0 => thread.1:r=-1)", &names,
                          (cond_out){ &v, &n, &cap }, &e);
    ck_assert_msg(r >= 0, "%s", e.msg);
    ck_assert_int_eq(p->nconds, 0);
    wmx_val r0[2] = { 0, 4 }, r1[2] = { -1, 0 };
    const wmx_val *regs[2] = { r0, r1 };
    wmx_val mem[4] = { 0, 1, 1, 0 };
    ck_assert(cond_eval(p, v, r, regs, mem));
    mem[1] = 0;              /* a[0] */
    ck_assert(!cond_eval(p, v, r, regs, mem));
    mem[1] = 1;
    r1[0] = 0;               /* x=0 => thread.1:r=-1 fails */
    ck_assert(!cond_eval(p, v, r, regs, mem));
    mem[0] = 1;              /* ... unless x != 0 */
    ck_assert(cond_eval(p, v, r, regs, mem));
    free(v);
    ir_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cond");
    TCase *tc = tcase_create("cond");
    tcase_add_test(tc, test_locations);
    tcase_add_test(tc, test_operators);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_depth);
    tcase_add_test(tc, test_embedded);
    tcase_add_test(tc, test_eval);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
