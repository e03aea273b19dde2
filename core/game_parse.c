/* game_parse.c - the .game file reader (issue 12 §1).
 *
 *   name NAME
 *   var x = 0, y;
 *   process P { init p0; final q1, q2; p0 -> p1 : wr(x, 1); ... }
 *
 * States are declared by use; a process starts in its `init` state, else the
 * first state it names.  Errors are file:line:col: message. */
#include "game.h"

#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct gp {
    const char *s, *end;
    const char *file;
    int line, col;
    wmx_error *err;
    int failed;
    game_def *g;
    /* current token */
    enum { T_EOF, T_ID, T_NUM, T_PUNCT } tk;
    char text[128];
    long num;
    int tline, tcol;
} gp;

static void gp_fail(gp *p, int line, int col, const char *fmt, const char *arg)
{
    if (p->failed)
        return;
    p->failed = 1;
    char msg[400];
    snprintf(msg, sizeof msg, fmt, arg ? arg : "");
    wmx_error_set(p->err, p->file, line, col, "%s", msg);
}

static void adv(gp *p)
{
    if (*p->s == '\n') {
        p->line++;
        p->col = 1;
    } else {
        p->col++;
    }
    p->s++;
}

static void next(gp *p)
{
    for (;;) {
        while (p->s < p->end && isspace((unsigned char)*p->s))
            adv(p);
        if (p->s + 1 < p->end && p->s[0] == '/' && p->s[1] == '/') {
            while (p->s < p->end && *p->s != '\n')
                adv(p);
            continue;
        }
        if (p->s + 1 < p->end && p->s[0] == '/' && p->s[1] == '*') {
            int l = p->line, c = p->col;
            adv(p);
            adv(p);
            while (p->s < p->end && !(p->s + 1 < p->end && p->s[0] == '*' && p->s[1] == '/'))
                adv(p);
            if (p->s >= p->end) {
                gp_fail(p, l, c, "unterminated comment%s", NULL);
                p->tk = T_EOF;
                return;
            }
            adv(p);
            adv(p);
            continue;
        }
        break;
    }
    p->tline = p->line;
    p->tcol = p->col;
    p->text[0] = '\0';
    if (p->s >= p->end) {
        p->tk = T_EOF;
        strcpy(p->text, "end of file");
        return;
    }
    char c = *p->s;
    size_t n = 0;
    if (isalpha((unsigned char)c) || c == '_') {
        while (p->s < p->end && (isalnum((unsigned char)*p->s) || *p->s == '_' || *p->s == '-' ||
                                 *p->s == '.' || *p->s == '\'')) {
            /* '-' belongs to a name unless it starts "->" */
            if (*p->s == '-' && p->s + 1 < p->end && p->s[1] == '>')
                break;
            if (n + 1 < sizeof p->text)
                p->text[n++] = *p->s;
            adv(p);
        }
        p->text[n] = '\0';
        p->tk = T_ID;
        return;
    }
    if (isdigit((unsigned char)c) || (c == '-' && p->s + 1 < p->end && isdigit((unsigned char)p->s[1]))) {
        while (p->s < p->end && (isdigit((unsigned char)*p->s) || (n == 0 && *p->s == '-'))) {
            if (n + 1 < sizeof p->text)
                p->text[n++] = *p->s;
            adv(p);
        }
        p->text[n] = '\0';
        errno = 0;
        p->num = strtol(p->text, NULL, 10);
        if (errno || n > 18)
            gp_fail(p, p->tline, p->tcol, "number '%s' out of range", p->text);
        p->tk = T_NUM;
        return;
    }
    if (c == '-' && p->s + 1 < p->end && p->s[1] == '>') {
        strcpy(p->text, "->");
        adv(p);
        adv(p);
        p->tk = T_PUNCT;
        return;
    }
    if (strchr("{}();:,=", c)) {
        p->text[0] = c;
        p->text[1] = '\0';
        adv(p);
        p->tk = T_PUNCT;
        return;
    }
    p->text[0] = c;
    p->text[1] = '\0';
    gp_fail(p, p->tline, p->tcol, "unexpected character '%s'", p->text);
    p->tk = T_EOF;
}

static int is(gp *p, const char *t) { return (p->tk == T_PUNCT || p->tk == T_ID) && strcmp(p->text, t) == 0; }

