/* fuzz_lang.c - libFuzzer target for the .wmx reader: any bytes must give
 * either a program or an error, never a crash, a leak or a hang. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lang.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wmx_error err;
    memset(&err, 0, sizeof err);
    wmx_program *p = lang_parse((const char *)data, size, "fuzz.wmx", &err);
    if (p) {
        /* touch what the rest of wmx reads */
        char buf[512];
        if (p->quant != Q_NONE)
            ir_cond_format(p, p->cond_root, buf, sizeof buf);
        ir_program_free(p);
    } else {
        char buf[1024];
        wmx_error_format(&err, buf, sizeof buf);
    }
    return 0;
}
