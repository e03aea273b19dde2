/* pane_game.c - play mode for TSO safety games (issue 12 §4).
 *
 * `wmx FILE.game` (or `load FILE.game`) solves the game (never/never by
 * default; `play SIDE A-UPDATE B-UPDATE [K]` picks the variant) and shows
 * the position: each process's state, buffer and numbered transitions, the
 * memory, whose turn it is, which updates the mover may make now and the
 * solver's verdict from here.  The user moves with `move P N`, `update P`
 * and `end`; with `play A|B` the computer answers for the other side with
 * its winning strategy when it has one.  The play is a timeline of graph
 * positions, so undo/redo are index moves (one user action each). */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "util.h"

typedef struct ui_game {
    game_def *def;
    char *path;
    game_graph G;
    int a_update, b_update, k;  /* k 0 = exact (never/never) */
    int user;                   /* GAME_A, GAME_B, or -1: the user moves for both */
    uint32_t *hist;             /* hist[0..len]: positions; step i leads to hist[i+1] */
    unsigned char *by_user;     /* by_user[i]: step i was the user's */
    int len, pos, cap;
    char last[256];             /* what the last command did */
} ui_game;

#define GAME_UI_K 2             /* the bound play mode uses for inexact variants */

static void game_state_free(ui_game *g)
{
    if (!g)
        return;
    game_graph_free(&g->G);
    game_free(g->def);
    free(g->path);
    free(g->hist);
    free(g->by_user);
    free(g);
}

void ui_game_free(ui_state *ui)
{
    game_state_free(ui->game);
    ui->game = NULL;
}

const char *ui_game_path(const ui_state *ui)
{
    return ui->game ? ui->game->path : NULL;
}

const char *ui_game_update(const ui_state *ui, int player)
{
    if (!ui->game)
        return NULL;
    return game_update_name(player == GAME_B ? ui->game->b_update : ui->game->a_update);
}

static uint32_t cur(const ui_game *g) { return g->hist[g->pos]; }

static int solve_variant(ui_game *g, FILE *err)
{
    game_graph_free(&g->G);
    game_opts o;
    game_opts_init(&o);
    o.a_update = g->a_update;
    o.b_update = g->b_update;
    int kexact = game_exact_bound(g->def, g->a_update, g->b_update);
    o.k = kexact >= 0 ? kexact : g->k;
    o.max_positions = 5000000;
    if (game_build(&g->G, g->def, &o) != 0) {
        fprintf(err, "the game has more than %llu positions: too big to play\n",
                (unsigned long long)o.max_positions);
        game_graph_free(&g->G);
        return -1;
    }
    game_solve(&g->G);
    g->len = g->pos = 0;
    g->hist[0] = 0;
    return 0;
}

static void push(ui_game *g, uint32_t v, int user)
{
    if (g->pos + 2 > g->cap) {
        g->cap = g->cap * 2 + 64;
        g->hist = wmx_realloc(g->hist, (size_t)g->cap * sizeof *g->hist);
        g->by_user = wmx_realloc(g->by_user, (size_t)g->cap);
    }
    g->by_user[g->pos] = (unsigned char)user;
    g->hist[++g->pos] = v;
    g->len = g->pos;            /* a new move drops the redo part */
}

static const char *pname(int p) { return p == GAME_B ? "B" : "A"; }

/* Some update sequence from v reaches an instruction (else an update here
 * would strand the mover: that is no move in the paper's game). */
static int reaches_instr(const game_graph *G, uint32_t v, int depth)
{
    if (game_phase(G, v) == GP_Q)
        return 1;
    for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++) {
        unsigned k = GE_KIND(G->lab[e]);
        if (k == GE_INSTR || k == GE_PASS)
            return 1;
        if (k == GE_FLUSH && depth < 4096 && reaches_instr(G, G->succ[e], depth + 1))
            return 1;
    }
    return 0;
}

static int over(const ui_game *g) { return game_is_target(&g->G, cur(g)); }

static int only_pass(const game_graph *G, uint32_t v)
{
    return G->soff[v + 1] == G->soff[v] + 1 && GE_KIND(G->lab[G->soff[v]]) == GE_PASS;
}

/* Neither player can move (the mover passes, and so does the other one
 * after it): the play goes round forever outside the final states, A has
 * won. */
static int stuck(const ui_game *g)
{
    const game_graph *G = &g->G;
    uint32_t v = cur(g);
    return !over(g) && only_pass(G, v) && only_pass(G, G->succ[G->soff[v]]);
}

