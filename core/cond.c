/* cond.c - the one reader of conditions (grammar in cond.h).
 *
 * A recursive-descent parser over its own small lexer, so that every front
 * end hands it the text at the condition's first byte and takes the text
 * back where the condition ends: litmus and .wmx files (which then read
 * `locations` or the end), `check --outcome` and `until` (which want the
 * end of the string).  Errors unwind with longjmp (a front end's name
 * hook may unwind past it with its own); the only memory the parser
 * allocates is the nodes it appends to the caller's list. */
#include "cond.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_NAME 127

typedef enum {
    K_EOF, K_IDENT, K_NUM, K_BAD,
    K_LP, K_RP, K_LB, K_RB, K_COLON, K_EQ, K_NE, K_NOT, K_AMP, K_MINUS, K_PLUS,
    K_AND, K_OR, K_IMP,
    K_OTHER              /* a character no condition has: where it ends */
} kind;

typedef struct tok {
    kind k;
    size_t off, len;
    uint64_t num;        /* K_NUM */
    const char *bad;     /* K_NUM, K_BAD: why the token is malformed, else NULL */
} tok;

typedef struct parser {
    const char *s;
    size_t len, pos;     /* pos: where the next token's blanks start */
    tok t;               /* the current token */
    size_t prev_end;     /* just after the last consumed token */
    const cond_names *names;
    const wmx_program *p;
    cond_out out;
    cond_error *err;
    int nest;            /* parentheses, negations, brackets, '=>' open now */
    jmp_buf jb;
} parser;

static _Noreturn void fail(parser *ps, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void fail(parser *ps, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err->msg, sizeof ps->err->msg, fmt, ap);
    va_end(ap);
    ps->err->off = off;
    longjmp(ps->jb, 1);
}

/* ---- lexer ---------------------------------------------------------- */

static int at(const parser *ps, size_t i)
{
    return i < ps->len ? (unsigned char)ps->s[i] : -1;
}

static bool ident_start(int c) { return c >= 0 && c < 128 && (isalpha(c) || c == '_' || c == '$' || c == '.'); }
static bool ident_char(int c) { return c >= 0 && c < 128 && (isalnum(c) || c == '_' || c == '$' || c == '.'); }

static void lex(parser *ps)
{
    size_t i = ps->pos;
    tok t = { K_EOF, 0, 0, 0, NULL };
    for (;;) {
        int c = at(ps, i);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            i++;
        } else if (c == '/' && at(ps, i + 1) == '/') {
            while (i < ps->len && ps->s[i] != '\n')
                i++;
        } else if (c == '/' && at(ps, i + 1) == '*') {
            size_t j = i + 2;
            while (j < ps->len && !(ps->s[j] == '*' && at(ps, j + 1) == '/'))
                j++;
            if (j >= ps->len) {
                t.k = K_BAD;
                t.bad = "unterminated comment";
                break;
            }
            i = j + 2;
        } else {
            break;
        }
    }
    t.off = i;
    int c = at(ps, i), c1 = at(ps, i + 1);
    size_t n = 1;
    if (t.k == K_BAD) {
        n = 2;
    } else if (c < 0) {
        t.k = K_EOF;
        n = 0;
    } else if (ident_start(c)) {
        n = 0;
        while (ident_char(at(ps, i + n)))
            n++;
        t.k = K_IDENT;
    } else if (c >= '0' && c <= '9') {
        uint64_t v = 0;
        bool big = false;
        n = 0;
        if (c == '0' && (c1 == 'x' || c1 == 'X')) {
            n = 2;
            size_t d0 = n;
            while (at(ps, i + n) >= 0 && isxdigit(at(ps, i + n))) {
                int d = at(ps, i + n);
                d = isdigit(d) ? d - '0' : toupper(d) - 'A' + 10;
                if (v >> 60)
                    big = true;
                v = (v << 4) | (uint64_t)d;
                n++;
            }
            if (n == d0)
                t.bad = "hexadecimal number needs digits after '0x'";
        } else {
            while (at(ps, i + n) >= '0' && at(ps, i + n) <= '9') {
                uint64_t d = (uint64_t)(at(ps, i + n) - '0');
                if (v > (UINT64_MAX - d) / 10)
                    big = true;
                v = v * 10 + d;
                n++;
            }
        }
        if (!t.bad && ident_char(at(ps, i + n)))
            t.bad = "malformed number";
        if (!t.bad && big)
            t.bad = "number out of range (the limit is 64-bit integers)";
        while (ident_char(at(ps, i + n)))
            n++;
        t.k = K_NUM;
        t.num = v;
    } else {
        switch (c) {
        case '(': t.k = K_LP; break;
        case ')': t.k = K_RP; break;
        case '[': t.k = K_LB; break;
        case ']': t.k = K_RB; break;
        case ':': t.k = K_COLON; break;
        case '~': t.k = K_NOT; break;
        case '-': t.k = K_MINUS; break;
        case '+': t.k = K_PLUS; break;
        case '=':
            if (c1 == '=') { t.k = K_EQ; n = 2; }
            else if (c1 == '>') { t.k = K_IMP; n = 2; }
            else t.k = K_EQ;
            break;
        case '!':
            if (c1 == '=') { t.k = K_NE; n = 2; } else t.k = K_NOT;
            break;
        case '&':
            if (c1 == '&') { t.k = K_AND; n = 2; } else t.k = K_AMP;
            break;
        case '|':
            if (c1 == '|') { t.k = K_OR; n = 2; } else t.k = K_OTHER;
            break;
        case '/':
            if (c1 == '\\') { t.k = K_AND; n = 2; } else t.k = K_OTHER;
            break;
        case '\\':
            if (c1 == '/') { t.k = K_OR; n = 2; } else t.k = K_OTHER;
            break;
        default:
            t.k = K_OTHER;
            break;
        }
    }
    t.len = n;
    ps->t = t;
}

