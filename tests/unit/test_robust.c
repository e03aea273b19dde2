/* test_robust.c - the fence search of core/robust.c against brute force:
 * on generated programs whose stores share source positions (copies of one
 * statement, as unrolled loops, inlined calls and threads running one
 * function make), every subset of the fence sites is run, and the search
 * must find a smallest working set (or say, from a complete search, that
 * none exists).  Also the sites themselves: one per source position, each
 * holding every copy. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randprog.h"
#include "robust.h"

/* the last instruction of thread t gets source line `line` (column 1) */
static void at_line(wmx_program *p, int t, int line)
{
    p->threads[t].instrs[p->threads[t].ninstrs - 1].loc = (wmx_srcloc){ line, 1, 0 };
}

/* 2 or 3 threads of 2 to 4 accesses over x, y (z): stores mostly, loads,
 * sometimes an exchange or a fence, sometimes a store only when a load
 * saw 1.  A store takes the source line of an earlier store a third of the
 * time (a copy of it), else a line of its own. */
static wmx_program *random_fence_program(uint64_t seed)
{
    rng r = { seed * 0x9E3779B97F4A7C15ULL + 11 };
    char name[32];
    snprintf(name, sizeof name, "fences%llu", (unsigned long long)seed);
    wmx_program *p = ir_program_new(name, name, "wmx");
    int nvars = 2 + pick(&r, 2);
    int vars[3];
    for (int v = 0; v < nvars; v++)
        vars[v] = ir_add_var(p, v == 0 ? "x" : v == 1 ? "y" : "z", 1);
    int nth = 2 + pick(&r, 2);
    int lines[32], nlines = 0, next_line = 1;
    for (int t = 0; t < nth; t++) {
        char tn[16];
        snprintf(tn, sizeof tn, "T%d", t);
        ir_add_thread(p, tn);
        int nins = 2 + pick(&r, nth == 3 ? 2 : 3);
        for (int k = 0; k < nins; k++) {
            int v = vars[pick(&r, nvars)];
            char reg[16];
            snprintf(reg, sizeof reg, "r%d", k);
            int what = pick(&r, 12);
            if (what < 6) {
                store(p, t, v, 1 + pick(&r, 2));
                int line = nlines > 0 && pick(&r, 3) == 0 ? lines[pick(&r, nlines)] : next_line++;
                at_line(p, t, line);
                if (nlines < 32)
                    lines[nlines++] = line;
            } else if (what < 10) {
                load(p, t, reg, v);
                at_line(p, t, next_line++);
            } else if (what == 10) {
                if (pick(&r, 2))
                    rmw(p, t, I_XCHG, reg, v, 1, 0);
                else
                    fence(p, t);
                at_line(p, t, next_line++);
            } else {
                int rr = load(p, t, reg, v);
                at_line(p, t, next_line++);
                int j = jump(p, t, ir_binop(p, OP_NE, ir_reg(p, rr), ir_const(p, 1)), -1);
                at_line(p, t, next_line++);
                store(p, t, vars[pick(&r, nvars)], 2);
                at_line(p, t, next_line++);
                p->threads[t].instrs[j].target = ninstr(p, t);
            }
        }
    }
    return p;
}

static bool robust(const wmx_program *p, wmx_model m)
{
    explore_opts o;
    explore_opts_init(&o);
    robust_result rr;
    wmx_error err = { 0 };
    ck_assert_int_eq(robust_check(p, m, &o, 0, false, &rr, &err), 0);
    ck_assert(rr.complete);
    bool ok = rr.nviol_total == 0;
    robust_result_free(&rr);
    return ok;
}

