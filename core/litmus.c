/* litmus.c - reader for herd7 litmus tests in the X86 (Intel syntax) and
 * X86_64 (AT&T syntax) dialects.
 *
 * The reader works on a private copy of the text in which comments
 * `(* ... *)` (nested) are blanked out, so offsets stay valid for line:col
 * reporting.  Errors unwind with longjmp to litmus_parse(), which frees
 * everything reachable from the parse context.
 *
 * Semantics chosen for the instructions (see also the report in doc/):
 *   MOV reg<-imm/reg      I_LET        MOV reg<-mem   I_LOAD
 *   MOV mem<-imm/reg      I_STORE      MFENCE         I_FENCE
 *   XCHG reg,mem          I_XCHG (always locked on x86)
 *   LOCK ADD/SUB/INC/DEC  I_FAA        LOCK XADD      I_FAA (dst = the reg)
 *   LOCK CMPXCHG mem,reg  I_CAS dst=EAX e1=EAX e2=reg dst2=$zf
 *   LOCK AND/OR/XOR/NEG/NOT mem: LOAD $tmp; CAS; ASSUME success
 *   unlocked RMW on mem   LOAD $tmp ... STORE (not atomic, as on hardware)
 *   ALU on registers      I_LET        CMP/TEST       I_LET $cmp_a, $cmp_b
 *   Jcc                   I_JUMP e1 = comparison of $cmp_a, $cmp_b
 *   JMP                   I_JUMP e1 = -1             RET  I_HALT
 *   NOP/NOPL/ENDBR64/LFENCE/SFENCE/PAUSE: I_NOP
 */
#include "litmus.h"
#include "cond.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS  WMX_MAX_THREADS  /* the machine's limit (machine.h) */
#define MAX_ARRAY    4096     /* cells in one declared array (fits ir.c's
                                 * per-variable address stride) */
#define MAX_CELLS    65536    /* cells in all */
#define MAX_NAME     128

enum { D_X86, D_X86_64 };

/* ---- small containers ---------------------------------------------- */

typedef struct { int off, len; } span;     /* a slice of the buffer */

#define GROW(arr, n, cap) do {                                            \
        if ((n) == (cap)) {                                               \
            (cap) = (cap) ? 2 * (cap) : 16;                               \
            (arr) = wmx_realloc((arr), (size_t)(cap) * sizeof *(arr));    \
        }                                                                 \
    } while (0)

/* ---- tokens --------------------------------------------------------- */

typedef enum { T_EOF, T_IDENT, T_NUM, T_PUNCT } tkind;

enum { P_AND = 256, P_OR, P_IMP };

typedef struct {
    tkind k;
    int off, len;
    uint64_t num;        /* T_NUM */
    int ch;              /* T_PUNCT */
} token;

/* ---- operands and parsed instructions ------------------------------ */

enum { O_NONE, O_IMM, O_REG, O_MEM, O_LABEL };

typedef struct {
    int kind;
    int off;
    wmx_val imm;         /* O_IMM; O_MEM displacement */
    span sym;            /* O_IMM `$x` address; O_MEM symbol; O_LABEL name */
    int reg;             /* O_REG: register table index */
    int base, index;     /* O_MEM: register table indices or -1 */
    int scale;
    int width;           /* O_MEM: from `DWORD PTR` (0 = unknown) */
} operand;

typedef struct {
    int off, end;        /* instruction text (after labels) */
    char mn[24];         /* upper-case mnemonic, prefix removed */
    int lock;
    int nops;
    operand ops[3];
    int first_ir;
} pinstr;

typedef struct { span name; int pidx; } label;
typedef struct { int ir; span name; int off; } fixup;
typedef struct { int thread; int off, end; } cell;

/* init items */
enum { IT_MEM, IT_REG };
typedef struct {
    int kind;
    int off;
    int thread;          /* IT_REG */
    int reg;             /* IT_REG: register table index */
    span name;           /* IT_MEM */
    int elem;            /* IT_MEM element, -1 = whole/first */
    int decl_len;        /* > 0: declared with a type (array length) */
    int elem_size;       /* from the type, 0 = default */
    int val0, nvals;     /* values in ctx->vals */
} initem;

typedef struct { wmx_val v; span sym; int off; } initval;

typedef struct ctx {
    jmp_buf jb;
    wmx_error *err;
    const wmx_stop *stop;   /* polled every 4096 tokens; NULL = never */
    unsigned polls;
    const char *file;
    const char *src;
    size_t srclen;
    char *buf;
    int len;
    int *lines;
    int nlines, cap_lines;
    int dialect;
    wmx_program *p;

    initem *items;
    int nitems, cap_items;
    initval *vals;
    int nvals, cap_vals;

    cell *cells;
    int ncells, cap_cells;

    pinstr *pi;
    int npi, cap_pi;
    label *labels;
    int nlabels, cap_labels;
    fixup *fix;
    int nfix, cap_fix;

    char *text;          /* current instruction text */
    int cur_t;           /* thread being emitted */
    const pinstr *cur;   /* instruction being emitted */
    int has_cond;        /* thread reads flags */
    int last_end;        /* end offset of the last consumed token */
} ctx;

/* ---- errors --------------------------------------------------------- */

