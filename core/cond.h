/* cond.h - the one reader of conditions: propositions over a final (or
 * current) state, as litmus tests, .wmx programs, `check --outcome` and the
 * explorer's `until` write them.
 *
 *   prop    := or ('=>' prop)?                    (right associative)
 *   or      := and (('\/' | '||') and)*
 *   and     := unary (('/\' | '&&') unary)*
 *   unary   := ('~' | '!' | 'not') unary | '(' prop ')' | 'true' | 'false' | atom
 *   atom    := lhs ('=' | '==' | '!=') value
 *   lhs     := THREAD ':' REG                     (P0:r0, 0:EAX, thread.1:r)
 *            | VAR | VAR '[' INT ']'              (x, a[1])
 *            | '[' lhs ']'                        ([x], [a[1]]: memory only)
 *   value   := ['-' | '+'] NUMBER                 (decimal or 0x hex)
 *            | ['&'] VAR                          (the address of VAR)
 *
 * THREAD is a thread's name or number.  Blanks and C comments may stand
 * between tokens.  `true`, `false` and `not` are words only where no `=`,
 * `:` or `[` follows (so a location may be called `not`).  Nesting (a
 * parenthesis, a negation, an operator of the tree) is at most
 * COND_MAX_DEPTH levels deep, so that neither the parser nor anything that
 * walks the tree later recurses without bound.
 *
 * Pure C11: no global state; names are resolved against the program, or
 * through a front end's own lookups (litmus: x86 register aliases,
 * locations declared by their first mention). */
#ifndef WMX_COND_H
#define WMX_COND_H

#include <stddef.h>

#include "ir.h"

#define COND_MAX_DEPTH 1000

/* Where the parsed nodes go: a program's conds, or a list of the caller's
 * own (a condition typed in the explorer leaves the program as it is). */
typedef struct cond_out {
    ir_cond **v;
    int *n, *cap;
} cond_out;

/* A program's own condition nodes (p->conds). */
cond_out cond_out_program(wmx_program *p);

/* How names are resolved.  p gives threads, registers and variables; the
 * optional hooks replace the lookup of a register or a variable: they return
 * the index, or -1 with a message in msg (empty: the default message). */
typedef struct cond_names {
    const wmx_program *p;
    int (*reg)(void *ud, int thread, const char *name, char *msg, size_t n);
    int (*var)(void *ud, const char *name, char *msg, size_t n);
    void *ud;
} cond_names;

typedef struct cond_error {
    size_t off;          /* byte offset in the text of what is wrong */
    char msg[400];
} cond_error;

/* Parses the proposition that starts at text[pos] (text has len bytes) and
 * stops before the first token that cannot continue it (a ';', the word
 * `locations`, the end).  Returns the root node's index in out and sets
 * *end just after the proposition's last token; -1 and *err when the text
 * is not a proposition (nodes parsed before the error stay in out). */
int cond_parse(const char *text, size_t len, size_t pos, const cond_names *names,
               cond_out out, size_t *end, cond_error *err);

/* Parses one lhs (a register or a memory location, as in a `locations`
 * list) at text[pos]; 0 and *l, *end, or -1 and *err. */
int cond_parse_lhs(const char *text, size_t len, size_t pos, const cond_names *names,
                   cond_lhs *l, size_t *end, cond_error *err);

/* A whole string (an --outcome, an `until`): an optional leading `exists`,
 * one proposition, nothing after it. */
int cond_parse_string(const char *s, const cond_names *names, cond_out out, cond_error *err);

/* Evaluates node c of nodes (NULL: p->conds) on registers regs[thread][reg]
 * and memory mem.  c < 0 is true. */
bool cond_eval(const wmx_program *p, const ir_cond *nodes, int c, const wmx_val *const *regs,
               const wmx_val *mem);

#endif
