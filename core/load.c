/* load.c - picks the right reader for a program file. */
#include "load.h"
#include "lang.h"
#include "litmus.h"

#include <stdlib.h>
#include <string.h>

bool wmx_file_may_be_pgas(const char *path)
{
    if (cfront_is_c_file(path))
        return false;
    size_t len = 0;
    wmx_error err = { 0 };
    char *text = wmx_read_file(path, &len, &err);
    if (!text)
        return true;                /* the reader will say what is wrong */
    /* a PGAS program says `ranks N;`; a litmus test never is one */
    bool may = false;
    if (!litmus_detect(text, len))
        for (size_t i = 0; i + 5 <= len && !may; i++)
            may = text[i] == 'r' && memcmp(text + i, "ranks", 5) == 0;
    free(text);
    return may;
}

wmx_program *wmx_load_program(const char *path, wmx_error *err)
{
    return wmx_load_program_stop(path, err, NULL);
}

wmx_program *wmx_load_program_stop(const char *path, wmx_error *err, const wmx_stop *stop)
{
    return wmx_load_program_c(path, NULL, err, stop);
}

wmx_program *wmx_load_program_c(const char *path, const cfront_opts *c, wmx_error *err, const wmx_stop *stop)
{
    if (cfront_is_c_file(path)) {
        cfront_opts with_stop = { 0 };
        if (c)
            with_stop = *c;
        with_stop.stop = stop;      /* bounds clang's run */
        return cfront_load(path, &with_stop, err);
    }
    size_t len = 0;
    char *text = wmx_read_file(path, &len, err);
    if (!text)
        return NULL;
    if (stop && stop->fn(stop->ud)) {
        free(text);
        wmx_error_set(err, path, 0, 0, "stopped while reading the file");
        err->limit = true;
        return NULL;
    }
    wmx_program *p = litmus_detect(text, len)
        ? litmus_parse_stop(text, len, path, err, stop)
        : lang_parse_stop(text, len, path, err, stop);
    free(text);
    return p;
}