static void advance(parser *ps)
{
    ps->prev_end = ps->t.off + ps->t.len;
    ps->pos = ps->prev_end;
    lex(ps);
}

/* The token after the current one, without consuming anything. */
static kind peek(parser *ps)
{
    tok save = ps->t;
    size_t pos = ps->pos;
    ps->pos = ps->t.off + ps->t.len;
    lex(ps);
    kind k = ps->t.k;
    ps->t = save;
    ps->pos = pos;
    return k;
}

static bool is_word(const parser *ps, const char *w)
{
    size_t n = strlen(w);
    return ps->t.k == K_IDENT && ps->t.len == n && memcmp(ps->s + ps->t.off, w, n) == 0;
}

/* `true`, `false`, `not`, `exists` are words unless a location's or a
 * thread's syntax follows (x = 1, not[1] = 0, main:r = 1). */
static bool is_keyword(parser *ps, const char *w)
{
    if (!is_word(ps, w))
        return false;
    kind k = peek(ps);
    return k != K_EQ && k != K_NE && k != K_COLON && k != K_LB;
}

/* "'x'", "end of input" - for messages */
static const char *describe(const parser *ps, char *buf, size_t n)
{
    if (ps->t.k == K_EOF)
        return "end of input";
    size_t l = ps->t.len ? ps->t.len : 1;
    if (l > 40)
        l = 40;
    char s[48];
    size_t k = 0;
    for (size_t i = 0; i < l && ps->t.off + i < ps->len; i++) {
        unsigned char ch = (unsigned char)ps->s[ps->t.off + i];
        s[k++] = isprint(ch) ? (char)ch : '?';
    }
    s[k] = '\0';
    snprintf(buf, n, "'%s'", s);
    return buf;
}

static _Noreturn void fail_expected(parser *ps, const char *what)
{
    if (ps->t.k == K_BAD)
        fail(ps, ps->t.off, "%s", ps->t.bad);
    char d[64];
    fail(ps, ps->t.off, "expected %s, found %s", what, describe(ps, d, sizeof d));
}

static void expect(parser *ps, kind k, const char *what)
{
    if (ps->t.k != k)
        fail_expected(ps, what);
    advance(ps);
}

/* The current identifier as a C string (at most MAX_NAME bytes). */
static void ident(parser *ps, char *buf)
{
    if (ps->t.len > MAX_NAME)
        fail(ps, ps->t.off, "name too long (at most %d characters)", MAX_NAME);
    memcpy(buf, ps->s + ps->t.off, ps->t.len);
    buf[ps->t.len] = '\0';
}

/* ---- names ---------------------------------------------------------- */

/* Appends ", name" (or " name" first) to buf while it fits. */
static void list_add(char *buf, size_t n, bool *first, const char *name)
{
    size_t l = strlen(buf);
    if (l + strlen(name) + 8 >= n) {
        if (l + 5 < n && !strstr(buf, "..."))
            strcat(buf, ", ...");
        return;
    }
    snprintf(buf + l, n - l, "%s %s", *first ? "" : ",", name);
    *first = false;
}

