/* randprog.h - the random programs shared by the explorers' differential
 * tests (after irbuild.h): a small seeded generator and programs with
 * mutexes. */
#ifndef WMX_TEST_RANDPROG_H
#define WMX_TEST_RANDPROG_H

#include "irbuild.h"

#include <stdint.h>
#include <stdio.h>

typedef struct rng { uint64_t s; } rng;
static inline uint32_t rnd(rng *r)
{
    r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(r->s >> 33);
}
static inline int pick(rng *r, int n) { return (int)(rnd(r) % (uint32_t)n); }

/* Up to two accesses of the data d[0], d[1] inside a critical section. */
static inline void critical_body(rng *r, wmx_program *p, int t, const char *reg, const int *d)
{
    for (int k = pick(r, 3); k > 0; k--) {
        int v = d[pick(r, 2)];
        switch (pick(r, 3)) {
        case 0: store(p, t, v, 1 + pick(r, 2)); break;
        case 1: load(p, t, reg, v); break;
        default: rmw(p, t, I_FAA, NULL, v, 1, 0); break;
        }
    }
}

/* Programs with mutexes: each thread takes a lock (a blocking CAS, as the
 * C front end's pthread_mutex_lock), touches data, and mostly releases it;
 * sometimes a second mutex inside the first (deadlocks), a trylock, or no
 * unlock at all.  A lock waits, so it takes part in the blocking races. */
static inline wmx_program *random_lock_program(uint64_t seed)
{
    rng r = { seed * 2654435761ULL + 7 };
    char name[32];
    snprintf(name, sizeof name, "locks%llu", (unsigned long long)seed);
    wmx_program *p = ir_program_new(name, name, "wmx");
    int m[2] = { ir_add_var(p, "m0", 1), ir_add_var(p, "m1", 1) };
    int d[2] = { ir_add_var(p, "x", 1), ir_add_var(p, "y", 1) };
    int nth = 2 + pick(&r, 2);
    for (int t = 0; t < nth; t++) {
        char tn[16];
        snprintf(tn, sizeof tn, "T%d", t);
        ir_add_thread(p, tn);
        int blocks = 1 + pick(&r, nth == 3 ? 1 : 2);
        for (int b = 0; b < blocks; b++) {
            char reg[16];
            snprintf(reg, sizeof reg, "r%d", b);
            int mu = m[pick(&r, 2)], other = mu == m[0] ? m[1] : m[0];
            if (pick(&r, 5) == 0) {
                rmw(p, t, I_CAS, reg, mu, 0, t + 1);    /* trylock */
                continue;
            }
            lock_cas(p, t, NULL, mu, 0, t + 1);
            bool nested = pick(&r, 4) == 0;
            if (nested)
                lock_cas(p, t, NULL, other, 0, t + 1);
            critical_body(&r, p, t, reg, d);
            if (nested && pick(&r, 4) != 0)
                rmw(p, t, I_XCHG, NULL, other, 0, 0);
            if (pick(&r, 6) != 0)
                rmw(p, t, I_XCHG, NULL, mu, 0, 0);
        }
    }
    return p;
}

/* Programs of critical sections only (the mutexes are chains of RMWs, see
 * core/rfsmc.c's find_chain_cells): 2 to 4 threads, each taking a mutex
 * one to three times around a few data accesses, sometimes a second mutex
 * inside the first (in either order: deadlocks), sometimes an access
 * outside, a trylock that writes back or an exchange that waits for a
 * condition, and rarely no unlock.  Deeper than random_lock_program: a lock
 * takes the release of a thread's second or third critical section. */
static inline wmx_program *random_mutex_program(uint64_t seed)
{
    rng r = { seed * 11400714819323198485ULL + 3 };
    char name[32];
    snprintf(name, sizeof name, "mutex%llu", (unsigned long long)seed);
    wmx_program *p = ir_program_new(name, name, "wmx");
    int m[2] = { ir_add_var(p, "m0", 1), ir_add_var(p, "m1", 1) };
    int d[2] = { ir_add_var(p, "x", 1), ir_add_var(p, "y", 1) };
    int w = -1;
    int nth = 2 + pick(&r, 3);
    for (int t = 0; t < nth; t++) {
        char tn[16];
        snprintf(tn, sizeof tn, "T%d", t);
        ir_add_thread(p, tn);
        int blocks = 1 + pick(&r, nth == 4 ? 2 : 3);
        for (int b = 0; b < blocks; b++) {
            char reg[16];
            snprintf(reg, sizeof reg, "r%d", b);
            int mu = m[pick(&r, 2)], other = mu == m[0] ? m[1] : m[0];
            if (pick(&r, 6) == 0) {
                if (pick(&r, 2))
                    store(p, t, d[pick(&r, 2)], 3);
                else
                    load(p, t, reg, d[pick(&r, 2)]);
            }
            if (pick(&r, 8) == 0) {
                /* a trylock (a failed one writes back what it read); when it
                 * took the mutex nothing releases it */
                trylock_wb(p, t, reg, mu, 0, 1);
                continue;
            }
            if (pick(&r, 7) == 0) {
                /* an exchange that waits for a condition, on its own cell
                 * (a chain), rarely also read (then no cell is a chain) */
                static const ir_op ops[] = { OP_NE, OP_LT, OP_GE, OP_EQ };
                if (w < 0)
                    w = ir_add_var(p, "w", 1);
                xchg_await(p, t, reg, w, ops[pick(&r, 4)], pick(&r, 3), pick(&r, 3));
                if (pick(&r, 8) == 0)
                    load(p, t, reg, w);
                continue;
            }
            lock_cas(p, t, NULL, mu, 0, 1);
            bool nested = pick(&r, 5) == 0;
            if (nested)
                lock_cas(p, t, NULL, other, 0, 1);
            critical_body(&r, p, t, reg, d);
            if (nested)
                rmw(p, t, I_XCHG, NULL, other, 0, 0);
            if (pick(&r, 10) != 0)
                rmw(p, t, I_XCHG, NULL, mu, 0, 0);
        }
    }
    return p;
}

#endif
