/* test_ui_cond.c - the `until` condition parser (ui/cond.c) on conditions
 * 100 000 levels deep (issue 47 §1): '~', parentheses and a chain of /\
 * give a "nesting deeper than 200" error, not a stack overflow; at the
 * limit the condition parses and evaluates.  A REPL script cannot carry
 * them (its lines are read 4096 bytes at a time), so the parser is called
 * directly. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "machine.h"
#include "ui.h"

static const char sb[] =
    "var x = 0, y = 0;\n"
    "thread P0 { x = 1; r0 = y; }\n"
    "thread P1 { y = 1; r0 = x; }\n";

enum { DEEP = 100000 };

/* prefix^n atom suffix^n, or n atoms joined by sep when prefix is NULL */
static char *build(const char *prefix, const char *atom, const char *suffix, const char *sep, int n)
{
    size_t cap = (size_t)n * 16 + 64, len = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    for (int i = 0; prefix && i < n; i++)
        len += (size_t)sprintf(s + len, "%s", prefix);
    for (int i = 0; i < (prefix ? 1 : n); i++)
        len += (size_t)sprintf(s + len, "%s%s", i ? sep : "", atom);
    for (int i = 0; suffix && i < n; i++)
        len += (size_t)sprintf(s + len, "%s", suffix);
    return s;
}

static void expect_deep_error(const wmx_program *p, char *text)
{
    char err[256] = "";
    ui_cond *c = ui_cond_parse(p, text, err, sizeof err);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(err, "nesting deeper than 200"), "error: %s", err);
    free(text);
}

static void expect_parses(const wmx_program *p, char *text, bool value)
{
    char err[256] = "";
    ui_cond *c = ui_cond_parse(p, text, err, sizeof err);
    ck_assert_msg(c != NULL, "error: %s", err);
    wmx_error e = { 0 };
    wmx_machine *m = machine_new(p, MODEL_SC, &e);
    ck_assert_ptr_nonnull(m);
    void *st = malloc(machine_state_size(m));
    ck_assert_ptr_nonnull(st);
    machine_init(m, st);
    ck_assert(ui_cond_eval(c, m, st) == value);
    free(st);
    machine_free(m);
    ui_cond_free(c);
    free(text);
}

START_TEST(deep_conditions)
{
    wmx_error e = { 0 };
    wmx_program *p = lang_parse(sb, strlen(sb), "sb.wmx", &e);
    ck_assert_ptr_nonnull(p);
    expect_deep_error(p, build("~", "x=0", NULL, NULL, DEEP));
    expect_deep_error(p, build("not ", "x=0", NULL, NULL, DEEP));
    expect_deep_error(p, build("(", "x=0", ")", NULL, DEEP));
    expect_deep_error(p, build(NULL, "x=0", NULL, " /\\ ", DEEP));
    expect_deep_error(p, build(NULL, "y=1", NULL, " \\/ ", DEEP));
    expect_deep_error(p, build(NULL, "(x=0)", NULL, "&&", 201));
    /* at the limit: 199 '~' over an atom is 200 levels, 200 '(' nest 200 */
    expect_parses(p, build("~", "x=0", NULL, NULL, 199), false);
    expect_parses(p, build("(", "x=0", ")", NULL, 200), true);
    expect_parses(p, build(NULL, "x=0", NULL, " /\\ ", 200), true);
    ir_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ui_cond");
    TCase *tc = tcase_create("cond");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, deep_conditions);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
