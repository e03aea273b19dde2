/* wire.h - bytes for units of work and results that travel between the
 * processes of a distributed run (--jobs over MPI ranks, team_net.h).
 *
 * A writer appends fixed-width integers in host order (every rank
 * runs the same binary on the same architecture) integers and byte runs to
 * a growing buffer; a reader takes them back in the same order and marks
 * itself bad, instead of reading past the end, on a short or corrupt
 * message.  Below everything but util.h. */
#ifndef WMX_WIRE_H
#define WMX_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wire {
    unsigned char *buf;
    size_t len, cap;
} wire;

void wire_init(wire *w);
void wire_free(wire *w);
void wire_reset(wire *w);
void wire_put(wire *w, const void *p, size_t n);
void wire_i32(wire *w, int32_t v);
void wire_i64(wire *w, int64_t v);
void wire_str(wire *w, const char *s);     /* NULL is written as absent */
/* A signed integer in 1-10 bytes (zigzag, 7 bits a byte): a final state's
 * values are mostly small, and a run's states are most of its result */
void wire_varint(wire *w, int64_t v);

typedef struct wire_reader {
    const unsigned char *p;
    size_t len, at;
    bool bad;                                /* a read ran past the end */
} wire_reader;

void wire_reader_init(wire_reader *r, const void *p, size_t len);
/* copies n bytes into out; zeros and marks r bad when fewer are left */
bool wire_get(wire_reader *r, void *out, size_t n);
int32_t wire_get_i32(wire_reader *r);
int64_t wire_get_i64(wire_reader *r);
int64_t wire_get_varint(wire_reader *r);
/* A count written by wire_i32 that must lie in 0..max: -1 (and r bad)
 * otherwise, so that a corrupt count never sizes an allocation. */
int wire_get_count(wire_reader *r, int max);
/* A string written by wire_str: a fresh copy, NULL when it was absent. */
char *wire_get_str(wire_reader *r);
/* Whether every byte was read and none was missing. */
bool wire_done(const wire_reader *r);

/* The selftests' pseudo-random numbers (a function, not a macro, so that
   several in one initialiser are sequenced). */
static inline unsigned wire_selftest_next(unsigned *x)
{
    *x = *x * 1103515245u + 12345u;
    return *x >> 8;
}

#endif
