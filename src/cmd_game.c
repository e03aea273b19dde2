/* cmd_game.c - `wmx game FILE [--a-update U] [--b-update U] [--k N|auto]
 * [--first A|B] [--json] [--format text|dot] [--timeout S]`: solves a TSO
 * safety game (doc/games.md) and prints the winner, the graph's size and the
 * winner's positional strategy.  Exit 0 solved, 2 input error, 3 a limit
 * (--max-positions, --timeout, Ctrl-C) stopped the run before any bound was
 * solved. */
#include "cli.h"
#include "game.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define AUTO_STABLE 3          /* --k auto: same winner for this many bounds */

typedef struct kres {
    int k, winner;
    uint32_t positions;
    uint32_t edges;
    double secs;
} kres;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What stops a build: Ctrl-C (the cancel flag), --timeout (polled by the
 * build's progress hook), or --max-positions (the build's own check). */
typedef struct game_stop {
    volatile sig_atomic_t *cancel;
    double deadline;           /* 0 = none */
    int timed_out;
} game_stop;

static int game_progress(uint64_t positions, void *ud)
{
    (void)positions;
    game_stop *st = ud;
    if (st->deadline > 0 && now_s() >= st->deadline)
        st->timed_out = 1;
    return st->timed_out;
}

/* The reason a build stopped, as a JSON token and in words. */
static const char *stop_token(const game_stop *st)
{
    if (st->cancel && *st->cancel)
        return "interrupted";
    return st->timed_out ? "timeout" : "max-positions";
}

static void stop_words(FILE *f, const game_stop *st, const game_opts *o, double timeout)
{
    if (st->cancel && *st->cancel)
        fprintf(f, "interrupted (Ctrl-C)");
    else if (st->timed_out)
        fprintf(f, "timeout after %g s (--timeout)", timeout);
    else
        fprintf(f, "the position graph outgrew --max-positions %llu", (unsigned long long)o->max_positions);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* The positions the winner's strategy can reach from the start (all of the
 * opponent's moves, the winner's chosen one); targets end a play. */
static uint32_t *strategy_reach(const game_graph *G, uint32_t *count)
{
    uint8_t *seen = calloc(G->n ? G->n : 1, 1);
    uint32_t *q = malloc(((size_t)G->n + 1) * sizeof *q), qh = 0, qt = 0;
    if (!seen || !q) {
        free(seen);
        free(q);
        *count = 0;
        return NULL;
    }
    int win = G->winB[0] ? GAME_B : GAME_A;
    seen[0] = 1;
    q[qt++] = 0;
    while (qh < qt) {
        uint32_t v = q[qh++];
        if (game_is_target(G, v))
            continue;
        uint32_t b = G->soff[v], e = G->soff[v + 1];
        if (game_owner(G, v) == win) {
            if (G->strat[v] == UINT32_MAX)
                continue;
            b = G->strat[v];
            e = b + 1;
        }
        for (uint32_t i = b; i < e; i++)
            if (!seen[G->succ[i]]) {
                seen[G->succ[i]] = 1;
                q[qt++] = G->succ[i];
            }
    }
    free(seen);
    *count = qt;
    return q;
}

static void print_table(FILE *out, const game_graph *G, long rows)
{
    uint32_t nr;
    uint32_t *r = strategy_reach(G, &nr);
    int win = G->winB[0] ? GAME_B : GAME_A;
    wmx_strbuf b = { 0 };
    long shown = 0, mine = 0;
    if (win == GAME_B)
        fprintf(out, "strategy of B (its positions reachable from the start; rank = steps to a final state):\n");
    else
        fprintf(out, "strategy of A (its positions reachable from the start; each stays in A's region):\n");
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t v = r[i];
        if (game_owner(G, v) != win || G->strat[v] == UINT32_MAX)
            continue;
        mine++;
        if (rows > 0 && shown >= rows)
            continue;
        b.len = 0;
        game_pos_str(G, v, &b);
        fprintf(out, "  %-52s -> ", b.s);
        b.len = 0;
        game_move_str(G, G->lab[G->strat[v]], &b);
        fprintf(out, "%s", b.s);
        if (win == GAME_B)
            fprintf(out, "   (rank %u)", G->rank[v]);
        fputc('\n', out);
        shown++;
    }
    if (mine == 0)
        fprintf(out, "  (no choice to make: every play from the start is decided)\n");
    if (shown < mine)
        fprintf(out, "  ... %ld more (--rows 0 shows all)\n", mine - shown);
    free(b.s);
    free(r);
}