static int find_thread(const wmx_program *p, const char *name)
{
    for (int t = 0; t < p->nthreads; t++)
        if (strcmp(p->threads[t].name, name) == 0)
            return t;
    char *end;
    long v = strtol(name, &end, 10);
    if (isdigit((unsigned char)name[0]) && *end == '\0' && v >= 0 && v < p->nthreads)
        return (int)v;
    /* herd's P0 written p0 */
    for (int t = 0; t < p->nthreads; t++) {
        const char *a = p->threads[t].name, *b = name;
        while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
            a++, b++;
        if (!*a && !*b)
            return t;
    }
    return -1;
}

static _Noreturn void fail_thread(parser *ps, size_t off, const char *name)
{
    char list[300] = "";
    bool first = true;
    for (int t = 0; t < ps->p->nthreads; t++)
        list_add(list, sizeof list, &first, ps->p->threads[t].name);
    fail(ps, off, "unknown thread '%s' (threads:%s)", name, list);
}

static int lookup_reg(parser *ps, size_t off, int t, const char *name)
{
    char msg[sizeof ps->err->msg] = "";
    int r = ps->names->reg ? ps->names->reg(ps->names->ud, t, name, msg, sizeof msg)
                           : ir_find_reg(ps->p, t, name);
    if (r >= 0)
        return r;
    if (msg[0])
        fail(ps, off, "%s", msg);
    const ir_thread *th = &ps->p->threads[t];
    char list[300] = "";
    bool first = true;
    for (int i = 0; i < th->nregs; i++)
        if (th->reg_names[i][0] != '$')
            list_add(list, sizeof list, &first, th->reg_names[i]);
    fail(ps, off, "%s has no register '%s' (%s's registers:%s)", th->name, name, th->name,
         first ? " none" : list);
}

static int lookup_var(parser *ps, size_t off, const char *name)
{
    char msg[sizeof ps->err->msg] = "";
    int v = ps->names->var ? ps->names->var(ps->names->ud, name, msg, sizeof msg)
                           : ir_find_var(ps->p, name);
    if (v >= 0)
        return v;
    if (msg[0])
        fail(ps, off, "%s", msg);
    char list[300] = "";
    bool first = true;
    for (int i = 0; i < ps->p->nvars; i++)
        list_add(list, sizeof list, &first, ps->p->vars[i].name);
    const wmx_program *p = ps->p;
    fail(ps, off, "unknown variable '%s' (variables:%s; a register is THREAD:REG, e.g. %s:%s)",
         name, first ? " none" : list, p->nthreads ? p->threads[0].name : "P0",
         p->nthreads && p->threads[0].nregs && p->threads[0].reg_names[0][0] != '$'
         ? p->threads[0].reg_names[0] : "r0");
}

/* ---- parser --------------------------------------------------------- */

static int add(parser *ps, const ir_cond *c)
{
    cond_out *o = &ps->out;
    if (*o->n == *o->cap) {
        *o->cap = *o->cap ? 2 * *o->cap : 16;
        *o->v = wmx_realloc(*o->v, (size_t)*o->cap * sizeof **o->v);
    }
    (*o->v)[*o->n] = *c;
    return (*o->n)++;
}

static int node(parser *ps, cond_kind k, int a, int b)
{
    ir_cond c;
    memset(&c, 0, sizeof c);
    c.kind = k;
    c.a = a;
    c.b = b;
    c.lhs.thread = c.lhs.reg = c.lhs.cell = -1;
    return add(ps, &c);
}

static void check_depth(parser *ps, int depth, size_t off)
{
    if (depth > COND_MAX_DEPTH)
        fail(ps, off, "condition nesting deeper than %d levels", COND_MAX_DEPTH);
}

/* Opens a level (a parenthesis, a negation, a bracket, the right of '=>')
 * at the current token: what it holds needs at least one more. */
static void nest_in(parser *ps)
{
    check_depth(ps, ++ps->nest + 1, ps->t.off);
}

/* ['-' | '+'] NUMBER, as a 64-bit value (above INT64_MAX: its bit pattern) */
static wmx_val number(parser *ps, const char *what)
{
    size_t off = ps->t.off;
    bool neg = false;
    if (ps->t.k == K_MINUS || ps->t.k == K_PLUS) {
        neg = ps->t.k == K_MINUS;
        advance(ps);
    }
    if (ps->t.k != K_NUM)
        fail_expected(ps, what);
    if (ps->t.bad)
        fail(ps, ps->t.off, "%s", ps->t.bad);
    uint64_t v = ps->t.num;
    if (neg && v > (UINT64_C(1) << 63))
        fail(ps, off, "number out of range (the limit is 64-bit integers)");
    advance(ps);
    return neg ? (wmx_val)(0 - v) : (wmx_val)v;
}

