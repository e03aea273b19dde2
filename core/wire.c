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

void wire_varint(wire *w, int64_t v)
{
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    unsigned char b[10];
    size_t n = 0;
    do {
        b[n] = (unsigned char)(z & 0x7f);
        z >>= 7;
        if (z)
            b[n] |= 0x80;
        n++;
    } while (z);
    wire_put(w, b, n);
}

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

int64_t wire_get_varint(wire_reader *r)
{
    uint64_t z = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (r->bad || r->at >= r->len) {
            r->bad = true;
            return 0;
        }
        unsigned char b = r->p[r->at++];
        z |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
    }
    r->bad = true;             /* more than 10 bytes */
    return 0;
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
