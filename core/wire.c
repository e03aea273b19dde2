/* wire.c - byte buffers for messages between processes. */
#include "wire.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void wire_init(wire *w) { memset(w, 0, sizeof *w); }

void wire_free(wire *w)
{
    free(w->buf);
    wire_init(w);
}

void wire_reset(wire *w) { w->len = 0; }

void wire_put(wire *w, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 64;
        while (cap < w->len + n)
            cap *= 2;
        w->buf = wmx_realloc(w->buf, cap);
        w->cap = cap;
    }
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

void wire_i32(wire *w, int32_t v) { wire_put(w, &v, sizeof v); }
void wire_i64(wire *w, int64_t v) { wire_put(w, &v, sizeof v); }

void wire_str(wire *w, const char *s)
{
    if (!s) {
        wire_i32(w, -1);
        return;
    }
    size_t n = strlen(s);
    wire_i32(w, (int32_t)n);
    wire_put(w, s, n);
}

void wire_reader_init(wire_reader *r, const void *p, size_t len)
{
    r->p = p;
    r->len = len;
    r->at = 0;
    r->bad = false;
}

bool wire_get(wire_reader *r, void *out, size_t n)
{
    if (r->bad || n > r->len - r->at) {
        r->bad = true;
        memset(out, 0, n);
        return false;
    }
    memcpy(out, r->p + r->at, n);
    r->at += n;
    return true;
}

int32_t wire_get_i32(wire_reader *r)
{
    int32_t v;
    wire_get(r, &v, sizeof v);
    return v;
}

int64_t wire_get_i64(wire_reader *r)
{
    int64_t v;
    wire_get(r, &v, sizeof v);
    return v;
}

int wire_get_count(wire_reader *r, int max)
{
    int32_t v = wire_get_i32(r);
    if (r->bad || v < 0 || v > max) {
        r->bad = true;
        return -1;
    }
    return v;
}

char *wire_get_str(wire_reader *r)
{
    int32_t n = wire_get_i32(r);
    if (r->bad || n < 0 || (size_t)n > r->len - r->at) {
        if (n != -1)
            r->bad = true;
        return NULL;
    }
    char *s = wmx_strndup((const char *)r->p + r->at, (size_t)n);
    r->at += (size_t)n;
    return s;
}

bool wire_done(const wire_reader *r) { return !r->bad && r->at == r->len; }
