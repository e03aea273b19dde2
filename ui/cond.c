/* cond.c - the small proposition language of `until`:
 *
 *   cond  := or ;  or := and ('\/' and)* ;  and := unary ('/\' unary)*
 *   unary := ('~' | 'not') unary | '(' cond ')' | 'true' | 'false' | atom
 *   atom  := loc ('=' | '!=') INT
 *   loc   := THREAD ':' REG | '[' CELL ']' | CELL        (CELL: x or a[2])
 *
 * THREAD is a thread name or number, as herd writes `0:EAX` and wmx `P0:r0`.
 * An optional leading `exists` is ignored.  Nesting ('(', '~') and the
 * tree's depth (chains of /\ included, which evaluation recurses over) are
 * bounded by COND_MAX_DEPTH, as in litmus and .wmx conditions. */
#include "ui.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef enum { K_TRUE, K_FALSE, K_ATOM, K_NOT, K_AND, K_OR } node_kind;

struct ui_cond {
    node_kind kind;
    ui_cond *a, *b;
    int thread, reg, cell;      /* atom: register (thread >= 0) or cell */
    bool ne;
    wmx_val value;
    int depth;                  /* of the tree below and including this node */
};

enum { COND_MAX_DEPTH = 200 };

typedef struct parser {
    const wmx_program *p;
    const char *s;
    char *err;
    size_t n;
    bool failed;
    int nest;                   /* '(' and '~' open around the parser */
} parser;

static void skip(parser *ps)
{
    while (isspace((unsigned char)*ps->s))
        ps->s++;
}

static bool eat(parser *ps, const char *tok)
{
    skip(ps);
    size_t l = strlen(tok);
    if (strncmp(ps->s, tok, l) != 0)
        return false;
    if (isalpha((unsigned char)tok[0]) && (isalnum((unsigned char)ps->s[l]) || ps->s[l] == '_'))
        return false;
    ps->s += l;
    return true;
}

static ui_cond *fail(parser *ps, const char *msg)
{
    if (!ps->failed)
        snprintf(ps->err, ps->n, "%s at '%.20s'", msg, *ps->s ? ps->s : "end");
    ps->failed = true;
    return NULL;
}

/* "unknown thread 'P9' (threads: P0, P1)": name the bad token, list what exists */
static ui_cond *fail_list(parser *ps, const char *what, const char *token, int kind, int thread)
{
    if (ps->failed)
        return NULL;
    size_t n = 0;
    n += (size_t)snprintf(ps->err + n, ps->n - n, "%s '%s'", what, token);
    const wmx_program *p = ps->p;
    if (kind == 0) {
        n += (size_t)snprintf(ps->err + n, n < ps->n ? ps->n - n : 0, " (threads:");
        for (int t = 0; t < p->nthreads && n < ps->n; t++)
            n += (size_t)snprintf(ps->err + n, ps->n - n, "%s %s", t ? "," : "", p->threads[t].name);
    } else if (kind == 1) {
        n += (size_t)snprintf(ps->err + n, n < ps->n ? ps->n - n : 0, " (%s's registers:", p->threads[thread].name);
        int shown = 0;
        for (int r = 0; r < p->threads[thread].nregs && n < ps->n; r++)
            if (p->threads[thread].reg_names[r][0] != '$')
                n += (size_t)snprintf(ps->err + n, ps->n - n, "%s %s", shown++ ? "," : "",
                                      p->threads[thread].reg_names[r]);
        if (!shown && n < ps->n)
            n += (size_t)snprintf(ps->err + n, ps->n - n, " none");
    } else {
        n += (size_t)snprintf(ps->err + n, n < ps->n ? ps->n - n : 0, " (variables:");
        for (int v = 0; v < p->nvars && n < ps->n; v++)
            n += (size_t)snprintf(ps->err + n, ps->n - n, "%s %s", v ? "," : "", p->vars[v].name);
        if (n < ps->n)
            n += (size_t)snprintf(ps->err + n, ps->n - n, "; a register is THREAD:REG, e.g. %s:%s",
                                  p->nthreads ? p->threads[0].name : "P0",
                                  p->nthreads && p->threads[0].nregs ? p->threads[0].reg_names[0] : "r0");
    }
    if (n + 1 < ps->n)
        snprintf(ps->err + n, ps->n - n, ")");
    ps->failed = true;
    return NULL;
}

static ui_cond *node(node_kind k, ui_cond *a, ui_cond *b)
{
    ui_cond *c = wmx_calloc(1, sizeof *c);
    c->kind = k;
    c->a = a;
    c->b = b;
    int da = a ? a->depth : 0, db = b ? b->depth : 0;
    c->depth = (da > db ? da : db) + 1;
    return c;
}

/* c, or NULL (freed, failed) when it is deeper than the limit */
static ui_cond *bounded(parser *ps, ui_cond *c)
{
    if (!c || c->depth <= COND_MAX_DEPTH)
        return c;
    ui_cond_free(c);
    char msg[64];
    snprintf(msg, sizeof msg, "nesting deeper than %d", COND_MAX_DEPTH);
    return fail(ps, msg);
}

static ui_cond *parse_or(parser *ps);