static cond_lhs lhs(parser *ps)
{
    cond_lhs l = { -1, -1, -1 };
    size_t off = ps->t.off;
    char name[MAX_NAME + 1];
    if (ps->t.k == K_LB) {
        nest_in(ps);
        advance(ps);
        l = lhs(ps);
        if (l.thread >= 0)
            fail(ps, off, "'[...]' is for shared memory, not registers");
        expect(ps, K_RB, "']'");
        ps->nest--;
        return l;
    }
    if (ps->t.k == K_NUM) {
        if (ps->t.bad)
            fail(ps, off, "%s", ps->t.bad);
        snprintf(name, sizeof name, "%.*s", (int)ps->t.len, ps->s + off);
        uint64_t tn = ps->t.num;
        advance(ps);
        if (ps->t.k != K_COLON)
            fail_expected(ps, "':' after the thread number");
        if (tn >= (uint64_t)ps->p->nthreads)
            fail_thread(ps, off, name);
        l.thread = (int)tn;
    } else if (ps->t.k == K_IDENT) {
        ident(ps, name);
        advance(ps);
        if (ps->t.k == K_COLON) {
            l.thread = find_thread(ps->p, name);
            if (l.thread < 0)
                fail_thread(ps, off, name);
        }
    } else {
        fail_expected(ps, "a location or register (P0:r0, x, a[1] or [x])");
    }
    if (l.thread >= 0) {
        advance(ps);                          /* ':' */
        size_t roff = ps->t.off;
        if (ps->t.k != K_IDENT)
            fail_expected(ps, "a register name after ':'");
        ident(ps, name);
        advance(ps);
        l.reg = lookup_reg(ps, roff, l.thread, name);
        return l;
    }
    int v = lookup_var(ps, off, name);
    const ir_var *var = &ps->p->vars[v];
    int index = 0;
    if (ps->t.k == K_LB) {
        advance(ps);
        size_t ioff = ps->t.off;
        wmx_val i = number(ps, "a constant index");
        var = &ps->p->vars[v];
        if (i < 0 || i >= var->length)
            fail(ps, ioff, "index %lld out of bounds for '%s' (length %d)", (long long)i,
                 var->name, var->length);
        index = (int)i;
        expect(ps, K_RB, "']' after the index");
    } else if (var->length > 1) {
        fail(ps, off, "array '%s' needs an index: %s[0] to %s[%d]", var->name, var->name,
             var->name, var->length - 1);
    }
    l.cell = var->base + index;
    return l;
}

static int prop(parser *ps, int *depth);

static int atom(parser *ps, int *depth)
{
    ir_cond x;
    memset(&x, 0, sizeof x);
    x.kind = C_EQ;
    x.a = x.b = -1;
    x.lhs = lhs(ps);
    bool ne = ps->t.k == K_NE;
    if (ps->t.k != K_EQ && !ne)
        fail_expected(ps, "'=' or '!='");
    advance(ps);
    if (ps->t.k == K_AMP || ps->t.k == K_IDENT) {
        /* a location's address (litmus: 0:EAX=x, 0:EAX=&x) */
        if (ps->t.k == K_AMP)
            advance(ps);
        size_t off = ps->t.off;
        if (ps->t.k != K_IDENT)
            fail_expected(ps, "a location after '&'");
        char name[MAX_NAME + 1];
        ident(ps, name);
        advance(ps);
        int v = lookup_var(ps, off, name);
        x.value = ps->p->vars[v].base;
        x.value_is_addr = true;
    } else {
        x.value = number(ps, "a number");
    }
    int c = add(ps, &x);
    *depth = 1;
    if (ne) {
        c = node(ps, C_NOT, c, -1);
        *depth = 2;
    }
    return c;
}

static int unary(parser *ps, int *depth)
{
    size_t off = ps->t.off;
    if (ps->t.k == K_NOT || is_keyword(ps, "not")) {
        nest_in(ps);
        advance(ps);
        int a = unary(ps, depth);
        ps->nest--;
        check_depth(ps, ++*depth, off);
        return node(ps, C_NOT, a, -1);
    }
    if (ps->t.k == K_LP) {
        nest_in(ps);
        advance(ps);
        int a = prop(ps, depth);
        expect(ps, K_RP, "')'");
        ps->nest--;
        check_depth(ps, ++*depth, off);
        return a;
    }
    if (is_keyword(ps, "true") || is_keyword(ps, "false")) {
        bool t = is_word(ps, "true");
        advance(ps);
        *depth = 1;
        return node(ps, t ? C_TRUE : C_FALSE, -1, -1);
    }
    return atom(ps, depth);
}

