/* load.c - picks the right reader for a program file. */
#include "load.h"
#include "lang.h"
#include "litmus.h"

#include <stdlib.h>

wmx_program *wmx_load_program(const char *path, wmx_error *err)
{
    size_t len = 0;
    char *text = wmx_read_file(path, &len, err);
    if (!text)
        return NULL;
    wmx_program *p = litmus_detect(text, len)
        ? litmus_parse(text, len, path, err)
        : lang_parse(text, len, path, err);
    free(text);
    return p;
}
