/* lang.h - reader for wmx's native program language (.wmx files);
 * the grammar is documented in doc/language.md. */
#ifndef WMX_LANG_H
#define WMX_LANG_H

#include "ir.h"
#include "util.h"

/* Parses `len` bytes of `text` (need not be NUL-terminated; may contain
 * junk).  Returns a new program owned by the caller, or NULL with *err set
 * to the first problem (file:line:col). */
wmx_program *lang_parse(const char *text, size_t len, const char *file, wmx_error *err);
/* The same, polling stop (may be NULL) while it reads. */
wmx_program *lang_parse_stop(const char *text, size_t len, const char *file, wmx_error *err,
                             const wmx_stop *stop);

#endif
