/* util.c - allocation wrappers, error values, file helpers. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700  /* realpath */
#define _DEFAULT_SOURCE    /* madvise's MADV_HUGEPAGE */
#include "util.h"

#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *oom(size_t n)
{
    fprintf(stderr, "wmx: out of memory (%zu bytes)\n", n);
    abort();
}

void *wmx_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    return p ? p : oom(n);
}

void *wmx_calloc(size_t count, size_t n)
{
    void *p = calloc(count ? count : 1, n ? n : 1);
    return p ? p : oom(count * n);
}

void *wmx_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    return q ? q : oom(n);
}

static void *huge_table(size_t n)
{
    size_t whole = (n + WMX_HUGE_BLOCK - 1) & ~(size_t)(WMX_HUGE_BLOCK - 1);
    void *p = aligned_alloc(WMX_HUGE_BLOCK, whole);
    if (!p)
        return oom(whole);
#ifdef MADV_HUGEPAGE
    madvise(p, whole, MADV_HUGEPAGE);  /* advice: failure is harmless */
#endif
    return p;
}

void *wmx_huge_block(void)
{
    return huge_table(WMX_HUGE_BLOCK);
}

void *wmx_table_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return oom(SIZE_MAX);
    size_t n = count * size;
    if (n < WMX_HUGE_BLOCK / 2) {
        if (n < 64 << 10)
            return wmx_calloc(count, size);
        /* not calloc: its fresh pages are the kernel's shared zero page
         * until written, and a table read before it is written (a hash
         * probe, key |= bits) then takes a second fault per page, whose
         * copy flushes the TLB of every CPU the other workers run on */
        char *p = wmx_malloc(n);
        /* a write to each page first: the compiler turns malloc + memset
         * back into calloc */
        for (size_t i = 0; i < n; i += 4096)
            ((volatile char *)p)[i] = 0;
        memset(p, 0, n);
        return p;
    }
    void *p = huge_table(n);
    memset(p, 0, n);
    return p;
}

void *wmx_table_grow(void *p, size_t old, size_t n)
{
    if (n < WMX_HUGE_BLOCK / 2)
        return wmx_realloc(p, n);
    void *q = huge_table(n);
    if (p) {
        memcpy(q, p, old < n ? old : n);
        free(p);
    }
    return q;
}

char *wmx_strdup(const char *s)
{
    return wmx_strndup(s, strlen(s));
}