static int expect(gp *p, const char *t)
{
    if (p->failed)
        return 0;
    if (p->tk == T_PUNCT && strcmp(p->text, t) == 0) {
        next(p);
        return 1;
    }
    char what[200];
    snprintf(what, sizeof what, "expected '%s', got '%s'", t, p->text);
    gp_fail(p, p->tline, p->tcol, "%s", what);
    return 0;
}

static const char *keywords[] = { "name", "var", "process", "init", "final", "wr", "rd", "mf", "skip", NULL };

static int ident(gp *p, char *out, size_t n, const char *what)
{
    if (p->failed)
        return 0;
    if (p->tk != T_ID) {
        char m[200];
        snprintf(m, sizeof m, "expected %s, got '%s'", what, p->text);
        gp_fail(p, p->tline, p->tcol, "%s", m);
        return 0;
    }
    for (int i = 0; keywords[i]; i++)
        if (strcmp(p->text, keywords[i]) == 0) {
            char m[200];
            snprintf(m, sizeof m, "expected %s, got keyword '%s'", what, p->text);
            gp_fail(p, p->tline, p->tcol, "%s", m);
            return 0;
        }
    snprintf(out, n, "%s", p->text);
    next(p);
    return 1;
}

static int dom_index(game_def *g, long v)
{
    for (int i = 0; i < g->ndom; i++)
        if (g->dom[i] == v)
            return i;
    g->dom = wmx_realloc(g->dom, (size_t)(g->ndom + 1) * sizeof *g->dom);
    g->dom[g->ndom] = v;
    return g->ndom++;
}

/* The variable/value pairs only grow as the file is read: refuse at the
 * declaration or instruction that passes the limit, so the linear searches
 * of names and values stay short (a file of thousands of variables was read
 * to its end, quadratically, before its refusal). */
static int pairs_ok(gp *p, int line, int col)
{
    if (p->g->nvars * (p->g->ndom ? p->g->ndom : 1) <= 254)
        return 1;
    gp_fail(p, line, col, "too many variable/value pairs (at most 254)%s", NULL);
    return 0;
}

static int var_index(const game_def *g, const char *name)
{
    for (int i = 0; i < g->nvars; i++)
        if (strcmp(g->vars[i], name) == 0)
            return i;
    return -1;
}

static int state_index(gp *p, game_proc *pr, const char *name, int line, int col)
{
    for (int i = 0; i < pr->nstates; i++)
        if (strcmp(pr->states[i], name) == 0)
            return i;
    if (pr->nstates >= 255) {
        gp_fail(p, line, col, "too many states in process %s (at most 255)", pr->name);
        return 0;
    }
    pr->states = wmx_realloc(pr->states, (size_t)(pr->nstates + 1) * sizeof *pr->states);
    pr->final = wmx_realloc(pr->final, (size_t)(pr->nstates + 1));
    pr->states[pr->nstates] = wmx_strdup(name);
    pr->final[pr->nstates] = 0;
    return pr->nstates++;
}

static int number(gp *p, long *v)
{
    if (p->failed)
        return 0;
    if (p->tk != T_NUM) {
        char m[200];
        snprintf(m, sizeof m, "expected a value, got '%s'", p->text);
        gp_fail(p, p->tline, p->tcol, "%s", m);
        return 0;
    }
    *v = p->num;
    next(p);
    return 1;
}

static void parse_var(gp *p)
{
    game_def *g = p->g;
    for (;;) {
        char name[128];
        int l = p->tline, c = p->tcol;
        if (!ident(p, name, sizeof name, "a variable name"))
            return;
        if (var_index(g, name) >= 0) {
            gp_fail(p, l, c, "variable '%s' declared twice", name);
            return;
        }
        long v = 0;
        if (is(p, "=")) {
            next(p);
            if (!number(p, &v))
                return;
        }
        g->vars = wmx_realloc(g->vars, (size_t)(g->nvars + 1) * sizeof *g->vars);
        g->init = wmx_realloc(g->init, (size_t)(g->nvars + 1) * sizeof *g->init);
        g->vars[g->nvars] = wmx_strdup(name);
        g->init[g->nvars] = dom_index(g, v);
        g->nvars++;
        if (!pairs_ok(p, l, c))
            return;
        if (is(p, ",")) {
            next(p);
            continue;
        }
        expect(p, ";");
        return;
    }
}

