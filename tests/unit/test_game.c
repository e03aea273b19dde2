/* test_game.c - TSO safety games (core/game*.c): the parser, hand-made games
 * with known winners, and properties on random games against an independent
 * solver written straight from the paper's move relation (updates closed
 * over as up* before / after the instruction, no sub-phases). */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "util.h"

static game_def *parse_ok(const char *s)
{
    wmx_error err = { 0 };
    game_def *g = game_parse(s, strlen(s), "t.game", &err);
    if (!g) {
        char b[1024];
        ck_abort_msg("parse failed: %s\n%s", wmx_error_format(&err, b, sizeof b), s);
    }
    return g;
}

static const char *parse_err(const char *s)
{
    static char b[1024];
    wmx_error err = { 0 };
    game_def *g = game_parse(s, strlen(s), "t.game", &err);
    ck_assert_msg(g == NULL, "expected an error for:\n%s", s);
    return wmx_error_format(&err, b, sizeof b);
}

/* winner from the start: 'A' or 'B'; k 0 = exact collapse */
static char solve(const game_def *g, int au, int bu, int k, int first)
{
    game_opts o;
    game_opts_init(&o);
    o.a_update = au;
    o.b_update = bu;
    o.k = k;
    o.first = first;
    game_graph G;
    ck_assert_int_eq(game_build(&G, g, &o), 0);
    game_solve(&G);
    char why[200];
    ck_assert_msg(game_check_strategy(&G, why, sizeof why) == 0, "%s", why);
    char w = G.winB[0] ? 'B' : 'A';
    game_graph_free(&G);
    return w;
}

static const char *FLUSH_RACE =
    "// B wins if Q reads x = 0 after P has written 1\n"
    "name flush-race\n"
    "var x = 0, y;\n"
    "process P {\n  init p0;\n  p0 -> p1 : wr(x, 1);\n  p1 -> p2 : skip;\n}\n"
    "process Q {\n  init q0;\n  final q1;\n  q0 -> q1 : rd(x, 0);\n}\n";

START_TEST(test_parse)
{
    game_def *g = parse_ok(FLUSH_RACE);
    ck_assert_str_eq(g->name, "flush-race");
    ck_assert_int_eq(g->nvars, 2);
    ck_assert_int_eq(g->nprocs, 2);
    ck_assert_int_eq(g->procs[0].ntrans, 2);
    ck_assert_int_eq(g->procs[1].final[1], 1);
    ck_assert_int_eq(g->procs[0].trans[0].op, GOP_WR);
    game_free(g);
    /* default init: the first state named; comments of both kinds */
    g = parse_ok("/* c */ var x = -1; process P { a -> b : rd(x, -1); final b; b -> a : mf; a -> a : skip; }");
    ck_assert_int_eq(g->procs[0].init, 0);
    ck_assert_int_eq(g->dom[g->init[0]], -1);
    game_free(g);
}
END_TEST

START_TEST(test_parse_errors)
{
    ck_assert_str_eq(parse_err("var x;\nprocess P {\n  a -> b : wr(z, 1);\n}"), "t.game:3:15: unknown variable 'z'");
    ck_assert_str_eq(parse_err("var x;\nprocess P { a -> b wr(x, 1); }"), "t.game:2:20: expected ':', got 'wr'");
    ck_assert_str_eq(parse_err("var x, x;"), "t.game:1:8: variable 'x' declared twice");
    ck_assert_str_eq(parse_err("process P { a -> b : jump; }"),
                     "t.game:1:22: expected an instruction (wr, rd, mf, skip), got 'jump'");
    ck_assert_str_eq(parse_err("process P { init a; init b; }"), "t.game:1:26: process P has two init states");
    ck_assert_str_eq(parse_err("var x;"), "t.game:1:7: the game has no processes");
    ck_assert_str_eq(parse_err("process P { a -> b : skip;"), "t.game:1:27: expected '}' to close process P");
    ck_assert_str_eq(parse_err("/* open"), "t.game:1:1: unterminated comment");
}
END_TEST