static void print_dot(FILE *out, const game_graph *G)
{
    uint32_t nr;
    uint32_t *r = strategy_reach(G, &nr);
    int win = G->winB[0] ? GAME_B : GAME_A;
    uint8_t *in = calloc(G->n ? G->n : 1, 1);
    wmx_strbuf b = { 0 };
    fprintf(out, "digraph strategy {\n  rankdir=LR;\n  node [fontname=\"monospace\", fontsize=10];\n");
    fprintf(out, "  label=\"%c wins: strategy graph\";\n", win == GAME_B ? 'B' : 'A');
    for (uint32_t i = 0; i < nr && in; i++)
        in[r[i]] = 1;
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t v = r[i];
        b.len = 0;
        game_pos_str(G, v, &b);
        if (G->winB[v] && win == GAME_B && !game_is_target(G, v))
            wmx_strbuf_printf(&b, "\\nrank %u", G->rank[v]);
        fprintf(out, "  n%u [label=\"", v);
        for (const char *s = b.s; s && *s; s++)
            fputc(*s == '"' ? '\'' : *s, out);
        fprintf(out, "\", shape=%s%s];\n", game_owner(G, v) == GAME_A ? "box" : "ellipse",
                game_is_target(G, v) ? ", style=filled, fillcolor=\"#f4b6b6\"" :
                v == 0 ? ", style=bold" : "");
    }
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t v = r[i];
        if (game_is_target(G, v))
            continue;
        for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++) {
            int chosen = G->strat[v] == e;
            if (game_owner(G, v) == win && !chosen)
                continue;
            if (!in || !in[G->succ[e]])
                continue;
            b.len = 0;
            game_move_str(G, G->lab[e], &b);
            fprintf(out, "  n%u -> n%u [label=\"%s\"%s];\n", v, G->succ[e], b.s,
                    chosen ? ", penwidth=2, color=\"#1f6fb2\"" : "");
        }
    }
    fprintf(out, "}\n");
    free(b.s);
    free(in);
    free(r);
}

