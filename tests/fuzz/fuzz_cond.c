/* fuzz_cond.c - libFuzzer target for the one reader of conditions
 * (core/cond.c: litmus and .wmx conditions, `check --outcome`, `until`),
 * issue 47 §8.  The bytes are a condition over a fixed program (the one
 * tests/fuzz_replay.sh replays the corpus on, through `wmx check
 * --outcome`): read as a whole string, as a proposition inside a longer
 * text, and as a `locations` lhs.  An accepted condition is formatted and
 * evaluated on a state; any text must give a condition or an error with an
 * offset inside the text, never a crash, a leak or unbounded recursion. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cond.h"
#include "lang.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* keep in step with tests/fuzz_replay.sh's cond.wmx */
static const char program[] =
    "var x = 0, y = 0, a[3];\n"
    "thread P0 { x = 1; r0 = y; a[1] = 2; }\n"
    "thread P1 { y = 1; r0 = x; r1 = a[2]; }\n";

static void use(wmx_program *p, const ir_cond *nodes, int root)
{
    char buf[512];
    if (!nodes)
        ir_cond_format(p, root, buf, sizeof buf);
    wmx_val r0[8] = { 1, 0 }, r1[8] = { 0, 1 };
    const wmx_val *regs[2] = { r0, r1 };
    wmx_val mem[16] = { 1, 1, 0, 2, 0 };
    if (p->ncells <= 16)
        (void)cond_eval(p, nodes, root, regs, mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wmx_error err;
    memset(&err, 0, sizeof err);
    wmx_program *p = lang_parse(program, sizeof program - 1, "cond.wmx", &err);
    if (!p)
        abort();
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    cond_names names = { p, NULL, NULL, NULL };
    cond_error ce;

    /* the whole string, as --outcome (stops at a NUL, as argv would) */
    int root = cond_parse_string(text, &names, cond_out_program(p), &ce);
    if (root >= 0)
        use(p, NULL, root);
    else if (ce.off > strlen(text))
        abort();

    /* a proposition inside a text (a litmus or .wmx condition), into a
     * list of the caller's own (an `until` in the explorer) */
    ir_cond *own = NULL;
    int nown = 0, capown = 0;
    cond_out out = { &own, &nown, &capown };
    size_t end = 0;
    root = cond_parse(text, size, 0, &names, out, &end, &ce);
    if (root >= 0) {
        if (end > size)
            abort();
        use(p, own, root);
    } else if (ce.off > size) {
        abort();
    }
    free(own);

    /* one lhs, as a `locations` list holds */
    cond_lhs l;
    if (cond_parse_lhs(text, size, 0, &names, &l, &end, &ce) == 0) {
        if (end > size || l.thread >= p->nthreads || l.cell >= p->ncells)
            abort();
    } else if (ce.off > size) {
        abort();
    }
    free(text);
    ir_program_free(p);
    return 0;
}