static void describe_move(const ui_game *g, uint32_t e, char *buf, size_t n)
{
    wmx_strbuf b = { 0 };
    game_move_str(&g->G, g->G.lab[e], &b);
    snprintf(buf, n, "%s", b.s ? b.s : "");
    free(b.s);
}

/* The computer's choice at v: its strategy when it wins, else the move
 * that delays the loss longest (B's rank for A; anything for B). */
static uint32_t computer_edge(const ui_game *g, uint32_t v)
{
    const game_graph *G = &g->G;
    if (G->strat[v] != UINT32_MAX)
        return G->strat[v];
    uint32_t best = G->soff[v], br = 0;
    for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++) {
        uint32_t w = G->succ[e];
        if (GE_KIND(G->lab[e]) == GE_FLUSH && !reaches_instr(G, w, 0))
            continue;
        uint32_t r = G->rank[w] == UINT32_MAX ? UINT32_MAX : G->rank[w];
        if (r >= br) {
            br = r;
            best = e;
        }
    }
    return best;
}

/* Plays passes and the computer's moves until the user has a choice. */
static void autoplay(ui_game *g, FILE *out)
{
    const game_graph *G = &g->G;
    int passes = 0;
    for (int steps = 0; steps < 256 && !over(g); steps++) {
        uint32_t v = cur(g);
        int mover = game_owner(G, v);
        uint32_t b = G->soff[v], e = G->soff[v + 1];
        int only_pass = e == b + 1 && GE_KIND(G->lab[b]) == GE_PASS;
        if (only_pass) {
            fprintf(out, "%s has no move and passes\n", pname(mover));
            push(g, G->succ[b], 0);
            if (++passes >= 2) {
                fprintf(out, "neither player can move: the play never reaches a final state, A wins\n");
                return;
            }
            continue;
        }
        passes = 0;
        if (g->user < 0 || mover == g->user || e == b)
            return;
        uint32_t c = computer_edge(g, v);
        char m[160];
        describe_move(g, c, m, sizeof m);
        fprintf(out, "%s (computer): %s\n", pname(mover), m);
        snprintf(g->last, sizeof g->last, "%s (computer): %s", pname(mover), m);
        push(g, G->succ[c], 0);
    }
    if (over(g))
        fprintf(out, "B wins: a process is in a final state with A to move\n");
}

int ui_game_load(ui_state *ui, const char *path, FILE *out, FILE *err)
{
    wmx_error e = { 0 };
    game_def *d = game_load(path, &e);
    if (!d) {
        char buf[1024];
        fprintf(err, "%s\n", wmx_error_format(&e, buf, sizeof buf));
        return EXIT_USAGE;
    }
    ui_game *g = wmx_calloc(1, sizeof *g);
    g->def = d;
    g->path = wmx_strdup(path);
    g->k = GAME_UI_K;
    g->user = -1;
    g->cap = 64;
    g->hist = wmx_malloc((size_t)g->cap * sizeof *g->hist);
    g->by_user = wmx_malloc((size_t)g->cap);
    if (solve_variant(g, err) < 0) {
        game_state_free(g);
        return EXIT_LIMIT;
    }
    ui_game_free(ui);
    ui->game = g;
    ui->focus = PANE_GAME;
    fprintf(out, "loaded game %s (%s): %d process%s; `play A` or `play B` to play against the solver\n",
            d->name ? d->name : "?", path, d->nprocs, d->nprocs == 1 ? "" : "es");
    return EXIT_OK;
}

#define GAME(ctx) (((ui_state *)(ctx)->ui)->game)

static ui_game *need_game(cmd_ctx *ctx)
{
    ui_game *g = GAME(ctx);
    if (!g)
        fprintf(ctx->err, "no game loaded: `load FILE.game`\n");
    return g;
}