char *wmx_strndup(const char *s, size_t n)
{
    char *d = wmx_malloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *wmx_asprintf(const char *fmt, ...)
{
    if (!fmt)
        return wmx_strdup("");
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = wmx_malloc((size_t)(n < 0 ? 0 : n) + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void wmx_error_set(wmx_error *err, const char *file, int line, int col,
                   const char *fmt, ...)
{
    if (!err)
        return;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    err->limit = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

const char *wmx_error_format(const wmx_error *err, char *buf, size_t n)
{
    if (err->line > 0 && err->col > 0)
        snprintf(buf, n, "%s:%d:%d: %s", err->file, err->line, err->col, err->msg);
    else if (err->line > 0)
        snprintf(buf, n, "%s:%d: %s", err->file, err->line, err->msg);
    else if (err->file[0])
        snprintf(buf, n, "%s: %s", err->file, err->msg);
    else
        snprintf(buf, n, "%s", err->msg);
    return buf;
}

char *wmx_read_file(const char *path, size_t *len, wmx_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        wmx_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = wmx_malloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > ((size_t)64 << 20)) {
                wmx_error_set(err, path, 0, 0, "file too large (over 64 MiB)");
                free(buf);
                fclose(f);
                return NULL;
            }
            cap *= 2;
            buf = wmx_realloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        wmx_error_set(err, path, 0, 0, "read error: %s", strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

__attribute__((weak)) void wmx_temp_add(const char *path)
{
    (void)path;
}

__attribute__((weak)) void wmx_temp_drop(const char *path)
{
    (void)path;
}

__attribute__((weak)) void wmx_child_add(int pgid)
{
    (void)pgid;
}

__attribute__((weak)) void wmx_child_drop(int pgid)
{
    (void)pgid;
}

void wmx_temp_unlink(const char *path)
{
    unlink(path);
    wmx_temp_drop(path);
}

const char *wmx_tmpdir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

int wmx_write_file_atomic(const char *path, const char *data, size_t len, wmx_error *err)
{
    char *tmp = wmx_asprintf("%s.tmp.%ld", path, (long)getpid());
    wmx_temp_add(tmp);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        wmx_temp_drop(tmp);
        wmx_error_set(err, path, 0, 0, "cannot write: %s", strerror(errno));
        free(tmp);
        return -1;
    }
    /* the first failure's errno: later calls may overwrite it */
    int e = 0;
    errno = 0;
    if (fwrite(data, 1, len, f) != len && !e)
        e = errno ? errno : EIO;
    if (fflush(f) != 0 && !e)
        e = errno ? errno : EIO;
    if (fsync(fileno(f)) != 0 && errno != EINVAL && !e)
        e = errno;
    if (fclose(f) != 0 && !e)
        e = errno ? errno : EIO;
    if (!e && rename(tmp, path) != 0)
        e = errno;
    if (e) {
        wmx_error_set(err, path, 0, 0, "cannot write: %s", strerror(e));
        wmx_temp_unlink(tmp);
        free(tmp);
        return -1;
    }
    wmx_temp_drop(tmp);
    free(tmp);
    return 0;
}

static void merge_pass(char *a, char *tmp, size_t lo, size_t mid, size_t hi, size_t size,
                       int (*cmp)(const void *, const void *, void *), void *ctx)
{
    size_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (cmp(a + j * size, a + i * size, ctx) < 0)
            memcpy(tmp + (k++) * size, a + (j++) * size, size);
        else
            memcpy(tmp + (k++) * size, a + (i++) * size, size);
    }
    while (i < mid)
        memcpy(tmp + (k++) * size, a + (i++) * size, size);
    while (j < hi)
        memcpy(tmp + (k++) * size, a + (j++) * size, size);
    memcpy(a + lo * size, tmp + lo * size, (hi - lo) * size);
}

void wmx_sort(void *base, size_t n, size_t size,
              int (*cmp)(const void *a, const void *b, void *ctx), void *ctx)
{
    if (n < 2)
        return;
    char *tmp = wmx_malloc(n * size);
    for (size_t width = 1; width < n; width *= 2)
        for (size_t lo = 0; lo + width < n; lo += 2 * width) {
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge_pass(base, tmp, lo, lo + width, hi, size, cmp, ctx);
        }
    free(tmp);
}

void wmx_strbuf_vprintf(wmx_strbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = wmx_realloc(b->s, b->cap);
    }
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    b->len += (size_t)n;
}

void wmx_strbuf_printf(wmx_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wmx_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *wmx_path_relative(const char *target, const char *file)
{
    const char *slash = strrchr(file, '/');
    char *dir = slash ? wmx_strndup(file, slash == file ? 1 : (size_t)(slash - file)) : wmx_strdup(".");
    char *rt = realpath(target, NULL), *rd = realpath(dir, NULL);
    free(dir);
    char *out = NULL;
    if (rt && rd) {
        /* skip the whole components the two share, then climb out of the
         * rest of the directory and down to the target */
        size_t i = 0, common = 0;
        while (rt[i] && rt[i] == rd[i]) {
            if (rt[i] == '/')
                common = i + 1;
            i++;
        }
        if (rd[i] == '\0' && rt[i] == '/')
            common = i + 1;          /* the directory is a prefix of the target */
        if (common <= 1) {           /* nothing shared but the root */
            out = wmx_strdup(rt);
            free(rt);
            free(rd);
            return out;
        }
        /* when the directory is the target's prefix, common is one past
         * its end: nothing to climb, and rd[common] is beyond its buffer */
        size_t rdlen = strlen(rd);
        int ups = 0;
        for (size_t k = common; k < rdlen; k++)
            if (k == common || rd[k - 1] == '/')
                ups += rd[k] != '/';
        wmx_strbuf b = { 0 };
        for (int k = 0; k < ups; k++)
            wmx_strbuf_printf(&b, "../");
        wmx_strbuf_printf(&b, "%s", rt + common);
        out = b.s;
    }
    free(rt);
    free(rd);
    return out;
}
