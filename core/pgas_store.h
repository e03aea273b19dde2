/* pgas_store.h - a visited set of byte-string keys that also remembers, for
 * each key, the node it was first reached from and by which step, so that a
 * breadth-first search can rebuild a shortest path (internal to core/pgas*). */
#ifndef WMX_PGAS_STORE_H
#define WMX_PGAS_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* A step as the searches record it: a machine transition plus, for the
 * normal-form search, the parts (1..4) chosen for the request's pops. */
typedef struct pgas_xstep {
    int8_t kind, rank, queue, pa, pb;
} pgas_xstep;

typedef struct pgas_store {
    unsigned char *arena;
    size_t alen, acap;
    size_t *off;
    uint32_t *len;
    int64_t *parent;
    pgas_xstep *step;
    long n, cap;
    int64_t *table;
    size_t tcap;             /* power of two */
} pgas_store;

void pgas_store_init(pgas_store *s);
void pgas_store_free(pgas_store *s);
/* Adds key unless present; returns its node index and sets *added. */
long pgas_store_add(pgas_store *s, const unsigned char *key, size_t len, long parent,
                    pgas_xstep step, bool *added);
static inline const unsigned char *pgas_store_key(const pgas_store *s, long i) { return s->arena + s->off[i]; }
/* Bytes in use, for limits. */
size_t pgas_store_bytes(const pgas_store *s);

#endif