static void parse_instr(gp *p, game_trans *t)
{
    int l = p->tline, c = p->tcol;
    if (is(p, "skip") || is(p, "mf")) {
        t->op = is(p, "skip") ? GOP_SKIP : GOP_MF;
        next(p);
        /* allow skip() / mf() */
        if (is(p, "(")) {
            next(p);
            expect(p, ")");
        }
        return;
    }
    if (!(is(p, "wr") || is(p, "rd"))) {
        char m[200];
        snprintf(m, sizeof m, "expected an instruction (wr, rd, mf, skip), got '%s'", p->text);
        gp_fail(p, l, c, "%s", m);
        return;
    }
    t->op = is(p, "wr") ? GOP_WR : GOP_RD;
    next(p);
    if (!expect(p, "("))
        return;
    char name[128];
    int vl = p->tline, vc = p->tcol;
    if (!ident(p, name, sizeof name, "a variable name"))
        return;
    t->var = var_index(p->g, name);
    if (t->var < 0) {
        gp_fail(p, vl, vc, "unknown variable '%s'", name);
        return;
    }
    if (!expect(p, ","))
        return;
    long v;
    int dl = p->tline, dc = p->tcol;
    if (!number(p, &v))
        return;
    t->val = dom_index(p->g, v);
    if (!pairs_ok(p, dl, dc))
        return;
    expect(p, ")");
}

static void parse_process(gp *p)
{
    game_def *g = p->g;
    char name[128];
    int l = p->tline, c = p->tcol;
    if (!ident(p, name, sizeof name, "a process name"))
        return;
    for (int i = 0; i < g->nprocs; i++)
        if (strcmp(g->procs[i].name, name) == 0) {
            gp_fail(p, l, c, "process '%s' declared twice", name);
            return;
        }
    if (g->nprocs >= GAME_MAX_PROCS) {
        gp_fail(p, l, c, "too many processes (at most 32)%s", NULL);
        return;
    }
    g->procs = wmx_realloc(g->procs, (size_t)(g->nprocs + 1) * sizeof *g->procs);
    game_proc *pr = &g->procs[g->nprocs++];
    memset(pr, 0, sizeof *pr);
    pr->name = wmx_strdup(name);
    pr->init = -1;
    if (!expect(p, "{"))
        return;
    while (!p->failed && !is(p, "}")) {
        if (p->tk == T_EOF) {
            gp_fail(p, p->tline, p->tcol, "expected '}' to close process %s", pr->name);
            return;
        }
        int sl = p->tline, sc = p->tcol;
        if (is(p, "init")) {
            next(p);
            char s[128];
            int il = p->tline, ic = p->tcol;
            if (!ident(p, s, sizeof s, "a state name"))
                return;
            if (pr->init >= 0) {
                gp_fail(p, il, ic, "process %s has two init states", pr->name);
                return;
            }
            pr->init = state_index(p, pr, s, il, ic);
            expect(p, ";");
        } else if (is(p, "final")) {
            next(p);
            for (;;) {
                char s[128];
                int il = p->tline, ic = p->tcol;
                if (!ident(p, s, sizeof s, "a state name"))
                    return;
                int si = state_index(p, pr, s, il, ic);
                if (!p->failed)
                    pr->final[si] = 1;
                if (is(p, ",")) {
                    next(p);
                    continue;
                }
                break;
            }
            expect(p, ";");
        } else {
            char a[128], b[128];
            if (!ident(p, a, sizeof a, "a state name, 'init', 'final' or '}'"))
                return;
            int from = state_index(p, pr, a, sl, sc);
            if (!expect(p, "->"))
                return;
            int tl = p->tline, tc = p->tcol;
            if (!ident(p, b, sizeof b, "a state name"))
                return;
            int to = state_index(p, pr, b, tl, tc);
            if (!expect(p, ":"))
                return;
            game_trans t = { from, to, GOP_SKIP, -1, -1 };
            parse_instr(p, &t);
            if (p->failed)
                return;
            if (pr->ntrans >= 255) {
                gp_fail(p, sl, sc, "too many transitions in process %s (at most 255)", pr->name);
                return;
            }
            pr->trans = wmx_realloc(pr->trans, (size_t)(pr->ntrans + 1) * sizeof *pr->trans);
            pr->trans[pr->ntrans++] = t;
            expect(p, ";");
        }
    }
    if (p->failed)
        return;
    if (pr->nstates == 0) {
        gp_fail(p, l, c, "process %s has no states", pr->name);
        return;
    }
    if (pr->init < 0)
        pr->init = 0;             /* the first state named */
    next(p);                      /* '}' */
    if (is(p, ";"))
        next(p);
}

