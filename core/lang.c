/* lang.c - reader for wmx's native program language (.wmx files).
 *
 * A hand-written recursive-descent parser over an on-demand lexer.  The
 * grammar and the meaning of every construct are in doc/language.md; this
 * file compiles the text straight into the IR of ir.h:
 *
 *   - every read of a shared variable inside an expression becomes its own
 *     I_LOAD into a hidden temporary register "$tN" (left to right, inner
 *     array indices first), and the expression is then evaluated over
 *     registers only;
 *   - `r = x;` and `r = a[i];` load straight into r (one I_LOAD);
 *   - if/else and loops become I_JUMPs; each loop gets a hidden counter
 *     register "$loopN" and an I_ASSUME(counter <= bound), so running past
 *     the bound blocks the thread.
 *
 * Errors abort the parse with longjmp: everything allocated so far is owned
 * by the parser state (the program, the expression-tree arena, the text
 * buffer, the per-thread register tables), so the error path frees it all in
 * one place.
 */
#include "lang.h"

#include "cond.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- limits -------------------------------------------------------- */

#define MAX_DEPTH     200      /* nesting of blocks, parentheses, operator trees */
#define MAX_IDENT     63       /* identifier length */
#define MAX_NAME      200      /* test name length */
#define MAX_VARS      1024
#define MAX_ARRAY     4096     /* cells in one array */
#define MAX_CELLS     65536    /* cells in total */
#define MAX_THREADS   WMX_MAX_THREADS  /* the machine's limit (machine.h) */
#define MAX_REGS      1024     /* registers per thread, hidden ones included */
#define MAX_INSTRS    65536    /* instructions per thread */
#define MAX_BOUND     1000000  /* loop bound */
#define DEFAULT_BOUND 8

/* ---- tokens -------------------------------------------------------- */

typedef enum tkind {
    T_EOF, T_IDENT, T_NUM,
    T_LBRACE, T_RBRACE, T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK,
    T_SEMI, T_COMMA, T_COLON,
    T_ASSIGN, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_SHL, T_SHR,
    T_AMP, T_LAND, T_PIPE, T_LOR, T_CARET, T_TILDE, T_BANG,
    T_CAND /* /\ */, T_COR /* \/ */, T_IMPLIES /* => */
} tkind;

static const char *const tk_spelling[] = {
    "end of file", "identifier", "number",
    "{", "}", "(", ")", "[", "]", ";", ",", ":",
    "=", "==", "!=", "<", "<=", ">", ">=",
    "+", "-", "*", "/", "%", "<<", ">>",
    "&", "&&", "|", "||", "^", "~", "!",
    "/\\", "\\/", "=>"
};

typedef struct token {
    tkind kind;
    size_t start, end;        /* byte offsets in the source */
    int line, col;            /* of the first byte */
    int end_line, end_col;    /* just after the last byte */
    uint64_t num;             /* T_NUM: magnitude (at most 2^63) */
} token;

static const char *const keywords[] = {
    "name", "var", "thread", "fence", "if", "else", "while", "do", "bound",
    "xchg", "faa", "cas", "await", "assume", "assert", "true", "false",
    "exists", "forall", "locations", NULL
};

/* ---- expression trees (parsed per statement, then lowered) ---------- */

typedef enum nkind { N_NUM, N_REG, N_VAR, N_UN, N_BIN } nkind;

typedef struct node {
    nkind kind;
    ir_op op;                 /* N_UN, N_BIN */
    int a, b;                 /* children; N_VAR: a = index node or -1 */
    wmx_val value;            /* N_NUM */
    int var;                  /* N_VAR */
    int reg;                  /* N_REG */
    int depth;
    int line, col;
} node;

/* A shared-memory operand as written: variable plus optional index tree. */
typedef struct locref {
    int var;
    int index;                /* node, -1 = none */
} locref;

/* ---- parser state -------------------------------------------------- */

typedef struct parser {
    const char *src;
    size_t len;
    const char *file;
    wmx_error *err;
    jmp_buf fail;
    const wmx_stop *stop;   /* polled every 4096 tokens; NULL = never */
    unsigned polls;

    /* lexer */
    size_t pos;
    int line, col;
    token cur;
    size_t prev_end;          /* end offset of the last consumed token */
    int prev_line, prev_col;  /* position just after it */

    wmx_program *prog;
    int depth;

    /* expression arena (reset per statement) */
    node *nodes;
    int nnodes, cap_nodes;

    /* current thread */
    int t;
    int ntemps;               /* temporaries used by the current statement */
    int loop_depth;
    int nloops_made;
    bool *assigned;           /* per register: written somewhere */
    wmx_srcloc *first_read;   /* per register: first read (line 0 = none) */
    int cap_regs;

    /* the statement being compiled: its position and display text */
    wmx_srcloc sloc;
    char *text;
    size_t cap_text;

    bool have_name;

    /* PGAS: `ranks N;` seen (ranks_line > 0), inside the spmd block */
    int ranks_line, ranks_col;
    bool in_spmd;
    int max_queue;            /* largest constant queue id, -1 = none */
    bool queue_dynamic;       /* some queue id is not a constant */
} parser;

static void fail_at(parser *ps, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), noreturn));

