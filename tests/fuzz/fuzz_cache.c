/* fuzz_cache.c - libFuzzer target for the decoder of kept C translations
 * (core/cfront_cache.c's cfront_cache_decode, issue 47 §0): the bytes are
 * decoded, and a program that is accepted is run briefly by two explorers
 * under two models, so a decoded index out of range shows up (ASan).  The
 * corpus (tests/fuzz/corpus/cache) holds cfront_cache_encode's bytes for
 * C twins of tests/c; tests/unit/test_cache.c replays it with every byte
 * changed. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cfront_cache.h"
#include "explore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wmx_program *p = cfront_cache_decode(data, size);
    if (!p)
        return 0;
    char buf[256];
    for (int c = 0; c < p->ncells; c++)
        ir_cell_name(p, c, buf, sizeof buf);
    if (p->cond_root >= 0)
        ir_cond_format(p, p->cond_root, buf, sizeof buf);
    for (int k = 0; k < 2; k++) {
        explore_opts o;
        explore_opts_init(&o);
        o.model = k ? MODEL_TSO : MODEL_SC;
        o.algo = k ? ALGO_ODPOR : ALGO_RFSMC;
        o.max_traces = 3;
        o.timeout_s = 0.05;
        o.max_memory = (size_t)512 << 20;
        explore_result res;
        wmx_error err;
        explore_run(p, &o, &res, &err);
        explore_result_free(&res);
    }
    ir_program_free(p);
    return 0;
}