START_TEST(test_flush_race)
{
    game_def *g = parse_ok(FLUSH_RACE);
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 0, GAME_A), 'B');
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 1, GAME_A), 'B');
    ck_assert_int_eq(solve(g, GAME_AFTER, GAME_NEVER, 1, GAME_A), 'A');
    ck_assert_int_eq(solve(g, GAME_ALWAYS, GAME_NEVER, 2, GAME_A), 'A');
    ck_assert_int_eq(solve(g, GAME_BEFORE, GAME_NEVER, 2, GAME_A), 'B');
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_AFTER, 2, GAME_A), 'B');
    game_free(g);
}
END_TEST

START_TEST(test_small_known)
{
    /* the start is final: B wins at once when A is to move, not when B is */
    game_def *g = parse_ok("process P { final a; a -> b : skip; }");
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 0, GAME_A), 'B');
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 0, GAME_B), 'A');
    game_free(g);
    /* nobody can move: passes forever, A wins */
    g = parse_ok("var x; process P { a -> b : rd(x, 1); final b; }");
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 0, GAME_A), 'A');
    game_free(g);
    /* mf after a write: only an update lets P pass the fence */
    g = parse_ok("var x; process P { a -> b : wr(x, 1); b -> c : mf; final c; }");
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 0, GAME_A), 'A');
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_BEFORE, 1, GAME_A), 'B');
    /* B's updates come after her own instruction: when A wrote, B has no
     * instruction, passes, and never gets to flush */
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_AFTER, 1, GAME_A), 'A');
    /* ... but when B writes herself she flushes after it, and A must fence */
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_AFTER, 1, GAME_B), 'B');
    game_free(g);
    /* a bound disables the second write: with k=1 nobody can reach c */
    g = parse_ok("var x; process P { a -> b : wr(x, 1); b -> c : wr(x, 2); final c; }");
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 1, GAME_A), 'A');
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 2, GAME_A), 'B');
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 0, GAME_A), 'B');
    game_free(g);
    /* Moves are compulsory, so update rights can hurt their holder: with
     * `before`, A can flush P1's x = 1 and then must move (she may not
     * pass), which lets P0 read 1.  Without updates she just passes. */
    g = parse_ok("var x;\n"
                 "process P0 { init s0; final s2; s1 -> s2 : rd(x, 1); s0 -> s1 : mf; }\n"
                 "process P1 { init s0; final s1; s0 -> s0 : mf; s1 -> s1 : rd(x, 0); s0 -> s0 : wr(x, 1); }\n");
    ck_assert_int_eq(solve(g, GAME_NEVER, GAME_NEVER, 1, GAME_A), 'A');
    ck_assert_int_eq(solve(g, GAME_BEFORE, GAME_NEVER, 1, GAME_A), 'B');
    ck_assert_int_eq(solve(g, GAME_AFTER, GAME_NEVER, 1, GAME_A), 'A');
    game_free(g);
}
END_TEST

/* ---- the reference solver: the paper's relation, updates closed over ---- */

#define RP 3
#define RK 3
#define RV 3
typedef struct rcfg {
    unsigned char st[RP], mem[RV], buf[RP][RK][2], len[RP];
} rcfg;

typedef struct rgame {
    const game_def *g;
    int k, au, bu;
    rcfg *c;
    int *player;
    int n, cap;
    int *succ, *soff, nsucc, scap;
} rgame;

static int r_find(rgame *r, const rcfg *c, int pl)
{
    for (int i = 0; i < r->n; i++)
        if (r->player[i] == pl && memcmp(&r->c[i], c, sizeof *c) == 0)
            return i;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 256;
        r->c = realloc(r->c, (size_t)r->cap * sizeof *r->c);
        r->player = realloc(r->player, (size_t)r->cap * sizeof *r->player);
    }
    r->c[r->n] = *c;
    r->player[r->n] = pl;
    return r->n++;
}