int cmd_game_play(int argc, char **argv, cmd_ctx *ctx)
{
    ui_game *g = need_game(ctx);
    if (!g)
        return EXIT_USAGE;
    if (argc < 2 || argc > 5) {
        fprintf(ctx->err, "usage: play A|B|none [A-UPDATE B-UPDATE [K]]\n");
        return EXIT_USAGE;
    }
    int user;
    if (strcmp(argv[1], "A") == 0 || strcmp(argv[1], "a") == 0)
        user = GAME_A;
    else if (strcmp(argv[1], "B") == 0 || strcmp(argv[1], "b") == 0)
        user = GAME_B;
    else if (strcmp(argv[1], "none") == 0)
        user = -1;
    else {
        fprintf(ctx->err, "play: expected A, B or none, got '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    int au = g->a_update, bu = g->b_update, k = g->k;
    if (argc >= 4) {
        au = game_update_parse(argv[2]);
        bu = game_update_parse(argv[3]);
        if (au < 0 || bu < 0) {
            fprintf(ctx->err, "play: updates are never, before, after or always\n");
            return EXIT_USAGE;
        }
    } else if (argc == 3) {
        fprintf(ctx->err, "usage: play A|B|none [A-UPDATE B-UPDATE [K]]\n");
        return EXIT_USAGE;
    }
    if (argc == 5) {
        char *end;
        long v = strtol(argv[4], &end, 10);
        if (*end || v < 1 || v > GAME_MAX_K) {
            fprintf(ctx->err, "play: K must be 1..%d\n", GAME_MAX_K);
            return EXIT_USAGE;
        }
        k = (int)v;
    }
    g->a_update = au;
    g->b_update = bu;
    g->k = k;
    g->user = user;
    if (solve_variant(g, ctx->err) < 0)
        return EXIT_LIMIT;
    g->last[0] = '\0';
    if (user < 0)
        fprintf(ctx->out, "restarted; you move for both players\n");
    else
        fprintf(ctx->out, "you play %s; the computer plays %s\n", pname(user), pname(!user));
    autoplay(g, ctx->out);
    return EXIT_OK;
}

/* Takes the edge of cur() with label lab, then lets the computer answer. */
static int user_step(cmd_ctx *ctx, ui_game *g, unsigned kind, int p, int t)
{
    const game_graph *G = &g->G;
    if (over(g)) {
        fprintf(ctx->err, "the play is over: B has won (undo to go back)\n");
        return EXIT_USAGE;
    }
    if (stuck(g)) {
        fprintf(ctx->err, "the play is over: A has won, neither player can move (undo to go back)\n");
        return EXIT_USAGE;
    }
    uint32_t v = cur(g);
    if (g->user >= 0 && game_owner(G, v) != g->user) {
        fprintf(ctx->err, "it is %s's turn, not yours\n", pname(game_owner(G, v)));
        return EXIT_USAGE;
    }
    for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++) {
        unsigned l = G->lab[e];
        if (GE_KIND(l) != kind || (kind == GE_INSTR && ((int)GE_PROC(l) != p || (int)GE_TRANS(l) != t)) ||
            (kind == GE_FLUSH && (int)GE_PROC(l) != p))
            continue;
        if (kind == GE_FLUSH && !reaches_instr(G, G->succ[e], 0)) {
            fprintf(ctx->err, "after that update %s would have no instruction left: not a move\n",
                    pname(game_owner(G, v)));
            return EXIT_USAGE;
        }
        char m[160];
        describe_move(g, e, m, sizeof m);
        fprintf(ctx->out, "%s: %s\n", pname(game_owner(G, v)), m);
        snprintf(g->last, sizeof g->last, "%s: %s", pname(game_owner(G, v)), m);
        push(g, G->succ[e], 1);
        autoplay(g, ctx->out);
        return EXIT_OK;
    }
    switch (kind) {
    case GE_INSTR:
        fprintf(ctx->err, "%s.%d is not enabled now\n", g->def->procs[p].name, t + 1);
        break;
    case GE_FLUSH:
        fprintf(ctx->err, "no update of %s allowed now (empty buffer, or the rules forbid it)\n",
                g->def->procs[p].name);
        break;
    default:
        fprintf(ctx->err, "`end` ends the updates after an instruction; there is none to end now\n");
    }
    return EXIT_USAGE;
}

static int find_proc(const game_def *d, const char *name)
{
    for (int p = 0; p < d->nprocs; p++)
        if (strcmp(d->procs[p].name, name) == 0)
            return p;
    return -1;
}

int cmd_game_move(int argc, char **argv, cmd_ctx *ctx)
{
    ui_game *g = need_game(ctx);
    if (!g)
        return EXIT_USAGE;
    if (argc != 3) {
        fprintf(ctx->err, "usage: move PROCESS N (N as numbered in the Game pane)\n");
        return EXIT_USAGE;
    }
    int p = find_proc(g->def, argv[1]);
    char *end;
    long t = strtol(argv[2], &end, 10);
    if (p < 0) {
        fprintf(ctx->err, "no process '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    if (*end || t < 1 || t > g->def->procs[p].ntrans) {
        fprintf(ctx->err, "%s has transitions 1..%d\n", argv[1], g->def->procs[p].ntrans);
        return EXIT_USAGE;
    }
    return user_step(ctx, g, GE_INSTR, p, (int)t - 1);
}

int cmd_game_update(int argc, char **argv, cmd_ctx *ctx)
{
    ui_game *g = need_game(ctx);
    if (!g)
        return EXIT_USAGE;
    if (argc != 2) {
        fprintf(ctx->err, "usage: update PROCESS\n");
        return EXIT_USAGE;
    }
    int p = find_proc(g->def, argv[1]);
    if (p < 0) {
        fprintf(ctx->err, "no process '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    return user_step(ctx, g, GE_FLUSH, p, 0);
}

int cmd_game_end(int argc, char **argv, cmd_ctx *ctx)
{
    ui_game *g = need_game(ctx);
    if (!g)
        return EXIT_USAGE;
    return user_step(ctx, g, GE_END, 0, 0);
}

int cmd_game_hint(int argc, char **argv, cmd_ctx *ctx)
{
    ui_game *g = need_game(ctx);
    if (!g)
        return EXIT_USAGE;
    const game_graph *G = &g->G;
    uint32_t v = cur(g);
    if (over(g)) {
        fprintf(ctx->out, "the play is over: B has won\n");
        return EXIT_OK;
    }
    if (stuck(g)) {
        fprintf(ctx->out, "the play is over: A has won, neither player can move\n");
        return EXIT_OK;
    }
    int mover = game_owner(G, v);
    char m[160];
    if (G->strat[v] != UINT32_MAX) {
        describe_move(g, G->strat[v], m, sizeof m);
        fprintf(ctx->out, "hint: %s wins from here; the strategy plays %s\n", pname(mover), m);
    } else {
        describe_move(g, computer_edge(g, v), m, sizeof m);
        fprintf(ctx->out, "hint: %s loses from here against best play; try %s\n", pname(mover), m);
    }
    return EXIT_OK;
}

/* undo/redo in play mode: one user action (with the replies it caused). */
int ui_game_undo(ui_state *ui, int dir, long n, FILE *out, FILE *err)
{
    ui_game *g = ui->game;
    for (long i = 0; i < n; i++) {
        if (dir < 0) {
            if (g->pos == 0) {
                if (i == 0) {
                    fprintf(err, "nothing to undo: at the start\n");
                    return EXIT_USAGE;
                }
                break;
            }
            while (g->pos > 0 && !g->by_user[g->pos - 1])
                g->pos--;
            if (g->pos > 0)
                g->pos--;
        } else {
            if (g->pos == g->len) {
                if (i == 0) {
                    fprintf(err, "nothing to redo\n");
                    return EXIT_USAGE;
                }
                break;
            }
            g->pos++;
            while (g->pos < g->len && !g->by_user[g->pos])
                g->pos++;
        }
    }
    fprintf(out, "at move %d of %d\n", g->pos, g->len);
    g->last[0] = '\0';
    return EXIT_OK;
}

/* ---- drawing ---- */

static const char *upd_now(const ui_game *g, uint32_t v)
{
    const game_graph *G = &g->G;
    int owner = game_owner(G, v), ph = game_phase(G, v);
    int u = owner == GAME_A ? g->a_update : g->b_update;
    if (ph == GP_Q)
        return "may update (after her instruction), then `end`";
    if (u & GAME_BEFORE)
        return "may update before her instruction";
    if (u & GAME_AFTER)
        return "may update after her instruction";
    return "may not update";
}

int ui_game_status(ui_state *ui, char *buf, size_t n)
{
    ui_game *g = ui->game;
    if (!g)
        return 0;
    snprintf(buf, n, " %s | A %s, B %s | %s | move %d/%d%s", g->def->name ? g->def->name : "game",
             game_update_name(g->a_update), game_update_name(g->b_update),
             game_exact_bound(g->def, g->a_update, g->b_update) >= 0 ? "exact" : "bounded", g->pos, g->len,
             over(g) ? " | B has won" : stuck(g) ? " | A has won" : "");
    return 1;
}

static void game_draw(ui_state *ui, ui_pane *pane, ui_screen *s, ui_rect r)
{
    ui_game *g = ui->game;
    if (!g) {
        scr_put(s, r.x, r.y, r.w, ST_DIM, "no game loaded: `load FILE.game`");
        return;
    }
    const game_graph *G = &g->G;
    const game_def *d = g->def;
    uint32_t v = cur(g);
    int y = r.y, bottom = r.y + r.h;
    int exact = game_exact_bound(d, g->a_update, g->b_update) >= 0;
    char kb[32];
    snprintf(kb, sizeof kb, "%d-bounded", g->k);
    scr_printf(s, r.x, y++, r.w, ST_HEADER, "A updates %s, B updates %s (%s, %u positions)%s%s",
               game_update_name(g->a_update), game_update_name(g->b_update), exact ? "exact" : kb, G->nreach,
               g->user < 0 ? "" : "  you play ", g->user < 0 ? "" : pname(g->user));
    wmx_strbuf b = { 0 };
    const uint8_t *key = G->keys + (size_t)v * (size_t)G->keylen;
    for (int p = 0; p < d->nprocs && y < bottom; p++) {
        const game_proc *pr = &d->procs[p];
        int st = key[1 + p];
        const uint8_t *bf = key + 1 + d->nprocs + d->nvars + (size_t)p * (size_t)G->slots;
        b.len = 0;
        wmx_strbuf_printf(&b, "%-4s %-6s%s buffer [", pr->name, pr->states[st], pr->final[st] ? "(final)" : "");
        int first = 1;
        for (int i = 0; i < G->slots; i++) {
            if (!bf[i])
                continue;
            int var = G->collapse ? i : (bf[i] - 1) / d->ndom;
            int val = G->collapse ? bf[i] - 1 : (bf[i] - 1) % d->ndom;
            wmx_strbuf_printf(&b, "%s%s=%ld", first ? "" : " ", d->vars[var], d->dom[val]);
            first = 0;
        }
        wmx_strbuf_printf(&b, "]");
        /* what B aims at: the process's final states */
        int nfinal = 0;
        for (int f = 0; f < pr->nstates; f++)
            if (pr->final[f])
                wmx_strbuf_printf(&b, "%s%s", nfinal++ ? ", " : "   final: ", pr->states[f]);
        scr_put(s, r.x, y++, r.w, ui_thread_style(p), b.s);
        /* transitions from the current state, numbered as `move` takes them */
        int x = r.x + 5;
        for (int t = 0; t < pr->ntrans; t++) {
            if (pr->trans[t].from != st)
                continue;
            int en = 0;
            for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++)
                if (GE_KIND(G->lab[e]) == GE_INSTR && (int)GE_PROC(G->lab[e]) == p && (int)GE_TRANS(G->lab[e]) == t)
                    en = 1;
            b.len = 0;
            game_trans_str(d, p, t, &b);
            /* drop the "P." prefix: the row says which process */
            const char *txt = strchr(b.s, '.') ? strchr(b.s, '.') + 1 : b.s;
            int need = (int)strlen(txt) + 3;
            if (x + need > r.x + r.w && x > r.x + 5) {
                if (++y >= bottom)
                    break;
                x = r.x + 5;
            }
            if (y >= bottom)
                break;
            x += scr_printf(s, x, y, r.x + r.w - x, en ? ST_NEXT : ST_DIM, "%s%s", en ? ">" : " ", txt);
            x += 2;
        }
        if (x > r.x + 5)
            y++;
    }
    if (y < bottom) {
        b.len = 0;
        wmx_strbuf_printf(&b, "memory:");
        for (int x = 0; x < d->nvars; x++)
            wmx_strbuf_printf(&b, " %s=%ld", d->vars[x], d->dom[key[1 + d->nprocs + x]]);
        scr_put(s, r.x, y++, r.w, ST_NORMAL, b.s);
    }
    int mover = game_owner(G, v);
    if (y < bottom) {
        if (over(g))
            scr_put(s, r.x, y++, r.w, ST_ERROR, "B has won: a process is in a final state with A to move");
        else if (stuck(g))
            scr_put(s, r.x, y++, r.w, ST_OK, "A has won: neither player can move (the play is over)");
        else
            scr_printf(s, r.x, y++, r.w, ST_NORMAL, "%s to move%s; %s %s", pname(mover),
                       game_phase(G, v) == GP_P ? " (updating before)" : game_phase(G, v) == GP_Q ? " (updating after)" : "",
                       pname(mover), upd_now(g, v));
    }
    if (y < bottom && !over(g) && !stuck(g)) {
        if (G->winB[v])
            scr_printf(s, r.x, y++, r.w, ST_ERROR, "verdict: B wins from here (B forces a final state in %u moves)",
                       G->rank[v]);
        else
            scr_put(s, r.x, y++, r.w, ST_OK, "verdict: A wins from here (A can stay safe forever)");
    }
    if (y < bottom && g->last[0])
        scr_printf(s, r.x, y++, r.w, ST_DIM, "last: %s", g->last);
    free(b.s);
    (void)pane;
}

static int game_lines(ui_state *ui, ui_pane *p, int width)
{
    ui_game *g = ui->game;
    if (!g)
        return 1;
    int n = 4;
    for (int i = 0; i < g->def->nprocs; i++)
        n += 2 + g->def->procs[i].ntrans / 4;
    return n;
}

int ui_game_height(ui_state *ui, int width)
{
    return game_lines(ui, NULL, width) + 2;
}

const ui_pane_ops pane_game_ops = { "game", "Game", game_draw, game_lines, NULL };