static void where(const ctx *c, int off, int *line, int *col)
{
    if (off < 0 || c->nlines == 0) {
        *line = *col = 0;
        return;
    }
    int lo = 0, hi = c->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (c->lines[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = lo + 1;
    *col = off - c->lines[lo] + 1;
}

static _Noreturn void fail(ctx *c, int off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void fail(ctx *c, int off, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line, col;
    where(c, off, &line, &col);
    wmx_error_set(c->err, c->file, line, col, "%s", msg);
    longjmp(c->jb, 1);
}

/* A span as a printable, bounded C string (for messages and names). */
static const char *spanstr(const ctx *c, span s, char *buf, size_t n)
{
    size_t k = (size_t)s.len < n - 1 ? (size_t)s.len : n - 1;
    for (size_t i = 0; i < k; i++) {
        unsigned char ch = (unsigned char)c->buf[s.off + (int)i];
        buf[i] = isprint(ch) ? (char)ch : '?';
    }
    buf[k] = '\0';
    return buf;
}

static int span_eq(const ctx *c, span s, const char *w)
{
    size_t n = strlen(w);
    return (size_t)s.len == n && strncmp(c->buf + s.off, w, n) == 0;
}

static int span_ieq(const ctx *c, span s, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)s.len != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (toupper((unsigned char)c->buf[s.off + (int)i]) != toupper((unsigned char)w[i]))
            return 0;
    return 1;
}

/* ---- lexer ---------------------------------------------------------- */

typedef struct {
    ctx *c;
    int pos, lim;
    token tok;
} lexer;

static int is_ident_start(int ch) { return isalpha(ch) || ch == '_' || ch == '.'; }
static int is_ident_char(int ch) { return isalnum(ch) || ch == '_' || ch == '.'; }

/* Every 4096 calls, asks c->stop whether to give up (a --timeout that
 * covers parsing); unwinds like an error, with err->limit set. */
static void poll_stop(ctx *c)
{
    if ((++c->polls & 4095) == 0 && c->stop && c->stop->fn(c->stop->ud)) {
        wmx_error_set(c->err, c->file, 0, 0, "stopped while reading the file");
        if (c->err)
            c->err->limit = true;
        longjmp(c->jb, 1);
    }
}

static void lex_next(lexer *lx)
{
    ctx *c = lx->c;
    poll_stop(c);
    const char *b = c->buf;
    if (lx->tok.k != T_EOF || lx->tok.len)
        c->last_end = lx->tok.off + lx->tok.len;
    while (lx->pos < lx->lim && isspace((unsigned char)b[lx->pos]))
        lx->pos++;
    token t = { T_EOF, lx->pos, 0, 0, 0 };
    if (lx->pos >= lx->lim) {
        lx->tok = t;
        return;
    }
    int p = lx->pos;
    unsigned char ch = (unsigned char)b[p];
    if (is_ident_start(ch)) {
        while (p < lx->lim && is_ident_char((unsigned char)b[p]))
            p++;
        t.k = T_IDENT;
    } else if (isdigit(ch)) {
        uint64_t v = 0;
        int ovf = 0;
        if (ch == '0' && p + 1 < lx->lim && (b[p + 1] == 'x' || b[p + 1] == 'X')) {
            p += 2;
            int nd = 0;
            while (p < lx->lim && isxdigit((unsigned char)b[p])) {
                int d = isdigit((unsigned char)b[p]) ? b[p] - '0'
                      : toupper((unsigned char)b[p]) - 'A' + 10;
                if (v >> 60)
                    ovf = 1;
                v = (v << 4) | (uint64_t)d;
                p++;
                nd++;
            }
            if (nd == 0)
                fail(c, t.off, "malformed hexadecimal number");
        } else {
            while (p < lx->lim && isdigit((unsigned char)b[p])) {
                uint64_t d = (uint64_t)(b[p] - '0');
                if (v > (UINT64_MAX - d) / 10)
                    ovf = 1;
                v = v * 10 + d;
                p++;
            }
        }
        if (ovf)
            fail(c, t.off, "number out of range");
        if (p < lx->lim && is_ident_char((unsigned char)b[p]))
            fail(c, t.off, "malformed number");
        t.k = T_NUM;
        t.num = v;
    } else {
        t.k = T_PUNCT;
        p++;
        if (ch == '/' && p < lx->lim && b[p] == '\\') {
            t.ch = P_AND;
            p++;
        } else if (ch == '\\' && p < lx->lim && b[p] == '/') {
            t.ch = P_OR;
            p++;
        } else if (ch == '=' && p < lx->lim && b[p] == '>') {
            t.ch = P_IMP;
            p++;
        } else if (strchr("[](){}=:;,-+*&~|$%!<>", ch)) {
            t.ch = ch;
        } else if (isprint(ch)) {
            fail(c, t.off, "unexpected character '%c'", ch);
        } else {
            fail(c, t.off, "unexpected byte 0x%02x", ch);
        }
    }
    t.len = p - t.off;
    lx->pos = p;
    lx->tok = t;
}

static void lex_init(lexer *lx, ctx *c, int pos, int lim)
{
    lx->c = c;
    lx->pos = pos;
    lx->lim = lim;
    lx->tok.k = T_EOF;
    lx->tok.off = pos;
    lx->tok.len = 0;
    lex_next(lx);
}

static int is_p(const lexer *lx, int ch) { return lx->tok.k == T_PUNCT && lx->tok.ch == ch; }
static int is_id(const lexer *lx, const char *w)
{
    return lx->tok.k == T_IDENT && span_eq(lx->c, (span){ lx->tok.off, lx->tok.len }, w);
}
static span tok_span(const lexer *lx) { return (span){ lx->tok.off, lx->tok.len }; }

/* Peeks at the token after the current one. */
static token lex_peek(const lexer *lx)
{
    lexer tmp = *lx;
    int save = lx->c->last_end;
    lex_next(&tmp);
    lx->c->last_end = save;
    return tmp.tok;
}

static const char *tok_desc(const lexer *lx, char *buf, size_t n)
{
    if (lx->tok.k == T_EOF)
        return "end of input";
    char s[64];
    snprintf(buf, n, "'%s'", spanstr(lx->c, tok_span(lx), s, sizeof s));
    return buf;
}

static void expect(lexer *lx, int ch, const char *what)
{
    if (!is_p(lx, ch)) {
        char d[80];
        fail(lx->c, lx->tok.off, "expected %s, found %s", what, tok_desc(lx, d, sizeof d));
    }
    lex_next(lx);
}

static span expect_ident(lexer *lx, const char *what)
{
    if (lx->tok.k != T_IDENT) {
        char d[80];
        fail(lx->c, lx->tok.off, "expected %s, found %s", what, tok_desc(lx, d, sizeof d));
    }
    span s = tok_span(lx);
    if (s.len >= MAX_NAME)
        fail(lx->c, s.off, "name too long");
    lex_next(lx);
    return s;
}

/* A possibly negative number; `-` then NUM.  Values above INT64_MAX are
 * accepted as their 64-bit two's complement pattern. */
static wmx_val parse_number(lexer *lx)
{
    int neg = 0, off = lx->tok.off;
    if (is_p(lx, '-')) {
        neg = 1;
        lex_next(lx);
    } else if (is_p(lx, '+')) {
        lex_next(lx);
    }
    if (lx->tok.k != T_NUM) {
        char d[80];
        fail(lx->c, lx->tok.off, "expected a number, found %s", tok_desc(lx, d, sizeof d));
    }
    uint64_t v = lx->tok.num;
    if (neg && v > (uint64_t)1 << 63)
        fail(lx->c, off, "number out of range");
    lex_next(lx);
    return neg ? (wmx_val)(0 - v) : (wmx_val)v;
}

/* ---- registers ------------------------------------------------------ */

/* Canonical registers: 0..7 the legacy eight, 8..15 r8..r15, 16 rip,
 * 17..22 segment registers. */
#define NREGS 23
static const char *const canon64[NREGS] = {
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "rip", "cs", "ds", "ss", "es", "fs", "gs"
};
static const char *const canon32[8] = {
    "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"
};

typedef struct { const char *name; int canon; int width; int high; } regname;

static const regname regtab[] = {
    { "rax", 0, 64, 0 }, { "eax", 0, 32, 0 }, { "ax", 0, 16, 0 }, { "al", 0, 8, 0 }, { "ah", 0, 8, 1 },
    { "rbx", 1, 64, 0 }, { "ebx", 1, 32, 0 }, { "bx", 1, 16, 0 }, { "bl", 1, 8, 0 }, { "bh", 1, 8, 1 },
    { "rcx", 2, 64, 0 }, { "ecx", 2, 32, 0 }, { "cx", 2, 16, 0 }, { "cl", 2, 8, 0 }, { "ch", 2, 8, 1 },
    { "rdx", 3, 64, 0 }, { "edx", 3, 32, 0 }, { "dx", 3, 16, 0 }, { "dl", 3, 8, 0 }, { "dh", 3, 8, 1 },
    { "rsi", 4, 64, 0 }, { "esi", 4, 32, 0 }, { "si", 4, 16, 0 }, { "sil", 4, 8, 0 },
    { "rdi", 5, 64, 0 }, { "edi", 5, 32, 0 }, { "di", 5, 16, 0 }, { "dil", 5, 8, 0 },
    { "rbp", 6, 64, 0 }, { "ebp", 6, 32, 0 }, { "bp", 6, 16, 0 }, { "bpl", 6, 8, 0 },
    { "rsp", 7, 64, 0 }, { "esp", 7, 32, 0 }, { "sp", 7, 16, 0 }, { "spl", 7, 8, 0 },
    { "rip", 16, 64, 0 }, { "eip", 16, 32, 0 }, { "ip", 16, 16, 0 },
    { "cs", 17, 16, 0 }, { "ds", 18, 16, 0 }, { "ss", 19, 16, 0 },
    { "es", 20, 16, 0 }, { "fs", 21, 16, 0 }, { "gs", 22, 16, 0 },
};
#define NREGTAB ((int)(sizeof regtab / sizeof regtab[0]))

/* Register operand descriptor: canonical index, width, high byte. */
typedef struct { int canon, width, high; } regref;

/* Encodes a register reference as one int (for operand.reg). */
static int reg_encode(regref r) { return r.canon * 1000 + r.width * 2 + r.high; }
static regref reg_decode(int x)
{
    regref r = { x / 1000, (x % 1000) / 2, x % 2 };
    return r;
}

/* Looks a register name up for the dialect; returns 0 when unknown. */
static int reg_lookup_name(const ctx *c, const char *name, regref *out)
{
    char n[16];
    size_t len = strlen(name);
    if (len == 0 || len >= sizeof n)
        return 0;
    for (size_t i = 0; i < len; i++)
        n[i] = (char)tolower((unsigned char)name[i]);
    n[len] = '\0';
    for (int i = 0; i < NREGTAB; i++) {
        if (strcmp(regtab[i].name, n) != 0)
            continue;
        if (c->dialect == D_X86 && (regtab[i].width > 32 || regtab[i].canon >= 8))
            return 0;
        out->canon = regtab[i].canon;
        out->width = regtab[i].width;
        out->high = regtab[i].high;
        return 1;
    }
    if (c->dialect == D_X86_64 && n[0] == 'r' && isdigit((unsigned char)n[1])) {
        int k = 1, v = 0;
        while (isdigit((unsigned char)n[k]) && k < 4)
            v = v * 10 + (n[k++] - '0');
        if (v < 8 || v > 15)
            return 0;
        int w = 64;
        if (n[k] == 'd' && !n[k + 1])
            w = 32;
        else if (n[k] == 'w' && !n[k + 1])
            w = 16;
        else if ((n[k] == 'b' || n[k] == 'l') && !n[k + 1])
            w = 8;
        else if (n[k])
            return 0;
        out->canon = v;
        out->width = w;
        out->high = 0;
        return 1;
    }
    return 0;
}

static int reg_lookup(const ctx *c, span s, regref *out)
{
    char n[16];
    if (s.len <= 0 || s.len >= (int)sizeof n)
        return 0;
    memcpy(n, c->buf + s.off, (size_t)s.len);
    n[s.len] = '\0';
    return reg_lookup_name(c, n, out);
}

static const char *reg_canon_name(const ctx *c, int canon)
{
    return c->dialect == D_X86 ? canon32[canon] : canon64[canon];
}

/* The register's full width in this dialect. */
static int full_width(const ctx *c) { return c->dialect == D_X86 ? 32 : 64; }

/* ---- IR helpers ----------------------------------------------------- */

static int e_const(ctx *c, wmx_val v) { return ir_const(c->p, v); }
static int e_bin(ctx *c, ir_op op, int a, int b) { return ir_binop(c->p, op, a, b); }
static int e_addr(ctx *c, int cell)
{
    int e = ir_const(c->p, cell);
    c->p->exprs[e].op = OP_ADDR;
    return e;
}
static int treg(ctx *c, const char *name) { return ir_thread_reg(c->p, c->cur_t, name); }
static int e_treg(ctx *c, const char *name) { return ir_reg(c->p, treg(c, name)); }

static int var_get(ctx *c, span name)
{
    char n[MAX_NAME + 1];
    if (name.len > MAX_NAME)
        fail(c, name.off, "name too long");
    memcpy(n, c->buf + name.off, (size_t)name.len);
    n[name.len] = '\0';
    int v = ir_find_var(c->p, n);
    if (v < 0)
        v = ir_add_var(c->p, n, 1);
    return v;
}

static int emit(ctx *c, ir_instr *in)
{
    int line, col;
    where(c, c->cur->off, &line, &col);
    in->loc.line = line;
    in->loc.col = col;
    in->text = c->text;
    return ir_add_instr(c->p, c->cur_t, in);
}

static ir_instr mk(ir_kind k)
{
    wmx_srcloc none = { 0, 0, 0 };
    return ir_instr_init(k, none);
}

static void emit_let(ctx *c, int dst, int e)
{
    ir_instr in = mk(I_LET);
    in.dst = dst;
    in.e1 = e;
    emit(c, &in);
}

/* Sign-extends the low `w` bits of e (w < 64). */
static int e_sext(ctx *c, int e, int w)
{
    if (w >= 64)
        return e;
    wmx_val mask = (wmx_val)(((uint64_t)1 << w) - 1);
    wmx_val sign = (wmx_val)((uint64_t)1 << (w - 1));
    return e_bin(c, OP_SUB, e_bin(c, OP_XOR, e_bin(c, OP_AND, e, e_const(c, mask)),
                                  e_const(c, sign)), e_const(c, sign));
}

/* Value of a register operand of width r.width. */
static int read_reg(ctx *c, regref r)
{
    int e = e_treg(c, reg_canon_name(c, r.canon));
    if (r.width >= full_width(c))
        return e;
    if (r.width == 32)
        return e_bin(c, OP_AND, e, e_const(c, 0xffffffff));
    if (r.high)
        e = e_bin(c, OP_SHR, e, e_const(c, 8));
    return e_bin(c, OP_AND, e, e_const(c, r.width == 16 ? 0xffff : 0xff));
}

/* Writes e into a register operand: 32-bit writes zero-extend (X86_64),
 * 8/16-bit writes merge into the old value. */
static void write_reg(ctx *c, regref r, int e)
{
    int dst = treg(c, reg_canon_name(c, r.canon));
    if (r.width >= full_width(c)) {
        emit_let(c, dst, e);
    } else if (r.width == 32) {
        emit_let(c, dst, e_bin(c, OP_AND, e, e_const(c, 0xffffffff)));
    } else {
        wmx_val m = r.width == 16 ? 0xffff : 0xff;
        int sh = r.high ? 8 : 0;
        int keep = e_bin(c, OP_AND, ir_reg(c->p, dst), e_const(c, ~(m << sh)));
        int put = e_bin(c, OP_AND, e, e_const(c, m));
        if (sh)
            put = e_bin(c, OP_SHL, put, e_const(c, sh));
        emit_let(c, dst, e_bin(c, OP_OR, keep, put));
    }
}

/* Masks an ALU result to the operation width (X86_64 only). */
static int e_width(ctx *c, int e, int w)
{
    if (c->dialect == D_X86 || w >= 64)
        return e;
    return e_bin(c, OP_AND, e, e_const(c, (wmx_val)(((uint64_t)1 << w) - 1)));
}

/* Byte address expression of a memory operand (for pointer operands and LEA). */
static int mem_ptr_expr(ctx *c, const operand *o)
{
    int e = -1;
    if (o->sym.len) {
        int v = var_get(c, o->sym);
        e = e_addr(c, c->p->vars[v].base);
    }
    if (o->base >= 0) {
        int r = e_treg(c, reg_canon_name(c, reg_decode(o->base).canon));
        e = e < 0 ? r : e_bin(c, OP_ADD, e, r);
    }
    if (o->index >= 0) {
        int r = e_treg(c, reg_canon_name(c, reg_decode(o->index).canon));
        if (o->scale != 1)
            r = e_bin(c, OP_MUL, r, e_const(c, o->scale));
        e = e < 0 ? r : e_bin(c, OP_ADD, e, r);
    }
    if (o->imm || e < 0)
        e = e < 0 ? e_const(c, o->imm) : e_bin(c, OP_ADD, e, e_const(c, o->imm));
    return e;
}

static ir_addr mem_addr(ctx *c, const operand *o)
{
    ir_addr a = { -1, -1, -1 };
    if (!o->sym.len && o->base < 0 && o->index < 0)
        fail(c, o->off, "absolute memory addresses are not supported");
    if (o->base < 0 && o->index < 0) {
        int v = var_get(c, o->sym);
        int es = c->p->vars[v].elem_size;
        if (o->imm == 0) {
            a.var = v;
            return a;
        }
        if (es > 0 && o->imm > 0 && o->imm % es == 0) {
            a.var = v;
            a.index = e_const(c, o->imm / es);
            return a;
        }
    }
    a.ptr = mem_ptr_expr(c, o);
    return a;
}

/* ---- operand parsing ------------------------------------------------- */

static void parse_reg_name(lexer *lx, operand *o)
{
    regref r;
    span s = tok_span(lx);
    if (lx->tok.k != T_IDENT) {
        char d[80];
        fail(lx->c, lx->tok.off, "expected a register, found %s", tok_desc(lx, d, sizeof d));
    }
    if (!reg_lookup(lx->c, s, &r)) {
        char n[64];
        fail(lx->c, s.off, "undeclared register '%s'", spanstr(lx->c, s, n, sizeof n));
    }
    o->kind = O_REG;
    o->reg = reg_encode(r);
    lex_next(lx);
}

static int size_word(const lexer *lx)
{
    if (lx->tok.k != T_IDENT)
        return 0;
    span s = tok_span(lx);
    if (span_ieq(lx->c, s, "BYTE")) return 8;
    if (span_ieq(lx->c, s, "WORD")) return 16;
    if (span_ieq(lx->c, s, "DWORD")) return 32;
    if (span_ieq(lx->c, s, "QWORD")) return 64;
    return 0;
}

static void operand_reset(operand *o, int off)
{
    memset(o, 0, sizeof *o);
    o->off = off;
    o->base = o->index = -1;
    o->scale = 1;
}

static int tok_is_reg(const lexer *lx, regref *r)
{
    return lx->tok.k == T_IDENT && reg_lookup(lx->c, tok_span(lx), r);
}

/* Intel: `[x]`, `[x+4]`, `[EAX]`, `[EBX+ECX*4+8]`, `$1`, `1`, `EAX`, `L0`. */
static void parse_operand_intel(lexer *lx, operand *o)
{
    ctx *c = lx->c;
    operand_reset(o, lx->tok.off);
    int w = size_word(lx);
    if (w) {
        token nx = lex_peek(lx);
        if (nx.k == T_IDENT && span_ieq(c, (span){ nx.off, nx.len }, "PTR")) {
            lex_next(lx);
            lex_next(lx);
            o->width = w;
        } else if (nx.k == T_PUNCT && nx.ch == '[') {
            lex_next(lx);
            o->width = w;
        }
    }
    regref r;
    if (is_p(lx, '[')) {
        lex_next(lx);
        o->kind = O_MEM;
        int sign = 1;
        for (;;) {
            if (tok_is_reg(lx, &r)) {
                int roff = lx->tok.off;
                if (sign < 0)
                    fail(c, roff, "cannot subtract a register in an address");
                lex_next(lx);
                if (is_p(lx, '*')) {
                    lex_next(lx);
                    wmx_val s = parse_number(lx);
                    if (s < 0 || s > 8 || o->index >= 0)
                        fail(c, roff, "bad scaled index");
                    o->index = reg_encode(r);
                    o->scale = (int)s;
                } else if (o->base < 0) {
                    o->base = reg_encode(r);
                } else if (o->index < 0) {
                    o->index = reg_encode(r);
                } else {
                    fail(c, roff, "too many registers in address");
                }
            } else if (lx->tok.k == T_IDENT) {
                if (o->sym.len || sign < 0)
                    fail(c, lx->tok.off, "bad address expression");
                o->sym = expect_ident(lx, "a location");
            } else if (lx->tok.k == T_NUM) {
                wmx_val v = parse_number(lx);
                o->imm = (wmx_val)(sign < 0 ? (uint64_t)o->imm - (uint64_t)v
                                            : (uint64_t)o->imm + (uint64_t)v);
            } else {
                char d[80];
                fail(c, lx->tok.off, "expected an address, found %s", tok_desc(lx, d, sizeof d));
            }
            if (is_p(lx, '+')) {
                sign = 1;
                lex_next(lx);
            } else if (is_p(lx, '-')) {
                sign = -1;
                lex_next(lx);
            } else {
                expect(lx, ']', "']'");
                break;
            }
        }
    } else if (is_p(lx, '$')) {
        lex_next(lx);
        o->kind = O_IMM;
        if (lx->tok.k == T_IDENT)
            o->sym = expect_ident(lx, "a location");
        else
            o->imm = parse_number(lx);
    } else if (lx->tok.k == T_NUM || is_p(lx, '-')) {
        o->kind = O_IMM;
        o->imm = parse_number(lx);
    } else if (tok_is_reg(lx, &r)) {
        o->kind = O_REG;
        o->reg = reg_encode(r);
        lex_next(lx);
    } else if (lx->tok.k == T_IDENT) {
        o->kind = O_LABEL;
        o->sym = expect_ident(lx, "a label");
    } else {
        char d[80];
        fail(c, lx->tok.off, "expected an operand, found %s", tok_desc(lx, d, sizeof d));
    }
}

/* AT&T: `$1`, `$x`, `%eax`, `(x)`, `x`, `8(%rax,%rbx,8)`, `%cs:0(%rax)`, `2`. */
static void parse_operand_att(lexer *lx, operand *o)
{
    ctx *c = lx->c;
    operand_reset(o, lx->tok.off);
    int seg = 0;
    if (is_p(lx, '$')) {
        lex_next(lx);
        o->kind = O_IMM;
        if (lx->tok.k == T_IDENT)
            o->sym = expect_ident(lx, "a location");
        else
            o->imm = parse_number(lx);
        return;
    }
    if (is_p(lx, '%')) {
        lex_next(lx);
        parse_reg_name(lx, o);
        if (!is_p(lx, ':'))
            return;
        /* segment override: the memory reference follows */
        lex_next(lx);
        operand_reset(o, o->off);
        seg = 1;
    }
    int have_disp = 0;
    if (lx->tok.k == T_IDENT) {
        o->sym = expect_ident(lx, "a location");
        have_disp = 1;
        if (is_p(lx, '+') || is_p(lx, '-'))
            o->imm = parse_number(lx);
    } else if (lx->tok.k == T_NUM || is_p(lx, '-')) {
        o->imm = parse_number(lx);
        have_disp = 1;
    }
    if (!is_p(lx, '(')) {
        if (!have_disp) {
            char d[80];
            fail(c, lx->tok.off, "expected an operand, found %s", tok_desc(lx, d, sizeof d));
        }
        if (seg) {
            o->kind = O_MEM;
        } else if (o->sym.len) {
            o->kind = o->imm ? O_MEM : O_LABEL;
        } else {
            o->kind = O_IMM;     /* herd reads a bare number as an immediate */
        }
        return;
    }
    lex_next(lx);
    o->kind = O_MEM;
    if (is_p(lx, '%')) {
        lex_next(lx);
        operand t;
        operand_reset(&t, lx->tok.off);
        parse_reg_name(lx, &t);
        o->base = t.reg;
    } else if (lx->tok.k == T_IDENT) {
        if (o->sym.len)
            fail(c, lx->tok.off, "bad address expression");
        o->sym = expect_ident(lx, "a location");
    }
    if (is_p(lx, ',')) {
        lex_next(lx);
        if (is_p(lx, '%')) {
            lex_next(lx);
            operand t;
            operand_reset(&t, lx->tok.off);
            parse_reg_name(lx, &t);
            o->index = t.reg;
        }
        if (is_p(lx, ',')) {
            lex_next(lx);
            int soff = lx->tok.off;
            wmx_val s = parse_number(lx);
            if (s < 0 || s > 8)
                fail(c, soff, "bad scale");
            o->scale = (int)s;
        }
    }
    expect(lx, ')', "')'");
}

/* ---- mnemonics -------------------------------------------------------- */

enum {
    M_MOV, M_XCHG, M_XADD, M_CMPXCHG, M_ADD, M_SUB, M_AND, M_OR, M_XOR,
    M_IMUL, M_SHL, M_SHR, M_SAR, M_INC, M_DEC, M_NEG, M_NOT, M_CMP, M_TEST,
    M_JMP, M_JCC, M_SETCC, M_MFENCE, M_NOP, M_RET, M_LEA
};

static const struct { const char *n; int m; } mtab[] = {
    { "MOV", M_MOV }, { "MOVABS", M_MOV }, { "XCHG", M_XCHG }, { "XADD", M_XADD },
    { "CMPXCHG", M_CMPXCHG }, { "ADD", M_ADD }, { "SUB", M_SUB }, { "AND", M_AND },
    { "OR", M_OR }, { "XOR", M_XOR }, { "IMUL", M_IMUL }, { "SHL", M_SHL },
    { "SAL", M_SHL }, { "SHR", M_SHR }, { "SAR", M_SAR }, { "INC", M_INC },
    { "DEC", M_DEC }, { "NEG", M_NEG }, { "NOT", M_NOT }, { "CMP", M_CMP },
    { "TEST", M_TEST }, { "JMP", M_JMP }, { "MFENCE", M_MFENCE },
    { "LFENCE", M_NOP }, { "SFENCE", M_NOP }, { "NOP", M_NOP },
    { "ENDBR64", M_NOP }, { "ENDBR32", M_NOP }, { "PAUSE", M_NOP },
    { "RET", M_RET }, { "LEA", M_LEA },
};

enum { CC_E, CC_NE, CC_L, CC_LE, CC_G, CC_GE, CC_B, CC_BE, CC_A, CC_AE, CC_S, CC_NS };

static const struct { const char *n; int cc; } cctab[] = {
    { "E", CC_E }, { "Z", CC_E }, { "NE", CC_NE }, { "NZ", CC_NE },
    { "L", CC_L }, { "NGE", CC_L }, { "LE", CC_LE }, { "NG", CC_LE },
    { "G", CC_G }, { "NLE", CC_G }, { "GE", CC_GE }, { "NL", CC_GE },
    { "B", CC_B }, { "NAE", CC_B }, { "C", CC_B }, { "BE", CC_BE }, { "NA", CC_BE },
    { "A", CC_A }, { "NBE", CC_A }, { "AE", CC_AE }, { "NB", CC_AE }, { "NC", CC_AE },
    { "S", CC_S }, { "NS", CC_NS },
};

static int cc_lookup(const char *s)
{
    for (size_t i = 0; i < sizeof cctab / sizeof cctab[0]; i++)
        if (strcmp(cctab[i].n, s) == 0)
            return cctab[i].cc;
    return -1;
}

static int mn_exact(const char *mn, int *cc)
{
    for (size_t i = 0; i < sizeof mtab / sizeof mtab[0]; i++)
        if (strcmp(mtab[i].n, mn) == 0)
            return mtab[i].m;
    if (mn[0] == 'J' && (*cc = cc_lookup(mn + 1)) >= 0)
        return M_JCC;
    if (strncmp(mn, "SET", 3) == 0 && (*cc = cc_lookup(mn + 3)) >= 0)
        return M_SETCC;
    return -1;
}

/* Resolves an upper-case mnemonic, with an optional AT&T size suffix. */
static int mn_resolve(const char *mn, int *cc, int *width)
{
    *width = 0;
    *cc = -1;
    int m = mn_exact(mn, cc);
    if (m >= 0)
        return m;
    size_t n = strlen(mn);
    if (n < 2 || !strchr("BWLQ", mn[n - 1]))
        return -1;
    char base[24];
    memcpy(base, mn, n - 1);
    base[n - 1] = '\0';
    m = mn_exact(base, cc);
    if (m < 0 || m == M_JCC || m == M_SETCC)
        return -1;
    switch (mn[n - 1]) {
    case 'B': *width = 8; break;
    case 'W': *width = 16; break;
    case 'L': *width = 32; break;
    default:  *width = 64; break;
    }
    return m;
}

static int reads_flags(const pinstr *pi)
{
    int cc, w;
    int m = mn_resolve(pi->mn, &cc, &w);
    return m == M_JCC || m == M_SETCC;
}

/* ---- instruction parsing (one table cell) ----------------------------- */

static void add_label(ctx *c, span name)
{
    char n[64];
    for (int i = 0; i < c->nlabels; i++)
        if (c->labels[i].name.len == name.len &&
            memcmp(c->buf + c->labels[i].name.off, c->buf + name.off, (size_t)name.len) == 0)
            fail(c, name.off, "label '%s' defined twice", spanstr(c, name, n, sizeof n));
    GROW(c->labels, c->nlabels, c->cap_labels);
    c->labels[c->nlabels].name = name;
    c->labels[c->nlabels].pidx = c->npi;
    c->nlabels++;
}

static void parse_cell(ctx *c, int off, int end)
{
    lexer lx;
    lex_init(&lx, c, off, end);
    while (lx.tok.k == T_IDENT) {
        token nx = lex_peek(&lx);
        if (!(nx.k == T_PUNCT && nx.ch == ':'))
            break;
        span name = expect_ident(&lx, "a label");
        add_label(c, name);
        lex_next(&lx);
    }
    if (lx.tok.k == T_EOF)
        return;
    pinstr pi;
    memset(&pi, 0, sizeof pi);
    pi.off = lx.tok.off;
    pi.end = end;
    while (pi.end > pi.off && isspace((unsigned char)c->buf[pi.end - 1]))
        pi.end--;
    for (int pass = 0; pass < 2; pass++) {
        if (lx.tok.k != T_IDENT) {
            char d[80];
            fail(c, lx.tok.off, "expected an instruction, found %s", tok_desc(&lx, d, sizeof d));
        }
        span mn = tok_span(&lx);
        char n[64];
        if (mn.len >= (int)sizeof pi.mn)
            fail(c, mn.off, "unknown instruction '%s'", spanstr(c, mn, n, sizeof n));
        for (int i = 0; i < mn.len; i++)
            pi.mn[i] = (char)toupper((unsigned char)c->buf[mn.off + i]);
        pi.mn[mn.len] = '\0';
        lex_next(&lx);
        if (pass == 0 && strcmp(pi.mn, "LOCK") == 0) {
            pi.lock = 1;
            continue;
        }
        int cc, w;
        if (mn_resolve(pi.mn, &cc, &w) < 0)
            fail(c, mn.off, "unknown instruction '%s'", spanstr(c, mn, n, sizeof n));
        break;
    }
    while (lx.tok.k != T_EOF) {
        if (pi.nops == 3)
            fail(c, lx.tok.off, "too many operands");
        if (c->dialect == D_X86)
            parse_operand_intel(&lx, &pi.ops[pi.nops]);
        else
            parse_operand_att(&lx, &pi.ops[pi.nops]);
        pi.nops++;
        if (lx.tok.k == T_EOF)
            break;
        expect(&lx, ',', "',' or end of instruction");
        if (lx.tok.k == T_EOF)
            fail(c, lx.tok.off, "expected an operand after ','");
    }
    if (c->dialect == D_X86_64)
        for (int i = 0; i < pi.nops / 2; i++) {
            operand t = pi.ops[i];
            pi.ops[i] = pi.ops[pi.nops - 1 - i];
            pi.ops[pi.nops - 1 - i] = t;
        }
    GROW(c->pi, c->npi, c->cap_pi);
    c->pi[c->npi++] = pi;
}

/* ---- instruction semantics -------------------------------------------- */

static int val_of(ctx *c, const operand *o);

/* Loads a memory operand into the hidden register $tmp. */
static int load_tmp(ctx *c, const operand *o)
{
    ir_instr in = mk(I_LOAD);
    in.addr = mem_addr(c, o);
    in.dst = treg(c, "$tmp");
    emit(c, &in);
    return e_treg(c, "$tmp");
}

/* Value of a source operand (a memory operand is loaded into $tmp). */
static int val_of(ctx *c, const operand *o)
{
    switch (o->kind) {
    case O_IMM:
        if (o->sym.len) {
            int v = var_get(c, o->sym);
            int e = e_addr(c, c->p->vars[v].base);
            return o->imm ? e_bin(c, OP_ADD, e, e_const(c, o->imm)) : e;
        }
        return e_const(c, o->imm);
    case O_REG:
        return read_reg(c, reg_decode(o->reg));
    case O_MEM:
        return load_tmp(c, o);
    default:
        fail(c, o->off, "bad operand");
    }
}

static void set_flags(ctx *c, int a, int b, int w)
{
    if (w < 64)
        a = e_sext(c, a, w), b = e_sext(c, b, w);
    emit_let(c, treg(c, "$cmp_a"), a);
    emit_let(c, treg(c, "$cmp_b"), b);
}

static int cc_expr(ctx *c, int cc)
{
    int a = e_treg(c, "$cmp_a"), b = e_treg(c, "$cmp_b");
    int ua, ub;
    switch (cc) {
    case CC_E:  return e_bin(c, OP_EQ, a, b);
    case CC_NE: return e_bin(c, OP_NE, a, b);
    case CC_L:  return e_bin(c, OP_LT, a, b);
    case CC_LE: return e_bin(c, OP_LE, a, b);
    case CC_G:  return e_bin(c, OP_GT, a, b);
    case CC_GE: return e_bin(c, OP_GE, a, b);
    case CC_S:  return e_bin(c, OP_LT, e_bin(c, OP_SUB, a, b), e_const(c, 0));
    case CC_NS: return e_bin(c, OP_GE, e_bin(c, OP_SUB, a, b), e_const(c, 0));
    default: break;
    }
    /* unsigned comparisons: flip the sign bit, compare signed */
    ua = e_bin(c, OP_XOR, a, e_const(c, INT64_MIN));
    ub = e_bin(c, OP_XOR, b, e_const(c, INT64_MIN));
    switch (cc) {
    case CC_B:  return e_bin(c, OP_LT, ua, ub);
    case CC_BE: return e_bin(c, OP_LE, ua, ub);
    case CC_A:  return e_bin(c, OP_GT, ua, ub);
    default:    return e_bin(c, OP_GE, ua, ub);
    }
}

/* Arithmetic shift right of a (sign-extended from w bits) by count k. */
static int e_sar(ctx *c, int a, int k, int w)
{
    a = e_sext(c, a, w);
    int sign = ir_unop(c->p, OP_NEG, e_bin(c, OP_LT, a, e_const(c, 0)));
    int fill = e_bin(c, OP_SHL, e_bin(c, OP_SHL, sign, e_bin(c, OP_SUB, e_const(c, 63), k)),
                     e_const(c, 1));
    return e_bin(c, OP_OR, e_bin(c, OP_SHR, a, k), fill);
}

/* result = a OP b for the two-operand ALU instructions. */
static int alu_expr(ctx *c, int m, int a, int b, int w)
{
    switch (m) {
    case M_ADD:  return e_bin(c, OP_ADD, a, b);
    case M_SUB:  return e_bin(c, OP_SUB, a, b);
    case M_AND:  return e_bin(c, OP_AND, a, b);
    case M_OR:   return e_bin(c, OP_OR, a, b);
    case M_XOR:  return e_bin(c, OP_XOR, a, b);
    case M_IMUL: return e_bin(c, OP_MUL, a, b);
    case M_SHL:
    case M_SHR:
    case M_SAR: {
        int k = e_bin(c, OP_AND, b, e_const(c, w == 64 ? 63 : 31));
        if (m == M_SAR)
            return e_sar(c, a, k, w);
        return e_bin(c, m == M_SHL ? OP_SHL : OP_SHR, a, k);
    }
    case M_INC:  return e_bin(c, OP_ADD, a, e_const(c, 1));
    case M_DEC:  return e_bin(c, OP_SUB, a, e_const(c, 1));
    case M_NEG:  return ir_unop(c->p, OP_NEG, a);
    case M_NOT:  return ir_unop(c->p, OP_BNOT, a);
    default:     return a;
    }
}

static void need_ops(ctx *c, const pinstr *pi, int lo, int hi)
{
    if (pi->nops < lo || pi->nops > hi) {
        if (lo == hi)
            fail(c, pi->off, "%s takes %d operand%s", pi->mn, lo, lo == 1 ? "" : "s");
        fail(c, pi->off, "%s takes %d to %d operands", pi->mn, lo, hi);
    }
}

static void need_kind(ctx *c, const operand *o, int k1, int k2, const char *what)
{
    if (o->kind != k1 && o->kind != k2)
        fail(c, o->off, "expected %s", what);
}

/* A locked read-modify-write the IR has no primitive for: LOAD $tmp, then a
 * CAS from $tmp to f($tmp), and block unless it succeeded.  Every surviving
 * execution performed the update atomically. */
static void locked_update(ctx *c, ir_addr a, int m, int src, int w)
{
    ir_instr ld = mk(I_LOAD);
    ld.addr = a;
    ld.dst = treg(c, "$tmp");
    emit(c, &ld);
    int old = e_treg(c, "$tmp");
    ir_instr cas = mk(I_CAS);
    cas.addr = a;
    cas.dst = treg(c, "$old");
    cas.dst2 = treg(c, "$ok");
    cas.e1 = old;
    cas.e2 = e_width(c, alu_expr(c, m, old, src, w), w);
    emit(c, &cas);
    ir_instr as = mk(I_ASSUME);
    as.e1 = e_treg(c, "$ok");
    emit(c, &as);
    if (c->has_cond)
        set_flags(c, e_width(c, alu_expr(c, m, old, src, w), w), e_const(c, 0), w);
}

static void emit_pinstr(ctx *c, pinstr *pi)
{
    int cc, sw;
    int m = mn_resolve(pi->mn, &cc, &sw);
    operand *o = pi->ops;
    int w = sw;
    if (m != M_JMP && m != M_JCC)
        for (int i = 0; i < pi->nops; i++)
            if (o[i].kind == O_LABEL)
                o[i].kind = O_MEM;    /* a bare symbol is a memory operand */
    for (int i = 0; i < pi->nops && !w; i++)
        if (o[i].kind == O_REG)
            w = reg_decode(o[i].reg).width;
    for (int i = 0; i < pi->nops && !w; i++)
        if (o[i].kind == O_MEM && o[i].width)
            w = o[i].width;
    if (!w)
        w = full_width(c);
    if (c->dialect == D_X86 && w == 32)
        w = 64;               /* X86 values are kept as plain integers */
    int nmem = 0;
    for (int i = 0; i < pi->nops; i++)
        nmem += o[i].kind == O_MEM;
    if (nmem > 1 && m != M_NOP)
        fail(c, pi->off, "at most one memory operand is allowed");
    if (pi->lock) {
        int ok = (m == M_XCHG || m == M_XADD || m == M_CMPXCHG || m == M_ADD || m == M_SUB ||
                  m == M_AND || m == M_OR || m == M_XOR || m == M_INC || m == M_DEC ||
                  m == M_NEG || m == M_NOT) && pi->nops >= 1 && o[0].kind == O_MEM;
        if (!ok)
            fail(c, pi->off, "LOCK prefix needs a read-modify-write instruction on memory");
    }

    ir_instr in;
    switch (m) {
    case M_NOP:
        in = mk(I_NOP);
        emit(c, &in);
        return;
    case M_MFENCE:
        need_ops(c, pi, 0, 0);
        in = mk(I_FENCE);
        emit(c, &in);
        return;
    case M_RET:
        in = mk(I_HALT);
        emit(c, &in);
        return;
    case M_JMP:
    case M_JCC:
        need_ops(c, pi, 1, 1);
        if (o[0].kind != O_LABEL)
            fail(c, o[0].off, "expected a label");
        in = mk(I_JUMP);
        if (m == M_JCC)
            in.e1 = cc_expr(c, cc);
        in.target = -1;
        GROW(c->fix, c->nfix, c->cap_fix);
        c->fix[c->nfix].ir = emit(c, &in);
        c->fix[c->nfix].name = o[0].sym;
        c->fix[c->nfix].off = o[0].off;
        c->nfix++;
        return;
    case M_SETCC:
        need_ops(c, pi, 1, 1);
        need_kind(c, &o[0], O_REG, O_REG, "a register");
        write_reg(c, reg_decode(o[0].reg), cc_expr(c, cc));
        return;
    case M_MOV:
        need_ops(c, pi, 2, 2);
        if (o[0].kind == O_REG) {
            regref d = reg_decode(o[0].reg);
            if (o[1].kind == O_MEM && d.width >= 32) {
                in = mk(I_LOAD);
                in.addr = mem_addr(c, &o[1]);
                in.dst = treg(c, reg_canon_name(c, d.canon));
                emit(c, &in);
            } else {
                write_reg(c, d, val_of(c, &o[1]));
            }
        } else if (o[0].kind == O_MEM) {
            need_kind(c, &o[1], O_IMM, O_REG, "an immediate or a register");
            in = mk(I_STORE);
            in.addr = mem_addr(c, &o[0]);
            in.e1 = val_of(c, &o[1]);
            emit(c, &in);
        } else {
            fail(c, o[0].off, "bad destination operand");
        }
        return;
    case M_LEA:
        need_ops(c, pi, 2, 2);
        need_kind(c, &o[0], O_REG, O_REG, "a register");
        need_kind(c, &o[1], O_MEM, O_MEM, "a memory operand");
        write_reg(c, reg_decode(o[0].reg), mem_ptr_expr(c, &o[1]));
        return;
    case M_XCHG: {
        need_ops(c, pi, 2, 2);
        const operand *mo = o[0].kind == O_MEM ? &o[0] : &o[1];
        const operand *ro = o[0].kind == O_MEM ? &o[1] : &o[0];
        need_kind(c, ro, O_REG, O_REG, "a register");
        if (mo->kind == O_MEM) {
            regref r = reg_decode(ro->reg);
            in = mk(I_XCHG);
            in.addr = mem_addr(c, mo);
            in.dst = treg(c, reg_canon_name(c, r.canon));
            in.e1 = read_reg(c, r);
            emit(c, &in);
        } else {
            need_kind(c, mo, O_REG, O_REG, "a register");
            regref a = reg_decode(o[0].reg), b = reg_decode(o[1].reg);
            emit_let(c, treg(c, "$tmp"), read_reg(c, a));
            write_reg(c, a, read_reg(c, b));
            write_reg(c, b, e_treg(c, "$tmp"));
        }
        return;
    }
    case M_XADD: {
        need_ops(c, pi, 2, 2);
        need_kind(c, &o[1], O_REG, O_REG, "a register");
        regref s = reg_decode(o[1].reg);
        if (o[0].kind == O_MEM) {
            ir_addr a = mem_addr(c, &o[0]);
            if (pi->lock) {
                in = mk(I_FAA);
                in.addr = a;
                in.dst = treg(c, reg_canon_name(c, s.canon));
                if (c->has_cond) {
                    /* keep the addend: the flags need old + addend */
                    emit_let(c, treg(c, "$tmp"), read_reg(c, s));
                    in.e1 = e_treg(c, "$tmp");
                } else {
                    in.e1 = read_reg(c, s);
                }
                emit(c, &in);
                if (c->has_cond)
                    set_flags(c, e_width(c, e_bin(c, OP_ADD, read_reg(c, s), in.e1), w),
                              e_const(c, 0), w);
            } else {
                int old = load_tmp(c, &o[0]);
                int sum = e_width(c, e_bin(c, OP_ADD, old, read_reg(c, s)), w);
                in = mk(I_STORE);
                in.addr = a;
                in.e1 = sum;
                emit(c, &in);
                write_reg(c, s, old);
                if (c->has_cond)
                    set_flags(c, sum, e_const(c, 0), w);
            }
        } else {
            need_kind(c, &o[0], O_REG, O_REG, "a register or memory operand");
            regref d = reg_decode(o[0].reg);
            emit_let(c, treg(c, "$tmp"), e_bin(c, OP_ADD, read_reg(c, d), read_reg(c, s)));
            write_reg(c, s, read_reg(c, d));
            write_reg(c, d, e_treg(c, "$tmp"));
            if (c->has_cond)
                set_flags(c, read_reg(c, d), e_const(c, 0), w);
        }
        return;
    }
    case M_CMPXCHG: {
        need_ops(c, pi, 2, 2);
        need_kind(c, &o[1], O_REG, O_REG, "a register");
        regref s = reg_decode(o[1].reg);
        regref acc = { 0, s.width, 0 };
        int zf = treg(c, "$zf");
        if (o[0].kind == O_MEM) {
            ir_addr a = mem_addr(c, &o[0]);
            if (pi->lock) {
                in = mk(I_CAS);
                in.addr = a;
                in.dst = treg(c, reg_canon_name(c, 0));
                in.e1 = read_reg(c, acc);
                in.e2 = read_reg(c, s);
                in.dst2 = zf;
                emit(c, &in);
            } else {
                /* not atomic: read, compare, write back (old value on failure) */
                int old = load_tmp(c, &o[0]);
                emit_let(c, zf, e_bin(c, OP_EQ, old, read_reg(c, acc)));
                in = mk(I_STORE);
                in.addr = a;
                in.e1 = e_bin(c, OP_ADD, old, e_bin(c, OP_MUL, ir_reg(c->p, zf),
                                                      e_bin(c, OP_SUB, read_reg(c, s), old)));
                emit(c, &in);
                write_reg(c, acc, old);
            }
        } else {
            need_kind(c, &o[0], O_REG, O_REG, "a register or memory operand");
            regref d = reg_decode(o[0].reg);
            emit_let(c, treg(c, "$tmp"), read_reg(c, d));
            emit_let(c, zf, e_bin(c, OP_EQ, e_treg(c, "$tmp"), read_reg(c, acc)));
            int t = e_treg(c, "$tmp");
            write_reg(c, d, e_bin(c, OP_ADD, t, e_bin(c, OP_MUL, ir_reg(c->p, zf),
                                                         e_bin(c, OP_SUB, read_reg(c, s), t))));
            write_reg(c, acc, e_treg(c, "$tmp"));
        }
        if (c->has_cond) {
            emit_let(c, treg(c, "$cmp_a"), ir_reg(c->p, zf));
            emit_let(c, treg(c, "$cmp_b"), e_const(c, 1));
        }
        return;
    }
    case M_CMP:
    case M_TEST: {
        need_ops(c, pi, 2, 2);
        int a = val_of(c, &o[0]);
        int b = val_of(c, &o[1]);
        if (m == M_TEST)
            set_flags(c, e_bin(c, OP_AND, a, b), e_const(c, 0), w);
        else
            set_flags(c, a, b, w);
        return;
    }
    default:
        break;
    }

    /* ALU: ADD SUB AND OR XOR IMUL SHL SHR SAR INC DEC NEG NOT */
    int unary = m == M_INC || m == M_DEC || m == M_NEG || m == M_NOT;
    if (unary)
        need_ops(c, pi, 1, 1);
    else if (m == M_IMUL)
        need_ops(c, pi, 2, 3);
    else if (m == M_SHL || m == M_SHR || m == M_SAR)
        need_ops(c, pi, 1, 2);
    else
        need_ops(c, pi, 2, 2);
    operand one;
    operand_reset(&one, pi->off);
    one.kind = O_IMM;
    one.imm = 1;
    const operand *srco = unary ? &one : pi->nops == 1 ? &one : &o[1];
    if (o[0].kind == O_REG) {
        regref d = reg_decode(o[0].reg);
        int src = val_of(c, srco);
        int a = read_reg(c, d);
        if (m == M_IMUL && pi->nops == 3) {
            need_kind(c, &o[2], O_IMM, O_IMM, "an immediate");
            a = src;
            src = val_of(c, &o[2]);
        }
        int r = alu_expr(c, m, a, src, w);
        write_reg(c, d, r);
        if (c->has_cond)
            set_flags(c, read_reg(c, d), e_const(c, 0), w);
        return;
    }
    if (o[0].kind != O_MEM || m == M_IMUL)
        fail(c, o[0].off, "bad destination operand");
    if (srco->kind == O_MEM)
        fail(c, srco->off, "at most one memory operand is allowed");
    ir_addr a = mem_addr(c, &o[0]);
    int src = val_of(c, srco);
    if (pi->lock && (m == M_ADD || m == M_SUB || m == M_INC || m == M_DEC)) {
        in = mk(I_FAA);
        in.addr = a;
        in.e1 = (m == M_SUB || m == M_DEC) ? ir_unop(c->p, OP_NEG, src) : src;
        if (c->has_cond) {
            in.dst = treg(c, "$old");
            emit(c, &in);
            set_flags(c, e_width(c, e_bin(c, OP_ADD, e_treg(c, "$old"), in.e1), w),
                      e_const(c, 0), w);
        } else {
            emit(c, &in);
        }
        return;
    }
    if (pi->lock) {
        locked_update(c, a, m, src, w);
        return;
    }
    int old = load_tmp(c, &o[0]);
    int r = e_width(c, alu_expr(c, m, old, src, w), w);
    in = mk(I_STORE);
    in.addr = a;
    in.e1 = r;
    emit(c, &in);
    if (c->has_cond)
        set_flags(c, r, e_const(c, 0), w);
}

/* Parses and emits the instructions of thread t. */
static void build_thread(ctx *c, int t)
{
    c->npi = c->nlabels = c->nfix = 0;
    c->cur_t = t;
    for (int i = 0; i < c->ncells; i++)
        if (c->cells[i].thread == t)
            parse_cell(c, c->cells[i].off, c->cells[i].end);
    c->has_cond = 0;
    for (int i = 0; i < c->npi; i++)
        c->has_cond |= reads_flags(&c->pi[i]);
    for (int i = 0; i < c->npi; i++) {
        pinstr *pi = &c->pi[i];
        free(c->text);
        c->text = wmx_strndup(c->buf + pi->off, (size_t)(pi->end - pi->off));
        c->cur = pi;
        pi->first_ir = c->p->threads[t].ninstrs;
        emit_pinstr(c, pi);
    }
    free(c->text);
    c->text = NULL;
    ir_thread *th = &c->p->threads[t];
    for (int f = 0; f < c->nfix; f++) {
        int target = -1;
        for (int l = 0; l < c->nlabels; l++) {
            const label *lb = &c->labels[l];
            if (lb->name.len == c->fix[f].name.len &&
                memcmp(c->buf + lb->name.off, c->buf + c->fix[f].name.off, (size_t)lb->name.len) == 0) {
                target = lb->pidx < c->npi ? c->pi[lb->pidx].first_ir : th->ninstrs;
                break;
            }
        }
        if (target < 0) {
            char n[64];
            fail(c, c->fix[f].off, "undefined label '%s'", spanstr(c, c->fix[f].name, n, sizeof n));
        }
        th->instrs[c->fix[f].ir].target = target;
    }
}

/* ---- initial state ---------------------------------------------------- */

static const char *const type_words[] = {
    "int", "char", "short", "long", "unsigned", "signed", "int8_t", "uint8_t",
    "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "intptr_t", "uintptr_t", "atomic_int", "bool", "_Bool"
};

static int is_type_word(const ctx *c, span s)
{
    for (size_t i = 0; i < sizeof type_words / sizeof type_words[0]; i++)
        if (span_eq(c, s, type_words[i]))
            return 1;
    return 0;
}

static int type_size(const ctx *c, span s, int cur)
{
    char n[32];
    spanstr(c, s, n, sizeof n);
    if (strstr(n, "64") || strcmp(n, "long") == 0 || strstr(n, "ptr"))
        return 8;
    if (strstr(n, "32") || strcmp(n, "int") == 0 || strcmp(n, "atomic_int") == 0)
        return cur ? cur : 4;
    if (strstr(n, "16") || strcmp(n, "short") == 0)
        return 2;
    if (strstr(n, "8") || strcmp(n, "char") == 0 || strstr(n, "ool"))
        return 1;
    return cur;
}

static void parse_value(ctx *c, lexer *lx)
{
    GROW(c->vals, c->nvals, c->cap_vals);
    initval *v = &c->vals[c->nvals];
    memset(v, 0, sizeof *v);
    v->off = lx->tok.off;
    if (is_p(lx, '&'))
        lex_next(lx);
    if (lx->tok.k == T_IDENT)
        v->sym = expect_ident(lx, "a location");
    else
        v->v = parse_number(lx);
    c->nvals++;
}

/* `[type] lhs [= value]` */
static void parse_init_item(ctx *c, lexer *lx)
{
    initem it;
    memset(&it, 0, sizeof it);
    it.off = lx->tok.off;
    it.elem = -1;
    int typed = 0, esize = 0;
    while (lx->tok.k == T_IDENT) {
        token nx = lex_peek(lx);
        int next_word = nx.k == T_IDENT || (nx.k == T_PUNCT && nx.ch == '*');
        if (!(next_word || (nx.k == T_NUM && is_type_word(c, tok_span(lx)))))
            break;
        typed = 1;
        esize = type_size(c, tok_span(lx), esize);
        lex_next(lx);
        while (is_p(lx, '*')) {
            esize = 8;
            lex_next(lx);
        }
    }
    if (lx->tok.k == T_NUM) {
        uint64_t th = lx->tok.num;
        lex_next(lx);
        expect(lx, ':', "':' after a thread number");
        span rn = tok_span(lx);
        regref r;
        if (lx->tok.k != T_IDENT || !reg_lookup(c, rn, &r)) {
            char n[64];
            if (lx->tok.k != T_IDENT)
                fail(c, lx->tok.off, "expected a register");
            fail(c, rn.off, "undeclared register '%s'", spanstr(c, rn, n, sizeof n));
        }
        lex_next(lx);
        if (th >= MAX_THREADS)
            fail(c, it.off, "thread %llu does not exist", (unsigned long long)th);
        it.kind = IT_REG;
        it.thread = (int)th;
        it.reg = r.canon;
    } else {
        int br = is_p(lx, '[');
        if (br)
            lex_next(lx);
        it.kind = IT_MEM;
        it.name = expect_ident(lx, "a location");
        if (is_p(lx, '[')) {
            lex_next(lx);
            int noff = lx->tok.off;
            wmx_val n = parse_number(lx);
            if (typed && !br) {
                if (n < 1 || n > MAX_ARRAY)
                    fail(c, noff, "bad array size (1 to %d)", MAX_ARRAY);
                it.decl_len = (int)n;
            } else {
                if (n < 0 || n >= MAX_ARRAY)
                    fail(c, noff, "index out of range");
                it.elem = (int)n;
            }
            expect(lx, ']', "']'");
        } else if (typed) {
            it.decl_len = 1;
        }
        if (br)
            expect(lx, ']', "']'");
        it.elem_size = esize;
    }
    it.val0 = c->nvals;
    if (is_p(lx, '=')) {
        lex_next(lx);
        if (is_p(lx, '{')) {
            if (it.kind == IT_REG)
                fail(c, lx->tok.off, "a register takes a single value");
            lex_next(lx);
            if (!is_p(lx, '}'))
                for (;;) {
                    parse_value(c, lx);
                    if (!is_p(lx, ','))
                        break;
                    lex_next(lx);
                }
            expect(lx, '}', "'}'");
        } else {
            parse_value(c, lx);
        }
    } else if (!typed) {
        char d[80];
        fail(c, lx->tok.off, "expected '=', found %s", tok_desc(lx, d, sizeof d));
    }
    it.nvals = c->nvals - it.val0;
    GROW(c->items, c->nitems, c->cap_items);
    c->items[c->nitems++] = it;
}

static wmx_val init_value(ctx *c, const initval *v)
{
    if (!v->sym.len)
        return v->v;
    int var = var_get(c, v->sym);
    return ir_cell_address(c->p, c->p->vars[var].base);
}

static void apply_init(ctx *c)
{
    wmx_program *p = c->p;
    char n[MAX_NAME + 1];
    for (int i = 0; i < c->nitems; i++) {
        initem *it = &c->items[i];
        if (it->kind != IT_MEM || it->decl_len == 0)
            continue;
        spanstr(c, it->name, n, sizeof n);
        int v = ir_find_var(p, n);
        if (v >= 0) {
            if (p->vars[v].length != it->decl_len)
                fail(c, it->off, "'%s' declared twice with different sizes", n);
        } else {
            v = ir_add_var(p, n, it->decl_len);
        }
        if (it->elem_size)
            p->vars[v].elem_size = it->elem_size;
        if (p->ncells > MAX_CELLS)
            fail(c, it->off, "too many memory cells");
    }
    for (int i = 0; i < c->nitems; i++) {
        initem *it = &c->items[i];
        if (it->kind == IT_REG) {
            if (it->thread >= p->nthreads)
                fail(c, it->off, "thread %d does not exist", it->thread);
            int r = ir_thread_reg(p, it->thread, reg_canon_name(c, it->reg));
            /* init_value may declare a variable (ir_add_var reallocs), so
             * evaluate it before indexing anything of p */
            if (it->nvals) {
                wmx_val x = init_value(c, &c->vals[it->val0]);
                p->threads[it->thread].reg_init[r] = x;
            }
            continue;
        }
        int v = var_get(c, it->name);
        int first = it->elem < 0 ? 0 : it->elem;
        if (first + it->nvals > p->vars[v].length || first >= p->vars[v].length)
            fail(c, it->off, "too many initial values for '%s'", spanstr(c, it->name, n, sizeof n));
        for (int k = 0; k < it->nvals; k++) {
            /* not `p->cell_init[...] = init_value(...)`: init_value can declare
             * the variable it names, which reallocs cell_init (and vars) */
            wmx_val x = init_value(c, &c->vals[it->val0 + k]);
            p->cell_init[p->vars[v].base + first + k] = x;
        }
    }
}

/* ---- final condition -------------------------------------------------- */

/* Conditions and `locations` entries are read by core/cond.c, with the
 * dialect's register names (0:eax is 0:EAX) and herd's rule that naming a
 * location declares it. */

static int cond_reg(void *ud, int t, const char *name, char *msg, size_t n)
{
    ctx *c = ud;
    regref r;
    if (!reg_lookup_name(c, name, &r)) {
        snprintf(msg, n, "undeclared register '%s'", name);
        return -1;
    }
    return ir_thread_reg(c->p, t, reg_canon_name(c, r.canon));
}

static int cond_var(void *ud, const char *name, char *msg, size_t n)
{
    ctx *c = ud;
    int v = ir_find_var(c->p, name);
    return v >= 0 ? v : ir_add_var(c->p, name, 1);
}

/* Hands the text at the lexer's token to core/cond.c: parse_lhs reads
 * one entry, parse_prop a proposition; the lexer resumes after it. */
static int cond_read(ctx *c, lexer *lx, cond_lhs *l)
{
    cond_names names = { c->p, cond_reg, cond_var, c };
    cond_error ce;
    size_t end;
    int r = l ? cond_parse_lhs(c->buf, (size_t)c->len, (size_t)lx->tok.off, &names, l, &end, &ce)
              : cond_parse(c->buf, (size_t)c->len, (size_t)lx->tok.off, &names,
                           cond_out_program(c->p), &end, &ce);
    if (r < 0)
        fail(c, (int)ce.off, "%s", ce.msg);
    lex_init(lx, c, (int)end, c->len);
    c->last_end = (int)end;
    return r;
}

static void parse_lhs(ctx *c, lexer *lx, cond_lhs *l)
{
    cond_read(c, lx, l);
}

static int parse_prop(ctx *c, lexer *lx)
{
    return cond_read(c, lx, NULL);
}

static void parse_locations(ctx *c, lexer *lx)
{
    lex_next(lx);
    expect(lx, '[', "'['");
    while (!is_p(lx, ']')) {
        cond_lhs l;
        parse_lhs(c, lx, &l);
        wmx_program *p = c->p;
        p->observed = wmx_realloc(p->observed, (size_t)(p->nobserved + 1) * sizeof *p->observed);
        p->observed[p->nobserved++] = l;
        if (is_p(lx, ';'))
            lex_next(lx);
        else if (!is_p(lx, ']')) {
            char d[80];
            fail(c, lx->tok.off, "expected ';' or ']', found %s", tok_desc(lx, d, sizeof d));
        }
    }
    lex_next(lx);
}

static void parse_final(ctx *c, int pos)
{
    lexer lx;
    lex_init(&lx, c, pos, c->len);
    int have = 0;
    while (lx.tok.k != T_EOF) {
        if (is_id(&lx, "locations")) {
            parse_locations(c, &lx);
            continue;
        }
        if (is_id(&lx, "filter"))
            fail(c, lx.tok.off, "'filter' is not supported");
        if (have) {
            char d[80];
            fail(c, lx.tok.off, "unexpected %s after the final condition", tok_desc(&lx, d, sizeof d));
        }
        quantifier q;
        if (is_p(&lx, '~')) {
            lex_next(&lx);
            if (!is_id(&lx, "exists"))
                fail(c, lx.tok.off, "expected 'exists' after '~'");
            q = Q_NOT_EXISTS;
        } else if (is_id(&lx, "exists")) {
            q = Q_EXISTS;
        } else if (is_id(&lx, "forall")) {
            q = Q_FORALL;
        } else {
            char d[80];
            fail(c, lx.tok.off, "expected 'exists', '~exists', 'forall' or 'locations', found %s",
                 tok_desc(&lx, d, sizeof d));
        }
        lex_next(&lx);
        int start = lx.tok.off;
        int root = parse_prop(c, &lx);
        int end = c->last_end;
        c->p->quant = q;
        c->p->cond_root = root;
        /* the proposition as written, whitespace runs collapsed */
        char *t = wmx_malloc((size_t)(end - start) + 1);
        int n = 0;
        for (int i = start; i < end; i++) {
            char ch = c->buf[i];
            if (isspace((unsigned char)ch)) {
                if (n > 0 && t[n - 1] != ' ')
                    t[n++] = ' ';
            } else {
                t[n++] = ch;
            }
        }
        while (n > 0 && t[n - 1] == ' ')
            n--;
        t[n] = '\0';
        free(c->p->cond_text);
        c->p->cond_text = t;
        have = 1;
    }
}

/* ---- top level -------------------------------------------------------- */

static int at_word(const ctx *c, int pos, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(c->len - pos) < n || strncmp(c->buf + pos, w, n) != 0)
        return 0;
    return pos + (int)n >= c->len || !is_ident_char((unsigned char)c->buf[pos + (int)n]);
}

static void add_cell(ctx *c, int thread, int off, int end)
{
    while (off < end && isspace((unsigned char)c->buf[off]))
        off++;
    while (end > off && isspace((unsigned char)c->buf[end - 1]))
        end--;
    if (off == end)
        return;
    GROW(c->cells, c->ncells, c->cap_cells);
    c->cells[c->ncells].thread = thread;
    c->cells[c->ncells].off = off;
    c->cells[c->ncells].end = end;
    c->ncells++;
}

static void parse_all(ctx *c, const char *text, size_t len)
{
    if (len > (size_t)(1 << 28))
        fail(c, -1, "file too large");
    c->len = (int)len;
    c->buf = wmx_malloc(len + 1);
    memcpy(c->buf, text, len);
    c->buf[len] = '\0';
    char *b = c->buf;
    GROW(c->lines, c->nlines, c->cap_lines);
    c->lines[c->nlines++] = 0;
    for (int i = 0; i < c->len; i++)
        if (b[i] == '\n') {
            GROW(c->lines, c->nlines, c->cap_lines);
            c->lines[c->nlines++] = i + 1;
        }
    for (int i = 0; i < c->len; i++)
        if (b[i] == '\0')
            fail(c, i, "unexpected NUL byte");
    /* blank out comments (nested) */
    for (int i = 0; i + 1 < c->len; i++) {
        if (!(b[i] == '(' && b[i + 1] == '*'))
            continue;
        int start = i, depth = 0;
        while (i < c->len) {
            if (i + 1 < c->len && b[i] == '(' && b[i + 1] == '*') {
                depth++;
                b[i] = b[i + 1] = ' ';
                i += 2;
            } else if (i + 1 < c->len && b[i] == '*' && b[i + 1] == ')') {
                depth--;
                b[i] = b[i + 1] = ' ';
                i += 2;
                if (depth == 0)
                    break;
            } else {
                if (b[i] != '\n')
                    b[i] = ' ';
                i++;
            }
        }
        if (depth > 0)
            fail(c, start, "unterminated comment");
        i--;
    }

    /* header: arch and name */
    int pos = 0;
    if (c->len >= 3 && (unsigned char)b[0] == 0xEF && (unsigned char)b[1] == 0xBB &&
        (unsigned char)b[2] == 0xBF)
        pos = 3;
    while (pos < c->len && isspace((unsigned char)b[pos]))
        pos++;
    int aoff = pos;
    while (pos < c->len && !isspace((unsigned char)b[pos]))
        pos++;
    span arch = { aoff, pos - aoff };
    if (span_ieq(c, arch, "X86_64")) {
        c->dialect = D_X86_64;
    } else if (span_ieq(c, arch, "X86")) {
        c->dialect = D_X86;
    } else if (arch.len == 0) {
        fail(c, aoff, "empty file: expected 'X86' or 'X86_64'");
    } else {
        char n[64];
        fail(c, aoff, "unsupported architecture '%s' (expected X86 or X86_64)",
             spanstr(c, arch, n, sizeof n));
    }
    while (pos < c->len && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\r'))
        pos++;
    int noff = pos;
    while (pos < c->len && !isspace((unsigned char)b[pos]))
        pos++;
    if (pos == noff)
        fail(c, noff, "expected a test name after the architecture");
    {
        char *name = wmx_strndup(b + noff, (size_t)(pos - noff));
        c->p = ir_program_new(name, c->file, c->dialect == D_X86 ? "X86" : "X86_64");
        free(name);
    }
    while (pos < c->len && b[pos] != '\n')
        pos++;

    /* prelude: doc string, Key=value lines, up to '{' */
    for (;;) {
        while (pos < c->len && isspace((unsigned char)b[pos]))
            pos++;
        if (pos >= c->len)
            fail(c, pos, "expected '{' (the initial state)");
        if (b[pos] == '{')
            break;
        if (b[pos] == '"') {
            int q = pos++;
            while (pos < c->len && b[pos] != '"')
                pos++;
            if (pos >= c->len)
                fail(c, q, "unterminated string");
            pos++;
            continue;
        }
        if (at_word(c, pos, "P0"))
            fail(c, pos, "expected '{' (the initial state) before the thread table");
        while (pos < c->len && b[pos] != '\n')
            pos++;
    }

    /* initial state */
    lexer lx;
    lex_init(&lx, c, pos + 1, c->len);
    while (!is_p(&lx, '}')) {
        if (lx.tok.k == T_EOF)
            fail(c, pos, "unterminated initial state: expected '}'");
        if (is_p(&lx, ';')) {
            lex_next(&lx);
            continue;
        }
        parse_init_item(c, &lx);
        if (is_p(&lx, ';'))
            lex_next(&lx);
        else if (!is_p(&lx, '}')) {
            char d[80];
            fail(c, lx.tok.off, "expected ';' or '}', found %s", tok_desc(&lx, d, sizeof d));
        }
    }
    pos = lx.tok.off + 1;

    /* thread table header: P0 | P1 | ... ; */
    lex_init(&lx, c, pos, c->len);
    int nthreads = 0;
    for (;;) {
        char want[16];
        snprintf(want, sizeof want, "P%d", nthreads);
        if (!is_id(&lx, want)) {
            char d[80];
            fail(c, lx.tok.off, "expected '%s', found %s", want, tok_desc(&lx, d, sizeof d));
        }
        if (++nthreads > MAX_THREADS)
            fail(c, lx.tok.off, "too many threads");
        ir_add_thread(c->p, want);
        lex_next(&lx);
        if (is_p(&lx, ';'))
            break;
        expect(&lx, '|', "'|' or ';'");
    }
    pos = lx.tok.off + 1;

    /* rows: cells separated by '|', each row ended by ';' */
    for (;;) {
        while (pos < c->len && isspace((unsigned char)b[pos]))
            pos++;
        if (pos < c->len && b[pos] == '#') {
            while (pos < c->len && b[pos] != '\n')
                pos++;
            continue;
        }
        if (pos >= c->len || b[pos] == '~' || at_word(c, pos, "exists") ||
            at_word(c, pos, "forall") || at_word(c, pos, "locations") || at_word(c, pos, "filter"))
            break;
        int col = 0, cs = pos;
        poll_stop(c);
        while (pos < c->len && b[pos] != ';' && b[pos] != '\n') {
            if (b[pos] == '|') {
                if (col + 1 >= nthreads)
                    fail(c, pos, "more columns than threads (%d)", nthreads);
                add_cell(c, col, cs, pos);
                col++;
                cs = pos + 1;
            }
            pos++;
        }
        if (pos >= c->len || b[pos] != ';') {
            int e = pos;
            while (e > cs && isspace((unsigned char)b[e - 1]))
                e--;
            fail(c, e, "expected ';' at the end of the row");
        }
        add_cell(c, col, cs, pos);
        pos++;
    }
    int final_pos = pos;

    apply_init(c);
    for (int t = 0; t < nthreads; t++)
        build_thread(c, t);
    parse_final(c, final_pos);
}

static void ctx_free(ctx *c)
{
    ir_program_free(c->p);
    free(c->buf);
    free(c->lines);
    free(c->items);
    free(c->vals);
    free(c->cells);
    free(c->pi);
    free(c->labels);
    free(c->fix);
    free(c->text);
    free(c);
}

/* The only function that calls setjmp; it touches nothing but c. */
static int run_parse(ctx *c, const char *text, size_t len)
{
    c->src = text;
    c->srclen = len;
    if (setjmp(c->jb))
        return -1;
    parse_all(c, c->src, c->srclen);
    return 0;
}

wmx_program *litmus_parse(const char *text, size_t len, const char *file, wmx_error *err)
{
    return litmus_parse_stop(text, len, file, err, NULL);
}

wmx_program *litmus_parse_stop(const char *text, size_t len, const char *file, wmx_error *err,
                               const wmx_stop *stop)
{
    ctx *c = wmx_calloc(1, sizeof *c);
    c->err = err;
    c->stop = stop;
    c->file = file ? file : "";
    wmx_program *p = NULL;
    if (run_parse(c, text ? text : "", text ? len : 0) == 0) {
        p = c->p;
        c->p = NULL;
    }
    ctx_free(c);
    return p;
}

int litmus_detect(const char *text, size_t len)
{
    size_t i = 0;
    if (!text)
        return 0;
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        i = 3;
    while (i < len && isspace((unsigned char)text[i]))
        i++;
    static const char *const archs[] = { "X86_64", "X86" };
    for (int k = 0; k < 2; k++) {
        size_t n = strlen(archs[k]);
        if (len - i < n + 1)
            continue;
        size_t j = 0;
        while (j < n && toupper((unsigned char)text[i + j]) == archs[k][j])
            j++;
        if (j == n && (text[i + n] == ' ' || text[i + n] == '\t'))
            return 1;
    }
    return 0;
}