int cmd_game(int argc, char **argv, cmd_ctx *ctx)
{
    const char *file = NULL;
    game_opts o;
    game_opts_init(&o);
    o.cancel = ctx->cancel;
    o.max_positions = 50000000;
    game_stop stop = { ctx->cancel, 0, 0 };
    double timeout = 0;
    int json = 0, dot = 0, kauto = 0, kgiven = 0, kmax = 8;
    long rows = 50;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        const char *names[] = { "--a-update", "--b-update", "--k", "--first", "--format", "--rows",
                                "--max-positions", "--k-max", "--timeout", NULL };
        int which = -1;
        for (int j = 0; names[j]; j++) {
            size_t n = strlen(names[j]);
            if (strncmp(a, names[j], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
                which = j;
                v = a[n] == '=' ? a + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
                break;
            }
        }
        if (which >= 0 && !v) {
            fprintf(ctx->err, "wmx game: option %s needs a value\n", a);
            return EXIT_USAGE;
        }
        char *end = NULL;
        switch (which) {
        case 8:
            timeout = strtod(v, &end);
            if (*v == '\0' || *end || !isfinite(timeout) || !(timeout > 0)) {
                fprintf(ctx->err, "wmx game: --timeout: expected a positive number of seconds, got '%s'\n", v);
                return EXIT_USAGE;
            }
            break;
        case 0:
        case 1: {
            int u = game_update_parse(v);
            if (u < 0) {
                fprintf(ctx->err, "wmx game: %s: expected never, before, after or always, got '%s'\n",
                        names[which], v);
                return EXIT_USAGE;
            }
            if (which == 0)
                o.a_update = u;
            else
                o.b_update = u;
            break;
        }
        case 2:
            kgiven = 1;
            if (strcmp(v, "auto") == 0) {
                kauto = 1;
                break;
            }
            o.k = (int)strtol(v, &end, 10);
            if (*v == '\0' || *end || o.k < 1 || o.k > GAME_MAX_K) {
                fprintf(ctx->err, "wmx game: --k: expected 1..%d or auto, got '%s'\n", GAME_MAX_K, v);
                return EXIT_USAGE;
            }
            break;
        case 3:
            if (strcmp(v, "A") && strcmp(v, "B") && strcmp(v, "a") && strcmp(v, "b")) {
                fprintf(ctx->err, "wmx game: --first: expected A or B, got '%s'\n", v);
                return EXIT_USAGE;
            }
            o.first = (v[0] == 'B' || v[0] == 'b') ? GAME_B : GAME_A;
            break;
        case 4:
            if (strcmp(v, "dot") == 0)
                dot = 1;
            else if (strcmp(v, "json") == 0)
                json = 1;
            else if (strcmp(v, "text") != 0) {
                fprintf(ctx->err, "wmx game: --format: expected text or dot, got '%s'\n", v);
                return EXIT_USAGE;
            }
            break;
        case 5:
        case 6:
        case 7: {
            long n = strtol(v, &end, 10);
            if (*v == '\0' || *end || n < 0) {
                fprintf(ctx->err, "wmx game: %s: expected a non-negative integer, got '%s'\n", names[which], v);
                return EXIT_USAGE;
            }
            if (which == 5)
                rows = n;
            else if (which == 6)
                o.max_positions = (uint64_t)n;
            else if (n < 1 || n > GAME_MAX_K) {
                fprintf(ctx->err, "wmx game: --k-max: expected 1..%d\n", GAME_MAX_K);
                return EXIT_USAGE;
            } else
                kmax = (int)n;
            break;
        }
        default:
            if (strcmp(a, "--json") == 0) {
                json = 1;
            } else if (a[0] == '-' && a[1] != '\0') {
                fprintf(ctx->err, "wmx game: unknown option '%s'\n", a);
                return EXIT_USAGE;
            } else if (!file) {
                file = a;
            } else {
                fprintf(ctx->err, "wmx game: more than one file given ('%s')\n", a);
                return EXIT_USAGE;
            }
        }
    }
    if (!file) {
        fprintf(ctx->err, "wmx game: no game file given\n");
        return EXIT_USAGE;
    }
    wmx_error err = { 0 };
    game_def *g = game_load(file, &err);
    if (!g) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    double t0 = now_s();
    if (timeout > 0)
        stop.deadline = t0 + timeout;
    o.progress = game_progress;
    o.ud = &stop;
    int exact = game_variant_exact(o.a_update, o.b_update) && !(kgiven && !kauto);
    /* without --k a variant with no finite construction is solved like --k auto */
    if (!exact && !kgiven)
        kauto = 1;
    /* When no process can write more than wb times, the wb-bounded game is
     * the game itself: --k auto then climbs to wb and the answer is exact. */
    int wb = game_write_bound(g);
    int kexact = game_exact_bound(g, o.a_update, o.b_update);   /* never 0 here: no collapse */
    int by_writes = 0;
    const char *bound;
    kres ks[GAME_MAX_K + 1];
    int nks = 0;
    game_graph G;
    int have = 0, rc = EXIT_OK, stopped = 1;   /* stopped: a limit ended the last build */
    if (exact) {
        o.k = 0;
        bound = "exact";
        if (game_build(&G, g, &o) == 0) {
            game_solve(&G);
            have = 1;
        } else {
            game_graph_free(&G);
        }
    } else if (!kauto) {
        bound = "fixed";
        if (game_build(&G, g, &o) == 0) {
            game_solve(&G);
            have = 1;
            ks[nks++] = (kres){ o.k, G.winB[0] ? GAME_B : GAME_A, G.nreach, G.nedges, G.build_s + G.solve_s };
        } else {
            game_graph_free(&G);
        }
    } else {
        bound = "limit";
        int klast = kexact > 0 ? kexact : kmax;
        stopped = 0;
        for (int k = 1; k <= klast; k++) {
            game_graph H;
            o.k = k;
            if (game_build(&H, g, &o) != 0) {
                game_graph_free(&H);
                stopped = 1;
                break;
            }
            game_solve(&H);
            ks[nks++] = (kres){ k, H.winB[0] ? GAME_B : GAME_A, H.nreach, H.nedges, H.build_s + H.solve_s };
            if (have)
                game_graph_free(&G);
            G = H;
            have = 1;
            if (k == kexact) {
                bound = "exact";
                exact = by_writes = 1;
                break;
            }
            if (kexact > 0)
                continue;
            int same = nks >= AUTO_STABLE;
            for (int j = nks - AUTO_STABLE; same && j < nks; j++)
                same = ks[j].winner == ks[nks - 1].winner;
            if (same) {
                bound = "stable";
                break;
            }
        }
    }
    double secs = now_s() - t0;
    if (!have) {
        if (json) {
            fprintf(ctx->out, "{\"winner\": null, \"exact\": false, \"limit\": true, \"stop_reason\": \"%s\", "
                              "\"time_s\": %.3f}\n", stop_token(&stop), secs);
        } else {
            fprintf(ctx->out, "LIMIT: stopped before any bound was solved: ");
            stop_words(ctx->out, &stop, &o, timeout);
            fprintf(ctx->out, " (%.2f s)\n", secs);
        }
        game_free(g);
        return EXIT_LIMIT;
    }
    int winner = G.winB[0] ? GAME_B : GAME_A;
    int kfinal = exact && !by_writes ? 0 : o.k;
    if (kauto)
        kfinal = ks[nks - 1].k;
    if (json) {
        FILE *f = ctx->out;
        fprintf(f, "{\"game\": ");
        json_str(f, g->name ? g->name : file);
        fprintf(f, ", \"winner\": \"%c\", \"exact\": %s, \"k\": ", winner == GAME_B ? 'B' : 'A',
                exact ? "true" : "false");
        if (exact && !by_writes)
            fprintf(f, "null");
        else
            fprintf(f, "%d", kfinal);
        fprintf(f, ", \"bound\": \"%s\", \"positions\": %u, \"edges\": %u, \"a_update\": \"%s\", \"b_update\": \"%s\", "
                   "\"first\": \"%c\", \"rank\": ",
                bound, G.nreach, G.nedges, game_update_name(o.a_update), game_update_name(o.b_update),
                o.first == GAME_B ? 'B' : 'A');
        if (winner == GAME_B)
            fprintf(f, "%u", G.rank[0]);
        else
            fprintf(f, "null");
        fprintf(f, ", \"ks\": [");
        for (int j = 0; j < nks; j++)
            fprintf(f, "%s{\"k\": %d, \"winner\": \"%c\", \"positions\": %u}", j ? ", " : "", ks[j].k,
                    ks[j].winner == GAME_B ? 'B' : 'A', ks[j].positions);
        fprintf(f, "]");
        if (kauto && stopped && strcmp(bound, "limit") == 0)
            fprintf(f, ", \"stop_reason\": \"%s\"", stop_token(&stop));
        fprintf(f, ", \"build_s\": %.3f, \"solve_s\": %.3f, \"time_s\": %.3f}\n", G.build_s, G.solve_s, secs);
    } else if (dot) {
        print_dot(ctx->out, &G);
    } else {
        FILE *f = ctx->out;
        fprintf(f, "game %s: %d process%s, %d variable%s; A updates %s, B updates %s; %c moves first\n",
                g->name ? g->name : file, g->nprocs, g->nprocs == 1 ? "" : "es", g->nvars,
                g->nvars == 1 ? "" : "s", game_update_name(o.a_update), game_update_name(o.b_update),
                o.first == GAME_B ? 'B' : 'A');
        if (exact && !by_writes)
            fprintf(f, "exact: no player ever updates, so buffers are kept as the last write per variable\n");
        else if (by_writes) {
            fprintf(f, "exact: no process makes more than %d write%s, so no buffer ever holds more and the %d-bounded game "
                       "is the game itself\n",
                    wb, wb == 1 ? "" : "s", kfinal);
            fprintf(f, "  bounds solved:");
            for (int j = 0; j < nks; j++)
                fprintf(f, " k=%d %c%s", ks[j].k, ks[j].winner == GAME_B ? 'B' : 'A', j + 1 < nks ? "," : "\n");
            for (int j = 1; j < nks; j++)
                if (ks[j].winner != ks[j - 1].winner)
                    fprintf(f, "  note: k=%d says %c, k=%d says %c\n", ks[j - 1].k, ks[j - 1].winner == GAME_B ? 'B' : 'A',
                            ks[j].k, ks[j].winner == GAME_B ? 'B' : 'A');
        } else if (!kauto)
            fprintf(f, "bounded: the answer of the %d-bounded game (every buffer holds at most %d message%s)\n",
                    o.k, o.k, o.k == 1 ? "" : "s");
        else {
            fprintf(f, "bounded, --k auto:");
            for (int j = 0; j < nks; j++)
                fprintf(f, " k=%d %c%s", ks[j].k, ks[j].winner == GAME_B ? 'B' : 'A', j + 1 < nks ? "," : "");
            if (strcmp(bound, "stable") == 0)
                fprintf(f, "\n  stable: the same winner for the last %d bounds; answer of the %d-bounded game (not exact)\n",
                        AUTO_STABLE, kfinal);
            else if (stopped) {
                fprintf(f, "\n  LIMIT: k=%d was not solved (", kfinal + 1);
                stop_words(f, &stop, &o, timeout);
                fprintf(f, "); answer of the %d-bounded game (not exact)\n", kfinal);
            } else
                fprintf(f, "\n  LIMIT: stopped at k=%d (--k-max) before the winner was stable; answer of the %d-bounded game (not exact)\n",
                        kfinal, kfinal);
            for (int j = 1; j < nks; j++)
                if (ks[j].winner != ks[j - 1].winner)
                    fprintf(f, "  note: k=%d says %c, k=%d says %c\n", ks[j - 1].k, ks[j - 1].winner == GAME_B ? 'B' : 'A',
                            ks[j].k, ks[j].winner == GAME_B ? 'B' : 'A');
        }
        fprintf(f, "positions: %u, moves: %u (build %.3fs, solve %.3fs)\n", G.nreach, G.nedges, G.build_s, G.solve_s);
        if (winner == GAME_B)
            fprintf(f, "winner: B (B forces a final state in %u move%s from the start)\n", G.rank[0],
                    G.rank[0] == 1 ? "" : "s");
        else
            fprintf(f, "winner: A (A keeps every process out of its final states forever)\n");
        print_table(f, &G, rows);
    }
    (void)rc;
    game_graph_free(&G);
    game_free(g);
    return EXIT_OK;
}