static void fail_at(parser *ps, int line, int col, const char *fmt, ...)
{
    char msg[sizeof ps->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wmx_error_set(ps->err, ps->file, line, col, "%s", msg);
    longjmp(ps->fail, 1);
}

/* ---- lexer --------------------------------------------------------- */

static int peekc(const parser *ps, size_t off)
{
    return ps->pos + off < ps->len ? (unsigned char)ps->src[ps->pos + off] : -1;
}

static void bump(parser *ps)
{
    if (ps->src[ps->pos] == '\n') {
        ps->line++;
        ps->col = 1;
    } else {
        ps->col++;
    }
    ps->pos++;
}

static void skip_space(parser *ps)
{
    for (;;) {
        int c = peekc(ps, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            bump(ps);
        } else if (c == '/' && peekc(ps, 1) == '/') {
            while (ps->pos < ps->len && ps->src[ps->pos] != '\n')
                bump(ps);
        } else if (c == '/' && peekc(ps, 1) == '*') {
            int l = ps->line, co = ps->col;
            bump(ps);
            bump(ps);
            for (;;) {
                if (ps->pos >= ps->len)
                    fail_at(ps, l, co, "unterminated comment");
                if (ps->src[ps->pos] == '*' && peekc(ps, 1) == '/') {
                    bump(ps);
                    bump(ps);
                    break;
                }
                bump(ps);
            }
        } else {
            return;
        }
    }
}

static bool is_ident_start(int c) { return c >= 0 && (isalpha(c) || c == '_') && c < 128; }
static bool is_ident_char(int c) { return c >= 0 && (isalnum(c) || c == '_') && c < 128; }

static void lex_number(parser *ps, token *tk)
{
    uint64_t v = 0;
    bool big = false;
    int base = 10;
    if (peekc(ps, 0) == '0' && (peekc(ps, 1) == 'x' || peekc(ps, 1) == 'X')) {
        base = 16;
        bump(ps);
        bump(ps);
        if (!isxdigit(peekc(ps, 0) < 0 ? 0 : peekc(ps, 0)))
            fail_at(ps, tk->line, tk->col, "hexadecimal number needs digits after '0x'");
    }
    for (;;) {
        int c = peekc(ps, 0);
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            big = true;
        else if (!big)
            v = v * (uint64_t)base + (uint64_t)d;
        if (v > (UINT64_C(1) << 63))
            big = true;
        bump(ps);
    }
    if (is_ident_char(peekc(ps, 0)))
        fail_at(ps, tk->line, tk->col, "malformed number");
    if (big)
        fail_at(ps, tk->line, tk->col, "number too large (the limit is 64-bit signed integers)");
    tk->kind = T_NUM;
    tk->num = v;
}

/* Lexes the next token into ps->cur. */
static void advance(parser *ps)
{
    if ((++ps->polls & 4095) == 0 && ps->stop && ps->stop->fn(ps->stop->ud)) {
        wmx_error_set(ps->err, ps->file, 0, 0, "stopped while reading the file");
        ps->err->limit = true;
        longjmp(ps->fail, 1);
    }
    ps->prev_end = ps->cur.end;
    ps->prev_line = ps->cur.end_line;
    ps->prev_col = ps->cur.end_col;

    skip_space(ps);
    token tk;
    memset(&tk, 0, sizeof tk);
    tk.start = ps->pos;
    tk.line = ps->line;
    tk.col = ps->col;
    int c = peekc(ps, 0), c1 = peekc(ps, 1);
    if (c < 0) {
        tk.kind = T_EOF;
    } else if (is_ident_start(c)) {
        while (is_ident_char(peekc(ps, 0)))
            bump(ps);
        if (ps->pos - tk.start > MAX_IDENT)
            fail_at(ps, tk.line, tk.col, "identifier too long (at most %d characters)", MAX_IDENT);
        tk.kind = T_IDENT;
    } else if (c >= '0' && c <= '9') {
        lex_number(ps, &tk);
    } else {
        int n = 1;
        switch (c) {
        case '{': tk.kind = T_LBRACE; break;
        case '}': tk.kind = T_RBRACE; break;
        case '(': tk.kind = T_LPAREN; break;
        case ')': tk.kind = T_RPAREN; break;
        case '[': tk.kind = T_LBRACK; break;
        case ']': tk.kind = T_RBRACK; break;
        case ';': tk.kind = T_SEMI; break;
        case ',': tk.kind = T_COMMA; break;
        case ':': tk.kind = T_COLON; break;
        case '+': tk.kind = T_PLUS; break;
        case '-': tk.kind = T_MINUS; break;
        case '*': tk.kind = T_STAR; break;
        case '%': tk.kind = T_PERCENT; break;
        case '^': tk.kind = T_CARET; break;
        case '~': tk.kind = T_TILDE; break;
        case '=':
            if (c1 == '=') { tk.kind = T_EQ; n = 2; }
            else if (c1 == '>') { tk.kind = T_IMPLIES; n = 2; }
            else tk.kind = T_ASSIGN;
            break;
        case '!':
            if (c1 == '=') { tk.kind = T_NE; n = 2; } else tk.kind = T_BANG;
            break;
        case '<':
            if (c1 == '=') { tk.kind = T_LE; n = 2; }
            else if (c1 == '<') { tk.kind = T_SHL; n = 2; }
            else tk.kind = T_LT;
            break;
        case '>':
            if (c1 == '=') { tk.kind = T_GE; n = 2; }
            else if (c1 == '>') { tk.kind = T_SHR; n = 2; }
            else tk.kind = T_GT;
            break;
        case '&':
            if (c1 == '&') { tk.kind = T_LAND; n = 2; } else tk.kind = T_AMP;
            break;
        case '|':
            if (c1 == '|') { tk.kind = T_LOR; n = 2; } else tk.kind = T_PIPE;
            break;
        case '/':
            if (c1 == '\\') { tk.kind = T_CAND; n = 2; } else tk.kind = T_SLASH;
            break;
        case '\\':
            if (c1 == '/') { tk.kind = T_COR; n = 2; break; }
            /* fall through */
        default:
            if (c >= 0x20 && c < 0x7f)
                fail_at(ps, tk.line, tk.col, "unexpected character '%c'", c);
            fail_at(ps, tk.line, tk.col, "unexpected byte 0x%02x", (unsigned)c);
        }
        while (n-- > 0)
            bump(ps);
    }
    tk.end = ps->pos;
    tk.end_line = ps->line;
    tk.end_col = ps->col;
    ps->cur = tk;
}

/* ---- token helpers ------------------------------------------------- */

static bool is(const parser *ps, tkind k) { return ps->cur.kind == k; }

static bool is_kw(const parser *ps, const char *kw)
{
    size_t n = strlen(kw);
    return ps->cur.kind == T_IDENT && ps->cur.end - ps->cur.start == n &&
           memcmp(ps->src + ps->cur.start, kw, n) == 0;
}

static bool ident_is_keyword(const parser *ps)
{
    for (int i = 0; keywords[i]; i++)
        if (is_kw(ps, keywords[i]))
            return true;
    return false;
}

/* Copies the current identifier into buf (MAX_IDENT + 1 bytes). */
static void ident_text(const parser *ps, char *buf)
{
    size_t n = ps->cur.end - ps->cur.start;
    memcpy(buf, ps->src + ps->cur.start, n);
    buf[n] = '\0';
}

/* "identifier 'foo'", "';'", "end of file" - for error messages. */
static const char *describe(const parser *ps, char *buf, size_t n)
{
    const token *tk = &ps->cur;
    size_t len = tk->end - tk->start;
    switch (tk->kind) {
    case T_EOF:
        snprintf(buf, n, "end of file");
        break;
    case T_IDENT:
        snprintf(buf, n, "%s '%.*s'", ident_is_keyword(ps) ? "keyword" : "identifier",
                 (int)len, ps->src + tk->start);
        break;
    case T_NUM:
        snprintf(buf, n, "number %.*s", (int)(len > 40 ? 40 : len), ps->src + tk->start);
        break;
    default:
        snprintf(buf, n, "'%s'", tk_spelling[tk->kind]);
        break;
    }
    return buf;
}

static void __attribute__((noreturn)) fail_expected(parser *ps, const char *what)
{
    char d[96];
    fail_at(ps, ps->cur.line, ps->cur.col, "expected %s, found %s", what, describe(ps, d, sizeof d));
}

static void expect(parser *ps, tkind k, const char *what)
{
    if (!is(ps, k))
        fail_expected(ps, what);
    advance(ps);
}

/* A missing ';' is reported just after the previous token. */
static void expect_semi(parser *ps, const char *after)
{
    if (!is(ps, T_SEMI))
        fail_at(ps, ps->prev_line, ps->prev_col, "expected ';' after %s", after);
    advance(ps);
}

/* Reads an identifier that names something new (variable, register,
 * thread): keywords are refused. */
static void expect_name(parser *ps, char *buf, const char *what)
{
    if (!is(ps, T_IDENT))
        fail_expected(ps, what);
    if (ident_is_keyword(ps)) {
        char d[96];
        fail_at(ps, ps->cur.line, ps->cur.col, "expected %s, found %s (a reserved word)",
                what, describe(ps, d, sizeof d));
    }
    ident_text(ps, buf);
    advance(ps);
}

/* ['-'] number, as a value. */
static wmx_val parse_int(parser *ps, const char *what)
{
    bool neg = false;
    int l = ps->cur.line, c = ps->cur.col;
    if (is(ps, T_MINUS)) {
        neg = true;
        advance(ps);
    }
    if (!is(ps, T_NUM))
        fail_expected(ps, what);
    uint64_t v = ps->cur.num;
    advance(ps);
    if (v > (uint64_t)INT64_MAX) {
        if (!neg)
            fail_at(ps, l, c, "number too large (the limit is 64-bit signed integers)");
        return INT64_MIN;
    }
    return neg ? -(wmx_val)v : (wmx_val)v;
}

static int parse_small_int(parser *ps, int lo, int hi, const char *what)
{
    int l = ps->cur.line, c = ps->cur.col;
    wmx_val v = parse_int(ps, what);
    if (v < lo || v > hi)
        fail_at(ps, l, c, "%s must be between %d and %d", what, lo, hi);
    return (int)v;
}

/* ---- display text of statements ------------------------------------ */

/* Source [start, end) as one trimmed line: comments dropped, runs of white
 * space turned into one blank.  The result lives in ps->text. */
static const char *make_text(parser *ps, size_t start, size_t end)
{
    if (end < start)
        end = start;
    size_t need = end - start + 1;
    if (need > ps->cap_text) {
        ps->cap_text = need;
        ps->text = wmx_realloc(ps->text, need);
    }
    size_t o = 0;
    bool space = false;
    for (size_t i = start; i < end; i++) {
        char ch = ps->src[i];
        if (ch == '/' && i + 1 < end && ps->src[i + 1] == '/') {
            while (i < end && ps->src[i] != '\n')
                i++;
            space = true;
            continue;
        }
        if (ch == '/' && i + 1 < end && ps->src[i + 1] == '*') {
            i += 2;
            while (i + 1 < end && !(ps->src[i] == '*' && ps->src[i + 1] == '/'))
                i++;
            i++;
            space = true;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
            space = true;
            continue;
        }
        if (space && o > 0)
            ps->text[o++] = ' ';
        space = false;
        ps->text[o++] = ch;
    }
    ps->text[o] = '\0';
    return ps->text;
}

/* ---- registers of the current thread -------------------------------- */

static int reg_of(parser *ps, const char *name, int line, int col)
{
    ir_thread *th = &ps->prog->threads[ps->t];
    int r = ir_find_reg(ps->prog, ps->t, name);
    if (r >= 0)
        return r;
    if (th->nregs >= MAX_REGS)
        fail_at(ps, line, col, "too many registers in thread %s (at most %d)", th->name, MAX_REGS);
    r = ir_thread_reg(ps->prog, ps->t, name);
    if (r >= ps->cap_regs) {
        int cap = ps->cap_regs ? ps->cap_regs * 2 : 16;
        while (cap <= r)
            cap *= 2;
        ps->assigned = wmx_realloc(ps->assigned, (size_t)cap * sizeof *ps->assigned);
        ps->first_read = wmx_realloc(ps->first_read, (size_t)cap * sizeof *ps->first_read);
        ps->cap_regs = cap;
    }
    ps->assigned[r] = false;
    ps->first_read[r].line = 0;
    ps->first_read[r].col = 0;
    return r;
}

static int reg_written(parser *ps, const char *name, int line, int col)
{
    int r = reg_of(ps, name, line, col);
    ps->assigned[r] = true;
    return r;
}

static int reg_read(parser *ps, const char *name, int line, int col)
{
    int r = reg_of(ps, name, line, col);
    if (ps->first_read[r].line == 0) {
        ps->first_read[r].line = line;
        ps->first_read[r].col = col;
    }
    return r;
}

static int hidden_reg(parser *ps, const char *name)
{
    return reg_written(ps, name, ps->sloc.line, ps->sloc.col);
}

static int temp_reg(parser *ps)
{
    char name[32];
    snprintf(name, sizeof name, "$t%d", ps->ntemps++);
    return hidden_reg(ps, name);
}

/* ---- emitting instructions ----------------------------------------- */

static int emit(parser *ps, ir_instr *in)
{
    if (ps->prog->threads[ps->t].ninstrs >= MAX_INSTRS)
        fail_at(ps, ps->sloc.line, ps->sloc.col, "thread %s is too long (at most %d instructions)",
                ps->prog->threads[ps->t].name, MAX_INSTRS);
    return ir_add_instr(ps->prog, ps->t, in);
}

static ir_instr instr(parser *ps, ir_kind k)
{
    ir_instr in = ir_instr_init(k, ps->sloc);
    in.text = ps->text;
    return in;
}

/* Starts a statement at the current token: its location becomes the
 * location of every instruction it produces. */
static size_t begin_stmt(parser *ps)
{
    ps->sloc.line = ps->cur.line;
    ps->sloc.col = ps->cur.col;
    ps->ntemps = 0;
    ps->nnodes = 0;
    return ps->cur.start;
}

/* ---- expressions: parsing ------------------------------------------ */

static int new_node(parser *ps, nkind k, int line, int col)
{
    if (ps->nnodes == ps->cap_nodes) {
        ps->cap_nodes = ps->cap_nodes ? ps->cap_nodes * 2 : 64;
        ps->nodes = wmx_realloc(ps->nodes, (size_t)ps->cap_nodes * sizeof *ps->nodes);
    }
    node *n = &ps->nodes[ps->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = k;
    n->a = n->b = -1;
    n->var = n->reg = -1;
    n->depth = 1;
    n->line = line;
    n->col = col;
    return ps->nnodes++;
}

static void set_depth(parser *ps, int n)
{
    node *x = &ps->nodes[n];
    int d = 0;
    if (x->a >= 0 && ps->nodes[x->a].depth > d)
        d = ps->nodes[x->a].depth;
    if (x->b >= 0 && ps->nodes[x->b].depth > d)
        d = ps->nodes[x->b].depth;
    x->depth = d + 1;
    if (x->depth > MAX_DEPTH)
        fail_at(ps, x->line, x->col, "expression too deeply nested (at most %d levels)", MAX_DEPTH);
}

static void enter(parser *ps)
{
    if (++ps->depth > MAX_DEPTH)
        fail_at(ps, ps->cur.line, ps->cur.col, "nesting too deep (at most %d levels)", MAX_DEPTH);
}

static void leave(parser *ps) { ps->depth--; }

static int parse_expr(parser *ps);

/* After a variable name: checks it is used as a scalar or with an index. */
static int parse_var_ref(parser *ps, int v, int line, int col, const char *name)
{
    const ir_var *var = &ps->prog->vars[v];
    int n = new_node(ps, N_VAR, line, col);
    ps->nodes[n].var = v;
    if (is(ps, T_LBRACK)) {
        advance(ps);
        int il = ps->cur.line, ic = ps->cur.col;
        int ix = parse_expr(ps);
        expect(ps, T_RBRACK, "']' after array index");
        if (ps->nodes[ix].kind == N_NUM &&
            (ps->nodes[ix].value < 0 || ps->nodes[ix].value >= var->length))
            fail_at(ps, il, ic, "index %lld out of bounds for '%s' (length %d)",
                    (long long)ps->nodes[ix].value, name, var->length);
        ps->nodes[n].a = ix;
        set_depth(ps, n);
    } else if (var->length > 1) {
        fail_at(ps, line, col, "array '%s' needs an index: %s[i]", name, name);
    }
    return n;
}

static int parse_primary(parser *ps)
{
    int line = ps->cur.line, col = ps->cur.col;
    if (is(ps, T_NUM)) {
        int n = new_node(ps, N_NUM, line, col);
        if (ps->cur.num > (uint64_t)INT64_MAX)
            fail_at(ps, line, col, "number too large (the limit is 64-bit signed integers)");
        ps->nodes[n].value = (wmx_val)ps->cur.num;
        advance(ps);
        return n;
    }
    if (is(ps, T_LPAREN)) {
        advance(ps);
        int n = parse_expr(ps);
        expect(ps, T_RPAREN, "')'");
        return n;
    }
    if (is(ps, T_IDENT)) {
        char name[MAX_IDENT + 1];
        if (is_kw(ps, "true") || is_kw(ps, "false")) {
            int n = new_node(ps, N_NUM, line, col);
            ps->nodes[n].value = is_kw(ps, "true");
            advance(ps);
            return n;
        }
        if (is_kw(ps, "xchg") || is_kw(ps, "faa") || is_kw(ps, "cas") || is_kw(ps, "await")) {
            ident_text(ps, name);
            fail_at(ps, line, col, "'%s(...)' cannot be part of an expression; write it as "
                    "its own statement 'r = %s(...);'", name, name);
        }
        if (ident_is_keyword(ps)) {
            char d[96];
            fail_at(ps, line, col, "expected an expression, found %s", describe(ps, d, sizeof d));
        }
        ident_text(ps, name);
        advance(ps);
        int v = ir_find_var(ps->prog, name);
        if (v >= 0)
            return parse_var_ref(ps, v, line, col, name);
        if (is(ps, T_LBRACK))
            fail_at(ps, line, col, "unknown array '%s'", name);
        if (is(ps, T_LPAREN))
            fail_at(ps, line, col, "unknown function '%s'", name);
        int n = new_node(ps, N_REG, line, col);
        ps->nodes[n].reg = reg_read(ps, name, line, col);
        return n;
    }
    fail_expected(ps, "an expression");
}

static int parse_unary(parser *ps)
{
    int line = ps->cur.line, col = ps->cur.col;
    ir_op op;
    if (is(ps, T_MINUS))
        op = OP_NEG;
    else if (is(ps, T_BANG))
        op = OP_NOT;
    else if (is(ps, T_TILDE))
        op = OP_BNOT;
    else if (is(ps, T_PLUS))
        op = OP_ADD;   /* unary plus: no-op */
    else {
        enter(ps);
        int n = parse_primary(ps);
        leave(ps);
        return n;
    }
    advance(ps);
    enter(ps);
    int n;
    if (op == OP_NEG && is(ps, T_NUM)) {
        /* a negative literal is one constant (this is how INT64_MIN is written) */
        uint64_t v = ps->cur.num;
        advance(ps);
        n = new_node(ps, N_NUM, line, col);
        ps->nodes[n].value = v > (uint64_t)INT64_MAX ? INT64_MIN : -(wmx_val)v;
    } else {
        int a = parse_unary(ps);
        if (op == OP_ADD) {
            n = a;
        } else {
            n = new_node(ps, N_UN, line, col);
            ps->nodes[n].op = op;
            ps->nodes[n].a = a;
            set_depth(ps, n);
        }
    }
    leave(ps);
    return n;
}

static int binop_prec(tkind k, ir_op *op)
{
    switch (k) {
    case T_LOR:     *op = OP_LOR;  return 1;
    case T_LAND:    *op = OP_LAND; return 2;
    case T_PIPE:    *op = OP_OR;   return 3;
    case T_CARET:   *op = OP_XOR;  return 4;
    case T_AMP:     *op = OP_AND;  return 5;
    case T_EQ:      *op = OP_EQ;   return 6;
    case T_NE:      *op = OP_NE;   return 6;
    case T_LT:      *op = OP_LT;   return 7;
    case T_LE:      *op = OP_LE;   return 7;
    case T_GT:      *op = OP_GT;   return 7;
    case T_GE:      *op = OP_GE;   return 7;
    case T_SHL:     *op = OP_SHL;  return 8;
    case T_SHR:     *op = OP_SHR;  return 8;
    case T_PLUS:    *op = OP_ADD;  return 9;
    case T_MINUS:   *op = OP_SUB;  return 9;
    case T_STAR:    *op = OP_MUL;  return 10;
    case T_SLASH:   *op = OP_DIV;  return 10;
    case T_PERCENT: *op = OP_MOD;  return 10;
    default:        return 0;
    }
}

static int parse_binary(parser *ps, int min_prec)
{
    int lhs = parse_unary(ps);
    for (;;) {
        ir_op op;
        int prec = binop_prec(ps->cur.kind, &op);
        if (prec == 0 || prec < min_prec)
            return lhs;
        int line = ps->cur.line, col = ps->cur.col;
        advance(ps);
        int rhs = parse_binary(ps, prec + 1);
        int n = new_node(ps, N_BIN, line, col);
        ps->nodes[n].op = op;
        ps->nodes[n].a = lhs;
        ps->nodes[n].b = rhs;
        set_depth(ps, n);
        lhs = n;
    }
}

static int parse_expr(parser *ps)
{
    return parse_binary(ps, 1);
}

/* A shared location as an operand: `x` or `a[e]`. */
static locref parse_location(parser *ps, const char *what)
{
    if (!is(ps, T_IDENT) || ident_is_keyword(ps))
        fail_expected(ps, what);
    char name[MAX_IDENT + 1];
    int line = ps->cur.line, col = ps->cur.col;
    ident_text(ps, name);
    int v = ir_find_var(ps->prog, name);
    if (v < 0)
        fail_at(ps, line, col, "'%s' is not a shared variable (declare it with 'var %s;')", name, name);
    advance(ps);
    int n = parse_var_ref(ps, v, line, col, name);
    locref r = { v, ps->nodes[n].a };
    return r;
}

/* ---- expressions: lowering ----------------------------------------- */

static int lower(parser *ps, int n);

static ir_addr lower_location(parser *ps, int var, int index)
{
    ir_addr a = { var, -1, -1 };
    if (index >= 0)
        a.index = lower(ps, index);
    return a;
}

/* Emits the loads of every shared read in the tree (left to right) and
 * returns the IR expression computing its value from registers. */
static int lower(parser *ps, int n)
{
    node x = ps->nodes[n];
    switch (x.kind) {
    case N_NUM:
        return ir_const(ps->prog, x.value);
    case N_REG:
        return ir_reg(ps->prog, x.reg);
    case N_VAR: {
        ir_instr in = instr(ps, I_LOAD);
        in.addr = lower_location(ps, x.var, x.a);
        in.dst = temp_reg(ps);
        emit(ps, &in);
        return ir_reg(ps->prog, in.dst);
    }
    case N_UN:
        return ir_unop(ps->prog, x.op, lower(ps, x.a));
    case N_BIN: {
        int a = lower(ps, x.a);
        int b = lower(ps, x.b);
        return ir_binop(ps->prog, x.op, a, b);
    }
    }
    return -1;
}

/* The negation of IR expression e, flipping comparisons when possible. */
static int negate(parser *ps, int e)
{
    ir_expr x = ps->prog->exprs[e];
    ir_op flip;
    switch (x.op) {
    case OP_EQ: flip = OP_NE; break;
    case OP_NE: flip = OP_EQ; break;
    case OP_LT: flip = OP_GE; break;
    case OP_GE: flip = OP_LT; break;
    case OP_GT: flip = OP_LE; break;
    case OP_LE: flip = OP_GT; break;
    case OP_NOT: return x.a;
    default: return ir_unop(ps->prog, OP_NOT, e);
    }
    return ir_binop(ps->prog, flip, x.a, x.b);
}

/* ---- statements ---------------------------------------------------- */

static void parse_stmt(parser *ps);

static void parse_block(parser *ps)
{
    enter(ps);
    expect(ps, T_LBRACE, "'{'");
    while (!is(ps, T_RBRACE)) {
        if (is(ps, T_EOF))
            fail_expected(ps, "'}'");
        parse_stmt(ps);
    }
    advance(ps);
    leave(ps);
}

static void patch_target(parser *ps, int at, int target)
{
    ps->prog->threads[ps->t].instrs[at].target = target;
}

static int here(parser *ps)
{
    return ps->prog->threads[ps->t].ninstrs;
}

/* '(' expr ')' of if/while: returns the (unlowered) tree and the end of the
 * header text. */
static int parse_cond_header(parser *ps, const char *kw)
{
    char what[48];
    snprintf(what, sizeof what, "'(' after '%s'", kw);
    expect(ps, T_LPAREN, what);
    int n = parse_expr(ps);
    expect(ps, T_RPAREN, "')' after the condition");
    return n;
}

static int parse_bound(parser *ps)
{
    if (!is_kw(ps, "bound"))
        return DEFAULT_BOUND;
    advance(ps);
    return parse_small_int(ps, 0, MAX_BOUND, "loop bound");
}

static int new_loop(parser *ps, int *counter)
{
    char name[32];
    snprintf(name, sizeof name, "$loop%d", ps->nloops_made++);
    *counter = hidden_reg(ps, name);
    if (ps->loop_depth > 0) {
        /* re-entered by an enclosing loop: restart the count */
        ir_instr in = instr(ps, I_LET);
        in.dst = *counter;
        in.e1 = ir_const(ps->prog, 0);
        emit(ps, &in);
    }
    ir_thread *th = &ps->prog->threads[ps->t];
    th->loops = wmx_realloc(th->loops, (size_t)(th->nloops + 1) * sizeof *th->loops);
    th->loops[th->nloops].head = here(ps);
    th->loops[th->nloops].end = -1;
    th->loops[th->nloops].counter = *counter;
    th->loops[th->nloops].bound = 0;
    return th->nloops++;
}

/* counter = counter + 1; assume(counter <= bound) */
static void emit_count(parser *ps, int counter, int bound)
{
    ir_instr in = instr(ps, I_LET);
    in.dst = counter;
    in.e1 = ir_binop(ps->prog, OP_ADD, ir_reg(ps->prog, counter), ir_const(ps->prog, 1));
    emit(ps, &in);
    in = instr(ps, I_ASSUME);
    in.e1 = ir_binop(ps->prog, OP_LE, ir_reg(ps->prog, counter), ir_const(ps->prog, bound));
    emit(ps, &in);
}

/* Sets the statement context (location + text) for instructions emitted
 * on behalf of a header that was parsed earlier. */
static void set_ctx(parser *ps, wmx_srcloc loc, size_t start, size_t end)
{
    ps->sloc = loc;
    ps->ntemps = 0;
    make_text(ps, start, end);
}

static void parse_if(parser *ps)
{
    wmx_srcloc loc = ps->sloc;
    size_t start = ps->cur.start;
    advance(ps);                                   /* if */
    int cond = parse_cond_header(ps, "if");
    size_t hend = ps->prev_end;
    set_ctx(ps, loc, start, hend);
    ir_instr in = instr(ps, I_JUMP);
    in.e1 = negate(ps, lower(ps, cond));
    int jfalse = emit(ps, &in);
    parse_block(ps);
    if (is_kw(ps, "else")) {
        wmx_srcloc eloc = { ps->cur.line, ps->cur.col, 0 };
        size_t estart = ps->cur.start;
        advance(ps);
        set_ctx(ps, eloc, estart, ps->prev_end);
        in = instr(ps, I_JUMP);                    /* end of the then-branch */
        int jend = emit(ps, &in);
        patch_target(ps, jfalse, here(ps));
        if (is_kw(ps, "if")) {
            enter(ps);
            begin_stmt(ps);
            parse_if(ps);
            leave(ps);
        } else {
            parse_block(ps);
        }
        patch_target(ps, jend, here(ps));
    } else {
        patch_target(ps, jfalse, here(ps));
    }
}

static void parse_while(parser *ps)
{
    wmx_srcloc loc = ps->sloc;
    size_t start = ps->cur.start;
    advance(ps);                                   /* while */
    int cond = parse_cond_header(ps, "while");
    int bound = parse_bound(ps);
    size_t hend = ps->prev_end;
    /* the body's statements reuse the tree arena: lower the condition now */
    set_ctx(ps, loc, start, hend);
    int counter;
    int li = new_loop(ps, &counter);
    int head = here(ps);
    ir_instr in = instr(ps, I_JUMP);
    in.e1 = negate(ps, lower(ps, cond));
    int jexit = emit(ps, &in);
    emit_count(ps, counter, bound);
    ps->loop_depth++;
    parse_block(ps);
    ps->loop_depth--;
    set_ctx(ps, loc, start, hend);
    in = instr(ps, I_JUMP);
    in.target = head;
    emit(ps, &in);
    patch_target(ps, jexit, here(ps));
    ir_thread *th = &ps->prog->threads[ps->t];
    th->loops[li].end = here(ps);
    th->loops[li].bound = bound;
}

static void parse_do(parser *ps)
{
    wmx_srcloc loc = ps->sloc;
    size_t start = ps->cur.start;
    advance(ps);                                   /* do */
    set_ctx(ps, loc, start, ps->prev_end);
    int counter;
    int li = new_loop(ps, &counter);
    int head = here(ps);
    /* the bound is only known at the end: patch the assume afterwards */
    emit_count(ps, counter, 0);
    int assume_at = here(ps) - 1;
    ps->loop_depth++;
    parse_block(ps);
    ps->loop_depth--;
    if (!is_kw(ps, "while"))
        fail_expected(ps, "'while' after the body of 'do'");
    wmx_srcloc wloc = { ps->cur.line, ps->cur.col, 0 };
    size_t wstart = ps->cur.start;
    begin_stmt(ps);
    advance(ps);
    int cond = parse_cond_header(ps, "while");
    int bound = parse_bound(ps);
    size_t wend = ps->prev_end;
    expect_semi(ps, "'do ... while (...)'");
    set_ctx(ps, wloc, wstart, wend);
    ir_instr in = instr(ps, I_JUMP);
    in.e1 = lower(ps, cond);
    in.target = head;
    emit(ps, &in);
    ir_thread *th = &ps->prog->threads[ps->t];
    ir_instr *as = &th->instrs[assume_at];
    ps->prog->exprs[ps->prog->exprs[as->e1].b].value = bound;
    th->loops[li].end = here(ps);
    th->loops[li].bound = bound;
}

/* `await(loc cmp e)` after the keyword; fills addr/cmp/e1. */
static void parse_await(parser *ps, ir_instr *in, int *loc_index, int *var, int *rhs)
{
    expect(ps, T_LPAREN, "'(' after 'await'");
    locref l = parse_location(ps, "a shared variable in 'await'");
    ir_op op;
    int prec = binop_prec(ps->cur.kind, &op);
    if (prec == 6 || prec == 7) {
        advance(ps);
        *rhs = parse_expr(ps);
    } else if (is(ps, T_RPAREN)) {
        op = OP_NE;                                /* await(x) = await(x != 0) */
        *rhs = new_node(ps, N_NUM, ps->cur.line, ps->cur.col);
    } else {
        fail_expected(ps, "a comparison (==, !=, <, <=, >, >=) in 'await'");
    }
    expect(ps, T_RPAREN, "')' after the 'await' condition");
    in->cmp = op;
    *loc_index = l.index;
    *var = l.var;
}

/* xchg/faa/cas/await, at the current token; dst/dst2 already known. */
static void parse_rmw(parser *ps, size_t start, int dst, int dst2)
{
    char kw[MAX_IDENT + 1];
    ident_text(ps, kw);
    int line = ps->cur.line, col = ps->cur.col;
    if (ps->in_spmd)
        fail_at(ps, line, col, "'%s' is not a PGAS command (an spmd block has loads, stores, "
                "read, write, barrier and quiet)", kw);
    advance(ps);
    ir_kind kind = strcmp(kw, "xchg") == 0 ? I_XCHG : strcmp(kw, "faa") == 0 ? I_FAA
                 : strcmp(kw, "cas") == 0 ? I_CAS : I_AWAIT;
    if (dst2 >= 0 && kind != I_CAS)
        fail_at(ps, line, col, "only 'cas' gives two results");
    int var, index, e1 = -1, e2 = -1;
    ir_op cmp = OP_EQ;
    if (kind == I_AWAIT) {
        ir_instr tmp = ir_instr_init(I_AWAIT, ps->sloc);
        parse_await(ps, &tmp, &index, &var, &e1);
        cmp = tmp.cmp;
    } else {
        char what[160];
        snprintf(what, sizeof what, "'(' after '%s'", kw);
        expect(ps, T_LPAREN, what);
        snprintf(what, sizeof what, "a shared variable as the first argument of '%s'", kw);
        locref l = parse_location(ps, what);
        var = l.var;
        index = l.index;
        expect(ps, T_COMMA, "',' between arguments");
        e1 = parse_expr(ps);
        if (kind == I_CAS) {
            expect(ps, T_COMMA, "',' and the new value ('cas' takes 3 arguments)");
            e2 = parse_expr(ps);
        }
        expect(ps, T_RPAREN, kind == I_CAS ? "')' after the 3 arguments of 'cas'"
                                           : "')' after the 2 arguments");
    }
    size_t end = ps->prev_end;
    expect_semi(ps, "statement");
    make_text(ps, start, end);
    ir_instr in = instr(ps, kind);
    in.cmp = cmp;
    in.addr = lower_location(ps, var, index);
    in.e1 = lower(ps, e1);
    if (e2 >= 0)
        in.e2 = lower(ps, e2);
    in.dst = dst;
    in.dst2 = dst2;
    emit(ps, &in);
}

static bool at_rmw(const parser *ps)
{
    return is_kw(ps, "xchg") || is_kw(ps, "faa") || is_kw(ps, "cas") || is_kw(ps, "await");
}

/* assume(e); assert(e); */
static void parse_check(parser *ps, size_t start, ir_kind kind, const char *kw)
{
    advance(ps);
    char what[48];
    snprintf(what, sizeof what, "'(' after '%s'", kw);
    expect(ps, T_LPAREN, what);
    int n = parse_expr(ps);
    expect(ps, T_RPAREN, "')'");
    size_t end = ps->prev_end;
    expect_semi(ps, "statement");
    make_text(ps, start, end);
    ir_instr in = instr(ps, kind);
    in.e1 = lower(ps, n);
    emit(ps, &in);
}

/* Statements starting with an identifier that is not a keyword. */
static void parse_assign(parser *ps, size_t start)
{
    char name[MAX_IDENT + 1];
    int line = ps->cur.line, col = ps->cur.col;
    ident_text(ps, name);
    advance(ps);
    int v = ir_find_var(ps->prog, name);
    if (v >= 0) {
        /* store: x = e;  a[i] = e; */
        int lhs = parse_var_ref(ps, v, line, col, name);
        if (!is(ps, T_ASSIGN))
            fail_expected(ps, "'=' after the variable");
        advance(ps);
        if (at_rmw(ps)) {
            char kw[MAX_IDENT + 1];
            ident_text(ps, kw);
            fail_at(ps, ps->cur.line, ps->cur.col,
                    "the result of '%s' must go to a register, not to shared variable '%s'", kw, name);
        }
        int rhs = parse_expr(ps);
        size_t end = ps->prev_end;
        expect_semi(ps, "statement");
        make_text(ps, start, end);
        ir_instr in = instr(ps, I_STORE);
        in.addr = lower_location(ps, v, ps->nodes[lhs].a);
        in.e1 = lower(ps, rhs);
        emit(ps, &in);
        return;
    }
    if (ps->in_spmd && (strcmp(name, "rank") == 0 || strcmp(name, "nranks") == 0))
        fail_at(ps, line, col, "'%s' is a constant in an spmd block; it cannot be assigned", name);
    if (is(ps, T_LBRACK))
        fail_at(ps, line, col, "unknown array '%s'", name);
    if (is(ps, T_LPAREN))
        fail_at(ps, line, col, "unknown function '%s'", name);
    int r2 = -1;
    char name2[MAX_IDENT + 1];
    int line2 = 0, col2 = 0;
    if (is(ps, T_COMMA)) {
        /* old, ok = cas(...) */
        advance(ps);
        line2 = ps->cur.line;
        col2 = ps->cur.col;
        expect_name(ps, name2, "a register after ','");
        if (ir_find_var(ps->prog, name2) >= 0)
            fail_at(ps, line2, col2, "'%s' is a shared variable; the results of 'cas' go to registers", name2);
        if (!is(ps, T_ASSIGN))
            fail_expected(ps, "'=' after the registers");
        advance(ps);
        if (!is_kw(ps, "cas"))
            fail_expected(ps, "'cas(...)' after 'r, ok ='");
    } else if (!is(ps, T_ASSIGN)) {
        char what[160];
        snprintf(what, sizeof what, "'=' after '%s'", name);
        fail_expected(ps, what);
    } else {
        advance(ps);
    }
    if (at_rmw(ps)) {
        int r = reg_written(ps, name, line, col);
        if (line2 > 0)
            r2 = reg_written(ps, name2, line2, col2);
        parse_rmw(ps, start, r, r2);
        return;
    }
    int rhs = parse_expr(ps);
    size_t end = ps->prev_end;
    expect_semi(ps, "statement");
    make_text(ps, start, end);
    int r = reg_written(ps, name, line, col);
    node x = ps->nodes[rhs];
    if (x.kind == N_VAR) {
        /* r = x;  r = a[i]; : one load straight into r */
        ir_instr in = instr(ps, I_LOAD);
        in.addr = lower_location(ps, x.var, x.a);
        in.dst = r;
        emit(ps, &in);
        return;
    }
    ir_instr in = instr(ps, I_LET);
    in.e1 = lower(ps, rhs);
    in.dst = r;
    emit(ps, &in);
}

/* ---- PGAS statements: read(...), write(...), barrier, quiet --------- */

/* `read(` / `write(` / `barrier;` / `quiet;` - words that stay usable as register
 * names elsewhere, so they are recognised by what follows them. */
static bool at_pgas_stmt(parser *ps)
{
    if (!is(ps, T_IDENT))
        return false;
    bool rw = is_kw(ps, "read") || is_kw(ps, "write");
    bool bar = is_kw(ps, "barrier") || is_kw(ps, "quiet");
    if (!rw && !bar)
        return false;
    /* peek the next visible character without consuming a token */
    size_t i = ps->cur.end;
    for (;;) {
        while (i < ps->len && (ps->src[i] == ' ' || ps->src[i] == '\t' || ps->src[i] == '\n' ||
                               ps->src[i] == '\r' || ps->src[i] == '\f' || ps->src[i] == '\v'))
            i++;
        if (i + 1 < ps->len && ps->src[i] == '/' && ps->src[i + 1] == '/') {
            while (i < ps->len && ps->src[i] != '\n')
                i++;
            continue;
        }
        if (i + 1 < ps->len && ps->src[i] == '/' && ps->src[i + 1] == '*') {
            i += 2;
            while (i + 1 < ps->len && !(ps->src[i] == '*' && ps->src[i + 1] == '/'))
                i++;
            i += 2;
            continue;
        }
        break;
    }
    int c = i < ps->len ? (unsigned char)ps->src[i] : -1;
    return rw ? c == '(' : c == ';';
}

static void note_queue(parser *ps, int n)
{
    const node *x = &ps->nodes[n];
    if (x->kind == N_NUM) {
        if (x->value < 0 || x->value >= WMX_PGAS_MAX_QUEUES)
            fail_at(ps, x->line, x->col, "queue id %lld out of range (0..%d)",
                    (long long)x->value, WMX_PGAS_MAX_QUEUES - 1);
        if (x->value > ps->max_queue)
            ps->max_queue = (int)x->value;
    } else {
        ps->queue_dynamic = true;
    }
}

static void parse_pgas_stmt(parser *ps, size_t start)
{
    if (is_kw(ps, "barrier")) {
        advance(ps);
        size_t end = ps->prev_end;
        expect_semi(ps, "'barrier'");
        make_text(ps, start, end);
        ir_instr in = instr(ps, I_BARRIER);
        emit(ps, &in);
        return;
    }
    if (is_kw(ps, "quiet")) {
        advance(ps);
        size_t end = ps->prev_end;
        expect_semi(ps, "'quiet'");
        make_text(ps, start, end);
        ir_instr in = instr(ps, I_QUIET);
        emit(ps, &in);
        return;
    }
    bool is_read = is_kw(ps, "read");
    const char *kw = is_read ? "read" : "write";
    advance(ps);
    char what[160];
    snprintf(what, sizeof what, "'(' after '%s'", kw);
    expect(ps, T_LPAREN, what);
    snprintf(what, sizeof what, "a shared variable (my local address) as the first argument of '%s'", kw);
    locref loc = parse_location(ps, what);
    expect(ps, T_COMMA, "',' and the remote rank");
    int r = parse_expr(ps);
    expect(ps, T_COMMA, "',' and the remote address");
    snprintf(what, sizeof what, "a shared variable (the remote address) as the third argument of '%s'", kw);
    locref rem = parse_location(ps, what);
    expect(ps, T_COMMA, "',' and the queue id");
    int q = parse_expr(ps);
    expect(ps, T_RPAREN, "')' after the 4 arguments");
    size_t end = ps->prev_end;
    expect_semi(ps, "statement");
    note_queue(ps, q);
    make_text(ps, start, end);
    ir_instr in = instr(ps, is_read ? I_PREAD : I_PWRITE);
    in.addr = lower_location(ps, loc.var, loc.index);
    in.addr2 = lower_location(ps, rem.var, rem.index);
    in.e1 = lower(ps, r);
    in.e2 = lower(ps, q);
    emit(ps, &in);
}

static void parse_stmt(parser *ps)
{
    size_t start = begin_stmt(ps);
    if (is(ps, T_SEMI)) {                          /* empty statement */
        advance(ps);
        return;
    }
    if (is(ps, T_LBRACE)) {
        parse_block(ps);
        return;
    }
    if (!is(ps, T_IDENT))
        fail_expected(ps, "a statement");
    if (ps->in_spmd && (is_kw(ps, "fence") || at_rmw(ps))) {
        char kw[MAX_IDENT + 1];
        ident_text(ps, kw);
        fail_at(ps, ps->cur.line, ps->cur.col,
                "'%s' is not a PGAS command (an spmd block has loads, stores, read, write, barrier and quiet)", kw);
    }
    if (at_pgas_stmt(ps)) {
        if (!ps->in_spmd) {
            char kw[MAX_IDENT + 1];
            ident_text(ps, kw);
            fail_at(ps, ps->cur.line, ps->cur.col,
                    "'%s' is a PGAS statement: it is only allowed in an 'spmd' block", kw);
        }
        parse_pgas_stmt(ps, start);
        return;
    }
    if (is_kw(ps, "fence")) {
        advance(ps);
        size_t end = ps->prev_end;
        expect_semi(ps, "'fence'");
        make_text(ps, start, end);
        ir_instr in = instr(ps, I_FENCE);
        emit(ps, &in);
    } else if (is_kw(ps, "if")) {
        enter(ps);
        parse_if(ps);
        leave(ps);
    } else if (is_kw(ps, "while")) {
        enter(ps);
        parse_while(ps);
        leave(ps);
    } else if (is_kw(ps, "do")) {
        enter(ps);
        parse_do(ps);
        leave(ps);
    } else if (is_kw(ps, "assume")) {
        parse_check(ps, start, I_ASSUME, "assume");
    } else if (is_kw(ps, "assert")) {
        parse_check(ps, start, I_ASSERT, "assert");
    } else if (at_rmw(ps)) {
        parse_rmw(ps, start, -1, -1);
    } else if (is_kw(ps, "else")) {
        fail_at(ps, ps->cur.line, ps->cur.col, "'else' without a matching 'if'");
    } else if (ident_is_keyword(ps)) {
        char d[96];
        fail_at(ps, ps->cur.line, ps->cur.col, "expected a statement, found %s", describe(ps, d, sizeof d));
    } else {
        parse_assign(ps, start);
    }
}

/* ---- top level ----------------------------------------------------- */

static void parse_name(parser *ps)
{
    int line = ps->cur.line, col = ps->cur.col;
    if (ps->have_name)
        fail_at(ps, line, col, "the test name is given twice");
    ps->have_name = true;
    /* the name is a raw word: everything up to white space, ';' or a comment */
    ps->pos = ps->cur.end;
    ps->line = ps->cur.end_line;
    ps->col = ps->cur.end_col;
    while (peekc(ps, 0) == ' ' || peekc(ps, 0) == '\t')
        bump(ps);
    size_t s = ps->pos;
    int nl = ps->line, nc = ps->col;
    for (;;) {
        int c = peekc(ps, 0);
        if (c <= ' ' || c >= 0x7f || c == ';' ||
            (c == '/' && (peekc(ps, 1) == '/' || peekc(ps, 1) == '*')))
            break;
        bump(ps);
    }
    if (ps->pos == s)
        fail_at(ps, nl, nc, "expected a test name after 'name'");
    if (ps->pos - s > MAX_NAME)
        fail_at(ps, nl, nc, "test name too long (at most %d characters)", MAX_NAME);
    free(ps->prog->name);
    ps->prog->name = wmx_strndup(ps->src + s, ps->pos - s);
    ps->cur.end = ps->pos;
    ps->cur.end_line = ps->line;
    ps->cur.end_col = ps->col;
    advance(ps);
    if (is(ps, T_SEMI))
        advance(ps);
}

static void parse_var_decl(parser *ps)
{
    advance(ps);                                   /* var */
    for (;;) {
        char name[MAX_IDENT + 1];
        int line = ps->cur.line, col = ps->cur.col;
        expect_name(ps, name, "a variable name");
        int length = 1;
        bool array = false;
        if (is(ps, T_LBRACK)) {
            advance(ps);
            length = parse_small_int(ps, 1, MAX_ARRAY, "array length");
            expect(ps, T_RBRACK, "']' after the array length");
            array = true;
        }
        if (ps->prog->nvars >= MAX_VARS)
            fail_at(ps, line, col, "too many shared variables (at most %d)", MAX_VARS);
        if (ps->prog->ncells + length > MAX_CELLS)
            fail_at(ps, line, col, "too much shared memory (at most %d cells)", MAX_CELLS);
        int v = ir_add_var(ps->prog, name, length);
        if (v < 0)
            fail_at(ps, line, col, "variable '%s' is declared twice", name);
        int base = ps->prog->vars[v].base;
        if (is(ps, T_ASSIGN)) {
            advance(ps);
            if (array) {
                expect(ps, T_LBRACE, "'{' starting the initial values of the array");
                int i = 0;
                while (!is(ps, T_RBRACE)) {
                    int il = ps->cur.line, ic = ps->cur.col;
                    wmx_val x = parse_int(ps, "an integer initial value");
                    if (i >= length)
                        fail_at(ps, il, ic, "too many initial values for '%s' (length %d)", name, length);
                    ps->prog->cell_init[base + i++] = x;
                    if (!is(ps, T_COMMA))
                        break;
                    advance(ps);
                }
                expect(ps, T_RBRACE, "'}' after the initial values");
            } else {
                if (is(ps, T_LBRACE))
                    fail_at(ps, ps->cur.line, ps->cur.col,
                            "'%s' is a scalar; '{...}' initialises arrays", name);
                ps->prog->cell_init[base] = parse_int(ps, "an integer initial value");
            }
        }
        if (!is(ps, T_COMMA))
            break;
        advance(ps);
    }
    expect_semi(ps, "variable declaration");
}

/* Checks that every register the thread reads is written somewhere. */
static void check_reads(parser *ps)
{
    const ir_thread *th = &ps->prog->threads[ps->t];
    int best = -1;
    for (int r = 0; r < th->nregs; r++) {
        if (ps->assigned[r] || ps->first_read[r].line == 0)
            continue;
        if (best < 0 || ps->first_read[r].line < ps->first_read[best].line ||
            (ps->first_read[r].line == ps->first_read[best].line &&
             ps->first_read[r].col < ps->first_read[best].col))
            best = r;
    }
    if (best >= 0)
        fail_at(ps, ps->first_read[best].line, ps->first_read[best].col,
                "unknown identifier '%s': not a shared variable, and never assigned "
                "as a register of thread %s", th->reg_names[best], th->name);
}

static void parse_thread(parser *ps)
{
    advance(ps);                                   /* thread */
    char name[MAX_IDENT + 1];
    int line = ps->cur.line, col = ps->cur.col;
    expect_name(ps, name, "a thread name");
    for (int i = 0; i < ps->prog->nthreads; i++)
        if (strcmp(ps->prog->threads[i].name, name) == 0)
            fail_at(ps, line, col, "thread '%s' is declared twice", name);
    if (ps->prog->nthreads >= MAX_THREADS)
        fail_at(ps, line, col, "too many threads (at most %d)", MAX_THREADS);
    ps->t = ir_add_thread(ps->prog, name);
    ps->nloops_made = 0;
    ps->loop_depth = 0;
    if (is(ps, T_LPAREN)) {
        /* initial register values: (r1 = 5, r2 = -1) */
        advance(ps);
        while (!is(ps, T_RPAREN)) {
            char rn[MAX_IDENT + 1];
            int rl = ps->cur.line, rc = ps->cur.col;
            expect_name(ps, rn, "a register name");
            if (ir_find_var(ps->prog, rn) >= 0)
                fail_at(ps, rl, rc, "'%s' is a shared variable, not a register", rn);
            if (ir_find_reg(ps->prog, ps->t, rn) >= 0)
                fail_at(ps, rl, rc, "register '%s' is initialised twice", rn);
            int r = reg_written(ps, rn, rl, rc);
            expect(ps, T_ASSIGN, "'=' after the register name");
            ps->prog->threads[ps->t].reg_init[r] = parse_int(ps, "an integer initial value");
            if (!is(ps, T_COMMA))
                break;
            advance(ps);
        }
        expect(ps, T_RPAREN, "')' after the initial register values");
    }
    parse_block(ps);
    check_reads(ps);
}

/* ---- final condition ----------------------------------------------- */

/* Conditions and `locations` entries are read by core/cond.c: the text
 * from the current token on goes there, and the lexer resumes where the
 * condition ended. */

/* Line and column of byte off (at or after the current token). */
static void line_col_at(const parser *ps, size_t off, int *line, int *col)
{
    *line = ps->cur.line;
    *col = ps->cur.col;
    for (size_t i = ps->cur.start; i < off && i < ps->len; i++) {
        if (ps->src[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static void __attribute__((noreturn)) fail_cond(parser *ps, const cond_error *ce)
{
    int line, col;
    line_col_at(ps, ce->off, &line, &col);
    fail_at(ps, line, col, "%s", ce->msg);
}

/* Makes the text up to end (after the current token's start) consumed:
 * the current token becomes [cur.start, end), and the next one is read. */
static void resume_at(parser *ps, size_t end)
{
    ps->pos = ps->cur.start;
    ps->line = ps->cur.line;
    ps->col = ps->cur.col;
    while (ps->pos < end)
        bump(ps);
    ps->cur.end = end;
    ps->cur.end_line = ps->line;
    ps->cur.end_col = ps->col;
    advance(ps);
}

static cond_lhs parse_cond_lhs(parser *ps)
{
    cond_names names = { ps->prog, NULL, NULL, NULL };
    cond_lhs l;
    cond_error ce;
    size_t end;
    if (cond_parse_lhs(ps->src, ps->len, ps->cur.start, &names, &l, &end, &ce) < 0)
        fail_cond(ps, &ce);
    resume_at(ps, end);
    return l;
}

static void parse_locations(parser *ps)
{
    int line = ps->cur.line, col = ps->cur.col;
    if (ps->prog->nobserved > 0)
        fail_at(ps, line, col, "'locations' is given twice");
    advance(ps);
    expect(ps, T_LBRACK, "'[' after 'locations'");
    while (!is(ps, T_RBRACK)) {
        cond_lhs l = parse_cond_lhs(ps);
        if (ps->prog->nobserved >= MAX_REGS)
            fail_at(ps, line, col, "too many locations");
        ps->prog->observed = wmx_realloc(ps->prog->observed,
                                         (size_t)(ps->prog->nobserved + 1) * sizeof *ps->prog->observed);
        ps->prog->observed[ps->prog->nobserved++] = l;
        if (!is(ps, T_SEMI) && !is(ps, T_COMMA))
            break;
        advance(ps);
    }
    expect(ps, T_RBRACK, "']' after the locations");
    if (is(ps, T_SEMI))
        advance(ps);
}

static void parse_condition(parser *ps)
{
    int line = ps->cur.line, col = ps->cur.col;
    if (ps->prog->quant != Q_NONE)
        fail_at(ps, line, col, "the program has a final condition already");
    quantifier q;
    if (is(ps, T_TILDE)) {
        advance(ps);
        if (!is_kw(ps, "exists"))
            fail_expected(ps, "'exists' after '~'");
        q = Q_NOT_EXISTS;
    } else if (is_kw(ps, "exists")) {
        q = Q_EXISTS;
    } else {
        q = Q_FORALL;
    }
    advance(ps);
    size_t start = ps->cur.start, end;
    cond_names names = { ps->prog, NULL, NULL, NULL };
    cond_error ce;
    int c = cond_parse(ps->src, ps->len, start, &names, cond_out_program(ps->prog), &end, &ce);
    if (c < 0)
        fail_cond(ps, &ce);
    resume_at(ps, end);
    ps->prog->quant = q;
    ps->prog->cond_root = c;
    ps->prog->cond_text = wmx_strdup(make_text(ps, start, end));
    if (is(ps, T_SEMI))
        advance(ps);
}

/* ranks N; */
static void parse_ranks(parser *ps)
{
    if (ps->ranks_line > 0)
        fail_at(ps, ps->cur.line, ps->cur.col, "'ranks' is given twice");
    if (ps->prog->nthreads > 0)
        fail_at(ps, ps->cur.line, ps->cur.col, "'ranks' must come before the 'spmd' block");
    ps->ranks_line = ps->cur.line;
    ps->ranks_col = ps->cur.col;
    advance(ps);
    ps->prog->pgas_ranks = parse_small_int(ps, 1, WMX_PGAS_MAX_RANKS, "the number of ranks");
    expect_semi(ps, "'ranks N'");
}

/* spmd { ... }: the one code of every rank, compiled as thread "spmd". */
static void parse_spmd(parser *ps)
{
    int line = ps->cur.line, col = ps->cur.col;
    if (ps->prog->nthreads > 0)
        fail_at(ps, line, col, ps->prog->pgas_ranks > 0 && ps->in_spmd == false &&
                               strcmp(ps->prog->threads[0].name, "spmd") == 0
                ? "a PGAS program has exactly one 'spmd' block"
                : "'spmd' cannot be mixed with 'thread' blocks");
    if (ps->ranks_line == 0)
        fail_at(ps, line, col, "an 'spmd' block needs a 'ranks N;' declaration before it");
    if (ir_find_var(ps->prog, "rank") >= 0 || ir_find_var(ps->prog, "nranks") >= 0)
        fail_at(ps, line, col, "'rank' and 'nranks' are constants of a PGAS program, not variables");
    advance(ps);
    ps->t = ir_add_thread(ps->prog, "spmd");
    ps->nloops_made = 0;
    ps->loop_depth = 0;
    ps->prog->pgas_rank_reg = reg_written(ps, "rank", line, col);
    ps->prog->pgas_nranks_reg = reg_written(ps, "nranks", line, col);
    ps->in_spmd = true;
    parse_block(ps);
    ps->in_spmd = false;
    check_reads(ps);
}

static void parse_program(parser *ps)
{
    advance(ps);
    ps->max_queue = -1;
    while (!is(ps, T_EOF)) {
        if (is_kw(ps, "ranks") && ps->prog->nthreads == 0) {
            parse_ranks(ps);
        } else if (is_kw(ps, "spmd")) {
            parse_spmd(ps);
        } else if (ps->prog->pgas_ranks > 0 && ps->prog->nthreads > 0 &&
                   (is_kw(ps, "thread") || is_kw(ps, "locations") || is_kw(ps, "exists") ||
                    is_kw(ps, "forall") || is(ps, T_TILDE))) {
            fail_at(ps, ps->cur.line, ps->cur.col, is_kw(ps, "thread")
                    ? "'thread' cannot be mixed with an 'spmd' block"
                    : "PGAS programs have no final condition; use 'assert' in the spmd block");
        } else if (is_kw(ps, "thread") && ps->ranks_line > 0) {
            fail_at(ps, ps->cur.line, ps->cur.col,
                    "a program with 'ranks N;' runs one 'spmd { ... }' block, not threads");
        } else if (is_kw(ps, "name")) {
            if (ps->prog->nthreads > 0 || ps->prog->quant != Q_NONE)
                fail_at(ps, ps->cur.line, ps->cur.col, "'name' must come before the threads");
            parse_name(ps);
        } else if (is_kw(ps, "var")) {
            if (ps->prog->nthreads > 0)
                fail_at(ps, ps->cur.line, ps->cur.col,
                        "variables must be declared before the threads");
            parse_var_decl(ps);
        } else if (is_kw(ps, "thread")) {
            if (ps->prog->quant != Q_NONE || ps->prog->nobserved > 0)
                fail_at(ps, ps->cur.line, ps->cur.col,
                        "threads must come before 'locations' and the final condition");
            parse_thread(ps);
        } else if (is_kw(ps, "locations")) {
            if (ps->prog->nthreads == 0)
                fail_at(ps, ps->cur.line, ps->cur.col, "'locations' must come after the threads");
            parse_locations(ps);
        } else if (is_kw(ps, "exists") || is_kw(ps, "forall") || is(ps, T_TILDE)) {
            if (ps->prog->nthreads == 0)
                fail_at(ps, ps->cur.line, ps->cur.col, "the final condition must come after the threads");
            parse_condition(ps);
        } else if (ps->prog->quant != Q_NONE) {
            fail_expected(ps, "end of file after the final condition");
        } else {
            fail_expected(ps, "'var', 'thread', 'locations', or a final condition "
                              "('exists', '~exists', 'forall')");
        }
    }
    if (ps->ranks_line > 0 && ps->prog->nthreads == 0)
        fail_at(ps, ps->cur.line, ps->cur.col,
                "a PGAS program ('ranks %d;' at line %d) needs one 'spmd { ... }' block",
                ps->prog->pgas_ranks, ps->ranks_line);
    if (ps->prog->nthreads == 0)
        fail_at(ps, ps->cur.line, ps->cur.col, "the program has no threads");
    if (ps->prog->pgas_ranks > 0)
        ps->prog->pgas_queues = ps->queue_dynamic ? WMX_PGAS_MAX_QUEUES
                                                  : ps->max_queue + 1 > 0 ? ps->max_queue + 1 : 1;
}

/* Default test name: the file's base name without its extension. */
static char *base_name(const char *file)
{
    if (!file)
        return wmx_strdup("");
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    return wmx_strndup(b, n);
}

wmx_program *lang_parse(const char *text, size_t len, const char *file, wmx_error *err)
{
    return lang_parse_stop(text, len, file, err, NULL);
}

wmx_program *lang_parse_stop(const char *text, size_t len, const char *file, wmx_error *err,
                             const wmx_stop *stop)
{
    wmx_error dummy;
    parser *ps = wmx_calloc(1, sizeof *ps);
    ps->stop = stop;
    ps->src = text ? text : "";
    ps->len = text ? len : 0;
    ps->file = file ? file : "";
    ps->err = err ? err : &dummy;
    ps->line = 1;
    ps->col = 1;
    ps->cur.end_line = 1;
    ps->cur.end_col = 1;
    char *name = base_name(file);
    ps->prog = ir_program_new(name, file, "wmx");
    free(name);

    if (setjmp(ps->fail) == 0) {
        parse_program(ps);
    } else {
        ir_program_free(ps->prog);
        ps->prog = NULL;
    }
    wmx_program *result = ps->prog;
    free(ps->nodes);
    free(ps->text);
    free(ps->assigned);
    free(ps->first_read);
    free(ps);
    return result;
}