/* all configurations reachable by updates (c itself included) */
static int r_closure(const rgame *r, const rcfg *c, rcfg *out, int max)
{
    int n = 0;
    out[n++] = *c;
    for (int i = 0; i < n; i++)
        for (int p = 0; p < r->g->nprocs; p++) {
            rcfg d = out[i];
            if (!d.len[p])
                continue;
            d.mem[d.buf[p][0][0]] = d.buf[p][0][1];
            memmove(d.buf[p][0], d.buf[p][1], sizeof d.buf[p][0] * (RK - 1));
            memset(d.buf[p][RK - 1], 0, 2);
            d.len[p]--;
            int seen = 0;
            for (int j = 0; j < n && !seen; j++)
                seen = memcmp(&out[j], &d, sizeof d) == 0;
            if (!seen) {
                ck_assert_int_lt(n, max);
                out[n++] = d;
            }
        }
    return n;
}

static int r_instr(const rgame *r, const rcfg *c, int p, const game_trans *t, rcfg *o)
{
    if (c->st[p] != t->from)
        return 0;
    *o = *c;
    int v;
    switch (t->op) {
    case GOP_WR:
        if (c->len[p] >= r->k)
            return 0;
        o->buf[p][c->len[p]][0] = (unsigned char)t->var;
        o->buf[p][c->len[p]][1] = (unsigned char)t->val;
        o->len[p]++;
        break;
    case GOP_RD:
        v = c->mem[t->var];
        for (int i = 0; i < c->len[p]; i++)
            if (c->buf[p][i][0] == t->var)
                v = c->buf[p][i][1];
        if (v != t->val)
            return 0;
        break;
    case GOP_MF:
        if (c->len[p])
            return 0;
        break;
    default:
        break;
    }
    o->st[p] = (unsigned char)t->to;
    return 1;
}

#define RMAXC 4096
static char r_solve(const game_def *g, int au, int bu, int k, int first)
{
    rgame r = { g, k, au, bu, NULL, NULL, 0, 0, NULL, NULL, 0, 0 };
    rcfg c0;
    memset(&c0, 0, sizeof c0);
    for (int p = 0; p < g->nprocs; p++)
        c0.st[p] = (unsigned char)g->procs[p].init;
    for (int x = 0; x < g->nvars; x++)
        c0.mem[x] = (unsigned char)g->init[x];
    r_find(&r, &c0, first);
    rcfg *pre = malloc(RMAXC * sizeof *pre), *post = malloc(RMAXC * sizeof *post);
    int *tmp = malloc(sizeof(int) * 1 << 20);
    r.soff = malloc(sizeof(int));
    r.soff[0] = 0;
    for (int i = 0; i < r.n; i++) {
        rcfg c = r.c[i];
        int pl = r.player[i], u = pl == GAME_A ? au : bu;
        int nt = 0;
        int fin = 0;
        for (int p = 0; p < g->nprocs; p++)
            fin |= g->procs[p].final[c.st[p]];
        if (!(pl == GAME_A && fin)) {
            int npre = (u & GAME_BEFORE) ? r_closure(&r, &c, pre, RMAXC) : (pre[0] = c, 1);
            for (int a = 0; a < npre; a++)
                for (int p = 0; p < g->nprocs; p++)
                    for (int t = 0; t < g->procs[p].ntrans; t++) {
                        rcfg d;
                        if (!r_instr(&r, &pre[a], p, &g->procs[p].trans[t], &d))
                            continue;
                        int npost = (u & GAME_AFTER) ? r_closure(&r, &d, post, RMAXC) : (post[0] = d, 1);
                        for (int b = 0; b < npost; b++)
                            tmp[nt++] = r_find(&r, &post[b], !pl);
                    }
            if (nt == 0)
                tmp[nt++] = r_find(&r, &c, !pl);      /* no move: pass */
        }
        r.soff = realloc(r.soff, (size_t)(i + 2) * sizeof(int));
        r.succ = realloc(r.succ, (size_t)(r.soff[i] + nt + 1) * sizeof(int));
        memcpy(r.succ + r.soff[i], tmp, (size_t)nt * sizeof(int));
        r.soff[i + 1] = r.soff[i] + nt;
    }
    char *w = calloc((size_t)r.n, 1);
    for (int ch = 1; ch;) {
        ch = 0;
        for (int i = 0; i < r.n; i++) {
            if (w[i])
                continue;
            int win;
            if (r.soff[i] == r.soff[i + 1]) {
                win = r.player[i] == GAME_A;      /* only targets have no successor */
            } else if (r.player[i] == GAME_B) {
                win = 0;
                for (int e = r.soff[i]; e < r.soff[i + 1]; e++)
                    win |= w[r.succ[e]];
            } else {
                win = 1;
                for (int e = r.soff[i]; e < r.soff[i + 1]; e++)
                    win &= w[r.succ[e]];
            }
            if (win)
                w[i] = ch = 1;
        }
    }
    char res = w[0] ? 'B' : 'A';
    free(w);
    free(r.c);
    free(r.player);
    free(r.succ);
    free(r.soff);
    free(pre);
    free(post);
    free(tmp);
    return res;
}

