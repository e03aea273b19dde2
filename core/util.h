/* util.h - allocation and error values shared by the core.
 *
 * Every allocation in core/ goes through these wrappers: they abort with a
 * message on out-of-memory, so callers never handle NULL from them. */
#ifndef WMX_UTIL_H
#define WMX_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>

void *wmx_malloc(size_t n);
void *wmx_calloc(size_t count, size_t n);
void *wmx_realloc(void *p, size_t n);
/* WMX_HUGE_BLOCK bytes, aligned so that the kernel may back them with one
 * huge page (asked for where Linux allows it); freed with free().  For
 * tables filled at once: a fault per 4 KiB page cost a tenth of a long run
 * on a virtual machine. */
enum { WMX_HUGE_BLOCK = 2 << 20 };
void *wmx_huge_block(void);
/* A table of count*size zeroed bytes, and one grown from old to n bytes
 * (the rest unset).  From half a huge block up, the table is rounded to
 * whole huge blocks and aligned to them, so its pages fault in 2 MiB at a
 * time: malloc's big blocks are page- but not huge-aligned, and under a
 * virtual machine every 4 KiB fault (and the unmapping of the old table)
 * costs both workers of --jobs 2.  From 64 KiB up the table is zeroed by
 * writing it, never left to the kernel's zero page: a table read before it
 * is written then faults twice a page, the second time with a TLB flush
 * on every CPU the process runs on.  Freed with free(). */
void *wmx_table_calloc(size_t count, size_t size);
void *wmx_table_grow(void *p, size_t old, size_t n);
char *wmx_strdup(const char *s);
char *wmx_strndup(const char *s, size_t n);
/* printf into a fresh string owned by the caller */
char *wmx_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An error with its position: what `file:line:col: message` prints.
 * Parsers fill one in and return failure; the caller prints it. */
typedef struct wmx_error {
    char file[256];
    int line, col;      /* 0 = unknown */
    char msg[512];
    bool limit;         /* a limit (wmx_stop) ended the work, not bad input */
} wmx_error;

/* A stop condition long work polls (a command's --timeout, Ctrl-C): the
 * parsers call fn(ud) every so many tokens and give up with err->limit set
 * when it returns true.  NULL means never stop. */
typedef struct wmx_stop {
    bool (*fn)(void *ud);
    void *ud;
} wmx_stop;

void wmx_error_set(wmx_error *err, const char *file, int line, int col,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Formats "file:line:col: msg" (omitting unknown parts) into buf. */
const char *wmx_error_format(const wmx_error *err, char *buf, size_t n);

/* Reads a whole file into a NUL-terminated buffer; NULL (and err set) on
 * failure.  *len receives the length (may contain NUL bytes). */
char *wmx_read_file(const char *path, size_t *len, wmx_error *err);

/* Writes data to path atomically (temp file in the same directory, then
 * rename).  Returns 0 on success, -1 with err set. */
int wmx_write_file_atomic(const char *path, const char *data, size_t len, wmx_error *err);

/* Live temporary files.  Whoever makes a temp file registers it with
 * wmx_temp_add and ends it with wmx_temp_unlink (or wmx_temp_drop once it was
 * renamed), so that SIGINT/SIGTERM can remove what is left (issue 47 §7).
 * The process's registry and its signal-safe cleanup live in src/tempfiles.c;
 * core keeps no state: the defaults here (weak, for unit tests and fuzz
 * targets, which install no handler) do nothing. */
void wmx_temp_add(const char *path);
void wmx_temp_drop(const char *path);
/* Child process groups (clang's) to kill with SIGKILL on SIGTERM, so that
 * none outlives wmx and writes a scratch file after the cleanup. */
void wmx_child_add(int pgid);
void wmx_child_drop(int pgid);
/* unlink(path), then wmx_temp_drop(path) */
void wmx_temp_unlink(const char *path);
/* $TMPDIR when set and not empty, else "/tmp" */
const char *wmx_tmpdir(void);

/* A growing string: append with wmx_strbuf_printf; `s` (NULL while empty)
 * belongs to whoever holds the struct and is freed with free(). */
typedef struct wmx_strbuf {
    char *s;
    size_t len, cap;
} wmx_strbuf;

void wmx_strbuf_printf(wmx_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wmx_strbuf_vprintf(wmx_strbuf *b, const char *fmt, va_list ap);

/* Stable merge sort with a context pointer (C11 has no qsort_r). */
void wmx_sort(void *base, size_t n, size_t size,
              int (*cmp)(const void *a, const void *b, void *ctx), void *ctx);

/* The path of `target` as seen from the directory that holds `file` (which
 * need not exist yet), e.g. "../examples/sb.wmx"; NULL when either cannot be
 * resolved.  Traces store their program this way so they move with it. */
char *wmx_path_relative(const char *target, const char *file);

#endif
