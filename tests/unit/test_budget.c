/* test_budget.c - the default memory budget (issue 47 §6): half of the
 * memory, never all of it, and a stop by the default budget says what it
 * was and how to raise it; a budget given with --max-memory is reported as
 * before. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "result.h"

START_TEST(default_is_half)
{
    size_t total = explore_memory_size();
    if (total == 0)
        return;                     /* no /proc/meminfo: no default */
    explore_opts o;
    explore_opts_init(&o);
    ck_assert(o.max_memory_default);
    ck_assert_uint_eq(o.max_memory, total / 2);
    ck_assert_uint_lt(o.max_memory, total);
    ck_assert_uint_gt(o.max_memory, 0);
}
END_TEST

/* a budget below the resident size: the first real check stops the run */
static void stop_by(const explore_opts *o, explore_result *res)
{
    memset(res, 0, sizeof *res);
    res->complete = true;
    explore_clock c;
    explore_clock_start(&c, o);
    ck_assert(explore_check_limits(&c, o, res, 0));
    ck_assert(!res->complete);
    ck_assert_str_eq(res->stop_reason, "memory limit");
}

START_TEST(default_stop_says_how_to_raise)
{
    explore_opts o;
    explore_opts_init(&o);
    o.max_memory = 4096;            /* as if the default were tiny */
    explore_result res;
    stop_by(&o, &res);
    ck_assert_msg(strstr(res.stop_text, "memory limit 4096 bytes reached") != NULL, "%s", res.stop_text);
    ck_assert_msg(strstr(res.stop_text, "the default budget, half of the memory: raise it with "
                                        "--max-memory SIZE, 0 for none") != NULL, "%s", res.stop_text);
    /* before an allocation too */
    memset(&res, 0, sizeof res);
    res.complete = true;
    explore_clock c;
    explore_clock_start(&c, &o);
    ck_assert(explore_reserve(&c, &o, &res, (size_t)1 << 25));
    ck_assert_msg(strstr(res.stop_text, "raise it with --max-memory") != NULL, "%s", res.stop_text);
}
END_TEST

START_TEST(given_stop_has_no_hint)
{
    explore_opts o;
    explore_opts_init(&o);
    o.max_memory = 4096;
    o.max_memory_default = false;   /* --max-memory 4096 */
    explore_result res;
    stop_by(&o, &res);
    ck_assert_msg(strstr(res.stop_text, "memory limit 4096 bytes reached") != NULL, "%s", res.stop_text);
    ck_assert_msg(strstr(res.stop_text, "default") == NULL, "%s", res.stop_text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("budget");
    TCase *tc = tcase_create("default");
    tcase_add_test(tc, default_is_half);
    tcase_add_test(tc, default_stop_says_how_to_raise);
    tcase_add_test(tc, given_stop_has_no_hint);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