static unsigned rng;
static unsigned rnd(unsigned n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 16) % n;
}

static char *random_game(void)
{
    wmx_strbuf b = { 0 };
    int nv = 1 + (int)rnd(2), np = 1 + (int)rnd(RP);
    wmx_strbuf_printf(&b, "var x");
    if (nv > 1)
        wmx_strbuf_printf(&b, ", y = %u", rnd(2));
    wmx_strbuf_printf(&b, ";\n");
    int anyfinal = 0;
    for (int p = 0; p < np; p++) {
        int ns = 2 + (int)rnd(2), nt = 1 + (int)rnd(4);
        wmx_strbuf_printf(&b, "process P%d {\n  init s0;\n", p);
        if (rnd(2) || (p == np - 1 && !anyfinal)) {
            wmx_strbuf_printf(&b, "  final s%d;\n", ns - 1);
            anyfinal = 1;
        }
        for (int t = 0; t < nt; t++) {
            const char *var = rnd((unsigned)nv) ? "y" : "x";
            wmx_strbuf_printf(&b, "  s%u -> s%u : ", rnd((unsigned)ns), rnd((unsigned)ns));
            switch (rnd(6)) {
            case 0:
            case 1:
                wmx_strbuf_printf(&b, "wr(%s, %u);\n", var, rnd(2));
                break;
            case 2:
            case 3:
                wmx_strbuf_printf(&b, "rd(%s, %u);\n", var, rnd(2));
                break;
            case 4:
                wmx_strbuf_printf(&b, "mf;\n");
                break;
            default:
                wmx_strbuf_printf(&b, "skip;\n");
            }
        }
        wmx_strbuf_printf(&b, "}\n");
    }
    return b.s;
}

/* Every variant and bound on random games: the attractor agrees with the
 * naive fixpoint on every position and with the reference solver from the
 * start; the strategy checker accepts the winner's strategy. */
START_TEST(test_random_games)
{
    rng = 12345u;
    int games = getenv("WMX_GAME_SEEDS") ? atoi(getenv("WMX_GAME_SEEDS")) : 150;
    for (int i = 0; i < games; i++) {
        char *src = random_game();
        game_def *g = parse_ok(src);
        for (int au = 0; au < 4; au++)
            for (int bu = 0; bu < 4; bu++)
                for (int k = 1; k <= 2; k++)
                    for (int first = 0; first < 2; first++) {
                        game_opts o;
                        game_opts_init(&o);
                        o.a_update = au;
                        o.b_update = bu;
                        o.k = k;
                        o.first = first;
                        game_graph G;
                        ck_assert_int_eq(game_build(&G, g, &o), 0);
                        game_solve(&G);
                        uint8_t *nw = game_solve_naive(&G);
                        for (uint32_t v = 0; v < G.n; v++)
                            ck_assert_msg(nw[v] == G.winB[v], "naive disagrees at %u\n%s", v, src);
                        free(nw);
                        char why[200];
                        ck_assert_msg(game_check_strategy(&G, why, sizeof why) == 0, "%s\n%s", why, src);
                        char w = G.winB[0] ? 'B' : 'A';
                        char rw = r_solve(g, au, bu, k, first);
                        ck_assert_msg(w == rw, "variant %s/%s k=%d first=%c: wmx %c, reference %c\n%s",
                                      game_update_name(au), game_update_name(bu), k, first ? 'B' : 'A', w, rw, src);
                        game_graph_free(&G);
                    }
        game_free(g);
        free(src);
    }
}
END_TEST

