/* fuzz_litmus.c - libFuzzer target for the herd7 litmus reader. */
#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "litmus.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wmx_error err;
    (void)litmus_detect((const char *)data, size);
    wmx_program *p = litmus_parse((const char *)data, size, "fuzz.litmus", &err);
    if (p) {
        /* exercise the condition printer on whatever was built */
        char buf[256];
        if (p->cond_root >= 0)
            ir_cond_format(p, p->cond_root, buf, sizeof buf);
        ir_program_free(p);
    }
    return 0;
}
