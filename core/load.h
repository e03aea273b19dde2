/* load.h - loads a program file, picking the reader by content. */
#ifndef WMX_LOAD_H
#define WMX_LOAD_H

#include "cfront.h"
#include "ir.h"
#include "util.h"

/* Reads and parses `path`: herd litmus when the text starts with an arch
 * name (X86, X86_64), the native language otherwise.  NULL + err on failure. */
wmx_program *wmx_load_program(const char *path, wmx_error *err);
/* Whether the file could be a PGAS program, without parsing it: false for
 * C files, litmus tests and programs that never say `ranks` (a quick scan,
 * so a command can pick its PGAS path before its limits are set). */
bool wmx_file_may_be_pgas(const char *path);
/* The same, polling stop (may be NULL): err->limit tells a stop from bad input. */
wmx_program *wmx_load_program_stop(const char *path, wmx_error *err, const wmx_stop *stop);
/* The same, with the C front end's options for a .c file (NULL = defaults). */
wmx_program *wmx_load_program_c(const char *path, const cfront_opts *c, wmx_error *err, const wmx_stop *stop);

#endif