static ui_cond *parse_atom(parser *ps)
{
    skip(ps);
    char name[128] = "";
    size_t k = 0;
    bool bracket = *ps->s == '[';
    if (bracket)
        ps->s++;
    while ((isalnum((unsigned char)*ps->s) || strchr("_$.[]", *ps->s)) && k + 1 < sizeof name) {
        if (*ps->s == ']' && bracket && !strchr(name, '['))
            break;
        name[k++] = *ps->s++;
        name[k] = '\0';
    }
    name[k] = '\0';
    if (bracket && !eat(ps, "]"))
        return fail(ps, "expected ']'");
    if (k == 0)
        return fail(ps, "expected a location");
    ui_cond *c = node(K_ATOM, NULL, NULL);
    c->thread = -1;
    if (!bracket && *ps->s == ':') {
        ps->s++;
        c->thread = ui_find_thread(ps->p, name);
        if (c->thread < 0) {
            free(c);
            return fail_list(ps, "unknown thread", name, 0, -1);
        }
        char reg[128];
        k = 0;
        while ((isalnum((unsigned char)*ps->s) || *ps->s == '_') && k + 1 < sizeof reg)
            reg[k++] = *ps->s++;
        reg[k] = '\0';
        c->reg = ir_find_reg(ps->p, c->thread, reg);
        if (c->reg < 0) {
            int t = c->thread;
            free(c);
            char what[160];
            snprintf(what, sizeof what, "%s has no register", ps->p->threads[t].name);
            return fail_list(ps, what, reg, 1, t);
        }
    } else {
        c->cell = ui_find_cell(ps->p, name);
        if (c->cell < 0) {
            free(c);
            return fail_list(ps, "unknown variable", name, 2, -1);
        }
    }
    if (eat(ps, "!="))
        c->ne = true;
    else if (!eat(ps, "=")) {
        free(c);
        return fail(ps, "expected '=' or '!='");
    }
    skip(ps);
    char *end;
    c->value = strtoll(ps->s, &end, 0);
    if (end == ps->s) {
        free(c);
        return fail(ps, "expected a number");
    }
    ps->s = end;
    return c;
}

static ui_cond *parse_unary(parser *ps)
{
    bool not = eat(ps, "~") || eat(ps, "not") || eat(ps, "!");
    bool paren = !not && eat(ps, "(");
    if ((not || paren) && ++ps->nest > COND_MAX_DEPTH) {
        char msg[64];
        snprintf(msg, sizeof msg, "nesting deeper than %d", COND_MAX_DEPTH);
        return fail(ps, msg);
    }
    if (not) {
        ui_cond *a = parse_unary(ps);
        ps->nest--;
        return a ? bounded(ps, node(K_NOT, a, NULL)) : NULL;
    }
    if (paren) {
        ui_cond *a = parse_or(ps);
        ps->nest--;
        if (a && !eat(ps, ")")) {
            ui_cond_free(a);
            return fail(ps, "expected ')'");
        }
        return a;
    }
    if (eat(ps, "true"))
        return node(K_TRUE, NULL, NULL);
    if (eat(ps, "false"))
        return node(K_FALSE, NULL, NULL);
    return parse_atom(ps);
}

static ui_cond *parse_and(parser *ps)
{
    ui_cond *a = parse_unary(ps);
    while (a && (eat(ps, "/\\") || eat(ps, "&&"))) {
        ui_cond *b = parse_unary(ps);
        if (!b) {
            ui_cond_free(a);
            return NULL;
        }
        a = bounded(ps, node(K_AND, a, b));
    }
    return a;
}

static ui_cond *parse_or(parser *ps)
{
    ui_cond *a = parse_and(ps);
    while (a && (eat(ps, "\\/") || eat(ps, "||"))) {
        ui_cond *b = parse_and(ps);
        if (!b) {
            ui_cond_free(a);
            return NULL;
        }
        a = bounded(ps, node(K_OR, a, b));
    }
    return a;
}

ui_cond *ui_cond_parse(const wmx_program *p, const char *text, char *err, size_t n)
{
    parser ps = { p, text, err, n, false, 0 };
    eat(&ps, "exists");
    ui_cond *c = parse_or(&ps);
    skip(&ps);
    if (c && *ps.s) {
        ui_cond_free(c);
        c = fail(&ps, "unexpected text");
    }
    return c;
}

bool ui_cond_eval(const ui_cond *c, const wmx_machine *m, const void *state)
{
    switch (c->kind) {
    case K_TRUE: return true;
    case K_FALSE: return false;
    case K_NOT: return !ui_cond_eval(c->a, m, state);
    case K_AND: return ui_cond_eval(c->a, m, state) && ui_cond_eval(c->b, m, state);
    case K_OR: return ui_cond_eval(c->a, m, state) || ui_cond_eval(c->b, m, state);
    case K_ATOM: {
        wmx_val v = c->thread >= 0 ? machine_regs(m, state, c->thread)[c->reg]
                                   : machine_memory(m, state)[c->cell];
        return (v == c->value) != c->ne;
    }
    }
    return false;
}

void ui_cond_free(ui_cond *c)
{
    if (!c)
        return;
    ui_cond_free(c->a);
    ui_cond_free(c->b);
    free(c);
}