game_def *game_parse(const char *text, size_t len, const char *file, wmx_error *err)
{
    gp p = { 0 };
    p.s = text;
    p.end = text + len;
    p.file = file;
    p.line = p.col = 1;
    p.err = err;
    p.g = wmx_calloc(1, sizeof *p.g);
    next(&p);
    while (!p.failed && p.tk != T_EOF) {
        if (is(&p, "name")) {
            int l = p.tline, c = p.tcol;
            next(&p);
            if (p.tk != T_ID && p.tk != T_NUM) {
                gp_fail(&p, l, c, "expected a name after 'name'%s", NULL);
                break;
            }
            if (p.g->name) {
                gp_fail(&p, l, c, "the game is named twice%s", NULL);
                break;
            }
            p.g->name = wmx_strdup(p.text);
            next(&p);
            if (is(&p, ";"))
                next(&p);
        } else if (is(&p, "var")) {
            next(&p);
            parse_var(&p);
        } else if (is(&p, "process")) {
            next(&p);
            parse_process(&p);
        } else {
            char m[200];
            snprintf(m, sizeof m, "expected 'name', 'var' or 'process', got '%s'", p.text);
            gp_fail(&p, p.tline, p.tcol, "%s", m);
        }
    }
    if (!p.failed && p.g->nprocs == 0)
        gp_fail(&p, p.line, p.col, "the game has no processes%s", NULL);
    if (!p.failed && p.g->nvars * (p.g->ndom ? p.g->ndom : 1) > 254)
        gp_fail(&p, p.line, p.col, "too many variable/value pairs (at most 254)%s", NULL);
    if (p.failed) {
        game_free(p.g);
        return NULL;
    }
    if (p.g->ndom == 0)
        dom_index(p.g, 0);
    return p.g;
}

game_def *game_load(const char *path, wmx_error *err)
{
    size_t len;
    char *text = wmx_read_file(path, &len, err);
    if (!text)
        return NULL;
    game_def *g = game_parse(text, len, path, err);
    free(text);
    return g;
}

void game_free(game_def *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nprocs; i++) {
        game_proc *pr = &g->procs[i];
        for (int s = 0; s < pr->nstates; s++)
            free(pr->states[s]);
        free(pr->states);
        free(pr->final);
        free(pr->trans);
        free(pr->name);
    }
    free(g->procs);
    for (int i = 0; i < g->nvars; i++)
        free(g->vars[i]);
    free(g->vars);
    free(g->init);
    free(g->dom);
    free(g->name);
    free(g);
}

static const char *unames[] = { "never", "before", "after", "always" };

const char *game_update_name(int u) { return u >= 0 && u < 4 ? unames[u] : "?"; }

int game_update_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, unames[i]) == 0)
            return i;
    return -1;
}

int game_variant_exact(int a_update, int b_update) { return a_update == GAME_NEVER && b_update == GAME_NEVER; }

/* Longest run of writes from the start state, by Bellman-Ford for longest
 * paths (weights 0/1): still improving after nstates rounds means a
 * reachable cycle holds a write, and then the buffer is unbounded. */
static int proc_write_bound(const game_proc *p)
{
    int n = p->nstates;
    int *best = malloc((size_t)n * sizeof *best);
    if (!best)
        return -1;
    for (int s = 0; s < n; s++)
        best[s] = -1;                      /* -1: not reached */
    best[p->init] = 0;
    int changed = 1;
    for (int round = 0; changed && round <= n; round++) {
        changed = 0;
        for (int t = 0; t < p->ntrans; t++) {
            const game_trans *tr = &p->trans[t];
            if (best[tr->from] < 0)
                continue;
            int w = best[tr->from] + (tr->op == GOP_WR);
            if (w > best[tr->to]) {
                best[tr->to] = w;
                changed = 1;
            }
        }
    }
    int most = 0;
    for (int s = 0; s < n; s++)
        if (best[s] > most)
            most = best[s];
    free(best);
    return changed ? -1 : most;
}

int game_write_bound(const game_def *g)
{
    int most = 0;
    for (int i = 0; i < g->nprocs; i++) {
        int b = proc_write_bound(&g->procs[i]);
        if (b < 0)
            return -1;
        if (b > most)
            most = b;
    }
    return most;
}

int game_exact_bound(const game_def *g, int a_update, int b_update)
{
    if (game_variant_exact(a_update, b_update))
        return 0;
    int wb = game_write_bound(g);
    return wb < 0 || wb > GAME_MAX_K ? -1 : (wb < 1 ? 1 : wb);
}
