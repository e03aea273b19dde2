/* fuzz_pgas.c - libFuzzer target for PGAS programs: the .wmx reader's PGAS
 * statements, then exploration and both robustness methods on whatever it
 * accepts, with small limits.  When both methods finish they must agree. */
#include <stddef.h>
#include <stdint.h>

#include "lang.h"
#include "pgas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wmx_error err;
    wmx_program *p = lang_parse((const char *)data, size, "fuzz.wmx", &err);
    if (!p)
        return 0;
    if (p->pgas_ranks > 0) {
        pgas_opts o;
        pgas_opts_init(&o);
        o.nranks = p->pgas_ranks > 3 ? 3 : p->pgas_ranks;
        o.max_states = 4000;
        pgas_explore_result er;
        (void)pgas_explore(p, &o, &er, &err);
        pgas_explore_result_free(&er);        /* the caller frees it, error or not */
        pgas_robust_result nf, search;
        int a = pgas_robust(p, PGAS_NF, &o, &nf, &err);
        int b = pgas_robust(p, PGAS_SEARCH, &o, &search, &err);
        if (a == 0 && b == 0 && nf.complete && search.complete && nf.robust != search.robust)
            __builtin_trap();        /* the two exact methods disagree */
        pgas_robust_result_free(&nf);
        pgas_robust_result_free(&search);
    }
    ir_program_free(p);
    return 0;
}