/* sites are source positions: each holds every unfenced store there */
START_TEST(sites_are_positions)
{
    for (uint64_t seed = 1; seed <= 200; seed++) {
        wmx_program *p = random_fence_program(seed);
        fence_site *s;
        int n = robust_fence_sites(p, &s);
        int stores = 0, held = 0;
        for (int t = 0; t < p->nthreads; t++)
            for (int i = 0; i < p->threads[t].ninstrs; i++) {
                const ir_instr *in = &p->threads[t].instrs[i];
                bool fenced = i + 1 < p->threads[t].ninstrs && p->threads[t].instrs[i + 1].kind == I_FENCE;
                stores += in->kind == I_STORE && !fenced;
            }
        for (int k = 0; k < n; k++) {
            ck_assert_int_ge(s[k].ncopies, 1);
            held += s[k].ncopies;
            for (int c = 0; c < s[k].ncopies; c++) {
                const ir_instr *in = &p->threads[s[k].copies[c].thread].instrs[s[k].copies[c].instr];
                ck_assert_int_eq(in->kind, I_STORE);
                ck_assert_int_eq(in->loc.line, s[k].loc.line);
            }
            for (int j = 0; j < k; j++)
                ck_assert_int_ne(s[j].loc.line, s[k].loc.line);
        }
        ck_assert_int_eq(held, stores);
        robust_sites_free(s, n);
        ir_program_free(p);
    }
}
END_TEST

START_TEST(search_against_brute_force)
{
    int seeds = getenv("ROBUST_SEEDS") ? atoi(getenv("ROBUST_SEEDS")) : 600;
    int compared = 0, none = 0, not_robust = 0, with_copies = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        wmx_program *p = random_fence_program((uint64_t)seed);
        fence_site *s;
        int n = robust_fence_sites(p, &s);
        for (int m = MODEL_TSO; m <= MODEL_PSO && n <= 7; m++) {
            explore_opts o;
            explore_opts_init(&o);
            robust_result rr;
            wmx_error err = { 0 };
            ck_assert_int_eq(robust_check(p, (wmx_model)m, &o, 1, true, &rr, &err), 0);
            if (rr.nviol_total == 0) {
                robust_result_free(&rr);
                continue;
            }
            not_robust++;
            /* brute force: the smallest subset of sites that makes it robust */
            int best = -1;
            bool *works = calloc((size_t)1 << n, sizeof *works);
            for (unsigned mask = 0; mask < 1u << n; mask++) {
                fence_site pick[8];
                int k = 0;
                for (int i = 0; i < n; i++)
                    if (mask >> i & 1)
                        pick[k++] = s[i];
                wmx_program *q = robust_fence_sites_insert(p, pick, k);
                works[mask] = robust(q, (wmx_model)m);
                ir_program_free(q);
                if (works[mask] && (best < 0 || k < best))
                    best = k;
            }
            ck_assert_msg(rr.fence_search_complete, "seed %d %s: search incomplete", seed,
                          model_name((wmx_model)m));
            if (best < 0) {
                none++;
                ck_assert_msg(!rr.fences_found, "seed %d %s: found fences, brute force none", seed,
                              model_name((wmx_model)m));
            } else {
                ck_assert_msg(rr.fences_found, "seed %d %s: no fences, brute force %d", seed,
                              model_name((wmx_model)m), best);
                unsigned mask = 0;
                for (int f = 0; f < rr.nfences; f++)
                    for (int i = 0; i < n; i++)
                        if (rr.fences[f].loc.line == s[i].loc.line &&
                            rr.fences[f].ncopies == s[i].ncopies)
                            mask |= 1u << i;
                ck_assert_int_eq(__builtin_popcount(mask), rr.nfences);
                ck_assert_msg(works[mask], "seed %d %s: the set found does not work", seed,
                              model_name((wmx_model)m));
                if (best <= ROBUST_MAX_FENCES) {
                    ck_assert(rr.fences_smallest);
                    ck_assert_msg(rr.nfences == best, "seed %d %s: %d fences, brute force %d", seed,
                                  model_name((wmx_model)m), rr.nfences, best);
                } else {
                    ck_assert(!rr.fences_smallest);
                    ck_assert_int_eq(rr.nfences, n);
                }
                for (int f = 0; f < rr.nfences; f++)
                    with_copies += rr.fences[f].ncopies > 1;
            }
            compared++;
            free(works);
            robust_result_free(&rr);
        }
        robust_sites_free(s, n);
        ir_program_free(p);
    }
    printf("fence search: %d non-robust runs agree with brute force (%d with no fence set, "
           "%d sites with copies chosen)\n", compared, none, with_copies);
    ck_assert_int_ge(compared, seeds / 4);
    ck_assert_int_ge(with_copies, 1);
    (void)not_robust;
}
END_TEST

int main(void)
{
    Suite *s = suite_create("robust");
    TCase *tc = tcase_create("robust");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, sites_are_positions);
    tcase_add_test(tc, search_against_brute_force);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