/* level 0: '\/', 1: '/\' */
static int binary(parser *ps, int level, int *depth)
{
    int a = level == 1 ? unary(ps, depth) : binary(ps, 1, depth);
    kind op = level == 0 ? K_OR : K_AND;
    while (ps->t.k == op) {
        size_t off = ps->t.off;
        advance(ps);
        int db;
        int b = level == 1 ? unary(ps, &db) : binary(ps, 1, &db);
        a = node(ps, level == 0 ? C_OR : C_AND, a, b);
        *depth = (db > *depth ? db : *depth) + 1;
        check_depth(ps, *depth, off);
    }
    return a;
}

static int prop(parser *ps, int *depth)
{
    int a = binary(ps, 0, depth);
    if (ps->t.k != K_IMP)
        return a;
    size_t off = ps->t.off;
    nest_in(ps);
    advance(ps);
    int db;
    int b = prop(ps, &db);
    ps->nest--;
    *depth = (db > *depth ? db : *depth) + 1;
    check_depth(ps, *depth, off);
    return node(ps, C_IMPLIES, a, b);
}

/* ---- entry points --------------------------------------------------- */

cond_out cond_out_program(wmx_program *p)
{
    return (cond_out){ &p->conds, &p->nconds, &p->cap_conds };
}

static void start(parser *ps, const char *text, size_t len, size_t pos, const cond_names *names,
                  cond_out out, cond_error *err)
{
    memset(ps, 0, sizeof *ps);
    ps->s = text;
    ps->len = len;
    ps->pos = pos;
    ps->prev_end = pos;
    ps->names = names;
    ps->p = names->p;
    ps->out = out;
    ps->err = err;
    err->off = pos;
    err->msg[0] = '\0';
}

int cond_parse(const char *text, size_t len, size_t pos, const cond_names *names,
               cond_out out, size_t *end, cond_error *err)
{
    parser ps;
    start(&ps, text, len, pos, names, out, err);
    volatile int root = -1;
    if (setjmp(ps.jb) == 0) {
        lex(&ps);
        int depth;
        root = prop(&ps, &depth);
        if (end)
            *end = ps.prev_end;
    }
    return root;
}

int cond_parse_lhs(const char *text, size_t len, size_t pos, const cond_names *names,
                   cond_lhs *l, size_t *end, cond_error *err)
{
    parser ps;
    int n = 0, cap = 0;
    ir_cond *none = NULL;
    start(&ps, text, len, pos, names, (cond_out){ &none, &n, &cap }, err);
    if (setjmp(ps.jb) != 0)
        return -1;
    lex(&ps);
    *l = lhs(&ps);
    if (end)
        *end = ps.prev_end;
    return 0;
}

int cond_parse_string(const char *s, const cond_names *names, cond_out out, cond_error *err)
{
    parser ps;
    start(&ps, s, strlen(s), 0, names, out, err);
    volatile int root = -1;
    if (setjmp(ps.jb) == 0) {
        lex(&ps);
        if (is_keyword(&ps, "exists"))
            advance(&ps);
        int depth;
        int r = prop(&ps, &depth);
        if (ps.t.k != K_EOF) {
            if (ps.t.k == K_BAD)
                fail(&ps, ps.t.off, "%s", ps.t.bad);
            char d[64];
            fail(&ps, ps.t.off, "unexpected %s after the condition", describe(&ps, d, sizeof d));
        }
        root = r;
    }
    return root;
}

bool cond_eval(const wmx_program *p, const ir_cond *nodes, int c, const wmx_val *const *regs,
               const wmx_val *mem)
{
    if (c < 0)
        return true;
    if (!nodes)
        nodes = p->conds;
    const ir_cond *x = &nodes[c];
    switch (x->kind) {
    case C_TRUE:  return true;
    case C_FALSE: return false;
    case C_NOT:   return !cond_eval(p, nodes, x->a, regs, mem);
    case C_AND:   return cond_eval(p, nodes, x->a, regs, mem) && cond_eval(p, nodes, x->b, regs, mem);
    case C_OR:    return cond_eval(p, nodes, x->a, regs, mem) || cond_eval(p, nodes, x->b, regs, mem);
    case C_IMPLIES:
        return !cond_eval(p, nodes, x->a, regs, mem) || cond_eval(p, nodes, x->b, regs, mem);
    case C_EQ: {
        wmx_val v = x->lhs.thread >= 0 ? regs[x->lhs.thread][x->lhs.reg] : mem[x->lhs.cell];
        wmx_val want = x->value_is_addr ? ir_cell_address(p, (int)x->value) : x->value;
        return v == want;
    }
    }
    return false;
}
