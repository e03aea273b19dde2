/* litmus.h - reader for herd7 litmus tests, X86 (Intel syntax) and
 * X86_64 (AT&T syntax) dialects. */
#ifndef WMX_LITMUS_H
#define WMX_LITMUS_H

#include "ir.h"
#include "util.h"

/* Parses `len` bytes of `text` (need not be NUL-terminated; may contain
 * junk).  `file` is used in messages.  Returns a new program owned by the
 * caller, or NULL with *err set to the first problem (with line and column). */
wmx_program *litmus_parse(const char *text, size_t len, const char *file, wmx_error *err);
/* The same, polling stop (may be NULL) while it reads. */
wmx_program *litmus_parse_stop(const char *text, size_t len, const char *file, wmx_error *err,
                               const wmx_stop *stop);

/* True when the text looks like a litmus test (starts with X86/X86_64 ...). */
int litmus_detect(const char *text, size_t len);

#endif
