/* test_wire.c - the bytes of a distributed run (issue 43, team_net.h):
 * every kind of unit that travels between MPI ranks (naive's schedules,
 * odpor's units with their records, odpor's wakeup sequences for another
 * rank's forced node, rfsmc's paths of decisions and keys for another
 * rank's decision) and the result each rank sends rank 0, written and
 * read back, are what was written; short or corrupt bytes are refused. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "lang.h"
#include "result_wire.h"
#include "wire.h"

static wmx_program *parse(const char *src)
{
    wmx_error err = { 0 };
    wmx_program *p = lang_parse(src, strlen(src), "test.wmx", &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

static const char *three =
    "var x; var y;\n"
    "thread P0 { x = 1; a = y; }\n"
    "thread P1 { y = 1; b = x; }\n"
    "thread P2 { x = 2; }\n";

/* 500 random units of one explorer, each written and read back */
static void selftests(const char *(*selftest)(const wmx_program *, unsigned))
{
    wmx_program *p = parse(three);
    for (unsigned seed = 0; seed < 500; seed++) {
        const char *why = selftest(p, seed);
        ck_assert_msg(why == NULL, "seed %u: %s", seed, why);
    }
    ir_program_free(p);
}

START_TEST(naive_units) { selftests(naive_wire_selftest); }
END_TEST

START_TEST(odpor_units_and_claims) { selftests(odpor_wire_selftest); }
END_TEST

START_TEST(rfsmc_units_and_keys) { selftests(rfsmc_wire_selftest); }
END_TEST

START_TEST(varints)
{
    const int64_t vals[] = { 0, 1, -1, 63, -64, 64, -65, 127, 128, 300, -300, 1 << 20, INT32_MAX, INT32_MIN,
                             INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1 };
    size_t n = sizeof vals / sizeof *vals;
    wire w;
    wire_init(&w);
    for (size_t i = 0; i < n; i++)
        wire_varint(&w, vals[i]);
    ck_assert_uint_eq(w.len, 1 + 1 + 1 + 1 + 1 + 2 + 2 + 2 + 2 + 2 + 2 + 4 + 5 + 5 + 10 + 10 + 10 + 10);
    wire_reader r;
    wire_reader_init(&r, w.buf, w.len);
    for (size_t i = 0; i < n; i++)
        ck_assert(wire_get_varint(&r) == vals[i]);
    ck_assert(wire_done(&r));
    /* cut in the middle of the last one, and a run of 11 continued bytes */
    wire_reader_init(&r, w.buf, w.len - 1);
    for (size_t i = 0; i < n; i++)
        (void)wire_get_varint(&r);
    ck_assert(r.bad);
    unsigned char bad[11];
    memset(bad, 0x80, sizeof bad);
    wire_reader_init(&r, bad, sizeof bad);
    (void)wire_get_varint(&r);
    ck_assert(r.bad);
    wire_free(&w);
}
END_TEST

/* a result with states, a violation and blocked traces */
static const char *faulty =
    "var x; var l;\n"
    "thread P0 { x = 1; a = x; assert(a == 1); }\n"
    "thread P1 { x = 2; await(l == 1); }\n";

static void same_result(const explore_result *a, const explore_result *b)
{
    ck_assert_int_eq(a->traces, b->traces);
    ck_assert_int_eq(a->blocked, b->blocked);
    ck_assert_int_eq(a->events, b->events);
    ck_assert_int_eq(a->error_traces, b->error_traces);
    ck_assert_int_eq(a->positive, b->positive);
    ck_assert_int_eq(a->negative, b->negative);
    ck_assert_int_eq(a->complete, b->complete);
    ck_assert_int_eq(a->nstates, b->nstates);
    for (int i = 0; i < a->nstates; i++) {
        ck_assert_int_eq(a->states[i].count, b->states[i].count);
        ck_assert_int_eq(a->states[i].satisfies, b->states[i].satisfies);
        ck_assert(memcmp(a->states[i].vals, b->states[i].vals, (size_t)a->nobserved * sizeof(wmx_val)) == 0);
    }
    ck_assert_int_eq(a->nerrors, b->nerrors);
    for (int i = 0; i < a->nerrors; i++) {
        ck_assert_str_eq(a->errors[i].message, b->errors[i].message);
        ck_assert_int_eq(a->errors[i].len, b->errors[i].len);
        ck_assert(memcmp(a->errors[i].steps, b->errors[i].steps, (size_t)a->errors[i].len * sizeof(wmx_transition)) == 0);
    }
    ck_assert_int_eq(a->nblocked_at, b->nblocked_at);
    for (int i = 0; i < a->nblocked_at; i++) {
        ck_assert_int_eq(a->blocked_at[i].count, b->blocked_at[i].count);
        ck_assert_int_eq(a->blocked_at[i].nwaits, b->blocked_at[i].nwaits);
        ck_assert_int_eq(a->blocked_at[i].len, b->blocked_at[i].len);
    }
}

START_TEST(results)
{
    wmx_program *p = parse(faulty);
    explore_opts o;
    explore_opts_init(&o);
    o.algo = ALGO_NAIVE;
    for (int stop = 0; stop < 2; stop++) {
        o.max_traces = stop ? 2 : 0;
        explore_result res, back;
        wmx_error err = { 0 };
        ck_assert_int_eq(explore_run(p, &o, &res, &err), 0);
        ck_assert(stop || res.nerrors > 0);
        ck_assert(stop || res.nblocked_at > 0);
        wire w;
        wire_init(&w);
        explore_result_write(&w, &res);
        wire_reader r;
        wire_reader_init(&r, w.buf, w.len);
        explore_result_init(&back, p, o.model, o.algo);
        ck_assert(explore_result_read(&r, &back));
        ck_assert(wire_done(&r));
        same_result(&res, &back);
        if (stop)
            ck_assert_str_eq(back.stop_reason, "max-traces");
        /* every cut short is refused, never read past */
        for (size_t cut = 0; cut < w.len; cut += 1 + w.len / 97) {
            explore_result part;
            explore_result_init(&part, p, o.model, o.algo);
            wire_reader_init(&r, w.buf, cut);
            ck_assert(!explore_result_read(&r, &part) || !wire_done(&r) || cut == w.len);
            explore_result_free(&part);
        }
        wire_free(&w);
        explore_result_free(&back);
        explore_result_free(&res);
    }
    ir_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("wire");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, naive_units);
    tcase_add_test(tc, odpor_units_and_claims);
    tcase_add_test(tc, rfsmc_units_and_keys);
    tcase_add_test(tc, varints);
    tcase_add_test(tc, results);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
