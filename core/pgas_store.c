/* pgas_store.c - open-addressing hash set of keys in one arena. */
#include "pgas_store.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const unsigned char *k, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= k[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

void pgas_store_init(pgas_store *s)
{
    memset(s, 0, sizeof *s);
    s->tcap = 1024;
    s->table = wmx_malloc(s->tcap * sizeof *s->table);
    memset(s->table, 0xff, s->tcap * sizeof *s->table);
}

void pgas_store_free(pgas_store *s)
{
    free(s->arena);
    free(s->off);
    free(s->len);
    free(s->parent);
    free(s->step);
    free(s->table);
    memset(s, 0, sizeof *s);
}

static void rehash(pgas_store *s)
{
    size_t cap = s->tcap * 2;
    int64_t *t = wmx_malloc(cap * sizeof *t);
    memset(t, 0xff, cap * sizeof *t);
    for (long i = 0; i < s->n; i++) {
        size_t h = (size_t)hash_bytes(s->arena + s->off[i], s->len[i]) & (cap - 1);
        while (t[h] >= 0)
            h = (h + 1) & (cap - 1);
        t[h] = i;
    }
    free(s->table);
    s->table = t;
    s->tcap = cap;
}

long pgas_store_add(pgas_store *s, const unsigned char *key, size_t len, long parent,
                    pgas_xstep step, bool *added)
{
    size_t h = (size_t)hash_bytes(key, len) & (s->tcap - 1);
    while (s->table[h] >= 0) {
        long i = (long)s->table[h];
        if (s->len[i] == len && memcmp(s->arena + s->off[i], key, len) == 0) {
            *added = false;
            return i;
        }
        h = (h + 1) & (s->tcap - 1);
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 1024;
        s->off = wmx_realloc(s->off, (size_t)s->cap * sizeof *s->off);
        s->len = wmx_realloc(s->len, (size_t)s->cap * sizeof *s->len);
        s->parent = wmx_realloc(s->parent, (size_t)s->cap * sizeof *s->parent);
        s->step = wmx_realloc(s->step, (size_t)s->cap * sizeof *s->step);
    }
    if (s->alen + len > s->acap) {
        s->acap = s->acap ? s->acap * 2 : 1 << 16;
        while (s->alen + len > s->acap)
            s->acap *= 2;
        s->arena = wmx_realloc(s->arena, s->acap);
    }
    memcpy(s->arena + s->alen, key, len);
    long i = s->n++;
    s->off[i] = s->alen;
    s->len[i] = (uint32_t)len;
    s->parent[i] = parent;
    s->step[i] = step;
    s->alen += len;
    s->table[h] = i;
    if ((size_t)s->n * 2 > s->tcap)
        rehash(s);
    *added = true;
    return i;
}

size_t pgas_store_bytes(const pgas_store *s)
{
    return s->acap + (size_t)s->cap * (sizeof(size_t) + 4 + 8 + sizeof(pgas_xstep)) + s->tcap * 8;
}