/* never/never exact: programs whose processes write at most once per
 * variable between fences cannot tell the collapse from long buffers, so
 * the exact answer equals any bound >= the number of writes. */
START_TEST(test_collapse_matches_bound)
{
    rng = 777u;
    for (int i = 0; i < 3000; i++) {
        char *src = random_game();
        game_def *g = parse_ok(src);
        /* acyclic processes (every transition moves forward) write at most
         * twice, so k = 3 never binds and must agree with the collapse */
        int ok = 1;
        for (int p = 0; p < g->nprocs && ok; p++)
            for (int t = 0; t < g->procs[p].ntrans; t++)
                if (g->procs[p].trans[t].to <= g->procs[p].trans[t].from)
                    ok = 0;
        if (ok) {
            char e = solve(g, GAME_NEVER, GAME_NEVER, 0, GAME_A);
            char kb = solve(g, GAME_NEVER, GAME_NEVER, 3, GAME_A);
            ck_assert_msg(e == kb, "exact %c, k=3 %c\n%s", e, kb, src);
        }
        game_free(g);
        free(src);
    }
}
END_TEST


/* The examples' headers: "// expect: A=U,.. B=U,.. => W" ("any" = all four).
 * Solved here through the core at k = 1, 2, 3 (exact for never/never); every
 * bound must give the claimed winner. */
static int rule_in(const char *list, int u)
{
    if (strncmp(list, "any", 3) == 0)
        return 1;
    char buf[64];
    snprintf(buf, sizeof buf, ",%.*s,", (int)strcspn(list, " "), list);
    char pat[16];
    snprintf(pat, sizeof pat, ",%s,", game_update_name(u));
    return strstr(buf, pat) != NULL;
}

START_TEST(test_example_headers)
{
    const char *dir = "examples/games";
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "no %s (run from the source root)", dir);
    struct dirent *e;
    int claims = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".game") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        wmx_error err = { 0 };
        game_def *g = game_load(path, &err);
        ck_assert_msg(g != NULL, "%s does not load", path);
        size_t len;
        char *text = wmx_read_file(path, &len, &err);
        for (char *line = strstr(text, "// expect: "); line; line = strstr(line + 1, "// expect: ")) {
            char *a = strstr(line, "A="), *b = strstr(line, "B="), *w = strstr(line, "=> ");
            ck_assert_msg(a && b && w, "bad expect line in %s", path);
            int first = strstr(line, "first=B") && strstr(line, "first=B") < w ? GAME_B : GAME_A;
            for (int au = 0; au < 4; au++)
                for (int bu = 0; bu < 4; bu++) {
                    if (!rule_in(a + 2, au) || !rule_in(b + 2, bu))
                        continue;
                    for (int k = 1; k <= 3; k++) {
                        int kk = game_variant_exact(au, bu) ? 0 : k;
                        char got = solve(g, au, bu, kk, first);
                        ck_assert_msg(got == w[3], "%s %s/%s k=%d: %c, header says %c", path,
                                      game_update_name(au), game_update_name(bu), kk, got, w[3]);
                        claims++;
                    }
                }
        }
        free(text);
        game_free(g);
    }
    closedir(d);
    ck_assert_int_gt(claims, 50);
}
END_TEST

static Suite *game_suite(void)
{
    Suite *s = suite_create("game");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_flush_race);
    tcase_add_test(tc, test_small_known);
    tcase_add_test(tc, test_example_headers);
    tcase_add_test(tc, test_random_games);
    tcase_add_test(tc, test_collapse_matches_bound);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(game_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
